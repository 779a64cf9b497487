"""`npuzzle.solve(progress=...)` and `distance(progress=...)`: a long search's reports on the
calling thread (bound, nodes, rate, share of the iteration), and the ways to stop it: the
callback returning False, the callback raising, Ctrl-C (KeyboardInterrupt).

The searches are Korf and Felner's 24-puzzle #40 (82 moves) with linear conflict, what the
package searches with where no 6-6-6-6 databases were built (the tests' data directory has
none): hours of work, with iterations of growing bounds from the first milliseconds, so every
test stops it long before its answer.
"""

import os
import pathlib
import signal
import threading
import time

import pytest

import npuzzle

DATA = pathlib.Path(__file__).resolve().parents[2] / "data"
GOAL_24 = " ".join(map(str, range(25)))  # Korf and Felner's: the blank first


def korf_felner(number):
    """The start of Korf and Felner's 24-puzzle `number`, and its published length."""
    for line in (DATA / "korf50_24.txt").read_text().splitlines():
        fields = line.split()
        if fields and not line.startswith("#") and fields[0] == str(number):
            return " ".join(fields[1:26]), int(fields[26])
    raise LookupError(number)


@pytest.fixture(scope="module")
def hard():
    start, length = korf_felner(40)
    assert length == 82
    return start


@pytest.mark.parametrize("threads", [1, 2])
def test_progress_sees_increasing_bounds_and_false_stops_the_search(hard, threads):
    seen = []
    caller = threading.get_ident()

    def watch(report):
        assert threading.get_ident() == caller, "called on the calling thread"
        seen.append(report)
        bounds = {r["bound"] for r in seen}
        # Stops once two iterations were seen (or, failing that, after 60 s: asserted below).
        return not (len(bounds) >= 2 or report["elapsed"] > 60)

    began = time.monotonic()
    with pytest.raises(npuzzle.LimitReached) as caught:
        npuzzle.solve(hard, GOAL_24, threads=threads, progress=watch)
    assert "stopped" in str(caught.value)
    assert time.monotonic() - began < 90
    bounds = [r["bound"] for r in seen]
    assert len(set(bounds)) >= 2, bounds
    assert bounds == sorted(bounds), "bounds never decrease"
    assert all(b >= 60 for b in bounds)
    nodes = [r["expanded"] for r in seen]
    assert nodes == sorted(nodes) and nodes[0] > 0
    assert all(r["rate"] > 0 and r["elapsed"] > 0 for r in seen)
    for r in seen:
        if threads == 1:
            assert r["done"] is None and r["subtrees"] is None
        else:
            assert r["subtrees"] >= 1 and 0 <= r["done"] <= r["subtrees"], r
    # Reports come about every 0.1 s, never from a finished search.
    assert len(seen) <= (time.monotonic() - began) / 0.1 + 2


class Enough(Exception):
    pass


def test_an_exception_from_progress_stops_the_search_and_is_raised(hard):
    calls = []

    def watch(report):
        calls.append(report)
        raise Enough(report["bound"])

    began = time.monotonic()
    with pytest.raises(Enough):
        npuzzle.distance(hard, GOAL_24, progress=watch)
    assert len(calls) == 1, "not called again once it raised"
    assert time.monotonic() - began < 30


def test_none_from_progress_goes_on(hard):
    calls = []

    def watch(report):
        calls.append(report)
        if len(calls) >= 3:
            return False
        return None  # goes on: only False stops

    with pytest.raises(npuzzle.LimitReached):
        npuzzle.solve(hard, GOAL_24, progress=watch)
    assert len(calls) == 3


def test_ctrl_c_stops_an_in_process_search(hard):
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    began = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            npuzzle.solve(hard, GOAL_24, threads=1)
    finally:
        timer.cancel()
    # Raised within a poll of the signal, not after the search's minutes.
    assert time.monotonic() - began < 20


def test_a_table_answer_never_calls_progress_and_progress_must_be_callable():
    calls = []
    assert npuzzle.solve("867254301", progress=calls.append).distance == 31
    assert npuzzle.distance("867254301", progress=calls.append) == 31
    assert calls == []
    with pytest.raises(TypeError, match="progress must be callable"):
        npuzzle.solve("867254301", progress=3)
