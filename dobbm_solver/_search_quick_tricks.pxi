# Part of the search core, included by _search.pyx (one compilation unit: the
# helpers inline into the search).
#
# Quick tricks: the cards each side surely wins, and the bounds on the declarer's points
# built from them.

from libc.stdint cimport uint16_t


cdef inline uint64_t above_all(uint64_t cards) noexcept nogil:
    """The cards above the highest of ``cards`` (everything when it is empty)."""
    if cards == 0:
        return ~(<uint64_t>0)
    return ~((<uint64_t>2 << (63 - __builtin_clzll(cards))) - 1)


# ranks 0-7, 0-6, 0-4 and 0 of every suit: where a card's lower neighbours
# 1, 2, 4 and 8 ranks down lie in its own suit (see up_to_top)
cdef uint64_t DOWN1 = 0, DOWN2 = 0, DOWN4 = 0, DOWN8 = 0
for _r in range(8):
    DOWN1 |= RANKMASK[_r]
    if _r < 7:
        DOWN2 |= RANKMASK[_r]
    if _r < 5:
        DOWN4 |= RANKMASK[_r]
DOWN8 = RANKMASK[0]


cdef inline uint64_t up_to_top(uint64_t cards) noexcept nogil:
    """In every suit at once, the ranks up to the highest of ``cards`` in that
    suit (none in a suit where ``cards`` has none): the complement of
    ``above_all`` of each suit, with no branch or loop over the suits."""
    cards |= (cards >> 1) & DOWN1
    cards |= (cards >> 2) & DOWN2
    cards |= (cards >> 4) & DOWN4
    cards |= (cards >> 8) & DOWN8
    return cards


cdef inline uint64_t top_plain(uint64_t mine, uint64_t theirs) noexcept nogil:
    """The plain cards of ``mine`` above all the cards of ``theirs`` in their
    suits, all suits at once (see up_to_top)."""
    return mine & ~SUITMASK[TRUMP] & ~up_to_top(theirs)


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


cdef inline int set_points(uint64_t cards) noexcept nogil:
    """The points of a set of cards: a SUIT_PTS lookup per suit."""
    return (SUIT_PTS[cards & 0x1FF] + SUIT_PTS[(cards >> 9) & 0x1FF] + SUIT_PTS[(cards >> 18) & 0x1FF]
            + SUIT_PTS[cards >> 27])


cdef inline int highest(uint64_t cards) noexcept nogil:
    return 63 - __builtin_clzll(cards)


cdef inline int smear(uint64_t hand, const int* ns, int r) noexcept nogil:
    """Points a partner of the leader can add to the leader's ``r`` cashed tricks, ``ns[s]``
    of them led in suit ``s`` (plain ones above all his cards): his lowest
    trumps to the trump leads (the leader keeps the lead), his richest cards
    of each plain suit led while he holds them, and when out of a suit led
    (he has no trump then) his richest cards of the suits not led."""
    cdef int s, c, f, total = 0
    cdef uint64_t x, pool = 0
    cdef int m
    # each suit led by one table lookup (LOWEST), not a loop per card
    for s in range(4):
        f = ns[s]
        if f:
            m = (hand >> (9 * s)) & 0x1FF
            m = LOWEST[f][m] if s == TRUMP else highest_ranks(m, f)
            total += SUIT_PTS[m]
            r -= dd_popcount(m)
        else:
            pool |= hand & SUITMASK[s]
    # the richest of the pool, whatever their suits: by rank, from the Sau down
    # (taking the highest card in the card order instead took the highest
    # suit's cards first, often a zero card over a Ten)
    c = 8
    while r > 0 and c >= 4:
        f = dd_popcount(pool & RANKMASK[c])
        if f > r:
            f = r
        total += f * POINTS[c]
        r -= f
        c -= 1
    return total


# LOWEST[f][x]: the lowest f cards of the suit's cards x (9-bit ranks), all of
# them when x holds fewer: a cashing bound's follower plays these to f leads of
# the suit (a lookup per suit led instead of a loop per card); f up to 9, all
# nine trumps cashed from one hand
cdef uint16_t LOWEST[10][512]


