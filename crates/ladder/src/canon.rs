//! Canonicalization: the one text normalization every rung uses, for the
//! user's input and for candidate labels alike, so comparisons are always
//! like with like: `text::normalize` (NFKC: full-width letters and digits
//! become plain ones; case; punctuation, emoji and symbols become word
//! breaks), `text::fold` (accents: "cafe" = "Café"), then polite filler
//! phrases from the lexicon removed.

use super::lexicon::Lexicon;
use super::text::{fold, normalize, normalize_ascii_into};

/// `normalize`, then filler phrases removed until none is left.
pub fn canonicalize(text: &str, lex: &Lexicon) -> String {
    let mut out = String::new();
    canonicalize_into(text, lex, &mut out);
    out
}

/// `canonicalize`, appended to `out`: a pool's labels share one buffer
/// instead of an allocation each (the matching rung's hot loop). Returns
/// whether `text` is ASCII (then so is what was appended).
pub fn canonicalize_into(text: &str, lex: &Lexicon, out: &mut String) -> bool {
    canonicalize_impl(text, lex, out, None)
}

/// `canonicalize_into`, also setting `words` to the ranges in `out` of the
/// appended words (found while normalizing, so matching need not split the
/// label again).
pub fn canonicalize_words_into(text: &str, lex: &Lexicon, out: &mut String, words: &mut Vec<(usize, usize)>) -> bool {
    words.clear();
    canonicalize_impl(text, lex, out, Some(words))
}

fn canonicalize_impl(text: &str, lex: &Lexicon, out: &mut String, mut words: Option<&mut Vec<(usize, usize)>>) -> bool {
    let start = out.len();
    let starts_filler = |word: &str| lex.filler.starts_with(word);
    let (filler, ascii) = match normalize_ascii_into(text, out, starts_filler, words.as_deref_mut()) {
        Some(filler) => (filler, true),
        None => {
            out.push_str(&fold(&normalize(text)));
            (has_filler(&out[start..], lex), false)
        }
    };
    if filler {
        let stripped = strip_filler(out[start..].to_string(), lex);
        out.truncate(start);
        out.push_str(&stripped);
    }
    if let Some(words) = words
        && (filler || !ascii)
    {
        // The words changed (or were not recorded): split the result.
        words.clear();
        let mut at = start;
        for word in out[start..].split(' ') {
            if !word.is_empty() {
                words.push((at, at + word.len()));
            }
            at += word.len() + 1;
        }
    }
    ascii
}

fn has_filler(normalized: &str, lex: &Lexicon) -> bool {
    normalized.split(' ').any(|t| lex.filler.starts_with(t))
}

/// Removes filler phrases from normalized text. Repeats until stable, since
/// removing one phrase can join the words of another ("can the you").
pub fn strip_filler(mut cur: String, lex: &Lexicon) -> String {
    loop {
        if !has_filler(&cur, lex) {
            return cur;
        }
        let toks: Vec<&str> = cur.split(' ').filter(|t| !t.is_empty()).collect();
        let mut out = String::with_capacity(cur.len());
        let mut removed = false;
        let mut i = 0;
        while i < toks.len() {
            if let Some(n) = lex.filler.match_at(&toks, i) {
                i += n;
                removed = true;
                continue;
            }
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(toks[i]);
            i += 1;
        }
        if !removed {
            return cur;
        }
        cur = out;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn lex() -> Lexicon {
        Lexicon::shipped()
    }

    #[test]
    fn canonicalization_table() {
        let lex = lex();
        let table = [
            ("Open Links Panel D", "open links panel d"),
            ("  can you   ope panel d pls ", "ope panel d"),
            ("What's panel D?", "whats panel d"),
            ("#3", "3"),
            ("the second one", "second one"),
            ("Links-Panel_D!!!", "links panel d"),
            ("Ｌｉｎｋｓ　Ｐａｎｅｌ", "links panel"),
            ("ﬁle", "file"),
            ("Café", "cafe"),
            ("שָׁלוֹם", "שלום"),
            ("צ'אט", "צאט"),
            ("please", ""),
            ("can the you open", "open"),
            ("Panel A", "panel a"),
            ("", ""),
        ];
        for (input, want) in table {
            assert_eq!(canonicalize(input, &lex), want, "input {input:?}");
        }
    }

    proptest! {
        #[test]
        fn canonicalize_is_idempotent(s in "(\\PC|can you|please|the |pls ){0,12}") {
            let lex = lex();
            let once = canonicalize(&s, &lex);
            prop_assert_eq!(canonicalize(&once, &lex), once.clone());
        }

        #[test]
        fn canonicalize_into_appends_what_canonicalize_returns_and_its_words(a in "\\PC{0,30}", b in "(\\PC|please |can you ){0,10}") {
            let lex = lex();
            let (mut buf, mut words) = (String::new(), Vec::new());
            canonicalize_words_into(&a, &lex, &mut buf, &mut words);
            let mid = buf.len();
            canonicalize_words_into(&b, &lex, &mut buf, &mut words);
            prop_assert_eq!(&buf[..mid], canonicalize(&a, &lex));
            prop_assert_eq!(&buf[mid..], canonicalize(&b, &lex));
            let got: Vec<&str> = words.iter().map(|&(s, e)| &buf[s..e]).collect();
            prop_assert_eq!(got, crate::text::words(&buf[mid..]).collect::<Vec<_>>());
        }

        #[test]
        fn canonical_text_has_single_spaces_and_no_edges(s in "\\PC{0,60}") {
            let c = canonicalize(&s, &lex());
            prop_assert!(!c.starts_with(' ') && !c.ends_with(' ') && !c.contains("  "));
        }
    }
}
