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
import json
import logging
import socket
from importlib.metadata import PackageNotFoundError, version
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
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from graphmem.errors import GraphmemError, MisuseError
from graphmem.server.schemas import TOOLS
from graphmem.server.tools import Tools

if TYPE_CHECKING:
    from graphmem.memory.api import Memory

__all__ = ["Reread", "StaticToken", "build", "listen", "serve_http", "serve_stdio", "url"]

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


def build(memory: Memory) -> Server[Any]:
    """A low-level MCP server whose tools run on ``memory`` (which the caller opens and closes)."""
    tools = Tools(memory)
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

    return Server("graphmem", version=VERSION, title="graphmem memory", instructions=INSTRUCTIONS,
                  on_list_tools=list_tools, on_call_tool=call_tool)


def failed(message: str) -> types.CallToolResult:
    """A tool error: the one line a model reads to correct its call."""
    return types.CallToolResult(content=[types.TextContent(text=message)], is_error=True)


def serve_stdio(memory: Memory) -> None:
    """Serve one client over this process's stdin and stdout until it closes them."""
    server = build(memory)

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
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/mcp"


def serve_http(memory: Memory, listening: socket.socket, host: str, port: int, token: str | None = None) -> None:
    """Serve any number of clients over streamable HTTP at :func:`url` until interrupted, on the
    socket :func:`listen` bound to ``host`` and ``port``.

    Answers are plain JSON bodies (no event stream: no tool streams anything back). On a loopback
    host the SDK refuses requests whose Host or Origin header names another site (DNS rebinding)."""
    server = build(memory)
    auth: dict[str, Any] = {}
    if token:
        # issuer_url is required by AuthSettings and published only with resource_server_url, which stays unset:
        # this server is its own issuer (the operator hands the token out), and advertises no OAuth discovery.
        auth = {"auth": AuthSettings(issuer_url=url(host, port).removesuffix("/mcp"), resource_server_url=None),
                "token_verifier": StaticToken(token)}
    app = server.streamable_http_app(host=host, json_response=True, **auth)
    uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=5)).run(sockets=[listening])


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
