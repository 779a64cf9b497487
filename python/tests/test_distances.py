"""npuzzle.distances: the vectorised question over a NumPy array."""

import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import npuzzle

# The boards with tables that the random arrays are drawn on: (width, height).
BOARDS = {"2x2": (2, 2), "2x3": (2, 3), "3x2": (3, 2), "3x3": (3, 3), "4x2": (4, 2)}


def sampled(count, seed, unsolvable=0, board=None):
    drawn = npuzzle.sample(count=count, seed=seed, unsolvable=unsolvable, board=board)
    states = np.array([npuzzle.tiles(i.start, board=board) for i in drawn], dtype=np.uint8)
    return drawn, states


def test_distances_equal_the_sampled_distances_and_the_loop():
    drawn, states = sampled(2000, seed=5, unsolvable=100)
    result = npuzzle.distances(states)
    assert result.dtype == np.uint8 and result.shape == (2000,)
    expected = [i.distance if i.solvable else npuzzle.UNSOLVABLE for i in drawn]
    assert result.tolist() == expected
    assert result[:50].tolist() == [
        npuzzle.distance(s) if npuzzle.is_solvable(s) else 255 for s in states[:50].tolist()
    ]


def test_other_goals_and_boards():
    goal = "876543210"
    drawn = npuzzle.sample(count=300, seed=6, goal=goal)
    states = np.array([npuzzle.tiles(i.start) for i in drawn], dtype=np.uint8)
    assert npuzzle.distances(states, goal).tolist() == [i.distance for i in drawn]
    drawn, states = sampled(200, seed=7, board="4x2")
    assert npuzzle.distances(states, board="4x2").tolist() == [i.distance for i in drawn]
    # 2x2 has 12 states: asked for 20, the sample draws each once and says so.
    with pytest.warns(RuntimeWarning, match="only 12 states"):
        drawn, states = sampled(20, seed=7, board="2x2")
    assert len(drawn) == 12
    assert npuzzle.distances(states).tolist() == [i.distance for i in drawn]


def test_input_forms():
    rows = [[1, 2, 3, 4, 5, 6, 7, 0, 8], [1, 2, 3, 4, 5, 6, 7, 8, 0]]
    assert npuzzle.distances(rows).tolist() == [1, 0]
    assert npuzzle.distances(np.array(rows, dtype=np.int64)).tolist() == [1, 0]
    fortran = np.asfortranarray(np.array(rows, dtype=np.uint8))
    assert npuzzle.distances(fortran).tolist() == [1, 0]
    strided = np.array(rows * 2, dtype=np.uint8)[::2]
    assert npuzzle.distances(strided).tolist() == [1, 1]
    assert npuzzle.distances(np.zeros((0, 9), dtype=np.uint8)).tolist() == []
    # Boards without a table are searched, within the limit.
    fifteen = np.array([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15]], dtype=np.uint8)
    assert npuzzle.distances(fifteen).tolist() == [1]


def test_bad_arrays_raise_never_crash():
    with pytest.raises(TypeError):
        npuzzle.distances(np.zeros(9, dtype=np.uint8))
    with pytest.raises(TypeError):
        npuzzle.distances(np.zeros((2, 9, 1), dtype=np.uint8))
    with pytest.raises(TypeError):
        npuzzle.distances(np.zeros((2, 9), dtype=np.float64))
    with pytest.raises(ValueError, match="not a tile number"):
        npuzzle.distances(np.full((2, 9), 300))
    with pytest.raises(ValueError, match="square"):
        npuzzle.distances(np.zeros((2, 12), dtype=np.uint8))
    with pytest.raises(ValueError, match="columns"):
        npuzzle.distances(np.zeros((2, 9), dtype=np.uint8), board="4x3")
    with pytest.raises(ValueError, match="columns"):
        npuzzle.distances(np.zeros((2, 30), dtype=np.uint8))
    good = [1, 2, 3, 4, 5, 6, 7, 8, 0]
    with pytest.raises(ValueError, match="row 2: invalid state `123456788`"):
        npuzzle.distances(np.array([good, good, good[:-1] + [8], [9] * 9], dtype=np.uint8))
    with pytest.raises(TypeError):
        npuzzle._distances([[1, 2]])
    with pytest.raises(npuzzle.LimitReached, match="row 0"):
        npuzzle.distances(
            np.array([[14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3]], dtype=np.uint8),
            "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15",
            max_nodes=1000,
        )


