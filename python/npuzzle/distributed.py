"""Optimal search and labelling on a Dask cluster (``pip install npuzzle[dask]``).

``solve(start, goal, client=client)`` runs IDA* over a ``dask.distributed.Client``: each
iteration's tree is cut by the library's frontier split (the one the threads of
``npuzzle.solve(threads=...)`` use) into subtrees, one task each. A task is (start, goal,
heuristic, prefix of moves, bound) and returns plain values: the moves of a solution, or the
smallest ``g + h`` above the bound, with its node counts. All tasks of an iteration share its
bound, so the first solution found is optimal.

``distances(boards, client=client)`` and ``solve_many(boards, client=client)`` label NumPy
arrays, Dask arrays or DataFrames (pandas or Dask) of boards, one task per chunk of rows.

Workers answer from their own data directory (``data_dir=``, else the worker's
``$NPUZZLE_DATA_DIR``, else ``~/.cache/npuzzle``), opened once per worker process; on a shared
path every file is built once (a lock file in the directory), others wait and reuse it. Each
task runs on one thread, so a worker runs as many as it has Dask threads.

Everything a task sends or returns pickles (strings, ints, tuples, NumPy arrays); the core
package never imports Dask, and this module imports it only when called.

Stopping: each call names a Dask ``Event`` of its own (``npuzzle-stop-<uuid>``). A running
task polls it every quarter of a second through the search's progress hook (the one
``npuzzle.solve(progress=...)`` uses), so when the call ends early -- a ``timeout``, an
exception, KeyboardInterrupt, ``progress`` returning False, or a solution found while other
subtrees still run -- it sets the event and cancels its futures: tasks not yet started never
start, running ones stop within about a second. The event stays set on the scheduler (a
name and a flag per call that ended early).
"""

from __future__ import annotations

import os
import time
import uuid
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Dict,
    List,
    Literal,
    Optional,
    Sequence,
    Tuple,
    Type,
    Union,
    cast,
)

from . import _npuzzle
from ._npuzzle import LimitReached, Solution

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from ._npuzzle import _StateLike

__all__ = ["SearchStopped", "SearchTimeout", "distances", "solve", "solve_many"]

#: Subtrees per iteration and Dask thread when ``tasks`` is not given: enough that a slow
#: worker or a large subtree does not leave the others idle, few enough that Dask's per-task
#: overhead (about a millisecond) stays small next to the work.
TASKS_PER_THREAD = 16

#: An iteration is split into tasks once the last one, times 8 (IDA*'s usual growth per
#: bound step), reaches this many nodes (seconds of work); smaller ones run as one task, since
#: a task costs milliseconds of Dask's time and an iteration a round trip.
SPLIT_FROM_NODES = 20_000_000

#: Rows per labelling task when ``chunk`` is not given: at least this many, and the rows split
#: into ``LABEL_TASKS_PER_THREAD`` tasks per Dask thread when that makes larger tasks.
DEFAULT_CHUNK = 1000

#: Labelling tasks per Dask thread when ``chunk`` is not given: enough that the last ones
#: leave no thread idle for long, few enough that Dask's cost per task (a few milliseconds
#: on a loaded machine) stays small next to a task's rows.
LABEL_TASKS_PER_THREAD = 4

#: Seconds between two looks of a running task at its call's stop event (each look is a round
#: trip to the scheduler).
STOP_POLL = 0.25

_Path = Union[str, "os.PathLike[str]"]


class SearchStopped(LimitReached):
    """A distributed search stopped before its answer (``progress`` returned False): what is
    known is in the attributes.

    ``bound``: the iteration's bound (no solution is shorter; None before the first split
    came back); ``done`` and ``subtrees``: its subtrees finished and in all; ``expanded``:
    nodes of the finished tasks (running ones are stopped and not counted).
    """

    def __init__(
        self, message: str, bound: Optional[int], done: int, subtrees: int, expanded: int
    ):
        super().__init__(message)
        self.bound = bound
        self.done = done
        self.subtrees = subtrees
        self.expanded = expanded


class SearchTimeout(SearchStopped):
    """A distributed search ran past its ``timeout``: what is known is in the attributes (see
    ``SearchStopped``)."""


