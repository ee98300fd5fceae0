//! crdkit-protobuf's integration tests: one binary (see STYLE.md).

mod common;
mod golden;
mod hostile;
mod kubectl;
mod openapi;
mod prost_cross;
mod roundtrip;
mod watch;
