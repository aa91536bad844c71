use super::super::tests::{executes, find_on, labelled, panels};
use super::*;
use crate::types::Candidate;

#[test]
fn explicit_badge_wins_over_derived() {
    let mut c = vec![Candidate::new("x", "Revenue chart")];
    c[0].badge = "R".into();
    let (_, ids) = find_on("chart r", &c, &[]);
    assert_eq!(ids, ["x:badge"]);
}

#[test]
fn a_badge_after_another_word_needs_that_word_in_its_label() {
    let (_, ids) = find_on("sales d", &panels(), &[]);
    assert!(ids.is_empty(), "{ids:?}");
}

#[test]
fn a_number_a_label_contains_is_that_label_word_not_a_position() {
    let shoes = labelled(&["Running Shoe 42", "Running Shoe 43", "Running Shoe 44"]);
    let (m, ids) = find_on("44", &shoes, &[]);
    assert_eq!(ids, ["c2:badge"]);
    assert!(!m.reading.out_of_range);
    let (m, ids) = find_on("the 43", &shoes, &[]);
    assert_eq!((ids, m.reading.out_of_range), (vec!["c1:badge".to_string()], false));
}

#[test]
fn ordinal_table() {
    let lex = Lexicon::shipped();
    let table = [
        ("first", Some(1)),
        ("second one", Some(2)),
        ("3rd option", Some(3)),
        ("25th", Some(25)),
        ("21st", Some(21)),
        ("22th", None),
        ("number 4", Some(4)),
        ("option two", Some(2)),
        ("two", None),
        ("last one", Some(-1)),
        ("second to last", Some(-2)),
        ("2nd to last", Some(-2)),
        ("3rd from the end", Some(-3)),
        ("middle", Some(0)),
        ("0", None),
        ("second panel", None),
        ("12345", None),
    ];
    for (input, want) in table {
        assert_eq!(parse_ordinal(input, &lex), want, "input {input:?}");
    }
}

/// A number or ordinal that is a quantity or a date
/// never chooses a position.
#[test]
fn a_quantity_or_a_date_is_no_position() {
    let cands = labelled(&["Reserve: Sino", "Reserve: Aatxe", "Reserve: Golden Wok"]);
    for input in [
        "1 ticket",
        "i just want 1 tickets",
        "2 people",
        "on the 1st",
        "the 3rd of march",
        "march 2nd",
        "a second card",
        "actually i would like to visit on the 1st",
    ] {
        let (m, _) = find_on(input, &cands, &[]);
        assert!(!m.hits.iter().any(|h| h.kind == MatchKind::Ordinal), "{input:?}: {:?}", m.hits);
    }
    for (input, n) in [("the 2nd one", 1), ("number 2", 1), ("2", 1), ("the first one", 0), ("option 3", 2)] {
        let (m, _) = find_on(input, &cands, &[]);
        assert!(m.hits.iter().any(|h| h.kind == MatchKind::Ordinal && h.entry == n), "{input:?}: {:?}", m.hits);
    }
}

#[test]
fn a_value_is_no_position() {
    for (raw, want) in [
        ("roll out 2.7", vec!["2", "7"]),
        ("open invoice 3.2", vec!["3", "2"]),
        ("pay $2.50", vec!["2", "50"]),
        ("pay 2,50 €", vec!["2", "50"]),
        ("v2 please", vec!["2"]),
        ("20 EUR", vec!["20"]),
        ("50% off", vec!["50"]),
        ("1,500 points", vec!["1", "500"]),
        ("the 2nd one", vec![]),
        ("option 2", vec![]),
        ("rev2", vec![]),
        ("2. yes", vec![]),
        ("2é", vec![]),
        ("2€", vec!["2"]),
        ("2 usdt", vec![]),
        ("gmt+2", vec!["2"]),
        ("utc-3", vec!["3"]),
        ("+44", vec!["44"]),
        ("-3", vec!["3"]),
        ("UTC+01:00", vec!["01", "00"]),
        ("covid-19", vec!["19"]),
        ("2-3", vec![]),
        ("2024-05-01", vec![]),
        ("the 2nd - the 3rd", vec![]),
        ("thurs at 3", vec!["3"]),
        ("um 7 bitte", vec!["7"]),
        ("savings •••• at 4", vec!["4"]),
        ("cat 3", vec![]),
    ] {
        assert_eq!(value_digits(raw), want, "{raw:?}");
    }
    // "at 3" is a time: never the third option, which shows another.
    let slots = labelled(&["Wed 15:00", "Thu 15:00", "Thu 17:00"]);
    assert_ne!(executes("thurs at 3", &slots).as_deref(), Some("c2"));
    let cands = labelled(&["Roll out to EU", "Roll out to US", "Roll back"]);
    for input in ["roll out 2.7", "roll out v2", "the $2 one", "3.1", "option 2.5", "#2.1"] {
        let (m, _) = find_on(input, &cands, &[]);
        assert!(!m.hits.iter().any(|h| matches!(h.kind, MatchKind::Ordinal | MatchKind::Badge)), "{input:?}: {:?}", m.hits);
    }
}

