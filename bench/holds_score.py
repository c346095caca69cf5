"""The scenarios of change of ``bench/what_holds.py``: reading and checking the files, matching values,
scoring one scenario through the public ``Memory`` API only (so it scores any version of the code).

A value matches a text when its words appear, in order and together, among the text's words, both
normalised: lower case, accents and punctuation dropped, articles dropped, number words up to twenty
as digits, and British spellings folded to American ones (breame's table, Apache-2.0), so "favourite
colour" meets "favorite color" and "3 kids" meets "three kids"; a word never matches inside a longer
one ("cat" is not in "category").
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any, Callable

try:
    from breame.data.spelling_constants import BRITISH_ENGLISH_SPELLINGS
except ImportError:  # one clear line, not a traceback
    raise SystemExit("bench/what_holds.py needs breame (the test extra): pip install -e '.[test]'") from None

ABSTAIN = "No information available"  # graphmem.domain.ABSTAIN, repeated so any version is scored alike
EXPECTS = ("now", "as_of", "earlier")
SHAPES = ("notes", "dialogue", "three", "chat")
ATTRIBUTES = ("residence", "job", "employer", "partner", "pets", "vehicle", "instruments", "studies", "diet",
              "favourites", "counts", "open")
ARTICLES = frozenset({"a", "an", "the"})
NUMBERS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}


def words(text: str) -> list[str]:
    """The text's words as matching compares them (see the module's docstring)."""
    plain = unicodedata.normalize("NFKD", text.lower())
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    out = []
    for w in re.findall(r"[a-z0-9]+", plain):
        if w in ARTICLES:
            continue
        w = NUMBERS.get(w, w)
        out.append(BRITISH_ENGLISH_SPELLINGS.get(w, w))
    return out


def contains(text: str, value: str) -> bool:
    """Whether ``value``'s words appear together, in order, among ``text``'s (an empty value never does)."""
    v, t = words(value), words(text)
    if not v:
        return False
    return any(t[i:i + len(v)] == v for i in range(len(t) - len(v) + 1))


def any_of(text: str, values: list[str]) -> bool:
    return any(contains(text, v) for v in values)


@dataclass
class Scenario:
    id: str
    attribute: str
    shape: str
    turns: list[dict[str, Any]]
    questions: list[dict[str, Any]]
    facts: list[dict[str, Any]] = field(default_factory=list)


def _day(value: Any, where: str) -> date:
    if not isinstance(value, str):
        raise ValueError(f"{where}: a date must be an ISO string, not {value!r}")
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        raise ValueError(f"{where}: {value!r} is not an ISO date") from None


def _strings(value: Any, where: str, empty: bool = False) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ValueError(f"{where}: must be a list of non-empty strings")
    if not value and not empty:
        raise ValueError(f"{where}: must not be empty")
    return value


def check(row: Any, where: str) -> Scenario:
    """One line's scenario, checked whole: a wrong one raises ``ValueError`` naming ``where`` and the field."""
    if not isinstance(row, dict):
        raise ValueError(f"{where}: a scenario must be a JSON object")
    missing = [k for k in ("id", "attribute", "shape", "turns", "questions", "facts") if k not in row]
    if missing:
        raise ValueError(f"{where}: missing {', '.join(missing)}")
    where = f"{where} ({row['id']})"
    if row["attribute"] not in ATTRIBUTES or row["shape"] not in SHAPES:
        raise ValueError(f"{where}: unknown attribute {row['attribute']!r} or shape {row['shape']!r}")
    if not row["turns"] or not row["questions"]:
        raise ValueError(f"{where}: needs turns and questions")
    last, ids = date.min, set()
    for i, t in enumerate(row["turns"]):
        if not all(isinstance(t.get(k), str) and t[k].strip() for k in ("id", "speaker", "text", "date")):
            raise ValueError(f"{where}: turn {i} needs id, speaker, text and date")
        day = _day(t["date"], f"{where}: turn {t['id']}")
        if day < last or t["id"] in ids:
            raise ValueError(f"{where}: turn {t['id']} is out of date order or repeats an id")
        last, ids = day, ids | {t["id"]}
    for i, q in enumerate(row["questions"]):
        at = f"{where}: question {i}"
        if q.get("expect") not in EXPECTS or not isinstance(q.get("question"), str):
            raise ValueError(f"{at}: needs a question and expect in {EXPECTS}")
        _day(q.get("asked_on"), at)
        _strings(q.get("answers"), f"{at} answers")
        _strings(q.get("stale"), f"{at} stale", empty=True)
    for i, f in enumerate(row["facts"]):
        at = f"{where}: facts {i}"
        if not isinstance(f.get("person"), str):
            raise ValueError(f"{at}: needs a person")
        _day(f.get("as_of"), at)
        if not _strings(f.get("holds"), f"{at} holds", True) + _strings(f.get("ended"), f"{at} ended", True):
            raise ValueError(f"{at}: holds nor ended names a value")
    return Scenario(**{k: row[k] for k in ("id", "attribute", "shape", "turns", "questions", "facts")})


