//! Text normalization, the lowest layer: what every comparison of text is
//! built on, with no vocabulary of its own (the lexicon and canonicalization
//! build on it, so it imports neither).
//!
//! `normalize`: Unicode NFKC, lower case, combining marks and apostrophes
//! dropped, every other non-alphanumeric character a separator, whitespace
//! collapsed to single spaces. ASCII text (the common case) takes a
//! byte-level fast path; NFKC is the identity on ASCII.

use unicode_normalization::{IsNormalized, UnicodeNormalization, char::is_combining_mark, is_nfkc_quick};

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
        // Another pass is the identity on ASCII, and on NFKC text whose
        // every character is its own lower case (the first pass left only
        // letters, digits and single spaces): no need to run it.
        if cur.is_ascii() || (is_nfkc_quick(cur.chars()) == IsNormalized::Yes && cur.chars().all(lowercase_is_itself)) {
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
    if normalize_ascii_into(text, out, |_| false, None).is_none() {
        out.push_str(&normalize(text));
    }
}

fn normalize_ascii(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    normalize_ascii_into(text, &mut out, |_| false, None);
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
/// appends nothing and returns `None`). Returns whether `flag` held for a
/// word of it (checked as each word ends, so the text is not split again:
/// canonicalization asks whether a word may start a filler phrase). The
/// ASCII check is folded into the same pass. Each word's range in `out` is
/// pushed to `words`.
pub(crate) fn normalize_ascii_into(
    text: &str,
    out: &mut String,
    flag: impl Fn(&str) -> bool,
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
                    found |= flag(&out[tok..]);
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
        found |= flag(&out[tok..]);
        if let Some(w) = words {
            w.push((tok, out.len()));
        }
    }
    Some(found)
}

/// Whether `c` lower-cases to itself alone.
fn lowercase_is_itself(c: char) -> bool {
    let mut l = c.to_lowercase();
    l.next() == Some(c) && l.next().is_none()
}

fn normalize_unicode(text: &str) -> String {
    // Text already in NFKC (the quick check says so for most text: accented
    // letters precomposed, any script) skips the decomposition and
    // recomposition, which cost most of the time.
    if is_nfkc_quick(text.chars()) == IsNormalized::Yes {
        fold_chars(text.chars(), text.len())
    } else {
        fold_chars(text.nfkc(), text.len())
    }
}

/// Lower case, combining marks and apostrophes dropped, every other
/// non-alphanumeric character a separator, of NFKC characters.
fn fold_chars(chars: impl Iterator<Item = char>, len: usize) -> String {
    let mut out = String::with_capacity(len);
    let mut gap = false;
    for c in chars {
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

/// Folds what a person does not type: accents and other diacritics of
/// Latin letters ("café" -> "cafe", "garcía" -> "garcia") and the Latin
/// ligatures and letters without a decomposition ("ß" -> "ss", "æ" -> "ae",
/// "ø" -> "o", "ł" -> "l"). Marks on other scripts are kept: a Japanese
/// dakuten or an Indic vowel sign changes the word. Applied after
/// `normalize` by canonicalization (input, labels and lexicon alike); the
/// evidence fingerprint hashes `normalize` alone, so its bytes are
/// unchanged. ASCII text is returned as is.
pub fn fold(normalized: &str) -> std::borrow::Cow<'_, str> {
    use unicode_normalization::char::decompose_canonical;
    if normalized.is_ascii() {
        return std::borrow::Cow::Borrowed(normalized);
    }
    // A letter's own spelling, for letters that do not decompose.
    fn spelled(c: char, out: &mut String) -> bool {
        match c {
            'ß' => out.push_str("ss"),
            'æ' => out.push_str("ae"),
            'œ' => out.push_str("oe"),
            'ø' => out.push('o'),
            'ł' => out.push('l'),
            'đ' | 'ð' => out.push('d'),
            'þ' => out.push_str("th"),
            'ı' => out.push('i'),
            _ => return false,
        }
        true
    }
    let mut out = String::with_capacity(normalized.len());
    for c in normalized.chars() {
        if spelled(c, &mut out) {
            continue;
        }
        if is_latin(c) {
            // The base letter, without the marks it decomposes into; a base
            // that is itself spelled out ("ǽ" is "æ" with an acute) is.
            decompose_canonical(c, |d| {
                if !is_combining_mark(d) && !spelled(d, &mut out) {
                    out.push(d)
                }
            });
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Latin letters with diacritics: Latin-1 Supplement, Latin Extended-A/B
/// and Latin Extended Additional.
fn is_latin(c: char) -> bool {
    matches!(c as u32, 0x00C0..=0x024F | 0x1E00..=0x1EFF)
}

/// Tokens of canonical text.
pub fn words(canonical: &str) -> impl DoubleEndedIterator<Item = &str> + Clone {
    canonical.split(' ').filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn folding_table() {
        let table = [
            ("café", "cafe"),
            ("maría garcía", "maria garcia"),
            ("straße", "strasse"),
            ("crème brûlée", "creme brulee"),
            ("smørrebrød", "smorrebrod"),
            ("łódź", "lodz"),
            ("hôtel du louvre", "hotel du louvre"),
            ("שלום", "שלום"),
            ("が", "が"),
            ("plain ascii", "plain ascii"),
        ];
        for (input, want) in table {
            assert_eq!(fold(input), want, "{input:?}");
        }
    }

    #[test]
    fn tokens_skip_empty_text() {
        assert_eq!(words("").count(), 0);
        assert_eq!(words("a b").collect::<Vec<_>>(), ["a", "b"]);
    }

    proptest! {
        #[test]
        fn normalize_is_idempotent(s in "\\PC{0,40}") {
            let once = normalize(&s);
            prop_assert_eq!(normalize(&once), once.clone());
        }

        #[test]
        fn folding_is_idempotent_and_keeps_ascii(s in "\\PC{0,40}") {
            let n = normalize(&s);
            let once = fold(&n).into_owned();
            prop_assert_eq!(fold(&once).into_owned(), once.clone());
            if n.is_ascii() {
                prop_assert_eq!(once, n);
            }
        }

        /// The shortcuts for text already in NFKC (no decomposition, no
        /// second pass when it would change nothing) give exactly what the
        /// full passes give, for any text: Latin with marks, other scripts,
        /// compatibility characters, case that changes under NFKC.
        #[test]
        fn the_nfkc_shortcuts_give_what_the_full_passes_give(s in "(\\PC|[\u{c0}-\u{24f}\u{1e00}-\u{1eff}\u{300}-\u{36f}\u{fb00}-\u{fb06}\u{ff01}-\u{ff5e}\u{2160}-\u{217f}\u{3300}-\u{33ff}ΣσςİıK]){0,40}") {
            let full = |t: &str| -> String {
                let pass = |t: &str| {
                    let mut out = String::new();
                    let mut gap = false;
                    for c in t.nfkc() {
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
                };
                if t.is_ascii() {
                    return normalize_ascii(t);
                }
                let mut cur = pass(t);
                for _ in 0..3 {
                    if cur.is_ascii() {
                        break;
                    }
                    let next = pass(&cur);
                    if next == cur {
                        break;
                    }
                    cur = next;
                }
                cur
            };
            prop_assert_eq!(normalize(&s), full(&s));
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
    }
}
