//! Command line: `ladderd` serves; `ladderd config` prints the effective
//! configuration (secrets masked); `ladderd config --check FILE` validates
//! a file, and reads and checks the files it names, as the start does,
//! without starting; `ladderd replay` re-runs decision records;
//! `ladderd eval` measures decision quality on labelled turns.

use crate::app::App;
use crate::config;
use crate::daemon::StartError;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

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
        /// Validate this file (with the environment on top), and read and
        /// check the files it names as the start does (the model, the
        /// lexicon, the templates, the key and token files): print `ok`
        /// and exit 0, or the problems and exit 2.
        #[arg(long, value_name = "FILE")]
        check: Option<PathBuf>,
        /// With `--check`: also print the effective configuration.
        #[arg(long, requires = "check")]
        print: bool,
    },
    /// Re-run decision records under a configuration (`--config`, else the
    /// current one) and report what would change. The LLM is not called:
    /// its recorded answers are used.
    Replay {
        /// Decision records (JSON lines); repeat for rotated files.
        #[arg(long = "records", value_name = "FILE", required = true)]
        records: Vec<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Replay under this `auto_execute.corroboration` (reorder,
        /// deterministic, both, none) instead of the configuration's.
        #[arg(long, value_name = "MODE", value_parser = parse_corroboration)]
        corroboration: Option<ladder::policy::Corroboration>,
    },
    /// Measure decision quality on labelled turns (JSON lines: the
    /// DecideRequest fields, an `expect` and a `category`), run in process
    /// through the daemon's own Decide code under the configuration
    /// (`--config`, else the embedded defaults and the environment). Exits
    /// 1 when any turn executed wrongly, 2 on unreadable input or config.
    Eval {
        /// Labelled turns (JSON lines); several files are read in order.
        #[arg(value_name = "FILE.jsonl", required = true)]
        files: Vec<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        /// Expectations judged wrong (JSON lines: `{"at": line id or
        /// dialogue id#turn, "reason": ...}`): those turns run but are
        /// counted nowhere, and are listed with their reasons. Repeatable.
        #[arg(long = "exceptions", value_name = "FILE.jsonl")]
        exceptions: Vec<PathBuf>,
    },
}

fn parse_corroboration(s: &str) -> Result<ladder::policy::Corroboration, String> {
    ladder::policy::Corroboration::parse(s).ok_or_else(|| format!("{s:?} is not one of reorder, deterministic, both, none"))
}

/// Exit code for an invalid configuration.
pub const EXIT_CONFIG: u8 = 2;

