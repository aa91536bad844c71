#!/usr/bin/env bash
# CPU per Decide on the Redis path (docs/replicas.md, "Cost, in store round
# trips": a read, then a compare-and-set) against the in-memory store. The
# daemon's and Redis's CPU time (/proc/PID/stat) over a 10 s closed-loop
# run at 64 in flight, divided by the calls answered. OTHER=<another
# ladderd binary> adds it as a third variant on Redis (how the turn plan
# that preceded the plain protocol was measured, BENCHMARKS.md).
#
#   cargo build --release --bin ladderd --bin ladderd-load
#   benches/turn_cpu.sh            # ROUNDS=3 (~3 min); results in target/turn-cpu/
#
# Needs redis-server and redis-cli on PATH, or REDIS_BIN=<dir holding both>
# (with LD_LIBRARY_PATH if they need it). The daemon runs on CPU 0, the
# load tool and Redis on CPU 1; the variants run interleaved, round by
# round, so that a neighbour's load falls on all of them.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=${CARGO_TARGET_DIR:-target}
LOAD="$TARGET/release/ladderd-load"
REDIS_DAEMON="$TARGET/release/ladderd"
OTHER=${OTHER:-}
REDIS_BIN=${REDIS_BIN:-}
PORT=${PORT:-6398}
SERVER=${REDIS_BIN:+$REDIS_BIN/}redis-server
CLI="${REDIS_BIN:+$REDIS_BIN/}redis-cli -p $PORT"
LISTEN=${LISTEN:-127.0.0.1:50197}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
OUT=target/turn-cpu
mkdir -p "$OUT"
: >"$OUT/results.txt"
DIR=$(mktemp -d)
taskset -c 1 "$SERVER" --port "$PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$DIR" >"$OUT/redis.log" 2>&1 &
REDIS_PID=$!
DAEMON_PID=
trap 'kill $DAEMON_PID 2>/dev/null; kill $REDIS_PID 2>/dev/null; rm -rf "$DIR"' EXIT
for _ in $(seq 50); do $CLI ping >/dev/null 2>&1 && break; sleep 0.1; done

# utime + stime of a process, in clock ticks.
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

for round in $(seq "$ROUNDS"); do
  for input in exact unresolved; do
    for variant in memory redis ${OTHER:+other}; do
      env=(LADDER_LISTEN="$LISTEN")
      bin=$REDIS_DAEMON
      if [ "$variant" != memory ]; then
        env+=(LADDER_SESSIONS__BACKEND=redis "LADDER_SESSIONS__REDIS__URL=redis://127.0.0.1:$PORT/")
        $CLI flushall >/dev/null
      fi
      [ "$variant" = other ] && bin=$OTHER
      env "${env[@]}" taskset -c 0 "$bin" serve >"$OUT/daemon.log" 2>&1 &
      DAEMON_PID=$!
      for _ in $(seq 100); do (exec 3<>"/dev/tcp/${LISTEN%:*}/${LISTEN#*:}") 2>/dev/null && break; sleep 0.1; done
      d0=$(ticks "$DAEMON_PID"); r0=$(ticks "$REDIS_PID")
      "$LOAD" --target "$LISTEN" --client-cpu 1 --no-echo --pools 100 --inputs "$input" --concurrency 64 \
        --duration "$DURATION" --warmup 0s --json "$OUT/$variant-$input-$round.json" >/dev/null
      d1=$(ticks "$DAEMON_PID"); r1=$(ticks "$REDIS_PID")
      kill "$DAEMON_PID"; wait "$DAEMON_PID" 2>/dev/null || true
      python3 - "$OUT/$variant-$input-$round.json" "$variant" "$input" "$round" $((d1 - d0)) $((r1 - r0)) "$(getconf CLK_TCK)" <<'EOF' | tee -a "$OUT/results.txt"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
variant, input, rnd = sys.argv[2:5]
daemon, redis, hz = (int(x) for x in sys.argv[5:8])
calls = run["ok"]
us = lambda t: t * 1e6 / hz / max(calls, 1)
print(f"{variant} {input} round {rnd}: {run['throughput']:.0f} calls/s, p99 {run['latency_us']['p99'] / 1000:.2f} ms, "
      f"daemon {us(daemon):.1f} us CPU per call, redis {us(redis):.1f} us, errors {run['errors']}")
EOF
    done
  done
done
