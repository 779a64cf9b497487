"""The Python API against known answers: every spelling of a state, every exception."""

import math
import os
import subprocess
import sys
import threading
import time

import pytest

import npuzzle

HARDEST = "867254301"  # one of the two 8-puzzle states 31 moves from 123456780
# Korf's 15-puzzle instance 1 needs 57 moves to his goal (blank first): far past any small limit.
KORF_1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"
KORF_GOAL = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
# Korf and Felner's first 24-puzzle (95 moves): no table and, unless built, no pattern
# databases, so a search on it runs until its limit.
KORF24_1 = "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13"
KORF24_GOAL = " ".join(str(t) for t in range(25))


def test_the_data_directory_is_the_tests_own():
    assert str(npuzzle.data_dir()) == os.environ["NPUZZLE_DATA_DIR"]


@pytest.mark.parametrize(
    "spelling",
    [
        HARDEST,
        "8 6 7 2 5 4 3 0 1",
        "8,6,7,2,5,4,3,0,1",
        "867/254/301",
        "8672543_1",
        "8672543.1",
        (8, 6, 7, 2, 5, 4, 3, 0, 1),
        [8, 6, 7, 2, 5, 4, 3, 0, 1],
        [[8, 6, 7], [2, 5, 4], [3, 0, 1]],
    ],
)
def test_every_spelling_of_a_state_reads_the_same(spelling):
    assert npuzzle.distance(spelling) == 31
    assert npuzzle.tiles(spelling) == (8, 6, 7, 2, 5, 4, 3, 0, 1)


def test_numpy_rows_and_ints_are_states():
    np = pytest.importorskip("numpy")
    assert npuzzle.distance(np.array([1, 2, 3, 4, 5, 6, 7, 0, 8], dtype=np.uint8)) == 1
    assert npuzzle.distance(np.array([[1, 2, 3], [4, 5, 6], [7, 0, 8]])) == 1


def test_solve_gives_moves_and_states():
    solution = npuzzle.solve("123456708")
    assert solution.moves == "R"
    assert solution.states == ["123456708", "123456780"]
    assert len(solution) == solution.distance == 1
    assert solution.algorithm == "table"
    assert len(npuzzle.solve(HARDEST).moves) == 31


def test_goals_and_boards():
    assert npuzzle.distance("283164705", "123804765") == 5
    # 2x3, goal with the blank first (the library's own example).
    assert npuzzle.solve("1 0 2 / 3 4 5", "0 1 2 / 3 4 5").moves == "L"
    # 4x3: twelve cells need a board (or rows).
    start = "0 1 2 3 / 4 5 6 7 / 8 9 10 11"
    goal = "1 2 3 4 / 5 6 7 8 / 9 10 11 0"
    flat_start = list(range(12))
    flat_goal = list(range(1, 12)) + [0]
    d = npuzzle.distance("0 1 2 3 / 4 5 6 7", "1 2 3 0 / 4 5 6 7")
    assert d == 3
    assert npuzzle.distance(flat_start[:8], [1, 2, 3, 0, 4, 5, 6, 7], board="4x2") == 3
    assert npuzzle.distance([[0, 1, 2, 3], [4, 5, 6, 7]], [[1, 2, 3, 0], [4, 5, 6, 7]]) == 3
    with pytest.raises(ValueError, match='board="WxH"'):
        npuzzle.distance(flat_start)
    assert npuzzle.is_solvable(start, goal) in (True, False)


def test_fifteen_puzzle_by_search():
    start = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"
    assert npuzzle.distance(start) == 1
    solution = npuzzle.solve(start)
    assert solution.moves == "R"
    assert "idastar" in solution.algorithm


def test_unsolvable_pairs_raise_the_package_exception():
    with pytest.raises(npuzzle.UnsolvableError, match="cannot reach"):
        npuzzle.distance("213456780")
    with pytest.raises(npuzzle.UnsolvableError):
        npuzzle.solve("213456780")
    assert issubclass(npuzzle.UnsolvableError, npuzzle.NpuzzleError)
    assert not issubclass(npuzzle.UnsolvableError, ValueError)
    assert npuzzle.is_solvable("213456780") is False
    assert npuzzle.is_solvable(HARDEST) is True


