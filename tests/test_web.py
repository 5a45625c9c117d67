"""The referee's web page, driven end to end in Debian's chromium with Playwright (skipped without them).

The desk runs in a thread of this process on an ephemeral port. Every request the page makes is watched:
nothing may leave localhost (the page works offline at the club). Screenshots are written to the test's
temporary folder, and also to ``$BRIDGELAW_SCREENSHOTS`` when it is set.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("Debian's chromium (/usr/bin/chromium) is not installed; .ci/run installs it",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

from bridgelaw.server import DeskServer, make_server  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
# the answers a referee gives at the table: North revoked, East is the declarer, the revoke is established, the
# first by that side; any other question gets the first choice offered (or 1)
ANSWERS = {"offender": "N", "declarer": "E", "established": "true", "revokes_by_side": "1"}


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DeskServer]:
    server = make_server("127.0.0.1", 0, tmp_path_factory.mktemp("web") / "rulings.sqlite3", quiet=True)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    yield server
    server.shutdown()
    server.server_close()
    server.log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


class Watched:
    """A page whose requests and errors are recorded: requests off localhost are refused and remembered."""

    def __init__(self, browser: Any, desk: DeskServer, **context: Any) -> None:
        self.base = desk.url
        self.context = browser.new_context(**context)
        self.outside: list[str] = []
        self.errors: list[str] = []
        self.context.route("**/*", self._route)
        # every Content-Security-Policy violation the page meets, recorded in the page (an init script runs
        # before the page's own, whatever the CSP)
        self.context.add_init_script("window.__csp = []; document.addEventListener('securitypolicyviolation', "
                                     "(e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("console", lambda m: self.csp_console.append(m.text)
                     if "Content Security Policy" in m.text or "Content-Security-Policy" in m.text else None)
        self.csp_console: list[str] = []

    def _route(self, route: Any) -> None:
        url = route.request.url
        if url.startswith(self.base) or url.startswith("data:"):
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()

    def open(self) -> Any:
        self.page.goto(self.base)
        self.page.wait_for_selector("#code option[value='wcny-1913']", state="attached")
        return self.page

    def close(self) -> None:
        violations = self.page.evaluate("window.__csp")
        csp = self.page.evaluate("fetch('/').then((r) => r.headers.get('content-security-policy'))")
        self.context.close()
        assert violations == [] and self.csp_console == [], \
            f"the page broke its Content-Security-Policy: {violations} {self.csp_console}"
        assert "unsafe-inline" not in csp and "sha256-" in csp
        assert self.outside == [], f"the page asked for something off localhost: {self.outside}"
        assert self.errors == [], f"errors in the page: {self.errors}"


def answer_until_ruled(page: Any, limit: int = 10) -> list[str]:
    """Answer the questions the ruling asks, re-submitting until none remain; the facts asked, in order."""
    asked = []
    for _ in range(limit):
        page.wait_for_selector("#ruling-box, #questions:not([hidden])")
        if page.locator("#ruling-box").count():
            return asked
        for fs in page.locator("#question-fields fieldset").all():
            fact, kind = fs.get_attribute("data-fact"), fs.get_attribute("data-type")
            asked.append(fact)
            want = ANSWERS.get(fact)
            radios = fs.locator("input[type=radio]")
            if radios.count():
                target = fs.locator(f"input[value='{want}']") if want else radios.first
                target.check()
            elif fs.locator("select").count():
                sel = fs.locator("select")
                sel.select_option(want or sel.locator("option").first.get_attribute("value"))
            else:
                fs.locator("input").fill(want or ("1" if kind == "int" else "SA"))
        with page.expect_response(lambda r: r.url.endswith("/rule")):
            page.click("#answer-go")
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(150)  # let the page render the answer before looking at it again
    raise AssertionError(f"still asking after {limit} rounds: {asked}")


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", head[16:24])


def keep(shot: Path) -> None:
    out = os.environ.get("BRIDGELAW_SCREENSHOTS")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(out) / shot.name)


def rule_on_a_revoke(page: Any) -> list[str]:
    page.select_option("#code", "wcny-1913")
    page.wait_for_selector("#kind option[value='revoke']", state="attached")
    page.select_option("#kind", "revoke")
    with page.expect_response(lambda r: r.url.endswith("/rule")):
        page.click("#rule-go")
    return answer_until_ruled(page)


def test_the_referee_rules_on_a_revoke_and_records_the_choice(browser, desk, tmp_path):
    w = Watched(browser, desk, viewport={"width": 1280, "height": 900})
    page = w.open()
    asked = rule_on_a_revoke(page)
    assert {"offender", "established"} <= set(asked)  # the rest may come in one round or several
    ruling = page.inner_text("#ruling-box")
    assert "chooses" in ruling and "Law 84" in ruling
    assert "East chooses one of:" in ruling and "The penalty for each established revoke" in ruling

    page.check("#ruling input[name=choice][value=tricks]")
    page.fill("#note", "East took three tricks")
    page.click("#record-go")
    page.wait_for_selector("#record-status.ok")
    assert "tricks chosen" in page.inner_text("#record-status")
    last = next(desk.log.last(1))
    assert (last.choice, last.note, last.code) == ("tricks", "East took three tricks", "wcny-1913")
    assert last.incident["offender"] == "N" and last.ruling["laws"][0]["number"] == "84"

    shot = tmp_path / "desk-revoke-ruling.png"
    page.screenshot(path=str(shot), full_page=True)
    keep(shot)
    width, height = png_size(shot)
    assert width == 1280 and height >= 900 and shot.stat().st_size > 30_000

    page.click("#tab-log")
    page.wait_for_selector("#log-list .box")
    assert "East took three tricks" in page.inner_text("#log-list")
    w.close()


def test_the_page_fits_a_phone(browser, desk, tmp_path):
    w = Watched(browser, desk, viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                has_touch=True)
    page = w.open()
    rule_on_a_revoke(page)
    ruling = page.inner_text("#ruling-box")
    assert "chooses" in ruling and "Law 84" in ruling
    # nothing wider than the screen: no sideways scrolling
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.locator("#rule-go").bounding_box()
    assert box and box["height"] >= 40  # a button a thumb can press
    shot = tmp_path / "desk-revoke-phone.png"
    page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
    page.screenshot(path=str(shot), full_page=True)
    keep(shot)
    width, height = png_size(shot)
    assert width == 780 and height > 1688 and shot.stat().st_size > 30_000
    w.close()


def test_the_law_browser_and_search(browser, desk):
    w = Watched(browser, desk, viewport={"width": 1024, "height": 800})
    page = w.open()
    page.click("#tab-laws")
    page.wait_for_selector("#law-list li")
    page.locator("#law-list button", has_text="84").first.click()
    page.wait_for_selector("#law-box")
    assert "law 84" in page.inner_text("#law-box h2") and "Law 84" in page.inner_text("#law-box")

    page.check("#all-codes")
    page.fill("#q", "royal spades")
    with page.expect_response(lambda r: "/search?" in r.url):
        page.click("#search-form button[type=submit]")
    page.locator("#law-list-head", has_text="royal spades").wait_for()
    assert page.locator("#law-list li").count() >= 2
    page.locator("#law-list button").first.click()
    page.locator("#law-box blockquote", has_text=re.compile("royal spades", re.I)).wait_for()
    w.close()


def test_the_casebook_rules_on_its_incidents(browser, desk):
    w = Watched(browser, desk, viewport={"width": 1024, "height": 800})
    page = w.open()
    page.click("#tab-casebook")
    page.wait_for_selector("#case-list li")
    page.select_option("#case-code", "wcny-1913")
    page.fill("#case-filter", "first established revoke gives the declarer")
    page.locator("#case-list button").first.click()
    page.click("#case-view button.go")
    page.wait_for_selector("#ruling-box")
    ruling = page.inner_text("#ruling-box")
    assert "East chooses one of:" in ruling and "Law 84" in ruling
    w.close()


def test_bad_input_shows_the_one_line_error(browser, desk):
    w = Watched(browser, desk, viewport={"width": 1024, "height": 800})
    page = w.open()
    page.wait_for_selector("#kind option[value='insufficient_bid']", state="attached")
    page.select_option("#kind", "insufficient_bid")
    page.click("#table-facts summary")
    page.fill("#auction", "1H 9Z")
    page.click("#rule-go")
    page.wait_for_selector("#rule-error:not([hidden])")
    assert "9Z" in page.inner_text("#rule-error")
    w.errors = [e for e in w.errors if "422" not in e]  # the browser logs the failed fetch itself
    w.close()


def test_a_csp_violation_would_be_seen(browser, desk):
    """The watch on the CSP works: an inline style attribute put into the page is refused and reported."""
    w = Watched(browser, desk, viewport={"width": 800, "height": 600})
    page = w.open()
    page.evaluate("""document.body.insertAdjacentHTML("beforeend", '<p style="color: red">x</p>')""")
    page.wait_for_function("window.__csp.length > 0")
    assert any("style-src" in v for v in page.evaluate("window.__csp"))
    page.evaluate("window.__csp.length = 0")
    w.csp_console.clear()
    w.errors.clear()
    w.close()


def test_the_page_shows_every_casebook_ruling_in_the_words_it_is_sent(browser, desk):
    """The page's own renderer, on every ruling of the casebook: it shows the words the API sends (heading,
    effects, options, presumptions), and no identifier in snake_case (the trace, folded away, is the engine's)."""
    from bridgelaw import api
    from bridgelaw.casebook import load_cases

    root = Path(__file__).resolve().parent.parent
    rulings = [{**api.rule(c.incident), "trace": [], "facts": {}} for c in load_cases(root / "rulings")]
    w = Watched(browser, desk, viewport={"width": 1024, "height": 800})
    page = w.open()
    shown = page.evaluate("""(rulings) => {
        Element.prototype.scrollIntoView = () => {};  // nothing to scroll to, and no layout to wait for
        document.getElementById("ruling").hidden = true;
        return rulings.map((r) => {
            showRuling(r);
            const box = document.getElementById("ruling-box").cloneNode(true);
            box.querySelectorAll("details, #record").forEach((e) => e.remove());
            return [...box.querySelectorAll("h2, h3, li, b, p, blockquote")].map((e) => e.textContent).join("\\n");
        });
    }""", rulings)
    snake = re.compile(r"\b[a-z]+_[a-z_]+\b")
    for r, text in zip(rulings, shown):
        words = r["words"]
        assert not snake.search(text), (words["heading"], snake.search(text).group(0))
        for s in [words["heading"], *words["effects"], *(o["text"] for c in words["choices"] for o in c["options"])]:
            assert s in text, (words["heading"], s)
        if words["presumptions"]:
            assert words["presumptions"] in text
    w.close()
