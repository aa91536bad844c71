//! Decision quality on the project's own corpora (`tests/corpus/`), through
//! the same code as `ladderd eval`, under the embedded defaults (LLM off):
//! no wrong execute, and the shares a careful person would expect.

use crate::helpers::{completion, select, with_llm};
use ladderd::config::Config;
use ladderd::eval;
use serde_json::{Value, json};
use std::path::Path;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// A corpus of `tests/corpus/`, read by its path from the repository root
/// (cargo runs the tests there) so that its turns' ids are the ones
/// `ladderd eval tests/corpus/FILE` gives; with its exceptions
/// (`tests/corpus/<name>.exceptions.jsonl`) set aside.
async fn evaluate(file: &str) -> eval::Report {
    let path = Path::new("tests/corpus").join(file);
    let cases = eval::read(&path).expect("the corpus reads");
    assert!(cases.len() >= 60, "{file}: {} lines", cases.len());
    let excepted = path.with_extension("exceptions.jsonl");
    if !excepted.exists() {
        return eval::evaluate(Config::default(), cases).await.expect("the daemon builds");
    }
    let exceptions = eval::read_exceptions(&excepted).expect("the exceptions read");
    let unknown = eval::unknown_exceptions(&cases, &exceptions);
    assert!(unknown.is_empty(), "{} names no turn of the corpus: {unknown:?}", excepted.display());
    eval::evaluate_except(Config::default(), cases, &exceptions).await.expect("the daemon builds")
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

/// Whole conversations (`tests/corpus/dialogues.jsonl`, 88
/// dialogues of 2-5 turns over 13 domains, written from the rules without
/// reading the code): no wrong execute, no clarifier that asks again what
/// the user just settled where a person would act, and every turn held to
/// the single-turn gates.
#[tokio::test]
async fn the_dialogue_corpus_is_carried_through_as_a_careful_person_would() {
    let r = evaluate("dialogues.jsonl").await;
    let d = &r.dialogues;
    let table = eval::render(&r);
    assert!(d.dialogues >= 60 && r.dialogues_by_category.len() >= 12, "{} dialogues\n{table}", d.dialogues);
    assert_quality("dialogues.jsonl", &r);
    assert_eq!(d.wrong_executes, 0, "wrong executes in dialogues\n{table}");
    assert_eq!(d.repeated_clarifiers_unexpected, 0, "repeated clarifiers where a person acts\n{table}");
    assert!(d.turns_to_resolution_p90 <= 2.0, "turns to resolution p90 {}\n{table}", d.turns_to_resolution_p90);
}

/// At most this many of CLINC150's 18,200 turns executed wrongly (three
/// "... a reminder" asks for "Reminder" where the label is
/// `reminder_update`).
const CLINC_WRONG_EXECUTES_MAX: usize = 3;

/// Real user language nobody on this project wrote (CLINC150, CC BY 3.0;
/// `tests/corpus/clinc150/README.md`): 18,200 utterances shown with their
/// domain's intents as chat options. The principle: execute only what the
/// input fully accounts for; a wrong execute is the worst outcome. The
/// decisions are `meaning::clinc150_clarifiers_offer_the_intent_meant`'s
/// (with the embedded defaults), which runs these gates on them: one pass
/// over the corpus, not two.
pub(crate) fn real_user_language_is_almost_never_executed_wrongly(r: &eval::Report) {
    let table = eval::render(r);
    let turns = r.overall.turns as f64;
    assert_eq!(r.overall.turns, 18_200, "{table}");
    assert_eq!(r.overall.invalid, 0, "lines refused at the edge\n{table}");
    assert!(r.wrong_executes() <= CLINC_WRONG_EXECUTES_MAX, "wrong executes {} > {CLINC_WRONG_EXECUTES_MAX}\n{table}", r.wrong_executes());
    assert_eq!(r.by_category["out_of_scope"].wrong_executes, 0, "an out-of-scope utterance executed\n{table}");
    // Safety is not bought by asking about everything: the utterances that
    // say an option's words and nothing else still execute.
    assert!(r.overall.right_executes as f64 >= 0.01 * turns, "right executes {}\n{table}", r.overall.right_executes);
}

/// The replies that refuse what was offered or asked to be confirmed: never
/// executed.
const SGD_REFUSALS: [&str; 2] = ["confirm_negate", "offer_alts"];
/// The plain affirmations and selections ...
const SGD_ACCEPTS: [&str; 2] = ["confirm_affirm", "offer_select"];
/// ... executed at least this share of them.
const SGD_ACCEPTS_EXECUTED_MIN: f64 = 0.95;
/// An affirmation with a question: executed with the question handed
/// back as a follow-up (`Decision.follow_up`), at least this
/// share of them.
const SGD_YES_AND_QUESTION: &str = "confirm_affirm_question";
const SGD_YES_AND_QUESTION_MIN: f64 = 0.85;
/// A selection with details for the next step: executed (the details a
/// follow-up), at least this share of them.
const SGD_SELECT_DETAILS: &str = "offer_select_details";
const SGD_SELECT_DETAILS_MIN: f64 = 0.50;
/// Reported beside the gates.
const SGD_REPORTED: [&str; 2] = ["confirm_affirm_question", "offer_select_details"];
/// On dialogues-b, the clear requests executed,
/// outside this category (paraphrases are the LLM rung's job) ...
const B_UNGATED_CATEGORY: &str = "paraphrase";
/// ... at least this share of them;
const B_CLEAR_EXECUTED_MIN: f64 = 0.85;
/// and the escapes right at least this share.
const B_ESCAPES_RIGHT_MIN: f64 = 0.90;
/// Dialogues fully right, at least.
const B_FULLY_RIGHT_MIN: usize = 80;

/// A corpus of `tests/corpus/<set>/` with its `exceptions.jsonl`: the
/// expectations judged wrong are set aside (counted in no gate; [`Gates`]
/// prints them with their reasons, whatever the outcome).
async fn evaluate_set(set: &str, file: &str) -> eval::Report {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(set);
    let lines = eval::read(&dir.join(file)).expect("the corpus reads");
    let exceptions = eval::read_exceptions(&dir.join("exceptions.jsonl")).expect("the exceptions read");
    let unknown = eval::unknown_exceptions(&lines, &exceptions);
    assert!(unknown.is_empty(), "{set}/exceptions.jsonl names no turn of the corpus: {unknown:?}");
    let r = eval::evaluate_except(Config::default(), lines, &exceptions).await.expect("the daemon builds");
    assert_eq!(r.set_aside.len(), exceptions.len(), "{set}: each exception sets one turn aside");
    r
}

fn set_aside(r: &eval::Report) -> String {
    r.set_aside
        .iter()
        .map(|a| format!("  {} {:?}: expected {:?}; because {}\n", a.turn.id, a.turn.input, a.turn.expect, a.reason))
        .collect()
}

/// The gates of one corpus, checked together so that a failure shows them
/// all: each figure, its threshold, and whether it holds (none: a figure
/// reported, not gated).
#[derive(Default)]
struct Gates(Vec<(String, String, String, Option<bool>)>);

impl Gates {
    fn check(&mut self, gate: &str, figure: String, threshold: &str, holds: bool) {
        self.0.push((gate.to_string(), figure, threshold.to_string(), Some(holds)));
    }

    fn report(&mut self, what: &str, figure: String) {
        self.0.push((what.to_string(), figure, "reported".into(), None));
    }

    fn table(&self) -> String {
        let mut t = format!("{:<58} {:>24} {:>12}  held\n", "gate", "figure", "threshold");
        for (gate, figure, threshold, holds) in &self.0 {
            let held = holds.map_or("", |h| if h { "yes" } else { "NO" });
            t.push_str(&format!("{gate:<58} {figure:>24} {threshold:>12}  {held}\n"));
        }
        t
    }

    /// Prints the table and the exceptions (to stderr: `cargo test --
    /// --nocapture` shows them); when a gate does not hold, fails with
    /// them and the report, its "not right" list cut to the turns `keep`
    /// names.
    fn hold(self, corpus: &str, r: &eval::Report, keep: impl Fn(&eval::Scored) -> bool) {
        let summary =
            format!("{corpus}:\n{}\nset aside, the expectation judged wrong ({corpus}/exceptions.jsonl):\n{}", self.table(), set_aside(r));
        if self.0.iter().all(|g| g.3 != Some(false)) {
            eprintln!("{summary}");
            return;
        }
        let mut shown = r.clone();
        shown.failures.retain(keep);
        let cut = r.failures.len() - shown.failures.len();
        panic!(
            "a gate does not hold on {summary}\n{}\n({cut} other turns not right are left out here; `ladderd eval` lists them)",
            eval::render(&shown)
        );
    }
}

fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 { 0.0 } else { part as f64 / whole as f64 }
}

