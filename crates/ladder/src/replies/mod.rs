//! Replies (docs/replies.md): a turn read as an answer to what was asked,
//! before the ladder runs over the screen as a fresh request.
//!
//! What was asked comes from the app (`OptionSet.asked`: it asked the user
//! to confirm its one candidate, or "which one?") or from the session
//! (`ContinuityState::question`: ladderd's own clarifier or confirmation);
//! what was last executed, from the session. The reply's words are read
//! alone first (`reading`), then against that question here:
//!
//! - **affirm** ("yes", "sounds good", "perfect, book it"): the proposed
//!   option executes, when one was proposed (a confirmation, a question
//!   that offered one option, or a screen of one option) and the reply
//!   changes no detail of it;
//! - **decline** ("no", "any other options?"): never executes; `declined`
//!   when something was proposed, with what else it names read again
//!   without the refused option; **cancel** ("forget it", "hold on"):
//!   abandons the task;
//! - **repair** ("not that one", "wrong one", "the other one"): refuses the
//!   execute just had, then the other of two on "the other", else a
//!   question over the rest;
//! - **answers to "which one?"**: a position in the question's order; a
//!   word or value only one offered option shows; a comparison over a
//!   value the options show; **repetition** ("one more") repeats the last
//!   execute.
//!
//! Anything else is not a reply ([`Answer::Pass`]): the ladder runs as it
//! would. The principle (docs/deciding.md) rules every execute: a reply
//! accounts for an option only through what was asked, and every word
//! left must be explained by that option.
//!
//! Each kind is a room: its rule in its own file (`affirm`, with
//! `follow_up` for the half of a turn after a yes; `decline`, `cancel`,
//! `repair`, `position`, `detail`, `comparison`, `negation`, `repeat`),
//! over `reading` (the reply's words), `values` (the details an option
//! shows) and `question` (what was asked). [`answer`] is the one ordered
//! table of which kind is tried first, each step saying why it comes
//! where it does: a yes right after an execute (an acknowledgement, never
//! a yes to doing it again), a negation that names what is wanted, "and the one
//! where..." after an execute, the plain one, a closing, a thanks before
//! a request, the shapes that are no reply (a position, a request that
//! points at the one proposed), a label the reply says (the ladder's),
//! then repair, a yes with the option's own verb, cancel, decline,
//! comparison, the plain one, repetition and affirm. Property tests:
//! `tests.rs`, and the rooms' own (`follow_up/tests.rs`).

mod affirm;
mod cancel;
mod comparison;
mod decline;
mod detail;
pub mod follow_up;
mod negation;
mod position;
pub mod reading;
mod repair;
mod repeat;

use crate::continuity::StateView;
use crate::cost::Deadline;
use crate::lexicon::{COMPARED, Lexicon};
use crate::matching::CanonPool;
use crate::question::{PendingQuestion, QuestionKind};
use crate::scope::{Pool, Source};
use crate::text::{fold, normalize};
use crate::types::{Asked, DecideRequest, EscapeReason};
use crate::values::{self, Dim, Value, values};
use affirm::*;
use cancel::*;
use comparison::*;
use decline::*;
use detail::and_the_one;
pub use detail::detail;
use follow_up::AfterYes;
use negation::*;
use position::*;
use reading::Reading;
use repair::*;
use repeat::*;
use std::borrow::Cow;

wire_enum! {
    "snake_case",
    /// What kind of reply a turn was read as (the trace's detail, and
    /// `ladderd eval`'s report by kind).
    pub enum ReplyKind {
        Affirm,
        Decline,
        Cancel,
        Repair,
        Position,
        Detail,
        Comparison,
        Repeat,
    }
}

/// Who asked the question a reply answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum By {
    /// ladderd's own clarifier or confirmation (the session's question).
    Ladder,
    /// The app's screen (`OptionSet.asked`).
    App,
    /// Nobody: a plain screen.
    Screen,
}

