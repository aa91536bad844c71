//! The example clients in examples/python and examples/typescript, built
//! from proto/ladder/v1/ladder.proto with their own gRPC stacks, walk one
//! scenario of each outcome and a conversation of replies (docs/replies.md)
//! against the real daemon, and print what each example's README shows.
//!
//! Each test installs what it needs, once: a virtualenv under target/ with
//! the pinned requirements, or `npm ci` from the committed lock file (redone
//! only when the requirements or the lock file change). Both fail, never
//! skip, when python3 or node is missing.

use crate::helpers::TestDaemon;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// target/tmp: scratch space cargo gives integration tests.
const SCRATCH: &str = env!("CARGO_TARGET_TMPDIR");

const INSTALL_LIMIT: Duration = Duration::from_secs(300);
const RUN_LIMIT: Duration = Duration::from_secs(60);

#[tokio::test]
async fn python_client_walks_every_outcome() {
    require("python3").await;
    let example = Path::new(ROOT).join("examples/python");
    let work = Path::new(SCRATCH).join("examples-python");
    std::fs::create_dir_all(&work).unwrap();
    let _lock = InstallLock::acquire(work.join("install.lock")).await;

    // The virtualenv is rebuilt from scratch whenever requirements.txt
    // changes, so a half-finished install never sticks.
    let venv = work.join("venv");
    let python = venv.join("bin/python");
    let requirements = std::fs::read_to_string(example.join("requirements.txt")).unwrap();
    let stamp = venv.join("ladder-requirements.txt");
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(requirements.as_str()) {
        run(Command::new("python3").args(["-m", "venv", "--clear"]).arg(&venv), INSTALL_LIMIT).await;
        let mut pip = Command::new(&python);
        pip.args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input", "-r"])
            .arg(example.join("requirements.txt"));
        run(&mut pip, INSTALL_LIMIT).await;
        std::fs::write(&stamp, &requirements).unwrap();
    }

    // Fresh stubs on every run: generated code is never kept or committed.
    let stubs = tempfile::tempdir_in(&work).unwrap();
    let mut protoc = Command::new(&python);
    protoc
        .args(["-m", "grpc_tools.protoc", "-I"])
        .arg(Path::new(ROOT).join("proto"))
        .arg(format!("--python_out={}", stubs.path().display()))
        .arg(format!("--pyi_out={}", stubs.path().display()))
        .arg(format!("--grpc_python_out={}", stubs.path().display()))
        .arg("ladder/v1/ladder.proto");
    run(&mut protoc, RUN_LIMIT).await;

    let d = TestDaemon::default().await;
    let mut turn_loop = Command::new(&python);
    turn_loop.arg(example.join("turn_loop.py")).arg(d.addr.to_string()).env("PYTHONPATH", stubs.path()).env("PYTHONDONTWRITEBYTECODE", "1");
    let out = run(&mut turn_loop, RUN_LIMIT).await;
    assert_walked_every_outcome("python", &out);
    assert_prints_what_its_readme_shows("examples/python", &out);
}

#[tokio::test]
async fn typescript_client_walks_every_outcome() {
    require("node").await;
    require("npm").await;
    let example = Path::new(ROOT).join("examples/typescript");
    std::fs::create_dir_all(SCRATCH).unwrap();
    let _lock = InstallLock::acquire(Path::new(SCRATCH).join("examples-typescript.lock")).await;

    // `npm ci` empties node_modules first, so the stamp inside it survives
    // only a complete install of exactly this package.json and lock file.
    let wanted = ["package.json", "package-lock.json"]
        .map(|f| std::fs::read_to_string(example.join(f)).unwrap_or_else(|e| panic!("{f}: {e}")))
        .join("\n");
    let stamp = example.join("node_modules/.ladder-installed");
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(wanted.as_str()) {
        let mut ci = npm(&example);
        ci.args(["ci", "--include=dev", "--no-audit", "--no-fund"]);
        run(&mut ci, INSTALL_LIMIT).await;
        std::fs::write(&stamp, &wanted).unwrap();
    }
    // Types generated from the proto, then tsc (fails on any type error).
    let mut build = npm(&example);
    build.args(["run", "build"]);
    run(&mut build, RUN_LIMIT).await;

    let d = TestDaemon::default().await;
    let mut turn_loop = Command::new("node");
    turn_loop.current_dir(&example).arg("dist/turnLoop.js").arg(d.addr.to_string());
    let out = run(&mut turn_loop, RUN_LIMIT).await;
    assert_walked_every_outcome("typescript", &out);
    assert_prints_what_its_readme_shows("examples/typescript", &out);
}

fn npm(dir: &Path) -> Command {
    let mut c = Command::new("npm");
    c.current_dir(dir).env("npm_config_update_notifier", "false");
    c
}

