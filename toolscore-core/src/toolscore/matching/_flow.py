"""Maximum bipartite matching between groups of interchangeable calls.

Why groups: a trace often repeats the same call (``list_files()`` twenty times). Calls with
identical arguments have identical neighbourhoods, so each side is compressed into groups with
a multiplicity, and the matching becomes a maximum flow ``source → left group (capacity =
size) → right group → sink (capacity = size)``. It is solved with Dinic's algorithm (BFS
levels, then blocking flows along shortest augmenting paths; on unit capacities this is
Hopcroft–Karp), iteratively so that long alternating paths never hit the recursion limit.

The answer is optimal (a maximum matching), never greedy first-fit: an early left group never
keeps a right group that a later one needs when an augmenting path can free it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

__all__ = ["max_group_matching"]


def max_group_matching(
    left_sizes: Sequence[int],
    right_sizes: Sequence[int],
    edges: Sequence[Sequence[int]],
) -> list[dict[int, int]]:
    """How many members of each left group pair with each right group, in a maximum matching.

    :param left_sizes: members per left group.
    :param right_sizes: members per right group.
    :param edges: ``edges[i]`` lists the right groups left group ``i`` may pair with.
    :returns: per left group, ``{right group: count}`` (only positive counts).
    """
    n_left, n_right = len(left_sizes), len(right_sizes)
    source, sink = n_left + n_right, n_left + n_right + 1
    n_nodes = sink + 1
    to: list[int] = []
    cap: list[int] = []
    adj: list[list[int]] = [[] for _ in range(n_nodes)]

    def add(u: int, v: int, c: int) -> int:
        adj[u].append(len(to))
        to.append(v)
        cap.append(c)
        adj[v].append(len(to))
        to.append(u)
        cap.append(0)
        return len(to) - 2

    big = sum(left_sizes) + 1
    for i, size in enumerate(left_sizes):
        add(source, i, size)
    for j, size in enumerate(right_sizes):
        add(n_left + j, sink, size)
    pair_edges: list[tuple[int, int, int]] = []
    for i, rights in enumerate(edges):
        for j in rights:
            pair_edges.append((i, j, add(i, n_left + j, big)))

    _warm_start(n_left, left_sizes, right_sizes, edges, pair_edges, cap, adj, to, source, sink)
    _dinic(n_nodes, source, sink, to, cap, adj)

    out: list[dict[int, int]] = [{} for _ in range(n_left)]
    for i, j, edge in pair_edges:
        flow = cap[edge ^ 1]
        if flow:
            out[i][j] = out[i].get(j, 0) + flow
    return out


def _warm_start(
    n_left: int,
    left_sizes: Sequence[int],
    right_sizes: Sequence[int],
    edges: Sequence[Sequence[int]],
    pair_edges: list[tuple[int, int, int]],
    cap: list[int],
    adj: list[list[int]],
    to: list[int],
    source: int,
    sink: int,
) -> None:
    """Push a greedy flow first (most of the answer on realistic inputs), then Dinic repairs it."""
    free_right = list(right_sizes)
    free_left = list(left_sizes)
    for i, j, edge in pair_edges:
        amount = min(free_left[i], free_right[j])
        if amount <= 0:
            continue
        free_left[i] -= amount
        free_right[j] -= amount
        cap[edge] -= amount
        cap[edge ^ 1] += amount
    # source -> left and right -> sink edges are the first ones added, in order.
    for i in range(n_left):
        used = left_sizes[i] - free_left[i]
        edge = 2 * i
        cap[edge] -= used
        cap[edge ^ 1] += used
    for j in range(len(right_sizes)):
        used = right_sizes[j] - free_right[j]
        edge = 2 * (n_left + j)
        cap[edge] -= used
        cap[edge ^ 1] += used


def _dinic(
    n_nodes: int, source: int, sink: int, to: list[int], cap: list[int], adj: list[list[int]]
) -> None:
    while True:
        level = [-1] * n_nodes
        level[source] = 0
        queue = deque([source])
        while queue:
            u = queue.popleft()
            for edge in adj[u]:
                if cap[edge] > 0 and level[to[edge]] < 0:
                    level[to[edge]] = level[u] + 1
                    queue.append(to[edge])
        if level[sink] < 0:
            return
        pointer = [0] * n_nodes
        while _augment(source, sink, to, cap, adj, level, pointer):
            pass


def _augment(
    source: int,
    sink: int,
    to: list[int],
    cap: list[int],
    adj: list[list[int]],
    level: list[int],
    pointer: list[int],
) -> bool:
    """One augmenting path along the level graph (iterative DFS); ``False`` when blocked."""
    path: list[int] = []  # edges from the source
    node = source
    while True:
        if node == sink:
            amount = min(cap[edge] for edge in path)
            for edge in path:
                cap[edge] -= amount
                cap[edge ^ 1] += amount
            return True
        edges = adj[node]
        advanced = False
        while pointer[node] < len(edges):
            edge = edges[pointer[node]]
            nxt = to[edge]
            if cap[edge] > 0 and level[nxt] == level[node] + 1:
                path.append(edge)
                node = nxt
                advanced = True
                break
            pointer[node] += 1
        if advanced:
            continue
        # dead end: retreat
        level[node] = -1
        if not path:
            return False
        edge = path.pop()
        node = to[edge ^ 1]
        pointer[node] += 1
