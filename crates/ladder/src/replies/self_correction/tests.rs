//! The self-correction room end to end: the last choice in the reply
//! stands, and the option it takes back is never executed.

use crate::replies::tests::*;
use crate::testkit::{Branches, Session, check_cases};
use crate::types::*;
use proptest::prelude::*;

fn sweaters() -> OptionSet {
    screen(
        "sweaters",
        vec![c("blue", "Wool Sweater", "Blue · $60"), c("green", "Wool Sweater", "Green · $60"), c("red", "Wool Sweater", "Red · $65")],
    )
}

#[test]
fn the_last_choice_in_a_reply_that_corrects_itself_stands() {
    let choice = asking(sweaters(), Asked::Choice);
    for (input, want) in [
        ("the first... no wait, the third", "execute red (reply, self_correction)"),
        ("2 - sorry, 3", "execute red (reply, self_correction)"),
        ("the second, actually no the first", "execute blue (reply, self_correction)"),
        ("blue, sorry, green", "execute green (reply, self_correction)"),
    ] {
        assert_eq!(said(&Session::new().say(input, &choice)), want, "{input}");
    }
    // ladderd's "which one?" counts in the order it listed.
    let s = Session::new();
    assert_eq!(said(&s.say("table for 2", &times())), "clarify t6, t7, t8 (fallback, -)");
    assert_eq!(said(&s.say("the second... no, the third", &times())), "execute t8 (reply, self_correction)");
    // What follows the take-back is no choice: not this room's.
    assert_ne!(Session::new().say("the first... no wait, never mind", &choice).outcome, Outcome::Execute);
}

/// How one side of the reply chooses: a position (a word, a digit, "option
/// n") or a colour only that sweater shows; `Purple` shows on none.
#[derive(Debug, Clone, Copy)]
enum Pick {
    Place(usize, u8),
    Colour(usize),
    Purple,
}

const COLOURS: [&str; 3] = ["blue", "green", "red"];
const IDS: [&str; 3] = ["blue", "green", "red"];

impl Pick {
    fn text(self) -> String {
        match self {
            Pick::Place(k, 0) => format!("the {}", ["first", "second", "third"][k]),
            Pick::Place(k, 1) => (k + 1).to_string(),
            Pick::Place(k, _) => format!("option {}", k + 1),
            Pick::Colour(k) => format!("the {} one", COLOURS[k]),
            Pick::Purple => "the purple one".into(),
        }
    }
    fn entry(self) -> Option<usize> {
        match self {
            Pick::Place(k, _) | Pick::Colour(k) => Some(k),
            Pick::Purple => None,
        }
    }
}

fn a_pick() -> impl Strategy<Value = Pick> {
    prop_oneof![4 => (0usize..3, 0u8..3).prop_map(|(k, f)| Pick::Place(k, f)), 3 => (0usize..3).prop_map(Pick::Colour), 1 => Just(Pick::Purple)]
}

/// What comes after the take-back: the choice alone, negated, or two
/// choices.
#[derive(Debug, Clone, Copy)]
enum After {
    Alone,
    Negated,
    Two(usize),
}

