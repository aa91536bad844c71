//! The ladder end to end, with a fake session and a scripted LLM behind
//! `Ports`: the apps' regression cases, the LLM verdict mapping, and
//! property tests for the safety invariants.

use super::*;
use crate::ask::LlmAsk;
use crate::canon::canonicalize;
use crate::continuity::{ActionEntry, ActionKind, ActionOutcome, ContinuityState, Now, OutcomeUpdate, Update};
use crate::matching::Query;
use crate::policy::{Corroboration, LlmAnswer, LlmMode, Policy};
use crate::ports::WordCounter;
use crate::scope::{self, CueParse};
use crate::testkit::*;
use crate::types::*;
use futures::executor::block_on;
use proptest::prelude::*;

// ---------------------------------------------------------- regressions --

#[test]
fn can_you_ope_panel_d_pls_only_ever_picks_links_panel_d() {
    let d =
        turn(&Policy::defaults(), &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &req("can you ope panel d pls"))
            .decision;
    assert_ne!(d.outcome, Outcome::Escape, "never escapes to a command");
    if d.outcome == Outcome::Execute {
        assert_eq!(d.target_id.as_deref(), Some("links-panel-d"));
    }
    let pool: Vec<String> = panels().candidates.iter().map(|c| c.id.clone()).collect();
    assert!(ids(&d).iter().all(|i| pool.contains(i)), "clarifies only with the set: {:?}", ids(&d));
    // "ope" is no word of the panel's: the input does not account for it,
    // so the typo goes up the ladder, the panel first.
    assert_eq!((d.outcome, d.handled_by_tier), (Outcome::Clarify, Tier::Fallback));
    assert_eq!(ids(&d).first().map(String::as_str), Some("links-panel-d"));
}

#[test]
fn open_links_panel_d_executes_it() {
    let d = turn(&Policy::defaults(), &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &req("open links panel d"))
        .decision;
    assert_eq!((d.outcome, d.target_id.as_deref(), d.handled_by_tier), (Outcome::Execute, Some("links-panel-d"), Tier::Deterministic));
    assert_eq!(d.decided_by, Decider::Deterministic);
    assert_eq!(d.confidence, Some(Bucket::HighConfidenceExecute));
}

#[test]
fn the_second_one_executes_links_panel_d() {
    let d =
        turn(&Policy::defaults(), &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &req("the second one")).decision;
    assert_eq!((d.outcome, d.target_id.as_deref(), d.handled_by_tier), (Outcome::Execute, Some("links-panel-d"), Tier::Deterministic));
}

#[test]
fn open_recent_escapes_to_the_command_when_no_option_matches() {
    let mut r = req("open recent");
    r.options = Some(OptionSet {
        option_set_id: "set-2".into(),
        scope: Scope::Chat,
        candidates: vec![Candidate::new("sales", "Sales Report"), Candidate::new("team", "Team Links")].into(),
        ..Default::default()
    });
    r.commands = vec![Candidate::new("cmd-settings", "Open Settings"), Candidate::new("cmd-recent", "Open Recent")];
    let d = turn(&Policy::defaults(), &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &r).decision;
    assert_eq!((d.outcome, d.target_id.as_deref(), d.handled_by_tier), (Outcome::Escape, Some("cmd-recent"), Tier::Command));
    assert_eq!(d.escape_reason, Some(EscapeReason::Command));
}

#[test]
fn a_shared_verb_alone_never_escapes_to_a_command() {
    let mut r = req("open sales report");
    r.commands = vec![Candidate::new("cmd-settings", "Open Settings")];
    let d = turn(&Policy::defaults(), &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &r).decision;
    assert_ne!(d.outcome, Outcome::Escape);
}

#[test]
fn a_command_that_also_partly_matches_an_option_is_a_collision() {
    let mut r = req("open links");
    r.commands = vec![Candidate::new("cmd-links", "Open Links")];
    let fake = Fake::replying(r#"{"decision":"select","choice_id":"cmd-links","confidence":0.99}"#);
    let mut p = live();
    p.auto_execute.enabled = true;
    p.auto_execute.allowed_reasons = AmbiguityReason::ALL.to_vec();
    let d = turn(&p, &fake, &r).decision;
    assert_eq!(d.ambiguity_reason, Some(AmbiguityReason::CommandSelectionCollision));
    assert_eq!(d.outcome, Outcome::Clarify, "a collision never auto-executes");
    assert_eq!(ids(&d)[0], "cmd-links", "the pick leads the clarifier");
    let asked: Vec<String> = fake.asks.lock().unwrap()[0].candidates.iter().map(|c| c.id.clone()).collect();
    assert!(asked.contains(&"cmd-links".to_string()), "the command is in the tie, so the LLM sees it");
}

#[test]
fn what_is_links_panel_d_is_a_question() {
    let d = turn(&live(), &Fake::replying("{}"), &req("what is links panel d?")).decision;
    assert_eq!((d.outcome, d.escape_reason, d.handled_by_tier), (Outcome::Escape, Some(EscapeReason::QuestionIntent), Tier::Exclusions));
    assert!(!d.llm.called);
}

#[test]
fn open_panel_d_from_chat_resolves_in_the_chat_pool_only() {
    let r = DecideRequest {
        session_id: "s1".into(),
        input: "open panel d from chat".into(),
        active_scope: Some(ScopeRef { scope: Scope::Widget, instance_id: "w-1".into() }),
        options: Some(OptionSet {
            option_set_id: "widget-set".into(),
            scope: Scope::Widget,
            candidates: vec![Candidate::new("w-panel-d", "Widget Panel D"), Candidate::new("w-panel-e", "Widget Panel E")].into(),
            ..Default::default()
        }),
        widget_items: vec![Candidate::new("item-panel-d", "Panel D")],
        recoverable_chat_options: vec![Candidate::new("chat-links-d", "Links Panel D"), Candidate::new("chat-links-e", "Links Panel E")],
        ..Default::default()
    };
    let d = turn(&Policy::defaults(), &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &r).decision;
    assert_eq!((d.outcome, d.target_id.as_deref(), d.handled_by_tier), (Outcome::Execute, Some("chat-links-d"), Tier::Deterministic));
}

#[test]
fn a_typo_only_one_candidate_is_near_executes_it() {
    let mut r = req("secone one");
    r.options.as_mut().unwrap().candidates = vec![Candidate::new("second", "Second One"), Candidate::new("section", "Section One")].into();
    let d = turn(&Policy::defaults(), &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &r).decision;
    assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some("second")), "\"section\" is four edits away");
}

#[test]
fn typos_with_close_candidates_are_unresolved_not_executed() {
    let cases = [
        ("sumary155", vec![Candidate::new("s155", "Summary 155"), Candidate::new("s156", "Summary 156")], AmbiguityReason::TypoAmbiguous),
        ("jhon", vec![Candidate::new("john", "John Smith"), Candidate::new("jon", "Jon Snow")], AmbiguityReason::TypoAmbiguous),
    ];
    for (input, cands, reason) in cases {
        let mut r = req(input);
        r.options.as_mut().unwrap().candidates = cands.into();
        let d = turn(&Policy::defaults(), &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &r).decision;
        assert_eq!(d.outcome, Outcome::Clarify, "{input}");
        assert_eq!(d.confidence, Some(Bucket::LowConfidenceLlmEligible), "{input}");
        assert_eq!(d.ambiguity_reason, Some(reason), "{input}");
        assert_eq!(d.fallback_reason, Some(FallbackReason::LlmDisabled), "{input}");
    }
}

#[test]
fn with_the_llm_off_every_unresolved_case_is_a_safe_clarifier() {
    let d = turn(&Policy::defaults(), &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &req("links panel")).decision;
    assert_eq!((d.outcome, d.handled_by_tier, d.fallback_reason), (Outcome::Clarify, Tier::Fallback, Some(FallbackReason::LlmDisabled)));
    assert_eq!(d.ambiguity_reason, Some(AmbiguityReason::MultiMatchNoExactWinner));
    assert_eq!(ids(&d), ["links-panel-d", "links-panel-e"]);
    assert_eq!(d.clarifier.unwrap().question, "Which one did you mean?");
    assert!(d.loop_cycle_id.is_some() && d.evidence_fingerprint.is_some());
}

#[test]
fn chat_cue_with_no_chat_options_asks_for_them() {
    let mut r = req("open panel d from chat");
    r.options = None;
    r.widget_items = vec![Candidate::new("w", "Panel D")];
    let d = turn(&Policy::defaults(), &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &r).decision;
    assert_eq!((d.outcome, d.handled_by_tier), (Outcome::NeedMoreInfo, Tier::Scope));
    assert_eq!(d.needed_evidence_types, [EvidenceType::ChatRecoverableOptions]);
    assert!(ids(&d).is_empty(), "never an unrelated fallback");
}

#[test]
fn cancel_and_empty_context_escape() {
    let d = turn(&live(), &Fake::replying("{}"), &req("never mind")).decision;
    assert_eq!(d.escape_reason, Some(EscapeReason::Cancel));
    let mut r = req("open it");
    r.options = None;
    let d = turn(&live(), &Fake::replying("{}"), &r).decision;
    assert_eq!(d.escape_reason, Some(EscapeReason::NoActiveContext));
}

#[test]
fn trace_lists_the_rungs_in_order() {
    let d = turn(&Policy::defaults(), &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &req("links panel")).decision;
    let rungs: Vec<&str> = d.trace.iter().map(|s| s.rung.as_ref()).collect();
    assert_eq!(
        rungs,
        ["canonicalize", "exclusions", "scope", "reply", "match", "classify", "collision", "rank", "continuity", "llm", "fallback"]
    );
    // No model: ranked by words, no similarity reported.
    let rank = d.trace.iter().find(|s| s.rung == "rank").unwrap();
    assert_eq!((rank.outcome.as_str(), rank.detail.as_str()), ("words", ""));
    let d = turn(&Policy::defaults(), &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &req("open links panel d"))
        .decision;
    let rungs: Vec<&str> = d.trace.iter().map(|s| s.rung.as_ref()).collect();
    assert_eq!(rungs, ["canonicalize", "exclusions", "scope", "reply", "match", "classify", "collision"]);
}

