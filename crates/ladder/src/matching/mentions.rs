//! Whole labels and aliases inside the input (the longest wins), the raw
//! input compared with the labels as sent, the input's structure
//! (negations, relations, plurals), and the words that name nothing
//! (request phrasing).
//!
//! Tests: `mentions/tests.rs`.

use super::index::CanonPool;
use super::index::is_number;
use super::{Licence, MatchKind, MatchParams, Mention, Relation, Role};
use crate::cost::DeadlineWatch;
use crate::lexicon::{Lexicon, PhraseSet};
use crate::scope::Pool;
use crate::text::words;
use rustc_hash::FxHashMap;

/// The raw input, compared case-insensitively with every label of the
/// pool: its ASCII check and lower-casing are done once, not per label.
pub(super) struct RawInput<'a> {
    pub(super) text: &'a str,
    /// `text` lower-cased, when it is not ASCII.
    lower: Option<String>,
}

impl<'a> RawInput<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        RawInput { text, lower: (!text.is_ascii()).then(|| text.to_lowercase()) }
    }

    /// Whether `label.trim()` equals the input, ignoring case (Unicode
    /// lower case), where `ascii` says whether `label` is ASCII (the caller
    /// knows it already).
    pub(super) fn eq_label(&self, label: &str, ascii: bool) -> bool {
        // Only text starting or ending with white space (ASCII, or a
        // non-ASCII byte: Unicode white space) needs trimming.
        let edge = |b: Option<&u8>| b.is_some_and(|b| b.is_ascii_whitespace() || !b.is_ascii());
        let label = if edge(label.as_bytes().first()) || edge(label.as_bytes().last()) { label.trim() } else { label };
        match &self.lower {
            // A non-ASCII label can equal ASCII input ("\u{212A}" lower-cases
            // to "k"), so only an ASCII one takes the byte comparison.
            None if ascii => label.eq_ignore_ascii_case(self.text),
            None => label.to_lowercase() == self.text.to_ascii_lowercase(),
            Some(lower) => label.to_lowercase() == *lower,
        }
    }
}

/// Whole labels and aliases inside the input, each run of input words
/// compared joined (so "linkspanel d" is "links panel d"). A label inside a
/// longer label the input names is dropped (the longest whole label wins);
/// two candidates with the same label both stay.
/// `raw_eq(entry)`: the raw input is the entry's raw label, ignoring case.
pub(super) fn label_mentions(
    toks: &[&str],
    core_start: usize,
    canon: &CanonPool,
    params: &MatchParams,
    stop: &DeadlineWatch,
    raw_eq: impl Fn(usize) -> bool,
) -> Vec<Mention> {
    let mut found: Vec<Mention> = Vec::new();
    if toks.is_empty() {
        return found;
    }
    // Every run of input words, joined, by its byte length: a label is
    // looked up only when some run is as long as it.
    let longest = canon.max_joined.min(4096);
    let mut runs: FxHashMap<String, Vec<(usize, usize)>> = FxHashMap::default();
    let mut lens = vec![false; longest + 1];
    for i in 0..toks.len() {
        let mut joined = String::new();
        for (j, t) in toks.iter().enumerate().skip(i) {
            if !params.joined_words && j > i {
                joined.push(' ');
            }
            joined.push_str(t);
            if joined.len() > longest {
                break;
            }
            lens[joined.len()] = true;
            runs.entry(joined.clone()).or_default().push((i, j + 1));
        }
    }
    let mut key = String::new();
    for idx in 0..canon.entries.len() {
        if stop.passed() {
            break;
        }
        for (n, (form, kind)) in canon.forms(idx).enumerate() {
            // Canonical text has single spaces: its joined length is known
            // without joining it (a label's, kept with the pool).
            let len = match (params.joined_words, n) {
                (false, _) => form.len(),
                (true, 0) => canon.entries[idx].label_joined as usize,
                (true, _) => form.len() - form.bytes().filter(|b| *b == b' ').count(),
            };
            if len == 0 || !lens.get(len).copied().unwrap_or(false) {
                continue;
            }
            key.clear();
            for (n, w) in form.split(' ').filter(|w| !w.is_empty()).enumerate() {
                if n > 0 && !params.joined_words {
                    key.push(' ');
                }
                key.push_str(w);
            }
            if let Some(spans) = runs.get(key.as_str()) {
                for &span in spans {
                    let whole = span == (core_start, toks.len()) || span == (0, toks.len());
                    let kind = match kind {
                        MatchKind::Alias if whole => MatchKind::Alias,
                        _ if whole && raw_eq(idx) => MatchKind::Exact,
                        _ if whole => MatchKind::Normalized,
                        _ => MatchKind::Label,
                    };
                    found.push(Mention { span, entry: idx, kind });
                }
            }
        }
    }
    // The longest whole label: drop a reference lying strictly inside
    // another one's words (of another candidate).
    let inside = |a: &Mention, b: &Mention| b.span.0 <= a.span.0 && a.span.1 <= b.span.1 && b.span != a.span;
    let dropped: Vec<bool> = found.iter().map(|a| params.longest_label && found.iter().any(|b| inside(a, b))).collect();
    let mut kept: Vec<Mention> = found.into_iter().zip(dropped).filter(|(_, d)| !d).map(|(m, _)| m).collect();
    kept.sort_by_key(|m| (m.span.0, std::cmp::Reverse(m.kind)));
    kept.dedup_by(|a, b| a.entry == b.entry && a.span == b.span);
    kept
}

