//! crdkit-envtest: the harness itself, and kube-rs' runtime pieces (leader election over
//! Leases, the event recorder) against it.

mod harness;
mod leases_events;
