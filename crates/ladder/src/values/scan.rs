//! Reading values from text: the text cut into numbers, words and
//! symbols (`Tok`), and the readers that turn a run of them into a
//! `Value` (a price, a clock time, a date, a count, a time said in words).

use super::*;

/// A piece of text: a number (with its digits and separators as written),
/// a word (lower case), or a symbol. Borrowed from the text where it is
/// written so (a number, a word already in lower case ASCII).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok<'a> {
    Num(&'a str),
    Word(Cow<'a, str>),
    Sym(char),
    /// Whitespace between two pieces (so "7 pm" and "7pm" can both be read,
    /// and "1 2" is not "12").
    Space,
    /// A number said in words ("twenty-one", "nine").
    Spelled(spelled::Spelled),
}

/// The pieces of `text`; with `spans`, each piece's bytes too (pushed in
/// step with the pieces).
pub(super) fn scan<'a>(
    text: &'a str,
    spelled: &[(usize, usize, spelled::Spelled)],
    mut spans: Option<&mut Vec<(usize, usize)>>,
) -> Vec<Tok<'a>> {
    // At most a piece and a space per two bytes, most texts far fewer.
    let mut out = Vec::with_capacity(text.len() / 2 + 1);
    let bytes = text.as_bytes();
    let mut chars = text.char_indices().peekable();
    let mut numbers = spelled.iter().peekable();
    while let Some(&(start, c)) = chars.peek() {
        let before = out.len();
        scan_one(&mut out, &mut chars, &mut numbers, text, bytes, start, c);
        if let Some(spans) = spans.as_deref_mut()
            && out.len() > before
        {
            let end = chars.peek().map_or(text.len(), |(j, _)| *j);
            spans.push((start, end));
        }
    }
    out
}

