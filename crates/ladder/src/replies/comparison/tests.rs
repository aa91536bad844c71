//! The comparison room end to end: the one extreme of a value the
//! options show, a tie asked again.

use crate::replies::tests::*;
use crate::testkit::{Branches, Session, check_cases};
use crate::types::*;
use proptest::prelude::*;

#[test]
fn a_comparison_with_one_extreme_picks_it() {
    assert_eq!(said(&Session::new().say("the cheaper one", &asking(shirts(), Asked::Choice))), "execute white (reply, comparison)");
    let s = Session::new();
    s.say("table for 2", &times());
    assert_eq!(said(&s.say("the earliest", &times())), "execute t6 (reply, comparison)");
}

/// The closest is the least of a distance shown, else of the time to get
/// there ("3 min away"); a tie is asked again.
#[test]
fn the_closest_is_the_least_distance_or_time_away() {
    let rides = asking(
        screen(
            "rides",
            vec![c("x", "UberX · 3 min away", "$18.20"), c("c", "Comfort · 5 min away", "$24.60"), c("g", "Green · 9 min away", "$17.10")],
        ),
        Asked::Choice,
    );
    for (input, want) in [("whichever's closest", "x"), ("the nearest one", "x"), ("el más cercano", "x"), ("the furthest", "g")] {
        assert_eq!(said(&Session::new().say(input, &rides)), format!("execute {want} (reply, comparison)"), "{input}");
    }
    let shops = asking(
        screen("shops", vec![c("a", "Main St", "1.2 km"), c("b", "Park Ave", "0.4 km"), c("d", "Dock Rd", "0.9 km")]),
        Asked::Choice,
    );
    assert_eq!(said(&Session::new().say("the closest", &shops)), "execute b (reply, comparison)", "lengths");
    // A distance and a time away are not compared with each other.
    let mixed = asking(screen("mixed", vec![c("a", "Main St", "1.2 km"), c("d", "Dock Rd", "3 min away")]), Asked::Choice);
    assert_ne!(Session::new().say("the closest", &mixed).outcome, Outcome::Execute);
    let tied = asking(screen("tied", vec![c("a", "Main St", "0.4 km"), c("b", "Park Ave", "0.4 km")]), Asked::Choice);
    assert_eq!(Session::new().say("the closest", &tied).outcome, Outcome::Clarify);
}

/// `n` shirts, each at its own price, the cheapest listed last.
fn many_shirts(n: usize) -> OptionSet {
    screen("many", (0..n).map(|i| c(&format!("s{i}"), &format!("Shirt {}", 100 + i), &format!("${}", 90 - i))).collect())
}

#[test]
fn a_comparison_on_a_plain_screen_reads_a_short_one_only() {
    // Nothing asked: a short screen is read as a list ...
    let short = many_shirts(super::SCREEN_READ);
    let last = format!("s{}", super::SCREEN_READ - 1);
    assert_eq!(said(&Session::new().say("the cheapest one", &short)), format!("execute {last} (reply, comparison)"));
    // ... a longer one is the ladder's to read: no comparison executes.
    let long = many_shirts(super::SCREEN_READ + 1);
    let d = Session::new().say("the cheapest one", &long);
    assert_ne!(kind(&d), Some("comparison"), "{}", said(&d));
    assert!(!said(&d).starts_with("execute"), "{}", said(&d));
    // Asked "which one?" over the long screen, the comparison answers it.
    let last = format!("s{}", super::SCREEN_READ);
    assert_eq!(said(&Session::new().say("the cheapest one", &asking(long, Asked::Choice))), format!("execute {last} (reply, comparison)"));
}

#[test]
fn a_comparison_with_a_tie_is_asked_again() {
    // Black and White are both $12.
    assert_eq!(said(&Session::new().say("the cheapest", &asking(mugs(), Asked::Choice))), "clarify mb, mw (reply, comparison)");
}

