use super::super::tests::{executes, find_on, find_with, labelled, panels, request};
use super::*;
use crate::types::Candidate;

#[test]
fn the_longest_whole_label_is_the_one_named() {
    let phones = labelled(&["iPhone 15", "iPhone 15 Pro", "iPhone 15 Pro Max"]);
    let (_, ids) = find_on("iphone 15 pro max", &phones, &[]);
    assert_eq!(ids, ["c2:exact"]);
    let (_, ids) = find_on("show me the iphone 15 pro please", &phones, &[]);
    assert_eq!(ids, ["c1:normalized"]);
    let off = MatchParams { longest_label: false, ..MatchParams::default() };
    let (_, ids) = find_with("iphone 15 pro max", &phones, &[], off);
    assert_eq!(ids.len(), 3, "without the rule every contained label is a referent: {ids:?}");
    // Two candidates with the same label are both named.
    let (_, ids) = find_on("panel d", &labelled(&["Panel D", "Panel D"]), &[]);
    assert_eq!(ids, ["c0:exact", "c1:exact"]);
}

#[test]
fn structure_words_are_read() {
    let (m, _) = find_on("not the first one", &panels(), &[]);
    assert!(m.reading.negation && m.reading.named.is_empty());
    assert_eq!(m.reading.negated, [0]);
    let (m, ids) = find_on("the one after panel d", &panels(), &[]);
    assert_eq!((m.reading.relation, ids), (Some(Relation::After), vec!["d:badge".to_string()]));
    let (m, _) = find_on("the one before last", &panels(), &[]);
    assert_eq!(m.reading.relation, None, "a plain position relates nothing");
    let (m, _) = find_on("both", &panels(), &[]);
    assert!(m.reading.plural);
    let (m, _) = find_on("the fifth one", &panels(), &[]);
    assert!(m.reading.out_of_range);
    let (m, _) = find_on("the middle one", &panels()[..2], &[]);
    assert!(m.reading.out_of_range, "no middle in an even count");
    let (m, ids) = find_on("no 2", &panels(), &[]);
    assert_eq!((m.reading.negation, ids), (false, vec!["d:ordinal".to_string()]), "\"no 2\" is number two");
}

/// A relation word a label says with the word beside it is that label's
/// words, never a relation ("the next episode" with "Next episode: S1:E3";
/// "previous page" with "Previous page"); beside a word no label says it
/// still relates ("the next one").
#[test]
fn a_relation_word_a_label_says_is_the_labels() {
    let episodes = labelled(&["Next episode: S1:E3", "Replay S1:E2", "More like this"]);
    let (m, _) = find_on("play the next episode", &episodes, &[]);
    assert_eq!(m.reading.relation, None);
    assert_eq!(executes("play the next episode", &episodes), Some("c0".to_string()));
    let pages = labelled(&["Next page", "Previous page"]);
    assert_eq!(find_on("previous page", &pages, &[]).0.reading.relation, None);
    assert_eq!(executes("previous page", &pages), Some("c1".to_string()));
    assert_eq!(find_on("the next one", &episodes, &[]).0.reading.relation, Some(Relation::After));
    assert_eq!(find_on("the one after panel d", &panels(), &[]).0.reading.relation, Some(Relation::After));
}

#[test]
fn aliases_match_like_labels() {
    let mut c = panels();
    c[0].aliases.push("all the links".into());
    let (_, ids) = find_on("all links", &c, &[]);
    assert_eq!(ids, ["p:alias"]);
}

/// The definition the fast path must agree with.
mod reference {
    pub fn eq_case_insensitive(a: &str, b: &str) -> bool {
        if a.is_ascii() && b.is_ascii() { a.eq_ignore_ascii_case(b) } else { a.to_lowercase() == b.to_lowercase() }
    }
}

