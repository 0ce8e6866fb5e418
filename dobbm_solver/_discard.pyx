# cython: language_level=3
"""Every lay-away of a 12-card hand scored from tables (private; use
:func:`dobbm_solver.models.discard_rule.heuristic_discard` and
:func:`dobbm_solver.models.discard_rule.calibrated_discard`).

Both lay-away rules score a lay-away ``d`` of ``hand`` as a sum of one term
per card laid away (by the card, and whether it is one of the hand's top
cards) and one term per plain suit kept (by the cards kept in that suit and
the suit's top cards in ``hand``; a void by the number of hearts kept).  The
rules define their terms in Python; :class:`Tables` asks for each term once
and this module only adds them up, always in the same order: the four
cards' terms by ascending card, then the suits' terms in the order of
``plain_suits``, left to right -- the order of the rules' Python loops that
this module replaces (kept as references in ``tests/test_discard_core.py``),
so the floating-point sums are the same to the last bit.

The lay-aways are taken in :func:`itertools.combinations` order over the
hand's cards by ascending card number (E6 first), the order of
:func:`dobbm_solver.models.discard_rule.legal_discards`, and those laying away more
plain Saus than hearts are skipped (the Sau rule,
:func:`dobbm_solver.rules.sau_rule_ok`).

Cards are numbered as in :mod:`dobbm_solver.cards` (nine a suit,
``9 * suit + rank``); a *holding* is one suit's cards as nine rank bits.
"""

from libc.math cimport INFINITY
from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memset

cdef extern from *:
    """
    /* popcount as one instruction (the default x86-64 target predates it) */
    #if defined(__GNUC__) && defined(__x86_64__) && !defined(__POPCNT__)
    #pragma GCC target("popcnt")
    #endif
    static inline int la_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int la_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    """
    int la_popcount(unsigned long long x) nogil
    int la_ctz(unsigned long long x) nogil

cdef enum:
    NCARDS = 36
    SUIT_CARDS = 9
    HOLDINGS = 512          # 1 << SUIT_CARDS
    MAX_SUITS = 4
    HAND = 12               # the declarer's 8 cards and the Dobb
    LAY = 4                 # cards laid away
    N_DISCARDS = 495         # C(12, 4)
    MAX_TOPS = 16           # distinct top-card sets a holding may have
    KEPT_HEARTS = 10        # 0 .. 9 hearts kept


cdef struct Terms:
    double card[NCARDS][2]              # [card][is a top card]
    double suit[MAX_TOPS][HOLDINGS]     # [top set of the suit][kept holding], kept not empty
    double void[KEPT_HEARTS]            # a kept void, by the hearts kept
    int top_id[HOLDINGS]                # a holding's top set, as an index of suit
    uint64_t top_run[HOLDINGS]          # a holding's top set
    int shift[MAX_SUITS]                # the plain suits' first card
    int n_plain
    uint64_t trumps
    uint64_t plain_saus


cdef inline int score_all(const Terms* t, uint64_t hand, uint64_t exclude, uint64_t require,
                          uint64_t* ds, double* scores) noexcept nogil:
    """Every lay-away of the 12 cards of ``hand`` allowed by the Sau rule, with none of
    ``exclude`` and all of ``require``, into ``ds`` with its score; returns how many."""
    cdef int cards[HAND]
    cdef double base[HAND]
    cdef int top_id[MAX_SUITS]
    cdef uint64_t bits[HAND]
    cdef uint64_t tops = 0, h = hand, d, kept, ks
    cdef int n = 0, k, i0, i1, i2, i3, hearts, kh
    cdef int n_hearts = la_popcount(hand & t.trumps)
    cdef double sc
    for k in range(t.n_plain):
        ks = (hand >> t.shift[k]) & (HOLDINGS - 1)
        top_id[k] = t.top_id[ks]
        tops |= t.top_run[ks] << t.shift[k]
    for k in range(HAND):
        cards[k] = la_ctz(h)
        h &= h - 1
        bits[k] = (<uint64_t>1) << cards[k]
        base[k] = t.card[cards[k]][(tops >> cards[k]) & 1]
    for i0 in range(HAND - 3):
        for i1 in range(i0 + 1, HAND - 2):
            for i2 in range(i1 + 1, HAND - 1):
                for i3 in range(i2 + 1, HAND):
                    d = bits[i0] | bits[i1] | bits[i2] | bits[i3]
                    if (d & exclude) or (require & ~d):
                        continue
                    hearts = la_popcount(d & t.trumps)
                    if la_popcount(d & t.plain_saus) > hearts:
                        continue
                    kept = hand & ~d
                    kh = n_hearts - hearts
                    sc = base[i0] + base[i1]
                    sc = sc + base[i2]
                    sc = sc + base[i3]
                    for k in range(t.n_plain):
                        ks = (kept >> t.shift[k]) & (HOLDINGS - 1)
                        sc = sc + (t.suit[top_id[k]][ks] if ks else t.void[kh])
                    ds[n] = d
                    scores[n] = sc
                    n += 1
    return n


