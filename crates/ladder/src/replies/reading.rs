//! What a reply says, from its words alone: no session, no pool
//! (docs/replies.md). Each clause of the reply (split at sentence punctuation)
//! is read phrase by phrase against the lexicon's reply vocabulary: an
//! affirmation ("yes", "sounds good"), a refusal ("no", "not quite"), a
//! request for other options ("something else"), an abandon ("forget it",
//! "hold on"), a correction ("instead", "actually"), a closing ("that's
//! all, thanks"), a comparison ("the cheaper one"), a repetition ("one
//! more"), an everyday verb ("add", "pull up"); what is left (`rest`) is
//! what may name an option or change a detail. `answer` then reads this
//! against what was asked. Tests: `reading/tests.rs`.

use crate::lexicon::{Lexicon, ReplyWord as Kind};
use crate::text::{fold, normalize};
use crate::values::{Value, values};
use rustc_hash::FxHashSet;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// A reply, as its words read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    /// It says yes.
    pub affirms: bool,
    /// It refuses what was proposed ("no", "not quite", "wrong").
    pub refuses: bool,
    /// It asks for other options ("something else", "any other?").
    pub alternatives: bool,
    /// It abandons the task ("forget it", "hold on").
    pub abandons: bool,
    /// It takes back or changes something ("instead", "actually", "but").
    pub corrects: bool,
    /// It asks for the same again ("one more", "again").
    pub repeats: bool,
    /// A clause of it only closes ("thanks", "that's all").
    pub closes: bool,
    /// A clause that only closes opens with a yes word ("perfect
    /// thanks", "great thanks bye"): a yes to a confirmation, an
    /// acknowledgement to an offer.
    #[serde(default)]
    pub closes_with_a_yes: bool,
    /// Its first clause only closes ("Thanks. I need a cab there."): an
    /// acknowledgement before what follows.
    pub closes_first: bool,
    /// "Not that one", "wrong one": a refusal of the execute just had.
    pub not_that: bool,
    /// "The other one".
    pub the_other: bool,
    /// A clause of it is a question ("what time is it?").
    pub asks: bool,
    /// A comparison (`lexicon::comparison_code`), if it makes one.
    pub comparison: Option<i32>,
    /// Everyday verbs it uses ("add", "pull up"), as phrases.
    pub verbs: Vec<String>,
    /// The words that are not reply phrasing, in order: what may name an
    /// option or change a detail.
    pub rest: Vec<String>,
    /// Words that surround an affirmation without saying more ("that's",
    /// "sounds", "really"): left out of `rest` only when the reply affirms.
    pub context: Vec<String>,
    /// The values it names ("3 people", "7pm", "friday").
    pub values: Vec<Value>,
    /// Of `rest`, the words of clauses with no abandon in them: what an
    /// abandon leaves to read again ("no wait, I'd rather see other dates").
    pub after_abandon: Vec<String>,
    /// An abandon had words of its own clause with it ("never mind the
    /// reply"): it abandons what they name.
    pub abandon_has_object: bool,
    /// Those words.
    pub abandon_object: Vec<String>,
    /// Of `rest`, the words of clauses with no refusal in them: what a
    /// refusal leaves to read again ("no, make it 5:30 instead").
    pub after_refusal: Vec<String>,
    /// Where the clause that first refuses starts in the reply as typed
    /// (a byte offset): what is said before it is what it refuses.
    pub refused_at: Option<usize>,
    /// A refusal had words of its own clause with it ("no chicken curry",
    /// "nicht den ersten"): it negates what they name.
    pub refusal_has_object: bool,
    /// Those words.
    pub refusal_object: Vec<String>,
    /// Each clause's words left (`rest`'s, clause by clause), and whether a
    /// negation opens it: "not the pepperoni, the margherita" is a clause
    /// that negates and one that names what is wanted.
    pub clauses: Vec<Clause>,
}

