//! Static cost estimation.
