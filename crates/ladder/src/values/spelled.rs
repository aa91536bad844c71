//! Numbers said in words ("nine", "twenty-one", "veintidós", "vingt et
//! un", "einundzwanzig", "the twelfth"), read by `text2num` in the
//! lexicon's languages it knows (English, Spanish, French, German,
//! Italian, Portuguese, Dutch): a
//! number word is a value wherever its digits would be (`values`).
//!
//! A word that is a number in one language and another word in another
//! ("once", "seize", "null", "elf", "cent", English "due", the name
//! "Otto"), or an article as often as a number ("one", "un", "una", "ein",
//! "een", "um"), is `counting` only: a value where it
//! counts what follows ("un billet", "once personas"), never alone.
//!
//! Whether a word can open a number is looked up in each language (a
//! hundred nanoseconds a word or so): a reply's words are few, and the
//! verdicts of the words a thread has read are kept (`opens`), bounded.

use std::cell::RefCell;
use std::sync::LazyLock;
use text2num::digit_string::DigitString;
use text2num::lang::MorphologicalMarker;
use text2num::{LangInterpreter, Language};

/// The languages numbers are read in, in the order a tie goes.
static LANGUAGES: LazyLock<[Language; 7]> = LazyLock::new(|| {
    [
        Language::english(),
        Language::spanish(),
        Language::french(),
        Language::german(),
        Language::italian(),
        Language::portugese(),
        Language::dutch(),
    ]
});

/// A number a run of words says.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Spelled {
    pub(super) value: f64,
    /// "twelfth", "segundo", "premier": a place or a day, never an amount.
    pub(super) ordinal: bool,
    /// One word that is another word as often ("one", "un", "once"): a
    /// value only where it counts what follows.
    pub(super) counting: bool,
}

/// Words that are numbers in one language and other words too: an article
/// or a pronoun ("one", "un", "una", "ein"), a word of another language
/// ("once" is eleven in Spanish, "seize" sixteen in French, "null" zero in
/// German, "elf" eleven, "cent" a hundred, "neuf" nine or new, "sept"
/// seven or September), "o" (zero, or a letter).
const COUNTING_ONLY: &[&str] = &[
    "one", "un", "une", "uno", "una", "ein", "eine", "einen", "eins", "once", "seize", "null", "elf", "cent", "mil", "mille", "neuf",
    "sept", "o", "een", "um", "uma", "due", "otto", "sei", "mila",
];

/// The most words one number takes ("one hundred and twenty three
/// thousand ...": longer runs are read as several).
const LONGEST_RUN: usize = 8;

/// How many words' verdicts a thread keeps before it starts again.
pub(super) const KEPT: usize = 4096;

thread_local! {
    static OPENS: RefCell<rustc_hash::FxHashMap<Box<str>, bool>> = RefCell::new(rustc_hash::FxHashMap::default());
}

/// Whether some language reads the word `w` (lower case) alone as a
/// number: the memo of `reads_alone`.
pub(super) fn opens(w: &str) -> bool {
    if let Some(known) = OPENS.with(|m| m.borrow().get(w).copied()) {
        return known;
    }
    let verdict = reads_alone(w);
    OPENS.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= KEPT {
            m.clear();
        }
        m.insert(w.into(), verdict);
    });
    verdict
}

/// Whether some language reads `w` alone as a number ("o" is a letter or
/// a word as often as a zero).
pub(super) fn reads_alone(w: &str) -> bool {
    if w == "o" {
        return false;
    }
    let mut b = DigitString::new();
    LANGUAGES.iter().any(|l| {
        b.reset();
        l.apply(w, &mut b).is_ok() && !b.marker.is_fraction()
    })
}

/// German numbers with their umlauts folded away ("funf", "zwolf", as
/// folded text writes them): the words `text2num` reads.
fn unfolded(w: &str) -> Option<String> {
    (w.contains("funf") || w.contains("zwolf")).then(|| w.replace("funf", "fünf").replace("zwolf", "zwölf"))
}

/// What the number `ds` says: its value and whether it is an ordinal
/// (`None` for a fraction or nothing).
fn said(ds: &DigitString) -> Option<(f64, bool)> {
    (!ds.is_empty() && !ds.marker.is_fraction()).then(|| (ds.parse() as f64, matches!(ds.marker, MorphologicalMarker::Ordinal(_))))
}

