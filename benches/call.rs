//! The daemon's own part of a `Decide` call, without the transport:
//! what ladderd does beyond the echo baseline, in one process.
//!
//! `cargo bench --bench call`
//!
//! Each iteration does what the daemon does with a request the load tool
//! sends (`ladderd-load`'s pool of 100 or 1,000 candidates, one of 1,000
//! session ids in turn, in-memory sessions, default configuration): what
//! intake does with a Decide's options (`intake::decide_options`: their
//! bytes looked up in the memo; a list the memo holds is not decoded
//! again), the decode of the protobuf bytes intake hands on, the `Arbiter`
//! handler (validation, the ladder, the session update, the observation)
//! with what intake found, and the answer's encoding.
//!
//! - `call/decode/<pool>`: the decode alone (what the echo does with the
//!   same bytes);
//! - `call/<input>/<pool>`: intake's look-up, decode, handler, encode, for
//!   `exact` ("Links Panel D", an execute) and `unresolved` ("links
//!   panel", a clarifier opening an enrichment cycle).
//!
//! Since the options the load tool sends come again on every call, their
//! candidates are decoded once (the first call) and the daemon's call can
//! cost less than the echo's decode. The difference between the two is
//! the daemon's work per call on a hot cache; under load (BENCHMARKS.md,
//! "The daemon's own overhead") the same work costs more, its data
//! competing with the transport's for the cache.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use ladderd::config::Config;
use ladderd::daemon::Daemon;
use ladderd::grpc::Arbiter;
use ladderd::grpc::intake;
use ladderd::pb;
use ladderd::pb::arbiter_server::Arbiter as _;
use prost::Message;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

// The daemon's allocator (src/main.rs), so the figures are the daemon's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const SESSIONS: usize = 1_000;
const DECIDE: &str = "/ladder.v1.Arbiter/Decide";

/// The load tool's request bodies (`samples::session_bodies`), as intake
/// holds them.
fn bodies(pool: usize, input: &str) -> Vec<bytes::Bytes> {
    ladderd_load::samples::session_bodies(pool, input, SESSIONS).into_iter().map(bytes::Bytes::from).collect()
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let daemon = Arc::new(Daemon::new(Config::default()).expect("the default configuration builds"));
    let arbiter = Arbiter::new(daemon.clone());
    let mut g = c.benchmark_group("call");
    for pool in [100, 1_000] {
        let exact = bodies(pool, "Links Panel D");
        let mut n = 0;
        g.bench_function(BenchmarkId::new("decode", pool), |b| {
            b.iter(|| {
                n = (n + 1) % SESSIONS;
                black_box(pb::DecideRequest::decode(&exact[n][..]).expect("decodes"))
            })
        });
        for (input, text, outcome) in
            [("exact", "Links Panel D", pb::Outcome::Execute), ("unresolved", "links panel", pb::Outcome::Clarify)]
        {
            let bodies = bodies(pool, text);
            let call = |n: usize| {
                // Intake: the options' bytes looked up in the memo, and the
                // message handed on without candidates the memo holds.
                let (wire, looked, stripped) = intake::decide_options(&daemon.current(), DECIDE, &bodies[n]).expect("options sent once");
                let req = pb::DecideRequest::decode(stripped.as_deref().unwrap_or(&bodies[n][..])).expect("decodes");
                let mut req = tonic::Request::new(req);
                req.extensions_mut().insert(wire);
                req.extensions_mut().insert(looked);
                let answer = rt.block_on(arbiter.decide(req)).expect("decided").into_inner();
                (answer.outcome, answer.encode_to_vec())
            };
            assert_eq!(call(0).0, outcome as i32, "{input}/{pool}: the answer the load tool gets");
            let mut n = 0;
            g.bench_function(BenchmarkId::new(input, pool), |b| {
                b.iter(|| {
                    n = (n + 1) % SESSIONS;
                    black_box(call(n))
                })
            });
        }
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
