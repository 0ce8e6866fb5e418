# Part of the search core, included by _search.pyx (one compilation unit: the
# helpers inline into the search).
#
# Move generation: who beats whom, the legal cards, equivalent cards, playing a card.


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
