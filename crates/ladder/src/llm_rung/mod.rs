//! The LLM rung (rung 8, docs/llm.md) and the policy step after it
//! (rung 9, `settle`): the one place the LLM is called, for ties the
//! rules could not settle, once per evidence (the loop guard), within the
//! cycle's budgets; the corroboration of a pick that passed every other
//! gate; and the mapping of what it did to a safe decision.

use crate::ask::{AskCandidate, AskContinuity, AskQuestion, LlmAsk, LlmContext};
use crate::canon::canonicalize;
use crate::clarifier::{Tie, TieItem};
use crate::draft::{Draft, Mode};
use crate::lexicon::Lexicon;
use crate::policy::{Budgets, Corroboration, Policy, SecondAnswer};
use crate::policy::{LlmAnswer, LlmMode, Verdict, interpret};
use crate::ports::TokenCounter;
use crate::ports::{GuardClaim, Ports};
use crate::replies::{self, By};
use crate::types::*;
use sha2::{Digest, Sha256};

mod settle;

/// What the LLM rung did.
#[derive(Debug, Clone)]
pub(crate) enum LlmStep {
    NotEligible,
    Skipped(FallbackReason),
    GuardRepeat {
        ordering: Vec<String>,
        suggested_id: Option<String>,
    },
    Failed {
        reason: FallbackReason,
        latency_ms: u32,
        detail: String,
    },
    /// `check`: the corroboration of a pick that passed every other gate
    /// (`None` when none was due or `auto_execute.corroboration = "none"`).
    Answered {
        verdict: Verdict,
        latency_ms: u32,
        check: Option<Check>,
    },
}

wire_enum! {
    "snake_case",
    /// What the corroboration of a pick found (the
    /// `ladder.llm.corroboration` attribute and metric label).
    pub enum Corroborated {
        /// The check picked the same candidate: the pick may execute.
        Agreed,
        /// The check picked another candidate (the second ask's pick), or
        /// the pick is not the deterministic ranking's clear first.
        Disagreed,
        /// Too little of the budget was left to ask again.
        SkippedNoTime,
        /// The second ask brought no usable pick: an error, a timeout, an
        /// abstain, an invalid reply, or a pick below `llm.confidence_min`.
        Failed,
    }
}

/// The corroboration of one pick.
#[derive(Debug, Clone)]
pub(crate) struct Check {
    pub(crate) result: Corroborated,
    /// The candidate the check points to (a real id): the second ask's
    /// pick, or for the deterministic check the candidate that is first or
    /// too close. Shown next to the pick when they differ.
    pub(crate) other: Option<String>,
    /// The second ask's verdict (or failure); empty when none was due.
    pub(crate) verdict: String,
    pub(crate) latency_ms: u32,
    pub(crate) detail: String,
}

impl LlmStep {
    pub(crate) fn name(&self) -> &'static str {
        match self {
            LlmStep::NotEligible => "not_eligible",
            LlmStep::Skipped(r) => r.as_str(),
            LlmStep::GuardRepeat { .. } => "loop_guard",
            LlmStep::Failed { reason, .. } => reason.as_str(),
            LlmStep::Answered { verdict, .. } => verdict.name(),
        }
    }
    pub(crate) fn detail(&self) -> String {
        match self {
            LlmStep::Failed { detail, latency_ms, .. } => format!("{detail} after {latency_ms} ms"),
            LlmStep::Answered { verdict: Verdict::Invalid { detail }, .. } => detail.clone(),
            LlmStep::Answered { verdict: Verdict::Select { choice_id, confidence }, latency_ms, check } => {
                let mut d = format!("{choice_id} at {confidence:.2} in {latency_ms} ms");
                if let Some(c) = check {
                    d.push_str(&format!("; corroboration {}: {}", c.result.as_str(), c.detail));
                }
                d
            }
            _ => String::new(),
        }
    }
}

