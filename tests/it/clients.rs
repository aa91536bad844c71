//! The client packages, installed as an app installs them: clients/python
//! (a wheel, built here and installed into a virtualenv that never saw the
//! sources) and clients/typescript (the tarball `npm pack` makes, installed
//! into a scratch project). Each package's own test suite then runs with
//! the installed package: the conformance cases of
//! clients/conformance/cases.json against the real daemon binary and
//! against the package's fake, the client's rules, the freshness of the
//! committed generated code; and the examples, which are apps of the
//! packages, walk every outcome against a daemon and print what their
//! READMEs show.
//!
//! The suites run in a network namespace of their own whose loopback also
//! carries 192.0.2.1 (TEST-NET-1): a daemon listening there sees the suite's
//! calls come from an address that is not loopback, so a control call
//! without the admin token is refused as it is from another host.
//!
//! Installs are done once and redone only when what they install changes
//! (the pinned requirements, the wheel, the lock file, the tarball). Both
//! tests fail, never skip, when python3 or node is missing.
//!
//! Python runs on the highest version the machine has (the whole suite)
//! and on the lowest that `requires-python` allows (with the floor pins);
//! a version below it, when the machine has one, must fail to install the
//! floor pins (so the floor is no lower than what installs). The machine's
//! versions are `python3` and those pyenv holds. Each package then runs its
//! conformance cases once more the way an app's developer would against a
//! daemon they run: `LADDERD_ADDRESS` set, from a copy of the tests that
//! must be left as it was (nothing written into the checkout).

use crate::helpers::TestDaemon;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};
use tokio::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// target/tmp: scratch space cargo gives integration tests.
const SCRATCH: &str = env!("CARGO_TARGET_TMPDIR");
/// The address the suites' namespace adds to its loopback interface.
const OFF_LOOPBACK: &str = "192.0.2.1";

const INSTALL_LIMIT: Duration = Duration::from_secs(300);
const RUN_LIMIT: Duration = Duration::from_secs(120);

