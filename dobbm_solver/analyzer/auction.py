"""What the bids imply: the bidding order, and what each other seat's bid says about its cards.

:func:`read_auction` checks the bids of a hand-file spec (turn order, the
must round, bids that contradict the contract) and returns the constraints
the sampler imposes: ``(seat, kind)`` with the kinds of
:mod:`dobbm_solver.models.bidding`.  Errors are :class:`~dobbm_solver.deal.DealError`
with key ``bids``.
"""

from __future__ import annotations

from typing import Sequence

from ..deal import DealError
from ..handfile import HandSpec
from ..models.bidding import KIND_DOBBM, KIND_NOT_SOLO, KIND_PASS, KIND_PASS_OVER, KIND_SOLO, KIND_SOLO_OVER

Bids = Sequence[tuple[str, str]]


def read_auction(spec: HandSpec, command: str, active: tuple[str, ...], me: str, declarer: str | None,
                 contract: str | None, must: bool) -> tuple[tuple[str, ...] | None, tuple[tuple[str, str], ...]]:
    """Check the bids; return the bidding order (if known) and the constraints on other seats."""
    bids = list(spec.bids)
    if len(bids) > len(active):
        raise DealError("bids", f"{len(bids)} bids, but each of the {len(active)} players speaks at most "
                                f"once: the auction ends by the {len(active)}th bid")
    for n, (who, _) in enumerate(bids, 1):
        if who not in active:
            raise DealError("bids", f"bid {n}: {who} is the dealer and sits this hand out")
    order = bidding_order(spec.seats, spec.dealer, bids, active)
    _check_must_round(command, bids, declarer, must)
    kinds, ended = _read_bids(bids, order, must)
    if command == "bid":
        _check_my_turn(me, bids, kinds, ended, order, must)
    else:
        assert declarer is not None and contract is not None
        _check_contract(bids, kinds, declarer, contract)
        _imply_the_rest(kinds, active, order, declarer, contract, must)
    return order, tuple((s, k) for s, k in kinds.items() if s != me)


def bidding_order(seats: tuple[str, ...], dealer: str | None, bids: Bids,
                  active: tuple[str, ...]) -> tuple[str, ...] | None:
    """The four seats in bidding order from forehand (left of the dealer, else the first to bid);
    None when neither the dealer nor any bid is known."""
    if dealer is not None:
        i = seats.index(dealer)
        forehand = seats[(i + 1) % len(seats)]
    elif bids:
        forehand = bids[0][0]
    else:
        return None
    j = active.index(forehand)
    return tuple(active[(j + k) % 4] for k in range(4))


def _check_must_round(command: str, bids: Bids, declarer: str | None, must: bool) -> None:
    if not must:
        return
    if command == "bid" and bids:
        raise DealError("bids", "in the must round you are the one who must declare: "
                                "nobody bids before you")
    if command != "bid" and any(who != declarer for who, _ in bids):
        raise DealError("bids", f"in the must round only the declarer ({declarer}) declares")


def _read_bids(bids: Bids, order: tuple[str, ...] | None, must: bool) -> tuple[dict[str, str], bool]:
    """Each speaker's constraint kind, in bidding order, and whether a Solo ended the bidding."""
    dobbm_said = False
    ended = False
    kinds: dict[str, str] = {}
    for n, (who, bid) in enumerate(bids, 1):
        if order is not None and not must and who != order[n - 1]:
            raise DealError("bids", f"bid {n}: {who} speaks out of turn ({order[n - 1]} speaks "
                                    f"{'first' if n == 1 else 'next'}; forehand is {order[0]})")
        if ended:
            raise DealError("bids", f"bid {n}: the bidding ended with the Solo before")
        if who in kinds:
            raise DealError("bids", f"bid {n}: {who} already spoke")
        if bid == "pass" and must:
            raise DealError("bids", f"bid {n}: no passing in the must round")
        if bid == "dobbm" and dobbm_said:
            raise DealError("bids", f"bid {n}: after a Dobbm only Solo or pass may follow")
        if bid == "pass":
            kinds[who] = KIND_PASS_OVER if dobbm_said else KIND_PASS
        elif bid == "dobbm":
            kinds[who] = KIND_NOT_SOLO if must else KIND_DOBBM
            dobbm_said = True
        else:
            kinds[who] = KIND_SOLO_OVER if dobbm_said and not must else KIND_SOLO
            ended = True
    return kinds, ended


def _check_my_turn(me: str, bids: Bids, kinds: dict[str, str], ended: bool,
                   order: tuple[str, ...] | None, must: bool) -> None:
    """A bid view: ``me`` has not spoken, the bidding is open, and it is ``me``'s turn."""
    if me in kinds:
        raise DealError("bids", f"{me} (me) already bid: bid advises the player about to bid")
    if ended:
        raise DealError("bids", "the bidding ended with a Solo: there is nothing left to bid")
    if order is not None and not must:
        nxt = order[len(bids)]
        if nxt != me:
            raise DealError("bids", f"it is {nxt}'s turn to bid, not {me}'s (me)")


def _check_contract(bids: Bids, kinds: dict[str, str], declarer: str, contract: str) -> None:
    """The bids agree with who declares what."""
    if declarer in kinds:
        said = [b for w, b in bids if w == declarer][0]
        if said != contract:
            raise DealError("bids", f"{declarer} bid {said}, but the contract is {contract}")
    for w, b in bids:
        if w != declarer and b == "solo":
            raise DealError("bids", f"{w} bid Solo, so {w} would be the declarer, not {declarer}")
        if w != declarer and b == "dobbm" and contract == "dobbm":
            raise DealError("bids", f"{w} bid Dobbm, so {w} would be the declarer, not {declarer}")
    if contract == "solo" and declarer in kinds:
        k = [i for i, (w, _) in enumerate(bids) if w == declarer][0]
        if k != len(bids) - 1:
            raise DealError("bids", "nobody speaks after a Solo")


def _imply_the_rest(kinds: dict[str, str], active: tuple[str, ...], order: tuple[str, ...] | None,
                    declarer: str, contract: str, must: bool) -> None:
    """Add to ``kinds`` what the contract implies about the bids not given.

    A Solo whose bid is not given counts as said over a Dobbm if a Dobbm is among the
    bids given, else as said with none before (the seats before it who are not given
    may have said one: the model then takes the Solo for a stronger hand than it needs).
    """
    solo = KIND_SOLO_OVER if KIND_DOBBM in kinds.values() else KIND_SOLO
    if must:
        kinds[declarer] = KIND_SOLO if contract == "solo" else KIND_NOT_SOLO
    elif order is not None:
        d = order.index(declarer)
        for k, s in enumerate(order):
            if s in kinds:
                continue
            if k < d:
                kinds[s] = KIND_PASS if contract == "dobbm" else KIND_NOT_SOLO
            elif k == d:
                kinds[s] = solo if contract == "solo" else KIND_DOBBM
            elif contract == "dobbm":
                kinds[s] = KIND_PASS_OVER
    else:
        kinds.setdefault(declarer, solo if contract == "solo" else KIND_DOBBM)
        if contract == "dobbm":
            for s in active:
                kinds.setdefault(s, KIND_NOT_SOLO)
