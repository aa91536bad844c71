//! A value said another way (`value_words`), run end to end through the
//! ladder: examples that execute and that ask, and a property that tries
//! to make a value execute what a careful person would not.

use crate::matching::tests::{decides_as, executed, labelled, request};
use crate::policy::Policy;
use crate::testkit::{Fake, turn};
use crate::types::*;
use proptest::prelude::*;

fn decide(input: &str, cands: &[Candidate]) -> Decision {
    turn(&Policy::defaults(), &Fake::quiet(), &request(input, cands)).decision
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
    let tables = shown(&[("t2", "Table for 2", "Fri 7:00 PM"), ("t4", "Table for 4", "Fri 7:00 PM")]);
    let booked = shown(&[
        ("r4b10", "Book Room 4B · Today 10:00–11:00", "6 seats · screen"),
        ("r4b1030", "Book Room 4B · Today 10:30–11:30", "6 seats · screen"),
        ("r6a10", "Book Room 6A · Today 10:00–11:00", "12 seats · VC"),
    ]);
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
        // A size said in two words is its form written as one.
        ("extra large please", &sizes, Some("xl")),
        ("extra small", &shown(&[("xs", "XS", ""), ("s", "S", ""), ("m", "M", "")]), Some("xs")),
        ("extra grande", &sizes, Some("xl")),
        ("join Thursday's 3pm", &meetings, Some("th15")),
        ("the one on the 12th", &shown(&[("f12", "Fri 12 Sep", ""), ("m15", "Mon 15 Sep", "")]), Some("f12")),
        // "10" is a piece of "10:30", no word of that option.
        ("book room 4B for 10", &booked, Some("r4b10")),
        ("book room 4B for 10:30", &booked, Some("r4b1030")),
        ("book room 4B for 9", &booked, None),
        // A party's size said as a count of people, in any language.
        ("4 people", &tables, Some("t4")),
        ("a table for four people please", &tables, Some("t4")),
        ("quattro persone", &tables, Some("t4")),
        ("pour deux personnes", &tables, Some("t2")),
        ("3 people", &tables, None),
        ("4 people", &shown(&[("r2", "Room 2", ""), ("r4", "Room 4", "")]), None),
        // A value no option shows, a day two months share, a size no
        // option is, the end of a span.
        ("Aug 6th", &dates, None),
        ("the 4th", &dates, None),
        ("friday", &days, None),
        ("for 8", &rooms, None),
        ("tiny", &sizes, None),
        ("join Thursday's 2pm", &meetings, Some("th14")),
        // Inside a span, not its start ("Tuesday's", a weekday with its
        // "'s", is Tuesday: the one Tuesday option).
        ("join Thursday's 3:30", &meetings, None),
        ("join Tuesday's call", &meetings, Some("tu15")),
    ];
    decides_as(table);
}

/// More forms of a value beyond the first rule: a seat or a room with
/// its noun, a day of the month alone (in digits or words) past the end
/// of the list, a time with its part of the day, "ish", or its minutes, an
/// amount with its unit word, "Sept". Each asks where the value differs.
#[test]
fn more_forms_of_a_value_say_the_option_that_shows_it() {
    let seats = shown(&[("7c", "7C · aisle", ""), ("7a", "7A · window", ""), ("8c", "8C · aisle", "")]);
    let days = shown(&[("w10", "Wed 10 Sep", ""), ("t9", "Tue 9 Sep", ""), ("f12", "Fri 12 Sep", "")]);
    let times =
        shown(&[("t1830", "18:30", ""), ("t1200", "12:00", ""), ("t0900", "09:00", ""), ("t0930", "09:30", ""), ("t1400", "14:00", "")]);
    let prices = shown(&[("p20", "$20", ""), ("p35", "$35", ""), ("p50", "$50", "")]);
    let months = shown(&[("sep", "Fri 12 Sep", ""), ("oct", "Sun 12 Oct", "")]);
    let mid = shown(&[("f12", "Fri 12 Sep", ""), ("m15", "Mon 15 Sep", "")]);
    let table: &[(&str, &[Candidate], Option<&str>)] = &[
        ("seat 7C", &seats, Some("7c")),
        ("the 12th", &days, Some("f12")),
        ("the twelfth", &days, Some("f12")),
        ("noon", &times, Some("t1200")),
        ("9ish", &times, Some("t0900")),
        ("9 in the morning", &times, Some("t0900")),
        ("the 9:30 one", &times, Some("t0930")),
        ("6:30 pm", &times, Some("t1830")),
        ("six thirty", &times, Some("t1830")),
        ("2 pm", &times, Some("t1400")),
        ("20 bucks", &prices, Some("p20")),
        ("twenty dollars", &prices, Some("p20")),
        ("Sept 12", &months, Some("sep")),
        ("12 sept", &months, Some("sep")),
        ("weds", &days, Some("w10")),
        ("half past six", &times, Some("t1830")),
        ("half six", &times, Some("t1830")),
        ("half past nine", &times, Some("t0930")),
        ("the fifteenth", &mid, Some("m15")),
        // Values no option shows, or that two show.
        ("half past seven", &times, None),
        ("the sixteenth", &mid, None),
        ("seat 9F", &seats, None),
        ("the 14th", &days, None),
        ("the fourteenth", &days, None),
        ("10 in the morning", &times, None),
        ("6:30 am", &times, None),
        ("21 bucks", &prices, None),
        ("the 12th", &months, None),
        ("Oct 13", &months, None),
    ];
    decides_as(table);
}

