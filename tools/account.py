"""Work on a code's sentence account (laws/<code>/sentences.yaml) while reading the laws.

    python tools/account.py propose CODE        # add every law not yet accounted, spans from the splitter,
                                                # a first guess at each tag (to be read and corrected)
    python tools/account.py show CODE [LAW ...] # each sentence with its tag, and the law's provisions
    python tools/account.py set CODE EDITS      # apply edits, one a line:
        LAW.N TAG [provisions=a,b] [parameters=x.y] [why=free text to the end of the line]
        (N counts the law's sentences from 1; '#' starts a comment line)

The guesses are only a start: every tag is set by reading the sentence.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))

from bridgelaw.loader import load_code  # noqa: E402
from bridgelaw.sentences import ACCOUNT_FILE, load_vocabulary, split  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _path(code_id: str) -> Path:
    return ROOT / "laws" / code_id / ACCOUNT_FILE


def _read(code_id: str) -> dict:
    p = _path(code_id)
    if p.is_file():
        return yaml.safe_load(p.read_text(encoding="utf-8"))
    return {"code": code_id, "laws": []}


def _scalar(v: str) -> str:
    return yaml.safe_dump(v, allow_unicode=True, width=10 ** 6, default_style=None).rstrip("\n").removesuffix("\n...")


def write(code_id: str, data: dict) -> None:
    code = load_code(code_id)
    order = {law.number: i for i, law in enumerate(code.laws)}
    laws = sorted(data["laws"], key=lambda la: order.get(la["law"], 10 ** 6))
    out = [f"# The sentence-level account of {code_id}: every sentence (clause, row) of every law of its own,",
           "# tagged by reading it (tags: laws/accounting.yaml; checked by engine/bridgelaw/sentences.py).",
           f"code: {code_id}", "laws:"]
    for la in laws:
        out.append(f"  - law: {_scalar(str(la['law']))}" if not str(la['law']).isdigit() else f"  - law: \"{la['law']}\"")
        out.append("    sentences:")
        for s in la["sentences"]:
            out.append(f"      - text: {_scalar(s['text'])}")
            out.append(f"        tag: {s['tag']}")
            for k in ("provisions", "parameters"):
                if s.get(k):
                    out.append(f"        {k}: [{', '.join(s[k])}]")
            if s.get("why"):
                out.append(f"        why: {_scalar(s['why'])}")
    _path(code_id).write_text("\n".join(out) + "\n", encoding="utf-8")


def _words(t: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", t.lower()) if len(w) > 3}


def _guess(law, span, vocab) -> dict:
    s = {"text": span.text}
    remedy = vocab.remedy_bearing(span.text)
    if not law.binding:
        s["tag"] = "not-binding"
        return s
    provs = list(law.provisions)
    if provs and (remedy or span.clause):
        by_clause = [p for p in provs if p.clause and p.clause == span.clause]
        if by_clause:
            s["tag"], s["provisions"] = "encoded", [p.id for p in by_clause]
            return s
        ws = _words(span.text)
        scored = []
        for p in provs:
            text = " ".join([p.id.replace("-", " ")] + [o.label for o in p.options] + list(p.notes)
                            + [str(v) for e in p.effects for _, v, _ in e.fields])
            scored.append((len(ws & _words(text)), p.id))
        best = max(n for n, _ in scored)
        s["tag"] = "encoded"
        s["provisions"] = [pid for n, pid in scored if n == best and n > 0] or [p.id for p in provs]
        return s
    if remedy:
        s["tag"] = "TODO"
        return s
    s["tag"] = "definition" if re.search(r"\b(is|are|consists?|means)\b", span.text) else "procedure"
    return s


def propose(code_id: str) -> None:
    code = load_code(code_id)
    vocab = load_vocabulary()
    data = _read(code_id)
    have = {la["law"] for la in data["laws"]}
    added = 0
    for law in code.laws:
        if law.code != code_id or law.missing or not law.text or law.number in have:
            continue
        data["laws"].append({"law": law.number, "sentences": [_guess(law, sp, vocab) for sp in split(law.text)]})
        added += 1
    write(code_id, data)
    print(f"{code_id}: {added} law(s) added to {_path(code_id).relative_to(ROOT)}")


def _effects(p) -> str:
    parts = [e.kind.value + ("(" + ",".join(f"{n}={v}" for n, v, _ in e.fields) + ")" if e.fields else "")
             for e in p.effects]
    for o in p.options:
        parts.append(f"[{o.id}: " + " ".join(e.kind.value for e in o.effects) + "]")
    return " ".join(parts)


def show(code_id: str, numbers: list[str]) -> None:
    code = load_code(code_id)
    vocab = load_vocabulary()
    data = _read(code_id)
    for la in data["laws"]:
        if numbers and la["law"] not in numbers:
            continue
        law = code.law(la["law"])
        print(f"=== {code_id} law {la['law']}" + ("" if law.binding else " (not binding)") + f"  [{', '.join(law.topics)}]")
        for i, s in enumerate(la["sentences"], 1):
            flag = "R" if vocab.remedy_bearing(s["text"]) else " "
            extra = " ".join(f"{k}={','.join(s[k])}" for k in ("provisions", "parameters") if s.get(k))
            print(f"  {la['law']}.{i} {flag} {s['tag']:<11} {extra}  | {s['text']}" + (f"  (why: {s['why']})" if s.get("why") else ""))
        for p in law.provisions:
            print(f"      ~ {p.id} [{','.join(p.kinds)}]{' clause ' + p.clause if p.clause else ''} when {p.when_text}"
                  f" -> {_effects(p)}")


def apply(code_id: str, edits: str) -> None:
    data = _read(code_id)
    index = {la["law"]: la for la in data["laws"]}
    n = 0
    for raw in Path(edits).read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = re.match(r"^(\S+)\.(\d+)\s+(\S+)(.*)$", line)
        if not m:
            sys.exit(f"bad edit line: {raw}")
        law, i, tag, rest = m.group(1), int(m.group(2)), m.group(3), m.group(4)
        if law not in index or not 1 <= i <= len(index[law]["sentences"]):
            sys.exit(f"no sentence {law}.{i}: {raw}")
        s = index[law]["sentences"][i - 1]
        s["tag"] = tag
        for k in ("provisions", "parameters", "why"):
            s.pop(k, None)
        why = re.search(r"\bwhy=(.*)$", rest)
        if why:
            s["why"] = why.group(1).strip()
            rest = rest[:why.start()]
        for k in ("provisions", "parameters"):
            mm = re.search(rf"\b{k}=(\S+)", rest)
            if mm:
                s[k] = mm.group(1).split(",")
        n += 1
    write(code_id, data)
    print(f"{code_id}: {n} edit(s) applied")


if __name__ == "__main__":
    cmd, code_id, *rest = sys.argv[1:]
    {"propose": lambda: propose(code_id), "show": lambda: show(code_id, rest),
     "set": lambda: apply(code_id, rest[0])}[cmd]()
