//! The application layer: what each call does, in terms of the ladder, the
//! session store and the LLM client. gRPC handlers (`crate::grpc`) only
//! convert messages and call these methods.

use crate::config::{AgentConfig, Config, LlmConfig, Redaction};
use crate::convert::{self, EnrichInput, OutcomeInput};
use crate::error::ApiError;
use crate::grpc::stack::StackStats;
use crate::llm::LlmClient;
use crate::pools::PoolCache;
use crate::sessions::{Clock, MemoryStore, SessionStore};
use crate::telemetry::{self, Metrics, records::DecisionLog};
use arc_swap::ArcSwap;
use ladder::ask::LlmAsk;
use ladder::assistant::{self, AssistantMessage, ClarifyRequest, MessageType};
use ladder::continuity::Cycle;
use ladder::continuity::merge_evidence;
use ladder::continuity::{ActionEntry, ActionKind, ActionOutcome, Applied, ContinuityState, EnrichRefusal, OutcomeUpdate, Update};
use ladder::decide::{self, Ctx, Decided, Mode};
use ladder::extract::{self, ExtractRequest, HintOutcome, HintStatus, Slots};
use ladder::guardrails::{Breach, CohortReport, Guardrails, Sample};
use ladder::policy::LlmMode;
use ladder::policy::{LlmAnswer, Policy};
use ladder::ports::{GuardClaim, Ports, TokenCounter};
use ladder::types::Outcome;
use ladder::types::{DecideRequest, Decision, FallbackReason};
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::time::Instant;
use tracing::Instrument;

/// Everything a call needs, shared by all calls.
pub struct Daemon {
    config: ArcSwap<Config>,
    policy: ArcSwap<Policy>,
    llms: ArcSwap<Llms>,
    store: Arc<dyn SessionStore>,
    /// The same store when it is the in-memory one (for its purge task).
    memory: Option<MemoryStore>,
    clock: Clock,
    tokens: Arc<dyn TokenCounter + Send>,
    pub stack: Arc<StackStats>,
    metrics: Metrics,
    records: Option<DecisionLog>,
    rollout: Rollout,
    pools: PoolCache,
}

/// Rollout control: guardrail windows, the kill-switch trip, reloads.
#[derive(Debug)]
struct Rollout {
    guardrails: std::sync::Mutex<Guardrails>,
    trip: std::sync::Mutex<Option<Trip>>,
    /// Breaches seen at the last evaluation (to log and count new ones once).
    last: std::sync::Mutex<Vec<(String, &'static str)>>,
    reloads: AtomicU64,
    reload_failures: AtomicU64,
    last_reload_error: std::sync::Mutex<String>,
}

#[derive(Debug, Clone)]
pub struct Trip {
    pub at_ms: i64,
    pub breaches: Vec<Breach>,
}

/// What `GetRollout` reports.
#[derive(Debug, Clone)]
pub struct RolloutView {
    pub config_revision: String,
    pub llm_mode: &'static str,
    pub auto_execute_configured: bool,
    pub trip: Option<Trip>,
    pub cohorts: Vec<CohortReport>,
    pub breaches: Vec<Breach>,
    pub config_reloads: u64,
    pub config_reload_failures: u64,
    pub last_reload_error: String,
}

fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    #[error(transparent)]
    Llm(#[from] crate::llm::BuildError),
    #[error("telemetry.decision_log.path: {0}")]
    DecisionLog(std::io::Error),
}

impl Daemon {
    pub fn new(config: Config) -> Result<Self, StartError> {
        let policy = config.policy()?;
        crate::tokens::warm_up();
        let llms = Llms::from_config(&config)?;
        let store = MemoryStore::new(config.sessions.max, Duration::from_secs(config.sessions.idle_ttl_seconds));
        let dl = &config.telemetry.decision_log;
        let records =
            dl.path.as_deref().map(|p| DecisionLog::open(p, dl.max_bytes, dl.max_files)).transpose().map_err(StartError::DecisionLog)?;
        Ok(Daemon {
            metrics: Metrics::new(&opentelemetry::global::meter("ladderd")),
            records,
            pools: PoolCache::new(config.sessions.pool_cache_candidates),
            rollout: Rollout {
                guardrails: std::sync::Mutex::new(Guardrails::new(100_000)),
                trip: std::sync::Mutex::new(None),
                last: std::sync::Mutex::new(Vec::new()),
                reloads: AtomicU64::new(0),
                reload_failures: AtomicU64::new(0),
                last_reload_error: std::sync::Mutex::new(String::new()),
            },
            policy: ArcSwap::from_pointee(policy),
            llms: ArcSwap::from_pointee(llms),
            store: Arc::new(store.clone()),
            memory: Some(store),
            clock: Clock::default(),
            tokens: Arc::new(crate::tokens::BpeCounter),
            stack: Arc::new(StackStats::default()),
            config: ArcSwap::from_pointee(config),
        })
    }

    /// Starts background work (the idle-session purge); it stops when the
    /// returned guard is dropped. Needs a tokio runtime.
    pub fn spawn_background(&self) -> Option<crate::sessions::PurgeGuard> {
        let idle = Duration::from_secs(self.config().sessions.idle_ttl_seconds);
        let every = (idle / 4).clamp(Duration::from_secs(1), Duration::from_secs(60));
        self.memory.as_ref().map(|m| m.spawn_purger(self.clock, every))
    }

