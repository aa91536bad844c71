//! Rollout guardrails (docs/rollout.md): per cohort, sliding-window figures
//! from the decisions and the `RecordOutcome` feedback, compared with a
//! baseline (another cohort, or the same cohort's previous window) using
//! the configured thresholds. Pure data: the daemon feeds it and acts on the
//! breaches (a metric, a log line, and optionally tripping auto-execute).
//!
//! Replicas that share a store judge one set of windows: each exports its
//! own samples ([`Guardrails::windows`], times in wall-clock ms) and judges
//! them with the others' ([`Guardrails::evaluate_windows`]).

use crate::continuity::ActionOutcome;
use rustc_hash::FxHashMap;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

/// The guardrails' settings: the `[guardrails]` section of the
/// configuration, as it is, with the default thresholds docs/rollout.md
/// gives.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Settings {
    pub enabled: bool,
    /// The `DecideRequest.labels` key naming a turn's cohort ("default"
    /// when absent).
    pub cohort_label: String,
    /// The cohorts the guardrails track, each in a slot of its own that is
    /// never given up: a turn of any other cohort counts as
    /// [`OTHER_COHORT`], which is reported and never judged (any caller
    /// can send any label; only the operator's names can trip anything).
    /// Empty: every cohort a label names is tracked, up to
    /// [`MAX_COHORTS`], and `other` is judged like the rest.
    pub cohorts: Vec<String>,
    /// Compare every cohort with this one; unset: with its own previous window.
    pub baseline_cohort: Option<String>,
    pub window_seconds: u64,
    /// Figures over fewer decisions are not judged.
    pub min_samples: u64,
    /// Samples kept per cohort at most (memory bound).
    pub max_samples: usize,
    pub evaluate_every_seconds: u64,
    /// Turn auto-execute off on a breach, until `ResetRollout`.
    pub auto_trip: bool,
    /// Wrong-action rate may rise at most this many percentage points.
    pub wrong_action_rate_increase_points: f64,
    /// Clarifier rate may rise at most this fraction (0.10 = 10%).
    pub clarifier_rate_increase_relative: f64,
    /// p95 latency may rise at most this many milliseconds.
    pub p95_latency_increase_ms: f64,
    /// At most this share of retries may have an unchanged fingerprint.
    pub unchanged_fingerprint_retry_share_max: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            enabled: true,
            cohort_label: "cohort".into(),
            cohorts: Vec::new(),
            baseline_cohort: None,
            window_seconds: 600,
            min_samples: 100,
            max_samples: 20_000,
            evaluate_every_seconds: 10,
            auto_trip: false,
            wrong_action_rate_increase_points: 0.5,
            clarifier_rate_increase_relative: 0.10,
            p95_latency_increase_ms: 250.0,
            unchanged_fingerprint_retry_share_max: 0.02,
        }
    }
}

impl Settings {
    pub fn window_ms(&self) -> u64 {
        self.window_seconds.saturating_mul(1000)
    }

    /// The cohort a turn of cohort `name` counts under: `name` itself, or
    /// `other` when cohorts are named and `name` is not one of them.
    pub fn tracked<'a>(&self, name: &'a str) -> &'a str {
        if self.cohorts.is_empty() || self.names(name) { name } else { OTHER_COHORT }
    }

    /// Whether a cohort's figures are judged: every cohort, or with named
    /// cohorts only those (`other` then holds whatever labels callers
    /// chose to send, so it may not trip auto-execute or stand for a
    /// regression).
    pub fn judges(&self, name: &str) -> bool {
        self.cohorts.is_empty() || self.names(name)
    }

    fn names(&self, name: &str) -> bool {
        self.cohorts.iter().any(|c| c == name)
    }
}

/// One decided turn, as the guardrails see it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    pub executed: bool,
    pub clarified: bool,
    pub latency_ms: f64,
}

#[derive(Debug, Clone, Copy)]
struct Turn {
    at_ms: u64,
    latency_ms: f64,
    clarified: bool,
    executed: bool,
}

#[derive(Debug, Default)]
struct Cohort {
    /// Its name, shared by the decisions remembered for it.
    name: Arc<str>,
    turns: VecDeque<Turn>,
    wrong: VecDeque<u64>,
    /// (time, fingerprint unchanged)
    retries: VecDeque<(u64, bool)>,
}

impl Cohort {
    /// When it last had a sample.
    fn newest(&self) -> Option<u64> {
        [self.turns.back().map(|t| t.at_ms), self.wrong.back().copied(), self.retries.back().map(|r| r.0)].into_iter().flatten().max()
    }
}

