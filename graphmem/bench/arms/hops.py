"""The path arm's hops over Cypher: one-hop queries against the graph ``graphmem load`` wrote.

:func:`path_backend` is the neighbourhood factory the bench hands the path arms with
``--backend neo4j``; the rows are the mirror's rows (:mod:`graphmem.claims.hops`), so the arm
ranks exactly as over the mirror.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from graphmem.claims.hops import Edge, named
from graphmem.errors import GraphmemError
from graphmem.store.neo4j.client import Client, shared_client
from graphmem.store.neo4j.keys import person_key
from graphmem.store.neo4j.checks import require_loaded
from graphmem.store.neo4j.plan import BLIND_PREFIX, plan

__all__ = ["CypherNeighbourhood", "path_backend"]


class CypherNeighbourhood:
    """The path arm's ``Neighbourhood`` over Neo4j, scoped to one conversation.

    Each hop is one Cypher query (``path_people``, ``path_assertions``, ``path_linked``)
    answered by the loaded graph; rows are the mirror's rows, field for field, with
    ``Edge.assertion`` the mirror's node id (``Assertion.n``), so the arm ranks exactly
    as over :class:`graphmem.claims.hops.MemoryNeighbourhood`.

    With ``memo`` (the default) a person's hop and an assertion's hop are asked once per
    conversation and remembered, as the memory backend memoises them, and each query
    asks only for what is not known yet, all of it in one ``UNWIND`` (the first hop out of
    assertions asks for every assertion seen so far); :meth:`prefetch`
    asks for many people at once (every person the conversation's questions name). The
    graph does not change while the bench runs. ``queries`` counts the round trips.
    """

    def __init__(self, client: Client, conversation: str, memo: bool = True):
        self.client = client
        self.conversation = conversation
        self.memo = memo
        self._people: list[str] | None = None
        self._edges: dict[str, list[Edge]] = {}
        self._links: dict[str, list[str]] = {}
        self.queries = 0

    def people(self) -> list[str]:
        if self._people is None or not self.memo:
            self.queries += 1
            self._people = [r["person"] for r in self.client.query("path_people", conversation=self.conversation)]
        return list(self._people)

    def prefetch(self, people: Iterable[str]) -> None:
        """Ask for the hops of all these people in one query (those not asked before)."""
        missing = [p for p in dict.fromkeys(people) if p not in self._edges]
        if not missing:
            return
        self.queries += 1
        rows = self.client.query("path_assertions", keys=[person_key(self.conversation, p) for p in missing])
        got: dict[str, list[Edge]] = {p: [] for p in missing}
        for r in rows:
            got[r["person"]].append(Edge(r["person"], r["assertion"], r["subject"], r["predicate"], bool(r["negated"]),
                                         r["sentence"], r["dia_id"]))
        self._edges.update(got)

    def assertions(self, people: Sequence[str]) -> list[Edge]:
        if not self.memo:
            self._edges = {}
        self.prefetch(people)
        return [e for p in dict.fromkeys(people) for e in self._edges[p]]

    def linked(self, assertions: Sequence[str]) -> list[str]:
        if not self.memo:
            self._links = {}
        missing = [a for a in dict.fromkeys(assertions) if a not in self._links]
        if missing and self.memo:
            # while at it, ask for every assertion already seen: later hops find them known
            missing += [e.assertion for edges in self._edges.values() for e in edges
                        if e.assertion not in self._links]
            missing = list(dict.fromkeys(missing))
        if missing:
            self.queries += 1
            got: dict[str, list[str]] = {a: [] for a in missing}
            for r in self.client.query("path_linked", conversation=self.conversation, assertions=missing):
                got[r["assertion"]].append(r["person"])
            self._links.update(got)
        out: dict[str, None] = {}
        for a in assertions:
            for p in self._links[a]:
                out.setdefault(p)
        return list(out)


def path_backend(ctx: Any, client: Client | None = None, blind: bool | None = None, prefetch: bool = True,
                 memo: bool = True) -> CypherNeighbourhood:
    """The path arm's Neighbourhood for one bench ``Context``, over Neo4j.

    ``client`` defaults to one shared client from ``NEO4J_*`` (the bench binds its own with
    ``functools.partial`` when it hands this factory to the path arms).
    ``blind`` (default ``ctx.extra.get('blind', False)``) scopes every query to
    ``blind:<conversation>``, a conversation no load creates: the same Cypher runs against
    an empty graph and the arm falls silent. Otherwise the conversation must have been
    loaded from this very reading (its fingerprint is checked), else a ``GraphmemError``
    says to run ``graphmem load``. One neighbourhood is made per context and shared by
    every path arm over it. With ``prefetch`` the hops of every person the
    conversation's questions name are asked in one query up front.
    """
    if blind is None:
        blind = bool(ctx.extra.get("blind", False))
    cache_key = "neo4j_blind" if blind else "neo4j_neighbourhood"
    hood = ctx.extra.get(cache_key)
    if hood is not None:
        return hood
    client = client or shared_client()
    cid = ctx.conv.id
    if blind:
        scope = BLIND_PREFIX + cid
        hood = CypherNeighbourhood(client, scope, memo)
        if hood.people():
            raise GraphmemError(f"the blind scope {scope!r} in Neo4j at {client.settings.where} is not empty")
    else:
        require_loaded(client, [plan(ctx.conv, ctx.graph)])
        hood = CypherNeighbourhood(client, cid, memo)
    if prefetch and memo and ctx.reading is not None:
        wanted: list[str] = []
        for q in ctx.conv.questions:
            people = named(ctx.reading.people, q.text)
            wanted.extend(people if people else hood.people())
        hood.prefetch(wanted)
    ctx.extra[cache_key] = hood
    return hood
