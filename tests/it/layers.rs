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
