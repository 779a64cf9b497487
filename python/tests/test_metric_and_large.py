"""Issue 28 from Python: the multi-tile metric on every question (`metric="mtm"`), boards beyond
5x5 (parse, solvability, scramblers, the constructive solver), and `solve(within=...)` with
the guarantee a solution carries.

The MTM answers are checked against a breadth-first search written here over the MTM move set
(independent of the library's generator), and against the single-tile answers (never above);
the scramblers and `within` against the command line."""

import collections
import json
import os
import pickle
import random
import subprocess

import pytest

import npuzzle

from test_api import cli_binary
from test_properties import STEP as MOVES, replay  # replay: None at an illegal move, never a goal

def runs(moves):
    """The MTM length of single-cell moves: their runs of equal letters."""
    return sum(1 for i, m in enumerate(moves) if i == 0 or moves[i - 1] != m)


def mtm_bfs(goal, width):
    """The MTM distance of every state reaching `goal`: breadth-first search where one move
    slides the blank any number of cells along its row or column."""
    height = len(goal) // width
    seen = {goal: 0}
    queue = collections.deque([goal])
    while queue:
        state = queue.popleft()
        d = seen[state]
        blank = state.index(0)
        for dr, dc in MOVES.values():
            tiles = list(state)
            r, c = divmod(blank, width)
            at = blank
            while 0 <= r + dr < height and 0 <= c + dc < width:
                r, c = r + dr, c + dc
                cell = r * width + c
                tiles[at], tiles[cell] = tiles[cell], tiles[at]
                at = cell
                nxt = tuple(tiles)
                if nxt not in seen:
                    seen[nxt] = d + 1
                    queue.append(nxt)
    return seen


def spell(tiles):
    return " ".join(map(str, tiles))


@pytest.mark.parametrize("board", ["3x2", "2x3", "4x2"])
def test_mtm_distances_equal_a_python_bfs_and_never_exceed_stm(board):
    import numpy as np

    width, height = map(int, board.split("x"))
    goal = tuple(list(range(1, width * height)) + [0])
    exact = mtm_bfs(goal, width)
    states = sorted(exact)
    if len(states) > 2000:
        states = random.Random(28).sample(states, 2000)
    rows = np.array(states, dtype=np.uint8)
    mtm = npuzzle.distances(rows, board=board, metric="mtm")
    stm = npuzzle.distances(rows, board=board)
    assert list(mtm) == [exact[s] for s in states]
    assert all(m <= s for m, s in zip(mtm, stm))
    # One at a time too, and the histogram's deepest layer is reached.
    for state in states[:50]:
        assert npuzzle.distance(spell(state), board=board, metric="mtm") == exact[state]
    assert max(mtm) == max(exact.values()) or len(states) < len(exact)


def test_mtm_on_3x3_samples_solves_verifies_and_samples_consistently():
    for instance in npuzzle.sample(count=30, seed=28, metric="mtm"):
        d = instance.distance
        assert d == npuzzle.distance(instance.start, metric="mtm")
        assert d <= npuzzle.distance(instance.start)
        solution = npuzzle.solve(instance.start, metric="mtm")
        assert solution.metric == "mtm" and solution.guarantee == "optimal"
        assert solution.length == runs(solution.moves) == d == solution.distance
        assert replay(npuzzle.tiles(instance.start), 3, solution.moves) == npuzzle.tiles(
            instance.goal
        )
        assert npuzzle.verify(instance.start, None, solution.moves, metric="mtm").name == "optimal"
        # The STM-optimal path judged in MTM: optimal exactly when its runs are as few.
        stm_moves = npuzzle.solve(instance.start).moves
        verdict = npuzzle.verify(instance.start, None, stm_moves, metric="mtm")
        extra = runs(stm_moves) - d
        assert verdict.name == ("optimal" if extra == 0 else "suboptimal")
        assert verdict.exact == d
        assert verdict.by == (None if extra == 0 else extra)
    [verdict] = npuzzle.verify_all([("123456078", None, "RR")], metric="mtm")
    assert verdict.name == "optimal"
    assert npuzzle.verify_all([("123456078", None, "RR")])[0].name == "optimal"
    with pytest.raises(ValueError):
        npuzzle.solve("123456078", metric="furlongs")


def test_mtm_sample_at_a_depth_is_what_the_cli_draws():
    drawn = npuzzle.sample(count=12, seed=5, depth=20, metric="mtm")
    assert all(i.distance == 20 == npuzzle.distance(i.start, metric="mtm") for i in drawn)
    out = subprocess.run(
        [cli_binary(), "--data-dir", os.environ["NPUZZLE_DATA_DIR"], "sample",
         "--metric", "mtm", "-n", "12", "--seed", "5", "--depth", "20", "--with-answers"],
        check=True, capture_output=True, text=True,
    ).stdout
    assert [f"{i.start},{i.goal},{i.distance}" for i in drawn] == out.strip().split("\n")[1:]