/// One clause of a reply, as `Reading::clauses` keeps it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Clause {
    pub rest: Vec<String>,
    pub negated: bool,
    /// It says "the other" ("l'autre").
    pub the_other: bool,
    /// It says yes ("sounds good."): a yes in a sentence of its own stands
    /// whatever the next sentence asks for.
    pub affirms: bool,
    /// It asks something ("what time is it showing?").
    pub asks: bool,
    /// All its words, normalized and folded.
    pub words: Vec<String>,
    /// Where it starts in the reply as typed (a byte offset): what a
    /// decision leaves unconsumed is the reply from a clause on
    /// (`Decision.follow_up`).
    #[serde(default)]
    pub start: usize,
}

impl Reading {
    /// Whether it changes a detail: a correction
    /// ("actually", "instead", "make it") with a value ("make it for 1",
    /// "ok, at 7 instead"). Such a turn never executes.
    pub fn changes_a_detail(&self) -> bool {
        self.corrects && !self.values.is_empty()
    }

    /// Whether it refuses or repairs without abandoning: a decline, read
    /// against what was asked, rather than a cancel.
    pub fn declines(&self) -> bool {
        (self.refuses || self.not_that || self.the_other || self.alternatives) && !self.abandons
    }

    /// Whether it says anything a reply says (beyond naming options).
    pub fn is_reply_shaped(&self) -> bool {
        self.affirms || self.refuses || self.alternatives || self.abandons || self.not_that || self.the_other || self.comparison.is_some()
    }
}

/// The clauses of `raw`: its text between sentence punctuation, each with
/// whether it ends in a question mark.
fn clauses(raw: &str) -> Vec<(&str, bool)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in raw.char_indices() {
        // A dash between words ("the blue one - is it washable?") ends a
        // clause as a comma does; inside a word ("gift-wrap") it does not.
        let dash = matches!(c, '-' | '–' | '—')
            && raw[..i].ends_with(char::is_whitespace)
            && raw[i + c.len_utf8()..].starts_with(char::is_whitespace);
        if dash || matches!(c, '.' | '!' | '?' | ';' | ',' | '…' | '\u{FF1F}' | '\u{061F}' | '¿' | '¡') {
            let prev = raw[..i].chars().next_back();
            let next = raw[i + c.len_utf8()..].chars().next();
            // A dot or comma inside a word or a number ("budget_2024.xlsx",
            // "9.99") breaks nothing: only one before a space or the end does.
            if matches!(c, '.' | ',') && prev.is_some_and(|p| !p.is_whitespace()) && next.is_some_and(|n| !n.is_whitespace()) {
                continue;
            }
            let part = &raw[start..i];
            if !part.trim().is_empty() {
                out.push((part, matches!(c, '?' | '\u{FF1F}' | '\u{061F}')));
            } else if matches!(c, '?' | '\u{FF1F}' | '\u{061F}')
                && let Some(last) = out.last_mut()
            {
                last.1 = true;
            }
            start = i + c.len_utf8();
        }
    }
    if !raw[start..].trim().is_empty() {
        out.push((&raw[start..], false));
    }
    out
}

/// Words that make a clause ask something, wherever they stand.
pub(super) const WH: &[&str] = &[
    "what", "whats", "when", "where", "which", "who", "whom", "whose", "why", "how", "que", "qué", "cuando", "cuándo", "donde", "dónde",
    "quoi", "quand", "ou", "où", "pourquoi", "comment", "was", "wann", "wo", "warum", "wie", "welche", "welcher",
];

/// Prepositions whose object a yes word may be ("for good").
const PREPOSITIONS: &[&str] = &["for", "in", "of", "with", "at", "on", "to", "by", "from", "into", "para", "pour", "für"];

/// Question openers that open statements too ("is good", "do it").
const AUXILIARIES: &[&str] =
    &["is", "are", "was", "were", "do", "does", "did", "can", "could", "should", "would", "will", "ist", "est", "es"];

