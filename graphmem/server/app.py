"""The MCP server itself: the tools on the SDK's low-level ``Server``, served over stdio or streamable HTTP.

Why the low-level server and not the decorator layer (``MCPServer``): the schemas are written by
hand (:mod:`graphmem.server.schemas`) and the errors are the memory's own one-line messages, and
the decorator layer would derive the first from signatures and word the second itself.

Every call runs on a worker thread: the memory's verbs are plain blocking Python (an SQLite
write, a Neo4j round trip), and on the event loop one slow call would stall every other client
of an HTTP server. A caller's mistake (a bad argument, a bad date, a closed memory, a store gone)
comes back as a tool result with ``isError`` and the one line ``graphmem`` would print; only a
call to a tool that does not exist is a protocol error, as the MCP specification asks.

Over HTTP, ``token`` is checked by the SDK's own bearer middleware (a 401 before anything is
parsed). A tool's ``user`` argument is a partition of the memory, never authentication.
"""

from __future__ import annotations

import errno
import hmac
import ipaddress
import json
import logging
import socket
from importlib.metadata import PackageNotFoundError, version
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import anyio
import mcp.types as types
import uvicorn
from mcp import MCPError
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.server.auth.middleware.bearer_auth import RequireAuthMiddleware
from mcp.server.transport_security import (
    DEFAULT_MAX_REQUEST_BODY_SIZE,
    TransportSecurityMiddleware,
    TransportSecuritySettings,
)
from mcp.shared.message import SessionMessage
from pydantic import AnyHttpUrl, ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from graphmem.errors import GraphmemError, MisuseError
from graphmem.server.schemas import TOOLS
from graphmem.server.tools import Tools

if TYPE_CHECKING:
    from graphmem.memory.api import Memory

__all__ = ["Reread", "RequestIds", "StaticToken", "bad_id", "build", "listen", "loopback", "rebinding_guard", "serve_http", "serve_stdio", "url"]

log = logging.getLogger("graphmem.server")

try:
    VERSION = version("graphmem")
except PackageNotFoundError:  # run from a checkout that was never installed
    VERSION = "0+checkout"

INSTRUCTIONS = (
    "graphmem is a conversational memory. Call remember with each turn of a conversation as it is said (speaker, "
    "text, date), search to recall what was said, ask for a short answer with its sources, facts for what is held "
    "about a person, turns and stats to see what is held, update to correct or tag a turn, forget to remove "
    "turns. Every turn is searchable as "
    "soon as remember returns. The user argument selects a partition of the memory; it is not authentication.")


def listed_tools() -> list[types.Tool]:
    """The tools as ``tools/list`` shows them, from :data:`graphmem.server.schemas.TOOLS`."""
    out = []
    for name, spec in TOOLS.items():
        hints = spec["hints"]
        out.append(types.Tool(
            name=name, title=spec["title"], description=spec["description"], input_schema=spec["input_schema"],
            output_schema=spec["output_schema"],
            annotations=types.ToolAnnotations(title=spec["title"], read_only_hint=hints["read_only"],
                                              destructive_hint=hints["destructive"],
                                              idempotent_hint=hints["idempotent"], open_world_hint=False)))
    return out


def build(memory: Memory, user: str | None = None) -> Server[Any]:
    """A low-level MCP server whose tools run on ``memory`` (which the caller opens and closes); with
    ``user``, on that user's turns only (a call naming another user is refused)."""
    tools = Tools(memory, user)
    listing = types.ListToolsResult(tools=listed_tools())

    async def list_tools(ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None) \
            -> types.ListToolsResult:
        return listing

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) \
            -> types.CallToolResult:
        if params.name not in TOOLS:
            raise MCPError(types.INVALID_PARAMS, f"unknown tool {params.name!r}; the tools are {', '.join(TOOLS)}")
        try:
            result = await anyio.to_thread.run_sync(tools.call, params.name, params.arguments)
        except GraphmemError as exc:
            return failed(str(exc))
        except Exception as exc:  # a bug, not the caller's doing: said in one line, the traceback to the log
            log.exception("graphmem serve: %s failed", params.name)
            return failed(f"{params.name}: internal error ({type(exc).__name__}); the server's log has the traceback")
        text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
        return types.CallToolResult(content=[types.TextContent(text=text)], structured_content=result)

    instructions = INSTRUCTIONS if user is None else (
        f"{INSTRUCTIONS} This server serves one user's memory ({user!r}): leave the user argument out.")
    return Server("graphmem", version=VERSION, title="graphmem memory", instructions=instructions,
                  on_list_tools=list_tools, on_call_tool=call_tool)