/// One piece of `scan`, from byte `start` (its first character `c`).
#[allow(clippy::too_many_arguments)]
pub(super) fn scan_one<'a>(
    out: &mut Vec<Tok<'a>>,
    chars: &mut std::iter::Peekable<std::str::CharIndices<'a>>,
    numbers: &mut std::iter::Peekable<std::slice::Iter<'_, (usize, usize, spelled::Spelled)>>,
    text: &'a str,
    bytes: &[u8],
    start: usize,
    c: char,
) {
    {
        if let Some((_, end, s)) = numbers.next_if(|(at, _, _)| *at == start) {
            out.push(Tok::Spelled(*s));
            while chars.next_if(|(j, _)| j < end).is_some() {}
        } else if c.is_ascii_digit() {
            // Digits, and a separator with a digit after it ("9.99",
            // "1,850", "7:30"): all ASCII, one byte each.
            let mut end = start;
            while let Some(&(j, d)) = chars.peek() {
                if !(d.is_ascii_digit() || (matches!(d, '.' | ',' | ':') && bytes.get(j + 1).is_some_and(u8::is_ascii_digit))) {
                    break;
                }
                end = j + 1;
                chars.next();
            }
            out.push(Tok::Num(&text[start..end]));
        } else if c.is_alphabetic() {
            let mut end = start;
            while let Some(&(j, d)) = chars.peek() {
                if !(d.is_alphabetic() || d == '\'' || d == '\u{2019}') {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
            let w = &text[start..end];
            out.push(Tok::Word(if !w.is_ascii() {
                Cow::Owned(strip_accents(w.to_lowercase()))
            } else if w.bytes().any(|b| b.is_ascii_uppercase()) {
                Cow::Owned(w.to_ascii_lowercase())
            } else {
                Cow::Borrowed(w)
            }));
        } else if c.is_whitespace() {
            if !matches!(out.last(), Some(Tok::Space) | None) {
                out.push(Tok::Space);
            }
            chars.next();
        } else {
            out.push(Tok::Sym(c));
            chars.next();
        }
    }
}

pub(super) fn strip_accents(w: String) -> String {
    use unicode_normalization::UnicodeNormalization;
    if w.is_ascii() {
        return w;
    }
    w.nfd().filter(|c| !unicode_normalization::char::is_combining_mark(*c)).collect()
}

/// The tokens from `i` with spaces skipped: (index, token).
pub(super) fn next_solid<'t, 'a>(toks: &'t [Tok<'a>], i: usize) -> Option<(usize, &'t Tok<'a>)> {
    toks.iter().enumerate().skip(i).find(|(_, t)| **t != Tok::Space)
}

pub(super) fn word_at<'t>(toks: &'t [Tok<'_>], i: usize) -> Option<(usize, &'t str)> {
    match next_solid(toks, i) {
        Some((j, Tok::Word(w))) => Some((j, w.as_ref())),
        _ => None,
    }
}

/// The value starting at token `i` and how many tokens it takes.
pub(super) fn read_at(toks: &[Tok], i: usize) -> Option<(Value, usize)> {
    match &toks[i] {
        Tok::Sym(c) if currency(*c) => {
            let (j, Tok::Num(n)) = next_solid(toks, i + 1)? else { return None };
            // "$1.5k": thousands.
            if let Some(Tok::Word(k)) = toks.get(j + 1)
                && k == "k"
            {
                return Some((Value::new(Dim::Price, number(n)? * 100_000.0), j + 2 - i));
            }
            let cents = money(n)?;
            Some((Value::new(Dim::Price, cents), j + 1 - i))
        }
        // "Menu 2 pizze + bibita", "Coffee + croissant": a noun added with
        // a plus and no number is one of it (a bundle says it).
        Tok::Sym('+') if i > 0 => {
            let (j, w) = word_at(toks, i + 1)?;
            counted_by(1.0, w).filter(|v| v.dim == Dim::Count).map(|v| (v, j + 1 - i))
        }
        Tok::Num(n) => time_and_a_half(toks, i).or_else(|| read_number(toks, i, n)),
        Tok::Word(w) => time_and_a_half(toks, i).or_else(|| read_time_words(toks, i, w)).or_else(|| read_word(toks, i, w)),
        Tok::Spelled(s) => time_and_a_half(toks, i).or_else(|| read_spelled(toks, i, *s)),
        _ => None,
    }
}

/// Words that say part of a length of time ([`time_and_a_half`]): text
/// without any is read without them.
pub(super) const FRACTIONS: &[&str] = &[
    "half",
    "quarter",
    "quarters",
    "halbe",
    "anderthalb",
    "eineinhalb",
    "media",
    "demi",
    "mezz'ora",
    "mezzora",
    "mezza",
    "mezzo",
    "meia",
    "anderhalf",
];

/// A length of time said with a half or a quarter, from token `i`: "half
/// an hour", "an hour and a half", "two and a half hours", "a quarter of
/// an hour", "three quarters of an hour", "media hora", "una hora y
/// media", "eine halbe Stunde", "anderthalb Stunden", "une demi-heure",
/// "mezz'ora", "un'ora e mezza", "meia hora", "een half uur", "anderhalf
/// uur". Without it, "half" was read as half past ("hour and a half" as
/// 1:30) and "half an hour" as "an hour". Its minutes, and the tokens it
/// takes. A time of day with a half ("half past six", "la una y media",
/// "halb acht") has no unit of time and is none of these.
pub(super) fn time_and_a_half(toks: &[Tok], i: usize) -> Option<(Value, usize)> {
    #[derive(Clone, Copy)]
    enum P<'s> {
        W(&'s str),
        N(f64),
    }
    // Most words start none: a word of it, an article, a unit of time.
    let starts = match &toks[i] {
        Tok::Word(w) => {
            let w = w.as_ref();
            FRACTIONS.contains(&w)
                || matches!(w, "a" | "an" | "eine" | "une" | "un'ora")
                || unit(w).is_some_and(|(d, _)| d == Dim::Duration)
        }
        _ => true,
    };
    if !starts {
        return None;
    }
    // The next few pieces, skipping spaces, hyphens ("demi-heure") and
    // apostrophes.
    let mut seq = [(0usize, P::N(0.0)); 6];
    let mut len = 0;
    let mut k = i;
    while len < seq.len() && k < toks.len() {
        let piece = match &toks[k] {
            Tok::Space | Tok::Sym('-' | '\'' | '\u{2019}') => None,
            Tok::Word(w) => Some(P::W(w.as_ref())),
            Tok::Spelled(s) if !s.ordinal => Some(P::N(s.value)),
            Tok::Num(d) if d.bytes().all(|b| b.is_ascii_digit()) => Some(P::N(number(d)?)),
            _ => break,
        };
        if let Some(piece) = piece {
            seq[len] = (k, piece);
            len += 1;
        }
        k += 1;
    }
    let seq = &seq[..len];
    let w = |j: usize| match seq.get(j) {
        Some((_, P::W(w))) => Some(*w),
        _ => None,
    };
    let n = |j: usize| match seq.get(j) {
        Some((_, P::N(v))) => Some(*v),
        _ => None,
    };
    // Italian "un'ora" is one hour in one word.
    let hours = |j: usize| match w(j) {
        Some("un'ora") => Some(60.0),
        w => w.and_then(unit).filter(|(d, _)| *d == Dim::Duration).map(|(_, f)| f),
    };
    let one = |j: usize| matches!(w(j), Some("a" | "an" | "eine" | "une")) || n(j) == Some(1.0);
    let done = |minutes: f64, last: usize| Some((Value::new(Dim::Duration, minutes), seq[last].0 + 1 - i));
    // Half of a unit ("half an hour", "half a litre", "half a kilo"): of
    // its dimension.
    let measure = |j: usize| w(j).and_then(unit).filter(|(d, _)| d.is_measure());
    let half = |j: usize| measure(j).map(|(d, u)| (Value::new(d, u / 2.0), seq[j].0 + 1 - i));
    // One of a unit said with its article ("a litre", "a kilo", "a
    // mile"): that amount of it (a length of time keeps its own reading,
    // "an hour and a half" below).
    if matches!(w(0), Some("a" | "an"))
        && let Some((d, u)) = measure(1).filter(|(d, _)| *d != Dim::Duration && w(1).is_some_and(|w| w.len() > 2))
    {
        return Some((Value::new(d, u), seq[1].0 + 1 - i));
    }
    // "une demi-heure", "eine halbe Stunde", "una media hora"
    if one(0) && matches!(w(1), Some("media" | "meia" | "halbe" | "demi")) {
        return half(2);
    }
    match (w(0), w(1)) {
        // "half an hour", "half a day", "half hour", "een half uur", "half
        // a litre"
        (Some("half"), Some("a" | "an")) => return half(2),
        (Some("half"), _) => return half(1),
        // "media hora", "meia hora", "halbe Stunde", "demi-heure"
        (Some("media" | "meia" | "halbe" | "demi"), _) => return half(1),
        (Some("mezz'ora" | "mezzora"), _) => return done(30.0, 0),
        (Some("anderthalb" | "eineinhalb" | "anderhalf"), _) => return hours(1).and_then(|u| done(u * 1.5, 1)),
        // "a quarter of an hour", "quarter of an hour"
        (Some("a"), Some("quarter")) | (Some("quarter"), _) => {
            let q = usize::from(w(0) == Some("a"));
            if w(q + 1) == Some("of") && one(q + 2) {
                return hours(q + 3).and_then(|u| done(u / 4.0, q + 3));
            }
            return None;
        }
        _ => {}
    }
    // "three quarters of an hour"
    if n(0) == Some(3.0) && w(1) == Some("quarters") && w(2) == Some("of") && one(3) {
        return hours(4).and_then(|u| done(u * 0.75, 4));
    }
    // "an hour and a half", "hour and a half", "una hora y media",
    // "un'ora e mezza", "uma hora e meia"
    let start = usize::from(one(0) && hours(0).is_none());
    if let Some(u) = hours(start)
        && matches!(w(start + 1), Some("and" | "y" | "e" | "und"))
    {
        let half = match (w(start + 2), w(start + 3)) {
            (Some("a"), Some("half")) => Some(start + 3),
            (Some("media" | "mezza" | "mezzo" | "meia" | "halbe"), _) => Some(start + 2),
            _ => None,
        };
        if let Some(last) = half.filter(|_| start == 1 || !matches!(w(start), Some("horas" | "hours" | "ore" | "stunden"))) {
            return done(u * 1.5, last);
        }
    }
    // "two and a half hours", "dos horas y media"
    if let Some(count) = n(0).filter(|v| *v >= 1.0 && v.fract() == 0.0) {
        if matches!(w(1), Some("and")) && w(2) == Some("a") && w(3) == Some("half") {
            return hours(4).and_then(|u| done((count + 0.5) * u, 4));
        }
        if let Some(u) = hours(1)
            && matches!(w(2), Some("y" | "e" | "und"))
            && matches!(w(3), Some("media" | "mezza" | "mezzo" | "meia"))
        {
            return done((count + 0.5) * u, 3);
        }
    }
    None
}

/// A number said in words, read as its digits are ("nine pm", "twenty
/// dollars", "three kids", "at nine"); an ordinal only as a day of the
/// month where a date is said ("on the second", "the twelfth of May",
/// "may second"); a word that is another word as often ("one", "un",
/// "once") only where it counts what follows ("just one ticket").
pub(super) fn read_spelled(toks: &[Tok], i: usize, s: spelled::Spelled) -> Option<(Value, usize)> {
    let prev = |k: usize| toks[..k].iter().rposition(|t| *t != Tok::Space);
    let word_before = |k: usize| {
        prev(k).and_then(|j| match &toks[j] {
            Tok::Word(w) => Some((j, w.as_ref())),
            _ => None,
        })
    };
    if s.ordinal {
        if !(1.0..=31.0).contains(&s.value) {
            return None;
        }
        // "on the second", "for the twelfth", "may second", "the 3rd of
        // may"; never "a second" (another one).
        let before = word_before(i);
        let before_the = before.filter(|(_, w)| ARTICLES.contains(w)).and_then(|(j, _)| word_before(j));
        let after = word_at(toks, i + 1);
        let month_after = after.is_some_and(|(_, w)| month(w).is_some())
            || after.is_some_and(|(j, w)| matches!(w, "of" | "de") && word_at(toks, j + 1).is_some_and(|(_, m)| month(m).is_some()));
        // Past the lexicon's positions ("the fifteenth", "the twenty-first"),
        // an ordinal is a day of the month, as "the 15th" is.
        let dated = before.is_some_and(|(_, w)| month(w).is_some())
            || before_the.or(before).is_some_and(|(_, w)| DATED.contains(&w))
            || month_after
            || s.value >= 13.0;
        let of_month = self::month_after(toks, i + 1).map(|(_, m)| m).or_else(|| before.and_then(|(_, w)| month(w)));
        return dated.then(|| (self::dated(s.value, of_month), 1));
    }
    let digits = format!("{}", s.value);
    // "At one" is a time, as "at 1" is, and "alle otto" ("a" is as
    // often an article: "a one-way").
    // "à neuf heures", "à une heure et demie": French "à" folds to "a".
    let (at_time, at_a_time) = said_at(toks, i);
    if s.counting
        && at_time
        && let Some(v) = hour_of_day(toks, i, s.value, true)
    {
        return Some(v);
    }
    // "one pm": an hour.
    if s.counting && meridiem(toks, i + 1).is_some() {
        return read_number(toks, i, &digits);
    }
    if s.counting && !at_a_time {
        // First, or after punctuation: a clause opens with it.
        let before = prev(i).map(|j| &toks[j]);
        let prev_word = match before {
            Some(Tok::Word(p)) => Some(p.as_ref()),
            _ => None,
        };
        if s.value == 1.0 && !one_counts(prev_word, before.is_none() || matches!(before, Some(Tok::Sym(_)))) {
            return None;
        }
        let (j, next) = word_at(toks, i + 1)?;
        return counted_by(s.value, next).map(|v| (v, j + 1 - i));
    }
    // "nine thirty pm", "at six fifteen": the hour and its minutes.
    if let Some((j, Tok::Spelled(m))) = next_solid(toks, i + 1)
        && !m.ordinal
        && (1.0..=12.0).contains(&s.value)
        && (10.0..60.0).contains(&m.value)
    {
        match meridiem(toks, j + 1) {
            Some((k, mer)) => return Some((Value::new(Dim::Clock, clock(s.value, m.value, Some(mer))?), k + 1 - i)),
            // "at six thirty", and "six thirty" with no noun after it to
            // count ("six thirty people" is no time).
            None if at_a_time || word_at(toks, j + 1).is_none_or(|(_, w)| counted_by(m.value, w).is_none()) => {
                return Some((twelve_hours(s.value, m.value)?, j + 1 - i));
            }
            None => {}
        }
    }
    // "forty-two fifty", "twelve ninety-nine dollars": units and cents,
    // as a price is said. Before a unit of money, any number of units;
    // without one, a number that is no hour and opens no year
    // ("nineteen ninety-nine", "twenty twenty-four" stay two numbers).
    if let Some((j, Tok::Spelled(m))) = next_solid(toks, i + 1)
        && !m.ordinal
        && !m.counting
        && (10.0..100.0).contains(&m.value)
        && s.value.fract() == 0.0
        && (1.0..1000.0).contains(&s.value)
    {
        let amount = s.value + m.value / 100.0;
        match word_at(toks, j + 1).and_then(|(k, w)| counted_by(amount, w).filter(|v| v.dim == Dim::Price).map(|v| (k, v))) {
            Some((k, v)) => return Some((v, k + 1 - i)),
            None if s.value >= 13.0
                && !matches!(s.value as u32, 19 | 20)
                && word_at(toks, j + 1).is_none_or(|(_, w)| counted_by(m.value, w).is_none()) =>
            {
                return Some((Value::new(Dim::Bare, amount), j + 1 - i));
            }
            None => {}
        }
    }
    // "huit heures et demie", "ocho y media de la tarde", "a las nueve".
    if let Some(v) = hour_of_day(toks, i, s.value, at_time) {
        return Some(v);
    }
    // "nine o'clock".
    if let Some((j, "o'clock" | "oclock")) = word_at(toks, i + 1)
        && (1.0..=12.0).contains(&s.value)
    {
        return Some((twelve_hours(s.value, 0.0)?, j + 1 - i));
    }
    read_number(toks, i, &digits)
}

/// Words before a time of day ("at one", "um eins"): French "à" folds to
/// the English article "a", and is left out.
pub const AT: &[&str] = &["at", "um"];

/// Words before a day of the month said as an ordinal ("on the second",
/// "for the twelfth", "el primero", "le premier", "am ersten").
pub(super) const DATED: &[&str] = &["on", "for", "by", "until", "from", "el", "le", "am", "zum", "bis"];

/// Articles between such a word and the ordinal.
pub(super) const ARTICLES: &[&str] = &["the", "el", "la", "le", "der", "den", "dem"];

/// A time on a twelve-hour clock, either half of the day (`TWELVE_HOURS`).
pub(super) fn twelve_hours(h: f64, m: f64) -> Option<Value> {
    let mut v = Value::new(Dim::Clock, clock(h, m, None)?);
    v.unit = TWELVE_HOURS.into();
    Some(v)
}

/// "Half past six", "quarter past seven", "quarter to eight" (in words or
/// digits): a time on a twelve-hour clock.
pub(super) fn read_time_words(toks: &[Tok], i: usize, w: &str) -> Option<(Value, usize)> {
    let before_hour = |hour: f64| if hour == 1.0 { 12.0 } else { hour - 1.0 };
    // German and Dutch quarters: "Viertel nach acht", "kwart voor negen",
    // "dreiviertel neun" (a quarter before nine).
    if matches!(w, "viertel" | "kwart") {
        let (j, how) = word_at(toks, i + 1)?;
        let (k, hour) = hour_at(toks, j + 1)?;
        let v = match how {
            "nach" | "over" => twelve_hours(hour, 15.0)?,
            "vor" | "voor" => twelve_hours(before_hour(hour), 45.0)?,
            _ => return None,
        };
        return Some((v, k + 1 - i));
    }
    if w == "dreiviertel" {
        let (k, hour) = hour_at(toks, i + 1)?;
        return Some((twelve_hours(before_hour(hour), 45.0)?, k + 1 - i));
    }
    let past = match w {
        "half" => 30.0,
        "quarter" => 15.0,
        // German "halb acht": half an hour before eight.
        "halb" => {
            let (k, hour) = hour_at(toks, i + 1)?;
            if !(1.0..=12.0).contains(&hour) || hour.fract() != 0.0 {
                return None;
            }
            return Some((twelve_hours(if hour == 1.0 { 12.0 } else { hour - 1.0 }, 30.0)?, k + 1 - i));
        }
        _ => return None,
    };
    // "half six": half past six, as the British say it.
    if past == 30.0
        && let Some((k, hour)) = hour_at(toks, i + 1)
        && word_at(toks, k + 1).is_none_or(|(_, w)| counted_by(hour, w).is_none())
    {
        return Some((twelve_hours(hour, 30.0)?, k + 1 - i));
    }
    let (j, how) = word_at(toks, i + 1)?;
    let (k, hour) = match next_solid(toks, j + 1)? {
        (k, Tok::Spelled(s)) if !s.ordinal => (k, s.value),
        (k, Tok::Num(n)) => (k, number(n)?),
        _ => return None,
    };
    if !(1.0..=12.0).contains(&hour) || hour.fract() != 0.0 {
        return None;
    }
    let v = match how {
        "past" | "after" => twelve_hours(hour, past)?,
        "to" | "before" if past == 15.0 => twelve_hours(if hour == 1.0 { 12.0 } else { hour - 1.0 }, 45.0)?,
        _ => return None,
    };
    Some((v, k + 1 - i))
}

/// After an hour, the minutes the words from token `i` add in the
/// lexicon's languages ("ocho y media", "otto e mezza", "huit heures et
/// quart", "nueve menos cuarto"; negative: before the hour), and the index
/// of their last token.
pub(super) fn minutes_after(toks: &[Tok], i: usize) -> Option<(f64, usize)> {
    let (j, w) = word_at(toks, i)?;
    // French "quart" is read as a number (a fourth): after "et" or "moins
    // le", it is the quarter.
    let quart = |k: usize| matches!(next_solid(toks, k), Some((_, Tok::Spelled(s))) if s.value == 4.0);
    // Spanish "cuarto" is read as an ordinal (the fourth) the same way:
    // "las diez y cuarto", "nueve menos cuarto".
    if let Some((k, _)) = next_solid(toks, j + 1).filter(|_| matches!(w, "et" | "y") && quart(j + 1)) {
        return Some((15.0, k));
    }
    if let Some((k, _)) = next_solid(toks, j + 1).filter(|_| w == "menos" && quart(j + 1)) {
        return Some((-15.0, k));
    }
    if w == "moins"
        && let Some((l, "le")) = word_at(toks, j + 1)
        && let Some((k, _)) = next_solid(toks, l + 1).filter(|_| quart(l + 1))
    {
        return Some((-15.0, k));
    }
    let (k, next) = word_at(toks, j + 1)?;
    match (w, next) {
        ("y" | "e" | "et", "media" | "mezza" | "mezzo" | "meia" | "demie" | "demi") => Some((30.0, k)),
        ("y" | "et", "cuarto" | "quart") => Some((15.0, k)),
        ("menos", "cuarto") | ("moins", "quart") => Some((-15.0, k)),
        ("moins", "le") => word_at(toks, k + 1).filter(|(_, q)| *q == "quart").map(|(l, _)| (-15.0, l)),
        _ => None,
    }
}

/// Whether the token before `i` makes a number there a time of day: a
/// word of `AT_TIME` (German "um" is read as Portuguese "um", one, a
/// number that counts); and whether it says so alone ("a" and "as" are
/// as often an article and a word: "at", "um", "a las" say the time).
pub(super) fn said_at(toks: &[Tok], i: usize) -> (bool, bool) {
    let before = toks[..i].iter().rev().find(|t| **t != Tok::Space);
    let at = before.is_some_and(|t| match t {
        Tok::Word(w) => AT_TIME.contains(&w.as_ref()),
        Tok::Spelled(s) => s.counting && s.value == 1.0,
        _ => false,
    });
    (at, at && !matches!(before, Some(Tok::Word(w)) if matches!(w.as_ref(), "a" | "as")))
}

/// Words before a number that make it a time of day in the lexicon's
/// languages ("a las ocho", "alle otto", "om acht", "à huit heures":
/// "à" folds to "a").
pub(super) const AT_TIME: &[&str] = &["at", "um", "las", "alle", "om", "a", "vers", "as"];

/// An hour (0 to 23) said at token `i` as a time of day with what follows
/// it: "huit heures", "dix heures et demie", "ocho y media", "ocho de la
/// tarde", "neun Uhr". `at`: a word before it says a time ("a las",
/// "à"). "Deux heures" alone, with nothing before it, is a duration.
pub(super) fn hour_of_day(toks: &[Tok], i: usize, hour: f64, at: bool) -> Option<(Value, usize)> {
    if !(0.0..24.0).contains(&hour) || hour.fract() != 0.0 {
        return None;
    }
    let (end, said_hours) = match word_at(toks, i + 1) {
        Some((j, "heures" | "heure" | "uhr" | "uur" | "h")) => (j, true),
        _ => (i, false),
    };
    let (minutes, end) = match minutes_after(toks, end + 1) {
        Some((m, k)) => (m, k),
        None => (0.0, end),
    };
    let mer = meridiem(toks, end + 1);
    // "18 heures" is no length of time; "2 heures" may be, unless "à" or
    // "du soir" says the time. An hour with only "pm" after it ("nine
    // pm", "ocho de la tarde") is read where its digits are.
    if minutes == 0.0 && !(said_hours && (at || hour >= 13.0 || mer.is_some())) {
        return None;
    }
    let (h, m) = if minutes < 0.0 { (if hour == 0.0 { 23.0 } else { hour - 1.0 }, 60.0 + minutes) } else { (hour, minutes) };
    let end = mer.map_or(end, |(k, _)| k);
    let v = match mer {
        Some((_, mer)) => Value::new(Dim::Clock, clock(h, m, Some(mer))?),
        None if h <= 12.0 => twelve_hours(h, m)?,
        None => Value::new(Dim::Clock, clock(h, m, None)?),
    };
    Some((v, end + 1 - i))
}

/// An hour of a twelve-hour clock from token `i` on, in digits or words:
/// its token's index and the hour.
pub(super) fn hour_at(toks: &[Tok], i: usize) -> Option<(usize, f64)> {
    let (k, hour) = match next_solid(toks, i)? {
        (k, Tok::Spelled(s)) if !s.ordinal => (k, s.value),
        (k, Tok::Num(n)) if n.bytes().all(|b| b.is_ascii_digit()) => (k, number(n)?),
        _ => return None,
    };
    ((1.0..=12.0).contains(&hour) && hour.fract() == 0.0).then_some((k, hour))
}

pub(super) fn currency(c: char) -> bool {
    matches!(c, '$' | '€' | '£' | '¥' | '₪' | '₹')
}

/// A price's amount in cents: "1,999", "9.99", "18,50", "1.850,00".
pub(super) fn money(n: &str) -> Option<f64> {
    let last = n.rfind(['.', ',']);
    let (int, frac) = match last {
        // Two digits after the last separator: the decimals.
        Some(p) if n.len() - p - 1 == 2 => (&n[..p], &n[p + 1..]),
        _ => (n, ""),
    };
    let int: String = int.chars().filter(char::is_ascii_digit).collect();
    let whole: f64 = int.parse().ok()?;
    let cents: f64 = if frac.is_empty() { 0.0 } else { frac.parse().ok()? };
    Some(whole * 100.0 + cents)
}

/// A plain number ("16", "1.2", "18,50").
pub(super) fn number(n: &str) -> Option<f64> {
    if n.contains(':') {
        return None;
    }
    n.replace(',', ".").parse().ok()
}

/// A clock time's minutes since midnight from "H:MM" and an am/pm word.
pub(super) fn clock(h: f64, m: f64, meridiem: Option<&str>) -> Option<f64> {
    if !(0.0..60.0).contains(&m) || !(0.0..24.0).contains(&h) {
        return None;
    }
    let h = match meridiem {
        Some("pm") if h < 12.0 => h + 12.0,
        Some("am") if h == 12.0 => 0.0,
        // "16 h de l'après-midi": a 24-hour time said with its half.
        Some("pm") if h > 12.0 => h,
        Some(_) if h > 12.0 => return None,
        _ => h,
    };
    Some(h * 60.0 + m)
}

/// The next word from token `i`, past spaces, apostrophes and hyphens
/// ("l'après-midi", "'s avonds").
fn word_past_marks<'t>(toks: &'t [Tok<'_>], i: usize) -> Option<(usize, &'t str)> {
    match toks.iter().enumerate().skip(i).find(|(_, t)| !matches!(t, Tok::Space | Tok::Sym('\'' | '\u{2019}' | '-')))? {
        (j, Tok::Word(w)) => Some((j, w.as_ref())),
        _ => None,
    }
}

pub(super) fn meridiem(toks: &[Tok], i: usize) -> Option<(usize, &'static str)> {
    let (j, w) = word_past_marks(toks, i)?;
    match w {
        "am" => Some((j, "am")),
        "pm" => Some((j, "pm")),
        // "9 in the morning", "7 in the evening", "11 at night".
        "in" | "at" => {
            let (k, next) = word_at(toks, j + 1)?;
            let (k, part) = if next == "the" { word_at(toks, k + 1)? } else { (k, next) };
            match part {
                "morning" => Some((k, "am")),
                "afternoon" | "evening" | "night" | "tonight" => Some((k, "pm")),
                _ => None,
            }
        }
        // "de la tarde", "du soir", "di sera", "da manhã", and German's
        // "abends", "morgens".
        "de" | "du" | "di" | "del" | "da" => {
            let (k, next) = word_at(toks, j + 1)?;
            let (k, part) = if matches!(next, "la" | "l") { word_past_marks(toks, k + 1)? } else { (k, next) };
            // "l'après" is one word as typed.
            let part = part.strip_prefix("l'").or_else(|| part.strip_prefix("l\u{2019}")).unwrap_or(part);
            match part {
                "tarde" | "noche" | "soir" | "sera" | "pomeriggio" | "notte" | "noite" => Some((k, "pm")),
                // "de l'après-midi".
                "apres" => word_past_marks(toks, k + 1).filter(|(_, w)| *w == "midi").map(|(k, _)| (k, "pm")),
                "manana" | "madrugada" | "matin" | "mattina" | "mattino" | "manha" => Some((k, "am")),
                _ => None,
            }
        }
        // Dutch "'s avonds", "'s middags", "'s ochtends".
        "s" => match word_past_marks(toks, j + 1)? {
            (k, "avonds" | "middags" | "nachts") => Some((k, "pm")),
            (k, "ochtends" | "morgens") => Some((k, "am")),
            _ => None,
        },
        "abends" | "nachmittags" | "soir" => Some((j, "pm")),
        "morgens" | "vormittags" | "matin" => Some((j, "am")),
        // "p.m." and "a.m.": a letter, a dot, a letter.
        "a" | "p" => {
            let (k, m) = word_at(toks, j + 2)?;
            (matches!(toks.get(j + 1), Some(Tok::Sym('.'))) && m == "m").then_some((k, if w == "a" { "am" } else { "pm" }))
        }
        _ => None,
    }
}

/// A date in digits from token `i` (its text `n`), and the tokens it
/// takes: year first with hyphens ("2025-04-03"); a day and a month with a
/// slash where one of the two can only be the day ("17/03", "03/17",
/// "17/03/2025"; "03/04" is left unread, as people write it both ways);
/// German day and month with their dots ("4.3.").
fn numeric_date(toks: &[Tok], i: usize, n: &str) -> Option<(Value, usize)> {
    let num = |k: usize| match toks.get(k) {
        Some(Tok::Num(d)) if (1..=2).contains(&d.len()) && d.bytes().all(|b| b.is_ascii_digit()) => d.parse::<u8>().ok(),
        _ => None,
    };
    let sym = |k: usize, c: char| matches!(toks.get(k), Some(Tok::Sym(s)) if *s == c);
    let valid = |day: u8, month: u8| (1..=31).contains(&day) && (1..=12).contains(&month);
    if n.len() == 4 && n.bytes().all(|b| b.is_ascii_digit()) && sym(i + 1, '-') && sym(i + 3, '-') {
        let (month, day) = (num(i + 2)?, num(i + 4)?);
        return valid(day, month).then(|| (dated(f64::from(day), Some(month)), 5));
    }
    if (1..=2).contains(&n.len()) && n.bytes().all(|b| b.is_ascii_digit()) && sym(i + 1, '/') {
        let (a, b) = (n.parse::<u8>().ok()?, num(i + 2)?);
        let (day, month) = match (a > 12, b > 12) {
            (true, false) => (a, b),
            (false, true) => (b, a),
            _ => return None,
        };
        if !valid(day, month) {
            return None;
        }
        let year = sym(i + 3, '/') && matches!(toks.get(i + 4), Some(Tok::Num(y)) if y.len() == 4 || y.len() == 2);
        return Some((dated(f64::from(day), Some(month)), if year { 5 } else { 3 }));
    }
    // After a word that says a date follows ("am 4.3.", "Di, 4.3."): a
    // version ("v2.3.") or a sentence's last number is no date.
    let dated_word = toks[..i].iter().rev().find(|t| !matches!(t, Tok::Space | Tok::Sym(','))).is_some_and(
        |t| matches!(t, Tok::Word(w) if matches!(w.as_ref(), "am" | "ab" | "bis" | "vom" | "zum" | "den") || weekday(w).is_some()),
    );
    if dated_word
        && let Some((d, m)) = n.split_once('.')
        && sym(i + 1, '.')
        && (1..=2).contains(&d.len())
        && (1..=2).contains(&m.len())
        && let (Ok(day), Ok(month)) = (d.parse::<u8>(), m.parse::<u8>())
        && valid(day, month)
    {
        return Some((dated(f64::from(day), Some(month)), 2));
    }
    None
}

/// After a number, the end of its span ("–3:00 PM", "- 4pm", "–20
/// Uhr"): the end as written, and the token after it.
fn span_end<'a>(toks: &[Tok<'a>], i: usize) -> Option<(&'a str, usize)> {
    let (j, Tok::Sym('-' | '\u{2013}' | '\u{2014}')) = next_solid(toks, i)? else { return None };
    let (k, Tok::Num(n)) = next_solid(toks, j + 1)? else { return None };
    Some((*n, k + 1))
}