/// Figures of one cohort over one window.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Figures {
    pub decisions: u64,
    pub clarifier_rate: f64,
    pub executed: u64,
    pub wrong_actions: u64,
    /// Wrong actions per executed action, in [0, 1].
    pub wrong_action_rate: f64,
    pub p95_latency_ms: f64,
    pub retries: u64,
    pub unchanged_fingerprint_retry_share: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Breach {
    pub cohort: String,
    /// "wrong_action_rate", "clarifier_rate", "p95_latency_ms",
    /// "unchanged_fingerprint_retry_share".
    pub figure: &'static str,
    pub value: f64,
    pub baseline: f64,
    pub threshold: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CohortReport {
    pub cohort: String,
    pub figures: Figures,
    /// "cohort `<name>`", "previous window", or "" when not compared.
    pub compared_with: String,
}

/// One replica's samples over the last two windows, as it shares them with
/// the other replicas: per cohort, its turns as `[at_ms, latency_ms,
/// flags]` (flags: 1 executed, 2 clarified), its wrong actions' times and
/// its retries as `[at_ms, unchanged]`.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Windows {
    cohorts: BTreeMap<String, SharedCohort>,
}

#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
struct SharedCohort {
    #[serde(rename = "t")]
    turns: Vec<(u64, f64, u8)>,
    #[serde(rename = "w")]
    wrong: Vec<u64>,
    #[serde(rename = "r")]
    retries: Vec<(u64, bool)>,
}

/// The daemon's guardrail state.
#[derive(Debug)]
pub struct Guardrails {
    cohorts: BTreeMap<String, Cohort>,
    /// decision id -> (cohort, executed), to attribute outcomes: the last
    /// `max_decisions` or more, in generations of a tenth of them, the
    /// newest last.
    decisions: VecDeque<FxHashMap<DecisionId, (Arc<str>, bool)>>,
    max_decisions: usize,
}

/// How many generations remembered decisions are kept in.
const GENERATIONS: usize = 10;

/// The most cohorts a replica holds (each keeps up to `max_samples` turns),
/// and the most `guardrails.cohorts` may name.
pub const MAX_COHORTS: usize = 64;

/// Where the samples of cohorts past `MAX_COHORTS` are counted, and with
/// named cohorts those of every cohort not named.
pub const OTHER_COHORT: &str = "other";

/// A remembered decision's id: a UUID as the daemon writes its ids
/// (lowercase, hyphenated) in its sixteen bytes, any other id as it is. One
/// id is one key and one key one id (no other text reads as those bytes),
/// so attribution stays exact; a daemon's own ids cost no allocation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum DecisionId {
    Uuid([u8; 16]),
    Other(Box<str>),
}

impl DecisionId {
    fn of(id: &str) -> Self {
        uuid_bytes(id).map_or_else(|| DecisionId::Other(id.into()), DecisionId::Uuid)
    }
}

/// The bytes of `id` when it is a UUID written lowercase with hyphens
/// (`8-4-4-4-12` hex digits), else `None`.
fn uuid_bytes(id: &str) -> Option<[u8; 16]> {
    let b = id.as_bytes();
    if b.len() != 36 || [8, 13, 18, 23].iter().any(|&i| b[i] != b'-') {
        return None;
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        _ => None,
    };
    let mut out = [0u8; 16];
    let mut hex = b.iter().copied().filter(|&c| c != b'-');
    for byte in &mut out {
        *byte = (digit(hex.next()?)? << 4) | digit(hex.next()?)?;
    }
    Some(out)
}

impl Guardrails {
    pub fn new(max_decisions: usize) -> Self {
        Guardrails { cohorts: BTreeMap::new(), decisions: VecDeque::new(), max_decisions: max_decisions.max(1) }
    }

    /// The cohort a turn of cohort `name` counts in, added if new. With
    /// named cohorts, each named one and `other`. Without, cohorts come
    /// from a request label, so at most `MAX_COHORTS` are held: at the
    /// bound, those with nothing in the last two windows go, and if none
    /// did a new name's samples count in `OTHER_COHORT`.
    fn cohort(&mut self, s: &Settings, name: &str, now_ms: u64) -> &mut Cohort {
        let mut name = s.tracked(name);
        if !s.cohorts.is_empty() {
            // Cohorts held under an earlier configuration (one that named
            // others, or none) only ever count as `other`, which is not
            // judged: they go, and a named cohort always has its slot.
            if self.cohorts.len() > s.cohorts.len() + 1 || !self.cohorts.contains_key(name) {
                self.cohorts.retain(|k, _| k == OTHER_COHORT || s.names(k));
            }
        } else if !self.cohorts.contains_key(name) && self.cohorts.len() >= MAX_COHORTS {
            let from = now_ms.saturating_sub(2 * s.window_ms());
            self.cohorts.retain(|_, c| c.newest().is_some_and(|at| at > from));
            if self.cohorts.len() >= MAX_COHORTS {
                name = OTHER_COHORT;
            }
        }
        if !self.cohorts.contains_key(name) {
            self.cohorts.insert(name.to_string(), Cohort { name: name.into(), ..Cohort::default() });
        }
        self.cohorts.get_mut(name).expect("just added")
    }

    /// Forgets every window (after an operator reset: only new evidence
    /// may trip auto-execute again).
    pub fn clear(&mut self) {
        self.cohorts.clear();
    }

    /// A decided turn (`Decide`).
    pub fn record_decision(&mut self, s: &Settings, cohort: &str, decision_id: &str, sample: Sample, now_ms: u64) {
        let Sample { executed, clarified, latency_ms } = sample;
        let c = self.cohort(s, cohort, now_ms);
        c.turns.push_back(Turn { at_ms: now_ms, latency_ms, clarified, executed });
        trim(&mut c.turns, s.max_samples, |t| t.at_ms, now_ms, 2 * s.window_ms());
        let name = c.name.clone();
        self.remember_in(name, decision_id, executed);
    }

