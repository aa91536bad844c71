//! Rollout control: the guardrail windows fed by every decision and
//! outcome, the auto-execute trip, `GetRollout` / `ResetRollout`, and
//! reloading the configuration (one new generation, swapped whole).

use super::{Daemon, Generation, StartError, lock};
use crate::config::Config;
use crate::error::ApiError;
use crate::store::RolloutAction;
use crate::telemetry::Call;
use ladder::continuity::{ActionOutcome, Now};
use ladder::guardrails::{Breach, CohortReport, Guardrails, Sample, Windows};
use ladder::policy::LlmMode;
use ladder::types::{DecideRequest, Decision, FallbackReason, Outcome};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering};

/// Rollout control: guardrail windows, the kill-switch trip, reloads.
#[derive(Debug)]
pub(super) struct Rollout {
    guardrails: Mutex<Guardrails>,
    trip: Mutex<Option<Trip>>,
    /// Breaches seen at the last evaluation (to log and count new ones once).
    last: Mutex<Vec<(String, &'static str)>>,
    reloads: AtomicU64,
    reload_failures: AtomicU64,
    last_reload_error: Mutex<String>,
    /// The shared store's count of `ResetRollout`s, as last seen (-1:
    /// not read yet).
    epoch: AtomicI64,
    /// The other replicas' guardrail windows, as last read from the shared
    /// store (judged with this replica's own).
    remote: Mutex<Arc<Vec<Windows>>>,
    /// This process's name among the replicas sharing a store.
    replica: String,
    /// Whether `listen` is off loopback (callers on other hosts feed the
    /// guardrails), as the listener said at start.
    exposed: AtomicBool,
}

impl Default for Rollout {
    fn default() -> Self {
        Rollout {
            guardrails: Mutex::new(Guardrails::new(100_000)),
            trip: Mutex::new(None),
            last: Mutex::new(Vec::new()),
            reloads: AtomicU64::new(0),
            reload_failures: AtomicU64::new(0),
            last_reload_error: Mutex::new(String::new()),
            epoch: AtomicI64::new(-1),
            remote: Mutex::new(Arc::new(Vec::new())),
            replica: uuid::Uuid::new_v4().simple().to_string(),
            exposed: AtomicBool::new(false),
        }
    }
}

/// A trip as the shared store holds it.
#[derive(serde::Serialize, serde::Deserialize)]
struct SharedTrip {
    at_ms: i64,
    breaches: Vec<SharedBreach>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct SharedBreach {
    cohort: String,
    figure: String,
    value: f64,
    baseline: f64,
    threshold: f64,
}

impl SharedTrip {
    fn of(t: &Trip) -> Self {
        let breaches = t
            .breaches
            .iter()
            .map(|b| SharedBreach {
                cohort: b.cohort.clone(),
                figure: b.figure.into(),
                value: b.value,
                baseline: b.baseline,
                threshold: b.threshold,
            })
            .collect();
        SharedTrip { at_ms: t.at_ms, breaches }
    }

    fn trip(self) -> Trip {
        const FIGURES: [&str; 4] = ["wrong_action_rate", "clarifier_rate", "p95_latency_ms", "unchanged_fingerprint_retry_share"];
        let breaches = self
            .breaches
            .into_iter()
            .map(|b| Breach {
                figure: FIGURES.iter().find(|f| **f == b.figure).copied().unwrap_or("unknown"),
                cohort: b.cohort,
                value: b.value,
                baseline: b.baseline,
                threshold: b.threshold,
            })
            .collect();
        Trip { at_ms: self.at_ms, breaches }
    }
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
    pub llm_mode: LlmMode,
    pub auto_execute_configured: bool,
    pub trip: Option<Trip>,
    pub cohorts: Vec<CohortReport>,
    /// `guardrails.cohorts`: the cohorts judged (empty: every cohort).
    pub named_cohorts: Vec<String>,
    pub breaches: Vec<Breach>,
    pub config_reloads: u64,
    pub config_reload_failures: u64,
    pub last_reload_error: String,
}

impl RolloutView {
    /// Whether an LLM pick may execute now at all: auto-execute is switched
    /// on, the LLM runs live (not shadow, not off), and the guardrails have
    /// not tripped it off. Each pick must still pass every gate.
    pub fn auto_execute_effective(&self) -> bool {
        self.auto_execute_configured && self.trip.is_none() && self.llm_mode == LlmMode::Live
    }
}

impl Daemon {
    /// The cohort a request's turn counts under: its label's value
    /// (`default` without one), or `other` when `guardrails.cohorts` names
    /// cohorts and not that one.
    pub(super) fn cohort<'a>(g: &Generation, req: &'a DecideRequest) -> &'a str {
        let s = &g.config.guardrails;
        s.tracked(req.labels.get(&s.cohort_label).map_or("default", String::as_str))
    }

