//! A value said another way: "Aug 4th" for
//! "Mon 4 Aug", "wednesday" for "Wed 10 Sep", "tues" for "Tuesday ·
//! 10:00", "for 9" for "Room 2A · 09:00-10:00", "Thursday's 3pm" for "Thu
//! 13 Jun · 3:00–3:45 PM", "medium" for "M" among S, M and L.
//!
//! A value the input says (`values::values_at`: a date with its day and
//! month read together, a weekday, a time, a price, a plain number) is
//! said for the options that show it, in any common form
//! (`values::Value::names`), and for no other: a [`Licence`] for those
//! (rule `value`), its words phrasing for them. The end of a span ("to
//! 3:45") names nothing: a time names where the span starts. A value that
//! differs from every option's ("Aug 5th" beside "4 Aug" and "6 Aug")
//! names none and stays what it was, a word left over, so it is asked. A
//! size word (the lexicon's `sizes`, in the languages it knows) says an
//! option labelled only with its letter or another word for it (rule
//! `size`), where two or more options are sizes.
//!
//! The value's options narrow what the other words single out
//! (`narrow`); a plain number that is also a word an option shows ("9"
//! with "Room 9") is said for that option too, so the two are asked.
//!
//! Tests: `value_words/tests.rs`.

use super::mentions::Screen;
use super::{Licence, MatchKind, Role, Words};
use crate::lexicon::ShownDay;
use crate::values::{Dim, Value, values_at};

/// The words of each value the input says that options show, as
/// [`Licence`]s for those options (`Role::Empty` from then on), and the
/// size words said of options that are sizes. A value whose words are
/// read as a position too (`positions`: "the 21st one") is left to that
/// rule, which reads it both ways.
pub(super) fn value_licences(
    raw: &str,
    toks: &[&str],
    roles: &mut [Role],
    positions: &[(usize, usize)],
    screen: &Screen<'_>,
) -> Vec<Licence> {
    let mut out = Vec::new();
    if !roles.contains(&Role::Content) {
        return out;
    }
    let said = values_at(raw);
    let sizes = toks.iter().zip(roles.iter()).any(|(t, r)| *r == Role::Content && screen.lex.sizes.contains_key(*t));
    if said.is_empty() && !sizes {
        return out;
    }
    let mut shown: Vec<Option<Vec<Value>>> = vec![None; screen.pool.len()];
    let mut cursor = 0;
    for (v, range) in said {
        if v.dim == Dim::Signed || (v.dim == Dim::Count && v.unit != "person") {
            continue;
        }
        let words = crate::text::normalize(&raw[range]);
        let words = crate::text::fold(&words);
        let words: Vec<&str> = words.split(' ').filter(|w| !w.is_empty()).collect();
        let Some((at, len)) = run_at(toks, &words, cursor) else { continue };
        cursor = at + len;
        let span = at..at + len;
        let positional = positions.iter().any(|(a, b)| *a < span.end && span.start < *b);
        // A part a label says too ("20" of "20 bucks" with "$20") stays
        // that label's; the rest ("bucks") is the value's.
        if positional || !span.clone().any(|k| roles[k] == Role::Content) {
            continue;
        }
        let mut entries: Vec<usize> = (0..screen.pool.len())
            .filter(|e| {
                shown[*e].get_or_insert_with(|| shown_values(screen, *e)).iter().any(|s| v.names(s))
                    || (v.dim == Dim::Count && party_of(screen, *e, v.amount))
            })
            .collect();
        if entries.is_empty() || screen.stop.passed_now() {
            continue;
        }
        // A plain number is also the word an option shows ("9" with "Room
        // 9"): said for that option too, but not where the word is a piece
        // of another value it shows ("10" of "10:30-11:30" is no 10).
        if v.dim == Dim::Bare {
            for k in span.clone() {
                entries.extend(
                    (0..screen.pool.len())
                        .filter(|e| screen.canon.all_words(*e).any(|w| w == toks[k]) && !in_another_value(screen, *e, toks[k], &v)),
                );
            }
            entries.sort_unstable();
            entries.dedup();
        }
        // "pour deux personnes", "para 4": the word before a party's size
        // is the option's "for".
        let party = span.start > 0
            && roles[span.start - 1] == Role::Content
            && FOR.contains(&toks[span.start - 1])
            && entries.iter().all(|e| party_of(screen, *e, v.amount));
        let from = if party { span.start - 1 } else { span.start };
        for k in from..span.end {
            if roles[k] != Role::Content {
                continue;
            }
            roles[k] = Role::Empty;
            out.push(Licence { tok: k, word: toks[k].to_string(), entries: entries.clone(), rule: "value" });
        }
    }
    if sizes {
        size_licences(toks, roles, screen, &mut out);
    }
    out
}

