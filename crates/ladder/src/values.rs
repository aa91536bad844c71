//! Values an option shows and a reply names (docs/replies.md): prices,
//! times of day, durations, sizes, years, weekdays, months, days of the
//! month and counts, read from the raw text (normalization would split
//! "$9.99" and "7:00 PM"). A value has a dimension and an amount in that
//! dimension's one unit (cents, minutes since midnight, minutes, bytes,
//! millimetres, millilitres, grams, the year, the weekday, the month), so
//! "1.2 GB" is more than "990 MB", "1h 5m" longer than "58 min" and
//! "12:30 PM" later than "9:00 AM", whatever their text.
//!
//! Used to compare options ("the cheaper one": `extreme`), to tell them
//! apart ("the 7pm one", "the friday one": `Value::names`) and to see a
//! reply change a detail ("yes, but for 3 people": `Value::conflicts`).
//! Reading them from text is `scan`. Tests: `tests` below (one table per
//! dimension, and property tests that a comparison never depends on how
//! the values are written).

use names::{month, unit, weekday};
use scan::*;
pub use scan::{AT, is_number_word, singular};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

pub use names::is_month;

/// What a value measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Dim {
    /// In cents, whatever the currency.
    Price,
    /// A time of day, in minutes since midnight.
    Clock,
    /// A length of time, in minutes.
    Duration,
    /// Data, in bytes.
    Bytes,
    /// Length, in millimetres.
    Length,
    /// Volume, in millilitres.
    Volume,
    /// Mass, in grams.
    Mass,
    /// A year.
    Year,
    /// A day of the week, 0 = Monday.
    Weekday,
    /// A month, 1 = January.
    Month,
    /// A day of the month ("the 1st", "March 14th").
    Day,
    /// How many of something ("2 people", "4 tickets"): `unit` says of what.
    Count,
    /// A number with nothing to say what it counts ("the 7", "number 16").
    Bare,
    /// A number written with a sign, alone or in a code ("+2", "utc-3",
    /// "GMT+05:30" is 5.5): an offset or a code, named only with its sign.
    Signed,
    /// A share, written with "%" ("40%", "20% off").
    Percent,
    /// A part of the day said alone ("the evening one", "morgens", "le
    /// soir"): the index of its span in `names::DAY_PARTS`. It names the
    /// times of day inside that span.
    DayPart,
}

impl Dim {
    /// A quantity of a unit one can say one or half of ("an hour", "a
    /// litre", "half a kilo", "a mile"): a length of time, a volume, a
    /// weight or a length.
    pub fn is_measure(self) -> bool {
        matches!(self, Dim::Duration | Dim::Volume | Dim::Mass | Dim::Length)
    }
}

/// A value found in a text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Value {
    pub dim: Dim,
    pub amount: f64,
    /// What a count counts (its noun, singular), or the hour a bare clock
    /// time names ("7 pm" is hour 19): empty otherwise.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub unit: String,
}

impl Value {
    fn new(dim: Dim, amount: f64) -> Self {
        Value { dim, amount, unit: String::new() }
    }

    /// A value read in the unit `word`: a weight in pounds keeps the word,
    /// as "ten pounds" is as often £10 (`names`).
    fn in_unit(dim: Dim, amount: f64, word: &str) -> Self {
        let unit = if dim == Dim::Mass && matches!(word, "pound" | "pounds") { POUNDS.to_string() } else { String::new() };
        Value { dim, amount, unit }
    }

