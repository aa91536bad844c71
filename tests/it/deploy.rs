//! The deployment artifacts in `deploy/` must not drift from the daemon.
//!
//! Every Kustomize overlay is rendered with `kubectl kustomize` and validated
//! (strictly: unknown fields are errors) against the Kubernetes 1.29 schemas,
//! the oldest version with native sidecars on by default, and the newest
//! schemas the validator bundles. The validator is the PyPI package
//! `kubernetes-validate`, installed on first use into a virtualenv under
//! `target/` and reused after that; if it cannot be installed or run, these
//! tests fail, they never skip.
//!
//! The rendered manifests are then checked against the daemon itself: each
//! overlay's `ladderd.toml` goes through the real binary's
//! `ladderd config --check`, and the probe ports, env names, shutdown budget,
//! secret wiring and the Dockerfile are compared with what that effective
//! configuration says.

use figment::providers::Format;
use ladderd::config::Config;
use serde_json::Value;
use std::collections::BTreeSet;
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

const OVERLAYS: [&str; 3] = ["deterministic-only", "llm-enabled", "shared-state"];
/// Pinned: the bundled schemas come with the package version.
const VALIDATOR: &str = "kubernetes-validate==1.37.0";
const VALIDATOR_VERSION: &str = "1.37.0";
/// The oldest Kubernetes the manifests target (native sidecars, on by default).
const MIN_KUBERNETES: &str = "1.29.0";
/// Health service names kubelet's gRPC probes may ask for: the server as a
/// whole, or the Arbiter service (both SERVING until SIGTERM).
const HEALTH_SERVICES: [&str; 2] = ["", "ladder.v1.Arbiter"];
/// The daemon exits within 5 s of SIGTERM with the default 1 s drain: the
/// sidecar's share of the grace period is ceil(drain) + this margin.
const SIDECAR_EXIT_MARGIN_S: u64 = 4;
/// The example app's own drain budget, read from its container env.
const APP_SHUTDOWN_ENV: &str = "SHUTDOWN_TIMEOUT_SECONDS";
/// Names the config file; the config loader itself ignores it.
const CONFIG_PATH_ENV: &str = "LADDER_CONFIG";
/// The Secret holding the LLM API key, mounted as a file.
const LLM_SECRET: &str = "ladderd-llm";
/// The Secret holding the shared store's URL (overlay shared-state).
const REDIS_SECRET: &str = "ladderd-redis";

// ---------------------------------------------------------------------------
// Rendering and validation (once per test binary, shared by every test)
// ---------------------------------------------------------------------------

/// Validates stdin's YAML documents with kubernetes-validate (strict) against
/// each version given (`newest` = the newest bundled), and prints the
/// documents and the verdicts as JSON. Anything it cannot validate, including
/// a kind without a schema, is an error (the CLI would only warn).
const VALIDATE_PY: &str = r#"
import copy, json, sys
import yaml
import kubernetes_validate as kv
from kubernetes_validate import utils

versions = [utils.latest_version() if v == "newest" else v for v in sys.argv[1:]]
docs = [d for d in yaml.safe_load_all(sys.stdin.read()) if d]
errors, validated = [], []
for version in versions:
    for doc in docs:
        name = "%s/%s" % (doc.get("kind"), (doc.get("metadata") or {}).get("name"))
        try:
            used = kv.validate(doc, version, strict=True)
        except Exception as e:
            path = ".".join(str(p) for p in (getattr(e, "path", None) or []))
            errors.append("%s against %s: %s: %s" % (name, version, path, getattr(e, "message", None) or repr(e)))
            continue
        if used != utils.major_minor(version):
            errors.append("%s: asked for %s, validated against %s" % (name, version, used))
        else:
            validated.append("%s@%s" % (name, used))

# A control: the same Deployment with a misspelled field must be rejected.
control_rejected = None
for doc in docs:
    if doc.get("kind") == "Deployment":
        bad = copy.deepcopy(doc)
        bad["spec"]["template"]["spec"]["initContainers"][0]["restartPolicyy"] = "Always"
        try:
            kv.validate(bad, versions[0], strict=True)
            control_rejected = False
        except kv.ValidationError:
            control_rejected = True

json.dump({"validator": kv.__version__, "versions": versions, "docs": docs, "validated": validated,
           "errors": errors, "control_rejected": control_rejected}, sys.stdout)
"#;

struct Rendered {
    overlay: &'static str,
    docs: Vec<Value>,
    validator: String,
    versions: Vec<String>,
    validated: Vec<String>,
    errors: Vec<String>,
    control_rejected: Option<bool>,
}

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn kubernetes_dir() -> PathBuf {
    repo().join("deploy").join("kubernetes")
}

/// `target/` (or wherever cargo builds): the binary is `target/<profile>/ladderd`.
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_ladderd"))
        .parent()
        .and_then(Path::parent)
        .expect("the ladderd binary lives in <target>/<profile>/")
        .to_path_buf()
}

