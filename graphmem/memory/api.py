"""graphmem as a memory any program can use: ingest dialogue turns, search them, ask questions.

    from graphmem import Memory

    mem = Memory()
    mem.ingest([
        {"id": "d1", "speaker": "Ann", "text": "I adopted a dog called Rex yesterday.", "date": "2023-05-08"},
        {"id": "d2", "speaker": "Bob", "text": "Congrats! I went hiking in the Alps."},
    ])
    mem.search("Who adopted a dog?", k=1)     # ['d1']
    mem.hits("Who adopted a dog?", k=1)       # [Hit(turn=Turn(id='d1', ...), score=...)]
    mem.ask("When did Ann adopt a dog?")      # Answer(reply='7 May 2023', cited=('d1', 'd2'), confidence=...)
    mem.update("d2", text="Congrats! I went hiking in the Alps last month.")   # the new Turn

A memory holds one store (:mod:`graphmem.store`: in RAM by default, one SQLite file with
``path=``, Neo4j with ``backend="neo4j"``) and defines every verb once: records are validated
before any store sees them (:func:`graphmem.data.records.validate`), a query is parsed once
(:class:`graphmem.index.query.Query`), and the answer is read off the turns found by one reader.
Each store ranks by the same specification: a turn is indexed as ``"Speaker: utterance"`` with
its vocatives taken out ("Thanks, Caroline!" is said *to* Caroline, not about her) and, as a
second BM25F field at half weight, the turn it replies to; a question asking when or how long
also matches the turns that say when or how long, and a date it names also matches the turns
that speak of that day; a query naming a person the memory knows searches the conversations
that person takes part in first. Why each choice was made, with its figures: docs/memory.md.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from graphmem.answer import readable
from graphmem.answer.reader import Hit, Reader, ReaderSettings
from graphmem.answer.sure import sure
from graphmem.claims.gcpause import paused_gc
from graphmem.data.metadata import Where, matches, where_argument
from graphmem.data.records import as_record, placed, same
from graphmem.claims.facts import facts_of, kept
from graphmem.claims.people import fold
from graphmem.domain import ABSTAIN, DEFAULT_CONVERSATION, Answer, Claim, Fact, Hit as Found, Turn
from graphmem.errors import DataError, MisuseError
from graphmem.index.live_dense import need_dense
from graphmem.index.options import READERS, MemoryOptions
from graphmem.index.query import Query, said_until
from graphmem.index.shape import is_assistant, reader_settings
from graphmem.memory.asked import FACT_CONFIDENCE, answered, selected
from graphmem.memory.arguments import (Forgotten, When, conversation_of as _conversation, count as _count, listed as _listed,
                                       moment as _moment, name as _name, user_of as _user)
from graphmem.memory.updates import Rules, Updates, prefer_current
from graphmem.memory.calibrated import TURNS, Calibrated, features
from graphmem.memory.meaning import MEANING_FLOOR, meaning as _meaning
from graphmem.memory import sense
from graphmem.store.base import Store
from graphmem.store.open import open_store

__all__ = ["FACT_CONFIDENCE", "FLOOR", "MEANING_FLOOR", "Answer", "Fact", "Forgotten", "Found", "Memory", "Turn",
           "When"]

FLOOR = 0.30
"""The confidence below which ``ask`` abstains by default: the bench's own ``--floor``."""

