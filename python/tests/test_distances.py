"""npuzzle.distances: the vectorised question over a NumPy array."""

import numpy as np
import pytest

import npuzzle


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
    drawn, states = sampled(20, seed=7, board="2x2")
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
