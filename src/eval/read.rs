//! Reading labelled turns and dialogues: JSON lines in proto JSON names,
//! and the CLINC150 dataset's splits.

use super::{Case, Dialogue, DialogueTurn, EnrichStep, Exception, Expect, Line, RecordStep};
use crate::pb;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Reads labelled turns and dialogues: one JSON object a line; blank
/// lines and lines starting with `#` or `//` are skipped. A line holding a
/// `dialogue` is a [`Dialogue`]; any other line is one turn ([`Case`]). A
/// directory holding the CLINC150 intent dataset's `train_val.json` and
/// `domains.json` is read as its turns ([`read_clinc150`]).
pub fn read(path: &Path) -> Result<Vec<Line>, String> {
    if path.is_dir() {
        return Ok(read_clinc150(path)?.into_iter().map(Line::from).collect());
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
            continue;
        }
        let at = format!("{}:{}", path.display(), i + 1);
        let v: Value = serde_json::from_str(line).map_err(|e| format!("{at}: not JSON: {e}"))?;
        let parsed = if v.get("dialogue").is_some() { dialogue(&at, &v).map(Line::Dialogue) } else { case(&at, &v).map(Line::from) };
        lines.push(parsed.map_err(|e| format!("{at}: {e}"))?);
    }
    Ok(lines)
}

/// The CLINC150 intent dataset (Larson et al., 2019; CC BY 3.0) as turns:
/// real user utterances nobody on this project wrote. Each utterance of the
/// train and validation splits is shown with its domain's 15 intents as
/// chat options (`freeze_account` as "Freeze account", its id the intent's
/// name) and expects its own intent (category: the domain); each
/// out-of-scope utterance is shown with the intents of one domain (in turn)
/// and expects a clarifier (category `out_of_scope`). Executing anything but
/// the labelled intent, or anything on an out-of-scope utterance, is a wrong
/// execute; a clarifier or an escape is not (paraphrases are the LLM rung's
/// job).
pub fn read_clinc150(dir: &Path) -> Result<Vec<Case>, String> {
    let load = |name: &str| -> Result<Value, String> {
        let p = dir.join(name);
        let text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: not JSON: {e}", p.display()))
    };
    let (domains, data) = (load("domains.json")?, load("train_val.json")?);
    let domains = domains.as_object().ok_or("domains.json: expected an object of domain -> intents")?;
    let mut intents_of: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut domain_of: BTreeMap<&str, &str> = BTreeMap::new();
    for (domain, intents) in domains {
        let intents: Vec<&str> =
            intents.as_array().ok_or(format!("domains.json: {domain}: expected a list"))?.iter().filter_map(Value::as_str).collect();
        for i in &intents {
            domain_of.insert(i, domain);
        }
        intents_of.insert(domain, intents);
    }
    let label = |intent: &str| {
        let spaced = intent.replace('_', " ");
        let mut c = spaced.chars();
        c.next().map(|f| f.to_uppercase().chain(c).collect::<String>()).unwrap_or_default()
    };
    let turn = |at: String, category: &str, input: &str, domain: &str, expect: Value| -> Result<Case, String> {
        let candidates: Vec<Value> = intents_of[domain].iter().map(|i| serde_json::json!({"id": i, "label": label(i)})).collect();
        let v = serde_json::json!({"category": category, "input": input, "expect": expect,
            "activeScope": {"scope": "SCOPE_CHAT", "instanceId": "chat"},
            "options": {"optionSetId": domain, "scope": "SCOPE_CHAT", "candidates": candidates}});
        case(&at, &v).map_err(|e| format!("{at}: {e}"))
    };
    let split = |name: &str| -> Result<Vec<(String, String)>, String> {
        let rows = data.get(name).and_then(Value::as_array).ok_or(format!("train_val.json: no {name:?} split"))?;
        rows.iter()
            .map(|r| match r.as_array().map(Vec::as_slice) {
                Some([Value::String(text), Value::String(intent)]) => Ok((text.clone(), intent.clone())),
                _ => Err(format!("train_val.json: {name}: expected [text, intent] pairs")),
            })
            .collect()
    };
    let mut cases = Vec::new();
    for name in ["train", "val"] {
        for (n, (text, intent)) in split(name)?.into_iter().enumerate() {
            let domain = domain_of.get(intent.as_str()).ok_or(format!("train_val.json: {name}[{n}]: intent {intent:?} in no domain"))?;
            cases.push(turn(format!("clinc150:{name}:{n}"), domain, &text, domain, serde_json::json!({"execute": intent}))?);
        }
    }
    let shown: Vec<&str> = intents_of.keys().copied().collect();
    for name in ["oos_train", "oos_val"] {
        for (n, (text, _)) in split(name)?.into_iter().enumerate() {
            let domain = shown[n % shown.len()];
            cases.push(turn(format!("clinc150:{name}:{n}"), "out_of_scope", &text, domain, serde_json::json!({"clarify": []}))?);
        }
    }
    Ok(cases)
}

