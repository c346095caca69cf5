"""Numpy arrays that grow an element at a time: what the live index keeps per term and per turn.

Why its own module: a memory fed one turn at a time appends to thousands of small arrays, and
a Python list per array would cost several times the bytes; these append in amortised O(1) and
are read as numpy views, so a query's arithmetic runs over them without a copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np

__all__ = ["Grow", "Weights"]

_G = TypeVar("_G", bound="Grow")


class Grow:
    """A numpy array appended to in amortised O(1), read as a view of its filled part."""

    def __init__(self, dtype: type, capacity: int = 4):
        self._data: np.ndarray = np.zeros(capacity, dtype=dtype)
        self.size = 0

    @classmethod
    def of(cls: type[_G], values: np.ndarray) -> _G:
        """A Grow holding ``values`` as they are, no copy (a view of a larger array is fine: the
        first append past its end moves it into an array of its own; the larger array then stays
        alive as long as any other view of it, about 16 bytes a restored posting at most)."""
        grown = cls.__new__(cls)
        grown._data, grown.size = values, len(values)
        return grown

    def append(self, value: float | int) -> int:
        if self.size == len(self._data):
            self._grow(self.size + 1)
        self._data[self.size] = value
        self.size += 1
        return self.size - 1

    def extend(self, values: Sequence[float | int] | np.ndarray) -> None:
        need = self.size + len(values)
        if need > len(self._data):
            self._grow(need)
        self._data[self.size:need] = values
        self.size = need

    def _grow(self, need: int) -> None:
        # by half again, not double: still amortised O(1), and a memory's arrays hold about a
        # sixth unused rather than a quarter (most of a large memory is these arrays)
        data = np.zeros(max(need, len(self._data) + len(self._data) // 2 + 4), dtype=self._data.dtype)
        data[: self.size] = self._data[: self.size]
        self._data = data

    def view(self) -> np.ndarray:
        return self._data[: self.size]

    def __setitem__(self, i: int, value: float | int) -> None:
        self._data[i] = value

    def __getitem__(self, i: int) -> np.generic:
        """Element i, a numpy scalar of the array's type."""
        return self._data[i]


class Weights(Grow):
    """Term frequencies as float32 while every one is exactly a float32 (sums of halves and
    wholes, the default fields' weights, are), widened to float64 for good at the first that is
    not: half the bytes, the same values. Read them as float64 (:meth:`Postings.group` does)."""

    def __init__(self, capacity: int = 4):
        super().__init__(np.float32, capacity)

    def _fits(self, values: float | Sequence[float] | np.ndarray) -> bool:
        if self._data.dtype != np.float32 or isinstance(values, np.ndarray) and values.dtype == np.float32:
            return True
        if type(values) is float:  # one term frequency written (a forget, a reply moved): no array made to ask
            return float(np.float32(values)) == values
        wide = np.asarray(values, dtype=np.float64)
        return bool(np.array_equal(wide.astype(np.float32), wide))

    def _widen(self) -> None:
        self._data = self._data.astype(np.float64)

    def append(self, value: float | int) -> int:
        if not self._fits(value):
            self._widen()
        return super().append(value)

    def extend(self, values: Sequence[float | int] | np.ndarray) -> None:
        if not self._fits(values):
            self._widen()
        super().extend(values)

    def __setitem__(self, i: int, value: float | int) -> None:
        if not self._fits(value):
            self._widen()
        super().__setitem__(i, value)
