//! One table per rule of `Extract` (docs/clarify-and-extract.md), the
//! sequence plan -> outcome -> settle end to end, and property tests for
//! what the baseline keeps.

use super::*;
use proptest::prelude::*;

fn spec(name: &str, values: &[(&str, &[&str])]) -> SlotSpec {
    SlotSpec {
        name: name.into(),
        values: values
            .iter()
            .map(|(v, syn)| SlotValue { value: v.to_string(), synonyms: syn.iter().map(|s| s.to_string()).collect() })
            .collect(),
    }
}

fn request(text: &str) -> ExtractRequest {
    ExtractRequest {
        text: text.into(),
        slots: vec![
            spec("food", &[("pizza", &[]), ("sushi", &["sashimi"]), ("thai", &["pad thai"])]),
            spec("location", &[("Tel Aviv", &["tlv"]), ("Haifa", &[])]),
            spec("budget", &[]),
        ],
        ..Default::default()
    }
}

fn values(s: &Slots) -> Vec<(String, String, String)> {
    s.iter().map(|(k, f)| (k.clone(), f.value.clone(), f.source.clone())).collect()
}

#[test]
fn baseline_table() {
    let lex = Lexicon::shipped();
    let table: &[(&str, &[(&str, &str)])] = &[
        ("Pizza in Tel-Aviv please", &[("food", "pizza"), ("location", "Tel Aviv")]),
        ("sashimi near TLV", &[("food", "sushi"), ("location", "Tel Aviv")]),
        ("pad thai or pizza", &[("food", "thai")]),
        ("piza in telaviv", &[]),
        ("haifa", &[("location", "Haifa")]),
    ];
    for (text, want) in table {
        let r = request(text);
        let got = baseline(&r, text, "baseline", &lex, Slots::new());
        let got: Vec<(String, String)> = got.into_iter().map(|(k, f)| (k, f.value)).collect();
        let want: Vec<(String, String)> = want.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        assert_eq!(got, want, "{text:?}");
    }
}

#[test]
fn app_filled_slots_are_kept() {
    let lex = Lexicon::shipped();
    let mut r = request("pizza in haifa");
    r.filled.insert("location".into(), "Jerusalem".into());
    let got = baseline(&r, &r.text, "baseline", &lex, Slots::new());
    assert_eq!(got["location"], Filled { value: "Jerusalem".into(), source: "app".into() });
}

#[test]
fn normalization_acceptance_table() {
    let table: &[(&str, Option<&str>, Result<&str, &str>)] = &[
        ("piza in telaviv", Some("pizza in tel aviv"), Ok("pizza in tel aviv")),
        ("piza in telaviv", None, Err("normalization_missing")),
        ("piza in telaviv", Some("   "), Err("normalization_empty")),
        ("hi", Some("hello there friend"), Err("normalization_too_long")),
        ("hi", Some("hi there!"), Ok("hi there!")),
        ("piza in telaviv", Some(&"pizza in tel aviv ".repeat(3)), Err("normalization_too_long")),
        ("piza telaviv", Some("pizza tel aviv"), Err("normalization_shares_no_token")),
        ("Piza IN telaviv", Some("pizza in tel aviv"), Ok("pizza in tel aviv")),
    ];
    for (orig, prop, want) in table {
        let got = accept_normalization(orig, *prop);
        assert_eq!(got.as_deref().map_err(|e| *e), *want, "{orig:?} -> {prop:?}");
    }
}