    /// Whether this value, said in a reply, names `shown`, a value an
    /// option shows: the same dimension and amount, or a bare number that
    /// is the shown value's number ("the 7" names 7:00 PM, "the 1968
    /// version" names 1968, "the 16" names 16-inch and 16GB alike).
    pub fn names(&self, shown: &Value) -> bool {
        match (self.dim, shown.dim) {
            (Dim::DayPart, Dim::Clock) => names::in_day_part(self.amount, shown.amount),
            // A time said on a twelve-hour clock without am or pm ("half
            // past six", "nine o'clock") is either half of the day.
            (Dim::Clock, Dim::Clock) if self.unit == TWELVE_HOURS => {
                self.amount == shown.amount || (self.amount < 720.0 && self.amount + 720.0 == shown.amount)
            }
            (Dim::Bare, Dim::Clock) => {
                let h = self.amount;
                let at = shown.amount / 60.0;
                (h.fract() == 0.0) && (h == at || h + 12.0 == at) && shown.amount % 60.0 == 0.0
            }
            (Dim::Bare, Dim::Price) => self.amount * 100.0 == shown.amount,
            // A year said by its last two digits ("the 24 one" for
            // "Budget_2024.xlsx").
            (Dim::Bare, Dim::Year) => {
                self.amount == shown.amount || ((10.0..100.0).contains(&self.amount) && shown.amount % 100.0 == self.amount)
            }
            // "Ten pounds" names "£10" as it names "10 lb".
            (Dim::Mass, Dim::Price) if self.unit == POUNDS => (self.amount / 453.6 * 100.0).round() == shown.amount,
            // A weekday or a month is said by its name, never by a number
            // ("the 6" is no Sunday, "the 5" no May).
            // Nor is an offset or a code said without its sign ("the 2" is
            // neither "UTC+2" nor "UTC-2").
            (Dim::Bare, Dim::Bytes | Dim::Length | Dim::Volume | Dim::Mass | Dim::Duration | Dim::Weekday | Dim::Month | Dim::Signed) => {
                false
            }
            (Dim::Bare, _) => self.amount == shown.amount,
            (Dim::Count, Dim::Count) => self.amount == shown.amount && (self.unit.is_empty() || self.unit == shown.unit),
            // A day said with its month names that day of that month only
            // ("Aug 4th" is "Mon 4 Aug", never "Thu 4 Sep"); said alone ("the
            // 4th") or shown alone, the day of any month.
            (Dim::Day, Dim::Day) => {
                self.amount == shown.amount && (self.unit.is_empty() || shown.unit.is_empty() || self.unit == shown.unit)
            }
            (a, b) => a == b && self.amount == shown.amount,
        }
    }

    /// Whether this value, said of an option that shows `shown`, says
    /// nothing against it: it names one of them, or it is a part of the
    /// day and the option shows no time of day ("that's the movie I'll
    /// go with tonight" to a film offered without a time). What a yes or
    /// a choice is judged by; which options a value picks is `names`'.
    pub fn said_of(&self, shown: &[Value]) -> bool {
        shown.iter().any(|s| self.names(s))
            || (self.dim == Dim::DayPart && !shows_a_time(shown))
            // "yes, four people" to "Table for 4": the number it shows alone.
            || (self.dim == Dim::Count && shown.iter().any(|s| s.dim == Dim::Bare && s.amount == self.amount))
    }

    /// Where the value stands among values of its dimension: its amount,
    /// and for a day with its month, the month first ("28 May" before "4
    /// Jun").
    fn rank(&self) -> f64 {
        match (self.dim, self.unit.parse::<f64>()) {
            (Dim::Day, Ok(month)) => month * 100.0 + self.amount,
            _ => self.amount,
        }
    }

    /// Whether this value, said in a reply, differs from what an option
    /// shows of the same kind ("3 people" where it shows "2 people", "7:15
    /// pm" where it shows "6:45 pm"): a reply that says it changes a detail.
    pub fn conflicts(&self, shown: &[Value]) -> bool {
        // A part of the day is of the times of day shown.
        let dim = if self.dim == Dim::DayPart { Dim::Clock } else { self.dim };
        let same_kind = |v: &&Value| v.dim == dim && (self.dim != Dim::Count || v.unit == self.unit);
        let of_kind: Vec<&Value> = shown.iter().filter(same_kind).collect();
        // A time within the span of the times an option shows ("free from
        // 6:30 pm · to 7 pm", "quarter to 7") is no other time.
        if self.dim == Dim::Clock && of_kind.len() >= 2 {
            let lo = of_kind.iter().map(|v| v.amount).fold(f64::INFINITY, f64::min);
            let hi = of_kind.iter().map(|v| v.amount).fold(f64::NEG_INFINITY, f64::max);
            let inside = |a: f64| lo <= a && a <= hi;
            if inside(self.amount) || (self.unit == TWELVE_HOURS && inside(self.amount + 720.0)) {
                return false;
            }
        }
        !of_kind.is_empty() && !of_kind.iter().any(|v| self.names(v))
    }
}

