//! Running a corpus: every line through the daemon's own code, in process
//! (the edge's validation, then the ladder, the LLM rung included when the
//! configuration enables it), each decision scored as it comes, the
//! dialogues walked whole, then added up ([`report`]).

use super::corpus::{Case, Exception, Expect, Line, RecordStep};
use super::dialogues;
use super::report::{Report, SetAside, report};
use super::score::{Got, Scored, got};
use crate::config::Config;
use crate::convert;
use crate::daemon::{Daemon, Generation, StartError};
use crate::pb;

/// Runs every line through the daemon's own code, in process: a turn in a
/// session of its own, a dialogue's turns in one (with their `Enrich` and
/// `RecordOutcome` calls).
pub async fn evaluate<L: Into<Line>>(config: Config, lines: impl IntoIterator<Item = L>) -> Result<Report, StartError> {
    evaluate_except(config, lines, &[]).await
}

/// [`evaluate`], the turns the exceptions name set aside: run as any
/// other, counted nowhere, listed with their reasons.
pub async fn evaluate_except<L: Into<Line>>(
    mut config: Config,
    lines: impl IntoIterator<Item = L>,
    exceptions: &[Exception],
) -> Result<Report, StartError> {
    // Each line is a session of its own, in this process: never written to
    // a shared store.
    config.sessions.backend = crate::config::SessionBackend::Memory;
    Ok(evaluate_on(&Daemon::new(config)?, lines, exceptions).await)
}

/// Every single-turn line's decision, scored, in file order (a dialogue's
/// turns are left out: they depend on what earlier turns showed): two
/// configurations compared line by line (S8, with the model on and off).
pub async fn decisions<L: Into<Line>>(mut config: Config, lines: impl IntoIterator<Item = L>) -> Result<Vec<Scored>, StartError> {
    config.sessions.backend = crate::config::SessionBackend::Memory;
    let daemon = Daemon::new(config)?;
    let g = daemon.current();
    let mut out = Vec::new();
    for line in lines {
        if let Line::Turn(c) = line.into() {
            let Case { at, category, request, expect, .. } = *c;
            out.push(decide(&daemon, &g, at, category, request, expect).await.0);
        }
    }
    Ok(out)
}

/// [`evaluate_except`] on `daemon`.
async fn evaluate_on<L: Into<Line>>(daemon: &Daemon, lines: impl IntoIterator<Item = L>, exceptions: &[Exception]) -> Report {
    // A line or dialogue without an id of its own is named by where it is
    // ("tests/corpus/dialogues.jsonl:1#2", as the report lists it).
    let reason_of = |id: &str| exceptions.iter().find(|e| !id.is_empty() && e.at == id).map(|e| e.reason.clone());
    let reason = |s: &Scored| reason_of(if s.id.is_empty() { &s.at } else { &s.id });
    let g = daemon.current();
    let mut scored = Vec::new();
    let mut walked: Vec<(String, dialogues::Walked)> = Vec::new();
    for line in lines {
        match line.into() {
            Line::Turn(c) => {
                let Case { at, id, category, request, expect, follow_up } = *c;
                let (mut s, _) = decide(daemon, &g, at, category, request, expect).await;
                s.id = id;
                s.expect_follow_up = follow_up;
                scored.push(s);
            }
            Line::Dialogue(d) => {
                let mut seen = Vec::with_capacity(d.turns.len());
                for (i, t) in d.turns.into_iter().enumerate() {
                    let at = format!("{}#{}", d.at, i + 1);
                    let id = if d.id.is_empty() { String::new() } else { format!("{}#{}", d.id, i + 1) };
                    let key = dialogues::request_key(&t.request);
                    let (session, turn_id) = (t.request.session_id.clone(), t.request.turn_id.clone());
                    let (mut s, mut last) = decide(daemon, &g, at.clone(), d.category.clone(), t.request, t.expect).await;
                    s.id = id.clone();
                    s.expect_follow_up = t.follow_up.clone();
                    let mut turn = dialogues::Seen {
                        at: at.clone(),
                        input: s.input.clone(),
                        key,
                        got: s.got.clone(),
                        verdicts: vec![s.verdict],
                        choice: None,
                        excepted: reason_of(if id.is_empty() { &at } else { &id }).is_some(),
                    };
                    scored.push(s);
                    if let Some(e) = t.enrich {
                        let at = format!("{at}+enrich");
                        let (s, d2) = match last.as_ref().filter(|dec| dec.outcome == ladder::Outcome::NeedMoreInfo) {
                            Some(dec) => {
                                let req = pb::EnrichRequest {
                                    session_id: session.clone(),
                                    turn_id: turn_id.clone(),
                                    loop_cycle_id: dec.loop_cycle_id.clone().unwrap_or_default(),
                                    evidence: e.evidence,
                                    chat_history: Vec::new(),
                                };
                                let (mut s, d2) = enrich(daemon, &g, at, req, e.expect, &d.category).await;
                                s.id = id.clone();
                                (s, d2)
                            }
                            // The app calls Enrich only after a NEED_MORE_INFO:
                            // the turn's own decision answers the expectation.
                            None => {
                                let input = scored.last().map(|s: &Scored| s.input.clone()).unwrap_or_default();
                                let s = Scored::new(at, d.category.clone(), input, e.expect, turn.got.clone());
                                (Scored { id: id.clone(), ..s }, None)
                            }
                        };
                        turn.got = s.got.clone();
                        turn.verdicts.push(s.verdict);
                        scored.push(s);
                        if d2.is_some() {
                            last = d2;
                        }
                    }
                    if let Some(r) = t.record {
                        turn.choice = matches!(r.kind, pb::OutcomeKind::Accepted | pb::OutcomeKind::Executed | pb::OutcomeKind::Corrected)
                            .then(|| r.choice_id.clone());
                        if let Err(e) = record(daemon, &g, &session, &turn_id, last.as_ref(), r).await {
                            let got = Got { outcome: "invalid".into(), detail: format!("record_outcome: {e}"), ..Got::default() };
                            let input = scored.last().map(|s: &Scored| s.input.clone()).unwrap_or_default();
                            // An invalid outcome scores as `Grade::Invalid`.
                            let s = Scored::new(format!("{at}+record"), d.category.clone(), input, Expect::Clarify(Vec::new()), got);
                            scored.push(Scored { id: id.clone(), ..s });
                        }
                    }
                    seen.push(turn);
                }
                walked.push((d.category, dialogues::walk(&seen)));
            }
        }
    }
    let (counted, aside): (Vec<Scored>, Vec<Scored>) = scored.into_iter().partition(|s| reason(s).is_none());
    let mut r = report(g.policy.revision.clone(), counted);
    r.set_aside = aside.into_iter().map(|s| SetAside { reason: reason(&s).unwrap_or_default(), turn: s }).collect();
    for (category, w) in walked {
        r.dialogues.add(&w);
        r.dialogues_by_category.entry(category).or_default().add(&w);
    }
    r
}

