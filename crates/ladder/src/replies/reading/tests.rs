use super::*;

fn r(raw: &str) -> Reading {
    read(raw, &Lexicon::shipped())
}

#[test]
fn affirmations_in_the_words_people_use() {
    for raw in [
        "yes",
        "Yup, that's right.",
        "yep do it",
        "sure, go ahead",
        "that's the one 👍",
        "sounds good",
        "Yes, that is correct.",
        "That works for me.",
        "sí, dale",
        "oui celle-là",
        "ja passt",
        "כן",
    ] {
        let x = r(raw);
        assert!(x.affirms, "{raw:?}: {x:?}");
        assert!(!x.refuses && !x.alternatives && !x.abandons && !x.asks, "{raw:?}: {x:?}");
        assert!(x.rest.is_empty(), "{raw:?}: rest {:?}", x.rest);
    }
}

/// "Sorry" that opens a reply apologizes, and corrects nothing after it;
/// anywhere else, or with a word that corrects, it is a correction.
#[test]
fn sorry_that_opens_a_reply_is_an_apology() {
    assert!(!r("sorry, yes - 8 is fine").corrects);
    assert!(r("sorry, yes - 8 is fine").affirms);
    assert!(r("sorry, make it 8").corrects);
    assert!(r("yes at 8, sorry").corrects);
}

/// A yes word that opens a closing ("perfect thanks", "great thanks
/// bye", "awesome thank you!!") makes a closing that opens with a yes,
/// not a yes with words left.
#[test]
fn a_closing_may_open_with_a_word_of_reaction() {
    for raw in ["perfect thanks", "great thanks bye", "awesome thank you!!", "cool thx, all done", "ok thanks"] {
        let x = r(raw);
        assert!(x.closes && x.clauses.is_empty() && x.rest.is_empty(), "{raw:?}: {x:?}");
    }
    assert!(r("perfect thanks").closes_with_a_yes);
    assert!(!r("thanks").closes_with_a_yes);
    // Words of reaction alone close nothing.
    assert!(!r("great").closes && !r("awesome").closes);
}

#[test]
fn refusals_alternatives_and_abandons() {
    let x = r("No, make it 5:30 instead.");
    assert!(x.refuses && x.corrects, "{x:?}");
    assert_eq!(x.values.len(), 1);
    let x = r("Any other options?");
    assert!(x.alternatives && x.asks, "{x:?}");
    let x = r("Sounds good, but could you search for some different events?");
    assert!(x.affirms && x.corrects && x.alternatives, "{x:?}");
    for raw in ["forget it, I'll do it later", "hold on, don't", "ugh never mind", "nvm i'll do it later", "laisse tomber"] {
        assert!(r(raw).abandons, "{raw:?}: {:?}", r(raw));
    }
    let x = r("nope");
    assert!(x.refuses && !x.affirms, "{x:?}");
}

#[test]
fn repairs_comparisons_and_what_is_left() {
    assert!(r("no not that one").not_that);
    assert!(r("wrong one").not_that);
    assert!(r("ugh no the other one").the_other);
    assert_eq!(r("the cheaper one").comparison, crate::lexicon::comparison_code("price:least"));
    assert_eq!(r("le moins cher stp").comparison, crate::lexicon::comparison_code("price:least"));
    assert_eq!(r("the earliest one").comparison, crate::lexicon::comparison_code("clock:least"));
    let x = r("add a garlic naan");
    assert_eq!((x.verbs.as_slice(), x.rest.as_slice()), (&["add".to_string()][..], &["garlic".to_string(), "naan".to_string()][..]));
    let x = r("one more");
    assert!(x.repeats && x.rest.is_empty(), "{x:?}");
    let x = r("Yes, that works for me. Where is the event taking place?");
    assert!(x.affirms && x.asks, "{x:?}");
    let x = r("That's all I need, thanks!");
    assert!(!x.is_reply_shaped() && x.rest.is_empty(), "{x:?}");
}

/// An abandon word after words of the clause's own is part of that
/// request, not an abandon; after a lead-in (filler, a sound, a no,
/// "can you") it abandons.
#[test]
fn an_abandon_opens_its_clause() {
    for raw in ["can you stop", "ugh never mind", "no, stop", "please stop it", "actually stop", "ok never mind"] {
        assert!(r(raw).abandons, "{raw:?}: {:?}", r(raw));
    }
    for raw in [
        "place a stop on my bank account",
        "will there be a wait time at this restaurant",
        "at the moment what is the time",
        "set an alarm to start work and another to stop",
        "tell the restaurant to cancel my reservation",
        "don't stop",
    ] {
        let x = r(raw);
        assert!(!x.abandons, "{raw:?}: {x:?}");
    }
    assert!(r("nope, none").refuses && r("nope, none").rest.is_empty());
}
