//! A real `redis-server` (or `valkey-server`) for the tests, on a free
//! port in a temp dir, killed when dropped.
//!
//! Tests never change the machine. A server (Redis 7, Valkey 8) or the
//! `openssl` command the TLS test needs is found on PATH, else fetched once
//! from Debian's archive into `target/<name>`: apt runs with a sources
//! list, lists and cache of its own under `target/<name>/apt` (the
//! machine's apt configuration, lists and packages are not touched; the
//! archive's signature is checked with Debian's keyring as usual) and the
//! packages are extracted there with `dpkg -x`, then run from there with
//! their libraries on `LD_LIBRARY_PATH`. Valkey comes from
//! `<codename>-backports` (Debian 12 has none in its main archive). When
//! the fetch fails, the test fails with the command that would install the
//! tool instead. `LADDER_TEST_REDIS_SERVER` / `LADDER_TEST_VALKEY_SERVER`
//! name a binary to use; `LADDER_TEST_REDIS_INSTALL=download` fetches even
//! what is on PATH (to check the fetch itself).

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The binary, and the library path it needs (extracted packages).
#[derive(Debug, Clone)]
pub struct Binary {
    pub path: PathBuf,
    pub lib_dir: Option<PathBuf>,
}

impl Binary {
    /// A command running this binary, with its libraries found.
    pub fn command(&self) -> Command {
        let mut cmd = Command::new(&self.path);
        if let Some(lib) = &self.lib_dir {
            cmd.env("LD_LIBRARY_PATH", lib);
        }
        cmd
    }
}

/// The server a test runs against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Server {
    /// Redis 7 (Debian's `redis-server`).
    Redis,
    /// Valkey 8 (Debian's `valkey-server`, from backports on Debian 12).
    Valkey,
}

static BINARY: OnceLock<Result<Binary, String>> = OnceLock::new();
static VALKEY: OnceLock<Result<Binary, String>> = OnceLock::new();
static OPENSSL: OnceLock<Result<Binary, String>> = OnceLock::new();

fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).map(|d| d.join(name)).find(|f| f.is_file()))
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if out.status.success() { Ok(()) } else { Err(format!("{cmd:?} failed: {}", String::from_utf8_lossy(&out.stderr).trim())) }
}

/// A tool the tests run, and where it comes from when it is not here.
struct Tool {
    /// The binary's name (`redis-server`), also the folder under `target/`.
    name: &'static str,
    /// An environment variable naming a binary to use instead.
    env_var: Option<&'static str>,
    /// Debian's packages that carry it and the libraries it needs beyond
    /// a base system.
    packages: &'static [&'static str],
    /// Whether they come from `<codename>-backports`.
    backports: bool,
    /// What installs it on the machine, for the failure message.
    install: &'static str,
}

const REDIS: Tool = Tool {
    name: "redis-server",
    env_var: Some("LADDER_TEST_REDIS_SERVER"),
    packages: &["redis-server", "redis-tools", "liblzf1", "libjemalloc2"],
    backports: false,
    install: "apt-get install redis-server",
};

const VALKEY_SERVER: Tool = Tool {
    name: "valkey-server",
    env_var: Some("LADDER_TEST_VALKEY_SERVER"),
    packages: &["valkey-server", "valkey-tools", "liblzf1", "libjemalloc2"],
    backports: true,
    install: "apt-get install -t bookworm-backports valkey-server",
};

const OPENSSL_CMD: Tool =
    Tool { name: "openssl", env_var: None, packages: &["openssl", "libssl3"], backports: false, install: "apt-get install openssl" };

