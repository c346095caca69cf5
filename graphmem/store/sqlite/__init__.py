"""The memory in one SQLite file: the store (:mod:`~graphmem.store.sqlite.store`), the file it keeps
(:mod:`~graphmem.store.sqlite.file`), its rows and checksums (:mod:`~graphmem.store.sqlite.schema`), the index
saved at close (:mod:`~graphmem.store.sqlite.snapshot`), and salvage (:mod:`~graphmem.store.sqlite.repair`,
:mod:`~graphmem.store.sqlite.pages`)."""
