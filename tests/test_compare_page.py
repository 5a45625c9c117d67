"""The historian's HTML reports in Debian's chromium (Playwright), at 1280 and at 390 px: the summary on the
first screen, the table of contents, the two editions side by side when there is room and one above the
other when there is not, every column labelled, nothing wider than the screen — checked on the element
boxes and on the screenshot's pixels. Skipped without chromium."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any, Iterator

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("Debian's chromium (/usr/bin/chromium) is not installed; .ci/run installs it",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
Image = pytest.importorskip("PIL.Image")

from bridgelaw.compare import diff_codes, history, ruling_diff  # noqa: E402
from bridgelaw.report import render  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
DEL = (0xF4, 0xC7, 0xBF)  # the report's colours for words removed and added (report.CSS)
INS = (0xC9, 0xE8, 0xC1)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("reports")
    out = {}
    for name, result in (("diff", diff_codes("wcny-1912", "wcny-1913")),
                         ("rulings", ruling_diff("wcny-1912", "wcny-1913", ["revoke", "misdeal"])),
                         ("history", history("revoke"))):
        p = root / f"{name}.html"
        p.write_text(render(result, "html"), encoding="utf-8")
        out[name] = p
    return out


def _open(browser: Any, path: Path, width: int) -> tuple[Any, Any, list[str]]:
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    outside: list[str] = []

    def route(r: Any) -> None:
        if r.request.url.startswith("file://"):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    ctx.route("**/*", route)
    page = ctx.new_page()
    page.goto(path.as_uri())
    return ctx, page, outside


def _shot(target: Any, name: str) -> Any:
    """A screenshot of the page's screen, or of one element (scrolled into view)."""
    png = target.screenshot()
    where = os.environ.get("BRIDGELAW_SCREENSHOTS")
    if where:
        Path(where, name).write_bytes(png)
    return Image.open(io.BytesIO(png)).convert("RGB")


def _near(c: tuple[int, ...], want: tuple[int, int, int], tol: int = 12) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(c, want))


def _pixels(img: Any) -> list[tuple[int, ...]]:
    raw = img.tobytes()
    return [tuple(raw[i:i + 3]) for i in range(0, len(raw), 3)]


def _share(img: Any, want: tuple[int, int, int]) -> float:
    px = _pixels(img)
    return sum(1 for c in px if _near(c, want)) / max(len(px), 1)


@pytest.mark.timeout(180)
@pytest.mark.parametrize("width", [1280, 390])
def test_the_diff_report_reads_at_every_width(browser, pages, width):
    ctx, page, outside = _open(browser, pages["diff"], width)
    try:
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing wider than the screen
        summary = page.locator("#summary").bounding_box()
        toc = page.locator("#toc").bounding_box()
        laws = page.locator("#laws").bounding_box()
        assert toc["y"] < summary["y"] < laws["y"]
        assert page.locator("#summary h2").bounding_box()["y"] < 900 * (1 if width > 700 else 2.5)
        assert page.locator("#toc a[href='#parameters']").is_visible()
        row = page.locator("#law-84-84")
        row.scroll_into_view_if_needed()
        a, b = row.locator(".col.a").bounding_box(), row.locator(".col.b").bounding_box()
        if width > 700:  # side by side, the later edition on the right
            assert abs(a["y"] - b["y"]) < 2 and b["x"] >= a["x"] + a["width"]
        else:  # one above the other, each labelled
            assert b["y"] >= a["y"] + a["height"] - 1 and abs(a["x"] - b["x"]) < 2
        for lab in ("wcny-1912 · law 84", "wcny-1913 · law 84"):
            el = row.locator(".lab", has_text=lab)
            assert el.is_visible() and el.bounding_box()["width"] > 40
        # the pixels: the earlier column shows the removed 150 in red, the later the added 100 in green
        img_a = _shot(row.locator(".col.a"), f"diff-84-a-{width}.png")
        img_b = _shot(row.locator(".col.b"), f"diff-84-b-{width}.png")
        assert _share(img_a, DEL) > 0.003 and _share(img_a, INS) == 0
        assert _share(img_b, INS) > 0.003 and _share(img_b, DEL) == 0
        d150 = row.locator(".col.a del", has_text="150").first
        assert _share(_shot(d150, f"diff-150-{width}.png"), DEL) > 0.3
        # the numbers keep their labels when the table stacks
        page.locator("#parameters").scroll_into_view_if_needed()
        cell = page.locator("#parameters td[data-label='wcny-1913']").first
        before = page.evaluate("e => getComputedStyle(e, '::before').content", cell.element_handle())
        if width > 700:
            assert page.locator("#parameters thead").is_visible() and before in ("none", "normal", '""')
        else:
            assert not page.locator("#parameters thead").is_visible() and "wcny-1913" in before
        page.evaluate("window.scrollTo(0, 0)")
        whole = _shot(page, f"diff-{width}.png")
        assert whole.size[0] == width and len(set(_pixels(whole.resize((64, 64))))) > 20  # drawn, not blank
        assert outside == []
    finally:
        ctx.close()


@pytest.mark.timeout(180)
@pytest.mark.parametrize("name", ["rulings", "history"])
@pytest.mark.parametrize("width", [1280, 390])
def test_the_other_reports_read_at_every_width(browser, pages, name, width):
    ctx, page, outside = _open(browser, pages[name], width)
    try:
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.locator("#summary").bounding_box()["y"] < 900
        cells = page.locator("#summary td")
        assert cells.count() > 5
        if width <= 700:  # stacked: each cell says which column it is
            before = page.evaluate("e => getComputedStyle(e, '::before').content", cells.nth(1).element_handle())
            assert len(before) > 3
        if name == "history":
            assert page.locator("details").first.is_visible() and not page.locator("details .law").first.is_visible()
            page.locator("details summary").first.click()
            assert page.locator("details .law").first.is_visible()
        img = _shot(page, f"{name}-{width}.png")
        assert len(set(_pixels(img.resize((64, 64))))) > 20
        assert outside == []
    finally:
        ctx.close()
