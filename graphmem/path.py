"""The walk arm: relations one hop out of the Person nodes a question names.

``path`` stands on the people a question names, takes the Assertions one hop out of
them (those they are the subject of, and those whose object names them), gathers the
assertions into relations (one person, one predicate), ranks relations by how well
their best assertion matches the question, and cites the turn behind the best
assertion of each of the best relations. Five relations are five things; five nearest
turns are often five sayings of one thing.

It answers only out of the graph's structure, through a ``Neighbourhood``: the
networkx mirror here, Cypher one-hop queries against Neo4j in ``graphmem.neo4j``. The
ranking is shared, so both backends give byte-identical predictions, and an emptied
graph leaves the arm with nothing to stand on: it falls silent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from scipy import sparse

from graphmem.arm import Context
from graphmem.locomo import Question
from graphmem.read import Hit


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

    def __init__(self, graph):  # graph: nx.MultiDiGraph from graphmem.graph.build
        self.g = graph
        self._memo: dict[str, list[Edge]] = {}
        self._linked: dict[str, tuple[str, ...]] = {}

    def people(self) -> list[str]:
        return [n[1] for n, kind in self.g.nodes(data="kind") if kind == "person"]

    def assertions(self, people: Sequence[str]) -> list[Edge]:
        out: list[Edge] = []
        for who in people:
            out.extend(self._of(who))
        return out

    def _of(self, who: str) -> list[Edge]:
        """One person's one-hop assertions, read off the graph once (it does not change after build)."""
        from graphmem.graph import assertions_of, subject_of

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
        from graphmem.graph import mentioned_by, subject_of

        found = self._linked.get(key)
        if found is None:
            node = ("assertion", int(key))
            found = ()
            if node in self.g:
                found = tuple(p for p in dict.fromkeys((subject_of(self.g, node), *mentioned_by(self.g, node))) if p is not None)
            self._linked[key] = found
        return found


def named(people, text: str) -> list[str]:
    """Every known person a text names, in the order first named (``People.named``)."""
    return people.named(text)