#[test]
fn cross_source_tie_resolves_by_continuity_when_the_option_set_is_unchanged() {
    let mut r = req("open links panel d");
    r.widget_items = vec![Candidate::new("w-links-d", "Links Panel D")];
    let fake = Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled });
    // First turn: the options are shown (a clarifier); no continuity yet.
    let first = turn(&Policy::defaults(), &fake, &r).decision;
    assert_eq!(first.ambiguity_reason, Some(AmbiguityReason::CrossSourceTie));
    assert_eq!(first.outcome, Outcome::Clarify);
    // Same option set and scope, command-like: continuity resolves.
    let second = turn(&Policy::defaults(), &fake, &r).decision;
    assert_eq!(
        (second.outcome, second.target_id.as_deref(), second.decided_by),
        (Outcome::Execute, Some("links-panel-d"), Decider::Continuity)
    );
    // A new option set is stale continuity: no forced winner.
    let fake = Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled });
    turn(&Policy::defaults(), &fake, &r);
    let mut changed = r.clone();
    changed.options.as_mut().unwrap().option_set_id = "set-2".into();
    let third = turn(&Policy::defaults(), &fake, &changed).decision;
    assert_eq!(third.outcome, Outcome::Clarify);
}

// ------------------------------------------------------------- the LLM --

#[test]
fn a_valid_pick_reorders_the_clarifier_by_default() {
    let fake = Fake::replying(r#"{"decision":"select","choice_id":"links-panel-e","confidence":0.95,"needed_evidence_types":[]}"#);
    let d = turn(&live(), &fake, &req("links panel")).decision;
    assert_eq!((d.outcome, d.handled_by_tier, d.decided_by), (Outcome::Clarify, Tier::Llm, Decider::Llm));
    assert_eq!(ids(&d), ["links-panel-e", "links-panel-d"]);
    assert_eq!(d.clarifier.as_ref().unwrap().suggested_id.as_deref(), Some("links-panel-e"));
    assert_eq!(d.fallback_reason, None);
    assert!(d.llm.called);
}

#[test]
fn auto_execute_needs_every_gate() {
    let mut p = live();
    p.auto_execute.enabled = true;
    let pick = r#"{"decision":"select","choice_id":"links-panel-e","confidence":0.95}"#;
    // no_deterministic_match is allowed by default.
    let d = turn(&p, &Fake::replying(pick), &req("something for the team")).decision;
    assert_eq!(d.ambiguity_reason, Some(AmbiguityReason::NoDeterministicMatch));
    assert_eq!((d.outcome, d.target_id.as_deref(), d.decided_by), (Outcome::Execute, Some("links-panel-e"), Decider::Llm));
    // multi_match never.
    let d = turn(&p, &Fake::replying(pick), &req("links panel")).decision;
    assert_eq!(d.outcome, Outcome::Clarify);
    // force_clarify_only always wins.
    let mut r = req("something for the team");
    r.force_clarify_only = true;
    assert_eq!(turn(&p, &Fake::replying(pick), &r).decision.outcome, Outcome::Clarify);
}

#[test]
fn llm_failures_map_to_their_fallback_reasons() {
    let cases = [
        (LlmAnswer::Failed { reason: FallbackReason::Timeout, latency_ms: 800, detail: "deadline".into() }, FallbackReason::Timeout),
        (LlmAnswer::Failed { reason: FallbackReason::RateLimited, latency_ms: 3, detail: "429".into() }, FallbackReason::RateLimited),
        (LlmAnswer::Failed { reason: FallbackReason::TransportError, latency_ms: 3, detail: "500".into() }, FallbackReason::TransportError),
        (LlmAnswer::Replied { content: "garbage".into(), latency_ms: 3 }, FallbackReason::Abstain),
        (
            LlmAnswer::Replied { content: r#"{"decision":"abstain","choice_id":null,"confidence":0.1}"#.into(), latency_ms: 3 },
            FallbackReason::Abstain,
        ),
        (
            LlmAnswer::Replied { content: r#"{"decision":"select","choice_id":"evil","confidence":1}"#.into(), latency_ms: 3 },
            FallbackReason::Abstain,
        ),
        (
            LlmAnswer::Replied { content: r#"{"decision":"select","choice_id":"links-panel-d","confidence":0.3}"#.into(), latency_ms: 3 },
            FallbackReason::LowConfidence,
        ),
        (LlmAnswer::Skipped { reason: FallbackReason::CircuitOpen }, FallbackReason::CircuitOpen),
        (LlmAnswer::Skipped { reason: FallbackReason::LlmOverloaded }, FallbackReason::LlmOverloaded),
    ];
    let baseline =
        turn(&Policy::defaults(), &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &req("something for the team"))
            .decision;
    for (answer, want) in cases {
        let mut p = live();
        p.auto_execute.enabled = true;
        let d = turn(&p, &Fake::new(answer.clone()), &req("something for the team")).decision;
        assert_eq!((d.outcome, d.fallback_reason), (Outcome::Clarify, Some(want)), "{answer:?}");
        assert_eq!(ids(&d), ids(&baseline), "the deterministic order is kept");
        assert_eq!(d.clarifier.as_ref().unwrap().suggested_id, None);
    }
}

#[test]
fn the_same_evidence_never_reaches_the_llm_twice() {
    let fake = Fake::replying(r#"{"decision":"select","choice_id":"links-panel-e","confidence":0.9}"#);
    let first = turn(&live(), &fake, &req("links panel")).decision;
    let second = turn(&live(), &fake, &req("links panel")).decision;
    assert_eq!(fake.calls(), 1);
    assert!(second.llm.guard_hit && !second.llm.called);
    assert_eq!(second.fallback_reason, Some(FallbackReason::LoopGuard));
    assert_eq!(ids(&first), ids(&second), "the UI stays stable");
    assert_eq!(first.loop_cycle_id, second.loop_cycle_id);
    // A changed input is new evidence.
    turn(&live(), &fake, &req("links panel please show"));
    assert_eq!(fake.calls(), 2);
}

#[test]
fn need_more_info_names_allowlisted_evidence() {
    let fake = Fake::replying(
        r#"{"decision":"need_more_info","choice_id":null,"confidence":0.4,"needed_evidence_types":["chat_recoverable_options","secrets","active_widget_items","active_dashboard_items"]}"#,
    );
    let d = turn(&live(), &fake, &req("links panel")).decision;
    assert_eq!(d.outcome, Outcome::NeedMoreInfo);
    assert_eq!(d.needed_evidence_types, [EvidenceType::ChatRecoverableOptions, EvidenceType::ActiveWidgetItems]);
}

#[test]
fn the_prompt_holds_only_the_tie() {
    let mut r = req("links panel");
    r.widget_items = vec![Candidate::new("widget-secret", "Quarterly numbers")];
    r.recoverable_chat_options = vec![Candidate::new("old-chat", "Old option")];
    r.commands = vec![Candidate::new("cmd-x", "Delete Everything")];
    let fake = Fake::replying(r#"{"decision":"abstain"}"#);
    turn(&live(), &fake, &r);
    let asks = fake.asks.lock().unwrap();
    let asked: Vec<&str> = asks[0].candidates.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(asked, ["links-panel-d", "links-panel-e"]);
    assert_eq!(asks[0].canonical_input, "links panel");
}

/// A reply that reaches the LLM shows it what was asked, ids of
/// the pool only, in the order shown; nothing when nothing was asked.
#[test]
fn the_prompt_shows_what_was_asked_of_this_pool_only() {
    use crate::question::QuestionKind;
    let fake = Fake::replying(&select_json("links-panel-e", 0.9));
    // Turn 1: "links panel" over D, E and F: a clarifier suggesting E.
    let mut first = req("links panel");
    let mut with_f = panels().candidates.to_vec();
    with_f.push(Candidate::new("links-panel-f", "Links Panel F"));
    first.options.as_mut().unwrap().candidates = with_f.into();
    let d = turn(&live(), &fake, &first).decision;
    assert_eq!(d.outcome, Outcome::Clarify);
    assert_eq!(ids(&d), ["links-panel-e", "links-panel-d", "links-panel-f"]);
    assert_eq!(fake.asks.lock().unwrap()[0].continuity.asked, None, "nothing was asked before");
    // Turn 2: a vague reply on a screen without F reaches the LLM.
    let d = turn(&live(), &fake, &req("hmm the links panel i think")).decision;
    assert_eq!(fake.calls(), 2, "the reply reached the LLM: {:?}", d.trace);
    let asks = fake.asks.lock().unwrap();
    let asked = asks[1].continuity.asked.clone().expect("what was asked");
    assert_eq!(asked.kind, QuestionKind::Choice);
    assert_eq!(asked.offered, ["links-panel-e", "links-panel-d"], "the order shown, F (not in this pool) left out");
    assert_eq!(asked.proposed.as_deref(), Some("links-panel-e"));
    assert!(asked.refused.is_empty());
    drop(asks);
    // The app's own "which one?": its candidates of the pool, in its order.
    let fake = Fake::replying(r#"{"decision":"abstain"}"#);
    let mut r = req("links panel");
    r.options.as_mut().unwrap().asked = Asked::Choice;
    turn(&live(), &fake, &r);
    let asked = fake.asks.lock().unwrap()[0].continuity.asked.clone().expect("the app's question");
    assert_eq!(
        (asked.kind, asked.offered.as_slice(), asked.proposed),
        (QuestionKind::Choice, &["links-panel-d".to_string(), "links-panel-e".into()][..], None)
    );
}

// --------------------------------------------------- safety properties --

/// S4 (found by its property test): a known command named like the input
/// is not among the candidates of a chat-scoped decision, neither offered
/// nor escaped to.
#[test]
fn a_chat_cue_leaves_known_commands_out() {
    let mut r = req("panel from chat");
    r.options.as_mut().unwrap().candidates = vec![Candidate::new("opt-0", "Links Panel D")].into();
    r.commands = vec![Candidate::new("cmd-0", "Panel")];
    let p = live();
    let d = turn(&p, &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &r).decision;
    assert_ne!(d.outcome, Outcome::Escape);
    assert!(!ids(&d).contains(&"cmd-0".to_string()), "{:?}", ids(&d));
    // Without the cue the command is in play, as before.
    let mut plain = r.clone();
    plain.input = "panel".into();
    let d = turn(&p, &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &plain).decision;
    assert!(d.outcome == Outcome::Escape || ids(&d).contains(&"cmd-0".to_string()), "{d:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// S1: EXECUTE only ever targets an id of the resolved pool, whatever
    /// the LLM or the user text says. Also S7 for the core: it returns.
    #[test]
    fn s1_execute_targets_only_the_resolved_pool(w in world()) {
        let p = policy_for(&w);
        let d = turn(&p, &Fake::new(w.answer.clone()), &w.req).decision;
        if d.outcome == Outcome::Execute {
            let pool = resolved_pool_ids(&p, &w.req);
            let target = d.target_id.clone().unwrap_or_default();
            prop_assert!(pool.contains(&target), "executed {target} outside {pool:?}");
        }
        for id in ids(&d) {
            let in_tie = resolved_pool_ids(&p, &w.req).contains(&id) || w.req.commands.iter().any(|c| c.id == id);
            prop_assert!(in_tie, "clarifier offered {id}");
        }
    }

    /// S8: meaning never decides. With any model (here a hash of the words,
    /// so any similarities at all), whether a turn executes, clarifies or
    /// escapes, and what it executes, is what it is without one; only the
    /// options offered and their order may differ, and they are still the
    /// pool's (S1). With the LLM off, and with it live (the fake answers
    /// by id, whatever the order it is shown).
    #[test]
    fn s8_meaning_never_decides(w in world(), seed in any::<u64>()) {
        for base in [Policy::defaults(), policy_for(&w)] {
            let words = turn(&base, &Fake::new(w.answer.clone()), &w.req).decision;
            let meant = turn(&with_meaning(base.clone(), seed), &Fake::new(w.answer.clone()), &w.req).decision;
            prop_assert_eq!(meant.outcome, words.outcome, "{:?}", w.req.input);
            prop_assert_eq!(&meant.target_id, &words.target_id);
            prop_assert_eq!(meant.escape_reason, words.escape_reason);
            prop_assert_eq!(meant.decided_by, words.decided_by);
            let pool = resolved_pool_ids(&base, &w.req);
            for id in ids(&meant) {
                prop_assert!(pool.contains(&id) || w.req.commands.iter().any(|c| c.id == id), "offered {id}");
            }
            // `about`: only on a question escaped, at most three of the
            // turn's candidates, with the model or without.
            for d in [&meant, &words] {
                let question = d.outcome == Outcome::Escape && d.escape_reason == Some(EscapeReason::QuestionIntent);
                prop_assert!(question || d.about.is_empty(), "about {:?} on {:?}", d.about, d.outcome);
                prop_assert!(d.about.len() <= crate::about::MAX);
                let sent = |id: &String| {
                    w.req.option_candidates().iter().chain(&w.req.recoverable_chat_options).chain(&w.req.widget_items).any(|c| &c.id == id)
                };
                prop_assert!(d.about.iter().all(sent), "about {:?}", d.about);
            }
        }
    }

    /// S2: with the default configuration the LLM never executes.
    #[test]
    fn s2_default_config_never_lets_the_llm_execute(w in world()) {
        let mut p = Policy::defaults();
        p.llm_mode = LlmMode::Live;
        let d = turn(&p, &Fake::new(w.answer.clone()), &w.req).decision;
        prop_assert!(!(d.outcome == Outcome::Execute && d.decided_by == Decider::Llm));
    }

    /// S3: any LLM failure yields CLARIFY (or NEED_MORE_INFO), never EXECUTE.
    #[test]
    fn s3_llm_failures_never_execute(w in world()) {
        let failing = matches!(&w.answer, LlmAnswer::Failed { .. })
            || matches!(&w.answer, LlmAnswer::Replied { content, .. } if !content.contains("\"decision\""));
        let fake = Fake::new(w.answer.clone());
        let d = turn(&policy_for(&w), &fake, &w.req).decision;
        if failing && fake.calls() > 0 {
            prop_assert!(matches!(d.outcome, Outcome::Clarify | Outcome::NeedMoreInfo), "{:?}", d.outcome);
            prop_assert!(d.fallback_reason.is_some());
        }
    }

    /// S4: with a chat cue, the decision only uses chat candidates.
    #[test]
    fn s4_chat_cue_uses_only_chat_candidates(w in world(), cue in prop::sample::select(vec!["from chat", "in chat"])) {
        let mut r = w.req.clone();
        r.input = format!("{} {cue}", r.input);
        let p = policy_for(&w);
        let d = turn(&p, &Fake::new(w.answer.clone()), &r).decision;
        let chat: Vec<String> = match r.options.as_ref().filter(|o| o.is_chat() && !o.candidates.is_empty()) {
            Some(o) => o.candidates.iter().map(|c| c.id.clone()).collect(),
            None => r.recoverable_chat_options.iter().map(|c| c.id.clone()).collect(),
        };
        if d.outcome == Outcome::Execute {
            prop_assert!(chat.contains(d.target_id.as_ref().unwrap()));
        }
        for id in ids(&d) {
            prop_assert!(chat.contains(&id), "offered {id} outside chat {chat:?}");
        }
    }

    /// S5: the same evidence reaches the LLM at most once per cycle.
    #[test]
    fn s5_same_evidence_one_llm_call(w in world()) {
        let fake = Fake::new(w.answer.clone());
        let p = policy_for(&w);
        let first = turn(&p, &fake, &w.req).decision;
        if matches!(first.outcome, Outcome::Execute | Outcome::Escape) {
            return Ok(()); // a resolution (execute or escape) resets the guard
        }
        let after_first = fake.calls();
        prop_assert!(after_first <= 1);
        // A resolution in between legitimately resets the guard (the same
        // words read as a reply to the question just asked: "№" is "No", a
        // decline); with none, repeats never call again.
        let second = turn(&p, &fake, &w.req).decision;
        if matches!(second.outcome, Outcome::Execute | Outcome::Escape) {
            return Ok(());
        }
        turn(&p, &fake, &w.req);
        prop_assert_eq!(fake.calls(), after_first);
    }

    /// S6: questions and stop/cancel inputs are never executed.
    #[test]
    fn s6_questions_and_cancels_never_execute(
        w in world(),
        lead in prop::sample::select(vec!["what is", "how do i", "why", "stop", "cancel", "never mind", "where is", "explain"]),
    ) {
        let mut r = w.req.clone();
        let cancel_only = matches!(lead, "stop" | "cancel" | "never mind");
        r.input = if cancel_only { lead.to_string() } else { format!("{lead} {}", r.input) };
        // A cancel that a label says whole ("Stop" on a player) is that
        // option's request, not a cancel.
        let lex = &crate::lexicon::Lexicon::shipped();
        let named = |c: &Candidate| canonicalize(&c.label, lex) == canonicalize(lead, lex);
        prop_assume!(!(cancel_only && r.option_candidates().iter().chain(&r.widget_items).chain(&r.recoverable_chat_options).chain(&r.commands).any(named)));
        let d = turn(&policy_for(&w), &Fake::new(w.answer.clone()), &r).decision;
        prop_assert_ne!(d.outcome, Outcome::Execute);
    }
}

// ------------------------------------------------- the enrichment loop --

/// Runs an `Enrich` step on the session's open cycle, like the daemon does.
fn enrich_step(policy: &Policy, fake: &Fake, evidence: &[(EvidenceType, Vec<Candidate>, String)], history: &[&str]) -> Decided {
    let state = fake.state.lock().unwrap().clone();
    let mut cycle = state.open_cycle().expect("an open cycle").clone();
    cycle.enrichment_steps += 1;
    let history: Vec<String> = history.iter().map(|s| s.to_string()).collect();
    let merged = cycle.enrich(evidence, &history);
    let view = state.view(fake.now, fake.ttl);
    let ctx = Ctx {
        policy,
        state: (&view).into(),
        now: fake.now,
        decision_id: "dec-e",
        new_cycle_id: "unused",
        tokens: &WordCounter,
        auto_execute_tripped: false,
        deadline: None,
        pool_memo: None,
    };
    let mut d = block_on(decide(&ctx, &merged, Mode::Enrich(&cycle), fake)).expect("no deadline");
    d.attach_request(&std::sync::Arc::new(merged.clone()));
    fake.state.lock().unwrap().apply(Update::Decided(d.update.clone()), fake.now, fake.ttl);
    d
}

#[test]
fn enrich_with_the_same_evidence_does_not_call_the_llm_again() {
    let fake = Fake::replying(NEED);
    let first = turn(&live(), &fake, &req("links panel")).decision;
    assert_eq!(first.outcome, Outcome::NeedMoreInfo);
    assert_eq!(fake.calls(), 1);
    // Widget items do not enter a chat-scoped... no cue: they do enter the
    // pool. Send items already known: nothing changes.
    let d = enrich_step(&live(), &fake, &[], &[]);
    assert_eq!((d.decision.outcome, d.decision.fallback_reason), (Outcome::Clarify, Some(FallbackReason::NoNewEvidence)));
    assert_eq!(fake.calls(), 1);
    assert_eq!(d.decision.evidence_fingerprint, first.evidence_fingerprint);
    assert!(d.events.iter().any(|e| e.name == "continuity_enrichment_fingerprint_unchanged"));
}

#[test]
fn new_evidence_gets_one_more_llm_call_within_the_budget() {
    let fake = Fake::replying(NEED);
    turn(&live(), &fake, &req("links panel"));
    let more = vec![(EvidenceType::ActiveWidgetItems, vec![Candidate::new("w-links", "Links Panel Widget")], String::new())];
    let d = enrich_step(&live(), &fake, &more, &[]);
    assert_eq!(fake.calls(), 2, "fingerprint changed: a retry");
    assert!(d.events.iter().any(|e| e.name == "continuity_enrichment_retry_called"));
    // The selection lane has one enrichment step: asking for more now is
    // budget_exhausted, not another NEED_MORE_INFO.
    assert_eq!((d.decision.outcome, d.decision.fallback_reason), (Outcome::Clarify, Some(FallbackReason::BudgetExhausted)));
    // And the selection lane allows 2 LLM calls in all.
    let evenmore = vec![(EvidenceType::ActiveWidgetItems, vec![Candidate::new("w-links-2", "Links Panel Two")], String::new())];
    let d = enrich_step(&live(), &fake, &evenmore, &[]);
    assert_eq!(fake.calls(), 2);
    assert_eq!(d.decision.fallback_reason, Some(FallbackReason::BudgetExhausted));
}

/// Evidence supplied for the requested type joins the
/// pool of the cycle's next LLM call.
#[test]
fn recoverable_options_supplied_by_enrich_join_the_next_llm_call() {
    let need = r#"{"decision":"need_more_info","choice_id":null,"confidence":0.3,"needed_evidence_types":["chat_recoverable_options"]}"#;
    let fake = Fake::replying(need);
    let first = turn(&live(), &fake, &req("the thing we talked about before")).decision;
    assert_eq!((first.outcome, first.needed_evidence_types.clone()), (Outcome::NeedMoreInfo, vec![EvidenceType::ChatRecoverableOptions]));
    let pick = r#"{"decision":"select","choice_id":"earlier-q3","confidence":0.9}"#;
    *fake.answer.lock().unwrap() = LlmAnswer::Replied { content: pick.into(), latency_ms: 5 };
    let earlier = vec![(EvidenceType::ChatRecoverableOptions, vec![Candidate::new("earlier-q3", "Sales Report Q3")], String::new())];
    let d = enrich_step(&live(), &fake, &earlier, &[]).decision;
    assert_eq!(fake.calls(), 2, "new evidence: exactly one more call");
    assert_ne!(d.evidence_fingerprint, first.evidence_fingerprint);
    let asks = fake.asks.lock().unwrap();
    assert!(asks[1].candidates.iter().any(|c| c.id == "earlier-q3"), "the prompt lists the new candidate: {:?}", asks[1].candidates);
    assert_eq!(d.llm.suggested_id.as_deref(), Some("earlier-q3"), "and the decision may suggest it");
    assert_eq!(ids(&d)[0], "earlier-q3");
}

#[test]
fn enrich_can_resolve_deterministically() {
    let mut r = req("open panel d from chat");
    r.options = None;
    r.widget_items = vec![Candidate::new("w", "Panel D")];
    let fake = Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled });
    let d = turn(&Policy::defaults(), &fake, &r).decision;
    assert_eq!(d.needed_evidence_types, [EvidenceType::ChatRecoverableOptions]);
    let chat = vec![(
        EvidenceType::ChatRecoverableOptions,
        vec![Candidate::new("chat-d", "Links Panel D"), Candidate::new("chat-e", "Links Panel E")],
        String::new(),
    )];
    let d = enrich_step(&Policy::defaults(), &fake, &chat, &[]).decision;
    assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some("chat-d")));
    assert_eq!(d.loop_cycle_id.as_deref(), Some("cycle-0"), "the same cycle");
    assert!(fake.state.lock().unwrap().open_cycle().is_none(), "resolved");
}

/// A cross-source tie whose continuity winner (D) conflicts with the LLM's
/// earlier suggestion (E): the continuity rung is blocked by the loop guard.
fn conflicted(fake: &Fake, option_set_changes: bool) -> Decided {
    let mut r = req("open links panel d");
    r.widget_items = vec![Candidate::new("w-links-d", "Links Panel D")];
    let first_answer = r#"{"decision":"need_more_info","needed_evidence_types":["active_widget_items"]}"#;
    *fake.answer.lock().unwrap() = LlmAnswer::Replied { content: first_answer.into(), latency_ms: 1 };
    turn(&live(), fake, &r);
    fake.state.lock().unwrap().cycle.as_mut().unwrap().suggested_id = Some("links-panel-e".into());
    if option_set_changes {
        fake.state.lock().unwrap().active_option_set_id = Some("another-set".into());
    }
    *fake.answer.lock().unwrap() = LlmAnswer::Replied { content: NEED.into(), latency_ms: 1 };
    // An excerpt changes the fingerprint but not the tie (same guard key).
    enrich_step(&live(), fake, &[(EvidenceType::ScopeDisambiguationHint, vec![], "the user works in chat".into())], &[])
}

#[test]
fn need_more_info_veto_applies_when_continuity_has_a_safe_winner() {
    let fake = Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled });
    let d = conflicted(&fake, false);
    let steps: Vec<(&str, &str)> = d.decision.trace.iter().map(|s| (s.rung.as_ref(), s.detail.as_str())).collect();
    assert!(steps.contains(&("continuity", "loop_guard_conflict")), "{steps:?}");
    assert_eq!(
        (d.decision.outcome, d.decision.target_id.as_deref(), d.decision.decided_by),
        (Outcome::Execute, Some("links-panel-d"), Decider::Continuity)
    );
    assert!(d.events.iter().any(|e| e.name == "need_more_info_veto_applied"));
}

#[test]
fn need_more_info_veto_is_blocked_by_a_changed_option_set() {
    let fake = Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled });
    let d = conflicted(&fake, true);
    assert_ne!(d.decision.outcome, Outcome::Execute);
    let blocked = d.events.iter().find(|e| e.name == "need_more_info_veto_blocked_reason").expect("blocked event");
    assert_eq!(blocked.detail, "option_set_changed");
}