/// Negations, relations and plurals, outside references.
#[derive(Debug, Default)]
pub(super) struct Structure {
    /// The token where the first negation starts.
    pub(super) negation_at: Option<usize>,
    pub(super) relation: Option<Relation>,
    pub(super) plural: bool,
}

pub(super) fn read_structure(toks: &[&str], roles: &mut [Role], canon: &CanonPool, lex: &Lexicon, stop: &DeadlineWatch) -> Structure {
    let mut s = Structure::default();
    let mut i = 0;
    while i < toks.len() {
        if roles[i] != Role::Content {
            i += 1;
            continue;
        }
        let free = |n: usize| roles[i..i + n].iter().all(|r| *r == Role::Content);
        // "no 5" is a position, not a negation, unless 5 is a label's word
        // ("no 7" with an option "7" may exclude it: never read as a pick).
        let before_number = toks.get(i + 1).is_some_and(|t| (is_number(t) || lex.cardinals.contains_key(*t)) && !canon.any_word(t, stop));
        if lex.ordinals.value_at(toks, i).is_some_and(|(n, _)| n > 1 && free(n)) {
            // A multi-word position ("second to last", "next to last")
            // holds relation words that relate nothing.
            i += lex.ordinals.value_at(toks, i).map_or(1, |(n, _)| n);
            continue;
        }
        // A longer phrase is read whole ("no one", "no longer"). A
        // negation or a relation a label says with a word beside it
        // ("refund not received" with "#4815 Refund not received", "the
        // next episode" with "Next episode: S1:E3") is that label's.
        let in_label = |n: usize| {
            (i > 0 && canon.has_run(&toks[i - 1..i + n], stop)) || (i + n < toks.len() && canon.has_run(&toks[i..i + n + 1], stop))
        };
        if let Some(n) = lex
            .negations
            .match_at(toks, i)
            .filter(|n| free(*n) && !(*n == 1 && before_number && lex.ordinal_prefixes.contains(toks[i])) && !in_label(*n))
        {
            s.negation_at.get_or_insert(i);
            roles[i..i + n].fill(Role::Empty);
            i += n;
        } else if let Some(n) = lex.relations.match_at(toks, i).filter(|n| free(*n) && !in_label(*n)) {
            let word = toks[i..i + n].join(" ");
            s.relation = Some(match word.as_str() {
                w if w.starts_with("before")
                    || w.starts_with("previous")
                    || w.starts_with("preceding")
                    || w.starts_with("prior")
                    || w == "above"
                    || w.starts_with("left")
                    || w.starts_with("to the left")
                    || w == "over" =>
                {
                    Relation::Before
                }
                w if w.starts_with("next to") || w == "beside" || w.starts_with("right") || w.starts_with("to the right") => {
                    Relation::Beside
                }
                _ => Relation::After,
            });
            roles[i..i + n].fill(Role::Empty);
            i += n;
        } else if let Some(n) = lex.plurals.match_at(toks, i).filter(|n| free(*n)) {
            s.plural = true;
            roles[i..i + n].fill(Role::Empty);
            i += n;
        } else {
            i += 1;
        }
    }
    s
}

