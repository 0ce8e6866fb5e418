# cython: language_level=3
"""Exact open-card search for Dobbm (private; use :mod:`dobbm_solver.solver`).

The position is four hands as 36-bit bitboards, seat 0 being the declarer.
The value of a position is the declarer's final points (0..120): points in
the declarer's tricks plus the bonus (lay-away or Dobb) if the declarer takes
at least one trick (Match rule; taking all eight gives 120 by itself).

Search: fail-soft alpha-beta over single cards, called with null windows by
an MTD(f) driver working down from the most the declarer can reach;
transposition table at trick starts holding bounds on the *future* points,
stored independently of the points already taken and of the bonus (so
entries hold across positions and lay-aways, see ``tt_encode``), keyed
by the four hands in relative ranks (each suit's cards present packed to
its lowest ranks), the leader and the Match flag: positions alike up to
the points of their cards share entries, with the bounds shifted by the
points they differ by (see ``point_shift``; value nodes on the 120
benchmark deals 4.46M -> 1.82M, every card's 16.4M -> 5.26M); each entry
holds the cards present too, so an entry is exact for its own position
and results never depend on the table size (a new table starts in a
1 MiB part of it, which stays cached from solve to solve, and is rehashed
into the whole after 100k nodes or when roots share it).  Equivalent zero-point cards are
searched once, and of a run of one hand's cards with no card in play
between them only the right one when the trick's side is sure (see
``drop_dominated``); for the value of every card, such twins bound each
other's searches (``Core.card_values``).  Bounds: sure trumps
(for the declarer also by length: each of his trumps that loses falls to a
different higher trump of a defender) and, for the side on lead, the
winners it can cash at once (drawing trumps, then top cards no one can
ruff), each with the cheapest cards the others must add (a defender's
partners may smear their richest).  The last two tricks are solved by a
small direct minimax.  Move ordering: a defender's
leads that win the trick or let a partner win it first, the richest first
(refutations that take points, found first, also return tighter fail-soft
bounds, so MTD(f) takes bigger steps); other leads by a history counter
(credited for a cutoff by the cube of the cards left, debited three
times that for each lead tried before it), on ties the declarer's highest
card and a defender's lowest first; following cards by trick-winning
heuristics alone (a defender who can win the trick for good does so with
his richest such card; a card that can still be overtaken ranks with the
losing ones; losing cards the cheapest first, but when his side takes the
trick -- a partner wins it for good, or still to play beats the declarer's
card -- his richest, those that would take a card of the declarer later
last): a history counter for
them, as for the leads, cost more time than it saved nodes.
"""

from libc.stdint cimport uint64_t, uint32_t, int8_t, uint8_t, int64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

cdef extern from *:
    """
    /* Without this GCC compiles popcount to a library call (the default
       x86-64 target predates the POPCNT instruction, which every x86-64 CPU
       since 2008-2010 has); the search spends a tenth of its time there. */
    #if defined(__GNUC__) && defined(__x86_64__) && !defined(__POPCNT__)
    #pragma GCC target("popcnt")
    #endif
    static inline int dd_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int dd_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    static inline void dd_prefetch(const void* p) { __builtin_prefetch(p); }
    /* The table key packs two sets of cards within the cards present
       (PEXT), then spreads them to the lowest ranks of each suit (PDEP):
       four BMI2 instructions instead of a loop over the ranks; PEXT also
       tells at once whether a hand's cards of a suit hold a run (two with
       no other card between).  Compiled for BMI2 in these functions alone
       and used only where the CPU has it (see dd_fast_bmi2), so the module
       still runs on any x86-64 CPU. */
    #if defined(__GNUC__) && defined(__x86_64__)
    #include <immintrin.h>
    __attribute__((target("bmi2"))) static void dd_pack_bmi2(
            unsigned long long a, unsigned long long b, unsigned long long from,
            unsigned long long to, unsigned long long* pa, unsigned long long* pb) {
        *pa = _pdep_u64(_pext_u64(a, from), to);
        *pb = _pdep_u64(_pext_u64(b, from), to);
    }
    /* BMI2 where it is fast: AMD's Zen 1 and 2 run PEXT and PDEP in
       microcode, slower than the loop */
    __attribute__((target("bmi2"))) static unsigned long long dd_pext(unsigned long long x, unsigned long long m) {
        return _pext_u64(x, m);
    }
    __attribute__((target("bmi2"))) static unsigned long long dd_pdep(unsigned long long x, unsigned long long m) {
        return _pdep_u64(x, m);
    }
    static int dd_fast_bmi2(void) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("znver1") && !__builtin_cpu_is("znver2");
    }
    #else
    static void dd_pack_bmi2(unsigned long long a, unsigned long long b, unsigned long long from,
            unsigned long long to, unsigned long long* pa, unsigned long long* pb) {
        (void)a; (void)b; (void)from; (void)to; *pa = 0; *pb = 0;
    }
    static unsigned long long dd_pext(unsigned long long x, unsigned long long m) { (void)x; (void)m; return 0; }
    static unsigned long long dd_pdep(unsigned long long x, unsigned long long m) { (void)x; (void)m; return 0; }
    static int dd_fast_bmi2(void) { return 0; }
    #endif
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* A hint only: transparent huge pages for the table where the OS has them. */
    static inline void dd_advise_huge(void* p, size_t n) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(p, n, MADV_HUGEPAGE);
    #else
        (void)p; (void)n;
    #endif
    }
    """
    int dd_ctz(unsigned long long x) nogil
    int dd_popcount(unsigned long long x) nogil
    void dd_advise_huge(void* p, size_t n) nogil
    void dd_prefetch(const void* p) nogil
    void dd_pack_bmi2(unsigned long long a, unsigned long long b, unsigned long long frm,
                      unsigned long long to, unsigned long long* pa, unsigned long long* pb) nogil
    int dd_fast_bmi2() nogil
    unsigned long long dd_pext(unsigned long long x, unsigned long long m) nogil
    unsigned long long dd_pdep(unsigned long long x, unsigned long long m) nogil
    int __builtin_clzll(unsigned long long x) nogil

cdef enum:
    HUGE_PAGE = 2 * 1024 * 1024
    SMALL_ENTRIES = 32768
    GROW_NODES = 100000
    NCARDS = 36
    TRUMP = 2
    INF = 1000

# for the tests: a new table starts in its first SMALL_TABLE_ENTRIES entries
# (or all of a smaller table) and moves to the whole after GROW_AFTER_NODES nodes
SMALL_TABLE_ENTRIES = SMALL_ENTRIES
GROW_AFTER_NODES = GROW_NODES

# BMI2 instructions where the CPU runs them fast: for the table keys (see
# canonical_key) and to find runs of cards (see drop_dominated)
cdef bint USE_BMI2 = dd_fast_bmi2()
FAST_BMI2 = bool(USE_BMI2)


def set_bmi2(bint on) -> bool:
    """Use BMI2 (``on``, where the CPU runs it fast) or the portable code;
    returns the setting before.  Both give the same keys and the same
    search: the tests compare them."""
    global USE_BMI2
    cdef bint before = USE_BMI2
    USE_BMI2 = on and FAST_BMI2
    return before

cdef int POINTS[36]
cdef int SUIT[36]
cdef int RANK[36]            # rank in its suit, 0 (the six) .. 8 (the Sau): no division in order_moves
cdef uint64_t SUITMASK[4]
cdef uint64_t ZERO_MASK = 0        # the 6 7 8 9 of every suit
cdef int TRUMP_PTS[512]         # points of a set of trumps, by its 9-bit mask
cdef uint64_t RANKMASK[9]       # the four cards of a rank
cdef uint64_t BEATS[36]         # BEATS[w]: the cards that take the trick from card w played after it

cdef int _rank_points[9]
_rank_points[:] = [0, 0, 0, 0, 2, 3, 4, 10, 11]