/// The one LLM call site: checks the budgets and the
/// evidence, claims the loop guard (S5), asks once, validates the reply.
pub(crate) async fn run<P: Ports>(draft: &mut Draft<'_>, ports: &P, tie: &Tie<'_>) -> LlmStep {
    let p = draft.ctx.policy;
    if p.llm_mode == LlmMode::Off {
        return LlmStep::Skipped(FallbackReason::LlmDisabled);
    }
    let Some(cycle) = draft.cycle.clone() else { return LlmStep::Skipped(FallbackReason::LlmDisabled) };
    match draft.mode {
        Mode::Enrich(prev) => {
            let (before, after) = (prev.fingerprint.clone(), cycle.fingerprint.clone());
            draft.record(|s| {
                s.record("ladder.fingerprint_before", before.as_str());
                s.record("ladder.fingerprint_after", after.as_str());
            });
            if prev.fingerprint == cycle.fingerprint {
                draft.event("continuity_enrichment_fingerprint_unchanged", cycle.fingerprint.clone());
                return LlmStep::Skipped(FallbackReason::NoNewEvidence);
            }
            if cycle.llm_calls >= cycle.max_llm_calls(&p.budgets) {
                draft.event("continuity_enrichment_budget_exhausted", format!("{} llm calls", cycle.llm_calls));
                return LlmStep::Skipped(FallbackReason::BudgetExhausted);
            }
            // The snapshot may be stale (another Enrich on this cycle):
            // the store's count decides, atomically.
            if !ports.claim_llm_call(&cycle.id, cycle.max_llm_calls(&p.budgets)).await {
                draft.event("continuity_enrichment_budget_exhausted", "llm call not claimed".to_string());
                return LlmStep::Skipped(FallbackReason::BudgetExhausted);
            }
            draft.event("continuity_enrichment_retry_called", format!("retry {}", cycle.llm_calls));
        }
        Mode::Turn => {
            if cycle.llm_calls >= cycle.max_llm_calls(&p.budgets) {
                draft.event("continuity_enrichment_budget_exhausted", format!("{} llm calls", cycle.llm_calls));
                return LlmStep::Skipped(FallbackReason::BudgetExhausted);
            }
            let claim = ports.claim_guard(&cycle.guard_key, &cycle.id).await;
            draft.guard = Some(claim.clone());
            match claim {
                GuardClaim::Claimed => {}
                GuardClaim::Repeat { ordering, suggested_id } => return LlmStep::GuardRepeat { ordering, suggested_id },
                GuardClaim::Unavailable => return LlmStep::Skipped(FallbackReason::StateUnavailable),
            }
        }
    }
    let ask = ask(draft, tie);
    let max_calls = cycle.max_llm_calls(&p.budgets);
    if let Some(c) = draft.cycle.as_mut() {
        c.llm_attempted = true;
        c.llm_calls += 1;
    }
    let (retry, left) = (cycle.llm_calls, max_calls.saturating_sub(cycle.llm_calls + 1));
    let cycle_id = cycle.id.clone();
    draft.record(|s| {
        s.record("ladder.retry_index", retry);
        s.record("ladder.budget_remaining", left);
        s.record("ladder.loop_cycle_id", cycle_id.as_str());
    });
    draft.event("llm_arbitration_called", format!("{} candidates", ask.candidates.len()));
    let span = draft.open.as_ref().map_or_else(tracing::Span::current, |(_, _, s)| s.clone());
    let answer = tracing::Instrument::instrument(ports.arbitrate(&ask), span.clone()).await;
    draft.answer = Some(answer.clone());
    let latency = match &answer {
        LlmAnswer::Replied { latency_ms, .. } | LlmAnswer::Failed { latency_ms, .. } => *latency_ms,
        LlmAnswer::Skipped { reason: _ } => 0,
    };
    span.record("ladder.llm.latency_ms", latency);
    match answer {
        LlmAnswer::Skipped { reason: r } => LlmStep::Skipped(r),
        LlmAnswer::Failed { reason, latency_ms, detail } => LlmStep::Failed { reason, latency_ms, detail },
        LlmAnswer::Replied { content, latency_ms } => {
            let ids: Vec<&str> = ask.candidates.iter().map(|c| c.id.as_str()).collect();
            let verdict = interpret(&content, &ids, p.budgets.needed_evidence_types_max);
            if let Verdict::Invalid { detail } = &verdict {
                // Per call: the daemon warns once per interval (its events).
                tracing::debug!(detail = %detail, "llm reply rejected; treating as abstain");
            }
            if let Verdict::NeedMoreInfo { dropped, .. } = &verdict
                && !dropped.is_empty()
            {
                tracing::debug!(dropped = dropped.len(), "needed_evidence_types outside the allowlist or over the cap dropped");
            }
            draft.verdict = Some(verdict.clone());
            span.record("ladder.llm.verdict", verdict.name());
            // Corroboration: a pick that passed every other gate is checked
            // before it may execute, within the same attempt.
            let check = match &verdict {
                Verdict::Select { choice_id, confidence } if draft.gates(tie, choice_id, *confidence).is_ok() => {
                    corroborate(draft, ports, tie, &ask, choice_id, &span).await
                }
                _ => None,
            };
            LlmStep::Answered { verdict, latency_ms, check }
        }
    }
}

