//! What the words outside any reference single out (`word_evidence`: a
//! candidate, several, or none), and the principle (docs/deciding.md):
//! **execute only what the input fully accounts for** (`Said::accounts_for`:
//! nothing said is left over, and nothing of the entry that sets it apart
//! is left unsaid). Also the partial overlaps that rank the clarifier
//! (`ranking_hits`).
//!
//! Tests: `words/tests.rs`, the words table and the principle's property
//! tests (each class of input a careful person does not act on, tried
//! against the whole ladder; a high-risk candidate executes only on its
//! whole label, an alias or a position) with an example of each rule.

use super::index::{CanonPool, VOCAB_NEAR_WORDS, VOCAB_SMALL_POOL};
use super::typo::{NearWord, known_word, lexicon_word, may_be_slip};
use super::{Hit, MatchKind, MatchParams, MatchTier, Mention, Referents, Role, Words};
use crate::canon::canonicalize;
use crate::cost::DeadlineWatch;
use crate::lexicon::Lexicon;
use crate::scope::Pool;
use crate::text::words;
use crate::values::Dim;
use rustc_hash::FxHashMap;

/// What the content words single out. A generic noun no label contains
/// names nothing; any other word no label contains, exactly or within the
/// edit bound, leaves the input unexplained.
pub(super) fn word_evidence(
    toks: &[&str],
    roles: &[Role],
    canon: &CanonPool,
    lex: &Lexicon,
    params: &MatchParams,
    stop: &DeadlineWatch,
) -> Words {
    let (content, verb): (Vec<&str>, Vec<bool>) =
        toks.iter().zip(roles).filter(|(_, r)| matches!(r, Role::Content | Role::Verb)).map(|(t, r)| (*t, *r == Role::Verb)).unzip();
    let Some(mut exact) = canon.owners_of_words(&content, stop) else { return Words::None };
    // The pool's word index, for the words looked for within the edit
    // bound (and as joined words), when it pays for itself.
    if canon.vocab.get().is_none() {
        let near = content.iter().zip(&exact).filter(|(t, e)| e.is_empty() && params.edit_bound(t.chars().count()) > 0).count();
        if near >= VOCAB_NEAR_WORDS || (near > 0 && canon.words.len() <= VOCAB_SMALL_POOL) {
            canon.vocab(stop);
        }
    }
    let mut matched = WordMatches::new();
    let mut near_cache: FxHashMap<&str, Vec<NearWord>> = FxHashMap::default();
    for (k, t) in content.iter().enumerate() {
        if stop.passed_now() {
            return Words::None;
        }
        if exact[k].is_empty() && params.joined_words && t.len() >= 2 && canon.may_spell_joined(t) {
            exact[k] = canon.spelling_joined(t, stop);
        }
        if !exact[k].is_empty() {
            matched.any_exact = true;
            matched.sets.push(std::mem::take(&mut exact[k]));
            continue;
        }
        matched.shorthand = false;
        let len = t.chars().count();
        let bound = params.edit_bound(len);
        // A word the input repeats is looked for once; a word of its own
        // is no slip of another (`typo::known_word`: no option has this
        // one).
        let known = lexicon_word(t, lex);
        let near: &[NearWord] = if bound > 0 {
            near_cache.entry(*t).or_insert_with(|| {
                let mut near = canon.near_words(t, bound, stop);
                near.retain(|(w, _, _)| may_be_slip(t, w, known));
                near
            })
        } else {
            &[]
        };
        match near {
            [] if !verb[k] && lex.generic_nouns.contains(*t) => {}
            [] if len >= 3 && params.typo_max_edits > 0 && !known => matched.weak.push(t),
            [] => return Words::Unexplained,
            [(_, _, owners)] => matched.near(len, owners.clone(), false),
            several => {
                let mut union: Vec<usize> = several.iter().flat_map(|(_, _, o)| o.iter().copied()).collect();
                union.sort_unstable();
                union.dedup();
                matched.near(len, union, true);
            }
        }
    }
    matched.single_out(canon, stop)
}