/// A quantity with a noun ("3 kids", "two adults", "2 large"): how many
/// of the option of that noun, never a bundle whose label says more
/// ("Group (3 kids + 1 adult)", "Combo (2 large pizzas + drinks)"). The
/// count and its noun are said for the options whose label names the
/// noun and shows no count of its own, and for a bundle that shows
/// exactly the counts said, as licences (rule `quantity`). Counts of two
/// or more nouns ("2 adults and a child") are left to the other rules:
/// only an option that shows exactly those counts accounts for them. A
/// `RISK_HIGH` option is never said by a count ("1 kid" is not its label),
/// nor is a pack of another number ("10 masks" is not "Masks – box of
/// 50": its number is said against).
/// Units that count an item in pieces ("Eier, 10 Stück", "Bolts, 20
/// pcs"): the item's own count, not another noun's.
const PIECES: &[&str] = &["stuck", "stk", "pieces", "piece", "pcs", "pc", "pezzi", "unidades", "uds", "unites", "stuks"];

/// Words of a pack of several of an item ("box of 50", "6-pack",
/// "caixa de 50"): its number is how many it holds.
const PACKS: &[&str] = &[
    "box",
    "pack",
    "pk",
    "case",
    "carton",
    "set",
    "bag",
    "tub",
    "caja",
    "paquete",
    "caixa",
    "pacote",
    "boite",
    "paquet",
    "packung",
    "schachtel",
    "karton",
    "scatola",
    "confezione",
    "doos",
    "pak",
    "verpakking",
];