proptest::proptest! {
    #[test]
    fn raw_input_equals_labels_as_eq_case_insensitive_does(raw in "\\PC{0,8}", label in "(\\PC|\u{212A}|K| ){0,8}") {
        let raw = raw.trim();
        proptest::prop_assert_eq!(RawInput::new(raw).eq_label(&label, label.is_ascii()), reference::eq_case_insensitive(raw, label.trim()));
    }

    /// Words a label contains, spelled apart in the input, name it;
    /// joined they name it too when `joined_words` is on, and only then.
    #[test]
    fn joined_words_name_a_label_only_when_allowed(words in proptest::collection::vec("[a-z]{3,6}", 2..4)) {
        let label = words.join(" ");
        let cands = vec![Candidate::new("x", label.clone()), Candidate::new("y", "zzzz qqqq")];
        let joined = words.concat();
        let (_, on) = find_with(&joined, &cands, &[], MatchParams::default());
        let (_, off) = find_with(&joined, &cands, &[], MatchParams { joined_words: false, ..MatchParams::default() });
        let lex = Lexicon::shipped();
        proptest::prop_assume!(words.iter().all(|w| !lex.filler.starts_with(w)));
        proptest::prop_assert_eq!(on, vec!["x:normalized".to_string()]);
        proptest::prop_assert!(off.is_empty());
    }
}

// ----------------------------------------------------------- verb uses --

/// The options a verb use is tried on: the object with a word that is no
/// action, and options without the object.
fn screen(object: &str, rest: &str) -> Vec<Candidate> {
    vec![Candidate::new("x", format!("{object} {rest}")), Candidate::new("r", "Returns"), Candidate::new("h", "Contact us")]
}

/// A noun that is also an action, said as the request's verb ("track my
/// parcel"), asks for that action: no option that does not say it
/// executes, whatever leads the verb. The same object said as a noun
/// ("my parcel") executes (counted: the property is not vacuous), and an
/// option that says the verb executes.
/// Set ... to an option named by a signed number or a badge, as by its
/// label: "set my home clock to +2" for "UTC+2 (Johannesburg)". A thing
/// set that another option shows ("the lagos clock"), or a value no
/// option shows, is asked.
#[test]
fn set_to_an_option_named_by_a_signed_number_or_a_badge() {
    let zones: Vec<Candidate> = [("a", "UTC−5 (Bogotá)"), ("b", "UTC+1 (Lagos)"), ("c", "UTC+2 (Johannesburg)")]
        .iter()
        .map(|(id, l)| Candidate::new(*id, *l))
        .collect();
    for input in ["set my home clock to +2", "set it to utc+2", "set the clock to +2"] {
        assert_eq!(executes(input, &zones).as_deref(), Some("c"), "{input}");
    }
    for input in ["set the lagos clock to +2", "set my home clock to +3", "set my home clock to +2 and +1"] {
        assert_eq!(executes(input, &zones), None, "{input}");
    }
}

#[test]
fn a_noun_said_as_the_verb_asks_for_its_action() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    use std::cell::Cell;
    let lex = Lexicon::shipped();
    let verbs: Vec<String> = {
        let mut v: Vec<String> = lex.verb_nouns.iter().filter(|w| w.is_ascii()).cloned().collect();
        v.sort();
        v
    };
    let strategy = (
        prop::sample::select(verbs),
        prop::sample::select(vec!["", "to ", "can you ", "please ", "i want to ", "could you ", "can i "]),
        prop::sample::select(vec!["parcel", "invoice", "laptop", "passport", "refund", "subscription", "statement"]),
        prop::sample::select(vec!["status", "details", "history", "summary", "overview"]),
        prop::sample::select(vec!["my ", "the ", "", "our "]),
    );
    let (tried, as_noun, with_verb) = (Cell::new(0), Cell::new(0), Cell::new(0));
    let mut runner = TestRunner::new(Config { cases: 128, ..Config::default() });
    runner
        .run(&strategy, |(verb, lead, object, rest, det)| {
            let cands = screen(object, rest);
            let input = format!("{lead}{verb} {det}{object}");
            tried.set(tried.get() + 1);
            prop_assert_eq!(executes(&input, &cands), None, "{:?} executes without {:?}", input, verb);
            // The object as a noun names it.
            if executes(&format!("{det}{object}"), &cands).as_deref() == Some("x") {
                as_noun.set(as_noun.get() + 1);
            }
            // An option that says the action accounts for it.
            let said = vec![Candidate::new("x", format!("{verb} {object}")), cands[1].clone(), cands[2].clone()];
            if executes(&input, &said).as_deref() == Some("x") {
                with_verb.set(with_verb.get() + 1);
            }
            Ok(())
        })
        .unwrap();
    assert!(as_noun.get() * 2 >= tried.get(), "the noun executed {} of {}", as_noun.get(), tried.get());
    assert!(with_verb.get() * 2 >= tried.get(), "the option with the verb executed {} of {}", with_verb.get(), tried.get());
}