#[test]
fn chat_history_reaches_the_prompt_and_changes_the_fingerprint() {
    let fake = Fake::replying(NEED);
    let first = turn(&live(), &fake, &req("the thing for team e")).decision;
    let d = enrich_step(&live(), &fake, &[], &["I was looking at team E's panel", "hi"]);
    assert_ne!(d.decision.evidence_fingerprint, first.evidence_fingerprint);
    let asks = fake.asks.lock().unwrap();
    assert_eq!(asks.len(), 2);
    assert_eq!(asks[1].context.chat_history, ["I was looking at team E's panel", "hi"]);
}

// ------------------------------------------- what a person never acts on --

/// Distinct labels of one to three words, and the index of two of them.
fn distinct_labels() -> impl Strategy<Value = (Vec<String>, usize, usize)> {
    let word = prop::sample::select(vec![
        "sales", "report", "panel", "links", "jazz", "rock", "q1", "q2", "q3", "alpha", "beta", "d", "e", "7", "vegan", "chili", "budget",
        "overview", "iphone", "15", "pro", "max", "cafe", "central", "north", "south",
    ]);
    prop::collection::btree_set(prop::collection::vec(word, 1..4).prop_map(|w| w.join(" ")), 2..8)
        .prop_flat_map(|set| {
            let labels: Vec<String> = set.into_iter().collect();
            let n = labels.len();
            (Just(labels), 0..n, 0..n)
        })
        .prop_filter("two different candidates", |(_, a, b)| a != b)
}

