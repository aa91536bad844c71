//! Two requests in order (`sequence`): where the input splits, and end to
//! end through the ladder: the first executes with the rest as a request
//! follow-up; alternatives, a bare "and", a `RISK_HIGH` first and a
//! question asked for one choice never execute. A property tries to make
//! a sequence execute what a careful person would not.

use super::{Sequence, split};
use crate::matching::tests::{executed, request};
use crate::policy::Policy;
use crate::testkit::{Fake, turn};
use crate::types::*;
use proptest::prelude::*;

fn decide(input: &str, cands: &[Candidate], asked: Asked) -> Decision {
    let mut req = request(input, cands);
    if let Some(o) = req.options.as_mut() {
        o.asked = asked;
    }
    turn(&Policy::defaults(), &Fake::quiet(), &req).decision
}

fn home() -> Vec<Candidate> {
    ["Close blinds", "Movie scene", "Mute TV", "Dim lights", "Lock door", "Turn off fan"]
        .iter()
        .enumerate()
        .map(|(i, l)| Candidate::new(format!("h{i}"), *l))
        .collect()
}

/// The order word splits the input; alternatives, conditions, hedges and
/// a rest that takes the first back do not.
#[test]
fn an_order_word_splits_two_requests_and_nothing_else_does() {
    let table: &[(&str, Option<(&str, &str)>)] = &[
        ("close the blinds first, then movie scene", Some(("close the blinds", "movie scene"))),
        ("mute the tv and then dim the lights", Some(("mute the tv", "dim the lights"))),
        ("turn off the fan, after that lock the door", Some(("turn off the fan", "lock the door"))),
        ("first mute the tv, then dim the lights", Some(("mute the tv", "dim the lights"))),
        ("ferme les stores, puis la scène film", Some(("ferme les stores", "la scène film"))),
        // Portuguese "o" is "the" beside "depois", never Spanish "or";
        // "ou" still is "or".
        ("primeiro me mostra o extrato, depois paga a fatura", Some(("me mostra o extrato", "paga a fatura"))),
        ("mostra o extrato ou paga a fatura, depois gera o boleto", None),
        ("apaga la luz, despues baja la persiana", Some(("apaga la luz", "baja la persiana"))),
        ("apaga la luz o baja la persiana, despues pon musica", None),
        ("chiudi le tende, dopo accendi la luce", Some(("chiudi le tende", "accendi la luce"))),
        ("mute tv or dim lights", None),
        ("panel d and panel e", None),
        ("the second, then again maybe the third", None),
        ("if it rains then close the blinds", None),
        ("mute the tv, then no, forget it", None),
        ("then dim the lights", None),
        ("mute the tv then", None),
    ];
    for (input, want) in table {
        assert_eq!(split(input), want.map(|(first, rest)| Sequence { first, rest }), "{input:?}");
    }
}

/// The first of two requests in order executes, the rest handed back as
/// a request follow-up; what a person would ask stays asked.
#[test]
fn the_first_of_two_requests_executes_and_the_rest_follows() {
    let cands = home();
    let table: &[(&str, &str, &str)] = &[
        ("close the blinds first, then movie scene", "h0", "movie scene"),
        ("mute the tv and then dim the lights", "h2", "dim the lights"),
        ("turn off the fan, after that lock the door", "h5", "lock the door"),
        ("first mute the tv, then dim the lights", "h2", "dim the lights"),
    ];
    for (input, id, rest) in table {
        let d = decide(input, &cands, Asked::Unspecified);
        assert_eq!(executed(&d), Some(*id), "{input:?}: {:?}", d.outcome);
        let f = d.follow_up.as_ref().unwrap_or_else(|| panic!("{input:?}: no follow-up"));
        assert_eq!((f.kind, f.text.as_str()), (FollowUpKind::Request, *rest), "{input:?}");
        let classify = d.trace.iter().find(|s| s.rung == "match").map(|s| s.detail.clone()).unwrap_or_default();
        assert!(classify.contains("sequence"), "{input:?}: {classify}");
    }
    for input in ["mute tv or dim lights", "mute tv and dim lights", "mute the tv then, hmm, or dim the lights"] {
        let d = decide(input, &cands, Asked::Unspecified);
        assert_eq!(d.outcome, Outcome::Clarify, "{input:?}: {:?}", d.target_id);
    }
    // The answer to "which one?" may put two in order ("dishwasher first,
    // then the washing machine"): the first, the rest handed back. To a
    // yes-or-no question about one option it is no sequence.
    let d = decide("mute the tv and then dim the lights", &cands, Asked::Choice);
    assert_eq!(executed(&d), Some("h2"), "under ASKED_CHOICE: {:?}", d.outcome);
    assert_eq!(d.follow_up.map(|f| f.text), Some("dim the lights".to_string()));
    let d = decide("mute the tv and then dim the lights", &cands, Asked::Confirmation);
    assert!(d.follow_up.is_none(), "under ASKED_CONFIRMATION: {d:?}");
    assert!(!d.trace.iter().any(|s| s.detail.contains("sequence")), "under ASKED_CONFIRMATION: {:?}", d.trace);
}