def failed(message: str) -> types.CallToolResult:
    """A tool error: the one line a model reads to correct its call."""
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)


def serve_stdio(memory: Memory, user: str | None = None) -> None:
    """Serve one client over this process's stdin and stdout until it closes them."""
    server = build(memory, user)

    async def run() -> None:
        async with stdio_server() as (read, write):
            await server.run(Reread(read), write, server.create_initialization_options())

    anyio.run(run)


class Reread:
    """The stdio transport's incoming messages, with the JSON its parser refuses but JSON allows read again.

    Why: the SDK parses each line with pydantic's JSON parser, which refuses a lone surrogate
    escape (``"\\ud800"``: valid JSON, and what a JavaScript client's ``JSON.stringify`` writes
    for a lone surrogate). The transport then drops the line, and its request is never answered:
    the client waits until it times out. Read by Python's parser instead, the request reaches its
    tool, whose check refuses the string in one line like any other bad argument. A line that is
    no JSON at all stays the transport's error."""

    def __init__(self, inner: Any):
        self._inner = inner

    async def receive(self) -> Any:
        return _reread(await self._inner.receive())

    async def __anext__(self) -> Any:
        return _reread(await self._inner.__anext__())

    def __aiter__(self) -> Reread:
        return self

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> Reread:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> bool | None:
        return await self._inner.__aexit__(*exc)

    def __getattr__(self, name: str) -> Any:  # last_context and whatever else the runner asks the stream for
        return getattr(self._inner, name)


def _reread(item: Any) -> Any:
    """A message the SDK's parser refused as invalid JSON, parsed by Python's; anything else as it came."""
    if not isinstance(item, ValidationError):
        return item
    first = item.errors()[0]
    if first["type"] != "json_invalid" or not isinstance(first.get("input"), str):
        return item
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_python(json.loads(first["input"]), by_name=False))
    except ValueError:  # not JSON to Python either, or not a JSON-RPC message (ValidationError is a ValueError)
        return item


class StaticToken:
    """A ``TokenVerifier`` for one shared secret: the operator hands it to each client.

    Compared in constant time, so a timing attack learns nothing of it. Enough for one person's or
    one team's server; a deployment with accounts puts an OAuth authorization server in front
    (the SDK's ``TokenVerifier`` is the place to plug one in)."""

    def __init__(self, token: str):
        self._token = token.encode("utf-8", "surrogatepass")

    async def verify_token(self, token: str) -> AccessToken | None:
        if hmac.compare_digest(token.encode("utf-8", "surrogatepass"), self._token):
            return AccessToken(token=token, client_id="graphmem-token", scopes=[])
        return None


def url(host: str, port: int) -> str:
    """The MCP endpoint's URL (an IPv6 host in brackets)."""
    return f"http://{_bracketed(host)}:{port}/mcp"


def serve_http(memory: Memory, listening: socket.socket, host: str, port: int, token: str | None = None,
               user: str | None = None) -> None:
    """Serve any number of clients over streamable HTTP at :func:`url` until interrupted, on the
    socket :func:`listen` bound to ``host`` and ``port``.

    Answers are plain JSON bodies (no event stream: no tool streams anything back). On a loopback
    socket, however its host was spelt, requests whose Host or Origin header names another site are
    refused (421, 403: DNS rebinding), by :func:`rebinding_guard`."""
    server = build(memory, user)
    auth: dict[str, Any] = {}
    if token:
        # issuer_url is required by AuthSettings and published only with resource_server_url, which stays unset:
        # this server is its own issuer (the operator hands the token out), and advertises no OAuth discovery.
        auth = {"auth": AuthSettings(issuer_url=AnyHttpUrl(url(host, port).removesuffix("/mcp")),
                                          resource_server_url=None),
                "token_verifier": StaticToken(token)}
    guard = rebinding_guard(listening, host)
    app = server.streamable_http_app(host=host, json_response=True, transport_security=guard, **auth)
    _route(app, "/mcp", lambda inner: RequestIds(inner, guard))
    uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=5)).run(sockets=[listening])


