#!/usr/bin/env python3
"""A naive matcher to compare ladderd with: what an app developer writes in an
afternoon. Scores a corpus (tests/corpus/*.jsonl) the way `ladderd eval`
does.

    python3 -m venv target/naive && target/naive/bin/pip install rapidfuzz==3.*
    target/naive/bin/python benches/naive_matcher.py tests/corpus/dev.jsonl
    target/naive/bin/python benches/naive_matcher.py tests/corpus/clinc150

A directory is read as the CLINC150 dataset, the way `ladderd eval` reads
it (src/eval/read.rs, read_clinc150): each utterance with its domain's intents as
chat options, out-of-scope utterances with one domain's in turn.

Rules: an input ending with "?" is a question; an ordinal word or number
("first", "2nd", "#3", "last") picks that position; else the best
rapidfuzz WRatio of the input against the labels executes at 80 or more;
else it clarifies the five best.
"""
import json
import re
import sys

from rapidfuzz import fuzz, process

ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "last": -1}


def decide(turn):
    text = turn["input"].strip()
    cands = (turn.get("options") or {}).get("candidates", []) + turn.get("widgetItems", [])
    if not cands and not turn.get("commands"):
        return ("escape", "no_active_context", [])
    if text.endswith("?"):
        return ("escape", "question_intent", [])
    words = re.findall(r"\w+", text.lower())
    for w in words:
        m = re.fullmatch(r"#?(\d+)(st|nd|rd|th)?", w)
        n = ORDINALS.get(w) or (int(m.group(1)) if m else None)
        if n:
            i = n - 1 if n > 0 else len(cands) + n
            if 0 <= i < len(cands):
                return ("execute", cands[i]["id"], [])
    labels = [c["label"] for c in cands]
    best = process.extract(text, labels, scorer=fuzz.WRatio, limit=5)
    if best and best[0][1] >= 80:
        return ("execute", cands[best[0][2]]["id"], [])
    return ("clarify", "", [cands[b[2]]["id"] for b in best])


def clinc150(directory):
    """The CLINC150 splits as turns, as `ladderd eval` builds them."""
    import os

    domains = json.load(open(os.path.join(directory, "domains.json")))
    data = json.load(open(os.path.join(directory, "train_val.json")))
    domain_of = {i: d for d, intents in domains.items() for i in intents}

    def options(domain):
        return {"candidates": [{"id": i, "label": i.replace("_", " ").capitalize()} for i in domains[domain]]}

    for split in ("train", "val"):
        for text, intent in data[split]:
            yield {"input": text, "options": options(domain_of[intent]), "expect": {"execute": intent}}
    shown = sorted(domains)
    for split in ("oos_train", "oos_val"):
        for n, (text, _) in enumerate(data[split]):
            yield {"input": text, "options": options(shown[n % len(shown)]), "expect": {"clarify": []}}


def turns(path):
    import os

    if os.path.isdir(path):
        yield from clinc150(path)
        return
    for line in open(path, encoding="utf-8"):
        if line.strip():
            yield json.loads(line)


def main(files):
    tally = {"turns": 0, "right": 0, "wrong_exec": 0, "exp_exec": 0, "exec_right": 0, "exp_clar": 0, "clar_ok": 0, "exp_esc": 0, "esc_ok": 0}
    for f in files:
        for t in turns(f):
            outcome, target, _ = decide(t)
            e = t["expect"]
            tally["turns"] += 1
            if "execute" in e:
                tally["exp_exec"] += 1
                ok = outcome == "execute" and target == e["execute"]
                tally["exec_right"] += ok
                tally["wrong_exec"] += outcome == "execute" and not ok
            elif "clarify" in e:
                tally["exp_clar"] += 1
                ok = outcome == "clarify"
                tally["clar_ok"] += ok
                tally["wrong_exec"] += outcome == "execute"
            else:
                tally["exp_esc"] += 1
                ok = outcome == "escape" and target == e["escape"]
                tally["esc_ok"] += ok
                tally["wrong_exec"] += outcome == "execute"
            tally["right"] += ok
    pct = lambda a, b: 100.0 * a / b if b else 0.0
    print(f"turns {tally['turns']}: accuracy {pct(tally['right'], tally['turns']):.1f}%, wrong executes {pct(tally['wrong_exec'], tally['turns']):.1f}% of turns "
          f"({tally['wrong_exec']}), clear requests executed {pct(tally['exec_right'], tally['exp_exec']):.1f}%, "
          f"ambiguous clarified {pct(tally['clar_ok'], tally['exp_clar']):.1f}%, escapes right {pct(tally['esc_ok'], tally['exp_esc']):.1f}%")


if __name__ == "__main__":
    main(sys.argv[1:])