/// The classify step names the rule that said each value word.
/// A part of the day says the one option whose time is in it ("the
/// evening one" between 07:45 and 19:45); two in it, or none, are asked;
/// a label that says the word ("Morning Yoga") shows no time, and is read
/// by its words.
#[test]
fn a_part_of_the_day_says_the_option_whose_time_is_in_it() {
    let trains = shown(&[("m", "07:45 → Munich Hbf", "ICE · 2h 05m"), ("e", "19:45 → Munich Hbf", "ICE · 2h 05m")]);
    for (input, want) in [("the evening one", Some("e")), ("the morning one", Some("m")), ("abends", Some("e")), ("le soir", Some("e"))] {
        assert_eq!(executed(&decide(input, &trains)), want, "{input}");
    }
    assert_eq!(executed(&decide("the afternoon one", &trains)), None, "in neither");
    let slots = shown(&[("a", "Sat 18:00", ""), ("b", "Sat 19:30", ""), ("c", "Sun 10:00", "")]);
    assert_eq!(executed(&decide("the evening one", &slots)), None, "two in the evening");
    assert_eq!(executed(&decide("sunday morning", &slots)), Some("c"));
    let workouts = shown(&[("y", "Morning Yoga", "20 min"), ("s", "Evening Stretch", "10 min")]);
    assert_eq!(executed(&decide("morning yoga", &workouts)), Some("y"));
}

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
        prop_assert_eq!(executed(&d), Some(want.as_str()), "{:?} over {:?}", mine, cands.iter().map(|c| &c.label).collect::<Vec<_>>());
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
        prop_assert_ne!(executed(&d), Some("x"));
    }
}

/// A value an option shows, and how a person may say it: the generator
/// of the property below.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Date,
    Weekday,
    Time,
    Price,
    Size,
    Seat,
}

const WEEKDAYS: [(&str, &str, &str); 7] = [
    ("Mon", "monday", "monday's"),
    ("Tue", "tuesday", "tues"),
    ("Wed", "wednesday", "weds"),
    ("Thu", "thursday", "thurs"),
    ("Fri", "friday", "fri"),
    ("Sat", "saturday", "sat"),
    ("Sun", "sunday", "sun"),
];
const MONTHS: [(&str, &str, &str); 4] =
    [("Aug", "August", "aug"), ("Sep", "September", "sept"), ("May", "May", "may"), ("Jul", "July", "jul")];
/// Days of the month in words, from the thirteenth on (the positions'
/// words end at "twelfth").
const DAY_WORDS: [&str; 30] = [
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
    "twenty-first",
    "twenty-second",
    "twenty-third",
    "twenty-fourth",
    "twenty-fifth",
    "twenty-sixth",
    "twenty-seventh",
    "twenty-eighth",
    "twenty-ninth",
];
const HOURS: [&str; 12] = ["twelve", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven"];
const PRICES: [(u32, &str); 10] = [
    (5, "five"),
    (10, "ten"),
    (12, "twelve"),
    (15, "fifteen"),
    (20, "twenty"),
    (30, "thirty"),
    (40, "forty"),
    (50, "fifty"),
    (60, "sixty"),
    (75, ""),
];
const SIZES: [(&str, &str); 5] = [("XS", "extra small"), ("S", "small"), ("M", "medium"), ("L", "large"), ("XL", "extra large")];

fn ordinal_suffix(d: u32) -> &'static str {
    match d % 10 {
        1 if d % 100 != 11 => "st",
        2 if d % 100 != 12 => "nd",
        3 if d % 100 != 13 => "rd",
        _ => "th",
    }
}

/// The label an option shows for value `v` of `kind` (`v` indexes the
/// kind's values: a day, a weekday, an hour-and-minute, a price, a size,
/// a seat).
fn label(kind: Kind, v: u32, month: usize) -> String {
    match kind {
        Kind::Date => format!("{} {v} {}", WEEKDAYS[(v % 7) as usize].0, MONTHS[month].0),
        Kind::Weekday => format!("{} {} Sep", WEEKDAYS[v as usize].0, v + 8),
        Kind::Time => format!("{:02}:{:02}", v / 4, (v % 4) * 15),
        Kind::Price => format!("${}", PRICES[v as usize].0),
        Kind::Size => SIZES[v as usize].0.to_string(),
        Kind::Seat => format!(
            "{}{} · {}",
            v / 6 + 4,
            ["A", "B", "C", "D", "E", "F"][(v % 6) as usize],
            ["window", "middle", "aisle"][(v % 3) as usize]
        ),
    }
}

/// Ways to say value `v` of `kind` (form `f`, modulo how many there
/// are); `None` where the value has no such form (a price with no word).
fn say(kind: Kind, v: u32, month: usize, f: usize) -> Option<String> {
    let forms: Vec<String> = match kind {
        Kind::Date => {
            let (short, long, other) = MONTHS[month];
            let s = ordinal_suffix(v);
            vec![
                format!("{short} {v}{s}"),
                format!("{long} {v}"),
                format!("the {v}{s} of {long}"),
                format!("{v} {other}"),
                format!("{other} {v}"),
                format!("the {v}{s}"),
                format!("the {v}{s} please"),
                // A day past the positions, in words ("the fifteenth").
                match DAY_WORDS.get(v as usize) {
                    Some(w) if v >= 13 => format!("the {w}"),
                    _ => format!("the {v}{s}"),
                },
            ]
        }
        Kind::Weekday => {
            let (_, long, other) = WEEKDAYS[v as usize];
            vec![long.to_string(), other.to_string(), format!("{long} please"), format!("the {long} one")]
        }
        Kind::Time => {
            let (h, m) = (v / 4, (v % 4) * 15);
            let (h12, pm) = (if h % 12 == 0 { 12 } else { h % 12 }, h >= 12);
            let mer = if pm { "pm" } else { "am" };
            let mut forms = vec![format!("{h12}:{m:02} {mer}"), format!("at {h:02}:{m:02}"), format!("the {h12}:{m:02}{mer} one")];
            if m == 0 {
                let part = if pm { "in the evening" } else { "in the morning" };
                forms.extend([
                    format!("{h12}{mer}"),
                    format!("{h12} {part}"),
                    format!("{h12}ish"),
                    format!("{} {mer}", HOURS[(h % 12) as usize]),
                ]);
            }
            let word = HOURS[(h % 12) as usize];
            match m {
                30 => forms.extend([
                    format!("{word} thirty"),
                    format!("half past {word}"),
                    format!("half {word}"),
                    format!("half past {h12}"),
                ]),
                15 => forms.push(format!("quarter past {word}")),
                45 => forms.push(format!("quarter to {}", HOURS[((h + 1) % 12) as usize])),
                _ => {}
            }
            forms
        }
        Kind::Price => {
            let (n, word) = PRICES[v as usize];
            let mut forms = vec![format!("{n} bucks"), format!("{n} dollars"), format!("${n}"), format!("the ${n} one")];
            if !word.is_empty() {
                forms.push(format!("{word} dollars"));
            }
            forms
        }
        Kind::Size => {
            let word = SIZES[v as usize].1;
            if word.is_empty() {
                return None;
            }
            // The same size as Portuguese, Dutch and Italian screens say it.
            let other: &[&str] = match v {
                0 => &["extraklein"],
                1 => &["tamanho pequeno", "klein", "piccola"],
                2 => &["tamanho médio", "middel", "taglia media"],
                3 => &["grande", "groot", "taglia grande"],
                _ => &["extragrande"],
            };
            [word.to_string(), format!("a {word} please"), format!("{word} one")]
                .into_iter()
                .chain(other.iter().map(|w| w.to_string()))
                .collect()
        }
        Kind::Seat => {
            let seat = format!("{}{}", v / 6 + 4, ["A", "B", "C", "D", "E", "F"][(v % 6) as usize]);
            vec![format!("seat {seat}"), format!("{} please", seat.to_lowercase()), format!("seat {} please", seat.to_lowercase())]
        }
    };
    Some(forms[f % forms.len()].clone())
}