#[tokio::test]
async fn the_python_package_installs_from_its_wheel_and_passes_its_suite_and_the_example() {
    require("python3").await;
    let package = Path::new(ROOT).join("clients/python");
    let work = Path::new(SCRATCH).join("clients-python");
    std::fs::create_dir_all(&work).unwrap();
    let _lock = InstallLock::acquire(work.join("install.lock")).await;
    let pyproject: toml::Table = std::fs::read_to_string(package.join("pyproject.toml")).unwrap().parse().unwrap();
    let floor_minor = requires_python_minor(&pyproject);
    let machine = pythons().await;
    let highest = machine.last().expect("python3").clone();
    let lowest = machine.iter().find(|(minor, _)| *minor >= floor_minor).expect("a Python requires-python allows").clone();
    eprintln!("Pythons on this machine: {:?}; the suite runs on 3.{} and 3.{}", machine, highest.0, lowest.0);

    // A virtualenv with the pinned development tools (the test runner, the
    // type checker, the code generator, the wheel builder), made afresh
    // whenever requirements-dev.txt changes.
    let venv = work.join("venv");
    let python = venv.join("bin/python");
    let requirements = std::fs::read_to_string(package.join("requirements-dev.txt")).unwrap();
    let stamp = venv.join("ladder-requirements.txt");
    let wanted = format!("{}\n{requirements}", highest.1.display());
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(wanted.as_str()) {
        run(Command::new(&highest.1).args(["-m", "venv", "--clear"]).arg(&venv), INSTALL_LIMIT).await;
        run(pip(&python).arg("-r").arg(package.join("requirements-dev.txt")), INSTALL_LIMIT).await;
        std::fs::write(&stamp, &wanted).unwrap();
    }

    // The wheel, built from the sources (hatchling builds the same bytes
    // from the same sources), installed with its dependencies as an app
    // installs it; reinstalled whenever it changes.
    let wheels = work.join("wheel");
    let _ = std::fs::remove_dir_all(&wheels);
    let mut build = Command::new(&python);
    build.args(["-m", "build", "--wheel", "--sdist", "--no-isolation", "--outdir"]).arg(&wheels).arg(&package);
    run(&mut build, RUN_LIMIT).await;
    let wheel = only_file(&wheels, ".whl");
    // The licence ships in both.
    let sdist = only_file(&wheels, ".tar.gz");
    let mut shipped = Command::new(&python);
    shipped.arg("-c").arg(SHIPPED_LICENCES).arg(&wheel).arg(&sdist);
    let licences = run(&mut shipped, RUN_LIMIT).await;
    let licence = std::fs::read_to_string(Path::new(ROOT).join("LICENSE")).unwrap();
    assert_eq!(
        licences.split("\0").filter(|l| !l.trim().is_empty()).collect::<Vec<_>>(),
        [licence.as_str(), licence.as_str()],
        "LICENSE in the wheel and the sdist"
    );
    let name = wheel.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(name, format!("ladderd-{}-py3-none-any.whl", env!("CARGO_PKG_VERSION")), "the wheel carries the daemon's version");
    let installed = venv.join("ladder-wheel.sha256");
    let digest = sha256_of(&wheel);
    if std::fs::read_to_string(&installed).ok().as_deref() != Some(digest.as_str()) {
        run(pip(&python).args(["--force-reinstall", "--no-deps"]).arg(&wheel), INSTALL_LIMIT).await;
        run(pip(&python).arg(&wheel), INSTALL_LIMIT).await;
        std::fs::write(&installed, &digest).unwrap();
    }
    let mut which = Command::new(&python);
    which.args(["-c", "import ladderd; print(ladderd.__file__); print(ladderd.__version__)"]).current_dir(&work);
    let out = run(&mut which, RUN_LIMIT).await;
    let (file, version) = out.trim().split_once('\n').unwrap();
    assert!(Path::new(file).starts_with(&venv), "ladderd imported from {file}, not from the virtualenv");
    assert_eq!(version, env!("CARGO_PKG_VERSION"));

    // Type-checked as an app sees it: the installed package and its stubs.
    let cache = work.join("mypy-cache");
    let mut mypy = Command::new(&python);
    mypy.args(["-m", "mypy", "--strict", "--cache-dir"]).arg(&cache).arg("tests").current_dir(&package);
    run(&mut mypy, RUN_LIMIT).await;
    let mut mypy = Command::new(&python);
    mypy.args(["-m", "mypy", "--cache-dir"]).arg(&cache).arg(Path::new(ROOT).join("examples/python/turn_loop.py")).current_dir(&work);
    run(&mut mypy, RUN_LIMIT).await;

    // The package's suite, with the installed package.
    let mut pytest = in_a_network_namespace(&python);
    pytest
        .args(["-m", "pytest", "-q", "-rsx", "-p", "no:cacheprovider"])
        .current_dir(&package)
        .env("LADDERD_BIN", env!("CARGO_BIN_EXE_ladderd"))
        .env("LADDERD_TEST_OFF_LOOPBACK_HOST", OFF_LOOPBACK)
        .env("LADDERD_CONFORMANCE_STRICT", "1")
        .env("PYTHONDONTWRITEBYTECODE", "1");
    let out = run(&mut pytest, RUN_LIMIT).await;
    let summary = out.lines().last().unwrap_or_default();
    let pending = pending_cases() * 2; // with Client and with AsyncClient
    assert!(
        count(summary, "passed") > 80 && count(summary, "failed") + count(summary, "skipped") + count(summary, "error") == 0,
        "{summary}"
    );
    assert_eq!(count(summary, "xfailed"), pending, "the cases pending on the daemon, and only they, are expected to fail:\n{out}");

    // The suite again with the lowest versions pyproject.toml allows, on
    // the lowest Python it allows.
    let floor = work.join("floor");
    let floor_python = floor.join("bin/python");
    let pins = std::fs::read_to_string(package.join("requirements-floor.txt")).unwrap();
    let stamp = floor.join("ladder-requirements.txt");
    let wanted = format!("{}\n{pins}", lowest.1.display());
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(wanted.as_str()) {
        run(Command::new(&lowest.1).args(["-m", "venv", "--clear"]).arg(&floor), INSTALL_LIMIT).await;
        run(pip(&floor_python).arg("-r").arg(package.join("requirements-floor.txt")), INSTALL_LIMIT).await;
        std::fs::write(&stamp, &wanted).unwrap();
    }
    // Below the floor, the floor pins do not install: requires-python is
    // no lower than what installs.
    if let Some((minor, below)) = machine.iter().rev().find(|(minor, _)| *minor < floor_minor) {
        let stamp = work.join("below-floor.txt");
        let wanted = format!("{}\n{pins}", below.display());
        if std::fs::read_to_string(&stamp).ok().as_deref() != Some(wanted.as_str()) {
            let mut dry = Command::new(below);
            dry.args([
                "-m",
                "pip",
                "install",
                "--dry-run",
                "--quiet",
                "--disable-pip-version-check",
                "--no-input",
                "--ignore-installed",
                "-r",
            ])
            .arg(package.join("requirements-floor.txt"))
            .stdin(Stdio::null());
            let out = tokio::time::timeout(INSTALL_LIMIT, dry.output()).await.unwrap().unwrap();
            let said = String::from_utf8_lossy(&out.stderr);
            assert!(
                !out.status.success() && said.contains("Requires-Python"),
                "the floor pins install on 3.{minor}: lower requires-python\n{said}"
            );
            std::fs::write(&stamp, &wanted).unwrap();
        }
    }
    run(pip(&floor_python).args(["--force-reinstall", "--no-deps"]).arg(&wheel), INSTALL_LIMIT).await;
    let mut pytest = in_a_network_namespace(&floor_python);
    pytest
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_conformance.py", "tests/test_client.py", "tests/test_readme.py"])
        .current_dir(&package)
        .env("LADDERD_BIN", env!("CARGO_BIN_EXE_ladderd"))
        .env("LADDERD_TEST_OFF_LOOPBACK_HOST", OFF_LOOPBACK)
        .env("LADDERD_CONFORMANCE_STRICT", "1")
        .env("PYTHONDONTWRITEBYTECODE", "1");
    let out = run(&mut pytest, RUN_LIMIT).await;
    let summary = out.lines().last().unwrap_or_default();
    assert!(count(summary, "passed") > 70 && count(summary, "failed") + count(summary, "skipped") == 0, "{summary}");
    assert_eq!(count(summary, "xfailed"), pending, "{summary}");

    // The conformance cases against a daemon someone runs, from a copy of
    // the tests that nothing may write into: the suite starts no daemon.
    let d = TestDaemon::default().await;
    let copy = read_only_copy(&work, &[("clients/python/tests", "tests"), ("clients/conformance", "conformance")]);
    let before = listing(&copy);
    let mut pytest = Command::new(&python);
    pytest
        .args(["-B", "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_conformance.py", "-k", "against_the_daemon"])
        .current_dir(&copy)
        .env("LADDERD_ADDRESS", d.addr.to_string())
        .env("LADDERD_CONFORMANCE_CASES", copy.join("conformance/cases.json"))
        .env_remove("LADDERD_BIN")
        .env_remove("LADDERD_CONFORMANCE_STRICT");
    let out = run(&mut pytest, RUN_LIMIT).await;
    let summary = out.lines().last().unwrap_or_default();
    let (cases, off_loopback) = conformance_cases();
    assert_eq!(count(summary, "passed") + count(summary, "xfailed"), (cases - off_loopback) * 2, "{summary}");
    assert_eq!(count(summary, "skipped"), off_loopback * 2, "the cases that need the suite's own daemon: {summary}");
    assert_eq!(listing(&copy), before, "the suite wrote into the tests' directory");

    // The example, an app of the package.
    let d = TestDaemon::default().await;
    let mut turn_loop = Command::new(&python);
    turn_loop.arg(Path::new(ROOT).join("examples/python/turn_loop.py")).arg(d.addr.to_string()).env("PYTHONDONTWRITEBYTECODE", "1");
    let out = run(&mut turn_loop, RUN_LIMIT).await;
    assert_walked_every_outcome("python", &out);
    assert_prints_what_its_readme_shows("examples/python", &out);
}

