"""Timing shared by the benchmarks: interleaved runs, the best of each chunk, the garbage collector on."""

from __future__ import annotations

import gc
import time
from typing import Any, Callable


def best_of(fns: list[Callable[[slice], Any]], count: int, runs: int, chunk: int) -> list[float]:
    """Interleaved: the inputs in chunks of ``chunk``; each run times every function once on each chunk (``fn(sl)``
    with ``sl`` the chunk's slice), and each function's time is the sum over the chunks of its best time there —
    so that a pause of the machine spoils one chunk of one run, not a whole run. GC stays on."""
    gc.enable()
    slices = [slice(i, min(i + chunk, count)) for i in range(0, count, chunk)]
    best = [[float("inf")] * len(slices) for _ in fns]
    for _ in range(runs):
        for j, sl in enumerate(slices):
            for i, fn in enumerate(fns):
                t = time.perf_counter()
                fn(sl)
                best[i][j] = min(best[i][j], time.perf_counter() - t)
    return [sum(b) for b in best]
