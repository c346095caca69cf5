"""The calibrated confidence: the probability that a question ``ask`` answers has an answer in the memory.

Why: word coverage (:mod:`graphmem.answer.sure`) is a share of the question's words, not a
probability, and its floor means something else on every dataset: on LongMemEval's chat between a
person and an assistant it barely tells the ``_abs`` questions from answerable ones, on LoCoMo's two
friends it misses adversarial questions that ask one speaker about what the other did
(docs/longmemeval.md). An agent acting on ``ask`` needs one number that means the same wherever it
reads it: of the answers given at 0.8, about eight in ten were answerable.

``Memory(confidence="calibrated")`` reads several signals known at answer time off the turns found
(:func:`features`: the first turn's coverage with and without the words no turn holds, how far it
leads the second, the best of the first five, whether it states the kind of value asked, whether the
person the question names said it, the shape of the exchange) and maps them through a logistic
regression and, where cross-validation chose one, an isotonic calibration. Both were fitted on
LongMemEval's development half and LoCoMo together (``_abs`` and adversarial questions unanswerable;
``python bench/fit_confidence.py``), every setting and the floor chosen by cross-validation grouped
by haystack and conversation; the fitted numbers ship as data (``confidence.json`` beside this
module), read here with numpy alone. ``confidence="calibrated+e5"`` adds e5's cosines over the turns found
(:mod:`graphmem.memory.sense`) and reads each shape's e5 head. The figures: docs/confidence.md.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from graphmem.answer.sure import coverage
from graphmem.domain import Turn
from graphmem.errors import DataError
from graphmem.index.query import Query
from graphmem.index.shape import is_assistant
from graphmem.memory.sense import E5, MEANING
from graphmem.memory.slots import asked_value, states
from graphmem.store.base import Weights
from graphmem.text.dates import time_marks
from graphmem.text.sentences import sentences
from graphmem.text.terms import analyse

__all__ = ["FEATURES", "Calibrated", "features"]

FEATURES = ("cover", "known", "unseen", "best5", "gap", "union5", "typed", "stated", "stated5", "dated",
            "first_person", "names", "named_said", "named_best", "named_lead", "named_best10", "named_lead10",
            "assisted", "terms", "found", "names_unseen", "names_missing", "named_union", "named_union_lead",
            "named_own", "named_own_lead", "ask_why", "ask_would", "ask_who", "ask_where")
"""What the model reads, in the order its coefficients are kept."""

_MODEL = "confidence.json"
TURNS = 10
"""How many of the turns found the signals read: the first five, and for who said what, ten."""


def features(vocab: Weights, query: Query, found: Sequence[Turn], speakers: Sequence[str]) -> dict[str, float]:
    """The signals known at answer time, over the turns ``found`` (best first; the first five read)
    and the ``speakers`` of the first turn's conversation:

    ``cover``/``known`` the first turn's coverage, counting the question's terms no turn holds as
    uncovered or leaving them out; ``unseen`` how many such terms; ``best5`` the best coverage of the
    first five; ``gap`` how far the first turn's coverage leads the second's (the store keeps no
    score every store shares, so coverage stands for it); ``union5`` the first five together;
    ``typed`` whether the question asks a kind of value (a date, a duration, a count, a time, a
    weekday) and ``stated`` whether the first turn states one (``stated5``: one of the first five);
    ``dated`` whether it names days; ``first_person``; ``names`` whether
    the question names a speaker of that conversation and ``named_said`` whether that speaker said
    the first turn (an adversarial question asks one friend about what the other did), ``named_best``
    the best coverage of the first five said by that speaker and ``named_lead`` how far it leads the
    best said by anyone else (``named_best10``, ``named_lead10``: over the first ten);
    ``assisted`` whether an assistant speaks there; ``terms`` the question's length (log);
    ``found`` how many of five turns were found; and the names the question asks of that the memory
    never heard of (:func:`_asked`), what the named person told (:func:`_unions`), the kind of question
    (:func:`_wh`). ``found`` holds :data:`TURNS` turns where the search
    found that many (``ask`` searches that deep with ``confidence="calibrated"``)."""
    asking = query.english
    terms = analyse(asking)
    seen = vocab.weights(terms)
    top = found[:5]
    deep = [coverage(vocab, asking, t.text, unseen=True) for t in found[:TURNS]] or [0.0]
    covers = deep[:5]
    first = top[0] if top else None
    kind = query.kind or asked_value(asking)
    said = first is not None and kind is not None and _states(kind, first.text)
    people = {s.lower().split()[0] for s in speakers if s.strip() and not is_assistant(s) and s.lower() != "user"}
    named = people & set(query.words)
    return {
        "cover": covers[0],
        "known": coverage(vocab, asking, first.text if first else None),
        "unseen": float(len({t for t in terms if t not in seen})),
        "best5": max(covers),
        "gap": covers[0] - (covers[1] if len(covers) > 1 else 0.0),
        "union5": coverage(vocab, asking, " ".join(t.text for t in top) if top else None, unseen=True),
        "typed": float(kind is not None),
        "stated": float(said),
        "stated5": float(kind is not None and any(_states(kind, t.text) for t in top)),
        "dated": float(bool(query.dates)),
        "first_person": float(query.of_asker),
        "names": float(bool(named)),
        "named_said": float(first is not None and _by(first, named)),
        "named_best": max((c for c, t in zip(covers, top) if _by(t, named)), default=0.0),
        "named_lead": _lead(covers, top, named),
        "named_best10": max((c for c, t in zip(deep, found[:TURNS]) if _by(t, named)), default=0.0),
        "named_lead10": _lead(deep, found[:TURNS], named),
        "assisted": float(any(is_assistant(s) for s in speakers)),
        "terms": math.log1p(len(set(terms))),
        "found": len(top) / 5,
    } | _asked(vocab, query.text, found[:TURNS], people) | _unions(vocab, asking, found[:TURNS], named) \
      | _wh(asking)


_CAPITAL = re.compile(r"(?<![.?!]\s)(?<!^)\b[A-Z][a-zA-Z'’]+")
"""A capitalised word not at the start of a sentence: how a name or a place is written."""

_WH = {"ask_why": re.compile(r"\b(why|how come|what made|what motivat|reason)", re.I),
       "ask_would": re.compile(r"\b(would|could|might|likely|probably|considered?)\b", re.I),
       "ask_who": re.compile(r"^\W*(who|whom|whose)\b", re.I),
       "ask_where": re.compile(r"^\W*where\b", re.I)}
"""The kind of question as people ask it: a reason (why), a guess (would / likely: the memory may only
suggest it), a person (who), a place (where)."""


def _asked(vocab: Weights, question: str, found: Sequence[Turn], people: set[str]) -> dict[str, float]:
    """Whether the names the question asks of (capitalised words not at a sentence's start, not the
    speakers', not "I") are in the memory at all (``names_unseen``: how many are not) and in the turns
    found (``names_missing``: the share absent from the first ten): a question about someone or
    somewhere the memory never heard of has no answer in it."""
    names = {w.lower() for w in _CAPITAL.findall(question)} - people - {"i", "i'm", "i've", "i'd"}
    terms = {t for n in names for t in analyse(n)}
    if not terms:
        return {"names_unseen": 0.0, "names_missing": 0.0}
    held = set(vocab.weights(sorted(terms)))
    there = {t for turn in found for t in analyse(turn.text)}
    return {"names_unseen": float(len(terms - held)), "names_missing": len(terms - there) / len(terms)}


def _unions(vocab: Weights, question: str, found: Sequence[Turn], named: set[str]) -> dict[str, float]:
    """Whether the person the question names said its words: the coverage of the question by that
    person's turns among the first ten found, together (``named_union``), and how far it leads the
    coverage by everyone else's (``named_union_lead``); ``named_own`` and ``named_own_lead`` the same
    over what each turn tells of its speaker (:func:`_told`: no question, nothing said to "you").
    "What did Ann paint?" asked where only Bob spoke of painting: the words are found, but not in
    Ann's mouth. 0 where no speaker is named."""
    if not named:
        return dict.fromkeys(("named_union", "named_union_lead", "named_own", "named_own_lead"), 0.0)
    out: dict[str, float] = {}
    for name, read in (("named_union", str.strip), ("named_own", _told)):
        mine = " ".join(read(t.text) for t in found if _by(t, named))
        theirs = " ".join(read(t.text) for t in found if not _by(t, named))
        own = coverage(vocab, question, mine, unseen=True) if mine.strip() else 0.0
        other = coverage(vocab, question, theirs, unseen=True) if theirs.strip() else 0.0
        out |= {name: own, f"{name}_lead": own - other}
    return out


_YOU = re.compile(r"\b(you|your|yours|you're|you've|you'd)\b", re.I)


def _told(text: str) -> str:
    """What a turn tells of its speaker: its sentences that neither ask nor speak to the other
    person. "What made you combine dance and fashion?" shows the listener did it, not the speaker."""
    return " ".join(s for s in sentences(text) if not s.rstrip().endswith("?") and not _YOU.search(s))


def _wh(question: str) -> dict[str, float]:
    """The kind of question (:data:`_WH`), one signal each."""
    return {name: float(bool(rx.search(question))) for name, rx in _WH.items()}


def _lead(covers: Sequence[float], turns: Sequence[Turn], named: set[str]) -> float:
    """How far the best coverage said by a person ``named`` leads the best said by anyone else (0: none named)."""
    if not named:
        return 0.0
    return max((c for c, t in zip(covers, turns) if _by(t, named)), default=0.0) \
        - max((c for c, t in zip(covers, turns) if not _by(t, named)), default=0.0)


def _by(turn: Turn, named: set[str]) -> bool:
    """Whether one of the people ``named`` (first names, lower case) said ``turn``."""
    return bool(turn.speaker.strip()) and turn.speaker.lower().split()[0] in named


def _states(kind: str, text: str) -> bool:
    """Whether ``text`` states the kind of value asked: a date or a duration as the index reads them
    (:func:`graphmem.text.dates.time_marks`), or a count, a time or a weekday (:mod:`graphmem.memory.slots`)."""
    if kind in ("when", "how long"):
        return kind in time_marks(text, None, (kind,))[1]
    return states(kind, text)


HEADS = ("assistant", "friends")
"""The model's two heads: an exchange where an assistant speaks (``assisted``), and people talking;
each may have a meaning head beside it (``assistant+meaning``), read where the static embedding is."""


class _Head:
    """One head: standardised signals, logistic regression, an isotonic map if any, its floor.
    A feature named ``a*b`` is the product of two signals."""

    def __init__(self, model: Mapping[str, Any]):
        """``model``: the head as confidence.json holds it (JSON: its values are checked below)."""
        names = tuple(model["features"])
        self.mean = np.asarray(model["mean"], dtype=np.float64)
        self.scale = np.asarray(model["scale"], dtype=np.float64)
        self.coef = np.asarray(model["coef"], dtype=np.float64)
        self.intercept = float(model["intercept"])
        self.floor = float(model["floor"])
        iso = model.get("isotonic") or {}
        self.iso_x = np.asarray(iso.get("x", ()), dtype=np.float64)
        self.iso_y = np.asarray(iso.get("y", ()), dtype=np.float64)
        unknown = {p for n in names for p in n.split("*")} - set(FEATURES) - set(MEANING) - set(E5)
        if unknown or not (len(names) == len(self.mean) == len(self.scale) == len(self.coef)):
            raise ValueError(f"its features {sorted(unknown) or len(names)} do not match this code's")
        self.names = names

    def __call__(self, signals: Mapping[str, float]) -> float:
        x = (np.array([math.prod(signals[p] for p in n.split("*")) for n in self.names]) - self.mean) / self.scale
        p = 1.0 / (1.0 + math.exp(-(float(x @ self.coef) + self.intercept)))
        return float(np.interp(p, self.iso_x, self.iso_y)) if len(self.iso_x) else p


class Calibrated:
    """The fitted model: a head per shape of exchange (``assistant``, ``friends``), each a logistic
    regression over the standardised signals, an isotonic map where cross-validation kept one, and
    the floor chosen with it out of fold. A probability means the same in either head; the floors
    differ because the share of unanswerable questions does."""

    def __init__(self, model: Mapping[str, Any], where: str = _MODEL):
        """``model``: parsed JSON, of any shape until checked here (a wrong one is a DataError)."""
        try:
            heads = model["heads"]
            self.heads = {h: _Head(heads[h]) for h in HEADS}
            self.heads |= {f"{h}+{kind}": _Head(heads[f"{h}+{kind}"]) for h in HEADS for kind in ("meaning", "e5")
                           if f"{h}+{kind}" in heads}
        except (KeyError, TypeError, ValueError) as e:
            raise DataError(f"{where}: not a calibrated confidence model ({e})") from None
        self.meaning = any(h.endswith("+meaning") for h in self.heads)
        """Whether a head reads the static embedding's signals (:mod:`graphmem.memory.sense`)."""

    @classmethod
    def load(cls, path: str | Path | None = None) -> Calibrated:
        """The model shipped beside this module, or the one at ``path`` (a refit)."""
        return _shipped() if path is None else cls(json.loads(Path(path).read_text()), str(path))

    def head(self, signals: Mapping[str, float]) -> _Head:
        """The head for the shape of exchange: its e5 head where the signals hold e5's cosines
        (``confidence="calibrated+e5"``), else its meaning head where they hold the static embedding's
        (:mod:`graphmem.memory.sense`: the ``dense`` extra is installed), where the model has one."""
        shape = "assistant" if signals["assisted"] else "friends"
        for kind, names in (("e5", E5), ("meaning", MEANING)):
            if f"{shape}+{kind}" in self.heads and all(n in signals for n in names):
                return self.heads[f"{shape}+{kind}"]
        return self.heads[shape]

    def judge(self, signals: Mapping[str, float]) -> tuple[float, float]:
        """The probability that the question is answerable from what was found, and the floor it is held against."""
        head = self.head(signals)
        return head(signals), head.floor

    def __call__(self, signals: Mapping[str, float]) -> float:
        """The probability that the question is answerable from what was found, in [0, 1]."""
        return self.head(signals)(signals)


@lru_cache(maxsize=1)
def _shipped() -> Calibrated:
    text = resources.files("graphmem.memory").joinpath(_MODEL).read_text()
    return Calibrated(json.loads(text), f"graphmem/memory/{_MODEL}")
