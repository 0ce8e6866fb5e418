# cython: language_level=3
"""The analyzer's deal sampler in C (private; use :mod:`dobbm_solver.analyzer.sampling`).

:class:`MersenneTwister` is CPython's ``random.Random`` generator (MT19937,
seeded by ``init_by_array`` as ``random.Random(int)`` seeds it) with the
methods the sampler draws from, reproduced draw for draw: ``getrandbits``,
``_randbelow`` (``randrange(n)``), ``shuffle``, ``random`` and ``sample``.
:class:`SamplerCore` runs the sampler's rejection loop on it: the card
allocator's draw (a composition per card group from flattened tables, then
a shuffle of the group's cards into the places), the Dobb drawn from an
unseen Dobbm declarer's 12 cards, and the acceptance test of the bidding
and doubling models, with every floating-point operation in the order the
Python models do it, so that each comparison with the uniform draw comes
out the same.  For the control variates' stream it draws a batch of
samples in one call, each from its own generator, and works out each one's
``estimate.deal_features`` in the Python order.  All tables and constants
come from the Python modules at build time
(:mod:`dobbm_solver.analyzer.sampling_core`); none lives here.
"""

from libc.math cimport ceil, exp, log
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

cdef extern from *:
    """
    static inline int sm_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int sm_ctz(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int sm_bit_length(unsigned long long x) { return x ? 64 - __builtin_clzll(x) : 0; }
    """
    int sm_popcount(unsigned long long x) noexcept nogil
    int sm_ctz(unsigned long long x) noexcept nogil
    int sm_bit_length(unsigned long long x) noexcept nogil

cdef enum:
    MT_N = 624
    MT_M = 397
    MAX_PLACES = 8
    MAX_GROUPS = 8
    MAX_SEATS = 8
    MAX_AUCTION = 16
    MAX_DOUBLINGS = 16
    MAX_CARDS = 64

#: Limits of a :class:`SamplerCore` (a view beyond them stays on the Python path).
LIMITS = {"places": MAX_PLACES, "groups": MAX_GROUPS, "seats": MAX_SEATS, "auction": MAX_AUCTION,
          "doublings": MAX_DOUBLINGS, "cards": MAX_CARDS}

#: The formulas of a bid's likelihood, by the bidding model's kinds (``pass``: 1 - max(up, solo),
#: ``not_solo``: 1 - solo, ``dobbm``: max(0, up - solo), ``solo``: solo); each entry of the
#: auction brings its own Solo threshold and spread.
KIND_CODES = {"pass": 0, "not_solo": 1, "dobbm": 2, "solo": 3}
cdef enum:
    K_PASS = 0
    K_NOT_SOLO = 1
    K_DOBBM = 2
    K_SOLO = 3


cdef struct MT:
    uint32_t state[MT_N]
    int index


cdef inline uint32_t mt_next(MT* g) noexcept nogil:
    """``genrand_uint32`` of CPython's ``_randommodule.c``."""
    cdef uint32_t y
    cdef uint32_t* mt = g.state
    cdef int kk
    if g.index >= MT_N:
        for kk in range(MT_N - MT_M):
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU)
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ (0x9908b0dfU if y & 1U else 0U)
        for kk in range(MT_N - MT_M, MT_N - 1):
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU)
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ (0x9908b0dfU if y & 1U else 0U)
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU)
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ (0x9908b0dfU if y & 1U else 0U)
        g.index = 0
    y = mt[g.index]
    g.index += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9d2c5680U
    y ^= (y << 15) & 0xefc60000U
    y ^= y >> 18
    return y


cdef inline uint64_t mt_bits(MT* g, int k) noexcept nogil:
    """``getrandbits(k)`` for ``1 <= k <= 64``: 32-bit words, the least significant first,
    the last one shifted down to its bits."""
    cdef uint64_t lo, hi
    if k <= 32:
        return mt_next(g) >> (32 - k)
    lo = mt_next(g)
    hi = mt_next(g) >> (64 - k)
    return lo | (hi << 32)


cdef inline uint64_t mt_below(MT* g, uint64_t n) noexcept nogil:
    """``_randbelow_with_getrandbits(n)`` for ``n >= 1``: ``k = n.bit_length()`` bits,
    drawn again while ``r >= n``."""
    cdef int k = sm_bit_length(n)
    cdef uint64_t r = mt_bits(g, k)
    while r >= n:
        r = mt_bits(g, k)
    return r


