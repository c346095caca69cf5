"""The LoCoMo dataset: conversations, sessions in numeric order, dated turns, typed questions.

Everything downstream (claims, indexes, the reader, the metric) reads these frozen
records rather than the raw JSON, so the dataset's quirks are dealt with exactly once,
here: session keys sorted numerically, dates parsed, integer answers turned into
strings, and evidence ids repaired or dropped *with a report* rather than silently.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from graphmem.errors import DataError

CATEGORIES = {
    4: "single hop",
    1: "multi hop",
    2: "temporal",
    3: "open domain",
    5: "adversarial",
}
"""LoCoMo's category numbers and the names the table prints, in table order."""

ADVERSARIAL = 5


@dataclass(frozen=True)
class Turn:
    """One utterance: who said it, in which session, on what date."""

    dia_id: str
    speaker: str
    text: str
    session: int
    date: datetime
    caption: str | None = None


@dataclass(frozen=True)
class Session:
    """A dated sitting of the conversation; turns in the order they were said."""

    index: int
    date: datetime
    date_text: str
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Question:
    """A typed question with its reference answer and normalised evidence ids."""

    index: int
    text: str
    answer: str
    category: int
    evidence: tuple[str, ...]
    adversarial_answer: str | None = None

    @property
    def answerable(self) -> bool:
        return self.category != ADVERSARIAL


@dataclass(frozen=True)
class Conversation:
    """One LoCoMo sample: two speakers, their sessions, and the questions about them."""

    sample_id: str
    speakers: tuple[str, str]
    sessions: tuple[Session, ...]
    questions: tuple[Question, ...]
    turn_by_id: dict[str, Turn] = field(repr=False, compare=False, hash=False, default_factory=dict)

    @property
    def turns(self) -> list[Turn]:
        return [t for s in self.sessions for t in s.turns]


@dataclass
class EvidenceReport:
    """What evidence normalisation changed: repaired ids and ids that name no turn."""

    repaired: list[tuple[str, int, str, str]] = field(default_factory=list)
    dropped: list[tuple[str, int, str, str]] = field(default_factory=list)

    def summary(self) -> str:
        dropped = ", ".join(f"{raw!r} in {sid}" for sid, _, raw, _ in self.dropped)
        line = f"evidence: {len(self.repaired)} ids repaired, {len(self.dropped)} dropped"
        return f"{line} ({dropped})" if dropped else line


@dataclass(frozen=True)
class Dataset:
    """All conversations of one file, and the report of what loading had to repair."""

    path: Path
    conversations: tuple[Conversation, ...]
    report: EvidenceReport

    @property
    def questions(self) -> int:
        return sum(len(c.questions) for c in self.conversations)


SESSION_DATE_FORMAT = "%I:%M %p on %d %B, %Y"
_SESSION_KEY = re.compile(r"session_(\d+)$")
_DIA_ID = re.compile(r"D(\d+):(\d+)$")


def parse_session_date(text: str) -> datetime:
    """Parse LoCoMo's session stamp, e.g. ``1:56 pm on 8 May, 2023``."""
    return datetime.strptime(" ".join(text.split()).upper().replace("ON ", "on "), SESSION_DATE_FORMAT)


def load_file(path: Path) -> Dataset:
    """Read and validate one LoCoMo JSON file."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataError(f"{path}: no such file") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"{path}: not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    report = EvidenceReport()
    convs = tuple(_conversation(path, i, s, report) for i, s in enumerate(raw))
    return Dataset(Path(path), convs, report)


def _conversation(path: Path, i: int, sample: dict[str, Any], report: EvidenceReport) -> Conversation:
    sid = sample["sample_id"]
    conv = sample["conversation"]
    speakers = (conv["speaker_a"], conv["speaker_b"])
    numbers = sorted(int(m.group(1)) for k in conv if (m := _SESSION_KEY.match(k)))
    sessions = []
    by_id: dict[str, Turn] = {}
    for n in numbers:
        date_text = conv[f"session_{n}_date_time"]
        date = parse_session_date(date_text)
        turns = []
        for t in conv[f"session_{n}"]:
            turn = Turn(t["dia_id"], t["speaker"], t["text"], n, date, t.get("blip_caption"))
            by_id[turn.dia_id] = turn
            turns.append(turn)
        sessions.append(Session(n, date, date_text, tuple(turns)))
    questions = tuple(_question(sid, j, q, by_id, report) for j, q in enumerate(sample["qa"]))
    return Conversation(sid, speakers, tuple(sessions), questions, by_id)


def _question(sid: str, j: int, q: dict[str, Any], by_id: dict[str, Turn], report: EvidenceReport) -> Question:
    evidence = normalise_evidence(sid, j, q.get("evidence", []), by_id, report)
    answer = q.get("answer", "")
    return Question(j, q["question"], str(answer), int(q["category"]), evidence, q.get("adversarial_answer"))


def normalise_evidence(
    sid: str, j: int, raw: list[str], by_id: dict[str, Turn], report: EvidenceReport
) -> tuple[str, ...]:
    """Split joined ids, repair ``D:11:26``, and drop (with a report) ids naming no turn."""
    out: list[str] = []
    for item in raw:
        parts = [p for p in re.split(r"[;\s]+", item.strip()) if p]
        for p in parts:
            fixed = re.sub(r"^D:", "D", p)
            if fixed != item:
                report.repaired.append((sid, j, item, fixed))
            if not _DIA_ID.match(fixed) or fixed not in by_id:
                report.dropped.append((sid, j, p, "names no turn"))
                continue
            if fixed not in out:
                out.append(fixed)
    return tuple(out)


def load(path: str | Path | None = None) -> Dataset:
    """Load LoCoMo from ``path``, else ``$GRAPHMEM_LOCOMO``, else the cached download."""
    import os

    if path is None:
        path = os.environ.get("GRAPHMEM_LOCOMO")
    if path is None:
        raise DataError("no dataset: pass --data PATH or set GRAPHMEM_LOCOMO")
    return load_file(Path(path))