#[tokio::test]
async fn the_typescript_package_installs_from_its_tarball_and_passes_its_suite_and_the_example() {
    require("node").await;
    require("npm").await;
    let package = Path::new(ROOT).join("clients/typescript");
    let work = Path::new(SCRATCH).join("clients-typescript");
    std::fs::create_dir_all(&work).unwrap();
    let _lock = InstallLock::acquire(work.join("install.lock")).await;

    // The package's development dependencies (buf, protoc-gen-es,
    // TypeScript), from its lock file: `npm ci` empties node_modules first,
    // so the stamp inside it survives only a complete install.
    let wanted = ["package.json", "package-lock.json"]
        .map(|f| std::fs::read_to_string(package.join(f)).unwrap_or_else(|e| panic!("{f}: {e}")))
        .join("\n");
    let stamp = package.join("node_modules/.ladder-installed");
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(wanted.as_str()) {
        run(npm(&package).args(["ci", "--include=dev", "--no-audit", "--no-fund"]), INSTALL_LIMIT).await;
        std::fs::write(&stamp, &wanted).unwrap();
    }
    // The committed src/gen and dist are what the proto and src make today.
    run(npm(&package).args(["run", "check"]), RUN_LIMIT).await;

    // The tarball (npm writes the same bytes for the same files), installed
    // into a scratch project whenever it changes.
    let packed = work.join("pack");
    let _ = std::fs::remove_dir_all(&packed);
    std::fs::create_dir_all(&packed).unwrap();
    run(npm(&package).args(["pack", "--pack-destination"]).arg(&packed), RUN_LIMIT).await;
    let tarball = only_file(&packed, ".tgz");
    let name = tarball.file_name().unwrap().to_string_lossy().into_owned();
    assert_eq!(name, format!("ladderd-{}.tgz", env!("CARGO_PKG_VERSION")), "the tarball carries the daemon's version");
    let shipped = run(Command::new("tar").args(["-xzOf"]).arg(&tarball).arg("package/LICENSE"), RUN_LIMIT).await;
    assert_eq!(shipped, std::fs::read_to_string(Path::new(ROOT).join("LICENSE")).unwrap(), "LICENSE in the tarball");
    let app = work.join("app");
    let digest = format!("{}\n{}", sha256_of(&tarball), APP_MANIFEST);
    let installed = app.join("node_modules/.ladder-installed");
    if std::fs::read_to_string(&installed).ok().as_deref() != Some(digest.as_str()) {
        let _ = std::fs::remove_dir_all(&app);
        std::fs::create_dir_all(&app).unwrap();
        let kept = work.join("ladderd.tgz");
        std::fs::copy(&tarball, &kept).unwrap();
        std::fs::write(app.join("package.json"), APP_MANIFEST.replace("TARBALL", &kept.to_string_lossy())).unwrap();
        run(npm(&app).args(["install", "--no-audit", "--no-fund"]), INSTALL_LIMIT).await;
        std::fs::write(&installed, &digest).unwrap();
    }

    // The package's tests, the README's app test and the example, compiled
    // in the app against the installed package's declarations.
    let sources = app.join("src");
    let _ = std::fs::remove_dir_all(&sources);
    let _ = std::fs::remove_dir_all(app.join("dist"));
    std::fs::create_dir_all(&sources).unwrap();
    for entry in std::fs::read_dir(package.join("test")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ts") {
            std::fs::copy(&path, sources.join(path.file_name().unwrap())).unwrap();
        }
    }
    std::fs::write(
        sources.join("readme.test.ts"),
        code_block(&std::fs::read_to_string(package.join("README.md")).unwrap(), "## Testing your app", "ts"),
    )
    .unwrap();
    std::fs::copy(Path::new(ROOT).join("examples/typescript/src/turnLoop.ts"), sources.join("turnLoop.ts")).unwrap();
    std::fs::write(app.join("tsconfig.json"), APP_TSCONFIG).unwrap();
    run(Command::new("node").current_dir(&app).args(["node_modules/typescript/bin/tsc", "-p", "."]), RUN_LIMIT).await;

    let mut suite = in_a_network_namespace(Path::new("node"));
    suite
        .current_dir(&app)
        .args(["--test", "dist/conformance.test.js", "dist/client.test.js", "dist/readme.test.js"])
        .env("LADDERD_BIN", env!("CARGO_BIN_EXE_ladderd"))
        .env("LADDERD_TEST_OFF_LOOPBACK_HOST", OFF_LOOPBACK)
        .env("LADDERD_CONFORMANCE_STRICT", "1")
        .env("LADDERD_CONFORMANCE_CASES", Path::new(ROOT).join("clients/conformance/cases.json"));
    let out = run(&mut suite, RUN_LIMIT).await;
    let total = |what: &str| -> usize {
        let line = out.lines().find(|l| l.starts_with(&format!("# {what} "))).unwrap_or_else(|| panic!("no `# {what}` line:\n{out}"));
        line[what.len() + 3..].trim().parse().unwrap()
    };
    assert_eq!((total("fail"), total("skipped"), total("cancelled")), (0, 0, 0), "{out}");
    assert!(total("pass") > 40, "{out}");
    assert_eq!(total("todo"), pending_cases(), "the cases pending on the daemon, and only they, are left to do:\n{out}");

    // The conformance cases against a daemon someone runs, with the cases
    // from a copy nothing may write into: the suite starts no daemon.
    let d = TestDaemon::default().await;
    let copy = read_only_copy(&work, &[("clients/conformance", "conformance")]);
    let before = listing(&copy);
    let mut suite = Command::new("node");
    suite
        .current_dir(&app)
        .args(["--test", "--test-name-pattern=against the daemon", "dist/conformance.test.js"])
        .env("LADDERD_ADDRESS", d.addr.to_string())
        .env("LADDERD_CONFORMANCE_CASES", copy.join("conformance/cases.json"))
        .env_remove("LADDERD_BIN")
        .env_remove("LADDERD_CONFORMANCE_STRICT");
    let out = run(&mut suite, RUN_LIMIT).await;
    let total = |what: &str| -> usize {
        let line = out.lines().find(|l| l.starts_with(&format!("# {what} "))).unwrap_or_else(|| panic!("no `# {what}` line:\n{out}"));
        line[what.len() + 3..].trim().parse().unwrap()
    };
    let (cases, off_loopback) = conformance_cases();
    assert_eq!(total("fail"), 0, "{out}");
    assert_eq!(total("pass") + total("todo"), cases - off_loopback, "the cases that need the suite's own daemon are skipped:\n{out}");
    assert_eq!(listing(&copy), before, "the suite wrote into the cases' directory");

    let d = TestDaemon::default().await;
    let mut turn_loop = Command::new("node");
    turn_loop.current_dir(&app).arg("dist/turnLoop.js").arg(d.addr.to_string());
    let out = run(&mut turn_loop, RUN_LIMIT).await;
    assert_walked_every_outcome("typescript", &out);
    assert_prints_what_its_readme_shows("examples/typescript", &out);
}

