//! The instructions one `ladder::decide::decide` costs, counted by
//! callgrind rather than timed: what `benches/meaning.rs` times (the
//! ladder's core, the embedded defaults, LLM off), on the same pools and
//! inputs, so that a change's cost is read in instructions where the
//! VM's timings vary by a third between runs.
//!
//! ```sh
//! cargo build --release --example ladder_counts
//! valgrind --tool=callgrind --toggle-collect='ladder_counts::measured' \
//!   --callgrind-out-file=/tmp/l.cg target/release/examples/ladder_counts question meaning memo 200 500
//! callgrind_annotate /tmp/l.cg | grep 'PROGRAM TOTALS'   # / 500: a call
//! ```
//!
//! Arguments: the input (`unresolved`, `paraphrase`, `question`, as the
//! bench names them), the ranking (`words`: `semantic.enabled = false`,
//! or `meaning`), the screen (`memo`: the same options every call; `seen`:
//! new ids over the same labels; `fresh`: every label new), then the calls
//! made before counting and the calls counted, on the 100-candidate pool.

use futures::executor::block_on;
use ladder::continuity::{ContinuityState, Now};
use ladder::decide::{Mode, decide};
use ladder::intern::PoolMemo;
use ladder::types::{Candidate, DecideRequest, OptionSet, Scope, ScopeRef};
use ladderd::config::Config;
use std::hint::black_box;
use std::process::ExitCode;
use std::sync::Arc;
use support::{NoPorts, ctx};

#[path = "../benches/support/mod.rs"]
mod support;

// The daemon's allocator (src/main.rs), so the counts are the daemon's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The calls callgrind counts (`--toggle-collect`).
#[inline(never)]
fn measured(call: &mut dyn FnMut(u64), from: u64, calls: u64) {
    (from..from + calls).for_each(call);
}

/// The load tool's pool of 100, call `k`'s: its ids new when `ids`, its
/// labels too when `labels` (as `benches/meaning.rs` makes them).
fn pool(ids: bool, labels: bool, k: u64) -> Arc<Vec<Candidate>> {
    let mut p: Vec<Candidate> = ladderd_load::samples::pool(100).into_iter().map(Candidate::from).collect();
    for c in &mut p {
        if ids {
            c.id = format!("{}-{k}", c.id);
        }
        if labels {
            c.label = format!("{} {k}", c.label);
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

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, ranking, screen, warm, calls] = &args[..] else { return usage() };
    let input = match input.as_str() {
        "unresolved" => "links panel",
        "paraphrase" => "show me the one about money I put aside",
        "question" => "what does the revenue forecast show?",
        _ => return usage(),
    };
    let mut config = Config::default();
    match ranking.as_str() {
        "words" => config.semantic.enabled = false,
        "meaning" => {}
        _ => return usage(),
    }
    let (ids, labels) = match screen.as_str() {
        "memo" => (false, false),
        "seen" => (true, false),
        "fresh" => (true, true),
        _ => return usage(),
    };
    let (Ok(warm), Ok(calls)) = (warm.parse::<u64>(), calls.parse::<u64>()) else { return usage() };
    let policy = config.policy().expect("the defaults");
    let dim = policy.meaning.as_ref().map_or(0, |m| m.model.dim());
    // The daemon's memo and label memo (`server.label_memo_bytes`), as the bench makes them.
    let memo = PoolMemo::new(64 << 20).counting_vectors(dim).with_labels(Config::default().server.label_memo_bytes);
    let state = ContinuityState::default();
    let ctx = ctx(&policy, &state, Now { mono_ms: 1_000, wall_ms: 1_700_000_000_000 }, Some(&memo));
    let kept = request(input, pool(false, false, 0));
    // Made before the calls, so that making them is not counted.
    let reqs: Vec<DecideRequest> =
        (0..warm + calls).map(|k| if ids { request(input, pool(ids, labels, k + 1)) } else { kept.clone() }).collect();
    let mut outcomes = std::collections::BTreeMap::new();
    let mut call = |k: u64| {
        let d = block_on(decide(&ctx, &reqs[k as usize], Mode::Turn, &NoPorts)).expect("no deadline").decision;
        *outcomes.entry(format!("{:?}", d.outcome)).or_insert(0) += 1;
        black_box(d);
    };
    (0..warm).for_each(&mut call);
    let began = std::time::Instant::now();
    measured(&mut call, warm, calls);
    eprintln!("outcomes: {outcomes:?}; {:.1} us a call", began.elapsed().as_secs_f64() * 1e6 / calls.max(1) as f64);
    ExitCode::SUCCESS
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: ladder_counts <unresolved|paraphrase|question> <words|meaning> <memo|seen|fresh> <calls before counting> <calls counted>"
    );
    ExitCode::from(2)
}
