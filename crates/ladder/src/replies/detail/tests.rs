//! The detail room end to end: a word or value only one offered option
//! shows picks it, and nothing else.

use crate::replies::tests::*;
use crate::testkit::{Branches, Session, check_cases};
use crate::types::*;
use proptest::prelude::*;

#[test]
fn a_detail_only_one_offered_option_shows_picks_it() {
    let s = Session::new();
    s.say("table for 2", &times());
    // A weekday an option shows is a value said another way: the match
    // rung reads it before the reply's detail does (matching/value_words).
    assert_eq!(said(&s.say("the saturday one", &times())), "execute t8 (deterministic, -)");
    assert_eq!(said(&Session::new().say("black", &asking(shirts(), Asked::Choice))), "execute black (reply, detail)");
}

#[test]
fn a_detail_two_offered_options_show_is_asked_again() {
    let s = Session::new();
    s.say("table for 2", &times());
    let d = s.say("the friday one", &times());
    assert_eq!(d.outcome, Outcome::Clarify, "{}", said(&d));
}

const DAYS: [&str; 3] = ["Friday", "Saturday", "Sunday"];

/// Detail: a day or an hour (or both) said of options
/// that show "Friday 7:00 pm" and the like picks an option only when it
/// is the one option that shows all it says; two or none showing it, it
/// executes nothing. After ladderd's "which one?", on the app's, or with
/// nothing asked ("the saturday one"). Counted: picks, and details two
/// or more options show.
#[test]
fn a_detail_picks_only_the_one_option_that_shows_it() {
    let branches = Branches::default();
    let options = prop::collection::vec((0usize..3, 5u32..=9), 2..=4);
    let said_of = (prop::option::of(0usize..3), prop::option::of(5u32..=9), 0u8..4)
        .prop_filter("says something", |(d, h, _)| d.is_some() || h.is_some());
    let cases = (options, said_of, 0u8..3);
    check_cases(CASES * 2, file!(), &cases, |(options, (day, hour, form), asked_by)| {
        let all: Vec<Candidate> =
            options.iter().enumerate().map(|(i, (d, h))| c(&format!("o{i}"), "Table for 2", &format!("{} {h}:00 pm", DAYS[*d]))).collect();
        let set = screen("tables", all);
        let day_word = day.map(|d| DAYS[d].to_lowercase());
        let input = match (&day_word, hour, form) {
            (Some(d), None, 0 | 1) => format!("the {d} one"),
            (Some(d), None, _) => d.clone(),
            (None, Some(h), 0) => format!("the {h}"),
            (None, Some(h), 1) => format!("the {h} pm one"),
            (None, Some(h), _) => format!("the one at {h} pm"),
            (Some(d), Some(h), 0 | 1) => format!("{d} at {h}"),
            (Some(d), Some(h), _) => format!("the {d} {h} pm one"),
            (None, None, _) => unreachable!(),
        };
        let fits: Vec<usize> =
            (0..options.len()).filter(|i| day.is_none_or(|d| options[*i].0 == d) && hour.is_none_or(|h| options[*i].1 == h)).collect();
        let s = Session::new();
        let d = match asked_by {
            0 => s.say(&input, &asking(set, Asked::Choice)),
            1 => {
                let first = s.say("table for 2", &set);
                prop_assert_eq!(first.clarifier.as_ref().map_or(0, |c| c.option_ids.len()), options.len(), "{}", said(&first));
                s.say(&input, &set)
            }
            _ => s.say(&input, &set),
        };
        let why = format!("{options:?} ({asked_by}): {input:?} came to {}", said(&d));
        match fits[..] {
            [one] => {
                if d.outcome == Outcome::Execute {
                    prop_assert_eq!(d.target_id.clone(), Some(format!("o{one}")), "{}", why);
                    branches.hit("picks the one");
                }
            }
            _ => {
                prop_assert_ne!(d.outcome, Outcome::Execute, "{}", why);
                if fits.len() > 1 {
                    branches.hit("two or more show it");
                }
            }
        }
        Ok(())
    });
    branches.expect(&[("picks the one", CASES as usize / 4), ("two or more show it", CASES as usize / 8)]);
}

