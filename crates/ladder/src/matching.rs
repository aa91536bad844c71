//! Matching: what the canonical input names in the pool, read the way a
//! careful person reads it (spec sections 4 and 4b).
//!
//! [`find`] finds every reference the input makes and the words around them:
//!
//! - **whole labels** (and aliases): a label whose words, joined, are some
//!   run of input words, joined ("linkspanel d" names "Links Panel D"). A
//!   label found inside a longer label that the input also names is not a
//!   second reference ("iphone 15 pro max" names only the Pro Max);
//! - **positions**: ordinals in every common form ("the third song", "2nd",
//!   "number 5", "option two", "#4", "the 25th one", "last", "second to
//!   last", "the middle one", "the top one"); a position a label word also
//!   spells is read as that word;
//! - **badges**: the trailing letter or number of a label ("panel d");
//! - **words**: every other word that is neither filler, a verb of
//!   selection, a word that names nothing, nor a generic noun ("the refund
//!   ticket"): which candidates contain it, exactly or, when no label word
//!   is spelled so, within a small edit bound that no other word is within;
//! - **structure**: negations ("not the first", "anything but c"),
//!   relations ("the one after c"), plurals ("both").
//!
//! The result, a [`Reading`], says which candidates are named, excluded or
//! related, and what the remaining words single out; `classify` turns it
//! into confidence, the clarifier into the options it offers. Matching
//! itself decides nothing.
//!
//! When nothing is named, a fuzzy rung (`rapidfuzz`: bit-parallel
//! Levenshtein over the whole input, the query preprocessed once) ranks the
//! pool for the clarifier and the LLM; it never decides on its own.

use super::canon::{canonicalize, canonicalize_into, canonicalize_words_into};
use super::lexicon::{Lexicon, PhraseSet};
use super::scope::Pool;
use super::text::tokens;
use super::types::Candidate;
use crate::deadline::{Deadline, DeadlinePassed};
use rapidfuzz::distance::levenshtein::{Args, BatchComparator};
use rustc_hash::FxHashMap;
use std::hash::BuildHasher;

wire_enum! {
    "snake_case",
    /// Kinds of match, weakest first (the derived order is their strength).
    #[derive(PartialOrd, Ord)]
    pub enum MatchKind {
        /// The whole input is similar to the label (ranking only).
        Fuzzy,
        /// Some of the input's words are in the label (ranking only).
        Containment,
        /// The words single the candidate out through a typo no other
        /// candidate is near.
        Typo,
        /// Every content word of the input is in this candidate's label or
        /// aliases, and in no other's together.
        Partial,
        /// The input is the one word that tells the candidate apart ("q2").
        Shorthand,
        /// A trailing letter or number of the label ("panel d").
        Badge,
        /// A position ("the second one").
        Ordinal,
        /// The whole label, inside a longer input ("turn on the kitchen
        /// lights"), longer labels first.
        Label,
        /// An alias, whole.
        Alias,
        /// The canonical label, whole.
        Normalized,
        /// The label as sent, ignoring case.
        Exact,
    }
}

/// Kinds that are equally decisive form one tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MatchTier {
    Fuzzy,
    Containment,
    Words,
    Positional,
    Label,
}

impl MatchKind {
    pub fn tier(self) -> MatchTier {
        match self {
            MatchKind::Fuzzy => MatchTier::Fuzzy,
            MatchKind::Containment => MatchTier::Containment,
            MatchKind::Typo | MatchKind::Partial | MatchKind::Shorthand => MatchTier::Words,
            MatchKind::Badge | MatchKind::Ordinal => MatchTier::Positional,
            MatchKind::Label | MatchKind::Alias | MatchKind::Normalized | MatchKind::Exact => MatchTier::Label,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// Index into `Pool::entries`.
    pub entry: usize,
    pub kind: MatchKind,
    /// In [0, 1]; comparable within a kind.
    pub score: f32,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CommandHit {
    /// Index into `DecideRequest::commands`.
    pub index: usize,
    /// The input is the command (or an alias) and nothing else.
    pub exact: bool,
}

/// The input prepared for matching.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// Canonical input without the scope cue.
    pub full: String,
    /// `full` without a leading selection verb ("open links panel d" ->
    /// "links panel d"); equal to `full` when there is no verb.
    pub core: String,
}

impl Query {
    pub fn new(full: String, lex: &Lexicon) -> Self {
        let toks: Vec<&str> = tokens(&full).collect();
        let core = match (!toks.is_empty()).then(|| lex.selection_verbs.match_at(&toks, 0)).flatten() {
            Some(n) if n < toks.len() => toks[n..].join(" "),
            _ => full.clone(),
        };
        Query { full, core }
    }
}

/// How the input relates the candidate it means to another one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// "the one after c", "the next one", "below".
    After,
    /// "the one before c", "the previous one", "above".
    Before,
    /// "next to c", "beside".
    Beside,
}

/// What the words outside any whole-label, position or badge reference
/// single out.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Words {
    /// No such words.
    #[default]
    None,
    /// One candidate, and every word is explained by it.
    Unique { entry: usize, kind: MatchKind },
    /// Several candidates share every word ("report" among four reports);
    /// `typo` when a word only matched within the edit bound, or matched
    /// two different label words equally well.
    Shared { entries: Vec<usize>, typo: bool },
    /// The words point at different candidates ("jazz or rock").
    Split(Vec<usize>),
    /// A content word that no candidate contains, exactly or near.
    Unexplained,
}

/// What the input says, as a careful person reads it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Reading {
    /// Pool entries named by a whole label, alias, position or badge, in
    /// input order, each once.
    pub named: Vec<(usize, MatchKind)>,
    /// A negation ("not", "anything but", "don't") precedes a reference or
    /// stands alone.
    pub negation: bool,
    /// Entries named after a negation: excluded.
    pub negated: Vec<usize>,
    pub relation: Option<Relation>,
    /// "both", "all", "either".
    pub plural: bool,
    /// A position outside the list ("the fifth one" of three, "the middle
    /// one" of four).
    pub out_of_range: bool,
    pub words: Words,
    /// Entries that could win (those named, and the one the words single
    /// out) and account for the whole input: every content word is theirs
    /// and nothing of theirs that sets them apart is left unsaid (spec
    /// section 4b, `Said::accounts_for`). Only these may execute.
    pub complete: Vec<usize>,
    /// Of `complete`: entries whose whole label, or a whole alias, the
    /// input says (what a high-risk candidate needs).
    pub whole: Vec<usize>,
}

impl Reading {
    /// Whether the input names, excludes or relates candidates in a way a
    /// person never acts on without asking.
    pub fn never_executes(&self) -> bool {
        self.negation || self.relation.is_some() || self.plural
    }

    /// Whether the input accounts for this entry and nothing else.
    pub fn accounts_for(&self, entry: usize) -> bool {
        self.complete.contains(&entry)
    }

    /// The distinct entries named.
    pub fn named_entries(&self) -> impl Iterator<Item = usize> + '_ {
        self.named.iter().map(|(e, _)| *e)
    }
}

#[derive(Debug, Clone, Default)]
pub struct Matches {
    /// Every pool entry the input points at, best first: strongest kind,
    /// then score, then pool order (they rank the clarifier).
    pub hits: Vec<Hit>,
    pub command: Option<CommandHit>,
    /// When the fuzzy rung ran: the `ranked` pool entries most similar to
    /// the input, most similar first, pool order for equal similarity (they
    /// rank the clarifier when nothing stronger matched).
    pub fuzzy: Option<Vec<usize>>,
    pub reading: Reading,
}

impl Matches {
    pub fn top_tier(&self) -> Option<MatchTier> {
        self.hits.first().map(|h| h.kind.tier())
    }
    /// Hits in the strongest tier present.
    pub fn top(&self) -> &[Hit] {
        let Some(t) = self.top_tier() else { return &[] };
        let n = self.hits.iter().take_while(|h| h.kind.tier() == t).count();
        &self.hits[..n]
    }

    /// The match rung's trace detail: the first hits as
    /// `candidate:kind:score`, the structure words found, and whether a
    /// command matched.
    pub fn describe(&self, pool: &Pool<'_>) -> String {
        use std::fmt::Write;
        // Written into one string (the step's detail on every Decide).
        let mut out = String::with_capacity(96);
        let part = |out: &mut String, args: std::fmt::Arguments<'_>| {
            if !out.is_empty() {
                out.push(' ');
            }
            let _ = out.write_fmt(args);
        };
        for h in self.hits.iter().take(5) {
            part(&mut out, format_args!("{}:{}:", pool.entries[h.entry].cand.id, h.kind.as_str()));
            two_places(&mut out, h.score);
        }
        if self.hits.len() > 5 {
            part(&mut out, format_args!("+{}", self.hits.len() - 5));
        }
        let r = &self.reading;
        if r.negation {
            part(&mut out, format_args!("negation"));
        }
        if let Some(rel) = r.relation {
            part(&mut out, format_args!("{}", format!("relation:{rel:?}").to_lowercase()));
        }
        if r.plural {
            part(&mut out, format_args!("plural"));
        }
        if r.out_of_range {
            part(&mut out, format_args!("out_of_range"));
        }
        if self.command.is_some() {
            part(&mut out, format_args!("command"));
        }
        out
    }
}

/// Writes `x` as `format!("{x:.2}")` does (the exact value rounded to two
/// places, ties to even), without its general algorithm: an `f32` times a
/// hundred is exact in an `f64` (24 bits of mantissa and 7), so rounding
/// that product to an integer is rounding `x`. Far from zero, or not
/// finite, `x` goes to the formatter.
fn two_places(out: &mut String, x: f32) {
    use std::fmt::Write;
    if !x.is_finite() || x.abs() >= 1e6 {
        let _ = write!(out, "{x:.2}");
        return;
    }
    let n = (f64::from(x) * 100.0).round_ties_even().abs() as u64;
    let sign = if x.is_sign_negative() { "-" } else { "" };
    let _ = write!(out, "{sign}{}.{:02}", n / 100, n % 100);
}

/// Matching thresholds and rules: the `[matching]` section of the
/// configuration, as it is. Each resolving rule can be switched off for a
/// deployment that wants to ask more; its evidence then only ranks the
/// clarifier. The rules that keep the ladder from acting (several
/// referents, negations, relations) cannot be switched off.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MatchParams {
    /// Normalized Levenshtein similarity a fuzzy hit needs (ranking).
    pub fuzzy_min_similarity: f32,
    /// Two fuzzy hits closer than this are `typo_ambiguous`.
    pub fuzzy_margin: f32,
    /// Positions counted from the end beyond "last" ("second to last", "the
    /// one before last") and "the middle one" (of an odd number).
    pub extended_positions: bool,
    /// The one word that tells a candidate apart executes ("q2").
    pub token_shorthand: bool,
    /// A whole label inside the input executes when every other label in
    /// it is part of it ("iphone 15 pro max").
    pub longest_label: bool,
    /// Every content word in exactly one candidate executes ("the vegan one").
    pub unique_partial: bool,
    /// A typo that only one candidate is near executes ("sales reprot q3").
    pub typo_resolution: bool,
    /// Edits a word may be from a label word and still match it: words of
    /// 4 to 7 letters allow 1 edit, longer words this many (0 turns typo
    /// matching off). ("leaving" is two edits from "meaning": a different
    /// word, not a typo.)
    pub typo_max_edits: u8,
    /// Joined and split words match ("linkspanel" = "links panel",
    /// "logout" = "log out").
    pub joined_words: bool,
    /// Candidate `kind` values read as `RISK_HIGH` when a candidate's
    /// `risk` is unspecified (ignoring ASCII case): such a candidate
    /// executes deterministically only on its whole label or an alias, or
    /// a position in the options shown (spec section 4b).
    pub high_risk_kinds: Vec<String>,
}

