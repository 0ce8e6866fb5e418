# cython: language_level=3
"""Exact open-card search for Dobbm (private; use :mod:`dobbm_solver.solver`).

The position is four hands as 36-bit bitboards, seat 0 being the declarer.
Its value is the declarer's final points (0..120): points in his tricks plus
the bonus (lay-away or Dobb) if he takes a trick (Match rule; all eight
tricks give 120 by themselves).  One included file per concern:

- this file: fail-soft alpha-beta over single cards, driven with null
  windows by MTD(f) working down from an upper bound (``mtdf``,
  ``root_cards``); ``Core.card_values`` values every legal card, the twins
  of a run bounding each other;
- ``_search_start.pxi``, where MTD(f) starts: the value of the game in which
  each defender plays only his first-ordered card, an upper bound found by
  a small search that leaves its bounds in the table;
- ``_search_table.pxi``, the transposition table: bounds on the future
  points at trick starts, independent of the points taken and the bonus,
  keyed by relative ranks so that positions alike up to their cards' points
  share entries (the bounds shifted); each entry holds the cards present,
  so results never depend on the table size;
- ``_search_quick_tricks.pxi``: static bounds from the tricks each side
  surely wins, at trick starts and, for the declarer, mid-trick;
- ``_search_ordering.pxi``: runs of cards pruned when the trick's side is
  sure, leads ordered by static tiers and a history of cutoffs, following
  cards by trick-winning rules;
- ``_search_moves.pxi`` (legal and equivalent cards, playing a card) and
  ``_search_last_tricks.pxi`` (the last two tricks computed directly).

The history of each idea, kept or dropped, with its figures: docs/speed.md.
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
    int __builtin_clz(unsigned int x) nogil

cdef enum:
    HUGE_PAGE = 2 * 1024 * 1024
    SMALL_ENTRIES = 8192        # 256 KiB: a new table's first part (see Core.set_position)
    GROW_NODES = 50000
    GROW_STEP = 8
    GROW_NODES_STEP = 32
    NCARDS = 36
    TRUMP = 2
    INF = 1000

# for the tests: a new table starts in its first SMALL_TABLE_ENTRIES entries
# (or all of a smaller table); its part in use grows GROW_STEP times after
# GROW_AFTER_NODES nodes, and again after GROW_NODES_STEP times as many
# nodes each time, until it is the whole table
SMALL_TABLE_ENTRIES = SMALL_ENTRIES
GROW_AFTER_NODES = GROW_NODES
TABLE_GROW_STEP = GROW_STEP
TABLE_GROW_NODES_STEP = GROW_NODES_STEP

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
cdef int SUIT_PTS[512]          # points of a set of cards of one suit, by its 9-bit rank mask
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
        SUIT_PTS[z] = 0
        for b in range(9):
            if (z >> b) & 1:
                SUIT_PTS[z] += _rank_points[b]
    for c in range(NCARDS):
        # higher cards of its suit; all trumps too when it is a plain card
        BEATS[c] = SUITMASK[SUIT[c]] & ~(((<uint64_t>2) << c) - 1)
        if SUIT[c] != TRUMP:
            BEATS[c] |= SUITMASK[TRUMP]

_init_tables()


# The search's concerns, one file each, compiled here as one unit (so that
# their helpers inline into the search):
include "_search_moves.pxi"
include "_search_quick_tricks.pxi"
include "_search_last_tricks.pxi"
include "_search_ordering.pxi"
include "_search_table.pxi"
include "_search_start.pxi"


cdef int root_cards(Ctx* ctx, const Pos* p, int seat, const int* moves, int n, int alpha, int beta,
                    int depth) noexcept nogil:
    """The cards of the root of MTD(f) (``moves``, in order) searched with this
    pass's null window: those whose bound from an earlier pass
    (``ctx.root_bound``) settles the test are not searched again; the best
    (fail-soft) of the cards for the mover.  A pass of MTD(f) otherwise
    tests every card at each threshold, re-walking the first trick of cards
    already known to lie below it."""
    # in a null window a value fails high exactly when it is above alpha: the
    # declarer's card may still do so while its bound (an upper one) is above
    # alpha, a defender's may still fail low while its (lower) bound is not
    cdef bint declarer = seat == 0
    cdef int i, c, v, best = -INF if declarer else INF
    cdef Pos child
    for i in range(n):
        c = moves[i]
        v = ctx.root_bound[c]
        if (v > alpha) == declarer:
            play_into(p, &child, c)
            v = search(ctx, &child, alpha, beta)
            if (v > alpha) != declarer:
                ctx.root_bound[c] = v       # the bound on its side of the window
        if (v > best) if declarer else (v < best):
            best = v
        if (v > alpha) == declarer:
            if depth:
                lead_credit(ctx, p, seat, moves, i, depth)
            break
    return best


# Its address: keeps the compiler from inlining root_cards into the search,
# which calls it only at the root of MTD(f) (inlined, every node is dearer)
ctypedef int (*RootCards)(Ctx* ctx, const Pos* p, int seat, const int* moves, int n, int alpha,
                          int beta, int depth) noexcept nogil
cdef RootCards ROOT_CARDS = root_cards


cdef int search(Ctx* ctx, const Pos* p, int alpha, int beta) noexcept nogil:
    """Fail-soft alpha-beta; returns the declarer's final points (bounds outside the window)."""
    cdef int seat = (p.leader + p.ncards) & 3
    cdef int lo, hi, v, best, n, i, depth = 0, alpha0, beta0
    cdef bint found
    cdef int moves[12]
    cdef uint64_t h = 0, later_d = 0, later_f = 0, legal
    cdef uint64_t key[3]
    cdef Pos child
    ctx.nodes += 1

    if p.ncards == 0:
        # bounds, then the table, at trick starts only: mid-trick the same
        # bounds do not cut (the trick start has checked stronger ones; the
        # one mid-trick bound, below, counts what the trick's cards so far add)
        if p.hands[seat] == 0:
            return final_value(p, ctx.bonus)
        depth = dd_popcount(p.hands[0] | p.hands[1] | p.hands[2] | p.hands[3])
        if depth == 4:
            return last_trick(p, ctx.bonus)
        lo = lower_bound(ctx, p)
        # the lower bound first: it cuts far more often than the upper one,
        # which is not needed then
        if lo >= beta:
            return lo
        if depth == 8:
            # the last two tricks exactly, before the upper bound: an exact
            # value instead of a bound makes the fail-soft bounds above it
            # tighter
            return last_two(p, ctx.bonus)
        if ctx.nodes > ctx.grow_at and ctx.tt_mask != ctx.tt_full:
            tt_grow(ctx)
        h = canonical_key(p, ctx.bonus, key)
        found = tt_lookup(ctx, p, key, h, &lo, &v)      # v: the table's upper bound
        if found and lo >= beta:
            # the table's lower bound cuts: return before computing the
            # static upper bound, which could not change the value returned
            return lo
        hi = upper_bound(ctx, p)
        if hi <= alpha:
            # the upper bound cuts: return the table's bound where it is
            # tighter (a tighter fail-soft bound lets MTD(f) step further)
            return v if found and v < hi else hi
        if found:
            hi = v
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
    if p.ncards:
        # at every mid-trick node, also those with one card where no bound
        # is taken (a branch to skip it there costs more than it saves)
        later_cards(p, SUIT[p.trick[0]], &later_d, &later_f)
        if declarer_still_to_play(p, seat):
            # the declarer to play to this trick, second or third, or still to
            # play after the defender to move: if a card of his surely wins
            # it, a bound of its own (see mid_trick_lower_bound)
            lo = mid_trick_bound_at(ctx, p, seat, legal, later_d, later_f)
            if lo >= beta:
                return lo
    if legal & (legal - 1):
        legal = drop_dominated(p, seat, drop_equivalent(p, legal), later_d, later_f)
    # ordered at every node, the last tricks included
    n = ordered_moves(ctx, p, seat, legal, moves, later_d, later_f)
    if p == ctx.root:
        best = root_cards(ctx, p, seat, moves, n, alpha, beta, depth)
    elif seat == 0:
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
                            lead_credit(ctx, p, seat, moves, i, depth)
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
                            lead_credit(ctx, p, seat, moves, i, depth)
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


