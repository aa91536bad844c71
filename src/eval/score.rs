//! One turn judged: what the ladder did, read off its decision as scoring
//! needs it ([`Got`], from [`got`]), against what a person expects
//! ([`score`]: a [`Grade`]). Pure. What a turn shows that a new figure
//! needs (a field of `Got`) is read off the decision here; adding turns up
//! is [`report`](super::report)'s.

use super::corpus::Expect;
use serde::Serialize;

/// What the ladder did with a turn, as scoring needs it.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Got {
    /// `execute`, `clarify`, `escape`, `need_more_info`, or `invalid` (the
    /// edge refused the request; the message is in `detail`).
    pub outcome: String,
    pub target_id: String,
    pub escape_reason: String,
    /// The clarifier's options, in display order.
    pub offered: Vec<String>,
    /// The evidence types a `NEED_MORE_INFO` asks for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub needed: Vec<String>,
    pub detail: String,
    /// The candidate executed is high risk (docs/deciding.md#risk).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub high_risk: bool,
    /// The deterministic rungs named a candidate the input does not
    /// account for, and refused it (docs/deciding.md).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub refused: bool,
    /// What the LLM rung did, when the turn reached it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llm: Option<LlmSeen>,
    /// The kind of reply the reply rung read the turn as, when that rung
    /// decided it (`affirm`, `decline`, `position`, ...; docs/replies.md).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reply: String,
    /// The follow-up an execute left (`question`, `request`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub follow_up: String,
    /// What a question it escaped is about (`Decision.about`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub about: Vec<String>,
}

/// What the LLM rung did with a turn that reached it.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct LlmSeen {
    /// The provider was asked (not a loop-guard repeat, not skipped).
    pub called: bool,
    /// `select`, `abstain`, `need_more_info`, or the failure (`timeout`, ...).
    pub verdict: String,
    /// The pick, when it made one.
    pub picked: String,
    /// The corroboration of a pick that passed every other gate
    /// (`agreed`, `disagreed`, ...); empty when none ran.
    pub corroboration: String,
    /// The pick executed.
    pub executed: bool,
}

/// How one turn scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Grade {
    /// Executed the expected candidate.
    RightExecute,
    /// Executed something else, or executed where a person would ask or
    /// hand back: the worst outcome.
    WrongExecute,
    /// Asked (or handed back) where a person would have acted.
    MissedExecute,
    /// Clarified (or asked for more evidence) where a person would ask.
    ClarifyOk,
    /// Handed back where a person would ask.
    ClarifyMissed,
    /// Handed back for the expected reason.
    EscapeOk,
    /// Handed back for another reason.
    EscapeWrong,
    /// Did not hand back where a person would (asked instead).
    EscapeMissed,
    /// The edge refused the request (a bug in the corpus line).
    Invalid,
}

/// One turn's result.
#[derive(Debug, Clone, Serialize)]
pub struct Scored {
    pub at: String,
    /// The line's `id` (a dialogue turn's: `id#turn`), when it has one.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub id: String,
    pub category: String,
    pub input: String,
    pub expect: Expect,
    /// The follow-up the execute should leave (`question`, `request`).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub expect_follow_up: String,
    pub got: Got,
    pub verdict: Grade,
    /// For an expected execute that was missed, or an expected clarify:
    /// whether the clarifier offered every expected id.
    pub offered_expected: Option<bool>,
}

impl Scored {
    /// A turn at `at` (no `id`, no follow-up expected), scored by `score`.
    pub fn new(at: String, category: String, input: String, expect: Expect, got: Got) -> Scored {
        let (verdict, offered_expected) = score(&expect, &got);
        Scored { at, id: String::new(), category, input, expect, expect_follow_up: String::new(), got, verdict, offered_expected }
    }
}