    /// Closes the decision log (writes what is queued), within `cap`.
    pub fn close_records(&self, cap: Duration) {
        if let Some(log) = &self.records {
            log.flush(cap);
        }
    }

    pub fn record_stats(&self) -> Option<Arc<telemetry::records::RecordStats>> {
        self.records.as_ref().map(|r| r.stats.clone())
    }

    pub fn config(&self) -> Arc<Config> {
        self.config.load_full()
    }

    pub fn store(&self) -> &Arc<dyn SessionStore> {
        &self.store
    }

    pub fn clock(&self) -> Clock {
        self.clock
    }

    pub async fn decide(&self, req: DecideRequest, deadline: Option<Instant>) -> Result<Decision, ApiError> {
        let span = call_span("decide", &req.session_id, &req.turn_id);
        self.redact_into(&span, "ladder.input", &req.input);
        self.decide_in_span(req, deadline).instrument(span).await
    }

    async fn decide_in_span(&self, mut req: DecideRequest, deadline: Option<Instant>) -> Result<Decision, ApiError> {
        let started = Instant::now();
        let pool_version = self.resolve_pool(&mut req)?;
        // Shared with the cycle it may open (for Enrich), never copied.
        let req = Arc::new(req);
        let policy = self.policy.load_full();
        let now = self.clock.now();
        let state = ContinuityState::view_shared(self.store.get(&req.session_id, now).await.map_err(internal)?, now, policy.ttl);
        let ids = Ids::new();
        let ports =
            DaemonPorts { daemon: self, session_id: &req.session_id, llm: self.llms.load().main.clone(), deadline, policy: &policy };
        let ctx = Ctx {
            policy: &policy,
            state: &state,
            now,
            decision_id: &ids.decision,
            new_cycle_id: &ids.cycle,
            tokens: &*self.tokens,
            auto_execute_tripped: self.tripped(),
        };
        let mut decided = decide::decide(&ctx, &req, Mode::Turn, &ports).await;
        decided.decision.pool_version = pool_version;
        self.commit(&req.session_id, decided, &policy, Record { call: "decide", req: &req, state: &state, cycle: None, started }).await
    }

    /// Pool reuse: fills a referenced option set from the cache, or caches
    /// a versioned one. Returns the version it is held under.
    fn resolve_pool(&self, req: &mut DecideRequest) -> Result<Option<String>, ApiError> {
        let session = &req.session_id;
        let Some(o) = req.options.as_mut() else { return Ok(None) };
        if o.version.is_empty() {
            return Ok(None);
        }
        if o.by_reference {
            let Some((scope, cands)) = self.pools.get(session, &o.option_set_id, &o.version) else {
                return Err(ApiError::FailedPrecondition(format!(
                    "options: option set {:?} version {:?} is not held for this session (evicted, or never sent); resend it with its candidates",
                    o.option_set_id, o.version
                )));
            };
            o.candidates = cands;
            if o.scope == ladder::types::Scope::Unspecified {
                o.scope = scope;
            }
            let version = o.version.clone();
            // The held set's ids were unique when it was sent; only the
            // other lists can collide with it now.
            if !(req.recoverable_chat_options.is_empty() && req.widget_items.is_empty() && req.commands.is_empty()) {
                convert::check_unique_ids(req)?;
            }
            return Ok(Some(version));
        }
        if !o.candidates.is_empty() {
            self.pools.put(session, &o.option_set_id, &o.version, o.scope, o.candidates.clone());
        }
        Ok(Some(o.version.clone()))
    }

    pub async fn enrich(&self, input: EnrichInput, deadline: Option<Instant>) -> Result<Decision, ApiError> {
        let span = call_span("enrich", &input.session_id, &input.turn_id);
        span.record("ladder.loop_cycle_id", input.loop_cycle_id.as_str());
        self.enrich_in_span(input, deadline).instrument(span).await
    }