#[test]
fn a_verb_use_is_the_first_word_or_after_a_lead() {
    let lex = Lexicon::shipped();
    let cands = labelled(&["Parcel status", "Returns", "Contact us"]);
    for (input, want) in [
        ("track my parcel", None),
        ("please track my parcel", None),
        ("i want to track my parcel", None),
        ("my parcel", Some("c0")),
        ("the parcel one", Some("c0")),
    ] {
        assert_eq!(executes(input, &cands).as_deref(), want, "{input:?}");
    }
    let toks = ["i", "need", "to", "track", "the", "order"];
    let mut roles = vec![Role::Content; toks.len()];
    let (p, params, stop) = (super::super::tests::pool(&cands), MatchParams::default(), DeadlineWatch::default());
    let canon = CanonPool::build(&p, &lex, &stop).unwrap();
    let screen = Screen { pool: &p, canon: &canon, lex: &lex, params: &params, stop: &stop };
    assert!(mark_verb_uses(&toks, &mut roles, &screen, false, &mut Vec::new()));
    assert_eq!(roles[3], Role::Verb, "after \"to\"");
    assert_eq!(roles[5], Role::Content, "\"order\" after \"the\" is the noun");
    // "Order the second one" names its item: the verb stays phrasing.
    let menu = labelled(&["Pad Thai", "Green Curry", "Spring Rolls"]);
    assert_eq!(executes("order the second one", &menu).as_deref(), Some("c1"));
    assert_eq!(executes("order pad thai", &menu).as_deref(), Some("c0"));
}

/// A noun that is also an action, said as the request's verb, stays that
/// action when the object is an option's whole label that another option
/// says more of ("track my order" with "Order" and "Order status" on
/// screen): no option that does not say the action executes, whatever
/// leads the verb; the object alone ("my order") executes (counted). An
/// item named alone takes the action ("track the parcel to berlin"), and
/// so does any item an everyday verb of choosing names ("order the pad
/// thai", in the example above).
#[test]
fn a_noun_said_as_the_verb_before_a_whole_label_asks_for_its_action() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    use std::cell::Cell;
    let lex = crate::testkit::lexicon();
    let verbs: Vec<String> = {
        let mut v: Vec<String> =
            lex.verb_nouns.iter().filter(|w| w.is_ascii() && !lex.everyday_verbs.is_phrase(&[w.as_str()])).cloned().collect();
        v.sort();
        v
    };
    assert!(verbs.len() >= 5, "{verbs:?}");
    let strategy = (
        prop::sample::select(verbs),
        prop::sample::select(vec!["", "to ", "can you ", "please ", "i want to ", "could you "]),
        prop::sample::select(vec!["Order", "Parcel", "Invoice", "Refund", "Subscription", "Statement", "Payment"]),
        prop::sample::select(vec!["my ", "the ", "", "our "]),
    );
    let (tried, as_noun) = (Cell::new(0), Cell::new(0));
    let mut runner = TestRunner::new(Config { cases: crate::testkit::cases(96), ..Config::default() });
    runner
        .run(&strategy, |(verb, lead, object, det)| {
            let cands = labelled(&[object, "Returns", &format!("{object} status")]);
            let input = format!("{lead}{verb} {det}{}", object.to_lowercase());
            tried.set(tried.get() + 1);
            prop_assert_eq!(executes(&input, &cands), None, "{:?} executes without {:?}", input, verb);
            if executes(&format!("{det}{}", object.to_lowercase()), &cands).as_deref() == Some("c0") {
                as_noun.set(as_noun.get() + 1);
            }
            Ok(())
        })
        .unwrap();
    assert!(as_noun.get() * 2 >= tried.get(), "the noun executed {} of {}", as_noun.get(), tried.get());
    let parcels = labelled(&["Parcel to Berlin", "Parcel to Lyon", "Letter to Madrid"]);
    assert_eq!(executes("can you track the parcel to berlin", &parcels).as_deref(), Some("c0"));
    let shop = labelled(&["Order", "Order status", "Returns"]);
    assert_eq!(executes("track my order", &shop), None);
    assert_eq!(executes("my order", &shop).as_deref(), Some("c0"));
}

