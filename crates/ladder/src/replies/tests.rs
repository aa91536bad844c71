//! The replies end to end (docs/replies.md): the harness every room's
//! tests share, and the table's own tests. Whole turns through the
//! ladder, a first that makes something asked (ladderd's confirmation or
//! "which one?", an execute, or the app's screen with `asked` set) and then
//! the reply. For each kind of reply, one example that executes and one
//! that does not, and a property that tries to make it execute what a
//! person would not; each property counts the branch it checks
//! (`Branches`), so it cannot pass without checking. Each room's own tests
//! sit in its folder (`replies/<kind>/tests.rs`).

use crate::policy::Policy;
use crate::testkit::Session;
use crate::types::*;
use proptest::prelude::*;

// ------------------------------------------------------------- harness --

pub(super) fn c(id: &str, label: &str, sublabel: &str) -> Candidate {
    Candidate { sublabel: sublabel.into(), ..Candidate::new(id, label) }
}

pub(super) fn high(id: &str, label: &str) -> Candidate {
    Candidate { risk: Risk::High, ..Candidate::new(id, label) }
}

pub(super) fn screen(name: &str, candidates: Vec<Candidate>) -> OptionSet {
    OptionSet { option_set_id: name.into(), scope: Scope::Chat, candidates: candidates.into(), ..Default::default() }
}

pub(super) fn asking(mut set: OptionSet, asked: Asked) -> OptionSet {
    set.asked = asked;
    set
}

pub(super) fn booking() -> OptionSet {
    screen("booking", vec![c("book", "Book a table for 2", "Friday 7:00 pm")])
}

pub(super) fn times() -> OptionSet {
    screen(
        "times",
        vec![
            c("t6", "Table for 2", "Friday 6:00 pm"),
            c("t7", "Table for 2", "Friday 7:00 pm"),
            c("t8", "Table for 2", "Saturday 8:00 pm"),
        ],
    )
}

pub(super) fn shirts() -> OptionSet {
    screen(
        "shirts",
        vec![c("black", "Linen Shirt", "Black, $40"), c("white", "Linen Shirt", "White, $35"), c("blue", "Linen Shirt", "Blue, $45")],
    )
}

pub(super) fn mugs() -> OptionSet {
    screen("mugs", vec![c("mb", "Mug", "Black, $12"), c("mw", "Mug", "White, $12"), c("mr", "Mug", "Red, $15")])
}

pub(super) fn cards() -> OptionSet {
    screen(
        "cards",
        vec![
            Candidate::new("freeze", "Freeze Card"),
            Candidate::new("details", "Card Details"),
            high("close", "Close Account"),
            Candidate::new("stmt", "Statements"),
        ],
    )
}

pub(super) fn delete() -> OptionSet {
    screen("delete", vec![high("del", "Delete All Panels")])
}

pub(super) fn panels() -> OptionSet {
    screen("panels", vec![Candidate::new("p", "Links Panels"), Candidate::new("d", "Links Panel D"), Candidate::new("e", "Links Panel E")])
}

pub(super) fn pair() -> OptionSet {
    screen("pair", vec![Candidate::new("d", "Links Panel D"), Candidate::new("e", "Links Panel E")])
}

pub(super) fn player() -> OptionSet {
    screen("player", vec![Candidate::new("skip", "Skip"), Candidate::new("dsmn", "Don't Stop Me Now"), Candidate::new("song2", "Song 2")])
}

/// The same screen, its options in another order.
pub(super) fn reordered(set: &OptionSet, order: &[usize]) -> OptionSet {
    let candidates: Vec<Candidate> = order.iter().map(|k| set.candidates[*k].clone()).collect();
    OptionSet { candidates: candidates.into(), ..set.clone() }
}

pub(super) fn on(input: &str, set: &OptionSet) -> DecideRequest {
    DecideRequest {
        session_id: "s".into(),
        turn_id: "t".into(),
        input: input.into(),
        active_scope: Some(ScopeRef { scope: Scope::Chat, instance_id: "chat".into() }),
        options: Some(set.clone()),
        ..Default::default()
    }
}