cdef int fill_position(Pos* p, hands, int leader, int points, bint has_trick) except -1:
    """``p`` = a trick start with these hands (seat 0 the declarer), leader and score."""
    cdef int s, c
    memset(p, 0, sizeof(Pos))
    if len(hands) != 4 or not 0 <= leader < 4:
        raise ValueError("bad position")
    for s in range(4):
        p.hands[s] = <uint64_t>hands[s]
        for c in range(NCARDS):
            if (p.hands[s] >> c) & 1:
                p.rem_pts += POINTS[c]
    p.leader = leader
    p.pts = points
    p.has_trick = has_trick
    return 0


cdef int add_trick(Pos* p, trick) except -1:
    """Put the cards of an unfinished ``trick`` (in play order) into ``p``."""
    cdef int c
    for c in trick:
        if p.ncards == 0 or beats(c, p.trick[p.win]):
            p.win = p.ncards
        p.trick[p.ncards] = c
        p.trickmask |= (<uint64_t>1) << c
        p.trick_pts += POINTS[c]
        p.ncards += 1
    return 0


def trick_start_bounds(hands, int leader, int points, bint has_trick, int bonus) -> tuple:
    """``(lower, upper)``: the static bounds the search uses on the declarer's
    final points at a trick start (for the tests, which check them against
    exact values; the search reaches them only where no cheaper test cuts)."""
    cdef Ctx ctx
    cdef Pos p
    cdef int s
    memset(&ctx, 0, sizeof(Ctx))
    fill_position(&p, hands, leader, points, has_trick)
    if len({dd_popcount(p.hands[s]) for s in range(4)}) != 1 or not p.hands[0]:
        raise ValueError("a trick start needs four hands of the same size")
    ctx.bonus = bonus
    return LOWER_BOUND(&ctx, &p), UPPER_BOUND(&ctx, &p)


