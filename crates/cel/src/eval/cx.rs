//! The evaluation context every interpreter step shares (variables, locals, the running cost) and
//! the propagation of cancellations: the layer below the interpreter (`interp.rs`) and its fast
//! paths (`fast.rs`, `fold.rs`, `attr.rs`), which call back into each other only through
//! `Node::eval`.

use crate::library::Env;
use crate::value::{EvalError, EvalResult};

pub(crate) use crate::cost::LIST_CREATE_BASE_COST as LIST_CREATE;

/// Evaluation state: variables, comprehension locals and the running cost.
pub(crate) struct Cx<'a, 'x> {
    pub vars: &'x [Option<&'x EvalResult<'a>>],
    pub names: &'x [String],
    pub locals: &'x mut [EvalResult<'a>],
    pub env: &'a Env,
    pub cost: u64,
    pub limit: u64,
    pub presence_test_cost: bool,
    pub error_on_bad_presence_test: bool,
    /// The address of the schema the program was compiled for (`resolve.rs`), or 0.
    pub anchor: usize,
    /// The JSON found at the end of resolved chains selected more than once.
    pub memos: &'x super::resolve::Memos<'a>,
}

impl<'a> Cx<'a, '_> {
    /// Adds to the cost and cancels once it exceeds the limit (cel-go checks after every
    /// observed step).
    #[inline]
    pub(crate) fn charge(&mut self, n: u64) -> Result<(), EvalError> {
        self.cost = self.cost.saturating_add(n);
        if self.cost > self.limit {
            Err(EvalError::cost_limit())
        } else {
            Ok(())
        }
    }
}

/// Propagates a cancellation found in a result that would otherwise be absorbed or deferred.
#[inline]
pub(crate) fn cancelled(r: &EvalResult<'_>) -> Result<(), EvalError> {
    match r {
        Err(e) if e.is_cancelled() => Err(e.clone()),
        _ => Ok(()),
    }
}

#[inline]
pub(crate) fn cancelled_err(e: &EvalError) -> Result<(), EvalError> {
    if e.is_cancelled() {
        Err(e.clone())
    } else {
        Ok(())
    }
}
