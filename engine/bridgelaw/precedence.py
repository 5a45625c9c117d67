"""Precedence between provisions, checked as a compiler checks a call graph.

A provision's ``overrides`` names the provisions it takes precedence over
when both apply (condonation over the penalty; a later revoke over the first;
the dummy's forfeiture). The referee lets only a provision that is not itself
overridden override others, so the graph must be a DAG whose edges join
provisions that can meet. Each of these is a load error quoting both places:

- an override of an id no provision of the code has (with "did you mean");
- a provision that overrides itself;
- an override of a provision that never answers the same kind of irregularity
  (it could never apply beside it: the override says nothing, or names the
  wrong provision);
- overrides that go round in a circle (a overrides b overrides a): which
  stands would depend on the order the referee met them in.
"""

from __future__ import annotations

from typing import Any, Mapping

from .errors import LawFileError, did_you_mean
from .yamlsrc import Source

__all__ = ["check_precedence"]

Placed = Mapping[str, tuple[Any, Source, tuple[Any, ...]]]  # id -> (Provision, its file, its key)


def _where(src: Source, key: tuple[Any, ...]) -> str:
    m = src.mark(key)
    return f"{src.path}:{m.line}"


def check_precedence(placed: Placed) -> None:
    """Refuse a code whose overrides are unknown, reflexive, between provisions of no common kind, or cyclic."""
    for pid, (prov, src, key) in placed.items():
        for j, other in enumerate(prov.overrides):
            at = key + ("overrides", j)
            if other == pid:
                raise src.error(at, f"provision {pid!r} overrides itself: it would set aside its own remedy")
            if other not in placed:
                raise src.error(at, f"'overrides' names unknown provision {other!r}" + did_you_mean(other, placed))
            target, tsrc, tkey = placed[other]
            if not set(prov.kinds) & set(target.kinds):
                raise src.error(at, f"{pid!r} overrides {other!r}, but they never answer the same kind of "
                                f"irregularity ({pid}: {', '.join(prov.kinds)}; {other}, at {_where(tsrc, tkey)}: "
                                f"{', '.join(target.kinds)}), so they can never both apply")
            if prov.overrides.index(other) != j:
                raise src.error(at, f"'overrides' names {other!r} twice")
    _check_cycles(placed)


def _check_cycles(placed: Placed) -> None:
    """Depth-first, with an explicit stack (a long chain must not exhaust Python's)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in placed:
        if state.get(start):
            continue
        path: list[str] = []
        stack: list[tuple[str, int]] = [(start, 0)]
        while stack:
            node, i = stack.pop()
            if i == 0:
                state[node] = 1
                path.append(node)
            edges = placed[node][0].overrides
            if i < len(edges):
                stack.append((node, i + 1))
                nxt = edges[i]
                if state.get(nxt) == 1:
                    _cycle_error(placed, path[path.index(nxt):] + [nxt])
                if not state.get(nxt):
                    stack.append((nxt, 0))
            else:
                state[node] = 2
                path.pop()


def _cycle_error(placed: Placed, cycle: list[str]) -> None:
    first, src, key = placed[cycle[0]]
    j = first.overrides.index(cycle[1])
    steps = " overrides ".join(f"{pid} ({_where(placed[pid][1], placed[pid][2])})" for pid in cycle)
    raise src.error(key + ("overrides", j), f"overrides go round in a circle: {steps}; which applies would depend "
                    "on the order they are met in. Only one may take precedence over the other", LawFileError)
