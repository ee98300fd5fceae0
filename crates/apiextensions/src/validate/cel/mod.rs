//! `x-kubernetes-validations` in validation: every rule of a schema compiled once, then run
//! over custom objects as the API server runs them.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/schema/cel/validation.go`: [`CelValidator`]
//! is Go's `Validator` tree (`NewValidator`, `validator`), built only along the paths that lead
//! to rules; [`CelValidator::validate`] is `Validator.Validate` (in `walk.rs`). Rules are compiled
//! with the newest environment, as the API server compiles stored expressions
//! (`StoredExpressionsEnvLoader`).
//!
//! ```
//! use crdkit_apimachinery::field::FieldPath;
//! use crdkit_schema::{Structural, Type, ValidationRule};
//! use crdkit_apiextensions::validate::cel::CelValidator;
//! use serde_json::json;
//!
//! let mut spec = Structural::of_type(Type::Object);
//! spec.properties.insert("min".into(), Structural::of_type(Type::Integer));
//! spec.properties.insert("max".into(), Structural::of_type(Type::Integer));
//! spec.extensions.validations.push(ValidationRule {
//!     rule: "self.min <= self.max".into(),
//!     ..Default::default()
//! });
//! let mut root = Structural::of_type(Type::Object);
//! root.properties.insert("spec".into(), spec);
//!
//! let v = CelValidator::new(&root, true);
//! let obj = json!({"spec": {"min": 3, "max": 1}});
//! let errs = v.validate(&FieldPath::nil(), &obj, None, None).errors;
//! assert_eq!(errs[0].to_string(), "spec: Invalid value: failed rule: self.min <= self.max");
//! ```

mod rules;
mod walk;

use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

use serde_json::Value;

use crate::ratchet::Correlated;
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_cel::check::CheckedAst;
use crdkit_cel::check::walk::with_stack;
use crdkit_cel::decl::{DeclType, schema_decl_type};
use crdkit_cel::env::{NEWEST_VERSION, Version};
use crdkit_cel::escaping::escape;
use crdkit_cel::eval::{CompileOptions, PER_CALL_LIMIT, Program, RUNTIME_CEL_COST_BUDGET};
use crdkit_cel::rule::{RuleOptions, compile_rule};
use crdkit_schema::{NestedValueValidation, Structural, ValidationRule, valid_field_path};

/// How rules are compiled and run.
#[derive(Clone, Debug)]
pub struct CelOptions {
    /// `PerCallLimit`: the cost at which one evaluation is cancelled.
    pub per_call_limit: u64,
    /// The Kubernetes version whose environment compiles the rules (the API server compiles
    /// stored rules with its newest).
    pub version: Version,
}

impl Default for CelOptions {
    fn default() -> Self {
        CelOptions {
            per_call_limit: PER_CALL_LIMIT,
            version: NEWEST_VERSION,
        }
    }
}

/// The rules of a schema, compiled (Go's `Validator`), with the schema they were compiled for.
#[derive(Debug)]
pub struct CelValidator {
    /// Shared with the programs, which are compiled for its nodes (`CompileOptions`'s
    /// `self_schema`).
    schema: Arc<Structural>,
    root: Option<Node>,
    per_call_limit: u64,
}

/// What [`CelValidator::validate`] found.
#[derive(Debug)]
pub struct CelResult {
    /// Rules that failed (unless ratcheting made them warnings), could not be compiled or
    /// evaluated, or ran out of the cost budget.
    pub errors: Vec<FieldError>,
    /// Failures on unchanged values that ratcheting dropped; the API server returns them to
    /// the client as warnings (`<path>: <error>`).
    pub warnings: Vec<FieldError>,
    /// The budget left; negative once a rule ran out of it (then no further rule ran).
    pub remaining_budget: i64,
}

/// A node of the validator tree: the rules at one schema node and the children leading to more.
#[derive(Debug, Default)]
struct Node {
    rules: Vec<Rule>,
    /// `compilationErr`: the rules could not be compiled at all (no CEL type for the node).
    init_error: Option<String>,
    /// The root of the resource or of an embedded resource (`apiVersion`, `kind` and
    /// `metadata.name`/`generateName` visible).
    is_resource_root: bool,
    items: Option<Box<Node>>,
    properties: BTreeMap<String, Node>,
    additional: Option<Box<Node>>,
    all_of: Vec<Node>,
}

