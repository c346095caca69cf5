"""graphmem.data.fetch.download and locomo.load_dataset()'s cache, against a local HTTP server (no network here)."""

from __future__ import annotations

import hashlib
import http.server
import json
import socket
import threading
from pathlib import Path

import pytest

from graphmem.data import fetch, locomo
from graphmem.errors import DataError

TINY = [
    {
        "sample_id": "conv-t",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bob",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [{"speaker": "Ann", "dia_id": "D1:1", "text": "Hi."}],
        },
        "qa": [{"question": "Who said hi?", "answer": "Ann", "evidence": ["D1:1"], "category": 4}],
    }
]
BODY = json.dumps(TINY).encode()
SHA = hashlib.sha256(BODY).hexdigest()
WRONG = "0" * 64


class _Handler(http.server.BaseHTTPRequestHandler):
    files: dict[str, bytes] = {}
    hits: list[str] = []

    def do_GET(self):  # noqa: N802
        self.hits.append(self.path)
        if self.path == "/truncated":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"[{")
            self.close_connection = True
            return
        body = self.files.get(self.path)
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    """A local HTTP server on an ephemeral port: yields (base URL, request log)."""

    class Handler(_Handler):
        files = {"/locomo10.json": BODY}
        hits: list[str] = []

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", Handler.hits
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(5)


