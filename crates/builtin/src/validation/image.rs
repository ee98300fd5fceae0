//! A container's image: its spelling and its pull policy (also an image volume's).
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go` (`validateContainerOnlyForPod`,
//! `validatePullPolicy`).

use super::read::{Obj, str_of};
use crdkit_apimachinery::field::{FieldError, FieldPath};

/// `validateContainerOnlyForPod`: no whitespace around the image.
pub(crate) fn only_for_pod(c: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let image = str_of(c, "image");
    if image.len() != image.trim().len() {
        errs.push(FieldError::invalid(
            &p.child("image"),
            image,
            "must not have leading or trailing whitespace",
        ));
    }
}

/// `validatePullPolicy`.
pub(crate) fn pull_policy(policy: &str, p: &FieldPath, errs: &mut Vec<FieldError>) {
    match policy {
        "Always" | "IfNotPresent" | "Never" => {}
        "" => errs.push(FieldError::required(p, "")),
        other => errs.push(FieldError::not_supported(
            p,
            other,
            &["Always", "IfNotPresent", "Never"],
        )),
    }
}
