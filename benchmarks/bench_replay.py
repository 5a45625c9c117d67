"""Replaying a large generated PBN archive: boards a second in one process, over ``--jobs 2`` and on a local
Dask cluster, all in one run; the replay's cost per board against the table's own replaying the same boards
(the baseline, measured in the same run: a ``Table`` fed the same calls and cards, scored); and the memory
the replay holds as it streams (tracemalloc: what is still allocated after N boards and after 2N).

    python benchmarks/bench_replay.py [--boards N] [--quick] [--no-dask]

The archive: random deals under the 1913 laws, bid and played legally at random, one board in eight with an
irregularity marked as §3.9 marks it (an insufficient bid accepted, a revoke not noticed), written as PBN.

What is timed on each side: the baseline makes the history's acts one by one, as a game engine drives the table
(``call``, ``play``, ``answer``, ``apply``), and scores the deal; the replay reads the file, drives the same table
— a record's plain tricks through ``Table.play_tricks``, which makes the same checks card by card (the hand, the
turn, the suit led) and leaves the table as ``play`` does (tests/test_table.py) — checks the record's tags against
what it played, scores the deal and writes the ``--json`` line. The target is judged against the first baseline
(card by card, as it was defined); a second is printed beside it, the table fed the same record as the replay
feeds it (each run of whole tricks through ``play_tricks``, the rest one act at a time), so the replay's ratio
to the table doing just what the replay asks of it is seen too. The bytecodes each side runs per board are
counted too (a figure the machine's load does not move). The memory line counts what stays allocated, the
scorer's cache of deals read included (bounded: it empties when full).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from bridgelaw.pbn import iter_games
from bridgelaw.pbn.writer import write_game
from bridgelaw.replay.archive import boards, run
from bridgelaw.facts import higher
from bridgelaw.replay.history_writer import history_game
from bridgelaw.table import Table
from bridgelaw.values import Call

CODE = "wcny-1913"


def _deal(rng: random.Random) -> str:
    cards = [s + r for s in "SHDC" for r in "AKQJT98765432"]
    rng.shuffle(cards)
    hands = [cards[i::4] for i in range(4)]
    return "N:" + " ".join(".".join("".join(r for r in "AKQJT98765432" if s + r in h) for s in "SHDC") for h in hands)


def one_board(rng: random.Random) -> tuple[str, dict]:
    """A board played at random: its PBN text (written from the table's history), and the table's actions
    for the baseline."""
    while True:
        t = Table(CODE, rng.choice("NESW"), _deal(rng))
        odd = rng.random() < 0.125
        bids = 0
        while t.phase == "auction":
            legal = t.legal_calls()
            last = next((c for c in reversed(t.auction) if c[:1].isdigit()), None)
            if odd and bids == 1 and last:
                low = [f"{lv}{s}" for lv in "12" for s in "CDH"
                       if not higher(t.code, Call(f"{lv}{s}"), Call(last))]
                if low:
                    t.call(t.turn, low[0])
                    t.apply("waive")  # accepted: ^I
                    odd = False
                    bids += 1
                    continue
            bids_open = [c for c in legal if c[:1].isdigit()]
            call = "P" if "P" in legal and (bids >= 2 or rng.random() < 0.4) else rng.choice(bids_open[:6] or legal)
            t.call(t.turn, call)
            bids += call[:1].isdigit()
        if t.phase != "play":
            continue
        revoke = rng.random() < 0.125
        while t.phase == "play":
            seat = t.turn
            legal = t.legal_cards()
            off = [c for c in t.hand(seat) if c not in legal]
            card = off[0] if revoke and off and t.current_trick else rng.choice(legal)
            revoke = revoke and card not in off
            ans = t.play(seat, card)
            if ans.ruling is not None:  # a revoke not noticed in time: ^R
                t.answer(after_next_cut=True)
                t.apply(None)
        return write_game(history_game(t)), {"dealer": t.dealer.value, "deal": t.deal,
                                             "history": [e.to_dict() for e in t.history]}


def baseline(records: list[dict]) -> float:
    """The table's own: the same actions made on a Table (the calls and cards, each ruling answered and
    applied as the record has it), and the deal scored — CPU time of this process: the machine is shared, and
    both sides of the ratio are measured alike."""
    t0 = time.process_time()
    for r in records:
        t = Table(CODE, r["dealer"], r["deal"])
        call, play = t.call, t.play
        for e in r["history"]:
            if e["action"] == "play":
                play(e["seat"], e["card"])
            else:
                act(t, call, e)
        t.score()
    return time.process_time() - t0


def trick_runs(record: dict) -> dict[int, tuple[str, list[tuple[str, ...]]]]:
    """For each history entry that begins a trick (its first card), the whole tricks played from it on, as a
    record's play section holds them: a row of four cards a trick, in the opening leader's column order; made
    before the clock starts (the replay's rows come from its file, and reading is timed on its side)."""
    hist = record["history"]
    plays = [i for i, e in enumerate(hist) if e["action"] == "play"]
    if not plays:
        return {}
    cols = hist[plays[0]]["seat"]
    cols = "NESWNES"["NESW".index(cols):"NESW".index(cols) + 4]
    runs: dict[int, tuple[str, list[tuple[str, ...]]]] = {}
    for k in range(0, len(plays) - 3, 4):  # trick k // 4 + 1: its four cards, if nothing comes between them
        start = plays[k]
        rows: list[tuple[str, ...]] = []
        j = k
        while j + 3 < len(plays) and plays[j + 3] == plays[j] + 3:
            cards = {hist[i]["seat"]: hist[i]["card"] for i in plays[j:j + 4]}
            rows.append(tuple(cards[s] for s in cols))
            if j + 4 < len(plays) and plays[j + 4] != plays[j + 3] + 1:
                break  # (an answer or a remedy after this trick: the run stops; the acts after it one by one)
            j += 4
        if rows:
            runs[start] = (cols, rows)
    return runs


def feed_tricks(t: Table, hist: list[dict], at: dict[int, tuple[str, list[tuple[str, ...]]]]) -> None:
    """A record's acts on a table as the replay makes them: each run of whole tricks through
    ``Table.play_tricks`` (which plays the plain cards and stops before any other), every other act one at a
    time."""
    call, play, tricks = t.call, t.play, t.play_tricks
    i, n = 0, len(hist)
    while i < n:
        e = hist[i]
        a = e["action"]
        if a == "play":
            run_ = at.get(i)
            if run_ is not None:
                done = tricks(*run_)
                if done:
                    i += done
                    continue
            play(e["seat"], e["card"])
        else:
            act(t, call, e)
        i += 1


def act(t: Table, call: Any, e: dict) -> None:
    """A history entry that is not a card, on the table (both baselines make them alike)."""
    a = e["action"]
    if a == "call":
        call(e["seat"], e["call"])
    elif a == "answer":
        t.answer(**e["facts"])
    else:
        t.apply(e.get("option"), by=e.get("seat"))


def baseline_tricks(records: list[dict], runs: list[dict]) -> float:
    """The second baseline: the table fed each record as the replay feeds it (:func:`feed_tricks`), and the
    deal scored."""
    t0 = time.process_time()
    for r, at in zip(records, runs):
        t = Table(CODE, r["dealer"], r["deal"])
        feed_tricks(t, r["history"], at)
        t.score()
    return time.process_time() - t0


def replay_serial(path: str, clock=time.process_time) -> float:
    out = open(os.devnull, "w")
    t0 = clock()
    for r in run(boards([path], CODE)):
        out.write(r.json_line() + "\n")  # the line the CLI prints (replay --json)
    out.close()
    return clock() - t0


def read_only(path: str) -> float:
    t0 = time.process_time()
    for _ in iter_games(open(path, "rb")):
        pass
    return time.process_time() - t0


def lines_only(results: list) -> float:
    t0 = time.process_time()
    for r in results:
        r.json_line()
    return time.process_time() - t0


def read_then_replay(path: str) -> float:
    """Each board read, then replayed, in turn (as the archive does, without its loop and the --json line)."""
    from bridgelaw.replay.board import replay_game

    t0 = time.process_time()
    for g in iter_games(open(path, "rb")):
        replay_game(g, CODE)
    return time.process_time() - t0


_OTHER = bytearray(4 << 20)  # more than the caches near a core hold


def _touch_other() -> None:
    _OTHER[::64] = bytes(len(_OTHER) // 64)  # a write to every 64-byte line of 4 MiB


def read_evicted(path: str) -> float:
    """Each board read after 4 MiB of other data has been touched (so what reading uses is no longer in the
    caches), less the touching measured alone: reading as it is when something else ran in between."""
    clock = time.process_time
    t0 = clock()
    for _ in iter_games(open(path, "rb")):
        _touch_other()
    both = clock() - t0
    n = sum(1 for _ in iter_games(open(path, "rb")))
    t0 = clock()
    for _ in range(n):
        _touch_other()
    return both - (clock() - t0)


def replay_only(games: list) -> float:
    from bridgelaw.replay.board import replay_game

    t0 = time.process_time()
    for g in games:
        replay_game(g, CODE)
    return time.process_time() - t0


def replay_with(path: str, jobs: int, dask: str | None = None) -> float:
    t0 = time.perf_counter()
    n = sum(1 for _ in run(boards([path], CODE, unread=True), jobs=jobs, dask=dask))
    assert n
    return time.perf_counter() - t0


def memory_after(path: str, limit: int) -> int:
    """Bytes still allocated once ``limit`` boards have been replayed and their lines written."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    out = open(os.devnull, "w")
    for i, r in enumerate(run(boards([path], CODE)), start=1):
        out.write(r.text() + "\n")
        if i == limit:
            break
    gc.collect()
    now = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    out.close()
    return now - base


def bytecodes(work: Any) -> int:
    """The bytecodes the interpreter runs for ``work()`` (``sys.settrace`` with opcode events): a count that
    does not depend on what else the machine runs, beside the CPU time that does."""
    count = 0

    def local(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "opcode":
            count += 1
        return local

    def start(frame: Any, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes, frame.f_trace_lines = True, False
        return local

    sys.settrace(start)
    try:
        work()
    finally:
        sys.settrace(None)
    return count


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", type=int, default=2000)
    ap.add_argument("--quick", action="store_true", help="a small archive (CI prints it for the record)")
    ap.add_argument("--no-dask", action="store_true")
    args = ap.parse_args()
    n = 300 if args.quick else args.boards
    rng = random.Random(1913)
    texts, records = [], []
    for _ in range(n):
        text, rec = one_board(rng)
        texts.append(text)
        records.append(rec)
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "archive.pbn")
        Path(path).write_text("\n".join(texts), encoding="latin-1")
        assert sum(1 for g in iter_games(open(path, "rb")) if not hasattr(g, "error")) == n
        replay_serial(path)  # warm: codes loaded, caches filled
        # what is timed is a replay that rules as the table did: every board scored, with the table's score
        got = [r for r in run(boards([path], CODE))]
        assert [r.status for r in got] == ["scored"] * n, [r.reason for r in got if r.status != "scored"][:3]
        for r, rec in zip(got, records):
            t = Table(CODE, rec["dealer"], rec["deal"], history=rec["history"])
            assert r.score == {k: v["total"] for k, v in t.score().totals().items()}, (r.board, r.score)
        runs = [trick_runs(r) for r in records]
        for rec, at in zip(records, runs):  # the second baseline makes the same history as the first
            t = Table(CODE, rec["dealer"], rec["deal"])
            feed_tricks(t, rec["history"], at)
            assert [e.to_dict() for e in t.history] == rec["history"], rec["deal"]
        base = tricks = serial = float("inf")
        for _ in range(5):  # interleaved, best of five each: the machine is shared
            base = min(base, baseline(records))
            tricks = min(tricks, baseline_tricks(records, runs))
            serial = min(serial, replay_serial(path))
        print(f"archive: {n} boards of {CODE}, {Path(path).stat().st_size // 1024} KiB")
        wall = min(replay_serial(path, time.perf_counter) for _ in range(3))
        games = list(iter_games(open(path, "rb")))
        reading = min(read_only(path) for _ in range(5))
        replaying = min(replay_only(games) for _ in range(5))
        print(f"table's own (baseline)      {n / base:8.0f} boards/s   (CPU time; card by card, as a game engine plays)")
        print(f"table's own, play_tricks    {n / tricks:8.0f} boards/s   (CPU time; the record's whole tricks at a time, "
              "as the replay feeds it)")
        print(f"replay, one process         {n / serial:8.0f} boards/s   (CPU time) {serial / base:.2f}x the table's own "
              f"cost per board (target <= 1.5x); {serial / tricks:.2f}x the table's own through play_tricks")
        line = min(lines_only(got) for _ in range(5))
        in_turn = min(read_then_replay(path) for _ in range(5))
        evicted = min(read_evicted(path) for _ in range(5))
        rest = max(0.0, serial - reading - replaying - line)
        print(f"  of which reading the PBN  {reading / base:5.2f}x, the replay through the table {replaying / base:5.2f}x, "
              f"the --json line {line / base:4.2f}x, the rest {rest / base:4.2f}x (the table's own cost = 1)")
        print(f"  the rest: reading and replaying in turn {max(0.0, in_turn - reading - replaying) / base:4.2f}x more "
              f"than each alone, the archive's loop {max(0.0, serial - in_turn - line) / base:4.2f}x; reading after 4 MiB "
              f"of other data is touched costs {max(0.0, evicted - reading) / base:4.2f}x more than reading alone "
              "(the caches: read alone, what the reader uses stays in them; replaying in between evicts it)")
        print(f"replay, one process         {n / wall:8.0f} boards/s   (wall clock, as --jobs and Dask are measured)")
        jobs2 = replay_with(path, 2)
        print(f"replay --jobs 2             {n / jobs2:8.0f} boards/s   (the machine's cores are shared)")
        if not args.no_dask:
            try:
                import distributed  # noqa: F401
            except ImportError:
                print("replay on Dask               (not installed: pip install 'bridgelaw[dask]')")
            else:
                t_dask = replay_with(path, 2, "local")
                print(f"replay on Dask (local, 2)   {n / t_dask:8.0f} boards/s   (including the cluster's start)")
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-m", "bridgelaw.cli", "replay", path, "--json", "--quiet"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cli = time.perf_counter() - t0
        print(f"bridgelaw replay FILE --json {n / cli:8.0f} boards/s   (the whole command, start-up included; "
              f"exit {p.returncode})")
        few = min(n, 100)  # (traced: a hundred boards say it)
        head = str(Path(tmp) / "head.pbn")
        Path(head).write_text("\n".join(texts[:few]), encoding="latin-1")
        ops_replay = bytecodes(lambda: replay_serial(head))
        ops_table = bytecodes(lambda: baseline(records[:few]))
        print(f"bytecodes run per board: replay {ops_replay / few:.0f}, the table's own {ops_table / few:.0f} "
              f"({ops_replay / ops_table:.2f}x; the replay's own code runs once a board, the table's play a card at a "
              "time: a bytecode of the first costs more)")
        half = max(50, n // 4)
        a, b = memory_after(path, half), memory_after(path, 2 * half)
        print(f"memory held streaming: {a / 1024:.0f} KiB after {half} boards, {b / 1024:.0f} KiB after "
              f"{2 * half}: {(b - a) / half:.0f} bytes a board")


if __name__ == "__main__":
    main()