/// Whether a value said (`said`) may be of the kind a value shown is: the
/// same dimension; for a number said alone, a time, an amount, a count or
/// a day ("make it 8" to 7:30 pm); for a count ("3 people"), a number
/// shown alone ("Table for 2"). What a change of a detail, or an aside
/// that says none, is judged by.
pub fn of_a_kind(said: &Value, shown: &Value) -> bool {
    shown.dim == said.dim
        || (said.dim == Dim::DayPart && shown.dim == Dim::Clock)
        || (said.dim == Dim::Bare && matches!(shown.dim, Dim::Clock | Dim::Price | Dim::Count | Dim::Day | Dim::Bare))
        || (said.dim == Dim::Count && shown.dim == Dim::Bare)
}

/// Whether `w`, a word of a reply, is the noun a count of `said` counts
/// ("people" of "four people"): the count's own word, not a detail.
pub fn counts_the_word(said: &[Value], w: &str) -> bool {
    said.iter().any(|v| v.dim == Dim::Count && v.unit == singular(w))
}

/// Whether counts said ("3 kids") say less than the counts an option shows
/// ("Group (3 kids + 1 adult)"): a count said is of a noun the option
/// counts, and the option shows a count none said names. A quantity of
/// that noun is not the bundle around it.
pub fn says_less(said: &[Value], shown: &[Value]) -> bool {
    let counts = |v: &&Value| v.dim == Dim::Count;
    let of_its_noun = said.iter().filter(counts).any(|s| shown.iter().filter(counts).any(|v| v.unit == s.unit));
    of_its_noun && shown.iter().filter(counts).any(|v| !said.iter().any(|s| s.names(v)))
}

/// Whether an option's values hold a time of day: a part of the day said
/// to one that holds none says nothing against it (`Value::said_of`).
pub fn shows_a_time(shown: &[Value]) -> bool {
    shown.iter().any(|s| s.dim == Dim::Clock)
}

/// Whether an option's values hold its day: a weekday, a month or a date
/// (a day said from today, "Tomorrow", is a word of the lexicon's).
pub fn shows_a_date(shown: &[Value]) -> bool {
    shown.iter().any(|s| matches!(s.dim, Dim::Weekday | Dim::Month | Dim::Day))
}

/// Whether a word says a part of the day ("evening", "tonight", "abends").
pub fn is_day_part(w: &str) -> bool {
    names::day_part(w).is_some()
}

/// Whether `w` (normalized) is a word a value is said in: a time's
/// ("past", "half", "quarter", "noon"), a weekday's, a month's or a
/// unit's. Such a word is itself, never a slip of the keyboard for a
/// reply word ("past" is not German "passt").
pub fn is_a_value_word(w: &str) -> bool {
    matches!(w, "half" | "halb" | "quarter" | "past" | "oclock" | "ish" | "viertel" | "kwart" | "dreiviertel")
        || LONE_CLOCKS.iter().any(|(name, _)| *name == w)
        || names::day_part(w).is_some()
        || weekday(w).is_some()
        || month(w).is_some()
        || unit(w).is_some()
}

/// Words a time of day is said with in the lexicon's other languages
/// ("Viertel nach acht", "ocho y media de la tarde", "huit heures du
/// soir", "alle otto e mezza").
const CLOCK_WORDS: &[&str] = &[
    "viertel",
    "nach",
    "vor",
    "dreiviertel",
    "halb",
    "kwart",
    "over",
    "voor",
    "y",
    "e",
    "et",
    "media",
    "mezza",
    "mezzo",
    "meia",
    "demie",
    "cuarto",
    "quart",
    "menos",
    "moins",
    "heures",
    "heure",
    "tarde",
    "noche",
    "soir",
    "matin",
    "sera",
    "mattina",
    "abends",
    "morgens",
    "las",
    "alle",
    "om",
    "um",
    // "a las diez en punto", "às dez em ponto", "à dix heures pile",
    // "Punkt acht": on the hour.
    "punto",
    "ponto",
    "pile",
    "punkt",
    // Dutch "acht uur 's avonds", French "de l'après-midi".
    "uur",
    "s",
    "avonds",
    "middags",
    "ochtends",
    "apres",
    "lapres",
    "midi",
];

