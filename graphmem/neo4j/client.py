"""The connection to Neo4j: settings, a client bound to one database, and one line per failure.

Connection settings come from ``NEO4J_URI`` (default ``bolt://localhost:7687``),
``NEO4J_USER`` (``neo4j``), ``NEO4J_PASSWORD`` (``graphmem-dev``, the local server's
default) and ``NEO4J_DATABASE`` (the server's default database); the password is never
printed. Each way of failing to connect is one :class:`~graphmem.errors.Neo4jUnavailable`
line naming the URI and what to do.
"""

from __future__ import annotations

import atexit
import logging
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from graphmem.errors import GraphmemError, Neo4jUnavailable
from graphmem.neo4j.queries import query, statements

__all__ = [
    "CONNECT_TIMEOUT", "DEFAULT_PASSWORD", "DEFAULT_URI", "DEFAULT_USER", "ENV_DATABASE", "ENV_PASSWORD", "ENV_URI",
    "ENV_USER", "RETRY_TIME", "START_HINT", "Client", "Transaction", "Neo4jSettings", "connect", "shared_client", "translate",
]

ENV_URI = "NEO4J_URI"
ENV_USER = "NEO4J_USER"
ENV_PASSWORD = "NEO4J_PASSWORD"
ENV_DATABASE = "NEO4J_DATABASE"
DEFAULT_URI = "bolt://localhost:7687"
DEFAULT_USER = "neo4j"
DEFAULT_PASSWORD = "graphmem-dev"

CONNECT_TIMEOUT = 3.0
"""Seconds to wait for a TCP connection: an absent server fails fast."""

RETRY_TIME = 15.0
"""Seconds a managed transaction keeps retrying transient errors before giving up."""

START_HINT = "start it with `docker compose up -d` or `scripts/neo4j-local start`, or set NEO4J_URI"

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

    @classmethod
    def from_env(cls, uri: str | None = None, user: str | None = None, password: str | None = None,
                 database: str | None = None) -> Neo4jSettings:
        """Explicit values first, then ``NEO4J_*``, then the defaults."""
        env = os.environ
        return cls(
            uri=uri or env.get(ENV_URI) or DEFAULT_URI,
            user=user or env.get(ENV_USER) or DEFAULT_USER,
            password=password if password is not None else env.get(ENV_PASSWORD, DEFAULT_PASSWORD),
            database=database or env.get(ENV_DATABASE) or None,
        )

    @property
    def public_uri(self) -> str:
        """The URI without any ``user:password@`` in it."""
        return re.sub(r"(?<=://)[^/@]*@", "", self.uri)

    @property
    def where(self) -> str:
        """The URI and database, for messages (never the password)."""
        return self.public_uri + (f" (database {self.database!r})" if self.database else "")


class Client:
    """A driver bound to one database, whose every failure is a one-line ``GraphmemError``.

    ``query``/``write`` run one named query in a managed transaction (retried on transient
    errors for up to ``RETRY_TIME`` seconds) and return the records as dicts.
    """

    def __init__(self, settings: Neo4jSettings, driver: Any):
        self.settings = settings
        self.driver = driver
        self._session = None
        self.rows_read = 0
        """Records every query returned so far: what a start-up or a search read, counted."""

    # -- plumbing

    @property
    def session(self) -> Any:
        if self._session is None:
            self._session = self.driver.session(database=self.settings.database)
        return self._session

    def close(self) -> None:
        if self._session is not None:
            try:
                self._session.close()
            except Exception:  # noqa: BLE001 - closing a dead session must not mask the real error
                pass
            self._session = None
        self.driver.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _reset(self) -> None:
        """Drop the session after a failure so the next call starts clean."""
        if self._session is not None:
            try:
                self._session.close()
            except Exception:  # noqa: BLE001
                pass
            self._session = None

    def query(self, name: str, **params: Any) -> list[dict]:
        return self._managed(name, params, write=False)

    def write(self, name: str, **params: Any) -> list[dict]:
        return self._managed(name, params, write=True)

    def _managed(self, name: str, params: dict, write: bool) -> list[dict]:
        text = query(name)

        def work(tx: Any) -> list[dict]:
            rows = [r.data() for r in tx.run(text, params)]
            self.rows_read += len(rows)
            return rows

        with self.errors(name):
            try:
                if write:
                    return self.session.execute_write(work)
                return self.session.execute_read(work)
            except BaseException:
                self._reset()
                raise

    def transaction(self, work: Callable[[Transaction], T], doing: str) -> T:
        """Run ``work`` as ONE managed write transaction: every statement it runs commits
        together or not at all, and the driver runs it again, whole, on a transient error or a
        deadlock (so ``work`` must not keep state from a failed attempt)."""
        def unit(tx: Any) -> T:
            return work(Transaction(tx, self))

        with self.errors(doing):
            try:
                return self.session.execute_write(unit)
            except BaseException:
                self._reset()
                raise

    def run(self, text: str, **params: Any) -> list[dict]:
        """One auto-commit statement (schema changes and ad-hoc reads, e.g. the Browser queries)."""
        with self.errors("a query"):
            try:
                rows = [r.data() for r in self.session.run(text, params)]
                self.rows_read += len(rows)
                return rows
            except BaseException:
                self._reset()
                raise

    @contextmanager
    def errors(self, doing: str) -> Iterator[None]:
        """Translate the driver's exceptions into one line naming the URI and what to do."""
        try:
            yield
        except GraphmemError:
            raise
        except Exception as exc:  # noqa: BLE001 - every driver failure becomes one line
            line = translate(exc, self.settings, doing)
            if line is None:
                raise  # not the driver's: a bug, keep its traceback
            raise line from None

    # -- what the package needs

    def verify(self) -> None:
        """Connect, authenticate and open the database now, so a wrong setting fails at once."""
        with self.errors("connecting"):
            try:
                self.session.run("RETURN 1").consume()
            except BaseException:
                self._reset()
                raise

    def ensure_schema(self) -> None:
        """Constraints and indexes (idempotent), then wait until every index is online; one
        read when they all are already (what every start of a memory finds)."""
        wanted = statements("schema")
        names = {m.group(1) for m in map(_SCHEMA_NAME.search, wanted) if m}
        online = {r["name"] for r in self.query("schema_state") if r["state"] == "ONLINE"}
        if len(names) == len(wanted) and names <= online:
            return
        for stmt in wanted:
            self.run(stmt)
        self.run("CALL db.awaitIndexes(300)")