cdef inline double mt_random(MT* g) noexcept nogil:
    """``random()``: 53 bits from two words."""
    cdef uint32_t a = mt_next(g) >> 5
    cdef uint32_t b = mt_next(g) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


cdef inline void mt_shuffle(MT* g, int32_t* x, int n) noexcept nogil:
    """``shuffle``: for ``i`` from ``n - 1`` down to 1 swap ``x[i]`` with ``x[randbelow(i + 1)]``."""
    cdef int i, j
    cdef int32_t t
    for i in range(n - 1, 0, -1):
        j = <int>mt_below(g, <uint64_t>(i + 1))
        t = x[i]
        x[i] = x[j]
        x[j] = t


cdef int sample_setsize(int k) noexcept nogil:
    """The population size up to which ``sample`` picks from a pool, not a set."""
    cdef int setsize = 21, e, table = 1
    if k > 5:
        e = <int>ceil(log(<double>(k * 3)) / log(4.0))     # _ceil(_log(k * 3, 4))
        for _ in range(e):
            table *= 4
        setsize += table
    return setsize


cdef inline void mt_sample(MT* g, const int32_t* population, int n, int k, int setsize,
                           int32_t* result) noexcept nogil:
    """``sample(population, k)`` for ``0 <= k <= n <= MAX_CARDS``: the pool method up to
    ``setsize`` (:func:`sample_setsize`), else redraws of indices already taken."""
    cdef int32_t pool[MAX_CARDS]
    cdef int i, j
    cdef uint64_t selected = 0
    if n <= setsize:
        for i in range(n):
            pool[i] = population[i]
        for i in range(k):
            j = <int>mt_below(g, <uint64_t>(n - i))
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:
        for i in range(k):
            j = <int>mt_below(g, <uint64_t>n)
            while (selected >> j) & 1:
                j = <int>mt_below(g, <uint64_t>n)
            selected |= (<uint64_t>1) << j
            result[i] = population[j]


cdef uint32_t MT_GENRAND[MT_N]


cdef void init_genrand_state() noexcept nogil:
    """``MT_GENRAND``: the state of ``init_genrand(19650218)``, where every seeding starts."""
    cdef int i
    MT_GENRAND[0] = 19650218U
    for i in range(1, MT_N):
        MT_GENRAND[i] = <uint32_t>(1812433253U * (MT_GENRAND[i - 1] ^ (MT_GENRAND[i - 1] >> 30)) + <uint32_t>i)


init_genrand_state()


