"""Monte Carlo hand analyzer: advice at the table, where nobody sees the other hands.

From the cards a player can see (and what the bidding has shown) the
analyzer deals the unseen cards at random, consistent with everything known,
solves every sample exactly with the open-card core, and ranks the player's
options by the expected payment.  Four questions are answered:

* :func:`analyze_bid` -- Pass, Dobbm or Solo, for ``me`` holding 8 cards
  before the bidding reaches them;
* :func:`analyze_discard` -- every legal lay-away of a Dobbm, for ``me`` the
  declarer holding the 8 dealt cards with the Dobb known;
* :func:`analyze_double` -- as a defender after "I lie": double (Schwacher)
  or play on; as the declarer facing a Schwacher: Retour or play on;
* :func:`analyze_play` -- which card to play now, for ``me`` to move in the play.

Each takes a checked :class:`View` (from :func:`make_view` or
:func:`load_views`), ``samples`` (None: adaptive), ``seed``, ``jobs`` and an
optional ``progress(done, total)`` callback, and returns an :class:`Advice`.
This package never imports click; it is the library under
``dobbm bid/discard/double/play``.  The models of the other players it
uses (bidding, doubling, the lay-away rules) are in :mod:`dobbm_solver.models`.

The modules, in the order data flows through them:

* :mod:`.view` -- what a player sees (:class:`View`), and what the tricks show;
* :mod:`.checks` -- a hand-file spec read into a checked view (:func:`make_view`);
* :mod:`.auction` -- what the bids imply about the other seats' cards (by the bidding model,
  :mod:`dobbm_solver.models.bidding`);
* :mod:`.sampling` -- dealing the unseen cards: the card allocator, the sampler, its cache;
* :mod:`.sampling_core` -- the sampler's compiled loop, set up from a sampler and checked;
* :mod:`.work`, :mod:`.runner` -- what a worker solves per sample, and the worker pool;
* :mod:`.payment`, :mod:`.estimate` -- units, option estimates, control variates, the stopping rule;
* :mod:`.discard_classes` -- lay-aways that are the same in play;
* :mod:`.template` -- the one path every analysis takes: batches, race, stop, rank;
* :mod:`.bid`, :mod:`.discard`, :mod:`.double`, :mod:`.play` -- the four analyses;
* :mod:`.advice` -- their results (:class:`OptionEstimate`, :class:`Advice`), typed options;
* :mod:`.arguments` -- the arguments they take, checked.
"""

from __future__ import annotations

from .advice import Advice, OptionEstimate
from .bid import analyze_bid
from .checks import load_views, make_view
from .discard import analyze_discard
from .double import analyze_double
from .play import analyze_play
from .runner import Progress
from .sampling import sample_deals
from .view import AnalyzerError, View

__all__ = [
    "View", "AnalyzerError", "make_view", "load_views",
    "analyze_bid", "analyze_discard", "analyze_double", "analyze_play",
    "Advice", "OptionEstimate", "Progress", "sample_deals",
]
