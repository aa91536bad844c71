//! Replies (docs/replies.md): a turn read as an answer to what was asked,
//! before the ladder runs over the screen as a fresh request.
//!
//! What was asked comes from the app (`OptionSet.asked`: it asked the user
//! to confirm its one candidate, or "which one?") or from the session
//! (`ContinuityState::question`: ladderd's own clarifier or confirmation);
//! what was last executed, from the session. The reply's words are read
//! alone first (`reading`), then against that question (`Context`).
//!
//! Each kind of reply ([`ReplyKind`]) is a room, a folder with its rules
//! and its tests: `affirm` (with `follow_up`, the half of a turn after a
//! yes), `decline`, `cancel`, `repair`, `position`, `detail` (with
//! `negation` and `plain`), `comparison`, `repeat`, `self_correction` (a reply
//! that corrects itself). A room's rows read the reply and answer with
//! its own kind, never another's: a case a room leaves to another is
//! `None` from its row, and a later row of that room reads it (a yes with
//! a position is the position room's, a yes that ends the task the cancel
//! room's).
//!
//! [`TABLE`] is the one ordered list of which room reads a reply first,
//! each row saying why it comes where it does; [`answer`] runs it once a
//! turn. Anything no row answers is not a reply ([`Answer::Pass`]): the
//! ladder runs as it would. The principle (docs/deciding.md) rules every
//! execute: a reply accounts for an option only through what was asked,
//! and every word left must be explained by that option. An answer by a
//! detail ("the saturday one") is also read where the screen left a tie,
//! after the `continuity` rung ([`detail`]).
//!
//! A new kind of reply: its room (`replies/<kind>/mod.rs` and its
//! `tests.rs`), its row in [`TABLE`], its phrases in the lexicon
//! (`lexicon.toml`, read in `reading`), its variant in [`ReplyKind`] and
//! its row in docs/replies.md (docs/contributing.md).

mod affirm;
mod cancel;
mod comparison;
mod context;
mod decline;
mod detail;
mod position;
pub mod reading;
mod repair;
mod repeat;
mod self_correction;

use crate::continuity::StateView;
use crate::cost::DeadlineWatch;
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
use context::shows_word;
pub use context::{Context, asked};
use decline::*;
pub use detail::detail;
use detail::*;
use position::*;
use reading::Reading;
use repair::*;
use repeat::*;
use self_correction::*;
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
        SelfCorrection,
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