/// One line as a labelled turn.
pub fn case(at: &str, v: &Value) -> Result<Case, String> {
    let o = v.as_object().ok_or("a line must be a JSON object")?;
    let (expect, follow_up) = parse_expect_follow_up(o.get("expect"), "expect")?;
    let category = o.get("category").and_then(Value::as_str).unwrap_or("uncategorized").to_string();
    let mut request = decide_request(v)?;
    if request.session_id.is_empty() {
        request.session_id = format!("eval-{at}");
    }
    if request.turn_id.is_empty() {
        request.turn_id = "turn-1".into();
    }
    Ok(Case { at: at.to_string(), id: line_id(o), category, request, expect, follow_up })
}

/// What a person expects: `{"execute": id}`, `{"clarify": [ids]}`,
/// `{"escape": reason}` or `{"need_more_info": [evidence types]}`.
/// An expectation, and the follow-up an execute leaves (`{"execute": id,
/// "follow_up": "question" | "request"}`), if it names one.
fn parse_expect_follow_up(e: Option<&Value>, name: &str) -> Result<(Expect, String), String> {
    let Some(o) = e.and_then(Value::as_object).filter(|o| o.contains_key("follow_up")) else {
        return Ok((parse_expect(e, name)?, String::new()));
    };
    let kind = o["follow_up"].as_str().filter(|k| matches!(*k, "question" | "request"));
    let kind = kind.ok_or(format!("{name}.follow_up must be \"question\" or \"request\""))?.to_string();
    let mut rest = o.clone();
    rest.remove("follow_up");
    let expect = parse_expect(Some(&Value::Object(rest)), name)?;
    if !matches!(expect, Expect::Execute(_)) {
        return Err(format!("{name}.follow_up goes with an execute"));
    }
    Ok((expect, kind))
}

fn parse_expect(e: Option<&Value>, name: &str) -> Result<Expect, String> {
    let shape = || {
        format!(
            "{name} must be one of {{\"execute\": id}}, {{\"clarify\": [ids]}}, {{\"escape\": reason}}, {{\"need_more_info\": [types]}}"
        )
    };
    let e = e.and_then(Value::as_object).filter(|e| e.len() == 1).ok_or_else(shape)?;
    let (k, x) = e.iter().next().ok_or_else(shape)?;
    let list = |what: &str| -> Result<Vec<String>, String> {
        x.as_array()
            .ok_or(format!("{name}.{k} must be a list of {what}"))?
            .iter()
            .map(|id| id.as_str().map(str::to_string).ok_or(format!("{name}.{k} must be a list of {what}")))
            .collect()
    };
    Ok(match k.as_str() {
        "execute" => Expect::Execute(x.as_str().ok_or(format!("{name}.execute must be an id"))?.to_string()),
        "clarify" => Expect::Clarify(list("ids")?),
        "escape" => Expect::Escape(x.as_str().ok_or(format!("{name}.escape must be a reason"))?.to_string()),
        "need_more_info" | "needMoreInfo" => Expect::NeedMoreInfo(list("evidence types")?),
        other => return Err(format!("{name}.{other}: expected execute, clarify, escape or need_more_info")),
    })
}

