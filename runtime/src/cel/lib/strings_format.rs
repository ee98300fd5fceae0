//! `<string>.format(<list>)` of the strings extension (version 1 clause semantics): mirrors
//! cel-go `ext/formatting.go`.

use super::FnDef;

/// `format`.
pub(crate) static FUNCTIONS: &[FnDef] = &[];