pub(super) fn quantity_licences(raw: &str, toks: &[&str], roles: &mut [Role], screen: &Screen<'_>) -> Vec<Licence> {
    let mut out = Vec::new();
    let said: Vec<(Value, std::ops::Range<usize>)> = values_at(raw).into_iter().filter(|(v, _)| v.dim == Dim::Count).collect();
    let Some((count, range)) = said.first() else { return out };
    if said.len() > 1 {
        return out;
    }
    let counts_of = |e: usize| -> Vec<Value> {
        let mut shown = crate::values::shown(screen.pool.entries[e].cand);
        shown.retain(|v| v.dim == Dim::Count);
        shown
    };
    let names_noun = |e: usize| screen.canon.label_words_of(e).any(|w| same_noun(&count.unit, w));
    // "Eier, 10 Stück": the noun, counted in pieces; the count said
    // ("10 eier") is of it when the numbers agree.
    let pieces = |e: usize| {
        let shown = counts_of(e);
        (names_noun(e) && shown.len() == 1 && PIECES.contains(&shown[0].unit.as_str())).then(|| shown[0].amount)
    };
    let in_pieces = |e: usize| pieces(e) == Some(count.amount);
    // A label that lists several things ("Brunch box: 12 eggs, bacon",
    // "2 tickets + popcorn", "Eggs & bacon"): a bundle, whatever it counts.
    let lists = |e: usize| lists_several(&screen.pool.entries[e].cand.label, screen.canon.label_words_of(e), screen.lex);
    // "1 ream (500 sheets)", "1 adult ticket": one of the noun, which the
    // count says how many of.
    let one_of_it = |e: usize| one_of_the_noun(count, &screen.pool.entries[e].cand.label, screen.canon.label_words_of(e), screen.lex);
    let the_noun = |e: usize| (counts_of(e).is_empty() && names_noun(e)) || in_pieces(e) || one_of_it(e);
    // "12 eggs" over "Eggs (6 pack)" and "Eggs (12 pack)", "two tickets"
    // over "1 adult ticket" and "2 adult tickets": the option of the noun
    // that shows that very count, alone and in no list, is what is said,
    // before the noun's single.
    let exactly: Vec<usize> = (0..screen.pool.len())
        .filter(|e| {
            let shown = counts_of(*e);
            names_noun(*e) && shown.len() == 1 && shown[0].amount == count.amount && !lists(*e) && !screen.high_risk(*e)
        })
        .collect();
    // A bundle that counts the noun among other things ("Guacamole kit: 3
    // avocados, lime, chili"): its label says more than the input, so it
    // is not what the count names where an option is the noun itself.
    let says_more = |e: usize| {
        screen.canon.label_words_of(e).any(|w| {
            w != count.unit
                && crate::values::singular(w) != count.unit
                && !crate::values::is_number_word(w)
                && !screen.lex.function_words.contains(w)
                && !toks.contains(&w)
        })
    };
    let a_noun_shown = (0..screen.pool.len()).any(the_noun);
    // Where an option is the noun alone ("Croissant"), one that names it
    // among other things without a count ("Coffee + croissant") is a
    // bundle too: "2 croissants" is not it.
    let a_plain_noun = (0..screen.pool.len()).any(|e| the_noun(e) && !says_more(e));
    let mut entries: Vec<usize> = (0..screen.pool.len())
        .filter(|e| {
            let shown = counts_of(*e);
            (the_noun(*e) && !(a_plain_noun && says_more(*e)))
                || (shown.len() == 1 && count.names(&shown[0]) && !((a_noun_shown || lists(*e)) && says_more(*e)))
        })
        // A high-risk option needs its whole label: a count is not it.
        .filter(|e| !screen.high_risk(*e))
        .collect();
    if !exactly.is_empty() {
        entries = exactly;
    }
    // A pack of another number ("Surgical masks – box of 50") is not what
    // "10 masks" says: its number differs from the count.
    let a_pack = |e: &usize| {
        screen.canon.label_words_of(*e).any(|w| PACKS.contains(&w))
            && crate::values::shown(screen.pool.entries[*e].cand).iter().any(|v| v.dim == Dim::Bare && v.amount != count.amount)
    };
    entries.retain(|e| !a_pack(e));
    if entries.is_empty() || screen.stop.passed_now() {
        return out;
    }
    let words = crate::text::normalize(&raw[range.clone()]);
    let words = crate::text::fold(&words);
    let words: Vec<&str> = words.split(' ').filter(|w| !w.is_empty()).collect();
    let Some((at, len)) = run_at(toks, &words, 0) else { return out };
    for k in at..at + len {
        // The noun may also be a label's name ("eggs" of "Eggs (6 pack)"
        // and "Eggs (12 pack)"): it names only what the count says
        // (`matching::find` drops its other mentions).
        match roles[k] {
            Role::Content => roles[k] = Role::Empty,
            Role::Reference => {}
            _ => continue,
        }
        out.push(Licence { tok: k, word: toks[k].to_string(), entries: entries.clone(), rule: "quantity" });
    }
    out
}

/// Whether a label lists several things ("Brunch box: 12 eggs, bacon",
/// "2 tickets + popcorn", "Eggs & bacon", "bread and butter"): a bundle,
/// whatever it counts. `words`: its canonical words.
pub(super) fn lists_several<'w>(label: &str, mut words: impl Iterator<Item = &'w str>, lex: &crate::lexicon::Lexicon) -> bool {
    label.contains(['+', '&'])
        || label.match_indices(',').any(|(i, _)| label[i + 1..].trim_start().starts_with(char::is_alphabetic))
        || words.any(|w| lex.conjunctions.is_phrase(&[w]))
}

/// Whether a label is one of the noun a count said ("2 reams" of "1 ream
/// (500 sheets)", "two seats" of "1 adult seat"): it names the noun,
/// lists nothing, and shows one count outside brackets, of one.
pub(super) fn one_of_the_noun<'w>(
    said: &Value,
    label: &str,
    words: impl Iterator<Item = &'w str> + Clone,
    lex: &crate::lexicon::Lexicon,
) -> bool {
    if !words.clone().any(|w| same_noun(&said.unit, w)) || lists_several(label, words, lex) {
        return false;
    }
    let mut outside = String::with_capacity(label.len());
    let mut depth = 0usize;
    for c in label.chars() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => outside.push(c),
            _ => {}
        }
    }
    let counts: Vec<Value> = crate::values::values(&outside).into_iter().filter(|v| v.dim == Dim::Count).collect();
    matches!(counts[..], [ref one] if one.amount == 1.0)
}

