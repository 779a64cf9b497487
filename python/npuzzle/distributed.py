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
"""

from __future__ import annotations

import os
import time
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
    Union,
    cast,
)

from . import _npuzzle
from ._npuzzle import LimitReached, Solution

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from ._npuzzle import _StateLike

__all__ = ["SearchTimeout", "distances", "solve", "solve_many"]

#: Subtrees per iteration and Dask thread when ``tasks`` is not given: enough that a slow
#: worker or a large subtree does not leave the others idle, few enough that Dask's per-task
#: overhead (about a millisecond) stays small next to the work.
TASKS_PER_THREAD = 16

#: An iteration is split into tasks once the last one, times 8 (IDA*'s usual growth per
#: bound step), reaches this many nodes (seconds of work); smaller ones run as one task, since
#: a task costs milliseconds of Dask's time and an iteration a round trip.
SPLIT_FROM_NODES = 20_000_000

#: Rows per labelling task when ``chunk`` is not given.
DEFAULT_CHUNK = 1000

_Path = Union[str, "os.PathLike[str]"]


class SearchTimeout(LimitReached):
    """A distributed search ran past its ``timeout``: what is known is in the attributes.

    ``bound``: the iteration's bound (no solution is shorter); ``done`` and ``subtrees``: its
    subtrees finished and in all; ``expanded``: nodes of the finished tasks.
    """

    def __init__(self, message: str, bound: int, done: int, subtrees: int, expanded: int):
        super().__init__(message)
        self.bound = bound
        self.done = done
        self.subtrees = subtrees
        self.expanded = expanded


def _search_task(
    prefix: str,
    start: Any,
    goal: Any,
    heuristic: str,
    bound: int,
    board: Optional[str],
    data_dir: Optional[str],
) -> Tuple[Optional[str], Optional[int], int, int, bool]:
    """One subtree (a Dask task): runs on a worker, returns plain values."""
    return _npuzzle._task_search(
        start, goal, heuristic, prefix, bound, board=board, data_dir=data_dir
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
    progress: Optional[Callable[[Dict[str, Any]], None]] = None,
    data_dir: Optional[_Path] = None,
    metric: Literal["stm", "mtm"] = "stm",
) -> Solution:
    """An optimal solution from ``start`` to ``goal``, searched by IDA* on ``client``'s workers.

    ``heuristic``: ``"auto"`` (the strongest pattern databases in the workers' data directory,
    else linear conflict), ``"pdb"``, ``"linear-conflict"`` or ``"manhattan"``. ``tasks``:
    subtrees per iteration (default 16 per Dask thread, once an
    iteration is expected to pass 20 M nodes; smaller ones run as one task). ``timeout`` (seconds): past it,
    pending tasks are cancelled and ``SearchTimeout`` says the bound reached and the nodes.
    ``deterministic``: the path the one-thread search finds. ``progress`` is called after
    each task with a dict: ``bound``, ``done``, ``subtrees``, ``expanded``, ``rate`` (nodes
    per second), ``elapsed``.

    A worker that dies has its tasks rerun by Dask: the answer is the same. Interrupting the
    call (or its timeout) cancels the tasks not yet started; a running task ends with its
    subtree.

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
    expanded = generated = 0
    last_iteration = 0
    bound: Optional[int] = None
    state = {"done": 0, "subtrees": 0}

    def remaining() -> Optional[float]:
        return None if deadline is None else max(0.0, deadline - time.monotonic())

    def timed_out() -> SearchTimeout:
        return SearchTimeout(
            f"the distributed search gave up at its timeout of {timeout} s, at bound {bound} "
            f"({state['done']} of {state['subtrees']} subtrees of the iteration done, "
            f"{expanded} nodes expanded): no solution is shorter than {bound} moves",
            bound=bound if bound is not None else 0,
            done=state["done"],
            subtrees=state["subtrees"],
            expanded=expanded,
        )

    while True:
        before = expanded
        pieces = at_least if tasks is not None or last_iteration * 8 >= SPLIT_FROM_NODES else 1
        split = client.submit(
            _split_task, start, goal, heuristic, bound, pieces, board, directory, pure=False
        )
        try:
            bound, prefixes, cut, e, g, method = split.result(timeout=remaining())
        except TimeoutError:
            split.cancel()
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
            pure=False,
        )
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
                    progress(
                        {
                            "bound": bound,
                            "done": state["done"],
                            "subtrees": state["subtrees"],
                            "expanded": expanded,
                            "rate": expanded / elapsed if elapsed > 0 else 0.0,
                            "elapsed": elapsed,
                        }
                    )
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
        finally:
            client.cancel(futures)
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
    future = client.submit(
        _npuzzle._task_solve,
        start,
        goal,
        metric,
        board=board,
        data_dir=directory,
        limit=timeout,
        pure=False,
    )
    try:
        return cast(Solution, future.result())
    finally:
        future.cancel()


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
) -> Any:
    """One labelling task: the distances of a block of rows, on one thread."""
    from . import distances as local

    return local(
        block, goal, board=board, limit=limit, max_nodes=max_nodes, threads=1, metric=metric
    )


