use super::names::{MONTHS, WEEKDAYS};
use super::*;
use proptest::prelude::*;

fn one(text: &str) -> (Dim, f64) {
    let v = values(text);
    assert_eq!(v.len(), 1, "{text:?}: {v:?}");
    (v[0].dim, v[0].amount)
}

#[test]
fn prices_in_every_common_form() {
    for (text, cents) in [
        ("$9.99", 999.0),
        ("$12.00", 1200.0),
        ("€298", 29800.0),
        ("18,50 €", 1850.0),
        ("412 €", 41200.0),
        ("$1,999", 199_900.0),
        ("$1,850.00", 185_000.0),
        ("20 dollars", 2000.0),
        ("$1.5k", 150_000.0),
        ("$2k", 200_000.0),
    ] {
        assert_eq!(one(text), (Dim::Price, cents), "{text}");
    }
}

#[test]
fn times_of_day_in_every_common_form() {
    for (text, minutes) in [
        ("7:00 PM", 19.0 * 60.0),
        ("12:30 PM", 12.0 * 60.0 + 30.0),
        ("12:15 am", 15.0),
        ("9:00 AM", 9.0 * 60.0),
        ("7pm", 19.0 * 60.0),
        ("7 p.m.", 19.0 * 60.0),
        ("7h10", 7.0 * 60.0 + 10.0),
        ("14h30", 14.0 * 60.0 + 30.0),
        ("9h", 9.0 * 60.0),
        ("14:00 Uhr", 14.0 * 60.0),
        ("noon", 12.0 * 60.0),
    ] {
        assert_eq!(one(text), (Dim::Clock, minutes), "{text}");
    }
}

/// A time in words as people say it ("half past six", "half six",
/// British), a day of the month past the positions ("the fifteenth"), an
/// amount in thousands ("1.5k"): each its value. "past" is itself, never
/// read as a slip for a reply word (German "passt" is a yes).
#[test]
fn more_values_said_in_words() {
    let half = |h: f64| Value { dim: Dim::Clock, amount: h * 60.0 + 30.0, unit: TWELVE_HOURS.into() };
    assert_eq!(values("half past six"), vec![half(6.0)]);
    assert_eq!(values("half six please"), vec![half(6.0)]);
    assert_eq!(values("half 6"), vec![half(6.0)]);
    // German "halb acht" is half an hour before eight.
    assert_eq!(values("Donnerstag halb acht")[1..], [half(7.0)]);
    assert_eq!(values("halb 1"), vec![half(12.0)]);
    assert_eq!(values("um halb 8").last(), Some(&half(7.0)));
    assert_eq!(one("twenty quid"), (Dim::Price, 2000.0));
    assert_eq!(one("the fifteenth"), (Dim::Day, 15.0));
    assert_eq!(one("the twenty-first"), (Dim::Day, 21.0));
    assert!(values("the third").is_empty(), "a position, not a day");
    assert_eq!(one("1.5k"), (Dim::Bare, 1500.0));
    assert_eq!(one("2k"), (Dim::Bare, 2000.0));
    let lex = crate::lexicon::Lexicon::shipped();
    for w in ["past", "half", "quarter", "noon"] {
        assert_eq!(lex.respell(w), None, "{w}");
    }
    assert!(!crate::replies::reading::read("half past six", &lex).affirms);
}

#[test]
fn a_number_with_a_sign_is_an_offset_named_only_with_its_sign() {
    for (text, amount) in
        [("+2", 2.0), ("utc-3", -3.0), ("(GMT+05:30)", 5.5), ("GMT-08:00", -8.0), ("+44", 44.0), ("covid-19", -19.0), ("\u{2212}4", -4.0)]
    {
        assert_eq!(one(text), (Dim::Signed, amount), "{text}");
    }
    // A range or a date is no sign.
    assert!(values("2-3 people").iter().all(|v| v.dim != Dim::Signed));
    assert!(values("10:00-11:00").iter().all(|v| v.dim != Dim::Signed));
    let shown = values("Athens (UTC+2)");
    assert!(values("utc+2")[0].names(&shown[0]));
    assert!(!values("utc-2")[0].names(&shown[0]));
    assert!(!values("the 2")[0].names(&shown[0]), "a bare number is said without its sign");
    // A length of time with a sign is that length: before or after, the
    // options say ("-1h" for "1 hour before").
    for (text, minutes) in [("-1h", 60.0), ("+1h pls", 60.0), ("-15 min", 15.0), ("+1 day", 1440.0)] {
        assert_eq!(one(text), (Dim::Duration, minutes), "{text}");
    }
}

#[test]
fn a_quantity_says_less_than_a_bundle_of_its_noun() {
    let counts = |t: &str| values(t).into_iter().filter(|v| v.dim == Dim::Count).collect::<Vec<_>>();
    let group = counts("Group (3 kids + 1 adult)");
    assert_eq!(group.len(), 2, "{group:?}");
    assert!(says_less(&counts("3 kids"), &group));
    assert!(says_less(&counts("three kids please"), &group));
    assert!(!says_less(&counts("3 kids and 1 adult"), &group));
    assert!(!says_less(&counts("2 seniors"), &group), "another noun: not a quantity of this bundle");
    assert!(!says_less(&counts("open #4815 from the chat"), &counts("#4815 Refund not received")));
    assert!(!says_less(&counts("2 tickets"), &counts("2 tickets · Friday")));
}