/// Corroborates a pick that passed every other gate,
/// as `auto_execute.corroboration` says: the deterministic ranking
/// first (it costs no call), then a second ask over the same pool,
/// reordered and relabelled, through `Ports::corroborate`. The second
/// ask is part of this attempt: no guard claim, no LLM call counted.
/// `None` when the configuration asks for no check.
async fn corroborate<P: Ports>(
    draft: &mut Draft<'_>,
    ports: &P,
    tie: &Tie<'_>,
    ask: &LlmAsk,
    pick: &str,
    span: &tracing::Span,
) -> Option<Check> {
    let p = draft.ctx.policy;
    let how = p.auto_execute.corroboration;
    if how == Corroboration::None {
        return None;
    }
    let mut check = Check { result: Corroborated::Agreed, other: None, verdict: String::new(), latency_ms: 0, detail: String::new() };
    if how.ranks() {
        check = rank_check(tie, &p.lexicon, pick, p.auto_execute.deterministic_margin);
    }
    if how.asks_again() && check.result == Corroborated::Agreed && ask.candidates.len() < 2 {
        // One candidate has no other order: a second ask could not tell
        // a pick from a position (or a parrot), so it is not made.
        check = Check {
            result: Corroborated::Failed,
            other: None,
            verdict: String::new(),
            latency_ms: 0,
            detail: "a lone candidate cannot be reordered".into(),
        };
    } else if how.asks_again() && check.result == Corroborated::Agreed {
        let seed = draft.cycle.as_ref().map(|c| format!("{}\u{1f}{}", c.guard_key, c.fingerprint)).unwrap_or_default();
        let (second, shown) = relabel(ask, seed.as_bytes());
        let answer = tracing::Instrument::instrument(ports.corroborate(&second), span.clone()).await;
        check = read_second(&answer, &shown, pick, p);
        draft.second = Some(SecondAnswer { answer, shown });
    }
    span.record("ladder.llm.corroboration", check.result.as_str());
    span.record("ladder.llm.corroboration_latency_ms", check.latency_ms);
    draft.event("llm_corroboration", format!("{} ({}): {}", check.result.as_str(), how.as_str(), check.detail));
    Some(check)
}

/// What the LLM is shown: the tie (at most `llm.max_candidates`), the
/// continuity context limited to its ids, the enriched context.
fn ask(draft: &Draft<'_>, tie: &Tie<'_>) -> LlmAsk {
    let p = draft.ctx.policy;
    let candidates: Vec<AskCandidate> = tie
        .items
        .iter()
        .take(p.llm_max_candidates)
        .map(|t| AskCandidate { id: t.id.clone(), label: t.label.clone(), kind: t.kind.clone(), hint: t.hint.clone() })
        .collect();
    let in_pool = |id: &String| candidates.iter().any(|c| &c.id == id);
    let st = draft.ctx.state;
    // What was asked (docs/replies.md): the app's question, or ladderd's. In
    // `Enrich` the session's question is the one this cycle asked after
    // the input, which the input cannot answer.
    let asked = replies::asked(draft.req, &st).filter(|(_, by)| *by == By::App || matches!(draft.mode, Mode::Turn)).and_then(|(q, _)| {
        let refused: Vec<&str> = draft.rejected_execute.iter().chain(&st.recent_rejected_choice_ids).map(String::as_str).collect();
        AskQuestion::of(&q, &candidates, &refused, p.llm_max_candidates)
    });
    let continuity = AskContinuity {
        last_accepted_choice_id: st.last_accepted_choice_id.clone().filter(in_pool),
        recently_rejected: st.recent_rejected_choice_ids.iter().filter(|id| in_pool(id)).cloned().collect(),
        pending_clarifier: st.pending_clarifier_type.as_str(),
        asked,
    };
    let context = draft.cycle.as_ref().map(|c| pack_context(&c.history, &c.excerpts, &p.budgets, draft.ctx.tokens)).unwrap_or_default();
    LlmAsk {
        canonical_input: draft.canonical.clone(),
        reason: tie.reason,
        candidates,
        continuity,
        context,
        allowed_evidence: EvidenceType::ALL.to_vec(),
    }
}

