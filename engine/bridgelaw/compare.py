"""Compare law editions: text, numbers, provisions, and the rulings they produce.

- :func:`align` pairs the laws of two codes — by number where the text still
  matches, else by topic and text — so renumbered laws still pair up;
- :func:`diff_codes` gives each pair's word-level diff, the parameter
  differences, and the provisions added, removed or changed;
- :func:`ruling_diff` generates incidents over each kind's fact space, rules
  under both codes, and groups the differences with one minimal example each;
- :func:`history` reads one topic through every code in date order;
- :func:`audit` finds where a code is silent, and where two provisions apply
  with conflicting effects and no precedence between them.
"""

from __future__ import annotations

import difflib
import html
import itertools
import json
import re
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping

from .errors import InputError, did_you_mean
from .facts import derive, higher
from .loader import Code, Law, code_ids, load_code, load_kinds
from .referee import _rule
from .values import MAX_CALL_LEVEL, Call, Ruling, Seat

__all__ = ["LawPair", "CodeDiff", "align", "diff_codes", "ruling_diff", "history", "audit", "render"]


# --------------------------------------------------------------------------
# Alignment and text


def _words(text: str | None) -> list[str]:
    """Words as printed, without the transcriptions' _italic_ marks."""
    return [re.sub(r"(?<![\w])_|_(?![\w])", "", w) for w in re.findall(r"\S+", text or "")]


def _norm_words(text: str | None) -> list[str]:
    return [re.sub(r"[^a-z0-9]", "", w.lower()) for w in _words(text) if re.sub(r"[^a-z0-9]", "", w.lower())]


def similarity(a: str | None, b: str | None) -> float:
    wa, wb = _norm_words(a), _norm_words(b)
    if not wa or not wb:
        return 0.0
    return difflib.SequenceMatcher(None, wa, wb, autojunk=False).ratio()


@dataclass(frozen=True)
class LawPair:
    a: Law | None
    b: Law | None
    similarity: float
    how: str  # "number", "text", "added", "removed"

    @property
    def same_text(self) -> bool:
        return self.a is not None and self.b is not None and _norm_words(self.a.text) == _norm_words(self.b.text)

    @property
    def topics(self) -> tuple[str, ...]:
        t: list[str] = []
        for law in (self.a, self.b):
            if law is not None:
                t += [x for x in law.topics if x not in t]
        return tuple(t)


def align(a: Code, b: Code, threshold: float = 0.45) -> list[LawPair]:
    """Pair laws: same number and similar text first, then the most similar law sharing a topic."""
    la = [law for law in a.laws if law.text]
    lb = [law for law in b.laws if law.text]
    used_b: set[str] = set()
    pairs: dict[str, LawPair] = {}
    b_by_num = {law.number: law for law in lb}
    for law in la:
        other = b_by_num.get(law.number)
        if other is not None:
            sim = similarity(law.text, other.text)
            if sim >= threshold or set(law.topics) & set(other.topics) and sim >= threshold / 2:
                pairs[law.number] = LawPair(law, other, sim, "number")
                used_b.add(other.number)
    # the rest by text, among laws sharing a topic, best matches first
    candidates = []
    for law in la:
        if law.number in pairs:
            continue
        for other in lb:
            if other.number in used_b or not set(law.topics) & set(other.topics):
                continue
            sim = similarity(law.text, other.text)
            if sim >= threshold:
                candidates.append((sim, law.number, other.number))
    a_by_num = {law.number: law for law in la}
    for sim, na, nb in sorted(candidates, reverse=True):
        if na in pairs or nb in used_b:
            continue
        pairs[na] = LawPair(a_by_num[na], b_by_num[nb], sim, "text")
        used_b.add(nb)
    out: list[LawPair] = []
    for law in la:
        out.append(pairs.get(law.number) or LawPair(law, None, 0.0, "removed"))
    # laws only in B, placed after the pair of their predecessor in B
    order_b = [law.number for law in lb]
    for law in lb:
        if law.number in used_b:
            continue
        i = order_b.index(law.number)
        prev = next((order_b[j] for j in range(i - 1, -1, -1) if order_b[j] in used_b), None)
        pos = next((k + 1 for k, p in enumerate(out) if p.b is not None and p.b.number == prev), 0) if prev else 0
        out.insert(pos, LawPair(None, law, 0.0, "added"))
        used_b.add(law.number)
    return out