/// After a time without am or pm, the end of its span ("–3:00 PM", "-
/// 4pm"): the end's am or pm, and the end in minutes.
pub(super) fn range_meridiem(toks: &[Tok], i: usize) -> Option<(&'static str, f64)> {
    let (n, after) = span_end(toks, i)?;
    let (_, mer) = meridiem(toks, after)?;
    let (h, m) = match n.split_once(':') {
        Some((h, m)) => (h.parse().ok()?, m.parse().ok()?),
        None => (n.parse().ok()?, 0.0),
    };
    Some((mer, clock(h, m, Some(mer))?))
}

pub(super) fn read_number(toks: &[Tok], i: usize, n: &str) -> Option<(Value, usize)> {
    if let Some(date) = numeric_date(toks, i, n) {
        return Some(date);
    }
    // "+2", "utc-3", "(GMT+05:30)": the sign right before the digits, no
    // number before the sign ("2-3" is a range). A plus before what it
    // counts adds it ("3 kids +1 adult").
    let counts_a_noun = || word_at(toks, i + 1).is_some_and(|(_, w)| number(n).and_then(|x| counted_by(x, w)).is_some());
    if i > 0
        && let Tok::Sym(sign @ ('+' | '-' | '\u{2212}')) = toks[i - 1]
        && !(i > 1 && matches!(toks[i - 2], Tok::Num(_)))
        && !(sign == '+' && counts_a_noun())
    {
        let amount = match n.split_once(':') {
            Some((h, m)) => h.parse::<f64>().ok()? + m.parse::<f64>().ok()? / 60.0,
            None => n.replace(',', ".").parse::<f64>().ok()?,
        };
        // A length of time with a sign ("-1h", "+15 min") is that length:
        // before or after, the options say.
        let per = word_at(toks, i + 1).and_then(|(k, w)| match w {
            "h" => Some((k, 60.0)),
            w => unit(w).filter(|(d, _)| *d == Dim::Duration).map(|(_, f)| (k, f)),
        });
        if let Some((k, per)) = per {
            return Some((Value::new(Dim::Duration, amount * per), k + 1 - i));
        }
        return Some((Value::new(Dim::Signed, if sign == '+' { amount } else { -amount }), 1));
    }
    // "7:00", "12:30 PM", "9:00 Uhr".
    if let Some((h, m)) = n.split_once(':') {
        let (h, m): (f64, f64) = (h.parse().ok()?, m.parse().ok()?);
        let (end, mer) = match meridiem(toks, i + 1) {
            Some((j, mer)) => (j, Some(mer)),
            // "2:00–3:00 PM": the start of a span takes the end's half of
            // the day, when it is not later than the end then.
            None => (
                i,
                range_meridiem(toks, i + 1)
                    .filter(|(mer, until)| clock(h, m, Some(mer)).is_some_and(|at| at <= *until))
                    .map(|(mer, _)| mer),
            ),
        };
        let mut v = Value::new(Dim::Clock, clock(h, m, mer)?);
        // "9:30" with no am or pm is either half of the day as said ("make
        // it 9:30" for 21:30); "09:30" is the morning, and the start of a
        // span before its end's pm ("11:00-1:00 pm") its own.
        if mer.is_none() && (1.0..=12.0).contains(&h) && !n.starts_with('0') && range_meridiem(toks, i + 1).is_none() {
            v.unit = TWELVE_HOURS.into();
        }
        return Some((v, end + 1 - i));
    }
    let x = number(n)?;
    // "8–10 am", "6–8 pm": the start of a span of hours takes the end's
    // half of the day, when it is not later than the end then, as
    // "2:00–3:00 PM" does.
    if x.fract() == 0.0
        && (1.0..=12.0).contains(&x)
        && n.bytes().all(|b| b.is_ascii_digit())
        && let Some((mer, _)) = range_meridiem(toks, i + 1).filter(|(mer, until)| clock(x, 0.0, Some(mer)).is_some_and(|at| at <= *until))
    {
        return Some((Value::new(Dim::Clock, clock(x, 0.0, Some(mer))?), 1));
    }
    // "18–20 Uhr", "8-10 h", "19–21 uur": the start of a span of hours on
    // a 24-hour clock, said with the end's word for the hour.
    if x.fract() == 0.0
        && (0.0..24.0).contains(&x)
        && n.bytes().all(|b| b.is_ascii_digit())
        && let Some((end, after)) = span_end(toks, i + 1)
        && number(end).is_some_and(|e| e > x && e <= 24.0)
        && word_at(toks, after).is_some_and(|(_, w)| matches!(w, "uhr" | "h" | "uur" | "heures"))
    {
        return Some((Value::new(Dim::Clock, x * 60.0), 1));
    }
    let adjacent = |k: usize| toks.get(k);
    // "9.99 €", "412 €", "20 dollars".
    if let Some((j, Tok::Sym(c))) = next_solid(toks, i + 1)
        && currency(*c)
    {
        return Some((Value::new(Dim::Price, money(n)?), j + 1 - i));
    }
    // "40%", "20 %".
    if let Some((j, Tok::Sym('%'))) = next_solid(toks, i + 1) {
        return Some((Value::new(Dim::Percent, x), j + 1 - i));
    }
    // "7h10", "14h30", "9h" (a French or German time), "1h 5m" (a duration).
    if let Some(Tok::Word(w)) = adjacent(i + 1)
        && w == "h"
    {
        if let Some(Tok::Num(mm)) = adjacent(i + 2)
            && let Ok(m) = mm.parse::<f64>()
        {
            return Some((Value::new(Dim::Clock, clock(x, m, None)?), 3));
        }
        // "1h 5m", "1h 5 min": a duration.
        if let Some((j, Tok::Num(mm))) = next_solid(toks, i + 2)
            && let Some((k, w)) = word_at(toks, j + 1)
            && matches!(unit(w), Some((Dim::Duration, f)) if f == 1.0)
        {
            let m: f64 = mm.parse().ok()?;
            return Some((Value::new(Dim::Duration, x * 60.0 + m), k + 1 - i));
        }
        // "9h": a time of day, unless a duration's "h" ("2h" alone reads
        // as a time; "2 h" as a duration, below).
        return Some((Value::new(Dim::Clock, clock(x, 0.0, None)?), 2));
    }
    // "7pm", "7 pm", "7 p.m.".
    if let Some((j, mer)) = meridiem(toks, i + 1) {
        let mut v = Value::new(Dim::Clock, clock(x, 0.0, Some(mer))?);
        v.unit = "hour".into();
        return Some((v, j + 1 - i));
    }
    // "9ish", "9-ish": about that number, read as the number.
    if let Some(Tok::Word(w)) = adjacent(i + 1)
        && w == "ish"
    {
        return Some((Value::new(Dim::Bare, x), 2));
    }
    if let (Some(Tok::Sym('-')), Some(Tok::Word(w))) = (adjacent(i + 1), adjacent(i + 2))
        && w == "ish"
    {
        return Some((Value::new(Dim::Bare, x), 3));
    }
    // "1.5k", "2k": thousands, as people write amounts.
    if let Some(Tok::Word(w)) = adjacent(i + 1)
        && w == "k"
    {
        return Some((Value::new(Dim::Bare, x * 1000.0), 2));
    }
    // "18 heures", "8 y media", "9 de la noche" (a time said on an hour).
    // German "um" is read as Portuguese "um" (one), a word that counts.
    let (at, at_the_hour) = said_at(toks, i);
    if !n.contains(['.', ','])
        && let Some(v) = hour_of_day(toks, i, x, at)
    {
        return Some(v);
    }
    // "8 o'clock".
    if let Some((j, "o'clock" | "oclock")) = word_at(toks, i + 1)
        && let Some(v) = twelve_hours(x, 0.0).filter(|_| (1.0..=12.0).contains(&x) && x.fract() == 0.0)
    {
        return Some((v, j + 1 - i));
    }
    // "14. Mai", "3. März": a German day and its month.
    if let Some(Tok::Sym('.')) = adjacent(i + 1)
        && x.fract() == 0.0
        && (1.0..=31.0).contains(&x)
        && let Some((k, m)) = month_after(toks, i + 2)
    {
        return Some((dated(x, Some(m)), k + 1 - i));
    }
    // "9 Uhr".
    if let Some((j, "uhr")) = word_at(toks, i + 1) {
        return Some((Value::new(Dim::Clock, clock(x, 0.0, None)?), j + 1 - i));
    }
    // A year: four digits from 1900 to 2099 ("2015 remaster").
    if n.len() == 4 && (1900.0..2100.0).contains(&x) && x.fract() == 0.0 {
        return Some((Value::new(Dim::Year, x), 1));
    }
    // "1.2 GB", "16GB", "14-inch", "58 min", "2 days".
    let after = match adjacent(i + 1) {
        Some(Tok::Sym('-')) => word_at(toks, i + 2),
        _ => word_at(toks, i + 1),
    };
    if let Some((j, w)) = after {
        // "2TB", "14-inch"; "to" apart from its number is a word ("200 to
        // Marta").
        let written_onto = j == i + 1 || (j == i + 2 && matches!(adjacent(i + 1), Some(Tok::Sym('-'))));
        if let Some((dim, f)) = unit(w).filter(|_| written_onto || !names::WORDS_AS_OFTEN.contains(&w)) {
            return Some((Value::in_unit(dim, x * f, w), j + 1 - i));
        }
        // "March 14th" is read from the month; "14th of March", "4 Aug",
        // "the 1st": a day, with its month where one follows.
        if let Some(day) = ordinal_day(x, w) {
            return Some(match month_after(toks, j + 1) {
                Some((k, m)) => (dated(day, Some(m)), k + 1 - i),
                None => (Value::new(Dim::Day, day), j + 1 - i),
            });
        }
        if x.fract() == 0.0
            && (1.0..=31.0).contains(&x)
            && let Some((k, m)) = month_after(toks, i + 1)
        {
            return Some((dated(x, Some(m)), k + 1 - i));
        }
        // "2 people", "4 tickets": a count of its noun; after "um", "a
        // las", "at", an hour ("um zehn passt").
        if let Some(v) = counted_by(x, w).filter(|v| v.dim == Dim::Count && !(at && x.fract() == 0.0 && (0.0..24.0).contains(&x))) {
            return Some((v, j + 1 - i));
        }
    }
    // "at two", "um 10", "a las nueve": an hour, never the 2 of "Table for
    // 2" nor the tenth option.
    if at_the_hour && x.fract() == 0.0 && !n.contains(['.', ',']) {
        if (1.0..=12.0).contains(&x) {
            return Some((twelve_hours(x, 0.0)?, 1));
        }
        if (13.0..24.0).contains(&x) {
            return Some((Value::new(Dim::Clock, clock(x, 0.0, None)?), 1));
        }
    }
    Some((Value::new(Dim::Bare, x), 1))
}

