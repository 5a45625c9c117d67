"""The sentence-level account of a code: every sentence of every law, and what accounts for it.

``laws/<code>/sentences.yaml`` lists, law by law, each sentence (or lettered clause, numbered
paragraph, table row) of the law's verbatim text, with a tag from ``laws/accounting.yaml``:
``encoded`` by named provisions, ``parameter`` (carried by parameters the scorer or the table reads),
``judgement`` and ``silence`` (named provisions with a ``discretion`` or ``no_provision`` effect),
``procedure``, ``definition``, ``lead-in``, ``commentary``, ``not-binding``.

- :func:`split` proposes the spans of a law's text (so the account is not typed by hand);
- :func:`load_account` reads a code's account (an extending code's inherited laws keep the parent's);
- :func:`check_account` finds what is wrong or unaccounted: spans that do not tile the law text,
  laws without an account, provisions or parameters that do not exist, a judgement without a
  ``discretion`` effect, a silence without ``no_provision``, and — the point of the account — a
  sentence that bears a remedy (by the patterns of ``laws/accounting.yaml``, confirmed by reading)
  with nothing that encodes it;
- :func:`coverage` counts the tags per code, for ``bridgelaw codes --coverage``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

from .errors import did_you_mean
from .loader import Code, Law, Provision, load_code, validate
from .resources import laws_dir
from .yamlsrc import Source, load_yaml

__all__ = ["Span", "Sentence", "LawAccount", "Account", "Finding", "Coverage", "Vocabulary", "split",
           "load_vocabulary", "load_account", "parse_account", "check_account", "coverage", "remedy_bearing", "tiling",
           "ACCOUNT_FILE"]

ACCOUNT_FILE = "sentences.yaml"

# --------------------------------------------------------------------------
# The vocabulary: tags and the remedy patterns (laws/accounting.yaml)


@dataclass(frozen=True)
class TagSpec:
    name: str
    remedy: bool
    needs: str  # "", "provisions" or "parameters"
    effect: str  # "", or the effect kind one of the provisions must carry
    binding: bool  # False: only for the paragraphs of a code that are not law
    meaning: str


@dataclass(frozen=True)
class Vocabulary:
    tags: Mapping[str, TagSpec]
    patterns: tuple[re.Pattern[str], ...]
    path: str

    def remedy_bearing(self, text: str) -> bool:
        """Does the sentence match a remedy pattern (a candidate to be tagged by reading)?"""
        return any(p.search(text) for p in self.patterns)


@lru_cache(maxsize=4)
def _vocabulary(root: str) -> Vocabulary:
    path = Path(root) / "accounting.yaml"
    src = load_yaml(path, "laws/accounting.yaml")
    d = src.data
    if not isinstance(d, dict) or not isinstance(d.get("tags"), dict) or not isinstance(d.get("remedy_patterns"), list):
        raise src.error((), "expected a mapping with 'tags' (a mapping) and 'remedy_patterns' (a list)")
    tags: dict[str, TagSpec] = {}
    for name, spec in d["tags"].items():
        if not isinstance(spec, dict) or not isinstance(spec.get("meaning"), str):
            raise src.error(("tags", name), f"tag {name!r} needs a 'meaning'")
        unknown = set(spec) - {"remedy", "needs", "effect", "binding", "meaning"}
        if unknown:
            raise src.error(("tags", name, sorted(unknown)[0]), f"unknown key {sorted(unknown)[0]!r}; a tag has "
                            "remedy, needs, effect, binding, meaning")
        needs = spec.get("needs", "")
        if needs not in ("", "provisions", "parameters"):
            raise src.error(("tags", name, "needs"), f"needs must be provisions or parameters, got {needs!r}")
        if spec.get("effect") and needs != "provisions":
            raise src.error(("tags", name, "effect"), "a tag with an 'effect' needs provisions")
        tags[name] = TagSpec(name, bool(spec.get("remedy", False)), needs, str(spec.get("effect", "")),
                             bool(spec.get("binding", True)), spec["meaning"])
    patterns = []
    for i, p in enumerate(d["remedy_patterns"]):
        try:
            patterns.append(re.compile(str(p), re.IGNORECASE))
        except re.error as e:
            raise src.error(("remedy_patterns", i), f"not a regular expression: {e}") from None
    return Vocabulary(tags, tuple(patterns), src.path)


def load_vocabulary() -> Vocabulary:
    return _vocabulary(str(laws_dir()))


def remedy_bearing(text: str) -> bool:
    return load_vocabulary().remedy_bearing(text)


# --------------------------------------------------------------------------
# The splitter

# a clause label at the start of a paragraph: (a) (1) _a_ a I. 1st. 2d.
_LABEL = re.compile(r"(?:\((?P<p>[a-z]|\d{1,2})\)|_(?P<u>[a-z])_|(?P<b>[a-i])(?= [A-Z])|(?P<r>[IVX]{1,4})\."
                    r"|(?P<o>\d{1,2}(?:st|nd|rd|d|th))\.)(?= )")
# a sentence ends at . ? or ! (with any footnote marker and closing quote or bracket) before a capital
_END = re.compile(r"[.?!](?:\[\^\w+\])?[”\"’')\]]*(?= +[“\"‘(_]*[A-Z0-9])")
_ABBREV = re.compile(r"(?:\bi\.e|\be\.g|\bviz|&c|\bMr|\bNo|\bcf|\bvs|\bSt|\b[A-Z])\.$")


@dataclass(frozen=True)
class Span:
    """A stretch of a law's text: ``text[start:end]``, and the clause label it falls under (if any)."""

    start: int
    end: int
    text: str
    clause: str = ""


