use super::*;
use crate::policy::{LlmAnswer, Policy};
use crate::testkit::{Fake, ids, req, turn};
use crate::types::{Candidate, FallbackReason, Outcome};

/// The concepts [`crate::testkit::Concepts`] knows here.
const CONCEPTS: &[&[&str]] = &[
    &["transfer", "move", "send", "wire", "money"],
    &["balance", "much", "left", "have"],
    &["card", "lost", "stolen"],
    &["pin", "code"],
    &["bill", "pay", "due"],
    &["statement", "history", "spent"],
];

fn meaning() -> Policy {
    crate::testkit::with_concepts(CONCEPTS)
}

fn bank(input: &str) -> crate::types::DecideRequest {
    let mut r = req(input);
    let labels = [
        ("pin", "Pin change"),
        ("bill", "Pay bill"),
        ("card", "Report lost card"),
        ("hist", "Spending history"),
        ("bal", "Balance"),
        ("xfer", "Transfer"),
    ];
    r.options.as_mut().unwrap().candidates = labels.iter().map(|(id, l)| Candidate::new(*id, *l)).collect::<Vec<_>>().into();
    r
}

fn off() -> Fake {
    Fake::new(LlmAnswer::Skipped { reason: FallbackReason::LlmDisabled })
}

fn rank_step(d: &crate::types::Decision) -> (String, String) {
    let s = d.trace.iter().find(|s| s.rung == "rank").expect("a rank step");
    (s.outcome.clone(), s.detail.clone())
}

#[test]
fn a_paraphrase_is_offered_the_option_it_means_first() {
    let input = "i'd like to move money between my accounts";
    let words = turn(&Policy::defaults(), &off(), &bank(input)).decision;
    let meant = turn(&meaning(), &off(), &bank(input)).decision;
    assert_eq!((words.outcome, meant.outcome), (Outcome::Clarify, Outcome::Clarify));
    assert_ne!(ids(&words).first().map(String::as_str), Some("xfer"), "the words alone: {:?}", ids(&words));
    assert_eq!(ids(&meant).first().map(String::as_str), Some("xfer"), "{:?}", ids(&meant));
    let (ranking, detail) = rank_step(&meant);
    assert_eq!(ranking, "meaning");
    assert!(detail.starts_with("xfer:1.00"), "ids and scores: {detail}");
    assert!(!detail.contains("money"), "no user text in the trace: {detail}");
}

#[test]
fn one_option_far_closer_than_the_rest_is_offered_with_the_next_only() {
    // "wire" is the transfer concept alone: every other option is at 0.
    let d = turn(&meaning(), &off(), &bank("wire the funds")).decision;
    assert_eq!(d.outcome, Outcome::Clarify);
    assert_eq!(ids(&d).len(), 2, "{:?}", ids(&d));
    assert_eq!(ids(&d)[0], "xfer");
}

#[test]
fn two_options_far_closer_than_the_rest_are_offered_alone() {
    // Half transfer, half balance; nothing of the rest.
    let d = turn(&meaning(), &off(), &bank("money to send and what i have left")).decision;
    let mut offered = ids(&d);
    offered.sort();
    assert_eq!(offered, ["bal", "xfer"]);
}

#[test]
fn options_that_stay_close_are_all_offered_up_to_the_cap() {
    // Three concepts alike, a fourth at half: no gap after the first two.
    let d = turn(&meaning(), &off(), &bank("send money, pay the bill, the pin code and a lost one")).decision;
    let offered = ids(&d);
    assert_eq!(offered.len(), 5, "{offered:?}");
    let mut first = offered[..3].to_vec();
    first.sort();
    assert_eq!(first, ["bill", "pin", "xfer"]);
}

#[test]
fn a_tie_the_model_reads_nothing_in_keeps_the_words_ranking() {
    // "links panel" names Links Panel D and E, words the model does not
    // know: the words' tie, in the screen's order.
    let words = turn(&Policy::defaults(), &off(), &req("links panel")).decision;
    let meant = turn(&meaning(), &off(), &req("links panel")).decision;
    assert_eq!(ids(&meant), ids(&words));
    assert_eq!(rank_step(&meant), ("words".to_string(), String::new()));
}