/// The longest number that starts at `words[0]` (lower case, as written):
/// how many words it takes, and what it says. `None` when the first word
/// opens no number.
pub(super) fn number_at(words: &[&str]) -> Option<(usize, Spelled)> {
    let forms: Vec<std::borrow::Cow<'_, str>> =
        words.iter().take(LONGEST_RUN).map(|w| unfolded(w).map_or(std::borrow::Cow::Borrowed(*w), std::borrow::Cow::Owned)).collect();
    let first = forms.first()?;
    if !opens(first) {
        return None;
    }
    let mut best: Option<(usize, f64, bool)> = None;
    for lang in LANGUAGES.iter() {
        for n in 1..=forms.len() {
            match lang.exec_group(forms[..n].iter().map(|w| w.as_ref())) {
                Ok(ds) => {
                    if let Some((value, ordinal)) = said(&ds)
                        && best.is_none_or(|(m, _, _)| n > m)
                    {
                        best = Some((n, value, ordinal));
                    }
                }
                // "one hundred and": more may follow.
                Err(text2num::error::Error::Incomplete) => {}
                Err(_) => break,
            }
        }
    }
    let (n, value, ordinal) = best?;
    let counting = n == 1 && COUNTING_ONLY.contains(&first.as_ref());
    Some((n, Spelled { value, ordinal, counting }))
}

/// Whether `w` (one word, normalized and folded) says a cardinal number
/// alone in a language numbers are read in ("nine", "zwanzig", "funf"),
/// counting-only words of other languages aside.
pub(super) fn is_cardinal_word(w: &str) -> bool {
    if w.is_empty() || !w.chars().all(char::is_alphabetic) || (COUNTING_ONLY.contains(&w) && !ONE.contains(&w)) {
        return false;
    }
    let owned = unfolded(w);
    let w = owned.as_deref().unwrap_or(w);
    // The first language that reads it says what it is, as a tie goes
    // ("second" is English's ordinal before it is Italian's "2").
    opens(w) && LANGUAGES.iter().find_map(|l| l.exec_group(std::iter::once(w)).ok().and_then(|ds| said(&ds))).is_some_and(|(_, o)| !o)
}

/// "One" in the lexicon's languages: a number word wherever it counts.
pub(super) const ONE: &[&str] = &["one", "un", "une", "uno", "una", "ein", "eine", "einen", "eins"];

/// A run of words that spells a number: its byte span and what it says.
type Run = (usize, usize, Spelled);

/// The words of `text` that spell numbers: each run's byte span and what
/// it says. A run is words (letters, and an apostrophe inside them) joined
/// by spaces or hyphens ("twenty-one", "dix-neuf").
pub(super) fn spelled_numbers(text: &str) -> Vec<(usize, usize, Spelled)> {
    if !any_opens(text) {
        return Vec::new();
    }
    // A turn reads its input's values in several rungs (the reply's
    // reading, matching's values, the counts it says): the last text read
    // on this thread is kept, so a number word is parsed once a turn.
    thread_local! {
        static LAST: std::cell::RefCell<(String, Vec<Run>)> = const { std::cell::RefCell::new((String::new(), Vec::new())) };
    }
    if let Some(hit) = LAST.with(|l| l.try_borrow().ok().filter(|l| l.0 == text).map(|l| l.1.clone())) {
        return hit;
    }
    let found = parse_spelled(text);
    LAST.with(|l| {
        if let Ok(mut l) = l.try_borrow_mut() {
            l.0.clear();
            l.0.push_str(text);
            l.1.clone_from(&found);
        }
    });
    found
}

fn parse_spelled(text: &str) -> Vec<(usize, usize, Spelled)> {
    // The words, lower case, with their spans; a break where anything but
    // spaces or one hyphen stands between two words.
    let mut words: Vec<(usize, usize, String, bool)> = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut joined = false;
    while let Some((start, c)) = chars.next() {
        if c.is_alphabetic() {
            let mut end = start + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if !(d.is_alphabetic() || d == '\'' || d == '\u{2019}') {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
            words.push((start, end, text[start..end].to_lowercase(), joined));
            joined = true;
        } else if !(c == ' ' || (c == '-' && joined)) {
            joined = false;
        }
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        // The run of words joined to this one.
        let run_end = (i + 1..words.len()).find(|k| !words[*k].3).unwrap_or(words.len());
        let run: Vec<&str> = words[i..run_end].iter().map(|w| w.2.as_str()).collect();
        match number_at(&run) {
            Some((n, s)) => {
                out.push((words[i].0, words[i + n - 1].1, s));
                i += n;
            }
            None => i += 1,
        }
    }
    out
}

/// Whether some word of `text` opens a number (`opens`): most texts have
/// none, and are read no further. ASCII words are lowered in place.
fn any_opens(text: &str) -> bool {
    let mut buf = [0u8; 32];
    text.split(|c: char| !(c.is_alphabetic() || c == '\'' || c == '\u{2019}')).filter(|w| !w.is_empty()).any(|w| {
        if w.is_ascii() && w.len() <= buf.len() {
            let lower = &mut buf[..w.len()];
            lower.copy_from_slice(w.as_bytes());
            lower.make_ascii_lowercase();
            // ASCII stays UTF-8 once lowered.
            std::str::from_utf8(lower).is_ok_and(|w| opens(unfolded(w).as_deref().unwrap_or(w)))
        } else {
            let w = w.to_lowercase();
            opens(unfolded(&w).as_deref().unwrap_or(&w))
        }
    })
}
