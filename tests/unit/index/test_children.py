"""Children keeps a turn's replies as the dict of lists it replaced did: same members, same order."""

import pytest

from graphmem.index.children import Children


def test_replies_come_back_in_the_order_added_whatever_is_removed():
    kids = Children()
    for j, i in [(0, 1), (0, 2), (3, 4), (0, 5)]:
        kids.add(j, i)
    assert kids.get(0) == [1, 2, 5] and kids.get(3) == [4] and kids.get(1) == [] and kids.get(99) == []
    kids.remove(0, 1)  # the first goes: the next becomes first
    assert kids.get(0) == [2, 5]
    kids.remove(0, 5)
    kids.remove(3, 4)
    assert kids.get(0) == [2] and kids.get(3) == []
    assert list(kids.items()) == [(0, [2])]
    kids.add(0, 7)
    assert kids.get(0) == [2, 7]


def test_removing_a_reply_that_is_not_there_says_so():
    kids = Children()
    kids.add(2, 3)
    with pytest.raises(ValueError):
        kids.remove(2, 4)
    with pytest.raises(ValueError):
        kids.remove(5, 6)


def test_a_restore_holds_what_adding_one_turn_at_a_time_holds():
    replied = [None, 0, 0, None, 3, 1, 0, None]
    one, bulk = Children(), Children()
    for i, j in enumerate(replied):
        if j is not None:
            one.add(j, i)
    bulk.restore(replied)
    assert list(bulk.items()) == list(one.items()) == [(0, [1, 2, 6]), (1, [5]), (3, [4])]
