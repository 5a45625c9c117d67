"""The historian's reports — ``diff``, ``diff --rulings``, ``history``, ``audit`` — in every format.

Each verb's result is typed data with a JSON view; this module writes it as ``text`` (the terminal),
``markdown``, ``html`` (one offline file: no script, no request leaves the page; a table of contents,
the summary first, readable from 390 px up, every column labelled at every width) or ``json``.
:func:`render` takes any of them; an unknown format is an error, never ignored.
"""

from __future__ import annotations

import html
import json
from typing import Any, Callable

from .editions import CodeDiff, LawRow, ParamChange, gist
from .errors import InputError, did_you_mean
from .lawtext import html_column, markdown_column, text_column

__all__ = ["FORMATS", "render", "page", "check_format"]

FORMATS = ("text", "markdown", "html", "json")

e = html.escape


def check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise InputError("--format", f"unknown format {fmt!r}{did_you_mean(fmt, FORMATS)}; "
                                     f"choose from {', '.join(FORMATS)}")


def render(result: Any, fmt: str = "text") -> str:
    """Any report as ``text``, ``markdown``, ``html`` or ``json``."""
    check_format(fmt)
    if fmt == "json":
        return json.dumps(result.to_dict(), indent=2, ensure_ascii=False, default=str)
    from . import report_more

    writer: dict[type, dict[str, Callable[[Any], str]]] = {
        CodeDiff: {"text": diff_text, "markdown": diff_markdown, "html": diff_html}, **report_more.writers()}
    for cls, fmts in writer.items():
        if isinstance(result, cls):
            return fmts[fmt](result)
    raise TypeError(f"no report for {type(result).__name__}")  # pragma: no cover


# --------------------------------------------------------------------------
# The page


CSS = """
:root{--del:#f4c7bf;--ins:#c9e8c1;--ink:#222;--mute:#5d5a52;--rule:#e2ddd0;--paper:#fdfcf8}
*{box-sizing:border-box}
body{font:16px/1.5 Georgia,"Times New Roman",serif;margin:0;color:var(--ink);background:var(--paper)}
main{max-width:74rem;margin:0 auto;padding:1rem 1.25rem 4rem}
h1{font-size:1.5rem;margin:.4rem 0}h2{font-size:1.2rem;margin:2rem 0 .6rem;border-bottom:1px solid var(--rule)}
h3{font-size:1rem;margin:0 0 .5rem}
.sub,.lab,.tag,nav,th,td::before,.how{font-family:system-ui,-apple-system,"Segoe UI",sans-serif}
.sub{color:var(--mute);margin:.2rem 0 1rem}
nav#toc{background:#f4f1e8;border:1px solid var(--rule);padding:.5rem 1rem;font-size:.9rem}
nav#toc ol{margin:.2rem 0;padding-left:1.2rem}nav#toc .laws{font-size:.85rem;line-height:1.7}
nav#toc .laws a{white-space:nowrap;margin-right:.4rem}
a{color:#1d4f91}
ul.sum{padding-left:1.2rem;margin:.3rem 0}ul.sum li{margin:.25rem 0}
table{border-collapse:collapse;width:100%;font-size:.95rem}
th,td{text-align:left;vertical-align:top;padding:.35rem .5rem;border-top:1px solid var(--rule)}
th{font-size:.85rem;color:var(--mute);font-weight:600}
td,.law{overflow-wrap:anywhere}
del{background:var(--del);text-decoration:line-through}ins{background:var(--ins);text-decoration:none}
.sp{text-decoration:underline dotted #8a7a4a}
.law{white-space:pre-line}sup.fn{font-size:.7em;color:var(--mute)}i.it{font-style:italic}
.row{border-top:1px solid var(--rule);padding:1rem 0}
.cols{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1.5rem}
.lab{font-size:.8rem;font-weight:600;color:var(--mute);margin:0 0 .3rem}
.how,.tag{font-size:.8rem;color:var(--mute);font-weight:normal}
ol.fns{font-size:.85rem;color:var(--mute);padding-left:1.2rem}
.none{color:var(--mute);font-style:italic}
pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:.8rem;background:#f4f1e8;padding:.5rem}
@media (max-width:700px){
main{padding:.75rem}.cols{grid-template-columns:minmax(0,1fr);gap:.75rem}
table.stack thead{display:none}
table.stack tr{display:block;border-top:1px solid var(--rule);padding:.4rem 0}
table.stack td{display:block;border:0;padding:.1rem 0}
table.stack td::before{content:attr(data-label) ": ";font-size:.8rem;font-weight:600;color:var(--mute)}
}
"""


