"""Broken law files and incidents, each named after the error it must raise."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bridgelaw import InputError, LawFileError, load_code, rule
from bridgelaw.loader import clear_cache

from conftest import ROOT, expectations

BROKEN = Path(__file__).parent / "broken"
LAW_FILES = sorted((BROKEN / "law-files").glob("*.yaml"))
CODES = sorted(p for p in (BROKEN / "codes").iterdir() if p.is_dir())
INCIDENTS = sorted((BROKEN / "incidents").glob("*.yaml"))


def _laws_dir(tmp_path: Path) -> Path:
    laws = tmp_path / "laws"
    laws.mkdir()
    for name in ("kinds.yaml", "topics.yaml"):
        shutil.copy(ROOT / "laws" / name, laws / name)
    shutil.copytree(ROOT / "laws" / "kinds.d", laws / "kinds.d")
    return laws


@pytest.mark.parametrize("path", LAW_FILES, ids=[p.stem for p in LAW_FILES])
def test_broken_law_file(path, tmp_path, monkeypatch, fresh_codes):
    want = expectations(path)
    laws = _laws_dir(tmp_path)
    code = laws / "broken"
    code.mkdir()
    (code / "code.yaml").write_text("id: broken\ntitle: Broken\nauthority: Test\nyear: 1913\ngame: auction\n"
                                    "source: {file: none}\n")
    # the 1913 parameters, each cited to the broken code's one law (a parameter's law must be a law of its code)
    params = (ROOT / "laws" / "wcny-1913" / "parameters.yaml").read_text(encoding="utf-8")
    (code / "parameters.yaml").write_text(re.sub(r'law: "[^"]*"', 'law: "1"', params), encoding="utf-8")
    shutil.copy(path, code / "01-broken.yaml")
    monkeypatch.setenv("BRIDGELAW_DATA", str(tmp_path))
    clear_cache()
    with pytest.raises(LawFileError) as info:
        load_code("broken")
    e = info.value
    assert want["error"] in str(e)
    assert e.path == "laws/broken/01-broken.yaml"
    assert e.line is not None and e.column is not None
    if "at" in want:
        assert f"{e.line}:{e.column}" == want["at"]
    if "did-you-mean" in want:
        assert f"did you mean '{want['did-you-mean']}'" in str(e)
    # the caret sits under the reported column of the quoted source line
    if e.source_line is not None:
        lines = str(e).splitlines()
        assert lines[2].index("^") == 4 + e.column - 1


@pytest.mark.parametrize("folder", CODES, ids=[p.name for p in CODES])
def test_broken_code(folder, tmp_path, monkeypatch, fresh_codes):
    want = expectations(folder / "code.yaml")
    laws = _laws_dir(tmp_path)
    shutil.copytree(ROOT / "laws" / "wcny-1913", laws / "wcny-1913")
    shutil.copytree(folder, laws / folder.name)
    monkeypatch.setenv("BRIDGELAW_DATA", str(tmp_path))
    clear_cache()
    with pytest.raises(LawFileError) as info:
        load_code(folder.name)
    assert want["error"] in str(info.value)
    assert info.value.line is not None


@pytest.mark.parametrize("path", INCIDENTS, ids=[p.stem for p in INCIDENTS])
def test_broken_incident_cli(path):
    want = expectations(path)
    proc = subprocess.run([sys.executable, "-m", "bridgelaw.cli", "rule", str(path)], capture_output=True, text=True)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stdout == ""
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert want["error"] in err[0]


API_INCIDENTS = [p for p in INCIDENTS if p.stem != "not-yaml" and "reader" not in expectations(p)]


@pytest.mark.parametrize("path", API_INCIDENTS, ids=[p.stem for p in API_INCIDENTS])
def test_broken_incident_api(path):
    import yaml

    want = expectations(path)
    with pytest.raises(InputError) as info:
        rule(yaml.safe_load(path.read_text()))
    assert want["error"] in str(info.value)


RESULTS = sorted((BROKEN / "results").glob("*.yaml"))


@pytest.mark.parametrize("path", RESULTS, ids=[p.stem for p in RESULTS])
def test_broken_result_cli(path):
    want = expectations(path)
    proc = subprocess.run([sys.executable, "-m", "bridgelaw.cli", "score", str(path)], capture_output=True, text=True)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert want["error"] in err[0]


KINDS = sorted((BROKEN / "kinds").glob("*.yaml"))


@pytest.mark.parametrize("path", KINDS, ids=[p.stem for p in KINDS])
def test_broken_kinds_file(path, tmp_path, monkeypatch, fresh_codes):
    """A file of laws/kinds.d that is wrong: refused at its path:line:col when the catalogue loads."""
    from bridgelaw.loader import load_kinds

    want = expectations(path)
    laws = _laws_dir(tmp_path)
    shutil.copy(path, laws / "kinds.d" / "zz-broken.yaml")
    monkeypatch.setenv("BRIDGELAW_DATA", str(tmp_path))
    clear_cache()
    with pytest.raises(LawFileError) as info:
        load_kinds()
    e = info.value
    assert want["error"] in str(e)
    assert e.path == "laws/kinds.d/zz-broken.yaml" and e.line is not None and e.column is not None
    if "at" in want:
        assert f"{e.line}:{e.column}" == want["at"]


@pytest.mark.parametrize("line, error", [
    ('  slam: ""', "topic slam: expected a description"),
    ("  Slam: Grand slam", "expected a topic id of lower-case words joined by '-', got 'Slam'"),
    ("  slam: [a, b]", "topic slam: expected a description"),
])
def test_a_broken_topic_is_refused_at_its_place(line, error, tmp_path):
    """laws/topics.yaml: a topic's id is a word laws can name, its description one `bridgelaw topics` can print."""
    from bridgelaw.catalogue import load_topics
    from bridgelaw.errors import LawFileError

    text = (ROOT / "laws" / "topics.yaml").read_text(encoding="utf-8")
    assert "\n  slam: " in text
    (tmp_path / "topics.yaml").write_text(
        "\n".join(line if ln.startswith("  slam: ") else ln for ln in text.split("\n")), encoding="utf-8")
    with pytest.raises(LawFileError) as info:
        load_topics(str(tmp_path))
    assert error in str(info.value) and "topics.yaml:" in str(info.value)
