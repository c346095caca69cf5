"""The rows the calibrated confidence is fitted on: each question's signals, label and group, cached.

    python bench/confidence_rows.py [--lme FILE] [--locomo FILE] [--limit N] [--fresh]

Per LongMemEval development question a fresh shipped ``Memory()`` ingests its haystack and ``ask``s it as
of its date (k=5); per LoCoMo question one ``Memory()`` over all ten conversations is asked, as
``bench/memory_locomo.py --ask`` does (no conversation named), and searched for the first ten turns
``ask`` reads with ``confidence="calibrated"``. Each row keeps the signals
``Memory.signals`` reads off the turns found (:func:`graphmem.memory.calibrated.features`), whether
the question is answerable (``_abs`` and adversarial ones are not), whether an evidence turn was
among the five cited, the group cross-validation keeps together (the LongMemEval question, whose
haystack is its own; the LoCoMo conversation), the shipped coverage answer's confidence and
silence, and whether the reader declines with no floor at all (``declined``: it finds no phrase to
quote; such an answer is quiet whatever its confidence). The rows are cached under
``~/.cache/graphmem/confidence/`` (never the repository: the
data's licence), keyed by the data file and the feature code, so ``bench/fit_confidence.py``
iterates in seconds; the LongMemEval pass takes about 40 s of CPU (docs/longmemeval.md).
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from graphmem.data import locomo  # noqa: E402
from graphmem.data.shared import find  # noqa: E402
from graphmem.bench.longmemeval import load as loader  # noqa: E402
from graphmem.bench.longmemeval.run import evidence_turns  # noqa: E402
from graphmem.memory import calibrated, sense  # noqa: E402
from graphmem.search import static  # noqa: E402
from graphmem.memory.calibrated import TURNS  # noqa: E402
from graphmem.memory.api import Memory  # noqa: E402

CACHE = Path(os.environ.get("GRAPHMEM_CACHE") or Path.home() / ".cache/graphmem") / "confidence"
ADVERSARIAL = 5
"""LoCoMo's category of questions whose answer the conversation does not hold."""


def _key(path: Path, limit: int | None) -> str:
    """The cache's name for one data file read by this code: a change of the signals is a new file."""
    read = (calibrated.features, calibrated._states, calibrated._by, calibrated._lead, sense.meaning, static.Engine)
    read += (calibrated._asked, calibrated._unions, calibrated._wh, calibrated._told, _turns)
    code = "".join(inspect.getsource(f) for f in read) + repr(calibrated.FEATURES) + repr((sense.available(), static.SIF))
    h = hashlib.sha256((code + str(path.resolve()) + str(path.stat().st_mtime)).encode())
    return f"{h.hexdigest()[:12]}-{limit or 'all'}"


def _turns(found) -> list[list[str]]:  # noqa: ANN001
    """The turns found, as a row keeps them (id, speaker, text): what ``bench/confidence_e5.py`` embeds."""
    return [[t.id, t.speaker, t.text] for t in found]


def _cached(name: str, path: Path, limit: int | None, fresh: bool, make) -> list[dict]:  # noqa: ANN001
    out = CACHE / f"{name}-{_key(path, limit)}.json"
    if out.exists() and not fresh:
        return json.loads(out.read_text())
    start = time.process_time()
    rows = make()
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(rows))
    tmp.replace(out)
    print(f"{name}: {len(rows)} rows in {time.process_time() - start:.1f} s CPU -> {out}", file=sys.stderr)
    return rows


def lme_rows(path: Path, limit: int | None = None, fresh: bool = False) -> list[dict]:
    """One row per LongMemEval question (``path``: the release's JSON)."""
    def make() -> list[dict]:
        rows = []
        for q in loader.load(str(path), "s", limit):
            mem = Memory()
            mem.ingest(q.records())
            answer = mem.ask(q.question, 5, asked_on=q.date)  # the shipped coverage's, for comparison
            declined = Memory(store=mem.store, floor=0.0).ask(q.question, 5, asked_on=q.date).quiet
            found = mem.records_for(q.question, TURNS, asked_on=q.date)  # what a calibrated ask reads
            wanted = evidence_turns(q, "all")
            rows.append({"data": "longmemeval", "group": q.id, "kind": q.type, "answerable": not q.abstention,
                         "hit": any(t.id in wanted for t in found[:5]), "coverage": answer.confidence,
                         "quiet": answer.quiet, "declined": declined, "signals": mem.signals(q.question, found),
                         "question": q.question, "found": _turns(found)})
        return rows
    return _cached("longmemeval", path, limit, fresh, make)


def locomo_rows(path: Path, fresh: bool = False) -> list[dict]:
    """One row per LoCoMo question, one memory over the ten conversations."""
    def make() -> list[dict]:
        dataset = locomo.load_dataset(path)
        mem = Memory()
        mem.ingest([{"id": f"{c.id}/{t.id}", "speaker": t.speaker, "text": t.text, "date": t.date,
                     "conversation": c.id} for c in dataset.conversations for t in c.turns])
        reader = Memory(store=mem.store, floor=0.0)  # the same turns, no floor: does the reader itself decline?
        rows = []
        for c in dataset.conversations:
            for q in c.questions:
                answer = mem.ask(q.text, 5)
                declined = reader.ask(q.text, 5).quiet
                found = mem.records_for(q.text, TURNS)
                wanted = {f"{c.id}/{e}" for e in q.evidence}
                rows.append({"data": "locomo", "group": c.id, "kind": str(q.category),
                             "answerable": q.category != ADVERSARIAL, "hit": any(t.id in wanted for t in found[:5]),
                             "coverage": answer.confidence, "quiet": answer.quiet,
                             "declined": declined, "signals": mem.signals(q.text, found),
                             "question": q.text, "found": _turns(found)})
        return rows
    return _cached("locomo", path, None, fresh, make)


def _paths(lme: str | None, loco: str | None) -> tuple[Path, Path]:
    return (Path(lme) if lme else loader.locate(None, "s")), (Path(loco) if loco else find("locomo10.json", "GRAPHMEM_LOCOMO"))


def name(lme: str | None = None, loco: str | None = None, limit: int | None = None) -> str:
    """The rows' name: both cache files' keys (what ``bench/confidence_e5.py`` names its own by)."""
    lme_path, loco_path = _paths(lme, loco)
    return f"{_key(lme_path, limit)}-{_key(loco_path, None)}"


def rows(lme: str | None = None, loco: str | None = None, limit: int | None = None, fresh: bool = False) -> list[dict]:
    """Both datasets' rows, LongMemEval's first."""
    lme_path, loco_path = _paths(lme, loco)
    return lme_rows(lme_path, limit, fresh) + locomo_rows(loco_path, fresh)


def arguments(ap: argparse.ArgumentParser) -> argparse.ArgumentParser:
    ap.add_argument("--lme", default=None, help="LongMemEval's development half (default: the shared data's)")
    ap.add_argument("--locomo", default=None, help="locomo10.json (default: the shared data's)")
    ap.add_argument("--limit", type=int, default=None, help="the first N LongMemEval questions only")
    ap.add_argument("--fresh", action="store_true", help="recompute the rows, ignoring the cache")
    return ap


if __name__ == "__main__":
    a = arguments(argparse.ArgumentParser(description=__doc__.split("\n")[0])).parse_args()
    got = rows(a.lme, a.locomo, a.limit, a.fresh)
    print(f"{len(got)} rows: {sum(r['data'] == 'longmemeval' for r in got)} LongMemEval, "
          f"{sum(r['data'] == 'locomo' for r in got)} LoCoMo")
