"""The witnesses of a code's text, and the variant readings between them.

A code's ``code.yaml`` lists its ``witnesses``: the copies of the code that survive — the first is the text's
own source, the others second copies from other books. Each law records, under ``variants:``, where a
second witness reads otherwise than the text: the witness, the text's words (``ours``), the witness's
``reading``, which witness the text ``follows`` there and ``why`` (a misprint mended, an OCR slip, page
furniture, or the first witness kept). Where the text mends a misprint of the first witness from a second,
the law's ``mends`` entry cites that witness.

:func:`collate` reads a second witness against the text law by law (the part of the file the witness's
``span`` names; its ``furniture`` — running heads, rules, the dash after a number — set aside by the
patterns the witness lists; headings, law numbers' layout, italics marks and footnote marks compared as
the laws print them) and returns every difference the recorded variants do not account for: none, when
the record is complete.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import InputError, LawFileError
from .loader import Code, Law, load_code
from .resources import data_dir

__all__ = ["Witness", "Variant", "Difference", "witnesses", "variants", "mends", "collate", "REASONS"]

REASONS = ("misprint mended", "OCR slip", "page furniture", "first witness kept")


@dataclass(frozen=True)
class Witness:
    id: str
    file: str  # relative to the shared sources folder (beside the repository)
    what: str
    first: bool
    span: tuple[str | None, str | None] = (None, None)  # the lines (from, to) that hold this code
    furniture: tuple[tuple[str, str, str], ...] = ()  # (pattern, replacement, what it is)


@dataclass(frozen=True)
class Variant:
    witness: str
    ours: str
    reading: str
    follows: str
    why: str
    note: str = ""
    footnote: str | None = None  # the footnote of the law the variant is in, if not in the law's text

    def to_dict(self) -> dict[str, Any]:
        d = {"witness": self.witness, "ours": self.ours, "reading": self.reading, "follows": self.follows,
             "why": self.why}
        if self.note:
            d["note"] = self.note
        if self.footnote:
            d["footnote"] = self.footnote
        return d


@dataclass(frozen=True)
class Difference:
    """A difference between the text and a witness that no variant records."""

    law: str
    ours: str
    reading: str

    def __str__(self) -> str:
        return f"law {self.law}: ours {self.ours!r}, the witness reads {self.reading!r}"


def _yaml(path: Path) -> Any:
    from .yamlsrc import load_yaml

    return load_yaml(path, str(path.relative_to(data_dir())) if path.is_relative_to(data_dir()) else str(path))


def witnesses(code: Code) -> tuple[Witness, ...]:
    """The code's witnesses (its own code.yaml's), the first the text's own source."""
    src = _yaml(Path(code.folder) / "code.yaml")
    out = []
    for i, w in enumerate(src.data.get("witnesses") or []):
        fur = tuple((f["pattern"], f.get("replace", ""), f["what"]) for f in w.get("furniture") or [])
        span = w.get("span") or {}
        out.append(Witness(w["id"], w["file"], w["what"], i == 0, (span.get("from"), span.get("to")), fur))
    ids = [w.id for w in out]
    if out and out[0].file not in [s["file"] for s in code.sources]:
        raise src.error(("witnesses", 0, "file"), f"the first witness is the text's own source: expected one of "
                                                   f"{', '.join(s['file'] for s in code.sources)}")
    if len(set(ids)) != len(ids):
        raise src.error(("witnesses",), f"witness ids must differ: {', '.join(ids)}")
    return tuple(out)


def _entry(code: Code, law: Law) -> tuple[Any, int]:
    src = _yaml(data_dir() / law.file)
    for i, raw in enumerate(src.data.get("laws") or []):
        if raw.get("number") == law.number:
            return src, i
    raise LawFileError(f"law {law.number} is not in its file", law.file)  # pragma: no cover


def _law(code: Code, number: str) -> Law:
    law = code.law(number)
    if law is None:
        raise InputError("number", f"{code.id} has no law {number!r}")
    return law


