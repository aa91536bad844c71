//! Matching: what the canonical input names in the pool, read the way a
//! careful person reads it (docs/deciding.md).
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
//! The result, the [`Referents`], says which candidates are named, excluded or
//! related, and what the remaining words single out; `classify` turns it
//! into confidence, the clarifier into the options it offers. Matching
//! itself decides nothing.
//!
//! When nothing is named, a fuzzy rung (`rapidfuzz`: bit-parallel
//! Levenshtein over the whole input, the query preprocessed once) ranks the
//! pool for the clarifier and the LLM; it never decides on its own.
//!
//! # Layout
//!
//! This module is the step, [`find`], and the types it reads into; each
//! rule lives in its own file, its tests in the `tests.rs` beside it
//! (`matching/<rule>/tests.rs`):
//!
//! - `mentions`: whole labels and aliases, the raw input compared with the
//!   labels as sent, the input's structure (negations, relations, plurals)
//!   and the words that name nothing (request phrasing);
//! - `positions`: positions (ordinals in every form, [`parse_ordinal`])
//!   and badges;
//! - `words`: what the other words single out, the principle
//!   (`Said::accounts_for`: only what the input fully accounts for may
//!   execute) and the partial overlaps that rank the clarifier; its tests
//!   hold the principle's property tests, run end to end through `decide`;
//! - `value_words`: a value said another way ("Aug 4th" for "Mon 4 Aug",
//!   "medium" for "M"), said for the options that show it;
//! - `typo`: words within the edit bound, the fuzzy rung, the bag bound;
//! - `commands`: a known command, named whole;
//! - `index`: the pool's canonical index ([`CanonPool`]: labels, aliases,
//!   badges, kinds and words, and the vocabulary), built once per pool.
//!
//! The step's own tests (the references table, the trace detail) and the
//! harness the rules' tests share are in `matching/tests.rs`.
//!
//! Matching reads the index it is handed and keeps nothing. Caches are not
//! rules: the memo of canonical pools of recent requests is
//! `crate::intern`'s, and the sequence asks it for the index
//! (`intern::pool_index`); `intern/tests.rs` checks that it never changes a
//! match or a decision.

pub(crate) mod aside;
mod commands;
mod index;
mod mentions;
mod positions;
pub(crate) mod sequence;
mod short_forms;
mod synonyms;
mod typo;
mod value_words;
mod words;

pub use index::{CanonLabel, CanonPool};
pub use mentions::in_the_labels_words;
pub use positions::{parse_ordinal, says_the_place_otherwise, signed_digits, value_digits};

use super::lexicon::Lexicon;
use super::scope::Pool;
use super::text::words;
use super::types::Candidate;
use crate::cost::{DeadlinePassed, DeadlineWatch};
use commands::match_command;
use mentions::{RawInput, Screen, label_mentions, mark_empty_words, mark_verb_uses, read_structure, unless_only_phrasing, verb_frames};
use positions::{badge_mentions, position_mentions, resolve_position, signed_mentions};
use words::{Said, ranking_hits, widen_by_shared_forms, word_evidence};

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
        let toks: Vec<&str> = words(&full).collect();
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

/// A word of the input that a rule reads as said for some entries only
/// (docs/deciding.md#the-principle-execute-only-what-the-input-fully-accounts-for): the everyday verb
/// that fits the option, the thing a setting verb sets, the object of an
/// option that is a bare action. For any other entry it is left over.
#[derive(Debug, Clone, PartialEq)]
pub struct Licence {
    /// Input token index.
    pub tok: usize,
    pub word: String,
    /// The entries it is said for (pool order).
    pub entries: Vec<usize>,
    /// The rule, as the trace names it.
    pub rule: &'static str,
}

/// What the input says, as a careful person reads it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Referents {
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
    /// A clause after the first says an option it names is too much ("...,
    /// the ICE is too expensive"): never executed as a whole
    /// (`aside::judged_too_much`; the first clause alone may be).
    pub excess: bool,
    /// A position outside the list ("the fifth one" of three, "the middle
    /// one" of four).
    pub out_of_range: bool,
    pub words: Words,
    /// Entries that could win (those named, and the one the words single
    /// out) and account for the whole input: every content word is theirs
    /// and nothing of theirs that sets them apart is left unsaid
    /// (`Said::accounts_for`). Only these may execute.
    pub complete: Vec<usize>,
    /// Of `complete`: entries whose whole label, or a whole alias, the
    /// input says (what a high-risk candidate needs).
    pub whole: Vec<usize>,
    /// The words a rule reads as said for some entries only ([`Licence`]).
    pub licences: Vec<Licence>,
}

