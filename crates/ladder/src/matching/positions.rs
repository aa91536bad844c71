//! Positions and badges: ordinals in every common form ("the third song",
//! "2nd", "number 5", "option two", "#4", "last", "second to last", "the
//! middle one"), counted in the list ordinals count in, or in the subset
//! the words single out; and the trailing letter or number of a label
//! ("panel d"). A word a label has is that word, not a position.
//!
//! Tests: `positions/tests.rs`.

use super::index::{CanonPool, is_badge_token, is_number};
use super::mentions::Screen;
use super::{MatchKind, MatchParams, Mention, Role};
use crate::cost::DeadlineWatch;
use crate::lexicon::Lexicon;
use crate::scope::Pool;
use crate::text::words;

/// "21st", "25th", "3rd": the number, when the suffix fits it.
fn numeric_ordinal(t: &str) -> Option<i32> {
    let digits = t.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let suffix = &t[digits.len()..];
    if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: i32 = digits.parse().ok()?;
    let want = match (n % 100, n % 10) {
        (11..=13, _) => "th",
        (_, 1) => "st",
        (_, 2) => "nd",
        (_, 3) => "rd",
        _ => "th",
    };
    (suffix == want && n > 0).then_some(n)
}

/// "second", "2nd", "3", "option two", "number 3", "the last one" -> a
/// position (1-based; negative from the end; 0 the middle), for a whole
/// input (the continuity rules and tests).
pub fn parse_ordinal(core: &str, lex: &Lexicon) -> Option<i32> {
    let toks: Vec<&str> = words(core).collect();
    let (mut i, mut end) = (0, toks.len());
    let prefixed = toks.len() > 1 && lex.ordinal_prefixes.contains(toks[0]);
    if prefixed {
        i = 1;
    }
    if end - i > 1 && lex.ordinal_suffixes.contains(toks[end - 1]) {
        end -= 1;
    }
    let (len, n) = ordinal_at(&toks[..end], i, prefixed, lex)?;
    (i + len == end).then_some(n)
}

/// A position phrase starting at `toks[i]`: (tokens it takes, position).
/// A position followed by a phrase counting from the end ("2nd to last",
/// "3rd from the end") counts from the end.
fn ordinal_at(toks: &[&str], i: usize, prefixed: bool, lex: &Lexicon) -> Option<(usize, i32)> {
    let (len, n) = ordinal_here(toks, i, prefixed, lex)?;
    match lex.from_the_end.match_at(toks, i + len) {
        Some(m) if n > 1 => Some((len + m, -n)),
        _ => Some((len, n)),
    }
}

fn ordinal_here(toks: &[&str], i: usize, prefixed: bool, lex: &Lexicon) -> Option<(usize, i32)> {
    if let Some(hit) = lex.ordinals.value_at(toks, i) {
        return Some(hit);
    }
    let t = *toks.get(i)?;
    if let Some(n) = numeric_ordinal(t) {
        return Some((1, n));
    }
    if prefixed && let Some(n) = lex.cardinals.get(t) {
        return Some((1, *n));
    }
    if is_number(t) {
        return t.parse::<i32>().ok().filter(|n| *n > 0).map(|n| (1, n));
    }
    None
}