cdef void _init_lowest() noexcept:
    cdef int f, x, y, n
    for x in range(512):
        y = 0
        n = 0
        for f in range(10):
            LOWEST[f][x] = y
            if n < 9:
                while n < 9 and not (x >> n) & 1:
                    n += 1
                if n < 9:
                    y |= 1 << n
                    n += 1

_init_lowest()


cdef inline int highest_ranks(int x, int f) noexcept nogil:
    """The highest ``f`` ranks of the 9-bit set ``x`` (all of them if it holds fewer):
    ``x`` less its lowest others, by one lookup in LOWEST."""
    cdef int c = dd_popcount(x)
    return x & ~LOWEST[c - f][x] if f < c else x


cdef inline int kept_trumps(uint64_t hand, int m) noexcept nogil:
    """The trumps of ``hand`` (9-bit ranks) left after it follows ``m`` trump
    leads keeping its highest."""
    cdef int t = <int>((hand >> (9 * TRUMP)) & 0x1FF)
    cdef int c = dd_popcount(t)
    return t & ~LOWEST[m][t] if m < c else 0


cdef inline uint64_t defenders_kept_trumps(const Pos* p, int m) noexcept nogil:
    """The defenders' trumps left after they follow ``m`` trump leads, each
    keeping his highest (none: ``m`` rounds draw them all)."""
    return (<uint64_t>(kept_trumps(p.hands[1], m) | kept_trumps(p.hands[2], m)
                       | kept_trumps(p.hands[3], m))) << (9 * TRUMP)


cdef inline int defenders_cheapest(const Pos* p, int k) noexcept nogil:
    """The fewest points the three defenders add to ``k`` tricks, a card each."""
    return cheapest(p.hands[1], k) + cheapest(p.hands[2], k) + cheapest(p.hands[3], k)


cdef inline int lost_by_length(uint64_t mine, uint64_t theirs) noexcept nogil:
    """Of the declarer's trumps ``mine``, each below a trump of ``theirs`` (the
    defenders'), those counted lost, as 9-bit ranks: a trump of his that does
    not win its trick falls to a higher trump of a defender, a different one
    each time, so at most as many lose as they hold above his lowest -- say
    the richest of his (the highest ones, by one table lookup, not a loop
    per card)."""
    if not mine:
        return 0
    return highest_ranks(<int>(mine >> (9 * TRUMP)),
                         dd_popcount(theirs & ~((<uint64_t>2 << dd_ctz(mine)) - 1)))


cdef inline int fewest_of_ruffers(uint64_t sm, uint64_t h1, uint64_t t1, uint64_t h2, uint64_t t2,
                                  uint64_t h3, uint64_t t3) noexcept nogil:
    """The fewest cards of the suit ``sm`` among the hands ``h1``..``h3`` that
    hold a trump (``t1``..``t3``, their trumps), 9 if none does: how many
    tricks of the suit they all must follow to, so cannot ruff."""
    cdef int f = 9, c
    if t1:
        f = dd_popcount(h1 & sm)
    if t2:
        c = dd_popcount(h2 & sm)
        if c < f:
            f = c
    if t3:
        c = dd_popcount(h3 & sm)
        if c < f:
            f = c
    return f


cdef inline uint64_t promoted(const Pos* p, int s, uint64_t top, int* n) noexcept nogil:
    """``top`` (the declarer's ``n`` cards of the plain suit ``s`` above all the
    defenders') with the cards of his that those promote: his next card wins
    too once each defender has followed to ``n`` tricks of the suit with his
    lowest cards of it, if it is above every card they keep (adds them to
    ``n``)."""
    cdef uint64_t sm = SUITMASK[s]
    cdef int mine = <int>((p.hands[0] & sm & ~top) >> (9 * s))
    cdef int e1, e2, e3, c
    if not mine:
        return top
    e1 = <int>((p.hands[1] & sm) >> (9 * s))
    e2 = <int>((p.hands[2] & sm) >> (9 * s))
    e3 = <int>((p.hands[3] & sm) >> (9 * s))
    while mine:
        c = 31 - __builtin_clz(mine)
        if ((e1 & ~LOWEST[n[0]][e1]) | (e2 & ~LOWEST[n[0]][e2]) | (e3 & ~LOWEST[n[0]][e3])) >> c:
            break
        mine &= ~(1 << c)
        top |= (<uint64_t>1) << (9 * s + c)
        n[0] += 1
    return top