/// Whether `w`, a word of a reply, is a word its value of dimension `dim`
/// is said in: a number, a unit of the dimension ("inch", "gb", "min"),
/// "am" or "pm" of a time, a weekday or month name.
pub fn is_value_word(w: &str, dim: Dim) -> bool {
    if w.chars().any(|c| c.is_ascii_digit()) || (!matches!(dim, Dim::Weekday | Dim::Month) && is_number_word(w)) {
        return true;
    }
    match dim {
        Dim::Clock => {
            matches!(w, "am" | "pm" | "h" | "uhr" | "noon" | "midnight" | "half" | "quarter" | "past" | "oclock" | "o'clock")
                || CLOCK_WORDS.contains(&w)
        }
        Dim::Weekday => weekday(w).is_some(),
        // "'s avonds": the Dutch article is the part of the day's.
        Dim::DayPart => names::day_part(w).is_some() || w == "s",
        Dim::Month | Dim::Day => month(w).is_some() || matches!(w, "st" | "nd" | "rd" | "th"),
        Dim::Count | Dim::Bare | Dim::Year => false,
        // "ten pounds" of "£10" (`Value::names`).
        Dim::Price if matches!(w, "pound" | "pounds") => true,
        d => unit(w).is_some_and(|(u, _)| u == d),
    }
}

/// The values a candidate shows: its label's, then its sublabel's.
pub fn shown(c: &crate::types::Candidate) -> Vec<Value> {
    let mut v = values(&short_weekdays(&c.label));
    v.extend(values(&short_weekdays(&c.sublabel)));
    // "Morning Yoga" shows a word, not a time: what it says is read as
    // words.
    v.retain(|v| v.dim != Dim::DayPart);
    v
}

/// `text` with each weekday in short that a number follows ("Mi 18:00",
/// "jeu. 9h") written in full, as an option shows it (`SHORT_WEEKDAYS`).
pub fn short_weekdays(text: &str) -> Cow<'_, str> {
    // Only before a number: text without a digit (most labels) is as it is.
    if !text.bytes().any(|b| b.is_ascii_digit()) {
        return Cow::Borrowed(text);
    }
    let words = || text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty());
    if !words().any(|w| w.len() <= 3 && names::short_weekday(w).is_some()) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut rest = text;
    while let Some(start) = rest.find(char::is_alphanumeric) {
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find(|c: char| !c.is_alphanumeric()).unwrap_or(rest.len());
        let (word, after) = rest.split_at(end);
        let next = after.trim_start_matches(|c: char| c == '.' || c == ',' || c.is_whitespace());
        let full = names::short_weekday(word).filter(|_| next.starts_with(|c: char| c.is_ascii_digit()));
        out.push_str(full.unwrap_or(word));
        rest = after;
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// `text` with each weekday in short (`names::SHORT_WEEKDAYS`) said
/// before a German part of the day ("Di abends", "Sa vormittags") written
/// as its English name: alone, "do", "so" and "mi" are words of other
/// languages.
fn german_short_weekdays(text: &str) -> Cow<'_, str> {
    const PARTS: [&str; 5] = ["morgens", "vormittags", "mittags", "nachmittags", "abends"];
    // Nothing is allocated unless a part of the day in German is said.
    let ends = |w: &[u8]| w.eq_ignore_ascii_case(b"ends") || w.eq_ignore_ascii_case(b"gens") || w.eq_ignore_ascii_case(b"tags");
    if !text.as_bytes().windows(4).any(ends) {
        return Cow::Borrowed(text);
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out: Vec<&str> = Vec::with_capacity(words.len());
    for (k, w) in words.iter().enumerate() {
        let next = words.get(k + 1).map(|n| n.trim_matches(|c: char| !c.is_alphabetic()).to_lowercase());
        let full =
            names::short_weekday(w.trim_end_matches(['.', ','])).filter(|_| next.as_ref().is_some_and(|n| PARTS.contains(&n.as_str())));
        out.push(full.unwrap_or(w));
    }
    Cow::Owned(out.join(" "))
}

/// `text` with each Portuguese weekday said with "feira" ("segunda-feira",
/// "na quarta feira") written as its English name: said alone, "segunda"
/// is as often "second".
fn portuguese_weekdays(text: &str) -> Cow<'_, str> {
    const DAYS: [(&str, &str); 6] = [
        ("segunda", "monday"),
        ("terça", "tuesday"),
        ("terca", "tuesday"),
        ("quarta", "wednesday"),
        ("quinta", "thursday"),
        ("sexta", "friday"),
    ];
    // Every value read goes through here (each turn's input, each
    // option's label): nothing is allocated unless "feira" is said.
    if !text.as_bytes().windows(5).any(|w| w.eq_ignore_ascii_case(b"feira")) {
        return Cow::Borrowed(text);
    }
    let mut out = text.to_lowercase();
    for (day, english) in DAYS {
        for joint in ["-feira", " feira"] {
            out = out.replace(&format!("{day}{joint}"), english);
        }
    }
    Cow::Owned(out)
}

