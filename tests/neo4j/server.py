"""The local server the fault tests stop, kill and start again, and a proxy that can vanish.

Why a helper: a test that stops a server must stop the one it talks to (``NEO4J_URI``) and start
it again exactly as it was (its Bolt and HTTP ports, its data), whatever the shell that runs the
tests exported: a second server may run beside it (``NEO4J_PORT=7688``), and starting this one with
another's port would leave the tests without a server. So the server is found by
``scripts/neo4j-local``'s pid file and started again with the settings in its own environment.
The proxy stands between a client and the server, and stopping it is a server gone, in a moment.
"""

from __future__ import annotations

import os
import socket
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from tests.conftest import REPO, need

SCRIPT = REPO / "scripts" / "neo4j-local"


@dataclass(frozen=True)
class LocalServer:
    """A server ``scripts/neo4j-local`` started: its pid and the settings it was started with."""

    pid: int
    env: dict[str, str]

    def run(self, verb: str) -> None:
        """``scripts/neo4j-local VERB`` for this server (its port, data and pid file)."""
        done = subprocess.run(["bash", str(SCRIPT), verb], env={**os.environ, **self.env}, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr


def local_server() -> LocalServer:
    """The server ``NEO4J_URI`` names, if ``scripts/neo4j-local`` started it; else skip (or fail under CI)."""
    pid_file = Path(os.environ.get("NEO4J_LOCAL_DIR", REPO / ".neo4j")) / "neo4j.pid"
    try:
        pid = int(pid_file.read_text().strip())
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except (OSError, ValueError):
        need(f"this test needs a server started by scripts/neo4j-local (no live pid in {pid_file})")
    if b"Launcher" not in cmdline:
        need(f"pid in {pid_file} is not the scripts/neo4j-local server")
    env = dict(e.decode().split("=", 1) for e in environ if e.startswith(b"NEO4J_") and b"=" in e)
    env.pop("NEO4J_URI", None)
    env["NEO4J_LOCAL_DIR"] = str(Path(env.pop("NEO4J_PID_FILE", str(pid_file))).parent)
    tested = urlsplit(os.environ.get("NEO4J_URI", "bolt://localhost:7687")).port or 7687
    if int(env.get("NEO4J_PORT", 7687)) != tested:
        need(f"the server in {pid_file} listens on {env.get('NEO4J_PORT', 7687)}, the tests use port {tested}")
    return LocalServer(pid, env)


class Proxy:
    """A TCP proxy on a free local port to ``target`` (host, port); :meth:`stop` closes it and every
    connection through it (a client then meets a refused connection, as when its server stops),
    :meth:`start` opens it again on the same port."""

    def __init__(self, target: tuple[str, int]):
        self.target = target
        self.port = 0
        self._sockets: list[socket.socket] = []
        self.start()

    @property
    def uri(self) -> str:
        return f"bolt://127.0.0.1:{self.port}"

    def start(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self.port = self._listener.getsockname()[1]
        threading.Thread(target=self._accept, args=(self._listener,), daemon=True).start()

    def stop(self) -> None:
        for s in [self._listener, *self._sockets]:  # shutdown, not only close: it wakes a blocked accept or recv
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()
        self._sockets.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
                server = socket.create_connection(self.target)
            except OSError:
                return
            self._sockets += [client, server]
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                b.sendall(data)
        except OSError:
            pass
        try:
            b.shutdown(socket.SHUT_WR)
        except OSError:
            pass
