//! The ladder as one sequence. `decide` lists the rungs in order:
//!
//! canonicalize -> exclusions -> scope -> reply -> match -> classify ->
//! collision -> continuity (and a detail answer) -> llm -> fallback
//!
//! Each rung appends a `Step` to the decision's trace; the rung that decides
//! sets `handled_by_tier`. This module holds the sequence and only the
//! sequence: each rung's rules live in its own module (`canon`,
//! `exclusions`, `scope`, `matching`, `classify`, `clarifier`,
//! `continuity`, `llm_rung`), and the working state that turns a rung's
//! result into a `Decision` is `draft::Draft`. The two effects the ladder needs
//! from outside — claiming the loop guard in the session store and asking
//! the LLM — come through [`Ports`], so this module stays free of any
//! runtime.

pub use crate::continuity::StateView;
pub use crate::cost::{DeadlinePassed, work};
pub use crate::draft::{Ctx, Decided, Event, Mode, guard_key};
use crate::draft::{reply_decision, unless_refused};

use super::canon::canonicalize;
use super::clarifier::{self, Tie, Wording};
use super::classify::{Evidence, Winner, by_position_unasked, classify};
use super::continuity::{self, Cycle, CycleChange, DecidedUpdate, Other, PendingClarifier};
use super::cost::Deadline;
use super::draft::LlmStep;
use super::exclusions::{an_action_of_a_label, hard_exclusion, says_a_label};
use super::intern;
use super::llm_rung;
use super::matching::{self, CanonPool, Query};
use super::meaning::Similar;
use super::policy::Policy;
use super::ports::Ports;
use super::scope::{self, CueParse, Pool, Resolved};
use super::text::words;
use super::types::*;
use crate::draft::{Draft, Offer};
use crate::replies::{self, Answer};