/// Verbs of selection, function words, conjunctions, polite openers,
/// deictic words and list nouns name nothing: request phrasing.
pub(super) fn mark_empty_words(toks: &[&str], roles: &mut [Role], canon: &CanonPool, lex: &Lexicon, stop: &DeadlineWatch) {
    let mut i = 0;
    while i < toks.len() {
        if roles[i] != Role::Content {
            i += 1;
            continue;
        }
        // Cancel words are not among them: "cancel my reservation" asks for
        // something "Reservation" does not say.
        // A verb after a conjunction starts a second request ("budget or
        // send it"): it is content, which no candidate explains.
        let after_conjunction =
            i > 0 && roles[i - 1] == Role::Empty && (0..i).rev().any(|j| lex.conjunctions.match_at(toks, j) == Some(i - j));
        // Past the first word, a verb a label has is that label's word ("pad
        // see ew" with "Pad See Ew").
        let label_word = i > 0 && canon.any_word(toks[i], stop);
        // A conjunction a label says after the word before it is that
        // label's ("standard plus" with "Standard Plus").
        if label_word
            && roles[i - 1] != Role::Empty
            && lex.conjunctions.match_at(toks, i).is_some()
            && canon.has_run(&toks[i - 1..=i], stop)
        {
            i += 1;
            continue;
        }
        // So is one a label says that joins nothing: no word names
        // anything before it ("the plus plan" with "SIM Only Plus 20 GB";
        // "and the overstory too" goes on, as "and" and "also" do).
        if roles[..i].iter().all(|r| *r == Role::Empty)
            && lex.conjunctions.match_at(toks, i) == Some(1)
            && lex.additive_openers.match_at(toks, i).is_none()
            && i + 1 < toks.len()
            && canon.any_word(toks[i], stop)
        {
            i += 1;
            continue;
        }
        // The everyday verbs of choosing an item ("add", "grab") are
        // phrasing too where no label has them and no
        // option is an action of its own ("add a garlic naan" on a menu;
        // never "add" beside "Delete file").
        let everyday = !after_conjunction && !canon.any_word(toks[i], stop) && !options_act(canon, lex, stop);
        let sets: &[&PhraseSet] = if after_conjunction || label_word {
            &[&lex.conjunctions, &lex.request_openers]
        } else if everyday {
            &[&lex.selection_verbs, &lex.everyday_verbs, &lex.conjunctions, &lex.request_openers, &lex.partitives]
        } else {
            &[&lex.selection_verbs, &lex.conjunctions, &lex.request_openers, &lex.partitives]
        };
        let phrase =
            sets.iter().filter_map(|set| set.match_at(toks, i)).filter(|n| roles[i..i + n].iter().all(|r| *r == Role::Content)).max();
        if let Some(n) = phrase {
            roles[i..i + n].fill(Role::Empty);
            i += n;
            continue;
        }
        if lex.function_words.contains(toks[i]) || lex.deictic.contains(toks[i]) || lex.ordinal_suffixes.contains(toks[i]) {
            roles[i] = Role::Empty;
        }
        i += 1;
    }
}

/// What the rules that read a word for some entries only are given: the
/// pool, its index, the lexicon and the switches.
pub(super) struct Screen<'a> {
    pub(super) pool: &'a Pool<'a>,
    pub(super) canon: &'a CanonPool,
    pub(super) lex: &'a Lexicon,
    pub(super) params: &'a MatchParams,
    pub(super) stop: &'a DeadlineWatch,
}

