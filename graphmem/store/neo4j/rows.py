"""What Neo4j keeps of a turn so that the database can search it: the ranker's fields as rows.

Why rows of the live index's reading: the memory's ranking is its product (stems without
vocatives, the turn replied to as a second field at half weight, answer types, the days a turn
speaks of), and the database must rank by the same reading, not by Lucene's analysis of the raw
text. So the turn's fields are read by :class:`graphmem.index.live.LiveIndex` (one per
conversation: every rule it applies looks only inside the turn's conversation) and written
pre-stemmed into a full-text index with a whitespace analyser:

- ``terms``: the stems of ``"Speaker: utterance"`` (vocatives out), the first field;
- ``context``: the stems of the utterance it replies to, the second field;
- ``marks``: ``#when``/``#how_long`` (answer types), ``#asker`` (the asker's turn,
  :mod:`graphmem.index.askers`), ``day_<ordinal>`` and ``mon_<y>_<m>`` (the day it was said),
  ``smon_<y>_<m>`` (each month a day span it speaks of touches) -- what a query's answer type,
  first person and dates look up, re-checked exactly on the candidates;
- ``scope``: the conversation id, so a search can be limited to some conversations in Lucene, the
  owner's token (:func:`graphmem.store.users.owner`) and the tokens of the turn's metadata
  (:func:`graphmem.data.metadata.token`), so a search keeps to a user's turns and a filter's;
- ``replied``: the key of the turn it replies to (the dense side shares that turn's cosine).

``bag`` and ``own`` are the distinct stems whose document frequencies the turn counts in (BM25's
over both fields, the reader's over its own), kept on the Term nodes by ``index_turns.cypher``.
``bag`` also holds tokens no stem can be, so a search reads every document frequency it needs
off a Term node instead of counting: ``#when`` (the turns giving that answer type),
``&go|goe|gone|...`` (holding any stem of an irregular family: a query group's df), ``@<ordinal>``
(said that day) and ``@<y>_<m>`` (said in that month or speaking of days in it).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import date
from typing import TYPE_CHECKING

from graphmem.data.metadata import tokens
from graphmem.domain import Claim
from graphmem.domain import Turn
from graphmem.errors import DataError
from graphmem.index.live import LiveIndex
from graphmem.index.query import family_sets
from graphmem.store.neo4j.keys import person_key
from graphmem.store.users import owner
from graphmem.text.dates import months_touched as months
from graphmem.search.dense import passages

if TYPE_CHECKING:  # a type only: the embedding is an optional extra
    from graphmem.search.dense import Encoder

ASKER = "#asker"
"""The mark of an asker's turn, so Lucene's candidates weigh it as the ranking does."""

DIMENSIONS = 384
"""The vector index's dimensions (``schema.cypher``): multilingual-e5-small's, every engine's."""

__all__ = ["ASKER", "DIMENSIONS", "claim_rows", "family_token", "index_row", "mark_of", "month_token", "person_row", "restood",
           "said_token", "sentence_rows", "turn_key"]


def turn_key(turn: Turn) -> str:
    """A turn's key in Neo4j: its id, unique within the memory as in every store."""
    return turn.id


def mark_of(kind: str) -> str:
    """The token an answer type is indexed as (``how long`` -> ``#how_long``): never a stem."""
    return "#" + kind.replace(" ", "_")



def _fields(index: LiveIndex, i: int) -> tuple[list[str], list[str], float]:
    """Turn i's two BM25 fields and its weighted length, as the live index counts them."""
    _, length = index.fields(i)
    return index.indexed_terms(i), index.reply_field(i), length


def index_row(index: LiveIndex, i: int) -> dict:
    """The ``index_turns.cypher`` row of record i of a conversation's live index."""
    r: Turn = index.records[i]
    own, context, length = _fields(index, i)
    read = index.reading(i)
    day = r.date.date() if r.date is not None else None
    marks = [mark_of(kind) for kind in read.types] + ([ASKER] if index.askers.mine.view()[i] else [])
    if day is not None:
        marks += [f"day_{day.toordinal()}", f"mon_{day.year}_{day.month}"]
    spans = list(read.spans)
    for a, b in spans:
        marks += [f"smon_{y}_{m}" for y, m in months(a, b)]
    fields = {
        "terms": " ".join(own), "context": " ".join(context), "marks": " ".join(dict.fromkeys(marks)),
        "scope": " ".join([r.conversation, owner(r.user), *tokens(r.metadata)]), "length": length, "types": list(read.types),
        "day": day.toordinal() if day is not None else None,
        "span_lo": [a.toordinal() for a, _ in spans], "span_hi": [b.toordinal() for _, b in spans],
        "replied": None if index.replied[i] is None else turn_key(index.records[index.replied[i]]),
    }
    stems = set(own) | set(context)
    bag = sorted(stems | {mark_of(kind) for kind in read.types} | _family_tokens(stems) | _day_tokens(day, spans))
    return {"key": turn_key(r), "fields": fields, "bag": bag, "own": sorted(set(own))}


