"""The package's own error types, one per kind of failure a caller can tell apart.

A caller that catches :class:`GraphmemError` catches every failure a user can cause and no
programming error. Below it, the kinds say what to do about it: mend the input
(:class:`DataError`), mend the calling code (:class:`MisuseError`), or start or free the store
(:class:`StoreUnavailable`). Every message is one line; the CLI prints it as a
``click.ClickException``.
"""


class GraphmemError(Exception):
    """A problem with input, configuration or a server, stated in one line for the user.

    The CLI turns it into a ``click.ClickException``; library callers can catch it
    without catching programming errors too.
    """


class DataError(GraphmemError):
    """Input data is malformed: the message names the file (or record) and the place in it."""


class MisuseError(GraphmemError):
    """The memory was used in a way it does not support: a closed memory, an unknown option, a
    combination of settings no store serves. Nothing about the data is wrong."""


class StoreUnavailable(GraphmemError):
    """The store cannot be used now: a server is down, or a file is held by another process.
    The message names the address or file and how to free or start it."""


class Neo4jUnavailable(StoreUnavailable):
    """Neo4j cannot be reached or refuses us: the message names the URI and what to do."""


class MemoryFileInUse(StoreUnavailable):
    """Another process (or another open memory here) is writing the memory file."""


class ModelUnavailable(GraphmemError):
    """A chat-model endpoint cannot be reached or answers nonsense: the message names its URL
    (never the key), so a user sees which endpoint to start or fix."""


def install(extra: str) -> str:
    """How to install an optional extra, said the two ways a user may have graphmem: from an index
    (``pip install 'graphmem[dense]'``) or as a checkout, where the README's commands run
    (``pip install -e '.[dense]'``). Every message naming an extra says it through here, so the
    messages and the README agree."""
    return f"pip install 'graphmem[{extra}]' (from a checkout: pip install -e '.[{extra}]')"
