"""The connection to Neo4j: settings, a client bound to one database, and one line per failure.

Connection settings come from ``NEO4J_URI`` (default ``bolt://localhost:7687``),
``NEO4J_USER`` (``neo4j``), ``NEO4J_PASSWORD`` (``graphmem-dev``, the local server's
default), ``NEO4J_DATABASE`` (the server's default database) and ``GRAPHMEM_NEO4J_TIMEOUT``
(seconds, :data:`DEFAULT_TIMEOUT`); the password is never printed. Each way of failing to connect
is one :class:`~graphmem.errors.Neo4jUnavailable` line naming the URI and what to do.

Why every statement runs in a managed transaction (``execute_read``/``execute_write``), schema
changes and ad-hoc reads too: the driver runs a managed transaction again, whole, on a transient
error (a deadlock, a leader switch, a lost connection), while an auto-commit statement's error goes
straight to the caller. Why one session per call: a session that failed carries nothing into the
next call. Why one timeout bounds everything: a caller of a memory whose server is down must hear so
in one line within seconds, not after the driver's own retries (by default, half a minute).
"""

from __future__ import annotations

import atexit
import logging
import math
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from graphmem.errors import GraphmemError, Neo4jUnavailable
from graphmem.store.neo4j.queries import query, statements

__all__ = [
    "DEFAULT_PASSWORD", "DEFAULT_TIMEOUT", "DEFAULT_URI", "DEFAULT_USER", "ENV_DATABASE", "ENV_PASSWORD", "ENV_TIMEOUT",
    "ENV_URI", "ENV_USER", "SERVER_SHARE", "START_HINT", "STARTUP_WAIT", "TURNS_PER_TIMEOUT", "Client", "Transaction",
    "Neo4jSettings", "connect", "shared_client", "translate",
]

ENV_URI = "NEO4J_URI"
ENV_USER = "NEO4J_USER"
ENV_PASSWORD = "NEO4J_PASSWORD"
ENV_DATABASE = "NEO4J_DATABASE"
ENV_TIMEOUT = "GRAPHMEM_NEO4J_TIMEOUT"
DEFAULT_URI = "bolt://localhost:7687"
DEFAULT_USER = "neo4j"
DEFAULT_PASSWORD = "graphmem-dev"

DEFAULT_TIMEOUT = 5.0
"""Seconds a call may wait for Neo4j (``timeout=``, ``--timeout``, ``GRAPHMEM_NEO4J_TIMEOUT``): long
enough for a cold server's first plans, short enough that a server which is down is reported at once."""

ATTEMPT_SHARE = 1 / 3
"""The share of the timeout that each connection attempt (TCP connect; acquiring a connection, its
handshake included) and the driver's retrying (from the first failure on) may take. The driver waits
1, 2, 4 ... s (+-20%) between attempts and stops once its retry time has passed, after one more wait
at most: with a third of the timeout each, a call to an absent server ends within the timeout (a
refused connection fails at once: the waits are what it costs), and a transient error is still tried
three times by default."""

SERVER_SHARE = 6
"""How many timeouts one transaction may run on the server before the server ends it: a server just
started plans each statement anew (the search's takes seconds), and a write waits for the writers
queued before it on its conversation, each paying that too."""

TURNS_PER_TIMEOUT = 50
"""A write transaction of more turns than this may run that much longer on the server (its
:data:`SERVER_SHARE` timeouts per this many turns): a load's transaction of hundreds of turns takes
seconds on a warm server, more on a cold one."""

STARTUP_WAIT = 300.0
"""Seconds a store's start may keep the server busy (:meth:`Client.starting`): new indexes coming
online over existing data, and the first plans of a server just started, which every process
starting at once makes for itself (the search statement's takes seconds on a cold JVM, times the
processes over the cores)."""

START_HINT = "start it with `docker compose up -d` or `scripts/neo4j-local start`, or set NEO4J_URI"

_ALREADY = frozenset({
    "Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists", "Neo.ClientError.Schema.IndexAlreadyExists",
    "Neo.ClientError.Schema.ConstraintAlreadyExists", "Neo.ClientError.Schema.IndexWithNameAlreadyExists",
    "Neo.ClientError.Schema.ConstraintWithNameAlreadyExists",
})
"""What a schema statement ``IF NOT EXISTS`` fails with when another process made the same index
between its check and its commit: what it asked for is there."""

T = TypeVar("T")

_SCHEMA_NAME = re.compile(r"^CREATE (?:CONSTRAINT|INDEX|FULLTEXT INDEX|VECTOR INDEX) (\w+) IF NOT EXISTS", re.MULTILINE)

_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