/// Runs a command to completion; Err carries what it printed.
fn run(cmd: &mut Command, what: &str) -> Result<std::process::Output, String> {
    let out = cmd.output().map_err(|e| format!("cannot {what}: {e} (command: {cmd:?})"))?;
    if out.status.success() {
        Ok(out)
    } else {
        Err(format!(
            "cannot {what}: {cmd:?} exited with {}\nstdout:\n{}\nstderr:\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

fn has_validator(python: &Path) -> bool {
    python.is_file()
        && Command::new(python)
            .args(["-c", &format!("import yaml, kubernetes_validate as kv; assert kv.__version__ == {VALIDATOR_VERSION:?}")])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
}

/// The virtualenv's python with kubernetes-validate, installed on first use
/// (into a temporary directory, then renamed, so a half-done install is
/// never mistaken for a working one).
fn validator_python() -> Result<PathBuf, String> {
    let venv = target_dir().join("deploy-venv");
    let python = venv.join("bin").join("python");
    if has_validator(&python) {
        return Ok(python);
    }
    let tmp = target_dir().join(format!("deploy-venv.tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let installed =
        run(Command::new("python3").args(["-m", "venv"]).arg(&tmp), "create a virtualenv for kubernetes-validate (python3 -m venv)")
            .and_then(|_| {
                run(
                    Command::new(tmp.join("bin").join("python")).args([
                        "-m",
                        "pip",
                        "install",
                        "--quiet",
                        "--disable-pip-version-check",
                        VALIDATOR,
                    ]),
                    "install kubernetes-validate from PyPI",
                )
            });
    if let Err(e) = installed {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    if has_validator(&python) {
        // Another test process finished first.
        let _ = std::fs::remove_dir_all(&tmp);
    } else {
        let _ = std::fs::remove_dir_all(&venv);
        std::fs::rename(&tmp, &venv).map_err(|e| format!("cannot move {} to {}: {e}", tmp.display(), venv.display()))?;
    }
    if has_validator(&python) {
        Ok(python)
    } else {
        Err(format!("{} cannot import kubernetes_validate {VALIDATOR_VERSION}", python.display()))
    }
}

fn render_and_validate(python: &Path, overlay: &'static str) -> Result<Rendered, String> {
    let dir = kubernetes_dir().join("overlays").join(overlay);
    let yaml = run(Command::new("kubectl").arg("kustomize").arg(&dir), &format!("render overlay {overlay} with kubectl kustomize"))?.stdout;
    let mut child = Command::new(python)
        .args(["-c", VALIDATE_PY, MIN_KUBERNETES, "newest"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    child.stdin.take().expect("piped stdin").write_all(&yaml).map_err(|e| format!("cannot feed the validator: {e}"))?;
    let out = child.wait_with_output().map_err(|e| format!("validator: {e}"))?;
    if !out.status.success() {
        return Err(format!("the validator failed on {overlay} ({}):\n{}", out.status, String::from_utf8_lossy(&out.stderr)));
    }
    let v: Value = serde_json::from_slice(&out.stdout).map_err(|e| format!("validator output is not JSON: {e}"))?;
    let strings = |k: &str| -> Vec<String> {
        v[k].as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect()).unwrap_or_default()
    };
    Ok(Rendered {
        overlay,
        docs: v["docs"].as_array().cloned().unwrap_or_default(),
        validator: v["validator"].as_str().unwrap_or_default().to_string(),
        versions: strings("versions"),
        validated: strings("validated"),
        errors: strings("errors"),
        control_rejected: v["control_rejected"].as_bool(),
    })
}

/// Every overlay, rendered and validated once; a failure to set up fails
/// every test that needs it (never a skip).
fn overlays() -> &'static [Rendered] {
    static RENDERED: OnceLock<Result<Vec<Rendered>, String>> = OnceLock::new();
    let r = RENDERED.get_or_init(|| {
        let python = validator_python()?;
        OVERLAYS.iter().map(|o| render_and_validate(&python, o)).collect()
    });
    match r {
        Ok(v) => v,
        Err(e) => panic!("cannot render and validate the Kubernetes manifests: {e}"),
    }
}

// ---------------------------------------------------------------------------
// Reading the rendered manifests
// ---------------------------------------------------------------------------

fn docs_of_kind<'a>(r: &'a Rendered, kind: &str) -> Vec<&'a Value> {
    r.docs.iter().filter(|d| d["kind"] == kind).collect()
}

fn deployment(r: &Rendered) -> &Value {
    let d = docs_of_kind(r, "Deployment");
    assert_eq!(d.len(), 1, "{}: expected one Deployment", r.overlay);
    d[0]
}

fn pod_spec(r: &Rendered) -> &Value {
    &deployment(r)["spec"]["template"]["spec"]
}

fn list(v: &Value) -> &[Value] {
    v.as_array().map(Vec::as_slice).unwrap_or_default()
}

fn sidecar(r: &Rendered) -> &Value {
    let pod = pod_spec(r);
    assert!(
        !list(&pod["containers"]).iter().any(|c| c["name"] == "ladderd"),
        "{}: ladderd must be an init container (native sidecar), not a regular container",
        r.overlay
    );
    list(&pod["initContainers"])
        .iter()
        .find(|c| c["name"] == "ladderd")
        .unwrap_or_else(|| panic!("{}: no ladderd init container", r.overlay))
}

fn app(r: &Rendered) -> &Value {
    list(&pod_spec(r)["containers"]).iter().find(|c| c["name"] == "app").unwrap_or_else(|| panic!("{}: no app container", r.overlay))
}

fn all_containers(r: &Rendered) -> impl Iterator<Item = &Value> {
    let pod = pod_spec(r);
    list(&pod["initContainers"]).iter().chain(list(&pod["containers"]))
}

fn env<'a>(container: &'a Value, name: &str) -> Option<&'a str> {
    list(&container["env"]).iter().find(|e| e["name"] == name).and_then(|e| e["value"].as_str())
}

fn volume<'a>(r: &'a Rendered, name: &str) -> &'a Value {
    list(&pod_spec(r)["volumes"]).iter().find(|v| v["name"] == name).unwrap_or_else(|| panic!("{}: no volume {name}", r.overlay))
}

/// The sidecar's mount whose directory holds `file`, and its volume.
fn mount_of<'a>(r: &'a Rendered, file: &Path) -> Option<(&'a Value, &'a Value)> {
    let dir = file.parent()?.to_str()?;
    let m = list(&sidecar(r)["volumeMounts"]).iter().find(|m| m["mountPath"].as_str().map(|p| p.trim_end_matches('/')) == Some(dir))?;
    Some((m, volume(r, m["name"].as_str()?)))
}