def _route(app: Starlette, path: str, wrap: Callable[[ASGIApp], ASGIApp]) -> None:
    """The endpoint at ``path`` wrapped by ``wrap``, inside the SDK's bearer check (a request without the
    token is still a 401 before its body is read)."""
    for route in app.router.routes:
        if isinstance(route, Route) and route.path == path:
            if isinstance(route.app, RequireAuthMiddleware):
                route.app.app = wrap(route.app.app)
            else:
                route.app = wrap(route.app)
            return
    raise AssertionError(f"the SDK's app has no route {path}")  # pragma: no cover - an SDK that moved its endpoint


class RequestIds:
    """A POSTed JSON-RPC request whose ``id`` is not a string or an integer answered with a JSON-RPC
    error (-32600, HTTP 400), before the SDK sees it.

    Why: the SDK's message types read ``{"id": {...}, "method": "tools/list"}`` as a *notification*
    (a message without an id), which is never answered: the client got 202 and waited for an
    answer that never came. JSON-RPC answers a request whose id cannot be read with ``"id": null``.
    The Host and Origin checks run first, as the SDK's transport would run them; a body over the
    SDK's size limit is passed on unread, for the SDK to refuse."""

    def __init__(self, app: ASGIApp, guard: TransportSecuritySettings):
        self.app, self.guard = app, TransportSecurityMiddleware(guard)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        refused = await self.guard.validate_request(Request(scope, receive), is_post=True)
        if refused is not None:
            await refused(scope, receive, send)
            return
        read: list[Message] = []
        size, more = 0, True
        while more and size <= DEFAULT_MAX_REQUEST_BODY_SIZE:
            message = await receive()
            read.append(message)
            size += len(message.get("body", b""))
            more = message["type"] == "http.request" and message.get("more_body", False)
        problem = None if more else bad_id(b"".join(m.get("body", b"") for m in read))
        if problem is not None:
            await JSONResponse({"jsonrpc": "2.0", "id": None, "error": {
                "code": types.INVALID_REQUEST, "message": f"Invalid Request: {problem}"}}, status_code=400)(
                scope, receive, send)
            return

        async def replay() -> Message:
            return read.pop(0) if read else await receive()

        await self.app(scope, replay, send)


def bad_id(body: bytes) -> str | None:
    """What is wrong with a JSON-RPC request's id (a string or an integer: what the SDK takes), or None.
    Only a request (an object with ``method`` and ``id``) is judged; anything else is the SDK's to read."""
    try:
        message = json.loads(body)
    except ValueError:
        return None
    if not isinstance(message, dict) or "method" not in message or "id" not in message:
        return None
    given = message["id"]
    if isinstance(given, str) or (isinstance(given, int) and not isinstance(given, bool)):
        return None
    kind = {dict: "an object", list: "an array", float: "a fraction", bool: "a boolean", type(None): "null"}
    return f"id must be a string or an integer, not {kind.get(type(given), type(given).__name__)}"


def loopback(listening: socket.socket) -> bool:
    """Whether the socket is bound to this machine's loopback only: decided on the address bound, not on
    how the host was spelt (``127.1``, ``127.0.0.2``, ``::ffff:127.0.0.1``, ``localhost`` are all loopback).

    Why the socket: the SDK's own check compares the host's spelling with three names, so another
    spelling of a loopback address went unguarded; the address the OS bound has one spelling."""
    address = ipaddress.ip_address(listening.getsockname()[0].split("%")[0])
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def rebinding_guard(listening: socket.socket, host: str) -> TransportSecuritySettings:
    """The SDK's Host and Origin allow-list for a loopback socket: the usual loopback names plus the host
    as given and as bound, each on any port. Not on another address: its Host header may be any of the
    machine's names, so there the token is the guard (the command warns when none is set)."""
    if not loopback(listening):
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    names = {"127.0.0.1", "localhost", "[::1]", _bracketed(host), _bracketed(listening.getsockname()[0])}
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=sorted({pattern for name in names for pattern in (name, f"{name}:*")}),
        allowed_origins=sorted({pattern for name in names for pattern in (f"http://{name}", f"http://{name}:*")}))


def _bracketed(host: str) -> str:
    """A host as a Host header writes it (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host else host


def listen(host: str, port: int) -> socket.socket:
    """The server's socket, bound before anything is served (or printed), so that a port in use or a
    host that is not this machine's is graphmem's one line (uvicorn would log it its own way and exit 3)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError as exc:
        held = "; another server holds it: choose another port" if exc.errno == errno.EADDRINUSE else ""
        raise MisuseError(f"cannot listen on {url(host, port)}: {exc.strerror or exc}{held}") from None
    return sock
