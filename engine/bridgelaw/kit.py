"""The ruling kit: what ruling on an incident needs of a code, kept beside the code's snapshot for the next start.

A start that rules once (``bridgelaw rule -``) needs, of the code it rules under, each kind's compiled ruling
function and trace writer (:mod:`bridgelaw.ruler`), the quick path's tables (:mod:`bridgelaw.quick`: the bids in
order, the settling of facts, the seat model), the irregularity catalogue, the laws a ruling cites with their
text and footnotes, and the code's name, year and parameters — not its laws as read, their provisions' sources,
nor the loader, the parameter binder and the validators that made them, nor any condition tree: its conditions
are kept compiled, and :data:`~bridgelaw.evaluation.UNREAD` stands where a provision or the catalogue had a tree
(what reads a tree reads the whole code's, or the catalogue's own), so a start imports no parser nor checker. The kit is that part of a loaded code:
made from it by :func:`make` (once, as its snapshot is written: never by hand), and kept as one cache entry
under the same key as the snapshot (:mod:`bridgelaw.snapshot`: the same files, folders and statuses, so it is
stale exactly when the snapshot is), written atomically: a core (the code's name, year and parameters, the
catalogue, the laws cited, the quick path's tables) and one part a kind (its ruler and its settling of facts),
each with a checksum of its compiled code and body. A start reads the core, and the part of the one kind it rules.

What a ruling only reads of the catalogue and of the provisions the kit keeps plain (:data:`PLAIN_RECORDS`: each
record as a namespace of its fields), the effect vocabulary as its table of words
(:func:`bridgelaw.effectwords.table`), and the incident schema's bounds as the few numbers the quick path checks,
so that a warm start imports neither the catalogue, the provisions' module, the vocabulary nor the schema's
bounds, and builds none of their classes.

A :class:`RulingKit` stands for its code wherever ruling reads one; anything else asked of it (a law's
provisions, a parameter's citation) is asked of the whole code, loaded then (:func:`bridgelaw.loader.load_code`).
A kit that cannot be read — missing, stale, truncated, corrupt — is no kit: the start loads the code whole; a
kind's part that cannot be read is ruled by the whole code's ruler. A code of three players keeps a kit too, but
the quick path leaves its incidents to the general path, which loads the code whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import CodeType, FunctionType, SimpleNamespace

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from typing import Any, Callable

    from .values import Call

__all__ = ["RulingKit", "make", "for_code", "kinds_of", "effect_words", "code_for_words", "LOADED"]

#: The codes this process has loaded whole, by id (the loader's: :func:`bridgelaw.loader.loaded`).
LOADED: dict[str, Any] = {}
#: The kits this process has read, by code id (None: none could be read; the code is loaded whole).
_KITS: dict[str, RulingKit | None] = {}


@dataclass(eq=False)
class RulingKit:
    """A code as ruling needs it (see the module's docstring); what it does not keep is its whole code's."""

    id: str
    title: str
    year: int
    game: str
    players: int
    #: the code's parameters as plain values (what the quick path and the bid table read)
    params: dict[str, Any]
    restated: frozenset[str]
    #: the irregularity catalogue the code was loaded with: (common facts, kinds)
    kinds: tuple[Any, Any]
    #: the effect vocabulary's words, as :func:`bridgelaw.effectwords.table` derives them (what a ruling's effects
    #: are said with)
    words: dict[str, Any]
    # Beside its fields, what ruling remembers on a code: ``_rulers`` (each kind's :class:`~bridgelaw.ruler.Ruler`),
    # ``_quick`` (the quick path's tables), ``_cites`` (each law a ruling may cite, with its footnotes).

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in _OWN:  # (pickle's, copy's and the like, or a field not yet read)
            raise AttributeError(name)
        return getattr(self.whole, name)

    @property
    def whole(self) -> Any:
        """The code itself, loaded (once a process) when something asks what the kit does not keep."""
        from .loader import load_code

        return load_code(self.id)

    @property
    def seats(self) -> Any:
        from .seats import model_for

        return model_for(self.players)

    @property
    def value_of(self) -> Callable[[Call], int]:
        fn = self.__dict__.get("_value_of")
        if fn is None:
            fn = self.__dict__["_value_of"] = bid_values(self.params)
        return fn

    def __repr__(self) -> str:
        return f"RulingKit({self.id!r})"


_OWN = frozenset(("id", "title", "year", "game", "players", "params", "restated", "kinds", "words", "_rulers", "_quick",
                  "_cites", "_value_of"))


def bid_values(params: Any) -> Callable[[Call], int]:
    """A code's bid values as one quick function of a bid (its level times its strain's trick value): what an
    incident's facts price bids with (:attr:`bridgelaw.loader.Code.value_of`)."""
    values = {s: int(v) for s, v in (params.get("trick_values") or {}).items()}

    def value_of(call: Call) -> int:
        return call.level * values[call.strain]  # type: ignore[operator,index]

    return value_of


