//! Quantity functions (Kubernetes 1.28): mirrors apiserver `pkg/cel/library/quantity.go` and
//! apimachinery `resource.Quantity`.

use std::cmp::Ordering;
use std::fmt;

use super::FnDef;

/// A Kubernetes quantity.
#[derive(Clone, Debug, PartialEq)]
pub struct Quantity {
    pub raw: String,
}

impl Quantity {
    pub(crate) fn cmp_value(&self, other: &Quantity) -> Ordering {
        self.raw.cmp(&other.raw)
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.raw)
    }
}

/// The quantity library.
pub(crate) static FUNCTIONS: &[FnDef] = &[];