def _new_stop() -> str:
    """The name of a call's stop event (unique, so that calls never stop each other)."""
    return f"npuzzle-stop-{uuid.uuid4().hex}"


def _event(name: str, client: Any = None) -> Any:
    """Dask's ``Event`` named ``name`` (on a worker, through the worker's client). Dask is
    untyped: used through Any, as the client is."""
    from distributed import Event

    return cast(Any, Event)(name, client=client)


def _stop_poll(name: str) -> Callable[[Dict[str, Any]], bool]:
    """The progress hook of a task: False (stop) once the call's stop event ``name`` is set.
    Looks at most every ``STOP_POLL`` seconds, and only once the task has run that long (a
    short task never reaches the scheduler)."""
    began = time.monotonic()
    state: Dict[str, Any] = {"last": began, "event": None, "set": False}

    def poll(_report: Dict[str, Any]) -> bool:
        now = time.monotonic()
        if not state["set"] and now - state["last"] >= STOP_POLL:
            state["last"] = now
            if state["event"] is None:
                state["event"] = _event(name)
            state["set"] = bool(state["event"].is_set())
        return not state["set"]

    return poll


def _stop(client: Any, name: str, futures: Sequence[Any]) -> None:
    """Ends a call's tasks: sets its stop event where some still run, then cancels them all."""
    if any(not f.done() for f in futures):
        try:
            _event(name, client).set()
        except Exception:  # noqa: BLE001 -- a closed client: its workers are gone too
            pass
    client.cancel(list(futures))


def _search_task(
    prefix: str,
    start: Any,
    goal: Any,
    heuristic: str,
    bound: int,
    board: Optional[str],
    data_dir: Optional[str],
    stop: Optional[str] = None,
) -> Tuple[Optional[str], Optional[int], int, int, bool]:
    """One subtree (a Dask task): runs on a worker, returns plain values; stops when the
    call's ``stop`` event is set."""
    return _npuzzle._task_search(
        start,
        goal,
        heuristic,
        prefix,
        bound,
        board=board,
        data_dir=data_dir,
        progress=None if stop is None else _stop_poll(stop),
    )


def _split_task(
    start: Any,
    goal: Any,
    heuristic: str,
    bound: Optional[int],
    at_least: int,
    board: Optional[str],
    data_dir: Optional[str],
) -> Tuple[int, List[str], Optional[int], int, int, str]:
    """One iteration's split (a Dask task, so that the client needs no databases)."""
    return _npuzzle._task_split(
        start, goal, heuristic, bound, at_least, board=board, data_dir=data_dir
    )


def _total_threads(client: Any) -> int:
    return max(1, int(sum(client.nthreads().values())))