def word_diff(a: str | None, b: str | None) -> list[tuple[str, str]]:
    """A word-level diff: ("=", words), ("-", words), ("+", words)."""
    wa, wb = _words(a), _words(b)
    sm = difflib.SequenceMatcher(None, [w.lower() for w in wa], [w.lower() for w in wb], autojunk=False)
    out: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            out.append(("=", " ".join(wa[i1:i2])))
        else:
            if i2 > i1:
                out.append(("-", " ".join(wa[i1:i2])))
            if j2 > j1:
                out.append(("+", " ".join(wb[j1:j2])))
    return out


def _flatten(d: Any, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(d, Mapping):
        for k, v in d.items():
            out.update(_flatten(v, f"{prefix}{k}."))
    else:
        out[prefix[:-1]] = d
    return out


@dataclass
class CodeDiff:
    a: str
    b: str
    pairs: list[LawPair]
    params: list[tuple[str, Any, Any]]
    provisions: list[tuple[str, str, str, str]]  # (change, id, law A, law B)
    topic: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a, "b": self.b, "topic": self.topic,
            "laws": [{"a": p.a.number if p.a else None, "b": p.b.number if p.b else None, "how": p.how,
                      "similarity": round(p.similarity, 3), "same_text": p.same_text, "topics": list(p.topics),
                      "diff": [] if p.same_text else [list(x) for x in word_diff(p.a.text if p.a else "",
                                                                                 p.b.text if p.b else "")]}
                     for p in self.pairs],
            "parameters": [{"name": n, "a": va, "b": vb} for n, va, vb in self.params],
            "provisions": [{"change": c, "id": i, "law_a": la, "law_b": lb} for c, i, la, lb in self.provisions],
        }


def _check_topic(topic: str | None) -> None:
    if topic is None:
        return
    from .loader import load_topics
    from .resources import laws_dir

    topics = load_topics(str(laws_dir()))
    if topic not in topics:
        raise InputError("--topic", f"unknown topic {topic!r}{did_you_mean(topic, topics)}; topics are listed in "
                         "laws/topics.yaml")


def diff_codes(a_id: str, b_id: str, topic: str | None = None) -> CodeDiff:
    _check_topic(topic)
    a, b = load_code(a_id), load_code(b_id)
    pairs = align(a, b)
    if topic:
        pairs = [p for p in pairs if topic in p.topics]
    fa, fb = _flatten({k: v for k, v in a.params.items() if k != "cite"}), \
        _flatten({k: v for k, v in b.params.items() if k != "cite"})
    params = [(k, fa.get(k), fb.get(k)) for k in sorted(set(fa) | set(fb)) if fa.get(k) != fb.get(k)]
    provs = _diff_provisions(a, b, pairs if not topic else align(a, b))
    if topic:
        keep = {lw.number for p in pairs for lw in (p.a, p.b) if lw is not None}
        provs = [p for p in provs if p[2] in keep or p[3] in keep]
    return CodeDiff(a_id, b_id, pairs, params, provs, topic)


def _diff_provisions(a: Code, b: Code, pairs: list[LawPair]) -> list[tuple[str, str, str, str]]:
    """Pair provisions by id, else by kind within aligned laws; report added, removed and changed."""
    law_map = {p.a.number: p.b.number for p in pairs if p.a is not None and p.b is not None}
    pb_by_id = {p.id: p for p in b.provisions}
    unmatched_b = dict(pb_by_id)
    out: list[tuple[str, str, str, str]] = []
    for x in a.provisions:
        y = pb_by_id.get(x.id) if x.id in unmatched_b else None
        if y is None:
            target = law_map.get(x.law)
            y = next((q for q in unmatched_b.values() if q.law == target and set(q.kinds) & set(x.kinds)
                      and _effects_sig(q) == _effects_sig(x)), None) or \
                next((q for q in unmatched_b.values() if q.law == target and set(q.kinds) & set(x.kinds)), None)
        if y is None:
            out.append(("removed", x.id, x.law, ""))
            continue
        unmatched_b.pop(y.id, None)
        if x.when_text != y.when_text or _effects_sig(x) != _effects_sig(y) or x.kinds != y.kinds:
            out.append(("changed", x.id if x.id == y.id else f"{x.id} → {y.id}", x.law, y.law))
    for y in unmatched_b.values():
        out.append(("added", y.id, "", y.law))
    return out


def _effects_sig(p: Any) -> Any:
    return (tuple((e.kind, tuple((n, str(v)) for n, v, _ in e.fields)) for e in p.effects),
            tuple((o.id, tuple((e.kind, tuple((n, str(v)) for n, v, _ in e.fields)) for e in o.effects))
                  for o in p.options), p.chooser_text)


# --------------------------------------------------------------------------
# Rulings over a fact space


