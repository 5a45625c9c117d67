"""A loaded code, whole, kept in the cache for the next start: what ``bridgelaw rule`` starts from.

Loading a code reads, validates, resolves and checks its law files and compiles every condition; a law file's
cache entry (:mod:`bridgelaw.cache`) saves the reading and the validation, not the rest. A snapshot saves it
all: the code as :func:`bridgelaw.loader.load_code` made it — its laws, its provisions with their checked
trees, its parameters — with the compiled code of every condition and of the functions the referee writes
for it (each kind's ruling function, its trace in words, its settling of facts), so a start from a snapshot
neither parses YAML, validates, checks nor compiles anything.

A snapshot is one cache entry, written atomically. Its key is the content of every file the code was made
from and the names in every folder it was read from — each code folder of its ``extends`` chain, the kinds
catalogue and its ``kinds.d``, the topics, the schemas, the grammar — and bridgelaw's own modules, so an
edited, added or removed file, or a new version, makes it stale (tests/test_startup.py checks that a load
reads nothing the key leaves out). Beside the key it keeps the files' status (:func:`bridgelaw.cache.status`):
a start whose files all keep their status reads and hashes none of them. A compiled condition is kept as its
generated source and constants; the law files a provision was read from are kept by name and read again only if
something asks for them (a code that extends this one and is loaded afresh, a tool reading the provisions as
written).

Beside the snapshot, under the same key, is the code's ruling kit (:mod:`bridgelaw.kit`): what ruling needs of the
code, read by a start that rules once instead of the whole code. Every entry's compiled code and body are kept
with their checksum: an entry spoilt on disk is no entry (its compiled code is never run).
"""

from __future__ import annotations

import io
import marshal
import os
import pickle
import zlib
from types import FunctionType

from .cache import cache_path, key_of, load_entry, status, store
from .evaluation import _CODES, rebuild

TYPE_CHECKING = False
if TYPE_CHECKING:  # names for the annotations: typing is not imported to start
    from pathlib import Path
    from typing import Any

    from .yamlsrc import Source

__all__ = ["load", "load_kit", "save", "depends"]

_FORMAT = "3"


def _name(root: Path | str, code_id: str, part: str = "code") -> str:
    from .resources import grammar_file, schema_path

    real = os.path.realpath
    return f"{part}:{_FORMAT}:{real(root)}:{real(schema_path())}:{real(grammar_file())}:{code_id}"


def depends(root: Path, chain: list[str]) -> tuple[list[Path], list[Path]]:
    """The files a code of this ``extends`` chain is made from, and the folders whose names count."""
    from .resources import grammar_path, schema_dir

    folders = [root / c for c in chain] + [root / "kinds.d", schema_dir()]
    files = [p for folder in folders if folder.is_dir() for p in sorted(folder.iterdir()) if p.is_file()]
    files += [root / "kinds.yaml", root / "topics.yaml", grammar_path()]
    return files, folders


def _names(folders: list[Any]) -> str:
    """The names in each folder, in words (a folder missing is said so)."""
    names = []
    for folder in folders:
        try:
            names.append(f"{folder}:" + "/".join(sorted(os.listdir(folder))))
        except OSError:
            names.append(f"{folder}:missing")
    return "\n".join(names)


def _current(name: str) -> Any:
    """An entry's content — its compiled code, its body and its parts — if the files it was made from are as they
    were and the content is whole (None: no entry, a stale one, or one that cannot be read)."""
    hit = load_entry(name)
    if hit is None:
        return None
    stored, value, kept = hit
    try:
        files, folders, codes, body, check, parts = value
        if not whole(codes, body, check):
            return None  # a corrupt entry (its compiled code is never run)
        names = _names(folders)
        now = status(files, names)  # before any content is read
        if now is None or now != kept:
            if stored != key_of(files, names):
                return None
            if now is not None:  # the same content under a new status: kept with it, for the next start
                store(name, [], value, stored, now)
        return codes, body, parts
    except Exception:  # an unreadable entry is made again
        return None


def whole(codes: bytes, body: bytes, check: int) -> bool:
    """Are an entry's (or a part's) compiled code and body as they were written?"""
    return zlib.crc32(body, zlib.crc32(codes)) == check


def seed(codes: bytes) -> None:
    """The compiled code an entry keeps, for :func:`bridgelaw.conditions.code_of` to find."""
    for text, code in marshal.loads(codes).items():
        _CODES.setdefault(text, code)