def mid_trick_bound(hands, int leader, trick, int points, bint has_trick, int bonus) -> int:
    """The search's static lower bound on the declarer's final points in an
    unfinished ``trick`` he is still to play to, second or third at his turn
    or after the defender to move (for the tests, which check it against
    exact values); -1 where it has none."""
    cdef Ctx ctx
    cdef Pos p
    cdef int seat = (leader + len(trick)) & 3
    cdef uint64_t later_d = 0, later_f = 0
    memset(&ctx, 0, sizeof(Ctx))
    if not 1 <= len(trick) <= 3:
        raise ValueError("the trick must be unfinished, with a card or more")
    fill_position(&p, hands, leader, points, has_trick)
    add_trick(&p, trick)
    if not declarer_still_to_play(&p, seat):
        raise ValueError("the declarer must be still to play to the trick, and not fourth")
    ctx.bonus = bonus
    later_cards(&p, SUIT[p.trick[0]], &later_d, &later_f)
    return mid_trick_bound_at(&ctx, &p, seat, legal_moves(&p, seat), later_d, later_f)


cdef int mtdf_bounded(Ctx* ctx, const Pos* p, int guess, int lower, int upper) noexcept nogil:
    """MTD(f): a sequence of null-window searches closing in on the exact value,
    known to lie in ``lower..upper``.

    Each search tests the current guess and moves the guess to the fail-soft
    bound it returns.  Started from above the value (the top, or the upper
    bound :func:`mtdf` starts from), the searches mostly prove upper bounds,
    which are cheap and whose table entries the next, lower test reuses; a
    start below the value costs more than one above it, so MTD(f) starts
    from an upper bound (see :func:`mtdf` and ``first_choice_bound``).
    """
    cdef int g = guess, b, c
    # no card has a bound yet: the most for the declarer's, the least for a defender's
    cdef int unknown = INF if (p.leader + p.ncards) & 3 == 0 else -INF
    for c in range(NCARDS):
        ctx.root_bound[c] = unknown
    ctx.root = p
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
    ctx.root = NULL
    return lower


cdef inline int mtdf(Ctx* ctx, const Pos* p) noexcept nogil:
    """The exact value by MTD(f), from the upper bound of the defenders'
    first choices (``first_choice_bound``, which also leaves upper bounds
    in the table), or, where that search would take more than
    ``ctx.start_nodes`` nodes, from the most the declarer can reach (see
    ``start_bound``)."""
    cdef int u = start_bound(ctx, p)
    return mtdf_bounded(ctx, p, u, 0, u)