/// A reply that corrects itself over three sweaters (the app's "which
/// one?" or a plain screen, the red one `RISK_HIGH` or not): it never
/// executes the option it takes back unless it chooses it again; after a
/// negation ("no, not the third"), two options named, or a word no option
/// has, it executes nothing; a `RISK_HIGH` option chosen by its colour
/// is never executed. Counted: the last choice, when it names one
/// option of normal risk on "which one?", executes.
#[test]
fn a_reply_that_corrects_itself_never_executes_what_it_took_back() {
    let branches = Branches::default();
    let cases = (
        a_pick(),
        a_pick(),
        prop::sample::select(vec!["... no wait, ", ", sorry, ", " - sorry, ", ", actually no ", ". no, ", " no I mean "]),
        prop_oneof![4 => Just(After::Alone), 1 => Just(After::Negated), 1 => (0usize..3).prop_map(After::Two)],
        any::<bool>(),
        any::<bool>(),
        // Words of acceptance or a reason after the last choice name
        // nothing: the choice stands as if said alone.
        prop::sample::select(vec!["", "", " is fine", " is better", ", works for me", " then, I'm in a hurry", " je préfère"]),
        prop::sample::select(vec!["", "", " for my sister", " for Biscuit"]),
    );
    check_cases(256, file!(), &cases, |(first, last, marker, after, choice, risky, ending, extra)| {
        let mut set = sweaters();
        if risky {
            let mut cands = set.candidates.to_vec();
            cands[2].risk = Risk::High;
            set.candidates = cands.into();
        }
        let set = if choice { asking(set, Asked::Choice) } else { set };
        let tail = match after {
            After::Alone => last.text(),
            After::Negated => format!("not {}", last.text()),
            // Another option than the last choice names.
            After::Two(k) => {
                let k = if last.entry() == Some(k) { (k + 1) % 3 } else { k };
                format!("{} or {}", last.text(), Pick::Colour(k).text())
            }
        };
        // Words that name nothing beside a colour taken back ("the blue
        // one for my sister") leave it the one taken back.
        let carried = if matches!(first, Pick::Colour(_)) { extra } else { "" };
        let input = format!("{}{carried}{marker}{tail}{ending}", first.text());
        let d = Session::new().say(&input, &set);
        let got = d.target_id.as_deref().filter(|_| d.outcome == Outcome::Execute);
        if let (Some(taken), Some(got)) = (first.entry(), got) {
            prop_assert!(got != IDS[taken] || last.entry() == Some(taken), "{:?} took back {}: {:?}", input, IDS[taken], d);
        }
        match (after, last) {
            (After::Negated, _) | (After::Two(_), _) | (_, Pick::Purple) => {
                prop_assert!(got.is_none(), "{:?}: {:?}", input, d);
                branches.hit("a negation, two named or nothing named: no execute");
            }
            (_, Pick::Colour(2)) if risky => {
                prop_assert!(got.is_none(), "{:?}: {:?}", input, d);
                branches.hit("high risk by a word: no execute");
            }
            (After::Alone, last) if choice && first.entry().is_some() && !(risky && last.entry() == Some(2)) => {
                prop_assert_eq!(got, last.entry().map(|k| IDS[k]), "{:?}: {:?}", input, d);
                branches.hit("the last choice executes");
            }
            _ => branches.hit("other"),
        }
        Ok(())
    });
    branches.expect(&[
        ("a negation, two named or nothing named: no execute", 40),
        ("high risk by a word: no execute", 5),
        ("the last choice executes", 40),
    ]);
}

/// Each side read with the words it carries: a conjunction the label
/// writes as a sign ("wash and fold" for "Wash & fold"), words that name
/// nothing beside the choice taken back ("for Rex", "my suit"), a noun in
/// another number ("his nails" for "Nail trim"), "this time" or "only"
/// after the last choice, and the everyday verb before it ("let's do the
/// ironing"). Two options named after the take-back are still asked.
#[test]
fn each_side_of_a_take_back_is_read_with_the_words_it_carries() {
    let lab = |id: &str, label: &str| Candidate::new(id, label);
    let care = screen(
        "care",
        vec![
            lab("wash", "Wash & fold"),
            lab("dry", "Dry cleaning"),
            lab("iron", "Ironing only"),
            lab("groom", "Full groom"),
            lab("nails", "Nail trim"),
        ],
    );
    for (input, want) in [
        ("wash and fold, sorry, the ironing", "execute iron"),
        ("full groom for Rex - no wait, just his nails this time", "execute nails"),
        ("dry cleaning for my suit... actually no, wash and fold only", "execute wash"),
        // The everyday verb of the last choice is its phrasing ("let's
        // do", "go with", "take").
        ("wash and fold. actually no, let's do the ironing", "execute iron"),
        ("the nails, sorry, i'll take the full groom", "execute groom"),
    ] {
        for set in [care.clone(), asking(care.clone(), Asked::Choice)] {
            assert_eq!(said(&Session::new().say(input, &set)), format!("{want} (reply, self_correction)"), "{input}");
        }
    }
    // So where the last choice is by a word of its sublabel only.
    let shows = screen(
        "shows",
        vec![
            Candidate { sublabel: "Screen 3".into(), ..lab("a", "7:10 pm") },
            Candidate { sublabel: "IMAX".into(), ..lab("b", "8:40 pm") },
            Candidate { sublabel: "Screen 3".into(), ..lab("c", "9:55 pm") },
        ],
    );
    for set in [shows.clone(), asking(shows, Asked::Choice)] {
        assert_eq!(said(&Session::new().say("7:10. actually no, let's do the imax one", &set)), "execute b (reply, self_correction)");
    }
    for input in ["wash and fold, sorry, ironing and nails", "dry cleaning for Rex, no, the wash or the nails"] {
        assert_ne!(Session::new().say(input, &care).outcome, Outcome::Execute, "{input}");
    }
}

