//! The layers hold by construction: the ladder core's dependency tree has no
//! runtime, transport or I/O crate, and the daemon's has no load tool. A new
//! dependency that breaks a layer fails here, whatever pulls it in.

use std::collections::BTreeSet;
use std::process::Command;

/// The crates (by name) in `package`'s normal dependency tree.
fn normal_deps(package: &str) -> BTreeSet<String> {
    let out = Command::new(env!("CARGO"))
        .args(["tree", "--offline", "--locked", "-p", package, "-e", "normal", "--prefix", "none", "--format", "{p}"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    assert!(out.status.success(), "cargo tree -p {package}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().filter_map(|l| l.split_whitespace().next()).map(str::to_string).collect()
}

#[test]
fn the_core_depends_on_no_runtime_transport_or_http_crate() {
    let deps = normal_deps("ladder");
    let banned = ["tokio", "tonic", "prost", "reqwest", "hyper", "mio", "h2", "axum", "tower", "opentelemetry", "ladderd"];
    let found: Vec<&str> = banned.iter().copied().filter(|b| deps.contains(*b)).collect();
    assert!(found.is_empty(), "the ladder core must stay pure, but depends on {found:?}");
    // The test itself must be able to fail: the daemon does depend on them.
    assert!(normal_deps("ladderd").contains("tokio"));
}

#[test]
fn the_daemon_does_not_carry_the_load_tool() {
    let deps = normal_deps("ladderd");
    for tool in ["ladderd-load", "hdrhistogram"] {
        assert!(!deps.contains(tool), "the daemon's dependencies include {tool}");
    }
    assert!(deps.contains("ladder"), "the daemon decides with the core crate");
}

#[test]
fn the_core_bans_io_through_clippy() {
    let lib = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/crates/ladder/src/lib.rs")).unwrap();
    assert!(lib.contains("#![deny(clippy::disallowed_types, clippy::disallowed_methods)]"));
    let clippy = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/crates/ladder/clippy.toml")).unwrap();
    for path in ["std::fs::read_to_string", "std::fs::File", "std::net::TcpStream", "std::time::SystemTime"] {
        assert!(clippy.contains(&format!("\"{path}\"")), "crates/ladder/clippy.toml does not ban {path}");
    }
}

/// The modules of a crate (`src` dir) and the sibling modules each one
/// names (`crate::x`, or `super::x` in a top-level module), tests and
/// comments left out.
fn module_graph(src: &std::path::Path) -> std::collections::BTreeMap<String, BTreeSet<String>> {
    fn names_after<'a>(text: &'a str, prefix: &str) -> impl Iterator<Item = &'a str> {
        text.match_indices(prefix).map(move |(i, _)| {
            let rest = &text[i + prefix.len()..];
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
            &rest[..end]
        })
    }
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(src, &mut files);
    let mut graph: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    for f in files {
        let rel = f.strip_prefix(src).unwrap();
        let parts: Vec<String> = rel.with_extension("").iter().map(|p| p.to_string_lossy().into_owned()).collect();
        if matches!(parts.last().map(String::as_str), Some("tests")) || parts[0] == "bin" {
            continue;
        }
        if parts.len() == 1 && matches!(parts[0].as_str(), "lib" | "main") {
            continue;
        }
        let module = parts[0].clone();
        let text = std::fs::read_to_string(&f).unwrap();
        let code: String =
            text.split("#[cfg(test)]").next().unwrap().lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
        let deps = graph.entry(module.clone()).or_default();
        deps.extend(names_after(&code, "crate::").map(str::to_string));
        let top_level = parts.len() == 1 || (parts.len() == 2 && parts[1] == "mod");
        if top_level {
            deps.extend(names_after(&code, "super::").map(str::to_string));
        }
        deps.remove(&module);
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for deps in graph.values_mut() {
        deps.retain(|d| modules.contains(d));
    }
    graph
}

/// A cycle in the graph, if there is one (depth-first search).
fn find_cycle(graph: &std::collections::BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        g: &std::collections::BTreeMap<String, BTreeSet<String>>,
        state: &mut std::collections::BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(n) {
            Some(2) => return None,
            Some(1) => {
                let at = path.iter().position(|p| p == n).unwrap();
                let mut cycle = path[at..].to_vec();
                cycle.push(n.to_string());
                return Some(cycle);
            }
            _ => {}
        }
        state.insert(n.to_string(), 1);
        path.push(n.to_string());
        for d in &g[n] {
            if let Some(c) = visit(d, g, state, path) {
                return Some(c);
            }
        }
        path.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = Default::default();
    graph.keys().find_map(|n| visit(n, graph, &mut state, &mut Vec::new()))
}

#[test]
fn no_module_imports_a_module_that_imports_it_back() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for src in [root.join("src"), root.join("crates/ladder/src")] {
        let graph = module_graph(&src);
        assert!(graph.len() > 8, "{}: modules found: {:?}", src.display(), graph.keys());
        assert_eq!(find_cycle(&graph), None, "an import circle in {}", src.display());
    }
    // The check finds a circle when there is one.
    let mut g: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    g.insert("a".into(), ["b".into()].into());
    g.insert("b".into(), ["c".into()].into());
    g.insert("c".into(), ["a".into()].into());
    assert_eq!(find_cycle(&g), Some(vec!["a".into(), "b".into(), "c".into(), "a".into()]));
}
