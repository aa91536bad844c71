//! The LLM adapter: one bounded call to an OpenAI-compatible
//! `POST {base_url}/chat/completions` endpoint (OpenAI, vLLM, Ollama,
//! llama.cpp server, LiteLLM, ...), with reqwest (rustls, pooled
//! connections).
//!
//! Protection, in the order a call meets it:
//! - a circuit breaker: after `llm.breaker_failures` consecutive failures
//!   the rung is skipped (`circuit_open`) for `llm.breaker_cooldown_ms`,
//!   then one probe call decides whether it closes;
//! - a deadline: `llm.timeout_ms`, capped by the caller's remaining gRPC
//!   deadline minus `llm.deadline_margin_ms` (time to build the clarifier);
//!   too little left and the rung is skipped (`deadline`). The request is
//!   cancelled by dropping it when the budget runs out;
//! - a bound on calls in flight (`llm.max_concurrency`): when full the rung
//!   is skipped (`llm_overloaded`) instead of queueing, so LLM traffic never
//!   slows deterministic decisions.
//!
//! No retries by default; with `llm.max_retries = 1`, one retry of a 429 or
//! transport error, only when at least twice the first attempt's time is
//! left. The reply is returned unparsed: the ladder validates it.
//!
//! The corroborating ask of an attempt (`corroborate`) has
//! no budget of its own: it gets what is left of `llm.timeout_ms` counted
//! from the first ask's start, capped by the caller's deadline minus the
//! margin, and is not sent at all (`deadline`) when that is less than the
//! first ask took.

pub mod prompt;

pub use crate::breaker::{Admission, Breaker};
use crate::config::{AgentConfig, Config, LlmConfig, ResponseFormat, Secret};
use ladder::ask::LlmAsk;
use ladder::policy::LlmAnswer;
use ladder::types::FallbackReason;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;
use tokio::time::Instant;

/// Token usage as reported by the provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// One arbitration call's answer and what the telemetry wants to know.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub answer: LlmAnswer,
    pub usage: Option<Usage>,
    pub attempts: u32,
    /// The model the provider says answered.
    pub response_model: Option<String>,
}

/// Shortest budget worth sending a request with.
const MIN_BUDGET: Duration = Duration::from_millis(10);

pub struct LlmClient {
    http: reqwest::Client,
    url: reqwest::Url,
    model: String,
    api_key: Option<Secret>,
    timeout: Duration,
    margin: Duration,
    format: ResponseFormat,
    max_tokens: u32,
    max_response_bytes: usize,
    max_retries: u32,
    permits: Arc<Semaphore>,
    breaker: Breaker,
}

#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("llm.base_url: {0}")]
    Url(String),
    /// The key file (`llm.api_key_file`, or an agent's
    /// `extract.agents[i].api_key_file`) could not be read.
    #[error("{key}: {why}")]
    KeyFile { key: String, why: String },
    #[error("llm: cannot build the HTTP client: {0}")]
    Http(String),
}

impl LlmClient {
    /// `None` when no provider is configured (the rung is off).
    pub fn from_config(c: &LlmConfig) -> Result<Option<Self>, BuildError> {
        Self::keyed(c, "llm.api_key_file")
    }

