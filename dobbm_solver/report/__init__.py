"""Results as plain data (for JSON) and as text: everything the ``dobbm`` commands print.

No click here: each command reads its options and echoes what these renderers return.
One module per command, and the deal diagram they share:

* :mod:`.solve` (``solve``), :mod:`.check` (``check``), :mod:`.score` (``score``),
  :mod:`.review` (``review``), :mod:`.advice` (``bid``, ``discard``, ``double``,
  ``play``), :mod:`.arena` (``arena``);
* :mod:`.diagram`: the heading of a report, the hands by suit and the grid of
  tricks with running totals.

In this package "table" means only a card table (the arena's tables of four
players); a block of rows and columns printed is a grid.
"""
