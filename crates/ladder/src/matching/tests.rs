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

/// A turn on a fresh chat screen of `cands` through the whole ladder: the
/// id it executes, if any.
pub(super) fn executes(input: &str, cands: &[Candidate]) -> Option<String> {
    let d = crate::testkit::turn(crate::testkit::policy(), &crate::testkit::Fake::quiet(), &request(input, cands)).decision;
    executed(&d).map(str::to_string)
}

/// Candidates from (id, label) pairs.
pub(super) fn options(pairs: &[(&str, &str)]) -> Vec<Candidate> {
    pairs.iter().map(|(id, label)| Candidate::new(*id, *label)).collect()
}

/// Each row: the option `input` executes on its screen, `None` for none.
pub(super) fn decides_as(table: &[(&str, &[Candidate], Option<&str>)]) {
    for (input, cands, want) in table {
        assert_eq!(executes(input, cands).as_deref(), *want, "{input:?}");
    }
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
    let songs = options(&[("b", "La dernière danse"), ("c", "Deuxième chance")]);
    let rooms = options(&[("a", "Double standard"), ("b", "Double vue mer"), ("c", "Suite junior")]);
    let zimmer = options(&[("a", "Einzel Standard"), ("b", "Doppel Meerblick")]);
    decides_as(&[
        ("la chanson Deuxième chance", &songs, Some("c")),
        ("la chambre vue mer, s'il vous plaît", &rooms, Some("b")),
        ("la habitación suite junior", &rooms, Some("c")),
        ("das Zimmer Doppel Meerblick, bitte", &zimmer, Some("b")),
        ("la chambre", &rooms, None),
        ("la canción", &songs, None),
    ]);
}

/// A hedge before a value ("around five in the evening", "approximately
/// 5 pm") is phrasing: the value names the option that shows it.
#[test]
fn a_hedge_before_a_value_is_phrasing() {
    let times = options(&[("a", "09:00"), ("b", "12:00"), ("c", "17:00")]);
    for input in ["around five in the evening", "around 5 pm", "approximately 5pm", "give or take 5 pm"] {
        assert_eq!(executes(input, &times).as_deref(), Some("c"), "{input}");
    }
}

/// A pronoun or a preposition of a request names no option, in the
/// lexicon's languages ("talk to him", "just his beard this time", "un
/// corte con lavado"): the words beside it do. "only", "this time" and
/// "for now" are phrasing; said alone, a pronoun names nothing.
#[test]
fn pronouns_and_prepositions_of_a_request_name_nothing() {
    let door = options(&[("chime", "Chime on"), ("talk", "Talk to visitor"), ("dnd", "Do not disturb")]);
    let barber = options(&[("cut", "Haircut"), ("beard", "Beard trim"), ("kids", "Kids cut")]);
    let salon = options(&[("c", "Corte"), ("l", "Lavado y secado"), ("t", "Tinte")]);
    decides_as(&[
        ("let me talk to him", &door, Some("talk")),
        ("I'll talk to them", &door, Some("talk")),
        ("just his beard this time", &barber, Some("beard")),
        ("book her a haircut", &barber, Some("cut")),
        ("beard trim only for now", &barber, Some("beard")),
        ("el tinte con su lavado", &salon, None),
        ("them", &door, None),
        ("his", &barber, None),
    ]);
}

/// Hedges and particles that only phrase a request ("tbh", German
/// "einfach", "mal"), and German verbs of putting ("stell's in die
/// Garage"): the words beside them name the option.
#[test]
fn hedges_and_particles_name_nothing() {
    let chat = options(&[("mute", "Mute for 1 hour"), ("notif", "Notification settings")]);
    let drop = options(&[("garage", "Ablageort: Garage"), ("nachbar", "Beim Nachbarn abgeben")]);
    decides_as(&[
        ("tbh just open notification settings", &chat, Some("notif")),
        ("honestly, mute for 1 hour", &chat, Some("mute")),
        ("leg's einfach in die Garage", &drop, Some("garage")),
        ("stell es mal in die Garage", &drop, Some("garage")),
    ]);
}

/// "The GPS too", "lisinopril as well": a request for one more thing by
/// its words executes what those words alone do; with a negation or two
/// options, nothing executes.
#[test]
fn one_more_by_its_words_is_those_words() {
    let extras = options(&[("gps", "Add GPS"), ("seat", "Add child seat"), ("suv", "Upgrade to SUV")]);
    decides_as(&[
        ("the GPS too", &extras, Some("gps")),
        ("child seat as well", &extras, Some("seat")),
        ("upgrade to suv also", &extras, Some("suv")),
        ("not the GPS too", &extras, None),
        ("GPS and child seat too", &extras, None),
        ("too", &extras, None),
    ]);
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
        let set = labelled(&labels);
        let label = labels[pick % labels.len()].to_lowercase();
        let said: Vec<&str> = label.split(' ').rev().take(words).collect::<Vec<_>>().into_iter().rev().collect();
        let said = said.join(" ");
        if let Some(got) = executes(&format!("{said} {tail}"), &set) {
            proptest::prop_assert_eq!(Some(got), executes(&said, &set), "{:?} {:?} over {:?}", said, tail, labels);
        }
        let negated = executes(&format!("not {said} {tail}"), &set);
        proptest::prop_assert_eq!(negated, None, "not {:?} {:?} over {:?}", said, tail, labels);
    }
}

