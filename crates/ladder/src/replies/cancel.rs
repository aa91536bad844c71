//! "Cancel", "stop", "never mind": a reply that abandons; said alone where
//! an option's label starts with it, it is asked (docs/replies.md).

use super::*;

/// An abandon word in the reply (`Reading::abandons`): asked among the
/// options that open with it, a request of its own the ladder reads, the
/// rest read again, or a cancel of the conversation.
pub(super) fn cancel(cx: &Context<'_, '_>, r: &Reading) -> Answered {
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
    Answered::of(Answer::Escape { reason: EscapeReason::Cancel, kind: ReplyKind::Cancel })
}