/// The byte offsets in `clause` where its words start, as `normalize`
/// splits them (letters and digits; an apostrophe joins its neighbours).
/// `None` when they do not line up with `tokens` words (text that NFKC or
/// case folding splits otherwise).
pub(super) fn word_starts(clause: &str, tokens: usize) -> Option<Vec<usize>> {
    let mut starts = Vec::with_capacity(tokens);
    let mut in_word = false;
    for (i, c) in clause.char_indices() {
        let part = c.is_alphanumeric() || (in_word && matches!(c, '\'' | '\u{2019}'));
        if part && !in_word {
            starts.push(i);
        }
        in_word = part;
    }
    (starts.len() == tokens).then_some(starts)
}

/// Where a clause that opens with a yes goes on to ask or request
/// something of its own without a break ("yes what's their address",
/// "sounds good now book a cab"): the token after the yes, if a question
/// word, a question or polite opener, or an additive opener starts there.
fn after_a_leading_yes(toks: &[&str], lex: &Lexicon) -> Option<usize> {
    let mut i = 0;
    let mut yes = false;
    while i < toks.len() {
        if yes && lex.additive_openers.match_at(toks, i).is_some() {
            break;
        }
        match lex.reply_words.value_at(toks, i) {
            Some((n, (Kind::Affirmation, _))) => {
                yes = true;
                i += n;
            }
            Some((n, (Kind::Interjection | Kind::Filler | Kind::Context, _))) => i += n,
            _ => break,
        }
    }
    let opens = |set: &crate::lexicon::PhraseSet| set.match_at(toks, i).is_some();
    (yes && i > 0
        && i < toks.len()
        && (WH.contains(&toks[i]) || opens(&lex.question_openers) || opens(&lex.openers) || opens(&lex.additive_openers)))
    .then_some(i)
}

/// Whether the tokens are closing phrases and nothing else, but words of
/// reaction around them ("great thanks bye", "awesome thank you").
pub(crate) fn only_closings(toks: &[&str], lex: &Lexicon) -> bool {
    let (mut i, mut closes) = (0, false);
    while i < toks.len() {
        if let Some(n) = lex.closings.match_at(toks, i) {
            (i, closes) = (i + n, true);
        } else if let Some(n) = lex.reactions.match_at(toks, i) {
            i += n;
        } else {
            return false;
        }
    }
    closes
}

/// Signs that say yes on their own (a thumbs up, an OK hand, a check
/// mark): text normalization drops them, so they are read from the
/// reply as typed.
const YES_SIGNS: &[char] = &['\u{1F44D}', '\u{1F44C}', '\u{2705}', '\u{2714}', '\u{2611}', '\u{1F646}'];

/// Reads a reply's words.
pub fn read(raw: &str, lex: &Lexicon) -> Reading {
    read_over(raw, lex, &|_| false)
}

