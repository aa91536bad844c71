//! A dialogue measured whole: whether every turn was right, the
//! wrong executes, the clarifiers that ask again what was just settled, how
//! many turns each action took, and how often a turn was answered with a
//! question.

use super::{Got, Grade};
use crate::pb;
use serde::Serialize;
use std::collections::BTreeSet;

/// One turn of a dialogue as it went: what it asked (`key`), what the
/// ladder did last (after an `Enrich` step, that one), how it scored, and
/// the choice the app recorded after it (an accepted, executed or
/// corrected choice).
#[derive(Debug, Clone)]
pub(super) struct Seen {
    /// `file:line#turn`.
    pub(super) at: String,
    pub(super) input: String,
    pub(super) key: String,
    pub(super) got: Got,
    pub(super) verdicts: Vec<Grade>,
    pub(super) choice: Option<String>,
    /// An exception set the turn aside (its expectation judged wrong): it
    /// still moves the conversation on, but counts for nothing.
    pub(super) excepted: bool,
}

/// What a request asks, for "the same request again": its input (trimmed,
/// lower case), its option set and the candidates in play.
pub(super) fn request_key(r: &pb::DecideRequest) -> String {
    let mut ids: Vec<&str> = r
        .options
        .iter()
        .flat_map(|o| &o.candidates)
        .chain(&r.recoverable_chat_options)
        .chain(&r.widget_items)
        .map(|c| c.id.as_str())
        .collect();
    ids.sort_unstable();
    let set = r.options.as_ref().map_or("", |o| o.option_set_id.as_str());
    format!("{}\u{1f}{set}\u{1f}{}", r.input.trim().to_lowercase(), ids.join(","))
}

/// What one dialogue showed.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Walked {
    turns: usize,
    right: bool,
    wrong_executes: usize,
    repeated_clarifiers: usize,
    /// Of those, on turns the corpus expects acted on.
    repeated_unexpected: usize,
    /// Where (`at`, input) each repeated clarifier was.
    repeated: Vec<(String, String)>,
    clarifier_turns: usize,
    /// For each right execute: the turns it took.
    resolution: Vec<usize>,
}

/// Walks a dialogue's turns in order.
///
/// A **repeated clarifier** is a clarifier (or `NEED_MORE_INFO`) that
/// offers the same candidates as an earlier clarifier the user then chose
/// among (an execute of one of them, or a recorded choice of one), or that
/// answers the same request (input, option set, candidates) an earlier
/// turn executed: a question already answered. Where the corpus expects
/// the question anyway (a person would ask again: the repeated request
/// was the ambiguous one, or a negation), it is counted but expected;
/// where it expects an action, it is the continuity design's failure.
///
/// **Turns to resolution**: for each right execute, the turns since the
/// dialogue began or since the previous execute or escape, this one
/// included ("which one?" then "the second" is 2).
///
/// A turn set aside by an exception is judged on nothing: it neither
/// spoils the dialogue's being right nor counts a wrong execute or a
/// repeated clarifier where an action was expected.
pub(super) fn walk(turns: &[Seen]) -> Walked {
    let mut w = Walked { turns: turns.len(), right: true, ..Walked::default() };
    let mut open: Vec<BTreeSet<&str>> = Vec::new();
    let mut chosen: Vec<BTreeSet<&str>> = Vec::new();
    let mut resolved: BTreeSet<&str> = BTreeSet::new();
    let mut since = 0;
    for t in turns {
        since += 1;
        let judged: &[Grade] = if t.excepted { &[] } else { &t.verdicts };
        w.right &= judged.iter().all(|v| matches!(v, Grade::RightExecute | Grade::ClarifyOk | Grade::EscapeOk));
        w.wrong_executes += judged.iter().filter(|v| **v == Grade::WrongExecute).count();
        let outcome = t.got.outcome.as_str();
        if matches!(outcome, "clarify" | "need_more_info") {
            w.clarifier_turns += 1;
            let offer: BTreeSet<&str> = t.got.offered.iter().map(String::as_str).collect();
            if chosen.contains(&offer) || resolved.contains(t.key.as_str()) {
                w.repeated_clarifiers += 1;
                w.repeated_unexpected += usize::from(!t.excepted && !t.verdicts.contains(&Grade::ClarifyOk));
                w.repeated.push((t.at.clone(), t.input.clone()));
            }
            open.push(offer);
        }
        let executed = (outcome == "execute").then_some(t.got.target_id.as_str());
        for choice in executed.into_iter().chain(t.choice.as_deref()) {
            let (now, still): (Vec<_>, Vec<_>) = open.drain(..).partition(|o| o.contains(choice));
            chosen.extend(now);
            open = still;
        }
        if outcome == "execute" {
            resolved.insert(t.key.as_str());
            if t.verdicts.contains(&Grade::RightExecute) {
                w.resolution.push(since);
            }
            since = 0;
        } else if outcome == "escape" {
            since = 0;
        }
    }
    w
}