/// The question a turn may answer: the app's screen (`OptionSet.asked`),
/// else the session's (ladderd's clarifier or confirmation). The session's
/// is read (noted as a fact) only when the screen asks nothing of its own.
pub fn asked<'a>(req: &DecideRequest, state: &StateView<'a>) -> Option<(Cow<'a, PendingQuestion>, By)> {
    let o = req.options.as_ref()?;
    let ids = || o.candidates.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
    match o.asked {
        Asked::Confirmation => {
            let offered = ids();
            let proposed = offered.first().cloned();
            Some((
                Cow::Owned(PendingQuestion { kind: QuestionKind::Confirmation, offered, proposed, shown: Vec::new(), labels: Vec::new() }),
                By::App,
            ))
        }
        Asked::Choice => {
            let shown = o.candidates.iter().map(shown_text).collect();
            let labels = o.candidates.iter().map(|c| c.label.clone()).collect();
            let q = PendingQuestion { kind: QuestionKind::Choice, offered: ids(), proposed: None, shown, labels };
            Some((Cow::Owned(q), By::App))
        }
        Asked::Unspecified => state.question().map(|q| (Cow::Borrowed(q), By::Ladder)),
    }
}

/// What a reply came to.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Not a reply: the ladder runs as it would.
    Pass,
    /// Execute this pool entry.
    Execute { entry: usize, kind: ReplyKind, by: By },
    /// Offer this (high-risk) pool entry for confirmation first.
    Confirm { entry: usize, kind: ReplyKind },
    /// Ask among these pool entries, in this order.
    Ask { entries: Vec<usize>, kind: ReplyKind },
    /// Hand the turn back.
    Escape { reason: EscapeReason, kind: ReplyKind },
    /// A refusal that names something else: read `text` over the pool
    /// without the refused entries.
    Again { text: String, without: Vec<usize>, kind: ReplyKind },
}

/// The reply rung's result: the answer, the execute it refused, and what
/// it left of the turn.
#[derive(Debug, Clone, PartialEq)]
pub struct Answered {
    pub answer: Answer,
    /// The id the user just refused ("not that one"): recorded as a
    /// `RecordOutcome` REJECTED is.
    pub rejected: Option<String>,
    /// What an execute did not consume (`follow_up`).
    pub follow_up: Option<crate::types::FollowUp>,
}

impl Answered {
    fn pass() -> Self {
        Answered { answer: Answer::Pass, rejected: None, follow_up: None }
    }
    fn of(answer: Answer) -> Self {
        Answered { answer, rejected: None, follow_up: None }
    }
    fn rejecting(answer: Answer, rejected: Option<String>) -> Self {
        Answered { answer, rejected, follow_up: None }
    }
}

/// What the rung reads a reply against.
pub struct Context<'a, 'p> {
    pub req: &'a DecideRequest,
    pub state: &'a StateView<'a>,
    pub pool: &'a Pool<'p>,
    /// The pool's canonical index: labels and aliases as the ladder
    /// reads them, canonicalized once per pool.
    pub canon: &'a CanonPool,
    pub lex: &'a Lexicon,
    pub high_risk_kinds: &'a [String],
    /// The reply's canonical text (filler removed).
    pub canonical: &'a str,
    /// The caller's deadline: once it has passed the loops over the pool
    /// stop early and the caller discards the answer (`entries`).
    pub stop: &'a Deadline,
    /// The question the reply answers, read on first need (`question`).
    asked: std::cell::OnceCell<Option<(Cow<'a, PendingQuestion>, By)>>,
}

impl<'a, 'p> Context<'a, 'p> {
    pub fn new(
        req: &'a DecideRequest,
        state: &'a StateView<'a>,
        pool: &'a Pool<'p>,
        canon: &'a CanonPool,
        lex: &'a Lexicon,
        high_risk_kinds: &'a [String],
        canonical: &'a str,
    ) -> Self {
        static NEVER: Deadline = Deadline::never();
        Context { req, state, pool, canon, lex, high_risk_kinds, canonical, stop: &NEVER, asked: std::cell::OnceCell::new() }
    }

