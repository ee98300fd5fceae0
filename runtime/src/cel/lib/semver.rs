//! Semantic versions (Kubernetes 1.33): mirrors apiserver `pkg/cel/library/semverlib.go`.

use std::fmt;

use super::FnDef;

/// A semantic version.
#[derive(Clone, Debug, PartialEq)]
pub struct Semver {
    pub raw: String,
}

impl fmt::Display for Semver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.raw)
    }
}

/// The semver library.
pub(crate) static FUNCTIONS: &[FnDef] = &[];
