//! Compiling `x-kubernetes-validations` rules: apiextensions
//! `pkg/apiserver/schema/cel/compilation.go` (`Compile`, `compileRule`, `prepareEnvSet`,
//! `maxCardinality`). Each rule is parsed and checked in the Kubernetes environment of the
//! chosen version with `self` (the node's declaration) and `oldSelf` (the same type, or
//! `optional_type(T)` with `optionalOldSelf: true`), must be a `bool`, and is costed; its
//! `messageExpression` must be a `string`.
//!
//! ```
//! use crdkit_cel_check::rule::{compile_rule, RuleOptions};
//! use crdkit_cel_check::rule::RuleSource;
//! use crdkit_cel_check::decl::schema_decl_type;
//! use crdkit_cel_check::schema::OpenApiSchema;
//!
//! let s = OpenApiSchema::object().with_property("replicas", OpenApiSchema::integer());
//! let decl = schema_decl_type(&s, false).unwrap();
//! let rule = |rule| RuleSource { rule, ..RuleSource::default() };
//!
//! let ok = compile_rule(rule("self.replicas >= oldSelf.replicas"), &decl, &RuleOptions::default());
//! assert!(ok.error.is_none() && ok.uses_old_self);
//!
//! let bad = compile_rule(rule("self.replicas"), &decl, &RuleOptions::default());
//! assert_eq!(bad.error.unwrap().detail, "cel expression must evaluate to a bool");
//! ```

use crate::check::{CheckedAst, compile as compile_expr};
use crate::cost::{self, max_cardinality};
use crate::decl::DeclType;
use crate::env::{CheckEnv, DEFAULT_COMPATIBILITY_VERSION, Version};
use crate::types::Type;

/// `ScopedVarName`.
pub const SCOPED_VAR_NAME: &str = "self";
/// `OldScopedVarName`.
pub const OLD_SCOPED_VAR_NAME: &str = "oldSelf";
/// The name [`RuleOptions::default`] gives `self`'s type (the API server generates
/// `selfType<n>` anew for every CRD update); the derive's checker names it so too.
pub const SELF_TYPE_NAME: &str = "selfType0";

/// How to compile rules.
#[derive(Clone, Debug)]
pub struct RuleOptions {
    /// The Kubernetes version whose environment is used (default: the version the API server
    /// compiles new expressions with, [`DEFAULT_COMPATIBILITY_VERSION`]).
    pub version: Version,
    /// The name of `self`'s type. The API server generates `selfType<nanoseconds>` anew for
    /// every CRD update so that rules cannot depend on it; it shows in type errors.
    pub self_type_name: String,
}

impl Default for RuleOptions {
    fn default() -> Self {
        RuleOptions {
            version: DEFAULT_COMPATIBILITY_VERSION,
            self_type_name: SELF_TYPE_NAME.into(),
        }
    }
}

/// apiserver `cel.ErrorType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RuleErrorType {
    /// `RuleRequired`
    Required,
    /// `RuleInvalid`
    Invalid,
    /// `InternalError`
    Internal,
}

/// A compilation error of a rule or its message expression (apiserver `cel.Error`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleError {
    /// The kind of error, which decides the field error reported for the CRD.
    pub error_type: RuleErrorType,
    /// E.g. `compilation failed: ERROR: <input>:1:6: undefined field 'x'\n | …`.
    pub detail: String,
}

impl RuleError {
    fn invalid(detail: impl Into<String>) -> RuleError {
        RuleError {
            error_type: RuleErrorType::Invalid,
            detail: detail.into(),
        }
    }
}

/// compilation.go `CompilationResult` (programs are the evaluator's: here the checked ASTs).
#[derive(Clone, Debug, Default)]
pub struct CompilationResult {
    /// The checked rule; `None` for a blank rule (not compiled) or on error.
    pub program: Option<CheckedAst>,
    /// Why the rule did not compile (or does not evaluate to a `bool`).
    pub error: Option<RuleError>,
    /// The rule references `oldSelf` (a transition rule).
    pub uses_old_self: bool,
    /// The worst-case estimated cost of one evaluation.
    pub max_cost: u64,
    /// How often the rule can run in the worst case when under unbounded lists or maps.
    pub max_cardinality: u64,
    /// The checked `messageExpression`; `None` without one, when it did not compile, or when
    /// the rule was blank or did not compile.
    pub message_expression: Option<CheckedAst>,
    /// Why the `messageExpression` did not compile (or does not evaluate to a `string`).
    pub message_expression_error: Option<RuleError>,
    /// The worst-case estimated cost of one evaluation of the `messageExpression` (0 without
    /// one).
    pub message_expression_max_cost: u64,
}