fn pool_req(labels: &[String], input: &str) -> DecideRequest {
    let mut r = req(input);
    r.options.as_mut().unwrap().candidates =
        labels.iter().enumerate().map(|(i, l)| Candidate::new(format!("c{i}"), l.clone())).collect::<Vec<_>>().into();
    r
}

/// How a person might name two candidates in one turn.
fn two_referents() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "{a} and {b}",
        "{a} or {b}",
        "{a} or maybe {b}",
        "pick {a}. also pick {b}.",
        "{a}, {b}",
        "either {a} or {b}",
        "open {a} and then {b}",
        "{a} plus {b}",
    ])
}

fn negations() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["not {a}", "anything but {a}", "don't open {a}", "no {a}", "anything except {a}", "not the {a} one"])
}

fn relations() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["the one after {a}", "the one before {a}", "the one next to {a}", "the one below {a}", "the previous one"])
}

/// A label that is not itself a question, a cancel or a command phrase.
fn plain(l: &str, lex: &crate::lexicon::Lexicon) -> bool {
    let c = canonicalize(l, lex);
    !c.is_empty() && !crate::exclusions::is_cancel(&c, lex)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// An input that names two distinct candidates never executes,
    /// with or without the LLM, whatever the pool; but two requests in
    /// order ("open a and then b": a sequence,
    /// docs/deciding.md#the-rules-with-an-example-each) execute the first
    /// alone, the second handed back as a request follow-up.
    #[test]
    fn naming_two_candidates_never_executes((labels, a, b) in distinct_labels(), shape in two_referents(), answer in llm_answer_strategy()) {
        let lex = crate::lexicon::Lexicon::shipped();
        prop_assume!(plain(&labels[a], &lex) && plain(&labels[b], &lex));
        // Neither label may be a part of the other (then one is named).
        let (ca, cb) = (canonicalize(&labels[a], &lex), canonicalize(&labels[b], &lex));
        prop_assume!(!ca.contains(&cb) && !cb.contains(&ca));
        let input = shape.replace("{a}", &labels[a]).replace("{b}", &labels[b]);
        // An input that is, whole, a third label ("d, south" with "D South"
        // among "D" and "South") names that one, not two.
        let whole = canonicalize(&input, &lex);
        prop_assume!(!labels.iter().any(|l| canonicalize(l, &lex) == whole));
        let r = pool_req(&labels, &input);
        for p in [Policy::defaults(), { let mut p = live(); p.auto_execute.enabled = true; p.auto_execute.allowed_reasons = AmbiguityReason::ALL.to_vec(); p }] {
            let d = turn(&p, &Fake::new(answer.clone()), &r).decision;
            if shape.contains(" then ") && d.outcome == Outcome::Execute {
                let first = format!("c{a}");
                prop_assert_eq!(d.target_id.as_deref(), Some(first.as_str()), "{:?} executed the second", input);
                let f = d.follow_up.as_ref();
                prop_assert!(f.is_some_and(|f| f.kind == FollowUpKind::Request && labels[b].contains(f.text.as_str())), "{:?}: {:?}", input, f);
                continue;
            }
            prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} executed {:?}", input, d.target_id);
        }
    }

    /// A negation or a relation never executes, and a negation never
    /// offers the candidate it excludes.
    #[test]
    fn negations_and_relations_never_execute((labels, a, _) in distinct_labels(), neg in negations(), rel in relations(), answer in llm_answer_strategy()) {
        let lex = crate::lexicon::Lexicon::shipped();
        prop_assume!(plain(&labels[a], &lex));
        let mut p = live();
        p.auto_execute.enabled = true;
        p.auto_execute.allowed_reasons = AmbiguityReason::ALL.to_vec();
        for shape in [neg, rel] {
            let input = shape.replace("{a}", &labels[a]);
            let d = turn(&p, &Fake::new(answer.clone()), &pool_req(&labels, &input)).decision;
            prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} executed {:?}", input, d.target_id);
            if shape == neg && d.outcome == Outcome::Clarify && d.llm.suggested_id.is_none() {
                let offered = ids(&d);
                let named_elsewhere = labels.iter().enumerate().any(|(i, l)| i != a && canonicalize(l, &lex) == canonicalize(&labels[a], &lex));
                prop_assert!(named_elsewhere || !offered.contains(&format!("c{a}")), "{:?} offered the excluded one: {:?}", input, offered);
            }
        }
    }

    /// A typo as near to two candidates' words as to each other never
    /// executes (no dictionary decides between them).
    #[test]
    fn a_typo_near_two_candidates_never_executes(stem in "[a-z]{4,7}", x in "[a-z]", y in "[a-z]", z in "[a-z]") {
        prop_assume!(x != y && y != z && x != z);
        // "<stem>x" and "<stem>y" are both one edit from "<stem>z".
        let labels = vec![format!("{stem}{x}"), format!("{stem}{y}"), "something else".to_string()];
        let lex = crate::lexicon::Lexicon::shipped();
        prop_assume!(labels.iter().all(|l| plain(l, &lex)) && lex.function_words.iter().all(|w| !labels.contains(w)));
        let input = format!("{stem}{z}");
        let d = turn(&Policy::defaults(), &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &pool_req(&labels, &input)).decision;
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} executed {:?}", input, d.target_id);
    }

    /// A plain position always executes the candidate at that position,
    /// and one outside the list never executes.
    #[test]
    fn positions_execute_in_range_and_ask_outside((labels, _, _) in distinct_labels(), n in 1usize..12, form in prop::sample::select(vec!["number {n}", "option {n}", "#{n}", "the {n}th one"])) {
        let lex = crate::lexicon::Lexicon::shipped();
        prop_assume!(labels.iter().all(|l| plain(l, &lex)));
        // A number a label contains is that label's word, not a position.
        prop_assume!(labels.iter().all(|l| !l.split(' ').any(|w| w == n.to_string())));
        let suffix = match (n % 100, n % 10) { (11..=13, _) => "th", (_, 1) => "st", (_, 2) => "nd", (_, 3) => "rd", _ => "th" };
        let input = form.replace("{n}th", &format!("{n}{suffix}")).replace("{n}", &n.to_string());
        let d = turn(&Policy::defaults(), &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &pool_req(&labels, &input)).decision;
        if n <= labels.len() {
            prop_assert_eq!((d.outcome, d.target_id.clone()), (Outcome::Execute, Some(format!("c{}", n - 1))), "{:?}", input);
        } else {
            prop_assert_ne!(d.outcome, Outcome::Execute, "{:?}", input);
        }
    }
}

