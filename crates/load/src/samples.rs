//! Sample option sets for the benchmarks, the load tool and the tests: the
//! apps' regression set (Links Panels, Links Panel D, Links Panel E) and
//! synthetic pools of any size with realistic labels. One generator, so
//! `cargo bench --bench ladder` and `ladderd-load` measure the same pools.

use ladderd::pb;

/// The apps' regression set, in this order.
pub const PANELS: [(&str, &str); 3] =
    [("links-panels", "Links Panels"), ("links-panel-d", "Links Panel D"), ("links-panel-e", "Links Panel E")];

const AREAS: &[&str] = &[
    "Sales",
    "Marketing",
    "Revenue",
    "Support",
    "Billing",
    "Inventory",
    "Customer",
    "Product",
    "Finance",
    "Growth",
    "Quarterly",
    "Weekly",
    "Regional",
    "Partner",
    "Hiring",
    "Security",
    "Release",
    "Campaign",
    "Churn",
    "Pricing",
];
const THINGS: &[&str] = &[
    "Dashboard",
    "Report",
    "Overview",
    "Chart",
    "Pipeline",
    "Tickets",
    "Forecast",
    "Summary",
    "Board",
    "Notes",
    "Roadmap",
    "Metrics",
    "Calendar",
    "Tasks",
    "Invoices",
    "Contacts",
    "Backlog",
    "Budget",
    "Leads",
    "Alerts",
];

pub fn cand(id: &str, label: &str) -> pb::Candidate {
    pb::Candidate { id: id.into(), label: label.into(), ..Default::default() }
}

/// The regression set as candidates.
pub fn panels() -> Vec<pb::Candidate> {
    PANELS.iter().map(|(id, label)| cand(id, label)).collect()
}

/// A Decide request over the regression set, shown in chat.
pub fn panels_request(session_id: &str, input: &str) -> pb::DecideRequest {
    pb::DecideRequest {
        session_id: session_id.into(),
        turn_id: "turn-1".into(),
        input: input.into(),
        active_scope: Some(pb::ScopeRef { scope: pb::Scope::Chat as i32, instance_id: "chat-1".into() }),
        options: Some(pb::OptionSet {
            option_set_id: "set-1".into(),
            scope: pb::Scope::Chat as i32,
            candidates: panels(),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// `n` candidates with realistic, mostly distinct labels ("Revenue Forecast
/// Q", "Support Tickets 2024", "Sales Budget Alerts"), every third of kind
/// `panel`, with the regression set in the middle. Deterministic (a fixed
/// xorshift seed).
pub fn pool(n: usize) -> Vec<pb::Candidate> {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut out: Vec<pb::Candidate> = (0..n)
        .map(|i| {
            let r = next();
            let area = AREAS[(r % AREAS.len() as u64) as usize];
            let thing = THINGS[((r >> 8) % THINGS.len() as u64) as usize];
            let label = match (r >> 16) % 4 {
                0 => format!("{area} {thing}"),
                1 => format!("{area} {thing} {}", (b'A' + ((r >> 24) % 26) as u8) as char),
                2 => format!("{area} {thing} {}", 2020 + (r >> 24) % 6),
                _ => format!("{area} {} {thing}", THINGS[((r >> 32) % THINGS.len() as u64) as usize]),
            };
            pb::Candidate {
                id: format!("cand-{i:05}"),
                label,
                kind: if i % 3 == 0 { "panel".into() } else { String::new() },
                ..Default::default()
            }
        })
        .collect();
    let at = n.saturating_sub(3) / 2;
    for (k, c) in panels().into_iter().enumerate() {
        if at + k < out.len() {
            out[at + k] = c;
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_are_deterministic_and_hold_the_regression_set() {
        for n in [0, 1, 10, 1_000] {
            let p = pool(n);
            assert_eq!(p, pool(n), "same pool every time");
            assert_eq!(p.len(), n.max(3));
            let ids: std::collections::HashSet<&str> = p.iter().map(|c| c.id.as_str()).collect();
            assert_eq!(ids.len(), p.len(), "unique ids");
            for (id, _) in PANELS {
                assert!(ids.contains(id), "{n}: {id}");
            }
        }
    }
}