def family_token(stems: frozenset[str]) -> str:
    """The token whose document frequency is a query group's: the turns holding any of its stems."""
    return "&" + "|".join(sorted(stems))


def _family_tokens(stems: set[str]) -> set[str]:
    families = family_sets()
    return {family_token(f) for s in stems for f in families.get(s, ())}


def said_token(day: date) -> str:
    """The token counting the turns said on one day."""
    return f"@{day.toordinal()}"


def month_token(y: int, m: int) -> str:
    """The token counting the turns a month query matches: said in that month, or speaking of
    days in it."""
    return f"@{y}_{m}"


def _day_tokens(day: date | None, spans: list[tuple[date, date]]) -> set[str]:
    out = {said_token(day), month_token(day.year, day.month)} if day is not None else set()
    return out | {month_token(y, m) for a, b in spans for y, m in months(a, b)}


def person_row(conversation: str, key: str, name: str, speaks: bool, human: bool, n: int = -1,
               fixed: bool = False) -> dict:
    """A ``write_claims.cypher`` person row: a named party, and whether it is a person by the rule
    (``human``: :func:`graphmem.claims.naming.persons`), which every row sets. ``fixed``: the row is
    the graph's own (a load's, from the mirror) and sets the party's name, speaker flag and order;
    otherwise they are set only when the party is new."""
    return {"key": person_key(conversation, key), "id": key, "conversation": conversation, "name": name,
            "speaker": speaks, "human": human, "n": n, "fixed": fixed}


def restood(conv: str, named: Iterable[str], humans: Collection[str], before: Collection[str],
            speakers: dict[str, str], people: dict[str, dict]) -> None:
    """Add to ``people`` (rows by key) a row for each of ``named`` whose standing as a person moved
    between ``before`` and ``humans`` (:func:`graphmem.claims.naming.persons`) and has no row yet:
    a write's new turns, or a forgetting, may make a named party a person or no longer one."""
    for k in named:
        key = person_key(conv, k)
        if (k in humans) != (k in before) and key not in people:
            people[key] = person_row(conv, k, speakers.get(k, k), k in speakers, k in humans)


def claim_rows(conv: str, key: str, claims: Sequence[Claim], speakers: dict[str, str],
               humans: Collection[str]) -> tuple[list[dict], list[dict]]:
    """The ``write_claims.cypher`` rows of one turn's claims (the turn keyed ``key`` in
    conversation ``conv``), and the rows of the people they name. ``speakers`` maps a person key
    to the speaker's name; anyone else is named by their key. ``humans``: the keys of the people."""
    people: dict[str, dict] = {}

    def person(k: str) -> str:
        people.setdefault(k, person_row(conv, k, speakers.get(k, k), k in speakers, k in humans))
        return person_key(conv, k)

    rows = []
    for n, c in enumerate(claims):
        mentions = [m for m in c.mentions if m != c.subject]
        rows.append({
            "key": f"{key}#a{n}", "n": f"{key}#a{n}", "seq": n, "conversation": conv, "subject": c.subject,
            "predicate": c.predicate, "object": c.object, "negated": c.negated, "topic": c.topic,
            "sentence": c.sentence, "dia_id": c.turn_id, "date": c.date, "derived": False, "speaker": c.speaker,
            "mentions": list(c.mentions), "subjects": [person(c.subject)], "turns": [key],
            "mention_keys": [person(m) for m in mentions],
        })
    return rows, list(people.values())


def sentence_rows(records: Sequence[Turn], encoder: Encoder) -> list[dict]:
    """The ``write_vectors.cypher`` rows of turns: one per sentence, ``"Speaker: sentence"``
    embedded as the embedded memory embeds it (:class:`graphmem.search.dense.Turns`), all the
    turns' sentences in one encoding."""
    owner, pieces = passages([(r.speaker, r.text) for r in records])
    keys, first = [], {}
    for at, i in enumerate(owner):  # a turn's sentences are numbered from its first
        r = records[i]
        keys.append((turn_key(r), at - first.setdefault(i, at), r.conversation))
    if not pieces:
        return []
    block = encoder.encode(pieces)
    if block.shape[1] != DIMENSIONS:
        raise DataError(f"the embedding has {block.shape[1]} dimensions; the Neo4j vector index takes {DIMENSIONS}")
    return [{"key": f"{key}#s{n}", "turn": key, "conversation": conv, "embedding": vec}
            for (key, n, conv), vec in zip(keys, block.astype(float).tolist(), strict=True)]
