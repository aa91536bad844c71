//! The LLM provider (`llm.*`), and the secret type that never prints.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::PathBuf;

/// A secret that never prints.
#[derive(Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(pub String);

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_empty() { "\"\"" } else { "\"***\"" })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResponseFormat {
    /// `json_schema` with `choice_id` an enum of the pool's ids (OpenAI,
    /// vLLM, llama.cpp server).
    JsonSchema,
    /// `json_object` (Ollama's OpenAI endpoint and others without schemas).
    JsonObject,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LlmModeConfig {
    Live,
    Shadow,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LlmConfig {
    /// OpenAI-compatible base URL (".../v1"). Unset: the LLM rung is off.
    pub base_url: Option<String>,
    pub model: Option<String>,
    /// Sent as `Authorization: Bearer`. Never logged.
    pub api_key: Option<Secret>,
    /// Read the API key from this file instead (a mounted Kubernetes secret).
    pub api_key_file: Option<PathBuf>,
    pub timeout_ms: u64,
    pub confidence_min: f32,
    pub mode: LlmModeConfig,
    pub response_format: ResponseFormat,
    /// At most this many candidates are shown to the model: the closest in
    /// meaning when the clarifier ranks by meaning (`semantic.*`).
    pub max_candidates: usize,
    /// LLM calls in flight at once; when full the rung is skipped.
    pub max_concurrency: usize,
    /// 0 (default) or 1: one retry, only when the budget clearly allows it.
    pub max_retries: u32,
    /// Consecutive failures that open the circuit breaker (0 disables it).
    pub breaker_failures: u32,
    pub breaker_cooldown_ms: u64,
    /// Kept from the caller's deadline to build the clarifier.
    pub deadline_margin_ms: u64,
    pub max_tokens: u32,
    /// A provider's answer over this many bytes is cut off and counts as a
    /// transport error (an endless or huge body never costs more memory).
    pub max_response_bytes: usize,
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            base_url: None,
            model: None,
            api_key: None,
            api_key_file: None,
            timeout_ms: 800,
            confidence_min: 0.6,
            mode: LlmModeConfig::Live,
            response_format: ResponseFormat::JsonSchema,
            max_candidates: 50,
            max_concurrency: 32,
            max_retries: 0,
            breaker_failures: 5,
            breaker_cooldown_ms: 10_000,
            deadline_margin_ms: 20,
            max_tokens: 128,
            max_response_bytes: 256 * 1024,
        }
    }
}