/// The scratch app that installs the tarball; the test's tools pinned as
/// in the package.
const APP_MANIFEST: &str = r#"{
  "name": "ladderd-scratch-app",
  "version": "1.0.0",
  "private": true,
  "type": "module",
  "dependencies": { "ladderd": "file:TARBALL" },
  "devDependencies": { "@types/node": "20.19.43", "typescript": "5.9.3" }
}
"#;

const APP_TSCONFIG: &str = r#"{
  "compilerOptions": {
    "target": "ES2022",
    "module": "node16",
    "moduleResolution": "node16",
    "rootDir": "src",
    "outDir": "dist",
    "strict": true,
    "noEmitOnError": true,
    "types": ["node"]
  },
  "include": ["src"]
}
"#;

#[test]
fn each_package_has_the_daemons_version() {
    let pyproject: toml::Table = std::fs::read_to_string(Path::new(ROOT).join("clients/python/pyproject.toml")).unwrap().parse().unwrap();
    assert_eq!(pyproject["project"]["version"].as_str(), Some(env!("CARGO_PKG_VERSION")), "clients/python/pyproject.toml");
    for manifest in ["clients/typescript/package.json", "clients/typescript/package-lock.json"] {
        let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(Path::new(ROOT).join(manifest)).unwrap()).unwrap();
        assert_eq!(json["version"].as_str(), Some(env!("CARGO_PKG_VERSION")), "{manifest}");
    }
}