/// Two take-backs: the side taken back last is the one between them
/// ("patel. no wait okafor. actually patel"); a last choice that names
/// several options, then words that name nothing, asks among them,
/// never the one taken back.
#[test]
fn the_choice_before_the_last_take_back_is_the_one_taken_back() {
    let lab = |id: &str, label: &str| Candidate::new(id, label);
    let slots = asking(
        screen("slots", vec![lab("p1", "Dr. Patel · Mon 9:00"), lab("ok", "Dr. Okafor · Mon 11:30"), lab("p2", "Dr. Patel · Wed 16:00")]),
        Asked::Choice,
    );
    for input in ["patel. no wait okafor. ugh actually patel, she knows biscuit", "okafor - no, patel, she is nice"] {
        let d = Session::new().say(input, &slots);
        assert_eq!(d.outcome, Outcome::Clarify, "{input}: {}", said(&d));
        let offered = d.clarifier.map(|c| c.option_ids).unwrap_or_default();
        assert_eq!(offered, ["p1", "p2"], "{input}");
    }
    assert_eq!(said(&Session::new().say("okafor. no wait, patel. no, okafor", &slots)), "execute ok (reply, self_correction)");
}

/// A take-back word with the same option named on both sides ("coffee no
/// sales a" over "Coffee sales A") takes nothing back for another: it is
/// a negation inside the request, and never executes (found by
/// `matching::words`' negation property in any language: "לא", "no").
#[test]
fn the_same_option_on_both_sides_of_a_take_back_is_no_self_correction() {
    let set = screen("sales", vec![Candidate::new("c0", "Budget"), Candidate::new("c1", "Coffee sales A")]);
    for input in ["coffee no sales a", "coffee לא sales a", "coffee sorry sales a"] {
        let d = Session::new().say(input, &set);
        assert_ne!(d.outcome, Outcome::Execute, "{input}: {}", said(&d));
    }
}

/// A take-back word with its accent as typed ("perdón", "plutôt") is
/// read as the word: the last choice stands.
#[test]
fn a_take_back_with_its_accent_is_read() {
    let choice = asking(shirts(), Asked::Choice);
    assert_eq!(said(&Session::new().say("2, perdón, 3", &choice)), "execute blue (reply, self_correction)");
    assert_eq!(said(&Session::new().say("2, perdon, 3", &choice)), "execute blue (reply, self_correction)");
}

/// What follows the last choice and names nothing ("the compact is fine",
/// "K is better", "plutôt 21h15 je finis tard") leaves it standing; a
/// time said in another language's words ("la de las ocho y media") or
/// with no am or pm ("make it 9:30" for 21:30) chooses as its digits do;
/// a tail that names another option or a value, or negates, does not.
#[test]
fn words_after_the_last_choice_that_name_nothing_leave_it_standing() {
    let cars = asking(
        screen(
            "cars",
            vec![c("small", "Small car", "Kia Picanto"), c("big", "Estate car", "Skoda Octavia"), c("bus", "Minibus", "9 seats")],
        ),
        Asked::Choice,
    );
    let shows = asking(
        screen("shows", vec![c("a", "Funció 18:00", "Sala 1"), c("b", "Funció 20:30", "Sala 3"), c("c", "Funció 22:45", "Sala 2")]),
        Asked::Choice,
    );
    for (input, set, want) in [
        ("the estate... no, actually the small one works for me", &cars, "execute small (reply, self_correction)"),
        ("minibus, sorry, estate is better honestly", &cars, "execute big (reply, self_correction)"),
        ("la de las seis... no, mejor la de las ocho y media", &shows, "execute b (reply, self_correction)"),
        ("the 6pm, actually make it 10:45", &shows, "execute c (reply, self_correction)"),
        ("celle de 18h... plutôt 22h45, je finis tard", &shows, "execute c (reply, self_correction)"),
    ] {
        assert_eq!(said(&Session::new().say(input, set)), want, "{input}");
    }
    for input in [
        "the estate... no, actually the small one, or the minibus",
        "the estate... no, the small one at 9",
        "minibus, sorry, estate is better, not small",
    ] {
        let d = Session::new().say(input, &cars);
        assert_ne!(d.outcome, Outcome::Execute, "{input}: {}", said(&d));
    }
}

