//! The configuration's tests: layers, validation, every problem at once.
#![allow(clippy::result_large_err)] // figment::Jail's closures return figment::Error

use super::*;
use figment::Jail;

#[test]
fn defaults_are_valid_and_match_the_contract() {
    // In a Jail: other tests set LADDER_* variables process-wide.
    Jail::expect_with(|_| {
        defaults_match_the_contract();
        Ok(())
    });
}

fn defaults_match_the_contract() {
    let c = from_figment(figment(None)).unwrap();
    assert_eq!(c.listen, "127.0.0.1:50151");
    assert_eq!(c.llm.base_url, None);
    assert_eq!(c.llm.timeout_ms, 800);
    assert_eq!(c.llm.confidence_min, 0.6);
    assert!(!c.auto_execute.enabled);
    assert_eq!(c.auto_execute.min_confidence, 0.85);
    assert_eq!((c.continuity.ttl_turns, c.continuity.ttl_seconds), (3, 600));
    assert_eq!(c.sessions.max, 100_000);
    assert_eq!(c.sessions.backend, SessionBackend::Memory);
    assert_eq!((c.sessions.redis.url.as_ref(), c.sessions.redis.key_prefix.as_str(), c.sessions.redis.timeout_ms), (None, "ladderd:", 50));
    assert_eq!(c.telemetry.redact_input, Redaction::Hash);
    assert_eq!(c.policy().unwrap().llm_mode, LlmMode::Off);
}

#[test]
fn file_then_env_layering() {
    Jail::expect_with(|jail| {
        jail.create_file("ladderd.toml", "listen = \"127.0.0.1:6000\"\n[llm]\ntimeout_ms = 500\nconfidence_min = 0.7\n")?;
        jail.set_env("LADDER_LLM__TIMEOUT_MS", "900");
        jail.set_env("LADDER_CONFIG", "ignored-by-the-figment.toml");
        let c = load(Some(Path::new("ladderd.toml"))).unwrap();
        assert_eq!(c.listen, "127.0.0.1:6000", "file over defaults");
        assert_eq!(c.llm.timeout_ms, 900, "env over file");
        assert_eq!(c.llm.confidence_min, 0.7);
        Ok(())
    });
}

#[test]
fn every_problem_is_reported_with_its_key() {
    Jail::expect_with(|jail| {
        jail.set_env("LADDER_LISTEN", "nowhere");
        jail.set_env("LADDER_LLM__CONFIDENCE_MIN", "1.5");
        jail.set_env("LADDER_LLM__BASE_URL", "http://127.0.0.1:9/v1");
        jail.set_env("LADDER_AUTO_EXECUTE__ALLOWED_REASONS", "[\"typo_ambiguous\"]");
        let err = from_figment(figment(None)).unwrap_err();
        let keys: Vec<&str> = err.problems.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["listen", "llm.model", "llm.confidence_min", "auto_execute.allowed_reasons"]);
        Ok(())
    });
}

#[test]
fn the_redis_backend_is_configured_from_the_environment() {
    Jail::expect_with(|jail| {
        jail.set_env("LADDER_SESSIONS__BACKEND", "redis");
        jail.set_env("LADDER_SESSIONS__REDIS__URL", "redis://:hunter2@10.0.0.5:6379/2");
        jail.set_env("LADDER_SESSIONS__REDIS__KEY_PREFIX", "shop:");
        jail.set_env("LADDER_SESSIONS__REDIS__TIMEOUT_MS", "80");
        jail.set_env("LADDER_SESSIONS__REDIS__POOL_SIZE", "4");
        let c = from_figment(figment(None)).unwrap();
        let r = &c.sessions.redis;
        assert_eq!((c.sessions.backend, r.key_prefix.as_str(), r.timeout_ms, r.pool_size), (SessionBackend::Redis, "shop:", 80, 4));
        assert!(!format!("{c:?}").contains("hunter2"), "the URL never prints");
        assert!(!c.masked_toml().contains("hunter2"));
        Ok(())
    });
}