    async fn enrich_in_span(&self, input: EnrichInput, deadline: Option<Instant>) -> Result<Decision, ApiError> {
        let started = Instant::now();
        let policy = self.policy.load_full();
        let now = self.clock.now();
        let Some(state) = self.store.get(&input.session_id, now).await.map_err(internal)? else {
            return Err(unknown_cycle(&input));
        };
        let b = &policy.budgets;
        let begin = Update::BeginEnrich {
            cycle_id: input.loop_cycle_id.clone(),
            max_selection_steps: b.selection_max_enrichment_steps,
            max_semantic_steps: b.semantic_max_enrichment_steps,
        };
        let applied = self.store.apply(&input.session_id, begin, now, policy.ttl).await.map_err(internal)?;
        let ids = Ids::new();
        let view = ContinuityState::view_shared(Some(state), now, policy.ttl);
        let ctx = Ctx {
            policy: &policy,
            state: &view,
            now,
            decision_id: &ids.decision,
            new_cycle_id: &ids.cycle,
            tokens: &*self.tokens,
            auto_execute_tripped: self.tripped(),
        };
        let (decided, merged, cycle) = match applied {
            Applied::EnrichStarted(mut cycle) => {
                let base = cycle.request.clone().unwrap_or_default();
                let (merged, excerpts) = merge_evidence(&base, &input.evidence);
                let merged = Arc::new(merged);
                // Newest first.
                let mut all = excerpts;
                all.append(&mut cycle.excerpts);
                cycle.excerpts = all;
                if !input.chat_history.is_empty() {
                    cycle.history = input.chat_history.clone();
                }
                let ports = DaemonPorts {
                    daemon: self,
                    session_id: &input.session_id,
                    llm: self.llms.load().main.clone(),
                    deadline,
                    policy: &policy,
                };
                let d = decide::decide(&ctx, &merged, Mode::Enrich(&cycle), &ports).await;
                (d, merged, cycle)
            }
            Applied::EnrichRefused(EnrichRefusal::BudgetExhausted(cycle)) => {
                let req = cycle.request.clone().unwrap_or_default();
                (decide::budget_exhausted(&ctx, &cycle), req, cycle)
            }
            Applied::EnrichRefused(EnrichRefusal::Resolved) => {
                return Err(ApiError::FailedPrecondition(format!(
                    "loop_cycle_id {:?} is already resolved; call Decide for the next turn",
                    input.loop_cycle_id
                )));
            }
            Applied::EnrichRefused(EnrichRefusal::NotResumable) => {
                return Err(ApiError::FailedPrecondition(format!(
                    "loop_cycle_id {:?} cannot be resumed: its candidates were over sessions.max_cycle_candidates, or sessions.cycle_candidates_budget was spent when it opened; call Decide again with the evidence",
                    input.loop_cycle_id
                )));
            }
            Applied::EnrichRefused(EnrichRefusal::Unknown) | Applied::Done | Applied::GuardClaimed | Applied::GuardRepeat { .. } => {
                return Err(unknown_cycle(&input));
            }
        };
        self.commit(
            &input.session_id,
            decided,
            &policy,
            Record { call: "enrich", req: &merged, state: &view, cycle: Some(&cycle), started },
        )
        .await
    }

    /// Writes the decision's session change, records what happened
    /// (span attributes, metrics, decision record) and returns the decision.
    async fn commit(&self, session_id: &str, mut decided: Decided, policy: &Policy, rec: Record<'_>) -> Result<Decision, ApiError> {
        // An open cycle keeps its request for Enrich, within the memory
        // bounds (per cycle, and for all open cycles together).
        let size = rec.req.candidate_count();
        let sessions = &self.config.load().sessions;
        if size <= sessions.max_cycle_candidates && self.store.cycle_candidates() + size <= sessions.cycle_candidates_budget {
            decided.attach_request(rec.req);
        }
        // Moved, not copied: what follows reads only the decision and events.
        let update = std::mem::take(&mut decided.update);
        self.store.apply(session_id, Update::Decided(update), self.clock.now(), policy.ttl).await.map_err(internal)?;
        let elapsed_ms = rec.started.elapsed().as_secs_f64() * 1000.0;
        self.observe(&decided, elapsed_ms);
        self.feed_guardrails(&decided.decision, &rec, elapsed_ms);
        if let Some(log) = &self.records {
            log.write(&self.record(&decided, rec));
        }
        Ok(decided.decision)
    }

    /// Span attributes, metrics and the log line of one decision.
    fn observe(&self, decided: &Decided, elapsed_ms: f64) {
        let d = &decided.decision;
        let span = tracing::Span::current();
        span.record("ladder.decision_id", d.decision_id.as_str());
        span.record("ladder.outcome", d.outcome.as_str());
        span.record("ladder.decided_by", d.decided_by.as_str());
        span.record("ladder.handled_by_tier", d.handled_by_tier.as_str());
        span.record("ladder.config_revision", d.config_revision.as_str());
        if let Some(b) = d.confidence {
            span.record("ladder.confidence_bucket", b.as_str());
        }
        if let Some(r) = d.ambiguity_reason {
            span.record("ladder.ambiguity_reason", r.as_str());
        }
        if let Some(r) = d.fallback_reason {
            span.record("ladder.fallback_reason", r.as_str());
        }
        if let Some(t) = &d.target_id {
            span.record("ladder.target_id", t.as_str());
        }
        if let Some(c) = &d.loop_cycle_id {
            span.record("ladder.loop_cycle_id", c.as_str());
        }
        if let Some(f) = &d.evidence_fingerprint {
            span.record("ladder.evidence_fingerprint", f.as_str());
        }
        span.record("ladder.llm.called", d.llm.called);
        span.record("ladder.llm.guard_hit", d.llm.guard_hit);

        let m = &self.metrics;
        // Static values: no allocation per attribute.
        let kv = |k: &'static str, v: &'static str| opentelemetry::KeyValue::new(k, v);
        m.decisions
            .add(1, &[kv("outcome", d.outcome.as_str()), kv("decided_by", d.decided_by.as_str()), kv("tier", d.handled_by_tier.as_str())]);
        if let Some(r) = d.ambiguity_reason {
            m.ambiguity.add(1, &[kv("reason", r.as_str())]);
        }
        if let Some(r) = d.fallback_reason {
            m.fallbacks.add(1, &[kv("reason", r.as_str())]);
        }
        m.decision_duration.record(elapsed_ms, &[kv("outcome", d.outcome.as_str())]);
        if d.llm.called {
            m.llm_calls.add(1, &[kv("kind", "arbitration"), opentelemetry::KeyValue::new("result", d.llm.verdict.clone())]);
            m.llm_latency.record(f64::from(d.llm.latency_ms), &[kv("kind", "arbitration")]);
        }
        if d.llm.guard_hit {
            m.loop_guard_hits.add(1, &[]);
        }
        if decided.events.iter().any(|e| e.name == "continuity_enrichment_retry_called") {
            m.enrichment_retries.add(1, &[]);
        }
        // Per-decision detail is for debugging: at 5k decisions/s a line each
        // would cost more than the decision (metrics, spans and decision
        // records carry it for operators).
        tracing::debug!(
            decision_id = %d.decision_id,
            outcome = d.outcome.as_str(),
            tier = d.handled_by_tier.as_str(),
            decided_by = d.decided_by.as_str(),
            reason = d.ambiguity_reason.map_or("", |r| r.as_str()),
            fallback = d.fallback_reason.map_or("", |r| r.as_str()),
            elapsed_ms,
            "decided"
        );
    }