/// The digit runs of `raw` that belong to a value, never a position: a
/// number with a decimal point or a separator ("2.7", "3.2.1", "1,500"),
/// a version ("v2", "v2.7"), an amount of money ("$2.50", "2,50 €", "20
/// EUR"), a share ("50%"), or a number written with a sign, alone or in a
/// code ("+2", "-3", "utc+1", "GMT+01:00", "+44": `signed_at`), or a
/// time of day ("9:30", "6:30 pm", "9 in the morning"). Canonical
/// text splits such a number ("2.7" reads "2 7"); these are its pieces,
/// as canonicalization writes them.
pub fn value_digits(raw: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = raw.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        let signed = signed_at(raw, start).is_some();
        let mut separated = false;
        while i < b.len()
            && (b[i].is_ascii_digit()
                || (matches!(b[i], b'.' | b',') || ((signed || clock_minutes(b, i)) && b[i] == b':'))
                    && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            separated |= !b[i].is_ascii_digit();
            i += 1;
        }
        let before = raw[..start].trim_end_matches(' ');
        let after = raw[i..].trim_start_matches(' ');
        let version = raw[..start].ends_with(['v', 'V']) && !raw[..start - 1].chars().next_back().is_some_and(char::is_alphanumeric);
        let money = before.chars().next_back().is_some_and(is_currency_sign)
            || after.chars().next().is_some_and(|c| is_currency_sign(c) || c == '%')
            || CURRENCY_CODES.iter().any(|code| {
                after.get(..code.len()).is_some_and(|head| head.eq_ignore_ascii_case(code))
                    && !after[code.len()..].chars().next().is_some_and(char::is_alphanumeric)
            });
        // "9 in the morning", "7 at night": a time of day.
        let part_of_day = ["in the morning", "in the afternoon", "in the evening", "at night"]
            .iter()
            .any(|p| after.get(..p.len()).is_some_and(|head| head.eq_ignore_ascii_case(p)));
        // "at 3", "um 7": a time of day, as `values` reads it.
        let word_before = before.rsplit(|c: char| !c.is_alphanumeric()).next().unwrap_or("");
        let at_a_time = raw[..start].ends_with(' ') && crate::values::AT.iter().any(|w| word_before.eq_ignore_ascii_case(w));
        if separated || version || money || signed || part_of_day || at_a_time {
            out.extend(raw[start..i].split(['.', ',', ':']).filter(|d| !d.is_empty()));
        }
    }
    out
}

/// Whether the ':' at byte `i` of `b` starts a time's minutes ("9:30",
/// "18:45"): two digits, then no other digit.
fn clock_minutes(b: &[u8], i: usize) -> bool {
    b.get(i + 1..i + 3).is_some_and(|m| m.iter().all(u8::is_ascii_digit)) && !b.get(i + 3).is_some_and(u8::is_ascii_digit)
}

/// Whether the digits at byte `start` of `raw` are written with a sign
/// ("+2", "-3", "utc+1", "(GMT-08:00)", "+44"): the sign right before
/// them, and no digit before the sign ("2-3" is a range, "2024-05-01" a
/// date). The sign: -1 or 1.
/// The digit runs of `raw` written with a sign ("+1" of "the +1 one",
/// "-3" of "utc-3"): a value no word of an option says, only a value
/// shown with that sign.
pub fn signed_digits(raw: &str) -> Vec<&str> {
    let b = raw.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if signed_at(raw, start).is_some() {
            out.push(&raw[start..i]);
        }
    }
    out
}

pub(crate) fn signed_at(raw: &str, start: usize) -> Option<f64> {
    let before = &raw[..start];
    let sign = before.chars().next_back()?;
    let factor = match sign {
        '+' => 1.0,
        '-' | '\u{2212}' => -1.0,
        _ => return None,
    };
    let prior = before[..before.len() - sign.len_utf8()].chars().next_back();
    (!prior.is_some_and(|c| c.is_ascii_digit())).then_some(factor)
}

/// A number written with a sign (`signed_at`): its amount ("+05:30" is
/// 5.5, "utc-3" -3) and its digit pieces as canonical text writes them.
pub(crate) struct Signed<'a> {
    pub(crate) amount: f64,
    pub(crate) pieces: Vec<&'a str>,
}

/// The amounts of the numbers with a sign a candidate shows (label,
/// sublabel, aliases).
fn signed_shown(c: &crate::types::Candidate) -> impl Iterator<Item = f64> + '_ {
    [c.label.as_str(), c.sublabel.as_str()]
        .into_iter()
        .chain(c.aliases.iter().map(String::as_str))
        .flat_map(|text| signed_numbers(text).into_iter().map(|s| s.amount))
}

/// A label said whole but for its sign ("transpose +2" beside "Transpose
/// -2"): where the input says a number with a sign, the mentions of
/// options that show signed numbers, none of them one it says, go.
pub(super) fn drop_other_signs(raw: &str, mentions: &mut Vec<Mention>, pool: &Pool<'_>) {
    let said = signed_numbers(raw);
    if said.is_empty() {
        return;
    }
    mentions.retain(|m| {
        let shown: Vec<f64> = signed_shown(pool.entries[m.entry].cand).collect();
        shown.is_empty() || said.iter().any(|s| shown.contains(&s.amount))
    });
}