impl Referents {
    /// Whether the input names, excludes or relates candidates in a way a
    /// person never acts on without asking.
    pub fn never_executes(&self) -> bool {
        self.negation || self.relation.is_some() || self.plural || self.excess
    }

    /// Whether the input accounts for this entry and nothing else.
    pub fn accounts_for(&self, entry: usize) -> bool {
        self.complete.contains(&entry)
    }

    /// The rules that read words as said for `entry`, and how many each (the
    /// `classify` step's detail): `value: 2 words, set_to: 1 words`.
    pub fn accounted_by(&self, entry: usize) -> String {
        // Rules and how many words each read, never the words themselves:
        // trace details leave the process whatever `redact_input` says.
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for l in self.licences.iter().filter(|l| l.entries.contains(&entry)) {
            match counts.iter_mut().find(|(r, _)| *r == l.rule) {
                Some((_, n)) => *n += 1,
                None => counts.push((l.rule, 1)),
            }
        }
        counts.iter().map(|(r, n)| format!("{r}: {n} words")).collect::<Vec<_>>().join(", ")
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
    pub reading: Referents,
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
        if r.excess {
            part(&mut out, format_args!("excess"));
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
    /// a position in the options shown (docs/deciding.md#risk).
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
    /// A word that is a noun and an action, said as the request's verb
    /// ("track my parcel", `mentions::mark_verb_uses`): content that only
    /// the candidate's own words explain, never phrasing nor a noun
    /// describing it.
    Verb,
}

/// A reference found in the input.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Mention {
    /// Input token range.
    span: (usize, usize),
    entry: usize,
    kind: MatchKind,
}

/// What `find` matches by: the lexicon, the `matching.*` switches, how
/// many fuzzy entries to rank (`Policy::tie_len`), and the deadline.
#[derive(Clone, Copy)]
pub struct Rules<'a> {
    pub lex: &'a Lexicon,
    pub params: &'a MatchParams,
    pub ranked: usize,
    pub stop: &'a DeadlineWatch,
}

/// Marks the words that end the input asking for one more thing
/// ("too", "as well": the lexicon's `additive_tails`) as phrasing, when
/// a word before them is not phrasing ("too" alone names nothing).
fn additive_tail(toks: &[&str], roles: &mut [Role], lex: &Lexicon) {
    let Some(at) = (1..toks.len()).find(|i| lex.additive_tails.match_at(toks, *i) == Some(toks.len() - i)) else { return };
    if roles[at..].iter().all(|r| *r == Role::Content) && roles[..at].iter().any(|r| *r != Role::Empty) {
        roles[at..].fill(Role::Empty);
    }
}

/// Marks who a request is for as phrasing ("send this to my sister", "a
/// kids cut for my son", "el tinte para mi madre": the lexicon's
/// `for_whom`, then one or two words that end the input, the last one of
/// its `people`, none of them a word any option shows, a function word,
/// or one of the lexicon's words for items and actions), after a word
/// that is not phrasing.
fn for_whom(toks: &[&str], roles: &mut [Role], canon: &CanonPool, lex: &Lexicon, stop: &DeadlineWatch) {
    for i in 1..toks.len() {
        let Some(n) = lex.for_whom.match_at(toks, i) else { continue };
        let rest = toks.len().saturating_sub(i + n);
        let whom = &toks[(i + n).min(toks.len())..];
        if !(1..=2).contains(&rest)
            || !whom.last().is_some_and(|w| lex.people.contains(*w))
            || roles[i + n..].iter().any(|r| *r != Role::Content)
            || whom.iter().any(|w| canon.any_word(w, stop) || typo::lexicon_word(w, lex) || lex.function_words.contains(*w))
            || !roles[..i].iter().any(|r| *r != Role::Empty)
        {
            continue;
        }
        roles[i..].fill(Role::Empty);
        return;
    }
}