// ------------------------------------------------------- corroboration --

const PICK_E: &str = r#"{"decision":"select","choice_id":"links-panel-e","confidence":0.95}"#;

/// Auto-execute on, with this corroboration.
fn auto(how: Corroboration) -> Policy {
    let mut p = live();
    p.auto_execute.enabled = true;
    p.auto_execute.corroboration = how;
    p
}

/// An LLM that answers by position: the `k`-th candidate it is shown, at
/// 1.0, in both asks.
fn positional(k: usize) -> Fake {
    Fake::replying("{}").then(Second::Position(k))
}

/// Runs a turn against a positional fake: its first answer is the `k`-th
/// candidate of the tie (what the first ask shows at `k`).
fn positional_turn(p: &Policy, fake: &Fake, r: &DecideRequest, k: usize) -> Decided {
    // The first ask shows the tie in rank order: ask once with the LLM in
    // shadow to learn it, then script the first answer as position k.
    let mut shadow = p.clone();
    shadow.llm_mode = LlmMode::Shadow;
    let probe = Fake::replying("{}");
    turn(&shadow, &probe, r);
    let shown: Vec<String> =
        probe.asks.lock().unwrap().first().map(|a| a.candidates.iter().map(|c| c.id.clone()).collect()).unwrap_or_default();
    let id = shown.get(k).cloned().unwrap_or_else(|| "none".into());
    *fake.answer.lock().unwrap() = LlmAnswer::Replied { content: select_json(&id, 1.0), latency_ms: 5 };
    turn(p, fake, r)
}

#[test]
fn a_model_that_answers_by_position_never_executes_under_reorder() {
    for k in 0..3 {
        // The same model executes without corroboration: the test can fail.
        let d = positional_turn(&auto(Corroboration::None), &positional(k), &req("the thing for team e"), k).decision;
        assert_eq!((d.outcome, d.decided_by), (Outcome::Execute, Decider::Llm), "k={k}: executes uncorroborated");
        for how in [Corroboration::Reorder, Corroboration::Both] {
            let fake = positional(k);
            let d = positional_turn(&auto(how), &fake, &req("the thing for team e"), k).decision;
            assert_eq!((d.outcome, d.fallback_reason), (Outcome::Clarify, Some(FallbackReason::NotCorroborated)), "k={k} {how:?}");
            if how == Corroboration::Reorder {
                assert_eq!(d.llm.corroboration, "disagreed", "k={k}");
                assert_eq!(fake.corroborations(), 1);
            }
        }
    }
}

#[test]
fn a_model_that_answers_by_meaning_still_executes_and_the_second_ask_shows_no_real_id() {
    let fake = Fake::replying(PICK_E);
    let d = turn(&auto(Corroboration::Reorder), &fake, &req("the thing for team e"));
    let dec = &d.decision;
    assert_eq!((dec.outcome, dec.target_id.as_deref(), dec.decided_by), (Outcome::Execute, Some("links-panel-e"), Decider::Llm));
    assert_eq!((dec.llm.corroboration.as_str(), dec.llm.corroboration_method.as_str()), ("agreed", "reorder"));
    assert_eq!(dec.llm.corroborating_id.as_deref(), Some("links-panel-e"));
    assert_eq!(dec.llm.corroboration_verdict, "select");
    assert_eq!((fake.calls(), fake.corroborations()), (1, 1));
    let first = fake.asks.lock().unwrap()[0].clone();
    let second = fake.second_asks.lock().unwrap()[0].clone();
    assert_eq!(second.canonical_input, first.canonical_input, "the same input");
    let real: Vec<&str> = first.candidates.iter().map(|c| c.id.as_str()).collect();
    let opaque: Vec<&str> = second.candidates.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(opaque, ["c1", "c2", "c3"][..real.len()]);
    for (a, b) in first.candidates.iter().zip(&second.candidates) {
        assert_ne!(a.label, b.label, "every candidate moved: {first:?} / {second:?}");
    }
    let labels = |a: &LlmAsk| {
        let mut l: Vec<String> = a.candidates.iter().map(|c| c.label.clone()).collect();
        l.sort();
        l
    };
    assert_eq!(labels(&first), labels(&second), "the same pool");
    // The record keeps the second answer and the ids it showed.
    let second_answer = d.corroboration.expect("the second answer is kept");
    assert_eq!(second_answer.shown.len(), real.len());
    assert!(d.events.iter().any(|e| e.name == "llm_corroboration" && e.detail.starts_with("agreed")));
    let llm_step = dec.trace.iter().find(|s| s.rung == "llm").unwrap();
    assert!(llm_step.detail.contains("corroboration agreed"), "{}", llm_step.detail);
}

#[test]
fn disagreement_is_a_clarifier_with_both_picks_first() {
    // The second ask picks Links Panels (the label "Links Panels"), not E.
    let fake = Fake::replying(PICK_E);
    let p = auto(Corroboration::Reorder);
    // The same turn shows the same second ask (the order follows from the
    // turn): learn the label Links Panels gets.
    let probe = Fake::replying(PICK_E);
    turn(&p, &probe, &req("the thing for team e"));
    let second = probe.second_asks.lock().unwrap()[0].clone();
    let panels_label = second.candidates.iter().find(|c| c.label == "Links Panels").unwrap().id.clone();
    *fake.second.lock().unwrap() = Second::Script(LlmAnswer::Replied { content: select_json(&panels_label, 0.99), latency_ms: 7 });
    let d = turn(&p, &fake, &req("the thing for team e")).decision;
    assert_eq!((d.outcome, d.handled_by_tier, d.decided_by), (Outcome::Clarify, Tier::Llm, Decider::Llm));
    assert_eq!(d.fallback_reason, Some(FallbackReason::NotCorroborated));
    assert_eq!(ids(&d)[..2], ["links-panel-e", "links-panels"], "both picks first");
    assert_eq!(d.clarifier.as_ref().unwrap().suggested_id.as_deref(), Some("links-panel-e"));
    assert_eq!((d.llm.corroboration.as_str(), d.llm.corroborating_id.as_deref()), ("disagreed", Some("links-panels")));
    assert_eq!(d.llm.corroboration_latency_ms, 7);
}

#[test]
fn no_time_left_for_the_second_ask_is_no_execute_with_the_pick_suggested() {
    let fake = Fake::replying(PICK_E).then(Second::Script(LlmAnswer::Skipped { reason: FallbackReason::Deadline }));
    let d = turn(&auto(Corroboration::Reorder), &fake, &req("the thing for team e")).decision;
    assert_eq!((d.outcome, d.fallback_reason), (Outcome::Clarify, Some(FallbackReason::NotCorroborated)));
    assert_eq!(d.llm.corroboration, "skipped_no_time");
    assert_eq!(ids(&d)[0], "links-panel-e");
    assert_eq!(d.clarifier.as_ref().unwrap().suggested_id.as_deref(), Some("links-panel-e"));
}