/// How many values a kind has, and which may stand on one screen
/// together: times on a twelve-hour clock a form without am or pm could
/// not tell apart are never both shown.
fn kind_values(kind: Kind) -> u32 {
    match kind {
        Kind::Date => 25,
        Kind::Weekday => 7,
        Kind::Time => 24 * 4,
        Kind::Price => PRICES.len() as u32,
        Kind::Size => SIZES.len() as u32,
        Kind::Seat => 60,
    }
}

fn apart(kind: Kind, a: u32, b: u32) -> bool {
    match kind {
        Kind::Time => (a / 4) % 12 != (b / 4) % 12,
        _ => a != b,
    }
}

fn value_of(kind: Kind, seed: u32) -> u32 {
    match kind {
        // Days past any position on the screen ("the 5th" over four).
        Kind::Date => 5 + seed % (kind_values(kind) - 1),
        // Times from 1 am to 11 pm.
        Kind::Time => 4 + seed % (23 * 4),
        _ => seed % kind_values(kind),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testkit::cases(96)))]

    /// Generated screens of dates, weekdays, times, prices, sizes and
    /// seats: an option's own value, in any form the generator knows,
    /// executes it; the same form of a value no option shows never
    /// executes; and where two options show the value, it is asked.
    #[test]
    fn any_form_of_an_options_value_chooses_it_and_no_other_value_does(
        kind in prop::sample::select(vec![Kind::Date, Kind::Weekday, Kind::Time, Kind::Price, Kind::Size, Kind::Seat]),
        seeds in prop::collection::vec(0u32..1000, 6),
        month in 0usize..4,
        pick in 0usize..3,
        form in 0usize..16,
    ) {
        // Three values apart, and a fourth apart from them all.
        let mut vals: Vec<u32> = Vec::new();
        for s in &seeds {
            let v = value_of(kind, *s);
            if vals.iter().all(|w| apart(kind, *w, v)) {
                vals.push(v);
            }
        }
        prop_assume!(vals.len() >= 4);
        let (shown_vals, unshown) = (&vals[..3], vals[3]);
        let cands: Vec<Candidate> =
            shown_vals.iter().enumerate().map(|(i, v)| Candidate::new(format!("o{i}"), label(kind, *v, month))).collect();
        let labels: Vec<&str> = cands.iter().map(|c| c.label.as_str()).collect();
        let Some(mine) = say(kind, shown_vals[pick], month, form) else { return Ok(()) };
        let d = decide(&mine, &cands);
        let want = format!("o{pick}");
        prop_assert_eq!(executed(&d), Some(want.as_str()), "{:?} over {:?}", mine, labels);
        if let Some(other) = say(kind, unshown, month, form) {
            let d = decide(&other, &cands);
            prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} over {:?} executed {:?}", other, labels, d.target_id);
        }
        // A second option that shows the same value: asked.
        let mut twice = cands.clone();
        twice.push(Candidate { sublabel: "Second listing".into(), ..Candidate::new("again", label(kind, shown_vals[pick], month)) });
        let d = decide(&mine, &twice);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} over two of {:?} executed {:?}", mine, cands[pick].label, d.target_id);
    }
}

