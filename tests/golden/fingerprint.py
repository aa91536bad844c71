#!/usr/bin/env python3
"""Reference implementation of ladderd's evidence fingerprint, for clients in
other languages and for the golden vectors in fingerprints.json.

    python3 tests/golden/fingerprint.py --fill tests/golden/fingerprints.json
    python3 tests/golden/fingerprint.py --check tests/golden/fingerprints.json

Labels here are ASCII; ladderd's `normalize` also applies NFKC and Unicode
case folding for other scripts.
"""
import hashlib, json, re, sys, unicodedata

SCHEMA = "ladder.evidence.v1"

def normalize(s: str) -> str:
    s = unicodedata.normalize("NFKC", s).lower()
    s = re.sub(r"['`\"]", "", s)
    return " ".join(t for t in re.split(r"[^0-9a-z\u00c0-\uffff]+", s) if t)

def canonical_json(scope, option_set_id, candidates, excerpts) -> str:
    sigs = {}
    for c in candidates:
        sigs.setdefault(c["id"], {
            "id": c["id"], "label": normalize(c.get("label", "")), "kind": c.get("kind", ""),
            "path": c.get("path", ""), "sublabel": normalize(c.get("sublabel", "")),
            "badge": normalize(c.get("badge", "")),
        })
    ids = sorted(sigs)
    scope = scope or {"scope": "unspecified", "instance_id": ""}
    doc = {
        "schema": SCHEMA,
        "scope": {"scope": scope["scope"], "instance_id": scope["instance_id"]},
        "option_set_id": option_set_id,
        "candidate_ids": ids,
        "candidates": [sigs[i] for i in ids],
        "excerpt_hashes": sorted({hashlib.sha256(e.encode()).hexdigest() for e in excerpts}),
    }
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

def fingerprint(case) -> str:
    j = canonical_json(case.get("scope"), case["option_set_id"], case["candidates"], case["excerpts"])
    return hashlib.sha256(j.encode()).hexdigest()

if __name__ == "__main__":
    mode, path = sys.argv[1], sys.argv[2]
    doc = json.load(open(path))
    bad = 0
    for c in doc["cases"]:
        fp = fingerprint(c)
        if mode == "--fill":
            c["fingerprint"] = fp
        elif fp != c["fingerprint"]:
            print(f"{c['name']}: want {c['fingerprint']} got {fp}"); bad += 1
    if mode == "--fill":
        json.dump(doc, open(path, "w"), indent=2, ensure_ascii=False); open(path, "a").write("\n")
    sys.exit(1 if bad else 0)