fn percent(part: usize, whole: usize) -> String {
    format!("{:.1}% ({part} of {whole})", 100.0 * share(part, whole))
}

/// Real replies to an offer or a confirmation (the
/// Schema-Guided Dialogue dataset, CC BY-SA 4.0; `tests/corpus/sgd/`,
/// 8,001 lines, read by their dialogue-act annotation): a refusal is never
/// executed, wrong executes stay under 0.1% of the lines, and a plain "yes"
/// or selection of what was offered executes.
#[tokio::test]
async fn replies_to_offers_and_confirmations_are_read_as_a_careful_person_would() {
    let r = evaluate_set("sgd", "train-8000.jsonl").await;
    assert_eq!(r.overall.turns + r.set_aside.len(), 8_001);
    assert_eq!(r.overall.invalid, 0, "lines refused at the edge\n{}", eval::render(&r));
    let accepts = |f: fn(&eval::Tally) -> usize| SGD_ACCEPTS.iter().map(|c| f(&r.by_category[*c])).sum::<usize>();
    let mut gates = Gates::default();
    let turns = r.overall.turns;
    let wrong = r.wrong_executes();
    gates.check("wrong executes, of the lines", format!("{wrong} of {turns}"), "0", wrong == 0);
    for c in SGD_REFUSALS {
        gates.check(
            &format!("wrong executes on {c}"),
            r.by_category[c].wrong_executes.to_string(),
            "0",
            r.by_category[c].wrong_executes == 0,
        );
    }
    let (accepted, executed) = (accepts(|t| t.turns), accepts(|t| t.right_executes));
    gates.check(
        &format!("executed, of {}", SGD_ACCEPTS.join(" + ")),
        percent(executed, accepted),
        &format!(">= {:.0}%", 100.0 * SGD_ACCEPTS_EXECUTED_MIN),
        share(executed, accepted) >= SGD_ACCEPTS_EXECUTED_MIN,
    );
    let t = &r.by_category[SGD_YES_AND_QUESTION];
    gates.check(
        &format!("{SGD_YES_AND_QUESTION}: executed with a question follow-up"),
        percent(t.follow_up_questions.min(t.right_executes), t.turns),
        &format!(">= {:.0}%", 100.0 * SGD_YES_AND_QUESTION_MIN),
        share(t.follow_up_questions.min(t.right_executes), t.turns) >= SGD_YES_AND_QUESTION_MIN,
    );
    let t = &r.by_category[SGD_SELECT_DETAILS];
    gates.check(
        &format!("{SGD_SELECT_DETAILS}: executed"),
        percent(t.right_executes, t.turns),
        &format!(">= {:.0}%", 100.0 * SGD_SELECT_DETAILS_MIN),
        share(t.right_executes, t.turns) >= SGD_SELECT_DETAILS_MIN,
    );
    for c in SGD_REPORTED {
        let t = &r.by_category[c];
        let questions =
            r.failures.iter().filter(|f| f.category == c && f.got.outcome == "escape" && f.got.escape_reason == "question_intent").count();
        gates.report(&format!("{c}: executed"), percent(t.right_executes, t.turns));
        gates.report(&format!("{c}: escaped as a question"), percent(questions, t.turns));
        gates.report(&format!("{c}: either"), percent(t.right_executes + questions, t.turns));
        gates.report(&format!("{c}: wrong executes"), t.wrong_executes.to_string());
        gates.report(&format!("{c}: follow-ups (question, request)"), format!("{}, {}", t.follow_up_questions, t.follow_up_requests));
    }
    gates.hold("tests/corpus/sgd", &r, |f| f.verdict == eval::Grade::WrongExecute);
}