cdef void _init_tables() noexcept:
    global ZERO_MASK
    cdef int c, s
    for s in range(4):
        SUITMASK[s] = (<uint64_t>0x1FF) << (9 * s)
    for c in range(NCARDS):
        POINTS[c] = _rank_points[c % 9]
        SUIT[c] = c // 9
        RANK[c] = c % 9
        if POINTS[c] == 0:
            ZERO_MASK |= (<uint64_t>1) << c
    cdef int z, b
    for b in range(9):
        RANKMASK[b] = 0
        for s in range(4):
            RANKMASK[b] |= (<uint64_t>1) << (9 * s + b)
    for z in range(512):
        TRUMP_PTS[z] = 0
        for b in range(9):
            if (z >> b) & 1:
                TRUMP_PTS[z] += _rank_points[b]
    for c in range(NCARDS):
        # higher cards of its suit; all trumps too when it is a plain card
        BEATS[c] = SUITMASK[SUIT[c]] & ~(((<uint64_t>2) << c) - 1)
        if SUIT[c] != TRUMP:
            BEATS[c] |= SUITMASK[TRUMP]

_init_tables()


cdef inline bint beats(int a, int w) noexcept nogil:
    """Card ``a`` played after ``w`` takes the trick from it."""
    # a table bit test: no branch on the suits
    return (BEATS[w] >> a) & 1


cdef inline uint64_t follow(uint64_t hand, int suit) noexcept nogil:
    """Legal cards of ``hand`` when ``suit`` is led."""
    # selects, not branches (conditional moves): which one applies is hard to predict
    cdef uint64_t f = hand & SUITMASK[suit]
    cdef uint64_t t = hand & SUITMASK[TRUMP]
    cdef uint64_t r = t if t else hand
    return f if f else r


cdef inline uint64_t legal_moves(const Pos* p, int seat) noexcept nogil:
    cdef uint64_t h = p.hands[seat]
    if p.ncards == 0:
        return h
    return follow(h, SUIT[p.trick[0]])


cdef inline uint64_t drop_equivalent(const Pos* p, uint64_t moves) noexcept nogil:
    """Keep one card of each run of zero-point cards adjacent among the cards in play."""
    # drop a zero card of ``moves`` when the next zero card above it in
    # play (same suit) is a move too; all suits at once: rank c + 1, or
    # c + 2 past a gap, or c + 3 past two (point cards are masked off, so
    # nothing crosses into them or into the next suit)
    cdef uint64_t present = (p.hands[0] | p.hands[1] | p.hands[2] | p.hands[3] | p.trickmask) & ZERO_MASK
    cdef uint64_t m = moves & ZERO_MASK
    cdef uint64_t gap1 = ~(present >> 1), gap2 = ~(present >> 2)
    return moves & ~(m & ((m >> 1) | (gap1 & ((m >> 2) | (gap2 & (m >> 3))))))


cdef inline void play_into(const Pos* p, Pos* c, int card) noexcept nogil:
    """``c`` = ``p`` after the seat to move plays ``card``; the fourth card closes the trick."""
    # one block copy (a few wide moves), then the fields that change
    cdef int seat = (p.leader + p.ncards) & 3
    cdef uint64_t bit = (<uint64_t>1) << card
    cdef int w
    c[0] = p[0]
    c.hands[seat] = p.hands[seat] & ~bit
    c.rem_pts = p.rem_pts - POINTS[card]
    if p.ncards == 3:
        w = 3 if beats(card, p.trick[p.win]) else p.win
        w = (p.leader + w) & 3
        if w == 0:
            c.pts = p.pts + p.trick_pts + POINTS[card]
            c.has_trick = 1
        c.leader = w
        c.ncards = 0
        c.trick_pts = 0
        c.trickmask = 0
    else:
        c.trick[p.ncards] = card
        if p.ncards == 0 or beats(card, p.trick[p.win]):
            c.win = p.ncards
        c.ncards = p.ncards + 1
        c.trick_pts = p.trick_pts + POINTS[card]
        c.trickmask = p.trickmask | bit


cdef inline void play(Pos* p, int card) noexcept nogil:
    """Play ``card`` for the seat to move, in place (see :func:`play_into`)."""
    cdef Pos c
    play_into(p, &c, card)
    p[0] = c


cdef inline uint64_t above_all(uint64_t cards) noexcept nogil:
    """The cards above the highest of ``cards`` (everything when it is empty)."""
    if cards == 0:
        return ~(<uint64_t>0)
    return ~((<uint64_t>2 << (63 - __builtin_clzll(cards))) - 1)


cdef inline int cheapest(uint64_t hand, int k) noexcept nogil:
    """The fewest points ``k`` cards of ``hand`` can hold (all of them if it holds fewer)."""
    # zero cards first, then U O K 10 A: unrolled, most calls end early
    cdef int n, total
    k -= dd_popcount(hand & ZERO_MASK)
    if k <= 0:
        return 0
    n = dd_popcount(hand & RANKMASK[4])
    if n >= k:
        return 2 * k
    total = 2 * n
    k -= n
    n = dd_popcount(hand & RANKMASK[5])
    if n >= k:
        return total + 3 * k
    total += 3 * n
    k -= n
    n = dd_popcount(hand & RANKMASK[6])
    if n >= k:
        return total + 4 * k
    total += 4 * n
    k -= n
    n = dd_popcount(hand & RANKMASK[7])
    if n >= k:
        return total + 10 * k
    total += 10 * n
    k -= n
    n = dd_popcount(hand & RANKMASK[8])
    return total + 11 * (k if n >= k else n)


cdef inline int highest(uint64_t cards) noexcept nogil:
    return 63 - __builtin_clzll(cards)


cdef inline int cheapest_split(uint64_t hand, int r1, int r) noexcept nogil:
    """The fewest points ``hand`` gives to ``r`` tricks whose first ``r1`` are led in trumps,
    when it never trumps the others (it follows their suit or has no trump):
    trumps to the trump leads while it has them, other cards to the rest."""
    cdef uint64_t tr = hand & SUITMASK[TRUMP]
    cdef int k
    if r1 == 0:     # the common case: no trump leads
        return cheapest(hand & ~tr, r)
    k = dd_popcount(tr)
    if k > r1:
        k = r1
    return cheapest(tr, k) + cheapest(hand & ~tr, r - k)


cdef inline int smear(uint64_t hand, const int* ns, int r) noexcept nogil:
    """Points a partner of the leader can add to the leader's ``r`` cashed tricks, ``ns[s]``
    of them led in suit ``s`` (plain ones above all his cards): his lowest
    trumps to the trump leads (the leader keeps the lead), his richest cards
    of each plain suit led while he holds them, and when out of a suit led
    (he has no trump then) his richest cards of the suits not led."""
    cdef int s, c, f, total = 0
    cdef uint64_t x, pool = 0
    for s in range(4):
        x = hand & SUITMASK[s]
        f = ns[s]
        if s == TRUMP:
            while f and x:
                c = dd_ctz(x)
                x &= x - 1
                total += POINTS[c]
                f -= 1
                r -= 1
        elif f:
            while f and x:
                c = highest(x)
                x &= ~((<uint64_t>1) << c)
                total += POINTS[c]
                f -= 1
                r -= 1
        else:
            pool |= x
    while r and pool:
        c = highest(pool)
        pool &= ~((<uint64_t>1) << c)
        total += POINTS[c]
        r -= 1
    return total


