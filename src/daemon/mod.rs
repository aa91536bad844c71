//! The application layer: what each call does, in terms of the ladder, the
//! session store and the LLM client. gRPC handlers (`crate::grpc`) only
//! convert messages and call these methods. One file per capability:
//!
//! - [`turn`]: the turn calls (`Decide`, `Enrich`, `RecordOutcome`,
//!   `GetSession`, `ResetSession`) and the ladder's ports;
//! - [`assistant`]: the assistant calls (`Clarify`, `Extract`);
//! - [`rollout`]: guardrails, `GetRollout` / `ResetRollout`, and reloading
//!   the configuration.
//!
//! Every call reads ONE configuration [`Generation`] (the configuration,
//! the ladder's policy built from it and the LLM clients built from it,
//! swapped together), so a reload can never hand a call a mix of old and
//! new settings.

pub mod admit;
pub mod assistant;
pub mod rollout;
pub mod turn;

pub use rollout::{Prepared, ReloadFault, RolloutView, Trip};
pub use turn::{EnrichInput, OutcomeInput};

use crate::config::{Config, Redaction, SessionBackend};
use crate::error::ApiError;
use crate::llm::Llms;
use crate::store::{Clock, MemoryStore, PoolCache, PoolStore, RedisStore, SessionStore, StoreError};
use crate::telemetry::{self, Metrics, records::DecisionLog};
use arc_swap::ArcSwap;
use ladder::policy::Policy;
use ladder::ports::TokenCounter;
use std::sync::Arc;
use std::time::Duration;

/// One generation of the configuration: the configuration, the ladder's
/// policy and the LLM clients built from it. Swapped as one; a call loads
/// it once and uses only it.
pub struct Generation {
    pub config: Config,
    pub policy: Policy,
    pub llms: Llms,
    /// The token of the control calls (`admin.token_file`), read with the
    /// rest of the generation: a reload reads the file again.
    pub admin_token: Option<crate::config::AdminToken>,
    /// Canonical pools of recent requests, and what recent labels derive
    /// (`server.label_memo_bytes`), for this generation's lexicon and model
    /// (a reload starts an empty one).
    pub pool_memo: ladder::intern::PoolMemo,
}

/// The memo's budget, per configuration generation: large enough that a
/// thousand-candidate pool is kept (a pool over an eighth of the budget is
/// not), small and fixed so that the memo is bounded whatever the callers
/// send. Canonical pools take it whole, fingerprint states a quarter of it
/// again, interned option lists the whole again and their costs a
/// sixteenth: 9.25 MiB at most. What one pool takes at a hundred / a
/// thousand candidates of three-word labels: its canonical index about
/// 38 KB / 380 KB, its list about 24 KB / 243 KB and the 3.7 KB / 37 KB of
/// bytes it is known by, its signature fields about 5 KB at a hundred
/// (`tests::the_memo_keeps_a_thousand_candidate_pool_at_the_size_its_comment_gives`).
pub const POOL_MEMO_BYTES: usize = 4 << 20;

impl Generation {
    /// Builds the policy and the LLM clients of a validated configuration.
    /// Built at start and on every reload: both log it when LLM picks may
    /// execute uncorroborated (`auto_execute.corroboration = "none"`).
    pub fn new(config: Config) -> Result<Self, StartError> {
        let (policy, llms, admin_token) = Self::parts(&config)?;
        if llms.main.is_some() {
            // Only the LLM rung counts tokens: without a provider the
            // tokenizer's table (about 64 MB) is never built.
            crate::bpe::warm_up();
        }
        if let Some(warning) = policy.auto_execute.uncorroborated_warning() {
            tracing::warn!(revision = %policy.revision, "{warning}");
        }
        let pool_memo = ladder::intern::PoolMemo::new(POOL_MEMO_BYTES)
            .counting_vectors(policy.meaning.as_ref().map_or(0, |m| m.model.dim()))
            .with_labels(config.server.label_memo_bytes);
        Ok(Generation { config, policy, llms, admin_token, pool_memo })
    }

    /// Whether a validated configuration would start (`ladderd config
    /// --check`): every check `new` makes (the files it names read and
    /// checked: the model, the lexicon, the templates, the key and token
    /// files), with nothing kept.
    pub fn check(config: &Config) -> Result<(), StartError> {
        Self::parts(config).map(drop)
    }

