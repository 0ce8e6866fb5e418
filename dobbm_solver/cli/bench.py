"""``dobbm bench``: the search's signature (its node count on the shipped deals) and its speed."""

from __future__ import annotations

import click

from .. import __version__
from ..bench import BENCH_TT_MB, run_bench
from ..report.bench import bench_dict, bench_text
from .boundary import BadInput
from .options import CONTEXT, JSON, TT_MB
from .output import echo, echo_json, say


@click.command(context_settings=CONTEXT)
@JSON
@TT_MB
@click.option("--check", is_flag=True,
              help=f"Exit 1 when the signature differs from the expected one (needs the {BENCH_TT_MB} MiB "
                   "table); without it the exit code is 0 either way.")
@click.pass_context
def bench(ctx: click.Context, as_json: bool, tt_mb: int, check: bool) -> None:
    """Solve the benchmark deals shipped with the package and print the search's signature and speed.

    Each of the 120 deals is solved from the opening lead for its value and for every
    legal card's value, on one thread with one table. The total of nodes searched is
    the signature of the search: node counts do not depend on the machine, so the same
    search (and table size) gives the same signature everywhere, and it is compared with
    the one expected for this version. The time per deal and the nodes a second are the
    machine's speed. In CI, `dobbm bench --check` tells a changed search (exit 1) from a
    slower machine (exit 0, only the time differs).
    """
    if check and tt_mb != BENCH_TT_MB:
        raise BadInput(f"--check: the expected signature is for --tt-mb {BENCH_TT_MB}, not {tt_mb}")
    result = run_bench(tt_mb=tt_mb)
    if as_json:
        echo_json(bench_dict(result, __version__))
    else:
        echo(bench_text(result, __version__))
    if check and not result.matches:
        say("Error: the signature differs from the expected one: the search changed")
        ctx.exit(1)
