"""Start-up benchmark: ``bridgelaw rule -`` from an installed wheel against a bare interpreter, in the same run.

    python benchmarks/bench_startup.py [--quick] [--venv DIR]

Target 4 of issue 18, printed as a ratio to its baseline: ``bridgelaw rule - --json`` on one insufficient bid
(read from standard input, as a game engine sends it) with a warm cache, from a wheel built from this checkout
and installed in a fresh venv outside the repository (as ``.ci/run`` does), against ``python -c pass`` with the
same interpreter. Target: within 4x (wall time; each command's processor time, user and system, is printed
beside it, a steadier figure where other work shares the machine's cores). ``python -c "import json, pathlib"`` (what any such tool imports) and the
standard library modules ``rule`` cannot start without (the floor under the figure) are printed beside it for
scale, and so are a start with a cold cache and what ``rule`` imports (``-X importtime``, the slowest modules).

Each command is run interleaved with the others, many times; its time is the median wall time of its runs
(the machine is shared: a pause spoils one run, not the figure). ``--venv DIR`` reuses (or makes) the venv in
DIR instead of a temporary one.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUICK = "--quick" in sys.argv
RUNS = 15 if QUICK else 40
INCIDENT = '{"code": "wcny-1913", "irregularity": "insufficient_bid", "dealer": "S", "auction": ["1H", "1S"]}'
TARGET = 4.0
#: a little over bridgelaw.cache.SETTLED_NS (2 s), in seconds
SETTLED = 2.5
#: the standard library ``rule`` cannot start without (dataclasses brings inspect, ast, dis; argparse brings gettext
#: and, as it makes its parser, locale; zlib names the cache's entries): printed as the floor under the figure
STDLIB = "argparse, dataclasses, enum, json, locale, marshal, pickle, re, zlib"
#: ... and the same without dataclasses (whose import brings inspect, ast, dis, tokenize): what the house rule "typed
#: state: dataclasses" costs every start, beside what building the classes costs (the probe's dataclasses built)
STDLIB_NO_DATACLASSES = ", ".join(m for m in STDLIB.split(", ") if m != "dataclasses")
#: What remains, measured inside one warm start: its phases (the command line's imports, the ruling kit's core and the
#: kind's part read, the rest), each dataclass and enum built as bridgelaw's modules are imported (the time of
#: dataclasses' class processing and of each enum's class), by module, and the whole start in process.
PROBE = """
import collections, dataclasses, enum, io, json, sys, time
t0 = time.perf_counter()
built = collections.defaultdict(lambda: [0, 0.0])
def timing(what, make, module_of):
    def timed(*args, **kwargs):
        t = time.perf_counter()
        out = make(*args, **kwargs)
        row = built[(what, module_of(args, out))]
        row[0] += 1
        row[1] += time.perf_counter() - t
        return out
    return timed
dataclasses._process_class = timing("dataclass", dataclasses._process_class,
                                    lambda a, out: f"{a[0].__module__}:{a[0].__qualname__}")
enum.EnumType.__new__ = timing("enum", enum.EnumType.__new__, lambda a, out: out.__module__)
phases = collections.defaultdict(float)
def phase(name, fn):
    def timed(*args, **kwargs):
        t = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            phases[name] += time.perf_counter() - t
    return timed
sys.argv = ["bridgelaw", "rule", "-", "--json"]
t = time.perf_counter()
from bridgelaw.cli import main
phases["the command line's modules imported"] = time.perf_counter() - t
import bridgelaw.kit, bridgelaw.snapshot
bridgelaw.snapshot.load_kit = phase("the kit's core read (its modules imported as it is unpickled)",
                                    bridgelaw.snapshot.load_kit)