#[test]
fn a_second_ask_without_a_usable_pick_never_executes() {
    let replied = |c: &str| LlmAnswer::Replied { content: c.into(), latency_ms: 4 };
    let cases = [
        LlmAnswer::Failed { reason: FallbackReason::Timeout, latency_ms: 300, detail: "cut".into() },
        LlmAnswer::Failed { reason: FallbackReason::RateLimited, latency_ms: 2, detail: "429".into() },
        LlmAnswer::Skipped { reason: FallbackReason::CircuitOpen },
        replied("garbage"),
        replied(r#"{"decision":"abstain","choice_id":null,"confidence":0.9}"#),
        // The real id is no label of the second ask.
        replied(&select_json("links-panel-e", 1.0)),
        // A label, but below llm.confidence_min.
        replied(&select_json("c1", 0.3)),
        replied(&select_json("c2", 0.3)),
        replied(&select_json("c3", 0.3)),
    ];
    for second in cases {
        let fake = Fake::replying(PICK_E).then(Second::Script(second.clone()));
        let d = turn(&auto(Corroboration::Reorder), &fake, &req("the thing for team e")).decision;
        assert_eq!((d.outcome, d.fallback_reason), (Outcome::Clarify, Some(FallbackReason::NotCorroborated)), "{second:?}");
        assert_eq!(d.llm.corroboration, "failed", "{second:?}");
        assert_eq!(ids(&d)[0], "links-panel-e", "{second:?}: the pick leads");
    }
}

#[test]
fn the_second_ask_runs_only_after_every_other_gate_passed() {
    let on = auto(Corroboration::Reorder);
    let mut off = on.clone();
    off.auto_execute.enabled = false;
    let mut shadow = on.clone();
    shadow.llm_mode = LlmMode::Shadow;
    let mut forced = req("the thing for team e");
    forced.force_clarify_only = true;
    let low = r#"{"decision":"select","choice_id":"links-panel-e","confidence":0.8}"#;
    let cases: Vec<(&str, Policy, DecideRequest, &str)> = vec![
        ("kill switch off", off, req("the thing for team e"), PICK_E),
        ("shadow", shadow, req("the thing for team e"), PICK_E),
        ("below auto_execute.min_confidence", on.clone(), req("the thing for team e"), low),
        ("reason not allowed", on.clone(), req("links panel"), PICK_E),
        ("force_clarify_only", on.clone(), forced, PICK_E),
        ("abstain", on.clone(), req("the thing for team e"), r#"{"decision":"abstain"}"#),
    ];
    for (name, p, r, answer) in cases {
        let fake = Fake::replying(answer);
        let d = turn(&p, &fake, &r).decision;
        assert_ne!(d.outcome, Outcome::Execute, "{name}");
        assert_eq!(fake.corroborations(), 0, "{name}: no second ask");
        assert!(d.llm.corroboration.is_empty(), "{name}");
    }
    // Tripped by the guardrails.
    let fake = Fake::replying(PICK_E);
    let view = fake.state.lock().unwrap().view(fake.now, fake.ttl);
    let ctx = Ctx {
        policy: &on,
        state: (&view).into(),
        now: fake.now,
        decision_id: "d",
        new_cycle_id: "c",
        tokens: &WordCounter,
        auto_execute_tripped: true,
        deadline: None,
        pool_memo: None,
    };
    let d = block_on(decide(&ctx, &req("the thing for team e"), Mode::Turn, &fake)).expect("no deadline").decision;
    assert_ne!(d.outcome, Outcome::Execute);
    assert_eq!(fake.corroborations(), 0, "tripped: no second ask");
}

#[test]
fn the_corroborating_ask_is_part_of_the_same_attempt() {
    let fake = Fake::replying(PICK_E).then(Second::Position(0));
    let first = turn(&auto(Corroboration::Reorder), &fake, &req("the thing for team e")).decision;
    assert_eq!(first.fallback_reason, Some(FallbackReason::NotCorroborated));
    assert_eq!((fake.calls(), fake.corroborations()), (1, 1));
    let cycle = fake.state.lock().unwrap().open_cycle().cloned().expect("the cycle stays open");
    assert_eq!(cycle.llm_calls, 1, "one LLM call counted for the attempt");
    assert_eq!(cycle.suggested_id.as_deref(), Some("links-panel-e"));
    // The same evidence again: the loop guard, no ask of either kind.
    let again = turn(&auto(Corroboration::Reorder), &fake, &req("the thing for team e")).decision;
    assert_eq!(again.fallback_reason, Some(FallbackReason::LoopGuard));
    assert_eq!((fake.calls(), fake.corroborations()), (1, 1));
    assert_eq!(ids(&again), ids(&first), "the UI stays stable");
}

/// A paraphrase with a typo, nearest to Sales Report by far: no rung
/// matches, so it is `no_deterministic_match`.
fn reports(input: &str) -> DecideRequest {
    let mut r = req(input);
    r.options.as_mut().unwrap().candidates =
        vec![Candidate::new("team", "Team Links"), Candidate::new("sales", "Sales Report"), Candidate::new("weather", "Weather Widget")]
            .into();
    r
}

#[test]
fn deterministic_corroboration_needs_the_rankings_clear_first() {
    let r = reports("salse reprot thingy");
    let p = auto(Corroboration::Deterministic);
    let d = turn(&p, &Fake::replying(&select_json("sales", 0.95)), &r).decision;
    assert_eq!(d.ambiguity_reason, Some(AmbiguityReason::NoDeterministicMatch));
    assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some("sales")), "{:?}", d.trace);
    assert_eq!((d.llm.corroboration.as_str(), d.llm.corroboration_method.as_str()), ("agreed", "deterministic"));
    // Another pick disagrees with the ranking: both first, no second ask.
    let fake = Fake::replying(&select_json("team", 0.95));
    let d = turn(&p, &fake, &r).decision;
    assert_eq!((d.outcome, d.fallback_reason), (Outcome::Clarify, Some(FallbackReason::NotCorroborated)));
    assert_eq!(ids(&d)[..2], ["team", "sales"]);
    assert_eq!(fake.corroborations(), 0, "deterministic alone never asks again");
    // The right pick, but not ahead by the margin.
    let mut strict = p.clone();
    strict.auto_execute.deterministic_margin = 0.95;
    let d = turn(&strict, &Fake::replying(&select_json("sales", 0.95)), &r).decision;
    assert_eq!((d.outcome, d.llm.corroboration.as_str()), (Outcome::Clarify, "disagreed"));
    assert_eq!(ids(&d)[0], "sales");
}

#[test]
fn both_needs_the_ranking_and_the_second_ask() {
    let r = reports("salse reprot thingy");
    let p = auto(Corroboration::Both);
    let fake = Fake::replying(&select_json("sales", 0.95));
    assert_eq!(turn(&p, &fake, &r).decision.outcome, Outcome::Execute);
    assert_eq!(fake.corroborations(), 1);
    // The ranking disagrees: no second ask is spent.
    let fake = Fake::replying(&select_json("weather", 0.95));
    let d = turn(&p, &fake, &r).decision;
    assert_eq!((d.outcome, d.llm.corroboration.as_str(), fake.corroborations()), (Outcome::Clarify, "disagreed", 0));
    // The ranking agrees, the second ask does not.
    let fake =
        Fake::replying(&select_json("sales", 0.95)).then(Second::Script(LlmAnswer::Replied { content: "nope".into(), latency_ms: 1 }));
    let d = turn(&p, &fake, &r).decision;
    assert_eq!((d.outcome, d.llm.corroboration.as_str(), fake.corroborations()), (Outcome::Clarify, "failed", 1));
}

#[test]
fn a_model_that_parrots_the_ranking_passes_the_deterministic_check_alone() {
    // Why `reorder` is the default: a model answering "the first one" picks
    // what the deterministic ranking puts first.
    let r = reports("salse reprot thingy");
    let d = positional_turn(&auto(Corroboration::Deterministic), &positional(0), &r, 0).decision;
    assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some("sales")));
    let d = positional_turn(&auto(Corroboration::Both), &positional(0), &r, 0).decision;
    assert_eq!((d.outcome, d.fallback_reason), (Outcome::Clarify, Some(FallbackReason::NotCorroborated)));
}

fn second_strategy() -> impl Strategy<Value = Second> {
    let label = prop::sample::select(vec!["c1", "c2", "c3", "c4", "c5", "c6", "opt-0", "opt-1", "wid-0", "evil", ""]);
    prop_oneof![
        Just(Second::Agree),
        (0usize..6).prop_map(Second::Position),
        (label, 0.0f64..=1.0).prop_map(|(id, c)| Second::Script(LlmAnswer::Replied { content: select_json(id, c), latency_ms: 3 })),
        llm_answer_strategy().prop_map(Second::Script),
        Just(Second::Script(LlmAnswer::Skipped { reason: FallbackReason::Deadline })),
    ]
}

/// The similarity of the input to the candidate `id` of the request, the
/// way docs/llm.md documents corroboration's deterministic check
/// ("The deterministic ranking's score", restated here).
fn documented_similarity(p: &Policy, r: &DecideRequest, id: &str) -> f32 {
    let canonical = canonicalize(&r.input, &p.lexicon);
    let rest = match scope::find_cue(&canonical, &p.lexicon) {
        CueParse::One(c) => c.rest,
        _ => canonical,
    };
    let core = Query::new(rest, &p.lexicon).core;
    let all = r.options.iter().flat_map(|o| o.candidates.iter()).chain(&r.widget_items).chain(&r.recoverable_chat_options);
    let Some(c) = all.into_iter().find(|c| c.id == id) else { return 0.0 };
    std::iter::once(&c.label)
        .chain(&c.aliases)
        .map(|t| rapidfuzz::distance::levenshtein::normalized_similarity(core.chars(), canonicalize(t, &p.lexicon).chars()) as f32)
        .fold(0.0, f32::max)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 768, ..ProptestConfig::default() })]

    /// Corroboration under any provider behaviour (any first answer, any second
    /// answer or failure, any corroboration setting): an LLM execute
    /// implies every earlier gate and, unless corroboration is "none", two
    /// picks of the same candidate (the second under an opaque label) and/or
    /// the deterministic ranking's clear first. A second ask comes only
    /// after every other gate passed, at most once, and shows no real id.
    #[test]
    fn an_llm_execute_implies_every_gate_and_a_corroboration(
        w in world(),
        second in second_strategy(),
        how in prop::sample::select(Corroboration::ALL.to_vec()),
        margin in 0.0f32..0.4,
        first_position in prop::option::of(0usize..4),
    ) {
        let mut p = policy_for(&w);
        p.auto_execute.corroboration = how;
        p.auto_execute.deterministic_margin = margin;
        let fake = Fake::new(w.answer.clone()).then(second);
        *fake.first_position.lock().unwrap() = first_position;
        let decided = turn(&p, &fake, &w.req);
        let d = &decided.decision;
        let first_asks = fake.asks.lock().unwrap().clone();
        let second_asks = fake.second_asks.lock().unwrap().clone();
        prop_assert!(second_asks.len() <= first_asks.len().min(1), "one second ask at most, never without a first");
        if how == Corroboration::None || !how.asks_again() {
            prop_assert!(second_asks.is_empty());
        }
        let real: Vec<String> = first_asks.iter().flat_map(|a| a.candidates.iter().map(|c| c.id.clone())).collect();
        for c in second_asks.iter().flat_map(|a| &a.candidates) {
            prop_assert!(!real.contains(&c.id), "the second ask shows the real id {}", c.id);
        }
        // What the first answer picked, read against the first ask.
        let first_answer = fake.answer.lock().unwrap().clone();
        let first_pick = first_asks.first().and_then(|a| match &first_answer {
            LlmAnswer::Replied { content, .. } => {
                let ids: Vec<&str> = a.candidates.iter().map(|c| c.id.as_str()).collect();
                match crate::policy::interpret(content, &ids, 2) {
                    crate::policy::Verdict::Select { choice_id, confidence } => Some((choice_id, confidence)),
                    _ => None,
                }
            }
            _ => None,
        });
        let gates_passed = |target: &str| {
            let reason = d.ambiguity_reason.unwrap_or(AmbiguityReason::NoCandidate);
            p.auto_execute.enabled
                && !w.req.force_clarify_only
                && p.auto_execute.allowed_reasons.contains(&reason)
                && !crate::policy::NEVER_AUTO_EXECUTE.contains(&reason)
                && first_pick.as_ref().is_some_and(|(id, c)| id == target && *c >= p.auto_execute.min_confidence && *c >= p.llm_confidence_min)
        };
        if !second_asks.is_empty() {
            let pick = first_pick.as_ref().map(|(id, _)| id.clone()).unwrap_or_default();
            prop_assert!(gates_passed(&pick), "a second ask before every gate passed");
        }
        if !(d.outcome == Outcome::Execute && d.decided_by == Decider::Llm) {
            return Ok(());
        }
        let target = d.target_id.clone().unwrap_or_default();
        prop_assert!(gates_passed(&target), "executed {target} without every gate");
        if how.asks_again() {
            prop_assert_eq!(second_asks.len(), 1);
            let second_ask = &second_asks[0];
            let Some(kept) = &decided.corroboration else { return Err(TestCaseError::fail("no second answer kept")) };
            let LlmAnswer::Replied { content, .. } = &kept.answer else { return Err(TestCaseError::fail("executed without a second reply")) };
            let labels: Vec<&str> = second_ask.candidates.iter().map(|c| c.id.as_str()).collect();
            let crate::policy::Verdict::Select { choice_id, confidence } = crate::policy::interpret(content, &labels, 2) else {
                return Err(TestCaseError::fail("executed without a second pick"));
            };
            prop_assert!(confidence >= p.llm_confidence_min);
            let k = labels.iter().position(|l| *l == choice_id).unwrap();
            let (a, b) = (&second_ask.candidates[k], first_asks[0].candidates.iter().find(|c| c.id == target).unwrap());
            prop_assert_eq!((&a.label, &a.kind, &a.hint), (&b.label, &b.kind, &b.hint), "the second pick is another candidate");
            prop_assert_eq!(&kept.shown[k], &target);
        }
        if how.ranks() {
            // The ranking's first: what the clarifier shows first without the LLM.
            let mut off = p.clone();
            off.llm_mode = LlmMode::Off;
            let plain = turn(&off, &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), &w.req).decision;
            let offered = ids(&plain);
            prop_assert_eq!(offered.first(), Some(&target), "not the ranking's first");
            let mine = documented_similarity(&p, &w.req, &target);
            for other in offered.iter().skip(1) {
                prop_assert!(mine - documented_similarity(&p, &w.req, other) >= margin, "not ahead of {other} by {margin}");
            }
            if offered.len() == 1 {
                prop_assert!(mine >= margin);
            }
        }
    }

    /// A model that answers by position (the same `k`-th candidate in both
    /// asks) never executes under `reorder` or `both`, whatever the turn.
    #[test]
    fn a_positional_model_never_executes_under_reorder(w in world(), k in 0usize..5, both in any::<bool>()) {
        let mut p = policy_for(&w);
        p.auto_execute.enabled = true;
        p.auto_execute.corroboration = if both { Corroboration::Both } else { Corroboration::Reorder };
        let fake = positional(k);
        let d = positional_turn(&p, &fake, &w.req, k).decision;
        prop_assert!(!(d.outcome == Outcome::Execute && d.decided_by == Decider::Llm), "a positional pick executed: {:?}", d.llm);
    }
}