cdef inline int declarer_cash(const Pos* p, int* tricks) noexcept nogil:
    """Points the declarer on lead surely takes by cashing winners at once.

    First the declarer leads his highest trump while it is above every
    defender's trump; each defender must follow with a trump (the lowest
    costs least and keeps the highest, so that is the worst case for us);
    once the defenders have no trump left every trump of the declarer wins.
    Then a plain card of the declarer above all the defenders' cards of its
    suit wins, in a suit where every defender still holding a trump holds at
    least as many cards as the declarer has such winners (so no one can
    ruff).  Each defender adds a card to each of these tricks: trumps to the
    trump leads while it has them, then other cards; at least the cheapest.
    Sets ``tricks`` to their number; returns the points of all their cards.
    """
    cdef uint64_t dt = p.hands[0] & SUITMASK[TRUMP]
    cdef uint64_t f1 = p.hands[1] & SUITMASK[TRUMP]
    cdef uint64_t f2 = p.hands[2] & SUITMASK[TRUMP]
    cdef uint64_t f3 = p.hands[3] & SUITMASK[TRUMP]
    cdef uint64_t dall, top, sm
    cdef int r = 0, r1, pts = 0, c, s, n
    while dt:
        dall = f1 | f2 | f3
        c = highest(dt)
        if dall and c < highest(dall):
            break
        dt &= ~((<uint64_t>1) << c)
        pts += POINTS[c]
        r += 1
        f1 &= f1 - 1
        f2 &= f2 - 1
        f3 &= f3 - 1
    r1 = r
    dall = p.hands[1] | p.hands[2] | p.hands[3]
    for s in range(4):
        if s != TRUMP:
            sm = SUITMASK[s]
            top = p.hands[0] & sm & above_all(dall & sm)
            if top:
                n = dd_popcount(top)
                if ((f1 and dd_popcount(p.hands[1] & sm) < n) or (f2 and dd_popcount(p.hands[2] & sm) < n)
                        or (f3 and dd_popcount(p.hands[3] & sm) < n)):
                    continue
                r += n
                pts += TRUMP_PTS[(top >> (9 * s)) & 0x1FF]
    tricks[0] = r
    if r:
        pts += (cheapest_split(p.hands[1], r1, r) + cheapest_split(p.hands[2], r1, r)
                + cheapest_split(p.hands[3], r1, r))
    return pts


cdef inline int defender_cash(const Pos* p) noexcept nogil:
    """Points the defenders surely take when the defender on lead cashes winners at once.

    The leader leads his highest trump while it is above all the declarer's
    trumps and above the lowest trump of each partner (partners follow with
    their lowest trump, so the leader keeps the lead; the declarer follows
    with his lowest, the worst case for us).  Then a plain card of the leader
    above all other cards of its suit wins as well if the declarer and each
    partner are out of trumps or hold enough cards of that suit not to ruff
    (the declarer could, a partner would have to).  Every other hand adds a
    card to each such trick: the declarer trumps to the trump leads while he
    holds them, then other cards (at least the cheapest); the partners
    choose theirs, and can smear points (see ``smear``).
    """
    cdef int lead = p.leader
    cdef int q1 = (lead + 1) & 3, q2 = (lead + 2) & 3, q3 = (lead + 3) & 3
    cdef int a, b   # the two partners of the leader
    cdef uint64_t lt = p.hands[lead] & SUITMASK[TRUMP]
    cdef uint64_t dt = p.hands[0] & SUITMASK[TRUMP]
    cdef uint64_t ta, tb, others, top
    cdef int r = 0, r1, pts = 0, c, s, n
    cdef int ns[4]
    ns[0] = ns[1] = ns[2] = ns[3] = 0
    if q1 == 0:
        a = q2
        b = q3
    elif q2 == 0:
        a = q1
        b = q3
    else:
        a = q1
        b = q2
    ta = p.hands[a] & SUITMASK[TRUMP]
    tb = p.hands[b] & SUITMASK[TRUMP]
    while lt:
        c = highest(lt)
        if dt and c < highest(dt):
            break
        if (ta and dd_ctz(ta) > c) or (tb and dd_ctz(tb) > c):
            break
        lt &= ~((<uint64_t>1) << c)
        pts += POINTS[c]
        r += 1
        dt &= dt - 1
        ta &= ta - 1
        tb &= tb - 1
    r1 = r
    for s in range(4):
        if s != TRUMP:
            others = (p.hands[0] | p.hands[a] | p.hands[b]) & SUITMASK[s]
            top = p.hands[lead] & SUITMASK[s] & above_all(others)
            if top:
                n = dd_popcount(top)
                if dt and dd_popcount(p.hands[0] & SUITMASK[s]) < n:
                    continue
                if ta and dd_popcount(p.hands[a] & SUITMASK[s]) < n:
                    continue
                if tb and dd_popcount(p.hands[b] & SUITMASK[s]) < n:
                    continue
                r += n
                ns[s] = n
                pts += TRUMP_PTS[(top >> (9 * s)) & 0x1FF]
    if r:
        ns[TRUMP] = r1
        pts += cheapest_split(p.hands[0], r1, r) + smear(p.hands[a], ns, r) + smear(p.hands[b], ns, r)
    return pts


cdef inline int final_value(const Pos* p, int bonus) noexcept nogil:
    return p.pts + (bonus if p.has_trick else 0)


cdef inline int trick_winner(int lead, int a, int b, int c, int d) noexcept nogil:
    """Seat winning the trick ``a b c d`` led by seat ``lead``."""
    cdef int w = 0, best = a
    if beats(b, best):
        best = b
        w = 1
    if beats(c, best):
        best = c
        w = 2
    if beats(d, best):
        w = 3
    return (lead + w) & 3


cdef inline int last_trick(const Pos* p, int bonus) noexcept nogil:
    """Value when every hand holds one card at a trick start: the play is forced."""
    cdef int lead = p.leader
    cdef int a = dd_ctz(p.hands[lead]), b = dd_ctz(p.hands[(lead + 1) & 3])
    cdef int c = dd_ctz(p.hands[(lead + 2) & 3]), d = dd_ctz(p.hands[(lead + 3) & 3])
    if trick_winner(lead, a, b, c, d) == 0:
        return p.pts + POINTS[a] + POINTS[b] + POINTS[c] + POINTS[d] + bonus
    return final_value(p, bonus)


cdef int last_two(const Pos* p, int bonus) noexcept nogil:
    """Exact value when every hand holds two cards at a trick start: a tiny minimax."""
    cdef int lead = p.leader
    cdef int s1 = (lead + 1) & 3, s2 = (lead + 2) & 3, s3 = (lead + 3) & 3
    cdef uint64_t h0 = p.hands[lead], h1 = p.hands[s1], h2 = p.hands[s2], h3 = p.hands[s3]
    cdef uint64_t m0, m1, m2, m3
    cdef int a, b, c, d, w, w2, v, v0, v1, v2, v3, suit, tp, decl, won
    cdef int la, lb, lc, ld
    v0 = -INF if lead == 0 else INF
    m0 = h0
    while m0:
        a = dd_ctz(m0)
        m0 &= m0 - 1
        suit = SUIT[a]
        la = dd_ctz(h0 & ~((<uint64_t>1) << a))
        v1 = -INF if s1 == 0 else INF
        m1 = follow(h1, suit)
        while m1:
            b = dd_ctz(m1)
            m1 &= m1 - 1
            lb = dd_ctz(h1 & ~((<uint64_t>1) << b))
            v2 = -INF if s2 == 0 else INF
            m2 = follow(h2, suit)
            while m2:
                c = dd_ctz(m2)
                m2 &= m2 - 1
                lc = dd_ctz(h2 & ~((<uint64_t>1) << c))
                v3 = -INF if s3 == 0 else INF
                m3 = follow(h3, suit)
                while m3:
                    d = dd_ctz(m3)
                    m3 &= m3 - 1
                    ld = dd_ctz(h3 & ~((<uint64_t>1) << d))
                    # first trick
                    w = trick_winner(lead, a, b, c, d)
                    decl = p.pts
                    won = p.has_trick
                    if w == 0:
                        decl += POINTS[a] + POINTS[b] + POINTS[c] + POINTS[d]
                        won = 1
                    # last trick: forced; the cards in play order from the winner
                    tp = POINTS[la] + POINTS[lb] + POINTS[lc] + POINTS[ld]
                    if w == lead:
                        w2 = trick_winner(lead, la, lb, lc, ld)
                    elif w == s1:
                        w2 = trick_winner(s1, lb, lc, ld, la)
                    elif w == s2:
                        w2 = trick_winner(s2, lc, ld, la, lb)
                    else:
                        w2 = trick_winner(s3, ld, la, lb, lc)
                    if w2 == 0:
                        decl += tp
                        won = 1
                    v = decl + (bonus if won else 0)
                    if (s3 == 0 and v > v3) or (s3 != 0 and v < v3):
                        v3 = v
                if (s2 == 0 and v3 > v2) or (s2 != 0 and v3 < v2):
                    v2 = v3
            if (s1 == 0 and v2 > v1) or (s1 != 0 and v2 < v1):
                v1 = v2
        if (lead == 0 and v1 > v0) or (lead != 0 and v1 < v0):
            v0 = v1
    return v0


