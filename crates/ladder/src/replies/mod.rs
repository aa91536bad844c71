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
//! left must be explained by that option. The room's rooms: `reading`
//! (the words), `values` (the details), `answer` (this file's rules).
//! Property tests: `tests.rs`.

pub mod follow_up;
pub mod question;
pub mod reading;
pub mod values;

use crate::continuity::StateView;
use crate::cost::Deadline;
use crate::lexicon::{COMPARED, Lexicon};
use crate::matching::CanonPool;
use crate::scope::{Pool, Source};
use crate::text::{fold, normalize};
use crate::types::{Asked, DecideRequest, EscapeReason};
use follow_up::AfterYes;
use question::{PendingQuestion, QuestionKind};
use reading::Reading;
use std::borrow::Cow;
use values::{Dim, Value, values};

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
        // "Cancel", "stop" where an option's label starts so: that request
        // may be meant. Said alone ("cancel it", "stop that") it may as
        // well abandon the conversation: those options are asked, never
        // executed or escaped. Said with more, the ladder reads it.
        if cx.abandon_is_an_action() {
            return match cx.opening_with_the_verb(r) {
                Some(entries) => Answered::of(Answer::Ask { entries, kind: ReplyKind::Cancel }),
                None => Answered::pass(),
            };
        }
        // "Stop a payment on my account", "abort the upload": what it
        // abandons is named, and nothing shown is it; a request of its own
        // (the ladder reads it).
        if r.abandon_has_object && !cx.names_something(&r.abandon_object) && !only_generic(cx, &r.abandon_object) {
            return Answered::pass();
        }
        // "No wait, I'd rather see other dates": what follows the abandon
        // is read again; "never mind the reply" abandons what it names.
        if !r.abandon_has_object && cx.names_something(&r.after_abandon) {
            return Answered::of(Answer::Again { text: r.after_abandon.join(" "), without: Vec::new(), kind: ReplyKind::Decline });
        }
        return Answered::of(Answer::Escape { reason: EscapeReason::Cancel, kind: ReplyKind::Cancel });
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

/// A reply of clauses one of which negates and one names what is wanted
/// (a negation that also names the wanted option): the
/// wanted clause is read again without the options the negated clause
/// names; "the other" there is the one option left of two.
fn negated_then_wanted(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    let negated: Vec<&reading::Clause> = r.clauses.iter().filter(|c| c.negated).collect();
    let wanted: Vec<&reading::Clause> = r.clauses.iter().filter(|c| !c.negated && (!c.rest.is_empty() || c.the_other)).collect();
    let ([neg], [want]) = (&negated[..], &wanted[..]) else { return None };
    if neg.rest.is_empty() || r.asks || r.abandons {
        return None;
    }
    // The options the negated clause names: each holds all its words.
    let named: Vec<usize> = cx
        .options()
        .into_iter()
        .filter(|e| {
            let own = cx.words_of(*e);
            let shown = cx.values_of(*e);
            let words: Vec<&String> =
                neg.rest.iter().filter(|w| !EMPTY_IN_ANSWERS.contains(&w.as_str()) && !cx.lex.function_words.contains(*w)).collect();
            !words.is_empty() && words.iter().all(|w| own.contains(w) || values(w).iter().any(|v| shown.iter().any(|s| v.names(s))))
        })
        .collect();
    if named.is_empty() {
        return None;
    }
    if want.the_other && want.rest.is_empty() {
        let rest: Vec<usize> = cx.options().into_iter().filter(|e| !named.contains(e)).collect();
        return match rest[..] {
            [one] if cx.high_risk(one) => Some(Answered::of(Answer::Confirm { entry: one, kind: ReplyKind::Detail })),
            [one] => Some(Answered::of(Answer::Execute { entry: one, kind: ReplyKind::Detail, by: By::Screen })),
            _ => None,
        };
    }
    Some(Answered::of(Answer::Again { text: want.rest.join(" "), without: named, kind: ReplyKind::Detail }))
}

/// Whether the reply says, without a negation before it, a word `entry`
/// shows after one ("no subtitles", "without ice", "non-smoking").
pub(super) fn says_what_it_negates(cx: &Context<'_, '_>, entry: usize, r: &Reading) -> bool {
    let own = cx.words_of(entry);
    // "non" is the prefix of "non-smoking", no word of its own.
    let negates = |w: &str| cx.lex.negations.is_phrase(&[w]) || w == "non";
    let negated: Vec<&String> = own.windows(2).filter(|p| negates(&p[0])).map(|p| &p[1]).collect();
    !negated.is_empty()
        && r.clauses.iter().any(|c| c.words.iter().enumerate().any(|(i, w)| negated.contains(&w) && !(i > 0 && negates(&c.words[i - 1]))))
}

/// Whether the reply points at what was shown: a deictic word ("it",
/// "that one", "there"). Naming it is the ladder's to read.
fn points(cx: &Context<'_, '_>, r: &Reading) -> bool {
    r.clauses.iter().flat_map(|c| &c.words).any(|w| cx.lex.deictic.contains(w.as_str()) || w == "there")
}

