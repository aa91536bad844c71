//! The layers hold by construction: the ladder core's dependency tree has no
//! runtime, transport or I/O crate, and the daemon's has no load tool. A new
//! dependency that breaks a layer fails here, whatever pulls it in. Within
//! each crate, no two files and no two top-level folders import each other.

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

/// The file-level import graph of a crate (`src` dir): each module file
/// (`grpc::intake`, `daemon`, ...) and the modules its code names through
/// `crate::`, `super::` and `self::` paths (groups in braces included),
/// each resolved to the longest module path that is a file; tests and
/// comments left out. A module's own children are not edges from it: a
/// parent declares and re-exports them (`mod turn; pub use turn::X;`), and
/// a child uses what its parent gives it; any other pair of files that
/// name each other is a circle.
fn module_graph(src: &std::path::Path) -> std::collections::BTreeMap<String, BTreeSet<String>> {
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
    // Each module file: its path (`a::b`) and its code.
    let mut modules: std::collections::BTreeMap<Vec<String>, String> = Default::default();
    for f in files {
        let rel = f.strip_prefix(src).unwrap();
        let mut parts: Vec<String> = rel.with_extension("").iter().map(|p| p.to_string_lossy().into_owned()).collect();
        let is_mod = parts.last().is_some_and(|l| l == "mod");
        if is_mod {
            parts.pop();
        }
        if matches!(parts.last().map(String::as_str), Some("tests")) || parts.first().is_some_and(|p| p == "bin") {
            continue;
        }
        if parts.len() == 1 && matches!(parts[0].as_str(), "lib" | "main") {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        let code: String =
            text.split("#[cfg(test)]").next().unwrap().lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
        // `super::` names the parent module (from `a/b.rs` as from
        // `a/b/mod.rs`), `self::` the module itself.
        let parent = parts[..parts.len() - 1].to_vec();
        modules.insert(parts.clone(), format!("{}\u{0}{}\u{0}{}", parent.join("::"), parts.join("::"), code));
    }
    let known: BTreeSet<Vec<String>> = modules.keys().cloned().collect();
    let mut graph: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    for (path, packed) in &modules {
        let mut it = packed.splitn(3, '\u{0}');
        let split = |s: &str| -> Vec<String> { s.split("::").filter(|p| !p.is_empty()).map(str::to_string).collect() };
        let (parent, here, code) = (split(it.next().unwrap()), split(it.next().unwrap()), it.next().unwrap());
        let deps = graph.entry(path.join("::")).or_default();
        for (prefix, base) in [("crate::", Vec::new()), ("super::", parent.clone()), ("self::", here.clone())] {
            for named in paths_after(code, prefix) {
                let mut full = base.clone();
                full.extend(named);
                // The longest prefix that is a module file.
                while !full.is_empty() && !known.contains(&full) {
                    full.pop();
                }
                let is_own_child = full.len() > path.len() && full[..path.len()] == path[..];
                if !full.is_empty() && full != *path && !is_own_child {
                    deps.insert(full.join("::"));
                }
            }
        }
    }
    graph
}

/// The paths named after each `prefix` in `code`: `a::b::c`, and for a
/// group `a::{b, c::d}` each of `a::b`, `a::c::d` (one level of braces).
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for (i, _) in code.match_indices(prefix) {
        // Not the tail of a longer path (`ladder::crate::` never occurs, but `x::super::` might).
        if code[..i].ends_with(|c: char| ident(c) || c == ':') {
            continue;
        }
        let mut rest = &code[i + prefix.len()..];
        // `super::super::` climbs once more: named from the grandparent.
        let mut segs: Vec<String> = Vec::new();
        loop {
            let end = rest.find(|c: char| !ident(c)).unwrap_or(rest.len());
            if end == 0 {
                break;
            }
            segs.push(rest[..end].to_string());
            rest = &rest[end..];
            match rest.strip_prefix("::") {
                Some(r) => rest = r,
                None => break,
            }
        }
        if let Some(group) = rest.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            for item in inner.split(',') {
                let item: Vec<String> = item
                    .trim()
                    .split("::")
                    .map(|s| s.trim().split(' ').next().unwrap_or("").to_string())
                    .filter(|s| !s.is_empty())
                    .collect();
                let mut full = segs.clone();
                full.extend(item);
                out.push(full);
            }
        } else {
            out.push(segs);
        }
    }
    out
}

