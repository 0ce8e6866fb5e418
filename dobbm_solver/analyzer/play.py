"""Which card now? Monte Carlo card play from a player's own view: :func:`analyze_play`.

The unseen cards are dealt consistent with everything known (the auction,
an unseen Dobbm declarer's lay-away rule, the cards played and the voids
they showed); every sample is solved with open cards from the current
position, every legal card of ``me`` valued on one table; the cards are
ranked by expected units on the same samples (paired).  Each sample is
played as if all cards were open: where a guess is to be made later the
advice can be too optimistic (strategy fusion), the standard limit of the
method.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from ..cards import BB_ALL, Card, CardSet, card_name, cardset, display_key, legal_cards, scan_forward, trick_winner
from ..deal import trick_seats
from .advice import Advice, OptionEstimate
from .arguments import check_target, check_view, resolve_samples, resolve_seed
from .estimate import TARGET_STDERR, estimate_option, paired_difference
from .payment import payment
from .runner import Progress, SampleRunner
from .view import AnalyzerError, View

#: Samples at least, and at most, of an adaptive ``play`` run.
PLAY_MIN_SAMPLES = 32
PLAY_MAX_SAMPLES = 512


@dataclass(frozen=True)
class PlayTurn:
    """Where the play stands in a view: who is to move, the trick so far, the legal cards."""

    to_move: str
    trick: tuple[Card, ...]
    legal: tuple[Card, ...]


def play_turn(view: View) -> PlayTurn:
    """The seat to move (the declarer leads to the first trick, the winner of each to the
    next), the cards of the trick in play, and ``me``'s legal cards; an
    :class:`AnalyzerError` unless ``me`` is to move."""
    assert view.declarer is not None
    leader = view.declarer
    tricks = view.tricks
    for trick in tricks:
        if len(trick) == 4:
            leader = trick_seats(view.active, leader)[trick_winner(trick)]
    current = tricks[-1] if tricks and len(tricks[-1]) < 4 else ()
    if len(tricks) == 8 and not current:
        raise AnalyzerError(view.path, "tricks", "the hand is finished: there is no card to play", view.doc)
    to_move = trick_seats(view.active, leader)[len(current)]
    if to_move != view.me:
        raise AnalyzerError(view.path, "me", f"it is {to_move}'s turn to play, not {view.me}'s (me)", view.doc)
    legal = legal_cards(view.my_hand, current[0] if current else None)
    if not legal:
        raise AnalyzerError(view.path, f"hands.{view.me}", "no card to play: the hand is empty", view.doc)
    return PlayTurn(to_move, tuple(current), tuple(sorted(scan_forward(legal), key=display_key)))


def _everything_seen(view: View) -> bool:
    seen: CardSet = cardset(c for t in view.tricks for c in t)
    for h in view.hands.values():
        seen |= h
    for known in (view.dobb, view.discard):
        seen |= known or 0
    return seen == BB_ALL


def analyze_play(view: View, samples: int | None = None, seed: int | None = None,
                 jobs: int | None = None, progress: Progress | None = None, *,
                 target_stderr: float = TARGET_STDERR) -> Advice:
    """``me``'s legal cards ranked by expected units, on shared samples.

    ``samples`` None: adaptive, batches until the leading card's expected
    points have a standard error of at most ``target_stderr``.  A view that
    shows every card is solved once: its values are the open-card solver's.
    ``info``: ``to_move``, ``trick`` (the cards in play), ``stopped``.
    """
    t0 = time.perf_counter()
    check_view(view, "play")
    turn = play_turn(view)
    fixed = 1 if _everything_seen(view) else resolve_samples(samples)
    seed = resolve_seed(seed)
    target = check_target(target_stderr)
    with SampleRunner(view, seed, jobs, progress) as runner:
        # no control variates: the cards are compared on the same samples anyway, and their
        # 1024 cheap draws cost more than the solves where the auction is rare (a Solo)
        runner.start_cv(count=0, needed=False)
        idx, stopped = _sample(runner, view, turn, fixed, target)
        ests, pays_by = _estimates(runner, view, turn, idx)
        margin = mse = None
        if len(ests) > 1:
            margin, mse = paired_difference(runner.fit, pays_by[ests[0].option], pays_by[ests[1].option])
    info = {"to_move": turn.to_move, "trick": [card_name(c) for c in turn.trick], "stopped": stopped,
            "target_stderr": target}
    return Advice("play", view.me, view.role, ests[0].option, tuple(ests), len(idx), seed, runner.jobs,
                  time.perf_counter() - t0, margin, mse, info, _notes(view))


def _sample(runner: SampleRunner, view: View, turn: PlayTurn, fixed: int | None, target: float
            ) -> tuple[list[int], str]:
    """Solve batches of samples until the leading card's points meet ``target``."""
    def precise(idx: list[int]) -> bool:
        top = _estimates(runner, view, turn, idx)[0][0]
        return top.stderr is not None and top.stderr <= target

    return runner.sample_in_batches(PLAY_MIN_SAMPLES, PLAY_MAX_SAMPLES, fixed, "cards", precise)


def _estimates(runner: SampleRunner, view: View, turn: PlayTurn, idx: list[int]
               ) -> tuple[list[OptionEstimate], dict[str, dict[int, float]]]:
    """Each legal card's estimate, best first, and its payments by sample index."""
    assert view.contract is not None
    declarer = view.role == "declarer"
    fit = runner.fit(idx)
    ests: list[OptionEstimate] = []
    pays_by: dict[str, dict[int, float]] = {}
    for c in turn.legal:
        pts = [runner.results[i]["cards"][c] for i in idx]
        pays = [float(payment(p, view.contract, view.doublings, declarer)) for p in pts]
        name = card_name(c)
        ests.append(estimate_option(name, fit, pays, pts))
        pays_by[name] = dict(zip(idx, pays))
    sign = -1 if declarer else 1        # my side's points first on ties in units
    rank = {card_name(c): k for k, c in enumerate(turn.legal)}
    ests.sort(key=lambda e: (-e.ev_units, sign * (e.expected_points or 0.0), rank[e.option]))
    return _group_alike(ests, runner, idx, {card_name(c): c for c in turn.legal}), pays_by


def _group_alike(ests: list[OptionEstimate], runner: SampleRunner, idx: list[int],
                 cards: dict[str, Card]) -> list[OptionEstimate]:
    """Cards worth the same in every sample (e.g. adjacent 6-9 of a suit) as one option,
    the others in its ``alike``."""
    rows: list[OptionEstimate] = []
    seen: dict[tuple[int, ...], int] = {}
    for e in ests:
        key = tuple(runner.results[i]["cards"][cards[e.option]] for i in idx)
        if key in seen:
            k = seen[key]
            rows[k] = replace(rows[k], alike=rows[k].alike + (e.option,))
        else:
            seen[key] = len(rows)
            rows.append(e)
    return rows


def _notes(view: View) -> tuple[str, ...]:
    notes = ["every sample is played as if all cards were open once it is dealt: where a guess is "
             "still to be made the advice can be too optimistic (strategy fusion)",
             "win % and points are the declarer's final points after the card"]
    if view.role == "defender":
        notes.append("a defender's units are their own settlement with the declarer")
    return tuple(notes)
