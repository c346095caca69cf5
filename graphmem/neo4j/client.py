"""Neo4j: the connection, the load of the networkx mirror, and the path arm's hops in Cypher.

The graph in Neo4j is the networkx mirror of :mod:`graphmem.claims.graph`, one to one, plus the
conversation's structure from the dataset::

    (:Conversation {id})-[:HAS_SESSION]->(:Session {key, index, date})-[:HAS_TURN]->(:Turn {key, id, speaker, text, date})
    (:Person {key, id, name})-[:SPOKE]->(:Turn)
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

Every query lives in ``cypher/<name>.cypher`` and is read by :func:`query`; every value
travels as a parameter, never inside the query text.

Connection settings come from ``NEO4J_URI`` (default ``bolt://localhost:7687``),
``NEO4J_USER`` (``neo4j``), ``NEO4J_PASSWORD`` (``graphmem-dev``, the local server's
default) and ``NEO4J_DATABASE`` (the server's default database); the password is never
printed. Each way of failing to connect is one :class:`~graphmem.errors.Neo4jUnavailable`
line naming the URI and what to do.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from importlib import resources
from typing import Any

from graphmem.errors import GraphmemError, Neo4jUnavailable
from graphmem.claims.build import mirror
from graphmem.data.locomo import Conversation, Dataset

ENV_URI = "NEO4J_URI"
ENV_USER = "NEO4J_USER"
ENV_PASSWORD = "NEO4J_PASSWORD"
ENV_DATABASE = "NEO4J_DATABASE"
DEFAULT_URI = "bolt://localhost:7687"
DEFAULT_USER = "neo4j"
DEFAULT_PASSWORD = "graphmem-dev"

DEFAULT_BATCH = 2000
"""Rows per UNWIND batch (one managed write transaction each)."""

CONNECT_TIMEOUT = 3.0
"""Seconds to wait for a TCP connection: an absent server fails fast."""

RETRY_TIME = 15.0
"""Seconds a managed transaction keeps retrying transient errors before giving up."""

BLIND_PREFIX = "blind:"
"""The path arm's --blind scope: ``blind:conv-26`` names a conversation no load may create."""

START_HINT = "start it with `docker compose up -d` or `scripts/neo4j-local start`, or set NEO4J_URI"

_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


# --------------------------------------------------------------------------- queries


def _cypher_dir():
    return resources.files("graphmem.neo4j") / "cypher"


@lru_cache(maxsize=None)
def query(name: str) -> str:
    """The text of ``cypher/<name>.cypher`` (a single statement, without its final ``;``)."""
    path = _cypher_dir() / f"{name}.cypher"
    if not path.is_file():
        raise GraphmemError(f"no Cypher query named {name!r} in {_cypher_dir()}")
    return path.read_text(encoding="utf-8").strip().rstrip(";").strip()


def statements(name: str) -> list[str]:
    """The statements of a multi-statement file (``schema``), split on ``;`` at line ends."""
    text = (_cypher_dir() / f"{name}.cypher").read_text(encoding="utf-8")
    out, current = [], []
    for line in text.splitlines():
        if line.strip().startswith("//") and not current:
            continue
        current.append(line)
        if line.rstrip().endswith(";"):
            out.append("\n".join(current).strip().rstrip(";"))
            current = []
    if "".join(current).strip():
        out.append("\n".join(current).strip())
    return out


def query_names() -> list[str]:
    """Every query file shipped in ``graphmem/cypher`` (without the Browser's)."""
    return sorted(p.name[: -len(".cypher")] for p in _cypher_dir().iterdir() if p.name.endswith(".cypher"))


@dataclass(frozen=True)
class Example:
    """One documented Browser query: ``// name: description`` and the statement after it."""

    name: str
    description: str
    text: str


def browser_file(name: str):
    """A file of ``cypher/browser`` (``style.grass``, ``queries.cypher``)."""
    return _cypher_dir() / "browser" / name