/// The `ladderd.toml` the sidecar reads: the file LADDER_CONFIG names, in
/// the ConfigMap mounted at its directory.
fn ladderd_toml(r: &Rendered) -> &str {
    let path = Path::new(env(sidecar(r), CONFIG_PATH_ENV).unwrap_or_else(|| panic!("{}: ladderd has no {CONFIG_PATH_ENV}", r.overlay)));
    let (mount, vol) = mount_of(r, path).unwrap_or_else(|| panic!("{}: nothing is mounted at {}'s directory", r.overlay, path.display()));
    assert_eq!(mount["readOnly"], true, "{}: the config mount must be read-only", r.overlay);
    let cm_name =
        vol["configMap"]["name"].as_str().unwrap_or_else(|| panic!("{}: {CONFIG_PATH_ENV} is not in a ConfigMap volume", r.overlay));
    let cm = docs_of_kind(r, "ConfigMap")
        .into_iter()
        .find(|c| c["metadata"]["name"] == cm_name)
        .unwrap_or_else(|| panic!("{}: the volume names ConfigMap {cm_name}, which is not rendered", r.overlay));
    let key = path.file_name().and_then(|f| f.to_str()).expect("a file name");
    cm["data"][key].as_str().unwrap_or_else(|| panic!("{}: ConfigMap {cm_name} has no key {key}", r.overlay))
}

/// Points the config's mounted-secret files (`llm.api_key_file`,
/// `sessions.redis.url_file`) at stand-ins in `dir`: the real ones exist
/// only in the pod.
fn stand_in_secret_files(table: &mut toml::Table, dir: &Path) {
    if let Some(llm) = table.get_mut("llm").and_then(toml::Value::as_table_mut)
        && llm.contains_key("api_key_file")
    {
        let key = dir.join("api-key");
        std::fs::write(&key, "test-key\n").expect("write a stand-in key");
        llm.insert("api_key_file".into(), toml::Value::String(key.display().to_string()));
    }
    if let Some(redis) = table.get_mut("sessions").and_then(|s| s.get_mut("redis")).and_then(toml::Value::as_table_mut)
        && redis.contains_key("url_file")
    {
        let url = dir.join("redis-url");
        std::fs::write(&url, "rediss://:test-password@redis.example.internal:6380/0\n").expect("write a stand-in URL");
        redis.insert("url_file".into(), toml::Value::String(url.display().to_string()));
    }
}

/// The configuration the daemon would run with in this overlay: its
/// `ladderd.toml` and the sidecar's `LADDER_*` env, through the real binary's
/// `ladderd config --check --print` (which prints the effective configuration). A
/// mounted-secret key file is stood in for by a temporary file.
fn effective_config(r: &Rendered) -> toml::Table {
    let mut table: toml::Table = ladderd_toml(r).parse().unwrap_or_else(|e| panic!("{}: ladderd.toml is not TOML: {e}", r.overlay));
    let tmp = tempfile::tempdir().expect("a temp dir");
    stand_in_secret_files(&mut table, tmp.path());
    let file = tmp.path().join("ladderd.toml");
    std::fs::write(&file, toml::to_string(&table).expect("serialize TOML")).expect("write config");

    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ladderd"));
    cmd.arg("config").arg("--check").arg(&file).arg("--print");
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().starts_with("LADDER_") {
            cmd.env_remove(k);
        }
    }
    for e in list(&sidecar(r)["env"]) {
        let name = e["name"].as_str().unwrap_or_default();
        if name.starts_with("LADDER_")
            && name != CONFIG_PATH_ENV
            && let Some(v) = e["value"].as_str()
        {
            cmd.env(name, v);
        }
    }
    let out =
        run(&mut cmd, &format!("check overlay {}'s ladderd.toml with the daemon's loader", r.overlay)).unwrap_or_else(|e| panic!("{e}"));
    String::from_utf8_lossy(&out.stdout).parse().unwrap_or_else(|e| panic!("`ladderd config` printed something that is not TOML: {e}"))
}

fn listen_addr(config: &toml::Table) -> SocketAddr {
    config["listen"].as_str().expect("listen is a string").parse().expect("listen is an address")
}

/// `admin.listen` of an effective configuration (unset: no admin port).
fn admin_addr(config: &toml::Table) -> Option<SocketAddr> {
    config.get("admin")?.get("listen")?.as_str().map(|a| a.parse().expect("admin.listen is an address"))
}

/// Why `listen` (the Arbiter's address) would let other hosts call it:
/// `None` when it is loopback.
fn arbiter_exposed(listen: &str) -> Option<String> {
    match listen.parse::<SocketAddr>() {
        Ok(a) if ladderd::grpc::guard::on_loopback(a.ip()) => None,
        Ok(a) => Some(format!("{a} is not a loopback address")),
        Err(_) => Some(format!("{listen:?} is not an address")),
    }
}

