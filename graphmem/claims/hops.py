"""One hop in a conversation's graph: person -> assertion -> person, whatever holds the graph.

The path arm walks these hops and the stores answer them: the networkx mirror here
(:class:`MemoryNeighbourhood`), Cypher against Neo4j in :mod:`graphmem.bench.arms.hops`. Both
return the same :class:`Edge` rows, so the arm ranks identically over either; the
primitives live below both the arms and the stores so that neither imports the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import networkx as nx

from graphmem.claims.graph import assertions_of, mentioned_by, subject_of
from graphmem.claims.people import People

__all__ = ["Edge", "MemoryNeighbourhood", "Neighbourhood", "named"]


@dataclass(frozen=True)
class Edge:
    """One assertion one hop from a person: the row both backends return."""

    person: str  # the person the hop started from
    assertion: str  # the assertion's key
    subject: str  # the person the assertion is about
    predicate: str
    negated: bool
    sentence: str
    dia_id: str


class Neighbourhood(Protocol):
    """What the path arm needs from a graph store: one-hop expansions."""

    def people(self) -> list[str]:
        """Every Person key in the graph (empty when the graph is empty)."""
        ...

    def assertions(self, people: Sequence[str]) -> list[Edge]:
        """Assertions one hop out of these people: about them, or naming them."""
        ...

    def linked(self, assertions: Sequence[str]) -> list[str]:
        """People one hop out of these assertions: their subjects and whoever they name."""
        ...


class MemoryNeighbourhood:
    """The networkx mirror as a Neighbourhood."""

    def __init__(self, graph: nx.MultiDiGraph):  # graph: from graphmem.claims.graph.build
        self.g = graph
        self._memo: dict[str, list[Edge]] = {}
        self._linked: dict[str, tuple[str, ...]] = {}

    @classmethod
    def of(cls, ctx: Any) -> MemoryNeighbourhood:
        """The neighbourhood over a bench context's own mirror (the bench's in-memory backend)."""
        return cls(ctx.graph)

    def people(self) -> list[str]:
        return [n[1] for n, kind in self.g.nodes(data="kind") if kind == "person"]

    def assertions(self, people: Sequence[str]) -> list[Edge]:
        out: list[Edge] = []
        for who in people:
            out.extend(self._of(who))
        return out

    def _of(self, who: str) -> list[Edge]:
        """One person's one-hop assertions, read off the graph once (it does not change after build)."""
        found = self._memo.get(who)
        if found is None:
            found = []
            for a in dict.fromkeys(assertions_of(self.g, who)):
                data = self.g.nodes[a]
                found.append(Edge(who, str(a[1]), subject_of(self.g, a), data["predicate"], bool(data["negated"]),
                                  data["sentence"], data["dia_id"]))
            self._memo[who] = found
        return found

    def linked(self, assertions: Sequence[str]) -> list[str]:
        out: dict[str, None] = {}
        for key in assertions:
            out.update(dict.fromkeys(self._people_of(key)))
        return list(out)

    def _people_of(self, key: str) -> tuple[str, ...]:
        """The people one assertion links to (its subject, then whoever it names), read once."""
        found = self._linked.get(key)
        if found is None:
            node = ("assertion", int(key))
            found = ()
            if node in self.g:
                found = tuple(p for p in dict.fromkeys((subject_of(self.g, node), *mentioned_by(self.g, node))) if p is not None)
            self._linked[key] = found
        return found


def named(people: People, text: str) -> list[str]:
    """Every known person a text names, in the order first named (``People.named``)."""
    return people.named(text)