/// What the content words matched, gathered word by word (`word_evidence`)
/// before they are read together (`single_out`).
struct WordMatches<'t> {
    /// Each word's candidates (pool order): those with the word, or a word
    /// it is within the edit bound of.
    sets: Vec<Vec<usize>>,
    /// Some word matched only within the edit bound.
    typo: bool,
    /// Some word was within the bound of two different label words
    /// equally (its set holds the owners of both).
    ambiguous_typo: bool,
    /// Every word matched exactly (one such word is a shorthand).
    shorthand: bool,
    /// A word of four letters or fewer that matched only within the edit
    /// bound ("dave" near "date", "lost" near "last") is as likely another
    /// word as a typo: it confirms a candidate other words name exactly,
    /// never names one alone.
    short_typo: bool,
    /// Some word matched exactly (or joined).
    any_exact: bool,
    /// Words of three letters or more that match nothing within the bound
    /// of their length: they may still be a one-letter slip of the winner's
    /// word ("jaz classics", "sushi zne"), checked once the winner is known.
    weak: Vec<&'t str>,
}

impl<'t> WordMatches<'t> {
    fn new() -> Self {
        WordMatches {
            sets: Vec::new(),
            typo: false,
            ambiguous_typo: false,
            shorthand: true,
            short_typo: false,
            any_exact: false,
            weak: Vec::new(),
        }
    }

    /// A word of `len` characters that matched only within the edit bound:
    /// of one label word, or of `several` equally.
    fn near(&mut self, len: usize, owners: Vec<usize>, several: bool) {
        self.typo = true;
        self.short_typo |= len <= 4;
        self.ambiguous_typo |= several;
        self.sets.push(owners);
    }

    /// What the words, read together, single out.
    fn single_out(mut self, canon: &CanonPool, stop: &DeadlineWatch) -> Words {
        if self.sets.is_empty() {
            return if self.weak.is_empty() { Words::None } else { Words::Unexplained };
        }
        let shorthand = self.shorthand && self.sets.len() == 1 && self.weak.is_empty();
        // Each set is in pool order (ascending).
        let mut common: Vec<usize> = self.sets[0].clone();
        for s in &self.sets[1..] {
            common.retain(|e| s.binary_search(e).is_ok());
        }
        if self.short_typo && !self.any_exact && !self.ambiguous_typo && common.len() == 1 {
            return Words::Unexplained;
        }
        if !self.weak.is_empty() {
            // Each weak word must be one edit from a word of the one candidate
            // the others single out, and from no other candidate's word.
            let [winner] = common[..] else { return Words::Unexplained };
            for w in &self.weak {
                let near = canon.near_words(w, 1, stop);
                if near.is_empty() || near.iter().flat_map(|(_, _, o)| o).any(|o| *o != winner) {
                    return Words::Unexplained;
                }
            }
            self.typo = true;
        }
        let union = |sets: Vec<Vec<usize>>| {
            let mut union: Vec<usize> = sets.into_iter().flatten().collect();
            union.sort_unstable();
            union.dedup();
            union
        };
        match common.as_slice() {
            [one] if !self.ambiguous_typo => {
                let kind = if self.typo {
                    MatchKind::Typo
                } else if shorthand {
                    MatchKind::Shorthand
                } else {
                    MatchKind::Partial
                };
                Words::Unique { entry: *one, kind }
            }
            [] => Words::Split(union(self.sets)),
            _ => {
                let entries = if self.ambiguous_typo && common.len() < 2 { union(self.sets) } else { common };
                Words::Shared { entries, typo: self.typo }
            }
        }
    }
}