#[test]
fn redis_settings_are_checked_with_their_keys() {
    Jail::expect_with(|jail| {
        jail.create_file("pw", "secret")?;
        jail.set_env("LADDER_SESSIONS__BACKEND", "redis");
        let err = from_figment(figment(None)).unwrap_err();
        assert_eq!(err.problems[0].0, "sessions.redis.url", "{err}");
        assert_eq!(err.problems.len(), 1, "{err}");
        jail.set_env("LADDER_SESSIONS__REDIS__URL", "http://:pw@cache:6379");
        jail.set_env("LADDER_SESSIONS__REDIS__KEY_PREFIX", "a{b}:");
        jail.set_env("LADDER_SESSIONS__REDIS__TIMEOUT_MS", "0");
        jail.set_env("LADDER_SESSIONS__REDIS__POOL_SIZE", "0");
        let err = from_figment(figment(None)).unwrap_err();
        let keys: Vec<&str> = err.problems.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["sessions.redis.url", "sessions.redis.key_prefix", "sessions.redis.timeout_ms", "sessions.redis.pool_size"]);
        assert!(!err.to_string().contains(":pw@"), "the URL is not echoed: {err}");
        jail.set_env("LADDER_SESSIONS__REDIS__URL", "redis://:pw@cache:6379");
        jail.set_env("LADDER_SESSIONS__REDIS__PASSWORD_FILE", "pw");
        jail.set_env("LADDER_SESSIONS__REDIS__KEY_PREFIX", "ladderd:");
        jail.set_env("LADDER_SESSIONS__REDIS__TIMEOUT_MS", "50");
        jail.set_env("LADDER_SESSIONS__REDIS__POOL_SIZE", "1");
        let err = from_figment(figment(None)).unwrap_err();
        assert_eq!(err.problems[0].0, "sessions.redis.password_file", "{err}");
        jail.set_env("LADDER_SESSIONS__REDIS__URL", "rediss://cache.internal:6380");
        let c = from_figment(figment(None)).unwrap();
        assert_eq!(c.sessions.redis.password_file.as_deref(), Some(Path::new("pw")));
        // The URL from a file (a mounted secret): read and checked.
        jail.create_file("url", "ftp://cache:21\n")?;
        jail.set_env("LADDER_SESSIONS__REDIS__URL_FILE", "url");
        let err = from_figment(figment(None)).unwrap_err();
        assert_eq!(err.problems[0].0, "sessions.redis.url_file", "both set: {err}");
        jail.clear_env();
        jail.set_env("LADDER_SESSIONS__BACKEND", "redis");
        jail.set_env("LADDER_SESSIONS__REDIS__URL_FILE", "url");
        let err = from_figment(figment(None)).unwrap_err();
        assert_eq!(err.problems.len(), 1, "{err}");
        assert_eq!(err.problems[0].0, "sessions.redis.url_file", "{err}");
        assert!(err.problems[0].1.contains("scheme"), "{err}");
        jail.create_file("url", "rediss://:pw@cache.internal:6380\n")?;
        assert!(from_figment(figment(None)).is_ok());
        Ok(())
    });
}

#[test]
fn type_errors_in_several_sections_are_all_reported() {
    Jail::expect_with(|jail| {
        jail.set_env("LADDER_LLM__TIMEOUT_MS", "soon");
        jail.set_env("LADDER_SESSIONS__MAX", "many");
        jail.set_env("LADDER_LISTEN", "nowhere");
        let err = from_figment(figment(None)).unwrap_err();
        let keys: Vec<&str> = err.problems.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["llm.timeout_ms", "sessions.max", "listen"], "{err}");
        Ok(())
    });
}

#[test]
fn type_errors_and_unknown_keys_name_the_key() {
    Jail::expect_with(|jail| {
        jail.set_env("LADDER_LLM__TIMEOUT_MS", "soon");
        let err = from_figment(figment(None)).unwrap_err();
        assert_eq!(err.problems[0].0, "llm.timeout_ms", "{err}");
        Ok(())
    });
    Jail::expect_with(|jail| {
        jail.create_file("ladderd.toml", "[llm]\ntimeout = 5\n")?;
        let err = load(Some(Path::new("ladderd.toml"))).unwrap_err();
        assert!(err.to_string().contains("timeout"), "{err}");
        Ok(())
    });
}

