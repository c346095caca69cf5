"""``graphmem serve``: a memory as an MCP server, for desktop clients and agents.

Why a module of its own: it is the product's command that imports the server layer (and with it
the optional MCP SDK), which the memory's other commands never need.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from graphmem.cli.common import counted, friendly, neo4j_options, neo4j_settings
from graphmem.memory.arguments import name
from graphmem.errors import install

if TYPE_CHECKING:  # the memory (numpy, scipy, scikit-learn) and the SDK only when the command runs
    from graphmem.memory.api import Memory

__all__ = ["COMMANDS"]

LOOPBACK = "127.0.0.1"
TOKEN_VARIABLE = "GRAPHMEM_MCP_TOKEN"


def address(text: str) -> tuple[str, int]:
    """``HOST:PORT``, ``[IPv6]:PORT`` or ``PORT`` alone (bound to 127.0.0.1: reachable from this machine only)."""
    host, sep, port = text.rpartition(":")
    host = host.strip("[]") if sep else ""
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise click.BadParameter(f"{text!r}: expected HOST:PORT or PORT, the port from 1 to 65535", param_hint="--http")
    return host or LOOPBACK, int(port)


def _token(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """The bearer token, refused when empty: an empty ``--token ""`` (or ``GRAPHMEM_MCP_TOKEN=``, which
    click reads as unset) would otherwise serve with no authentication and not a word said."""
    given = os.environ.get(TOKEN_VARIABLE)
    where = TOKEN_VARIABLE if value in (None, given) and given is not None else "--token"
    if value is None:
        value = given
    if value is not None and not value.strip():
        raise click.ClickException(f"{where} is empty: give a secret (openssl rand -hex 24), or leave it unset to "
                                   "serve without a token")
    return value


def _open(saved: Path | None, backend: str, read_only: bool, floor: float, neo4j: dict[str, Any],
          confidence: str = "coverage") -> tuple[Memory, str]:
    """The memory to serve, and what it is (for the line printed at start)."""
    from graphmem.memory.api import Memory  # the memory (scikit-learn) only for this command

    if saved is not None:
        saved = saved.expanduser()  # a desktop client's config passes "~/memory.db" as is: no shell expands it
        if backend != "memory":
            raise click.UsageError("--memory is a memory file: not with --backend neo4j")
        mem = Memory(path=saved, floor=floor, read_only=read_only, confidence=confidence)
        return mem, f"memory file {saved}{' (read-only)' if read_only else ''}, {counted(len(mem), 'turn')}"
    if backend == "neo4j":
        return Memory("neo4j", floor=floor, read_only=read_only, confidence=confidence, **neo4j_settings(neo4j)), "Neo4j"
    if read_only:
        raise click.UsageError("--read-only serves a memory that exists: give --memory FILE or --backend neo4j")
    return Memory(floor=floor, confidence=confidence), "memory in RAM (gone when the server stops; --memory FILE keeps it)"


@click.command()
@click.option("--memory", "saved", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="A memory file (SQLite) to serve, opened for writing and made when missing. Without it and "
                   "without --backend neo4j the memory lives in RAM and is gone when the server stops.")
@click.option("--backend", type=click.Choice(["memory", "neo4j"]), default="memory", show_default=True,
              help="neo4j: serve what Neo4j holds (connection options below).")
@click.option("--read-only", is_flag=True, help="Refuse remember and forget; the file is only read.")
@click.option("--http", "http", metavar="HOST:PORT", default=None,
              help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio. A PORT alone binds 127.0.0.1 "
                   "(this machine only); name another host (0.0.0.0) to be reachable from elsewhere.")
@click.option("--token", envvar=TOKEN_VARIABLE, show_envvar=True, default=None, callback=_token,
              help="With --http: refuse (HTTP 401) every request without 'Authorization: Bearer TOKEN'. Never "
                   "printed. stdio needs none: only the process that started the server can speak to it.")
@click.option("--floor", type=click.FloatRange(0, 1), default=0.30, show_default=True,
              help="ask replies 'No information available' below this confidence (--confidence coverage).")
@click.option("--confidence", type=click.Choice(["coverage", "calibrated", "calibrated+e5"]), default="coverage",
              show_default=True,
              help="What ask's confidence is: the share of the question's words the best turn covers, or the "
                   "calibrated probability that the question is answerable (its floors chosen out of fold; "
                   "calibrated+e5: e5's cosines among its signals, extra 'dense').")
@click.option("--user", default=None,
              help="Serve this user's turns only: every tool reads and writes them, and a call naming another "
                   "user is refused. Without it each call names its user (omitted: the turns without one).")
@neo4j_options
@friendly
def serve(saved: Path | None, backend: str, read_only: bool, http: str | None, token: str | None, floor: float,
          confidence: str, user: str | None, **neo4j: str | None) -> None:
    """Serve a memory to MCP clients (Claude Desktop, Cursor, VS Code, agents): stdio by default.

    Tools: remember, update, search, ask, facts, forget, turns, stats. A tool's 'user' argument is a
    partition of the memory, NOT authentication: anyone who can reach the server can name any user.
    Over HTTP, --token is what keeps others out. Bad input never stops the server: each call
    that cannot be served returns a tool error with the one line graphmem prints."""
    where = address(http) if http is not None else None
    if user is not None:
        name(user, "--user")
    try:
        from graphmem.server import app  # the mcp extra, installed apart: its absence is one line, below
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("mcp", "uvicorn", "starlette", "anyio", "pydantic"):
            raise
        raise click.ClickException(f"graphmem serve needs the MCP SDK: {install('mcp')}") from None
    mem, what = _open(saved, backend, read_only, floor, neo4j, confidence)
    signal.signal(signal.SIGTERM, _stop)  # a terminated server closes its memory on the way out, as Ctrl-C does
    try:
        with mem:
            _run(app, mem, what if user is None else f"{what}, user {user!r} only", where, token, user)
    except KeyboardInterrupt:  # Ctrl-C is how an HTTP server is stopped: not an error
        pass


def _stop(signum: int, frame: Any) -> None:
    """SIGTERM as an exception, so ``with mem:`` closes the memory (a file's lock, its postings)."""
    raise KeyboardInterrupt


def _run(app: Any, mem: Memory, what: str, where: tuple[str, int] | None, token: str | None,
         user: str | None) -> None:
    """Serve until the client leaves (stdio) or the process is interrupted (HTTP)."""
    if where is None:
        click.echo(f"graphmem serve: MCP over stdio, {what}", err=True)
        app.serve_stdio(mem, user)
        return
    host, port = where
    listening = app.listen(host, port)
    click.echo(f"graphmem serve: MCP over streamable HTTP at {app.url(host, port)}, {what}"
               f"{', bearer token required' if token else ''}; Ctrl-C stops it", err=True)
    if not app.loopback(listening):  # loopback: this machine only, and the Host/Origin allow-list keeps pages out
        click.echo(f"graphmem serve: warning: {host} is reachable from other machines "
                   + ("over plain HTTP: the token crosses the network unencrypted; put a TLS proxy in front" if token
                      else "and no --token is set: anyone who reaches it can read and change this memory"), err=True)
    app.serve_http(mem, listening, host, port, token, user)


COMMANDS = (serve,)