/// A number with a decimal point, a version or a
/// currency is a value, never a position, and a value two options share
/// tells nothing apart. Over generated screens of 2 to 60 options whose
/// labels say no number, and inputs that hold such a number (alone, after
/// a verb, with a list noun), nothing executes; the same inputs without
/// the value's mark ("the 2nd one") do execute the option at that place
/// (counted, so the property is not vacuous). And two options that show
/// the same value are never told apart by it.
#[test]
fn a_decimal_a_version_or_a_price_never_chooses_a_position() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    use std::cell::Cell;
    const WORDS: &[&str] = &["alpha", "bravo", "delta", "echo", "kilo", "lima", "oscar", "romeo", "sierra", "tango"];
    let strategy = (
        2usize..=60,
        1u32..=9,
        0u32..=99,
        prop::sample::select(vec!["{n}.{m}", "v{n}", "v{n}.{m}", "${n}", "${n}.{m}", "{n}.{m} €", "{n} eur", "{n}%"]),
        prop::sample::select(vec!["", "open ", "pick ", "the "]),
        prop::sample::select(vec!["", " one", " please"]),
    );
    let (tried, plain) = (Cell::new(0), Cell::new(0));
    let mut runner = TestRunner::new(Config { cases: crate::testkit::cases(128), ..Config::default() });
    runner
        .run(&strategy, |(len, n, m, form, lead, tail)| {
            let labels: Vec<String> =
                (0..len).map(|k| format!("{} {}", WORDS[k % WORDS.len()], WORDS[(k / WORDS.len()) % WORDS.len()])).collect();
            let cands: Vec<Candidate> = labels.iter().enumerate().map(|(k, l)| Candidate::new(format!("c{k}"), l.as_str())).collect();
            let value = form.replace("{n}", &n.to_string()).replace("{m}", &m.to_string());
            let input = format!("{lead}{value}{tail}");
            tried.set(tried.get() + 1);
            prop_assert_eq!(executes(&input, &cands), None, "{:?} chose a position of {}", input, len);
            if (n as usize) <= len && executes(&format!("{lead}{}{tail}", ordinal_word(n)), &cands) == Some(format!("c{}", n - 1)) {
                plain.set(plain.get() + 1);
            }
            // A value two options show tells them apart by nothing.
            let shared = vec![
                Candidate::new("a", format!("Pay {value} now")),
                Candidate::new("b", format!("Pay {value} later")),
                Candidate::new("c", "Settings"),
            ];
            prop_assert_eq!(executes(&format!("pay {value}"), &shared), None, "pay {:?}", value);
            Ok(())
        })
        .unwrap();
    assert!(plain.get() * 3 >= tried.get(), "the plain position executed {} of {}", plain.get(), tried.get());
}