    /// At start, whether `listen` is off loopback. If it is, and the
    /// guardrails name no cohorts, warns: any caller that reaches the data
    /// port feeds them under any cohort it labels its turns with (so again
    /// on a reload that leaves the cohorts unnamed).
    pub fn listen_exposed(&self, exposed: bool) {
        self.rollout.exposed.store(exposed, Ordering::Relaxed);
        let s = &self.current().config.guardrails;
        if s.enabled && s.cohorts.is_empty() {
            self.warn_unnamed_cohorts();
        }
    }

    fn warn_unnamed_cohorts(&self) {
        if self.rollout.exposed.load(Ordering::Relaxed) {
            let label = self.current().config.guardrails.cohort_label.clone();
            tracing::warn!(
                "listen is not loopback and guardrails.cohorts is empty: any caller that reaches it feeds the guardrails, each turn \
                 in the cohort its label {label:?} names, and can trip auto-execute off (guardrails.auto_trip) or hide a cohort's \
                 regression among its own turns; name the cohorts to track (guardrails.cohorts = [\"canary\", \"baseline\"]): \
                 any other then counts as \"other\", which is never judged"
            );
        }
    }

    /// Feeds one decision to the guardrail windows.
    pub(super) fn feed_guardrails(&self, g: &Generation, d: &Decision, call: Call, req: &DecideRequest, elapsed_ms: f64) {
        if !g.config.guardrails.enabled {
            return;
        }
        let s = &g.config.guardrails;
        let cohort = Self::cohort(g, req);
        let now = self.guardrail_ms(self.clock.now());
        let executed = d.outcome == Outcome::Execute;
        let mut windows = lock(&self.rollout.guardrails);
        if call == Call::Enrich {
            windows.remember(s, cohort, &d.decision_id, executed);
            windows.record_retry(s, cohort, d.fallback_reason == Some(FallbackReason::NoNewEvidence), now);
        } else {
            let clarified = matches!(d.outcome, Outcome::Clarify | Outcome::NeedMoreInfo);
            windows.record_decision(s, cohort, &d.decision_id, Sample { executed, clarified, latency_ms: elapsed_ms }, now);
        }
    }

    /// Feeds an outcome: a rejected execution is a wrong action of the
    /// cohort that decided it.
    /// With a shared store, a decision executed on another replica is
    /// attributed through the cohort that replica remembered for it.
    pub(super) async fn feed_outcome(&self, g: &Generation, session_id: &str, decision_id: &str, kind: ActionOutcome, now: Now) {
        let s = &g.config.guardrails;
        let wrong = matches!(kind, ActionOutcome::Rejected | ActionOutcome::Corrected);
        if wrong
            && !decision_id.is_empty()
            && !lock(&self.rollout.guardrails).knows(decision_id)
            && let Ok(Some(cohort)) = self.store.executed_cohort(session_id, decision_id).await
        {
            lock(&self.rollout.guardrails).remember(s, &cohort, decision_id, true);
        }
        lock(&self.rollout.guardrails).record_outcome(s, decision_id, kind, self.guardrail_ms(now));
    }

    /// The guardrail windows' clock: this process's monotonic clock, or
    /// with a shared store the wall clock every replica's samples share.
    fn guardrail_ms(&self, now: Now) -> u64 {
        if self.clock.is_wall() { u64::try_from(now.wall_ms).unwrap_or(0) } else { now.mono_ms }
    }

    /// With a shared store, once per evaluation: publishes this replica's
    /// guardrail windows and keeps the other replicas' to judge with its
    /// own. Skipped until the reset count has been read, and when an
    /// operator reset the rollout since (`sync_rollout` clears first). A
    /// store that does not answer leaves the last windows read.
    pub async fn share_windows(&self) {
        let epoch = self.rollout.epoch.load(Ordering::Acquire);
        if epoch < 0 {
            return;
        }
        let g = self.current();
        let s = &g.config.guardrails;
        let now = self.clock.now();
        // Copied under the lock, written out without it.
        let own = lock(&self.rollout.guardrails).windows(s, self.guardrail_ms(now));
        let json = serde_json::to_string(&own).unwrap_or_default();
        let keep_ms = 2 * s.window_ms();
        if let Ok(Some(others)) = self.store.share_windows(&self.rollout.replica, &json, epoch, now.wall_ms, keep_ms).await {
            *lock(&self.rollout.remote) = Arc::new(others.iter().filter_map(|o| serde_json::from_str(o).ok()).collect());
        }
    }

