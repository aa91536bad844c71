//! Scope cues and pool resolution. An explicit cue ("from chat", "in the
//! widget") is parsed before any widget shortcut (S4) and restricts the pool
//! to that scope's candidates.

use super::lexicon::Lexicon;
use super::text::words;
use super::types::{Candidate, DecideRequest, EvidenceType, Scope};

wire_enum! {
    "snake_case",
    /// Which list of the request a pool entry came from.
    #[derive(PartialOrd, Ord)]
    pub enum Source {
        #[strum(serialize = "options")]
        #[serde(rename = "options")]
        ActiveOptions,
        #[strum(serialize = "recoverable_chat_options")]
        #[serde(rename = "recoverable_chat_options")]
        RecoverableChat,
        #[strum(serialize = "widget_items")]
        #[serde(rename = "widget_items")]
        Widget,
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    pub cand: &'a Candidate,
    pub source: Source,
    /// Index within its source list (for ordinals).
    pub position: usize,
}

/// The candidates a decision may pick from.
#[derive(Debug, Clone)]
pub struct Pool<'a> {
    pub entries: Vec<Entry<'a>>,
    /// The explicit scope cue, if the input had one.
    pub cue: Option<Scope>,
    /// The list ordinals ("the second one") index into.
    pub ordinal_source: Option<Source>,
    /// How long that list was as the user saw it, when entries were taken
    /// out of it (a turn read again without an option): positions count
    /// on the list as shown, by each entry's `position`, never on what is
    /// left. `None`: the entries are the list as shown.
    pub shown_len: Option<usize>,
}

impl Pool<'_> {
    /// Whether the pool is `list`, whole and in order: its entries are
    /// `list`'s candidates themselves (the same memory, not equal ones).
    pub fn is_whole(&self, list: &[Candidate]) -> bool {
        self.entries.len() == list.len() && self.entries.iter().zip(list).all(|(e, c)| std::ptr::eq(e.cand, c))
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    pub fn ordinal_len(&self) -> usize {
        self.entries.iter().filter(|e| Some(e.source) == self.ordinal_source).count()
    }
}

/// A cue found in the input, and the input with the cue removed.
#[derive(Debug, Clone, PartialEq)]
pub struct Cue {
    pub scope: Scope,
    pub rest: String,
}

/// What the input says about scope.
#[derive(Debug, Clone, PartialEq)]
pub enum CueParse {
    None,
    One(Cue),
    /// Cues naming different scopes ("from the widget ... in chat"): the
    /// user must say which; never guess.
    Conflict,
}

/// Finds scope cues (longest first at each position) in canonical text.
pub fn find_cue(canonical: &str, lex: &Lexicon) -> CueParse {
    let toks: Vec<&str> = words(canonical).collect();
    let mut scope: Option<Scope> = None;
    let mut rest: Vec<&str> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let hit = lex.scope_cues.iter().find(|(cue, _)| cue.len() <= toks.len() - i && cue.iter().zip(&toks[i..]).all(|(a, b)| a == b));
        match hit {
            Some((_, s)) if scope.is_some_and(|first| first != *s) => return CueParse::Conflict,
            Some((cue, s)) => {
                scope = Some(*s);
                i += cue.len();
            }
            None => {
                rest.push(toks[i]);
                i += 1;
            }
        }
    }
    match scope {
        None => CueParse::None,
        Some(scope) => CueParse::One(Cue { scope, rest: rest.join(" ") }),
    }
}

/// Result of pool resolution.
#[derive(Debug)]
pub enum Resolved<'a> {
    Pool(Pool<'a>),
    /// An explicit scope whose pool is empty or stale: ask for evidence,
    /// never execute, never fall back to another scope.
    EmptyScope {
        scope: Scope,
        needed: EvidenceType,
    },
}

