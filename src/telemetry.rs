//! Logging (and, later, tracing export). Structured logs through
//! `tracing`; pretty or JSON by `telemetry.log_format`; the filter from
//! `RUST_LOG`, else `telemetry.log_level`. User text is never logged at
//! info level.

use crate::config::{LogFormat, TelemetryConfig};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// Installs the global subscriber. Safe to call once per process.
pub fn init_logging(t: &TelemetryConfig) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(&t.log_level));
    let registry = tracing_subscriber::registry().with(filter);
    let result = match t.log_format {
        LogFormat::Json => {
            registry.with(tracing_subscriber::fmt::layer().json().with_current_span(false).with_writer(std::io::stderr)).try_init()
        }
        LogFormat::Pretty => registry.with(tracing_subscriber::fmt::layer().compact().with_writer(std::io::stderr)).try_init(),
    };
    if let Err(e) = result {
        eprintln!("ladderd: logging already initialised: {e}");
    }
}
