"""The load plan: one conversation as the rows Neo4j is to hold, the counts it must then show,
and the fingerprint of the reading it came from.

The graph in Neo4j is the networkx mirror of :mod:`graphmem.claims.graph`, one to one, plus the
conversation's structure from the dataset::

    (:Conversation {id})-[:HAS_SESSION]->(:Session {key, index, date})-[:HAS_TURN]->(:Turn {key, id, speaker, text, date})
    (:Person {key, id, name, speaker, human})-[:SPOKE]->(:Turn)
    (:Person)-[:SUBJECT_OF]->(:Assertion {key, n, predicate, object, negated, sentence})-[:READ_FROM]->(:Turn)
    (:Assertion)-[:MENTIONS]->(:Person)

Keys (each under a uniqueness constraint, see ``cypher/schema.cypher``) are scoped by the
conversation: ``conv-26``, ``conv-26/S3``, ``conv-26/D3:4``, ``conv-26/caroline``, and
``conv-26/A<hash>`` for an assertion, where ``<hash>`` is 16 hex digits of the SHA-256 of
its content (turn, subject, predicate, object, negation, topic, sentence, derived), with
``.2``, ``.3`` ... for a repeat of the same content in the same conversation. A content key
cannot silently stand for a different assertion after the reader changes: a changed
reading gives new keys, the old assertions stay, the count check fails and says to load
with ``--replace``. ``Assertion.n`` is the node's id in the mirror (``"17"``): the path arm
orders and dedupes assertions by it, exactly as over the mirror.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem.domain import Conversation
from graphmem.errors import GraphmemError
from graphmem.store.neo4j.keys import person_key

__all__ = [
    "BLIND_PREFIX", "COUNT_FIELDS", "LINK_STEPS", "NODE_STEPS", "STEPS", "Plan", "as_date", "check_id", "plan",
]

BLIND_PREFIX = "blind:"
"""The path arm's --blind scope: ``blind:conv-26`` names a conversation no load may create."""

NODE_STEPS = ("merge_conversations", "merge_sessions", "merge_turns", "merge_people", "merge_assertions")
LINK_STEPS = ("link_sessions", "link_turns", "link_speakers", "link_subjects", "link_mentions", "link_sources")
STEPS = NODE_STEPS + LINK_STEPS

COUNT_FIELDS = ("conversations", "sessions", "turns", "people", "others", "assertions", "derived",
                "has_session", "has_turn", "spoke", "subject_of", "mentions", "read_from")
"""What the count check compares, per conversation (the columns of ``counts.cypher``): ``people`` are
the Person nodes of people (``human``), ``others`` those of the named animals and things."""

_EDGE_STEP = {"about": "link_subjects", "mentions": "link_mentions", "from": "link_sources"}


@dataclass
class Plan:
    """One conversation as rows for the load, what Neo4j must then hold, and its fingerprint."""

    conversation: str
    rows: dict[str, list[dict]]
    expected: dict[str, int]
    fingerprint: str

    @property
    def size(self) -> int:
        return sum(len(r) for r in self.rows.values())


def check_id(conversation: str) -> None:
    if not conversation or "/" in conversation or conversation.startswith(BLIND_PREFIX):
        raise GraphmemError(
            f"conversation id {conversation!r} cannot be loaded: ids must be non-empty, without '/',"
            f" and not start with {BLIND_PREFIX!r}"
        )


def plan(conv: Conversation, graph: Any) -> Plan:
    """Rows for every node and relationship of one conversation, from the dataset and its mirror.

    Sessions and turns come from the dataset (all of them); people, assertions and their
    relationships from the mirror (all of them, derived assertions included). An edge or
    node of a kind the model does not know is an error rather than silently dropped.
    """
    cid = conv.id
    check_id(cid)
    rows: dict[str, list[dict]] = {s: [] for s in STEPS}
    turn_key = _structure(conv, rows)
    node_key = _people_and_turns(cid, graph, turn_key, rows)
    _assertions(cid, graph, node_key, rows)
    _relationships(cid, graph, node_key, rows)
    _speakers(conv, graph, turn_key, rows)
    return Plan(cid, rows, _expected(rows), _fingerprint(rows))


def _structure(conv: Conversation, rows: dict[str, list[dict]]) -> dict[str, str]:
    """The conversation, its sessions and its turns, from the dataset; returns each turn's key."""
    cid = conv.id
    rows["merge_conversations"].append({"id": cid, "speakers": list(conv.speakers)})
    turn_key = {}
    position = 0
    for s in conv.sessions:
        skey = f"{cid}/S{s.index}"
        rows["merge_sessions"].append({"key": skey, "conversation": cid, "index": s.index, "date": s.date,
                                       "date_text": s.date_text})
        rows["link_sessions"].append({"from": cid, "to": skey})
        for t in s.turns:
            tkey = turn_key[t.id] = f"{cid}/{t.id}"
            rows["merge_turns"].append({"key": tkey, "id": t.id, "conversation": cid, "session": s.index,
                                        "position": position, "speaker": t.speaker, "text": t.text,
                                        "date": t.date, "caption": t.caption})
            rows["link_turns"].append({"from": skey, "to": tkey})
            position += 1
    return turn_key


