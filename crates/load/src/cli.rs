//! The command line: the subcommands (`echo`, `fake-llm`), the run's
//! flags, and the input kinds a run sends.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Parser)]
#[command(name = "ladderd-load", about = "Load generator for ladderd, with an echo baseline.", args_conflicts_with_subcommands = true)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Option<Cmd>,
    #[command(flatten)]
    pub(crate) run: RunArgs,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Cmd {
    /// Serve the echo baseline: the Arbiter service answering every call
    /// with an empty message, without any work, behind the daemon's own
    /// transport (its listener, HTTP/2 settings and tower stack, intake
    /// included) under the daemon's configuration (defaults and LADDER_*).
    Echo {
        #[arg(long, default_value = "127.0.0.1:0")]
        listen: String,
        /// Behind tonic's default server instead (TCP_NODELAY and the
        /// decoding limit only): what the daemon's transport costs on its
        /// own is the difference.
        #[arg(long)]
        plain: bool,
    },
    /// Serve the instant fake OpenAI-compatible provider.
    FakeLlm {
        #[arg(long, default_value = "127.0.0.1:0")]
        listen: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, ValueEnum)]
pub(crate) enum InputKind {
    /// "Links Panel D": an exact label match (EXECUTE).
    Exact,
    /// "the second one": an ordinal (EXECUTE).
    Ordinal,
    /// "links panel": matches Links Panel D and E, no winner (CLARIFY, or
    /// the LLM rung with --fake-llm).
    Unresolved,
    /// "lnks panle": only fuzzy hits, every label scored (CLARIFY).
    Fuzzy,
    /// exact, ordinal, unresolved and fuzzy in turn.
    Mix,
}

impl InputKind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            InputKind::Exact => "exact",
            InputKind::Ordinal => "ordinal",
            InputKind::Unresolved => "unresolved",
            InputKind::Fuzzy => "fuzzy",
            InputKind::Mix => "mix",
        }
    }
    pub(crate) fn texts(self) -> &'static [&'static str] {
        match self {
            InputKind::Exact => &["Links Panel D"],
            InputKind::Ordinal => &["the second one"],
            InputKind::Unresolved => &["links panel"],
            InputKind::Fuzzy => &["lnks panle"],
            InputKind::Mix => &["Links Panel D", "the second one", "links panel", "lnks panle"],
        }
    }
}

