"""The graph of one conversation: people, what is said of them, and the turns it was said in.

Three kinds of node, all keyed by tuples so that kinds cannot collide:

* ``("person", key)`` -- one per named party (a speaker, or a third party a speaker introduced):
  ``kind='person'``, ``name`` (as first written), ``speaker`` (bool), ``human`` (bool: a person by
  the rule of :func:`graphmem.claims.naming.persons`, not an animal or a thing).
* ``("assertion", i)`` -- one per claim: ``kind='assertion'``, ``predicate``, ``object``,
  ``negated``, ``topic``, ``sentence``, ``dia_id``, ``date`` (ISO 8601 string), ``derived``.
* ``("turn", dia_id)`` -- one per turn read: ``kind='turn'``, ``dia_id``, ``speaker`` (key),
  ``date`` (ISO string), ``session`` (int).

and three kinds of edge, each stored under its kind as the multigraph key and as the
``kind`` attribute:

* person ``-[about]->`` assertion: the person the claim is about (its subject);
* assertion ``-[mentions]->`` person: every other person the claim names;
* assertion ``-[from]->`` turn: the turn it was read from.

Every attribute is a plain scalar (str, bool, int) so a Neo4j loader can mirror the graph
one to one. :func:`reason` applies the one inference rule; :func:`empty` is the --blind
control.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

import networkx as nx

from graphmem.claims.gcpause import paused_gc
from graphmem.claims.naming import persons
from graphmem.claims.records import Claim, Reading
from graphmem.domain import Conversation
from graphmem.text.lexicon import HAVE_PREDICATES

__all__ = [
    "ABOUT",
    "FROM",
    "MENTIONS",
    "assertions_of",
    "build",
    "census",
    "empty",
    "mentioned_by",
    "reason",
    "subject_of",
    "turns_within",
]

ABOUT = "about"
MENTIONS = "mentions"
FROM = "from"

PERSON = "person"
ASSERTION = "assertion"
TURN = "turn"


def build(reading: Reading) -> nx.MultiDiGraph:
    """One graph for one conversation's reading (nothing derived yet: see :func:`reason`)."""
    with paused_gc():
        return _build(reading)


def _build(reading: Reading) -> nx.MultiDiGraph:
    """Every node and edge listed first, then added in one pass (see :func:`_add`)."""
    g = nx.MultiDiGraph()
    people = reading.people
    speakers, humans = set(people.speakers), persons(people, reading.claims)
    nodes: list[tuple[Any, dict]] = [
        ((PERSON, k), {"kind": PERSON, "name": people.display(k), "speaker": k in speakers, "human": k in humans})
        for k in people.keys
    ]
    for d in reading.turns:
        date = reading.dates.get(d)
        nodes.append(
            (
                (TURN, d),
                {
                    "kind": TURN,
                    "dia_id": d,
                    "speaker": reading.speakers.get(d, ""),
                    "date": _iso(date) if date else "",
                    "session": _session(d),
                },
            )
        )
    edges: list[tuple[Any, Any, str, dict]] = []
    for i, c in enumerate(reading.claims):
        _assertion(nodes, edges, i, c, derived=False)
    _add(g, nodes, edges)
    return g


def _add(g: nx.MultiDiGraph, nodes: list, edges: list) -> None:
    """Add nodes then keyed edges, writing networkx's adjacency dicts directly.

    ``add_edges_from`` goes through networkx's views for every edge, which is slow at a
    conversation's thousands of edges (docs/locomo.md, "Figures behind the code"); this is
    the same structure (``_node``, ``_succ``, ``_pred``; a key -> attribute dict per node
    pair), built at dictionary speed. A node an edge names that was not given (a person a claim
    mentions whom the people list lacks -- never in practice) is added bare.
    """
    node, succ, pred = g._node, g._succ, g._pred
    for n, attrs in nodes:
        if n in node:
            node[n].update(attrs)
        else:
            node[n] = attrs
            succ[n] = {}
            pred[n] = {}
    for u, v, k, attrs in edges:
        for x in (u, v):
            if x not in node:
                node[x] = {"kind": x[0], "name": str(x[1]), "speaker": False}
                succ[x] = {}
                pred[x] = {}
        keydict = succ[u].get(v)
        if keydict is None:
            keydict = {}
            succ[u][v] = keydict
            pred[v][u] = keydict
        keydict[k] = attrs
    clear = getattr(nx, "_clear_cache", None)
    if clear is not None:
        clear(g)


