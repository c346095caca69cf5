"""What ``graphmem longmemeval`` does, kept out of the CLI so the CLI stays a thin shell."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from graphmem.bench.model.client import ModelReader
from graphmem.errors import DataError, GraphmemError
from graphmem.bench.longmemeval import load as loader
from graphmem.bench.longmemeval import model
from graphmem.bench.longmemeval.report import format_tables, per_question, summary
from graphmem.bench.longmemeval.run import Result, Settings, run
from graphmem.progress import bar as progress_bar


def longmemeval(data: str | Path | None, variant: str = "s", limit: int | None = None, as_json: bool = False,
                out: Path | None = None, settings: Settings = Settings(),
                progress: Callable[[Result], None] | None = None,
                reader: ModelReader | None = None, judge: ModelReader | None = None,
                types: tuple[str, ...] = (), quiet: bool = True) -> str:
    """Read the release, run every question (``types``: of those types only; ``limit`` applies
    first), and return the report (tables, or JSON); with ``reader`` a model reads each question's
    evidence too, and with ``judge`` its replies are graded. Unless ``quiet``, a bar counts the
    questions on a terminal's stderr (:mod:`graphmem.progress`)."""
    if judge is not None and reader is None:
        raise GraphmemError("--judge grades the model's replies: give --model too")
    path = loader.locate(data, variant)
    questions = loader.load(path, variant, limit)
    if types:
        known = {q.type for q in questions}
        if unknown := sorted(set(types) - known):
            raise DataError(f"{path}: no question of type {', '.join(unknown)} (its types: {', '.join(sorted(known))})")
        questions = [q for q in questions if q.type in types]
    if not questions:
        raise DataError(f"{path}: no questions to run")
    wall = time.perf_counter()
    with progress_bar(len(questions), "questions", quiet=quiet, unit="q") as shown:
        def done(result: Result) -> None:
            shown.update(1)
            if progress is not None:
                progress(result)

        results = run(questions, replace(settings, prompts=reader is not None), done)
    header: dict[str, Any] = {"data": str(path), "variant": variant, "floor": settings.floor,
                              "confidence": settings.confidence}
    if settings.confidence == "meaning":
        header["meaning_floor"] = settings.meaning_floor
    if reader is not None:
        header["model_run"] = _model_run(results, reader, judge)
    header["wall_seconds"] = time.perf_counter() - wall
    s = summary(results, header)
    if out is not None:
        try:
            out.write_text(json.dumps({"summary": s, "questions": per_question(results)}, indent=1))
        except OSError as exc:
            raise DataError(f"{out}: cannot write it ({exc.strerror})") from None
    return json.dumps(s, indent=1) if as_json else format_tables(s)


def _model_run(results: list[Result], reader: ModelReader, judge: ModelReader | None) -> dict[str, Any]:
    """Ask the model (and the judge) and say who they were and what they cost."""
    read = model.read(results, reader)
    out: dict[str, Any] = {"model": reader.name, "model_url": reader.client.chat_url,
                           "model_cost": f"{read.line()}; {read.cost()}"}
    if judge is not None:
        graded = model.judge(results, judge)
        out.update({"judge": judge.name, "judge_url": judge.client.chat_url, "judge_cost": f"{graded.line()}; {graded.cost()}"})
    return out