impl Tool {
    /// The tool: named by its variable, on PATH (unless told to fetch),
    /// extracted by an earlier run, or fetched now.
    fn find(&self) -> Result<Binary, String> {
        if let Some(p) = self.env_var.and_then(std::env::var_os) {
            return Ok(Binary { path: p.into(), lib_dir: None });
        }
        let download = std::env::var("LADDER_TEST_REDIS_INSTALL").is_ok_and(|v| v == "download");
        if !download && let Some(p) = on_path(self.name) {
            return Ok(Binary { path: p, lib_dir: None });
        }
        let target = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target").join(self.name);
        let extracted = Binary { path: target.join("usr/bin").join(self.name), lib_dir: Some(target.join("usr/lib/x86_64-linux-gnu")) };
        if !extracted.path.exists() {
            self.fetch(&target).map_err(|e| {
                format!(
                    "{} is not on PATH and fetching Debian's packages into {} failed ({e}); install it with `{}`{}",
                    self.name,
                    target.display(),
                    self.install,
                    self.env_var.map(|v| format!(" or set {v} to a binary")).unwrap_or_default()
                )
            })?;
            // Debian ships redis-server as a link to redis-check-rdb (the
            // binary picks its mode from its own name); Valkey likewise.
            if !extracted.path.exists() {
                return Err(format!("{} missing after extracting the packages", extracted.path.display()));
            }
        }
        Ok(extracted)
    }

    /// Downloads the packages with an apt of the tests' own under
    /// `target/<name>/apt` and extracts them into `target/<name>`.
    fn fetch(&self, target: &Path) -> Result<(), String> {
        let codename = std::fs::read_to_string("/etc/os-release")
            .ok()
            .and_then(|r| r.lines().find_map(|l| l.strip_prefix("VERSION_CODENAME=").map(|c| c.trim_matches('"').to_string())))
            .unwrap_or_else(|| "bookworm".into());
        eprintln!("{} not found: extracting Debian's packages ({codename}) into {}", self.name, target.display());
        let apt_dir = target.join("apt");
        for d in ["lists/partial", "cache/archives/partial", "sources.list.d", "debs"] {
            std::fs::create_dir_all(apt_dir.join(d)).map_err(|e| e.to_string())?;
        }
        let keyring = "/usr/share/keyrings/debian-archive-keyring.gpg";
        let mut sources = format!("deb [signed-by={keyring}] http://deb.debian.org/debian {codename} main\n");
        if self.backports {
            sources += &format!("deb [signed-by={keyring}] http://deb.debian.org/debian {codename}-backports main\n");
        }
        std::fs::write(apt_dir.join("sources.list"), sources).map_err(|e| e.to_string())?;
        let opt = |k: &str, v: &Path| format!("{k}={}", v.display());
        let options = [
            opt("Dir::Etc::SourceList", &apt_dir.join("sources.list")),
            opt("Dir::Etc::SourceParts", &apt_dir.join("sources.list.d")),
            opt("Dir::State::Lists", &apt_dir.join("lists")),
            opt("Dir::Cache", &apt_dir.join("cache")),
            "Debug::NoLocking=1".into(),
        ];
        let private_apt = |args: &[&str]| {
            let mut cmd = Command::new("apt-get");
            for o in &options {
                cmd.args(["-o", o]);
            }
            cmd.args(args).current_dir(apt_dir.join("debs")).env("DEBIAN_FRONTEND", "noninteractive");
            run(&mut cmd)
        };
        private_apt(&["-q", "update"])?;
        private_apt(&[&["download"][..], self.packages].concat())?;
        for deb in std::fs::read_dir(apt_dir.join("debs")).map_err(|e| e.to_string())? {
            let deb = deb.map_err(|e| e.to_string())?.path();
            if deb.extension().is_some_and(|e| e == "deb") {
                run(Command::new("dpkg").arg("-x").arg(&deb).arg(target))?;
            }
        }
        Ok(())
    }
}

/// The `openssl` command (it makes the TLS test's certificate).
pub fn openssl() -> Binary {
    OPENSSL.get_or_init(|| OPENSSL_CMD.find()).clone().unwrap_or_else(|e| panic!("no openssl for the TLS test: {e}"))
}

