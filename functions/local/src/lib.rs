//! The pieces of the `beurs` binary: the local HTTP server over the embedded store or, with
//! the `dynamo` feature, a DynamoDB table ([`serve`], [`store_choice`]) and offline audit
//! verification ([`verify`]), and the command line that chooses between them ([`cli`]).
//!
//! Architecture invariant: no route logic lives here. The server turns hyper requests into
//! the `lambda_http` requests the API handlers take and calls `api::route`, the same code
//! the Lambda functions run.

pub mod apps;
pub mod arena;
pub mod bench;
pub mod cli;
pub mod serve;
pub mod store_choice;
pub mod verify;