fn ordinal_word(n: u32) -> String {
    let suffix = match n {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// An ordinal that opens a label ("21st Century
/// Breakdown") and names another option's place ("the 21st one") is read
/// both ways: both are offered, neither executes. Said whole, the label
/// executes; where the ordinal's place is the label's own, it executes.
#[test]
fn an_ordinal_that_opens_a_label_is_read_both_ways() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    let strategy = (22usize..=40, 0usize..20, prop::sample::select(vec!["the 21st one", "play the 21st one", "21st", "the 21st"]));
    let mut runner = TestRunner::new(Config { cases: crate::testkit::cases(64), ..Config::default() });
    runner
        .run(&strategy, |(len, at, input)| {
            let mut cands: Vec<Candidate> = (0..len).map(|k| Candidate::new(format!("c{k}"), format!("Album {}", k + 1))).collect();
            cands[at] = Candidate::new(format!("c{at}"), "21st Century Breakdown");
            let req = super::super::tests::request(input, &cands);
            let d = crate::testkit::turn(crate::testkit::policy(), &crate::testkit::Fake::quiet(), &req).decision;
            prop_assert_eq!(d.outcome, crate::types::Outcome::Clarify, "{:?} with the label at {}", input, at + 1);
            let offered = d.clarifier.map(|c| c.option_ids).unwrap_or_default();
            prop_assert!(offered.contains(&format!("c{at}")) && offered.contains(&"c20".to_string()), "{:?} offered {:?}", input, offered);
            prop_assert_eq!(executes("21st century breakdown", &cands), Some(format!("c{at}")));
            Ok(())
        })
        .unwrap();
    let mut cands: Vec<Candidate> = (0..25).map(|k| Candidate::new(format!("c{k}"), format!("Album {}", k + 1))).collect();
    cands[20] = Candidate::new("c20", "21st Century Breakdown");
    assert_eq!(executes("the 21st one", &cands).as_deref(), Some("c20"));
}

fn zones() -> Vec<Candidate> {
    labelled(&["(GMT-08:00) Pacific Time", "(GMT+00:00) London", "(GMT+01:00) Paris", "(GMT+02:00) Athens", "(GMT-03:00) Sao Paulo"])
}

/// "gmt+2" is no position (never the second zone of the list): a number
/// with a sign is a value: it names the option that shows it with that sign,
/// asks among several that do, and names nothing else.
#[test]
fn a_signed_number_names_the_option_that_shows_it() {
    let zones = zones();
    assert_eq!(executes("gmt+2", &zones).as_deref(), Some("c3"));
    assert_eq!(executes("-3", &zones).as_deref(), Some("c4"));
    assert_eq!(executes("gmt+1", &zones).as_deref(), Some("c2"));
    assert_eq!(executes("gmt+3", &zones), None, "no option shows +3");
    assert_eq!(executes("+1", &labelled(&["Room 1", "Room 2", "Room 3"])), None);
    let two = labelled(&["Berlin (UTC+1)", "Paris (UTC+1)", "Athens (UTC+2)", "Sao Paulo (UTC-3)"]);
    assert_eq!(executes("utc+1", &two), None, "two options show +1");
    assert_eq!(executes("utc+3", &two), None, "only -3 is shown");
    assert_eq!(executes("utc-3", &two).as_deref(), Some("c3"));
    // The zone's other code says the same offset ("utc-3" for "GMT-3"),
    // never a position, and never an offset no option shows.
    let gmt = labelled(&["GMT+1 · Paris", "GMT+0 · London", "GMT-3 · São Paulo", "GMT+2 · Cairo"]);
    assert_eq!(executes("utc-3", &gmt).as_deref(), Some("c2"));
    assert_eq!(executes("UTC+2", &gmt).as_deref(), Some("c3"));
    assert_eq!(executes("utc-2", &gmt), None);
    assert_eq!(executes("utc+1", &labelled(&["London", "Paris", "Cairo"])), None);
    // A label said whole but for its sign is not the option showing the
    // other sign ("transpose +2" beside "Transpose -2").
    let keys = labelled(&["Transpose -2", "Transpose -1", "Original key", "Transpose +1", "Transpose +2"]);
    assert_eq!(executes("transpose +2", &keys).as_deref(), Some("c4"));
    assert_eq!(executes("transpose -1", &keys).as_deref(), Some("c1"));
    assert_eq!(executes("transpose +3", &keys), None);
}

/// Signed numbers, offsets and codes never choose a position.
/// Over generated screens of 2 to 12 options, each a zone showing an
/// offset (in one of three forms) or a city alone, and inputs that say a
/// number with a sign ("+2", "utc-3", "GMT+05:00", "set it to gmt -4"),
/// on a plain screen, the app's "which one?" and ladderd's: an execute
/// targets an option that shows that very value with that sign, and only
/// when no other option shows it too (or the input's code, "utc", tells it
/// from the others, or it is the only one of those ladderd offered). Counted: executes of the one option
/// that shows it, questions among several, and the same place said as a
/// position ("the 2nd one"), which executes the option there.
#[test]
fn a_signed_number_an_offset_or_a_code_never_chooses_a_position() {
    use crate::testkit::{Branches, Session, check_cases};
    use crate::types::{Asked, OptionSet, Outcome, Scope};
    use proptest::prelude::*;
    const CITIES: &[&str] = &["Lisbon", "Madrid", "Rome", "Cairo", "Dubai", "Delhi", "Tokyo", "Lima", "Quito", "Oslo", "Kyiv", "Perth"];
    let branches = Branches::default();
    let zone = (prop::option::weighted(0.8, -6i32..=6), 0u8..3);
    let cases = (
        prop::collection::vec(zone, 2..=12),
        -6i32..=6,
        prop::sample::select(vec![
            "{s}{n}",
            "utc{s}{n}",
            "gmt{s}{n}",
            "GMT{s}0{n}:00",
            "set it to gmt {s}{n}",
            "the utc{s}{n} one",
            "{s}{n} please",
        ]),
        0u8..3,
    );
    check_cases(crate::testkit::cases(128), file!(), &cases, |(zones, said, form, setting)| {
        let label = |k: usize, (offset, style): (Option<i32>, u8)| match offset {
            None => format!("{} time", CITIES[k]),
            Some(o) => {
                let sign = if o < 0 { '-' } else { '+' };
                match style {
                    0 => format!("(GMT{sign}{:02}:00) {} time", o.abs(), CITIES[k]),
                    1 => format!("{} time (UTC{sign}{})", CITIES[k], o.abs()),
                    _ => format!("{} time, UTC{sign}{}", CITIES[k], o.abs()),
                }
            }
        };
        let cands: Vec<Candidate> = zones.iter().enumerate().map(|(k, z)| Candidate::new(format!("c{k}"), label(k, *z))).collect();
        let sign = if said < 0 { "-" } else { "+" };
        let input = form.replace("{s}", sign).replace("{n}", &said.abs().to_string());
        let showing: Vec<String> = zones.iter().enumerate().filter(|(_, z)| z.0 == Some(said)).map(|(k, _)| format!("c{k}")).collect();
        let set = OptionSet { option_set_id: "zones".into(), scope: Scope::Chat, candidates: cands.clone().into(), ..Default::default() };
        let s = Session::new();
        let mut offered = Vec::new();
        let set = match setting {
            0 => set,
            1 => OptionSet { asked: Asked::Choice, ..set },
            _ => {
                // An answer to ladderd's "which one?" is read among what it
                // offered.
                offered = s.say("time", &set).clarifier.map(|c| c.option_ids).unwrap_or_default();
                set
            }
        };
        let d = s.say(&input, &set);
        if d.outcome == Outcome::Execute {
            let id = d.target_id.clone().unwrap_or_default();
            // Of several that show it, only one the input's code ("utc",
            // "gmt") tells apart.
            let code = ["utc", "gmt"].into_iter().find(|c| input.to_lowercase().contains(c));
            let told_apart: Vec<&String> = showing
                .iter()
                .filter(|c| code.is_some_and(|code| cands.iter().any(|x| x.id == **c && x.label.to_lowercase().contains(code))))
                .collect();
            let among_offered: Vec<&String> = showing.iter().filter(|c| offered.contains(c)).collect();
            prop_assert!(
                showing == [id.clone()] || told_apart == [&id] || among_offered == [&id],
                "{:?} over {:?} ({}): executed {} (showing {:?})",
                input,
                set.candidates,
                setting,
                id,
                showing
            );
            branches.hit("the one option that shows it");
        } else if showing.len() > 1 {
            branches.hit("asked among several");
        }
        let n = said.unsigned_abs() as usize;
        if (1..=cands.len()).contains(&n)
            && setting == 0
            && executes(&format!("the {} one", ordinal_word(n as u32)), &cands) == Some(format!("c{}", n - 1))
        {
            branches.hit("the place said as a position executes");
        }
        Ok(())
    });
    branches.expect(&[("the one option that shows it", 16), ("asked among several", 4), ("the place said as a position executes", 16)]);
}

/// A label that is itself a position word ("Final", "Last", "Top"), or
/// opens with one ("Final cut"), said inside a longer input ("the final
/// one", "final version", "play the last one"): the label and the position
/// name two options, and neither executes where they differ. Over
/// generated screens of 3 to 6 options, the label never at the place the
/// position names. Counted: both readings offered; the label said alone
/// executes it; and where the label stands at that place, the two
/// readings agree and it executes.
#[test]
fn a_label_that_is_a_position_word_said_with_more_is_read_both_ways() {
    use crate::testkit::{Branches, check_cases};
    use crate::types::Outcome;
    use proptest::prelude::*;
    const WORDS: &[(&str, i32)] = &[("first", 1), ("second", 2), ("last", -1), ("final", -1), ("top", 1), ("bottom", -1)];
    const OTHERS: &[&str] = &["Draft", "Archive", "Inbox", "Notes", "Outline", "Summary"];
    let branches = Branches::default();
    let cases = (
        prop::sample::select(WORDS),
        (3usize..=6).prop_flat_map(|n| (Just(n), 0..n)),
        prop::sample::select(vec!["{W}", "{W}!", "{W} cut"]),
        prop::sample::select(vec!["the {w} one", "{w} one please", "the {w} version", "play the {w} one", "{w} option"]),
    );
    check_cases(crate::testkit::cases(96), file!(), &cases, |((w, n), (len, k), form, input)| {
        let at = if n > 0 { (n - 1) as usize } else { len - n.unsigned_abs() as usize };
        let upper = format!("{}{}", w[..1].to_uppercase(), &w[1..]);
        let label = form.replace("{W}", &upper);
        let screen = |k: usize| -> Vec<Candidate> {
            (0..len).map(|i| Candidate::new(format!("c{i}"), if i == k { label.clone() } else { OTHERS[i].to_string() })).collect()
        };
        // The label never at the position's place.
        let k = if k == at { (at + 1) % len } else { k };
        let said = input.replace("{w}", w);
        let cands = screen(k);
        let req = super::super::tests::request(&said, &cands);
        let d = crate::testkit::turn(crate::testkit::policy(), &crate::testkit::Fake::quiet(), &req).decision;
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} over {:?}: {:?}", said, cands, d.target_id);
        let offered = d.clarifier.map(|c| c.option_ids).unwrap_or_default();
        if offered.contains(&format!("c{k}")) && offered.contains(&format!("c{at}")) {
            branches.hit("both offered");
        }
        if form == "{W}" && executes(w, &cands) == Some(format!("c{k}")) {
            branches.hit("the label alone executes");
        }
        if executes(&said, &screen(at)) == Some(format!("c{at}")) {
            branches.hit("the readings agree and execute");
        }
        Ok(())
    });
    branches.expect(&[("both offered", 64), ("the label alone executes", 16), ("the readings agree and execute", 48)]);
}

