"""What ``graphmem longmemeval`` does, kept out of the CLI so the CLI stays a thin shell."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from graphmem.errors import DataError
from graphmem.longmemeval import load as loader
from graphmem.longmemeval.report import format_tables, per_question, summary
from graphmem.longmemeval.run import Result, Settings, run


def longmemeval(data: str | Path | None, variant: str = "s", limit: int | None = None, as_json: bool = False,
                out: Path | None = None, settings: Settings = Settings(),
                progress: Callable[[Result], None] | None = None) -> str:
    """Read the release, run every question, and return the report (tables, or JSON)."""
    path = loader.locate(data, variant)
    questions = loader.load(path, variant, limit)
    if not questions:
        raise DataError(f"{path}: no questions to run")
    wall = time.perf_counter()
    results = run(questions, settings, progress)
    header: dict[str, Any] = {"data": str(path), "variant": variant, "floor": settings.floor,
                              "wall_seconds": time.perf_counter() - wall}
    s = summary(results, header)
    if out is not None:
        try:
            out.write_text(json.dumps({"summary": s, "questions": per_question(results)}, indent=1))
        except OSError as exc:
            raise DataError(f"{out}: cannot write it ({exc.strerror})") from None
    return json.dumps(s, indent=1) if as_json else format_tables(s)