/// Whether `word`, a word of a label, is the noun a count said (`said`,
/// as `values` keeps it: singular where English drops an "s"): the same
/// word, its singular, or its singular in the lexicon's other languages
/// ("cannoli" of "Cannolo", "margherite" of "Margherita", "volwassenen" of
/// "Volwassene", "panes" of "Pan"), the stem kept three letters or more.
pub(super) fn same_noun(said: &str, word: &str) -> bool {
    if said == word || crate::values::singular(word) == said {
        return true;
    }
    let stem = |end: &str| said.strip_suffix(end).filter(|s| s.chars().count() >= 3);
    let is = |stem: Option<&str>, end: &str| {
        stem.is_some_and(|s| word.len() == s.len() + end.len() && word.starts_with(s) && word.ends_with(end))
    };
    // The said form comes singular as English makes it ("panes" comes
    // "pane"): an "e" left of a plural in "-es" goes too.
    is(stem("i"), "o")
        || is(stem("i"), "e")
        || is(stem("e"), "a")
        || is(stem("e"), "")
        || is(stem("es"), "")
        || is(stem("en"), "")
        || is(stem("n"), "")
}

/// An ordinal past the end of the list ("the twelfth" over three dates):
/// the day of the month of the options that show that day, as `value`
/// licences. `past_end`: each such position's tokens and number.
pub(super) fn ordinal_days(past_end: &[((usize, usize), i32)], roles: &mut [Role], toks: &[&str], screen: &Screen<'_>) -> Vec<Licence> {
    let mut out = Vec::new();
    for &((a, b), n) in past_end {
        if !(1..=31).contains(&n) || screen.stop.passed_now() {
            continue;
        }
        let day = f64::from(n);
        let entries: Vec<usize> =
            (0..screen.pool.len()).filter(|e| shown_values(screen, *e).iter().any(|v| v.dim == Dim::Day && v.amount == day)).collect();
        if entries.is_empty() {
            continue;
        }
        for k in a..b {
            roles[k] = Role::Empty;
            out.push(Licence { tok: k, word: toks[k].to_string(), entries: entries.clone(), rule: "value" });
        }
    }
    out
}

/// Words that say what kind of value follows ("seat 7C", "room 2A",
/// "table 4"): request phrasing for the options that show that value,
/// where no option's words say the noun itself.
const VALUE_NOUNS: &[&str] =
    &["seat", "room", "row", "table", "gate", "platform", "desk", "slot", "spot", "suite", "cabin", "court", "lane", "bay", "locker"];

/// The value nouns ([`VALUE_NOUNS`]) right before a value some options
/// show, in digits and letters ("7c", "2a", "14"): a licence for the
/// options that show it (rule `value_noun`).
pub(super) fn value_nouns(toks: &[&str], roles: &mut [Role], licences: &mut Vec<Licence>, screen: &Screen<'_>) {
    for k in 0..toks.len().saturating_sub(1) {
        let (noun, code) = (toks[k], toks[k + 1]);
        // A number in words is a value as its digits are ("row fourteen").
        let digits = code.bytes().any(|b| b.is_ascii_digit());
        let spelled = !digits && licences.iter().any(|l| l.tok == k + 1 && l.rule == "value");
        if roles[k] != Role::Content || !VALUE_NOUNS.contains(&noun) || !(digits || spelled) {
            continue;
        }
        // A noun some label says ("exit row") is still the value's noun
        // where the value names options: "aisle, row 14" is the 14C.
        let a_label_word = screen.canon.any_word(noun, screen.stop);
        // After the noun, a code of digits and letters ("seat 4A") is the
        // code the options show as it is said, never the day or position
        // its letters may also spell ("4e", "4a": the 4th): "seat 4E" is
        // no "4A" read as the 4th. A number alone ("row 14") is a value.
        let literal: Vec<usize> = (0..screen.pool.len()).filter(|e| screen.canon.all_words(*e).any(|w| w == code)).collect();
        let coded = digits && code.bytes().any(|b| b.is_ascii_alphabetic());
        let mut entries: Vec<usize> = if !coded {
            let mut all: Vec<usize> =
                licences.iter().filter(|l| l.tok == k + 1 && l.rule == "value").flat_map(|l| l.entries.clone()).collect();
            all.extend(literal);
            all
        } else {
            for l in licences.iter_mut().filter(|l| l.tok == k + 1 && l.rule == "value") {
                l.entries.retain(|e| literal.contains(e));
            }
            licences.retain(|l| !(l.tok == k + 1 && l.rule == "value" && l.entries.is_empty()));
            literal
        };
        entries.sort_unstable();
        entries.dedup();
        // Where a label says the noun, only the options that show the
        // value and the noun alike ("Row 14") or the value alone may take it.
        if a_label_word && entries.is_empty() {
            continue;
        }
        if !entries.is_empty() {
            roles[k] = Role::Empty;
            licences.push(Licence { tok: k, word: noun.to_string(), entries, rule: "value_noun" });
        }
    }
}