impl Screen<'_> {
    pub(super) fn high_risk(&self, entry: usize) -> bool {
        self.pool.entries[entry].cand.is_high_risk(&self.params.high_risk_kinds)
    }

    /// The canonical words of the entry's label, sublabel and kind.
    fn shown_words(&self, entry: usize) -> Vec<String> {
        let c = self.pool.entries[entry].cand;
        let mut out: Vec<String> = self.canon.label_words_of(entry).map(str::to_owned).collect();
        for text in [&c.sublabel, &c.kind] {
            if !text.trim().is_empty() {
                out.extend(words(&crate::canon::canonicalize(text, self.lex)).map(str::to_owned));
            }
        }
        out
    }

    /// Whether `t` is a word any candidate shows (label, alias, sublabel,
    /// kind): such a word names that candidate, never the screen's subject.
    fn any_shows(&self, t: &str) -> bool {
        self.canon.any_word(t, self.stop) || (0..self.pool.len()).any(|e| self.shown_words(e).iter().any(|w| w == t))
    }

    /// Whether `t` may be the object a verb acts on, the screen's subject
    /// that no option says ("pickup", "lee's invite"): a word no candidate
    /// shows, that asks for nothing of its own (no verb of choosing, number
    /// or cancel word; no action either, unless `nouns`: after a bare
    /// action, "the invite" is its object).
    fn free_object(&self, t: &str, nouns: bool) -> bool {
        let lex = self.lex;
        !self.any_shows(t)
            && (nouns || !lex.actions.contains(t) && !lex.verb_nouns.contains(t))
            && !lex.selection_verbs.is_phrase(&[t])
            && !lex.everyday_verbs.is_phrase(&[t])
            && !lex.cancel_vocabulary.contains(t)
            && !t.chars().any(|c| c.is_ascii_digit())
            && !crate::values::is_number_word(t)
    }

    /// The entries `verb` is the everyday way to choose, high-risk ones
    /// aside: by what they are (the lexicon's `verb_fits`: "book" a room,
    /// "pay" a bill) or by the kind of value they show (`value_fits`:
    /// "order" what has a price, "attend" what is at a time).
    fn fitting(&self, verb: &str) -> Vec<usize> {
        use crate::values::Dim;
        let nouns = self.lex.verb_fits.get(verb);
        let kinds = self.lex.value_fits.get(verb);
        if nouns.is_none() && kinds.is_none() {
            return Vec::new();
        }
        let fits = |w: &str| nouns.is_some_and(|n| n.contains(w) || w.strip_suffix('s').is_some_and(|s| n.contains(s)));
        let of_kind = |d: Dim, kind: &str| match kind {
            "price" => d == Dim::Price,
            "time" => matches!(d, Dim::Clock | Dim::Weekday | Dim::Day | Dim::Month),
            _ => false,
        };
        let valued = |e: usize| {
            kinds.is_some_and(|k| crate::values::shown(self.pool.entries[e].cand).iter().any(|v| k.iter().any(|k| of_kind(v.dim, k))))
        };
        // An option that is another action than choosing ("Dispute gas
        // bill") is no item the verb chooses.
        let lex = self.lex;
        let acts_otherwise = |e: usize| {
            self.canon.label_words_of(e).next().is_some_and(|w| {
                lex.actions.contains(w) && w != verb && !lex.selection_verbs.is_phrase(&[w]) && !lex.everyday_verbs.is_phrase(&[w])
            })
        };
        (0..self.pool.len())
            .filter(|e| !self.high_risk(*e) && !acts_otherwise(*e) && (self.shown_words(*e).iter().any(|w| fits(w)) || valued(*e)))
            .collect()
    }
}

/// The everyday verb for such an item, said as the request's verb ("pay
/// the gas bill", "attend the webinar", "install the update", "order a
/// cappuccino" where it shows a price): a verb of the lexicon's
/// `verb_fits` or `value_fits` that no option has as a word is request
/// phrasing for the options it fits (a [`Licence`] for those, rule
/// `verb_fits`) and left over for every other one. A verb that fits no
/// option stays a word of its own ("pay the latte" asks), and so does a
/// verb after other words ("the gas bill, pay it" is not read here).
pub(super) fn fitting_verbs(toks: &[&str], roles: &mut [Role], screen: &Screen<'_>) -> Vec<Licence> {
    let lex = screen.lex;
    let mut out = Vec::new();
    let Some(i) = roles.iter().position(|r| *r != Role::Empty) else { return out };
    let t = toks[i];
    if roles[i] != Role::Content
        || !(lex.verb_fits.contains_key(t) || lex.value_fits.contains_key(t))
        || screen.canon.any_word(t, screen.stop)
    {
        return out;
    }
    let fitting = screen.fitting(t);
    if !fitting.is_empty() {
        roles[i] = Role::Empty;
        out.push(Licence { tok: i, word: t.to_string(), entries: fitting, rule: "verb_fits" });
    }
    out
}

