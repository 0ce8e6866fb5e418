"""Monte Carlo hand analyzer: advice at the table, where nobody sees the other hands.

From the cards a player can see (and what the bidding has shown) the
analyzer deals the unseen cards at random, consistent with everything known,
solves every sample exactly with the open-card core, and ranks the player's
options by the expected payment.  Three questions are answered:

* :func:`analyze_bid` -- Pass, Dobbm or Solo, for ``me`` holding 8 cards
  before the bidding reaches them;
* :func:`analyze_discard` -- every legal lay-away of a Dobbm, for ``me`` the
  declarer holding the 8 dealt cards with the Dobb known;
* :func:`analyze_double` -- as a defender after "I lie": double (Schwacher)
  or play on; as the declarer facing a Schwacher: Retour or play on.

Each takes a checked :class:`View` (from :func:`make_view` or
:func:`load_views`), ``samples`` (None: adaptive), ``seed``, ``jobs`` and an
optional ``progress(done, total)`` callback, and returns an :class:`Advice`.
This module never imports click; it is the library under
``dobbm bid/discard/double``.

Payment (all three commands)
----------------------------
Points become units as in RULES.md: ``ceil(|points - 60| / 5)`` to the
winning side, 60 pays nothing, Solo x2, each Schwacher or Retour x2.  The
declarer settles with each of three defenders, so the expected value *for
the person asking* is ``3 x units`` as the declarer and ``-units`` as a
defender (a defender's own settlement with the declarer only).

Bidding model
-------------
A player rates the 8 dealt cards with :func:`dobbm_solver.heuristics.hand_strength`
``s`` and perceives it with a little noise: ``s + e`` with ``e`` logistic of
scale :data:`BID_SPREAD`.  The player bids Solo when ``s + e`` reaches
:data:`BID_SOLO_THRESHOLD`, Dobbm when it reaches :data:`BID_DOBBM_THRESHOLD`
(and no Dobbm was said before; after a Dobbm only Solo can follow), else
passes.  So with ``sig(x) = 1 / (1 + exp(-x))``::

    P(solo)  = sig((s - T_solo) / spread)
    P(dobbm) = sig((s - T_dobbm) / spread) - P(solo)     (no Dobbm said yet)
    P(pass)  = 1 - sig((s - T_dobbm) / spread)           (no Dobbm said yet)
    P(pass)  = 1 - P(solo)                               (after a Dobbm)

:func:`bid_probabilities` gives these, :func:`model_bid` the noiseless bid
(the baseline shown next to the Monte Carlo recommendation).  The thresholds
are calibrated with the solver (see :data:`BID_DOBBM_THRESHOLD`).  For
sampling, a bid also has a small chance :data:`BID_LAPSE` of ignoring the
model, so that no auction is impossible.

Sampling
--------
The unseen cards are dealt uniformly among the unseen places (the other
hands, the Dobb, an unseen Dobbm declarer's 12 cards), respecting hand
sizes, cards played and voids shown by earlier tricks: the number of cards
of each suit per place is drawn first, in exact proportion to the number of
deals with those counts, then each suit's cards are shuffled into the
places.  The auction is imposed by **rejection**: a deal is kept with
probability equal to the bidding model's likelihood of the bids said (each
speaker's bid given their sampled 8 cards), which gives exact samples of
the posterior.  A Dobbm declarer whose cards are unseen lays away what
:func:`dobbm_solver.heuristics.heuristic_discard` picks from the 12 cards --
a player's own rule of thumb, never a peek at the other hands (in mid-play:
its favourite among the lay-aways that fit the cards seen and the voids
shown).

Every sample ``i`` is drawn from its own generator seeded with
``(seed, i)``, so results are identical whatever ``jobs`` is, and all
options are scored on the same samples (common random numbers).

Estimates
---------
Means over samples, with **control variates**: cheap facts of each sampled
deal (:func:`_features`: trump split, hand strengths, the Dobb's points...)
whose exact means are estimated from many cheap draws of the same sampler;
regressing the solved points on them removes much of the luck of the deal
from the estimate (in the example files the standard error shrinks by a
factor of 1.1 for a lay-away, 1.2 to 1.35 for doubling, 1.5 for bidding).
With ``samples`` None sampling is adaptive: batches of :data:`BATCH` until
the recommended option's expected points have a standard error of at most
``target_stderr`` (default :data:`TARGET_STDERR` = 1.5 points).
"""

from __future__ import annotations

import math
import multiprocessing
import os
import random
import secrets
import signal
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from itertools import combinations
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from ._interrupt import CtrlC
from .cards import (
    BB_ALL,
    BB_PLAIN_SAUS,
    BB_SUITS,
    BB_TRUMPS,
    DOBB_SIZE,
    HAND_SIZE,
    SUIT_NAMES,
    TRUMP,
    Card,
    CardSet,
    card_name,
    card_points,
    card_rank,
    card_suit,
    cardset,
    popcount,
    scan_forward,
    set_names,
    set_points,
    trick_winner,
)
from .deal import Deal, find_revokes
from .handfile import HandFileError, HandSpec, load_specs
from .heuristics import (
    BANK_WEIGHT,
    HEART_PENALTY,
    RISK_LONG,
    RISK_SHORT,
    SAU_PENALTY,
    SINGLETON_VALUE,
    TOP_CARD_PENALTY,
    VOID_VALUE,
    _top_cards,
    discard_score,
    hand_strength,
    legal_discards,
)
from .rules import WIN_THRESHOLD, lay_away_error, units

__all__ = [
    "BID_DOBBM_THRESHOLD", "BID_SOLO_THRESHOLD", "BID_SPREAD", "TARGET_STDERR",
    "AnalyzerError", "View", "OptionEstimate", "Advice",
    "bid_probabilities", "model_bid", "payment", "policy_discard", "lay_away_classes",
    "make_view", "load_views", "sample_deals",
    "analyze_bid", "analyze_discard", "analyze_double",
]

# --------------------------------------------------------------------------
# bidding model

#: A hand perceived at least this strong bids Dobbm (if nobody said Dobbm before).
#: Calibrated with the solver (``benchmarks/calibrate_bidding.py``): over 5000
#: random deals the declarer's Dobbm -- the lay-away of ``heuristic_discard``,
#: open-card play against unconstrained defenders -- has expected units that
#: cross zero at strength 12.6 (linear fit over strengths 9..16).
BID_DOBBM_THRESHOLD = 12.5
#: A hand perceived at least this strong bids Solo.  Calibrated likewise: Solo's
#: expected units overtake Dobbm's at strength 22.3 (fit over 17..27).
BID_SOLO_THRESHOLD = 22.0
#: Scale of the logistic noise on the perceived strength (players differ, and
#: the strength score is only a rule of thumb).
BID_SPREAD = 1.5
#: The chance that a player's bid ignores the model (a lapse, or something in
#: the hand the strength score misses): each bid then has likelihood at least
#: ``BID_LAPSE / 3``, so no auction is impossible for any hand.
BID_LAPSE = 0.05

# likelihood kinds of an auction constraint on one seat's 8 dealt cards
_PASS = "pass"            # passed, no Dobbm said before
_NOT_SOLO = "not_solo"    # passed after a Dobbm (or: passed or said Dobbm)
_DOBBM = "dobbm"
_SOLO = "solo"


