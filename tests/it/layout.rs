//! The maps of the code name what is there. docs/layout.md's tree ("The
//! house") and the Layout each crate's `lib.rs` opens with are a
//! newcomer's first read: a file named there that was split or moved
//! sends the reader nowhere, and a module or folder left out is not found.
//!
//! - Every path the tree names exists: an entry (a line's first word, at
//!   the left margin or indented two spaces under a folder) and every
//!   file or folder its description names (`decision.rs`, `redis/`,
//!   `static-minilm-wordnet/build.sh`), looked for under the entry, then
//!   from the repository root ([`named_in`]).
//! - Every top-level folder of the repository is an entry of the tree.
//! - Every module each crate's `lib.rs` declares is named in its Layout,
//!   and every module path of the daemon's Layout (`store::packed`) is a
//!   file.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Folders at the root that are not the project's code or docs: build
/// output and generated regression seeds (dot folders are skipped too).
const NOT_MAPPED: &[&str] = &["target", "proptest-regressions", "node_modules"];

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The tree of docs/layout.md: the first fenced block after "## The house".
fn tree() -> String {
    let doc = read("docs/layout.md");
    let house = &doc[doc.find("## The house").expect("a section The house")..];
    let start = house.find("```\n").expect("a fenced block") + 4;
    house[start..][..house[start..].find("```").expect("its end")].to_string()
}

/// The tree's entries, each with its description: (the entry's path from
/// the root, the words that follow it on its lines).
fn entries(tree: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut top = String::new();
    for line in tree.lines() {
        let indent = line.len() - line.trim_start().len();
        let mut words = line.split_whitespace();
        match indent {
            0 if !line.is_empty() => {
                top = words.next().unwrap_or_default().to_string();
                out.push((top.clone(), words.collect::<Vec<_>>().join(" ")));
            }
            2 => {
                let path = format!("{top}{}", words.next().unwrap_or_default());
                out.push((path, words.collect::<Vec<_>>().join(" ")));
            }
            _ => {
                if let Some((_, text)) = out.last_mut() {
                    text.push(' ');
                    text.push_str(line.trim());
                }
            }
        }
    }
    out
}

const EXTENSIONS: &[&str] = &["rs", "toml", "lua", "py", "sh", "md", "json", "jsonl", "proto"];

/// The files and folders a description names: a word that ends with `/`
/// or with a known extension, its brackets and punctuation taken off; not
/// a pattern (`<kind>/mod.rs`, `lua/*.lua`) or a Rust path.
fn named_in(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|w| w.trim_start_matches(['(', '`']).trim_end_matches([')', ',', ';', ':', '.', '`']))
        .filter(|w| !w.contains(['<', '*', '\'']) && !w.contains("::") && w.len() > 1)
        .filter(|w| w.ends_with('/') || w.rsplit_once('.').is_some_and(|(stem, ext)| !stem.is_empty() && EXTENSIONS.contains(&ext)))
        .map(str::to_string)
        .collect()
}

/// Every path under `dir`, relative to the root.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if NOT_MAPPED.contains(&name.as_str()) || name.starts_with('.') {
            continue;
        }
        out.push(path.strip_prefix(ROOT).unwrap().to_path_buf());
        if path.is_dir() {
            walk(&path, out);
        }
    }
}

/// Whether `name` is found for an entry: under the entry's folder (the
/// entry itself when it is one), anywhere below it, or from the root.
fn found(entry: &str, name: &str, all: &[PathBuf]) -> bool {
    let root = Path::new(ROOT);
    let base =
        if entry.ends_with('/') { entry.to_string() } else { entry.rsplit_once('/').map_or(String::new(), |(d, _)| format!("{d}/")) };
    let name = name.trim_end_matches('/');
    root.join(&base).join(name).exists() || root.join(name).exists() || all.iter().any(|p| p.starts_with(&base) && p.ends_with(name))
}

#[test]
fn every_path_the_layout_tree_names_exists() {
    let tree = tree();
    let mut all = Vec::new();
    walk(Path::new(ROOT), &mut all);
    let mut missing = Vec::new();
    let mut checked = 0;
    for (entry, text) in entries(&tree) {
        checked += 1;
        if !Path::new(ROOT).join(&entry).exists() {
            missing.push(entry.clone());
        }
        for name in named_in(&text) {
            checked += 1;
            if !found(&entry, &name, &all) {
                missing.push(format!("{name} (under {entry})"));
            }
        }
    }
    assert!(checked > 150, "{checked} paths checked");
    assert!(missing.is_empty(), "docs/layout.md names what is not there:\n{}", missing.join("\n"));
}