def _assertion(nodes: list, edges: list, i: Any, c: Claim, derived: bool) -> None:
    """List claim ``c`` as assertion ``i`` with its about, mentions and from edges."""
    a = (ASSERTION, i)
    nodes.append(
        (
            a,
            {
                "kind": ASSERTION,
                "predicate": c.predicate,
                "object": c.object,
                "negated": c.negated,
                "topic": c.topic,
                "sentence": c.sentence,
                "dia_id": c.turn_id,
                "date": _iso(c.date),
                "derived": derived,
            },
        )
    )
    edges.append(((PERSON, c.subject), a, ABOUT, {"kind": ABOUT}))
    for m in c.mentions:
        if m != c.subject:
            edges.append((a, (PERSON, m), MENTIONS, {"kind": MENTIONS}))
    edges.append((a, (TURN, c.turn_id), FROM, {"kind": FROM}))


_ISO: dict[datetime, str] = {}


def _iso(date: datetime) -> str:
    """A date as ISO 8601, converted once per distinct date (every claim of a session shares one)."""
    s = _ISO.get(date)
    if s is None:
        s = _ISO[date] = date.isoformat()
    return s


def _session(dia_id: str) -> int:
    """The session number a dia_id names ("D3:12" -> 3; 0 for an id of another shape)."""
    head = dia_id.split(":", 1)[0].lstrip("D")
    return int(head) if head.isdigit() else 0


# --------------------------------------------------------------------------- reading the graph


def subject_of(g: nx.MultiDiGraph, a: Any) -> str | None:
    """The key of the person an assertion is about."""
    for u, _, k in g.in_edges(a, keys=True):
        if k == ABOUT:
            return u[1]
    return None


def mentioned_by(g: nx.MultiDiGraph, a: Any) -> list[str]:
    """The keys of the people an assertion mentions."""
    return [v[1] for _, v, k in g.out_edges(a, keys=True) if k == MENTIONS]


def assertions_of(g: nx.MultiDiGraph, key: str, mentioned: bool = True) -> list[Any]:
    """The assertions one hop from a person: about them, and (if ``mentioned``) naming them."""
    p = (PERSON, key)
    if p not in g:
        return []
    out = [v for _, v, k in g.out_edges(p, keys=True) if k == ABOUT]
    if mentioned:
        out += [u for u, _, k in g.in_edges(p, keys=True) if k == MENTIONS]
    return out


def turns_within(g: nx.MultiDiGraph, key: str, hops: int = 1) -> set[str]:
    """The dia_ids behind every assertion within ``hops`` steps of a person.

    One hop is every assertion about the person or mentioning them; each further hop adds
    the assertions of every other person the assertions already reached link to (as their
    subject or by mention).
    """
    people = {key}
    frontier = [key]
    reached: set = set()
    for step in range(hops):
        nxt: list[str] = []
        for p in frontier:
            for a in assertions_of(g, p):
                if a in reached:
                    continue
                reached.add(a)
                if step + 1 < hops:
                    for q in (subject_of(g, a), *mentioned_by(g, a)):
                        if q is not None and q not in people:
                            people.add(q)
                            nxt.append(q)
        frontier = nxt
    nodes = g.nodes
    return {nodes[a]["dia_id"] for a in reached}


# --------------------------------------------------------------------------- inference


def reason(g: nx.MultiDiGraph) -> int:
    """Apply the one rule -- what a thing is called is also what its owner has -- and count.

    In this graph a thing's name is a *naming assertion*: predicate ``call``, the owner as
    its subject, the named third party as its mention and what was named as its topic
    ("my son", "puppy", "her name"), read from "my son Max", "a puppy named Pixie",
    "her name is Coco", "I named him Buddy". The owner has the thing when

    * the topic is itself possessive ("my son", "our dog", "your cat"), or
    * the owner has, gets, adopts, owns, buys, rescues or finds something (not negated)
      in the same turn ("I got a puppy! Her name's Coco"), or -- for a named kind of
      thing -- anywhere, with that kind in the object ("I have a dog" ... "the dog
      named Oscar").

    Each such pair derives ``(owner, have, <name>)`` mentioning the named person, from the
    naming assertion's turn, with ``derived=True`` -- unless the owner already has an
    un-negated owning assertion that mentions that person ("we got another cat named
    Bailey" states it outright). Returns how many were derived; running it again derives
    nothing more.
    """
    owning, has_named, namings = _survey(g)
    new_nodes: list = []
    edges: list = []
    made = 0
    nodes = g.nodes
    next_id = max((n[1] for n in nodes if n[0] == ASSERTION and isinstance(n[1], int)), default=-1) + 1
    for a, d, who, named in namings:
        if not _owns(d, owning.get(who, ())):
            continue
        for m in named:
            if (who, m) in has_named or m == who:
                continue
            has_named.add((who, m))
            _derive(g, new_nodes, edges, (ASSERTION, next_id), d, who, m)
            next_id += 1
            made += 1
    _add(g, new_nodes, edges)
    return made


