//! Configuration: built-in defaults < `ladderd.toml` (`--config` or
//! `LADDER_CONFIG`) < `LADDER_*` environment variables (nested keys split on
//! `__`, e.g. `LADDER_LLM__TIMEOUT_MS`). `load` extracts, then `validate`
//! reports every problem at once, each naming its key.
//!
//! This file holds the whole (`Config`), the loading and the helpers the
//! daemon reads it through; each section's types are in a file of their
//! own: [`server`] (listeners, the admin token, server and input limits),
//! [`llm`], [`sessions`] (and the shared store), [`assistant`] (lexicon,
//! clarifier, `Clarify`, `Extract`), [`telemetry`] (and live reload);
//! [`validate`] checks every section at once. Sections that are the core's
//! settings use the core's types.

mod assistant;
mod llm;
mod semantic;
mod server;
mod sessions;
mod telemetry;
mod validate;

pub use assistant::{AgentConfig, ClarifierConfig, ClarifyConfig, ExtractConfig, LexiconConfig};
pub use llm::{LlmConfig, LlmModeConfig, ResponseFormat, Secret};
pub use semantic::SemanticConfig;
pub use server::{AdminConfig, AdminToken, Limits, ServerConfig, fixed};
pub use sessions::{RedisConfig, SessionBackend, SessionsConfig};
pub use telemetry::{ConfigReloadConfig, DecisionLogConfig, LogFormat, Redaction, TelemetryConfig};

use crate::files;
use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use ladder::assistant::{AssistantPolicy, AssistantTemplates};
use ladder::clarifier::Templates;
use ladder::continuity::Ttl;
use ladder::guardrails::Settings as GuardrailSettings;
use ladder::lexicon::{Lexicon, SHIPPED};
use ladder::matching::MatchParams;
use ladder::policy::{AutoExecute, Budgets, LlmMode, Policy};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;
use std::net::SocketAddr;
use std::path::Path;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    /// gRPC listen address; localhost by default (a sidecar).
    pub listen: String,
    /// The admin listener (health and metrics only) and the token of the
    /// control calls.
    pub admin: AdminConfig,
    pub server: ServerConfig,
    pub limits: Limits,
    pub llm: LlmConfig,
    pub auto_execute: AutoExecute,
    pub continuity: Ttl,
    pub sessions: SessionsConfig,
    pub enrichment: Budgets,
    pub matching: MatchParams,
    pub lexicon: LexiconConfig,
    pub clarifier: ClarifierConfig,
    pub semantic: SemanticConfig,
    pub clarify: ClarifyConfig,
    pub extract: ExtractConfig,
    pub guardrails: GuardrailSettings,
    pub config_reload: ConfigReloadConfig,
    pub telemetry: TelemetryConfig,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: "127.0.0.1:50151".into(),
            admin: AdminConfig::default(),
            server: ServerConfig::default(),
            limits: Limits::default(),
            llm: LlmConfig::default(),
            auto_execute: AutoExecute::default(),
            continuity: Ttl::default(),
            sessions: SessionsConfig::default(),
            enrichment: Budgets::default(),
            matching: MatchParams::default(),
            lexicon: LexiconConfig::default(),
            clarifier: ClarifierConfig::default(),
            semantic: SemanticConfig::default(),
            clarify: ClarifyConfig::default(),
            extract: ExtractConfig::default(),
            guardrails: GuardrailSettings::default(),
            config_reload: ConfigReloadConfig::default(),
            telemetry: TelemetryConfig::default(),
        }
    }
}

/// Every problem found, each naming its key.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError {
    pub problems: Vec<(String, String)>,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "invalid configuration ({} problem{}):", self.problems.len(), if self.problems.len() == 1 { "" } else { "s" })?;
        for (key, why) in &self.problems {
            writeln!(f, "  {key}: {why}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigError {}

/// The layered figment: defaults < the file (its path, and its text as
/// read once) < environment.
pub fn figment(file: Option<(&Path, &str)>) -> Figment {
    let mut f = Figment::from(Serialized::defaults(Config::default()));
    if let Some((path, text)) = file {
        f = f.merge(TomlText { path, text });
    }
    f.merge(Env::prefixed("LADDER_").ignore(&["CONFIG"]).split("__"))
}

/// The configuration file's text, read once by the caller, as figment's
/// TOML file provider gives it: its values name the file they came from.
struct TomlText<'a> {
    path: &'a Path,
    text: &'a str,
}

impl figment::Provider for TomlText<'_> {
    fn metadata(&self) -> figment::Metadata {
        figment::Metadata::from("TOML file", self.path)
    }

    fn data(&self) -> Result<figment::value::Map<figment::Profile, figment::value::Dict>, figment::Error> {
        Toml::string(self.text).data()
    }
}

