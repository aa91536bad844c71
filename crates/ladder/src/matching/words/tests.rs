//! The words rule, and the principle it serves (docs/deciding.md):
//! **execute only what the input fully accounts for**, and candidate risk.
//!
//! The words table reads through `find` (the matching harness,
//! `matching/tests.rs`). The principle's properties run the whole ladder
//! (`decide`, through the shared harness `testkit`): one property per
//! class of input a careful person does not act on, each trying to make the
//! ladder execute; a property that no path executes a high-risk candidate
//! but its whole label, an alias or a position among the options shown; and
//! an example of each rule that executes and one that does not.

use super::super::tests::{find_on, labelled};
use super::super::{MatchKind, Words};
use crate::canon::canonicalize;
use crate::continuity::{PendingClarifier, Update};
use crate::policy::{Corroboration, LlmMode, Policy};
use crate::testkit::{Fake, ids as offered};
use crate::text::words;
use crate::types::*;
use proptest::prelude::*;

/// Runs one turn on the session and applies its change.
fn turn(policy: &Policy, session: &Fake, req: &DecideRequest) -> Decision {
    crate::testkit::turn(policy, session, req).decision
}

/// The embedded defaults (LLM off).
fn decide_once(req: &DecideRequest) -> Decision {
    turn(&Policy::defaults(), &Fake::quiet(), req)
}

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

fn executes(d: &Decision) -> Option<&str> {
    (d.outcome == Outcome::Execute).then(|| d.target_id.as_deref().unwrap_or(""))
}

// ------------------------------------------------------------- words --

#[test]
fn words_single_out_or_share() {
    let reports = labelled(&["Sales Report Q1", "Sales Report Q2", "Sales Report Q3", "Budget Overview"]);
    let table: &[(&str, Words)] = &[
        ("q2", Words::Unique { entry: 1, kind: MatchKind::Shorthand }),
        ("the budget one", Words::Unique { entry: 3, kind: MatchKind::Shorthand }),
        ("overview budget", Words::Unique { entry: 3, kind: MatchKind::Partial }),
        ("sales reprot q3", Words::Unique { entry: 2, kind: MatchKind::Typo }),
        ("salse report q1", Words::Unique { entry: 0, kind: MatchKind::Typo }),
        ("sales report", Words::Shared { entries: vec![0, 1, 2], typo: false }),
        ("q1 or q3", Words::Split(vec![0, 2])),
        ("weather forecast", Words::Unexplained),
    ];
    for (input, want) in table {
        let (m, _) = find_on(input, &reports, &[]);
        assert_eq!(&m.reading.words, want, "input {input:?}");
    }
    // A typo near two different words is never a winner.
    let contacts = labelled(&["John Smith", "Jon Snow"]);
    let (m, _) = find_on("jhon", &contacts, &[]);
    assert_eq!(m.reading.words, Words::Shared { entries: vec![0, 1], typo: true });
}

// ------------------------------------------------------------ worlds --

/// Label words: nouns, names and actions the lexicon knows as such (none is
/// filler, a selection verb, a negation or a question opener).
const WORDS: &[&str] = &[
    "budget",
    "report",
    "sales",
    "jazz",
    "coffee",
    "account",
    "card",
    "close",
    "freeze",
    "delete",
    "bill",
    "travel",
    "hotel",
    "weather",
    "summary",
    "rock",
    "river",
    "garden",
    "window",
    "ticket",
    "marketing",
    "invoice",
    "savings",
    "checking",
    "playlist",
    "lemon",
    "curry",
    "standup",
    "review",
    "design",
];
const BADGES: &[&str] = &["a", "b", "c", "d", "1", "2", "3", "4"];

/// A label of one to three words, sometimes with a badge.
fn label() -> impl Strategy<Value = String> {
    (prop::collection::vec(prop::sample::select(WORDS), 1..=3), prop::option::weighted(0.3, prop::sample::select(BADGES))).prop_map(
        |(words, badge)| {
            let mut w: Vec<&str> = words;
            w.dedup();
            let mut l = w.join(" ");
            if let Some(b) = badge {
                l.push(' ');
                l.push_str(b);
            }
            l
        },
    )
}

/// Two to six options with distinct labels.
fn options() -> impl Strategy<Value = Vec<Candidate>> {
    prop::collection::vec(label(), 2..=6).prop_map(|labels| {
        let mut seen = std::collections::BTreeSet::new();
        labels.into_iter().filter(|l| seen.insert(l.clone())).enumerate().map(|(i, l)| Candidate::new(format!("c{i}"), l)).collect()
    })
}

/// An input that may execute something in `cands`: a label, whole or
/// inside phrasing, a position, a badge, a shorthand word, a typo.
fn input_for(cands: &[Candidate], pick: prop::sample::Index, form: u8, pos: u8) -> String {
    let c = &cands[pick.index(cands.len())];
    let words: Vec<&str> = c.label.split(' ').collect();
    let ordinals = ["first", "second", "third", "fourth", "fifth", "last"];
    match form % 9 {
        0 => c.label.clone(),
        1 => format!("open {}", c.label),
        2 => format!("please show me the {}", c.label),
        3 => format!("the {} one", ordinals[usize::from(pos) % ordinals.len()]),
        4 => words.last().unwrap().to_string(),
        5 => words[usize::from(pos) % words.len()].to_string(),
        6 => format!("the {} one", words[0]),
        7 => {
            // One letter of a long word swapped with the next.
            let w = words.iter().copied().max_by_key(|w| w.len()).unwrap();
            let mut b: Vec<char> = w.chars().collect();
            let i = usize::from(pos) % (b.len() - 1).max(1);
            if b.len() > 4 {
                b.swap(i, i + 1);
            }
            let typo: String = b.into_iter().collect();
            words.iter().map(|x| if *x == w { typo.as_str() } else { x }).collect::<Vec<_>>().join(" ")
        }
        _ => format!("#{}", usize::from(pos) % 6 + 1),
    }
}

/// A word no candidate has, near none of their words, that the lexicon
/// does not know: content the winner cannot account for.
fn stray_word() -> impl Strategy<Value = String> {
    "[bcdfgkmpvz][aeiou][bcdfgkmpvz][aeiou][bcdfgkmpvz][aeiou]?[rst]?"
}

