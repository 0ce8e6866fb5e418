"""Types of the compiled deal sampler (``_sampler.pyx``); private: use
:mod:`dobbm_solver.analyzer.sampling` (built by :mod:`dobbm_solver.analyzer.sampling_core`).

Cards are numbered 0..35; a card set is a bitboard of them.  Seats are the
view's active seats by index, places the sampler's places by index.
"""

LIMITS: dict[str, int]
"""The most places, card groups, seats, auction entries, doublings and cards a core takes."""
KIND_CODES: dict[str, int]
"""The formulas of a bid's likelihood by the bidding model's kind (``pass``, ``not_solo``,
``dobbm``, ``solo``; each auction entry brings its Solo threshold and spread)."""

class MersenneTwister:
    """CPython's ``random.Random`` generator, in the state of ``random.Random(n)`` for
    ``key`` = ``abs(n)`` as little-endian bytes, a whole number of 32-bit words with
    the top one not zero (one zero word for 0)."""

    def __init__(self, key: bytes = ...) -> None: ...
    def getstate(self) -> tuple[int, ...]:
        """As ``random.Random.getstate()[1]``: 624 words and the index."""
    def setstate(self, state: tuple[int, ...]) -> None: ...
    def getrandbits(self, k: int) -> int: ...
    def randbelow(self, n: int) -> int:
        """``randrange(n)`` for ``1 <= n < 2**64``."""
    def random(self) -> float: ...
    def shuffle(self, x: list[int]) -> None:
        """``shuffle`` of at most 64 small ints."""
    def sample(self, population: list[int], k: int) -> list[int]:
        """``sample(population, k)`` of at most 64 small ints."""

def logistic(x: float) -> float:
    """As :func:`dobbm_solver.models.bidding.logistic`."""

class SamplerCore:
    """One view's rejection loop: draws, the Dobb from an unseen declarer's 12 cards,
    the bidding and doubling models' test."""

    def __init__(
        self,
        *,
        groups: list[list[int]],
        n_places: int,
        states: list[list[tuple[tuple[int, ...], int, int]]],
        seat_base: list[int],
        seat_place: list[int],
        dobb_place: int,
        dobb_const: int,
        twelve_seat: int,
        twelve_base: int,
        draw_dobb: bool,
        dobb_size: int,
        test: bool,
        bids: list[tuple[int, int, float, float, float, float]],
        bid_model: tuple[float, float, float, float, int, float, float, int],
        plain_suits: list[int],
        doublings: list[tuple[float, float, float, float, float, bool]],
        declarer: int,
        declarer_adds_dobb: bool,
        defenders: list[int],
        trumps: int,
        features_declarer: int,
        features_others: list[int],
        trump_table: list[float],
        plain_tables: list[list[float]],
        plain_table_of: list[int],
        trump_shift: int,
        plain_shifts: list[int],
        suit_shifts: list[int],
        holding_points: list[int],
        suit_bits: int,
    ) -> None: ...
    def run(self, rng: MersenneTwister, tries: int) -> tuple[int, tuple[int, ...], int] | None:
        """Draw until one is accepted, at most ``tries`` times: ``(draws made, the places'
        cards, the Dobb)``, or None."""
    def features_batch(self, keys: list[bytes], tries: int) -> list[tuple[float, ...]] | None:
        """For each seed (the bytes ``random.Random`` reads as a big-endian integer), the
        features of the first draw accepted in ``tries``; None if a sample had none."""
    def features_of(self, dealt: list[int], dobb: int) -> tuple[float, ...]:
        """As ``estimate.deal_features``, for each seat's dealt cards and the Dobb."""
    def acceptance(self, dealt: list[int], dobb: int) -> float:
        """The product of the likelihoods ``run`` tests (in full), for each seat's dealt cards."""
    def bid_score_of(self, hand: int) -> float:
        """As ``bidding.bid_score``."""
    def solo_score_of(self, hand: int) -> float:
        """As ``bidding.solo_score``."""
