"""Random deals (dobbm_solver.dealer) and the benchmark hand files made with them."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
import yaml
from helpers import cs
from hypothesis import strategies as st

from dobbm_solver.cards import (
    BB_ALL,
    NUM_CARDS,
    cardset,
    popcount,
    set_names,
)
from dobbm_solver.deal import Deal, validate
from dobbm_solver.dealer import SOLO_THRESHOLD, deal_cards, random_deal
from dobbm_solver.models.discard_rule import (
    heuristic_discard,
)
from dobbm_solver.models.strength import hand_strength
from dobbm_solver.rules import discard_error

ROOT = Path(__file__).resolve().parent.parent


hands12 = st.lists(st.integers(0, NUM_CARDS - 1), min_size=12, max_size=12, unique=True).map(cardset)



# --- random deals --------------------------------------------------------------
def test_deal_cards_packets_of_four():
    hands, dobb = deal_cards(list(range(36)))
    assert hands[0] == cardset([0, 1, 2, 3, 16, 17, 18, 19])
    assert dobb == cardset([32, 33, 34, 35])
    assert sum(hands) + dobb == BB_ALL


@pytest.mark.parametrize("seed", range(25))
def test_random_deal_reproducible_and_valid(seed):
    a = random_deal(random.Random(seed))
    b = random_deal(random.Random(seed))
    assert a == b
    state = validate(a)
    assert state.to_move == a.declarer and not a.tricks
    assert a.contract in ("dobbm", "solo")
    if a.contract == "dobbm":
        assert a.discard is not None and discard_error(a.discard) is None
        dealt = (a.hands[a.declarer] | a.discard) & ~a.dobb
        assert a.discard == heuristic_discard(dealt | a.dobb)
    else:
        assert a.discard is None
        dealt = a.hands[a.declarer]
        assert hand_strength(dealt) >= SOLO_THRESHOLD
    # the declarer holds the strongest dealt hand
    for s in a.defenders:
        assert hand_strength(a.hands[s]) <= hand_strength(dealt)


def test_random_deal_contract_and_discard_options():
    rng = random.Random(3)
    d = random_deal(rng, ("N", "E", "S", "W"), contract="dobbm", discard=False)
    assert d.needs_discard and d.seats == ("N", "E", "S", "W")
    validate(d)
    assert popcount(d.hands[d.declarer]) == 8
    s = random_deal(random.Random(3), contract="solo")
    assert s.contract == "solo" and s.discard is None
    validate(s)
    with pytest.raises(ValueError):
        random_deal(random.Random(3), contract="grand")


def test_random_deal_solo_share():
    rng = random.Random(2024)
    deals = [random_deal(rng) for _ in range(400)]
    share = sum(d.contract == "solo" for d in deals) / len(deals)
    assert 0.25 <= share <= 0.40


# --- benchmark files -------------------------------------------------------------
@pytest.fixture(scope="module")
def make_hands():
    """benchmarks/make_hands.py as a module."""
    path = ROOT / "benchmarks" / "make_hands.py"
    spec = importlib.util.spec_from_file_location("dobbm_make_hands", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_benchmark_files_regenerate_identically(make_hands):
    for path, text in make_hands.outputs().items():
        assert path.read_text(encoding="utf-8") == text, f"{path.name}: rerun benchmarks/make_hands.py"


def _to_deal(doc: dict) -> Deal:
    return Deal(
        seats=tuple(doc["seats"]), declarer=doc["declarer"], contract=doc["contract"],
        hands={s: cs(t) for s, t in doc["hands"].items()}, dobb=cs(doc["dobb"]),
        discard=cs(doc["discard"]) if "discard" in doc else None,
    )


def _docs_and_deals(name: str) -> tuple[list[dict], list[Deal]]:
    """The YAML documents of ``hands/<name>`` and their deals, read without the hand-file loader."""
    docs = list(yaml.safe_load_all((ROOT / "hands" / name).read_text(encoding="utf-8")))
    return docs, [_to_deal(d) for d in docs]


def test_benchmark_file_content(make_hands):
    docs, deals = _docs_and_deals("benchmark.yaml")
    assert len(docs) == 120
    assert deals == make_hands.benchmark_deals()
    for doc, d in zip(docs, deals):
        validate(d)
        assert ("discard" in doc) == (d.contract == "dobbm")
        for seat, text in doc["hands"].items():
            assert text == " ".join(set_names(d.hands[seat]))   # canonical, trumps first
    solos = sum(d.contract == "solo" for d in deals)
    assert 0.25 * 120 <= solos <= 0.40 * 120


def test_discard_benchmark_file_content(make_hands):
    docs, deals = _docs_and_deals("benchmark_discard.yaml")
    assert len(docs) == 30
    assert deals == make_hands.discard_deals()
    for doc, d in zip(docs, deals):
        assert "discard" not in doc and d.contract == "dobbm" and d.needs_discard
        validate(d)
        assert popcount(d.hands[d.declarer]) == 8