fn drain_grace_ms(config: &toml::Table) -> u64 {
    config["server"]["drain_grace_ms"].as_integer().expect("server.drain_grace_ms") as u64
}

/// Dotted leaf keys of a TOML table.
fn toml_keys(prefix: &str, t: &toml::Table, out: &mut BTreeSet<String>) {
    for (k, v) in t {
        let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
        match v {
            toml::Value::Table(inner) => toml_keys(&key, inner, out),
            _ => {
                out.insert(key);
            }
        }
    }
}

/// Every configuration key the daemon has (unset options included).
fn config_keys() -> BTreeSet<String> {
    fn flatten(prefix: &str, v: &Value, out: &mut BTreeSet<String>) {
        match v {
            Value::Object(m) => {
                for (k, v) in m {
                    flatten(&if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") }, v, out);
                }
            }
            _ => {
                out.insert(prefix.to_string());
            }
        }
    }
    let mut keys = BTreeSet::new();
    flatten("", &serde_json::to_value(Config::default()).expect("config serializes"), &mut keys);
    keys
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[test]
fn every_overlay_renders_and_validates_against_the_kubernetes_1_29_and_newest_bundled_schemas() {
    for r in overlays() {
        assert!(r.errors.is_empty(), "{}: the rendered manifests do not validate:\n{}", r.overlay, r.errors.join("\n"));
        assert_eq!(r.validator, VALIDATOR_VERSION, "{}: unexpected kubernetes-validate", r.overlay);
        assert_eq!(r.versions.first().map(String::as_str), Some(MIN_KUBERNETES), "{}", r.overlay);
        let kinds: BTreeSet<&str> = r.docs.iter().filter_map(|d| d["kind"].as_str()).collect();
        for kind in ["ConfigMap", "Deployment", "NetworkPolicy", "Service"] {
            assert!(kinds.contains(kind), "{}: no {kind} rendered (have {kinds:?})", r.overlay);
        }
        // Every document, against every version asked for.
        assert_eq!(r.validated.len(), r.docs.len() * r.versions.len(), "{}: validated {:?}", r.overlay, r.validated);
        for v in &r.versions {
            let mm: String = v.split('.').take(2).collect::<Vec<_>>().join(".");
            assert!(r.validated.iter().any(|s| s.ends_with(&format!("@{mm}"))), "{}: nothing validated against {v}", r.overlay);
        }
    }
}

#[test]
fn the_schema_validation_is_strict_enough_to_reject_a_misspelled_field() {
    for r in overlays() {
        assert_eq!(r.control_rejected, Some(true), "{}: the validator accepted a Deployment with an unknown field", r.overlay);
    }
}

#[test]
fn every_overlays_ladderd_toml_passes_the_daemons_own_config_check() {
    for r in overlays() {
        // Panics with the daemon's own list of problems on failure.
        let config = effective_config(r);
        assert_eq!(config["telemetry"]["log_format"].as_str(), Some("json"), "{}: logs in a cluster are JSON", r.overlay);
        assert_ne!(config["telemetry"]["redact_input"].as_str(), Some("off"), "{}: user text must not reach the logs", r.overlay);
        assert_eq!(config["auto_execute"]["enabled"].as_bool(), Some(false), "{}: auto-execution stays off", r.overlay);
    }
}

#[test]
fn every_key_in_every_ladderd_toml_is_a_daemon_config_key() {
    let known = config_keys();
    for r in overlays() {
        let text = ladderd_toml(r);
        let table: toml::Table = text.parse().expect("TOML");
        let mut keys = BTreeSet::new();
        toml_keys("", &table, &mut keys);
        let unknown: Vec<_> = keys.difference(&known).collect();
        assert!(unknown.is_empty(), "{}: ladderd.toml has keys the daemon does not know: {unknown:?}", r.overlay);
        // And the daemon's own loader, in process, accepts the file's shape.
        let mut table = table;
        let tmp = tempfile::tempdir().expect("a temp dir");
        stand_in_secret_files(&mut table, tmp.path());
        let f = figment::Figment::from(figment::providers::Serialized::defaults(Config::default()))
            .merge(figment::providers::Toml::string(&toml::to_string(&table).expect("TOML")));
        if let Err(e) = ladderd::config::from_figment(f) {
            panic!("{}: the daemon's loader rejects ladderd.toml: {e}", r.overlay);
        }
    }
}

#[test]
fn the_probes_and_the_container_port_use_the_admin_port_and_the_app_calls_the_loopback_data_port() {
    for r in overlays() {
        let config = effective_config(r);
        let data = listen_addr(&config);
        let admin = admin_addr(&config).unwrap_or_else(|| panic!("{}: no admin.listen: kubelet's probes need the admin port", r.overlay));
        assert!(
            admin.ip().is_unspecified(),
            "{}: admin.listen is {admin}; kubelet's gRPC probes dial the pod IP, so the admin port must be on 0.0.0.0",
            r.overlay
        );
        assert_ne!(admin.port(), data.port(), "{}", r.overlay);
        let sc = sidecar(r);
        let ports: Vec<u64> = list(&sc["ports"]).iter().filter_map(|p| p["containerPort"].as_u64()).collect();
        assert_eq!(ports, vec![u64::from(admin.port())], "{}: ladderd's only containerPort is the admin port", r.overlay);
        for probe in ["startupProbe", "readinessProbe", "livenessProbe"] {
            let p = &sc[probe];
            assert!(p.is_object(), "{}: ladderd has no {probe}", r.overlay);
            for other in ["httpGet", "tcpSocket", "exec"] {
                assert!(p[other].is_null(), "{}: {probe} must be a gRPC probe, not {other}", r.overlay);
            }
            assert_eq!(p["grpc"]["port"].as_u64(), Some(u64::from(admin.port())), "{}: {probe} port", r.overlay);
            let service = p["grpc"]["service"].as_str().unwrap_or("");
            assert!(HEALTH_SERVICES.contains(&service), "{}: {probe} asks for health service {service:?}", r.overlay);
        }
        // The example app is told where to reach ladderd: loopback, the data port.
        assert_eq!(env(app(r), "LADDERD_GRPC_TARGET"), Some(format!("127.0.0.1:{}", data.port()).as_str()), "{}", r.overlay);
    }
}

#[test]
fn no_manifest_binds_the_arbiter_to_a_non_loopback_address() {
    // The check can fail: these would expose every call to the pod network.
    for exposed in ["0.0.0.0:50151", "[::]:50151", "10.1.2.3:50151", "nowhere"] {
        assert!(arbiter_exposed(exposed).is_some(), "{exposed}");
    }
    for r in overlays() {
        // What the daemon runs with (the file and the sidecar's env).
        let listen = effective_config(r)["listen"].as_str().expect("listen").to_string();
        assert_eq!(arbiter_exposed(&listen), None, "{}: the sidecar's effective listen", r.overlay);
        // Any LADDER_LISTEN in any container, and `listen` in any TOML a
        // rendered ConfigMap holds.
        for c in all_containers(r) {
            for e in list(&c["env"]).iter().filter(|e| e["name"] == "LADDER_LISTEN") {
                let v = e["value"].as_str().unwrap_or_default();
                assert_eq!(arbiter_exposed(v), None, "{}: {} sets LADDER_LISTEN", r.overlay, c["name"]);
            }
        }
        for cm in docs_of_kind(r, "ConfigMap") {
            for (key, text) in cm["data"].as_object().into_iter().flatten() {
                let Some(t) = text.as_str().and_then(|t| t.parse::<toml::Table>().ok()) else { continue };
                if let Some(l) = t.get("listen") {
                    assert_eq!(arbiter_exposed(l.as_str().unwrap_or_default()), None, "{}: ConfigMap key {key}", r.overlay);
                }
            }
        }
    }
    // And every ladderd.toml in deploy/, rendered or not.
    let mut files = Vec::new();
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "toml") {
                out.push(p);
            }
        }
    }
    walk(&repo().join("deploy"), &mut files);
    assert!(files.len() >= 3, "{files:?}");
    for f in files {
        let t: toml::Table = read(&f).parse().expect("TOML");
        let listen = t.get("listen").and_then(toml::Value::as_str).unwrap_or(&Config::default().listen).to_string();
        assert_eq!(arbiter_exposed(&listen), None, "{}", f.display());
    }
}

