//! A yes with more (the module's doc): whole turns through the ladder,
//! each property counting the branch it checks.

use crate::continuity::ActionOutcome;
use crate::testkit::{Branches, Session, check_cases};
use crate::types::*;
use proptest::prelude::*;

fn c(id: &str, label: &str, sublabel: &str) -> Candidate {
    Candidate { sublabel: sublabel.into(), ..Candidate::new(id, label) }
}

fn screen(name: &str, candidates: Vec<Candidate>, asked: Asked) -> OptionSet {
    OptionSet { option_set_id: name.into(), scope: Scope::Chat, candidates: candidates.into(), asked, ..Default::default() }
}

fn booking(asked: Asked) -> OptionSet {
    screen("booking", vec![c("book", "Book a table for 2", "Friday 7:00 pm")], asked)
}

const YESES: &[&str] = &["Yes", "Sounds good", "Perfect", "Yes, that's correct", "That works for me", "Great", "Yep, sounds right"];

/// What follows the yes, and what kind of follow-up it is.
const QUESTIONS: &[&str] = &[
    "What's their address?",
    "Do they serve alcohol?",
    "How much will it cost?",
    "When am I free that day?",
    "Can you tell me if they have parking?",
];
const REQUESTS: &[&str] =
    &["Can you also book me a cab there?", "I need a hotel nearby too.", "Now add it to my calendar.", "Please send me a reminder."];

fn proposed(setting: u8) -> (Session, OptionSet) {
    let s = Session::new();
    match setting {
        0 => (s, booking(Asked::Confirmation)),
        1 => (s, booking(Asked::Unspecified)),
        _ => {
            // ladderd's clarifier that offered the booking alone.
            let d = s.say("hello", &booking(Asked::Unspecified));
            assert_eq!(d.outcome, Outcome::Clarify, "{d:?}");
            (s, booking(Asked::Unspecified))
        }
    }
}

/// `Decision.follow_up`: a yes in a sentence of its own
/// to a normal-risk option proposed (the app's confirmation, a screen of
/// one action, ladderd's one-option clarifier), then a question or a
/// request: the option executes and the rest comes back as typed, of its
/// kind. Half a turn is never dropped.
#[test]
fn a_yes_then_a_question_or_a_request_executes_and_hands_back_the_rest() {
    let branches = Branches::default();
    let cases = (0u8..3, prop::sample::select(YESES), any::<bool>(), 0usize..5, prop::sample::select(vec![". ", ", ", "! "]));
    check_cases(192, file!(), &cases, |(setting, yes, question, k, sep)| {
        let rest = if question { QUESTIONS[k % QUESTIONS.len()] } else { REQUESTS[k % REQUESTS.len()] };
        let input = format!("{yes}{sep}{rest}");
        let (s, set) = proposed(setting);
        let d = s.say(&input, &set);
        prop_assert_eq!(d.outcome, Outcome::Execute, "{:?}: {:?}", input, d);
        let f = d.follow_up.clone();
        prop_assert!(f.is_some(), "{:?}: no follow-up", input);
        let f = f.unwrap();
        prop_assert_eq!(f.text.as_str(), rest, "{:?}", input);
        let want = if question { FollowUpKind::Question } else { FollowUpKind::Request };
        prop_assert_eq!(f.kind, want, "{:?}", input);
        branches.hit(if question { "question" } else { "request" });
        Ok(())
    });
    branches.expect(&[("question", 40), ("request", 40)]);
}