/// Verbs of doing what an option offers ("I would like to go there",
/// "I want to eat there"): with nothing else said, a request of it.
const DOING: &[&str] =
    &["go", "see", "eat", "visit", "watch", "listen", "hear", "enjoy", "try", "attend", "stay", "book", "buy", "reserve", "order", "play"];

fn does_something(r: &Reading) -> bool {
    r.clauses.iter().flat_map(|c| &c.words).any(|w| DOING.contains(&w.as_str()))
}

/// Whether every word is a generic noun or names nothing ("wrong card").
fn only_generic(cx: &Context<'_, '_>, words: &[String]) -> bool {
    words.iter().all(|w| cx.lex.generic_nouns.contains(w) || cx.lex.function_words.contains(w))
}

/// The option a yes answers, who proposed it, and whether the question
/// was a yes-or-no about that very option (what a yes to a high-risk
/// option needs). The option: what the question proposed, or
/// the one option of those it offered that the app's screen still shows
/// (it narrowed the screen to it), or the one option of a plain screen.
fn proposal(cx: &Context<'_, '_>) -> Option<(usize, By, bool)> {
    // A question none of whose options this screen shows was asked of
    // another screen: this one is plain.
    let question = cx.question().filter(|(q, _)| q.offered.iter().any(|id| cx.offered_entry(q, id).is_some()));
    match question {
        Some((q, by)) => match q.proposal() {
            // Ladderd's question about one option is a yes-or-no about it
            // (a confirmation, or a clarifier that offered it alone); the
            // app's, only when it says it asked to confirm.
            Some(id) => Some((cx.offered_entry(q, id)?, by, by == By::Ladder || q.kind == QuestionKind::Confirmation)),
            // The screen narrowed to one of the options ladderd asked
            // about: of those it offered, the pool holds only that one (any
            // list). The app showing it alone after ladderd's question is
            // asking about it alone.
            None => {
                let mut options = cx.option_entries();
                let (Some(only), None) = (options.next(), options.next()) else { return None };
                let mut present = cx.entries().filter(|e| q.offered.iter().any(|o| *o == cx.pool.entries[*e].cand.id));
                match (present.next(), present.next()) {
                    (Some(one), None) if one == only => Some((one, by, by == By::Ladder)),
                    _ => None,
                }
            }
        },
        // A screen of one option: the pool holds it alone.
        None if cx.pool.len() == 1 => cx.option_entries().next().map(|one| (one, By::Screen, false)),
        None => None,
    }
}

fn affirm(cx: &Context<'_, '_>, r: &Reading) -> Answered {
    // A yes in sentences of its own, then a question or a request of the
    // user's own: executed, the rest handed back (`follow_up`).
    let proposed = proposal(cx);
    // With several options and nothing proposed, a yes that says one
    // option's whole name proposes it ("Little sounds good. What time is
    // it showing?").
    let named = || if cx.question().is_none() { follow_up::named_in_the_yes(cx, r).map(|e| (e, By::Screen, false)) } else { None };
    if let Some(p) = proposed.or_else(named) {
        match follow_up::after_the_yes(cx, r, p.0) {
            AfterYes::TakenBack => return Answered::pass(),
            AfterYes::Then { from, kind, of_the_option } => return follow_up::answer(cx, r, p, from, kind, of_the_option),
            AfterYes::Nothing | AfterYes::NoStandingYes => {}
        }
    }
    // A question with a yes it does not stand apart from is the ladder's.
    if r.asks {
        return Answered::pass();
    }
    let Some((entry, by, confirmed)) = proposed else {
        // A yes to "which one?" over several options picks none: asked again.
        return match cx.question() {
            Some((q, _)) if r.rest.is_empty() && r.values.is_empty() => {
                let entries: Vec<usize> = q.offered.iter().filter_map(|id| cx.offered_entry(q, id)).collect();
                if entries.len() > 1 { Answered::of(Answer::Ask { entries, kind: ReplyKind::Affirm }) } else { Answered::pass() }
            }
            // A detail or a position with the yes ("great, the 7 then")
            // may answer it (`detail`, at the tie; `position` here).
            Some(_) => match position(cx, r) {
                a if a.answer != Answer::Pass => a,
                _ if !r.rest.is_empty() && !r.corrects => again(r),
                a => a,
            },
            // "Sounds good, gimme the veggie one": what it names, read again.
            None if !r.rest.is_empty() && !r.corrects => again(r),
            // "Great, thanks, bye" with nothing asked: the end of the task.
            None if r.closes && r.values.is_empty() => {
                Answered::of(Answer::Escape { reason: EscapeReason::Cancel, kind: ReplyKind::Cancel })
            }
            None => Answered::pass(),
        };
    };
    // What is confirmed is the whole option: a correction with a value
    // ("ok, at 7 instead"), or a value it does not show ("yes but for 3"),
    // changes it; a correction alone ("I'd rather see Breakthrough",
    // "actually, I love that one") changes nothing it shows.
    // Such a yes is asked about again, never read by the ladder, whose
    // positions would take "yes at 4" for the fourth option.
    let shown = cx.values_of(entry);
    if r.changes_a_detail() || r.values.iter().any(|v| !shown.iter().any(|s| v.names(s))) {
        return Answered::of(Answer::Ask { entries: vec![entry], kind: ReplyKind::Affirm });
    }
    // A word the option shows negated ("no subtitles"), said without a
    // negation ("play it with subtitles"), changes that detail.
    if says_what_it_negates(cx, entry, r) {
        return Answered::pass();
    }
    // Every word left is the option's own (a number of a value it shows
    // is: "yes, two tickets" to 2 tickets).
    let rest: Vec<String> = r.rest.iter().filter(|w| !values::is_number_word(w)).cloned().collect();
    if !explains(cx, entry, &rest) {
        return Answered::pass();
    }
    let kind_of_reply = ReplyKind::Affirm;
    // A high-risk option is confirmed by a yes to a question about it
    // alone; on a plain screen of one option the confirmation comes first.
    if cx.high_risk(entry) && !confirmed {
        return Answered::of(Answer::Confirm { entry, kind: kind_of_reply });
    }
    Answered::of(Answer::Execute { entry, kind: kind_of_reply, by })
}

