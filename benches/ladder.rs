//! The deterministic ladder's cost by pool size.
//!
//! `cargo bench --bench ladder`
//!
//! Three groups, for pools of 10, 100, 1,000 and 10,000 candidates with
//! realistic labels and four inputs (exact label, ordinal, unresolved
//! multi-match, typo-only fuzzy):
//!
//! - `core/<input>/<pool>`: canonicalize + scope + match + classify, the
//!   rungs whose cost grows with the pool, for a pool seen the first time;
//! - `core_memo/<input>/<pool>`: the same for a pool sent again, its
//!   canonical form from the daemon's memo (`intern::PoolMemo`);
//! - `decide/<input>/<pool>`: the whole `ladder::decide::decide` with the
//!   embedded default policy (LLM off) and a no-op `Ports`.
//!
//! Goals: 1,000 candidates under 150 us median, 10,000 under 1.5 ms, cost
//! growing no worse than linearly (criterion reports the throughput in
//! candidates per second: a flat figure across sizes is linear).
//!
//! Two more groups: `hostile/<shape>`, the costliest `Decide` within
//! `limits.match_work_max`, and `extract/<shape>`, the costliest `Extract`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use futures::executor::block_on;
use ladder::canon::canonicalize;
use ladder::classify::{Evidence, classify};
use ladder::continuity::{ContinuityState, Now};
use ladder::decide::{Mode, decide};
use ladder::intern::{self, PoolMemo};
use ladder::matching::{self, Query};
use ladder::policy::Policy;
use ladder::scope::{self, Resolved};
use ladder::types::{Candidate, DecideRequest, OptionSet, Scope, ScopeRef};
use std::hint::black_box;
use std::time::Duration;
use support::{NoPorts, ctx};

#[path = "support/mod.rs"]
mod support;

// The daemon's allocator (src/main.rs), so the figures are the daemon's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `n` candidates of `ladderd_load::samples::pool` (realistic labels, the
/// apps' regression set in the middle), the same pools `ladderd-load` sends.
fn pool(n: usize) -> Vec<Candidate> {
    ladderd_load::samples::pool(n).into_iter().map(Candidate::from).collect()
}

fn request(input: &str, candidates: Vec<Candidate>) -> DecideRequest {
    DecideRequest {
        session_id: "bench".into(),
        turn_id: "t1".into(),
        input: input.into(),
        active_scope: Some(ScopeRef { scope: Scope::Chat, instance_id: "chat-1".into() }),
        options: Some(OptionSet { option_set_id: "set-1".into(), scope: Scope::Chat, candidates: candidates.into(), ..Default::default() }),
        ..Default::default()
    }
}

/// exact -> EXECUTE (label), ordinal -> EXECUTE (position), unresolved ->
/// two containment hits (multi-match), fuzzy -> every label scored.
const INPUTS: &[(&str, &str)] =
    &[("exact", "Links Panel D"), ("ordinal", "the second one"), ("unresolved", "links panel"), ("fuzzy", "lnks panle")];
const SIZES: &[usize] = &[10, 100, 1_000, 10_000];

/// canonicalize + scope + match + classify, as `decide` runs them.
/// With `memo`, the pool's canonical form comes from it (as in the daemon,
/// where a pool sent again is not canonicalized again).
fn core(policy: &Policy, req: &DecideRequest, memo: Option<&PoolMemo>) -> usize {
    let lex = &policy.lexicon;
    let canonical = canonicalize(&req.input, lex);
    let Resolved::Pool(pool) = scope::resolve(req, None, false) else { unreachable!("a chat pool") };
    let query = Query::new(canonical, lex);
    let stop = Default::default();
    let index = intern::pool_index(memo, &pool, None, lex, &stop).expect("no deadline");
    let rules = matching::Rules { lex, params: &policy.matching, ranked: policy.tie_len(), stop: &stop };
    let matches = matching::find(&req.input, &query, &pool, &index, &req.commands, rules).expect("no deadline");
    let class = classify(&Evidence {
        pool: &pool,
        matches: &matches,
        input_is_deictic: query.core.is_empty() || lex.deictic.contains(&query.core),
        params: &policy.matching,
    });
    matches.hits.len() + usize::from(class.winner.is_some())
}

fn bench(c: &mut Criterion) {
    let policy = Policy::defaults();
    let state = ContinuityState::default();
    let now = Now { mono_ms: 1_000, wall_ms: 1_700_000_000_000 };
    let memo = PoolMemo::new(4 << 20);
    for (group, whole, memo) in [("core", false, None), ("core_memo", false, Some(&memo)), ("decide", true, None)] {
        let mut g = c.benchmark_group(group);
        for (name, input) in INPUTS {
            for &n in SIZES {
                let req = request(input, pool(n));
                g.throughput(Throughput::Elements(n as u64));
                if n >= 10_000 {
                    g.sample_size(30);
                } else {
                    g.sample_size(100);
                }
                g.bench_with_input(BenchmarkId::new(*name, n), &req, |b, req| {
                    if whole {
                        let ctx = ctx(&policy, &state, now, None);
                        b.iter(|| black_box(block_on(decide(&ctx, black_box(req), Mode::Turn, &NoPorts)).expect("no deadline")));
                    } else {
                        b.iter(|| black_box(core(&policy, black_box(req), memo)));
                    }
                });
            }
        }
        g.finish();
    }
}

