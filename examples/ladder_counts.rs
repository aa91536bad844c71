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
use ladder::types::DecideRequest;
use ladderd::config::Config;
use std::hint::black_box;
use std::process::ExitCode;
use support::{NoPorts, ctx};

#[path = "../benches/support/screens.rs"]
mod screens;
#[path = "../benches/support/mod.rs"]
mod support;
use screens::{New, pool, request};

// The daemon's allocator (src/main.rs), so the counts are the daemon's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The calls callgrind counts (`--toggle-collect`).
#[inline(never)]
fn measured(call: &mut dyn FnMut(u64), from: u64, calls: u64) {
    (from..from + calls).for_each(call);
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
    let new = match screen.as_str() {
        "memo" => New::Nothing,
        "seen" => New::Ids,
        "fresh" => New::Labels,
        _ => return usage(),
    };
    let (Ok(warm), Ok(calls)) = (warm.parse::<u64>(), calls.parse::<u64>()) else { return usage() };
    let policy = config.policy().expect("the defaults");
    let dim = policy.meaning.as_ref().map_or(0, |m| m.model.dim());
    // The daemon's memo and label memo (`server.label_memo_bytes`), as the bench makes them.
    let memo = PoolMemo::new(64 << 20).counting_vectors(dim).with_labels(Config::default().server.label_memo_bytes);
    let state = ContinuityState::default();
    let ctx = ctx(&policy, &state, Now { mono_ms: 1_000, wall_ms: 1_700_000_000_000 }, Some(&memo));
    let kept = request(input, pool(100, New::Nothing, 0));
    // Made before the calls, so that making them is not counted.
    let reqs: Vec<DecideRequest> =
        (0..warm + calls).map(|k| if new == New::Nothing { kept.clone() } else { request(input, pool(100, new, k + 1)) }).collect();
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