/// "One" is an article and a pronoun as often as a number ("that one
/// looks good", "the one near me"): it counts what follows it only at the
/// start of a text, or after a word that asks for an amount ("just one
/// ticket", "for one person", "get one ticket").
pub(super) fn one_counts(prev: Option<&str>, first: bool) -> bool {
    const AMOUNT: &[&str] = &[
        "just", "only", "for", "get", "buy", "book", "reserve", "order", "need", "want", "make", "it", "me", "us", "and", "or", "with",
        "para", "pour", "fur",
    ];
    first || prev.is_some_and(|p| AMOUNT.contains(&p))
}

/// Whether `w` (normalized) says a number: digits, or a number word
/// (`spelled`: "nine", "zwanzig", "one"; not a word that is another word
/// as often, "once", "elf").
pub fn is_number_word(w: &str) -> bool {
    (!w.is_empty() && w.bytes().all(|b| b.is_ascii_digit())) || spelled::is_cardinal_word(w)
}

/// The value a number `x` says before `next`: a unit's ("two hours"), or
/// a count of `next` ("2 people", "one ticket").
pub(super) fn counted_by(x: f64, next: &str) -> Option<Value> {
    // Said apart from its number ("two hundred to Marta"), such a unit is
    // a word.
    if let Some((dim, f)) = unit(next).filter(|_| !names::WORDS_AS_OFTEN.contains(&next)) {
        return Some(Value::in_unit(dim, x * f, next));
    }
    (x.fract() == 0.0
        && next.chars().count() > 2
        && weekday(next).is_none()
        && month(next).is_none()
        && !NOT_COUNTED.contains(&next)
        && !is_a_value_word(next))
    .then(|| Value { dim: Dim::Count, amount: x, unit: singular(next) })
}

