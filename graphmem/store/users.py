"""Users: each record's ``user`` is a partition of the memory, never crossed.

Why keys: a user's ids and conversations are theirs (two users may both have a turn ``t1`` in a
conversation ``default``), so every store keeps a user's turns under keys scoped by the user, and
the memory hands stores scoped turns and reads back unscoped ones. A turn without a user keeps its
own id and conversation as keys, so a memory of no users is stored exactly as before. The
collection's statistics (how rare a word is, how long a turn runs) are each user's own too: a user's
search, confidence and reply are computed over that user's turns alone, so another user's turns can
neither move them nor be probed through them (issue #47).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from graphmem.domain import Claim, Fact, Turn

__all__ = ["MARK", "owner", "scoped", "user_of", "scoped_turn", "unscoped", "unscoped_claim", "unscoped_fact", "unscoped_turn"]

MARK = "\x01"
"""Opens and closes the user in a scoped key; validation refuses control characters in names, so no
id, conversation or user holds one."""


def scoped(value: str, user: str | None) -> str:
    """An id or a conversation as stores key it for ``user``."""
    return value if user is None else f"{MARK}{user}{MARK}{value}"


def user_of(key: str) -> str | None:
    """The user whose key this is (None: a turn or conversation that carries no user)."""
    return key.split(MARK, 2)[1] if key.startswith(MARK) else None


def unscoped(key: str) -> str:
    """The id or conversation a scoped key stands for."""
    return key.split(MARK, 2)[2] if key.startswith(MARK) else key


def scoped_turn(t: Turn) -> Turn:
    return t if t.user is None else replace(t, id=scoped(t.id, t.user), conversation=scoped(t.conversation, t.user))


def unscoped_turn(t: Turn) -> Turn:
    return t if not t.id.startswith(MARK) and not t.conversation.startswith(MARK) else \
        replace(t, id=unscoped(t.id), conversation=unscoped(t.conversation))


def unscoped_claim(c: Claim) -> Claim:
    return c if not c.turn_id.startswith(MARK) else replace(c, turn_id=unscoped(c.turn_id))


def unscoped_fact(f: Fact) -> Fact:
    return f if not f.turn_id.startswith(MARK) else replace(f, turn_id=unscoped(f.turn_id))


def owner(user: str | None) -> str:
    """The token a full-text index marks a user's turns with (whitespace-free, whatever the name)."""
    return "~none" if user is None else "~u" + hashlib.sha1(user.encode("utf-8")).hexdigest()[:20]