def test_random_bytes_never_crash():
    rng = np.random.default_rng(11)
    for cells in (4, 9, 16):
        junk = rng.integers(0, 256, size=(50, cells), dtype=np.uint8)
        with pytest.raises(ValueError):
            npuzzle.distances(junk, max_nodes=1000)
        perms = np.array([rng.permutation(cells) for _ in range(50)], dtype=np.uint8)
        if cells == 16:
            continue  # random 15-puzzle states take seconds each
        result = npuzzle.distances(perms)
        solvable = [npuzzle.is_solvable(p) for p in perms.tolist()]
        assert [(r != 255) for r in result.tolist()] == solvable


def one_by_one(rows, goal=None, board=None):
    """`distance` asked row by row, in the encoding of `distances`."""
    return [
        npuzzle.distance(r, goal, board=board) if npuzzle.is_solvable(r, goal, board=board)
        else npuzzle.UNSOLVABLE
        for r in rows
    ]


def permutations(rng, count, cells):
    return rng.permuted(np.tile(np.arange(cells, dtype=np.uint8), (count, 1)), axis=1)


@st.composite
def arrays_and_goals(draw):
    """A board with a table, a goal (often not the default one) and an array of rows on it:
    mostly permutations of both parity classes, now and then a row that is not a state."""
    board, (width, height) = draw(st.sampled_from(sorted(BOARDS.items())))
    cells = width * height
    count = draw(st.integers(0, 60))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    array = permutations(rng, count, cells)
    goal = None
    if draw(st.booleans()):
        goal = [int(t) for t in rng.permutation(cells)]
    bad_rows = draw(st.lists(st.integers(0, max(count - 1, 0)), max_size=3)) if count else []
    for row in bad_rows:
        kind = draw(st.sampled_from(["repeat", "range", "zeros"]))
        if kind == "repeat":
            array[row, 0] = array[row, 1]
        elif kind == "range":
            array[row, draw(st.integers(0, cells - 1))] = draw(st.integers(cells, 255))
        else:
            array[row] = 0
    return board, goal, array, sorted(bad_rows)


def reason(error):
    """What an error says is wrong with a state, without the text it quotes or the columns
    (`distances` quotes a row as `123456788`, `distance` a sequence as `1 2 3 ...`)."""
    quoted = re.match(r"^.*?invalid \w+ `[^`]*`(?: \(tiles given as a sequence\))?: (.*)$", str(error))
    assert quoted, str(error)
    return re.sub(r"column \d+", "column N", quoted.group(1))


@settings(max_examples=150, deadline=None)
@given(arrays_and_goals())
def test_distances_agree_with_distance_row_by_row(case):
    board, goal, array, bad_rows = case
    if not bad_rows:
        expected = one_by_one(array.tolist(), goal, board)
        assert npuzzle.distances(array, goal, board=board).tolist() == expected
        return
    first = bad_rows[0]
    with pytest.raises(ValueError, match=f"^row {first}: invalid state `") as raised:
        npuzzle.distances(array, goal, board=board)
    with pytest.raises(ValueError) as alone:
        npuzzle.distance(array[first].tolist(), goal, board=board)
    # A tile of two digits breaks the compact form `distances` quotes: the reasons differ then.
    if array[first].max() < 10:
        assert reason(raised.value) == reason(alone.value)


def test_many_rows_through_the_deep_checked_table_agree_with_distance():
    # Above the library's DEEP_CHECK_ROWS (100,000): the table is checked once, then each row
    # reads one entry; a goal other than the default relabels every row.
    rng = np.random.default_rng(2024)
    array = permutations(rng, 150_000, 9)
    rows = array.tolist()
    for goal in (None, "876543210", "1 2 3 / 4 0 5 / 6 7 8"):
        result = npuzzle.distances(array, goal)
        solvable = [npuzzle.is_solvable(r, goal) for r in rows]
        assert (result != npuzzle.UNSOLVABLE).tolist() == solvable
        sample = rng.choice(len(rows), 3_000, replace=False)
        assert result[sample].tolist() == one_by_one(array[sample].tolist(), goal)