/// A code of digits and letters ("8a", "4E") that some options show as
/// it is said names those, never the day or place its letters may also
/// spell ("8a", "8e": the 8th): "8a please" over "8A · window", "8E ·
/// middle" is 8A. Its value licences are narrowed to the options that
/// show it as said (as after a value noun, [`value_nouns`]); where none
/// does, the value reading stands, but never for an option that shows
/// another code of the same digits ("4e" is no "4A").
pub(super) fn codes_as_said(toks: &[&str], licences: &mut Vec<Licence>, screen: &Screen<'_>) {
    for (k, code) in toks.iter().enumerate() {
        let coded = code.bytes().any(|b| b.is_ascii_digit()) && code.bytes().any(|b| b.is_ascii_alphabetic());
        if !coded || !licences.iter().any(|l| l.tok == k && l.rule == "value") {
            continue;
        }
        let digits: String = code.chars().filter(char::is_ascii_digit).collect();
        let another_code = |w: &str| {
            w != *code && w.bytes().any(|b| b.is_ascii_alphabetic()) && w.chars().filter(char::is_ascii_digit).collect::<String>() == digits
        };
        let literal: Vec<usize> = (0..screen.pool.len()).filter(|e| screen.canon.all_words(*e).any(|w| w == *code)).collect();
        for l in licences.iter_mut().filter(|l| l.tok == k && l.rule == "value") {
            if literal.is_empty() {
                l.entries.retain(|e| !screen.canon.all_words(*e).any(another_code));
            } else {
                l.entries.retain(|e| literal.contains(e));
            }
        }
        licences.retain(|l| !(l.tok == k && l.rule == "value" && l.entries.is_empty()));
    }
}

/// A seat or place code said as one ("F8", "7c") where options show its
/// parts apart ("Fila F · asiento 8", "Row 7 · Seat C"): said for the
/// options that show its letter and its number each as a word of their
/// own (rule `code_parts`). Never where an option shows the code as said
/// (that is its word), nor where no option shows both parts.
pub(super) fn code_parts(toks: &[&str], roles: &mut [Role], screen: &Screen<'_>) -> Vec<Licence> {
    let mut out = Vec::new();
    for (k, code) in toks.iter().enumerate() {
        if roles[k] != Role::Content || code.len() > 4 {
            continue;
        }
        let Some((letter, digits)) = crate::values::code_parts(code) else { continue };
        if screen.stop.passed_now() || screen.canon.any_word(code, screen.stop) {
            continue;
        }
        let shows = |e: usize, part: &str| screen.canon.all_words(e).any(|w| w == part);
        let entries: Vec<usize> = (0..screen.pool.len()).filter(|e| shows(*e, letter) && shows(*e, digits)).collect();
        if entries.is_empty() {
            continue;
        }
        roles[k] = Role::Empty;
        out.push(Licence { tok: k, word: (*code).to_string(), entries, rule: "code_parts" });
    }
    out
}

