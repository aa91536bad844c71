//! A verb said in other words (`synonyms`), run end to end through the
//! ladder: common synonyms execute the option whose label says the verb,
//! and a property tries to make one execute what a careful person would
//! not.

use crate::matching::tests::{executed, request};
use crate::policy::Policy;
use crate::testkit::{Fake, turn};
use crate::types::*;
use proptest::prelude::*;

fn decide(input: &str, labels: &[&str]) -> Decision {
    let cands: Vec<Candidate> = labels.iter().enumerate().map(|(i, l)| Candidate::new(format!("o{i}"), *l)).collect();
    turn(&Policy::defaults(), &Fake::quiet(), &request(input, &cands)).decision
}

/// A synonym of the label's verb executes that option; beside its
/// opposite, a synonym no label says, a negation, two options named or a
/// word no option has, it is asked.
#[test]
fn a_verb_in_other_words_says_the_option_whose_label_has_it() {
    let garage = ["Lock front door", "Unlock front door", "Open garage", "Close garage"];
    let requests = ["Accept Dana's request", "Decline Dana's request", "Accept Omar's request", "Decline Omar's request"];
    let opened = ["Open garage", "Lock front door"];
    let tv = ["Mute TV", "Unmute TV", "TV off"];
    let song = ["Add to queue", "Save to Liked Songs", "Share", "Go to artist"];
    let table: &[(&str, &[&str], Option<&str>)] = &[
        ("shut the garage", &garage, Some("o3")),
        ("accept omar", &requests, Some("o2")),
        ("approve omar", &requests, Some("o2")),
        ("reject dana's request", &requests, Some("o1")),
        ("silence the tv", &tv, Some("o0")),
        // A verb of selection stays phrasing for the options that do not
        // say its synonym.
        ("start the playlist", &["Begin tutorial", "Playlist"], Some("o1")),
        // No label says "close": "shut" asks for what no option does.
        ("shut the garage", &opened, None),
        ("don't shut the garage", &garage, None),
        ("approve omar and dana", &requests, None),
        ("approve omar's holiday", &requests, None),
        ("approve", &requests, None),
        // A verb of selection said alone is the request: the option whose
        // label says its synonym.
        ("send it", &song, Some("o2")),
        ("send this", &song, Some("o2")),
        ("approve", &["Accept", "Decline"], Some("o0")),
        ("approve", &["Accept", "Decline", "Accept all"], None),
        ("send it to the queue", &song, None),
    ];
    for (input, labels, want) in table {
        let d = decide(input, labels);
        assert_eq!(executed(&d), *want, "{input:?} over {labels:?}: {:?} {:?} {:?}", d.outcome, d.target_id, d.trace);
    }
}

/// A synonym that two label words fit ("deny" with "Decline" and
/// "Reject" shown) says neither.
#[test]
fn a_synonym_two_label_words_fit_says_neither() {
    let d = decide("deny the invite", &["Decline invite", "Reject invite", "Accept invite"]);
    assert_eq!(executed(&d), None, "{:?}", d.trace);
}

/// The classify step names the rule that said the verb.
#[test]
fn the_trace_names_the_synonym_rule() {
    let d = decide("shut the garage", &["Open garage", "Close garage"]);
    assert_eq!(executed(&d), Some("o1"));
    let classify = d.trace.iter().find(|s| s.rung == "classify").map(|s| s.detail.clone()).unwrap_or_default();
    assert!(classify.contains("synonym"), "{classify}");
}