/// The opaque label of the `k`-th candidate (from 0) of a corroborating ask.
pub fn opaque_label(k: usize) -> String {
    format!("c{}", k + 1)
}

/// The corroborating ask: the same pool, input and
/// context, the candidates in another order in which no candidate keeps its
/// place, each under a fresh opaque label (`c1`, `c2`, ... in the new
/// order) so the model never sees a real id (continuity ids are relabelled
/// too; what was asked is left out). The order follows from `seed` alone, so a replay shows the model
/// the same ask. Returns the ask and the real ids in the order shown
/// (`c1` is the first).
pub fn relabel(ask: &LlmAsk, seed: &[u8]) -> (LlmAsk, Vec<String>) {
    let order = cyclic_order(ask.candidates.len(), seed);
    let shown: Vec<String> = order.iter().map(|&i| ask.candidates[i].id.clone()).collect();
    let label_of = |id: &str| shown.iter().position(|s| s == id).map(opaque_label);
    let candidates = order.iter().enumerate().map(|(k, &i)| AskCandidate { id: opaque_label(k), ..ask.candidates[i].clone() }).collect();
    let c = &ask.continuity;
    let continuity = AskContinuity {
        last_accepted_choice_id: c.last_accepted_choice_id.as_deref().and_then(label_of),
        recently_rejected: c.recently_rejected.iter().filter_map(|id| label_of(id)).collect(),
        pending_clarifier: c.pending_clarifier,
        // What was asked is left out: its order and its proposal name the
        // same candidate in both asks, so a model that echoes them would
        // agree with itself whatever the input means.
        asked: None,
    };
    (LlmAsk { candidates, continuity, ..ask.clone() }, shown)
}

/// A cyclic permutation of `0..n` drawn from `seed` (Sattolo's shuffle,
/// its random draws taken from SHA-256 of the seed): for `n >= 2` no
/// position keeps its element, so a model that answers by position (the
/// first, the last, the k-th) never names the same candidate twice.
fn cyclic_order(n: usize, seed: &[u8]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let h = Sha256::new().chain_update(seed).chain_update((i as u64).to_le_bytes()).finalize();
        let mut draw = [0u8; 8];
        draw.copy_from_slice(&h[..8]);
        order.swap(i, (u64::from_le_bytes(draw) % i as u64) as usize);
    }
    order
}

/// Reads the second ask's answer against the pick: its opaque label mapped
/// back through `shown`.
fn read_second(answer: &LlmAnswer, shown: &[String], pick: &str, p: &Policy) -> Check {
    let check =
        |result, other, verdict: &str, latency_ms, detail| Check { result, other, verdict: verdict.to_string(), latency_ms, detail };
    match answer {
        LlmAnswer::Skipped { reason: FallbackReason::Deadline } => check(
            Corroborated::SkippedNoTime,
            None,
            FallbackReason::Deadline.as_str(),
            0,
            "too little of the budget left to ask again".into(),
        ),
        LlmAnswer::Skipped { reason } => {
            check(Corroborated::Failed, None, reason.as_str(), 0, format!("second ask skipped: {}", reason.as_str()))
        }
        LlmAnswer::Failed { reason, latency_ms, detail } => {
            check(Corroborated::Failed, None, reason.as_str(), *latency_ms, format!("second ask failed: {} ({detail})", reason.as_str()))
        }
        LlmAnswer::Replied { content, latency_ms } => {
            let labels: Vec<String> = (0..shown.len()).map(opaque_label).collect();
            let refs: Vec<&str> = labels.iter().map(String::as_str).collect();
            match interpret(content, &refs, p.budgets.needed_evidence_types_max) {
                Verdict::Select { choice_id, confidence } => {
                    let Some(id) = labels.iter().position(|l| *l == choice_id).map(|k| shown[k].clone()) else {
                        return check(Corroborated::Failed, None, "invalid", *latency_ms, "label outside the ask".into());
                    };
                    let detail = format!("second ask picked {id} ({choice_id}) at {confidence:.2} in {latency_ms} ms");
                    if confidence < p.llm_confidence_min {
                        check(Corroborated::Failed, None, "low_confidence", *latency_ms, detail)
                    } else if id == pick {
                        check(Corroborated::Agreed, Some(id), "select", *latency_ms, detail)
                    } else {
                        check(Corroborated::Disagreed, Some(id), "select", *latency_ms, detail)
                    }
                }
                other => {
                    let detail = match &other {
                        Verdict::Invalid { detail } => format!("second ask invalid: {detail}"),
                        v => format!("second ask: {}", v.name()),
                    };
                    check(Corroborated::Failed, None, other.name(), *latency_ms, detail)
                }
            }
        }
    }
}

