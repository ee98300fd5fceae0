//! Evaluation errors: cel-go's `types.Err` messages (`common/types/err.go`, the interpreter's
//! attribute errors in `interpreter/attributes.go`) and the cost-limit cancellation of
//! `interpreter/runtimecost.go`.

use std::borrow::Cow;
use std::fmt;

/// An error produced while evaluating a program. `Display` is cel-go's message, which the API
/// server shows as `<message> evaluating rule: <rule>`.
#[derive(Clone, PartialEq, Eq)]
pub struct EvalError(Box<Inner>);

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    kind: EvalErrorKind,
    message: Cow<'static, str>,
}

/// What went wrong, for callers that branch on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalErrorKind {
    /// `1 + 'a'` on dynamic values: `no such overload` (and its variants).
    NoSuchOverload,
    /// `{'a': 1}.b`: `no such key: b`.
    NoSuchKey,
    /// `[1][2]`: `index out of bounds: 2` / `index '2' out of range in list size '1'`.
    IndexOutOfBounds,
    /// An unbound variable: `no such attribute(s): x`.
    NoSuchAttribute,
    /// `9223372036854775807 + 1`: `integer overflow` (and `unsigned integer overflow`).
    Overflow,
    /// `1 / 0`: `division by zero`; `1 % 0`: `modulus by zero`.
    DivisionByZero,
    /// The actual cost went over the limit: `operation cancelled: actual cost limit exceeded`.
    /// Never absorbed by `&&` or `||`.
    CostLimitExceeded,
    /// Every other error (conversions, ranges, library functions).
    Other,
}

/// cel-go's message for a cancelled evaluation.
pub const COST_LIMIT_MESSAGE: &str = "operation cancelled: actual cost limit exceeded";

impl EvalError {
    /// An error of the given kind with cel-go's message.
    pub fn new(kind: EvalErrorKind, message: impl Into<Cow<'static, str>>) -> EvalError {
        EvalError(Box::new(Inner {
            kind,
            message: message.into(),
        }))
    }

    /// An [`EvalErrorKind::Other`] error.
    pub fn other(message: impl Into<Cow<'static, str>>) -> EvalError {
        EvalError::new(EvalErrorKind::Other, message)
    }

    /// `no such overload`
    #[must_use]
    pub fn no_such_overload() -> EvalError {
        EvalError::new(EvalErrorKind::NoSuchOverload, "no such overload")
    }

    /// `no such overload: <function>`
    #[must_use]
    pub fn no_such_overload_fn(function: &str) -> EvalError {
        EvalError::new(
            EvalErrorKind::NoSuchOverload,
            format!("no such overload: {function}"),
        )
    }

    /// `no such key: <key>`
    #[must_use]
    pub fn no_such_key(key: impl fmt::Display) -> EvalError {
        EvalError::new(EvalErrorKind::NoSuchKey, format!("no such key: {key}"))
    }

    /// `integer overflow`
    #[must_use]
    pub fn int_overflow() -> EvalError {
        EvalError::new(EvalErrorKind::Overflow, "integer overflow")
    }

    /// `unsigned integer overflow`
    #[must_use]
    pub fn uint_overflow() -> EvalError {
        EvalError::new(EvalErrorKind::Overflow, "unsigned integer overflow")
    }

    /// The cost-limit cancellation.
    #[must_use]
    pub fn cost_limit() -> EvalError {
        EvalError::new(EvalErrorKind::CostLimitExceeded, COST_LIMIT_MESSAGE)
    }

    /// The kind of the error.
    #[must_use]
    pub fn kind(&self) -> EvalErrorKind {
        self.0.kind
    }

    /// The message (the same as `Display`).
    #[must_use]
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// Whether evaluation was cancelled; such an error stops evaluation wherever it is.
    #[must_use]
    pub fn is_cancelled(&self) -> bool {
        self.0.kind == EvalErrorKind::CostLimitExceeded
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.message)
    }
}

impl fmt::Debug for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EvalError({:?}: {})", self.0.kind, self.0.message)
    }
}

impl std::error::Error for EvalError {}

/// `Result` of evaluation steps.
pub type EvalResult<'a> = Result<super::Value<'a>, EvalError>;