impl Default for MatchParams {
    fn default() -> Self {
        MatchParams {
            fuzzy_min_similarity: 0.7,
            fuzzy_margin: 0.1,
            extended_positions: true,
            token_shorthand: true,
            longest_label: true,
            unique_partial: true,
            typo_resolution: true,
            typo_max_edits: 2,
            joined_words: true,
            high_risk_kinds: Vec::new(),
        }
    }
}

impl MatchParams {
    /// The edits a word of `len` characters may be from a label word.
    fn edit_bound(&self, len: usize) -> usize {
        match len {
            0..=3 => 0,
            4..=7 => usize::from(self.typo_max_edits.min(1)),
            _ => usize::from(self.typo_max_edits),
        }
    }
}

fn is_badge_token(t: &str) -> bool {
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => c.is_alphanumeric(),
        _ => is_number(t),
    }
}

/// One to three ASCII digits (a position or a short label number).
fn is_number(t: &str) -> bool {
    (1..=3).contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit())
}

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
    let toks: Vec<&str> = tokens(core).collect();
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

/// Whether a position needs `extended_positions`.
fn extended_position(n: i32) -> bool {
    n == 0 || n <= -2
}

/// The raw input, compared case-insensitively with every label of the
/// pool: its ASCII check and lower-casing are done once, not per label.
struct RawInput<'a> {
    text: &'a str,
    /// `text` lower-cased, when it is not ASCII.
    lower: Option<String>,
}

impl<'a> RawInput<'a> {
    fn new(text: &'a str) -> Self {
        RawInput { text, lower: (!text.is_ascii()).then(|| text.to_lowercase()) }
    }

    /// Whether `label.trim()` equals the input, ignoring case (Unicode
    /// lower case), where `ascii` says whether `label` is ASCII (the caller
    /// knows it already).
    fn eq_label(&self, label: &str, ascii: bool) -> bool {
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

/// What an input word is, once read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Not read yet: a content word.
    Content,
    /// Part of a reference (label, position, badge).
    Reference,
    /// A word that names nothing: a verb of selection, a function word, a
    /// conjunction, a generic noun, a structure word.
    Empty,
}

/// A reference found in the input.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Mention {
    /// Input token range.
    span: (usize, usize),
    entry: usize,
    kind: MatchKind,
}

/// A pool word near an input word: the word, its edit distance, and the
/// candidates (pool order) that have it.
type NearWord = (String, usize, Vec<usize>);

/// What `find` matches by: the lexicon, the `matching.*` switches, how
/// many fuzzy entries to rank (`Policy::tie_len`), and the deadline.
#[derive(Clone, Copy)]
pub struct Rules<'a> {
    pub lex: &'a Lexicon,
    pub params: &'a MatchParams,
    pub ranked: usize,
    pub stop: &'a Deadline,
}

/// Finds what the input names: runs every matching rule over the pool, read
/// through its canonical index `canon` (`CanonPool::build`, or a memo's),
/// and over the commands. `ranked` is how many entries the fuzzy rung
/// ranks (`Matches::fuzzy`).
///
/// `rules.stop` is the caller's deadline: the loops over the pool check it,
/// and once it has passed `find` returns `DeadlinePassed` instead of a
/// reading it could not finish.
pub fn find(
    raw: &str,
    q: &Query,
    pool: &Pool<'_>,
    canon: &CanonPool,
    commands: &[Candidate],
    rules: Rules<'_>,
) -> Result<Matches, DeadlinePassed> {
    let Rules { lex, params, ranked, stop } = rules;
    let raw = raw.trim();
    let raw_input = RawInput::new(raw);
    let toks: Vec<&str> = tokens(&q.full).collect();
    let core_start = toks.len() - tokens(&q.core).count();
    let mut roles = vec![Role::Content; toks.len()];
    let raw_eq =
        |idx: usize| !raw_input.text.is_empty() && raw_input.eq_label(&pool.entries[idx].cand.label, canon.entries[idx].label_ascii);
    let mut mentions = label_mentions(&toks, core_start, canon, params, stop, raw_eq);
    for m in &mentions {
        roles[m.span.0..m.span.1].fill(Role::Reference);
    }
    let structure = read_structure(&toks, &mut roles, canon, lex, stop);
    let mut out_of_range = false;
    let positions = position_mentions(&toks, &mut roles, canon, lex, params, stop);
    let badges = badge_mentions(&toks, &mut roles, canon, lex, stop);
    mark_empty_words(&toks, &mut roles, canon, lex, stop);
    unless_only_phrasing(&toks, &mut roles, canon, lex, stop);
    let words = word_evidence(&toks, &roles, canon, lex, params, stop);

    // Positions inside a subset the words single out ("the second jazz
    // playlist", "the fourth report") count within it.
    let subset = match &words {
        Words::Shared { entries, typo: false } if entries.len() >= 2 => Some(entries.as_slice()),
        _ => None,
    };
    for pos in positions {
        match resolve_position(pool, subset, pos.n) {
            // A bare number that is a label's word and another entry's
            // position ("2" with "Song 2" third): both are named, and a
            // person asks which.
            Some(entry) if pos.also_word => {
                if !toks[pos.span.0..pos.span.1].iter().any(|t| canon.label_words_of(entry).any(|w| w == *t)) {
                    mentions.push(Mention { span: pos.span, entry, kind: MatchKind::Ordinal });
                }
            }
            None if pos.also_word => {}
            Some(entry) => mentions.push(Mention { span: pos.span, entry, kind: MatchKind::Ordinal }),
            None => out_of_range = true,
        }
    }
    mentions.extend(badges);
    // Once something is named, a generic noun ("the last track", "the
    // first setting") may only describe it: it is not a second referent,
    // but the winner must still account for it (`accounts_for`).
    let mut described = Vec::new();
    let words = if mentions.is_empty() {
        words
    } else {
        for (i, t) in toks.iter().enumerate() {
            if roles[i] == Role::Content && lex.generic_nouns.contains(*t) {
                roles[i] = Role::Empty;
                described.push(i);
            }
        }
        if subset.is_some() && mentions.iter().any(|m| m.kind == MatchKind::Ordinal) {
            Words::None
        } else {
            word_evidence(&toks, &roles, canon, lex, params, stop)
        }
    };
    // A word that only begins another candidate's word ("sam" with "Sam Lee"
    // and "Samantha Ortiz", "apple" with "Apple Pie" and "Apples") does not
    // tell the two apart.
    // Each word's candidates widened by those it shares a form with; the
    // words together must still single one out.
    let words = match words {
        Words::Unique { entry, kind } => {
            let mut shared: Option<Vec<usize>> = None;
            for (i, t) in toks.iter().enumerate() {
                let own = canon.label_words_of(entry).chain(canon.alias_words_of(entry)).any(|w| w == *t);
                // A noun that only describes ("the election story") names
                // nobody: it narrows nothing.
                if roles[i] != Role::Content || (!own && lex.generic_nouns.contains(*t)) {
                    continue;
                }
                let mut set = vec![entry];
                if own {
                    set.extend(canon.extending(t, entry, stop));
                }
                shared = Some(match shared {
                    None => set,
                    Some(acc) => acc.into_iter().filter(|e| set.contains(e)).collect(),
                });
            }
            let mut shared = shared.unwrap_or_else(|| vec![entry]);
            shared.sort_unstable();
            if shared.len() > 1 { Words::Shared { entries: shared, typo: false } } else { Words::Unique { entry, kind } }
        }
        w => w,
    };
    mentions.sort_by_key(|m| (m.span.0, std::cmp::Reverse(m.kind)));

    let mut reading = Reading { out_of_range, words, plural: structure.plural, relation: structure.relation, ..Reading::default() };
    reading.negation = structure.negation_at.is_some();
    for m in &mentions {
        if structure.negation_at.is_some_and(|at| m.span.0 >= at) {
            if !reading.negated.contains(&m.entry) {
                reading.negated.push(m.entry);
            }
        } else if !reading.named.iter().any(|(e, _)| *e == m.entry) {
            reading.named.push((m.entry, m.kind));
        }
    }
    // The principle (spec section 4b), for every entry that could win.
    let mut could_win: Vec<(usize, MatchKind)> = reading.named.clone();
    if let Words::Unique { entry, kind } = reading.words {
        could_win.push((entry, kind));
    }
    for (entry, kind) in could_win {
        if reading.complete.contains(&entry) {
            continue;
        }
        let whole = says_whole(entry, &toks, canon);
        let said = Said { toks: &toks, roles: &roles, described: &described, pool, canon, lex, params };
        if said.accounts_for(entry, kind, whole, stop) {
            reading.complete.push(entry);
            if whole {
                reading.whole.push(entry);
            }
        }
    }

    if stop.passed_now() {
        return Err(DeadlinePassed);
    }
    let mut hits = ranking_hits(&mentions, &reading, &toks, &roles, canon, stop);
    let mut fuzzy = None;
    if hits.iter().all(|h| h.kind.tier() < MatchTier::Containment) && !q.core.is_empty() {
        let (fuzzy_hits, ranked) = canon.fuzzy(&q.core, ranked, params.fuzzy_min_similarity, stop);
        hits.extend(fuzzy_hits);
        fuzzy = Some(ranked);
    }
    hits.sort_by(|a, b| {
        b.kind.tier().cmp(&a.kind.tier()).then(b.score.total_cmp(&a.score)).then(b.kind.cmp(&a.kind)).then(a.entry.cmp(&b.entry))
    });
    let command = match_command(&raw_input, q, commands, lex, params);
    if stop.passed_now() {
        return Err(DeadlinePassed);
    }
    Ok(Matches { hits, command, fuzzy, reading })
}

/// Whether every word of the entry's label, or of one of its aliases, is
/// among the input's words as written (in any order; joined words count):
/// what a high-risk candidate needs besides accounting for the input.
fn says_whole(entry: usize, toks: &[&str], canon: &CanonPool) -> bool {
    canon.forms(entry).any(|(form, _)| {
        let words: Vec<&str> = form.split(' ').filter(|w| !w.is_empty()).collect();
        !words.is_empty() && (words.iter().all(|w| toks.contains(w)) || toks.contains(&words.concat().as_str()))
    })
}

/// What the input said, as the principle reads it: its words and what
/// each is (a reference, phrasing, a noun describing the referent, or
/// content), with the pool they are read against.
struct Said<'a> {
    toks: &'a [&'a str],
    roles: &'a [Role],
    /// Generic nouns read as describing what is named ("the third song").
    described: &'a [usize],
    pool: &'a Pool<'a>,
    canon: &'a CanonPool,
    lex: &'a Lexicon,
    params: &'a MatchParams,
}

