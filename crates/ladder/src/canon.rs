//! Canonicalization: the one text normalization every rung uses, for the
//! user's input and for candidate labels alike, so comparisons are always
//! like with like.
//!
//! `normalize`: Unicode NFKC, lower case, combining marks and apostrophes
//! dropped, every other non-alphanumeric character a separator, whitespace
//! collapsed to single spaces. `canonicalize`: `normalize`, then polite filler
//! phrases from the lexicon removed. ASCII text (the common case) takes a
//! byte-level fast path; NFKC is the identity on ASCII.

use super::lexicon::Lexicon;
use unicode_normalization::{UnicodeNormalization, char::is_combining_mark};

fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '\u{2019}' | '\u{2018}' | '\u{02BC}' | '`' | '\u{05F3}' | '\u{05F4}' | '"')
}

/// NFKC, case fold, punctuation to spaces, whitespace collapsed. Idempotent.
pub fn normalize(text: &str) -> String {
    if text.is_ascii() {
        return normalize_ascii(text);
    }
    // Lower-casing can yield characters that NFKC changes again (and the
    // reverse), so iterate to a fixpoint; two passes settle real text.
    let mut cur = normalize_unicode(text);
    for _ in 0..3 {
        if cur.is_ascii() {
            break;
        }
        let next = normalize_unicode(&cur);
        if next == cur {
            break;
        }
        cur = next;
    }
    cur
}

/// `normalize`, appended to `out` (no allocation for ASCII text).
pub fn normalize_into(text: &str, out: &mut String) {
    if normalize_ascii_into(text, out, None, None).is_none() {
        out.push_str(&normalize(text));
    }
}

fn normalize_ascii(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    normalize_ascii_into(text, &mut out, None, None);
    out
}

/// What each ASCII byte becomes: its lower-case form (letters and digits),
/// `DROP` (apostrophes and quotes, which join their neighbours) or `GAP`
/// (everything else separates words). One table lookup per byte instead of
/// a chain of tests.
const DROP: u8 = 0;
const GAP: u8 = b' ';
const ASCII_MAP: [u8; 128] = {
    let mut map = [GAP; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() {
            map[b] = c.to_ascii_lowercase();
        } else if c == b'\'' || c == b'`' || c == b'"' {
            map[b] = DROP;
        }
        b += 1;
    }
    map
};

/// Appends the normalized form of `text` to `out` if it is ASCII (else
/// appends nothing and returns `None`). Returns whether a token of it may
/// start a filler phrase (checked as each token ends, so the text is not
/// split again), when a lexicon is given. The ASCII check is folded into
/// the same pass. Each word's range in `out` is pushed to `words`.
fn normalize_ascii_into(
    text: &str,
    out: &mut String,
    filler: Option<&Lexicon>,
    mut words: Option<&mut Vec<(usize, usize)>>,
) -> Option<bool> {
    let base = out.len();
    out.reserve(text.len());
    let mut found = false;
    let mut tok = base;
    let mut gap = false;
    let mut high = 0u8;
    for &b in text.as_bytes() {
        high |= b;
        let m = ASCII_MAP[usize::from(b & 0x7f)];
        if m > GAP {
            if gap {
                gap = false;
                if out.len() > base {
                    if let Some(lex) = filler {
                        found |= lex.filler.starts_with(&out[tok..]);
                    }
                    if let Some(w) = words.as_deref_mut() {
                        w.push((tok, out.len()));
                    }
                    out.push(' ');
                    tok = out.len();
                }
            }
            out.push(char::from(m));
        } else if m == GAP {
            gap = true;
        }
    }
    if high >= 0x80 {
        out.truncate(base);
        return None;
    }
    if out.len() > tok {
        if let Some(lex) = filler {
            found |= lex.filler.starts_with(&out[tok..]);
        }
        if let Some(w) = words {
            w.push((tok, out.len()));
        }
    }
    Some(found)
}

fn normalize_unicode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut gap = false;
    for c in text.nfkc() {
        for lc in c.to_lowercase() {
            if is_combining_mark(lc) || is_apostrophe(lc) {
                continue;
            }
            if lc.is_alphanumeric() {
                if gap && !out.is_empty() {
                    out.push(' ');
                }
                gap = false;
                out.push(lc);
            } else {
                gap = true;
            }
        }
    }
    out
}

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
    let (filler, ascii) = match normalize_ascii_into(text, out, Some(lex), words.as_deref_mut()) {
        Some(filler) => (filler, true),
        None => {
            out.push_str(&normalize(text));
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

/// Tokens of canonical text.
pub fn tokens(canonical: &str) -> impl DoubleEndedIterator<Item = &str> + Clone {
    canonical.split(' ').filter(|t| !t.is_empty())
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
            ("Café", "café"),
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

    #[test]
    fn tokens_skip_empty_text() {
        assert_eq!(tokens("").count(), 0);
        assert_eq!(tokens("a b").collect::<Vec<_>>(), ["a", "b"]);
    }

    proptest! {
        #[test]
        fn normalize_is_idempotent(s in "\\PC{0,40}") {
            let once = normalize(&s);
            prop_assert_eq!(normalize(&once), once.clone());
        }

        #[test]
        fn the_ascii_table_agrees_with_the_unicode_path(s in "[ -~]{0,60}") {
            prop_assert_eq!(normalize_ascii(&s), normalize_unicode(&s));
        }

        #[test]
        fn normalize_into_appends_what_normalize_returns(a in "\\PC{0,30}", b in "\\PC{0,30}") {
            let mut buf = String::new();
            normalize_into(&a, &mut buf);
            let mid = buf.len();
            normalize_into(&b, &mut buf);
            prop_assert_eq!(&buf[..mid], normalize(&a));
            prop_assert_eq!(&buf[mid..], normalize(&b));
        }

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
            prop_assert_eq!(got, tokens(&buf[mid..]).collect::<Vec<_>>());
        }

        #[test]
        fn canonical_text_has_single_spaces_and_no_edges(s in "\\PC{0,60}") {
            let c = canonicalize(&s, &lex());
            prop_assert!(!c.starts_with(' ') && !c.ends_with(' ') && !c.contains("  "));
        }
    }
}
