"""The walk arm: relations one hop out of the Person nodes a question names.

``path`` stands on the people a question names, takes the Assertions one hop out of
them (those they are the subject of, and those whose object names them), gathers the
assertions into relations (one person, one predicate), ranks relations by how well
their best assertion matches the question, and cites the turn behind the best
assertion of each of the best relations. Five relations are five things; five nearest
turns are often five sayings of one thing.

Before it walks, it asks the graph whose the question is (:meth:`PathArm._owns`): when
the assertions about some person the question does not name account for more of what it
asks than the assertions about the people it names, the question is about someone else
("What did Caroline realize after her charity race?" -- Melanie ran it) and the arm falls
silent. That is the specification's reason for path's silence, "an assertion about the
wrong person is not reached from the right person's node at all", made a test.

It answers only out of the graph's structure, through a ``Neighbourhood``
(:mod:`graphmem.claims.hops`): the networkx mirror, or Cypher one-hop queries against
Neo4j in ``graphmem.bench.arms.hops``. The ranking is shared, so both backends give
byte-identical predictions, and an emptied graph leaves the arm with nothing to stand
on: it falls silent.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from scipy import sparse

from graphmem.bench.arms.base import Context
from graphmem.claims.hops import Edge, MemoryNeighbourhood, Neighbourhood, named
from graphmem.data.locomo import Question
from graphmem.answer.reader import Hit
from graphmem.text.terms import analyse


class PathArm:
    """Relations off the named people, ``hops`` hops out; ``guided`` hops only through matching assertions.

    With ``owned`` (the default) the arm first asks the graph whose the question is
    (:meth:`_owns`) and falls silent when it is someone's the question does not name;
    ``owned=False`` is the walk without that test (``bench/tried.py`` measures it).
    """

    def __init__(self, ctx: Context, hops: int = 1, guided: bool = True, name: str = "path", backend: Neighbourhood | None = None,
                 owned: bool = True):
        self.ctx = ctx
        self.hops = hops
        self.guided = guided
        self.owned = owned
        self.name = name
        self.graph = backend if backend is not None else MemoryNeighbourhood(ctx.graph)
        self._position = {t.id: i for i, t in enumerate(ctx.conv.turns)}
        self._rows: dict[str, int] = {}
        self._matrix: sparse.csr_matrix | None = None
        self._said: dict[str, frozenset[str]] | None = None  # person -> the stems asserted about them

    def cite(self, questions: Sequence[Question], k: int) -> list[list[Hit]]:
        qvecs = self.ctx.vocab.vectors(q.text for q in questions)
        return [self._one(q, qvecs[i], k) for i, q in enumerate(questions)]

    def _one(self, question: Question, qvec: sparse.csr_matrix, k: int) -> list[Hit]:
        people = named(self.ctx.reading.people, question.text)
        if self.owned and people and not self._owns(people, question.text):
            return []
        start = people or self.graph.people()
        if not start:
            return []
        edges = self._walk(start, qvec)
        return self._rank(edges, qvec, k)

    def _owns(self, people: list[str], question: str) -> bool:
        """Whether the question is about the people it names, by the graph's account.

        What the question asks (its terms, weighted by rarity, with every name blanked) is
        covered once by all the assertions about the named people and once by all the
        assertions about each other person. If some other person's assertions cover more,
        the question is theirs: an adversarial question asks about one person what the
        other said, and the thing it asks about ("charity race") hangs off the other's
        node. Ties count as the named people's; a question no assertion covers at all is
        left to the walk. Whole neighbourhoods are compared rather than single sentences:
        a topic both people talk about ("What did Melanie paint recently?") is then the
        named person's, though the other's one sentence may match it better.
        """
        said = self._said_about()
        asked = self.ctx.vocab.weights(analyse(self.ctx.reading.people.unnamed(question)))

        def cover(stems: frozenset[str]) -> float:
            return sum(w for t, w in asked.items() if t in stems)

        theirs = cover(frozenset().union(*(said.get(p, frozenset()) for p in people)))
        return all(cover(stems) <= theirs for who, stems in said.items() if who not in people)

    def _said_about(self) -> dict[str, frozenset[str]]:
        """Per person, the stems of every sentence an assertion about them was read from
        (read off the graph once: it does not change after build; empty when it is empty)."""
        if self._said is None:
            said: dict[str, set[str]] = {}
            for e in self.graph.assertions(self.graph.people()):
                if e.subject is not None:
                    said.setdefault(e.subject, set()).update(analyse(e.sentence))
            self._said = {who: frozenset(stems) for who, stems in said.items()}
        return self._said

    def _walk(self, start: list[str], qvec: sparse.csr_matrix) -> list[Edge]:
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

    def _scores(self, edges: Sequence[Edge], qvec: sparse.csr_matrix) -> np.ndarray:
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

    def _rank(self, edges: list[Edge], qvec: sparse.csr_matrix, k: int) -> list[Hit]:
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


def _factory(hops: int, guided: bool, name: str) -> Callable[[Context], PathArm]:
    """A path arm whose hops run where the bench says: ``ctx.extra["neighbourhood"]`` makes the
    neighbourhood from the context (the networkx mirror, or Cypher against Neo4j), so the arm
    never imports a backend; a context without one walks its own mirror."""

    def make(ctx: Context) -> PathArm:
        neighbourhood = ctx.extra.get("neighbourhood")
        backend = neighbourhood(ctx) if neighbourhood is not None else None
        return PathArm(ctx, hops=hops, guided=guided, name=name, backend=backend)

    return make


ARMS = {
    "path": (_factory(1, True, "path"), True),
    "path2": (_factory(2, True, "path2"), True),
    "path3": (_factory(3, True, "path3"), True),
    "walk2": (_factory(2, False, "walk2"), True),
    "walk3": (_factory(3, False, "walk3"), True),
}
