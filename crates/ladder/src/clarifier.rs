//! The clarifier: which candidates to offer, in which order, and the short
//! question that goes with them, in the request's language.

use super::types::Scope;
use serde::Deserialize;
use std::collections::BTreeMap;

pub const SHIPPED: &str = include_str!("clarifier.toml");

/// Which question a clarifier asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    Selection,
    Collision,
    NoCandidate,
    Scope(Scope),
    NeedMoreInfo,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LanguageTemplates {
    pub selection: String,
    pub collision: String,
    pub no_candidate: String,
    pub scope_chat: String,
    pub scope_widget: String,
    pub scope_dashboard: String,
    pub scope_workspace: String,
    /// The input named two different scopes.
    pub scope_conflict: String,
    pub need_more_info: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Templates {
    by_language: BTreeMap<String, LanguageTemplates>,
}

impl Templates {
    pub fn from_toml(text: &str) -> Result<Self, String> {
        let by_language: BTreeMap<String, LanguageTemplates> = toml::from_str(text).map_err(|e| e.to_string())?;
        if by_language.is_empty() {
            return Err("no language defined".into());
        }
        Ok(Templates { by_language })
    }

    pub fn shipped() -> Self {
        Self::from_toml(SHIPPED).expect("shipped clarifier templates parse (tested)")
    }

    pub fn languages(&self) -> impl Iterator<Item = &str> {
        self.by_language.keys().map(String::as_str)
    }

    pub fn has(&self, lang: &str) -> bool {
        self.by_language.contains_key(lang)
    }

    /// The question in `language` ("he-IL" uses "he"), else in `default`.
    pub fn question(&self, ask: Ask, language: &str, default: &str) -> String {
        let primary = language.split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
        let t = self.by_language.get(&primary).or_else(|| self.by_language.get(default)).or_else(|| self.by_language.values().next());
        let Some(t) = t else { return String::new() };
        match ask {
            Ask::Selection => &t.selection,
            Ask::Collision => &t.collision,
            Ask::NoCandidate => &t.no_candidate,
            Ask::NeedMoreInfo => &t.need_more_info,
            Ask::Scope(Scope::Unspecified) => &t.scope_conflict,
            Ask::Scope(Scope::Chat) => &t.scope_chat,
            Ask::Scope(Scope::Widget) => &t.scope_widget,
            Ask::Scope(Scope::Dashboard) => &t.scope_dashboard,
            Ask::Scope(Scope::Workspace) => &t.scope_workspace,
        }
        .clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_falls_back_to_the_default() {
        let t = Templates::shipped();
        assert_eq!(t.question(Ask::Selection, "en-US", "en"), "Which one did you mean?");
        assert_eq!(t.question(Ask::Selection, "he", "en"), "לאיזו אפשרות התכוונת?");
        assert_eq!(t.question(Ask::Selection, "fr", "en"), "Which one did you mean?");
        assert_eq!(t.question(Ask::Selection, "", "he"), "לאיזו אפשרות התכוונת?");
    }

    #[test]
    fn every_shipped_question_is_one_short_sentence_ending_in_a_question_mark() {
        let t = Templates::shipped();
        for lang in t.languages() {
            for ask in [
                Ask::Selection,
                Ask::Collision,
                Ask::NoCandidate,
                Ask::NeedMoreInfo,
                Ask::Scope(Scope::Chat),
                Ask::Scope(Scope::Widget),
                Ask::Scope(Scope::Dashboard),
                Ask::Scope(Scope::Workspace),
                Ask::Scope(Scope::Unspecified),
            ] {
                let q = t.question(ask, lang, "en");
                assert!(q.ends_with('?') && q.matches('?').count() == 1, "{lang} {ask:?}: {q}");
                assert!(q.chars().count() <= 120, "{lang} {ask:?} too long");
            }
        }
    }
}