/// What a decision came to, in the docs' words (docs/replies.md):
/// `execute ID`, `clarify IDS`, `confirm ID`, `escape REASON`, then the
/// rung that decided and the reply kind its trace shows.
pub(super) fn said(d: &Decision) -> String {
    let what = match d.outcome {
        Outcome::Execute => format!("execute {}", d.target_id.as_deref().unwrap_or("?")),
        Outcome::Clarify => {
            let c = d.clarifier.as_ref();
            let ids = c.map(|c| c.option_ids.join(", ")).unwrap_or_default();
            if c.is_some_and(|c| c.kind == crate::continuity::PendingClarifier::Confirmation) {
                format!("confirm {ids}")
            } else {
                format!("clarify {ids}")
            }
        }
        Outcome::Escape => format!("escape {}", d.escape_reason.map_or("?", EscapeReason::as_str)),
        other => format!("{other:?}"),
    };
    format!("{what} ({}, {})", d.handled_by_tier.as_str(), kind(d).unwrap_or("-"))
}

/// The reply kind the trace shows: the last reply (or detail) step that
/// read a reply.
pub(super) fn kind(d: &Decision) -> Option<&str> {
    d.trace.iter().rev().find(|s| (s.rung == "reply" || s.rung == "detail") && s.outcome != "pass").map(|s| s.outcome.as_str())
}

/// A random order of a screen of `n` options.
pub(super) fn order(n: usize) -> impl Strategy<Value = Vec<usize>> {
    Just((0..n).collect::<Vec<usize>>()).prop_shuffle()
}

pub(super) fn one_of(all: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::sample::select(all).prop_map(String::from)
}

/// What was asked before a reply, set up by a first turn (or by the
/// app's screen): the session after it, the screen the reply is said on,
/// and the option proposed (one a yes would answer), if any.
#[derive(Debug, Clone, Copy)]
pub(super) enum Asking {
    /// The app's `ASKED_CONFIRMATION` of its one candidate (booking).
    AppConfirmation,
    /// ladderd's confirmation: `close` on cards (Close Account is high risk).
    LadderConfirmation,
    /// A plain screen of one option, nothing asked (booking).
    PlainOne,
    /// ladderd's "which one?" (`links panel`: d, e), the app's screen then
    /// narrowed to the one option e.
    LadderNarrowed,
    /// ladderd's "which one?" over several (`links panel` on panels: d, e).
    LadderChoice,
    /// ladderd's "which one?" over every option (`table for 2` on times).
    LadderChoiceAll,
    /// The app's `ASKED_CHOICE` (shirts).
    AppChoice,
    /// Nothing asked: an execute just had (`open links panel d`).
    AfterExecute,
    /// Nothing asked: a plain screen of several options (panels).
    PlainSeveral,
}

pub(super) const PROPOSING: [Asking; 4] = [Asking::AppConfirmation, Asking::LadderConfirmation, Asking::PlainOne, Asking::LadderNarrowed];

pub(super) const CHOOSING: [Asking; 3] = [Asking::LadderChoice, Asking::LadderChoiceAll, Asking::AppChoice];

impl Asking {
    pub(super) const ALL: [Asking; 9] = [
        Asking::AppConfirmation,
        Asking::LadderConfirmation,
        Asking::PlainOne,
        Asking::LadderNarrowed,
        Asking::LadderChoice,
        Asking::LadderChoiceAll,
        Asking::AppChoice,
        Asking::AfterExecute,
        Asking::PlainSeveral,
    ];

    /// The session after the first turn, the reply's screen, and the
    /// option proposed. Panics when the first turn does not ask what the
    /// setting needs (the examples below pin each).
    pub(super) fn set_up(self) -> (Session, OptionSet, Option<&'static str>) {
        let s = Session::new();
        let first = |input: &str, set: &OptionSet, expect: &str| {
            let d = s.say(input, set);
            assert!(said(&d).starts_with(expect), "{self:?}: {input:?} came to {}", said(&d));
        };
        match self {
            Asking::AppConfirmation => (s, asking(booking(), Asked::Confirmation), Some("book")),
            Asking::LadderConfirmation => {
                first("close", &cards(), "confirm close");
                (s, cards(), Some("close"))
            }
            Asking::PlainOne => (s, booking(), Some("book")),
            Asking::LadderNarrowed => {
                first("links panel", &panels(), "clarify d, e");
                (s, screen("panel-e", vec![Candidate::new("e", "Links Panel E")]), Some("e"))
            }
            Asking::LadderChoice => {
                first("links panel", &panels(), "clarify d, e");
                (s, panels(), None)
            }
            Asking::LadderChoiceAll => {
                first("table for 2", &times(), "clarify t6, t7, t8");
                (s, times(), None)
            }
            Asking::AppChoice => (s, asking(shirts(), Asked::Choice), None),
            Asking::AfterExecute => {
                first("open links panel d", &panels(), "execute d");
                (s, panels(), None)
            }
            Asking::PlainSeveral => (s, panels(), None),
        }
    }