/// An article a label also has is no word of that label before a
/// position ("la prima" with "La prima volta" third, "le premier" with
/// "Le premier jour"): both readings are offered; the label said on
/// past the ordinal executes it.
#[test]
fn an_article_before_an_ordinal_that_a_label_says_is_read_both_ways() {
    for (labels, input, both) in [
        (["Ultimo bacio", "Estate al mare", "La prima volta"], "metti la prima", ["c0", "c2"]),
        (["Ultimo bacio", "Estate al mare", "La prima volta"], "la prima", ["c0", "c2"]),
        (["Les nuits", "Le vent", "Le premier jour"], "le premier", ["c0", "c2"]),
    ] {
        let cands = labelled(&labels);
        let req = super::super::tests::request(input, &cands);
        let d = crate::testkit::turn(crate::testkit::policy(), &crate::testkit::Fake::quiet(), &req).decision;
        assert_eq!(d.outcome, crate::types::Outcome::Clarify, "{input}");
        let offered = d.clarifier.map(|c| c.option_ids).unwrap_or_default();
        assert!(both.iter().all(|id| offered.contains(&id.to_string())), "{input}: {offered:?}");
        assert_eq!(executes(&format!("{input} {}", labels[2].split(' ').next_back().unwrap()), &cands).as_deref(), Some("c2"));
    }
}