def for_code(code_id: str) -> Any:
    """The code to rule under, if this process has it at hand: loaded whole, or its kit read from the cache
    (None: neither; the caller loads it whole)."""
    code = LOADED.get(code_id)
    if code is not None:
        return code
    kit = _KITS.get(code_id, False)
    if kit is False:
        kit = _read(code_id)
        if kit is not None or _is_code(code_id):  # (an id that names no code is not remembered: a desk asked
            _KITS[code_id] = kit  # for a thousand such keeps none of them)
    return kit


def _is_code(code_id: str) -> bool:
    import os

    from .resources import laws_path

    try:
        return os.path.isfile(os.path.join(laws_path(), code_id, "code.yaml"))
    except (OSError, ValueError, TypeError):
        return False


def kinds_of() -> tuple[Any, Any]:
    """The irregularity catalogue: a kit's, if one was read (the same: its key covers the catalogue), else
    :func:`bridgelaw.catalogue.load_kinds`."""
    for kit in _KITS.values():
        if kit is not None:
            return kit.kinds
    from .catalogue import load_kinds

    return load_kinds()  # type: ignore[no-any-return]


def effect_words() -> dict[str, Any]:
    """The shipped effect vocabulary's words (:func:`bridgelaw.effectwords.table`): a kit's, if one was read (the
    same: its key covers ``schema/``), else derived from :func:`bridgelaw.vocabulary.vocabulary`."""
    for kit in _KITS.values():
        if kit is not None:
            return kit.words
    return _shipped_words()


def _shipped_words() -> dict[str, Any]:
    from .vocabulary import vocabulary

    vocab = vocabulary()
    if _WORDS.get("of") is not vocab:  # (derived again only if the vocabulary was read again)
        from .effectwords import table

        _WORDS.update(of=vocab, words=table(vocab))
    return _WORDS["words"]  # type: ignore[no-any-return]


#: The shipped vocabulary's table of words, and the vocabulary it was derived from.
_WORDS: dict[str, Any] = {}


def code_for_words(code_id: str) -> Any:
    """What a ruling's words read of its code (its id, title and year): the code, or its kit."""
    code = for_code(code_id) if isinstance(code_id, str) else None
    if code is None:
        from .loader import load_code

        code = load_code(code_id)
    return code


def clear() -> None:
    """Forget the kits read (with :func:`bridgelaw.loader.clear_cache`)."""
    _KITS.clear()
    LOADED.clear()


def _read(code_id: str) -> RulingKit | None:
    if type(code_id) is not str or not 0 < len(code_id) <= 64 or not code_id.replace("-", "").isalnum() or \
            not code_id.isascii() or code_id != code_id.lower():
        return None  # (no code's id: the general path says so)
    from .resources import laws_path
    from .snapshot import load_kit

    return load_kit(laws_path(), code_id)  # type: ignore[no-any-return]


# --------------------------------------------------------------------------
# Making a kit


def make(code: Any) -> RulingKit:
    """The kit of a loaded ``code`` whose ruling functions and quick-path tables are written
    (:func:`bridgelaw.quick.prepare`): what its rulings read, and each law they may cite."""
    from . import referee
    from .catalogue import load_kinds

    kit = RulingKit(code.id, code.title, code.year, code.game, code.players, _plain(code.params),
                    code.restated, load_kinds(), _shipped_words())
    rulers = code.__dict__["_rulers"]
    for r in rulers.values():  # every law a ruling of the kind may cite, with each set of its footnotes
        cited: dict[str, set[str]] = {}
        for p in r.provisions:
            cited.setdefault(p.law, set()).update(p.footnotes)
            for c in p.cites:
                cited.setdefault(c, set())
        for number, fns in cited.items():
            for chosen in _subsets(sorted(fns)):
                referee._cite(code, number, set(chosen))
    kit.__dict__["_rulers"] = rulers
    kit.__dict__["_cites"] = code.__dict__.get("_cites", {})
    if "_quick" in code.__dict__:
        kit.__dict__["_quick"] = code.__dict__["_quick"]
    return kit


