//! crdkit