cdef inline uint64_t beat_mask(int w) noexcept nogil:
    """The cards that beat card ``w`` when played after it."""
    return BEATS[w]


cdef inline void later_cards(const Pos* p, int suit, uint64_t* later_d, uint64_t* later_f) noexcept nogil:
    """The cards the declarer (``later_d``) and the defenders (``later_f``) still
    to play to this trick may play: to a lead of ``suit`` when the mover leads."""
    cdef int k, o
    cdef uint64_t m
    later_d[0] = 0
    later_f[0] = 0
    for k in range(p.ncards + 1, 4):
        o = (p.leader + k) & 3
        m = legal_moves(p, o) if p.ncards else follow(p.hands[o], suit)
        if o == 0:
            later_d[0] = m
        else:
            later_f[0] |= m


cdef inline int sure_side(const Pos* p, int seat, int card, uint64_t later_d, uint64_t later_f) noexcept nogil:
    """Which side surely takes the trick once ``seat`` plays ``card``: 1 the
    declarer, -1 the defenders, 0 not sure.  It is sure when no opponent of
    the side then winning it, among the players still to play (``later_d``,
    ``later_f``: see :func:`later_cards`), can beat the winning card: a
    partner's higher card could only be beaten by cards that beat this one too."""
    cdef int w = card
    cdef bint decl_wins = seat == 0
    if p.ncards and not beats(card, p.trick[p.win]):
        w = p.trick[p.win]
        decl_wins = ((p.leader + p.win) & 3) == 0
    if (later_f if decl_wins else later_d) & beat_mask(w):
        return 0
    return 1 if decl_wins else -1


cdef inline uint64_t run_drop(const Pos* p, int seat, uint64_t run,
                              uint64_t later_d, uint64_t later_f) noexcept nogil:
    """The cards of ``run`` (two or more) not to search: all but the highest when
    the mover's side surely takes the trick, all but the lowest when the other
    side does, none when it is not sure (see :func:`drop_dominated`)."""
    cdef int top = highest(run)
    cdef int side = sure_side(p, seat, top, later_d, later_f)
    if side == 0:
        return 0
    if (seat == 0) == (side > 0):
        return run & ~((<uint64_t>1) << top)
    return run & (run - 1)


cdef inline uint64_t drop_dominated(const Pos* p, int seat, uint64_t moves,
                                    uint64_t later_d, uint64_t later_f) noexcept nogil:
    """Of each run of the mover's cards adjacent among the cards in play, keep
    one card when it is certain which side takes this trick.

    Two cards of one suit in one hand with no card in play between them win
    and lose against the same cards, so the positions after playing either
    are the same up to swapping them: every line of play after one has a
    twin after the other, with the same trick winners (and so the same Match
    rule), which differs only in where the two cards' points go: the higher
    card's extra points go to this trick instead of the later trick where the
    other card is played.  When this trick surely goes to the declarer, the
    higher card is thus worth at least as much to the declarer as the lower;
    when it surely goes to the defenders, at most as much.  So the mover
    plays the higher card of the run into a trick his side takes, the lower
    into one the other side takes, and the rest of the run need not be
    searched.  Which side surely takes the trick: :func:`sure_side`
    (``later_d``, ``later_f``: see :func:`later_cards`; a leader's are
    worked out here, suit by suit).
    """
    cdef uint64_t present = p.hands[0] | p.hands[1] | p.hands[2] | p.hands[3] | p.trickmask
    cdef uint64_t others = present & ~p.hands[seat]
    cdef uint64_t drop = 0, m, run, sel, cm, t, blk
    cdef int s, c, top, side
    for s in range(4):
        m = moves & SUITMASK[s]
        if not (m & (m - 1)):
            continue
        if USE_BMI2:
            sel = m | (others & SUITMASK[s])
            cm = dd_pext(m, sel)
            # the moves among the other hands' cards in play: a block of
            # ones is a run (PEXT packs them, PDEP puts a block back)
            if not (cm & (cm >> 1)):
                continue    # no two of these cards without another card between
            if p.ncards == 0:
                later_cards(p, s, &later_d, &later_f)
            while cm:
                # the lowest block of moves with no other card between
                t = cm + (cm & (~cm + 1))
                blk = cm & ~t
                cm &= t
                if not (blk & (blk - 1)):
                    continue
                drop |= run_drop(p, seat, dd_pdep(blk, sel), later_d, later_f)
            continue
        if p.ncards == 0:
            later_cards(p, s, &later_d, &later_f)
        while m:
            # the run from the lowest card left: cards of m with no other card in play between
            c = dd_ctz(m)
            run = (<uint64_t>1) << c
            top = c
            m &= m - 1
            while m:
                c = dd_ctz(m)
                if others & (((<uint64_t>1) << c) - ((<uint64_t>2) << top)):
                    break       # a card of another hand or of the trick lies between
                run |= (<uint64_t>1) << c
                top = c
                m &= m - 1
            if top == dd_ctz(run):
                continue
            # run_drop, written out: calling it here too cost 1% more
            # instructions on the benchmark (the compiler lays out worse)
            side = sure_side(p, seat, top, later_d, later_f)
            if side == 0:
                continue
            if (seat == 0) == (side > 0):
                drop |= run & ~((<uint64_t>1) << top)
            else:
                drop |= run & (run - 1)
    return moves & ~drop


cdef inline bint ruff_for(const Pos* p, int seat, uint64_t sm) noexcept nogil:
    """A partner of defender ``seat`` is void in suit ``sm`` and holds a trump."""
    cdef int q
    for q in range(1, 4):
        if q != seat and not (p.hands[q] & sm) and (p.hands[q] & SUITMASK[TRUMP]):
            return True
    return False


