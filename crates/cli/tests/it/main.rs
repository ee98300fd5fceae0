//! The integration tests of crdkit-cli, one binary.

mod convert_webhook;