@pytest.mark.parametrize(
    "bad, message",
    [
        ("123456789", "tile 9"),
        ("123456788", "repeated"),
        ("12345678", "is the blank missing"),
        ("12x456780", "unexpected character"),
        ("", "empty state"),
        ([1, 2, 3, 4, 5, 6, 7, 8, 8], "repeated"),
        ([[1, 2, 3], [4, 5], [6, 7, 8, 0]], "row 2"),
        ([1, 2, 3, 4, 5, 6, 7, 8, -1], "not a tile number"),
        ([1, 2, 3, 4, 5, 6, 7, 8, 10**30], "not a tile number"),
        ([1, 2, 3, 4, 5, 6, 7, 8, True], "not a tile number"),
        (list(range(30)), "more than 25 cells"),
    ],
)
def test_malformed_states_are_value_errors_with_the_librarys_message(bad, message):
    with pytest.raises(ValueError, match=message):
        npuzzle.distance(bad)


@pytest.mark.parametrize("bad", [None, 3, 3.5, b"123456780", object(), [1.0, 2.0], [[1, 2], 3]])
def test_values_that_are_no_state_are_type_errors(bad):
    with pytest.raises(TypeError):
        npuzzle.distance(bad)


def test_bad_boards_and_goals():
    with pytest.raises(ValueError, match="not of the form WxH"):
        npuzzle.distance("123456780", board="three")
    with pytest.raises(ValueError, match="not supported"):
        npuzzle.distance("123456780", board="1x9")
    with pytest.raises(ValueError, match="expected 16 for a 4x4 board"):
        npuzzle.distance("123456780", board="4x4")
    with pytest.raises(ValueError, match="invalid goal"):
        npuzzle.distance("123456780", "1234")


def test_limits_raise_limit_reached_and_bad_limits_are_value_errors():
    with pytest.raises(npuzzle.LimitReached, match="node limit"):
        npuzzle.distance(KORF24_1, KORF24_GOAL, max_nodes=1000)
    started = time.monotonic()
    with pytest.raises(npuzzle.LimitReached, match="time limit"):
        npuzzle.solve(KORF24_1, KORF24_GOAL, limit=0.05)
    assert time.monotonic() - started < 5
    for bad in (-1.0, math.nan, math.inf, 1e300):
        with pytest.raises(ValueError, match="limit"):
            npuzzle.distance(KORF24_1, KORF24_GOAL, limit=bad)
    with pytest.raises((OverflowError, ValueError, TypeError)):
        npuzzle.distance(KORF24_1, KORF24_GOAL, max_nodes=-5)


def test_a_long_search_releases_the_gil():
    ticks = 0
    done = threading.Event()

    def search():
        try:
            npuzzle.distance(KORF24_1, KORF24_GOAL, limit=0.5)
        except npuzzle.LimitReached:
            pass
        finally:
            done.set()

    thread = threading.Thread(target=search)
    thread.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    thread.join()
    # With the GIL held for the whole search, this thread could not have run meanwhile.
    assert ticks > 50


def test_verify_gives_every_verdict():
    v = npuzzle.verify("123456708", None, "R")
    assert (v.name, v.passed, v.exact, v.detail) == ("optimal", True, 1, None)
    v = npuzzle.verify("123456708", "123456780", "RLR")
    assert (v.name, v.passed, v.by) == ("suboptimal", False, 2)
    assert "2 moves longer" in str(v)
    v = npuzzle.verify("123456708", None, "D")
    assert (v.name, v.step) == ("illegal-move", 1)
    assert npuzzle.verify("123456708", None, "L").name == "wrong-end"
    assert npuzzle.verify("123456708", None, None).name == "false-unsolvable"
    v = npuzzle.verify("213456780", None, None)
    assert (v.name, v.passed, v.solvable) == ("correct-unsolvable", True, False)
    assert npuzzle.verify("213456780", None, "R").name == "false-solution"
    v = npuzzle.verify("123456708", None, "RX")
    assert v.name == "malformed" and "X" in v.detail
    assert npuzzle.verify("123456708", None, ["r"]).name == "optimal"
    assert npuzzle.verify("123456708", None, "right").name == "optimal"
    with pytest.raises(TypeError):
        npuzzle.verify("123456708", None, 5)


def test_verify_all_judges_in_order():
    answers = [
        ("123456708", None, "R"),
        ("123456708", "123456780", "RLR"),
        ("213456780", None, None),
        ("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", None, "R"),
    ]
    verdicts = npuzzle.verify_all(answers)
    assert [v.name for v in verdicts] == ["optimal", "suboptimal", "correct-unsolvable", "optimal"]
    assert [v.name for v in verdicts] == [npuzzle.verify(*a).name for a in answers]
    assert npuzzle.verify_all([]) == []
    with pytest.raises(ValueError, match="answer 1: invalid start"):
        npuzzle.verify_all([("123456708", None, "R"), ("12345678", None, "R")])
    with pytest.raises(ValueError, match="triple"):
        npuzzle.verify_all([("123456708", "R")])
    # A long search per answer honours the limit: unverified, not a hang.
    [v] = npuzzle.verify_all([(KORF24_1, KORF24_GOAL, None)], max_nodes=1000)
    assert (v.name, v.passed, v.solvable) == ("unverified", False, None)
    assert "gave up" in v.detail


