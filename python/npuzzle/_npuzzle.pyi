"""Type stubs of the native module ``npuzzle._npuzzle`` (re-exported by ``npuzzle``)."""

from __future__ import annotations

import os
import pathlib
from typing import Any, Callable, Dict, Iterable, List, Literal, Optional, Sequence, Tuple, Union, final

import numpy as np
import numpy.typing as npt

#: A state: a string as the CLI reads it ("123456780", "1 2 3 4 5 6 7 8 0",
#: "1,2,3,4,5,6,7,8,0", "123/456/780", "_" or "." for the blank), a sequence of ints
#: (row-major, 0 the blank), or a sequence of rows.
_StateLike = Union[str, Sequence[int], Sequence[Sequence[int]]]
#: A solver's moves: "RRD", "r,r,d", "right right down", ["R", "R", "D"]; None: "no solution".
_MovesLike = Union[str, Sequence[str], None]
#: A search's progress callback: called with a dict (`bound`, `expanded`, `rate`, `elapsed`,
#: `done`, `subtrees`); returning False (exactly) stops the search, any other value goes on.
_ProgressCallback = Callable[[Dict[str, Any]], object]

__all__ = [
    "Instance",
    "LimitReached",
    "NpuzzleError",
    "Solution",
    "Table",
    "TableError",
    "UNSOLVABLE",
    "UnsolvableError",
    "Verdict",
    "__version__",
    "_distances",
    "_solution",
    "_task_search",
    "_task_solve",
    "_task_split",
    "build",
    "data_dir",
    "distance",
    "is_solvable",
    "sample",
    "solve",
    "tiles",
    "verify",
    "verify_all",
]

__version__: str
#: The value `distances` gives an unsolvable row.
UNSOLVABLE: int

class NpuzzleError(Exception):
    """Base class of npuzzle's own exceptions."""

class UnsolvableError(NpuzzleError):
    """The start cannot reach the goal, so there is no distance or solution."""

class LimitReached(NpuzzleError):
    """A search reached its `limit` (seconds) or `max_nodes`, or was stopped by its `progress` callback, before finding the answer."""

class TableError(NpuzzleError):
    """An exact table could not be opened or built, or is damaged."""

#: A solution's guarantee as `solve(within=...)` takes it: a factor (1.2, "1.2"), "optimal",
#: "within 1.2" or "none".
_WithinLike = Union[float, int, str, None]

@final
class Solution:
    """A solution: the blank's moves and the states along them, optimal unless `guarantee`
    says otherwise. A value: equal solutions compare equal, it pickles, copies and its repr
    reads back."""

    def __new__(
        cls,
        moves: str,
        states: List[str],
        algorithm: str,
        expanded: int = 0,
        generated: int = 0,
        elapsed: float = 0.0,
        metric: Literal["stm", "mtm"] = "stm",
        guarantee: str = "optimal",
        start: Optional[str] = None,
        goal: Optional[str] = None,
    ) -> Solution: ...
    @property
    def moves(self) -> str:
        """The blank's moves, one letter each (U, D, L, R); under MTM a run of equal letters
        is one move."""
    @property
    def states(self) -> List[str]:
        """The states from the start to the goal (one more than the moves); empty on boards
        beyond 5x5, whose states are not kept (replay `moves` from `start`)."""
    @property
    def start(self) -> str:
        """The start, as a string every function here reads back."""
    @property
    def goal(self) -> str:
        """The goal, as a string every function here reads back."""
    @property
    def metric(self) -> Literal["stm", "mtm"]:
        """How the moves are counted."""
    @property
    def guarantee(self) -> str:
        """"optimal", "within FACTOR" (at most that factor times the optimum) or "none"."""
    @property
    def length(self) -> int:
        """The number of moves counted in `metric`."""
    @property
    def distance(self) -> Optional[int]:
        """The exact distance (`length`) where the solution is optimal, else None."""
    @property
    def algorithm(self) -> str:
        """How it was found: "table", or the search."""
    @property
    def expanded(self) -> int:
        """Nodes expanded (for a table's path: the states along it)."""
    @property
    def generated(self) -> int:
        """Successors generated (for a table's path: the neighbours read)."""
    @property
    def elapsed(self) -> float:
        """Seconds spent searching (0.0 for a table answer)."""
    def __len__(self) -> int: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __getnewargs_ex__(self) -> Tuple[Tuple[()], Dict[str, Any]]: ...

