//! CEL as Kubernetes uses it.