def _per_block(
    client: Any, task: Callable[..., Any], pieces: List[Any], **options: Any
) -> List[Any]:
    """``task(piece, **options)`` for every piece on ``client``'s workers, the results in the
    pieces' order; the tasks are cancelled however the call ends (an error or an interrupt
    stops the ones not yet finished)."""
    futures = client.map(task, pieces, pure=False, **options)
    try:
        return list(client.gather(futures))
    finally:
        client.cancel(futures)


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
) -> npt.NDArray[np.uint8]:
    """The exact distance of every board to ``goal``, computed on ``client``'s workers.

    ``boards``: a NumPy array of shape ``(n, cells)`` (or anything ``numpy.asarray`` takes),
    a Dask array of that shape, or a pandas or Dask DataFrame with one column per cell. One
    task per ``chunk`` rows (default 1000; a Dask input keeps its row chunks). Returns a uint8
    NumPy array equal to ``npuzzle.distances(boards, goal, metric=metric)``; ``UNSOLVABLE``
    for unsolvable rows. ``metric="mtm"`` counts a slide of several tiles as one move.
    """
    import numpy as np

    kind, array = _as_array(boards)
    if kind == "dask":
        if chunk is not None:
            array = array.rechunk({0: chunk, 1: -1})
        else:
            array = array.rechunk({1: -1})
        labelled = array.map_blocks(
            _label_block, goal, board, limit, max_nodes, metric, drop_axis=1, dtype=np.uint8
        )
        return np.asarray(client.compute(labelled).result())
    if array.ndim != 2:
        raise TypeError(f"distances expects boards of shape (n, cells), not {array.shape}")
    size = chunk or DEFAULT_CHUNK
    pieces = [array[i : i + size] for i in range(0, len(array), size)]
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
        )
    )


def _solve_block(
    rows: Sequence[Any],
    goal: Any,
    board: Optional[str],
    limit: Optional[float],
    max_nodes: Optional[int],
    metric: Literal["stm", "mtm"] = "stm",
) -> List[Tuple[str, str, int, int, float]]:
    """One task of ``solve_many``: plain tuples (moves, method, expanded, generated, s)."""
    from . import solve as local

    out = []
    for row in rows:
        s = local(
            row, goal, board=board, limit=limit, max_nodes=max_nodes, threads=1, metric=metric
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
    boards per task), its length counted in ``metric``. ``boards`` as for ``distances``, or a
    list of states."""
    import numpy as np

    if isinstance(boards, list):
        rows: List[Any] = boards
    else:
        kind, array = _as_array(boards)
        if kind == "dask":
            array = client.compute(array).result()
        rows = [list(map(int, r)) for r in np.asarray(array)]
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
