"""A code's ruling kit (``bridgelaw.kit``) rules as the code itself does, and is never served stale or broken.

- Every casebook incident and a few thousand generated ones (well formed, as a game engine sends them, and mostly
  valid with now and then a field spoilt) ruled from the kit give what the code loaded whole gives: the ruling's
  JSON with its words, its text, its trace as steps (``--why``), or the same refusal.
- What the kit does not keep is asked of the whole code, loaded then.
- A kit entry truncated, spoilt or written for other files is no kit: the start loads the code whole, and rules
  the same.
- ``bridgelaw rule -`` from a warm cache answers, refuses and fails as a start without any cache does.
"""

from __future__ import annotations

import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import bridgelaw
from bridgelaw import api, kit, snapshot
from bridgelaw.cache import _entry, load_entry, store
from bridgelaw.casebook import load_cases
from bridgelaw.errors import BridgelawError
from bridgelaw.loader import clear_cache, code_ids, load_code
from bridgelaw.resources import laws_dir
from bridgelaw.wording import ruling_text

from incidents import random_incident

ROOT = Path(__file__).resolve().parent.parent
SEATS = "NESW"


def _seen(inc: Any) -> Any:
    """All a caller sees of a ruling — its JSON with its words, its text, its trace as steps — or the refusal."""
    try:
        r = bridgelaw.rule(inc)
        return (json.dumps(api.ruling_dict(r), sort_keys=True), ruling_text(r),
                [(t.provision, t.law, t.applied, t.because) for t in r.trace])
    except BridgelawError as e:
        return ("refused", type(e).__name__, str(e))


def _engine_incidents(n: int, seed: int) -> list[dict[str, Any]]:
    """Auctions as a game engine sends them: a bid not higher than the last, now and then a pass after it."""
    rnd = random.Random(seed)
    out = []
    for code_id in code_ids():
        strains = load_code(code_id).params.get("trick_values") or {}
        bids = [f"{level}{s}" for level in range(1, 8) for s in strains]
        for _ in range(n):
            auction = [rnd.choice(["P", "X", "XX"] + bids) for _ in range(rnd.randint(0, 5))] + [rnd.choice(bids)]
            if rnd.random() < 0.3:
                auction += rnd.choice([["P"], ["P", "P"], ["P", "P", "P"], [bids[0]]])
            inc: dict[str, Any] = {"code": code_id, "irregularity": rnd.choice(["insufficient_bid", "impossible_bid"]),
                                   "dealer": rnd.choice(SEATS), "auction": auction}
            if rnd.random() < 0.2:
                inc["offender"] = rnd.choice(SEATS)
            if rnd.random() < 0.2:
                inc["facts"] = {"corrected": rnd.random() < 0.5}
            out.append(inc)
    return out


@pytest.fixture(scope="module")
def _made(tmp_path_factory):
    """A cache holding every code's snapshot and kit (made once for the module)."""
    where = tmp_path_factory.mktemp("kits") / "cache"
    with pytest.MonkeyPatch.context() as m:
        m.setenv("BRIDGELAW_CACHE", str(where))
        for c in code_ids():
            clear_cache()
            load_code(c)
    clear_cache()
    return where


@pytest.fixture
def kits(_made, monkeypatch, fresh_codes):
    """That cache, and no code loaded; a test that spoils an entry puts it back."""
    monkeypatch.setenv("BRIDGELAW_CACHE", str(_made))
    kept = {p: p.read_bytes() for p in _made.iterdir()}
    yield _made
    for p, data in kept.items():
        p.write_bytes(data)


def _classes_read(monkeypatch: Any) -> list[str]:
    """Record every class a kit's pickles name as they are read (the list fills as kits are read)."""
    named: list[str] = []
    made = kit._unpickler

    def recording() -> type:
        class Recording(made()):  # type: ignore[misc]
            def find_class(self, module: str, name: str) -> Any:
                named.append(f"{module}.{name}")
                return super().find_class(module, name)
        return Recording

    monkeypatch.setattr(kit, "_unpickler", recording)
    return named


def test_a_ruling_from_the_kit_is_the_ruling_from_the_whole_code(kits, monkeypatch):
    rnd = random.Random(4)
    cases = [c.incident for c in load_cases(ROOT / "rulings")]
    incidents = cases + _engine_incidents(80, 18) + [random_incident(rnd) for _ in range(800)]
    clear_cache()
    whole = []
    for c in code_ids():
        load_code(c)  # every code loaded whole: no kit is read
    for inc in incidents:
        whole.append(_seen(inc))
    clear_cache()
    from_kit = 0
    for inc, want in zip(incidents, whole):
        kit.LOADED.clear()  # (the loader keeps what it loaded: only the kit is at hand for each incident)
        got = _seen(inc)
        from_kit += not kit.LOADED
        assert got == want, inc
    assert from_kit > len(incidents) // 4, f"only {from_kit} incidents were ruled from a kit, so little is tested"
    assert all(kit._KITS[c] is not None for c in code_ids()), "a code had no kit"


