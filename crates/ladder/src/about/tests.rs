use super::*;
use crate::policy::{LlmAnswer, Policy};
use crate::testkit::{Fake, req, turn};
use crate::types::{Candidate, Decision, FallbackReason};

/// The concepts [`crate::testkit::Concepts`] knows here.
const CONCEPTS: &[&[&str]] = &[
    &["transfer", "move", "send", "wire", "money"],
    &["balance", "much", "left"],
    &["card", "lost", "stolen", "arrive", "arrives"],
    &["pin", "code"],
    &["bill", "pay", "due"],
    &["pool", "spa", "swim", "heated"],
];

fn meaning() -> Policy {
    crate::testkit::with_concepts(CONCEPTS)
}

fn screen(input: &str) -> DecideRequest {
    let mut r = req(input);
    let labels = [
        ("pin", "Pin change"),
        ("bill", "Pay bill"),
        ("card", "Report lost card"),
        ("bal", "Balance"),
        ("xfer", "Transfer"),
        ("pool", "Pool & spa hours"),
    ];
    r.options.as_mut().unwrap().candidates = labels.iter().map(|(id, l)| Candidate::new(*id, *l)).collect::<Vec<_>>().into();
    r
}

fn decide(p: &Policy, r: &DecideRequest) -> Decision {
    turn(p, &Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled }), r).decision
}

fn about_step(d: &Decision) -> (String, String) {
    let s = d.trace.iter().find(|s| s.rung == "about").expect("an about step");
    (s.outcome.clone(), s.detail.clone())
}

#[test]
fn a_question_says_which_option_it_is_about() {
    let d = decide(&meaning(), &screen("is the pool heated at night?"));
    assert_eq!((d.outcome, d.escape_reason), (Outcome::Escape, Some(EscapeReason::QuestionIntent)));
    assert_eq!(d.about, ["pool"]);
    let (ranking, detail) = about_step(&d);
    assert_eq!(ranking, "words");
    assert!(detail.starts_with("pool:"), "ids and scores: {detail}");
    assert!(!detail.contains("heated"), "no user text in the trace: {detail}");
}

#[test]
fn a_question_in_other_words_is_about_the_options_closest_in_meaning() {
    // No label word: meaning alone says what it is about.
    let d = decide(&meaning(), &screen("what happens when it was stolen?"));
    assert_eq!(d.outcome, Outcome::Escape);
    assert_eq!(d.about, ["card"]);
    assert_eq!(about_step(&d).0, "meaning");
}

#[test]
fn what_the_words_name_leads_and_meaning_follows() {
    // "Balance" is named; the transfer concept is what the rest means.
    let d = decide(&meaning(), &screen("what is my balance after I wire money?"));
    assert_eq!(d.about.first().map(String::as_str), Some("bal"), "{:?}", d.about);
    assert!(d.about.contains(&"xfer".to_string()), "{:?}", d.about);
}

#[test]
fn a_question_about_nothing_on_the_screen_is_about_nothing() {
    let d = decide(&meaning(), &screen("what's the weather like tomorrow?"));
    assert_eq!((d.outcome, d.escape_reason), (Outcome::Escape, Some(EscapeReason::QuestionIntent)));
    assert!(d.about.is_empty(), "{:?}", d.about);
    assert_eq!(about_step(&d), ("none".to_string(), String::new()));
}

#[test]
fn without_a_model_only_what_the_words_name() {
    let words = Policy::defaults();
    assert_eq!(decide(&words, &screen("is the pool heated at night?")).about, ["pool"]);
    assert!(decide(&words, &screen("what happens when it was stolen?")).about.is_empty());
}

#[test]
fn at_most_three_the_words_first_then_meaning() {
    // Four options' concepts, the transfer one the strongest; "pin" and
    // "bill" are label words.
    let d = decide(&meaning(), &screen("can I wire money, send money, pay a bill, change a pin code or swim?"));
    assert_eq!(d.outcome, Outcome::Escape);
    assert_eq!(d.about.len(), MAX, "{:?}", d.about);
    let mut named = d.about[..2].to_vec();
    named.sort();
    assert_eq!(named, ["bill", "pin"]);
    assert_eq!(d.about[2], "xfer");
}

#[test]
fn only_a_question_is_about_anything() {
    for input in ["pay bill", "the pool one", "how about", "cancel", "wire the funds"] {
        let d = decide(&meaning(), &screen(input));
        assert!(d.escape_reason != Some(EscapeReason::QuestionIntent) || input == "how about", "{input}: {d:?}");
        if d.escape_reason != Some(EscapeReason::QuestionIntent) {
            assert!(d.about.is_empty(), "{input}: {:?} {:?}", d.outcome, d.about);
            assert!(d.trace.iter().all(|s| s.rung != "about"), "{input}");
        }
    }
}

#[test]
fn a_position_in_a_question_counts_in_the_whole_list() {
    // The words are read over the options that share one with the
    // question; a position is read over the screen as shown.
    for p in [meaning(), Policy::defaults()] {
        let d = decide(&p, &screen("what is the second option?"));
        assert_eq!((d.outcome, d.escape_reason), (Outcome::Escape, Some(EscapeReason::QuestionIntent)));
        assert_eq!(d.about.first().map(String::as_str), Some("bill"), "{:?}", d.about);
    }
}