/// One `Decide` turn, scored; its decision when the edge let it through.
async fn decide(
    daemon: &Daemon,
    g: &Generation,
    at: String,
    category: String,
    request: pb::DecideRequest,
    expect: Expect,
) -> (Scored, Option<ladder::Decision>) {
    let input = request.input.clone();
    let (got, decision) = match convert::decide_request(request, &g.config.limits) {
        Err(e) => (Got { outcome: "invalid".into(), detail: e.to_string(), ..Got::default() }, None),
        Ok(req) => {
            let risky = high_risk_ids(&req, &g.policy.matching.high_risk_kinds);
            match daemon.decide(g, req, None).await {
                Err(e) => (Got { outcome: "invalid".into(), detail: e.to_string(), ..Got::default() }, None),
                Ok(d) => (got(&d, &risky), Some(d)),
            }
        }
    };
    (Scored::new(at, category, input, expect, got), decision)
}

/// A dialogue turn's `Enrich` step, scored.
async fn enrich(
    daemon: &Daemon,
    g: &Generation,
    at: String,
    request: pb::EnrichRequest,
    expect: Expect,
    category: &str,
) -> (Scored, Option<ladder::Decision>) {
    let risky: Vec<String> = request
        .evidence
        .iter()
        .flat_map(|b| b.candidates.iter().cloned())
        .map(ladder::Candidate::from)
        .filter(|c| c.is_high_risk(&g.policy.matching.high_risk_kinds))
        .map(|c| c.id)
        .collect();
    let (got, decision) = match convert::enrich_request(request, &g.config.limits) {
        Err(e) => (Got { outcome: "invalid".into(), detail: e.to_string(), ..Got::default() }, None),
        Ok(input) => match daemon.enrich(g, input, None).await {
            Err(e) => (Got { outcome: "invalid".into(), detail: format!("enrich: {e}"), ..Got::default() }, None),
            Ok(d) => (got(&d, &risky), Some(d)),
        },
    };
    (Scored::new(at, category.to_string(), String::new(), expect, got), decision)
}

/// A dialogue turn's `RecordOutcome`, on the turn's last decision.
async fn record(
    daemon: &Daemon,
    g: &Generation,
    session: &str,
    turn_id: &str,
    last: Option<&ladder::Decision>,
    r: RecordStep,
) -> Result<(), String> {
    let m = pb::RecordOutcomeRequest {
        session_id: session.to_string(),
        decision_id: last.map(|d| d.decision_id.clone()).unwrap_or_default(),
        kind: r.kind as i32,
        choice_id: r.choice_id,
        turn_id: turn_id.to_string(),
        scope: None,
        option_set_id: String::new(),
    };
    let o = convert::outcome_request(m, &g.config.limits).map_err(|e| e.to_string())?;
    daemon.record_outcome(g, o).await.map(|_| ()).map_err(|e| e.to_string())
}