#[test]
fn neither_port_of_ladderd_is_admitted_by_the_network_policy_or_published_by_a_service() {
    for r in overlays() {
        let config = effective_config(r);
        let ports = [listen_addr(&config).port(), admin_addr(&config).expect("admin.listen").port()];
        let named = |v: &Value| v == "grpc" || v == "admin";
        let pod_labels = &deployment(r)["spec"]["template"]["metadata"]["labels"];
        let policies = docs_of_kind(r, "NetworkPolicy");
        let covering: Vec<&&Value> = policies
            .iter()
            .filter(|p| {
                p["spec"]["podSelector"]["matchLabels"].as_object().is_some_and(|m| m.iter().all(|(k, v)| pod_labels[k] == *v))
                    && list(&p["spec"]["policyTypes"]).iter().any(|t| t == "Ingress")
            })
            .collect();
        assert!(!covering.is_empty(), "{}: no NetworkPolicy restricts ingress to the pod", r.overlay);
        for p in covering {
            for rule in list(&p["spec"]["ingress"]) {
                let rule_ports = list(&rule["ports"]);
                assert!(!rule_ports.is_empty(), "{}: an ingress rule without ports admits ladderd's ports", r.overlay);
                for pp in rule_ports {
                    assert!(
                        !ports.iter().any(|port| pp["port"].as_u64() == Some(u64::from(*port))) && !named(&pp["port"]),
                        "{}: the NetworkPolicy admits one of ladderd's ports {ports:?}",
                        r.overlay
                    );
                }
            }
        }
        for s in docs_of_kind(r, "Service") {
            for sp in list(&s["spec"]["ports"]) {
                assert!(
                    !ports.iter().any(|port| sp["targetPort"].as_u64() == Some(u64::from(*port))) && !named(&sp["targetPort"]),
                    "{}: Service {} publishes one of ladderd's ports",
                    r.overlay,
                    s["metadata"]["name"]
                );
            }
        }
    }
}

#[test]
fn every_ladder_env_var_in_the_manifests_names_a_real_config_key() {
    let known = config_keys();
    for r in overlays() {
        assert!(sidecar(r)["envFrom"].is_null(), "{}: envFrom could smuggle unknown LADDER_* keys into ladderd", r.overlay);
        for c in all_containers(r) {
            for e in list(&c["env"]) {
                let name = e["name"].as_str().unwrap_or_default();
                let Some(rest) = name.strip_prefix("LADDER_") else { continue };
                if name == CONFIG_PATH_ENV {
                    continue; // the file's path; checked by ladderd_toml()
                }
                let key = rest.to_lowercase().replace("__", ".");
                assert!(known.contains(&key), "{}: {} sets {name}, which names no config key ({key})", r.overlay, c["name"]);
                assert!(e["valueFrom"].is_null(), "{}: {name}: configuration comes from literal values", r.overlay);
            }
        }
        // The config file is found through LADDER_CONFIG (and resolves).
        assert!(!ladderd_toml(r).is_empty(), "{}", r.overlay);
    }
}