    /// As `from_config`, a key file that cannot be read named `key_file`.
    fn keyed(c: &LlmConfig, key_file: &str) -> Result<Option<Self>, BuildError> {
        let Some(base) = &c.base_url else { return Ok(None) };
        let base = if base.ends_with('/') { base.clone() } else { format!("{base}/") };
        let url = reqwest::Url::parse(&base).and_then(|u| u.join("chat/completions")).map_err(|e| BuildError::Url(e.to_string()))?;
        let api_key = match (&c.api_key, &c.api_key_file) {
            (Some(k), _) => Some(k.clone()),
            (None, Some(path)) => {
                let k = crate::files::read_text_at(path, &crate::files::SECRET)
                    .map_err(|why| BuildError::KeyFile { key: key_file.to_string(), why })?;
                Some(Secret(k.trim().to_string()))
            }
            (None, None) => None,
        };
        let http = reqwest::Client::builder()
            .user_agent(concat!("ladderd/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(Duration::from_millis(c.timeout_ms.min(2_000)))
            .pool_idle_timeout(Duration::from_secs(90))
            .tcp_nodelay(true)
            // A redirect would re-send the prompt to wherever the provider
            // points; the configured endpoint is the only one asked.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| BuildError::Http(e.to_string()))?;
        Ok(Some(LlmClient {
            http,
            url,
            model: c.model.clone().unwrap_or_default(),
            api_key,
            timeout: Duration::from_millis(c.timeout_ms),
            margin: Duration::from_millis(c.deadline_margin_ms),
            format: c.response_format,
            max_tokens: c.max_tokens,
            max_response_bytes: c.max_response_bytes,
            max_retries: c.max_retries,
            permits: Arc::new(Semaphore::new(c.max_concurrency)),
            breaker: Breaker::new("llm", c.breaker_failures, Duration::from_millis(c.breaker_cooldown_ms)),
        }))
    }

    pub fn model(&self) -> &str {
        &self.model
    }

    pub fn endpoint(&self) -> &reqwest::Url {
        &self.url
    }

    pub fn breaker(&self) -> &Breaker {
        &self.breaker
    }

    /// The budget for a call that starts now.
    pub fn budget(&self, deadline: Option<Instant>) -> Duration {
        match deadline {
            Some(d) => self.timeout.min(d.saturating_duration_since(Instant::now()).saturating_sub(self.margin)),
            None => self.timeout,
        }
    }

    /// What is left of an attempt's budget for its corroborating ask
    /// starting now: `llm.timeout_ms` counted from the
    /// first ask's start, capped by the caller's deadline minus
    /// `llm.deadline_margin_ms`. `None` when that is less than the first ask
    /// took (the second would most likely be cut off: it is not sent) or
    /// below the shortest budget worth sending.
    pub fn corroboration_budget(&self, first_started: Instant, first_took: Duration, deadline: Option<Instant>) -> Option<Duration> {
        let left = (first_started + self.timeout).saturating_duration_since(Instant::now()).min(self.budget(deadline));
        (left >= first_took.max(MIN_BUDGET)).then_some(left)
    }

    /// One arbitration, within the budget. Never fails: every problem is
    /// an `LlmAnswer` the ladder turns into a clarifier.
    pub async fn arbitrate(&self, ask: &LlmAsk, deadline: Option<Instant>) -> Call {
        self.complete(&prompt::request_body(ask, &self.model, self.format, self.max_tokens), deadline).await
    }

    /// The corroborating ask of the attempt whose first ask started at
    /// `first_started` and took `first_took`, within
    /// `corroboration_budget`; `Skipped { reason: Deadline }` when too
    /// little is left.
    pub async fn corroborate(&self, ask: &LlmAsk, deadline: Option<Instant>, first_started: Instant, first_took: Duration) -> Call {
        match self.corroboration_budget(first_started, first_took, deadline) {
            Some(budget) => self.complete_within(&prompt::request_body(ask, &self.model, self.format, self.max_tokens), budget).await,
            None => {
                Call { answer: LlmAnswer::Skipped { reason: FallbackReason::Deadline }, usage: None, attempts: 0, response_model: None }
            }
        }
    }

    /// One chat completion with every protection of this module; `body` is
    /// the whole request body. Traced as an OpenTelemetry GenAI client span
    /// (`chat {model}`): model, token usage, latency, error type.
    pub async fn complete(&self, body: &Value, deadline: Option<Instant>) -> Call {
        self.complete_within(body, self.budget(deadline)).await
    }

    /// `complete` within `budget`, counted from now.
    async fn complete_within(&self, body: &Value, budget: Duration) -> Call {
        let span = tracing::info_span!(
            target: "ladder::llm",
            "chat",
            otel.name = format!("chat {}", self.model),
            otel.kind = "client",
            gen_ai.operation.name = "chat",
            // The wire protocol; the server itself is in server.address.
            gen_ai.provider.name = "openai",
            gen_ai.request.model = self.model.as_str(),
            gen_ai.response.model = tracing::field::Empty,
            gen_ai.usage.input_tokens = tracing::field::Empty,
            gen_ai.usage.output_tokens = tracing::field::Empty,
            server.address = self.url.host_str().unwrap_or(""),
            server.port = self.url.port_or_known_default().unwrap_or(0),
            error.type = tracing::field::Empty,
            ladder.llm.attempts = tracing::field::Empty,
            ladder.llm.latency_ms = tracing::field::Empty,
        );
        let call = tracing::Instrument::instrument(self.complete_inner(body, budget), span.clone()).await;
        if let Some(m) = &call.response_model {
            span.record("gen_ai.response.model", m.as_str());
        }
        if let Some(u) = call.usage {
            span.record("gen_ai.usage.input_tokens", u.input_tokens);
            span.record("gen_ai.usage.output_tokens", u.output_tokens);
        }
        span.record("ladder.llm.attempts", call.attempts);
        match &call.answer {
            LlmAnswer::Failed { reason, latency_ms, .. } => {
                span.record("error.type", reason.as_str());
                span.record("ladder.llm.latency_ms", latency_ms);
            }
            LlmAnswer::Skipped { reason } => {
                span.record("error.type", reason.as_str());
            }
            LlmAnswer::Replied { latency_ms, .. } => {
                span.record("ladder.llm.latency_ms", latency_ms);
            }
        }
        call
    }

    async fn complete_inner(&self, body: &Value, budget: Duration) -> Call {
        let skipped = |r| Call { answer: LlmAnswer::Skipped { reason: r }, usage: None, attempts: 0, response_model: None };
        let start = Instant::now();
        if budget < MIN_BUDGET {
            return skipped(FallbackReason::Deadline);
        }
        // Released when this future ends, recorded or not: a cancelled
        // probe never leaves the breaker stuck open.
        let Some(admission) = self.breaker.allow() else {
            return skipped(FallbackReason::CircuitOpen);
        };
        let Ok(_permit) = self.permits.clone().try_acquire_owned() else {
            return skipped(FallbackReason::LlmOverloaded);
        };
        let end = start + budget;
        let mut attempts = 0;
        loop {
            attempts += 1;
            let attempt_start = Instant::now();
            let result = tokio::time::timeout_at(end, self.send(body)).await;
            let elapsed = attempt_start.elapsed();
            let latency_ms = start.elapsed().as_millis().min(u32::MAX as u128) as u32;
            let (answer, usage, model) = match result {
                Err(_) => (
                    LlmAnswer::Failed {
                        reason: FallbackReason::Timeout,
                        latency_ms,
                        detail: format!("no answer within {} ms", budget.as_millis()),
                    },
                    None,
                    None,
                ),
                Ok(Err((reason, detail))) => (LlmAnswer::Failed { reason, latency_ms, detail }, None, None),
                Ok(Ok(reply)) => (LlmAnswer::Replied { content: reply.content, latency_ms }, reply.usage, reply.model),
            };
            let retryable =
                matches!(&answer, LlmAnswer::Failed { reason: FallbackReason::RateLimited | FallbackReason::TransportError, .. });
            let left = end.saturating_duration_since(Instant::now());
            if retryable && attempts <= self.max_retries && left >= elapsed * 2 && left >= MIN_BUDGET {
                tracing::info!(attempt = attempts, left_ms = left.as_millis() as u64, "retrying llm call once");
                continue;
            }
            admission.record(!matches!(answer, LlmAnswer::Failed { .. }));
            return Call { answer, usage, attempts, response_model: model };
        }
    }

    pub fn max_tokens(&self) -> u32 {
        self.max_tokens
    }

    async fn send(&self, body: &Value) -> Result<Reply, (FallbackReason, String)> {
        let mut req = self.http.post(self.url.clone()).json(body);
        if let Some(k) = &self.api_key {
            req = req.bearer_auth(&k.0);
        }
        let resp = req.send().await.map_err(|e| (FallbackReason::TransportError, transport_detail(&e)))?;
        let status = resp.status();
        if status.as_u16() == 429 {
            return Err((FallbackReason::RateLimited, "HTTP 429".into()));
        }
        if status.is_redirection() {
            return Err((FallbackReason::TransportError, format!("HTTP {} (redirects are not followed)", status.as_u16())));
        }
        if !status.is_success() {
            return Err((FallbackReason::TransportError, format!("HTTP {}", status.as_u16())));
        }
        let cap = self.max_response_bytes;
        let over = || (FallbackReason::TransportError, format!("response body over llm.max_response_bytes ({cap})"));
        if resp.content_length().is_some_and(|n| n > cap as u64) {
            return Err(over());
        }
        // Read chunk by chunk, so an endless or huge body is cut at the cap.
        let mut bytes = Vec::new();
        let mut resp = resp;
        while let Some(chunk) = resp.chunk().await.map_err(|e| (FallbackReason::TransportError, transport_detail(&e)))? {
            if bytes.len() + chunk.len() > cap {
                return Err(over());
            }
            bytes.extend_from_slice(&chunk);
        }
        parse_completion(&bytes).map_err(|why| (FallbackReason::TransportError, why))
    }
}

fn transport_detail(e: &reqwest::Error) -> String {
    let kind = if e.is_connect() {
        "connect error"
    } else if e.is_timeout() {
        "timeout"
    } else if e.is_body() || e.is_decode() {
        "unreadable body"
    } else {
        "transport error"
    };
    // Only the kind: reqwest's own text can carry the URL.
    kind.to_string()
}

#[derive(Debug, Clone, PartialEq)]
struct Reply {
    content: String,
    usage: Option<Usage>,
    model: Option<String>,
}

/// `choices[0].message.content` (a string, or an array of text parts).
fn parse_completion(bytes: &[u8]) -> Result<Reply, String> {
    let v: Value = serde_json::from_slice(bytes).map_err(|_| "unreadable body: not JSON".to_string())?;
    let content = &v["choices"][0]["message"]["content"];
    let content = match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts.iter().filter_map(|p| p["text"].as_str()).collect::<Vec<_>>().join(""),
        _ => return Err("unreadable body: no choices[0].message.content".into()),
    };
    let usage = v.get("usage").map(|u| Usage {
        input_tokens: u["prompt_tokens"].as_u64().unwrap_or(0),
        output_tokens: u["completion_tokens"].as_u64().unwrap_or(0),
    });
    Ok(Reply { content, usage, model: v["model"].as_str().map(str::to_owned) })
}

/// The LLM clients: the provider for arbitration and `Clarify`, the
/// built-in extraction hint (same provider, its own budget), and the
/// extractor agents.
pub struct Llms {
    pub main: Option<Arc<LlmClient>>,
    pub hint: Option<Arc<LlmClient>>,
    pub agents: Vec<(AgentConfig, Arc<LlmClient>)>,
}

impl Llms {
    pub fn from_config(c: &Config) -> Result<Self, BuildError> {
        let main = LlmClient::from_config(&c.llm)?.map(Arc::new);
        let hint = LlmClient::from_config(&LlmConfig { timeout_ms: c.extract.hint_timeout_ms, ..c.llm.clone() })?.map(Arc::new);
        let mut agents = Vec::new();
        for (i, a) in c.extract.agents.iter().enumerate() {
            let cfg = LlmConfig {
                base_url: a.base_url.clone().or_else(|| c.llm.base_url.clone()),
                model: a.model.clone().or_else(|| c.llm.model.clone()),
                api_key: if a.api_key_file.is_some() { None } else { c.llm.api_key.clone() },
                api_key_file: a.api_key_file.clone().or_else(|| if c.llm.api_key.is_some() { None } else { c.llm.api_key_file.clone() }),
                timeout_ms: a.timeout_ms,
                ..c.llm.clone()
            };
            let key_file = if a.api_key_file.is_some() { format!("extract.agents[{i}].api_key_file") } else { "llm.api_key_file".into() };
            if let Some(client) = LlmClient::keyed(&cfg, &key_file)? {
                agents.push((a.clone(), Arc::new(client)));
            }
        }
        Ok(Llms { main, hint, agents })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_content_as_string_or_parts() {
        let r = parse_completion(
            br#"{"model":"m","choices":[{"message":{"content":"{\"a\":1}"}}],"usage":{"prompt_tokens":10,"completion_tokens":3}}"#,
        )
        .unwrap();
        assert_eq!(r.content, r#"{"a":1}"#);
        assert_eq!(r.usage, Some(Usage { input_tokens: 10, output_tokens: 3 }));
        let r =
            parse_completion(br#"{"choices":[{"message":{"content":[{"type":"text","text":"ab"},{"type":"text","text":"c"}]}}]}"#).unwrap();
        assert_eq!(r.content, "abc");
        assert!(parse_completion(b"<html>").is_err());
        assert!(parse_completion(br#"{"choices":[]}"#).is_err());
    }

    /// A key file that cannot be read is named by the key that named it:
    /// an agent's own, or `llm.api_key_file` the agent inherits.
    #[test]
    fn a_key_file_that_cannot_be_read_is_named_by_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let (good, gone) = (dir.path().join("key"), dir.path().join("gone"));
        std::fs::write(&good, "sk-test\n").unwrap();
        let mut c = Config::default();
        c.llm.base_url = Some("http://127.0.0.1:9/v1".into());
        c.llm.model = Some("m".into());
        c.llm.api_key_file = Some(good);
        c.extract.agents = vec![AgentConfig { id: "a".into(), api_key_file: Some(gone.clone()), ..AgentConfig::default() }];
        let e = Llms::from_config(&c).err().expect("refused").to_string();
        assert!(e.starts_with(&format!("extract.agents[0].api_key_file: {}: ", gone.display())), "{e}");
        c.extract.agents[0].api_key_file = None;
        c.llm.api_key_file = Some(gone.clone());
        let e = Llms::from_config(&c).err().expect("refused").to_string();
        assert!(e.starts_with(&format!("llm.api_key_file: {}: ", gone.display())), "{e}");
    }

    fn client(timeout_ms: u64, margin_ms: u64) -> LlmClient {
        let c = LlmConfig {
            base_url: Some("http://127.0.0.1:9/v1".into()),
            timeout_ms,
            deadline_margin_ms: margin_ms,
            ..crate::config::Config::default().llm
        };
        LlmClient::from_config(&c).unwrap().unwrap()
    }

    /// The corroborating ask's budget split, on a paused clock: the second
    /// ask gets what is left of the one `llm.timeout_ms` since the first
    /// ask's start, capped by the caller's deadline, and none when less is
    /// left than the first ask took.
    #[tokio::test(start_paused = true)]
    async fn the_corroborating_ask_gets_only_what_is_left_of_the_budget() {
        let c = client(1_000, 20);
        let ms = Duration::from_millis;
        let start = Instant::now();
        tokio::time::advance(ms(300)).await;
        assert_eq!(c.corroboration_budget(start, ms(300), None), Some(ms(700)), "1000 - 300 ms");
        // A caller's deadline closer than that caps it (minus the margin).
        assert_eq!(c.corroboration_budget(start, ms(300), Some(Instant::now() + ms(520))), Some(ms(500)));
        // Less left than the first ask took: not sent.
        assert_eq!(c.corroboration_budget(start, ms(300), Some(Instant::now() + ms(300))), None);
        tokio::time::advance(ms(300)).await;
        assert_eq!(c.corroboration_budget(start, ms(600), None), None, "400 ms left after a 600 ms first ask");
        assert_eq!(c.corroboration_budget(start, ms(100), None), Some(ms(400)));
        tokio::time::advance(ms(395)).await;
        assert_eq!(c.corroboration_budget(start, ms(1), None), None, "5 ms is below the shortest budget worth sending");
        tokio::time::advance(ms(100)).await;
        assert_eq!(c.corroboration_budget(start, Duration::ZERO, None), None, "the budget is spent");
        // Not sent means no request at all: an unreachable provider is never dialled.
        let call = c.corroborate(&prompt_ask(), None, start, ms(1)).await;
        assert_eq!((call.answer, call.attempts), (LlmAnswer::Skipped { reason: FallbackReason::Deadline }, 0));
    }

    fn prompt_ask() -> LlmAsk {
        LlmAsk {
            canonical_input: "x".into(),
            reason: ladder::types::AmbiguityReason::NoDeterministicMatch,
            candidates: Vec::new(),
            continuity: Default::default(),
            context: Default::default(),
            allowed_evidence: Vec::new(),
        }
    }
}