def flip_two_tiles(tiles):
    tiles = list(tiles)
    a, b = [i for i, t in enumerate(tiles) if t != 0][:2]
    tiles[a], tiles[b] = tiles[b], tiles[a]
    return tiles


@pytest.mark.parametrize("kind, extra", [("uniform", []), ("walk", ["--moves", "300"])])
@pytest.mark.parametrize("board", ["10x10", "7x3", "3x3"])
def test_scramblers_draw_what_the_cli_draws_and_always_solvable(kind, extra, board):
    kwargs = dict(count=6, seed=11, board=board, scramble=kind)
    if extra:
        kwargs["moves"] = 300
    drawn = npuzzle.sample(**kwargs)
    out = subprocess.run(
        [cli_binary(), "sample", "--scramble", kind, *extra, "--board", board,
         "-n", "6", "--seed", "11"],
        check=True, capture_output=True, text=True,
    ).stdout
    assert [f"{i.start},{i.goal}" for i in drawn] == out.strip().split("\n")[1:]
    assert len(set(i.start for i in drawn)) == 6
    for instance in drawn:
        assert instance.solvable and instance.distance is None
        assert npuzzle.is_solvable(instance.start, instance.goal, board=board)
        assert not npuzzle.is_solvable(
            flip_two_tiles(npuzzle.tiles(instance.start, board=board)), instance.goal, board=board
        )
    assert npuzzle.sample(**kwargs) == drawn
    assert npuzzle.sample(**{**kwargs, "seed": 12}) != drawn
    with pytest.raises(ValueError):
        npuzzle.sample(scramble="shuffle")
    with pytest.raises(ValueError):
        npuzzle.sample(scramble="uniform", depth=3)


@pytest.mark.parametrize("board", ["6x6", "10x10", "32x32", "9x4"])
def test_the_constructive_solver_solves_large_boards_with_no_guarantee(board):
    width = int(board.split("x")[0])
    [instance] = npuzzle.sample(count=1, seed=28, board=board, scramble="uniform")
    tiles = npuzzle.tiles(instance.start, board=board)
    assert len(tiles) == width * int(board.split("x")[1]) and sorted(tiles) == list(range(len(tiles)))
    solution = npuzzle.solve(instance.start, board=board)
    assert solution.guarantee == "none" and solution.distance is None
    assert solution.algorithm == "constructive" and solution.states == []
    assert solution.start == instance.start and solution.goal == instance.goal
    assert solution.length == len(solution.moves)
    goal = npuzzle.tiles(instance.goal, board=board)
    assert replay(tiles, width, solution.moves) == goal
    # The same from a list of tiles, and from rows.
    assert npuzzle.solve(list(tiles), board=board).moves == solution.moves
    rows = [list(tiles[i:i + width]) for i in range(0, len(tiles), width)]
    assert npuzzle.solve(rows).moves == solution.moves
    assert npuzzle.solve(instance.start, board=board, within="none").moves == solution.moves
    assert npuzzle.solve(instance.start, board=board, metric="mtm").length == runs(solution.moves)
    with pytest.raises(ValueError, match="constructive solver only"):
        npuzzle.solve(instance.start, board=board, within=1.2)
    # The reason is the library's, word for word as the command line prints it.
    with pytest.raises(npuzzle.UnsolvableError, match="different parity classes"):
        npuzzle.solve(flip_two_tiles(tiles), board=board)
    # The value round trip of a solution without states.
    again = pickle.loads(pickle.dumps(solution))
    assert again == solution
    namespace = {name: getattr(npuzzle, name) for name in npuzzle.__all__}
    assert eval(repr(solution), namespace) == solution


def test_large_states_read_and_malformed_ones_are_refused():
    goal = "/".join(" ".join(str(r * 6 + c + 1) for c in range(6)) for r in range(6))
    goal = goal[: goal.rindex(" ")] + " 0"
    assert npuzzle.is_solvable(goal)
    assert npuzzle.tiles(goal)[-1] == 0 and len(npuzzle.tiles(goal)) == 36
    with pytest.raises(ValueError):
        npuzzle.is_solvable(list(range(36)) + [36], board="6x6")
    with pytest.raises(ValueError):
        npuzzle.tiles([1] * 36, board="6x6")
    with pytest.raises(ValueError):
        npuzzle.sample(count=1, board="65x65", scramble="uniform")


def cli_solve_json(start, *args):
    out = subprocess.run(
        [cli_binary(), "--data-dir", os.environ["NPUZZLE_DATA_DIR"], "solve", "-f", "json",
         *args, start],
        check=True, capture_output=True, text=True,
    ).stdout
    return json.loads(out)