/// A bare hour is no weekday: "the 6" over Friday and Sunday tables at
/// 5:00 pm names neither (it picked Sunday, the sixth day counted from
/// Monday at 0); "saturday at 5" names no table at Saturday 6:00 pm.
#[test]
fn a_bare_hour_is_no_weekday() {
    let tables = |a: &str, b: &str| screen("tables", vec![c("o0", "Table for 2", a), c("o1", "Table for 2", b)]);
    for (set, input) in [
        (tables("Friday 5:00 pm", "Sunday 5:00 pm"), "the 6"),
        (tables("Friday 6:00 pm", "Saturday 6:00 pm"), "the 5"),
        (tables("Friday 5:00 pm", "Saturday 6:00 pm"), "saturday at 5"),
    ] {
        let d = Session::new().say(input, &asking(set.clone(), Asked::Choice));
        assert_ne!(d.outcome, Outcome::Execute, "the app's question, {input:?}: {}", said(&d));
        let s = Session::new();
        s.say("table for 2", &set);
        let d = s.say(input, &set);
        assert_ne!(d.outcome, Outcome::Execute, "ladderd's question, {input:?}: {}", said(&d));
    }
}

/// Sweaters told apart by colour, one of them high risk in some screens.
fn sweaters(high_risk: Option<usize>) -> OptionSet {
    let mut cands =
        vec![c("blue", "Wool Sweater", "Blue · $60"), c("green", "Wool Sweater", "Green · $60"), c("red", "Wool Sweater", "Red · $65")];
    if let Some(k) = high_risk {
        cands[k].risk = Risk::High;
    }
    screen("sweaters", cands)
}