/// One rule, as written and as compiled.
#[derive(Debug)]
struct Rule {
    source: ValidationRule,
    compiled: Compiled,
}

#[derive(Debug)]
enum Compiled {
    /// A blank rule: skipped.
    Blank,
    /// `rule compile error: <detail>`.
    Error(String),
    Ok(Box<CompiledRule>),
}

#[derive(Debug)]
struct CompiledRule {
    program: Program,
    uses_old_self: bool,
    message_expression: Option<Program>,
    /// `NormalizedRuleFieldPath`, as Go prints it.
    field_path: Option<String>,
}

/// The source of a node's rules: a schema node, or a branch of `allOf` (whose rules run on the
/// node that has the `allOf`).
#[derive(Clone, Copy)]
enum Rules<'s> {
    Schema(&'s Structural),
    Nested(&'s NestedValueValidation),
}

impl<'s> Rules<'s> {
    fn validations(self) -> &'s [ValidationRule] {
        match self {
            Rules::Schema(s) => &s.extensions.validations,
            Rules::Nested(n) => &n.forbidden_extensions.validations,
        }
    }
    fn items(self) -> Option<Rules<'s>> {
        match self {
            Rules::Schema(s) => s.items.as_deref().map(Rules::Schema),
            Rules::Nested(n) => n.items.as_deref().map(Rules::Nested),
        }
    }
    fn additional(self) -> Option<Rules<'s>> {
        match self {
            Rules::Schema(s) => s.additional_properties_schema().map(Rules::Schema),
            Rules::Nested(n) => n.additional_properties.as_deref().map(Rules::Nested),
        }
    }
    fn properties(self) -> Vec<(&'s str, Rules<'s>)> {
        match self {
            Rules::Schema(s) => s
                .properties
                .iter()
                .map(|(k, v)| (k.as_str(), Rules::Schema(v)))
                .collect(),
            Rules::Nested(n) => n
                .properties
                .iter()
                .map(|(k, v)| (k.as_str(), Rules::Nested(v)))
                .collect(),
        }
    }
    fn all_of(self) -> &'s [NestedValueValidation] {
        match self {
            Rules::Schema(s) => &s.value_validation.all_of,
            Rules::Nested(n) => &n.value_validation.all_of,
        }
    }
}

impl CelValidator {
    /// Compiles every rule of `schema` with the API server's limits; `is_resource_root` for
    /// the root of a resource (and for schemas with `x-kubernetes-embedded-resource`).
    #[must_use]
    pub fn new(schema: &Structural, is_resource_root: bool) -> CelValidator {
        CelValidator::with_options(schema, is_resource_root, &CelOptions::default())
    }

    /// [`CelValidator::new`] with other limits or another environment version.
    #[must_use]
    pub fn with_options(
        schema: &Structural,
        is_resource_root: bool,
        opts: &CelOptions,
    ) -> CelValidator {
        if !has_rules(Rules::Schema(schema)) {
            return CelValidator {
                schema: Arc::default(),
                root: None,
                per_call_limit: opts.per_call_limit,
            };
        }
        CelValidator::compile_all(schema, is_resource_root, opts)
    }

    /// Like [`CelValidator::with_options`], without first looking for rules (Go's unexported
    /// `validator`, which its tests call directly). Both compile the rules of `allOf` branches.
    #[must_use]
    pub fn compile_all(
        schema: &Structural,
        is_resource_root: bool,
        opts: &CelOptions,
    ) -> CelValidator {
        let decl = schema_decl_type(schema, is_resource_root);
        let schema = Arc::new(schema.clone());
        let root = build(
            Rules::Schema(&schema),
            &schema,
            is_resource_root,
            decl.as_ref(),
            &Compiling {
                opts,
                root: &schema,
            },
        );
        CelValidator {
            schema: if root.is_some() {
                schema
            } else {
                Arc::default()
            },
            root,
            per_call_limit: opts.per_call_limit,
        }
    }

    /// Whether the schema has any rule (else validation does nothing).
    #[must_use]
    pub fn has_rules(&self) -> bool {
        self.root.is_some()
    }