def browser_queries() -> tuple[str, list[Example]]:
    """The ``:params`` map and the example queries of ``cypher/browser/queries.cypher``."""
    params = ""
    examples: list[Example] = []
    head: tuple[str, str] | None = None
    body: list[str] = []
    for line in browser_file("queries.cypher").read_text(encoding="utf-8").splitlines():
        m = _HEADER.match(line)
        if line.startswith(":params "):
            params = line[len(":params "):].strip()
        elif m and not body:
            head = (m.group(1), m.group(2).strip())
        elif head and line.strip() and not line.startswith("//"):
            body.append(line)
            if line.rstrip().endswith(";"):
                examples.append(Example(head[0], head[1], "\n".join(body).strip().rstrip(";")))
                head, body = None, []
    return params, examples


_HEADER = re.compile(r"^// ([a-z][a-z0-9-]*): (.+)$")


# --------------------------------------------------------------------------- connection


@dataclass(frozen=True)
class Settings:
    """Where Neo4j is and who we are to it. ``repr`` never shows the password."""

    uri: str = DEFAULT_URI
    user: str = DEFAULT_USER
    password: str = field(default=DEFAULT_PASSWORD, repr=False)
    database: str | None = None

    @classmethod
    def from_env(cls, uri: str | None = None, user: str | None = None, password: str | None = None,
                 database: str | None = None) -> Settings:
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

    ``read``/``write`` run one named query in a managed transaction (retried on transient
    errors for up to ``RETRY_TIME`` seconds) and return the records as dicts.
    """

    def __init__(self, settings: Settings, driver: Any):
        self.settings = settings
        self.driver = driver
        self._session = None

    # -- plumbing

    @property
    def session(self):
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

    def read(self, name: str, **params: Any) -> list[dict]:
        return self._managed(name, params, write=False)

    def write(self, name: str, **params: Any) -> list[dict]:
        return self._managed(name, params, write=True)

    def _managed(self, name: str, params: dict, write: bool) -> list[dict]:
        text = query(name)

        def work(tx):
            return [r.data() for r in tx.run(text, params)]

        with self.errors(name):
            try:
                if write:
                    return self.session.execute_write(work)
                return self.session.execute_read(work)
            except BaseException:
                self._reset()
                raise

    def run(self, text: str, **params: Any) -> list[dict]:
        """One auto-commit statement (schema changes and ad-hoc reads, e.g. the Browser queries)."""
        with self.errors("a query"):
            try:
                return [r.data() for r in self.session.run(text, params)]
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
        """Constraints and indexes (idempotent), then wait until every index is online."""
        for stmt in statements("schema"):
            self.run(stmt)
        self.run("CALL db.awaitIndexes(300)")


def translate(exc: BaseException, settings: Settings, doing: str = "a query") -> GraphmemError | None:
    """The one line a user sees for a driver or network exception (never the password); else None."""
    from neo4j import exceptions as nx

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
    settings = Settings.from_env(uri, user, password, database)
    scheme = settings.uri.split("://", 1)[0].lower() if "://" in settings.uri else ""
    if scheme not in _SCHEMES:
        raise GraphmemError(
            f"{ENV_URI} {settings.public_uri!r} is not a Neo4j Bolt URI: use bolt://host:7687 or neo4j://host:7687"
        )
    _quiet_driver_logs()
    from neo4j import GraphDatabase

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


# --------------------------------------------------------------------------- the plan


NODE_STEPS = ("merge_conversations", "merge_sessions", "merge_turns", "merge_people", "merge_assertions")
LINK_STEPS = ("link_sessions", "link_turns", "link_speakers", "link_subjects", "link_mentions", "link_sources")
STEPS = NODE_STEPS + LINK_STEPS

COUNT_FIELDS = ("conversations", "sessions", "turns", "people", "assertions", "derived",
                "has_session", "has_turn", "spoke", "subject_of", "mentions", "read_from")
"""What the count check compares, per conversation (the columns of ``counts.cypher``)."""

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
    cid = conv.sample_id
    check_id(cid)
    rows: dict[str, list[dict]] = {s: [] for s in STEPS}
    rows["merge_conversations"].append({"id": cid, "speakers": list(conv.speakers)})
    turn_key = {}
    position = 0
    for s in conv.sessions:
        skey = f"{cid}/S{s.index}"
        rows["merge_sessions"].append({"key": skey, "conversation": cid, "index": s.index, "date": s.date,
                                       "date_text": s.date_text})
        rows["link_sessions"].append({"from": cid, "to": skey})
        for t in s.turns:
            tkey = turn_key[t.dia_id] = f"{cid}/{t.dia_id}"
            rows["merge_turns"].append({"key": tkey, "id": t.dia_id, "conversation": cid, "session": s.index,
                                        "position": position, "speaker": t.speaker, "text": t.text,
                                        "date": t.date, "caption": t.caption})
            rows["link_turns"].append({"from": skey, "to": tkey})
            position += 1

    node_key: dict[Any, str] = {}
    seen_content: dict[str, int] = {}
    people_n = 0
    for node, data in graph.nodes(data=True):
        kind = data.get("kind", node[0] if isinstance(node, tuple) else None)
        if kind == "person":
            pid = str(node[1])
            key = node_key[node] = f"{cid}/{pid}"
            rows["merge_people"].append({"key": key, "id": pid, "conversation": cid,
                                         "name": str(data.get("name", pid)), "speaker": bool(data.get("speaker", False)),
                                         "n": people_n})
            people_n += 1
        elif kind == "turn":
            dia_id = str(node[1])
            if dia_id not in turn_key:
                raise GraphmemError(f"{cid}: the mirror has a turn {dia_id!r} the dataset does not")
            node_key[node] = turn_key[dia_id]
        elif kind != "assertion":
            raise GraphmemError(f"{cid}: the mirror has a node of kind {kind!r} the Neo4j model does not know")

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
            "date": _date(data.get("date")), "derived": bool(data.get("derived", False)),
        })

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

    people = {r["key"] for r in rows["merge_people"]}
    for t in conv.turns:
        speaker = graph.nodes.get(("turn", t.dia_id), {}).get("speaker") or ""
        pkey = f"{cid}/{speaker}"
        if speaker and pkey in people:
            rows["link_speakers"].append({"from": pkey, "to": turn_key[t.dia_id]})

    expected = {
        "conversations": 1,
        "sessions": len(rows["merge_sessions"]),
        "turns": len(rows["merge_turns"]),
        "people": len(rows["merge_people"]),
        "assertions": len(rows["merge_assertions"]),
        "derived": sum(r["derived"] for r in rows["merge_assertions"]),
        "has_session": len(rows["link_sessions"]),
        "has_turn": len(rows["link_turns"]),
        "spoke": len(rows["link_speakers"]),
        "subject_of": len(rows["link_subjects"]),
        "mentions": len(rows["link_mentions"]),
        "read_from": len(rows["link_sources"]),
    }
    return Plan(cid, rows, expected, _fingerprint(rows))


def _subject(graph: Any, node: Any, data: dict) -> str:
    if "subject" in data:
        return str(data["subject"])
    for u, _, k, d in graph.in_edges(node, keys=True, data=True):
        if d.get("kind", k) == "about":
            return str(u[1])
    return ""


def _date(value: Any) -> Any:
    if isinstance(value, str) and value:
        try:
            return datetime.fromisoformat(value)
        except ValueError:
            return value
    return value or None


def _fingerprint(rows: dict[str, list[dict]]) -> str:
    payload = json.dumps({s: rows[s] for s in STEPS}, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------- the load


@dataclass(frozen=True)
class Counts:
    """One conversation after a load: what Neo4j holds and what the mirror says it must."""

    conversation: str
    found: dict[str, int]
    expected: dict[str, int]

    @property
    def ok(self) -> bool:
        return all(self.found.get(f) == self.expected.get(f) for f in COUNT_FIELDS)

    @property
    def nodes(self) -> int:
        return sum(self.found[f] for f in ("conversations", "sessions", "turns", "people", "assertions"))

    @property
    def relationships(self) -> int:
        return sum(self.found[f] for f in ("has_session", "has_turn", "spoke", "subject_of", "mentions", "read_from"))

    def differences(self) -> str:
        return ", ".join(f"{f} {self.found.get(f)} (mirror {self.expected.get(f)})"
                         for f in COUNT_FIELDS if self.found.get(f) != self.expected.get(f))

    def line(self) -> str:
        f = self.found
        return (f"{self.conversation:<10}{f['sessions']:4d} sessions {f['turns']:5d} turns {f['people']:4d} people"
                f" {f['assertions']:6d} assertions ({f['derived']} derived) {self.nodes:6d} nodes"
                f" {self.relationships:6d} relationships  {'ok' if self.ok else 'MISMATCH'}")


@dataclass
class LoadReport:
    counts: list[Counts]
    rows: int
    seconds: float

    @property
    def rows_per_second(self) -> float:
        return self.rows / self.seconds if self.seconds > 0 else 0.0


def select(dataset: Dataset, spec: str | None) -> list[Conversation]:
    """The conversations a comma list names (all when ``spec`` is empty), in dataset order."""
    if not spec:
        return list(dataset.conversations)
    wanted = [s.strip() for s in spec.split(",") if s.strip()]
    known = {c.sample_id: c for c in dataset.conversations}
    unknown = [w for w in wanted if w not in known]
    if unknown:
        raise GraphmemError(f"unknown conversation {', '.join(unknown)}: choose from {', '.join(known)}")
    keep = set(wanted)
    return [c for c in dataset.conversations if c.sample_id in keep]


def load(client: Client, conversations: Sequence[Conversation], batch: int = DEFAULT_BATCH,
         replace: bool = False, progress: bool = False, plans: Sequence[Plan] | None = None,
         on_batch: Callable[[str, int], None] | None = None) -> LoadReport:
    """Write conversations into Neo4j, idempotently, and check every count against the mirror.

    Reads claims and builds the mirror with the bench's own code, ensures the schema, then
    (``replace``) deletes each conversation's subgraph in batches, then MERGEs every node
    and then every relationship in ``UNWIND $rows`` batches of ``batch`` rows, one managed
    write transaction each. Finally it counts each conversation in Neo4j; any difference
    from the mirror is a ``GraphmemError``. A checked conversation is stamped with its
    reading's fingerprint (what :func:`path_backend` requires). ``progress`` draws bars on
    stderr; ``on_batch(step, rows)`` is called after every committed batch.
    """
    if batch < 1:
        raise GraphmemError("--batch must be at least 1")
    start = time.perf_counter()
    if plans is None:
        with _bar(len(conversations), progress, "reading claims") as bar:
            plans = []
            for conv in conversations:
                plans.append(plan(conv, mirror(conv)[1]))
                bar.update(1)
    client.ensure_schema()
    if replace:
        for p in plans:
            delete(client, p.conversation, batch)
    total = sum(p.size for p in plans)
    with _bar(total, progress, "writing") as bar:
        for step in STEPS:
            rows = [r for p in plans for r in p.rows[step]]
            for i in range(0, len(rows), batch):
                chunk = rows[i:i + batch]
                client.write(step, rows=chunk)
                bar.update(len(chunk))
                if on_batch is not None:
                    on_batch(step, len(chunk))
    counts = [count(client, p) for p in plans]
    bad = [c for c in counts if not c.ok]
    if bad:
        detail = "; ".join(f"{c.conversation}: {c.differences()}" for c in bad[:3])
        if len(bad) > 3:
            detail += f"; and {len(bad) - 3} more conversations"
        raise GraphmemError(
            f"Neo4j at {client.settings.where} does not match the mirror: {detail}"
            " (another reading is loaded there: run graphmem load --replace)"
        )
    for p in plans:
        client.write("mark_loaded", conversation=p.conversation, reading=p.fingerprint)
    return LoadReport(counts, total, time.perf_counter() - start)


def count(client: Client, p: Plan) -> Counts:
    found = client.read("counts", conversation=p.conversation)[0]
    return Counts(p.conversation, {f: int(found[f]) for f in COUNT_FIELDS}, dict(p.expected))


def delete(client: Client, conversation: str, batch: int = DEFAULT_BATCH) -> int:
    """Delete one conversation's subgraph, ``batch`` nodes per transaction; returns nodes deleted."""
    gone = 0
    while True:
        n = client.write("delete_conversation", conversation=conversation, batch=batch)[0]["deleted"]
        gone += n
        if n == 0:
            return gone