/// A choice that also asks: a clause that accounts for
/// one option ("the blue one", "option 2", "green"), then a question or a
/// request, executes it with the rest as its follow-up, as a yes does,
/// with or without `ASKED_CHOICE` (counted). It never executes on a word
/// that belongs to no option, a negation, two options named, a value that
/// differs, nor a `RISK_HIGH` option (asked about: the question escapes).
#[test]
fn a_choice_that_also_asks_executes_with_a_follow_up_and_nothing_else() {
    const COLOURS: &[&str] = &["blue", "green", "red"];
    const CHOICES: &[&str] = &["the {c} one", "{c}", "option {n}", "the {o} one", "{c} please"];
    const THEN: &[&str] = &[
        " - is it machine washable?",
        ", and can you gift-wrap it?",
        ". how long does shipping take?",
        " — does it run small?",
        ". does that one run small?",
        ", but is it machine washable?",
    ];
    const SPOILERS: &[&str] = &["", "not ", "purple ", "the $90 ", "{x} or "];
    let ordinals = ["first", "second", "third"];
    let cases = (
        0usize..3,
        prop::sample::select(CHOICES),
        prop::sample::select(THEN),
        prop::sample::select(SPOILERS),
        any::<bool>(),
        prop_oneof![Just(None), (0usize..3).prop_map(Some)],
    );
    let branches = Branches::default();
    check_cases(256, file!(), &cases, |(k, choice, then, spoiler, asked, high)| {
        let other = COLOURS[(k + 1) % 3];
        let choice = choice.replace("{c}", COLOURS[k]).replace("{n}", &(k + 1).to_string()).replace("{o}", ordinals[k]);
        let input = format!("{}{choice}{then}", spoiler.replace("{x}", other));
        let set = if asked { asking(sweaters(high), Asked::Choice) } else { sweaters(high) };
        let d = Session::new().say(&input, &set);
        if !spoiler.is_empty() {
            prop_assert_ne!(d.outcome, Outcome::Execute, "{:?}: {:?}", input, d);
            branches.hit("a spoiler: no execute");
        } else if high == Some(k) {
            prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} high risk: {:?}", input, d);
            branches.hit("high risk: no execute");
        } else if d.outcome == Outcome::Execute {
            prop_assert_eq!(d.target_id.as_deref(), Some(COLOURS[k]), "{:?}", input);
            let f = d.follow_up.clone();
            prop_assert!(f.is_some_and(|f| then.contains(f.text.as_str())), "{:?}: {:?}", input, d);
            branches.hit("the choice, with its follow-up");
        }
        Ok(())
    });
    branches.expect(&[("a spoiler: no execute", 150), ("high risk: no execute", 15), ("the choice, with its follow-up", 30)]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testkit::cases(96)))]

    /// A number with a sign answers "which one?" by the options that show
    /// it with its sign, never by another number a label or sublabel
    /// shows ("the +1 one" over flights arriving "+1" and one with "1
    /// stop"), nor by reading a label's last value with the sublabel's
    /// first word ("+1" then "nonstop" is no count of nonstops): where two
    /// show it, it is asked; an execute is only ever the one that shows it.
    #[test]
    fn a_signed_number_in_an_answer_is_its_value_alone(
        marks in prop::collection::vec(any::<bool>(), 2..=4),
        stops in prop::collection::vec(prop::sample::select(vec!["nonstop", "1 stop", "2 stops"]), 4),
        form in prop::sample::select(vec!["the +1 one", "+1", "the one arriving +1"]),
        asked in any::<bool>(),
    ) {
        let cands: Vec<Candidate> = marks
            .iter()
            .enumerate()
            .map(|(k, m)| c(&format!("f{k}"), &format!("Dep {}:15 – arr {}:40{}", 8 + k, 12 + k, if *m { " +1" } else { "" }), stops[k]))
            .collect();
        let set = screen("flights", cands);
        let set = if asked { asking(set, Asked::Choice) } else { set };
        let d = Session::new().say(form, &set);
        let marked: Vec<usize> = marks.iter().enumerate().filter(|(_, m)| **m).map(|(k, _)| k).collect();
        if let (Outcome::Execute, Some(id)) = (d.outcome, d.target_id.as_deref()) {
            prop_assert!(marked.len() == 1 && id == format!("f{}", marked[0]), "{:?} over {:?}: {}", form, marks, said(&d));
        }
        if marked.len() >= 2 {
            prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} over {:?}", form, marks);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testkit::cases(96)))]

    /// A first clause that says a listed option's whole label, its own
    /// "no" with it ("no extra bags, and email me the boarding pass"), is
    /// that choice with the rest as its follow-up; a "no" before another
    /// option's words ("no cabin bag, and ...") negates it and never
    /// executes. Counted by construction: the whole label always executes.
    #[test]
    fn a_label_that_says_no_is_a_choice_before_more(
        thing in prop::sample::select(vec![("extra bags", "checked bag"), ("insurance", "travel insurance"), ("dessert", "tiramisu")]),
        then in prop::sample::select(vec![", and email me the boarding pass please", ". can you text me the receipt?", " - and what time is boarding?"]),
        asked in any::<bool>(),
    ) {
        let (none, other) = thing;
        let set = screen(
            "extras",
            vec![c("add", &format!("Add {other}"), "€35"), c("more", "Add seat selection", "€12"), c("none", &format!("No {none}"), "")],
        );
        let set = if asked { asking(set, Asked::Choice) } else { set };
        let d = Session::new().say(&format!("no {none}{then}"), &set);
        prop_assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some("none")), "{}", said(&d));
        prop_assert!(d.follow_up.is_some(), "{}", said(&d));
        let d = Session::new().say(&format!("no {other}{then}"), &set);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{}", said(&d));
    }
}

/// A yes word inside the question after a choice ("does that one run
/// small?": "that one" says yes elsewhere) and a "but" that opens it
/// leave the choice a choice; a "but" or "though" elsewhere, asking for
/// something the option does not show, or naming another, does not.
#[test]
fn a_question_after_a_choice_may_say_that_one_or_open_with_but() {
    for input in ["the blue one. does that one run small?", "green, but is it machine washable?", "il blu, ma è di lana?"] {
        let colour = if input.starts_with("green") { "green" } else { "blue" };
        let set = if input.starts_with("il") {
            screen(
                "m",
                vec![c("blue", "Maglione", "blu · 60 €"), c("green", "Maglione", "verde · 60 €"), c("red", "Maglione", "rosso · 65 €")],
            )
        } else {
            sweaters(None)
        };
        let d = Session::new().say(input, &set);
        assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some(colour)), "{input:?}: {}", said(&d));
        assert_eq!(d.follow_up.map(|f| f.kind), Some(FollowUpKind::Question), "{input:?}");
    }
    for input in ["blue - do you have it in purple though?", "the blue one, but the green one instead", "blue, but not wool?"] {
        assert_ne!(Session::new().say(input, &sweaters(None)).outcome, Outcome::Execute, "{input:?}");
    }
}

