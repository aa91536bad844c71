//! Configuration: built-in defaults < `ladderd.toml` (`--config` or
//! `LADDER_CONFIG`) < `LADDER_*` environment variables (nested keys split on
//! `__`, e.g. `LADDER_LLM__TIMEOUT_MS`). `load` extracts, then `validate`
//! reports every problem at once, each naming its key.

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use ladder::assistant::{AssistantPolicy, AssistantTemplates, InvariantRule, MessageType, default_invariants};
use ladder::clarifier::Templates;
use ladder::continuity::Ttl;
use ladder::extract::{Capability, Component};
use ladder::guardrails::Settings as GuardrailSettings;
use ladder::lexicon::{Lexicon, SHIPPED};
use ladder::matching::MatchParams;
use ladder::policy::{AutoExecute, Budgets, LlmMode, NEVER_AUTO_EXECUTE, Policy};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fmt;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

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
            clarify: ClarifyConfig::default(),
            extract: ExtractConfig::default(),
            guardrails: GuardrailSettings::default(),
            config_reload: ConfigReloadConfig::default(),
            telemetry: TelemetryConfig::default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerConfig {
    /// Requests admitted at once; more are shed with RESOURCE_EXHAUSTED.
    pub max_concurrent_requests: usize,
    /// Upper bound of a request's deadline (a shorter `grpc-timeout` wins).
    pub request_timeout_ms: u64,
    /// Largest decoded request message.
    pub max_message_bytes: usize,
    /// How long in-flight calls may finish after SIGTERM.
    pub drain_grace_ms: u64,
    /// Streams one HTTP/2 connection may have open at once (advertised as
    /// SETTINGS_MAX_CONCURRENT_STREAMS): bounds what one client can hold,
    /// including answers it never reads.
    pub max_streams_per_connection: u32,
    /// A request's whole body must arrive within this long of its headers.
    pub body_timeout_ms: u64,
    /// Client connections held at once; past it the least recently active
    /// one is closed to let a new one in.
    pub max_connections: usize,
    /// Memory the requests in flight may take, their bytes as received
    /// and decoded (bounded before decoding by counting their lists on the
    /// wire); past it a request is refused with RESOURCE_EXHAUSTED.
    pub request_memory_bytes: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            max_concurrent_requests: 256,
            request_timeout_ms: 5_000,
            max_message_bytes: 4 * 1024 * 1024,
            drain_grace_ms: 1_000,
            max_streams_per_connection: 100,
            body_timeout_ms: 1_000,
            max_connections: 1_024,
            request_memory_bytes: 64 * 1024 * 1024,
        }
    }
}

/// The admin listener and the token of the control calls.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AdminConfig {
    /// Serves `grpc.health.v1.Health` and Prometheus text at `/metrics`,
    /// nothing else (the port kubelet's probes and a scraper may reach);
    /// off when unset.
    pub listen: Option<String>,
    /// A file holding the token that lets a caller off loopback make the
    /// control calls (`ResetRollout`, `ResetSession`, `RecordOutcome`,
    /// `GetSession`), sent as `authorization: Bearer <token>`. Unset: only
    /// callers on loopback may make them.
    pub token_file: Option<PathBuf>,
}

/// The admin token, held only as its SHA-256 digest: the token itself is
/// never kept, printed or logged, and comparing digests takes the same time
/// whatever the length of what a caller sends.
#[derive(Clone, PartialEq, Eq)]
pub struct AdminToken([u8; 32]);

impl AdminToken {
    /// Shortest token accepted: a guessable one would protect nothing.
    pub const MIN_LEN: usize = 16;
    /// Longest token accepted (it travels in a header).
    pub const MAX_LEN: usize = 4096;

    /// A token from the text of a token file (surrounding whitespace, such
    /// as the newline `echo` leaves, is not part of it). The error says
    /// what is wrong, never what the file holds.
    pub fn parse(text: &str) -> Result<AdminToken, String> {
        let t = text.trim();
        if t.len() < Self::MIN_LEN || t.len() > Self::MAX_LEN {
            return Err(format!("must hold a token of {} to {} characters (has {})", Self::MIN_LEN, Self::MAX_LEN, t.len()));
        }
        // It is sent as an HTTP/2 header value after "Bearer ".
        if !t.bytes().all(|b| b.is_ascii_graphic()) {
            return Err("the token must be printable ASCII without spaces (it is sent in the authorization header)".into());
        }
        Ok(AdminToken(Sha256::digest(t.as_bytes()).into()))
    }

    /// The token's SHA-256 digest.
    pub fn digest(&self) -> &[u8; 32] {
        &self.0
    }
}

impl fmt::Debug for AdminToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AdminToken(***)")
    }
}

impl AdminConfig {
    /// Reads `admin.token_file` (at start and on every reload). The error
    /// names the file, never its content.
    pub fn token(&self) -> Result<Option<AdminToken>, String> {
        let Some(path) = &self.token_file else { return Ok(None) };
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        AdminToken::parse(&text).map(Some).map_err(|why| format!("{}: {why}", path.display()))
    }
}

