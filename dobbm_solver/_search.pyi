"""Types of the compiled search core (``_search.pyx``); private: use :mod:`dobbm_solver.solver`.

Cards are numbered 0..35 (nine a suit, ``9 * suit + rank``, rank 0 the six);
a hand is a bitboard of them.  Seats are relative: 0 is the declarer, then
clockwise.  Every value is the declarer's final points, 0..120.
"""

from typing import Mapping, Sequence

SMALL_TABLE_ENTRIES: int
"""A new table starts in its first this many entries (all of a smaller table) ..."""
GROW_AFTER_NODES: int
"""... whose part in use grows ``TABLE_GROW_STEP`` times (rehashed) once a search
passes this many nodes ..."""
TABLE_GROW_STEP: int
TABLE_GROW_NODES_STEP: int
"""... and again after ``TABLE_GROW_NODES_STEP`` times as many nodes each time, up to the whole."""
FIRST_CHOICE_NODES: int
"""The most nodes, by default, of the search whose upper bound MTD(f) starts
from (``Core.first_choice_bound``); past it MTD(f) starts from the top."""
FAST_BMI2: bool
"""The CPU runs BMI2's PEXT and PDEP fast: the core uses them (table keys, runs of cards)."""

def set_bmi2(on: bool) -> bool:
    """BMI2 (``on``, where ``FAST_BMI2``) or the portable code, which give the
    same keys and the same search; returns the setting before."""

def trick_start_bounds(
    hands: Sequence[int], leader: int, points: int, has_trick: bool, bonus: int
) -> tuple[int, int]:
    """The static ``(lower, upper)`` bounds of the search on the declarer's final
    points at a trick start (seat 0 the declarer; for the tests)."""

def mid_trick_bound(
    hands: Sequence[int], leader: int, trick: Sequence[int], points: int, has_trick: bool, bonus: int
) -> int:
    """The search's static lower bound on the declarer's final points in an
    unfinished ``trick`` (cards in play order) he is still to play to, second
    or third at his turn or after the defender to move (for the tests); -1
    where it has none."""

class Core:
    """Owns a transposition table of ``tt_mb`` MiB (at least 1) and one root position.

    ``grow_after``: the nodes after which a search first grows the part of a
    new table it uses (default ``GROW_AFTER_NODES``; the tests make it small
    so that the rehash runs in the middle of most searches).  Roots that keep
    the table grow it with their nodes together.  ``start_nodes``: the most
    nodes of the search that gives MTD(f) its start (default
    ``FIRST_CHOICE_NODES``; the tests set 0 to start from the top)."""

    def __init__(self, tt_mb: int = 64, grow_after: int = ..., start_nodes: int = ...) -> None: ...
    @property
    def table_entries(self) -> int:
        """Entries in the table (a power of two)."""
    @property
    def entries_in_use(self) -> int:
        """Entries of the table the search uses now (it grows with the search)."""
    @property
    def nodes(self) -> int:
        """Nodes searched since the position was set."""
    @property
    def to_move(self) -> int:
        """The relative seat to play at the root."""
    def set_position(
        self,
        hands: Sequence[int],
        leader: int,
        trick: Sequence[int],
        points: int,
        has_trick: bool,
        bonus: int,
        keep_table: bool = False,
    ) -> None:
        """Set the root: four hands, the leader of the unfinished ``trick`` (its
        cards in play order), the points in the declarer's finished tricks,
        whether he has won one, and the bonus (lay-away or Dobb points).
        Raises ``ValueError`` on a malformed position."""
    def set_play(
        self, hands: Mapping[str, int], seats: tuple[str, ...], tricks: Sequence[Sequence[int]], bonus: int,
        keep_table: bool = False,
    ) -> int:
        """Set the root after ``tricks`` (each a trick's cards in play order, from the
        declarer's opening lead; a last trick of fewer than four cards is the one
        in play) with the hands ``hands[seats[i]]`` held now (seat 0 the declarer) and
        the bonus; the seat to move, or -1 when every trick is played (then see
        ``final_points``).  Raises ``ValueError`` on a malformed position."""
    @property
    def final_points(self) -> int:
        """The declarer's final points after a ``set_play`` that played every trick."""
    def value(self, guess: int = -1) -> int:
        """Exact value of the root (``guess``: the first MTD(f) test; -1 for the default)."""
    def first_choice_bound(self) -> int | None:
        """The upper bound on the root's value MTD(f) starts from: the value when
        each defender plays only his first-ordered card (for the tests); None
        past ``start_nodes`` nodes.  It leaves upper bounds in the table."""
    def card_values(self) -> list[tuple[int, int]]:
        """``(card, value)`` for every legal card of the seat to move, by card."""
    def line(self, value: int = -1) -> list[int]:
        """A best line of play from the root to the end, cards in play order;
        ``value``: the root's value when known (from ``card_values``), else searched."""
