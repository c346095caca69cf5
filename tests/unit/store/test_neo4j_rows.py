"""What the Neo4j memory writes of a turn, and how a search finds each document frequency: the
parts that need no server (tests/neo4j runs the rest against a real one)."""

from datetime import date, datetime

import numpy as np
import pytest

from graphmem.domain import Turn
from graphmem.errors import DataError
from graphmem.store.neo4j.rows import family_token, index_row, month_token, said_token, sentence_rows
from graphmem.store.neo4j.search import _frequencies
from graphmem.store.users import owner
from graphmem.index.live import LiveIndex
from graphmem.index.options import MemoryOptions
from graphmem.index.query import family_sets, variants
from graphmem.store.neo4j.queries import query


def _index(*texts: tuple[str, str]) -> LiveIndex:
    index = LiveIndex(MemoryOptions(), scope=False)
    index.add([Turn(f"t{i}", who, text, datetime(2023, 5, 8, 13, 56), "c") for i, (who, text) in enumerate(texts)])
    return index


def test_a_row_holds_the_live_index_fields_and_the_tokens_its_frequencies_need():
    index = _index(("Ann", "Thanks, Bob! I went hiking yesterday."), ("Bob", "Where did you go?"))
    first, reply = index_row(index, 0), index_row(index, 1)
    assert first["key"] == "t0" and first["fields"]["scope"] == f"c {owner(None)}"  # the conversation, the user
    assert first["fields"]["terms"].split() == index.indexed_terms(0)  # vocative out: no "bob"
    assert "bob" not in first["fields"]["terms"].split()
    assert reply["fields"]["context"].split() == index.said_terms[0]  # the turn it replies to
    assert first["fields"]["length"] == index.fields(0)[1]
    assert set(first["own"]) == set(index.indexed_terms(0))
    went = family_token(family_sets()["went"][0])
    assert went in first["bag"] and went in reply["bag"]  # "go" in its own field, "went" in its context
    assert said_token(date(2023, 5, 8)) in first["bag"] and month_token(2023, 5) in first["bag"]
    assert month_token(2023, 5) in first["bag"] and first["fields"]["span_lo"] == [date(2023, 5, 7).toordinal()]


def test_every_document_frequency_has_one_way_and_only_spans_are_counted():
    groups = [variants("going"), variants("dog"), ("sens", "achiev")]
    ranges = [(date(2023, 5, 8),) * 2, (date(2023, 5, 1), date(2023, 5, 31))]
    ways, counts = _frequencies(groups, ranges)
    assert ways[0] == [("df", family_token(frozenset(variants("going"))))]
    assert ways[1] == [("df", "dog")]
    assert ways[2] == [("count", 0)] and "terms:(sens achiev)" in counts[0]["lucene"]
    assert ways[3] == [("df", said_token(date(2023, 5, 8))), ("count", 1)] and counts[1]["spans_only"]
    assert ways[4] == [("df", month_token(2023, 5))]
    assert len(counts) == 2


def test_a_row_names_the_turn_it_replies_to_for_the_dense_side():
    index = _index(("Ann", "I went hiking yesterday."), ("Bob", "Where did you go?"))
    assert index_row(index, 0)["fields"]["replied"] is None
    assert index_row(index, 1)["fields"]["replied"] == "t0"


def test_a_search_in_two_files_is_one_statement_loaded_by_name():
    both = query("search_parts+search_lexical")
    assert both == query("search_parts") + "\n" + query("search_lexical")
    assert both.count("db.index.fulltext.queryNodes") == 2  # the counts' and the candidates'
    assert "db.index.vector.queryNodes" in query("search_parts+search_fused+search_bm25f+search_fuse+search_top")


def test_sentence_rows_embed_each_sentence_with_its_speaker():
    class Fake:  # the encoder's interface: a vector per piece
        def __init__(self, dims):
            self.dims, self.seen = dims, []

        def encode(self, pieces):
            self.seen += pieces
            return np.ones((len(pieces), self.dims), dtype=np.float32)

    enc = Fake(384)
    rows = sentence_rows([Turn("t0", "Ann", "I went hiking. It rained!", None, "c")], enc)
    assert [r["key"] for r in rows] == ["t0#s0", "t0#s1"] and {r["turn"] for r in rows} == {"t0"}
    assert enc.seen == ["Ann: I went hiking.", "Ann: It rained!"]
    with pytest.raises(DataError, match="384"):
        sentence_rows([Turn("t0", "Ann", "Hi.", None, "c")], Fake(12))
