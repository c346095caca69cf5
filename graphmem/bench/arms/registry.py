"""Every arm by name, and the named sets of arms the bench runs.

An arm is named by its base name, optionally followed by ``+set`` (read with Gather instead
of Reply: the same retrieval, another reader). The registry maps a base name to a factory
over a :class:`~graphmem.bench.arms.base.Context` and whether the arm needs the conversation's
claims and graph, so the bench reads claims only when some arm asks for them.
"""

from __future__ import annotations

from collections.abc import Callable

from graphmem.bench.arms import path, scope
from graphmem.bench.arms.base import Arm, Context
from graphmem.bench.arms.dense import DenseArm, FusedArm
from graphmem.bench.arms.lexical import VectorArm
from graphmem.bench.arms.oracle import OracleArm
from graphmem.errors import GraphmemError

READ_SUFFIX = "+set"
"""An arm name ending in this is read with Gather instead of Reply."""

ARMS: dict[str, tuple[Callable[[Context], Arm], bool]] = {
    "vector": (VectorArm, False),
    "oracle": (OracleArm, False),
    "dense": (DenseArm, False),
    "fused": (FusedArm, False),
    **scope.ARMS,
    **path.ARMS,
}
"""Base arm name -> (factory over a Context, whether it needs claims and graphs)."""

ARM_SETS: dict[str, list[str]] = {
    "default": ["graph", "graph+edge", "oracle", "vector"],
    "factor": ["graph", "scoped", "span", "vector"],
    "walk": ["graph", "oracle", "oracle+set", "path", "path+set", "vector", "vector+set"],
    "hops": ["graph+set", "path+set", "path2+set", "path3+set", "walk2+set", "walk3+set"],
    # the same evidence read two ways (Reply, then Gather), from perfect retrieval down; the
    # specification's last column here, a model reader, has no offline counterpart
    "read": ["oracle", "oracle+set", "graph", "graph+set", "path", "path+set", "vector", "vector+set"],
}


def parse_arms(spec: str) -> list[str]:
    """A named set (``default``, ``walk``, ...) or a comma list of arm names."""
    if spec in ARM_SETS:
        wanted = list(ARM_SETS[spec])
    else:
        wanted = [a.strip() for a in spec.split(",") if a.strip()]
    for arm in wanted:
        if base(arm) not in ARMS:
            raise GraphmemError(f"unknown arm {arm!r}: choose from {', '.join(sorted(ARMS))} (optionally +set), or a set: {', '.join(ARM_SETS)}")
    if not wanted:
        raise GraphmemError("no arms to run")
    return wanted


def base(arm: str) -> str:
    """The registry's name for an arm: its name without ``+set``."""
    return arm[: -len(READ_SUFFIX)] if arm.endswith(READ_SUFFIX) else arm
