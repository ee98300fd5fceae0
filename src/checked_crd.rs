//! `crd()` of a generated root: the CRD the derive built, and, where a part of its schema was
//! only known at run time, the API server's checks of that CRD.
//!
//! The compile-time checks see every shape except those computed when the CRD is built: a
//! `#[crd(schemars)]` field's schema (converted from schemars, where a parent's CEL rule may
//! name a field that is not there, a keyword may not fit the type, a list may be unbounded)
//! and a `default = function`'s value. What the structural checks of `crdkit-schema` alone would
//! catch there is the shape of the schema; the rules reaching into it (compiled, costed with
//! the cardinality of every list above them) and the defaults (validated and pruned against
//! their schema) need the API server's CRD validation, which lives in `crdkit-crd` above the
//! shapes. So the generated `crd()` comes here, to the facade, which runs
//! `crd_check::check_crd_full` on such CRDs when the `crd` feature is on (`schemars` turns it
//! on; `default` functions without it are checked by `crdgen check`).

use crdkit_schema::crd::CustomResourceDefinition;
use crdkit_shape::resource::{CrdError, ResourceDecl};

/// The CRD of `decl`, checked as the API server checks it on create when a part of its schema
/// is only known at run time.
///
/// # Errors
/// When a run-time part has no structural schema, when the CRD is over etcd's size limit, or
/// (feature `crd`) when the API server would reject the CRD.
pub fn checked_crd(decl: &ResourceDecl) -> Result<CustomResourceDefinition, CrdError> {
    let crd = decl.crd()?;
    #[cfg(feature = "crd")]
    if decl.has_run_time_parts() {
        let errors = crdkit_crd::crd_check::check_crd_full(&crd);
        if !errors.is_empty() {
            return Err(CrdError {
                errors: errors
                    .iter()
                    .map(|e| crdkit_shape::BuildError {
                        path: String::new(),
                        message: e.to_string(),
                    })
                    .collect(),
            });
        }
    }
    Ok(crd)
}
