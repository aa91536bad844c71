#!/usr/bin/env bash
# Shared state (docs/replicas.md): Decide with sessions.backend = redis against the
# in-memory default, the store's round trips per call and bytes per session,
# and Decide's latency while Redis is hung (SIGSTOP).
#
#   cargo build --release --bin ladderd --bin ladderd-load
#   benches/shared_state.sh            # ~5 min; results in target/shared-state/
#   SKIP_MATRIX=1 benches/shared_state.sh   # all but the throughput matrix, ~1 min
#
# Needs redis-server and redis-cli on PATH (Debian: apt-get install
# redis-server). The daemon runs on CPU 0, the load tool and Redis on CPU 1.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=${CARGO_TARGET_DIR:-target}
LOAD="$TARGET/release/ladderd-load"
DAEMON="$TARGET/release/ladderd"
OUT=target/shared-state
DURATION=${DURATION:-10s}
PORT=${PORT:-6399}
mkdir -p "$OUT"
DIR=$(mktemp -d)
taskset -c 1 redis-server --port "$PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$DIR" >"$OUT/redis.log" 2>&1 &
REDIS_PID=$!
trap 'kill -CONT $REDIS_PID 2>/dev/null; kill $REDIS_PID 2>/dev/null; rm -rf "$DIR"' EXIT
for _ in $(seq 50); do redis-cli -p "$PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
CLI="redis-cli -p $PORT"
REDIS_ENV=(--daemon-env LADDER_SESSIONS__BACKEND=redis --daemon-env "LADDER_SESSIONS__REDIS__URL=redis://127.0.0.1:$PORT/")
COMMON=(--daemon-bin "$DAEMON" --daemon-cpu 0 --client-cpu 1 --no-echo --pools 100)

if [ -z "${SKIP_MATRIX:-}" ]; then
echo "== memory: exact and unresolved inputs, concurrency 1, 16, 64"
"$LOAD" "${COMMON[@]}" --inputs exact,unresolved --concurrency 1,16,64 --duration "$DURATION" --warmup 2s --json "$OUT/memory.json"

echo "== redis: the same"
$CLI flushall >/dev/null
$CLI config resetstat >/dev/null
"$LOAD" "${COMMON[@]}" "${REDIS_ENV[@]}" --inputs exact,unresolved --concurrency 1,16,64 --duration "$DURATION" --warmup 2s --json "$OUT/redis.json"
$CLI info commandstats >"$OUT/commandstats.txt"

echo "== new ties (--fresh-options: a fresh option_set_id each call), memory then redis"
"$LOAD" "${COMMON[@]}" --fresh-options --inputs unresolved --concurrency 1,16,64 --duration "$DURATION" --warmup 2s --json "$OUT/memory-fresh.json"
$CLI flushall >/dev/null
"$LOAD" "${COMMON[@]}" "${REDIS_ENV[@]}" --fresh-options --inputs unresolved --concurrency 1,16,64 --duration "$DURATION" --warmup 2s --json "$OUT/redis-fresh.json"
fi

echo "== redis: round trips per call, by input (one 3 s run each, concurrency 16)"
# unresolved: the same tie again and again in each session (its cycle is the
# session's). tie: a new tie each call (--fresh-options). llm: the
# unresolved input through the LLM rung (--fake-llm, a fresh loop-guard key
# per call, so every call is an LLM turn).
for input in exact unresolved tie llm; do
  $CLI flushall >/dev/null
  $CLI config resetstat >/dev/null
  extra=(--inputs "$input")
  [ "$input" = tie ] && extra=(--inputs unresolved --fresh-options)
  [ "$input" = llm ] && extra=(--inputs unresolved --fake-llm)
  "$LOAD" "${COMMON[@]}" "${REDIS_ENV[@]}" "${extra[@]}" --concurrency 16 --duration 3s --warmup 0s \
    --json "$OUT/rt-$input.json" >/dev/null
  $CLI info commandstats >"$OUT/rt-$input.txt"
  python3 - "$OUT/rt-$input.json" "$OUT/rt-$input.txt" "$input" <<'EOF'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
calls = sum(r["calls"] for r in runs)  # measured calls
stats = {}
for line in open(sys.argv[2]):
    if line.startswith("cmdstat_"):
        name, rest = line.strip().split(":", 1)
        stats[name[8:]] = int(dict(kv.split("=") for kv in rest.split(","))["calls"])
scripts = stats.get("evalsha", 0) + stats.get("eval", 0)
# The tool's warm-up is 0 s, but its first call per session and its
# connection checks also count; the script calls are what a Decide costs.
print(f"{sys.argv[3]}: {calls} Decide calls, {scripts} script calls = {scripts / calls:.2f} round trips per call; all commands: {stats}")
EOF
done

echo "== redis: bytes per session (MEMORY USAGE of 20 sessions, after each input)"
# A session's state is its hash and its log of changes not yet folded in.
for input in exact unresolved tie; do
  $CLI flushall >/dev/null
  extra=(--inputs "$input")
  [ "$input" = tie ] && extra=(--inputs unresolved --fresh-options)
  "$LOAD" "${COMMON[@]}" "${REDIS_ENV[@]}" "${extra[@]}" --concurrency 16 --duration 2s --warmup 0s --sessions 200 >/dev/null
  # The tool turns through its sessions evenly, so all their logs are about
  # as long when it stops: the hash and the log are reported apart, with
  # the log's length, to give the bytes at any point of the fold cycle.
  hash=0; log=0; entries=0; n=0
  for tag in $($CLI --scan --pattern 'ladderd:{*}' | sed -E 's/^ladderd:\{([^}]*)\}.*/\1/' | sort -u | head -20); do
    bytes=$($CLI memory usage "ladderd:{$tag}" samples 0)
    hash=$((hash + ${bytes:-0}))
    bytes=$($CLI memory usage "ladderd:{$tag}:log" samples 0)
    log=$((log + ${bytes:-0}))
    entries=$((entries + $($CLI llen "ladderd:{$tag}:log")))
    n=$((n + 1))
  done
  echo "$input: $n sessions, $(((hash + log) / n)) bytes each: state hash $((hash / n)), log $((log / n)) ($((entries / n)) entries)"
  echo "$input $n $(((hash + log) / n)) $((hash / n)) $((log / n)) $((entries / n))" >>"$OUT/bytes.txt"
done

echo "== redis hung (SIGSTOP) for 5 s of a 10 s run: Decide latency (deadline 1.5 s)"
$CLI flushall >/dev/null
( sleep 4; kill -STOP $REDIS_PID; sleep 5; kill -CONT $REDIS_PID ) &
STOPPER=$!
"$LOAD" "${COMMON[@]}" "${REDIS_ENV[@]}" --inputs exact --concurrency 16 --duration 10s --warmup 2s --json "$OUT/hung.json"
wait "$STOPPER"
