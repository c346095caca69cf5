"""The memory as an MCP server: the same verbs as :class:`graphmem.memory.api.Memory`, as tools a model calls.

Why a layer of its own, above the memory: a server holds one memory open for as long as it runs
and turns every failure a caller can cause into a tool error the model reads, so it imports the
memory and never the reverse. :mod:`graphmem.server.schemas` says what each tool takes and
returns (the contract a model reads), :mod:`graphmem.server.tools` checks a call against it and
runs it on the memory, and :mod:`graphmem.server.app` serves the tools over stdio or streamable
HTTP with the official MCP SDK (the extra ``mcp``).
"""