/// A word that says what kind of thing options are, from their `kind`
/// ("the offer from Acme" where the options are offers, "text dad" where
/// they are contacts): said of those options, as their label's words are,
/// and left over for any other (a licence, rule `kind`). A word some label
/// says is that label's, not read here.
pub(super) fn kind_words(toks: &[&str], roles: &mut [Role], screen: &Screen<'_>) -> Vec<Licence> {
    let mut out = Vec::new();
    let left: Vec<usize> =
        (0..toks.len()).filter(|k| roles[*k] == Role::Content && !screen.canon.any_word(toks[*k], screen.stop)).collect();
    if left.is_empty() {
        return out;
    }
    // Each distinct kind as typed, normalized once; each entry knows its
    // kind by its place among them (kept with a pool sent again).
    let index = screen.canon.kind_index(screen.pool);
    let raw = |k: &u32| screen.pool.entries[*k as usize].cand.kind.as_str();
    if index.first.iter().all(|k| raw(k).is_empty()) {
        return out;
    }
    let kinds: Vec<String> = index.first.iter().map(|k| crate::text::normalize(raw(k))).collect();
    let of = &index.of;
    for k in left {
        let t = toks[k];
        let singular = t.strip_suffix('s');
        let says: Vec<bool> = kinds.iter().map(|n| n.split(' ').any(|w| !w.is_empty() && (w == t || Some(w) == singular))).collect();
        if !says.contains(&true) {
            continue;
        }
        let entries: Vec<usize> = (0..of.len()).filter(|e| says[of[*e] as usize]).collect();
        if !entries.is_empty() {
            roles[k] = Role::Empty;
            out.push(Licence { tok: k, word: t.to_string(), entries, rule: "kind" });
        }
    }
    out
}

/// The everyday verb, read as a careful person reads it: the
/// words a verb frame accounts for, for the one option named whole in it.
/// Each such word becomes phrasing (`Role::Empty`) and a [`Licence`] for
/// that option alone; a high-risk option takes none (its label whole,
/// nothing else).
///
/// - **set ... to**: "set the pickup to work", "change the theme to dark":
///   a setting verb, the thing set, a link word, then the option named
///   whole, and nothing after; the thing set is words no option shows.
/// - **a bare action and its object**: "accept Lee's invite", "decline the
///   invite" where the option is an action that answers what the screen
///   holds, alone ("Accept", "Join now": the lexicon's `responses`):
///   what follows is what it acts on, when no option shows any of it and it
///   asks for nothing of its own (no second verb, no "and").
pub(super) fn verb_frames(toks: &[&str], roles: &mut [Role], mentions: &[Mention], screen: &Screen<'_>) -> Vec<Licence> {
    let lex = screen.lex;
    let mut out = Vec::new();
    let whole: Vec<&Mention> = mentions.iter().filter(|m| m.kind.tier() == super::MatchTier::Label).collect();
    if mentions.is_empty() {
        return set_to_words(toks, roles, screen);
    }
    // Set ... to a part of one option, no label said whole ("set my home
    // clock to +2" for "UTC+2 (Johannesburg)"): the setting verb and the
    // thing set are phrasing for that option, as they are for a label.
    if whole.is_empty() {
        let entry = mentions[0].entry;
        if mentions.iter().any(|o| o.entry != entry) || screen.high_risk(entry) {
            return out;
        }
        let start = mentions.iter().map(|o| o.span.0).min().unwrap_or(0);
        let end = mentions.iter().map(|o| o.span.1).max().unwrap_or(0);
        set_to(toks, roles, screen, entry, (start, end), &mut out);
        return out;
    }
    let [m] = whole[..] else { return out };
    if screen.high_risk(m.entry) || mentions.iter().any(|o| o.entry != m.entry) {
        return out;
    }
    let grant = |out: &mut Vec<Licence>, roles: &mut [Role], k: usize, rule: &'static str| {
        if roles[k] == Role::Content {
            roles[k] = Role::Empty;
            out.push(Licence { tok: k, word: toks[k].to_string(), entries: vec![m.entry], rule });
        }
    };
    let (start, end) = m.span;
    let first = roles.iter().position(|r| *r != Role::Empty).unwrap_or(0);
    let rest_empty = roles[end..].iter().all(|r| *r == Role::Empty);
    // Set ... to <option>.
    if set_to(toks, roles, screen, m.entry, m.span, &mut out) {
        return out;
    }
    // A verb and its particle around the option ("turn the bedroom lamp
    // on" for "Bedroom lamp"): the verb of choosing said in two parts.
    if start > first && roles[first] == Role::Content && roles[first + 1..start].iter().all(|r| *r == Role::Empty) && rest_empty {
        let split = (end..toks.len()).any(|k| {
            let pair = [toks[first], toks[k]];
            lex.selection_verbs.is_phrase(&pair) || lex.everyday_verbs.is_phrase(&pair)
        });
        if split {
            grant(&mut out, roles, first, "split_verb");
            return out;
        }
    }
    // <a bare action> <its object>.
    let label: Vec<&str> = screen.canon.label_words_of(m.entry).collect();
    // The label's action is the request's verb: no other verb before it,
    // and no word that is as often the item ("Order", "Report": a noun).
    let bare_action = !label.is_empty() && label.len() <= 2 && lex.responses.contains(label[0]) && !lex.verb_nouns.contains(label[0]);
    let verb_before = (0..start).any(|k| lex.selection_verbs.match_at(toks, k).is_some() || lex.everyday_verbs.match_at(toks, k).is_some());
    if bare_action && start == first && !verb_before && end < toks.len() {
        let joins = (end..toks.len()).any(|k| roles[k] == Role::Empty && lex.conjunctions.is_phrase(&[toks[k]]));
        let free = (end..toks.len()).all(|k| roles[k] != Role::Content || screen.free_object(toks[k], true));
        if !joins && free {
            for k in end..toks.len() {
                grant(&mut out, roles, k, "action_object");
            }
        }
    }
    out
}