fn far_from_every_label(word: &str, cands: &[Candidate], lex: &crate::lexicon::Lexicon) -> bool {
    let known = [
        lex.filler.starts_with(word),
        lex.selection_verbs.starts_with(word),
        lex.function_words.contains(word),
        lex.generic_nouns.contains(word),
        lex.negations.starts_with(word),
        lex.conjunctions.starts_with(word),
        lex.question_openers.starts_with(word),
        lex.request_openers.starts_with(word),
        lex.cancel_openers.starts_with(word),
        lex.ordinals.starts_with(word),
    ];
    !known.iter().any(|k| *k)
        && cands
            .iter()
            .flat_map(|c| c.label.split(' '))
            .all(|w| rapidfuzz::distance::osa::distance(word.chars(), w.chars()) > 2 && !w.starts_with(word) && !word.starts_with(w))
}

/// `word` put into `input` at one of its gaps.
fn insert(input: &str, word: &str, at: u8) -> String {
    let mut toks: Vec<&str> = input.split(' ').collect();
    let i = usize::from(at) % (toks.len() + 1);
    toks.insert(i, word);
    toks.join(" ")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, ..ProptestConfig::default() })]

    /// The principle: whatever executes, a content word it does not
    /// account for, put anywhere in the input, stops the execute.
    #[test]
    fn an_unexplained_word_anywhere_stops_any_execute(
        cands in options(), pick in any::<prop::sample::Index>(), form in any::<u8>(), pos in any::<u8>(),
        stray in stray_word(), at in any::<u8>(),
    ) {
        let lex = crate::lexicon::Lexicon::shipped();
        prop_assume!(far_from_every_label(&stray, &cands, &lex));
        let input = input_for(&cands, pick, form, pos);
        let d = decide_once(&request(&input, cands.clone()));
        prop_assume!(d.outcome == Outcome::Execute);
        let more = insert(&input, &stray, at);
        let d = decide_once(&request(&more, cands.clone()));
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} executes {:?}", more, d.target_id);
        // It goes up the ladder: the LLM may take it, never the clarifier alone.
        prop_assert_eq!(d.confidence, Some(Bucket::LowConfidenceLlmEligible), "{:?}", more);
    }

    /// A negation anywhere, in every common form and in the lexicon's other
    /// languages, stops any execute.
    #[test]
    fn a_negation_anywhere_stops_any_execute(
        cands in options(), pick in any::<prop::sample::Index>(), form in any::<u8>(), pos in any::<u8>(),
        neg in prop::sample::select(vec![
            "not", "don't", "do not", "can't", "cannot", "won't", "isn't", "didn't", "doesn't", "never", "no longer",
            "nothing", "nicht", "kein", "nunca", "jamais", "לא", "no",
        ]),
        at in any::<u8>(),
    ) {
        let input = input_for(&cands, pick, form, pos);
        let d = decide_once(&request(&input, cands.clone()));
        prop_assume!(d.outcome == Outcome::Execute);
        let negated = insert(&input, neg, at);
        // "no 2" is number two (an ordinal prefix), not a negation.
        let toks: Vec<&str> = negated.split(' ').collect();
        let before_number = toks.windows(2).any(|w| w[0] == "no" && w[1].trim_start_matches('#').parse::<u32>().is_ok());
        prop_assume!(!before_number);
        let d = decide_once(&request(&negated, cands.clone()));
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} executes {:?}", negated, d.target_id);
    }

    /// "x or y", "x and stop", "pick x, also open y": another candidate,
    /// another action or a cancel word beside one candidate stops it.
    #[test]
    fn a_second_referent_action_or_cancel_stops_any_execute(
        cands in options(), pick in any::<prop::sample::Index>(), other in any::<prop::sample::Index>(),
        // "then" puts two requests in order: a sequence, its first
        // executes (matching/sequence/tests.rs).
        joint in prop::sample::select(vec!["or", "and", "or maybe", "also"]),
        second in prop::sample::select(vec!["", "stop", "cancel", "never mind", "delete it", "pay", "send it"]),
    ) {
        let x = &cands[pick.index(cands.len())];
        let y = &cands[other.index(cands.len())];
        prop_assume!(x.id != y.id || !second.is_empty());
        let tail = if second.is_empty() { y.label.clone() } else { second.to_string() };
        prop_assume!(!x.label.split(' ').any(|w| tail.split(' ').any(|t| t == w)));
        let input = format!("{} {joint} {tail}", x.label);
        let d = decide_once(&request(&input, cands.clone()));
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} executes {:?}", input, d.target_id);
    }

    /// An ordinal that modifies something other than the list's items is
    /// not a position: "my second card", "the last transfer".
    #[test]
    fn an_ordinal_of_something_else_is_no_position(
        cands in options(),
        possessive in prop::sample::select(vec!["my", "our", "your"]),
        ordinal in prop::sample::select(vec!["first", "second", "third", "last", "2nd"]),
        noun in prop::sample::select(vec!["card", "transfer", "payment", "time", "trip", "order", "week", "account", "song"]),
        own in any::<bool>(),
    ) {
        let lex = crate::lexicon::Lexicon::shipped();
        prop_assume!(!cands.iter().any(|c| c.label.split(' ').any(|w| w == noun)));
        // A generic noun after a plain position names the list's items
        // ("the third song"); after a possessive, nothing does.
        prop_assume!(own || !lex.generic_nouns.contains(noun));
        let input = if own { format!("{possessive} {ordinal} {noun}") } else { format!("the {ordinal} {noun}") };
        let d = decide_once(&request(&input, cands.clone()));
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} executes {:?}", input, d.target_id);
    }

    /// A number that is one candidate's badge and another's position is
    /// both: a person asks, offering the two.
    #[test]
    fn a_badge_that_is_another_position_is_asked(
        words in prop::collection::vec(prop::sample::select(WORDS), 3..=5), n in 1usize..=5, at in any::<prop::sample::Index>(),
    ) {
        let mut words = words;
        words.dedup();
        prop_assume!(words.len() >= 3 && n <= words.len());
        let mut cands = labelled(&words);
        // The candidate with the badge `n` is not at position `n`.
        let badged = (0..cands.len()).filter(|i| *i != n - 1).nth(at.index(cands.len() - 1)).unwrap();
        cands[badged].label = format!("{} {n}", cands[badged].label);
        for input in [n.to_string(), format!("the {n}")] {
            let d = decide_once(&request(&input, cands.clone()));
            prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} executes {:?} among {:?}", input, d.target_id, cands);
            let o = offered(&d);
            prop_assert!(o.contains(&cands[badged].id) && o.contains(&cands[n - 1].id), "{:?} offers {:?}", input, o);
        }
    }

    /// A word that only begins another candidate's word does not tell the
    /// two apart: "sam" with "Sam Lee" and "Samantha Ortiz".
    #[test]
    fn a_prefix_shared_by_two_candidates_is_asked(
        stem in "[bdfgklmprst][aeiou][bdfgklmnprst]{1,2}", rest in "[aeiou][a-z]{0,3}", a in prop::sample::select(WORDS), b in prop::sample::select(WORDS),
    ) {
        prop_assume!(a != b);
        let cands = vec![Candidate::new("short", format!("{stem} {a}")), Candidate::new("long", format!("{stem}{rest} {b}")), Candidate::new("x", "weather summary")];
        let lex = crate::lexicon::Lexicon::shipped();
        prop_assume!(far_from_every_label(&stem, &cands[2..], &lex));
        // A stem that is a value's name ("sun", "mar", "sat") is read as
        // that value, which only one label shows: the value rules' case
        // (matching/value_words.rs), not a prefix's.
        prop_assume!(!crate::values::is_a_value_word(&stem));
        let d = decide_once(&request(&stem, cands.clone()));
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} executes {:?}", stem, d.target_id);
        // Its whole label is still named.
        let d = decide_once(&request(&format!("{stem} {a}"), cands.clone()));
        prop_assert_eq!(executes(&d), Some("short"));
    }

    /// The object alone does not name a candidate whose action it leaves
    /// unsaid when another candidate shows the object with another action
    /// ("account" is not "Close Account" beside "Account settings"), nor a
    /// high-risk candidate.
    #[test]
    fn an_unsaid_action_that_matters_is_asked(
        action in prop::sample::select(vec!["close", "delete", "freeze", "pay", "cancel", "send", "transfer", "report", "block", "reset"]),
        object in prop::sample::select(vec!["account", "invoice", "ticket", "savings", "budget", "playlist"]),
        others in prop::collection::vec(prop::sample::select(vec!["weather summary", "river garden", "jazz coffee", "hotel review"]), 1..=3),
        form in prop::sample::select(vec!["{o}", "the {o} one", "open {o}", "{o} please"]),
        shared in prop::sample::select(vec!["{o} settings", "view {o}", "{o} history"]),
    ) {
        let mut cands = vec![Candidate::new("x", format!("{action} {object}")), Candidate::new("y", shared.replace("{o}", object))];
        for (i, l) in others.iter().enumerate() {
            cands.push(Candidate::new(format!("o{i}"), *l));
        }
        let input = form.replace("{o}", object);
        let d = decide_once(&request(&input, cands.clone()));
        prop_assert_ne!(executes(&d), Some("x"), "{:?} executes {:?}", input, d.target_id);
        // High risk, alone with its object: asked too.
        let mut risky = vec![Candidate { risk: Risk::High, ..cands[0].clone() }];
        risky.extend(cands[2..].iter().cloned());
        let d = decide_once(&request(&input, risky.clone()));
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} executes {:?}", input, d.target_id);
        // Said with its action, it executes.
        let d = decide_once(&request(&format!("{action} {object}"), cands.clone()));
        prop_assert_eq!(executes(&d), Some("x"));
    }

    /// A typo that names a candidate alone does not inside a sentence that
    /// says something else.
    #[test]
    fn a_typo_inside_a_longer_sentence_is_asked(
        cands in options(), pick in any::<prop::sample::Index>(), pos in any::<u8>(),
        lead in prop::sample::select(vec!["i was wondering about", "tell her about my", "set a reminder for the"]),
        stray in stray_word(),
    ) {
        let lex = crate::lexicon::Lexicon::shipped();
        prop_assume!(far_from_every_label(&stray, &cands, &lex));
        let input = input_for(&cands, pick, 7, pos);
        let d = decide_once(&request(&input, cands.clone()));
        prop_assume!(d.outcome == Outcome::Execute);
        let sentence = format!("{lead} {input} {stray}");
        let d = decide_once(&request(&sentence, cands.clone()));
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} executes {:?}", sentence, d.target_id);
    }
}