_Owning = dict[str, list[tuple[str, frozenset]]]
"""Owner -> (dia_id, the words of what they own) for every owning assertion."""
_Naming = tuple[Any, dict, str, list[str]]
"""A naming assertion, its attributes, its owner and the people it names."""


def _survey(g: nx.MultiDiGraph) -> tuple[_Owning, set[tuple[str, str]], list[_Naming]]:
    """One pass over every assertion about a person: what each owner owns (per turn, with the
    words of the thing owned), which (owner, person) pairs an owning assertion already names,
    and the naming assertions whose object is the name of a person they mention."""
    owning: _Owning = {}
    has_named: set[tuple[str, str]] = set()
    namings: list[_Naming] = []
    adj = g.adj
    nodes = g.nodes
    about = [
        (p[1], a)
        for p, nbrs in adj.items()
        if p[0] == PERSON
        for a, keys in nbrs.items()
        if ABOUT in keys
    ]
    for who, a in about:
        d = nodes[a]
        pred = d["predicate"]
        if d["negated"]:
            continue
        if pred in HAVE_PREDICATES:
            owning.setdefault(who, []).append((d["dia_id"], frozenset(d["object"].lower().split())))
            for m in mentioned_by(g, a):
                has_named.add((who, m))
        elif d["topic"][:3].lower() in ("my ", "our"):  # "Our one-year-old is so cute"
            owning.setdefault(who, []).append((d["dia_id"], frozenset(d["topic"].lower().split()[1:])))
        if pred == "call" and d["topic"]:
            named = [m for m in mentioned_by(g, a) if _name_of(g, m).lower() == d["object"].lower()]
            if named:  # "my son Max": not the verb of "I'll call her"
                namings.append((a, d, who, named))
    return owning, has_named, namings


def _owns(d: dict, owned: Iterable[tuple[str, frozenset]]) -> bool:
    """Does the owner of naming assertion ``d`` have what it names? Its topic is possessive, or
    the owner owns something in the same turn, or owns that kind of thing anywhere."""
    topic = d["topic"].lower()
    words = topic.split()
    head = words[-1] if words else ""
    if words and words[0] in ("my", "our", "your"):
        return True
    for dia, objwords in owned:
        if dia == d["dia_id"] or (head and head not in _PRONOUN_HEADS and head in objwords):
            return True
    return False


def _derive(g: nx.MultiDiGraph, nodes: list, edges: list, b: Any, d: dict, who: str, m: str) -> None:
    """Append the derived assertion ``b`` -- (owner, have, <name>) mentioning ``m``, from the
    naming assertion ``d``'s turn -- and its edges."""
    name = _name_of(g, m)
    nodes.append(
        (
            b,
            {
                "kind": ASSERTION,
                "predicate": "have",
                "object": name,
                "negated": False,
                "topic": d["topic"],
                "sentence": d["sentence"],
                "dia_id": d["dia_id"],
                "date": d["date"],
                "derived": True,
            },
        )
    )
    edges.append(((PERSON, who), b, ABOUT, {"kind": ABOUT}))
    edges.append((b, (PERSON, m), MENTIONS, {"kind": MENTIONS}))
    edges.append((b, (TURN, d["dia_id"]), FROM, {"kind": FROM}))


_PRONOUN_HEADS = frozenset("her him it them name names".split())


def _name_of(g: nx.MultiDiGraph, key: str) -> str:
    """A person's name as first written, or the key for a person the graph lacks."""
    node = g.nodes.get((PERSON, key))
    return node.get("name", key) if node else key


def empty(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """Remove every node and edge (the --blind control); returns the same, now empty, graph."""
    g.clear()
    return g


def census(conv: Conversation, reading: Reading, g: nx.MultiDiGraph) -> dict[str, int]:
    """What was built for one conversation: turns, claims, nodes, edges, derived assertions."""
    derived = sum(1 for _, d in g.nodes(data=True) if d.get("derived"))
    return {
        "turns": len(conv.turns),
        "claims": len(reading.claims),
        "nodes": g.number_of_nodes(),
        "edges": g.number_of_edges(),
        "derived": derived,
    }