class _NoBar:
    def update(self, n: int) -> None:
        pass


@contextmanager
def _bar(total: int, show: bool, label: str) -> Iterator[Any]:
    if not show:
        yield _NoBar()
        return
    import click

    with click.progressbar(length=total, label=label.ljust(15), file=sys.stderr, show_pos=True) as bar:
        yield bar


# --------------------------------------------------------------------------- the path arm


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
        self._edges: dict[str, list] = {}
        self._links: dict[str, list[str]] = {}
        self.queries = 0

    def people(self) -> list[str]:
        if self._people is None or not self.memo:
            self.queries += 1
            self._people = [r["person"] for r in self.client.read("path_people", conversation=self.conversation)]
        return list(self._people)

    def prefetch(self, people: Iterable[str]) -> None:
        """Ask for the hops of all these people in one query (those not asked before)."""
        missing = [p for p in dict.fromkeys(people) if p not in self._edges]
        if not missing:
            return
        from graphmem.claims.hops import Edge

        self.queries += 1
        rows = self.client.read("path_assertions", conversation=self.conversation, people=missing)
        got: dict[str, list] = {p: [] for p in missing}
        for r in rows:
            got[r["person"]].append(Edge(r["person"], r["assertion"], r["subject"], r["predicate"], bool(r["negated"]),
                                         r["sentence"], r["dia_id"]))
        self._edges.update(got)

    def assertions(self, people: Sequence[str]) -> list:
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
            for r in self.client.read("path_linked", conversation=self.conversation, assertions=missing):
                got[r["assertion"]].append(r["person"])
            self._links.update(got)
        out: dict[str, None] = {}
        for a in assertions:
            for p in self._links[a]:
                out.setdefault(p)
        return list(out)