/// Pairs of a verb and a synonym from the lexicon, and a verb of
/// another action to stand beside them.
const PAIRS: &[(&str, &str, &str)] = &[
    ("Close", "shut", "Open"),
    ("Accept", "approve", "Decline"),
    ("Decline", "reject", "Accept"),
    ("Mute", "silence", "Unmute"),
    ("Buy", "purchase", "Sell"),
    ("Restart", "reboot", "Stop"),
    ("Pay", "settle", "Dispute"),
    ("Duplicate", "copy", "Delete"),
    ("Next", "skip", "Previous"),
    ("Freeze", "lock", "Unfreeze"),
    ("Pause", "hold", "Resume"),
    ("Apagar", "apaga", "Encender"),
    ("Spegni", "spegnere", "Accendi"),
    ("Baisser", "baisse", "Monter"),
    ("Teilen", "schicken", "Löschen"),
    ("Reschedule", "push back", "Cancel"),
    ("Reply", "write back", "Forward"),
    ("Return", "send back", "Exchange"),
    ("Cancel", "call off", "Reschedule"),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testkit::cases(64)))]

    /// Generated objects under a verb and its opposite: the synonym
    /// executes the verb's option or asks, never the opposite's; with a
    /// negation, a word no option has, two objects, the verb's option
    /// high risk, or the verb's option gone, it never executes.
    #[test]
    fn a_synonym_never_executes_another_action(
        pair in 0..PAIRS.len(),
        objects in prop::collection::vec("[bcdfgklmnprst][aeiou][bcdfgklmnprst]{2}[aeiou]", 2),
        spoiler in 0usize..5,
    ) {
        prop_assume!(objects[0] != objects[1]);
        let (verb, synonym, other) = PAIRS[pair];
        let labels = [
            format!("{verb} {}", objects[0]),
            format!("{other} {}", objects[0]),
            format!("{verb} {}", objects[1]),
        ];
        let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
        let said = format!("{synonym} the {}", objects[0]);
        let d = decide(&said, &labels);
        prop_assert!(matches!(executed(&d), Some("o0") | None), "{:?} over {:?} executed {:?}", said, labels, d.target_id);
        let tried = match spoiler {
            0 => format!("don't {said}"),
            1 => format!("{said} for grandma"),
            2 => format!("{synonym} the {} and the {}", objects[0], objects[1]),
            3 => said.clone(),
            _ => format!("{synonym} the {} or the {}", objects[0], objects[1]),
        };
        if spoiler == 3 {
            // The verb's option high risk: never executed without its label.
            let cands: Vec<Candidate> = labels
                .iter()
                .enumerate()
                .map(|(i, l)| Candidate { risk: if i == 0 { Risk::High } else { Risk::Normal }, ..Candidate::new(format!("o{i}"), *l) })
                .collect();
            let d = turn(&Policy::defaults(), &Fake::quiet(), &request(&tried, &cands)).decision;
            prop_assert_ne!(d.outcome, Outcome::Execute, "high risk {:?} executed", tried);
            // The verb's option gone: the opposite is never said by it.
            let d = decide(&tried, &labels[1..]);
            prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} over {:?} executed {:?}", tried, &labels[1..], d.target_id);
        } else {
            let d = decide(&tried, &labels);
            prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} over {:?} executed {:?} {:?}", tried, labels, d.target_id, d.trace);
        }
    }
}

/// The new verbs: "talk to support" for "Contact support", "zip it" for
/// "Compress", "regarder d'autres dates" for "Voir d'autres dates"; and
/// "first" that ends such a request is said of the order.
#[test]
fn more_everyday_verbs_say_their_options() {
    let help = ["Cancel subscription", "Pause subscription", "Contact support"];
    let files = ["Rename", "Compress", "Duplicate"];
    let table: &[(&str, &[&str], Option<&str>)] = &[
        ("let me talk to support", &help, Some("o2")),
        ("hmm actually let me talk to support first", &help, Some("o2")),
        ("zip it up", &files, Some("o1")),
        ("anything but the first", &help, None),
    ];
    for (input, labels, want) in table {
        let d = decide(input, labels);
        assert_eq!(executed(&d), *want, "{input}: {:?}", d.outcome);
    }
}