impl Said<'_> {
    /// **Execute only what the input fully accounts for** (spec section
    /// 4b), for one entry the input could mean:
    ///
    /// - nothing said is left over: every content word is the entry's own
    ///   (a word of its label or aliases, exactly, joined, or within the
    ///   typo bound; a word of its sublabel or kind), and a generic noun
    ///   describes it only when its label names no kind of its own ("the
    ///   refund ticket" for "Refund", never "account" for "Delete Card");
    /// - nothing of the entry is missing that another candidate differs
    ///   by: an action word of its label ("close" in "Close Account") is
    ///   said, unless every candidate has it. A position or the whole
    ///   label says the whole entry.
    ///
    /// Phrasing (selection verbs, function words, conjunctions, polite
    /// openers; the lexicon) and the entry's references explain
    /// themselves; negations, relations and plurals are read before this
    /// (they never execute).
    fn accounts_for(&self, entry: usize, kind: MatchKind, whole: bool, stop: &Deadline) -> bool {
        let extra = self.extra_words(entry);
        let own = |t: &str| self.explains(entry, t, &extra);
        // A position names the list's item; the noun with it names the
        // list's kind ("the third song", "the second article").
        let describes = |t: &str| kind == MatchKind::Ordinal || self.describes(entry, t, &extra);
        for (i, t) in self.toks.iter().enumerate() {
            let left_over = match self.roles[i] {
                Role::Content => !(own(t) || self.lex.generic_nouns.contains(*t) && describes(t)),
                Role::Empty if self.described.contains(&i) => !own(t) && !describes(t),
                _ => false,
            };
            if left_over {
                return false;
            }
        }
        let by_name = kind.tier() == MatchTier::Label || kind == MatchKind::Ordinal || whole;
        by_name || !self.action_unsaid(entry, stop)
    }

    /// The canonical words of the entry's sublabel and kind: they explain
    /// a word, but never name the entry on their own.
    fn extra_words(&self, entry: usize) -> Vec<String> {
        let c = self.pool.entries[entry].cand;
        let mut out = Vec::new();
        for text in [&c.sublabel, &c.kind] {
            if !text.trim().is_empty() {
                out.extend(tokens(&canonicalize(text, self.lex)).map(str::to_owned));
            }
        }
        out
    }

    /// Whether `t` is one of the entry's words: its label's or aliases'
    /// (exactly, spelled joined, or within the typo bound of one), its
    /// sublabel's or kind's.
    fn explains(&self, entry: usize, t: &str, extra: &[String]) -> bool {
        let canon = self.canon;
        if canon.label_words_of(entry).chain(canon.alias_words_of(entry)).any(|w| w == t) || extra.iter().any(|w| w == t) {
            return true;
        }
        if self.params.joined_words && t.len() >= 2 && canon.may_spell_joined(t) && canon.spells_joined(entry, t) {
            return true;
        }
        let len = t.chars().count();
        let bound = if len == 3 && self.params.typo_max_edits > 0 { 1 } else { self.params.edit_bound(len) };
        bound > 0
            && canon
                .label_words_of(entry)
                .chain(canon.alias_words_of(entry))
                .any(|w| w.chars().count() >= 2 && rapidfuzz::distance::osa::distance(t.chars(), w.chars()) <= bound)
    }

    /// Whether a generic noun the entry does not have may describe it: the
    /// entry's kind is that noun, or the input says every noun of the
    /// entry's label that names a kind ("the vacation request form" for
    /// "Vacation Request", "the refund one" for "Refund"), so the noun adds
    /// to the label instead of replacing its own ("delete account" is not
    /// "Delete Card").
    fn describes(&self, entry: usize, t: &str, extra: &[String]) -> bool {
        let plural = |a: &str, b: &str| a == b || a.strip_suffix('s') == Some(b) || b.strip_suffix('s') == Some(a);
        let generic =
            |w: &str| self.lex.generic_nouns.contains(w) || w.strip_suffix('s').is_some_and(|s| self.lex.generic_nouns.contains(s));
        extra.iter().any(|w| plural(w, t))
            || self.canon.label_words_of(entry).filter(|w| generic(w)).all(|w| self.toks.iter().any(|said| plural(said, w)))
    }

    /// The action word the entry's label opens with, when the input does not say it
    /// (exactly or within the typo bound), and that some other candidate
    /// lacks: the input names the object without the action, and the
    /// action matters.
    fn action_unsaid(&self, entry: usize, stop: &Deadline) -> bool {
        let canon = self.canon;
        let said = |a: &str| {
            let bound = self.params.edit_bound(a.chars().count());
            self.toks.iter().any(|t| *t == a || (bound > 0 && rapidfuzz::distance::osa::distance(t.chars(), a.chars()) <= bound))
        };
        // The action a label opens with ("Close Account", "Pay bill"): a
        // noun later in a label ("Sales Report", "Address Change") is not one.
        canon.label_words_of(entry).take(1).filter(|w| self.lex.actions.contains(*w) && !said(w)).any(|a| {
            (0..canon.entries.len()).any(|other| {
                !stop.passed() && other != entry && !canon.label_words_of(other).chain(canon.alias_words_of(other)).any(|w| w == a)
            })
        })
    }
}

