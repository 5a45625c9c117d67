"""Reports of the rulings diff, a topic's history and the audit, as text, Markdown and HTML (JSON is
each result's own view). The page shell and its styles are :mod:`bridgelaw.report`'s."""

from __future__ import annotations

import json
import textwrap
from typing import Any, Callable

from .history import History
from .lawtext import html_column, markdown_column, plain_law, text_column
from .rulingdiff import DiffGroup, RulingDiff
from .textdiff import Segment

__all__ = ["writers", "HEADLINE"]

HEADLINE = 40  # the rulings diff names at most this many groups before its detail


def _e(s: Any) -> str:
    import html

    return html.escape(str(s))


def _wrap(text: str, indent: str = "    ", first: str | None = None) -> str:
    return textwrap.fill(text, width=88, initial_indent=first if first is not None else indent,
                         subsequent_indent=indent, break_on_hyphens=False)


def _laws(laws: list[str]) -> str:
    return ", ".join(laws) or "—"


def _who(g: DiffGroup) -> str:
    names = {"N": "North", "E": "East", "S": "South", "W": "West"}
    if len(g.seats) == 4:
        return "any player"
    return " or ".join(names[s] for s in g.seats) if g.seats else "—"


def _kind(k: str) -> str:
    return k.replace("_", " ")


# --------------------------------------------------------------------------
# diff --rulings


def _rd_intro(d: RulingDiff) -> list[str]:
    diff = sum(g.count for g in d.groups)
    how = ("one incident for each class of the fact space (facts that change no condition are not varied)"
           if d.generator == "classes" else "every incident of the fact space")
    return [f"{d.a} → {d.b}: the rulings compared",
            f"{d.incidents} incidents ruled under both codes ({how}), standing for the {d.space} incidents of "
            f"{len(d.kinds)} kinds; {diff} of them are ruled differently, in {len(d.groups)} groups of what "
            "changes for the players."]


def _headline(d: RulingDiff) -> list[DiffGroup]:
    return d.groups[:HEADLINE]


def rulings_text(d: RulingDiff) -> str:
    intro = _rd_intro(d)
    out = [intro[0], _wrap(intro[1], "", "")]
    top = _headline(d)
    out += ["", f"What changes, most telling first ({len(top)} of {len(d.groups)} groups; each in detail below)"]
    for i, g in enumerate(top, 1):
        out.append(_wrap(f"{_kind(g.kind)} — {g.category}: {d.a}: {g.words_a} → {d.b}: {g.words_b} "
                         f"(laws {_laws(g.laws_a)} → {_laws(g.laws_b)}; {g.count} incidents; offender "
                         f"{_who(g)})", "      ", f"{i:>3}. "))
    if len(d.groups) > len(top):
        out.append(f"  … and {len(d.groups) - len(top)} more groups in the detail.")
    out += ["", "Detail"]
    for i, g in enumerate(d.groups, 1):
        out += ["", f"{i}. [{_kind(g.kind)}] {g.category} — {g.count} incidents; offender {_who(g)}"]
        out.append(_wrap(f"{d.a} (laws {_laws(g.laws_a)}): {g.words_a}"))
        out.append(_wrap(f"{d.b} (laws {_laws(g.laws_b)}): {g.words_b}"))
        for f in g.fields:
            out.append(_wrap(f"differs in {f}"))
        out.append(_wrap(f"For example: {g.sentence}"))
        out.append(_wrap(f"ruled under {d.a}: {g.ruled_a}"))
        out.append(_wrap(f"ruled under {d.b}: {g.ruled_b}"))
        out.append("    the incident: " + json.dumps(g.example, ensure_ascii=False))
    return "\n".join(out)