def _people_and_turns(cid: str, graph: Any, turn_key: dict[str, str], rows: dict[str, list[dict]]) -> dict[Any, str]:
    """The mirror's people as rows, and its turns matched to the dataset's; returns each node's key."""
    node_key: dict[Any, str] = {}
    people_n = 0
    for node, data in graph.nodes(data=True):
        kind = data.get("kind", node[0] if isinstance(node, tuple) else None)
        if kind == "person":
            pid = str(node[1])
            key = node_key[node] = person_key(cid, pid)
            rows["merge_people"].append({"key": key, "id": pid, "conversation": cid,
                                         "name": str(data.get("name", pid)), "speaker": bool(data.get("speaker", False)),
                                         "human": bool(data.get("human", True)), "n": people_n})
            people_n += 1
        elif kind == "turn":
            dia_id = str(node[1])
            if dia_id not in turn_key:
                raise GraphmemError(f"{cid}: the mirror has a turn {dia_id!r} the dataset does not")
            node_key[node] = turn_key[dia_id]
        elif kind != "assertion":
            raise GraphmemError(f"{cid}: the mirror has a node of kind {kind!r} the Neo4j model does not know")
    return node_key


def _assertions(cid: str, graph: Any, node_key: dict[Any, str], rows: dict[str, list[dict]]) -> None:
    """The mirror's assertions as rows, each keyed by its content (``node_key`` gains their keys)."""
    seen_content: dict[str, int] = {}
    for node, data in graph.nodes(data=True):
        if data.get("kind") != "assertion":
            continue
        subject = _subject(graph, node, data)
        content = [data.get("dia_id", ""), subject, data.get("predicate", ""), data.get("object", ""),
                   bool(data.get("negated", False)), data.get("topic", ""), data.get("sentence", ""),
                   bool(data.get("derived", False))]
        digest = hashlib.sha256(json.dumps(content, ensure_ascii=False).encode("utf-8")).hexdigest()[:16]
        seen_content[digest] = seen_content.get(digest, 0) + 1
        suffix = "" if seen_content[digest] == 1 else f".{seen_content[digest]}"
        key = node_key[node] = f"{cid}/A{digest}{suffix}"
        rows["merge_assertions"].append({
            "key": key, "n": str(node[1]), "conversation": cid, "subject": subject,
            "predicate": data.get("predicate", ""), "object": data.get("object", ""),
            "negated": bool(data.get("negated", False)), "topic": data.get("topic", ""),
            "sentence": data.get("sentence", ""), "dia_id": data.get("dia_id", ""),
            "date": as_date(data.get("date")), "derived": bool(data.get("derived", False)),
        })


def _relationships(cid: str, graph: Any, node_key: dict[Any, str], rows: dict[str, list[dict]]) -> None:
    """The mirror's edges as rows, each relationship once."""
    seen_edges: set[tuple[str, str, str]] = set()
    for u, v, k, data in graph.edges(keys=True, data=True):
        kind = data.get("kind", k)
        step = _EDGE_STEP.get(kind)
        if step is None:
            raise GraphmemError(f"{cid}: the mirror has an edge of kind {kind!r} the Neo4j model does not know")
        edge = (step, node_key[u], node_key[v])
        if edge not in seen_edges:  # a multigraph could hold the same edge twice; Neo4j MERGEs it once
            seen_edges.add(edge)
            rows[step].append({"from": edge[1], "to": edge[2]})


def _speakers(conv: Conversation, graph: Any, turn_key: dict[str, str], rows: dict[str, list[dict]]) -> None:
    """Who spoke each turn, where the mirror knows the speaker as a person."""
    cid = conv.id
    people = {r["key"] for r in rows["merge_people"]}
    for t in conv.turns:
        speaker = graph.nodes.get(("turn", t.id), {}).get("speaker") or ""
        pkey = person_key(cid, speaker)
        if speaker and pkey in people:
            rows["link_speakers"].append({"from": pkey, "to": turn_key[t.id]})


def _expected(rows: dict[str, list[dict]]) -> dict[str, int]:
    """What the count check must then find in Neo4j (the fields of ``COUNT_FIELDS``)."""
    return {
        "conversations": 1,
        "sessions": len(rows["merge_sessions"]),
        "turns": len(rows["merge_turns"]),
        "people": sum(r["human"] for r in rows["merge_people"]),
        "others": sum(not r["human"] for r in rows["merge_people"]),
        "assertions": len(rows["merge_assertions"]),
        "derived": sum(r["derived"] for r in rows["merge_assertions"]),
        "has_session": len(rows["link_sessions"]),
        "has_turn": len(rows["link_turns"]),
        "spoke": len(rows["link_speakers"]),
        "subject_of": len(rows["link_subjects"]),
        "mentions": len(rows["link_mentions"]),
        "read_from": len(rows["link_sources"]),
    }


def _subject(graph: Any, node: Any, data: dict) -> str:
    if "subject" in data:
        return str(data["subject"])
    for u, _, k, d in graph.in_edges(node, keys=True, data=True):
        if d.get("kind", k) == "about":
            return str(u[1])
    return ""


def as_date(value: Any) -> Any:
    """An ISO date string as a datetime, so Neo4j stores a temporal value (other text stays text)."""
    if isinstance(value, str) and value:
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            return value
    return value or None


def _fingerprint(rows: dict[str, list[dict]]) -> str:
    payload = json.dumps({s: rows[s] for s in STEPS}, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()