def page(title: str, subtitle: str, toc: list[tuple[str, str, str]], sections: list[str]) -> str:
    """An offline page: title, a table of contents [(anchor, label, extra html)], then the sections."""
    items = "".join(f'<li><a href="#{e(a)}">{e(label)}</a>{extra}</li>' for a, label, extra in toc)
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{e(title)}</title><style>{CSS}</style></head>\n<body><main>\n"
            f"<header><h1>{e(title)}</h1><p class=\"sub\">{e(subtitle)}</p></header>\n"
            f'<nav id="toc" aria-label="Contents"><strong>Contents</strong><ol>{items}</ol></nav>\n'
            + "\n".join(sections) + "\n</main></body></html>\n")


def table(cls: str, head: list[str], rows: list[list[str]]) -> str:
    """A table whose cells keep their column's label when stacked at a narrow width (cells given as HTML)."""
    th = "".join(f"<th>{e(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f'<td data-label="{e(h)}">{c}</td>' for h, c in zip(head, r)) + "</tr>"
                   for r in rows)
    return f'<table class="stack {cls}"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


# --------------------------------------------------------------------------
# diff A B


def _nums(numbers: tuple[str, ...]) -> str:
    return " + ".join(numbers) or "—"


def _value(v: Any) -> str:
    if v is None:
        return "not stated"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def _param_line(p: ParamChange) -> tuple[str, str, str]:
    def one(v: Any, law: str | None, none: str | None) -> str:
        if v is None:
            return "none stated" + (f" ({none})" if none else "")
        return _value(v) + (f" (law {law})" if law else "")

    return p.name, one(p.a, p.law_a, p.none_a), one(p.b, p.law_b, p.none_b)


def _summary_lines(d: CodeDiff) -> list[tuple[str, list[str]]]:
    """The summary as (heading, items): numbers first, then the laws."""
    s = d.summary
    out: list[tuple[str, list[str]]] = []
    out.append((f"Numbers changed ({len(d.params)})", _params_lines(d.params)))
    out.append((f"Laws added in {d.b} ({len(s.added)})",
                [f"{_nums(r.group.numbers_b)} ({', '.join(r.group.topics[:2])}): “{gist(r.group.b[0], 8)}”" for r in s.added]))
    out.append((f"Laws of {d.a} removed ({len(s.removed)})",
                [f"{_nums(r.group.numbers_a)} ({', '.join(r.group.topics[:2])}): “{gist(r.group.a[0], 8)}”"
                 for r in s.removed]))
    out.append((f"Merged or split ({len(s.regrouped)})",
                [f"{_nums(r.group.numbers_a)} → {_nums(r.group.numbers_b)} ({r.group.how})" for r in s.regrouped]))
    out.append((f"Renumbered ({len(s.renumbered)})",
                ["; ".join(f"{_nums(r.group.numbers_a)} → {_nums(r.group.numbers_b)}" for r in s.renumbered)]
                if s.renumbered else []))
    out.append((f"Changed in substance ({len(s.substance)})",
                [_ranges(s.substance)] if s.substance else []))
    sp_note = "" if "spelling" in d.ignore else " — `--ignore spelling` sets these aside"
    out.append((f"Changed only in spelling, case or punctuation ({len(s.spelling)}){sp_note}",
                [_ranges(s.spelling)] if s.spelling else []))
    out.append((f"Unchanged ({s.same})", []))
    if s.missing_a or s.missing_b:
        out.append(("Missing from every source", [f"{code}: laws {', '.join(m)}" for code, m in
                                                   ((d.a, s.missing_a), (d.b, s.missing_b)) if m]))
    counts = {c: sum(1 for p in d.provisions if p.change == c) for c in ("added", "removed", "changed")}
    out.append((f"Provisions: {counts['added']} added, {counts['removed']} removed, {counts['changed']} changed", []))
    return out


def _row_name(r: LawRow) -> str:
    a, b = _nums(r.group.numbers_a), _nums(r.group.numbers_b)
    return a if a == b else f"{a}→{b}"


def _ranges(rows: tuple[LawRow, ...]) -> str:
    """Row names, runs of laws that kept their numbers written as ranges (12–14)."""
    out: list[list[str]] = []
    last = None
    for r in rows:
        name = _row_name(r)
        n = int(name) if name.isdigit() else None
        if n is not None and last is not None and n == last + 1 and out and out[-1][0].isdigit():
            out[-1][1] = name
        else:
            out.append([name, name])
        last = n
    return ", ".join(a if a == b else f"{a}–{b}" for a, b in out)


