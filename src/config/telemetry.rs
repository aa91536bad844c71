//! Live reload (`config_reload.*`), logs, spans and decision records
//! (`telemetry.*`).

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Live reload of the configuration file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ConfigReloadConfig {
    /// How often the file is checked for a change (0: never; SIGHUP still
    /// reloads).
    pub poll_ms: u64,
}

impl Default for ConfigReloadConfig {
    fn default() -> Self {
        ConfigReloadConfig { poll_ms: 1000 }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Redaction {
    Off,
    Hash,
    Drop,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LogFormat {
    Pretty,
    Json,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TelemetryConfig {
    /// How user text appears in spans, logs and decision records.
    pub redact_input: Redaction,
    pub log_format: LogFormat,
    /// A tracing filter directive (`RUST_LOG` overrides it).
    pub log_level: String,
    /// Deprecated: the admin listener's address before `admin.listen`
    /// replaced it (read as `admin.listen`, with a warning at start).
    pub metrics_listen: Option<String>,
    pub decision_log: DecisionLogConfig,
}

impl Default for TelemetryConfig {
    fn default() -> Self {
        TelemetryConfig {
            redact_input: Redaction::Hash,
            log_format: LogFormat::Pretty,
            log_level: "info".into(),
            metrics_listen: None,
            decision_log: DecisionLogConfig::default(),
        }
    }
}

/// Decision records: one JSON line per decision (off when `path` is unset).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DecisionLogConfig {
    pub path: Option<PathBuf>,
    /// The file is rotated at this size ...
    pub max_bytes: u64,
    /// ... keeping this many files in all.
    pub max_files: u32,
}

impl Default for DecisionLogConfig {
    fn default() -> Self {
        DecisionLogConfig { path: None, max_bytes: 64 * 1024 * 1024, max_files: 3 }
    }
}