/// Dialogues added up (overall, or of one category).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct DialogueTally {
    pub dialogues: usize,
    /// Every turn (and `Enrich` step) right.
    pub fully_right: usize,
    /// Dialogues with at least one wrong execute.
    pub with_wrong_execute: usize,
    pub wrong_executes: usize,
    /// Clarifiers that ask again what was just settled (see `walk`).
    pub repeated_clarifiers: usize,
    /// Of those, on turns the corpus expects acted on (an execute or an
    /// escape): where continuity should have answered. The gate.
    pub repeated_clarifiers_unexpected: usize,
    /// Where they were: (`file:line#turn`, input).
    pub repeated: Vec<(String, String)>,
    pub turns: usize,
    /// Turns answered with a clarifier or `NEED_MORE_INFO`.
    pub clarifier_turns: usize,
    /// For each right execute, the turns it took (median and p90 below).
    #[serde(skip)]
    resolution: Vec<usize>,
    pub turns_to_resolution_median: f64,
    pub turns_to_resolution_p90: f64,
}

impl DialogueTally {
    /// No dialogue was run.
    pub fn is_empty(&self) -> bool {
        self.dialogues == 0
    }

    pub(super) fn add(&mut self, w: &Walked) {
        self.dialogues += 1;
        self.fully_right += usize::from(w.right);
        self.with_wrong_execute += usize::from(w.wrong_executes > 0);
        self.wrong_executes += w.wrong_executes;
        self.repeated_clarifiers += w.repeated_clarifiers;
        self.repeated_clarifiers_unexpected += w.repeated_unexpected;
        self.repeated.extend(w.repeated.iter().cloned());
        self.turns += w.turns;
        self.clarifier_turns += w.clarifier_turns;
        self.resolution.extend(&w.resolution);
        self.resolution.sort_unstable();
        self.turns_to_resolution_median = quantile(&self.resolution, 0.5);
        self.turns_to_resolution_p90 = quantile(&self.resolution, 0.9);
    }

    /// Turns answered with a question, of all turns.
    pub fn clarifier_rate(&self) -> f64 {
        if self.turns == 0 { 0.0 } else { self.clarifier_turns as f64 / self.turns as f64 }
    }

    /// Wrong executes per dialogue.
    pub fn wrong_executes_per_dialogue(&self) -> f64 {
        if self.dialogues == 0 { 0.0 } else { self.wrong_executes as f64 / self.dialogues as f64 }
    }
}