/// A quantity with a noun names the option of that noun (rule
/// `quantity`): "3 kids" the Kid fare, "two adults" the Adult ticket,
/// "2 large" the large pizza, never the bundle around them; counts of
/// two nouns are asked unless one option shows exactly them.
#[test]
fn a_quantity_names_the_option_of_its_noun() {
    let fares = shown(&[("kid", "Kid", ""), ("adult", "Adult", ""), ("grp", "Group (3 kids + 1 adult)", "")]);
    let pizzas = shown(&[("s", "Small pizza", ""), ("l", "Large pizza", ""), ("combo", "Combo (2 large pizzas + drinks)", "")]);
    let tickets = shown(&[("t1", "1 ticket", ""), ("t2", "2 tickets", ""), ("t3", "3 tickets", "")]);
    let groceries = shown(&[
        ("avo", "Avocado", "€1.20 each"),
        ("kit", "Guacamole kit: 3 avocados, lime, chili", "€4.99"),
        ("lime", "Lime", "€0.40 each"),
    ]);
    let masks =
        shown(&[("one", "Surgical mask", "€0.50 each"), ("box", "Surgical masks – box of 50", "€19.90"), ("gel", "Hand gel 500 ml", "")]);
    let table: &[(&str, &[Candidate], Option<&str>)] = &[
        ("3 kids", &fares, Some("kid")),
        ("two adults please", &fares, Some("adult")),
        ("4 large pizzas", &pizzas, Some("l")),
        ("3 tickets", &tickets, Some("t3")),
        // Two nouns no option shows exactly, a noun no option names, the
        // bundle's count without its noun.
        ("2 adults and 3 kids", &fares, None),
        ("3 seniors", &fares, None),
        // The bundle's count without its noun: the option that is that
        // word, never the bundle that says more.
        ("2 large", &pizzas, Some("l")),
        ("5 tickets", &tickets, None),
        // A bundle that shows exactly the count among other things: the
        // noun's own option, where there is one.
        ("3 avocados", &groceries, Some("avo")),
        ("plus 2 limes", &groceries, Some("lime")),
        // A bundle without a count: the noun alone is still what is said.
        (
            "2 croissants",
            &shown(&[("cr", "Croissant", "€1.80"), ("box", "Box of 6 croissants", ""), ("kit", "Coffee + croissant", "")]),
            Some("cr"),
        ),
        ("dos croissants", &shown(&[("cr", "Croissant", ""), ("kit", "Café con leche + croissant", "")]), Some("cr")),
        // The noun counted in pieces is that noun's option, never the
        // bundle that shows the same count among other things.
        (
            "10 eier bitte",
            &shown(&[("e6", "Eier, 6 Stück", ""), ("e10", "Eier, 10 Stück", ""), ("kit", "Frühstücksbox: 10 Eier, Speck, Toast", "")]),
            Some("e10"),
        ),
        (
            "6 eggs",
            &shown(&[("e6", "Eggs, 6 pcs", ""), ("e10", "Eggs, 10 pcs", ""), ("kit", "Breakfast box: 6 eggs, bacon, toast", "")]),
            Some("e6"),
        ),
        // A bundle that adds a thing with a plus and no number says one
        // of it: "2 pizzas margherita" is never the menu with a drink.
        (
            "2 pizzas margherita",
            &shown(&[
                ("pm", "Pizza margherita", "€6.50"),
                ("menu", "Menu 2 pizzas margherita + drink", "€14.90"),
                ("pd", "Pizza diavola", ""),
            ]),
            Some("pm"),
        ),
        // A pack of another number is not the noun's option where one
        // shows no number; the pack of that very number is.
        ("10 masks", &masks, Some("one")),
        (
            "dez máscaras",
            &shown(&[("one", "Máscara cirúrgica", "0,50 € / unidade"), ("box", "Máscaras cirúrgicas – caixa de 50", "19,90 €")]),
            Some("one"),
        ),
        ("50 masks", &masks, Some("box")),
        ("masks", &masks, None),
        // A word that only looks like the noun's singular ("ros", "Ross").
        ("12 ros ave", &shown(&[("rose", "12 Rose Ave", ""), ("ross", "12 Ross Ave", ""), ("birch", "8 Birch Rd", "")]), None),
        // The option of the noun that shows the very count said, alone and
        // in no list, before the noun's single and the packs of other
        // numbers; a count the label puts on another word ("2 adult
        // seats") is still of the noun.
        (
            "8 rolls",
            &shown(&[("r4", "Rolls (4 pack)", ""), ("r8", "Rolls (8 pack)", ""), ("kit", "Breakfast kit: 8 rolls, jam, butter", "")]),
            Some("r8"),
        ),
        (
            "two seats",
            &shown(&[("s1", "1 adult seat", ""), ("s2", "2 adult seats", ""), ("combo", "Combo: 2 seats + popcorn", "")]),
            Some("s2"),
        ),
        // No option shows the count but in a list that says more: the
        // noun's single, which the count says how many of.
        ("three seats", &shown(&[("s1", "1 adult seat", ""), ("s2", "2 adult seats", ""), ("combo", "3 seats & popcorn", "")]), Some("s1")),
        ("3 seats", &shown(&[("s2", "2 adult seats", ""), ("combo", "3 seats & popcorn", "")]), None),
        // Plurals of the lexicon's other languages: the noun's single.
        (
            "quattro arancini",
            &shown(&[("ar", "Arancino al ragù", ""), ("tm", "Tiramisù", ""), ("mix", "Fritti misti (4 pezzi)", "")]),
            Some("ar"),
        ),
        (
            "due piadine",
            &shown(&[("pi", "Piadina romagnola", ""), ("cr", "Crescione", ""), ("menu", "Menù: 2 piadine + bibita", "")]),
            Some("pi"),
        ),
        ("twee pannenkoeken", &shown(&[("pk", "Pannenkoek naturel", ""), ("pf", "Poffertjes (12 stuks)", "")]), Some("pk")),
        ("dos panes", &shown(&[("pan", "Pan de molde", ""), ("bol", "Bollería variada (2 piezas)", "")]), Some("pan")),
        (
            "3 pizze margherita",
            &shown(&[("one", "Pizza margherita", ""), ("two", "2 pizze margherita", ""), ("menu", "Menù: 3 pizze + 3 bibite", "")]),
            Some("one"),
        ),
    ];
    for (input, cands, want) in table {
        let d = decide(input, cands);
        assert_eq!(executed(&d), *want, "{input:?}: {:?} {:?}", d.outcome, d.target_id);
        assert!(!matches!(executed(&d), Some("grp" | "combo" | "kit" | "menu")), "{input:?} executed a bundle");
        if *input != "50 masks" {
            assert_ne!(executed(&d), Some("box"), "{input:?} executed a pack of another number");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testkit::cases(96)))]

    /// A quantity never executes what a person would not: over generated
    /// screens of single items of several nouns and bundles that show
    /// counts of them, "N nouns" in any form executes the one item of
    /// that noun or a bundle that shows exactly that count, never a
    /// bundle that says more, never a high-risk item, never with a second
    /// noun's count or a negation beside it. Counted: the item executes.
    #[test]
    fn a_quantity_executes_only_the_option_of_its_noun(
        nouns in prop::sample::subsequence(vec![("kid", "kids"), ("adult", "adults"), ("senior", "seniors"), ("student", "students"), ("dog", "dogs")], 3),
        n in 1u32..=6,
        m in 1u32..=6,
        items in prop::sample::subsequence(vec![0usize, 1, 2], 1..=3),
        bundle in prop::sample::select(vec!["Group ({a} {A} + {b} {B})", "Family pass: {a} {A}, {b} {B}", "{a} {A} & {b} {B} bundle", "Menu {a} {A} + {B}"]),
        form in prop::sample::select(vec!["{n} {N}", "{n} {N} please", "i need {n} {N}", "{n} {N}, thanks", "{n} {N} pls"]),
        item_form in prop::sample::select(vec!["{X}", "{X} ticket", "{X} fare"]),
        high in any::<bool>(),
        spoiler in 0usize..3,
    ) {
        let plural = |k: u32, noun: (&str, &str)| if k == 1 { noun.0.to_string() } else { noun.1.to_string() };
        let capital = |w: &str| w[..1].to_uppercase() + &w[1..];
        let mut cands: Vec<Candidate> = items
            .iter()
            .map(|i| {
                let risk = if high && *i == 0 { Risk::High } else { Risk::Unspecified };
                Candidate { risk, ..Candidate::new(format!("i{i}"), item_form.replace("{X}", &capital(nouns[*i].0))) }
            })
            .collect();
        let label = bundle.replace("{a}", &n.to_string()).replace("{A}", &plural(n, nouns[0])).replace("{b}", &m.to_string()).replace("{B}", &plural(m, nouns[1]));
        cands.push(Candidate::new("bundle", label));
        let said = form.replace("{n}", &n.to_string()).replace("{N}", &plural(n, nouns[0]));
        let d = decide(&said, &cands);
        let labels: Vec<&str> = cands.iter().map(|c| c.label.as_str()).collect();
        prop_assert_ne!(executed(&d), Some("bundle"), "{:?} over {:?}", said, labels);
        if high && items.contains(&0) {
            prop_assert_ne!(executed(&d), Some("i0"), "high risk: {:?} over {:?}", said, labels);
        } else if items.contains(&0) {
            prop_assert_eq!(executed(&d), Some("i0"), "{:?} over {:?}", said, labels);
        } else {
            prop_assert_eq!(executed(&d), None, "{:?} over {:?}", said, labels);
        }
        let tried = match spoiler {
            0 => format!("{said} and {m} {}", plural(m, nouns[2])),
            1 => format!("not {said}"),
            _ => format!("{said} or {m} {}", plural(m, nouns[2])),
        };
        let d = decide(&tried, &cands);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} executed {:?} over {:?}", tried, d.target_id, labels);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testkit::cases(96)))]

    /// Over generated screens of an item, packs of it of other sizes and
    /// another item, "N <items>" never executes a pack whose number is
    /// not N; where the item alone is on screen it executes the item or
    /// the pack of exactly N. Counted: the item alone executes.
    #[test]
    fn a_quantity_never_executes_a_pack_of_another_number(
        noun in prop::sample::select(vec![("mask", "masks"), ("bottle", "bottles"), ("battery", "batteries"), ("candle", "candles")]),
        packs in prop::collection::btree_set(2u32..=60, 1..=3),
        n in 1u32..=60,
        alone in any::<bool>(),
        form in prop::sample::select(vec!["{X} – box of {p}", "{X}, pack of {p}", "{X} ({p} pcs)", "Box of {p} {Y}"]),
    ) {
        let capital = |w: &str| w[..1].to_uppercase() + &w[1..];
        let mut cands: Vec<Candidate> = packs
            .iter()
            .map(|p| Candidate::new(format!("p{p}"), form.replace("{X}", &capital(noun.1)).replace("{Y}", noun.1).replace("{p}", &p.to_string())))
            .collect();
        if alone {
            cands.push(Candidate::new("item", capital(noun.0)));
        }
        cands.push(Candidate::new("other", "Gift card"));
        let said = format!("{n} {}", if n == 1 { noun.0 } else { noun.1 });
        let d = decide(&said, &cands);
        let labels: Vec<&str> = cands.iter().map(|c| c.label.as_str()).collect();
        if let Some(id) = executed(&d) {
            prop_assert!(id == "item" || id == format!("p{n}"), "{:?} over {:?}: executed {}", said, labels, id);
        }
        if alone && !packs.contains(&n) {
            prop_assert_eq!(executed(&d), Some("item"), "{:?} over {:?}", said, labels);
        }
    }
}