    /// The same, stopping its loops once `stop` has passed.
    pub fn until(self, stop: &'a Deadline) -> Self {
        Context { stop, ..self }
    }

    /// The pool's entries, in order, until the deadline passes: every loop
    /// over the pool goes through here, so a reply over a huge pool stops
    /// soon after the deadline (what it read then is discarded).
    pub(super) fn entries(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.pool.len()).take_while(|_| !self.stop.passed())
    }

    pub(super) fn high_risk(&self, entry: usize) -> bool {
        self.pool.entries[entry].cand.is_high_risk(self.high_risk_kinds)
    }

    /// The option on screen that is the execute the session had: the same
    /// id on the same option set, or showing the same label.
    fn executed_entry(&self, had: &crate::continuity::Executed) -> Option<usize> {
        let set = self.req.option_set_id();
        self.pool.entries.iter().position(|e| e.source == Source::ActiveOptions && had.is(e.cand, set))
    }

    /// The option on screen a question offered as `id`: the same id, and
    /// the same label when the question kept it (an id of another screen
    /// may name something else).
    fn offered_entry(&self, q: &PendingQuestion, id: &str) -> Option<usize> {
        let label = q.label_of(id);
        self.entry_of(id).filter(|e| label.is_empty() || self.pool.entries[*e].cand.label == label)
    }

    /// The session's question, when the screen asks nothing of its own.
    fn state_question_if_ladder(&self) -> Option<&PendingQuestion> {
        match self.req.options.as_ref().map(|o| o.asked) {
            Some(Asked::Choice | Asked::Confirmation) => None,
            _ => self.state.question(),
        }
    }

    fn entry_of(&self, id: &str) -> Option<usize> {
        self.pool.entries.iter().position(|e| e.cand.id == id && e.source == Source::ActiveOptions)
    }

    /// The options on screen (the active options of the pool).
    fn options(&self) -> Vec<usize> {
        self.option_entries().collect()
    }