/// Options that each show two times (a departure and an arrival): the one
/// that leaves and arrives first is "the earliest"; one that leaves first
/// but arrives later than another leaves it unclear, and it is asked.
#[test]
fn a_comparison_over_two_values_each_picks_only_the_one_extreme_in_both() {
    let trains = |arrivals: [&str; 3]| {
        screen(
            "trains",
            vec![
                c("r1", "RE 4410", &format!("08:15 → {}", arrivals[0])),
                c("r2", "IC 2021", &format!("07:40 → {}", arrivals[1])),
                c("r3", "ICE 598", &format!("09:05 → {}", arrivals[2])),
            ],
        )
    };
    let clear = asking(trains(["10:30", "09:50", "11:00"]), Asked::Choice);
    assert_eq!(said(&Session::new().say("the earliest one", &clear)), "execute r2 (reply, comparison)");
    assert_eq!(said(&Session::new().say("the latest", &clear)), "execute r3 (reply, comparison)");
    // IC 2021 leaves first but arrives after RE 4410.
    let crossed = asking(trains(["10:30", "10:45", "11:00"]), Asked::Choice);
    let d = Session::new().say("the earliest one", &crossed);
    assert!(!said(&d).starts_with("execute"), "{}", said(&d));
}

/// Over generated screens of options each showing a departure and an
/// arrival, "the earliest" executes only an option whose departure and
/// arrival are both the earliest, never one that leads in one of them
/// alone; where one leads in both it is picked. Both counted.
#[test]
fn the_earliest_of_two_times_each_is_first_in_both_or_asked() {
    let branches = Branches::default();
    let legs = prop::collection::vec((6u32..22, 0u32..4, 1u32..5, 0u32..4), 2..5);
    check_cases(CASES, file!(), &legs, |times| {
        let shown: Vec<(u32, u32)> = times.iter().map(|(h, q, d, q2)| (h * 60 + q * 15, h * 60 + q * 15 + d * 60 + q2 * 15)).collect();
        let hhmm = |m: u32| format!("{:02}:{:02}", (m / 60) % 24, m % 60);
        let leg = |i: usize, (dep, arr): (u32, u32)| {
            c(&format!("l{i}"), &format!("Leg {}", (b'A' + i as u8) as char), &format!("{} → {}", hhmm(dep), hhmm(arr)))
        };
        let set = screen("legs", shown.iter().enumerate().map(|(i, t)| leg(i, *t)).collect());
        let d = Session::new().say("the earliest one", &asking(set, Asked::Choice));
        let first_in_both =
            (0..shown.len()).find(|k| shown.iter().enumerate().all(|(i, t)| i == *k || (shown[*k].0 < t.0 && shown[*k].1 < t.1)));
        if d.outcome == Outcome::Execute {
            prop_assert_eq!(d.target_id.clone(), first_in_both.map(|k| format!("l{k}")), "{:?}: {}", shown, said(&d));
            branches.hit("first in both executes");
        } else if first_in_both.is_none() {
            branches.hit("no leader asked");
        }
        Ok(())
    });
    branches.expect(&[("first in both executes", CASES as usize / 8), ("no leader asked", CASES as usize / 8)]);
}

/// What a comparison compares: the label the options share, how a value
/// is shown (by option), and the phrases that ask for the least or most.
#[derive(Debug, Clone, Copy)]
enum Dimension {
    Price,
    Clock,
    Duration,
}

impl Dimension {
    fn label(self) -> &'static str {
        match self {
            Dimension::Price => "Linen Shirt",
            Dimension::Clock => "Table for 2",
            Dimension::Duration => "Route",
        }
    }

    /// The sublabel of option `i` showing value `v` (a unit of 0 to 11).
    fn shown(self, i: usize, v: u32) -> String {
        const NAMES: [&str; 5] = ["Black", "White", "Blue", "Red", "Green"];
        match self {
            Dimension::Price => format!("{}, ${}", NAMES[i], 10 + 5 * v),
            Dimension::Clock => format!("{} room, Friday {}:{} pm", NAMES[i], 5 + v / 2, if v.is_multiple_of(2) { "00" } else { "30" }),
            Dimension::Duration => format!("{} road, {} min", NAMES[i], 10 + 5 * v),
        }
    }

    fn phrases(self, most: bool) -> &'static [&'static str] {
        match (self, most) {
            (Dimension::Price, false) => {
                &["the cheaper one", "the cheapest", "cheapest one please", "the least expensive one", "the lowest price"]
            }
            (Dimension::Price, true) => &["the most expensive", "the pricier one", "the priciest"],
            (Dimension::Clock, false) => &["the earliest", "the earliest one", "the earlier one", "the soonest"],
            (Dimension::Clock, true) => &["the latest one", "the latest"],
            (Dimension::Duration, false) => &["the shortest", "the quickest one", "the shorter one"],
            (Dimension::Duration, true) => &["the longest", "the longer one"],
        }
    }
}

