//! The edge: the data and admin listeners, the admin token, the gRPC
//! server's limits (`server.*`) and the input limits (`limits.*`).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;
use std::path::PathBuf;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerConfig {
    /// Requests admitted at once; more are shed with RESOURCE_EXHAUSTED.
    pub max_concurrent_requests: usize,
    /// Upper bound of a request's deadline (a shorter `grpc-timeout` wins).
    pub request_timeout_ms: u64,
    /// Largest decoded request message.
    pub max_message_bytes: usize,
    /// How long in-flight calls may finish after SIGTERM.
    pub drain_grace_ms: u64,
    /// Streams one HTTP/2 connection may have open at once (advertised as
    /// SETTINGS_MAX_CONCURRENT_STREAMS): bounds what one client can hold,
    /// including answers it never reads.
    pub max_streams_per_connection: u32,
    /// A request's whole body must arrive within this long of its headers.
    pub body_timeout_ms: u64,
    /// Client connections held at once; past it the least recently active
    /// one is closed to let a new one in.
    pub max_connections: usize,
    /// Memory the requests in flight may take, their bytes as received
    /// and decoded (bounded before decoding by counting their lists on the
    /// wire); past it a request is refused with RESOURCE_EXHAUSTED.
    pub request_memory_bytes: usize,
    /// Memory of the label memo (`ladder::intern::LabelMemo`): what recent
    /// labels derive (their canonical forms, the fingerprint's fields,
    /// their vectors), shared by every option set and session of a
    /// configuration generation, so that a new screen of labels seen
    /// before is not canonicalized or embedded again. 0: none is kept.
    pub label_memo_bytes: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            max_concurrent_requests: 256,
            request_timeout_ms: 5_000,
            max_message_bytes: 4 * 1024 * 1024,
            drain_grace_ms: 1_000,
            max_streams_per_connection: 100,
            body_timeout_ms: 1_000,
            max_connections: 1_024,
            request_memory_bytes: 64 * 1024 * 1024,
            label_memo_bytes: 8 * 1024 * 1024,
        }
    }
}

/// The admin listener and the token of the control calls.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct AdminConfig {
    /// Serves `grpc.health.v1.Health` and Prometheus text at `/metrics`,
    /// nothing else (the port kubelet's probes and a scraper may reach);
    /// off when unset.
    pub listen: Option<String>,
    /// A file holding the token that lets a caller off loopback make the
    /// control calls (`ResetRollout`, `ResetSession`, `RecordOutcome`,
    /// `GetSession`), sent as `authorization: Bearer <token>`. Unset: only
    /// callers on loopback may make them.
    pub token_file: Option<PathBuf>,
}

/// The admin token, held only as its SHA-256 digest: the token itself is
/// never kept, printed or logged, and comparing digests takes the same time
/// whatever the length of what a caller sends.
#[derive(Clone, PartialEq, Eq)]
pub struct AdminToken([u8; 32]);

impl AdminToken {
    /// Shortest token accepted: a guessable one would protect nothing.
    pub const MIN_LEN: usize = 16;
    /// Longest token accepted (it travels in a header).
    pub const MAX_LEN: usize = 4096;

    /// A token from the text of a token file (surrounding whitespace, such
    /// as the newline `echo` leaves, is not part of it). The error says
    /// what is wrong, never what the file holds.
    pub fn parse(text: &str) -> Result<AdminToken, String> {
        let t = text.trim();
        if t.len() < Self::MIN_LEN || t.len() > Self::MAX_LEN {
            return Err(format!("must hold a token of {} to {} characters (has {})", Self::MIN_LEN, Self::MAX_LEN, t.len()));
        }
        // It is sent as an HTTP/2 header value after "Bearer ".
        if !t.bytes().all(|b| b.is_ascii_graphic()) {
            return Err("the token must be printable ASCII without spaces (it is sent in the authorization header)".into());
        }
        Ok(AdminToken(Sha256::digest(t.as_bytes()).into()))
    }

    /// The token's SHA-256 digest.
    pub fn digest(&self) -> &[u8; 32] {
        &self.0
    }
}

impl fmt::Debug for AdminToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AdminToken(***)")
    }
}

impl AdminConfig {
    /// Reads `admin.token_file` (at start and on every reload). The error
    /// names the file, never its content.
    pub fn token(&self) -> Result<Option<AdminToken>, String> {
        let Some(path) = &self.token_file else { return Ok(None) };
        let text = crate::files::read_text_at(path, &crate::files::SECRET)?;
        AdminToken::parse(&text).map(Some).map_err(|why| format!("{}: {why}", path.display()))
    }
}

