"""The model reader and the judge on LongMemEval (``graphmem longmemeval --model URL --judge URL``).

Why these two, as they are: LongMemEval grades answers with a model judge, since its gold answers
are often sentences an extractive phrase cannot match word for word (token F1 is only the
extractive reader's yardstick). So a model reads each question's evidence and a judge grades the
reply, exactly as ``graphmem bench --model`` and ``graphmem stats --judge`` do on LoCoMo:

- the model reads what the extractive reader read, the all-turns memory's first five turns, each
  with its date and speaker, in the one prompt every model column uses
  (:func:`graphmem.bench.model.reader.evidence_prompt`); where the memory's confidence is below the
  floor it is not asked and the reply is the abstention, as the bench's ``+model`` columns do;
- the judge grades the reply of each answerable question against its gold answer with the one
  judge prompt (:mod:`graphmem.bench.model.judging`); a reply that declines is graded wrong unasked.
  ``_abs`` questions are not judged: their right answer is to decline, which the quiet rate on
  ``_abs`` counts.

The judge prompt is graphmem's own, not LongMemEval's per-type GPT-4o prompts, so J here is
comparable across graphmem's runs and benchmarks, not with the paper's figures.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from statistics import mean
from typing import Any

from graphmem.bench.model.judging import declines, judge_prompt, verdict
from graphmem.bench.model.client import ModelReader, Tally
from graphmem.answer.reader import ABSTAIN
from graphmem.bench.longmemeval.metrics import token_f1
from graphmem.bench.longmemeval.run import Result

__all__ = ["GRADES", "judge", "read", "render", "summary"]

GRADES = ("correct", "wrong", "declined", "unreadable", "failed")
"""A judged reply's grade; only ``correct`` counts towards J."""


def read(results: Sequence[Result], reader: ModelReader) -> Tally:
    """Ask the model every question whose prompt was kept; the rest abstain unasked."""
    asked = [r for r in results if r.prompt]
    replies, tally = reader.replies([r.prompt for r in asked])
    got = {id(r): reply for r, reply in zip(asked, replies, strict=True)}
    for r in results:
        reply = got.get(id(r)) or ABSTAIN  # not asked, the call failed, or nothing written: a decline
        r.model_reply = reply
        r.model_f1 = 0.0 if r.abstention else token_f1(reply, r.answer)
    return tally


def judge(results: Sequence[Result], reader: ModelReader) -> Tally:
    """Grade the model's reply to every answerable question (``read`` first)."""
    asks = []
    for r in results:
        if r.abstention or r.model_reply is None:
            continue
        if declines(r.model_reply):
            r.verdict = "declined"
        else:
            asks.append(r)
    replies, tally = reader.replies([judge_prompt(r.question, r.answer, r.model_reply or "") for r in asks])
    for r, reply in zip(asks, replies, strict=True):
        grade = verdict(reply)
        r.verdict = "failed" if reply is None else "unreadable" if grade is None else "correct" if grade else "wrong"
    return tally


def _mean(values: list[float]) -> float | None:
    return mean(values) if values else None


def summary(by_type: Mapping[str, Sequence[Result]]) -> dict[str, Any]:
    """Per question type (its results, ``by_type``): quiet rates, token F1 and J of the model's
    replies, and how many verdicts each grade got."""
    out = {}
    for qtype, results in by_type.items():
        rows = [r for r in results if r.model_reply is not None]
        answerable = [r for r in rows if not r.abstention]
        judged = [r for r in answerable if r.verdict]
        out[qtype] = {
            "n": len(rows), "abstention": len(rows) - len(answerable),
            "quiet_answerable": _mean([r.model_reply == ABSTAIN for r in answerable]),
            "quiet_abstention": _mean([r.model_reply == ABSTAIN for r in rows if r.abstention]),
            "f1": _mean([r.model_f1 for r in answerable]),
            "j": _mean([r.verdict == "correct" for r in judged]),
            "grades": {g: sum(r.verdict == g for r in judged) for g in GRADES},
        }
    return out


def render(s: dict[str, Any], cell: Callable[..., str]) -> list[str]:
    """The model's answers table (``cell`` formats a figure or a dash)."""
    who = s["model_run"]
    judged = f"; judged by {who['judge']}" if who.get("judge") else ""
    lines = [f"answers (model {who['model']} over the same top 5{judged})",
             f"  {'type':<26} {'n':>4} {'abs':>4}  {'quiet ans':>9}  {'quiet abs':>9}  {'F1':>6}  {'J':>6}"]
    for qtype, a in s["model"].items():
        lines.append(f"  {qtype:<26} {a['n']:>4} {a['abstention']:>4}  {cell(a['quiet_answerable'], 9)}  "
                     f"{cell(a['quiet_abstention'], 9)}  {cell(a['f1'])}  {cell(a['j'])}")
    every = s["model"]["all"]["grades"]
    if who.get("judge"):
        lines.append("  verdicts: " + ", ".join(f"{g} {every[g]}" for g in GRADES))
    lines += [f"  model: {who['model_cost']}"] + ([f"  judge: {who['judge_cost']}"] if who.get("judge") else [])
    return lines