class Memory:
    """A conversational memory over dialogue turns, kept by one store.

    ``Memory()`` keeps it in RAM, ``Memory(path=FILE)`` in one SQLite file, ``Memory(backend="neo4j")``
    in Neo4j (connection settings and ``timeout=`` as keyword arguments, or ``NEO4J_*`` and
    ``GRAPHMEM_NEO4J_TIMEOUT``), and ``Memory(store=...)`` in any :class:`graphmem.store.base.Store`.
    ``read_only=True`` opens it only to read: a file is then never written (any number of readers
    beside its one writer), and ingests are refused. ``options`` holds the index's settings
    (:class:`graphmem.index.options.MemoryOptions`; the defaults are what ships).
    """

    def __init__(self, backend: str = "memory", *, path: str | os.PathLike | None = None, store: Store | None = None,
                 floor: float = FLOOR, settings: ReaderSettings = ReaderSettings(), dense: bool = False,
                 scope: bool = True, options: MemoryOptions = MemoryOptions(), confidence: str = "coverage",
                 meaning_floor: float = MEANING_FLOOR, read_only: bool = False, **neo4j: Any):
        if options.reader not in READERS:
            raise MisuseError(f"unknown reader {options.reader!r}: choose {' or '.join(map(repr, READERS))}")
        self.floor = floor
        self.meaning_floor = meaning_floor
        self._meaning = _meaning(confidence, options)  # the extra and WordNet checked before anything is built
        self._calibrated = Calibrated.load() if confidence.startswith("calibrated") else None
        self._e5 = confidence == "calibrated+e5"  # e5's cosines among the signals (sense.e5): the dense extra
        if self._e5:
            need_dense()
        self.settings = settings
        self.options = options
        self._rules = Rules.of(options)  # the knowledge updates' settings, read once
        self.read_only = read_only
        self._store = store if store is not None else open_store(backend, path, options, scope, dense, read_only, **neo4j)
        self._lock = threading.RLock()  # one thread may ingest while others search
        self._closed = False

    @property
    def store(self) -> Store:
        """The store this memory keeps its turns in."""
        return self._store

    def close(self) -> None:
        """Close the store (a file's lock, a connection); ``with Memory(...) as mem:`` does it on leaving."""
        with self._lock:
            if not self._closed:
                self._closed = True
                self._store.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __len__(self) -> int:
        with self._lock:
            self._open_or_raise()
            return len(self._store)

    def turns(self, conversation: str | None = None, user: str | None = None) -> Iterator[Turn]:
        """Every turn of ``user`` the memory holds (of one conversation): conversation by conversation
        in the order of their ids, each conversation's turns in the order they were added. ``user``
        None: the turns that carry no user."""
        user, conversation = _user(user), _conversation(conversation)
        with self._lock:
            self._open_or_raise()
            return iter(list(self._store.turns(conversation, user)))

    def ingest(self, records: Iterable[Mapping[str, Any] | Turn]) -> int:
        """Add dialogue turns (dicts with id, speaker, text; optional date, conversation, turn).

        All records are validated first; a bad one raises ``DataError`` naming it and nothing is
        ingested. A record whose id the memory holds already with the same content is that turn
        again, and is skipped; with other content it is refused. Returns how many turns were added."""
        with self._lock:
            self._open_or_raise()
            if self.read_only:
                raise MisuseError(f"{self._store.where}: this memory was opened read-only; it takes no turns")
            with paused_gc():  # records, readings, postings: many small acyclic objects
                new = self._fresh(placed(_listed(records)))
                self._store.add(new)
            return len(new)

    def forget(self, ids: Iterable[str] | None = None, conversation: str | None = None, user: str | None = None,
               *, everything: bool = False) -> int:
        """Remove turns, and everything derived from them, at once: their postings and the
        statistics they counted in, their vectors, their claims (and people left with none), the
        saved index's snapshot. Afterwards every search, answer and claim is that of a memory that
        never ingested them. Which turns: ``ids`` (of ``user``), or every turn of ``conversation``
        (of ``user``), or with neither every turn of ``user`` (``user=None`` needs ``everything=True``:
        the turns that carry no user are not forgotten by an argument left out); ``ids`` and
        ``conversation`` together: those of the ids in that conversation. Returns how many
        (:meth:`forgetting` says which of the ids matched)."""
        return self._forget(ids, conversation, user, everything, report=False).removed

    def forgetting(self, ids: Iterable[str] | None = None, conversation: str | None = None,
                   user: str | None = None, *, everything: bool = False) -> Forgotten:
        """:meth:`forget`, saying which of ``ids`` matched a turn of ``user`` (and ``conversation``) and
        which did not: what the command line and the MCP server tell, so that "0 forgotten" is never
        taken for "forgotten". An id held under another user is "not found" like any other: a caller
        learns nothing of another partition (the ids are looked up first: one more read of the store)."""
        return self._forget(ids, conversation, user, everything, report=True)

    def _forget(self, ids: Iterable[str] | None, conversation: str | None, user: str | None, everything: bool,
                report: bool) -> Forgotten:
        user, conversation = _user(user), _conversation(conversation)
        if ids is not None:
            if isinstance(ids, str):
                raise DataError("ids must be a list of ids, not one string")
            try:
                ids = list(dict.fromkeys(_name(i, "an id") for i in ids))
            except TypeError:
                raise DataError(f"ids must be a list of ids, not {type(ids).__name__}") from None
        with self._lock:
            self._open_or_raise()
            if self.read_only:
                raise MisuseError(f"{self._store.where}: this memory was opened read-only; it forgets nothing")
            if ids is not None:
                gone = ids
                if conversation is not None or report:
                    held = self._store.held(ids, user)
                    gone = [i for i in ids if i in held and (conversation is None or held[i].conversation == conversation)]
                matched = set(gone)
                found = Forgotten(0, tuple(gone), tuple(i for i in ids if i not in matched)) if report else Forgotten(0)
            elif conversation is not None or user is not None or everything:
                gone, found = self._store.keys(conversation, user), Forgotten(0)
            else:
                raise MisuseError("say what to forget: ids=, conversation=, user=, or everything=True")
            return found._replace(removed=self._store.forget(gone, user))

    def get(self, id: str, user: str | None = None) -> Turn | None:
        """The turn held under ``id`` (of ``user``), or None."""
        id, user = _name(id, "id"), _user(user)
        with self._lock:
            self._open_or_raise()
            return self._store.held([id], user).get(id)

    def update(self, id: str, *, text: str | None = None, speaker: str | None = None, date: datetime | str | None = None,
               metadata: Mapping[str, Any] | None = None, user: str | None = None) -> Turn:
        """Change a held turn: its text, speaker, date or metadata (each left as it is when not given;
        ``metadata`` replaces the whole map, ``{}`` empties it). One transaction of the store, which
        then answers as a memory that forgot the turn and ingested the new record: the same id,
        conversation and number, its claims read again, and it comes last in ingest order (a change
        to nothing writes nothing). Returns the turn now held; an unknown id is a ``DataError``."""
        id, user = _name(id, "id"), _user(user)
        with self._lock:
            self._open_or_raise()
            if self.read_only:
                raise MisuseError(f"{self._store.where}: this memory was opened read-only; it updates nothing")
            held = self._store.held([id], user).get(id)
            if held is None:
                raise DataError(f"id {id!r}: the memory holds no such turn" + (f" of user {user!r}" if user else "")
                                + " (ingest it instead)")
            record = as_record(held)
            given = {"text": text, "speaker": speaker, "date": date, "metadata": metadata}
            record.update((field, value) for field, value in given.items() if value is not None)
            [(_, turn)] = placed([record], [f"update of id {id!r}"])
            if not same(turn, held):
                with paused_gc():
                    self._store.update([turn])
            return turn

    def check(self, records: Sequence[Mapping[str, Any] | Turn], source: str | Sequence[str] = "record") -> int:
        """Validate records against what the memory holds, adding nothing (``DataError`` names the
        first bad one): a long file is checked whole before its first batch is ingested. Returns
        how many of them the memory does not hold yet. ``source`` names the records' places: a word
        (``record`` gives ``record 3``), or each record's own (``file: line 3``)."""
        with self._lock:
            self._open_or_raise()
            return len(self._fresh(placed(_listed(records), source)))

    def _fresh(self, turns: list[tuple[object, Turn]]) -> list[Turn]:
        """The validated turns the store does not hold; one held with other content is refused,
        naming its place."""
        by_user: dict[str | None, list[str]] = {}
        for _, t in turns:
            by_user.setdefault(t.user, []).append(t.id)
        held = {(user, i): t for user, ids in by_user.items() for i, t in self._store.held(ids, user).items()}
        for where, t in turns:
            if (t.user, t.id) in held and not same(held[t.user, t.id], t):
                raise DataError(f"{where}: the memory holds id {t.id!r} already, with other content"
                                " (a turn's id is unique within its user's turns)")
        return [t for _, t in turns if (t.user, t.id) not in held]

    def _open_or_raise(self) -> None:
        if self._closed:
            raise MisuseError(f"{self._store.where}: this memory was closed; open it again")

    def claims(self, conversation: str = DEFAULT_CONVERSATION, user: str | None = None) -> tuple[Claim, ...]:
        """The claims read from a conversation's turns, in turn order (:mod:`graphmem.store.claims`).
        Embedded, the first call for a conversation reads its turns' claims (a saved memory writes
        them to its file, so they are read once), holding the memory's lock; later calls read only
        the turns ingested since."""
        conversation, user = _name(conversation, "conversation"), _user(user)
        with self._lock:
            self._open_or_raise()
            return self._store.claims(conversation, user)

    def facts(self, about: str, as_of: When = None, user: str | None = None, history: bool = False) -> list[Fact]:
        """What holds about a person (``about``: a name) across ``user``'s conversations, oldest first:
        each fact a clause of what was said, with its attribute and value (:mod:`graphmem.claims.facts`:
        where one lives, works, their partner, pets, diet...), valid from the day it was said until a
        later statement ended it. ``as_of``: what held then, from what was said by the end of its day
        (an end said later is no end yet: that fact holds, with no ``valid_to``). ``history``:
        every fact said instead, each attribute's values together in order, the ended ones with
        ``valid_to`` and ``ended_by``."""
        if not isinstance(about, str) or not fold(about):
            raise DataError(f"about must be a person's name, not {about!r}")
        moment, user = _moment(as_of, "as_of"), _user(user)
        with self._lock:
            self._open_or_raise()
            claims = self._store.claims_about(fold(about), user)
        moment = said_until(moment)  # as of a day, only what was said by its end: an end said later is no end yet
        if moment is not None and any(c.date > moment for c in claims):  # else the store's read claims kept
            claims = kept(claims, lambda c: c.date <= moment)
        return facts_of(claims, fold(about), moment, history)  # a store's claims as it gives them: their facts made once

    def search(self, query: str, k: int = 5, conversation: str | None = None, asked_on: When = None,
               user: str | None = None, where: Mapping[str, Any] | None = None) -> list[str]:
        """Turn ids best first (at most k), of ``user``'s turns only (None: those that carry no user).
        ``asked_on`` (a datetime, a date, or a date string as records take): when the query is
        asked, so its relative dates ("10 days ago", "last week") name days, as the dates it names
        ("in May 2023") always do; without it they name none. ``where``: only turns whose metadata
        holds, under every name given, that value (or one of a list of values)."""
        return [t.id for t in self._found(query, k, conversation, asked_on, user, where)[0]]

    def hits(self, query: str, k: int = 5, conversation: str | None = None, asked_on: When = None,
             user: str | None = None, where: Mapping[str, Any] | None = None) -> list[Found]:
        """``search``'s turns whole, best first, each with its score (:class:`graphmem.domain.Hit`:
        its id, speaker, text, date, conversation and metadata at hand)."""
        found, _, scores = self._found(query, k, conversation, asked_on, user, where)
        return [Found(t, scores.get(t.id)) for t in found]

    def records_for(self, query: str, k: int = 5, conversation: str | None = None, asked_on: When = None,
                    user: str | None = None, where: Mapping[str, Any] | None = None) -> list[Turn]:
        """The turns ``search`` returns, best first: ``hits`` without the scores (kept for the
        callers written before it)."""
        return self._search(query, k, conversation, asked_on, user, where)

    def search_conversations(self, query: str, k: int = 5, asked_on: When = None, user: str | None = None,
                             where: Mapping[str, Any] | None = None) -> list[str]:
        """The conversations the query is most about, best first (at most k): which past chat to
        show, or to read whole. Each scores its best turn and, at a fraction, its next best
        (:mod:`graphmem.index.conversations`), the named person's conversations first, as
        ``search`` puts their turns; ``asked_on`` and ``where`` as for ``search``."""
        filtered = where_argument(where)
        return self._asked(query, k, asked_on, lambda q, n: self._store.conversations(q, n, user, filtered), user=user)

    def ask(self, question: str, k: int = 5, conversation: str | None = None, asked_on: When = None,
            user: str | None = None, where: Mapping[str, Any] | None = None) -> Answer:
        """The reply (a phrase of the first turn found, as written, or a date; or ``No information
        available``), the sentence it came from, the cited turns, the confidence: read off
        ``user``'s turns only (those ``where`` selects, as for ``search``)."""
        return self.ask_with_turns(question, k, conversation, asked_on, user, where)[0]

    def ask_with_turns(self, question: str, k: int = 5, conversation: str | None = None, asked_on: When = None,
                       user: str | None = None, where: Mapping[str, Any] | None = None) -> tuple[Answer, list[Turn]]:
        """``ask``, and the turns it found, best first (the cited ones first): for a caller that shows
        the cited turns whole, as ``graphmem ask`` and the MCP server do. One search serves both, so
        the reply, its confidence (which reads the turns a knowledge update replaced) and the turns
        shown always agree."""
        k = _count(k)  # checked before it is compared with the meaning's turns
        if self._meaning is None:
            with self._lock:  # searched and read against the same turns
                found, replaced, _ = self._found(question, max(k, self.confidence_turns) if k > 0 else k, conversation,
                                                 asked_on, user, where)
                held = self._from_facts(question, found, k, conversation, asked_on, user, where)
                return held or (self._answer(question, found, replaced, cite=k), found)
        # the meaning confidence reads more turns than are cited, and embeds them without the memory's
        # lock (an ingest need not wait for it): the reader may see turns ingested since the search
        found, replaced, _ = self._found(question, max(k, self.confidence_turns) if k > 0 else k, conversation,
                                         asked_on, user, where)
        held = self._from_facts(question, found, k, conversation, asked_on, user, where)
        return held or (self._answer(question, found, replaced, cite=k), found)

    def _from_facts(self, question: str, found: list[Turn], k: int, conversation: str | None, asked_on: When,
                    user: str | None, where: Mapping[str, Any] | None) -> tuple[Answer, list[Turn]] | None:
        """The answer from what holds (:mod:`graphmem.memory.asked`): for a question asking a
        person's attribute, the value of the fact of it that holds for them as of ``asked_on``, its
        turn cited first (each value's, for several; brought in when the search missed them), or None to
        read the turns found (also when a fact's turn is not one ``where`` selects)."""
        if k == 0 or not self.options.updates or self.options.reader != "readable" or FACT_CONFIDENCE < self.floor:
            return None  # the benchmark's extractive reader reads turns only
        moment = said_until(_moment(asked_on))
        with self._lock:
            return answered(self._store, question, found, k, conversation, user, moment, where_argument(where))

    @property
    def confidence_turns(self) -> int:
        """How many of the turns found ``answer_from`` judges its confidence by: the first (word
        coverage), ``MemoryOptions.meaning_turns`` with ``confidence="meaning"``, or
        :data:`graphmem.memory.calibrated.TURNS` with ``confidence="calibrated"``."""
        if self._meaning is not None:
            return self._meaning.turns
        return TURNS if self._calibrated is not None else 1

    def answer_from(self, question: str, found: Sequence[Turn], cite: int | None = None) -> Answer:
        """The answer read off turns already found (``records_for``), best first: what ``ask`` does
        after searching, for a caller that also wants the turns. The reader reads and cites the
        first ``cite`` of them (None: all). With ``confidence="meaning"`` the confidence is judged
        by the first ``confidence_turns`` of ``found``: pass that many, as ``ask`` does."""
        return self._answer(question, found, {}, cite)

    def _answer(self, question: str, found: Sequence[Turn], replaced: dict[str, tuple[str, ...]],
                cite: int | None = None) -> Answer:
        """``answer_from``, the first turn's coverage judged with the turns it replaced (``_found``)."""
        measure = "meaning" if self._meaning is not None and found \
            and self._assisted(found[0].conversation, found[0].user) \
            else "calibrated" if self._calibrated is not None else "coverage"
        cited = found[:cite]
        if not cited:  # nothing found, or nothing to cite: nothing to judge
            return Answer(ABSTAIN, (), 0.0, measure if found or self._meaning is None else "meaning")
        if measure == "calibrated":
            return self._read(question, cited, self.signals(question, found), measure)
        if measure == "coverage" or self._meaning is None:  # (not None: the measure is the meaning's)
            return self._read(question, cited, None, measure, replaced.get(cited[0].id, ()))
        return self._read(question, cited, self._meaning(question, found), measure)

    def floor_of(self, answer: Answer) -> float:
        """The floor ``answer``'s confidence was held against: the coverage's, the meaning's or the
        calibrated model's (chosen with it, out of fold)."""
        if answer.floor is not None:
            return answer.floor
        return self.meaning_floor if answer.measure == "meaning" else self.floor

    def signals(self, question: str, found: Sequence[Turn]) -> dict[str, float]:
        """The signals ``confidence="calibrated"`` reads off the turns found, best first (``calibrated.features``, ``sense``'s too
        where a head or a refit reads them): for a caller that studies or refits it."""
        query = Query.parse(question)
        with self._lock:
            speakers = self._store.speakers(found[0].conversation, found[0].user) if found else []
            vocab = self._store.weights(query, found, found[0].user if found else None)  # the asking user's words
            read = sense.available() and (self._calibrated is None or self._calibrated.meaning)  # the dense extra's
            return features(vocab, query, found, speakers) | (sense.meaning(question, found, vocab.weight) if read else {}) \
                | (sense.e5(question, found) if self._e5 else {})

    def _assisted(self, conversation: str, user: str | None) -> bool:
        """Whether an assistant speaks in ``user``'s ``conversation``: the shape the meaning confidence is for."""
        with self._lock:
            return any(is_assistant(who) for who in self._store.speakers(conversation, user))

    def _covered(self, found: Sequence[Turn]) -> str:
        """The text whose coverage of the question is the confidence: the first turn found."""
        return found[0].text

    def _read(self, question: str, found: Sequence[Turn], confidence: float | dict[str, float] | None, measure: str,
              replaced: Sequence[str] = ()) -> Answer:
        """The reader (``MemoryOptions.reader``) over ``found`` when ``confidence`` reaches the ``measure``'s floor (None:
        the first turn's word coverage, or a replaced one's (``replaced``: their texts); signals: the calibrated model's)."""
        query = Query.parse(question)
        with self._lock:  # the vocabulary may not move under the reader
            vocab = self._store.weights(query, found, found[0].user)  # the words of the user whose turns they are
            floor = None
            if isinstance(confidence, dict):
                assert self._calibrated is not None
                confidence, floor = self._calibrated.judge(confidence)
            if confidence is None:
                confidence = max(sure(vocab, query.english, text, unseen=self.options.sure_unseen)
                                 for text in (self._covered(found), *replaced))
            hits = [Hit(r.id, r.text, r.date or datetime.now()) for r in found]
            answer = Answer(ABSTAIN, tuple(r.id for r in found), confidence, measure, floor=floor)
            if confidence < self.floor_of(answer):
                return answer
            if self.options.reader == "extractive":
                settings = reader_settings(self.options.phrase, self.settings, found)
                return replace(answer, reply=Reader(vocab, settings).read(query.english, hits))
            read = readable.read(query.english, hits, vocab)
            return replace(answer, reply=read.reply, sentence=read.sentence, source=read.source)

    def build(self) -> None:
        """Make the store ready to search now (a store that indexes as it adds has nothing to build)."""
        with self._lock:
            self._store.build()

    def _search(self, query: str, k: int, conversation: str | None, asked_on: When = None,
                user: str | None = None, where: Mapping[str, Any] | None = None) -> list[Turn]:
        return self._found(query, k, conversation, asked_on, user, where)[0]

    def _found(self, query: str, k: int, conversation: str | None, asked_on: When = None,
               user: str | None = None, where: Mapping[str, Any] | None = None
               ) -> tuple[list[Turn], dict[str, tuple[str, ...]], dict[str, float]]:
        """The turns found, best first; for a turn the update rules put in the place of others
        (:mod:`graphmem.memory.updates`), the texts of those it replaced: what ``ask``'s confidence
        reads beside it (the question asked of the turns it replaced); and each found turn's score."""
        replaced: dict[str, tuple[str, ...]] = {}
        scores: dict[str, float] = {}
        filtered = where_argument(where)

        def run(q: Query, n: int) -> list:
            if not self.options.updates:
                return _scored(self._store.search(q, n, conversation, user, filtered), scores)
            rules = self._rules
            reads = rules.reads(q.english)
            found = _scored(self._store.search(q, max(n, reads), conversation, user, filtered), scores)
            asked = Updates(q.english, q.asked_on, q.kind, lambda: self._store.weights(q, found[:reads], user),
                            lambda p: selected(self._store, p, user, None, filtered), self._held(filtered, user))
            order, stands = prefer_current(found, asked, rules)
            replaced.update(stands)
            return order[:n]

        found = self._asked(query, k, asked_on, run, conversation, user)
        return found, replaced, scores

    def _held(self, where: Where | None, user: str | None) -> Callable[[Collection[str]], dict[str, Turn]]:
        """``user``'s turns by id, for the update rules to bring in: only those ``where`` selects."""
        if not where:
            return lambda ids: self._store.held(ids, user)
        return lambda ids: {i: t for i, t in self._store.held(ids, user).items() if matches(t.metadata, where)}

    def _asked(self, query: str, k: int, asked_on: When, run: Callable[[Query, int], list],
               conversation: str | None = None, user: str | None = None) -> list:
        """``run`` (a search of turns or of conversations, given the query and k) over the store,
        under the memory's lock, every argument checked first: here once, so no store checks them
        and a ``k`` of ``True`` or ``"5"`` never reaches one. Nothing is asked for k == 0."""
        if not isinstance(query, str):
            raise DataError(f"a query must be a string, not {type(query).__name__}")
        k = _count(k)
        _user(user)
        _conversation(conversation)
        parsed = Query.parse(query, _moment(asked_on))
        with self._lock:
            self._open_or_raise()
            if k == 0:
                return []
            return run(parsed, k)


def _scored(found: Sequence[tuple[Turn, float]], scores: dict[str, float]) -> list[Turn]:
    """A store's search as its turns, their scores kept in ``scores`` (by key)."""
    scores.update((t.id, s) for t, s in found)
    return [t for t, _ in found]