/// Blind dialogues by another independent author who
/// never read the rules, the code or the other corpora
/// (`tests/corpus/dialogues-b/`, 84 dialogues, 14 categories): no wrong
/// execute, no clarifier asking again what was settled where a person
/// acts, the clear requests executed (paraphrases aside) and the escapes
/// right.
#[tokio::test]
async fn the_blind_dialogues_are_carried_through_as_a_careful_person_would() {
    let r = evaluate_set("dialogues-b", "dialogues.jsonl").await;
    let d = &r.dialogues;
    assert_eq!((d.dialogues, r.by_category.len()), (84, 14), "{}", eval::render(&r));
    assert_eq!(r.overall.invalid, 0, "lines refused at the edge\n{}", eval::render(&r));
    let gated = |category: &str| category != B_UNGATED_CATEGORY;
    let executed: usize = r.by_category.iter().filter(|(c, _)| gated(c)).map(|(_, t)| t.right_executes).sum();
    let missed = r.failures.iter().filter(|f| gated(&f.category) && matches!(f.expect, eval::Expect::Execute(_))).count();
    let clear = executed + missed;
    let mut gates = Gates::default();
    gates.check("wrong executes", r.wrong_executes().to_string(), "0", r.wrong_executes() == 0);
    gates.check(
        &format!("clear requests executed, outside {B_UNGATED_CATEGORY}"),
        percent(executed, clear),
        &format!(">= {:.0}%", 100.0 * B_CLEAR_EXECUTED_MIN),
        share(executed, clear) >= B_CLEAR_EXECUTED_MIN,
    );
    gates.check(
        "repeated clarifiers where an action was expected",
        d.repeated_clarifiers_unexpected.to_string(),
        "0",
        d.repeated_clarifiers_unexpected == 0,
    );
    let sh = &r.shares;
    gates.check(
        "escapes right",
        percent(r.overall.escape_ok, sh.expected_escape),
        &format!(">= {:.0}%", 100.0 * B_ESCAPES_RIGHT_MIN),
        sh.escapes_right >= B_ESCAPES_RIGHT_MIN,
    );
    gates.check(
        "dialogues fully right",
        percent(d.fully_right, d.dialogues),
        &format!(">= {B_FULLY_RIGHT_MIN} of 84"),
        d.fully_right >= B_FULLY_RIGHT_MIN,
    );
    gates.hold("tests/corpus/dialogues-b", &r, |_| true);
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

/// A provider that answers by meaning, as a good model would: the
/// candidate whose label shares the most words with the input, at 0.95
/// (the corroborating ask, reordered and relabelled, gets the same pick);
/// it abstains when no label shares a word.
struct ByOverlap;

impl Respond for ByOverlap {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap_or_default();
        let doc: Value = serde_json::from_str(body["messages"][1]["content"].as_str().unwrap_or("{}")).unwrap_or_default();
        let input: Vec<String> = doc["user_input"].as_str().unwrap_or("").split(' ').map(str::to_lowercase).collect();
        let shared = |c: &Value| c["label"].as_str().unwrap_or("").split(' ').filter(|w| input.contains(&w.to_lowercase())).count();
        let candidates = doc["candidates"].as_array().cloned().unwrap_or_default();
        let best = candidates.iter().filter(|c| shared(c) > 0).max_by_key(|c| shared(c));
        let content = match best {
            Some(c) => select(c["id"].as_str().unwrap_or(""), 0.95),
            None => json!({"decision": "abstain", "choice_id": null, "confidence": 0.2, "needed_evidence_types": []}).to_string(),
        };
        ResponseTemplate::new(200).set_body_json(completion(&content))
    }
}