/// Input limits, checked at the edge before any work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    pub session_id_max_bytes: usize,
    pub turn_id_max_bytes: usize,
    pub input_max_bytes: usize,
    pub candidate_id_max_bytes: usize,
    pub label_max_bytes: usize,
    pub aliases_max: usize,
    pub pool_max: usize,
    pub excerpt_max_bytes: usize,
    pub evidence_blocks_max: usize,
    pub labels_max: usize,
    pub chat_history_max: usize,
    /// The matching work one `Decide` or `Enrich` may ask for: input words
    /// times pool words (`ladder::deadline::work`).
    pub match_work_max: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            session_id_max_bytes: 128,
            turn_id_max_bytes: 128,
            input_max_bytes: 4096,
            candidate_id_max_bytes: 256,
            label_max_bytes: 512,
            aliases_max: 32,
            pool_max: 5000,
            excerpt_max_bytes: 16 * 1024,
            evidence_blocks_max: 8,
            labels_max: 16,
            chat_history_max: 32,
            match_work_max: 1_000_000,
        }
    }
}

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
    /// At most this many candidates are shown to the model.
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
            max_candidates: 12,
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SessionsConfig {
    /// Sessions held at most; the least recently used is evicted.
    pub max: usize,
    /// A session untouched this long is dropped.
    pub idle_ttl_seconds: u64,
    /// An unresolved cycle keeps its request for `Enrich` only up to this
    /// many candidates (memory bound); larger cycles must be re-decided.
    pub max_cycle_candidates: usize,
    /// Candidates held by the requests of open cycles, all sessions
    /// together; past it a new cycle is not kept for `Enrich` (memory bound:
    /// about 200 bytes a candidate).
    pub cycle_candidates_budget: usize,
    /// Candidates held for pool reuse across all sessions (least recently
    /// used sets go first). With the `redis` backend: per session.
    pub pool_cache_candidates: usize,
    /// Bytes of the candidates open cycles keep for `Enrich`, all sessions
    /// together (`Candidate::approx_bytes`): past it a new cycle is not kept.
    pub cycle_bytes_budget: usize,
    /// Bytes of the candidates held for pool reuse, all sessions together.
    pub pool_cache_bytes: usize,
    /// Where sessions live: `memory` (this process) or `redis` (shared by
    /// every replica; `sessions.redis`).
    pub backend: SessionBackend,
    /// The shared store, used when `backend = "redis"`.
    pub redis: RedisConfig,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionBackend {
    #[default]
    Memory,
    Redis,
}

/// The Redis / Valkey store (`sessions.backend = "redis"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RedisConfig {
    /// `redis://[user:password@]host:port[/db]`, or `rediss://` for TLS.
    /// A secret (it may hold the password): never logged.
    pub url: Option<Secret>,
    /// Read the URL from this file instead (a mounted Kubernetes secret:
    /// managed Redis / Valkey services hand out the whole URL).
    pub url_file: Option<PathBuf>,
    /// Read the password from this file instead of the URL (a mounted
    /// Kubernetes secret).
    pub password_file: Option<PathBuf>,
    /// Every key starts with this (several deployments can share a server).
    pub key_prefix: String,
    /// Every store call gives up after this long; what needs the state then
    /// degrades to the safe side.
    pub timeout_ms: u64,
    /// Multiplexed connections per replica (each carries any number of
    /// calls at once). Standalone only: a Cluster connection keeps one per
    /// node.
    pub pool_size: usize,
    /// The URL names a node of a Redis / Valkey Cluster: the slots are
    /// discovered from it and each session's script goes to the node that
    /// holds its hash tag.
    pub cluster: bool,
    /// Consecutive calls that got no answer (timeouts, lost connections)
    /// after which calls skip the store for `breaker_cooldown_ms`, as if
    /// it were unreachable (0: never skip).
    pub breaker_failures: u32,
    /// How long calls skip the store once the breaker opened; a background
    /// probe asks it once per cool-down and closes the breaker when it
    /// answers. Also how often idle connections are checked.
    pub breaker_cooldown_ms: u64,
}

impl Default for RedisConfig {
    fn default() -> Self {
        RedisConfig {
            url: None,
            url_file: None,
            password_file: None,
            key_prefix: "ladderd:".into(),
            timeout_ms: 50,
            pool_size: 2,
            cluster: false,
            breaker_failures: 3,
            breaker_cooldown_ms: 1_000,
        }
    }
}

impl Default for SessionsConfig {
    fn default() -> Self {
        SessionsConfig {
            max: 100_000,
            idle_ttl_seconds: 1_800,
            max_cycle_candidates: 1_000,
            cycle_candidates_budget: 200_000,
            pool_cache_candidates: 200_000,
            cycle_bytes_budget: 64 * 1024 * 1024,
            pool_cache_bytes: 64 * 1024 * 1024,
            backend: SessionBackend::Memory,
            redis: RedisConfig::default(),
        }
    }
}

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
    /// The invariant table, per message type (spec defaults).
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