/// Six card actions and two others: "card" is the screen's common noun.
fn cards(input: &str) -> crate::types::DecideRequest {
    let mut r = req(input);
    let labels = [
        ("limit", "Card limit"),
        ("freeze", "Freeze card"),
        ("lost", "Lost card"),
        ("pin", "Card pin"),
        ("bill", "Card bill"),
        ("send", "Card transfer"),
        ("bal", "Balance"),
        ("hist", "History"),
    ];
    r.options.as_mut().unwrap().candidates = labels.iter().map(|(id, l)| Candidate::new(*id, *l)).collect::<Vec<_>>().into();
    r
}

#[test]
fn a_word_tie_larger_than_the_clarifier_is_cut_by_meaning_not_by_the_screens_order() {
    // "card" ties six options; the sixth on the screen is what "money" means.
    let input = "the card money never came";
    let words = turn(&Policy::defaults(), &off(), &cards(input)).decision;
    let meant = turn(&meaning(), &off(), &cards(input)).decision;
    assert_eq!(meant.ambiguity_reason, Some(crate::types::AmbiguityReason::MultiMatchNoExactWinner));
    assert_eq!((words.outcome, meant.outcome), (Outcome::Clarify, Outcome::Clarify));
    assert!(!ids(&words).contains(&"send".to_string()), "the words alone: {:?}", ids(&words));
    assert_eq!(ids(&meant).first().map(String::as_str), Some("send"), "{:?}", ids(&meant));
    assert!(ids(&meant).len() <= 5);
    let (ranking, detail) = rank_step(&meant);
    assert_eq!(ranking, "tie-meaning");
    assert!(detail.starts_with("send:1.00"), "{detail}");
}

#[test]
fn a_tie_on_a_weak_word_is_filled_beside_it_by_meaning() {
    // "card" ties two options on a screen where the input's other word
    // means Transfer: the tie first, then the closest option beside it.
    let d = turn(&meaning(), &off(), &bank("the card money never came")).decision;
    let offered = ids(&d);
    assert_eq!(d.ambiguity_reason, Some(crate::types::AmbiguityReason::MultiMatchNoExactWinner));
    assert_eq!(d.outcome, Outcome::Clarify);
    assert_eq!(offered.first().map(String::as_str), Some("card"), "{offered:?}");
    assert!(offered.contains(&"xfer".to_string()), "{offered:?}");
    assert!(offered.len() <= 5, "{offered:?}");
    assert_eq!(rank_step(&d).0, "tie-meaning");
    // Without the model: the tie alone, as the words rank it.
    assert!(
        !ids(&turn(&Policy::defaults(), &off(), &bank("the card money never came")).decision)
            .starts_with(&["card".to_string(), "xfer".to_string()])
    );
}

#[test]
fn what_the_input_names_whole_still_leads_a_tie() {
    // "Balance" named whole beside a "card" tie: it leads, and meaning
    // orders the rest.
    let d = turn(&meaning(), &off(), &cards("balance or card money")).decision;
    let words = turn(&Policy::defaults(), &off(), &cards("balance or card money")).decision;
    assert_eq!((d.outcome, words.outcome), (Outcome::Clarify, Outcome::Clarify));
    assert_eq!(ids(&d).first().map(String::as_str), Some("bal"), "{:?}", ids(&d));
    assert_eq!(ids(&words).first().map(String::as_str), Some("bal"), "{:?}", ids(&words));
}

#[test]
fn a_negation_of_what_the_words_point_at_keeps_the_words_rules() {
    // "card" points at six options after "anything but": what the
    // negation excludes, not a tie for meaning to order.
    for input in ["anything but the card ones", "not the card ones"] {
        let words = turn(&Policy::defaults(), &off(), &cards(input)).decision;
        let meant = turn(&meaning(), &off(), &cards(input)).decision;
        assert_eq!(meant.outcome, Outcome::Clarify, "{input}");
        assert_eq!(ids(&meant), ids(&words), "{input}");
        assert_eq!(rank_step(&meant).0, "words", "{input}");
    }
}