#[test]
fn every_problem_of_every_layer_is_reported_once_with_its_origin() {
    Jail::expect_with(|jail| {
        jail.create_file(
            "ladderd.toml",
            "[llm]\ntimeout_ms = \"soon\"\nconfidence_min = \"high\"\n[sessions]\nmax = \"many\"\n[server]\nbogus = 1\n",
        )?;
        jail.set_env("LADDER_LIMITS__POOL_MAX", "lots");
        let err = load(Some(Path::new("ladderd.toml"))).unwrap_err();
        let keys: Vec<&str> = err.problems.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["server.bogus", "limits.pool_max", "llm.confidence_min", "llm.timeout_ms", "sessions.max"], "{err}");
        for (key, why) in &err.problems {
            let from = if key.starts_with("limits") { "LADDER_LIMITS__POOL_MAX" } else { "ladderd.toml" };
            assert!(why.contains(from), "{key}: {why}");
        }
        Ok(())
    });
}

#[test]
fn a_toml_syntax_error_is_reported_once_naming_the_file() {
    Jail::expect_with(|jail| {
        jail.create_file("broken.toml", "[llm\ntimeout_ms = 5\n")?;
        let err = load(Some(Path::new("broken.toml"))).unwrap_err();
        assert_eq!(err.problems.len(), 1, "{err}");
        assert!(err.problems[0].1.contains("broken.toml") && err.problems[0].1.contains("TOML syntax error"), "{err}");
        Ok(())
    });
}

#[test]
fn the_admin_listener_is_off_by_default_and_needs_an_address_of_its_own() {
    Jail::expect_with(|jail| {
        let c = from_figment(figment(None)).unwrap();
        assert_eq!((c.admin.listen.as_deref(), c.admin_listen_addr()), (None, None), "off by default");
        jail.set_env("LADDER_ADMIN__LISTEN", "nowhere");
        let err = from_figment(figment(None)).unwrap_err();
        assert_eq!(err.problems.len(), 1, "{err}");
        assert_eq!(err.problems[0].0, "admin.listen", "{err}");
        // Not the data port's socket.
        jail.set_env("LADDER_LISTEN", "0.0.0.0:50151");
        jail.set_env("LADDER_ADMIN__LISTEN", "127.0.0.1:50151");
        let err = from_figment(figment(None)).unwrap_err();
        assert_eq!(err.problems[0].0, "admin.listen", "{err}");
        assert!(err.problems[0].1.contains("port of its own"), "{err}");
        jail.set_env("LADDER_ADMIN__LISTEN", "0.0.0.0:50152");
        assert_eq!(from_figment(figment(None)).unwrap().admin_listen_addr(), Some("0.0.0.0:50152".parse().unwrap()));
        Ok(())
    });
}

#[test]
fn the_admin_token_file_is_read_checked_and_never_echoed() {
    Jail::expect_with(|jail| {
        let c = from_figment(figment(None)).unwrap();
        assert_eq!((c.admin.token_file.as_deref(), c.admin.token()), (None, Ok(None)), "no token by default");
        jail.set_env("LADDER_ADMIN__TOKEN_FILE", "missing-token");
        let err = from_figment(figment(None)).unwrap_err();
        assert_eq!(err.problems.len(), 1, "{err}");
        assert_eq!(err.problems[0].0, "admin.token_file", "{err}");
        assert!(err.problems[0].1.contains("missing-token"), "the file is named: {err}");
        // What a token file must hold; its content is never echoed.
        for (content, why) in
            [("short-token\n", "16 to 4096 characters"), ("a token with spaces in it\n", "printable ASCII"), ("", "16 to 4096 characters")]
        {
            jail.create_file("token", content)?;
            jail.set_env("LADDER_ADMIN__TOKEN_FILE", "token");
            let err = from_figment(figment(None)).unwrap_err();
            assert_eq!(err.problems.len(), 1, "{err}");
            assert_eq!(err.problems[0].0, "admin.token_file", "{err}");
            assert!(err.problems[0].1.contains(why), "{content:?}: {err}");
            assert!(content.is_empty() || !err.to_string().contains(content.trim()), "the token is echoed: {err}");
        }
        jail.create_file("token", "  0123456789abcdef-very-secret \n")?;
        let c = from_figment(figment(None)).unwrap();
        let token = c.admin.token().unwrap().expect("a token");
        assert_eq!(token, AdminToken::parse("0123456789abcdef-very-secret").unwrap(), "surrounding whitespace is not the token's");
        assert_eq!(format!("{token:?}"), "AdminToken(***)");
        let printed = c.masked_toml();
        assert!(printed.contains("token_file = \"token\"") && !printed.contains("very-secret"), "{printed}");
        assert!(!format!("{c:?}").contains("very-secret"));
        Ok(())
    });
}