@final
class Verdict:
    """The verdict on one answer, with its details. A value, like Solution."""

    def __new__(
        cls,
        *,
        name: str,
        passed: bool,
        text: str,
        algorithm: str,
        detail: Optional[str] = None,
        exact: Optional[int] = None,
        solvable: Optional[bool] = None,
        by: Optional[int] = None,
        step: Optional[int] = None,
    ) -> Verdict: ...

    @property
    def name(self) -> str:
        """optimal, correct-unsolvable, suboptimal, wrong-length, wrong-end, illegal-move,
        false-unsolvable, false-solution, malformed, unverified, within-guarantee or
        broken-guarantee."""
    @property
    def passed(self) -> bool:
        """Whether the answer passes: optimal, or rightly unsolvable."""
    @property
    def detail(self) -> Optional[str]:
        """What is wrong, in one line; None when it passes."""
    @property
    def exact(self) -> Optional[int]:
        """The exact distance, where it was needed and known."""
    @property
    def solvable(self) -> Optional[bool]:
        """Whether the pair has a solution; None when not needed or not found."""
    @property
    def by(self) -> Optional[int]:
        """Moves longer than optimal (suboptimal, and within-guarantee where known)."""
    @property
    def step(self) -> Optional[int]:
        """The 1-based move at fault (illegal-move only)."""
    @property
    def algorithm(self) -> str:
        """How it was decided: "table", a search, or "parity and replay"."""
    @property
    def text(self) -> str:
        """The verdict in one line, as str(verdict) gives it."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __getnewargs_ex__(self) -> Tuple[Tuple[()], Dict[str, Any]]: ...

@final
class Instance:
    """One drawn instance. A value, like Solution."""

    def __new__(
        cls, start: str, goal: str, solvable: bool, distance: Optional[int] = None
    ) -> Instance: ...

    @property
    def start(self) -> str:
        """The start, spelled as `npuzzle sample` writes it."""
    @property
    def goal(self) -> str:
        """The goal, spelled as `npuzzle sample` writes it."""
    @property
    def solvable(self) -> bool:
        """Whether the start can reach the goal."""
    @property
    def distance(self) -> Optional[int]:
        """The exact distance; None when unsolvable or drawn without a table."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __getnewargs_ex__(self) -> Tuple[Tuple[()], Dict[str, Any]]: ...

@final
class Table:
    """The exact table serving one goal in one metric, opened (or built and saved) in a data
    directory."""

    def __new__(
        cls,
        goal: Optional[_StateLike] = None,
        *,
        board: Optional[str] = None,
        data_dir: Optional[Union[str, os.PathLike[str]]] = None,
        metric: Literal["stm", "mtm"] = "stm",
    ) -> Table:
        """Opens the table serving `goal` (default: the board's goal; `board` default 3x3),
        building and saving it on first use, in `data_dir` (default: see `data_dir()`).
        `metric="mtm"`: the MTM table (a slide of several tiles is one move), in its own
        file."""
    def distance(self, start: _StateLike) -> int:
        """The exact number of moves from `start` to the table's goal."""
    def solve(self, start: _StateLike) -> Solution:
        """An optimal solution from `start` to the table's goal."""
    def histogram(self) -> List[int]:
        """How many states lie at each distance 0..max_depth from the goal."""
    @property
    def goal(self) -> str: ...
    @property
    def board(self) -> str:
        """The board, as WxH."""
    @property
    def metric(self) -> Literal["stm", "mtm"]:
        """How the table counts moves."""
    @property
    def max_depth(self) -> int: ...
    @property
    def states(self) -> int:
        """How many states can reach the goal (cells! / 2)."""
    @property
    def data_dir(self) -> Optional[pathlib.Path]:
        """The directory the table was looked for in; None: built in memory."""
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __getnewargs_ex__(self) -> Tuple[Tuple[()], Dict[str, Any]]: ...