cdef inline int order_moves(Ctx* ctx, const Pos* p, int seat, uint64_t moves, int* out,
                            uint64_t later_d, uint64_t later_f) noexcept nogil:
    """Fill ``out`` with the moves, most promising first; return how many.
    ``later_d``, ``later_f``: see :func:`later_cards` (used when following)."""
    cdef int scores[12]
    cdef int n = 0, i, j, c, sc, w = 0, wseat, hist
    # following cards have no history term: a counter of their cutoffs (+1
    # each, or weighted by the cards left) ordered no better than the
    # heuristics alone, and keeping it cost time
    cdef bint mine = False, safe = False
    cdef uint64_t opp = 0     # legal cards of the opponents still to play to the trick
    cdef uint64_t decl = 0, part = 0, sm
    if p.ncards == 0 and seat != 0:
        decl = p.hands[0]
        part = (p.hands[1] | p.hands[2] | p.hands[3]) & ~p.hands[seat]
    if p.ncards:
        w = p.win
        wseat = (p.leader + w) & 3
        w = p.trick[w]
        mine = (wseat == 0) == (seat == 0)
        opp = later_f if seat == 0 else later_d
        safe = mine and not (opp & beat_mask(w))
        if seat != 0 and not mine and not later_d and (later_f & beat_mask(w)):
            # the declarer has played and a partner still to play beats
            # him: the defenders can take the trick (nodes 7.39M -> 5.52M
            # on the 120 benchmark deals)
            safe = True
    while moves:
        c = dd_ctz(moves)
        moves &= moves - 1
        if p.ncards == 0:
            # leads: by history (it learns which leads refute, and debits
            # those that failed, see lead_credit); on ties the declarer's
            # higher cards first, a defender's lower ones (those outside
            # the tiers below mostly give the trick away: cheaply first).
            # Static promise (sure winners first, as a bridge solver
            # would) and the table's move (from a search at another MTD(f)
            # threshold) both ordered the declarer's leads worse than this.
            hist = ctx.lead_history[seat][c]
            sc = (hist << 4) + (RANK[c] if seat == 0 else 8 - RANK[c])
            sm = SUITMASK[SUIT[c]]
            if seat != 0 and (SUIT[c] == TRUMP or not (decl & SUITMASK[TRUMP]) or (decl & sm)):
                # a defender's lead the declarer cannot ruff goes first if it
                # wins the trick (trumps, then the richest), next if a partner
                # holds a card above the declarer's in its plain suit or, the
                # declarer holding the suit, can ruff it (the richest first:
                # it is smeared): refutations that take points, found first,
                # also tighten the fail-soft bounds
                if not ((decl | part) & sm & ~((<uint64_t>2 << c) - 1)):
                    sc = (1 << 30) + (POINTS[c] << 4) + RANK[c] + (16 << 4 if SUIT[c] == TRUMP else 0)
                elif SUIT[c] != TRUMP and ((part & sm & above_all(decl & sm)) or ((decl & sm) and ruff_for(p, seat, sm))):
                    sc = (1 << 29) + (POINTS[c] << 4) + RANK[c]
        elif safe:
            # a partner takes the trick: smear points, keep winners: those
            # of this trick, and last the cards above all the declarer's of
            # their suit, trumps or a suit he holds (each would take one of
            # his cards later: nodes 5.52M -> 4.63M; every card above all
            # others of its suit, 5.95M)
            sc = (POINTS[c] << 12) - (1 << 11 if beats(c, w) else 0)
            sm = p.hands[0] & SUITMASK[SUIT[c]]
            if (sm or SUIT[c] == TRUMP) and not (sm & ~((<uint64_t>2 << c) - 1)):
                sc -= 1 << 16
            elif not mine and beats(c, w):
                # the declarer has played: a card beating his is the
                # defenders' trick at once (value nodes 4475836 -> 4461744;
                # such cards last instead: 6.24M)
                sc += 1 << 16
        elif beats(c, w):
            if not (opp & beat_mask(c)):
                # win it for good: the declarer with the lowest such card, a
                # defender with the one worth most (its points are the
                # defenders' now, and the refutation found first is a
                # stronger one, so the fail-soft bound it returns is tighter)
                if seat == 0:
                    sc = (3 << 20) - (RANK[c] << 12)
                else:
                    sc = (3 << 20) + (POINTS[c] << 12) - (RANK[c] << 8)
            else:
                # contest it: no better than losing cheaply, the cheapest
                # first (ahead of a loss with as many points)
                sc = (1 << 19) + (1 << 11) - (POINTS[c] << 12)
        else:
            # lose as little as possible (also under a partner's card that
            # may still be overtaken: he may well lose the trick)
            sc = (1 << 19) - (POINTS[c] << 12)
        # insertion sort, best first
        j = n
        while j > 0 and scores[j - 1] < sc:
            scores[j] = scores[j - 1]
            out[j] = out[j - 1]
            j -= 1
        scores[j] = sc
        out[j] = c
        n += 1
    return n


cdef inline void lead_credit(Ctx* ctx, int seat, const int* moves, int i, int depth) noexcept nogil:
    """Lead ``moves[i]`` of ``seat`` cut off with ``depth`` cards left: credit it, debit the leads tried before it.

    The weight grows with the cube of the cards left (a cutoff high in the
    tree saves more; the square, and a debit of twice the weight, ordered
    worse); a lead that failed loses three times that, so the leads that
    keep failing sink below those that have not been tried.  Both are halved
    for the seat when one grows large (no overflow over long runs of roots:
    a weight is at most 36^3, so scores stay far below the tiers of
    ``order_moves``).
    """
    cdef int w = depth * depth * depth, k
    cdef int* h = ctx.lead_history[seat]
    cdef bint big = False
    h[moves[i]] += w
    if h[moves[i]] > (1 << 20):
        big = True
    for k in range(i):
        h[moves[k]] -= 3 * w
        if h[moves[k]] < -(1 << 20):
            big = True
    if big:
        for k in range(NCARDS):
            h[k] //= 2


cdef inline uint64_t key_hash(uint64_t k0, uint64_t k1) noexcept nogil:
    cdef uint64_t hsh = (k0 ^ (k1 * <uint64_t>0xC2B2AE3D27D4EB4FULL)) * <uint64_t>0x9E3779B97F4A7C15ULL
    hsh ^= hsh >> 29
    hsh *= <uint64_t>0xBF58476D1CE4E5B9ULL
    hsh ^= hsh >> 32
    return hsh


cdef inline (uint64_t, uint64_t, uint64_t) pack_loop(uint64_t present, uint64_t a, uint64_t b,
                                                     uint64_t* key) noexcept nogil:
    """The sets ``a`` and ``b`` and the cards ``present`` packed to each suit's
    lowest ranks within the cards present, without BMI2; sets ``key[2]`` (see
    :func:`canonical_key`)."""
    cdef uint64_t cp = present, cz, hole, above
    cdef int r
    # packing is a selection of bits, so it commutes with the union of the
    # (disjoint) hands.  All suits at once: close each gap among the zero
    # cards present (ranks 2, 1, 0 in turn) by moving the zero cards above
    # it down one rank
    for r in range(2, -1, -1):
        hole = RANKMASK[r] & ~present
        above = (hole * 14) & ZERO_MASK      # ranks r + 1 .. 3 of the suits with that gap
        a = (a & ~above) | ((a & above) >> 1)
        b = (b & ~above) | ((b & above) >> 1)
        cp = (cp & ~above) | ((cp & above) >> 1)
    key[2] = cp
    # then every gap (ranks 7 .. 0 in turn): all the cards above it down one rank
    cz = cp
    for r in range(7, -1, -1):
        hole = RANKMASK[r] & ~cz
        if hole:
            above = (hole << 1) * ((<uint64_t>1 << (8 - r)) - 1)   # ranks r + 1 .. 8 of those suits
            a = (a & ~above) | ((a & above) >> 1)
            b = (b & ~above) | ((b & above) >> 1)
            cp = (cp & ~above) | ((cp & above) >> 1)
    return a, b, cp


cdef inline uint64_t canonical_key(const Pos* p, int bonus, uint64_t* key) noexcept nogil:
    """Key of a trick start by relative ranks (``key[0..1]``), and the cards present (``key[2]``).

    Positions whose hands hold the same cards relative to the cards still
    present (each suit's present cards packed to its lowest ranks) are the
    same game up to the points of the cards: their table entries serve each
    other, with bounds shifted by the points the cards differ by (see
    ``point_shift``).  The four (disjoint) packed hands are given by three
    36-bit sets: the cards present, those of seats 1 and 3, and those of
    seats 2 and 3; these, the leader, the Match flag and (before the
    declarer's first trick) whether the bonus is zero fill 112 bits of
    ``key[0..1]``; the bonus itself is not in the key (see ``tt_encode``).
    ``key[2]`` is the set of cards present with each suit's zero-point cards
    packed to its lowest ranks (the 6 7 8 9 count nothing: only their order
    matters): with ``key[0..1]`` it gives the position exactly.  Returns the
    hash of ``key[0..1]``.
    """
    cdef uint64_t present = p.hands[0] | p.hands[1] | p.hands[2] | p.hands[3]
    cdef uint64_t ha = p.hands[1] | p.hands[3]
    cdef uint64_t hb = p.hands[2] | p.hands[3]
    cdef uint64_t a, b, cp, cz, ps
    cdef unsigned long long pa, pb
    cdef int r
    if USE_BMI2:
        # the same key: cp is each suit's lowest ranks, as many as it has
        # cards present; the two sets packed within the present cards in
        # order (PEXT), then spread over cp (PDEP); key[2] packs the zero
        # cards the same way, suit by suit
        cp = 0
        cz = present & ~ZERO_MASK
        for r in range(4):
            ps = present & SUITMASK[r]
            cp |= (((<uint64_t>1) << dd_popcount(ps)) - 1) << (9 * r)
            cz |= (((<uint64_t>1) << dd_popcount(ps & ZERO_MASK)) - 1) << (9 * r)
        dd_pack_bmi2(ha, hb, present, cp, &pa, &pb)
        a = pa
        b = pb
        key[2] = cz
    else:
        a, b, cp = pack_loop(present, ha, hb, key)
    key[0] = a | (b << 36)
    key[1] = ((b >> 28) | (cp << 8) | ((<uint64_t>(p.leader | (p.has_trick << 2))) << 44)
              | ((<uint64_t>(bonus == 0 and not p.has_trick)) << 47))
    return key_hash(key[0], key[1])


