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
        // None: each call is a turn of its own, as the benches that send
        // one request again and again mean it (a call with the session's
        // last turn_id and input would be that turn repeated). The load
        // tool gives each call its own.
        turn_id: String::new(),
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

/// The bodies of `sessions` Decide calls as the load tool sends them:
/// `panels_request` with `input` over `pool(candidates)`, each with its
/// session id (`load-<n>`, field 1) before the rest, which all share.
pub fn session_bodies(candidates: usize, input: &str, sessions: usize) -> Vec<Vec<u8>> {
    use prost::Message;
    let mut req = panels_request("", input);
    req.options.as_mut().expect("an option set").candidates = pool(candidates);
    let rest = req.encode_to_vec();
    (0..sessions)
        .map(|n| {
            let mut b = Vec::with_capacity(rest.len() + 16);
            prost::encoding::string::encode(1, &format!("load-{n}"), &mut b);
            b.extend_from_slice(&rest);
            b
        })
        .collect()
}

/// What is new on every call of a fresh screen (`FreshBodies`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fresh {
    /// A new `option_set_id` and new candidate ids over the same labels:
    /// the products, rooms or actions an app showed before, on a new
    /// screen.
    Options,
    /// That, and every label new: each label ends with a number no earlier
    /// call had (the same one for every label of a call).
    Labels,
}

/// The bodies of Decide calls on a screen never sent before: `input` over
/// `pool(candidates)` as `panels_request` sends it (without its session
/// id, which the caller writes in front), with what `fresh` says new on
/// each call. Encoded once with a placeholder, then each call's number
/// written over it: making a body costs a copy of its bytes, so the load
/// tool's client spends its time on the wire.
#[derive(Debug, Clone)]
pub struct FreshBodies {
    template: Vec<u8>,
    /// Where the placeholder is in `template`.
    at: Vec<usize>,
}

/// The placeholder: as wide as the numbers written over it.
const PLACEHOLDER: &str = "##########";

impl FreshBodies {
    pub fn new(candidates: usize, input: &str, fresh: Fresh) -> Self {
        use prost::Message;
        let mut req = panels_request("", input);
        let set = req.options.as_mut().expect("an option set");
        set.option_set_id = format!("set-{PLACEHOLDER}");
        set.candidates = pool(candidates);
        for c in &mut set.candidates {
            c.id = format!("{}-{PLACEHOLDER}", c.id);
            if fresh == Fresh::Labels {
                c.label = format!("{} {PLACEHOLDER}", c.label);
            }
        }
        let candidates = set.candidates.len();
        let template = req.encode_to_vec();
        let at: Vec<usize> =
            template.windows(PLACEHOLDER.len()).enumerate().filter(|(_, w)| *w == PLACEHOLDER.as_bytes()).map(|(i, _)| i).collect();
        let per_candidate = if fresh == Fresh::Labels { 2 } else { 1 };
        assert_eq!(at.len(), 1 + per_candidate * candidates, "the placeholder is only where it was put");
        FreshBodies { template, at }
    }

    /// The body of call `n`: the template with `n` (ten digits) in each
    /// place of the placeholder.
    pub fn body(&self, n: u64) -> Vec<u8> {
        let digits = format!("{:010}", n % 10_000_000_000);
        let mut out = self.template.clone();
        for &i in &self.at {
            out[i..i + PLACEHOLDER.len()].copy_from_slice(digits.as_bytes());
        }
        out
    }

    /// How many bytes each body has.
    pub fn len(&self) -> usize {
        self.template.len()
    }

    pub fn is_empty(&self) -> bool {
        self.template.is_empty()
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

/// The costliest `Extract` requests within the default limits, by name:
/// each is just under `limits.match_work_max` (1,000,000: text words x
/// vocabulary words, each value and synonym its words plus one, plus 4 per
/// byte of text and vocabulary to canonicalize; `ladder::extract::work`)
/// and passes every other limit.
///
/// - `many-long-forms`: 470 forms of 499 bytes (one word each, accented
///   letters that canonicalization folds) against a text of 64 words: the
///   most bytes to canonicalize;
/// - `long-windows`: a text of 1,950 words "x" and two forms of 250 words,
///   "x x ... x y": every window compared up to its last word, the most
///   sliding (about 850,000 word comparisons).
pub fn worst_extracts() -> Vec<(&'static str, pb::ExtractRequest)> {
    let request = |text: String, forms: Vec<String>| pb::ExtractRequest {
        session_id: "worst".into(),
        turn_id: "t1".into(),
        text,
        slots: vec![pb::SlotSpec {
            name: "thing".into(),
            // A value and up to 31 synonyms (limits.aliases_max: 32).
            values: forms.chunks(32).map(|c| pb::SlotValue { value: c[0].clone(), synonyms: c[1..].to_vec() }).collect(),
        }],
        ..Default::default()
    };
    // 499 bytes: "é" (2 bytes) x 249 and a distinguishing ASCII letter.
    let long = |i: usize| format!("{}{}", "\u{e9}".repeat(249), (b'a' + (i % 26) as u8) as char);
    let text = (0..64).map(|k| format!("w{k}")).collect::<Vec<_>>().join(" ");
    let form = format!("{} y", vec!["x"; 249].join(" "));
    vec![
        ("many-long-forms", request(text, (0..470).map(long).collect())),
        ("long-windows", request(vec!["x"; 1_950].join(" "), vec![form.clone(), format!("{form} ")])),
    ]
}

/// The shape of a request once reported to run `Extract` on past the
/// caller's deadline: 245 values x 32 forms of 499 bytes against a
/// 4,095-byte text (3.9 MB, every other limit met), here with words that
/// make every form slide the whole text:
/// seconds of CPU unbounded, so the work limit refuses it up front (and,
/// with the limit raised, the deadline stops it).
pub fn extract_over_the_work_limit() -> pb::ExtractRequest {
    let form = |i: usize| format!("{} {}", vec!["x"; 246].join(" "), i % 10);
    let text = vec!["x"; 2_048].join(" ");
    pb::ExtractRequest {
        session_id: "over".into(),
        text,
        slots: vec![pb::SlotSpec {
            name: "thing".into(),
            values: (0..245)
                .map(|v| pb::SlotValue { value: form(v * 32), synonyms: (1..32).map(|k| form(v * 32 + k)).collect() })
                .collect(),
        }],
        ..Default::default()
    }
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

    #[test]
    fn fresh_bodies_give_each_call_new_ids_and_keep_or_renew_the_labels() {
        use prost::Message;
        for fresh in [Fresh::Options, Fresh::Labels] {
            let bodies = FreshBodies::new(100, "links panel", fresh);
            let (a, b) = (bodies.body(7), bodies.body(8));
            let (a, b) = (pb::DecideRequest::decode(&a[..]).unwrap(), pb::DecideRequest::decode(&b[..]).unwrap());
            let (sa, sb) = (a.options.unwrap(), b.options.unwrap());
            assert_eq!(sa.option_set_id, "set-0000000007");
            assert_ne!(sa.option_set_id, sb.option_set_id);
            assert_eq!(sa.candidates.len(), 100);
            let sent = pool(100);
            for ((x, y), c) in sa.candidates.iter().zip(&sb.candidates).zip(&sent) {
                assert_eq!(x.id, format!("{}-0000000007", c.id));
                assert_ne!(x.id, y.id);
                match fresh {
                    Fresh::Options => assert!(x.label == c.label && y.label == c.label),
                    Fresh::Labels => assert!(x.label == format!("{} 0000000007", c.label) && x.label != y.label),
                }
            }
            assert_eq!(a.input, "links panel");
        }
    }
}