/// The noun a count said is a label's word, its singular, or its
/// singular in the lexicon's other languages; a word that only looks
/// like one is not.
#[test]
fn a_counted_noun_is_its_singular_in_the_lexicons_languages() {
    use crate::matching::value_words::same_noun;
    for (said, word) in [
        ("egg", "eggs"),
        ("egg", "egg"),
        ("cannoli", "cannolo"),
        ("cani", "cane"),
        ("margherite", "margherita"),
        ("volwassenen", "volwassene"),
        ("boeken", "boek"),
        ("panes", "pan"),
        ("brezeln", "brezel"),
    ] {
        assert!(same_noun(said, word), "{said} {word}");
    }
    for (said, word) in [("ros", "rose"), ("ream", "reams5"), ("pi", "po"), ("ai", "ao"), ("seat", "set")] {
        assert!(!same_noun(said, word), "{said} {word}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testkit::cases(96)))]

    /// Over generated screens of packs of a noun, its single ("1 x",
    /// a count of one) or none, and a bundle that lists the noun's count
    /// among other things, "N nouns" executes the pack of exactly N,
    /// else the single, never the bundle, never a pack of another number,
    /// never a high-risk option. Counted: the pack of N executes.
    #[test]
    fn a_count_executes_the_pack_of_that_count_or_the_single(
        noun in prop::sample::select(vec![("roll", "rolls"), ("candle", "candles"), ("battery", "batteries"), ("egg", "eggs")]),
        packs in prop::collection::btree_set(2u32..=24, 1..=3),
        n in 2u32..=24,
        single in any::<bool>(),
        high in any::<bool>(),
        form in prop::sample::select(vec!["{X} ({p} pack)", "{p} {Y}", "{X}, box of {p}"]),
        bundle in prop::sample::select(vec!["Starter kit: {n} {Y}, charger", "{n} {Y} + gift bag", "{X} & holder ({n} {Y})"]),
        said_form in prop::sample::select(vec!["{n} {Y}", "{n} {Y} please", "i need {n} {Y}"]),
    ) {
        let capital = |w: &str| w[..1].to_uppercase() + &w[1..];
        let mut cands: Vec<Candidate> = packs
            .iter()
            .map(|p| {
                let risk = if high && *p == n { Risk::High } else { Risk::Unspecified };
                Candidate { risk, ..Candidate::new(format!("p{p}"), form.replace("{X}", &capital(noun.1)).replace("{Y}", noun.1).replace("{p}", &p.to_string())) }
            })
            .collect();
        if single {
            cands.push(Candidate::new("one", format!("1 {}", noun.0)));
        }
        cands.push(Candidate::new("bundle", bundle.replace("{X}", &capital(noun.1)).replace("{Y}", noun.1).replace("{n}", &n.to_string())));
        let said = said_form.replace("{n}", &n.to_string()).replace("{Y}", noun.1);
        let d = decide(&said, &cands);
        let labels: Vec<&str> = cands.iter().map(|c| c.label.as_str()).collect();
        prop_assert_ne!(executed(&d), Some("bundle"), "{:?} over {:?}", said, labels);
        if let Some(id) = executed(&d) {
            prop_assert!(id == "one" || id == format!("p{n}"), "{:?} over {:?}: executed {}", said, labels, id);
            prop_assert!(!(high && id == format!("p{n}")), "high risk: {:?} over {:?}", said, labels);
        }
        let pack = format!("p{n}");
        if packs.contains(&n) && !high {
            prop_assert_eq!(executed(&d), Some(pack.as_str()), "{:?} over {:?}", said, labels);
        }
    }
}

/// After a value noun, a code of digits and letters is the code the
/// options show as it is said: "seat 4E" over 4B, 4A, 4C executed 4A
/// ("4e" and "4a" both read as the 4th), and "seat 4A" over 4A, 4B, 4E
/// was asked between 4A and 4E. A number alone after the noun is still
/// a value.
#[test]
fn a_code_after_a_value_noun_is_the_code_as_said() {
    let seats =
        |labels: &[&str]| -> Vec<Candidate> { labels.iter().enumerate().map(|(i, l)| Candidate::new(format!("o{i}"), *l)).collect() };
    let d = decide("seat 4E", &seats(&["4B · middle", "4A · window", "4C · aisle"]));
    assert_ne!(d.outcome, Outcome::Execute, "executed {:?}", d.target_id);
    for (said, want) in [("seat 4A", "o0"), ("seat 4E", "o2"), ("row 4b", "o1")] {
        assert_eq!(executed(&decide(said, &seats(&["4A · window", "4B · middle", "4E · middle"]))), Some(want), "{said}");
    }
    assert_eq!(executed(&decide("row 14", &seats(&["Row 12", "Row 14", "Row 16"]))), Some("o1"));
    // A number in words after the noun is its value ("row fourteen").
    let window = seats(&["14A · window", "22F · window"]);
    assert_eq!(executed(&decide("row fourteen", &window)), Some("o0"));
    assert_eq!(executed(&decide("row twenty-two", &window)), Some("o1"));
    assert_eq!(executed(&decide("row sixteen", &window)), None);
    // Without the noun too (found by the value property): "8a" is the 8A
    // the options show, not the 8th that "8a" and "8E" may both spell.
    for (said, want) in [("8a please", "o0"), ("8E", "o1"), ("the 4a", "o2")] {
        assert_eq!(executed(&decide(said, &seats(&["8A · window", "8E · middle", "4A · window"]))), Some(want), "{said}");
    }
    // A noun another label says ("exit row") is still the value's noun:
    // "aisle, row 14" is 14C, never the exit row.
    let cabin = seats(&["12A · Window", "12B · Middle", "14C · Aisle", "21F · Window · exit row"]);
    assert_eq!(executed(&decide("aisle, row 14", &cabin)), Some("o2"));
    assert_eq!(executed(&decide("row 14", &cabin)), Some("o2"));
    assert_ne!(executed(&decide("exit row 14", &cabin)), Some("o3"));
    // Where no option shows the code as said, its value reading stands:
    // "4e" over 4A and 4B names no code, and is never 4A executed.
    assert_ne!(executed(&decide("4e", &seats(&["4A · window", "4B · middle"]))), Some("o0"));
}

/// A value that a plain option and a bundle share ("2 tb" for "2 TB –
/// $9.99/mo" beside "2 TB + VPN + 5 family seats – $14.99/mo") says the
/// plain one; where both say more than the input, or two are plain,
/// it is asked. A size word over sizes that share a word ("Maat M") is
/// that size; "roaming stuff" is Roaming.
#[test]
fn a_value_says_the_plain_option_not_the_bundle() {
    let plans =
        shown(&[("one", "1 TB – $1.99/mo", ""), ("two", "2 TB – $9.99/mo", ""), ("family", "2 TB + VPN + 5 family seats – $14.99/mo", "")]);
    let extend = shown(&[("h", "Extend 1 hour – $4", ""), ("wash", "Extend 1 hour + car wash – $9", ""), ("end", "End parking now", "")]);
    let bundles = shown(&[("vpn", "2 TB + VPN", ""), ("family", "2 TB + family seats", "")]);
    let sizes = shown(&[("s", "Maat S", ""), ("m", "Maat M", ""), ("l", "Maat L", ""), ("xl", "Maat XL", "")]);
    let menu = shown(&[("plan", "My plan", ""), ("billing", "Billing", ""), ("roaming", "Roaming", ""), ("support", "Support", "")]);
    let table: &[(&str, &[Candidate], Option<&str>)] = &[
        ("2 tb", &plans, Some("two")),
        ("2 tb is plenty", &plans, Some("two")),
        ("extend 1 hour", &extend, Some("h")),
        ("2 tb", &bundles, None),
        ("medium", &sizes, Some("m")),
        ("medium graag", &sizes, Some("m")),
        ("medium", &shown(&[("s", "Size S", ""), ("m", "Size M", ""), ("p", "Large pizza", "")]), None),
        ("roaming stuff", &menu, Some("roaming")),
        // Sizes with their numbers ("M (38–40)").
        ("medium please", &shown(&[("s", "S (36)", ""), ("m", "M (38–40)", ""), ("l", "L (42–44)", ""), ("xl", "XL (46)", "")]), Some("m")),
        // A half of the day said alone before a noun of the list.
        ("the am one", &shown(&[("b", "Tomorrow 9:00 AM", ""), ("c", "Tomorrow 2:00 PM", "")]), Some("b")),
        ("the pm one", &shown(&[("b", "Tomorrow 9:00 AM", ""), ("c", "Tomorrow 2:00 PM", "")]), Some("c")),
        ("the am one", &shown(&[("a", "Mon 9:00", ""), ("b", "Mon 14:00", ""), ("c", "Tue 8:00", "")]), None),
    ];
    decides_as(table);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testkit::cases(64)))]

    /// Over generated screens of a plan of one size and bundles of the
    /// same size that add things, "<size>" never executes a bundle, and
    /// executes the plain plan where there is one; a thing of a bundle
    /// said beside it never executes the plain plan.
    #[test]
    fn a_value_never_executes_a_bundle_that_says_more(
        tb in 1u32..=9,
        extras in prop::sample::subsequence(vec!["VPN", "5 family seats", "Backup", "Photos", "Priority support"], 1..=3),
        plain in any::<bool>(),
        price in 1u32..50,
    ) {
        let mut cands: Vec<Candidate> = extras
            .iter()
            .enumerate()
            .map(|(i, x)| Candidate::new(format!("b{i}"), format!("{tb} TB + {x} – ${}.99/mo", price + i as u32 + 1)))
            .collect();
        if plain {
            cands.push(Candidate::new("plain", format!("{tb} TB – ${price}.99/mo")));
        }
        cands.push(Candidate::new("other", format!("{} TB – $0.99/mo", tb + 10)));
        let labels: Vec<&str> = cands.iter().map(|c| c.label.as_str()).collect();
        let got = executed(&decide(&format!("{tb} tb"), &cands)).map(str::to_string);
        if plain {
            prop_assert_eq!(got.as_deref(), Some("plain"), "{:?}", labels);
        } else {
            prop_assert!(got.as_deref().is_none_or(|g| !g.starts_with('b')) || extras.len() == 1, "{:?}: {:?}", labels, got);
        }
        let with = executed(&decide(&format!("{tb} tb with {}", extras[0].to_lowercase()), &cands)).map(str::to_string);
        prop_assert_ne!(with.as_deref(), Some("plain"), "{:?}", labels);
    }
}