/// Runs `cases` cases of `strategy` through `check`, which says whether the
/// case reached the branch its property is about; fails unless at least
/// `min_share` of the cases did (so the property cannot pass vacuously).
fn counted<S: Strategy>(strategy: S, cases: u32, min_share: f64, check: impl Fn(S::Value) -> Result<bool, TestCaseError>) {
    use proptest::test_runner::{Config, TestRunner};
    let reached = std::cell::Cell::new(0u32);
    let mut runner = TestRunner::new(Config { cases, ..Config::default() });
    runner
        .run(&strategy, |v| {
            if check(v)? {
                reached.set(reached.get() + 1);
            }
            Ok(())
        })
        .unwrap();
    assert!(f64::from(reached.get()) >= min_share * f64::from(cases), "the branch was reached in {} of {cases} cases", reached.get());
}

/// A partial that leaves the winner's state word unsaid ("my pin" for "Pin
/// blocked") does not execute it while another candidate lacks the state,
/// wherever the state stands in the label; the same input on a label whose
/// other word is no state executes (counted), and so does the input that
/// says the state.
#[test]
fn an_unsaid_state_that_matters_is_asked() {
    let lex = crate::lexicon::Lexicon::shipped();
    let mut states: Vec<String> = lex.states.iter().filter(|w| w.is_ascii() && !lex.generic_nouns.contains(*w)).cloned().collect();
    states.sort();
    let strategy = (
        prop::sample::select(states),
        prop::sample::select(vec!["pin", "payment", "transfer", "subscription", "invoice", "parcel", "laptop", "passport"]),
        any::<bool>(),
        prop::collection::vec(
            prop::sample::select(vec!["weather summary", "river garden", "jazz coffee", "hotel review", "change address"]),
            1..=3,
        ),
        prop::sample::select(vec!["{o}", "my {o}", "the {o} one", "{o} please", "show my {o}"]),
        prop::sample::select(vec!["details", "history", "summary", "overview"]),
    );
    counted(strategy, 128, 0.5, |(state, object, before, others, form, plain)| {
        let label = |w: &str| if before { format!("{w} {object}") } else { format!("{object} {w}") };
        let mut cands = vec![Candidate::new("x", label(&state))];
        for (i, l) in others.iter().enumerate() {
            cands.push(Candidate::new(format!("o{i}"), *l));
        }
        let input = form.replace("{o}", object);
        let d = decide_once(&request(&input, cands.clone()));
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} executes {:?} among {:?}", input, d.target_id, cands);
        // Said with its state, it executes.
        let said = format!("my {object} {state}");
        let d = decide_once(&request(&said, cands.clone()));
        prop_assert_eq!(executes(&d), Some("x"), "{:?}", said);
        // The same input where the other word is no state: it executes.
        cands[0].label = label(plain);
        Ok(executes(&decide_once(&request(&input, cands))) == Some("x"))
    });
}