#[test]
fn every_top_level_folder_is_in_the_layout_tree() {
    let tops: BTreeSet<String> = entries(&tree()).into_iter().map(|(e, _)| e.split('/').next().unwrap().to_string()).collect();
    let mut left_out = Vec::new();
    for entry in std::fs::read_dir(ROOT).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if entry.path().is_dir() && !name.starts_with('.') && !NOT_MAPPED.contains(&name.as_str()) && !tops.contains(&name) {
            left_out.push(name);
        }
    }
    assert!(left_out.is_empty(), "folders docs/layout.md does not map: {left_out:?}");
}

/// The Layout of a crate's `lib.rs`: its inner doc up to the next heading
/// after "# Layout".
fn lib_layout(rel: &str) -> String {
    let lib = read(rel);
    let doc: Vec<&str> = lib.lines().take_while(|l| l.starts_with("//!")).map(|l| l.trim_start_matches("//!")).collect();
    let doc = doc.join("\n");
    let layout = &doc[doc.find("# Layout").unwrap_or_else(|| panic!("{rel}: no Layout"))..];
    let end = layout[1..].find("\n# ").map_or(layout.len(), |i| i + 1);
    layout[..end].to_string()
}

/// The modules a `lib.rs` declares (`pub mod x;`, `mod x;`).
fn modules(rel: &str) -> Vec<String> {
    read(rel)
        .lines()
        .filter_map(|l| l.trim().trim_start_matches("pub ").strip_prefix("mod ")?.strip_suffix(';').map(str::to_string))
        .collect()
}

#[test]
fn every_module_is_named_in_its_crates_layout() {
    let mut left_out = Vec::new();
    for rel in ["src/lib.rs", "crates/ladder/src/lib.rs"] {
        let layout = lib_layout(rel);
        let mods = modules(rel);
        assert!(mods.len() > 10, "{rel}: {} modules read", mods.len());
        for m in mods {
            let named = [format!("[`{m}`]"), format!("[`mod@{m}`]"), format!("`{m}`"), format!("`{m}::")];
            if !named.iter().any(|n| layout.contains(n.as_str())) {
                left_out.push(format!("{rel}: {m}"));
            }
        }
    }
    assert!(left_out.is_empty(), "modules the Layout leaves out:\n{}", left_out.join("\n"));
}

#[test]
fn every_module_path_of_the_daemons_layout_is_a_file() {
    let layout = lib_layout("src/lib.rs");
    let mods = modules("src/lib.rs");
    let mut paths = BTreeSet::new();
    for quoted in layout.split('`').skip(1).step_by(2) {
        let segments: Vec<&str> = quoted.split("::").collect();
        if segments.len() > 1
            && mods.iter().any(|m| m == segments[0])
            && segments.iter().all(|s| s.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
        {
            paths.insert(segments.join("/"));
        }
    }
    assert!(paths.len() > 10, "{} module paths read: {paths:?}", paths.len());
    let src = Path::new(ROOT).join("src");
    let missing: Vec<_> =
        paths.iter().filter(|p| !src.join(format!("{p}.rs")).is_file() && !src.join(p).join("mod.rs").is_file()).collect();
    assert!(missing.is_empty(), "src/lib.rs names modules that are not there: {missing:?}");
}

#[test]
fn the_layout_readers_find_entries_and_the_paths_they_name() {
    let tree = "src/                 the daemon\n  daemon/            mod.rs, turn/ (decide.rs),\n                     lua/*.lua and <kind>/mod.rs\n  store::redis\n";
    let e = entries(tree);
    assert_eq!(e[0], ("src/".to_string(), "the daemon".to_string()));
    assert_eq!(e[1].0, "src/daemon/");
    assert_eq!(named_in(&e[1].1), ["mod.rs", "turn/", "decide.rs"]);
    assert!(named_in("protobuf <-> domain, Redis / Valkey, S1-S8, `grpc::wire`, e.g. the end.").is_empty());
    let mut all = Vec::new();
    walk(&Path::new(ROOT).join("src"), &mut all);
    assert!(found("src/daemon/", "decide.rs", &all), "found below the entry");
    assert!(found("tests/corpus/", "BENCHMARKS.md", &all), "found from the root");
    assert!(!found("src/daemon/", "turn.rs", &all), "a file that was split is not found");
    assert!(!found("src/store/", "redis.rs", &all));
}
