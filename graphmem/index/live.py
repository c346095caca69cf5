"""The memory's live index: each ingested turn searchable at once, at a cost set by the turn.

Why not rebuild: an index built over every turn at once (the research side's
:class:`graphmem.bench.research.bulk.BulkIndex`) reads every turn again whenever one is added, so feeding a
conversation turn by turn costs O(N^2), and its search scores every turn. Here a new turn is read once, its terms go into postings whose statistics update in
place, and only what the turn can change is read again:

- the turn replying to it (its second field: a numbered turn may arrive before the one it
  replies to, or a duplicate number may take its place);
- when it brings a speaker new to its conversation, that conversation's turns that name the
  speaker (a vocative is a name of someone in the conversation: "Thanks, Mel!" reads otherwise
  once Mel is known), and the turns replying to those.

Every choice of what to read is the bulk index's, so a memory fed one turn at a time answers
exactly as one built over the same turns at once (tests check it on LoCoMo): same stems, same
fields and weights, same BM25 arithmetic (:mod:`graphmem.index.postings`), the same structured
query (:func:`graphmem.index.query.query_groups`), the same tie order (ingest order).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain
from datetime import date

import numpy as np

from graphmem.claims.gcpause import paused_gc
from graphmem.claims.replies import unaddressed
from graphmem.domain import Turn
from graphmem.index.arrays import Grow
from graphmem.index.askers import Askers
from graphmem.index.children import Children
from graphmem.index.days import Days
from graphmem.index.live_dense import LiveDense, encoder, need_dense
from graphmem.index.live_search import LiveSearch
from graphmem.index.options import MemoryOptions
from graphmem.index.people import speaker_key
from graphmem.index.postings import Postings, field_counts, term_ids
from graphmem.index.readings import Reading, Readings
from graphmem.index.shape import reads_replies, reads_reply
from graphmem.index.vocabulary import LiveVocabulary
from graphmem.text.dates import ANSWER_TYPES, Span, time_marks
from graphmem.text.terms import analyse, terms_of, words

__all__ = ["LiveIndex"]


class LiveIndex(LiveSearch):
    """The records, their fields and their postings, kept up to date one record at a time."""

    def __init__(self, options: MemoryOptions, scope: bool = True, dense: bool = False):
        self.options, self.scope = options, scope
        if dense:
            need_dense()
        self.dense = LiveDense(encoder(options.dense_engine), options) if dense else None
        self.records: list[Turn] = []
        self.said: list[str] = []
        self.said_terms: list[list[str]] = []  # each utterance analysed once, for its field and its reply's
        self._speaker_terms: dict[str, list[str]] = {}
        self.replied: list[int | None] = []
        self.postings = Postings(options.k1, options.b)
        self.vocab = LiveVocabulary()
        self.types = {kind: Grow(np.int64) for kind in ANSWER_TYPES if kind in options.answer_types}
        self.days = Days()
        self.conv_of = Grow(np.int64)  # grows as turns come: a user of a few turns costs a few bytes here
        self.said_at = Grow(np.float64)
        self.conv_ids: dict[str, int] = {}
        self.conv_names: list[str] = []  # conv_ids' keys by number
        self.people: dict[str, set[str]] = {}
        self.speakers: dict[str, set[str]] = {}
        self.by_conv: dict[str, list[int]] = {}
        self.conv_turns: dict[str, Grow] = {}  # by_conv's lists as arrays, brought up to date by a scoped search
        self.numbered: dict[tuple, list[int]] = {}
        self.children = Children()
        self.askers = Askers()
        self.last: dict[str, int] = {}
        self._saved_types: list[tuple[str, ...]] = []
        self._spans: dict[int, list[tuple[date, date]]] = {}
        self.changed: set[int] = set()
        """Records read again since the caller last cleared this (a saved memory rewrites them)."""
        self.dead: set[int] = set()
        """The numbers of forgotten turns (:mod:`graphmem.index.forget`): they keep their place, counted nowhere."""

    @property
    def held(self) -> int:
        """How many turns the index holds (its forgotten ones not counted)."""
        return len(self.records) - len(self.dead)

    def __len__(self) -> int:
        return len(self.records)

    # ------------------------------------------------------------------ ingest
    def restore(self, records: Sequence[Turn], readings: Readings,
                kept: tuple[Postings, LiveVocabulary] | None = None) -> None:
        """Index records as a saved memory read them: nothing is read again, and the postings
        and document frequencies are built at once from the saved stems (the same counts a
        record-by-record build gives, in arrays rather than one term at a time), or taken as the
        memory kept them on closing (``kept``: :mod:`graphmem.store.sqlite.snapshot`)."""
        if len(self.records):
            raise ValueError("restore fills an empty index")
        if not len(records) == len(readings.said) == len(readings.terms) == len(readings.replied) == len(readings.types):
            raise ValueError("restore needs one reading per record")
        if kept is not None and not len(kept[0]) == kept[1].n == len(records):
            raise ValueError("restore needs postings of every record")
        self._keep_all(records, readings)
        if kept is not None:
            self.postings, self.vocab = kept
            return
        terms, text, context = self._fields()
        self.postings = Postings.built(self.options.k1, self.options.b, len(self.records), terms,
                                       [text] + ([context] if context is not None else []))
        self.vocab.restore(len(self.records), terms, text[0], text[1])

    def _keep_all(self, records: Sequence[Turn], readings: Readings, first: int = 0) -> None:
        """What :meth:`_keep` keeps, for many records at once and column by column (numbered from
        ``first``, the index's size): the same lists and maps, in the same order, without one
        call per record where the index was empty."""
        self.records.extend(records)
        self.said.extend(readings.said)
        self.said_terms.extend(readings.terms)
        self.replied.extend(readings.replied)
        self._saved_types.extend(readings.types)
        self._spans.update((i, spans) for i, spans in readings.spans.items() if spans)  # as _keep: only turns that speak of days
        if first == 0:
            self.children.restore(readings.replied)
        else:
            for i, j in enumerate(readings.replied, first):
                if j is not None:
                    self.children.add(j, i)
        for i, kinds in enumerate(readings.types, first):
            for kind in kinds:
                if kind in self.types:
                    self.types[kind].append(i)
        self.days.restore([r.date.date() if r.date is not None else None for r in records], readings.spans, first)
        convs = [r.conversation for r in records]
        for c in dict.fromkeys(convs):
            self._numbered(c)
        self.conv_of.extend(np.fromiter(map(self.conv_ids.__getitem__, convs), dtype=np.int64, count=len(convs)))
        for c, who in dict.fromkeys((r.conversation, r.speaker) for r in records):
            self.speakers.setdefault(c, set()).add(who)
            self.people.setdefault(speaker_key(who), set()).add(c)
        if first == 0:
            self.askers.restore(records)
        for i, r in enumerate(records, first):
            if first:  # the asker's marks, as _keep makes them: each turn against its conversation's earlier ones
                self.changed.update(self.askers.add(r, self.by_conv.setdefault(r.conversation, []), self.records))
            self.by_conv.setdefault(r.conversation, []).append(i)
            if r.number is not None:
                self.numbered.setdefault((r.conversation, r.date, r.number), []).append(i)
        self.last.update(zip(convs, range(first, first + len(convs))))

    def _fields(self, first: int = 0) -> tuple[list[str], tuple[np.ndarray, np.ndarray, float], tuple | None]:
        """The terms of records ``first`` on, and each of their BM25 fields as (document, term
        number, weight) per occurrence, documents counted from ``first``: ``"Speaker: utterance"``
        (:meth:`_indexed_terms`), and the utterance replied to. Each utterance's terms are numbered
        once and the reply field gathers them from the turn replied to (an earlier record's too)."""
        n = len(self.records)
        new = range(first, n)
        w = self.reply_weight
        weighed = bool(w)
        links = self.replied[first:]
        reads = reads_replies(self.options.shape, self.records, links, first) if weighed else [False] * len(links)
        replied = [j if read else -1 for j, read in zip(links, reads)]
        old = sorted({j for j in replied if 0 <= j < first})  # earlier records whose utterance a new one reads
        table = [self.said_terms[j] for j in old] + self.said_terms[first:]
        speakers = {self.records[i].speaker: None for i in new} if self.options.speaker else {}
        own = {who: self._speaker_terms.get(who) or analyse(f"{who}:") for who in speakers}
        self._speaker_terms.update(own)
        terms = sorted(set(chain.from_iterable(table)).union(*own.values()))
        index = {t: j for j, t in enumerate(terms)}
        ids, lens = term_ids(table, index)
        offsets = np.concatenate([[0], np.cumsum(lens)])
        docs = np.arange(n - first, dtype=np.int64)
        doc, term = np.repeat(docs, lens[len(old):]), ids[int(offsets[len(old)]):]
        if speakers:
            numbered = {who: [index[t] for t in ts] for who, ts in own.items()}
            spoken = [numbered[self.records[i].speaker] for i in new]
            slen = np.fromiter(map(len, spoken), dtype=np.int64, count=len(spoken))
            sid = np.fromiter(chain.from_iterable(spoken), dtype=np.int64, count=int(slen.sum()))
            doc, term = np.concatenate([np.repeat(docs, slen), doc]), np.concatenate([sid, term])
        if not weighed:
            return terms, (doc, term, 1.0), None
        row = {j: k for k, j in enumerate(old)}  # a replied-to record's row of the table
        src = np.fromiter((row[j] if j < first else len(old) + j - first for j in replied if j >= 0), dtype=np.int64)
        has = np.flatnonzero(np.asarray(replied, dtype=np.int64) >= 0)
        size = lens[src]
        gather = np.repeat(offsets[src] - np.concatenate([[0], np.cumsum(size)[:-1]]), size) + np.arange(int(size.sum()))
        return terms, (doc, term, 1.0), (np.repeat(has, size), ids[gather], w)

    def add(self, new: Sequence[Turn]) -> None:
        """Index the records in order, then re-read what they changed."""
        with paused_gc():  # many small acyclic objects: the collector's passes would free nothing
            self._add(new)

    def _add(self, new: Sequence[Turn]) -> None:
        if self.dense is not None:  # one encoding per ingest, as the bulk index encodes all at once
            self.dense.add(len(self.records), [(r.speaker, r.text) for r in new])
        if len(new) >= self.options.batch:
            self._add_batch(new)
            return
        for r in new:
            fresh = r.speaker not in self.speakers.setdefault(r.conversation, set())
            self.speakers[r.conversation].add(r.speaker)
            i = self._append(r)
            if r.number is not None:
                self._relink_after(r)
            if fresh and self.options.unaddressed:
                self._reread_naming(r.conversation, r.speaker, i)

    def _add_batch(self, new: Sequence[Turn]) -> None:
        """Many records at once, to the state :meth:`_append` one at a time leaves, column by
        column. The speakers new to a conversation are known before any new turn is read, so each
        new turn is read once, with its conversation's speakers, and only the earlier turns that
        name one are read again (a turn naming no one new reads the same either way); the new
        turns' reply links are made once all of them are held; the postings and document
        frequencies of the new turns are built as a restore builds them, then merged."""
        first = len(self.records)
        fresh = []
        for r in new:
            held = self.speakers.setdefault(r.conversation, set())
            if r.speaker not in held:
                held.add(r.speaker)
                fresh.append((r.conversation, r.speaker))
        if self.options.unaddressed:
            for conversation, speaker in fresh:
                self._reread_naming(conversation, speaker, -1)
        before = {r.conversation: self.last.get(r.conversation) for r in new}
        self._keep_all(new, self._read_all(new, first), first)
        self._link(new, first, before)
        terms, text, context = self._fields(first)
        self.postings.extend(len(new), terms, [text] + ([context] if context is not None else []))
        self.vocab.merge(len(new), terms, text[0], text[1])
        for r in new:  # earlier numbered turns a new one now comes before
            if r.number is not None:
                self._relink_after(r)

    def _read_all(self, new: Sequence[Turn], first: int) -> Readings:
        """What :meth:`read` reads of each new record but its reply link (made by :meth:`_link`)."""
        said, terms, types, spans = [], [], [], {}
        for i, r in enumerate(new, first):
            utterance, said_terms, (days, kinds) = self._reading(r)
            said.append(utterance)
            terms.append(said_terms)
            types.append(kinds)
            if days:
                spans[i] = days
        return Readings(said, terms, [None] * len(new), types, spans)

    def _link(self, new: Sequence[Turn], first: int, before: dict[str, int | None]) -> None:
        """Each new record's reply link, by :meth:`_reply_of`'s rule with every new numbered turn
        held; an unnumbered turn's, by the turn before it in its conversation (``before``: the
        last turn each conversation held before these)."""
        for i, r in enumerate(new, first):
            if r.number is not None:
                j = self._numbered_reply(r)
            else:
                j = before.get(r.conversation)
                j = j if j is not None and self.records[j].date == r.date else None
            before[r.conversation] = i
            if j is not None:
                self.replied[i] = j
                self.children.add(j, i)

    def _append(self, r: Turn) -> int:
        """Index one new record: read it, keep what was read, add its postings."""
        i = len(self.records)
        self._keep(r, self.read(r, i), i)
        counts, length = self._counts(i)
        self.postings.add(counts, length)
        self.vocab.add(set(self._indexed_terms(i)))
        return i

    def _numbered(self, conversation: str) -> int:
        """The conversation's number (the next one for a new conversation)."""
        n = self.conv_ids.get(conversation)
        if n is None:
            n = self.conv_ids[conversation] = len(self.conv_names)
            self.conv_names.append(conversation)
        return n

    def _keep(self, r: Turn, saved: Reading, i: int) -> None:
        """Everything the index keeps of record i but its postings and document frequencies."""
        self.records.append(r)
        self.said.append(saved.said)
        self.said_terms.append(saved.terms)
        self.replied.append(saved.replied)
        if saved.replied is not None:
            self.children.add(saved.replied, i)
        self._saved_types.append(saved.types)
        for kind in saved.types:
            if kind in self.types:
                self.types[kind].append(i)
        if saved.spans:
            self._spans[i] = saved.spans
        self.days.add(i, r.date.date() if r.date is not None else None, saved.spans)
        conv = self._numbered(r.conversation)
        self.conv_of.append(conv)
        self.people.setdefault(speaker_key(r.speaker), set()).add(r.conversation)
        self.changed.update(self.askers.add(r, self.by_conv.setdefault(r.conversation, []), self.records))
        self.by_conv[r.conversation].append(i)
        if r.number is not None:
            self.numbered.setdefault((r.conversation, r.date, r.number), []).append(i)
        self.last[r.conversation] = i

    def read(self, r: Turn, i: int) -> Reading:
        """What the index reads of a new record: everything a saved memory keeps of it."""
        said, terms, (spans, types) = self._reading(r)
        return Reading(said, terms, self._reply_of(r, i), types, spans)

    def _reading(self, r: Turn) -> tuple[str, list[str], tuple[list[Span], tuple[str, ...]]]:
        """A record's utterance, terms and time marks, its text split into words once (shared by an utterance that is the text)."""
        ws = words(r.text)
        said = self._utterance(r)
        same = said == r.text
        marks = time_marks(r.text, r.date if self.options.spans else None, self.types, ws)
        return (r.text, terms_of(ws), marks) if same else (said, analyse(said), marks)

    def reading(self, i: int) -> Reading:
        """What the index holds of record i now (for a saved memory to write)."""
        return Reading(self.said[i], self.said_terms[i], self.replied[i], self._saved_types[i], self._spans.get(i, []))

    def readings(self, first: int) -> Readings:
        """:meth:`reading` of records ``first`` on, column by column (a saved memory writes a batch)."""
        spans = {i: self._spans[i] for i in range(first, len(self.records)) if i in self._spans}
        return Readings(self.said[first:], self.said_terms[first:], self.replied[first:], self._saved_types[first:], spans)

    def indexed_terms(self, i: int) -> list[str]:
        """Turn i's first field (a store that searches elsewhere, Neo4j, writes it out)."""
        return self._indexed_terms(i)

    def fields(self, i: int) -> tuple[dict[str, float], float]:
        """Turn i's weighted BM25 term counts and length, as its postings hold them."""
        return self._counts(i)

    @property
    def reply_weight(self) -> float:
        """What a term of the reply field counts against one of the turn's own (0: no reply field):
        BM25F's field weight, the one setting both ways of filling the postings read."""
        return self.options.context_weight if self.options.context else 0.0

    def reply_field(self, i: int) -> list[str]:
        """Turn i's second field: the terms of the utterance it replies to, when it reads it."""
        j = self.replied[i]
        return list(self.said_terms[j]) if self.reply_weight and self._reads(i, j) else []

    def _utterance(self, r: Turn) -> str:
        return unaddressed(r.text, self.speakers[r.conversation]) if self.options.unaddressed else r.text

    def _indexed_terms(self, i: int) -> list[str]:
        """The terms of ``"Speaker: utterance"`` (of the utterance alone without ``speaker``):
        the speaker's terms then the utterance's, as analysing the joined text gives them."""
        if not self.options.speaker:
            return self.said_terms[i]
        who = self.records[i].speaker
        if who not in self._speaker_terms:
            self._speaker_terms[who] = analyse(f"{who}:")
        return self._speaker_terms[who] + self.said_terms[i]

    @property
    def context(self) -> list[str]:
        """Each record's second field: the utterance it replies to, or ""."""
        return [self.said[j] if j is not None else "" for j in self.replied]

    def _reply_of(self, r: Turn, i: int) -> int | None:
        """The record ``r`` (number ``i``) replies to, by the bulk index's rule (``_replied_to``)."""
        if r.number is not None:
            return self._numbered_reply(r)
        j = self.last.get(r.conversation)
        return j if j is not None and j != i and self.records[j].date == r.date else None

    def _numbered_reply(self, r: Turn) -> int | None:
        """The record a numbered record replies to: the latest held with a number up to
        ``context_reach`` before its own, on its day, in its conversation."""
        for n in range(1, self.options.context_reach + 1):
            held = self.numbered.get((r.conversation, r.date, r.number - n))
            if held:
                return held[-1]
        return None

    def _counts(self, i: int) -> tuple[dict[str, float], float]:
        """Turn i's BM25F term frequencies and length (:func:`graphmem.index.postings.field_counts`)."""
        return field_counts(self._indexed_terms(i), self.reply_field(i), self.reply_weight)

    def _reads(self, i: int, j: int | None) -> bool:
        """Whether record i reads record j, the one it replies to, as its second field."""
        return j is not None and reads_reply(self.options.shape, self.records[i], self.records[j])

    def _relink_after(self, r: Turn) -> None:
        """The numbered turns just after ``r`` may now reply to it (or to a later duplicate)."""
        for n in range(1, self.options.context_reach + 1):
            for d in self.numbered.get((r.conversation, r.date, r.number + n), ()):
                j = self._reply_of(self.records[d], d)
                if j != self.replied[d]:
                    self._refield(d, lambda d=d, j=j: self._relink(d, j))

    def _reread_naming(self, conversation: str, speaker: str, newest: int) -> None:
        """A speaker new to a conversation: its earlier turns that name them read again."""
        needle = speaker.strip().lower()[:3]  # a name matches whole or by a short form of 3+ letters
        if not needle:
            return
        for d in self.by_conv.get(conversation, ()):
            if d == newest or needle not in self.records[d].text.lower():
                continue
            said = self._utterance(self.records[d])
            if said != self.said[d]:
                replies = sorted(self.children.get(d))
                old = [self._counts(c)[0] for c in replies]
                old_terms = set(self._indexed_terms(d))
                self._refield(d, lambda d=d, said=said: self._resay(d, said))
                self.vocab.replace(old_terms, set(self._indexed_terms(d)))
                for c, was in zip(replies, old, strict=True):
                    self.postings.replace(c, was, *self._counts(c))

    def _relink(self, d: int, j: int | None) -> None:
        self.changed.add(d)
        if self.replied[d] is not None:
            self.children.remove(self.replied[d], d)
        if j is not None:
            self.children.add(j, d)
        self.replied[d] = j

    def _resay(self, d: int, said: str) -> None:
        self.changed.add(d)
        self.said[d] = said
        self.said_terms[d] = analyse(said)

    def _refield(self, d: int, change: Callable[[], None]) -> None:
        """Turn d's own field or its reply field changes (``change``): move only its postings."""
        old, _ = self._counts(d)
        change()
        self.postings.replace(d, old, *self._counts(d))