    fn cohort(&self, req: &DecideRequest) -> String {
        let label = &self.config.load().guardrails.cohort_label;
        req.labels.get(label).cloned().unwrap_or_else(|| "default".to_string())
    }

    fn feed_guardrails(&self, d: &Decision, rec: &Record<'_>, elapsed_ms: f64) {
        let cfg = self.config.load();
        if !cfg.guardrails.enabled {
            return;
        }
        let s = cfg.guardrails.settings();
        let cohort = self.cohort(rec.req);
        let now = self.clock.now().mono_ms;
        let executed = d.outcome == Outcome::Execute;
        let mut g = lock(&self.rollout.guardrails);
        if rec.call == "enrich" {
            g.remember(&cohort, &d.decision_id, executed);
            g.record_retry(&s, &cohort, d.fallback_reason == Some(FallbackReason::NoNewEvidence), now);
        } else {
            let clarified = matches!(d.outcome, Outcome::Clarify | Outcome::NeedMoreInfo);
            g.record_decision(&s, &cohort, &d.decision_id, Sample { executed, clarified, latency_ms: elapsed_ms }, now);
        }
    }

    pub fn tripped(&self) -> bool {
        lock(&self.rollout.trip).is_some()
    }

    /// Evaluates the guardrails now: logs and counts new breaches, and trips
    /// auto-execute off when `guardrails.auto_trip` is set.
    pub fn check_guardrails(&self) -> (Vec<CohortReport>, Vec<Breach>) {
        let cfg = self.config.load();
        let g = &cfg.guardrails;
        let (reports, breaches) =
            lock(&self.rollout.guardrails).evaluate(&g.settings(), g.baseline_cohort.as_deref(), self.clock.now().mono_ms);
        let current: Vec<(String, &'static str)> = breaches.iter().map(|b| (b.cohort.clone(), b.figure)).collect();
        {
            let mut last = lock(&self.rollout.last);
            for b in breaches.iter().filter(|b| !last.contains(&(b.cohort.clone(), b.figure))) {
                tracing::warn!(cohort = %b.cohort, figure = b.figure, value = b.value, baseline = b.baseline, threshold = b.threshold, "guardrail_breached");
                self.metrics
                    .guardrail_breaches
                    .add(1, &[opentelemetry::KeyValue::new("cohort", b.cohort.clone()), opentelemetry::KeyValue::new("figure", b.figure)]);
            }
            *last = current;
        }
        if g.auto_trip && !breaches.is_empty() {
            let mut trip = lock(&self.rollout.trip);
            if trip.is_none() {
                tracing::error!(
                    breaches = breaches.len(),
                    "auto_execute_tripped: guardrails turned auto-execute off; call ResetRollout to re-enable"
                );
                *trip = Some(Trip { at_ms: self.clock.now().wall_ms, breaches: breaches.clone() });
            }
        }
        (reports, breaches)
    }

    pub fn rollout(&self) -> RolloutView {
        let (cohorts, breaches) = self.check_guardrails();
        let policy = self.policy.load();
        RolloutView {
            config_revision: policy.revision.clone(),
            llm_mode: match policy.llm_mode {
                LlmMode::Off => "off",
                LlmMode::Live => "live",
                LlmMode::Shadow => "shadow",
            },
            auto_execute_configured: policy.auto_execute.enabled,
            trip: lock(&self.rollout.trip).clone(),
            cohorts,
            breaches,
            config_reloads: self.rollout.reloads.load(Ordering::Relaxed),
            config_reload_failures: self.rollout.reload_failures.load(Ordering::Relaxed),
            last_reload_error: lock(&self.rollout.last_reload_error).clone(),
        }
    }

    /// An operator re-enables auto-execute after a trip. The guardrail
    /// windows start afresh, so only new evidence can trip it again.
    pub fn reset_rollout(&self, note: &str) -> RolloutView {
        if lock(&self.rollout.trip).take().is_some() {
            tracing::warn!(note = %note, "auto-execute re-enabled by an operator (ResetRollout)");
        }
        lock(&self.rollout.guardrails).clear();
        lock(&self.rollout.last).clear();
        self.rollout()
    }

    /// Applies a new (validated) configuration for the next request. Keys
    /// that only take effect at start keep their running values; their
    /// names are returned.
    pub fn reload(&self, mut new: Config) -> Result<Vec<&'static str>, StartError> {
        let old = self.config.load_full();
        let mut restart = Vec::new();
        macro_rules! keep {
            ($($key:literal => $($field:ident).+),* $(,)?) => {$(
                if new.$($field).+ != old.$($field).+ {
                    restart.push($key);
                    new.$($field).+ = old.$($field).+.clone();
                }
            )*};
        }
        keep!(
            "listen" => listen,
            "server" => server,
            "sessions.max" => sessions.max,
            "sessions.idle_ttl_seconds" => sessions.idle_ttl_seconds,
            "telemetry.log_format" => telemetry.log_format,
            "telemetry.log_level" => telemetry.log_level,
            "telemetry.metrics_listen" => telemetry.metrics_listen,
            "telemetry.decision_log" => telemetry.decision_log,
            "config_reload" => config_reload,
        );
        let policy = new.policy()?;
        let llms = Llms::from_config(&new)?;
        let revision = policy.revision.clone();
        self.llms.store(Arc::new(llms));
        self.policy.store(Arc::new(policy));
        self.config.store(Arc::new(new));
        self.rollout.reloads.fetch_add(1, Ordering::Relaxed);
        self.metrics.config_reloads.add(1, &[opentelemetry::KeyValue::new("result", "applied")]);
        tracing::info!(revision = %revision, restart_required = ?restart, "configuration reloaded");
        Ok(restart)
    }

