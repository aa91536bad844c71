//! What intake's wire scan adds to a request.
//!
//! `cargo bench --bench intake`
//!
//! Before prost decodes an `Arbiter` request, `ladderd::grpc::wire::check`
//! walks its protobuf bytes to count its lists and bound its decoded size.
//! This bench puts that scan next to the decode it guards, for `Decide`
//! requests over the load tool's pools (100, 1,000 and 5,000 candidates),
//! plain and with 8 aliases per candidate:
//!
//! - `intake/scan/<shape>/<pool>`: `wire::check` on the encoded message;
//! - `intake/decode/<shape>/<pool>`: `pb::DecideRequest::decode` of the
//!   same bytes (what every request pays, scanned or not).
//!
//! Criterion reports bytes per second; the scan's share of a request is
//! its time over the decode's (and the whole call's, in BENCHMARKS.md).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ladderd::config::Limits;
use ladderd::grpc::wire;
use ladderd::pb;
use ladderd_load::samples;
use prost::Message;
use std::hint::black_box;
use std::time::Duration;

const PATH: &str = "/ladder.v1.Arbiter/Decide";

fn request(n: usize, aliases: usize) -> Vec<u8> {
    let mut req = samples::panels_request("s-1", "open the revenue panel");
    let mut pool = samples::pool(n);
    for (i, c) in pool.iter_mut().enumerate() {
        c.aliases = (0..aliases).map(|a| format!("alias {i} {a}")).collect();
    }
    req.options.as_mut().expect("an option set").candidates = pool;
    req.encode_to_vec()
}

fn bench(c: &mut Criterion) {
    let limits = Limits::default();
    let mut g = c.benchmark_group("intake");
    for (shape, aliases) in [("plain", 0), ("aliases8", 8)] {
        for n in [100, 1_000, 5_000] {
            let bytes = request(n, aliases);
            assert!(wire::check(PATH, &bytes, &limits).is_ok(), "{shape}/{n} is within the default limits");
            g.throughput(Throughput::Bytes(bytes.len() as u64));
            g.bench_with_input(BenchmarkId::new(format!("scan/{shape}"), n), &bytes, |b, bytes| {
                b.iter(|| black_box(wire::check(PATH, black_box(bytes), &limits)))
            });
            g.bench_with_input(BenchmarkId::new(format!("decode/{shape}"), n), &bytes, |b, bytes| {
                b.iter(|| black_box(pb::DecideRequest::decode(black_box(&bytes[..])).expect("decodes")))
            });
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    targets = bench
}
criterion_main!(benches);