def _params_lines(params: tuple[ParamChange, ...], most: int = 12) -> list[str]:
    """One line a number; past ``most``, a table of several numbers (honours…) in one line."""
    if len(params) <= most:
        return [f"{n}: {a} → {b}" for n, a, b in map(_param_line, params)]
    families: dict[str, list[ParamChange]] = {}
    for p in params:
        families.setdefault(p.name.split(".")[0], []).append(p)
    out = []
    for fam, ps in families.items():
        if len(ps) <= 2:
            out += [f"{n}: {a} → {b}" for n, a, b in map(_param_line, ps)]
            continue
        la = sorted({p.law_a for p in ps if p.law_a})
        lb = sorted({p.law_b for p in ps if p.law_b})
        out.append(f"{fam}: {len(ps)} values differ (law {', '.join(la) or '—'} → law {', '.join(lb) or '—'}; "
                   "see Numbers)")
    return out


def _heading(d: CodeDiff) -> str:
    return f"{d.a} → {d.b}" + (f" (topic {d.topic})" if d.topic else "")


def _titles(d: CodeDiff) -> str:
    def one(title: str, year: int) -> str:
        return title if str(year) in title else f"{title} ({year})"

    return f"{one(d.title_a, d.year_a)} → {one(d.title_b, d.year_b)}"


def _how(r: LawRow) -> str:
    return r.group.how if r.status == r.group.how else f"{r.group.how}; {r.status}"


def _set_aside_line(d: CodeDiff) -> str:
    if "spelling" not in d.ignore:
        return ""
    used = ", ".join(f"{s} ({n} laws)" for s, n in d.summary.spellings) or "none found"
    return (f"Spelling and punctuation set aside: case, hyphens, quotation marks, punctuation and footnote marks "
            f"are not counted as changes, nor the spellings listed in {d.spelling_source} (used: {used}).")


def diff_text(d: CodeDiff) -> str:
    out = [_heading(d), _titles(d), ""]
    if d.ignore:
        out += [_set_aside_line(d), ""]
    out.append("Summary")
    for head, items in _summary_lines(d):
        out.append(f"  {head}" + (":" if items else ""))
        for item in items:
            out.append(text_column_item(item))
    out += ["", "Contents: Summary · Numbers · Laws side by side · Provisions"]
    if d.params:
        out += ["", "Numbers"]
        w = max(len(p.name) for p in d.params)
        for p in d.params:
            n, a, b = _param_line(p)
            out.append(f"  {n:<{w}}  {a}  →  {b}")
    shown = d.shown()
    out += ["", f"Laws side by side ({len(shown)} of {len(d.rows)} aligned rows; unchanged laws are not shown)"]
    for r in shown:
        out.append("")
        out.append(f"{d.a} law {_nums(r.group.numbers_a)} → {d.b} law {_nums(r.group.numbers_b)}   "
                   f"[{_how(r)}; {', '.join(r.group.topics)}]")
        for code, col in ((d.a, r.diff.a), (d.b, r.diff.b)):
            for m in col:
                out.append(f"  {code} law {m.number}:")
                out.append(text_column(m.segments))
            if not col:
                out.append(f"  {code}: (no corresponding law)")
    if d.provisions:
        out += ["", "Provisions"]
        for pc in d.provisions:
            out.append(f"  {pc.change} {pc.id} (law {pc.law_a or '—'} → {pc.law_b or '—'})")
    return "\n".join(out)


def text_column_item(item: str) -> str:
    import textwrap

    return textwrap.fill(item, width=88, initial_indent="    - ", subsequent_indent="      ")


