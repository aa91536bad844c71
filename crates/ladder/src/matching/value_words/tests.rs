//! A value said another way (`value_words`), run end to end through the
//! ladder: examples that execute and that ask, and a property that tries
//! to make a value execute what a careful person would not.

use crate::policy::Policy;
use crate::testkit::{Fake, turn};
use crate::types::*;
use proptest::prelude::*;

fn request(input: &str, cands: Vec<Candidate>) -> DecideRequest {
    DecideRequest {
        session_id: "s".into(),
        turn_id: "t".into(),
        input: input.into(),
        active_scope: Some(ScopeRef { scope: Scope::Chat, instance_id: "chat".into() }),
        options: Some(OptionSet { option_set_id: "set".into(), scope: Scope::Chat, candidates: cands.into(), ..Default::default() }),
        ..Default::default()
    }
}

fn decide(input: &str, cands: &[Candidate]) -> Decision {
    turn(&Policy::defaults(), &Fake::quiet(), &request(input, cands.to_vec())).decision
}

fn executes(d: &Decision) -> Option<&str> {
    (d.outcome == Outcome::Execute).then(|| d.target_id.as_deref().unwrap_or(""))
}

fn shown(pairs: &[(&str, &str, &str)]) -> Vec<Candidate> {
    pairs.iter().map(|(id, label, sub)| Candidate { sublabel: (*sub).into(), ..Candidate::new(*id, *label) }).collect()
}

/// Each form of a value the issue names executes the option that shows
/// it; the same forms naming a value no option shows are asked.
#[test]
fn a_value_said_another_way_says_the_option_that_shows_it() {
    let dates = shown(&[("a4", "Mon 4 Aug", ""), ("a5", "Tue 5 Aug", ""), ("s4", "Thu 4 Sep", "")]);
    let days = shown(&[("w10", "Wed 10 Sep", ""), ("t9", "Tue 9 Sep", "")]);
    let slots = shown(&[("tue", "Tuesday · 10:00", ""), ("thu", "Thursday · 10:00", "")]);
    let rooms = shown(&[("r2a9", "Room 2A · 09:00-10:00", ""), ("r2a11", "Room 2A · 11:00-12:00", "")]);
    let sizes = shown(&[("s", "S", "Linen shirt"), ("m", "M", "Linen shirt"), ("l", "L", "Linen shirt"), ("xl", "XL", "Linen shirt")]);
    let meetings = shown(&[
        ("tu15", "Join: Vendor call", "Tue 11 Jun · 3:00–3:30 PM"),
        ("th14", "Join: Roadmap", "Thu 13 Jun · 2:00–3:00 PM"),
        ("th15", "Join: QBR prep", "Thu 13 Jun · 3:00–3:45 PM"),
    ]);
    let table: &[(&str, &[Candidate], Option<&str>)] = &[
        ("Aug 4th", &dates, Some("a4")),
        ("the 4th of August please", &dates, Some("a4")),
        ("wednesday", &days, Some("w10")),
        ("tues", &slots, Some("tue")),
        ("for 9", &rooms, Some("r2a9")),
        ("medium", &sizes, Some("m")),
        ("large please", &sizes, Some("l")),
        ("join Thursday's 3pm", &meetings, Some("th15")),
        ("the one on the 12th", &shown(&[("f12", "Fri 12 Sep", ""), ("m15", "Mon 15 Sep", "")]), Some("f12")),
        // A value no option shows, a day two months share, a size no
        // option is, the end of a span.
        ("Aug 6th", &dates, None),
        ("the 4th", &dates, None),
        ("friday", &days, None),
        ("for 8", &rooms, None),
        ("tiny", &sizes, None),
        ("join Thursday's 2pm", &meetings, Some("th14")),
        ("join Tuesday's 3:30", &meetings, None),
    ];
    for (input, cands, want) in table {
        let d = decide(input, cands);
        assert_eq!(executes(&d), *want, "{input:?}: {:?} {:?}", d.outcome, d.target_id);
    }
}