/// A reply that only closes ("thanks", "that's all"): an acknowledgement
/// of the option proposed (a high-risk one is confirmed first: thanks is
/// no explicit yes), the end of the task when nothing was asked.
fn closing(cx: &Context<'_, '_>) -> Answered {
    match proposal(cx) {
        Some((entry, _, _)) if cx.high_risk(entry) => Answered::of(Answer::Confirm { entry, kind: ReplyKind::Affirm }),
        Some((entry, by, _)) => Answered::of(Answer::Execute { entry, kind: ReplyKind::Affirm, by }),
        None if cx.question().is_none() => Answered::of(Answer::Escape { reason: EscapeReason::Cancel, kind: ReplyKind::Cancel }),
        None => Answered::pass(),
    }
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

/// The reply's own words, read again by the ladder, reply phrasing left out.
fn again(r: &Reading) -> Answered {
    Answered::of(Answer::Again { text: r.rest.join(" "), without: Vec::new(), kind: ReplyKind::Affirm })
}

fn decline(cx: &Context<'_, '_>, r: &Reading) -> Answered {
    // A refusal of something it names ("no chicken curry", "nicht den
    // ersten") is a negation: the ladder reads it.
    if r.refuses && r.refusal_has_object && cx.names_something(&r.refusal_object) {
        return Answered::pass();
    }
    let proposed = proposal(cx).map(|(e, _, _)| e);
    let asked = proposed.is_some() || cx.question().is_some();
    // "No, make it 7pm instead": a value that only one other option shows
    // picks it (a high-risk one is confirmed first).
    if !r.values.is_empty() {
        let others: Vec<usize> = cx
            .options()
            .into_iter()
            .filter(|e| Some(*e) != proposed)
            .filter(|e| {
                let shown = cx.values_of(*e);
                r.values.iter().all(|v| shown.iter().any(|s| v.names(s)))
            })
            .collect();
        if let [one] = others[..] {
            return Answered::of(if cx.high_risk(one) {
                Answer::Confirm { entry: one, kind: ReplyKind::Decline }
            } else {
                Answer::Execute { entry: one, kind: ReplyKind::Decline, by: By::Screen }
            });
        }
    }
    // "The second... no, the third": a position taken back for another,
    // to "which one?" (what follows the last refusal).
    let refusing = |c: &reading::Clause| {
        let toks: Vec<&str> = c.words.iter().map(String::as_str).collect();
        (0..toks.len()).any(|i| cx.lex.refusals.match_at(&toks, i).is_some())
    };
    if let Some(last) = r.clauses.iter().rposition(refusing)
        && cx.question().is_some()
    {
        let tail: Vec<&str> = r.clauses[last + 1..].iter().flat_map(|c| c.words.iter().map(String::as_str)).collect();
        if !tail.is_empty()
            && let Some(n) = position_said(cx, &tail.join(" "))
        {
            return position_n(cx, r, n);
        }
    }
    // A refusal followed by what is wanted instead ("no, make it 5:30",
    // "no no keep it, just move it to friday", "no, I meant the Rolling
    // Stones one"): that, without what was refused (what was proposed, or
    // the execute just had, which the refusal then rejects).
    if !r.after_refusal.is_empty() && !r.alternatives && cx.names_something(&r.after_refusal) {
        let text = r.after_refusal.join(" ");
        let had = if asked { None } else { cx.state.last_execute().and_then(|h| Some((cx.executed_entry(&h)?, h.id))) };
        let without: Vec<usize> = proposed.into_iter().chain(had.as_ref().map(|(e, _)| *e)).collect();
        // The one other option whose details say every word of it ("no,
        // I meant the Rolling Stones one"): that one.
        let words: Vec<&String> =
            r.after_refusal.iter().filter(|w| !EMPTY_IN_ANSWERS.contains(&w.as_str()) && !THE_ONE.contains(&w.as_str())).collect();
        let said: Vec<usize> = cx
            .options()
            .into_iter()
            .filter(|e| !without.contains(e) && !words.is_empty())
            .filter(|e| {
                let own = cx.words_of(*e);
                words.iter().all(|w| own.contains(w))
            })
            .collect();
        let rejected = had.map(|(_, id)| id);
        return match said[..] {
            // A correction of the session's last execute, read from its memory.
            [one] if !asked && !cx.high_risk(one) && had_only_in_details(cx, &words, &without) => {
                Answered::rejecting(Answer::Execute { entry: one, kind: ReplyKind::Decline, by: By::Ladder }, rejected)
            }
            _ => Answered::rejecting(Answer::Again { text, without, kind: ReplyKind::Decline }, rejected),
        };
    }
    // Nothing asked: a refusal on its own ("no thanks", "none of these")
    // ends the task; one with words of its own ("do they use a different
    // plug") is read by the ladder as any input is.
    if !asked {
        if !r.rest.is_empty() {
            return Answered::pass();
        }
        // Right after an execute still on screen, "nope", "that's wrong"
        // refuse it (a polite "no thanks" only ends the task): the refusal
        // sticks to the words that chose it (`refusals`).
        let thanks = |c: &reading::Clause| {
            let toks: Vec<&str> = c.words.iter().map(String::as_str).collect();
            (0..toks.len()).any(|i| cx.lex.closings.match_at(&toks, i).is_some())
        };
        let refused = match cx.state.last_execute() {
            Some(had) if r.refuses && !r.clauses.iter().any(thanks) => cx.executed_entry(&had).map(|_| had.id),
            _ => None,
        };
        return Answered::rejecting(Answer::Escape { reason: EscapeReason::Cancel, kind: ReplyKind::Decline }, refused);
    }
    // What it refused is recorded as a rejection is: a vague turn next
    // does not bring it back.
    let refused = proposed.filter(|_| r.refuses).map(|e| cx.pool.entries[e].cand.id.clone());
    Answered::rejecting(Answer::Escape { reason: EscapeReason::Declined, kind: ReplyKind::Decline }, refused)
}

/// Whether the words that pick an option among those but `without` say
/// something none of those shows: they tell it from what was refused.
fn had_only_in_details(cx: &Context<'_, '_>, words: &[&String], without: &[usize]) -> bool {
    without.iter().all(|w| {
        let refused = cx.words_of(*w);
        words.iter().any(|x| !refused.contains(x))
    })
}

/// "Not that one", "wrong one", "the other one": the execute just had on
/// these options is refused. `None` when there is none to refuse.
fn repair(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    let had = cx.state.last_execute()?;
    let refused = cx.executed_entry(&had)?;
    let had = had.id;
    let rest: Vec<usize> = cx.options().into_iter().filter(|e| *e != refused).collect();
    if rest.is_empty() {
        return None;
    }
    // Words beyond the repair narrow the rest ("das andere im wohnzimmer").
    let detail: Vec<&String> = r
        .rest
        .iter()
        .filter(|w| !only_generic(cx, std::slice::from_ref(w)) && !EMPTY_IN_ANSWERS.contains(&w.as_str()))
        .filter(|w| cx.names_something(std::slice::from_ref(w)))
        .collect();
    let narrowed: Vec<usize> = if detail.is_empty() {
        rest.clone()
    } else {
        rest.iter()
            .copied()
            .filter(|e| {
                let words = cx.words_of(*e);
                detail.iter().all(|w| words.contains(w))
            })
            .collect()
    };
    let answer = match narrowed[..] {
        [] => Answer::Ask { entries: rest, kind: ReplyKind::Repair },
        [one] if r.the_other || !detail.is_empty() => {
            if cx.high_risk(one) {
                Answer::Confirm { entry: one, kind: ReplyKind::Repair }
            } else {
                Answer::Execute { entry: one, kind: ReplyKind::Repair, by: By::Ladder }
            }
        }
        _ => Answer::Ask { entries: narrowed, kind: ReplyKind::Repair },
    };
    Some(Answered::rejecting(answer, Some(had)))
}

/// The options a comparison or a detail answer chooses among: the
/// question's (in its order), else the screen's.
fn considered(cx: &Context<'_, '_>) -> (Vec<usize>, By) {
    match cx.question() {
        Some((q, by)) if q.kind == QuestionKind::Choice => {
            let asked: Vec<usize> = q.offered.iter().filter_map(|id| cx.offered_entry(q, id)).collect();
            if asked.len() > 1 { (asked, by) } else { (cx.options(), By::Screen) }
        }
        _ => (cx.options(), By::Screen),
    }
}

fn compare(cx: &Context<'_, '_>, r: &Reading, code: i32) -> Answered {
    let (entries, by) = considered(cx);
    if entries.len() < 2 || r.asks || (by == By::Screen && entries.len() > SCREEN_READ) {
        return Answered::pass();
    }
    // Words some of them show narrow what is compared ("the new taylor
    // swift album": the albums, not the single).
    let narrowing: Vec<&String> = r.rest.iter().filter(|w| !EMPTY_IN_ANSWERS.contains(&w.as_str())).collect();
    let narrowed: Vec<usize> = entries
        .iter()
        .copied()
        .filter(|e| {
            let own = cx.words_of(*e);
            narrowing.iter().all(|w| own.contains(w))
        })
        .collect();
    let entries = if narrowed.len() >= 2 && narrowed.len() < entries.len() { narrowed } else { entries };
    let dim_name = COMPARED.get((code / 2) as usize).copied().unwrap_or("");
    let most = code % 2 == 1;
    let dims: &[Dim] = match dim_name {
        "price" => &[Dim::Price],
        "clock" => &[Dim::Clock, Dim::Year, Dim::Day],
        "duration" => &[Dim::Duration],
        "size" => &[Dim::Bytes, Dim::Length, Dim::Volume, Dim::Mass, Dim::Count],
        "year" => &[Dim::Year, Dim::Day],
        "count" => &[Dim::Count],
        _ => &[],
    };
    let shown: Vec<Vec<Value>> = entries.iter().map(|e| cx.values_of(*e)).collect();
    // The first dimension every option shows.
    let Some(dim) = dims.iter().copied().find(|d| shown.iter().all(|vals| vals.iter().any(|v| v.dim == *d))) else {
        return Answered::pass();
    };
    // Where every option shows one of it beside its label, that one is
    // compared: a number in a title ("1989 (Taylor's Version)", "Room
    // 101") is the title's.
    let beside: Vec<Vec<Value>> = entries.iter().map(|e| values(&cx.pool.entries[*e].cand.sublabel)).collect();
    let shown = if beside.iter().all(|vals| vals.iter().filter(|v| v.dim == dim).count() == 1) { beside } else { shown };
    // Words naming another option than the extreme make it unclear.
    match values::extreme(&shown, dim, most) {
        Some(k) => {
            let entry = entries[k];
            let others_named = r
                .rest
                .iter()
                .any(|w| !cx.words_of(entry).contains(w) && entries.iter().any(|o| *o != entry && cx.words_of(*o).contains(w)));
            if others_named {
                return Answered::pass();
            }
            // A comparison describes; a high-risk option is confirmed.
            if cx.high_risk(entry) {
                return Answered::of(Answer::Confirm { entry, kind: ReplyKind::Comparison });
            }
            Answered::of(Answer::Execute { entry, kind: ReplyKind::Comparison, by })
        }
        // A tie is asked again, among those that hold it.
        None => {
            let tied: Vec<usize> = values::holding_extreme(&shown, dim, most).into_iter().map(|k| entries[k]).collect();
            let entries = if tied.len() >= 2 { tied } else { entries };
            Answered::of(Answer::Ask { entries, kind: ReplyKind::Comparison })
        }
    }
}

/// Words that tell an option is the plain one of its kind ("the original
/// despacito", "the regular one").
const PLAIN: &[&str] = &["original", "regular", "plain", "normal", "standard", "classic", "basic", "ordinary", "usual"];

/// "The original despacito": among the options (a short screen) that show
/// the reply's other words, the one whose label every other's holds and
/// adds to ("Despacito" beside "Despacito - Remix" and "Despacito
/// (Acoustic)").
fn the_plain_one(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    let plain: Vec<&String> = r.rest.iter().filter(|w| PLAIN.contains(&w.as_str())).collect();
    if plain.len() != 1 || r.asks || !r.values.is_empty() {
        return None;
    }
    let words: Vec<&String> = r.rest.iter().filter(|w| !PLAIN.contains(&w.as_str()) && !EMPTY_IN_ANSWERS.contains(&w.as_str())).collect();
    let options = cx.options();
    if options.len() > SCREEN_READ {
        return None;
    }
    let kin: Vec<usize> = options.into_iter().filter(|e| words.iter().all(|w| cx.words_of(*e).contains(w))).collect();
    if kin.len() < 2 {
        return None;
    }
    let label = |e: usize| cx.canon.label_words_of(e).map(str::to_string).collect::<Vec<String>>();
    let base: Vec<usize> = kin
        .iter()
        .copied()
        .filter(|b| {
            let mine = label(*b);
            kin.iter().filter(|o| *o != b).all(|o| {
                let theirs = label(*o);
                theirs.len() > mine.len() && mine.iter().all(|w| theirs.contains(w))
            })
        })
        .collect();
    let [entry] = base[..] else { return None };
    Some(Answered::of(if cx.high_risk(entry) {
        Answer::Confirm { entry, kind: ReplyKind::Detail }
    } else {
        Answer::Execute { entry, kind: ReplyKind::Detail, by: By::Screen }
    }))
}

/// "One more", "again": the execute just had, again, when it is on screen
/// and the reply names nothing else; with nothing had, "log another glass
/// of water" asks for the one option whose words it says.
fn repeat(cx: &Context<'_, '_>, r: &Reading) -> Answered {
    // Who it is for changes nothing of it ("one more for my sister"), nor
    // does the "and" it opens with, nor a sentence of its own that names
    // nothing on screen ("still can't hear it, more").
    let for_whom = beneficiaries(r);
    let again = |c: &reading::Clause| {
        let toks: Vec<&str> = c.words.iter().map(String::as_str).collect();
        (0..toks.len()).any(|i| cx.lex.repetitions.match_at(&toks, i).is_some())
    };
    let aside: Vec<&String> = r.clauses.iter().filter(|c| !again(c) && !cx.names_something(&c.rest)).flat_map(|c| c.words.iter()).collect();
    let rest: Vec<&String> = r
        .rest
        .iter()
        .filter(|w| {
            !for_whom.contains(w)
                && !aside.contains(w)
                && !cx.lex.additive_openers.is_phrase(&[w.as_str()])
                && !cx.lex.conjunctions.is_phrase(&[w.as_str()])
        })
        .collect();
    let explained = |entry: usize| {
        let words = cx.words_of(entry);
        rest.iter().all(|w| words.contains(w) || cx.lex.generic_nouns.contains(w.as_str()) || EMPTY_IN_ANSWERS.contains(&w.as_str()))
    };
    let had = cx.state.last_execute().and_then(|had| cx.executed_entry(&had));
    let Some(entry) = had else {
        // Its whole label said ("log another glass of water": "Log water"),
        // and no word another option shows ("links plus report" names two).
        let whole = |e: usize| cx.canon.label_words_of(e).all(|w| rest.iter().any(|x| *x == w));
        let others = |e: usize| {
            let own = cx.words_of(e);
            cx.options().into_iter().any(|o| o != e && cx.words_of(o).iter().any(|w| !own.contains(w) && rest.contains(&w)))
        };
        let named: Vec<usize> = cx.options().into_iter().filter(|e| explained(*e) && whole(*e) && !others(*e)).collect();
        return match named[..] {
            [one] if !rest.is_empty() && r.values.is_empty() && !cx.high_risk(one) => {
                Answered::of(Answer::Execute { entry: one, kind: ReplyKind::Repeat, by: By::Screen })
            }
            _ => Answered::pass(),
        };
    };
    if !explained(entry) || !r.values.is_empty() {
        return Answered::pass();
    }
    if cx.high_risk(entry) {
        return Answered::of(Answer::Confirm { entry, kind: ReplyKind::Repeat });
    }
    Answered::of(Answer::Execute { entry, kind: ReplyKind::Repeat, by: By::Ladder })
}

/// The words that say who a request is for: the noun after "for my",
/// "for his", ... ("for my sister"), or a name after "for".
fn beneficiaries(r: &Reading) -> Vec<String> {
    let mut out = Vec::new();
    for c in &r.clauses {
        for w in c.words.windows(3) {
            if w[0] == "for" && matches!(w[1].as_str(), "my" | "his" | "her" | "our" | "their" | "your") {
                out.push(w[2].clone());
            }
        }
    }
    out
}

/// An answer to "which one?" by position: it counts in the order the
/// question listed its options, whatever screen the app re-sent. Only
/// when a question of choice is pending and the reply is a plain position.
fn position(cx: &Context<'_, '_>, r: &Reading) -> Answered {
    if r.asks || r.refuses || r.corrects {
        return Answered::pass();
    }
    let Some(n) = position_said(cx, cx.canonical) else { return Answered::pass() };
    position_n(cx, r, n)
}

/// The position `text` (canonical) says, whole: "the 2nd one", "and the
/// 6th one", "then number 2" (after an opener), "teh thrid one" (its words
/// as meant).
fn position_said(cx: &Context<'_, '_>, text: &str) -> Option<i32> {
    let respelled: String = text.split(' ').filter(|t| !t.is_empty()).map(|t| cx.lex.respell(t).unwrap_or(t)).collect::<Vec<_>>().join(" ");
    let respelled = crate::canon::strip_filler(respelled, cx.lex);
    let core = {
        let toks: Vec<&str> = respelled.split(' ').filter(|t| !t.is_empty()).collect();
        match cx.lex.additive_openers.match_at(&toks, 0) {
            Some(n) if n < toks.len() => {
                let skipped: usize = toks[..n].iter().map(|t| t.len() + 1).sum();
                respelled.get(skipped..).unwrap_or(&respelled)
            }
            _ => &respelled,
        }
    };
    crate::matching::parse_ordinal(core, cx.lex)
}

/// An answer to "which one?" by the position `n` (`position`).
fn position_n(cx: &Context<'_, '_>, r: &Reading, n: i32) -> Answered {
    let core = cx.canonical;
    // A quantity or a date is not a position ("1 ticket", "on the 1st"),
    // but "the 2nd one" is.
    let numbered_one = r.clauses.iter().any(|c| {
        c.words.windows(2).any(|w| {
            let n = w[0].trim_end_matches(|ch: char| ch.is_ascii_alphabetic());
            !n.is_empty()
                && n.chars().all(|ch| ch.is_ascii_digit())
                && matches!(&w[0][n.len()..], "st" | "nd" | "rd" | "th")
                && cx.lex.ordinal_suffixes.contains(w[1].as_str())
        })
    });
    // A lone "6th" reads as a day of the month too: said alone, it is the
    // position the whole input names.
    if r.values.iter().any(|v| !matches!(v.dim, Dim::Bare | Dim::Day)) && !numbered_one {
        return Answered::pass();
    }
    let Some((q, by)) = cx.question() else { return Answered::pass() };
    // Two lists the user may count on: the question's, as it listed its
    // options (docs/calling.md: apps show them in that order), and the
    // screen the app sent with the reply. Where both put one option at
    // that place, it is the one; where they put two, the user may mean
    // either, and both are asked.
    let listed: Vec<Option<usize>> = q.offered.iter().map(|id| cx.offered_entry(q, id)).collect();
    let asked: Vec<usize> = listed.iter().flatten().copied().collect();
    if asked.is_empty() {
        return Answered::pass();
    }
    let screen = cx.options();
    let by_question = place(n, listed.len()).and_then(|k| listed[k]);
    let by_screen = place(n, screen.len()).map(|k| screen[k]);
    let entry = match (by_question, by_screen) {
        (Some(a), Some(b)) if a != b => return Answered::of(Answer::Ask { entries: vec![a, b], kind: ReplyKind::Position }),
        (Some(a), _) => a,
        // A place neither list has is no position ("the 7" of three: a
        // value, for a detail answer to read).
        (None, None) if place(n, listed.len().max(screen.len())).is_none() => return Answered::pass(),
        // The question's place is empty (outside it, or its option gone
        // from the screen): asked among what it offered, and the screen's.
        (None, b) => {
            let mut entries = asked;
            entries.extend(b.filter(|b| !entries.contains(b)));
            return Answered::of(Answer::Ask { entries, kind: ReplyKind::Position });
        }
    };
    // A number that is also another offered option's word ("number 2"
    // with "Pack of 2") is asked between the two.
    if let Some(num) = core.split(' ').find(|t| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit())) {
        let also: Vec<usize> = asked.iter().copied().filter(|e| *e != entry && cx.words_of(*e).iter().any(|w| w == num)).collect();
        if !also.is_empty() {
            let mut both = also;
            both.insert(0, entry);
            return Answered::of(Answer::Ask { entries: both, kind: ReplyKind::Position });
        }
    }
    Answered::of(Answer::Execute { entry, kind: ReplyKind::Position, by })
}

