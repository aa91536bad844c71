//! The report as a person reads it: a table by category (and by the kind
//! of reply, and of dialogues), the figures' lines under it, then the turns
//! set aside and the turns that were not right. `--json` needs none of it.

use super::dialogues::DialogueTally;
use super::report::{Report, Tally, ratio};
use super::score::Got;

/// The report as a table, then the turns that were not right.
pub fn render(r: &Report) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "evaluated {} turns under config revision {}\n", r.overall.turns, r.config_revision);
    let header = |s: &mut String, first: &str| {
        let _ = writeln!(
            s,
            "{:<22} {:>5} {:>6} {:>6} {:>6} {:>8} {:>8} {:>6} {:>6} {:>6} {:>9}",
            first, "turns", "exec+", "exec-", "missed", "clarify", "offered", "esc+", "esc~", "esc-", "accuracy"
        );
    };
    header(&mut s, "category");
    let row = |s: &mut String, name: &str, t: &Tally| {
        let _ = writeln!(
            s,
            "{:<22} {:>5} {:>6} {:>6} {:>6} {:>8} {:>8} {:>6} {:>6} {:>6} {:>8.1}%",
            name,
            t.turns,
            t.right_executes,
            t.wrong_executes,
            t.missed_executes,
            t.clarify_ok,
            t.clarify_offered,
            t.escape_ok,
            t.escape_wrong,
            t.escape_missed + t.clarify_missed,
            100.0 * t.accuracy()
        );
    };
    for (name, t) in &r.by_category {
        row(&mut s, name, t);
    }
    row(&mut s, "overall", &r.overall);
    let sh = &r.shares;
    let _ = writeln!(
        s,
        "\nclear requests executed: {:.1}% of {}; ambiguous turns clarified: {:.1}% of {}; escapes right: {:.1}% of {}",
        100.0 * sh.clear_executed,
        sh.expected_execute,
        100.0 * sh.ambiguous_clarified,
        sh.expected_clarify,
        100.0 * sh.escapes_right,
        sh.expected_escape
    );
    let _ = writeln!(s, "wrong executes: {}", r.overall.wrong_executes);
    let o = &r.overall;
    let _ = writeln!(s, "high-risk executes: {} ({} wrong)", o.high_risk_executes, o.high_risk_wrong);
    if o.asked_one > 0 {
        let _ = writeln!(
            s,
            "clarifiers where one option was expected: {}; it was offered in {:.1}%, first in {:.1}%; options offered: {:.2} on average",
            o.asked_one,
            100.0 * ratio(o.asked_one_offered, o.asked_one),
            100.0 * ratio(o.asked_one_first, o.asked_one),
            ratio(o.asked_one_options, o.asked_one)
        );
    }
    if o.questions > 0 {
        questions(&mut s, r);
    }
    if o.follow_up_questions + o.follow_up_requests + o.follow_up_expected > 0 {
        let _ = writeln!(
            s,
            "executes with a follow-up: {} question, {} request; expected {}, right {}",
            o.follow_up_questions, o.follow_up_requests, o.follow_up_expected, o.follow_up_right
        );
    }
    if r.replies.turns > 0 {
        // The order of `ReplyKind::ALL`: affirm, decline, cancel, repair, then the
        // answers to "which one?" and repetition.
        let order = |k: &str| ladder::replies::ReplyKind::ALL.iter().position(|x| x.as_str() == k).unwrap_or(usize::MAX);
        let mut kinds: Vec<_> = r.replies_by_kind.iter().collect();
        kinds.sort_by_key(|(k, _)| (order(k), k.as_str()));
        let _ = writeln!(s);
        header(&mut s, "reply read as");
        for (kind, t) in kinds {
            row(&mut s, kind, t);
        }
        row(&mut s, "all replies", &r.replies);
    }
    if r.dialogues.dialogues > 0 {
        let _ = writeln!(
            s,
            "\n{:<22} {:>9} {:>11} {:>10} {:>10} {:>9} {:>12} {:>15}",
            "dialogues", "dialogues", "fully right", "wrong exec", "repeated", "clarify %", "turns p50", "turns p90"
        );
        let row = |s: &mut String, name: &str, t: &DialogueTally| {
            let _ = writeln!(
                s,
                "{:<22} {:>9} {:>11} {:>10} {:>10} {:>8.1}% {:>12} {:>15}",
                name,
                t.dialogues,
                t.fully_right,
                t.wrong_executes,
                t.repeated_clarifiers,
                100.0 * t.clarifier_rate(),
                t.turns_to_resolution_median,
                t.turns_to_resolution_p90
            );
        };
        for (name, t) in &r.dialogues_by_category {
            row(&mut s, name, t);
        }
        row(&mut s, "overall", &r.dialogues);
        let d = &r.dialogues;
        let _ = writeln!(
            s,
            "\ndialogues fully right: {} of {}; wrong executes per dialogue: {:.2}; repeated clarifiers: {} ({} where an action was expected); clarifier rate per turn: {:.1}%; turns to resolution: median {}, p90 {}",
            d.fully_right,
            d.dialogues,
            d.wrong_executes_per_dialogue(),
            d.repeated_clarifiers,
            d.repeated_clarifiers_unexpected,
            100.0 * d.clarifier_rate(),
            d.turns_to_resolution_median,
            d.turns_to_resolution_p90
        );
        for (at, input) in &d.repeated {
            let _ = writeln!(s, "  repeated clarifier {at} {input:?}");
        }
    }
    let l = &r.llm;
    if l.reached > 0 {
        let verdicts = l.by_verdict.iter().map(|(v, n)| format!("{v} {n}")).collect::<Vec<_>>().join(", ");
        let _ = writeln!(s, "\nLLM rung: reached by {} turns, the provider asked on {} ({verdicts})", l.reached, l.called);
        let _ = writeln!(
            s,
            "  picks: {}; executed {} ({} right, {} wrong); not corroborated {}; kept to a clarifier by the gates {}",
            l.picked, l.executed, l.executed_right, l.executed_wrong, l.not_corroborated, l.kept_to_clarifier
        );
    }
    if l.refused > 0 {
        let _ = writeln!(
            s,
            "refused by the principle (a named candidate the input does not account for): {} turns; the LLM picked the expected one on {}, executed it on {}",
            l.refused, l.refused_picked_right, l.refused_resolved
        );
    }
    if r.overall.invalid > 0 {
        let _ = writeln!(s, "invalid lines (refused at the edge): {}", r.overall.invalid);
    }
    let got = |g: &Got| match g.outcome.as_str() {
        "execute" => format!("execute {}", g.target_id),
        "escape" => format!("escape {}", g.escape_reason),
        "invalid" => format!("invalid: {}", g.detail),
        o => format!("{o} {:?} ({})", g.offered, g.detail),
    };
    if !r.set_aside.is_empty() {
        let _ = writeln!(s, "\nset aside, the expectation judged wrong (counted nowhere above): {}", r.set_aside.len());
        for a in &r.set_aside {
            let f = &a.turn;
            let _ = writeln!(s, "  {} {} [{}] {:?}: expected {:?}, got {}", f.id, f.at, f.category, f.input, f.expect, got(&f.got));
            let _ = writeln!(s, "    because {}", a.reason);
        }
    }
    if !r.failures.is_empty() {
        let _ = writeln!(s, "\nnot right:");
        for f in &r.failures {
            let expected_follow_up =
                if f.expect_follow_up.is_empty() { String::new() } else { format!(" with a {} follow-up", f.expect_follow_up) };
            let got_follow_up = if f.got.follow_up.is_empty() { String::new() } else { format!(" with a {} follow-up", f.got.follow_up) };
            let _ = writeln!(
                s,
                "  {:?} {} [{}] {:?}: expected {:?}{expected_follow_up}, got {}{got_follow_up}",
                f.verdict,
                f.at,
                f.category,
                f.input,
                f.expect,
                got(&f.got)
            );
        }
    }
    s
}

/// The questions escaped, by category: how many, the share whose
/// `about` names a candidate, and of those that expected one option, the
/// share whose `about` holds it.
fn questions(s: &mut String, r: &Report) {
    use std::fmt::Write;
    let _ = writeln!(s, "\n{:<22} {:>9} {:>9} {:>13} {:>13}", "questions", "escaped", "about", "one expected", "it in about");
    let row = |s: &mut String, name: &str, t: &Tally| {
        let _ = writeln!(
            s,
            "{:<22} {:>9} {:>8.1}% {:>13} {:>12.1}%",
            name,
            t.questions,
            100.0 * ratio(t.questions_about, t.questions),
            t.questions_one,
            100.0 * ratio(t.questions_one_about, t.questions_one)
        );
    };
    for (name, t) in r.by_category.iter().filter(|(_, t)| t.questions > 0) {
        row(s, name, t);
    }
    row(s, "overall", &r.overall);
}