    /// Runs the rules over `obj` at `path` (Go's `Validate` with `RuntimeCELCostBudget`);
    /// transition rules run where `old` has a correlated value. With `ratchet` (an update),
    /// failures of rules that do not use `oldSelf` on unchanged values are dropped.
    #[must_use]
    pub fn validate(
        &self,
        path: &FieldPath,
        obj: &Value,
        old: Option<&Value>,
        ratchet: Option<&Rc<Correlated<'_>>>,
    ) -> CelResult {
        self.validate_with_budget(path, obj, old, ratchet, RUNTIME_CEL_COST_BUDGET_I64)
    }

    /// [`CelValidator::validate`] with a given cost budget.
    #[must_use]
    pub fn validate_with_budget(
        &self,
        path: &FieldPath,
        obj: &Value,
        old: Option<&Value>,
        ratchet: Option<&Rc<Correlated<'_>>>,
        budget: i64,
    ) -> CelResult {
        let Some(root) = &self.root else {
            return CelResult {
                errors: Vec::new(),
                warnings: Vec::new(),
                remaining_budget: budget,
            };
        };
        let mut w = walk::Walk::new(budget, self.per_call_limit);
        let correlation = walk::Ratchet {
            current: ratchet.cloned(),
            parent: None,
        };
        w.validate(root, &self.schema, path, obj, old, &correlation);
        CelResult {
            errors: w.errors,
            warnings: w.warnings,
            remaining_budget: w.budget,
        }
    }
}

#[allow(clippy::cast_possible_wrap)]
const RUNTIME_CEL_COST_BUDGET_I64: i64 = RUNTIME_CEL_COST_BUDGET as i64;

/// `hasXValidations`, also looking into `allOf` branches.
///
/// Go's `NewValidator` looks only at the structural part, so a schema whose only rules are in
/// `allOf` gets no validator, while `validator` (what `TestValidationExpressionsAtSchemaLevels`
/// runs) evaluates the rules of `allOf` at every level. The API server rejects CRDs with rules in
/// `allOf` (`must be empty to be structural`), so no accepted CRD tells the two apart; for a
/// schema that has them anyway (a rejected CRD `crdgen validate` still uses, with a warning),
/// the rules run, as in Go's table.
fn has_rules(r: Rules<'_>) -> bool {
    !r.validations().is_empty()
        || r.items().is_some_and(has_rules)
        || r.additional().is_some_and(has_rules)
        || r.properties().into_iter().any(|(_, p)| has_rules(p))
        || r.all_of().iter().any(|a| has_rules(Rules::Nested(a)))
}

/// What rules are compiled with: the options, and the validator's schema whose nodes the
/// programs are compiled for.
struct Compiling<'c> {
    opts: &'c CelOptions,
    root: &'c Arc<Structural>,
}

/// Go's `validator`: the node for the rules of `rules` on the schema node `node` (inside
/// `cx.root`), declared as `decl`; `None` when nothing at or below it has a rule.
fn build(
    rules: Rules<'_>,
    node: &Structural,
    is_resource_root: bool,
    decl: Option<&DeclType>,
    cx: &Compiling<'_>,
) -> Option<Node> {
    let (compiled, init_error) = compile_node(rules.validations(), node, decl, cx);
    let elem = decl.and_then(DeclType::elem);
    let items = match (rules.items(), node.items.as_deref()) {
        (Some(r), Some(n)) => build(r, n, n.extensions.embedded_resource, elem, cx).map(Box::new),
        _ => None,
    };
    let mut properties = BTreeMap::new();
    for (k, r) in rules.properties() {
        let Some(n) = node.properties.get(k) else {
            // Rules only apply on the structural spine.
            continue;
        };
        let own;
        let field_decl = if let Some(escaped) = escape(k) {
            // Fields without a CEL type are left out of CEL validation entirely.
            let Some(f) = decl.and_then(|d| d.field(&escaped)) else {
                continue;
            };
            &f.ty
        } else {
            own = schema_decl_type(n, n.extensions.embedded_resource);
            match &own {
                Some(d) => d,
                None => continue,
            }
        };
        if let Some(p) = build(r, n, n.extensions.embedded_resource, Some(field_decl), cx) {
            properties.insert(k.to_owned(), p);
        }
    }
    let additional = match (rules.additional(), node.additional_properties_schema()) {
        (Some(r), Some(n)) => build(r, n, n.extensions.embedded_resource, elem, cx).map(Box::new),
        _ => None,
    };
    let all_of: Vec<Node> = rules
        .all_of()
        .iter()
        .filter_map(|a| build(Rules::Nested(a), node, is_resource_root, decl, cx))
        .collect();
    let any = !compiled.is_empty()
        || init_error.is_some()
        || items.is_some()
        || additional.is_some()
        || !properties.is_empty()
        || !all_of.is_empty();
    any.then(|| Node {
        rules: compiled,
        init_error,
        is_resource_root,
        items,
        properties,
        additional,
        all_of,
    })
}