/// The index a position names in a list of `len` (1-based `n`; negative
/// from the end; 0 the middle of an odd list).
fn place(n: i32, len: usize) -> Option<usize> {
    let k = match n {
        n if n > 0 => (n as usize).checked_sub(1),
        n if n < 0 => len.checked_sub(n.unsigned_abs() as usize),
        _ => (len % 2 == 1).then_some(len / 2),
    };
    k.filter(|k| *k < len)
}

/// An answer to "which one?" by detail, read where the screen left a tie
/// or no match: a word or value only one offered option shows picks it
/// (`PendingQuestion::detail`, read from the session as a fact, so a shared
/// store can still decide the turn in one round trip). The app's own
/// question is read the same way.
pub fn detail(cx: &Context<'_, '_>, r: &Reading) -> Answered {
    if r.asks || r.refuses || r.corrects || r.alternatives || r.abandons {
        return Answered::pass();
    }
    let words: Vec<String> = r.rest.iter().filter(|w| !EMPTY_IN_ANSWERS.contains(&w.as_str())).cloned().collect();
    if words.is_empty() && r.values.is_empty() {
        return Answered::pass();
    }
    let (picked, by) = match cx.req.options.as_ref().map(|o| o.asked) {
        Some(Asked::Choice) => match cx.question() {
            Some((q, by)) => (q.detail(&words, &r.values).map(str::to_string), by),
            None => return Answered::pass(),
        },
        Some(Asked::Confirmation) => return Answered::pass(),
        _ => match cx.state.question_detail(&words, &r.values) {
            Some(id) => (Some(id), By::Ladder),
            // With no question asked, "the beatles one", "the friday
            // ones": the user picks among what the screen shows, as from a
            // list (the session is read only for such a reply).
            None => match the_one_of_the_screen(cx, r) {
                Some(q) if cx.state.question().is_none() => {
                    // The noun every label shares ("window seat" among
                    // seats) says "one", nothing that tells them apart.
                    let common = common_label_words(cx);
                    let words: Vec<String> = words.into_iter().filter(|w| !common.contains(w)).collect();
                    (q.detail(&words, &r.values).map(str::to_string), By::Screen)
                }
                _ => return Answered::pass(),
            },
        },
    };
    let Some(entry) = picked.and_then(|id| cx.entry_of(&id)) else { return Answered::pass() };
    // The same option the question showed (ids of another screen may name
    // something else), and not one the user refused.
    let id = &cx.pool.entries[entry].cand.id;
    if let Some(q) = cx.state_question_if_ladder() {
        let label = q.label_of(id);
        if !label.is_empty() && label != cx.pool.entries[entry].cand.label {
            return Answered::pass();
        }
    }
    if cx.high_risk(entry) {
        return Answered::of(Answer::Confirm { entry, kind: ReplyKind::Detail });
    }
    Answered::of(Answer::Execute { entry, kind: ReplyKind::Detail, by })
}

