"""The key of a Person node: its conversation's id and its own, in one string.

Why an escape: a conversation's id and a person's id may both hold "/", and conversation "a" with
person "b/c" must not be conversation "a/b" with person "c", or two people of two chats would be
one node. The person's "/" (and "%", the escape's own mark) are escaped, so the key's last "/"
divides the two; an id holding neither (every one a dialogue usually has) is written as it is, as
the keys of databases written before this rule are.
"""

from __future__ import annotations

__all__ = ["person_key"]


def person_key(conversation: str, person: str) -> str:
    """The Person node key of ``person`` (a person's id: a folded name) in ``conversation``."""
    return f"{conversation}/{person.replace('%', '%25').replace('/', '%2F')}"
