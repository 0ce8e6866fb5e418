"""``dobbm serve``: the explorer as a local web app (see :mod:`.app`).

:mod:`.sessions` keeps each browser tab's position, :mod:`.table` carries out
what a page asks on it, :mod:`.app` is the web server (Starlette, from the
``web`` extra); the page and its state documents are rendered in
:mod:`dobbm_solver.report.serve`.
"""