/// Where `words` run in `toks`, from `from` on, and how many tokens they
/// take there: an article the canonical text leaves out ("the" of "9 in
/// the morning") is skipped.
fn run_at(toks: &[&str], words: &[&str], from: usize) -> Option<(usize, usize)> {
    let run = |words: &[&str]| {
        if words.is_empty() || words.len() > toks.len() {
            return None;
        }
        (from..=toks.len() - words.len()).find(|&i| toks[i..i + words.len()] == *words).map(|i| (i, words.len()))
    };
    run(words).or_else(|| {
        let kept: Vec<&str> = words.iter().copied().filter(|w| !matches!(*w, "the" | "a" | "an")).collect();
        (kept.len() < words.len()).then(|| run(&kept)).flatten()
    })
}

/// Words before a party's size ("Table for 4", "Mesa para 4").
const FOR: &[&str] = &["for", "para", "pour", "fur", "für", "per", "voor"];

/// Whether the option is for a party of `n` ("Table for 4", "Mesa para
/// 4"): a count of people ("4 people", "quattro persone") says it.
fn party_of(screen: &Screen<'_>, entry: usize, n: f64) -> bool {
    let c = screen.pool.entries[entry].cand;
    [&c.label, &c.sublabel].iter().any(|text| {
        values_at(text).iter().any(|(v, r)| {
            v.dim == Dim::Bare
                && v.amount == n
                && text[..r.start].trim_end().rsplit(' ').next().is_some_and(|w| FOR.contains(&w.to_lowercase().as_str()))
        })
    })
}

/// Whether `word`, a number, is only a piece of a value the option shows
/// that `said` does not name ("10" of "10:30", of "$10.50"): every place
/// the option shows it is inside such a value.
fn in_another_value(screen: &Screen<'_>, entry: usize, word: &str, said: &Value) -> bool {
    let c = screen.pool.entries[entry].cand;
    let mut inside = false;
    for text in [&c.label, &c.sublabel] {
        let text = &*crate::values::short_weekdays(text);
        let values = values_at(text);
        let mut at = 0;
        while let Some(found) = text[at..].find(word) {
            let (start, end) = (at + found, at + found + word.len());
            at = end;
            let digit = |i: Option<char>| i.is_some_and(|c| c.is_ascii_digit());
            if digit(text[..start].chars().next_back()) || digit(text[end..].chars().next()) {
                continue;
            }
            match values.iter().find(|(_, r)| r.start <= start && end <= r.end) {
                Some((v, _)) if v.dim != Dim::Bare && !said.names(v) => inside = true,
                _ => return false,
            }
        }
    }
    inside
}

/// The values an option shows (label and sublabel) that may name it: the
/// end of a span ("–3:45 PM", "to 7 pm") names nothing.
fn shown_values(screen: &Screen<'_>, entry: usize) -> Vec<Value> {
    let c = screen.pool.entries[entry].cand;
    let mut out = Vec::new();
    for text in [&c.label, &c.sublabel] {
        let text = &*crate::values::short_weekdays(text);
        for (v, range) in values_at(text) {
            let before = text[..range.start].trim_end();
            let ends_span = before.ends_with(['-', '\u{2013}', '\u{2014}'])
                && before[..before.len() - before.chars().next_back().map_or(0, char::len_utf8)]
                    .chars()
                    .next_back()
                    .is_some_and(char::is_alphanumeric);
            let until = before.rsplit(' ').next().is_some_and(|w| matches!(w.to_lowercase().as_str(), "to" | "until" | "till"));
            // "Morning Yoga" shows a word, not a time (`values::shown`).
            if !(ends_span || until || v.dim == Dim::DayPart) {
                out.push(v);
            }
        }
    }
    out
}