/// One line holding a `dialogue`: turns on one session, each a
/// `DecideRequest` with its own `expect`, an optional `enrich` step (the
/// evidence the app supplies after a `NEED_MORE_INFO`, and what is expected
/// then) and an optional `record_outcome` (what the app reports).
pub fn dialogue(at: &str, v: &Value) -> Result<Dialogue, String> {
    let o = v.as_object().ok_or("a line must be a JSON object")?;
    let category = o.get("category").and_then(Value::as_str).unwrap_or("uncategorized").to_string();
    let turns = o.get("dialogue").and_then(Value::as_array).ok_or("dialogue must be a list of turns")?;
    if turns.is_empty() {
        return Err("dialogue has no turns".into());
    }
    let session = field(v, "sessionId", "session_id").and_then(Value::as_str).map_or_else(|| format!("eval-{at}"), str::to_string);
    let mut out = Vec::with_capacity(turns.len());
    for (i, t) in turns.iter().enumerate() {
        let n = i + 1;
        let t_obj = t.as_object().ok_or(format!("dialogue[{i}] must be an object"))?;
        let mut request = decide_request(t).map_err(|e| format!("dialogue[{i}]: {e}"))?;
        if request.session_id.is_empty() {
            request.session_id = session.clone();
        }
        if request.turn_id.is_empty() {
            request.turn_id = format!("turn-{n}");
        }
        let (expect, follow_up) = parse_expect_follow_up(t_obj.get("expect"), &format!("dialogue[{i}].expect"))?;
        let enrich = match field(t, "enrich", "enrich") {
            None => None,
            Some(e) => {
                let name = format!("dialogue[{i}].enrich");
                let blocks = field(e, "evidence", "evidence").and_then(Value::as_array).ok_or(format!("{name}.evidence must be a list"))?;
                let evidence = blocks
                    .iter()
                    .map(|b| -> Result<pb::EvidenceBlock, String> {
                        Ok(pb::EvidenceBlock {
                            r#type: string(b, "type", "type")?,
                            candidates: candidates(b, "candidates", "candidates")?,
                            excerpt: string(b, "excerpt", "excerpt")?,
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|e| format!("{name}: {e}"))?;
                Some(EnrichStep { evidence, expect: parse_expect(e.get("expect"), &format!("{name}.expect"))? })
            }
        };
        let record = match field(t, "recordOutcome", "record_outcome") {
            None => None,
            Some(r) => {
                let name = format!("dialogue[{i}].record_outcome");
                let kind = string(r, "kind", "kind")?;
                let kind = pb::OutcomeKind::from_str_name(&kind).ok_or(format!("{name}.kind: {kind:?} is not an OutcomeKind"))?;
                Some(RecordStep { kind, choice_id: string(r, "choiceId", "choice_id")? })
            }
        };
        out.push(DialogueTurn { request, expect, follow_up, enrich, record });
    }
    Ok(Dialogue { at: at.to_string(), id: line_id(o), category, turns: out })
}

/// A line's own `id` (what an exception names), or none.
fn line_id(o: &serde_json::Map<String, Value>) -> String {
    o.get("id").and_then(Value::as_str).unwrap_or_default().to_string()
}

/// Reads a corpus's exceptions: one JSON object a line, `{"at": line id
/// or dialogue id#turn, "reason": why the expectation is judged wrong}`;
/// blank lines and lines starting with `#` or `//` are skipped. An
/// exception without both, or naming a turn twice, is an error.
pub fn read_exceptions(path: &Path) -> Result<Vec<Exception>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out: Vec<Exception> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
            continue;
        }
        let where_ = format!("{}:{}", path.display(), i + 1);
        let v: Value = serde_json::from_str(line).map_err(|e| format!("{where_}: not JSON: {e}"))?;
        let text = |k: &str| v.get(k).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
        let (Some(at), Some(reason)) = (text("at"), text("reason")) else {
            return Err(format!("{where_}: an exception is {{\"at\": line id or dialogue id#turn, \"reason\": why}}"));
        };
        if out.iter().any(|e| e.at == at) {
            return Err(format!("{where_}: {at} is excepted twice"));
        }
        out.push(Exception { at, reason });
    }
    Ok(out)
}

/// A field by its proto JSON name (lowerCamelCase) or its proto name.
fn field<'a>(v: &'a Value, camel: &str, snake: &str) -> Option<&'a Value> {
    v.get(camel).or_else(|| v.get(snake)).filter(|x| !x.is_null())
}

fn string(v: &Value, camel: &str, snake: &str) -> Result<String, String> {
    match field(v, camel, snake) {
        None => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(format!("{camel} must be a string")),
    }
}

fn strings(v: &Value, camel: &str, snake: &str) -> Result<Vec<String>, String> {
    match field(v, camel, snake) {
        None => Ok(Vec::new()),
        Some(Value::Array(a)) => a.iter().map(|x| x.as_str().map(str::to_string).ok_or(format!("{camel} must be strings"))).collect(),
        Some(_) => Err(format!("{camel} must be a list of strings")),
    }
}

fn scope(v: Option<&Value>, name: &str) -> Result<i32, String> {
    match v {
        None => Ok(0),
        Some(Value::Number(n)) => n.as_i64().map(|n| n as i32).ok_or(format!("{name}: not a Scope")),
        Some(Value::String(s)) => pb::Scope::from_str_name(s).map(|s| s as i32).ok_or(format!("{name}: {s:?} is not a Scope")),
        Some(_) => Err(format!("{name}: not a Scope")),
    }
}