def load(path: Path) -> list[Scenario]:
    """Every scenario of a JSON Lines file; the first wrong line raises ``ValueError`` naming file and line."""
    out, seen = [], set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}:{n}: not JSON ({e.msg})") from None
        s = check(row, f"{path}:{n}")
        if s.id in seen:
            raise ValueError(f"{path}:{n}: scenario id {s.id!r} repeats")
        seen.add(s.id)
        out.append(s)
    return out


def load_split(folder: Path, split: str) -> list[Scenario]:
    """Every scenario of a split: each ``<split>*.jsonl`` of ``folder`` (``dev``: ``dev.jsonl`` and any
    other development file, ``dev_ask.jsonl``...), in name order; an id repeated across files, or no
    file, raises ``ValueError`` naming it."""
    paths = sorted(folder.glob(f"{split}*.jsonl"))
    if not paths:
        raise ValueError(f"{folder}: no {split}*.jsonl")
    out: list[Scenario] = []
    seen: dict[str, Path] = {}
    for path in paths:
        for s in load(path):
            if s.id in seen:
                raise ValueError(f"{path}: scenario id {s.id!r} repeats one of {seen[s.id].name}")
            seen[s.id] = path
            out.append(s)
    return out


@dataclass
class Result:
    """One question's outcome: right (a right value and no stale one), stale (a stale value and no right
    one), abstained; ``leak``: answered from a turn said after ``asked_on``."""
    scenario: Scenario
    question: dict[str, Any]
    reply: str
    source: str
    right: bool
    stale: bool
    abstained: bool
    leak: bool


def ask_one(mem: Any, s: Scenario, q: dict[str, Any], user: str | None) -> Result:
    """Ask one question as of its day and judge the reply."""
    answer = mem.ask(q["question"], asked_on=q["asked_on"], user=user)
    reply = answer.reply
    abstained = reply == ABSTAIN
    right = not abstained and any_of(reply, q["answers"]) and not any_of(reply, q["stale"])
    stale = not abstained and any_of(reply, q["stale"]) and not any_of(reply, q["answers"])
    source = getattr(answer, "source", "") or (answer.cited[0] if answer.cited else "")
    said = {t["id"]: _day(t["date"], t["id"]) for t in s.turns}
    day = said.get(source.split("/")[-1])
    leak = not abstained and day is not None and day > _day(q["asked_on"], "asked_on")
    return Result(s, q, reply, source, right, stale, abstained, leak)


def fact_right(mem: Any, check_: dict[str, Any], user: str | None) -> bool:
    """Whether the person's facts as of the day hold every ``holds`` value and no ``ended`` one: a fact
    holds then when it is not negated, began by then and had not ended (its text: predicate and object).
    A check with only ``ended`` values also needs one of them among the person's facts at any time: an
    end is checked, not a memory that never read the value."""
    when = datetime.combine(_day(check_["as_of"], "as_of"), datetime.min.time())
    texts = [f"{f.predicate} {f.object}" for f in mem.facts(check_["person"], as_of=check_["as_of"], user=user)
             if not f.negated and f.valid_from <= when and (f.valid_to is None or f.valid_to > when)]
    if not check_["holds"]:  # only an end to check: the value must have been read, or an empty memory passes
        ever = [f"{f.predicate} {f.object}" for f in mem.facts(check_["person"], user=user, history=True)]
        if not any(contains(t, v) for t in ever for v in check_["ended"]):
            return False
    return (all(any(contains(t, v) for t in texts) for v in check_["holds"])
            and not any(contains(t, v) for t in texts for v in check_["ended"]))


def score(make: Callable[[], Any], s: Scenario, user: str | None = None) -> tuple[list[Result], list[bool]]:
    """One scenario in a fresh memory from ``make``: every question's result and every facts check."""
    mem = make()
    records = [dict(t, **({"user": user} if user else {})) for t in s.turns]
    mem.ingest(records)
    try:
        return [ask_one(mem, s, q, user) for q in s.questions], [fact_right(mem, f, user) for f in s.facts]
    finally:
        if user:
            mem.forget(user=user)