def test_what_the_kit_does_not_keep_is_asked_of_the_whole_code(kits):
    k = kit.for_code("wcny-1913")
    assert isinstance(k, kit.RulingKit)
    assert "bridgelaw.loader" in sys.modules  # (imported by this test module: the subprocess test pins the rest)
    assert not kit.LOADED, "reading the kit loaded the code"
    assert k.laws == load_code("wcny-1913").laws  # asked of the code, loaded then
    assert (k.title, k.year, k.players, k.game) == (load_code("wcny-1913").title, load_code("wcny-1913").year,
                                                    load_code("wcny-1913").players, load_code("wcny-1913").game)
    with pytest.raises(AttributeError):
        k.no_such_thing  # noqa: B018 - the code has none either


def _kit_entry(code_id: str) -> str:
    return _entry(snapshot._name(laws_dir(), code_id, "kit"))  # type: ignore[return-value]


def _truncated(code_id: str) -> None:
    path = _kit_entry(code_id)
    data = Path(path).read_bytes()
    Path(path).write_bytes(data[: len(data) // 2])


def _spoilt_body(code_id: str) -> None:  # the entry whole, its body not (a byte changed)
    name = snapshot._name(laws_dir(), code_id, "kit")
    key, (files, folders, codes, body, check, parts), kept = load_entry(name)  # type: ignore[misc]
    i = len(body) // 3
    store(name, [], (files, folders, codes, _flip(body, i), check, parts), key, kept)


def _flip(data: bytes, i: int) -> bytes:
    return data[:i] + bytes([data[i] ^ 0x55]) + data[i + 1:]


def _spoilt_code(code_id: str) -> None:  # its compiled code changed: never run
    name = snapshot._name(laws_dir(), code_id, "kit")
    key, (files, folders, codes, body, check, parts), kept = load_entry(name)  # type: ignore[misc]
    store(name, [], (files, folders, _flip(codes, len(codes) // 2), body, check, parts), key, kept)


def _not_pickled(code_id: str) -> None:  # a body that is no pickle, its checksum right
    import zlib

    name = snapshot._name(laws_dir(), code_id, "kit")
    key, (files, folders, codes, _body, _check, parts), kept = load_entry(name)  # type: ignore[misc]
    body = pickle.dumps({"a": [1, 2, 3]})[:-3]
    store(name, [], (files, folders, codes, body, zlib.crc32(body, zlib.crc32(codes)), parts), key, kept)


def _other_files(code_id: str) -> None:  # a kit kept for files that are not these
    name = snapshot._name(laws_dir(), code_id, "kit")
    key, value, kept = load_entry(name)  # type: ignore[misc]
    store(name, [], value, "0" * 64, None)


SPOILT = {"a kit entry cut in half": _truncated, "a byte of its body changed": _spoilt_body,
          "a byte of its compiled code changed": _spoilt_code, "a body that is no pickle": _not_pickled,
          "a kit kept under another content key": _other_files}


def _spoilt_part(code_id: str, how: str) -> None:
    """One kind's part spoilt, the rest of the kit whole."""
    name = snapshot._name(laws_dir(), code_id, "kit")
    key, (files, folders, codes, body, check, parts), kept = load_entry(name)  # type: ignore[misc]
    p_codes, p_body, p_check = parts["insufficient_bid"]
    parts = dict(parts, insufficient_bid={"cut": (p_codes, p_body[: len(p_body) // 2], p_check),
                                          "flipped": (p_codes, _flip(p_body, len(p_body) // 2), p_check),
                                          "code flipped": (_flip(p_codes, len(p_codes) // 3), p_body, p_check),
                                          "no part": None}[how])
    store(name, [], (files, folders, codes, body, check, parts), key, kept)


@pytest.mark.parametrize("how", ["cut", "flipped", "code flipped", "no part"])
def test_a_kinds_part_that_cannot_be_read_is_ruled_by_the_whole_code(how, kits):
    inc = {"code": "wcny-1913", "irregularity": "insufficient_bid", "dealer": "S", "auction": ["1H", "1S"]}
    want = _seen(inc)
    clear_cache()
    _spoilt_part("wcny-1913", how)
    assert isinstance(kit.for_code("wcny-1913"), kit.RulingKit), "the rest of the kit was not read"
    assert _seen(inc) == want
    assert "wcny-1913" in kit.LOADED, f"{how}: ruled from the part"


@pytest.mark.parametrize("spoil", list(SPOILT))
def test_a_kit_that_cannot_be_read_is_no_kit_and_the_code_is_loaded_whole(spoil, kits):
    inc = {"code": "wcny-1913", "irregularity": "insufficient_bid", "dealer": "S", "auction": ["1H", "1S"]}
    want = _seen(inc)
    clear_cache()
    assert snapshot.load_kit(laws_dir(), "wcny-1913") is not None, "no kit kept, so nothing is tested"
    SPOILT[spoil]("wcny-1913")
    clear_cache()
    assert snapshot.load_kit(laws_dir(), "wcny-1913") is None, f"{spoil}: the kit was read"
    clear_cache()
    assert _seen(inc) == want
    assert "wcny-1913" in kit.LOADED, "ruled without the kit, the code was not loaded whole"


def _cli(args: list[str], stdin: str, env: dict[str, str]) -> tuple[int, str, str]:
    p = subprocess.run([sys.executable, "-m", "bridgelaw", *args], input=stdin, capture_output=True, text=True,
                       env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr


CLI_INPUTS = {
    "an insufficient bid": '{"code": "wcny-1913", "irregularity": "insufficient_bid", "dealer": "S", '
                           '"auction": ["1H", "1S"]}',
    "an impossible bid, under the 1909 code": '{"code": "portland-1909", "irregularity": "impossible_bid", '
                                              '"dealer": "N", "auction": ["7NT", "P", "6S"]}',
    "a revoke, with a question": '{"code": "wcny-1913", "irregularity": "revoke", "offender": "E"}',
    "a dealer who is no seat": '{"code": "wcny-1913", "irregularity": "insufficient_bid", "dealer": "Q", '
                               '"auction": ["1H", "1S"]}',
    "a code that is none": '{"code": "wcny-1931", "irregularity": "insufficient_bid", "dealer": "S", '
                           '"auction": ["1H", "1S"]}',
    "a call after the auction closed": '{"code": "wcny-1913", "irregularity": "insufficient_bid", "dealer": "S", '
                                       '"auction": ["1H", "P", "P", "P", "1C"]}',
}


@pytest.mark.parametrize("what", list(CLI_INPUTS))
@pytest.mark.parametrize("flags", [["--json"], ["--why"]])
def test_a_warm_rule_answers_and_refuses_as_a_start_without_a_cache(what, flags, kits):
    env = dict(os.environ, BRIDGELAW_CACHE=str(kits))
    cold = _cli(["rule", "-", *flags], CLI_INPUTS[what], dict(env, BRIDGELAW_CACHE="off"))
    assert _cli(["rule", "-", *flags], CLI_INPUTS[what], env) == cold
    if cold[0] != 0:
        assert cold[0] == 2 and cold[2].count("\n") == 1 and cold[2].startswith("bridgelaw: "), cold


def test_an_id_that_names_no_code_is_refused_and_not_remembered(kits):
    for i in range(50):
        with pytest.raises(BridgelawError, match="unknown code"):
            bridgelaw.rule({"code": f"no-such-code-{i}", "irregularity": "revoke"})
    assert not [k for k in kit._KITS if k.startswith("no-such")], "a desk asked for bad codes would keep them all"


def _broken_incidents() -> list[Any]:
    from bridgelaw.yamlsrc import load_yaml_text

    out = []
    for p in sorted((ROOT / "tests" / "broken" / "incidents").glob("*.yaml")):
        text = p.read_text(encoding="utf-8")
        try:
            out.append(load_yaml_text(text, p.name).data)
        except BridgelawError:
            continue  # (one that is no YAML at all is the reader's case, not the kit's)
    return out


def test_a_broken_incident_is_refused_from_the_kit_as_by_the_whole_code(kits):
    incidents = _broken_incidents()
    assert len(incidents) > 20
    clear_cache()
    for c in code_ids():
        load_code(c)
    whole = [_seen(inc) for inc in incidents]
    assert all(w[0] == "refused" for w in whole), [i for i, w in zip(incidents, whole) if w[0] != "refused"]
    clear_cache()
    from_kit = 0
    for inc, want in zip(incidents, whole):
        kit.LOADED.clear()
        assert _seen(inc) == want, inc
        from_kit += not kit.LOADED
    assert from_kit > 0, "no broken incident was refused from a kit, so nothing is tested"


def test_a_kit_keeps_no_condition_tree(kits, monkeypatch):
    """A kit's core and every kind's part name no class of the condition language's tree: its provisions and its
    catalogue keep an Unread where a tree was (what reads a tree — a kind's offender, a derivation the quick path
    leaves to the general steps — reads the catalogue's own; tests above rule every kind from the kit)."""
    from bridgelaw.evaluation import UNREAD

    named = _classes_read(monkeypatch)
    clear_cache()
    read_parts = 0
    for c in code_ids():
        k = kit.for_code(c)
        assert isinstance(k, kit.RulingKit), c
        for kind in list(k.__dict__["_parts"]):
            assert k.__dict__["_rulers"].get(kind) is not None, (c, kind)
            read_parts += 1
        provisions = [p for r in dict.values(k.__dict__["_rulers"]) for p in r.provisions]
        assert not [p for p in provisions if p.when_tree not in (None, UNREAD)]
        assert not [p for p in provisions if any(t is not UNREAD for t in p.chooser_trees)]
        common, kinds = k.kinds
        assert not [n for n, f in common.items() if f.derive_tree not in (None, UNREAD)]
        assert not [n for n, x in kinds.items() if x.offender_tree not in (None, UNREAD)]
    assert read_parts > 50
    assert "bridgelaw.evaluation.UNREAD" in named, "no tree was left out, so nothing is tested"
    assert not [n for n in named if n.startswith("bridgelaw.conditions.")], sorted(set(named))


def _same_as_typed(plain: Any, typed: Any, where: str) -> None:
    """``plain`` (what a kit keeps) holds what ``typed`` (the record it stands for) holds: each of the records
    :data:`bridgelaw.kit.PLAIN_RECORDS` names as a namespace of the same fields, a condition tree as UNREAD, a
    compiled condition as a function of the same code (or the same constant), and the rest equal."""
    from dataclasses import fields, is_dataclass
    from functools import partial
    from types import FunctionType, SimpleNamespace

    from bridgelaw.conditions import Node
    from bridgelaw.evaluation import UNREAD

    if is_dataclass(typed) and f"{type(typed).__module__}.{type(typed).__qualname__}" in kit.PLAIN_RECORDS:
        assert type(plain) is SimpleNamespace, where
        assert list(vars(plain)) == [f.name for f in fields(typed)], where
        for f in fields(typed):
            _same_as_typed(getattr(plain, f.name), getattr(typed, f.name), f"{where}.{f.name}")
    elif isinstance(typed, Node):
        assert plain is UNREAD, where
    elif type(typed) is FunctionType:
        assert type(plain) is FunctionType and plain.__code__.co_code == typed.__code__.co_code, where
    elif type(typed) is partial:  # (a constant condition, a list chooser)
        assert type(plain) is partial and plain.func is typed.func, where
        _same_as_typed(plain.args, typed.args, f"{where}.args")
    elif isinstance(typed, (tuple, list)):
        assert type(plain) is type(typed) and len(plain) == len(typed), where
        for i, (a, b) in enumerate(zip(plain, typed)):
            _same_as_typed(a, b, f"{where}[{i}]")
    elif isinstance(typed, dict):
        assert type(plain) is dict and list(plain) == list(typed), where
        for k in typed:
            _same_as_typed(plain[k], typed[k], f"{where}[{k!r}]")
    else:
        assert plain == typed, where


def test_what_a_kit_keeps_plain_is_what_its_typed_source_holds(kits, monkeypatch):
    """A kit keeps what a ruling only reads of the catalogue and of the provisions as namespaces of their records'
    fields (bridgelaw.kit.PLAIN_RECORDS), the effect vocabulary's words as bridgelaw.effectwords.table derives them
    from the typed vocabulary, and the schema's bounds the quick path checks as plain values: each holds what its
    typed source holds, and reading the kit names none of their classes (so a warm start builds none)."""
    from bridgelaw.catalogue import load_kinds
    from bridgelaw.effectwords import table
    from bridgelaw.incidentbounds import _bounds
    from bridgelaw.quick import BOUNDS_READ
    from bridgelaw.vocabulary import vocabulary

    named = _classes_read(monkeypatch)
    clear_cache()
    read = {}
    for c in code_ids():
        k = kit.for_code(c)
        assert isinstance(k, kit.RulingKit), c
        read[c] = (k, {kind: k.__dict__["_rulers"].get(kind) for kind in list(k.__dict__["_parts"])})
    assert not kit.LOADED, "reading the kits loaded a code"
    kept = {n.rpartition(".")[0] for n in kit.PLAIN_RECORDS} | {"bridgelaw.vocabulary", "bridgelaw.incidentbounds"}
    assert not [n for n in named if n.rpartition(".")[0] in kept], sorted(set(named))
    assert "types.SimpleNamespace" in named, "no record was kept plain, so nothing is tested"
    typed_kinds = load_kinds()
    words = table(vocabulary())
    bounds = {name: getattr(_bounds(), name) for name in BOUNDS_READ}
    provisions = 0
    for c, (k, rulers) in read.items():
        _same_as_typed(k.kinds, typed_kinds, f"{c}: the catalogue")
        assert k.words == words, c
        ctx = k.__dict__.get("_quick")
        assert ctx is None or ctx.bounds == bounds, c
        code = load_code(c)
        for kind, r in rulers.items():
            want = tuple(code.by_kind.get(kind, ()))
            _same_as_typed(r.provisions, want, f"{c}: {kind}")
            provisions += len(want)
    assert provisions > 100 and words and bounds