/// What the second request says (a correction, a value: "I can only stay
/// 30 minutes") changes nothing of the first: the first executes, the
/// rest is handed back. The same words in the first request change it.
#[test]
fn the_second_requests_values_are_its_own() {
    let invite: Vec<Candidate> = [("d", "Decline"), ("a", "Accept"), ("p", "Propose new time")]
        .iter()
        .map(|(id, l)| Candidate { sublabel: "Budget sync · Thu 10:00".into(), ..Candidate::new(*id, *l) })
        .collect();
    let d = decide("accept it first, then tell them I can only stay 30 minutes", &invite, Asked::Unspecified);
    assert_eq!(executed(&d), Some("a"), "{:?}", d.outcome);
    assert_eq!(d.follow_up.map(|f| f.text), Some("tell them I can only stay 30 minutes".to_string()));
    let d = decide("accept only 30 minutes first, then tell them hi", &invite, Asked::Unspecified);
    assert_eq!(executed(&d), None, "{:?}", d.outcome);
}

/// A `RISK_HIGH` first is confirmed, never executed; a `RISK_HIGH` second
/// is handed back, to be confirmed on its own turn.
#[test]
fn a_high_risk_request_in_a_sequence_is_never_executed_on_it() {
    let cands = vec![
        Candidate::new("mute", "Mute TV"),
        Candidate { risk: Risk::High, ..Candidate::new("del", "Delete recordings") },
        Candidate::new("dim", "Dim lights"),
    ];
    let d = decide("delete recordings first, then mute the tv", &cands, Asked::Unspecified);
    assert_ne!(d.outcome, Outcome::Execute, "{:?}", d.target_id);
    let d = decide("mute the tv and then delete recordings", &cands, Asked::Unspecified);
    assert_eq!(executed(&d), Some("mute"));
    assert_eq!(d.follow_up.map(|f| f.text), Some("delete recordings".to_string()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testkit::cases(96)))]

    /// A sequence executes only its first request, and only where a
    /// person would: over generated screens of device actions, "A <order
    /// word> B" executes A with B handed back, as the answer to the app's
    /// "which one?" too; "A or B", "A and B", the app's yes-or-no question
    /// (A not the one it asked about), a rest that takes A back and a
    /// high-risk A never execute, nor does a negated A; B is never what
    /// executes.
    #[test]
    fn a_sequence_executes_only_its_first_request(
        labels in prop::sample::subsequence(
            vec!["Close blinds", "Movie scene", "Mute TV", "Dim lights", "Lock door", "Turn off fan", "Start vacuum", "Play jazz"],
            3..=6,
        ),
        a in 0usize..6,
        b in 0usize..6,
        order in prop::sample::select(vec!["{A}, then {B}", "{A} and then {B}", "{A} first, then {B}", "first {A}, then {B}", "{A}, after that {B}", "{A} then {B}"]),
        spoiler in 0usize..6,
        high in any::<bool>(),
    ) {
        let (a, b) = (a % labels.len(), b % labels.len());
        prop_assume!(a != b);
        let cands: Vec<Candidate> = labels
            .iter()
            .enumerate()
            .map(|(i, l)| Candidate { risk: if high && i == a { Risk::High } else { Risk::Unspecified }, ..Candidate::new(format!("c{i}"), *l) })
            .collect();
        let (la, lb) = (labels[a].to_lowercase(), labels[b].to_lowercase());
        let said = order.replace("{A}", &la).replace("{B}", &lb);
        let (ia, ib) = (format!("c{a}"), format!("c{b}"));
        for asked in [Asked::Unspecified, Asked::Choice] {
            let d = decide(&said, &cands, asked);
            prop_assert_ne!(executed(&d), Some(ib.as_str()), "{:?} ({:?}) executed the second", said, asked);
            if high {
                prop_assert_ne!(d.outcome, Outcome::Execute, "{:?}: a high-risk first executed {:?}", said, d.target_id);
            } else {
                prop_assert_eq!(executed(&d), Some(ia.as_str()), "{:?} ({:?}) over {:?}", said, asked, labels);
                prop_assert_eq!(d.follow_up.map(|f| (f.kind, f.text)), Some((FollowUpKind::Request, lb.clone())));
            }
        }
        let (tried, asked) = match spoiler {
            0 => (format!("{la} or {lb}"), Asked::Unspecified),
            1 => (format!("{la} and {lb}"), Asked::Unspecified),
            2 => (said.clone(), Asked::Confirmation),
            3 => (format!("{said}, no wait, forget it"), Asked::Unspecified),
            4 => (format!("don't {said}"), Asked::Unspecified),
            _ => (format!("{la} then {lb} or {la}"), Asked::Unspecified),
        };
        let d = decide(&tried, &cands, asked);
        if spoiler == 4 {
            // A negation of the first never executes it (it may name the
            // one wanted instead, as a negation does).
            prop_assert_ne!(executed(&d), Some(ia.as_str()), "{:?} executed the first", tried);
            prop_assert!(d.follow_up.is_none(), "{:?}: a follow-up", tried);
        } else {
            prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} ({:?}) executed {:?}", tried, asked, d.target_id);
        }
    }
}