/// Numbers said in words are the values their digits are, in
/// the lexicon's languages `text2num` reads.
#[test]
fn numbers_in_words_are_values_like_their_digits() {
    let twelve = |minutes: f64| Value { dim: Dim::Clock, amount: minutes, unit: TWELVE_HOURS.into() };
    let table: &[(&str, Vec<Value>)] = &[
        ("nine pm", vec![Value { dim: Dim::Clock, amount: 21.0 * 60.0, unit: "hour".into() }]),
        ("at nine", vec![twelve(9.0 * 60.0)]),
        ("for eight", vec![Value::new(Dim::Bare, 8.0)]),
        ("twenty dollars", vec![Value::new(Dim::Price, 2000.0)]),
        ("twenty-one", vec![Value::new(Dim::Bare, 21.0)]),
        ("one hundred and five euros", vec![Value::new(Dim::Price, 10500.0)]),
        ("three kids", vec![Value { dim: Dim::Count, amount: 3.0, unit: "kid".into() }]),
        ("half past six", vec![twelve(6.0 * 60.0 + 30.0)]),
        ("quarter to eight", vec![twelve(7.0 * 60.0 + 45.0)]),
        ("quarter past 7", vec![twelve(7.0 * 60.0 + 15.0)]),
        ("nine o'clock", vec![twelve(9.0 * 60.0)]),
        ("at nine thirty", vec![twelve(9.0 * 60.0 + 30.0)]),
        ("nine thirty pm", vec![Value::new(Dim::Clock, 21.0 * 60.0 + 30.0)]),
        ("at one", vec![twelve(60.0)]),
        ("on the twelfth", vec![Value::new(Dim::Day, 12.0)]),
        ("for the second", vec![Value::new(Dim::Day, 2.0)]),
        ("the twelfth of may", vec![dated(12.0, 5)]),
        ("may second", vec![dated(2.0, 5)]),
        ("veinte euros", vec![Value::new(Dim::Price, 2000.0)]),
        ("veintidós personas", vec![Value { dim: Dim::Count, amount: 22.0, unit: "person".into() }]),
        ("quattro persone", vec![Value { dim: Dim::Count, amount: 4.0, unit: "person".into() }]),
        ("twee personen", vec![Value { dim: Dim::Count, amount: 2.0, unit: "person".into() }]),
        ("vinte euros", vec![Value::new(Dim::Price, 2000.0)]),
        ("dodici euro", vec![Value::new(Dim::Price, 1200.0)]),
        ("vingt et un euros", vec![Value::new(Dim::Price, 2100.0)]),
        ("quatre-vingt-dix minutes", vec![Value::new(Dim::Duration, 90.0)]),
        ("einundzwanzig Uhr", vec![Value::new(Dim::Clock, 21.0 * 60.0)]),
        ("zwölf Euro", vec![Value::new(Dim::Price, 1200.0)]),
        ("just one ticket", vec![Value { dim: Dim::Count, amount: 1.0, unit: "ticket".into() }]),
        // A place, another one, or a word that is also a number elsewhere.
        ("the second one", vec![]),
        ("the first song", vec![]),
        ("wait a second", vec![]),
        ("that one", vec![]),
        ("one more", vec![]),
        ("once a week", vec![]),
        ("a one-way flight", vec![]),
        ("an elf", vec![]),
        ("null and void", vec![]),
        ("due today", vec![]),
        ("otto's pizza", vec![]),
        ("een", vec![]),
        ("o", vec![]),
    ];
    for (text, want) in table {
        assert_eq!(&values(text), want, "{text:?}");
    }
    for w in ["nine", "twenty", "zwanzig", "funf", "one", "veinte", "2"] {
        assert!(is_number_word(w), "{w}");
    }
    for w in ["once", "elf", "second", "twelfth", "o", "and", "nine pm", ""] {
        assert!(!is_number_word(w), "{w}");
    }
    let seven = values("Friday 7:00 pm");
    assert!(values("half past seven")[0].conflicts(&seven));
    assert!(!values("seven o'clock")[0].conflicts(&seven), "either half of the day");
    assert!(!values("quarter to 7")[0].conflicts(&values("6:30 pm · 7 pm")), "within the span shown");
}

