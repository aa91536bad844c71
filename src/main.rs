//! `ladderd`: see `ladderd --help`. Serving is assembled in `app`; this
//! only parses the command line and hands over.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    ladderd::cli::run(ladderd::cli::Cli::parse())
}