/// The everyday verb is request phrasing only where it fits what the
/// option does: "accept Lee's invite" for "Accept", "set the
/// pickup to work" for "Work", "book the harbour view room" for a room.
/// Tried against what a person never acts on: an object another option
/// shows, a second request, a negation, two options named, a word no
/// option has, a high-risk option without its exact label, a verb that
/// fits no option. The plain frame executes (counted: not vacuous).
#[test]
fn the_everyday_verb_never_says_more_than_the_option_does() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    use std::cell::Cell;
    let high = |c: Candidate| Candidate { risk: crate::types::Risk::High, ..c };
    let strategy = (
        prop::sample::select(vec!["accept", "decline", "join", "snooze"]),
        // Words no option shows that say no kind of item: "invite" and
        // "invitation" say what a response answers (generic nouns, as
        // "meeting" is) and are read with them.
        prop::sample::select(vec!["proposal", "reminder", "nudge", "offer"]),
        prop::sample::select(vec!["pickup", "destination", "start point"]),
        prop::sample::select(vec!["home", "work", "gym"]),
        prop::sample::select(vec!["harbour", "garden", "city"]),
        0usize..7,
    );
    let (tried, plain) = (Cell::new(0), Cell::new(0));
    let mut runner = TestRunner::new(Config { cases: 96, ..Config::default() });
    runner
        .run(&strategy, |(action, object, setting, place, view, spoiler)| {
            let actions = vec![Candidate::new("a", action), Candidate::new("o", "Propose new time"), Candidate::new("m", "Mute")];
            let places = labelled(&["Home", "Work", "Gym"]);
            let rooms = vec![Candidate::new("r", format!("{view} view room")), Candidate::new("s", "Standard room")];
            let bad: Vec<(String, &[Candidate])> = match spoiler {
                // An object another option shows names that one too.
                0 => vec![(format!("{action} the new time"), &actions), (format!("set the gym to {place}"), &places)],
                // A second request joined by "and" alone ("and then" is a
                // sequence: matching/sequence.rs).
                1 => vec![
                    (format!("{action} the {object} and delete it"), &actions),
                    (format!("set the {setting} to {place} and call me"), &places),
                ],
                // A negation.
                2 => vec![(format!("don't {action} the {object}"), &actions), (format!("never set the {setting} to {place}"), &places)],
                // Two options named.
                3 => vec![(format!("set the {setting} to {place} or home"), &places), (format!("{action} or mute the {object}"), &actions)],
                // A word no option has, in place of the option's own.
                4 => vec![(format!("book the spa {view} room"), &rooms), (format!("set the {setting} to school"), &places)],
                // A verb that fits no option.
                5 => vec![(format!("track the {view} view"), &rooms)],
                _ => vec![],
            };
            for (input, cands) in &bad {
                tried.set(tried.get() + 1);
                prop_assert_ne!(executes(input, cands).unwrap_or_default(), cands[0].id.clone(), "{:?} executed", input);
                if spoiler == 2 || spoiler == 3 {
                    prop_assert_eq!(executes(input, cands), None, "{:?} executed", input);
                }
            }
            // A high-risk option: its label whole, nothing else.
            let risky = vec![high(Candidate::new("a", action)), actions[1].clone(), actions[2].clone()];
            prop_assert_eq!(executes(&format!("{action} the {object}"), &risky), None);
            prop_assert_eq!(executes(action, &risky).unwrap_or_default(), "a");
            let risky_rooms = vec![high(rooms[0].clone()), rooms[1].clone()];
            prop_assert_eq!(executes(&format!("book the {view} view"), &risky_rooms), None);
            // The plain frames execute.
            for (input, cands, want) in [
                (format!("{action} the {object}"), &actions, "a"),
                (
                    format!("set the {setting} to {place}"),
                    &places,
                    ["c0", "c1", "c2"][["home", "work", "gym"].iter().position(|p| *p == place).unwrap()],
                ),
                (format!("book the {view} view room"), &rooms, "r"),
            ] {
                plain.set(plain.get() + 1);
                prop_assert_eq!(executes(&input, cands).unwrap_or_default(), want, "{:?}", input);
            }
            Ok(())
        })
        .unwrap();
    assert!(tried.get() > 0 && plain.get() > 0);
}

