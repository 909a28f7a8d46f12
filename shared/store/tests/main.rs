//! The stores against the store contract (`store::testing`), in one binary: SQLite with the
//! `sqlite` feature, DynamoDB (moto, or `BEURS_TEST_DYNAMODB_URL`) with `dynamo`.

#[cfg(feature = "sqlite")]
mod contract;
#[cfg(feature = "dynamo")]
mod dynamo_contract;
