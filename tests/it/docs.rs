//! The README must not drift from the code.

use ladderd::config::Config;
use std::collections::BTreeSet;

fn flatten(prefix: &str, v: &serde_json::Value, out: &mut BTreeSet<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, v) in m {
                let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                flatten(&key, v, out);
            }
        }
        _ => {
            out.insert(prefix.to_string());
        }
    }
}

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

#[test]
fn the_readme_config_table_lists_exactly_the_config_keys() {
    let mut keys = BTreeSet::new();
    flatten("", &serde_json::to_value(Config::default()).unwrap(), &mut keys);
    let text = readme();
    let section = text.split("## Configuration").nth(1).unwrap().split("\n## ").next().unwrap();
    let documented: BTreeSet<String> =
        section.lines().filter_map(|l| l.strip_prefix("| `")).filter_map(|l| l.split('`').next()).map(str::to_string).collect();
    // A documented table (`clarify.invariants`) covers the keys under it.
    let covered = |k: &String| documented.contains(k) || documented.iter().any(|d| k.starts_with(&format!("{d}.")));
    let missing: Vec<_> = keys.iter().filter(|k| !covered(k)).collect();
    let stale: Vec<_> = documented.iter().filter(|d| !keys.iter().any(|k| k == *d || k.starts_with(&format!("{d}.")))).collect();
    assert!(missing.is_empty() && stale.is_empty(), "undocumented keys: {missing:?}; documented but absent: {stale:?}");
}

#[test]
fn the_readme_config_defaults_match_the_code() {
    let defaults = serde_json::to_value(Config::default()).unwrap();
    let text = readme();
    let section = text.split("## Configuration").nth(1).unwrap().split("\n## ").next().unwrap();
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let key = cells[1].trim_matches('`');
        let documented = cells[2];
        let mut v = &defaults;
        for part in key.split('.') {
            v = &v[part];
        }
        if v.is_object() {
            continue; // a table, described in words
        }
        let actual = match v {
            serde_json::Value::Null => "unset".to_string(),
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let documented_value = documented.split(' ').next().unwrap().trim_matches('`').to_string();
        if let Some(n) = v.as_f64() {
            let d: f64 = documented_value.parse().unwrap_or(f64::NAN);
            assert!((n - d).abs() < 1e-6, "README default of {key}: {documented_value} vs {n}");
        } else {
            assert_eq!(documented_value, actual, "README default of {key}");
        }
    }
}

#[test]
fn the_readme_gives_exactly_two_setup_commands() {
    let text = readme();
    let quick = text.split("## Quick start").nth(1).unwrap().split("\n## ").next().unwrap();
    let commands: Vec<&str> = quick.lines().filter(|l| l.starts_with("cargo ")).collect();
    assert_eq!(commands.len(), 2, "{commands:?}");
    let ci = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/run")).unwrap();
    let test_command = commands[1].split('#').next().unwrap().trim();
    assert!(ci.lines().any(|l| l.trim() == test_command), ".ci/run must run {test_command:?}");
}

/// The option sets the README's rule examples run on.
fn example_pool(name: &str) -> serde_json::Value {
    let labels: &[(&str, &str)] = match name {
        "panels" => &[("p", "Links Panels"), ("d", "Links Panel D"), ("e", "Links Panel E")],
        "reports" => &[
            ("q1", "Sales Report Q1"),
            ("q2", "Sales Report Q2"),
            ("q3", "Sales Report Q3"),
            ("q4", "Sales Report Q4"),
            ("bud", "Budget Overview"),
        ],
        "phones" => &[("ip15", "iPhone 15"), ("ip15p", "iPhone 15 Pro"), ("ip15pm", "iPhone 15 Pro Max"), ("s24", "Galaxy S24")],
        "home" => {
            &[("list", "Shopping list"), ("update", "Shopping list update"), ("rem", "Reminder"), ("cal", "Calendar"), ("date", "Date")]
        }
        "cards" => &[("freeze", "Freeze Card"), ("details", "Card Details"), ("close", "Close Account"), ("stmt", "Statements")],
        "people" => &[("sam", "Sam Lee"), ("samantha", "Samantha Ortiz"), ("dana", "Dana Levi")],
        "songs" => &[("intro", "Intro"), ("outro", "Outro"), ("song2", "Song 2"), ("finale", "Finale")],
        other => panic!("README example on an unknown option set {other:?}"),
    };
    // The README's cards mark "Close Account" high risk.
    let risk = |id: &str| if name == "cards" && id == "close" { "RISK_HIGH" } else { "RISK_UNSPECIFIED" };
    serde_json::json!({"optionSetId": name, "scope": "SCOPE_CHAT",
        "candidates": labels.iter().map(|(id, l)| serde_json::json!({"id": id, "label": l, "risk": risk(id)})).collect::<Vec<_>>()})
}

#[tokio::test]
async fn every_rule_example_in_the_readme_decides_as_it_says() {
    let text = readme();
    let section = text.split("### The rules, with an example each").nth(1).unwrap().split("\n## ").next().unwrap();
    let mut cases = Vec::new();
    for line in section.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| rule") && !l.starts_with("|---")) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (input, on, happens) = (cells[2].trim_matches('`'), cells[3], cells[4]);
        let (verb, rest) = happens.split_once(' ').unwrap();
        let ids: Vec<&str> = rest.split(", ").collect();
        let expect = match verb {
            "execute" => serde_json::json!({"execute": ids[0]}),
            "clarify" => serde_json::json!({"clarify": ids}),
            "escape" => serde_json::json!({"escape": ids[0]}),
            other => panic!("README: {other:?} in {line:?}"),
        };
        let v = serde_json::json!({"input": input, "options": example_pool(on), "expect": expect, "category": line});
        cases.push(ladderd::eval::case("README", &v).unwrap());
    }
    assert!(cases.len() >= 20, "{} examples", cases.len());
    let report = ladderd::eval::run(Config::default(), cases).await.unwrap();
    let wrong: Vec<String> = report
        .failures
        .iter()
        .map(|f| format!("{} -> {} {:?} {}", f.category, f.got.outcome, f.got.offered, f.got.target_id))
        .chain(
            report.by_category.iter().filter(|(_, t)| t.clarify_ok != t.clarify_offered).map(|(c, _)| format!("{c}: not every id offered")),
        )
        .collect();
    assert!(wrong.is_empty(), "README examples that do not hold:\n{}", wrong.join("\n"));
}