/// The `q` quantile of sorted values (nearest rank); 0 for none.
fn quantile(sorted: &[usize], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1] as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(key: &str, outcome: &str, target: &str, offered: &[&str], verdict: Grade, choice: Option<&str>) -> Seen {
        Seen {
            at: String::new(),
            input: String::new(),
            key: key.into(),
            got: Got {
                outcome: outcome.into(),
                target_id: target.into(),
                offered: offered.iter().map(|s| s.to_string()).collect(),
                ..Got::default()
            },
            verdicts: vec![verdict],
            choice: choice.map(str::to_string),
            excepted: false,
        }
    }

    #[test]
    fn a_clarifier_over_options_already_chosen_among_is_repeated() {
        let w = walk(&[
            turn("links panel", "clarify", "", &["d", "e"], Grade::ClarifyOk, None),
            turn("the second one", "execute", "e", &[], Grade::RightExecute, None),
            turn("links panel", "clarify", "", &["d", "e"], Grade::ClarifyOk, None),
        ]);
        assert_eq!((w.repeated_clarifiers, w.clarifier_turns, w.resolution.clone()), (1, 2, vec![2]));
        assert!(w.right, "each turn was right; the repeat is counted apart");
        assert_eq!(w.repeated_unexpected, 0, "the corpus expected that question");
        let w = walk(&[
            turn("links panel", "clarify", "", &["d", "e"], Grade::ClarifyOk, None),
            turn("the second one", "execute", "e", &[], Grade::RightExecute, None),
            turn("the other one", "clarify", "", &["e", "d"], Grade::MissedExecute, None),
        ]);
        assert_eq!((w.repeated_clarifiers, w.repeated_unexpected), (1, 1));
    }

    #[test]
    fn a_recorded_pick_settles_the_clarifier_too() {
        let w = walk(&[
            turn("a", "clarify", "", &["x", "y"], Grade::ClarifyOk, Some("y")),
            turn("b", "clarify", "", &["y", "x"], Grade::ClarifyOk, None),
        ]);
        assert_eq!(w.repeated_clarifiers, 1);
        // Options not chosen among may be offered again.
        let w = walk(&[
            turn("a", "clarify", "", &["x", "y"], Grade::ClarifyOk, None),
            turn("b", "clarify", "", &["x", "y"], Grade::ClarifyOk, None),
        ]);
        assert_eq!(w.repeated_clarifiers, 0);
    }

    #[test]
    fn the_same_request_again_after_it_executed_must_not_be_asked() {
        let w = walk(&[
            turn("open d|set|d,e", "execute", "d", &[], Grade::RightExecute, None),
            turn("open d|set|d,e", "clarify", "", &["d"], Grade::ClarifyOk, None),
            turn("open d|set2|d,f", "clarify", "", &["d"], Grade::ClarifyOk, None),
        ]);
        assert_eq!(w.repeated_clarifiers, 1, "on another option set it is another request");
    }

    #[test]
    fn turns_to_resolution_count_from_the_last_action() {
        let w = walk(&[
            turn("x", "escape", "", &[], Grade::EscapeOk, None),
            turn("a", "clarify", "", &["p", "q"], Grade::ClarifyOk, None),
            turn("b", "clarify", "", &["p", "q"], Grade::ClarifyOk, None),
            turn("c", "execute", "p", &[], Grade::RightExecute, None),
            turn("d", "execute", "q", &[], Grade::WrongExecute, None),
        ]);
        assert_eq!((w.resolution.clone(), w.wrong_executes, w.right), (vec![3], 1, false));
        let mut t = DialogueTally::default();
        t.add(&w);
        t.add(&walk(&[turn("e", "execute", "p", &[], Grade::RightExecute, None)]));
        assert_eq!((t.turns_to_resolution_median, t.turns_to_resolution_p90, t.with_wrong_execute), (1.0, 3.0, 1));
        assert_eq!(t.clarifier_rate(), 2.0 / 6.0);
    }

    #[test]
    fn a_turn_set_aside_is_judged_on_nothing_but_still_moves_the_dialogue_on() {
        let set_aside = |mut t: Seen| {
            t.excepted = true;
            t
        };
        let turns = [
            turn("kitchen light on", "execute", "kitchen", &[], Grade::RightExecute, None),
            set_aside(turn("no not that one", "clarify", "", &["island"], Grade::MissedExecute, None)),
            turn("the island one", "execute", "island", &[], Grade::RightExecute, None),
        ];
        let w = walk(&turns);
        assert!(w.right, "the set-aside miss does not spoil the dialogue");
        assert_eq!(w.resolution, vec![1, 2], "it still counts as a turn towards the next action");
        let w = walk(&[
            turn("links panel", "clarify", "", &["d", "e"], Grade::ClarifyOk, None),
            turn("the second one", "execute", "e", &[], Grade::RightExecute, None),
            set_aside(turn("the other one", "execute", "e", &[], Grade::WrongExecute, None)),
            set_aside(turn("links panel", "clarify", "", &["d", "e"], Grade::MissedExecute, None)),
        ]);
        assert_eq!((w.right, w.wrong_executes), (true, 0));
        assert_eq!((w.repeated_clarifiers, w.repeated_unexpected), (1, 0), "counted as asked again, not as continuity's failure");
    }
}