bridgelaw.kit._read_part = phase("the kind's part of the kit read", bridgelaw.kit._read_part)
out, sys.stdout = sys.stdout, io.StringIO()
t = time.perf_counter()
main()
rest = time.perf_counter() - t - sum(v for k, v in phases.items() if k.startswith("the kit") or "part" in k)
phases["the rest: the referee's modules imported, the incident read, ruled, worded, written"] = rest
sys.stdout = out
print(json.dumps({"whole": time.perf_counter() - t0, "built": [[k, m, n, t] for (k, m), (n, t) in built.items()],
                  "phases": sorted(phases.items(), key=lambda kv: -kv[1])}))
"""


def _venv(where: Path) -> Path:
    """A venv in ``where`` with the wheel of this checkout installed (made once)."""
    python = where / "bin" / "python"
    if (where / "bin" / "bridgelaw").exists():
        return python
    wheels = where.parent / (where.name + "-wheelhouse")
    shutil.rmtree(wheels, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(ROOT)],
                   check=True)
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *map(str, wheels.glob("bridgelaw-*.whl"))],
                   check=True)
    return python


#: The processor time (user and system) of each command's runs, beside their wall time: on a machine whose cores
#: are shared a run waits for a core, which its wall time counts and its processor time does not.
CPU: dict[str, list[float]] = {}


def _time(cmd: list[str], env: dict[str, str], cwd: Path, stdin: str | None = None, name: str = "") -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, input=stdin, env=env, cwd=cwd, check=True, text=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.setdefault(name, []).append(now.ru_utime - used.ru_utime + now.ru_stime - used.ru_stime)
    return wall


def main() -> None:
    if "--venv" in sys.argv:
        where = Path(sys.argv[sys.argv.index("--venv") + 1]).resolve()
        temp = None
    else:
        temp = Path(tempfile.mkdtemp(prefix="bridgelaw-bench-startup-"))
        where = temp / "venv"
    try:
        python = _venv(where)
        bl = str(where / "bin" / "bridgelaw")
        cache = Path(tempfile.mkdtemp(prefix="bridgelaw-bench-cache-"))
        env = {k: v for k, v in os.environ.items() if not k.startswith(("BRIDGELAW_", "PYTHON"))}
        env["BRIDGELAW_CACHE"] = str(cache)
        cwd = cache  # outside the repository: the wheel's own data, not the checkout's
        rule = [bl, "rule", "-", "--json"]
        cold = _time(rule, env, cwd, INCIDENT)  # makes the cache
        # The cache trusts a file's status (inode, size, times) for its content only once the file has not
        # changed for SETTLED seconds (bridgelaw.cache.SETTLED_NS): the wheel was installed just now, so wait,
        # as any install has waited by its second start, and start once more to keep the statuses.
        time.sleep(SETTLED)
        _time(rule, env, cwd, INCIDENT)
        cmds = {
            "python -c pass": ([str(python), "-c", "pass"], None),
            'python -c "import json, pathlib"': ([str(python), "-c", "import json, pathlib"], None),
            "the standard library it imports": ([str(python), "-c", f"import {STDLIB}"], None),
            "... without dataclasses": ([str(python), "-c", f"import {STDLIB_NO_DATACLASSES}"], None),
            "bridgelaw rule - (warm cache)": (rule, INCIDENT),
        }
        for cmd, stdin in cmds.values():  # the page cache warm for each
            _time(cmd, env, cwd, stdin)
        times: dict[str, list[float]] = {name: [] for name in cmds}
        for _ in range(RUNS):
            for name, (cmd, stdin) in cmds.items():
                times[name].append(_time(cmd, env, cwd, stdin, name))
        med = {name: statistics.median(ts) for name, ts in times.items()}
        base = med["python -c pass"]
        ours = med["bridgelaw rule - (warm cache)"]
        print(f"bridgelaw start-up benchmark (python {sys.version.split()[0]}; a wheel in a fresh venv; "
              f"median of {RUNS} runs each)")
        cpu = {name: statistics.median(CPU[name]) for name in cmds}

        def line(label: str, t: float, note: str = "", name: str = "") -> None:
            used = f"cpu {cpu[name] * 1e3:5.1f} ms {cpu[name] / cpu['python -c pass']:5.2f}x" if name else " " * 22
            print(f"start-up    {label:<52s}{t * 1e3:7.1f} ms   {t / base:5.2f}x   {used}   {note}".rstrip())

        floor = med["the standard library it imports"]
        line("python -c pass", base, "(baseline)", "python -c pass")
        line('python -c "import json, pathlib"', med['python -c "import json, pathlib"'], "",
             'python -c "import json, pathlib"')
        line("python -c \"import <the stdlib rule needs>\"", floor, f"(the floor: {STDLIB})",
             "the standard library it imports")
        line("python -c \"import <the same but dataclasses>\"", med["... without dataclasses"],
             f"(the floor less dataclasses: {(floor - med['... without dataclasses']) * 1e3:.1f} ms less)",
             "... without dataclasses")
        line("bridgelaw rule - (warm cache)", ours, f"(target <= {TARGET:g}x, in wall time)",
             "bridgelaw rule - (warm cache)")
        line("bridgelaw rule - (cold cache, once)", cold)
        out = subprocess.run([str(python), "-X", "importtime", bl, "rule", "-", "--json"], input=INCIDENT, env=env,
                             cwd=cwd, text=True, capture_output=True, check=True).stderr
        rows = []
        for line in out.splitlines():
            parts = line.removeprefix("import time:").split("|")
            if line.startswith("import time:") and len(parts) == 3 and parts[0].strip().isdigit():
                rows.append((int(parts[0]), parts[2].strip()))
        total = sum(us for us, _ in rows)
        print(f"start-up    imports: {len(rows)} modules, {total / 1e3:.1f} ms in all; the slowest (self):")
        for us, name in sorted(rows, reverse=True)[:12]:
            print(f"start-up      {us / 1e3:6.1f} ms  {name}")
        _what_remains(python, env, cwd)
        shutil.rmtree(cache, ignore_errors=True)
    finally:
        if temp is not None:
            shutil.rmtree(temp, ignore_errors=True)


def _what_remains(python: Path, env: dict[str, str], cwd: Path) -> None:
    """The classes a warm start builds, by module (the best of a few starts)."""
    runs = []
    for _ in range(5):
        out = subprocess.run([str(python), "-c", PROBE], input=INCIDENT, env=env, cwd=cwd, text=True,
                             capture_output=True, check=True).stdout
        runs.append(json.loads(out))
    best = min(runs, key=lambda r: r["whole"])
    print(f"start-up    in process: {best['whole'] * 1e3:.1f} ms (after the interpreter's own start), of which:")
    for name, t in best["phases"]:
        print(f"start-up      {t * 1e3:6.2f} ms  {name}")
    for kind, plural in (("dataclass", "dataclasses"), ("enum", "enums")):
        by_module: dict[str, list[float]] = {}
        for k, m, n, t in best["built"]:
            if k == kind:
                row = by_module.setdefault(m.split(":")[0], [0, 0.0])
                row[0] += n
                row[1] += t
        rows = sorted(((t, m, n) for m, (n, t) in by_module.items()), reverse=True)
        n_all, t_all = sum(n for _, _, n in rows), sum(t for t, _, _ in rows)
        print(f"start-up    {plural} built: {n_all}, {t_all * 1e3:.1f} ms of the {best['whole'] * 1e3:.1f} ms the "
              f"start takes in process (after the interpreter's own start)")
        for t, m, n in rows:
            print(f"start-up      {t * 1e3:6.2f} ms  {n:3d}  {m}")
        if kind == "dataclass":  # and each class, the costliest first
            classes = sorted(((t, m.replace(":", ".")) for k, m, n, t in best["built"] if k == kind), reverse=True)
            print("start-up    each dataclass built: " + ", ".join(f"{m.rsplit('.', 1)[-1]} {t * 1e3:.2f}"
                                                             for t, m in classes))


if __name__ == "__main__":
    main()