/// What follows a choice is of its kind whatever word goes on into it:
/// a request to have something done ("and can you gift-wrap it?", "then
/// could you add a card?", "can I get it by friday?") is a request; a
/// question of a fact or asking leave ("and can it go in the dryer?",
/// "then is it wool?", "can I return it in store?") is a question.
#[test]
fn what_follows_a_choice_is_a_request_or_a_question_whatever_goes_on_into_it() {
    const OPEN: &[&str] = &["", "and ", "then ", "also ", "and then "];
    const REQUESTS: &[&str] = &["can you gift-wrap it?", "could you add a card?", "please add a gift receipt", "can i get it by friday?"];
    const QUESTIONS: &[&str] = &["can it go in the dryer?", "is it wool?", "does it run small?", "can i return it in store?"];
    let cases =
        (0usize..3, prop::sample::select(OPEN), any::<bool>(), 0usize..4, prop::sample::select(vec![", ", ". ", " - "]), any::<bool>());
    let branches = Branches::default();
    check_cases(128, file!(), &cases, |(k, open, request, n, sep, asked)| {
        const COLOURS: &[&str] = &["blue", "green", "red"];
        let then = if request { REQUESTS[n] } else { QUESTIONS[n] };
        let input = format!("the {} one{sep}{open}{then}", COLOURS[k]);
        let set = if asked { asking(sweaters(None), Asked::Choice) } else { sweaters(None) };
        let d = Session::new().say(&input, &set);
        prop_assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some(COLOURS[k])), "{:?}: {}", input, said(&d));
        let want = if request { FollowUpKind::Request } else { FollowUpKind::Question };
        prop_assert_eq!(d.follow_up.map(|f| f.kind), Some(want), "{:?}", input);
        branches.hit(if request { "a request" } else { "a question" });
        Ok(())
    });
    branches.expect(&[("a request", 40), ("a question", 40)]);
}

/// A choice whose whole label is a noun of what the screen lists, then a
/// question ("delivery please — how long will it take?" over "Delivery"
/// and "Pickup"); a hedge in the question ("¿cuánto cuesta más o
/// menos?") is no "or". A noun that is only a word of a label ("the card,
/// is it blocked?" over "Freeze card") or two options named ask nothing
/// of the choice: no execute.
#[test]
fn a_whole_label_that_is_a_noun_of_the_kind_is_a_choice_before_a_question() {
    let fulfilment = screen("f", vec![c("a", "Delivery", "€2.99 fee"), c("b", "Pickup", "free")]);
    let d = Session::new().say("delivery please — how long will it take?", &fulfilment);
    assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some("a")), "{}", said(&d));
    assert_eq!(d.follow_up.map(|f| (f.kind, f.text)), Some((FollowUpKind::Question, "how long will it take?".to_string())));
    let d = Session::new().say("delivery or pickup, which is faster?", &fulfilment);
    assert_ne!(d.outcome, Outcome::Execute, "{}", said(&d));
    let cards = screen("c", vec![c("f", "Freeze card", ""), c("x", "Close account", ""), c("s", "Statements", "")]);
    let d = Session::new().say("the card, is it blocked?", &cards);
    assert_ne!(d.outcome, Outcome::Execute, "{}", said(&d));
    let rides =
        screen("r", vec![c("e", "Económico", "llega en 4 min"), c("k", "Confort", "llega en 6 min"), c("x", "XL", "llega en 9 min")]);
    let d = Session::new().say("el confort, ¿cuánto cuesta más o menos?", &rides);
    assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some("k")), "{}", said(&d));
    assert_ne!(Session::new().say("el confort o el XL", &rides).outcome, Outcome::Execute);
}