/// "And the one where I park the car", "now the beatles one": after an
/// execute, a request that opens with an additive word and picks "the
/// one" asks for another option than the one just had; it is read again
/// without it. Not when it points at it ("and turn it off"), names it by a
/// word only it shows, or repeats it ("and one more").
fn and_the_one(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    let first = r.clauses.first()?;
    let toks: Vec<&str> = first.words.iter().map(String::as_str).collect();
    let n = cx.lex.additive_openers.match_at(&toks, 0)?;
    let words: Vec<&str> = r.clauses.iter().flat_map(|c| c.words.iter().map(String::as_str)).collect();
    let one = words[n..].iter().any(|w| THE_ONE.contains(w));
    let points = words[n..].iter().any(|w| *w != "one" && cx.lex.deictic.contains(*w));
    if !one || points || r.repeats || r.is_reply_shaped() || r.asks || r.rest.is_empty() {
        return None;
    }
    let had = cx.executed_entry(&cx.state.last_execute()?)?;
    // A word only it shows names it ("and the porch one too").
    let own = cx.words_of(had);
    let others: Vec<Vec<String>> = cx.options().into_iter().filter(|e| *e != had).map(|e| cx.words_of(e)).collect();
    if r.rest.iter().any(|w| own.contains(w) && !others.iter().any(|o| o.contains(w))) {
        return None;
    }
    let rest: Vec<&String> = r.rest.iter().filter(|w| !cx.lex.additive_openers.is_phrase(&[w.as_str()])).collect();
    let text = rest.iter().map(|w| w.as_str()).collect::<Vec<_>>().join(" ");
    Some(Answered::of(Answer::Again { text, without: vec![had], kind: ReplyKind::Detail }))
}

