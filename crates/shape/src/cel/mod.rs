//! Mirrors `crates/cel-check/src/check/` and `crates/cel-check/src/cost/` in `const fn`s.
//!
//! CEL rules checked in `const fn`s: the type checker and cost estimator of
//! [`crdkit_cel_check`] re-done over `'static` data, so that `#[derive(Schema)]` can fail the build
//! with the API server's own message when a rule would not compile, and `#[derive
//! (CustomResource)]` when the CRD's rules together exceed the cost limits.
//!
//! - [`ast`]: a parsed rule as static data, written by the derive ([`lower`] builds it);
//! - `schema`: the schema nodes a rule reaches, seen as the build and `SchemaDeclType` see them;
//! - `types`, `unify`: CEL types in a fixed arena, cel-go's assignability and substitution;
//! - `check` (with `call`, `aggregate`, `validate`): cel-go's checker, its walk order, its
//!   overload resolution over [`crdkit_cel_check::env::OVERLOADS`], its AST validators, its messages;
//! - `cost` (with `cost_call`): cel-go's static cost estimator and the Kubernetes estimators, on
//!   the formulas of [`crdkit_cel_check::cost`];
//! - `rule`: one rule as the API server checks it ([`check_rule`]); `walk`: the checks of a whole
//!   CRD ([`check_crd`]).
//!
//! Only what generated code, the derive and the tests need is public.
//!
//! The run-time checker stays the reference: tests run both on the same rules and schemas
//! (`tests/it/cel_const.rs`) and require the same verdicts, messages and costs.
//!
//! ```
//! use crdkit_shape::cel::{check_rule, lower::lower_source, NodeRef, RuleSrc, Site};
//! use crdkit_shape::Shape;
//!
//! static N: Shape = Shape::integer();
//! let ast = lower_source("self == true").unwrap().leak();
//! let src = RuleSrc { rule: "self == true", ast, message_ast: None, optional_old_self: false, field_path: None };
//! let site = Site { name: "S.n", items_of: None, resource_root: false };
//! let err = check_rule(site, NodeRef::Shape(&N), &src).unwrap_err();
//! assert_eq!(err.as_str(), "invalid rule on `S.n`: compilation failed: ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(int, bool)'\n | self == true\n | .....^");
//! ```

mod aggregate;
pub use crdkit_cel_check::static_ast as ast;
mod call;
mod check;
mod cost;
mod cost_call;
pub use crdkit_cel_check::static_ast::lower;
mod report;
mod rule;
mod schema;
mod types;
mod unify;
mod validate;
mod walk;

pub use ast::Ast;
pub use ast::{MAX_NODES, MAX_VARS};
pub use check::MAX_ISSUES;
pub use rule::{
    Part, RuleInfo, RuleSrc, Site, check_part, check_rule, cost_error, resolve_field_path,
    rule_info, spec_hint,
};
pub use schema::{NodeRef, child};
pub use walk::check_crd;
