//! Offline replay: `ladderd replay --records FILE [--config NEW.toml]
//! [--corroboration MODE]` re-runs recorded decisions through the ladder and
//! reports what a configuration change would change. The LLM's answers and
//! the loop-guard claims come from the records (the LLM is never
//! re-queried), so the same records and configuration always give the same
//! report.
//!
//! A corroborating ask replays from the record's second
//! answer, and only when the replayed ask showed the same ids in the same
//! order as the recorded one (its opaque labels then mean the same
//! candidates). A record without one (written under another setting, or
//! before corroboration existed) is never given an invented answer: the
//! replayed pick counts as not corroborated, and the report counts how
//! many replays that was.

use crate::config::{Config, Redaction};
use crate::telemetry::Call;
use crate::telemetry::records::{DecisionRecord, RECORD_SCHEMA};
use ladder::ask::LlmAsk;
use ladder::decide::{self, Ctx, Mode};
use ladder::policy::{Corroboration, LlmAnswer, Policy};
use ladder::ports::{GuardClaim, Ports};
use ladder::types::{Decision, FallbackReason, Outcome};
use serde::Serialize;
use std::collections::BTreeMap;
use std::future::Future;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

/// The part of a decision the report compares.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub outcome: String,
    pub target_id: String,
    pub decided_by: String,
    pub fallback_reason: String,
    pub option_ids: Vec<String>,
}

impl Summary {
    fn of(d: &Decision) -> Self {
        Summary {
            outcome: d.outcome.as_str().to_string(),
            target_id: d.target_id.clone().unwrap_or_default(),
            decided_by: d.decided_by.as_str().to_string(),
            fallback_reason: d.fallback_reason.map_or(String::new(), |r| r.as_str().to_string()),
            option_ids: d.clarifier.as_ref().map(|c| c.option_ids.clone()).unwrap_or_default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Change {
    pub decision_id: String,
    pub call: Call,
    pub before: Summary,
    pub after: Summary,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub records: usize,
    pub replayed: usize,
    /// Records that cannot be replayed, by reason.
    pub skipped: BTreeMap<String, usize>,
    /// Replays that wanted an LLM answer the record does not hold (the LLM
    /// was off or skipped when recorded); they ran with the LLM off.
    pub llm_answer_unavailable: usize,
    /// Replays whose pick wanted a corroborating answer that the
    /// record does not hold; the pick counted as not corroborated.
    pub corroboration_answer_unavailable: usize,
    /// Replays whose corroborating ask showed other ids (or another order)
    /// than the recorded one, so the recorded answer could not be read
    /// against it; the pick counted as not corroborated.
    pub corroboration_answer_mismatched: usize,
    /// Corroborations by result ("agreed", "disagreed", ...), as recorded
    /// and as replayed.
    pub corroboration_before: BTreeMap<String, usize>,
    pub corroboration_after: BTreeMap<String, usize>,
    pub config_revision: String,
    pub before: BTreeMap<String, usize>,
    pub after: BTreeMap<String, usize>,
    pub clarifier_rate_before: f64,
    pub clarifier_rate_after: f64,
    pub changed: Vec<Change>,
}

struct ReplayPorts {
    guard: Option<GuardClaim>,
    answer: Option<LlmAnswer>,
    /// The recorded corroborating answer, when it may be used.
    second: Option<LlmAnswer>,
    unavailable: AtomicBool,
    second_unavailable: AtomicBool,
}

impl Ports for ReplayPorts {
    fn claim_guard(&self, _guard_key: &str, _cycle_id: &str) -> impl Future<Output = GuardClaim> + Send {
        std::future::ready(self.guard.clone().unwrap_or(GuardClaim::Claimed))
    }
    /// The recorded step made its call if the record holds an answer.
    fn claim_llm_call(&self, _cycle_id: &str, _max: u32) -> impl Future<Output = bool> + Send {
        std::future::ready(true)
    }
    fn arbitrate(&self, _ask: &LlmAsk) -> impl Future<Output = LlmAnswer> + Send {
        let a = match &self.answer {
            Some(a) => a.clone(),
            None => {
                self.unavailable.store(true, Ordering::Relaxed);
                LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }
            }
        };
        std::future::ready(a)
    }
    fn corroborate(&self, _ask: &LlmAsk) -> impl Future<Output = LlmAnswer> + Send {
        // Never an invented answer: without the recorded one the second ask
        // brings nothing, and the pick is not corroborated.
        let a = self.second.clone().unwrap_or_else(|| {
            self.second_unavailable.store(true, Ordering::Relaxed);
            LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }
        });
        std::future::ready(a)
    }
}

/// Reads records (JSON lines) from `files`, in order.
pub fn read(files: &[PathBuf]) -> Result<(Vec<DecisionRecord>, BTreeMap<String, usize>), String> {
    let mut out = Vec::new();
    let mut skipped = BTreeMap::new();
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            match serde_json::from_str::<DecisionRecord>(line) {
                Ok(r) if r.schema == RECORD_SCHEMA => out.push(r),
                Ok(_) => *skipped.entry("unknown schema".to_string()).or_insert(0) += 1,
                Err(_) => *skipped.entry("malformed line".to_string()).or_insert(0) += 1,
            }
        }
    }
    Ok((out, skipped))
}

