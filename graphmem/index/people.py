"""Who speaks where, and whom a query names: the person scope every store applies alike.

Why a rule of its own: a query that names a person the memory knows ("What did Caroline
research?") searches that person's conversations first, then the rest (the person node's
neighbourhood, as the graph arms read it). Each store keeps who speaks in which conversation its
own way (a map in RAM, Person nodes in Neo4j); this module says what counts as naming a speaker,
so that every store scopes the same query to the same conversations.
"""

from __future__ import annotations

from graphmem.index.query import Query
from graphmem.text.terms import words

__all__ = ["People", "speaker_key"]


def speaker_key(speaker: str) -> str:
    """The key a speaker is known by: a query names them when one of its words is this key. The
    name read as a query's words are read (lower case, accents folded, any script), so "Jürgen"
    is named by "jurgen" as by "Jürgen"; a name of several words is named by none."""
    return " ".join(words(speaker))


class People:
    """A map of speakers (by :func:`speaker_key`) to the conversations they speak in, and what a
    query asks of it. ``people`` is kept by the index or store that mixes this in."""

    people: dict[str, set[str]]

    def people_in(self, query: Query) -> set[str]:
        """Every speaker the query names (whole words, any case)."""
        return {who for who in self.people if who in query.words}

    def speakers_in(self, conversation: str) -> list[str]:
        """Who speaks in ``conversation`` (by key)."""
        return [who for who, held in self.people.items() if conversation in held]

    def named(self, query: Query) -> set[str]:
        """The conversations of every person the query names."""
        return set().union(*(self.people[who] for who in self.people_in(query)))