def _bids(codes: list[Code]) -> list[Call]:
    strains = [s for s in ("C", "D", "H", "S", "R", "NT") if all(s in c.params.get("trick_values", {}) for c in codes)]
    top = min(int(c.params.get("max_level", MAX_CALL_LEVEL)) for c in codes)
    return [Call(f"{lv}{s}") for lv in range(1, top + 1) for s in strains]


def _domain(code_ids_: Iterable[Code], kind: str) -> list[tuple[str, list[Any]]]:
    """The facts the provisions of ``kind`` read in any of the codes, each with a small domain."""
    common, kinds = load_kinds()
    spec = kinds[kind]
    needed: set[str] = set()
    for code in code_ids_:
        for p in code.by_kind.get(kind, ()):
            needed |= set(p.needs)
            for o in p.options:
                if o.when_text:
                    needed |= set(re.findall(r"[a-z_]+", o.when_text))
    dom: list[tuple[str, list[Any]]] = []
    for name in sorted(needed):
        f = spec.facts.get(name) or common.get(name)
        if f is None or name in ("declarer", "dummy", "leader", "dealer", "eldest", "maker"):
            continue
        t = f.type
        if t.name == "bool":
            dom.append((name, [False, True]))
        elif t.choices:
            dom.append((name, list(t.choices)))
        elif t.name == "int":
            dom.append((name, [1, 2]))
        elif t.name == "seat":
            dom.append((name, list(Seat)))
        elif t.name == "side":
            dom.append((name, ["NS", "EW"]))
        elif t.name == "card":
            dom.append((name, ["HK"]))
        elif t.name == "suit":
            dom.append((name, ["H"]))
        elif t.name == "call" and name == "call":
            dom.append((name, [Call("1H"), Call("P"), Call("X"), Call("XX")]))
    return dom


def incidents_for(codes: list[Code], kind: str, limit: int = 20000) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """(incident mapping, the facts varied) over the kind's fact space; auction kinds walk pairs of bids."""
    if kind in ("insufficient_bid", "impossible_bid"):
        bids = _bids(codes)
        for prev in bids:
            for call in bids:
                if all(not higher(c, call, prev) for c in codes):
                    for condoned in (False, True):
                        auction = [prev.text, call.text] + (["P"] if condoned else [])
                        yield ({"irregularity": kind, "dealer": "S", "auction": auction, "offence_at": 1},
                               {"previous_bid": prev.text, "call": call.text, "condoned": condoned})
        return
    dom = _domain(codes, kind)
    seats = [s for s in Seat]
    names = [n for n, _ in dom]
    n = 0
    for values in itertools.product(*(v for _, v in dom)):
        facts = dict(zip(names, values))
        offender = facts.pop("offender", None)
        for off in ([offender] if offender is not None else seats):
            inc = {"irregularity": kind, "dealer": "S", "declarer": "E", "offender": off.value,
                   "facts": {k: (v.text if isinstance(v, Call) else v.value if isinstance(v, Seat) else v)
                             for k, v in facts.items()}}
            yield inc, {"offender": off.value, **inc["facts"]}
            n += 1
            if n >= limit:
                return


def signature(r: Ruling) -> tuple[Any, ...]:
    """What a ruling does, without which law numbers it cites."""
    effects = tuple(sorted(json.dumps(e.to_dict(), sort_keys=True) for e in r.effects))
    options = tuple(sorted(json.dumps({"chooser": o.chooser, "effects": [e.to_dict() for e in o.effects]},
                                      sort_keys=True) for o in r.options))
    questions = tuple(sorted(q.fact for q in r.questions))
    return effects, options, questions


def _rule_quiet(code: Code, inc: Mapping[str, Any]) -> Ruling | None:
    from .errors import BridgelawError
    from .facts import parse_incident

    try:
        i = parse_incident({"code": code.id, **inc})
        kind, facts, notes = derive(code, i)
    except BridgelawError:
        return None
    return _rule(code, kind, facts, notes)


def _describe(sig: tuple[Any, ...]) -> str:
    effects, options, questions = sig

    def one(e: Mapping[str, Any]) -> str:
        if e["kind"] == "score":
            return f"score {e['points']} to {e.get('side') or e.get('player')}"
        if e["kind"] == "transfer_tricks":
            return f"{e['count']} tricks {e['from']}->{e['to']}"
        return str(e["kind"])

    parts = [one(json.loads(e)) for e in effects]
    for o in options:
        d = json.loads(o)
        parts.append(f"option for {d['chooser']}: " + "+".join(one(e) for e in d["effects"]))
    if questions:
        parts.append("asks " + ", ".join(questions))
    return "; ".join(parts) or "nothing"


