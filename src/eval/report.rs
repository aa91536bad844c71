//! The figures: scored turns added up into a [`Report`] (overall, by
//! category, by the kind of reply, what the LLM rung did, the shares the
//! gates read) and the dialogues' own ([`DialogueTally`], walked in
//! [`dialogues`](super::dialogues)). `--json` is the report as serde writes it.
//!
//! A new figure goes here: a field of the tally it belongs to ([`Tally`]
//! for a count of turns, kept for every category and reply kind alike;
//! [`LlmTally`] for the LLM rung; a tally of its own in [`Report`] for
//! anything else), counted in that tally's `add` from the [`Scored`] turn
//! (what the turn showed is read off its decision in
//! [`score`](super::score)); then its line in [`render`](super::render).

use super::corpus::Expect;
use super::dialogues::DialogueTally;
use super::score::{Grade, Scored};
use serde::Serialize;
use std::collections::BTreeMap;

/// Counts of one category (or all).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Tally {
    pub turns: usize,
    pub right_executes: usize,
    pub wrong_executes: usize,
    pub missed_executes: usize,
    /// Missed executes whose clarifier offered the expected id.
    pub missed_but_offered: usize,
    pub clarify_ok: usize,
    /// Of `clarify_ok`: the clarifier offered every expected id.
    pub clarify_offered: usize,
    pub clarify_missed: usize,
    pub escape_ok: usize,
    pub escape_wrong: usize,
    pub escape_missed: usize,
    pub invalid: usize,
    /// Executes of high-risk candidates, right or wrong (docs/deciding.md#risk).
    pub high_risk_executes: usize,
    /// Of those, wrong.
    pub high_risk_wrong: usize,
    /// Executes that left a follow-up (`Decision.follow_up`), by kind.
    pub follow_up_questions: usize,
    pub follow_up_requests: usize,
    /// Turns whose expectation names a follow-up, and of those the right
    /// executes that left it.
    pub follow_up_expected: usize,
    pub follow_up_right: usize,
    /// Turns whose expected answer is one option (an execute) that ended
    /// in a clarifier: how many, of those the ones that offered the
    /// option, offered it first, and the options they offered, together
    /// (what the clarifier's ranking is judged by).
    pub asked_one: usize,
    pub asked_one_offered: usize,
    pub asked_one_first: usize,
    pub asked_one_options: usize,
    /// Turns escaped as questions (`question_intent`), and of those the
    /// ones whose `about` names a candidate; of the questions that
    /// expected one option (an execute), how many, and how many name it
    /// in `about` (docs/meaning.md, "Questions").
    pub questions: usize,
    pub questions_about: usize,
    pub questions_one: usize,
    pub questions_one_about: usize,
}

impl Tally {
    pub(super) fn add(&mut self, s: &Scored) {
        self.turns += 1;
        if s.got.outcome == "execute" {
            self.follow_up_questions += usize::from(s.got.follow_up == "question");
            self.follow_up_requests += usize::from(s.got.follow_up == "request");
        }
        if !s.expect_follow_up.is_empty() {
            self.follow_up_expected += 1;
            self.follow_up_right += usize::from(s.verdict == Grade::RightExecute && s.got.follow_up == s.expect_follow_up);
        }
        if let (Expect::Execute(id), "clarify") = (&s.expect, s.got.outcome.as_str()) {
            self.asked_one += 1;
            self.asked_one_offered += usize::from(s.got.offered.contains(id));
            self.asked_one_first += usize::from(s.got.offered.first() == Some(id));
            self.asked_one_options += s.got.offered.len();
        }
        if s.got.outcome == "escape" && s.got.escape_reason == "question_intent" {
            self.questions += 1;
            self.questions_about += usize::from(!s.got.about.is_empty());
            if let Expect::Execute(id) = &s.expect {
                self.questions_one += 1;
                self.questions_one_about += usize::from(s.got.about.contains(id));
            }
        }
        if s.got.high_risk && s.got.outcome == "execute" {
            self.high_risk_executes += 1;
            self.high_risk_wrong += usize::from(s.verdict == Grade::WrongExecute);
        }
        match s.verdict {
            Grade::RightExecute => self.right_executes += 1,
            Grade::WrongExecute => self.wrong_executes += 1,
            Grade::MissedExecute => {
                self.missed_executes += 1;
                self.missed_but_offered += usize::from(s.offered_expected == Some(true));
            }
            Grade::ClarifyOk => {
                self.clarify_ok += 1;
                self.clarify_offered += usize::from(s.offered_expected == Some(true));
            }
            Grade::ClarifyMissed => self.clarify_missed += 1,
            Grade::EscapeOk => self.escape_ok += 1,
            Grade::EscapeWrong => self.escape_wrong += 1,
            Grade::EscapeMissed => self.escape_missed += 1,
            Grade::Invalid => self.invalid += 1,
        }
    }