def load(root: Path | str, code_id: str) -> Any:
    """The code from its snapshot, or None (no snapshot, or a stale one)."""
    if cache_path() is None:
        return None
    got = _current(_name(root, code_id))
    if got is None:
        return None
    try:
        seed(got[0])
        return pickle.loads(got[1])
    except Exception:  # an unreadable snapshot is made again
        return None


def load_kit(root: Path | str, code_id: str) -> Any:
    """The code's ruling kit (:mod:`bridgelaw.kit`) as kept, or None (none kept, a stale one, one that cannot be
    read)."""
    if cache_path() is None:
        return None
    got = _current(_name(root, code_id, "kit"))
    if got is None:
        return None
    from .kit import read

    try:
        return read(*got)
    except Exception:  # an unreadable kit is none: the code is loaded whole
        return None


def save(root: Path, code: Any, chain: list[str], texts: set[str]) -> None:
    """Keep ``code`` (loaded from ``root``, its ``extends`` chain ``chain``) with the compiled code of the
    conditions it holds and of the generated sources ``texts``; and its ruling kit (:func:`bridgelaw.kit.dump`),
    under the same key."""
    if cache_path() is None:
        return
    from .kit import dump

    files, folders = depends(root, chain)
    names = _names(folders)
    kept = status(files, names)  # (the files were read as the code was loaded: a change since is seen by content)
    key = key_of(files, names)
    where = ([str(p) for p in files], [str(p) for p in folders])
    buf = io.BytesIO()
    pickler = _Pickler(buf, root)
    pickler.dump(code)
    codes = compiled(texts | pickler.texts)
    body = buf.getvalue()
    store(_name(root, code.id), [], (*where, codes, body, zlib.crc32(body, zlib.crc32(codes)), {}), key, kept)
    codes, body, parts = dump(code, root, _Pickler)
    store(_name(root, code.id, "kit"), [], (*where, codes, body, zlib.crc32(body, zlib.crc32(codes)), parts), key,
          kept)


def compiled(texts: set[str]) -> bytes:
    """The compiled code of the generated sources ``texts``, marshalled."""
    return marshal.dumps({t: _CODES[t] for t in sorted(texts) if t in _CODES})


class _Pickler(pickle.Pickler):
    """Pickles a compiled condition as its source and constants, and a law file as its name."""

    def __init__(self, file: Any, root: Path) -> None:
        from .yamlsrc import Source  # (a snapshot is written after its law files were read: imported then)

        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.root = root
        self.texts: set[str] = set()
        self._source = Source

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is FunctionType:
            made = getattr(obj, "_bridgelaw", None)
            if made is None:
                return NotImplemented  # a module's own function: by reference
            self.texts.add(made[0])
            return rebuild, made
        if isinstance(obj, self._source):
            return _source, (str(self.root.parent / obj.path) if not os.path.isabs(obj.path) else obj.path,
                             obj.path)
        return NotImplemented


def _source(path: str, display: str) -> Source:
    """A law file a snapshot names: read (from its own cache entry) when something first asks for its text."""
    cls = _LAZY.get("class")
    if cls is None:
        cls = _LAZY["class"] = _lazy_source()
    return cls(path, display)  # type: ignore[no-any-return]


#: The class of :func:`_source`'s law files, made when a snapshot is first read whole (a ruling kit names none: a
#: start that rules from one imports no YAML reader).
_LAZY: dict[str, type] = {}


def _lazy_source() -> type:
    from .yamlsrc import Source

    class _LazySource(Source):
        """A law file a snapshot names: read (from its own cache entry) when something first asks for its text."""

        def __init__(self, path: str, display: str) -> None:  # noqa: D107 - nothing read yet
            self.__dict__["path"] = display
            self.__dict__["_file"] = path

        def __getattr__(self, name: str) -> Any:
            if name.startswith("__") or name == "_file":
                raise AttributeError(name)
            from pathlib import Path

            from .loader import _read_validated

            real = _read_validated(Path(self.__dict__["_file"]), self.__dict__["path"])
            self.__dict__.update(real.__dict__)
            return getattr(self, name)

        def __reduce__(self) -> Any:
            return _source, (self.__dict__["_file"], self.__dict__["path"])

    return _LazySource
