"""bench6: graphmem measured on bench6, the bilingual (zh/en) retrieval benchmark over LoCoMo evidence turns.

100 LoCoMo questions, each asked in Chinese and in English, over a pool of 137 English
turns; a system ingests the pool once and returns pool ids best first for every query,
scored as bench6's METRICS.md says. One module per concern: the files and their checks
(:mod:`~graphmem.bench.bench6.files`), the scoring (:mod:`~graphmem.bench.bench6.scoring`), running a
system (:mod:`~graphmem.bench.bench6.run`), graphmem's adapter (:mod:`~graphmem.bench.bench6.adapter`)
and the report ``graphmem bench6`` prints (:mod:`~graphmem.bench.bench6.report`).
"""

from graphmem.bench.bench6.adapter import Adapter
from graphmem.bench.bench6.files import load_bench

__all__ = ["Adapter", "load_bench"]
