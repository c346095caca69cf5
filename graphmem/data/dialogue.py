"""A dialogue file as the commands read it: LoCoMo JSON, or a JSON Lines file of turns.

``graphmem load``, ``ingest``, ``search`` and ``ask`` all take either; which one a path is, and how
its turns become memory records, is decided here once, so the commands agree.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from graphmem.data import locomo
from graphmem.data.evidence import EvidenceReport
from graphmem.data.locomo import Dataset
from graphmem.data.records import Record, conversations, read_jsonl

__all__ = ["dialogue", "memory_records", "turn_file"]


def turn_file(data: Path | None) -> list[Record] | None:
    """The records of a JSON Lines file of turns, or None when ``data`` is LoCoMo JSON."""
    if data is not None and data.suffix.lower() in (".jsonl", ".ndjson"):
        return read_jsonl(data)
    return None


def dialogue(data: Path | None, records: list[Record] | None) -> Dataset:
    """LoCoMo JSON as a Dataset, or the records of a turn file as one of the same shape."""
    if records is not None:
        return Dataset(data, tuple(conversations(records)), EvidenceReport())
    return locomo.load_dataset(data)


def memory_records(data: Path | None) -> list[dict[str, Any]]:
    """A dialogue file's turns as memory records. A JSON Lines file keeps its own ids; a
    LoCoMo turn's id becomes ``conversation/dia_id`` (dia_ids repeat across conversations,
    a memory's ids may not)."""
    records = turn_file(data)
    if records is not None:
        return [asdict(r) for r in records]
    return [{"id": f"{conv.sample_id}/{t.dia_id}", "speaker": t.speaker, "text": t.text, "date": t.date,
             "conversation": conv.sample_id}
            for conv in locomo.load_dataset(data).conversations for t in conv.turns]
