//! Shorthand (`short_forms`), run end to end through the ladder: common
//! short forms, and a property that tries to make a short form
//! execute what a careful person would not.

use super::stands_for;
use crate::matching::tests::{executed, request};
use crate::policy::Policy;
use crate::testkit::{Fake, turn};
use crate::types::*;
use proptest::prelude::*;

fn decide(input: &str, labels: &[&str]) -> Decision {
    let cands: Vec<Candidate> = labels.iter().enumerate().map(|(i, l)| Candidate::new(format!("o{i}"), *l)).collect();
    turn(&Policy::defaults(), &Fake::quiet(), &request(input, &cands)).decision
}

#[test]
fn a_short_form_stands_for_the_word_it_cuts_or_texts() {
    for (t, w) in
        [("med", "medium"), ("prefs", "preferences"), ("prev", "previous"), ("pg", "page"), ("msg", "message"), ("upd8", "update")]
    {
        assert!(stands_for(t, w), "{t} for {w}");
    }
    for (t, w) in [("me", "medium"), ("pe", "page"), ("msg", "mosaic"), ("upd9", "update"), ("med", "remedy"), ("xyz", "xylophone")] {
        assert!(!stands_for(t, w), "{t} is no short form of {w}");
    }
}

/// Common short forms execute; a short form that fits two candidates'
/// words, or that comes with a word no candidate has, is asked.
#[test]
fn shorthand_says_the_one_candidate_word_it_can_only_be() {
    let lattes = ["Small latte", "Medium latte", "Large latte"];
    let settings = ["Preferences", "Account", "Help"];
    let pages = ["Next page", "Previous page"];
    let update = ["Update now", "Remind me later"];
    let preview = ["Preview", "Previous", "Publish"];
    let table: &[(&str, &[&str], Option<&str>)] = &[
        ("med pls", &lattes, Some("o1")),
        ("prefs", &settings, Some("o0")),
        ("prev pg", &pages, Some("o1")),
        ("upd8 now", &update, Some("o0")),
        ("pre", &preview, None),
        ("med pls with oat milk", &lattes, None),
        ("not med", &lattes, None),
        ("med or lrg", &lattes, None),
        // A conjunction that joins nothing: last, or a word that goes on
        // first; an "or" first may offer it as one of several.
        ("med then", &lattes, Some("o1")),
        ("and prefs", &settings, Some("o0")),
        ("or med", &lattes, None),
    ];
    for (input, labels, want) in table {
        let d = decide(input, labels);
        assert_eq!(executed(&d), *want, "{input:?} over {labels:?}: {:?} {:?} {:?}", d.outcome, d.target_id, d.trace);
    }
}

/// The classify step names the rule that said the short word.
#[test]
fn the_trace_names_the_short_form_rule() {
    let d = decide("prefs", &["Preferences", "Account", "Help"]);
    let classify = d.trace.iter().find(|s| s.rung == "classify").map(|s| s.detail.clone()).unwrap_or_default();
    assert!(classify.contains("short_form"), "{classify}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testkit::cases(64)))]

    /// Generated words sharing their first letters: a cut that only one
    /// of them begins executes its option or is asked, never another; a
    /// cut two begin, a negation,
    /// two cuts as alternatives, or a word no candidate has beside the
    /// cut never execute; a high-risk option is never executed by a cut.
    #[test]
    fn a_short_form_never_executes_what_another_word_fits(
        stem in "[bcdfgklmnprst][aeiou][bcdfgklmnprst]",
        tails in prop::collection::vec("[aeiou][bcdfgklmnprst]{2}[aeiou][bcdfgklmnprst]", 2),
        cut in 1usize..3,
        spoiler in 0usize..4,
    ) {
        prop_assume!(tails[0][..cut] != tails[1][..cut]);
        // The reply rung reads a first word like "nobed" as an answer and
        // the rest again ("nobed or nobubfif" executes the second on main
        // too): that is the reply rung's, left out here.
        prop_assume!(!stem.starts_with("no"));
        let words = [format!("{stem}{}", tails[0]), format!("{stem}{}", tails[1])];
        let labels = [words[0].clone(), words[1].clone(), "Zzyzx".to_string()];
        let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
        // The stem alone begins both.
        let d = decide(&stem, &labels);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} over {:?}", stem, labels);
        // One letter more begins the first only.
        let mine = &words[0][..stem.len() + cut];
        // A cut ending in "s" may be the plural of a shorter cut both begin.
        prop_assume!(!mine.ends_with('s'));
        let policy = Policy::defaults();
        prop_assume!(!super::super::typo::lexicon_word(mine, &policy.lexicon) && !super::super::typo::lexicon_word(&stem, &policy.lexicon));
        // It may be asked (a cut near a word of the lexicon, "dake" of
        // "take", is read as that word first), never another option.
        let d = decide(mine, &labels);
        prop_assert!(matches!(executed(&d), Some("o0") | None), "{:?} over {:?} executed {:?}", mine, labels, d.target_id);
        let tried = match spoiler {
            0 => format!("not {mine}"),
            1 => format!("{mine} or {}", &words[1][..stem.len() + cut]),
            2 => format!("{mine} for grandma"),
            _ => format!("{mine} and {}", &words[1][..stem.len() + cut]),
        };
        let d = decide(&tried, &labels);
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} over {:?} executed {:?} {:?}", tried, labels, d.target_id, d.trace);
        let cands: Vec<Candidate> = labels
            .iter()
            .enumerate()
            .map(|(i, l)| Candidate { risk: if i == 0 { Risk::High } else { Risk::Normal }, ..Candidate::new(format!("o{i}"), *l) })
            .collect();
        let req = request(mine, &cands);
        let d = turn(&Policy::defaults(), &Fake::quiet(), &req).decision;
        prop_assert_ne!(d.outcome, Outcome::Execute, "high risk {:?} executed", mine);
    }
}
