//! The `beurs` binary as a process: crash durability, the edge over real sockets, and (with
//! the `dynamo` feature) `beurs serve --store dynamodb`. One binary for all of them.

#[cfg(feature = "dynamo")]
mod dynamo_serve;
mod edge_process;
mod process;
