//! What ranking by meaning costs a `Decide` (docs/meaning.md): the whole
//! `ladder::decide::decide` with the embedded defaults (LLM off) and the
//! shipped model, against the same with `semantic.enabled = false`.
//!
//! `cargo bench --bench meaning`
//!
//! - `memo/<ranking>/<input>/<pool>`: a screen the pool memo holds (the
//!   same options on every call, as a screen many users see): the model
//!   embeds the input only, the screen's vectors are kept with its pool;
//! - `seen/<ranking>/<input>/<pool>`: a new option set on every call over
//!   labels seen before (new candidate ids, the same labels; the list new
//!   to the memo, as `ladderd-load --fresh-options` sends);
//! - `fresh/<ranking>/<input>/<pool>`: a screen never seen before on every
//!   call (every label new): canonicalizing and embedding the whole pool
//!   is paid on each call.
//!
//! Pools of 77 (BANKING77's size), 100 and 1,000 candidates of the load
//! tool's labels; inputs `unresolved` ("links panel", two words-only hits:
//! a tie meaning fills) and `paraphrase` ("show me the one about money I
//! put aside", nothing named: meaning ranks every candidate) and
//! `question` ("what does the revenue forecast show?": an escape, with
//! the candidates it is about).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use futures::executor::block_on;
use ladder::continuity::{ContinuityState, Now};
use ladder::decide::{Mode, decide};
use ladder::intern::PoolMemo;
use ladder::types::Outcome;
use ladderd::config::Config;
use std::hint::black_box;
use std::time::Duration;
use support::{NoPorts, ctx};

#[path = "support/screens.rs"]
mod screens;
#[path = "support/mod.rs"]
mod support;
use screens::{New, pool, request};

// The daemon's allocator (src/main.rs), so the figures are the daemon's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const INPUTS: &[(&str, &str, Outcome)] = &[
    ("unresolved", "links panel", Outcome::Clarify),
    ("paraphrase", "show me the one about money I put aside", Outcome::Clarify),
    ("question", "what does the revenue forecast show?", Outcome::Escape),
];
const SIZES: &[usize] = &[77, 100, 1_000];

fn bench(c: &mut Criterion) {
    let meaning = Config::default().policy().expect("the defaults");
    let words = {
        let mut config = Config::default();
        config.semantic.enabled = false;
        config.policy().expect("words only")
    };
    let dim = meaning.meaning.as_ref().expect("the shipped model").model.dim();
    let state = ContinuityState::default();
    for (group, new) in [("memo", New::Nothing), ("seen", New::Ids), ("fresh", New::Labels)] {
        let mut g = c.benchmark_group(group);
        g.sample_size(if new == New::Nothing { 100 } else { 30 });
        for (ranking, policy) in [("words", &words), ("meaning", &meaning)] {
            // The daemon's label memo (`server.label_memo_bytes`).
            let memo = PoolMemo::new(64 << 20)
                .counting_vectors(if policy.meaning.is_some() { dim } else { 0 })
                .with_labels(Config::default().server.label_memo_bytes);
            let ctx = ctx(policy, &state, Now { mono_ms: 1_000, wall_ms: 1_700_000_000_000 }, Some(&memo));
            for (name, input, outcome) in INPUTS {
                for &n in SIZES {
                    let kept = request(input, pool(n, New::Nothing, 0));
                    let d = block_on(decide(&ctx, &kept, Mode::Turn, &NoPorts)).expect("no deadline").decision;
                    assert_eq!(d.outcome, *outcome, "{name}/{n}");
                    g.throughput(Throughput::Elements(n as u64));
                    let mut k = 0;
                    g.bench_function(BenchmarkId::new(format!("{ranking}/{name}"), n), |b| {
                        b.iter_batched(
                            || {
                                k += 1;
                                if new == New::Nothing { kept.clone() } else { request(input, pool(n, new, k)) }
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