#[test]
fn the_termination_grace_period_covers_the_app_drain_plus_the_sidecar_drain() {
    for r in overlays() {
        let config = effective_config(r);
        let drain_s = drain_grace_ms(&config).div_ceil(1000);
        let pod = pod_spec(r);
        let grace =
            pod["terminationGracePeriodSeconds"].as_u64().unwrap_or_else(|| panic!("{}: no terminationGracePeriodSeconds", r.overlay));
        let app_s: u64 = env(app(r), APP_SHUTDOWN_ENV)
            .unwrap_or_else(|| panic!("{}: the app has no {APP_SHUTDOWN_ENV}", r.overlay))
            .parse()
            .expect("seconds");
        // Native sidecar: the app drains first, then ladderd; one clock.
        let needed = app_s + drain_s + SIDECAR_EXIT_MARGIN_S;
        assert!(
            grace >= needed,
            "{}: terminationGracePeriodSeconds {grace} < app {app_s} s + ladderd drain {drain_s} s + {SIDECAR_EXIT_MARGIN_S} s margin",
            r.overlay
        );
        assert!(drain_s < grace, "{}", r.overlay);
    }
}

#[test]
fn ladderd_runs_as_a_native_sidecar_with_resources_and_a_strict_security_context() {
    for r in overlays() {
        let pod = pod_spec(r);
        let sc = sidecar(r);
        assert_eq!(sc["restartPolicy"], "Always", "{}: a native sidecar has restartPolicy: Always", r.overlay);
        assert_eq!(pod["automountServiceAccountToken"], false, "{}", r.overlay);
        assert_eq!(pod["enableServiceLinks"], false, "{}: Service env vars named LADDER_* would break the config", r.overlay);
        let image = sc["image"].as_str().unwrap_or_default();
        assert!(image.contains(':') && !image.ends_with(":latest"), "{}: pin ladderd's image, not {image:?}", r.overlay);

        let res = &sc["resources"];
        for k in ["cpu", "memory"] {
            assert!(res["requests"][k].is_string(), "{}: ladderd requests no {k}", r.overlay);
        }
        assert!(res["limits"]["memory"].is_string(), "{}: ladderd has no memory limit", r.overlay);
        assert!(res["limits"]["cpu"].is_null(), "{}: no CPU limit on ladderd (throttling adds latency; see the comment)", r.overlay);

        let psc = &pod["securityContext"];
        for c in all_containers(r) {
            let name = &c["name"];
            let csc = &c["securityContext"];
            let either = |k: &str| if csc[k].is_null() { &psc[k] } else { &csc[k] };
            assert_eq!(*either("runAsNonRoot"), true, "{}: {name} runAsNonRoot", r.overlay);
            assert_ne!(either("runAsUser").as_u64(), Some(0), "{}: {name} runs as root", r.overlay);
            assert_eq!(either("seccompProfile")["type"], "RuntimeDefault", "{}: {name} seccomp", r.overlay);
            assert_eq!(csc["readOnlyRootFilesystem"], true, "{}: {name} readOnlyRootFilesystem", r.overlay);
            assert_eq!(csc["allowPrivilegeEscalation"], false, "{}: {name} allowPrivilegeEscalation", r.overlay);
            assert_ne!(csc["privileged"], true, "{}: {name} privileged", r.overlay);
            assert!(list(&csc["capabilities"]["drop"]).iter().any(|d| d == "ALL"), "{}: {name} must drop ALL capabilities", r.overlay);
            assert!(list(&csc["capabilities"]["add"]).is_empty(), "{}: {name} adds capabilities", r.overlay);
        }
        for m in list(&sc["volumeMounts"]) {
            assert_eq!(m["readOnly"], true, "{}: ladderd's mount {} must be read-only", r.overlay, m["mountPath"]);
        }
    }
}

#[test]
fn traces_go_to_an_opentelemetry_collector_service() {
    for r in overlays() {
        let sc = sidecar(r);
        let endpoint = env(sc, "OTEL_EXPORTER_OTLP_ENDPOINT").unwrap_or_else(|| panic!("{}: no OTEL_EXPORTER_OTLP_ENDPOINT", r.overlay));
        let url = reqwest::Url::parse(endpoint).unwrap_or_else(|e| panic!("{}: OTEL_EXPORTER_OTLP_ENDPOINT {endpoint:?}: {e}", r.overlay));
        assert!(matches!(url.scheme(), "http" | "https"), "{}: {endpoint}", r.overlay);
        let host = url.host_str().unwrap_or_default();
        assert!(!host.is_empty() && host != "localhost" && host != "127.0.0.1", "{}: the collector is a Service, not {host:?}", r.overlay);
        assert_eq!(url.port(), Some(4317), "{}: OTLP/gRPC is port 4317", r.overlay);
        assert_eq!(env(sc, "OTEL_SERVICE_NAME"), Some("ladderd"), "{}", r.overlay);
        assert!(env(sc, "OTEL_TRACES_SAMPLER").is_some_and(|s| !s.is_empty()), "{}: no OTEL_TRACES_SAMPLER", r.overlay);
    }
}

