"""Everything that measures graphmem, apart from the product it measures.

The product (the memory, its stores, the server, the memory's commands) imports nothing here; each
benchmark passes its settings in. One package a benchmark or a shared part of them: the research
memory (:mod:`~graphmem.bench.research`, a bulk index and the strategies a study swaps in), the LoCoMo
arms (:mod:`~graphmem.bench.arms`), the chat model as reader and judge (:mod:`~graphmem.bench.model`),
then the benchmarks themselves: LoCoMo (:mod:`~graphmem.bench.locomo`), bench6
(:mod:`~graphmem.bench.bench6`) and LongMemEval (:mod:`~graphmem.bench.longmemeval`).
``graphmem bench``, ``stats``, ``bench6`` and ``longmemeval`` (:mod:`graphmem.cli.bench`) run them.
"""
