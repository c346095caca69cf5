"""The package's own error type: every failure a user can cause ends up as one of these."""


class GraphmemError(Exception):
    """A problem with input, configuration or a server, stated in one line for the user.

    The CLI turns it into a ``click.ClickException``; library callers can catch it
    without catching programming errors too.
    """


class DataError(GraphmemError):
    """Input data is malformed: the message names the file and the place in it."""


class Neo4jUnavailable(GraphmemError):
    """Neo4j cannot be reached or refuses us: the message names the URI and what to do."""


class ModelUnavailable(GraphmemError):
    """A chat-model endpoint cannot be reached or answers nonsense: the message names its URL
    (never the key), so a user sees which endpoint to start or fix."""
