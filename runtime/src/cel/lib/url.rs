//! URL functions (Kubernetes 1.23): mirrors apiserver `pkg/cel/library/urls.go` and
//! `pkg/cel/url.go`.

use super::FnDef;

/// A parsed URL.
#[derive(Clone, Debug, PartialEq)]
pub struct Url {
    pub raw: String,
}

/// The URL library.
pub(crate) static FUNCTIONS: &[FnDef] = &[];