#[test]
fn numbers_in_a_sentence_that_says_more_are_values_not_positions() {
    // "3rd" is the third option's position, "1" the first's; the rest
    // says more than any label: meaning orders the clarifier, and the
    // positions do not lead it.
    for (input, meant_id) in [("wire the money to my landlord on the 3rd", "send"), ("pay 1 invoice that is due for my landlord", "bill")] {
        let words = turn(&Policy::defaults(), &off(), &cards(input)).decision;
        let meant = turn(&meaning(), &off(), &cards(input)).decision;
        assert_eq!((words.outcome, meant.outcome), (Outcome::Clarify, Outcome::Clarify), "{input}");
        assert_ne!(ids(&words).first().map(String::as_str), Some(meant_id), "{input}: the words alone: {:?}", ids(&words));
        assert_eq!(ids(&meant).first().map(String::as_str), Some(meant_id), "{input}: {:?}", ids(&meant));
        assert_ne!(rank_step(&meant).0, "words", "{input}");
    }
    // A position and nothing more is one: "2 or 3" offers the second and
    // the third, as the words rank them.
    let words = turn(&Policy::defaults(), &off(), &cards("2 or 3")).decision;
    let meant = turn(&meaning(), &off(), &cards("2 or 3")).decision;
    assert_eq!(ids(&meant), ["freeze", "lost"]);
    assert_eq!(ids(&meant), ids(&words));
}

#[test]
fn another_language_or_nothing_the_model_reads_keeps_the_words() {
    let mut r = bank("i'd like to move money between my accounts");
    r.language = "he".into();
    let d = turn(&meaning(), &off(), &r).decision;
    assert_eq!(rank_step(&d).0, "words");
    let d = turn(&meaning(), &off(), &bank("zzz qqq")).decision;
    assert_eq!(d.outcome, Outcome::Clarify);
    assert_eq!(rank_step(&d).0, "words", "nothing read in the input");
}

#[test]
fn candidate_text_joins_label_sublabel_aliases_and_kind() {
    let mut c = Candidate::new("a", "Transfer");
    c.sublabel = "between accounts".into();
    c.aliases = vec!["send money".into(), " ".into()];
    c.kind = "bank_action".into();
    let mut text = String::new();
    candidate_text(&c, &mut text);
    assert_eq!(text, "Transfer. between accounts. send money. bank action");
}

/// [`crate::testkit::Concepts`], counting the texts it embeds.
struct Counted(std::sync::atomic::AtomicUsize);

impl Embedder for Counted {
    fn dim(&self) -> usize {
        crate::testkit::Concepts(CONCEPTS).dim()
    }

    fn embed(&self, text: &str, out: &mut [f32]) -> bool {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        crate::testkit::Concepts(CONCEPTS).embed(text, out)
    }
}

#[test]
fn a_pools_vectors_are_made_once_and_kept_with_it() {
    let counted = Arc::new(Counted(Default::default()));
    let mut p = Policy::defaults();
    p.meaning = Some(Meaning { model: counted.clone(), name: "counted".into(), languages: vec!["en".into()] });
    let embedded = || counted.0.load(std::sync::atomic::Ordering::Relaxed);
    let r = bank("i'd like to move money between my accounts");
    let (with, without) = (crate::intern::PoolMemo::new(1 << 20).counting_vectors(CONCEPTS.len()), crate::intern::PoolMemo::new(1 << 20));
    let first = crate::testkit::turn_with(&p, &off(), &r, Some(&with)).decision;
    assert_eq!(embedded(), 6 + 1, "the six candidates and the input");
    let again = crate::testkit::turn_with(&p, &off(), &r, Some(&with)).decision;
    assert_eq!(embedded(), 6 + 2, "the screen again: the input only");
    assert_eq!(ids(&first), ids(&again));
    // The memo counts the vectors it may keep with the pool.
    crate::testkit::turn_with(&p, &off(), &r, Some(&without));
    assert_eq!(with.held().1 - without.held().1, PoolVectors::bytes_for(6, CONCEPTS.len()));
}

proptest::proptest! {
    /// The closest entries over a floor are the entries `rest` offers
    /// that reach it, in its order: whatever the similarities (ties
    /// included), the entries taken and how many are asked for.
    #[test]
    fn the_closest_over_a_floor_are_what_rest_offers_over_it(
        s in proptest::collection::vec(proptest::sample::select(vec![-0.5f32, 0.0, 0.1, 0.22, 0.3, 0.3, 0.7, 1.0]), 0..40),
        taken in proptest::collection::vec(0usize..40, 0..4),
        n in 0usize..6,
        floor in proptest::sample::select(vec![0.0f32, 0.22, 0.3, 2.0]),
    ) {
        let similar = Similar(Some(s.clone()));
        let want: Vec<usize> = similar.rest(s.len(), &taken, n).into_iter().filter(|e| s[*e] >= floor).collect();
        proptest::prop_assert_eq!(similar.closest(s.len(), &taken, n, floor), want);
        proptest::prop_assert!(Similar(None).closest(s.len(), &taken, n, floor).is_empty());
    }
}
