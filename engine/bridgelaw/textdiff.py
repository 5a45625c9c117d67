"""Word diffs that keep each edition's own text: verbatim by construction.

A law's text is cut into tokens — each word as printed with the whitespace after it, a footnote
marker (``[^2]``) as a token of its own — so that joining a column's tokens gives back the text
exactly. Two editions are compared on the tokens' *keys*; each column is then written from its own
tokens, never the other's, with the changes marked on it:

- ``=`` the same in both editions, ``-`` only in the earlier, ``+`` only in the later;
- ``~`` the same word spelt, cased or punctuated otherwise (only when spelling is set aside);
- `` `` (a space) whitespace after a marked word, left unmarked.

Joining a column's segment texts gives back that edition's text: :func:`plain` does it, and the
tests check it for every aligned pair of every pair of codes.

Keys are exact by default (a capital is a change; italics, the type the words are set in, are not). With spelling set aside
(:class:`Spelling`, read from ``laws/spelling.yaml``) a key is the word folded — case, hyphens,
quotation marks, punctuation and footnote marks set aside — and the spellings listed in the data
file read as one word (honour and honor).
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence


__all__ = ["Token", "Segment", "MarkedLaw", "TextDiff", "Spelling", "spelling", "tokens", "diff_texts",
           "plain", "fold", "similarity", "containment", "word_diff"]

_WORD = re.compile(r"(\S+)(\s*)")
_FOOTNOTE = re.compile(r"(\[\^\w+\])")
_ITALIC = re.compile(r"(?<!\w)_(?=\S)|(?<=\S)_(?!\w)")  # italics are the print's type, not its words


def fold(word: str) -> str:
    """A word with case, italic marks, hyphens, quotation marks and punctuation set aside."""
    w = unicodedata.normalize("NFKC", word).replace("_", "").lower()
    return "".join(ch for ch in w if ch.isalnum())


@dataclass(frozen=True, eq=False)  # one table per file, compared (and hashed) by identity
class Spelling:
    """Spellings read as one word: ``groups`` maps each folded word (or two words) to its group's name."""

    groups: dict[str, str]
    source: str

    @property
    def pairs(self) -> dict[str, str]:
        """Two-word spellings ("any one"): their first folded word → the folded pair."""
        return {k.split(" ")[0]: k for k in self.groups if " " in k}

    def canonical(self, folded: str) -> str:
        return self.groups.get(folded, folded)


_SPELLING: dict[str, Spelling] = {}


def spelling(path: Path | None = None) -> Spelling:
    """The spelling table (``laws/spelling.yaml``), checked: each group two or more words, no word twice."""
    from .resources import laws_dir
    from .yamlsrc import load_yaml

    p = path or laws_dir() / "spelling.yaml"
    hit = _SPELLING.get(str(p))
    if hit is not None:
        return hit
    src = load_yaml(p, p.name if path is None else str(p))
    data = src.data
    if not isinstance(data, dict) or set(data) != {"same"} or not isinstance(data["same"], list):
        raise src.error((), "expected one key, 'same': a list of groups of words spelt differently, "
                            "e.g. - [honour, honor]")
    groups: dict[str, str] = {}
    for i, group in enumerate(data["same"]):
        if not isinstance(group, list) or len(group) < 2 or not all(isinstance(w, str) for w in group):
            raise src.error(("same", i), "expected a list of two or more words, e.g. [honour, honor]")
        name = " ".join(fold(x) for x in group[0].split())
        for j, word in enumerate(group):
            parts = word.split()
            key = " ".join(fold(x) for x in parts)
            if not 1 <= len(parts) <= 2 or any(fold(x) != x.lower() or not x for x in parts):
                raise src.error(("same", i, j), f"{word!r} is not a word (or two words) of letters: write it as "
                                                "the codes print it, without punctuation")
            if key in groups:
                raise src.error(("same", i, j), f"{word!r} is already in the group of {groups[key]!r}")
            groups[key] = name
    out = Spelling(groups, src.path)
    _SPELLING[str(p)] = out
    return out


@dataclass(frozen=True)
class Token:
    raw: str  # the word as printed (a footnote marker on its own)
    sep: str  # the whitespace printed after it
    key: str  # what the diff compares


def tokens(text: str | None, ignore: Spelling | None = None) -> list[Token]:
    """The text cut into tokens; joining ``raw + sep`` of every token gives the text back exactly."""
    return list(_tokens(text or "", ignore))