def solve(
    start: _StateLike,
    goal: Optional[_StateLike] = None,
    *,
    client: Any,
    board: Optional[str] = None,
    heuristic: str = "auto",
    tasks: Optional[int] = None,
    timeout: Optional[float] = None,
    deterministic: bool = False,
    progress: Optional[Callable[[Dict[str, Any]], object]] = None,
    data_dir: Optional[_Path] = None,
    metric: Literal["stm", "mtm"] = "stm",
) -> Solution:
    """An optimal solution from ``start`` to ``goal``, searched by IDA* on ``client``'s workers.

    ``heuristic``: ``"auto"`` (the strongest pattern databases in the workers' data directory,
    else linear conflict), ``"pdb"``, ``"linear-conflict"`` or ``"manhattan"``. ``tasks``:
    subtrees per iteration (default 16 per Dask thread, once an
    iteration is expected to pass 20 M nodes; smaller ones run as one task). ``timeout`` (seconds): past it,
    the search stops and ``SearchTimeout`` says the bound reached and the nodes.
    ``deterministic``: the path the one-thread search finds. ``progress`` is called after
    each task with a dict: ``bound``, ``done``, ``subtrees``, ``expanded``, ``rate`` (nodes
    per second), ``elapsed``; returning False (exactly) stops the search and raises
    ``SearchStopped`` with what is known; an exception it raises stops it and is raised.

    A worker that dies has its tasks rerun by Dask: the answer is the same. When the call ends
    before its tasks (a solution found, its timeout, ``progress``, an exception or
    KeyboardInterrupt), tasks not started are cancelled and running ones stop within about a
    second (the module's stop event).

    ``metric="mtm"`` (a slide of several tiles is one move): the question is one task on one
    worker, answered as ``npuzzle.solve(metric="mtm")`` answers it (the MTM table of a board
    of at most 12 cells, else the MTM search), within ``timeout``; the frontier split is the
    single-tile metric's, so ``heuristic`` must be ``"auto"`` and ``tasks``, ``deterministic``
    and ``progress`` do not apply.
    """
    if metric != "stm":
        return _solve_whole(start, goal, client, board, heuristic, timeout, data_dir, metric)
    from distributed import as_completed

    began = time.monotonic()
    deadline = None if timeout is None else began + timeout
    directory = None if data_dir is None else os.fspath(data_dir)
    at_least = tasks if tasks is not None else TASKS_PER_THREAD * _total_threads(client)
    stop = _new_stop()
    expanded = generated = 0
    last_iteration = 0
    bound: Optional[int] = None
    state = {"done": 0, "subtrees": 0}
    # The futures of the running iteration (or split): stopped however the call ends.
    running: List[Any] = []

    def remaining() -> Optional[float]:
        return None if deadline is None else max(0.0, deadline - time.monotonic())

    def known(kind: Type[SearchStopped], why: str) -> SearchStopped:
        shorter = "" if bound is None else f": no solution is shorter than {bound} moves"
        return kind(
            f"the distributed search {why}, at bound {bound} ({state['done']} of "
            f"{state['subtrees']} subtrees of the iteration done, {expanded} nodes "
            f"expanded){shorter}",
            bound=bound,
            done=state["done"],
            subtrees=state["subtrees"],
            expanded=expanded,
        )

    def timed_out() -> SearchStopped:
        return known(SearchTimeout, f"gave up at its timeout of {timeout} s")

    try:
        while True:
            before = expanded
            pieces = at_least if tasks is not None or last_iteration * 8 >= SPLIT_FROM_NODES else 1
            split = client.submit(
                _split_task, start, goal, heuristic, bound, pieces, board, directory, pure=False
            )
            running = [split]
            try:
                bound, prefixes, cut, e, g, method = split.result(timeout=remaining())
            except TimeoutError:
                raise timed_out() from None
            expanded += e
            generated += g
            state["done"], state["subtrees"] = 0, len(prefixes)
            futures = client.map(
                _search_task,
                prefixes,
                start=start,
                goal=goal,
                heuristic=heuristic,
                bound=bound,
                board=board,
                data_dir=directory,
                stop=stop,
                pure=False,
            )
            running = futures
            index = {f.key: i for i, f in enumerate(futures)}
            found: Dict[int, str] = {}
            next_bound = cut
            try:
                # Dask's as_completed is untyped: called through Any, as the client is.
                for future in cast(Any, as_completed)(futures, timeout=remaining()):
                    moves, beyond, e, g, gave_up = future.result()
                    expanded += e
                    generated += g
                    state["done"] += 1
                    if progress is not None:
                        elapsed = time.monotonic() - began
                        asked = progress(
                            {
                                "bound": bound,
                                "done": state["done"],
                                "subtrees": state["subtrees"],
                                "expanded": expanded,
                                "rate": expanded / elapsed if elapsed > 0 else 0.0,
                                "elapsed": elapsed,
                            }
                        )
                        if asked is False:
                            raise known(SearchStopped, "was stopped by its progress callback")
                    if moves is not None:
                        found[index[future.key]] = moves
                    if found and not deterministic:
                        # Any solution at this bound is optimal.
                        break
                    if found and all(futures[i].done() for i in range(min(found))):
                        # Deterministic: the earliest, once every subtree before it is done.
                        for i in range(min(found)):
                            earlier = futures[i].result()[0]
                            if earlier is not None:
                                found[i] = earlier
                        break
                    if moves is None and beyond is not None:
                        next_bound = beyond if next_bound is None else min(next_bound, beyond)
            except TimeoutError:
                raise timed_out() from None
            if found:
                first = min(found)
                return _npuzzle._solution(
                    start,
                    goal,
                    found[first],
                    f"idastar with {method} on a Dask cluster",
                    expanded,
                    generated,
                    time.monotonic() - began,
                    board=board,
                )
            if next_bound is None:
                raise _npuzzle.UnsolvableError(f"{start} cannot reach {goal}")
            bound = next_bound
            last_iteration = expanded - before
    finally:
        _stop(client, stop, running)