fn binary(server: Server) -> Binary {
    match server {
        Server::Redis => BINARY.get_or_init(|| REDIS.find()).clone().unwrap_or_else(|e| panic!("no redis-server for the tests: {e}")),
        Server::Valkey => {
            VALKEY.get_or_init(|| VALKEY_SERVER.find()).clone().unwrap_or_else(|e| panic!("no valkey-server for the tests: {e}"))
        }
    }
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A redis-server of this test's own.
pub struct RedisServer {
    pub port: u16,
    child: Option<Child>,
    dir: tempfile::TempDir,
    bin: Binary,
    extra: Vec<String>,
}

impl RedisServer {
    pub fn start() -> RedisServer {
        Self::start_with(&[])
    }

    /// A Redis server started with extra arguments.
    pub fn start_with(extra: &[&str]) -> RedisServer {
        Self::start_on(Server::Redis, extra)
    }

    /// A server of kind `server` started with extra arguments.
    pub fn start_on(server: Server, extra: &[&str]) -> RedisServer {
        let extra = extra.iter().map(|s| s.to_string()).collect();
        let mut s = RedisServer { port: 0, child: None, dir: tempfile::tempdir().unwrap(), bin: binary(server), extra };
        for _ in 0..5 {
            s.port = free_port();
            if s.spawn() {
                return s;
            }
            s.kill();
        }
        panic!("redis-server did not start (see its log in {})", s.dir.path().display());
    }

    /// Starts the process on `self.port`; waits until it accepts.
    fn spawn(&mut self) -> bool {
        let log = std::fs::File::create(self.dir.path().join("redis.log")).unwrap();
        let mut cmd = self.bin.command();
        cmd.args(["--port", &self.port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(self.dir.path())
            .args(&self.extra)
            .stdout(Stdio::from(log.try_clone().unwrap()))
            .stderr(Stdio::from(log));
        let Ok(child) = cmd.spawn() else { return false };
        self.child = Some(child);
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until {
            if TcpStream::connect(("127.0.0.1", self.port)).is_ok() {
                return true;
            }
            if let Some(Ok(Some(_))) = self.child.as_mut().map(Child::try_wait) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    /// Kills the server (SIGKILL): everything it held is gone.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Starts it again on the same port (empty).
    pub fn restart(&mut self) {
        self.kill();
        for _ in 0..50 {
            if self.spawn() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        panic!("redis-server did not restart on port {}", self.port);
    }

    fn signal(&self, sig: &str) {
        let pid = self.child.as_ref().expect("running").id().to_string();
        assert!(Command::new("kill").args([sig, &pid]).status().unwrap().success());
    }

    /// Freezes the server (SIGSTOP): connections stay open, nothing answers.
    pub fn pause(&self) {
        self.signal("-STOP");
    }

    pub fn resume(&self) {
        self.signal("-CONT");
    }

    /// A command's reply, over a fresh connection.
    pub async fn cmd<T: redis::FromRedisValue>(&self, args: &[&str]) -> T {
        let client = redis::Client::open(self.url()).unwrap();
        let mut conn = client.get_multiplexed_async_connection().await.unwrap();
        let mut cmd = redis::cmd(args[0]);
        for a in &args[1..] {
            cmd.arg(*a);
        }
        cmd.query_async(&mut conn).await.unwrap()
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        if let Some(c) = self.child.as_ref() {
            // A paused server ignores SIGKILL only until continued: wake it.
            let _ = Command::new("kill").args(["-CONT", &c.id().to_string()]).status();
        }
        self.kill();
    }
}

/// A Redis Cluster of three primaries (no replicas), each slot range on
/// one of them, built with CLUSTER ADDSLOTSRANGE and CLUSTER MEET.
pub struct RedisCluster {
    pub nodes: Vec<RedisServer>,
}

impl RedisCluster {
    pub async fn start(server: Server) -> RedisCluster {
        let nodes: Vec<RedisServer> = (0..3).map(|_| RedisServer::start_on(server, &["--cluster-enabled", "yes"])).collect();
        let ranges = [("0", "5460"), ("5461", "10922"), ("10923", "16383")];
        for (n, (from, to)) in nodes.iter().zip(ranges) {
            let _: String = n.cmd(&["CLUSTER", "ADDSLOTSRANGE", from, to]).await;
        }
        for n in &nodes[1..] {
            let _: String = nodes[0].cmd(&["CLUSTER", "MEET", "127.0.0.1", &n.port.to_string()]).await;
        }
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            let mut ok = true;
            for n in &nodes {
                let info: String = n.cmd(&["CLUSTER", "INFO"]).await;
                ok &= info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:3");
            }
            if ok {
                return RedisCluster { nodes };
            }
            assert!(Instant::now() < until, "the cluster did not form");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}