/// Sizes as Portuguese, Italian and Dutch screens show and say them
/// ("tamanho médio" for "M" among P, M, G and GG); Dutch lengths of time
/// said small ("twee uurtjes", "een half uurtje", "een halfuur"). Never
/// another size, nor another length.
#[test]
fn sizes_and_small_hours_in_more_languages() {
    let pt = shown(&[("p", "P", ""), ("m", "M", ""), ("g", "G", ""), ("gg", "GG", "")]);
    let shirts = shown(&[("p", "Camiseta básica · P", ""), ("m", "Camiseta básica · M", ""), ("g", "Camiseta básica · G", "")]);
    let parking = shown(&[("h1", "1 uur (€ 2,40)", ""), ("h2", "2 uur (€ 4,80)", ""), ("day", "Hele dag (€ 12,00)", "")]);
    let short = shown(&[("m30", "30 min", ""), ("h1", "1 uur", ""), ("h2", "2 uur", "")]);
    let table: &[(&str, &[Candidate], Option<&str>)] = &[
        ("tamanho médio", &pt, Some("m")),
        ("o grande", &pt, Some("g")),
        ("tamanho médio", &shirts, Some("m")),
        ("twee uurtjes graag", &parking, Some("h2")),
        ("een uurtje", &parking, Some("h1")),
        ("een half uurtje", &short, Some("m30")),
        ("een halfuur", &short, Some("m30")),
        ("drie uurtjes", &parking, None),
        ("tamanho pequeno", &shirts, Some("p")),
        ("tamanho extra grande", &shirts, None),
    ];
    decides_as(table);
}

