//! crdkit-envtest: the harness itself, kube-rs' runtime pieces (leader election over Leases,
//! the event recorder) against it, and an operator owning built-in kinds.

mod harness;
mod leases_events;
mod owned_builtins;