/// The ids of the request's candidates that are high risk.
fn high_risk_ids(req: &ladder::DecideRequest, kinds: &[String]) -> Vec<String> {
    let lists = [req.option_candidates(), &req.recoverable_chat_options[..], &req.widget_items[..]];
    lists.iter().flat_map(|l| l.iter()).filter(|c| c.is_high_risk(kinds)).map(|c| c.id.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{Grade, case, read, render};

    /// Decisions do not depend on how the store keeps a session: the
    /// dialogue corpora (every turn reads what the turns before left) give
    /// the same report when every session is packed as soon as its call
    /// is done (as each is in a store holding more than 4,096) as when
    /// every session stays open (as each is in one holding fewer).
    #[tokio::test]
    async fn dialogues_decide_the_same_on_packed_sessions() {
        for file in ["tests/corpus/dialogues.jsonl", "tests/corpus/dialogues-b/dialogues.jsonl", "examples/eval/dialogues.jsonl"] {
            let lines = read(std::path::Path::new(file)).expect("the corpus reads");
            assert!(lines.iter().any(|l| matches!(l, Line::Dialogue(_))), "{file} holds dialogues");
            let config = Config::default();
            let max = config.sessions.max;
            let idle = std::time::Duration::from_secs(config.sessions.idle_ttl_seconds);
            let open = Daemon::new(config.clone())
                .expect("the defaults")
                .with_store(std::sync::Arc::new(crate::store::MemoryStore::keeping_open(max, idle, 1_000_000)));
            let packed = Daemon::new(config)
                .expect("the defaults")
                .with_store(std::sync::Arc::new(crate::store::MemoryStore::keeping_open(max, idle, 0)));
            let (a, b) = (evaluate_on(&open, lines.clone(), &[]).await, evaluate_on(&packed, lines, &[]).await);
            let json = |r: &Report| serde_json::to_string_pretty(r).expect("a report serializes");
            let (a, b) = (json(&a), json(&b));
            let first = a.lines().zip(b.lines()).position(|(x, y)| x != y);
            assert!(
                a == b,
                "{file}: the reports differ, first at line {first:?}: {:?}",
                first.map(|i| (a.lines().nth(i), b.lines().nth(i)))
            );
        }
    }

    #[tokio::test]
    async fn a_turn_set_aside_runs_but_is_counted_nowhere_and_listed_with_its_reason() {
        let options = serde_json::json!({"optionSetId": "s", "scope": "SCOPE_CHAT",
            "candidates": [{"id": "a", "label": "Alpha report"}, {"id": "b", "label": "Beta report"}]});
        let turn = |id: &str, input: &str, expect: serde_json::Value| {
            Line::from(
                case(&format!("f:{id}"), &serde_json::json!({"id": id, "input": input, "options": options, "expect": expect})).unwrap(),
            )
        };
        let lines = || {
            vec![
                turn("t1", "alpha report", serde_json::json!({"execute": "a"})),
                // Judged wrong: the expectation asks to execute what the user did not name.
                turn("t2", "alpha report", serde_json::json!({"execute": "b"})),
            ]
        };
        let all = evaluate(Config::default(), lines()).await.unwrap();
        assert_eq!((all.overall.turns, all.wrong_executes(), all.set_aside.len()), (2, 1, 0));
        let why = [Exception { at: "t2".into(), reason: "the user named alpha".into() }];
        let r = evaluate_except(Config::default(), lines(), &why).await.unwrap();
        assert_eq!((r.overall.turns, r.wrong_executes(), r.failures.len()), (1, 0, 0));
        assert_eq!((r.set_aside.len(), r.set_aside[0].turn.id.as_str(), r.set_aside[0].turn.verdict), (1, "t2", Grade::WrongExecute));
        let text = render(&r);
        assert!(text.contains("set aside, the expectation judged wrong (counted nowhere above): 1"), "{text}");
        assert!(
            text.contains(
                "  t2 f:t2 [uncategorized] \"alpha report\": expected Execute(\"b\"), got execute a\n    because the user named alpha"
            ),
            "{text}"
        );
        assert_eq!(serde_json::to_value(&r).unwrap()["set_aside"][0]["reason"], "the user named alpha");
    }

    /// The reply rung's own trace names the kind, as the daemon runs it.
    #[tokio::test]
    async fn a_reply_to_the_apps_confirmation_is_counted_as_its_kind() {
        let confirm = serde_json::json!({"optionSetId": "s", "scope": "SCOPE_CHAT", "asked": "ASKED_CONFIRMATION",
            "candidates": [{"id": "a", "label": "Book a table: Luigi's"}]});
        let lines = [("yes please", serde_json::json!({"execute": "a"})), ("no", serde_json::json!({"escape": "declined"}))]
            .iter()
            .map(|(input, expect)| case("f:1", &serde_json::json!({"input": input, "options": confirm, "expect": expect})).unwrap())
            .collect::<Vec<_>>();
        let r = evaluate(Config::default(), lines).await.unwrap();
        let text = render(&r);
        assert_eq!((r.replies.turns, r.replies.right()), (2, 2), "{text}");
        assert_eq!((r.replies_by_kind["affirm"].right_executes, r.replies_by_kind["decline"].escape_ok), (1, 1), "{text}");
    }
}