    /// What a generation is built of, each checked.
    fn parts(config: &Config) -> Result<(Policy, Llms, Option<crate::config::AdminToken>), StartError> {
        let policy = config.policy()?;
        let llms = Llms::from_config(config)?;
        let admin_token = config.admin.token().map_err(StartError::AdminToken)?;
        Ok((policy, llms, admin_token))
    }
}

/// Everything a call needs, shared by all calls.
pub struct Daemon {
    current: ArcSwap<Generation>,
    /// The session store: this process's, or shared by the replicas
    /// (which also share the rollout trip and guardrail windows through it).
    store: Arc<dyn SessionStore>,
    clock: Clock,
    tokens: Arc<dyn TokenCounter + Send>,
    metrics: Metrics,
    records: Option<DecisionLog>,
    rollout: rollout::Rollout,
    pools: Arc<dyn PoolStore>,
    /// Calls whose matching is heavy run off the worker threads, this many
    /// at once (one per core).
    heavy: tokio::sync::Semaphore,
    /// Sessions whose last change the store did not take.
    refusals: Refusals,
    /// Repeated turns (`Decide` with the session's last `turn_id`).
    turns: turn::TurnCounters,
}

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    #[error(transparent)]
    Llm(#[from] crate::llm::BuildError),
    #[error("telemetry.decision_log.path: {0}")]
    DecisionLog(std::io::Error),
    #[error("{0}")]
    Store(String),
    #[error("admin.token_file: {0}")]
    AdminToken(String),
}

impl Daemon {
    pub fn new(config: Config) -> Result<Self, StartError> {
        let s = &config.sessions;
        let idle = Duration::from_secs(s.idle_ttl_seconds);
        let (store, pools, clock): (Arc<dyn SessionStore>, Arc<dyn PoolStore>, _) = match s.backend {
            SessionBackend::Memory => (
                Arc::new(MemoryStore::new(s.max, idle)),
                Arc::new(PoolCache::new(s.pool_cache_candidates, s.pool_cache_bytes)),
                Clock::default(),
            ),
            SessionBackend::Redis => {
                let shared = RedisStore::new(&s.redis, idle, s.pool_cache_candidates).map_err(StartError::Store)?;
                (Arc::new(shared.clone()), Arc::new(shared), Clock::wall())
            }
        };
        let dl = &config.telemetry.decision_log;
        let records =
            dl.path.as_deref().map(|p| DecisionLog::open(p, dl.max_bytes, dl.max_files)).transpose().map_err(StartError::DecisionLog)?;
        Ok(Daemon {
            metrics: Metrics::new(&opentelemetry::global::meter("ladderd")),
            records,
            pools,
            rollout: rollout::Rollout::default(),
            store,
            clock,
            tokens: Arc::new(crate::bpe::BpeCounter),
            current: ArcSwap::from_pointee(Generation::new(config)?),
            heavy: tokio::sync::Semaphore::new(std::thread::available_parallelism().map_or(1, |n| n.get())),
            refusals: Refusals::default(),
            turns: turn::TurnCounters::default(),
        })
    }

    /// This daemon keeping its sessions in `store` instead (tests that
    /// compare stores).
    #[cfg(test)]
    pub(crate) fn with_store(mut self, store: Arc<dyn SessionStore>) -> Self {
        self.store = store;
        self
    }

    /// The configuration generation in force now. A call loads it once.
    pub fn current(&self) -> Arc<Generation> {
        self.current.load_full()
    }