cdef inline void follow_lowest(const uint16_t* row, uint64_t hand, int sh, int* total, int* r,
                               uint64_t* rest) noexcept nogil:
    """A follower's lowest cards of the suit at bit ``sh`` of ``hand`` to its leads
    (``row``: the row of LOWEST for their number): their points onto ``total``,
    their number off ``r``, the cards out of ``rest``."""
    cdef uint64_t m = row[(hand >> sh) & 0x1FF]
    total[0] += SUIT_PTS[m]
    r[0] -= dd_popcount(m)
    rest[0] &= ~(m << sh)


cdef inline int follow_cheapest(uint64_t hand, const int* ns, int led, int r) noexcept nogil:
    """The fewest points ``hand`` gives to ``r`` tricks, ``ns[s]`` of them led in suit
    ``s`` (the suits of the bit set ``led``, the others' ``ns`` zero), when it
    must follow each suit led while it can: the lowest cards of each suit led
    to its leads, the cheapest of the rest to the other tricks."""
    # a lookup per suit led (see LOWEST), not a loop per card
    cdef int s, total = 0
    cdef uint64_t rest = hand
    while led:
        s = dd_ctz(led)
        led &= led - 1
        follow_lowest(LOWEST[ns[s]], hand, 9 * s, &total, &r, &rest)
    if r > 0:
        total += cheapest(rest, r)
    return total


cdef inline int follow_cheapest3(const Pos* p, const int* ns, int led, int r) noexcept nogil:
    """``follow_cheapest`` of the three defenders at once (one pass over the suits led)."""
    # one pass instead of three calls
    cdef int s, total = 0, r1 = r, r2 = r, r3 = r
    cdef const uint16_t* row
    cdef uint64_t rest1 = p.hands[1], rest2 = p.hands[2], rest3 = p.hands[3]
    while led:
        s = dd_ctz(led)
        led &= led - 1
        row = LOWEST[ns[s]]
        follow_lowest(row, p.hands[1], 9 * s, &total, &r1, &rest1)
        follow_lowest(row, p.hands[2], 9 * s, &total, &r2, &rest2)
        follow_lowest(row, p.hands[3], 9 * s, &total, &r3, &rest3)
    if r1 > 0:
        total += cheapest(rest1, r1)
    if r2 > 0:
        total += cheapest(rest2, r2)
    if r3 > 0:
        total += cheapest(rest3, r3)
    return total