    /// A configuration that could not be applied: the old one stays.
    pub fn reload_refused(&self, why: &str) {
        self.rollout.reload_failures.fetch_add(1, Ordering::Relaxed);
        *lock(&self.rollout.last_reload_error) = why.to_string();
        self.metrics.config_reloads.add(1, &[opentelemetry::KeyValue::new("result", "refused")]);
        tracing::error!(error = %why, revision = %self.policy.load().revision, "configuration reload refused; keeping the running configuration");
    }

    fn redaction(&self) -> Redaction {
        self.config.load().telemetry.redact_input
    }

    /// Puts user text on a span as `telemetry.redact_input` allows. It is
    /// set as an OpenTelemetry attribute only, never as a tracing field, so
    /// the log (which prints span fields) never carries it in any mode.
    fn redact_into(&self, span: &tracing::Span, key: &'static str, text: &str) {
        use tracing_opentelemetry::OpenTelemetrySpanExt;
        // Without an exporter the span is disabled: no copy, no hash.
        if span.is_disabled() {
            return;
        }
        if let Some(v) = telemetry::redact(self.redaction(), text) {
            span.set_attribute(key, v);
        }
    }

    /// One decision record: what the ladder saw (request, session state,
    /// LLM answer, guard claim) and what it decided, with user text redacted
    /// as configured. With `redact_input = "off"` it replays exactly.
    fn record(&self, decided: &Decided, rec: Record<'_>) -> DecisionRecord {
        let mode = self.redaction();
        let text = |s: &str| telemetry::redact(mode, s).unwrap_or_default();
        let mut request = DecideRequest::clone(rec.req);
        request.input = text(&request.input);
        let strip = |c: &Cycle| {
            let mut c = c.clone();
            c.request = None;
            c.excerpts = c.excerpts.iter().map(|e| text(e)).collect();
            c.history = c.history.iter().map(|e| text(e)).collect();
            c
        };
        let mut state = rec.state.clone();
        state.cycle = state.cycle.as_ref().map(strip);
        let llm_answer = decided.llm_answer.clone().map(|a| match (a, mode) {
            (LlmAnswer::Replied { content, latency_ms }, m) if m != Redaction::Off => {
                LlmAnswer::Replied { content: telemetry::redact(m, &content).unwrap_or_default(), latency_ms }
            }
            (a, _) => a,
        });
        DecisionRecord {
            schema: RECORD_SCHEMA.into(),
            ts_ms: self.clock.now().wall_ms,
            call: rec.call.into(),
            redaction: mode,
            canonical_input: text(&decided.canonical_input),
            request,
            state,
            cycle: rec.cycle.map(strip),
            guard: decided.guard.clone(),
            llm_answer,
            events: decided.events.iter().map(|e| (e.name.to_string(), e.detail.clone())).collect(),
            decision: decided.decision.clone(),
        }
    }

    pub async fn record_outcome(&self, o: OutcomeInput) -> Result<(ContinuityState, bool), ApiError> {
        let policy = self.policy.load_full();
        let now = self.clock.now();
        let Some(state) = self.store.get(&o.session_id, now).await.map_err(internal)? else {
            return Err(ApiError::NotFound(format!("session {:?} not found (expired or never seen)", o.session_id)));
        };
        let last = state.last_resolved_action.as_ref();
        let target = if o.choice_id.is_empty() { last.map(|a| a.target_ref.clone()).unwrap_or_default() } else { o.choice_id.clone() };
        let also_rejected = (o.kind == "corrected").then(|| last.map(|a| a.target_ref.clone())).flatten().filter(|t| *t != target);
        let entry = ActionEntry {
            kind: ActionKind::Outcome,
            target_ref: target,
            source_scope: o.scope.as_ref().map(|s| s.scope).or(state.active_scope.as_ref().map(|s| s.scope)).unwrap_or_default(),
            option_set_id: if o.option_set_id.is_empty() {
                state.active_option_set_id.clone().unwrap_or_default()
            } else {
                o.option_set_id.clone()
            },
            timestamp_ms: now.wall_ms,
            outcome: match o.kind {
                "accepted" => ActionOutcome::Accepted,
                "rejected" => ActionOutcome::Rejected,
                "corrected" => ActionOutcome::Corrected,
                _ => ActionOutcome::Executed,
            },
        };
        self.store
            .apply(&o.session_id, Update::Outcome(OutcomeUpdate { entry, also_rejected }), now, policy.ttl)
            .await
            .map_err(internal)?;
        // Feedback for the rollout guardrails (a rejected execution is a
        // wrong action of the cohort that decided it).
        let s = self.config.load().guardrails.settings();
        lock(&self.rollout.guardrails).record_outcome(&s, &o.decision_id, o.kind, now.mono_ms);
        self.session(&o.session_id).await
    }

