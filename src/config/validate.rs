//! `validate`: the semantic checks of every section, all at once, each
//! problem naming its key.

use super::{Config, ConfigError, fixed};
use ladder::guardrails::{MAX_COHORTS, OTHER_COHORT};
use ladder::policy::NEVER_AUTO_EXECUTE;
use std::net::SocketAddr;

impl Config {
    /// Semantic checks, all at once.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let mut p: Vec<(String, String)> = Vec::new();
        let mut bad = |k: &str, why: String| p.push((k.to_string(), why));
        if self.listen.parse::<SocketAddr>().is_err() {
            bad("listen", format!("{:?} is not an address like 127.0.0.1:50151", self.listen));
        }
        if let Some(a) = &self.admin.listen {
            match a.parse::<SocketAddr>() {
                Err(_) => bad("admin.listen", format!("{a:?} is not an address like 0.0.0.0:50152")),
                Ok(admin) if self.listen.parse::<SocketAddr>().is_ok_and(|l| same_socket(l, admin)) => {
                    bad("admin.listen", format!("{a:?} is the data port's address (listen); give the admin listener a port of its own"))
                }
                Ok(_) => {}
            }
        }
        if let Err(why) = self.admin.token() {
            bad("admin.token_file", why);
        }
        let s = &self.server;
        if s.max_concurrent_requests == 0 {
            bad("server.max_concurrent_requests", "must be at least 1".into());
        }
        if s.request_timeout_ms == 0 {
            bad("server.request_timeout_ms", "must be at least 1".into());
        }
        if s.max_message_bytes < 1024 {
            bad("server.max_message_bytes", "must be at least 1024".into());
        }
        if s.max_streams_per_connection == 0 {
            bad("server.max_streams_per_connection", "must be at least 1".into());
        }
        if s.body_timeout_ms == 0 {
            bad("server.body_timeout_ms", "must be at least 1".into());
        }
        if s.max_connections == 0 {
            bad("server.max_connections", "must be at least 1".into());
        }
        if s.request_memory_bytes < 2 * s.max_message_bytes {
            bad(
                "server.request_memory_bytes",
                format!(
                    "must be at least twice server.max_message_bytes ({}): a message is held as received and decoded",
                    s.max_message_bytes
                ),
            );
        }
        if s.label_memo_bytes > 1 << 30 {
            bad("server.label_memo_bytes", "must be at most 1073741824 (1 GiB)".into());
        }
        if s.drain_grace_ms > 30_000 {
            bad("server.drain_grace_ms", "must be at most 30000 (Kubernetes kills a sidecar soon after the app exits)".into());
        }
        let l = &self.limits;
        for (k, v) in [
            ("limits.session_id_max_bytes", l.session_id_max_bytes),
            ("limits.turn_id_max_bytes", l.turn_id_max_bytes),
            ("limits.input_max_bytes", l.input_max_bytes),
            ("limits.candidate_id_max_bytes", l.candidate_id_max_bytes),
            ("limits.label_max_bytes", l.label_max_bytes),
            ("limits.pool_max", l.pool_max),
            ("limits.excerpt_max_bytes", l.excerpt_max_bytes),
            ("limits.evidence_blocks_max", l.evidence_blocks_max),
        ] {
            if v == 0 {
                bad(k, "must be at least 1".into());
            }
        }
        let llm = &self.llm;
        if let Some(url) = &llm.base_url {
            match reqwest::Url::parse(url) {
                Ok(u) if matches!(u.scheme(), "http" | "https") => {}
                _ => bad("llm.base_url", format!("{url:?} is not an http(s) URL")),
            }
            if llm.model.as_deref().unwrap_or("").is_empty() {
                bad("llm.model", "required when llm.base_url is set".into());
            }
        }
        if llm.api_key.is_some() && llm.api_key_file.is_some() {
            bad("llm.api_key_file", "set llm.api_key or llm.api_key_file, not both".into());
        }
        if let Some(f) = &llm.api_key_file
            && let Err(e) = crate::files::read_text_at(f, &crate::files::SECRET)
        {
            bad("llm.api_key_file", e);
        }
        if !(1..=60_000).contains(&llm.timeout_ms) {
            bad("llm.timeout_ms", "must be between 1 and 60000".into());
        }
        if !(0.0..=1.0).contains(&llm.confidence_min) {
            bad("llm.confidence_min", "must be between 0 and 1".into());
        }
        if llm.max_candidates == 0 || llm.max_candidates > 100 {
            bad("llm.max_candidates", "must be between 1 and 100".into());
        }
        if llm.max_concurrency == 0 {
            bad("llm.max_concurrency", "must be at least 1".into());
        }
        if llm.max_retries > 1 {
            bad("llm.max_retries", "must be 0 or 1 (a retry must fit the same budget)".into());
        }
        if llm.deadline_margin_ms >= llm.timeout_ms.max(1) * 10 {
            bad("llm.deadline_margin_ms", "is implausibly large next to llm.timeout_ms".into());
        }
        let ae = &self.auto_execute;
        if !(0.0..=1.0).contains(&ae.min_confidence) {
            bad("auto_execute.min_confidence", "must be between 0 and 1".into());
        }
        if !(0.0..=1.0).contains(&ae.deterministic_margin) {
            bad("auto_execute.deterministic_margin", "must be between 0 and 1".into());
        }
        for r in ae.allowed_reasons.iter().filter(|r| NEVER_AUTO_EXECUTE.contains(r)) {
            bad("auto_execute.allowed_reasons", format!("{:?} may never auto-execute (only \"no_deterministic_match\" may)", r.as_str()))
        }
        if self.continuity.ttl_turns == 0 {
            bad("continuity.ttl_turns", "must be at least 1".into());
        }
        if self.continuity.ttl_seconds == 0 {
            bad("continuity.ttl_seconds", "must be at least 1".into());
        }
        if self.sessions.max == 0 {
            bad("sessions.max", "must be at least 1".into());
        }
        if self.sessions.idle_ttl_seconds == 0 {
            bad("sessions.idle_ttl_seconds", "must be at least 1".into());
        }
        for (k, why) in self.sessions.redis.problems(self.sessions.backend) {
            bad(k, why);
        }
        let e = &self.enrichment;
        if e.needed_evidence_types_max == 0 || e.needed_evidence_types_max > 6 {
            bad("enrichment.needed_evidence_types_max", "must be between 1 and 6".into());
        }
        if e.selection_max_llm_calls == 0 {
            bad("enrichment.selection_max_llm_calls", "must be at least 1".into());
        }
        if e.semantic_max_enrichment_steps > 2 {
            bad("enrichment.semantic_max_enrichment_steps", "must be at most 2 (set enrichment.semantic_extra_step for 3)".into());
        }
        let m = &self.matching;
        if !(0.0..=1.0).contains(&m.fuzzy_min_similarity) {
            bad("matching.fuzzy_min_similarity", "must be between 0 and 1".into());
        }
        if !(0.0..=1.0).contains(&m.fuzzy_margin) {
            bad("matching.fuzzy_margin", "must be between 0 and 1".into());
        }
        if m.typo_max_edits > TYPO_MAX_EDITS {
            bad(
                "matching.typo_max_edits",
                format!("must be between 0 and {TYPO_MAX_EDITS} (four edits make a word of 8 letters half another word)"),
            );
        }
        if let Err(e) = self.lexicon() {
            bad(self.lexicon_key(), e);
        }
        match self.templates() {
            Err(e) => bad("clarifier.templates_path", e),
            Ok(t) if !t.has(&self.clarifier.default_language) => bad(
                "clarifier.default_language",
                format!("{:?} has no templates (have: {})", self.clarifier.default_language, t.languages().collect::<Vec<_>>().join(", ")),
            ),
            Ok(_) => {}
        }
        let g = &self.guardrails;
        if g.cohort_label.trim().is_empty() {
            bad("guardrails.cohort_label", "must not be empty".into());
        }
        let mut named = std::collections::BTreeSet::new();
        for c in &g.cohorts {
            if c.trim().is_empty() {
                bad("guardrails.cohorts", "a cohort's name must not be empty".into());
            } else if c == OTHER_COHORT {
                bad("guardrails.cohorts", format!("{OTHER_COHORT:?} is where the cohorts not named count; it cannot be named"));
            } else if c.len() > fixed::LABEL_VALUE_MAX_BYTES {
                bad("guardrails.cohorts", format!("{c:?} is longer than a label's value may be ({} bytes)", fixed::LABEL_VALUE_MAX_BYTES));
            } else if !named.insert(c) {
                bad("guardrails.cohorts", format!("{c:?} is named twice"));
            }
        }
        if g.cohorts.len() > MAX_COHORTS {
            bad("guardrails.cohorts", format!("names {} cohorts; at most {MAX_COHORTS}", g.cohorts.len()));
        }
        if let Some(b) = &g.baseline_cohort
            && !g.cohorts.is_empty()
            && !g.cohorts.contains(b)
        {
            bad(
                "guardrails.baseline_cohort",
                format!(
                    "{b:?} is not one of guardrails.cohorts: its turns would count as {OTHER_COHORT:?}, which is not judged or compared with"
                ),
            );
        }
        if g.window_seconds == 0 {
            bad("guardrails.window_seconds", "must be at least 1".into());
        }
        if g.evaluate_every_seconds == 0 {
            bad("guardrails.evaluate_every_seconds", "must be at least 1".into());
        }
        if g.max_samples == 0 {
            bad("guardrails.max_samples", "must be at least 1".into());
        }
        for (k, v) in [
            ("guardrails.wrong_action_rate_increase_points", g.wrong_action_rate_increase_points),
            ("guardrails.clarifier_rate_increase_relative", g.clarifier_rate_increase_relative),
            ("guardrails.p95_latency_increase_ms", g.p95_latency_increase_ms),
            ("guardrails.unchanged_fingerprint_retry_share_max", g.unchanged_fingerprint_retry_share_max),
        ] {
            if !(v >= 0.0 && v.is_finite()) {
                bad(k, "must be a number of at least 0".into());
            }
        }
        if let Some(a) = &self.telemetry.metrics_listen {
            if a.parse::<SocketAddr>().is_err() {
                bad("telemetry.metrics_listen", format!("{a:?} is not an address like 127.0.0.1:9464"));
            } else if self.admin.listen.is_some() {
                bad("telemetry.metrics_listen", "replaced by admin.listen, which serves /metrics too; set only admin.listen".into());
            }
        }
        let dl = &self.telemetry.decision_log;
        if let Some(p) = &dl.path
            && p.parent().is_some_and(|d| !d.as_os_str().is_empty() && !d.is_dir())
        {
            bad("telemetry.decision_log.path", format!("the directory of {} does not exist", p.display()));
        }
        if dl.max_bytes < 4096 {
            bad("telemetry.decision_log.max_bytes", "must be at least 4096".into());
        }
        if dl.max_files == 0 {
            bad("telemetry.decision_log.max_files", "must be at least 1".into());
        }
        if self.clarifier.max_options == 0 {
            bad("clarifier.max_options", "must be at least 1".into());
        }
        match self.assistant_templates() {
            Err(e) => bad("clarify.templates_path", e),
            Ok(t) if !t.has(&self.clarifier.default_language) => {
                bad("clarify.templates_path", format!("no templates for clarifier.default_language {:?}", self.clarifier.default_language))
            }
            Ok(_) => {}
        }
        for (region, lang) in &self.clarify.region_languages {
            if lang.trim().is_empty() {
                bad("clarify.region_languages", format!("region {region:?} has an empty language"));
            }
        }
        let x = &self.extract;
        if !(1..=60_000).contains(&x.hint_timeout_ms) {
            bad("extract.hint_timeout_ms", "must be between 1 and 60000".into());
        }
        if !(0.0..=1.0).contains(&x.hint_sample_rate) {
            bad("extract.hint_sample_rate", "must be between 0 and 1".into());
        }
        let mut ids = std::collections::BTreeSet::new();
        for (i, a) in x.agents.iter().enumerate() {
            let k = |f: &str| format!("extract.agents[{i}].{f}");
            if a.id.trim().is_empty() || a.id == "llm" || a.id == "baseline" {
                bad(&k("id"), "required, and not \"llm\" or \"baseline\" (reserved)".into());
            } else if !ids.insert(a.id.clone()) {
                bad(&k("id"), format!("duplicate agent id {:?}", a.id));
            }
            if a.base_url.is_none() && self.llm.base_url.is_none() {
                bad(&k("base_url"), "required when llm.base_url is unset".into());
            }
            if let Some(u) = &a.base_url
                && !reqwest::Url::parse(u).is_ok_and(|u| matches!(u.scheme(), "http" | "https"))
            {
                bad(&k("base_url"), format!("{u:?} is not an http(s) URL"));
            }
            if a.model.is_none() && self.llm.model.is_none() {
                bad(&k("model"), "required when llm.model is unset".into());
            }
            if a.capabilities.is_empty() {
                bad(&k("capabilities"), "a non-empty list of \"normalization\" and \"entities\"".into());
            }
            if !(0.0..=1.0).contains(&a.sample_rate) {
                bad(&k("sample_rate"), "must be between 0 and 1".into());
            }
            if !(1..=60_000).contains(&a.timeout_ms) {
                bad(&k("timeout_ms"), "must be between 1 and 60000".into());
            }
            if let Some(f) = &a.api_key_file
                && let Err(e) = crate::files::read_text_at(f, &crate::files::SECRET)
            {
                bad(&k("api_key_file"), e);
            }
        }
        if p.is_empty() { Ok(()) } else { Err(ConfigError { problems: p }) }
    }
}

/// The most edits `matching.typo_max_edits` may allow a word of 8 letters
/// or more (the default is 2).
const TYPO_MAX_EDITS: u8 = 3;

/// Whether two listeners would need the same socket (port 0 never does).
fn same_socket(a: SocketAddr, b: SocketAddr) -> bool {
    a.port() == b.port() && a.port() != 0 && (a.ip() == b.ip() || a.ip().is_unspecified() || b.ip().is_unspecified())
}