/// The worst requests within `limits.match_work_max`: long
/// labels, inputs of many different words each one edit from some label
/// word (every one is looked for among all pool words), sized so that
/// input words x pool words is just under the default budget of
/// 1,000,000. `hostile/<shape>` in BENCHMARKS.md. The label words repeat
/// (800 distinct) unless `distinct`, when every word of the pool is its
/// own (the pool's word index then saves nothing: the worst case since it
/// exists).
fn hostile_request(n: usize, label_words: usize, input_words: usize, distinct: bool) -> DecideRequest {
    let stems = ["alpha", "beta", "gamma", "delta", "omega", "panel", "report", "sales"];
    let number = |i: usize, k: usize| if distinct { i * label_words + k } else { (i * 7 + k) % 100 };
    let label = |i: usize| (0..label_words).map(|k| format!("{}{}", stems[(i + k) % 8], number(i, k))).collect::<Vec<_>>().join(" ");
    let input = (0..input_words).map(|k| format!("{}{}", stems[k % 8], 100 + k)).collect::<Vec<_>>().join(" ");
    request(&input, (0..n).map(|i| Candidate::new(format!("c{i}"), label(i))).collect())
}

/// Few words, many bytes: 200 candidates whose label,
/// sublabel, badge and 32 aliases are each 511 bytes of accented letters
/// (3.6 MB of text to canonicalize, 7,200 pool words) against a one-word
/// input. Light by its word count; the daemon runs it off the worker
/// threads by its bytes (`ladder::cost::BYTE_COST`).
fn accented_request() -> DecideRequest {
    let text = |tag: usize| format!("{}{}", "\u{e9}".repeat(255), (b'a' + (tag % 26) as u8) as char);
    let cands = (0..200)
        .map(|i| Candidate {
            sublabel: text(i + 1),
            badge: text(i + 2),
            aliases: (0..32).map(|k| text(i + k)).collect(),
            ..Candidate::new(format!("c{i}"), text(i))
        })
        .collect();
    request("zzz", cands)
}

/// (name, candidates, label words, input words, distinct words): work =
/// input words x candidates x (label words + 1), each under 1,000,000.
const HOSTILE: &[(&str, usize, usize, usize, bool)] = &[
    ("long-labels-short-input", 5000, 59, 3, false),
    ("long-input-few-labels", 250, 9, 390, false),
    ("balanced", 1000, 24, 39, false),
    ("long-labels-short-input-distinct", 5000, 59, 3, true),
    ("long-input-few-labels-distinct", 250, 9, 390, true),
    ("balanced-distinct", 1000, 24, 39, true),
];

fn hostile(c: &mut Criterion) {
    let policy = Policy::defaults();
    let state = ContinuityState::default();
    let now = Now { mono_ms: 1_000, wall_ms: 1_700_000_000_000 };
    let mut g = c.benchmark_group("hostile");
    g.sample_size(10);
    let shapes = HOSTILE.iter().map(|&(name, n, words, input, distinct)| (name, hostile_request(n, words, input, distinct)));
    for (name, req) in shapes.chain(std::iter::once(("accented-labels", accented_request()))) {
        let work = ladder::decide::work(&req);
        assert!(work <= 1_000_000, "{name}: {work}");
        g.bench_with_input(BenchmarkId::new(name, work), &req, |b, req| {
            let ctx = ctx(&policy, &state, now, None);
            b.iter(|| black_box(block_on(decide(&ctx, black_box(req), Mode::Turn, &NoPorts)).expect("no deadline")));
        });
    }
    g.finish();
}

/// The worst `Extract` requests within the default limits
/// (`ladderd_load::samples::worst_extracts`: the most bytes to
/// canonicalize, and the most sliding), as the daemon runs them with the
/// hints off: the deterministic baseline. `extract/<shape>` in
/// BENCHMARKS.md.
fn extract(c: &mut Criterion) {
    let policy = Policy::defaults();
    let limits = ladderd::config::Limits::default();
    let mut g = c.benchmark_group("extract");
    g.sample_size(10);
    for (name, r) in ladderd_load::samples::worst_extracts() {
        let req = ladderd::convert::extract_request(r, &limits).expect("within the limits");
        let work = ladder::extract::work(&req, false).total;
        assert!(work <= limits.match_work_max, "{name}: {work}");
        g.bench_with_input(BenchmarkId::new(name, work), &req, |b, req| {
            b.iter(|| {
                black_box(ladder::extract::baseline(black_box(req), &req.text, "baseline", &policy.lexicon, ladder::extract::Slots::new()))
            });
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(2));
    targets = bench, hostile, extract
}
criterion_main!(benches);
