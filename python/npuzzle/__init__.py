"""Exact answers for sliding-tile puzzles: the 8-puzzle, the 15-puzzle and every board up to 5x5.

Distances and optimal solutions come from exact tables on boards of at most 12 cells (the
8-puzzle's table has every one of its 181,440 states; it is built in milliseconds on first use
and saved), and from an optimal search on larger boards (IDA* with additive pattern databases:
on 4x4 the 6-6-3 databases, built on first use, or 7-8 where built). The same
library answers the ``npuzzle`` command line, so both always agree.

States are written as the CLI reads them -- ``"123456780"``, ``"1 2 3 4 5 6 7 8 0"``,
``"1,2,3,4,5,6,7,8,0"``, ``"123/456/780"``, with ``0``, ``_`` or ``.`` for the blank -- or
given as a sequence of ints (row-major) or of rows. Moves name the direction the *blank*
moves: ``U D L R``.

Tables are kept in ``$NPUZZLE_DATA_DIR``, else the platform's cache directory
(``~/.cache/npuzzle`` on Linux, ``~/Library/Caches/npuzzle`` on macOS,
``%LOCALAPPDATA%\\npuzzle`` on Windows); with neither, or where that directory may not be used,
they are built in memory (``data_dir()`` says which). ``Table(data_dir=...)``
uses another directory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Optional

from ._npuzzle import (
    UNSOLVABLE as UNSOLVABLE,
    Instance as Instance,
    LimitReached as LimitReached,
    NpuzzleError as NpuzzleError,
    Solution as Solution,
    Table as Table,
    TableError as TableError,
    UnsolvableError as UnsolvableError,
    Verdict as Verdict,
    __version__ as __version__,
    _distances,
    build as build,
    data_dir as data_dir,
    distance as distance,
    is_solvable as is_solvable,
    sample as sample,
    solve as solve,
    tiles as tiles,
    verify as verify,
    verify_all as verify_all,
)

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from ._npuzzle import _StateLike

__all__ = [
    "UNSOLVABLE",
    "Instance",
    "LimitReached",
    "NpuzzleError",
    "Solution",
    "Table",
    "TableError",
    "UnsolvableError",
    "Verdict",
    "build",
    "data_dir",
    "distance",
    "distances",
    "is_solvable",
    "sample",
    "solve",
    "tiles",
    "verify",
    "verify_all",
]


def distances(
    states: npt.ArrayLike,
    goal: Optional[_StateLike] = None,
    *,
    board: Optional[str] = None,
    limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    threads: Optional[int] = None,
    metric: Literal["stm", "mtm"] = "stm",
) -> npt.NDArray[np.uint8]:
    """The exact distance of every row of ``states`` to ``goal``, as a uint8 NumPy array.

    ``states`` is an array (or anything ``numpy.asarray`` takes) of shape ``(n, cells)``, one
    state per row, tiles row-major with 0 for the blank; the board is square from the number of
    columns, else ``board="WxH"``. Unsolvable rows give ``UNSOLVABLE`` (255). The rows are
    answered in parallel on every core with the GIL released (on ``threads`` threads where
    given: a Dask worker's task passes 1, so a worker runs as many as it has Dask threads).

    Integer arrays of another dtype are converted when every value fits a byte (a copy): the
    natural ``numpy.array([[1, 2, ...]])`` is int64. Raises ``TypeError`` for other dtypes or
    shapes, ``ValueError`` naming the first malformed row, ``LimitReached`` when a search
    (boards over 12 cells) reaches ``limit`` seconds or ``max_nodes`` for a row.

    ``metric="mtm"`` counts a slide of several tiles along a row or column as one move (the
    MTM table on boards of at most 12 cells, one row at a time; an MTM search elsewhere).
    """
    return _distances(
        _rows_as_uint8(states),
        goal,
        board=board,
        limit=limit,
        max_nodes=max_nodes,
        threads=threads,
        metric=metric,
    )


def _rows_as_uint8(states: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """``states`` as the 2-D uint8 array the native ``_distances`` reads (a copy only where
    the dtype differs), or TypeError/ValueError saying why not."""
    import numpy as np

    array = np.asarray(states)
    if array.ndim != 2:
        raise TypeError(
            f"distances expects an array of shape (n, cells), not one of shape {array.shape}"
        )
    if array.dtype != np.uint8:
        if array.dtype.kind not in "iu":
            raise TypeError(f"distances expects an integer array (uint8), not {array.dtype}")
        if array.size and (array.min() < 0 or array.max() > 255):
            raise ValueError("distances: a value is not a tile number (0 to 255 fit a uint8)")
        array = array.astype(np.uint8)
    return array