cdef inline void point_shift(uint64_t mine, uint64_t theirs, int* dmin, int* dmax) noexcept nogil:
    """How the points of the cards present ``mine`` differ from ``theirs`` (same relative ranks).

    Pairing each suit's cards by relative rank, the twin positions' lines of
    play correspond one to one with the same trick winners; a line's future
    declarer points differ by the differences of the pairs he takes: at
    least ``dmin`` (the negative ones), at most ``dmax`` (the positive ones).
    """
    cdef uint64_t x, y
    cdef int s, d
    dmin[0] = 0
    dmax[0] = 0
    for s in range(4):
        x = mine & SUITMASK[s]
        y = theirs & SUITMASK[s]
        while x != y:      # same number of cards: the pairs above the last difference agree
            d = POINTS[dd_ctz(x)] - POINTS[dd_ctz(y)]
            if d > 0:
                dmax[0] += d
            else:
                dmin[0] += d
            x &= x - 1
            y &= y - 1


cdef inline int tt_encode(const Pos* p, int bonus, int v, bint upper) noexcept nogil:
    """A bound on the final points ``v``, as stored: independent of the points taken and the bonus.

    So entries hold across lay-aways (``Core.set_position(keep_table=True)``).
    After the declarer's first trick ``v`` is points taken + bonus + future
    trick points: the table holds the latter.  Before it, ``v`` is 0 (the
    declarer takes no trick) or bonus + the declarer's trick points, at
    least the bonus; with a bonus ``b`` > 0 the map ``0 -> -1``, ``v -> v - b``
    is increasing on these values and the same minimax for every such ``b``
    (leaves: -1 without a trick, else the trick points), so it commutes with
    the search: the table holds that (a zero bonus has a key bit of its own).
    A lower bound ``v >= x`` becomes ``w >= -1`` for ``x <= 0``, else
    ``w >= max(x - b, 0)``; an upper bound ``v <= x``, ``w <= -1`` for
    ``x < b`` (then ``v`` is 0), else ``w <= x - b``.
    """
    if p.has_trick:
        v -= p.pts + bonus
        if v < 0:
            v = 0 if not upper else v
        return v
    if upper:
        if v < bonus or (bonus == 0 and v < 0):
            return -1
        return v - bonus
    if v <= 0:
        return -1
    v -= bonus
    return v if v > 0 else 0


cdef inline int tt_decode(const Pos* p, int bonus, int w) noexcept nogil:
    """The bound on the final points for the stored bound ``w`` (see ``tt_encode``)."""
    if p.has_trick:
        return p.pts + bonus + w
    if w < 0:
        return 0
    return w + bonus


cdef inline TTEntry* tt_probe(Ctx* ctx, const uint64_t* key, uint64_t h) noexcept nogil:
    """The entry of exactly this position, or NULL."""
    cdef TTEntry* e = &ctx.tt[(h & ctx.tt_mask) & ~(<uint64_t>1)]
    cdef int i
    for i in range(2):
        if (e[i].key[0] == key[0] and e[i].key[1] == key[1] and e[i].exact == key[2]
                and e[i].gen == ctx.gen):
            return &e[i]
    return NULL


cdef inline bint tt_lookup(Ctx* ctx, const Pos* p, const uint64_t* key, uint64_t h,
                           int* lo, int* hi) noexcept nogil:
    """Bounds on the final points from this position's entry and its twins' (shifted); False if none."""
    cdef TTEntry* e = &ctx.tt[(h & ctx.tt_mask) & ~(<uint64_t>1)]
    cdef int i, wl, wu, dmin, dmax, l, u
    cdef bint found = False
    for i in range(2):
        if e[i].key[0] == key[0] and e[i].key[1] == key[1] and e[i].gen == ctx.gen:
            wl = e[i].lower
            wu = e[i].upper
            if e[i].exact != key[2]:
                point_shift(key[2], e[i].exact, &dmin, &dmax)
                # in the stored scale (see tt_encode) -1 is "no trick for the
                # declarer", the same in both twins; trick points stay >= 0
                if wl >= 0 or p.has_trick:
                    wl += dmin
                    if wl < 0:
                        wl = 0
                if wu >= 0 or p.has_trick:
                    wu += dmax
            l = tt_decode(p, ctx.bonus, wl)
            u = tt_decode(p, ctx.bonus, wu)
            if not found or l > lo[0]:
                lo[0] = l
            if not found or u < hi[0]:
                hi[0] = u
            found = True
    return found


cdef inline void tt_store(Ctx* ctx, const uint64_t* key, uint64_t h,
                          int lower, int upper, int depth) noexcept nogil:
    cdef TTEntry* e = tt_probe(ctx, key, h)
    cdef TTEntry* b
    if e == NULL:
        b = &ctx.tt[(h & ctx.tt_mask) & ~(<uint64_t>1)]
        # an empty or stale slot, else the one with fewer cards left
        if b[0].gen != ctx.gen:
            e = &b[0]
        elif b[1].gen != ctx.gen:
            e = &b[1]
        elif b[0].depth <= b[1].depth:
            e = &b[0]
        else:
            e = &b[1]
        e.key[0] = key[0]
        e.key[1] = key[1]
        e.exact = key[2]
        e.gen = ctx.gen
        e.lower = lower
        e.upper = upper
        e.depth = depth
    else:
        if lower > e.lower:
            e.lower = lower
        if upper < e.upper:
            e.upper = upper


cdef void tt_grow(Ctx* ctx) noexcept nogil:
    """Move from the small part of the table to the whole: rehash its entries.

    An entry moved into a bucket of the small part not yet visited is seen
    again and stays (its bucket is its own); one may evict another (only
    work is lost: the table holds exact keys).
    """
    cdef uint64_t i, n = ctx.tt_small + 1
    cdef TTEntry t
    cdef uint64_t h
    cdef uint64_t k3[3]
    ctx.tt_mask = ctx.tt_full
    for i in range(n):
        if ctx.tt[i].gen != ctx.gen:
            continue
        h = key_hash(ctx.tt[i].key[0], ctx.tt[i].key[1])
        if ((h & ctx.tt_mask) & ~(<uint64_t>1)) == (i & ~(<uint64_t>1)):
            continue
        t = ctx.tt[i]
        ctx.tt[i].gen = ctx.gen - 1
        k3[0] = t.key[0]
        k3[1] = t.key[1]
        k3[2] = t.exact
        tt_store(ctx, k3, h, t.lower, t.upper, t.depth)