    /// Whether the reply's turn answers something asked or proposed.
    pub(super) fn asks(self) -> bool {
        !matches!(self, Asking::AfterExecute | Asking::PlainSeveral)
    }
}

pub(super) const CASES: u32 = 256;

/// Plain yeses, each of which alone executes what was proposed.
pub(super) const YESES: &[&str] = &[
    "yes",
    "yep",
    "yeah",
    "sure",
    "ok",
    "okay",
    "sounds good",
    "perfect",
    "yes please",
    "that works",
    "go ahead",
    "great",
    "sure, go ahead",
    "yep do it",
    "that's the one",
    "absolutely",
    "oui",
    "ja",
    "sí",
];

pub(super) fn capitalized(w: &str) -> String {
    let mut c = w.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// A screen of `k` "Links Panel X" options, and `others` options that
/// share no word with them, in the order `order`.
pub(super) fn links_panels(k: usize, others: usize, order: &[usize]) -> OptionSet {
    const OTHERS: [&str; 3] = ["Sales Report", "Team Settings", "Statements"];
    let all: Vec<Candidate> = (0..k)
        .map(|i| Candidate::new(LETTERS[i].to_lowercase(), format!("Links Panel {}", LETTERS[i])))
        .chain((0..others).map(|i| Candidate::new(format!("other-{i}"), OTHERS[i])))
        .collect();
    let set = screen("links", all);
    reordered(&set, order)
}

pub(super) const LETTERS: &[&str] = &["D", "E", "F", "G", "H", "K"];

// ------------------------------------------------------------ the table --

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
        let stop = crate::cost::DeadlineWatch::default();
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

/// A word an option shows is that option's word, never a slip of a reply
/// word: "genbu" is one letter from "genau" (German: exactly), "suite"
/// from "sure". Read as a yes, "decline the genbu and the berka" executed
/// "Decline berka" alone, and "the suite room pls" was asked back.
#[test]
fn a_word_an_option_shows_is_never_read_as_a_reply_word() {
    let invites = screen("invites", vec![c("d1", "Decline genbu", ""), c("a1", "Accept genbu", ""), c("d2", "Decline berka", "")]);
    assert!(said(&Session::new().say("decline the genbu and the berka", &invites)).starts_with("clarify"));
    assert!(said(&Session::new().say("reject genbu and berka", &invites)).starts_with("clarify"));
    let rooms = screen("rooms", vec![c("std", "Standard room", ""), c("suite", "Suite room", ""), c("fam", "Family room", "")]);
    assert!(said(&Session::new().say("the suite room pls", &rooms)).starts_with("execute suite"));
    // Off the screen, the slip is still the reply word it is one letter from.
    let one = screen("one", vec![c("r", "Réunion client", "mardi")]);
    assert_eq!(said(&Session::new().say("ja, genua", &asking(one, Asked::Confirmation))), "execute r (reply, affirm)");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Whatever word of the options a slip of a reply word would be
    /// ("genbu", a letter from "genau"), two options named in one request
    /// ("decline the W and the X") are asked about, never one executed:
    /// the word is the option's, not a yes that leaves the rest to read.
    #[test]
    fn an_options_word_a_letter_from_a_reply_word_is_the_options(
        spelled in any::<prop::sample::Index>(), at in any::<prop::sample::Index>(), letter in "[a-z]", other in "(berka|zorro|miso)",
    ) {
        static POLICY: std::sync::LazyLock<Policy> = std::sync::LazyLock::new(Policy::defaults);
        let lex = &POLICY.lexicon;
        let words: Vec<&String> = lex.spelled.iter().filter(|w| w.len() >= 4 && w.chars().all(|c| c.is_ascii_lowercase())).collect();
        let word = spelled.get(&words);
        let i = at.index(word.len());
        let w = format!("{}{letter}{}", &word[..i], &word[i + 1..]);
        prop_assume!(lex.respell(&w).is_some() && w != other);
        let invites = screen("invites", vec![c("d1", &format!("Decline {w}"), ""), c("a1", &format!("Accept {w}"), ""), c("d2", &format!("Decline {other}"), "")]);
        let got = said(&Session::new().say(&format!("decline the {w} and the {other}"), &invites));
        prop_assert!(!got.starts_with("execute"), "{:?} ({:?}): {}", w, lex.respell(&w), got);
    }
}