/// A seat code said as one ("F8", "7c") where options show its letter
/// and number apart ("Fila F · asiento 8", "Row 7 · Seat C"): the option
/// that shows both. A letter or number no option shows with the other
/// ("h7", "G7") names nothing, on a plain screen and in answer to "which
/// one?".
#[test]
fn a_code_said_as_one_names_the_option_that_shows_its_parts() {
    let seats = shown(&[("f7", "Fila F · asiento 7", ""), ("f8", "Fila F · asiento 8", ""), ("g8", "Fila G · asiento 8", "")]);
    let table: &[(&str, &[Candidate], Option<&str>)] = &[
        ("la F8", &seats, Some("f8")),
        ("g8 please", &seats, Some("g8")),
        ("h7", &seats, None),
        ("la G7", &seats, None),
        ("f9", &seats, None),
    ];
    decides_as(table);
}

/// One or half of a unit said with its article ("a litre", "half a
/// kilo") names the option that shows that amount, in any unit of its
/// kind; an amount no option shows names nothing.
#[test]
fn one_or_half_of_a_unit_names_the_option_of_that_amount() {
    let drinks = labelled(&["250 ml", "500 ml", "1 L"]);
    let bags = labelled(&["500 g", "1 kg", "2 kg"]);
    let small = labelled(&["250 ml", "330 ml"]);
    let table: &[(&str, &[Candidate], Option<&str>)] = &[
        ("a litre", &drinks, Some("c2")),
        ("half a litre please", &drinks, Some("c1")),
        ("a kilo", &bags, Some("c1")),
        ("half a kilo", &bags, Some("c0")),
        ("a litre", &small, None),
        ("half a litre", &small, None),
    ];
    decides_as(table);
}