def distance(
    start: _StateLike,
    goal: Optional[_StateLike] = None,
    *,
    board: Optional[str] = None,
    limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    threads: Optional[int] = None,
    deterministic: bool = False,
    metric: Literal["stm", "mtm"] = "stm",
    progress: Optional[_ProgressCallback] = None,
) -> int:
    """The exact number of moves from `start` to `goal` (default: tiles in order, blank last). An IDA* search runs on `threads` threads (default: every core; `RAYON_NUM_THREADS`
    caps it), optimal either way; `deterministic=True` returns the one-thread search's path.
    `metric="mtm"` counts a slide of several tiles along a row or column as one move.
    `progress`: as for `solve`."""

def solve(
    start: _StateLike,
    goal: Optional[_StateLike] = None,
    *,
    board: Optional[str] = None,
    limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    threads: Optional[int] = None,
    deterministic: bool = False,
    metric: Literal["stm", "mtm"] = "stm",
    within: _WithinLike = None,
    progress: Optional[_ProgressCallback] = None,
) -> Solution:
    """An optimal solution from `start` to `goal`. An IDA* search runs on `threads` threads (default: every core; `RAYON_NUM_THREADS`
    caps it), optimal either way; `deterministic=True` returns the one-thread search's path.
    `metric="mtm"`: optimal in the multi-tile metric. `within=1.2`: at most 1.2 times the
    optimum (weighted IDA* on 4x4 and 5x5); `within="none"`: the constructive solver, any
    size. Boards beyond 5x5 (up to 64x64) get the constructive solver's solution.

    A search (no table for the board) runs on a thread of its own with the GIL released; the
    calling thread wakes every 0.1 s, and Ctrl-C (KeyboardInterrupt) stops the search.
    `progress`, if given, is then called on the calling thread, with the GIL held, with the
    search's latest report: a dict of `bound` (the iteration's bound on g + h; no solution is
    shorter than an earlier one), `expanded` (nodes so far), `rate` (nodes per second),
    `elapsed` (seconds), and for a search on several threads `done` of `subtrees` (the share
    of the iteration done; None on one thread). Returning False (exactly; None goes on) stops
    the search, and LimitReached is raised; an exception raised by `progress` also stops it,
    and is raised from `solve`. A table's answer (boards up to 12 cells) never calls it."""

def is_solvable(
    start: _StateLike, goal: Optional[_StateLike] = None, *, board: Optional[str] = None
) -> bool:
    """Whether `start` can reach `goal` (by parity, at once, on any board)."""

def tiles(state: _StateLike, *, board: Optional[str] = None) -> Tuple[int, ...]:
    """The tiles of `state` row-major, 0 the blank."""

def verify(
    start: _StateLike,
    goal: Optional[_StateLike],
    moves: _MovesLike,
    *,
    board: Optional[str] = None,
    limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    metric: Literal["stm", "mtm"] = "stm",
    guarantee: _WithinLike = None,
) -> Verdict:
    """Judges a solver's answer (`moves`, or None for "no solution"), lengths in `metric`,
    held to the `guarantee` it states ("optimal", a factor such as 1.2, or "none")."""

def verify_all(
    answers: Iterable[Tuple[_StateLike, Optional[_StateLike], _MovesLike]],
    *,
    board: Optional[str] = None,
    limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    metric: Literal["stm", "mtm"] = "stm",
) -> List[Verdict]:
    """Judges many (start, goal, moves) answers at once, in parallel; verdicts in order."""

def sample(
    *,
    count: int = 10,
    seed: Optional[int] = None,
    depth: Optional[int] = None,
    min_depth: Optional[int] = None,
    max_depth: Optional[int] = None,
    unsolvable: int = 0,
    goal: Optional[_StateLike] = None,
    board: Optional[str] = None,
    metric: Literal["stm", "mtm"] = "stm",
    scramble: Optional[Literal["uniform", "walk"]] = None,
    moves: int = 100,
) -> List[Instance]:
    """Draws instances, reproducibly: the same as `npuzzle sample --seed SEED` (with
    `--metric`, `--scramble`, `--moves`). `scramble` draws by a scrambler instead of by depth,
    on any board up to 64x64 (distances None)."""

