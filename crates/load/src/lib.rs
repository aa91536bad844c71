//! The load tool's library: the sample option sets that `ladderd-load`, the
//! daemon's benches and its tests share, so they all measure the same pools.
#![forbid(unsafe_code)]

pub mod samples;