/// Words after a number that are not what it counts ("the 7 then", "the
/// 2 one", "4 and 5").
pub(super) const NOT_COUNTED: &[&str] = &[
    "then", "one", "ones", "the", "and", "for", "with", "please", "pls", "thanks", "now", "too", "also", "instead", "again", "por", "con",
    "los", "las", "une", "des", "les", "pour", "avec", "und", "oder", "bitte", "mit", "fur", "dann", "more", "other", "others", "that",
    "this", "more", "way", "thing", "time", "day", "bit", "sec", "second", "moment", "minute", "mas", "plus", "mehr", "you", "your",
    "today", "tomorrow", "tonight", "date", "soon",
    // A verdict on the value said ("8 works", "vier tachtig klopt"): no
    // noun it counts.
    "works", "work", "is", "sounds", "suits", "fits", "fine", "good", "great", "perfect", "better", "okay", "klopt", "passt", "geht", "est",
    "esta", "va", "funciona", "serve", "werkt",
];

/// "14th", "1st", "2nd", "3rd", "1er", "1o".
pub(super) fn ordinal_day(x: f64, suffix: &str) -> Option<f64> {
    (matches!(suffix, "st" | "nd" | "rd" | "th" | "er" | "e" | "o" | "a") && (1.0..=31.0).contains(&x) && x.fract() == 0.0).then_some(x)
}