/// Runs the ladder for one request.
///
/// `Err(DeadlinePassed)` when `ctx.deadline` passed while the rungs ran:
/// the caller is gone, and nothing is to be applied to the session.
pub async fn decide<P: Ports>(ctx: &Ctx<'_>, req: &DecideRequest, mode: Mode<'_>, ports: &P) -> Result<Decided, DeadlinePassed> {
    let p = ctx.policy;
    let stop = Deadline::new(ctx.deadline);
    let lex = &p.lexicon;
    let mut draft = Draft::new(ctx, req, mode);

    // 1. Canonicalize once; every later rung uses this text.
    draft.begin("canonicalize");
    let canonical = canonicalize(&req.input, lex);
    draft.canonical = canonical.clone();
    draft.step("ok", format!("{} tokens", words(&canonical).count()));

    // What the input says as a reply, from its words alone.
    let reading = replies::reading::read(&req.input, lex);

    // 2. Hard exclusions: the only early escapes. A cancel that refuses
    //    what was proposed ("no", "nope") is a reply (step 3b), and one
    //    that says a label whole ("Skip") is that request.
    draft.begin("exclusions");
    let exclusion = match hard_exclusion(&req.input, &canonical, req, lex) {
        Some(EscapeReason::Cancel)
            if reading.declines() || says_a_label(req, &canonical, lex) || an_action_of_a_label(req, &canonical, lex) =>
        {
            None
        }
        e => e,
    };
    // A question after a yes ("Sounds good. When am I free that day?") or
    // one for other options ("any other options?") is read as a reply
    // first: the yes may stand, the request for others declines what was
    // proposed (step 3b); if neither, the question escapes as it would
    // have here.
    let only_for_others = reading.alternatives
        && !reading.refuses
        && reading.rest.iter().all(|w| lex.generic_nouns.contains(w) || lex.function_words.contains(w));
    let question_after_yes = exclusion == Some(EscapeReason::QuestionIntent) && (reading.affirms || only_for_others);
    draft.step(if question_after_yes { "question_after_yes" } else { exclusion.map_or("pass", EscapeReason::as_str) }, String::new());
    if let Some(reason) = exclusion.filter(|_| !question_after_yes) {
        return Ok(draft.escape(reason, None, Tier::Exclusions));
    }

    // 3. Scope cue, parsed before any widget shortcut, and the pool.
    draft.begin("scope");
    let parsed = scope::find_cue(&canonical, lex);
    // A question read as a reply first that holds a scope cue escapes as
    // it would have at the exclusions, not on its cue.
    if question_after_yes && !matches!(parsed, CueParse::None) {
        return Ok(draft.escape(EscapeReason::QuestionIntent, None, Tier::Exclusions));
    }
    let cue = match parsed {
        CueParse::None => None,
        CueParse::One(c) => Some(c),
        CueParse::Conflict => {
            draft.step("conflicting_cues", String::new());
            return Ok(draft.need_scope(Scope::Unspecified, EvidenceType::ScopeDisambiguationHint));
        }
    };
    // Recoverable chat options an Enrich step supplied join the pool.
    let recoverable = matches!(mode, Mode::Enrich(c) if c.supplied.contains(&EvidenceType::ChatRecoverableOptions));
    let pool = match scope::resolve(req, cue.as_ref().map(|c| c.scope), recoverable) {
        Resolved::Pool(pool) => pool,
        Resolved::EmptyScope { scope, needed } => {
            draft.step("empty_scope", format!("{} cue with no candidates", scope.as_str()));
            return Ok(draft.need_scope(scope, needed));
        }
    };
    draft.scope = cue.as_ref().map(|c| c.scope);
    let cue_name = cue.as_ref().map_or("none", |c| c.scope.as_str());
    draft.record(|s| {
        s.record("ladder.candidate_count", pool.len());
        s.record("ladder.scope", cue_name);
        s.record("ladder.option_set_id", req.option_set_id());
    });
    draft.step(cue_name, format!("{} candidates", pool.len()));

    // The pool's canonical index (the memo's for a pool that comes
    // again): the reply rung reads labels through it, matching too.
    let options = req.options.as_ref().map(|o| &o.candidates);
    let Ok(mut index) = intern::pool_index(ctx.pool_memo, &pool, options, lex, &stop) else {
        return Err(DeadlinePassed);
    };

    // 3b. Replies: the turn read against what was asked (docs/replies.md).
    draft.begin("reply");
    let hr = &p.matching.high_risk_kinds;
    let cx = replies::Context::new(req, &ctx.state, &pool, &index, lex, hr, &canonical).until(&stop);
    let answered = replies::answer(&cx, &reading);
    if stop.passed_now() {
        return Err(DeadlinePassed);
    }
    let taken = match answered.answer {
        Answer::Execute { .. } => reading.affirms,
        Answer::Escape { reason: EscapeReason::Declined, .. } => only_for_others,
        _ => false,
    };
    if question_after_yes && !taken {
        draft.step("pass", "a question: the yes does not stand".to_string());
        return Ok(draft.escape(EscapeReason::QuestionIntent, None, Tier::Exclusions));
    }
    draft.rejected_execute = answered.rejected.clone();
    let mut again: Option<(String, Vec<usize>)> = None;
    match answered.answer {
        Answer::Pass => draft.step("pass", String::new()),
        Answer::Again { text, without, kind } => {
            // What was read again, by its size and the options it leaves
            // out: the trace names rules and ids, never the input's words
            // (they leave the process in spans and decision records).
            let left_out: Vec<&str> = without.iter().map(|i| pool.entries[*i].cand.id.as_str()).collect();
            let without_ids = if left_out.is_empty() { String::new() } else { format!(" without {}", left_out.join(",")) };
            draft.step(kind.as_str(), format!("read again{without_ids}: {} tokens", words(&text).count()));
            again = Some((text, without));
        }
        answer => return Ok(reply_decision(draft, &pool, answer, answered.follow_up)),
    }
    let mut pool = pool;
    let mut matched_text = None;
    let mut meaning_text: Option<String> = None;
    if let Some((text, without)) = again {
        let dropped: Vec<&str> = without.iter().map(|i| pool.entries[*i].cand.id.as_str()).collect();
        let dropped: Vec<String> = dropped.into_iter().map(str::to_string).collect();
        // Positions still count on the list as the user saw it.
        pool.shown_len = Some(pool.ordinal_len());
        pool.entries.retain(|e| !dropped.contains(&e.cand.id));
        meaning_text = Some(text.clone());
        matched_text = Some(text);
        let Ok(fewer) = intern::pool_index(ctx.pool_memo, &pool, options, lex, &stop) else {
            return Err(DeadlinePassed);
        };
        index = fewer;
    }

    // 4. Match. A scope cue keeps the decision to that scope's candidates
    //    (S4): known commands are not among them.
    draft.begin("match");
    let commands: &[Candidate] = if cue.is_some() { &[] } else { &req.commands };
    let text = matched_text.unwrap_or_else(|| cue.map_or_else(|| canonical.clone(), |c| c.rest));
    // Said in other words than a label's own ("check me in", "without
    // onions"): read in the label's.
    let text = matching::in_the_labels_words(&text, &index, lex).unwrap_or(text);
    let query = Query::new(text, lex);
    let rules = matching::Rules { lex, params: &p.matching, ranked: p.tie_len(), stop: &stop };
    let Ok(matches) = matching::find(&req.input, &query, &pool, &index, commands, rules) else {
        return Err(DeadlinePassed);
    };
    draft.step(format!("{} hits", matches.hits.len()), matches.describe(&pool));

    // 5. Classify: the one place confidence is decided.
    draft.begin("classify");
    let class = classify(&Evidence {
        pool: &pool,
        matches: &matches,
        input_is_deictic: query.core.is_empty() || lex.deictic.contains(&query.core),
        params: &p.matching,
    });
    draft.class = Some(class);
    let reason_name = class.reason.map_or("", AmbiguityReason::as_str);
    draft.record(|s| {
        s.record("ladder.confidence_bucket", class.bucket.as_str());
        s.record("ladder.ambiguity_reason", reason_name);
    });
    let detail = match (class.refused, class.confirm) {
        (Some(e), _) => format!("{reason_name}; {} does not account for the input", pool.entries[e].cand.id),
        (_, Some(e)) => format!("{reason_name}; {} is high risk: confirm it", pool.entries[e].cand.id),
        _ => reason_name.to_string(),
    };
    draft.step(class.bucket.as_str(), detail);

    // 6. Collision guard: a high-confidence winner is either a selection or
    //    a command escape; everything else goes up the ladder.
    draft.begin("collision");
    match class.winner {
        // A high-risk option picked by position executes only in reply
        // to a question that showed it: on a plain screen it is
        // confirmed first.
        Some(Winner::Entry(i))
            if pool.entries[i].cand.is_high_risk(&p.matching.high_risk_kinds)
                && by_position_unasked(&matches, i, &pool.entries[i].cand.id, req, || ctx.state.question()) =>
        {
            let id = pool.entries[i].cand.id.clone();
            let why = format!("{id} picked by position, never asked about: confirm it");
            return Ok(draft.confirm_high_risk(Offer::among(vec![id.clone()]), id, why));
        }
        // A correction with a value changes a detail of what it names
        // ("actually, make it for 1"), and so does a value that differs
        // from one it shows ("one ticket" to "2 tickets"): never an
        // execute.
        Some(Winner::Entry(i)) if reading.changes_a_detail() || replies::changes_what_it_shows(&reading, pool.entries[i].cand) => {
            let id = pool.entries[i].cand.id.clone();
            draft.step("changes_a_detail", id.clone());
            draft.begin("fallback");
            return Ok(draft.fallback(Offer::among(vec![id]), None, LlmReport::default()));
        }
        Some(Winner::Entry(i)) => {
            let e = pool.entries[i];
            let fits: Vec<usize> = matches.hits.iter().filter(|h| h.kind > matching::MatchKind::Fuzzy).map(|h| h.entry).collect();
            return Ok(unless_refused(draft, &pool, i, &fits, |mut draft| {
                draft.event("deterministic_high_confidence_execute", e.cand.id.clone());
                draft.step("selection", e.cand.id.clone());
                draft.execute(e.cand.id.clone(), e.source, Decider::Deterministic, Tier::Deterministic)
            }));
        }
        Some(Winner::Command(i)) => {
            draft.step("command", req.commands[i].id.clone());
            return Ok(draft.escape(EscapeReason::Command, Some(req.commands[i].id.clone()), Tier::Command));
        }
        None => {}
    }
    let similar = match clarifier::ranks_by_meaning(&class, &matches, &query, lex) {
        true => similar(p, req, meaning_text.as_deref().unwrap_or(&req.input), &pool, &index),
        false => Similar(None),
    };
    let tie = Tie::new(&pool, &matches, &query, class, req, p.tie_len(), similar);
    draft.open_cycle(&tie);
    let sources: std::collections::BTreeSet<&str> =
        tie.items.iter().map(|t| t.entry.map_or("commands", |i| pool.entries[i].source.as_str())).collect();
    let sources = sources.into_iter().collect::<Vec<_>>().join(",");
    draft.record(|s| {
        s.record("ladder.sources_in_tie", sources.as_str());
    });
    draft.event("deterministic_low_confidence_tie", tie.reason.as_str().to_string());
    draft.step("unresolved", reason_name.to_string());
    // How the tie was ranked (S8: the order and the options only), with
    // the first options' similarities: ids and scores, no user text.
    draft.begin("rank");
    draft.step(tie.ranking().as_str(), tie.top_similarities(3));

    // 7. Continuity: may resolve a remaining tie under its strict rules.
    draft.begin("continuity");
    match continuity::resolve(&ctx.state, req, &tie, draft.guard_suggestion()) {
        // Continuity never executes a high-risk candidate: it is offered for
        // confirmation instead.
        Ok(i) if pool.entries[i].cand.is_high_risk(&p.matching.high_risk_kinds) => {
            let id = pool.entries[i].cand.id.clone();
            return Ok(draft.confirm_high_risk(Offer::of(&tie), id.clone(), id));
        }
        Ok(i) => {
            let e = pool.entries[i];
            draft.event("deterministic_continuity_resolve", e.cand.id.clone());
            draft.step("resolved", e.cand.id.clone());
            return Ok(draft.execute(e.cand.id.clone(), e.source, Decider::Continuity, Tier::Continuity));
        }
        Err(why) => {
            if why == continuity::REFUSED
                && let Some(i) = continuity::label_winner(&tie)
            {
                draft.refuse(pool.entries[i].cand.id.clone());
            }
            match continuity::the_other(&ctx.state, req, &tie, lex) {
                Ok(Other::One(i)) if pool.entries[i].cand.is_high_risk(&p.matching.high_risk_kinds) => {
                    let id = pool.entries[i].cand.id.clone();
                    return Ok(draft.confirm_high_risk(Offer::of(&tie), id.clone(), id));
                }
                Ok(Other::One(i)) => {
                    let e = pool.entries[i];
                    return Ok(unless_refused(draft, &pool, i, &[], |mut draft| {
                        draft.event("deterministic_continuity_resolve", e.cand.id.clone());
                        draft.step("the_other", e.cand.id.clone());
                        draft.execute(e.cand.id.clone(), e.source, Decider::Continuity, Tier::Continuity)
                    }));
                }
                // The options but the one just had: a question, not the LLM's.
                Ok(Other::Among(rest)) => {
                    let ids: Vec<String> = rest.iter().map(|i| pool.entries[*i].cand.id.clone()).collect();
                    draft.step("the_others", ids.join(","));
                    draft.begin("fallback");
                    return Ok(draft.fallback(Offer::among(ids), None, LlmReport::default()));
                }
                Err(_) => draft.step("pass", why.to_string()),
            }
        }
    }

    // 7b. An answer to "which one?" by a detail only one offered option
    //     shows, where the screen left the tie; the same words
    //     again (the session's open cycle on this evidence) answer nothing.
    let cx = replies::Context::new(req, &ctx.state, &pool, &index, lex, hr, &canonical).until(&stop);
    let same_words_again = draft.continues_a_cycle();
    let detail = if same_words_again { Answer::Pass } else { replies::detail(&cx, &reading).answer };
    if stop.passed_now() {
        return Err(DeadlinePassed);
    }
    match detail {
        Answer::Pass => {}
        answer => {
            draft.begin("reply");
            return Ok(reply_decision(draft, &pool, answer, None));
        }
    }

    // 8. The LLM rung: the one call site, only for LLM-eligible ties.
    draft.begin("llm");
    let llm =
        if class.bucket == Bucket::LowConfidenceLlmEligible { llm_rung::run(&mut draft, ports, &tie).await } else { LlmStep::NotEligible };
    draft.step(llm.name(), llm.detail());

    // 9. Policy and fallback: turn the verdict into a safe decision.
    draft.begin("fallback");
    Ok(draft.settle(llm, &tie))
}