@dataclass(frozen=True)
class Neo4jSettings:
    """Where Neo4j is and who we are to it. ``repr`` never shows the password."""

    uri: str = DEFAULT_URI
    user: str = DEFAULT_USER
    password: str = field(default=DEFAULT_PASSWORD, repr=False)
    database: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    """Seconds a call may wait for the server (see :data:`DEFAULT_TIMEOUT`)."""

    @classmethod
    def from_env(cls, uri: str | None = None, user: str | None = None, password: str | None = None,
                 database: str | None = None, timeout: float | None = None) -> Neo4jSettings:
        """Explicit values first, then ``NEO4J_*`` (and ``GRAPHMEM_NEO4J_TIMEOUT``), then the defaults."""
        env = os.environ
        if timeout is not None:
            seconds = _seconds(timeout, "timeout=")
        elif env.get(ENV_TIMEOUT, "").strip():
            seconds = _seconds(env[ENV_TIMEOUT], ENV_TIMEOUT)
        else:
            seconds = DEFAULT_TIMEOUT
        return cls(
            uri=uri or env.get(ENV_URI) or DEFAULT_URI,
            user=user or env.get(ENV_USER) or DEFAULT_USER,
            password=password if password is not None else env.get(ENV_PASSWORD, DEFAULT_PASSWORD),
            database=database or env.get(ENV_DATABASE) or None,
            timeout=seconds,
        )

    @property
    def public_uri(self) -> str:
        """The URI without any ``user:password@`` in it."""
        return re.sub(r"(?<=://)[^/@]*@", "", self.uri)

    @property
    def where(self) -> str:
        """The URI and database, for messages (never the password)."""
        return self.public_uri + (f" (database {self.database!r})" if self.database else "")


def _seconds(value: object, name: str) -> float:
    """A timeout in seconds: a finite number above 0 (a string from the environment too)."""
    try:
        seconds = float(value) if isinstance(value, (int, float, str)) and not isinstance(value, bool) else math.nan
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        raise GraphmemError(f"{name} {value!r} is not a number of seconds above 0 (the Neo4j timeout, e.g. 5)")
    return seconds