/// A time of day as the lexicon's other languages say it (quarters and
/// halves after or before the hour, the part of the day), a length of
/// time with an article or its short unit, and a German date: the value
/// its digits would be.
#[test]
fn times_and_lengths_of_time_in_the_lexicons_languages() {
    let twelve = |minutes: f64| Value { dim: Dim::Clock, amount: minutes, unit: TWELVE_HOURS.into() };
    let clock = |minutes: f64| Value::new(Dim::Clock, minutes);
    let table: &[(&str, Vec<Value>)] = &[
        ("Viertel nach acht", vec![twelve(8.0 * 60.0 + 15.0)]),
        ("viertel vor neun", vec![twelve(8.0 * 60.0 + 45.0)]),
        ("dreiviertel neun", vec![twelve(8.0 * 60.0 + 45.0)]),
        ("kwart over 8", vec![twelve(8.0 * 60.0 + 15.0)]),
        ("las ocho y media", vec![twelve(8.0 * 60.0 + 30.0)]),
        ("a las ocho y media de la tarde", vec![clock(20.0 * 60.0 + 30.0)]),
        ("alle otto e mezza", vec![twelve(8.0 * 60.0 + 30.0)]),
        ("à huit heures du soir", vec![clock(20.0 * 60.0)]),
        ("à dix heures et quart", vec![twelve(10.0 * 60.0 + 15.0)]),
        ("à neuf heures moins le quart", vec![twelve(8.0 * 60.0 + 45.0)]),
        ("18 heures", vec![clock(18.0 * 60.0)]),
        ("9 uhr abends", vec![clock(21.0 * 60.0)]),
        ("8 o'clock", vec![twelve(8.0 * 60.0)]),
        // After "um", "at", "a las": an hour, never a count of what follows.
        ("um zehn passt", vec![twelve(600.0)]),
        ("um 10 passt", vec![twelve(600.0)]),
        ("at two", vec![twelve(120.0)]),
        ("one pm", vec![Value { dim: Dim::Clock, amount: 13.0 * 60.0, unit: "hour".into() }]),
        // "Deux heures" alone may be a length of time.
        ("deux heures", vec![Value::new(Dim::Duration, 120.0)]),
        ("eine Stunde vorher", vec![Value::new(Dim::Duration, 60.0)]),
        ("an hour later", vec![Value::new(Dim::Duration, 60.0)]),
        ("2 std vorher", vec![Value::new(Dim::Duration, 120.0)]),
        ("1 Tag vorher", vec![Value::new(Dim::Duration, 24.0 * 60.0)]),
        ("14. Mai", vec![dated(14.0, 5)]),
    ];
    for (text, want) in table {
        assert_eq!(&values(text), want, "{text:?}");
    }
}

/// A unit that is another word as often ("to", "in", "m") is a unit only
/// written onto its number: "200 to Marta" is no 200 terabytes.
#[test]
fn a_unit_that_is_a_word_too_is_one_only_on_its_number() {
    for (text, want) in [
        ("send 200 to Marta", vec![Value::new(Dim::Bare, 200.0)]),
        ("yep, two hundred to Marta", vec![Value::new(Dim::Bare, 200.0)]),
        ("room 10 in the annex", vec![Value::new(Dim::Bare, 10.0)]),
        ("2TB", vec![Value::new(Dim::Bytes, 2e12)]),
        ("a 14-in screen", vec![Value::new(Dim::Length, 14.0 * 25.4)]),
        ("5m", vec![Value::new(Dim::Duration, 5.0)]),
    ] {
        assert_eq!(values(text), want, "{text:?}");
    }
}

/// A thing added with a plus and no number is one of it: a bundle shows
/// it ("Menu 2 pizze + bibita", "Coffee + croissant"); a plus before a
/// number adds that many; an offset keeps its sign.
#[test]
fn a_thing_added_with_a_plus_is_one_of_it() {
    let count = |n: f64, unit: &str| Value { dim: Dim::Count, amount: n, unit: unit.into() };
    assert_eq!(values("Menu 2 pizze margherita + bibita"), vec![count(2.0, "pizze"), count(1.0, "bibita")]);
    assert_eq!(values("Coffee + croissant"), vec![count(1.0, "croissant")]);
    assert_eq!(values("Group (3 kids + 1 adult)"), vec![count(3.0, "kid"), count(1.0, "adult")]);
    assert_eq!(values("+2"), vec![Value::new(Dim::Signed, 2.0)]);
}

/// A length of time with a half or a quarter, in the lexicon's languages:
/// its minutes, never half past an hour or a count ("half an hour" was
/// an hour; "the hour and a half one" was 1:30).
#[test]
fn a_half_or_a_quarter_of_a_length_of_time() {
    let minutes = |m: f64| vec![Value::new(Dim::Duration, m)];
    for (text, m) in [
        ("half an hour more", 30.0),
        ("the hour and a half one", 90.0),
        ("an hour and a half", 90.0),
        ("two and a half hours", 150.0),
        ("2 and a half hours", 150.0),
        ("half a day", 720.0),
        ("a quarter of an hour", 15.0),
        ("three quarters of an hour", 45.0),
        ("media hora", 30.0),
        ("una hora y media", 90.0),
        ("dos horas y media", 150.0),
        ("eine halbe Stunde", 30.0),
        ("anderthalb Stunden", 90.0),
        ("une demi-heure", 30.0),
        ("mezz'ora", 30.0),
        ("un'ora e mezza", 90.0),
        ("meia hora", 30.0),
        ("uma hora e meia", 90.0),
        ("een half uur", 30.0),
        ("anderhalf uur", 90.0),
    ] {
        assert_eq!(values(text), minutes(m), "{text}");
    }
    // A half that is no length of time: half past an hour, a half of
    // something else.
    assert_eq!(values("half past six")[0].dim, Dim::Clock);
    assert_eq!(values("halb acht")[0].dim, Dim::Clock);
    assert!(values("half a pizza").is_empty());
    assert!(values("social media").is_empty());
}

/// A part of the day names the times of day inside it; to an option
/// that shows a time outside it, it is a change; to one that shows no
/// time, it says nothing against it.
#[test]
fn a_part_of_the_day_names_the_times_inside_it() {
    let at = |m: f64| Value::new(Dim::Clock, m);
    let evening = &values("the evening one")[0];
    assert_eq!(evening.dim, Dim::DayPart);
    assert!(evening.names(&at(19.0 * 60.0 + 45.0)) && !evening.names(&at(7.0 * 60.0 + 45.0)));
    assert!(evening.conflicts(&[at(9.0 * 60.0)]) && !evening.conflicts(&[at(20.0 * 60.0)]));
    assert!(evening.said_of(&[]) && !evening.said_of(&[at(9.0 * 60.0)]));
    for (w, part) in [("morning", 0.0), ("nachmittags", 1.0), ("soir", 2.0), ("sera", 2.0), ("avond", 2.0), ("tonight", 3.0)] {
        assert_eq!(values(w), vec![Value::new(Dim::DayPart, part)], "{w}");
    }
    // Words that are as often another word name no part of the day.
    for w in ["morgen", "mañana", "tarde", "good night"] {
        assert!(values(w).is_empty(), "{w}");
    }
    let yoga = crate::types::Candidate::new("y", "Morning Yoga");
    assert!(shown(&yoga).is_empty(), "a label's word is no time");
}