/// The environment of a rule on a node declared as `decl` (compilation.go `prepareEnvSet`).
#[must_use]
pub fn rule_env(decl: &DeclType, optional_old_self: bool, opts: &RuleOptions) -> CheckEnv {
    let mut scoped = decl.clone();
    scoped.assign_type_names(&opts.self_type_name);
    let t = scoped.cel_type();
    let mut env = CheckEnv::kubernetes(opts.version).with_variable(SCOPED_VAR_NAME, t.clone());
    if opts.version >= (1, 24) {
        let old = if optional_old_self {
            Type::optional(t)
        } else {
            t
        };
        env = env.with_variable(OLD_SCOPED_VAR_NAME, old);
    }
    env
}

impl CheckEnv {
    /// The environment of an `x-kubernetes-validations` rule on a schema node declared as
    /// `decl`: the Kubernetes environment of `opts.version` with `self` and `oldSelf`
    /// (`optional_type(T)` with `optionalOldSelf: true`), as compilation.go prepares it.
    ///
    /// ```
    /// use crdkit_cel_check::{check, decl::schema_decl_type, env::CheckEnv};
    /// use crdkit_cel_check::rule::RuleOptions;
    /// use crdkit_cel_check::schema::OpenApiSchema;
    ///
    /// let decl = schema_decl_type(&OpenApiSchema::integer(), false).unwrap();
    /// let env = CheckEnv::for_rule(&decl, true, &RuleOptions::default());
    /// assert!(check::compile("self >= oldSelf.orValue(0)", &env).is_ok());
    /// ```
    #[must_use]
    pub fn for_rule(decl: &DeclType, optional_old_self: bool, opts: &RuleOptions) -> CheckEnv {
        rule_env(decl, optional_old_self, opts)
    }
}

/// What compiles of one `x-kubernetes-validations` entry (the CRD model converts its rules).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleSource<'a> {
    /// `rule`.
    pub rule: &'a str,
    /// `messageExpression` (empty when absent).
    pub message_expression: &'a str,
    /// `optionalOldSelf: true`.
    pub optional_old_self: bool,
}

/// compilation.go `compileRule` for the rules of a node declared as `decl`.
#[must_use]
pub fn compile_rule<'a>(
    rule: impl Into<RuleSource<'a>>,
    decl: &DeclType,
    opts: &RuleOptions,
) -> CompilationResult {
    let rule = rule.into();
    let mut result = CompilationResult::default();
    if rule.rule.trim().is_empty() {
        return result;
    }
    let env = rule_env(decl, rule.optional_old_self, opts);
    let checked = match compile_expr(rule.rule, &env) {
        Ok(c) => c,
        Err(e) => {
            result.error = Some(RuleError::invalid(format!("compilation failed: {e}")));
            return result;
        }
    };
    if *checked.output_type() != Type::Bool {
        result.error = Some(RuleError::invalid("cel expression must evaluate to a bool"));
        return result;
    }
    result.uses_old_self = checked.references_ident(OLD_SCOPED_VAR_NAME);
    result.max_cost = cost::estimate(&checked, Some(decl), opts.version).max;
    result.max_cardinality = max_cardinality(decl.min_serialized_size);
    result.program = Some(checked);
    if !rule.message_expression.is_empty() {
        match compile_expr(rule.message_expression, &env) {
            Err(e) => {
                result.message_expression_error = Some(RuleError::invalid(format!(
                    "messageExpression compilation failed: {e}"
                )));
            }
            Ok(m) if *m.output_type() != Type::String => {
                result.message_expression_error = Some(RuleError::invalid(
                    "messageExpression must evaluate to a string",
                ));
            }
            Ok(m) => {
                result.message_expression_max_cost =
                    cost::estimate(&m, Some(decl), opts.version).max;
                result.message_expression = Some(m);
            }
        }
    }
    result
}

/// compilation.go `Compile`: every rule of a node, in order.
#[must_use]
pub fn compile_rules<'a, R: 'a>(
    rules: &'a [R],
    decl: &DeclType,
    opts: &RuleOptions,
) -> Vec<CompilationResult>
where
    &'a R: Into<RuleSource<'a>>,
{
    rules.iter().map(|r| compile_rule(r, decl, opts)).collect()
}
