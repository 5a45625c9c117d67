"""The referee's web page, driven end to end in Debian's chromium with Playwright (skipped without them).

The desk runs in a thread of this process on an ephemeral port. Every request the page makes is watched:
nothing may leave localhost (the page works offline at the club). Screenshots are written to the test's
temporary folder, and also to ``$BRIDGELAW_SCREENSHOTS`` when it is set.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("Debian's chromium (/usr/bin/chromium) is not installed; .ci/run installs it",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

from bridgelaw.server import DeskServer, make_server  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
# The interviews typed at the terminal (tests/test_ask.py), typed into the page: each has one wrong answer
INTERVIEWS = yaml.safe_load((Path(__file__).parent / "interviews" / "interviews.yaml").read_text(encoding="utf-8"))
KINDS = ("revoke", "insufficient_bid", "lead_out_of_turn")
PHONE = [c for c in INTERVIEWS if c["code"] == "wcny-1913"]  # a revoke, an insufficient bid, a lead out of turn
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")


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
        self.page.wait_for_selector("#law-code option[value='wcny-1913']", state="attached")
        self.page.wait_for_selector("#step[data-key=code]")
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


def type_answer(page: Any, answer: str, where: str = "#step") -> dict[str, Any]:
    """Type an answer into the step asked and send it; the desk's reply (the round)."""
    with page.expect_response(lambda r: r.url.endswith("/interview")) as reply:
        page.fill(f"{where}-input", answer)
        page.press(f"{where}-input", "Enter")
    round_ = reply.value.json()
    page.wait_for_selector("#step-slot #step" if round_["step"] else "#ruling-box")
    return round_


def click_answer(page: Any, selector: str) -> dict[str, Any]:
    with page.expect_response(lambda r: r.url.endswith("/interview")) as reply:
        page.click(selector)
    round_ = reply.value.json()
    page.wait_for_selector("#step-slot #step" if round_["step"] else "#ruling-box")
    return round_


