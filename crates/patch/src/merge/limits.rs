//! crdkit's bound on the work of one patch (Go has none: its decoder stops at 10,000 levels).

use crate::error::PatchError;

/// Bounds on the work of one patch, beyond what Go has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// How deep maps and lists may nest in the object and the patch (the root object is level
    /// 1). The API server's decoder already stops bodies at 10,000 levels; crdkit's server
    /// stops them at 127, so the default of 200 only guards other callers' stacks.
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_depth: 200 }
    }
}

/// Fails when `depth` is past the limit.
pub(crate) fn check_depth(limits: Limits, depth: usize) -> Result<(), PatchError> {
    if depth > limits.max_depth {
        return Err(PatchError::TooDeep {
            limit: limits.max_depth,
        });
    }
    Ok(())
}