/// A signed number no option shows with its sign says the option that
/// shows the number with a word of the sign's direction ("+2" for "Raise
/// 2 °C", "-30" for "30 min before"), and the input's other words tell
/// two such apart ("+1 day"). Never where an option showing the number
/// says no direction ("+2" over rooms), nor against the sign.
#[test]
fn a_signed_number_says_the_option_of_its_direction() {
    let heat = labelled(&["Lower 1 °C", "Lower 2 °C", "Raise 1 °C", "Raise 2 °C"]);
    assert_eq!(executes("+2", &heat).as_deref(), Some("c3"));
    assert_eq!(executes("-1 please", &heat).as_deref(), Some("c0"));
    assert_eq!(executes("+3", &heat), None, "no option shows 3");
    let reminders = labelled(&["10 min before", "30 min before", "1 day before"]);
    assert_eq!(executes("-30", &reminders).as_deref(), Some("c1"));
    assert_eq!(executes("+30", &reminders), None, "against the sign");
    let moves = labelled(&["Move 1 day earlier", "Move 1 hour later", "Move 1 day later"]);
    assert_eq!(executes("+1 day", &moves).as_deref(), Some("c2"));
    assert_eq!(executes("+1", &moves), None, "two later moves show 1");
    assert_eq!(executes("+1 week", &moves), None);
    assert_eq!(executes("+2", &labelled(&["Room 2", "Room 3"])), None);
    assert_eq!(executes("-30", &labelled(&["30 min", "30 min before"])), None, "one of them says no direction");
}