cdef class Tables:
    """One lay-away rule's terms, each asked for once (see the module doc).

    ``top_run(holding)``: the holding's top cards (a subset of it);
    ``card_term(card, top)``: the term of laying ``card`` away, ``top`` whether it
    is a top card; ``suit_term(kept, top)``: the term of keeping the holding ``kept``
    (not empty) of a plain suit whose top cards are ``top``; ``void_term(hearts)``: the
    term of a plain suit kept void with ``hearts`` hearts kept.  Holdings are rank
    bits, the same for every suit.  ``plain_suits``: the suits whose kept holdings
    are scored, in the order their terms are added; ``trumps``, ``plain_saus``: the
    card sets of the Sau rule."""

    cdef Terms t

    def __init__(self, top_run, card_term, suit_term, void_term, plain_suits,
                 uint64_t trumps, uint64_t plain_saus):
        cdef int h, k, c, n_tops = 0
        cdef uint64_t sub
        cdef uint8_t need[MAX_TOPS][HOLDINGS]
        memset(&self.t, 0, sizeof(Terms))
        memset(need, 0, sizeof(need))
        ids: dict[int, int] = {}
        for h in range(HOLDINGS):
            top = top_run(h)
            if top & ~h:
                raise ValueError(f"top_run({h}) = {top} is not a subset of the holding")
            if top not in ids:
                if len(ids) == MAX_TOPS:
                    raise ValueError(f"more than {MAX_TOPS} distinct top sets")
                ids[top] = len(ids)
            self.t.top_run[h] = top
            self.t.top_id[h] = ids[top]
            sub = h                 # every holding kept from h
            while True:
                need[ids[top]][sub] = 1
                if sub == 0:
                    break
                sub = (sub - 1) & h
        for top, k in ids.items():
            for h in range(1, HOLDINGS):
                if need[k][h]:
                    self.t.suit[k][h] = suit_term(h, top)
        for c in range(NCARDS):
            self.t.card[c][0] = card_term(c, False)
            self.t.card[c][1] = card_term(c, True)
        for k in range(KEPT_HEARTS):
            self.t.void[k] = void_term(k)
        suits = list(plain_suits)
        if not 0 < len(suits) <= MAX_SUITS or any(not 0 <= s < MAX_SUITS for s in suits):
            raise ValueError(f"bad plain suits {suits!r}")
        self.t.n_plain = len(suits)
        for k in range(len(suits)):
            self.t.shift[k] = SUIT_CARDS * suits[k]
        self.t.trumps = trumps
        self.t.plain_saus = plain_saus

    cdef int _score(self, uint64_t hand, uint64_t exclude, uint64_t require,
                    uint64_t* ds, double* scores) except -1:
        if hand >> NCARDS or la_popcount(hand) != HAND:
            raise ValueError(f"need {HAND} cards, not {la_popcount(hand)}")
        return score_all(&self.t, hand, exclude, require, ds, scores)

    def scores(self, uint64_t hand, uint64_t exclude=0, uint64_t require=0) -> list:
        """Every lay-away of the 12 cards of ``hand`` (Sau rule obeyed, none of
        ``exclude``, all of ``require``) with its score, in combinations order."""
        cdef uint64_t ds[N_DISCARDS]
        cdef double sc[N_DISCARDS]
        cdef int i, n = self._score(hand, exclude, require, ds, sc)
        return [(ds[i], sc[i]) for i in range(n)]

    def first_best(self, uint64_t hand, uint64_t exclude, uint64_t require, double tie) -> int:
        """The first lay-away (as :meth:`scores`) that no later one beats by more than
        ``tie``: a later one replaces the best so far only if it scores more than ``tie``
        above it.  0 if there is none."""
        cdef uint64_t ds[N_DISCARDS]
        cdef double sc[N_DISCARDS]
        cdef int i, n = self._score(hand, exclude, require, ds, sc)
        cdef uint64_t best = 0
        cdef double best_score = -INFINITY
        for i in range(n):
            if sc[i] > best_score + tie:
                best, best_score = ds[i], sc[i]
        return best

    def near_best(self, uint64_t hand, uint64_t exclude, uint64_t require, double margin) -> list:
        """The lay-aways (as :meth:`scores`) scoring at least the best score less ``margin``."""
        cdef uint64_t ds[N_DISCARDS]
        cdef double sc[N_DISCARDS]
        cdef int i, n = self._score(hand, exclude, require, ds, sc)
        cdef double top = -INFINITY
        for i in range(n):
            if sc[i] > top:
                top = sc[i]
        return [ds[i] for i in range(n) if sc[i] >= top - margin]
