//! A kube-rs operator owning built-in kinds, tested end to end with crdkit-envtest.
//!
//! For each `WebApp` (a custom resource from `#[derive(crdkit::CustomResource)]`) it keeps a
//! ServiceAccount, a Secret, a Deployment and a Service of the same name:
//!
//! - written by server-side apply with its own field manager ([`MANAGER`]) and `force`, each
//!   with a controller reference (`controller`, `blockOwnerDeletion`) to the WebApp
//!   ([`owned`]);
//! - watched (`Controller::owns` for each kind), so an owned object edited or deleted by hand is
//!   put back;
//! - the WebApp's status from the Deployment and Service the API server returned
//!   (`observedGeneration`, the Deployment's `spec.replicas` and `readyReplicas`, the allocated
//!   cluster IP, a `Ready` condition) ([`status`]);
//! - no finalizer: the garbage collector removes the owned objects with their WebApp.
//!
//! It leans on the API server's defaults instead of spelling them out: the Deployment's strategy
//! and history limit, the Pod template's, the Service's type and cluster IP, the Secret's `data`
//! from `stringData`.
#![forbid(unsafe_code)]

mod controller;
pub mod owned;
mod resource;
pub mod status;

pub use controller::{Context, Error, reconcile, run};
pub use resource::{WebApp, WebAppSpec, WebAppStatus};

/// The field manager of every write of the operator.
pub const MANAGER: &str = "webapp-operator";