cdef uint64_t all_card_values(Ctx* ctx, const Pos* root, int* val) noexcept nogil:
    """``val[c]``: the value of every legal card ``c`` of the mover at ``root``
    (see ``Core.card_values``); returns the legal cards.  All of it without
    the GIL, in one stretch: a small position's values cost less than taking
    and releasing the GIL around each card's search."""
    cdef int seat = (root.leader + root.ncards) & 3
    cdef uint64_t moves = legal_moves(root, seat)
    cdef uint64_t kept = drop_equivalent(root, moves)
    cdef uint64_t present = root.hands[0] | root.hands[1] | root.hands[2] | root.hands[3] | root.trickmask
    cdef uint64_t others = present & ~root.hands[seat]
    cdef uint64_t done = 0, twins, later_d, later_f
    cdef Pos child
    cdef int c, a, d, side, g, lo, hi, u
    cdef bint twinned
    for c in range(NCARDS):
        if not (kept >> c) & 1:
            continue
        twinned = False
        child = root[0]
        play(&child, c)
        lo = child.pts + (ctx.bonus if child.has_trick else 0)
        hi = most_points(ctx, &child)
        # the lower twins already valued: same suit, no other hand's card between
        twins = done & SUITMASK[SUIT[c]]
        if twins:
            later_cards(root, SUIT[c], &later_d, &later_f)
            side = sure_side(root, seat, c, later_d, later_f)
            while twins:
                a = highest(twins)
                twins &= ~((<uint64_t>1) << a)
                if others & (((<uint64_t>1) << c) - ((<uint64_t>2) << a)):
                    break       # a card of another hand lies between: so for all below
                d = POINTS[c] - POINTS[a]
                twinned = True
                if val[a] + (0 if side < 0 else d) < hi:
                    hi = val[a] + (0 if side < 0 else d)
                if val[a] - (0 if side > 0 else d) > lo:
                    lo = val[a] - (0 if side > 0 else d)
        if lo < hi and not twinned:
            # the first choices' bound, unless twins bound the card (their
            # bounds leave a few points at most: its search costs more than
            # the passes it would spare)
            u = start_bound(ctx, &child)
            if u < hi:
                hi = u
        g = hi if hi > lo else lo
        val[c] = mtdf_bounded(ctx, &child, g, lo, hi)
        done |= (<uint64_t>1) << c
    # a zero-point card equivalent to the next card above it (same hand,
    # nothing between them in play) has that card's value: no search
    for c in range(NCARDS - 1, -1, -1):
        if (moves >> c) & 1 and not (kept >> c) & 1:
            val[c] = val[dd_ctz(present & SUITMASK[SUIT[c]] & ~(((<uint64_t>2) << c) - 1))]
    return moves


