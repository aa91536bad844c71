//! How `Enrich` evidence joins a cycle's request.

use super::*;

/// Merges `Enrich` evidence into the cycle's request. Candidates whose id is
/// already in the request are ignored (ids stay unique); excerpts become
/// context for the semantic lane.
pub fn merge_evidence(base: &DecideRequest, evidence: &[(EvidenceType, Vec<Candidate>, String)]) -> (DecideRequest, Vec<String>) {
    let mut req = base.clone();
    let mut seen: std::collections::HashSet<String> = std::iter::empty()
        .chain(req.option_candidates())
        .chain(&req.recoverable_chat_options)
        .chain(&req.widget_items)
        .chain(&req.commands)
        .map(|c| c.id.clone())
        .collect();
    let mut excerpts = Vec::new();
    for (ty, cands, excerpt) in evidence {
        let fresh: Vec<Candidate> = cands.iter().filter(|c| seen.insert(c.id.clone())).cloned().collect();
        match ty {
            EvidenceType::ChatActiveOptions => {
                let set = req.options.get_or_insert_with(|| OptionSet { scope: Scope::Chat, ..Default::default() });
                std::sync::Arc::make_mut(&mut set.candidates).extend(fresh);
            }
            EvidenceType::ChatRecoverableOptions => req.recoverable_chat_options.extend(fresh),
            EvidenceType::ActiveWidgetItems | EvidenceType::ActiveDashboardItems | EvidenceType::ActiveWorkspaceItems => {
                req.widget_items.extend(fresh)
            }
            EvidenceType::ScopeDisambiguationHint => {}
        }
        if !excerpt.trim().is_empty() {
            excerpts.push(excerpt.clone());
        }
    }
    (req, excerpts)
}