/// A side that says a value the options show ("the 7:45", "tuesday", "the
/// 2pm") chooses the option showing it, written however the label writes
/// it; a side that names several ("economy" over "Economy" and "Economy
/// Plus") is taken back all the same; and a reason for the change between
/// the take-back and the choice ("too big", "that's too much") is passed
/// over. Whether a question was asked or not.
#[test]
fn values_and_reasons_on_either_side_of_a_take_back_are_read() {
    let lab = |id: &str, label: &str| Candidate::new(id, label);
    let flights = screen("flights", vec![lab("early", "07:45 · direct"), lab("mid", "12:30 · 1 stop"), lab("late", "18:10 · direct")]);
    let days = screen("days", vec![lab("tue", "Tue 4 Mar"), lab("wed", "Wed 5 Mar"), lab("thu", "Thu 6 Mar")]);
    let hours = screen("hours", vec![lab("h9", "9:00 AM"), lab("h11", "11:00 AM"), lab("h14", "2:00 PM")]);
    let pizzas = screen("pizzas", vec![lab("s", "Small 10in"), lab("m", "Medium 12in"), lab("l", "Large 14in")]);
    let cabins = screen("cabins", vec![lab("eco", "Economy"), lab("ecp", "Economy Plus"), lab("bus", "Business")]);
    for (input, set, want) in [
        ("the 7:45, no wait, the 18:10", &flights, "execute late"),
        ("tuesday no wait thursday", &days, "execute thu"),
        ("the 9am - sorry, I mean the 2pm", &hours, "execute h14"),
        ("large - actually no, too big, medium", &pizzas, "execute m"),
        ("economy... no, business", &cabins, "execute bus"),
        ("business... nah that's too much, economy plus", &cabins, "execute ecp"),
    ] {
        for set in [set.clone(), asking(set.clone(), Asked::Choice)] {
            assert_eq!(said(&Session::new().say(input, &set)), format!("{want} (reply, self_correction)"), "{input}");
        }
    }
    // Taken back and nothing chosen: never the one taken back.
    let d = Session::new().say("the 7:45 - no, hang on, not that", &flights);
    assert_eq!(d.outcome, Outcome::Clarify, "{}", said(&d));
    assert_ne!(d.clarifier.as_ref().map(|c| c.option_ids[0].as_str()), Some("early"), "{}", said(&d));
    // What the reason passes over names another option, or what follows
    // says only a sublabel's word: no choice of this room.
    let film = screen("film", vec![c("c1", "Play movie: JT LeRoy", "no subtitles")]);
    assert_ne!(Session::new().say("No, actually, I'd rather watch Stockholm. With subtitles, please.", &film).outcome, Outcome::Execute);
    let colours = screen("colours", vec![lab("r", "Red"), lab("g", "Green"), lab("b", "Blue")]);
    assert_ne!(Session::new().say("red... no, green or blue", &colours).outcome, Outcome::Execute);
}

/// "No" of a negation ("no longer") takes nothing back: "the
/// curry no longer budget report a" negates, and is never the budget
/// report chosen over the curry (found by the negation property once the
/// everyday verbs of a side were phrasing).
#[test]
fn the_no_of_a_negation_takes_nothing_back() {
    let set = screen("r", vec![Candidate::new("report", "curry budget report a"), Candidate::new("curry", "curry")]);
    for input in ["please show me the curry no longer budget report a", "the curry no longer budget report a"] {
        let d = Session::new().say(input, &set);
        assert_ne!(d.outcome, Outcome::Execute, "{input:?}: {}", said(&d));
    }
}