    pub fn tripped(&self) -> bool {
        lock(&self.rollout.trip).is_some()
    }

    /// Evaluates the guardrails now: logs and counts new breaches, and trips
    /// auto-execute off when `guardrails.auto_trip` is set.
    pub fn check_guardrails(&self) -> (Vec<CohortReport>, Vec<Breach>) {
        self.check_guardrails_in(&self.current())
    }

    /// `check_guardrails` under the call's generation `g`.
    fn check_guardrails_in(&self, g: &Generation) -> (Vec<CohortReport>, Vec<Breach>) {
        let c = &g.config.guardrails;
        let remote = lock(&self.rollout.remote).clone();
        let now = self.guardrail_ms(self.clock.now());
        let baseline = c.baseline_cohort.as_deref();
        let (reports, breaches) = if remote.is_empty() {
            lock(&self.rollout.guardrails).evaluate(c, baseline, now)
        } else {
            // Every replica's samples are judged on a copy: decisions keep
            // feeding the windows meanwhile.
            let own = lock(&self.rollout.guardrails).windows(c, now);
            Guardrails::evaluate_windows(std::iter::once(&own).chain(remote.iter()), c, baseline, now)
        };
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
        if c.auto_trip && !breaches.is_empty() {
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

    /// The rollout's state (`GetRollout`), judged under the call's
    /// generation `g`.
    pub fn rollout(&self, g: &Generation) -> RolloutView {
        let (cohorts, breaches) = self.check_guardrails_in(g);
        RolloutView {
            config_revision: g.policy.revision.clone(),
            llm_mode: g.policy.llm_mode,
            auto_execute_configured: g.policy.auto_execute.enabled,
            trip: lock(&self.rollout.trip).clone(),
            cohorts,
            named_cohorts: g.config.guardrails.cohorts.clone(),
            breaches,
            config_reloads: self.rollout.reloads.load(Ordering::Relaxed),
            config_reload_failures: self.rollout.reload_failures.load(Ordering::Relaxed),
            last_reload_error: lock(&self.rollout.last_reload_error).clone(),
        }
    }

    /// An operator re-enables auto-execute after a trip. The guardrail
    /// windows start afresh, so only new evidence can trip it again. With a
    /// shared store, every replica: the trip is cleared there, and the
    /// others clear theirs at their next evaluation.
    pub async fn reset_rollout(&self, g: &Generation, note: &str) -> Result<RolloutView, ApiError> {
        let (_, epoch) = self
            .store
            .rollout(RolloutAction::Reset)
            .await
            .map_err(|e| super::unavailable(e, "retry ResetRollout (the other replicas keep their trip until it is reset)"))?;
        // Cleared before the new epoch is seen: the evaluation loop publishes
        // only under the epoch it read, so it either publishes under the old
        // one (refused by the store) or copies windows already cleared.
        let had = self.clear_rollout();
        self.rollout.epoch.store(epoch, Ordering::Release);
        if had {
            tracing::warn!(note = %note, "auto-execute re-enabled by an operator (ResetRollout)");
        }
        Ok(self.rollout(g))
    }

    fn clear_rollout(&self) -> bool {
        let had = lock(&self.rollout.trip).take().is_some();
        lock(&self.rollout.guardrails).clear();
        *lock(&self.rollout.remote) = Arc::new(Vec::new());
        lock(&self.rollout.last).clear();
        had
    }

    /// With a shared store, once per evaluation: adopts a trip another
    /// replica set, publishes this replica's trip, and clears both when an
    /// operator reset them anywhere. A store that does not answer leaves
    /// the local trip as it is (tripped stays tripped).
    pub async fn sync_rollout(&self) {
        let Ok((remote, epoch)) = self.store.rollout(RolloutAction::Read).await else { return };
        let seen = self.rollout.epoch.swap(epoch, Ordering::Relaxed);
        if seen >= 0 && seen != epoch {
            if self.clear_rollout() {
                tracing::warn!("auto-execute re-enabled: an operator reset the rollout on another replica");
            }
            return;
        }
        let local = lock(&self.rollout.trip).clone();
        match (local, remote) {
            (Some(t), None) => {
                let json = serde_json::to_string(&SharedTrip::of(&t)).unwrap_or_default();
                let _ = self.store.rollout(RolloutAction::Trip(&json)).await;
            }
            (None, Some(json)) => {
                if let Ok(t) = serde_json::from_str::<SharedTrip>(&json) {
                    tracing::error!(
                        "auto_execute_tripped: another replica's guardrails turned auto-execute off; call ResetRollout to re-enable"
                    );
                    *lock(&self.rollout.trip) = Some(t.trip());
                }
            }
            _ => {}
        }
    }

    /// Applies a new (validated) configuration for the next request, as one
    /// new generation. Keys that only take effect at start keep their
    /// running values; their names are returned.
    pub fn reload(&self, new: Config) -> Result<Vec<&'static str>, StartError> {
        Ok(self.apply(self.prepare(new)?))
    }

    /// The generation a new (validated) configuration makes, built and
    /// checked (its files read: this blocks), not in force yet: `apply`
    /// puts it in force. Keys that only take effect at start keep their
    /// running values.
    pub fn prepare(&self, mut new: Config) -> Result<Prepared, StartError> {
        let old = self.current();
        let old = &old.config;
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
            "admin.listen" => admin.listen,
            "server" => server,
            "sessions.max" => sessions.max,
            "sessions.idle_ttl_seconds" => sessions.idle_ttl_seconds,
            "sessions.backend" => sessions.backend,
            "sessions.redis" => sessions.redis,
            "telemetry.log_format" => telemetry.log_format,
            "telemetry.log_level" => telemetry.log_level,
            "telemetry.metrics_listen" => telemetry.metrics_listen,
            "telemetry.decision_log" => telemetry.decision_log,
            "config_reload" => config_reload,
        );
        Ok(Prepared { next: Generation::new(new)?, restart })
    }

