"""The memory in RAM (:mod:`graphmem.store.ram.store`): a live index over each user's turns, nothing on disk."""
