"""npuzzle.distributed on a real Dask LocalCluster of two worker processes: an optimal solve,
labelling equal to the in-process answers, a worker killed during a run, a timeout, and calls
cut short (a timeout, KeyboardInterrupt, progress returning False) whose running tasks stop.

The 24-puzzle (Korf and Felner's #40) needs the 5x5 6-6-6-6 databases (1.6 GB, minutes to
build): it runs when NPUZZLE_DASK_24 names a data directory that holds them (the long tier);
the fast tier solves 15-puzzles instead.
"""

import os
import pathlib
import random
import signal
import sys
import threading
import time

import pytest

np = pytest.importorskip("numpy")
distributed = pytest.importorskip("distributed")

import npuzzle  # noqa: E402
from npuzzle import distributed as nd  # noqa: E402

DATA = pathlib.Path(__file__).resolve().parents[2] / "data"
KORF_GOAL = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"


def korf(count):
    """The `count` easiest of Korf's 100 (fewest IDA* nodes in his run): (start, length)."""
    rows = []
    for line in (DATA / "korf100.txt").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        f = [int(t) for t in line.split()]
        rows.append((f[19], " ".join(map(str, f[1:17])), f[17]))
    rows.sort()
    return [(start, length) for _, start, length in rows[:count]]


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def _executing(dask_worker):
    """Tasks running in a worker's threads now (cancelled ones included until they return)."""
    return len(dask_worker.active_threads)


def idle_within(client, seconds):
    """Whether every worker's threads stop running tasks within `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        running = client.run(_executing)
        if not any(running.values()):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)


def korf_hardest():
    """Korf's hardest of the 100 by his node count: billions of nodes with Manhattan."""
    rows = [
        [int(t) for t in l.split()]
        for l in (DATA / "korf100.txt").read_text().splitlines()
        if l.strip() and not l.startswith("#")
    ]
    return " ".join(map(str, max(rows, key=lambda r: r[19])[1:17]))


