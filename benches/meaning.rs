//! What ranking by meaning costs a `Decide` (docs/meaning.md): the whole
//! `ladder::decide::decide` with the embedded defaults (LLM off) and the
//! shipped model, against the same with `semantic.enabled = false`.
//!
//! `cargo bench --bench meaning`
//!
//! - `memo/<ranking>/<input>/<pool>`: a screen the pool memo holds (the
//!   same options on every call, as a screen many users see): the model
//!   embeds the input only, the screen's vectors are kept with its pool;
//! - `fresh/<ranking>/<input>/<pool>`: a screen never seen before on every
//!   call (every label new): canonicalizing and embedding the whole pool
//!   is paid on each call.
//!
//! Pools of 77 (BANKING77's size), 100 and 1,000 candidates of the load
//! tool's labels; inputs `unresolved` ("links panel", two words-only hits:
//! a tie meaning fills) and `paraphrase` ("show me the one about money I
//! put aside", nothing named: meaning ranks every candidate).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use futures::executor::block_on;
use ladder::continuity::{ContinuityState, Now};
use ladder::decide::{Mode, decide};
use ladder::intern::PoolMemo;
use ladder::types::{Candidate, DecideRequest, OptionSet, Outcome, Scope, ScopeRef};
use ladderd::config::Config;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;
use support::{NoPorts, ctx};

#[path = "support/mod.rs"]
mod support;

// The daemon's allocator (src/main.rs), so the figures are the daemon's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const INPUTS: &[(&str, &str)] = &[("unresolved", "links panel"), ("paraphrase", "show me the one about money I put aside")];
const SIZES: &[usize] = &[77, 100, 1_000];

fn pool(n: usize, fresh: u64) -> Arc<Vec<Candidate>> {
    let mut p: Vec<Candidate> = ladderd_load::samples::pool(n).into_iter().map(Candidate::from).collect();
    if fresh > 0 {
        for c in &mut p {
            c.label = format!("{} {fresh}", c.label);
        }
    }
    Arc::new(p)
}

fn request(input: &str, candidates: Arc<Vec<Candidate>>) -> DecideRequest {
    DecideRequest {
        session_id: "bench".into(),
        turn_id: "t1".into(),
        input: input.into(),
        active_scope: Some(ScopeRef { scope: Scope::Chat, instance_id: "chat-1".into() }),
        options: Some(OptionSet { option_set_id: "set-1".into(), scope: Scope::Chat, candidates, ..Default::default() }),
        ..Default::default()
    }
}

fn bench(c: &mut Criterion) {
    let meaning = Config::default().policy().expect("the defaults");
    let words = {
        let mut config = Config::default();
        config.semantic.enabled = false;
        config.policy().expect("words only")
    };
    let dim = meaning.meaning.as_ref().expect("the shipped model").model.dim();
    let state = ContinuityState::default();
    for (group, fresh) in [("memo", false), ("fresh", true)] {
        let mut g = c.benchmark_group(group);
        g.sample_size(if fresh { 30 } else { 100 });
        for (ranking, policy) in [("words", &words), ("meaning", &meaning)] {
            let memo = PoolMemo::new(64 << 20).counting_vectors(if policy.meaning.is_some() { dim } else { 0 });
            let ctx = ctx(policy, &state, Now { mono_ms: 1_000, wall_ms: 1_700_000_000_000 }, Some(&memo));
            for (name, input) in INPUTS {
                for &n in SIZES {
                    let kept = request(input, pool(n, 0));
                    let d = block_on(decide(&ctx, &kept, Mode::Turn, &NoPorts)).expect("no deadline").decision;
                    assert_eq!(d.outcome, Outcome::Clarify, "{name}/{n}");
                    g.throughput(Throughput::Elements(n as u64));
                    let mut k = 0;
                    g.bench_function(BenchmarkId::new(format!("{ranking}/{name}"), n), |b| {
                        b.iter_batched(
                            || {
                                k += 1;
                                if fresh { request(input, pool(n, k)) } else { kept.clone() }
                            },
                            |req| black_box(block_on(decide(&ctx, &req, Mode::Turn, &NoPorts)).expect("no deadline")),
                            criterion::BatchSize::SmallInput,
                        )
                    });
                }
            }
        }
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