/// Where the deterministic rungs stop, the LLM rung starts:
/// turns the principle refuses are LLM-eligible, so a configured provider
/// can still act on them through auto-execute's gates and corroboration,
/// and `ladderd eval` reports what it made of them.
#[tokio::test]
async fn eval_reports_what_the_llm_makes_of_the_turns_the_principle_refuses() {
    let server = MockServer::start().await;
    Mock::given(wiremock::matchers::method("POST")).respond_with(ByOverlap).mount(&server).await;
    let mut config = with_llm(&format!("{}/v1", server.uri()), 800);
    config.auto_execute.enabled = true;
    let options = |labels: &[(&str, &str)]| {
        json!({"optionSetId": "s", "scope": "SCOPE_CHAT",
            "candidates": labels.iter().map(|(id, l)| json!({"id": id, "label": l})).collect::<Vec<_>>()})
    };
    let home = options(&[("list", "Shopping list"), ("rem", "Reminder"), ("cal", "Calendar")]);
    let shop = options(&[("order", "Order"), ("ret", "Returns"), ("pay", "Payments")]);
    let turns = [
        ("add eggs to my shopping list", &home, json!({"execute": "list"})),
        ("has my order been shipped yet", &shop, json!({"execute": "order"})),
        ("the thing for money stuff", &shop, json!({"clarify": ["pay"]})),
        ("calendar", &home, json!({"execute": "cal"})),
    ];
    let cases: Vec<eval::Case> = turns
        .iter()
        .enumerate()
        .map(|(i, (input, o, expect))| eval::case(&format!("t:{i}"), &json!({"input": input, "options": o, "expect": expect})).unwrap())
        .collect();
    let r = eval::evaluate(config, cases).await.unwrap();
    let l = &r.llm;
    let text = eval::render(&r);
    assert_eq!((l.refused, l.refused_picked_right, l.refused_resolved), (2, 2, 2), "{text}");
    assert_eq!((l.reached, l.called, l.picked, l.executed, l.executed_right), (3, 3, 2, 2, 2), "{text}");
    assert_eq!((l.by_verdict.get("select"), l.by_verdict.get("abstain")), (Some(&2), Some(&1)), "{text}");
    assert_eq!(r.wrong_executes(), 0, "{text}");
    assert!(text.contains("LLM rung: reached by 3 turns") && text.contains("refused by the principle"), "{text}");
    // docs/evaluation.md shows these lines of this report.
    let llm_lines: String =
        text.lines().skip_while(|l| !l.starts_with("LLM rung:")).take(3).map(|l| format!("{}\n", l.trim_end())).collect();
    let docs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/evaluation.md")).unwrap();
    assert!(docs.contains(&llm_lines), "docs/evaluation.md's LLM report drifted; paste the new one:\n{llm_lines}");
    // Under the embedded defaults (no provider) the same turns are asked.
    let cases: Vec<eval::Case> = turns
        .iter()
        .enumerate()
        .map(|(i, (input, o, expect))| eval::case(&format!("t:{i}"), &json!({"input": input, "options": o, "expect": expect})).unwrap())
        .collect();
    let r = eval::evaluate(Config::default(), cases).await.unwrap();
    assert_eq!((r.llm.refused, r.llm.reached, r.overall.right_executes), (2, 0, 1));
}