def test_sample_is_reproducible_and_pinned_to_the_clis_golden_output():
    drawn = npuzzle.sample(count=3, seed=1)
    # tests/verify_sample.rs pins `npuzzle sample --count 3 --seed 1 --with-answers` to these.
    assert [(i.start, i.goal, i.distance) for i in drawn] == [
        ("658217043", "123456780", 22),
        ("876043521", "123456780", 27),
        ("783654021", "123456780", 28),
    ]
    assert [i.start for i in npuzzle.sample(count=5, seed=9, depth=20)] == [
        i.start for i in npuzzle.sample(count=5, seed=9, depth=20)
    ]
    assert all(i.distance == 20 for i in npuzzle.sample(count=5, seed=9, depth=20))
    mixed = npuzzle.sample(count=10, seed=2, unsolvable=4)
    assert sum(not i.solvable for i in mixed) == 4
    uniform = npuzzle.sample(count=5, seed=3, board="4x4")
    assert all(i.distance is None and i.solvable for i in uniform)
    with pytest.raises(ValueError, match="depth"):
        npuzzle.sample(depth=40)
    with pytest.raises(ValueError, match="needs an exact table"):
        npuzzle.sample(board="4x4", depth=10)
    with pytest.raises(ValueError, match="unsolvable"):
        npuzzle.sample(count=2, unsolvable=3)
    with pytest.raises(ValueError):
        npuzzle.sample(depth=3, min_depth=2)
    # Two states lie at depth 31: asked for 20, both come once, with a warning saying so.
    with pytest.warns(RuntimeWarning, match="only 2 states"):
        deepest = npuzzle.sample(count=20, depth=31, seed=4)
    assert len({i.start for i in deepest}) == len(deepest) == 2
    with pytest.raises(ValueError, match="per call"):
        npuzzle.sample(count=10**12)


def test_table_opens_builds_and_answers(tmp_path):
    table = npuzzle.Table(data_dir=tmp_path)
    assert (tmp_path / "3x3-123456780.npt").is_file()
    assert table.board == "3x3" and table.goal == "123456780"
    assert table.distance(HARDEST) == 31
    assert table.solve("123456708").moves == "R"
    histogram = table.histogram()
    assert sum(histogram) == table.states == 181440
    assert len(histogram) == table.max_depth + 1 == 32
    assert histogram[31] == 2
    with pytest.raises(npuzzle.UnsolvableError):
        table.distance("213456780")
    # The same directory again: the saved file is opened.
    assert npuzzle.Table(data_dir=str(tmp_path)).distance(HARDEST) == 31
    # A 12-cell start reads on the table's board without board=.
    small = npuzzle.Table("1 2 3 / 4 5 0", data_dir=tmp_path)
    assert small.distance([1, 2, 3, 4, 0, 5]) == 1
    with pytest.raises(ValueError, match="no exact table"):
        npuzzle.Table(board="4x4")


def test_a_data_directory_with_a_nul_byte_is_a_value_error(tmp_path):
    # As open() says; before, the table was built in memory with only a warning.
    with pytest.raises(ValueError, match="null byte"):
        open("a\x00b")
    for spelling in ["a\x00b", str(tmp_path) + "/\x00", b"a\x00b".decode()]:
        with pytest.raises(ValueError, match="null byte"):
            npuzzle.Table(data_dir=spelling)
    with pytest.raises(ValueError, match="null byte"):
        npuzzle.Table(data_dir=tmp_path / "a\x00b")