/// A `RISK_HIGH` option is never executed on a yes that asks about it:
/// the question is handed back (`question_intent`), ladderd's confirmation
/// stays pending, and a plain yes then executes it.
#[test]
fn a_high_risk_option_is_not_executed_on_a_yes_that_asks_about_it() {
    let cards = screen(
        "cards",
        vec![c("freeze", "Freeze Card", ""), Candidate { risk: Risk::High, ..c("close", "Close Account", "") }],
        Asked::Unspecified,
    );
    for q in QUESTIONS {
        let s = Session::new();
        assert_eq!(s.say("close", &cards).clarifier.map(|c| c.kind), Some(PendingClarifier::Confirmation));
        let d = s.say(&format!("Yes. {q}"), &cards);
        assert_eq!((d.outcome, d.escape_reason), (Outcome::Escape, Some(EscapeReason::QuestionIntent)), "{q}: {d:?}");
        let d = s.say("yes", &cards);
        assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some("close")), "{q}: then yes");
    }
}

/// An item offered alone (a hotel found), on a plain screen or as the
/// app's "which one?" of one: offered, not asked about.
fn offered(setting: u8) -> (Session, OptionSet) {
    let hotel = c("marina", "Hotel Marina", "2 nights · Sat 12 Oct · €240");
    let asked = if setting == 3 { Asked::Unspecified } else { Asked::Choice };
    (Session::new(), screen("hotels", vec![hotel], asked))
}

/// An acknowledgement ("ok", "alright", "I see", "great", "cool") before
/// a new search, a request for more, for another one of the kind or for
/// another value never executes, whatever was proposed or offered (an
/// item alone, the app's "which one?" of one, a confirmation, ladderd's
/// clarifier); before a request of its own, after a confirmation, it does
/// (counted).
#[test]
fn an_acknowledgement_before_a_search_never_executes() {
    const ACKS: &[&str] = &["Ok", "Okay", "Alright", "OK then", "I see", "Got it", "Thanks", "Great", "Cool", "Nice"];
    const SEARCHES: &[&str] = &[
        "Could you look in Walnut Creek?",
        "Could you look in Walnut Creek instead?",
        "What about next Friday?",
        "How about Saturday instead?",
        "Keep looking.",
        "Anything else?",
        "Are there any other restaurants?",
        "Show me something different.",
        "Is there anything cheaper?",
        "Try the day after.",
        "Then find me one with a pool.",
        "Something near the station?",
        "Can you find ones that allow pets?",
        "Show me a few more like it.",
    ];
    let branches = Branches::default();
    let cases = (0u8..5, prop::sample::select(ACKS), prop::sample::select(SEARCHES), prop::sample::select(vec![". ", ", "]));
    let set_for = |setting: u8| if setting < 3 { proposed(setting) } else { offered(setting) };
    check_cases(256, file!(), &cases, |(setting, ack, search, sep)| {
        let (s, set) = set_for(setting);
        let input = format!("{ack}{sep}{search}");
        let d = s.say(&input, &set);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?}: {:?}", input, d);
        branches.hit(if setting < 3 { "a search: no execute" } else { "a search after an offer: no execute" });
        let (s, set) = proposed(setting % 3);
        if s.say(&format!("{ack}. Can you book me a cab there?"), &set).outcome == Outcome::Execute {
            branches.hit("a request of its own: the yes");
        }
        Ok(())
    });
    branches.expect(&[("a search: no execute", 100), ("a search after an offer: no execute", 60), ("a request of its own: the yes", 100)]);
}

