//! The integration tests of the example, one binary.

mod binary;
mod derived;