def split(text: str) -> list[Span]:
    """The sentences of a law's text: paragraphs (and table rows) one by one, each cut at sentence ends.

    A paragraph that opens with a clause label ((a), _a_, I., 1st., (1)) starts a clause; the spans of
    that paragraph carry the label. Abbreviations (i.e., e.g., &c.) and initials do not end a sentence.
    """
    spans: list[Span] = []
    pos = 0
    for line in text.split("\n"):
        start, end = pos, pos + len(line)
        pos = end + 1
        stripped = line.strip()
        if not stripped:
            continue
        lead = len(line) - len(line.lstrip())
        m = _LABEL.match(line, lead)
        clause = next((g for g in m.groups() if g), "") if m else ""
        cut_from = m.end() if m else lead
        last = start + lead
        for e in _END.finditer(line, cut_from):
            if _ABBREV.search(line[:e.start() + 1]):
                continue
            stop = start + e.end()
            spans.append(Span(last, stop, text[last:stop], clause))
            rest = line[e.end():]
            last = stop + len(rest) - len(rest.lstrip())
        stop = start + len(line.rstrip())
        if stop > last:
            spans.append(Span(last, stop, text[last:stop], clause))
    return spans


# --------------------------------------------------------------------------
# The account


@dataclass(frozen=True)
class Sentence:
    text: str
    tag: str
    provisions: tuple[str, ...] = ()
    parameters: tuple[str, ...] = ()
    why: str = ""
    clause: str = ""
    remedy: bool = False  # a candidate by the patterns
    line: int = 0
    column: int = 0

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"text": self.text, "tag": self.tag}
        if self.clause:
            d["clause"] = self.clause
        d["remedy_bearing"] = self.remedy
        if self.provisions:
            d["provisions"] = list(self.provisions)
        if self.parameters:
            d["parameters"] = list(self.parameters)
        if self.why:
            d["why"] = self.why
        return d


@dataclass(frozen=True)
class LawAccount:
    number: str
    code: str  # the code whose account file holds it (the parent's, for an inherited law)
    path: str
    sentences: tuple[Sentence, ...]
    line: int = 0


@dataclass(frozen=True)
class Account:
    code: str
    laws: tuple[LawAccount, ...]
    sources: Mapping[str, Source] = field(default_factory=dict, repr=False, compare=False)

    def law(self, number: str) -> LawAccount | None:
        return next((la for la in self.laws if la.number == number), None)

    def sentences_of(self, provision_id: str) -> list[tuple[str, Sentence]]:
        """The (law, sentence) pairs that name a provision."""
        return [(la.number, s) for la in self.laws for s in la.sentences if provision_id in s.provisions]


def _account_path(code_id: str) -> Path:
    return laws_dir() / code_id / ACCOUNT_FILE


def _read_file(code: Code) -> tuple[Source | None, list[LawAccount]]:
    path = _account_path(code.id)
    if not path.is_file():
        return None, []
    display = f"laws/{code.id}/{ACCOUNT_FILE}"
    src = load_yaml(path, display)
    return src, parse_account(code, src)


