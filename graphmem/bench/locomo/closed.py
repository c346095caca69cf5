"""What retrieval adds over the closed book: each ``<memory>+model`` column minus ``closed``, per half.

Why this difference and not the ``+model`` column alone: the model may have seen LoCoMo in
training, and a small one may guess an answer's shape. ``closed`` asks it the same questions in
the same shape with no evidence, so ``+model`` minus ``closed`` is what the memory's evidence is
worth to that model; only that can be credited to retrieval. The interval is
:func:`graphmem.bench.locomo.stats.bootstrap_pairs`' exact conversation bootstrap, over the
conversations the file holds (with ``bench --sample``, those the sampled questions come from).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from graphmem.bench.locomo.model_columns import CLOSED, SUFFIX
from graphmem.bench.locomo.stats import Predictions, bootstrap_pairs

__all__ = ["closed_book", "render", "as_json"]


def closed_book(preds: Predictions, level: float = 0.95) -> list[dict[str, Any]]:
    """One row per (``+model`` column, half): ``a``, ``half``, ``diff`` (mean F1 of a minus closed),
    ``lo``, ``hi``; empty when the file has no ``closed`` column."""
    if CLOSED not in preds.arms:
        return []
    rows = []
    for arm in preds.arms:
        if arm.endswith(SUFFIX):
            pair = replace(preds, arms=(arm, CLOSED))  # a view with the two columns only: one pair
            rows += [{k: r[k] for k in ("a", "half", "diff", "lo", "hi")} for r in bootstrap_pairs(pair, level)]
    return rows


def _signed(value: float | None) -> str:
    return "n/a" if value is None else f"{value:+.3f}"


def render(preds: Predictions) -> str:
    """The report's section (empty string without a ``closed`` column)."""
    rows = closed_book(preds)
    if not rows:
        return ""
    n = len(preds.samples)
    width = max(len("a"), *(len(r["a"]) for r in rows))
    lines = [f"what the evidence adds over the closed book, mean F1 of a minus {CLOSED}, 95% percentile "
             f"bootstrap over conversations (all {math.comb(2 * n - 1, n):,} resamples, exact):",
             f"  {'a':<{width}}  {'half':<11}    diff  95% interval"]
    for r in rows:
        interval = "n/a" if r["lo"] is None else f"[{_signed(r['lo'])}, {_signed(r['hi'])}]"
        lines.append(f"  {r['a']:<{width}}  {r['half']:<11}  {_signed(r['diff']):>6}  {interval}")
    return "\n".join(lines) + "\n"


def as_json(preds: Predictions) -> dict[str, Any]:
    """``{"closed_book": rows}`` for ``graphmem stats --json``; empty without a ``closed`` column."""
    rows = closed_book(preds)
    return {"closed_book": rows} if rows else {}
