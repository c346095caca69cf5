"""What several commands share: one-line errors, the Neo4j connection options, the confidence options.

Why apart: the memory's commands and the benchmarks' both use these, and neither may import the other.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypedDict

import click

from graphmem.errors import GraphmemError

__all__ = ["confidence_options", "counted", "friendly", "meaning_floor_setting", "neo4j_options", "neo4j_settings"]


def friendly(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn the package's own errors into one-line click errors."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except GraphmemError as exc:
            raise click.ClickException(str(exc)) from None

    return wrapper



def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``1 turn``, ``2 turns``, ``0 turns``: a count with its noun as English says it."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def neo4j_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--uri/--neo4j-user/--neo4j-password/--database/--timeout, the same on every command; each falls back
    to NEO4J_* (GRAPHMEM_NEO4J_TIMEOUT), then the local defaults. Why ``--neo4j-user``: ``--user`` is the
    memory's partition (whose turns) on every command that has one, never the database's account."""
    for option in reversed([
        click.option("--uri", default=None, help="Neo4j's Bolt URI [$NEO4J_URI, else bolt://localhost:7687]."),
        click.option("--neo4j-user", "neo4j_user", default=None, help="Neo4j's account [$NEO4J_USER, else neo4j]."),
        click.option("--neo4j-password", "neo4j_password", default=None,
                     help="Neo4j's password [$NEO4J_PASSWORD, else graphmem-dev]; never printed."),
        click.option("--database", default=None, help="Neo4j's database [$NEO4J_DATABASE, else the server's default]."),
        click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None,
                     help="Seconds to wait for Neo4j: connecting, retrying, and (six times it) each transaction"
                          " [$GRAPHMEM_NEO4J_TIMEOUT, else 5]."),
    ]):
        fn = option(fn)
    return fn


def neo4j_settings(options: dict[str, Any]) -> dict[str, Any]:
    """The Neo4j options a command took, as the client and ``Memory(backend="neo4j", ...)`` name them."""
    return {"uri": options.get("uri"), "user": options.get("neo4j_user"), "password": options.get("neo4j_password"),
            "database": options.get("database"), "timeout": options.get("timeout")}


def confidence_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """--confidence and --meaning-floor: what an answer abstains by (graphmem.memory.meaning)."""
    fn = click.option("--meaning-floor", type=click.FloatRange(-1, 1), default=None,
                      help="With --confidence meaning: below this cosine reply 'No information available' "
                           "[the memory's, chosen on LongMemEval's development half].")(fn)
    return click.option("--confidence", type=click.Choice(["coverage", "meaning", "calibrated", "calibrated+e5"]),
                        default="coverage",
                        show_default=True,
                        help="What an answer abstains by: the words of the question the first turn found covers; "
                             "(between a person and an assistant) an embedding's cosine and WordNet's kinds "
                             "(extra 'dense' and WordNet: scripts/wordnet-local); or the calibrated probability that "
                             "the question is answerable (graphmem.memory.calibrated, its floor chosen out of fold), with "
                             "e5's cosines over the turns found among its signals (calibrated+e5: extra 'dense').")(fn)



class MeaningFloor(TypedDict, total=False):
    """The memory's ``meaning_floor=`` argument, when one was given."""

    meaning_floor: float


def meaning_floor_setting(floor: float | None, confidence: str) -> MeaningFloor:
    """``meaning_floor=`` for a memory when ``--meaning-floor`` was given (else the memory's own)."""
    if floor is not None and confidence != "meaning":
        raise click.UsageError("--meaning-floor is the floor of --confidence meaning: give that too")
    return {} if floor is None else {"meaning_floor": floor}

