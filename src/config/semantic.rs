//! Ranking by meaning (`semantic.*`; docs/meaning.md).

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SemanticConfig {
    /// Rank the clarifier's options by meaning too (the model never decides
    /// an execute: S8).
    pub enabled: bool,
    /// Another model file; unset: the model shipped with the daemon.
    pub model: Option<PathBuf>,
}

impl Default for SemanticConfig {
    fn default() -> Self {
        SemanticConfig { enabled: true, model: None }
    }
}