/// The trace names the rule that read the words, and how many, never
/// the words: "set_to: 2 words".
#[test]
fn the_classify_step_names_the_rule_that_read_each_word() {
    let d = crate::testkit::turn(
        &crate::policy::Policy::defaults(),
        &crate::testkit::Fake::quiet(),
        &request("set the pickup to work", &labelled(&["Home", "Work", "Gym"])),
    )
    .decision;
    let step = d.trace.iter().find(|s| s.rung == "classify").unwrap();
    assert_eq!(step.detail, "set_to: 2 words", "{:?}", d.trace);
}

/// "Invite" says what a response answers, as "meeting" or "request" do
/// (the lexicon's `generic_nouns`): "accept Dana's invite" is the accept
/// of Dana's event; where another option shows the word, or the person
/// differs, it asks.
#[test]
fn an_invite_is_a_word_for_what_a_response_answers() {
    let invites = labelled(&["Accept: Offsite planning — Dana Ortiz", "Maybe", "Decline: Offsite planning — Dana Ortiz"]);
    assert_eq!(executes("accept Dana's invite", &invites), Some("c0".to_string()));
    assert_eq!(executes("decline the invitation from dana", &invites), None, "\"from\" asks for more");
    assert_eq!(executes("accept Lee's invite", &invites), None, "Lee is not on screen");
    let forwarded = labelled(&["Accept: Offsite planning — Dana Ortiz", "Forward invite to Dana", "Decline"]);
    assert_eq!(executes("accept Dana's invite", &forwarded), None);
}