/// The values in `text`, in order.
pub fn values(text: &str) -> Vec<Value> {
    let text = &*portuguese_weekdays(text);
    let text = &*german_short_weekdays(text);
    // Numbers said in words are read as their digits are.
    let spelled = spelled_numbers(text);
    // Without a digit, a currency sign, a plus or a number word, every value is a
    // word alone (a month's or a weekday's name, "noon"): ASCII text is
    // read word by word, without tokens (most turns name no value).
    if spelled.is_empty()
        && text.is_ascii()
        && !text.bytes().any(|b| b.is_ascii_digit() || b == b'$' || b == b'+')
        && !text.split(|c: char| !c.is_ascii_alphabetic() && c != '\'').any(|w| FRACTIONS.iter().any(|f| f.eq_ignore_ascii_case(w)))
    {
        return word_values(text);
    }
    scanned_values(text, &spelled)
}

/// A seat or place code said as one ("f8", "7c"): one letter before or
/// after a number of one to three digits; its letter and its number.
pub fn code_parts(w: &str) -> Option<(&str, &str)> {
    if w.len() > 4 || w.len() < 2 || !w.is_ascii() {
        return None;
    }
    let (first, last) = (w.as_bytes()[0], w.as_bytes()[w.len() - 1]);
    let (letter, digits) = if first.is_ascii_alphabetic() {
        w.split_at(1)
    } else if last.is_ascii_alphabetic() {
        (&w[w.len() - 1..], &w[..w.len() - 1])
    } else {
        return None;
    };
    (letter.as_bytes()[0].is_ascii_alphabetic() && digits.bytes().all(|b| b.is_ascii_digit())).then_some((letter, digits))
}

/// The unit of a time of day said without am or pm on a twelve-hour
/// clock ("half past six"): it names that time in either half of the day.
const TWELVE_HOURS: &str = "12h";

/// The unit of a weight said in pounds, which may be money (`Value::in_unit`).
const POUNDS: &str = "pound";

/// `values` of ASCII text with no digit, no currency sign and no number
/// word: its words (a letter, then letters and apostrophes, as `scan`
/// reads them), each read by `read_word` with nothing after it (no number
/// can follow).
fn word_values(text: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    // The word before was an article that says one ("an hour", "eine
    // Stunde", "une heure", "a litre", "a kilo"): a length of time, a
    // volume, a weight or a length after it is one of it.
    let mut one = false;
    while i < bytes.len() {
        if !bytes[i].is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphabetic() || bytes[i] == b'\'') {
            i += 1;
        }
        // No name in the tables is longer: a longer word is none of them.
        let mut lower = [0u8; LONGEST_NAME];
        let Some(buf) = lower.get_mut(..i - start) else { continue };
        buf.copy_from_slice(&bytes[start..i]);
        buf.make_ascii_lowercase();
        let Ok(w) = std::str::from_utf8(buf) else { continue };
        if one && let Some((dim, f)) = unit(w).filter(|(d, _)| d.is_measure() && w.len() > 2) {
            out.push(Value::new(dim, f));
        } else {
            out.extend(read_word(&[], 0, w).map(|(v, _)| v));
        }
        one = matches!(w, "a" | "an" | "eine" | "une" | "una" | "een" | "uma");
    }
    out
}

/// The longest name `word_values` looks up (a month's, a weekday's, a
/// time of day's): a test holds the tables to it.
const LONGEST_NAME: usize = 16;

/// Times of day a word says alone, in minutes.
const LONE_CLOCKS: &[(&str, f64)] = &[
    ("noon", 720.0),
    ("midday", 720.0),
    ("mediodia", 720.0),
    ("midi", 720.0),
    ("midnight", 0.0),
    ("minuit", 0.0),
    ("medianoche", 0.0),
    ("mitternacht", 0.0),
];