def walk(page: Any, case: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Type an interview's answers into the page, a step at a time; the last round, and how many answers were
    explained and asked again. After each round every earlier answer is on the page, above the step asked."""
    wrong = 0
    for answer in [case["code"], *case["answers"]]:
        key = page.get_attribute("#step", "data-key")
        shown_before = page.locator("#answers li").count()
        round_ = type_answer(page, answer)
        keys = [a["key"] for a in round_["asked"]]
        assert page.locator("#answers li").count() == len(keys)
        assert [li.get_attribute("data-key") for li in page.locator("#answers li").all()] == keys
        if round_["step"] and round_["step"].get("problem"):
            wrong += 1
            assert page.inner_text("#step .problem") == round_["step"]["problem"]
        else:
            assert key in keys and len(keys) >= shown_before + 1
    return round_, wrong


def assert_shows(page: Any, ruling: dict[str, Any]) -> None:
    """The ruling on the page is the one sent, in its words: heading, effects, options, presumptions, the law."""
    text = page.inner_text("#ruling-box")
    words = ruling["words"]
    for s in [words["heading"], *words["effects"], *(c["heading"] for c in words["choices"]),
              *(o["text"] for c in words["choices"] for o in c["options"]), words["presumptions"],
              *(f"Law {c['number']}" for c in ruling["laws"])]:
        assert " ".join(s.split()) in " ".join(text.split()), s


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return struct.unpack(">II", head[16:24])


def keep(shot: Path) -> None:
    out = os.environ.get("BRIDGELAW_SCREENSHOTS")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, Path(out) / shot.name)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", INTERVIEWS, ids=[c["name"] for c in INTERVIEWS])
def test_an_interview_walked_on_the_page_rules_as_rule_does(browser, desk, case):
    from bridgelaw import api

    assert case["incident"]["irregularity"] in KINDS
    w = Watched(browser, desk, viewport={"width": 1280, "height": 900})
    page = w.open()
    last, wrong = walk(page, case)
    assert wrong >= 1, "each interview types one wrong answer, which the page explains"
    assert last["step"] is None and last["incident"] == case["incident"]
    assert last["ruling"] == json.loads(json.dumps(api.rule(case["incident"])))  # what POST /rule gives
    assert_shows(page, last["ruling"])
    w.close()


@pytest.mark.timeout(120)
@pytest.mark.parametrize("case", PHONE, ids=[c["name"] for c in PHONE])
def test_the_interview_fits_a_phone(browser, desk, tmp_path, case):
    from bridgelaw import api

    w = Watched(browser, desk, viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                has_touch=True)
    page = w.open()
    box = page.locator("#step-go").bounding_box()
    assert box and box["height"] >= 40  # a button a thumb can press
    assert page.locator("#step .menu li").count() == len(api.codes())  # the codes, numbered
    last, wrong = walk(page, case)
    assert wrong >= 1 and last["ruling"] == json.loads(json.dumps(api.rule(case["incident"])))
    assert_shows(page, last["ruling"])
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    shot = tmp_path / f"desk-{case['incident']['irregularity']}-phone.png"
    page.evaluate("window.scrollTo({top: 0, behavior: 'instant'})")
    page.screenshot(path=str(shot), full_page=True)
    keep(shot)
    width, height = png_size(shot)
    assert width == 780 and height > 1688 and shot.stat().st_size > 30_000
    w.close()


def test_the_kind_menu_is_numbered_grouped_by_phase_and_searched_by_words(browser, desk):
    w = Watched(browser, desk, viewport={"width": 1024, "height": 800})
    page = w.open()
    click_answer(page, "#step .menu button[data-value='wcny-1913']")
    groups = page.locator("#step .menu h3").all_inner_texts()
    assert [g.lower() for g in groups] == ["deal", "auction", "play", "scoring"]
    items = page.locator("#step .menu button").all_inner_texts()
    assert [int(t.split()[0]) for t in items] == list(range(1, len(items) + 1)) and len(items) > 40
    assert not any(SNAKE.search(t) for t in items), [t for t in items if SNAKE.search(t)]
    # words typed in the search box: several kinds match, and the step says which, by number
    round_ = type_answer(page, "out of turn")
    assert "could be" in page.inner_text("#step .problem") and round_["step"]["key"] == "irregularity"
    round_ = type_answer(page, "bid out of turn")
    assert round_["answers"]["irregularity"] == "call_out_of_turn"
    assert page.inner_text("#answers li[data-key=irregularity] .a") == "call out of turn"
    w.close()


def test_an_earlier_answer_changed_on_the_page_resumes_the_interview(browser, desk):
    from bridgelaw import api

    case = INTERVIEWS[0]  # a revoke under the 1913 laws, by East
    w = Watched(browser, desk, viewport={"width": 1024, "height": 800})
    page = w.open()
    walk(page, case)
    assert page.inner_text("#ruling-box h2").startswith("Revoke by East")
    page.click("#answers li[data-key=dealer] button.change")  # opened, then left as it was
    page.click("#answers li[data-key=offender] button.change")
    page.wait_for_selector("#answers li[data-key=offender] #edit")
    assert page.locator("#edit").count() == 1 and page.locator("#answers li[data-key=dealer] button.change").count()
    round_ = click_answer(page, "#edit .choices button[data-value=W]")
    incident = {**case["incident"], "offender": "W"}
    assert round_["incident"] == incident and round_["ruling"] == json.loads(json.dumps(api.rule(incident)))
    assert page.inner_text("#ruling-box h2").startswith("Revoke by West")
    assert page.inner_text("#answers li[data-key=offender] .a") == "West"
    # every later answer asked the same again, and kept: the dealer, the calls, the facts
    assert page.locator("#answers li").count() == len(round_["asked"]) == 5 + len(case["incident"]["facts"])
    # the calls changed, typed again in their own box
    page.click("#answers li[data-key=auction] button.change")
    assert page.input_value("#edit-input") == "1H P P P"
    round_ = type_answer(page, "1H P 2H P P P", "#edit")
    assert round_["answers"]["auction"] == ["1H", "P", "2H", "P", "P", "P"]
    w.close()


def test_the_referee_records_the_choice_and_the_log_lists_it_in_words(browser, desk, tmp_path):
    w = Watched(browser, desk, viewport={"width": 1280, "height": 900})
    page = w.open()
    last, _ = walk(page, INTERVIEWS[0])
    ruling = page.inner_text("#ruling-box")
    assert "South chooses one of:" in ruling and "Law 84" in ruling
    before = desk.log.count()
    page.check("#ruling input[name=choice][value=tricks]")
    page.fill("#note", "South took three tricks")
    page.click("#record-go")
    page.wait_for_selector("#record-status.ok")
    option = next(o for c in last["ruling"]["words"]["choices"] for o in c["options"] if o["id"] == "tricks")
    assert option["text"] in page.inner_text("#record-status")
    entry = next(desk.log.last(1))
    assert desk.log.count() == before + 1
    assert (entry.choice, entry.note, entry.incident) == ("tricks", "South took three tricks",
                                                          INTERVIEWS[0]["incident"])
    page.fill("#note", "South took three tricks, and the lead")  # a second record annotates the same entry
    with page.expect_response(lambda r: r.url.endswith("/log") and r.request.method == "POST") as again:
        page.click("#record-go")
    assert again.value.json()["id"] == entry.id
    assert desk.log.count() == before + 1 and desk.log.get(entry.id).note.endswith("and the lead")

    shot = tmp_path / "desk-revoke-ruling.png"
    page.screenshot(path=str(shot), full_page=True)
    keep(shot)
    width, height = png_size(shot)
    assert width == 1280 and height >= 900 and shot.stat().st_size > 30_000

    page.click("#tab-log")
    page.wait_for_selector("#log-list .box")
    log = page.inner_text("#log-list")
    assert "and the lead" in log and last["ruling"]["words"]["heading"] in log and not SNAKE.search(log)
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
    from bridgelaw import api

    cases = api.casebook()  # every case is listed, by its name
    assert page.locator("#case-list li").count() == len(cases) >= 1000
    assert page.inner_text("#case-count") == f"The casebook: {len(cases)} case(s)"
    listed = page.locator("#case-list li").all_inner_texts()
    assert all(c["name"] in text for c, text in zip(cases, listed)) and not SNAKE.search("\n".join(listed))
    page.select_option("#case-code", "wcny-1913")
    page.fill("#case-filter", "first established revoke gives the declarer")
    page.locator("#case-list button").first.click()
    before = desk.log.count()
    page.click("#case-rule")
    page.wait_for_selector("#case-ruling .box")
    ruling = page.inner_text("#case-ruling")
    assert "East chooses one of:" in ruling and "Law 84" in ruling and desk.log.count() == before  # not logged
    # its answers opened in the interview, to be changed there
    with page.expect_response(lambda r: r.url.endswith("/interview")) as reply:
        page.click("#case-interview")
    page.wait_for_selector("#ruling-box")
    assert reply.value.json()["step"] is None and page.locator("#answers li button.change").count() >= 3
    assert "East chooses one of:" in page.inner_text("#ruling-box")
    w.close()


def test_a_round_the_desk_refuses_shows_the_one_line_error(browser, desk):
    w = Watched(browser, desk, viewport={"width": 1024, "height": 800})
    page = w.open()
    page.evaluate("interview({answers: {code: 'wcny-1931'}})")
    page.wait_for_selector("#rule-error:not([hidden])")
    error = page.inner_text("#rule-error")
    assert error.startswith("answers.code: ") and "wcny-1931" in error and "\n" not in error
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