fn rate(counts: &BTreeMap<String, usize>, total: usize) -> f64 {
    let clar =
        counts.get(Outcome::Clarify.as_str()).copied().unwrap_or(0) + counts.get(Outcome::NeedMoreInfo.as_str()).copied().unwrap_or(0);
    if total == 0 { 0.0 } else { clar as f64 / total as f64 }
}

/// Replays `records` under `config`, with `corroboration` (when given)
/// in place of its `auto_execute.corroboration`.
pub fn replay(
    records: &[DecisionRecord],
    mut skipped: BTreeMap<String, usize>,
    config: &Config,
    corroboration: Option<Corroboration>,
) -> Result<Report, String> {
    let mut policy: Policy = config.policy().map_err(|e| e.to_string())?;
    if let Some(c) = corroboration {
        policy.auto_execute.corroboration = c;
    }
    let tokens = crate::bpe::BpeCounter;
    let mut before = BTreeMap::new();
    let mut after = BTreeMap::new();
    let mut changed = Vec::new();
    let mut replayed = 0;
    let mut unavailable = 0;
    let (mut second_unavailable, mut second_mismatched) = (0, 0);
    let (mut corroboration_before, mut corroboration_after) = (BTreeMap::new(), BTreeMap::new());
    for r in records {
        if r.redaction != Redaction::Off {
            *skipped.entry("input redacted when recorded".to_string()).or_insert(0) += 1;
            continue;
        }
        if r.call == Call::Enrich && r.cycle.is_none() {
            *skipped.entry("enrich record without its cycle".to_string()).or_insert(0) += 1;
            continue;
        }
        let now = ladder::continuity::Now { mono_ms: 0, wall_ms: r.ts_ms };
        let cycle_id = r.decision.loop_cycle_id.clone().unwrap_or_else(|| "replay".to_string());
        let ctx = Ctx {
            policy: &policy,
            state: (&r.state).into(),
            now,
            decision_id: &r.decision.decision_id,
            new_cycle_id: &cycle_id,
            tokens: &tokens,
            auto_execute_tripped: false,
            deadline: None,
            pool_memo: None,
        };
        let mode = match &r.cycle {
            Some(c) if r.call == Call::Enrich => Mode::Enrich(c),
            _ => Mode::Turn,
        };
        let run = |second: Option<LlmAnswer>| {
            let ports = ReplayPorts {
                guard: r.guard.clone(),
                answer: r.llm_answer.clone(),
                second,
                unavailable: AtomicBool::new(false),
                second_unavailable: AtomicBool::new(false),
            };
            let d = futures::executor::block_on(decide::decide(&ctx, &r.request, mode, &ports)).expect("replay runs without a deadline");
            (d, ports.unavailable.into_inner(), ports.second_unavailable.into_inner())
        };
        let recorded_second = r.corroboration.as_ref();
        let (mut d, mut no_answer, mut no_second) = run(recorded_second.map(|s| s.answer.clone()));
        // The recorded answer names opaque labels of the recorded ask: it
        // means the same only if the replayed ask showed the same ids.
        if let (Some(rec), Some(now)) = (recorded_second, d.corroboration.as_ref())
            && rec.shown != now.shown
        {
            second_mismatched += 1;
            (d, no_answer, _) = run(None);
            no_second = false;
        }
        replayed += 1;
        if no_answer {
            unavailable += 1;
        }
        if no_second {
            second_unavailable += 1;
        }
        for (map, report) in [(&mut corroboration_before, &r.decision.llm), (&mut corroboration_after, &d.decision.llm)] {
            if !report.corroboration.is_empty() {
                *map.entry(report.corroboration.clone()).or_insert(0) += 1;
            }
        }
        let (b, a) = (Summary::of(&r.decision), Summary::of(&d.decision));
        *before.entry(b.outcome.clone()).or_insert(0) += 1;
        *after.entry(a.outcome.clone()).or_insert(0) += 1;
        if a != b {
            changed.push(Change { decision_id: r.decision.decision_id.clone(), call: r.call, before: b, after: a });
        }
    }
    Ok(Report {
        records: records.len() + skipped.values().sum::<usize>(),
        replayed,
        skipped,
        llm_answer_unavailable: unavailable,
        corroboration_answer_unavailable: second_unavailable,
        corroboration_answer_mismatched: second_mismatched,
        corroboration_before,
        corroboration_after,
        config_revision: policy.revision.clone(),
        clarifier_rate_before: rate(&before, replayed),
        clarifier_rate_after: rate(&after, replayed),
        before,
        after,
        changed,
    })
}