/// Whole labels and aliases inside the input, each run of input words
/// compared joined (so "linkspanel d" is "links panel d"). A label inside a
/// longer label the input names is dropped (the longest whole label wins);
/// two candidates with the same label both stay.
/// `raw_eq(entry)`: the raw input is the entry's raw label, ignoring case.
fn label_mentions(
    toks: &[&str],
    core_start: usize,
    canon: &CanonPool,
    params: &MatchParams,
    stop: &Deadline,
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
struct Structure {
    /// The token where the first negation starts.
    negation_at: Option<usize>,
    relation: Option<Relation>,
    plural: bool,
}

fn read_structure(toks: &[&str], roles: &mut [Role], canon: &CanonPool, lex: &Lexicon, stop: &Deadline) -> Structure {
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
        // negation a label says with a word beside it ("refund not
        // received" with "#4815 Refund not received") is that label's.
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
        } else if let Some(n) = lex.relations.match_at(toks, i).filter(|n| free(*n)) {
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

/// A position the input names.
struct Position {
    /// Input token range (with its prefix and list noun).
    span: (usize, usize),
    /// 1-based; negative from the end; 0 the middle; `i32::MIN` a position
    /// this deployment does not read.
    n: i32,
    /// The position is a bare number some label also has as a word ("2"
    /// with "Song 2"): it is read both ways, and its tokens stay words.
    also_word: bool,
}

/// Positions. A word any label contains is that word, not a position
/// ("first" in "First Class", "3" in "Room 3"), except a bare number, which
/// is read both ways ("2" with "Song 2" at position 3). A position after a
/// possessive is the user's own thing ("my second card"), unless a list
/// noun follows ("my second one").
fn position_mentions(
    toks: &[&str],
    roles: &mut [Role],
    canon: &CanonPool,
    lex: &Lexicon,
    params: &MatchParams,
    stop: &Deadline,
) -> Vec<Position> {
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
            // label's; alone it may be either.
            let bare = len == 1 && is_number(toks[at]) && !(i > 0 && canon.any_entry_has_both(toks[i - 1], toks[at], stop));
            if bare {
                out.push(Position { span: (i, end), n, also_word: true });
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

/// The entry at a position of the list ordinals count in (or of `subset`).
fn resolve_position(pool: &Pool<'_>, subset: Option<&[usize]>, n: i32) -> Option<usize> {
    let list: Vec<usize> = match subset {
        Some(s) => s.to_vec(),
        None => (0..pool.len()).filter(|i| Some(pool.entries[*i].source) == pool.ordinal_source).collect(),
    };
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
fn badge_mentions(toks: &[&str], roles: &mut [Role], canon: &CanonPool, lex: &Lexicon, stop: &Deadline) -> Vec<Mention> {
    let mut out = Vec::new();
    for i in 0..toks.len() {
        if stop.passed_now() {
            break;
        }
        let t = toks[i];
        if roles[i] != Role::Content || !is_badge_token(t) {
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

/// Verbs of selection, function words, conjunctions, polite openers,
/// deictic words and list nouns name nothing: request phrasing.
fn mark_empty_words(toks: &[&str], roles: &mut [Role], canon: &CanonPool, lex: &Lexicon, stop: &Deadline) {
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
        let sets: &[&PhraseSet] = if after_conjunction || label_word {
            &[&lex.conjunctions, &lex.request_openers]
        } else {
            &[&lex.selection_verbs, &lex.conjunctions, &lex.request_openers]
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

/// An input that is nothing but phrasing cannot be phrasing: its verbs of
/// selection that a label has are words ("the run" with "Long Run", "play"
/// with "Play Store"). Function words stay what they are ("thanks for
/// that" names nothing, whatever "Who do you work for" holds).
fn unless_only_phrasing(toks: &[&str], roles: &mut [Role], canon: &CanonPool, lex: &Lexicon, stop: &Deadline) {
    if roles.iter().any(|r| *r != Role::Empty) {
        return;
    }
    for (i, t) in toks.iter().enumerate() {
        if lex.selection_verbs.starts_with(t) && !lex.function_words.contains(*t) && canon.any_word(t, stop) {
            roles[i] = Role::Content;
        }
    }
}

/// What the content words single out. A generic noun no label contains
/// names nothing; any other word no label contains, exactly or within the
/// edit bound, leaves the input unexplained.
fn word_evidence(toks: &[&str], roles: &[Role], canon: &CanonPool, lex: &Lexicon, params: &MatchParams, stop: &Deadline) -> Words {
    let mut sets: Vec<Vec<usize>> = Vec::new();
    let mut typo = false;
    let mut ambiguous_typo = false;
    let mut shorthand = true;
    // A word of four letters or fewer that matched only within the edit
    // bound ("dave" near "date", "lost" near "last") is as likely another
    // word as a typo: it confirms a candidate other words name exactly,
    // never names one alone.
    let mut short_typo = false;
    let mut any_exact = false;
    // Words of three letters or more that match nothing within the bound
    // of their length: they may still be a one-letter slip of the winner's
    // word ("jaz classics", "sushi zne"), checked once the winner is known.
    let mut weak: Vec<&str> = Vec::new();
    let content: Vec<&str> = toks.iter().zip(roles).filter(|(_, r)| **r == Role::Content).map(|(t, _)| *t).collect();
    let Some(mut exact) = canon.owners_of_words(&content, stop) else { return Words::None };
    // The pool's word index, for the words looked for within the edit
    // bound (and as joined words), when it pays for itself.
    if canon.vocab.get().is_none() {
        let near = content.iter().zip(&exact).filter(|(t, e)| e.is_empty() && params.edit_bound(t.chars().count()) > 0).count();
        if near >= VOCAB_NEAR_WORDS || (near > 0 && canon.words.len() <= VOCAB_SMALL_POOL) {
            canon.vocab(stop);
        }
    }
    let mut near_cache: FxHashMap<&str, Vec<NearWord>> = FxHashMap::default();
    for (k, t) in content.iter().enumerate() {
        if stop.passed_now() {
            return Words::None;
        }
        if exact[k].is_empty() && params.joined_words && t.len() >= 2 && canon.may_spell_joined(t) {
            exact[k] = canon.spelling_joined(t, stop);
        }
        if !exact[k].is_empty() {
            any_exact = true;
            sets.push(std::mem::take(&mut exact[k]));
            continue;
        }
        shorthand = false;
        let len = t.chars().count();
        let bound = params.edit_bound(len);
        // A word the input repeats is looked for once.
        let near: &[NearWord] = if bound > 0 { near_cache.entry(*t).or_insert_with(|| canon.near_words(t, bound, stop)) } else { &[] };
        match near {
            [] if lex.generic_nouns.contains(*t) => {}
            [] if len >= 3 && params.typo_max_edits > 0 => weak.push(t),
            [] => return Words::Unexplained,
            [(_, _, owners)] => {
                typo = true;
                short_typo |= len <= 4;
                sets.push(owners.clone());
            }
            several => {
                typo = true;
                short_typo |= len <= 4;
                ambiguous_typo = true;
                let mut union: Vec<usize> = several.iter().flat_map(|(_, _, o)| o.iter().copied()).collect();
                union.sort_unstable();
                union.dedup();
                sets.push(union);
            }
        }
    }
    if sets.is_empty() {
        return if weak.is_empty() { Words::None } else { Words::Unexplained };
    }
    shorthand &= sets.len() == 1 && weak.is_empty();
    // Each set is in pool order (ascending).
    let mut common: Vec<usize> = sets[0].clone();
    for s in &sets[1..] {
        common.retain(|e| s.binary_search(e).is_ok());
    }
    if short_typo && !any_exact && !ambiguous_typo && common.len() == 1 {
        return Words::Unexplained;
    }
    if !weak.is_empty() {
        // Each weak word must be one edit from a word of the one candidate
        // the others single out, and from no other candidate's word.
        let [winner] = common[..] else { return Words::Unexplained };
        for w in &weak {
            let near = canon.near_words(w, 1, stop);
            if near.is_empty() || near.iter().flat_map(|(_, _, o)| o).any(|o| *o != winner) {
                return Words::Unexplained;
            }
        }
        typo = true;
    }
    match common.as_slice() {
        [one] if !ambiguous_typo => {
            let kind = if typo {
                MatchKind::Typo
            } else if shorthand {
                MatchKind::Shorthand
            } else {
                MatchKind::Partial
            };
            Words::Unique { entry: *one, kind }
        }
        [] => {
            let mut union: Vec<usize> = sets.into_iter().flatten().collect();
            union.sort_unstable();
            union.dedup();
            Words::Split(union)
        }
        _ => {
            let entries = if ambiguous_typo && common.len() < 2 {
                let mut union: Vec<usize> = sets.into_iter().flatten().collect();
                union.sort_unstable();
                union.dedup();
                union
            } else {
                common
            };
            Words::Shared { entries, typo }
        }
    }
}

/// The hits that rank the clarifier: every reference, then what the words
/// point at.
fn ranking_hits(mentions: &[Mention], r: &Reading, toks: &[&str], roles: &[Role], canon: &CanonPool, stop: &Deadline) -> Vec<Hit> {
    let mut hits: Vec<Hit> = Vec::new();
    // Where each entry's hit is in `hits`.
    let mut at: Vec<Option<usize>> = vec![None; canon.entries.len()];
    let mut add = |entry: usize, kind: MatchKind, score: f32| match at[entry].map(|i| &mut hits[i]) {
        Some(h) if (h.kind, h.score) < (kind, score) => {
            h.kind = kind;
            h.score = score;
        }
        Some(_) => {}
        None => {
            at[entry] = Some(hits.len());
            hits.push(Hit { entry, kind, score });
        }
    };
    for m in mentions {
        add(m.entry, m.kind, 1.0);
    }
    match &r.words {
        Words::Unique { entry, kind } => add(*entry, *kind, 1.0),
        Words::Shared { entries, .. } | Words::Split(entries) => {
            for e in entries {
                add(*e, MatchKind::Containment, 0.5);
            }
        }
        Words::None | Words::Unexplained => {}
    }
    // Partial overlaps: the share of content words a label contains.
    if matches!(r.words, Words::Unexplained) {
        let content: Vec<&str> = toks.iter().zip(roles).filter(|(_, r)| **r == Role::Content).map(|(t, _)| *t).collect();
        // Each input word's count, and the last entry that counted it (a
        // label may repeat a word).
        let mut counts: FxHashMap<&str, (usize, usize)> = FxHashMap::default();
        for t in &content {
            counts.entry(*t).or_insert((0, usize::MAX)).0 += 1;
        }
        if !content.is_empty() {
            for idx in 0..canon.entries.len() {
                if stop.passed() {
                    break;
                }
                let mut n = 0;
                for w in canon.all_words(idx) {
                    if let Some((count, last)) = counts.get_mut(w)
                        && *last != idx
                    {
                        *last = idx;
                        n += *count;
                    }
                }
                if n > 0 {
                    add(idx, MatchKind::Containment, n as f32 / content.len() as f32);
                }
            }
        }
    }
    hits
}

/// A command matches only when the input names the whole command (verb and
/// object, or an alias), never on a shared verb alone: the command's words
/// in order, with only words that name nothing between them ("log me out"
/// names "Log Out"), or joined ("logout").
fn match_command(raw: &RawInput<'_>, q: &Query, commands: &[Candidate], lex: &Lexicon, params: &MatchParams) -> Option<CommandHit> {
    let full: Vec<&str> = tokens(&q.full).collect();
    let joined_full: String = full.concat();
    // The core without words that name nothing ("my notifications").
    let bare: String = tokens(&q.core).filter(|t| !lex.function_words.contains(*t)).collect::<Vec<_>>().join(" ");
    let mut best: Option<(CommandHit, usize)> = None;
    for (index, cmd) in commands.iter().enumerate() {
        let names = std::iter::once(cmd.label.as_str()).chain(cmd.aliases.iter().map(String::as_str));
        for name in names {
            let c = canonicalize(name, lex);
            let ct: Vec<&str> = tokens(&c).collect();
            if ct.is_empty() {
                continue;
            }
            let exact = (!raw.text.is_empty() && raw.eq_label(name, name.is_ascii()))
                || c == q.full
                || c == q.core
                || c == bare
                || (params.joined_words && ct.len() >= 2 && ct.concat() == joined_full);
            // Inside a longer input, the command must account for all of
            // it, as a candidate must (spec section 4b): "log out" escapes,
            // "log out of the shared account on my phone" does not.
            let contained = ct.len() >= 2
                && (in_order_with_empty_gaps(&full, &ct, lex) || (params.joined_words && full.contains(&ct.concat().as_str())))
                && only_phrasing_besides(&full, &ct, lex);
            if exact || contained {
                let better = match best {
                    None => true,
                    Some((b, len)) => (exact && !b.exact) || (exact == b.exact && ct.len() > len),
                };
                if better {
                    best = Some((CommandHit { index, exact }, ct.len()));
                }
            }
        }
    }
    best.map(|(h, _)| h)
}

/// Whether every token of `toks` is one of `words` (or all of them
/// joined), or request phrasing that names nothing.
fn only_phrasing_besides(toks: &[&str], words: &[&str], lex: &Lexicon) -> bool {
    let joined = words.concat();
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i];
        if words.contains(&t) || t == joined || lex.function_words.contains(t) || lex.deictic.contains(t) {
            i += 1;
            continue;
        }
        match [&lex.selection_verbs, &lex.conjunctions, &lex.request_openers].iter().filter_map(|set| set.match_at(toks, i)).max() {
            Some(n) => i += n,
            None => return false,
        }
    }
    true
}

/// Whether `words` appear in `toks` in order, adjacent or separated only by
/// function words ("log me out").
fn in_order_with_empty_gaps(toks: &[&str], words: &[&str], lex: &Lexicon) -> bool {
    (0..toks.len()).any(|start| {
        let mut k = 0;
        let mut i = start;
        while i < toks.len() && k < words.len() {
            if toks[i] == words[k] {
                k += 1;
            } else if k == 0 || !lex.function_words.contains(toks[i]) {
                break;
            }
            i += 1;
        }
        k == words.len()
    })
}

/// The canonical labels, aliases, badges and words of a pool, computed once
/// per request into one buffer (every rung reads them; none
/// re-canonicalizes), or kept for a pool that comes again
/// (`intern::PoolMemo`). `find` reads the pool through it.
pub struct CanonPool {
    text: String,
    entries: Vec<CanonEntry>,
    /// Ranges of `text`.
    aliases: Vec<(usize, usize)>,
    /// Ranges of `text`: each entry's label words, then its alias words.
    words: Vec<(usize, usize)>,
    /// `text` is ASCII.
    ascii: bool,
    /// The longest label or alias, its words joined (bytes).
    max_joined: usize,
    /// Which first bytes (of one-letter label words) and first byte pairs
    /// (of longer ones) label words start with: a word spells a run of
    /// label words joined (`spells_joined`) only if it starts like one.
    starts: WordStarts,
    scratch: Vec<(usize, usize)>,
    /// The distinct words and who has each, built on first need
    /// (`vocab`), kept with the pool (a pool sent again has it ready).
    vocab: std::sync::OnceLock<Vocab>,
}

/// The pool's distinct label and alias words, each with the entries that
/// have it: one lookup per input word instead of a scan of every word of
/// the pool, and each distinct word compared once by the typo rung.
/// Building it costs several scans of the pool (a hash table insert per
/// word against a length test per word), so the typo rung builds it for
/// a pool of at most `VOCAB_SMALL_POOL` words (a fraction of a
/// millisecond at worst, and pools repeat their words), or for
/// `VOCAB_NEAR_WORDS` words to look for; otherwise it scans.
struct Vocab {
    /// Each distinct word's range in the pool's `text` (first seen first),
    /// and the range of `owners` that lists its entries, ascending.
    words: Vec<((usize, usize), (u32, u32))>,
    owners: Vec<u32>,
    /// Indices into `words`, hashed by the word's text.
    table: hashbrown::HashTable<u32>,
}

const VOCAB_SMALL_POOL: usize = 20_000;
const VOCAB_NEAR_WORDS: usize = 8;

impl Vocab {
    /// What a vocabulary of a pool of `words` words may hold on the heap
    /// (every word distinct): a range pair and an owner a word, and the
    /// table's buckets (a power of two at least 8/7 of its capacity, so up
    /// to 2.3 a word) with a control byte each. The memo counts it whether
    /// or not it was built, so a pool's size never changes once it is kept.
    fn max_bytes(words: usize) -> usize {
        words * (std::mem::size_of::<((usize, usize), (u32, u32))>() + std::mem::size_of::<u32>() + 3 * (std::mem::size_of::<u32>() + 1))
    }

    /// `None` when `stop` passed before it was done.
    fn build(canon: &CanonPool, stop: &Deadline) -> Option<Vocab> {
        let text = canon.text.as_str();
        let hash = |w: &str| rustc_hash::FxBuildHasher.hash_one(w);
        let mut words: Vec<((usize, usize), (u32, u32))> = Vec::with_capacity(canon.words.len());
        let mut table = hashbrown::HashTable::with_capacity(canon.words.len());
        // Each word occurrence as (distinct word, entry), in pool order.
        let mut seen: Vec<(u32, u32)> = Vec::with_capacity(canon.words.len());
        for (idx, entry) in canon.entries.iter().enumerate() {
            if stop.passed() {
                return None;
            }
            for &(s, e) in &canon.words[entry.all_words.0..entry.all_words.1] {
                let w = &text[s..e];
                let h = hash(w);
                let id = match table.find(h, |&i: &u32| {
                    let (s, e) = words[i as usize].0;
                    &text[s..e] == w
                }) {
                    Some(&i) => i,
                    None => {
                        let i = words.len() as u32;
                        words.push(((s, e), (0, 0)));
                        table.insert_unique(h, i, |&i: &u32| {
                            let (s, e) = words[i as usize].0;
                            hash(&text[s..e])
                        });
                        i
                    }
                };
                seen.push((id, idx as u32));
            }
        }
        // Each word's owners in one run of `owners`: counted, then filled
        // in pool order (an entry that has a word twice is listed once).
        let mut start = vec![0u32; words.len() + 1];
        for &(w, _) in &seen {
            start[w as usize + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut fill: Vec<u32> = start[..words.len()].to_vec();
        let mut owners = vec![0u32; seen.len()];
        for &(w, idx) in &seen {
            let (first, at) = (start[w as usize], &mut fill[w as usize]);
            if *at == first || owners[*at as usize - 1] != idx {
                owners[*at as usize] = idx;
                *at += 1;
            }
        }
        for (w, word) in words.iter_mut().enumerate() {
            word.1 = (start[w], fill[w]);
        }
        Some(Vocab { words, owners, table })
    }

    /// The entries (ascending) that have the word `t`.
    fn owners_of(&self, text: &str, t: &str) -> Option<&[u32]> {
        let h = rustc_hash::FxBuildHasher.hash_one(t);
        let &i = self.table.find(h, |&i: &u32| {
            let (s, e) = self.words[i as usize].0;
            &text[s..e] == t
        })?;
        let (first, end) = self.words[i as usize].1;
        Some(&self.owners[first as usize..end as usize])
    }
}

/// Whether a word is within the edit bound of `t`, and how far: the cheap
/// tests first (length, letters), then the distance.
struct NearTest {
    cmp: rapidfuzz::distance::osa::BatchComparator<char>,
    len: usize,
    /// Letters a word has more of than `t` each need an edit: a cheap bound
    /// that rules out most words before the distance is computed.
    bag: Option<BagBound>,
    bound: usize,
    /// The pool is ASCII: a word's length is its byte count.
    ascii_pool: bool,
}

impl NearTest {
    fn new(t: &str, bound: usize, ascii_pool: bool) -> Self {
        let bag = t.is_ascii().then(|| BagBound::new(t.as_bytes()));
        NearTest { cmp: rapidfuzz::distance::osa::BatchComparator::new(t.chars()), len: t.chars().count(), bag, bound, ascii_pool }
    }

    #[inline(always)]
    fn distance(&self, w: &str) -> Option<usize> {
        let ascii = self.ascii_pool || w.is_ascii();
        let wl = if ascii { w.len() } else { w.chars().count() };
        if wl.abs_diff(self.len) > self.bound || wl < 2 {
            return None;
        }
        if let Some(bag) = &self.bag
            && ascii
            && bag.extra(w.as_bytes()) > self.bound
        {
            return None;
        }
        self.cmp.distance_with_args(w.chars(), &rapidfuzz::distance::osa::Args::default().score_cutoff(self.bound))
    }
}

/// Bit sets of the first byte of one-byte words and of the first two bytes
/// of longer words (hashed into 4,096 bits: a shared bit only costs a
/// scan, never a miss).
struct WordStarts {
    one: [u64; 4],
    two: [u64; 64],
}

impl WordStarts {
    fn pair(a: u8, b: u8) -> usize {
        (usize::from(a) << 5 ^ usize::from(b)) & 4095
    }

    fn add(&mut self, w: &[u8]) {
        match *w {
            [] => {}
            [a] => self.one[usize::from(a) >> 6] |= 1 << (a & 63),
            [a, b, ..] => {
                let k = Self::pair(a, b);
                self.two[k >> 6] |= 1 << (k & 63);
            }
        }
    }

    /// Whether some word of the set may be a proper prefix of `t`.
    fn may_prefix(&self, t: &[u8]) -> bool {
        let one = |a: u8| self.one[usize::from(a) >> 6] & (1 << (a & 63)) != 0;
        let two = |a: u8, b: u8| {
            let k = Self::pair(a, b);
            self.two[k >> 6] & (1 << (k & 63)) != 0
        };
        match *t {
            [a, b, ..] => one(a) || two(a, b),
            _ => false,
        }
    }
}

struct CanonEntry {
    /// Range of `text`.
    label: (usize, usize),
    /// Range of `CanonPool::aliases`.
    aliases: (usize, usize),
    /// The candidate's explicit badge, canonical (a range of `text`), when
    /// it has one.
    badge: Option<(usize, usize)>,
    /// The candidate's raw label is ASCII.
    label_ascii: bool,
    /// The canonical label's length with its words joined (no spaces).
    label_joined: u32,
    /// The candidate's kind, canonical (a range of `text`), when it has one.
    kind: Option<(usize, usize)>,
    /// Ranges of `CanonPool::words`: the label's words, and all its words
    /// (label and aliases).
    label_words: (usize, usize),
    all_words: (usize, usize),
}

impl CanonPool {
    /// Room for the pool's labels (canonical text is seldom longer).
    fn with_capacity(pool: &Pool<'_>) -> Self {
        let bytes: usize = pool.entries.iter().map(|e| e.cand.label.len()).sum();
        CanonPool {
            text: String::with_capacity(bytes),
            entries: Vec::with_capacity(pool.entries.len()),
            aliases: Vec::new(),
            words: Vec::with_capacity(pool.entries.len() * 4),
            ascii: true,
            max_joined: 0,
            starts: WordStarts { one: [0; 4], two: [0; 64] },
            scratch: Vec::with_capacity(8),
            vocab: std::sync::OnceLock::new(),
        }
    }

    /// Canonicalizes the next candidate of the pool.
    /// The canonical pool of `pool`, or `DeadlinePassed`.
    pub fn build(pool: &Pool<'_>, lex: &Lexicon, stop: &Deadline) -> Result<Self, DeadlinePassed> {
        let mut canon = CanonPool::with_capacity(pool);
        for e in &pool.entries {
            if stop.passed() {
                return Err(DeadlinePassed);
            }
            canon.push(e.cand, lex);
        }
        canon.scratch = Vec::new();
        Ok(canon)
    }

    /// What the pool holds on the heap (bytes), for the memo's budget.
    pub fn heap_bytes(&self) -> usize {
        self.text.capacity()
            + self.entries.capacity() * std::mem::size_of::<CanonEntry>()
            + (self.aliases.capacity() + self.words.capacity()) * std::mem::size_of::<(usize, usize)>()
            + Vocab::max_bytes(self.words.len())
    }

    /// Builds the pool's vocabulary now, if it was not: what a pool that
    /// comes again is worth (every later call looks words up).
    /// `DeadlinePassed` when `stop` passed first.
    pub fn build_vocab(&self, stop: &Deadline) -> Result<(), DeadlinePassed> {
        self.vocab(stop).map(|_| ()).ok_or(DeadlinePassed)
    }

    /// The pool's vocabulary, built now if it was not (`None` when `stop`
    /// passed first).
    fn vocab(&self, stop: &Deadline) -> Option<&Vocab> {
        if let Some(v) = self.vocab.get() {
            return Some(v);
        }
        let built = Vocab::build(self, stop)?;
        Some(self.vocab.get_or_init(|| built))
    }

    fn push(&mut self, c: &Candidate, lex: &Lexicon) {
        let start = self.text.len();
        let label_ascii = canonicalize_words_into(&c.label, lex, &mut self.text, &mut self.scratch);
        // Canonical text of ASCII text is ASCII; of other text it may be.
        let mut ascii = label_ascii || self.text[start..].is_ascii();
        let label = (start, self.text.len());
        let first_word = self.words.len();
        for &(s, e) in &self.scratch {
            self.starts.add(&self.text.as_bytes()[s..e]);
        }
        self.words.extend_from_slice(&self.scratch);
        let label_words = (first_word, self.words.len());
        let label_joined = self.scratch.iter().map(|(s, e)| e - s).sum::<usize>();
        let mut joined = label_joined;
        let first_alias = self.aliases.len();
        for a in &c.aliases {
            let s = self.text.len();
            ascii &= canonicalize_words_into(a, lex, &mut self.text, &mut self.scratch) || self.text[s..].is_ascii();
            self.aliases.push((s, self.text.len()));
            self.words.extend_from_slice(&self.scratch);
            joined = joined.max(self.scratch.iter().map(|(s, e)| e - s).sum());
        }
        let badge = (!c.badge.trim().is_empty()).then(|| {
            let s = self.text.len();
            ascii &= canonicalize_into(&c.badge, lex, &mut self.text) || self.text[s..].is_ascii();
            (s, self.text.len())
        });
        let kind = (!c.kind.trim().is_empty()).then(|| {
            let s = self.text.len();
            ascii &= canonicalize_into(&c.kind, lex, &mut self.text) || self.text[s..].is_ascii();
            (s, self.text.len())
        });
        self.ascii &= ascii;
        self.max_joined = self.max_joined.max(joined);
        self.entries.push(CanonEntry {
            label,
            aliases: (first_alias, self.aliases.len()),
            badge,
            label_ascii,
            label_joined: u32::try_from(label_joined).unwrap_or(u32::MAX),
            kind,
            label_words,
            all_words: (first_word, self.words.len()),
        });
    }

    fn label(&self, idx: usize) -> &str {
        let (s, e) = self.entries[idx].label;
        &self.text[s..e]
    }

    fn aliases(&self, idx: usize) -> impl Iterator<Item = &str> + Clone {
        let (first, end) = self.entries[idx].aliases;
        self.aliases[first..end].iter().map(|&(s, e)| &self.text[s..e])
    }

    /// The label and the aliases, with the kind a whole match of each is.
    fn forms(&self, idx: usize) -> impl Iterator<Item = (&str, MatchKind)> {
        std::iter::once((self.label(idx), MatchKind::Normalized)).chain(self.aliases(idx).map(|a| (a, MatchKind::Alias)))
    }

    fn words_in(&self, (first, end): (usize, usize)) -> impl Iterator<Item = &str> + Clone {
        self.words[first..end].iter().map(|&(s, e)| &self.text[s..e])
    }

    fn label_words_of(&self, idx: usize) -> impl Iterator<Item = &str> + Clone {
        self.words_in(self.entries[idx].label_words)
    }

    /// The words of the entry's aliases.
    fn alias_words_of(&self, idx: usize) -> impl Iterator<Item = &str> + Clone {
        self.words_in((self.entries[idx].label_words.1, self.entries[idx].all_words.1))
    }

    /// The other entries with a label or alias word that `t` only begins
    /// ("sam" begins "samantha", "apple" begins "apples"), or whose word
    /// `t` is the plural of ("lights" with "Hallway Light"): `t` of three
    /// letters or more, the rest of the word starting with a letter.
    fn extending(&self, t: &str, except: usize, stop: &Deadline) -> Vec<usize> {
        if t.chars().count() < 3 || !t.chars().all(char::is_alphabetic) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for idx in 0..self.entries.len() {
            if stop.passed() {
                break;
            }
            // "sam" begins "samantha"; "lights" is the plural of "light".
            let extends = |w: &str| {
                (w.len() > t.len() && w.starts_with(t) && w[t.len()..].starts_with(char::is_alphabetic))
                    || (w.len() >= 3 && (t.strip_suffix('s') == Some(w) || t.strip_suffix("es") == Some(w)))
            };
            if idx != except && self.all_words(idx).any(extends) {
                out.push(idx);
            }
        }
        out
    }

    /// Whether `t` is the candidate's kind, or its plural ("panels").
    fn kind_is(&self, idx: usize, t: &str) -> bool {
        self.entries[idx].kind.is_some_and(|(s, e)| {
            let k = &self.text[s..e];
            k == t || t.strip_suffix('s') == Some(k) || k.strip_suffix('s') == Some(t)
        })
    }

    /// Whether some label holds these words one after another (a scan of
    /// the pool, `false` once `stop` has passed, as `any_word`).
    fn has_run(&self, run: &[&str], stop: &Deadline) -> bool {
        !run.is_empty()
            && !stop.passed_now()
            && self.entries.iter().any(|entry| {
                let (first, end) = entry.label_words;
                self.words[first..end].windows(run.len()).any(|w| w.iter().zip(run).all(|(&(s, e), r)| &self.text[s..e] == *r))
            })
    }

    /// Whether some entry has both words (`a` and `b`) in its label (a
    /// scan of the pool, `false` once `stop` has passed, as `any_word`).
    fn any_entry_has_both(&self, a: &str, b: &str, stop: &Deadline) -> bool {
        !stop.passed_now()
            && (0..self.entries.len()).any(|idx| self.label_words_of(idx).any(|w| w == a) && self.label_words_of(idx).any(|w| w == b))
    }

    /// Whether any label or alias has the word `t`: a lookup once the
    /// vocabulary is built, else a scan of every word of the pool, so the
    /// callers' loops over the input's words are bounded by `stop` here
    /// (once it has passed the answer is `false`, and `find` returns
    /// `DeadlinePassed` before anything reads it).
    fn any_word(&self, t: &str, stop: &Deadline) -> bool {
        if let Some(v) = self.vocab.get() {
            return v.owners_of(&self.text, t).is_some();
        }
        !stop.passed_now() && self.words.iter().any(|&(s, e)| e - s == t.len() && &self.text[s..e] == t)
    }

    /// The candidate's badge: its explicit badge, else the last word of a
    /// label of two words or more when it is a letter or a short number.
    fn badge_of(&self, idx: usize) -> Option<&str> {
        if let Some((s, e)) = self.entries[idx].badge {
            return Some(&self.text[s..e]);
        }
        let (first, end) = self.entries[idx].label_words;
        (end - first >= 2).then(|| self.words_in((end - 1, end)).next()).flatten().filter(|w| is_badge_token(w))
    }

    /// The candidate's words: its label's, then its aliases'.
    fn all_words(&self, idx: usize) -> impl Iterator<Item = &str> {
        let (first, end) = self.entries[idx].all_words;
        self.words[first..end].iter().map(|&(s, e)| &self.text[s..e])
    }

    /// Whether two or three consecutive label words spell `t` together
    /// ("w4" is "W-4", "linkspanel" is "Links Panel").
    /// Whether some entry's label words, two or more joined, may spell
    /// `t` (a cheap test that every `spells_joined` hit passes).
    fn may_spell_joined(&self, t: &str) -> bool {
        self.starts.may_prefix(t.as_bytes())
    }

    /// The entries (ascending) that have each of `words`: a lookup each
    /// when the vocabulary is built, or built now for a long input
    /// (building it costs about one pass over the pool's words), else one
    /// pass over the pool's words. `None` when `stop` passed.
    fn owners_of_words(&self, words: &[&str], stop: &Deadline) -> Option<Vec<Vec<usize>>> {
        let vocab = match self.vocab.get() {
            Some(v) => Some(v),
            None if words.len() > 8 => Some(self.vocab(stop)?),
            None => None,
        };
        if let Some(vocab) = vocab {
            let owners = |t: &&str| vocab.owners_of(&self.text, t).unwrap_or_default().iter().map(|&o| o as usize).collect();
            return Some(words.iter().map(owners).collect());
        }
        let mut exact: Vec<Vec<usize>> = vec![Vec::new(); words.len()];
        for idx in 0..self.entries.len() {
            if stop.passed() {
                return None;
            }
            for w in self.all_words(idx) {
                for (k, t) in words.iter().enumerate() {
                    if w.len() == t.len() && w == *t && exact[k].last() != Some(&idx) {
                        exact[k].push(idx);
                    }
                }
            }
        }
        Some(exact)
    }

    /// The entries (ascending) whose label words, two or more joined,
    /// spell `t`: with the pool's word index, only those with a word that
    /// begins `t` are tried.
    fn spelling_joined(&self, t: &str, stop: &Deadline) -> Vec<usize> {
        let Some(vocab) = self.vocab.get() else {
            return (0..self.entries.len()).take_while(|_| !stop.passed()).filter(|idx| self.spells_joined(*idx, t)).collect();
        };
        let mut tried: Vec<usize> =
            t.char_indices().skip(1).filter_map(|(at, _)| vocab.owners_of(&self.text, &t[..at])).flatten().map(|&o| o as usize).collect();
        tried.sort_unstable();
        tried.dedup();
        tried.retain(|&idx| self.spells_joined(idx, t));
        tried
    }

    fn spells_joined(&self, idx: usize, t: &str) -> bool {
        let word = |i: usize| {
            let (s, e) = self.words[i];
            &self.text[s..e]
        };
        let (first, end) = self.entries[idx].label_words;
        (first..end).any(|i| {
            // Words from i on, while they are a prefix of what is left of t.
            let mut rest = t;
            let mut n = 0;
            for j in i..end.min(i + 3) {
                let w = word(j);
                let Some(r) = rest.strip_prefix(w) else { return false };
                rest = r;
                n += 1;
                if rest.is_empty() {
                    return n >= 2;
                }
            }
            false
        })
    }

    /// The distinct words of the pool within `bound` edits of `t`
    /// (optimal string alignment: a swap of two letters is one edit), each
    /// with its distance and the candidates (pool order) that have it.
    fn near_words(&self, t: &str, bound: usize, stop: &Deadline) -> Vec<NearWord> {
        let near = NearTest::new(t, bound, self.ascii);
        let mut out: Vec<NearWord> = Vec::new();
        if let Some(vocab) = self.vocab.get() {
            // Each distinct word once.
            for &((s, e), (first, end)) in &vocab.words {
                if stop.passed() {
                    break;
                }
                let w = &self.text[s..e];
                if let Some(d) = near.distance(w) {
                    out.push((w.to_string(), d, vocab.owners[first as usize..end as usize].iter().map(|&o| o as usize).collect()));
                }
            }
            return out;
        }
        // Where each word already found is in `out`.
        let mut seen: FxHashMap<&str, usize> = FxHashMap::default();
        for (idx, entry) in self.entries.iter().enumerate() {
            if stop.passed() {
                break;
            }
            for &(s, e) in &self.words[entry.all_words.0..entry.all_words.1] {
                let w = &self.text[s..e];
                if let Some(&at) = seen.get(w) {
                    let owners = &mut out[at].2;
                    if owners.last() != Some(&idx) {
                        owners.push(idx);
                    }
                } else if let Some(d) = near.distance(w) {
                    seen.insert(w, out.len());
                    out.push((w.to_string(), d, vec![idx]));
                }
            }
        }
        out
    }

    /// The fuzzy rung: every entry's best similarity (of its label and
    /// aliases) to the input; the hits at least `min`, and the `ranked` most
    /// similar entries.
    fn fuzzy(&self, core: &str, ranked: usize, min: f32, stop: &Deadline) -> (Vec<Hit>, Vec<usize>) {
        // Levenshtein over characters; over bytes when everything is ASCII
        // (the same distances, without decoding UTF-8 for every label).
        let mut best = FuzzyBest::new(ranked, min);
        if core.is_ascii() && self.ascii {
            let cmp = BatchComparator::new(core.bytes());
            let bag = BagBound::new(core.as_bytes());
            self.similarity(
                &mut best,
                stop,
                |s| bag.upper(s.as_bytes()),
                |s, cutoff| cmp.normalized_similarity_with_args(s.bytes(), &Args::default().score_cutoff(cutoff)),
            );
        } else {
            let cmp = BatchComparator::new(core.chars());
            self.similarity(
                &mut best,
                stop,
                |_| 1.0,
                |s, cutoff| cmp.normalized_similarity_with_args(s.chars(), &Args::default().score_cutoff(cutoff)),
            );
        }
        (best.hits, best.ranked.into_iter().map(|(_, idx)| idx).collect())
    }

    /// Feeds each entry's best similarity (of its label and aliases) to
    /// `best`, asking `sim` only for similarities `best` can still use:
    /// `upper(text)` is a cheap bound of `sim` that rules out most of a large
    /// pool, and `sim(text, cutoff)` is `None` below `cutoff` (rapidfuzz then
    /// skips texts whose length alone rules them out).
    fn similarity(&self, best: &mut FuzzyBest, stop: &Deadline, upper: impl Fn(&str) -> f64, sim: impl Fn(&str, f64) -> Option<f64>) {
        let sim = |text: &str, cutoff: f64| if upper(text) < cutoff { None } else { sim(text, cutoff) };
        for idx in 0..self.entries.len() {
            if stop.passed() {
                break;
            }
            let cutoff = best.cutoff();
            let score = self.aliases(idx).fold(sim(self.label(idx), cutoff), |acc, a| match (acc, sim(a, cutoff)) {
                (Some(x), Some(y)) => Some(x.max(y)),
                (x, y) => x.or(y),
            });
            if let Some(score) = score {
                best.offer(idx, score as f32);
            }
        }
    }
}

/// The fuzzy rung's results, built entry by entry in pool order: every hit
/// (similarity at least `min`) and the `len` most similar entries (pool
/// order for equal similarity). Ranking all entries and keeping the first
/// `len` gives the same list; this only needs exact similarities down to
/// `cutoff`.
struct FuzzyBest {
    len: usize,
    min: f32,
    hits: Vec<Hit>,
    /// (similarity, entry), most similar first, pool order for ties.
    ranked: Vec<(f32, usize)>,
}

impl FuzzyBest {
    fn new(len: usize, min: f32) -> Self {
        FuzzyBest { len, min, hits: Vec::new(), ranked: Vec::with_capacity(len + 1) }
    }

    /// The least similarity an entry offered next could still need to be
    /// known exactly, lowered by far more than f32 rounding (similarities
    /// are compared as f32) so nothing at the boundary is lost.
    fn cutoff(&self) -> f64 {
        let floor = match self.ranked.last() {
            Some(&(kth, _)) if self.ranked.len() == self.len => kth.min(self.min),
            _ if self.len == 0 => self.min,
            _ => return 0.0,
        };
        (f64::from(floor) - 1e-6).max(0.0)
    }

    /// Entries are offered once each, in pool order.
    fn offer(&mut self, entry: usize, score: f32) {
        if score >= self.min {
            self.hits.push(Hit { entry, kind: MatchKind::Fuzzy, score });
        }
        // After every entry at least as similar (they came earlier).
        let at = self.ranked.partition_point(|&(s, _)| s >= score);
        if at < self.len {
            self.ranked.insert(at, (score, entry));
            self.ranked.truncate(self.len);
        }
    }
}

/// An upper bound of the normalized Levenshtein similarity of ASCII text to
/// the query, from the bag distance (characters one side has more of than
/// the other; each needs an edit): one pass of counting, several times
/// cheaper than the distance itself, and in large pools most labels share
/// too few letters with a typo-only input to need it.
struct BagBound {
    counts: [u8; 128],
    len: usize,
}

impl BagBound {
    fn new(query: &[u8]) -> Self {
        let mut counts = [0u8; 128];
        for &b in query {
            let c = &mut counts[usize::from(b & 0x7f)];
            *c = c.saturating_add(1);
        }
        BagBound { counts, len: query.len() }
    }

    /// Letters of `text` the query has fewer of: each needs an edit (a
    /// lower bound of any edit distance).
    fn extra(&self, text: &[u8]) -> usize {
        if text.len() <= 24 {
            // A word: count each letter's earlier occurrences instead of
            // copying the 128 counters (most calls are for short words).
            let mut extra = 0usize;
            for (i, &b) in text.iter().enumerate() {
                let seen = text[..i].iter().filter(|&&x| x & 0x7f == b & 0x7f).count();
                extra += usize::from(seen >= usize::from(self.counts[usize::from(b & 0x7f)]));
            }
            return extra.max(self.len.saturating_sub(text.len() - extra));
        }
        let extra = self.unmatched(text);
        extra.max(self.len.saturating_sub(text.len() - extra))
    }

    /// Letters of `text` left over once each is matched with one of the
    /// query's.
    fn unmatched(&self, text: &[u8]) -> usize {
        let mut left = self.counts;
        let mut extra = 0usize;
        for &b in text {
            let c = &mut left[usize::from(b & 0x7f)];
            let has = u8::from(*c > 0);
            *c -= has;
            extra += usize::from(1 - has);
        }
        extra
    }

    /// `1 - bag_distance / max(len)`, computed as rapidfuzz computes the
    /// similarity from the distance, so it is never below the similarity.
    fn upper(&self, text: &[u8]) -> f64 {
        let extra = self.unmatched(text);
        let shared = text.len() - extra;
        let bound = extra.max(self.len - shared);
        let max = self.len.max(text.len());
        if max == 0 { 1.0 } else { 1.0 - bound as f64 / max as f64 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scope::{Entry, Source};

    fn pool(cands: &[Candidate]) -> Pool<'_> {
        Pool {
            entries: cands.iter().enumerate().map(|(position, cand)| Entry { cand, source: Source::ActiveOptions, position }).collect(),
            cue: None,
            ordinal_source: Some(Source::ActiveOptions),
        }
    }

    fn panels() -> Vec<Candidate> {
        vec![Candidate::new("p", "Links Panels"), Candidate::new("d", "Links Panel D"), Candidate::new("e", "Links Panel E")]
    }

    fn labelled(labels: &[&str]) -> Vec<Candidate> {
        labels.iter().enumerate().map(|(i, l)| Candidate::new(format!("c{i}"), *l)).collect()
    }

    fn find_on(input: &str, cands: &[Candidate], commands: &[Candidate]) -> (Matches, Vec<String>) {
        find_with(input, cands, commands, MatchParams::default())
    }

    fn find_with(input: &str, cands: &[Candidate], commands: &[Candidate], params: MatchParams) -> (Matches, Vec<String>) {
        let lex = Lexicon::shipped();
        let q = Query::new(canonicalize(input, &lex), &lex);
        let p = pool(cands);
        let index = CanonPool::build(&p, &lex, &Deadline::default()).unwrap();
        let m =
            find(input, &q, &p, &index, commands, Rules { lex: &lex, params: &params, ranked: 12, stop: &Deadline::default() }).unwrap();
        let ids = m.reading.named.iter().map(|(e, k)| format!("{}:{}", p.entries[*e].cand.id, k.as_str())).collect();
        (m, ids)
    }

    #[test]
    fn references_table() {
        let table: &[(&str, &[&str])] = &[
            ("Links Panel D", &["d:exact"]),
            ("open links panel d", &["d:normalized"]),
            ("LINKS-PANEL-E!", &["e:normalized"]),
            ("linkspanel d", &["d:normalized"]),
            ("please turn on links panel d now", &["d:label"]),
            ("the second one", &["d:ordinal"]),
            ("2nd", &["d:ordinal"]),
            ("#3", &["e:ordinal"]),
            ("option three", &["e:ordinal"]),
            ("the last one", &["e:ordinal"]),
            ("second to last", &["d:ordinal"]),
            ("the middle one", &["d:ordinal"]),
            ("the top one", &["p:ordinal"]),
            ("panel d", &["d:badge"]),
            ("can you ope panel d pls", &["d:badge"]),
            ("panel d and panel e", &["d:badge", "e:badge"]),
            ("links panel d or links panel e", &["d:label", "e:label"]),
            ("the first or the second", &["p:ordinal", "d:ordinal"]),
            ("links panel", &[]),
            ("sales report", &[]),
            ("fifth", &[]),
        ];
        for (input, want) in table {
            let (_, ids) = find_on(input, &panels(), &[]);
            assert_eq!(ids, *want, "input {input:?}");
        }
    }

    #[test]
    fn the_longest_whole_label_is_the_one_named() {
        let phones = labelled(&["iPhone 15", "iPhone 15 Pro", "iPhone 15 Pro Max"]);
        let (_, ids) = find_on("iphone 15 pro max", &phones, &[]);
        assert_eq!(ids, ["c2:exact"]);
        let (_, ids) = find_on("show me the iphone 15 pro please", &phones, &[]);
        assert_eq!(ids, ["c1:normalized"]);
        let off = MatchParams { longest_label: false, ..MatchParams::default() };
        let (_, ids) = find_with("iphone 15 pro max", &phones, &[], off);
        assert_eq!(ids.len(), 3, "without the rule every contained label is a referent: {ids:?}");
        // Two candidates with the same label are both named.
        let (_, ids) = find_on("panel d", &labelled(&["Panel D", "Panel D"]), &[]);
        assert_eq!(ids, ["c0:exact", "c1:exact"]);
    }

    #[test]
    fn structure_words_are_read() {
        let (m, _) = find_on("not the first one", &panels(), &[]);
        assert!(m.reading.negation && m.reading.named.is_empty());
        assert_eq!(m.reading.negated, [0]);
        let (m, ids) = find_on("the one after panel d", &panels(), &[]);
        assert_eq!((m.reading.relation, ids), (Some(Relation::After), vec!["d:badge".to_string()]));
        let (m, _) = find_on("the one before last", &panels(), &[]);
        assert_eq!(m.reading.relation, None, "a plain position relates nothing");
        let (m, _) = find_on("both", &panels(), &[]);
        assert!(m.reading.plural);
        let (m, _) = find_on("the fifth one", &panels(), &[]);
        assert!(m.reading.out_of_range);
        let (m, _) = find_on("the middle one", &panels()[..2], &[]);
        assert!(m.reading.out_of_range, "no middle in an even count");
        let (m, ids) = find_on("no 2", &panels(), &[]);
        assert_eq!((m.reading.negation, ids), (false, vec!["d:ordinal".to_string()]), "\"no 2\" is number two");
    }

    #[test]
    fn words_single_out_or_share() {
        let reports = labelled(&["Sales Report Q1", "Sales Report Q2", "Sales Report Q3", "Budget Overview"]);
        let table: &[(&str, Words)] = &[
            ("q2", Words::Unique { entry: 1, kind: MatchKind::Shorthand }),
            ("the budget one", Words::Unique { entry: 3, kind: MatchKind::Shorthand }),
            ("overview budget", Words::Unique { entry: 3, kind: MatchKind::Partial }),
            ("sales reprot q3", Words::Unique { entry: 2, kind: MatchKind::Typo }),
            ("salse report q1", Words::Unique { entry: 0, kind: MatchKind::Typo }),
            ("sales report", Words::Shared { entries: vec![0, 1, 2], typo: false }),
            ("q1 or q3", Words::Split(vec![0, 2])),
            ("weather forecast", Words::Unexplained),
        ];
        for (input, want) in table {
            let (m, _) = find_on(input, &reports, &[]);
            assert_eq!(&m.reading.words, want, "input {input:?}");
        }
        // A typo near two different words is never a winner.
        let contacts = labelled(&["John Smith", "Jon Snow"]);
        let (m, _) = find_on("jhon", &contacts, &[]);
        assert_eq!(m.reading.words, Words::Shared { entries: vec![0, 1], typo: true });
    }

    #[test]
    fn aliases_match_like_labels() {
        let mut c = panels();
        c[0].aliases.push("all the links".into());
        let (_, ids) = find_on("all links", &c, &[]);
        assert_eq!(ids, ["p:alias"]);
    }

    #[test]
    fn explicit_badge_wins_over_derived() {
        let mut c = vec![Candidate::new("x", "Revenue chart")];
        c[0].badge = "R".into();
        let (_, ids) = find_on("chart r", &c, &[]);
        assert_eq!(ids, ["x:badge"]);
    }

    #[test]
    fn a_badge_after_another_word_needs_that_word_in_its_label() {
        let (_, ids) = find_on("sales d", &panels(), &[]);
        assert!(ids.is_empty(), "{ids:?}");
    }

    #[test]
    fn a_number_a_label_contains_is_that_label_word_not_a_position() {
        let shoes = labelled(&["Running Shoe 42", "Running Shoe 43", "Running Shoe 44"]);
        let (m, ids) = find_on("44", &shoes, &[]);
        assert_eq!(ids, ["c2:badge"]);
        assert!(!m.reading.out_of_range);
        let (m, ids) = find_on("the 43", &shoes, &[]);
        assert_eq!((ids, m.reading.out_of_range), (vec!["c1:badge".to_string()], false));
    }

    #[test]
    fn fuzzy_ranks_entries_only_when_nothing_stronger_matched() {
        let (m, _) = find_on("xqzv wrtp", &panels(), &[]);
        assert_eq!(m.fuzzy.as_ref().map(Vec::len), Some(3));
        let (m, _) = find_on("links panel d", &panels(), &[]);
        assert!(m.fuzzy.is_none());
    }

    #[test]
    fn commands_match_only_when_named_whole() {
        let cmds = vec![
            Candidate::new("settings", "Open Settings"),
            Candidate::new("recent", "Open Recent"),
            Candidate::new("out", "Log Out"),
            Candidate::new("notif", "Notifications"),
        ];
        let table: &[(&str, Option<(&str, bool)>)] = &[
            ("open recent", Some(("recent", true))),
            ("Open Recent", Some(("recent", true))),
            ("please open recent now", Some(("recent", false))),
            ("log me out", Some(("out", true))),
            ("logout", Some(("out", true))),
            ("show my notifications", Some(("notif", true))),
            ("open sales report", None),
            ("open", None),
            ("settings", None),
            ("recent", None),
        ];
        for (input, want) in table {
            let (m, _) = find_on(input, &panels(), &cmds);
            let got = m.command.map(|c| (cmds[c.index].id.as_str(), c.exact));
            assert_eq!(got, *want, "input {input:?}");
        }
    }

    #[test]
    fn ordinal_table() {
        let lex = Lexicon::shipped();
        let table = [
            ("first", Some(1)),
            ("second one", Some(2)),
            ("3rd option", Some(3)),
            ("25th", Some(25)),
            ("21st", Some(21)),
            ("22th", None),
            ("number 4", Some(4)),
            ("option two", Some(2)),
            ("two", None),
            ("last one", Some(-1)),
            ("second to last", Some(-2)),
            ("2nd to last", Some(-2)),
            ("3rd from the end", Some(-3)),
            ("middle", Some(0)),
            ("0", None),
            ("second panel", None),
            ("12345", None),
        ];
        for (input, want) in table {
            assert_eq!(parse_ordinal(input, &lex), want, "input {input:?}");
        }
    }

    /// The definitions the fast paths above must agree with.
    mod reference {
        use super::super::tokens;

        pub fn eq_case_insensitive(a: &str, b: &str) -> bool {
            if a.is_ascii() && b.is_ascii() { a.eq_ignore_ascii_case(b) } else { a.to_lowercase() == b.to_lowercase() }
        }

        pub fn derived_badge(label: &str) -> Option<&str> {
            let words: Vec<&str> = tokens(label).collect();
            (words.len() >= 2).then(|| words[words.len() - 1]).filter(|w| super::is_badge_token(w))
        }
    }

    /// A match's description: its first five hits as `id:kind:score`, a
    /// count of the rest, then its reading's flags, one space between.
    #[test]
    fn a_match_is_described_in_one_line() {
        let lex = Lexicon::shipped();
        let cands = panels();
        let p = pool(&cands);
        for input in ["links panel", "not the links panels", "open links panel d", "panels d and e", "the tenth one"] {
            let q = Query::new(canonicalize(input, &lex), &lex);
            let rules = Rules { lex: &lex, params: &MatchParams::default(), ranked: 12, stop: &Deadline::default() };
            let index = CanonPool::build(&p, &lex, &Deadline::default()).unwrap();
            let m = find(input, &q, &p, &index, &[], rules).unwrap();
            let mut parts: Vec<String> =
                m.hits.iter().take(5).map(|h| format!("{}:{}:{:.2}", p.entries[h.entry].cand.id, h.kind.as_str(), h.score)).collect();
            if m.hits.len() > 5 {
                parts.push(format!("+{}", m.hits.len() - 5));
            }
            let r = &m.reading;
            let flags = [(r.negation, "negation".to_string()), (r.plural, "plural".into()), (r.out_of_range, "out_of_range".into())];
            let described = m.describe(&p);
            if let Some(rel) = r.relation {
                assert!(described.contains(&format!("relation:{rel:?}").to_lowercase()), "{described:?}");
            }
            for (on, flag) in flags {
                assert_eq!(described.split(' ').any(|w| w == flag), on, "{input:?}: {described:?}");
            }
            assert!(described.starts_with(&parts.join(" ")), "{input:?}: {described:?} against {parts:?}");
            assert!(!described.starts_with(' ') && !described.ends_with(' ') && !described.contains("  "), "{described:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn a_derived_badge_is_the_last_word_of_a_longer_label(label in "(links|panel|d|dd|e|1|12|1234| ){0,20}") {
            let lex = Lexicon::shipped();
            let cands = vec![Candidate::new("x", label.clone())];
            let mut canon = CanonPool::with_capacity(&pool(&cands));
            canon.push(&cands[0], &lex);
            let canonical = canonicalize(&label, &lex);
            proptest::prop_assert_eq!(canon.badge_of(0), reference::derived_badge(&canonical));
        }

        /// The cheap test lets every word through that some entry spells,
        /// and the vocabulary's shortlist finds every entry that spells it.
        #[test]
        fn a_word_an_entry_spells_passes_the_cheap_test_and_the_shortlist(t in "(ab|a|b|cd|c|1|12|x|abc|z){1,4}", labels in proptest::collection::vec(proptest::collection::vec("(ab|a|b|cd|c|1|12|x|abc)", 1..4), 1..10)) {
            let lex = Lexicon::shipped();
            let cands: Vec<Candidate> = labels.iter().enumerate().map(|(i, l)| Candidate::new(format!("c{i}"), l.join(" "))).collect();
            let canon = CanonPool::build(&pool(&cands), &lex, &Deadline::default()).unwrap();
            let spelling: Vec<usize> = (0..cands.len()).filter(|idx| canon.spells_joined(*idx, &t)).collect();
            if !spelling.is_empty() {
                proptest::prop_assert!(canon.may_spell_joined(&t));
            }
            proptest::prop_assert_eq!(&canon.spelling_joined(&t, &Deadline::default()), &spelling);
            canon.vocab(&Deadline::default()).unwrap();
            proptest::prop_assert_eq!(canon.spelling_joined(&t, &Deadline::default()), spelling);
        }

        /// Every word's owners from the vocabulary are the entries a scan
        /// of the pool finds, and a word no entry has has none.
        #[test]
        fn the_vocabulary_lists_every_owner_of_a_word(labels in proptest::collection::vec("[a-c]{1,2}( [a-c]{1,2}){0,3}", 1..30), t in "[a-c]{1,2}") {
            let lex = Lexicon::shipped();
            let cands: Vec<Candidate> = labels.iter().enumerate().map(|(i, l)| Candidate::new(format!("c{i}"), l.clone())).collect();
            let canon = CanonPool::build(&pool(&cands), &lex, &Deadline::default()).unwrap();
            let scanned = canon.owners_of_words(&[t.as_str()], &Deadline::default()).unwrap();
            let vocab = canon.vocab(&Deadline::default()).unwrap();
            let looked_up: Vec<usize> = vocab.owners_of(&canon.text, &t).unwrap_or_default().iter().map(|&o| o as usize).collect();
            proptest::prop_assert_eq!(&looked_up, &scanned[0]);
            proptest::prop_assert_eq!(canon.owners_of_words(&[t.as_str()], &Deadline::default()).unwrap(), scanned);
            proptest::prop_assert_eq!(canon.any_word(&t, &Deadline::default()), !looked_up.is_empty());
        }

        /// A label's joined length kept with the pool is its canonical
        /// form's bytes less its spaces (what `label_mentions` compares).
        #[test]
        fn a_label_joined_length_is_its_bytes_less_its_spaces(label in "(Links|  |Ünits|-|d|2|'s|ﬁ| |\\.){0,8}") {
            let lex = Lexicon::shipped();
            let cands = [Candidate::new("c", label)];
            let canon = CanonPool::build(&pool(&cands), &lex, &Deadline::default()).unwrap();
            let form = canon.label(0);
            proptest::prop_assert_eq!(canon.entries[0].label_joined as usize, form.len() - form.bytes().filter(|b| *b == b' ').count());
        }

        /// A score is written as `{:.2}` writes it, ties and signs included.
        #[test]
        fn a_score_is_written_to_two_places_as_the_formatter_writes_it(bits in proptest::num::u32::ANY, quarter in 0u32..4000) {
            for x in [f32::from_bits(bits), quarter as f32 / 400.0, quarter as f32 / 8.0, -(quarter as f32) / 800.0, 0.125, 0.375, -0.0] {
                let mut out = String::new();
                two_places(&mut out, x);
                proptest::prop_assert_eq!(out, format!("{x:.2}"));
            }
        }

        /// The fuzzy rung skips similarities it cannot use; its hits and
        /// ranking must be those of scoring every entry in full.
        #[test]
        fn fuzzy_ranking_equals_scoring_every_entry(
            input in "(lnks|panle|sles|reprot|dd|ee|qq|2o24| ){1,6}",
            labels in proptest::collection::vec(("(links|panel|sales|report|dashboard|d|e|q|2024| ){0,5}", proptest::collection::vec("(links|panel|sales|rep|d| ){0,3}", 0..2)), 0..40),
            ranked in 0usize..8,
            min in 0.0f32..1.0,
        ) {
            let lex = Lexicon::shipped();
            let cands: Vec<Candidate> = labels.iter().enumerate().map(|(i, (l, a))| Candidate { aliases: a.clone(), ..Candidate::new(format!("c{i}"), l.clone()) }).collect();
            let q = Query::new(canonicalize(&input, &lex), &lex);
            let p = pool(&cands);
            let params = MatchParams { fuzzy_min_similarity: min, ..MatchParams::default() };
            let index = CanonPool::build(&p, &lex, &Deadline::default()).unwrap();
            let m = find(&input, &q, &p, &index, &[], Rules { lex: &lex, params: &params, ranked, stop: &Deadline::default() }).unwrap();
            proptest::prop_assume!(m.fuzzy.is_some());

            let sim = |s: &str| rapidfuzz::distance::levenshtein::normalized_similarity(q.core.chars(), canonicalize(s, &lex).chars()) as f32;
            let scores: Vec<f32> = cands.iter().map(|c| c.aliases.iter().fold(sim(&c.label), |acc, a| acc.max(sim(a)))).collect();
            let mut order: Vec<usize> = (0..cands.len()).collect();
            order.sort_by(|a, b| scores[*b].total_cmp(&scores[*a]).then(a.cmp(b)));
            let want_hits: Vec<(usize, f32)> = order.iter().filter(|i| scores[**i] >= min).map(|i| (*i, scores[*i])).collect();
            let got_hits: Vec<(usize, f32)> = m.hits.iter().filter(|h| h.kind == MatchKind::Fuzzy).map(|h| (h.entry, h.score)).collect();
            proptest::prop_assert_eq!(got_hits, want_hits);
            order.truncate(ranked);
            proptest::prop_assert_eq!(m.fuzzy.unwrap(), order);
        }

        /// The cheap filters of `near_words` never drop a word within
        /// the bound.
        #[test]
        fn near_words_are_every_word_within_the_bound(t in "[a-z]{2,8}", labels in proptest::collection::vec("[a-z]{1,9}( [a-z]{1,9}){0,2}", 1..20), bound in 0usize..3) {
            let lex = Lexicon::shipped();
            let cands: Vec<Candidate> = labels.iter().enumerate().map(|(i, l)| Candidate::new(format!("c{i}"), l.clone())).collect();
            let mut canon = CanonPool::with_capacity(&pool(&cands));
            for c in &cands {
                canon.push(c, &lex);
            }
            let scanned = canon.near_words(&t, bound, &Deadline::default());
            let mut got: Vec<String> = scanned.iter().map(|(w, _, _)| w.clone()).collect();
            got.sort();
            let mut want: Vec<String> = canon.words.iter().map(|&(s, e)| canon.text[s..e].to_string())
                .filter(|w| w.len() >= 2 && rapidfuzz::distance::osa::distance(t.chars(), w.chars()) <= bound).collect();
            want.sort();
            want.dedup();
            proptest::prop_assert_eq!(got, want);
            // With the pool's word index: the same words, distances and
            // owners, in the same order.
            canon.vocab(&Deadline::default()).unwrap();
            proptest::prop_assert_eq!(canon.near_words(&t, bound, &Deadline::default()), scanned);
        }

        #[test]
        fn the_bag_bound_never_exceeds_the_edit_distance(a in "[a-c ]{0,10}", b in "[a-c ]{0,40}") {
            let d = rapidfuzz::distance::osa::distance(a.bytes(), b.bytes());
            proptest::prop_assert!(BagBound::new(a.as_bytes()).extra(b.as_bytes()) <= d);
        }

        #[test]
        fn the_bag_bound_is_never_below_the_similarity(a in "[ -~]{0,20}", b in "[ -~]{0,30}") {
            let sim = rapidfuzz::distance::levenshtein::normalized_similarity(a.bytes(), b.bytes());
            proptest::prop_assert!(BagBound::new(a.as_bytes()).upper(b.as_bytes()) >= sim);
        }

        #[test]
        fn raw_input_equals_labels_as_eq_case_insensitive_does(raw in "\\PC{0,8}", label in "(\\PC|\u{212A}|K| ){0,8}") {
            let raw = raw.trim();
            proptest::prop_assert_eq!(RawInput::new(raw).eq_label(&label, label.is_ascii()), reference::eq_case_insensitive(raw, label.trim()));
        }

        /// Words a label contains, spelled apart in the input, name it;
        /// joined they name it too when `joined_words` is on, and only then.
        #[test]
        fn joined_words_name_a_label_only_when_allowed(words in proptest::collection::vec("[a-z]{3,6}", 2..4)) {
            let label = words.join(" ");
            let cands = vec![Candidate::new("x", label.clone()), Candidate::new("y", "zzzz qqqq")];
            let joined = words.concat();
            let (_, on) = find_with(&joined, &cands, &[], MatchParams::default());
            let (_, off) = find_with(&joined, &cands, &[], MatchParams { joined_words: false, ..MatchParams::default() });
            let lex = Lexicon::shipped();
            proptest::prop_assume!(words.iter().all(|w| !lex.filler.starts_with(w)));
            proptest::prop_assert_eq!(on, vec!["x:normalized".to_string()]);
            proptest::prop_assert!(off.is_empty());
        }
    }
}