/// A noun said alone that ends one option's word ("licht" of
/// "Deckenlicht"): that option; where two options' words end with it
/// ("maschine" of "Kaffeemaschine" and "Waschmaschine"), or a label has
/// it as a word of its own, it says nothing more. Over generated screens
/// of German compounds.
#[test]
fn the_head_of_one_options_compound_names_it_and_no_other() {
    const HEADS: [&str; 4] = ["licht", "maschine", "lampe", "heizung"];
    const FRONTS: [&str; 5] = ["Decken", "Kaffee", "Wasch", "Steh", "Boden"];
    let cases = (
        prop::collection::vec((0usize..5, 0usize..4), 2..5),
        0usize..4,
        prop::sample::select(&["das {h}", "und das {h} auch", "{h} an"][..]),
    );
    crate::testkit::check_cases(crate::testkit::cases(64), file!(), &cases, |(words, head, form)| {
        let mut labels: Vec<String> = words.iter().map(|(f, h)| format!("{}{}", FRONTS[*f], HEADS[*h])).collect();
        labels.sort();
        labels.dedup();
        let refs: Vec<&str> = labels.iter().map(String::as_str).collect();
        let input = form.replace("{h}", HEADS[head]);
        let d = decide(&input, &refs);
        let ending: Vec<usize> = (0..labels.len()).filter(|k| labels[*k].to_lowercase().ends_with(HEADS[head])).collect();
        match ending[..] {
            [one] => {
                let want = format!("o{one}");
                prop_assert_eq!(executed(&d), Some(want.as_str()), "{} over {:?}", input, labels)
            }
            _ => prop_assert_ne!(d.outcome, Outcome::Execute, "{} over {:?}", input, labels),
        }
        Ok(())
    });
}

/// One option's word with a noun of what it is after it, written as one
/// ("tagesgeldkonto" for "Tagesgeld" among accounts of kind "Konto"): that
/// option; a word two options' words start is neither.
#[test]
fn a_label_word_with_its_kind_written_as_one_names_it() {
    assert_eq!(executed(&decide("zeig mal das tagesgeldkonto", &["Girokonto", "Tagesgeld", "Depot"])), Some("o1"));
    assert_eq!(executed(&decide("depotkonto", &["Girokonto", "Tagesgeld", "Depot"])), Some("o2"));
    assert_eq!(executed(&decide("tagesgeldkonto", &["Tagesgeld", "Tagesgeld plus"])), None);
    assert_eq!(executed(&decide("tagesgeldfreund", &["Girokonto", "Tagesgeld", "Depot"])), None);
}