/// A size word ("medium", "large", "mediano") said of the options that
/// are sizes: those labelled only with a form of the same size ("M",
/// "Medium"), beside words every option says ("Maat M") and numbers ("M
/// (38–40)"), where two or more options are sizes.
fn size_licences(toks: &[&str], roles: &mut [Role], screen: &Screen<'_>, out: &mut Vec<Licence>) {
    let sizes = &screen.lex.sizes;
    // A word every option's label says ("Maat M", "Size M") is what they
    // all are: the size is the word left.
    let n = screen.pool.len();
    let common: Vec<&str> = if n >= 2 {
        screen
            .canon
            .label_words_of(0)
            .filter(|w| (1..n).take_while(|_| !screen.stop.passed()).all(|e| screen.canon.label_words_of(e).any(|x| x == *w)))
            .collect()
    } else {
        Vec::new()
    };
    let everyone = |w: &str| common.contains(&w);
    let size_of = |e: usize| {
        let mut words = screen.canon.label_words_of(e).filter(|w| !everyone(w) && !w.bytes().all(|b| b.is_ascii_digit()));
        match (words.next(), words.next()) {
            (Some(w), None) => sizes.get(w),
            _ => None,
        }
    };
    let of_size: Vec<Option<&String>> = (0..screen.pool.len()).map(size_of).collect();
    if of_size.iter().flatten().count() < 2 {
        return;
    }
    // A size said in two or three words is its form written as one
    // ("extra large" is "extralarge", "double xl" "doublexl").
    let mut k = 0;
    while k < toks.len() {
        let said = (1..=3.min(toks.len() - k)).rev().find_map(|n| {
            let joined = toks[k..k + n].concat();
            let free = roles[k..k + n].iter().all(|r| *r == Role::Content);
            sizes.get(&joined).filter(|_| free).map(|size| (n, joined, size))
        });
        let Some((n, word, size)) = said else {
            k += 1;
            continue;
        };
        let entries: Vec<usize> = (0..of_size.len()).filter(|e| of_size[*e] == Some(size)).collect();
        if !entries.is_empty() {
            roles[k..k + n].fill(Role::Empty);
            out.push(Licence { tok: k, word, entries, rule: "size" });
        }
        k += n;
    }
}

/// A part of today said without "today" ("tonight", "this evening", "ce
/// soir", "vanavond": the lexicon's `today_phrases`) where options show
/// their days: said for the options whose label says today ("Today 5
/// PM", "Tonight 8 PM": `today_words`), as a value is (rule `today`); the
/// part of the day it names narrows them as its value does ("this
/// evening" over "Today 9 AM", "Today 5 PM", "Tomorrow 5 PM" is the 5
/// PM of today); where no option of today is in it, nothing ("this
/// morning" over "Tomorrow 9:00" alone is asked). Never where an option
/// shows no day (it may be today's), nor where a word of the phrase is
/// a label's (the word names it).
pub(super) fn today_licences(toks: &[&str], roles: &mut [Role], licences: &mut Vec<Licence>, screen: &Screen<'_>) {
    let lex = screen.lex;
    let mut k = 0;
    while k < toks.len() {
        let Some(n) = lex.today_phrases.match_at(toks, k) else {
            k += 1;
            continue;
        };
        let span = k..k + n;
        k += n;
        if roles[span.clone()].iter().any(|r| !matches!(r, Role::Content | Role::Empty))
            || screen.stop.passed_now()
            || toks[span.clone()].iter().any(|t| screen.canon.any_word(t, screen.stop))
        {
            continue;
        }
        // Each option's values are read once, within the deadline.
        let mut shown = Vec::with_capacity(screen.pool.len());
        for e in &screen.pool.entries {
            if screen.stop.passed() {
                return;
            }
            shown.push(crate::values::shown(e.cand));
        }
        let days: Vec<Option<ShownDay>> =
            (0..screen.pool.len()).map(|e| lex.shown_day(&screen.canon.all_words(e).collect::<Vec<_>>(), &shown[e])).collect();
        let today: Vec<bool> = days.iter().map(|d| *d == Some(ShownDay::Today)).collect();
        if days.iter().any(Option::is_none) || screen.stop.passed_now() {
            continue;
        }
        // The part of the day the phrase names, where it names one: of
        // today's options, those whose time is in it ("this afternoon"
        // is no "Today 11 AM").
        let parts: Vec<Value> =
            crate::values::values(&toks[span.clone()].join(" ")).into_iter().filter(|v| v.dim == Dim::DayPart).collect();
        let entries: Vec<usize> = (0..screen.pool.len()).filter(|e| today[*e] && parts.iter().all(|p| p.said_of(&shown[*e]))).collect();
        roles[span.clone()].fill(Role::Empty);
        if entries.is_empty() {
            // Its part of the day names no option of another day either.
            licences.retain(|l| !(span.contains(&l.tok) && l.rule == "value"));
        } else {
            licences.push(Licence { tok: span.start, word: toks[span].join(" "), entries, rule: "today" });
        }
    }
}