def rulings_markdown(d: RulingDiff) -> str:
    intro = _rd_intro(d)
    out = [f"# {intro[0]}", "", intro[1], "", "Contents: [What changes](#what-changes) · [Detail](#detail)", "",
           "## What changes", "", f"| # | kind | what changes | {d.a} | {d.b} | laws | incidents | offender |",
           "|---|---|---|---|---|---|---|---|"]
    for i, g in enumerate(_headline(d), 1):
        out.append(f"| {i} | {_kind(g.kind)} | {g.category} | {_md(g.words_a)} | {_md(g.words_b)} | "
                   f"{_laws(g.laws_a)} → {_laws(g.laws_b)} | {g.count} | {_who(g)} |")
    if len(d.groups) > HEADLINE:
        out += ["", f"… and {len(d.groups) - HEADLINE} more groups in the detail."]
    out += ["", "## Detail", ""]
    for i, g in enumerate(d.groups, 1):
        out += [f"### {i}. {_kind(g.kind)}: {g.category}", "",
                f"- **{d.a}** (laws {_laws(g.laws_a)}): {_md(g.words_a)}",
                f"- **{d.b}** (laws {_laws(g.laws_b)}): {_md(g.words_b)}"]
        out += [f"- differs in {_md(f)}" for f in g.fields]
        out += [f"- {g.count} incidents; offender {_who(g)}", "", f"For example: {_md(g.sentence)}", "",
                f"- ruled under {d.a}: {_md(g.ruled_a)}", f"- ruled under {d.b}: {_md(g.ruled_b)}", "",
                "```json", json.dumps(g.example, ensure_ascii=False), "```", ""]
    return "\n".join(out)


def _md(s: str) -> str:
    return s.replace("|", "\\|").replace("*", "\\*")


def rulings_html(d: RulingDiff) -> str:
    from .report import page, table

    intro = _rd_intro(d)
    rows = [[str(i), _e(_kind(g.kind)), _e(g.category), _e(g.words_a), _e(g.words_b),
             _e(f"{_laws(g.laws_a)} → {_laws(g.laws_b)}"), str(g.count), _e(_who(g)),
             f'<a href="#g{i}">detail</a>'] for i, g in enumerate(_headline(d), 1)]
    more = (f'<p class="sub">… and {len(d.groups) - HEADLINE} more groups in the detail.</p>'
            if len(d.groups) > HEADLINE else "")
    head = table("changes", ["#", "kind", "what changes", d.a, d.b, "laws", "incidents", "offender", "see"], rows)
    detail = []
    for i, g in enumerate(d.groups, 1):
        fields = "".join(f"<li>differs in {_e(f)}</li>" for f in g.fields)
        detail.append(f'<article class="row" id="g{i}"><h3>{i}. {_e(_kind(g.kind))}: {_e(g.category)} '
                      f'<span class="how">{g.count} incidents · offender {_e(_who(g))}</span></h3>'
                      f'<div class="cols"><div class="col a"><p class="lab">{_e(d.a)} · laws {_e(_laws(g.laws_a))}</p>'
                      f'<p>{_e(g.words_a)}</p><p class="sub">{_e(g.ruled_a)}</p></div>'
                      f'<div class="col b"><p class="lab">{_e(d.b)} · laws {_e(_laws(g.laws_b))}</p>'
                      f'<p>{_e(g.words_b)}</p><p class="sub">{_e(g.ruled_b)}</p></div></div>'
                      + (f'<ul class="sum">{fields}</ul>' if fields else "")
                      + f'<p>For example: {_e(g.sentence)}</p><pre>{_e(json.dumps(g.example, ensure_ascii=False))}'
                      "</pre></article>")
    sections = [f'<section id="summary"><h2>What changes</h2><p>{_e(intro[1])}</p>{head}{more}</section>',
                f'<section id="detail"><h2>Detail</h2>{"".join(detail)}</section>']
    from .loader import load_code

    return page(f"{d.a} and {d.b}: the rulings compared", f"{load_code(d.a).title} → {load_code(d.b).title}",
                [("summary", "What changes", ""), ("detail", f"Detail ({len(d.groups)} groups)", "")], sections)


# --------------------------------------------------------------------------
# history TOPIC


