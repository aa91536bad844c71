//! Compiles `proto/ladder/v1/ladder.proto` with protox (a pure-Rust protobuf
//! compiler), so building needs no system `protoc`. The encoded descriptor
//! set is written to `OUT_DIR` for gRPC server reflection.

use prost::Message;
use std::{env, fs, path::PathBuf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let proto = "proto/ladder/v1/ladder.proto";
    println!("cargo:rerun-if-changed={proto}");
    let fds = protox::compile([proto], ["proto"])?;
    let out = PathBuf::from(env::var("OUT_DIR")?);
    fs::write(out.join("ladder_descriptor.bin"), fds.encode_to_vec())?;
    tonic_prost_build::configure().build_client(true).build_server(true).compile_fds(fds)?;
    Ok(())
}
