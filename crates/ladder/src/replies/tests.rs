//! The table of rooms end to end: every setting asks what it says, the
//! replies in every lexicon language, and a label's reading through the
//! pool's vocabulary. Each room's own tests sit in its folder.

use crate::policy::Policy;
use crate::replies::testing::*;
use crate::testkit::Session;
use crate::types::*;
use proptest::prelude::*;

/// Every setting the properties start from asks what it says.
#[test]
fn every_setting_asks_what_it_says() {
    for asking in Asking::ALL {
        let (_, set, proposed) = asking.set_up();
        assert!(proposed.is_none_or(|id| set.candidates.iter().any(|c| c.id == id)), "{asking:?}");
    }
}

/// Answers to "which one?" and yeses in every language of
/// the lexicon (ordinals with gender, case and the Hebrew article joined
/// on; a detail; an affirmation), and a refusal.
#[test]
fn replies_in_every_lexicon_language() {
    let lamps = screen("lamps", vec![c("wz", "Lampe", "Wohnzimmer"), c("sz", "Lampe", "Schlafzimmer"), c("kue", "Lampe", "Küche")]);
    let citas = screen("citas", vec![c("a", "Cita médico", "lunes"), c("b", "Cita dentista", "martes"), c("c", "Cita banco", "miércoles")]);
    let reunions = screen("reunions", vec![c("a", "Réunion équipe", ""), c("b", "Réunion client", ""), c("c", "Réunion budget", "")]);
    let meetings = screen("meetings", vec![c("a", "פגישה עם דני", ""), c("b", "פגישה עם רותי", ""), c("c", "פגישה עם יוסי", "")]);
    let cases: &[(&str, &OptionSet, &str, &str)] = &[
        ("lampe", &lamps, "die im Wohnzimmer", "execute wz"),
        ("lampe", &lamps, "die zweite", "execute sz"),
        ("cita", &citas, "la segunda", "execute b"),
        ("cita", &citas, "la última", "execute c"),
        ("réunion", &reunions, "la deuxième", "execute b"),
        ("réunion", &reunions, "non", "escape declined"),
        ("פגישה", &meetings, "הראשונה", "execute a"),
        ("פגישה", &meetings, "האחרונה", "execute c"),
    ];
    for (first, set, reply, expect) in cases {
        let s = Session::new();
        let asked = s.say(first, set);
        assert_eq!(asked.outcome, Outcome::Clarify, "{first:?}: {}", said(&asked));
        let got = said(&s.say(reply, set));
        assert!(got.starts_with(expect), "{reply:?} after {first:?}: {got}");
    }
    // A yes to a confirmation of one option, in each language.
    let one = screen("one", vec![c("r", "Réunion client", "mardi")]);
    for yes in ["oui celle-là", "oui, vas-y", "sí, esa", "ja, genau", "כן בבקשה"] {
        assert_eq!(said(&Session::new().say(yes, &asking(one.clone(), Asked::Confirmation))), "execute r (reply, affirm)", "{yes:?}");
    }
}

// Words of labels and replies alike: reply phrases ("not now", "go
// ahead", "never mind"), and words that are none.
const LABEL_WORDS: &[&str] = &[
    "yes", "no", "not", "now", "ok", "sure", "skip", "cancel", "stop", "that", "one", "the", "links", "panel", "go", "ahead", "forget",
    "it", "never", "mind", "thanks", "later",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Whether a label or an alias says the reply is the same read through
    /// the pool's vocabulary (only the entries that have the reply's first
    /// word or a word that starts a reply phrase) as by a walk of every
    /// form of the pool.
    #[test]
    fn a_label_says_it_the_same_with_or_without_the_pools_vocabulary(
        labels in prop::collection::vec((prop::collection::vec(one_of(LABEL_WORDS), 1..4), prop::collection::vec(one_of(LABEL_WORDS), 0..3)), 1..8),
        words in prop::collection::vec(one_of(LABEL_WORDS), 1..5),
    ) {
        static POLICY: std::sync::LazyLock<Policy> = std::sync::LazyLock::new(Policy::defaults);
        let lex = &POLICY.lexicon;
        let candidates: Vec<Candidate> = labels
            .iter()
            .enumerate()
            .map(|(i, (label, alias))| Candidate {
                aliases: if alias.is_empty() { Vec::new() } else { vec![alias.join(" ")] },
                ..Candidate::new(format!("c{i}"), label.join(" "))
            })
            .collect();
        let req = on(&words.join(" "), &screen("s", candidates));
        let crate::scope::Resolved::Pool(pool) = crate::scope::resolve(&req, None, false) else { panic!("a chat pool") };
        let stop = crate::cost::Deadline::default();
        let walked = crate::matching::CanonPool::build(&pool, lex, &stop).unwrap();
        let indexed = crate::matching::CanonPool::build(&pool, lex, &stop).unwrap();
        indexed.build_vocab(&stop).unwrap();
        let canonical = crate::canon::canonicalize(&req.input, lex);
        let state = crate::continuity::ContinuityState::default();
        let view: crate::continuity::StateView<'_> = (&state).into();
        let says = |canon| super::Context::new(&req, &view, &pool, canon, lex, &[], &canonical).a_label_says_it();
        prop_assert_eq!(says(&walked), says(&indexed), "{:?} over {:?}", canonical, labels);
    }
}

/// Each kind of reply has its room in the table, and each row names what
/// it reads: the table is the one place the order of the kinds is read.
#[test]
fn every_reply_kind_has_a_room_in_the_table() {
    for kind in crate::replies::ReplyKind::ALL {
        assert!(crate::replies::TABLE.iter().any(|row| row.room == Some(*kind)), "{} has no row", kind.as_str());
    }
    assert!(crate::replies::TABLE.iter().all(|row| !row.rule.is_empty()));
}