#[test]
fn the_python_floor_pins_are_the_floors_pyproject_allows() {
    let pyproject: toml::Table = std::fs::read_to_string(Path::new(ROOT).join("clients/python/pyproject.toml")).unwrap().parse().unwrap();
    let dependencies: Vec<&str> = pyproject["project"]["dependencies"].as_array().unwrap().iter().map(|d| d.as_str().unwrap()).collect();
    let pins = std::fs::read_to_string(Path::new(ROOT).join("clients/python/requirements-floor.txt")).unwrap();
    for dependency in ["grpcio", "protobuf"] {
        let floor = dependencies
            .iter()
            .find_map(|d| d.strip_prefix(&format!("{dependency}>=")))
            .and_then(|rest| rest.split(',').next())
            .unwrap_or_else(|| panic!("pyproject.toml: no {dependency}>= floor in {dependencies:?}"));
        assert!(pins.lines().any(|l| l == format!("{dependency}=={floor}")), "requirements-floor.txt does not pin {dependency}=={floor}");
    }
    assert_eq!(dependencies.len(), 2, "grpcio and protobuf only: {dependencies:?}");
}

#[test]
fn the_licence_is_at_the_root_and_each_package_carries_it_unchanged() {
    let licence = std::fs::read_to_string(Path::new(ROOT).join("LICENSE")).unwrap();
    assert!(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"), "LICENSE is the Apache-2.0 text");
    for copy in ["clients/python/LICENSE", "clients/typescript/LICENSE"] {
        assert_eq!(std::fs::read_to_string(Path::new(ROOT).join(copy)).unwrap(), licence, "{copy} is not the root's LICENSE");
    }
    let package: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(Path::new(ROOT).join("clients/typescript/package.json")).unwrap()).unwrap();
    assert!(package["files"].as_array().unwrap().iter().any(|f| f == "LICENSE"), "package.json files");
}