/// A comparison over options with a tie at the extreme: the dimension,
/// most or least, the values (index = option), the options tied, the
/// phrase, who asked, and the order the screen comes in.
#[derive(Debug, Clone)]
struct Tied {
    dim: Dimension,
    most: bool,
    values: Vec<u32>,
    tied: Vec<usize>,
    phrase: String,
    asked_by: u8,
    order: Vec<usize>,
}

fn a_tie() -> impl Strategy<Value = Tied> {
    let dims = prop::sample::select(vec![Dimension::Price, Dimension::Clock, Dimension::Duration]);
    (dims, any::<bool>(), 2usize..=5, 0u8..3, any::<prop::sample::Index>())
        .prop_flat_map(|(dim, most, n, asked_by, phrase)| {
            let phrases = dim.phrases(most);
            let phrase = phrases[phrase.index(phrases.len())].to_string();
            // At least two options hold the extreme (1..=10, so one more
            // extreme stays in range); the rest are less extreme.
            (Just((dim, most, n, asked_by, phrase)), 2..=n, 1u32..=10, prop::collection::vec(1u32..=10, n), order(n))
        })
        .prop_map(|((dim, most, n, asked_by, phrase), ties, extreme, offsets, order)| {
            let values: Vec<u32> = (0..n)
                .map(|i| match (i < ties, most) {
                    (true, _) => extreme,
                    (false, true) => extreme.saturating_sub(offsets[i]).min(extreme - 1),
                    (false, false) => (extreme + offsets[i]).min(11).max(extreme + 1),
                })
                .collect();
            Tied { dim, most, values, tied: (0..ties).collect(), phrase, asked_by, order }
        })
}

impl Tied {
    fn set(&self, values: &[u32]) -> OptionSet {
        let all: Vec<Candidate> =
            values.iter().enumerate().map(|(i, v)| c(&format!("o{i}"), self.dim.label(), &self.dim.shown(i, *v))).collect();
        reordered(&screen("compared", all), &self.order)
    }

    /// The reply's decision over `values`: on the app's `ASKED_CHOICE`,
    /// after ladderd's "which one?" over them all, or on a plain screen.
    fn reply(&self, values: &[u32]) -> Decision {
        let set = self.set(values);
        let s = Session::new();
        match self.asked_by {
            0 => s.say(&self.phrase, &asking(set, Asked::Choice)),
            1 => {
                let first = s.say(self.dim.label(), &set);
                assert_eq!(first.clarifier.as_ref().map_or(0, |c| c.option_ids.len()), values.len(), "{}", said(&first));
                s.say(&self.phrase, &set)
            }
            _ => s.say(&self.phrase, &set),
        }
    }
}

/// Comparison: "the cheapest", "the earliest", "the
/// longest" over options two or more of which hold the extreme never
/// executes (asked again), on the app's "which one?", after ladderd's, or
/// on a plain screen; with the tie broken (one of them more extreme) it
/// picks that one. Both counted.
#[test]
fn a_comparison_over_a_tie_never_executes() {
    let branches = Branches::default();
    check_cases(CASES, file!(), &a_tie(), |t| {
        let d = t.reply(&t.values);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} came to {}", t, said(&d));
        if kind(&d) == Some("comparison") {
            branches.hit("asked again");
        }
        // The tie broken: the first tied option more extreme.
        let mut broken = t.values.clone();
        let winner = t.tied[0];
        broken[winner] = if t.most { broken[winner] + 1 } else { broken[winner] - 1 };
        let d = t.reply(&broken);
        if d.outcome == Outcome::Execute {
            prop_assert_eq!(d.target_id.clone(), Some(format!("o{winner}")), "{:?} broken {:?}: {}", t, broken, said(&d));
            branches.hit("the one extreme executes");
        }
        Ok(())
    });
    branches.expect(&[("asked again", CASES as usize * 3 / 4), ("the one extreme executes", CASES as usize * 3 / 4)]);
}