/// The deterministic check of a pick (docs/llm.md): it must be the
/// deterministic ranking's first candidate (the one the clarifier shows
/// first without the LLM), and its similarity to the input (`similarity`)
/// must beat every other candidate of the tie by at least `margin` (a lone
/// candidate must reach `margin` itself).
fn rank_check(tie: &Tie<'_>, lex: &Lexicon, pick: &str, margin: f32) -> Check {
    let sims: Vec<(String, f32)> = tie.items.iter().map(|t| (t.id.clone(), similarity(&tie.query.core, t, tie, lex))).collect();
    let best_other = |of: &str| sims.iter().filter(|(id, _)| id != of).max_by(|a, b| a.1.total_cmp(&b.1)).cloned();
    let mine = sims.iter().find(|(id, _)| id == pick).map_or(0.0, |(_, s)| *s);
    let Some((first, _)) = sims.first() else {
        return Check { result: Corroborated::Disagreed, other: None, verdict: String::new(), latency_ms: 0, detail: "no ranking".into() };
    };
    let (result, other, detail) = if first != pick {
        (Corroborated::Disagreed, Some(first.clone()), format!("the ranking puts {first} first"))
    } else {
        let (other, theirs) = best_other(pick).map_or((None, 0.0), |(id, s)| (Some(id), s));
        let lead = mine - theirs;
        if lead >= margin {
            (Corroborated::Agreed, None, format!("first by {lead:.2} (similarity {mine:.2})"))
        } else {
            (Corroborated::Disagreed, other, format!("first by only {lead:.2} (similarity {mine:.2}, margin {margin:.2})"))
        }
    };
    Check { result, other, verdict: String::new(), latency_ms: 0, detail }
}

/// How close a candidate is to the input, in [0, 1]: the normalized
/// Levenshtein similarity (over characters) of the canonical input without
/// its scope cue and leading selection verb to the candidate's canonical
/// label or, when closer, one of its aliases. The measure the fuzzy rung
/// ranks unresolved input by.
pub fn similarity(core: &str, item: &TieItem, tie: &Tie<'_>, lex: &Lexicon) -> f32 {
    let sim = |text: &str| rapidfuzz::distance::levenshtein::normalized_similarity(core.chars(), canonicalize(text, lex).chars()) as f32;
    let aliases = item.entry.and_then(|i| tie.pool.entries.get(i)).map_or(&[][..], |e| &e.cand.aliases[..]);
    aliases.iter().map(|a| sim(a)).fold(sim(&item.label), f32::max)
}

/// Packs enriched context for the prompt: chat history first (newest
/// first, at most `chat_history_max_turns` turns and
/// `chat_history_max_tokens` tokens), then excerpts (each at most
/// `snapshot_excerpt_max_tokens`), all within `blended_context_max_tokens`.
/// An entry that does not fit is cut (it ends with " …"), and what no
/// longer fits at all is counted in `omitted`: nothing is dropped silently.
pub fn pack_context(history: &[String], excerpts: &[String], b: &Budgets, tokens: &dyn TokenCounter) -> LlmContext {
    let mut out = LlmContext::default();
    let mut blended = b.blended_context_max_tokens;
    let mut history_left = b.chat_history_max_tokens.min(blended);
    for (i, turn) in history.iter().enumerate() {
        if i >= b.chat_history_max_turns || history_left == 0 {
            out.omitted += 1;
            continue;
        }
        let (text, used, cut) = fit(turn, history_left, tokens);
        out.truncated += usize::from(cut);
        history_left -= used;
        blended -= used;
        out.chat_history.push(text);
    }
    for e in excerpts {
        if blended == 0 {
            out.omitted += 1;
            continue;
        }
        let (text, used, cut) = fit(e, b.snapshot_excerpt_max_tokens.min(blended), tokens);
        out.truncated += usize::from(cut);
        blended -= used;
        out.excerpts.push(text);
    }
    out
}