def variants(code: Code, number: str) -> tuple[Variant, ...]:
    """The variant readings recorded on a law of the code (each checked: its witness is the code's, its
    reason one of REASONS, its words in the text)."""
    law = _law(code, number)
    if law.code != code.id:
        return variants(load_code(law.code), number)
    src, i = _entry(code, law)
    raw = src.data["laws"][i]
    ids = [w.id for w in witnesses(code)]
    out = []
    for j, v in enumerate(raw.get("variants") or []):
        key = ("laws", i, "variants", j)
        for field, allowed in (("witness", ids), ("follows", ids + ["neither"]), ("why", list(REASONS))):
            if v.get(field) not in allowed:
                raise src.error(key + (field,), f"{field} {v.get(field)!r} is not one of {', '.join(allowed)}")
        where = law.text or ""
        if v.get("footnote") is not None:
            where = dict(law.footnotes).get(str(v["footnote"]), "")
        if v["ours"] and v["ours"] not in where:
            raise src.error(key + ("ours",), "these words are not in the law's text: quote the text exactly")
        out.append(Variant(v["witness"], v["ours"], v["reading"], v["follows"], v["why"], v.get("note", ""),
                           str(v["footnote"]) if v.get("footnote") is not None else None))
    return tuple(out)


def mends(code: Code, number: str) -> tuple[dict[str, Any], ...]:
    """The mends of a law's text (source → text), each with the witness it rests on, where it cites one."""
    law = _law(code, number)
    if law.code != code.id:
        return mends(load_code(law.code), number)
    src, i = _entry(code, law)
    return tuple(dict(m) for m in src.data["laws"][i].get("mends") or [])


# --------------------------------------------------------------------------
# Collation


_FN = re.compile(r"\[\^?\w+\]")


def _norm(word: str) -> str:
    w = unicodedata.normalize("NFKC", word).replace("_", "")
    return w.translate({0x2019: "'", 0x2018: "'", 0x201C: '"', 0x201D: '"'})


def _words(text: str) -> list[str]:
    return [w for w in (_norm(x) for x in _FN.sub(" ", text).split()) if w]


def fold_words(line: str) -> str:
    """A heading as compared: its letters, whatever its case, stops, hyphens and footnote marks."""
    from .textdiff import fold

    return " ".join(f for f in (fold(w) for w in _FN.sub(" ", line).split()) if f)


def _marker(law: Law) -> str:
    p = law.printed_number
    if not p:
        return ""
    p = p[1:] if re.fullmatch(r"E\d+", p) else p
    return p if p.endswith(".") else p + "."


def _witness_text(w: Witness, root: Path, headings: set[str]) -> tuple[str, dict[str, str]]:
    """The part of the witness that holds the code, furniture and headings set aside; and its footnotes."""
    text = (root / w.file).read_text(encoding="utf-8")
    lines = text.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]  # the file's own description
    start, end = w.span
    if start is not None:
        lines = lines[next(i for i, line in enumerate(lines) if line.strip() == start):]
    if end is not None:
        lines = lines[:next(i for i, line in enumerate(lines) if line.strip() == end)]
    body = "\n".join(lines)
    for pattern, repl, _ in w.furniture:
        body = re.sub(pattern, repl, body, flags=re.M)
    kept, notes = [], {}
    it = iter(body.splitlines())
    for line in it:
        m = re.match(r"^\[(\w+)\] (.*)", line)
        if m:
            buf = [m.group(2)]
            for nxt in it:
                if not nxt.strip():
                    break
                buf.append(nxt)
            notes[m.group(1)] = " ".join(buf)
            continue
        if line.strip() and fold_words(line) in headings:
            continue
        kept.append(line)
    return "\n".join(kept), notes


