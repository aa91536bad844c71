//! Command line: `ladderd` serves; `ladderd config` prints the effective
//! configuration (secrets masked); `ladderd config --check FILE` validates
//! a file without starting.

use crate::app::App;
use crate::config;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(name = "ladderd", version, about = "Decides what a chat user meant: deterministic code decides, an LLM only advises.")]
pub struct Cli {
    /// Configuration file (TOML). Also `LADDER_CONFIG`.
    #[arg(long, global = true, env = "LADDER_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve gRPC (the default).
    Serve,
    /// Print the effective configuration (secrets masked), or check a file.
    Config {
        /// Validate this file (with the environment on top) and exit 0 or 2.
        #[arg(long, value_name = "FILE")]
        check: Option<PathBuf>,
    },
}

/// Exit code for an invalid configuration.
pub const EXIT_CONFIG: u8 = 2;

pub fn run(cli: Cli) -> ExitCode {
    match cli.command.unwrap_or(Command::Serve) {
        Command::Config { check } => {
            let file = check.or(cli.config);
            match config::load(file.as_deref()) {
                Ok(c) => {
                    print!("{}", c.masked_toml());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprint!("ladderd: {e}");
                    ExitCode::from(EXIT_CONFIG)
                }
            }
        }
        Command::Serve => serve(cli.config),
    }
}

fn serve(file: Option<PathBuf>) -> ExitCode {
    let config = match config::load(file.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            eprint!("ladderd: {e}");
            return ExitCode::from(EXIT_CONFIG);
        }
    };
    crate::telemetry::init_logging(&config.telemetry);
    let rt = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("ladderd: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    rt.block_on(async {
        let app = match App::build(config).await {
            Ok(a) => a,
            Err(e) => {
                eprintln!("ladderd: {e}");
                return ExitCode::from(match e {
                    crate::app::AppError::Start(_) => EXIT_CONFIG,
                    _ => 1,
                });
            }
        };
        match app.run_until(shutdown_signal()).await {
            Ok(()) => {
                tracing::info!("stopped");
                ExitCode::SUCCESS
            }
            Err(e) => {
                tracing::error!(error = %e, "server failed");
                ExitCode::FAILURE
            }
        }
    })
}

/// SIGTERM or SIGINT.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
