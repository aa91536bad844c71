//! The daemon's errors and their gRPC codes, mapped in exactly one place.
//! Internal detail is logged, never sent to the caller.

use tonic::{Code, Status};

/// Why a request was refused at the edge.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Invalid {
    #[error("{field}: required")]
    Missing { field: String },
    #[error("{field}: {len} bytes is over the limit of {max}")]
    TooLong { field: String, len: usize, max: usize },
    #[error("{field}: {len} items is over the limit of {max}")]
    TooMany { field: String, len: usize, max: usize },
    #[error("{field}: duplicate id {id:?} (ids must be unique within a request)")]
    Duplicate { field: String, id: String },
    #[error("{field}: {why}")]
    Bad { field: String, why: String },
    #[error(
        "input x candidates: {work} word comparisons ({input_words} input words x {pool_words} pool words) is over limits.match_work_max ({max}); send a shorter input or fewer candidates"
    )]
    TooMuchWork { work: u64, input_words: u64, pool_words: u64, max: u64 },
    #[error(
        "text x slot values: {work} word comparisons ({text_words} text words x {vocabulary_words} vocabulary words{rerun}, plus {bytes} bytes to canonicalize at {byte_cost} each) is over limits.match_work_max ({max}); send a shorter text or fewer slot values and synonyms"
    )]
    TooMuchExtractWork { work: u64, text_words: u64, vocabulary_words: u64, rerun: &'static str, bytes: u64, byte_cost: u64, max: u64 },
}

impl Invalid {
    pub fn bad(field: impl Into<String>, why: impl Into<String>) -> Self {
        Invalid::Bad { field: field.into(), why: why.into() }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error(transparent)]
    Invalid(#[from] Invalid),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    FailedPrecondition(String),
    #[error("{0}")]
    Unimplemented(&'static str),
    /// A control call from a caller the guard does not trust
    /// (`grpc::guard`); the message says what would let it through.
    #[error("{0}")]
    PermissionDenied(String),
    /// The caller's deadline passed while the ladder ran.
    #[error("{0}")]
    DeadlineExceeded(String),
    /// A shared store the call needs is not answering; the message says
    /// whether to retry or to resend.
    #[error("{0}")]
    Unavailable(String),
    /// Something broke inside; the detail is logged, the caller gets a
    /// generic message.
    #[error("internal error: {0}")]
    Internal(String),
}

impl From<ApiError> for Status {
    fn from(e: ApiError) -> Status {
        let code = match &e {
            ApiError::Invalid(
                Invalid::TooLong { .. } | Invalid::TooMany { .. } | Invalid::TooMuchWork { .. } | Invalid::TooMuchExtractWork { .. },
            ) => Code::ResourceExhausted,
            ApiError::Invalid(_) => Code::InvalidArgument,
            ApiError::NotFound(_) => Code::NotFound,
            ApiError::FailedPrecondition(_) => Code::FailedPrecondition,
            ApiError::Unimplemented(_) => Code::Unimplemented,
            ApiError::PermissionDenied(_) => Code::PermissionDenied,
            ApiError::DeadlineExceeded(_) => Code::DeadlineExceeded,
            ApiError::Unavailable(_) => Code::Unavailable,
            ApiError::Internal(detail) => {
                crate::error_every!("internal error", detail = %detail, "internal error");
                return Status::internal("internal error; see the ladderd log");
            }
        };
        Status::new(code, e.to_string())
    }
}
