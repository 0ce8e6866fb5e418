# Part of the search core, included by _search.pyx (one compilation unit: the
# helpers inline into the search).
#
# Pruning and move ordering: which side surely takes the trick, runs of cards searched
# once, the order of the cards, the history of leads.


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
            # run_drop, written out: a second call here is laid out worse
            # by the compiler
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


cdef inline int lead_key(uint64_t others, int c) noexcept nogil:
    """A defender's lead ``c`` in his lead history: its suit and how many of
    ``others`` (the other three hands' cards) of the suit lie below it.

    Leads alike up to the cards gone share a counter: the lowest card of a
    suit, or the one just above the declarer's lowest, keeps its credit when
    lower cards fall, and a run of the leader's own shares one.  Keyed so
    The declarer's leads are counted by the card (see :func:`lead_index`).
    """
    return SUIT[c] * 9 + dd_popcount(others & SUITMASK[SUIT[c]] & (((<uint64_t>1) << c) - 1))


cdef inline int lead_index(uint64_t others, int seat, int c) noexcept nogil:
    """Where ``seat``'s lead ``c`` counts in his lead history: the declarer's by
    the card, a defender's by :func:`lead_key`."""
    return lead_key(others, c) if seat else c


cdef inline void defenders_replies(const Pos* p, uint64_t leads, int* replies) noexcept nogil:
    """``replies[s]``: for each suit ``s`` of the declarer's ``leads``, how many
    ways the three defenders can follow a lead of it (the product of their
    legal cards' counts).

    The declarer's leads are tried in that order, fewest first, the lead
    history only breaking near-ties (one reply fewer outweighs 2^15 of
    history): in a proof that he reaches a threshold the search tries every
    defender's card below his lead, so the lead whose trick branches least
    tends to give the smallest proof -- a zero card the defenders can only
    follow, rather than a winner that makes a void defender choose among
    all his cards.
    """
    cdef int s
    cdef uint64_t f1, f2, f3
    for s in range(4):
        if leads & SUITMASK[s]:
            f1 = follow(p.hands[1], s)
            f2 = follow(p.hands[2], s)
            f3 = follow(p.hands[3], s)
            replies[s] = dd_popcount(f1) * dd_popcount(f2) * dd_popcount(f3)
        else:
            replies[s] = 0