def _sig(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _p_solo(strength: float) -> float:
    return _sig((strength - BID_SOLO_THRESHOLD) / BID_SPREAD)


def _p_dobbm_up(strength: float) -> float:
    """P(perceived strength reaches the Dobbm threshold)."""
    return _sig((strength - BID_DOBBM_THRESHOLD) / BID_SPREAD)


def _kind_likelihood(kind: str, strength: float) -> float:
    return (1.0 - BID_LAPSE) * _model_likelihood(kind, strength) + BID_LAPSE / 3


def _model_likelihood(kind: str, strength: float) -> float:
    if kind == _PASS:
        return 1.0 - _p_dobbm_up(strength)
    if kind == _NOT_SOLO:
        return 1.0 - _p_solo(strength)
    if kind == _DOBBM:
        return max(0.0, _p_dobbm_up(strength) - _p_solo(strength))
    if kind == _SOLO:
        return _p_solo(strength)
    raise ValueError(kind)


def bid_probabilities(hand: CardSet, *, dobbm_said: bool = False, must: bool = False) -> dict[str, float]:
    """The bidding model: the probability of each bid for a player holding ``hand`` (8 cards).

    ``dobbm_said``: someone already said Dobbm (only pass or Solo remain).
    ``must``: the must round (only Dobbm or Solo).
    """
    s = hand_strength(hand)
    ps = _p_solo(s)
    if must:
        return {"dobbm": 1.0 - ps, "solo": ps}
    if dobbm_said:
        return {"pass": 1.0 - ps, "solo": ps}
    pd = _p_dobbm_up(s)
    return {"pass": 1.0 - pd, "dobbm": max(0.0, pd - ps), "solo": ps}


def model_bid(hand: CardSet, *, dobbm_said: bool = False, must: bool = False) -> str:
    """The noiseless bid of the model: thresholds on ``hand_strength`` alone."""
    s = hand_strength(hand)
    if s >= BID_SOLO_THRESHOLD:
        return "solo"
    if must:
        return "dobbm"
    if s >= BID_DOBBM_THRESHOLD and not dobbm_said:
        return "dobbm"
    return "pass"


# --------------------------------------------------------------------------
# payment


def payment(points: int, contract: str, doublings: int, declarer: bool) -> int:
    """Units the person asking receives (negative: pays) when the declarer ends with ``points``.

    The declarer settles with each of the three defenders: ``3 x units``; a
    defender only their own settlement: ``-units``.
    """
    u = units(points, contract, doublings)
    return 3 * u if declarer else -u


# --------------------------------------------------------------------------
# hand_strength, fast: the sampler rates thousands of hands per analysis


def _strength_tables() -> tuple[list[float], list[list[float]]] | None:
    """Per-suit tables of ``heuristics.hand_strength``'s terms (see its doc).

    The score is a sum of a trump term (by the trump holding) and one term per
    plain suit (by that holding, and whether the hand has three trumps or
    more), so two tables of 512 entries give it exactly.  Checked against
    ``hand_strength`` on random hands; None (use ``hand_strength`` itself) if
    they ever disagree, e.g. after a change of the heuristic.
    """
    from . import heuristics as h
    try:
        trump = [sum(h.TRUMP_VALUE[r] for r in range(9) if (m >> r) & 1)
                 + h.TRUMP_LENGTH_BONUS * max(0, bin(m).count("1") - 3) for m in range(512)]
        plain: list[list[float]] = [[], []]
        for flag in (0, 1):
            for m in range(512):
                n = bin(m).count("1")
                sau, ten, king = (m >> 8) & 1, (m >> 7) & 1, (m >> 6) & 1
                v = h.SAU_VALUE if sau else 0.0
                if ten:
                    v += h.TEN_WITH_SAU if sau else (h.TEN_GUARDED if n >= 2 else 0.0)
                if king and (sau or ten):
                    v += h.KING_WITH_HONOUR
                v += h.LONG_SUIT_BONUS * max(0, n - 3)
                if flag:
                    if n == 0:
                        v += h.VOID_BONUS
                    elif n == 1 and not sau:
                        v += h.SINGLETON_BONUS
                plain[flag].append(v)
    except AttributeError:   # the heuristic changed its make-up
        return None
    rng = random.Random(36)
    for k in range(400):
        hand = sum(1 << c for c in rng.sample(range(36), 8 if k % 2 else 12))
        if _table_strength(hand, trump, plain) != hand_strength(hand):
            return None
    return trump, plain


def _table_strength(hand: CardSet, trump: list[float], plain: list[list[float]]) -> float:
    tm = (hand >> (9 * TRUMP)) & 511
    p = plain[1 if bin(tm).count("1") >= 3 else 0]
    return trump[tm] + p[hand & 511] + p[(hand >> 9) & 511] + p[(hand >> 27) & 511]


_TABLES = _strength_tables() if TRUMP == 2 else None


def _strength(hand: CardSet) -> float:
    """``heuristics.hand_strength(hand)``, from tables when they agree with it."""
    if _TABLES is None:
        return hand_strength(hand)
    return _table_strength(hand, _TABLES[0], _TABLES[1])


# --------------------------------------------------------------------------
# the declarer's lay-away from the 12 cards alone (a fast heuristic_discard)

_PLAIN = tuple(s for s in range(4) if s != TRUMP)


def _fast_scores(hand12: CardSet, exclude: CardSet = 0, require: CardSet = 0) -> list[tuple[CardSet, int]]:
    """Every legal lay-away avoiding ``exclude`` and holding ``require``, with an exact integer score (tenths).

    The score is ``10 x heuristics.discard_score`` computed in integers (all
    weights there are multiples of 0.1); order as ``heuristics.legal_discards``.
    """
    cards = list(scan_forward(hand12))
    tops = 0
    for s in _PLAIN:
        tops |= _top_cards(hand12, s)
    base = {}
    for c in cards:
        v = round(10 * BANK_WEIGHT) * card_points(c)
        if card_suit(c) == TRUMP:
            v -= round(10 * HEART_PENALTY) + 10 * card_rank(c)
        elif (tops >> c) & 1:
            v -= round(10 * SAU_PENALTY) if card_rank(c) == 8 else round(10 * TOP_CARD_PENALTY)
        base[c] = v
    n_hearts = popcount(hand12 & BB_TRUMPS)
    void_v = [round(10 * x) for x in VOID_VALUE]
    single_v = round(10 * SINGLETON_VALUE)
    risk_s, risk_l = round(10 * RISK_SHORT), round(10 * RISK_LONG)
    suit_cache: dict[tuple[int, CardSet, int], int] = {}

    def suit_term(s: int, kept_s: CardSet, kh: int) -> int:
        key = (s, kept_s, kh)
        v = suit_cache.get(key)
        if v is None:
            n = popcount(kept_s)
            top = tops & BB_SUITS[s]
            if n == 0:
                v = void_v[min(kh, 2)]
            else:
                v = single_v if (n == 1 and not kept_s & top) else 0
                risk = risk_s if n <= 2 else risk_l
                v -= risk * sum(card_points(c) for c in scan_forward(kept_s & ~top))
            suit_cache[key] = v
        return v

    out = []
    for combo in combinations(cards, DOBB_SIZE):
        d = (1 << combo[0]) | (1 << combo[1]) | (1 << combo[2]) | (1 << combo[3])
        if d & exclude or require & ~d:
            continue
        saus = popcount(d & BB_PLAIN_SAUS)
        hearts = popcount(d & BB_TRUMPS)
        if saus > hearts:
            continue
        kept = hand12 & ~d
        kh = n_hearts - hearts
        sc = base[combo[0]] + base[combo[1]] + base[combo[2]] + base[combo[3]]
        for s in _PLAIN:
            sc += suit_term(s, kept & BB_SUITS[s], kh)
        out.append((d, sc))
    return out


def policy_discard(hand12: CardSet, exclude: CardSet = 0, require: CardSet = 0) -> CardSet | None:
    """The lay-away a player picks from 12 cards alone: ``heuristics.heuristic_discard``.

    Fast (integer scores), and the same result as ``heuristic_discard``: the
    few lay-aways tied at the best integer score are re-scored with
    ``heuristics.discard_score`` and the first best in ``legal_discards``
    order wins.  ``exclude``: cards that may not be laid away, ``require``:
    cards that must be (a defender's view in mid-play: the declarer played
    or showed the first, and showed a void in the suits of the second); the
    choice is then the heuristic's favourite among the lay-aways that fit.
    None if no legal lay-away fits.
    """
    scored = _fast_scores(hand12, exclude, require)
    if not scored:
        return None
    best = max(sc for _, sc in scored)
    tied = [d for d, sc in scored if sc >= best - 1]
    if len(tied) == 1:
        return tied[0]
    top, top_score = tied[0], float("-inf")
    for d in tied:
        sc = discard_score(hand12, d)
        if sc > top_score:
            top, top_score = d, sc
    return top


# --------------------------------------------------------------------------
# lay-aways that are the same in play


def _zero_runs(hand12: CardSet) -> dict[Card, Card]:
    """Map each zero-point card (6-9) of ``hand12`` to the lowest card of its run.

    A run is a set of zero-point cards of one suit in ``hand12`` with no card
    of another holder between them: in play they are interchangeable.
    """
    rep: dict[Card, Card] = {}
    for s in range(4):
        first = None
        for rank in range(4):          # 6 7 8 9
            c = s * 9 + rank
            if (hand12 >> c) & 1:
                if first is None:
                    first = c
                rep[c] = first
            else:
                first = None
    return rep


def lay_away_classes(hand12: CardSet) -> list[tuple[CardSet, tuple[CardSet, ...]]]:
    """Legal lay-aways of ``hand12`` grouped by what is left to play.

    Two lay-aways that differ only by which of some interchangeable zero-point
    cards (adjacent 6-9 of one suit, none held elsewhere between them) go away
    leave hands that play identically and bank the same points, so they have
    the same value in every deal.  Returns ``[(representative, members)]`` in
    ``legal_discards`` order of the representatives (the first member).
    """
    rep = _zero_runs(hand12)
    groups: dict[tuple, list[CardSet]] = {}
    for d in legal_discards(hand12):
        # canonical form: zero cards replaced by their run's count taken from the run bottom
        key_cards = []
        counts: dict[Card, int] = {}
        for c in scan_forward(d):
            if c in rep:
                counts[rep[c]] = counts.get(rep[c], 0) + 1
            else:
                key_cards.append(c)
        key = (tuple(key_cards), tuple(sorted(counts.items())))
        groups.setdefault(key, []).append(d)
    return [(ms[0], tuple(ms)) for ms in groups.values()]


# --------------------------------------------------------------------------
# views


class AnalyzerError(HandFileError):
    """A view the analyzer cannot work with (e.g. an auction the model finds too unlikely)."""


@dataclass(frozen=True)
class View:
    """What ``me`` knows, checked: the input of every analysis.

    ``command`` is ``bid``, ``discard``, ``double`` or ``play`` (a general
    view, also mid-play, used for sampling).  ``hands`` holds the cards seen
    in each seat now (``me``'s complete).  ``auction`` lists the constraints
    on other seats' dealt cards: ``(seat, kind)`` with kind ``pass`` (passed
    before any Dobbm), ``not_solo`` (passed after a Dobbm, or passed-or-Dobbm),
    ``dobbm`` or ``solo``.  ``order`` is the bidding order from forehand when
    known.  Build it with :func:`make_view`.
    """

    command: str
    seats: tuple[str, ...]
    active: tuple[str, ...]
    me: str
    hands: Mapping[str, CardSet]
    declarer: str | None = None
    contract: str | None = None
    dobb: CardSet | None = None
    discard: CardSet | None = None
    tricks: tuple[tuple[Card, ...], ...] = ()
    doublings: int = 0
    dealer: str | None = None
    bids: tuple[tuple[str, str], ...] = ()
    must: bool = False
    order: tuple[str, ...] | None = None
    auction: tuple[tuple[str, str], ...] = ()
    path: str = field(default="<string>", compare=False)
    doc: int | None = field(default=None, compare=False)

    @property
    def my_hand(self) -> CardSet:
        return self.hands[self.me]

    @property
    def exchanged(self) -> bool:
        """A Dobbm after the exchange: the Dobb is part of the declarer's 12 cards."""
        return self.contract == "dobbm" and self.command not in ("bid", "discard")

    @property
    def role(self) -> str:
        """``bidder`` (bid), ``declarer`` or ``defender``."""
        if self.declarer is None:
            return "bidder"
        return "declarer" if self.me == self.declarer else "defender"

    @property
    def dobbm_said(self) -> bool:
        return any(b == "dobbm" for _, b in self.bids)

    def later_bidders(self) -> tuple[str, ...]:
        """Bid view: the players who speak after ``me`` (all others if the order is unknown)."""
        if self.order is None:
            i = self.active.index(self.me)
            return tuple(self.active[(i + k) % 4] for k in range(1, 4))
        return self.order[self.order.index(self.me) + 1:]

    def bid_options(self) -> tuple[str, ...]:
        if self.must:
            return ("dobbm", "solo")
        if self.dobbm_said:
            return ("pass", "solo")
        return ("pass", "dobbm", "solo")


def _fail(spec: HandSpec, key: str | None, message: str) -> HandFileError:
    return HandFileError(spec.path, key, message, spec.doc)


@dataclass(frozen=True)
class _Played:
    """Who played what: the tricks followed from the declarer's lead with known cards only."""

    by_seat: Mapping[str, tuple[Card, ...]]
    voids: Mapping[str, int]        # seat -> bitmask of suits shown void
    #: the first card played in a suit its seat had shown void: (trick number, seat, card)
    broken: tuple[int, str, Card] | None = None

    def cards(self, seat: str) -> CardSet:
        """The cards ``seat`` played."""
        return cardset(self.by_seat.get(seat, ()))

    def void_cards(self, seat: str) -> CardSet:
        """Every card of the suits ``seat`` showed void in."""
        mask = self.voids.get(seat, 0)
        return sum(BB_SUITS[suit] for suit in range(4) if (mask >> suit) & 1)


def _follow_tricks(active: tuple[str, ...], declarer: str,
                   tricks: tuple[tuple[Card, ...], ...]) -> _Played:
    by_seat: dict[str, list[Card]] = {s: [] for s in active}
    voids = {s: 0 for s in active}
    broken = None
    leader = declarer
    for n, trick in enumerate(tricks, 1):
        for i, c in enumerate(trick):
            seat = active[(active.index(leader) + i) % 4]
            if broken is None and (voids[seat] >> card_suit(c)) & 1:
                broken = (n, seat, c)
            by_seat[seat].append(c)
            if i:
                led = card_suit(trick[0])
                if card_suit(c) != led:
                    voids[seat] |= 1 << led
                    if card_suit(c) != TRUMP:
                        voids[seat] |= 1 << TRUMP
        if len(trick) == 4:
            leader = active[(active.index(leader) + trick_winner(trick)) % 4]
    return _Played({s: tuple(v) for s, v in by_seat.items()}, voids, broken)


def _suits_text(mask: int) -> str:
    return " and ".join(SUIT_NAMES[s] for s in range(4) if (mask >> s) & 1)


def make_view(spec: HandSpec, command: str) -> View:
    """Check a hand-file spec for ``command`` (bid, discard, double, play) and return its view.

    Raises :class:`~dobbm_solver.handfile.HandFileError` (``FILE: key: what is
    wrong``) for anything inconsistent: counts, a card twice, an illegal
    lay-away, a revoke or a broken void, bids out of turn, a view that does
    not fit the command.
    """
    if command not in ("bid", "discard", "double", "play"):
        raise ValueError(f"unknown command {command!r}")
    seats = spec.seats
    if len(seats) == 5 and spec.dealer is None:
        raise _fail(spec, "dealer", "with five seats the dealer (who sits out) must be given")
    if len(seats) == 5:
        active = tuple(s for s in seats if s != spec.dealer)
    else:
        active = tuple(seats)
    me = spec.me
    if me is None:
        raise _fail(spec, "me", "missing: name the seat whose view this is (me: SEAT)")
    if me not in active:
        raise _fail(spec, "me", f"{me} is the dealer and sits this hand out")
    if me not in spec.hands:
        raise _fail(spec, f"hands.{me}", "missing: give your own cards")
    hands = dict(spec.hands)
    declarer, contract = spec.declarer, spec.contract
    dobb, discard, tricks, doublings = spec.dobb, spec.discard, tuple(spec.tricks), spec.doublings
    must = bool(spec.must)

    # -- what the command needs ----------------------------------------------
    if command == "bid":
        for key, value in (("declarer", declarer), ("contract", contract), ("discard", discard)):
            if value is not None:
                raise _fail(spec, key, "the bidding is not over, so there is none yet (bid advises "
                                       "the player about to bid)")
        if tricks:
            raise _fail(spec, "tricks", "no card is played before the bidding ends")
        if doublings:
            raise _fail(spec, "doublings", "nobody doubles before the bidding ends")
    elif command == "discard":
        if declarer is None:
            declarer = me
        if declarer != me:
            raise _fail(spec, "declarer", f"discard advises the declarer: {declarer} is not me ({me})")
        if contract is None:
            contract = "dobbm"
        if contract != "dobbm":
            raise _fail(spec, "contract", "a Solo lays nothing away; discard needs a Dobbm")
        if dobb is None:
            raise _fail(spec, "dobb", "missing: the declarer of a Dobbm sees the four Dobb cards")
        if discard is not None:
            raise _fail(spec, "discard", "the lay-away is what discard chooses: leave it out")
        if tricks:
            raise _fail(spec, "tricks", "no card is played before the lay-away")
        if doublings:
            raise _fail(spec, "doublings", "doubling comes after the lay-away")
    else:  # double, play
        if declarer is None:
            raise _fail(spec, "declarer", "missing")
        if contract is None:
            raise _fail(spec, "contract", "missing")
        if declarer not in active:
            raise _fail(spec, "declarer", f"{declarer} is the dealer and sits this hand out")
        if command == "double":
            if tricks:
                raise _fail(spec, "tricks", "Schwacher and Retour are said before the first card")
            if me == declarer and doublings % 2 == 0:
                raise _fail(spec, "doublings", f"as the declarer you answer a Schwacher: doublings "
                                               f"must be odd (1: a defender said Schwacher), not {doublings}")
            if me != declarer and doublings % 2 == 1:
                raise _fail(spec, "doublings", f"{doublings} doublings: it is the declarer's turn to "
                                               f"answer (Retour or play on), not a defender's")
        if contract == "dobbm" and me == declarer and discard is None:
            raise _fail(spec, "discard", "missing: as the declarer you know what you laid away")
    if contract == "solo" and discard is not None:
        raise _fail(spec, "discard", "a Solo has no lay-away")
    if dobb is not None and popcount(dobb) != DOBB_SIZE:
        raise _fail(spec, "dobb", f"must hold {DOBB_SIZE} cards, not {popcount(dobb)}")
    if discard is not None:
        if popcount(discard) != DOBB_SIZE:
            raise _fail(spec, "discard", f"must hold {DOBB_SIZE} cards, not {popcount(discard)}")
        why = lay_away_error(discard)
        if why:
            raise _fail(spec, "discard", why)
    for s in hands:
        if s not in active:
            raise _fail(spec, f"hands.{s}", f"{s!r} is not a seat that plays")

    # -- tricks ---------------------------------------------------------------
    if len(tricks) > HAND_SIZE:
        raise _fail(spec, "tricks", f"at most {HAND_SIZE} tricks, not {len(tricks)}")
    for n, t in enumerate(tricks, 1):
        if not 1 <= len(t) <= 4 or (len(t) < 4 and n < len(tricks)):
            raise _fail(spec, "tricks", f"trick {n} has {len(t)} cards; only the last may be unfinished")
    played = _follow_tricks(active, declarer, tricks) if declarer else _Played({}, {})
    played_set = 0
    for n, t in enumerate(tricks, 1):
        for c in t:
            if (played_set >> c) & 1:
                raise _fail(spec, "tricks", f"trick {n}: {card_name(c)} is played twice")
            played_set |= 1 << c

    # -- every card at most once ---------------------------------------------
    def clash(cs: CardSet, other: CardSet) -> str | None:
        both = cs & other
        return " ".join(set_names(both)) if both else None

    seen: list[tuple[str, CardSet]] = []
    for s, cs in hands.items():
        seen.append((f"hands.{s}", cs))
    seen.append(("tricks", played_set))
    if discard is not None:
        seen.append(("discard", discard))
    for i, (ka, a) in enumerate(seen):
        for kb, b in seen[:i]:
            dup = clash(a, b)
            if dup:
                raise _fail(spec, ka, f"{dup} {'is' if ' ' not in dup else 'are'} also in {kb}")
    exchanged = contract == "dobbm" and command not in ("bid", "discard")
    if dobb is not None:
        if exchanged:
            # the Dobb went to the declarer: its cards are held, played or laid away by them
            if declarer == me:
                stray = dobb & ~(hands[me] | (discard or 0) | played.cards(me))
                if stray:
                    raise _fail(spec, "dobb", f"{' '.join(set_names(stray))} from the Dobb is not in your "
                                              f"hand, lay-away or tricks: the Dobb went to you")
            for s in active:
                if s == declarer:
                    continue
                dup = clash(dobb, hands.get(s, 0) | played.cards(s))
                if dup:
                    raise _fail(spec, "dobb", f"{dup} from the Dobb cannot be with {s}: "
                                              f"the Dobb went to the declarer {declarer}")
        else:
            for k, cs in seen:
                dup = clash(dobb, cs)
                if dup:
                    raise _fail(spec, "dobb", f"{dup} {'is' if ' ' not in dup else 'are'} also in {k}")

    # -- hand sizes, revokes and voids ----------------------------------------
    for s in active:
        n_played = len(played.by_seat.get(s, ()))
        want = HAND_SIZE - n_played
        have = popcount(hands.get(s, 0))
        if s == me and have != want:
            raise _fail(spec, f"hands.{s}", f"holds {have} cards, should hold {want}"
                        + (" (the 8 dealt cards; the Dobb is given as dobb)" if command == "discard" else ""))
        if have > want:
            raise _fail(spec, f"hands.{s}", f"holds {have} cards, at most {want} are left")
    if exchanged and declarer != me:
        twelve_known = hands.get(declarer, 0) | (discard or 0) | (dobb or 0) | played.cards(declarer)
        if popcount(twelve_known) > HAND_SIZE + DOBB_SIZE:
            raise _fail(spec, f"hands.{declarer}", "more cards than the declarer's 12 (hand, Dobb, lay-away)")
    # me: full knowledge, so each card played must have been legal
    if declarer:
        mine = [r for r in find_revokes(Deal(active, declarer, contract, hands, 0, tricks=tricks))
                if r.seat == me]
        if mine:
            r = mine[0]
            raise _fail(spec, "tricks", f"trick {r.trick}: {me} plays {card_name(r.card)}, a revoke "
                                        f"(must play one of {' '.join(set_names(r.legal))})")
        # others: a void once shown stays (no later card of that suit, none held now)
        if played.broken is not None:
            n, seat, c = played.broken
            raise _fail(spec, "tricks", f"trick {n}: {seat} plays {card_name(c)}, but showed "
                                        f"no {SUIT_NAMES[card_suit(c)]} before (a revoke)")
        for s in active:
            bad = hands.get(s, 0) & played.void_cards(s)
            if bad:
                raise _fail(spec, f"hands.{s}", f"holds {' '.join(set_names(bad))}, but {s} showed no "
                                                f"{_suits_text(played.voids[s])} in the tricks")

    # -- the auction ----------------------------------------------------------
    order, auction = _auction(spec, command, active, me, declarer, contract, must)

    view = View(
        command=command, seats=seats, active=active, me=me, hands=hands, declarer=declarer,
        contract=contract, dobb=dobb, discard=discard, tricks=tricks, doublings=doublings,
        dealer=spec.dealer, bids=tuple(spec.bids), must=must, order=order, auction=auction,
        path=spec.path, doc=spec.doc,
    )
    if _sampler(view).dealer.total == 0:
        raise _fail(spec, "tricks" if tricks else "hands",
                    "no deal of the unseen cards fits what is known (hand sizes, voids shown)")
    return view


def _auction(spec: HandSpec, command: str, active: tuple[str, ...], me: str, declarer: str | None,
             contract: str | None, must: bool) -> tuple[tuple[str, ...] | None, tuple[tuple[str, str], ...]]:
    """Check the bids; return the bidding order (if known) and the constraints on other seats."""
    bids = list(spec.bids)
    seats = spec.seats
    for n, (who, _) in enumerate(bids, 1):
        if who not in active:
            raise _fail(spec, "bids", f"bid {n}: {who} is the dealer and sits this hand out")
    if spec.dealer is not None:
        i = seats.index(spec.dealer)
        forehand = seats[(i + 1) % len(seats)]
    elif bids:
        forehand = bids[0][0]
    else:
        forehand = None
    order = None
    if forehand is not None:
        j = active.index(forehand)
        order = tuple(active[(j + k) % 4] for k in range(4))
    if must:
        if command == "bid" and bids:
            raise _fail(spec, "bids", "in the must round you are the one who must declare: "
                                      "nobody bids before you")
        if command != "bid" and any(who != declarer for who, _ in bids):
            raise _fail(spec, "bids", f"in the must round only the declarer ({declarer}) declares")
    dobbm_said = False
    ended = False
    kinds: dict[str, str] = {}
    for n, (who, bid) in enumerate(bids, 1):
        if order is not None and not must and who != order[n - 1]:
            raise _fail(spec, "bids", f"bid {n}: {who} speaks out of turn ({order[n - 1]} speaks "
                                      f"{'first' if n == 1 else 'next'}; forehand is {order[0]})")
        if ended:
            raise _fail(spec, "bids", f"bid {n}: the bidding ended with the Solo before")
        if who in kinds:
            raise _fail(spec, "bids", f"bid {n}: {who} already spoke")
        if bid == "pass" and must:
            raise _fail(spec, "bids", f"bid {n}: no passing in the must round")
        if bid == "dobbm" and dobbm_said:
            raise _fail(spec, "bids", f"bid {n}: after a Dobbm only Solo or pass may follow")
        if bid == "pass":
            kinds[who] = _NOT_SOLO if dobbm_said else _PASS
        elif bid == "dobbm":
            kinds[who] = _NOT_SOLO if must else _DOBBM
            dobbm_said = True
        else:
            kinds[who] = _SOLO
            ended = True
    if command == "bid":
        if me in kinds:
            raise _fail(spec, "bids", f"{me} (me) already bid: bid advises the player about to bid")
        if ended:
            raise _fail(spec, "bids", "the bidding ended with a Solo: there is nothing left to bid")
        if order is not None and not must:
            nxt = order[len(bids)]
            if nxt != me:
                raise _fail(spec, "bids", f"it is {nxt}'s turn to bid, not {me}'s (me)")
    else:
        assert declarer is not None and contract is not None
        if declarer in kinds:
            said = [b for w, b in bids if w == declarer][0]
            if said != contract:
                raise _fail(spec, "bids", f"{declarer} bid {said}, but the contract is {contract}")
        for w, b in bids:
            if w != declarer and b == "solo":
                raise _fail(spec, "bids", f"{w} bid Solo, so {w} would be the declarer, not {declarer}")
            if w != declarer and b == "dobbm" and contract == "dobbm":
                raise _fail(spec, "bids", f"{w} bid Dobbm, so {w} would be the declarer, not {declarer}")
        if contract == "solo" and declarer in kinds:
            k = [i for i, (w, _) in enumerate(bids) if w == declarer][0]
            if k != len(bids) - 1:
                raise _fail(spec, "bids", "nobody speaks after a Solo")
        # the implied rest of the auction
        if must:
            kinds[declarer] = _SOLO if contract == "solo" else _NOT_SOLO
        elif order is not None:
            d = order.index(declarer)
            for k, s in enumerate(order):
                if s in kinds:
                    continue
                if k < d:
                    kinds[s] = _PASS if contract == "dobbm" else _NOT_SOLO
                elif k == d:
                    kinds[s] = _SOLO if contract == "solo" else _DOBBM
                elif contract == "dobbm":
                    kinds[s] = _NOT_SOLO
        else:
            kinds.setdefault(declarer, _SOLO if contract == "solo" else _DOBBM)
            if contract == "dobbm":
                for s in active:
                    kinds.setdefault(s, _NOT_SOLO)
    auction = tuple((s, k) for s, k in kinds.items() if s != me)
    return order, auction


def load_views(path: str | Path, command: str) -> list[View]:
    """The views of every document of a hand file, checked for ``command``."""
    return [make_view(spec, command) for spec in load_specs(path)]


# --------------------------------------------------------------------------
# the sampler


class _Dealer:
    """Uniform deals of card groups into places with capacities.

    ``groups``: lists of cards, each with the places allowed to take them (a
    suit shown void by a seat is not allowed in that seat's place).  The
    number of cards of each group per place is drawn in proportion to the
    number of deals with those counts (a multinomial count over the
    remaining capacities, memoised), then each group is shuffled into its
    places: every deal consistent with the constraints is equally likely.
    """

    def __init__(self, groups: list[tuple[list[Card], tuple[int, ...]]], caps: tuple[int, ...]) -> None:
        self.groups = groups
        self.caps = caps
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self._choices: dict[tuple[int, tuple[int, ...]], tuple[list[tuple[int, ...]], list[int]]] = {}
        fits = min(caps, default=0) >= 0 and sum(caps) == sum(len(g) for g, _ in groups)
        self.total = self._count(0, caps) if fits else 0

    def _compositions(self, n: int, allowed: tuple[int, ...], caps: tuple[int, ...]) -> list[tuple[int, ...]]:
        out: list[tuple[int, ...]] = []
        places = list(allowed)
        k = [0] * len(caps)

        def rec(i: int, left: int) -> None:
            if i == len(places) - 1:
                p = places[i]
                if left <= caps[p]:
                    k[p] = left
                    out.append(tuple(k))
                    k[p] = 0
                return
            p = places[i]
            for x in range(min(left, caps[p]) + 1):
                k[p] = x
                rec(i + 1, left - x)
            k[p] = 0

        if not places:
            return [tuple(k)] if n == 0 else []
        rec(0, n)
        return out

    def _options(self, g: int, caps: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[int]]:
        key = (g, caps)
        got = self._choices.get(key)
        if got is None:
            cards, allowed = self.groups[g]
            n = len(cards)
            comps, weights = [], []
            for k in self._compositions(n, allowed, caps):
                rest = tuple(c - x for c, x in zip(caps, k))
                w = self._count(g + 1, rest)
                if w:
                    ways = math.factorial(n)
                    for x in k:
                        ways //= math.factorial(x)
                    comps.append(k)
                    weights.append(ways * w)
            got = (comps, weights)
            self._choices[key] = got
        return got

    def _count(self, g: int, caps: tuple[int, ...]) -> int:
        if g == len(self.groups):
            return 1 if not any(caps) else 0
        key = (g, caps)
        v = self._memo.get(key)
        if v is None:
            v = sum(self._options(g, caps)[1])
            self._memo[key] = v
        return v

    def draw(self, rng: random.Random) -> list[CardSet]:
        out = [0] * len(self.caps)
        caps = self.caps
        for g, (cards, _) in enumerate(self.groups):
            comps, weights = self._options(g, caps)
            if len(comps) == 1:
                k = comps[0]
            else:
                r = rng.randrange(sum(weights))
                for k, w in zip(comps, weights):
                    if r < w:
                        break
                    r -= w
            shuffled = cards[:]
            rng.shuffle(shuffled)
            pos = 0
            for p, x in enumerate(k):
                for c in shuffled[pos:pos + x]:
                    out[p] |= 1 << c
                pos += x
            caps = tuple(c - x for c, x in zip(caps, k))
        return out


MAX_TRIES = 100000   # attempts per sample before the auction is declared too unlikely


class _Sampler:
    """Draws complete deals consistent with a view (see the module doc)."""

    def __init__(self, view: View) -> None:
        self.view = view
        v = view
        self.played = (_follow_tricks(v.active, v.declarer, v.tricks) if v.declarer
                       else _Played({s: () for s in v.active}, {s: 0 for s in v.active}))
        self.played_bits = {s: self.played.cards(s) for s in v.active}
        known = 0
        for cs in v.hands.values():
            known |= cs
        for t in v.tricks:
            for c in t:
                known |= 1 << c
        known |= (v.dobb or 0) | (v.discard or 0)
        self.unseen = BB_ALL & ~known
        # cards known to be in each hand now: those seen, and in a Dobbm whose Dobb and
        # lay-away are both known, the Dobb cards the declarer kept and has not played
        self.known_hand = {s: v.hands.get(s, 0) for s in v.active}
        if v.exchanged and v.declarer != v.me and v.dobb is not None and v.discard is not None:
            d = v.declarer
            self.known_hand[d] |= v.dobb & ~v.discard & ~self.played_bits[d]
        # places
        self.places: list[tuple[str, str | None]] = []   # (kind, seat)
        caps: list[int] = []
        forbid: list[int] = []                        # suits not allowed, as a 4-bit mask
        self.twelve_policy = False
        for s in v.active:
            if s == v.me:
                continue
            have = popcount(self.known_hand[s])
            size = HAND_SIZE - len(self.played.by_seat.get(s, ()))
            if v.exchanged and s == v.declarer and v.discard is None:
                twelve_known = v.hands.get(s, 0) | (v.dobb or 0) | self.played_bits[s]
                self.places.append(("twelve", s))
                caps.append(HAND_SIZE + DOBB_SIZE - popcount(twelve_known))
                forbid.append(0)
                self.twelve_policy = True
            else:
                self.places.append(("hand", s))
                caps.append(size - have)
                forbid.append(self.played.voids.get(s, 0))
        if v.dobb is None and not v.exchanged:
            self.places.append(("dobb", None))
            caps.append(DOBB_SIZE)
            forbid.append(0)
        # group the unseen cards by the set of places allowed to take them
        by_allowed: dict[tuple[int, ...], list[Card]] = {}
        for c in scan_forward(self.unseen):
            allowed = tuple(i for i in range(len(caps)) if not (forbid[i] >> card_suit(c)) & 1)
            by_allowed.setdefault(allowed, []).append(c)
        groups = [(cards, allowed) for allowed, cards in sorted(by_allowed.items())]
        self.dealer = _Dealer(groups, tuple(caps))
        self.auction = v.auction

    def draw(self, rng: random.Random) -> tuple[dict[str, CardSet], CardSet, dict[str, CardSet], CardSet]:
        """The uniform part: hands (seen and dealt), the Dobb, each seat's 8 dealt cards, and an
        unseen Dobbm declarer's 12 cards (0 if none).  The lay-away is not chosen yet."""
        v = self.view
        parts = self.dealer.draw(rng)
        hands = dict(self.known_hand)
        dobb = v.dobb
        twelve = 0
        for (kind, s), cs in zip(self.places, parts):
            if kind == "hand":
                hands[s] |= cs
            elif kind == "dobb":
                dobb = cs
            else:
                twelve = cs | v.hands.get(s, 0) | (v.dobb or 0) | self.played_bits[s]
        dealt = {s: hands[s] | self.played_bits[s] for s in v.active}
        if v.exchanged:
            d = v.declarer
            if d == v.me:
                if dobb is None:
                    dobb = v.discard     # a stand-in: only the declarer's own 12 cards hold it
                dealt[d] = (hands[d] | v.discard | self.played_bits[d]) & ~dobb
            else:
                if not self.twelve_policy:
                    twelve = hands[d] | v.discard | self.played_bits[d]
                if dobb is None:
                    dobb = sum(1 << c for c in rng.sample(list(scan_forward(twelve)), DOBB_SIZE))
                dealt[d] = twelve & ~dobb
        return hands, dobb, dealt, twelve

    def resolve(self, hands: dict[str, CardSet], dobb: CardSet, twelve: CardSet) -> Deal | None:
        """The deal, with an unseen Dobbm declarer's lay-away chosen by the policy; None if
        that lay-away contradicts what was seen (cards shown, voids)."""
        v = self.view
        discard = v.discard
        if v.exchanged and self.twelve_policy:
            d = v.declarer
            shown = v.hands.get(d, 0) | self.played_bits[d]
            discard = policy_discard(twelve, shown, twelve & self.played.void_cards(d) & ~shown)
            if discard is None:
                return None
            hands = {**hands, d: twelve & ~discard & ~self.played_bits[d]}
        return Deal(seats=v.seats, declarer=v.declarer or v.me, contract=v.contract or "dobbm",
                    hands=hands, dobb=dobb, discard=discard if v.exchanged else None,
                    tricks=v.tricks, doublings=v.doublings, dealer=v.dealer)

    def accepts(self, dealt: Mapping[str, CardSet], u: float) -> bool:
        """``u <`` the bidding model's probability of the bids said, given each speaker's
        8 cards; the product stops as soon as it falls to ``u``."""
        p = 1.0
        for seat, kind in self.auction:
            p *= _kind_likelihood(kind, _strength(dealt[seat]))
            if p <= u:
                return False
        return True

    def sample(self, seed: int, index: int, stream: str = "deal") -> tuple[Deal | None, dict[str, CardSet], CardSet]:
        """Sample ``index`` of ``seed``: ``(deal, dealt, dobb)``, accepted by the auction.

        ``dealt``: each seat's 8 dealt cards (the Dobbm declarer's before the
        exchange).  ``stream`` ``"cv"``: the independent stream of cheap draws
        whose features calibrate the control variates; there the lay-away is
        not chosen and the deal is None (unless tricks make it matter).
        """
        rng = random.Random(f"dobbm-analyzer:{stream}:{seed}:{index}")
        resolve = stream != "cv" or bool(self.view.tricks)
        for _ in range(MAX_TRIES):
            hands, dobb, dealt, twelve = self.draw(rng)
            if self.auction and not self.accepts(dealt, rng.random()):
                continue
            if not resolve:
                return None, dealt, dobb
            deal = self.resolve(hands, dobb, twelve)
            if deal is not None:
                return deal, dealt, dobb
        v = self.view
        raise AnalyzerError(v.path, "bids" if self.auction else "hands",
                            f"no deal consistent with what is known was found in {MAX_TRIES} tries: "
                            f"the auction is too unlikely under the bidding model given your cards",
                            v.doc)


_SAMPLER_CACHE: dict[tuple, _Sampler] = {}


def _view_key(v: View) -> tuple:
    return (v.command, v.seats, v.me, tuple(sorted(v.hands.items())), v.declarer, v.contract,
            v.dobb, v.discard, v.tricks, v.doublings, v.dealer, v.bids, v.must, v.auction)


def _sampler(view: View) -> _Sampler:
    key = _view_key(view)
    got = _SAMPLER_CACHE.get(key)
    if got is None:
        if len(_SAMPLER_CACHE) > 32:
            _SAMPLER_CACHE.clear()
        got = _SAMPLER_CACHE[key] = _Sampler(view)
    return got


def sample_deals(view: View, samples: int, seed: int = 0, start: int = 0) -> list[Deal]:
    """Samples ``start .. start+samples-1`` of a view: complete deals consistent with it.

    For ``bid`` and ``discard`` views the deal is the one before the exchange:
    ``me`` is its declarer of a Dobbm with the lay-away not yet chosen.
    """
    s = _sampler(view)
    return [s.sample(seed, i)[0] for i in range(start, start + samples)]


# --------------------------------------------------------------------------
# results


@dataclass(frozen=True)
class OptionEstimate:
    """One option's Monte Carlo estimate, for the person asking.

    ``ev_units``: expected units received (negative: paid), ``stderr_units``
    its standard error.  ``expected_points``: the declarer's expected final
    points when the option is played, ``stderr`` its standard error (points).
    ``win_probability``: the declarer's chance of 61 or more.  The last three
    are None where the option plays no game (Pass).  ``samples``: the deals
    the option was solved on.
    """

    option: Any
    ev_units: float
    win_probability: float | None
    expected_points: float | None
    stderr: float | None
    samples: int
    stderr_units: float | None = None

    def to_json(self) -> dict[str, Any]:
        """``option`` (a list of four card names for a lay-away), ``ev_units``,
        ``win_probability``, ``expected_points``, ``stderr``, ``stderr_units``, ``samples``."""
        return {
            "option": _jsonable(self.option),
            "ev_units": _round(self.ev_units, 4),
            "win_probability": _round(self.win_probability, 4),
            "expected_points": _round(self.expected_points, 3),
            "stderr": _round(self.stderr, 3),
            "stderr_units": _round(self.stderr_units, 4),
            "samples": self.samples,
        }


def _jsonable(x: Any) -> Any:
    return list(x) if isinstance(x, tuple) else x


def _round(x: float | None, nd: int) -> float | None:
    return None if x is None else round(float(x), nd)


@dataclass(frozen=True)
class Advice:
    """The answer of one analysis: the options best first, and the recommendation.

    ``recommendation`` is ``options[0].option``.  ``margin`` is its lead in
    expected units over the runner-up and ``margin_stderr`` the standard error
    of that lead, computed on the samples both share.  ``samples`` is the
    most samples any option was solved on, ``seed`` the seed used (reproduce
    the run with it), ``jobs`` the worker processes, ``seconds`` the wall
    time.  ``info`` holds command-specific facts (see each ``analyze_*``),
    ``notes`` plain-text remarks on the method and its approximations.
    """

    command: str
    me: str
    role: str
    recommendation: Any
    options: tuple[OptionEstimate, ...]
    samples: int
    seed: int
    jobs: int
    seconds: float
    margin: float | None = None
    margin_stderr: float | None = None
    info: Mapping[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """One JSON-ready object: ``recommendation``, ``options`` (each
        :meth:`OptionEstimate.to_json`), and the rest."""
        return {
            "command": self.command,
            "me": self.me,
            "role": self.role,
            "recommendation": _jsonable(self.recommendation),
            "options": [o.to_json() for o in self.options],
            "samples": self.samples,
            "seed": self.seed,
            "jobs": self.jobs,
            "seconds": round(self.seconds, 3),
            "margin": _round(self.margin, 4),
            "margin_stderr": _round(self.margin_stderr, 4),
            "info": {k: _jsonable(v) for k, v in self.info.items()},
            "notes": list(self.notes),
        }


# --------------------------------------------------------------------------
# statistics: plain means and control variates

#: Cheap draws (no solving) that calibrate the control variates.
CV_DRAWS = 1024
#: Control variates are used from this many solved samples on (else plain means).
CV_MIN_SAMPLES = 24


def _features(view: View, dealt: Mapping[str, CardSet], dobb: CardSet) -> tuple[float, ...]:
    """Cheap facts of a sampled deal that go with the declarer's points.

    Over the defenders' dealt cards: the sum of squared trump counts (trump
    concentration), the strongest and the summed ``hand_strength``, and the
    sum over the plain suits of the shortest holding (ruffing chances).  For
    the declarer: the strength of the 8 dealt cards and of them with the
    Dobb, and the Dobb's points and trumps.  Features that do not vary in a
    view (e.g. the declarer's cards when that is ``me``) drop out.
    """
    decl = view.declarer or view.me
    d8 = dealt[decl]
    others = [dealt[s] for s in view.active if s != decl]
    strengths = [_strength(h) for h in others]
    sq = 0
    for h in others:
        t = popcount(h & BB_TRUMPS)
        sq += t * t
    short = 0
    for s in _PLAIN:
        short += min(popcount(h & BB_SUITS[s]) for h in others)
    return (float(sq), max(strengths), sum(strengths), float(short),
            _strength(d8), _strength(d8 | dobb), float(set_points(dobb)),
            float(popcount(dobb & BB_TRUMPS)))


def _solve_linear(a: list[list[float]]) -> list[list[float]] | None:
    """Inverse of a small symmetric matrix by Gauss-Jordan; None if singular."""
    n = len(a)
    m = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[piv][col]) < 1e-10:
            return None
        m[col], m[piv] = m[piv], m[col]
        p = m[col][col]
        m[col] = [x / p for x in m[col]]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [row[n:] for row in m]


class _Plain:
    """Plain sample means (too few samples for control variates)."""

    def mean(self, y: Sequence[float]) -> tuple[float, float | None]:
        n = len(y)
        m = sum(y) / n
        if n < 2:
            return m, None
        return m, math.sqrt(sum((x - m) ** 2 for x in y) / (n - 1) / n)


class _Fit(_Plain):
    """The regression (control-variate) estimator of a mean, for one set of samples.

    With features ``x`` of known mean ``mu`` (from many cheap draws), the
    mean of ``y`` is estimated by the intercept of ``y ~ 1 + (x - mu)``; its
    variance is the residual variance times ``(X'X)^-1[0,0]``, plus the
    uncertainty of ``mu`` itself.
    """

    def __init__(self, rows: Sequence[Sequence[float]], cv: "_ControlVariates") -> None:
        self.X = [[1.0] + [(r[j] - cv.mu[j]) / cv.sd[j] for j in cv.keep] for r in rows]
        k = len(self.X[0])
        xtx = [[sum(x[a] * x[b] for x in self.X) for b in range(k)] for a in range(k)]
        self.inv = _solve_linear(xtx)
        self.cv = cv

    def mean(self, y: Sequence[float]) -> tuple[float, float | None]:
        if self.inv is None:
            return super().mean(y)
        X, inv = self.X, self.inv
        n, k = len(X), len(X[0])
        xty = [sum(x[a] * yi for x, yi in zip(X, y)) for a in range(k)]
        b = [sum(inv[a][c] * xty[c] for c in range(k)) for a in range(k)]
        rss = sum((yi - sum(bj * xj for bj, xj in zip(b, x))) ** 2 for x, yi in zip(X, y))
        s2 = rss / (n - k)
        beta = b[1:]
        corr = self.cv.corr
        mu_var = sum(beta[a] * corr[a][c] * beta[c] for a in range(k - 1) for c in range(k - 1)) / self.cv.m
        return b[0], math.sqrt(max(0.0, s2 * inv[0][0] + mu_var))


class _ControlVariates:
    """Feature means, spreads and correlations from cheap draws of the same sampler."""

    def __init__(self, draws: Sequence[Sequence[float]]) -> None:
        m = len(draws)
        p = len(draws[0]) if draws else 0
        self.m = m
        self.mu = [sum(d[j] for d in draws) / m for j in range(p)] if m else []
        var = [sum((d[j] - self.mu[j]) ** 2 for d in draws) / max(1, m - 1) for j in range(p)]
        self.keep = [j for j in range(p) if var[j] > 1e-9]
        self.sd = [math.sqrt(v) if v > 0 else 1.0 for v in var]
        self.corr = [[sum((d[a] - self.mu[a]) * (d[c] - self.mu[c]) for d in draws)
                      / max(1, m - 1) / (self.sd[a] * self.sd[c]) for c in self.keep] for a in self.keep]
        self._fits: dict[tuple[int, ...], _Plain] = {}

    def fit(self, indices: Sequence[int], features: Mapping[int, Sequence[float]]) -> _Plain:
        key = tuple(indices)
        got = self._fits.get(key)
        if got is None:
            n = len(indices)
            if not self.keep or n < max(CV_MIN_SAMPLES, 4 * (len(self.keep) + 1)):
                got = _Plain()
            else:
                got = _Fit([features[i] for i in indices], self)
            self._fits[key] = got
        return got


def _estimate(option: Any, fit: _Plain, pays: Sequence[float], points: Sequence[int] | None,
              weights: Sequence[float] | None = None) -> OptionEstimate:
    """An option's estimate from per-sample payments (units) and the declarer's points.

    With ``weights`` (the chance the option is really played in each sample:
    a Dobbm can be overcalled) ``pays`` include them already, and points and
    wins are averaged with them (ratio estimates, delta-method errors).
    """
    n = len(pays)
    ev, se_u = fit.mean(pays)
    if points is None:
        return OptionEstimate(option, ev, None, None, None, n, se_u)
    wins = [1.0 if p >= WIN_THRESHOLD else 0.0 for p in points]
    if weights is None:
        ep, se_p = fit.mean([float(p) for p in points])
        win, _ = fit.mean(wins)
    else:
        wbar, _ = fit.mean(weights)
        if wbar <= 1e-12:
            return OptionEstimate(option, ev, None, None, None, n, se_u)
        wp, _ = fit.mean([w * p for w, p in zip(weights, points)])
        ep = wp / wbar
        _, se_p = fit.mean([w * (p - ep) / wbar for w, p in zip(weights, points)])
        ww, _ = fit.mean([w * x for w, x in zip(weights, wins)])
        win = ww / wbar
    return OptionEstimate(option, ev, min(1.0, max(0.0, win)), min(120.0, max(0.0, ep)), se_p, n, se_u)


# --------------------------------------------------------------------------
# running samples on a process pool

DEFAULT_TT_MB = 32
#: At most this many work items go to a worker at once.
CHUNK_ITEMS = 8
#: Chunks submitted per worker at a time (the next as one finishes).
IN_FLIGHT = 4
Progress = Callable[[int, int], None]

_WORKER: dict[str, Any] = {}


def _worker_init(tt_mb: int) -> None:
    from .solver import Solver
    # Ctrl-C is the parent's to handle: it cancels the work and shuts the pool down
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER["solver"] = Solver(tt_mb)


def _worker_solver():
    s = _WORKER.get("solver")
    if s is None:
        _worker_init(DEFAULT_TT_MB)
        s = _WORKER["solver"]
    return s


def _points(solver, deal: Deal) -> int:
    return solver.solve(deal).declarer_points


def _work_bid(view: View, solver, deal: Deal, dealt: Mapping[str, CardSet], payload: Sequence[str]) -> dict:
    out = {}
    for opt in payload:
        if opt == "dobbm":
            me = view.me
            p = _points(solver, deal.with_discard(policy_discard(deal.hands[me] | deal.dobb)))
            w = 1.0
            if not view.must:
                for s in view.later_bidders():
                    w *= 1.0 - _p_solo(_strength(dealt[s]))
            out[opt] = (w, p)
        else:
            out[opt] = (1.0, _points(solver, replace(deal, contract="solo")))
    return out


def _work_discard(view: View, solver, deal: Deal, dealt: Mapping[str, CardSet],
                  payload: Sequence[CardSet]) -> dict:
    return {d: _points(solver, deal.with_discard(d)) for d in payload}


def _work_double(view: View, solver, deal: Deal, dealt: Mapping[str, CardSet], payload: Any) -> dict:
    return {"points": _points(solver, deal)}


_WORK = {"bid": _work_bid, "discard": _work_discard, "double": _work_double}


def _task_solve(view: View, seed: int, items: Sequence[tuple[int, Any]]) -> list[tuple[int, dict, tuple]]:
    solver = _worker_solver()
    sampler = _sampler(view)
    work = _WORK[view.command]
    out = []
    for index, payload in items:
        deal, dealt, dobb = sampler.sample(seed, index)
        out.append((index, work(view, solver, deal, dealt, payload), _features(view, dealt, dobb)))
    return out


def _task_features(view: View, seed: int, start: int, count: int) -> list[tuple[float, ...]]:
    sampler = _sampler(view)
    out = []
    for i in range(start, start + count):
        _, dealt, dobb = sampler.sample(seed, i, "cv")
        out.append(_features(view, dealt, dobb))
    return out


class _Engine:
    """Runs work items ``(sample index, payload)``: in-process (jobs=1) or on a process pool.

    Each worker process holds one Solver (pool initializer).  Results are
    keyed by sample index and merged, so they never depend on ``jobs``.
    ``progress(done, total)`` counts solves.
    """

    def __init__(self, view: View, seed: int, jobs: int | None, progress: Progress | None,
                 tt_mb: int = DEFAULT_TT_MB) -> None:
        self.view = view
        self.seed = seed
        self.jobs = _resolve_jobs(jobs)
        self.tt_mb = tt_mb
        self.progress = progress
        self.pool: ProcessPoolExecutor | None = None
        self.done = 0
        self.total = 0
        self.results: dict[int, dict] = {}
        self.features: dict[int, tuple[float, ...]] = {}
        self._cv_futures: list[Future] = []
        self._cv: _ControlVariates | None = None
        #: set by Ctrl-C during :meth:`run`: the work stops, what was solved stays
        self.interrupted = False

    def __enter__(self) -> "_Engine":
        if self.jobs > 1:
            try:
                ctx = multiprocessing.get_context("fork")
            except ValueError:  # pragma: no cover - platforms without fork
                ctx = multiprocessing.get_context()
            self.pool = ProcessPoolExecutor(self.jobs, mp_context=ctx, initializer=_worker_init,
                                            initargs=(self.tt_mb,))
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)

    # -- control variates: cheap draws, submitted first so they overlap the solving
    def start_cv(self, count: int = CV_DRAWS, needed: bool = True) -> None:
        """Start the cheap draws (``needed`` False: the run is too short to use them)."""
        self._cv_count = count
        if self.pool is not None and needed:
            step = max(1, -(-count // (self.jobs * 2)))
            self._cv_futures = [self.pool.submit(_task_features, self.view, self.seed, a, min(step, count - a))
                                for a in range(0, count, step)]

    def cv(self) -> _ControlVariates:
        if self._cv is None:
            if self.pool is not None:
                draws = [f for fut in self._cv_futures for f in fut.result()]
            else:
                draws = _task_features(self.view, self.seed, 0, self._cv_count)
            self._cv = _ControlVariates(draws)
        return self._cv

    def fit(self, indices: Sequence[int]) -> _Plain:
        if len(indices) < CV_MIN_SAMPLES:
            return _Plain()
        return self.cv().fit(indices, self.features)

    # -- solving
    def plan(self, more: int) -> None:
        """Announce ``more`` solves to come (for the progress total)."""
        self.total = self.done + more

    def run(self, items: Sequence[tuple[int, Any]], cost: Callable[[Any], int]) -> None:
        """Solve the items; results merge into ``self.results[index]``."""
        def take(rows: Iterable[tuple[int, dict, tuple]], spent: int) -> None:
            for index, res, feats in rows:
                self.results.setdefault(index, {}).update(res)
                self.features[index] = feats
            self.done += spent
            if self.total < self.done:
                self.total = self.done
            if self.progress:
                self.progress(self.done, self.total)

        if not items or self.interrupted:
            return
        if self.pool is None:
            try:
                for item in items:
                    take(_task_solve(self.view, self.seed, [item]), cost(item[1]))
            except KeyboardInterrupt:
                self.interrupted = True
            return
        # small chunks: steady progress, and Ctrl-C waits for little running work;
        # a few per worker in flight, the next submitted as one finishes
        n_chunks = max(1, min(len(items), max(self.jobs * 6, -(-len(items) // CHUNK_ITEMS))))
        size = -(-len(items) // n_chunks)
        todo = iter([list(items[i:i + size]) for i in range(0, len(items), size)])
        running: dict[Future, list] = {}

        def submit() -> None:
            chunk = next(todo, None)
            if chunk is not None:
                running[self.pool.submit(_task_solve, self.view, self.seed, chunk)] = chunk

        try:
            with CtrlC() as ctrl_c:
                for _ in range(self.jobs * IN_FLIGHT):
                    submit()
                while running and not ctrl_c.caught:
                    finished, _ = wait(running, timeout=0.2, return_when=FIRST_COMPLETED)
                    for f in finished:
                        take(f.result(), sum(cost(p) for _, p in running.pop(f)))
                        submit()
            if ctrl_c.caught:
                # Ctrl-C: keep what is solved; the caller reports it as partial
                self.interrupted = True
        except KeyboardInterrupt:   # Ctrl-C just before the flag was set up
            self.interrupted = True
        finally:
            for f in running:
                f.cancel()

    def has(self, index: int, key: Any) -> bool:
        """Whether sample ``index`` has a result under ``key``."""
        return key in self.results.get(index, ())


def _resolve_jobs(jobs: int | None) -> int:
    if jobs is None or jobs == 0:
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # pragma: no cover
            return max(1, os.cpu_count() or 1)
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 0:
        raise ValueError(f"jobs must be a whole number 1 or more (0 or None: all cores), not {jobs!r}")
    return jobs


def _resolve_seed(seed: int | None) -> int:
    if seed is None:
        return secrets.randbits(32)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be a whole number, not {seed!r}")
    return seed


def _resolve_samples(samples: int | None, minimum: int = 2) -> int | None:
    if samples is None:
        return None
    if not isinstance(samples, int) or isinstance(samples, bool) or samples < minimum:
        raise ValueError(f"samples must be a whole number, at least {minimum}, not {samples!r}")
    return samples


def _check_view(view: View, command: str) -> None:
    if not isinstance(view, View) or view.command != command:
        got = view.command if isinstance(view, View) else type(view).__name__
        raise ValueError(f"{command} needs a view made for it (make_view(spec, {command!r})), not {got!r}")


def _check_target(target: float) -> float:
    if not isinstance(target, (int, float)) or isinstance(target, bool) or not target > 0:
        raise ValueError(f"target_stderr must be a positive number of points, not {target!r}")
    return float(target)


#: Stop adding samples once the recommended option's expected points have
#: this standard error (points) -- when ``samples`` is not given.
TARGET_STDERR = 1.5
#: Adaptive sampling (``samples`` None): first batch, batch size, cap.
MIN_SAMPLES = {"bid": 32, "double": 32, "discard": 32}
BATCH = 16
MAX_SAMPLES = {"bid": 384, "double": 512, "discard": 256}
#: ``bid``: with adaptive sampling an option whose expected units trail the best
#: by more than this many standard errors (paired) is no longer sampled.
RACE_Z = 3.0

OPTION_ORDER = {"pass": 0, "play on": 0, "dobbm": 1, "solo": 2, "double": 1, "retour": 1}


def _paired(fit_for: Callable[[Sequence[int]], _Plain], a: Mapping[int, float], b: Mapping[int, float]
            ) -> tuple[float, float | None]:
    """Mean and standard error of ``a - b`` over the sample indices both have."""
    common = sorted(set(a) & set(b))
    if len(common) < 2:
        return 0.0, None
    return fit_for(common).mean([a[i] - b[i] for i in common])


def _next_batch(n: int, cap: int, reached: bool) -> tuple[int, str | None]:
    """After ``n`` samples of an adaptive run: how many samples to have next,
    or why the run stops (``"target"`` precision reached, ``"max_samples"``)."""
    if reached:
        return n, "target"
    if n >= cap:
        return n, "max_samples"
    return min(cap, n + BATCH), None


# --------------------------------------------------------------------------
# bid


def analyze_bid(view: View, samples: int | None = None, seed: int | None = None,
                jobs: int | None = None, progress: Progress | None = None, *,
                target_stderr: float = TARGET_STDERR) -> Advice:
    """Pass, Dobbm or Solo for ``me`` holding 8 cards, about to bid.

    Per sample (the other hands and the Dobb dealt consistent with the bids
    so far) Dobbm, with the lay-away :func:`policy_discard` picks from the 12
    cards, and Solo are solved with open cards.  Pass is worth 0 by
    definition (what a pass leads to -- defending another player's game, or
    a new deal -- is not valued).  A Dobbm can be overcalled by a later
    player's Solo: each sample's Dobbm counts with the chance that nobody
    does (the bidding model on their sampled cards); an overcalled Dobbm
    counts 0, like a pass, and Dobbm's ``expected_points`` and
    ``win_probability`` are those of the games you get to play.  In the must
    round only Dobbm and Solo are offered; after another player's Dobbm only
    pass and Solo.

    ``samples`` None: adaptive -- batches until the recommended option's
    points have standard error <= ``target_stderr`` (options clearly behind
    stop being sampled); a number: exactly that many samples for every
    option.  ``info``: ``model_bid`` (the bidding model's own choice),
    ``hand_strength``, ``overcall_probability``, ``stopped``.
    """
    t0 = time.perf_counter()
    _check_view(view, "bid")
    fixed = _resolve_samples(samples)
    seed = _resolve_seed(seed)
    target = _check_target(target_stderr)
    playable = [o for o in view.bid_options() if o != "pass"]
    has_pass = "pass" in view.bid_options()
    active = list(playable)
    solved: dict[str, list[int]] = {o: [] for o in playable}   # sample indices per option
    n = fixed if fixed is not None else MIN_SAMPLES["bid"]
    cap = fixed if fixed is not None else MAX_SAMPLES["bid"]
    start = 0
    stopped = "samples"

    def option_series(eng: _Engine, o: str) -> tuple[list[int], list[float], list[int], list[float]]:
        idx = solved[o]
        w = [eng.results[i][o][0] for i in idx]
        p = [eng.results[i][o][1] for i in idx]
        pays = [wi * payment(pi, o, 0, True) for wi, pi in zip(w, p)]
        return idx, pays, p, w

    def estimates(eng: _Engine) -> tuple[list[OptionEstimate], dict[str, dict[int, float]]]:
        out = []
        pays_by: dict[str, dict[int, float]] = {}
        for o in playable:
            if not solved[o]:   # interrupted before this option was solved once
                continue
            idx, pays, p, w = option_series(eng, o)
            fit = eng.fit(idx)
            out.append(_estimate(o, fit, pays, p, w if o == "dobbm" else None))
            pays_by[o] = dict(zip(idx, pays))
        if has_pass:
            m = max((len(solved[o]) for o in playable), default=0)
            out.append(OptionEstimate("pass", 0.0, None, None, None, m, 0.0))
            pays_by["pass"] = {i: 0.0 for i in range(m)}
        out.sort(key=lambda e: (-e.ev_units, OPTION_ORDER[e.option]))
        return out, pays_by

    with _Engine(view, seed, jobs, progress) as eng:
        eng.start_cv(needed=fixed is None or fixed >= CV_MIN_SAMPLES)
        while True:
            eng.plan((n - start) * len(active) + (0 if fixed else BATCH * len(active)))
            items = [(i, tuple(active)) for i in range(start, n)]
            eng.run(items, len)
            for o in active:
                solved[o].extend(i for i in range(start, n) if eng.has(i, o))
            start = n
            if eng.interrupted:
                if not any(solved.values()):
                    raise KeyboardInterrupt
                stopped = "interrupted"
                break
            if fixed is not None:
                break
            ests, pays_by = estimates(eng)
            best = ests[0]
            # racing: drop options clearly behind the best
            for e in ests[1:]:
                if e.option in active:
                    diff, se = _paired(eng.fit, pays_by[best.option], pays_by[e.option])
                    if se is not None and diff > RACE_Z * max(se, 1e-9):
                        active.remove(e.option)
            if best.option == "pass":
                done = all(e.stderr is not None and e.stderr <= target for e in ests if e.option in active)
            else:
                done = best.stderr is not None and best.stderr <= target
            n, why = _next_batch(n, cap, done or not active)
            if why:
                stopped = why
                break
        ests, pays_by = estimates(eng)
        margin = mse = None
        if len(ests) > 1:
            margin, mse = _paired(eng.fit, pays_by[ests[0].option], pays_by[ests[1].option])
    info: dict[str, Any] = {
        "model_bid": model_bid(view.my_hand, dobbm_said=view.dobbm_said, must=view.must),
        "hand_strength": hand_strength(view.my_hand),
        "stopped": stopped,
        "target_stderr": target,
    }
    if "dobbm" in playable and solved["dobbm"]:
        w = [eng.results[i]["dobbm"][0] for i in solved["dobbm"]]
        info["overcall_probability"] = round(1.0 - sum(w) / len(w), 4)
    notes = ["open-card play of each sample is the standard Monte Carlo approximation: "
             "once play starts every player is assumed to know all hands",
             "Pass counts 0 by definition; doubling after the bid is not modelled"]
    if "dobbm" in playable:
        notes.append("Dobbm: in each sample the 12 cards are laid away by heuristics.heuristic_discard "
                     "(no peeking); a later Solo overcall counts 0, like a pass")
    return Advice("bid", view.me, view.role, ests[0].option, tuple(ests),
                  max(len(v) for v in solved.values()) if solved else 0, seed, eng.jobs,
                  time.perf_counter() - t0, margin, mse, info, tuple(notes))


# --------------------------------------------------------------------------
# double


def analyze_double(view: View, samples: int | None = None, seed: int | None = None,
                   jobs: int | None = None, progress: Progress | None = None, *,
                   target_stderr: float = TARGET_STDERR) -> Advice:
    """Double or play on: as a defender after "I lie", or as the declarer facing a Schwacher.

    One open-card solve per sample gives the declarer's points; both options
    are scored on it, with and without one more doubling.  Options: a
    defender ``double`` (``retour`` when the declarer already answered with
    a Retour) or ``play on``; the declarer ``retour`` or ``play on``.  The
    other side's answer to the double is not modelled.  The declarer's hand
    (when unseen) is dealt consistent with the contract chosen, the bids and
    the bidding model; a Dobbm declarer's lay-away is ``heuristic_discard``.

    ``samples`` None: adaptive until the expected points have standard error
    <= ``target_stderr``.  ``info``: ``declarer_win_probability``,
    ``declarer_expected_points``, ``contract``, ``doublings``, ``stopped``.
    """
    t0 = time.perf_counter()
    _check_view(view, "double")
    fixed = _resolve_samples(samples)
    seed = _resolve_seed(seed)
    target = _check_target(target_stderr)
    n = fixed if fixed is not None else MIN_SAMPLES["double"]
    cap = fixed if fixed is not None else MAX_SAMPLES["double"]
    declarer = view.role == "declarer"
    d = view.doublings
    double_name = "retour" if (declarer or d > 0) else "double"
    contract = view.contract
    assert contract is not None
    start = 0
    stopped = "samples"
    with _Engine(view, seed, jobs, progress) as eng:
        eng.start_cv(needed=fixed is None or fixed >= CV_MIN_SAMPLES)
        while True:
            eng.plan(n - start + (0 if fixed else BATCH))
            eng.run([(i, None) for i in range(start, n)], lambda p: 1)
            start = n
            idx = [i for i in range(n) if eng.has(i, "points")]
            if eng.interrupted and not idx:
                raise KeyboardInterrupt
            pts = [eng.results[i]["points"] for i in idx]
            fit = eng.fit(idx)
            on = _estimate("play on", fit, [float(payment(p, contract, d, declarer)) for p in pts], pts)
            if eng.interrupted:
                stopped = "interrupted"
                break
            if fixed is not None:
                break
            n, why = _next_batch(n, cap, on.stderr is not None and on.stderr <= target)
            if why:
                stopped = why
                break
        pays_by = {"play on": {i: float(payment(p, contract, d, declarer)) for i, p in zip(idx, pts)},
                   double_name: {i: float(payment(p, contract, d + 1, declarer)) for i, p in zip(idx, pts)}}
        dbl = _estimate(double_name, fit, list(pays_by[double_name].values()), pts)
        ests = sorted([on, dbl], key=lambda e: (-e.ev_units, OPTION_ORDER[e.option]))
        margin, mse = _paired(eng.fit, pays_by[ests[0].option], pays_by[ests[1].option])
    info = {"declarer_win_probability": _round(on.win_probability, 4),
            "declarer_expected_points": _round(on.expected_points, 3),
            "contract": contract, "doublings": d, "stopped": stopped, "target_stderr": target}
    notes = ["open-card play of each sample is the standard Monte Carlo approximation",
             "the other side's answer to a double (a Retour back) is not modelled"]
    if view.role == "defender":
        notes.append("a defender's units are their own settlement with the declarer")
    return Advice("double", view.me, view.role, ests[0].option, tuple(ests), len(idx), seed, eng.jobs,
                  time.perf_counter() - t0, margin, mse, info, tuple(notes))


# --------------------------------------------------------------------------
# discard

#: Pruning stages of ``discard``: ``(lay-aways kept, samples they have after
#: the stage)``.  Stage one solves every distinct lay-away on the first
#: sample; each later stage keeps the best so far (the first cut also keeps
#: the :data:`DISCARD_HEURISTIC_KEEP` best by the rule of thumb) and solves
#: them on more of the same samples.  The finalists then go on to the full
#: sample count (adaptive: until the leader's standard error meets the target).
DISCARD_STAGES: tuple[tuple[int | None, int], ...] = ((None, 1), (32, 4), (8, 16))
DISCARD_FINALISTS = 3
DISCARD_HEURISTIC_KEEP = 8


def _names(cs: CardSet) -> tuple[str, ...]:
    return tuple(set_names(cs))


def analyze_discard(view: View, samples: int | None = None, seed: int | None = None,
                    jobs: int | None = None, progress: Progress | None = None, *,
                    target_stderr: float = TARGET_STDERR,
                    stages: Sequence[tuple[int | None, int]] = DISCARD_STAGES,
                    finalists: int = DISCARD_FINALISTS) -> Advice:
    """Every legal lay-away of a Dobbm ranked by the declarer's expected units.

    Lay-aways that leave the same cards to play (:func:`lay_away_classes`)
    are solved once and reported each.  Pruning on shared samples (common
    random numbers): every distinct lay-away is solved on the first sample;
    the best go on to more samples in ``stages``; the ``finalists`` best go
    to ``samples`` (None: adaptive, until the leader's expected points have
    standard error <= ``target_stderr``).  Options are ranked by how far
    they got, then by expected units; ``samples`` on each says how many
    deals its estimate rests on.  Standard errors of lay-aways solved on
    fewer than 4 samples are pooled from the spread of the better-sampled ones.

    ``info``: ``lay_aways``, ``classes`` (distinct in play), ``finalists``,
    ``heuristic_discard`` (the rule of thumb's choice) and its ``heuristic_rank``
    (1-based) in the ranking, ``stopped``.
    """
    t0 = time.perf_counter()
    _check_view(view, "discard")
    fixed = _resolve_samples(samples, minimum=1)
    seed = _resolve_seed(seed)
    target = _check_target(target_stderr)
    hand12 = view.my_hand | view.dobb
    classes = lay_away_classes(hand12)
    reps = [r for r, _ in classes]
    heur = {r: discard_score(hand12, r) for r in reps}
    heur_order = sorted(reps, key=lambda r: -heur[r])
    final_cap = fixed if fixed is not None else MAX_SAMPLES["discard"]
    solved: dict[CardSet, int] = {r: 0 for r in reps}    # samples 0..k-1 solved
    stopped = "samples"

    def mean_units(eng: _Engine, r: CardSet) -> tuple[float, float, float]:
        k = solved[r]
        pts = [eng.results[i][r] for i in range(k)]
        return (sum(payment(p, "dobbm", 0, True) for p in pts) / k, sum(pts) / k, heur[r])

    def best_first(eng: _Engine, group: Sequence[CardSet]) -> list[CardSet]:
        return sorted(group, key=lambda r: tuple(-x for x in mean_units(eng, r)))

    def extend(eng: _Engine, group: Sequence[CardSet], upto: int) -> None:
        items = []
        for r in group:
            for i in range(solved[r], upto):
                items.append((i, r))
        # one item per (sample, piece of the group): keeps every worker busy
        by_index: dict[int, list[CardSet]] = {}
        for i, r in items:
            by_index.setdefault(i, []).append(r)
        work = []
        piece = max(1, -(-len(items) // (eng.jobs * 6)))
        for i, rs in sorted(by_index.items()):
            for a in range(0, len(rs), piece):
                work.append((i, tuple(rs[a:a + piece])))
        eng.run(work, len)
        for r in group:
            k = solved[r]
            while k < upto and eng.has(k, r):   # samples 0..k-1 solved, also when interrupted
                k += 1
            solved[r] = k

    with _Engine(view, seed, jobs, progress) as eng:
        eng.start_cv(needed=fixed is None or fixed >= CV_MIN_SAMPLES)
        group = list(reps)
        final_n = fixed if fixed is not None else max([MIN_SAMPLES["discard"]] + [s for _, s in stages])
        planned, width, have = 0, len(reps), 0
        for keep, upto in stages:
            width = min(width, keep) if keep is not None else width
            upto = min(upto, final_cap)
            planned += width * max(0, upto - have)
            have = max(have, upto)
        planned += min(finalists, len(reps)) * max(0, final_n - have)
        eng.plan(planned)
        for stage, (keep, upto) in enumerate(stages):
            upto = min(upto, final_cap)
            if keep is not None and keep < len(group):
                chosen = best_first(eng, group)[:keep]
                if stage == 1:
                    for r in heur_order[:DISCARD_HEURISTIC_KEEP]:
                        if r not in chosen:
                            chosen.append(r)
                group = chosen
            extend(eng, group, upto)
            if eng.interrupted:
                break
        if eng.interrupted:
            # Ctrl-C: rank what was solved; lay-aways not solved once are left out
            reps = [r for r in reps if solved[r] > 0]
            if not reps:
                raise KeyboardInterrupt
            stopped = "interrupted"
            classes = [(r, m) for r, m in classes if r in reps]
            group = [r for r in group if r in reps] or reps[:1]
        else:
            group = best_first(eng, group)[:max(1, finalists)]
        n = final_n
        while not eng.interrupted:
            extend(eng, group, n)
            if eng.interrupted:
                stopped = "interrupted"
                break
            if fixed is not None:
                break
            fit = eng.fit(list(range(n)))
            leader = max(group, key=lambda r: mean_units(eng, r))
            pts = [eng.results[i][leader] for i in range(n)]
            _, se = fit.mean([float(p) for p in pts])
            n, why = _next_batch(n, final_cap, se is not None and se <= target)
            if why:
                stopped = why
                break
            eng.plan(len(group) * (n - solved[group[0]]))

        # estimates
        pooled_p = pooled_u = None
        dof = 0
        sp = su = 0.0
        for r in reps:
            k = solved[r]
            if k >= 4:
                pts = [eng.results[i][r] for i in range(k)]
                pays = [payment(p, "dobbm", 0, True) for p in pts]
                mp, mu_ = sum(pts) / k, sum(pays) / k
                sp += sum((p - mp) ** 2 for p in pts)
                su += sum((u - mu_) ** 2 for u in pays)
                dof += k - 1
        if dof:
            pooled_p, pooled_u = math.sqrt(sp / dof), math.sqrt(su / dof)
        est_by: dict[CardSet, OptionEstimate] = {}
        pays_by: dict[CardSet, dict[int, float]] = {}
        for r in reps:
            k = solved[r]
            pts = [eng.results[i][r] for i in range(k)]
            pays = [float(payment(p, "dobbm", 0, True)) for p in pts]
            e = _estimate(_names(r), eng.fit(list(range(k))), pays, pts)
            if k < 4 and pooled_p is not None:
                e = replace(e, stderr=pooled_p / math.sqrt(k), stderr_units=pooled_u / math.sqrt(k))
            est_by[r] = e
            pays_by[r] = dict(enumerate(pays))
        order = sorted(reps, key=lambda r: (-solved[r], -est_by[r].ev_units,
                                            -(est_by[r].expected_points or 0.0), -heur[r]))
        margin = mse = None
        if len(order) > 1 and solved[order[1]] > 1:
            margin, mse = _paired(eng.fit, pays_by[order[0]], pays_by[order[1]])
    members = dict(classes)
    options: list[OptionEstimate] = []
    for r in order:
        for m in members[r]:
            options.append(replace(est_by[r], option=_names(m)))
    hd = policy_discard(hand12)
    hd_names = _names(hd) if hd is not None else None
    info = {"lay_aways": len(options), "classes": len(reps), "finalists": len(group),
            "heuristic_discard": hd_names,
            "heuristic_rank": next((k + 1 for k, o in enumerate(options) if o.option == hd_names), None),
            "stopped": stopped, "target_stderr": target}
    notes = ["open-card play of each sample is the standard Monte Carlo approximation",
             f"all {len(options)} legal lay-aways ({len(reps)} distinct in play) were solved on the "
             f"first sample; the best went on to more of the same samples, the {len(group)} finalists "
             f"to {max(solved.values())}",
             "standard errors of lay-aways solved on fewer than 4 samples are pooled"]
    return Advice("discard", view.me, view.role, options[0].option, tuple(options),
                  max(solved.values()), seed, eng.jobs, time.perf_counter() - t0, margin, mse,
                  info, tuple(notes))