/// A dialogue run under a provider (answering by
/// meaning): the turns that reach the LLM are counted by verdict, with what
/// corroboration and the gates did, across the dialogue's turns.
#[tokio::test]
async fn a_dialogue_run_under_the_llm_reports_its_verdicts_and_gates() {
    let server = MockServer::start().await;
    Mock::given(wiremock::matchers::method("POST")).respond_with(ByOverlap).mount(&server).await;
    let mut config = with_llm(&format!("{}/v1", server.uri()), 800);
    config.auto_execute.enabled = true;
    let shop = json!({"optionSetId": "shop", "scope": "SCOPE_CHAT", "candidates": [
        {"id": "order", "label": "Order"}, {"id": "ret", "label": "Returns"}, {"id": "close", "label": "Close Account", "risk": "RISK_HIGH"}]});
    let line = json!({"category": "llm", "dialogue": [
        {"input": "has my order been shipped yet", "options": shop, "expect": {"execute": "order"},
         "record_outcome": {"kind": "OUTCOME_KIND_EXECUTED", "choiceId": "order"}},
        {"input": "the thing for money stuff", "options": shop, "expect": {"clarify": ["ret"]}},
        {"input": "please close the account for good", "options": shop, "expect": {"clarify": ["close"]}},
        {"input": "close account", "options": shop, "expect": {"execute": "close"}}]});
    let d = eval::dialogue("t:1", &line).unwrap();
    let r = eval::evaluate(config, [d]).await.unwrap();
    let (l, text) = (&r.llm, eval::render(&r));
    // The first turn executes by the LLM; the second has no pick; the third
    // picks the high-risk candidate, which only a confirmation can carry.
    assert_eq!((l.reached, l.picked, l.executed, l.executed_right, l.kept_to_clarifier), (3, 2, 1, 1, 1), "{text}");
    assert_eq!((l.by_verdict.get("select"), l.by_verdict.get("abstain")), (Some(&2), Some(&1)), "{text}");
    assert_eq!((r.dialogues.dialogues, r.dialogues.fully_right, r.wrong_executes()), (1, 1, 0), "{text}");
    assert_eq!((r.overall.high_risk_executes, r.overall.high_risk_wrong), (1, 0), "{text}");
}

