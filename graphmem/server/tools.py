"""The MCP server's tools run on one memory: each call checked against its schema, then one verb.

Why the checks are the server's and not the SDK's: the low-level server advertises a schema but
applies none, and a model that sends ``k: "x"`` must read one line saying what to send instead, in
the words the command line uses, never a traceback or a JSON-RPC error it cannot act on. So every
call is checked (:func:`graphmem.server.checks.checked`: pydantic, against a model made from
:data:`graphmem.server.schemas.TOOLS`, the very dicts a client is shown, with the memory's own
argument rules), and every failure is a :class:`graphmem.errors.GraphmemError` whose message the
server returns as the tool's error; the memory's own errors (a bad date in a turn, a closed
memory, a store gone) pass through unchanged.

Nothing here knows about transports: :class:`Tools` is a plain object a test or another host can
call in process.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from datetime import datetime
from itertools import islice
from typing import TYPE_CHECKING, Any

from graphmem.data.records import parse_date
from graphmem.domain import DEFAULT_CONVERSATION, Turn
from graphmem.errors import DataError
from graphmem.server.checks import checked
from graphmem.server.schemas import TOOLS

if TYPE_CHECKING:
    from graphmem.memory.api import Memory

__all__ = ["Tools", "checked", "stable_id", "turn_json"]  # checked: graphmem.server.checks

SHOWN_CONVERSATIONS = 100
"""How many conversations ``stats`` describes one by one: enough to choose from, bounded for a model's context."""


class Tools:
    """The tools over one open memory; ``call`` runs one by name and returns its JSON result.

    The memory is used from worker threads (one per call in flight): its own lock makes each
    verb atomic, so the server adds none."""

    def __init__(self, memory: Memory, user: str | None = None):
        self.memory = memory
        self.user = user
        """The one user this server serves (``graphmem serve --user``), or None: every call names its own."""
        self._run: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "remember": self.remember, "update": self.update, "search": self.search, "ask": self.ask, "facts": self.facts,
            "forget": self.forget, "turns": self.turns, "stats": self.stats}
        assert list(self._run) == list(TOOLS), "every tool in schemas.TOOLS has one method, in the same order"

    def call(self, name: str, arguments: Mapping[str, Any] | None) -> dict[str, Any]:
        """The named tool's result for these arguments; a ``GraphmemError`` says what was wrong."""
        if name not in self._run:
            raise DataError(f"unknown tool {name!r}; the tools are {', '.join(TOOLS)}")
        a = checked(name, arguments)
        if self.user is not None and a.get("user", self.user) != self.user:
            raise DataError(f"{name}: this server serves user {self.user!r} only (graphmem serve --user); "
                            "leave user out")
        return self._run[name](a)

    def _user(self, a: Mapping[str, Any]) -> str | None:
        """Whose turns a call reads or writes: its own ``user``, else the server's (``--user``), else none."""
        return a.get("user", self.user)

    def remember(self, a: dict[str, Any]) -> dict[str, Any]:
        """Every turn validated (and refused, naming it as ``turns[i]``) before any is added."""
        conversation, user = a.get("conversation", DEFAULT_CONVERSATION), self._user(a)
        records = []
        for i, turn in enumerate(a["turns"]):
            record = {"speaker": turn["speaker"], "text": turn["text"], "conversation": conversation}
            if "date" in turn:
                record["date"] = turn["date"]
            if "metadata" in turn:
                record["metadata"] = turn["metadata"]
            if user is not None:
                record["user"] = user
            record["id"] = turn.get("id") or stable_id(record, f"remember: turns[{i}]")
            records.append(record)
        places = [f"remember: turns[{i}]" for i in range(len(records))]
        self.memory.check(records, source=places)
        added = self.memory.ingest(records)
        return {"added": added, "held": len(records) - added, "ids": [r["id"] for r in records]}

    def update(self, a: dict[str, Any]) -> dict[str, Any]:
        changes = {name: a[name] for name in ("text", "speaker", "date", "metadata") if name in a}
        if not changes:
            raise DataError("update: give what changes: text, speaker, date or metadata; nothing was changed")
        return {"turn": turn_json(self.memory.update(a["id"], user=self._user(a), **changes))}

    def search(self, a: dict[str, Any]) -> dict[str, Any]:
        found = self.memory.hits(a["query"], a.get("k", 5), a.get("conversation"), a.get("as_of"), user=self._user(a),
                                 where=a.get("where"))
        return {"turns": [turn_json(h.turn) for h in found]}

    def ask(self, a: dict[str, Any]) -> dict[str, Any]:
        """As ``graphmem ask`` reads: the turns found, then the answer read off them, so the cited
        turns come back whole (an ``Answer`` holds only their ids)."""
        mem, k = self.memory, a.get("k", 5)
        answer, found = mem.ask_with_turns(a["question"], k, a.get("conversation"), a.get("as_of"), user=self._user(a),
                                           where=a.get("where"))
        out = {"reply": answer.reply, "abstained": answer.quiet, "confidence": round(float(answer.confidence), 4),
               "floor": mem.floor_of(answer), "cited": [turn_json(t) for t in found[:k]]}
        if answer.sentence and answer.source:  # a quoted reply says where it was quoted from
            out.update(sentence=answer.sentence, source=answer.source)
        return out

    def facts(self, a: dict[str, Any]) -> dict[str, Any]:
        facts = self.memory.facts(a["about"], as_of=a.get("as_of"), user=self._user(a), history=a.get("history", False))
        return {"facts": [_fact_json(f) for f in facts[:a.get("limit", 100)]]}

    def forget(self, a: dict[str, Any]) -> dict[str, Any]:
        if not any(key in a for key in ("ids", "conversation", "user")):
            raise DataError("forget: give ids, a conversation or a user (or several: the turns matching all of "
                            "them are removed); nothing was removed")
        done = self.memory.forgetting(ids=a.get("ids"), conversation=a.get("conversation"), user=self._user(a))
        if "ids" not in a:
            return {"removed": done.removed}
        return {"removed": done.removed, "matched": list(done.matched), "not_found": list(done.not_found)}

    def turns(self, a: dict[str, Any]) -> dict[str, Any]:
        """One page, and whether another follows (one turn past the page is read to know)."""
        offset, limit = a.get("offset", 0), a.get("limit", 50)
        held = self.memory.turns(a.get("conversation"), user=self._user(a))
        page = list(islice(held, offset, offset + limit + 1))
        out: dict[str, Any] = {"turns": [turn_json(t) for t in page[:limit]]}
        if len(page) > limit:
            out["next_offset"] = offset + limit
        return out

    def stats(self, a: dict[str, Any]) -> dict[str, Any]:
        """Counted from the turns themselves (a user's share is not a store's count), in one pass."""
        per: dict[str, list[Any]] = {}
        for t in self.memory.turns(user=self._user(a)):
            row = per.setdefault(t.conversation, [0, None, None])
            row[0] += 1
            if t.date is not None:
                row[1] = t.date if row[1] is None else min(row[1], t.date)
                row[2] = t.date if row[2] is None else max(row[2], t.date)
        shown = []
        for conv, (n, first, last) in islice(per.items(), SHOWN_CONVERSATIONS):
            entry = {"conversation": conv, "turns": n}
            if first is not None:
                entry.update(first=first.isoformat(), last=last.isoformat())
            shown.append(entry)
        return {"turns": sum(row[0] for row in per.values()), "conversations": len(per),
                "read_only": bool(self.memory.read_only), "by_conversation": shown}