impl Answer {
    /// The kind of reply it was read as (`None`: not a reply).
    pub fn kind(&self) -> Option<ReplyKind> {
        match self {
            Answer::Pass => None,
            Answer::Execute { kind, .. }
            | Answer::Confirm { kind, .. }
            | Answer::Ask { kind, .. }
            | Answer::Escape { kind, .. }
            | Answer::Again { kind, .. } => Some(*kind),
        }
    }
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

/// One row of [`TABLE`]: the room that reads it (the kind it answers
/// with; `None`: no room, the turn is the ladder's) and its reading:
/// `None` when its guard does not hold (the next row reads the reply),
/// else its answer (`Pass`: not a reply, the ladder reads it).
pub struct Row {
    pub room: Option<ReplyKind>,
    /// What the row reads, for the docs and the tests.
    pub rule: &'static str,
    pub read: fn(&Context<'_, '_>, &Reading) -> Option<Answered>,
}

/// The rooms in the order they read a reply: the first row whose guard
/// holds answers. Why each comes where it does:
///
/// - a clause that says one of the turn's commands whole ("ok. show my
///   bookings" with "My bookings" offered) is that command, the
///   ladder's, before anything in it reads as a yes;
/// - a yes right after an execute acknowledges it, never asks for it
///   again (before any yes is read);
/// - a choice taken back for another ("the first... no wait, the
///   third"): the last choice stands, before the refusal, the abandon or
///   the first choice in it is read;
/// - a value that differs from the one the option proposed shows ("make
///   it 8 instead" to 7:30): a change, before its number reads as a
///   position or its words as a request;
/// - a choice in a clause of its own, then a question or a request ("the
///   blue one - is it machine washable?"): as a yes does, before its
///   question or its words are read as anything else;
/// - a negation that names what is wanted, "and the one where..." after an
///   execute, and "the plain one" in a turn that says nothing a reply
///   says: details of what is wanted, before a closing or a position
///   could take the turn;
/// - a closing alone acknowledges what was proposed, or ends the task;
/// - a thanks before a request acknowledges what was proposed, the rest
///   the user's next turn; with nothing proposed, the request is read
///   alone;
/// - a turn that says nothing a reply says: a position, else a request
///   that points at the one option proposed (nothing else: the ladder's);
/// - a label the reply says is that request (the ladder's), before any
///   reply word in it is read;
/// - a repair refuses the execute just had, before a refusal is a decline;
/// - a yes with the option's own verb ("yes cancel it") before the
///   abandon word in it cancels;
/// - an abandon that names what follows is read again; else it cancels;
/// - a refusal or a request for others declines;
/// - a comparison, "the plain one" in a reply, a repetition, a position
///   with a yes to "which one?" (before the yes reads its words again), a
///   yes, a request of the one option proposed, and last a yes that only
///   closes with nothing asked (the affirm room leaves it).
pub static TABLE: &[Row] = &[
    Row { room: None, rule: "a command the turn offers, said whole", read: a_command_said },
    Row { room: Some(ReplyKind::Cancel), rule: "a yes right after an execute", read: acknowledges_the_execute },
    Row { room: Some(ReplyKind::SelfCorrection), rule: "a choice taken back for another", read: taken_back_for_another },
    Row { room: Some(ReplyKind::Decline), rule: "a changed value, to the option proposed", read: a_changed_value },
    Row { room: Some(ReplyKind::Position), rule: "a position, then a question or a request", read: a_position_then_more },
    Row { room: Some(ReplyKind::Detail), rule: "a choice by its words, then a question or a request", read: a_detail_then_more },
    Row { room: Some(ReplyKind::Detail), rule: "a negation that names what is wanted", read: negated_then_wanted },
    Row { room: Some(ReplyKind::Detail), rule: "and the one where, after an execute", read: and_the_one },
    Row { room: Some(ReplyKind::Detail), rule: "the plain one, said as a request", read: the_plain_one_asked },
    Row { room: Some(ReplyKind::Affirm), rule: "a closing, to an option proposed", read: closing },
    Row { room: Some(ReplyKind::Cancel), rule: "a closing, with nothing proposed", read: closing_with_nothing_proposed },
    Row { room: Some(ReplyKind::Cancel), rule: "a closing, then a request, nothing proposed", read: a_closing_then_a_request },
    Row { room: Some(ReplyKind::Affirm), rule: "a thanks before a request", read: thanks_then_a_request },
    Row { room: Some(ReplyKind::Position), rule: "a position, in no reply words", read: a_position },
    Row { room: Some(ReplyKind::Affirm), rule: "a request that points at the one proposed", read: a_request_of_the_proposal },
    Row { room: None, rule: "a label the reply says", read: a_label_said },
    Row { room: Some(ReplyKind::Repair), rule: "not that one, the other one", read: repair },
    Row { room: Some(ReplyKind::Affirm), rule: "a yes with the option's own verb", read: a_yes_with_its_verb },
    Row { room: Some(ReplyKind::Decline), rule: "an abandon, then what is wanted", read: what_follows_an_abandon },
    Row { room: Some(ReplyKind::Position), rule: "a position after words that hold the turn", read: a_position_after_a_hold },
    Row { room: Some(ReplyKind::Cancel), rule: "an abandon", read: cancel },
    Row { room: Some(ReplyKind::Decline), rule: "a refusal, a request for others", read: decline },
    Row { room: Some(ReplyKind::Comparison), rule: "a comparison", read: compare },
    Row { room: Some(ReplyKind::Detail), rule: "the plain one, in a reply", read: the_plain_one_in_a_reply },
    Row { room: Some(ReplyKind::Repeat), rule: "a repetition", read: repeat },
    Row { room: Some(ReplyKind::Position), rule: "a yes with a position, to which one", read: a_yes_with_a_position },
    Row { room: Some(ReplyKind::Affirm), rule: "a yes", read: a_yes },
    Row { room: Some(ReplyKind::Affirm), rule: "a request of the one proposed", read: a_request },
    Row { room: Some(ReplyKind::Cancel), rule: "a yes that ends the task, nothing asked", read: a_yes_that_ends_the_task },
];

/// Reads a reply against what was asked: the first row of [`TABLE`] that
/// answers, else not a reply. What the user refused is never executed
/// again by a reply: the sequence checks every execute (`refusals`).
///
/// A room answers with its own kind: a case it leaves to another room is
/// `None` (its guard does not hold) and a later row reads it. Test builds
/// check it on every reply the suite reads.
pub fn answer(cx: &Context<'_, '_>, r: &Reading) -> Answered {
    TABLE
        .iter()
        .find_map(|row| {
            let a = (row.read)(cx, r)?;
            debug_assert!(a.answer.kind().is_none_or(|k| Some(k) == row.room), "the row {:?} answered {:?}", row.rule, a.answer);
            Some(a)
        })
        .unwrap_or_else(Answered::pass)
}

/// "Ok. Show my bookings" where the turn offers that command: a clause
/// that says one of the turn's commands whole (its label or an alias) is
/// that command, whatever opens the reply; the acknowledgement accepts
/// nothing, and the ladder reads the command.
fn a_command_said(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    if cx.req.commands.is_empty() {
        return None;
    }
    // Compared as the match rung compares a command: canonical forms,
    // without a leading verb of selection, and without words that name
    // nothing ("show my bookings" says "My bookings").
    let canon = |t: &str| crate::canon::canonicalize(t, cx.lex);
    let names: Vec<String> = cx
        .req
        .commands
        .iter()
        .flat_map(|c| std::iter::once(&c.label).chain(&c.aliases))
        .map(|n| canon(n))
        .filter(|n| !n.is_empty())
        .collect();
    r.clauses
        .iter()
        .any(|c| {
            // A word of the order names nothing ("show me the price list
            // first", "first show me the price list": before the yes).
            let said: Vec<&str> =
                c.words.iter().map(String::as_str).filter(|w| !crate::matching::sequence::FIRST_WORDS.contains(w)).collect();
            let q = crate::matching::Query::new(canon(&said.join(" ")), cx.lex);
            let bare: Vec<&str> = q.core.split(' ').filter(|w| !w.is_empty() && !cx.lex.function_words.contains(*w)).collect();
            names.iter().any(|n| *n == q.full || *n == q.core || *n == bare.join(" "))
        })
        .then(Answered::pass)
}

/// A label or alias says what the input says ("Skip", "it's a no" with
/// "No" shown): it is that request, whatever reply words it holds; the
/// ladder reads it.
fn a_label_said(cx: &Context<'_, '_>, _: &Reading) -> Option<Answered> {
    cx.a_label_says_it().then(Answered::pass)
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
    let shown = crate::values::shown(c);
    r.values.iter().any(|v| v.dim == Dim::Count && v.conflicts(&shown))
}

/// What a candidate shows, for a question to keep: label, sublabel,
/// badge and aliases.
pub fn shown_text(c: &crate::types::Candidate) -> String {
    // Apart, as the app shows them: a value at the end of the label is
    // not read with the sublabel's first word ("+1" and "nonstop" are no
    // count of nonstops).
    let mut text = c.label.clone();
    for part in std::iter::once(&c.sublabel).chain(std::iter::once(&c.badge)).chain(&c.aliases) {
        if !part.is_empty() {
            text.push_str(" · ");
            text.push_str(part);
        }
    }
    text
}

#[cfg(test)]
pub(crate) mod tests;
