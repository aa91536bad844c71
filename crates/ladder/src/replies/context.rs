//! What the reply rung reads a reply against (`Context`): the request,
//! the session, the pool and its canonical index, and the question asked,
//! read on first need; with the lookups every room shares.

use super::*;

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
    pub stop: &'a DeadlineWatch,
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
        static NEVER: DeadlineWatch = DeadlineWatch::never();
        Context { req, state, pool, canon, lex, high_risk_kinds, canonical, stop: &NEVER, asked: std::cell::OnceCell::new() }
    }

    /// The same, stopping its loops once `stop` has passed.
    pub fn until(self, stop: &'a DeadlineWatch) -> Self {
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
    pub(super) fn executed_entry(&self, had: &crate::continuity::Executed) -> Option<usize> {
        let set = self.req.option_set_id();
        self.pool.entries.iter().position(|e| e.source == Source::ActiveOptions && had.is(e.cand, set))
    }

    /// The option on screen a question offered as `id`: the same id, and
    /// the same label when the question kept it (an id of another screen
    /// may name something else).
    pub(super) fn offered_entry(&self, q: &PendingQuestion, id: &str) -> Option<usize> {
        let label = q.label_of(id);
        self.entry_of(id).filter(|e| label.is_empty() || self.pool.entries[*e].cand.label == label)
    }

    /// The session's question, when the screen asks nothing of its own.
    pub(super) fn state_question_if_ladder(&self) -> Option<&PendingQuestion> {
        match self.req.options.as_ref().map(|o| o.asked) {
            Some(Asked::Choice | Asked::Confirmation) => None,
            _ => self.state.question(),
        }
    }

    pub(super) fn entry_of(&self, id: &str) -> Option<usize> {
        self.pool.entries.iter().position(|e| e.cand.id == id && e.source == Source::ActiveOptions)
    }

    /// The options on screen (the active options of the pool).
    pub(super) fn options(&self) -> Vec<usize> {
        self.option_entries().collect()
    }

    /// `options`, one at a time.
    pub(super) fn option_entries(&self) -> impl Iterator<Item = usize> + '_ {
        self.entries().filter(|i| self.pool.entries[*i].source == Source::ActiveOptions)
    }

    /// The question a reply answers: the app's screen, else the session's.
    /// The session's is read (noted as a fact) only when asked for, and
    /// once a turn: the app's is built from its screen then.
    pub(super) fn question(&self) -> Option<(&PendingQuestion, By)> {
        self.asked.get_or_init(|| asked(self.req, self.state)).as_ref().map(|(q, by)| (q.as_ref(), *by))
    }

    /// The words of an entry, as replies are compared: normalized, folded.
    pub(super) fn words_of(&self, entry: usize) -> Vec<String> {
        let text = shown_text(self.pool.entries[entry].cand);
        fold(&normalize(&text)).split(' ').filter(|w| !w.is_empty()).map(str::to_string).collect()
    }

    /// The reply word a slip of the keyboard spelled as `t`
    /// (`Lexicon::respell`), unless `t` is a word some candidate shows:
    /// then it is that word, as typed.
    pub(super) fn respell<'w>(&'w self, t: &'w str) -> &'w str {
        match self.lex.respell(t) {
            Some(meant) if !self.entries().any(|e| self.words_of(e).iter().any(|w| w == t)) => meant,
            _ => t,
        }
    }

    pub(super) fn values_of(&self, entry: usize) -> Vec<Value> {
        crate::values::shown(self.pool.entries[entry].cand)
    }

    /// Whether some word of `words` is a word of some candidate.
    /// Whether a phrase of `set` said in the reply (a repetition, a
    /// request for others) is words an option shows ("standard plus" with
    /// "Standard Plus", "d'autres dates" with "Voir d'autres dates"): that
    /// option's words, not the reply's.
    pub(super) fn phrase_shown(&self, r: &super::reading::Reading, set: &crate::lexicon::PhraseSet) -> bool {
        let shown: Vec<Vec<String>> = self.options().into_iter().map(|e| self.words_of(e)).collect();
        r.clauses.iter().any(|c| {
            let toks: Vec<&str> = c.words.iter().map(String::as_str).collect();
            (0..toks.len()).any(|i| {
                set.match_at(&toks, i).is_some_and(|n| {
                    let phrase = &toks[i..i + n];
                    shown.iter().any(|own| own.windows(n).any(|w| w.iter().zip(phrase).all(|(a, b)| a == b)))
                })
            })
        })
    }

    /// Whether a word of `words` that is neither a function word nor a
    /// generic noun is one some option shows, in either number ("nails"
    /// names "Nail trim").
    pub(super) fn names_something(&self, words: &[String]) -> bool {
        self.entries().any(|e| self.names_entry(e, words))
    }

    /// Whether a word of `words` that is neither a function word nor a
    /// generic noun is one `entry` shows, in either number.
    pub(super) fn names_entry(&self, entry: usize, words: &[String]) -> bool {
        let own = self.words_of(entry);
        words.iter().any(|w| shows_word(&own, w) && !self.lex.function_words.contains(w) && !self.lex.generic_nouns.contains(w))
    }

    /// Whether the input's first word is an action some label starts with
    /// ("cancel it" with "Cancel appointment" on screen).
    pub(super) fn abandon_is_an_action(&self) -> bool {
        let first = self.canonical.split(' ').next().unwrap_or("");
        self.lex.actions.contains(first) && self.entries().any(|e| self.canon.label_words_of(e).next() == Some(first))
    }

    /// The options whose label opens with the input's first word, when the
    /// input is that word alone ("cancel", "cancel it", "stop that": an
    /// abandon word and nothing that names anything).
    pub(super) fn opening_with_the_verb(&self, r: &Reading) -> Option<Vec<usize>> {
        let first = self.canonical.split(' ').next().unwrap_or("");
        if !r.rest.is_empty() || r.refuses || r.alternatives || r.asks || !r.values.is_empty() {
            return None;
        }
        let entries: Vec<usize> = self.option_entries().filter(|e| self.canon.label_words_of(*e).next() == Some(first)).collect();
        (!entries.is_empty()).then_some(entries)
    }

    /// Whether the reply says the verb that opens `entry`'s label as an
    /// abandon word ("yes cancel it" to "Cancel gym membership").
    pub(super) fn says_the_verb_of(&self, entry: usize, r: &Reading) -> bool {
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
    pub(super) fn a_label_says_it(&self) -> bool {
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

/// Whether an option's words `own` show `w`, or `w` in another number
/// ("nails" of "Nail trim"), as matching says a kind
/// (`matching::same_or_plural`).
pub(super) fn shows_word(own: &[String], w: &str) -> bool {
    own.iter().any(|o| crate::matching::same_or_plural(o, w))
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