/// Set ... to <option> (its words at `span`, the rest of the input
/// empty): a setting verb opening the input, the thing set (words no
/// option shows), the link word before the option. The verb and the
/// thing are phrasing for `entry` (rule `set_to`). Whether the input is
/// so shaped (granted or not: a thing set that an option shows is not).
fn set_to(toks: &[&str], roles: &mut [Role], screen: &Screen<'_>, entry: usize, span: (usize, usize), out: &mut Vec<Licence>) -> bool {
    let lex = screen.lex;
    let (start, end) = span;
    let first = roles.iter().position(|r| *r != Role::Empty).unwrap_or(0);
    let rest_empty = roles[end..].iter().all(|r| *r == Role::Empty);
    if !(rest_empty && start >= 2 && lex.setting_links.contains(toks[start - 1])) {
        return false;
    }
    if let Some(n) = lex.setting_verbs.match_at(toks, first).filter(|n| first + n < start) {
        let between = first + n..start - 1;
        let free = between.clone().all(|k| roles[k] == Role::Empty || (roles[k] == Role::Content && screen.free_object(toks[k], false)));
        if free {
            for k in (first..first + n).chain(between) {
                if roles[k] == Role::Content {
                    roles[k] = Role::Empty;
                    out.push(Licence { tok: k, word: toks[k].to_string(), entries: vec![entry], rule: "set_to" });
                }
            }
        }
    }
    true
}