/// Who a request is for ("a kids cut for my son", "share it with my
/// sister", "el tinte para mi madre") names nothing; a word after it
/// that an option shows is that option's ("a case for my iphone").
#[test]
fn who_a_request_is_for_names_nothing() {
    let barber = options(&[("cut", "Haircut"), ("beard", "Beard trim"), ("kids", "Kids cut")]);
    let salon = options(&[("l", "Lavado"), ("c", "Corte"), ("t", "Tinte")]);
    let lists = options(&[("share", "Share playlist"), ("rename", "Rename playlist")]);
    let cases = options(&[("ip", "iPhone case"), ("gal", "Galaxy case")]);
    decides_as(&[
        ("a kids cut for my son", &barber, Some("kids")),
        ("book a haircut for my dad", &barber, Some("cut")),
        ("el tinte para mi madre", &salon, Some("t")),
        ("send the playlist to my sister", &lists, Some("share")),
        ("share it with my sister", &lists, Some("share")),
        ("a case for my iphone", &cases, Some("ip")),
        ("for my son", &barber, None),
        ("a case for my phone", &cases, None),
        ("a haircut for my beard", &barber, None),
    ]);
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
        let set = labelled(&labels);
        let (pick, other) = (pick % labels.len(), other % labels.len());
        let said = labels[pick].to_lowercase();
        let for_whom = executes(&format!("{said} {prep} {whom}"), &set);
        if for_whom.is_some() {
            proptest::prop_assert_eq!(&for_whom, &executes(&said, &set), "{:?} {:?} {:?} over {:?}", said, prep, whom, labels);
        }
        let word = labels[other].split(' ').next().unwrap().to_lowercase();
        if let Some(got) = executes(&format!("{said} {prep} {word}"), &set) {
            let label = labels[got[1..].parse::<usize>().unwrap()].to_lowercase();
            proptest::prop_assert!(label.split(' ').any(|w| w == word), "{:?} {:?} {:?} executed {:?}", said, prep, word, label);
        }
    }
}

/// A day said from today with a time ("7:15 tomorrow", "quarter past
/// seven tmrw", "morgen um 8") names nothing where no option shows a day;
/// where one does, it is a word like any other ("7:15 tomorrow" beside
/// "Mon 07:15"), and so it is without a time ("accept it tomorrow" may
/// ask to act later).
#[test]
fn a_day_said_from_today_names_nothing_where_no_option_shows_a_day() {
    let pickups = options(&[("a", "Pickup 07:15"), ("b", "Pickup 07:45"), ("c", "Pickup 08:15")]);
    let days = options(&[("mon", "Mon 07:15"), ("tue", "Tue 07:45")]);
    let today = options(&[("t", "Today 07:15"), ("m", "Tomorrow 07:15")]);
    decides_as(&[
        ("7:15 tomorrow", &pickups, Some("a")),
        ("quarter past seven tmrw", &pickups, Some("a")),
        ("morgen um 8:15", &pickups, Some("c")),
        ("tomorrow", &pickups, None),
        ("7:30 tomorrow", &pickups, None),
        ("7:15 tomorrow", &days, None),
        ("7:15 tomorrow", &today, Some("m")),
        ("pickup tomorrow", &options(&[("a", "Pickup"), ("d", "Delivery")]), None),
    ]);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(crate::testkit::cases(128)))]

    /// Over generated screens of times, with or without a day before
    /// each, "<time> <day from today>" executes what "<time>" alone does
    /// where no option shows a day, and never where one does (unless an
    /// option shows that very word).
    #[test]
    fn a_day_said_from_today_never_picks_an_option_by_its_day(
        times in proptest::sample::subsequence(vec!["07:15", "07:45", "08:15", "12:00", "18:30"], 2..=5),
        day in proptest::prelude::any::<bool>(),
        pick in 0usize..5,
        word in proptest::sample::select(vec!["tomorrow", "tmrw", "today", "demain", "morgen"]),
    ) {
        let labels: Vec<String> = times.iter().enumerate().map(|(k, t)| if day { format!("{} {t}", ["Mon", "Tue"][k % 2]) } else { format!("Pickup {t}") }).collect();
        let set = labelled(&labels.iter().map(String::as_str).collect::<Vec<_>>());
        let said = times[pick % times.len()];
        let with = executes(&format!("{said} {word}"), &set);
        if day {
            proptest::prop_assert_eq!(with, None, "{:?} {:?} over {:?}", said, word, labels);
        } else {
            proptest::prop_assert_eq!(&with, &executes(said, &set), "{:?} {:?} over {:?}", said, word, labels);
            proptest::prop_assert!(with.is_some(), "{:?} {:?} over {:?}", said, word, labels);
        }
    }
}

/// Verbs of taking an item in Spanish, Portuguese, Italian and Dutch
/// ("cojo", "me quedo con", "pego", "scelgo", "ik kies") are request
/// phrasing, as "I'll take" is; they never name an option alone.
#[test]
fn verbs_of_taking_in_more_languages_are_phrasing() {
    let shirts = options(&[("r", "Camiseta roja"), ("a", "Camiseta azul"), ("v", "Camiseta verde")]);
    let lines = options(&[("l24", "Línea 24"), ("l3", "Línea 3"), ("l1", "Línea 1")]);
    decides_as(&[
        ("me quedo con la roja", &shirts, Some("r")),
        ("cojo la azul", &shirts, Some("a")),
        ("pego a verde", &shirts, Some("v")),
        ("scelgo la verde", &shirts, Some("v")),
        ("coger la línea 3", &lines, Some("l3")),
        ("cojo", &shirts, None),
        ("me quedo con la negra", &shirts, None),
    ]);
}