def test_a_data_directory_others_may_write_is_not_used(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    with pytest.warns(RuntimeWarning, match="memory"):
        table = npuzzle.Table(data_dir=shared)
    assert table.distance(HARDEST) == 31
    assert list(shared.iterdir()) == []
    # The directory actually used: none (memory), not the one refused.
    assert table.data_dir is None


def data_dir_in_a_fresh_process(env, tmp_path):
    """What `npuzzle.data_dir()` says in a new interpreter with `env` (and HOME=tmp_path, no
    npuzzle or XDG variable otherwise), and the warnings it gave."""
    clean = {k: v for k, v in os.environ.items() if k not in ("NPUZZLE_DATA_DIR", "XDG_CACHE_HOME")}
    result = subprocess.run(
        [sys.executable, "-W", "always", "-c", "import npuzzle; print(npuzzle.data_dir())"],
        env={**clean, "HOME": str(tmp_path), **env},
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    return result.stdout.strip(), result.stderr


def test_data_dir_names_the_directory_actually_used(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    said, warned = data_dir_in_a_fresh_process({"NPUZZLE_DATA_DIR": str(shared)}, tmp_path)
    assert said == "None"
    assert "RuntimeWarning" in warned and "memory" in warned
    own = tmp_path / "own"
    said, warned = data_dir_in_a_fresh_process({"NPUZZLE_DATA_DIR": str(own)}, tmp_path)
    assert (said, warned) == (str(own), "")


@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the XDG rule is Linux's (and the BSDs')"
)
def test_the_default_is_the_platform_cache_directory(tmp_path):
    xdg = tmp_path / "xdg"
    assert data_dir_in_a_fresh_process({"XDG_CACHE_HOME": str(xdg)}, tmp_path)[0] == str(
        xdg / "npuzzle"
    )
    for ignored in ["", "relative/cache"]:
        said = data_dir_in_a_fresh_process({"XDG_CACHE_HOME": ignored}, tmp_path)[0]
        assert said == str(tmp_path / ".cache" / "npuzzle")
    said = data_dir_in_a_fresh_process({"NPUZZLE_DATA_DIR": ""}, tmp_path)[0]
    assert said == str(tmp_path / ".cache" / "npuzzle")


def test_a_table_over_10_mb_is_announced_before_it_is_built(tmp_path):
    """A 12-cell table is 240 MB kept in the data directory: a RuntimeWarning says so before
    the build begins (the file does not exist yet when it is shown); small tables say nothing."""
    import warnings

    shown = []

    def show(message, category, filename, lineno, file=None, line=None):
        shown.append((category, str(message), sorted(p.name for p in tmp_path.iterdir())))

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = show  # restored by catch_warnings
        npuzzle.Table(data_dir=tmp_path)  # 3x3: 181 KB, silent
        assert shown == []
        table = npuzzle.Table(board="4x3", data_dir=tmp_path)
    assert len(shown) == 1, shown
    category, message, files = shown[0]
    assert category is RuntimeWarning
    assert "building the 4x3 table" in message and "240 MB" in message, message
    assert not any(name.startswith("4x3") for name in files), files
    assert table.distance("1 2 3 4 / 5 6 7 8 / 9 10 0 11") == 1


def cli_binary():
    """The npuzzle binary: $NPUZZLE_BIN (.ci/run sets it, so there the comparison always
    runs), else one built in this checkout."""
    given = os.environ.get("NPUZZLE_BIN")
    if given:
        assert os.access(given, os.X_OK), f"NPUZZLE_BIN={given} is not an executable"
        return given
    root = os.path.join(os.path.dirname(__file__), "..", "..", "target")
    for profile in ("release", "debug"):
        path = os.path.join(root, profile, "npuzzle")
        if os.access(path, os.X_OK):
            return path
    pytest.skip("no npuzzle binary: set NPUZZLE_BIN or run cargo build")


@pytest.mark.parametrize(
    "args, kwargs",
    [
        (["--count", "25", "--seed", "42"], dict(count=25, seed=42)),
        (["-n", "20", "--seed", "7", "--depth", "25", "--unsolvable", "5"],
         dict(count=20, seed=7, depth=25, unsolvable=5)),
        (["-n", "15", "--seed", "3", "--min-depth", "10", "--max-depth", "12", "--goal", "876543210"],
         dict(count=15, seed=3, min_depth=10, max_depth=12, goal="876543210")),
        (["-n", "10", "--seed", "9", "--board", "5x2"], dict(count=10, seed=9, board="5x2")),
        (["-n", "12", "--seed", "5", "--board", "4x4", "--unsolvable", "3"],
         dict(count=12, seed=5, board="4x4", unsolvable=3)),
    ],
)
def test_sample_draws_what_the_cli_draws(args, kwargs, tmp_path):
    import subprocess

    out = subprocess.run(
        [cli_binary(), "--data-dir", os.environ["NPUZZLE_DATA_DIR"], "sample", *args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    lines = out.strip().split("\n")[1:]
    drawn = npuzzle.sample(**kwargs)
    assert [f"{i.start},{i.goal}" for i in drawn] == lines


def test_distance_in_the_multi_tile_metric() -> None:
    # 123456078: one slide of two tiles (RR), two single-tile moves.
    assert npuzzle.distance("123456078") == 2
    assert npuzzle.distance("123456078", metric="mtm") == 1
    # The 8-puzzle's hardest MTM position is 24 moves; MTM is never above STM.
    assert npuzzle.distance("147208365", metric="mtm") == 24
    assert npuzzle.distance("147208365") >= 24
    with pytest.raises(ValueError):
        npuzzle.distance("123456078", metric="furlongs")