/// A word that only begins another candidate's word ("sam" with "Sam Lee"
/// and "Samantha Ortiz", "apple" with "Apple Pie" and "Apples") does not
/// tell the two apart: each word's candidates widened by those it shares
/// a form with, the words together must still single one out.
pub(super) fn widen_by_shared_forms(
    words: Words,
    toks: &[&str],
    roles: &[Role],
    canon: &CanonPool,
    lex: &Lexicon,
    stop: &DeadlineWatch,
) -> Words {
    match words {
        Words::Unique { entry, kind } => {
            let mut shared: Option<Vec<usize>> = None;
            for (i, t) in toks.iter().enumerate() {
                let own = canon.label_words_of(entry).chain(canon.alias_words_of(entry)).any(|w| w == *t);
                // A noun that only describes ("the election story") names
                // nobody: it narrows nothing.
                if !matches!(roles[i], Role::Content | Role::Verb) || (!own && roles[i] == Role::Content && lex.generic_nouns.contains(*t))
                {
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
    }
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
pub(super) struct Said<'a> {
    /// The input as the user wrote it (trimmed).
    pub(super) raw: &'a str,
    pub(super) toks: &'a [&'a str],
    pub(super) roles: &'a [Role],
    /// Generic nouns read as describing what is named ("the third song").
    pub(super) described: &'a [usize],
    /// The digits of numbers written with a sign that no option shows with
    /// that sign ("utc-2" where only "UTC+2" is shown): no option accounts
    /// for them (`positions::signed_mentions`).
    pub(super) unshown: &'a [&'a str],
    /// Words a rule reads as said for some entries only: left over for
    /// every other entry.
    pub(super) licences: &'a [super::Licence],
    /// The counts the input says ("3 kids"), read on first need.
    pub(super) counts: std::cell::OnceCell<Vec<crate::values::Value>>,
    pub(super) pool: &'a Pool<'a>,
    pub(super) canon: &'a CanonPool,
    pub(super) lex: &'a Lexicon,
    pub(super) params: &'a MatchParams,
    pub(super) stop: &'a DeadlineWatch,
}

impl Said<'_> {
    /// The principle for every entry that could win (those named, and the
    /// one the words single out): each the input accounts for joins
    /// `reading.complete`, and `reading.whole` too when the input says its
    /// whole label or an alias (`says_whole`).
    pub(super) fn complete(&self, reading: &mut Referents, stop: &DeadlineWatch) {
        let mut could_win: Vec<(usize, MatchKind)> = reading.named.clone();
        if let Words::Unique { entry, kind } = reading.words {
            could_win.push((entry, kind));
        }
        for (entry, kind) in could_win {
            if reading.complete.contains(&entry) {
                continue;
            }
            // A high-risk label is said whole only with the words canonical
            // forms drop as filler ("pay for them" is not "Pay now").
            let high_risk = self.pool.entries[entry].cand.is_high_risk(&self.params.high_risk_kinds);
            let whole = says_whole(entry, self.toks, self.canon) && (!high_risk || self.filler_of_label_unsaid(entry).is_empty());
            if self.accounts_for(entry, kind, whole, stop) {
                reading.complete.push(entry);
                if whole {
                    reading.whole.push(entry);
                }
            }
        }
    }

    /// **Execute only what the input fully accounts for**, for one entry
    /// the input could mean:
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
    fn accounts_for(&self, entry: usize, kind: MatchKind, whole: bool, stop: &DeadlineWatch) -> bool {
        let extra = self.extra_words(entry);
        let own = |t: &str| self.explains(entry, t, &extra);
        // A position names the list's item; the noun with it names the
        // list's kind ("the third song", "the second article").
        let describes = |t: &str| kind == MatchKind::Ordinal || self.describes(entry, t, &extra);
        for (i, t) in self.toks.iter().enumerate() {
            if let Some(l) = self.licences.iter().find(|l| l.tok == i && l.rule != "synonym_phrasing") {
                if !l.entries.contains(&entry) {
                    return false;
                }
                continue;
            }
            let left_over = match self.roles[i] {
                Role::Content if self.unshown.contains(t) => true,
                Role::Content => !(own(t) || self.lex.generic_nouns.contains(*t) && describes(t)),
                // An action asked for: only the entry's own word says it.
                Role::Verb => !own(t),
                Role::Empty if self.described.contains(&i) => !own(t) && !describes(t),
                _ => false,
            };
            if left_over {
                return false;
            }
        }
        if kind != MatchKind::Ordinal && self.filler_unsaid(entry) {
            return false;
        }
        if kind.tier() != MatchTier::Label && self.other_action_said(entry) {
            return false;
        }
        if self.counts_unsaid(entry) {
            return false;
        }
        let by_name = kind.tier() == MatchTier::Label || kind == MatchKind::Ordinal || whole;
        by_name || !((self.action_unsaid(entry, stop) && !self.object_alone(entry)) || self.state_unsaid(entry, stop))
    }

    /// Whether the entry's label opens with an action that is no way of
    /// choosing an item ("Text Mom", "Freeze card"; not "Add a drink" nor
    /// "Book room") and that the input leaves unsaid, while it says another
    /// action of its own ("call mom"): the verb asks for something the
    /// option does not do, even where it is a verb of choosing elsewhere
    /// ("call" a contact). A verb a rule reads as said for the entry
    /// (`Licence`) is its phrasing.
    fn other_action_said(&self, entry: usize) -> bool {
        let lex = self.lex;
        let choosing = |w: &str| lex.selection_verbs.is_phrase(&[w]) || lex.everyday_verbs.is_phrase(&[w]);
        let Some(own) = self.canon.label_words_of(entry).next().filter(|w| lex.actions.contains(*w) && !choosing(w)) else { return false };
        if self.says(own) {
            return false;
        }
        let licensed = |i: usize| self.licences.iter().any(|l| l.tok == i && l.entries.contains(&entry));
        self.toks.iter().zip(self.roles).enumerate().any(|(i, (t, r))| {
            *r != Role::Reference
                && lex.actions.contains(*t)
                && !licensed(i)
                && !self.canon.label_words_of(entry).chain(self.canon.alias_words_of(entry)).any(|w| w == *t)
        })
    }

    /// Whether the input says how many of something the entry counts too
    /// ("3 kids") and the entry shows a count the input does not say: a
    /// bundle that says more ("Group (3 kids + 1 adult)": its "1 adult" is
    /// unsaid). A quantity names the option of its noun, never a bundle
    /// around it.
    fn counts_unsaid(&self, entry: usize) -> bool {
        let said = self.counts.get_or_init(|| crate::values::values(self.raw).into_iter().filter(|v| v.dim == Dim::Count).collect());
        if said.is_empty() {
            return false;
        }
        let mut shown = crate::values::shown(self.pool.entries[entry].cand);
        shown.retain(|v| v.dim == Dim::Count);
        let label = &self.pool.entries[entry].cand.label;
        // "3 rolls" of "Rolls & holder (3 rolls)": a list that counts the
        // noun says more than the count, its other things unsaid (a list
        // said with all its counts, "2 adults and 2 kids", is that list).
        let all_counts = said.len() >= 2 && shown.iter().all(|v| said.iter().any(|s| s.names(v)));
        let counts_the_noun = !all_counts && said.iter().any(|s| shown.iter().any(|v| s.names(v)));
        if counts_the_noun && super::value_words::lists_several(label, self.canon.label_words_of(entry), self.lex) {
            let unsaid = |w: &str| {
                !self.toks.contains(&w)
                    && !crate::values::is_number_word(w)
                    && !self.lex.function_words.contains(w)
                    && !said.iter().any(|s| super::value_words::same_noun(&s.unit, w))
            };
            if self.canon.label_words_of(entry).any(unsaid) {
                return true;
            }
        }
        if !crate::values::says_less(said, &shown) {
            return false;
        }
        // "2 reams" of "1 ream (500 sheets)": one of the noun said is what
        // the count says how many of.
        !said.iter().any(|s| super::value_words::one_of_the_noun(s, label, self.canon.label_words_of(entry), self.lex))
    }

    /// Whether the entry's label holds a word that canonical text drops as
    /// filler ("now" in "Pay $2.50 now") and that tells it from another
    /// option holding every other word of it ("Pay $2.50 later"), while
    /// the input does not say that word: "pay 2.50" says neither option
    /// whole. Canonical forms drop the filler of labels and input alike,
    /// so only the label as written shows it.
    fn filler_unsaid(&self, entry: usize) -> bool {
        let norm = |text: &str| crate::text::fold(&crate::text::normalize(text)).into_owned();
        let own: Vec<&str> = self.canon.label_words_of(entry).collect();
        let dropped = self.filler_of_label_unsaid(entry);
        !dropped.is_empty()
            && (0..self.pool.len()).any(|o| {
                o != entry && own.iter().all(|w| self.canon.label_words_of(o).any(|x| x == *w)) && {
                    let other = norm(&self.pool.entries[o].cand.label);
                    dropped.iter().any(|w| !other.split(' ').any(|x| x == *w))
                }
            })
    }

    /// The words of the entry's label as written that its canonical form
    /// drops as filler ("now" of "Pay now") and the input does not say.
    fn filler_of_label_unsaid(&self, entry: usize) -> Vec<String> {
        let norm = |text: &str| crate::text::fold(&crate::text::normalize(text)).into_owned();
        let label = norm(&self.pool.entries[entry].cand.label);
        let own: Vec<&str> = self.canon.label_words_of(entry).collect();
        let written: Vec<&str> = label.split(' ').filter(|w| !w.is_empty()).collect();
        if written.len() <= own.len() {
            return Vec::new();
        }
        let input = norm(self.raw);
        let said: Vec<&str> = input.split(' ').collect();
        written.iter().filter(|w| !own.contains(w) && !said.contains(w)).map(|w| w.to_string()).collect()
    }

    /// The canonical words of the entry's sublabel and kind: they explain
    /// a word, but never name the entry on their own.
    fn extra_words(&self, entry: usize) -> Vec<String> {
        let c = self.pool.entries[entry].cand;
        let mut out = Vec::new();
        for text in [&c.sublabel, &c.kind] {
            if !text.trim().is_empty() {
                out.extend(words(&canonicalize(text, self.lex)).map(str::to_owned));
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
        if bound == 0 {
            return false;
        }
        canon.label_words_of(entry).chain(canon.alias_words_of(entry)).any(|w| {
            w.chars().count() >= 2
                && rapidfuzz::distance::osa::distance(t.chars(), w.chars()) <= bound
                && may_be_slip(t, w, known_word(t, canon, self.lex, self.stop))
        })
    }

    /// Whether the input says the word `a`: exactly, or by a slip of it
    /// (within the typo bound, and no word of its own: "reactivate" does
    /// not say "activate").
    fn says(&self, a: &str) -> bool {
        let bound = self.params.edit_bound(a.chars().count());
        // A short form of the word says it ("upd8" says "update"), and so
        // does a verb that asks for the same action ("shut" says "close").
        let short = |t: &str| {
            self.licences.iter().any(|l| {
                l.word == t
                    && match l.rule {
                        "short_form" => super::short_forms::stands_for(t, a),
                        "synonym" | "synonym_phrasing" => super::synonyms::says(t, a, self.lex),
                        // "+2" says "Raise" of the option it names by its sign.
                        "direction" => self.lex.raising.contains(a) || self.lex.lowering.contains(a),
                        _ => false,
                    }
            })
        };
        // A verb phrase that says it ("push back" says "reschedule").
        let phrase =
            || self.licences.iter().any(|l| l.rule == "synonym" && l.word.contains(' ') && super::synonyms::says(&l.word, a, self.lex));
        phrase()
            || self.toks.iter().any(|t| {
                short(t)
                    || *t == a
                    || (bound > 0
                        && rapidfuzz::distance::osa::distance(t.chars(), a.chars()) <= bound
                        && may_be_slip(t, a, known_word(t, self.canon, self.lex, self.stop)))
            })
    }

    /// Whether a generic noun the entry does not have may describe it: the
    /// entry's kind is that noun, a noun that fits any item ("version",
    /// "copy": the lexicon's `item_nouns`), or the input says every noun of the
    /// entry's label that names a kind ("the vacation request form" for
    /// "Vacation Request", "the refund one" for "Refund"), so the noun adds
    /// to the label instead of replacing its own ("delete account" is not
    /// "Delete Card").
    fn describes(&self, entry: usize, t: &str, extra: &[String]) -> bool {
        let one = |a: &str, b: &str| a == b || a.strip_suffix('s') == Some(b) || b.strip_suffix('s') == Some(a);
        // "song" says what "Next track" is ("skip this song").
        let plural = |a: &str, b: &str| {
            one(a, b) || self.lex.noun_synonyms.get(a.strip_suffix('s').unwrap_or(a)).is_some_and(|m| m.iter().any(|m| one(m, b)))
        };
        let generic =
            |w: &str| self.lex.generic_nouns.contains(w) || w.strip_suffix('s').is_some_and(|s| self.lex.generic_nouns.contains(s));
        extra.iter().any(|w| plural(w, t))
            || self.lex.item_nouns.contains(t)
            || self.canon.label_words_of(entry).filter(|w| generic(w)).all(|w| self.toks.iter().any(|said| plural(said, w)))
    }

    /// The action word the entry's label opens with, when the input does not say it
    /// (exactly or within the typo bound), and that some other candidate
    /// lacks: the input names the object without the action, and the
    /// action matters.
    fn action_unsaid(&self, entry: usize, stop: &DeadlineWatch) -> bool {
        // The action a label opens with ("Close Account", "Pay bill"): a
        // noun later in a label ("Sales Report", "Address Change") is not one.
        let mut words = self.canon.label_words_of(entry);
        let Some(a) = words.next() else { return false };
        if !self.lex.actions.contains(a) || self.says(a) {
            return false;
        }
        // A light verb carries the action of the word after it ("Make a
        // copy", "Move to Trash"): a synonym of that word said for the
        // entry ("duplicate it", "bin it") says the action.
        if self.lex.light_verbs.contains(a) {
            let object = words.find(|w| !self.lex.function_words.contains(*w));
            if object.is_some_and(|o| {
                self.licences
                    .iter()
                    .any(|l| l.rule == "synonym" && l.entries.contains(&entry) && super::synonyms::says(&l.word, o, self.lex))
            }) {
                return false;
            }
        }
        self.others_lack(entry, a, stop)
    }

    /// Whether the input names the entry by its object alone, which is
    /// enough: the input says the whole object (every label word
    /// after the action but its values, a file's extension and version)
    /// and no verb of its own, no other candidate shows
    /// any word the input says (its label, aliases, sublabel or kind), and
    /// the entry is not high risk. "a refund please" says "Request a refund" beside "Track
    /// parcel"; "account" never says "Close Account" beside "Account
    /// settings", which shares it.
    fn object_alone(&self, entry: usize) -> bool {
        if self.pool.entries[entry].cand.is_high_risk(&self.params.high_risk_kinds) {
            return false;
        }
        let lex = self.lex;
        // The input asks for no action of its own ("start my playlist" is
        // not "Update playlist", "stop" no "Change AI name") ...
        let verb = |t: &str| {
            lex.actions.contains(t)
                || lex.selection_verbs.is_phrase(&[t])
                || lex.everyday_verbs.is_phrase(&[t])
                || lex.cancel_vocabulary.contains(t)
                || lex.verb_nouns.contains(t)
        };
        // A function word of a cancel phrase ("my" of "changed my mind") asks
        // for nothing.
        // A verb a rule reads as the everyday way to choose this entry
        // ("order the fries" for "Add fries · $3.50") is its phrasing.
        let licensed = |i: usize| self.licences.iter().any(|l| l.tok == i && l.entries.contains(&entry));
        if self
            .toks
            .iter()
            .enumerate()
            .any(|(i, t)| verb(t) && !lex.function_words.contains(*t) && !licensed(i) && !self.canon.label_words_of(entry).any(|w| w == *t))
        {
            return false;
        }
        // ... and says the whole object: every word of the label after its
        // action ("ai" is not "Change AI name"). A value the label shows
        // ("(23 kg)", "· $3.50") is a detail of the object, not the object:
        // "fries" says "Add fries · $3.50".
        let object = self.object_words(entry);
        if !object.iter().all(|w| lex.function_words.contains(*w) || self.toks.contains(w)) {
            return false;
        }
        let said: Vec<&str> =
            self.toks.iter().zip(self.roles).filter(|(_, r)| matches!(r, Role::Content | Role::Verb)).map(|(t, _)| *t).collect();
        !said.is_empty()
            && (0..self.pool.len()).filter(|o| *o != entry).all(|o| {
                let extra = self.extra_words(o);
                !said.iter().any(|t| {
                    self.canon.label_words_of(o).chain(self.canon.alias_words_of(o)).any(|w| w == *t) || extra.iter().any(|w| w == t)
                })
            })
    }

    /// The words of the entry's label after its action, without the words
    /// of the values it shows ("checked bag" of "Add checked bag (23 kg) ·
    /// €35"; "2FA" is a word, not the value 2).
    fn object_words(&self, entry: usize) -> Vec<&str> {
        let label = &self.pool.entries[entry].cand.label;
        let spans = crate::values::values_at(label);
        let valued: Vec<String> = spans
            .iter()
            .filter_map(|(_, r)| label.get(r.clone()))
            .flat_map(|text| words(&canonicalize(text, self.lex)).map(str::to_owned).collect::<Vec<_>>())
            .collect();
        // A file's extension and version ("contract_v2.docx") are details
        // of it too: "the contract" says "Share contract_v2.docx".
        let extension = |w: &str| {
            label
                .split_whitespace()
                .any(|part| part.rsplit_once('.').is_some_and(|(name, ext)| !name.is_empty() && ext.eq_ignore_ascii_case(w)))
        };
        let version = |w: &str| w.strip_prefix('v').is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        self.canon.label_words_of(entry).skip(1).filter(|w| !valued.iter().any(|v| v == w) && !extension(w) && !version(w)).collect()
    }

    /// A state word of the entry's label ("blocked" in "Pin blocked"),
    /// anywhere in it, that the input does not say (exactly or by a slip)
    /// and that some other candidate lacks: the input names the object
    /// without its state, and the state matters ("my pin" is not "Pin
    /// blocked"). A partial executes only when what it leaves unsaid is
    /// filler or a generic noun.
    fn state_unsaid(&self, entry: usize, stop: &DeadlineWatch) -> bool {
        // A number of the label the input says identifies the item ("ticket
        // 1057" for "TCK-1057 Invoice missing VAT"): its title's words
        // describe it, as a name's do.
        let identified =
            self.toks.iter().any(|t| t.chars().any(|c| c.is_ascii_digit()) && self.canon.label_words_of(entry).any(|w| w == *t));
        !identified
            && self
                .canon
                .label_words_of(entry)
                .filter(|w| self.lex.states.contains(*w) && !self.says(w))
                .any(|s| self.others_lack(entry, s, stop))
    }

    /// Whether some candidate other than the entry lacks the word `w`.
    fn others_lack(&self, entry: usize, w: &str, stop: &DeadlineWatch) -> bool {
        let canon = self.canon;
        (0..canon.entries.len()).any(|other| {
            !stop.passed() && other != entry && !canon.label_words_of(other).chain(canon.alias_words_of(other)).any(|x| x == w)
        })
    }
}

/// The hits that rank the clarifier: every reference, then what the words
/// point at.
pub(super) fn ranking_hits(
    mentions: &[Mention],
    r: &Referents,
    toks: &[&str],
    roles: &[Role],
    canon: &CanonPool,
    stop: &DeadlineWatch,
) -> Vec<Hit> {
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
        let content: Vec<&str> = toks.iter().zip(roles).filter(|(_, r)| matches!(r, Role::Content | Role::Verb)).map(|(t, _)| *t).collect();
        // Each input word's count, and the last entry that counted it (a
        // label may repeat a word).
        let mut counts: FxHashMap<&str, (usize, usize)> = FxHashMap::default();
        for t in &content {
            counts.entry(*t).or_insert((0, usize::MAX)).0 += 1;
        }
        if !content.is_empty()
            && let Some(vocab) = canon.vocab.get()
        {
            // The pool's vocabulary is built (a screen sent again): each
            // input word's owners, looked up once, count for them (an
            // entry is listed once however often it has the word).
            let mut n = vec![0usize; canon.entries.len()];
            for (t, (count, _)) in &counts {
                for &o in vocab.owners_of(&canon.text, t).unwrap_or_default() {
                    n[o as usize] += *count;
                }
            }
            for (idx, n) in n.into_iter().enumerate() {
                if n > 0 {
                    add(idx, MatchKind::Containment, n as f32 / content.len() as f32);
                }
            }
        } else if !content.is_empty() {
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

#[cfg(test)]
mod tests;