#[test]
fn durations_sizes_and_years() {
    assert_eq!(one("58 min"), (Dim::Duration, 58.0));
    assert_eq!(one("1h 5m"), (Dim::Duration, 65.0));
    assert_eq!(one("2 hours"), (Dim::Duration, 120.0));
    assert_eq!(one("1.2 GB"), (Dim::Bytes, 1.2e9));
    assert_eq!(one("990 MB"), (Dim::Bytes, 9.9e8));
    assert_eq!(one("16GB"), (Dim::Bytes, 1.6e10));
    assert_eq!(one("14-inch"), (Dim::Length, 14.0 * 25.4));
    assert_eq!(one("750 ml"), (Dim::Volume, 750.0));
    assert_eq!(one("1kg"), (Dim::Mass, 1000.0));
    assert_eq!(one("1968"), (Dim::Year, 1968.0));
    assert_eq!(one("2015 remaster"), (Dim::Year, 2015.0));
}

#[test]
fn days_weekdays_months_and_counts() {
    assert_eq!(one("Fri"), (Dim::Weekday, 4.0));
    assert_eq!(one("friday"), (Dim::Weekday, 4.0));
    assert_eq!(one("Dienstag"), (Dim::Weekday, 1.0));
    assert_eq!(one("mercredi"), (Dim::Weekday, 2.0));
    assert_eq!(one("March 1st"), (Dim::Day, 1.0));
    assert_eq!(one("the 1st"), (Dim::Day, 1.0));
    assert_eq!(values("14th of March")[0], dated(14.0, 3));
    assert_eq!(one("September"), (Dim::Month, 9.0));
    let v = values("2 people");
    assert_eq!((v[0].dim, v[0].amount, v[0].unit.as_str()), (Dim::Count, 2.0, "person"));
    let v = values("1 tickets");
    assert_eq!((v[0].dim, v[0].unit.as_str()), (Dim::Count, "ticket"));
    assert_eq!(one("the 7"), (Dim::Bare, 7.0));
}

fn dated(day: f64, month: u8) -> Value {
    Value { dim: Dim::Day, amount: day, unit: month.to_string() }
}

/// A date is its day and month read together, in every common order: "Aug
/// 4th" names "Mon 4 Aug" and no other month's 4th; a day said alone ("the
/// 4th") names that day of any month.
#[test]
fn a_date_is_its_day_and_month_together() {
    for (text, day, month) in [
        ("Aug 4th", 4.0, 8),
        ("Mon 4 Aug", 4.0, 8),
        ("the 3rd of May", 3.0, 5),
        ("Sat 3 May · 11:00", 3.0, 5),
        ("July 2nd", 2.0, 7),
        ("Tue 2 Jul · 3:00 PM", 2.0, 7),
        ("12 de mayo", 12.0, 5),
    ] {
        let v = values(text);
        assert!(v.contains(&dated(day, month)), "{text:?}: {v:?}");
    }
    let aug4 = &values("Aug 4th")[0];
    assert!(aug4.names(&values("Mon 4 Aug")[1]));
    assert!(!aug4.names(&values("Thu 4 Sep")[1]), "another month's 4th");
    assert!(!aug4.names(&values("Tue 5 Aug")[1]), "another day of August");
    assert!(values("the 4th")[0].names(&values("Thu 4 Sep")[1]), "a day alone names it in any month");
}

/// The start of a span said with one am or pm takes the end's ("2:00–3:00
/// PM" starts at 2 PM), and a weekday's possessive is the weekday.
#[test]
fn a_span_shares_its_half_of_the_day_and_a_weekday_its_possessive() {
    let v = values("Thu 13 Jun · 3:00–3:45 PM");
    assert!(v.contains(&Value::new(Dim::Clock, 15.0 * 60.0)), "{v:?}");
    let v = values("11:00–1:00 PM");
    assert!(v.contains(&Value::new(Dim::Clock, 11.0 * 60.0)), "a start after the end in that half keeps its own: {v:?}");
    assert_eq!(one("Thursday's"), (Dim::Weekday, 3.0));
}

/// `values_at` reads what `values` reads, each value with the bytes it is
/// said in.
#[test]
fn values_at_gives_each_value_its_bytes() {
    let text = "join Thursday's 3pm on Aug 4th";
    let at = values_at(text);
    assert_eq!(at.iter().map(|(v, _)| v.clone()).collect::<Vec<_>>(), values(text));
    let said: Vec<&str> = at.iter().map(|(_, r)| &text[r.clone()]).collect();
    assert_eq!(said, ["Thursday's", "3pm", "Aug 4th"]);
}