def ruling_diff(a_id: str, b_id: str, kinds: Iterable[str] | None = None) -> dict[str, Any]:
    """Rule every generated incident under both codes; group the differences."""
    a, b = load_code(a_id), load_code(b_id)
    _, all_kinds = load_kinds()
    chosen = list(kinds) if kinds else sorted(set(a.by_kind) | set(b.by_kind))
    tried = 0
    groups: dict[tuple[Any, ...], dict[str, Any]] = {}
    for kind in chosen:
        if kind not in all_kinds:
            raise InputError("--kind", f"unknown kind {kind!r}{did_you_mean(kind, all_kinds)}")
        for inc, varied in incidents_for([a, b], kind):
            ra, rb = _rule_quiet(a, inc), _rule_quiet(b, inc)
            if ra is None or rb is None:
                continue
            tried += 1
            sa, sb = signature(ra), signature(rb)
            if sa == sb:
                continue
            key = (kind, sa, sb)
            g = groups.get(key)
            weight = sum(1 for v in varied.values() if v not in (False, None))
            if g is None or weight < g["_weight"]:
                groups[key] = {
                    "kind": kind, "count": (g["count"] if g else 0) + 1, "_weight": weight,
                    "example": inc, a_id: {"does": _describe(sa), "laws": [c.number for c in ra.laws]},
                    b_id: {"does": _describe(sb), "laws": [c.number for c in rb.laws]},
                }
            else:
                g["count"] += 1
    out = sorted(groups.values(), key=lambda g: (g["kind"], -g["count"]))
    for g in out:
        g.pop("_weight")
    return {"a": a_id, "b": b_id, "incidents": tried, "groups": out}


# --------------------------------------------------------------------------
# History and audit


def history(topic: str) -> list[dict[str, Any]]:
    _check_topic(topic)
    rows = []
    for cid in sorted(code_ids(), key=lambda c: (load_code(c).year, c)):
        code = load_code(cid)
        laws = [law for law in code.laws if topic in law.topics]
        rows.append({"code": cid, "year": code.year, "title": code.title,
                     "laws": [{"number": law.number, "text": law.text, "missing": law.missing} for law in laws]})
    return rows


from .vocabulary import vocabulary as _vocabulary  # noqa: E402  (the clashes: schema/effects.yaml)

_CONFLICTS = _vocabulary().clash_pairs()


def audit(code_id: str) -> dict[str, Any]:
    """Kinds and fact combinations where the code is silent, and unresolved conflicts between provisions."""
    code = load_code(code_id)
    _, kinds = load_kinds()
    silent: list[dict[str, Any]] = []
    conflicts: list[dict[str, Any]] = []
    tried = 0
    for kind in sorted(kinds):
        if kind not in code.by_kind:
            silent.append({"kind": kind, "example": {"irregularity": kind}, "note": "no provision answers this kind"})
            continue
        seen_silent = False
        seen_conflicts: set[tuple[str, str]] = set()
        for inc, varied in incidents_for([code], kind, limit=5000):
            r = _rule_quiet(code, inc)
            if r is None:
                continue
            tried += 1
            if not seen_silent and any(e.kind.value == "no_provision" for e in r.effects):
                silent.append({"kind": kind, "example": inc})
                seen_silent = True
            applied = [t for t in r.trace if t.applied]
            if len(applied) < 2:
                continue
            provs = {p.full_id: p for p in code.by_kind[kind]}
            for x, y in itertools.combinations(applied, 2):
                px, py = provs[x.provision], provs[y.provision]
                if py.id in px.overrides or px.id in py.overrides:
                    continue
                kx = {e.kind.value for e in px.effects} | {e.kind.value for o in px.options for e in o.effects}
                ky = {e.kind.value for e in py.effects} | {e.kind.value for o in py.options for e in o.effects}
                clash = [c for c in _CONFLICTS if (c[0] in kx and c[1] in ky) or (c[1] in kx and c[0] in ky)]
                if clash and (px.id, py.id) not in seen_conflicts:
                    seen_conflicts.add((px.id, py.id))
                    conflicts.append({"kind": kind, "provisions": [px.full_id, py.full_id],
                                      "effects": ["/".join(c) for c in clash], "example": inc})
    return {"code": code_id, "incidents": tried, "silent": silent, "conflicts": conflicts}


# --------------------------------------------------------------------------
# Rendering