    /// Remembers a decision so later feedback can be attributed to it.
    pub fn remember(&mut self, s: &Settings, cohort: &str, decision_id: &str, executed: bool) {
        let cohort = s.tracked(cohort);
        let name = self.cohorts.get(cohort).map_or_else(|| cohort.into(), |c| c.name.clone());
        self.remember_in(name, decision_id, executed);
    }

    /// The last `max_decisions` are remembered (up to a tenth more), the
    /// oldest generation forgotten whole when a new one starts, and its
    /// table cleared and reused for it: once there are eleven no table is
    /// grown, rehashed or allocated again (one table of them all grew
    /// while the load ran, and each growth faulted in its fresh memory at
    /// once: tens of milliseconds on the call that made it).
    fn remember_in(&mut self, cohort: Arc<str>, decision_id: &str, executed: bool) {
        if decision_id.is_empty() {
            return;
        }
        let per = self.max_decisions.div_ceil(GENERATIONS);
        if self.decisions.back().is_none_or(|g| g.len() >= per) {
            let table = match self.decisions.len() > GENERATIONS {
                true => self.decisions.pop_front().map(|mut old| {
                    old.clear();
                    old
                }),
                false => None,
            };
            self.decisions.push_back(table.unwrap_or_else(|| FxHashMap::with_capacity_and_hasher(per, Default::default())));
        }
        if let Some(newest) = self.decisions.back_mut() {
            newest.insert(DecisionId::of(decision_id), (cohort, executed));
        }
    }

    /// What was remembered of a decision, the latest if twice.
    fn decision(&self, decision_id: &str) -> Option<&(Arc<str>, bool)> {
        let id = DecisionId::of(decision_id);
        self.decisions.iter().rev().find_map(|g| g.get(&id))
    }

    /// An `Enrich` retry; `unchanged` when the fingerprint had not changed.
    pub fn record_retry(&mut self, s: &Settings, cohort: &str, unchanged: bool, now_ms: u64) {
        let c = self.cohort(s, cohort, now_ms);
        c.retries.push_back((now_ms, unchanged));
        trim(&mut c.retries, s.max_samples, |r| r.0, now_ms, 2 * s.window_ms());
    }

    /// Whether feedback on this decision can be attributed (it was decided
    /// here and not forgotten yet).
    pub fn knows(&self, decision_id: &str) -> bool {
        self.decision(decision_id).is_some()
    }

    /// Feedback: a rejected or corrected executed decision is a wrong action.
    pub fn record_outcome(&mut self, s: &Settings, decision_id: &str, kind: ActionOutcome, now_ms: u64) {
        let Some((cohort, executed)) = self.decision(decision_id).cloned() else { return };
        if executed && matches!(kind, ActionOutcome::Rejected | ActionOutcome::Corrected) {
            let c = self.cohort(s, &cohort, now_ms);
            c.wrong.push_back(now_ms);
            trim(&mut c.wrong, s.max_samples, |t| *t, now_ms, 2 * s.window_ms());
        }
    }

