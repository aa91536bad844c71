//! What the daemon says and reads: the lexicon, the clarifier, `Clarify`
//! (`clarify.*`) and `Extract` (`extract.*`).

use ladder::assistant::{InvariantRule, MessageType, default_invariants};
use ladder::extract::{Capability, Component};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LexiconConfig {
    /// A lexicon file replacing the shipped one.
    pub path: Option<PathBuf>,
    /// Languages to merge (all in the file when empty).
    pub languages: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClarifierConfig {
    pub max_options: usize,
    pub default_language: String,
    /// A template file replacing the shipped one.
    pub templates_path: Option<PathBuf>,
}

impl Default for ClarifierConfig {
    fn default() -> Self {
        ClarifierConfig { max_options: 5, default_language: "en".into(), templates_path: None }
    }
}

/// `Clarify`: assistant messages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClarifyConfig {
    /// Draft with the LLM when a provider is configured (else templates).
    pub use_llm: bool,
    /// A template file replacing the shipped one.
    pub templates_path: Option<PathBuf>,
    /// Intents whose clarifying question may be a statement (no "?").
    pub slot_filling_intents: Vec<String>,
    /// Region code -> language, for the language chain.
    pub region_languages: BTreeMap<String, String>,
    /// The invariant table, per message type (defaults:
    /// docs/clarify-and-extract.md).
    pub invariants: BTreeMap<MessageType, InvariantRule>,
}

impl Default for ClarifyConfig {
    fn default() -> Self {
        ClarifyConfig {
            use_llm: true,
            templates_path: None,
            slot_filling_intents: Vec::new(),
            region_languages: [("IL", "he"), ("US", "en"), ("GB", "en"), ("IE", "en"), ("AU", "en"), ("NZ", "en"), ("CA", "en")]
                .into_iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            invariants: default_invariants(),
        }
    }
}

/// `Extract`: every hint switch is off by default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ExtractConfig {
    /// The master switch for hints; off, `Extract` is the baseline alone.
    pub enabled: bool,
    pub normalization_hint: bool,
    pub entity_hint: bool,
    /// The built-in hint (the `llm` provider): its budget and sample rate.
    pub hint_timeout_ms: u64,
    pub hint_sample_rate: f64,
    /// Further extractor agents, run concurrently with the built-in hint.
    pub agents: Vec<AgentConfig>,
}

impl Default for ExtractConfig {
    fn default() -> Self {
        ExtractConfig {
            enabled: false,
            normalization_hint: false,
            entity_hint: false,
            hint_timeout_ms: 200,
            hint_sample_rate: 1.0,
            agents: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AgentConfig {
    pub id: String,
    /// Defaults to `llm.base_url` / `llm.model`.
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub api_key_file: Option<PathBuf>,
    /// What it may propose: `normalization`, `entities`.
    pub capabilities: Vec<Capability>,
    /// Intents the agent applies to (all when empty).
    pub intents: Vec<String>,
    pub sample_rate: f64,
    pub timeout_ms: u64,
}

impl Default for AgentConfig {
    fn default() -> Self {
        AgentConfig {
            id: String::new(),
            base_url: None,
            model: None,
            api_key_file: None,
            capabilities: vec![Capability::Normalization, Capability::Entities],
            intents: Vec::new(),
            sample_rate: 1.0,
            timeout_ms: 120,
        }
    }
}

impl AgentConfig {
    /// The agent as the extraction rules see it.
    pub fn component(&self) -> Component {
        Component {
            id: self.id.clone(),
            capabilities: self.capabilities.clone(),
            intents: self.intents.clone(),
            sample_rate: self.sample_rate,
        }
    }
}

impl ExtractConfig {
    /// The built-in hint (component `llm`): every capability, its own
    /// sample rate.
    pub fn builtin_component(&self) -> Component {
        Component {
            id: "llm".into(),
            capabilities: vec![Capability::Normalization, Capability::Entities],
            intents: Vec::new(),
            sample_rate: self.hint_sample_rate,
        }
    }
}