/// compilation.go `Compile` and `compileRule`, plus the evaluator's program for each rule.
fn compile_node(
    rules: &[ValidationRule],
    node: &Structural,
    decl: Option<&DeclType>,
    cx: &Compiling<'_>,
) -> (Vec<Rule>, Option<String>) {
    let opts = cx.opts;
    if rules.is_empty() {
        return (Vec::new(), None);
    }
    let Some(decl) = decl else {
        return (
            Vec::new(),
            Some("failed to convert to declType for CEL validation rules".to_owned()),
        );
    };
    let rule_opts = RuleOptions {
        version: opts.version,
        ..RuleOptions::default()
    };
    let program_opts = CompileOptions {
        variables: vec!["self".into(), "oldSelf".into()],
        k8s_version: opts.version,
        ..CompileOptions::default()
    };
    let compiled = rules
        .iter()
        .map(|rule| Rule {
            source: rule.clone(),
            compiled: compile_one(rule, node, decl, &rule_opts, &program_opts, cx.root),
        })
        .collect();
    (compiled, None)
}

fn compile_one(
    rule: &ValidationRule,
    node: &Structural,
    decl: &DeclType,
    rule_opts: &RuleOptions,
    program_opts: &CompileOptions,
    root: &Arc<Structural>,
) -> Compiled {
    let result = compile_rule(rule, decl, rule_opts);
    if let Some(e) = result.error {
        return Compiled::Error(e.detail);
    }
    let Some(checked) = result.program else {
        return Compiled::Blank;
    };
    // Deep expressions are planned on a large stack, as they are checked.
    // The views of this node are of `node`, inside the validator's schema `root`.
    let plan = |c: &CheckedAst| {
        with_stack(&c.ast, || {
            Program::compile_checked_within(c, program_opts, root.clone(), node)
        })
    };
    let program = match plan(&checked) {
        Ok(p) => p,
        Err(e) => return Compiled::Error(format!("program instantiation failed: {e}")),
    };
    // A message expression that does not compile is ignored: the rule's message is used.
    let message_expression = result.message_expression.and_then(|m| plan(&m).ok());
    let field_path = (!rule.field_path.is_empty())
        .then(|| valid_field_path(&rule.field_path, node, true).ok())
        .flatten()
        .map(|(p, _)| p.to_string());
    Compiled::Ok(Box::new(CompiledRule {
        program,
        uses_old_self: result.uses_old_self,
        message_expression,
        field_path,
    }))
}

/// `hasBlockingErr`'s error: CEL rules did not run.
pub const RULES_NOT_CHECKED: &str = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

impl super::CompiledSchema {
    /// Whether the schema has `x-kubernetes-validations` rules (compiling them on first use).
    #[must_use]
    pub fn has_cel_rules(&self) -> bool {
        self.cel_validator().has_rules()
    }

    fn cel_validator(&self) -> &CelValidator {
        self.cel
            .get_or_init(|| CelValidator::new(&self.structural, true))
    }

    /// The registry's last step: the CEL rules of the schema (compiled on first use), unless an
    /// earlier error blocks them, which is then reported instead.
    pub(crate) fn validate_cel(
        &self,
        obj: &Value,
        old: Option<&Value>,
        ratchet: Option<&Rc<Correlated<'_>>>,
        errs: &mut Vec<FieldError>,
    ) {
        let cel = self.cel_validator();
        if !cel.has_rules() {
            return;
        }
        if super::has_blocking_error(errs) {
            errs.push(FieldError::invalid(
                &FieldPath::nil(),
                "null",
                RULES_NOT_CHECKED,
            ));
            return;
        }
        errs.extend(cel.validate(&FieldPath::nil(), obj, old, ratchet).errors);
    }
}