/// The everyday verb said of an option by what it is or by the value it
/// shows ("pay the gas bill" for "Gas bill · $64.20", "attend the design
/// review" for "Design review · 4:30 PM", "order a garden latte" where it
/// shows a price), set ... to an option named by its words ("set pickup to
/// home" for "Home · 12 Oak St") and a verb around its option ("turn the
/// garden lamp on"): executed (counted). Tried against a verb that asks
/// for more than the option does, a verb that fits no option, a negation,
/// two options named, a word no option has, a value the option does not
/// show, a high-risk option, a verb of its own beside an option that is
/// another action ("call lee" for "Text Lee"), and the same item behind
/// another action than choosing ("pay the gas bill" for "Dispute gas
/// bill"): none executes the option.
#[test]
fn the_everyday_verb_fits_an_option_by_what_it_is_or_shows() {
    use crate::testkit::{Branches, check_cases};
    use proptest::prelude::*;
    let high = |c: Candidate| Candidate { risk: crate::types::Risk::High, ..c };
    let title = |w: &str| format!("{}{}", w[..1].to_uppercase(), &w[1..]);
    let branches = Branches::default();
    let cases = (
        0usize..5,
        prop::sample::select(vec![("garden", "harbour"), ("city", "lake"), ("north", "south"), ("blue", "green")]),
        prop::sample::select(vec!["delete", "cancel", "dispute", "remove", "share"]),
        0usize..10,
    );
    check_cases(crate::testkit::cases(128), file!(), &cases, |(kind, (a, b), more, spoiler)| {
        let (labels, good, object): ([String; 3], String, String) = match kind {
            0 => (
                [format!("{} bill · $64.20", title(a)), format!("{} bill · $88.10", title(b)), "Help".into()],
                "pay".into(),
                format!("the {a} bill"),
            ),
            1 => (
                [format!("{} review · 4:30 PM", title(a)), format!("{} sync · Fri", title(b)), "Help".into()],
                "attend".into(),
                format!("the {a} review"),
            ),
            2 => (
                [format!("{} latte · $4.50", title(a)), format!("{} mocha · $4.20", title(b)), "Help".into()],
                "order".into(),
                format!("a {a} latte"),
            ),
            3 => (
                [format!("{} · 12 Oak St", title(a)), format!("{} · 500 Market St", title(b)), "Gym · 1 Fitness Way".into()],
                "set pickup to".into(),
                a.to_string(),
            ),
            _ => {
                ([format!("{} lamp", title(a)), format!("{} lamp", title(b)), "Porch light".into()], "turn".into(), format!("the {a} lamp"))
            }
        };
        let say = |verb: &str| if kind == 4 { format!("{verb} {object} on") } else { format!("{verb} {object}") };
        let input = say(&good);
        let cands: Vec<Candidate> = labels.iter().enumerate().map(|(i, l)| Candidate::new(["x", "y", "z"][i], l.as_str())).collect();
        let (tried, screen): (String, Vec<Candidate>) = match spoiler {
            0 => (say(more), cands.clone()),
            1 if kind < 3 => (say("install"), cands.clone()),
            2 => (format!("don't {input}"), cands.clone()),
            3 => (format!("{input} or the {b} one"), cands.clone()),
            4 => (format!("{input} for grandma"), cands.clone()),
            5 => (format!("{input} for $99"), cands.clone()),
            6 => (input.clone(), vec![high(cands[0].clone()), cands[1].clone(), cands[2].clone()]),
            7 => (
                format!("call {a}"),
                vec![Candidate::new("x", format!("Text {}", title(a))), Candidate::new("y", format!("Text {}", title(b)))],
            ),
            // The same item behind another action than choosing.
            8 if kind < 3 => {
                (input.clone(), vec![Candidate::new("x", format!("Dispute {}", labels[0])), cands[1].clone(), cands[2].clone()])
            }
            _ => (input.clone(), Vec::new()),
        };
        if !screen.is_empty() {
            let got = executes(&tried, &screen);
            prop_assert_ne!(got.as_deref(), Some("x"), "{:?} over {:?}", tried, screen);
        }
        if executes(&input, &cands).as_deref() == Some("x") {
            branches.hit(["by what it is", "at a time", "with a price", "set to its words", "around it"][kind]);
        }
        Ok(())
    });
    branches.expect(&[("by what it is", 16), ("at a time", 16), ("with a price", 16), ("set to its words", 16), ("around it", 16)]);
}

/// Words for an amount of the item ("a side of", "a glass of": the
/// lexicon's `partitives`) are request phrasing; where a label says the
/// amount's own word ("Glass of wine"), that word names it.
#[test]
fn an_amount_of_the_item_is_request_phrasing() {
    let menu = labelled(&["Add fries · $3.50", "Add a drink", "Edit cart"]);
    assert_eq!(executes("add a side of fries", &menu), Some("c0".to_string()));
    assert_eq!(executes("a plate of fries", &menu), Some("c0".to_string()));
    let wine = labelled(&["Glass of wine", "Bottle of wine"]);
    assert_eq!(executes("a glass of wine please", &wine), Some("c0".to_string()));
    assert_eq!(executes("a cup of wine", &wine), None, "no option is a cup, and both are wine");
}

