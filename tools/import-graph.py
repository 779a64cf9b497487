#!/usr/bin/env python3
"""The library's module import graph, read from the source: which module imports which.

A node is a top-level module of src/ (a file, or a folder taken whole), except under
src/cli/, where each file (and src/cli/serve/ as one) is a node of its own; src/cli/mod.rs,
the dispatcher, is not one. An edge runs from a
module to each module it names by `crate::...` (library) or `super::...` (within cli), or by
`npuzzle::...` from the command line; comments and doc comments are skipped. A `#[cfg(test)]`
module at the end of a file counts too: tests may not import upward either.

Prints the modules layer by layer (layer 0 imports nothing of the crate; a module sits one
layer above the highest module it imports) and every circle. With --check, exits 1 when there
is a circle, so a test or CI keeps the picture in ARCHITECTURE.md true.

    python3 tools/import-graph.py [--check] [--dot]
"""
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
PATH = re.compile(r"\b(crate|super|npuzzle)::([a-z_][a-z0-9_]*)(?:::([a-z_][a-z0-9_]*))?")
USE_GROUP = re.compile(r"\b(crate|npuzzle)::\{([^}]*)\}", re.S)


def node_of(rel):
    """The node a source file (relative to src/) belongs to."""
    parts = rel[:-3].split(os.sep)
    if parts[0] == "cli" and len(parts) > 1:
        if parts[1] == "serve":
            return "cli/serve"
        # cli/mod.rs is the dispatcher: it names every command module, and they take the
        # shared Context and Failure from it, as children take from their parent.
        return None if parts[1] == "mod" else "cli/" + parts[1]
    if parts[0] in ("lib", "main"):
        return None
    return parts[0]


def code_lines(text):
    """The text without comments (line and block) and string literals' contents."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    out = []
    for line in text.splitlines():
        stripped = line.lstrip()
        if stripped.startswith("//"):
            continue
        out.append(re.sub(r'"(?:\\.|[^"\\])*"', '""', line.split(" //")[0]))
    return "\n".join(out)


def rust_files():
    """(path, path relative to src/, node) of every .rs file under src/ that is a node."""
    for dirpath, _, files in os.walk(ROOT):
        for name in files:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, ROOT)
            node = node_of(rel)
            if node is not None:
                yield path, rel, node


def graph():
    nodes = set()
    edges = {}
    library = set()
    for _, _, node in rust_files():
        nodes.add(node)
        if not node.startswith("cli"):
            library.add(node)
    for path, rel, node in rust_files():
        text = code_lines(open(path, encoding="utf-8").read())
        targets = set()
        for root, first, _ in PATH.findall(text):
            targets.update(resolve(node, rel, root, first, nodes))
        for root, group in USE_GROUP.findall(text):
            for item in group.split(","):
                first = item.strip().split("::")[0].split(" ")[0]
                if first:
                    targets.update(resolve(node, rel, root, first, nodes))
        targets.discard(node)
        edges.setdefault(node, set()).update(targets)
    return nodes, edges


def resolve(node, rel, root, first, nodes):
    if root in ("crate", "npuzzle"):
        if root == "npuzzle" and not node.startswith("cli"):
            return []
        return [first] if first in nodes else []
    # super:: inside cli files names a sibling cli module.
    if node.startswith("cli/") and rel.count(os.sep) == 1:
        return ["cli/" + first] if "cli/" + first in nodes else []
    return []


def cycles(nodes, edges):
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def layers(nodes, edges, circles):
    in_circle = {v for c in circles for v in c}
    layer = {}

    def depth(v, seen):
        if v in layer:
            return layer[v]
        if v in seen:
            return 0
        seen.add(v)
        below = [depth(w, seen) for w in edges.get(v, ()) if w not in in_circle or v not in in_circle]
        seen.discard(v)
        layer[v] = 1 + max(below) if below else 0
        return layer[v]

    for v in nodes:
        depth(v, set())
    return layer


def main():
    nodes, edges = graph()
    circles = cycles(nodes, edges)
    layer = layers(nodes, edges, circles)
    if "--dot" in sys.argv:
        print("digraph imports {")
        for v in sorted(nodes):
            for w in sorted(edges.get(v, ())):
                print(f'  "{v}" -> "{w}";')
        print("}")
        return 0
    top = max(layer.values(), default=0)
    for level in range(top, -1, -1):
        here = sorted(v for v in nodes if layer[v] == level)
        print(f"{level:2}  " + "  ".join(here))
    print(f"{len(nodes)} modules on {top + 1} layers")
    for circle in circles:
        print("circle: " + " <-> ".join(circle))
    if not circles:
        print("no circle")
    return 1 if circles and "--check" in sys.argv else 0


if __name__ == "__main__":
    sys.exit(main())