cdef void mt_seed(MT* g, const uint32_t* key, Py_ssize_t key_length) noexcept nogil:
    """``init_by_array``, after ``init_genrand(19650218)``: as ``random.Random(n)`` seeds
    from the 32-bit words of ``abs(n)``, least significant first."""
    cdef uint32_t* mt = g.state
    cdef Py_ssize_t i, j, k
    memcpy(mt, MT_GENRAND, sizeof(MT_GENRAND))
    i = 1
    j = 0
    k = MT_N if MT_N > key_length else key_length
    while k:
        mt[i] = <uint32_t>((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + <uint32_t>j)
        i += 1
        j += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
        if j >= key_length:
            j = 0
        k -= 1
    k = MT_N - 1
    while k:
        mt[i] = <uint32_t>((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - <uint32_t>i)
        i += 1
        if i >= MT_N:
            mt[0] = mt[MT_N - 1]
            i = 1
        k -= 1
    mt[0] = 0x80000000U
    g.index = MT_N


cdef Py_ssize_t key_words(const unsigned char* text, Py_ssize_t n, uint32_t* key) noexcept nogil:
    """The words ``random.Random`` seeds with from the ``n`` bytes ``text`` read as a big-endian
    integer (as ``seed_key`` makes them): least significant first, the top one not zero (one
    zero word for 0); returns how many, at most ``n // 4 + 1``."""
    cdef Py_ssize_t words = 0, k
    for k in range(n):                     # byte k from the end, into word k // 4
        if k % 4 == 0:
            key[words] = 0
            words += 1
        key[k // 4] |= (<uint32_t>text[n - 1 - k]) << (8 * (k % 4))
    while words > 1 and key[words - 1] == 0:
        words -= 1
    if words == 0:
        key[0] = 0
        words = 1
    return words


#: The error of a draw with too few cards to draw a Dobb from (``random.sample``'s).
DRAW_FAILED = "Sample larger than population or is negative"


cdef class MersenneTwister:
    """CPython's ``random.Random`` generator: ``MersenneTwister(key)`` is in the state of
    ``random.Random(n)`` where ``key`` is ``abs(n)`` as little-endian bytes, a whole number of
    32-bit words, the top one not zero (one zero word for 0)."""

    cdef MT g

    def __init__(self, bytes key=b"\0\0\0\0"):
        cdef Py_ssize_t words = len(key) // 4
        cdef uint32_t* buf
        cdef Py_ssize_t i
        cdef const unsigned char* p = key
        if words == 0 or len(key) % 4:
            raise ValueError("key must be a whole number of 32-bit words, at least one")
        buf = <uint32_t*>malloc(words * sizeof(uint32_t))
        if buf == NULL:
            raise MemoryError()
        for i in range(words):
            buf[i] = (<uint32_t>p[4 * i] | (<uint32_t>p[4 * i + 1] << 8) | (<uint32_t>p[4 * i + 2] << 16)
                      | (<uint32_t>p[4 * i + 3] << 24))
        mt_seed(&self.g, buf, words)
        free(buf)

    def getstate(self) -> tuple:
        """The state as ``random.Random.getstate()[1]``: 624 words and the index."""
        return tuple(self.g.state[i] for i in range(MT_N)) + (self.g.index,)

    def setstate(self, tuple state) -> None:
        """Take the state ``random.Random.getstate()[1]``."""
        cdef int i
        if len(state) != MT_N + 1 or not 0 <= state[MT_N] <= MT_N:
            raise ValueError("not a Mersenne Twister state")
        for i in range(MT_N):
            self.g.state[i] = <uint32_t>state[i]
        self.g.index = <int>state[MT_N]

    def getrandbits(self, int k) -> int:
        cdef int i
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        if k <= 64:
            return mt_bits(&self.g, k)
        out = 0
        i = 0
        while k > 0:
            out |= int(mt_next(&self.g) >> (32 - k) if k < 32 else mt_next(&self.g)) << (32 * i)
            i += 1
            k -= 32
        return out

    def randbelow(self, uint64_t n) -> int:
        """``randrange(n)`` for ``1 <= n < 2**64``."""
        if n == 0:
            raise ValueError("empty range")
        return mt_below(&self.g, n)

    def random(self) -> float:
        return mt_random(&self.g)

    def shuffle(self, list x) -> None:
        """Shuffle a list of at most 64 small ints in place, as ``random.shuffle``."""
        cdef int32_t buf[MAX_CARDS]
        cdef int n = len(x), i
        if n > MAX_CARDS:
            raise ValueError("too many items")
        for i in range(n):
            buf[i] = x[i]
        mt_shuffle(&self.g, buf, n)
        for i in range(n):
            x[i] = buf[i]

    def sample(self, list population, int k) -> list:
        """``sample(population, k)`` of at most 64 small ints."""
        cdef int32_t pop[MAX_CARDS]
        cdef int32_t res[MAX_CARDS]
        cdef int n = len(population), i
        if n > MAX_CARDS:
            raise ValueError("too many items")
        if not 0 <= k <= n:
            raise ValueError(DRAW_FAILED)
        for i in range(n):
            pop[i] = population[i]
        mt_sample(&self.g, pop, n, k, sample_setsize(k), res)
        return [res[i] for i in range(k)]


def logistic(double x) -> float:
    """The logistic function as :func:`dobbm_solver.models.bidding.logistic` computes it."""
    return sm_logistic(x)


cdef inline double sm_logistic(double x) noexcept nogil:
    cdef double e
    if x >= 0:
        return 1.0 / (1.0 + exp(-x))
    e = exp(x)
    return e / (1.0 + e)


cdef struct Option:
    int32_t counts[MAX_PLACES]
    uint64_t weight
    int32_t next_state


cdef struct State:
    int32_t first
    int32_t count
    uint64_t total


cdef struct Bid:
    int32_t seat
    int32_t kind
    double dobbm_threshold
    double solo_threshold
    double solo_spread
    double lapse_term


cdef struct Doubling:
    double a, b, c
    double keep
    double lapse_term
    int32_t declarer_side


cdef class SamplerCore:
    """One view's rejection loop (see the module doc); built by
    :func:`dobbm_solver.analyzer.sampling_core.build_core`, which documents the arguments."""

    # the allocator
    cdef int n_places, n_groups
    cdef int32_t group_start[MAX_GROUPS + 1]
    cdef int32_t group_cards[MAX_CARDS]
    cdef State* states
    cdef Option* options
    # the seats' dealt cards, the Dobb and an unseen Dobbm declarer's 12
    cdef int n_seats
    cdef uint64_t seat_base[MAX_SEATS]
    cdef int32_t seat_place[MAX_SEATS]
    cdef int32_t dobb_place
    cdef uint64_t dobb_const
    cdef int32_t twelve_seat
    cdef uint64_t twelve_base
    cdef bint draw_dobb
    cdef int dobb_size, dobb_setsize
    # the acceptance test
    cdef bint test
    cdef int n_bids
    cdef Bid bids[MAX_AUCTION]
    cdef double bid_keep, spread, high_weight, points_weight, sau_weight, void_weight
    cdef uint64_t high_trumps, plain_saus
    cdef uint64_t plain_suits[3]
    cdef int n_doublings
    cdef Doubling doublings[MAX_DOUBLINGS]
    cdef int32_t declarer, declarer_adds_dobb, n_defenders
    cdef int32_t defenders[MAX_SEATS]
    cdef uint64_t trumps
    # the hand strength and card points, by suit holding
    cdef double trump_table[512]
    cdef double plain_tables[2][512]
    cdef int32_t plain_table_of[512]
    cdef int trump_shift
    cdef int plain_shifts[3]
    cdef int suit_shifts[4]
    cdef int32_t holding_points[512]
    cdef uint64_t suit_mask
    # the control variates' features: the declarer's seat and the others'
    cdef int32_t features_declarer
    cdef int n_features_others
    cdef int32_t features_others[MAX_SEATS]

    def __cinit__(self):
        self.states = NULL
        self.options = NULL

    def __dealloc__(self):
        free(self.states)
        free(self.options)

    def __init__(self, *, list groups, int n_places, list states, list seat_base, list seat_place,
                 int dobb_place, uint64_t dobb_const, int twelve_seat, uint64_t twelve_base,
                 bint draw_dobb, int dobb_size, bint test, list bids, tuple bid_model,
                 list plain_suits, list doublings, int declarer, bint declarer_adds_dobb, list defenders,
                 uint64_t trumps, int features_declarer, list features_others,
                 list trump_table, list plain_tables, list plain_table_of, int trump_shift,
                 list plain_shifts, list suit_shifts, list holding_points, int suit_bits):
        cdef int i, j, n_options = 0, total_cards = 0
        if len(groups) > MAX_GROUPS or len(seat_base) > MAX_SEATS or len(bids) > MAX_AUCTION \
                or len(doublings) > MAX_DOUBLINGS or len(defenders) > MAX_SEATS or not 0 < dobb_size <= 12 \
                or len(plain_suits) != 3 \
                or not 0 <= n_places <= MAX_PLACES:
            raise ValueError("view beyond the compiled sampler's limits")
        if not (1 << suit_bits) == len(trump_table) == len(plain_table_of) == len(holding_points) == 512 \
                or len(plain_tables) != 2 or len(plain_shifts) != 3 or len(suit_shifts) != 4:
            raise ValueError("tables of an unexpected shape")
        self.n_groups = len(groups)
        self.n_places = n_places
        self.group_start[0] = 0
        for i, cards in enumerate(groups):
            for c in cards:
                if total_cards >= MAX_CARDS or not 0 <= c < 64:
                    raise ValueError("bad cards")
                self.group_cards[total_cards] = c
                total_cards += 1
            self.group_start[i + 1] = total_cards
        for opts in states:
            n_options += len(opts)
        self.states = <State*>malloc(max(1, len(states)) * sizeof(State))
        self.options = <Option*>malloc(max(1, n_options) * sizeof(Option))
        if self.states == NULL or self.options == NULL:
            raise MemoryError()
        # each state is of one group (the root of the first), its options deal all its cards
        depth = [0] + [-1] * (len(states) - 1) if states else []
        for i, opts in enumerate(states):
            if not opts or depth[i] < 0:
                raise ValueError("a state without options, or not reached")
            size = self.group_start[depth[i] + 1] - self.group_start[depth[i]]
            for counts, weight, next_state in opts:
                if len(counts) != n_places or sum(counts) != size or min(counts, default=0) < 0 \
                        or not -1 <= next_state < len(states) or weight <= 0:
                    raise ValueError("bad compositions")
                if (next_state == -1) != (depth[i] + 1 == self.n_groups) \
                        or (next_state >= 0 and depth[next_state] not in (-1, depth[i] + 1)):
                    raise ValueError("bad compositions")
                if next_state >= 0:
                    depth[next_state] = depth[i] + 1
        n_options = 0
        for i, opts in enumerate(states):
            self.states[i].first = n_options
            self.states[i].count = len(opts)
            total = 0
            for counts, weight, next_state in opts:
                for j in range(self.n_places):
                    self.options[n_options].counts[j] = counts[j]
                self.options[n_options].weight = weight
                self.options[n_options].next_state = next_state
                total += weight
                n_options += 1
            self.states[i].total = total      # OverflowError past 2**64 - 1
        if self.n_groups and len(states) == 0:
            raise ValueError("no compositions")
        self.n_seats = len(seat_base)
        if len(seat_place) != self.n_seats or not all(-1 <= p < n_places for p in seat_place) \
                or not -1 <= dobb_place < n_places or not -1 <= twelve_seat < self.n_seats \
                or not all(0 <= b[0] < self.n_seats for b in bids) \
                or not all(0 <= x < self.n_seats for x in defenders) \
                or (doublings and not 0 <= declarer < self.n_seats) \
                or not 0 <= features_declarer < self.n_seats \
                or not 0 < len(features_others) <= self.n_seats \
                or not all(0 <= x < self.n_seats for x in features_others):
            raise ValueError("bad seats or places")
        for i in range(self.n_seats):
            self.seat_base[i] = seat_base[i]
            self.seat_place[i] = seat_place[i]
        self.dobb_place = dobb_place
        self.dobb_const = dobb_const
        self.twelve_seat = twelve_seat
        self.twelve_base = twelve_base
        self.draw_dobb = draw_dobb
        self.dobb_size = dobb_size
        self.dobb_setsize = sample_setsize(dobb_size)
        self.test = test
        self.n_bids = len(bids)
        for i, (seat, kind, threshold, solo_threshold, solo_spread, lapse_term) in enumerate(bids):
            if not 0 <= kind <= K_SOLO:
                raise ValueError("unknown kind of bid")
            self.bids[i] = Bid(seat, kind, threshold, solo_threshold, solo_spread, lapse_term)
        (self.bid_keep, self.spread, self.high_weight, self.points_weight, self.high_trumps,
         self.sau_weight, self.void_weight, self.plain_saus) = bid_model
        for i in range(3):
            self.plain_suits[i] = plain_suits[i]
        self.n_doublings = len(doublings)
        for i, (a, b, c, keep, lapse_term, declarer_side) in enumerate(doublings):
            self.doublings[i] = Doubling(a, b, c, keep, lapse_term, declarer_side)
        self.declarer = declarer
        self.declarer_adds_dobb = declarer_adds_dobb
        self.n_defenders = len(defenders)
        for i in range(self.n_defenders):
            self.defenders[i] = defenders[i]
        self.trumps = trumps
        self.features_declarer = features_declarer
        self.n_features_others = len(features_others)
        for i in range(self.n_features_others):
            self.features_others[i] = features_others[i]
        for i in range(512):
            self.trump_table[i] = trump_table[i]
            self.plain_tables[0][i] = plain_tables[0][i]
            self.plain_tables[1][i] = plain_tables[1][i]
            self.plain_table_of[i] = plain_table_of[i]
            self.holding_points[i] = holding_points[i]
        self.trump_shift = trump_shift
        for i in range(3):
            self.plain_shifts[i] = plain_shifts[i]
        for i in range(4):
            self.suit_shifts[i] = suit_shifts[i]
        self.suit_mask = (1 << suit_bits) - 1

    # --- the models ---------------------------------------------------------
    cdef inline double strength(self, uint64_t hand) noexcept nogil:
        """``models.strength.fast_hand_strength``: the trump term, then the plain suits' in order."""
        cdef uint64_t tm = (hand >> self.trump_shift) & self.suit_mask
        cdef const double* p = self.plain_tables[self.plain_table_of[tm]]
        cdef double score = self.trump_table[tm]
        score += p[(hand >> self.plain_shifts[0]) & self.suit_mask]
        score += p[(hand >> self.plain_shifts[1]) & self.suit_mask]
        score += p[(hand >> self.plain_shifts[2]) & self.suit_mask]
        return score

    cdef inline int points(self, uint64_t cs) noexcept nogil:
        """``cards.set_points``."""
        return (self.holding_points[(cs >> self.suit_shifts[0]) & self.suit_mask]
                + self.holding_points[(cs >> self.suit_shifts[1]) & self.suit_mask]
                + self.holding_points[(cs >> self.suit_shifts[2]) & self.suit_mask]
                + self.holding_points[(cs >> self.suit_shifts[3]) & self.suit_mask])

    cdef inline double bid_score(self, uint64_t hand, double strength) noexcept nogil:
        """``bidding.bid_score`` of a hand of this ``fast_hand_strength``."""
        return ((strength + self.high_weight * <double>sm_popcount(hand & self.high_trumps))
                + self.points_weight * <double>self.points(hand))

    cdef inline double solo_score(self, uint64_t hand, double strength) noexcept nogil:
        """``bidding.solo_score`` of a hand of this ``fast_hand_strength``."""
        cdef int voids = ((hand & self.plain_suits[0]) == 0) + ((hand & self.plain_suits[1]) == 0) \
            + ((hand & self.plain_suits[2]) == 0)
        return ((strength + self.sau_weight * <double>sm_popcount(hand & self.plain_saus))
                + self.void_weight * <double>voids)

    cdef inline double bid_likelihood(self, const Bid* bid, uint64_t hand) noexcept nogil:
        """``bidding.bid_likelihood(kind, hand, turn)``: the kind's formula on the Solo
        score's chance (on the entry's threshold and spread) and the bid score's."""
        cdef double strength = self.strength(hand)
        cdef double ps = sm_logistic((self.solo_score(hand, strength) - bid.solo_threshold) / bid.solo_spread)
        cdef double up, m
        if bid.kind == K_NOT_SOLO:
            m = 1.0 - ps
        elif bid.kind == K_SOLO:
            m = ps
        else:
            up = sm_logistic((self.bid_score(hand, strength) - bid.dobbm_threshold) / self.spread)
            if bid.kind == K_PASS:
                m = 1.0 - (ps if ps > up else up)          # max(up, ps)
            else:
                m = up - ps
                if not (m > 0.0):                          # max(0.0, up - ps)
                    m = 0.0
        return self.bid_keep * m + bid.lapse_term

    cdef inline double player_doubles(self, const Doubling* d, uint64_t cards) noexcept nogil:
        """``doubling.player_doubles``."""
        return sm_logistic((d.a + d.b * self.strength(cards)) + d.c * <double>sm_popcount(cards & self.trumps))

    cdef double doubling_likelihood(self, const uint64_t* dealt, uint64_t dobb) noexcept nogil:
        """``doubling.doubling_likelihood`` of the view's doublings."""
        cdef double out = 1.0, p, stay
        cdef uint64_t decl = dealt[self.declarer] | dobb if self.declarer_adds_dobb else dealt[self.declarer]
        cdef int k, i
        cdef const Doubling* d
        for k in range(self.n_doublings):
            d = &self.doublings[k]
            if d.declarer_side:
                p = self.player_doubles(d, decl)
            else:
                stay = 1.0
                for i in range(self.n_defenders):
                    stay *= 1.0 - self.player_doubles(d, dealt[self.defenders[i]])
                p = 1.0 - stay
            out *= d.keep * p + d.lapse_term
        return out

    cdef bint accepts(self, const uint64_t* dealt, uint64_t dobb, double u) noexcept nogil:
        """``DealSampler.accepts``: the product of the likelihoods, stopping at ``u``."""
        cdef double p = 1.0
        cdef int i
        for i in range(self.n_bids):
            p *= self.bid_likelihood(&self.bids[i], dealt[self.bids[i].seat])
            if p <= u:
                return False
        if self.n_doublings:
            p *= self.doubling_likelihood(dealt, dobb)
        return p > u

    cdef int seats_of(self, list dealt, uint64_t* d) except -1:
        """Each seat's cards of the list ``dealt`` into ``d`` (for the methods for tests)."""
        cdef int i
        if len(dealt) != self.n_seats:
            raise ValueError("one card set per seat")
        for i in range(self.n_seats):
            d[i] = dealt[i]
        return 0

    def acceptance(self, list dealt, uint64_t dobb) -> float:
        """The product ``accepts`` compares with the uniform draw, in full (for tests)."""
        cdef uint64_t d[MAX_SEATS]
        cdef double p = 1.0
        cdef int i
        self.seats_of(dealt, d)
        for i in range(self.n_bids):
            p *= self.bid_likelihood(&self.bids[i], d[self.bids[i].seat])
        if self.n_doublings:
            p *= self.doubling_likelihood(d, dobb)
        return p

    def bid_score_of(self, uint64_t hand) -> float:
        """``bidding.bid_score`` (for tests)."""
        return self.bid_score(hand, self.strength(hand))

    def solo_score_of(self, uint64_t hand) -> float:
        """``bidding.solo_score`` (for tests)."""
        return self.solo_score(hand, self.strength(hand))

    cdef void features(self, const uint64_t* dealt, uint64_t dobb, double* out) noexcept nogil:
        """``estimate.deal_features`` into ``out[0..7]``: of the others' strengths the greatest
        (compared as ``max`` compares, the first of equals kept) and the sum from 0.0 in seat
        order; the rest are whole numbers."""
        cdef uint64_t d8 = dealt[self.features_declarer], h
        cdef int i, s, t, sq = 0, shortness = 0, least
        cdef double x, best = 0.0, total = 0.0
        for i in range(self.n_features_others):
            h = dealt[self.features_others[i]]
            x = self.strength(h)
            if i == 0 or x > best:
                best = x
            total += x
            t = sm_popcount(h & self.trumps)
            sq += t * t
        for s in range(3):
            least = 64
            for i in range(self.n_features_others):
                t = sm_popcount(dealt[self.features_others[i]] & self.plain_suits[s])
                if t < least:
                    least = t
            shortness += least
        out[0] = <double>sq
        out[1] = best
        out[2] = total
        out[3] = <double>shortness
        out[4] = self.strength(d8)
        out[5] = self.strength(d8 | dobb)
        out[6] = <double>self.points(dobb)
        out[7] = <double>sm_popcount(dobb & self.trumps)

    def features_of(self, list dealt, uint64_t dobb) -> tuple:
        """``estimate.deal_features`` of each seat's dealt cards and the Dobb (for tests)."""
        cdef uint64_t d[MAX_SEATS]
        cdef double f[8]
        cdef int i
        self.seats_of(dealt, d)
        self.features(d, dobb, f)
        return tuple(f[i] for i in range(8))

    # --- the loop -----------------------------------------------------------
    cdef int draw(self, MT* g, uint64_t* parts, uint64_t* dealt, uint64_t* dobb_out) noexcept nogil:
        """One draw (``DealSampler.draw``): the places' cards, each seat's dealt cards, the
        Dobb.  Returns 0, or -1 if the 12 cards to draw a Dobb from are too few."""
        cdef int32_t buf[MAX_CARDS]
        cdef int32_t twelve_cards[MAX_CARDS]
        cdef int32_t picked[12]
        cdef int st = 0, gi, i, o, p, x, pos, n, first
        cdef uint64_t r, twelve, dobb
        cdef const Option* opt
        for p in range(self.n_places):
            parts[p] = 0
        for gi in range(self.n_groups):
            o = self.states[st].first
            if self.states[st].count != 1:
                r = mt_below(g, self.states[st].total)
                while r >= self.options[o].weight:
                    r -= self.options[o].weight
                    o += 1
            opt = &self.options[o]
            first = self.group_start[gi]
            n = self.group_start[gi + 1] - first
            for i in range(n):
                buf[i] = self.group_cards[first + i]
            mt_shuffle(g, buf, n)
            pos = 0
            for p in range(self.n_places):
                x = opt.counts[p]
                for i in range(pos, pos + x):
                    parts[p] |= (<uint64_t>1) << buf[i]
                pos += x
            st = opt.next_state
        for i in range(self.n_seats):
            dealt[i] = self.seat_base[i]
            if self.seat_place[i] >= 0:
                dealt[i] |= parts[self.seat_place[i]]
        dobb = parts[self.dobb_place] if self.dobb_place >= 0 else self.dobb_const
        if self.twelve_seat >= 0:
            twelve = self.twelve_base
            if self.seat_place[self.twelve_seat] >= 0:
                twelve |= parts[self.seat_place[self.twelve_seat]]
            if self.draw_dobb:
                n = 0
                r = twelve
                while r:
                    twelve_cards[n] = sm_ctz(r)
                    n += 1
                    r &= r - 1
                if n < self.dobb_size:
                    return -1
                mt_sample(g, twelve_cards, n, self.dobb_size, self.dobb_setsize, picked)
                dobb = 0
                for i in range(self.dobb_size):
                    dobb |= (<uint64_t>1) << picked[i]
            dealt[self.twelve_seat] = twelve & ~dobb
        dobb_out[0] = dobb
        return 0

    cdef long accepted(self, MT* g, long tries, uint64_t* parts, uint64_t* dealt, uint64_t* dobb) noexcept nogil:
        """Draw until a draw is accepted, at most ``tries`` times: the draws made, 0 if none
        was accepted, -1 if a draw failed (:meth:`draw`)."""
        cdef long made = 0
        while made < tries:
            made += 1
            if self.draw(g, parts, dealt, dobb) < 0:
                return -1
            if not self.test or self.accepts(dealt, dobb[0], mt_random(g)):
                return made
        return 0

    def run(self, MersenneTwister rng, long tries):
        """Draw until a draw is accepted, at most ``tries`` times: ``(draws made, the places'
        cards, the Dobb)``, or None if none was.  ``rng`` goes on from where it stops."""
        cdef uint64_t parts[MAX_PLACES]
        cdef uint64_t dealt[MAX_SEATS]
        cdef uint64_t dobb = 0
        cdef long made
        with nogil:
            made = self.accepted(&rng.g, tries, parts, dealt, &dobb)
        if made < 0:
            raise ValueError(DRAW_FAILED)
        if made == 0:
            return None
        return made, tuple(parts[i] for i in range(self.n_places)), dobb

    def features_batch(self, list keys, long tries):
        """For each seed ``keys[i]`` (bytes read as a big-endian integer, as
        ``sampling_core.seed_bytes`` makes them), the :meth:`features` of the first draw
        accepted in at most ``tries`` from a generator seeded as ``random.Random`` seeds from
        that integer, as a list of 8-tuples; None if a sample had none accepted (the samples
        are drawn in order, and the first failure ends the batch)."""
        cdef Py_ssize_t n = len(keys), i, longest = 0
        cdef const unsigned char** texts = <const unsigned char**>malloc(max(1, n) * sizeof(char*))
        cdef Py_ssize_t* lengths = <Py_ssize_t*>malloc(max(1, n) * sizeof(Py_ssize_t))
        cdef double* out = <double*>malloc(max(1, n) * 8 * sizeof(double))
        cdef uint32_t* key = NULL
        cdef long status = 1
        cdef const double* f
        cdef bytes text
        try:
            if texts == NULL or lengths == NULL or out == NULL:
                raise MemoryError()
            for i in range(n):                  # the list holds the bytes while the loop reads them
                text = keys[i]
                texts[i] = text
                lengths[i] = len(text)
                longest = max(longest, lengths[i])
            key = <uint32_t*>malloc((longest // 4 + 1) * sizeof(uint32_t))
            if key == NULL:
                raise MemoryError()
            with nogil:
                status = self.batch_loop(texts, lengths, n, key, tries, out)
            if status < 0:
                raise ValueError(DRAW_FAILED)
            if status == 0:
                return None
            result = []
            for i in range(n):
                f = &out[8 * i]
                result.append((f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]))
            return result
        finally:
            free(texts)
            free(lengths)
            free(out)
            free(key)

    cdef long batch_loop(self, const unsigned char** texts, const Py_ssize_t* lengths, Py_ssize_t n,
                         uint32_t* key, long tries, double* out) noexcept nogil:
        """The loop of :meth:`features_batch`: 1, or as :meth:`accepted` for the sample that
        failed (0 or -1)."""
        cdef MT g
        cdef uint64_t parts[MAX_PLACES]
        cdef uint64_t dealt[MAX_SEATS]
        cdef uint64_t dobb = 0
        cdef long made
        cdef Py_ssize_t i
        for i in range(n):
            mt_seed(&g, key, key_words(texts[i], lengths[i], key))
            made = self.accepted(&g, tries, parts, dealt, &dobb)
            if made <= 0:
                return made
            self.features(dealt, dobb, &out[8 * i])
        return 1