    /// Right answers of every kind.
    pub fn right(&self) -> usize {
        self.right_executes + self.clarify_ok + self.escape_ok
    }

    pub fn accuracy(&self) -> f64 {
        ratio(self.right(), self.turns)
    }
}

pub(super) fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// The figures the project's gates read: shares of each kind of turn,
/// counted by what a person expects.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Shares {
    pub expected_execute: usize,
    pub expected_clarify: usize,
    pub expected_escape: usize,
    /// Clear requests executed right.
    pub clear_executed: f64,
    /// Ambiguous turns clarified.
    pub ambiguous_clarified: f64,
    /// Escapes right.
    pub escapes_right: f64,
}

/// What the LLM rung did over the run (docs/llm.md), and what it made of
/// the turns the deterministic rungs refused by the principle
/// (docs/deciding.md).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LlmTally {
    /// Turns that reached the LLM rung (asked, or answered by the loop
    /// guard, or skipped there: disabled, budget, store).
    pub reached: usize,
    /// Turns the provider was asked about.
    pub called: usize,
    /// By verdict (`select`, `abstain`, `timeout`, `llm_disabled`, ...).
    pub by_verdict: BTreeMap<String, usize>,
    /// Picks (a `select` verdict).
    pub picked: usize,
    /// Picks that executed (every gate passed, corroborated).
    pub executed: usize,
    /// Of those, the expected candidate.
    pub executed_right: usize,
    /// Of those, wrong.
    pub executed_wrong: usize,
    /// Picks a corroboration did not confirm (`not_corroborated`).
    pub not_corroborated: usize,
    /// Picks the gates kept to a clarifier (auto-execute off, a gate failed,
    /// or a high-risk pick asked to confirm).
    pub kept_to_clarifier: usize,
    /// Turns the deterministic rungs refused (a named candidate the input
    /// does not account for).
    pub refused: usize,
    /// Of those, the LLM executed the expected candidate.
    pub refused_resolved: usize,
    /// Of those, the LLM picked the expected candidate (executed or not).
    pub refused_picked_right: usize,
}

impl LlmTally {
    /// Nothing reached the LLM rung and the principle refused nothing.
    pub fn is_empty(&self) -> bool {
        *self == LlmTally::default()
    }
}

impl LlmTally {
    fn add(&mut self, s: &Scored) {
        let expected = match &s.expect {
            Expect::Execute(id) => Some(id.as_str()),
            _ => None,
        };
        if s.got.refused {
            self.refused += 1;
        }
        let Some(l) = &s.got.llm else { return };
        self.reached += 1;
        self.called += usize::from(l.called);
        *self.by_verdict.entry(l.verdict.clone()).or_default() += 1;
        if l.verdict == "select" {
            self.picked += 1;
            let right = expected == Some(l.picked.as_str());
            if l.executed {
                self.executed += 1;
                self.executed_right += usize::from(right && s.verdict == Grade::RightExecute);
                self.executed_wrong += usize::from(s.verdict == Grade::WrongExecute);
            } else if l.corroboration.is_empty() || l.corroboration == "agreed" {
                self.kept_to_clarifier += 1;
            } else {
                self.not_corroborated += 1;
            }
            if s.got.refused && right {
                self.refused_picked_right += 1;
                self.refused_resolved += usize::from(l.executed && s.verdict == Grade::RightExecute);
            }
        }
    }
}

/// A turn an [`Exception`] set aside: what happened, and why it is not
/// counted.
#[derive(Debug, Clone, Serialize)]
pub struct SetAside {
    pub reason: String,
    #[serde(flatten)]
    pub turn: Scored,
}