cdef inline int lower_bound(const Ctx* ctx, const Pos* p) noexcept nogil:
    """The points the declarer surely ends with from the trick start ``p``."""
    cdef uint64_t decl_tr, def_tr, decl_sure, vul
    cdef int lo, v, k, n, i
    # sure points: a trump above every trump the other side holds wins
    # a trick of its own for its side, and every other player adds a
    # card to it: at least their cheapest ones
    decl_tr = p.hands[0] & SUITMASK[TRUMP]
    def_tr = (p.hands[1] | p.hands[2] | p.hands[3]) & SUITMASK[TRUMP]
    decl_sure = decl_tr & above_all(def_tr)
    lo = p.pts + (ctx.bonus if p.has_trick else 0)
    if decl_tr:
        # trump length: a trump of the declarer that does not win its
        # trick falls to a higher trump of a defender, a different one
        # each time; so at most as many of his trumps lose as the
        # defenders hold trumps above his lowest, only ones below their
        # highest (say the richest of these), and all the others win
        vul = decl_tr & ~decl_sure
        k = dd_popcount(decl_tr)
        v = TRUMP_PTS[decl_tr >> (9 * TRUMP)]
        n = dd_popcount(def_tr & ~((<uint64_t>2 << dd_ctz(decl_tr)) - 1))
        while n and vul:
            i = highest(vul)
            vul &= ~((<uint64_t>1) << i)
            v -= POINTS[i]
            k -= 1
            n -= 1
        if k:
            lo = (p.pts + ctx.bonus + v + cheapest(p.hands[1], k) + cheapest(p.hands[2], k)
                  + cheapest(p.hands[3], k))
    # the side on lead may cash its winners at once
    if p.leader == 0:
        v = declarer_cash(p, &k)
        if k:
            v += p.pts + ctx.bonus
            if v > lo:
                lo = v
    return lo


cdef inline int upper_bound(const Ctx* ctx, const Pos* p) noexcept nogil:
    """The most points the declarer can end with from the trick start ``p``."""
    cdef uint64_t decl_tr = p.hands[0] & SUITMASK[TRUMP]
    cdef uint64_t def_tr = (p.hands[1] | p.hands[2] | p.hands[3]) & SUITMASK[TRUMP]
    cdef uint64_t def_sure = def_tr & above_all(decl_tr)
    cdef int hi, v, k, i
    hi = p.pts + p.rem_pts + ctx.bonus - TRUMP_PTS[def_sure >> (9 * TRUMP)]
    if def_sure:
        k = dd_popcount(def_sure & p.hands[1])
        i = dd_popcount(def_sure & p.hands[2])
        if i > k:
            k = i
        i = dd_popcount(def_sure & p.hands[3])
        if i > k:
            k = i
        hi -= cheapest(p.hands[0], k)
    if p.leader != 0:
        v = p.pts + p.rem_pts + ctx.bonus - defender_cash(p)
        if v < hi:
            hi = v
    return hi