def _solve_whole(
    start: Any,
    goal: Any,
    client: Any,
    board: Optional[str],
    heuristic: str,
    timeout: Optional[float],
    data_dir: Optional[_Path],
    metric: Literal["stm", "mtm"],
) -> Solution:
    """``solve`` in a metric the frontier split does not cover: one task."""
    if heuristic != "auto":
        raise ValueError(
            f"heuristic={heuristic!r} is for the single-tile metric's split search; "
            f"metric={metric!r} picks its own"
        )
    directory = None if data_dir is None else os.fspath(data_dir)
    stop = _new_stop()
    future = client.submit(
        _whole_task,
        start,
        goal,
        metric,
        board=board,
        data_dir=directory,
        limit=timeout,
        stop=stop,
        pure=False,
    )
    try:
        return cast(Solution, future.result())
    finally:
        _stop(client, stop, [future])


def _whole_task(
    start: Any,
    goal: Any,
    metric: Literal["stm", "mtm"],
    *,
    board: Optional[str],
    data_dir: Optional[str],
    limit: Optional[float],
    stop: str,
) -> Solution:
    """A whole question as one task (``solve(metric="mtm")``), stopped by the call's event."""
    return _npuzzle._task_solve(
        start,
        goal,
        metric,
        board=board,
        data_dir=data_dir,
        limit=limit,
        progress=_stop_poll(stop),
    )


def _as_array(boards: Any) -> Tuple[str, Any]:
    """The kind of ``boards`` (numpy, dask, pandas, dask-dataframe) and its array."""
    import numpy as np

    module = type(boards).__module__
    if module.startswith("dask.dataframe") or module.startswith("dask_expr"):
        return "dask", boards.to_dask_array(lengths=True)
    if module.startswith("dask.array"):
        return "dask", boards
    if module.startswith("pandas"):
        return "numpy", boards.to_numpy()
    return "numpy", np.asarray(boards)


def _label_block(
    block: Any,
    goal: Any,
    board: Optional[str],
    limit: Optional[float],
    max_nodes: Optional[int],
    metric: Literal["stm", "mtm"] = "stm",
    data_dir: Optional[str] = None,
    stop: Optional[str] = None,
) -> Any:
    """One labelling task: the distances of a block of rows (a NumPy array, sent as one),
    on one thread, from the worker's databases (opened once per process and directory);
    stops when the call's ``stop`` event is set."""
    from . import _rows_as_uint8

    return _npuzzle._distances(
        _rows_as_uint8(block),
        goal,
        board=board,
        limit=limit,
        max_nodes=max_nodes,
        threads=1,
        metric=metric,
        data_dir=data_dir,
        progress=None if stop is None else _stop_poll(stop),
    )


def _per_block(
    client: Any, task: Callable[..., Any], pieces: List[Any], **options: Any
) -> List[Any]:
    """``task(piece, **options, stop=name)`` for every piece on ``client``'s workers, the
    results in the pieces' order; however the call ends (an error or an interrupt), the tasks
    not finished are cancelled and the running ones stopped (the call's stop event)."""
    stop = _new_stop()
    futures = client.map(task, pieces, pure=False, stop=stop, **options)
    try:
        return list(client.gather(futures))
    finally:
        _stop(client, stop, futures)


