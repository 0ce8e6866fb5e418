# Part of the search core, included by _search.pyx (one compilation unit: the
# helpers inline into the search).
#
# Pruning and move ordering: which side surely takes the trick, runs of cards searched
# once, the order of the cards, the history of leads.
#
# Measured and not kept: twins bounding each other inside the search, as they do
# at the root (``Core.card_values``).  When the trick's side is not sure, both
# cards of a run are searched; a twin's value is within the two cards' point
# difference of the other's, so at a defender's node a card need not be searched
# when its twin already searched failed high by more than that difference.
# Sound (the same values on 1,000 held-out full deals), value nodes 1.51M ->
# 1.42M, every card's 4.50M -> 4.22M, 1.1% fewer instructions -- but
# 1.01-1.04x the time by benchmarks/ab_core.py, in every form tried (values
# on the stack or in the context, only with five or more cards in hand); at
# the declarer's nodes it added nodes.  Tried again on both sides, the runs
# whose trick is not sure reported by drop_dominated and only such nodes (5%
# of them) searched by a loop of their own: value nodes 1291148 -> 1222851,
# every card's 4080977 -> 3820518, instructions (callgrind, whole process)
# 1224.1M -> 1212.9M and 2405.2M -> 2347.8M, the same values; yet both
# cores built profile-guided (benchmarks/ab_core.py --pgo, 9 rounds) took
# 1.02x the time for the value by median and in total, 1.00x for every
# card: the nodes it saves are cheap ones.


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


