//! The CEL type checker: cel-go `checker/` (`checker.go`, `types.go`, `errors.go`) on our
//! [`Ast`] and the AST validators Kubernetes enables from 1.29 (cel-go `cel/validator.go`); the
//! compilation of `x-kubernetes-validations` rules, which also costs them, is in
//! [`crate::rule`].
//!
//! The checker's output is a [`CheckedAst`]: the expression with side tables indexed by
//! [`ExprId`] (the type of every node and the resolved reference of identifiers and calls), so
//! the evaluator never checks again. Errors print exactly as cel-go's:
//!
//! ```
//! use crdkit_cel_check::{check, env::CheckEnv, types::Type};
//!
//! let env = CheckEnv::kubernetes((1, 30)).with_variable("self", Type::Int);
//! let err = check::compile("self == true", &env).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(int, bool)'\n | self == true\n | .....^"
//! );
//! let checked = check::compile("self + 1 > 2", &env).unwrap();
//! assert_eq!(checked.output_type(), &Type::Bool);
//! ```

mod aggregate;
mod call;
mod checker;
mod debug;
mod format;
mod time;
mod unify;
mod validate;
#[doc(hidden)]
pub mod walk;

use std::fmt;

use crate::env::CheckEnv;
use crate::types::Type;
use crate::{Ast, ExprId, ExprKind, Issue, ParseErrors, Source, parse_with};

pub use debug::checked_debug_string;
#[doc(hidden)]
pub use validate::valid_literal_argument;

/// What an identifier or call resolved to (cel-go `ReferenceInfo`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reference {
    /// A variable (`self`, a comprehension variable) or type name, by its resolved name. On a
    /// `Select` node, the whole selection is the qualified identifier of that name.
    Ident(String),
    /// A call: the resolved function name and the overloads that may apply, in declaration
    /// order. When `namespaced`, the call's target is part of the function name
    /// (`sets.contains(a, b)`) and is not an argument.
    Function {
        /// The function name (`_+_`, `size`); for a namespaced call, qualified
        /// (`sets.contains`).
        function: String,
        /// The ids of the overloads whose signatures accept the checked argument types
        /// (`add_int64`); several when those types do not pick one, as with `dyn`.
        overloads: Vec<String>,
        /// The call's target is part of the function name, not its receiver.
        namespaced: bool,
    },
}

/// A type-checked expression.
#[derive(Clone, Debug)]
pub struct CheckedAst {
    /// The parsed expression, with macros expanded.
    pub ast: Ast,
    /// The expression's text, for the positions in messages.
    pub source: Source,
    /// The type of each node, indexed by [`ExprId::index`]; `None` for nodes the checker did not
    /// visit (entries, the operands of qualified names).
    pub types: Vec<Option<Type>>,
    /// The reference of each identifier and call, indexed by [`ExprId::index`].
    pub refs: Vec<Option<Reference>>,
}

impl CheckedAst {
    /// The type of the whole expression.
    #[must_use]
    pub fn output_type(&self) -> &Type {
        self.type_of(self.ast.root).unwrap_or(&Type::Error)
    }

    /// The type the checker gave node `id`; `None` for a node it did not visit (cel-go
    /// `ast.AST.TypeMap`).
    #[must_use]
    pub fn type_of(&self, id: ExprId) -> Option<&Type> {
        self.types.get(id.index()).and_then(Option::as_ref)
    }

    /// What the identifier or call `id` resolved to (cel-go `ast.AST.ReferenceMap`).
    #[must_use]
    pub fn reference(&self, id: ExprId) -> Option<&Reference> {
        self.refs.get(id.index()).and_then(Option::as_ref)
    }

    /// The overload ids a call resolved to.
    #[must_use]
    pub fn overload_ids(&self, id: ExprId) -> &[String] {
        match self.reference(id) {
            Some(Reference::Function { overloads, .. }) => overloads,
            _ => &[],
        }
    }

    /// The receiver of a call as evaluated: `None` for global calls and namespaced functions.
    #[must_use]
    pub fn call_target(&self, id: ExprId) -> Option<ExprId> {
        match (&self.ast.expr(id).kind, self.reference(id)) {
            (
                _,
                Some(Reference::Function {
                    namespaced: true, ..
                }),
            ) => None,
            (ExprKind::Call { target, .. }, _) => *target,
            _ => None,
        }
    }

    /// Whether any identifier resolved to `name` (compilation.go's `UsesOldSelf` test).
    #[must_use]
    pub fn references_ident(&self, name: &str) -> bool {
        self.refs
            .iter()
            .flatten()
            .any(|r| matches!(r, Reference::Ident(n) if n == name))
    }
}

/// Parse or check errors, displayed as cel-go's `Issues.String()`.
#[derive(Clone, Debug)]
pub struct CheckErrors {
    /// The errors; the display keeps the first 100 and sorts them by position.
    pub issues: Vec<Issue>,
    /// The expression, for the snippets of [`Issue::display`].
    pub source: Source,
}

impl fmt::Display for CheckErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let errors = ParseErrors::new(self.issues.clone(), self.source.clone());
        fmt::Display::fmt(&errors, f)
    }
}

impl std::error::Error for CheckErrors {}

impl From<ParseErrors> for CheckErrors {
    fn from(e: ParseErrors) -> CheckErrors {
        CheckErrors {
            issues: e.issues,
            source: e.source,
        }
    }
}

/// Type-checks a parsed expression, then runs the environment's AST validators.
///
/// # Errors
///
/// [`CheckErrors`] with the type errors (undeclared references, no matching overload, …), or,
/// for an expression that type-checks, with what the AST validators rejected.
pub fn check(ast: &Ast, source: &Source, env: &CheckEnv) -> Result<CheckedAst, CheckErrors> {
    let (types, refs, issues) = walk::with_stack(ast, || {
        let mut c = checker::Checker::new(ast, source, env);
        c.run();
        (c.types, c.refs, c.issues)
    });
    let fail = |issues| CheckErrors {
        issues,
        source: source.clone(),
    };
    if !issues.is_empty() {
        return Err(fail(issues));
    }
    let checked = CheckedAst {
        ast: ast.clone(),
        source: source.clone(),
        types,
        refs,
    };
    let issues = validate::validate(&checked, env);
    if issues.is_empty() {
        Ok(checked)
    } else {
        Err(fail(issues))
    }
}

/// Parses with the environment's parser settings and checks (cel-go `Env.Compile`).
///
/// # Errors
///
/// [`CheckErrors`] with the parse errors, or those of [`check`].
pub fn compile(src: &str, env: &CheckEnv) -> Result<CheckedAst, CheckErrors> {
    let ast = parse_with(src, &crate::env::parse_options(env.version))?;
    check(&ast, &Source::new(src), env)
}
