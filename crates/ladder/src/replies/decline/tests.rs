//! The decline room end to end: a no never executes what was proposed;
//! what it names instead is read again.

use crate::replies::tests::*;
use crate::testkit::{Branches, Session, check_cases};
use crate::types::*;
use proptest::prelude::*;

#[test]
fn decline_with_what_is_wanted_instead_executes_that() {
    let s = Session::new();
    s.say("close", &cards());
    assert_eq!(said(&s.say("no, just freeze the card", &cards())), "execute freeze (deterministic, decline)");
}

#[test]
fn decline_escapes_declined() {
    assert_eq!(said(&Session::new().say("no", &asking(booking(), Asked::Confirmation))), "escape declined (reply, decline)");
    let s = Session::new();
    s.say("links panel", &panels());
    assert_eq!(said(&s.say("none of these", &panels())), "escape declined (reply, decline)");
    let s = Session::new();
    s.say("close", &cards());
    assert_eq!(said(&s.say("nope", &cards())), "escape declined (reply, decline)");
}

const DECLINES: &[&str] = &[
    "no",
    "nope",
    "nah",
    "not quite",
    "no thanks",
    "no thank you",
    "not really",
    "something else",
    "anything else?",
    "none of these",
    "none of those",
    "neither",
    "any other options?",
    "show me more",
    "i don't think so",
    "nope, something else",
    "no, not that",
    "no way",
    "not exactly",
    "other options please",
];

/// Decline: a refusal never executes, whatever was
/// asked or proposed (or nothing); when something was, it escapes
/// `declined` (counted).
#[test]
fn a_decline_never_executes() {
    let branches = Branches::default();
    let cases = (prop::sample::select(&Asking::ALL[..]), one_of(DECLINES), one_of(&["", "ugh ", "hmm, ", "oh "]), one_of(&["", ".", "!"]));
    check_cases(CASES * 2, file!(), &cases, |(asking, no, before, after)| {
        let (s, set, _) = asking.set_up();
        let input = format!("{before}{no}{after}");
        let d = s.say(&input, &set);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?}: {:?} came to {}", asking, input, said(&d));
        if kind(&d) == Some("decline") && d.handled_by_tier == Tier::Reply {
            branches.hit("read as a decline");
            if asking.asks() {
                prop_assert_eq!(d.escape_reason, Some(EscapeReason::Declined), "{:?}: {:?} came to {}", asking, input, said(&d));
                branches.hit("declined what was asked");
            }
        }
        Ok(())
    });
    branches.expect(&[("read as a decline", CASES as usize), ("declined what was asked", CASES as usize * 3 / 4)]);
}

/// A value said before the refusal is what the refusal takes back: "push
/// it to 10... actually no, scrap today's stand-up altogether" never
/// moves the stand-up to 10:00; what follows is read again (here a
/// high-risk cancel, confirmed first).
#[test]
fn a_value_said_before_the_refusal_is_refused() {
    let standup = screen(
        "standup",
        vec![
            c("a", "Move stand-up to 9:30", "today · 8 guests"),
            c("b", "Move stand-up to 10:00", "today · 8 guests"),
            Candidate { risk: Risk::High, ..c("c", "Cancel today's stand-up", "notifies 8 guests") },
        ],
    );
    let d = Session::new().say("push it to 10... actually no, scrap today's stand-up altogether", &standup);
    assert_ne!(d.target_id.as_deref(), Some("b"), "{}", said(&d));
    assert_ne!(d.outcome, Outcome::Execute, "{}", said(&d));
    // A value after the refusal still picks ("no, make it 9:30").
    let s = Session::new();
    let d = s.say(
        "no, make it 9:30",
        &asking(screen("one", vec![c("b", "Move stand-up to 10:00", ""), c("a", "Move stand-up to 9:30", "")]), Asked::Choice),
    );
    assert_eq!(d.target_id.as_deref(), Some("a"), "{}", said(&d));
}
