"""The LLM-judge score (J) that published LoCoMo figures are quoted in, kept apart from the official F1.

Why a judge at all: Mem0, Zep, LangMem and A-Mem report "J", the share of answerable questions a
judge model grades correct, and a user comparing graphmem with them needs the same kind of
figure. Why apart from F1: a judge is a model with its own leniency, and J moves with the judge;
the official token F1 does not. So J is printed in its own section, with the judge model's name
beside it, never in place of F1.

The judge prompt (:data:`graphmem.bench.model.judging.PROMPT`, shared with ``graphmem longmemeval
--judge``) is this repository's own: the question, the reference, the reply, and a one-word
verdict, CORRECT or WRONG, lenient on wording and length, strict on facts and dates. The first of
those two words in the judge's tidied reply is the verdict; a reply with neither is counted wrong
and counted as unreadable, in the open. Only answerable questions are
graded (adversarial ones have no reference to hold a reply against; F1 scores them). A reply
that declines (the official scorer's abstention phrases) cannot be a correct answer to an
answerable question and is graded wrong without asking. Verdicts are kept on disk like answers
(:mod:`graphmem.bench.model.cache`), so a repeated ``graphmem stats --judge`` costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from graphmem.bench.model.judging import PROMPT, declines, judge_prompt, verdict
from graphmem.bench.model.client import ModelReader, Tally
from graphmem.bench.locomo.model_columns import CLOSED, SUFFIX
from graphmem.bench.locomo.stats import Predictions
from graphmem.errors import GraphmemError

__all__ = ["PROMPT", "judge_prompt", "verdict", "JudgedArm", "Judged", "judge", "judged_arms", "render", "as_json"]

@dataclass
class JudgedArm:
    """One arm's grades over the answerable questions."""

    n: int = 0
    correct: int = 0
    declined: int = 0  # graded wrong without asking: an abstention is no answer
    unreadable: int = 0  # the judge wrote neither word: counted wrong
    failed: int = 0  # the call failed: counted wrong

    @property
    def j(self) -> float:
        return self.correct / self.n if self.n else 0.0


@dataclass
class Judged:
    """Every judged arm's grades, and what the verdicts cost."""

    name: str
    url: str
    arms: dict[str, JudgedArm] = field(default_factory=dict)
    tally: Tally = field(default_factory=Tally)


def judged_arms(preds: Predictions, wanted: str | None) -> list[str]:
    """The arms to grade: ``wanted`` (a comma list), else the model columns, else every arm."""
    if wanted:
        arms = [a.strip() for a in wanted.split(",") if a.strip()]
        unknown = [a for a in arms if a not in preds.arms]
        if unknown or not arms:
            raise GraphmemError(f"{preds.path}: no arm {', '.join(unknown) or '(none given)'} to judge "
                                f"(arms: {', '.join(preds.arms)})")
        return arms
    models = [a for a in preds.arms if a.endswith(SUFFIX) or a == CLOSED]
    return models or list(preds.arms)


def judge(preds: Predictions, arms: Sequence[str], reader: ModelReader,
          progress: Callable[[int, int], None] | None = None) -> Judged:
    """Grade each arm's reply to each answerable question with the judge model."""
    asks: list[tuple[str, str]] = []  # (arm, prompt) for every reply the judge must read
    out = Judged(reader.name, reader.client.chat_url, {arm: JudgedArm() for arm in arms})
    for q in preds.questions:
        if not q.answerable:
            continue
        for arm in arms:
            reply = q.replies[arm]
            out.arms[arm].n += 1
            if declines(reply):
                out.arms[arm].declined += 1
            else:
                asks.append((arm, judge_prompt(q.text, q.answer, reply)))
    replies, out.tally = reader.replies([p for _, p in asks], progress)
    for (arm, _), reply in zip(asks, replies):
        grade = verdict(reply)
        cell = out.arms[arm]
        if reply is None:
            cell.failed += 1
        elif grade is None:
            cell.unreadable += 1
        elif grade:
            cell.correct += 1
    return out


def render(result: Judged | None) -> str:
    """The report's judge section: J per arm with the judge named, and the verdicts' cost ("" without a judge)."""
    if result is None:
        return ""
    width = max(len("arm"), *(len(a) for a in result.arms))
    lines = [f"LLM judge J, answerable questions, judge {result.name} at {result.url} (our own prompt; "
             f"not the official metric, reported apart from F1):",
             f"  {'arm':<{width}}      J      n  correct  declined  unreadable  failed"]
    for arm, c in result.arms.items():
        lines.append(f"  {arm:<{width}}  {c.j:5.3f}  {c.n:5d}  {c.correct:7d}  {c.declined:8d}  {c.unreadable:10d}"
                     f"  {c.failed:6d}")
    lines.append("  declined: graded wrong without asking; unreadable and failed: counted wrong")
    lines.append(f"judge: {result.tally.line()}")
    return "\n".join(lines) + "\n"


def as_json(result: Judged | None) -> dict[str, Any]:
    """``{"judge": {model, url, tally, arms: {arm: {n, correct, ..., j}}}}``; empty without a judge."""
    if result is None:
        return {}
    arms = {arm: {**asdict(c), "j": c.j} for arm, c in result.arms.items()}
    return {"judge": {"model": result.name, "url": result.url, "tally": asdict(result.tally), "arms": arms}}