#[test]
fn a_label_word_the_question_shares_names_its_options_among_the_others() {
    // "card" and "lost" are one option's words among six: read over the
    // options that have them, the same option the whole screen names.
    for p in [meaning(), Policy::defaults()] {
        let d = decide(&p, &screen("what do I do about a lost card?"));
        assert_eq!(d.about.first().map(String::as_str), Some("card"), "{:?}", d.about);
    }
}

/// What `about` reads from the words' hits: the entries they single out
/// or name whole, in order, and the entries that only share a word when
/// there are few enough to be offered (`MAX`), in order.
fn read_by_about(m: &matching::Matches) -> (Vec<usize>, Option<Vec<usize>>) {
    let strong = m.hits.iter().filter(|h| h.kind >= MatchKind::Typo).map(|h| h.entry).collect();
    let shared: Vec<usize> = m.hits.iter().filter(|h| h.kind == MatchKind::Containment).map(|h| h.entry).collect();
    (strong, (shared.len() <= MAX).then_some(shared))
}

/// The shortcut for questions that only share words with some options
/// (`shared_only`) gives `about` what the match rung gives it, on
/// generated screens and questions of words the lexicon has (positions,
/// verbs, question words, function words) and words it has not. It must
/// run on a good share of the cases, else the property proves nothing.
#[test]
fn a_question_that_only_shares_words_is_read_as_the_match_rung_reads_it() {
    use proptest::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    const WORDS: &[&str] = &[
        "oil",
        "tire",
        "pressure",
        "revenue",
        "forecast",
        "holiday",
        "pets",
        "jokes",
        "bill",
        "card",
        "pay",
        "change",
        "next",
        "last",
        "show",
        "how",
        "do",
        "you",
        "what",
        "my",
        "status",
        "new",
        "report",
        "time",
        "cook",
        "balance",
        "other",
        "and",
        "not",
        "mars",
        "friday",
        "one",
        "lost",
        "transfer",
        "application",
        "meaning",
        "life",
        "who",
        "made",
        "are",
        "from",
        "old",
        "invoice",
        "parcel",
        "garden",
        "kitchen",
        "window",
        "engine",
        "spa",
        "pool",
        "flight",
        "hotel",
        "dinner",
        "weather",
        "music",
        "budget",
        "laptop",
        "heating",
        "ticket",
        "refund",
        "sauna",
        "printer",
    ];
    const OPENERS: &[&str] = &["what is", "how do i", "is there", "can you tell me", "when is my", "do you know", "why does the", "where"];
    let word = || prop::sample::select(WORDS);
    let label = prop::collection::vec(word(), 1..4).prop_map(|w| w.join(" "));
    let question = (prop::sample::select(OPENERS), prop::collection::vec(word(), 1..5)).prop_map(|(o, w)| format!("{o} {}?", w.join(" ")));
    let lex = crate::lexicon::Lexicon::shipped();
    let params = matching::MatchParams { typo_max_edits: 0, joined_words: false, fuzzy_min_similarity: 2.0, ..Default::default() };
    let (fast, cases) = (AtomicUsize::new(0), AtomicUsize::new(0));
    crate::testkit::check_cases(2000, file!(), &(prop::collection::vec(label, 4..12), question), |(labels, input)| {
        // Every third option is of a kind a question may name ("report").
        let cands: Vec<Candidate> = labels
            .iter()
            .enumerate()
            .map(|(i, l)| Candidate {
                kind: if i % 3 == 0 { "report".into() } else { String::new() },
                ..Candidate::new(format!("c{i}"), l.as_str())
            })
            .collect();
        let pool = Pool {
            entries: cands
                .iter()
                .enumerate()
                .map(|(position, cand)| scope::Entry { cand, source: scope::Source::ActiveOptions, position })
                .collect(),
            cue: None,
            ordinal_source: Some(scope::Source::ActiveOptions),
            shown_len: None,
        };
        let stop = DeadlineWatch::default();
        let index = CanonPool::build(&pool, &lex, &stop).unwrap();
        index.build_vocab(&stop).unwrap();
        let query = Query::new(crate::canon::canonicalize(&input, &lex), &lex);
        let toks: Vec<&str> = crate::text::words(&query.full).collect();
        let Some(sharing) = index.entries_with_any(toks.iter().copied()).filter(|s| !s.is_empty() && 2 * s.len() <= pool.len()) else {
            return Ok(());
        };
        cases.fetch_add(1, Relaxed);
        let Some(hits) = shared_only(&toks, &sharing, &pool, &index, &lex) else { return Ok(()) };
        fast.fetch_add(1, Relaxed);
        let mut r = req(&input);
        r.options.as_mut().unwrap().candidates = cands.clone().into();
        let rules = matching::Rules { lex: &lex, params: &params, ranked: 0, stop: &stop };
        let by_find = read_among(&r, &query, &pool, &sharing, rules).unwrap();
        let by_words = matching::Matches { hits, ..Default::default() };
        prop_assert_eq!(read_by_about(&by_words), read_by_about(&by_find), "{:?} over {:?}", input, labels);
        Ok(())
    });
    let (fast, cases) = (fast.load(Relaxed), cases.load(Relaxed));
    assert!(fast * 20 >= cases, "the shortcut ran on {fast} of {cases} cases");
}