/// Extracts and validates. `file` comes from `--config` or `LADDER_CONFIG`,
/// read as every file a configuration names is (`files::CONFIG`: a regular
/// file of at most 1 MiB, within 5 s), under the key `config`.
pub fn load(file: Option<&Path>) -> Result<Config, ConfigError> {
    let Some(p) = file else { return from_figment(figment(None)) };
    let text = files::read_text(p, &files::CONFIG).map_err(|e| {
        let why = if e.is_missing() { format!("file {} not found", p.display()) } else { format!("{}: {e}", p.display()) };
        ConfigError { problems: vec![("config".into(), why)] }
    })?;
    parse(p, &text)
}

/// The configuration in `text`, the content of the file at `path` (read
/// by the caller: `load` at start, the watcher on a reload), extracted
/// and validated with the environment on top.
pub fn parse(path: &Path, text: &str) -> Result<Config, ConfigError> {
    // A syntax error is the whole file's: said once, with the file
    // (figment would repeat it for every section it reads).
    if let Err(e) = text.parse::<toml::Table>() {
        let why = e.to_string().trim_end().replace('\n', "\n    ");
        return Err(ConfigError { problems: vec![("config".into(), format!("{}: TOML syntax error: {why}", path.display()))] });
    }
    from_figment(figment(Some((path, text))))
}

/// The problems of one section that did not extract, field by field: each
/// value given for it is tried alone over the defaults, so every bad field
/// is reported (serde stops at the first), each once, with where it came
/// from (the file, or the environment variable).
fn section_problems<T: serde::de::DeserializeOwned>(_like: &T, f: &Figment, section: &str, whole: figment::Error) -> Vec<(String, String)> {
    let Ok(given) = f.extract_inner::<figment::value::Dict>(section) else { return describe(whole, section, f) };
    let mut out = Vec::new();
    for (field, value) in given {
        let path = format!("{section}.{field}");
        let alone = Figment::from(Serialized::defaults(Config::default())).merge(Serialized::default(&path, value));
        if let Err(e) = alone.extract_inner::<T>(section) {
            for (key, why) in describe(e, section, f) {
                // An unknown field is reported under the section; name it.
                let key = if key == section { path.clone() } else { key };
                out.push((key, why));
            }
        }
    }
    if out.is_empty() { describe(whole, section, f) } else { out }
}

pub fn from_figment(f: Figment) -> Result<Config, ConfigError> {
    match f.extract::<Config>() {
        Ok(config) => {
            config.validate()?;
            Ok(config)
        }
        // serde stops at the first bad value; extract section by section
        // so every section's problem is reported, plus the semantic checks
        // of the sections that did parse.
        Err(first) => {
            let mut problems = Vec::new();
            let mut c = Config::default();
            macro_rules! section {
                ($($key:literal => $field:ident),* $(,)?) => {$(
                    match f.extract_inner(concat!($key)) {
                        Ok(v) => c.$field = v,
                        Err(e) => problems.extend(section_problems(&c.$field, &f, $key, e)),
                    }
                )*};
            }
            section!(
                "listen" => listen, "admin" => admin, "server" => server, "limits" => limits, "llm" => llm,
                "auto_execute" => auto_execute, "continuity" => continuity, "sessions" => sessions,
                "enrichment" => enrichment, "matching" => matching, "lexicon" => lexicon,
                "clarifier" => clarifier, "semantic" => semantic, "clarify" => clarify, "extract" => extract, "guardrails" => guardrails,
                "config_reload" => config_reload, "telemetry" => telemetry,
            );
            if problems.is_empty() {
                // An unknown top-level key, or something only the whole sees.
                problems.extend(describe(first, "", &f));
            }
            if let Err(more) = c.validate() {
                for p in more.problems {
                    if !problems.iter().any(|(k, _)| *k == p.0 || p.0.starts_with(&format!("{k}."))) {
                        problems.push(p);
                    }
                }
            }
            Err(ConfigError { problems })
        }
    }
}

fn describe(errors: figment::Error, section: &str, f: &Figment) -> Vec<(String, String)> {
    let mut seen = std::collections::BTreeSet::new();
    errors
        .into_iter()
        .map(|e| {
            // Inside `extract_inner`, figment reports the section name among
            // the path elements; rebuild "section.field".
            let rest: Vec<&str> = e.path.iter().map(String::as_str).filter(|p| *p != section).collect();
            let key = match (section.is_empty(), rest.is_empty()) {
                (true, true) => "config".to_string(),
                (true, false) => rest.join("."),
                (false, true) => section.to_string(),
                (false, false) => format!("{section}.{}", rest.join(".")),
            };
            (key, e.kind.to_string())
        })
        .filter(|p| seen.insert(p.clone()))
        .map(|(key, why)| {
            let origin = origin(f, &key).map(|o| format!(" (from {o})")).unwrap_or_default();
            (key, format!("{why}{origin}"))
        })
        .collect()
}

