"""``dobbm arena``: two players compared on seeded deals played end to end with hidden cards."""

from __future__ import annotations

import click

from .._interrupt import exit_on_ctrl_c
from ..pagefile import check_page_file, write_page
from ..solver import DEFAULT_TT_MB
from .boundary import exit_interrupted
from .options import CONTEXT, FILE, HTML, JOBS, JSON, QUIET, SCHEDULER, SEED, open_solver
from .output import Progress, echo, echo_json


@click.command(context_settings=CONTEXT)
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--deals", type=int, default=20, show_default=True, help="Deals to play, 1 or more.")
@SEED
@JSON
@click.option("-o", "--output", metavar="FILE", type=FILE,
              help="Rows, one per deal, as JSON lines. Deals already in FILE are skipped, so rerunning "
                   "resumes; a file the arena did not write (or wrote with other settings) is refused.")
@click.option("--lines", metavar="FILE", type=FILE,
              help="Also write every table's play of every deal done in the one-line notation, each after "
                   "a # line naming the deal and the table: dobbm review, explore and score replay them.")
@JOBS
@SCHEDULER
@click.option("--per-decision", is_flag=True,
              help="Also swap one decision's strategy at a time (A with B's bid, ...) to see what "
                   "each decision is worth; more tables per deal.")
@click.option("--budget-ms", type=int, metavar="MS",
              help="Give every analysis of the advice (advice, pimc) MS milliseconds of sampling "
                   "instead of its fixed samples: players compared at equal time. The samples each "
                   "used are recorded; runs are then not reproducible to the sample.")
@QUIET
@HTML
def arena(a: str, b: str, deals: int, seed: int, as_json: bool, output: str | None, lines: str | None,
          jobs: int | None, scheduler: str | None, per_decision: bool, budget_ms: int | None, quiet: bool,
          html_file: str | None) -> None:
    """Play seeded deals end to end with hidden cards: player A against player B.

    A player is a strategy for every decision (rule, advice, pimc, infer or open), or one per
    decision: 'advice,play=rule' or 'bid=advice,discard=rule,double=rule,play=rule'.
    Each deal is played duplicate-style: A in each seat in turn at a table of B's,
    paired with the table of four B's on the same cards. Printed: each player's units
    a hand (a seat's net units: the declarer's three payments added, a defender's own)
    and A - B with standard errors over the deals, a difference within two standard
    errors marked not significant; a legend says what each column means. All pass:
    the hand counts 0. Each row of the result file gives every table's play in the
    one-line notation (`line`), as does --lines. The workers are processes. Ctrl-C stops: the rows
    written stay, exit code 130.
    """
    with exit_on_ctrl_c():
        from ..arena import ArenaConfig, parse_player, run_arena
        from ..arena.results import DealRow
        from ..arena.run import check_arena
        from ..arena.strategies import TIMED_SAMPLES
        from ..report.arena import arena_dict, arena_text

    if html_file is not None:
        check_page_file(html_file)
    if budget_ms is None:
        config = ArenaConfig(parse_player(a), parse_player(b), seed, per_decision)
    else:
        config = ArenaConfig(parse_player(a), parse_player(b), seed, per_decision, TIMED_SAMPLES, budget_ms)
    check_arena(deals, seed, budget_ms)
    rows: list[DealRow] = []

    def take(row: DealRow) -> None:
        rows.append(row)
        bar.advance()

    with Progress("arena", quiet) as bar:
        bar.start(deals)
        run = run_arena(config, deals, output, jobs, on_row=take, scheduler=scheduler, lines=lines)
    summary = run.summary
    if as_json:
        echo_json(arena_dict(summary, run))
    else:
        echo(arena_text(summary, run))
    if html_file is not None:
        from ..arena.game import DEALER, SEATS
        from ..arena.replay import table_deal
        from ..report.html import arena_page
        from ..review import review_hand
        solver = open_solver(DEFAULT_TT_MB)
        reviews = {}
        for row in rows:   # each table's play valued with open cards: a few milliseconds a table
            for key, table in row.tables.items():
                played = table_deal(row, table, SEATS, DEALER)
                if played is not None:
                    reviews[row.deal, key] = review_hand(solver, played)
        write_page(html_file, arena_page(summary, run, rows, reviews))
    if run.interrupted:
        exit_interrupted(f"interrupted: {run.done} of {deals} deals done"
                         f"{'; the rows written stay in ' + output if output else ''}")
