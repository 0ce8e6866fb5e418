"""Bad input never hurts: random and mutated hand files, card texts and one-line deals.

Each input is either accepted, and then round-trips through the YAML form and the
one-line notation, or rejected with one clean line (a ValueError naming where);
the CLI answers exit 0 or 2 with one ``Error:`` line, never a traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dobbm_solver.cards import CardError, card_name, parse_card
from dobbm_solver.cli import main
from dobbm_solver.handfile import HandFileError, dump_deal_yaml, parse_deal_text
from dobbm_solver.notation import format_deal_line, parse_deal_line

HANDS = Path(__file__).resolve().parents[1] / "hands"
SEEDS = [(HANDS / n).read_text() for n in ("example.yaml", "midplay.yaml", "five_players.yaml", "finished.yaml")]
LINES = [format_deal_line(d) for t in SEEDS for d in parse_deal_text(t)]
ALPHABET = st.sampled_from(list("EeLlHhSsGgBbAaKkOoUuXxZz0123456789 :-[]{},|\n\t'\"#&*!%?>"))


def check_deal_or_error(text: str, path: str = "fuzz.yaml") -> None:
    try:
        deals = parse_deal_text(text, path)
    except HandFileError as e:
        msg = str(e)
        assert msg.startswith(path) and "\n" not in msg
        return
    for d in deals:
        assert parse_deal_text(dump_deal_yaml(d)) == [d]
        assert parse_deal_line(format_deal_line(d)) == d


@st.composite
def mutated(draw, seeds: list[str]) -> str:
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "swap", "dup"]))
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        j = min(len(text), i + draw(st.integers(1, 6)))
        if kind == "delete":
            text = text[:i] + text[j:]
        elif kind == "insert":
            text = text[:i] + draw(st.text(ALPHABET, max_size=6)) + text[i:]
        elif kind == "replace":
            text = text[:i] + draw(st.text(ALPHABET, min_size=1, max_size=4)) + text[j:]
        elif kind == "swap":
            lines = text.split("\n")
            a, b = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        else:
            text = text[:j] + text[i:j] + text[j:]
    return text


FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.text(ALPHABET, max_size=200))
def test_random_text_is_a_deal_or_one_clean_error(text):
    check_deal_or_error(text)


@FUZZ
@given(mutated(SEEDS))
def test_mutated_hand_files(text):
    check_deal_or_error(text)


@FUZZ
@given(st.one_of(st.text(ALPHABET, max_size=5), st.text(max_size=5)))
def test_card_text_parses_or_is_rejected(text):
    try:
        c = parse_card(text)
    except CardError as e:
        assert "\n" not in str(e)
        return
    assert parse_card(card_name(c)) == c
    assert card_name(c) == card_name(parse_card(text.lower()))


@FUZZ
@given(mutated(LINES))
def test_mutated_one_line_deals(line):
    try:
        d = parse_deal_line(line)
    except ValueError as e:
        assert str(e) and "\n" not in str(e)
        return
    assert parse_deal_line(format_deal_line(d)) == d


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(text=mutated(SEEDS))
def test_cli_check_never_crashes(tmp_path, text):
    f = tmp_path / "fuzz.yaml"
    f.write_text(text)
    r = CliRunner().invoke(main, ["check", str(f)])
    assert r.exit_code in (0, 2), r.output
    assert not isinstance(r.exception, Exception) or isinstance(r.exception, SystemExit)
    if r.exit_code == 2:
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"Error: {f}")


@pytest.mark.parametrize("text, needle", [
    ("[" * 100000 + "]" * 100000, "nested more than"),
    ("a:\n" + "".join(" " * i + f"k{i}:\n" for i in range(1, 200)), "nested more than 64 levels"),
    ("hands: {A: '', B: '', C: '', D: ''}\ndeclarer: A\ncontract: solo\ndobb: E6 E7 E8 E9\n", "cards missing"),
    ("", "holds no deal"),
    ("---\n---\n", "holds no deal"),
    ("- 1\n- 2\n", "must be a mapping"),
])
def test_hostile_files_get_a_clear_answer(tmp_path, text, needle):
    f = tmp_path / "x.yaml"
    f.write_text(text)
    r = CliRunner().invoke(main, ["solve", str(f)])
    assert r.exit_code == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {f}") and needle in lines[0], lines


def test_binary_file_is_rejected(tmp_path):
    f = tmp_path / "x.yaml"
    f.write_bytes(bytes(range(256)))
    r = CliRunner().invoke(main, ["check", str(f)])
    assert r.exit_code == 2 and r.stderr.startswith(f"Error: {f}")