class Transaction:
    """One open transaction: named queries run in it (``cypher/<name>.cypher``), values as parameters."""

    def __init__(self, tx: Any, client: Client):
        self.tx, self.client = tx, client

    def run(self, name: str, **params: Any) -> list[dict]:
        rows = [r.data() for r in self.tx.run(query(name), params)]
        self.client.rows_read += len(rows)
        return rows


def translate(exc: BaseException, settings: Neo4jSettings, doing: str = "a query") -> GraphmemError | None:
    """The one line a user sees for a driver or network exception (never the password); else None."""
    from neo4j import exceptions as nx  # lazy: the driver is slow to import, and `bench` imports this module without connecting

    where = settings.where
    if isinstance(exc, nx.AuthError):
        return Neo4jUnavailable(
            f"Neo4j at {settings.public_uri} refused user {settings.user!r}: wrong user or password;"
            f" set {ENV_USER} and {ENV_PASSWORD} (or --user/--password)"
        )
    if isinstance(exc, nx.Neo4jError) and exc.code == "Neo.ClientError.Database.DatabaseNotFound":
        return Neo4jUnavailable(
            f"Neo4j at {settings.public_uri} has no database {settings.database!r}: set {ENV_DATABASE}"
            f" (or --database) to an existing one, or unset it for the server's default"
        )
    if isinstance(exc, (nx.ServiceUnavailable, nx.SessionExpired, nx.ConnectionAcquisitionTimeoutError,
                        nx.IncompleteCommit, nx.DatabaseUnavailable, ConnectionError, OSError)):
        if doing in ("connecting",):
            return Neo4jUnavailable(f"cannot reach Neo4j at {where}: {START_HINT}")
        return Neo4jUnavailable(
            f"lost Neo4j at {where} during {doing}: {START_HINT}, then run the command again"
            " (graphmem load is idempotent)"
        )
    if isinstance(exc, nx.ConfigurationError) or (doing == "connecting" and isinstance(exc, ValueError)):
        return GraphmemError(f"{ENV_URI} {settings.public_uri!r} is not usable: {_one_line(exc)} (use bolt://host:7687)")
    if isinstance(exc, nx.Neo4jError):
        return GraphmemError(f"Neo4j at {where} failed {doing}: {exc.code}: {_one_line(exc.message or exc)}")
    if isinstance(exc, nx.DriverError):
        return GraphmemError(f"Neo4j driver failed {doing} at {where}: {_one_line(exc)}")
    return None


def _one_line(x: object) -> str:
    return " ".join(str(x).split())[:300]


def connect(uri: str | None = None, user: str | None = None, password: str | None = None,
            database: str | None = None, verify: bool = True, retry_time: float = RETRY_TIME) -> Client:
    """A verified client: explicit settings, else ``NEO4J_*``, else the local defaults."""
    settings = Neo4jSettings.from_env(uri, user, password, database)
    scheme = settings.uri.split("://", 1)[0].lower() if "://" in settings.uri else ""
    if scheme not in _SCHEMES:
        raise GraphmemError(
            f"{ENV_URI} {settings.public_uri!r} is not a Neo4j Bolt URI: use bolt://host:7687 or neo4j://host:7687"
        )
    _quiet_driver_logs()
    from neo4j import GraphDatabase  # lazy: the driver is slow to import, and `bench` imports this module without connecting

    try:
        driver = GraphDatabase.driver(
            settings.uri,
            auth=(settings.user, settings.password),
            connection_timeout=CONNECT_TIMEOUT,
            connection_acquisition_timeout=max(2 * CONNECT_TIMEOUT, 10.0),
            max_transaction_retry_time=retry_time,
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
        client = _shared[settings] = connect(settings.uri, settings.user, settings.password, settings.database)
        atexit.register(client.close)
    return client