cdef class Core:
    """Owns a transposition table and one root position (seat 0 = declarer)."""

    def __cinit__(self, int tt_mb=64, int64_t grow_after=GROW_NODES, int64_t start_nodes=START_NODES):
        cdef size_t want
        if tt_mb < 1:
            raise ValueError(f"table size must be at least 1 MiB, not {tt_mb}")
        if grow_after < 0:
            raise ValueError(f"grow_after must be at least 0, not {grow_after}")
        if start_nodes < 0:
            raise ValueError(f"start_nodes must be at least 0, not {start_nodes}")
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
        self.ctx.grow_at = 0
        self.ctx.gen = 0
        self.ctx.root = NULL
        self.ctx.nodes = 0
        self.ctx.start_nodes = start_nodes
        self.nodes_before = 0
        memset(&self.root, 0, sizeof(Pos))

    def __dealloc__(self):
        free(self.tt_raw)

    @property
    def table_entries(self) -> int:
        return self.n_entries

    @property
    def entries_in_use(self) -> int:
        """Entries of the table the search uses now (it grows with the search)."""
        return self.ctx.tt_mask + 1

    @property
    def nodes(self) -> int:
        """Nodes searched since the position was set."""
        return self.ctx.nodes - self.nodes_before

    def set_position(self, hands, int leader, trick, int points, bint has_trick, int bonus,
                     bint keep_table=False):
        """Set the root and start a new table generation (old entries count as empty).

        With ``keep_table`` the table and the move-ordering history are kept:
        the entries hold for any root (they do not depend on the points taken
        or the bonus), so a run of related roots -- the lay-aways of one
        Dobbm -- share their work.  Values are exact either way.
        """
        cdef Pos p
        if len(trick) > 3:
            raise ValueError("bad position")
        fill_position(&p, hands, leader, points, has_trick)
        add_trick(&p, trick)
        self.root = p
        self.new_root(bonus, keep_table)

    def set_play(self, hands, tuple seats, tricks, int bonus, bint keep_table=False) -> int:
        """Set the root after ``tricks`` played from the declarer's opening lead,
        as :meth:`set_position` does: ``hands[seats[i]]`` the cards seat ``i``
        holds now (seat 0 the declarer, four seats), ``tricks`` each trick's
        cards in play order.
        As ``deal.replay`` reads them, the full tricks (four cards) are the
        finished ones and a last trick of fewer cards is the one in play.
        Returns the seat to move, or -1 when all tricks are played; then
        :attr:`final_points` is the declarer's final points.  One call for
        what the solver's wrapper would otherwise replay in Python: the fixed
        cost of a small solve."""
        cdef Pos p
        cdef int leader = 0, pts = 0, done = 0, n, i, c, w
        cdef bint has_trick = False
        cdef int cards[4]
        memset(&p, 0, sizeof(Pos))
        if len(seats) != 4:
            raise ValueError("bad position")
        for i in range(4):
            p.hands[i] = hands[seats[i]]
            if p.hands[i] >> NCARDS:
                raise ValueError("bad position")
            for c in range(4):
                p.rem_pts += SUIT_PTS[(p.hands[i] >> (9 * c)) & 0x1FF]
        n = 0
        for trick in tricks:
            n = len(trick)
            if n > 4:
                raise ValueError("bad position")
            for i in range(n):
                c = trick[i]
                if not 0 <= c < NCARDS:
                    raise ValueError("bad position")
                cards[i] = c
            if n == 4:
                w = 0
                for i in range(1, 4):
                    if beats(cards[i], cards[w]):
                        w = i
                leader = (leader + w) & 3
                if leader == 0:
                    pts += POINTS[cards[0]] + POINTS[cards[1]] + POINTS[cards[2]] + POINTS[cards[3]]
                    has_trick = True
                done += 1
        p.leader = leader
        p.pts = pts
        p.has_trick = has_trick
        if n < 4:
            for i in range(n):
                c = cards[i]
                if i == 0 or beats(c, p.trick[p.win]):
                    p.win = i
                p.trick[i] = c
                p.trickmask |= (<uint64_t>1) << c
                p.trick_pts += POINTS[c]
            p.ncards = n
        self.root = p
        self.new_root(bonus, keep_table)
        if done == 8:
            self.final = pts + bonus if has_trick else 0
            return -1
        return (leader + p.ncards) & 3

    @property
    def final_points(self) -> int:
        """The declarer's final points after the last :meth:`set_play` that
        played all eight tricks."""
        return self.final

    cdef void new_root(self, int bonus, bint keep_table) noexcept:
        self.ctx.bonus = bonus
        if keep_table and self.ctx.gen != 0:
            # a run of roots sharing the table: it grows with the nodes of
            # them all (ctx.nodes counts on from the first root)
            self.nodes_before = self.ctx.nodes
            return
        self.ctx.gen += 1
        if self.ctx.gen == 0:   # wrapped: really clear
            memset(self.ctx.tt, 0, self.n_entries * sizeof(TTEntry))
            self.ctx.gen = 1
        self.ctx.nodes = 0
        # a new table: start in a cache-sized part of it (it stays cached
        # from solve to solve); a big search grows it (see tt_grow)
        self.ctx.tt_mask = self.ctx.tt_full if self.ctx.tt_full < SMALL_ENTRIES else SMALL_ENTRIES - 1
        self.ctx.grow_at = self.grow_after
        self.nodes_before = 0
        memset(self.ctx.lead_history, 0, sizeof(self.ctx.lead_history))

    @property
    def to_move(self) -> int:
        return (self.root.leader + self.root.ncards) & 3

    def value(self, int guess=-1) -> int:
        """Exact final declarer points of the root under best play, by MTD(f)
        from the defenders' first choices' bound, or from ``guess`` when
        given (any start gives the same value)."""
        cdef int v
        with nogil:
            if guess < 0:
                v = mtdf(&self.ctx, &self.root)
            else:
                v = mtdf_bounded(&self.ctx, &self.root, guess, 0, 120)
        return v

    def first_choice_bound(self):
        """The upper bound MTD(f) starts from at the root (for the tests; see
        ``first_choice_bound`` in ``_search_start.pxi``): the declarer's final
        points when each defender plays only his first-ordered card; None
        where that search would take more than ``start_nodes`` nodes.  It
        leaves its bounds in the table, as it does before a value search."""
        cdef int u
        with nogil:
            u = first_choice_bound(&self.ctx, &self.root, -INF, self.ctx.nodes + self.ctx.start_nodes)
        return None if u >= INF else u

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
        higher card without the costly proof that it reaches it.  A card
        with no lower twin starts its MTD(f) from the upper bound of the
        defenders' first choices after it (see ``first_choice_bound``), which
        also leaves its bounds in the table; a card its twins bound starts
        from the top of the range they leave it (no wider than the points
        between the two cards), where that search would cost more than the
        tests it spares.  Most of this stage's work is each card's final
        proof at its own value, which no start avoids.
        """
        cdef int val[NCARDS]
        cdef uint64_t moves
        cdef int c
        with nogil:
            moves = all_card_values(&self.ctx, &self.root, val)
        return [(c, val[c]) for c in range(NCARDS) if (moves >> c) & 1]

    def line(self, int value=-1) -> list:
        """A best line of play from the root to the end (cards in play order);
        ``value``: the root's value when known (from :meth:`card_values`)."""
        cdef Pos p = self.root
        cdef Pos child
        cdef int v, c, n, i, seat, w
        cdef int moves[12]
        cdef uint64_t later_d = 0, later_f = 0
        out = []
        v = value
        if v < 0:
            with nogil:
                v = mtdf(&self.ctx, &p)
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