/// Dialogue lines and single-turn lines mix in one file; each dialogue runs
/// on one session, so a pick by position after a clarifier, the same
/// request again and "the other one" are carried from turn to turn.
#[tokio::test]
async fn the_worked_dialogue_example_runs_as_the_docs_show() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/eval/dialogues.jsonl");
    let lines = eval::read(&path).unwrap();
    let r = eval::evaluate(Config::default(), lines).await.unwrap();
    let text = eval::render(&r);
    assert_eq!((r.dialogues.dialogues, r.dialogues.fully_right, r.dialogues.repeated_clarifiers), (3, 3, 0), "{text}");
    let docs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/evaluation.md")).unwrap();
    let shown = docs
        .split("$ cargo run --release -q -- eval examples/eval/dialogues.jsonl")
        .nth(1)
        .expect("docs/evaluation.md shows the dialogue example");
    let shown = shown.split("```").next().unwrap();
    // The docs' sample is this run's report, word for word, but the
    // configuration revision (which moves with every default).
    let strip = |s: &str| s.lines().filter(|l| !l.starts_with("evaluated ")).map(str::trim_end).collect::<Vec<_>>().join("\n");
    assert_eq!(strip(shown).trim(), strip(&text).trim(), "docs/evaluation.md's dialogue report drifted; paste the new one");
}

/// dialogues-c's targets: the clear requests executed, of the
/// scored turns ...
const C_CLEAR_EXECUTED_TARGET: f64 = 0.90;
/// ... the escapes right, of 39 ...
const C_ESCAPES_RIGHT_TARGET: usize = 36;
/// ... and the dialogues fully right on their scored turns, of 100.
const C_FULLY_RIGHT_TARGET: usize = 85;
/// What holds today, gated so that it never falls back while the rules
/// grow toward the targets (each a figure of the scored turns).
const C_CLEAR_EXECUTED_MIN: usize = 117;
const C_ESCAPES_RIGHT_MIN: usize = 39;
const C_FULLY_RIGHT_MIN: usize = 88;