pub fn dispatch(cli: Cli) -> ExitCode {
    match cli.command.unwrap_or(Command::Serve) {
        Command::Config { check, print } => {
            let checking = check.is_some();
            let file = check.or(cli.config);
            // Checking, the files the configuration names are read and
            // checked as the start would (the model, the lexicon, ...).
            let checked = config::load(file.as_deref())
                .map_err(StartError::from)
                .and_then(|c| if checking { crate::daemon::Generation::check(&c).map(|()| c) } else { Ok(c) });
            match checked {
                Ok(_) if checking && !print => {
                    println!("ok");
                    ExitCode::SUCCESS
                }
                Ok(c) => {
                    print!("{}", c.masked_toml());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    let e = e.to_string();
                    eprint!("ladderd: {e}{}", if e.ends_with('\n') { "" } else { "\n" });
                    ExitCode::from(EXIT_CONFIG)
                }
            }
        }
        Command::Replay { records, json, corroboration } => {
            let config = match config::load(cli.config.as_deref()) {
                Ok(c) => c,
                Err(e) => {
                    eprint!("ladderd: {e}");
                    return ExitCode::from(EXIT_CONFIG);
                }
            };
            let report =
                crate::replay::read(&records).and_then(|(recs, skipped)| crate::replay::replay(&recs, skipped, &config, corroboration));
            match report {
                Ok(r) if json => {
                    println!("{}", serde_json::to_string_pretty(&r).unwrap_or_default());
                    ExitCode::SUCCESS
                }
                Ok(r) => {
                    print!("{}", crate::replay::render(&r));
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("ladderd: replay: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Eval { files, json, exceptions } => eval(cli.config, &files, &exceptions, json),
        Command::Serve => serve(cli.config),
    }
}

fn eval(file: Option<PathBuf>, files: &[PathBuf], exception_files: &[PathBuf], json: bool) -> ExitCode {
    let config = match config::load(file.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            eprint!("ladderd: {e}");
            return ExitCode::from(EXIT_CONFIG);
        }
    };
    let mut cases = Vec::new();
    for f in files {
        match crate::eval::read(f) {
            Ok(c) => cases.extend(c),
            Err(e) => {
                eprintln!("ladderd: eval: {e}");
                return ExitCode::from(EXIT_CONFIG);
            }
        }
    }
    let mut exceptions = Vec::new();
    for f in exception_files {
        match crate::eval::read_exceptions(f) {
            Ok(e) => exceptions.extend(e),
            Err(e) => {
                eprintln!("ladderd: eval: {e}");
                return ExitCode::from(EXIT_CONFIG);
            }
        }
    }
    let unknown = crate::eval::unknown_exceptions(&cases, &exceptions);
    if !unknown.is_empty() {
        let at: Vec<&str> = unknown.iter().map(|e| e.at.as_str()).collect();
        eprintln!("ladderd: eval: exceptions name no turn of the corpus: {}", at.join(", "));
        return ExitCode::from(EXIT_CONFIG);
    }
    let rt = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("ladderd: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let report = match rt.block_on(crate::eval::evaluate_except(config, cases, &exceptions)) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("ladderd: {e}");
            return ExitCode::from(EXIT_CONFIG);
        }
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&report).unwrap_or_default());
    } else {
        print!("{}", crate::eval::render(&report));
    }
    if report.wrong_executes() > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

fn serve(file: Option<PathBuf>) -> ExitCode {
    let config = match config::load(file.as_deref()) {
        Ok(c) => c,
        Err(e) => {
            eprint!("ladderd: {e}");
            return ExitCode::from(EXIT_CONFIG);
        }
    };
    let rt = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("ladderd: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (code, telemetry) = rt.block_on(async {
        let stop = shutdown_signal();
        let telemetry = crate::telemetry::init(&config.telemetry);
        let app = match App::build_with(config, Some(&telemetry)).await {
            Ok(mut a) => {
                if let Some(path) = file {
                    a.watch_config(path);
                }
                a
            }
            Err(e) => {
                eprintln!("ladderd: {e}");
                let code = ExitCode::from(match e {
                    crate::app::AppError::Start(_) => EXIT_CONFIG,
                    _ => 1,
                });
                return (code, telemetry);
            }
        };
        let code = match app.run_until(stop).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                tracing::error!(error = %e, "server failed");
                ExitCode::FAILURE
            }
        };
        (code, telemetry)
    });
    // Flush spans and metrics on a plain thread with a hard cap (the
    // runtime keeps running the exporters meanwhile): a stuck collector
    // must not hold the exit past Kubernetes' grace period.
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        telemetry.shutdown(FLUSH_CAP);
        let _ = done_tx.send(());
    });
    if done_rx.recv_timeout(FLUSH_CAP + Duration::from_millis(500)).is_err() {
        eprintln!("ladderd: telemetry flush cut off after {} ms", FLUSH_CAP.as_millis() + 500);
    }
    rt.shutdown_timeout(Duration::from_millis(250));
    code
}

/// How long the final telemetry flush may take.
const FLUSH_CAP: Duration = Duration::from_millis(1500);

/// Resolves on SIGTERM or SIGINT. The handlers are registered when this
/// is called, not when it is first polled: a SIGTERM that arrives right
/// after startup must still mean a graceful stop, not the default kill.
fn shutdown_signal() -> impl std::future::Future<Output = ()> + Send {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let term = signal(SignalKind::terminate());
        let int = signal(SignalKind::interrupt());
        async move {
            match (term, int) {
                (Ok(mut term), Ok(mut int)) => {
                    tokio::select! {
                        _ = term.recv() => {}
                        _ = int.recv() => {}
                    }
                }
                _ => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
