//! `ladderd`: see `ladderd --help`. Serving is assembled in `app`; this
//! only parses the command line and hands over.

use clap::Parser;
use std::process::ExitCode;

// mimalloc: a call allocates and frees hundreds of small objects (decoded
// strings, the answer) on whichever worker runs it; per-thread free lists
// serve them without the locking and consolidation of glibc's malloc.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    ladderd::cli::dispatch(ladderd::cli::Cli::parse())
}