def _cell(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


_TABLE = 4  # more numbers than this under one name (a table: honours, trick values) make one column


def _hist_columns(h: History) -> list[tuple[str, list[str]]]:
    """The table's columns: (heading, the numbers' names it shows); a name with many numbers under it one
    column."""
    groups: dict[str, list[str]] = {}
    for c in h.columns:
        groups.setdefault(c.split(".")[0], []).append(c)
    out: list[tuple[str, list[str]]] = []
    for top, cs in groups.items():
        if len(cs) > _TABLE:
            out.append((top.replace("_", " ") + " (table)", cs))
        else:
            out += [(c.replace("_", " ").replace(".", " · "), [c]) for c in cs]
    return out


def _hist_table(h: History) -> tuple[list[str], list[list[str]]]:
    cols = _hist_columns(h)
    head = ["code", "year", "laws"] + [name for name, _ in cols]
    rows = []
    for r in h.rows:
        nums = {n: (v, law) for n, v, law in r.numbers}
        laws = ", ".join(law.number for law in r.laws) or "—"
        cells = []
        for _, cs in cols:
            got = [nums[c] for c in cs if c in nums]
            if not got:
                cells.append("—")
            elif len(cs) == 1:
                cells.append(f"{_cell(got[0][0])} (law {got[0][1]})")
            else:
                cells.append(f"{len(got)} figures (law {', '.join(sorted({law for _, law in got}))})")
        rows.append([r.code, str(r.year), laws] + cells)
    return head, rows


def history_text(h: History) -> str:
    out = [f"{h.topic}: {h.description}", "", "The numbers, by year (each cell: the number, and the law that states it)"]
    head, table = _hist_table(h)
    head = ["year", "code"] + [c.split(" · ")[-1] for c in head[3:]]
    rows = [[r[1], r[0]] + [c.replace("(law ", "(") for c in r[3:]] for r in table]
    width = [max(len(x[i]) for x in rows + [head]) for i in range(len(head))]
    for line in [head, ["-" * w for w in width]] + rows:
        out.append("  " + "  ".join(x.ljust(w) for x, w in zip(line, width)).rstrip())
    if len(head) == 2:
        out.append("  (no code states a number on this topic)")
    out += ["", "The laws on the topic"]
    for r in h.rows:
        out.append(_wrap(f"{r.year}  {r.code}: " + (", ".join(law.number for law in r.laws) or "none"), "      ", "  "))
    out += ["", "The texts"]
    for r in h.rows:
        out += ["", f"{r.year}  {r.code} — {r.title}"]
        if not r.laws:
            out.append("    (no law on this topic)")
        for law in r.laws:
            out.append(f"  Law {law.number}" + (f" ({law.heading})" if law.heading else ""))
            if law.missing:
                out.append(_wrap(f"MISSING: {law.note or 'in no source'}"))
                continue
            out.append(text_column([Segment("=", law.text or "")]))
            for n, t in law.footnotes:
                out.append(_wrap(f"[{n}] {plain_law(t)}", "      "))
    return "\n".join(out)


def history_markdown(h: History) -> str:
    head, rows = _hist_table(h)
    out = [f"# {h.topic}", "", h.description, "", "Contents: [The numbers](#the-numbers) · [The texts](#the-texts)",
           "", "## The numbers", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    out += ["", "## The texts", ""]
    for r in h.rows:
        out += [f"### {r.year} {r.code}", "", f"*{r.title}*", ""]
        for law in r.laws:
            out.append(f"**Law {law.number}**" + (f" ({law.heading})" if law.heading else ""))
            out.append("")
            out.append(f"MISSING: {law.note}" if law.missing else markdown_column([Segment("=", law.text or "")]))
            out.append("")
        if not r.laws:
            out += ["No law on this topic.", ""]
    return "\n".join(out)


def history_html(h: History) -> str:
    from .report import page, table

    head, rows = _hist_table(h)
    numbers = table("numbers", head, [[_e(c) for c in r] for r in rows])
    texts = []
    for r in h.rows:
        laws = []
        for law in r.laws:
            body = (f'<p class="none">missing: {_e(law.note)}</p>' if law.missing else
                    f'<div class="law">{html_column([Segment("=", law.text or "")], dict(law.footnotes))}</div>')
            laws.append(f'<details id="{_e(r.code)}-{_e(law.number)}"><summary>Law {_e(law.number)}'
                        f'{" (" + _e(law.heading) + ")" if law.heading else ""}</summary>{body}</details>')
        texts.append(f'<article class="row" id="{_e(r.code)}"><h3>{r.year} {_e(r.code)} '
                     f'<span class="how">{_e(r.title)}</span></h3>'
                     + ("".join(laws) or '<p class="none">no law on this topic</p>') + "</article>")
    sections = [f'<section id="summary"><h2>The numbers</h2>{numbers}</section>',
                f'<section id="texts"><h2>The texts</h2><p class="sub">Each law opens with a click.</p>'
                f'{"".join(texts)}</section>']
    return page(f"{h.topic}: every code", h.description,
                [("summary", "The numbers", ""), ("texts", "The texts", "")], sections)


# --------------------------------------------------------------------------
# audit CODE


def _audit_lines(a: Any) -> list[tuple[str, list[str]]]:
    sil = []
    for s in a.silent:
        facts = ", ".join(f"{n.replace('_', ' ')} = {_cell(v)}" for n, v in s.facts) or "any facts"
        line = f"{_kind(s.kind)}: " + (s.note if s.note else f"silent when {facts}")
        if s.missing_text:
            line += f" — this falls in text missing from every source: {s.missing_text}"
        sil.append(line)
    con = [f"{_kind(c.kind)}: {' and '.join(c.provisions)} ({', '.join(c.effects)}); e.g. "
           f"{json.dumps(c.example, ensure_ascii=False)}" for c in a.conflicts]
    return [(f"Silent ({len(a.silent)}): the code prescribes nothing", sil),
            (f"Conflicts ({len(a.conflicts)}): two provisions apply with clashing effects and no precedence", con)]


def _audit_intro(a: Any) -> str:
    other = (f"; {len(a.other_games)} kinds only codes of another game answer are left out "
             f"({', '.join(_kind(k) for k in a.other_games)})") if a.other_games else ""
    miss = f"; laws {', '.join(a.missing)} (and after) are in no source" if a.missing else ""
    return (f"{a.incidents} incidents ruled over the {a.kinds} kinds of irregularity of its game ({a.game})"
            f"{other}{miss}.")


def audit_text(a: Any) -> str:
    out = [f"audit of {a.code}: {a.title}", _wrap(_audit_intro(a), "", "")]
    for head, items in _audit_lines(a):
        out += ["", head] + [_wrap(i, "      ", "  - ") for i in items]
    return "\n".join(out)


def audit_markdown(a: Any) -> str:
    out = [f"# Audit of {a.code}", "", a.title, "", _audit_intro(a)]
    for head, items in _audit_lines(a):
        out += ["", f"## {head}", ""] + [f"- {_md(i)}" for i in items]
    return "\n".join(out) + "\n"


def audit_html(a: Any) -> str:
    from .report import page

    secs = []
    for k, (head, items) in enumerate(_audit_lines(a)):
        lis = "".join(f"<li>{_e(i)}</li>" for i in items) or '<li class="none">none</li>'
        secs.append(f'<section id="{"silent" if k == 0 else "conflicts"}"><h2>{_e(head)}</h2>'
                    f'<ul class="sum">{lis}</ul></section>')
    secs.insert(0, f'<section id="summary"><h2>Summary</h2><p>{_e(_audit_intro(a))}</p></section>')
    return page(f"Audit of {a.code}", a.title, [("summary", "Summary", ""), ("silent", "Silent", ""),
                                                 ("conflicts", "Conflicts", "")], secs)


def writers() -> dict[type, dict[str, Callable[[Any], str]]]:
    """The writers of each result type, by format."""
    from .compare import Audit

    return {RulingDiff: {"text": rulings_text, "markdown": rulings_markdown, "html": rulings_html},
            History: {"text": history_text, "markdown": history_markdown, "html": history_html},
            Audit: {"text": audit_text, "markdown": audit_markdown, "html": audit_html}}