/// A scratch `src` directory (under the temporary directory, named for
/// `name` and this process) holding `files`, each a path and its text.
fn scratch_src(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ladderd-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
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

/// The graph of a crate's top-level modules (folders, and files at the
/// top): an edge from one to another when any file under the first names
/// any file under the second. Two folders whose files lean on each other
/// are a circle here though no two files are.
fn folder_graph(files: &std::collections::BTreeMap<String, BTreeSet<String>>) -> std::collections::BTreeMap<String, BTreeSet<String>> {
    let top = |m: &str| m.split("::").next().unwrap().to_string();
    let mut out: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    for (from, to) in files {
        let deps = out.entry(top(from)).or_default();
        deps.extend(to.iter().map(|t| top(t)).filter(|t| *t != top(from)));
    }
    for deps in out.clone().into_values() {
        for d in deps {
            out.entry(d).or_default();
        }
    }
    out
}

#[test]
fn no_folder_leans_on_a_folder_that_leans_on_it() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for src in [root.join("src"), root.join("crates/ladder/src")] {
        let folders = folder_graph(&module_graph(&src));
        assert!(folders.len() > 8, "{}: {:?}", src.display(), folders.keys());
        assert_eq!(find_cycle(&folders), None, "a circle between top-level modules of {}", src.display());
    }
    // The transport sits over the daemon, the daemon never under it.
    let daemon = folder_graph(&module_graph(&root.join("src")));
    assert!(daemon["grpc"].contains("daemon") && !daemon["daemon"].contains("grpc"), "{daemon:?}");
    // Two folders leaning on each other through different files: no file
    // circle, a folder circle.
    let dir = scratch_src(
        "folders",
        &[
            ("lib.rs", "pub mod replies; pub mod continuity;"),
            ("replies/mod.rs", "pub mod values; use crate::continuity::state::State;"),
            ("replies/values.rs", "pub struct Value;"),
            ("continuity/mod.rs", "pub mod state;"),
            ("continuity/state.rs", "use crate::replies::values::Value;"),
        ],
    );
    let files = module_graph(&dir);
    assert_eq!(find_cycle(&files), None, "{files:?}");
    assert!(find_cycle(&folder_graph(&files)).is_some(), "{:?}", folder_graph(&files));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn no_module_imports_a_module_that_imports_it_back() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for src in [root.join("src"), root.join("crates/ladder/src")] {
        let graph = module_graph(&src);
        assert!(graph.len() > 8, "{}: modules found: {:?}", src.display(), graph.keys());
        assert_eq!(find_cycle(&graph), None, "an import circle in {}", src.display());
    }
    // Files are the graph's nodes: the layers within a folder are seen.
    let daemon = module_graph(&root.join("src"));
    assert!(daemon["grpc::stack"].contains("grpc::intake") && daemon["grpc::intake"].contains("grpc::timeout"), "{daemon:?}");
    // The check finds a circle when there is one, between files of one
    // folder too.
    let dir = scratch_src(
        "layers",
        &[
            ("lib.rs", "pub mod grpc; pub mod app;"),
            ("app.rs", "use crate::grpc::stack;"),
            ("grpc/mod.rs", "pub mod intake; pub mod stack; pub use intake::X;"),
            ("grpc/intake.rs", "use crate::app; fn f() { super::stack::parse(); }"),
            ("grpc/stack.rs", "use super::{intake::IntakeLayer, mod_free};\nuse crate::grpc::wire;"),
        ],
    );
    let graph = module_graph(&dir);
    assert_eq!(graph["grpc::stack"], ["grpc".to_string(), "grpc::intake".to_string()].into(), "{graph:?}");
    assert!(graph["grpc"].is_empty(), "a parent's own children are not its imports: {graph:?}");
    assert_eq!(find_cycle(&graph), Some(vec!["app".into(), "grpc::stack".into(), "grpc::intake".into(), "app".into()]));
    std::fs::remove_dir_all(&dir).unwrap();
    let mut g: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    g.insert("a".into(), ["b".into()].into());
    g.insert("b".into(), ["c".into()].into());
    g.insert("c".into(), ["a".into()].into());
    assert_eq!(find_cycle(&g), Some(vec!["a".into(), "b".into(), "c".into(), "a".into()]));
}
