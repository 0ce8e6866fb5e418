# Part of the search core, included by _search.pyx (one compilation unit: the
# helpers inline into the search).
#
# Where MTD(f) starts: an upper bound on the value from a search in which the
# defenders play only their first-ordered card.

cdef enum:
    # the most nodes that search may take by default (else MTD(f) starts
    # from the most the declarer can reach); from an opening lead it
    # takes far fewer
    START_NODES = 20000


cdef int first_choice_bound(Ctx* ctx, const Pos* p, int alpha, int64_t cap) noexcept nogil:
    """An upper bound on the declarer's final points from ``p``: the value of
    the game in which each defender plays only the card ``order_moves`` puts
    first, the declarer any card (fail-soft, ``alpha`` rising as his cards
    are searched); ``INF`` past ``cap`` nodes.

    Why it is one: the defenders minimise, and a minimum over fewer of their
    cards is no lower, so the restricted game's value at any position is at
    least the true one.  The search may replace a position's value by any
    upper bound on its true value -- the static upper bound, the table's --
    and the value it returns at each position still is one: a maximum of
    upper bounds is an upper bound on the maximum, a defender's one card's
    bound is one on the minimum, and a fail-soft result below ``alpha`` bounds
    the restricted value from above.  So it stores what it finds in the
    transposition table as upper bounds on the true future points, where the
    exact search finds them: its first passes, which test thresholds above
    the value, cut on them.

    Started at this bound instead of the most the declarer can reach, MTD(f)
    skips its passes above it, and finds the bounds of this line's positions
    in the table.

    ``Core.card_values`` starts each card's MTD(f) from this bound after
    that card, too (see there).

    The defender's card is the first of ``order_moves`` over all his legal
    cards (not pruned by ``drop_dominated`` first: that costs more than it
    saves here).
    """
    cdef int seat = (p.leader + p.ncards) & 3
    cdef int v, best, n, i, depth = 0, lo, hi
    cdef int moves[12]
    cdef uint64_t later_d = 0, later_f = 0, legal, h = 0
    cdef uint64_t key[3]
    cdef bint tabled = False
    cdef Pos child
    ctx.nodes += 1
    if ctx.nodes > cap:
        return INF
    if p.ncards == 0:
        if p.hands[seat] == 0:
            return final_value(p, ctx.bonus)
        depth = dd_popcount(p.hands[0] | p.hands[1] | p.hands[2] | p.hands[3])
        if depth == 4:
            return last_trick(p, ctx.bonus)
        if depth == 8:
            return last_two(p, ctx.bonus)
        v = upper_bound(ctx, p)
        if v <= alpha:
            return v
        h = canonical_key(p, ctx.bonus, key)
        # only the table's upper bound holds here (its lower ones are on the
        # true value, which the restricted game's may exceed)
        if tt_lookup(ctx, p, key, h, &lo, &hi) and hi <= alpha:
            return hi
        tabled = True
    legal = legal_moves(p, seat)
    if p.ncards:
        later_cards(p, SUIT[p.trick[0]], &later_d, &later_f)
    if seat == 0 and legal & (legal - 1):
        legal = drop_dominated(p, seat, drop_equivalent(p, legal), later_d, later_f)
    n = ordered_moves(ctx, p, seat, legal, moves, later_d, later_f)
    if seat != 0:
        n = 1
    best = -INF
    for i in range(n):
        play_into(p, &child, moves[i])
        v = first_choice_bound(ctx, &child, alpha, cap)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
    if tabled and best < INF:
        tt_store(ctx, key, h, -1, tt_encode(p, ctx.bonus, best, True), depth)
    return best


cdef inline int most_points(const Ctx* ctx, const Pos* p) noexcept nogil:
    """The most the declarer can end with from ``p``: every point taken or left, and the bonus."""
    return p.pts + p.trick_pts + p.rem_pts + ctx.bonus


cdef inline int start_bound(Ctx* ctx, const Pos* p) noexcept nogil:
    """Where MTD(f) starts at ``p``: :func:`first_choice_bound` within
    ``ctx.start_nodes`` nodes, or :func:`most_points` where that is lower or
    the search gave up."""
    cdef int top = most_points(ctx, p)
    cdef int u = first_choice_bound(ctx, p, -INF, ctx.nodes + ctx.start_nodes)
    return u if u < top else top


# for the tests: the default of Core's start_nodes
FIRST_CHOICE_NODES = START_NODES