class Client:
    """A driver bound to one database, whose every failure is a one-line ``GraphmemError``.

    Every call is one managed transaction in a session of its own, retried by the driver on a
    transient error, bounded by ``settings.timeout`` (:func:`connect` says how); ``query``/``write``
    run one named query and return the records as dicts.
    """

    def __init__(self, settings: Neo4jSettings, driver: Any):
        self.settings = settings
        self.driver = driver
        self.rows_read = 0
        """Records every query returned so far: what a start-up or a search read, counted."""
        self._starting = False

    # -- plumbing

    def close(self) -> None:
        self.driver.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def server_timeout(self) -> float:
        """Seconds one transaction may run on the server (:data:`SERVER_SHARE` timeouts; while
        :meth:`starting`, :data:`STARTUP_WAIT`)."""
        return STARTUP_WAIT if self._starting else self.settings.timeout * SERVER_SHARE

    @contextmanager
    def starting(self) -> Iterator[None]:
        """The calls of a store's start (its schema, the statements it warms), each allowed
        :data:`STARTUP_WAIT` on the server: what a cold server spends on them is planning, once,
        not a query running away. Connecting and retrying stay bounded by the timeout."""
        before, self._starting = self._starting, True
        try:
            yield
        finally:
            self._starting = before

    def execute(self, work: Callable[[Any], T], write: bool, doing: str, seconds: float | None = None,
                retry: bool = True) -> T:
        """``work(tx)`` in one managed transaction of a fresh session, its driver errors one line.
        ``seconds``: the server's timeout for the transaction (default :attr:`server_timeout`);
        ``retry=False``: one attempt (the driver's retry time 0)."""
        seconds = seconds or self.server_timeout
        with self.errors(doing, seconds):
            return self._execute(work, write, seconds, retry)

    def _execute(self, work: Callable[[Any], T], write: bool, seconds: float | None = None, retry: bool = True) -> T:
        from neo4j import unit_of_work  # lazy: the driver is slow to import (imported by now: it made the driver)

        unit = unit_of_work(timeout=seconds or self.server_timeout)(work)
        once = {} if retry else {"max_transaction_retry_time": 0.0}
        session = self.driver.session(database=self.settings.database, **once)
        try:
            return session.execute_write(unit) if write else session.execute_read(unit)
        finally:
            try:
                session.close()
            except Exception:  # noqa: BLE001 - closing a dead session must not mask the real error
                pass

    def query(self, name: str, **params: Any) -> list[dict]:
        return self._named(name, params, write=False)

    def write(self, name: str, **params: Any) -> list[dict]:
        return self._named(name, params, write=True)

    def _named(self, name: str, params: dict, write: bool) -> list[dict]:
        text = query(name)
        doing = "a search" if name.startswith("search_") else f"{'a write' if write else 'a read'} ({name})"
        return self.execute(lambda tx: self._rows(tx, text, params), write, doing)

    def _rows(self, tx: Any, text: str, params: dict) -> list[dict]:
        rows = [r.data() for r in tx.run(text, params)]
        self.rows_read += len(rows)
        return rows

    def transaction(self, work: Callable[[Transaction], T], doing: str, size: int = 1) -> T:
        """Run ``work`` as ONE managed write transaction: every statement it runs commits
        together or not at all, and the driver runs it again, whole, on a transient error or a
        deadlock (so ``work`` must not keep state from a failed attempt). ``size``: the turns it
        writes; past :data:`TURNS_PER_TIMEOUT` its server timeout grows with them."""
        seconds = self.server_timeout * max(1.0, size / TURNS_PER_TIMEOUT)
        return self.execute(lambda tx: work(Transaction(tx, self)), True, doing, seconds)

    def run(self, text: str, **params: Any) -> list[dict]:
        """One statement in a managed write transaction (ad-hoc reads, e.g. the Browser queries, and
        tests' checks): retried on transient errors like every other call."""
        return self.execute(lambda tx: self._rows(tx, text, params), True, "a query")

    @contextmanager
    def errors(self, doing: str, seconds: float | None = None) -> Iterator[None]:
        """Translate the driver's exceptions into one line naming the URI and what to do."""
        try:
            yield
        except GraphmemError:
            raise
        except Exception as exc:  # noqa: BLE001 - every driver failure becomes one line
            line = translate(exc, self.settings, doing, seconds)
            if line is None:
                raise  # not the driver's: a bug, keep its traceback
            raise line from None

    # -- what the package needs

    def verify(self) -> None:
        """Connect, authenticate and open the database now, so a wrong setting fails at once (one
        attempt: a server that refuses the connection is reported without the retries' waits)."""
        self.execute(lambda tx: tx.run("RETURN 1").consume(), False, "connecting", retry=False)

    def ensure_schema(self) -> None:
        """Constraints and indexes (idempotent), then wait until every index is online; one
        read when they all are already (what every start of a memory finds)."""
        wanted = statements("schema")
        names = {m.group(1) for m in map(_SCHEMA_NAME.search, wanted) if m}
        online = {r["name"] for r in self.query("schema_state") if r["state"] == "ONLINE"}
        if len(names) == sum(not s.startswith("DROP ") for s in wanted) and names <= online:
            return
        for stmt in wanted:
            self._schema(stmt)
        self.execute(lambda tx: tx.run("CALL db.awaitIndexes($seconds)", seconds=int(STARTUP_WAIT)).consume(), False,
                     "waiting for the indexes", STARTUP_WAIT + self.settings.timeout)
        # a database whose search statistics were every user's together: counted again per user, once
        self.execute(lambda tx: Transaction(tx, self).run("term_owners", p={}), True,
                     "counting each user's search statistics", STARTUP_WAIT + self.settings.timeout)

    def _schema(self, stmt: str) -> None:
        """One schema statement in its own managed transaction (Neo4j runs no schema change beside
        data, and several processes may make the schema at once: a deadlock between them is
        retried, and an index another process made first is what was asked for)."""
        with self.errors("making the schema"):
            try:
                self._execute(lambda tx: tx.run(stmt).consume(), True)
            except Exception as exc:  # noqa: BLE001 - the driver's error, told apart by its code
                if getattr(exc, "code", None) not in _ALREADY:
                    raise


class Transaction:
    """One open transaction: named queries run in it (``cypher/<name>.cypher``), values as parameters."""

    def __init__(self, tx: Any, client: Client):
        self.tx, self.client = tx, client

    def run(self, name: str, **params: Any) -> list[dict]:
        rows = [r.data() for r in self.tx.run(query(name), params)]
        self.client.rows_read += len(rows)
        return rows


