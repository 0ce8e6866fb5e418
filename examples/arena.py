"""What is each decision worth? A small arena run, as a table and a bar chart.

Plays ``--deals`` seeded deals end to end with hidden cards (``dobbm_solver.arena``):
player ``--a`` in each seat in turn at a table of ``--b`` players, paired with the
table of four ``--b`` players on the same cards, and, per decision, ``--a`` with
``--b``'s strategy for that one decision.  Prints the paired difference A - B in
units a hand (each seat's own settlement) with its standard error, overall and per
decision; with ``--out FILE.png`` and matplotlib installed (``pip install
'dobbm-solver[plot]'``) it also saves them as a bar chart with error bars.

    python examples/arena.py --a open --b rule --deals 20 --seed 1 --out examples/arena.png
    python examples/arena.py --a advice --b rule --deals 20 --results arena.jsonl

``--results FILE`` keeps the rows (JSON lines, resumable: run the same command
again after Ctrl-C and only the missing deals are played).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from dobbm_solver.arena import DECISIONS, ArenaConfig, parse_player, run_arena
from dobbm_solver.report.arena import arena_dict


def bars(summary: dict[str, Any]) -> list[tuple[str, float, float]]:
    """(label, units a hand, standard error) of the overall difference and each decision."""
    out = [("A - B", summary["difference"]["units_per_hand"], summary["difference"]["stderr"] or 0.0)]
    for d in DECISIONS:
        m = summary["per_decision"][d]
        if m is not None:
            out.append((f"{d}\n{m['a']} vs {m['b']}", m["units_per_hand"], m["stderr"] or 0.0))
    return out


def format_table(summary: dict[str, Any]) -> str:
    lines = [f"{summary['deals']} deals (seed {summary['seed']}): A = {summary['a']}, B = {summary['b']}; "
             f"advice samples {summary['samples']}",
             "what                         units a hand   stderr",
             "---------------------------  ------------  -------"]
    for label, value, se in bars(summary):
        lines.append(f"{label.replace(chr(10), ': '):27}  {value:>+12.3f}  {se:>7.3f}")
    return "\n".join(lines)


def plot(summary: dict[str, Any], path: str) -> bool:
    """Save the bar chart to ``path``; False when matplotlib is not installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    items = bars(summary)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.bar(range(len(items)), [v for _, v, _ in items], yerr=[se for _, _, se in items], capsize=4,
           color=["tab:blue"] + ["tab:gray"] * (len(items) - 1))
    ax.set_xticks(range(len(items)), [label for label, _, _ in items])
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_ylabel("units a hand (paired, ± 1 s.e.)")
    ax.set_title(f"{summary['a']} in place of {summary['b']}: {summary['deals']} deals, seed {summary['seed']}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--a", default="open", help="player A (default: open)")
    ap.add_argument("--b", default="rule", help="player B (default: rule)")
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    ap.add_argument("--results", metavar="FILE", help="keep the rows here (resumable)")
    ap.add_argument("--out", metavar="FILE.png", help="save a bar chart (needs matplotlib)")
    args = ap.parse_args(argv)
    config = ArenaConfig(parse_player(args.a), parse_player(args.b), args.seed, per_decision=True)
    run = run_arena(config, args.deals, args.results, args.jobs)
    summary = arena_dict(run.summary, run)
    print(format_table(summary))
    print(f"played {len(run.played)} deals in {run.seconds:.1f} s ({run.jobs} job{'s' if run.jobs != 1 else ''})"
          + (f", {run.resumed} from {args.results}" if run.resumed else ""))
    if run.interrupted:
        print("interrupted: the table above rests on the deals done", file=sys.stderr)
        return 130
    if args.out:
        print(f"plot saved to {args.out}" if plot(summary, args.out)
              else "matplotlib is not installed: no plot saved")
    return 0


if __name__ == "__main__":
    sys.exit(main())