/// The numbers of `text` written with a sign, in order.
pub(crate) fn signed_numbers(text: &str) -> Vec<Signed<'_>> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && (b[i].is_ascii_digit() || (matches!(b[i], b'.' | b':') && b.get(i + 1).is_some_and(u8::is_ascii_digit))) {
            i += 1;
        }
        let Some(sign) = signed_at(text, start) else { continue };
        let run = &text[start..i];
        let amount = match run.split_once(':') {
            Some((h, m)) => h.parse::<f64>().ok().zip(m.parse::<f64>().ok()).map(|(h, m)| h + m / 60.0),
            None => run.parse::<f64>().ok(),
        };
        if let Some(amount) = amount {
            out.push(Signed { amount: sign * amount, pieces: run.split(['.', ':']).filter(|d| !d.is_empty()).collect() });
        }
    }
    out
}

/// Numbers written with a sign name the options that show them with that
/// sign ("gmt+2" the option showing "GMT+02:00", never "UTC-2" nor "Room
/// 2"): each such option is named (a badge: a value the label shows), and
/// where several show it they are asked among. One that no option shows
/// with its sign may say its direction ([`directed`]). The pieces of a signed
/// number no option shows are returned: no option accounts for them.
pub(super) fn signed_mentions<'r>(
    raw: &'r str,
    toks: &[&str],
    roles: &mut [Role],
    pool: &Pool<'_>,
    canon: &CanonPool,
    lex: &Lexicon,
    stop: &DeadlineWatch,
) -> (Vec<Mention>, Vec<&'r str>, Vec<super::Licence>) {
    let said = signed_numbers(raw);
    let (mut out, mut unshown, mut directions) = (Vec::new(), Vec::new(), Vec::new());
    if said.is_empty() {
        return (out, unshown, directions);
    }
    let shows = |idx: usize, amount: f64| signed_shown(pool.entries[idx].cand).any(|a| a == amount);
    for number in &said {
        let at: Vec<usize> = (0..toks.len()).filter(|k| roles[*k] == Role::Content && number.pieces.contains(&toks[*k])).collect();
        if at.is_empty() {
            continue;
        }
        let mut owners: Vec<usize> = (0..pool.len()).take_while(|_| !stop.passed()).filter(|idx| shows(*idx, number.amount)).collect();
        let mut by_direction = false;
        if owners.is_empty() {
            owners = directed(number, pool, canon, lex, stop);
            by_direction = true;
            // Other words of the input tell them apart ("+1 day" beside
            // "Move 1 hour later" and "Move 1 day later").
            for (k, t) in toks.iter().enumerate() {
                let with: Vec<usize> = owners.iter().copied().filter(|e| canon.label_words_of(*e).any(|w| w == *t)).collect();
                if roles[k] == Role::Content && !with.is_empty() && with.len() < owners.len() {
                    owners = with;
                }
            }
        }
        if owners.is_empty() {
            unshown.extend(number.pieces.iter().copied());
            continue;
        }
        for k in &at {
            roles[*k] = Role::Reference;
            out.extend(owners.iter().map(|entry| Mention { span: (*k, *k + 1), entry: *entry, kind: MatchKind::Badge }));
            // The sign says the label's word of direction ("Raise").
            if by_direction {
                directions.push(super::Licence { tok: *k, word: toks[*k].to_string(), entries: owners.clone(), rule: "direction" });
            }
        }
        // The zone's code before the offset ("utc-3" for "GMT-03:00"):
        // the same clock, said for the options that show an offset.
        if let Some(code) =
            at.first().and_then(|k| k.checked_sub(1)).filter(|c| roles[*c] == Role::Content && ZONE_CODES.contains(&toks[*c]))
            && owners.iter().all(|idx| {
                let c = pool.entries[*idx].cand;
                [&c.label, &c.sublabel].iter().any(|t| ZONE_CODES.iter().any(|z| t.to_lowercase().contains(z)))
            })
        {
            roles[code] = Role::Reference;
            out.extend(owners.iter().map(|entry| Mention { span: (code, code + 1), entry: *entry, kind: MatchKind::Badge }));
        }
    }
    (out, unshown, directions)
}

