"""LongMemEval's release read into questions, each with its haystack of dated sessions.

The release is one JSON list of question objects (``.json``, or gzipped ``.json.gz``). Every
field the benchmark needs is checked before a question is used, and a bad one is one
:class:`DataError` naming the file and the place (``question 3 (id 'abc'): haystack_sessions[2][5]``),
so a truncated download says where it breaks instead of failing deep inside a memory.

A haystack may hold the same session twice (same id, two dates), as the release does. The copies
are one session told twice, so a copy with the same turns is ingested once (at its first date); a
copy whose turns differ is kept apart by its date (``id@2023/05/20 (Sat) 02:21``), and both count
as that id for the session-level metrics. Neither rejects the haystack.
"""

from __future__ import annotations

import gzip
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from graphmem.data import shared
from graphmem.data.jsontext import parse
from graphmem.data.records import parse_date, visible
from graphmem.errors import DataError

ENV_DATA = "GRAPHMEM_LONGMEMEVAL"
SHARED_NAMES = {"s": "longmemeval_s_dev.json.gz", "oracle": "longmemeval_oracle_dev.json.gz"}
"""The development half's files under ``longmemeval/`` in the shared data, by variant."""

WHERE_TO_GET = ("get longmemeval_s_cleaned.json from the xiaowu0162/longmemeval-cleaned dataset on the Hugging Face "
                f"hub and pass --data FILE or set ${ENV_DATA}")

_FIELDS = ("question_id", "question_type", "question", "answer", "question_date", "haystack_session_ids",
           "haystack_dates", "haystack_sessions", "answer_session_ids")


@dataclass(frozen=True)
class Turn:
    """One message of a session: who said it, what, and whether it holds the answer."""

    id: str
    role: str
    text: str
    has_answer: bool