impl RedisConfig {
    /// What is wrong with the Redis settings, each with its key. The URL and
    /// the password file are only required with the `redis` backend, but
    /// checked whenever they are set.
    fn problems(&self, backend: SessionBackend) -> Vec<(&'static str, String)> {
        let mut p = Vec::new();
        let from_file = match &self.url_file {
            Some(_) if self.url.is_some() => {
                p.push(("sessions.redis.url_file", "set sessions.redis.url or sessions.redis.url_file, not both".to_string()));
                None
            }
            Some(f) => match std::fs::read_to_string(f) {
                Ok(u) => Some(u.trim().to_string()),
                Err(e) => {
                    p.push(("sessions.redis.url_file", format!("{}: {e}", f.display())));
                    None
                }
            },
            None => None,
        };
        let (key, url) = match (&self.url, from_file) {
            (Some(Secret(u)), _) => ("sessions.redis.url", Some(u.clone())),
            (None, Some(u)) => ("sessions.redis.url_file", Some(u)),
            (None, None) => ("sessions.redis.url", None),
        };
        match url {
            None if backend == SessionBackend::Redis && self.url_file.is_none() => {
                p.push(("sessions.redis.url", "required when sessions.backend is \"redis\" (or sessions.redis.url_file)".to_string()))
            }
            None => {}
            // The URL is a secret: say what is wrong with it, never what it is.
            Some(u) => match reqwest::Url::parse(&u) {
                Ok(url) if !matches!(url.scheme(), "redis" | "rediss") => {
                    p.push((key, format!("scheme {:?} is not redis:// or rediss://", url.scheme())))
                }
                Ok(url) if url.host_str().is_none_or(str::is_empty) => p.push((key, "has no host".to_string())),
                Ok(url) if url.password().is_some() && self.password_file.is_some() => {
                    p.push(("sessions.redis.password_file", "the URL has a password already; set one or the other".to_string()))
                }
                Ok(_) => {}
                Err(e) => p.push((key, format!("not a URL ({e}); expected redis://host:port or rediss://host:port"))),
            },
        }
        if let Some(f) = &self.password_file
            && !f.is_file()
        {
            p.push(("sessions.redis.password_file", format!("{} is not a readable file", f.display())));
        }
        if self.key_prefix.contains(['{', '}']) {
            // Braces would change the hash tag that keeps a session on one
            // Cluster slot.
            p.push(("sessions.redis.key_prefix", "must not contain '{' or '}'".to_string()));
        }
        if !(1..=10_000).contains(&self.timeout_ms) {
            p.push(("sessions.redis.timeout_ms", "must be between 1 and 10000".to_string()));
        }
        if !(1..=64).contains(&self.pool_size) {
            p.push(("sessions.redis.pool_size", "must be between 1 and 64".to_string()));
        }
        if !(100..=60_000).contains(&self.breaker_cooldown_ms) {
            p.push(("sessions.redis.breaker_cooldown_ms", "must be between 100 and 60000".to_string()));
        }
        p
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

/// The layered figment: defaults < file < environment.
pub fn figment(file: Option<&Path>) -> Figment {
    let mut f = Figment::from(Serialized::defaults(Config::default()));
    if let Some(path) = file {
        f = f.merge(Toml::file_exact(path));
    }
    f.merge(Env::prefixed("LADDER_").ignore(&["CONFIG"]).split("__"))
}

/// Extracts and validates. `file` comes from `--config` or `LADDER_CONFIG`.
pub fn load(file: Option<&Path>) -> Result<Config, ConfigError> {
    if let Some(p) = file {
        if !p.is_file() {
            return Err(ConfigError { problems: vec![("config".into(), format!("file {} not found", p.display()))] });
        }
        // A syntax error is the whole file's: said once, with the file
        // (figment would repeat it for every section it reads).
        let text =
            std::fs::read_to_string(p).map_err(|e| ConfigError { problems: vec![("config".into(), format!("{}: {e}", p.display()))] })?;
        if let Err(e) = text.parse::<toml::Table>() {
            let why = e.to_string().trim_end().replace('\n', "\n    ");
            return Err(ConfigError { problems: vec![("config".into(), format!("{}: TOML syntax error: {why}", p.display()))] });
        }
    }
    from_figment(figment(file))
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
                "clarifier" => clarifier, "clarify" => clarify, "extract" => extract, "guardrails" => guardrails,
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

/// Whether two listeners would need the same socket (port 0 never does).
fn same_socket(a: SocketAddr, b: SocketAddr) -> bool {
    a.port() == b.port() && a.port() != 0 && (a.ip() == b.ip() || a.ip().is_unspecified() || b.ip().is_unspecified())
}

impl Config {
    /// Semantic checks, all at once.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let mut p: Vec<(String, String)> = Vec::new();
        let mut bad = |k: &str, why: String| p.push((k.to_string(), why));
        if self.listen.parse::<SocketAddr>().is_err() {
            bad("listen", format!("{:?} is not an address like 127.0.0.1:50151", self.listen));
        }
        if let Some(a) = &self.admin.listen {
            match a.parse::<SocketAddr>() {
                Err(_) => bad("admin.listen", format!("{a:?} is not an address like 0.0.0.0:50152")),
                Ok(admin) if self.listen.parse::<SocketAddr>().is_ok_and(|l| same_socket(l, admin)) => {
                    bad("admin.listen", format!("{a:?} is the data port's address (listen); give the admin listener a port of its own"))
                }
                Ok(_) => {}
            }
        }
        if let Err(why) = self.admin.token() {
            bad("admin.token_file", why);
        }
        let s = &self.server;
        if s.max_concurrent_requests == 0 {
            bad("server.max_concurrent_requests", "must be at least 1".into());
        }
        if s.request_timeout_ms == 0 {
            bad("server.request_timeout_ms", "must be at least 1".into());
        }
        if s.max_message_bytes < 1024 {
            bad("server.max_message_bytes", "must be at least 1024".into());
        }
        if s.max_streams_per_connection == 0 {
            bad("server.max_streams_per_connection", "must be at least 1".into());
        }
        if s.body_timeout_ms == 0 {
            bad("server.body_timeout_ms", "must be at least 1".into());
        }
        if s.max_connections == 0 {
            bad("server.max_connections", "must be at least 1".into());
        }
        if s.request_memory_bytes < 2 * s.max_message_bytes {
            bad(
                "server.request_memory_bytes",
                format!(
                    "must be at least twice server.max_message_bytes ({}): a message is held as received and decoded",
                    s.max_message_bytes
                ),
            );
        }
        if s.drain_grace_ms > 30_000 {
            bad("server.drain_grace_ms", "must be at most 30000 (Kubernetes kills a sidecar soon after the app exits)".into());
        }
        let l = &self.limits;
        for (k, v) in [
            ("limits.session_id_max_bytes", l.session_id_max_bytes),
            ("limits.turn_id_max_bytes", l.turn_id_max_bytes),
            ("limits.input_max_bytes", l.input_max_bytes),
            ("limits.candidate_id_max_bytes", l.candidate_id_max_bytes),
            ("limits.label_max_bytes", l.label_max_bytes),
            ("limits.pool_max", l.pool_max),
            ("limits.excerpt_max_bytes", l.excerpt_max_bytes),
            ("limits.evidence_blocks_max", l.evidence_blocks_max),
        ] {
            if v == 0 {
                bad(k, "must be at least 1".into());
            }
        }
        let llm = &self.llm;
        if let Some(url) = &llm.base_url {
            match reqwest::Url::parse(url) {
                Ok(u) if matches!(u.scheme(), "http" | "https") => {}
                _ => bad("llm.base_url", format!("{url:?} is not an http(s) URL")),
            }
            if llm.model.as_deref().unwrap_or("").is_empty() {
                bad("llm.model", "required when llm.base_url is set".into());
            }
        }
        if llm.api_key.is_some() && llm.api_key_file.is_some() {
            bad("llm.api_key_file", "set llm.api_key or llm.api_key_file, not both".into());
        }
        if let Some(f) = &llm.api_key_file
            && !f.is_file()
        {
            bad("llm.api_key_file", format!("{} is not a readable file", f.display()));
        }
        if !(1..=60_000).contains(&llm.timeout_ms) {
            bad("llm.timeout_ms", "must be between 1 and 60000".into());
        }
        if !(0.0..=1.0).contains(&llm.confidence_min) {
            bad("llm.confidence_min", "must be between 0 and 1".into());
        }
        if llm.max_candidates == 0 || llm.max_candidates > 100 {
            bad("llm.max_candidates", "must be between 1 and 100".into());
        }
        if llm.max_concurrency == 0 {
            bad("llm.max_concurrency", "must be at least 1".into());
        }
        if llm.max_retries > 1 {
            bad("llm.max_retries", "must be 0 or 1 (a retry must fit the same budget)".into());
        }
        if llm.deadline_margin_ms >= llm.timeout_ms.max(1) * 10 {
            bad("llm.deadline_margin_ms", "is implausibly large next to llm.timeout_ms".into());
        }
        let ae = &self.auto_execute;
        if !(0.0..=1.0).contains(&ae.min_confidence) {
            bad("auto_execute.min_confidence", "must be between 0 and 1".into());
        }
        if !(0.0..=1.0).contains(&ae.deterministic_margin) {
            bad("auto_execute.deterministic_margin", "must be between 0 and 1".into());
        }
        for r in ae.allowed_reasons.iter().filter(|r| NEVER_AUTO_EXECUTE.contains(r)) {
            bad("auto_execute.allowed_reasons", format!("{:?} may never auto-execute (spec section 6)", r.as_str()))
        }
        if self.continuity.ttl_turns == 0 {
            bad("continuity.ttl_turns", "must be at least 1".into());
        }
        if self.continuity.ttl_seconds == 0 {
            bad("continuity.ttl_seconds", "must be at least 1".into());
        }
        if self.sessions.max == 0 {
            bad("sessions.max", "must be at least 1".into());
        }
        if self.sessions.idle_ttl_seconds == 0 {
            bad("sessions.idle_ttl_seconds", "must be at least 1".into());
        }
        for (k, why) in self.sessions.redis.problems(self.sessions.backend) {
            bad(k, why);
        }
        let e = &self.enrichment;
        if e.needed_evidence_types_max == 0 || e.needed_evidence_types_max > 6 {
            bad("enrichment.needed_evidence_types_max", "must be between 1 and 6".into());
        }
        if e.selection_max_llm_calls == 0 {
            bad("enrichment.selection_max_llm_calls", "must be at least 1".into());
        }
        if e.semantic_max_enrichment_steps > 2 {
            bad("enrichment.semantic_max_enrichment_steps", "must be at most 2 (set enrichment.semantic_extra_step for 3)".into());
        }
        let m = &self.matching;
        if !(0.0..=1.0).contains(&m.fuzzy_min_similarity) {
            bad("matching.fuzzy_min_similarity", "must be between 0 and 1".into());
        }
        if !(0.0..=1.0).contains(&m.fuzzy_margin) {
            bad("matching.fuzzy_margin", "must be between 0 and 1".into());
        }
        if let Err(e) = self.lexicon() {
            bad(if self.lexicon.path.is_some() { "lexicon.path" } else { "lexicon.languages" }, e);
        }
        match self.templates() {
            Err(e) => bad("clarifier.templates_path", e),
            Ok(t) if !t.has(&self.clarifier.default_language) => bad(
                "clarifier.default_language",
                format!("{:?} has no templates (have: {})", self.clarifier.default_language, t.languages().collect::<Vec<_>>().join(", ")),
            ),
            Ok(_) => {}
        }
        let g = &self.guardrails;
        if g.cohort_label.trim().is_empty() {
            bad("guardrails.cohort_label", "must not be empty".into());
        }
        if g.window_seconds == 0 {
            bad("guardrails.window_seconds", "must be at least 1".into());
        }
        if g.evaluate_every_seconds == 0 {
            bad("guardrails.evaluate_every_seconds", "must be at least 1".into());
        }
        if g.max_samples == 0 {
            bad("guardrails.max_samples", "must be at least 1".into());
        }
        for (k, v) in [
            ("guardrails.wrong_action_rate_increase_points", g.wrong_action_rate_increase_points),
            ("guardrails.clarifier_rate_increase_relative", g.clarifier_rate_increase_relative),
            ("guardrails.p95_latency_increase_ms", g.p95_latency_increase_ms),
            ("guardrails.unchanged_fingerprint_retry_share_max", g.unchanged_fingerprint_retry_share_max),
        ] {
            if !(v >= 0.0 && v.is_finite()) {
                bad(k, "must be a number of at least 0".into());
            }
        }
        if let Some(a) = &self.telemetry.metrics_listen {
            if a.parse::<SocketAddr>().is_err() {
                bad("telemetry.metrics_listen", format!("{a:?} is not an address like 127.0.0.1:9464"));
            } else if self.admin.listen.is_some() {
                bad("telemetry.metrics_listen", "replaced by admin.listen, which serves /metrics too; set only admin.listen".into());
            }
        }
        let dl = &self.telemetry.decision_log;
        if let Some(p) = &dl.path
            && p.parent().is_some_and(|d| !d.as_os_str().is_empty() && !d.is_dir())
        {
            bad("telemetry.decision_log.path", format!("the directory of {} does not exist", p.display()));
        }
        if dl.max_bytes < 4096 {
            bad("telemetry.decision_log.max_bytes", "must be at least 4096".into());
        }
        if dl.max_files == 0 {
            bad("telemetry.decision_log.max_files", "must be at least 1".into());
        }
        if self.clarifier.max_options == 0 {
            bad("clarifier.max_options", "must be at least 1".into());
        }
        match self.assistant_templates() {
            Err(e) => bad("clarify.templates_path", e),
            Ok(t) if !t.has(&self.clarifier.default_language) => {
                bad("clarify.templates_path", format!("no templates for clarifier.default_language {:?}", self.clarifier.default_language))
            }
            Ok(_) => {}
        }
        for (region, lang) in &self.clarify.region_languages {
            if lang.trim().is_empty() {
                bad("clarify.region_languages", format!("region {region:?} has an empty language"));
            }
        }
        let x = &self.extract;
        if !(1..=60_000).contains(&x.hint_timeout_ms) {
            bad("extract.hint_timeout_ms", "must be between 1 and 60000".into());
        }
        if !(0.0..=1.0).contains(&x.hint_sample_rate) {
            bad("extract.hint_sample_rate", "must be between 0 and 1".into());
        }
        let mut ids = std::collections::BTreeSet::new();
        for (i, a) in x.agents.iter().enumerate() {
            let k = |f: &str| format!("extract.agents[{i}].{f}");
            if a.id.trim().is_empty() || a.id == "llm" || a.id == "baseline" {
                bad(&k("id"), "required, and not \"llm\" or \"baseline\" (reserved)".into());
            } else if !ids.insert(a.id.clone()) {
                bad(&k("id"), format!("duplicate agent id {:?}", a.id));
            }
            if a.base_url.is_none() && self.llm.base_url.is_none() {
                bad(&k("base_url"), "required when llm.base_url is unset".into());
            }
            if let Some(u) = &a.base_url
                && !reqwest::Url::parse(u).is_ok_and(|u| matches!(u.scheme(), "http" | "https"))
            {
                bad(&k("base_url"), format!("{u:?} is not an http(s) URL"));
            }
            if a.model.is_none() && self.llm.model.is_none() {
                bad(&k("model"), "required when llm.model is unset".into());
            }
            if a.capabilities.is_empty() {
                bad(&k("capabilities"), "a non-empty list of \"normalization\" and \"entities\"".into());
            }
            if !(0.0..=1.0).contains(&a.sample_rate) {
                bad(&k("sample_rate"), "must be between 0 and 1".into());
            }
            if !(1..=60_000).contains(&a.timeout_ms) {
                bad(&k("timeout_ms"), "must be between 1 and 60000".into());
            }
        }
        if p.is_empty() { Ok(()) } else { Err(ConfigError { problems: p }) }
    }

    fn lexicon(&self) -> Result<Lexicon, String> {
        let text = match &self.lexicon.path {
            Some(path) => std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?,
            None => SHIPPED.to_string(),
        };
        Lexicon::from_toml(&text, &self.lexicon.languages).map_err(|e| e.to_string())
    }

    fn templates(&self) -> Result<Templates, String> {
        match &self.clarifier.templates_path {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
                Templates::from_toml(&text)
            }
            None => Ok(Templates::shipped()),
        }
    }

    pub fn assistant_templates(&self) -> Result<AssistantTemplates, String> {
        match &self.clarify.templates_path {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
                AssistantTemplates::from_toml(&text)
            }
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
            lexicon: self.lexicon().map_err(|e| one("lexicon", e))?,
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
#[allow(clippy::result_large_err)] // figment::Jail's closures return figment::Error
mod tests {
    use super::*;
    use figment::Jail;

    #[test]
    fn defaults_are_valid_and_match_the_contract() {
        // In a Jail: other tests set LADDER_* variables process-wide.
        Jail::expect_with(|_| {
            defaults_match_the_contract();
            Ok(())
        });
    }

    fn defaults_match_the_contract() {
        let c = from_figment(figment(None)).unwrap();
        assert_eq!(c.listen, "127.0.0.1:50151");
        assert_eq!(c.llm.base_url, None);
        assert_eq!(c.llm.timeout_ms, 800);
        assert_eq!(c.llm.confidence_min, 0.6);
        assert!(!c.auto_execute.enabled);
        assert_eq!(c.auto_execute.min_confidence, 0.85);
        assert_eq!((c.continuity.ttl_turns, c.continuity.ttl_seconds), (3, 600));
        assert_eq!(c.sessions.max, 100_000);
        assert_eq!(c.sessions.backend, SessionBackend::Memory);
        assert_eq!(
            (c.sessions.redis.url.as_ref(), c.sessions.redis.key_prefix.as_str(), c.sessions.redis.timeout_ms),
            (None, "ladderd:", 50)
        );
        assert_eq!(c.telemetry.redact_input, Redaction::Hash);
        assert_eq!(c.policy().unwrap().llm_mode, LlmMode::Off);
    }

    #[test]
    fn file_then_env_layering() {
        Jail::expect_with(|jail| {
            jail.create_file("ladderd.toml", "listen = \"127.0.0.1:6000\"\n[llm]\ntimeout_ms = 500\nconfidence_min = 0.7\n")?;
            jail.set_env("LADDER_LLM__TIMEOUT_MS", "900");
            jail.set_env("LADDER_CONFIG", "ignored-by-the-figment.toml");
            let c = from_figment(figment(Some(Path::new("ladderd.toml")))).unwrap();
            assert_eq!(c.listen, "127.0.0.1:6000", "file over defaults");
            assert_eq!(c.llm.timeout_ms, 900, "env over file");
            assert_eq!(c.llm.confidence_min, 0.7);
            Ok(())
        });
    }

    #[test]
    fn every_problem_is_reported_with_its_key() {
        Jail::expect_with(|jail| {
            jail.set_env("LADDER_LISTEN", "nowhere");
            jail.set_env("LADDER_LLM__CONFIDENCE_MIN", "1.5");
            jail.set_env("LADDER_LLM__BASE_URL", "http://127.0.0.1:9/v1");
            jail.set_env("LADDER_AUTO_EXECUTE__ALLOWED_REASONS", "[\"typo_ambiguous\"]");
            let err = from_figment(figment(None)).unwrap_err();
            let keys: Vec<&str> = err.problems.iter().map(|(k, _)| k.as_str()).collect();
            assert_eq!(keys, ["listen", "llm.model", "llm.confidence_min", "auto_execute.allowed_reasons"]);
            Ok(())
        });
    }

    #[test]
    fn the_redis_backend_is_configured_from_the_environment() {
        Jail::expect_with(|jail| {
            jail.set_env("LADDER_SESSIONS__BACKEND", "redis");
            jail.set_env("LADDER_SESSIONS__REDIS__URL", "redis://:hunter2@10.0.0.5:6379/2");
            jail.set_env("LADDER_SESSIONS__REDIS__KEY_PREFIX", "shop:");
            jail.set_env("LADDER_SESSIONS__REDIS__TIMEOUT_MS", "80");
            jail.set_env("LADDER_SESSIONS__REDIS__POOL_SIZE", "4");
            let c = from_figment(figment(None)).unwrap();
            let r = &c.sessions.redis;
            assert_eq!((c.sessions.backend, r.key_prefix.as_str(), r.timeout_ms, r.pool_size), (SessionBackend::Redis, "shop:", 80, 4));
            assert!(!format!("{c:?}").contains("hunter2"), "the URL never prints");
            assert!(!c.masked_toml().contains("hunter2"));
            Ok(())
        });
    }

    #[test]
    fn redis_settings_are_checked_with_their_keys() {
        Jail::expect_with(|jail| {
            jail.create_file("pw", "secret")?;
            jail.set_env("LADDER_SESSIONS__BACKEND", "redis");
            let err = from_figment(figment(None)).unwrap_err();
            assert_eq!(err.problems[0].0, "sessions.redis.url", "{err}");
            assert_eq!(err.problems.len(), 1, "{err}");
            jail.set_env("LADDER_SESSIONS__REDIS__URL", "http://:pw@cache:6379");
            jail.set_env("LADDER_SESSIONS__REDIS__KEY_PREFIX", "a{b}:");
            jail.set_env("LADDER_SESSIONS__REDIS__TIMEOUT_MS", "0");
            jail.set_env("LADDER_SESSIONS__REDIS__POOL_SIZE", "0");
            let err = from_figment(figment(None)).unwrap_err();
            let keys: Vec<&str> = err.problems.iter().map(|(k, _)| k.as_str()).collect();
            assert_eq!(keys, ["sessions.redis.url", "sessions.redis.key_prefix", "sessions.redis.timeout_ms", "sessions.redis.pool_size"]);
            assert!(!err.to_string().contains(":pw@"), "the URL is not echoed: {err}");
            jail.set_env("LADDER_SESSIONS__REDIS__URL", "redis://:pw@cache:6379");
            jail.set_env("LADDER_SESSIONS__REDIS__PASSWORD_FILE", "pw");
            jail.set_env("LADDER_SESSIONS__REDIS__KEY_PREFIX", "ladderd:");
            jail.set_env("LADDER_SESSIONS__REDIS__TIMEOUT_MS", "50");
            jail.set_env("LADDER_SESSIONS__REDIS__POOL_SIZE", "1");
            let err = from_figment(figment(None)).unwrap_err();
            assert_eq!(err.problems[0].0, "sessions.redis.password_file", "{err}");
            jail.set_env("LADDER_SESSIONS__REDIS__URL", "rediss://cache.internal:6380");
            let c = from_figment(figment(None)).unwrap();
            assert_eq!(c.sessions.redis.password_file.as_deref(), Some(Path::new("pw")));
            // The URL from a file (a mounted secret): read and checked.
            jail.create_file("url", "ftp://cache:21\n")?;
            jail.set_env("LADDER_SESSIONS__REDIS__URL_FILE", "url");
            let err = from_figment(figment(None)).unwrap_err();
            assert_eq!(err.problems[0].0, "sessions.redis.url_file", "both set: {err}");
            jail.clear_env();
            jail.set_env("LADDER_SESSIONS__BACKEND", "redis");
            jail.set_env("LADDER_SESSIONS__REDIS__URL_FILE", "url");
            let err = from_figment(figment(None)).unwrap_err();
            assert_eq!(err.problems.len(), 1, "{err}");
            assert_eq!(err.problems[0].0, "sessions.redis.url_file", "{err}");
            assert!(err.problems[0].1.contains("scheme"), "{err}");
            jail.create_file("url", "rediss://:pw@cache.internal:6380\n")?;
            assert!(from_figment(figment(None)).is_ok());
            Ok(())
        });
    }

    #[test]
    fn type_errors_in_several_sections_are_all_reported() {
        Jail::expect_with(|jail| {
            jail.set_env("LADDER_LLM__TIMEOUT_MS", "soon");
            jail.set_env("LADDER_SESSIONS__MAX", "many");
            jail.set_env("LADDER_LISTEN", "nowhere");
            let err = from_figment(figment(None)).unwrap_err();
            let keys: Vec<&str> = err.problems.iter().map(|(k, _)| k.as_str()).collect();
            assert_eq!(keys, ["llm.timeout_ms", "sessions.max", "listen"], "{err}");
            Ok(())
        });
    }

    #[test]
    fn type_errors_and_unknown_keys_name_the_key() {
        Jail::expect_with(|jail| {
            jail.set_env("LADDER_LLM__TIMEOUT_MS", "soon");
            let err = from_figment(figment(None)).unwrap_err();
            assert_eq!(err.problems[0].0, "llm.timeout_ms", "{err}");
            Ok(())
        });
        Jail::expect_with(|jail| {
            jail.create_file("ladderd.toml", "[llm]\ntimeout = 5\n")?;
            let err = from_figment(figment(Some(Path::new("ladderd.toml")))).unwrap_err();
            assert!(err.to_string().contains("timeout"), "{err}");
            Ok(())
        });
    }

    #[test]
    fn every_problem_of_every_layer_is_reported_once_with_its_origin() {
        Jail::expect_with(|jail| {
            jail.create_file(
                "ladderd.toml",
                "[llm]\ntimeout_ms = \"soon\"\nconfidence_min = \"high\"\n[sessions]\nmax = \"many\"\n[server]\nbogus = 1\n",
            )?;
            jail.set_env("LADDER_LIMITS__POOL_MAX", "lots");
            let err = load(Some(Path::new("ladderd.toml"))).unwrap_err();
            let keys: Vec<&str> = err.problems.iter().map(|(k, _)| k.as_str()).collect();
            assert_eq!(keys, ["server.bogus", "limits.pool_max", "llm.confidence_min", "llm.timeout_ms", "sessions.max"], "{err}");
            for (key, why) in &err.problems {
                let from = if key.starts_with("limits") { "LADDER_LIMITS__POOL_MAX" } else { "ladderd.toml" };
                assert!(why.contains(from), "{key}: {why}");
            }
            Ok(())
        });
    }

    #[test]
    fn a_toml_syntax_error_is_reported_once_naming_the_file() {
        Jail::expect_with(|jail| {
            jail.create_file("broken.toml", "[llm\ntimeout_ms = 5\n")?;
            let err = load(Some(Path::new("broken.toml"))).unwrap_err();
            assert_eq!(err.problems.len(), 1, "{err}");
            assert!(err.problems[0].1.contains("broken.toml") && err.problems[0].1.contains("TOML syntax error"), "{err}");
            Ok(())
        });
    }

    #[test]
    fn the_admin_listener_is_off_by_default_and_needs_an_address_of_its_own() {
        Jail::expect_with(|jail| {
            let c = from_figment(figment(None)).unwrap();
            assert_eq!((c.admin.listen.as_deref(), c.admin_listen_addr()), (None, None), "off by default");
            jail.set_env("LADDER_ADMIN__LISTEN", "nowhere");
            let err = from_figment(figment(None)).unwrap_err();
            assert_eq!(err.problems.len(), 1, "{err}");
            assert_eq!(err.problems[0].0, "admin.listen", "{err}");
            // Not the data port's socket.
            jail.set_env("LADDER_LISTEN", "0.0.0.0:50151");
            jail.set_env("LADDER_ADMIN__LISTEN", "127.0.0.1:50151");
            let err = from_figment(figment(None)).unwrap_err();
            assert_eq!(err.problems[0].0, "admin.listen", "{err}");
            assert!(err.problems[0].1.contains("port of its own"), "{err}");
            jail.set_env("LADDER_ADMIN__LISTEN", "0.0.0.0:50152");
            assert_eq!(from_figment(figment(None)).unwrap().admin_listen_addr(), Some("0.0.0.0:50152".parse().unwrap()));
            Ok(())
        });
    }

    #[test]
    fn the_admin_token_file_is_read_checked_and_never_echoed() {
        Jail::expect_with(|jail| {
            let c = from_figment(figment(None)).unwrap();
            assert_eq!((c.admin.token_file.as_deref(), c.admin.token()), (None, Ok(None)), "no token by default");
            jail.set_env("LADDER_ADMIN__TOKEN_FILE", "missing-token");
            let err = from_figment(figment(None)).unwrap_err();
            assert_eq!(err.problems.len(), 1, "{err}");
            assert_eq!(err.problems[0].0, "admin.token_file", "{err}");
            assert!(err.problems[0].1.contains("missing-token"), "the file is named: {err}");
            // What a token file must hold; its content is never echoed.
            for (content, why) in [
                ("short-token\n", "16 to 4096 characters"),
                ("a token with spaces in it\n", "printable ASCII"),
                ("", "16 to 4096 characters"),
            ] {
                jail.create_file("token", content)?;
                jail.set_env("LADDER_ADMIN__TOKEN_FILE", "token");
                let err = from_figment(figment(None)).unwrap_err();
                assert_eq!(err.problems.len(), 1, "{err}");
                assert_eq!(err.problems[0].0, "admin.token_file", "{err}");
                assert!(err.problems[0].1.contains(why), "{content:?}: {err}");
                assert!(content.is_empty() || !err.to_string().contains(content.trim()), "the token is echoed: {err}");
            }
            jail.create_file("token", "  0123456789abcdef-very-secret \n")?;
            let c = from_figment(figment(None)).unwrap();
            let token = c.admin.token().unwrap().expect("a token");
            assert_eq!(token, AdminToken::parse("0123456789abcdef-very-secret").unwrap(), "surrounding whitespace is not the token's");
            assert_eq!(format!("{token:?}"), "AdminToken(***)");
            let printed = c.masked_toml();
            assert!(printed.contains("token_file = \"token\"") && !printed.contains("very-secret"), "{printed}");
            assert!(!format!("{c:?}").contains("very-secret"));
            Ok(())
        });
    }

    #[test]
    fn the_deprecated_metrics_listen_is_read_as_the_admin_listener_and_not_with_it() {
        Jail::expect_with(|jail| {
            jail.set_env("LADDER_TELEMETRY__METRICS_LISTEN", "127.0.0.1:9464");
            let c = from_figment(figment(None)).unwrap();
            assert_eq!(c.admin_listen_addr(), Some("127.0.0.1:9464".parse().unwrap()));
            jail.set_env("LADDER_ADMIN__LISTEN", "127.0.0.1:9465");
            let err = from_figment(figment(None)).unwrap_err();
            assert_eq!(err.problems.len(), 1, "{err}");
            assert_eq!(err.problems[0].0, "telemetry.metrics_listen", "{err}");
            assert!(err.problems[0].1.contains("replaced by admin.listen"), "{err}");
            Ok(())
        });
    }

    #[test]
    fn secrets_are_masked() {
        let mut c = Config::default();
        c.llm.api_key = Some(Secret("sk-very-secret".into()));
        assert!(!c.masked_toml().contains("sk-very-secret"));
        assert!(!format!("{c:?}").contains("sk-very-secret"));
    }
}