/// Scores one turn.
pub fn score(expect: &Expect, got: &Got) -> (Grade, Option<bool>) {
    let offered = |ids: &[String]| ids.iter().all(|id| got.offered.contains(id));
    let asked = matches!(got.outcome.as_str(), "clarify" | "need_more_info");
    if got.outcome == "invalid" {
        return (Grade::Invalid, None);
    }
    match expect {
        Expect::Execute(id) => match got.outcome.as_str() {
            "execute" if got.target_id == *id => (Grade::RightExecute, None),
            "execute" => (Grade::WrongExecute, None),
            _ => (Grade::MissedExecute, Some(asked && offered(std::slice::from_ref(id)))),
        },
        Expect::Clarify(ids) => match got.outcome.as_str() {
            "execute" => (Grade::WrongExecute, None),
            "escape" => (Grade::ClarifyMissed, None),
            _ => (Grade::ClarifyOk, Some(offered(ids))),
        },
        Expect::Escape(reason) => match got.outcome.as_str() {
            "execute" => (Grade::WrongExecute, None),
            "escape" if got.escape_reason == *reason => (Grade::EscapeOk, None),
            "escape" => (Grade::EscapeWrong, None),
            _ => (Grade::EscapeMissed, None),
        },
        // A clarifier instead is not wrong: `offered_expected` says whether
        // the evidence asked for was the expected.
        Expect::NeedMoreInfo(types) => match got.outcome.as_str() {
            "execute" => (Grade::WrongExecute, None),
            "escape" => (Grade::ClarifyMissed, None),
            "need_more_info" => (Grade::ClarifyOk, Some(types.iter().all(|t| got.needed.contains(t)))),
            _ => (Grade::ClarifyOk, Some(false)),
        },
    }
}

/// What a decision did, as scoring needs it.
pub(super) fn got(d: &ladder::Decision, high_risk: &[String]) -> Got {
    let target_id = d.target_id.clone().unwrap_or_default();
    let execute = d.outcome == ladder::Outcome::Execute;
    let rung = |name: &str| d.trace.iter().find(|s| s.rung == name);
    // A rung with the LLM off is no LLM turn.
    let llm = rung("llm").filter(|s| !matches!(s.outcome.as_str(), "not_eligible" | "llm_disabled")).map(|s| LlmSeen {
        called: d.llm.called,
        verdict: if d.llm.verdict.is_empty() { s.outcome.clone() } else { d.llm.verdict.clone() },
        picked: d.llm.suggested_id.clone().unwrap_or_default(),
        corroboration: d.llm.corroboration.clone(),
        executed: execute && d.decided_by == ladder::Decider::Llm,
    });
    Got {
        outcome: d.outcome.as_str().to_string(),
        high_risk: execute && high_risk.contains(&target_id),
        refused: rung("classify").is_some_and(|s| s.detail.contains("does not account for")),
        target_id,
        escape_reason: d.escape_reason.map(|r| r.as_str().to_string()).unwrap_or_default(),
        offered: d.clarifier.as_ref().map(|c| c.option_ids.clone()).unwrap_or_default(),
        needed: d.needed_evidence_types.iter().map(|t| t.as_str().to_string()).collect(),
        detail: [d.ambiguity_reason.map(|r| r.as_str()), d.fallback_reason.map(|r| r.as_str())]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(", "),
        llm,
        reply: reply_kind(d).unwrap_or_default().to_string(),
        follow_up: d.follow_up.as_ref().map(|f| f.kind.as_str().to_string()).unwrap_or_default(),
        about: d.about.clone(),
    }
}

/// The kind of reply a decision the reply rung made was read as: its step
/// in the trace names it (a step that passed, or read the words again for
/// the ladder to match, did not decide), or the `detail` rung's, which
/// reads an answer by a detail where the screen tied.
pub(super) fn reply_kind(d: &ladder::Decision) -> Option<&str> {
    if d.handled_by_tier != ladder::Tier::Reply {
        return None;
    }
    let replied = |s: &&ladder::Step| (s.rung == "reply" || s.rung == "detail") && ladder::replies::ReplyKind::parse(&s.outcome).is_some();
    let step = d.trace.iter().rev().find(replied)?;
    Some(step.outcome.as_str())
}

#[cfg(test)]
pub(super) mod tests {
    //! The scoring table, the reply kind, and the turns the report's tests
    //! add up (`got`, `scored`).

    use super::*;