    /// Puts a prepared generation in force for the next request; returns
    /// the keys that keep their running values until a restart.
    pub fn apply(&self, prepared: Prepared) -> Vec<&'static str> {
        let Prepared { next, restart } = prepared;
        let old = &self.current().config;
        let revision = next.policy.revision.clone();
        let unnamed = next.config.guardrails.enabled && next.config.guardrails.cohorts.is_empty();
        let was_open = old.guardrails.enabled && old.guardrails.cohorts.is_empty();
        self.current.store(Arc::new(next));
        self.rollout.reloads.fetch_add(1, Ordering::Relaxed);
        // The file as it is now applies: an earlier refusal no longer
        // describes it (GetRollout would read as still broken).
        lock(&self.rollout.last_reload_error).clear();
        if unnamed && !was_open {
            self.warn_unnamed_cohorts();
        }
        self.metrics.config_reloads.add(1, &[opentelemetry::KeyValue::new("result", "applied")]);
        tracing::info!(revision = %revision, restart_required = ?restart, "configuration reloaded");
        restart
    }

    /// A configuration that could not be applied: the old one stays.
    pub fn reload_refused(&self, why: &str) {
        self.reload_failed(ReloadFault::Refused, why);
    }

    /// A reload that did not happen (the file refused, missing or
    /// unreadable, or not loaded in time): counted by result, logged, and
    /// shown by `GetRollout`
    /// (`last_reload_error`); the running configuration stays. The watcher
    /// calls it once per fault (and on each SIGHUP while it lasts).
    pub fn reload_failed(&self, fault: ReloadFault, why: &str) {
        self.rollout.reload_failures.fetch_add(1, Ordering::Relaxed);
        *lock(&self.rollout.last_reload_error) = why.to_string();
        self.metrics.config_reloads.add(1, &[opentelemetry::KeyValue::new("result", fault.as_str())]);
        let revision = self.current().policy.revision.clone();
        match fault {
            ReloadFault::Refused => {
                tracing::error!(error = %why, revision = %revision, "configuration reload refused; keeping the running configuration")
            }
            ReloadFault::TimedOut => {
                tracing::error!(error = %why, revision = %revision, "configuration reload timed out; keeping the running configuration")
            }
            ReloadFault::Missing | ReloadFault::Unreadable => tracing::error!(
                error = %why,
                revision = %revision,
                result = fault.as_str(),
                "configuration file {}; keeping the running configuration",
                fault.as_str()
            ),
        }
    }
}

/// Why a reload did not happen: the `result` of
/// `ladder_config_reloads_total` (besides `applied`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReloadFault {
    /// The file was read, and is not a configuration to apply.
    Refused,
    /// The file is gone.
    Missing,
    /// The file is there and cannot be read.
    Unreadable,
    /// The configuration, or a file it names, was not loaded within the
    /// reload's deadline (a file that does not answer).
    TimedOut,
}

/// A configuration generation built and checked for a reload, not in
/// force yet (`Daemon::prepare`, `Daemon::apply`).
pub struct Prepared {
    next: Generation,
    restart: Vec<&'static str>,
}

impl ReloadFault {
    pub fn as_str(self) -> &'static str {
        match self {
            ReloadFault::Refused => "refused",
            ReloadFault::Missing => "missing",
            ReloadFault::Unreadable => "unreadable",
            ReloadFault::TimedOut => "timed_out",
        }
    }
}