@pytest.fixture
def dead_url():
    """A URL on 127.0.0.1 where nothing listens."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/locomo10.json"


@pytest.fixture
def cache(tmp_path, monkeypatch, no_shared):
    """An empty cache directory that load_dataset() uses, and no $GRAPHMEM_LOCOMO nor shared copy."""
    d = tmp_path / "cache"
    monkeypatch.setenv("GRAPHMEM_CACHE", str(d))
    monkeypatch.delenv("GRAPHMEM_LOCOMO", raising=False)
    return d


def _listing(d: Path) -> list[str]:
    return sorted(p.name for p in d.iterdir()) if d.exists() else []


# --------------------------------------------------------------------------- download()


def test_right_checksum_is_kept(server, tmp_path):
    base, _ = server
    dest = tmp_path / "cache" / "locomo10.json"
    assert fetch.download(f"{base}/locomo10.json", dest, SHA, timeout=5) == dest
    assert dest.read_bytes() == BODY
    assert _listing(dest.parent) == ["locomo10.json"]


def test_checksum_is_case_insensitive(server, tmp_path):
    base, _ = server
    dest = tmp_path / "x.json"
    fetch.download(f"{base}/locomo10.json", dest, SHA.upper(), timeout=5)
    assert dest.read_bytes() == BODY


def test_wrong_checksum_is_refused_and_nothing_left(server, tmp_path):
    base, _ = server
    url = f"{base}/locomo10.json"
    dest = tmp_path / "cache" / "locomo10.json"
    with pytest.raises(DataError) as info:
        fetch.download(url, dest, WRONG, timeout=5)
    msg = str(info.value)
    assert msg.startswith(f"{url}: SHA-256 mismatch")
    assert WRONG in msg and SHA in msg and "\n" not in msg
    assert not dest.parent.exists()  # not even the directory it had to create


def test_wrong_checksum_keeps_the_old_file(server, tmp_path):
    base, _ = server
    dest = tmp_path / "locomo10.json"
    dest.write_text("old")
    with pytest.raises(DataError):
        fetch.download(f"{base}/locomo10.json", dest, WRONG, timeout=5)
    assert dest.read_text() == "old"
    assert _listing(tmp_path) == ["locomo10.json"]


def test_http_error(server, tmp_path):
    base, _ = server
    url = f"{base}/missing.json"
    with pytest.raises(DataError, match=r"missing\.json: download failed: HTTP 404"):
        fetch.download(url, tmp_path / "c" / "f.json", SHA, timeout=5)
    assert _listing(tmp_path / "c") == []


def test_truncated_body(server, tmp_path):
    base, _ = server
    with pytest.raises(DataError, match=r"/truncated: download failed"):
        fetch.download(f"{base}/truncated", tmp_path / "f.json", SHA, timeout=5)
    assert _listing(tmp_path) == []


def test_unreachable_server(dead_url, tmp_path):
    with pytest.raises(DataError) as info:
        fetch.download(dead_url, tmp_path / "c" / "f.json", SHA, timeout=5)
    msg = str(info.value)
    assert msg.startswith(f"{dead_url}: download failed")
    assert "\n" not in msg and info.value.__cause__ is None
    assert _listing(tmp_path / "c") == []


def test_server_that_never_answers(tmp_path):
    with socket.socket() as s:  # listens (the kernel accepts) but never replies
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        url = f"http://127.0.0.1:{s.getsockname()[1]}/locomo10.json"
        with pytest.raises(DataError, match="download failed"):
            fetch.download(url, tmp_path / "f.json", SHA, timeout=0.3)
    assert _listing(tmp_path) == []


def test_destination_is_a_directory(server, tmp_path):
    base, _ = server
    (tmp_path / "locomo10.json").mkdir()
    with pytest.raises(DataError, match="cannot save the download"):
        fetch.download(f"{base}/locomo10.json", tmp_path / "locomo10.json", SHA, timeout=5)
    assert _listing(tmp_path) == ["locomo10.json"]


def test_bad_url(tmp_path):
    with pytest.raises(DataError, match="download failed"):
        fetch.download("not a url", tmp_path / "f.json", SHA, timeout=1)
    assert _listing(tmp_path) == []


# --------------------------------------------------------------------------- load_dataset() and the cache


def test_load_downloads_once_then_uses_the_cache(server, cache):
    base, hits = server
    url = f"{base}/locomo10.json"
    ds = locomo.load_dataset(url=url, sha256=SHA, timeout=5)
    assert ds.path == cache / "locomo10.json"
    assert ds.conversations[0].id == "conv-t"
    assert ds.sha256 == SHA
    assert hits == ["/locomo10.json"]
    locomo.load_dataset(url=url, sha256=SHA, timeout=5)
    assert hits == ["/locomo10.json"]  # no second request
    assert _listing(cache) == ["locomo10.json"]


def test_load_replaces_a_corrupt_cache(server, cache):
    base, hits = server
    cache.mkdir()
    (cache / "locomo10.json").write_text("[]")
    ds = locomo.load_dataset(url=f"{base}/locomo10.json", sha256=SHA, timeout=5)
    assert ds.conversations[0].id == "conv-t"
    assert len(hits) == 1
    assert (cache / "locomo10.json").read_bytes() == BODY


def test_load_refuses_a_wrong_download(server, cache):
    base, _ = server
    url = f"{base}/locomo10.json"
    with pytest.raises(DataError) as info:
        locomo.load_dataset(url=url, sha256=WRONG, timeout=5)
    msg = str(info.value)
    assert url in msg and "SHA-256 mismatch" in msg
    assert "--data PATH" in msg and "GRAPHMEM_LOCOMO" in msg
    assert _listing(cache) == []


def test_load_without_network_says_how_to_provide_the_file(dead_url, cache):
    with pytest.raises(DataError) as info:
        locomo.load_dataset(url=dead_url, timeout=5)
    msg = str(info.value)
    assert "\n" not in msg
    assert dead_url in msg
    assert msg.endswith("pass --data PATH or set GRAPHMEM_LOCOMO to a copy of locomo10.json")
    assert _listing(cache) == []


def test_environment_beats_cache_and_download(dead_url, cache, tmp_path, monkeypatch):
    path = tmp_path / "env.json"
    path.write_bytes(BODY)
    monkeypatch.setenv("GRAPHMEM_LOCOMO", str(path))
    assert locomo.load_dataset(url=dead_url).path == path
    assert _listing(cache) == []