/// Set ... to an option named by its words, not whole ("set pickup to
/// home" for "Home · 12 Oak St"): a setting verb opening the input, the
/// thing set (words no option shows), a link word, then words that all
/// belong to one option and to no other together. The verb and the thing
/// set are request phrasing for that option alone (rule `set_to`); what
/// follows the link is read as any words are.
fn set_to_words(toks: &[&str], roles: &mut [Role], screen: &Screen<'_>) -> Vec<Licence> {
    let lex = screen.lex;
    let mut out = Vec::new();
    let Some(first) = roles.iter().position(|r| *r != Role::Empty) else { return out };
    let Some(n) = lex.setting_verbs.match_at(toks, first) else { return out };
    let Some(link) = (first + n + 1..toks.len()).find(|k| lex.setting_links.contains(toks[*k])) else { return out };
    let thing = first + n..link;
    // The thing set is the screen's subject: words no option shows, or
    // that every option shows ("set the theme to dark" over "Blue theme",
    // "Dark theme", "Light theme").
    let everyones = |t: &str| (0..screen.pool.len()).all(|e| screen.shown_words(e).iter().any(|w| w == t));
    if !thing
        .clone()
        .all(|k| roles[k] == Role::Empty || (roles[k] == Role::Content && (screen.free_object(toks[k], false) || everyones(toks[k]))))
    {
        return out;
    }
    let said: Vec<&str> = (link + 1..toks.len()).filter(|k| roles[*k] == Role::Content).map(|k| toks[k]).collect();
    if said.is_empty() || (link + 1..toks.len()).any(|k| !matches!(roles[k], Role::Content | Role::Empty)) {
        return out;
    }
    let Some(owners) = screen.canon.owners_of_words(&said, screen.stop) else { return out };
    let mut common = owners[0].clone();
    for o in &owners[1..] {
        common.retain(|e| o.contains(e));
    }
    let [entry] = common[..] else { return out };
    if screen.high_risk(entry) {
        return out;
    }
    for k in (first..first + n).chain(thing) {
        if roles[k] == Role::Content || k < first + n {
            roles[k] = Role::Empty;
            out.push(Licence { tok: k, word: toks[k].to_string(), entries: vec![entry], rule: "set_to" });
        }
    }
    out
}

/// A word that is a generic noun in one sense and an action in another
/// ("track", "book", "order": the lexicon's `verb_nouns`), said as the
/// request's verb (the first word, or after one of `verb_leads`: "to",
/// "can you", "please"), asks for that action: it is neither phrasing nor
/// a noun describing the referent, and only a candidate whose own words
/// say it accounts for it ("track my parcel" is not "Parcel status"; "my
/// order", "the order one" keep the noun). Marks each `Role::Verb`;
/// whether there was one. Read when nothing is named by label, position
/// or badge ("order the second one", "book the 7pm slot" name their item),
/// and then (`named`, when what is named is itself an action) only for a
/// verb that is not the everyday way to choose an item: "track my order"
/// is not "Order", but "order the pad thai" is "Pad Thai".
///
/// With nothing named, the everyday verb for choosing such an item ("book"
/// a room: the lexicon's `verb_fits`) is phrasing for the options it fits
/// (a [`Licence`] for those), never a word of its own.
pub(super) fn mark_verb_uses(toks: &[&str], roles: &mut [Role], screen: &Screen<'_>, named: bool, licences: &mut Vec<Licence>) -> bool {
    let lex = screen.lex;
    let mut any = false;
    for i in 0..toks.len() {
        if roles[i] == Role::Reference || !lex.verb_nouns.contains(toks[i]) {
            continue;
        }
        // "Track 7": a noun before the number it counts in.
        if named && (lex.everyday_verbs.is_phrase(&toks[i..=i]) || toks.get(i + 1).is_some_and(|t| super::index::is_number(t))) {
            continue;
        }
        if i == 0 || (0..i).any(|j| lex.verb_leads.match_at(toks, j) == Some(i - j)) {
            let fitting = if named { Vec::new() } else { screen.fitting(toks[i]) };
            if !fitting.is_empty() {
                roles[i] = Role::Empty;
                licences.push(Licence { tok: i, word: toks[i].to_string(), entries: fitting, rule: "verb_fits" });
                continue;
            }
            roles[i] = Role::Verb;
            any = true;
        }
    }
    any
}

/// The most options whose label words are scanned for a word said as two
/// ("check out") when the pool keeps no vocabulary.
const JOINED_SCAN: usize = 64;

