"""Random states and random move strings (hypothesis) against the library's own answers and
an independent replay written here."""

import random

import pytest
from hypothesis import given, settings, strategies as st

import npuzzle

BOARDS = {"2x2": (2, 2), "2x3": (2, 3), "3x2": (3, 2), "3x3": (3, 3), "4x2": (4, 2)}
STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


def replay(tiles, width, moves):
    """The state after `moves` (the blank's directions), or None at the first illegal move."""
    cells = list(tiles)
    height = len(cells) // width
    blank = cells.index(0)
    for move in moves:
        dr, dc = STEP[move]
        r, c = divmod(blank, width)
        r, c = r + dr, c + dc
        if not (0 <= r < height and 0 <= c < width):
            return None
        target = r * width + c
        cells[blank], cells[target] = cells[target], cells[blank]
        blank = target
    return tuple(cells)


def goal_of(cells):
    return tuple(range(1, cells)) + (0,)


boards = st.sampled_from(sorted(BOARDS))


@st.composite
def board_and_state(draw):
    board = draw(boards)
    width, height = BOARDS[board]
    tiles = draw(st.permutations(range(width * height)))
    return board, width, tuple(tiles)


@settings(max_examples=300, deadline=None)
@given(board_and_state())
def test_random_states_distance_solve_and_verify_agree(case):
    board, width, tiles = case
    goal = goal_of(len(tiles))
    solvable = npuzzle.is_solvable(tiles, board=board)
    if not solvable:
        with pytest.raises(npuzzle.UnsolvableError):
            npuzzle.distance(tiles, board=board)
        assert npuzzle.verify(tiles, None, None, board=board).name == "correct-unsolvable"
        return
    d = npuzzle.distance(tiles, board=board)
    solution = npuzzle.solve(tiles, board=board)
    assert len(solution.moves) == d
    assert replay(tiles, width, solution.moves) == goal
    assert [npuzzle.tiles(s, board=board) for s in solution.states][0] == tiles
    assert npuzzle.tiles(solution.states[-1], board=board) == goal
    verdict = npuzzle.verify(tiles, None, solution.moves, board=board)
    assert (verdict.name, verdict.exact) == ("optimal", d)


@settings(max_examples=300, deadline=None)
@given(boards, st.text(alphabet="UDLR", max_size=40))
def test_random_move_strings_are_judged_as_an_independent_replay_says(board, moves):
    width, height = BOARDS[board]
    goal = goal_of(width * height)
    # Scramble from the goal with a seeded walk, then judge `moves` from there.
    rng = random.Random(len(moves) * 7919 + width)
    start = goal
    for _ in range(30):
        legal = [m for m in "UDLR" if replay(start, width, m) is not None]
        start = replay(start, width, rng.choice(legal))
    exact = npuzzle.distance(start, board=board)
    end = replay(start, width, moves)
    verdict = npuzzle.verify(start, None, moves, board=board)
    if end is None:
        assert verdict.name == "illegal-move"
        assert replay(start, width, moves[: verdict.step - 1]) is not None
        assert replay(start, width, moves[: verdict.step]) is None
    elif end != goal:
        assert verdict.name == "wrong-end"
    elif len(moves) == exact:
        assert verdict.name == "optimal" and verdict.passed
    else:
        assert (verdict.name, verdict.by) == ("suboptimal", len(moves) - exact)
    # A legal walk from the goal never ends farther than its length.
    walked = replay(goal, width, moves)
    if walked is not None:
        assert npuzzle.distance(walked, board=board) <= len(moves)
        assert npuzzle.distance(walked, board=board) % 2 == len(moves) % 2


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_text_never_crashes(text):
    try:
        npuzzle.distance(text)
    except (ValueError, npuzzle.UnsolvableError):
        pass


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(min_value=-3, max_value=300), max_size=30), st.sampled_from([None, "3x3", "4x3", "2x2"]))
def test_arbitrary_int_lists_never_crash(tiles, board):
    try:
        npuzzle.distance(tiles, board=board, max_nodes=10_000)
    except (ValueError, npuzzle.UnsolvableError, npuzzle.LimitReached):
        pass


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_arbitrary_move_text_is_a_verdict_never_an_exception(moves):
    verdict = npuzzle.verify("123456708", None, moves)
    assert verdict.name in ("optimal", "suboptimal", "illegal-move", "wrong-end", "malformed")