def data_dir() -> Optional[pathlib.Path]:
    """The module functions' data directory, or None (tables in memory)."""

def build(
    what: str = "table",
    *,
    board: Optional[str] = None,
    goal: Optional[_StateLike] = None,
    all_blanks: bool = False,
    metric: Literal["stm", "mtm"] = "stm",
    data_dir: Optional[Union[str, os.PathLike[str]]] = None,
    threads: Optional[int] = None,
    progress: Optional[Callable[[int, int, str], object]] = None,
) -> List[pathlib.Path]:
    """Builds and saves what the command line's `npuzzle build` builds, returning the paths
    written.

    `what`: "table" (the exact table serving `goal` on a board of at most 12 cells; `board`
    default 3x3; `all_blanks=True`: one table per blank cell; `metric="mtm"`: the MTM table,
    a slide of several tiles one move, saved as `mtm-<name>.npt`, which `Table(...,
    metric="mtm")` and `metric="mtm"` questions then open), or a partition's pattern
    databases: "5-5-5", "6-6-3", "7-8" (4x4) or "6-6-6-6" (5x5), for `goal` (default: tiles
    in order, blank last; the blank must be in a corner). Files go into `data_dir` (default:
    `data_dir()`; ValueError when there is none or it may not be used). Each file is checked
    deeply before it is saved, atomically.

    `progress(done, total, label)` is called on the calling thread with the GIL held, after
    each table and after each layer of a database: `done` of `total` states (tables) or
    placements (databases), and what is being built. The build itself runs with the GIL
    released. An exception raised by `progress`, or KeyboardInterrupt, stops the build at its
    next report (nothing partial is saved) and is raised from `build`. `threads`: the
    generator's threads (default: every core). Raises ValueError (also for `metric="mtm"`
    with a partition: the MTM search builds its own databases in memory), TableError.
    """

def _distances(
    states: npt.NDArray[np.uint8],
    goal: Optional[_StateLike] = None,
    *,
    board: Optional[str] = None,
    limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    threads: Optional[int] = None,
    metric: Literal["stm", "mtm"] = "stm",
    data_dir: Optional[Union[str, os.PathLike[str]]] = None,
    progress: Optional[_ProgressCallback] = None,
) -> npt.NDArray[np.uint8]: ...
def _task_split(
    start: _StateLike,
    goal: Optional[_StateLike],
    heuristic: str,
    bound: Optional[int],
    at_least: int,
    *,
    board: Optional[str] = None,
    data_dir: Optional[Union[str, os.PathLike[str]]] = None,
) -> Tuple[int, List[str], Optional[int], int, int, str]:
    """One IDA* iteration's split: (bound, prefixes, cut, expanded, generated, method)."""
def _task_search(
    start: _StateLike,
    goal: Optional[_StateLike],
    heuristic: str,
    prefix: str,
    bound: int,
    *,
    board: Optional[str] = None,
    data_dir: Optional[Union[str, os.PathLike[str]]] = None,
    max_nodes: Optional[int] = None,
    limit: Optional[float] = None,
    progress: Optional[_ProgressCallback] = None,
) -> Tuple[Optional[str], Optional[int], int, int, bool]:
    """One subtree's search: (moves, next, expanded, generated, gave_up); `progress`'s False
    stops it (gave_up)."""
def _task_solve(
    start: _StateLike,
    goal: Optional[_StateLike],
    metric: Literal["stm", "mtm"],
    *,
    board: Optional[str] = None,
    data_dir: Optional[Union[str, os.PathLike[str]]] = None,
    limit: Optional[float] = None,
    max_nodes: Optional[int] = None,
    progress: Optional[_ProgressCallback] = None,
) -> Solution:
    """A whole question on one worker, in `metric`; `progress`'s False stops it."""
def _solution(
    start: _StateLike,
    goal: Optional[_StateLike],
    moves: str,
    method: str,
    expanded: int,
    generated: int,
    elapsed: float,
    *,
    board: Optional[str] = None,
    metric: Literal["stm", "mtm"] = "stm",
) -> Solution:
    """The Solution of a distributed search, its moves checked."""