#[test]
fn a_label_reads_as_its_values() {
    let v = values("Today 12:30 PM · Studio B · 4 spots");
    let dims: Vec<Dim> = v.iter().map(|v| v.dim).collect();
    assert_eq!(dims, [Dim::Clock, Dim::Count]);
    let v = values("Vol direct/Paris → Lisbonne · 10h15 · 412 €");
    let dims: Vec<Dim> = v.iter().map(|v| v.dim).collect();
    assert_eq!(dims, [Dim::Clock, Dim::Price]);
    let v = values("Episode 2 · 1h 5m");
    assert!(v.iter().any(|v| v.dim == Dim::Duration && v.amount == 65.0), "{v:?}");
}

#[test]
fn a_comparison_picks_the_one_extreme_and_asks_on_a_tie() {
    let of = |texts: &[&str]| texts.iter().map(|t| values(t)).collect::<Vec<_>>();
    // Text order would rank "$12.00" below "$9.99".
    assert_eq!(extreme(&of(&["Regular · $9.99", "Large · $12.00"]), Dim::Price, false), Some(0));
    assert_eq!(extreme(&of(&["Today 12:30 PM", "Today 9:00 AM", "Today 6:15 PM"]), Dim::Clock, false), Some(1));
    assert_eq!(extreme(&of(&["1.2 GB", "850 MB", "990 MB"]), Dim::Bytes, true), Some(0));
    assert_eq!(extreme(&of(&["Episode 1 · 58 min", "Episode 2 · 1h 5m"]), Dim::Duration, false), Some(0));
    assert_eq!(extreme(&of(&["via Madrid · 7h40 · 289 €", "10h15 · 412 €", "23h05 · 305 €"]), Dim::Price, false), Some(0));
    // Dates by their month first.
    assert_eq!(extreme(&of(&["Opened 28 May", "Opened 4 Jun"]), Dim::Day, false), Some(0));
    assert_eq!(extreme(&of(&["Opened 28 May", "Opened 4 Jun"]), Dim::Day, true), Some(1));
    assert_eq!(extreme(&of(&["the 28th", "Opened 4 Jun"]), Dim::Day, false), None, "a day without its month beside one with it");
    // A tie, or an option without the value: ask.
    assert_eq!(extreme(&of(&["$3.49", "$3.49", "$3.99"]), Dim::Price, false), None);
    assert_eq!(extreme(&of(&["$3.49", "Sweet potato fries"]), Dim::Price, false), None);
}

#[test]
fn a_reply_names_or_changes_a_detail() {
    let shown = values("7:00 PM · Screen 4 · 12 seats left");
    let said = values("the 7 then");
    assert!(said[0].names(&shown[0]), "the 7 names 7:00 PM: {said:?} {shown:?}");
    assert!(!values("9:45 PM")[0].names(&shown[0]));
    assert!(values("16 inch")[0].names(&values("16-inch")[0]));
    assert!(!values("16 inch")[0].names(&values("16GB")[0]));
    let option = values("Pleasant Hill · 10:45 am · 2 people · March 1st");
    assert!(values("3 people")[0].conflicts(&option), "3 people where it shows 2");
    assert!(!values("2 people")[0].conflicts(&option));
    assert!(values("7:15 pm")[0].conflicts(&option));
    assert!(!values("4 tickets")[0].conflicts(&option), "nothing of the kind is shown");
}

proptest! {
    /// A comparison never depends on how the values are written: the
    /// cheapest of prices in dollars, written with or without cents or a
    /// thousands separator, is the one with the fewest cents.
    #[test]
    fn the_cheapest_is_the_least_whatever_the_writing(cents in prop::collection::vec(1u32..500_000, 2..6), style in 0u8..3) {
        let write = |c: u32| match style {
            0 => format!("${}.{:02}", c / 100, c % 100),
            1 => format!("{},{:02} €", c / 100, c % 100),
            _ => {
                let d = c / 100;
                if d >= 1000 { format!("${},{:03}.{:02}", d / 1000, d % 1000, c % 100) } else { format!("${d}.{:02}", c % 100) }
            }
        };
        let shown: Vec<Vec<Value>> = cents.iter().map(|c| values(&write(*c))).collect();
        let min = *cents.iter().min().unwrap();
        let expected = (cents.iter().filter(|c| **c == min).count() == 1).then(|| cents.iter().position(|c| *c == min).unwrap());
        prop_assert_eq!(extreme(&shown, Dim::Price, false), expected);
    }

    /// Times of day compare by the clock, not by their digits, in 12- and
    /// 24-hour forms alike.
    #[test]
    fn the_earliest_is_the_first_by_the_clock(minutes in prop::collection::vec(0u32..(24 * 60), 2..6), twelve in any::<bool>()) {
        let write = |m: u32| {
            let (h, mm) = (m / 60, m % 60);
            if twelve {
                let (h12, mer) = match h { 0 => (12, "AM"), 1..=11 => (h, "AM"), 12 => (12, "PM"), _ => (h - 12, "PM") };
                format!("{h12}:{mm:02} {mer}")
            } else {
                format!("{h}:{mm:02}")
            }
        };
        let shown: Vec<Vec<Value>> = minutes.iter().map(|m| values(&write(*m))).collect();
        let min = *minutes.iter().min().unwrap();
        let expected = (minutes.iter().filter(|m| **m == min).count() == 1).then(|| minutes.iter().position(|m| *m == min).unwrap());
        prop_assert_eq!(extreme(&shown, Dim::Clock, false), expected);
    }

    /// Reading values never panics, whatever the text.
    #[test]
    fn any_text_reads(text in "\\PC{0,60}") {
        let _ = values(&text);
    }
}