/// `read`, where `shown` says whether a word (normalized, folded) is a
/// word the candidates show: such a word is theirs, never a slip of a
/// reply word ("decline the genbu" over "Decline genbu" says no "genau").
pub fn read_over(raw: &str, lex: &Lexicon, shown: &dyn Fn(&str) -> bool) -> Reading {
    let mut r = Reading { values: values(raw), ..Reading::default() };
    // A reply of signs alone that say yes ("👍").
    let signs = raw.trim();
    if !signs.is_empty()
        && signs.chars().all(|c| YES_SIGNS.contains(&c) || c.is_whitespace() || c == '\u{FE0F}' || ('\u{1F3FB}'..='\u{1F3FF}').contains(&c))
    {
        r.affirms = true;
        r.clauses.push(Clause { affirms: true, ..Clause::default() });
        return r;
    }
    let mut parts: Vec<(&str, bool)> = Vec::new();
    for (clause, question_mark) in clauses(raw) {
        // A yes that runs on into a question or a request of its own is
        // a clause of its own ("yes what's their address").
        let text = fold(&normalize(clause)).into_owned();
        let toks: Vec<&str> = text.split(' ').filter(|t| !t.is_empty()).collect();
        match after_a_leading_yes(&toks, lex).and_then(|k| Some((k, word_starts(clause, toks.len())?))) {
            Some((k, starts)) => {
                parts.push((&clause[..starts[k]], false));
                parts.push((&clause[starts[k]..], question_mark));
            }
            None => parts.push((clause, question_mark)),
        }
    }
    for (clause, question_mark) in parts {
        let start = clause.as_ptr() as usize - raw.as_ptr() as usize;
        let text = fold(&normalize(clause)).into_owned();
        // A slip of the keyboard in a reply word is that word ("sounds
        // grat", "yess", "teh 3rd one").
        let toks: Vec<&str> =
            text.split(' ').filter(|t| !t.is_empty()).map(|t| lex.respell(t).filter(|_| !shown(t)).unwrap_or(t)).collect();
        if toks.is_empty() {
            continue;
        }
        // A clause asks when it ends with a question mark, or opens with a
        // question word that is not an auxiliary ("yes, is good" asks
        // nothing; "what time is it" does).
        // "Can you book it?" is a request, not a question (unless it asks
        // what, when, where...: "can you tell me what time it is?").
        let polite = lex.openers.match_at(&toks, 0).is_some();
        let opens_question = !polite && !AUXILIARIES.contains(&toks[0]) && lex.question_openers.match_at(&toks, 0).is_some();
        // A whole clause that only closes ("that's all, thanks", "thx
        // that's all").
        if only_closings(&toks, lex) {
            r.closes_first |= r.clauses.is_empty() && !r.closes;
            r.closes = true;
            r.closes_with_a_yes |=
                (0..toks.len()).any(|i| lex.closings.match_at(&toks, i).is_none() && lex.affirmations.match_at(&toks, i).is_some());
            continue;
        }
        static WH_WORDS: LazyLock<FxHashSet<&'static str>> = LazyLock::new(|| WH.iter().copied().collect());
        let wh = toks.iter().any(|t| WH_WORDS.contains(t));
        // A yes said whole that opens with a question word asks nothing
        // ("why not?"; "correct?" still asks).
        let yes = opens_question && lex.affirmations.is_phrase(&toks);
        let asks = ((question_mark && (!polite || wh)) || opens_question) && !yes;
        r.asks |= asks;
        let (rest_before, other_before, affirms_before, refuses_before) = (r.rest.len(), r.the_other, r.affirms, r.refuses);
        r.affirms = false;
        read_clause(&toks, lex, &mut r);
        if r.refuses && !refuses_before {
            r.refused_at = Some(start);
        }
        let affirms = r.affirms;
        r.affirms |= affirms_before;
        let negated = lex.negations.match_at(&toks, 0).is_some()
            || (toks.len() > 1 && lex.negations.match_at(&toks, 1).is_some() && lex.interjections.match_at(&toks, 0).is_some());
        let rest: Vec<String> = r.rest[rest_before..].iter().filter(|w| !lex.negations.is_phrase(&[w.as_str()])).cloned().collect();
        let words = toks.iter().map(|t| t.to_string()).collect();
        r.clauses.push(Clause { rest, negated, the_other: r.the_other && !other_before, affirms, asks, words, start });
    }
    // Context words say nothing more around a yes; without one they are
    // words like any other.
    if !r.affirms {
        let context = std::mem::take(&mut r.context);
        let named = |w: &&str| !(lex.function_words.contains(*w) || lex.deictic.contains(*w));
        r.rest.extend(context.iter().flat_map(|c| c.split(' ').filter(named).map(str::to_string)));
    }
    r
}

fn read_clause(toks: &[&str], lex: &Lexicon, r: &mut Reading) {
    let (rest_before, abandons_before, refuses_before) = (r.rest.len(), r.abandons, r.refuses);
    read_phrases(toks, lex, r);
    let own = r.rest[rest_before..].to_vec();
    if r.abandons && !abandons_before {
        r.abandon_has_object |= !own.is_empty();
        r.abandon_object.extend(own.iter().cloned());
    } else {
        r.after_abandon.extend(own.iter().cloned());
    }
    if r.refuses && !refuses_before {
        r.refusal_has_object |= !own.is_empty();
        r.refusal_object.extend(own.iter().cloned());
    } else {
        r.after_refusal.extend(own);
    }
}