#[test]
fn the_llm_api_key_comes_only_from_a_mounted_secret_file() {
    for r in overlays() {
        let config = effective_config(r);
        assert!(docs_of_kind(r, "Secret").is_empty(), "{}: a Secret is rendered: keys never live in the repo", r.overlay);
        let sc = sidecar(r);
        for e in list(&sc["env"]) {
            assert_ne!(e["name"], "LADDER_LLM__API_KEY", "{}: the API key must not be in the environment", r.overlay);
            assert!(e["valueFrom"]["secretKeyRef"].is_null(), "{}: no secret in the environment ({})", r.overlay, e["name"]);
        }
        let file_toml: toml::Table = ladderd_toml(r).parse().expect("TOML");
        let llm = file_toml.get("llm").and_then(toml::Value::as_table);
        assert!(llm.is_none_or(|l| !l.contains_key("api_key")), "{}: llm.api_key in a ConfigMap", r.overlay);
        let key_file = llm.and_then(|l| l.get("api_key_file")).and_then(toml::Value::as_str);
        let llm_on = config.get("llm").and_then(|l| l.get("base_url")).is_some();
        match r.overlay {
            "shared-state" => {
                assert!(!llm_on, "shared-state sets llm.base_url (it is the base plus a shared store)");
                assert!(key_file.is_none(), "shared-state names an API key file");
            }
            "deterministic-only" => {
                assert!(!llm_on, "deterministic-only sets llm.base_url");
                assert!(key_file.is_none(), "deterministic-only names an API key file");
                assert!(
                    !list(&pod_spec(r)["volumes"]).iter().any(|v| v["secret"].is_object()),
                    "deterministic-only mounts a secret it does not need"
                );
            }
            "llm-enabled" => {
                assert!(llm_on, "llm-enabled does not set llm.base_url");
                assert!(
                    config["llm"].get("model").and_then(toml::Value::as_str).is_some_and(|m| !m.is_empty()),
                    "llm-enabled has no model"
                );
                let key_file = Path::new(key_file.expect("llm-enabled sets llm.api_key_file"));
                let (_, vol) = mount_of(r, key_file).unwrap_or_else(|| panic!("nothing is mounted at {}'s directory", key_file.display()));
                assert_eq!(vol["secret"]["secretName"], LLM_SECRET, "llm.api_key_file must come from the Secret {LLM_SECRET}");
                let file_name = key_file.file_name().and_then(|f| f.to_str()).expect("a file name");
                assert!(
                    list(&vol["secret"]["items"]).iter().any(|i| i["path"] == file_name),
                    "the Secret volume does not project {file_name}"
                );
                let mode = vol["secret"]["defaultMode"].as_u64().unwrap_or(0o644);
                assert_eq!(mode & 0o007, 0, "the key file is world-readable (mode {mode:o})");
            }
            other => panic!("unexpected overlay {other}"),
        }
    }
}

#[test]
fn the_llm_overlay_config_differs_from_the_base_only_in_its_llm_section() {
    let dir = kubernetes_dir();
    let base: toml::Table = read(&dir.join("base/ladderd.toml")).parse().expect("base TOML");
    let mut llm: toml::Table = read(&dir.join("overlays/llm-enabled/ladderd.toml")).parse().expect("overlay TOML");
    assert!(base.get("llm").is_none(), "the base is deterministic only: no [llm]");
    assert!(llm.remove("llm").is_some(), "the llm-enabled overlay has no [llm]");
    assert_eq!(llm, base, "outside [llm], overlays/llm-enabled/ladderd.toml must equal base/ladderd.toml");
    for r in overlays().iter().filter(|r| r.overlay == "deterministic-only") {
        assert_eq!(ladderd_toml(r), read(&dir.join("base/ladderd.toml")), "deterministic-only uses the base's ladderd.toml");
    }
}

#[test]
fn the_shared_state_overlay_reads_the_store_url_from_a_mounted_secret_and_differs_from_the_base_only_in_sessions() {
    let dir = kubernetes_dir();
    let base: toml::Table = read(&dir.join("base/ladderd.toml")).parse().expect("base TOML");
    let mut shared: toml::Table = read(&dir.join("overlays/shared-state/ladderd.toml")).parse().expect("overlay TOML");
    let sessions = shared.remove("sessions").expect("the shared-state overlay has [sessions]");
    let mut base_rest = base.clone();
    base_rest.remove("sessions");
    assert_eq!(shared, base_rest, "outside [sessions], overlays/shared-state/ladderd.toml must equal base/ladderd.toml");
    assert_eq!(sessions["backend"].as_str(), Some("redis"));
    let redis = sessions["redis"].as_table().expect("[sessions.redis]");
    assert!(!redis.contains_key("url"), "the URL (and its password) never lives in a ConfigMap");
    for r in overlays().iter().filter(|r| r.overlay == "shared-state") {
        let config = effective_config(r);
        assert_eq!(config["sessions"]["backend"].as_str(), Some("redis"), "the daemon runs on the shared store");
        let url_file = Path::new(redis["url_file"].as_str().expect("sessions.redis.url_file"));
        let (mount, vol) = mount_of(r, url_file).unwrap_or_else(|| panic!("nothing is mounted at {}'s directory", url_file.display()));
        assert_eq!(mount["readOnly"], true);
        assert_eq!(vol["secret"]["secretName"], REDIS_SECRET, "sessions.redis.url_file must come from the Secret {REDIS_SECRET}");
        let file_name = url_file.file_name().and_then(|f| f.to_str()).expect("a file name");
        assert!(list(&vol["secret"]["items"]).iter().any(|i| i["path"] == file_name), "the Secret volume does not project {file_name}");
        let mode = vol["secret"]["defaultMode"].as_u64().unwrap_or(0o644);
        assert_eq!(mode & 0o007, 0, "the URL file is world-readable (mode {mode:o})");
        for e in list(&sidecar(r)["env"]) {
            assert!(!e["name"].as_str().unwrap_or_default().starts_with("LADDER_SESSIONS__REDIS"), "the store's settings live in the file");
        }
    }
}