/// The report for people.
pub fn render(r: &Report) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let skipped: usize = r.skipped.values().sum();
    let _ = writeln!(s, "replayed {} of {} records under config revision {}", r.replayed, r.records, r.config_revision);
    for (why, n) in &r.skipped {
        let _ = writeln!(s, "  not replayable: {n} ({why})");
    }
    if r.llm_answer_unavailable > 0 {
        let _ = writeln!(s, "  {} replays had no recorded LLM answer and ran with the LLM off", r.llm_answer_unavailable);
    }
    if r.corroboration_answer_unavailable > 0 {
        let _ = writeln!(
            s,
            "  {} replays wanted a corroborating answer the record does not hold (recorded without one): not corroborated, never executed",
            r.corroboration_answer_unavailable
        );
    }
    if r.corroboration_answer_mismatched > 0 {
        let _ = writeln!(
            s,
            "  {} replays asked the corroborating question over other ids than recorded: the recorded answer was not used (not corroborated)",
            r.corroboration_answer_mismatched
        );
    }
    let _ = skipped;
    let _ = writeln!(s, "\n{:<16}{:>8}{:>8}", "outcome", "before", "after");
    let mut outcomes: Vec<&String> = r.before.keys().chain(r.after.keys()).collect();
    outcomes.sort();
    outcomes.dedup();
    for o in outcomes {
        let _ = writeln!(s, "{:<16}{:>8}{:>8}", o, r.before.get(o).unwrap_or(&0), r.after.get(o).unwrap_or(&0));
    }
    let _ = writeln!(
        s,
        "\nclarifier rate: {:.1}% -> {:.1}% ({:+.1} points)",
        r.clarifier_rate_before * 100.0,
        r.clarifier_rate_after * 100.0,
        (r.clarifier_rate_after - r.clarifier_rate_before) * 100.0
    );
    if !r.corroboration_before.is_empty() || !r.corroboration_after.is_empty() {
        let _ = writeln!(s, "\n{:<16}{:>8}{:>8}", "corroboration", "before", "after");
        let mut results: Vec<&String> = r.corroboration_before.keys().chain(r.corroboration_after.keys()).collect();
        results.sort();
        results.dedup();
        for c in results {
            let _ =
                writeln!(s, "{:<16}{:>8}{:>8}", c, r.corroboration_before.get(c).unwrap_or(&0), r.corroboration_after.get(c).unwrap_or(&0));
        }
    }
    let _ = writeln!(s, "\nchanged decisions: {}", r.changed.len());
    for c in &r.changed {
        let target = |x: &Summary| if x.target_id.is_empty() { String::new() } else { format!(" {}", x.target_id) };
        let _ = writeln!(
            s,
            "  {} ({}): {}{} by {} -> {}{} by {}{}",
            c.decision_id,
            c.call.as_str(),
            c.before.outcome,
            target(&c.before),
            c.before.decided_by,
            c.after.outcome,
            target(&c.after),
            c.after.decided_by,
            if c.after.fallback_reason.is_empty() { String::new() } else { format!(" ({})", c.after.fallback_reason) },
        );
    }
    s
}
