"""Every input form of a state gives the same answer, and the same error, as the text form:
lists, tuples and NumPy arrays take a fast path (bytes and a bit mask) and everything else
the parser, and the two must never disagree."""

import collections

import pytest

import npuzzle


def _forms(tiles, width):
    rows = [tiles[i:i + width] for i in range(0, len(tiles), width)]
    yield list(tiles)
    yield tuple(tiles)
    yield [list(r) for r in rows]
    yield tuple(tuple(r) for r in rows)
    yield collections.deque(tiles)  # the general path: not a list or tuple
    try:
        import numpy as np
    except ImportError:
        return
    for dtype in (np.uint8, np.int64, np.int32, np.uint16):
        yield np.array(tiles, dtype=dtype)
        yield np.array(rows, dtype=dtype)
    yield np.array(tiles, dtype=np.int64)[::-1][::-1]  # a strided view


def test_every_form_answers_as_the_string_does():
    for instance in npuzzle.sample(count=200, seed=5):
        want = npuzzle.distance(instance.start)
        tiles = list(npuzzle.tiles(instance.start))
        for form in _forms(tiles, 3):
            assert npuzzle.distance(form) == want, (form, instance.start)


def test_other_boards_take_the_board_from_rows_or_the_keyword():
    # 3x2 (width 3, two rows): no square board has six cells.
    start = [1, 2, 3, 4, 0, 5]
    for form in _forms(start, 3):
        if isinstance(form, (list, tuple, collections.deque)) and not isinstance(form[0], (list, tuple)) \
                or getattr(form, "ndim", 2) == 1:
            assert npuzzle.distance(form, board="3x2") == 1
        else:
            assert npuzzle.distance(form) == 1


@pytest.mark.parametrize(
    "bad",
    [
        [1, 2, 3, 4, 5, 6, 7, 8, 8],
        [1, 2, 3, 4, 5, 6, 7, 8, 9],
        [1, 2, 3, 4, 5, 6, 7, 8],
        [[1, 2, 3], [4, 5, 6], [7, 8]],
        [1, 2, 3, 4, 5, 6, 7, 8, 300],
        [1, 2, 3, 4, 5, 6, 7, 8, -1],
        [1, 2, 3, 4, 5, 6, 7, 0, True],
    ],
)
def test_a_bad_list_fails_as_the_general_path_does(bad):
    with pytest.raises(Exception) as fast:
        npuzzle.distance(bad)
    general = collections.deque(bad) if not isinstance(bad[0], list) else tuple(collections.deque(r) for r in bad)
    with pytest.raises(Exception) as slow:
        npuzzle.distance(general)
    assert type(fast.value) is type(slow.value)
    assert str(fast.value) == str(slow.value)


def test_a_bad_numpy_row_fails_with_the_parser_s_message():
    np = pytest.importorskip("numpy")
    with pytest.raises(ValueError, match="repeated"):
        npuzzle.distance(np.array([1, 2, 3, 4, 5, 6, 7, 8, 8], dtype=np.uint8))
    with pytest.raises(ValueError):
        npuzzle.distance(np.array([1, 2, 3, 4, 5, 6, 7, 8, 300]))