/// Dockerfile instructions, continuation lines joined, comments dropped.
fn dockerfile_instructions(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('#') || (t.is_empty() && cur.is_empty()) {
            continue;
        }
        if let Some(head) = t.strip_suffix('\\') {
            cur.push_str(head);
            cur.push(' ');
            continue;
        }
        cur.push_str(t);
        let (op, args) = cur.split_once(char::is_whitespace).unwrap_or((cur.as_str(), ""));
        out.push((op.to_uppercase(), args.trim().to_string()));
        cur.clear();
    }
    out
}

#[test]
fn the_dockerfile_builds_locked_exposes_the_grpc_port_and_runs_as_non_root_without_a_shell() {
    let text = read(&repo().join("deploy/Dockerfile"));
    let ins = dockerfile_instructions(&text);
    let builds: Vec<&String> = ins.iter().filter(|(op, a)| op == "RUN" && a.contains("cargo build")).map(|(_, a)| a).collect();
    assert!(!builds.is_empty(), "no `cargo build` step");
    for b in &builds {
        assert!(b.contains("--release") && b.contains("--locked"), "build with `cargo build --release --locked`: {b}");
    }
    let from_count = ins.iter().filter(|(op, _)| op == "FROM").count();
    assert!(from_count >= 2, "a multi-stage build");
    let last_from = ins.iter().rposition(|(op, _)| op == "FROM").expect("FROM");
    let runtime = &ins[last_from..];
    let base_image = &runtime[0].1;
    assert!(base_image.contains("distroless"), "the runtime image is distroless, not {base_image}");
    assert!(!runtime.iter().any(|(op, _)| op == "RUN"), "the runtime stage runs nothing (no shell there)");

    let user = runtime.iter().rev().find(|(op, _)| op == "USER").map(|(_, a)| a.as_str()).expect("the runtime stage sets USER");
    let uid = user.split(':').next().unwrap_or_default();
    assert!(uid.parse::<u32>().is_ok_and(|u| u != 0), "USER must be a numeric non-root uid (for runAsNonRoot), not {user:?}");

    // The port: the one the pods listen on, and the Deployment's containerPort.
    let exposed: Vec<u16> = runtime
        .iter()
        .filter(|(op, _)| op == "EXPOSE")
        .flat_map(|(_, a)| {
            a.split_whitespace().map(|p| p.trim_end_matches("/tcp").parse::<u16>().expect("EXPOSE port")).collect::<Vec<_>>()
        })
        .collect();
    for r in overlays() {
        let port = listen_addr(&effective_config(r)).port();
        assert_eq!(exposed, vec![port], "{}: EXPOSE vs listen", r.overlay);
    }
    assert_eq!(exposed, vec![Config::default().listen_addr().port()], "EXPOSE vs the daemon's default port");

    // Exec form only: no /bin/sh -c at run time.
    let entry = runtime.iter().rev().find(|(op, _)| op == "ENTRYPOINT").map(|(_, a)| a.as_str()).expect("ENTRYPOINT");
    let entry: Vec<String> = serde_json::from_str(entry).unwrap_or_else(|_| panic!("ENTRYPOINT must be exec form (JSON), not {entry:?}"));
    assert!(entry.first().is_some_and(|b| b.ends_with("/ladderd")), "ENTRYPOINT runs ladderd: {entry:?}");
    if let Some((_, cmd)) = runtime.iter().rev().find(|(op, _)| op == "CMD") {
        serde_json::from_str::<Vec<String>>(cmd).unwrap_or_else(|_| panic!("CMD must be exec form (JSON), not {cmd:?}"));
    }

    // The toolchain satisfies the crate's rust-version.
    let want = read(&repo().join("Cargo.toml"))
        .lines()
        .find_map(|l| l.trim().strip_prefix("rust-version").map(|v| v.trim_start_matches([' ', '=']).trim_matches('"').to_string()))
        .expect("rust-version in Cargo.toml");
    let have =
        ins.iter().find_map(|(op, a)| (op == "ARG").then(|| a.strip_prefix("RUST_VERSION=")).flatten()).expect("ARG RUST_VERSION=...");
    let v = |s: &str| -> Vec<u32> { s.split('.').map(|p| p.parse().expect("a version")).collect() };
    assert!(v(have) >= v(&want), "RUST_VERSION {have} is older than rust-version {want}");
}

#[test]
fn the_dockerignore_keeps_target_and_git_out_of_the_build_context() {
    let text = read(&repo().join(".dockerignore"));
    let entries: BTreeSet<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    for needed in [".git", "**/target", "**/node_modules"] {
        assert!(entries.contains(needed), ".dockerignore does not exclude {needed}");
    }
    for kept in ["src", "proto", "Cargo.lock", "Cargo.toml", "build.rs", "tests", "benches"] {
        assert!(!entries.contains(kept), ".dockerignore excludes {kept}, which the build reads");
    }
}