/// A package's README is read where the package is installed, away from
/// the repository: it links nothing by a path it does not carry.
#[test]
fn the_package_readmes_link_only_what_they_carry() {
    for readme in ["clients/python/README.md", "clients/typescript/README.md"] {
        let text = std::fs::read_to_string(Path::new(ROOT).join(readme)).unwrap();
        for (i, _) in text.match_indices("](") {
            let target: String = text[i + 2..].chars().take_while(|c| *c != ')').collect();
            assert!(
                target.starts_with('#') || target.starts_with("https://"),
                "{readme} links {target:?}, which the package does not carry"
            );
        }
    }
}

/// Every package the TypeScript package's lock holds runs on the Node
/// versions its `engines` names: no install on the lowest of them warns
/// EBADENGINE.
#[test]
fn the_typescript_engines_are_what_every_locked_dependency_runs_on() {
    let read = |f: &str| -> serde_json::Value { serde_json::from_str(&std::fs::read_to_string(Path::new(ROOT).join(f)).unwrap()).unwrap() };
    let floor = |range: &str| -> Vec<u32> {
        let v = range.trim().strip_prefix(">=").unwrap_or_else(|| panic!("engines.node {range:?}: expected >=N[.N[.N]]"));
        v.split('.').map(|n| n.parse().unwrap()).collect()
    };
    let ours = floor(read("clients/typescript/package.json")["engines"]["node"].as_str().unwrap());
    for (name, p) in read("clients/typescript/package-lock.json")["packages"].as_object().unwrap() {
        if name.is_empty() || p["optional"] == true {
            continue;
        }
        if let Some(range) = p["engines"]["node"].as_str() {
            assert!(floor(range) <= ours, "{name} needs Node {range}, engines says >={ours:?}");
        }
    }
}