    /// `options`, one at a time.
    pub(super) fn option_entries(&self) -> impl Iterator<Item = usize> + '_ {
        self.entries().filter(|i| self.pool.entries[*i].source == Source::ActiveOptions)
    }

    /// The question a reply answers: the app's screen, else the session's.
    /// The session's is read (noted as a fact) only when asked for, and
    /// once a turn: the app's is built from its screen then.
    fn question(&self) -> Option<(&PendingQuestion, By)> {
        self.asked.get_or_init(|| asked(self.req, self.state)).as_ref().map(|(q, by)| (q.as_ref(), *by))
    }

    /// The words of an entry, as replies are compared: normalized, folded.
    fn words_of(&self, entry: usize) -> Vec<String> {
        let text = shown_text(self.pool.entries[entry].cand);
        fold(&normalize(&text)).split(' ').filter(|w| !w.is_empty()).map(str::to_string).collect()
    }

    pub(super) fn values_of(&self, entry: usize) -> Vec<Value> {
        let c = self.pool.entries[entry].cand;
        let mut v = values(&c.label);
        v.extend(values(&c.sublabel));
        v
    }

    /// Whether some word of `words` is a word of some candidate.
    fn names_something(&self, words: &[String]) -> bool {
        self.entries().any(|e| {
            let own = self.words_of(e);
            words.iter().any(|w| own.contains(w) && !self.lex.function_words.contains(w) && !self.lex.generic_nouns.contains(w))
        })
    }

    /// Whether the input's first word is an action some label starts with
    /// ("cancel it" with "Cancel appointment" on screen).
    fn abandon_is_an_action(&self) -> bool {
        let first = self.canonical.split(' ').next().unwrap_or("");
        self.lex.actions.contains(first) && self.entries().any(|e| self.canon.label_words_of(e).next() == Some(first))
    }

    /// The options whose label opens with the input's first word, when the
    /// input is that word alone ("cancel", "cancel it", "stop that": an
    /// abandon word and nothing that names anything).
    fn opening_with_the_verb(&self, r: &Reading) -> Option<Vec<usize>> {
        let first = self.canonical.split(' ').next().unwrap_or("");
        if !r.rest.is_empty() || r.refuses || r.alternatives || r.asks || !r.values.is_empty() {
            return None;
        }
        let entries: Vec<usize> = self.option_entries().filter(|e| self.canon.label_words_of(*e).next() == Some(first)).collect();
        (!entries.is_empty()).then_some(entries)
    }

    /// Whether the reply says the verb that opens `entry`'s label as an
    /// abandon word ("yes cancel it" to "Cancel gym membership").
    fn says_the_verb_of(&self, entry: usize, r: &Reading) -> bool {
        let Some(verb) = self.canon.label_words_of(entry).next() else { return false };
        self.lex.abandons.is_phrase(&[verb]) && r.clauses.iter().any(|c| c.words.iter().any(|w| w == verb))
    }

    /// Whether a label or alias says what the input says: the input is
    /// one whole ("Skip", "Don't Stop Me Now"), or one that is a reply word
    /// is said in it ("it's a no" with "No" shown, "ok skip" with "Skip").
    /// Then it is that request, whatever reply words it holds: the ladder
    /// reads it. A form that is a reply word starts with a word of the
    /// input that starts a reply phrase, so only those forms are looked
    /// for in the input, and only those it says are looked up as phrases;
    /// with the pool's vocabulary (a pool sent again) only the entries
    /// that have such a word or the input's first word are read, else one
    /// pass over the pool's forms.
    fn a_label_says_it(&self) -> bool {
        let (said, lex) = (self.canonical, self.lex);
        if said.is_empty() {
            return false;
        }
        let sets = [&lex.refusals, &lex.affirmations, &lex.abandons, &lex.alternatives];
        let starters: Vec<&str> = said.split(' ').filter(|w| !w.is_empty() && sets.iter().any(|set| set.starts_with(w))).collect();
        // The starters' first bytes: most forms start with none of them.
        let mut firsts = [false; 256];
        starters.iter().filter_map(|w| w.as_bytes().first()).for_each(|b| firsts[usize::from(*b)] = true);
        // Then a starter is its first word: a word that long (a space or
        // the end right after it), and those bytes.
        let starts_a_reply = |form: &str| {
            let b = form.as_bytes();
            b.first().is_some_and(|f| firsts[usize::from(*f)])
                && starters.iter().any(|w| {
                    let n = w.len();
                    b.len() >= n && (b.len() == n || b[n] == b' ') && &b[..n] == w.as_bytes()
                })
        };
        let says_it = |form: &str| {
            form == said
                || (starts_a_reply(form) && says_words(said, form) && {
                    let toks: Vec<&str> = form.split(' ').filter(|w| !w.is_empty()).collect();
                    sets.iter().any(|set| set.is_phrase(&toks))
                })
        };
        // Such a form starts with the input's first word or a starter:
        // with the pool's vocabulary, only the entries that have one of
        // those words are read.
        let first = said.split(' ').find(|w| !w.is_empty());
        match self.canon.entries_with_any(first.into_iter().chain(starters.iter().copied())) {
            Some(entries) => entries.into_iter().any(|e| self.canon.forms(e).any(|(form, _)| says_it(form))),
            None => self.canon.every_form().any(says_it),
        }
    }
}

/// Whether `text` holds `words` as whole words (both space-separated,
/// canonical): "it s a no" holds "no", "nothing" does not. Compared at
/// each word start: the texts are short, a substring searcher's set-up
/// costs more than it saves.
fn says_words(text: &str, words: &str) -> bool {
    let starts = std::iter::once(0).chain(text.match_indices(' ').map(|(i, _)| i + 1));
    !words.is_empty()
        && starts.into_iter().any(|at| {
            let end = at + words.len();
            text.get(at..).is_some_and(|t| t.starts_with(words)) && (end == text.len() || text.as_bytes()[end] == b' ')
        })
}