/// Marks a day said from today with a time of day ("7:15 tomorrow",
/// "quarter past seven tmrw", "morgen um 8": the lexicon's
/// `relative_days`) as phrasing where options show times and none shows
/// a day (a weekday, a date, a month, or such a word): the user says
/// which day the time is on, and no option differs by it. Without a time
/// it may say when to act ("accept the offer tomorrow"): a word like any
/// other.
fn relative_days(raw: &str, toks: &[&str], roles: &mut [Role], pool: &Pool<'_>, lex: &Lexicon, stop: &DeadlineWatch) {
    use crate::values::Dim;
    let said: Vec<usize> = (0..toks.len()).filter(|k| roles[*k] == Role::Content && lex.relative_days.contains(toks[*k])).collect();
    if said.is_empty() || !crate::values::values(raw).iter().any(|v| matches!(v.dim, Dim::Clock | Dim::DayPart)) {
        return;
    }
    // Each option's values are read once, within the deadline.
    let mut shown = Vec::with_capacity(pool.len());
    for e in &pool.entries {
        if stop.passed() {
            return;
        }
        shown.push(crate::values::shown(e.cand));
    }
    if !shown.iter().any(|v| v.iter().any(|v| v.dim == Dim::Clock)) {
        return;
    }
    let shows_day = |k: usize, c: &Candidate| {
        crate::values::shows_a_date(&shown[k])
            || [&c.label, &c.sublabel].iter().any(|t| crate::text::normalize(t).split(' ').any(|w| lex.relative_days.contains(w)))
    };
    if pool.entries.iter().enumerate().any(|(k, e)| shows_day(k, e.cand)) || stop.passed_now() {
        return;
    }
    for k in said {
        roles[k] = Role::Empty;
    }
}

/// Whether the input's words, a position word among them, are the words
/// of one label but its numbers ("first class" for "First class – £69"
/// beside "Second class – £39", "la dernière séance" for "Dernière séance
/// – 22h40"): the label's name said whole, which no position reading
/// stands beside. Never where the words are those of two labels, or one
/// of them is no word of that label ("the final one").
fn names_one_label(toks: &[&str], roles: &[Role], span: (usize, usize), canon: &CanonPool, lex: &Lexicon, stop: &DeadlineWatch) -> bool {
    let said: Vec<&str> = (0..toks.len())
        .filter(|k| ((span.0..span.1).contains(k) || roles[*k] == Role::Content) && !lex.function_words.contains(toks[*k]))
        .map(|k| toks[k])
        .collect();
    let named = |e: usize| {
        let name: Vec<&str> = canon.label_words_of(e).filter(|w| !w.bytes().any(|b| b.is_ascii_digit())).collect();
        name.len() >= 2 && said.len() == name.len() && said.iter().all(|t| name.contains(t))
    };
    let mut found = 0;
    for e in 0..canon.entries.len() {
        if stop.passed() {
            return false;
        }
        found += usize::from(named(e));
    }
    found == 1
}