def diff_markdown(d: CodeDiff) -> str:
    out = [f"# {_heading(d)}", "", _titles(d), ""]
    if d.ignore:
        out += [_set_aside_line(d), ""]
    out += ["Contents: [Summary](#summary) · [Numbers](#numbers) · [Laws side by side](#laws-side-by-side) · "
            "[Provisions](#provisions)", "", "## Summary", ""]
    for head, items in _summary_lines(d):
        out.append(f"- **{head}**")
        for item in items:
            out.append(f"  - {item}")
    out += ["", "## Numbers", ""]
    if d.params:
        out += [f"| number | {d.a} | {d.b} |", "|---|---|---|"]
        for p in d.params:
            n, a, b = _param_line(p)
            out.append(f"| `{n}` | {a} | {b} |")
    else:
        out.append("No number differs.")
    out += ["", "## Laws side by side", ""]
    for r in d.shown():
        out.append(f"### {d.a} law {_nums(r.group.numbers_a)} → {d.b} law {_nums(r.group.numbers_b)}")
        out.append("")
        out.append(f"*{_how(r)}; {', '.join(r.group.topics)}*")
        for code, col in ((d.a, r.diff.a), (d.b, r.diff.b)):
            for m in col:
                out += ["", f"**{code}, law {m.number}:**", "", markdown_column(m.segments)]
            if not col:
                out += ["", f"**{code}:** no corresponding law"]
        out.append("")
    out += ["## Provisions", ""]
    for pc in d.provisions:
        out.append(f"- {pc.change} `{pc.id}` (law {pc.law_a or '—'} → {pc.law_b or '—'})")
    if not d.provisions:
        out.append("No provision differs.")
    return "\n".join(out) + "\n"


def diff_html(d: CodeDiff) -> str:
    from .loader import load_code

    ca, cb = load_code(d.a), load_code(d.b)
    shown = d.shown()
    summary = []
    for head, items in _summary_lines(d):
        lis = "".join(f"<li>{e(i)}</li>" for i in items)
        summary.append(f"<li><strong>{e(head)}</strong>" + (f"<ul class=\"sum\">{lis}</ul>" if lis else "") +
                       "</li>")
    aside = f"<p>{e(_set_aside_line(d))}</p>" if d.ignore else ""
    sections = [f'<section id="summary"><h2>Summary</h2>{aside}<ul class="sum">{"".join(summary)}</ul></section>']
    prow = [[f"<code>{e(p.name)}</code>", e(a), e(b)] for p in d.params for _, a, b in [_param_line(p)]]
    sections.append('<section id="parameters"><h2>Numbers</h2>' +
                    (table("params", ["number", d.a, d.b], prow) if prow
                     else '<p class="none">No number differs.</p>') + "</section>")
    rows = []
    for r in shown:
        cols = []
        for side, code, col, laws in (("a", d.a, r.diff.a, ca), ("b", d.b, r.diff.b, cb)):
            inner = []
            for m in col:
                law = laws.law(m.number)
                fns = dict(law.footnotes) if law else {}
                notes = "".join(f"<li value=\"{e(n)}\">{e(t)}</li>" for n, t in fns.items() if n.isdigit())
                inner.append(f'<p class="lab">{e(code)} · law {e(m.number)}</p>'
                             f'<div class="law" data-law="{e(m.number)}">{html_column(m.segments, fns)}</div>'
                             + (f'<ol class="fns">{notes}</ol>' if notes else ""))
            if not col:
                inner.append(f'<p class="lab">{e(code)}</p><p class="none">no corresponding law</p>')
            cols.append(f'<div class="col {side}">{"".join(inner)}</div>')
        rows.append(f'<article class="row {e(r.status)}" id="{e(r.anchor)}"><h3>Law {e(_nums(r.group.numbers_a))}'
                    f' → {e(_nums(r.group.numbers_b))} <span class="how">{e(_how(r))} · {e(", ".join(r.group.topics))}</span>'
                    '</h3>'
                    f'<div class="cols">{"".join(cols)}</div></article>')
    sections.append(f'<section id="laws"><h2>Laws side by side</h2><p class="sub">{len(shown)} of {len(d.rows)} '
                    f'aligned rows: every law that changed; unchanged laws are counted in the summary.</p>'
                    f'{"".join(rows)}</section>')
    provs = [[e(p.change), f"<code>{e(p.id)}</code>", e(p.law_a or "—"), e(p.law_b or "—")] for p in d.provisions]
    sections.append('<section id="provisions"><h2>Provisions</h2>' +
                    (table("provs", ["change", "provision", f"law in {d.a}", f"law in {d.b}"], provs) if provs
                     else '<p class="none">No provision differs.</p>') + "</section>")
    links = " ".join(f'<a href="#{e(r.anchor)}">{e(_row_name(r))}</a>' for r in shown)
    toc = [("summary", "Summary", ""), ("parameters", f"Numbers ({len(d.params)})", ""),
           ("laws", f"Laws side by side ({len(shown)})", f'<div class="laws">{links}</div>'),
           ("provisions", f"Provisions ({len(d.provisions)})", "")]
    return page(f"{d.a} and {d.b} compared" + (f" — topic {d.topic}" if d.topic else ""),
                _titles(d), toc, sections)