/// The input's similarity to each entry of `pool`, when the clarifier
/// ranks by meaning (docs/meaning.md): a model configured, and a request
/// in a language it reads. The pool's vectors are kept with its canonical
/// index (a screen sent again is embedded once). S8: only the clarifier's
/// options, their order and the LLM's list read them.
fn similar(p: &Policy, req: &DecideRequest, text: &str, pool: &Pool<'_>, index: &CanonPool) -> Similar {
    let Some(m) = p.meaning.as_ref().filter(|m| m.reads(&req.language)) else { return Similar(None) };
    let vectors = index.vectors(|| m.pool_vectors(pool));
    Similar(m.similarities(text, vectors))
}

/// An `Enrich` call with no enrichment step left: the cycle's clarifier
/// again, with `budget_exhausted`.
pub fn budget_exhausted(ctx: &Ctx<'_>, cycle: &Cycle) -> Decided {
    let language = cycle.request.as_deref().map_or("", |r| r.language.as_str());
    let mut d = Decision::new(Outcome::Clarify, Tier::Fallback);
    d.decision_id = ctx.decision_id.to_string();
    d.config_revision = ctx.policy.revision.clone();
    d.decided_by = Decider::Deterministic;
    d.fallback_reason = Some(FallbackReason::BudgetExhausted);
    d.loop_cycle_id = Some(cycle.id.clone());
    d.evidence_fingerprint = Some(cycle.fingerprint.clone());
    d.clarifier = Some(Clarifier {
        question: ctx.policy.templates.question(Wording::Selection, language, &ctx.policy.default_language),
        option_ids: cycle.ordering.clone(),
        suggested_id: cycle.suggested_id.clone(),
        kind: PendingClarifier::SelectionDisambiguation,
    });
    d.trace.push(Step { rung: "fallback".into(), outcome: "clarify".into(), detail: "budget_exhausted".into(), duration_us: 0 });
    Decided {
        decision: d,
        update: DecidedUpdate {
            new_turn: false,
            options_context: None,
            pending: PendingClarifier::SelectionDisambiguation,
            keep_pending: false,
            resolved: None,
            cycle: CycleChange::Keep,
            ..Default::default()
        },
        events: vec![Event { name: "continuity_enrichment_budget_exhausted", detail: format!("{} steps", cycle.enrichment_steps) }],
        canonical_input: String::new(),
        verdict: None,
        llm_answer: None,
        corroboration: None,
        guard: None,
    }
}

#[cfg(test)]
mod tests;