    /// Starts background work (the idle-session purge); it stops when the
    /// returned guard is dropped. Needs a tokio runtime.
    pub fn spawn_background(&self) -> Option<crate::store::PurgeGuard> {
        let idle = Duration::from_secs(self.current.load().config.sessions.idle_ttl_seconds);
        let every = (idle / 4).clamp(Duration::from_secs(1), Duration::from_secs(60));
        self.store.spawn_background(self.clock, every)
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

    pub fn store(&self) -> &Arc<dyn SessionStore> {
        &self.store
    }

    pub fn clock(&self) -> Clock {
        self.clock
    }

    /// Puts user text on a span as `telemetry.redact_input` allows. It is
    /// set as an OpenTelemetry attribute only, never as a tracing field, so
    /// the log (which prints span fields) never carries it in any mode.
    fn redact_into(mode: Redaction, span: &tracing::Span, key: &'static str, text: &str) {
        use tracing_opentelemetry::OpenTelemetrySpanExt;
        // Without an exporter the span is disabled: no copy, no hash.
        if span.is_disabled() {
            return;
        }
        if let Some(v) = telemetry::redact(mode, text) {
            span.set_attribute(key, v);
        }
    }
}

/// The span of one call; the daemon records the outcome on it.
fn call_span(call: telemetry::Call, session_id: &str, turn_id: &str) -> tracing::Span {
    let name = call.as_str();
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
        ladder.llm.corroboration = tracing::field::Empty,
        ladder.source = tracing::field::Empty,
        ladder.language = tracing::field::Empty,
        ladder.decided_by_component = tracing::field::Empty,
    )
}

/// A store failure as the caller sees it: `UNAVAILABLE`, saying why (a
/// refused write is named as such) and what to do.
fn unavailable(e: StoreError, what_to_do: &str) -> ApiError {
    tracing::debug!(error = %e, "session store unavailable");
    ApiError::Unavailable(format!("session store unavailable: {}; {what_to_do}", e.kind().for_caller()))
}

/// Sessions whose last change the shared store did not take (it refused
/// the write, or did not answer), for a while: a `GetSession`,
/// `RecordOutcome` or `Enrich` that then finds nothing says that this is
/// why (`UNAVAILABLE`), not that the session expired or never existed.
/// Bounded: the most recent `REFUSALS_MAX` sessions, each for
/// `REFUSAL_TTL`, forgotten when a change of theirs is written.
struct Refusals {
    any: std::sync::atomic::AtomicBool,
    seen: std::sync::Mutex<lru::LruCache<Box<str>, (crate::store::FailureKind, std::time::Instant)>>,
}

const REFUSALS_MAX: usize = 4096;
const REFUSAL_TTL: Duration = Duration::from_secs(600);

impl Default for Refusals {
    fn default() -> Self {
        Refusals {
            any: std::sync::atomic::AtomicBool::new(false),
            seen: std::sync::Mutex::new(lru::LruCache::new(std::num::NonZeroUsize::new(REFUSALS_MAX).expect("non-zero"))),
        }
    }
}

impl Refusals {
    fn note(&self, id: &str, e: &StoreError) {
        lock(&self.seen).put(id.into(), (e.kind(), std::time::Instant::now()));
        self.any.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// A change of the session was written: nothing to explain any more.
    fn forget(&self, id: &str) {
        // The common case (no write ever failed) takes no lock.
        if self.any.load(std::sync::atomic::Ordering::Relaxed) {
            lock(&self.seen).pop(id);
        }
    }

    /// `UNAVAILABLE` saying why the session's state is missing, when its
    /// last change was not written (recently).
    fn explain(&self, id: &str, what_to_do: &str) -> Option<ApiError> {
        if !self.any.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        let (kind, at) = *lock(&self.seen).get(id)?;
        (at.elapsed() < REFUSAL_TTL).then(|| {
            ApiError::Unavailable(format!(
                "session store unavailable: {}; this session's last change was not kept; {what_to_do}",
                kind.for_caller()
            ))
        })
    }
}

fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::POOL_MEMO_BYTES;
    use ladder::canon::canonicalize;
    use ladder::intern::{PoolMemo, pool_index};
    use ladder::matching::{self, Query};
    use ladder::policy::Policy;
    use ladder::scope::{self, Resolved};
    use ladder::types::*;