cdef inline int order_moves(Ctx* ctx, const Pos* p, int seat, uint64_t moves, int* out,
                            uint64_t later_d, uint64_t later_f) noexcept nogil:
    """Fill ``out`` with the moves, most promising first; return how many.
    ``later_d``, ``later_f``: see :func:`later_cards` (used when following)."""
    cdef int scores[12]
    cdef int replies[4]
    cdef int n = 0, i, j, c, sc, w = 0, wseat, hist
    # following cards have no history term: the rules below order them as
    # well without one
    cdef bint mine = False, safe = False
    cdef uint64_t opp = 0     # legal cards of the opponents still to play to the trick
    cdef uint64_t decl = 0, part = 0, sm, low
    cdef uint64_t others = 0
    if p.ncards == 0 and seat != 0:
        decl = p.hands[0]
        part = (p.hands[1] | p.hands[2] | p.hands[3]) & ~p.hands[seat]
        others = decl | part
    elif p.ncards == 0:
        defenders_replies(p, moves, replies)
    if p.ncards:
        w = p.win
        wseat = (p.leader + w) & 3
        w = p.trick[w]
        mine = (wseat == 0) == (seat == 0)
        opp = later_f if seat == 0 else later_d
        safe = mine and not (opp & beat_mask(w))
        if seat != 0 and not mine and not later_d and (later_f & beat_mask(w)):
            # the declarer has played and a partner still to play beats
            # him: the defenders can take the trick
            safe = True
    while moves:
        c = dd_ctz(moves)
        moves &= moves - 1
        if p.ncards == 0:
            # leads: the declarer's by the defenders' replies, fewest first
            # (see defenders_replies), then by history; a defender's by
            # history, on its ties the lower cards first (those outside the
            # tiers below mostly give the trick away: cheaply first).  The
            # history learns which leads refute and debits those that
            # failed (see lead_credit; a defender's keyed by lead_key, the
            # declarer's by the card)
            hist = ctx.lead_history[seat][lead_index(others, seat, c)]
            sc = hist - (replies[SUIT[c]] << 15) if seat == 0 else (hist << 4) + 8 - RANK[c]
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
            # his cards later) -- but in a plain suit only while the
            # defenders hold fewer such cards below it than he holds cards
            # of the suit: each of his cards falls to one of them at most,
            # and the lower ones can take them, so the higher ones are
            # points to smear like any
            sc = (POINTS[c] << 12) - (1 << 11 if beats(c, w) else 0)
            sm = p.hands[0] & SUITMASK[SUIT[c]]
            if (sm or SUIT[c] == TRUMP) and not (sm & ~((<uint64_t>2 << c) - 1)) and (
                    SUIT[c] == TRUMP or dd_popcount((p.hands[1] | p.hands[2] | p.hands[3])
                                                    & above_all(sm) & (((<uint64_t>1) << c) - 1)) < dd_popcount(sm)):
                sc -= 1 << 16
            elif not mine and beats(c, w):
                # the declarer has played: a card beating his is the
                # defenders' trick at once
                sc += 1 << 16
        elif beats(c, w):
            if not (opp & beat_mask(c)):
                # win it for good: the declarer with the lowest such card, a
                # defender with the one worth most (its points are the
                # defenders' now, and the refutation found first is a
                # stronger one, so the fail-soft bound it returns is tighter)
                if seat == 0:
                    sc = (3 << 20) - (RANK[c] << 12)
                    if SUIT[c] == TRUMP and ((p.hands[1] | p.hands[2] | p.hands[3]) & SUITMASK[TRUMP]
                                             & ~((<uint64_t>2 << c) - 1)):
                        # but a trump a defender could still take later
                        # wins it first, the richest first: its points are
                        # his now
                        sc = (3 << 20) + (1 << 16) + (POINTS[c] << 12) - (RANK[c] << 8)
                else:
                    sc = (3 << 20) + (POINTS[c] << 12) - (RANK[c] << 8)
                    sm = p.hands[0] & SUITMASK[SUIT[c]]
                    if (sm or SUIT[c] == TRUMP) and not (sm & ~((<uint64_t>2 << c) - 1)):
                        # a card above all the declarer's of a suit he holds,
                        # or a trump above all his, wins a trick later anyway
                        # (and takes one of his cards): a winner that would
                        # not comes first, the richest first either way
                        sc -= 1 << 16
            else:
                # contest it: no better than losing cheaply, the cheapest
                # first (ahead of a loss with as many points)
                sc = (1 << 19) + (1 << 11) - (POINTS[c] << 12)
        else:
            # lose as little as possible (also under a partner's card that
            # may still be overtaken: he may well lose the trick)
            sc = (1 << 19) - (POINTS[c] << 12)
            if seat != 0 and not POINTS[c]:
                # a defender keeps his last zero card of a suit while he
                # holds point cards of it below the declarer's highest: it
                # is the card he plays under that one, which would
                # otherwise take a point card (this orders only discards,
                # the one case of legal cards of several suits)
                sm = p.hands[seat] & SUITMASK[SUIT[c]]
                low = sm & ZERO_MASK
                if not (low & (low - 1)) and (sm & ~ZERO_MASK & ~above_all(p.hands[0] & SUITMASK[SUIT[c]])):
                    sc -= 1 << 11
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


cdef inline int ordered_moves(Ctx* ctx, const Pos* p, int seat, uint64_t legal, int* out,
                              uint64_t later_d, uint64_t later_f) noexcept nogil:
    """:func:`order_moves` where there is a choice; a single card (often forced
    late in the hand) goes to ``out`` as it is, with nothing to order."""
    if legal & (legal - 1):
        return order_moves(ctx, p, seat, legal, out, later_d, later_f)
    out[0] = dd_ctz(legal)
    return 1


cdef inline void lead_credit(Ctx* ctx, const Pos* p, int seat, const int* moves, int i, int depth) noexcept nogil:
    """Lead ``moves[i]`` of ``seat`` cut off with ``depth`` cards left: credit it, debit the leads tried before it.

    The weight grows with the cube of the cards left (a cutoff high in the
    tree saves more); a lead that failed loses three times that, so the
    leads that keep failing sink below those that have not been tried.  Both
    are halved for the seat when one grows large (no overflow over long runs
    of roots: a weight is at most 36^3, so scores stay far below the tiers
    of ``order_moves``).
    """
    cdef int w = depth * depth * depth, k, c
    cdef int* h = ctx.lead_history[seat]
    cdef bint big = False
    # a defender's leads are keyed by lead_key, over the other hands' cards
    cdef uint64_t others = (p.hands[0] | p.hands[1] | p.hands[2] | p.hands[3]) & ~p.hands[seat]
    c = lead_index(others, seat, moves[i])
    h[c] += w
    if h[c] > (1 << 20):
        big = True
    for k in range(i):
        c = lead_index(others, seat, moves[k])
        h[c] -= 3 * w
        if h[c] < -(1 << 20):
            big = True
    if big:
        for k in range(NCARDS):
            h[k] //= 2