/// A noun in its singular form, as a count's `unit` is ("kids" is
/// "kid", "people" is "person", "batteries" and "battery" are "battery").
pub fn singular(w: &str) -> String {
    match w {
        // People, in the lexicon's languages ("4 ppl", "quattro persone").
        "people" | "persons" | "person" | "ppl" | "pax" | "guests" | "guest" | "personas" | "persona" | "personnes" | "personne"
        | "personen" | "persone" | "pessoas" | "pessoa" => "person".into(),
        // Players are people ("4 ppl" for "4 players").
        "players" | "player" | "spieler" | "jugadores" | "joueurs" | "giocatori" | "spelers" | "jogadores" => "person".into(),
        "children" => "child".into(),
        // "the 8-seater": a room or car of 8 seats.
        "seater" | "seaters" => "seat".into(),
        // "glass", "Ross": no plural.
        _ if w.ends_with("ss") => w.to_string(),
        _ => {
            let one = w.strip_suffix('s').filter(|s| s.len() > 2).unwrap_or(w);
            // "batteries" and "battery" alike: a plural in "-ies" and its
            // singular in "-y" are one noun ("movies" and "movie" too: the
            // form is a key, never shown).
            match one.strip_suffix("ie") {
                Some(stem) if stem.len() > 1 => format!("{stem}y"),
                _ => one.to_string(),
            }
        }
    }
}

