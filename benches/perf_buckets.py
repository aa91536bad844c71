#!/usr/bin/env python3
"""Shares of a daemon profile by what the CPU was doing.

    perf script -i target/perf.data -F comm,ip,sym > target/perf.txt
    python3 benches/perf_buckets.py target/perf.txt

Each sample goes to the first bucket below (in this order) whose pattern
appears in any frame of its stack, so the shares add up to 100%. The
ladder's own costs come first: a sample inside `matching::find` called from
tonic counts as matching, not as framework.
"""
import collections
import sys

BUCKETS = [
    ("convert (validation, into domain types)", ["ladderd::convert::"]),
    ("matching::find (and the pool's index)", ["ladder::matching::find", "ladder::intern::pool_index"]),
    ("the rest of decide", ["ladder::decide::"]),
    ("session store", ["ladderd::store::"]),
    ("observe, metrics, guardrails, records", ["Daemon::observe", "feed_guardrails", "guardrails::", "opentelemetry", "Daemon>::record"]),
    ("protobuf decoding", ["ProstDecoder", "DecodeBuf", "decode_varint"]),
    ("intake: body read whole, wire scan", ["ladderd::grpc::wire::", "intake::read_message", "intake::header", "MemoryBudget"]),
    ("protobuf encoding", ["ProstEncoder", "encode_raw", "EncodeBuf"]),
    ("dropping the request and the answer", ["drop_in_place<ladderd::"]),
    ("tracing spans", ["tracing_subscriber", "tracing_core::", "sharded_slab", "Span::new", "Span::record", "Span>::drop", "span_data", "Span::enter", "Span::exit", "Entered"]),
    ("kernel send", ["tcp_sendmsg", "writev", "sock_write_iter", "sendmsg"]),
    ("kernel receive", ["tcp_recvmsg", "sock_read_iter", "__x64_sys_read", "recvmsg", "readv"]),
    ("epoll and wake-ups", ["epoll", "futex", "sock_def_readable", "try_to_wake_up", "unpark"]),
    ("h2, hyper, tonic, tower", ["h2::", "hyper::", "tonic::", "tower::", "axum::", "http::"]),
    ("tokio runtime", ["tokio::"]),
]


def main(path):
    counts = collections.Counter()
    total = 0
    for sample in open(path).read().split("\n\n"):
        frames = [line.strip().split(" ", 1)[-1] for line in sample.strip().split("\n")[1:]]
        if not frames:
            continue
        total += 1
        stack = "\n".join(frames)
        bucket = next((name for name, pats in BUCKETS if any(p in stack for p in pats)), "other")
        counts[bucket] += 1
    for name, n in counts.most_common():
        print(f"{100 * n / total:5.1f}%  {name}")
    print(f"{total} samples")


if __name__ == "__main__":
    main(sys.argv[1])
