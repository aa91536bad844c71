#!/usr/bin/env python3
"""Validates a fresh blind set's corpus + scoring.json against the format rules of its brief.

The helpers who wrote fresh56..fresh59 were each given this script as
`validate.py` beside their `build.py` (which writes `corpus.jsonl`); the
project keeps it once and the corpus as `dialogues.jsonl`:

    python3 tests/corpus/fresh_validate.py tests/corpus/fresh59
"""
import json, os, sys, collections

HERE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
CORPUS = next(n for n in ("corpus.jsonl", "dialogues.jsonl") if os.path.exists(os.path.join(HERE, n)) or n == "dialogues.jsonl")
CATS = {"signed_numbers", "changed_value_not_yes", "ordinal_word_in_labels", "quantity_noun", "everyday_verb",
        "value_other_way", "object_alone", "distinguishing_word_plus_kind", "correction_after_execute",
        "self_correcting_reply", "closing_after_execute", "ack_then_new_request", "choice_with_question",
        "shorthand", "two_requests_in_order"}
ASKED = {"ASKED_CONFIRMATION", "ASKED_CHOICE"}
ESC = {"question_intent", "cancel", "declined", "command"}
errs = []


def err(where, msg):
    errs.append(f"{where}: {msg}")


lines = open(os.path.join(HERE, CORPUS), encoding="utf-8").read().splitlines()
ids = set()
turn_refs = set()
by_cat = collections.Counter()
by_exp = collections.Counter()
by_lang = collections.Counter()
nturns = 0
for ln, line in enumerate(lines, 1):
    d = json.loads(line)
    if json.loads(json.dumps(d, ensure_ascii=False)) != d:
        err(ln, "round trip")
    if set(d) != {"id", "category", "domain", "language", "dialogue", "note"}:
        err(ln, f"keys {sorted(d)}")
    did = d["id"]
    if did in ids:
        err(did, "duplicate id")
    ids.add(did)
    if d["category"] not in CATS:
        err(did, "bad category")
    by_cat[d["category"]] += 1
    by_lang[d["language"]] += 1
    if not (2 <= len(d["dialogue"]) <= 3):
        err(did, "turn count")
    if not d["note"].strip():
        err(did, "empty note")
    osids = set()
    prev = None
    for n, t in enumerate(d["dialogue"], 1):
        w = f"{did}#{n}"
        turn_refs.add(w)
        nturns += 1
        allowed = {"input", "activeScope", "options", "expect", "record_outcome", "commands"}
        if not set(t) <= allowed:
            err(w, f"extra keys {set(t) - allowed}")
        if not isinstance(t["input"], str) or not t["input"].strip():
            err(w, "input")
        if t["activeScope"] != {"scope": "SCOPE_CHAT", "instanceId": f"chat-{d['domain']}"}:
            err(w, "activeScope")
        o = t["options"]
        if o.get("scope") != "SCOPE_CHAT":
            err(w, "options scope")
        if o["optionSetId"] in osids or not o["optionSetId"].startswith(did + "-os"):
            err(w, "optionSetId")
        osids.add(o["optionSetId"])
        if not set(o) <= {"optionSetId", "scope", "candidates", "asked"}:
            err(w, "options keys")
        cids = [c["id"] for c in o["candidates"]]
        if len(cids) != len(set(cids)) or not cids:
            err(w, "candidate ids")
        for c in o["candidates"]:
            if not set(c) <= {"id", "label", "sublabel", "kind", "risk"} or not c.get("label"):
                err(w, f"candidate {c}")
            if "risk" in c and c["risk"] != "RISK_HIGH":
                err(w, "risk value")
        if "asked" in o:
            if o["asked"] not in ASKED:
                err(w, "asked value")
            if o["asked"] == "ASKED_CONFIRMATION" and len(cids) != 1:
                err(w, "confirmation must hold exactly one candidate")
            if o["asked"] == "ASKED_CHOICE" and len(cids) < 2:
                err(w, "choice with <2 candidates")
        for cm in t.get("commands", []):
            if set(cm) != {"id", "label", "phrases"}:
                err(w, "command keys")
        e = t["expect"]
        if "execute" in e:
            if not set(e) <= {"execute", "follow_up"}:
                err(w, "expect keys")
            if e["execute"] not in cids:
                err(w, "execute id not on screen")
            if "follow_up" in e and e["follow_up"] not in {"question", "request"}:
                err(w, "follow_up")
            ro = t.get("record_outcome")
            if not ro or ro.get("choiceId") != e["execute"] or ro.get("kind") not in {"OUTCOME_KIND_EXECUTED", "OUTCOME_KIND_REJECTED"}:
                err(w, "record_outcome")
            if ro and ro["kind"] == "OUTCOME_KIND_REJECTED" and n == len(d["dialogue"]):
                err(w, "REJECTED on last turn")
            by_exp["execute+" + e["follow_up"] if "follow_up" in e else "execute"] += 1
        elif "clarify" in e:
            if set(e) != {"clarify"} or not e["clarify"] or any(i not in cids for i in e["clarify"]):
                err(w, "clarify ids")
            if len(set(e["clarify"])) != len(e["clarify"]):
                err(w, "clarify dup")
            by_exp["clarify"] += 1
        elif "escape" in e:
            if set(e) != {"escape"} or e["escape"] not in ESC:
                err(w, "escape")
            if e["escape"] == "command" and not t.get("commands"):
                err(w, "command escape without commands")
            by_exp["escape:" + e["escape"]] += 1
        else:
            err(w, "expect kind")
        if "execute" not in e and "record_outcome" in t:
            err(w, "record_outcome on non-execute turn")
        # screen after a clarify
        if prev is not None and "clarify" in prev["expect"] and "kept the old screen" not in d["note"]:
            if cids != prev["expect"]["clarify"]:
                err(w, f"screen after clarify {cids} != {prev['expect']['clarify']}")
            want = "ASKED_CONFIRMATION" if len(cids) == 1 else "ASKED_CHOICE"
            if o.get("asked") != want:
                err(w, f"screen after clarify should be {want}")
        prev = t

sc = json.load(open(os.path.join(HERE, "scoring.json"), encoding="utf-8"))
if set(sc) != {"debatable", "knowledge"}:
    err("scoring", "keys")
for r in sc["debatable"] + sc["knowledge"]:
    if r not in turn_refs:
        err("scoring", f"unknown turn {r}")
if len(sc["debatable"]) + len(sc["knowledge"]) >= 0.15 * nturns:
    err("scoring", "too many debatable")

missing = CATS - set(by_cat)
if missing:
    err("corpus", f"classes missing {missing}")

print(f"dialogues {len(lines)}, turns {nturns}")
print("by category:", dict(sorted(by_cat.items())))
print("by expectation:", dict(sorted(by_exp.items())))
print("by language:", dict(by_lang))
print("debatable:", len(sc["debatable"]), f"({100*len(sc['debatable'])/nturns:.1f}% of turns)")
if errs:
    print("ERRORS:")
    print("\n".join(errs))
    sys.exit(1)
print("OK")