def distances(
    boards: Any,
    goal: Optional[_StateLike] = None,
    *,
    client: Any,
    board: Optional[str] = None,
    chunk: Optional[int] = None,
    limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    metric: Literal["stm", "mtm"] = "stm",
    data_dir: Optional[_Path] = None,
) -> npt.NDArray[np.uint8]:
    """The exact distance of every board to ``goal``, computed on ``client``'s workers.

    ``boards``: a NumPy array of shape ``(n, cells)`` (or anything ``numpy.asarray`` takes),
    a Dask array of that shape, or a pandas or Dask DataFrame with one column per cell. One
    task per ``chunk`` rows (default: 4 tasks per Dask thread, at least 1000 rows each; a
    Dask input keeps its row chunks), each sent as a uint8 array. Returns a uint8 NumPy array equal to ``npuzzle.distances(boards, goal,
    metric=metric)``; ``UNSOLVABLE`` for unsolvable rows. ``metric="mtm"`` counts a slide of
    several tiles as one move. ``data_dir``: the workers' data directory (else their
    ``$NPUZZLE_DATA_DIR`` or cache directory), opened once per worker process. An exception
    or KeyboardInterrupt cancels the tasks not started and stops the running ones within
    about a second.
    """
    import numpy as np

    directory = None if data_dir is None else os.fspath(data_dir)
    kind, array = _as_array(boards)
    if kind == "dask":
        if chunk is not None:
            array = array.rechunk({0: chunk, 1: -1})
        else:
            array = array.rechunk({1: -1})
        stop = _new_stop()
        labelled = array.map_blocks(
            _label_block,
            goal,
            board,
            limit,
            max_nodes,
            metric,
            drop_axis=1,
            dtype=np.uint8,
            data_dir=directory,
            stop=stop,
        )
        future = client.compute(labelled)
        try:
            return np.asarray(future.result())
        finally:
            _stop(client, stop, [future])
    if array.ndim != 2:
        raise TypeError(f"distances expects boards of shape (n, cells), not {array.shape}")
    size = chunk or max(
        DEFAULT_CHUNK, -(-len(array) // (LABEL_TASKS_PER_THREAD * _total_threads(client)))
    )
    pieces = [np.ascontiguousarray(array[i : i + size]) for i in range(0, len(array), size)]
    if not pieces:
        return np.zeros(0, dtype=np.uint8)
    return np.concatenate(
        _per_block(
            client,
            _label_block,
            pieces,
            goal=goal,
            board=board,
            limit=limit,
            max_nodes=max_nodes,
            metric=metric,
            data_dir=directory,
        )
    )


def _solve_block(
    rows: Sequence[Any],
    goal: Any,
    board: Optional[str],
    limit: Optional[float],
    max_nodes: Optional[int],
    metric: Literal["stm", "mtm"] = "stm",
    stop: Optional[str] = None,
) -> List[Tuple[str, str, int, int, float]]:
    """One task of ``solve_many``: plain tuples (moves, method, expanded, generated, s);
    stops when the call's ``stop`` event is set (looked at between rows and during each
    row's search)."""
    from . import solve as local

    poll = None if stop is None else _stop_poll(stop)
    out = []
    for row in rows:
        if poll is not None and not poll({}):
            raise LimitReached("solve_many: the call was cancelled")
        s = local(
            row,
            goal,
            board=board,
            limit=limit,
            max_nodes=max_nodes,
            threads=1,
            metric=metric,
            progress=poll,
        )
        out.append((s.moves, s.algorithm, s.expanded, s.generated, s.elapsed))
    return out


def solve_many(
    boards: Any,
    goal: Optional[_StateLike] = None,
    *,
    client: Any,
    board: Optional[str] = None,
    chunk: int = 100,
    limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    metric: Literal["stm", "mtm"] = "stm",
) -> List[Solution]:
    """An optimal ``Solution`` for every board, found on ``client``'s workers (``chunk``
    boards per task), its length counted in ``metric``. ``boards`` as for ``distances`` (each
    task then gets its rows as one array), or a list of states."""
    import numpy as np

    rows: Any
    if isinstance(boards, list):
        rows = boards
    else:
        kind, array = _as_array(boards)
        if kind == "dask":
            array = client.compute(array).result()
        rows = np.ascontiguousarray(np.asarray(array))
    pieces = [rows[i : i + chunk] for i in range(0, len(rows), chunk)]
    results = _per_block(
        client,
        _solve_block,
        pieces,
        goal=goal,
        board=board,
        limit=limit,
        max_nodes=max_nodes,
        metric=metric,
    )
    solutions = []
    for row, (moves, method, expanded, generated, elapsed) in zip(
        rows, (r for block in results for r in block)
    ):
        solutions.append(
            _npuzzle._solution(
                row, goal, moves, method, expanded, generated, elapsed, board=board, metric=metric
            )
        )
    return solutions