@functools.lru_cache(maxsize=8192)
def _tokens(text: str, ignore: Spelling | None) -> tuple[Token, ...]:
    out: list[Token] = []
    lead = text[: len(text) - len(text.lstrip())]
    if lead:
        out.append(Token("", lead, "\x00"))
    for m in _WORD.finditer(text):
        parts = [p for p in _FOOTNOTE.split(m.group(1)) if p]
        for i, part in enumerate(parts):
            out.append(Token(part, m.group(2) if i == len(parts) - 1 else "", _ITALIC.sub("", part)))
    if ignore is None:
        return tuple(out)
    return tuple(_fold_tokens(out, ignore))


def _fold_tokens(toks: list[Token], sp: Spelling) -> list[Token]:
    pairs = sp.pairs
    out: list[Token] = []
    i = 0
    while i < len(toks):
        t = toks[i]
        f = fold(t.raw) if not _FOOTNOTE.fullmatch(t.raw) else ""
        if f in pairs and i + 1 < len(toks) and t.sep and f"{f} {fold(toks[i + 1].raw)}" == pairs[f]:
            nxt = toks[i + 1]
            out.append(Token(t.raw + t.sep + nxt.raw, nxt.sep, sp.canonical(pairs[f])))
            i += 2
            continue
        # punctuation alone (a dash, a table rule, a footnote mark) keeps its own key: it still pairs up
        out.append(Token(t.raw, t.sep, sp.canonical(f) if f else "\x00" + t.raw))
        i += 1
    return out


@dataclass(frozen=True)
class Segment:
    op: str  # "=", "-", "+", "~" or " " (see the module's docstring)
    text: str


@dataclass(frozen=True)
class MarkedLaw:
    """One law's text as a column of a diff: its number and its marked segments."""

    number: str
    segments: tuple[Segment, ...]

    @property
    def text(self) -> str:
        return plain(self.segments)


def plain(segments: Iterable[Segment]) -> str:
    """The marks stripped: the edition's own text."""
    return "".join(s.text for s in segments)


@dataclass(frozen=True)
class TextDiff:
    """The laws of the earlier edition (``a``) and of the later (``b``), each marked."""

    a: tuple[MarkedLaw, ...]
    b: tuple[MarkedLaw, ...]
    changed: bool  # any word added or removed, a spelling or a capital included
    substantive: bool  # changed with spelling, case and punctuation set aside
    spellings: tuple[str, ...] = field(default=())  # the spelling groups of laws/spelling.yaml it used


def _segments(toks: Sequence[Token], ops: Sequence[str]) -> tuple[Segment, ...]:
    out: list[list[str]] = []  # [op, text]
    for t, op in zip(toks, ops):
        if op == "=":
            if out and out[-1][0] in ("=", " "):
                out[-1][0] = "="
                out[-1][1] += t.raw + t.sep
            else:
                out.append(["=", t.raw + t.sep])
            continue
        if out and out[-1][0] == op:  # a footnote mark right after the word it follows
            out[-1][1] += t.raw
        elif out and out[-1][0] == " " and len(out) > 1 and out[-2][0] == op:
            ws = out.pop()[1]
            out[-1][1] += ws + t.raw
        else:
            out.append([op, t.raw])
        if t.sep:
            out.append([" ", t.sep])
    return tuple(Segment(op, text) for op, text in out if text)