/// Whether `t` is the word `k`, or one is the other with an "s" ("panel"
/// and "panels"): how a kind is said.
pub(crate) fn same_or_plural(k: &str, t: &str) -> bool {
    k == t || t.strip_suffix('s') == Some(k) || k.strip_suffix('s') == Some(t)
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
    let toks: Vec<&str> = words(&q.full).collect();
    let core_start = toks.len() - words(&q.core).count();
    let mut roles = vec![Role::Content; toks.len()];
    let raw_eq =
        |idx: usize| !raw_input.text.is_empty() && raw_input.eq_label(&pool.entries[idx].cand.label, canon.entries[idx].label_ascii);
    let mut mentions = label_mentions(&toks, core_start, canon, params, stop, raw_eq);
    for m in &mentions {
        roles[m.span.0..m.span.1].fill(Role::Reference);
    }
    let structure = read_structure(&toks, &mut roles, canon, lex, stop);
    let mut out_of_range = false;
    let values = value_digits(raw);
    let screen = Screen { pool, canon, lex, params, stop };
    let positions = position_mentions(&toks, &mut roles, &screen, &values);
    // "the GPS too", "the overstory as well": one more option named by its
    // words; beside a position the tail stays a word of its own.
    if positions.is_empty() {
        additive_tail(&toks, &mut roles, lex);
    }
    for_whom(&toks, &mut roles, canon, lex, stop);
    relative_days(raw, &toks, &mut roles, pool, lex, stop);
    let mut badges = badge_mentions(&toks, &mut roles, canon, lex, &values, stop);
    let (signed, unshown, directions) = signed_mentions(raw, &toks, &mut roles, pool, canon, lex, stop);
    positions::drop_other_signs(raw, &mut mentions, pool);
    badges.extend(signed);
    mark_empty_words(&toks, &mut roles, canon, lex, stop);
    unless_only_phrasing(&toks, &mut roles, canon, lex, stop);
    // A number past the end of the list ("the 12th" over three dates, "9"
    // over five times) is no position: a value that options show reads it
    // (`value_words`), or it is asked as out of range.
    let past_end = |p: &positions::Position| p.n > 0 && resolve_position(pool, None, p.n).is_none();
    let read_as_positions: Vec<(usize, usize)> = positions.iter().filter(|p| !past_end(p)).map(|p| p.span).collect();
    for p in positions.iter().filter(|p| past_end(p) && !p.also_word) {
        roles[p.span.0..p.span.1].fill(Role::Content);
    }
    let mut licences = value_words::value_licences(raw, &toks, &mut roles, &read_as_positions, &screen);
    licences.extend(directions);
    let valued = |p: &positions::Position| licences.iter().any(|l| l.rule == "value" && p.span.0 <= l.tok && l.tok < p.span.1);
    let positions: Vec<positions::Position> = positions.into_iter().filter(|p| !(past_end(p) && valued(p))).collect();
    let ordinals: Vec<((usize, usize), i32)> = positions
        .iter()
        .filter(|p| past_end(p) && !p.also_word && !toks[p.span.0..p.span.1].iter().any(|t| t.bytes().all(|b| b.is_ascii_digit())))
        .map(|p| (p.span, p.n))
        .collect();
    let days = value_words::ordinal_days(&ordinals, &mut roles, &toks, &screen);
    let dated = |p: &positions::Position| days.iter().any(|l| p.span.0 <= l.tok && l.tok < p.span.1);
    let positions: Vec<positions::Position> = positions.into_iter().filter(|p| !dated(p)).collect();
    licences.extend(days);
    for p in positions.iter().filter(|p| past_end(p) && !p.also_word) {
        roles[p.span.0..p.span.1].iter_mut().filter(|r| **r == Role::Content).for_each(|r| *r = Role::Reference);
    }
    value_words::value_nouns(&toks, &mut roles, &mut licences, &screen);
    value_words::codes_as_said(&toks, &mut licences, &screen);
    licences.extend(value_words::code_parts(&toks, &mut roles, &screen));
    value_words::today_licences(&toks, &mut roles, &mut licences, &screen);
    licences.extend(value_words::quantity_licences(raw, &toks, &mut roles, &screen));
    // A count's noun that is a label's name too names only the options
    // the count says ("12 eggs" over "Eggs (6 pack)", "Eggs (12 pack)").
    // Only a mention said within the count's words ("eggs"), never a
    // label said around it ("iphone 15 pro max").
    mentions.retain(|m| {
        !(m.span.0..m.span.1).all(|k| licences.iter().any(|l| l.rule == "quantity" && l.tok == k && !l.entries.contains(&m.entry)))
    });
    licences.extend(short_forms::short_form_licences(&toks, &mut roles, &screen));
    licences.extend(synonyms::synonym_licences(&toks, &mut roles, &screen));
    licences.extend(synonyms::compound_licences(&toks, &mut roles, &screen));
    // A badge or a signed number names an option as a label does: "set my
    // home clock to +2" sets the option it names.
    let named: Vec<Mention> = mentions.iter().chain(&badges).cloned().collect();
    licences.extend(verb_frames(&toks, &mut roles, &named, &screen));
    licences.extend(mentions::fitting_verbs(&toks, &mut roles, &screen));
    licences.extend(mentions::kind_words(&toks, &mut roles, &screen));
    let words = word_evidence(&toks, &roles, canon, lex, params, stop);

    // Positions inside a subset the words single out ("the second jazz
    // playlist", "the fourth report") count within it; a position's own
    // word that labels also say ("final" of "the final one" with
    // "report_final.pdf") singles out no subset to count in.
    let own_words;
    let subset_words = if positions.iter().any(|p| p.also_word) {
        let mut without = roles.clone();
        for p in positions.iter().filter(|p| p.also_word) {
            without[p.span.0..p.span.1].iter_mut().filter(|r| **r == Role::Content).for_each(|r| *r = Role::Empty);
        }
        own_words = word_evidence(&toks, &without, canon, lex, params, stop);
        &own_words
    } else {
        &words
    };
    let subset = match subset_words {
        Words::Shared { entries, typo: false } if entries.len() >= 2 => Some(entries.as_slice()),
        _ => None,
    };
    for pos in positions {
        match resolve_position(pool, subset, pos.n) {
            // A bare number that is a label's word and another entry's
            // position ("2" with "Song 2" third): both are named, and a
            // person asks which.
            Some(entry) if pos.also_word => {
                if !toks[pos.span.0..pos.span.1].iter().any(|t| canon.label_words_of(entry).any(|w| w == *t))
                    && !names_one_label(&toks, &roles, pos.span, canon, lex, stop)
                {
                    mentions.push(Mention { span: pos.span, entry, kind: MatchKind::Ordinal });
                }
            }
            None if pos.also_word => {}
            Some(entry) => {
                mentions.push(Mention { span: pos.span, entry, kind: MatchKind::Ordinal });
                // The same place said another way by a label ("el primero"
                // with "Primer plato"), or a number a label's code starts
                // with ("room 3" with "Room 3B"): those options are named
                // too, and a person asks which.
                for other in positions::other_readings(&toks[pos.span.0..pos.span.1], pos.n, canon, lex, stop) {
                    if other != entry && !mentions.iter().any(|m| m.entry == other && m.span == pos.span) {
                        mentions.push(Mention { span: pos.span, entry: other, kind: MatchKind::Ordinal });
                    }
                }
            }
            None => out_of_range = true,
        }
    }
    let ordinal_labels = positions::ordinal_labels(&toks, &mentions, pool, lex, params);
    mentions.extend(ordinal_labels);
    mentions.extend(badges);
    // Once something is named, a generic noun ("the last track", "the
    // first setting") may only describe it: it is not a second referent,
    // but the winner must still account for it (`accounts_for`).
    let mut described = Vec::new();
    let words = if mentions.is_empty() {
        // Nothing named: a noun that is also an action, said as the
        // request's verb, asks for that action ("track my parcel").
        if mark_verb_uses(&toks, &mut roles, &screen, false, &mut licences) {
            word_evidence(&toks, &roles, canon, lex, params, stop)
        } else {
            words
        }
    } else {
        // Something is named that is itself an action ("Order", "Report
        // fraud"), or that another option says more of ("Order" and
        // "Order status"): another action, said as the request's verb, is
        // still that action and may be what tells them apart ("track my
        // order" is neither). An item named alone ("Parcel to Berlin")
        // takes the everyday actions on it.
        let acts_or_extended = |e: usize| {
            canon.label_words_of(e).next().is_some_and(|w| lex.verb_nouns.contains(w) || lex.actions.contains(w))
                || (0..canon.entries.len()).any(|o| {
                    o != e
                        && canon.label_words_of(o).count() > canon.label_words_of(e).count()
                        && canon.label_words_of(e).all(|w| canon.label_words_of(o).any(|x| x == w))
                })
        };
        if mentions.iter().any(|m| acts_or_extended(m.entry)) {
            mark_verb_uses(&toks, &mut roles, &screen, true, &mut licences);
        }
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
    let words = widen_by_shared_forms(words, &toks, &roles, canon, lex, stop);
    let words = value_words::narrow(words, &licences, !mentions.is_empty());
    let words = value_words::plain_of_share(words, &toks, &licences, &screen);
    let words = synonyms::narrow(words, &licences);
    mentions.sort_by_key(|m| (m.span.0, std::cmp::Reverse(m.kind)));
    let command = match_command(&raw_input, q, commands, lex, params);
    // Beside a command said whole, "first" is said of the order, not of
    // a place in the list ("show me the price list first").
    if command.is_some() {
        mentions.retain(|m| !(m.kind == MatchKind::Ordinal && toks[m.span.0..m.span.1].iter().all(|t| sequence::FIRST_WORDS.contains(t))));
    }

    let mut reading =
        Referents { out_of_range, words, plural: structure.plural, relation: structure.relation, licences, ..Referents::default() };
    // A word of relation or of plural inside a command said whole ("start
    // over") relates nothing: it is the command's, as one inside a label
    // the input says is the label's (`read_structure`).
    if command.is_some_and(|c| c.exact) {
        (reading.relation, reading.plural) = (None, false);
    }
    reading.negation = structure.negation_at.is_some();
    reading.excess = toks.iter().any(|t| lex.excess.contains(*t)) && aside::judged_too_much(raw, canon, lex, stop);
    for m in &mentions {
        if structure.negation_at.is_some_and(|at| m.span.0 >= at) {
            if !reading.negated.contains(&m.entry) {
                reading.negated.push(m.entry);
            }
        } else if !reading.named.iter().any(|(e, _)| *e == m.entry) {
            reading.named.push((m.entry, m.kind));
        }
    }
    // The principle, execute only what the input fully accounts for, for
    // every entry that could win.
    let licences = reading.licences.clone();
    let said = Said {
        raw,
        toks: &toks,
        roles: &roles,
        described: &described,
        unshown: &unshown,
        licences: &licences,
        counts: Default::default(),
        pool,
        canon,
        lex,
        params,
        stop,
    };
    said.complete(&mut reading, stop);

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
    if stop.passed_now() {
        return Err(DeadlinePassed);
    }
    Ok(Matches { hits, command, fuzzy, reading })
}

#[cfg(test)]
mod tests;
