#!/usr/bin/env python3
"""The per-instance table of Korf and Felner's fifty 24-puzzles for BENCHMARKS.md.

Reads the instances with their published lengths and node counts (data/korf50_24.txt,
Korf and Felner 2002, 6-6-6-6 with the reflected lookup) and the runner's results
(data/korf50_24-results.txt: id, length, nodes generated, seconds, moves) and prints one
Markdown row per instance, easiest first by published nodes: our length against the
published one, our nodes, the published nodes, their ratio, the seconds the runner counted
and the node rate; instances not yet solved show their published figures only. A last row
sums the solved ones. tests/korf50_results.rs checks that BENCHMARKS.md holds exactly this
output, so the table follows the results file.

    python3 tools/korf50-report.py
"""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def rows(path):
    """The file's data lines split on whitespace, comments and blank lines skipped."""
    with open(os.path.join(ROOT, path)) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                yield line.split()


def number(n):
    """An integer with thousands separators."""
    return f"{n:,}"


def main():
    published = {}
    for f in rows("data/korf50_24.txt"):
        # id, 25 tiles, optimal length, Manhattan, published nodes.
        published[int(f[0])] = (int(f[26]), int(f[28]))
    solved = {}
    for f in rows("data/korf50_24-results.txt"):
        solved[int(f[0])] = (int(f[1]), int(f[2]), float(f[3]))
    print("| id | length (published) | nodes generated | published nodes | ratio | seconds | node rate |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    total_nodes = total_published = 0
    total_seconds = 0.0
    for id_, (length, pub) in sorted(published.items(), key=lambda kv: kv[1][1]):
        if id_ in solved:
            ours, nodes, seconds = solved[id_]
            mark = "" if ours == length else " **differs**"
            print(
                f"| {id_} | {ours} ({length}){mark} | {number(nodes)} | {number(pub)} "
                f"| {nodes / pub:.2f} | {number(round(seconds))} "
                f"| {nodes / seconds / 1e6:.1f} M/s |"
            )
            total_nodes += nodes
            total_published += pub
            total_seconds += seconds
        else:
            print(f"| {id_} | ({length}) | not yet | {number(pub)} | | | |")
    rate = total_nodes / total_seconds / 1e6 if total_seconds else 0.0
    ratio = total_nodes / total_published if total_published else 0.0
    print(
        f"| {len(solved)} of {len(published)} solved | | {number(total_nodes)} "
        f"| {number(total_published)} | {ratio:.2f} | {number(round(total_seconds))} "
        f"| {rate:.1f} M/s |"
    )


if __name__ == "__main__":
    main()