cdef inline int lead_key(uint64_t others, int c) noexcept nogil:
    """A defender's lead ``c`` in his lead history: its suit and how many of
    ``others`` (the other three hands' cards) of the suit lie below it.

    Leads alike up to the cards gone share a counter: the lowest card of a
    suit, or the one just above the declarer's lowest, keeps its credit when
    lower cards fall, and a run of the leader's own shares one.  Keyed so
    instead of by the card, value nodes on the 120 benchmark deals 1397446 ->
    1324504, analysis 4251590 -> 4143084; on other deals of
    benchmarks/make_hands.py's generator (300 of seed 777, 300 of 4242,
    1,000 of 1001) value -2.2%, -3.6%, -1.0%, analysis -2.3%, -2.0%,
    -0.05%, the same values (measured with the key capped at 7 and a
    forced lead credited with a nearby position's cards: 1324155, 4143199
    on the benchmark; the figures below too).  Counting instead all the cards present below
    it: 1335917, 4158665; the declarer's alone: 1345924, 4122764; the
    others' above it: 1422929, 4231303; the declarer's above it: 1408462,
    4164507.  The declarer's leads keep the card itself: keyed by all the
    cards present below (or above) his ordered worse, 1486437, 4302607
    (1506051, 4290206) for both sides; keyed by lead_key as a defender's
    are, with the declarer's leads ordered by the defenders' replies
    first (see defenders_replies): value nodes +0.8% to +2.6% on the
    benchmark and held-out deals, every card's +2.2% to +3.3%.
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
    all his cards.  Measured against the history first, the declarer's
    higher cards on its ties: on the benchmark deals value nodes 895906 ->
    885855 (-1.1%), every card's 2755838 -> 2560906 (-7.1%); on 300
    held-out deals each of benchmarks/make_hands.py's seeds 777, 4242 and
    1001 value -5.8%, -14.2%, -12.1%, every card -8.1%, -9.8%, -8.8%, the
    same values.  By benchmarks/ab_core.py --pgo the value took 0.92x the
    time by median, 0.99x in total, every card 0.94x and 0.95x; on the
    held-out deals of seed 1001 0.94x and 0.90x, 0.94x and 0.93x.  Not
    kept (nodes on the benchmark, then on the three held-out sets, each
    change from before; measured with the first-choice search and the line
    ordering the declarer's leads as before, where this rule gave value
    -0.9%, -6.3%, -14.0%, -12.3%, every card -6.8%, -8.1%, -9.8%, -8.9%):
    one reply against 2^12 of history, value -1.6%, -6.3%, -11.7%, -10.4%,
    every card -4.4%, -6.3%, -5.7%, -5.3%; against 2^21 (the history
    breaking exact ties only), +4.1%, -4.9%, -13.4%, -10.1% and -3.5%,
    -5.3%, -10.1%, -7.6%; the count's logarithm, or runs of equal zero
    cards counted once, about the same; the sum of the counts, every card
    1-6 points of per cent less gain; a defender without the suit or a
    trump counted by his suits instead of his cards, every card -0.6% to
    -5.3%; the rule only with 28 (or 24) cards left or fewer, the
    benchmark's value +1.7% (+2.4%); only where the static lower bound
    lies within 20 points of beta, less gain everywhere; the history's
    debit 1, 2 or 5 times its credit, or its weight the square or a
    fourth power of the cards left, within 2 points either way; a
    defender's leads below the static tiers ordered by the replies of the
    other three, value +6.3%, -0.3%, -1.2%, +4.4%, every card +0.5% to
    +3.3%, or by the declarer's legal cards alone (fewest first, one
    outweighing 2^14 of history; with this rule in place), value -1.0%,
    -3.2%, -1.6%, -0.5%, every card -0.1% to -0.8%, but by
    benchmarks/ab_core.py --pgo 0.99x the value's time by median, 1.00x in
    total, on the held-out deals of seed 777 1.03x and 0.97x; a lead no
    defender can beat counted as two replies fewer, value -0.8% to -1.5%,
    every card +0.1% to -0.4%.  Measured first, on the five deals of the
    benchmark with the most nodes for every card: an oracle choosing at
    each of the declarer's leads with 12 to 28 cards left, in each card's
    last (proving) pass, the lead whose proof searched on an empty table
    is smallest cut those deals' every-card nodes by 1% to 21%; each lead
    probed first with a budget of 5 to 30 nodes (anywhere, or only where
    the static lower bound lay within 2 or 5 points of beta) added 1% to
    51%.  With this rule in place the same oracle, at his following cards
    too, cuts deal 88's by 1.3%: there the defenders hold the lead, and
    their own branching makes the proofs.
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
    # following cards have no history term: a counter of their cutoffs (+1
    # each, or weighted by the cards left) ordered no better than the
    # heuristics alone, and keeping it cost time
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
            # him: the defenders can take the trick (nodes 7.39M -> 5.52M
            # on the 120 benchmark deals)
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
            # declarer's by the card).  Static promise (sure winners first,
            # as a bridge solver would) and the table's move (from a search
            # at another MTD(f) threshold) both ordered the declarer's
            # leads worse than the history did; so did, on ties of history
            # only, the lead leaving the defenders the fewest replies (value
            # nodes -0.8% to -1.5%, every card's +0.3% to +1.2%; ranked
            # first, it gains: see defenders_replies).  Following cards: a
            # killer (the card that last cut at as many cards left) tried
            # first took 2.4x the value nodes; only a defender's, in the
            # first trick alone, 1.38x.
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
            # his cards later: nodes 5.52M -> 4.63M; every card above all
            # others of its suit, 5.95M) -- but in a plain suit only while
            # the defenders hold fewer such cards below it than he holds
            # cards of the suit: each of his cards falls to one of them at
            # most, and the lower ones can take them, so the higher ones
            # are points to smear like any.  Kept while the defenders hold
            # no more such cards in all than he holds of the suit: value
            # nodes 1512080 -> 1441144, analysis 4537404 -> 4399540;
            # counting only those below it (with the two rules below in
            # place): 1404142 -> 1397117, 4357034 -> 4355483.  Worse: the
            # same count for trumps (1447903, 4431308); up to one card
            # more (1444218, 4412451) or fewer than his (1466969, 4367128)
            # in all; the partners' such cards alone (1426897, 4366614);
            # no more below it than his (1403706, 4386003); no plain card
            # kept (1500828, 4424605)
            sc = (POINTS[c] << 12) - (1 << 11 if beats(c, w) else 0)
            sm = p.hands[0] & SUITMASK[SUIT[c]]
            if (sm or SUIT[c] == TRUMP) and not (sm & ~((<uint64_t>2 << c) - 1)) and (
                    SUIT[c] == TRUMP or dd_popcount((p.hands[1] | p.hands[2] | p.hands[3])
                                                    & above_all(sm) & (((<uint64_t>1) << c) - 1)) < dd_popcount(sm)):
                sc -= 1 << 16
            elif not mine and beats(c, w):
                # the declarer has played: a card beating his is the
                # defenders' trick at once (value nodes 4475836 -> 4461744;
                # such cards last instead: 6.24M).  Not kept: a trump with
                # points beating his ranked with the kept winners while a
                # partner still to play beats it, the mover holds a zero
                # trump below it and the declarer a trump with points
                # below it (the ducking pattern: HK wins, H8 ducks under
                # the partner's H10 and HK takes the declarer's HO later):
                # value nodes 1324155 -> 1284211, analysis 4143199 ->
                # 4132626, but held-out (300 deals each of seeds 777 and
                # 4242, 1,000 of seed 1001) +0.2%, +1.5%, +1.1% value,
                # +0.3% analysis each; only in second hand to the
                # declarer's trump lead with the fourth hand beating it,
                # 1287967, 4136793, held-out -0.2%, +0.4%, +0.5%; for any
                # trump beating his that a partner still to play beats,
                # 1424717, 4251488
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
                        # his now (value nodes 1397117 -> 1397446, analysis
                        # 4355483 -> 4251590; his plain cards so too:
                        # 1400331, 4252487; plain cards alone: 1400002,
                        # 4356170; only when ruffing: 1397176, 4254767;
                        # only when trumps are led: 1397107, 4331184; only
                        # into a trick holding points, or none: 1499801,
                        # 4456313 and 1441825, 4385377; every winner the
                        # richest first: 1667398, 4990836)
                        sc = (3 << 20) + (1 << 16) + (POINTS[c] << 12) - (RANK[c] << 8)
                else:
                    sc = (3 << 20) + (POINTS[c] << 12) - (RANK[c] << 8)
                    sm = p.hands[0] & SUITMASK[SUIT[c]]
                    if (sm or SUIT[c] == TRUMP) and not (sm & ~((<uint64_t>2 << c) - 1)):
                        # a card above all the declarer's of a suit he holds,
                        # or a trump above all his, wins a trick later anyway
                        # (and takes one of his cards): a winner that would
                        # not comes first, the richest first either way (value
                        # nodes 1441144 -> 1420069, analysis 4399540 ->
                        # 4366804; the cheapest of those sure ones first:
                        # 1421441, 4369250; those sure ones below the cheap
                        # losing cards when the trick holds no points yet:
                        # 1412907, 4420586)
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
                # the one case of legal cards of several suits; value
                # nodes 1420069 ->
                # 1404142, analysis 4366804 -> 4357034; for any zero card
                # of such a suit: 1415090, 4374641; as many zero cards as
                # the declarer holds above the lowest such point card:
                # 1402300, 4359410; zero cards ranked so in a trick the
                # defenders take, too: 1403939, 4376611)
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
    tree saves more; the square, and a debit of twice the weight, ordered
    worse); a lead that failed loses three times that, so the leads that
    keep failing sink below those that have not been tried.  Both are halved
    for the seat when one grows large (no overflow over long runs of roots:
    a weight is at most 36^3, so scores stay far below the tiers of
    ``order_moves``).  Measured (value, analysis nodes on the benchmark,
    then 1397446, 4251590, history keyed by the card): a debit of twice the
    weight 1467877, 4277945, four times 1415760, 4352853, five times
    1409654, 4358273; the weight depth^4 1540021, 4484264, 2^(depth/2)
    1434793, 4529982; halved past 2^16 1473608, 4426953, 2^18 1408755,
    4264949, 2^21 1406849, 4238385, 2^22 1407329, 4277449, 2^24 1399619,
    4223274.  With a defender's keyed by :func:`lead_key` (then 1324155,
    4143199), not kept: a defender's debit four or five times the weight
    (1319154, 4129779; 1313161, 4136583: on 300 deals each of seeds 777 and
    4242 and 1,000 of seed 1001, -0.4% to +0.7%, noise), his weight twice
    the declarer's (1314966, 4126971; held-out -0.2% to +0.3%); the
    declarer's debit 0, 1, 2 or 4 times (1458046, 1411648, 1401031,
    1321840; analysis 4280288, 4197044, 4138906, 4162978); no debit for a
    lead of the same key as the cutoff (1302353, 4136954; held-out value
    -0.05%, -0.04%, +0.19%, analysis +0.00%, +0.06%, +0.08%); one table for
    the three defenders (1346338, 4166643); the tables halved (1359554,
    4219174), quartered (1368528, 4177257) or cleared (1578330, 4258193)
    at each search of the opening lead (each MTD(f) pass of a value
    solve); a defender's keys split by the declarer being void in the suit
    or by five or more tricks left (below capped at 3 to make room:
    1347427, 4183173; 1311576, 4177041; the cap alone 1348129, 4153907),
    or keyed by below capped at 3 and a higher card of the others or none
    (1340044, 4176595); trumps by the card (1332379, 4172015), or plain
    cards (1395725, 4259313); the history also ordering within the two
    static tiers (1327242, 4140262; 1326797, 4173476).  Ties: the
    declarer's lowest first (1314319, 4144448), a defender's highest
    (1504957, 4456780), his cheapest (1354089, 4190407), the declarer's
    richest (1318286, 4143275).
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