    /// The session and whether its continuity context is fresh.
    pub async fn session(&self, id: &str) -> Result<(ContinuityState, bool), ApiError> {
        let policy = self.policy.load_full();
        let now = self.clock.now();
        match self.store.get(id, now).await.map_err(internal)? {
            Some(s) => {
                let fresh = s.is_fresh(now, policy.ttl);
                Ok((ContinuityState::clone(&s), fresh))
            }
            None => Err(ApiError::NotFound(format!("session {id:?} not found (expired or never seen)"))),
        }
    }

    /// `Clarify`: language chain -> LLM draft -> invariants -> question
    /// acceptance -> format validation -> the draft or the fallback. Never
    /// an error once the request is valid.
    pub async fn clarify(&self, req: ClarifyRequest, deadline: Option<Instant>) -> AssistantMessage {
        let span = call_span("clarify", &req.session_id, &req.turn_id);
        self.redact_into(&span, "ladder.input", &req.query);
        let m = self.clarify_in_span(req, deadline).instrument(span.clone()).await;
        span.record("ladder.source", m.source);
        span.record("ladder.language", m.language.as_str());
        self.metrics.assistant_messages.add(1, &[opentelemetry::KeyValue::new("source", m.source)]);
        m
    }

    async fn clarify_in_span(&self, req: ClarifyRequest, deadline: Option<Instant>) -> AssistantMessage {
        let policy = self.policy.load_full();
        let a = &policy.assistant;
        let (lang, lang_source) = assistant::resolve_language(&req, &a.region_languages, &policy.default_language);
        let fallback = |mut issues: Vec<String>| {
            let (mut draft, used) = assistant::fallback(&a.templates, &req, &lang, &policy.default_language);
            if used != lang {
                issues.push(format!("no_templates_for_language: {lang}; answered in {used}"));
            }
            if req.kind() == MessageType::Clarify && !req.baseline_question.trim().is_empty() {
                let q = req.baseline_question.trim();
                let ok = assistant::accept_question(Some(q), &req.query, &req.intent, &a.slot_filling_intents, None, &[]).is_ok()
                    && assistant::format_issues(&draft.message, q, &used).is_empty();
                if ok {
                    draft.question = Some(q.to_string());
                }
            }
            assistant::finish(draft, "fallback", used, lang_source, Vec::new(), issues, req.baseline_missing_fields.clone())
        };
        let client = self.llms.load().main.clone().filter(|_| self.config().clarify.use_llm);
        let Some(client) = client else { return fallback(Vec::new()) };

        let body = crate::llm::prompt::assistant_body(&req, &lang, client.model(), client.max_tokens());
        let call = client.complete(&body, deadline).await;
        let content = match call.answer {
            LlmAnswer::Replied { content, .. } => content,
            LlmAnswer::Failed { reason, .. } | LlmAnswer::Skipped { reason } => {
                tracing::warn!(fallback_reason = reason.as_str(), "assistant draft unavailable; using the template");
                return fallback(vec![format!("llm_unavailable: {}", reason.as_str())]);
            }
        };
        let mut draft = match assistant::parse_draft(&content) {
            Ok(d) => d,
            Err(e) => {
                tracing::warn!(issue = %e, "assistant_validation_failed");
                return fallback(vec![format!("llm_reply_invalid: {e}")]);
            }
        };
        let rule = a.invariants.get(&req.kind()).cloned().unwrap_or_default();
        let (enforced, advice) = assistant::enforce(&mut draft, &rule, &req.reason);
        for e in &enforced {
            tracing::info!(invariant = %e, "assistant_invariant_enforced");
        }
        for adv in &advice {
            tracing::info!(advice = %adv, "assistant advice not followed (not forced)");
        }
        let mut issues = Vec::new();
        let mut missing = req.baseline_missing_fields.clone();
        if req.kind() == MessageType::Clarify {
            let accepted = assistant::accept_question(
                draft.question.as_deref(),
                &req.query,
                &req.intent,
                &a.slot_filling_intents,
                draft.missing_fields.as_deref(),
                &req.baseline_missing_fields,
            );
            match accepted {
                Ok(()) => missing = draft.missing_fields.clone().unwrap_or(missing),
                Err(why) => {
                    issues.push(format!("question_rejected: {why}"));
                    let (fb, _) = assistant::fallback(&a.templates, &req, &lang, &policy.default_language);
                    draft.question = Some(req.baseline_question.trim().to_string()).filter(|q| !q.is_empty()).or(fb.question);
                }
            }
        }
        let mut problems = assistant::format_issues(&draft.message, draft.question.as_deref().unwrap_or(""), &lang);
        // The draft must say it is in the language we asked for.
        if !draft.language.trim().is_empty() && !draft.language.trim().to_ascii_lowercase().starts_with(&lang) {
            problems.push(format!("language_field_mismatch: {} instead of {lang}", draft.language));
        }
        if !problems.is_empty() {
            for p in &problems {
                tracing::warn!(issue = %p, "assistant_validation_failed");
            }
            issues.extend(problems);
            let mut fb = fallback(issues);
            fb.enforced_invariants = enforced;
            return fb;
        }
        assistant::finish(draft, "llm", lang, lang_source, enforced, issues, missing)
    }

