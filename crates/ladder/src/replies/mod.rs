//! Replies (spec section 4c): a turn read as an answer to what was asked.

pub mod reading;
pub mod values;