/// A third blind set of dialogues by another independent author
/// (`tests/corpus/dialogues-c/`, 100 dialogues, 258 turns): its
/// `scoring.json` names the turns a careful person could answer otherwise
/// (`debatable`) and those that need world knowledge (`knowledge`, the
/// LLM's job), left out of every figure here. No wrong execute on the
/// scored turns; the clear requests executed, the escapes right and the
/// dialogues fully right never below what holds today, reported beside
/// the issue's targets.
/// A blind dialogue set's figures on its scored turns (`scoring.json`'s
/// `debatable` and `knowledge` turns left out, and the exceptions).
struct BlindFigures {
    report: eval::Report,
    left_out: std::collections::BTreeSet<String>,
    clear: usize,
    executed: usize,
    escapes: usize,
    escaped: usize,
    wrong: usize,
    fully_right: usize,
}

async fn blind_set(set: &str, dialogues: usize) -> BlindFigures {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus").join(set);
    let scoring: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("scoring.json")).unwrap()).unwrap();
    let left_out: std::collections::BTreeSet<String> = ["debatable", "knowledge"]
        .iter()
        .flat_map(|k| scoring[k].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()))
        .collect();
    let lines = eval::read(&dir.join("dialogues.jsonl")).unwrap();
    let unknown = eval::unknown_exceptions(
        &lines,
        &left_out.iter().map(|at| eval::Exception { at: at.clone(), reason: "scored".into() }).collect::<Vec<_>>(),
    )
    .iter()
    .map(|e| e.at.clone())
    .collect::<Vec<_>>();
    assert!(unknown.is_empty(), "{set}/scoring.json names no turn of the corpus: {unknown:?}");
    // Each dialogue's scored turns, and what each expects.
    let mut scored: Vec<(String, Vec<(String, eval::Expect)>)> = Vec::new();
    for line in &lines {
        let eval::Line::Dialogue(d) = line else { panic!("{set} holds dialogues only") };
        let turns = d.turns.iter().enumerate().map(|(k, t)| (format!("{}#{}", d.id, k + 1), t.expect.clone()));
        scored.push((d.id.clone(), turns.filter(|(id, _)| !left_out.contains(id)).collect()));
    }
    let r = evaluate_set(set, "dialogues.jsonl").await;
    assert_eq!((r.dialogues.dialogues, r.overall.invalid), (dialogues, 0), "{}", eval::render(&r));
    let not_right: std::collections::BTreeMap<&str, &eval::Scored> = r.failures.iter().map(|f| (f.id.as_str(), f)).collect();
    let set_aside: std::collections::BTreeSet<&str> = r.set_aside.iter().map(|a| a.turn.id.as_str()).collect();
    let (mut clear, mut executed, mut escapes, mut escaped, mut wrong, mut fully_right) = (0, 0, 0, 0, 0, 0);
    for (_, turns) in &scored {
        let turns: Vec<&(String, eval::Expect)> = turns.iter().filter(|(id, _)| !set_aside.contains(id.as_str())).collect();
        for (id, expect) in &turns {
            let failed = not_right.get(id.as_str());
            match expect {
                eval::Expect::Execute(_) => (clear, executed) = (clear + 1, executed + usize::from(failed.is_none())),
                eval::Expect::Escape(_) => (escapes, escaped) = (escapes + 1, escaped + usize::from(failed.is_none())),
                _ => {}
            }
            wrong += usize::from(failed.is_some_and(|f| f.verdict == eval::Grade::WrongExecute));
        }
        fully_right += usize::from(turns.iter().all(|(id, _)| !not_right.contains_key(id.as_str())));
    }
    BlindFigures { report: r, left_out, clear, executed, escapes, escaped, wrong, fully_right }
}

