//! `ladderd-load`: drives `Decide` over real gRPC and reports throughput and
//! latency percentiles, next to an **echo baseline** (the same service
//! returning an empty `Decision` without any work) measured in the same
//! session with the same client, so every figure comes with its
//! `ladderd / echo` ratio. See BENCHMARKS.md for the figures and the exact
//! commands.
//!
//! ```sh
//! cargo build --release --bin ladderd --bin ladderd-load
//! target/release/ladderd-load --daemon-cpu 0 --client-cpu 1 \
//!     --pools 100,1000 --inputs exact --concurrency 1,16,64
//! ```
//!
//! What it does:
//!
//! - starts `target/release/ladderd` (or `--daemon-bin`) on a free port
//!   (`LADDER_LISTEN=127.0.0.1:0`, JSON logs, the address read from its
//!   "serving" line), or uses a running daemon (`--target`);
//! - starts the echo server (`ladderd-load echo`, a child process, pinned
//!   like the daemon) unless `--no-echo`;
//! - for every pool size x input kind x concurrency: a warm-up, then a
//!   closed-loop run (each of `--concurrency` workers sends its next call
//!   when the previous one answered), against ladderd and against the echo;
//! - `--overload`: measures the sustainable rate (closed loop at the highest
//!   concurrency), then offers `--overload-factor` (2) times that rate open
//!   loop (arrivals on a fixed schedule, latency measured from the scheduled
//!   time), and reports the share shed with RESOURCE_EXHAUSTED, the p99 of
//!   the accepted calls, and whether the daemon still reports SERVING;
//! - samples the daemon's RSS (`/proc/PID/status`, VmRSS) every
//!   `--rss-interval` and reports start / end / max;
//! - `--fake-llm`: starts an instant OpenAI-compatible provider in this
//!   process and points the daemon at it, so `unresolved` inputs go through
//!   the LLM rung;
//! - `--fresh-options`: a new option set on every call (a new
//!   `option_set_id` and new candidate ids over the same labels, as an app
//!   that shows what it showed before on a new screen); `--fresh-labels`:
//!   every label new too (`samples::FreshBodies`);
//! - `--pool-reuse`: before each ladderd run, sends every session its pool
//!   once (`options.version`), then measures calls that only refer to it
//!   (`options.by_reference`): compare with the same run without the flag.
//!
//! Every call's grpc-status is checked: non-OK statuses are counted by code
//! (unlike h2load, which only sees HTTP 200). Requests are encoded once per
//! run (protobuf fields may come in any order, so the per-call session id is
//! written in front of the pre-encoded body, and a turn_id of the call's
//! own, as a client package sends, after it): the client spends its time on
//! the wire, not on re-encoding 1,000 candidates, and the same bytes go to
//! ladderd and to the echo.
//!
//! Pinning: `--daemon-cpu 0` spawns the daemon and the echo under
//! `taskset -c 0`; `--client-cpu 1` pins this process (all its threads,
//! before the runtime starts) with `taskset -a -p -c 1`. Running the tool
//! as `taskset -c 1 ladderd-load ...` is equivalent for the client.
//!
//! The parts, one job each: `cli` (the flags), `spawn` (the servers under
//! test and the watchdog), `echo` and `fake_llm` (the stand-ins the tool
//! serves itself), `calls` (the requests on the wire), `run` (the loops,
//! the matrix and the overload step), `report` (tallies, RSS, the table).

mod calls;
mod cli;
mod echo;
mod fake_llm;
mod report;
mod run;
mod spawn;

use clap::Parser;
use cli::{Cli, Cmd};
use std::process::{Command, ExitCode, Stdio};

// The same allocator as the daemon, so the echo baseline is not handicapped.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(cpus) = cli.run.client_cpu.as_deref().filter(|_| cli.command.is_none()) {
        // Pin before the runtime exists: every thread it starts inherits it,
        // and tokio sizes its worker pool from this affinity.
        let ok = Command::new("taskset")
            .args(["-a", "-p", "-c", cpus, &std::process::id().to_string()])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("ladderd-load: taskset -a -p -c {cpus} failed (is util-linux installed?)");
            return ExitCode::FAILURE;
        }
    }
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime");
    match cli.command {
        Some(Cmd::Echo { listen, plain }) => rt.block_on(echo::serve_echo(&listen, plain)),
        Some(Cmd::FakeLlm { listen }) => rt.block_on(async {
            let addr = fake_llm::start_fake_llm(&listen).await;
            eprintln!("serving {addr}");
            std::future::pending::<ExitCode>().await
        }),
        None => rt.block_on(run::run(cli.run)),
    }
}