/// The classify step names the rule that said each value word.
#[test]
fn the_trace_names_the_value_rule_per_word() {
    let dates = shown(&[("a4", "Mon 4 Aug", ""), ("a5", "Tue 5 Aug", "")]);
    let d = decide("Aug 4th", &dates);
    let classify = d.trace.iter().find(|s| s.rung == "classify").map(|s| s.detail.clone()).unwrap_or_default();
    assert!(classify.contains("value: 2 words") && !classify.contains("aug"), "{classify}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testkit::cases(64)))]

    /// A value never executes an option it does not name: a day or a time
    /// that differs from every option's, a weekday no option shows, a
    /// negation of the option's value, two options' values, or a word no
    /// option has beside the value. The option's own value executes it
    /// (checked, so the property is not vacuous).
    #[test]
    fn a_value_executes_only_the_option_that_shows_it(
        days in prop::sample::subsequence((1u8..=28).collect::<Vec<_>>(), 3),
        month in prop::sample::select(vec![("Aug", "August"), ("Sep", "September"), ("May", "May"), ("Jul", "July")]),
        pick in 0usize..3,
        other in 1u8..=28,
        form in prop::sample::select(vec!["{m} {d}{s}", "the {d}{s} of {M}", "{M} {d}", "on {m} {d}{s} please"]),
        spoiler in 0usize..4,
    ) {
        let (short, long) = month;
        let weekdays = ["Mon", "Tue", "Wed"];
        let cands: Vec<Candidate> = days
            .iter()
            .enumerate()
            .map(|(i, d)| Candidate::new(format!("d{i}"), format!("{} {d} {short} · 10:00", weekdays[i])))
            .collect();
        let suffix = |d: u8| match d % 10 {
            1 if d != 11 => "st",
            2 if d != 12 => "nd",
            3 if d != 13 => "rd",
            _ => "th",
        };
        let say = |d: u8| form.replace("{m}", short).replace("{M}", long).replace("{d}", &d.to_string()).replace("{s}", suffix(d));
        let mine = say(days[pick]);
        let d = decide(&mine, &cands);
        let want = format!("d{pick}");
        prop_assert_eq!(executes(&d), Some(want.as_str()), "{:?} over {:?}", mine, cands.iter().map(|c| &c.label).collect::<Vec<_>>());
        let tried = match spoiler {
            // A day no option shows.
            0 if !days.contains(&other) => say(other),
            0 => format!("not {mine}"),
            // A negation.
            1 => format!("not {mine}"),
            // Two options' values.
            2 => format!("{mine} or {}", say(days[(pick + 1) % 3])),
            // A word no option has.
            _ => format!("{mine} for grandma"),
        };
        let d = decide(&tried, &cands);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} executed {:?}", tried, d.target_id);
        // Another month's same day is not it.
        let other_month = if short == "Aug" { "Sep" } else { "Aug" };
        let d = decide(&format!("{other_month} {}{}", days[pick], suffix(days[pick])), &cands);
        prop_assert_ne!(d.outcome, Outcome::Execute, "another month executed {:?}", d.target_id);
    }

    /// A high-risk option is never executed by its value alone: its label
    /// whole, nothing else.
    #[test]
    fn a_value_never_executes_a_high_risk_option(day in 1u8..=28, form in prop::sample::select(vec!["Aug {d}", "the {d}th of August"])) {
        let cands = vec![
            Candidate { risk: Risk::High, ..Candidate::new("x", format!("Cancel booking · Mon {day} Aug")) },
            Candidate::new("y", format!("Keep booking · Tue {} Aug", day % 28 + 1)),
        ];
        let d = decide(&form.replace("{d}", &day.to_string()), &cands);
        prop_assert_ne!(executes(&d), Some("x"));
    }
}
