#!/usr/bin/env python3
"""An example sliding-tile solver, to show (and test) tools/check-solver.

Reads one instance per line on stdin and writes one answer per line on stdout, in the same
order (the convention tools/check-solver documents):

  in:   START GOAL    or just START (the goal is then 1..n row-major, blank last)
  out:  the blank's moves as letters U D L R (an empty line when START is the goal),
        or the word `unsolvable`

States are written row-major with 0, _ or . as the blank, compact (`867254301`) or in rows
separated by `/` (`123/456/780`); a compact state must have a square number of cells.

The search is A* with the Manhattan distance, which never overestimates, so every answer is
optimal. Solvability is decided first by the parity invariant (tile inversions, plus the
blank's row on boards of even width).

  --flaw   switch on a deliberate bug: the heuristic is weighted by 2 (f = g + 2h), which
           makes the search faster but no longer admissible, so some answers are legal and
           reach the goal but are longer than optimal. `npuzzle verify` reports them as
           `suboptimal`.

Python 3 standard library only.
"""

import heapq
import sys


def parse_state(text):
    """Returns (width, height, tiles) for a state written compactly or in `/`-separated rows."""
    rows = text.strip().split("/")
    cells = []
    for row in rows:
        for ch in row:
            if ch in "_.":
                cells.append(0)
            elif ch.isdigit():
                cells.append(int(ch))
            else:
                raise ValueError(f"bad character {ch!r} in state {text!r}")
    if len(rows) > 1:
        width, height = len(rows[0]), len(rows)
    else:
        side = int(round(len(cells) ** 0.5))
        if side * side != len(cells):
            raise ValueError(f"{text!r}: {len(cells)} cells do not make a square board")
        width = height = side
    if sorted(cells) != list(range(width * height)):
        raise ValueError(f"{text!r} is not a permutation of 0..{width * height - 1}")
    return width, height, tuple(cells)


def parity_class(width, tiles):
    """The invariant no move changes: inversion parity, plus the blank's row on even widths."""
    values = [t for t in tiles if t != 0]
    inversions = sum(
        1 for i in range(len(values)) for j in range(i + 1, len(values)) if values[i] > values[j]
    )
    row_term = (tiles.index(0) // width) % 2 if width % 2 == 0 else 0
    return (inversions + row_term) % 2


# The blank's moves: letter, row change, column change.
MOVES = (("U", -1, 0), ("D", 1, 0), ("L", 0, -1), ("R", 0, 1))


def solve(width, height, start, goal, weight):
    """A* from start to goal; returns the blank's moves as a string."""
    where = {tile: (i // width, i % width) for i, tile in enumerate(goal)}

    def manhattan(tiles):
        total = 0
        for i, tile in enumerate(tiles):
            if tile:
                row, col = where[tile]
                total += abs(row - i // width) + abs(col - i % width)
        return total

    start_h = manhattan(start)
    # Heap entries: (f, h, tie-breaker, g, state). Preferring low h among equal f reaches the
    # goal sooner; the counter keeps the order (and so the answers) deterministic.
    frontier = [(weight * start_h, start_h, 0, 0, start)]
    best_g = {start: 0}
    parent = {start: None}
    counter = 0
    while frontier:
        _, h, _, g, state = heapq.heappop(frontier)
        if state == goal:
            break
        if g > best_g[state]:
            continue
        blank = state.index(0)
        row, col = divmod(blank, width)
        for letter, dr, dc in MOVES:
            r, c = row + dr, col + dc
            if not (0 <= r < height and 0 <= c < width):
                continue
            target = r * width + c
            tiles = list(state)
            tile = tiles[target]
            tiles[blank], tiles[target] = tile, 0
            nxt = tuple(tiles)
            ng = g + 1
            if ng < best_g.get(nxt, 1 << 30):
                best_g[nxt] = ng
                parent[nxt] = (state, letter)
                # Only the moved tile's Manhattan term changes.
                grow, gcol = where[tile]
                nh = h - (abs(grow - r) + abs(gcol - c)) + (abs(grow - row) + abs(gcol - col))
                counter += 1
                heapq.heappush(frontier, (ng + weight * nh, nh, counter, ng, nxt))
    moves = []
    state = goal
    while parent[state] is not None:
        state, letter = parent[state]
        moves.append(letter)
    return "".join(reversed(moves))


def answer(line, weight):
    parts = line.split()
    width, height, start = parse_state(parts[0])
    if len(parts) > 1:
        gw, gh, goal = parse_state(parts[1])
        if (gw, gh) != (width, height):
            raise ValueError(f"start and goal are on different boards: {line!r}")
    else:
        goal = tuple(list(range(1, width * height)) + [0])
    if parity_class(width, start) != parity_class(width, goal):
        return "unsolvable"
    return solve(width, height, start, goal, weight)


def main(argv):
    args = argv[1:]
    if any(a in ("-h", "--help") for a in args):
        print(__doc__)
        return 0
    unknown = [a for a in args if a != "--flaw"]
    if unknown:
        print(f"example_solver.py: unknown argument {unknown[0]!r} (see --help)", file=sys.stderr)
        return 2
    weight = 2 if "--flaw" in args else 1
    for line in sys.stdin:
        line = line.strip()
        if not line:
            # Keep the one-answer-per-line pairing: an empty instance gets an empty answer.
            print(flush=False)
            continue
        try:
            print(answer(line, weight))
        except ValueError as error:
            print(f"example_solver.py: {error}", file=sys.stderr)
            print("")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