/// Input limits, checked at the edge before any work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    pub session_id_max_bytes: usize,
    pub turn_id_max_bytes: usize,
    pub input_max_bytes: usize,
    pub candidate_id_max_bytes: usize,
    pub label_max_bytes: usize,
    pub aliases_max: usize,
    pub pool_max: usize,
    pub excerpt_max_bytes: usize,
    pub evidence_blocks_max: usize,
    pub labels_max: usize,
    pub chat_history_max: usize,
    /// The matching work one `Decide` or `Enrich` may ask for: input words
    /// times pool words (`ladder::cost::work`).
    pub match_work_max: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            session_id_max_bytes: 128,
            turn_id_max_bytes: 128,
            input_max_bytes: 4096,
            candidate_id_max_bytes: 256,
            label_max_bytes: 512,
            aliases_max: 32,
            pool_max: 5000,
            excerpt_max_bytes: 16 * 1024,
            evidence_blocks_max: 8,
            labels_max: 16,
            chat_history_max: 32,
            match_work_max: 1_000_000,
        }
    }
}

/// The request limits that are not configurable: sizes of fields that
/// name things (a language, an intent, a version) rather than carry the
/// user's input. Each is a constant the edge checks (`convert`,
/// `grpc::wire`, the handlers), and [`FIXED_LIMITS`] lists every one as
/// docs/configuration.md does (`docs::every_request_limit_the_edge_enforces_is_in_the_configuration_reference`
/// compares them, and fails on a number the edge uses as a limit that is
/// not one of these or a `limits.*` key).
pub mod fixed {
    /// One fixed limit: the fields it bounds (as the docs' table names
    /// them) and how far.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct FixedLimit {
        pub fields: &'static str,
        pub max: usize,
        /// "bytes" or "entries".
        pub unit: &'static str,
    }

    /// Defines each limit's constant and its row of [`FIXED_LIMITS`] in
    /// one place, so a limit cannot be added without its row.
    macro_rules! fixed_limits {
        ($($(#[doc = $doc:literal])* $name:ident = $max:literal $unit:ident: $fields:literal;)*) => {
            $($(#[doc = $doc])* pub const $name: usize = $max;)*
            /// Every fixed request limit, in the docs' order.
            pub const FIXED_LIMITS: &[FixedLimit] = &[$(FixedLimit { fields: $fields, max: $max, unit: stringify!($unit) }),*];
        };
    }

    fixed_limits! {
        /// A BCP 47 tag with a region and a script is about a dozen
        /// bytes; 35 leaves room for extensions.
        LANGUAGE_MAX_BYTES = 35 bytes: "`DecideRequest.language`, `ClarifyRequest.ui_language`, `ClarifyRequest.request_language`, `ExtractRequest.language`";
        /// Letters and digits only (anything else is `INVALID_ARGUMENT`).
        REGION_CODE_MAX_BYTES = 8 bytes: "`ClarifyRequest.region_code`";
        LABEL_KEY_MAX_BYTES = 128 bytes: "each key of `DecideRequest.labels`";
        /// Also bounds what `guardrails.cohorts` may name (a longer name
        /// could never arrive).
        LABEL_VALUE_MAX_BYTES = 256 bytes: "each value of `DecideRequest.labels`";
        OPTION_SET_VERSION_MAX_BYTES = 128 bytes: "`OptionSet.version`";
        REASON_MAX_BYTES = 128 bytes: "`ClarifyRequest.reason`";
        INTENT_MAX_BYTES = 128 bytes: "`ClarifyRequest.intent`, `ExtractRequest.intent`";
        MISSING_FIELDS_MAX = 32 entries: "`ClarifyRequest.baseline_missing_fields`";
        MISSING_FIELD_MAX_BYTES = 128 bytes: "each entry of `ClarifyRequest.baseline_missing_fields`";
        SLOTS_MAX = 64 entries: "`ExtractRequest.slots`";
        SLOT_NAME_MAX_BYTES = 128 bytes: "`SlotSpec.name`";
        FILLED_MAX = 64 entries: "`ExtractRequest.filled`";
        FILLED_KEY_MAX_BYTES = 128 bytes: "each key of `ExtractRequest.filled`";
        NOTE_MAX_BYTES = 512 bytes: "`ResetRolloutRequest.note`";
    }
}