/// The options a signed number no option shows says by its direction
/// ("+2" for "Raise 2 °C" beside "Lower 2 °C", "-30" for "30 min before"):
/// where every option that shows the number unsigned says a word of a
/// change up (the lexicon's `raising`) or down (`lowering`), those whose
/// word goes the sign's way; none where any of them says neither.
fn directed(number: &Signed<'_>, pool: &Pool<'_>, canon: &CanonPool, lex: &Lexicon, stop: &DeadlineWatch) -> Vec<usize> {
    let [magnitude] = number.pieces[..] else { return Vec::new() };
    if number.amount == 0.0 {
        return Vec::new();
    }
    let (way, against) = if number.amount > 0.0 { (&lex.raising, &lex.lowering) } else { (&lex.lowering, &lex.raising) };
    let showing: Vec<usize> =
        (0..pool.len()).take_while(|_| !stop.passed()).filter(|e| canon.label_words_of(*e).any(|w| w == magnitude)).collect();
    let says = |e: usize, set: &rustc_hash::FxHashSet<String>| canon.label_words_of(e).any(|w| set.contains(w));
    if showing.iter().any(|e| !says(*e, way) && !says(*e, against)) {
        return Vec::new();
    }
    showing.into_iter().filter(|e| says(*e, way) && !says(*e, against)).collect()
}

/// The codes a time zone's offset is written after ("UTC+2", "GMT-03:00").
const ZONE_CODES: &[&str] = &["utc", "gmt"];

fn is_currency_sign(c: char) -> bool {
    matches!(c, '$' | '€' | '£' | '¥' | '₪' | '₹' | '¢')
}

/// Currency codes written after an amount ("20 EUR").
const CURRENCY_CODES: &[&str] = &["usd", "eur", "gbp", "jpy", "chf", "cad", "aud", "nis", "ils", "inr"];

/// Whether a position needs `extended_positions`.
fn extended_position(n: i32) -> bool {
    n == 0 || n <= -2
}

/// A position the input names.
pub(super) struct Position {
    /// Input token range (with its prefix and list noun).
    pub(super) span: (usize, usize),
    /// 1-based; negative from the end; 0 the middle; `i32::MIN` a position
    /// this deployment does not read.
    pub(super) n: i32,
    /// The position is a bare number some label also has as a word ("2"
    /// with "Song 2"): it is read both ways, and its tokens stay words.
    pub(super) also_word: bool,
}