#[test]
fn entity_acceptance_table() {
    let r = request("Cheap pizza around Tel Aviv");
    let mut current = Slots::new();
    current.insert("food".into(), Filled { value: "pizza".into(), source: "baseline".into() });
    let proposed: BTreeMap<String, Vec<String>> = [
        ("food", vec!["burgers"]),
        ("location", vec!["Jerusalem", "tel aviv"]),
        ("budget", vec!["expensive", "CHEAP"]),
        ("mood", vec!["happy"]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
    .collect();
    let (acc, rej) = accept_entities(&r.text, &proposed, &r.slots, &current);
    assert_eq!(acc, [("budget".to_string(), "CHEAP".to_string()), ("location".to_string(), "tel aviv".to_string())]);
    assert_eq!(rej, ["food: already filled", "mood: not a requested slot"]);
    let none: BTreeMap<String, Vec<String>> = [("location".to_string(), vec!["Paris".to_string()])].into();
    let (acc, rej) = accept_entities(&r.text, &none, &r.slots, &Slots::new());
    assert!(acc.is_empty());
    assert_eq!(rej, ["location: no proposed value is in the text"]);
}

fn scored(id: &str, status: HintStatus, applicable: bool, latency: u32) -> HintOutcome {
    HintOutcome { component: id.into(), status, applicable, latency_ms: latency, detail: String::new(), normalized: None, entities: vec![] }
}

#[test]
fn the_agent_tie_break_cascade() {
    use HintStatus::*;
    let pick = |v: Vec<HintOutcome>| choose(&v).map(|o| o.component.clone()).unwrap();
    // status first
    assert_eq!(pick(vec![scored("a", Rejected, true, 1), scored("b", Ok, true, 90)]), "b");
    assert_eq!(pick(vec![scored("a", Error, true, 1), scored("b", Rejected, true, 90)]), "b");
    assert_eq!(pick(vec![scored("a", Skipped, true, 0), scored("b", Error, true, 90)]), "b");
    // then applicability
    assert_eq!(pick(vec![scored("a", Ok, false, 1), scored("b", Ok, true, 90)]), "b");
    // then latency
    assert_eq!(pick(vec![scored("a", Ok, true, 50), scored("b", Ok, true, 40)]), "b");
    // then the id
    assert_eq!(pick(vec![scored("b", Ok, true, 40), scored("a", Ok, true, 40)]), "a");
    assert!(choose(&[]).is_none());
}

#[test]
fn sampling_is_stable_per_turn_and_close_to_the_rate() {
    for t in 0..50 {
        let id = format!("turn-{t}");
        assert_eq!(sampled("agent", &id, 0.3), sampled("agent", &id, 0.3));
    }
    let hits = (0..10_000).filter(|t| sampled("agent", &format!("turn-{t}"), 0.3)).count();
    assert!((2_700..3_300).contains(&hits), "{hits}");
    assert!(sampled("a", "x", 1.0) && !sampled("a", "x", 0.0));
    // A pinned value: the verdict does not depend on the build.
    assert!(sampled("llm", "turn-42", 0.5) == sampled("llm", "turn-42", 0.5));
}

#[test]
fn an_accepted_normalization_reruns_the_baseline_for_empty_slots_only() {
    let lex = Lexicon::shipped();
    let r = request("piza in haifa");
    let base = baseline(&r, &r.text, "baseline", &lex, Slots::new());
    assert_eq!(values(&base), [("location".into(), "Haifa".into(), "baseline".into())]);
    let reply = HintReply { normalized_text: Some("pizza in tel aviv".into()), entities: BTreeMap::new() };
    let o = evaluate("llm", &reply, &r, &base, true, true, 10);
    assert_eq!(o.status, HintStatus::Ok);
    let slots = apply(&r, &lex, base, &o);
    assert_eq!(slots["food"].value, "pizza");
    assert_eq!(slots["location"].value, "Haifa", "a filled slot is never overwritten");
}

// ------------------------------------------------------------------ plan --

const ALL_ON: Switches = Switches { enabled: true, normalization: true, entities: true };

fn component(id: &str, capabilities: &[Capability], intents: &[&str], sample_rate: f64) -> Component {
    Component { id: id.into(), capabilities: capabilities.to_vec(), intents: intents.iter().map(|s| s.to_string()).collect(), sample_rate }
}

fn both() -> Vec<Capability> {
    vec![Capability::Normalization, Capability::Entities]
}

/// The skipped outcome a plan carries, or a panic naming the case.
fn skipped(p: ComponentPlan, case: &str) -> HintOutcome {
    match p {
        ComponentPlan::Skip(o) => {
            assert_eq!((o.status, o.latency_ms), (HintStatus::Skipped, 0), "{case}");
            assert!(o.normalized.is_none() && o.entities.is_empty(), "{case}");
            o
        }
        ask => panic!("{case}: {ask:?}"),
    }
}

#[test]
fn every_switch_is_off_by_default() {
    assert_eq!(Switches::default(), Switches { enabled: false, normalization: false, entities: false });
    assert!(!Switches::default().any());
    let o = skipped(plan(&component("llm", &both(), &[], 1.0), Switches::default(), &request("pizza")), "default switches");
    assert!(!o.applicable);
}

#[test]
fn plan_skips_every_component_when_the_switches_are_off() {
    let table = [
        ("master switch off", Switches { enabled: false, normalization: true, entities: true }),
        ("both hint kinds off", Switches { enabled: true, normalization: false, entities: false }),
        ("nothing on", Switches::default()),
    ];
    for (case, switches) in table {
        let o = skipped(plan(&component("agent", &both(), &[], 1.0), switches, &request("pizza")), case);
        assert!(!o.applicable, "{case}");
        assert_eq!(o.component, "agent");
        assert!(o.detail.starts_with("not applicable"), "{case}: {}", o.detail);
    }
}

#[test]
fn plan_skips_a_component_without_a_capability_the_switches_allow() {
    use Capability::*;
    let table: [(&str, Switches, &[Capability]); 3] = [
        ("normalization on, it only proposes entities", Switches { enabled: true, normalization: true, entities: false }, &[Entities]),
        ("entities on, it only normalizes", Switches { enabled: true, normalization: false, entities: true }, &[Normalization]),
        ("no capabilities at all", ALL_ON, &[]),
    ];
    for (case, switches, caps) in table {
        let o = skipped(plan(&component("agent", caps, &[], 1.0), switches, &request("pizza")), case);
        assert!(!o.applicable, "{case}");
    }
}

#[test]
fn plan_skips_an_intent_outside_the_allowlist() {
    let c = component("agent", &both(), &["search"], 1.0);
    let mut r = request("pizza");
    for intent in ["book", "", "Search"] {
        r.intent = intent.into();
        assert!(!skipped(plan(&c, ALL_ON, &r), intent).applicable, "{intent:?}");
    }
    r.intent = "search".into();
    assert_eq!(plan(&c, ALL_ON, &r), ComponentPlan::Ask { normalization: true, entities: true });
    r.intent = "book".into();
    let everyone = component("agent", &both(), &[], 1.0);
    assert_eq!(
        plan(&everyone, ALL_ON, &r),
        ComponentPlan::Ask { normalization: true, entities: true },
        "an empty allowlist serves every intent"
    );
}

#[test]
fn plan_skips_a_turn_that_is_not_sampled_and_calls_it_applicable() {
    let o = skipped(plan(&component("agent", &both(), &[], 0.0), ALL_ON, &request("pizza")), "rate 0");
    assert!(o.applicable);
    assert_eq!(o.detail, "not sampled for this turn");
}

#[test]
fn plan_asks_for_exactly_the_kinds_the_switches_and_the_capabilities_both_allow() {
    use Capability::*;
    let caps: [&[Capability]; 4] = [&[], &[Normalization], &[Entities], &[Normalization, Entities]];
    for normalization in [false, true] {
        for entities in [false, true] {
            for c in caps {
                let switches = Switches { enabled: true, normalization, entities };
                let want = (normalization && c.contains(&Normalization), entities && c.contains(&Entities));
                let got = plan(&component("agent", c, &[], 1.0), switches, &request("pizza"));
                let case = format!("{switches:?} {c:?}");
                match got {
                    ComponentPlan::Ask { normalization, entities } => {
                        assert_eq!((normalization, entities), want, "{case}");
                        assert!(normalization || entities, "{case}: asked for nothing");
                    }
                    ComponentPlan::Skip(o) => assert_eq!(want, (false, false), "{case}: skipped {o:?}"),
                }
            }
        }
    }
}

#[test]
fn plan_follows_the_stable_sampling_verdict() {
    let c = component("agent", &both(), &[], 0.5);
    let mut asked = 0;
    for t in 0..200 {
        let mut r = request("pizza");
        r.turn_id = format!("turn-{t}");
        let p = plan(&c, ALL_ON, &r);
        assert_eq!(matches!(p, ComponentPlan::Ask { .. }), sampled("agent", &r.turn_id, 0.5), "{}", r.turn_id);
        assert_eq!(p, plan(&c, ALL_ON, &r), "the same turn, the same plan");
        asked += usize::from(matches!(p, ComponentPlan::Ask { .. }));
    }
    assert!((60..140).contains(&asked), "{asked}");
}

// --------------------------------------------------------------- outcome --

fn replied(json: serde_json::Value) -> HintAnswer {
    HintAnswer::Replied { content: json.to_string(), latency_ms: 25 }
}

/// The sequence as the daemon runs it: baseline, plan each component, the
/// answer of each asked one, settle.
fn run(r: &ExtractRequest, switches: Switches, components: &[(Component, HintAnswer)]) -> Extracted {
    let lex = Lexicon::shipped();
    let base = baseline(r, &r.text, "baseline", &lex, Slots::new());
    let outcomes = components
        .iter()
        .map(|(c, answer)| match plan(c, switches, r) {
            ComponentPlan::Skip(o) => o,
            ComponentPlan::Ask { normalization, entities } => super::outcome(&c.id, answer.clone(), (normalization, entities), r, &base),
        })
        .collect();
    settle(r, &lex, base, outcomes)
}

#[test]
fn a_failed_call_is_an_error_with_its_reason_and_latency() {
    let r = request("piza in haifa");
    let failed = HintAnswer::Failed { reason: "timeout".into(), latency_ms: 800 };
    let o = super::outcome("llm", failed.clone(), (true, true), &r, &Slots::new());
    assert_eq!((o.status, o.detail.as_str(), o.latency_ms, o.applicable), (HintStatus::Error, "timeout", 800, true));
    assert!(o.normalized.is_none() && o.entities.is_empty());
    let x = run(&r, ALL_ON, &[(component("llm", &both(), &[], 1.0), failed)]);
    assert_eq!(x.decided_by, "baseline");
    assert_eq!(values(&x.slots), [("location".into(), "Haifa".into(), "baseline".into())]);
}

#[test]
fn an_unreadable_reply_is_an_error() {
    let table = [
        ("prose", "Sure, the user wants pizza in Haifa.", "no JSON object in the reply"),
        ("empty", "", "no JSON object in the reply"),
        ("a fence of another language", "```python\n{\"normalized_text\": \"pizza\"}\n```", "no JSON object in the reply"),
        ("malformed JSON", "{\"normalized_text\": ", "no JSON object in the reply"),
        ("entities of the wrong shape", r#"{"entities": {"food": "pizza"}}"#, "malformed reply"),
        ("a text of the wrong type", r#"{"normalized_text": 42}"#, "malformed reply"),
    ];
    let r = request("piza in haifa");
    for (case, content, detail) in table {
        let answer = HintAnswer::Replied { content: content.into(), latency_ms: 30 };
        let o = super::outcome("agent", answer, (true, true), &r, &Slots::new());
        assert_eq!((o.status, o.latency_ms), (HintStatus::Error, 30), "{case}");
        assert!(o.detail.starts_with(detail), "{case}: {}", o.detail);
        assert!(o.normalized.is_none() && o.entities.is_empty(), "{case}");
    }
}

#[test]
fn a_readable_reply_is_ok_when_anything_is_accepted_and_rejected_otherwise() {
    let r = request("cheap piza in haifa");
    let base = baseline(&r, &r.text, "baseline", &Lexicon::shipped(), Slots::new());
    // (case, reply, wants) -> status
    let table = [
        ("an accepted normalization", serde_json::json!({"normalized_text": "cheap pizza in haifa"}), (true, true), HintStatus::Ok),
        ("an accepted entity", serde_json::json!({"entities": {"budget": ["cheap"]}}), (true, true), HintStatus::Ok),
        ("nothing proposed", serde_json::json!({}), (true, true), HintStatus::Rejected),
        (
            "only refused proposals",
            serde_json::json!({"normalized_text": "", "entities": {"budget": ["free"]}}),
            (true, true),
            HintStatus::Rejected,
        ),
        (
            "a normalization it was not asked for",
            serde_json::json!({"normalized_text": "cheap pizza in haifa"}),
            (false, true),
            HintStatus::Rejected,
        ),
        ("entities it was not asked for", serde_json::json!({"entities": {"budget": ["cheap"]}}), (true, false), HintStatus::Rejected),
    ];
    for (case, reply, wants, status) in table {
        let o = super::outcome("agent", replied(reply), wants, &r, &base);
        assert_eq!((o.status, o.latency_ms, o.applicable), (status, 25, true), "{case}: {o:?}");
        if !wants.0 {
            assert!(o.normalized.is_none(), "{case}");
        }
        if !wants.1 {
            assert!(o.entities.is_empty(), "{case}");
        }
    }
}

// ----------------------------------------------------- the hint rules --

#[test]
fn each_normalization_rule_refuses_its_case_and_the_baseline_stands() {
    let r = request("piza in haifa");
    // (rule, reply) -> the rule's code in the detail
    let table = [
        ("N1 present", serde_json::json!({}), "normalization_missing"),
        ("N1 present (null)", serde_json::json!({"normalized_text": null}), "normalization_missing"),
        ("N2 not empty", serde_json::json!({"normalized_text": "  \t "}), "normalization_empty"),
        (
            "N3 at most max(2 * len, 10)",
            serde_json::json!({"normalized_text": "pizza in haifa, in the very north of israel"}),
            "normalization_too_long",
        ),
        ("N4 shares a token", serde_json::json!({"normalized_text": "pizza at haifa!"}), "normalization_shares_no_token"),
    ];
    for (rule, reply, code) in table {
        let x = run(&r, ALL_ON, &[(component("llm", &both(), &[], 1.0), replied(reply))]);
        let o = &x.hints[0];
        assert_eq!((o.status, o.detail.as_str()), (HintStatus::Rejected, code), "{rule}");
        assert_eq!((x.decided_by.as_str(), x.normalized.as_ref()), ("baseline", None), "{rule}");
        assert_eq!(values(&x.slots), [("location".into(), "Haifa".into(), "baseline".into())], "{rule}");
    }
    // N3's bound is max(2 * len, 10): a short original still allows 10.
    assert_eq!(accept_normalization("hi", Some("hi you all")), Ok("hi you all".into()));
    assert_eq!(accept_normalization("hi", Some("hi you all!")), Err("normalization_too_long"));
    let twice = "piza in haifa".chars().count() * 2;
    let at_bound = format!("in {}", "x".repeat(twice - 3));
    assert_eq!(accept_normalization("piza in haifa", Some(&at_bound)).map(|_| ()), Ok(()));
    assert_eq!(accept_normalization("piza in haifa", Some(&format!("{at_bound}x"))), Err("normalization_too_long"));
}

#[test]
fn an_accepted_normalization_reruns_the_baseline_and_settle_applies_it() {
    let r = request("piza in haifa");
    let reply = serde_json::json!({"normalized_text": "pizza in tel aviv"});
    let x = run(&r, ALL_ON, &[(component("agent", &both(), &[], 1.0), replied(reply))]);
    assert_eq!(x.decided_by, "agent");
    assert_eq!(x.normalized.as_deref(), Some("pizza in tel aviv"));
    assert_eq!(
        values(&x.slots),
        [("food".into(), "pizza".into(), "baseline (agent normalization)".into()), ("location".into(), "Haifa".into(), "baseline".into()),],
        "the re-run fills only the empty slot, from the vocabulary"
    );
}

#[test]
fn entity_values_fill_only_requested_empty_slots_from_the_text() {
    let mut r = request("Cheap pizza around Neve Tzedek, near the sea");
    r.slots.push(spec("area", &[]));
    r.slots.push(spec("view", &[]));
    r.filled.insert("budget".into(), "expensive".into());
    let entities = serde_json::json!({
        "food": ["burgers"],
        "budget": ["cheap"],
        "area": ["Florentin", "NEVE tzedek", "neve"],
        "view": ["", "   ", " the Sea "],
        "mood": ["near"],
        "location": ["Jaffa"],
    });
    let x =
        run(&r, ALL_ON, &[(component("agent", &[Capability::Entities], &[], 1.0), replied(serde_json::json!({ "entities": entities })))]);
    assert_eq!(x.decided_by, "agent");
    assert_eq!(
        values(&x.slots),
        [
            ("area".into(), "NEVE tzedek".into(), "agent".into()),
            ("budget".into(), "expensive".into(), "app".into()),
            ("food".into(), "pizza".into(), "baseline".into()),
            ("view".into(), "the Sea".into(), "agent".into()),
        ]
    );
    let detail = &x.hints[0].detail;
    for why in
        ["budget: already filled", "food: already filled", "location: no proposed value is in the text", "mood: not a requested slot"]
    {
        assert!(detail.contains(why), "{why} in {detail}");
    }
}

#[test]
fn an_entity_does_not_replace_what_the_normalization_rerun_filled() {
    let r = request("piza in haifa");
    let reply = serde_json::json!({"normalized_text": "pizza in haifa", "entities": {"food": ["piza"]}});
    let x = run(&r, ALL_ON, &[(component("llm", &both(), &[], 1.0), replied(reply))]);
    assert_eq!(x.slots["food"], Filled { value: "pizza".into(), source: "baseline (llm normalization)".into() });
}

// ---------------------------------------------------- the scoring tuple --

/// An outcome that, when applied, fills `budget` with its own id.
fn proposing(id: &str, status: HintStatus, applicable: bool, latency: u32) -> HintOutcome {
    HintOutcome { entities: vec![("budget".into(), format!("{id} budget"))], ..scored(id, status, applicable, latency) }
}

#[test]
fn each_position_of_the_scoring_tuple_decides_and_only_ok_is_applied() {
    use HintStatus::*;
    // (which position decides, outcomes) -> (chosen, decided_by)
    let table = [
        ("status: ok before rejected", vec![proposing("a", Rejected, true, 1), proposing("b", Ok, true, 90)], "b", "b"),
        ("status: ok before skipped", vec![proposing("a", Skipped, true, 0), proposing("b", Ok, false, 90)], "b", "b"),
        ("status: rejected before error", vec![proposing("a", Error, true, 1), proposing("b", Rejected, true, 90)], "b", "baseline"),
        ("status: error before skipped", vec![proposing("a", Skipped, true, 0), proposing("b", Error, true, 90)], "b", "baseline"),
        ("applicable before not", vec![proposing("a", Ok, false, 1), proposing("b", Ok, true, 90)], "b", "b"),
        ("applicable, among skipped", vec![proposing("a", Skipped, false, 0), proposing("b", Skipped, true, 0)], "b", "baseline"),
        ("lower latency", vec![proposing("a", Ok, true, 50), proposing("b", Ok, true, 40)], "b", "b"),
        ("the id last", vec![proposing("b", Ok, true, 40), proposing("a", Ok, true, 40)], "a", "a"),
        ("the id, among rejected", vec![proposing("b", Rejected, true, 40), proposing("a", Rejected, true, 40)], "a", "baseline"),
    ];
    let r = request("pizza");
    let lex = Lexicon::shipped();
    let base = baseline(&r, &r.text, "baseline", &lex, Slots::new());
    for (case, outcomes, chosen, decided_by) in table {
        assert_eq!(choose(&outcomes).map(|o| o.component.as_str()), Some(chosen), "{case}");
        let x = settle(&r, &lex, base.clone(), outcomes.clone());
        assert_eq!(x.decided_by, decided_by, "{case}");
        assert_eq!(x.hints, outcomes, "{case}: every outcome is reported");
        match decided_by {
            "baseline" => assert_eq!(x.slots, base, "{case}"),
            id => assert_eq!(x.slots["budget"], Filled { value: format!("{id} budget"), source: id.into() }, "{case}"),
        }
    }
    let x = settle(&r, &lex, base.clone(), Vec::new());
    assert_eq!((x.decided_by.as_str(), &x.slots), ("baseline", &base));
}

#[test]
fn sampling_is_stable_never_at_zero_always_at_one_and_near_the_rate() {
    let turns: Vec<String> = (0..2000).map(|t| format!("turn-{t}")).collect();
    for t in &turns[..200] {
        let verdict = sampled("agent", t, 0.5);
        assert!((0..5).all(|_| sampled("agent", t, 0.5) == verdict), "{t}");
        assert!(!sampled("agent", t, 0.0) && sampled("agent", t, 1.0), "{t}");
        assert!(!sampled("agent", t, -1.0) && sampled("agent", t, 2.0), "{t}");
    }
    let share = turns.iter().filter(|t| sampled("agent", t, 0.3)).count() as f64 / turns.len() as f64;
    assert!((0.25..0.35).contains(&share), "{share}");
    // The verdict is per component: two agents do not see the same turns.
    assert!(turns.iter().any(|t| sampled("a", t, 0.5) != sampled("b", t, 0.5)));
}

// ------------------------------------------------------------ properties --

/// Slot specs: two closed vocabularies and two free-text slots.
fn slot_catalog() -> Vec<SlotSpec> {
    vec![
        spec("food", &[("pizza", &[]), ("sushi", &["sashimi"]), ("thai", &["pad thai"])]),
        spec("location", &[("Tel Aviv", &["tlv"]), ("Haifa", &["חיפה"])]),
        spec("budget", &[]),
        spec("area", &[]),
    ]
}

/// Words of requests and hints: vocabulary, typos of it, and the rest.
const WORDS: &str =
    "pizza Pizza piza suhsi sushi sashimi pad thai tel aviv telaviv tlv haifa HAIFA haifah חיפה פיצה cheap near me in the florentin please";

fn words(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(WORDS.split(' ').collect::<Vec<_>>()), 0..max).prop_map(|w| w.join(" "))
}

fn request_strategy() -> impl Strategy<Value = ExtractRequest> {
    let text = prop_oneof![4 => words(7), 1 => "\\PC{0,20}"];
    let slots = prop_oneof![2 => Just(slot_catalog()), 1 => prop::sample::subsequence(slot_catalog(), 0..=4)];
    let filled = prop::collection::btree_map(
        prop::sample::select(vec!["food", "location", "budget", "mood"]).prop_map(String::from),
        prop::sample::select(vec!["Jerusalem", "pizza", "cheap"]).prop_map(String::from),
        0..3,
    );
    let intent = prop::sample::select(vec!["", "search", "book"]).prop_map(String::from);
    (text, slots, filled, intent, 0u32..100).prop_map(|(text, slots, filled, intent, turn)| ExtractRequest {
        turn_id: format!("turn-{turn}"),
        text,
        slots,
        filled,
        intent,
        ..Default::default()
    })
}

/// Words of the text, from one to another, sometimes shouted.
fn fragment(text: &str) -> impl Strategy<Value = String> + use<> {
    let w: Vec<String> = text.split_whitespace().map(String::from).collect();
    let n = w.len();
    (0..=n, 0..=n, any::<bool>()).prop_map(move |(a, b, shout)| {
        let s = w[a.min(b)..a.max(b)].join(" ");
        if shout { s.to_uppercase() } else { s }
    })
}

/// A component's answer: often built from the request's text, so that
/// hints are accepted too.
fn answer_strategy(text: &str) -> impl Strategy<Value = HintAnswer> + use<> {
    let value = prop_oneof![3 => fragment(text), 1 => words(3), 1 => Just(String::new()), 1 => Just("  ".to_string()), 1 => "\\PC{0,6}"];
    let slot = prop::sample::select(vec!["food", "location", "budget", "area", "mood"]).prop_map(String::from);
    let entities = prop::collection::btree_map(slot, prop::collection::vec(value, 0..3), 0..4);
    let normalized = prop::option::of(prop_oneof![
        3 => (words(3), fragment(text)).prop_map(|(extra, f)| format!("{extra} {f}")),
        1 => words(6),
        1 => "\\PC{0,30}",
    ]);
    let reply = (normalized, entities, 0u32..3).prop_map(|(normalized_text, entities, latency_ms)| HintAnswer::Replied {
        content: serde_json::json!({ "normalized_text": normalized_text, "entities": entities }).to_string(),
        latency_ms,
    });
    prop_oneof![
        6 => reply,
        1 => ("\\PC{0,30}", 0u32..3).prop_map(|(content, latency_ms)| HintAnswer::Replied { content, latency_ms }),
        1 => (prop::sample::select(vec!["timeout", "rate_limited", "transport_error"]), 0u32..3)
            .prop_map(|(reason, latency_ms)| HintAnswer::Failed { reason: reason.into(), latency_ms }),
    ]
}

/// Up to three components (ids unique, as the configuration requires),
/// mostly able and willing, each with its answer.
fn components_strategy(text: &str) -> impl Strategy<Value = Vec<(Component, HintAnswer)>> + use<> {
    let caps = prop_oneof![5 => Just(both()), 1 => prop::sample::subsequence(both(), 0..=2)];
    let intents = prop_oneof![5 => Just(vec![]), 1 => prop::sample::subsequence(vec!["search", "book"], 0..=2)];
    let rate = prop::sample::select(vec![0.0, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]);
    let one = (caps, intents, rate, answer_strategy(text));
    (prop::sample::subsequence(vec!["agent-a", "agent-b", "llm"], 0..=3), prop::collection::vec(one, 3)).prop_map(|(ids, specs)| {
        ids.into_iter().zip(specs).map(|(id, (caps, intents, rate, answer))| (component(id, &caps, &intents, rate), answer)).collect()
    })
}

fn switches_strategy() -> impl Strategy<Value = Switches> {
    (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(enabled, normalization, entities)| Switches {
        enabled,
        normalization,
        entities,
    })
}

/// A request, its components with their answers, and the switches (on
/// more often than not).
fn world() -> impl Strategy<Value = (ExtractRequest, Vec<(Component, HintAnswer)>, Switches)> {
    request_strategy().prop_flat_map(|r| {
        let components = components_strategy(&r.text);
        (Just(r), components, prop_oneof![3 => Just(ALL_ON), 1 => switches_strategy()])
    })
}

/// The tuple a component is chosen by (docs/clarify-and-extract.md),
/// written out.
fn spec_tuple(o: &HintOutcome) -> (u8, u8, u32, String) {
    let status = match o.status {
        HintStatus::Ok => 0,
        HintStatus::Rejected => 1,
        HintStatus::Error => 2,
        HintStatus::Skipped => 3,
    };
    (status, if o.applicable { 0 } else { 1 }, o.latency_ms, o.component.clone())
}

/// Outcomes with unique ids (as the configuration requires), close
/// latencies so that later positions of the tuple matter, and entity
/// values for any slot, filled or not.
fn outcomes_strategy() -> impl Strategy<Value = Vec<HintOutcome>> {
    let status = prop::sample::select(HintStatus::ALL.to_vec());
    let slot = prop::sample::select(vec!["food", "location", "budget", "area", "mood"]);
    prop::collection::vec((status, any::<bool>(), 0u32..3, slot), 0..6).prop_map(|v| {
        v.into_iter()
            .enumerate()
            .map(|(i, (status, applicable, latency, slot))| {
                let id = format!("c{i}");
                HintOutcome { entities: vec![(slot.into(), format!("{id} value"))], ..scored(&id, status, applicable, latency) }
            })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    /// Hints never overwrite: the app's and the baseline's slots come back
    /// as they were, and a hint fills a slot only with text the user wrote
    /// or a vocabulary value found by re-running the baseline on an
    /// accepted normalization.
    #[test]
    fn hints_only_fill_empty_slots_from_the_text_or_the_vocabulary((r, components, switches) in world()) {
        let lex = Lexicon::shipped();
        let base = baseline(&r, &r.text, "baseline", &lex, Slots::new());
        let x = run(&r, switches, &components);

        for (k, v) in &r.filled {
            prop_assert_eq!(&x.slots[k], &Filled { value: v.clone(), source: "app".into() });
        }
        for (k, f) in &base {
            prop_assert_eq!(&x.slots[k], f, "baseline slot {} changed", k);
        }
        let rerun = format!("baseline ({} normalization)", x.decided_by);
        for (k, f) in x.slots.iter().filter(|(k, _)| !base.contains_key(*k)) {
            prop_assert_ne!(&x.decided_by, "baseline");
            let spec = r.slots.iter().find(|s| &s.name == k);
            prop_assert!(spec.is_some(), "{} is not a requested slot", k);
            if f.source == rerun {
                let n = x.normalized.as_deref().unwrap_or_default();
                let accepted = accept_normalization(&r.text, Some(n));
                prop_assert_eq!(accepted.as_deref(), Ok(n));
                prop_assert!(spec.unwrap().values.iter().any(|v| v.value == f.value), "{} = {:?} is not in the vocabulary", k, f.value);
            } else {
                prop_assert_eq!(&f.source, &x.decided_by);
                prop_assert!(!f.value.trim().is_empty());
                prop_assert!(r.text.to_lowercase().contains(&f.value.to_lowercase()), "{} = {:?} is not in {:?}", k, f.value, r.text);
            }
        }

        prop_assert_eq!(x.hints.len(), components.len(), "every component is reported");
        if x.decided_by == "baseline" {
            prop_assert_eq!(&x.slots, &base);
            prop_assert_eq!(&x.normalized, &None);
        } else {
            let chosen = choose(&x.hints).unwrap();
            prop_assert_eq!(&chosen.component, &x.decided_by);
            prop_assert_eq!(chosen.status, HintStatus::Ok);
        }
        // Errors are contained: a failed or unreadable answer decides nothing.
        for (o, (c, answer)) in x.hints.iter().zip(&components) {
            prop_assert_eq!(&o.component, &c.id);
            if let HintAnswer::Failed { .. } = answer {
                prop_assert!(matches!(o.status, HintStatus::Error | HintStatus::Skipped), "{:?}", o);
            }
            let accepted_something = o.normalized.is_some() || !o.entities.is_empty();
            prop_assert_eq!(o.status == HintStatus::Ok, accepted_something, "Ok exactly when a hint was accepted: {:?}", o);
            if o.status != HintStatus::Ok {
                prop_assert_ne!(&o.component, &x.decided_by);
            }
        }
    }

    /// Even an outcome that carries values for filled slots (settle does
    /// not trust its input) never overwrites the app or the baseline.
    #[test]
    fn settle_never_overwrites_a_filled_slot_whatever_the_outcomes(r in request_strategy(), outcomes in outcomes_strategy()) {
        let lex = Lexicon::shipped();
        let base = baseline(&r, &r.text, "baseline", &lex, Slots::new());
        let x = settle(&r, &lex, base.clone(), outcomes);
        for (k, f) in &base {
            prop_assert_eq!(&x.slots[k], f, "slot {} changed", k);
        }
        for (k, v) in &r.filled {
            prop_assert_eq!(&x.slots[k], &Filled { value: v.clone(), source: "app".into() });
        }
    }

    /// With the switches off nothing is asked and the baseline stands.
    #[test]
    fn with_the_switches_off_extract_is_the_baseline(
        (r, components, _) in world(),
        switches in switches_strategy().prop_filter("off", |s| !s.any()),
    ) {
        let lex = Lexicon::shipped();
        let base = baseline(&r, &r.text, "baseline", &lex, Slots::new());
        let x = settle(&r, &lex, base.clone(), vec![]);
        prop_assert_eq!(&x, &Extracted { slots: base.clone(), normalized: None, decided_by: "baseline".into(), hints: vec![] });
        for (c, _) in &components {
            let p = plan(c, switches, &r);
            prop_assert!(matches!(&p, ComponentPlan::Skip(o) if !o.applicable), "{:?}", p);
        }
        let x = run(&r, switches, &components);
        prop_assert_eq!((x.slots, x.decided_by.as_str()), (base, "baseline"));
    }

    /// `choose` is the minimum by that tuple (`spec_tuple`), whatever the
    /// order.
    #[test]
    fn choose_is_the_minimum_by_the_tuple_whatever_the_order(
        (outcomes, shuffled) in outcomes_strategy().prop_flat_map(|v| (Just(v.clone()), Just(v).prop_shuffle())),
    ) {
        let chosen = choose(&outcomes);
        prop_assert_eq!(chosen.map(|o| &o.component), choose(&shuffled).map(|o| &o.component));
        prop_assert_eq!(chosen.is_none(), outcomes.is_empty());
        if let Some(c) = chosen {
            for o in &outcomes {
                prop_assert!(spec_tuple(c) <= spec_tuple(o), "{:?} chosen over {:?}", c, o);
            }
        }
    }

    /// Sampling is a pure function of (component, turn id, rate), and
    /// raising the rate never drops a turn that was sampled.
    #[test]
    fn sampling_is_stable_and_monotone_in_the_rate(
        component in "[a-z]{1,8}",
        turn in "\\PC{0,12}",
        (low, high) in (0.0f64..=1.0, 0.0f64..=1.0).prop_map(|(a, b)| (a.min(b), a.max(b))),
    ) {
        prop_assert_eq!(sampled(&component, &turn, low), sampled(&component, &turn, low));
        prop_assert!(!sampled(&component, &turn, low) || sampled(&component, &turn, high));
    }
}

#[test]
fn extraction_work_is_text_words_times_vocabulary_words_plus_the_bytes_to_canonicalize() {
    // "pizza in haifa": 3 words; forms: pizza, sushi, sashimi, thai,
    // "pad thai" (2 words), "Tel Aviv" (2), tlv, Haifa: 8 forms, 10 words.
    let r = request("pizza in haifa");
    let bytes = (r.text.len() + "pizzasushisashimithaipad thaiTel Avivtlvhaifa".len()) as u64;
    let w = work(&r, false);
    assert_eq!((w.text_words, w.vocabulary_words, w.bytes), (3, 10 + 8, bytes));
    assert_eq!(w.total, 3 * 18 + BYTE_COST * bytes);
    assert_eq!(work(&r, true).total, 3 * 3 * 18 + BYTE_COST * bytes, "the baseline may run again on a normalized text");
}

#[test]
fn a_baseline_whose_deadline_passed_stops_and_one_with_time_left_is_the_baseline() {
    let lex = Lexicon::shipped();
    // Seconds of sliding: 2,000 words and 3,000 forms of 200 words that
    // each match only at their last word.
    let form = |i: usize| format!("{} y{i}", vec!["x"; 199].join(" "));
    let r = ExtractRequest {
        text: vec!["x"; 2_000].join(" "),
        slots: vec![SlotSpec {
            name: "s".into(),
            values: (0..3_000).map(|i| SlotValue { value: form(i), synonyms: Vec::new() }).collect(),
        }],
        ..Default::default()
    };
    let passed = DeadlineWatch::new(Some(std::time::Instant::now()));
    let t = std::time::Instant::now();
    assert_eq!(baseline_until(&r, &r.text, "baseline", &lex, Slots::new(), &passed), Err(DeadlinePassed));
    assert!(t.elapsed() < std::time::Duration::from_millis(500), "stopped within a slice: {:?}", t.elapsed());
    let small = request("sashimi near TLV");
    let later = DeadlineWatch::new(Some(std::time::Instant::now() + std::time::Duration::from_secs(3600)));
    assert_eq!(
        baseline_until(&small, &small.text, "baseline", &lex, Slots::new(), &later),
        Ok(baseline(&small, &small.text, "baseline", &lex, Slots::new()))
    );
}