/// The screen's options as a question of choice, when the reply picks
/// among them as from a list by what they show beside their labels: "the
/// <detail> one" ("the beatles one", "ok now the blue ones"), not "one
/// more".
fn the_one_of_the_screen(cx: &Context<'_, '_>, r: &Reading) -> Option<PendingQuestion> {
    // "The window one", or "window seat" where every label says "seat"
    // and "window" none does (a word beside the labels, as "one" is).
    let common = common_label_words(cx);
    let label_word = |w: &String| cx.options().into_iter().any(|e| cx.canon.label_words_of(e).any(|x| x == w));
    let one = |c: &reading::Clause| {
        c.words.iter().any(|w| THE_ONE.contains(&w.as_str()))
            || (c.words.iter().any(|w| common.contains(w)) && c.rest.iter().all(|w| common.contains(w) || !label_word(w)))
    };
    let said = |c: &reading::Clause| c.rest.iter().any(|w| !common.contains(w));
    if r.repeats || !r.clauses.iter().any(|c| one(c) && said(c)) {
        return None;
    }
    let options = cx.options();
    if options.len() < 2 || options.len() > SCREEN_READ {
        return None;
    }
    // Only what the options show beside their labels: a word of a label
    // is the ladder's to read, with the principle ("the account one" does
    // not say "Close Account").
    let cands: Vec<&crate::types::Candidate> = options.iter().map(|e| cx.pool.entries[*e].cand).collect();
    Some(PendingQuestion {
        kind: QuestionKind::Choice,
        offered: cands.iter().map(|c| c.id.clone()).collect(),
        proposed: None,
        shown: cands.iter().map(|c| format!("{} {}", c.sublabel, c.badge)).collect(),
        labels: cands.iter().map(|c| c.label.clone()).collect(),
    })
}

/// The words every option on a short screen has in its label ("seat" in
/// "Seat 14A", "Seat 14B", "Seat 22C"): the list's own noun.
fn common_label_words(cx: &Context<'_, '_>) -> Vec<String> {
    let options = cx.options();
    if options.len() < 2 || options.len() > SCREEN_READ {
        return Vec::new();
    }
    let first: Vec<String> = cx.canon.label_words_of(options[0]).map(str::to_string).collect();
    first.into_iter().filter(|w| options[1..].iter().all(|e| cx.canon.label_words_of(*e).any(|x| x == w))).collect()
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
