"""``dobbm bench``: the benchmark's signature and speed (:class:`~dobbm_solver.bench.BenchResult`)
as JSON and as text."""

from __future__ import annotations

from typing import Any

from ..bench import BENCH_TT_MB, BenchResult, Signature

__all__ = ["bench_dict", "bench_text"]


def _signature_dict(sig: Signature) -> dict[str, int]:
    return {"value_nodes": sig.value_nodes, "analysis_nodes": sig.analysis_nodes, "nodes": sig.nodes}


def bench_dict(result: BenchResult, version: str) -> dict[str, Any]:
    """The JSON object of a benchmark run: the signature, the expected one (None for a table
    size with no committed figures), whether they match, and the speed."""
    return {
        "version": version,
        "deals": result.deals,
        "threads": 1,
        "tt_mb": result.tt_mb,
        **_signature_dict(result.signature),
        "expected": None if result.expected is None else _signature_dict(result.expected),
        "matches": result.matches,
        "seconds": round(result.seconds, 4),
        "seconds_per_deal": round(result.seconds_per_deal, 6),
        "nodes_per_second": round(result.nodes_per_second),
    }


def _nodes(sig: Signature) -> str:
    return f"{sig.nodes} nodes ({sig.value_nodes} value, {sig.analysis_nodes} every card)"


def bench_text(result: BenchResult, version: str) -> str:
    """A benchmark run: what was solved, the signature against the expected one, the speed."""
    lines = [f"dobbm bench {version}: {result.deals} deals from the opening lead, the value and every card's "
             f"value; one thread, a table of {result.tt_mb} MiB",
             f"  signature: {_nodes(result.signature)}"]
    if result.expected is None:
        lines.append(f"  expected:  none for a table of {result.tt_mb} MiB (the committed figures are for "
                     f"{BENCH_TT_MB} MiB)")
    elif result.matches:
        lines.append(f"  expected:  {_nodes(result.expected)}: matches")
    else:
        lines.append(f"  expected:  {_nodes(result.expected)}: DIFFERS, the search is not the one "
                     "the figures were made with")
    lines.append(f"  time: {result.seconds:.2f} s, {1000 * result.seconds_per_deal:.2f} ms a deal, "
                 f"{result.nodes_per_second / 1e6:.1f} million nodes a second")
    return "\n".join(lines)
