"""What ``graphmem bench`` prints and writes: the tables, the side-by-side replies, the census, predictions.

Apart from the run (:mod:`graphmem.bench.locomo.run`) so that its stages serve the sweeps and the
measurement scripts, which print their own tables. Everything here reads a finished run;
the one figure computed here, session hit@1, is a way of reading the cited turns that only
the printed table reports.
"""

from __future__ import annotations

from collections.abc import Sequence

from graphmem.answer.reader import ReaderSettings
from graphmem.bench.arms.scope import resolution
from graphmem.bench.locomo.model_columns import CLOSED
from graphmem.bench.locomo.run import Answers, Cell, Prepared
from graphmem.data.locomo import CATEGORIES


def settings_line(k: int, floor: float, settings: ReaderSettings) -> str:
    shown = f"{floor:.2f}" if round(floor, 2) == floor else f"{floor:.3f}"  # a fitted floor keeps its third digit
    return f"k={k} floor={shown} span={settings.span} band={settings.band:.2f} parts={settings.parts}"


CELL = "      F1 recall  quiet"
"""The table's figures under one arm: the width every arm's column has at least."""


def _width(name: str, least: int) -> int:
    """An arm's column: ``least`` wide, or wider so that two spaces always part its name from the
    column before (arm names are open-ended: ``graph+edge``, ``path+set+model``)."""
    return max(least, len(name) + 2)


def render_table(arms: Sequence[str], table: dict[str, dict[str, Cell]]) -> str:
    """The specification's table: a row of arm names, a header, then one row per group."""
    widths = [_width(a, len(CELL)) for a in arms]
    lines = [" " * 14 + "".join(a.rjust(w) for a, w in zip(arms, widths))]
    lines.append("category".ljust(14) + "n".rjust(6) + "".join(CELL.rjust(w) for w in widths))
    for row, cells in table.items():
        n = next(iter(cells.values())).n
        line = row.ljust(14) + str(n).rjust(6)
        for a, w in zip(arms, widths):
            c = cells[a]
            line += f"{c.f1:8.3f}{c.recall:7.3f}{round(100 * c.quiet):6d}%".rjust(w)
        lines.append(line)
    return "\n".join(lines)


def render_reach(arms: Sequence[str], table: dict[str, dict[str, Cell]]) -> str:
    """What each index can reach at all: recall per category when k exceeds every index."""
    widths = [_width(a, 10) for a in arms]
    lines = ["category".ljust(14) + "n".rjust(4) + "".join(a.rjust(w) for a, w in zip(arms, widths))]
    for row, cells in table.items():
        if row in ("answerable", "overall"):
            continue
        n = next(iter(cells.values())).n
        lines.append(row.ljust(14) + str(n).rjust(4)
                     + "".join(f"{cells[a].recall:.3f}".rjust(w) for a, w in zip(arms, widths)))
    return "\n".join(lines)


def render_show(prep: Prepared, answers: Answers, floor: float, n: int) -> str:
    """N questions per category with every arm's reply and cited ids side by side."""
    out = []
    width = max(len(a) for a in prep.arms)
    for cat, name in CATEGORIES.items():
        shown = 0
        for c, ctx in enumerate(prep.contexts):
            for q in ctx.conv.questions:
                if q.category != cat or shown >= n:
                    continue
                shown += 1
                ref = q.answer or f"(adversarial: {q.adversarial_answer})"
                out.append(f"[{name}] {ctx.conv.id} Q {q.text}\n  answer: {ref}   evidence: {' '.join(q.evidence)}")
                for arm in prep.arms:
                    a = answers[arm][c][q.index]
                    out.append(f"  {arm.ljust(width)} : {a.at(floor)!r:<40} ctx=[{' '.join(a.context)}]")
                out.append("")
    return "\n".join(out)


def session_hits(prep: Prepared, answers: Answers) -> dict[str, float]:
    """Per arm, session hit@1: the share of questions with evidence whose first cited turn
    lies in a session that holds some of it (how retrieval is scored in some LoCoMo work)."""
    out = {}
    for arm in prep.arms:
        hit = total = 0
        for c, ctx in enumerate(prep.contexts):
            for q in ctx.conv.questions:
                if not q.evidence:
                    continue
                total += 1
                context = answers[arm][c][q.index].context
                if context:
                    sessions = {ctx.conv.turn_by_id[e].session for e in q.evidence}
                    hit += ctx.conv.turn_by_id[context[0]].session in sessions
        out[arm] = hit / total if total else 0.0
    return out


def render_subjects(prep: Prepared) -> str:
    """How many questions name a speaker, resolve to anyone known, or fall back to everything."""
    if not prep.contexts or prep.contexts[0].reading is None:
        return ""
    total, speaker, resolved, fallback = resolution(prep.contexts)
    return (f"subjects: {speaker} of {total} questions name a speaker, {resolved} resolve to someone known"
            f" ({resolved / total:.2%}), {fallback} fall back to searching everything")


def render_census(prep: Prepared) -> str:
    """What was built, per conversation: turns, terms, claims, nodes, edges, derived."""
    lines = []
    for ctx in prep.contexts:
        c = ctx.extra.get("census")
        if c is None:
            continue
        lines.append(
            f"{ctx.conv.id:<10}{c['turns']:5d} turns {len(ctx.vocab):6d} terms {c['claims']:7d} claims"
            f" {c['nodes']:6d} nodes {c['edges']:7d} edges {c['derived']:5d} derived"
        )
    return "\n".join(lines)


def predictions(prep: Prepared, answers: Answers, floor: float) -> list[dict]:
    """The official LoCoMo layout, so task_eval/evaluation.py can score it per arm."""
    out = []
    for c, ctx in enumerate(prep.contexts):
        qa = []
        for q in ctx.conv.questions:
            row: dict = {"question": q.text, "answer": q.answer, "evidence": list(q.evidence), "category": q.category}
            if q.adversarial_answer is not None:
                row["adversarial_answer"] = q.adversarial_answer
            for arm in prep.arms:
                a = answers[arm][c][q.index]
                row[f"{arm}_prediction"] = a.at(floor)
                row[f"{arm}_prediction_context"] = list(a.context)
                if arm != CLOSED:  # the closed book has no confidence: its 1.0 only says "no floor"
                    row[f"{arm}_confidence"] = round(a.confidence, 6)
            qa.append(row)
        out.append({"sample_id": ctx.conv.id, "qa": qa})
    return out

