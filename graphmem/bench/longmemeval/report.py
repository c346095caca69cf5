"""A LongMemEval run summed up: retrieval beside BM25, answers, CPU time, all by question type.

The summary is a plain dict (what ``--json`` prints); the tables are read off it, so the two
never disagree. Means are over the questions a cell applies to, and every row says how many.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import mean
from typing import Any

from graphmem.bench.longmemeval import model
from graphmem.bench.longmemeval.metrics import KS, METRICS, UPDATES_K, VIEWS
from graphmem.bench.longmemeval.run import SYSTEMS, Result
from graphmem.memory.calibrated import Calibrated
from graphmem.memory.meaning import floor_text

COLUMNS = tuple(f"{m}@{k}" for m in METRICS for k in KS)
SHORT = {"recall_any": "any", "recall_all": "all", "ndcg": "ndcg"}
CPU = ("memory_index", "memory_search", "bm25_index", "bm25_search")
ALL = "all"


def _types(results: Sequence[Result]) -> list[str]:
    return sorted({r.type for r in results}) + [ALL]


def _of(results: Sequence[Result], qtype: str) -> list[Result]:
    return [r for r in results if qtype == ALL or r.type == qtype]


def _auc(results: Sequence[Result]) -> float | None:
    from sklearn.metrics import roc_auc_score  # scikit-learn: the memory imports it already; kept off --help's path

    labels = [0 if r.abstention else 1 for r in results]
    if len(set(labels)) < 2:
        return None
    return float(roc_auc_score(labels, [r.confidence for r in results]))


def _retrieval(results: Sequence[Result]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for view in VIEWS:
        for level in ("turn", "session"):
            table: dict[str, Any] = {}
            for qtype in _types(results):
                rows = {}
                for system in SYSTEMS:
                    got = [r.retrieval[key] for r in _of(results, qtype) if (key := f"{view}/{level}/{system}") in r.retrieval]
                    if got:
                        rows[system] = {"n": len(got), **{c: mean(g[c] for g in got) for c in COLUMNS}}
                if rows:
                    table[qtype] = rows
            if table:
                out[f"{view}/{level}"] = table
    return out


def _answers(results: Sequence[Result]) -> dict[str, Any]:
    out = {}
    for qtype in _types(results):
        rows = _of(results, qtype)
        answerable = [r for r in rows if not r.abstention]
        abstain = [r for r in rows if r.abstention]
        out[qtype] = {
            "n": len(rows), "answerable": len(answerable), "abstention": len(abstain),
            "quiet_answerable": mean(r.quiet for r in answerable) if answerable else None,
            "quiet_abstention": mean(r.quiet for r in abstain) if abstain else None,
            "f1": mean(r.f1 for r in answerable) if answerable else None,
            "auc": _auc(rows),
        }
    return out


UPDATE_TYPE = "knowledge-update"


def _updates(results: Sequence[Result]) -> dict[str, Any]:
    """The knowledge-update rates per system, over that type's questions whose evidence spans an
    older and a newer session."""
    rows = [r for r in results if r.type == UPDATE_TYPE and r.updates]
    out = {}
    for system in dict.fromkeys(name for r in rows for name in r.updates):
        got = [r.updates[system] for r in rows if system in r.updates]
        out[system] = {"n": len(got), **{m: mean(g[m] for g in got) for m in ("newest_first", "stale_top")}}
    return out


def _cpu(results: Sequence[Result]) -> dict[str, Any]:
    out = {}
    for qtype in _types(results):
        rows = _of(results, qtype)
        out[qtype] = {"n": len(rows), **{p: mean(r.cpu.get(p, 0.0) for r in rows) for p in CPU}}
    return out


def summary(results: Sequence[Result], header: dict[str, Any]) -> dict[str, Any]:
    """Everything the tables print, as one JSON-ready dict (the model's answers when it read them)."""
    total = sum(sum(r.cpu.values()) for r in results)
    by_type = {qtype: _of(results, qtype) for qtype in _types(results)}
    read = {"model": model.summary(by_type)} if any(r.model_reply is not None for r in results) else {}
    measures = {m: sum(r.measure == m for r in results) for m in dict.fromkeys(r.measure for r in results)}
    return {**header, "questions": len(results), "measures": measures, "cpu_seconds": total,
            "retrieval": _retrieval(results), "updates": _updates(results), "answers": _answers(results), **read,
            "cpu": _cpu(results)}


def _cell(value: float | None, width: int = 6) -> str:
    return f"{value:{width}.3f}" if value is not None else " " * (width - 1) + "-"


def _retrieval_table(name: str, table: dict[str, Any]) -> list[str]:
    view, level = name.split("/")
    head = "  ".join(f"{SHORT[c.split('@')[0]]}@{c.split('@')[1]:<2}" for c in COLUMNS)
    lines = [f"retrieval, {level} level, {'all turns' if view == 'all' else 'official view (user turns)'}",
             f"  {'type':<26} {'system':<14} {'n':>4}  {head}"]
    for qtype, rows in table.items():
        for system, row in rows.items():
            label = qtype if system == next(iter(rows)) else ""
            cells = "  ".join(_cell(row[c]) for c in COLUMNS)
            lines.append(f"  {label:<26} {system:<14} {row['n']:>4}  {cells}")
    return lines


def format_tables(s: dict[str, Any]) -> str:
    """The report: the run's header, the retrieval tables, the answers and the CPU time."""
    lines = [f"{s['data']} ({s['variant']}): {s['questions']} questions, {_confidence_line(s)}", ""]
    for name, table in s["retrieval"].items():
        lines += _retrieval_table(name, table) + [""]
    if s.get("updates"):
        lines.append(f"knowledge updates (evidence in an older and a newer session; all turns, top {UPDATES_K})")
        lines.append(f"  {'system':<14} {'n':>4}  {'newest first':>12}  {'top turn stale':>14}")
        for system, u in s["updates"].items():
            lines.append(f"  {system:<14} {u['n']:>4}  {u['newest_first']:>12.3f}  {u['stale_top']:>14.3f}")
        lines.append("")
    lines.append("answers (extractive reader over the all-turns memory's top 5)")
    lines.append(f"  {'type':<26} {'n':>4} {'abs':>4}  {'quiet ans':>9}  {'quiet abs':>9}  {'F1':>6}  {'AUC':>6}")
    for qtype, a in s["answers"].items():
        lines.append(f"  {qtype:<26} {a['n']:>4} {a['abstention']:>4}  {_cell(a['quiet_answerable'], 9)}  "
                     f"{_cell(a['quiet_abstention'], 9)}  {_cell(a['f1'])}  {_cell(a['auc'])}")
    if "model" in s:
        lines += [""] + model.render(s, _cell)
    lines += ["", "CPU seconds per question (every view)",
              f"  {'type':<26} {'n':>4}  {'memory index':>12}  {'memory search':>13}  {'bm25 index':>10}  {'bm25 search':>11}"]
    for qtype, c in s["cpu"].items():
        lines.append(f"  {qtype:<26} {c['n']:>4}  {c['memory_index']:>12.3f}  {c['memory_search']:>13.3f}  "
                     f"{c['bm25_index']:>10.3f}  {c['bm25_search']:>11.3f}")
    every = s["cpu"][ALL]
    ratio = f"{every['memory_index'] / every['bm25_index']:.1f}x BM25's" if every["bm25_index"] else "no BM25 run"
    lines.append(f"index build: {ratio}; run CPU {s['cpu_seconds']:.1f} s")
    return "\n".join(lines)


def _confidence_line(s: dict[str, Any]) -> str:
    """The confidences ``ask`` abstained by, each with its floor and how many questions it judged."""
    floors = {"coverage": f"floor {floor_text(s['floor'])}",
              "meaning": f"floor {floor_text(s.get('meaning_floor', 0.0))}"}
    if "calibrated" in (s.get("measures") or {}):
        heads = Calibrated.load().heads
        floors["calibrated"] = " / ".join(f"{h} floor {floor_text(heads[h].floor)}" for h in heads)
    judged = s.get("measures") or {"coverage": s["questions"]}
    return ", ".join(f"{m} confidence ({floors[m]}) on {n}" for m, n in judged.items())


def per_question(results: Sequence[Result]) -> list[dict[str, Any]]:
    """What ``--out`` writes: one object per question (reply, confidence, scores, top ids, CPU)."""
    return [{"question_id": r.id, "question_type": r.type, "abstention": r.abstention, "question": r.question,
             "answer": r.answer, "reply": r.reply,
             "confidence": r.confidence, "measure": r.measure, "quiet": r.quiet, "f1": r.f1, "retrieval": r.retrieval,
             "top": r.top, "updates": r.updates, "cpu": r.cpu, **({"model_reply": r.model_reply, "model_f1": r.model_f1, "verdict": r.verdict}
                                            if r.model_reply is not None else {})} for r in results]
