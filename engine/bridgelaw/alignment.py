"""Align the laws of two editions, one to one where a law kept its place or its words, n to m where
a law was split or laws were merged.

1. **Pairs**, best first: two laws of the same number that share a topic and still read alike, or two
   laws that share a topic and read much alike wherever they are printed (a renumbered law).
2. **Splits and merges**: a law left without a partner whose words, in runs of three or more, are
   largely found in a law of the other edition that shares a topic joins that law's group (1912 law 2,
   "A game consists of thirty points…", and law 3 are one law, 4, in 1913).
3. What is left was **added** or **removed**. Laws missing from every source are not aligned.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .loader import Code, Law
from .textdiff import containment, similarity

__all__ = ["LawGroup", "align"]

SAME_NUMBER = 0.2  # two laws of one number sharing a topic pair from this similarity
RENUMBERED = 0.35  # two laws sharing a topic pair wherever they are printed from this similarity
ALIKE = 0.45  # two laws of one number pair from this similarity whatever their topics
CONTAINED = 0.35  # a law whose words are this much found in another's joins its group
NUMBER_BONUS = 0.2  # among candidates, a law's own number counts for this much similarity


@dataclass(frozen=True)
class LawGroup:
    """One row of the side-by-side: the laws of the earlier edition and of the later that correspond."""

    a: tuple[Law, ...]
    b: tuple[Law, ...]
    similarity: float

    @property
    def how(self) -> str:
        """same number, renumbered, merged, split, regrouped, added or removed."""
        if not self.a:
            return "added"
        if not self.b:
            return "removed"
        if len(self.a) == 1 and len(self.b) == 1:
            return "same number" if self.a[0].number == self.b[0].number else "renumbered"
        if len(self.b) == 1:
            return "merged"
        if len(self.a) == 1:
            return "split"
        return "regrouped"

    @property
    def numbers_a(self) -> tuple[str, ...]:
        return tuple(law.number for law in self.a)

    @property
    def numbers_b(self) -> tuple[str, ...]:
        return tuple(law.number for law in self.b)

    @property
    def renumbered(self) -> bool:
        return bool(self.a and self.b) and self.numbers_a != self.numbers_b

    @property
    def topics(self) -> tuple[str, ...]:
        t: list[str] = []
        for law in self.a + self.b:
            t += [x for x in law.topics if x not in t]
        return tuple(t)


def _share(x: Law, y: Law) -> bool:
    return bool(set(x.topics) & set(y.topics))


def align(a: Code, b: Code) -> list[LawGroup]:
    """The groups of corresponding laws, in the earlier edition's order, laws only in the later placed
    after the group of the law they follow there."""
    la = [law for law in a.laws if law.text]
    lb = [law for law in b.laws if law.text]
    sims: dict[tuple[int, int], float] = {}
    candidates: list[tuple[float, int, int]] = []
    for i, x in enumerate(la):
        for j, y in enumerate(lb):
            same = x.number == y.number
            if not same and not _share(x, y):
                continue
            s = similarity(x.text, y.text, floor=SAME_NUMBER)
            sims[i, j] = s
            if same and (s >= ALIKE or _share(x, y) and s >= SAME_NUMBER):
                candidates.append((s + NUMBER_BONUS, i, j))
            elif _share(x, y) and s >= RENUMBERED:
                candidates.append((s, i, j))
    pair_a: dict[int, int] = {}
    pair_b: dict[int, int] = {}
    for _, i, j in sorted(candidates, key=lambda c: (-c[0], c[1], c[2])):
        if i not in pair_a and j not in pair_b:
            pair_a[i], pair_b[j] = j, i

    parent = {("a", i): ("a", i) for i in range(len(la))} | {("b", j): ("b", j) for j in range(len(lb))}

    def find(n: tuple[str, int]) -> tuple[str, int]:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    def union(x: tuple[str, int], y: tuple[str, int]) -> None:
        parent[find(x)] = find(y)

    for i, j in pair_a.items():
        union(("a", i), ("b", j))
    # a law left alone joins the law of the other edition that holds most of its words
    joined_b: set[int] = set()
    for i, x in enumerate(la):
        if i in pair_a:
            continue
        best = _best_container(x, ((j, y) for j, y in enumerate(lb) if (i, j) in sims and _share(x, y)))
        if best is not None:
            union(("a", i), ("b", best))
            joined_b.add(best)
    for j, y in enumerate(lb):
        if j in pair_b or j in joined_b:
            continue
        best = _best_container(y, ((i, x) for i, x in enumerate(la) if (i, j) in sims and _share(x, y)))
        if best is not None:
            union(("b", j), ("a", best))

    members: dict[tuple[str, int], list[tuple[str, int]]] = {}
    for n in parent:
        members.setdefault(find(n), []).append(n)
    groups: list[tuple[list[int], list[int]]] = []
    for ms in members.values():
        groups.append((sorted(i for s, i in ms if s == "a"), sorted(j for s, j in ms if s == "b")))
    # the earlier edition's order; a group only in the later edition follows the group of its predecessor
    with_a = sorted((g for g in groups if g[0]), key=lambda g: g[0][0])
    only_b = sorted((g for g in groups if not g[0]), key=lambda g: g[1][0])
    ordered = list(with_a)
    for g in only_b:
        j = g[1][0]
        at = 0
        for k, (ga, gb) in enumerate(ordered):
            if gb and min(gb) < j:
                at = k + 1
        ordered.insert(at, g)
    out = []
    for ia, ib in ordered:
        s = max((sims.get((i, j), 0.0) for i in ia for j in ib), default=0.0)
        out.append(LawGroup(tuple(la[i] for i in ia), tuple(lb[j] for j in ib), s))
    return out


def _best_container(law: Law, others: Iterable[tuple[int, Law]]) -> int | None:
    best, best_c = None, CONTAINED
    for k, other in others:
        c = containment(law.text, other.text)
        if c >= best_c:
            best, best_c = k, c
    return best