def parse_account(code: Code, src: Source) -> list[LawAccount]:
    """The laws of one account file, checked for shape (schema, tags, law numbers): errors at path:line:col."""
    validate(src, "sentences.schema.json")
    if src.data["code"] != code.id:
        raise src.error(("code",), f"code {src.data['code']!r} does not match the folder {code.id!r}")
    vocab = load_vocabulary()
    own = [law.number for law in code.laws if law.code == code.id and not law.missing]
    seen: dict[str, int] = {}
    out = []
    for i, raw in enumerate(src.data["laws"]):
        number = raw["law"]
        if number in seen:
            raise src.error(("laws", i, "law"), f"law {number!r} is accounted twice (also at line {seen[number]})")
        if number not in own:
            raise src.error(("laws", i, "law"), f"{code.id} has no law {number!r} of its own with a text"
                            + did_you_mean(number, own))
        seen[number] = src.mark(("laws", i, "law")).line
        law = code.law(number)
        assert law is not None
        spans = {s.text: s.clause for s in split(law.text or "")}
        sentences: list[Sentence] = []
        lead_remedy = False  # a lead-in's remedy passes to the clauses that complete it
        for j, s in enumerate(raw["sentences"]):
            key = ("laws", i, "sentences", j)
            if s["tag"] not in vocab.tags:
                raise src.error(key + ("tag",), f"unknown tag {s['tag']!r}" + did_you_mean(s["tag"], vocab.tags)
                                + f"; tags are {', '.join(vocab.tags)} (laws/accounting.yaml)")
            m = src.mark(key + ("text",))
            text = s["text"]
            clause = spans.get(text, _clause_of(text))
            remedy = vocab.remedy_bearing(text)
            if clause:
                remedy = remedy or lead_remedy
            else:
                lead_remedy = remedy and s["tag"] == "lead-in"
            sentences.append(Sentence(
                text=text, tag=s["tag"], provisions=tuple(s.get("provisions") or ()),
                parameters=tuple(s.get("parameters") or ()), why=s.get("why", ""),
                clause=clause, remedy=remedy, line=m.line, column=m.column,
            ))
        out.append(LawAccount(number, code.id, src.path, tuple(sentences), seen[number]))
    return out


def _clause_of(text: str) -> str:
    m = _LABEL.match(text)
    return next((g for g in m.groups() if g), "") if m else ""


_accounts: dict[tuple[str, str], Account] = {}


def load_account(code_id: str) -> Account:
    """A code's account: its own laws from its file, its inherited laws from its parent's."""
    key = (str(laws_dir()), code_id)
    hit = _accounts.get(key)
    if hit is not None:
        return hit
    code = load_code(code_id)
    src, own = _read_file(code)
    mine = {la.number: la for la in own}
    sources: dict[str, Source] = {src.path: src} if src else {}
    inherited: dict[str, LawAccount] = {}
    if code.extends:
        parent = load_account(code.extends)
        sources.update(parent.sources)
        inherited = {la.number: la for la in parent.laws}
    # a law the code restates or adds is accounted in its own file; an inherited law keeps the parent's account
    laws = tuple(mine[law.number] if law.code == code.id else inherited[law.number] for law in code.laws
                 if (mine if law.code == code.id else inherited).get(law.number) is not None)
    acc = Account(code_id, laws, sources)
    _accounts[key] = acc
    return acc


def clear_cache() -> None:
    _accounts.clear()
    _vocabulary.cache_clear()


# --------------------------------------------------------------------------
# Checking


@dataclass(frozen=True)
class Finding:
    """One thing wrong with an account, at ``path:line:col``."""

    code: str
    law: str
    what: str  # tiling, missing-law, unknown-provision, effect, unknown-parameter, needs, why, binding
    message: str
    path: str
    line: int = 0
    column: int = 0
    text: str = ""
    remedy: bool = False  # an unaccounted remedy-bearing sentence

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: law {self.law}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "law": self.law, "what": self.what, "message": self.message,
                "at": f"{self.path}:{self.line}:{self.column}", "text": self.text, "remedy_bearing": self.remedy}


def tiling(text: str, sentences: Iterable[str]) -> tuple[int, int] | None:
    """None when the sentences, in order and separated only by white space, are exactly ``text``;
    else (the index of the first sentence that does not fit, or -1 for text left over; the offset)."""
    pos = 0
    n = len(text)
    for i, s in enumerate(sentences):
        while pos < n and text[pos].isspace():
            pos += 1
        if text[pos:pos + len(s)] != s:
            return i, pos
        pos += len(s)
    if text[pos:].strip():
        return -1, pos
    return None


def _has_effect(p: Provision, kind: str) -> bool:
    return any(e.kind.value == kind for e in p.effects) or \
        any(e.kind.value == kind for o in p.options for e in o.effects)


def _param(params: Mapping[str, Any], dotted: str) -> bool:
    """Does the code state the parameter (or say, citing its law, that it states none)?"""
    none = getattr(params, "none", None)
    if none is not None and none(dotted) is not None:
        return True
    cur: Any = params
    for part in dotted.split("."):
        if not isinstance(cur, Mapping) or part not in cur:
            return False
        cur = cur[part]
    return True