/// The values in `text`, in order, each with the bytes of `text` it is
/// said in ("Aug 4th" in "book Aug 4th": 5..12): what the matching rung
/// reads a value said another way by (`matching::value_words`).
pub fn values_at(text: &str) -> Vec<(Value, std::ops::Range<usize>)> {
    let spelled = spelled_numbers(text);
    let mut spans = Vec::new();
    let toks = scan(text, &spelled, Some(&mut spans));
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        match read_at(&toks, i) {
            Some((v, used)) => {
                let end = (i + used.max(1) - 1).min(toks.len() - 1);
                out.push((v, spans[i].0..spans[end].1));
                i += used.max(1);
            }
            None => i += 1,
        }
    }
    out
}

/// The numbers said in words in `text`, but a month's name beside a
/// number in digits ("Sept 12", "12 sept" are a date; French "sept" is
/// seven elsewhere).
fn spelled_numbers(text: &str) -> Vec<(usize, usize, spelled::Spelled)> {
    let mut spelled = spelled::spelled_numbers(text);
    spelled.retain(|(start, end, _)| {
        let beside_digits = text[..*start].trim_end().ends_with(|c: char| c.is_ascii_digit())
            || text[*end..].trim_start().starts_with(|c: char| c.is_ascii_digit());
        !(beside_digits && month(&text[*start..*end].to_lowercase()).is_some())
    });
    spelled
}

/// `values`, token by token (`spelled`: the number words' spans).
fn scanned_values(text: &str, spelled: &[(usize, usize, spelled::Spelled)]) -> Vec<Value> {
    let toks = scan(text, spelled, None);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        match read_at(&toks, i) {
            Some((v, used)) => {
                out.push(v);
                i += used.max(1);
            }
            None => i += 1,
        }
    }
    out
}

/// Whether the values of `dim` the options show can be ordered: days of
/// the month all with their month or all without ("28 May" is before "4
/// Jun"; "the 28th" and "4 Jun" cannot be told apart).
fn comparable(shown: &[Vec<Value>], dim: Dim) -> bool {
    if dim != Dim::Day {
        return true;
    }
    let mut dated = shown.iter().flatten().filter(|v| v.dim == Dim::Day).map(|v| v.unit.is_empty());
    match dated.next() {
        Some(first) => dated.all(|d| d == first),
        None => true,
    }
}

/// Which option holds the one extreme of `dim` (`most`: the largest,
/// else the smallest) among `shown`, the values of each option in
/// order. `None` when an option shows no value of that dimension, or two
/// or more share the extreme (a tie is asked again).
pub fn extreme(shown: &[Vec<Value>], dim: Dim, most: bool) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    let mut tied = false;
    if !comparable(shown, dim) {
        return None;
    }
    for (i, vals) in shown.iter().enumerate() {
        // One value of the dimension per option; two (a price and a
        // discount) make it unclear which one is compared.
        let mut of_dim = vals.iter().filter(|v| v.dim == dim);
        let (Some(v), None) = (of_dim.next(), of_dim.next()) else { return None };
        let at = v.rank();
        match best {
            None => best = Some((i, at)),
            Some((_, b)) if at == b => tied = true,
            Some((_, b)) if (at > b) == most => {
                best = Some((i, at));
                tied = false;
            }
            Some(_) => {}
        }
    }
    if tied { None } else { best.map(|(i, _)| i) }
}

/// The options that hold the extreme of `dim` (`most`: the largest) when
/// each shows exactly one value of it: more than one is a tie. Empty when
/// some option shows none or two.
pub fn holding_extreme(shown: &[Vec<Value>], dim: Dim, most: bool) -> Vec<usize> {
    let mut amounts = Vec::with_capacity(shown.len());
    if !comparable(shown, dim) {
        return Vec::new();
    }
    for vals in shown {
        let mut of_dim = vals.iter().filter(|v| v.dim == dim);
        let (Some(v), None) = (of_dim.next(), of_dim.next()) else { return Vec::new() };
        amounts.push(v.rank());
    }
    let pick = |a: f64, b: f64| if most { a.max(b) } else { a.min(b) };
    let Some(best) = amounts.iter().copied().reduce(pick) else { return Vec::new() };
    (0..amounts.len()).filter(|i| amounts[*i] == best).collect()
}

mod names;
mod scan;
mod spelled;

#[cfg(test)]
mod tests;