/// A day of the month, with its month when said (`unit`: the month's
/// number, "8" for August).
pub(super) fn dated(day: f64, month: Option<u8>) -> Value {
    let mut v = Value::new(Dim::Day, day);
    if let Some(m) = month {
        v.unit = m.to_string();
    }
    v
}

/// A month named from token `i` ("Aug", "of May", "de mayo"): the index of
/// its word, and its number.
pub(super) fn month_after(toks: &[Tok], i: usize) -> Option<(usize, u8)> {
    let (j, w) = word_at(toks, i)?;
    if let Some(m) = month(w) {
        return Some((j, m));
    }
    // After a day's number, "mar" is March ("Sat 15 Mar", "16 mar"), as
    // in Spanish and French; before one it stays ambiguous with their
    // Tuesday ("mar 16").
    if w == "mar" {
        return Some((j, 3));
    }
    if matches!(w, "of" | "de") {
        let (k, w) = word_at(toks, j + 1)?;
        return month(w).map(|m| (k, m));
    }
    None
}

pub(super) fn read_word(toks: &[Tok], i: usize, w: &str) -> Option<(Value, usize)> {
    // "minus eins", "menos dos", "minus 1": a number with its sign in a
    // word, as "-1" is ("plus" joins as often as it signs: left alone).
    if matches!(w, "minus" | "menos" | "moins" | "meno" | "min") {
        let (k, x) = match next_solid(toks, i + 1)? {
            (k, Tok::Spelled(s)) if !s.ordinal => (k, s.value),
            (k, Tok::Num(n)) if n.bytes().all(|b| b.is_ascii_digit()) => (k, number(n)?),
            _ => return None,
        };
        return Some((Value::new(Dim::Signed, -x), k + 1 - i));
    }
    if month(w).is_some() {
        // "March 14th", "Mar 2": the day; a month alone is the month.
        if let Some((j, Tok::Num(n))) = next_solid(toks, i + 1)
            && let Some(d) = number(n).filter(|d| (1.0..=31.0).contains(d) && d.fract() == 0.0)
        {
            let end = match word_at(toks, j + 1) {
                Some((k, s)) if ordinal_day(d, s).is_some() => k,
                _ => j,
            };
            return Some((dated(d, month(w)), end + 1 - i));
        }
        // "mar" alone is too often another word ("mar" is Tuesday in
        // Spanish and French abbreviations): only full names stand alone.
        if w.len() > 3 {
            return month(w).map(|m| (Value::new(Dim::Month, f64::from(m)), 1));
        }
        return None;
    }
    // "Thursday's 3pm": a weekday's possessive is the weekday.
    let day = w.strip_suffix("'s").or_else(|| w.strip_suffix("\u{2019}s")).unwrap_or(w);
    if let Some(d) = weekday(day) {
        return Some((Value::new(Dim::Weekday, f64::from(d)), 1));
    }
    if let Some(part) = names::day_part(w) {
        return Some((Value::new(Dim::DayPart, part as f64), 1));
    }
    // "The am one", "the pm one": a half of the day, said alone before
    // "one" ("am" alone is as often German "on the").
    let list_noun = match next_solid(toks, i + 1) {
        Some((_, Tok::Word(s))) => matches!(s.as_ref(), "one" | "ones"),
        // "one", spelled: a word as often as a number.
        Some((_, Tok::Spelled(n))) => n.counting && n.value == 1.0,
        _ => false,
    };
    if matches!(w, "am" | "pm") && list_noun {
        return Some((Value::new(Dim::DayPart, if w == "am" { 4.0 } else { 5.0 }), 1));
    }
    LONE_CLOCKS.iter().find(|(name, _)| *name == w).map(|&(_, minutes)| (Value::new(Dim::Clock, minutes), 1))
}