def stable_id(record: Mapping[str, Any], where: str) -> str:
    """An id made from what a turn is (conversation, user, speaker, text, date), so the same turn
    remembered twice is one turn. The date is read first: ``2023-05-08`` and ``8 May 2023`` are the
    same day, and an unreadable one is refused here, naming its place. A lone surrogate is hashed as
    it is (``ensure_ascii``): the memory's validation then refuses it with its own message."""
    when = parse_date(record.get("date"), where)
    key = [record["conversation"], record.get("user"), record["speaker"].strip(), record["text"],
           when.isoformat() if when else None]
    return "m-" + hashlib.sha256(json.dumps(key, ensure_ascii=True).encode("ascii")).hexdigest()[:24]


def turn_json(t: Turn) -> dict[str, Any]:
    """A turn as a tool returns it: the date as ISO 8601, absent when the turn has none (its metadata too)."""
    out: dict[str, Any] = {"id": t.id, "speaker": t.speaker, "text": t.text, "conversation": t.conversation}
    if t.date is not None:
        out["date"] = t.date.isoformat()
    if t.metadata:
        out["metadata"] = dict(t.metadata)
    return out


def _fact_json(f: Any) -> dict[str, Any]:
    """A :class:`graphmem.domain.Fact` as ``facts`` returns it (valid_to absent while it holds)."""
    out = {"subject": f.subject, "predicate": f.predicate, "object": f.object, "negated": bool(f.negated),
           "sentence": f.sentence, "turn_id": f.turn_id, "said_on": f.said_on.isoformat(),
           "valid_from": f.valid_from.isoformat()}
    if f.valid_to is not None:
        out["valid_to"] = f.valid_to.isoformat()
    if f.attribute is not None:
        out.update(attribute=f.attribute, value=f.value)
    if f.ended_by is not None:
        out["ended_by"] = f.ended_by
    return out
