"""What ``graphmem bench6`` prints: our scores per language and qtype, the published rows beside ours, the timing."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from graphmem.bench.bench6.adapter import Adapter
from graphmem.bench.bench6.files import LANGS, Bench, load_bench
from graphmem.bench.bench6.run import Run, run
from graphmem.bench.bench6.scoring import Summary


@dataclass(frozen=True)
class Row:
    key: str
    label: str
    summary: Summary
    ours: bool = False


def published_rows(published: Mapping[str, Any] | None, lang: str) -> list[Row]:
    """The published arms' summaries for one language (arms without that language skipped)."""
    rows: list[Row] = []
    if not published:
        return rows
    for key, arm in (published.get("arms") or {}).items():
        if not isinstance(arm, Mapping):
            continue
        s = arm.get(lang)
        if not isinstance(s, Mapping):
            continue
        hitk = s.get(f"hit@{published.get('k', 5)}", s.get("hit@5"))
        try:
            summary = Summary(0, float(s["hit@1"]), float(hitk), float(s["mrr"]))
        except (KeyError, TypeError, ValueError):
            continue
        rows.append(Row(key, str(arm.get("label") or key), summary))
    return rows


def table(rows: Sequence[Row], k: int) -> list[str]:
    """Rows sorted by hit@1, then hit@k, then MRR (descending), then name."""
    ordered = sorted(rows, key=lambda r: (-r.summary.hit1, -r.summary.hitk, -r.summary.mrr, r.key))
    width = max([len(r.key) for r in ordered] + [6])
    lines = [f"  {'system':<{width}}  hit@1  hit@{k:<2} MRR"]
    for r in ordered:
        mark = "  <- this run" if r.ours else ""
        s = r.summary
        lines.append(f"  {r.key:<{width}}  {s.hit1:.3f}  {s.hitk:.3f}  {s.mrr:.3f}{mark}")
    return lines


def render(result: Run, bench: Bench) -> str:
    k = result.k
    out = [f"bench6 ({bench.path}): {len(bench.questions)} questions, {len(bench.pool)} pool turns, k={k}, system {result.name}"]
    if bench.dangling:
        out.append(f"note: {len(bench.dangling)} evidence ids are not in the pool (they can never be hit)")
    pub_k = bench.published.get("k") if bench.published else None
    for lang, lr in result.langs.items():
        s = lr.summary
        out.append("")
        out.append(f"[{lang}] hit@1 {s.hit1:.3f}  hit@{k} {s.hitk:.3f}  MRR {s.mrr:.3f}  "
                   f"(empty results {lr.n_empty}, unknown ids {lr.n_unknown})")
        out.append(f"  by qtype{'':14} n  hit@1  hit@{k:<2} MRR")
        for t, qs in lr.qtypes.items():
            out.append(f"  {t:<20} {qs.n:>3}  {qs.hit1:.3f}  {qs.hitk:.3f}  {qs.mrr:.3f}")
        rows = published_rows(bench.published, lang)
        if rows:
            note = "" if pub_k in (None, k) else f" (published at k={pub_k}: their hit@k column is hit@{pub_k})"
            out.append(f"  beside the published results{note}:")
            out.extend(table(rows + [Row(result.name, result.name, s, ours=True)], k))
    out.append("")
    parts = [f"load {result.load_cpu:.2f} s CPU"]
    if result.load_detail:
        parts[0] += " (" + ", ".join(f"{n} {v:.2f}" for n, v in result.load_detail.items()) + ")"
    parts.append(f"ingest {result.ingest_cpu:.2f} s CPU ({result.ingest_wall:.2f} s wall)")
    for lang, lr in result.langs.items():
        parts.append(f"{lang} queries {lr.cpu:.2f} s CPU ({lr.wall:.2f} s wall)")
    total = result.ingest_cpu + sum(lr.cpu for lr in result.langs.values())
    out.append("timing: " + "; ".join(parts) + f"; ingest + queries {total:.2f} s CPU")
    return "\n".join(out)


def main_report(data_dir: str | os.PathLike | None = None, lang: str = "both", k: int = 5,
                adapter: Any | None = None) -> str:
    """What ``graphmem bench6`` prints: our scores per language and qtype, the published
    rows beside ours (sorted by hit@1), and the timing."""
    langs = LANGS if lang == "both" else (lang,)
    bench = load_bench(data_dir)
    return render(run(adapter if adapter is not None else Adapter(), bench, k, langs), bench)
