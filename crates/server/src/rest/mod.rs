//! The generic store below the handlers and the controllers: what happens to an object of any
//! kind when it is written or deleted, whoever asks (a request, the garbage collector).
//!
//! Mirrors apiserver `pkg/registry/generic/registry/store.go` (`Delete` with its preconditions,
//! `markAsDeleting` and the garbage collector's finalizers) and the part of `rest/delete.go`
//! that is not about decoding a request. [`persist`] is the one door to storage for writes:
//! every object a request produces (after conversion to the storage version) goes through it,
//! and so do the effects of a write on what is served (a CRD written here is served at once).

mod delete;
mod persist;

pub(crate) use delete::{
    FOREGROUND_FINALIZER, ORPHAN_FINALIZER, Options, Outcome, Propagation, delete_object,
};
pub(crate) use persist::{create, delete, retry_without_managed_fields, update};