def test_within_a_factor_on_4x4_carries_its_guarantee_and_keeps_it():
    # Random walks from the 4x4 goal: easy for the optimal search that checks the factor.
    for instance in npuzzle.sample(count=4, seed=3, board="4x4", scramble="walk", moves=60):
        optimum = npuzzle.distance(instance.start)
        for factor in (1.5, "1.2"):
            solution = npuzzle.solve(instance.start, within=factor)
            assert solution.guarantee == f"within {factor}"
            assert solution.distance is None
            assert solution.length <= float(factor) * optimum
            assert replay(npuzzle.tiles(instance.start), 4, solution.moves) == npuzzle.tiles(
                instance.goal
            )
            # The same path from both: one thread (two, prover and finder, may differ).
            same = npuzzle.solve(instance.start, within=factor, deterministic=True)
            assert same.moves == cli_solve_json(
                instance.start, "--within", str(factor), "--deterministic"
            )["moves"]
        fast = npuzzle.solve(instance.start, within="none")
        assert fast.guarantee == "none" and fast.algorithm == "constructive"
        assert replay(npuzzle.tiles(instance.start), 4, fast.moves) == npuzzle.tiles(instance.goal)
    # Where a table answers, the solution is optimal whatever was allowed.
    assert npuzzle.solve("867254301", within=1.5).guarantee == "optimal"
    assert npuzzle.solve("867254301", within="optimal") == npuzzle.solve("867254301")
    for bad in (0.5, "fast", True, [1.2]):
        with pytest.raises((ValueError, TypeError)):
            npuzzle.solve("867254301", within=bad)


def test_solutions_with_a_metric_and_a_guarantee_are_values():
    for solution in (
        npuzzle.solve("123456078", metric="mtm"),
        npuzzle.solve("867254301", within="none"),
    ):
        assert pickle.loads(pickle.dumps(solution)) == solution
        namespace = {name: getattr(npuzzle, name) for name in npuzzle.__all__}
        assert eval(repr(solution), namespace) == solution
    assert npuzzle.solve("123456078", metric="mtm") != npuzzle.solve("123456078")
    with pytest.raises(ValueError):
        npuzzle.Solution("RR", [], "table")
    with pytest.raises(ValueError):
        npuzzle.Solution("R", ["123456708", "123456780"], "table", guarantee="soon")


def test_an_mtm_table_answers_in_mtm_from_its_own_file(tmp_path):
    """`Table(metric="mtm")`: every state of 3x2 as the BFS here says, saved in the directory
    under the MTM table's name beside the STM table's, a value that pickles and reads back."""
    goal = (1, 2, 3, 4, 5, 0)
    reference = mtm_bfs(goal, 3)
    mtm = npuzzle.Table(board="3x2", data_dir=tmp_path, metric="mtm")
    stm = npuzzle.Table(board="3x2", data_dir=tmp_path)
    assert (mtm.metric, stm.metric) == ("mtm", "stm")
    assert mtm != stm and mtm == npuzzle.Table(board="3x2", data_dir=tmp_path, metric="mtm")
    names = sorted(p.name for p in tmp_path.glob("*.npt"))
    assert names == ["3x2-123450.npt", "mtm-3x2-123450.npt"], names
    for tiles, d in reference.items():
        start = spell(tiles)
        assert mtm.distance(start) == d, start
        assert stm.distance(start) >= d
        solution = mtm.solve(start)
        assert solution.metric == "mtm" and solution.length == d
        assert tuple(replay(tiles, 3, solution.moves)) == goal
    histogram = collections.Counter(reference.values())
    assert mtm.histogram() == [histogram[d] for d in range(max(histogram) + 1)]
    assert mtm.max_depth == max(histogram)
    again = pickle.loads(pickle.dumps(mtm))
    assert again == mtm and again.distance("123045") == 1
    assert eval(repr(mtm), {"Table": npuzzle.Table}) == mtm
    with pytest.raises(ValueError):
        npuzzle.Table(board="3x2", data_dir=tmp_path, metric="diagonal")


def test_an_stm_table_under_the_mtm_name_is_refused_and_rebuilt(tmp_path):
    """The metric is in the file's header: an STM table copied to the MTM table's name is
    rebuilt (with a warning naming both metrics), never answered from."""
    npuzzle.Table(board="3x2", data_dir=tmp_path)
    (tmp_path / "mtm-3x2-123450.npt").write_bytes((tmp_path / "3x2-123450.npt").read_bytes())
    with pytest.warns(RuntimeWarning, match="counts stm moves, not the mtm moves asked for"):
        table = npuzzle.Table(board="3x2", data_dir=tmp_path, metric="mtm")
    assert table.distance("123045") == 1  # the STM table says 2
