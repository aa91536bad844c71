//! What was asked (docs/replies.md): a question the user may answer,
//! ladderd's clarifier or confirmation (kept in the session) or the app's
//! screen (`OptionSet.asked`). Plain data, below the session state: the
//! state holds one, and the facts a shared store checks read it.

use crate::text::{fold, normalize};
use crate::values::{Dim, Value, is_value_word, says_less, values};
use serde::{Deserialize, Serialize};

wire_enum! {
    "snake_case",
    /// What a question asks.
    pub enum QuestionKind {
        /// Yes or no, about one option (`proposed`).
        Confirmation,
        /// Which one of the options offered.
        Choice,
    }
}

/// A question the user may answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PendingQuestion {
    pub kind: QuestionKind,
    /// The options offered, in the order shown.
    pub offered: Vec<String>,
    /// The option proposed (a confirmation's, or a clarifier's suggestion).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proposed: Option<String>,
    /// What each offered option showed (label, sublabel, badge, aliases),
    /// in the same order: what a detail answer is read against.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shown: Vec<String>,
    /// Each offered option's label, in the same order: an option is the
    /// same one on a later screen only with the same id and label.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub labels: Vec<String>,
}

impl PendingQuestion {
    /// The one option a yes answers: a confirmation's, or the only one a
    /// question offered.
    pub fn proposal(&self) -> Option<&str> {
        match (self.kind, &self.offered[..]) {
            (QuestionKind::Confirmation, _) => self.proposed.as_deref().or(self.offered.first().map(String::as_str)),
            (QuestionKind::Choice, [one]) => Some(one),
            _ => None,
        }
    }

    /// The offered option a detail answer picks: the one option every word
    /// of which (`words`, normalized and folded, reply phrasing left out)
    /// it shows, and every value of which (`values`) it shows, when some
    /// word or value says anything and no other offered option fits, nor
    /// would with a word said in its other number ("kids" for "Kid").
    /// A count said ("3 kids") never picks an option that shows a count it
    /// does not say ("Group (3 kids + 1 adult)"): a bundle says more.
    /// Only for a question of choice.
    pub fn detail(&self, words: &[String], said: &[Value]) -> Option<&str> {
        if self.kind != QuestionKind::Choice || self.offered.len() < 2 || (words.is_empty() && said.is_empty()) {
            return None;
        }
        let split = |t: &str| -> Vec<String> { fold(&normalize(t)).split(' ').filter(|w| !w.is_empty()).map(str::to_string).collect() };
        let counts_said = said.iter().any(|v| v.dim == Dim::Count);
        let mut picked = None;
        let mut loosely = 0;
        for (k, (id, text)) in self.offered.iter().zip(&self.shown).enumerate() {
            let own = split(text);
            let shown = values(text);
            let names = |v: &Value| shown.iter().any(|s| v.names(s));
            let bundle = counts_said && says_less(said, &shown);
            let fits_with = |own_word: &dyn Fn(&str) -> bool| {
                !bundle
                    && words.iter().all(|w| own_word(w) || said.iter().any(|v| names(v) && is_value_word(w, v.dim)))
                    && said.iter().all(names)
            };
            let fits = fits_with(&|w| own.iter().any(|o| o == w));
            if fits_with(&|w| own.iter().any(|o| o == w || other_number(o, w))) {
                loosely += 1;
            }
            // Another offered option's whole label said ("panel" with
            // "Panel" offered) names that one too: no pick.
            let label_said = self.labels.get(k).is_some_and(|l| {
                let l = split(l);
                !l.is_empty() && l.iter().all(|w| words.contains(w))
            });
            if fits {
                if picked.is_some() {
                    return None;
                }
                picked = Some(id.as_str());
            } else if label_said {
                return None;
            }
        }
        picked.filter(|_| loosely == 1)
    }

    /// The label the question showed for `id` (empty when not kept).
    pub fn label_of(&self, id: &str) -> &str {
        self.offered.iter().position(|o| o == id).and_then(|k| self.labels.get(k)).map_or("", String::as_str)
    }
}

/// Whether `a` and `b` are one noun in its two numbers ("kid", "kids";
/// "box", "boxes").
fn other_number(a: &str, b: &str) -> bool {
    let plural = |one: &str, many: &str| many.strip_suffix('s').is_some_and(|s| s == one || s.strip_suffix('e') == Some(one));
    a.len() > 2 && b.len() > 2 && (plural(a, b) || plural(b, a))
}

/// What a decision does to the question the session holds.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub enum QuestionChange {
    /// Leave it: a question the user asked meanwhile (and every change
    /// logged before there were questions).
    #[default]
    Keep,
    /// The decision asks this.
    Ask(PendingQuestion),
    /// The turn answered or left it.
    Clear,
}