/// Over generated screens of 2 to 6 changes of one kind, each an amount
/// with a word up ("Raise", "later", "more") or down ("Lower",
/// "earlier", "less"), or with none ("Room 2"), and an input "+n" or "-n" with or without
/// "please": an execute targets an option that shows n, says a word of
/// the sign's way and none of the other, and is the only such one; and
/// never where an option showing n says no direction. Counted: executes,
/// and questions among several of the same way.
#[test]
fn a_signed_number_never_executes_against_its_sign() {
    use crate::testkit::{Branches, check_cases};
    use proptest::prelude::*;
    let branches = Branches::default();
    // (amount, way: 0 up, 1 down, 2 none), one form for the screen
    let option = (1u32..=4, 0u8..3);
    let cases = (prop::collection::vec(option, 2..=6), 0u8..3, 1u32..=4, any::<bool>(), any::<bool>());
    check_cases(crate::testkit::cases(128), file!(), &cases, |(opts, form, n, up, please)| {
        let label = |(amount, way): (u32, u8)| match (way, form) {
            (0, 0) => format!("Raise {amount} °C"),
            (0, 1) => format!("{amount} min later"),
            (0, _) => format!("Add {amount} more"),
            (1, 0) => format!("Lower {amount} °C"),
            (1, 1) => format!("{amount} min earlier"),
            (1, _) => format!("{amount} less"),
            (_, 0) => format!("Room {amount}"),
            (_, 1) => format!("{amount} guests"),
            _ => format!("Table {amount}"),
        };
        let cands: Vec<Candidate> = opts.iter().enumerate().map(|(k, o)| Candidate::new(format!("c{k}"), label(*o))).collect();
        let input = format!("{}{n}{}", if up { "+" } else { "-" }, if please { " please" } else { "" });
        let way = if up { 0 } else { 1 };
        let showing: Vec<usize> = (0..opts.len()).filter(|k| opts[*k].0 == n).collect();
        let fitting: Vec<String> = showing.iter().filter(|k| opts[**k].1 == way).map(|k| format!("c{k}")).collect();
        let undirected = showing.iter().any(|k| opts[*k].1 == 2);
        match executes(&input, &cands) {
            Some(id) => {
                prop_assert!(!undirected && fitting == [id.clone()], "{input:?} over {cands:?}: executed {id}");
                branches.hit("the one option of its way");
            }
            None if fitting.len() > 1 => branches.hit("asked among several of its way"),
            None => {}
        }
        Ok(())
    });
    branches.expect(&[("the one option of its way", 12), ("asked among several of its way", 4)]);
}

/// A label's name said whole, a position word among its words, is that
/// label, prices and times aside: "first class" over "Second class –
/// £39" and "First class – £69", "on prend la dernière séance" for
/// "Dernière séance – 22h40" listed first. Said with a word no label has,
/// or naming two labels, both readings stay asked ("the final one").
#[test]
fn a_label_name_said_whole_is_no_position() {
    let fares = labelled(&["Second class – £39", "First class – £69"]);
    let shows = labelled(&["Dernière séance – 22h40", "Séance de 20h15", "Séance de 18h30"]);
    let files = labelled(&["report_final.pdf", "report_final_v3.pdf", "notes.txt"]);
    assert_eq!(executes("first class", &fares).as_deref(), Some("c1"));
    assert_eq!(executes("the first class please", &fares).as_deref(), Some("c1"));
    assert_eq!(executes("on prend la dernière séance", &shows).as_deref(), Some("c0"));
    assert_eq!(executes("the first", &fares), None);
    assert_eq!(executes("the first one", &fares), None);
    assert_eq!(executes("the first cheap class", &fares), None);
    assert_eq!(executes("the final one", &files), None);
}