#[test]
fn both_readmes_share_one_table_of_options() {
    let table = |dir: &str| {
        let readme = std::fs::read_to_string(Path::new(ROOT).join(dir).join("README.md")).unwrap();
        let table = readme.split("<!-- options -->\n").nth(1).and_then(|r| r.split("<!-- /options -->").next()).map(str::to_string);
        table.unwrap_or_else(|| panic!("{dir}/README.md has no <!-- options --> table"))
    };
    let python = table("clients/python");
    assert_eq!(python, table("clients/typescript"), "the two READMEs' option tables differ");
    for default in ["127.0.0.1:50151", "1.5 s", "| 3 ", "LADDERD_ADDRESS", "LADDERD_ADMIN_TOKEN", "LADDER_ADMIN__TOKEN_FILE"] {
        assert!(python.contains(default), "the options table does not say {default}:\n{python}");
    }
}

/// Python's `-c` program that prints the LICENSE of a wheel and of an sdist
/// (argv 1 and 2), each followed by a NUL.
const SHIPPED_LICENCES: &str = r#"
import sys, tarfile, zipfile
with zipfile.ZipFile(sys.argv[1]) as w:
    names = [n for n in w.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
    sys.stdout.write(w.read(names[0]).decode() if names else "")
sys.stdout.write("\0")
with tarfile.open(sys.argv[2]) as t:
    names = [n for n in t.getnames() if n.count("/") == 1 and n.endswith("/LICENSE")]
    sys.stdout.write(t.extractfile(names[0]).read().decode() if names else "")
sys.stdout.write("\0")
"#;

/// The Pythons of this machine, by minor version (3.N), lowest first:
/// `python3`, and every version pyenv holds (`$(pyenv root)/versions`).
async fn pythons() -> Vec<(u32, PathBuf)> {
    let mut candidates = vec![PathBuf::from("python3")];
    if let Ok(out) = Command::new("pyenv").arg("root").stderr(Stdio::null()).output().await
        && out.status.success()
    {
        let root = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        for entry in std::fs::read_dir(root.join("versions")).into_iter().flatten().flatten() {
            candidates.push(entry.path().join("bin/python3"));
        }
    }
    let mut found = std::collections::BTreeMap::new();
    for python in candidates {
        let out = Command::new(&python).args(["-c", "import sys, venv; print(sys.version_info[0], sys.version_info[1])"]).output().await;
        if let Ok(out) = out
            && out.status.success()
            && let Some(("3", minor)) = String::from_utf8_lossy(&out.stdout).trim().split_once(' ')
            && let Ok(minor) = minor.parse::<u32>()
        {
            found.entry(minor).or_insert(python);
        }
    }
    found.into_iter().collect()
}

/// The minor version `requires-python` (">=3.N") names.
fn requires_python_minor(pyproject: &toml::Table) -> u32 {
    let spec = pyproject["project"]["requires-python"].as_str().unwrap();
    spec.strip_prefix(">=3.").and_then(|m| m.parse().ok()).unwrap_or_else(|| panic!("requires-python {spec:?}: expected >=3.N"))
}

/// `dirs` of the repository (repository path, name) copied afresh under
/// `work/read-only`: what a suite run there may read and never write
/// (root writes anywhere: `listing` before and after tells).
fn read_only_copy(work: &Path, dirs: &[(&str, &str)]) -> PathBuf {
    let copy = work.join("read-only");
    let _ = std::fs::remove_dir_all(&copy);
    std::fs::create_dir_all(&copy).unwrap();
    for (from, to) in dirs {
        let status = std::process::Command::new("cp").arg("-R").arg(Path::new(ROOT).join(from)).arg(copy.join(to)).status().unwrap();
        assert!(status.success(), "cp -R {from}");
    }
    copy
}

/// Every file and directory under `dir`, with its size and modification
/// time.
fn listing(dir: &Path) -> Vec<(PathBuf, u64, std::time::SystemTime)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::metadata(&path).unwrap();
            if meta.is_dir() {
                stack.push(path.clone());
            }
            out.push((path, meta.len(), meta.modified().unwrap()));
        }
    }
    out.sort();
    out
}

