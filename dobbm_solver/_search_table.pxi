# Part of the search core, included by _search.pyx (one compilation unit: the
# helpers inline into the search).
#
# The transposition table: keys by relative ranks, twins' point shifts, bounds as
# stored, probe, store and growth.

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


# PACKED[x] for a suit's cards present x (9-bit ranks): its lowest ranks, as
# many as x has cards (bits 0-8), and x with its zero-point cards packed to its
# lowest ranks (bits 16-24): a lookup per suit for canonical_key's two packed
# sets of cards present, instead of two popcounts and shifts
cdef uint32_t PACKED[512]


cdef void _init_packed() noexcept:
    cdef int x
    for x in range(512):
        PACKED[x] = ((((<uint32_t>1) << dd_popcount(x)) - 1)
                     | ((<uint32_t>((x & 0x1F0) | ((1 << dd_popcount(x & 0xF)) - 1))) << 16))

_init_packed()


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
    cdef uint64_t a, b, cp, cz
    cdef unsigned long long pa, pb
    cdef uint32_t e
    cdef int r
    if USE_BMI2:
        # the same key: cp is each suit's lowest ranks, as many as it has
        # cards present; the two sets packed within the present cards in
        # order (PEXT), then spread over cp (PDEP); key[2] packs the zero
        # cards the same way, suit by suit
        cp = 0
        cz = 0
        for r in range(4):
            e = PACKED[(present >> (9 * r)) & 0x1FF]
            cp |= (<uint64_t>(e & 0x1FF)) << (9 * r)
            cz |= (<uint64_t>(e >> 16)) << (9 * r)
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


cdef inline void point_shift(const Pos* p, uint64_t mine, uint64_t theirs, int* dmin, int* dmax) noexcept nogil:
    """How the points of the cards present ``mine`` (``p``'s) differ from ``theirs`` (same relative ranks).

    Pairing each suit's cards by relative rank, the twin positions' lines of
    play correspond one to one with the same trick winners; a line's future
    declarer points differ by the differences of the pairs he takes: at
    least ``dmin`` (the negative ones), at most ``dmax`` (the positive ones).
    Except the top trumps held by one side (the declarer, or defenders
    only): each wins the trick it falls to, since every higher trump is
    that side's too, so the declarer takes all of his (their differences
    count in both bounds) and none of theirs (theirs count in neither).
    """
    cdef uint64_t x, y, m, diff = mine ^ theirs, dt, ft
    cdef int d, a, b, r
    cdef bint side
    dmin[0] = 0
    dmax[0] = 0
    # only the suits that differ, each from its lowest difference up: the
    # cards below it are the same in both, so are their pairs
    while diff:
        # the suit of the lowest difference, from that card up
        m = SUITMASK[SUIT[dd_ctz(diff)]] & ~((diff & (~diff + 1)) - 1)
        x = mine & m
        y = theirs & m
        diff &= ~m
        if m & SUITMASK[TRUMP]:
            # the top trumps of one side (the declarer's if his highest is
            # the highest: the sets are disjoint): that many pairs from the top
            dt = p.hands[0] & SUITMASK[TRUMP]
            ft = (p.hands[1] | p.hands[2] | p.hands[3]) & SUITMASK[TRUMP]
            side = dt > ft
            r = dd_popcount(dt & above_all(ft) if side else ft & above_all(dt))
            while r and x != y:
                a = highest(x)
                b = highest(y)
                if side:
                    d = POINTS[a] - POINTS[b]
                    dmin[0] += d
                    dmax[0] += d
                x &= ~((<uint64_t>1) << a)
                y &= ~((<uint64_t>1) << b)
                r -= 1
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
                point_shift(p, key[2], e[i].exact, &dmin, &dmax)
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
    """Move the part of the table in use to the next stage: GROW_STEP times as
    many entries (at most the whole table), then rehash its entries; the
    next stage comes after GROW_NODES_STEP times as many nodes again.

    An entry moved lands in a bucket of the new part past the old one (its
    hash agrees with its old bucket in the old part's bits), so the loop
    never sees it again; one may evict another (only work is lost: the
    table holds exact keys).
    """
    cdef uint64_t i, n = ctx.tt_mask + 1
    cdef TTEntry t
    cdef uint64_t h
    cdef uint64_t k3[3]
    ctx.tt_mask = n * GROW_STEP - 1
    if ctx.tt_mask > ctx.tt_full:
        ctx.tt_mask = ctx.tt_full
    ctx.grow_at *= GROW_NODES_STEP
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