def render(d: CodeDiff, fmt: str = "text") -> str:
    if fmt == "json":
        return json.dumps(d.to_dict(), indent=2, ensure_ascii=False)
    if fmt == "html":
        return _html(d)
    md = fmt == "markdown"
    out: list[str] = []
    title = f"{d.a} → {d.b}" + (f" (topic {d.topic})" if d.topic else "")
    out.append(f"# {title}" if md else title)
    changed = [p for p in d.pairs if not p.same_text]
    out.append(f"{len(d.pairs)} laws aligned; {len(changed)} differ in text.")
    for p in changed:
        na = p.a.number if p.a else "—"
        nb = p.b.number if p.b else "—"
        head = f"law {na} → {nb} ({p.how})"
        out.append("")
        out.append(f"## {head}" if md else head)
        if p.a is None or p.b is None:
            out.append(("added: " if p.a is None else "removed: ") + ((p.b or p.a).text or "")[:300])  # type: ignore[union-attr]
            continue
        parts = []
        for op, words in word_diff(p.a.text, p.b.text):
            parts.append(words if op == "=" else (f"~~{words}~~" if md else f"[-{words}-]") if op == "-" else
                         (f"**{words}**" if md else f"{{+{words}+}}"))
        out.append(" ".join(parts))
    if d.params:
        out.append("")
        out.append("## Parameters" if md else "Parameters")
        for n, va, vb in d.params:
            out.append(f"- {n}: {va} → {vb}")
    if d.provisions:
        out.append("")
        out.append("## Provisions" if md else "Provisions")
        for c, i, la, lb in d.provisions:
            out.append(f"- {c} {i} (law {la or '—'} → {lb or '—'})")
    return "\n".join(out)


_CSS = """
body{font:15px/1.45 Georgia,serif;margin:1.5em;color:#222;background:#fdfcf8}
h1{font-size:1.4em}h2{font-size:1.1em;margin-top:1.6em}
table{border-collapse:collapse;width:100%}td,th{vertical-align:top;border-top:1px solid #ddd;padding:.5em}
th{text-align:left;background:#f3efe4}.num{white-space:nowrap;color:#666;width:4em}
del{background:#fbd9d3;text-decoration:line-through}ins{background:#d7f2d3;text-decoration:none}
.same{color:#888}.tag{font:12px sans-serif;color:#666}
@media (max-width:700px){td,th{display:block;width:auto}}
"""


def _html(d: CodeDiff) -> str:
    e = html.escape
    rows = []
    for p in d.pairs:
        if p.a is not None and p.b is not None and not p.same_text:
            left, right = [], []
            for op, words in word_diff(p.a.text, p.b.text):
                if op == "=":
                    left.append(e(words))
                    right.append(e(words))
                elif op == "-":
                    left.append(f"<del>{e(words)}</del>")
                else:
                    right.append(f"<ins>{e(words)}</ins>")
            lt, rt = " ".join(left), " ".join(right)
        else:
            lt = e(p.a.text or "") if p.a else ""
            rt = e(p.b.text or "") if p.b else ""
        cls = ' class="same"' if p.same_text else ""
        rows.append(f"<tr{cls}><td class=num>{e(p.a.number) if p.a else '—'}</td><td>{lt}</td>"
                    f"<td class=num>{e(p.b.number) if p.b else '—'}</td><td>{rt}</td>"
                    f"<td class=tag>{e(', '.join(p.topics))}</td></tr>")
    params = "".join(f"<tr><td>{e(n)}</td><td>{e(str(va))}</td><td>{e(str(vb))}</td></tr>" for n, va, vb in d.params)
    provs = "".join(f"<tr><td>{e(c)}</td><td>{e(i)}</td><td>{e(la)}</td><td>{e(lb)}</td></tr>"
                    for c, i, la, lb in d.provisions)
    changed = sum(1 for p in d.pairs if not p.same_text)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{e(d.a)} and {e(d.b)} compared</title><style>{_CSS}</style></head>
<body><h1>{e(d.a)} and {e(d.b)} compared{(' — topic ' + e(d.topic)) if d.topic else ''}</h1>
<p id="summary">{len(d.pairs)} laws aligned; {changed} differ in text; {len(d.params)} parameters differ;
{len(d.provisions)} provisions added, removed or changed.</p>
<h2>Laws, side by side</h2>
<table id="laws"><tr><th></th><th>{e(d.a)}</th><th></th><th>{e(d.b)}</th><th>topics</th></tr>{''.join(rows)}</table>
<h2>Parameters</h2><table id="parameters"><tr><th>name</th><th>{e(d.a)}</th><th>{e(d.b)}</th></tr>{params}</table>
<h2>Provisions</h2><table id="provisions"><tr><th>change</th><th>id</th><th>law in {e(d.a)}</th>
<th>law in {e(d.b)}</th></tr>{provs}</table>
</body></html>
"""

