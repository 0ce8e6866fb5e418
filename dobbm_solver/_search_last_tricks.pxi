# Part of the search core, included by _search.pyx (one compilation unit: the
# helpers inline into the search).
#
# The last tricks, computed directly: the final value, the last trick, the last two.


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


cdef inline bint ab_take(bint maxer, int v, int* best, int* alpha, int* beta) noexcept nogil:
    """A child's value ``v`` into a node's ``best`` and window; whether the node is cut."""
    if maxer:
        if v > best[0]:
            best[0] = v
            if v > alpha[0]:
                alpha[0] = v
    else:
        if v < best[0]:
            best[0] = v
            if v < beta[0]:
                beta[0] = v
    return alpha[0] >= beta[0]


cdef int last_two(const Pos* p, int bonus) noexcept nogil:
    """Exact value when every hand holds two cards at a trick start: a tiny minimax."""
    cdef int lead = p.leader
    cdef int s1 = (lead + 1) & 3, s2 = (lead + 2) & 3, s3 = (lead + 3) & 3
    cdef int rd = (4 - lead) & 3          # the declarer's place in the first trick's order
    cdef uint64_t h0 = p.hands[lead], h1 = p.hands[s1], h2 = p.hands[s2], h3 = p.hands[s3]
    cdef uint64_t m0, m1, m2, m3, bit, lm1, lm2, lm3, lm, won_by
    cdef uint64_t last[4]                 # each hand's card for the last trick, by place
    cdef int a, b, c, d, v, v0, v1, v2, v3, suit, pa, pb, pc, p1, decl, won
    cdef int wb, wc, xb, xc, xd           # the first trick's winning card and place so far
    # alpha-beta within the tree, from a full window at its root (so its
    # value stays exact): a third or fourth hand's second card is often cut
    cdef int a0 = -INF, b0 = INF, a1, b1, a2, b2, a3, b3
    # the first trick's winner and points kept per level as its cards are
    # chosen, and the last trick's winner from the four last cards at once
    # (the highest trump, else the highest of the suit its leader holds),
    # instead of two full trick_winner calls and a branch on the leader per
    # leaf
    v0 = -INF if lead == 0 else INF
    m0 = h0
    while m0:
        a = dd_ctz(m0)
        m0 &= m0 - 1
        bit = (<uint64_t>1) << a
        suit = SUIT[a]
        last[0] = h0 & ~bit
        lm1 = last[0]
        pa = POINTS[a]
        v1 = -INF if s1 == 0 else INF
        a1 = a0
        b1 = b0
        m1 = follow(h1, suit)
        while m1:
            b = dd_ctz(m1)
            m1 &= m1 - 1
            bit = (<uint64_t>1) << b
            last[1] = h1 & ~bit
            lm2 = lm1 | last[1]
            pb = pa + POINTS[b]
            if beats(b, a):
                wb = b
                xb = 1
            else:
                wb = a
                xb = 0
            v2 = -INF if s2 == 0 else INF
            a2 = a1
            b2 = b1
            m2 = follow(h2, suit)
            while m2:
                c = dd_ctz(m2)
                m2 &= m2 - 1
                bit = (<uint64_t>1) << c
                last[2] = h2 & ~bit
                lm3 = lm2 | last[2]
                pc = pb + POINTS[c]
                if beats(c, wb):
                    wc = c
                    xc = 2
                else:
                    wc = wb
                    xc = xb
                v3 = -INF if s3 == 0 else INF
                a3 = a2
                b3 = b2
                m3 = follow(h3, suit)
                while m3:
                    d = dd_ctz(m3)
                    m3 &= m3 - 1
                    bit = (<uint64_t>1) << d
                    last[3] = h3 & ~bit
                    lm = lm3 | last[3]
                    p1 = pc + POINTS[d]
                    xd = 3 if beats(d, wc) else xc
                    decl = p.pts
                    won = p.has_trick
                    if xd == rd:
                        decl += p1
                        won = 1
                    # last trick: led by the first one's winner
                    won_by = lm & SUITMASK[TRUMP]
                    if not won_by:
                        won_by = lm & SUITMASK[SUIT[dd_ctz(last[xd])]]
                    if (last[rd] >> highest(won_by)) & 1:
                        decl += p.rem_pts - p1
                        won = 1
                    v = decl + (bonus if won else 0)
                    if ab_take(s3 == 0, v, &v3, &a3, &b3):
                        break
                if ab_take(s2 == 0, v3, &v2, &a2, &b2):
                    break
            if ab_take(s1 == 0, v2, &v1, &a1, &b1):
                break
        ab_take(lead == 0, v1, &v0, &a0, &b0)
    return v0


# Its address: keeps the compiler from inlining last_two into the search, which
# calls it only at trick starts with two cards each; inlined it made every
# node dearer
ctypedef int (*LastTwo)(const Pos* p, int bonus) noexcept nogil
cdef LastTwo LAST_TWO = last_two