/// The everyday verbs of common app items (accept an offer, wear a
/// dress, cast to a speaker, reply to a message, redeem a reward, pair
/// headphones, subscribe to a plan, follow a channel, visit or drive to a
/// place, download or print a document) fit the options that are such
/// items by label, sublabel or `kind`; a word that says what kind of
/// thing the options are ("the Acme offer", kind `offer`) is said of
/// them. Never of an option of another kind, a high-risk one, or where a
/// word no option shows is left.
#[test]
fn everyday_verbs_and_kind_words_of_common_items() {
    let kinded = |rows: &[(&str, &str)]| -> Vec<Candidate> {
        rows.iter().enumerate().map(|(i, (l, k))| Candidate { kind: (*k).into(), ..Candidate::new(format!("c{i}"), *l) }).collect()
    };
    let offers = kinded(&[("Acme · $95k", "offer"), ("Globex · $90k", "offer")]);
    let outfits = kinded(&[("Red dress", "outfit"), ("Blue dress", "outfit"), ("Green dress", "outfit")]);
    let devices = kinded(&[("Living room TV", "device"), ("Bedroom speaker", "device")]);
    let inbox = kinded(&[("Anna: lunch?", "message"), ("Ben: report", "message")]);
    let rewards = kinded(&[("Free coffee", "reward"), ("Free pastry", "reward")]);
    let places = kinded(&[("Home", "place"), ("Work", "place"), ("Gym", "place")]);
    let docs = kinded(&[("Invoice #1042", "document"), ("Receipt #1042", "document")]);
    for (input, set, want) in [
        ("accept the Acme offer", &offers, "c0"),
        ("wear the red one", &outfits, "c0"),
        ("cast to the bedroom speaker", &devices, "c1"),
        ("reply to Anna", &inbox, "c0"),
        ("redeem the free coffee reward", &rewards, "c0"),
        ("navigate to the gym", &places, "c2"),
        ("drive to work", &places, "c1"),
        ("print the invoice", &docs, "c0"),
        ("download the receipt", &docs, "c1"),
    ] {
        assert_eq!(executes(input, set).as_deref(), Some(want), "{input}");
    }
    // A verb for another kind of item, a kind word of other options, a
    // high-risk option, a word left over: asked.
    assert_eq!(executes("wear the bedroom speaker", &devices), None);
    let mixed = kinded(&[("Acme · $95k", "offer"), ("Acme · onboarding", "event")]);
    assert_eq!(executes("the acme", &mixed), None);
    let risky = vec![Candidate { risk: crate::types::Risk::High, ..offers[0].clone() }, offers[1].clone()];
    assert_eq!(executes("accept the Acme offer", &risky), None);
    assert_eq!(executes("accept the Acme offer tomorrow", &offers), None);
}

/// One word of a label said as two ("check out" for "Go to checkout",
/// "log in" for "Login", "roll over" for "401k rollover") is that word;
/// two words that are each a label's own stay as they are.
#[test]
fn a_label_word_said_as_two_is_that_word() {
    use crate::policy::Policy;
    use crate::testkit::{Fake, turn};
    let decide = |input: &str, labels: &[&str]| {
        let cands: Vec<Candidate> = labels.iter().enumerate().map(|(i, l)| Candidate::new(format!("o{i}"), *l)).collect();
        turn(&Policy::defaults(), &Fake::quiet(), &request(input, &cands)).decision
    };
    let executed = |d: &crate::types::Decision| d.target_id.clone().filter(|_| d.outcome == crate::types::Outcome::Execute);
    assert_eq!(executed(&decide("log in", &["Login", "Sign up", "Help"])), Some("o0".into()));
    assert_eq!(executed(&decide("please check out", &["Go to checkout", "Add fries", "Add a drink"])), Some("o0".into()));
    assert_eq!(executed(&decide("roll over my 401k", &["401k rollover", "401k balance", "Open an IRA"])), Some("o0".into()));
    // "sign up" says both words of "Sign up": no joining.
    assert_eq!(executed(&decide("sign up", &["Login", "Sign up", "Signup bonus"])), Some("o1".into()));
}

/// A conjunction a label says, that joins nothing in the input (no word
/// names anything before it), is that label's word: "the plus plan" is
/// "SIM Only Plus 20 GB". Words that go on ("and", "also") are still
/// phrasing, and a conjunction between two things still joins them.
#[test]
fn a_conjunction_a_label_says_that_joins_nothing_is_its_word() {
    let plans = labelled(&["SIM Only Basic 5 GB (£8/month)", "SIM Only Plus 20 GB (£12/month)", "SIM Only Unlimited (£20/month)"]);
    for (input, want) in
        [("the plus plan", Some("c1")), ("the plus one", Some("c1")), ("and the basic plan", Some("c0")), ("basic plus unlimited", None)]
    {
        assert_eq!(executes(input, &plans).as_deref(), want, "{input:?}");
    }
    let books = labelled(&["The Overstory", "Bread and Butter", "Circe"]);
    assert_eq!(executes("and the overstory too pls", &books).as_deref(), Some("c0"));
}