cdef int search(Ctx* ctx, const Pos* p, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta; returns the declarer's final points (bounds outside the window)."""
    cdef int seat = (p.leader + p.ncards) & 3
    cdef int lo, hi, v, best, n, i, depth = 0, alpha0, beta0
    cdef int moves[12]
    cdef uint64_t h = 0, later_d = 0, later_f = 0, legal
    cdef uint64_t key[3]
    cdef Pos child
    ctx.nodes += 1

    if p.ncards == 0:
        # bounds, then the table, at trick starts only: mid-trick the same
        # bounds never cut (not once in 14M such nodes on the benchmark: the
        # trick start has checked stronger ones)
        if p.hands[seat] == 0:
            return final_value(p, ctx.bonus)
        depth = dd_popcount(p.hands[0] | p.hands[1] | p.hands[2] | p.hands[3])
        if depth == 4:
            return last_trick(p, ctx.bonus)
        lo = lower_bound(ctx, p)
        # the lower bound first: it cuts far more often (at 12 cards left
        # 131k times against 8k), and the upper one is not needed then
        if lo >= beta:
            return lo
        hi = upper_bound(ctx, p)
        if hi <= alpha:
            return hi
        if depth == 8:
            return last_two(p, ctx.bonus)
        if ctx.nodes > ctx.grow_at and ctx.tt_mask != ctx.tt_full:
            tt_grow(ctx)
        h = canonical_key(p, ctx.bonus, key)
        if tt_lookup(ctx, p, key, h, &lo, &hi):
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
    alpha0 = alpha
    beta0 = beta

    legal = legal_moves(p, seat)
    if legal & (legal - 1):
        if p.ncards:
            later_cards(p, SUIT[p.trick[0]], &later_d, &later_f)
        legal = drop_dominated(p, seat, drop_equivalent(p, legal), later_d, later_f)
    if legal & (legal - 1):
        n = order_moves(ctx, p, seat, legal, moves, later_d, later_f)
    else:
        # a single card (often forced late in the hand): nothing to prune or order
        n = 1
        moves[0] = dd_ctz(legal)
    if seat == 0:
        best = -INF
        for i in range(n):
            play_into(p, &child, moves[i])
            v = search(ctx, &child, alpha, beta)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        if p.ncards == 0:
                            lead_credit(ctx, seat, moves, i, depth)
                        break
    else:
        best = INF
        for i in range(n):
            play_into(p, &child, moves[i])
            v = search(ctx, &child, alpha, beta)
            if v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        if p.ncards == 0:
                            lead_credit(ctx, seat, moves, i, depth)
                        break

    if p.ncards == 0:
        # bounds on the future points, relative to the window searched
        if best <= alpha0:
            tt_store(ctx, key, h, -1, tt_encode(p, ctx.bonus, best, True), depth)
        elif best >= beta0:
            tt_store(ctx, key, h, tt_encode(p, ctx.bonus, best, False), 127, depth)
        else:
            tt_store(ctx, key, h, tt_encode(p, ctx.bonus, best, False),
                     tt_encode(p, ctx.bonus, best, True), depth)
    return best


cdef int mtdf_bounded(Ctx* ctx, const Pos* p, int guess, int lower, int upper) noexcept nogil:
    """MTD(f): a sequence of null-window searches closing in on the exact value,
    known to lie in ``lower..upper``.

    Each search tests the current guess and moves the guess to the fail-soft
    bound it returns.  Started from the top (the default), the searches
    mostly prove upper bounds, which are cheap and whose table entries the
    next, lower test reuses; on the benchmark deals this beat bisection and
    bounded steps from the middle, and bigger steps down (nodes 1.34x with
    a step growing by one after each step of one point); even a start at the
    exact value costs more (1.08x) than one from the top: only a start one
    to three points above it saves nodes (0.87-0.90x).
    """
    cdef int g = guess, b
    while lower < upper:
        b = g + 1 if g == lower else g
        if b > upper:
            b = upper
        elif b <= lower:
            b = lower + 1
        g = search(ctx, p, b - 1, b)
        if g < b:
            upper = g
        else:
            lower = g
    return lower


cdef inline int mtdf(Ctx* ctx, const Pos* p, int guess) noexcept nogil:
    """The exact value by MTD(f) from ``guess`` (see :func:`mtdf_bounded`)."""
    return mtdf_bounded(ctx, p, guess, 0, 120)


cdef class Core:
    """Owns a transposition table and one root position (seat 0 = declarer)."""

    def __cinit__(self, int tt_mb=64, int64_t grow_after=GROW_NODES):
        cdef size_t want
        if tt_mb < 1:
            raise ValueError(f"table size must be at least 1 MiB, not {tt_mb}")
        if grow_after < 0:
            raise ValueError(f"grow_after must be at least 0, not {grow_after}")
        self.grow_after = grow_after
        want = (<size_t>tt_mb * 1024 * 1024) // sizeof(TTEntry)
        self.n_entries = 2
        while self.n_entries * 2 <= want:
            self.n_entries *= 2
        # two-entry buckets, each one cache line; the table is probed at
        # random, so ask for huge pages (fewer TLB misses): align it to 2 MiB
        self.tt_raw = calloc(self.n_entries * sizeof(TTEntry) + HUGE_PAGE, 1)
        if self.tt_raw == NULL:
            raise MemoryError(f"cannot allocate a {tt_mb} MiB table")
        self.ctx.tt = <TTEntry*>((<size_t>self.tt_raw + HUGE_PAGE - 1) & ~(<size_t>(HUGE_PAGE - 1)))
        dd_advise_huge(self.ctx.tt, self.n_entries * sizeof(TTEntry))
        self.ctx.tt_full = self.n_entries - 1
        self.ctx.tt_mask = self.ctx.tt_full
        self.ctx.tt_small = self.ctx.tt_full
        self.ctx.grow_at = 0
        self.ctx.gen = 0
        self.ctx.nodes = 0
        memset(&self.root, 0, sizeof(Pos))

    def __dealloc__(self):
        free(self.tt_raw)

    @property
    def table_entries(self) -> int:
        return self.n_entries

    @property
    def nodes(self) -> int:
        """Nodes searched since the position was set."""
        return self.ctx.nodes

    def set_position(self, hands, int leader, trick, int points, bint has_trick, int bonus,
                     bint keep_table=False):
        """Set the root and start a new table generation (old entries count as empty).

        With ``keep_table`` the table and the move-ordering history are kept:
        the entries hold for any root (they do not depend on the points taken
        or the bonus), so a run of related roots -- the lay-aways of one
        Dobbm -- share their work.  Values are exact either way.
        """
        cdef int s, c
        cdef Pos p
        memset(&p, 0, sizeof(Pos))
        if len(hands) != 4 or not 0 <= leader < 4 or len(trick) > 3:
            raise ValueError("bad position")
        for s in range(4):
            p.hands[s] = <uint64_t>hands[s]
            for c in range(NCARDS):
                if (p.hands[s] >> c) & 1:
                    p.rem_pts += POINTS[c]
        p.leader = leader
        p.pts = points
        p.has_trick = has_trick
        for c in trick:
            if p.ncards == 0 or beats(c, p.trick[p.win]):
                p.win = p.ncards
            p.trick[p.ncards] = c
            p.trickmask |= (<uint64_t>1) << c
            p.trick_pts += POINTS[c]
            p.ncards += 1
        self.root = p
        self.ctx.bonus = bonus
        self.ctx.nodes = 0
        if keep_table and self.ctx.gen != 0:
            # a run of roots sharing the table: use all of it
            if self.ctx.tt_mask != self.ctx.tt_full:
                tt_grow(&self.ctx)
            return
        self.ctx.gen += 1
        if self.ctx.gen == 0:   # wrapped: really clear
            memset(self.ctx.tt, 0, self.n_entries * sizeof(TTEntry))
            self.ctx.gen = 1
        self.ctx.nodes = 0
        # a new table: start in a cache-sized part of it (it stays cached
        # from solve to solve); a big search moves to the whole table
        self.ctx.tt_small = self.ctx.tt_full if self.ctx.tt_full < SMALL_ENTRIES else SMALL_ENTRIES - 1
        self.ctx.tt_mask = self.ctx.tt_small
        self.ctx.grow_at = self.grow_after
        memset(self.ctx.lead_history, 0, sizeof(self.ctx.lead_history))

    @property
    def to_move(self) -> int:
        return (self.root.leader + self.root.ncards) & 3

    def value(self, int guess=-1) -> int:
        """Exact final declarer points of the root under best play."""
        cdef int v
        if guess < 0:
            # the most the declarer can end with: MTD(f) works down from there
            guess = self.root.pts + self.root.trick_pts + self.root.rem_pts + self.ctx.bonus
        with nogil:
            v = mtdf(&self.ctx, &self.root, guess)
        return v

    def card_values(self) -> list:
        """``[(card, value)]`` for every legal card of the seat to move.

        Twins bound each other: two cards of one suit in the mover's hand
        with no other hand's card in play between them win and lose against
        the same cards, so the lines after either are twins with the same
        trick winners, differing only in where the points between them go
        (this trick, or the later one the other card falls to): their values
        differ by at most that difference, and the higher card is worth at
        least as much to the declarer as the lower (never more than that
        difference above it) when this trick surely goes to the declarer,
        at most as much when it surely goes to the defenders (see
        :func:`drop_dominated`).  The cards are searched from the lowest up,
        each MTD(f) within the bounds its lower twins already valued give;
        the cheap test just above a lower twin's value then often settles a
        higher card without the costly proof that it reaches it.  For the
        declarer the root's value is found first: no card is worth more, so
        it bounds every card's MTD(f), which starts there (most cards are
        worth less; the table the root's search left helps each of them:
        nodes on the benchmark deals 17.14M -> 16.42M); a defender's cards
        start from the most the declarer can reach.
        """
        cdef int seat = self.to_move
        cdef uint64_t moves = legal_moves(&self.root, seat)
        cdef uint64_t kept = drop_equivalent(&self.root, moves)
        cdef uint64_t present = (self.root.hands[0] | self.root.hands[1] | self.root.hands[2]
                                 | self.root.hands[3] | self.root.trickmask)
        cdef uint64_t others = present & ~self.root.hands[seat]
        cdef uint64_t done = 0, twins, later_d, later_f
        cdef bint declarer = seat == 0
        cdef Pos child
        cdef int c, a, d, side, v, g, lo, hi, best = -1
        cdef int val[NCARDS]
        values = {}
        if declarer:
            with nogil:
                best = mtdf(&self.ctx, &self.root, self.root.pts + self.root.trick_pts + self.root.rem_pts + self.ctx.bonus)
        for c in range(NCARDS):
            if not (kept >> c) & 1:
                continue
            child = self.root
            play(&child, c)
            lo = child.pts + (self.ctx.bonus if child.has_trick else 0)
            hi = child.pts + child.rem_pts + child.trick_pts + self.ctx.bonus
            # the lower twins already valued: same suit, no other hand's card between
            twins = done & SUITMASK[SUIT[c]]
            if twins:
                later_cards(&self.root, SUIT[c], &later_d, &later_f)
                side = sure_side(&self.root, seat, c, later_d, later_f)
                while twins:
                    a = highest(twins)
                    twins &= ~((<uint64_t>1) << a)
                    if others & (((<uint64_t>1) << c) - ((<uint64_t>2) << a)):
                        break       # a card of another hand lies between: so for all below
                    d = POINTS[c] - POINTS[a]
                    if val[a] + (0 if side < 0 else d) < hi:
                        hi = val[a] + (0 if side < 0 else d)
                    if val[a] - (0 if side > 0 else d) > lo:
                        lo = val[a] - (0 if side > 0 else d)
            if declarer and best < hi:
                hi = best       # no card is worth more than the root
            g = hi
            if g < lo:
                g = lo
            with nogil:
                v = mtdf_bounded(&self.ctx, &child, g, lo, hi)
            if v > best:
                best = v
            val[c] = v
            done |= (<uint64_t>1) << c
            values[c] = v
        # a zero-point card equivalent to the next card above it (same hand,
        # nothing between them in play) has that card's value: no search
        for c in range(NCARDS - 1, -1, -1):
            if (moves >> c) & 1 and not (kept >> c) & 1:
                values[c] = values[dd_ctz(present & SUITMASK[SUIT[c]] & ~(((<uint64_t>2) << c) - 1))]
        return sorted(values.items())

    def line(self) -> list:
        """A best line of play from the root to the end (cards in play order)."""
        cdef Pos p = self.root
        cdef Pos child
        cdef int v, c, n, i, seat, w
        cdef int moves[12]
        cdef uint64_t later_d = 0, later_f = 0
        out = []
        with nogil:
            v = mtdf(&self.ctx, &p, p.pts + p.trick_pts + p.rem_pts + self.ctx.bonus)
        while p.hands[0] | p.hands[1] | p.hands[2] | p.hands[3]:
            seat = (p.leader + p.ncards) & 3
            if p.ncards:
                later_cards(&p, SUIT[p.trick[0]], &later_d, &later_f)
            n = order_moves(&self.ctx, &p, seat, legal_moves(&p, seat), moves, later_d, later_f)
            for i in range(n):
                child = p
                play(&child, moves[i])
                with nogil:
                    if seat == 0:
                        w = search(&self.ctx, &child, v - 1, v) >= v
                    else:
                        w = search(&self.ctx, &child, v, v + 1) <= v
                if w:
                    break
            else:
                raise RuntimeError("no card keeps the value: search inconsistency")
            out.append(moves[i])
            p = child
        return out