def check_account(code_id: str, account: Account | None = None) -> list[Finding]:
    """Everything wrong or unaccounted in a code's account (empty: every sentence is accounted for)."""
    code = load_code(code_id)
    acc = account if account is not None else load_account(code_id)
    vocab = load_vocabulary()
    provs = {p.id: p for p in code.provisions}
    out: list[Finding] = []
    folder = f"laws/{code_id}/{ACCOUNT_FILE}"
    for law in code.laws:
        if law.missing or not law.text:
            continue
        la = acc.law(law.number)
        if la is None:
            spans = split(law.text)
            out.append(Finding(code_id, law.number, "missing-law",
                               f"no account of law {law.number} ({len(spans)} sentence(s), "
                               f"{sum(1 for s in spans if vocab.remedy_bearing(s.text))} remedy-bearing); "
                               f"add it to laws/{law.code or code_id}/{ACCOUNT_FILE}",
                               law.file or folder, remedy=any(vocab.remedy_bearing(s.text) for s in spans)))
            continue
        out.extend(_check_law(code, law, la, provs, vocab))
    return out


def _check_law(code: Code, law: Law, la: LawAccount, provs: Mapping[str, Provision],
               vocab: Vocabulary) -> list[Finding]:
    out: list[Finding] = []

    def finding(s: Sentence, what: str, message: str, remedy: bool = False) -> None:
        out.append(Finding(code.id, law.number, what, message, la.path, s.line, s.column, s.text, remedy))

    bad = tiling(law.text or "", (s.text for s in la.sentences))
    if bad is not None:
        i, pos = bad
        rest = (law.text or "")[pos:].lstrip()[:60].replace("\n", " ")
        if i < 0:
            s = la.sentences[-1]
            finding(s, "tiling", f"the account stops before the end of the law text; it goes on: {rest!r}")
        else:
            finding(la.sentences[i], "tiling", f"this sentence is not the law text at this point; the law text "
                                               f"reads: {rest!r}")
    for s in la.sentences:
        spec = vocab.tags[s.tag]
        if law.binding and not spec.binding:
            finding(s, "binding", f"tag {s.tag!r} is only for paragraphs that are not law; law {law.number} is "
                                  "binding")
        if (s.provisions or s.parameters) and not spec.remedy:
            finding(s, "needs", f"tag {s.tag!r} takes no provisions or parameters; a sentence they encode is "
                                "tagged encoded, parameter, judgement or silence")
        if spec.needs and not getattr(s, spec.needs):
            finding(s, "needs", f"tag {s.tag!r} needs the {spec.needs} that carry the sentence", remedy=True)
        for pid in s.provisions:
            if pid not in provs:
                finding(s, "unknown-provision", f"{code.id} has no provision {pid!r}" + did_you_mean(pid, provs),
                        remedy=True)
        named = [provs[p] for p in s.provisions if p in provs]
        if spec.effect and named and not any(_has_effect(p, spec.effect) for p in named):
            finding(s, "effect", f"a {s.tag} names a provision with a {spec.effect!r} effect; "
                                 f"{', '.join(s.provisions)} has none", remedy=True)
        for name in s.parameters:
            if not _param(code.params, name):
                finding(s, "unknown-parameter", f"{code.id} has no parameter {name!r} (parameters.yaml)",
                        remedy=True)
        if s.tag == "heading":
            continue  # a heading prescribes nothing, whatever words it uses
        if s.tag == "lead-in":
            i = la.sentences.index(s)
            if i + 1 >= len(la.sentences):
                finding(s, "lead-in", "a lead-in opens the clauses or rows that follow it; it cannot end a law",
                        remedy=s.remedy)
            continue  # its remedy, if any, is accounted with its clauses
        if s.remedy and not spec.remedy and spec.binding and not s.why:
            finding(s, "why", f"this sentence reads as remedy-bearing (laws/accounting.yaml remedy_patterns) but is "
                              f"tagged {s.tag!r}: encode it (encoded, parameter, judgement, silence) or say 'why' it "
                              "prescribes no remedy", remedy=True)
    return out


# --------------------------------------------------------------------------
# Coverage


@dataclass(frozen=True)
class Coverage:
    code: str
    sentences: int
    remedy_bearing: int
    tags: Mapping[str, int]
    unaccounted: tuple[Finding, ...]
    problems: tuple[Finding, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "sentences": self.sentences, "remedy_bearing": self.remedy_bearing,
                "tags": dict(self.tags), "unaccounted": [f.to_dict() for f in self.unaccounted],
                "problems": [f.to_dict() for f in self.problems]}


def coverage(code_id: str) -> Coverage:
    """The account of one code counted: sentences by tag, remedy-bearing ones, and what is unaccounted."""
    code = load_code(code_id)
    acc = load_account(code_id)
    vocab = load_vocabulary()
    tags = {t: 0 for t in vocab.tags}
    n = rb = 0
    own = {law.number for law in code.laws if law.code == code_id}
    for la in acc.laws:
        if la.number not in own:
            continue
        for s in la.sentences:
            n += 1
            rb += s.remedy
            tags[s.tag] += 1
    findings = [f for f in check_account(code_id) if f.law in own]
    return Coverage(code_id, n, rb, tags, tuple(f for f in findings if f.remedy),
                    tuple(f for f in findings if not f.remedy))