// ----------------------------------------------------------- deadlines --

/// A pool and an input that take the matching rungs seconds: 3,000
/// candidates of 500-byte labels, and 500 different words each one edit
/// from some label word (every one is looked for among all pool words).
fn heavy() -> DecideRequest {
    let words = ["alpha", "beta", "gamma", "delta", "omega", "panel", "report", "sales"];
    let label = |i: usize| (0..60).map(|k| format!("{}{}", words[(i + k) % 8], (i * 7 + k) % 100)).collect::<Vec<_>>().join(" ");
    let mut r = req(&(0..500).map(|k| format!("{}{}", words[k % 8], 100 + k)).collect::<Vec<_>>().join(" "));
    r.options.as_mut().unwrap().candidates = (0..3000).map(|i| Candidate::new(format!("c{i}"), label(i))).collect::<Vec<_>>().into();
    r
}

fn with_deadline(
    r: &DecideRequest,
    deadline: std::time::Instant,
    pool_memo: Option<&crate::intern::PoolMemo>,
) -> Result<Decided, DeadlinePassed> {
    let policy = Policy::defaults();
    let state = ContinuityState::default();
    let ctx = Ctx {
        policy: &policy,
        state: (&state).into(),
        now: Now { mono_ms: 0, wall_ms: 0 },
        decision_id: "d1",
        new_cycle_id: "c1",
        tokens: &WordCounter,
        auto_execute_tripped: false,
        deadline: Some(deadline),
        pool_memo,
    };
    block_on(decide(&ctx, r, Mode::Turn, &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled })))
}

#[test]
fn a_deadline_that_has_passed_stops_the_ladder_without_a_decision() {
    let r = heavy();
    assert!(work(&r) > 50_000_000, "the request is heavy: {}", work(&r));
    let past = std::time::Instant::now() - std::time::Duration::from_millis(1);
    assert_eq!(with_deadline(&r, past, None).err(), Some(DeadlinePassed));
    // A light request decides before it ever reads the clock often enough
    // to matter, and a far deadline changes nothing.
    let far = std::time::Instant::now() + std::time::Duration::from_secs(3600);
    assert_eq!(with_deadline(&req("links panel d"), far, None).unwrap().decision.outcome, Outcome::Execute);
}

/// `heavy`'s pool with an input of negations and numbers ("not 1 no 3
/// ..."): every word sends the reading of structure, positions, values
/// and replies through the whole pool.
fn heavy_structure() -> DecideRequest {
    let mut r = heavy();
    r.input = (0..500)
        .map(|k| if k % 2 == 0 { ["not", "no", "never"][k % 3].to_string() } else { (k % 97).to_string() })
        .collect::<Vec<_>>()
        .join(" ");
    r
}

#[test]
fn the_matching_loops_stop_soon_after_the_deadline() {
    for (shape, r) in [("words", heavy()), ("negations and numbers", heavy_structure())] {
        let started = std::time::Instant::now();
        let got = with_deadline(&r, started + std::time::Duration::from_millis(30), None);
        let took = started.elapsed();
        assert_eq!(got.err(), Some(DeadlinePassed), "{shape}");
        // Without the checks this request runs for seconds even on an idle
        // machine; with them it stops within one slice of a loop (64
        // candidates or words) after 30 ms. 1.5 s leaves room for a loaded
        // machine and still fails if the loops ignore the deadline.
        assert!(took < std::time::Duration::from_millis(1500), "{shape}: took {took:?}");
    }
}

/// The same, on a pool the daemon's memo already indexed (its second
/// call): the reply rung's loops over the pool check the deadline too.
#[test]
fn the_reply_loops_stop_soon_after_the_deadline_on_a_memoized_pool() {
    let memo = crate::intern::PoolMemo::new(256 << 20);
    let r = heavy_structure();
    let first = std::time::Instant::now();
    let _ = with_deadline(&r, first + std::time::Duration::from_secs(3600), Some(&memo));
    let started = std::time::Instant::now();
    let got = with_deadline(&r, started + std::time::Duration::from_millis(30), Some(&memo));
    let took = started.elapsed();
    assert_eq!(got.err(), Some(DeadlinePassed));
    assert!(took < std::time::Duration::from_millis(1500), "took {took:?}");
}

// ------------------------------------------------------ refusals stick --

/// The app records what happened to `id` (`RecordOutcome`).
fn record(fake: &Fake, id: &str, outcome: ActionOutcome) {
    let entry = ActionEntry {
        kind: ActionKind::Outcome,
        target_ref: id.into(),
        source_scope: Scope::Chat,
        option_set_id: "set-1".into(),
        timestamp_ms: 0,
        outcome,
        target_label: String::new(),
        chosen_by: 0,
    };
    fake.state.lock().unwrap().apply(Update::Outcome(OutcomeUpdate { entry, also_rejected: None }), fake.now, fake.ttl);
}

/// Auto-execute on, every gate passable, no corroboration: an LLM pick
/// executes unless something refuses it.
fn auto_on() -> Policy {
    let mut p = live();
    p.auto_execute.enabled = true;
    p.auto_execute.corroboration = Corroboration::None;
    p
}

/// Refusals stick, the LLM path: the user rejected what the LLM's pick
/// executed; the same words again (on the same option set, and on a new
/// one) never execute it again: a clarifier that does not lead with it,
/// `user_refused`. A later pick of another candidate while the repair is
/// pending does not execute either.
#[test]
fn an_llm_pick_the_user_rejected_is_never_executed_again() {
    let p = auto_on();
    let fake = Fake::replying(&select_json("links-panel-e", 0.95));
    let first = turn(&p, &fake, &req("the thing for team e")).decision;
    assert_eq!((first.outcome, first.target_id.as_deref(), first.decided_by), (Outcome::Execute, Some("links-panel-e"), Decider::Llm));
    record(&fake, "links-panel-e", ActionOutcome::Rejected);
    for set in ["set-1", "set-2"] {
        let mut r = req("the thing for team e");
        r.options.as_mut().unwrap().option_set_id = set.into();
        let again = turn(&p, &fake, &r).decision;
        assert_eq!((again.outcome, again.fallback_reason), (Outcome::Clarify, Some(FallbackReason::UserRefused)), "{set}: {again:?}");
        let c = again.clarifier.as_ref().unwrap();
        assert_ne!(c.option_ids.first().map(String::as_str), Some("links-panel-e"), "{set}: not led by it: {c:?}");
        assert_eq!(c.suggested_id, None, "{set}");
        assert_eq!(again.llm.suggested_id.as_deref(), Some("links-panel-e"), "the report says what the LLM picked");
    }
    // Rejected again: the session awaits a repair; the LLM picks another
    // candidate, which is not executed either.
    record(&fake, "links-panel-e", ActionOutcome::Rejected);
    *fake.answer.lock().unwrap() = LlmAnswer::Replied { content: select_json("links-panel-d", 0.95), latency_ms: 5 };
    let other = turn(&p, &fake, &req("the thing for team d")).decision;
    assert_eq!((other.outcome, other.fallback_reason), (Outcome::Clarify, Some(FallbackReason::UserRefused)), "{other:?}");
}

/// The continuity path: a tie continuity would resolve to a candidate the
/// user rejected is a clarifier that shows it last, `user_refused`; the
/// need_more_info veto does not resolve to it either.
#[test]
fn continuity_never_resolves_to_a_candidate_the_user_rejected() {
    let mut r = req("open links panel d");
    r.widget_items = vec![Candidate::new("w-links-d", "Links Panel D")];
    let p = Policy::defaults();
    let fake = Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled });
    turn(&p, &fake, &r);
    let resolved = turn(&p, &fake, &r).decision;
    assert_eq!((resolved.outcome, resolved.decided_by), (Outcome::Execute, Decider::Continuity), "the case that resolves");
    record(&fake, "links-panel-d", ActionOutcome::Rejected);
    let again = turn(&p, &fake, &r).decision;
    assert_eq!((again.outcome, again.fallback_reason), (Outcome::Clarify, Some(FallbackReason::UserRefused)), "{again:?}");
    assert_eq!(ids(&again).last().map(String::as_str), Some("links-panel-d"), "shown last: {:?}", ids(&again));
    assert!(again.trace.iter().any(|s| s.rung == "continuity" && s.detail == "user_refused"), "{:?}", again.trace);
    // The veto: the LLM asks for more, continuity would take the tie.
    let fake = Fake::replying(r#"{"decision":"need_more_info","needed_evidence_types":["chat_recoverable_options"]}"#);
    let p = live();
    turn(&p, &fake, &r);
    record(&fake, "links-panel-d", ActionOutcome::Rejected);
    let vetoed = turn(&p, &fake, &r).decision;
    assert_ne!(vetoed.outcome, Outcome::Execute, "{vetoed:?}");
    assert_ne!(ids(&vetoed).first().map(String::as_str), Some("links-panel-d"), "{:?}", ids(&vetoed));
}

