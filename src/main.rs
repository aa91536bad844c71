//! `ladderd`: see `ladderd --help`. Serving is assembled in `app`; this
//! only parses the command line and hands over.

use clap::Parser;
use std::process::ExitCode;

// mimalloc: per-thread free lists; a call allocates and frees hundreds of
// small objects (decoded strings, the answer), which glibc's malloc served
// at about 17% of the daemon's CPU (BENCHMARKS.md, profile).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    ladderd::cli::dispatch(ladderd::cli::Cli::parse())
}
