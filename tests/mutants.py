"""One-edit mutations of the shipped law files, and what became of each.

Used by ``tests/test_mutations.py`` (a fixed sample, for CI) and by
``benchmarks/mutate_all.py`` (every mutation). Each mutation edits one file of
a copy of ``laws/`` (or renames, adds or links one), and the code it belongs
to — with every code that extends it, or every code for the catalogue — is
loaded and its casebook ruled. The outcome is one of:

- ``refused``   — a :class:`LawFileError` naming ``path:line:col`` (good);
- ``caught``    — it loads, and a casebook ruling differs from what its case
                  expects, or a ruling refuses cleanly (good: the casebook is
                  the oracle);
- ``unchanged`` — it loads and every casebook ruling and score, in full (trace,
                  notes and labels included), is what it was (good: the edit
                  changed nothing the casebook can see, in any way);
- ``retraced``  — it loads and every ruling and score is what it was; only a
                  trace's reasons or the facts a ruling echoes changed (which
                  of two provisions that both override a third is named, a
                  presumption no provision reads) (good: no ruling changed);
- ``silent``    — it loads, the casebook passes, but some ruling or score
                  changed — its effects, options, questions, laws, notes or
                  entries: a change no case catches (bad);
- ``unplaced``  — refused without a line and column (bad);
- ``crash``     — any other exception: a traceback (bad);
- ``hang``      — it took longer than the time limit (bad).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import yaml

ROOT = Path(__file__).resolve().parent.parent
GOOD = ("refused", "caught", "unchanged", "retraced")
TIME_LIMIT = 20.0  # seconds for one mutation: load and rule; a hang is anything slower


@dataclass(frozen=True)
class Mutation:
    family: str  # params, condition, chooser, overrides, effects, catalogue, files, yaml, size, code
    code: str  # the code whose folder holds the file ("" for the catalogue)
    file: str  # relative to laws/
    what: str  # one line: the edit
    apply: Callable[[Path], None] = field(compare=False, repr=False)  # edits the copy of laws/

    @property
    def name(self) -> str:
        return f"{self.family}:{self.file}:{self.what}"


@dataclass
class Outcome:
    mutation: Mutation
    result: str
    detail: str = ""
    seconds: float = 0.0


class _Timeout(Exception):
    pass


# --------------------------------------------------------------------------
# Generating mutations


def _dump(data: Any) -> str:
    return yaml.dump(data, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False, allow_unicode=True,
                     width=10 ** 6, default_flow_style=None)


def _edit_data(rel: str, fn: Callable[[Any], None]) -> Callable[[Path], None]:
    def apply(laws: Path) -> None:
        path = laws / rel
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
        fn(data)
        path.write_text(_dump(data), encoding="utf-8")

    return apply


def _edit_text(rel: str, fn: Callable[[str], str]) -> Callable[[Path], None]:
    def apply(laws: Path) -> None:
        path = laws / rel
        path.write_text(fn(path.read_text(encoding="utf-8")), encoding="utf-8")

    return apply


def _leaves(d: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _leaves(v, prefix + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield from _leaves(v, prefix + (i,))
    else:
        yield prefix, d


def _at(d: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        d = d[k]
    return d


def _codes() -> dict[str, dict[str, Any]]:
    out = {}
    for folder in sorted((ROOT / "laws").iterdir()):
        if (folder / "code.yaml").is_file():
            out[folder.name] = yaml.safe_load((folder / "code.yaml").read_text(encoding="utf-8"))
    return out


def affected(code: str) -> list[str]:
    """The code and every code that extends it, directly or not (the catalogue: every code)."""
    metas = _codes()
    if not code:
        return sorted(metas)
    out = [code]
    changed = True
    while changed:
        changed = False
        for cid, meta in metas.items():
            if meta.get("extends") in out and cid not in out:
                out.append(cid)
                changed = True
    return out


def _param_mutations(code: str) -> Iterator[Mutation]:
    rel = f"{code}/parameters.yaml"
    data = yaml.safe_load((ROOT / "laws" / rel).read_text(encoding="utf-8")) or {}
    for path, value in _leaves(data):
        shown = ".".join(map(str, path))
        parent, key = path[:-1], path[-1]

        def delete(d: Any, parent: tuple[Any, ...] = parent, key: Any = key) -> None:
            del _at(d, parent)[key]

        def misspell(d: Any, parent: tuple[Any, ...] = parent, key: Any = key) -> None:
            box = _at(d, parent)
            if isinstance(box, dict):
                box[f"{key}x"] = box.pop(key)
            else:
                box[key] = {"oops": box[key]}

        def retype(d: Any, parent: tuple[Any, ...] = parent, key: Any = key, value: Any = value) -> None:
            box = _at(d, parent)
            box[key] = (f"{value} points" if isinstance(value, int) and not isinstance(value, bool)
                        else 1 if isinstance(value, (bool, str)) else True)

        yield Mutation("params", code, rel, f"delete {shown}", _edit_data(rel, delete))
        yield Mutation("params", code, rel, f"misspell {shown}", _edit_data(rel, misspell))
        yield Mutation("params", code, rel, f"retype {shown}", _edit_data(rel, retype))


_PROVISIONS: dict[str, list[tuple[str, int, int, dict[str, Any]]]] = {}


def _provisions(code: str) -> list[tuple[str, int, int, dict[str, Any]]]:
    """Every provision of a code's own files: (file, law index, provision index, the provision as written)."""
    if code not in _PROVISIONS:
        out = []
        for path in sorted((ROOT / "laws" / code).glob("[0-9][0-9]-*.yaml")):
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
            for i, law in enumerate(data.get("laws") or []):
                for j, p in enumerate(law.get("provisions") or []):
                    out.append((f"{code}/{path.name}", i, j, p))
        _PROVISIONS[code] = out
    return _PROVISIONS[code]


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _prov_edit(rel: str, i: int, j: int, fn: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    return _edit_data(rel, lambda d: fn(d["laws"][i]["provisions"][j]))


_IDENT = re.compile(r"\b(?!and\b|or\b|not\b|is\b|in\b|true\b|false\b|params\b)([a-z_][a-z0-9_]*)\b(?!\s*\()")


def _provision_mutations(code: str, others: dict[str, list[str]]) -> Iterator[Mutation]:
    for rel, i, j, p in _provisions(code):
        pid = p["id"]
        when = p.get("when")
        if isinstance(when, str) and when != "true":
            m = _IDENT.search(when)
            if m:
                bad = when[: m.start()] + m.group(1) + "x" + when[m.end():]
                yield Mutation("condition", code, rel, f"{pid}: misspell {m.group(1)!r} in when",
                               _prov_edit(rel, i, j, lambda q, bad=bad: q.__setitem__("when", bad)))
            yield Mutation("condition", code, rel, f"{pid}: cut when in half",
                           _prov_edit(rel, i, j, lambda q, w=when: q.__setitem__("when", w[: max(1, len(w) // 2)]
                                                                                  + " and")))
            yield Mutation("condition", code, rel, f"{pid}: when becomes a number",
                           _prov_edit(rel, i, j, lambda q: q.__setitem__("when", "1 + 1")))
            yield Mutation("condition", code, rel, f"{pid}: negate when",
                           _prov_edit(rel, i, j, lambda q, w=when: q.__setitem__("when", f"not ({w})")))
        if p.get("chooser"):
            for bad in ("offender", "partner(offender)", "side(offender)", "dealr", "1", "[offender, offender]"):
                yield Mutation("chooser", code, rel, f"{pid}: chooser {bad}",
                               _prov_edit(rel, i, j, lambda q, b=bad: q.__setitem__(
                                   "chooser", yaml.safe_load(b) if b.startswith("[") else b)))
            if code.endswith("three-hand"):
                yield Mutation("chooser", code, rel, f"{pid}: chooser the dummy packet",
                               _prov_edit(rel, i, j, lambda q: q.__setitem__("chooser", "partner(dealer)")))
        yield Mutation("overrides", code, rel, f"{pid}: overrides itself",
                       _prov_edit(rel, i, j, lambda q, pid=pid: q.setdefault("overrides", []).append(pid)))
        yield Mutation("overrides", code, rel, f"{pid}: overrides an unknown id",
                       _prov_edit(rel, i, j, lambda q: q.setdefault("overrides", []).append("no-such-provision")))
        for o in p.get("overrides") or []:
            kinds = set(p["kinds"])
            stranger = next((x for x, ks in others.items() if not kinds & set(ks) and x != pid), None)
            yield Mutation("overrides", code, rel, f"{pid}: drop overrides {o}",
                           _prov_edit(rel, i, j, lambda q, o=o: q["overrides"].remove(o)))
            if stranger:
                yield Mutation("overrides", code, rel, f"{pid}: overrides {stranger} (no common kind)",
                               _prov_edit(rel, i, j, lambda q, s=stranger: q["overrides"].append(s)))
        for o in p.get("overrides") or []:  # the reverse edge, written at the overridden provision: a circle
            target = next(((r2, i2, j2) for r2, i2, j2, p2 in _provisions(code) if p2["id"] == o), None)
            if target:
                r2, i2, j2 = target
                yield Mutation("overrides", code, r2, f"{o}: overrides {pid}, which overrides it",
                               _prov_edit(r2, i2, j2, lambda q, pid=pid: q.setdefault("overrides", []).append(pid)))
        yield from _effect_mutations(code, rel, i, j, p)


def _effect_mutations(code: str, rel: str, i: int, j: int, p: dict[str, Any]) -> Iterator[Mutation]:
    pid = p["id"]
    places: list[tuple[str, Callable[[dict[str, Any]], list[Any]]]] = []
    if p.get("effects"):
        places.append(("effects", lambda q: q["effects"]))
    for k, o in enumerate(p.get("options") or []):
        places.append((f"option {o['id']}", lambda q, k=k: q["options"][k]["effects"]))
    for where, get in places:
        effects = get(p)
        for n, e in enumerate(effects):
            kind = e["kind"]
            yield Mutation("effects", code, rel, f"{pid}: {where}: delete {kind}",
                           _prov_edit(rel, i, j, lambda q, get=get, n=n: get(q).pop(n)))
            yield Mutation("effects", code, rel, f"{pid}: {where}: {kind} gains a field 'frobs'",
                           _prov_edit(rel, i, j, lambda q, get=get, n=n: get(q)[n].__setitem__("frobs", 1)))
            for f in [k for k in e if k != "kind"]:
                yield Mutation("effects", code, rel, f"{pid}: {where}: {kind}.{f} becomes true",
                               _prov_edit(rel, i, j, lambda q, get=get, n=n, f=f: get(q)[n].__setitem__(f, True)))
                yield Mutation("effects", code, rel, f"{pid}: {where}: {kind}.{f} deleted",
                               _prov_edit(rel, i, j, lambda q, get=get, n=n, f=f: get(q)[n].pop(f)))
            if kind == "transfer_tricks":
                yield Mutation("effects", code, rel, f"{pid}: {where}: transfer count -3",
                               _prov_edit(rel, i, j, lambda q, get=get, n=n: get(q)[n].__setitem__("count", -3)))
                yield Mutation("effects", code, rel, f"{pid}: {where}: transfer to the side it comes from",
                               _prov_edit(rel, i, j, lambda q, get=get, n=n: get(q)[n].__setitem__(
                                   "to", get(q)[n]["from"])))
            if kind == "score":
                yield Mutation("effects", code, rel, f"{pid}: {where}: score points true",
                               _prov_edit(rel, i, j, lambda q, get=get, n=n: get(q)[n].__setitem__("points", True)))


def _catalogue_mutations() -> Iterator[Mutation]:
    rel = "kinds.yaml"
    data = yaml.safe_load((ROOT / "laws" / rel).read_text(encoding="utf-8"))
    for kid, kind in data["kinds"].items():
        for name, fact in (kind.get("facts") or {}).items():
            t = fact["type"]
            if "default" in fact:
                wrong = "no" if isinstance(t, list) else ("maybe" if t == "bool" else True)
                yield Mutation("catalogue", "", rel, f"{kid}.{name}: default {wrong!r}", _edit_data(
                    rel, lambda d, kid=kid, name=name, w=wrong: d["kinds"][kid]["facts"][name].__setitem__("default", w)))
            yield Mutation("catalogue", "", rel, f"{kid}.{name}: type frob", _edit_data(
                rel, lambda d, kid=kid, name=name: d["kinds"][kid]["facts"][name].__setitem__("type", "frob")))
            yield Mutation("catalogue", "", rel, f"{kid}.{name}: deleted", _edit_data(
                rel, lambda d, kid=kid, name=name: d["kinds"][kid]["facts"].pop(name)))
    for name in ("dummy", "leader", "eldest"):
        yield Mutation("catalogue", "", rel, f"common {name}: derived from itself", _edit_data(
            rel, lambda d, name=name: d["common"][name].__setitem__("derive", f"partner({name})")))


def _file_mutations(code: str) -> Iterator[Mutation]:
    folder = ROOT / "laws" / code
    heading = sorted(folder.glob("[0-9][0-9]-*.yaml"))[0].name

    def rename(new: str) -> Callable[[Path], None]:
        return lambda laws: (laws / code / heading).rename(laws / code / new)

    def loop(laws: Path) -> None:
        (laws / code / heading).unlink()
        (laws / code / heading).symlink_to(heading)

    yield Mutation("files", code, f"{code}/{heading}", "renamed .yml", rename(heading[:-5] + ".yml"))
    yield Mutation("files", code, f"{code}/{heading}", "without its NN- prefix", rename(heading[3:]))
    yield Mutation("files", code, f"{code}/{heading}", "a symlink loop", loop)
    yield Mutation("files", code, f"{code}/{heading}", "emptied", _edit_text(f"{code}/{heading}", lambda t: ""))
    yield Mutation("files", code, f"{code}/notes.yaml", "a stray file",
                   lambda laws: (laws / code / "notes.yaml").write_text("x: 1\n"))
    yield Mutation("files", code, f"{code}/code.yaml", "code.yaml renamed code.yml",
                   lambda laws: (laws / code / "code.yaml").rename(laws / code / "code.yml"))


_BOMB = ('bomb0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n'
         + "".join(f"bomb{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]\n" for i in range(1, 9)))


def _yaml_mutations(code: str) -> Iterator[Mutation]:
    heading = sorted((ROOT / "laws" / code).glob("[0-9][0-9]-*.yaml"))[0].name
    rel = f"{code}/{heading}"
    yield Mutation("yaml", code, rel, "a billion-laughs alias bomb", _edit_text(rel, lambda t: _BOMB + t))
    yield Mutation("yaml", code, rel, "a 5,000-digit number", _edit_text(
        rel, lambda t: t.replace("laws:", "note: " + "9" * 5000 + "\nlaws:", 1)))
    yield Mutation("yaml", code, rel, "2,000-deep nesting", _edit_text(
        rel, lambda t: "deep: " + "[" * 2000 + "]" * 2000 + "\n" + t))
    yield Mutation("yaml", code, rel, "binary content", lambda laws: (laws / rel).write_bytes(
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe" + (laws / rel).read_bytes()))
    yield Mutation("yaml", code, rel, "a duplicate key", _edit_text(
        rel, lambda t: t.replace("laws:", "heading: again\nlaws:", 1) if t.startswith("heading:") else
        "heading: a\nheading: b\n" + t))
    yield Mutation("yaml", code, rel, "binding: no (YAML 1.1's false)", _edit_text(
        rel, lambda t: t.replace("laws:", "binding: no\nlaws:", 1)))
    yield Mutation("yaml", code, rel, "a tab for indentation", _edit_text(
        rel, lambda t: t.replace("\n  - number:", "\n\t- number:", 1)))
    yield Mutation("yaml", code, rel, "a second document", _edit_text(rel, lambda t: t + "\n---\nlaws: []\n"))
    yield Mutation("params", code, f"{code}/parameters.yaml", "a parameter written 0x..", _edit_text(
        f"{code}/parameters.yaml", lambda t: re.sub(r"(?m)^([^#\n]*?value:\s*)(\d+)", r"\g<1>0x\2", t, count=1)))


def _size_mutations(code: str) -> Iterator[Mutation]:
    for rel, i, j, p in _provisions(code):
        if isinstance(p.get("when"), str) and p["when"] != "true":
            w = p["when"]
            yield Mutation("size", code, rel, f"{p['id']}: 300 and-ed terms",
                           _prov_edit(rel, i, j, lambda q, w=w: q.__setitem__("when", " and ".join([f"({w})"] * 300))))
            yield Mutation("size", code, rel, f"{p['id']}: 500 nested nots",
                           _prov_edit(rel, i, j, lambda q, w=w: q.__setitem__("when", "not " * 500 + f"({w})")))
            yield Mutation("size", code, rel, f"{p['id']}: a 5,000-digit literal",
                           _prov_edit(rel, i, j, lambda q, w=w: q.__setitem__("when", f"({w}) or 1 > {'9' * 5000}")))
            yield Mutation("size", code, rel, f"{p['id']}: divided by zero",
                           _prov_edit(rel, i, j, lambda q, w=w: q.__setitem__("when", f"({w}) and 1 / 0 == 1")))
            return


def _code_mutations(code: str) -> Iterator[Mutation]:
    rel = f"{code}/code.yaml"
    for what, fn in (("players: 0", lambda d: d.__setitem__("players", 0)),
                     ("players: 5", lambda d: d.__setitem__("players", 5)),
                     ("extends itself", lambda d, c=code: d.__setitem__("extends", c)),
                     ("extends a code that is not there", lambda d: d.__setitem__("extends", "wcny-1931")),
                     ("game: whist", lambda d: d.__setitem__("game", "whist")),
                     ("id of another code", lambda d: d.__setitem__("id", "another-code"))):
        yield Mutation("code", code, rel, what, _edit_data(rel, fn))


def all_mutations() -> list[Mutation]:
    from bridgelaw.loader import load_code

    out: list[Mutation] = []
    for code in _codes():
        kinds_of = {p.id: list(p.kinds) for p in load_code(code).provisions}
        out += list(_param_mutations(code))
        out += list(_provision_mutations(code, kinds_of))
        out += list(_file_mutations(code))
        out += list(_yaml_mutations(code))
        out += list(_size_mutations(code))
        out += list(_code_mutations(code))
    out += list(_catalogue_mutations())
    return out


def sample(mutations: list[Mutation], per_family: int, seed: int = 1913) -> list[Mutation]:
    """A fixed sample: every family, every code, ``per_family`` mutations of each family (all where fewer)."""
    rnd = random.Random(seed)
    by: dict[str, list[Mutation]] = {}
    for m in mutations:
        by.setdefault(m.family, []).append(m)
    out = []
    for fam in sorted(by):
        ms = by[fam]
        out += ms if len(ms) <= per_family else rnd.sample(ms, per_family)
    return out


# --------------------------------------------------------------------------
# Running them


class Lab:
    """A copy of ``laws/`` to mutate, and the casebook's full rulings under it unmutated."""

    def __init__(self, where: Path) -> None:
        from bridgelaw.casebook import load_cases

        self.root = where
        self.laws = where / "laws"
        if self.laws.exists():
            shutil.rmtree(self.laws)
        shutil.copytree(ROOT / "laws", self.laws, symlinks=True)
        self.cases = load_cases(ROOT / "rulings") + load_cases(ROOT / "rulings", scores=True)
        self.full: dict[str, str] = {}
        self.ruled: dict[str, str] = {}
        with self._data():
            for case in self.cases:
                self.full[case.path], self.ruled[case.path] = self._views(case)

    def _data(self) -> Any:
        import contextlib

        from bridgelaw.loader import clear_cache

        @contextlib.contextmanager
        def cm() -> Any:
            old = os.environ.get("BRIDGELAW_DATA")
            os.environ["BRIDGELAW_DATA"] = str(self.root)
            clear_cache()
            try:
                yield
            finally:
                if old is None:
                    os.environ.pop("BRIDGELAW_DATA", None)
                else:
                    os.environ["BRIDGELAW_DATA"] = old
                clear_cache()

        return cm()

    @staticmethod
    def _views(case: Any, out: Any = None) -> tuple[str, str]:
        """A ruling (or score) in full, and what it decides: without its trace and the facts it echoes."""
        from bridgelaw import rule, score

        if out is None:
            out = (rule if case.kind == "ruling" else score)(case.incident)
        d = out.to_dict()
        decided = {k: v for k, v in d.items() if k not in ("trace", "facts")}
        return json.dumps(d, sort_keys=True, default=str), json.dumps(decided, sort_keys=True, default=str)

    def run(self, m: Mutation) -> Outcome:
        saved = _snapshot(self.laws / m.code if m.code else self.laws, m)
        t0 = time.perf_counter()
        try:
            m.apply(self.laws)
            with self._data():
                result, detail = self._judge(m)
        finally:
            _restore(self.laws / m.code if m.code else self.laws, saved, m)
        return Outcome(m, result, detail, time.perf_counter() - t0)

    def _judge(self, m: Mutation) -> tuple[str, str]:
        from bridgelaw.casebook import compare, compare_score
        from bridgelaw.errors import BridgelawError, LawFileError
        from bridgelaw.loader import load_code, load_kinds

        def on_alarm(signum: int, frame: Any) -> None:
            raise _Timeout()

        old = signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
        try:
            codes = affected(m.code)
            try:
                load_kinds()
                for c in codes:
                    load_code(c)
            except LawFileError as e:
                if e.path and e.line is not None and e.column is not None:
                    return "refused", str(e).splitlines()[0]
                return "unplaced", str(e)
            except BridgelawError as e:  # an unknown code once its folder is broken: refused by name
                return ("refused" if "unknown code" in str(e) else "crash"), str(e).splitlines()[0]
            changed, retraced = [], []
            for case in self.cases:
                if case.incident.get("code") not in codes:
                    continue
                try:
                    if case.kind == "ruling":
                        from bridgelaw import rule

                        r = rule(case.incident)
                        diffs = compare(r, case.expect)
                    else:
                        from bridgelaw import score

                        r = score(case.incident)
                        diffs = compare_score(r, case.expect)
                except BridgelawError as e:
                    return "caught", f"{case.path}: refused at ruling time: {str(e).splitlines()[0]}"
                if diffs:
                    return "caught", f"{case.path}: {diffs[0][:200]}"
                full, decided = self._views(case, r)
                if decided != self.ruled[case.path]:
                    changed.append(case.path)
                elif full != self.full[case.path]:
                    retraced.append(case.path)
            if changed:
                return "silent", f"{len(changed)} ruling(s) changed, no case caught it: {changed[0]}"
            if retraced:
                return "retraced", f"{len(retraced)} ruling(s) explained differently: {retraced[0]}"
            return "unchanged", ""
        except _Timeout:
            return "hang", f"more than {TIME_LIMIT} s"
        except Exception as e:  # a traceback: the worst outcome
            import traceback

            return "crash", "".join(traceback.format_exception_only(type(e), e)).strip()[:500]
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)


def _snapshot(folder: Path, m: Mutation) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file() and not p.is_symlink()}


def _restore(folder: Path, saved: dict[str, bytes], m: Mutation) -> None:
    for p in list(folder.iterdir()):
        if p.is_dir() and not p.is_symlink():
            continue
        if p.name not in saved or p.is_symlink():
            p.unlink()
    for name, data in saved.items():
        (folder / name).write_bytes(data)


def report(outcomes: list[Outcome]) -> str:
    """Counts by family and outcome, then every bad outcome, then the survivors (unchanged) by family."""
    fams = sorted({o.mutation.family for o in outcomes})
    kinds = ["refused", "caught", "unchanged", "retraced", "silent", "unplaced", "crash", "hang"]
    lines = [f"{'family':<11}" + "".join(f"{k:>10}" for k in kinds) + f"{'total':>8}"]
    for f in fams:
        row = [o for o in outcomes if o.mutation.family == f]
        lines.append(f"{f:<11}" + "".join(f"{sum(o.result == k for o in row):>10}" for k in kinds) + f"{len(row):>8}")
    lines.append(f"{'all':<11}" + "".join(f"{sum(o.result == k for o in outcomes):>10}" for k in kinds)
                 + f"{len(outcomes):>8}")
    bad = [o for o in outcomes if o.result not in GOOD]
    if bad:
        lines.append("\nbad outcomes:")
        lines += [f"  {o.result}: {o.mutation.name}: {o.detail}" for o in bad]
    return "\n".join(lines)