fn read_phrases(toks: &[&str], lex: &Lexicon, r: &mut Reading) {
    let mut i = 0;
    // Whether the clause said something of its own before: an abandon
    // word after it is part of that request ("place a stop on my
    // account", "will there be a wait", "at the moment", "don't stop"),
    // not an abandon. Only a lead-in may come first: filler, a sound, a
    // no, a yes, "actually", "can you".
    let mut said = false;
    let mut opener = vec![false; toks.len()];
    for j in 0..toks.len() {
        let n = lex.openers.match_at(toks, j).unwrap_or(0);
        opener[j..j + n].iter_mut().for_each(|o| *o = true);
    }
    while i < toks.len() {
        // Longest phrase first, across the reply vocabulary; a tie goes to
        // the first list (what the phrase most says): one lookup.
        let mut best = lex.reply_words.value_at(toks, i).map(|(n, (word, value))| (n, value, word));
        // Words around a yes ("it will") never swallow the yes that starts
        // inside them ("that sounds like it will work").
        if let Some((n, value, Kind::Context)) = best
            && let Some(j) = (i + 1..i + n).find(|j| matches!(lex.reply_words.value_at(toks, *j), Some((_, (Kind::Affirmation, _)))))
        {
            best = Some((j - i, value, Kind::Context));
        }
        let Some((n, value, kind)) = best else {
            let t = toks[i];
            if !(lex.function_words.contains(t) || lex.deictic.contains(t)) {
                r.rest.push(t.to_string());
            }
            said |= !opener[i];
            i += 1;
            continue;
        };
        // A repetition word that is also a conjunction joins the words on
        // either side of it ("d plus max" names two; French "plus" is
        // "more"): no repetition, and nothing of the request's.
        if kind == Kind::Repetition && i > 0 && i + n < toks.len() && lex.conjunctions.match_at(toks, i) == Some(n) {
            said = true;
            i += n;
            continue;
        }
        // Nor is a yes word the object of a preposition ("close the account
        // for good", "in good shape"): it is part of the request.
        if (kind == Kind::Abandon && said) || (kind == Kind::Affirmation && i > 0 && PREPOSITIONS.contains(&toks[i - 1])) {
            r.rest.extend(toks[i..i + n].iter().map(|t| t.to_string()));
            said = true;
            i += n;
            continue;
        }
        // "Sorry" that opens the reply apologizes ("sorry, yes - 8 is
        // fine"): no correction of what follows it.
        let kind =
            if kind == Kind::Correction && i == 0 && r.clauses.is_empty() && toks[..n] == ["sorry"] { Kind::Interjection } else { kind };
        said |= !matches!(
            kind,
            Kind::Filler | Kind::Interjection | Kind::Closing | Kind::Refusal | Kind::Affirmation | Kind::Correction | Kind::Abandon
        ) && !opener[i];
        match kind {
            Kind::NotThat => r.not_that = true,
            Kind::TheOther => r.the_other = true,
            Kind::Closing | Kind::Filler | Kind::Interjection => {}
            Kind::Abandon => r.abandons = true,
            Kind::Refusal => r.refuses = true,
            Kind::Alternatives => r.alternatives = true,
            Kind::Comparison => r.comparison = Some(value),
            Kind::Correction => r.corrects = true,
            Kind::Affirmation => r.affirms = true,
            Kind::Repetition => r.repeats = true,
            Kind::Verb => r.verbs.push(toks[i..i + n].join(" ")),
            Kind::Context => r.context.push(toks[i..i + n].join(" ")),
        }
        i += n;
    }
}

#[cfg(test)]
mod tests;