def collate(code: Code, witness_id: str, root: Path) -> list[Difference]:
    """Every difference between the code's own laws (with the witness's recorded variants read back) and
    the witness ``witness_id`` (a file under ``root``) that no variant records. Empty: all recorded."""
    wit = next((w for w in witnesses(code) if w.id == witness_id), None)
    if wit is None:
        raise InputError("witness", f"{code.id} has no witness {witness_id!r}")
    own = [law for law in code.laws if law.code == code.id and law.text]
    headings = {fold_words(law.heading or "") for law in own}
    text, notes = _witness_text(wit, root, headings)
    ours: list[tuple[str, str]] = []  # (word, law)
    ours_notes: dict[str, tuple[str, str]] = {}
    seen_pre: set[str] = set()
    for law in own:
        body = law.text or ""
        fns = dict(law.footnotes)
        for v in variants(code, law.number):
            if v.witness != witness_id:
                continue
            if v.footnote is None:
                body = body.replace(v.ours, v.reading, 1) if v.ours else body + " " + v.reading
            else:
                fns[v.footnote] = fns[v.footnote].replace(v.ours, v.reading, 1)
        pre = _preamble(law)
        if pre and law.file not in seen_pre:
            seen_pre.add(law.file)
            ours += [(x, law.number) for x in _words(pre)]
        ours += [(x, law.number) for x in _words(_marker(law) + " " + body)]
        for n, t in fns.items():
            ours_notes[n] = (t, law.number)
    theirs = _words(text)
    sm = difflib.SequenceMatcher(None, [x for x, _ in ours], theirs, autojunk=False)
    out = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            continue
        where = ours[min(i1, len(ours) - 1)][1]
        out.append(Difference(where, " ".join(x for x, _ in ours[i1:i2]), " ".join(theirs[j1:j2])))
    # footnotes: each of the code's own, against the witness's footnote that reads most like it
    for n, (t, where) in ours_notes.items():
        best = max(notes.values(), key=lambda r: difflib.SequenceMatcher(None, _words(t), _words(r)).ratio(),
                   default="")
        if _words(t) != _words(best):
            out.append(Difference(f"{where}, footnote {n}", t, best))
    return out


def _preamble(law: Law) -> str:
    src = _yaml(data_dir() / law.file)
    if (src.data.get("laws") or [{}])[0].get("number") != law.number:
        return ""
    return str(src.data.get("preamble") or "")


# --------------------------------------------------------------------------
# `bridgelaw law CODE N --variants`


def readings(code: Code, number: str) -> dict[str, Any]:
    """A law's witnesses, its mends (each with the witness it rests on) and its variant readings."""
    law = _law(code, number)
    owner = load_code(law.code) if law.code != code.id else code
    ws = witnesses(owner)
    return {"code": owner.id, "law": law.number,
            "witnesses": [{"id": w.id, "file": w.file, "what": w.what, "first": w.first} for w in ws],
            "mends": [{k: m[k] for k in ("source", "text", "witness", "note") if k in m} for m in mends(owner, number)],
            "variants": [v.to_dict() for v in variants(owner, number)]}


def readings_text(code: Code, number: str) -> str:
    import textwrap

    r = readings(code, number)

    def wrap(text: str, indent: str) -> str:
        return "\n".join(textwrap.fill(line, 88, initial_indent=indent, subsequent_indent=indent) if line.strip()
                         else "" for line in text.splitlines())

    out = [f"\nWitnesses of {r['code']}:"]
    if not r["witnesses"]:
        out.append("    one witness only (code.yaml lists no second copy)")
    for w in r["witnesses"]:
        out.append(wrap(f"{w['id']}{' (the text’s source)' if w['first'] else ''}: {w['what']} — {w['file']}", "    "))
    out.append(f"\nMends of law {r['law']} ({len(r['mends'])}):")
    for m in r["mends"]:
        cite = f" (from {m['witness']})" if m.get("witness") else ""
        out.append(wrap(f"printed “{m['source']}”, read “{m['text']}”{cite}", "    - ") if "\n" not in m["source"]
                   else wrap(f"a rebuilt table{cite}" + (f": {m['note']}" if m.get("note") else ""), "    - "))
    out.append(f"\nVariant readings of law {r['law']} ({len(r['variants'])}):")
    if not r["variants"]:
        out.append("    none recorded: the second witness reads as the text" if len(r["witnesses"]) > 1
                   else "    none: the code has one witness")
    for v in r["variants"]:
        out.append(f"    - {v['witness']} reads:")
        out.append(wrap(v["reading"], "          "))
        out.append("      where the text has:")
        out.append(wrap(v["ours"], "          "))
        out.append(wrap(f"the text follows {v['follows']}: {v['why']}" + (f". {v['note']}" if v.get("note") else ""),
                        "      "))
    return "\n".join(out)
