"""A chat model in the benchmarks: the model reader (:mod:`~graphmem.bench.model.reader`), its client and
cache (:mod:`~graphmem.bench.model.client`, :mod:`~graphmem.bench.model.cache`), and the judge's prompt and
verdict (:mod:`~graphmem.bench.model.judging`). The product's replies never ask a model."""