/// An acknowledgement before a choice, with nothing proposed ("ok the
/// navy one then. do you have it in L?"), says yes to nothing: the choice
/// executes with its question. A yes that accepts ("yes, the navy one.
/// ...") or a choice that names two is read as before.
#[test]
fn an_acknowledgement_before_a_choice_then_a_question_is_the_choice() {
    let jackets = screen("j", vec![c("r", "Rain jacket", "red"), c("n", "Rain jacket", "navy"), c("f", "Fleece", "grey")]);
    let d = Session::new().say("ok the navy one then. do you have it in L?", &jackets);
    assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some("n")), "{}", said(&d));
    assert_eq!(d.follow_up.map(|f| f.kind), Some(FollowUpKind::Question));
    let d = Session::new().say("ok the navy or the red one. do you have it in L?", &jackets);
    assert_ne!(d.outcome, Outcome::Execute, "{}", said(&d));
}

/// A negation alone to "which one?" ("not the blue one"): where it leaves
/// exactly one offered option, that one (counted), confirmed when it is
/// `RISK_HIGH`; never an option it names, never where it leaves two,
/// never on a plain screen (a negation offers the others), and never
/// where an option's label says the negation ("Don't Stop Me Now").
#[test]
fn a_negation_alone_to_a_choice_of_two_is_the_other() {
    let branches = Branches::default();
    let cases = (0usize..3, 0usize..3, any::<bool>(), 0usize..4, prop::sample::select(vec!["not the {c} one", "not {c}", "not the {c}"]));
    check_cases(96, file!(), &cases, |(first, second, risky, shape, form)| {
        prop_assume!(first != second);
        const COLOURS: &[&str] = &["blue", "green", "red"];
        let all = sweaters(risky.then_some(second)).candidates;
        let two = vec![all[first].clone(), all[second].clone()];
        let input = form.replace("{c}", COLOURS[first]);
        let set = match shape {
            0 => asking(screen("two", two), Asked::Choice),
            1 => asking(screen("three", all.to_vec()), Asked::Choice),
            2 => screen("two", two),
            _ => asking(screen("songs", vec![c("dsmn", "Don't Stop Me Now", "Queen"), c("up", "Under Pressure", "Queen")]), Asked::Choice),
        };
        let input = if shape == 3 { "don't stop me now".to_string() } else { input };
        let d = Session::new().say(&input, &set);
        let other = &set.candidates.iter().find(|c| c.id != set.candidates[0].id).unwrap().id;
        match shape {
            0 if risky => {
                prop_assert_ne!(d.outcome, Outcome::Execute, "{:?}: {}", input, said(&d));
                prop_assert_eq!(d.clarifier.map(|c| c.option_ids), Some(vec![other.clone()]), "{:?}", input);
                branches.hit("the one left, high risk: confirmed");
            }
            0 => {
                prop_assert_eq!((d.outcome, d.target_id.as_ref()), (Outcome::Execute, Some(other)), "{:?}", input);
                branches.hit("the one left executes");
            }
            3 => prop_assert_eq!(d.target_id.as_deref(), Some("dsmn"), "{:?}: {}", input, said(&d)),
            _ => prop_assert_ne!(d.outcome, Outcome::Execute, "{:?}: {}", input, said(&d)),
        }
        Ok(())
    });
    branches.expect(&[("the one left executes", 5), ("the one left, high risk: confirmed", 3)]);
}

/// To "which one?", a count of a noun names the option that is the noun,
/// never a bundle that counts it among more ("3 avocados" is not
/// "Guacamole kit: 3 avocados, lime, chili"), though only the bundle
/// shows the count.
#[test]
fn a_count_to_a_choice_names_its_noun_never_a_bundle() {
    let groceries = asking(
        screen(
            "groceries",
            vec![
                c("avo", "Avocado", "€1.20 each"),
                c("kit", "Guacamole kit: 3 avocados, lime, chili", "€4.99"),
                c("lime", "Lime", "€0.40 each"),
            ],
        ),
        Asked::Choice,
    );
    assert_eq!(said(&Session::new().say("3 avocados", &groceries)), "execute avo (deterministic, -)");
    assert_eq!(said(&Session::new().say("plus 2 limes", &groceries)), "execute lime (deterministic, -)");
    assert_eq!(said(&Session::new().say("the kit", &groceries)), "execute kit (deterministic, -)");
}