    /// `Extract`: the baseline, then (when switched on) hints from the
    /// built-in LLM hint and the agents, run concurrently, each within its
    /// own budget; one is chosen by the spec's tuple and applied by the
    /// acceptance rules. Errors inside hints leave the baseline unchanged.
    pub async fn extract(&self, req: ExtractRequest, deadline: Option<Instant>) -> Extracted {
        let span = call_span("extract", &req.session_id, &req.turn_id);
        self.redact_into(&span, "ladder.input", &req.text);
        let x = self.extract_in_span(req, deadline).instrument(span.clone()).await;
        span.record("ladder.decided_by_component", x.decided_by.as_str());
        self.metrics.extractions.add(1, &[opentelemetry::KeyValue::new("decided_by", x.decided_by.clone())]);
        x
    }

    async fn extract_in_span(&self, req: ExtractRequest, deadline: Option<Instant>) -> Extracted {
        let policy = self.policy.load_full();
        let cfg = self.config();
        let x = &cfg.extract;
        let base = extract::baseline(&req, &req.text, "baseline", &policy.lexicon, extract::Slots::new());
        let baseline_only =
            |hints: Vec<HintOutcome>| Extracted { slots: base.clone(), normalized: None, decided_by: "baseline".into(), hints };
        if !x.enabled || !(x.normalization_hint || x.entity_hint) {
            return baseline_only(Vec::new());
        }
        let llms = self.llms.load_full();
        // The built-in hint is component "llm"; agents come after it.
        let builtin = llms
            .hint
            .iter()
            .map(|h| (AgentConfig { id: "llm".into(), sample_rate: x.hint_sample_rate, ..AgentConfig::default() }, h.clone()));
        let components: Vec<(AgentConfig, Arc<LlmClient>)> = builtin.chain(llms.agents.iter().cloned()).collect();
        let runs = components.into_iter().map(|(agent, client)| {
            let AgentConfig { id, capabilities: caps, intents, sample_rate: rate, .. } = agent;
            let req = &req;
            let base = &base;
            async move {
                let want_norm = x.normalization_hint && caps.iter().any(|c| c == "normalization");
                let want_ent = x.entity_hint && caps.iter().any(|c| c == "entities");
                let applicable = (want_norm || want_ent) && (intents.is_empty() || intents.contains(&req.intent));
                let skipped = |detail: &str, applicable: bool| HintOutcome {
                    component: id.clone(),
                    status: HintStatus::Skipped,
                    applicable,
                    latency_ms: 0,
                    detail: detail.to_string(),
                    normalized: None,
                    entities: Vec::new(),
                };
                if !applicable {
                    return skipped("not applicable (capabilities, switches or intent allowlist)", false);
                }
                if !extract::sampled(&id, &req.turn_id, rate) {
                    return skipped("not sampled for this turn", true);
                }
                let body = crate::llm::prompt::extraction_body(req, client.model(), client.max_tokens());
                let call = client.complete(&body, deadline).await;
                let error = |detail: String, latency_ms: u32| HintOutcome {
                    component: id.clone(),
                    status: HintStatus::Error,
                    applicable: true,
                    latency_ms,
                    detail,
                    normalized: None,
                    entities: Vec::new(),
                };
                match call.answer {
                    LlmAnswer::Skipped { reason: r } => error(r.as_str().to_string(), 0),
                    LlmAnswer::Failed { reason, latency_ms, .. } => error(reason.as_str().to_string(), latency_ms),
                    LlmAnswer::Replied { content, latency_ms } => match extract::parse_hint(&content) {
                        Err(e) => error(e, latency_ms),
                        Ok(reply) => extract::evaluate(&id, &reply, req, base, want_norm, want_ent, latency_ms),
                    },
                }
            }
        });
        let outcomes: Vec<HintOutcome> = futures::future::join_all(runs).await;
        match extract::choose(&outcomes).filter(|o| o.status == HintStatus::Ok).cloned() {
            Some(chosen) => {
                tracing::info!(decided_by = %chosen.component, "extraction hint accepted");
                let slots = extract::apply(&req, &policy.lexicon, base.clone(), &chosen);
                Extracted { slots, normalized: chosen.normalized.clone(), decided_by: chosen.component.clone(), hints: outcomes }
            }
            None => {
                tracing::debug!(decided_by = "baseline", "no extraction hint accepted");
                baseline_only(outcomes)
            }
        }
    }

    /// Clears the session's continuity state and the option sets held for
    /// it (pool reuse); says whether the session existed.
    pub async fn reset_session(&self, id: &str) -> Result<bool, ApiError> {
        self.pools.remove_session(id);
        self.store.remove(id).await.map_err(internal)
    }
}

/// The schema of decision records (`telemetry.decision_log`).
pub const RECORD_SCHEMA: &str = "ladder.record.v1";

/// What `commit` needs to write a decision record.
struct Record<'a> {
    call: &'static str,
    req: &'a Arc<DecideRequest>,
    state: &'a ContinuityState,
    cycle: Option<&'a Cycle>,
    started: Instant,
}

