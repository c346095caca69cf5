"""A dialogue file as the commands read it: LoCoMo JSON, or a JSON Lines file of turns.

``graphmem load``, ``ingest``, ``search`` and ``ask`` all take either; which one a path is, and how
its turns become memory records, is decided here once, so the commands agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from graphmem.data import locomo
from graphmem.data.evidence import EvidenceReport
from graphmem.data.locomo import Dataset, Sample
from graphmem.data.records import as_record, read_jsonl, read_jsonl_placed
from graphmem.domain import Session, Turn
from graphmem.errors import DataError

__all__ = ["conversations", "dialogue", "memory_records", "memory_records_of", "placed_records", "turn_file"]


def turn_file(data: Path | None) -> list[Turn] | None:
    """The records of a JSON Lines file of turns, or None when ``data`` is LoCoMo JSON."""
    if data is not None and data.suffix.lower() in (".jsonl", ".ndjson"):
        return read_jsonl(data)
    return None


def dialogue(data: Path | None, records: list[Turn] | None) -> Dataset:
    """LoCoMo JSON as a Dataset, or the records of a turn file as one of the same shape."""
    if records is not None:
        assert data is not None, "records are read from a file (turn_file)"
        return Dataset(data, tuple(conversations(records)), EvidenceReport())
    return locomo.load_dataset(data)


def placed_records(data: Path | None) -> tuple[list[dict[str, Any]], list[str]]:
    """:func:`memory_records`, with where each was read (``file: line 3``; ``file: conv-26 D1:3``), so an
    error about one names its place in the file."""
    if data is not None and data.suffix.lower() in (".jsonl", ".ndjson"):
        pairs = read_jsonl_placed(data)
        return [as_record(t) for _, t in pairs], [where for where, _ in pairs]
    dataset = locomo.load_dataset(data)
    records = memory_records_of(dataset)
    return records, [f"{dataset.path}: {r['id'].replace('/', ' ', 1)}" for r in records]


def memory_records_of(dataset: Dataset) -> list[dict[str, Any]]:
    """A LoCoMo dataset's turns as memory records (ids ``conversation/dia_id``)."""
    return [{"id": f"{conv.id}/{t.id}", "speaker": t.speaker, "text": t.text, "date": t.date, "conversation": conv.id}
            for conv in dataset.conversations for t in conv.turns]


def memory_records(data: Path | None) -> list[dict[str, Any]]:
    """A dialogue file's turns as memory records. A JSON Lines file keeps its own ids; a
    LoCoMo turn's id becomes ``conversation/dia_id`` (dia_ids repeat across conversations,
    a memory's ids may not)."""
    records = turn_file(data)
    if records is not None:
        return [as_record(r) for r in records]
    return memory_records_of(locomo.load_dataset(data))


def conversations(records: Sequence[Turn]) -> list[Sample]:
    """Turns as LoCoMo-shaped conversations, so claims are read by the bench's own code.

    One conversation per ``conversation`` id, in first-seen order; a session per
    calendar day (records without a date share one undated session, dated today);
    turns in the order given; its speakers in the order they first speak. A conversation
    must have two speakers or more: one person's turns alone are no dialogue to read.
    """
    grouped: dict[str, list[Turn]] = {}
    for r in records:
        grouped.setdefault(r.conversation, []).append(r)
    out = []
    for conv_id, rows in grouped.items():
        speakers = list(dict.fromkeys(r.speaker for r in rows))
        if len(speakers) < 2:
            raise DataError(f"conversation {conv_id!r}: graphmem reads dialogue, and this one has one speaker"
                            f" ({speakers[0]})")
        days: dict[object, list[Turn]] = {}
        for r in rows:
            days.setdefault(r.date.date() if r.date else None, []).append(r)
        sessions: list[Session] = []
        by_id: dict[str, Turn] = {}
        for n, (day, day_rows) in enumerate(days.items(), start=1):
            date = day_rows[0].date or datetime.now().replace(microsecond=0)
            turns = tuple(replace(r, session=n, date=r.date or date) for r in day_rows)
            by_id.update((t.id, t) for t in turns)
            sessions.append(Session(n, date, f"{date:%I:%M %p on %d %B, %Y}", turns))
        out.append(Sample(conv_id, tuple(speakers), tuple(sessions), by_id))
    return out