#[test]
fn the_deprecated_metrics_listen_is_read_as_the_admin_listener_and_not_with_it() {
    Jail::expect_with(|jail| {
        jail.set_env("LADDER_TELEMETRY__METRICS_LISTEN", "127.0.0.1:9464");
        let c = from_figment(figment(None)).unwrap();
        assert_eq!(c.admin_listen_addr(), Some("127.0.0.1:9464".parse().unwrap()));
        jail.set_env("LADDER_ADMIN__LISTEN", "127.0.0.1:9465");
        let err = from_figment(figment(None)).unwrap_err();
        assert_eq!(err.problems.len(), 1, "{err}");
        assert_eq!(err.problems[0].0, "telemetry.metrics_listen", "{err}");
        assert!(err.problems[0].1.contains("replaced by admin.listen"), "{err}");
        Ok(())
    });
}

#[test]
fn secrets_are_masked() {
    let mut c = Config::default();
    c.llm.api_key = Some(Secret("sk-very-secret".into()));
    assert!(!c.masked_toml().contains("sk-very-secret"));
    assert!(!format!("{c:?}").contains("sk-very-secret"));
}

#[test]
fn the_named_cohorts_come_from_the_environment_and_each_problem_names_its_key() {
    Jail::expect_with(|jail| {
        let c = from_figment(figment(None)).unwrap();
        assert!(c.guardrails.cohorts.is_empty(), "none named by default: every label is a cohort");
        jail.set_env("LADDER_GUARDRAILS__COHORTS", r#"["canary", "baseline"]"#);
        jail.set_env("LADDER_GUARDRAILS__BASELINE_COHORT", "baseline");
        let c = from_figment(figment(None)).unwrap();
        assert_eq!(c.guardrails.cohorts, ["canary", "baseline"]);
        // A baseline the list does not name would count as `other`.
        jail.set_env("LADDER_GUARDRAILS__BASELINE_COHORT", "control");
        jail.set_env("LADDER_GUARDRAILS__COHORTS", r#"["canary", " ", "other", "canary", "x"]"#);
        let err = from_figment(figment(None)).unwrap_err();
        let problems: Vec<(&str, &str)> = err.problems.iter().map(|(k, why)| (k.as_str(), why.as_str())).collect();
        assert_eq!(
            problems,
            [
                ("guardrails.cohorts", "a cohort's name must not be empty"),
                ("guardrails.cohorts", "\"other\" is where the cohorts not named count; it cannot be named"),
                ("guardrails.cohorts", "\"canary\" is named twice"),
                (
                    "guardrails.baseline_cohort",
                    "\"control\" is not one of guardrails.cohorts: its turns would count as \"other\", which is not judged or compared with"
                ),
            ],
            "{err}"
        );
        let many: Vec<String> = (0..65).map(|i| format!("\"c{i}\"")).collect();
        jail.set_env("LADDER_GUARDRAILS__COHORTS", format!("[{}, \"{}\"]", many.join(", "), "x".repeat(257)));
        jail.set_env("LADDER_GUARDRAILS__BASELINE_COHORT", "c0");
        let err = from_figment(figment(None)).unwrap_err();
        let whys: Vec<&str> = err.problems.iter().map(|(_, why)| why.as_str()).collect();
        assert_eq!(whys.len(), 2, "{err}");
        assert!(whys[0].ends_with("is longer than a label's value may be (256 bytes)"), "{err}");
        assert_eq!(whys[1], "names 66 cohorts; at most 64", "{err}");
        Ok(())
    });
}

#[test]
fn typo_max_edits_is_range_checked_like_the_other_matching_keys() {
    Jail::expect_with(|jail| {
        for (edits, ok) in [("0", true), ("3", true), ("4", false), ("99", false)] {
            jail.set_env("LADDER_MATCHING__TYPO_MAX_EDITS", edits);
            match from_figment(figment(None)) {
                Ok(c) => assert!(ok, "{edits} accepted: {}", c.matching.typo_max_edits),
                Err(err) => {
                    assert!(!ok, "{edits}: {err}");
                    assert_eq!(err.problems.len(), 1, "{err}");
                    assert_eq!(err.problems[0].0, "matching.typo_max_edits", "{err}");
                    assert!(err.problems[0].1.starts_with("must be between 0 and 3"), "{err}");
                }
            }
        }
        Ok(())
    });
}

#[test]
fn the_label_memo_is_8_mib_by_default_0_turns_it_off_and_over_a_gib_is_refused() {
    Jail::expect_with(|jail| {
        assert_eq!(from_figment(figment(None)).unwrap().server.label_memo_bytes, 8 << 20);
        for (bytes, ok) in [("0", true), ("1073741824", true), ("1073741825", false)] {
            jail.set_env("LADDER_SERVER__LABEL_MEMO_BYTES", bytes);
            match from_figment(figment(None)) {
                Ok(c) => {
                    assert!(ok, "{bytes} accepted");
                    let off = crate::daemon::Generation::new(c).unwrap().pool_memo.labels.is_off();
                    assert_eq!(off, bytes == "0", "{bytes}: the generation's label memo");
                }
                Err(err) => {
                    assert!(!ok, "{bytes}: {err}");
                    assert_eq!(err.problems.len(), 1, "{err}");
                    assert_eq!(err.problems[0], ("server.label_memo_bytes".into(), "must be at most 1073741824 (1 GiB)".into()), "{err}");
                }
            }
        }
        Ok(())
    });
}

/// Every key that names a file refuses one that is not a regular file
/// (a FIFO that would wait for a writer, `/dev/zero` that never ends) or
/// is over its kind's bound, naming the key and the path, without
/// waiting; and the same files given as regular ones pass.
#[test]
fn every_key_naming_a_file_refuses_a_fifo_a_device_and_an_oversized_file_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let fifo = d.join("fifo");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let big = d.join("big");
    std::fs::File::create(&big).unwrap().set_len(crate::files::LEXICON.max + 1).unwrap();
    type Put = fn(&mut Config, std::path::PathBuf);
    let set: [(&str, Put); 8] = [
        ("lexicon.path", |c, p| c.lexicon.path = Some(p)),
        ("clarifier.templates_path", |c, p| c.clarifier.templates_path = Some(p)),
        ("clarify.templates_path", |c, p| c.clarify.templates_path = Some(p)),
        ("llm.api_key_file", |c, p| c.llm.api_key_file = Some(p)),
        ("extract.agents[0].api_key_file", |c, p| {
            c.llm.base_url = Some("http://127.0.0.1:9/v1".into());
            c.llm.model = Some("m".into());
            c.extract.agents = vec![AgentConfig { id: "a".into(), api_key_file: Some(p), ..AgentConfig::default() }];
        }),
        ("admin.token_file", |c, p| c.admin.token_file = Some(p)),
        ("sessions.redis.url_file", |c, p| c.sessions.redis.url_file = Some(p)),
        ("sessions.redis.password_file", |c, p| {
            c.sessions.redis.url = Some(Secret("redis://cache:6379".into()));
            c.sessions.redis.password_file = Some(p)
        }),
    ];
    for (key, put) in set {
        for (path, why) in [
            (fifo.clone(), "a FIFO, not a regular file".to_string()),
            ("/dev/zero".into(), "a character device, not a regular file".to_string()),
            (big.clone(), format!("{} bytes, over the ", crate::files::LEXICON.max + 1)),
        ] {
            let mut c = Config::default();
            put(&mut c, path.clone());
            // On a thread given a minute: a read of the FIFO would never end.
            let (tx, rx) = std::sync::mpsc::channel();
            std::thread::spawn(move || tx.send(c.validate().and_then(|()| c.policy().map(drop))));
            let err = rx.recv_timeout(std::time::Duration::from_secs(60)).expect("no wait on the file").expect_err("refused");
            let problem = err.problems.iter().find(|(k, _)| k == key).unwrap_or_else(|| panic!("{key} not named: {err}"));
            assert!(problem.1.starts_with(&format!("{}: {why}", path.display())), "{key}: {err}");
        }
    }
}