/// One line of the decision log: enough to replay the decision offline.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct DecisionRecord {
    pub schema: String,
    pub ts_ms: i64,
    /// "decide" or "enrich".
    pub call: String,
    /// How user text was written (`off` records replay exactly).
    pub redaction: Redaction,
    pub canonical_input: String,
    pub request: DecideRequest,
    /// The session's continuity state as the ladder saw it.
    pub state: ContinuityState,
    /// For `enrich`: the cycle the step ran on.
    pub cycle: Option<Cycle>,
    pub guard: Option<GuardClaim>,
    pub llm_answer: Option<LlmAnswer>,
    pub events: Vec<(String, String)>,
    pub decision: Decision,
}

/// The span of one call; the daemon records the outcome on it.
fn call_span(name: &'static str, session_id: &str, turn_id: &str) -> tracing::Span {
    tracing::info_span!(
        target: "ladder::call",
        "call",
        otel.name = name,
        ladder.call = name,
        ladder.session_id = session_id,
        ladder.turn_id = turn_id,
        ladder.decision_id = tracing::field::Empty,
        ladder.outcome = tracing::field::Empty,
        ladder.decided_by = tracing::field::Empty,
        ladder.handled_by_tier = tracing::field::Empty,
        ladder.confidence_bucket = tracing::field::Empty,
        ladder.ambiguity_reason = tracing::field::Empty,
        ladder.fallback_reason = tracing::field::Empty,
        ladder.target_id = tracing::field::Empty,
        ladder.loop_cycle_id = tracing::field::Empty,
        ladder.evidence_fingerprint = tracing::field::Empty,
        ladder.config_revision = tracing::field::Empty,
        ladder.llm.called = tracing::field::Empty,
        ladder.llm.guard_hit = tracing::field::Empty,
        ladder.source = tracing::field::Empty,
        ladder.language = tracing::field::Empty,
        ladder.decided_by_component = tracing::field::Empty,
    )
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
    pub fn from_config(c: &Config) -> Result<Self, crate::llm::BuildError> {
        let main = LlmClient::from_config(&c.llm)?.map(Arc::new);
        let hint = LlmClient::from_config(&LlmConfig { timeout_ms: c.extract.hint_timeout_ms, ..c.llm.clone() })?.map(Arc::new);
        let mut agents = Vec::new();
        for a in &c.extract.agents {
            let cfg = LlmConfig {
                base_url: a.base_url.clone().or_else(|| c.llm.base_url.clone()),
                model: a.model.clone().or_else(|| c.llm.model.clone()),
                api_key: if a.api_key_file.is_some() { None } else { c.llm.api_key.clone() },
                api_key_file: a.api_key_file.clone().or_else(|| if c.llm.api_key.is_some() { None } else { c.llm.api_key_file.clone() }),
                timeout_ms: a.timeout_ms,
                ..c.llm.clone()
            };
            if let Some(client) = LlmClient::from_config(&cfg)? {
                agents.push((a.clone(), Arc::new(client)));
            }
        }
        Ok(Llms { main, hint, agents })
    }
}

/// What `Extract` answers.
#[derive(Debug, Clone)]
pub struct Extracted {
    pub slots: Slots,
    pub normalized: Option<String>,
    pub decided_by: String,
    pub hints: Vec<HintOutcome>,
}

fn unknown_cycle(input: &EnrichInput) -> ApiError {
    ApiError::FailedPrecondition(format!(
        "unknown loop_cycle_id {:?} for session {:?}: it expired, was replaced by a newer cycle, or never existed; call Decide again",
        input.loop_cycle_id, input.session_id
    ))
}

fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(e.to_string())
}

struct Ids {
    decision: String,
    cycle: String,
}

impl Ids {
    fn new() -> Self {
        Ids { decision: uuid::Uuid::new_v4().to_string(), cycle: uuid::Uuid::new_v4().to_string() }
    }
}

/// The ladder's view of the outside world for one call.
struct DaemonPorts<'a> {
    daemon: &'a Daemon,
    session_id: &'a str,
    llm: Option<Arc<LlmClient>>,
    deadline: Option<Instant>,
    policy: &'a Policy,
}

impl Ports for DaemonPorts<'_> {
    fn claim_guard(&self, guard_key: &str, cycle_id: &str) -> impl Future<Output = GuardClaim> + Send {
        let update = Update::ClaimGuard { guard_key: guard_key.to_string(), cycle_id: cycle_id.to_string() };
        async move {
            match self.daemon.store.apply(self.session_id, update, self.daemon.clock.now(), self.policy.ttl).await {
                Ok(Applied::GuardRepeat { ordering, suggested_id }) => GuardClaim::Repeat { ordering, suggested_id },
                Ok(_) => GuardClaim::Claimed,
                // Without the guard S5 cannot be promised: do not call.
                Err(e) => {
                    tracing::error!(error = %e, "loop guard unavailable; skipping the llm");
                    GuardClaim::Repeat { ordering: Vec::new(), suggested_id: None }
                }
            }
        }
    }

    fn arbitrate(&self, ask: &LlmAsk) -> impl Future<Output = LlmAnswer> + Send {
        let llm = self.llm.clone();
        let deadline = self.deadline;
        let ask = ask.clone();
        async move {
            match llm {
                None => LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled },
                Some(c) => c.arbitrate(&ask, deadline).await.answer,
            }
        }
    }
}