/// `text` within `max` tokens: (text, tokens used, whether it was cut).
fn fit(text: &str, max: usize, tokens: &dyn TokenCounter) -> (String, usize, bool) {
    let n = tokens.count(text);
    if n <= max { (text.to_string(), n, false) } else { (format!("{} …", tokens.truncate(text, max)), max, true) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::WordCounter;
    use proptest::prelude::*;

    fn ask_of(n: usize) -> LlmAsk {
        LlmAsk {
            canonical_input: "the thing".into(),
            reason: AmbiguityReason::NoDeterministicMatch,
            candidates: (0..n)
                .map(|i| AskCandidate { id: format!("real-{i}"), label: format!("Label {i}"), kind: "k".into(), hint: format!("h{i}") })
                .collect(),
            continuity: AskContinuity {
                last_accepted_choice_id: (n > 1).then(|| "real-1".to_string()),
                recently_rejected: if n > 0 { vec!["real-0".into()] } else { Vec::new() },
                pending_clarifier: "selection_disambiguation",
                asked: (n > 0).then(|| AskQuestion {
                    kind: crate::question::QuestionKind::Choice,
                    offered: (0..n).rev().map(|i| format!("real-{i}")).collect(),
                    proposed: Some(format!("real-{}", n - 1)),
                    refused: vec!["real-0".into()],
                }),
            },
            context: LlmContext::default(),
            allowed_evidence: EvidenceType::ALL.to_vec(),
        }
    }

    proptest! {
        /// The second ask moves every candidate, hides every real id, keeps
        /// the pool, and is the same for the same seed.
        #[test]
        fn the_second_ask_moves_every_candidate_and_shows_no_real_id(n in 0usize..40, seed in prop::collection::vec(any::<u8>(), 0..40)) {
            let ask = ask_of(n);
            let (second, shown) = relabel(&ask, &seed);
            prop_assert_eq!(second.candidates.len(), n);
            prop_assert_eq!(shown.len(), n);
            let text = format!("{second:?}");
            for c in &ask.candidates {
                prop_assert!(!text.contains(&format!("\"{}\"", c.id)), "{} leaked: {}", c.id, text);
            }
            for (k, c) in second.candidates.iter().enumerate() {
                prop_assert_eq!(&c.id, &opaque_label(k));
                // The label maps back to the candidate it stands for.
                let real = ask.candidates.iter().find(|r| r.id == shown[k]).unwrap();
                prop_assert_eq!((&c.label, &c.kind, &c.hint), (&real.label, &real.kind, &real.hint));
                if n >= 2 {
                    prop_assert_ne!(&shown[k], &ask.candidates[k].id, "position {} kept its candidate", k);
                }
            }
            let mut sorted = shown.clone();
            sorted.sort();
            let mut ids: Vec<String> = ask.candidates.iter().map(|c| c.id.clone()).collect();
            ids.sort();
            prop_assert_eq!(sorted, ids, "the same pool");
            // Continuity ids are relabelled too; what was asked is left
            // out (its order and proposal would name the same candidate in
            // both asks).
            let real = |l: &String| shown[l[1..].parse::<usize>().unwrap() - 1].clone();
            if n > 1 {
                let l = second.continuity.last_accepted_choice_id.clone().unwrap();
                prop_assert_eq!(real(&l), "real-1");
            }
            prop_assert!(second.continuity.asked.is_none());
            prop_assert_eq!(relabel(&ask, &seed), (second, shown), "deterministic");
        }
    }

    #[test]
    fn different_turns_get_different_orders() {
        let ask = ask_of(6);
        let orders: std::collections::BTreeSet<Vec<String>> = (0..20u8).map(|s| relabel(&ask, &[s]).1).collect();
        assert!(orders.len() > 10, "{orders:?}");
    }

    #[test]
    fn context_is_packed_within_every_budget_and_cut_visibly() {
        let b = Budgets {
            chat_history_max_turns: 2,
            chat_history_max_tokens: 5,
            snapshot_excerpt_max_tokens: 3,
            blended_context_max_tokens: 9,
            ..Budgets::default()
        };
        let history = ["one two three", "four five six", "seven", "eight"].map(String::from);
        let excerpts = ["a b c d e", "f g", "h i"].map(String::from);
        let c = pack_context(&history, &excerpts, &b, &WordCounter);
        assert_eq!(c.chat_history, ["one two three", "four five …"], "2 turns, 5 tokens");
        assert_eq!(c.excerpts, ["a b c …", "f …"], "3 per excerpt, 9 in all");
        assert_eq!((c.truncated, c.omitted), (3, 3));
        let total: usize = c.chat_history.iter().chain(&c.excerpts).map(|s| WordCounter.count(s.trim_end_matches(" …"))).sum();
        assert!(total <= b.blended_context_max_tokens);
    }
}