/// Everyday verbs in the lexicon's other languages ("apaga la luz" for
/// "Apagar luz"); a label whose verb only carries the action of the word
/// after it ("Make a copy", "Move to Trash": `light_verbs`), said by a
/// synonym of that word; a noun of the item's kind said another way
/// ("song" for "track": `noun_synonyms`). Never a synonym of a word a
/// label says under another action ("Delete copy"), nor a noun of
/// another kind.
#[test]
fn everyday_verbs_in_other_languages_light_verbs_and_kind_nouns() {
    let lights = ["Encender luz", "Apagar luz"];
    let volets = ["Monter les volets", "Baisser les volets", "Éteindre la lumière"];
    let trash = ["Archive", "Move to Trash", "Delete permanently"];
    let copies = ["Move to Trash", "Make a copy", "Rename"];
    let dup = ["Move to Trash", "Duplicate", "Rename"];
    let player = ["Pause", "Next track", "Shuffle"];
    let card = ["Freeze card", "Report stolen", "Change PIN"];
    let table: &[(&str, &[&str], Option<&str>)] = &[
        ("apaga la luz", &lights, Some("o1")),
        ("baisse les volets", &volets, Some("o1")),
        ("coupe la lumière", &volets, Some("o2")),
        ("e abbassa le tapparelle", &["Tapparelle: Su", "Tapparelle: Giù"], Some("o1")),
        ("bin it", &trash, Some("o1")),
        ("duplicate it", &copies, Some("o1")),
        ("duplicate it", &dup, Some("o1")),
        ("skip this song", &player, Some("o1")),
        ("lock my card", &card, Some("o0")),
        // "copy" under another action; a noun of another kind; an opposite.
        ("duplicate it", &["Delete copy", "Rename"], None),
        ("skip this video", &player, None),
        ("don't bin it", &trash, None),
        ("bin it", &["Archive", "Delete permanently"], None),
        ("enciende la luz", &["Apagar luz", "Luz 50 %"], None),
    ];
    for (input, labels, want) in table {
        let d = decide(input, labels);
        assert_eq!(executed(&d), *want, "{input:?} over {labels:?}: {:?} {:?}", d.outcome, d.trace);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::testkit::cases(64)))]

    /// Over generated objects: a synonym of the word after a light verb
    /// ("bin the <x>" for "Move <x> to Trash") executes that option or
    /// asks; where the word stands under another action ("Delete <x>
    /// copy"), high risk, negated or beside a word no option has, never.
    #[test]
    fn a_light_verb_is_said_only_by_its_own_words_synonym(
        objects in prop::collection::vec("[bcdfgklmnprst][aeiou][bcdfgklmnprst]{2}[aeiou]", 2),
        spoiler in 0usize..4,
    ) {
        prop_assume!(objects[0] != objects[1]);
        let labels = [format!("Make a copy of {}", objects[0]), format!("Delete {} copy", objects[1]), format!("Rename {}", objects[0])];
        let labels: Vec<&str> = labels.iter().map(String::as_str).collect();
        let d = decide(&format!("duplicate {}", objects[0]), &labels);
        prop_assert!(matches!(executed(&d), Some("o0") | None), "executed {:?} over {:?}", d.target_id, labels);
        let d = decide(&format!("duplicate {}", objects[1]), &labels);
        prop_assert_eq!(executed(&d), None, "the copy under Delete executed");
        let tried = match spoiler {
            0 => format!("don't duplicate {}", objects[0]),
            1 => format!("duplicate {} for grandma", objects[0]),
            2 => format!("duplicate {} and {}", objects[0], objects[1]),
            _ => format!("duplicate {}", objects[0]),
        };
        let cands: Vec<Candidate> = labels
            .iter()
            .enumerate()
            .map(|(i, l)| Candidate { risk: if i == 0 && spoiler == 3 { Risk::High } else { Risk::Normal }, ..Candidate::new(format!("o{i}"), *l) })
            .collect();
        let d = turn(&Policy::defaults(), &Fake::quiet(), &request(&tried, &cands)).decision;
        prop_assert_ne!(d.outcome, Outcome::Execute, "{:?} over {:?} executed {:?}", tried, labels, d.target_id);
    }
}

/// A verb and its particle ("push back", "call off", "write back"), said
/// whole or around a pronoun ("push it back"), is the one action its
/// group's label word says; beside an opposite, with a negation or two
/// objects, it is asked.
#[test]
fn a_phrasal_verb_says_the_action_of_its_group() {
    let meeting = ["Reschedule", "Decline", "Add note"];
    let order = ["Return item", "Exchange item", "Track parcel"];
    let mail = ["Reply", "Forward", "Archive"];
    let table: &[(&str, &[&str], Option<&str>)] = &[
        ("push it back", &meeting, Some("o0")),
        ("can you push back the meeting", &meeting, Some("o0")),
        ("send it back", &order, Some("o0")),
        ("write back", &mail, Some("o0")),
        ("don't push it back", &meeting, None),
        ("push it back or decline", &meeting, None),
        ("push it forward", &meeting, None),
        ("push it back", &["Reschedule", "Postpone"], None),
        ("switch off the hallway lights", &["Lock front door", "Turn off hallway lights", "Open garage"], Some("o1")),
        ("i'll pick them up", &["Deliver tomorrow", "Collect in store today"], Some("o1")),
        ("switch off the porch lights", &["Lock front door", "Turn off hallway lights", "Open garage"], None),
    ];
    for (input, labels, want) in table {
        let d = decide(input, labels);
        assert_eq!(executed(&d), *want, "{input:?} over {labels:?}: {:?} {:?}", d.outcome, d.trace);
    }
}