/// The conformance cases, and how many of them need the suite's own
/// daemon off loopback.
fn conformance_cases() -> (usize, usize) {
    let cases: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(Path::new(ROOT).join("clients/conformance/cases.json")).unwrap()).unwrap();
    let cases = cases["cases"].as_array().unwrap();
    (cases.len(), cases.iter().filter(|c| c["off_loopback"] == true).count())
}

/// How many conformance cases the daemon of this version is not expected
/// to pass yet (`pending_on_daemon`).
fn pending_cases() -> usize {
    let cases: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(Path::new(ROOT).join("clients/conformance/cases.json")).unwrap()).unwrap();
    cases["cases"].as_array().unwrap().iter().filter(|c| c.get("pending_on_daemon").is_some()).count()
}

/// "N word" in pytest's summary line; 0 when absent.
fn count(summary: &str, word: &str) -> usize {
    let words: Vec<&str> = summary.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    words.windows(2).find(|w| w[1] == word).map_or(0, |w| w[0].parse().unwrap())
}

/// The first `lang` code block after `heading` in `markdown`.
fn code_block(markdown: &str, heading: &str, lang: &str) -> String {
    let section = markdown.split(heading).nth(1).unwrap_or_else(|| panic!("no {heading}"));
    section.split(&format!("```{lang}\n")).nth(1).and_then(|b| b.split("```").next()).unwrap_or_else(|| panic!("no {lang} block")).into()
}

fn only_file(dir: &Path, suffix: &str) -> PathBuf {
    let found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().ends_with(suffix)))
        .collect();
    assert_eq!(found.len(), 1, "{}: {found:?}", dir.display());
    found.into_iter().next().unwrap()
}

fn sha256_of(path: &Path) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(std::fs::read(path).unwrap()))
}

fn pip(python: &Path) -> Command {
    let mut c = Command::new(python);
    c.args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input"]);
    c
}

fn npm(dir: &Path) -> Command {
    let mut c = Command::new("npm");
    c.current_dir(dir).env("npm_config_update_notifier", "false");
    c
}

/// `program` in a new user and network namespace (no privilege needed)
/// whose loopback interface is up and also carries `OFF_LOOPBACK`: nothing
/// in it can reach, or be reached from, any real network.
fn in_a_network_namespace(program: &Path) -> Command {
    let mut cmd = Command::new("unshare");
    cmd.args(["--user", "--map-root-user", "--net", "--", "sh", "-c"])
        .arg(format!("ip link set lo up && ip addr add {OFF_LOOPBACK}/32 dev lo && exec \"$0\" \"$@\""))
        .arg(program);
    cmd
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
        // detail (the clarifier's options sent as the screen), a "no, not
        // that one", and the app's own confirmations (OptionSet.asked)
        // declined and answered "yes".
        ("which_one", "OUTCOME_CLARIFY", ""),
        ("detail", "OUTCOME_EXECUTE", ""),
        ("not_that_one", "OUTCOME_CLARIFY", "repair"),
        ("detail_again", "OUTCOME_EXECUTE", ""),
        ("declined", "OUTCOME_ESCAPE", "decline"),
        ("yes", "OUTCOME_EXECUTE", "affirm"),
        // A clarifier answered by position, its options sent as the screen
        // in its order.
        ("which_panel", "OUTCOME_CLARIFY", ""),
        ("position", "OUTCOME_EXECUTE", "position"),
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
    assert!(out.contains("turn loop: 15 of 15 scenarios as expected"), "{client}:\n{out}");
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

/// Fails the test (no skip) when a tool the packages need is missing.
async fn require(tool: &str) {
    let found = Command::new(tool).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().await;
    assert!(matches!(found, Ok(s) if s.success()), "{tool} is required by the client-package tests and was not found on PATH ({found:?})");
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
        let give_up = Instant::now() + INSTALL_LIMIT + RUN_LIMIT * 4;
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