@dataclass(frozen=True)
class Session:
    """One dated session of a haystack. ``key`` is unique in the haystack; ``id`` is the
    release's (two copies of a repeated session that differ share it)."""

    key: str
    id: str
    date: datetime
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Question:
    """One LongMemEval question with its own haystack."""

    id: str
    type: str
    question: str
    answer: str
    date: datetime
    sessions: tuple[Session, ...]
    evidence_sessions: frozenset[str]
    repeated: int = 0
    """Copies of a repeated session that were the same turns, so ingested once."""

    @property
    def abstention(self) -> bool:
        """The release marks questions with no answer in the haystack by an ``_abs`` id."""
        return self.id.endswith("_abs")

    def records(self, roles: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """The haystack as memory records (one conversation per session, turns numbered), of the
        given roles only when ``roles`` is given. A turn that shows no text is left out (the memory refuses
        an empty or invisible text; in the _S development half's 122,752 haystack turns, 11 are empty and 31 a
        lone zero-width space, none of them evidence), its number kept by the others."""
        return [{"id": t.id, "speaker": t.role, "text": t.text, "date": s.date, "conversation": s.key, "turn": n}
                for s in self.sessions for n, t in enumerate(s.turns)
                if (roles is None or t.role in roles) and visible(t.text)]


def locate(data: str | Path | None, variant: str = "s") -> Path:
    """The file to read: ``data``, else ``$GRAPHMEM_LONGMEMEVAL`` (for the _S variant), else the
    development half under ``longmemeval/`` in the shared data (``$GRAPHMEM_SHARED``, else
    ``shared/data`` beside the checkout or a directory above: :mod:`graphmem.data.shared`); else
    one error saying where to get it."""
    if variant not in SHARED_NAMES:
        raise DataError(f"unknown LongMemEval variant {variant!r} (one of {', '.join(SHARED_NAMES)})")
    if data is not None:
        path = Path(data).expanduser()
        if not path.is_file():
            raise DataError(f"{path}: no such file; {WHERE_TO_GET}")
        return path
    found = shared.find(f"longmemeval/{SHARED_NAMES[variant]}", ENV_DATA if variant == "s" else None,
                        hint=WHERE_TO_GET)
    if found is None:
        raise DataError(f"no LongMemEval data: {WHERE_TO_GET}")
    return found


def load(data: str | Path | None = None, variant: str = "s", limit: int | None = None) -> list[Question]:
    """The questions of a release file (the first ``limit`` of them when given), all checked."""
    path = locate(data, variant)
    rows = _read(path)
    if not isinstance(rows, list):
        raise DataError(f"{path}: expected a JSON list of question objects, got {type(rows).__name__}")
    if limit is not None:
        rows = rows[:limit]
    seen: set[str] = set()
    out = []
    for n, row in enumerate(rows):
        q = question(row, f"{path}: question {n}")
        if q.id in seen:
            raise DataError(f"{path}: question {n}: question_id {q.id!r} repeats an earlier question")
        seen.add(q.id)
        out.append(q)
    return out


def _read(path: Path) -> Any:
    try:
        raw = path.read_bytes()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        text = raw.decode("utf-8-sig")
    except OSError as exc:  # gzip.BadGzipFile and EOFError (a cut download) are OSError / EOFError
        raise DataError(f"{path}: cannot read it ({exc})") from None
    except EOFError:
        raise DataError(f"{path}: the gzip stream ends early (a cut download?)") from None
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not UTF-8 text at byte {exc.start}") from None
    return parse(text, str(path))


def question(row: Any, where: str) -> Question:
    """One question object checked and read; ``where`` names it in errors."""
    if not isinstance(row, Mapping):
        raise DataError(f"{where}: expected a question object, got {type(row).__name__}")
    if isinstance(row.get("question_id"), str):
        where = f"{where} (id {row['question_id']!r})"
    for key in _FIELDS:
        if key not in row:
            raise DataError(f"{where}: missing {key!r}")
    for key in ("question_id", "question_type", "question"):
        if not isinstance(row[key], str) or not row[key].strip():
            raise DataError(f"{where}: {key!r} must be a non-empty string")
    answer = row["answer"]
    if isinstance(answer, bool) or not isinstance(answer, (str, int, float)):
        raise DataError(f"{where}: 'answer' must be a string or a number, not {type(answer).__name__}")
    ids, dates, sessions = row["haystack_session_ids"], row["haystack_dates"], row["haystack_sessions"]
    for key, value in (("haystack_session_ids", ids), ("haystack_dates", dates), ("haystack_sessions", sessions),
                       ("answer_session_ids", row["answer_session_ids"])):
        if not isinstance(value, list):
            raise DataError(f"{where}: {key!r} must be a list, not {type(value).__name__}")
    if not len(ids) == len(dates) == len(sessions):
        raise DataError(f"{where}: haystack_session_ids, haystack_dates and haystack_sessions differ in length "
                        f"({len(ids)}, {len(dates)}, {len(sessions)})")
    for key in ("haystack_session_ids", "answer_session_ids"):
        for n, sid in enumerate(row[key]):
            if not isinstance(sid, str) or not sid:
                raise DataError(f"{where}: {key}[{n}] must be a non-empty string")
    haystack, repeated = _haystack(ids, dates, sessions, where)
    return Question(row["question_id"], row["question_type"], row["question"], str(answer),
                    parse_date(row["question_date"], f"{where}: question_date"), haystack,
                    frozenset(row["answer_session_ids"]), repeated)


def _haystack(ids: list[str], dates: list[Any], sessions: list[Any], where: str) -> tuple[tuple[Session, ...], int]:
    """The sessions, a repeated one ingested once (same turns) or kept apart by its date."""
    out: list[Session] = []
    first: dict[str, Session] = {}
    repeated = 0
    for n, (sid, raw_date, raw) in enumerate(zip(ids, dates, sessions)):
        place = f"{where}: haystack_sessions[{n}] (session {sid!r})"
        date = parse_date(raw_date, f"{where}: haystack_dates[{n}]")
        if date is None:
            raise DataError(f"{where}: haystack_dates[{n}] is empty")
        key = sid if sid not in first else f"{sid}@{raw_date}"
        turns = _turns(raw, key, place)
        if sid in first:
            if [(t.role, t.text) for t in turns] == [(t.role, t.text) for t in first[sid].turns]:
                repeated += 1
                continue
            if any(s.key == key for s in out):
                raise DataError(f"{place}: the session is held twice at the same date {raw_date!r} with different turns")
        session = Session(key, sid, date, turns)
        first.setdefault(sid, session)
        out.append(session)
    return tuple(out), repeated


def _turns(raw: Any, key: str, place: str) -> tuple[Turn, ...]:
    if not isinstance(raw, list):
        raise DataError(f"{place}: a session must be a list of turns, not {type(raw).__name__}")
    out = []
    for n, turn in enumerate(raw):
        at = f"{place}[{n}]"
        if not isinstance(turn, Mapping):
            raise DataError(f"{at}: expected a turn object with role and content, got {type(turn).__name__}")
        for field in ("role", "content"):
            if not isinstance(turn.get(field), str):
                raise DataError(f"{at}: {field!r} must be a string" if field in turn else f"{at}: missing {field!r}")
        if not turn["role"].strip():
            raise DataError(f"{at}: 'role' must be a non-empty string")
        has = turn.get("has_answer", False)
        if not isinstance(has, bool):
            raise DataError(f"{at}: 'has_answer' must be true or false, not {type(has).__name__}")
        out.append(Turn(f"{key}/{n}", turn["role"].strip(), turn["content"], has))
    return tuple(out)