/// A word another candidate holds as the last part of a joined word
/// ("ball" with "Ball Cap" and "Football") does not tell them apart: it
/// is asked, offering both; each whole word still executes its own
/// (counted).
#[test]
fn a_word_inside_another_candidates_joined_word_is_asked() {
    let strategy = (
        "[bdfgklmprst][aeiou][bdfgklmnprst]{1,2}",
        "[bcdfghjklmnprstvw][aeiou][a-z]{1,4}",
        prop::sample::select(WORDS),
        prop::sample::select(vec!["{w}", "the {w} one", "my {w}", "open {w}"]),
    );
    let lex = crate::lexicon::Lexicon::shipped();
    counted(strategy, 128, 0.5, |(word, head, other, form)| {
        let joined = format!("{head}{word}");
        let cands = vec![
            Candidate::new("own", format!("{word} {other}")),
            Candidate::new("joined", joined.clone()),
            Candidate::new("x", "weather summary"),
        ];
        prop_assume!(far_from_every_label(&word, &cands[2..], &lex) && !WORDS.contains(&word.as_str()));
        let input = form.replace("{w}", &word);
        let d = decide_once(&request(&input, cands.clone()));
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} executes {:?}", input, d.target_id);
        let o = offered(&d);
        prop_assert!(o.contains(&"own".to_string()) && o.contains(&"joined".to_string()), "{:?} offers {:?}", input, o);
        // The joined word, and the label said whole, execute their own.
        let whole = executes(&decide_once(&request(&joined, cands.clone()))) == Some("joined");
        let own = executes(&decide_once(&request(&format!("{word} {other}"), cands.clone()))) == Some("own");
        Ok(whole && own)
    });
}

// ---------------------------------------------------------------- risk --

/// Whether the canonical input says every word of the label, or of an
/// alias: the reference definition of "its whole label or an alias".
fn says_whole(c: &Candidate, input: &str, lex: &crate::lexicon::Lexicon) -> bool {
    let said = canonicalize(input, lex);
    let toks: Vec<&str> = words(&said).collect();
    std::iter::once(&c.label).chain(&c.aliases).any(|form| {
        let form = canonicalize(form, lex);
        let words: Vec<&str> = words(&form).collect();
        !words.is_empty() && (words.iter().all(|w| toks.contains(w)) || toks.contains(&words.concat().as_str()))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, ..ProptestConfig::default() })]

    /// Risk (docs/deciding.md#risk): no path executes a high-risk candidate but
    /// the rules on the user's explicit words: its whole label or an alias,
    /// or a position among the options shown (or, after ladderd's
    /// "which one?", among those it listed). Not continuity, not the LLM
    /// (auto-execute on, every reason allowed, no corroboration, a pick at
    /// full confidence), not a partial, badge, shorthand or typo.
    #[test]
    fn no_path_executes_a_high_risk_candidate_but_its_words_or_its_position(
        cands in options(), risky in prop::collection::vec(any::<bool>(), 6), by_kind in any::<bool>(),
        pick in any::<prop::sample::Index>(), form in any::<u8>(), pos in any::<u8>(),
        llm_pick in any::<prop::sample::Index>(), twin in any::<bool>(), lived in any::<bool>(),
    ) {
        let mut policy = Policy::defaults();
        policy.llm_mode = LlmMode::Live;
        policy.auto_execute.enabled = true;
        policy.auto_execute.allowed_reasons = AmbiguityReason::ALL.to_vec();
        policy.auto_execute.corroboration = Corroboration::None;
        policy.auto_execute.min_confidence = 0.0;
        policy.matching.high_risk_kinds = vec!["Destructive".into()];
        let mut cands = cands;
        for (c, r) in cands.iter_mut().zip(&risky) {
            if *r && by_kind {
                c.kind = "destructive".into();
            } else if *r {
                c.risk = Risk::High;
            }
        }
        let input = input_for(&cands, pick, form, pos);
        let mut req = request(&input, cands.clone());
        if twin {
            // A cross-source tie continuity may resolve.
            let c = &cands[pick.index(cands.len())];
            req.widget_items.push(Candidate { id: "w-twin".into(), ..c.clone() });
            req.input = format!("open {}", c.label);
        }
        let session = Fake::picking(&cands[llm_pick.index(cands.len())].id);
        if lived {
            // The session already shows this option set (continuity's facts).
            turn(&policy, &session, &request("zzyzx", cands.clone()));
        }
        let d = turn(&policy, &session, &req);
        if let Some(id) = executes(&d) {
            let c = cands.iter().chain(&req.widget_items).find(|c| c.id == id).unwrap();
            if c.is_high_risk(&policy.matching.high_risk_kinds) {
                let canonical = canonicalize(&req.input, &policy.lexicon);
                let position = crate::matching::parse_ordinal(&canonical, &policy.lexicon).is_some()
                    || canonical.split(' ').any(|t| ["first", "second", "third", "fourth", "fifth", "last"].contains(&t));
                // A reply to ladderd's own question (docs/replies.md: a position
                // in the order it listed, or the label said whole to its
                // confirmation) is read from the session's question.
                let answered = lived && d.decided_by == Decider::Continuity && d.handled_by_tier == Tier::Reply;
                prop_assert!(d.decided_by == Decider::Deterministic || answered, "{:?} executed high-risk {} by {:?}", req.input, id, d.decided_by);
                prop_assert!(says_whole(c, &req.input, &policy.lexicon) || position, "{:?} executed high-risk {:?}", req.input, c.label);
            }
        }
        // Never offered anything but a clarifier for a high-risk pick of the LLM.
        if d.decided_by == Decider::Llm && d.outcome == Outcome::Clarify {
            let picked = &cands[llm_pick.index(cands.len())];
            if picked.is_high_risk(&policy.matching.high_risk_kinds) && d.clarifier.as_ref().is_some_and(|c| c.kind == PendingClarifier::Confirmation) {
                prop_assert_eq!(offered(&d).first().cloned(), Some(picked.id.clone()));
            }
        }
    }
}

// ------------------------------------------------------------ examples --

