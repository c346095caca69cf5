"""The LoCoMo dataset: conversations, sessions in numeric order, dated turns, typed questions.

Everything downstream (claims, indexes, the reader, the metric) reads these frozen
records rather than the raw JSON, so the dataset's quirks are dealt with exactly once,
here: session keys sorted numerically, dates parsed, integer answers turned into
strings, and evidence ids repaired or dropped *with a report* rather than silently.

Where the file comes from (:func:`load_dataset`)
    1. an explicit path (the CLI's ``--data PATH``);
    2. else ``$GRAPHMEM_LOCOMO``, else the shared copy the tests use (``$GRAPHMEM_SHARED``, else
       ``shared/data`` beside the checkout or a directory above: :mod:`graphmem.data.shared`);
    3. else the cache file :func:`~graphmem.data.fetch.cache_path` (``$GRAPHMEM_CACHE``, else
       ``$XDG_CACHE_HOME/graphmem``, else ``~/.cache/graphmem``, + ``locomo10.json``);
    4. else it is downloaded (:mod:`graphmem.data.fetch`) from :data:`LOCOMO_URL` into the
       cache, and kept only if its SHA-256 is :data:`LOCOMO_SHA256`.

    The cached file is re-verified on every load: the bytes are read for parsing anyway,
    and hashing them costs little next to parsing them (docs/locomo.md, "Figures behind the
    code"). A cached file with the wrong hash (edited, truncated by hand) is replaced by a
    fresh download; if that fails the error says how to provide the file instead. Explicit
    paths, ``$GRAPHMEM_LOCOMO`` and the shared copy are not hashed against :data:`LOCOMO_SHA256`:
    they may be deliberately edited or reduced copies.

Validation
    Every structural problem raises :class:`~graphmem.errors.DataError` whose message is
    one line ``<file>: <place>: <problem>``; the place is a sample id plus session, dia id
    or question index (``conv-26 session_3 D3:4``, ``conv-26 qa[12]``) or, before the
    sample id is known, a JSON path (``[3].sample_id``).

Evidence ids are repaired or dropped by :mod:`graphmem.data.evidence` (the rules are there).
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from graphmem.data import shared
from graphmem.data.evidence import DIA_ID, EvidenceReport, normalise_evidence
from graphmem.data.fetch import LOCOMO_FILENAME, LOCOMO_SHA256, LOCOMO_URL, cache_path, download
from graphmem.data.files import read_bytes
from graphmem.data.jsontext import kind as _kind, parse
from graphmem.data.records import parse_session_date
from graphmem.domain import Conversation, Session, Turn  # noqa: F401  (re-exported: LoCoMo's conversations are these)
from graphmem.errors import DataError

log = logging.getLogger(__name__)

ENV_DATA = "GRAPHMEM_LOCOMO"

HOW_TO_PROVIDE = f"pass --data PATH or set {ENV_DATA} to a copy of {LOCOMO_FILENAME}"

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
class Question:
    """A typed question with its reference answer and normalised evidence ids.

    ``answer`` is always a string: integer answers are ``str``-ed, and adversarial
    questions that have only an ``adversarial_answer`` get ``""``.
    """

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
class Sample(Conversation):
    """One LoCoMo sample (a conversation of two speakers, and the questions asked about it), or a
    turn file's conversation in the same shape (any number of speakers, no questions)."""

    questions: tuple[Question, ...] = ()


@dataclass(frozen=True)
class Dataset:
    """All conversations of one file, and the report of what loading had to repair."""

    path: Path
    conversations: tuple[Sample, ...]
    report: EvidenceReport
    sha256: str = ""

    @property
    def questions(self) -> int:
        return sum(len(c.questions) for c in self.conversations)

    def with_evidence(self) -> Iterator[tuple[Sample, Question, set[str]]]:
        """Every question that names evidence, with that evidence as the ids a memory holding
        every conversation returns (``conversation/turn``): what a retrieval hit@k counts."""
        for c in self.conversations:
            for q in c.questions:
                if q.evidence:
                    yield c, q, {f"{c.id}/{e}" for e in q.evidence}


# ---------------------------------------------------------------------------------------
# dates

SESSION_DATE_FORMAT = "%I:%M %p on %d %B, %Y"
"""The layout of LoCoMo's session stamps (documentation; parsing does not use strptime)."""

# ---------------------------------------------------------------------------------------
# loading and validation

_SESSION_KEY = re.compile(r"session_(\d+)$")


class _Errors:
    """Builds the one-line ``<file>: <place>: <problem>`` errors for one file."""

    def __init__(self, path: Path):
        self.file = str(path)

    def __call__(self, place: str, problem: str) -> DataError:
        return DataError(f"{self.file}: {place}: {problem}")


