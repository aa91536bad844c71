use super::*;

#[test]
fn shipped_lexicon_parses_with_every_language() {
    let lex = Lexicon::from_toml(SHIPPED, &["en".into(), "he".into()]).unwrap();
    assert!(lex.cancel.contains("never mind"));
    assert!(lex.cancel.contains("ביטול"));
    assert_eq!(lex.ordinals.value_at(&["second"], 0), Some((1, 2)));
    assert_eq!(lex.ordinals.value_at(&["second", "to", "last", "one"], 0), Some((3, -2)));
    assert!(!lex.filler.is_empty());
}

#[test]
fn unknown_language_is_named() {
    let err = Lexicon::from_toml(SHIPPED, &["xx".into()]).unwrap_err();
    assert!(err.to_string().contains("\"xx\""), "{err}");
}

#[test]
fn phrases_match_longest_first() {
    let lex = Lexicon::shipped();
    let toks = ["show", "me", "panel"];
    assert_eq!(lex.selection_verbs.match_at(&toks, 0), Some(2));
    let toks = ["show", "panel"];
    assert_eq!(lex.selection_verbs.match_at(&toks, 0), Some(1));
}

#[test]
fn the_first_token_filter_never_hides_a_phrase() {
    let long = "x".repeat(70);
    let phrases: Vec<String> = ["can you", "please", "בבקשה", "i want to", long.as_str()].iter().map(|s| s.to_string()).collect();
    let set = PhraseSet::build(&phrases);
    for first in ["can", "please", "בבקשה", "i", long.as_str()] {
        assert!(set.starts_with(first), "{first:?}");
    }
    // Same first byte, other lengths; same length, other first byte;
    // a long token of another length still passes the filter (bit 63)
    // and is then refused by the hash lookup.
    for other in ["ca", "cans", "plea", "pleases", "dan", "", &"x".repeat(80)] {
        assert!(!set.starts_with(other), "{other:?}");
    }
    assert_eq!(set.match_at(&["can", "you", "open"], 0), Some(2));
    assert_eq!(set.match_at(&["cab", "you"], 0), None);
    assert!(!PhraseSet::default().starts_with("can"));
}

/// The one-table reply vocabulary reads every phrase of its lists as
/// the lists read one after the other would: the longest phrase of
/// any, and of two as long the first list's, at every word of every
/// phrase followed by any word of the vocabulary.
#[test]
fn the_reply_table_reads_as_its_lists_in_order() {
    let lex = Lexicon::shipped();
    let lists = lex.reply_lists();
    let one_by_one = |toks: &[&str], i: usize| {
        lists.iter().filter_map(|(l, w)| l.value_at(toks, i).map(|(n, v)| (n, (*w, v)))).fold(None, |best, cur| match best {
            Some((n, _)) if n >= cur.0 => best,
            _ => Some(cur),
        })
    };
    let phrases: Vec<&Vec<String>> = lists.iter().flat_map(|(l, _)| l.by_first.values().flatten().map(|(p, _)| p)).collect();
    let firsts: Vec<&str> = lists.iter().flat_map(|(l, _)| l.by_first.keys().map(String::as_str)).collect();
    let mut read = 0;
    for p in &phrases {
        for next in firsts.iter().step_by(7).chain([&"zzz"]) {
            let toks: Vec<&str> = p.iter().map(String::as_str).chain([*next]).collect();
            for i in 0..toks.len() {
                assert_eq!(lex.reply_words.value_at(&toks, i), one_by_one(&toks, i), "{toks:?} at {i}");
                read += 1;
            }
        }
    }
    assert!(read > 10_000, "{read}");
}

/// `openers` is `request_openers` and `polite_openers` in one: at every
/// word of their phrases, followed by any word of either, the longest
/// of the two.
#[test]
fn the_openers_read_as_both_lists() {
    let lex = Lexicon::shipped();
    let lists = [&lex.request_openers, &lex.polite_openers];
    let phrases: Vec<&Vec<String>> = lists.iter().flat_map(|l| l.by_first.values().flatten().map(|(p, _)| p)).collect();
    let firsts: Vec<&str> = lists.iter().flat_map(|l| l.by_first.keys().map(String::as_str)).chain(["zzz"]).collect();
    let mut read = 0;
    for p in &phrases {
        for next in &firsts {
            let toks: Vec<&str> = p.iter().map(String::as_str).chain([*next]).collect();
            for i in 0..toks.len() {
                let both = lex.request_openers.match_at(&toks, i).max(lex.polite_openers.match_at(&toks, i));
                assert_eq!(lex.openers.match_at(&toks, i), both, "{toks:?} at {i}");
                read += 1;
            }
        }
    }
    assert!(read > 1_000, "{read}");
}

#[test]
fn filler_never_contains_a_single_letter() {
    let file: LexiconFile = toml::from_str(SHIPPED).unwrap();
    for (lang, l) in &file.languages {
        for f in &l.filler {
            assert!(f.chars().count() > 1, "{lang}: filler {f:?} would eat badges");
        }
    }
}