_shared: dict[Settings, Client] = {}


def shared_client() -> Client:
    """One verified client per process for the settings in ``NEO4J_*`` (closed at exit)."""
    settings = Settings.from_env()
    client = _shared.get(settings)
    if client is None:
        client = _shared[settings] = connect(settings.uri, settings.user, settings.password, settings.database)
        import atexit

        atexit.register(client.close)
    return client


def path_backend(ctx: Any, client: Client | None = None, blind: bool | None = None, prefetch: bool = True,
                 memo: bool = True):
    """The path arm's Neighbourhood for one bench ``Context``, over Neo4j.

    ``client`` defaults to ``ctx.extra['neo4j']``, else one shared client from ``NEO4J_*``.
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
    client = client or ctx.extra.get("neo4j") or shared_client()
    cid = ctx.conv.sample_id
    if blind:
        scope = BLIND_PREFIX + cid
        hood = CypherNeighbourhood(client, scope, memo)
        if hood.people():
            raise GraphmemError(f"the blind scope {scope!r} in Neo4j at {client.settings.where} is not empty")
    else:
        require_loaded(client, [plan(ctx.conv, ctx.graph)])
        hood = CypherNeighbourhood(client, cid, memo)
    if prefetch and memo and ctx.reading is not None:
        from graphmem.claims.hops import named

        wanted: list[str] = []
        for q in ctx.conv.questions:
            people = named(ctx.reading.people, q.text)
            wanted.extend(people if people else hood.people())
        hood.prefetch(wanted)
    ctx.extra[cache_key] = hood
    return hood


def require_loaded(client: Client, plans: Sequence[Plan]) -> None:
    """Every conversation is in Neo4j, loaded and checked from exactly this reading."""
    rows = client.read("loaded", conversations=[p.conversation for p in plans])
    have = {r["conversation"]: r["reading"] for r in rows}
    for p in plans:
        got = have.get(p.conversation)
        if got is None:
            raise GraphmemError(
                f"{p.conversation} is not loaded in Neo4j at {client.settings.where} (or its load did not finish):"
                f" run graphmem load --conversations {p.conversation}"
            )
        if got != p.fingerprint:
            raise GraphmemError(
                f"{p.conversation} in Neo4j at {client.settings.where} was loaded from another reading:"
                f" run graphmem load --replace --conversations {p.conversation}"
            )


__all__ = [
    "BLIND_PREFIX", "Client", "Counts", "Example", "CypherNeighbourhood", "LoadReport", "Plan", "Settings",
    "browser_file", "browser_queries", "connect", "count", "delete", "load", "mirror", "path_backend", "plan", "query", "query_names",
    "require_loaded", "select", "shared_client", "statements", "translate",
]


class MemoryStore:
    """What ``Memory(backend="neo4j")`` keeps in Neo4j: its turns, and the claims read from them.

    A new memory over the same database starts from every Turn already there (including
    conversations loaded by ``graphmem load``). Ingesting reloads each conversation it
    touches with ``replace``, because more dialogue can change how earlier turns read
    (a third party introduced later, say), and the load's count check must stay exact.
    """

    def __init__(self, uri: str | None = None, user: str | None = None, password: str | None = None,
                 database: str | None = None, batch: int = DEFAULT_BATCH):
        self.client = connect(uri, user, password, database)
        self.batch = batch
        self._records: list = []

    def records(self) -> list:
        """Every turn in the database as a memory record."""
        from graphmem.data.records import Record

        rows = self.client.read("memory_turns")
        self._records = [Record(r["id"], r["speaker"], r["text"], _as_datetime(r["date"]), r["conversation"], r["turn"])
                         for r in rows]
        return list(self._records)

    def write(self, new: Sequence[Any]) -> None:
        """Load the conversations these records belong to, with everything they already held."""
        from graphmem.data.records import conversations

        touched = {r.conversation for r in new}
        for conv_id in touched:
            check_id(conv_id)
        records = [r for r in self._records if r.conversation in touched] + list(new)
        load(self.client, conversations(records), batch=self.batch, replace=True)
        number_turns(self.client, records, self.batch)
        self._records.extend(new)

    def close(self) -> None:
        self.client.close()


def number_turns(client: Client, records: Sequence[Any], batch: int = DEFAULT_BATCH) -> int:
    """Keep the turn numbers memory records carry on their Turn nodes (loaded first), so a
    ``Memory(backend="neo4j")`` reads the same records the in-process one was given.
    Returns how many were written."""
    rows = [{"key": f"{r.conversation}/{r.id}", "number": r.turn} for r in records if r.turn is not None]
    for start in range(0, len(rows), batch):
        client.write("memory_turn_numbers", rows=rows[start:start + batch])
    return len(rows)


def _as_datetime(value: Any) -> datetime | None:
    """A stored date back as a Python datetime (the driver returns its own DateTime type)."""
    if value is None:
        return None
    if hasattr(value, "to_native"):
        value = value.to_native()
    if isinstance(value, str):
        return _date(value) if isinstance(_date(value), datetime) else None
    return value if isinstance(value, datetime) else None
