"""A record's date: the ISO forms are read by ``datetime.fromisoformat`` exactly as the
``strptime`` formats read them, and what neither reads is refused with the place named."""

import random
from datetime import datetime

import pytest

from graphmem.data.records import parse_date
from graphmem.errors import DataError

_FORMATS = ("%Y-%m-%d", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M")  # and no "%Y-%m-%d %H:%M"


def _by_strptime(text: str) -> datetime | None:
    for fmt in _FORMATS:
        try:
            return datetime.strptime(text, fmt)
        except ValueError:
            continue
    return None


def test_iso_dates_read_as_strptime_reads_them():
    rng = random.Random(3)
    for _ in range(3000):  # valid and invalid fields alike: days 0-32, hours 0-25, seconds 0-61
        y, mo, d, h, mi, s = (rng.randint(1, 9999), rng.randint(0, 13), rng.randint(0, 32), rng.randint(0, 25),
                              rng.randint(0, 61), rng.randint(0, 61))
        for text in (f"{y:04d}-{mo:02d}-{d:02d}", f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}",
                     f"{y:04d}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}:{s:02d}", f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}",
                     f"{y:04d}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}"):  # the last refused, as it always was
            want = _by_strptime(text)
            if want is None:
                with pytest.raises(DataError, match=f"turn 7: cannot read the date '{text}'"):
                    parse_date(text, "turn 7")
            else:
                assert parse_date(text, "turn 7") == want, text


def test_a_zone_is_still_refused_and_a_fraction_read():
    assert parse_date("2023-05-08T13:56:00.5", "turn 1") == datetime(2023, 5, 8, 13, 56, 0, 500000)
    for text in ("2023-05-08T13:56:00+02:00", "2023-05-08T13:56:00.5+02:00", "2023-05-08T13:56.5", "20230508"):
        with pytest.raises(DataError, match="cannot read the date"):
            parse_date(text, "turn 1")