/// A candidate of the proto JSON; `phrases` (how the blind sets' briefs
/// write a command's phrases, docs/evaluation.md) are more `aliases`, as
/// the proto keeps a command's phrases.
fn candidate(v: &Value) -> Result<pb::Candidate, String> {
    let mut aliases = strings(v, "aliases", "aliases")?;
    aliases.extend(strings(v, "phrases", "phrases")?);
    Ok(pb::Candidate {
        id: string(v, "id", "id")?,
        label: string(v, "label", "label")?,
        sublabel: string(v, "sublabel", "sublabel")?,
        badge: string(v, "badge", "badge")?,
        kind: string(v, "kind", "kind")?,
        path: string(v, "path", "path")?,
        aliases,
        risk: match field(v, "risk", "risk") {
            None => 0,
            Some(Value::Number(n)) => n.as_i64().map(|n| n as i32).ok_or("risk: not a Risk")?,
            Some(Value::String(s)) => pb::Risk::from_str_name(s).map(|r| r as i32).ok_or(format!("risk: {s:?} is not a Risk"))?,
            Some(_) => return Err("risk: not a Risk".into()),
        },
    })
}

fn candidates(v: &Value, camel: &str, snake: &str) -> Result<Vec<pb::Candidate>, String> {
    match field(v, camel, snake) {
        None => Ok(Vec::new()),
        Some(Value::Array(a)) => a.iter().map(candidate).collect::<Result<_, _>>().map_err(|e| format!("{camel}: {e}")),
        Some(_) => Err(format!("{camel} must be a list of candidates")),
    }
}