    /// What `POOL_MEMO_BYTES`' comment says a pool of the load tool's
    /// three-word labels takes in the memo, and that a thousand-candidate
    /// one is kept.
    #[test]
    fn the_memo_keeps_a_thousand_candidate_pool_at_the_size_its_comment_gives() {
        let policy = Policy::defaults();
        let lex = &policy.lexicon;
        for (n, kib) in [(100usize, 38usize), (1000, 380)] {
            let candidates: Vec<Candidate> = ladderd_load::samples::pool(n).into_iter().map(Candidate::from).collect();
            let req = DecideRequest {
                input: "lnks panle".into(),
                active_scope: Some(ScopeRef { scope: Scope::Chat, instance_id: "chat-1".into() }),
                options: Some(OptionSet {
                    option_set_id: "set-1".into(),
                    scope: Scope::Chat,
                    candidates: candidates.into(),
                    ..Default::default()
                }),
                ..Default::default()
            };
            let Resolved::Pool(pool) = scope::resolve(&req, None, false) else { panic!("a chat pool") };
            let memo = PoolMemo::new(POOL_MEMO_BYTES);
            let query = Query::new(canonicalize(&req.input, lex), lex);
            let stop = Default::default();
            let index = pool_index(Some(&memo), &pool, None, lex, &stop).unwrap();
            let rules = matching::Rules { lex, params: &policy.matching, ranked: policy.tie_len(), stop: &stop };
            matching::find(&req.input, &query, &pool, &index, &req.commands, rules).unwrap();
            let (pools, bytes) = memo.held();
            assert_eq!(pools, 1, "{n} candidates: the pool is kept");
            assert!(bytes.abs_diff(kib * 1000) < kib * 100, "{n} candidates: {bytes} bytes, not about {kib} KB");
            if n == 100 {
                let cands: Vec<&Candidate> = pool.entries.iter().map(|e| e.cand).collect();
                memo.fingerprints.fingerprint(req.active_scope.as_ref(), "set-1", &cands, &[]);
                let (states, bytes) = memo.fingerprints.held();
                assert_eq!(states, 1);
                assert!(bytes.abs_diff(5000) < 1000, "a hundred candidates' signature fields: {bytes} bytes, not about 5 KB");
            }
            // The list, interned under the bytes it is decoded from.
            let mut sent = ladderd_load::samples::panels_request("s-1", &req.input);
            let set = sent.options.as_mut().expect("options");
            set.candidates = ladderd_load::samples::pool(n);
            let wire = prost::Message::encode_to_vec(set);
            memo.intern(&wire, req.options.as_ref().unwrap().candidates.clone());
            let (lists, bytes) = memo.lists_held();
            assert_eq!(lists, 1, "{n} candidates: the list is held");
            let (kb, wire_bytes) = if n == 100 { (24, 3_700) } else { (243, 37_000) };
            assert!(
                wire.len().abs_diff(wire_bytes) < wire_bytes / 10,
                "{n} candidates: {} bytes on the wire, not about {wire_bytes}",
                wire.len()
            );
            let list = bytes - wire.len();
            assert!(list.abs_diff(kb * 1000) < kb * 100, "{n} candidates: a list of {list} bytes, not about {kb} KB");
        }
    }

    /// What docs/performance.md says a label of the load tool's three-word
    /// labels takes in the label memo (`server.label_memo_bytes`): its
    /// canonical part and fingerprint fields, and its vector of the
    /// shipped model, each with its key; so how many the default holds.
    #[test]
    fn the_label_memo_holds_what_performance_md_says_a_label_takes() {
        let policy = crate::config::Config::default().policy().unwrap();
        let meaning = policy.meaning.as_ref().expect("the shipped model");
        let memo = PoolMemo::new(POOL_MEMO_BYTES).with_labels(crate::config::Config::default().server.label_memo_bytes);
        let candidates: Vec<Candidate> = ladderd_load::samples::pool(1000).into_iter().map(Candidate::from).collect();
        let cands: Vec<&Candidate> = candidates.iter().collect();
        let keys: Vec<_> = cands.iter().map(|c| (ladder::intern::LabelKey::hash(c), ladder::intern::LabelKey(c))).collect();
        // Kept the second time they are seen.
        for _ in 0..2 {
            memo.labels.labels(&keys, &policy.lexicon, &Default::default()).unwrap();
            memo.labels.vectors(&cands, |missing| meaning.vectors_of(missing.iter().copied(), true));
        }
        let ((labels, label_bytes), (vectors, vector_bytes)) = memo.labels.held_counts();
        let distinct: std::collections::HashSet<(&str, &str, &str)> =
            candidates.iter().map(|c| (c.label.as_str(), c.badge.as_str(), c.kind.as_str())).collect();
        assert_eq!((labels, vectors), (distinct.len(), distinct.len()), "every label and vector kept");
        let (per_label, per_vector) = (label_bytes / labels, vector_bytes / vectors);
        assert!(per_label.abs_diff(390) < 40, "a label's parts: {per_label} bytes, not about 390");
        assert!(per_vector.abs_diff(1_120) < 60, "a vector: {per_vector} bytes, not about 1,120");
        // The default's quarter for the labels, the rest for the vectors,
        // each less its doorkeeper: some 5,000 labels of each.
        let budget = crate::config::Config::default().server.label_memo_bytes;
        let held = ((budget / 4 - (64 << 10)) / per_label, (budget - budget / 4 - (64 << 10)) / per_vector);
        assert!(held.0.abs_diff(5_200) < 300 && held.1.abs_diff(5_500) < 300, "the default holds {held:?} labels and vectors");
    }