/// After an offer (an item shown alone, the app's "which one?" of one),
/// an acknowledgement alone ("ok", "great", "cool", "I see") followed by a
/// request or a question of any kind never executes, with or without a
/// follow-up: "great, could you also check flights?" chooses no hotel. The
/// same words after a confirmation keep the yes (a follow-up), and a yes
/// that accepts ("that works for me") keeps it after an offer (counted).
#[test]
fn an_acknowledgement_then_a_request_or_a_question_is_no_yes_to_an_offer() {
    const ACKS: &[&str] = &["Ok", "Okay", "Alright", "All right", "I see", "Great", "Cool", "Nice", "OK then", "Got it", "Ok great"];
    const THEN: &[&str] = &[
        "Could you also check flights?",
        "Can you book me a cab there?",
        "I need a restaurant nearby too.",
        "Now add it to my calendar.",
        "What's their address?",
        "Is it pet friendly?",
        "When am I free that day?",
        "Tell me what times I have available.",
        "Please send me a reminder.",
        "How much is parking?",
    ];
    let branches = Branches::default();
    let cases = (3u8..5, prop::sample::select(ACKS), prop::sample::select(THEN), prop::sample::select(vec![". ", ", ", "! ", " - "]));
    check_cases(192, file!(), &cases, |(setting, ack, then, sep)| {
        let input = format!("{ack}{sep}{then}");
        let (s, set) = offered(setting);
        let d = s.say(&input, &set);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} after an offer: {:?}", input, d);
        branches.hit("an offer: no execute");
        let (s, set) = proposed(0);
        let d = s.say(&input, &set);
        if d.outcome == Outcome::Execute && d.follow_up.is_some() {
            branches.hit("a confirmation: the yes and a follow-up");
        }
        let (s, set) = offered(setting);
        let d = s.say(&format!("That works for me{sep}{then}"), &set);
        if d.outcome == Outcome::Execute && d.follow_up.is_some() {
            branches.hit("an offer accepted: the yes and a follow-up");
        }
        Ok(())
    });
    branches.expect(&[
        ("an offer: no execute", 192),
        ("a confirmation: the yes and a follow-up", 60),
        ("an offer accepted: the yes and a follow-up", 40),
    ]);
}

/// To a `RISK_HIGH` option, the app's confirmation or ladderd's, an
/// acknowledgement alone ("ok", "noted", "got it") before a request or a
/// question of the user's pays for nothing ("ok, noted. check my bill"
/// to "Upgrade to Fiber 500?"); a yes that accepts, and then a plain yes,
/// still do (counted).
#[test]
fn an_acknowledgement_then_more_never_executes_a_high_risk_option() {
    const ACKS: &[&str] = &["Ok", "Okay, noted", "Alright", "Noted", "I see", "Got it", "OK then", "Understood", "Cool"];
    const THEN: &[&str] =
        &["Check my bill.", "Can you test my line speed?", "What's included?", "Send me the invoice.", "I also need a new router."];
    let upgrade = |asked| screen("plan", vec![Candidate { risk: Risk::High, ..c("fiber", "Upgrade to Fiber 500", "$59/mo") }], asked);
    let branches = Branches::default();
    let cases = (any::<bool>(), prop::sample::select(ACKS), prop::sample::select(THEN), prop::sample::select(vec![". ", ", ", " - "]));
    check_cases(128, file!(), &cases, |(app_asked, ack, then, sep)| {
        let s = Session::new();
        let set = if app_asked {
            upgrade(Asked::Confirmation)
        } else {
            let set = upgrade(Asked::Unspecified);
            let d = s.say("upgrade", &set);
            prop_assert_eq!(d.clarifier.map(|c| c.kind), Some(PendingClarifier::Confirmation));
            set
        };
        let input = format!("{ack}{sep}{then}");
        let d = s.say(&input, &set);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?}: {:?}", input, d);
        branches.hit("an acknowledgement: no execute");
        if s.say(&format!("Yes{sep}{then}"), &set).outcome == Outcome::Execute {
            branches.hit("a yes: executed");
        }
        Ok(())
    });
    branches.expect(&[("an acknowledgement: no execute", 128), ("a yes: executed", 60)]);
}