/// One row per rule of the principle (docs/deciding.md): the input, the
/// options, and what a careful person does (the id executed, or `None`:
/// asks).
#[test]
fn each_rule_executes_what_it_should_and_nothing_else() {
    let shopping = ["Shopping list", "Shopping list update", "Reminder", "Calendar", "Timer"];
    let banking = ["Freeze account", "Transactions", "Transfer", "Pay bill", "Report fraud"];
    let contacts = ["Sam Lee", "Samantha Ortiz", "Dana Levi"];
    let groceries = ["Apples (1 kg)", "Apple Pie", "Bananas"];
    let cards = ["Freeze Card", "Card Details", "Close Account", "Statements"];
    let songs = ["Intro", "Outro", "Song 2", "Finale"];
    let parcels = ["Parcel status", "Returns", "Contact us"];
    let pins = ["Pin blocked", "Change address", "Card limits"];
    let activation = ["Activate card", "Freeze card", "Card details"];
    let shop = ["Ball Cap", "Football", "Socks"];
    let wallet = ["Debit card", "Credit card", "Gift card"];
    let table: &[(&str, &[&str], Option<&str>)] = &[
        // Nothing said is left over.
        ("shopping list", &shopping, Some("c0")),
        ("open my shopping list please", &shopping, Some("c0")),
        ("add sprite to my shopping list", &shopping, None),
        ("set a reminder to bring a book to work tomorrow", &shopping, None),
        ("the gym on my calendar", &shopping, None),
        ("someone misused my card and put fraudulent transactions on it", &banking, None),
        ("transactions", &banking, Some("c1")),
        // Negations, in every form.
        ("i can't pay bill", &banking, None),
        ("don't freeze account", &banking, None),
        ("no longer transfer", &banking, None),
        ("transfer nicht", &banking, None),
        // Disjunctions with another action or a cancel.
        ("transfer or stop", &banking, None),
        ("pay bill and cancel", &banking, None),
        // A typo on one word of a sentence; a typo alone.
        ("call dave", &["Date", "Timer", "Alarm"], None),
        ("i'm lost", &["Last maintenance", "Oil change", "Tire pressure"], None),
        ("i'll be leaving now", &["Meaning of life", "Fun fact", "Tell joke"], None),
        ("tranfer", &banking, Some("c2")),
        // A shorthand or partial that leaves the winner's action unsaid.
        ("account", &["Close Account", "Account settings", "Statements"], None),
        ("a refund please", &["Request a refund", "Track parcel", "Change address"], Some("c0")),
        // A file's extension and version are details of the object.
        ("the contract", &["Download invoice_march.pdf", "Share contract_v2.docx", "Delete old_backup.zip"], Some("c1")),
        ("the contract", &["Download contract_v1.pdf", "Share contract_v2.docx"], None),
        ("the backup", &["Download invoice_march.pdf", "Share contract_v2.docx", "Delete old_backup.zip"], None),
        ("statements", &cards, Some("c3")),
        ("card", &cards, None),
        ("start my playlist", &["Update playlist", "Next song", "Play music"], None),
        ("i need to cancel my reservations", &["Accept reservations", "Restaurant reviews", "Book table"], None),
        // Prefixes and stems shared by two candidates.
        ("sam", &contacts, None),
        ("samantha", &contacts, Some("c1")),
        ("apple", &groceries, None),
        ("apple pie", &groceries, Some("c1")),
        // Ordinals of something else; ordinals of the list.
        ("my second card", &cards, None),
        ("the last transfer", &["Checking", "Savings", "Brokerage"], None),
        ("the first time", &songs, None),
        ("the second one", &songs, Some("c1")),
        ("option 2", &["Intro", "Outro", "Finale"], Some("c1")),
        ("the last one", &songs, Some("c3")),
        // A badge that is also another candidate's position.
        ("2", &songs, None),
        ("song 2", &songs, Some("c2")),
        // A noun that is also an action, said as the verb.
        ("track my parcel", &parcels, None),
        ("can you track my parcel", &parcels, None),
        ("my parcel", &parcels, Some("c0")),
        ("the parcel one", &parcels, Some("c0")),
        // A partial that leaves a state word unsaid.
        ("my pin", &pins, None),
        ("pin", &pins, None),
        ("my pin is blocked", &pins, Some("c0")),
        ("limits", &pins, Some("c2")),
        // A typo never turns one real word into another.
        ("reactivate", &activation, None),
        ("reactivate my card", &activation, None),
        ("actvate card", &activation, Some("c0")),
        ("activate card", &activation, Some("c0")),
        // A word inside another candidate's joined word.
        ("ball", &shop, None),
        ("football", &shop, Some("c1")),
        ("ball cap", &shop, Some("c0")),
        // Numbers of something else are no positions.
        ("a second card", &wallet, None),
        ("1 ticket", &wallet, None),
        ("on the 1st", &wallet, None),
        ("2 people", &wallet, None),
    ];
    for (input, labels, want) in table {
        let d = decide_once(&request(input, labelled(labels)));
        assert_eq!(executes(&d), *want, "{input:?} among {labels:?}: {:?} {:?}", d.outcome, offered(&d));
        if want.is_none() && d.outcome == Outcome::Clarify {
            assert_ne!(d.confidence, Some(Bucket::HighConfidenceExecute), "{input:?}");
        }
    }
}

/// A badge that is also a position offers both; a prefix shared by two
/// names offers both; a refused label is offered first.
#[test]
fn what_a_refusal_offers() {
    let songs = labelled(&["Intro", "Outro", "Song 2", "Finale"]);
    let d = decide_once(&request("2", songs));
    let mut first_two = offered(&d)[..2].to_vec();
    first_two.sort();
    assert_eq!(first_two, ["c1", "c2"], "the position's and the badge's owner");
    let d = decide_once(&request("sam", labelled(&["Sam Lee", "Samantha Ortiz", "Dana Levi"])));
    assert_eq!(&offered(&d)[..2], ["c0", "c1"]);
    let d = decide_once(&request("add sprite to my shopping list", labelled(&["Timer", "Shopping list", "Shopping list update"])));
    assert_eq!(offered(&d).first().map(String::as_str), Some("c1"));
    assert_eq!((d.confidence, d.ambiguity_reason), (Some(Bucket::LowConfidenceLlmEligible), Some(AmbiguityReason::NoDeterministicMatch)));
}

fn risky(labels: &[&str], high: &[usize]) -> Vec<Candidate> {
    let mut c = labelled(labels);
    for i in high {
        c[*i].risk = Risk::High;
    }
    c
}

