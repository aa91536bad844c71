//! "One more", "again": the execute just had, again (docs/replies.md).

use super::*;

/// "One more", "again": the execute just had, again, when it is on screen
/// and the reply names nothing else; with nothing had, "log another glass
/// of water" asks for the one option whose words it says.
/// "Do it again", "yes, one more": a repetition of the last execute,
/// whatever yes it says (`Reading::repeats`).
/// A word of repetition an option shows ("standard plus" over "Standard"
/// and "Standard Plus", "the encore set") is that option's word, not
/// "again": the ladder reads it.
pub(super) fn repeat(cx: &Context<'_, '_>, r: &Reading) -> Option<Answered> {
    (r.repeats && !cx.phrase_shown(r, &cx.lex.repetitions)).then(|| repeating(cx, r))
}

fn repeating(cx: &Context<'_, '_>, r: &Reading) -> Answered {
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
    let last = cx.state.last_execute();
    let had = last.as_ref().and_then(|had| cx.executed_entry(had));
    if had.is_none()
        && let Some(last) = &last
        && let Some(entry) = the_same_for(cx, &last.label, &rest)
    {
        return match cx.high_risk(entry) {
            true => Answered::of(Answer::Confirm { entry, kind: ReplyKind::Repeat }),
            false => Answered::of(Answer::Execute { entry, kind: ReplyKind::Repeat, by: By::Screen }),
        };
    }
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

/// "Same again for tomorrow", "do the same in the bedroom": the execute
/// just had, now gone from the screen, for what the reply says instead of
/// a part of it. The one option whose label is the executed label
/// (`label`) with some of its words replaced by words the reply says, and
/// nothing else: every word it has beyond the executed label is said, and
/// every word said is its own ("Bedroom · Dim to 30%" after "Living room
/// · Dim to 30%"; not "Bedroom · Off", whose "off" nobody said).
fn the_same_for(cx: &Context<'_, '_>, label: &str, rest: &[&String]) -> Option<usize> {
    if label.is_empty() || rest.is_empty() {
        return None;
    }
    let had = crate::canon::canonicalize(label, cx.lex);
    let had: Vec<&str> = crate::text::words(&had).collect();
    let said: Vec<&str> = rest
        .iter()
        .map(|w| w.as_str())
        .filter(|w| !EMPTY_IN_ANSWERS.contains(w) && !cx.lex.function_words.contains(*w) && !cx.lex.everyday_verbs.is_phrase(&[*w]))
        .filter(|w| !matches!(*w, "do" | "same"))
        .collect();
    if said.is_empty() {
        return None;
    }
    let fits = |e: usize| {
        let own: Vec<&str> = cx.canon.label_words_of(e).collect();
        let new: Vec<&&str> = own.iter().filter(|w| !had.contains(w)).collect();
        let gone = had.iter().any(|w| !own.contains(w));
        !new.is_empty() && gone && new.iter().all(|w| said.contains(w)) && said.iter().all(|w| own.contains(w))
    };
    let mut fitting = cx.options().into_iter().filter(|e| fits(*e));
    let one = fitting.next()?;
    fitting.next().is_none().then_some(one)
}

/// The words that say who a request is for: the noun after "for my",
/// "for his", ... ("for my sister"), or a name after "for".
pub(super) fn beneficiaries(r: &Reading) -> Vec<String> {
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

#[cfg(test)]
mod tests;