def translate(exc: BaseException, settings: Neo4jSettings, doing: str = "a query",
              seconds: float | None = None) -> GraphmemError | None:
    """The one line a user sees for a driver or network exception (never the password); else None.
    ``seconds``: the transaction's server timeout, when not the usual (:data:`SERVER_SHARE` timeouts)."""
    from neo4j import exceptions as nx  # lazy: the driver is slow to import, and `bench` imports this module without connecting

    where, code = settings.where, getattr(exc, "code", None) or ""
    if isinstance(exc, nx.AuthError):
        return Neo4jUnavailable(
            f"Neo4j at {settings.public_uri} refused user {settings.user!r}: wrong user or password;"
            f" set {ENV_USER} and {ENV_PASSWORD} (or --neo4j-user and --neo4j-password)"
        )
    if code == "Neo.ClientError.Database.DatabaseNotFound":
        return Neo4jUnavailable(
            f"Neo4j at {settings.public_uri} has no database {settings.database!r}: set {ENV_DATABASE}"
            f" (or --database) to an existing one, or unset it for the server's default"
        )
    if isinstance(exc, (nx.ServiceUnavailable, nx.SessionExpired, nx.ConnectionAcquisitionTimeoutError,
                        nx.IncompleteCommit, nx.DatabaseUnavailable, ConnectionError, OSError)):
        return _unavailable(settings, doing)
    if "TransactionTimedOut" in code:
        return Neo4jUnavailable(
            f"Neo4j at {where} did not finish {doing} within its server timeout of"
            f" {_s(seconds or settings.timeout * SERVER_SHARE)}: allow longer with {ENV_TIMEOUT} (or timeout=,"
            " --timeout), or run it again when the server is less busy"
        )
    if isinstance(exc, nx.Neo4jError) and exc.is_retryable():
        return Neo4jUnavailable(
            f"Neo4j at {where} kept failing {doing} with {code} for {_s(settings.timeout)}, retried:"
            f" run it again, or allow longer with {ENV_TIMEOUT} (or timeout=, --timeout)"
        )
    if isinstance(exc, nx.ConfigurationError) or (doing == "connecting" and isinstance(exc, ValueError)):
        return GraphmemError(f"{ENV_URI} {settings.public_uri!r} is not usable: {_one_line(exc)} (use bolt://host:7687)")
    if isinstance(exc, nx.Neo4jError):
        return GraphmemError(f"Neo4j at {where} failed {doing}: {code}: {_one_line(exc.message or exc)}")
    if isinstance(exc, nx.DriverError):
        return GraphmemError(f"Neo4j driver failed {doing} at {where}: {_one_line(exc)}")
    return None


def _unavailable(settings: Neo4jSettings, doing: str) -> Neo4jUnavailable:
    """No server answered within the timeout: where, how long, and how to start one."""
    waited = f"within {_s(settings.timeout)} ({ENV_TIMEOUT}, or timeout=, --timeout)"
    if doing == "connecting":
        return Neo4jUnavailable(f"cannot reach Neo4j at {settings.where} {waited}: {START_HINT}")
    return Neo4jUnavailable(
        f"lost Neo4j at {settings.where} during {doing}, no answer {waited}: {START_HINT},"
        " then run the command again (graphmem load is idempotent)"
    )


def _s(seconds: float) -> str:
    return f"{seconds:g} s"


def _one_line(x: object) -> str:
    return " ".join(str(x).split())[:300]


def connect(uri: str | None = None, user: str | None = None, password: str | None = None,
            database: str | None = None, verify: bool = True, timeout: float | None = None) -> Client:
    """A verified client: explicit settings, else ``NEO4J_*`` and ``GRAPHMEM_NEO4J_TIMEOUT``, else
    the local defaults. The timeout bounds the TCP connect, the acquisition of a connection and the
    driver's retrying (a third each, :data:`ATTEMPT_SHARE`), and each transaction on the server
    (:data:`SERVER_SHARE` timeouts)."""
    settings = Neo4jSettings.from_env(uri, user, password, database, timeout)
    scheme = settings.uri.split("://", 1)[0].lower() if "://" in settings.uri else ""
    if scheme not in _SCHEMES:
        raise GraphmemError(
            f"{ENV_URI} {settings.public_uri!r} is not a Neo4j Bolt URI: use bolt://host:7687 or neo4j://host:7687"
        )
    _quiet_driver_logs()
    from neo4j import GraphDatabase  # lazy: the driver is slow to import, and `bench` imports this module without connecting

    share = settings.timeout * ATTEMPT_SHARE
    try:
        driver = GraphDatabase.driver(
            settings.uri,
            auth=(settings.user, settings.password),
            connection_timeout=share,
            connection_acquisition_timeout=share,
            max_transaction_retry_time=share,
            notifications_min_severity="OFF",
        )
    except Exception as exc:  # noqa: BLE001
        line = translate(exc, settings, "connecting")
        if line is None:
            raise
        raise line from None
    client = Client(settings, driver)
    if verify:
        try:
            client.verify()
        except GraphmemError:
            client.close()
            raise
    return client


def _quiet_driver_logs() -> None:
    """The driver logs retries and notices as warnings; without a handler Python would print them."""
    log = logging.getLogger("neo4j")
    if not any(isinstance(h, logging.NullHandler) for h in log.handlers):
        log.addHandler(logging.NullHandler())


_shared: dict[Neo4jSettings, Client] = {}


def shared_client() -> Client:
    """One verified client per process for the settings in ``NEO4J_*`` (closed at exit)."""
    settings = Neo4jSettings.from_env()
    client = _shared.get(settings)
    if client is None:
        client = _shared[settings] = connect(settings.uri, settings.user, settings.password, settings.database,
                                             timeout=settings.timeout)
        atexit.register(client.close)
    return client
