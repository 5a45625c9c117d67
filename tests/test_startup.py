"""A code kept whole for the next start (``bridgelaw.snapshot``) is never served stale, and rules as a code
loaded afresh does.

- A load reads nothing its snapshot's key leaves out: every file it opens and every folder it lists under the
  laws, the schemas and the grammar (watched with an audit hook, from a cold cache, for every code) is one the
  key covers.
- An edited, an added or a removed file — in the code's own folder, in a folder of a code it extends, in the
  kinds catalogue — makes the snapshot and the ruling kit kept beside it stale: the next load gives what a load
  without any cache gives (the code, or the same refusal).
- A code from its snapshot rules every casebook incident as the code loaded afresh does (whole rulings, the
  trace included), and a start from a snapshot imports neither YAML, JSON Schema nor lark.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bridgelaw
from bridgelaw import cache, snapshot
from bridgelaw.cache import load_entry
from bridgelaw.casebook import load_cases
from bridgelaw.errors import BridgelawError
from bridgelaw.loader import clear_cache, code_ids, load_code
from bridgelaw.resources import grammar_path, laws_dir, schema_dir

ROOT = Path(__file__).resolve().parent.parent

_watch: list[tuple[str, str]] | None = None


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if _watch is not None and event in ("open", "os.listdir", "os.scandir") and args and \
            isinstance(args[0], (str, bytes, os.PathLike)):
        _watch.append((event, os.fsdecode(args[0])))


sys.addaudithook(_hook)  # an audit hook cannot be removed: it records only while a test watches


def _under(path: str, roots: list[Path]) -> bool:
    p = Path(path).resolve()
    return any(p == r or r in p.parents for r in roots)


def _stored(code_id: str) -> tuple[list[str], list[str]]:
    hit = load_entry(snapshot._name(laws_dir(), code_id))
    assert hit is not None, f"{code_id}: no snapshot was kept"
    files, folders, _codes, _body, _check, _parts = hit[1]
    return files, folders


def test_a_load_reads_nothing_its_snapshots_key_leaves_out(tmp_path, monkeypatch, fresh_codes):
    global _watch
    monkeypatch.setenv("BRIDGELAW_CACHE", str(tmp_path / "cache"))  # cold: every file is read, none from a cache
    roots = [laws_dir().resolve(), schema_dir().resolve(), grammar_path().parent.resolve()]
    for code_id in code_ids():
        clear_cache()
        _watch = []
        try:
            load_code(code_id)
        finally:
            seen, _watch = _watch, None
        files, folders = _stored(code_id)
        covered = {str(Path(p).resolve()) for p in files}
        listed = {str(Path(p).resolve()) for p in folders}
        opened = {str(Path(p).resolve()) for e, p in seen if e == "open" and _under(p, roots)}
        scanned = {str(Path(p).resolve()) for e, p in seen if e != "open" and _under(p, roots)}
        assert opened, f"{code_id}: the watch saw no law file read"
        assert opened <= covered, f"{code_id}: read but not in the snapshot's key: {sorted(opened - covered)}"
        assert scanned <= listed, f"{code_id}: listed but not in the snapshot's key: {sorted(scanned - listed)}"


def _incident(code_id: str) -> dict[str, Any]:
    return {"code": code_id, "irregularity": "insufficient_bid", "dealer": "S", "auction": ["1H", "1S"]}


def _plain(value: Any) -> str:
    """A value's repr without the addresses of the functions in it, each set's names in order."""
    text = re.sub(r" at 0x[0-9a-f]+", "", repr(value))
    return re.sub(r"frozenset\(\{([^}]*)\}\)", lambda m: "{" + ", ".join(sorted(m.group(1).split(", "))) + "}", text)


def _what(code_id: str) -> Any:
    """A code as loaded — its laws, provisions, parameters and a ruling — or the refusal."""
    try:
        c = load_code(code_id)
        ruling: Any
        try:
            ruling = bridgelaw.rule(_incident(code_id)).to_dict()
        except BridgelawError as e:
            ruling = ("refused", str(e))
        return repr(dict(c.params)), c.omitted, [_plain(lw) for lw in c.laws], ruling
    except BridgelawError as e:
        return ("refused", type(e).__name__, str(e))


def _fresh(code_id: str, monkeypatch: Any) -> Any:
    clear_cache()
    with monkeypatch.context() as m:
        m.setenv("BRIDGELAW_CACHE", "off")
        out = _what(code_id)
    clear_cache()
    return out


def _edit(root: Path, rel: str, old: str, new: str) -> None:
    p = root / rel
    text = p.read_text(encoding="utf-8")
    assert old in text, f"{rel} has no {old!r}"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")


CHANGES = {
    "an edited law text in the code's own folder": lambda r: _edit(
        r, "laws/wcny-1913-three-hand/01-the-laws-of-three-hand-auction.yaml", "take part in a game", "take part in one game"),
    "an edited law text in the folder of the code it extends": lambda r: _edit(
        r, "laws/wcny-1913/09-a-new-deal.yaml", "renders a new deal necessary", "renders a new deal needful"),
    "an edited parameter of the code it extends": lambda r: _edit(
        r, "laws/wcny-1913/parameters.yaml", "slam: {value: 40,", "slam: {value: 41,"),
    "a stray file added to the code it extends": lambda r: (r / "laws/wcny-1913/notes.txt").write_text("x"),
    "a law file removed from the code it extends": lambda r: (r / "laws/wcny-1913/09-a-new-deal.yaml").unlink(),
    "an edited kinds catalogue": lambda r: _edit(r, "laws/kinds.yaml", "insufficient", "insufficent"),
    "a file added to kinds.d": lambda r: shutil.copy(next((r / "laws/kinds.d").glob("*.yaml")),
                                                     r / "laws/kinds.d/zz-copy.yaml"),
}


@pytest.mark.parametrize("trusted", ["statuses as the cache trusts them", "every status trusted at once"])
@pytest.mark.parametrize("change", list(CHANGES))
def test_a_change_to_any_file_a_code_is_made_from_makes_its_snapshot_stale(change, trusted, tmp_path, monkeypatch,
                                                                              fresh_codes):
    if trusted == "every status trusted at once":  # files just written: their status stands for their content
        monkeypatch.setattr(cache, "SETTLED_NS", 0)
        monkeypatch.setattr(cache, "_module_status", [])
    else:  # files just written are never trusted, however long the machine takes to load them (a busy CI's seconds)
        monkeypatch.setattr(cache, "SETTLED_NS", 3600 * 10**9)
    data = tmp_path / "data"
    for name in ("laws", "grammar", "schema"):
        shutil.copytree(ROOT / name, data / name)
    monkeypatch.setenv("BRIDGELAW_DATA", str(data))
    monkeypatch.setenv("BRIDGELAW_CACHE", str(tmp_path / "cache"))
    code_id = "wcny-1913-three-hand"
    clear_cache()
    before = _what(code_id)  # builds the snapshot
    clear_cache()
    assert snapshot.load(laws_dir(), code_id) is not None, "no snapshot kept, so nothing is tested"
    assert snapshot.load_kit(laws_dir(), code_id) is not None, "no ruling kit kept, so nothing is tested"
    kept = load_entry(snapshot._name(laws_dir(), code_id))[2]  # type: ignore[index]
    assert (kept is not None) == (trusted == "every status trusted at once")
    assert _what(code_id) == before  # served from it, and the same
    CHANGES[change](data)
    clear_cache()
    assert snapshot.load(laws_dir(), code_id) is None, f"{change}: the stale snapshot would be served"
    assert snapshot.load_kit(laws_dir(), code_id) is None, f"{change}: the stale ruling kit would be served"
    after = _what(code_id)
    assert after != before, f"{change}: the change changed nothing, so nothing is tested"
    assert after == _fresh(code_id, monkeypatch)


def test_a_warm_load_whose_files_keep_their_status_reads_none_of_them(tmp_path, monkeypatch, fresh_codes):
    """A snapshot whose files are as they were (the same status: device, inode, size, times) is served without
    reading them; touched (the same content, a new status), it is served after reading them, and kept with the
    new status."""
    monkeypatch.setattr(cache, "SETTLED_NS", 0)
    monkeypatch.setattr(cache, "_module_status", [])
    monkeypatch.setenv("BRIDGELAW_CACHE", str(tmp_path / "cache"))
    roots = [laws_dir().resolve(), schema_dir().resolve(), grammar_path().parent.resolve()]
    code_id = "wcny-1913-duplicate"
    clear_cache()
    load_code(code_id)  # the snapshot kept
    files, _folders = _stored(code_id)

    def opened() -> set[str]:
        global _watch
        clear_cache()
        _watch = []
        try:
            assert snapshot.load(laws_dir(), code_id) is not None
        finally:
            seen, _watch = _watch, None
        return {p for e, p in seen if e == "open" and _under(p, roots)}

    assert opened() == set()
    target = next(p for p in files if p.endswith("parameters.yaml"))
    os.utime(target)  # a new change time, the same content
    assert target in opened()  # read, found the same, and kept with its new status
    assert opened() == set()


def test_a_code_from_its_snapshot_rules_every_casebook_incident_as_a_code_loaded_afresh(tmp_path, monkeypatch,
                                                                                      fresh_codes):
    cases = [c.incident for c in load_cases(ROOT / "rulings")]

    def rule_all() -> list[Any]:
        out = []
        for inc in cases:
            try:
                r = bridgelaw.rule(inc)
                out.append((r.to_dict(), [t.to_dict() for t in r.trace]))
            except BridgelawError as e:
                out.append(("refused", str(e)))
        return out

    monkeypatch.setenv("BRIDGELAW_CACHE", "off")
    clear_cache()
    want = rule_all()
    monkeypatch.setenv("BRIDGELAW_CACHE", str(tmp_path / "cache"))
    for c in code_ids():  # keep every code whole, then start again from the snapshots
        clear_cache()
        load_code(c)
    clear_cache()
    for c in code_ids():
        assert snapshot.load(laws_dir(), c) is not None, c
    assert rule_all() == want


#: What a warm ``rule -`` needs none of: the parsers and validators of the law files, the desk, and the standard
#: library modules its own paths and annotations once brought (typing, pathlib with urllib.parse, shutil through
#: argparse's help formatter, hashlib through the cache key).
NOT_ON_THE_RULE_PATH = frozenset((
    "typing", "pathlib", "urllib", "shutil", "hashlib", "tempfile", "textwrap", "difflib", "subprocess", "sqlite3",
    "asyncio", "yaml", "jsonschema", "lark", "starlette", "uvicorn", "tqdm"))
#: The modules of bridgelaw a warm ``rule -`` imports: one that joins them is a cost every start pays. It rules from
#: the code's ruling kit (bridgelaw.kit), reading the part of the kind it rules, so it imports none of the code's
#: loader, its parameter binder, the incident's edge nor its bounds, the general path's derivations, the
#: validators nor the desk.
RULE_PATH = frozenset(f"bridgelaw.{m}" if m else "bridgelaw" for m in (
    "", "api", "bids", "cache", "cli", "effectwords", "errors", "evaluation", "factvalues", "incidentcode", "kit",
    "limits", "quick", "referee", "resources", "ruler", "seats", "snapshot", "textfile", "values", "wording"))
#: Modules of bridgelaw a warm ``rule -`` of a well-formed incident must not import: what loads a code whole, and
#: what reads an incident by the general path, the condition language's parser and checker (a kit keeps its
#: conditions compiled, and no tree: what they run with is in bridgelaw.evaluation), the YAML reader (plain JSON is
#: read by bridgelaw.textfile) and the loader's seat checks; and the modules of what the kit carries in a plain form
#: of its own: the schema's bounds (the quick path keeps the few it checks), the effect vocabulary (its words, as
#: bridgelaw.effectwords.table derives them), the catalogue and the provisions (bridgelaw.kit.PLAIN_RECORDS); and
#: the typed records of a ruling's words (its JSON and its text are written from the words as worked out).
OFF_THE_RULE_PATH = frozenset(f"bridgelaw.{m}" for m in (
    "loader", "parameters", "lawfiles", "check", "server", "incident", "facts", "conditions", "yamlsrc",
    "seatcheck", "incidentbounds", "vocabulary", "catalogue", "provision", "rulingwords"))
#: The dataclasses a warm ``rule -`` builds (each costs every start the making of its methods): the ruling and what
#: it holds — the typed result it writes — the condition language's type (what the compiled functions' table of
#: functions is typed with) and the kit itself. A class that joins them is a cost every start pays.
RULE_PATH_CLASSES = frozenset(("bridgelaw.values.Effect", "bridgelaw.values.Option", "bridgelaw.values.Question",
                               "bridgelaw.values.TraceStep", "bridgelaw.values.LawCitation", "bridgelaw.values.Ruling",
                               "bridgelaw.evaluation.Type", "bridgelaw.kit.RulingKit"))


def test_a_warm_rule_imports_only_what_the_rule_path_uses(tmp_path):
    env = dict(os.environ, BRIDGELAW_CACHE=str(tmp_path / "cache"))
    inc = '{"code": "wcny-1913", "irregularity": "insufficient_bid", "dealer": "S", "auction": ["1H", "1S"]}'
    probe = ("import sys, json, dataclasses\n"
             "built = []\n"
             "make = dataclasses._process_class  # (what @dataclass calls to build a class's methods)\n"
             "def recorded(cls, *args):\n"
             "    built.append(f'{cls.__module__}.{cls.__qualname__}')\n"
             "    return make(cls, *args)\n"
             "dataclasses._process_class = recorded\n"
             "import bridgelaw.cache\n"
             "bridgelaw.cache.SETTLED_NS = 0  # the files' statuses trusted at once (a checkout just edited)\n"
             "sys.argv = ['bridgelaw', 'rule', '-', '--json']\n"
             "from bridgelaw.cli import main\n"
             "status = main()\n"
             "sys.stderr.write(json.dumps([status, sorted(sys.modules), built]))\n")
    runs = [subprocess.run([sys.executable, "-c", probe], input=inc, capture_output=True, text=True, env=env,
                           timeout=120) for _ in range(2)]
    assert '"insufficient_bid"' in runs[1].stdout and runs[1].stdout == runs[0].stdout
    status, modules, built = json.loads(runs[1].stderr)
    assert status == 0
    assert set(built) == RULE_PATH_CLASSES and len(built) == len(RULE_PATH_CLASSES), \
        f"a warm start built {sorted(set(built) - RULE_PATH_CLASSES)}, and not {sorted(RULE_PATH_CLASSES - set(built))}"
    top = {m.split(".")[0] for m in modules}
    assert not top & NOT_ON_THE_RULE_PATH, f"a warm start imported: {sorted(top & NOT_ON_THE_RULE_PATH)}"
    ours = {m for m in modules if m.split(".")[0] == "bridgelaw"}
    assert ours <= RULE_PATH, f"a warm start imported modules off the rule path: {sorted(ours - RULE_PATH)}"
    assert not ours & OFF_THE_RULE_PATH, f"a warm start loaded its code whole: {sorted(ours & OFF_THE_RULE_PATH)}"
    cold = {m.split(".")[0] for m in json.loads(runs[0].stderr)[1]}
    assert {"yaml", "jsonschema", "lark"} <= cold, "the first start built nothing, so nothing is tested"


_scalars = st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False) | \
    st.text(st.characters(min_codepoint=1, max_codepoint=0x2FF), max_size=8) | \
    st.sampled_from(["yes", "no", "~", "null", "1e3", "0x1F", "- a", "a: b", "#c", "&x", "*x", "!t", "{", "]", "'"])
_json_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=6), inner, max_size=4), max_leaves=20)


def _spoil(text: str, rnd: Any) -> str:
    """JSON text spoilt a little: a character removed, doubled or changed, or a key written twice."""
    if not text:
        return text
    i = rnd.randrange(len(text))
    how = rnd.randrange(4)
    if how == 0:
        return text[:i] + text[i + 1:]
    if how == 1:
        return text[:i] + text[i] + text[i:]
    if how == 2:
        return text[:i] + rnd.choice('{}[],:"\\ \t\n-0e.#') + text[i + 1:]
    return text.replace('{"', '{"k": 1, "k": 2, "', 1)


def _read_by_yaml(text: str) -> Any:
    from bridgelaw.yamlsrc import _compose

    try:
        return ("value", _compose(text, "<stdin>")[0])
    except BridgelawError as e:
        return ("refused", str(e))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_json_values, st.sampled_from([(", ", ": "), (",", ":"), (" , ", " : ")]), st.sampled_from([None, 0, 2]),
       st.booleans(), st.randoms(use_true_random=False))
def test_plain_json_is_read_quickly_only_as_the_yaml_rules_read_it(value, separators, indent, ascii_only, rnd):
    from bridgelaw.yamlsrc import _DECLINED, json_quickly

    text = json.dumps(value, separators=separators, indent=indent, ensure_ascii=ascii_only)
    for t in (text, _spoil(text, rnd), _spoil(_spoil(text, rnd), rnd)):
        quick = json_quickly(t)
        if quick is not _DECLINED:
            assert _read_by_yaml(t) == ("value", quick), t


def _actions(parser: Any) -> list[Any]:
    return [(a.option_strings, a.dest, a.nargs, a.const, a.default, a.type if not callable(a.type) else
             getattr(a.type, "__name__", repr(a.type)), a.choices, a.required, a.help, a.metavar)
            for a in parser._actions]


def test_the_parser_built_for_one_command_is_that_commands_parser_in_the_whole_one():
    from bridgelaw.cli import build_parser

    whole = build_parser()
    sub = next(a for a in whole._actions if a.choices and isinstance(a.choices, dict))
    assert "rule" in sub.choices and len(sub.choices) > 10
    for name, full in sub.choices.items():
        alone = build_parser(name)
        only = next(a for a in alone._actions if a.choices and isinstance(a.choices, dict))
        assert list(only.choices) == [name]
        assert _actions(only.choices[name]) == _actions(full), name
        assert only.choices[name].format_help() == full.format_help(), name
    assert build_parser("no-such-command")._actions[-1].choices.keys() == sub.choices.keys()