def diff_texts(a: Sequence[tuple[str, str | None]], b: Sequence[tuple[str, str | None]],
               ignore: Spelling | None = None) -> TextDiff:
    """Diff the laws ``a`` [(number, text), ...] against the laws ``b``; several on a side when a law was
    split or merged. ``ignore`` sets spelling aside (see :class:`Spelling`)."""
    sp = ignore or spelling()
    ta = [(i, t) for i, (_, text) in enumerate(a) for t in _tokens(text or "", ignore)]
    tb = [(i, t) for i, (_, text) in enumerate(b) for t in _tokens(text or "", ignore)]
    ka, kb = [t.key for _, t in ta], [t.key for _, t in tb]
    sm = difflib.SequenceMatcher(None, ka, kb, autojunk=False)
    oa = ["="] * len(ta)
    ob = ["="] * len(tb)
    used: set[str] = set()
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            for i, j in zip(range(i1, i2), range(j1, j2)):
                if _ITALIC.sub("", ta[i][1].raw) != _ITALIC.sub("", tb[j][1].raw):
                    oa[i] = ob[j] = "~"
                    fa, fb = fold(ta[i][1].raw), fold(tb[j][1].raw)
                    if fa != fb:
                        used.add(sp.canonical(fa))
            continue
        words_a = [k for k in ka[i1:i2] if not k.startswith("\x00")]
        words_b = [k for k in kb[j1:j2] if not k.startswith("\x00")]
        same = ignore is not None and words_a == words_b
        for i in range(i1, i2):
            oa[i] = "~" if same else "-"
        for j in range(j1, j2):
            ob[j] = "~" if same else "+"
    changed = any(o != "=" for o in oa + ob)
    if ignore is None:
        substantive = changed and _words(a, sp) != _words(b, sp)
        if changed:
            used = _spellings_used(a, b, sp)
    else:
        substantive = any(o in "-+" for o in oa + ob)
    cols_a = tuple(MarkedLaw(n, _segments([t for k, t in ta if k == i], [o for (k, _), o in zip(ta, oa) if k == i]))
                   for i, (n, _) in enumerate(a))
    cols_b = tuple(MarkedLaw(n, _segments([t for k, t in tb if k == i], [o for (k, _), o in zip(tb, ob) if k == i]))
                   for i, (n, _) in enumerate(b))
    return TextDiff(cols_a, cols_b, changed, substantive, tuple(sorted(used)))


def _words(laws: Sequence[tuple[str, str | None]], sp: Spelling) -> list[str]:
    return [t.key for _, text in laws for t in _tokens(text or "", sp) if not t.key.startswith("\x00")]


def _spellings_used(a: Sequence[tuple[str, str | None]], b: Sequence[tuple[str, str | None]],
                    sp: Spelling) -> set[str]:
    ta = [t for _, text in a for t in _tokens(text or "", sp)]
    tb = [t for _, text in b for t in _tokens(text or "", sp)]
    sm = difflib.SequenceMatcher(None, [t.key for t in ta], [t.key for t in tb], autojunk=False)
    used = set()
    for block in sm.get_matching_blocks():
        for i, j in zip(range(block.a, block.a + block.size), range(block.b, block.b + block.size)):
            fa, fb = fold(ta[i].raw), fold(tb[j].raw)
            if fa != fb:
                used.add(sp.canonical(fa))
    return used


# --------------------------------------------------------------------------
# Similarity, for aligning laws


@functools.lru_cache(maxsize=4096)
def _keys(text: str | None) -> tuple[str, ...]:
    return tuple(_words([("", text)], spelling()))


def similarity(a: str | None, b: str | None, floor: float = 0.0) -> float:
    """How alike two texts are, word by word, spelling set aside (0 to 1); 0 when surely below ``floor``."""
    wa, wb = _keys(a), _keys(b)
    if not wa or not wb:
        return 0.0
    sm = difflib.SequenceMatcher(None, wa, wb, autojunk=False)
    if floor and (sm.real_quick_ratio() < floor or sm.quick_ratio() < floor):
        return 0.0
    return sm.ratio()


def containment(part: str | None, whole: str | None, run: int = 3) -> float:
    """The share of ``part``'s words found in ``whole`` in runs of at least ``run`` words, in order."""
    wa, wb = _keys(part), _keys(whole)
    if not wa or not wb:
        return 0.0
    sm = difflib.SequenceMatcher(None, wa, wb, autojunk=False)
    return sum(b.size for b in sm.get_matching_blocks() if b.size >= run) / len(wa)


def word_diff(a: str | None, b: str | None) -> list[tuple[str, str]]:
    """The diff as one sequence of ("=", words), ("-", words), ("+", words): the earlier edition's words for
    "=" and "-", the later's for "+" (words joined by single spaces)."""
    ta, tb = tokens(a), tokens(b)
    sm = difflib.SequenceMatcher(None, [t.key for t in ta], [t.key for t in tb], autojunk=False)
    out: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            out.append(("=", " ".join(t.raw for t in ta[i1:i2] if t.raw)))
            continue
        if i2 > i1:
            out.append(("-", " ".join(t.raw for t in ta[i1:i2] if t.raw)))
        if j2 > j1:
            out.append(("+", " ".join(t.raw for t in tb[j1:j2] if t.raw)))
    return out