    /// The figures of the samples of `cs` (one cohort, or what counts as
    /// one) in `(from, to]`.
    fn figures(cs: &[&Cohort], from: u64, to: u64) -> Figures {
        let turns = || cs.iter().flat_map(|c| &c.turns).filter(|t| t.at_ms > from && t.at_ms <= to);
        let mut lat: Vec<f64> = turns().map(|t| t.latency_ms).collect();
        let decisions = lat.len() as u64;
        let clarified = turns().filter(|t| t.clarified).count() as f64;
        let executed = turns().filter(|t| t.executed).count() as u64;
        let wrong = cs.iter().flat_map(|c| &c.wrong).filter(|t| **t > from && **t <= to).count() as u64;
        // The latency the sorted list holds at the 95th percentile's place,
        // found without sorting the window (it holds up to `max_samples`).
        let p95 = if lat.is_empty() {
            0.0
        } else {
            let at = ((lat.len() as f64 * 0.95).ceil() as usize).saturating_sub(1).min(lat.len() - 1);
            *lat.select_nth_unstable_by(at, f64::total_cmp).1
        };
        let retries: Vec<bool> = cs.iter().flat_map(|c| &c.retries).filter(|r| r.0 > from && r.0 <= to).map(|r| r.1).collect();
        let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.0 };
        Figures {
            decisions,
            clarifier_rate: ratio(clarified, decisions as f64),
            executed,
            wrong_actions: wrong,
            wrong_action_rate: ratio(wrong as f64, executed as f64).min(1.0),
            p95_latency_ms: p95,
            retries: retries.len() as u64,
            unchanged_fingerprint_retry_share: ratio(retries.iter().filter(|u| **u).count() as f64, retries.len() as f64),
        }
    }

    /// Current figures of every cohort and the breaches against the
    /// baseline: the `baseline` cohort when given (and big enough), else
    /// the cohort's own previous window.
    pub fn evaluate(&self, s: &Settings, baseline: Option<&str>, now_ms: u64) -> (Vec<CohortReport>, Vec<Breach>) {
        Self::judge(&self.cohorts, s, baseline, now_ms)
    }

    /// This replica's samples of the last two windows, to share.
    pub fn windows(&self, s: &Settings, now_ms: u64) -> Windows {
        let from = now_ms.saturating_sub(2 * s.window_ms());
        let cohorts = self
            .cohorts
            .iter()
            .map(|(name, c)| {
                let shared = SharedCohort {
                    turns: c
                        .turns
                        .iter()
                        .filter(|t| t.at_ms > from)
                        .map(|t| (t.at_ms, t.latency_ms, u8::from(t.executed) | (u8::from(t.clarified) << 1)))
                        .collect(),
                    wrong: c.wrong.iter().copied().filter(|t| *t > from).collect(),
                    retries: c.retries.iter().copied().filter(|r| r.0 > from).collect(),
                };
                (name.clone(), shared)
            })
            .collect();
        Windows { cohorts }
    }

    /// Like [`Guardrails::evaluate`], over the windows of every replica,
    /// this one's included (copied out with [`Guardrails::windows`], so it
    /// is judged without holding the daemon's lock): a cohort's figures
    /// count every replica's turns, so a regression spread over several
    /// replicas, each under `min_samples` alone, is still judged.
    pub fn evaluate_windows<'a>(
        all: impl IntoIterator<Item = &'a Windows>,
        s: &Settings,
        baseline: Option<&str>,
        now_ms: u64,
    ) -> (Vec<CohortReport>, Vec<Breach>) {
        let mut merged: BTreeMap<String, Cohort> = BTreeMap::new();
        for w in all {
            for (name, shared) in &w.cohorts {
                let c = merged.entry(name.clone()).or_default();
                c.turns.extend(shared.turns.iter().map(|&(at_ms, latency_ms, flags)| Turn {
                    at_ms,
                    latency_ms,
                    executed: flags & 1 != 0,
                    clarified: flags & 2 != 0,
                }));
                c.wrong.extend(shared.wrong.iter().copied());
                c.retries.extend(shared.retries.iter().copied());
            }
        }
        Self::judge(&merged, s, baseline, now_ms)
    }

    /// Every cohort's figures, and the breaches of the cohorts judged. The
    /// cohorts held are read as the settings track them: with named
    /// cohorts, any other (held under an earlier configuration, or shared
    /// by a replica that names none) counts as `other`, which is reported
    /// and not judged.
    fn judge(cohorts: &BTreeMap<String, Cohort>, s: &Settings, baseline: Option<&str>, now_ms: u64) -> (Vec<CohortReport>, Vec<Breach>) {
        let cur_from = now_ms.saturating_sub(s.window_ms());
        let prev_from = now_ms.saturating_sub(2 * s.window_ms());
        let mut tracked: BTreeMap<&str, Vec<&Cohort>> = BTreeMap::new();
        for (name, c) in cohorts {
            tracked.entry(s.tracked(name)).or_default().push(c);
        }
        let baseline = baseline.filter(|b| s.judges(b));
        let base_figures = baseline.and_then(|b| tracked.get(b)).map(|cs| Self::figures(cs, cur_from, now_ms));
        let mut reports = Vec::new();
        let mut breaches = Vec::new();
        let t = s;
        for (&name, cs) in &tracked {
            let cur = Self::figures(cs, cur_from, now_ms);
            if !s.judges(name) {
                reports.push(CohortReport { cohort: name.to_string(), figures: cur, compared_with: String::new() });
                continue;
            }
            let (base, with) = match (&base_figures, baseline) {
                (Some(b), Some(bn)) if bn != name && b.decisions >= s.min_samples => (Some(b.clone()), format!("cohort {bn}")),
                (_, Some(bn)) if bn == name => (None, String::new()),
                _ => {
                    let prev = Self::figures(cs, prev_from, cur_from);
                    if prev.decisions >= s.min_samples { (Some(prev), "previous window".to_string()) } else { (None, String::new()) }
                }
            };
            let mut breach = |figure, value: f64, baseline: f64, threshold: f64| {
                breaches.push(Breach { cohort: name.to_string(), figure, value, baseline, threshold });
            };
            // The share of unchanged-fingerprint retries is judged on its own.
            if cur.retries >= s.min_samples.min(50) && cur.unchanged_fingerprint_retry_share > t.unchanged_fingerprint_retry_share_max {
                breach(
                    "unchanged_fingerprint_retry_share",
                    cur.unchanged_fingerprint_retry_share,
                    0.0,
                    t.unchanged_fingerprint_retry_share_max,
                );
            }
            if let Some(b) = base.as_ref().filter(|_| cur.decisions >= s.min_samples) {
                if (cur.wrong_action_rate - b.wrong_action_rate) * 100.0 > t.wrong_action_rate_increase_points {
                    breach("wrong_action_rate", cur.wrong_action_rate, b.wrong_action_rate, t.wrong_action_rate_increase_points);
                }
                if b.clarifier_rate > 0.0 && cur.clarifier_rate > b.clarifier_rate * (1.0 + t.clarifier_rate_increase_relative) {
                    breach("clarifier_rate", cur.clarifier_rate, b.clarifier_rate, t.clarifier_rate_increase_relative);
                }
                if cur.p95_latency_ms - b.p95_latency_ms > t.p95_latency_increase_ms {
                    breach("p95_latency_ms", cur.p95_latency_ms, b.p95_latency_ms, t.p95_latency_increase_ms);
                }
            }
            reports.push(CohortReport { cohort: name.to_string(), figures: cur, compared_with: with });
        }
        (reports, breaches)
    }
}