#[test]
fn no_name_a_word_is_read_as_is_longer_than_the_words_read() {
    let names = WEEKDAYS.iter().chain(MONTHS).map(|(n, _)| *n).chain(LONE_CLOCKS.iter().map(|(n, _)| *n));
    for n in names {
        assert!(n.len() <= LONGEST_NAME, "{n}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// ASCII text with no digit and no currency sign is read word by word
    /// to the values its tokens make.
    #[test]
    fn words_alone_read_as_their_tokens_do(
        parts in prop::collection::vec(prop::sample::select(&[
            "Friday", "fri", "MAR", "march", "Mar", "sept", "noon", "Midnight", "friday's", "'tue", "thu'", "sun", "Sonntag",
            "mitternacht", "the", "one", "x", " ", "  ", ",", ".", "'", "-", "?", "mittwochs", "januaryjanuary",
        ][..]), 0..12),
    ) {
        let text: String = parts.concat();
        prop_assert_eq!(values(&text), scanned_values(&text, &spelled::spelled_numbers(&text)), "{:?}", text);
    }
}

/// The memo of which words open a number (`spelled::opens`) never changes
/// a verdict: over more words than it keeps, every verdict is the one the
/// languages give, before and after it starts again.
#[test]
fn the_number_word_memo_never_changes_a_verdict() {
    let words: Vec<String> = ["nine", "twenty", "zwanzig", "veinte", "vingt", "hello", "once", "table", "o"]
        .iter()
        .map(|w| w.to_string())
        .chain((0..spelled::KEPT + 10).map(|k| format!("w{k}")))
        .collect();
    for round in 0..2 {
        for w in &words {
            assert_eq!(spelled::opens(w), spelled::reads_alone(w), "{w:?} in round {round}");
        }
    }
    assert!(spelled::opens("nine") && !spelled::opens("table"));
}

/// A weekday in short is read on an option where a time or a date follows
/// it ("Mi 18:00", "jeu. 9h", "Do 7:30"), in the six languages whose
/// labels write it so, and nowhere else: "Do not disturb" shows no
/// Thursday, and a reply's "do" or "sam" is no day ("do it", "send it to
/// sam"). Italian and Dutch days said in full are read as the others are.
#[test]
fn a_weekday_in_short_is_read_on_an_option_before_a_time() {
    let shown_on = |label: &str| shown(&crate::types::Candidate::new("x", label));
    for (label, day) in [("Yoga · Mi 18:00", 2.0), ("jeu. 9h", 3.0), ("Do 7:30", 3.0), ("qui 14:00", 3.0), ("vr 10:00", 4.0)] {
        assert!(shown_on(label).contains(&Value::new(Dim::Weekday, day)), "{label}: {:?}", shown_on(label));
    }
    for label in ["Do not disturb", "Sam's pick", "dim the lights", "Mo Salah"] {
        assert!(!shown_on(label).iter().any(|v| v.dim == Dim::Weekday), "{label}");
    }
    for said in ["do it at 3", "send it to sam 2 times", "mi 18:00"] {
        assert!(!values(said).iter().any(|v| v.dim == Dim::Weekday), "{said}");
    }
    assert_eq!(one("giovedi"), (Dim::Weekday, 3.0));
    assert_eq!(one("woensdag"), (Dim::Weekday, 2.0));
}

/// "Mar" after a day's number is March ("Sat 15 Mar"); before one it
/// stays unread, as Spanish and French write Tuesday so ("mar 16").
#[test]
fn mar_after_a_day_is_march() {
    for text in ["16 Mar", "Sun 16 Mar", "16 mar."] {
        let days: Vec<Value> = values(text).into_iter().filter(|v| v.dim == Dim::Day).collect();
        assert_eq!(days.len(), 1, "{text}");
        assert_eq!((days[0].amount, days[0].unit.as_str()), (16.0, "3"), "{text}");
    }
    assert!(values("mar 16").iter().all(|v| v.dim != Dim::Day), "{:?}", values("mar 16"));
}

/// The start of a span of hours takes the end's half of the day ("8–10
/// am" starts at 8:00, "6–8 pm" at 18:00), unless that puts it after the
/// end ("11–1 pm") or it is no span of hours ("pages 8-10").
#[test]
fn a_span_of_hours_starts_in_its_ends_half_of_the_day() {
    for (text, start) in [("8–10 am", 480.0), ("Tomorrow 8–10 am", 480.0), ("6–8 pm", 1080.0), ("2-3 pm", 840.0)] {
        let v = values(text);
        assert_eq!((v[0].dim, v[0].amount), (Dim::Clock, start), "{text}: {v:?}");
    }
    for text in ["11–1 pm", "pages 8-10", "Room 2-3"] {
        assert_ne!(values(text)[0].dim, Dim::Clock, "{text}");
    }
}

/// Dates in digits as options and people write them: year first, a day
/// and a month with a slash where one can only be the day, German day and
/// month with their dots after a word that says a date; never a version
/// or a decimal.
#[test]
fn dates_in_digits_in_their_common_forms() {
    for (text, day, month) in [
        ("Thu 2025-04-03", 3.0, "4"),
        ("Entrega seg. 17/03", 17.0, "3"),
        ("03/17", 17.0, "3"),
        ("17/03/2025", 17.0, "3"),
        ("am 4.3.", 4.0, "3"),
        ("Dienstag 4.3.", 4.0, "3"),
    ] {
        let days: Vec<Value> = values(text).into_iter().filter(|v| v.dim == Dim::Day).collect();
        assert_eq!(days.len(), 1, "{text}: {:?}", values(text));
        assert_eq!((days[0].amount, days[0].unit.as_str()), (day, month), "{text}");
    }
    for text in ["03/04", "v2.3.", "Release 2.3.", "9.5", "4.3 kg"] {
        assert!(values(text).iter().all(|v| v.dim != Dim::Day), "{text}: {:?}", values(text));
    }
}

/// More values said in words: a Portuguese weekday with "feira", a
/// number with its sign in a word, a quarter hour in Spanish, an
/// "8-seater".
#[test]
fn more_values_in_the_lexicons_languages() {
    assert_eq!(one("pode ser na segunda-feira"), (Dim::Weekday, 0.0));
    assert_eq!(one("na quarta feira"), (Dim::Weekday, 2.0));
    // "terça" is no ordinal ("terceira" is): the day said alone.
    assert_eq!(one("é o de terça"), (Dim::Weekday, 1.0));
    assert_eq!(one("minus eins"), (Dim::Signed, -1.0));
    assert_eq!(one("menos dos"), (Dim::Signed, -2.0));
    assert_eq!(one("a las diez y cuarto"), (Dim::Clock, 615.0));
    assert_eq!(one("las nueve menos cuarto"), (Dim::Clock, 525.0));
    let v = values("the 8-seater");
    assert_eq!((v[0].dim, v[0].amount, v[0].unit.as_str()), (Dim::Count, 8.0, "seat"));
    assert!(values("segunda").iter().all(|v| v.dim != Dim::Weekday), "said alone, the second");
}

/// Times, months and money as fresh64's authors wrote them: French "de
/// l'après-midi", Dutch "om acht uur 's avonds", German "18–20 Uhr" and
/// "Di abends", Dutch, Italian and Portuguese months, and "ten pounds"
/// as £10 (and as a weight). Never a time where nothing says one.
#[test]
fn times_months_and_pounds_as_people_write_them() {
    let clocks = |t: &str| values(t).into_iter().filter(|v| v.dim == Dim::Clock).map(|v| v.amount).collect::<Vec<f64>>();
    assert_eq!(clocks("samedi à quatre heures de l'après-midi"), [960.0]);
    assert_eq!(clocks("à 16 h de l’après-midi"), [960.0]);
    assert_eq!(clocks("om 8 uur 's avonds"), [1200.0]);
    assert_eq!(clocks("Dienstag, 18–20 Uhr"), [1080.0, 1200.0]);
    assert_eq!(clocks("19–21 uur"), [1140.0, 1260.0]);
    assert!(clocks("2-3 people").is_empty());
    assert_eq!(one("does she do saturdays"), (Dim::Weekday, 5.0));
    assert_eq!(one("los sábados"), (Dim::Weekday, 5.0));
    assert!(values("tues").iter().all(|v| v.amount == 1.0));
    // A verdict after a number counts nothing ("yes 8 works" is 8).
    assert_eq!(one("yes 8 works"), (Dim::Bare, 8.0));
    assert_eq!(one("half eleven works too"), (Dim::Clock, 690.0));
    let v = values("Di abends");
    assert_eq!((v[0].dim, v[0].amount), (Dim::Weekday, 1.0), "{v:?}");
    assert!(values("do it tonight").iter().all(|v| v.dim != Dim::Weekday));
    for (text, day, month) in [("Zaterdag 8 maart", 8.0, "3"), ("14 de março", 14.0, "3"), ("3 maggio", 3.0, "5"), ("1 okt", 1.0, "10")] {
        let days: Vec<Value> = values(text).into_iter().filter(|v| v.dim == Dim::Day).collect();
        assert_eq!((days[0].amount, days[0].unit.as_str()), (day, month), "{text}");
    }
    let pounds = values("ten pounds");
    let price = |c: f64| Value::new(Dim::Price, c);
    assert!(pounds[0].names(&price(1000.0)) && !pounds[0].names(&price(500.0)), "{pounds:?}");
    assert!(pounds[0].names(&Value::new(Dim::Mass, 4536.0)));
    assert!(!values("ten kilos")[0].names(&price(1000.0)));
}

proptest! {
    /// A weight said in pounds names the price of that many pounds and
    /// no other; one in kilos names no price.
    #[test]
    fn pounds_name_one_price(n in 1u32..500, m in 1u32..500) {
        let said = values(&format!("{n} pounds"));
        let price = |c: u32| Value::new(Dim::Price, f64::from(c) * 100.0);
        prop_assert!(said[0].names(&price(n)));
        prop_assert_eq!(said[0].names(&price(m)), n == m);
        let kilos = values(&format!("{n} kilos"));
        prop_assert!(!kilos[0].names(&price(n)));
    }
}

proptest! {
    /// A number of two digits said alone names a year that ends in it
    /// ("the 24 one" for "Budget_2024.xlsx") and no other year; a number
    /// of one digit or of three names no year but its own.
    #[test]
    fn two_digits_name_the_year_they_end(said in 0u32..1000, year in 1950u32..2100) {
        let v = values(&format!("the {said} one"));
        let shown = Value::new(Dim::Year, f64::from(year));
        let names = v.iter().any(|v| v.names(&shown));
        prop_assert_eq!(names, said == year || ((10..100).contains(&said) && year % 100 == said), "{} over {}: {:?}", said, year, v);
    }
}

/// A price said as people say it, units then cents ("forty-two fifty",
/// "twelve ninety-nine dollars"), is that price; an hour and its minutes
/// stay a time, and the first half of a year ("nineteen ninety-nine")
/// is no price.
#[test]
fn units_then_cents_are_a_price() {
    let price = |c: f64| Value::new(Dim::Price, c);
    for (text, cents) in [("forty-two fifty", 4250.0), ("yep, forty two fifty is fine", 4250.0), ("thirty-nine ninety-nine", 3999.0)] {
        let v = values(text);
        assert!(matches!(&v[..], [one] if one.names(&price(cents))), "{text}: {v:?}");
    }
    assert_eq!(values("twelve ninety-nine dollars"), vec![price(1299.0)]);
    assert_eq!(one("seven thirty"), (Dim::Clock, 450.0));
    assert_eq!(one("at six fifteen"), (Dim::Clock, 375.0));
    assert!(values("nineteen ninety-nine").iter().all(|v| !v.names(&price(1999.0))));
    assert!(values("forty-two people").iter().all(|v| v.dim == Dim::Count && v.amount == 42.0));
}

/// A count said ("four people") is the number an option shows alone
/// ("Table for 4"): a yes that says it says nothing against it.
#[test]
fn a_count_is_said_of_the_number_shown_alone() {
    let shown = values("Table for 4 (Sat 7:00 pm)");
    assert!(values("four people").iter().all(|v| v.said_of(&shown)));
    assert!(!values("three people").iter().all(|v| v.said_of(&shown)));
}

/// "The am one", "the pm one": a half of the day; German "am Montag"
/// is none.
#[test]
fn am_and_pm_said_alone_before_a_list_noun_are_halves_of_the_day() {
    let half = |t: &str| values(t).into_iter().find(|v| v.dim == Dim::DayPart).map(|v| v.amount);
    assert_eq!(half("the am one"), Some(4.0));
    assert_eq!(half("the pm one please"), Some(5.0));
    assert_eq!(half("am Montag"), None);
    assert_eq!(half("i am"), None);
    let am = values("the am one");
    assert!(am[0].names(&Value::new(Dim::Clock, 540.0)) && !am[0].names(&Value::new(Dim::Clock, 840.0)));
}

/// Players are people: "4 ppl" counts what "4 players" does.
#[test]
fn players_are_people() {
    let (ppl, players) = (values("4 ppl"), values("4 players"));
    assert_eq!((ppl[0].dim, players[0].dim), (Dim::Count, Dim::Count));
    assert!(ppl[0].names(&players[0]) && !values("5 ppl")[0].names(&players[0]));
}

#[test]
fn a_year_is_named_by_its_last_two_digits() {
    let year = |text: &str| values(text).into_iter().find(|v| v.dim == Dim::Year).map(|v| v.amount);
    assert_eq!(year("Budget_2024_final.xlsx"), Some(2024.0));
    let bare = values("the 24 one");
    assert!(bare[0].names(&Value::new(Dim::Year, 2024.0)) && !bare[0].names(&Value::new(Dim::Year, 2023.0)), "{bare:?}");
}

/// Dutch says hours small ("twee uurtjes"), in the plural ("drie uren")
/// and half an hour in one word ("een halfuur").
#[test]
fn dutch_hours_as_people_say_them() {
    assert_eq!(one("twee uurtjes"), (Dim::Duration, 120.0));
    assert_eq!(one("drie uren"), (Dim::Duration, 180.0));
    assert_eq!(one("een half uurtje"), (Dim::Duration, 30.0));
    assert_eq!(one("een halfuur"), (Dim::Duration, 30.0));
    assert_eq!(one("tien minuutjes"), (Dim::Duration, 10.0));
}

/// One or half of a unit said with its article ("a litre", "half a
/// kilo", "a mile") is that amount of it, as "an hour" and "half an hour"
/// are; a unit word of two letters or fewer after "a" is no unit ("a l",
/// "a m"), and a word that is no unit ("a lot") no value.
#[test]
fn one_or_half_of_a_unit_is_its_amount() {
    assert_eq!(one("a litre"), (Dim::Volume, 1000.0));
    assert_eq!(one("half a litre"), (Dim::Volume, 500.0));
    assert_eq!(one("half a liter please"), (Dim::Volume, 500.0));
    assert_eq!(one("a kilo"), (Dim::Mass, 1000.0));
    assert_eq!(one("half a kilo"), (Dim::Mass, 500.0));
    assert_eq!(one("a pound"), (Dim::Mass, 453.6));
    assert_eq!(one("a mile"), (Dim::Length, 1_609_344.0));
    assert_eq!(one("half an hour"), (Dim::Duration, 30.0));
    assert_eq!(one("an hour"), (Dim::Duration, 60.0));
    for none in ["a lot", "a l", "half a dozen", "a kb"] {
        assert!(values(none).is_empty(), "{none}: {:?}", values(none));
    }
}

/// A code said as one: one letter before or after one to three digits.
#[test]
fn a_code_is_a_letter_and_a_number() {
    assert_eq!(code_parts("f8"), Some(("f", "8")));
    assert_eq!(code_parts("12c"), Some(("c", "12")));
    for no in ["8", "ff8", "1f2", "f1234", "f", "é8"] {
        assert_eq!(code_parts(no), None, "{no}");
    }
}