#[tokio::test]
async fn the_third_blind_dialogues_are_carried_through_as_a_careful_person_would() {
    let BlindFigures { report: r, left_out, clear, executed, escapes, escaped, wrong, fully_right } = blind_set("dialogues-c", 100).await;
    let mut gates = Gates::default();
    gates.check("wrong executes, scored turns", wrong.to_string(), "0", wrong == 0);
    gates.check(
        "clear requests executed, scored turns",
        percent(executed, clear),
        &format!(">= {C_CLEAR_EXECUTED_MIN}"),
        executed >= C_CLEAR_EXECUTED_MIN,
    );
    gates.report("... target", format!(">= {:.0}%", 100.0 * C_CLEAR_EXECUTED_TARGET));
    gates.check(
        "escapes right, scored turns",
        format!("{escaped} of {escapes}"),
        &format!(">= {C_ESCAPES_RIGHT_MIN}"),
        escaped >= C_ESCAPES_RIGHT_MIN,
    );
    gates.report("... target", format!(">= {C_ESCAPES_RIGHT_TARGET}"));
    gates.check(
        "dialogues fully right, scored turns",
        format!("{fully_right} of 100"),
        &format!(">= {C_FULLY_RIGHT_MIN}"),
        fully_right >= C_FULLY_RIGHT_MIN,
    );
    gates.report("... target", format!(">= {C_FULLY_RIGHT_TARGET}"));
    gates.report("wrong executes, every turn", r.wrong_executes().to_string());
    gates.report("dialogues fully right, every turn", r.dialogues.fully_right.to_string());
    gates.hold("tests/corpus/dialogues-c", &r, |f| !left_out.contains(&f.id));
}

/// The blind sets written to check the rules generalise, each by a
/// helper that read a one-paragraph brief and none of the code
/// (`tests/corpus/fresh56/`, 45 dialogues; `fresh57/` to `fresh75/`, 40
/// each):
/// no wrong execute on the scored turns, and the clear requests executed,
/// escapes right and dialogues fully right never below what holds today.
/// The gap between these and dialogues-c's figures is how far the rules
/// fit lines rather than classes (docs/evaluation.md).
#[tokio::test]
async fn the_fresh_blind_sets_hold_what_they_hold_today() {
    // (set, dialogues, clear executed, escapes right, fully right)
    for (set, dialogues, executed_min, escaped_min, fully_min) in [
        ("fresh56", 45, 62, 6, 32),
        ("fresh57", 40, 42, 8, 30),
        ("fresh58", 40, 42, 12, 27),
        ("fresh59", 40, 45, 12, 30),
        ("fresh60", 40, 41, 9, 21),
        ("fresh61", 40, 55, 11, 32),
        ("fresh62", 40, 55, 7, 30),
        ("fresh63", 40, 51, 12, 32),
        ("fresh64", 40, 46, 15, 32),
        ("fresh65", 40, 53, 7, 29),
        ("fresh66", 40, 34, 7, 14),
        ("fresh67", 40, 44, 9, 25),
        ("fresh68", 40, 53, 10, 31),
        ("fresh69", 40, 54, 10, 30),
        ("fresh70", 40, 46, 13, 28),
        ("fresh71", 40, 47, 7, 23),
        ("fresh72", 40, 55, 11, 26),
        ("fresh73", 40, 42, 9, 17),
        ("fresh74", 40, 41, 11, 26),
        ("fresh75", 40, 52, 7, 26),
    ] {
        let f = blind_set(set, dialogues).await;
        let mut gates = Gates::default();
        gates.check("wrong executes, scored turns", f.wrong.to_string(), "0", f.wrong == 0);
        gates.check(
            "clear requests executed, scored turns",
            percent(f.executed, f.clear),
            &format!(">= {executed_min}"),
            f.executed >= executed_min,
        );
        gates.check(
            "escapes right, scored turns",
            format!("{} of {}", f.escaped, f.escapes),
            &format!(">= {escaped_min}"),
            f.escaped >= escaped_min,
        );
        gates.check(
            "dialogues fully right, scored turns",
            format!("{} of {dialogues}", f.fully_right),
            &format!(">= {fully_min}"),
            f.fully_right >= fully_min,
        );
        let left_out = f.left_out;
        gates.hold(&format!("tests/corpus/{set}"), &f.report, |x| !left_out.contains(&x.id));
    }
}
