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
//! Arguments: `exact` ("Links Panel D", an execute) or `unresolved`
//! ("links panel", a clarifier), then the calls made before counting (the
//! sessions' steady state) and the calls counted (`measured`).

use ladderd::config::Config;
use ladderd::daemon::Daemon;
use ladderd::grpc::Arbiter;
use ladderd::grpc::intake;
use ladderd::pb;
use ladderd::pb::arbiter_server::Arbiter as _;
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
    (0..calls).for_each(|n| call(n % SESSIONS));
}

/// The calls callgrind counts (`--toggle-collect`).
#[inline(never)]
fn measured(call: &mut dyn FnMut(usize), from: usize, calls: usize) {
    (from..from + calls).for_each(|n| call(n % SESSIONS));
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (input, warm, calls) = match &args[..] {
        [kind, warm, calls] => {
            let input = match kind.as_str() {
                "exact" => "Links Panel D",
                "unresolved" => "links panel",
                _ => return usage(),
            };
            match (warm.parse(), calls.parse()) {
                (Ok(w), Ok(c)) => (input, w, c),
                _ => return usage(),
            }
        }
        _ => return usage(),
    };
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
    let daemon = Arc::new(Daemon::new(Config::default()).expect("the default configuration builds"));
    let arbiter = Arbiter::new(daemon.clone());
    let bodies: Vec<bytes::Bytes> =
        ladderd_load::samples::session_bodies(100, input, SESSIONS).into_iter().map(bytes::Bytes::from).collect();
    let mut outcomes = std::collections::BTreeMap::new();
    let mut call = |n: usize| {
        let (wire, looked, stripped) = intake::decide_options(&daemon.current(), DECIDE, &bodies[n]).expect("options sent once");
        let m = pb::DecideRequest::decode(stripped.as_deref().unwrap_or(&bodies[n][..])).expect("decodes");
        let mut req = tonic::Request::new(m);
        req.extensions_mut().insert(wire);
        req.extensions_mut().insert(looked);
        let answer = rt.block_on(arbiter.decide(req)).expect("decided").into_inner();
        *outcomes.entry(pb::Outcome::try_from(answer.outcome).map_or("?", |o| o.as_str_name())).or_insert(0) += 1;
        black_box(answer.encode_to_vec());
    };
    warm_up(&mut call, warm);
    measured(&mut call, warm, calls);
    eprintln!("outcomes: {outcomes:?}");
    ExitCode::SUCCESS
}

fn usage() -> ExitCode {
    eprintln!("usage: call_counts <exact|unresolved> <calls before counting> <calls counted>");
    ExitCode::from(2)
}