def load_file(path: str | Path) -> Dataset:
    """Read and validate one LoCoMo JSON file; raise :class:`DataError` on any defect."""
    path = Path(path)
    return _parse(path, read_bytes(path))


def _parse(path: Path, data: bytes) -> Dataset:
    err = _Errors(path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not JSON (not UTF-8 text: byte {exc.start})") from None
    raw = parse(text, str(path))
    if not isinstance(raw, list):
        raise err("top level", f"not the LoCoMo layout: expected a list of samples, got {_kind(raw)}")
    if not raw:
        raise err("top level", "not the LoCoMo layout: the list of samples is empty")
    report = EvidenceReport()
    convs: list[Sample] = []
    seen: dict[str, int] = {}
    for i, sample in enumerate(raw):
        conv = _conversation(err, i, sample, report)
        if conv.id in seen:
            raise err(f"[{i}].sample_id", f"duplicate sample id {conv.id!r} (also [{seen[conv.id]}])")
        seen[conv.id] = i
        convs.append(conv)
    return Dataset(path, tuple(convs), report, hashlib.sha256(data).hexdigest())


def _conversation(err: _Errors, i: int, sample: Any, report: EvidenceReport) -> Sample:
    if not isinstance(sample, dict):
        raise err(f"[{i}]", f"not the LoCoMo layout: expected a sample object, got {_kind(sample)}")
    if "sample_id" not in sample:
        raise err(f"[{i}].sample_id", "missing")
    sid = sample["sample_id"]
    if not isinstance(sid, str) or not sid.strip():
        raise err(f"[{i}].sample_id", f"expected a non-empty string, got {_kind(sid)} {sid!r}")
    if "conversation" not in sample:
        raise err(f"{sid} [{i}].conversation", "sample has no conversation")
    conv = sample["conversation"]
    if not isinstance(conv, dict):
        raise err(f"{sid} [{i}].conversation", f"expected an object, got {_kind(conv)}")

    speakers = []
    for key in ("speaker_a", "speaker_b"):
        name = conv.get(key)
        if not isinstance(name, str) or not name.strip():
            problem = "missing" if key not in conv else f"expected a non-empty string, got {_kind(name)}"
            raise err(f"{sid} conversation.{key}", problem)
        speakers.append(name)
    if speakers[0] == speakers[1]:
        raise err(f"{sid} conversation", f"speaker_a and speaker_b are both {speakers[0]!r}")
    known = set(speakers)

    numbers = sorted(int(m.group(1)) for k in conv if (m := _SESSION_KEY.match(k)))
    if not numbers:
        raise err(f"{sid} conversation", "no sessions (no session_N keys)")
    sessions: list[Session] = []
    by_id: dict[str, Turn] = {}
    where_id: dict[str, str] = {}
    for n in numbers:
        key = f"session_{n}"
        place = f"{sid} {key}"
        date_key = f"{key}_date_time"
        if date_key not in conv:
            raise err(place, f"session has no date ({date_key} missing)")
        date_text = conv[date_key]
        if not isinstance(date_text, str):
            raise err(place, f"{date_key} must be a string, got {_kind(date_text)}")
        try:
            date = parse_session_date(date_text)
        except ValueError:
            raise err(place, f"unparseable date {date_text!r} (expected like '1:56 pm on 8 May, 2023')") from None
        raw_turns = conv[key]
        if not isinstance(raw_turns, list):
            raise err(place, f"expected a list of turns, got {_kind(raw_turns)}")
        if not raw_turns:
            raise err(place, "empty session (no turns)")
        turns = []
        for k, t in enumerate(raw_turns):
            turn = _turn(err, place, k, t, n, date, known, sid)
            if turn.id in by_id:
                raise err(f"{place} {turn.id}", f"duplicate dia id (also in {where_id[turn.id]})")
            by_id[turn.id] = turn
            where_id[turn.id] = key
            turns.append(turn)
        sessions.append(Session(n, date, date_text, tuple(turns)))

    if "qa" not in sample:
        raise err(f"{sid} [{i}].qa", "sample has no qa list")
    qa = sample["qa"]
    if not isinstance(qa, list):
        raise err(f"{sid} [{i}].qa", f"expected a list of questions, got {_kind(qa)}")
    questions = tuple(_question(err, sid, j, q, by_id, report) for j, q in enumerate(qa))
    return Sample(sid, (speakers[0], speakers[1]), tuple(sessions), by_id, questions)


def _turn(err: _Errors, place: str, k: int, t: Any, n: int, date: datetime, known: set[str], sid: str) -> Turn:
    if not isinstance(t, dict):
        raise err(f"{place} turn[{k}]", f"expected a turn object, got {_kind(t)}")
    dia_id = t.get("dia_id")
    if not isinstance(dia_id, str):
        problem = "turn has no dia_id" if "dia_id" not in t else f"dia_id must be a string, got {_kind(dia_id)}"
        raise err(f"{place} turn[{k}]", problem)
    if not DIA_ID.match(dia_id):
        raise err(f"{place} turn[{k}]", f"malformed dia id {dia_id!r} (expected like 'D{n}:1')")
    here = f"{place} {dia_id}"
    if "text" not in t:
        raise err(here, "turn has no text")
    text = t["text"]
    if not isinstance(text, str):
        raise err(here, f"text must be a string, got {_kind(text)}")
    speaker = t.get("speaker")
    if not isinstance(speaker, str):
        problem = "turn has no speaker" if "speaker" not in t else f"speaker must be a string, got {_kind(speaker)}"
        raise err(here, problem)
    if speaker not in known:
        raise err(here, f"unknown speaker {speaker!r} (speakers are {' and '.join(map(repr, sorted(known)))})")
    caption = t.get("blip_caption")
    if caption is not None and not isinstance(caption, str):
        raise err(here, f"blip_caption must be a string, got {_kind(caption)}")
    return Turn(dia_id, speaker, text, date, conversation=sid, session=n, caption=caption)


def _question(
    err: _Errors, sid: str, j: int, q: Any, by_id: dict[str, Turn], report: EvidenceReport
) -> Question:
    place = f"{sid} qa[{j}]"
    if not isinstance(q, dict):
        raise err(place, f"expected a question object, got {_kind(q)}")
    text = q.get("question")
    if not isinstance(text, str) or not text.strip():
        if "question" not in q:
            problem = "question has no text"
        elif isinstance(text, str):
            problem = "question text is empty"
        else:
            problem = f"question text must be a string, got {_kind(text)}"
        raise err(place, problem)
    if "category" not in q:
        raise err(place, "question has no category")
    category = q["category"]
    if isinstance(category, bool) or not isinstance(category, int) or category not in CATEGORIES:
        raise err(place, f"unknown category {category!r} (expected 1..5)")
    if "answer" in q:
        answer = _answer_text(err, place, "answer", q["answer"])
    elif category == ADVERSARIAL:
        answer = ""
    else:
        raise err(place, f"question has no answer (only adversarial questions, category {ADVERSARIAL}, may lack one)")
    adversarial = q.get("adversarial_answer")
    if adversarial is not None:
        adversarial = _answer_text(err, place, "adversarial_answer", adversarial)
    raw_evidence = q.get("evidence", [])
    if not isinstance(raw_evidence, list) or not all(isinstance(e, str) for e in raw_evidence):
        bad = raw_evidence if not isinstance(raw_evidence, list) else next(e for e in raw_evidence if not isinstance(e, str))
        raise err(place, f"evidence must be a list of strings, found {_kind(bad)} {bad!r}")
    evidence = normalise_evidence(sid, j, raw_evidence, by_id, report)
    return Question(j, text, answer, category, evidence, adversarial)


def _answer_text(err: _Errors, place: str, key: str, value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(value)
    raise err(place, f"{key} must be a string or a number, got {_kind(value)}")


# ---------------------------------------------------------------------------------------
# where the file comes from


def load_dataset(
    path: str | Path | None = None,
    *,
    url: str = LOCOMO_URL,
    sha256: str = LOCOMO_SHA256,
    timeout: float = 30.0,
) -> Dataset:
    """Load LoCoMo from ``path``, else ``$GRAPHMEM_LOCOMO``, else the shared copy
    (:func:`graphmem.data.shared.find`), else the cache, else download.

    A cached file is hashed on every load (it is read for parsing anyway); if its hash
    is not ``sha256`` it is downloaded again. Every failure is one :class:`DataError`
    line; when the download fails it says how to provide the file instead.
    """
    if path is not None:
        return load_file(Path(path))
    found = shared.find(LOCOMO_FILENAME, ENV_DATA)
    if found is not None:
        return load_file(found)
    cached = cache_path()
    if cached.is_file():
        data = read_bytes(cached)
        if hashlib.sha256(data).hexdigest() == sha256.lower():
            return _parse(cached, data)
        log.warning("%s: SHA-256 is not %s; downloading it again", cached, sha256)
    log.info("downloading %s to %s", url, cached)
    try:
        download(url, cached, sha256, timeout=timeout)
    except DataError as exc:
        raise DataError(f"no LoCoMo data: {exc}; {HOW_TO_PROVIDE}") from None
    return load_file(cached)
