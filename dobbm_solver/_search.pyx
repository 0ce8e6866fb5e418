# cython: language_level=3
"""Exact open-card search for Dobbm (private; use :mod:`dobbm_solver.solver`).

The position is four hands as 36-bit bitboards, seat 0 being the declarer.
The value of a position is the declarer's final points (0..120): points in
the declarer's tricks plus the bonus (lay-away or Dobb) if the declarer takes
at least one trick (Match rule; taking all eight gives 120 by itself).

Search: fail-soft alpha-beta over single cards, called with null windows by
an MTD(f) driver working down from an upper bound, the value of the game in
which the defenders play only their first-ordered cards (a small search that
leaves its bounds in the table: value nodes 0.97M -> 0.90M, see
``first_choice_bound``);
transposition table at trick starts holding bounds on the *future* points,
stored independently of the points already taken and of the bonus (so
entries hold across positions and lay-aways, see ``tt_encode``), keyed
by the four hands in relative ranks (each suit's cards present packed to
its lowest ranks), the leader and the Match flag: positions alike up to
the points of their cards share entries, with the bounds shifted by the
points they differ by (see ``point_shift``; value nodes on the 120
benchmark deals 4.46M -> 1.82M, every card's 16.4M -> 5.26M; a run of
top trumps of one side counted exactly, 0.89M -> 0.85M, 2.56M -> 2.42M); each entry
holds the cards present too, so an entry is exact for its own position
and results never depend on the table size (a new table starts in a
256 KiB part of it, which stays cached from solve to solve, and grows in
stages of 8 times the entries, rehashed, after 50k nodes, then 32 times
as many again: the table a search touches follows its size, and a
smaller one is faster: 120 benchmark deals, every card, 0.98x the time
in total with 8 MiB instead of all 64 for the searches past 100k nodes;
then 256 KiB growing after 50k nodes instead of 1 MiB after 100k: nodes
+0.5% value, +0.3% every card, but beside DDS in one process
(benchmarks/test_bench_dds.py alternates the two deal by deal, so each
search starts with the other's data in the cache; five runs of each
tree in turn) every card 0.98x dobbm's time by median and in total, the
value 0.98x and 0.99x; by benchmarks/ab_core.py --pgo, alone, the value
0.995x and 0.99x, every card 0.99x, the lay-away studies 0.96x and
0.98x.  A first part of 128 KiB: nodes +2.4%, +3.5%, every card no faster).
Equivalent zero-point cards are searched once, and of a run of one hand's
cards with no card in play between them only the right one when the trick's
side is sure (see ``drop_dominated``); for the value of every card, such
twins bound each other's searches (``Core.card_values``). Bounds: sure
trumps (for the declarer also by length: each of his trumps that loses falls
to a different higher trump of a defender, and none does where a defender
leads and he holds more trumps above all theirs than any of them holds
trumps; and when a defender leads, if one of the declarer's trumps surely
wins, his top plain cards no defender can ruff: that trump wins him the lead
to cash them) and, for the side on lead, the winners it can cash at once
(drawing trumps, then top cards no one can ruff, and for the declarer the
cards those promote), each with the cheapest cards the others must add (a
defender's partners may smear their richest); when the defenders hold no
trump, all the declarer's trumps and top plain cards, and the cards those
promote (value nodes 1.76M -> 1.53M; the top plain cards where a defender
leads, 1.29M -> 1.25M; his trumps drawing theirs, 1.18M; promotions, 1.17M;
a suit no defender holds, 1.15M); mid-trick, where a card of the
declarer's, still to play, surely wins the trick, what he then cashes
(1.13M -> 0.97M, see ``mid_trick_lower_bound``). The last two tricks are
solved by a small direct minimax. Move ordering: a defender's leads that
win the trick or let a partner win it first, the richest first (refutations
that take points, found first, also return tighter fail-soft bounds, so
MTD(f) takes bigger steps); the declarer's leads first by how many ways the
defenders can follow them, fewest first (value nodes 0.90M -> 0.89M, every
card's 2.76M -> 2.56M, see ``defenders_replies``); then leads by a history
counter (credited for a cutoff by the cube of the cards left, debited three
times that for each lead tried before it; a defender's counted by suit and
how many of the other hands' cards lie below the lead, not by the card:
value nodes 1.40M -> 1.32M, every card's 4.25M -> 4.14M), on ties a
defender's lowest first;
following cards by trick-winning heuristics alone (a defender who can win
the trick for good does so with his richest such card, one that would not
win a trick later first; the declarer with his lowest, but with his richest
trump that a defender could still take; a card that can still be overtaken
ranks with the losing ones; losing cards the cheapest first, a defender
keeping his last zero card of a suit that guards his point cards from the
declarer's higher one; but when a defender's side takes the trick -- a
partner wins it for good, or still to play beats the declarer's card -- his
richest, those that would take a card of the declarer later last, unless
enough lower such cards of the defenders can take those: value nodes 1.51M
-> 1.40M, every card's 4.54M -> 4.25M, see ``order_moves``; on 300 other
deals each of two seeds of benchmarks/make_hands.py, 777 and 4242, value
nodes -6.9% and -10.8%, every card's -5.2% and -5.4%, the same values): a
history counter for them, as for the leads, cost more time than it saved
nodes.
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
    SMALL_ENTRIES = 8192        # 256 KiB (see the module docstring)
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
    already known to lie below it (value nodes on the benchmark deals
    1324504 -> 1291148, analysis 4143084 -> 4109376, no deal more)."""
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


