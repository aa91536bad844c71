//! The matching step's tests: references of every kind read together, and
//! the trace detail. The harness here (a pool of candidates, `find` on an
//! input) is the one the rules' tests share (`matching/<rule>/tests.rs`).

use super::*;
use crate::canon::canonicalize;
use crate::scope::{Entry, Source};

pub(super) fn pool(cands: &[Candidate]) -> Pool<'_> {
    Pool {
        entries: cands.iter().enumerate().map(|(position, cand)| Entry { cand, source: Source::ActiveOptions, position }).collect(),
        cue: None,
        ordinal_source: Some(Source::ActiveOptions),
        shown_len: None,
    }
}

/// A turn on a chat screen of `cands`: what the rules' end-to-end
/// properties send the whole ladder.
pub(super) fn request(input: &str, cands: &[Candidate]) -> crate::types::DecideRequest {
    use crate::types::*;
    DecideRequest {
        session_id: "s".into(),
        turn_id: "t".into(),
        input: input.into(),
        active_scope: Some(ScopeRef { scope: Scope::Chat, instance_id: "chat".into() }),
        options: Some(OptionSet {
            option_set_id: "set".into(),
            scope: Scope::Chat,
            candidates: cands.to_vec().into(),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// The option a decision executes, if it executes one.
pub(super) fn executed(d: &crate::types::Decision) -> Option<&str> {
    (d.outcome == crate::types::Outcome::Execute).then(|| d.target_id.as_deref().unwrap_or(""))
}

pub(super) fn panels() -> Vec<Candidate> {
    vec![Candidate::new("p", "Links Panels"), Candidate::new("d", "Links Panel D"), Candidate::new("e", "Links Panel E")]
}

pub(super) fn labelled(labels: &[&str]) -> Vec<Candidate> {
    labels.iter().enumerate().map(|(i, l)| Candidate::new(format!("c{i}"), *l)).collect()
}

pub(super) fn find_on(input: &str, cands: &[Candidate], commands: &[Candidate]) -> (Matches, Vec<String>) {
    find_with(input, cands, commands, MatchParams::default())
}

pub(super) fn find_with(input: &str, cands: &[Candidate], commands: &[Candidate], params: MatchParams) -> (Matches, Vec<String>) {
    let lex = Lexicon::shipped();
    let q = Query::new(canonicalize(input, &lex), &lex);
    let p = pool(cands);
    let index = CanonPool::build(&p, &lex, &DeadlineWatch::default()).unwrap();
    let m =
        find(input, &q, &p, &index, commands, Rules { lex: &lex, params: &params, ranked: 12, stop: &DeadlineWatch::default() }).unwrap();
    let ids = m.reading.named.iter().map(|(e, k)| format!("{}:{}", p.entries[*e].cand.id, k.as_str())).collect();
    (m, ids)
}

#[test]
fn references_table() {
    let table: &[(&str, &[&str])] = &[
        ("Links Panel D", &["d:exact"]),
        ("open links panel d", &["d:normalized"]),
        ("LINKS-PANEL-E!", &["e:normalized"]),
        ("linkspanel d", &["d:normalized"]),
        ("please turn on links panel d now", &["d:normalized"]),
        ("please turn on links panel d in the sidebar", &["d:label"]),
        ("the second one", &["d:ordinal"]),
        ("2nd", &["d:ordinal"]),
        ("#3", &["e:ordinal"]),
        ("option three", &["e:ordinal"]),
        ("the last one", &["e:ordinal"]),
        ("second to last", &["d:ordinal"]),
        ("the middle one", &["d:ordinal"]),
        ("the top one", &["p:ordinal"]),
        ("panel d", &["d:badge"]),
        ("can you ope panel d pls", &["d:badge"]),
        ("panel d and panel e", &["d:badge", "e:badge"]),
        ("links panel d or links panel e", &["d:label", "e:label"]),
        ("the first or the second", &["p:ordinal", "d:ordinal"]),
        ("links panel", &[]),
        ("sales report", &[]),
        ("fifth", &[]),
    ];
    for (input, want) in table {
        let (_, ids) = find_on(input, &panels(), &[]);
        assert_eq!(ids, *want, "input {input:?}");
    }
}

/// A match's description: its first five hits as `id:kind:score`, a
/// count of the rest, then its reading's flags, one space between.
#[test]
fn a_match_is_described_in_one_line() {
    let lex = Lexicon::shipped();
    let cands = panels();
    let p = pool(&cands);
    for input in ["links panel", "not the links panels", "open links panel d", "panels d and e", "the tenth one"] {
        let q = Query::new(canonicalize(input, &lex), &lex);
        let rules = Rules { lex: &lex, params: &MatchParams::default(), ranked: 12, stop: &DeadlineWatch::default() };
        let index = CanonPool::build(&p, &lex, &DeadlineWatch::default()).unwrap();
        let m = find(input, &q, &p, &index, &[], rules).unwrap();
        let mut parts: Vec<String> =
            m.hits.iter().take(5).map(|h| format!("{}:{}:{:.2}", p.entries[h.entry].cand.id, h.kind.as_str(), h.score)).collect();
        if m.hits.len() > 5 {
            parts.push(format!("+{}", m.hits.len() - 5));
        }
        let r = &m.reading;
        let flags = [(r.negation, "negation".to_string()), (r.plural, "plural".into()), (r.out_of_range, "out_of_range".into())];
        let described = m.describe(&p);
        if let Some(rel) = r.relation {
            assert!(described.contains(&format!("relation:{rel:?}").to_lowercase()), "{described:?}");
        }
        for (on, flag) in flags {
            assert_eq!(described.split(' ').any(|w| w == flag), on, "{input:?}: {described:?}");
        }
        assert!(described.starts_with(&parts.join(" ")), "{input:?}: {described:?} against {parts:?}");
        assert!(!described.starts_with(' ') && !described.ends_with(' ') && !described.contains("  "), "{described:?}");
    }
}

proptest::proptest! {
    /// A score is written as `{:.2}` writes it, ties and signs included.
    #[test]
    fn a_score_is_written_to_two_places_as_the_formatter_writes_it(bits in proptest::num::u32::ANY, quarter in 0u32..4000) {
        for x in [f32::from_bits(bits), quarter as f32 / 400.0, quarter as f32 / 8.0, -(quarter as f32) / 800.0, 0.125, 0.375, -0.0] {
            let mut out = String::new();
            two_places(&mut out, x);
            proptest::prop_assert_eq!(out, format!("{x:.2}"));
        }
    }
}

/// The noun for what every option is, in the request's language ("la
/// chanson", "la chambre", "le tarif", "das Zimmer Doppel Meerblick"): it says no option,
/// and the words beside it name one. Said alone it names none.
#[test]
fn the_kind_of_every_option_in_other_languages_names_none() {
    use crate::testkit::Session;
    use crate::types::{Candidate, OptionSet, Outcome};
    let set = |cands: Vec<Candidate>| OptionSet { option_set_id: "os".into(), candidates: cands.into(), ..Default::default() };
    let songs = set(vec![Candidate::new("b", "La dernière danse"), Candidate::new("c", "Deuxième chance")]);
    let rooms =
        set(vec![Candidate::new("a", "Double standard"), Candidate::new("b", "Double vue mer"), Candidate::new("c", "Suite junior")]);
    let zimmer = set(vec![Candidate::new("a", "Einzel Standard"), Candidate::new("b", "Doppel Meerblick")]);
    for (input, set, want) in [
        ("la chanson Deuxième chance", &songs, Some("c")),
        ("la chambre vue mer, s'il vous plaît", &rooms, Some("b")),
        ("la habitación suite junior", &rooms, Some("c")),
        ("das Zimmer Doppel Meerblick, bitte", &zimmer, Some("b")),
        ("la chambre", &rooms, None),
        ("la canción", &songs, None),
    ] {
        let d = Session::new().say(input, set);
        match want {
            Some(id) => assert_eq!(d.target_id.as_deref(), Some(id), "{input}: {:?}", d.outcome),
            None => assert_ne!(d.outcome, Outcome::Execute, "{input}"),
        }
    }
}

/// A hedge before a value ("around five in the evening", "approximately
/// 5 pm") is phrasing: the value names the option that shows it.
#[test]
fn a_hedge_before_a_value_is_phrasing() {
    use crate::testkit::Session;
    use crate::types::{Candidate, OptionSet};
    let times = OptionSet {
        option_set_id: "times".into(),
        candidates: vec![Candidate::new("a", "09:00"), Candidate::new("b", "12:00"), Candidate::new("c", "17:00")].into(),
        ..Default::default()
    };
    for input in ["around five in the evening", "around 5 pm", "approximately 5pm", "give or take 5 pm"] {
        let d = Session::new().say(input, &times);
        assert_eq!(d.target_id.as_deref(), Some("c"), "{input}: {:?}", d.outcome);
    }
}

/// A pronoun or a preposition of a request names no option, in the
/// lexicon's languages ("talk to him", "just his beard this time", "un
/// corte con lavado"): the words beside it do. "only", "this time" and
/// "for now" are phrasing; said alone, a pronoun names nothing.
#[test]
fn pronouns_and_prepositions_of_a_request_name_nothing() {
    use crate::testkit::Session;
    use crate::types::{Candidate, OptionSet, Outcome};
    let set = |cands: Vec<Candidate>| OptionSet { option_set_id: "os".into(), candidates: cands.into(), ..Default::default() };
    let door =
        set(vec![Candidate::new("chime", "Chime on"), Candidate::new("talk", "Talk to visitor"), Candidate::new("dnd", "Do not disturb")]);
    let barber = set(vec![Candidate::new("cut", "Haircut"), Candidate::new("beard", "Beard trim"), Candidate::new("kids", "Kids cut")]);
    let salon = set(vec![Candidate::new("c", "Corte"), Candidate::new("l", "Lavado y secado"), Candidate::new("t", "Tinte")]);
    for (input, set, want) in [
        ("let me talk to him", &door, Some("talk")),
        ("I'll talk to them", &door, Some("talk")),
        ("just his beard this time", &barber, Some("beard")),
        ("book her a haircut", &barber, Some("cut")),
        ("beard trim only for now", &barber, Some("beard")),
        ("el tinte con su lavado", &salon, None),
        ("them", &door, None),
        ("his", &barber, None),
    ] {
        let d = Session::new().say(input, set);
        match want {
            Some(id) => assert_eq!(d.target_id.as_deref(), Some(id), "{input}: {:?}", d.outcome),
            None => assert_ne!(d.outcome, Outcome::Execute, "{input}"),
        }
    }
}

/// Hedges and particles that only phrase a request ("tbh", German
/// "einfach", "mal"), and German verbs of putting ("stell's in die
/// Garage"): the words beside them name the option.
#[test]
fn hedges_and_particles_name_nothing() {
    use crate::testkit::Session;
    use crate::types::{Candidate, OptionSet};
    let set = |cands: Vec<Candidate>| OptionSet { option_set_id: "os".into(), candidates: cands.into(), ..Default::default() };
    let chat = set(vec![Candidate::new("mute", "Mute for 1 hour"), Candidate::new("notif", "Notification settings")]);
    let drop = set(vec![Candidate::new("garage", "Ablageort: Garage"), Candidate::new("nachbar", "Beim Nachbarn abgeben")]);
    for (input, set, want) in [
        ("tbh just open notification settings", &chat, "notif"),
        ("honestly, mute for 1 hour", &chat, "mute"),
        ("leg's einfach in die Garage", &drop, "garage"),
        ("stell es mal in die Garage", &drop, "garage"),
    ] {
        assert_eq!(Session::new().say(input, set).target_id.as_deref(), Some(want), "{input}");
    }
}

/// "The GPS too", "lisinopril as well": a request for one more thing by
/// its words executes what those words alone do; with a negation or two
/// options, nothing executes.
#[test]
fn one_more_by_its_words_is_those_words() {
    use crate::testkit::Session;
    use crate::types::{Candidate, OptionSet, Outcome};
    let extras = OptionSet {
        option_set_id: "x".into(),
        candidates: vec![
            Candidate::new("gps", "Add GPS"),
            Candidate::new("seat", "Add child seat"),
            Candidate::new("suv", "Upgrade to SUV"),
        ]
        .into(),
        ..Default::default()
    };
    for (input, want) in [("the GPS too", "gps"), ("child seat as well", "seat"), ("upgrade to suv also", "suv")] {
        assert_eq!(Session::new().say(input, &extras).target_id.as_deref(), Some(want), "{input}");
    }
    for input in ["not the GPS too", "GPS and child seat too", "too"] {
        assert_ne!(Session::new().say(input, &extras).outcome, Outcome::Execute, "{input}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(crate::testkit::cases(128)))]

    /// Over generated screens, "<words> too" executes what "<words>"
    /// alone executes, or nothing; "not <words> too" never executes.
    #[test]
    fn an_additive_tail_never_executes_what_the_words_alone_do_not(
        labels in proptest::sample::subsequence(vec!["Add GPS", "Add child seat", "Upgrade to SUV", "Extra driver", "Roof box", "Snow chains"], 2..=5),
        pick in 0usize..5,
        words in 1usize..3,
        tail in proptest::sample::select(vec!["too", "as well"]),
    ) {
        use crate::testkit::Session;
        use crate::types::{Candidate, OptionSet, Outcome};
        let set = OptionSet {
            option_set_id: "x".into(),
            candidates: labels.iter().enumerate().map(|(i, l)| Candidate::new(format!("c{i}"), *l)).collect::<Vec<_>>().into(),
            ..Default::default()
        };
        let label = labels[pick % labels.len()].to_lowercase();
        let said: Vec<&str> = label.split(' ').rev().take(words).collect::<Vec<_>>().into_iter().rev().collect();
        let said = said.join(" ");
        let alone = Session::new().say(&said, &set);
        let more = Session::new().say(&format!("{said} {tail}"), &set);
        let executed = |d: &crate::types::Decision| d.target_id.clone().filter(|_| d.outcome == Outcome::Execute);
        if let Some(got) = executed(&more) {
            proptest::prop_assert_eq!(Some(got), executed(&alone), "{:?} {:?} over {:?}", said, tail, labels);
        }
        let negated = Session::new().say(&format!("not {said} {tail}"), &set);
        proptest::prop_assert_ne!(negated.outcome, Outcome::Execute, "not {:?} {:?} over {:?}", said, tail, labels);
    }
}

/// Who a request is for ("a kids cut for my son", "share it with my
/// sister", "el tinte para mi madre") names nothing; a word after it
/// that an option shows is that option's ("a case for my iphone").
#[test]
fn who_a_request_is_for_names_nothing() {
    use crate::testkit::Session;
    use crate::types::{Candidate, OptionSet, Outcome};
    let set = |cands: Vec<Candidate>| OptionSet { option_set_id: "os".into(), candidates: cands.into(), ..Default::default() };
    let barber = set(vec![Candidate::new("cut", "Haircut"), Candidate::new("beard", "Beard trim"), Candidate::new("kids", "Kids cut")]);
    let salon = set(vec![Candidate::new("l", "Lavado"), Candidate::new("c", "Corte"), Candidate::new("t", "Tinte")]);
    let lists = set(vec![Candidate::new("share", "Share playlist"), Candidate::new("rename", "Rename playlist")]);
    let cases = set(vec![Candidate::new("ip", "iPhone case"), Candidate::new("gal", "Galaxy case")]);
    for (input, set, want) in [
        ("a kids cut for my son", &barber, "kids"),
        ("book a haircut for my dad", &barber, "cut"),
        ("el tinte para mi madre", &salon, "t"),
        ("send the playlist to my sister", &lists, "share"),
        ("share it with my sister", &lists, "share"),
        ("a case for my iphone", &cases, "ip"),
    ] {
        assert_eq!(Session::new().say(input, set).target_id.as_deref(), Some(want), "{input}");
    }
    for (input, set) in [("for my son", &barber), ("a case for my phone", &cases), ("a haircut for my beard", &barber)] {
        assert_ne!(Session::new().say(input, set).outcome, Outcome::Execute, "{input}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(crate::testkit::cases(128)))]

    /// Over generated screens, "<words> for my <someone>" executes what
    /// the words alone execute, or nothing; "<words> for my <another
    /// option's word>" never executes an option that lacks that word.
    #[test]
    fn who_a_request_is_for_never_changes_what_it_names(
        labels in proptest::sample::subsequence(vec!["Haircut", "Beard trim", "Kids cut", "Hair colour", "Wash and dry", "Shave"], 2..=5),
        pick in 0usize..5,
        other in 0usize..5,
        whom in proptest::sample::select(vec!["son", "dad", "little sister", "wife"]),
        prep in proptest::sample::select(vec!["for my", "to my", "with my", "para mi"]),
    ) {
        use crate::testkit::Session;
        use crate::types::{Candidate, OptionSet, Outcome};
        let set = OptionSet {
            option_set_id: "x".into(),
            candidates: labels.iter().enumerate().map(|(i, l)| Candidate::new(format!("c{i}"), *l)).collect::<Vec<_>>().into(),
            ..Default::default()
        };
        let (pick, other) = (pick % labels.len(), other % labels.len());
        let said = labels[pick].to_lowercase();
        let executed = |d: &crate::types::Decision| d.target_id.clone().filter(|_| d.outcome == Outcome::Execute);
        let alone = executed(&Session::new().say(&said, &set));
        let for_whom = executed(&Session::new().say(&format!("{said} {prep} {whom}"), &set));
        if for_whom.is_some() {
            proptest::prop_assert_eq!(&for_whom, &alone, "{:?} {:?} {:?} over {:?}", said, prep, whom, labels);
        }
        let word = labels[other].split(' ').next().unwrap().to_lowercase();
        let d = Session::new().say(&format!("{said} {prep} {word}"), &set);
        if let Some(got) = executed(&d) {
            let label = labels[got[1..].parse::<usize>().unwrap()].to_lowercase();
            proptest::prop_assert!(label.split(' ').any(|w| w == word), "{:?} {:?} {:?} executed {:?}", said, prep, word, label);
        }
    }
}
