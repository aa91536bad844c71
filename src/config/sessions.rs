//! Where sessions live (`sessions.*`), and the shared store
//! (`sessions.redis.*`).

use super::Secret;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SessionsConfig {
    /// Sessions held at most; the least recently used is evicted.
    pub max: usize,
    /// A session untouched this long is dropped.
    pub idle_ttl_seconds: u64,
    /// An unresolved cycle keeps its request for `Enrich` only up to this
    /// many candidates (memory bound); larger cycles must be re-decided.
    pub max_cycle_candidates: usize,
    /// Candidates held by the requests of open cycles, all sessions
    /// together; past it a new cycle is not kept for `Enrich` (memory bound:
    /// about 200 bytes a candidate).
    pub cycle_candidates_budget: usize,
    /// Candidates held for pool reuse across all sessions (least recently
    /// used sets go first). With the `redis` backend: per session.
    pub pool_cache_candidates: usize,
    /// Bytes of the candidates open cycles keep for `Enrich`, all sessions
    /// together (`Candidate::approx_bytes`): past it a new cycle is not kept.
    pub cycle_bytes_budget: usize,
    /// Bytes of the candidates held for pool reuse, all sessions together.
    pub pool_cache_bytes: usize,
    /// Where sessions live: `memory` (this process) or `redis` (shared by
    /// every replica; `sessions.redis`).
    pub backend: SessionBackend,
    /// The shared store, used when `backend = "redis"`.
    pub redis: RedisConfig,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SessionBackend {
    #[default]
    Memory,
    Redis,
}

/// The Redis / Valkey store (`sessions.backend = "redis"`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RedisConfig {
    /// `redis://[user:password@]host:port[/db]`, or `rediss://` for TLS.
    /// A secret (it may hold the password): never logged.
    pub url: Option<Secret>,
    /// Read the URL from this file instead (a mounted Kubernetes secret:
    /// managed Redis / Valkey services hand out the whole URL).
    pub url_file: Option<PathBuf>,
    /// Read the password from this file instead of the URL (a mounted
    /// Kubernetes secret).
    pub password_file: Option<PathBuf>,
    /// Every key starts with this (several deployments can share a server).
    pub key_prefix: String,
    /// Every store call gives up after this long; what needs the state then
    /// degrades to the safe side.
    pub timeout_ms: u64,
    /// Multiplexed connections per replica (each carries any number of
    /// calls at once). Standalone only: a Cluster connection keeps one per
    /// node.
    pub pool_size: usize,
    /// The URL names a node of a Redis / Valkey Cluster: the slots are
    /// discovered from it and each session's script goes to the node that
    /// holds its hash tag.
    pub cluster: bool,
    /// Consecutive calls that got no answer (timeouts, lost connections)
    /// after which calls skip the store for `breaker_cooldown_ms`, as if
    /// it were unreachable (0: never skip).
    pub breaker_failures: u32,
    /// How long calls skip the store once the breaker opened; a background
    /// probe asks it once per cool-down and closes the breaker when it
    /// answers. Also how often idle connections are checked.
    pub breaker_cooldown_ms: u64,
}

impl Default for RedisConfig {
    fn default() -> Self {
        RedisConfig {
            url: None,
            url_file: None,
            password_file: None,
            key_prefix: "ladderd:".into(),
            timeout_ms: 50,
            pool_size: 2,
            cluster: false,
            breaker_failures: 3,
            breaker_cooldown_ms: 1_000,
        }
    }
}

impl Default for SessionsConfig {
    fn default() -> Self {
        SessionsConfig {
            max: 100_000,
            idle_ttl_seconds: 1_800,
            max_cycle_candidates: 1_000,
            cycle_candidates_budget: 200_000,
            pool_cache_candidates: 200_000,
            cycle_bytes_budget: 64 * 1024 * 1024,
            pool_cache_bytes: 64 * 1024 * 1024,
            backend: SessionBackend::Memory,
            redis: RedisConfig::default(),
        }
    }
}

impl RedisConfig {
    /// What is wrong with the Redis settings, each with its key. The URL and
    /// the password file are only required with the `redis` backend, but
    /// checked whenever they are set.
    pub(super) fn problems(&self, backend: SessionBackend) -> Vec<(&'static str, String)> {
        let mut p = Vec::new();
        let from_file = match &self.url_file {
            Some(_) if self.url.is_some() => {
                p.push(("sessions.redis.url_file", "set sessions.redis.url or sessions.redis.url_file, not both".to_string()));
                None
            }
            Some(f) => match crate::files::read_text_at(f, &crate::files::SECRET) {
                Ok(u) => Some(u.trim().to_string()),
                Err(e) => {
                    p.push(("sessions.redis.url_file", e));
                    None
                }
            },
            None => None,
        };
        let (key, url) = match (&self.url, from_file) {
            (Some(Secret(u)), _) => ("sessions.redis.url", Some(u.clone())),
            (None, Some(u)) => ("sessions.redis.url_file", Some(u)),
            (None, None) => ("sessions.redis.url", None),
        };
        match url {
            None if backend == SessionBackend::Redis && self.url_file.is_none() => {
                p.push(("sessions.redis.url", "required when sessions.backend is \"redis\" (or sessions.redis.url_file)".to_string()))
            }
            None => {}
            // The URL is a secret: say what is wrong with it, never what it is.
            Some(u) => match reqwest::Url::parse(&u) {
                Ok(url) if !matches!(url.scheme(), "redis" | "rediss") => {
                    p.push((key, format!("scheme {:?} is not redis:// or rediss://", url.scheme())))
                }
                Ok(url) if url.host_str().is_none_or(str::is_empty) => p.push((key, "has no host".to_string())),
                Ok(url) if url.password().is_some() && self.password_file.is_some() => {
                    p.push(("sessions.redis.password_file", "the URL has a password already; set one or the other".to_string()))
                }
                Ok(_) => {}
                Err(e) => p.push((key, format!("not a URL ({e}); expected redis://host:port or rediss://host:port"))),
            },
        }
        // Read here as the store will read it at start: a file that is not
        // a regular one, or too large, is refused before the store reads it.
        if let Some(f) = &self.password_file
            && let Err(e) = crate::files::read_text_at(f, &crate::files::SECRET)
        {
            p.push(("sessions.redis.password_file", e));
        }
        if self.key_prefix.contains(['{', '}']) {
            // Braces would change the hash tag that keeps a session on one
            // Cluster slot.
            p.push(("sessions.redis.key_prefix", "must not contain '{' or '}'".to_string()));
        }
        if !(1..=10_000).contains(&self.timeout_ms) {
            p.push(("sessions.redis.timeout_ms", "must be between 1 and 10000".to_string()));
        }
        if !(1..=64).contains(&self.pool_size) {
            p.push(("sessions.redis.pool_size", "must be between 1 and 64".to_string()));
        }
        if !(100..=60_000).contains(&self.breaker_cooldown_ms) {
            p.push(("sessions.redis.breaker_cooldown_ms", "must be between 100 and 60000".to_string()));
        }
        p
    }
}
