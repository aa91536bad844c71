//! Generated protobuf and gRPC code, wrapped once. Nothing outside
//! `convert` and `grpc` uses these types.
#![allow(clippy::all, missing_docs)]

tonic::include_proto!("ladder.v1");

/// Encoded descriptor set of `ladder.v1`, for server reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("ladder_descriptor");