/// What the words single out, narrowed by the options the values said
/// show (`value_licences`): with nothing else said, the one option
/// every value names; with words that several options share, those of
/// them the values name. Words that point at another option than the
/// values do are split between them (asked).
pub(super) fn narrow(words: Words, licences: &[Licence], named: bool) -> Words {
    let mut sets = licences
        .iter()
        .filter(|l| matches!(l.rule, "value" | "size" | "short_form" | "quantity" | "synonym" | "compound" | "code_parts" | "today"))
        .map(|l| &l.entries);
    let Some(first) = sets.next() else { return words };
    let mut common = first.clone();
    let mut union = first.clone();
    for s in sets {
        common.retain(|e| s.contains(e));
        union.extend(s.iter().copied());
    }
    union.sort_unstable();
    union.dedup();
    let single = |mut among: Vec<usize>, typo: bool| match among.len() {
        0 => Words::Split(union.clone()),
        1 => Words::Unique { entry: among.remove(0), kind: if typo { MatchKind::Typo } else { MatchKind::Partial } },
        _ => Words::Shared { entries: among, typo },
    };
    match words {
        Words::None if named => Words::None,
        Words::None => single(common, false),
        Words::Unique { entry, kind } if common.contains(&entry) => Words::Unique { entry, kind },
        Words::Unique { entry, .. } => {
            let mut both = union.clone();
            both.push(entry);
            both.sort_unstable();
            both.dedup();
            Words::Split(both)
        }
        Words::Shared { entries, typo } => single(entries.into_iter().filter(|e| common.contains(e)).collect(), typo),
        w => w,
    }
}

/// Of options a value said and the words share, the one that is what
/// they say and no more ("2 tb" for "2 TB – $9.99/mo" beside "2 TB with
/// VPN – $14.99/mo"): its words but its values in digits are all said,
/// and every other one says a word more. A bundle that adds something
/// is not what the plain thing's words name. Nothing changes where two
/// or none are plain so.
pub(super) fn plain_of_share(words: Words, toks: &[&str], licences: &[Licence], screen: &Screen<'_>) -> Words {
    let Words::Shared { entries, typo: false } = &words else { return words };
    if entries.len() > 8 || !licences.iter().any(|l| l.rule == "value") {
        return words;
    }
    let more = |e: usize| {
        let label = &screen.pool.entries[e].cand.label;
        let mut name = String::with_capacity(label.len());
        let mut at = 0;
        // Values in digits only: a word that is also a value ("Morning
        // Run", "1:1 with Marco") stays a word of the name.
        let in_digits = |v: &Value, r: &std::ops::Range<usize>| {
            !matches!(v.dim, Dim::DayPart | Dim::Month | Dim::Weekday | Dim::Day) && label[r.clone()].bytes().any(|b| b.is_ascii_digit())
        };
        for (_, range) in values_at(label).into_iter().filter(|(v, r)| in_digits(v, r)) {
            name.push_str(&label[at.min(range.start)..range.start]);
            name.push(' ');
            // What the value is per ("$9.99/mo", "€5/month") is the value's.
            at = range.end;
            if label[at..].starts_with('/') {
                at = label[at..].find(char::is_whitespace).map_or(label.len(), |n| at + n);
            }
        }
        name.push_str(&label[at..]);
        let name = crate::text::normalize(&name);
        let name = crate::text::fold(&name);
        name.split(' ').filter(|w| !w.is_empty() && !w.bytes().any(|b| b.is_ascii_digit()) && !toks.contains(w)).count()
    };
    if screen.stop.passed_now() {
        return words;
    }
    let plain: Vec<usize> = entries.iter().copied().filter(|e| more(*e) == 0).collect();
    match plain[..] {
        [entry] => Words::Unique { entry, kind: MatchKind::Partial },
        _ => words,
    }
}

#[cfg(test)]
mod tests;
