"""The model columns of ``graphmem bench --model``: ``<memory>+model`` per memory, and ``closed``.

Why these columns and no others: a model column is only worth quoting beside its control.
``<memory>+model`` hands the model the turns that memory cited, after the memory's own floor
(below it the memory has nothing and no model is asked: the column is quiet exactly where its
deterministic column is), so it differs from that column in the reader alone. ``closed`` asks
the same model the same questions in the same answer shape with no evidence and no floor: what
the model already knew, LoCoMo seen in training included. What a ``+model`` column has over
``closed`` is what can be credited to retrieval (``graphmem stats`` prints that difference).

One model column per distinct memory: ``graph`` and ``graph+set`` cite the same turns, so they
share ``graph+model``. A column is placed right after its memory's last column, ``closed`` last.
Every prompt goes through one :class:`~graphmem.bench.model.client.ModelReader` call, so
identical prompts (two memories citing the same turns) are asked once. A failed call is a decline.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path

from graphmem.bench.model.reader import closed_prompt, evidence_prompt
from graphmem.bench.model.cache import DEFAULT_DIR, AnswerCache
from graphmem.bench.model.client import ModelReader, ModelSettings, Tally
from graphmem.answer.reader import ABSTAIN
from graphmem.bench.arms.registry import base
from graphmem.bench.locomo.model_columns import CLOSED, SUFFIX, model_columns
from graphmem.bench.locomo.run import Answers, ArmAnswer, Prepared
from graphmem.errors import GraphmemError

__all__ = ["ModelRun", "add_model_arms", "make_reader"]


@dataclass
class ModelRun:
    """What the model columns cost: the reader's tally, and which model at which URL."""

    name: str
    url: str
    tally: Tally
    replies: int

    def line(self) -> str:
        return f"model {self.name} at {self.url}: {self.tally.line()}, for {self.replies} replies"

    def cost(self) -> str:
        return f"model cost: {self.tally.cost()}"


def add_model_arms(prep: Prepared, answers: Answers, floor: float, reader: ModelReader) -> ModelRun:
    """Ask the model for every model column and add them to ``answers`` and ``prep.arms``.

    A ``+model`` answer keeps its memory's context and confidence (so recall, the floor and the
    confidence AUC are the memory's); its reply is the model's, or the abstention where the
    memory was below the floor, the call failed, or the model wrote nothing (an empty reply is a
    decline too). ``closed`` cites nothing and has no floor (its confidence is 1, so the floor
    never silences it; the predictions file leaves it out, see :func:`graphmem.bench.locomo.report.predictions`).
    """
    t = time.process_time()
    columns = model_columns(prep.arms)
    source = {base(a): a for a in reversed(prep.arms)}  # a memory's first column holds its citations
    jobs: list[tuple[str, int, int, str]] = []  # (column, conversation, question, prompt)
    for column in columns:
        if column == CLOSED:
            jobs += [(column, c, q.index, closed_prompt(q.text))
                     for c, ctx in enumerate(prep.contexts) for q in ctx.conv.questions]
        elif column.endswith(SUFFIX) and column not in prep.arms:
            memory = source[column[: -len(SUFFIX)]]
            for c, ctx in enumerate(prep.contexts):
                for q in ctx.conv.questions:
                    a = answers[memory][c][q.index]
                    if a.context and a.confidence >= floor:
                        turns = [ctx.conv.turn_by_id[d] for d in a.context]
                        jobs.append((column, c, q.index, evidence_prompt(q.text, turns)))
    prep.timer.add("model prompts", t)
    replies, tally = reader.replies([p for *_, p in jobs])
    t = time.process_time()
    got = {(column, c, i): reply for (column, c, i, _), reply in zip(jobs, replies)}
    for column in columns:
        if column in prep.arms:
            continue
        memory = None if column == CLOSED else source[column[: -len(SUFFIX)]]
        per_conv = []
        for c, ctx in enumerate(prep.contexts):
            rows = []
            for q in ctx.conv.questions:
                reply = got.get((column, c, q.index)) or ABSTAIN  # not asked, or the call failed
                if memory is None:
                    rows.append(ArmAnswer(reply, (), 1.0))
                else:
                    a = answers[memory][c][q.index]
                    rows.append(ArmAnswer(reply, a.context, a.confidence))
            per_conv.append(rows)
        answers[column] = per_conv
    prep.arms[:] = columns
    prep.timer.add("model prompts", t)
    return ModelRun(reader.name, reader.client.chat_url, tally, len(jobs))


KEY_ENV = "GRAPHMEM_MODEL_KEY"
"""The endpoint's key, if it needs one: read from the environment only, so it is never on a command line."""


def make_reader(url: str, name: str | None = None, parallel: int = 1, cache: str | Path | None = None,
                key: str | None = None, env: str = "GRAPHMEM_MODEL_URL") -> ModelReader:
    """A reader over one endpoint with replies kept under ``cache`` (default ``~/.cache/graphmem/model``);
    bought replies are reported on stderr every 50, so stdout stays the same from run to run."""
    if not url:
        raise GraphmemError(f"no model URL: give one, or set ${env} (e.g. http://127.0.0.1:8088/v1)")
    settings = ModelSettings(url=url, name=name or None, key=key, parallel=parallel)
    return ModelReader(settings, AnswerCache(cache or DEFAULT_DIR), progress=_progress)


def _progress(done: int, total: int) -> None:
    if done % 50 == 0 or done == total:
        print(f"model endpoint: {done}/{total} replies bought", file=sys.stderr, flush=True)