/// The whole evaluation.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub config_revision: String,
    pub overall: Tally,
    pub shares: Shares,
    pub by_category: BTreeMap<String, Tally>,
    /// The turns the reply rung decided (docs/replies.md: its step in the
    /// trace named the kind of reply, and the decision's tier is `reply`).
    pub replies: Tally,
    /// The same by kind: `affirm`, `decline`, `cancel`, `repair`,
    /// `position`, `detail`, `comparison`, `repeat`.
    pub replies_by_kind: BTreeMap<String, Tally>,
    /// What the LLM rung did (empty when no turn reached it, and then left
    /// out of `--json`).
    #[serde(skip_serializing_if = "LlmTally::is_empty")]
    pub llm: LlmTally,
    /// The dialogues, whole (all of them; empty when the corpus has none,
    /// and then left out of `--json`).
    #[serde(skip_serializing_if = "DialogueTally::is_empty")]
    pub dialogues: DialogueTally,
    /// The dialogues by category.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub dialogues_by_category: BTreeMap<String, DialogueTally>,
    /// Every turn that was not right, in file order.
    pub failures: Vec<Scored>,
    /// The turns [`Exception`]s set aside (counted nowhere above).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub set_aside: Vec<SetAside>,
}

impl Report {
    pub fn wrong_executes(&self) -> usize {
        self.overall.wrong_executes
    }
}

