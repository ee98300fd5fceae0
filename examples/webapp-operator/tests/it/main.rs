//! The WebApp operator under crdkit-envtest (each test on its own in-process API server), and
//! with the real kubectl applying a bundle to it.

mod common;
mod drift;
#[cfg(feature = "etcd")]
mod etcd;
mod gc;
mod kubectl;
mod lifecycle;
mod owned;
mod status;