# Measured and not kept at the root's children (the MTD(f) passes search them
# again at each threshold): the reply that last cut below each root card
# tried first (value nodes 1129279 -> 1129215), replies proven by an earlier
# pass not to cut skipped (1129204), and replies that cut at a bound not
# beyond this pass's window tried after the untried ones (1193764): the
# refutation changes with the threshold (deal 106's second hand must duck
# its trump King under a partner's Ten at 62, not at 63).

# Its address: keeps the compiler from inlining root_cards into the search,
# which calls it only at the root of MTD(f) (inlined, 0.5% more instructions)
ctypedef int (*RootCards)(Ctx* ctx, const Pos* p, int seat, const int* moves, int n, int alpha,
                          int beta, int depth) noexcept nogil
cdef RootCards ROOT_CARDS = root_cards


# Measured and not kept: the trick-start tests (the bounds, the last tricks) in a
# function of their own with a small frame, the rest of the node in a second
# one called when they do not end it (most trick starts end there): 0.4-0.5%
# more instructions, 1.01x the time (benchmarks/ab_core.py).  Nor a mid-trick
# node with a single card playing it in the same call, the child searched by
# a loop instead of a nested call (41% of the mid-trick nodes searched have a
# single card): node counts unchanged, but 1.02x the time for every card, 1.03x
# for the value (--pgo).  Nor the lower bound skipped at trick starts where
# even every point left could not reach beta: 1.01x.
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
        # bounds never cut (not once in 14M such nodes on the benchmark: the
        # trick start has checked stronger ones; the one mid-trick bound,
        # below, counts what the trick's cards so far add)
        if p.hands[seat] == 0:
            return final_value(p, ctx.bonus)
        depth = dd_popcount(p.hands[0] | p.hands[1] | p.hands[2] | p.hands[3])
        if depth == 4:
            return last_trick(p, ctx.bonus)
        lo = lower_bound(ctx, p)
        # the lower bound first: it cuts far more often (at 12 cards left
        # 131k times against 8k), and the upper one is not needed then.
        # Measured and not kept: the bound memoized by position (hands,
        # leader, Match flag), as MTD(f)'s passes re-walk the same trick
        # starts (in the card stage at least 32% of its 0.88M calls repeat
        # one before; each costs about 250 instructions): a direct-mapped
        # memo of 16k entries took 1.025x the time in total for every card
        # (benchmarks/ab_core.py --pgo --mode cards), 2k entries 1.038x
        if lo >= beta:
            return lo
        if depth == 8:
            # the last two tricks exactly, before the upper bound: an exact
            # value instead of a bound makes the fail-soft bounds above it
            # tighter (value nodes 1.82M -> 1.79M; before the lower bound
            # too, 1.78M, but last_two costs more instructions than the
            # nodes it saves)
            return last_two(p, ctx.bonus)
        if ctx.nodes > ctx.grow_at and ctx.tt_mask != ctx.tt_full:
            tt_grow(ctx)
        h = canonical_key(p, ctx.bonus, key)
        found = tt_lookup(ctx, p, key, h, &lo, &v)      # v: the table's upper bound
        if found and lo >= beta:
            # the table's lower bound cuts (104k times on the benchmark's
            # value solves, 3.8 times as often as the static upper bound
            # does): return before computing that bound, which could not
            # change the value returned (nodes unchanged; instructions,
            # callgrind on the 120 deals, value 1387.0M -> 1384.4M, every
            # card 2810.8M -> 2780.4M, whole process)
            return lo
        hi = upper_bound(ctx, p)
        if hi <= alpha:
            # the upper bound cuts: return the table's bound where it is
            # tighter (a tighter fail-soft bound, so MTD(f) steps further:
            # value nodes 1.79M -> 1.76M, the lay-away study's 46.6M ->
            # 44.1M, fewer instructions; the same for the lower bound's
            # cuts, which are 15 times as many, cost more than it saved)
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
        # at every mid-trick node, also those with one card where no bound is
        # taken: the branches that skipped it there measured 1.01-1.02x the
        # time (benchmarks/ab_core.py --pgo), the same nodes
        later_cards(p, SUIT[p.trick[0]], &later_d, &later_f)
        if declarer_still_to_play(p, seat):
            # the declarer to play to this trick, second or third, or still to
            # play after the defender to move: if a card of his surely wins
            # it, a bound of its own (see mid_trick_lower_bound).  Measured and
            # not kept: in fourth hand too, value nodes 1049255 -> 1014881,
            # every card's with the line 3173000 -> 3032807 (before it was
            # taken at a defender's turn), but against the tree before both
            # (benchmarks/ab_core.py --pgo) the value took 1.04x the time by
            # median, 0.99x in total, instead of 1.01-1.02x and 0.98x: the
            # trick starts below it cut as cheaply; nor, at his turn, each
            # candidate winner tried and the best kept, with a partial draw,
            # plain winners no ruffer can reach and trumps by length added
            # (against the same tree: 1000949, 2913312, but the value 1.06x
            # the time by median, 1.03x in total); nor skipped in the last
            # three tricks (11 cards or fewer in the hands): value nodes
            # 855198 -> 889213, every card's 2427951 -> 2509072, every card
            # 1.02x the time by median and in total
            lo = mid_trick_bound_at(ctx, p, seat, legal, later_d, later_f)
            if lo >= beta:
                return lo
    if legal & (legal - 1):
        legal = drop_dominated(p, seat, drop_equivalent(p, legal), later_d, later_f)
    # ordered also in the last tricks: mid-trick nodes with 11 cards or fewer
    # in the hands taking their cards unordered, lowest first, measured value
    # nodes 855198 -> 895077, every card's 2427951 -> 2479998, every card
    # 1.02x the time by median and in total (benchmarks/ab_core.py --pgo)
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
    which are cheap and whose table entries the next, lower test reuses; on
    the benchmark deals this beat bisection and
    bounded steps from the middle, and bigger steps down (nodes 1.34x with
    a step growing by one after each step of one point); even a start at the
    exact value costs more (1.08x) than one from the top: only a start one
    to three points above it saves nodes (0.87-0.90x).  Measured again with
    the mid-trick bound's forerunner (value nodes 1129279): from the exact
    value plus 0, 1, 3, 8, 12 and 20 points, 0.90x, 0.83x, 0.81x, 0.83x,
    0.90x, 0.93x the nodes; from 1, 2 and 4 below, 1.16x, 1.28x, 1.51x.  So a
    guess a few points above the value would save up to a fifth of the
    nodes, and one below costs more than that; a playout of the search's own
    first-ordered cards fell 8.8 points below the value on average (sd 11),
    no use as a guess; a guess that is surely no lower is: the value of the
    game where the defenders play only their first-ordered cards (see
    :func:`mtdf` and ``first_choice_bound``).  A single search with the
    whole window: 1.65x.
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
        # from solve to solve); a big search grows it (see tt_grow).
        # Measured and not kept: that part prefetched here, bucket by bucket,
        # for searches that start with another program's data in the cache:
        # beside DDS (test_bench_dds.py, five runs of each tree in turn)
        # dobbm's time 1.02x by median and in total for the value, 1.00x for
        # every card
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
        higher card without the costly proof that it reaches it.  Each
        card's MTD(f) starts from the upper bound of the defenders' first
        choices after it (see ``first_choice_bound``), which also leaves its
        bounds in the table; that search is skipped where the twins' bounds
        already settle the card.  Earlier releases found the declarer's root
        value first, which bounds every card of his, and started each
        card's MTD(f) there (nodes then 17.14M -> 16.42M against each from
        the top; a defender's cards started from the top).  Each card from
        its own first choices' bound, with no root value: every card's
        nodes on the benchmark deals 2806319 -> 2755838, on 300 held-out
        deals of seed 1001 -1.4%, the same values; by benchmarks/ab_core.py
        --pgo --mode cards 0.93-0.94x the time by median, 0.97-0.98x in
        total, held-out 0.94x and 0.99x.  The root's value first, from its
        first choices' bound, each card from there: -1.6% nodes, 1.04x and
        1.01x the time.  (Measured with the root's value first: each card
        searched with the whole window its bounds leave, instead of MTD(f),
        6% more nodes; after one null-window test at the root's value,
        4.6% more.  The declarer's cards in the order of the bounds the
        root's passes left them, the highest first, twins bounding each
        other both ways: every card's nodes -1.4%, on 1,600 held-out deals
        -0.03% to -1.0%, but 1.03x the time by median, 0.99x in total,
        benchmarks/ab_core.py --pgo --mode cards; only the suits so
        ordered, by their best card's bound: -0.3%.  Each card's MTD(f)
        from its lowest bound up: 2.8x the card stage's nodes; from five
        points below the root's value, 1.3x; from the best value found so
        far plus 0-3 points, +7% to +13%; from its lower neighbour's value
        in the suit plus 1-5, +18% to +27%: a test below a card's value
        costs a proof at the wrong threshold.  Even each card's own value
        plus one, known in advance, would save only 7.1% (plus 0, 3.7%):
        70% of the card stage's nodes are each card's final proof, which
        no start avoids (measured again on the benchmark deals with the
        replies order and the top trumps' shift: the final proofs 67%,
        the passes that failed low 29%, of which each card's last one,
        just above its value, 11%, the first choices' searches 3.8%;
        inside the final proofs the declarer's cards tried before the
        one that cut 5.5%: the defenders' branching makes the proofs).
        The suits searched in the order of their defenders' replies (see
        ``defenders_replies``): every card's nodes -0.6% to +0.4% on the
        benchmark and held-out deals.  Each card's MTD(f) from the bound
        the root's passes left it, below the root's value: every card's
        nodes -0.04%; the card the root's last pass proved worth the
        root's value taken without a search: -0.03%, the table has it.)
        """
        cdef int seat = self.to_move
        cdef uint64_t moves = legal_moves(&self.root, seat)
        cdef uint64_t kept = drop_equivalent(&self.root, moves)
        cdef uint64_t present = (self.root.hands[0] | self.root.hands[1] | self.root.hands[2]
                                 | self.root.hands[3] | self.root.trickmask)
        cdef uint64_t others = present & ~self.root.hands[seat]
        cdef uint64_t done = 0, twins, later_d, later_f
        cdef Pos child
        cdef int c, a, d, side, v, g, lo, hi, u
        cdef int val[NCARDS]
        values = {}
        for c in range(NCARDS):
            if not (kept >> c) & 1:
                continue
            child = self.root
            play(&child, c)
            lo = child.pts + (self.ctx.bonus if child.has_trick else 0)
            hi = most_points(&self.ctx, &child)
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
            if lo < hi:
                # the first choices' bound, unless the twins settle the card
                with nogil:
                    u = start_bound(&self.ctx, &child)
                if u < hi:
                    hi = u
            g = hi if hi > lo else lo
            with nogil:
                v = mtdf_bounded(&self.ctx, &child, g, lo, hi)
            val[c] = v
            done |= (<uint64_t>1) << c
            values[c] = v
        # a zero-point card equivalent to the next card above it (same hand,
        # nothing between them in play) has that card's value: no search
        for c in range(NCARDS - 1, -1, -1):
            if (moves >> c) & 1 and not (kept >> c) & 1:
                values[c] = values[dd_ctz(present & SUITMASK[SUIT[c]] & ~(((<uint64_t>2) << c) - 1))]
        return sorted(values.items())

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