/// Adds up scored turns.
pub fn report(config_revision: String, scored: Vec<Scored>) -> Report {
    let mut overall = Tally::default();
    let mut llm = LlmTally::default();
    let mut by_category: BTreeMap<String, Tally> = BTreeMap::new();
    let (mut replies, mut replies_by_kind) = (Tally::default(), BTreeMap::<String, Tally>::new());
    let mut shares = Shares::default();
    let (mut executed, mut clarified, mut escaped) = (0, 0, 0);
    for s in &scored {
        overall.add(s);
        llm.add(s);
        by_category.entry(s.category.clone()).or_default().add(s);
        if !s.got.reply.is_empty() {
            replies.add(s);
            replies_by_kind.entry(s.got.reply.clone()).or_default().add(s);
        }
        match (&s.expect, s.verdict) {
            (Expect::Execute(_), v) => {
                shares.expected_execute += 1;
                executed += usize::from(v == Grade::RightExecute);
            }
            (Expect::Clarify(_) | Expect::NeedMoreInfo(_), v) => {
                shares.expected_clarify += 1;
                clarified += usize::from(v == Grade::ClarifyOk);
            }
            (Expect::Escape(_), v) => {
                shares.expected_escape += 1;
                escaped += usize::from(v == Grade::EscapeOk);
            }
        }
    }
    shares.clear_executed = ratio(executed, shares.expected_execute);
    shares.ambiguous_clarified = ratio(clarified, shares.expected_clarify);
    shares.escapes_right = ratio(escaped, shares.expected_escape);
    // Not right: a wrong verdict, or an execute that left another
    // follow-up than the one expected (listed with its verdict).
    let follow_up_missed = |s: &Scored| !s.expect_follow_up.is_empty() && s.got.follow_up != s.expect_follow_up;
    let failures = scored
        .into_iter()
        .filter(|s| !matches!(s.verdict, Grade::RightExecute | Grade::ClarifyOk | Grade::EscapeOk) || follow_up_missed(s))
        .collect();
    Report {
        config_revision,
        overall,
        shares,
        by_category,
        replies,
        replies_by_kind,
        llm,
        dialogues: DialogueTally::default(),
        dialogues_by_category: BTreeMap::new(),
        failures,
        set_aside: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::render::render;
    use crate::eval::score::Got;
    use crate::eval::score::tests::{got, scored};

    #[test]
    fn the_report_counts_each_kind_of_turn_by_what_a_person_expects() {
        let s = scored;
        let r = report(
            "rev".into(),
            vec![
                s(Expect::Execute("a".into()), got("execute", "a", &[]), "ordinal"),
                s(Expect::Execute("a".into()), got("clarify", "", &["a"]), "ordinal"),
                s(Expect::Clarify(vec!["a".into()]), got("clarify", "", &["a"]), "vague"),
                s(Expect::Clarify(vec!["a".into()]), got("execute", "b", &[]), "vague"),
                s(Expect::Escape("cancel".into()), got("escape", "cancel", &[]), "cancel"),
            ],
        );
        assert_eq!((r.overall.turns, r.overall.right(), r.wrong_executes()), (5, 3, 1));
        assert_eq!((r.shares.expected_execute, r.shares.expected_clarify, r.shares.expected_escape), (2, 2, 1));
        assert_eq!((r.shares.clear_executed, r.shares.ambiguous_clarified, r.shares.escapes_right), (0.5, 0.5, 1.0));
        assert_eq!(r.by_category["ordinal"].missed_but_offered, 1);
        assert_eq!(r.failures.len(), 2);
        assert!(render(&r).contains("wrong executes: 1"));
    }

    /// A clarifier where one option was expected is judged by whether it
    /// offered the option, first, and how many it offered; other turns
    /// are not counted there.
    #[test]
    fn clarifiers_where_one_option_was_expected_count_the_option_offered_and_first() {
        let one = |offered: &[&str]| scored(Expect::Execute("a".into()), got("clarify", "", offered), "vague");
        let r = report(
            "rev".into(),
            vec![
                one(&["b", "a", "c"]),
                one(&["a", "b"]),
                one(&["b", "c", "d", "e"]),
                scored(Expect::Execute("a".into()), got("execute", "a", &[]), "exact"),
                scored(Expect::Clarify(vec!["a".into(), "b".into()]), got("clarify", "", &["a", "b"]), "vague"),
            ],
        );
        let o = &r.overall;
        assert_eq!((o.asked_one, o.asked_one_offered, o.asked_one_first, o.asked_one_options), (3, 2, 1, 9));
        assert!(
            render(&r).contains(
                "clarifiers where one option was expected: 3; it was offered in 66.7%, first in 33.3%; options offered: 3.00 on average"
            ),
            "{}",
            render(&r)
        );
        let none = report("rev".into(), vec![scored(Expect::Execute("a".into()), got("execute", "a", &[]), "exact")]);
        assert!(!render(&none).contains("clarifiers where one option"), "no line without such turns");
    }

    fn replied(mut g: Got, kind: &str) -> Got {
        g.reply = kind.into();
        g
    }

    #[test]
    fn the_turns_the_reply_rung_decided_are_counted_by_kind() {
        let ex = |id: &str| Expect::Execute(id.into());
        let r = report(
            "rev".into(),
            vec![
                scored(ex("a"), replied(got("execute", "a", &[]), "affirm"), "confirm"),
                scored(ex("a"), replied(got("execute", "a", &[]), "affirm"), "confirm"),
                scored(Expect::Clarify(vec![]), replied(got("execute", "a", &[]), "position"), "refuse"),
                scored(ex("b"), replied(got("clarify", "", &["a", "b"]), "position"), "pick"),
                scored(Expect::Escape("declined".into()), replied(got("escape", "declined", &[]), "decline"), "refuse"),
                scored(Expect::Escape("cancel".into()), replied(got("escape", "declined", &[]), "decline"), "refuse"),
                // Not read as a reply: in the categories, not in the replies.
                scored(ex("a"), got("execute", "a", &[]), "pick"),
            ],
        );
        let t = |kind: &str| {
            let t = &r.replies_by_kind[kind];
            (t.turns, t.right_executes, t.wrong_executes, t.missed_executes, t.escape_ok, t.escape_wrong)
        };
        assert_eq!(t("affirm"), (2, 2, 0, 0, 0, 0));
        assert_eq!(t("position"), (2, 0, 1, 1, 0, 0));
        assert_eq!(t("decline"), (2, 0, 0, 0, 1, 1));
        assert_eq!(r.replies_by_kind.len(), 3);
        assert_eq!((r.replies.turns, r.replies.right(), r.overall.turns), (6, 3, 7));
        let text = render(&r);
        let rows: Vec<&str> = text.lines().skip_while(|l| !l.starts_with("reply read as")).take(5).collect();
        assert_eq!(rows.len(), 5, "{text}");
        assert!(
            rows[1].starts_with("affirm ") && rows[2].starts_with("decline ") && rows[3].starts_with("position "),
            "ReplyKind::ALL order: {text}"
        );
        assert!(rows[4].starts_with("all replies") && rows[4].contains("50.0%"), "{text}");
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["replies_by_kind"]["position"]["wrong_executes"], 1);
        // A corpus nobody replied in shows no reply table.
        let r = report("rev".into(), vec![scored(ex("a"), got("execute", "a", &[]), "pick")]);
        assert!(!render(&r).contains("reply read as"));
        assert_eq!(serde_json::to_value(&r).unwrap()["replies_by_kind"], serde_json::json!({}));
    }
}