    /// What the ladder did, as a test writes it: an outcome, its target
    /// (an escape's reason), the options offered.
    pub(in crate::eval) fn got(outcome: &str, target: &str, offered: &[&str]) -> Got {
        Got {
            outcome: outcome.into(),
            target_id: target.into(),
            escape_reason: if outcome == "escape" { target.into() } else { String::new() },
            offered: offered.iter().map(|s| s.to_string()).collect(),
            detail: String::new(),
            ..Got::default()
        }
    }

    /// A turn scored as `score` scores it.
    pub(in crate::eval) fn scored(expect: Expect, got: Got, category: &str) -> Scored {
        Scored::new("f:1".into(), category.into(), String::new(), expect, got)
    }

    #[test]
    fn scoring_table() {
        let ex = |id: &str| Expect::Execute(id.into());
        let cl = |ids: &[&str]| Expect::Clarify(ids.iter().map(|s| s.to_string()).collect());
        let es = |r: &str| Expect::Escape(r.into());
        let table = [
            (ex("a"), got("execute", "a", &[]), Grade::RightExecute, None),
            (ex("a"), got("execute", "b", &[]), Grade::WrongExecute, None),
            (ex("a"), got("clarify", "", &["b", "a"]), Grade::MissedExecute, Some(true)),
            (ex("a"), got("clarify", "", &["b"]), Grade::MissedExecute, Some(false)),
            (ex("a"), got("escape", "cancel", &[]), Grade::MissedExecute, Some(false)),
            (cl(&["a", "b"]), got("clarify", "", &["b", "a", "c"]), Grade::ClarifyOk, Some(true)),
            (cl(&["a", "b"]), got("need_more_info", "", &["a"]), Grade::ClarifyOk, Some(false)),
            (cl(&["a"]), got("execute", "a", &[]), Grade::WrongExecute, None),
            (cl(&["a"]), got("escape", "command", &[]), Grade::ClarifyMissed, None),
            (es("cancel"), got("escape", "cancel", &[]), Grade::EscapeOk, None),
            (es("cancel"), got("escape", "question_intent", &[]), Grade::EscapeWrong, None),
            (es("cancel"), got("clarify", "", &["a"]), Grade::EscapeMissed, None),
            (es("question_intent"), got("execute", "a", &[]), Grade::WrongExecute, None),
            (ex("a"), got("invalid", "", &[]), Grade::Invalid, None),
        ];
        for (expect, got, verdict, offered) in table {
            assert_eq!(score(&expect, &got), (verdict, offered), "{expect:?} vs {got:?}");
        }
    }

    #[test]
    fn a_reply_kind_is_the_reply_rungs_own_decision_only() {
        let step = |rung: &'static str, outcome: &str| ladder::Step {
            rung: rung.into(),
            outcome: outcome.into(),
            detail: String::new(),
            duration_us: 0,
        };
        let decision = |tier: ladder::Tier, trace: Vec<ladder::Step>| {
            let mut d = ladder::Decision::new(ladder::Outcome::Execute, tier);
            d.trace = trace;
            d
        };
        let read = |d: &ladder::Decision| reply_kind(d).map(str::to_string);
        let d = decision(ladder::Tier::Reply, vec![step("scope", "chat"), step("reply", "affirm")]);
        assert_eq!(read(&d).as_deref(), Some("affirm"));
        // The detail answer read after the match (step 7b) follows a pass.
        let d = decision(ladder::Tier::Reply, vec![step("reply", "pass"), step("match", "tie"), step("detail", "detail")]);
        assert_eq!(read(&d).as_deref(), Some("detail"));
        // A refusal whose words the ladder read again was decided by the match.
        let d = decision(ladder::Tier::Deterministic, vec![step("reply", "decline"), step("match", "one")]);
        assert_eq!(read(&d), None);
        let d = decision(ladder::Tier::Deterministic, vec![step("reply", "pass")]);
        assert_eq!(read(&d), None);
        for kind in ladder::replies::ReplyKind::ALL {
            let d = decision(ladder::Tier::Reply, vec![step("reply", kind.as_str())]);
            assert_eq!(read(&d).as_deref(), Some(kind.as_str()));
        }
    }
}