/// Positions. A word any label contains is that word, not a position
/// ("first" in "First Class", "3" in "Room 3"), except a bare number, which
/// is read both ways ("2" with "Song 2" at position 3). A position after a
/// possessive is the user's own thing ("my second card"), unless a list
/// noun follows ("my second one").
///
/// A number that is a value (`value_digits`: "2.7", "v2", "$2.50") is
/// never a position, whatever follows it.
pub(super) fn position_mentions(toks: &[&str], roles: &mut [Role], screen: &Screen<'_>, values: &[&str]) -> Vec<Position> {
    let Screen { pool, canon, lex, params, stop } = *screen;
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if roles[i] != Role::Content {
            i += 1;
            continue;
        }
        let prefixed = lex.ordinal_prefixes.contains(toks[i]) && i + 1 < toks.len() && roles[i + 1] == Role::Content;
        let at = if prefixed { i + 1 } else { i };
        let Some((len, n)) = ordinal_at(toks, at, prefixed, lex).filter(|(len, _)| roles[at..at + len].iter().all(|r| *r == Role::Content))
        else {
            i += 1;
            continue;
        };
        let end = at + len;
        if toks[at..end].iter().any(|t| is_number(t) && values.contains(t)) {
            i += 1;
            continue;
        }
        // "First" that ends a request of its own, one that says a label's
        // word ("let me talk to support first", "show my cart first"), is
        // said of the order, not of a place: it names nothing. Not after
        // "the" or a negation ("anything but the first").
        if !prefixed
            && len == 1
            && end == toks.len()
            && at >= 2
            && super::sequence::FIRST_WORDS.contains(&toks[at])
            && !lex.function_words.contains(toks[at - 1])
            && lex.negations.match_at(toks, at - 1).is_none()
            && !canon.any_word(toks[at], stop)
            && toks[..at].iter().any(|t| !lex.function_words.contains(*t) && canon.any_word(t, stop))
        {
            roles[at] = Role::Empty;
            i += 1;
            continue;
        }
        // A quantity or a date is not a position: "1
        // ticket", "2 people" (a number counting what follows it), "on the
        // 1st", "the 1st of March" (a day), "a second card" (another one).
        if is_quantity_or_date(toks, i, at, end, prefixed, lex) {
            i += 1;
            continue;
        }
        // An ordinal word the next word goes on with as an option's
        // sublabel does ("send it to second street" with "12 Second
        // Street", "the first floor one" with "First floor · 2 beds"):
        // those words of what the option shows, not a place in the list.
        if !prefixed
            && toks[at..end].iter().all(|t| !t.bytes().any(|b| b.is_ascii_digit()))
            && goes_on_as_a_sublabel(toks, end, pool, lex, stop)
        {
            i += 1;
            continue;
        }
        // "the second one", "2nd option": the noun after it is part of it.
        let list_noun = toks.get(end).is_some_and(|t| lex.ordinal_suffixes.contains(*t));
        let end = if list_noun { end + 1 } else { end };
        if !prefixed && !list_noun && i > 0 && lex.possessives.contains(toks[i - 1]) {
            i += 1;
            continue;
        }
        // A position this deployment does not read ("second to last" with
        // `extended_positions` off) resolves to nothing: the turn is asked,
        // never read as "last".
        let n = if params.extended_positions || !extended_position(n) { n } else { i32::MIN };
        if toks[at..at + len].iter().any(|t| canon.any_word(t, stop)) {
            // After a word of the same label ("song 2") the number is that
            // label's; alone it may be either. So is an ordinal that is a
            // word of a label, anywhere in it ("the 21st one" with "21st
            // Century Breakdown" fifth, "the final one" with
            // "report_final.pdf"), unless the next word goes on with that
            // label alone ("21st century"; not "the first report" among
            // reports, the list's own noun).
            let of_a_label = |a: &str, b: &str| canon.any_entry_has_both(a, b, stop);
            // An article a label also has is no word of it ("la prima" with
            // "La prima volta": the position or the label).
            let after_own = i > 0 && !lex.function_words.contains(toks[i - 1]) && of_a_label(toks[i - 1], toks[at]);
            let bare = len == 1 && is_number(toks[at]) && !after_own;
            let ordinal = !toks[at..end].iter().any(|t| is_number(t))
                && !after_own
                && !toks.get(end).is_some_and(|next| !lex.ordinal_suffixes.contains(*next) && canon.only_with(toks[end - 1], next, stop));
            if bare || ordinal {
                let list_noun = toks.get(end).is_some_and(|t| lex.ordinal_suffixes.contains(*t));
                out.push(Position { span: (i, if list_noun { end + 1 } else { end }), n, also_word: true });
            }
            i += 1;
            continue;
        }
        roles[i..end].fill(Role::Reference);
        out.push(Position { span: (i, end), n, also_word: false });
        i = end;
    }
    out
}

/// Whether the word before `end` and the word at `end` (not a list noun)
/// are two words in a row of some option's sublabel.
fn goes_on_as_a_sublabel(toks: &[&str], end: usize, pool: &Pool<'_>, lex: &Lexicon, stop: &DeadlineWatch) -> bool {
    let (Some(last), Some(next)) = (end.checked_sub(1).map(|k| toks[k]), toks.get(end)) else { return false };
    if lex.ordinal_suffixes.contains(*next) || lex.function_words.contains(*next) {
        return false;
    }
    // Only a sublabel whose text holds the next word (any case) is read:
    // a long screen's sublabels are not canonicalized for every ordinal.
    let holds = |sub: &str| !next.is_ascii() || sub.as_bytes().windows(next.len()).any(|w| w.eq_ignore_ascii_case(next.as_bytes()));
    pool.entries.iter().take_while(|_| !stop.passed()).filter(|e| !e.cand.sublabel.is_empty() && holds(&e.cand.sublabel)).any(|e| {
        let sub = crate::canon::canonicalize(&e.cand.sublabel, lex);
        let words: Vec<&str> = sub.split(' ').filter(|w| !w.is_empty()).collect();
        words.windows(2).any(|w| w[0] == last && w[1] == *next)
    })
}