/// Drops entries older than `keep_ms` and beyond `max` (oldest first).
fn trim<T>(q: &mut VecDeque<T>, max: usize, at: impl Fn(&T) -> u64, now_ms: u64, keep_ms: u64) {
    while q.front().is_some_and(|x| now_ms.saturating_sub(at(x)) > keep_ms) || q.len() > max {
        q.pop_front();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static S: std::sync::LazyLock<Settings> =
        std::sync::LazyLock::new(|| Settings { window_seconds: 60, min_samples: 100, max_samples: 100_000, ..Settings::default() });

    /// `n` turns of a cohort spread over `[from, to)`.
    fn stream(g: &mut Guardrails, cohort: &str, n: u64, from: u64, to: u64, f: impl Fn(u64) -> (bool, bool, f64)) {
        stream_under(&S, g, cohort, n, from, to, f);
    }

    /// `stream` under settings `s`.
    fn stream_under(s: &Settings, g: &mut Guardrails, cohort: &str, n: u64, from: u64, to: u64, f: impl Fn(u64) -> (bool, bool, f64)) {
        for i in 0..n {
            let (executed, clarified, latency) = f(i);
            let at = from + (to - from) * i / n;
            g.record_decision(s, cohort, &format!("{cohort}-{from}-{i}"), Sample { executed, clarified, latency_ms: latency }, at);
        }
    }

    fn figures_of(breaches: &[Breach]) -> Vec<&'static str> {
        breaches.iter().map(|b| b.figure).collect()
    }

    #[test]
    fn the_wrong_action_rate_crosses_half_a_point() {
        for (wrong, want_breach) in [(4u64, false), (7, true)] {
            let mut g = Guardrails::new(10_000);
            stream(&mut g, "control", 1000, 0, 60_000, |_| (true, false, 10.0));
            stream(&mut g, "llm", 1000, 0, 60_000, |_| (true, false, 10.0));
            // 1000 executed; `wrong` rejections -> 0.4% vs 0.7%.
            for i in 0..wrong {
                g.record_outcome(&S, &format!("llm-0-{i}"), ActionOutcome::Rejected, 30_000);
            }
            let (reports, breaches) = g.evaluate(&S, Some("control"), 60_000);
            let llm = reports.iter().find(|r| r.cohort == "llm").unwrap();
            assert_eq!(llm.figures.wrong_actions, wrong);
            assert_eq!(llm.compared_with, "cohort control");
            assert_eq!(figures_of(&breaches).contains(&"wrong_action_rate"), want_breach, "{wrong} wrong of 1000: {breaches:?}");
        }
    }

    #[test]
    fn a_regression_spread_over_replicas_is_judged_on_their_windows_together() {
        // Three replicas, 60 turns of each cohort each: under min_samples
        // (100) alone, 180 together. One wrong action per replica in `llm`.
        let replicas: Vec<Guardrails> = (1..=3u64)
            .map(|r| {
                let mut g = Guardrails::new(10_000);
                stream(&mut g, "control", 60, r, 60_000, |_| (true, false, 10.0));
                stream(&mut g, "llm", 60, r, 60_000, |_| (true, false, 10.0));
                g.record_outcome(&S, &format!("llm-{r}-0"), ActionOutcome::Rejected, 30_000);
                g
            })
            .collect();
        for g in &replicas {
            let (_, alone) = g.evaluate(&S, Some("control"), 60_000);
            assert!(alone.is_empty(), "60 turns are not judged: {alone:?}");
        }
        // What travels between replicas is JSON.
        let shared: Vec<Windows> =
            replicas.iter().map(|g| serde_json::from_str(&serde_json::to_string(&g.windows(&S, 60_000)).unwrap()).unwrap()).collect();
        let (reports, breaches) = Guardrails::evaluate_windows(&shared, &S, Some("control"), 60_000);
        let llm = reports.iter().find(|r| r.cohort == "llm").unwrap();
        assert_eq!((llm.figures.decisions, llm.figures.wrong_actions), (180, 3));
        assert_eq!(figures_of(&breaches), ["wrong_action_rate"]);
    }

    #[test]
    fn a_shared_turn_costs_about_forty_bytes_of_json() {
        // Wall-clock times and measured latencies, as a daemon shares them.
        let mut g = Guardrails::new(10_000);
        let start = 1_763_891_234_567;
        let n = 1_000u64;
        stream(&mut g, "llm", n, start, start + 100_000, |i| (i % 2 == 0, i % 3 == 0, 2.815_027 + i as f64 / 7.0));
        let json = serde_json::to_string(&g.windows(&S, start + 100_000)).unwrap();
        let per_turn = json.len() as u64 / n;
        assert!((30..=48).contains(&per_turn), "{per_turn} bytes a turn");
    }

    proptest::proptest! {
        /// A UUID written as the daemon writes ids is kept as its sixteen
        /// bytes; every other text as it is: two different ids are never
        /// one key (uppercase, braces, a digit short are other ids).
        #[test]
        fn one_decision_id_is_one_key(bytes in proptest::array::uniform16(proptest::num::u8::ANY), other in "[0-9a-fA-F{}-]{30,40}") {
            let id = format!(
                "{}-{}-{}-{}-{}",
                hex(&bytes[..4]), hex(&bytes[4..6]), hex(&bytes[6..8]), hex(&bytes[8..10]), hex(&bytes[10..])
            );
            proptest::prop_assert_eq!(DecisionId::of(&id), DecisionId::Uuid(bytes));
            let upper = id.to_uppercase();
            proptest::prop_assert_eq!(DecisionId::of(&upper) == DecisionId::of(&id), upper == id);
            proptest::prop_assert_eq!(DecisionId::of(&other) == DecisionId::of(&id), other == id);
            if let DecisionId::Uuid(b) = DecisionId::of(&other) {
                proptest::prop_assert_eq!(format!("{}-{}-{}-{}-{}", hex(&b[..4]), hex(&b[4..6]), hex(&b[6..8]), hex(&b[8..10]), hex(&b[10..])), other);
            }
        }

        /// The 95th percentile is the latency a sorted window holds at its
        /// place.
        #[test]
        fn the_p95_is_the_sorted_windows(latencies in proptest::collection::vec(0u32..1000, 1..300)) {
            let mut g = Guardrails::new(10);
            for (i, l) in latencies.iter().enumerate() {
                g.record_decision(&S, "c", "", Sample { executed: false, clarified: false, latency_ms: f64::from(*l) / 4.0 }, i as u64 + 1);
            }
            let mut sorted: Vec<f64> = latencies.iter().map(|l| f64::from(*l) / 4.0).collect();
            sorted.sort_by(f64::total_cmp);
            let at = ((sorted.len() as f64 * 0.95).ceil() as usize).saturating_sub(1);
            let (reports, _) = g.evaluate(&S, None, latencies.len() as u64 + 1);
            proptest::prop_assert_eq!(reports[0].figures.p95_latency_ms, sorted[at]);
        }

        /// Judging every replica's windows together is judging all the
        /// samples in one place, with cohorts named or not, and with
        /// windows recorded before the cohorts were named (a cohort not
        /// named then counts as `other` wherever it was held).
        #[test]
        fn windows_merged_from_replicas_judge_like_one_process(
            turns in proptest::collection::vec((0usize..3, 0usize..3, 0u64..120_000, proptest::bool::ANY, proptest::bool::ANY, 1u32..500), 0..400),
            wrongs in proptest::collection::vec((0usize..400, 0u64..120_000), 0..20),
            retries in proptest::collection::vec((0usize..3, 0u64..120_000, proptest::bool::ANY), 0..80),
        ) {
            let plain = Settings { window_seconds: 60, min_samples: 10, max_samples: 100_000, ..Settings::default() };
            let named = Settings { cohorts: vec!["control".into(), "llm".into()], ..plain.clone() };
            for (recorded, judged) in [(&plain, &plain), (&named, &named), (&plain, &named)] {
                let mut one = Guardrails::new(10_000);
                let mut each: Vec<Guardrails> = (0..3).map(|_| Guardrails::new(10_000)).collect();
                let cohort = |c: usize| ["control", "llm", "unnamed"][c];
                for (i, &(r, c, at, executed, clarified, latency)) in turns.iter().enumerate() {
                    let sample = Sample { executed, clarified, latency_ms: f64::from(latency) };
                    one.record_decision(recorded, cohort(c), &format!("d{i}"), sample, at);
                    each[r].record_decision(recorded, cohort(c), &format!("d{i}"), sample, at);
                }
                for &(i, at) in &wrongs {
                    if let Some(&(r, ..)) = turns.get(i) {
                        one.record_outcome(recorded, &format!("d{i}"), ActionOutcome::Rejected, at);
                        each[r].record_outcome(recorded, &format!("d{i}"), ActionOutcome::Rejected, at);
                    }
                }
                for &(r, at, unchanged) in &retries {
                    one.record_retry(recorded, "llm", unchanged, at);
                    each[r].record_retry(recorded, "llm", unchanged, at);
                }
                let now = 120_000;
                let all: Vec<Windows> = each.iter().map(|g| g.windows(recorded, now)).collect();
                for baseline in [None, Some("control")] {
                    proptest::prop_assert_eq!(Guardrails::evaluate_windows(&all, judged, baseline, now), one.evaluate(judged, baseline, now));
                }
            }
        }
    }

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    /// The last `max_decisions` decisions are known, older ones forgotten,
    /// and an executed one's rejection counts against its cohort.
    #[test]
    fn the_last_decisions_are_remembered_for_their_outcomes() {
        let mut g = Guardrails::new(100);
        let id = |i: u32| format!("{i:08x}-0000-4000-8000-{i:012x}");
        for i in 0..250 {
            let cohort = if i % 2 == 0 { "even" } else { "odd" };
            g.record_decision(&S, cohort, &id(i), Sample { executed: true, clarified: false, latency_ms: 1.0 }, 1);
        }
        g.remember(&S, "odd", "not-a-uuid", true);
        // Eleven generations of ten, the newest holding the last one: the
        // 100 before it are known.
        assert!(!g.knows(&id(149)) && g.knows(&id(150)) && g.knows(&id(249)), "the last 100 and more are known");
        assert!(g.knows("not-a-uuid") && !g.knows(&id(0xab).to_uppercase()));
        assert_eq!(g.decisions.len(), 11);
        assert!(g.decisions.iter().all(|t| t.len() <= 10 && t.capacity() < 20), "tables of a tenth, never grown");
        g.record_outcome(&S, &id(200), ActionOutcome::Rejected, 2);
        g.record_outcome(&S, &id(7), ActionOutcome::Rejected, 2);
        let (reports, _) = g.evaluate(&S, None, 2);
        let wrong = |c: &str| reports.iter().find(|r| r.cohort == c).unwrap().figures.wrong_actions;
        assert_eq!((wrong("even"), wrong("odd")), (1, 0), "a forgotten decision's outcome is not attributed");
    }

    /// Cohorts come from a request label: a replica holds at most
    /// `MAX_COHORTS`, the samples of any more count as `other`, and
    /// cohorts with nothing in the last two windows make room for new ones.
    #[test]
    fn cohorts_past_the_bound_count_as_other_and_stale_ones_make_room() {
        let mut g = Guardrails::new(1000);
        let sample = Sample { executed: false, clarified: true, latency_ms: 1.0 };
        for i in 0..200 {
            g.record_decision(&S, &format!("c{i}"), &format!("d{i}"), sample, 1000);
        }
        assert_eq!(g.cohorts.len(), MAX_COHORTS + 1);
        assert!(g.cohorts.contains_key("c0") && g.cohorts.contains_key("c63") && !g.cohorts.contains_key("c64"));
        assert_eq!(g.cohorts[OTHER_COHORT].turns.len(), 200 - MAX_COHORTS);
        g.record_retry(&S, "c199", true, 1000);
        assert_eq!(g.cohorts[OTHER_COHORT].retries.len(), 1);
        // Two windows later the stale cohorts make room.
        let later = 1000 + 2 * S.window_ms() + 1;
        g.record_decision(&S, "new", "d-new", sample, later);
        assert_eq!(g.cohorts.keys().collect::<Vec<_>>(), ["new"]);
    }

    /// Named cohorts: any caller's labels fill the 64 slots
    /// with easy turns first; without names the canary's turns then count
    /// as `other`, among the flood's, and its regression (every turn a
    /// clarifier) is hidden. Named, it keeps its slot and trips; the flood
    /// is `other`, reported and not judged.
    #[test]
    fn a_flood_of_unknown_labels_neither_takes_a_named_cohorts_slot_nor_hides_its_regression() {
        let named = Settings { cohorts: vec!["canary".into(), "baseline".into()], ..S.clone() };
        for (s, names) in [(&*S, false), (&named, true)] {
            let mut g = Guardrails::new(10_000);
            // The baseline clarifies one turn in five.
            stream_under(s, &mut g, "baseline", 1000, 0, 60_000, |i| (false, i % 5 == 0, 10.0));
            // 1,500 easy turns under 150 labels nobody named.
            for l in 0..150 {
                stream_under(s, &mut g, &format!("flood-{l}"), 10, 1, 30_000, |_| (true, false, 10.0));
            }
            stream_under(s, &mut g, "canary", 200, 30_000, 60_000, |_| (false, true, 10.0));
            let (reports, breaches) = g.evaluate(s, Some("baseline"), 60_000);
            let report = |c: &str| reports.iter().find(|r| r.cohort == c);
            if !names {
                assert!(report("canary").is_none(), "lumped into other");
                assert!(breaches.is_empty(), "the regression is hidden among the flood's turns: {breaches:?}");
                continue;
            }
            assert_eq!(report("canary").map(|r| r.figures.decisions), Some(200));
            let other = report(OTHER_COHORT).expect("the flood is reported");
            assert_eq!((other.figures.decisions, other.compared_with.as_str()), (1500, ""), "and not judged");
            assert_eq!(reports.len(), 3, "canary, baseline, other: {reports:?}");
            let tripped: Vec<(&str, &str)> = breaches.iter().map(|b| (b.cohort.as_str(), b.figure)).collect();
            assert_eq!(tripped, [("canary", "clarifier_rate")]);
        }
    }

    /// 150 clarifier-only turns under a label the operator did not name
    /// trip a breach when every label is a cohort, and none when cohorts
    /// are named: they count as `other`, which is not judged.
    #[test]
    fn turns_under_a_label_not_named_count_as_other_and_trip_nothing() {
        let named = Settings { cohorts: vec!["llm".into(), "baseline".into()], ..S.clone() };
        for (s, want) in [(&*S, vec![("canary".to_string(), "clarifier_rate")]), (&named, vec![])] {
            let mut g = Guardrails::new(10_000);
            stream_under(s, &mut g, "baseline", 1000, 0, 60_000, |i| (false, i % 5 == 0, 10.0));
            stream_under(s, &mut g, "canary", 150, 1, 60_000, |_| (false, true, 10.0));
            let (reports, breaches) = g.evaluate(s, Some("baseline"), 60_000);
            assert_eq!(breaches.iter().map(|b| (b.cohort.clone(), b.figure)).collect::<Vec<_>>(), want);
            let held = if want.is_empty() { OTHER_COHORT } else { "canary" };
            assert_eq!(reports.iter().find(|r| r.cohort == held).map(|r| r.figures.decisions), Some(150));
        }
    }

    /// A configuration that names cohorts after one that did not: the
    /// cohorts held before count as `other` when judged, and go at the
    /// next sample (a named cohort never waits for a slot).
    #[test]
    fn cohorts_held_before_cohorts_were_named_count_as_other_and_make_way() {
        let mut g = Guardrails::new(10_000);
        let sample = Sample { executed: false, clarified: true, latency_ms: 1.0 };
        for i in 0..MAX_COHORTS {
            g.record_decision(&S, &format!("c{i}"), &format!("d{i}"), sample, 1000);
        }
        let named = Settings { cohorts: vec!["canary".into()], ..S.clone() };
        let (reports, _) = g.evaluate(&named, None, 1000);
        let cohorts: Vec<(&str, u64)> = reports.iter().map(|r| (r.cohort.as_str(), r.figures.decisions)).collect();
        assert_eq!(cohorts, [(OTHER_COHORT, MAX_COHORTS as u64)]);
        g.record_decision(&named, "canary", "d-canary", sample, 1000);
        assert_eq!(g.cohorts.keys().collect::<Vec<_>>(), ["canary"], "every slot was taken before");
        g.record_decision(&named, "c1", "d-c1", sample, 1000);
        assert_eq!(g.cohorts.keys().collect::<Vec<_>>(), ["canary", OTHER_COHORT]);
        // Outcomes follow: a turn remembered under a label not named is `other`'s.
        g.remember(&named, "c2", "d-exec", true);
        g.record_outcome(&named, "d-exec", ActionOutcome::Rejected, 1000);
        assert_eq!(g.cohorts[OTHER_COHORT].wrong.len(), 1);
    }

    #[test]
    fn the_clarifier_rate_crosses_ten_percent_relative() {
        for (clarify_every, want) in [(10u64, false), (8, true)] {
            let mut g = Guardrails::new(10_000);
            // Baseline: 20% clarifiers. Cohort: 1 in `clarify_every` x 2.
            stream(&mut g, "control", 1000, 0, 60_000, |i| (false, i % 5 == 0, 10.0));
            stream(&mut g, "llm", 1000, 0, 60_000, |i| (false, (i % clarify_every) < 2, 10.0));
            let (_, breaches) = g.evaluate(&S, Some("control"), 60_000);
            assert_eq!(figures_of(&breaches).contains(&"clarifier_rate"), want, "1/{clarify_every}: {breaches:?}");
        }
    }

    #[test]
    fn p95_latency_against_the_previous_window() {
        for (slow_ms, want) in [(200.0, false), (400.0, true)] {
            let mut g = Guardrails::new(10_000);
            stream(&mut g, "default", 1000, 0, 60_000, |_| (false, false, 20.0));
            stream(&mut g, "default", 1000, 60_000, 120_000, |i| (false, false, if i % 10 == 0 { slow_ms + 20.0 } else { 20.0 }));
            let (reports, breaches) = g.evaluate(&S, None, 120_000);
            assert_eq!(reports[0].compared_with, "previous window");
            assert_eq!(figures_of(&breaches).contains(&"p95_latency_ms"), want, "{slow_ms}: {breaches:?}");
        }
    }

    #[test]
    fn unchanged_fingerprint_retries_over_two_percent() {
        for (unchanged, want) in [(2u64, false), (3, true)] {
            let mut g = Guardrails::new(10_000);
            for i in 0..100 {
                g.record_retry(&S, "default", i < unchanged, 1_000 + i);
            }
            let (_, breaches) = g.evaluate(&S, None, 60_000);
            assert_eq!(figures_of(&breaches).contains(&"unchanged_fingerprint_retry_share"), want, "{unchanged}/100");
        }
    }

    #[test]
    fn too_few_samples_are_not_judged_and_old_samples_age_out() {
        let mut g = Guardrails::new(10_000);
        stream(&mut g, "control", 50, 0, 60_000, |_| (false, false, 10.0));
        stream(&mut g, "llm", 50, 0, 60_000, |_| (false, true, 900.0));
        assert!(g.evaluate(&S, Some("control"), 60_000).1.is_empty());
        // Three windows later nothing is left.
        let (reports, _) = g.evaluate(&S, Some("control"), 240_000);
        assert!(reports.iter().all(|r| r.figures.decisions == 0));
    }
}
