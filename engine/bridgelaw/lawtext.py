"""Law text as people read it: paragraphs, clause letters in italics, footnote marks as superscripts —
written from a diff's marked segments (:mod:`bridgelaw.textdiff`) for the terminal, Markdown and HTML.

The HTML is exact: :func:`unmark_html` gives back the law's text from what :func:`html_column` wrote,
character for character (the tests check it for every aligned pair of every pair of codes). Paragraphs
and table rows stay as printed (the page shows them with ``white-space: pre-line``); an italic run is cut
at the edge of a marked segment, and each ``<i>`` says whether its ends are the text's own underscores.
"""

from __future__ import annotations

import html
import re
import textwrap
from typing import Iterable, Mapping

from .textdiff import Segment

__all__ = ["html_column", "unmark_html", "text_column", "markdown_column", "plain_law", "FOOTNOTE"]

FOOTNOTE = re.compile(r"\[\^(\w+)\]")
_PIECES = re.compile(r"(\[\^\w+\]|(?<!\w)_(?=\S)|(?<=\S)_(?!\w))")
_HTML_TAG = {"-": "del", "+": "ins", "~": "span"}


def _runs(text: str, italic: bool) -> tuple[list[tuple[str, str, bool, bool]], bool]:
    """The text cut into runs: (kind, text, opened here, closed here), kind "t" text, "i" italic, "f" footnote
    number; and whether an italic run is still open at its end."""
    out: list[tuple[str, str, bool, bool]] = []
    buf = ""
    opened = False
    for piece in _PIECES.split(text):
        if not piece:
            continue
        m = FOOTNOTE.fullmatch(piece)
        if m:
            if buf:
                out.append(("i" if italic else "t", buf, opened, False))
                buf, opened = "", False
            out.append(("f", m.group(1), False, False))
            continue
        if piece == "_" and not italic:
            if buf:
                out.append(("t", buf, False, False))
            buf, italic, opened = "", True, True
            continue
        if piece == "_" and italic:
            out.append(("i", buf, opened, True))
            buf, italic, opened = "", False, False
            continue
        buf += piece
    if buf or opened:
        out.append(("i" if italic else "t", buf, opened, False))
    return out, italic


def html_column(segments: Iterable[Segment], footnotes: Mapping[str, str] | None = None) -> str:
    """One law's marked text as HTML (no enclosing element)."""
    e = html.escape
    fns = footnotes or {}
    out: list[str] = []
    italic = False
    for seg in segments:
        pieces: list[str] = []
        runs, italic_after = _runs(seg.text, italic)
        for kind, text, opened, closed in runs:
            if kind == "f":
                title = f' title="{e(fns[text])}"' if text in fns else ""
                pieces.append(f'<sup class="fn"{title}>{e(text)}</sup>')
            elif kind == "i":
                cls = "it" + (" l" if opened else "") + (" r" if closed else "")
                pieces.append(f'<i class="{cls}">{e(text)}</i>')
            else:
                pieces.append(e(text))
        italic = italic_after
        body = "".join(pieces)
        tag = _HTML_TAG.get(seg.op)
        if tag == "span":
            out.append(f'<span class="sp">{body}</span>')
        elif tag:
            out.append(f"<{tag}>{body}</{tag}>")
        else:
            out.append(body)
    return "".join(out)


_UNMARK_I = re.compile(r'<i class="it( l)?( r)?">(.*?)</i>', re.S)
_UNMARK_FN = re.compile(r'<sup class="fn"[^>]*>(\w+)</sup>')
_UNMARK_SEG = re.compile(r'</?(?:del|ins)>|<span class="sp">|</span>')


def unmark_html(fragment: str) -> str:
    """The law's own text from :func:`html_column`'s HTML: marks stripped, italics and footnote marks as
    the law files write them."""
    s = _UNMARK_SEG.sub("", fragment)
    s = _UNMARK_FN.sub(lambda m: f"[^{m.group(1)}]", s)
    s = _UNMARK_I.sub(lambda m: ("_" if m.group(1) else "") + m.group(3) + ("_" if m.group(2) else ""), s)
    return html.unescape(s)


def plain_law(text: str) -> str:
    """A law's text for the terminal: footnote marks as [N], italic marks dropped."""
    return "".join(t if k != "f" else f"[{t}]" for k, t, _, _ in _runs(text, False)[0])


def _marked_lines(segments: Iterable[Segment], mark: Mapping[str, tuple[str, str]], md: bool = False) -> list[str]:
    """The column as lines (paragraphs and table rows as printed), each changed run marked, marks never
    spanning a line break."""
    lines = [""]
    italic = False
    for seg in segments:
        runs, italic = _runs(seg.text, italic)
        text = ""
        for kind, t, opened, closed in runs:
            if kind == "f":
                text += f"<sup>{t}</sup>" if md else f"[{t}]"
            elif kind == "i" and md:
                text += ("_" if opened else "") + _md_escape(t) + ("_" if closed else "")
            else:
                text += _md_escape(t) if md else t
        left, right = mark.get(seg.op, ("", ""))
        parts = text.split("\n")
        for k, part in enumerate(parts):
            if k:
                lines.append("")
            if part.strip() and left:
                core = part.strip()
                lead = part[: len(part) - len(part.lstrip())]
                trail = part[len(part.rstrip()):]
                lines[-1] += f"{lead}{left}{core}{right}{trail}"
            else:
                lines[-1] += part
    return lines


def _md_escape(t: str) -> str:
    return re.sub(r"([\\*`<>#|\[\]])", r"\\\1", t)


TEXT_MARKS = {"-": ("[-", "-]"), "+": ("{+", "+}")}
MD_MARKS = {"-": ("~~", "~~"), "+": ("**", "**")}


def text_column(segments: Iterable[Segment], indent: str = "    ", width: int = 88) -> str:
    """The column for the terminal: [-removed-] {+added+}, paragraphs wrapped, table rows kept."""
    out = []
    for line in _marked_lines(segments, TEXT_MARKS):
        if not line.strip():
            out.append("")
        elif "|" in line or len(line) <= width - len(indent):
            out.append(indent + line)
        else:
            out.append(textwrap.fill(line, width=width, initial_indent=indent, subsequent_indent=indent,
                                     break_on_hyphens=False))
    return "\n".join(out)


def markdown_column(segments: Iterable[Segment]) -> str:
    """The column in Markdown: ~~removed~~ **added**, paragraphs as paragraphs, table rows as lines."""
    paras: list[list[str]] = [[]]
    for line in _marked_lines(segments, MD_MARKS, md=True):
        if not line.strip():
            if paras[-1]:
                paras.append([])
        else:
            paras[-1].append(line.strip())
    return "\n\n".join("<br>\n".join(p) for p in paras if p)
