"""Neo4j under faults: many writers into one conversation, a server that is not there, and many
processes starting on a server just started.

Why: a memory many processes share must lose no acknowledged turn and show no transient error
(a deadlock, a leader switch) to its caller, whatever the server does; a memory whose server
is down must say so in one line within its timeout, not after the driver's own minute of retries;
and processes that open a memory together on a cold server must all start.

    python bench/neo4j_faults.py writers --writers 8 --turns 40 --runs 10 [--restart]
    python bench/neo4j_faults.py down [--timeout 5] [--uri bolt://127.0.0.1:1] [--stop]
    python bench/neo4j_faults.py starts --processes 8 --runs 2

``writers``: each run deletes the conversation, then ``--writers`` processes ingest ``--turns``
one-turn writes each into it; a run is good when every writer exits 0, every acknowledged turn is
there once, and no caller saw an error. The driver's retries (transient errors it retried itself)
are counted per error code. ``--restart`` restarts the server before each run, so every run meets
a cold server.

``down``: how long a search and an ingest take to answer against a server that does not answer
(``--uri``, by default a port nothing listens on), and what they say; ``--stop``: a memory open on
the running server of ``NEO4J_URI`` loses it (``scripts/neo4j-local stop``), then gets it back.

``starts``: each run restarts the server, opens one memory alone and times it, restarts it again and
opens ``--processes`` memories at once (each a process of its own), timing each.

Stopping and starting act on the server ``scripts/neo4j-local`` started (its pid file, in
``NEO4J_LOCAL_DIR`` or ``<repo>/.neo4j``), with the settings it was started with (read from the running
process), and only when it listens on ``NEO4J_URI``'s port: a second server may run beside it, and
starting this one with the shell's settings could take another's port.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROOT = Path(__file__).resolve().parents[1]

WRITER = r"""
import collections, json, logging, sys, time
from graphmem import Memory
from graphmem.errors import GraphmemError

retried = collections.Counter()

class Count(logging.Handler):
    def emit(self, record):  # the driver logs each retry of a managed transaction as a warning
        if "retried" in record.getMessage():
            retried[getattr(record.args[-1], "code", None) or type(record.args[-1]).__name__] += 1

logging.getLogger("neo4j").addHandler(Count(logging.WARNING))
conv, name, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
try:
    mem = Memory(backend="neo4j")
    for i in range(n):
        t = time.monotonic()
        mem.ingest([{"id": f"{name}-{i}", "speaker": name, "text": f"{name} planted tree number {i} today.",
                     "conversation": conv, "date": "2023-06-01"}])
        print(f"{name}-{i} {time.monotonic() - t:.3f}", flush=True)
except GraphmemError as exc:
    print(exc, file=sys.stderr)
    sys.exit(1)
finally:
    print("#retried", json.dumps(retried), flush=True)
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _server_env() -> dict[str, str]:
    """The settings the running ``scripts/neo4j-local`` server was started with (its ``NEO4J_*``
    environment), after checking it is the server ``NEO4J_URI`` names; else exit with one line."""
    pid_file = Path(os.environ.get("NEO4J_LOCAL_DIR", ROOT / ".neo4j")) / "neo4j.pid"
    try:
        pid = int(pid_file.read_text().strip())
        started = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        ours = b"Launcher" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        raise SystemExit(f"no server started by scripts/neo4j-local is running (no live pid in {pid_file})")
    env = dict(e.decode().split("=", 1) for e in started if e.startswith(b"NEO4J_") and b"=" in e)
    env["NEO4J_LOCAL_DIR"] = str(Path(env.pop("NEO4J_PID_FILE", str(pid_file))).parent)
    uri_port = urlsplit(os.environ.get("NEO4J_URI", "bolt://localhost:7687")).port or 7687
    if not ours or int(env.get("NEO4J_PORT", 7687)) != uri_port:
        raise SystemExit(f"the server in {pid_file} is not scripts/neo4j-local's on NEO4J_URI's port {uri_port}")
    return env


def _server(verb: str, env: dict[str, str]) -> None:
    """``scripts/neo4j-local VERB`` for the server of ``env`` (see :func:`_server_env`)."""
    subprocess.run(["bash", str(ROOT / "scripts" / "neo4j-local"), verb], env={**os.environ, **env}, check=True,
                   capture_output=True)


def _run_writers(conv: str, writers: int, turns: int) -> tuple[list[str], list[float], collections.Counter, list[str]]:
    """One run: the acknowledged ids, each one's seconds, the driver's retries by code, and each
    failed writer's last line."""
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, conv, f"w{j}", str(turns)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=_env()) for j in range(writers)]
    acked: list[str] = []
    took: list[float] = []
    retried: collections.Counter = collections.Counter()
    failed: list[str] = []
    for p in procs:
        out, err = p.communicate()
        for line in out.splitlines():
            if line.startswith("#retried "):
                retried.update(json.loads(line.split(" ", 1)[1]))
            elif line.strip():
                name, seconds = line.split()
                acked.append(name)
                took.append(float(seconds))
        if p.returncode != 0 or err.strip():
            failed.append((err.strip().splitlines() or [f"exit {p.returncode}"])[-1][:200])
    return acked, took, retried, failed