/// To anything proposed, a confirmation too, an acknowledgement alone
/// ("got it", "I see", "ok") then a question of what the app has or
/// sells that names nothing of the option ("got it. do you have this
/// laptop in silver?", "verstanden. haben Sie auch Gutscheine?") asks
/// before it accepts: that question, never an execute. A yes with the
/// same question after it executes, the question handed back (counted).
#[test]
fn an_acknowledgement_then_a_question_of_what_they_have_is_that_question() {
    const ACKS: &[&str] = &["Got it", "I see", "Ok", "Okay", "Noted", "Understood", "Alright", "Verstanden", "Entendido", "D'accord"];
    const ASKS: &[&str] = &[
        "Do you have this laptop in silver?",
        "Do you sell gift cards?",
        "Have you got a vegan menu?",
        "Do you guys carry phone chargers?",
        "Do you offer student discounts?",
        "Haben Sie auch Gutscheine?",
        "¿Tienen menú infantil?",
        "Vous avez des places en terrasse ?",
    ];
    let branches = Branches::default();
    let cases = (0u8..3, prop::sample::select(ACKS), prop::sample::select(ASKS), prop::sample::select(vec![". ", ", ", " - "]));
    check_cases(128, file!(), &cases, |(setting, ack, ask, sep)| {
        let input = format!("{ack}{sep}{ask}");
        let (s, set) = proposed(setting);
        let d = s.say(&input, &set);
        prop_assert_eq!((d.outcome, d.escape_reason), (Outcome::Escape, Some(EscapeReason::QuestionIntent)), "{:?}: {:?}", input, d);
        branches.hit("an acknowledgement: that question");
        let (s, set) = proposed(setting);
        let d = s.say(&format!("Yes{sep}{ask}"), &set);
        if d.outcome == Outcome::Execute && d.follow_up.is_some() {
            branches.hit("a yes: executed, the question handed back");
        }
        Ok(())
    });
    branches.expect(&[("an acknowledgement: that question", 128), ("a yes: executed, the question handed back", 40)]);
}

fn number_word(n: u32) -> &'static str {
    ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"][n as usize]
}

/// A number word is a value wherever a digit is. A
/// confirmation of m tickets (rooms, people, nights) answered with
/// another count in words never executes; the same count in words
/// confirms it (counted).
#[test]
fn a_number_word_is_a_value_where_a_digit_is() {
    let branches = Branches::default();
    let cases = (
        1u32..=12,
        prop_oneof![1u32..=12, Just(0)],
        prop::sample::select(vec!["ticket", "room", "night", "seat"]),
        prop::sample::select(vec!["please get just {n} {x}", "make it {n} {x}", "yes, {n} {x}", "only {n} {x}", "{n} {x} please"]),
    );
    check_cases(192, file!(), &cases, |(m, n, noun, form)| {
        // 0: the count the option shows.
        let n = if n == 0 { m } else { n };
        let set = screen("tix", vec![c("t", &format!("Buy {noun}s"), &format!("{m} {noun}s · Friday"))], Asked::Confirmation);
        let plural = if n == 1 { noun.to_string() } else { format!("{noun}s") };
        let input = form.replace("{n}", number_word(n)).replace("{x}", &plural);
        let d = Session::new().say(&input, &set);
        if n != m {
            prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} to {} {}s: {:?}", input, m, noun, d);
            branches.hit("another count: no execute");
        } else if d.outcome == Outcome::Execute {
            branches.hit("the count shown: executes");
        }
        Ok(())
    });
    branches.expect(&[("another count: no execute", 45), ("the count shown: executes", 8)]);
}

/// An acknowledgement alone ("thanks", "good to know") to an option
/// proposed of normal risk selects it; the app's REJECTED of it makes it
/// no yes (refusals stick).
#[test]
fn a_closing_acknowledges_the_proposal_but_not_a_refused_one() {
    for thanks in ["Thanks", "Thank you, that's all", "Good to know.", "thx that's all"] {
        let d = Session::new().say(thanks, &booking(Asked::Unspecified));
        assert_eq!((d.outcome, d.target_id.as_deref()), (Outcome::Execute, Some("book")), "{thanks}");
        let s = Session::new();
        s.record("book", "booking", ActionOutcome::Rejected);
        assert_ne!(s.say(thanks, &booking(Asked::Unspecified)).outcome, Outcome::Execute, "{thanks} after a rejection");
    }
}