/// Refusals stick to their words: the user's own words
/// that chose a refused candidate (its exact label, its position) do not
/// execute it again within the TTL, nor does any pick of the LLM; they are
/// asked, and the refused candidate is not the suggestion.
#[test]
fn the_words_that_chose_a_rejected_candidate_do_not_execute_it_again() {
    let p = auto_on();
    let fake = Fake::replying(&select_json("links-panel-d", 0.95));
    record(&fake, "links-panel-d", ActionOutcome::Rejected);
    for input in ["open links panel d", "the second one"] {
        let d = turn(&p, &fake, &req(input)).decision;
        assert_eq!(d.outcome, Outcome::Clarify, "{input}: {d:?}");
        assert!(!ids(&d).contains(&"links-panel-d".to_string()), "{input}: {:?}", ids(&d));
        assert_eq!(d.fallback_reason, Some(FallbackReason::UserRefused), "{input}");
    }
}

/// Refusals stick within the continuity TTL (3 turns, 10 minutes), not
/// forever: once the context expired, the pick executes again.
#[test]
fn a_refusal_lasts_as_long_as_the_continuity_context() {
    let p = auto_on();
    let fake = Fake::replying(&select_json("links-panel-e", 0.95));
    record(&fake, "links-panel-e", ActionOutcome::Rejected);
    assert_eq!(turn(&p, &fake, &req("the thing for team e")).decision.outcome, Outcome::Clarify);
    // Turns that show nothing let the context age out.
    for _ in 0..3 {
        turn(&p, &fake, &DecideRequest { session_id: "s1".into(), input: "hello".into(), ..Default::default() });
    }
    let later = turn(&p, &fake, &req("the thing for team e")).decision;
    assert_eq!((later.outcome, later.target_id.as_deref()), (Outcome::Execute, Some("links-panel-e")), "{later:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Refusals stick, over any session state and any LLM answer: a
    /// candidate the session holds as refused (rejected within the TTL, or
    /// any while a repair is pending) is never executed by the LLM or the
    /// continuity resolver, auto-execute included (an answer the user's
    /// words give to ladderd's question, tier `reply`, never executes one
    /// they rejected); a clarifier in which a
    /// refusal stopped an execute neither leads with nor suggests a refused
    /// candidate (unless it offers nothing else). Half the time the LLM
    /// picks a refused candidate with every gate open, and half the worlds
    /// are ties continuity may take.
    #[test]
    fn a_refused_candidate_is_never_executed_by_the_llm_or_continuity(
        history in history_strategy(),
        w in prop_oneof![world(), shown_world()],
        picks in prop::collection::vec(any::<prop::sample::Index>(), 0..3),
        llm_picks_refused in any::<bool>(),
        eager in any::<bool>(),
        pending in prop::sample::select(PendingClarifier::ALL.to_vec()),
        shown in any::<bool>(),
    ) {
        let pool: Vec<String> = w.req.option_candidates().iter().chain(&w.req.widget_items).chain(&w.req.recoverable_chat_options).map(|c| c.id.clone()).collect();
        let rejected: Vec<String> = if pool.is_empty() { Vec::new() } else { picks.iter().map(|i| pool[i.index(pool.len())].clone()).collect() };
        let mut p = policy_for(&w);
        if eager {
            p.auto_execute.enabled = true;
            p.auto_execute.allowed_reasons = AmbiguityReason::ALL.to_vec();
            p.auto_execute.corroboration = Corroboration::None;
        }
        let answer = match rejected.first() {
            Some(id) if llm_picks_refused => LlmAnswer::Replied { content: select_json(id, 0.97), latency_ms: 5 },
            _ => w.answer.clone(),
        };
        let fake = lived(&p, &answer, &history);
        {
            // The refusals, fresh (within the TTL), in any session.
            let mut s = fake.state.lock().unwrap();
            for id in &rejected {
                s.recent_rejected_choice_ids.push_front(id.clone());
            }
            s.pending_clarifier_type = pending;
            if shown {
                s.active_option_set_id = Some("set".into());
                s.active_scope = w.req.active_scope.clone();
            }
            s.context_turn = s.turn_count.max(1);
            s.context_at_ms = fake.now.mono_ms;
        }
        // What the ladder reads: these refusals and any the history left.
        let held = fake.state.lock().unwrap().view(fake.now, fake.ttl);
        let refused = |id: &str| held.refused(id);
        let d = turn(&p, &fake, &w.req);
        let decision = &d.decision;
        if decision.outcome == Outcome::Execute && matches!(decision.decided_by, Decider::Llm | Decider::Continuity) {
            let target = decision.target_id.clone().unwrap_or_default();
            if decision.handled_by_tier == Tier::Reply {
                // The user's own words read against ladderd's question (a
                // repair pending included: its question offers the rest):
                // never an option they rejected.
                prop_assert!(!held.rejected(&target), "a reply executed {} rejected ({:?})", target, held.recent_rejected_choice_ids);
            } else {
                prop_assert!(!refused(&target), "{:?} executed {} refused ({:?}, {:?})", decision.decided_by, target, held.recent_rejected_choice_ids, pending);
            }
        }
        let stopped: Vec<&str> = d.events.iter().filter(|e| e.name == "user_refused").map(|e| e.detail.as_str()).collect();
        if let Some(c) = decision.clarifier.as_ref().filter(|_| !stopped.is_empty()) {
            prop_assert!(stopped.iter().all(|id| refused(id)), "only refused candidates are stopped: {:?}", stopped);
            prop_assert!(c.suggested_id.as_deref().is_none_or(|s| !stopped.contains(&s)), "{:?}", c);
            if c.option_ids.iter().any(|id| !stopped.contains(&id.as_str())) {
                prop_assert!(!stopped.contains(&c.option_ids[0].as_str()), "led by a refused candidate: {:?}", c);
            }
        }
    }
}

// -------------------------------------------------- no input in details --

/// A word no label, id, lexicon entry or rule name holds: where it shows
/// in a trace, the trace carried the user's words.
const MARKER: &str = "zorblax";

/// Words that make replies of every kind (yes, no, the other one, another
/// one, a correction, a second sentence) and matches of every rule, the
/// marker among them at a random place, or glued to a word (a typo).
fn marked_input() -> impl Strategy<Value = String> {
    let words = prop::sample::select(vec![
        "yes",
        "sounds good",
        "no",
        "not that one",
        "the other one",
        "another one",
        "actually",
        "instead",
        "make it",
        "never mind",
        "the second one",
        "cancel",
        "what is",
        "?",
        "and",
        "can you",
        "open",
        "links",
        "panel",
        "d",
        "e",
        "sales",
        "report",
        "summary",
        "155",
        "settings",
        "please",
        "lnks",
        "pannel",
        "from chat",
        ",",
        ".",
    ]);
    (prop::collection::vec(words, 0..7), any::<prop::sample::Index>(), any::<bool>()).prop_map(|(w, at, glued)| {
        let mut w: Vec<String> = w.into_iter().map(String::from).collect();
        let at = at.index(w.len() + 1);
        match (glued, w.get_mut(at)) {
            (true, Some(word)) => *word = format!("{word}{MARKER}"),
            _ => w.insert(at.min(w.len()), MARKER.to_string()),
        }
        w.join(" ")
    })
}

/// An LLM that answers with the marker where ids, decisions and values go
/// (a reply that echoes the input), or as usual.
fn marked_answer() -> impl Strategy<Value = LlmAnswer> {
    let echo = |content: &str| LlmAnswer::Replied { content: content.replace("{m}", MARKER), latency_ms: 5 };
    prop_oneof![
        llm_answer_strategy(),
        Just(echo(r#"{"decision":"select","choice_id":"{m}","confidence":0.9}"#)),
        Just(echo(r#"{"decision":"{m}","confidence":0.9}"#)),
        Just(echo(r#"{"decision":"select","choice_id":"opt-0","confidence":"{m}"}"#)),
        Just(echo(r#"{"decision":"need_more_info","needed_evidence_types":["{m}"],"confidence":0.3}"#)),
    ]
}

/// Trace details and decision events name rules, ids and figures, never
/// words of the input nor of the LLM's reply: they leave the process in
/// spans and decision records whatever `redact_input` says. Sessions of
/// turns on one screen (a high-risk option among them, for confirmations),
/// each turn with the marker word somewhere, the LLM off, live, or
/// auto-executing.
#[test]
fn trace_details_never_carry_the_inputs_words() {
    let branches = Branches::default();
    let screen = (cands("opt", 5), any::<prop::sample::Index>(), any::<bool>());
    let strategy = (screen, prop::collection::vec(marked_input(), 1..5), marked_answer(), 0u8..3);
    check_cases(512, file!(), &strategy, |((mut options, risky, confirm), inputs, answer, mode)| {
        if confirm && !options.is_empty() {
            let at = risky.index(options.len());
            options[at].risk = crate::types::Risk::High;
        }
        let set = OptionSet { option_set_id: "set".into(), scope: Scope::Chat, candidates: options.into(), ..Default::default() };
        let mut s = Session::new();
        s.fake = Fake::new(answer.clone());
        if mode > 0 {
            let p = s.policy.to_mut();
            p.llm_mode = LlmMode::Live;
            p.auto_execute.enabled = mode == 2;
            p.auto_execute.allowed_reasons = AmbiguityReason::ALL.to_vec();
        }
        for input in &inputs {
            let req = DecideRequest {
                session_id: "s".into(),
                input: input.clone(),
                active_scope: Some(ScopeRef { scope: Scope::Chat, instance_id: "chat".into() }),
                options: Some(set.clone()),
                ..Default::default()
            };
            let decided = turn(&s.policy, &s.fake, &req);
            let d = &decided.decision;
            for step in &d.trace {
                prop_assert!(!step.detail.contains(MARKER) && !step.outcome.contains(MARKER), "{input:?}: {step:?}");
                if step.detail.starts_with("read again") {
                    branches.hit("read again");
                }
            }
            for e in &decided.events {
                prop_assert!(!e.detail.contains(MARKER), "{input:?}: event {} {:?}", e.name, e.detail);
                if e.name == "llm_arbitration_abstained" && e.detail.starts_with("invalid") {
                    branches.hit("invalid reply");
                }
            }
            if d.handled_by_tier == Tier::Reply {
                branches.hit("reply");
            }
            if d.outcome == Outcome::Execute
                && let Some(id) = &d.target_id
            {
                s.record(id, "set", crate::continuity::ActionOutcome::Executed);
            }
        }
        Ok(())
    });
    branches.expect(&[("read again", 5), ("invalid reply", 20), ("reply", 20)]);
}
