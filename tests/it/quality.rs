//! Decision quality on the project's own corpora (`tests/corpus/`), through
//! the same code as `ladderd eval`, under the embedded defaults (LLM off):
//! no wrong execute, and the shares a careful person would expect.

use ladderd::config::Config;
use ladderd::eval;
use std::path::Path;

async fn evaluate(file: &str) -> eval::Report {
    let cases = eval::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(file)).expect("the corpus reads");
    assert!(cases.len() >= 150, "{file}: {} turns", cases.len());
    eval::run(Config::default(), cases).await.expect("the daemon builds")
}

fn assert_quality(file: &str, r: &eval::Report) {
    let table = eval::render(r);
    let s = &r.shares;
    assert_eq!(r.overall.invalid, 0, "{file}: lines refused at the edge\n{table}");
    assert_eq!(r.wrong_executes(), 0, "{file}: wrong executes\n{table}");
    assert!(s.clear_executed >= 0.85, "{file}: clear requests executed {:.1}% < 85%\n{table}", 100.0 * s.clear_executed);
    assert!(s.ambiguous_clarified >= 0.95, "{file}: ambiguous turns clarified {:.1}% < 95%\n{table}", 100.0 * s.ambiguous_clarified);
    assert!(s.escapes_right >= 0.90, "{file}: escapes right {:.1}% < 90%\n{table}", 100.0 * s.escapes_right);
}

#[tokio::test]
async fn the_development_corpus_is_decided_as_a_careful_person_would() {
    let r = evaluate("dev.jsonl").await;
    assert_quality("dev.jsonl", &r);
}

#[tokio::test]
async fn the_held_out_corpus_is_decided_as_a_careful_person_would() {
    let r = evaluate("holdout.jsonl").await;
    assert_quality("holdout.jsonl", &r);
}

/// Written by someone who never read the code, and measured blind once
/// before any rule was changed for it (BENCHMARKS.md has both tables).
#[tokio::test]
async fn the_independent_corpus_is_decided_as_a_careful_person_would() {
    let r = evaluate("independent.jsonl").await;
    assert_quality("independent.jsonl", &r);
}

#[tokio::test]
async fn the_corpora_cover_ten_domains_and_every_category() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut domains = std::collections::BTreeSet::new();
    let mut categories = std::collections::BTreeSet::new();
    let mut turns = 0;
    for file in ["dev.jsonl", "holdout.jsonl", "independent.jsonl"] {
        for line in std::fs::read_to_string(root.join(file)).unwrap().lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            domains.insert(v["domain"].as_str().unwrap_or_default().to_string());
            categories.insert(v["category"].as_str().unwrap_or_default().to_string());
            turns += 1;
        }
    }
    assert!(turns >= 400, "{turns} turns");
    assert!(domains.len() >= 10, "{domains:?}");
    for c in [
        "multi_referent",
        "negation",
        "relative_reference",
        "ordinal",
        "folding",
        "token_shorthand",
        "longest_label",
        "unique_partial",
        "typo_clear",
        "typo_ambiguous",
        "polite_request",
        "question",
        "cancel",
        "command",
    ] {
        assert!(categories.contains(c), "no {c} turns");
    }
}