class PathArm:
    """Relations off the named people, ``hops`` hops out; ``guided`` hops only through matching assertions.

    With ``owned`` the arm first asks the graph whose the question's content is (see
    :meth:`_owns`) and falls silent when it belongs to someone the question does not name.
    """

    def __init__(self, ctx: Context, hops: int = 1, guided: bool = True, name: str = "path", backend: Neighbourhood | None = None,
                 owned: bool = False):
        self.ctx = ctx
        self.hops = hops
        self.guided = guided
        self.owned = owned
        self.name = name
        self.graph = backend if backend is not None else MemoryNeighbourhood(ctx.graph)
        self._position = {t.dia_id: i for i, t in enumerate(ctx.conv.turns)}
        self._rows: dict[str, int] = {}
        self._matrix: sparse.csr_matrix | None = None
        self._everyone: tuple[np.ndarray, np.ndarray] | None = None  # (sentence rows, subjects) of every assertion

    def cite(self, questions: Sequence[Question], k: int) -> list[list[Hit]]:
        qvecs = self.ctx.vocab.vectors(q.text for q in questions)
        return [self._one(q, qvecs[i], k) for i, q in enumerate(questions)]

    def _one(self, question: Question, qvec, k: int) -> list[Hit]:
        people = named(self.ctx.reading.people, question.text)
        if self.owned and people and not self._owns(people, qvec):
            return []
        start = people or self.graph.people()
        if not start:
            return []
        edges = self._walk(start, qvec)
        return self._rank(edges, qvec, k)

    def _owns(self, people: list[str], qvec) -> bool:
        """Whether the assertion matching the question best, anywhere in the graph, hangs off
        a person the question names (ties count as theirs).

        An adversarial question asks about one person what another said ("What did
        Caroline realize after her charity race?" -- Melanie ran it). One hop from the
        named node cannot see that: it finds the named person's nearest saying. The whole
        graph can: the assertion about the race hangs off Melanie. So the arm compares the
        best match one hop from the named people with the best match over every person, by
        the same score it ranks with, and declines when someone else's is better.
        """
        if self._everyone is None:  # the graph does not change after build: read it once
            edges = self.graph.assertions(self.graph.people())
            self._scores(edges, qvec)  # every sentence gets its row
            self._everyone = (np.fromiter((self._rows[e.sentence] for e in edges), dtype=np.intp, count=len(edges)),
                              np.array([e.subject or "" for e in edges], dtype=object))
        rows, subjects = self._everyone
        if not len(rows):
            return True
        scores = (self._matrix @ qvec.T).toarray().ravel()[rows]
        mine = np.isin(subjects, people)
        theirs = float(scores[mine].max()) if mine.any() else 0.0
        return theirs >= float(scores.max())

    def _walk(self, start: list[str], qvec) -> list[Edge]:
        """Assertions reachable in ``hops`` hops (a hop: person -> assertion -> person)."""
        seen_people = set(start)
        frontier = list(start)
        edges: dict[str, Edge] = {}
        for hop in range(self.hops):
            found = [e for e in self.graph.assertions(frontier) if e.assertion not in edges]
            for e in found:
                edges.setdefault(e.assertion, e)
            if hop + 1 == self.hops:
                break
            if self.guided:
                scores = self._scores(found, qvec)
                found = [e for e, s in zip(found, scores) if s > 0]
            frontier = [p for p in self.graph.linked([e.assertion for e in found]) if p not in seen_people]
            seen_people.update(frontier)
            if not frontier:
                break
        return list(edges.values())

    def _scores(self, edges: Sequence[Edge], qvec) -> np.ndarray:
        """Cosine of each edge's sentence to the question; new sentences are vectorised in one batch."""
        if not edges:
            return np.zeros(0)
        new = [s for s in dict.fromkeys(e.sentence for e in edges) if s not in self._rows]
        if new:
            for sentence in new:
                self._rows[sentence] = len(self._rows)
            rows = self.ctx.vocab.vectors(new)
            self._matrix = rows if self._matrix is None else sparse.vstack([self._matrix, rows]).tocsr()
        rows = self._rows
        every = (self._matrix @ qvec.T).toarray().ravel()  # one product over all known sentences
        return every[np.fromiter((rows[e.sentence] for e in edges), dtype=np.intp, count=len(edges))]

    def _rank(self, edges: list[Edge], qvec, k: int) -> list[Hit]:
        """Gather assertions into relations, rank relations by their best assertion, cite one turn each.

        Ties break by the turn's place in the conversation, then the assertion key, so
        the ranking does not depend on the order a backend returned the rows in.
        """
        scores = self._scores(edges, qvec)
        position = self._position
        matched = sorted((position[edges[i].dia_id], edges[i].assertion, float(scores[i]), edges[i])
                         for i in np.flatnonzero(scores > 0))
        best: dict[tuple[str | None, str, bool], tuple[float, int, Edge]] = {}
        for order, (_, _, score, e) in enumerate(matched):
            rel = (e.subject, e.predicate, e.negated)
            if rel not in best or score > best[rel][0]:
                best[rel] = (score, order, e)
        hits: list[Hit] = []
        cited: set[str] = set()
        for _, _, e in sorted(best.values(), key=lambda x: (-x[0], x[1])):
            if e.dia_id in cited:
                continue
            cited.add(e.dia_id)
            hits.append(self.ctx.hit(e.dia_id, e.sentence))
            if len(hits) == k:
                break
        return hits


def _factory(hops: int, guided: bool, name: str, owned: bool = False):
    """A path arm whose hops run in the networkx mirror, or in Neo4j when the bench says so."""

    def make(ctx: Context) -> PathArm:
        backend = None
        if ctx.extra.get("backend") == "neo4j":
            from graphmem.neo4j import path_backend

            backend = path_backend(ctx)
        return PathArm(ctx, hops=hops, guided=guided, name=name, backend=backend, owned=owned)

    return make


ARMS = {
    "path": (_factory(1, True, "path"), True),
    "owner": (_factory(1, True, "owner", owned=True), True),
    "path2": (_factory(2, True, "path2"), True),
    "path3": (_factory(3, True, "path3"), True),
    "walk2": (_factory(2, False, "walk2"), True),
    "walk3": (_factory(3, False, "walk3"), True),
}