/// The input in the words of a label it says otherwise: a verb and its
/// particle split by a pronoun ("check me in" for "Check in", "turn it
/// on" for "Turn on"), or a feature negated by another negation word than
/// the label's ("cheeseburger without onions" for "Cheeseburger — no
/// onions"), or one word of a label said as two ("check out" for "Go to
/// checkout", "log in" for "Login"). `None` when nothing is said
/// otherwise. A label's own phrasing is no negation of it and no word
/// left over.
pub fn in_the_labels_words(text: &str, canon: &CanonPool, lex: &Lexicon) -> Option<String> {
    const PRONOUNS: &[&str] = &["me", "it", "us", "him", "her", "them", "you", "this", "that"];
    let toks: Vec<&str> = text.split(' ').filter(|t| !t.is_empty()).collect();
    let negation = |t: &str| lex.negations.is_phrase(&[t]);
    // A word of some label: looked up in the pool's vocabulary, else, on
    // a short screen, in its labels' words.
    let label_word = |w: &str| match canon.entries_with_any([w]) {
        Some(owners) => !owners.is_empty(),
        None => canon.entries.len() <= JOINED_SCAN && (0..canon.entries.len()).any(|e| canon.label_words_of(e).any(|x| x == w)),
    };
    let joined = |i: usize| -> Option<String> {
        let (a, b) = (*toks.get(i)?, *toks.get(i + 1)?);
        let alpha = |t: &str| t.chars().all(char::is_alphabetic);
        if !(alpha(a) && alpha(b)) || a.len() + b.len() < 5 || lex.function_words.contains(a) {
            return None;
        }
        let one = format!("{a}{b}");
        (!label_word(a) && !label_word(b) && label_word(&one)).then_some(one)
    };
    let any_joined = toks.len() >= 2 && (0..toks.len() - 1).any(|i| joined(i).is_some());
    if any_joined {
        let mut out: Vec<String> = Vec::with_capacity(toks.len());
        let mut i = 0;
        while i < toks.len() {
            match joined(i) {
                Some(one) => {
                    out.push(one);
                    i += 2;
                }
                None => {
                    out.push(toks[i].to_string());
                    i += 1;
                }
            }
        }
        let text = out.join(" ");
        return Some(in_the_labels_words(&text, canon, lex).unwrap_or(text));
    }
    if !toks.iter().any(|t| PRONOUNS.contains(t) || negation(t)) {
        return None;
    }
    let pairs: Vec<(&str, &str)> = (0..canon.entries.len())
        .flat_map(|e| {
            let words: Vec<&str> = canon.label_words_of(e).collect();
            words.windows(2).map(|w| (w[0], w[1])).collect::<Vec<_>>()
        })
        .collect();
    let mut out: Vec<&str> = Vec::with_capacity(toks.len());
    let mut changed = false;
    let mut i = 0;
    while i < toks.len() {
        if i + 2 < toks.len() && PRONOUNS.contains(&toks[i + 1]) && pairs.contains(&(toks[i], toks[i + 2])) {
            out.extend([toks[i], toks[i + 2]]);
            changed = true;
            i += 3;
            continue;
        }
        if i + 1 < toks.len()
            && negation(toks[i])
            && let Some((own, _)) = pairs.iter().find(|(n, x)| *x == toks[i + 1] && *n != toks[i] && negation(n))
        {
            out.push(own);
            changed = true;
            i += 1;
            continue;
        }
        out.push(toks[i]);
        i += 1;
    }
    changed.then(|| out.join(" "))
}

/// Whether some option's label opens with an action word ("Delete file",
/// "Add to favorites"): the options do things, so an everyday verb may
/// name one of them.
fn options_act(canon: &CanonPool, lex: &Lexicon, stop: &DeadlineWatch) -> bool {
    (0..canon.entries.len()).any(|e| !stop.passed() && canon.label_words_of(e).take(1).any(|w| lex.actions.contains(w)))
}

/// An input that is nothing but phrasing cannot be phrasing: its verbs of
/// selection that a label has are words ("the run" with "Long Run", "play"
/// with "Play Store"). Function words stay what they are ("thanks for
/// that" names nothing, whatever "Who do you work for" holds).
pub(super) fn unless_only_phrasing(toks: &[&str], roles: &mut [Role], canon: &CanonPool, lex: &Lexicon, stop: &DeadlineWatch) {
    if roles.iter().any(|r| *r != Role::Empty) {
        return;
    }
    for (i, t) in toks.iter().enumerate() {
        if lex.selection_verbs.starts_with(t) && !lex.function_words.contains(*t) && canon.any_word(t, stop) {
            roles[i] = Role::Content;
        }
    }
}

#[cfg(test)]
mod tests;
