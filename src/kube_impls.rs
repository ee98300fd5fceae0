//! kube-rs integration.