/// Words that carry no detail in an answer ("the one by Adele", "the one
/// in the living room"): prepositions and articles of the lexicon's
/// languages.
const EMPTY_IN_ANSWERS: &[&str] = &[
    "by", "from", "with", "in", "on", "at", "for", "of", "one", "ones", "version", "de", "del", "los", "las", "el", "la", "con", "en",
    "le", "les", "du", "des", "au", "im", "am", "vom", "von", "mit", "der", "die", "das", "den", "dem", "lo",
];

/// The most options a reply reads on a plain screen (nothing asked) by
/// what they show: "the cheaper one", "the beatles one" pick from a list
/// the user takes in at a glance. On a longer screen such words are the
/// ladder's to read (they may still match a label); reading every
/// option's values would cost a Decide in proportion to the screen.
const SCREEN_READ: usize = 12;

/// The words by which a reply picks "the one" of a list ("the beatles
/// one", "celle de mardi").
const THE_ONE: &[&str] = &["one", "ones", "celui", "celle", "ceux", "celles"];

/// Reads a reply against what was asked (the module's doc). What the
/// user refused is never executed again by a reply: the sequence checks
/// every execute (`refusals`).
pub fn answer(cx: &Context<'_, '_>, r: &Reading) -> Answered {
    // "Yes", "ok", "thanks" right after an execute, nothing asked since,
    // on a screen of that option alone: it acknowledges what was done,
    // never asks for it again.
    if let Some(a) = acknowledges_the_execute(cx, r) {
        return a;
    }
    // "Not the pepperoni, the margherita", "and a coke, not diet", "pas
    // celui de 9h, l'autre": a clause that negates and one that names what
    // is wanted.
    if let Some(a) = negated_then_wanted(cx, r) {
        return a;
    }
    // "And the one where I park the car" after an execute: another one
    // than the one just had, read again without it.
    if let Some(a) = and_the_one(cx, r) {
        return a;
    }
    // "The original despacito", "the plain one": of options that are one
    // and the same with extras, the one without.
    if !r.is_reply_shaped()
        && let Some(a) = the_plain_one(cx, r)
    {
        return a;
    }
    // "Thanks", "that's all, thank you": it only closes. To an option
    // proposed it acknowledges it, as "ok" does; with nothing asked it
    // hands the turn back.
    if r.closes && r.clauses.is_empty() {
        return closing(cx);
    }
    // "Thanks. I need a cab there.": the thanks acknowledges what was
    // proposed, and the rest is the user's next turn.
    if r.closes_first && !r.affirms && !r.is_reply_shaped() && proposal(cx).is_some() {
        let a = affirm(cx, r);
        if matches!(a.answer, Answer::Execute { .. }) && a.follow_up.is_some() {
            return a;
        }
    }
    // Not reply-shaped: a position may still answer "which one?"; an
    // everyday request that points at the one option proposed ("I'd like
    // to see it", "book it", "I would like to go there") is a yes to it.
    if !r.is_reply_shaped() && !r.repeats && !r.affirms {
        let a = position(cx, r);
        // The session is read only for such a request (a shared store
        // decides the rest without it).
        let requests = !r.verbs.is_empty() || (r.rest.is_empty() && does_something(r));
        // ... or names nothing but the next step on it ("make a
        // reservation", "book a table"), a request of the one proposed.
        let next_step = || {
            !r.verbs.is_empty()
                && !r.rest.is_empty()
                && all_explained(&r.rest, &cx.lex.next_step, |w| cx.lex.generic_nouns.contains(w) || EMPTY_IN_ANSWERS.contains(&w))
                && proposal(cx).is_some_and(|(p, _, _)| {
                    // Words another option shows name that one ("open account"
                    // with "Account" on screen).
                    !cx.options().into_iter().any(|e| e != p && cx.words_of(e).iter().any(|w| r.rest.contains(w)))
                })
        };
        return if a.answer == Answer::Pass && requests && (points(cx, r) || next_step()) && proposal(cx).is_some() {
            affirm(cx, r)
        } else {
            a
        };
    }
    if cx.a_label_says_it() {
        return Answered::pass();
    }
    // Repairs come first: "no, not that one" refuses the execute just had.
    if (r.not_that || r.the_other || (r.refuses && only_generic(cx, &r.rest) && !r.rest.is_empty()))
        && let Some(a) = repair(cx, r)
    {
        return a;
    }
    // "Yes cancel it" to a question about "Cancel gym membership": a yes
    // with the option's own verb is a yes.
    if r.abandons && r.affirms && proposal(cx).is_some_and(|(e, by, _)| by != By::Screen && cx.says_the_verb_of(e, r)) {
        return affirm(cx, r);
    }
    if r.abandons {
        return cancel(cx, r);
    }
    if r.refuses || r.alternatives {
        return decline(cx, r);
    }
    if let Some(code) = r.comparison {
        return compare(cx, r, code);
    }
    if let Some(a) = the_plain_one(cx, r) {
        return a;
    }
    // "Do it again", "yes, one more": a repetition of the last execute,
    // whatever yes it says.
    if r.repeats {
        return repeat(cx, r);
    }
    if r.affirms {
        return affirm(cx, r);
    }
    // "I'd like to see it", "I'll take it": an everyday request of the
    // one option proposed, by pointing at it, is a yes.
    if !r.verbs.is_empty() && proposal(cx).is_some() {
        return affirm(cx, r);
    }
    Answered::pass()
}