/// Where the value of `key` came from: the file, or the environment
/// variable that set it.
fn origin(f: &Figment, key: &str) -> Option<String> {
    let m = f.find_metadata(key)?;
    if m.name.contains("environment") {
        return Some(format!("LADDER_{}", key.to_uppercase().replace('.', "__")));
    }
    match &m.source {
        Some(figment::Source::File(p)) => Some(p.display().to_string()),
        _ if m.name.contains("Serialized") || m.name.contains("default") => None,
        _ => Some(m.name.to_string()),
    }
}

impl Config {
    fn lexicon(&self) -> Result<Lexicon, String> {
        let text = match &self.lexicon.path {
            Some(path) => files::read_text_at(path, &files::LEXICON)?,
            None => SHIPPED.to_string(),
        };
        Lexicon::from_toml(&text, &self.lexicon.languages).map_err(|e| e.to_string())
    }

    /// The key a lexicon that cannot be built is reported under (as
    /// `validate` does).
    fn lexicon_key(&self) -> &'static str {
        if self.lexicon.path.is_some() { "lexicon.path" } else { "lexicon.languages" }
    }

    fn templates(&self) -> Result<Templates, String> {
        match &self.clarifier.templates_path {
            Some(path) => Templates::from_toml(&files::read_text_at(path, &files::TEMPLATES)?),
            None => Ok(Templates::shipped()),
        }
    }

    /// The model the clarifier ranks with: `None` when `semantic.enabled`
    /// is false; the shipped one unless `semantic.model` names a file.
    fn meaning(&self) -> Result<Option<ladder::meaning::Meaning>, String> {
        if !self.semantic.enabled {
            return Ok(None);
        }
        match &self.semantic.model {
            Some(path) => crate::meaning::load(path).map(Some),
            None => crate::meaning::shipped().map(Some),
        }
    }

    pub fn assistant_templates(&self) -> Result<AssistantTemplates, String> {
        match &self.clarify.templates_path {
            Some(path) => AssistantTemplates::from_toml(&files::read_text_at(path, &files::TEMPLATES)?),
            None => Ok(AssistantTemplates::shipped()),
        }
    }

    pub fn listen_addr(&self) -> SocketAddr {
        self.listen.parse().unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 50151)))
    }

    /// The admin listener's address: `admin.listen`, or the deprecated
    /// `telemetry.metrics_listen` it replaced (which now serves health
    /// too). `None`: no admin listener.
    pub fn admin_listen_addr(&self) -> Option<SocketAddr> {
        self.admin.listen.as_ref().or(self.telemetry.metrics_listen.as_ref()).and_then(|a| a.parse().ok())
    }

    /// Short, stable hash of the effective configuration (secrets included
    /// only as hashes), reported on every decision.
    pub fn revision(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_default();
        hex::encode(&Sha256::digest(json.as_bytes())[..6])
    }

    /// The configuration as TOML with secrets masked (`ladderd config`).
    pub fn masked_toml(&self) -> String {
        let mut c = self.clone();
        if let Some(k) = c.llm.api_key.as_mut() {
            k.0 = "***".into();
        }
        if let Some(u) = c.sessions.redis.url.as_mut() {
            u.0 = "***".into();
        }
        toml::to_string_pretty(&c).unwrap_or_else(|e| format!("# cannot render: {e}"))
    }

    /// The ladder's policy. Call only on a validated config.
    pub fn policy(&self) -> Result<Policy, ConfigError> {
        let one = |k: &str, e: String| ConfigError { problems: vec![(k.to_string(), e)] };
        Ok(Policy {
            lexicon: self.lexicon().map_err(|e| one(self.lexicon_key(), e))?,
            matching: self.matching.clone(),
            llm_mode: match (&self.llm.base_url, self.llm.mode) {
                (None, _) => LlmMode::Off,
                (Some(_), LlmModeConfig::Live) => LlmMode::Live,
                (Some(_), LlmModeConfig::Shadow) => LlmMode::Shadow,
            },
            llm_confidence_min: self.llm.confidence_min,
            llm_max_candidates: self.llm.max_candidates,
            auto_execute: self.auto_execute.clone(),
            ttl: self.continuity,
            budgets: self.enrichment,
            clarifier_max_options: self.clarifier.max_options,
            templates: self.templates().map_err(|e| one("clarifier.templates_path", e))?,
            default_language: self.clarifier.default_language.clone(),
            meaning: self.meaning().map_err(|e| one("semantic.model", e))?,
            assistant: AssistantPolicy {
                templates: self.assistant_templates().map_err(|e| one("clarify.templates_path", e))?,
                invariants: self.clarify.invariants.clone(),
                slot_filling_intents: self.clarify.slot_filling_intents.clone(),
                region_languages: self.clarify.region_languages.iter().map(|(k, v)| (k.to_ascii_uppercase(), v.clone())).collect(),
            },
            revision: self.revision(),
        })
    }
}

#[cfg(test)]
mod tests;