/// A high-risk candidate executes on its whole label, an alias, or a
/// position in reply to a question that listed it; anything else asks to
/// confirm it, listed first.
#[test]
fn a_high_risk_candidate_executes_only_on_its_words_or_a_position_it_was_asked_at() {
    let mut cands = risky(&["Close Account", "Statements", "Card Details"], &[0]);
    cands[0].aliases = vec!["terminate my account".into()];
    for (input, want) in [
        ("close account", Some("c0")),
        ("please close my account", Some("c0")),
        ("terminate my account", Some("c0")),
        ("the first one", None),
        ("clsoe account", None),
        ("close", None),
    ] {
        let d = decide_once(&request(input, cands.clone()));
        assert_eq!(executes(&d), want, "{input:?}: {d:?}");
        if want.is_none() {
            let c = d.clarifier.as_ref().unwrap();
            assert_eq!((c.kind, c.option_ids.first().map(String::as_str)), (PendingClarifier::Confirmation, Some("c0")), "{input:?}");
            assert_eq!(c.suggested_id.as_deref(), Some("c0"));
        }
    }
    // The same position in reply to the confirmation that listed it first
    // is the explicit choice.
    let session = Fake::quiet();
    let p = Policy::defaults();
    assert_eq!(executes(&turn(&p, &session, &request("the first one", cands.clone()))), None);
    assert_eq!(executes(&turn(&p, &session, &request("the first one", cands.clone()))), Some("c0"));
    // A position among widget items is no reply to a clarifier.
    let mut widget = request("the first one", Vec::new());
    widget.options = None;
    widget.active_scope = Some(ScopeRef { scope: Scope::Widget, instance_id: "w".into() });
    widget.widget_items = cands.clone();
    assert_eq!(executes(&decide_once(&widget)), None);
    // `matching.high_risk_kinds` marks candidates by kind; RISK_NORMAL overrides it.
    let mut p = Policy::defaults();
    p.matching.high_risk_kinds = vec!["payment".into()];
    let mut by_kind = labelled(&["Pay rent", "Rent history"]);
    by_kind[0].kind = "Payment".into();
    assert_eq!(executes(&turn(&p, &Fake::quiet(), &request("pay", by_kind.clone()))), None);
    by_kind[0].risk = Risk::Normal;
    assert_eq!(executes(&turn(&p, &Fake::quiet(), &request("pay", by_kind))), Some("c0"));
}

/// An LLM pick of a high-risk candidate never executes, auto-execute on
/// and corroborated or not: a confirmation clarifier lists it first.
#[test]
fn an_llm_pick_of_a_high_risk_candidate_is_a_confirmation() {
    let cands = risky(&["Close Account", "Statements", "Card Details"], &[0]);
    let mut p = Policy::defaults();
    p.llm_mode = LlmMode::Live;
    p.auto_execute.enabled = true;
    p.auto_execute.corroboration = Corroboration::None;
    let d = turn(&p, &Fake::picking("c0"), &request("get rid of everything", cands.clone()));
    assert_eq!((d.outcome, d.decided_by), (Outcome::Clarify, Decider::Llm));
    let c = d.clarifier.unwrap();
    assert_eq!((c.kind, c.option_ids[0].as_str(), c.suggested_id.as_deref()), (PendingClarifier::Confirmation, "c0", Some("c0")));
    // The same pick of a normal candidate executes through the gates.
    let d = turn(&p, &Fake::picking("c1"), &request("my monthly papers", cands));
    assert_eq!((executes(&d), d.decided_by), (Some("c1"), Decider::Llm));
}

/// Continuity resolves a cross-source tie on its strict rules, never to a
/// high-risk candidate: that is a confirmation.
#[test]
fn continuity_never_executes_a_high_risk_candidate() {
    let cands = risky(&["Close Account", "Statements"], &[0]);
    let session = Fake::quiet();
    let p = Policy::defaults();
    turn(&p, &session, &request("zzyzx", cands.clone()));
    let mut r = request("open close account", cands.clone());
    r.widget_items = vec![Candidate { id: "w".into(), ..cands[0].clone() }];
    let d = turn(&p, &session, &r);
    assert_eq!(executes(&d), None, "{d:?}");
    assert_eq!(d.clarifier.map(|c| (c.kind, c.option_ids[0].clone())), Some((PendingClarifier::Confirmation, "c0".to_string())));
    // The same tie on a normal candidate, continuity takes.
    let normal = labelled(&["Close Account", "Statements"]);
    let session = Fake::quiet();
    turn(&p, &session, &request("zzyzx", normal.clone()));
    let mut r = request("open close account", normal.clone());
    r.widget_items = vec![Candidate { id: "w".into(), ..normal[0].clone() }];
    let d = turn(&p, &session, &r);
    assert_eq!((executes(&d), d.decided_by), (Some("c0"), Decider::Continuity));
}

/// "The other one" after the user had one of two options: the other, by
/// continuity; with three options, or on another option set, it is asked.
#[test]
fn the_other_one_of_two_is_the_one_not_just_had() {
    use crate::continuity::{ActionEntry, ActionKind, ActionOutcome, OutcomeUpdate};
    let p = Policy::defaults();
    let reject = |session: &Fake, id: &str, set: &str| {
        let entry = ActionEntry {
            kind: ActionKind::Outcome,
            target_ref: id.into(),
            source_scope: Scope::Chat,
            option_set_id: set.into(),
            timestamp_ms: 0,
            outcome: ActionOutcome::Rejected,
            target_label: String::new(),
            chosen_by: 0,
        };
        session.state.lock().unwrap().apply(Update::Outcome(OutcomeUpdate { entry, also_rejected: None }), session.now, session.ttl);
    };
    let two = labelled(&["Links Panel D", "Links Panel E"]);
    let session = Fake::quiet();
    assert_eq!(executes(&turn(&p, &session, &request("the first one", two.clone()))), Some("c0"));
    reject(&session, "c0", "set");
    let d = turn(&p, &session, &request("the other one", two.clone()));
    assert_eq!((executes(&d), d.decided_by), (Some("c1"), Decider::Continuity));
    // Executed and not rejected: "the other one" is still the other.
    let session = Fake::quiet();
    turn(&p, &session, &request("links panel e", two.clone()));
    assert_eq!(executes(&turn(&p, &session, &request("the other", two.clone()))), Some("c0"));
    // "No, the other one": the "no" refuses the one just had.
    let session = Fake::quiet();
    turn(&p, &session, &request("the first one", two.clone()));
    assert_eq!(executes(&turn(&p, &session, &request("no, the other one", two.clone()))), Some("c1"));
    // Three options: which other? The others are offered, not the one had.
    let three = labelled(&["Links Panel D", "Links Panel E", "Links Panels"]);
    let session = Fake::quiet();
    turn(&p, &session, &request("the first one", three.clone()));
    let d = turn(&p, &session, &request("the other one", three.clone()));
    assert_eq!((executes(&d), offered(&d)), (None, vec!["c1".to_string(), "c2".to_string()]));
    // "Not that one" never executes, even with one option left.
    let session = Fake::quiet();
    turn(&p, &session, &request("the first one", two.clone()));
    let d = turn(&p, &session, &request("not that one", two.clone()));
    assert_eq!((executes(&d), offered(&d)), (None, vec!["c1".to_string()]));
    // Another option set: nothing was had among these.
    let session = Fake::quiet();
    turn(&p, &session, &request("the first one", two.clone()));
    let mut moved = request("the other one", labelled(&["Revenue", "Costs"]));
    moved.options.as_mut().unwrap().option_set_id = "set-2".into();
    assert_eq!(executes(&turn(&p, &session, &moved)), None);
    // A fresh session has had nothing.
    assert_eq!(executes(&decide_once(&request("the other one", two))), None);
}

