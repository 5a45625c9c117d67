"""Rule generated incidents under every pair of auction codes; print incidents tried, differences and time.

    python benchmarks/ruling_diff_all.py
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

import bridgelaw  # noqa: E402
from bridgelaw.compare import ruling_diff  # noqa: E402

if __name__ == "__main__":
    auction = [c for c in bridgelaw.codes() if bridgelaw.load_code(c).game == "auction"
               and bridgelaw.load_code(c).players == 4]
    start = time.perf_counter()
    total = 0
    for a, b in itertools.combinations(auction, 2):
        t = time.perf_counter()
        res = ruling_diff(a, b)
        total += res["incidents"]
        print(f"{a:>22} vs {b:<22} {res['incidents']:>8} incidents  {len(res['groups']):>5} kinds of difference"
              f"  {time.perf_counter() - t:6.1f} s")
    print(f"all pairs: {total} incidents in {time.perf_counter() - start:.1f} s")
