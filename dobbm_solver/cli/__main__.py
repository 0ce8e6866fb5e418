"""``python -m dobbm_solver.cli``: the ``dobbm`` command."""

from . import main

main()