/// A choice two options fit, then a question ("the salmon, is it
/// spicy?" over "Grilled salmon" and "Salmon poke bowl"): which one is
/// asked first, among those two; one option fitting it executes with the
/// question as a follow-up.
#[test]
fn a_choice_two_options_fit_then_a_question_asks_which() {
    let set = screen("dishes", vec![c("a", "Grilled salmon", ""), c("b", "Salmon poke bowl", ""), c("c", "Mushroom risotto", "")]);
    assert_eq!(said(&Session::new().say("the salmon, is it spicy?", &set)), "clarify a, b (reply, detail)");
    let d = Session::new().say("the risotto, is it spicy?", &set);
    assert_eq!((said(&d), d.follow_up.map(|f| f.kind)), ("execute c (reply, detail)".to_string(), Some(FollowUpKind::Question)));
}

/// "OK, the van then - can I return it at the airport?": an
/// acknowledgement in a sentence of its own before the choice says yes to
/// nothing; the choice then the question executes with a follow-up. Dutch
/// "van" ("of") is still the label's word where a label says it.
#[test]
fn an_acknowledgement_in_a_sentence_of_its_own_before_a_choice_then_a_question() {
    let cars =
        screen("cars", vec![c("a", "Compact · Toyota Yaris", ""), c("b", "SUV · Kia Sportage", ""), c("c", "Van · Ford Transit", "")]);
    for input in
        ["OK, the van then — can I return it at the airport?", "the van - can I return it at the airport?", "ok. the suv, is it automatic?"]
    {
        let d = Session::new().say(input, &cars);
        assert_eq!(d.outcome, Outcome::Execute, "{input}: {}", said(&d));
        assert_eq!(d.follow_up.map(|f| f.kind), Some(FollowUpKind::Question), "{input}");
    }
    let menu = screen("menu", vec![c("cb", "Cheeseburger", "$8.50"), c("coke", "Coke", "$2.50"), c("diet", "Diet Coke", "$2.50")]);
    assert_eq!(said(&Session::new().say("a coke, not diet", &menu)), "execute coke (deterministic, detail)");
}

/// The other languages' acknowledgements and everyday verbs: "va bene,
/// prendo la galleria. C'è l'ascensore?" picks the gallery with a question.
#[test]
fn an_acknowledgement_and_a_choice_in_italian() {
    let seats = screen("posti", vec![c("a", "Platea · fila F", "48 €"), c("b", "Galleria · fila B", "32 €"), c("c", "Palco 3", "60 €")]);
    let d = Session::new().say("va bene, prendo la galleria. C'è l'ascensore?", &seats);
    assert_eq!((said(&d), d.follow_up.map(|f| f.kind)), ("execute b (reply, detail)".to_string(), Some(FollowUpKind::Question)));
    assert_eq!(said(&Session::new().say("prendo la galleria", &seats)), "execute b (deterministic, -)");
}

/// "The plain one" in the lexicon's languages ("the regular one", "die
/// normale", "la normal", "le classique"): of options that are one and
/// the same with extras, the one without. Where no label is held by every
/// other's, or the word is no plain word, nothing is picked.
#[test]
fn the_plain_one_in_any_language_is_the_one_without_extras() {
    let lab = |id: &str, label: &str| Candidate::new(id, label);
    let milk = screen("milk", vec![lab("oat", "Hafermilch 1 l"), lab("barista", "Hafermilch Barista 1 l"), lab("xl", "Hafermilch 1 l XL")]);
    for input in ["the regular one", "die normale", "la normal", "le classique", "quella normale", "a normal", "de gewone"] {
        assert_eq!(said(&Session::new().say(input, &milk)), "execute oat (reply, detail)", "{input}");
    }
    let two = screen("two", vec![lab("a", "Hafermilch Barista"), lab("b", "Hafermilch Bio"), lab("c", "Mandelmilch")]);
    for input in ["die normale", "the regular one"] {
        assert_ne!(Session::new().say(input, &two).outcome, Outcome::Execute, "{input}");
    }
    assert_ne!(Session::new().say("die kleine", &milk).outcome, Outcome::Execute);
}