/// Both turn loops print one line per scenario and per turn of the
/// conversation, `ok  NAME  OUTCOME -> ...  [...]`; a turn the reply rung
/// decided opens its `[...]` with `reply KIND` (the trace's).
fn assert_walked_every_outcome(client: &str, out: &str) {
    let expected = [
        ("execute", "OUTCOME_EXECUTE", ""),
        ("clarify", "OUTCOME_CLARIFY", ""),
        ("escape", "OUTCOME_ESCAPE", ""),
        ("confirm", "OUTCOME_CLARIFY", ""),
        ("need_more_info", "OUTCOME_NEED_MORE_INFO -> OUTCOME_EXECUTE", ""),
        // The conversation, on one session: a "which one?" answered by a
        // detail, a "no, not that one", and the app's own confirmations
        // (OptionSet.asked) declined and answered "yes".
        ("which_one", "OUTCOME_CLARIFY", ""),
        ("detail", "OUTCOME_EXECUTE", "detail"),
        ("not_that_one", "OUTCOME_CLARIFY", "repair"),
        ("detail_again", "OUTCOME_EXECUTE", "detail"),
        ("declined", "OUTCOME_ESCAPE", "decline"),
        ("yes", "OUTCOME_EXECUTE", "affirm"),
    ];
    for (scenario, outcomes, reply) in expected {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(scenario))
            .unwrap_or_else(|| panic!("{client}: no line for scenario {scenario}:\n{out}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        let seen = words[2..].iter().take_while(|w| !w.starts_with('[')).copied().collect::<Vec<_>>().join(" ");
        assert_eq!(words[0], "ok", "{client}: {line}");
        assert_eq!(seen, outcomes, "{client}: {line}");
        let read = line.split_once('[').and_then(|(_, r)| r.strip_prefix("reply ")).and_then(|r| r.split(';').next());
        assert_eq!(read.unwrap_or(""), reply, "{client}: the reply kind of {line}");
    }
    for code in ["INVALID_ARGUMENT", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "NOT_FOUND"] {
        assert!(out.lines().any(|l| l.trim_start().starts_with(&format!("{code}: "))), "{client}: {code} not handled:\n{out}");
    }
    assert!(out.contains("turn loop: 12 of 12 scenarios as expected"), "{client}:\n{out}");
}

/// The sample output in the example's README (its `text` block) is what
/// the turn loop printed, `...` standing for lines left out.
fn assert_prints_what_its_readme_shows(dir: &str, out: &str) {
    let readme = std::fs::read_to_string(Path::new(ROOT).join(dir).join("README.md")).unwrap();
    let shown: Vec<String> = readme
        .split("```text\n")
        .nth(1)
        .unwrap_or_else(|| panic!("{dir}/README.md shows no output (a text block)"))
        .split("```")
        .next()
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    let actual: Vec<String> = out.lines().map(|l| l.trim_end().to_string()).collect();
    assert!(
        crate::docs::shows(&shown, &actual),
        "{dir}/README.md shows another output than the turn loop printed (paste it, keeping `...`):\n{out}"
    );
}

/// Fails the test (no skip) when a tool the examples need is missing.
async fn require(tool: &str) {
    let found = Command::new(tool).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().await;
    assert!(matches!(found, Ok(s) if s.success()), "{tool} is required by the example-client tests and was not found on PATH ({found:?})");
}

/// Runs a command to completion within `limit`; panics with its output
/// unless it exits 0. Returns stdout.
async fn run(cmd: &mut Command, limit: Duration) -> String {
    let what = format!("{:?}", cmd.as_std());
    cmd.stdin(Stdio::null()).kill_on_drop(true);
    let started = Instant::now();
    let out = tokio::time::timeout(limit, cmd.output())
        .await
        .unwrap_or_else(|_| panic!("{what}: still running after {limit:?}"))
        .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{what}: {} in {:.1?}", out.status, started.elapsed());
    assert!(out.status.success(), "{what} exited with {}\n--- stdout\n{stdout}\n--- stderr\n{stderr}", out.status);
    if !stdout.is_empty() {
        eprintln!("{stdout}");
    }
    stdout
}

/// A lock file held while a test installs into and runs from a shared
/// directory: several `cargo test` runs may share one checkout. A lock
/// whose process is gone is taken over.
struct InstallLock(PathBuf);

impl InstallLock {
    async fn acquire(path: PathBuf) -> InstallLock {
        use std::io::Write;
        let give_up = Instant::now() + INSTALL_LIMIT + RUN_LIMIT;
        loop {
            match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(mut f) => {
                    write!(f, "{}", std::process::id()).unwrap();
                    return InstallLock(path);
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let holder = std::fs::read_to_string(&path).unwrap_or_default();
                    let holder = holder.trim();
                    if !holder.is_empty() && cfg!(target_os = "linux") && !Path::new("/proc").join(holder).exists() {
                        let _ = std::fs::remove_file(&path);
                        continue;
                    }
                    assert!(Instant::now() < give_up, "{} is held by process {holder}", path.display());
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => panic!("{}: {e}", path.display()),
            }
        }
    }
}

impl Drop for InstallLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