/// Whether the words are all `entry`'s own, generic nouns, words with no
/// detail in an answer, or the next step of a yes ("book it").
pub(super) fn explains(cx: &Context<'_, '_>, entry: usize, rest: &[String]) -> bool {
    let words = cx.words_of(entry);
    let explained = |w: &str| words.iter().any(|o| o == w) || cx.lex.generic_nouns.contains(w) || EMPTY_IN_ANSWERS.contains(&w);
    all_explained(rest, &cx.lex.next_step, explained)
}

/// Whether every word of `rest` is explained: by `own`, or as part of a
/// phrase of `phrases` (the next step of a yes: "book it", "buy tickets").
pub(super) fn all_explained(rest: &[String], phrases: &crate::lexicon::PhraseSet, own: impl Fn(&str) -> bool) -> bool {
    let toks: Vec<&str> = rest.iter().map(String::as_str).collect();
    let mut i = 0;
    while i < toks.len() {
        if own(toks[i]) {
            i += 1;
            continue;
        }
        match phrases.match_at(&toks, i) {
            Some(n) => i += n,
            None => return false,
        }
    }
    true
}

/// Whether every word is a generic noun or names nothing ("wrong card").
fn only_generic(cx: &Context<'_, '_>, words: &[String]) -> bool {
    words.iter().all(|w| cx.lex.generic_nouns.contains(w) || cx.lex.function_words.contains(w))
}

/// Whether the reply names a count of something `c` shows a count of,
/// and another one ("one ticket", "3 people" where it shows 2 tickets, 2
/// people).
pub fn changes_what_it_shows(r: &Reading, c: &crate::types::Candidate) -> bool {
    if !r.values.iter().any(|v| v.dim == Dim::Count) {
        return false;
    }
    let mut shown = values(&c.label);
    shown.extend(values(&c.sublabel));
    r.values.iter().any(|v| v.dim == Dim::Count && v.conflicts(&shown))
}

/// What a candidate shows, for a question to keep: label, sublabel,
/// badge and aliases.
pub fn shown_text(c: &crate::types::Candidate) -> String {
    let mut text = [c.label.as_str(), &c.sublabel, &c.badge].join(" ");
    for a in &c.aliases {
        text.push(' ');
        text.push_str(a);
    }
    text
}

#[cfg(test)]
mod tests;