/// A choice by a sublabel's word said as "the ... one", then a question,
/// where another option's sublabel says "the" ("next to the showers"):
/// "one" is no position and "the" no word of that option; the choice
/// executes with its question. A second option named still asks.
#[test]
fn a_sublabel_word_said_as_the_one_then_a_question_is_the_choice() {
    let pitches = screen(
        "p",
        vec![c("a", "Pitch 14", "riverside, electric hook-up"), c("b", "Pitch 22", "woodland"), c("c", "Pitch 31", "next to the showers")],
    );
    for (input, want) in [("the riverside one — does it get any shade?", "a"), ("the woodland one, can you add a tent?", "b")] {
        let d = Session::new().say(input, &pitches);
        assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some(want)), "{input}: {}", said(&d));
        assert!(d.follow_up.is_some(), "{input}");
    }
    for input in ["the riverside one, or the woodland?", "the riverside one, is it next to the showers?"] {
        assert_ne!(Session::new().say(input, &pitches).outcome, Outcome::Execute, "{input}");
    }
}

/// A choice by a value in another form, then a question or a request
/// ("wednesday at 11, and can you text me when it's ready?" over "Mon
/// 9:00", "Mon 14:00", "Wed 11:00"): the option that shows that value,
/// with its follow-up. A value two options show, or none, asks.
#[test]
fn a_choice_by_a_value_said_another_way_then_a_question_is_the_choice() {
    let slots = screen("s", vec![c("a", "Mon 9:00", ""), c("b", "Mon 14:00", ""), c("c", "Wed 11:00", "")]);
    let d = Session::new().say("wednesday at 11, and can you text me when it's ready?", &slots);
    assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some("c")), "{}", said(&d));
    assert!(d.follow_up.is_some());
    assert_ne!(Session::new().say("monday, can you text me?", &slots).outcome, Outcome::Execute);
    assert_ne!(Session::new().say("tuesday at 11, can you text me?", &slots).outcome, Outcome::Execute);
    assert_ne!(Session::new().say("wednesday at 10, can you text me?", &slots).outcome, Outcome::Execute);
}

/// Over generated slot screens, "<weekday> at <hour>, <question>" executes
/// only the one slot that shows that day and hour, never another.
#[test]
fn a_choice_by_a_value_then_a_question_never_executes_another_value() {
    const DAYS: &[(&str, &str)] = &[("Mon", "monday"), ("Tue", "tuesday"), ("Wed", "wednesday"), ("Thu", "thursday")];
    let cases = (prop::collection::vec((0usize..4, 8u32..18), 2..=5), 0usize..4, 8u32..18);
    let branches = Branches::default();
    check_cases(128, file!(), &cases, |(slots, day, hour)| {
        let set =
            screen("s", slots.iter().enumerate().map(|(i, (d, h))| c(&format!("s{i}"), &format!("{} {h}:00", DAYS[*d].0), "")).collect());
        let input = format!("{} at {hour}, can you text me when it's ready?", DAYS[day].1);
        let d = Session::new().say(&input, &set);
        let fitting: Vec<String> =
            slots.iter().enumerate().filter(|(_, (d, h))| *d == day && *h == hour).map(|(i, _)| format!("s{i}")).collect();
        if d.outcome == Outcome::Execute {
            prop_assert!(fitting.len() == 1 && d.target_id.as_ref() == Some(&fitting[0]), "{:?} over {:?}: {}", input, slots, said(&d));
            branches.hit("the one slot executes");
        }
        Ok(())
    });
    branches.expect(&[("the one slot executes", 8)]);
}