/// Whether a label's word `w` says the place `n` that `said` (a
/// position's tokens) names, in another way: an ordinal word of the same
/// place counted from the start ("primer" of "Primer plato: sopa" for "el
/// primero", "2nd" of "2nd floor" for "the second"), or, for a number said in digits, a code that
/// starts with it ("3b" of "Room 3B" for "room 3": a value inside a code,
/// as "3" of "3B" is).
pub fn says_the_place_otherwise(said: &[&str], n: i32, w: &str, lex: &Lexicon) -> bool {
    match said {
        [d] if d.bytes().all(|b| b.is_ascii_digit()) => {
            w.len() > d.len() && w.starts_with(d) && w[d.len()..].bytes().all(|b| b.is_ascii_alphabetic())
        }
        // Counted from the start: a label's "final" or "last" says what
        // the option is ("Q3 report (final).pdf") more often than a place.
        _ => {
            n > 0
                && !said.contains(&w)
                && w.bytes().any(|b| b.is_ascii_alphabetic())
                && ordinal_at(&[w], 0, false, lex).is_some_and(|(_, m)| m == n)
        }
    }
}

/// The entries whose labels say the place `n` that `said` names in another
/// way (`says_the_place_otherwise`).
pub(super) fn other_readings(said: &[&str], n: i32, canon: &CanonPool, lex: &Lexicon, stop: &DeadlineWatch) -> Vec<usize> {
    if stop.passed() {
        return Vec::new();
    }
    (0..canon.entries.len()).filter(|e| canon.label_words_of(*e).any(|w| says_the_place_otherwise(said, n, w, lex))).collect()
}

/// A label that is itself a position word ("Final", "Last", "Top"), said
/// inside a longer input ("the final one", "final version"): the position
/// is read too, as it is for a position word anywhere in a label ("the
/// final one" with "report_final.pdf"), and where it is another option
/// both are named (asked). The label said alone ("final") is that label.
pub(super) fn ordinal_labels(toks: &[&str], mentions: &[Mention], pool: &Pool<'_>, lex: &Lexicon, params: &MatchParams) -> Vec<Mention> {
    mentions
        .iter()
        .filter(|m| m.kind == MatchKind::Label)
        .filter_map(|m| {
            let (len, n) = ordinal_at(toks, m.span.0, false, lex)?;
            if m.span.0 + len < m.span.1 || (!params.extended_positions && extended_position(n)) {
                return None;
            }
            let entry = resolve_position(pool, None, n)?;
            (entry != m.entry).then_some(Mention { span: m.span, entry, kind: MatchKind::Ordinal })
        })
        .collect()
}

/// Whether the position phrase at `at..end` (from `i` with its prefix) is
/// a quantity or a date rather than a place in the list: a bare number
/// followed by a noun it counts ("1 ticket", "2 people"), a day of the
/// month ("on the 1st", "the 3rd of march", "march 3rd"), or an ordinal
/// after an indefinite article ("a second card": another card).
fn is_quantity_or_date(toks: &[&str], i: usize, at: usize, end: usize, prefixed: bool, lex: &Lexicon) -> bool {
    if prefixed {
        return false;
    }
    let next = toks.get(end).copied();
    let before = (i > 0).then(|| toks[i - 1]);
    let counted = |t: &str| {
        !lex.ordinal_suffixes.contains(t)
            && !lex.function_words.contains(t)
            && !lex.conjunctions.is_phrase(&[t])
            && !lex.from_the_end.starts_with(t)
            && t.chars().any(char::is_alphabetic)
    };
    // A number alone ("2", not "2nd") before a noun counts it, and after
    // "for" it is how many ("make it for 1", "a table for 2").
    if end - at == 1 && is_number(toks[at]) && (next.is_some_and(counted) || before == Some("for")) {
        return true;
    }
    let numeric_day = end - at == 1 && numeric_ordinal(toks[at]).is_some_and(|n| n <= 31);
    let month = |t: Option<&str>| t.is_some_and(crate::values::is_month);
    if numeric_day && (before == Some("on") || month(before) || next == Some("of") && month(toks.get(end + 1).copied()) || month(next)) {
        return true;
    }
    // A plain number beside a month is its day ("august 2", "2 aug").
    let plain_day = end - at == 1 && is_number(toks[at]) && toks[at].parse::<u32>().is_ok_and(|n| (1..=31).contains(&n));
    if plain_day && (month(before) || month(next)) {
        return true;
    }
    before.is_some_and(|b| INDEFINITE.contains(&b)) && next.is_some_and(|t| t.chars().any(char::is_alphabetic))
}