#[derive(Debug, Clone, Args)]
pub(crate) struct RunArgs {
    /// A running daemon (host:port). Without it the tool starts --daemon-bin.
    #[arg(long)]
    pub(crate) target: Option<String>,
    /// The daemon binary to start.
    #[arg(long, default_value = "target/release/ladderd")]
    pub(crate) daemon_bin: PathBuf,
    /// Extra environment for the started daemon (repeatable), e.g.
    /// LADDER_SERVER__MAX_CONCURRENT_REQUESTS=16.
    #[arg(long = "daemon-env", value_name = "KEY=VALUE")]
    pub(crate) daemon_env: Vec<String>,
    /// PID of a daemon given with --target, for RSS sampling.
    #[arg(long)]
    pub(crate) daemon_pid: Option<u32>,
    /// CPUs for the started daemon and echo (taskset -c syntax: "0", "0-1").
    #[arg(long)]
    pub(crate) daemon_cpu: Option<String>,
    /// CPUs for this process (the client), set with taskset before the
    /// runtime starts.
    #[arg(long)]
    pub(crate) client_cpu: Option<String>,
    /// A running echo server (host:port). Without it the tool starts one.
    #[arg(long)]
    pub(crate) echo_target: Option<String>,
    /// Skip the echo baseline.
    #[arg(long)]
    pub(crate) no_echo: bool,
    /// The echo behind tonic's default server instead of the daemon's
    /// transport (listener, HTTP/2 settings, tower stack with the intake):
    /// the difference is what that transport costs on its own.
    #[arg(long)]
    pub(crate) echo_plain: bool,
    /// Concurrent calls in flight (closed loop), one run per value.
    #[arg(long, value_delimiter = ',', default_value = "1,16,64")]
    pub(crate) concurrency: Vec<usize>,
    /// Candidates per request, one run per value.
    #[arg(long, value_delimiter = ',', default_value = "100")]
    pub(crate) pools: Vec<usize>,
    /// Input kinds, one run per value.
    #[arg(long, value_delimiter = ',', value_enum, default_value = "exact")]
    pub(crate) inputs: Vec<InputKind>,
    /// Measured time per run ("10s", "300s", "5m", "500ms").
    #[arg(long, default_value = "10s", value_parser = parse_duration)]
    pub(crate) duration: Duration,
    /// Calls per run instead of --duration.
    #[arg(long)]
    pub(crate) requests: Option<u64>,
    /// Unmeasured calls before each run, same settings.
    #[arg(long, default_value = "2s", value_parser = parse_duration)]
    pub(crate) warmup: Duration,
    /// HTTP/2 connections the workers share (round robin).
    #[arg(long, default_value_t = 1)]
    pub(crate) connections: usize,
    /// Distinct session ids, used in turn (0: a new session per call).
    #[arg(long, default_value_t = 1000)]
    pub(crate) sessions: u64,
    /// Deadline of every call (grpc-timeout).
    #[arg(long, default_value = "1500ms", value_parser = parse_duration)]
    pub(crate) timeout: Duration,
    /// Start an instant fake OpenAI-compatible provider here and point the
    /// started daemon at it (unresolved inputs then call the LLM rung; each
    /// such call carries a fresh option_set_id so the loop guard does not
    /// stop repeats).
    #[arg(long)]
    pub(crate) fake_llm: bool,
    /// Every call carries a new option set: a new option_set_id and new
    /// candidate ids over the same labels, as when the app shows the
    /// products, rooms or actions it showed before on a new screen (each
    /// tie is then new evidence).
    #[arg(long)]
    pub(crate) fresh_options: bool,
    /// As --fresh-options, and every label new too: each ends with a number
    /// no earlier call had.
    #[arg(long, conflicts_with = "fresh_options")]
    pub(crate) fresh_labels: bool,
    /// Pool reuse: send each session's pool once with `options.version`
    /// before the run, then measure calls that refer to it by reference
    /// (no candidates on the wire). Needs --sessions > 0, and --sessions x
    /// the pool within the daemon's `sessions.pool_cache_candidates`.
    #[arg(long)]
    pub(crate) pool_reuse: bool,
    /// After the closed-loop runs: offer --overload-factor x the sustainable
    /// rate open loop and report shedding (per pool and input).
    #[arg(long)]
    pub(crate) overload: bool,
    #[arg(long, default_value_t = 2.0)]
    pub(crate) overload_factor: f64,
    /// Offer this many calls per second open loop instead of the closed
    /// loop (one run per pool and input).
    #[arg(long)]
    pub(crate) rate: Option<f64>,
    /// RSS sampling period of the daemon process.
    #[arg(long, default_value = "1s", value_parser = parse_duration)]
    pub(crate) rss_interval: Duration,
    /// Write the results as JSON to this file ("-": stdout).
    #[arg(long)]
    pub(crate) json: Option<PathBuf>,
}

fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, unit) = s.find(|c: char| !(c.is_ascii_digit() || c == '.')).map_or((s, "s"), |i| (&s[..i], &s[i..]));
    let n: f64 = num.parse().map_err(|_| format!("not a duration: {s:?} (e.g. 10s, 500ms, 5m)"))?;
    let secs = match unit {
        "ms" => n / 1000.0,
        "s" | "" => n,
        "m" | "min" => n * 60.0,
        _ => return Err(format!("unknown unit in {s:?} (ms, s, m)")),
    };
    Ok(Duration::from_secs_f64(secs))
}