/// "3 kids" among "Kid", "Adult" and "Group (3 kids + 1 adult)" never
/// executes the group: a quantity names the option of its noun (rule
/// `quantity`, `value_words`), never a bundle whose label says more than
/// the input; the bundle said whole, or by its own word, is still that
/// bundle. The noun alone ("kids") is asked.
#[test]
fn a_quantity_never_executes_a_bundle_that_says_more() {
    use crate::testkit::Session;
    let fares = vec![Candidate::new("kid", "Kid"), Candidate::new("adult", "Adult"), Candidate::new("grp", "Group (3 kids + 1 adult)")];
    let set = OptionSet { option_set_id: "fares".into(), scope: Scope::Chat, candidates: fares.clone().into(), ..Default::default() };
    let choice = OptionSet { asked: Asked::Choice, ..set.clone() };
    for input in ["3 kids", "three kids", "3 kids please", "kids"] {
        for on in [&set, &choice] {
            let d = Session::new().say(input, on);
            assert_ne!(d.target_id.as_deref(), Some("grp"), "{input:?} on {:?}", on.asked);
            if input == "kids" {
                assert_eq!(d.outcome, Outcome::Clarify, "{input:?} on {:?}", on.asked);
                assert!(offered(&d).contains(&"kid".to_string()), "{input:?}: {:?}", offered(&d));
            } else {
                assert_eq!(executes(&d), Some("kid"), "{input:?} on {:?}", on.asked);
            }
        }
    }
    assert_eq!(executes(&decide_once(&request("the group", fares.clone()))), Some("grp"));
    let family = vec![Candidate::new("fam", "Family pass (2 adults + 2 kids)"), Candidate::new("single", "Single pass")];
    assert_eq!(executes(&decide_once(&request("2 adults and 2 kids", family.clone()))), Some("fam"));
    assert_eq!(executes(&decide_once(&request("2 kids", family))), None);
}

/// A quantity never executes a bundle whose label says more.
/// Over generated screens of single fares ("Kid", "Senior ticket") and
/// bundles that show two counts ("Group (3 kids + 1 adult)", "Family
/// pass: 2 adults, 2 kids"), an input that says some of a bundle's counts
/// but not all ("3 kids", "three kids please", "i need 2 adults"), on a
/// plain screen, the app's "which one?" and ladderd's, never executes a
/// bundle. Counted: the same bundle said with all its counts, alone on
/// screen with a single fare of another noun, executes.
#[test]
fn a_quantity_never_executes_a_bundle_whose_label_says_more() {
    use crate::testkit::{Branches, Session, check_cases};
    const NOUNS: &[(&str, &str)] = &[("kid", "kids"), ("adult", "adults"), ("senior", "seniors"), ("student", "students")];
    const WORDS: &[&str] = &["", "one", "two", "three", "four", "five"];
    let branches = Branches::default();
    let cases = (
        (0usize..4, 0usize..4).prop_filter("two nouns", |(a, b)| a != b),
        (1u32..=5, 1u32..=5),
        prop::sample::select(vec!["Group ({a} {A} + {b} {B})", "Family pass: {a} {A}, {b} {B}", "{a} {A} & {b} {B} bundle"]),
        prop::sample::select(vec!["{a} {A}", "{wa} {A} please", "i need {a} {A}", "{a} {A} tickets", "{a} {A}, thanks"]),
        any::<bool>(),
        0u8..3,
    );
    check_cases(crate::testkit::cases(128), file!(), &cases, |((x, y), (a, b), form, input, single_x, setting)| {
        let (nx, ny) = (NOUNS[x], NOUNS[y]);
        let plural = |n: u32, noun: (&'static str, &'static str)| if n == 1 { noun.0 } else { noun.1 };
        let bundle =
            form.replace("{a}", &a.to_string()).replace("{A}", plural(a, nx)).replace("{b}", &b.to_string()).replace("{B}", plural(b, ny));
        let capital = |w: &str| w[..1].to_uppercase() + &w[1..];
        let mut cands = vec![Candidate::new("bundle", bundle.as_str())];
        if single_x {
            cands.push(Candidate::new("single", capital(nx.0)));
        }
        cands.push(Candidate::new("other", format!("{} ticket", capital(ny.0))));
        let said = input.replace("{a}", &a.to_string()).replace("{wa}", WORDS[a as usize]).replace("{A}", plural(a, nx));
        let set = OptionSet { option_set_id: "fares".into(), scope: Scope::Chat, candidates: cands.clone().into(), ..Default::default() };
        let s = Session::new();
        let set = match setting {
            0 => set,
            1 => OptionSet { asked: Asked::Choice, ..set },
            _ => {
                s.say("ticket", &set);
                set
            }
        };
        let d = s.say(&said, &set);
        prop_assert_ne!(d.target_id.as_deref(), Some("bundle"), "{:?} over {:?} ({})", said, cands, setting);
        // Said with all its counts, the bundle is that bundle.
        let whole = format!("{a} {} and {b} {}", plural(a, nx), plural(b, ny));
        let alone = vec![Candidate::new("bundle", bundle.as_str()), Candidate::new("pass", "Season pass")];
        if executes(&decide_once(&request(&whole, alone))) == Some("bundle") {
            branches.hit("said whole, the bundle executes");
        }
        Ok(())
    });
    branches.expect(&[("said whole, the bundle executes", 64)]);
}