def random_4x4(n, seed):
    """`n` 4x4 boards drawn uniformly (half of them unsolvable)."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        tiles = list(range(16))
        rng.shuffle(tiles)
        rows.append(tiles)
    return np.array(rows, dtype=np.uint8)


def walked_4x4(n, seed, moves=60, goal=None):
    """`n` 4x4 boards `moves` random blank moves from `goal` (a string; None: the default
    goal): solvable, and quick to solve with 6-6-3 (a uniformly drawn 15-puzzle takes about
    0.1 s, too long for thousands in the fast tier; the long tier labels uniform ones)."""
    rng = random.Random(seed)
    start = [int(t) for t in goal.split()] if goal else list(range(1, 16)) + [0]
    rows = []
    for _ in range(n):
        tiles = list(start)
        blank = tiles.index(0)
        for _ in range(moves):
            r, c = divmod(blank, 4)
            steps = [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
            r2, c2 = rng.choice([(a, b) for a, b in steps if 0 <= a < 4 and 0 <= b < 4])
            other = r2 * 4 + c2
            tiles[blank], tiles[other] = tiles[other], tiles[blank]
            blank = other
        rows.append(tiles)
    return np.array(rows, dtype=np.uint8)


def test_the_core_package_does_not_import_dask():
    import subprocess
    import sys

    code = "import sys, npuzzle; print('dask' in sys.modules or 'distributed' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


def test_a_distributed_solve_is_optimal_and_deterministic_gives_the_sequential_path(client):
    seen = []
    for start, length in korf(3):
        solution = nd.solve(start, KORF_GOAL, client=client, progress=seen.append)
        assert solution.distance == length
        assert solution.states[0] == npuzzle.solve(start, KORF_GOAL, threads=1).states[0]
        assert solution.states[-1].split() == KORF_GOAL.split()
        assert solution.expanded > 0 and "Dask" in solution.algorithm
        alone = npuzzle.solve(start, KORF_GOAL, threads=1)
        fixed = nd.solve(start, KORF_GOAL, client=client, deterministic=True, tasks=40)
        assert fixed.moves == alone.moves
    assert seen and all(0 < p["done"] <= p["subtrees"] for p in seen)
    assert all(p["expanded"] >= 0 and p["rate"] >= 0 for p in seen)


def test_labelling_2000_4x4_states_equals_the_in_process_answers(client):
    boards = np.concatenate([walked_4x4(1980, seed=23), random_4x4(20, seed=23)])
    local = npuzzle.distances(boards)
    assert (local == npuzzle.UNSOLVABLE).any() and (local > 30).any()
    assert (nd.distances(boards, client=client, chunk=100) == local).all()
    # A Dask array and a pandas DataFrame of the same boards, a slice each.
    import dask.array as da

    part = boards[:300]
    lazy = da.from_array(part, chunks=(50, 16))
    assert (nd.distances(lazy, client=client) == local[:300]).all()
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame(part[:100])
    assert (nd.distances(frame, client=client) == local[:100]).all()
    solved = nd.solve_many(part[:20], client=client, chunk=5)
    assert [s.distance for s in solved] == list(local[:20])


@pytest.mark.skipif(
    not os.environ.get("NPUZZLE_DASK_LONG"),
    reason="long tier (minutes): set NPUZZLE_DASK_LONG=1 to label 2,000 uniform 4x4 states",
)
def test_labelling_2000_uniform_4x4_states_equals_the_in_process_answers(client):
    boards = random_4x4(2000, seed=24)
    assert (nd.distances(boards, client=client, chunk=50) == npuzzle.distances(boards)).all()


def test_a_worker_killed_during_a_run_does_not_change_the_answers(client):
    pids = client.run(os.getpid)
    victim = sorted(pids.values())[0]
    killed = []

    def kill_once(progress):
        if not killed and progress["done"] >= 1:
            os.kill(victim, signal.SIGKILL)
            killed.append(progress)

    start, length = korf(6)[-1]
    solution = nd.solve(start, KORF_GOAL, client=client, progress=kill_once, tasks=64)
    assert killed, "the worker was killed during the run"
    assert solution.distance == length
    # Labelling while a worker dies: the nanny restarts it and Dask reruns its tasks.
    client.wait_for_workers(2, timeout=120)
    boards = walked_4x4(600, seed=5)
    local = npuzzle.distances(boards)
    pids = client.run(os.getpid)
    victim = sorted(pids.values())[-1]
    timer = threading.Timer(0.5, os.kill, (victim, signal.SIGKILL))
    timer.start()
    try:
        labelled = nd.distances(boards, client=client, chunk=10)
    finally:
        timer.cancel()
    assert (labelled == local).all()
    client.wait_for_workers(2, timeout=120)


def test_a_timeout_says_what_is_known_and_stops_the_running_tasks(client):
    hard = korf_hardest()
    began = time.monotonic()
    with pytest.raises(nd.SearchTimeout) as caught:
        nd.solve(hard, KORF_GOAL, client=client, timeout=1.0, heuristic="manhattan")
    assert time.monotonic() - began < 30
    error = caught.value
    assert isinstance(error, npuzzle.LimitReached) and isinstance(error, nd.SearchStopped)
    assert error.bound >= 40 and error.subtrees >= error.done >= 0 and error.expanded > 0
    assert "bound" in str(error) and "timeout" in str(error)
    # The task searching when the timeout came (an iteration of millions of nodes, minutes
    # with Manhattan) saw the call's stop event and returned: no worker thread still runs it.
    assert idle_within(client, 5), client.run(_executing)
    # The cluster is still usable.
    assert nd.solve("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", client=client).distance == 1


def test_progress_returning_false_stops_a_distributed_solve(client):
    seen = []

    def stop_after_two(report):
        seen.append(report)
        return len(seen) < 2

    hard = korf_hardest()
    with pytest.raises(nd.SearchStopped) as caught:
        nd.solve(hard, KORF_GOAL, client=client, heuristic="manhattan", progress=stop_after_two)
    assert not isinstance(caught.value, nd.SearchTimeout)
    assert len(seen) == 2 and "progress" in str(caught.value)
    assert caught.value.bound == seen[-1]["bound"]
    assert idle_within(client, 5), client.run(_executing)


def korf_felner_40():
    """Korf and Felner's 24-puzzle #40 and its goal (the blank first)."""
    line = [
        l
        for l in (DATA / "korf50_24.txt").read_text().splitlines()
        if l.strip() and not l.startswith("#") and l.split()[0] == "40"
    ][0].split()
    return " ".join(line[1:26]), " ".join(map(str, range(25))), int(line[26])


def test_a_running_task_stops_when_its_call_s_stop_event_is_set(client):
    """The mechanism itself, without timing luck: one task searching the whole iteration of
    the 24-puzzle #40 at bound 81 (one below its length, so it holds no solution) with linear
    conflict -- hours of work -- returns, given up, within seconds of its event being set."""
    from distributed import Event

    start, goal, length = korf_felner_40()
    name = nd._new_stop()
    future = client.submit(
        nd._search_task, "", start, goal, "linear-conflict", length - 1, None, None,
        stop=name, pure=False,
    )
    time.sleep(1.0)
    assert not future.done(), "still searching after a second"
    Event(name, client=client).set()
    moves, beyond, expanded, _, gave_up = future.result(timeout=15)
    assert gave_up and moves is None and beyond is None and expanded > 0
    assert idle_within(client, 5), client.run(_executing)


def _warm(goal=None):
    """Opens (or builds) the default goal's databases in a worker, before a timed test."""
    return npuzzle.distance("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", goal)


