"""A memory whose server is not there answers in one line within its timeout, and the timeout is a setting.

The bound: a search or an ingest against a server that stopped (a port nothing listens on; a
proxy closed under an open memory; the real server stopped mid-session) says so in one line naming
the address, the timeout and how to start the server, within the timeout plus a small margin; a
transaction that runs past its server timeout is ended by the server, in one line too.
"""

from __future__ import annotations

import socket
import time
from urllib.parse import urlsplit

import pytest

from graphmem import Memory
from graphmem.errors import GraphmemError, Neo4jUnavailable
from graphmem.store.neo4j.client import (DEFAULT_TIMEOUT, ENV_TIMEOUT, SERVER_SHARE, STARTUP_WAIT, Client, Neo4jSettings,
                                   connect)

from tests.neo4j.server import Proxy, local_server
from tests.neo4j.test_neo4j import emptied

CONV = "timeouts-test"
MARGIN = 3.0
"""Seconds past the timeout a call may take to answer (process and driver overhead)."""

TURN = {"speaker": "Ann", "text": "I planted a walnut tree in the garden.", "conversation": CONV}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _one_line_in_time(call, timeout: float, address: str) -> Neo4jUnavailable:
    """Run ``call``, which must fail with one Neo4jUnavailable line naming ``address``, the timeout
    and how to start a server, within the timeout plus :data:`MARGIN`."""
    start = time.monotonic()
    with pytest.raises(Neo4jUnavailable) as err:
        call()
    took = time.monotonic() - start
    text = str(err.value)
    assert took < timeout + MARGIN, (took, text)
    assert "\n" not in text and address in text and f"{timeout:g} s" in text, text
    assert "scripts/neo4j-local start" in text and ENV_TIMEOUT in text, text
    return err.value


@pytest.fixture
def clean():
    yield from emptied(CONV)


def test_the_timeout_is_a_setting_from_the_keyword_the_environment_or_the_default(monkeypatch):
    monkeypatch.delenv(ENV_TIMEOUT, raising=False)
    assert Neo4jSettings.from_env().timeout == DEFAULT_TIMEOUT
    monkeypatch.setenv(ENV_TIMEOUT, "2.5")
    assert Neo4jSettings.from_env().timeout == 2.5
    assert Neo4jSettings.from_env(timeout=7).timeout == 7.0  # the keyword first
    for bad in ("abc", "0", "-1", "nan", "inf"):
        monkeypatch.setenv(ENV_TIMEOUT, bad)
        with pytest.raises(GraphmemError, match=f"{ENV_TIMEOUT} '{bad}' is not a number of seconds above 0"):
            Neo4jSettings.from_env()
    monkeypatch.delenv(ENV_TIMEOUT)
    with pytest.raises(GraphmemError, match="timeout= True is not a number of seconds"):
        Memory(backend="neo4j", timeout=True)


def test_a_stores_start_may_keep_the_server_busy_longer_than_a_call():
    """Only the calls inside ``starting()`` (nested too) get the start's server bound; after it,
    every call is bounded by the timeout again."""
    client = Client(Neo4jSettings(timeout=0.25), driver=None)
    assert client.server_timeout == 0.25 * SERVER_SHARE
    with client.starting():
        with client.starting():
            assert client.server_timeout == STARTUP_WAIT
        assert client.server_timeout == STARTUP_WAIT
    assert client.server_timeout == 0.25 * SERVER_SHARE


@pytest.mark.parametrize("timeout", [1.0, 2.0])
def test_a_port_nothing_listens_on_answers_in_one_line_within_the_timeout(timeout):
    uri = f"bolt://127.0.0.1:{_free_port()}"
    _one_line_in_time(lambda: Memory(backend="neo4j", uri=uri, timeout=timeout).search("walnut"), timeout, uri)
    _one_line_in_time(lambda: Memory(backend="neo4j", uri=uri, timeout=timeout).ingest([{**TURN, "id": "t0"}]),
                      timeout, uri)


def test_a_server_gone_under_an_open_memory_answers_search_and_ingest_in_one_line_then_comes_back(clean):
    """The server vanishes (a proxy to it closes, refusing new connections, as a stopped server
    does), with the memory open and its connections pooled; then it is there again."""
    target = urlsplit(clean.settings.uri)
    proxy = Proxy((target.hostname or "localhost", target.port or 7687))
    timeout = 2.0
    mem = Memory(backend="neo4j", uri=proxy.uri, timeout=timeout)
    try:
        assert mem.ingest([{**TURN, "id": "t1"}]) == 1
        proxy.stop()
        _one_line_in_time(lambda: mem.search("walnut tree", conversation=CONV), timeout, proxy.uri)
        _one_line_in_time(lambda: mem.ingest([{**TURN, "id": "t2"}]), timeout, proxy.uri)
        proxy.start()
        assert mem.search("walnut tree", conversation=CONV) == ["t1"]  # the same memory goes on
        assert mem.ingest([{**TURN, "id": "t2"}]) == 1
    finally:
        mem.close()
        proxy.stop()
    assert clean.run("MATCH (t:Turn {conversation: $c}) RETURN t.id AS id ORDER BY id", c=CONV) == [
        {"id": "t1"}, {"id": "t2"}]


def test_a_transaction_past_its_server_timeout_is_ended_in_one_line(clean):
    client = connect(timeout=0.25)  # the server ends a transaction after SERVER_SHARE x 0.25 s
    seconds = 0.25 * SERVER_SHARE
    start = time.monotonic()
    try:
        with pytest.raises(Neo4jUnavailable) as err:
            client.run("UNWIND range(1, 4000000000) AS x WITH x WHERE x < 0 RETURN count(*) AS n")
    finally:
        client.close()
    assert time.monotonic() - start < seconds + MARGIN
    text = str(err.value)
    assert "\n" not in text and f"within its server timeout of {seconds:g} s" in text and ENV_TIMEOUT in text, text


def test_the_real_server_stopped_mid_session_answers_in_one_line_then_started_again_serves(clean):
    """``scripts/neo4j-local stop`` under an open memory, then ``start`` (most of the test's time)."""
    server = local_server()
    timeout = 2.0
    mem = Memory(backend="neo4j", timeout=timeout)
    try:
        assert mem.ingest([{**TURN, "id": "t1"}]) == 1
        server.run("stop")
        try:
            address = clean.settings.public_uri
            _one_line_in_time(lambda: mem.search("walnut tree", conversation=CONV), timeout, address)
            _one_line_in_time(lambda: mem.ingest([{**TURN, "id": "t2"}]), timeout, address)
        finally:
            server.run("start")
        slow = Memory(backend="neo4j", timeout=30)  # a server just started plans each statement anew: let it
        assert slow.search("walnut tree", conversation=CONV) == ["t1"]
        assert slow.ingest([{**TURN, "id": "t2"}]) == 1
        slow.close()
        assert sorted(mem.search("walnut tree", conversation=CONV)) == ["t1", "t2"]  # the same memory goes on
        assert mem.ingest([{**TURN, "id": "t3"}]) == 1
    finally:
        mem.close()