/// The object alone says an option whose action it leaves unsaid ("a refund please"
/// for "Request a refund", "fries" for "Add fries · $3.50"), only where
/// nothing else on screen shows it. Tried against an object another option
/// shares, a verb of the user's own, a high-risk option, a negation, a word
/// no option has, an object said in part, a value that differs from the
/// option's and two options named: none executes. The object alone on a
/// plain screen executes, whatever value the label shows beside it and
/// whatever article or possessive comes before it (counted: not vacuous).
#[test]
fn the_object_alone_says_an_option_only_where_no_other_shows_it() {
    use proptest::test_runner::{Config, TestRunner};
    use std::cell::Cell;
    let strategy = (
        prop::sample::select(vec!["request", "send", "schedule", "renew", "cancel", "upgrade", "add"]),
        prop::sample::select(vec!["refund", "replacement", "pickup", "subscription", "visit", "checked bag"]),
        prop::sample::select(vec!["change", "view", "track", "close"]),
        prop::sample::select(vec!["", "a ", "the ", "my "]),
        prop::sample::select(vec!["", " · $3.50", " (23 kg)", " · €35"]),
        0usize..8,
    );
    let plain = Cell::new(0);
    let mut runner = TestRunner::new(Config { cases: 128, ..Config::default() });
    runner
        .run(&strategy, |(action, object, other, det, detail, spoiler)| {
            let screen = |first: Candidate| vec![first, Candidate::new("t", "Track parcel"), Candidate::new("h", "Help center")];
            let mine = Candidate::new("x", format!("{action} {object}{detail}"));
            let input = format!("{det}{object} please");
            let (tried, cands): (String, Vec<Candidate>) = match spoiler {
                // Another option shows the object with another action.
                0 => (
                    input.clone(),
                    vec![mine.clone(), Candidate::new("y", format!("{other} {object}")), Candidate::new("h", "Help center")],
                ),
                // A verb of the user's own.
                1 => (format!("start {det}{object}"), screen(mine.clone())),
                // High risk.
                2 => (input.clone(), screen(Candidate { risk: Risk::High, ..mine.clone() })),
                // A negation.
                3 => (format!("no {object}"), screen(mine.clone())),
                // A word no option has.
                4 => (format!("{det}{object} for grandma"), screen(mine.clone())),
                // A value the option does not show.
                5 => (format!("{det}{object} for $9"), screen(mine.clone())),
                // Two options named.
                6 => (format!("{det}{object} or the parcel"), screen(mine.clone())),
                // The object said in part.
                _ => (input.clone(), screen(Candidate::new("x", format!("{action} {object} label{detail}")))),
            };
            let d = decide_once(&request(&tried, cands));
            prop_assert_ne!(executes(&d), Some("x"), "{:?} executed", tried);
            let d = decide_once(&request(&input, screen(mine)));
            if executes(&d) == Some("x") {
                plain.set(plain.get() + 1);
            }
            Ok(())
        })
        .unwrap();
    assert!(plain.get() >= 100, "the object alone executed {} times of 128", plain.get());
}

/// The one word that tells an option apart, with a noun for what it is
/// ("final version" for "Q3_plan_FINAL.xlsx" beside "Q3_plan_v2.xlsx", "the
/// signed copy", "the blue one"): a noun that fits any item (the lexicon's
/// `item_nouns`) says what every option is, never which, so the word alone
/// decides. Tried against the word on two options, a word no option has, a
/// negation, two options named, a noun of another kind than the option's
/// own ("the blue account" for "Blue card") and a high-risk option: none
/// executes. The word with the noun on a plain screen executes (counted).
#[test]
fn the_word_that_tells_an_option_apart_says_it_with_a_noun_for_what_it_is() {
    let strategy = (
        prop::sample::select(vec![
            ("signed", "draft"),
            ("blue", "green"),
            ("revised", "original"),
            ("annual", "monthly"),
            ("vegan", "beef"),
        ]),
        prop::sample::select(vec!["version", "copy", "one", "option", "variant", "kind"]),
        prop::sample::select(vec!["Q3_plan_{w}.xlsx", "Lease {w} · 2 pages", "{w} plan · PDF", "Wool sweater · {w}"]),
        0usize..6,
    );
    counted(strategy, 128, 0.7, |((a, b), noun, form, spoiler)| {
        let label = |w: &str| form.replace("{w}", w);
        let screen = |x: Candidate| vec![x, Candidate::new("y", label(b)), Candidate::new("z", "Help")];
        let mine = Candidate::new("x", label(a));
        let input = format!("the {a} {noun}");
        let (tried, cands): (String, Vec<Candidate>) = match spoiler {
            // The word on two options.
            0 => (input.clone(), vec![mine.clone(), Candidate::new("y", label(b)), Candidate::new("z", format!("Notes {a}"))]),
            // A word no option has.
            1 => (format!("{input} for grandma"), screen(mine.clone())),
            // A negation.
            2 => (format!("not the {a} {noun}"), screen(mine.clone())),
            // Two options named.
            3 => (format!("the {a} or the {b} {noun}"), screen(mine.clone())),
            // A noun of another kind than the option's own.
            4 => (format!("the {a} account"), vec![Candidate::new("x", format!("{a} card")), Candidate::new("y", format!("{b} card"))]),
            // High risk.
            _ => (input.clone(), screen(Candidate { risk: Risk::High, ..mine.clone() })),
        };
        let d = decide_once(&request(&tried, cands));
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} executes {:?}", tried, d.target_id);
        Ok(executes(&decide_once(&request(&input, screen(mine)))) == Some("x"))
    });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testkit::cases(96)))]

    /// A high-risk label is said whole only with the words canonical
    /// forms drop as filler: over screens holding "Pay now", "Delete
    /// files only", "Cancel order right now" (`RISK_HIGH`), alone or
    /// beside normal options, the label without its filler ("go ahead and
    /// pay for them", "delete files") is confirmed or asked, never
    /// executed; with it, beside other options, the label executes.
    #[test]
    fn a_high_risk_label_is_whole_only_with_its_filler_words(
        verb in prop::sample::select(vec!["Pay", "Delete", "Transfer", "Cancel"]),
        object in prop::sample::select(vec!["", " files", " order"]),
        filler in prop::sample::select(vec!["now", "right now", "only"]),
        opener in prop::sample::select(vec!["", "ok go ahead and ", "please ", "yes "]),
        tail in prop::sample::select(vec!["", " for them", " please"]),
        others in any::<bool>(),
    ) {
        let label = format!("{verb}{object} {filler}");
        let mut cands = vec![Candidate { risk: Risk::High, ..Candidate::new("risky", label.as_str()) }];
        if others {
            cands.push(Candidate::new("snacks", "Add snacks"));
            cands.push(Candidate::new("change", "Change tickets"));
        }
        let unsaid = format!("{opener}{}{}{tail}", verb.to_lowercase(), object);
        let d = decide_once(&request(&unsaid, cands.clone()));
        prop_assert_ne!(executes(&d), Some("risky"), "{:?} over {:?}", unsaid, label);
        // A yes before it is the reply room's, and a plain screen of one
        // high-risk option confirms it first, whatever is said.
        if opener != "yes " && others {
            let whole = format!("{opener}{}{} {filler}", verb.to_lowercase(), object);
            let d = decide_once(&request(&whole, cands));
            prop_assert_eq!(executes(&d), Some("risky"), "{:?} over {:?}", whole, label);
        }
    }
}