/// A part of today said without "today" ("tonight", "this evening", "ce
/// soir", "vanavond") names the option whose label says today, within
/// that part of the day; never one of another day, nor one whose time is
/// in another part, nor anything where an option shows no day.
#[test]
fn a_part_of_today_names_the_option_of_today() {
    let five = labelled(&["Today 5 PM", "Tomorrow 5 PM"]);
    let three = labelled(&["Today 9 AM", "Today 5 PM", "Tomorrow 5 PM"]);
    let fr = labelled(&["Aujourd'hui 19h", "Demain 19h"]);
    let nl = labelled(&["Vandaag 19:00", "Morgen 19:00"]);
    let eleven = labelled(&["Today 11 AM", "Tomorrow 11 AM"]);
    let late = labelled(&["Today 9 AM", "Tomorrow 8 PM"]);
    let dated = labelled(&["Fri 10:00", "Sat 10:00"]);
    let table: &[(&str, &[Candidate], Option<&str>)] = &[
        ("tonight", &five, Some("c0")),
        ("tonight please", &five, Some("c0")),
        ("this evening", &three, Some("c1")),
        ("this morning", &three, Some("c0")),
        ("ce soir", &fr, Some("c0")),
        ("vanavond graag", &nl, Some("c0")),
        ("this afternoon", &eleven, None),
        ("tonight", &late, None),
        ("this morning", &dated, None),
        ("tonight or tomorrow", &five, None),
    ];
    decides_as(table);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testkit::cases(64)))]

    /// Over generated seat maps ("Row B · Seat 4"), a code said as one
    /// executes the option that shows its letter and its number, or
    /// nothing; one whose letter or number no option shows with the other
    /// never executes, on a plain screen or after "which one?".
    #[test]
    fn a_code_never_executes_an_option_that_shows_one_of_its_parts(
        seats in prop::collection::btree_set((0usize..5, 1u32..12), 2..5),
        said in (0usize..6, 1u32..13),
        asked in any::<bool>(),
    ) {
        const ROWS: [&str; 6] = ["A", "B", "C", "D", "E", "F"];
        let seats: Vec<(usize, u32)> = seats.into_iter().collect();
        let labels: Vec<String> = seats.iter().map(|(r, n)| format!("Row {} · Seat {n}", ROWS[*r])).collect();
        let mut cands: Vec<Candidate> = labels.iter().enumerate().map(|(i, l)| Candidate::new(format!("s{i}"), l.as_str())).collect();
        cands.iter_mut().for_each(|c| c.kind = "seat".into());
        let code = format!("{}{}", ROWS[said.0].to_lowercase(), said.1);
        let mut req = crate::matching::tests::request(&code, &cands);
        if asked && let Some(o) = req.options.as_mut() {
            o.asked = Asked::Choice;
        }
        let d = turn(&Policy::defaults(), &Fake::quiet(), &req).decision;
        let meant = seats.iter().position(|s| *s == said).map(|i| format!("s{i}"));
        if let Some(id) = executed(&d) {
            prop_assert_eq!(Some(id.to_string()), meant, "{:?} over {:?} executed {}", code, labels, id);
        }
    }

    /// Over generated screens of days and times, a part of today said
    /// without "today" executes only an option whose label says today
    /// and whose time is in that part of the day, on a plain screen and
    /// after "which one?".
    #[test]
    fn a_part_of_today_never_executes_another_days_option(
        slots in prop::collection::btree_set((0usize..4, 0usize..5), 2..5),
        said in 0usize..7,
        asked in any::<bool>(),
    ) {
        const DAYS: [&str; 4] = ["Today", "Tomorrow", "Fri 12 Sep", "Mon"];
        const HOURS: [u32; 5] = [9, 11, 14, 17, 20];
        // Each phrase with the hours of its part of the day (none: any).
        const SAID: [(&str, Option<(u32, u32)>); 7] = [
            ("tonight", Some((17, 24))),
            ("this morning", Some((5, 12))),
            ("this afternoon", Some((12, 18))),
            ("this evening please", Some((17, 23))),
            ("ce soir", Some((17, 23))),
            ("esta noche", None),
            ("vanavond", None),
        ];
        let slots: Vec<(usize, usize)> = slots.into_iter().collect();
        let labels: Vec<String> = slots.iter().map(|(d, h)| format!("{} {}:00", DAYS[*d], HOURS[*h])).collect();
        let cands: Vec<Candidate> = labels.iter().enumerate().map(|(i, l)| Candidate::new(format!("s{i}"), l.as_str())).collect();
        let (phrase, part) = SAID[said];
        let mut req = request(phrase, &cands);
        if asked && let Some(o) = req.options.as_mut() {
            o.asked = Asked::Choice;
        }
        let d = turn(&Policy::defaults(), &Fake::quiet(), &req).decision;
        if let Some(id) = executed(&d) {
            let i: usize = id[1..].parse().unwrap();
            let (day, hour) = slots[i];
            prop_assert_eq!(DAYS[day], "Today", "{:?} over {:?} executed {}", phrase, labels, id);
            if let Some((from, to)) = part {
                prop_assert!((from..to).contains(&HOURS[hour]), "{:?} over {:?} executed {}", phrase, labels, id);
            }
        }
    }

    /// Over generated screens of volumes, in ml or in litres, one or half
    /// a litre executes only the option that shows that amount.
    #[test]
    fn one_or_half_a_unit_never_executes_another_amount(
        amounts in prop::collection::btree_set(0usize..6, 2..5),
        in_litres in any::<bool>(),
        half in any::<bool>(),
        asked in any::<bool>(),
    ) {
        const ML: [u32; 6] = [250, 330, 500, 750, 1000, 2000];
        let amounts: Vec<usize> = amounts.into_iter().collect();
        let label = |ml: u32| if in_litres && ml >= 500 { format!("{} L", f64::from(ml) / 1000.0) } else { format!("{ml} ml") };
        let labels: Vec<String> = amounts.iter().map(|a| label(ML[*a])).collect();
        let cands: Vec<Candidate> = labels.iter().enumerate().map(|(i, l)| Candidate::new(format!("s{i}"), l.as_str())).collect();
        let (said, ml) = if half { ("half a litre", 500) } else { ("a litre", 1000) };
        let mut req = request(said, &cands);
        if asked && let Some(o) = req.options.as_mut() {
            o.asked = Asked::Choice;
        }
        let d = turn(&Policy::defaults(), &Fake::quiet(), &req).decision;
        if let Some(id) = executed(&d) {
            let i: usize = id[1..].parse().unwrap();
            prop_assert_eq!(ML[amounts[i]], ml, "{:?} over {:?} executed {}", said, labels, id);
        }
    }
}
