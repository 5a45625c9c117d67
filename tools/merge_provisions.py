"""Merge a mapping {law number: [provision, ...]} into a code's law files.

Used while encoding: provisions are drafted per code in one file, reviewed,
then written into the law they belong to (replacing `provisions: []`).
Usage: python tools/merge_provisions.py CODE DRAFT.yaml
"""
import re
import sys
from pathlib import Path

import yaml

code, draft = sys.argv[1], sys.argv[2]
folder = Path(__file__).resolve().parent.parent / "laws" / code
provs = yaml.safe_load(open(draft, encoding="utf-8"))
done = set()
for path in sorted(folder.glob("[0-9][0-9]-*.yaml")):
    lines = path.read_text(encoding="utf-8").split("\n")
    out = []
    current = None
    indent = ""
    for line in lines:
        m = re.match(r"^(  )- number: \"?([^\"\s]+)\"?\s*$", line)
        if m:
            current = m.group(2)
            indent = m.group(1) + "  "
        pm = re.match(r"^(\s*)provisions:\s*\[\]\s*$", line)
        if pm and current in provs:
            block = yaml.safe_dump(provs[current], sort_keys=False, allow_unicode=True, width=110,
                                   default_flow_style=None)
            out.append(f"{pm.group(1)}provisions:")
            for b in block.rstrip("\n").split("\n"):
                out.append(f"{pm.group(1)}  {b}")
            done.add(current)
            continue
        out.append(line)
    path.write_text("\n".join(out), encoding="utf-8")
missing = set(provs) - done
if missing:
    sys.exit(f"laws not found (or already with provisions): {sorted(missing)}")
print(f"merged provisions into {len(done)} laws of {code}")