def _subsets(items: list[str]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = [()]
    for x in items:
        out += [s + (x,) for s in out]
    return out


def _plain(value: Any) -> Any:
    """Parameters as plain dicts and values (a :class:`~bridgelaw.parameters.Parameters` without its citations)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


# --------------------------------------------------------------------------
# Pickling a kit. The kit is kept as a core — its fields, the catalogue, the laws cited, the quick path's tables —
# and one part a kind: its ruler and its settling of facts, read when that kind is first ruled. The code the kit
# stands for is pickled as the kit; each function the referee generated, as its source's name and its namespace
# (made again from the source's compiled code, which the entry keeps).


def dump(code: Any, root: Any, base: type) -> tuple[bytes, bytes, dict[str, tuple[bytes, bytes, int]]]:
    """The kit of ``code`` (:func:`make`) as an entry keeps it: the core's compiled code and body, and each kind's
    part (its compiled code, its body and their checksum). ``base`` is the snapshot's pickler."""
    import io
    import zlib

    from .snapshot import compiled

    kit = make(code)
    rulers = kit.__dict__.pop("_rulers")
    ctx = kit.__dict__.get("_quick")
    settlers = ctx.settlers if ctx is not None else {}
    pickler = _pickler(code, kit, settlers, base)
    buf = io.BytesIO()
    core = pickler(buf, root, None)
    core.dump(kit)
    parts = {}
    for kind, r in rulers.items():
        part = io.BytesIO()
        p = pickler(part, root, kit)
        p.dump((r, settlers.get(kind)))
        codes, body = compiled(p.texts), part.getvalue()
        parts[kind] = (codes, body, zlib.crc32(body, zlib.crc32(codes)))
    kit.__dict__["_rulers"] = rulers
    return compiled(core.texts), buf.getvalue(), parts


def read(codes: bytes, body: bytes, parts: dict[str, tuple[bytes, bytes, int]]) -> RulingKit:
    """A kit from what :func:`dump` wrote (each kind's part read when the kind is first ruled)."""
    import pickle

    from .snapshot import seed

    import io

    seed(codes)
    settlers = _ByKind(None)
    kit = _Unpickler(io.BytesIO(body), settlers).load()
    if type(kit) is not RulingKit or not isinstance(parts, dict):
        raise TypeError("not a ruling kit")
    kit.__dict__["_parts"] = dict(parts)
    kit.__dict__["_rulers"] = _ByKind(kit)
    settlers.kit = kit
    return kit


class _ByKind(dict):  # type: ignore[type-arg]
    """A kit's rulers, or its settlers: each kind's read from the kit's part for it when first asked for."""

    def __init__(self, kit: RulingKit | None) -> None:
        super().__init__()
        self.kit = kit

    def get(self, kind: str, default: Any = None) -> Any:
        if kind not in self and self.kit is not None:
            _read_part(self.kit, kind)
        return dict.get(self, kind, default)


def _read_part(kit: RulingKit, kind: str) -> None:
    """Read one kind's part of ``kit``: its ruler and its settler. A part that cannot be read gives the ruler of
    the whole code (loaded then), and no settler (the quick path writes one)."""
    import io

    from .snapshot import seed, whole

    parts = kit.__dict__["_parts"]
    part = parts.get(kind)  # (left in place until its ruler is: another thread asking meanwhile reads it too)
    if part is None:
        return
    got = None
    try:
        codes, body, check = part
        if whole(codes, body, check):
            seed(codes)
            got = _Unpickler(io.BytesIO(body), kit).load()
    except Exception:  # a part that cannot be read is none
        got = None
    if type(got) is not tuple or len(got) != 2:
        from .ruler import ruler

        got = (ruler(kit.whole, kind), None)
    dict.__setitem__(kit.__dict__["_rulers"], kind, got[0])
    ctx = kit.__dict__.get("_quick")
    if got[1] is not None and ctx is not None:
        dict.__setitem__(ctx.settlers, kind, got[1])
    parts.pop(kind, None)


def _itself(x: Any) -> Any:
    return x


def _function(text: str, name: str) -> Any:
    from .evaluation import code_of, namespace_base

    ns = dict(namespace_base())
    exec(code_of(text, "<bridgelaw kit>"), ns)  # our own generated source, kept by the cache
    return ns[name]


def _namespace(fn: Any, names: dict[str, Any]) -> None:
    fn.__globals__.update(names)


def _pickler(code: Any, kit: RulingKit, settlers: dict[str, Any], base: type) -> Any:
    """A pickler class (from ``base``, the snapshot's) for ``kit``: made with the kit it is a part of, it writes
    the kit, its quick path and its catalogue by name; made with None, the core, without the rulers and settlers."""
    from importlib import import_module

    from .conditions import Node
    from .evaluation import _CODES, UNREAD, namespace_base

    plain = {getattr(import_module(name.rpartition(".")[0]), name.rpartition(".")[2]) for name in PLAIN_RECORDS}

    made: dict[int, str] = {}
    for text, module in _CODES.items():
        for c in module.co_consts:
            if isinstance(c, CodeType):
                made[id(c)] = text
    shared = namespace_base()
    common, kinds = kit.kinds
    ctx = kit.__dict__.get("_quick")
    named: dict[int, Any] = {id(code): "kit", id(kit): "kit", id(common): "common", id(kit.kinds): "kinds",
                             **{id(k): ("kind", n) for n, k in kinds.items()}}
    if ctx is not None:
        named[id(ctx)] = "quick"

    class _KitPickler(base):  # type: ignore[misc,valid-type]
        def __init__(self, file: Any, root: Any, part_of: RulingKit | None) -> None:
            super().__init__(file, root)
            self.part_of = part_of

        def persistent_id(self, obj: Any) -> Any:
            if self.part_of is None:  # the core: each kind's settler is in its part
                return "settlers" if obj is settlers else None
            return named.get(id(obj))

        def reducer_override(self, obj: Any) -> Any:
            if obj is code:
                return _itself, (kit,)
            if isinstance(obj, Node):  # a condition tree: the kit keeps its conditions compiled, not their trees
                return _itself, (UNREAD,)
            if type(obj) in plain:  # a record only read: kept plain (PLAIN_RECORDS)
                return SimpleNamespace, (), plain_record(obj)
            if type(obj) is FunctionType:
                if obj is code.__dict__.get("_value_of"):
                    return bid_values, (kit.params,)
                text = made.get(id(obj.__code__))
                if text is not None and getattr(obj, "_bridgelaw", None) is None:
                    self.texts.add(text)
                    used = _names_read(obj.__code__)  # (a name the code never reads it cannot use)
                    names = {k: v for k, v in obj.__globals__.items()
                             if k in used and shared.get(k, _ABSENT) is not v}
                    return _function, (text, obj.__name__), names, None, None, _namespace
            return super().reducer_override(obj)

    return _KitPickler


#: The typed records a kit keeps plain, each as a :class:`~types.SimpleNamespace` of its fields (read by attribute as
#: the record is: what a kit keeps of them is only read, never made, compared, hashed nor replaced), so that a warm
#: start builds none of their classes nor imports their modules: the irregularity catalogue's facts and kinds
#: (:class:`bridgelaw.catalogue.FactSpec`, :class:`~bridgelaw.catalogue.Kind`) and the provisions with their effects
#: and options (:mod:`bridgelaw.provision`): data without methods, whose condition trees a kit keeps as
#: :data:`~bridgelaw.evaluation.UNREAD`. Each stays the one definition of its fields (:func:`plain_record`).
PLAIN_RECORDS = ("bridgelaw.catalogue.FactSpec", "bridgelaw.catalogue.Kind", "bridgelaw.provision.Provision",
                 "bridgelaw.provision.EffectSpec", "bridgelaw.provision.OptionSpec")


def plain_record(obj: Any) -> dict[str, Any]:
    """A typed record's fields by name: what the kit keeps of one of :data:`PLAIN_RECORDS`."""
    from dataclasses import fields

    return {f.name: getattr(obj, f.name) for f in fields(obj)}


def _names_read(code: CodeType) -> set[str]:
    """The global names a function's code (and the code it holds: comprehensions) reads."""
    names = set(code.co_names)
    for c in code.co_consts:
        if isinstance(c, CodeType):
            names |= _names_read(c)
    return names


def _unpickler() -> type:
    import pickle

    class _KitUnpickler(pickle.Unpickler):
        def __init__(self, file: Any, kit: RulingKit | _ByKind) -> None:
            super().__init__(file)
            self.kit = kit

        def persistent_load(self, pid: Any) -> Any:
            kit = self.kit
            if type(kit) is _ByKind:  # the core: what it names is the settlers' map, to be filled kind by kind
                if pid == "settlers":
                    return kit
                raise pickle.UnpicklingError(f"unknown name {pid!r}")
            if pid == "kit":
                return kit
            if pid == "kinds":
                return kit.kinds
            if pid == "common":
                return kit.kinds[0]
            if pid == "quick":
                return kit.__dict__["_quick"]
            if type(pid) is tuple and len(pid) == 2 and pid[0] == "kind":
                return kit.kinds[1][pid[1]]
            raise pickle.UnpicklingError(f"unknown name {pid!r}")

    return _KitUnpickler


def _Unpickler(file: Any, kit: RulingKit | _ByKind) -> Any:  # noqa: N802 - the class, made when first used
    return _unpickler()(file, kit)


_ABSENT = object()