/// Over generated screens of fares "<Ordinal> class – £n" in any order
/// (never at their own place), "<ordinal> class" executes the fare whose
/// label says it and never the one at that place; "the <ordinal> one"
/// executes neither. Counted: the label executes.
#[test]
fn a_label_name_said_whole_never_executes_the_place() {
    use crate::testkit::{Branches, check_cases};
    use proptest::prelude::*;
    const WORDS: &[&str] = &["First", "Second", "Third"];
    let branches = Branches::default();
    let cases = (Just(()).prop_flat_map(|_| Just(vec![0usize, 1, 2]).prop_shuffle()), 0usize..3, 10u32..200, any::<bool>());
    check_cases(crate::testkit::cases(64), file!(), &cases, |(order, said, price, please)| {
        let cands: Vec<Candidate> = order
            .iter()
            .enumerate()
            .map(|(i, w)| Candidate::new(format!("c{i}"), format!("{} class – £{}", WORDS[*w], price + i as u32)))
            .collect();
        let own = format!("c{}", order.iter().position(|w| *w == said).unwrap());
        let input = format!("{} class{}", WORDS[said].to_lowercase(), if please { " please" } else { "" });
        let got = executes(&input, &cands);
        prop_assert!(got.is_none() || got.as_deref() == Some(own.as_str()), "{:?} over {:?}: {:?}", input, cands, got);
        if got.is_some() {
            branches.hit("the label executes");
        }
        let place = format!("c{said}");
        if place != own {
            let one = executes(&format!("the {} one", WORDS[said].to_lowercase()), &cands);
            prop_assert!(one.is_none(), "the {} one over {:?}: {:?}", WORDS[said], cands, one);
        }
        Ok(())
    });
    branches.expect(&[("the label executes", 48)]);
}

/// A number after a word of a label that gives that word a number of its
/// own is no badge: "reihe 7" is not the 7 that ends "Reihe 13, Platz 7"
/// (it executed it before).
#[test]
fn a_badge_after_a_word_with_another_number_is_none() {
    let seats = labelled(&["Reihe 7, Platz 12", "Reihe 7, Platz 13", "Reihe 13, Platz 7"]);
    assert_eq!(executes("reihe 7, platz dreizehn", &seats), None);
    assert_eq!(executes("reihe 7 platz 13", &seats), Some("c1".into()));
    assert_eq!(executes("platz 7", &seats), Some("c2".into()));
    assert_eq!(executes("links panel d", &panels()), Some("d".into()));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(crate::testkit::cases(128)))]

    /// Over generated screens of two numbered parts ("Row 7, Seat 13"),
    /// "<first part> <x>, <second part> <y>" (y in digits or words) never
    /// executes an option whose label gives the first part another
    /// number.
    #[test]
    fn a_number_said_after_a_part_is_never_another_parts_number(
        parts in proptest::sample::select(vec![("row", "seat"), ("reihe", "platz"), ("deck", "cabin"), ("gate", "stand")]),
        x in 1u32..40,
        y in 1usize..=12,
        z in 1usize..=12,
        words in proptest::bool::ANY,
    ) {
        proptest::prop_assume!(y != z && x as usize != y && x as usize != z);
        const EN: [&str; 13] = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
        const DE: [&str; 13] = ["", "eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf", "zwölf"];
        let (a, b) = parts;
        let labels = [format!("{a} {x}, {b} {y}"), format!("{a} {x}, {b} {z}"), format!("{a} {y}, {b} {x}")];
        let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
        let set = labelled(&labels);
        let y_said = if !words { y.to_string() } else if a == "reihe" { DE[y].to_string() } else { EN[y].to_string() };
        let said = format!("{a} {x}, {b} {y_said}");
        if let Some(id) = executes(&said, &set) {
            proptest::prop_assert_eq!(id, "c0", "{:?} over {:?}", said, labels);
        }
    }
}
