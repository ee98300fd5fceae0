//! CRDs read from files: which documents are CRDs, each decoded with its position, and the
//! warnings their reading gives. Used by every command that takes CRD files.

use std::io::Write;
use std::path::Path;

use serde_json::Value;

use crate::exit::Failure;
use crate::load::{self, Document, LoadError};
use crdkit_schema::crd::CustomResourceDefinition;

/// Whether a document is a CRD (`apiextensions.k8s.io/v1` or `v1beta1`).
pub(crate) fn is_crd(v: &Value) -> bool {
    v.get("kind").and_then(Value::as_str) == Some(CustomResourceDefinition::KIND)
        && matches!(
            v.get("apiVersion").and_then(Value::as_str),
            Some("apiextensions.k8s.io/v1" | "apiextensions.k8s.io/v1beta1")
        )
}

/// A document as a CRD, or why not at the document's file and line.
pub(crate) fn read_crd(doc: &Document) -> Result<CustomResourceDefinition, LoadError> {
    CustomResourceDefinition::from_value(doc.value.clone()).map_err(|e| LoadError {
        file: doc.file.clone(),
        line: doc.line,
        column: 0,
        message: e.to_string(),
    })
}

/// `Warning: FILE:LINE: duplicate field "spec.replicas"` for each key a CRD document gives twice
/// (the last value is kept; see [`load::parse`]).
pub(crate) fn warn_duplicates(err: &mut dyn Write, doc: &Document) {
    for d in &doc.duplicates {
        let _ = writeln!(
            err,
            "Warning: {}: {}",
            doc.position(),
            crdkit_apimachinery::strict::duplicate_field(&d.path)
        );
    }
}

/// The CRDs `given` holds, each with its position: every document of a file, or the CRD
/// documents of a directory (directories hold other things beside CRDs: a kustomization, a
/// policy). Duplicate keys are warned about on `err`.
///
/// # Errors
/// [`Failure::Input`] when a file cannot be read or a document is not a CRD.
pub(crate) fn read_crds(
    given: &Path,
    err: &mut dyn Write,
) -> Result<Vec<(String, CustomResourceDefinition)>, Failure> {
    let mut crds = Vec::new();
    for f in load::expand(&[given.to_owned()])? {
        for doc in load::load(&f)? {
            if given.is_dir() && !is_crd(&doc.value) {
                continue;
            }
            crds.push((doc.position(), read_crd(&doc)?));
            warn_duplicates(err, &doc);
        }
    }
    Ok(crds)
}