def writers(args: argparse.Namespace) -> None:
    from graphmem.store.neo4j.client import connect
    from graphmem.store.neo4j.checks import delete

    conv = f"bench-faults-{args.writers}"
    server = _server_env() if args.restart else {}
    good = 0
    for run in range(args.runs):
        if args.restart:
            _server("restart", server)
        with connect() as client:
            delete(client, conv)
        t = time.perf_counter()
        acked, took, retried, failed = _run_writers(conv, args.writers, args.turns)
        wall = time.perf_counter() - t
        with connect() as client:
            ids = [r["id"] for r in client.run("MATCH (t:Turn {conversation: $c}) RETURN t.id AS id", c=conv)]
            delete(client, conv)
        once = len(ids) == len(set(ids))
        present = set(acked) <= set(ids)
        ok = not failed and once and present and len(acked) == args.writers * args.turns
        good += ok
        print(f"run {run + 1}: {len(acked)} acknowledged, {len(ids)} present, every acknowledged present: {present},"
              f" none twice: {once}, callers that saw an error: {len(failed)}, driver retries:"
              f" {dict(retried) or 0}, slowest write {max(took, default=0):.2f} s, {wall:.1f} s wall"
              + "".join(f"\n    {f}" for f in failed), flush=True)
    print(f"{good} of {args.runs} runs good ({args.writers} writers x {args.turns} turns"
          f"{', server restarted before each run' if args.restart else ''})")


def _timed(what: str, call) -> None:
    from graphmem.errors import GraphmemError

    t = time.monotonic()
    try:
        call()
        said = "answered (the server is up)"
    except GraphmemError as exc:
        said = str(exc)
    print(f"{what}: {time.monotonic() - t:.2f} s: {said}", flush=True)


def _search(mem) -> None:
    mem.search("Who planted a tree?", k=5)


def _ingest(mem) -> None:
    mem.ingest([{"id": f"down-{time.time_ns()}", "speaker": "Ann", "text": "I planted a tree.", "conversation": "bench-down"}])


def down(args: argparse.Namespace) -> None:
    from graphmem import Memory

    extra = {} if args.timeout is None else {"timeout": args.timeout}
    if not args.stop:
        _timed("open and search", lambda: _search(Memory(backend="neo4j", uri=args.uri, **extra)))
        _timed("open and ingest", lambda: _ingest(Memory(backend="neo4j", uri=args.uri, **extra)))
        return
    server = _server_env()
    mem = Memory(backend="neo4j", **extra)  # the server of NEO4J_URI, up: open, then lose it
    _ingest(mem)
    _server("stop", server)
    try:
        _timed("search, server stopped mid-session", lambda: _search(mem))
        _timed("ingest, server stopped mid-session", lambda: _ingest(mem))
    finally:
        _server("start", server)
    _timed("search, server started again", lambda: _search(mem))
    _timed("ingest, server started again", lambda: _ingest(mem))


OPENER = r"""
import sys, time
from graphmem import Memory
from graphmem.errors import GraphmemError
t = time.monotonic()
try:
    Memory(backend="neo4j")
except GraphmemError as exc:
    print(f"{time.monotonic() - t:.1f} {exc}", flush=True)
    sys.exit(1)
print(f"{time.monotonic() - t:.1f}", flush=True)
"""


def _open_at_once(n: int) -> tuple[list[float], list[str]]:
    """``n`` processes open a memory at once: each one's seconds to open, and the failures' lines."""
    procs = [subprocess.Popen([sys.executable, "-c", OPENER], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=_env()) for _ in range(n)]
    took: list[float] = []
    failed: list[str] = []
    for p in procs:
        out, err = p.communicate()
        seconds, _, said = out.strip().partition(" ")
        took.append(float(seconds or "nan"))
        if p.returncode != 0:
            failed.append((said or err.strip() or f"exit {p.returncode}")[-200:])
    return took, failed


def starts(args: argparse.Namespace) -> None:
    server = _server_env()
    for run in range(args.runs):
        line = []
        for n in (1, args.processes):
            _server("restart", server)
            took, failed = _open_at_once(n)
            line.append(f"{n} at once: {min(took):.1f} to {max(took):.1f} s, {len(failed)} failed"
                        + "".join(f"\n    {f}" for f in failed))
        print(f"run {run + 1}, on a server just restarted: " + "; ".join(line), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    w = sub.add_parser("writers")
    w.add_argument("--writers", type=int, default=8)
    w.add_argument("--turns", type=int, default=40)
    w.add_argument("--runs", type=int, default=10)
    w.add_argument("--restart", action="store_true", help="restart the server (scripts/neo4j-local) before each run")
    d = sub.add_parser("down")
    d.add_argument("--uri", default="bolt://127.0.0.1:1", help="a server that does not answer")
    d.add_argument("--stop", action="store_true", help="instead: open a memory on NEO4J_URI's server, stop it"
                   " (scripts/neo4j-local stop), search and ingest, start it again, search and ingest")
    d.add_argument("--timeout", type=float, default=None, help="the memory's timeout= [GRAPHMEM_NEO4J_TIMEOUT, else its default]")
    st = sub.add_parser("starts")
    st.add_argument("--processes", type=int, default=8)
    st.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    {"writers": writers, "down": down, "starts": starts}[args.what](args)


if __name__ == "__main__":
    main()