    /// The load tool's sample request (the regression set shown in chat),
    /// as the daemon takes it off the wire: decoded, converted, its list
    /// interned on the bytes of its options.
    fn panels_turn(g: &super::Generation, session: &str, input: &str) -> DecideRequest {
        use prost::Message;
        let wire = ladderd_load::samples::panels_request(session, input).encode_to_vec();
        let req = crate::pb::DecideRequest::decode(&wire[..]).unwrap();
        let options = crate::grpc::wire::options("/ladder.v1.Arbiter/Decide", &wire).expect("options sent once");
        crate::grpc::options::decide_input(g, req, Some(&wire[options]), None).unwrap()
    }

    /// Sessions clarifying on the same options keep one list with their
    /// cycles (each request decoded its own), and the kept request is the
    /// request otherwise.
    #[tokio::test]
    async fn cycles_on_the_same_options_keep_one_list() {
        let daemon = super::Daemon::new(crate::config::Config::default()).unwrap();
        let g = daemon.current();
        let turn = |session: &str| panels_turn(&g, session, "links panel");
        let now = daemon.clock.now();
        let mut kept = Vec::new();
        for session in ["s-1", "s-2", "s-3"] {
            let d = daemon.decide(&g, turn(session), None).await.unwrap();
            assert_eq!(d.outcome, Outcome::Clarify);
            let state = daemon.store.get(session, now).await.unwrap().expect("the session is kept");
            let request = state.open_cycle().and_then(|c| c.request.clone()).expect("the cycle keeps its request");
            assert_eq!(*request, turn(session), "the kept request is the request");
            kept.push(request.options.as_ref().unwrap().candidates.clone());
        }
        assert!(std::sync::Arc::ptr_eq(&kept[0], &kept[1]) && std::sync::Arc::ptr_eq(&kept[1], &kept[2]), "one list for three cycles");
        assert_eq!(*kept[0], *turn("s-1").options.unwrap().candidates);
    }

    /// A turn changes the session's state in place: the daemon lets go of
    /// the state it read before the change is applied, so the in-memory
    /// store does not copy it (a copy is a new allocation while the old one
    /// is still held: another address). With a decision log the state goes
    /// with the record, and the store copies it.
    #[tokio::test]
    async fn a_turn_changes_the_session_state_in_place_unless_a_record_needs_it() {
        for log in [false, true] {
            let mut config = crate::config::Config::default();
            let dir = tempfile::tempdir().unwrap();
            if log {
                config.telemetry.decision_log.path = Some(dir.path().join("records.jsonl"));
            }
            let daemon = super::Daemon::new(config).unwrap();
            let g = daemon.current();
            let turn = |input: &str| panels_turn(&g, "s-1", input);
            let now = daemon.clock.now();
            let held = || async { daemon.store.get("s-1", now).await.unwrap().map(|s| std::sync::Arc::as_ptr(&s) as usize) };
            daemon.decide(&g, turn("Links Panel D"), None).await.unwrap();
            let first = held().await.expect("the session is kept");
            let d = daemon.decide(&g, turn("Links Panel E"), None).await.unwrap();
            assert_eq!(d.outcome, Outcome::Execute);
            let second = held().await.expect("the session is kept");
            assert_eq!(first == second, !log, "decision log {log}: changed in place: {}", first == second);
        }
    }
}