class _Interrupter:
    """Sends this process SIGINT `after` seconds, as Ctrl-C would, and again whenever the
    KeyboardInterrupt it raised was swallowed: a signal that lands while Python runs a
    finalizer (a dask Future's `__del__`, say) raises there, and Python reports it through
    `sys.unraisablehook` instead of letting it reach the call (seen once in CI)."""

    def __init__(self, after):
        self.after = after
        self.done = threading.Event()
        self.swallowed = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _hook(self, unraisable):
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            self.swallowed.set()
        else:
            self.previous_hook(unraisable)

    def _run(self):
        if self.done.wait(self.after):
            return
        os.kill(os.getpid(), signal.SIGINT)
        while not self.done.is_set():
            if self.swallowed.wait(0.1) and not self.done.is_set():
                self.swallowed.clear()
                os.kill(os.getpid(), signal.SIGINT)

    def __enter__(self):
        self.previous_hook = sys.unraisablehook
        sys.unraisablehook = self._hook
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()
        sys.unraisablehook = self.previous_hook
        return False


def test_an_interrupted_call_stops_its_running_tasks(client):
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    client.run(_warm)
    # Uniform 15-puzzles, solvable ones only: about 0.1 s each with 6-6-3, so a task of 200
    # rows runs for many seconds after the interrupt unless it stops.
    boards = random_4x4(1000, seed=11)
    boards = boards[[npuzzle.is_solvable(list(map(int, b))) for b in boards]][:400]
    start_24, goal_24, _ = korf_felner_40()
    for call in (
        lambda: nd.distances(boards, client=client, chunk=200),
        # One task, the whole MTM search of a 24-puzzle (hours with its estimate).
        lambda: nd.solve(start_24, goal_24, client=client, metric="mtm"),
        lambda: nd.solve(korf_hardest(), KORF_GOAL, client=client, heuristic="manhattan"),
    ):
        began = time.monotonic()
        with pytest.raises(KeyboardInterrupt), _Interrupter(after=1.0):
            call()
        assert time.monotonic() - began < 30
        assert idle_within(client, 5), client.run(_executing)


def test_task_results_are_plain_values():
    import pickle

    start = "5 1 2 3 4 6 10 7 8 0 9 11 12 13 14 15"
    length = npuzzle.distance(start)
    # Below the answer: no subtree holds a solution; at it, one does, of that length.
    for bound in (length - 2, length):
        split = npuzzle._npuzzle._task_split(start, None, "manhattan", bound, 8)
        assert pickle.loads(pickle.dumps(split)) == split
        assert split[0] == bound and len(split[1]) >= 8
        results = [
            npuzzle._npuzzle._task_search(start, None, "manhattan", prefix, bound)
            for prefix in split[1]
        ]
        assert pickle.loads(pickle.dumps(results)) == results
        found = [moves for moves, _, _, _, _ in results if moves is not None]
        assert all(len(m) == length for m in found)
        assert bool(found) == (bound == length)
    with pytest.raises(ValueError):
        npuzzle._npuzzle._task_search("123456780", None, "manhattan", "DD", 30)


@pytest.mark.skipif(
    not os.environ.get("NPUZZLE_DASK_24"),
    reason="long tier: set NPUZZLE_DASK_24 to a data directory holding the 5x5 6-6-6-6 databases",
)
def test_korf_felner_40_on_the_cluster():
    start, _, length = korf_felner_40()
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    with distributed.Client(cluster) as c:
        goal = " ".join(map(str, range(25)))  # Korf and Felner's: the blank first
        solution = nd.solve(
            start, goal, client=c, heuristic="pdb", data_dir=os.environ["NPUZZLE_DASK_24"]
        )
    cluster.close()
    assert solution.distance == length


def test_the_multi_tile_metric_passes_through_to_the_workers(client, tmp_path):
    """`metric="mtm"` on the cluster: labels equal to the in-process MTM answers (which are
    below the STM ones somewhere), solutions counted in MTM, a solve as one task."""
    starts = [i.start for i in npuzzle.sample(count=40, seed=28)]
    boards = np.array([npuzzle.tiles(s) for s in starts], dtype=np.uint8)
    local = npuzzle.distances(boards, metric="mtm")
    assert (local < npuzzle.distances(boards)).any()
    assert (nd.distances(boards, client=client, chunk=10, metric="mtm") == local).all()
    solved = nd.solve_many(boards[:6], client=client, chunk=3, metric="mtm")
    assert [s.length for s in solved] == list(local[:6])
    assert all(s.metric == "mtm" for s in solved)
    # 3x3 on the cluster: the MTM table of the workers' data directory.
    start = "8 6 7 2 5 4 3 0 1"
    solution = nd.solve(start, client=client, data_dir=tmp_path, metric="mtm")
    assert solution.metric == "mtm"
    assert solution.length == npuzzle.distance(start, metric="mtm")
    assert solution.states[-1] == npuzzle.solve(start).states[-1]
    with pytest.raises(ValueError):
        nd.solve(start, client=client, heuristic="manhattan", metric="mtm")