cdef inline int declarer_cash(const Pos* p, int* tricks) noexcept nogil:
    """Points the declarer on lead surely takes by cashing winners at once.

    First the declarer leads his highest trump while it is above every
    defender's trump; each defender must follow with a trump (the lowest
    costs least and keeps the highest, so that is the worst case for us);
    once the defenders have no trump left every trump of the declarer wins;
    else his trumps left win by length (see ``lost_by_length``).
    Then a plain card of the declarer above all the defenders' cards of its
    suit wins (and so does his next one once they have followed with every
    card above it, each with his lowest), in a suit where every defender
    still holding a trump holds at least as many cards as the declarer has
    such winners (so no one can ruff; else as many of the richest as the
    shortest such defender must follow to).  Each defender adds a card to
    each of these tricks, following the
    suit led while it can: trumps to the trump leads and cards of each plain
    suit to its leads while it has them (its lowest), other cards (its
    cheapest) to the rest.  Sets ``tricks`` to their number; returns the
    points of all their cards.
    """
    cdef uint64_t dt = p.hands[0] & SUITMASK[TRUMP]
    cdef uint64_t f1 = p.hands[1] & SUITMASK[TRUMP]
    cdef uint64_t f2 = p.hands[2] & SUITMASK[TRUMP]
    cdef uint64_t f3 = p.hands[3] & SUITMASK[TRUMP]
    cdef uint64_t dall, top, sm, tops
    cdef int r = 0, r1, pts = 0, c, s, n, led = 0, m
    cdef int ns[4]
    ns[0] = ns[1] = ns[2] = ns[3] = 0
    while dt:
        dall = f1 | f2 | f3
        if not dall:
            # no trump against him: all the rest win, at once, not a pass
            # per trump
            pts += SUIT_PTS[dt >> (9 * TRUMP)]
            r += dd_popcount(dt)
            dt = 0
            break
        c = highest(dt)
        if c < highest(dall):
            break
        dt &= ~((<uint64_t>1) << c)
        pts += POINTS[c]
        r += 1
        f1 &= f1 - 1
        f2 &= f2 - 1
        f3 &= f3 - 1
    r1 = r
    tops = top_plain(p.hands[0], p.hands[1] | p.hands[2] | p.hands[3])
    while tops:
        s = SUIT[dd_ctz(tops)]
        sm = SUITMASK[s]
        top = tops & sm
        tops &= ~sm
        n = dd_popcount(top)
        # promoted cards (see promoted)
        top = promoted(p, s, top, &n)
        # where a defender holding a trump holds fewer cards of the suit,
        # only as many as he must follow to, the richest
        m = fewest_of_ruffers(sm, p.hands[1], f1, p.hands[2], f2, p.hands[3], f3)
        if m > n:
            m = n
        if not m:
            continue
        if m < n:
            top = (<uint64_t>highest_ranks(<int>((top >> (9 * s)) & 0x1FF), m)) << (9 * s)
            n = m
        r += n
        ns[s] = n
        led |= 1 << s
        pts += SUIT_PTS[(top >> (9 * s)) & 0x1FF]
    if dt:
        # his trumps left, below one of theirs, win by length (see
        # lost_by_length)
        c = lost_by_length(dt, f1 | f2 | f3)
        n = dd_popcount(dt) - dd_popcount(c)
        if n:
            r += n
            pts += SUIT_PTS[dt >> (9 * TRUMP)] - SUIT_PTS[c]
    tricks[0] = r
    if r:
        ns[TRUMP] = r1
        if r1:
            led |= 1 << TRUMP
        pts += follow_cheapest3(p, ns, led, r)
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
    card to each such trick: the declarer follows suit while he can (see
    ``follow_cheapest``); the partners choose theirs, and can smear points
    (see ``smear``).
    """
    cdef int lead = p.leader
    cdef int q1 = (lead + 1) & 3, q2 = (lead + 2) & 3, q3 = (lead + 3) & 3
    cdef int a, b   # the two partners of the leader
    cdef uint64_t lt = p.hands[lead] & SUITMASK[TRUMP]
    cdef uint64_t dt = p.hands[0] & SUITMASK[TRUMP]
    cdef uint64_t ta, tb, tops, top
    cdef int r = 0, r1, pts = 0, c, s, n, led = 0
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
    tops = top_plain(p.hands[lead], p.hands[0] | p.hands[a] | p.hands[b])
    while tops:
        s = SUIT[dd_ctz(tops)]
        top = tops & SUITMASK[s]
        tops &= ~SUITMASK[s]
        n = dd_popcount(top)
        if fewest_of_ruffers(SUITMASK[s], p.hands[0], dt, p.hands[a], ta, p.hands[b], tb) < n:
            continue
        r += n
        ns[s] = n
        led |= 1 << s
        pts += SUIT_PTS[(top >> (9 * s)) & 0x1FF]
    if r:
        ns[TRUMP] = r1
        if r1:
            led |= 1 << TRUMP
        pts += follow_cheapest(p.hands[0], ns, led, r) + smear(p.hands[a], ns, r) + smear(p.hands[b], ns, r)
    return pts


cdef inline int trumpless_winners(const Ctx* ctx, const Pos* p) noexcept nogil:
    """The points the declarer, not on lead but holding a trump, surely ends with
    when the defenders hold no trump (else -1).

    Then every trump of his wins a trick, and so does every plain card above
    all the defenders' cards of its suit (no one can ruff it), and his next
    card of the suit once each defender has followed to those with his
    lowest (what they keep is lower: playing his highest first, and the
    defenders' throwing cards away only shortens them): while he holds
    a trump he is never made to throw a winner away (void in the suit led, he
    must trump, and wins), and once he has the lead he cashes them all.  Each
    defender adds at least his cheapest cards to these tricks: before the
    declarer gets in, the defenders may take tricks in which they throw the
    cards they would have had to follow with.  (On lead, the declarer cashes
    the same winners at once, and ``declarer_cash`` counts them, with the
    cards the defenders must follow with.)
    """
    cdef uint64_t top = top_plain(p.hands[0], p.hands[1] | p.hands[2] | p.hands[3])
    cdef uint64_t won
    cdef int s, n
    # promoted cards: once each defender has followed n times with his
    # lowest cards of a suit, the declarer's next card of it is above what
    # they keep (he plays his highest to the tricks of the suit)
    for s in range(4):
        if s != TRUMP:
            n = dd_popcount(top & SUITMASK[s])
            top = promoted(p, s, top, &n)
    won = top | (p.hands[0] & SUITMASK[TRUMP])
    cdef int r = dd_popcount(won)
    return p.pts + ctx.bonus + set_points(won) + defenders_cheapest(p, r)


# called through a pointer, so out of line: only positions with no trump
# among the defenders and a defender on lead need it, and inlined into the
# lower bound it made the whole search slower
ctypedef int (*Bound)(const Ctx* ctx, const Pos* p) noexcept nogil
cdef Bound TRUMPLESS = trumpless_winners


cdef inline int plain_winners(const Pos* p, int* k, bint drawn) noexcept nogil:
    """The declarer's top plain cards that surely win where a defender leads and
    one of the declarer's trumps surely wins a trick (adds their number to
    ``k``, returns their points).

    A plain card above all the defenders' cards of its suit wins a trick of
    that suit unless a defender trumps it, and a defender holding a trump
    sheds cards of that suit only in tricks of that suit (void in the suit
    led he must trump): so where every defender holding a trump holds at
    least as many cards of the suit as the declarer has such top cards, the
    declarer, playing them first in that suit's tricks, wins with each of
    them -- unless made to throw one away, void in the suit led with no
    trump left.  He is not: until the first of his trumps to win a trick
    is played he holds a trump, and that trick wins him the lead: he cashes
    them then, keeping the lead.  (His trump winners take other tricks:
    these are tricks of plain cards.)  On lead he can cash them at once,
    and the cashing bound counts them.

    ``drawn``: he can then draw all the defenders' trumps (see
    ``lower_bound``), after which no top card of his can be ruffed; before
    that first trick he wins, he plays no top card of a suit while he holds
    a lower one, so a defender holding a trump and more cards of the suit
    than he holds lower ones still follows suit to the first, which wins:
    such suits' top cards all win too, and those of a suit no defender
    holds (no one can lead it before he is in).
    """
    cdef uint64_t sm, top, tops = top_plain(p.hands[0], p.hands[1] | p.hands[2] | p.hands[3])
    cdef uint64_t t1 = p.hands[1] & SUITMASK[TRUMP]
    cdef uint64_t t2 = p.hands[2] & SUITMASK[TRUMP]
    cdef uint64_t t3 = p.hands[3] & SUITMASK[TRUMP]
    cdef int s, n, f, pts = 0
    while tops:
        s = SUIT[dd_ctz(tops)]
        sm = SUITMASK[s]
        top = tops & sm
        tops &= ~sm
        n = dd_popcount(top)
        f = n
        if drawn:
            f = dd_popcount(p.hands[0] & sm) - n + 1
            if f > n:
                f = n
            if not ((p.hands[1] | p.hands[2] | p.hands[3]) & sm):
                # no defender can lead the suit before he is in
                f = 0
        if fewest_of_ruffers(sm, p.hands[1], t1, p.hands[2], t2, p.hands[3], t3) < f:
            continue
        k[0] += n
        pts += SUIT_PTS[(top >> (9 * s)) & 0x1FF]
    return pts


cdef int lower_bound(const Ctx* ctx, const Pos* p) noexcept nogil:
    """The points the declarer surely ends with from the trick start ``p``."""
    cdef uint64_t decl_tr, def_tr, decl_sure, theirs
    cdef int lo, v, k, x, m
    cdef bint drawn = False
    lo = p.pts + (ctx.bonus if p.has_trick else 0)
    if p.leader == 0:
        # on lead he cashes his winners at once: the trumps he draws, then
        # his top plain cards, then his trumps left by length; the bound
        # below counts no more of his trumps (nor richer ones), nor more
        # cards the defenders must add, for him on lead
        v = declarer_cash(p, &k)
        return v + p.pts + ctx.bonus if k else lo
    decl_tr = p.hands[0] & SUITMASK[TRUMP]
    def_tr = (p.hands[1] | p.hands[2] | p.hands[3]) & SUITMASK[TRUMP]
    if not def_tr and decl_tr:
        # no trump against him: stronger than the bounds below
        return TRUMPLESS(ctx, p)
    if decl_tr and def_tr:
        # sure points: a trump above every trump the other side holds wins
        # a trick of its own for its side, and every other player adds a
        # card to it: at least their cheapest ones; and trump length (see
        # lost_by_length): his other trumps lose at most one to each higher
        # trump of theirs
        decl_sure = decl_tr & above_all(def_tr)
        theirs = def_tr
        if decl_sure:
            # with more trumps above all the defenders' than any defender
            # holds trumps, all his trumps win: he plays no trump before
            # the first trick he wins (made to follow trumps or to ruff, he
            # wins with one of those), and on lead then draws theirs with
            # the rest of those, each defender following with one each
            # time; after that no trump of theirs is left to beat his.  On
            # lead he draws them at once (the cashing bound above).  Then
            # the top plain cards such a draw leaves unruffable (``drawn``,
            # also where no trump of his was in danger); and where he holds
            # fewer, the defenders' trumps left after he draws with all but
            # one of those (each defender keeping his highest) are the ones
            # that can beat his others
            m = dd_popcount(decl_sure) - 1
            theirs = defenders_kept_trumps(p, m)
            drawn = not theirs
        x = lost_by_length(decl_tr & ~decl_sure, theirs)
        k = dd_popcount(decl_tr) - dd_popcount(x)
        if k:
            # with a trump that surely wins (it wins him the lead), his top
            # plain cards win too, where no defender can ruff them
            v = SUIT_PTS[decl_tr >> (9 * TRUMP)] - SUIT_PTS[x] + plain_winners(p, &k, drawn)
            v = p.pts + ctx.bonus + v + defenders_cheapest(p, k)
            if v > lo:
                lo = v
    return lo


cdef int upper_bound(const Ctx* ctx, const Pos* p) noexcept nogil:
    """The most points the declarer can end with from the trick start ``p``."""
    cdef uint64_t decl_tr = p.hands[0] & SUITMASK[TRUMP]
    cdef uint64_t def_tr = (p.hands[1] | p.hands[2] | p.hands[3]) & SUITMASK[TRUMP]
    cdef uint64_t def_sure = def_tr & above_all(decl_tr)
    cdef int hi, v, k, i
    hi = p.pts + p.rem_pts + ctx.bonus - SUIT_PTS[def_sure >> (9 * TRUMP)]
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


cdef int mid_trick_lower_bound(const Ctx* ctx, const Pos* p, uint64_t mine, uint64_t theirs_legal) noexcept nogil:
    """The points the declarer surely ends with from ``p``, an unfinished trick
    he is still to play to (at his turn, or after the defender to move):
    ``mine``, his legal cards; ``theirs_legal``, every card the defenders still
    to play to it may play (see :func:`later_cards`).  -1 when no card of his
    surely wins the trick.

    With a card that beats the trick so far and that none of those cards
    beats (played before it or after), he takes the trick (with the lowest
    such card) and then leads.  His trumps above all the defenders' win a
    trick each; when he holds at least as many of them as any defender holds
    trumps, they draw every trump (each defender follows to each), so all
    his trumps win, and so do his plain cards above all the defenders' cards
    of their suits (no one is left to ruff them).  The defenders' hands are
    taken as they are now: what one still to play adds to this trick only
    lowers his cards and trumps, which weakens none of these winners.  Every
    defender adds a card to each trick he wins, one still to play to this
    trick too: at least the cheapest that many of his cards (a card ``x`` now
    and the cheapest ``r`` of the rest are ``r + 1`` cards of his hand, so hold
    no fewer points than its cheapest ``r + 1``).  The trick start before
    bounds the same winners; the cards played to this trick since, and the
    lead it gives him, are what this adds.
    """
    cdef uint64_t m = mine & BEATS[p.trick[p.win]], hand, tr, top, theirs
    cdef int c, w = -1, k, q, r, pts
    # the cards that beat the trick are all of one suit (the suit led, or
    # trumps): the lowest of them that none of theirs beats
    while m:
        c = dd_ctz(m)
        m &= m - 1
        if not (theirs_legal & BEATS[c]):
            w = c
            break
    if w < 0:
        return -1
    hand = p.hands[0] & ~((<uint64_t>1) << w)
    theirs = p.hands[1] | p.hands[2] | p.hands[3]
    tr = hand & SUITMASK[TRUMP]
    top = tr & above_all(theirs & SUITMASK[TRUMP])
    k = dd_popcount(top)
    pts = p.trick_pts + POINTS[w]
    if not defenders_kept_trumps(p, k):
        # they draw every trump: all his trumps win, and his top plain cards
        top = tr | top_plain(hand, theirs)
        r = dd_popcount(top)
        pts += set_points(top)
    else:
        r = k
        pts += SUIT_PTS[top >> (9 * TRUMP)]
    for q in range(1, 4):
        # a defender still to play to this trick: his place in it not yet taken
        pts += cheapest(p.hands[q], r + (1 if ((q - p.leader) & 3) >= p.ncards else 0))
    return p.pts + ctx.bonus + pts



# The bounds' addresses, for the tests (``trick_start_bounds``).  Taking them
# also keeps the compiler from inlining the bounds into the search, which
# calls them directly: only trick starts need them, and inlined they made
# every node dearer
cdef Bound LOWER_BOUND = lower_bound
cdef Bound UPPER_BOUND = upper_bound
# and the one mid-trick bound, out of line for the same reason
ctypedef int (*MidBound)(const Ctx* ctx, const Pos* p, uint64_t mine, uint64_t theirs_legal) noexcept nogil
cdef MidBound MID_TRICK_LOWER_BOUND = mid_trick_lower_bound


cdef inline bint declarer_still_to_play(const Pos* p, int seat) noexcept nogil:
    """Where the search takes the mid-trick bound: an unfinished trick the
    declarer is still to play to, at his turn second or third, or after
    ``seat``, the defender to move."""
    return p.ncards != 0 and ((4 - p.leader) & 3) >= p.ncards and (seat != 0 or p.ncards < 3)


cdef inline int mid_trick_bound_at(const Ctx* ctx, const Pos* p, int seat, uint64_t legal,
                                   uint64_t later_d, uint64_t later_f) noexcept nogil:
    """:func:`mid_trick_lower_bound` where :func:`declarer_still_to_play`, from
    the legal cards of ``seat`` (to move) and :func:`later_cards`'s; -1 at
    once (no call) when no card of the declarer's beats the trick so far."""
    cdef uint64_t mine = legal if seat == 0 else later_d
    if not (mine & BEATS[p.trick[p.win]]):
        return -1
    return MID_TRICK_LOWER_BOUND(ctx, p, mine, later_f if seat == 0 else later_f | legal)