/// The pool a decision picks from. `recoverable` adds the recoverable chat
/// options to an uncued pool: an `Enrich` step supplied them because the
/// LLM asked for them (without a cue they are otherwise only reached by a
/// chat cue).
pub fn resolve<'a>(req: &'a DecideRequest, cue: Option<Scope>, recoverable: bool) -> Resolved<'a> {
    let opts = req.options.as_ref().filter(|o| !o.candidates.is_empty());
    let active = req.active_scope.as_ref().map(|s| s.scope).unwrap_or_default();
    let list =
        |cands: &'a [Candidate], source: Source| cands.iter().enumerate().map(move |(position, cand)| Entry { cand, source, position });
    match cue {
        Some(Scope::Chat) => {
            let (cands, source) = match opts {
                Some(o) if o.is_chat() => (o.candidates.as_slice(), Source::ActiveOptions),
                _ => (req.recoverable_chat_options.as_slice(), Source::RecoverableChat),
            };
            if cands.is_empty() {
                return Resolved::EmptyScope { scope: Scope::Chat, needed: EvidenceType::ChatRecoverableOptions };
            }
            Resolved::Pool(Pool { entries: list(cands, source).collect(), cue, ordinal_source: Some(source), shown_len: None })
        }
        Some(scope @ (Scope::Widget | Scope::Dashboard | Scope::Workspace)) => {
            let needed = match scope {
                Scope::Dashboard => EvidenceType::ActiveDashboardItems,
                Scope::Workspace => EvidenceType::ActiveWorkspaceItems,
                _ => EvidenceType::ActiveWidgetItems,
            };
            let mut entries: Vec<Entry<'a>> = Vec::new();
            if let Some(o) = opts.filter(|o| o.scope == scope) {
                entries.extend(list(&o.candidates, Source::ActiveOptions));
            }
            // Widget items belong to the surface on screen beside the chat;
            // a cue naming another surface than the active one (a dashboard
            // while a widget is active) makes them stale, not a fallback.
            if matches!(active, Scope::Unspecified | Scope::Chat) || active == scope {
                entries.extend(list(&req.widget_items, Source::Widget));
            }
            if entries.is_empty() {
                return Resolved::EmptyScope { scope, needed };
            }
            let ordinal_source = Some(entries[0].source);
            Resolved::Pool(Pool { entries, cue, ordinal_source, shown_len: None })
        }
        Some(Scope::Unspecified) | None => {
            let mut entries: Vec<Entry<'a>> = Vec::new();
            if let Some(o) = opts {
                entries.extend(list(&o.candidates, Source::ActiveOptions));
            }
            entries.extend(list(&req.widget_items, Source::Widget));
            if recoverable {
                entries.extend(list(&req.recoverable_chat_options, Source::RecoverableChat));
            }
            let ordinal_source = match active {
                Scope::Widget | Scope::Dashboard | Scope::Workspace if !req.widget_items.is_empty() => Some(Source::Widget),
                _ if opts.is_some() => Some(Source::ActiveOptions),
                _ if !req.widget_items.is_empty() => Some(Source::Widget),
                _ => None,
            };
            Resolved::Pool(Pool { entries, cue: None, ordinal_source, shown_len: None })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{OptionSet, ScopeRef};

    fn c(id: &str) -> Candidate {
        Candidate::new(id, id)
    }

    #[test]
    fn cue_table() {
        let lex = Lexicon::shipped();
        let table = [
            ("open panel d from chat", Some((Scope::Chat, "open panel d"))),
            ("in chat open panel d", Some((Scope::Chat, "open panel d"))),
            ("open panel d in widget", Some((Scope::Widget, "open panel d"))),
            ("open panel d on dashboard", Some((Scope::Dashboard, "open panel d"))),
            ("open chat panel", None),
        ];
        for (input, want) in table {
            let got = match find_cue(input, &lex) {
                CueParse::One(c) => Some((c.scope, c.rest)),
                _ => None,
            };
            assert_eq!(got, want.map(|(s, r)| (s, r.to_string())), "input {input:?}");
        }
        assert_eq!(find_cue("open d from widget from chat", &lex), CueParse::Conflict);
        assert_eq!(find_cue("from chat open d from chat", &lex), CueParse::One(Cue { scope: Scope::Chat, rest: "open d".into() }));
    }

    fn widget_req() -> DecideRequest {
        DecideRequest {
            active_scope: Some(ScopeRef { scope: Scope::Widget, instance_id: "w1".into() }),
            options: Some(OptionSet {
                option_set_id: "o".into(),
                scope: Scope::Widget,
                candidates: vec![c("w-a")].into(),
                ..Default::default()
            }),
            recoverable_chat_options: vec![c("chat-a"), c("chat-b")],
            widget_items: vec![c("item-a")],
            ..Default::default()
        }
    }

    #[test]
    fn chat_cue_uses_recoverable_options_when_active_options_are_not_chat() {
        let req = widget_req();
        let Resolved::Pool(pool) = resolve(&req, Some(Scope::Chat), false) else { panic!("pool expected") };
        let ids: Vec<&str> = pool.entries.iter().map(|e| e.cand.id.as_str()).collect();
        assert_eq!(ids, ["chat-a", "chat-b"]);
        assert_eq!(pool.ordinal_source, Some(Source::RecoverableChat));
    }

    #[test]
    fn chat_cue_with_nothing_in_chat_asks_for_evidence() {
        let mut req = widget_req();
        req.recoverable_chat_options.clear();
        match resolve(&req, Some(Scope::Chat), false) {
            Resolved::EmptyScope { scope, needed } => {
                assert_eq!(scope, Scope::Chat);
                assert_eq!(needed, EvidenceType::ChatRecoverableOptions);
            }
            other => panic!("expected EmptyScope, got {other:?}"),
        }
    }

    #[test]
    fn dashboard_cue_while_a_widget_is_active_is_stale() {
        let req = widget_req();
        assert!(matches!(resolve(&req, Some(Scope::Dashboard), false), Resolved::EmptyScope { .. }));
    }

    #[test]
    fn a_widget_cue_while_the_chat_is_active_uses_the_widget_items() {
        let mut req = widget_req();
        req.active_scope = Some(ScopeRef { scope: Scope::Chat, instance_id: "chat-1".into() });
        let Resolved::Pool(pool) = resolve(&req, Some(Scope::Widget), false) else { panic!("the widget items are on screen") };
        assert!(pool.entries.iter().all(|e| e.source == Source::Widget || e.cand.id.starts_with("w-")));
        assert!(pool.entries.iter().any(|e| e.source == Source::Widget));
    }

    #[test]
    fn no_cue_pools_options_and_widget_items_but_not_recoverable_chat() {
        let req = widget_req();
        let Resolved::Pool(pool) = resolve(&req, None, false) else { panic!() };
        let ids: Vec<&str> = pool.entries.iter().map(|e| e.cand.id.as_str()).collect();
        assert_eq!(ids, ["w-a", "item-a"]);
    }
}
