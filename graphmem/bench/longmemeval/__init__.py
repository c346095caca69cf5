"""LongMemEval (Wu et al., ICLR 2025), graphmem's second benchmark: user-assistant chat.

Each question brings its own haystack of dated sessions; ``graphmem longmemeval`` ingests every
haystack into a fresh :class:`graphmem.memory.api.Memory`, searches and asks its question, and
scores retrieval (turn and session level, all turns and LongMemEval's user-turn view) beside a
BM25 baseline computed in the same run, and the answers (abstention, confidence AUC, token F1).
It sits at the bench layer: it uses the memory, and nothing below imports it.
"""