/// The `DecideRequest` of a line, from its proto JSON fields.
pub fn decide_request(v: &Value) -> Result<pb::DecideRequest, String> {
    let options = field(v, "options", "options")
        .map(|o| -> Result<pb::OptionSet, String> {
            Ok(pb::OptionSet {
                option_set_id: string(o, "optionSetId", "option_set_id")?,
                scope: scope(field(o, "scope", "scope"), "options.scope")?,
                candidates: candidates(o, "candidates", "candidates")?,
                version: string(o, "version", "version")?,
                by_reference: field(o, "byReference", "by_reference").and_then(Value::as_bool).unwrap_or(false),
                asked: match field(o, "asked", "asked") {
                    None => 0,
                    Some(Value::Number(n)) => n.as_i64().map(|n| n as i32).ok_or("options.asked: not an Asked")?,
                    Some(Value::String(s)) => {
                        pb::Asked::from_str_name(s).map(|a| a as i32).ok_or(format!("options.asked: {s:?} is not an Asked"))?
                    }
                    Some(_) => return Err("options.asked: not an Asked".into()),
                },
            })
        })
        .transpose()?;
    let active_scope = field(v, "activeScope", "active_scope")
        .map(|s| -> Result<pb::ScopeRef, String> {
            Ok(pb::ScopeRef {
                scope: scope(field(s, "scope", "scope"), "activeScope.scope")?,
                instance_id: string(s, "instanceId", "instance_id")?,
            })
        })
        .transpose()?;
    let labels = match field(v, "labels", "labels") {
        None => Default::default(),
        Some(Value::Object(m)) => m.iter().map(|(k, x)| (k.clone(), x.as_str().unwrap_or_default().to_string())).collect(),
        Some(_) => return Err("labels must be an object of strings".into()),
    };
    Ok(pb::DecideRequest {
        session_id: string(v, "sessionId", "session_id")?,
        turn_id: string(v, "turnId", "turn_id")?,
        input: string(v, "input", "input")?,
        active_scope,
        options,
        recoverable_chat_options: candidates(v, "recoverableChatOptions", "recoverable_chat_options")?,
        widget_items: candidates(v, "widgetItems", "widget_items")?,
        commands: candidates(v, "commands", "commands")?,
        force_clarify_only: field(v, "forceClarifyOnly", "force_clarify_only").and_then(Value::as_bool).unwrap_or(false),
        language: string(v, "language", "language")?,
        labels,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::unknown_exceptions;

    #[test]
    fn lines_read_in_proto_json_names_or_the_originals() {
        let camel = serde_json::json!({"input": "the second one", "category": "ordinal",
            "options": {"optionSetId": "s", "scope": "SCOPE_CHAT", "candidates": [{"id": "a", "label": "A"}, {"id": "b", "label": "B", "aliases": ["bee"]}]},
            "activeScope": {"scope": "SCOPE_CHAT", "instanceId": "c1"}, "widgetItems": [{"id": "w", "label": "W"}],
            "expect": {"execute": "b"}});
        let snake = serde_json::json!({"input": "the second one", "category": "ordinal",
            "options": {"option_set_id": "s", "scope": 1, "candidates": [{"id": "a", "label": "A"}, {"id": "b", "label": "B", "aliases": ["bee"]}]},
            "active_scope": {"scope": "SCOPE_CHAT", "instance_id": "c1"}, "widget_items": [{"id": "w", "label": "W"}],
            "expect": {"execute": "b"}});
        let a = case("f:1", &camel).unwrap();
        let b = case("f:1", &snake).unwrap();
        assert_eq!(a.request, b.request);
        assert_eq!(a.expect, Expect::Execute("b".into()));
        let o = a.request.options.unwrap();
        assert_eq!((o.option_set_id.as_str(), o.scope, o.candidates[1].aliases.clone()), ("s", pb::Scope::Chat as i32, vec!["bee".into()]));
        assert_eq!(a.request.active_scope.unwrap().instance_id, "c1");
        assert_eq!(a.request.widget_items.len(), 1);
        assert!(!a.request.session_id.is_empty(), "each line gets a session of its own");
    }

    #[test]
    fn a_commands_phrases_are_its_aliases() {
        let line = serde_json::json!({"input": "run a speed test", "expect": {"escape": "command"},
            "commands": [{"id": "speed", "label": "Run speed test", "aliases": ["speedtest"], "phrases": ["test my speed", "run a speed test"]}]});
        let c = case("f:1", &line).unwrap();
        assert_eq!(c.request.commands[0].aliases, vec!["speedtest", "test my speed", "run a speed test"]);
        let bad =
            serde_json::json!({"input": "x", "expect": {"escape": "command"}, "commands": [{"id": "s", "label": "S", "phrases": "test"}]});
        assert!(case("f:1", &bad).unwrap_err().contains("phrases must be a list"));
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        for (line, want) in [
            (serde_json::json!({"input": "x"}), "expect must be"),
            (serde_json::json!({"input": "x", "expect": {"pick": "a"}}), "expect.pick"),
            (serde_json::json!({"input": "x", "expect": {"clarify": "a"}}), "list of ids"),
            (serde_json::json!({"input": 3, "expect": {"execute": "a"}}), "input must be a string"),
            (serde_json::json!({"input": "x", "options": {"scope": "SCOPE_MOON"}, "expect": {"execute": "a"}}), "not a Scope"),
        ] {
            let err = case("f:1", &line).unwrap_err();
            assert!(err.contains(want), "{line}: {err}");
        }
    }

    #[test]
    fn exceptions_name_turns_by_line_id_and_dialogue_turn() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("exceptions.jsonl");
        std::fs::write(&path, "# judged wrong\n{\"at\": \"t1\", \"reason\": \"r1\"}\n\n{\"at\": \"d1#2\", \"reason\": \"r2\"}\n").unwrap();
        let ex = read_exceptions(&path).unwrap();
        assert_eq!(ex, vec![Exception { at: "t1".into(), reason: "r1".into() }, Exception { at: "d1#2".into(), reason: "r2".into() }]);
        let turn = serde_json::json!({"id": "t1", "input": "x", "expect": {"execute": "a"}});
        let talk = serde_json::json!({"id": "d1", "dialogue": [{"input": "x", "expect": {"execute": "a"}}, {"input": "y", "expect": {"execute": "a"}}]});
        let lines = vec![Line::from(case("f:1", &turn).unwrap()), Line::from(dialogue("f:2", &talk).unwrap())];
        assert!(unknown_exceptions(&lines, &ex).is_empty());
        let stale = [Exception { at: "d1#3".into(), reason: "r".into() }, Exception { at: "t2".into(), reason: "r".into() }];
        assert_eq!(unknown_exceptions(&lines, &stale).len(), 2);
        for (text, want) in [
            ("{\"at\": \"t1\"}", "reason"),
            ("{\"at\": \" \", \"reason\": \"r\"}", "reason"),
            ("{\"at\": \"t1\", \"reason\": \"r\"}\n{\"at\": \"t1\", \"reason\": \"s\"}", "twice"),
            ("at t1", "not JSON"),
        ] {
            std::fs::write(&path, text).unwrap();
            let err = read_exceptions(&path).unwrap_err();
            assert!(err.contains(want), "{text}: {err}");
        }
    }
}
