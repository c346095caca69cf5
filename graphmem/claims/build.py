"""A conversation's claims and its graph, built once in one place.

The bench, ``graphmem load`` and the Neo4j mirror check all come through here, so Neo4j holds
exactly what the bench measured, and neither the store nor the bench owns the reading of claims.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import networkx as nx

from graphmem.claims import graph
from graphmem.claims.extract import extract
from graphmem.claims.records import Reading
from graphmem.domain import Conversation


@dataclass
class Built:
    """What building one conversation produced: its reading, its graph, and the graph's report."""

    reading: Reading
    graph: nx.MultiDiGraph
    derived: Any
    census: Any


def extract_claims(conv: Conversation) -> Reading:
    """Every claim of a conversation, extracted by the rules."""
    return extract(conv)


def build_graph(conv: Conversation, reading: Reading, blind: bool = False) -> Built:
    """The graph of a reading, reasoned over; with ``blind``, emptied after (the control)."""
    g = graph.build(reading)
    derived = graph.reason(g)
    census = graph.census(conv, reading, g)
    if blind:
        graph.empty(g)
    return Built(reading, g, derived, census)


def mirror(conv: Conversation) -> tuple[Reading, nx.MultiDiGraph]:
    """The reading and the networkx mirror of a conversation, exactly as the bench builds them."""
    built = build_graph(conv, extract_claims(conv))
    return built.reading, built.graph
