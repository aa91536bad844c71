//! The instructions one `Decide` call costs the daemon, counted by
//! callgrind rather than timed (a VM's timings vary by half from one run
//! to the next; instruction counts do not). What `benches/call.rs` times:
//! intake's look-up of the options (`intake::decide_options`), the decode of what
//! intake hands on, the `Arbiter` handler and the answer's encoding, on the
//! load tool's 100-candidate pool, one of 1,000 session ids in turn.
//!
//! ```sh
//! cargo build --release --example call_counts
//! valgrind --tool=callgrind --toggle-collect='call_counts::measured' \
//!   --callgrind-out-file=/tmp/calls.cg target/release/examples/call_counts exact 5000 2000
//! callgrind_annotate /tmp/calls.cg | grep 'PROGRAM TOTALS'   # / 2000: a call
//! ```
//!
//! Arguments: `exact` ("Links Panel D", an execute), `unresolved`
//! ("links panel", a clarifier the words rank), `paraphrase` ("show me
//! the one about money I put aside", a clarifier meaning ranks) or
//! `question` ("what does the revenue forecast show?", an escape with the
//! candidates it is `about`), then the
//! calls made before counting (the sessions' steady state) and the calls
//! counted (`measured`); last, optionally, `fresh-options` (a new option
//! set on every call over the same labels, as `ladderd-load
//! --fresh-options` sends) or `fresh-labels` (every label new too,
//! `--fresh-labels`). The outcomes, and how the clarifiers were ranked,
//! go to stderr, with the time a call took (without callgrind: a
//! rough figure, the machine's noise included).

use ladderd::daemon::Daemon;
use ladderd::grpc::Arbiter;
use ladderd::grpc::intake;
use ladderd::pb;
use ladderd::pb::arbiter_server::Arbiter as _;
use ladderd_load::samples::{Fresh, FreshBodies};
use prost::Message;
use std::hint::black_box;
use std::process::ExitCode;
use std::sync::Arc;

// The daemon's allocator (src/main.rs), so the counts are the daemon's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const SESSIONS: usize = 1_000;
const DECIDE: &str = "/ladder.v1.Arbiter/Decide";

#[inline(never)]
fn warm_up(call: &mut dyn FnMut(usize), calls: usize) {
    (0..calls).for_each(call);
}

/// The calls callgrind counts (`--toggle-collect`).
#[inline(never)]
fn measured(call: &mut dyn FnMut(usize), from: usize, calls: usize) {
    (from..from + calls).for_each(call);
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (input, warm, calls, fresh) = match &args[..] {
        [kind, warm, calls, fresh @ ..] if fresh.len() <= 1 => {
            let input = match kind.as_str() {
                "exact" => "Links Panel D",
                "unresolved" => "links panel",
                "paraphrase" => "show me the one about money I put aside",
                "question" => "what does the revenue forecast show?",
                _ => return usage(),
            };
            let fresh = match fresh.first().map(String::as_str) {
                None => None,
                Some("fresh-options") => Some(Fresh::Options),
                Some("fresh-labels") => Some(Fresh::Labels),
                Some(_) => return usage(),
            };
            match (warm.parse(), calls.parse()) {
                (Ok(w), Ok(c)) => (input, w, c, fresh),
                _ => return usage(),
            }
        }
        _ => return usage(),
    };
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    // The defaults and `LADDER_*` (`LADDER_SEMANTIC__ENABLED=false`: words only).
    let config = match ladderd::config::load(None) {
        Ok(c) => c,
        Err(e) => {
            eprint!("call_counts: {e}");
            return ExitCode::FAILURE;
        }
    };
    let daemon = Arc::new(Daemon::new(config).expect("the configuration builds"));
    let arbiter = Arbiter::new(daemon.clone());
    // A fresh screen's bodies are all made before the first call, so
    // that making them is not counted.
    let bodies: Vec<bytes::Bytes> = match fresh {
        None => ladderd_load::samples::session_bodies(100, input, SESSIONS).into_iter().map(bytes::Bytes::from).collect(),
        Some(fresh) => {
            let make = FreshBodies::new(100, input, fresh);
            (0..warm + calls)
                .map(|n| {
                    let mut b = Vec::new();
                    prost::encoding::string::encode(1, &format!("load-{}", n % SESSIONS), &mut b);
                    b.extend_from_slice(&make.body(n as u64));
                    bytes::Bytes::from(b)
                })
                .collect()
        }
    };
    let mut outcomes = std::collections::BTreeMap::new();
    let mut call = |n: usize| {
        let n = n % bodies.len();
        let (wire, looked, stripped) = intake::decide_options(&daemon.current(), DECIDE, &bodies[n]).expect("options sent once");
        let m = pb::DecideRequest::decode(stripped.as_deref().unwrap_or(&bodies[n][..])).expect("decodes");
        let mut req = tonic::Request::new(m);
        req.extensions_mut().insert(wire);
        req.extensions_mut().insert(looked);
        let answer = rt.block_on(arbiter.decide(req)).expect("decided").into_inner();
        let ranked = answer.trace.iter().find(|s| s.rung == "rank").map_or("", |s| s.outcome.as_str());
        *outcomes.entry(format!("{}{}", pb::Outcome::try_from(answer.outcome).map_or("?", |o| o.as_str_name()), ranked)).or_insert(0) += 1;
        black_box(answer.encode_to_vec());
    };
    warm_up(&mut call, warm);
    let began = std::time::Instant::now();
    measured(&mut call, warm, calls);
    let took = began.elapsed();
    eprintln!("outcomes: {outcomes:?}; {:.1} us a call", took.as_secs_f64() * 1e6 / calls.max(1) as f64);
    ExitCode::SUCCESS
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: call_counts <exact|unresolved|paraphrase|question> <calls before counting> <calls counted> [fresh-options|fresh-labels]"
    );
    ExitCode::from(2)
}
