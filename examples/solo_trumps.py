"""How often does the declarer win a Solo holding k trumps?

Deals ``--deals`` seeded random hands (``random.Random(--seed)``, one
``dealer.random_deal(rng, contract="solo")`` each: the strongest hand by
``hand_strength`` declares a Solo, whatever its strength), solves them all
exactly with open cards through the batch study (``dobbm_solver.study``, all
local cores unless ``--jobs``), and prints a table by the number of hearts the
declarer holds: deals, declarer wins, win %, mean declarer points.  With
``--out FILE.png`` and matplotlib installed (``pip install 'dobbm-solver[plot]'``)
it also saves the table as a bar chart.

    python examples/solo_trumps.py --deals 1000 --seed 7 --out examples/solo_trumps.png

The results go to ``--results FILE`` (JSON lines or CSV, resumable: run the
command again after Ctrl-C and only the missing deals are solved); without it
to a temporary file that is removed at the end.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from typing import Any

from dobbm_solver.dealer import random_deal
from dobbm_solver.study import StudyInterrupted, deals_from, read_results, run_study


def make_deals(n: int, seed: int) -> list:
    """``n`` Solo deals from ``random.Random(seed)``, ids ``solo-SEED#I``."""
    rng = random.Random(seed)
    return [(f"solo-{seed}#{i}", random_deal(rng, contract="solo")) for i in range(1, n + 1)]


def trump_table(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One entry per trump count k: deals, wins, win %, mean declarer points."""
    by_k: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        by_k.setdefault(int(r["trumps"]), []).append(r)
    out = []
    for k in sorted(by_k):
        rs = by_k[k]
        wins = sum(r["outcome"] == "win" for r in rs)
        out.append({"trumps": k, "deals": len(rs), "wins": wins,
                    "win_pct": 100.0 * wins / len(rs),
                    "mean_points": sum(int(r["declarer_points"]) for r in rs) / len(rs)})
    return out


def format_table(table: list[dict[str, Any]]) -> str:
    lines = ["trumps  deals  declarer wins  win %  mean points",
             "------  -----  -------------  -----  -----------"]
    for t in table:
        lines.append(f"{t['trumps']:>6}  {t['deals']:>5}  {t['wins']:>13}  {t['win_pct']:>5.1f}"
                     f"  {t['mean_points']:>11.1f}")
    n = sum(t["deals"] for t in table)
    w = sum(t["wins"] for t in table)
    mean = sum(t["mean_points"] * t["deals"] for t in table) / n if n else 0.0
    lines.append(f"{'all':>6}  {n:>5}  {w:>13}  {100.0 * w / n if n else 0:>5.1f}  {mean:>11.1f}")
    return "\n".join(lines)


def plot(table: list[dict[str, Any]], path: str, title: str) -> bool:
    """Save the table as a PNG bar chart; False if matplotlib is not installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    ks = [t["trumps"] for t in table]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.6), constrained_layout=True)
    bars = ax1.bar(ks, [t["win_pct"] for t in table], color="#b22222", width=0.7)
    for b, t in zip(bars, table):
        ax1.annotate(f"{t['win_pct']:.0f}%\nn={t['deals']}", (b.get_x() + b.get_width() / 2, b.get_height()),
                     ha="center", va="bottom", fontsize=9, xytext=(0, 2), textcoords="offset points")
    ax1.set_ylim(0, 119)
    ax1.set_ylabel("declarer wins (%)")
    ax1.set_title("Solo won with best play")
    bars = ax2.bar(ks, [t["mean_points"] for t in table], color="#4a6fa5", width=0.7)
    for b, t in zip(bars, table):
        ax2.annotate(f"{t['mean_points']:.0f}", (b.get_x() + b.get_width() / 2, b.get_height()),
                     ha="center", va="bottom", fontsize=9, xytext=(0, 2), textcoords="offset points")
    ax2.axhline(61, color="0.35", linestyle="--", linewidth=1, zorder=0, label="61 points: the declarer wins")
    ax2.legend(loc="upper left", frameon=False, fontsize=9)
    ax2.set_ylim(0, 129)
    ax2.set_ylabel("mean declarer points (of 120)")
    ax2.set_title("Declarer's points with best play")
    for ax in (ax1, ax2):
        ax.set_xlabel("hearts (trumps) in the declarer's 8 cards")
        ax.set_xticks(ks)
        ax.spines[["top", "right"]].set_visible(False)
    fig.suptitle(title, fontsize=12)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=1000, help="number of deals (default 1000)")
    ap.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    ap.add_argument("--results", metavar="FILE", help="keep the per-deal results here (.jsonl or .csv; resumable)")
    ap.add_argument("--out", metavar="PNG", help="save a bar chart here (needs matplotlib)")
    args = ap.parse_args(argv)
    if args.deals < 1:
        ap.error("--deals must be at least 1")

    t0 = time.perf_counter()
    deals = make_deals(args.deals, args.seed)
    items = deals_from(deals)
    t_deal = time.perf_counter() - t0
    tmpdir = None
    results = args.results
    if results is None:
        tmpdir = tempfile.TemporaryDirectory(prefix="solo_trumps.")
        results = os.path.join(tmpdir.name, "results.jsonl")
    try:
        try:
            summary = run_study(items, results, jobs=args.jobs)
        except StudyInterrupted as e:
            print(f"\n{e.summary.text()}", file=sys.stderr)
            return 130
        ids = {it.id for it in items}
        rows = [r for r in read_results(results) if r["id"] in ids]
    finally:
        if tmpdir is not None:
            tmpdir.cleanup()

    table = trump_table(rows)
    print(f"{args.deals} seeded Solo deals (seed {args.seed}), declarer the strongest hand, "
          f"solved exactly with open cards")
    print(format_table(table))
    print(f"dealt in {t_deal:.1f} s; {summary.text()}")
    if args.out:
        if plot(table, args.out, f"Solo by the strongest hand: {len(rows)} deals, seed {args.seed}"):
            print(f"plot saved to {args.out}")
        else:
            print("matplotlib is not installed (pip install 'dobbm-solver[plot]'): no plot saved")
    return 0


if __name__ == "__main__":
    sys.exit(main())
