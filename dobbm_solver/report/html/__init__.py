"""The pages ``--html FILE`` writes: one self-contained HTML document a command.

Each page is built from the command's typed results, like the text and JSON
beside it; :mod:`.page` holds the shell (inline style sheet, step script and
suit symbols), :mod:`.play` the hands, the tricks and the step control.
"""

from .arena import arena_page
from .deal import deal_page
from .explore import explore_page
from .page import GENERATOR
from .review import review_page
from .solve import solve_page

__all__ = ["GENERATOR", "arena_page", "deal_page", "explore_page", "review_page", "solve_page"]