/// Indefinite articles: an ordinal after one is "another" ("a second
/// card"), not a place in the list.
const INDEFINITE: &[&str] = &["a", "an", "another", "un", "una", "une", "ein", "eine", "einen"];

/// The entry at a position of the list ordinals count in (or of `subset`).
/// With entries taken out of that list (`Pool::shown_len`), the position
/// counts on the list as shown: a place whose entry was taken out is none.
pub(super) fn resolve_position(pool: &Pool<'_>, subset: Option<&[usize]>, n: i32) -> Option<usize> {
    let list: Vec<usize> = match subset {
        Some(s) => s.to_vec(),
        None => (0..pool.len()).filter(|i| Some(pool.entries[*i].source) == pool.ordinal_source).collect(),
    };
    if let (None, Some(shown)) = (subset, pool.shown_len) {
        let len = shown as i32;
        let index = match n {
            i32::MIN => return None,
            0 if len % 2 == 1 => len / 2,
            0 => return None,
            n if n > 0 => n - 1,
            n => len + n,
        };
        return list.into_iter().find(|e| pool.entries[*e].position as i32 == index);
    }
    let len = list.len() as i32;
    let index = match n {
        i32::MIN => return None,
        0 if len % 2 == 1 => len / 2,
        0 => return None,
        n if n > 0 => n - 1,
        n => len + n,
    };
    (0..len).contains(&index).then(|| list[index as usize])
}

/// Badges: a letter or short number that ends a label ("panel d", "c"),
/// standing alone or after a word of that label.
/// A number that is a value ("2.7") is no badge either.
pub(super) fn badge_mentions(
    toks: &[&str],
    roles: &mut [Role],
    canon: &CanonPool,
    lex: &Lexicon,
    values: &[&str],
    stop: &DeadlineWatch,
) -> Vec<Mention> {
    let mut out = Vec::new();
    for i in 0..toks.len() {
        if stop.passed_now() {
            break;
        }
        let t = toks[i];
        if roles[i] != Role::Content || !is_badge_token(t) || (is_number(t) && values.contains(&t)) {
            continue;
        }
        let prev = (0..i).rev().find(|j| roles[*j] == Role::Content || roles[*j] == Role::Reference).map(|j| toks[j]);
        let prev = prev.filter(|p| {
            !lex.function_words.contains(*p) && !lex.conjunctions.is_phrase(&[p]) && lex.selection_verbs.match_at(&[p], 0).is_none()
        });
        let mut any = false;
        for idx in 0..canon.entries.len() {
            if canon.badge_of(idx) != Some(t) {
                continue;
            }
            // After another word, that word must be one of this label's, or
            // its kind ("panel c" with a candidate of kind "panel").
            if prev.is_some_and(|p| !canon.label_words_of(idx).any(|w| w == p) && !canon.kind_is(idx, p)) {
                continue;
            }
            // Nor a word that has a number of its own in the label: "reihe
            // 7" is not the 7 that ends "Reihe 13, Platz 7".
            if let Some(p) = prev
                && canon.label_words_of(idx).zip(canon.label_words_of(idx).skip(1)).any(|(w, next)| w == p && is_number(next) && next != t)
            {
                continue;
            }
            any = true;
            out.push(Mention { span: (i, i + 1), entry: idx, kind: MatchKind::Badge });
        }
        if any {
            roles[i] = Role::Reference;
            // The label words just before the badge are part of it.
            let mut j = i;
            while j > 0
                && roles[j - 1] == Role::Content
                && out.iter().any(|m| m.span.0 == i && canon.label_words_of(m.entry).any(|w| w == toks[j - 1]))
            {
                j -= 1;
                roles[j] = Role::Reference;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
