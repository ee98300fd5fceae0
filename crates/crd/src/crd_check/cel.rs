//! The CEL part of CRD validation: apiextensions `pkg/apis/apiextensions/validation/
//! validation.go` (the `x-kubernetes-validations` block of `ValidateCustomResourceDefinition
//! OpenAPISchema`, `getExpressionCost`, the schema total) and `cel_validation.go`
//! (`CELSchemaContext` cardinalities, `TotalCost`), as a [`CelRuleChecker`] for
//! [`crate::crd_check`].

use std::cell::RefCell;

use serde_json::Value;

use super::{CelNode, CelRuleChecker, PreexistingExpressions};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::gofmt;
use crdkit_cel::cost::{
    STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT, TotalCost, cost_error_message,
    multiply_with_overflow_guard,
};
use crdkit_cel::decl::schema_decl_type;
use crdkit_cel::rule::{
    CompilationResult, RuleErrorType, RuleOptions, RuleSource, compile_rule, compile_rules,
};
use crdkit_schema::{JsonSchemaProps, SchemaOrArray, SchemaOrBool, Structural, ValidationRule};

/// Compiles and costs every rule of a CRD schema as the API server does at admission.
///
/// ```
/// use crdkit_crd::crd_check::cel::CrdRuleChecker;
/// use crdkit_crd::crd_check::CheckOptions;
///
/// let cel = CrdRuleChecker::default();
/// let opts = CheckOptions { cel: Some(&cel), ..CheckOptions::default() };
/// # let _ = opts;
/// ```
#[derive(Debug, Default)]
pub struct CrdRuleChecker {
    /// The Kubernetes version and `self` type name the rules are compiled with.
    pub options: RuleOptions,
    total: RefCell<TotalCost<FieldPath>>,
}

impl CrdRuleChecker {
    /// A checker that compiles rules with `options`.
    #[must_use]
    pub fn new(options: RuleOptions) -> CrdRuleChecker {
        CrdRuleChecker {
            options,
            total: RefCell::default(),
        }
    }
}

/// cel_validation.go `extractMaxElements`: how many times a schema repeats its children
/// (`None`: unbounded).
#[allow(clippy::cast_sign_loss)]
fn max_elements(s: &JsonSchemaProps) -> Option<u64> {
    let bound = |n: Option<i64>| n.map(|n| n.max(0) as u64);
    match s.ty.as_str() {
        "object" if s.additional_properties.is_some() => bound(s.max_properties),
        "array" => bound(s.max_items),
        _ => Some(1),
    }
}

/// cel_validation.go `childContext`: the cardinality of a child of `parent` (whose own
/// cardinality is `parent_cardinality`; `None` is unbounded).
#[must_use]
pub fn child_cardinality(parent: &JsonSchemaProps, parent_cardinality: Option<u64>) -> Option<u64> {
    parent_cardinality
        .and_then(|c| max_elements(parent).map(|m| multiply_with_overflow_guard(c, m)))
}

/// The estimated cost of each rule of `node` as the CRD check counts it (`getExpressionCost`:
/// the rule's worst case times how often it can run, `cardinality` being the node's own within
/// its schema, [`child_cardinality`]; `None` unbounded), or `None` for a rule that does not
/// compile. `is_root`: the node is the schema root (or an embedded resource), so `self` has
/// `apiVersion`, `kind` and `metadata`.
#[must_use]
pub fn rule_costs(
    node: &JsonSchemaProps,
    cardinality: Option<u64>,
    is_root: bool,
    options: &RuleOptions,
) -> Vec<Option<u64>> {
    let decl = Structural::from_props(node)
        .ok()
        .and_then(|s| schema_decl_type(&s, is_root || node.x_embedded_resource));
    let Some(decl) = decl else {
        return vec![None; node.x_validations.len()];
    };
    compile_rules(&node.x_validations, &decl, options)
        .iter()
        .map(|cr| {
            cr.error.is_none().then(|| {
                multiply_with_overflow_guard(cr.max_cost, cardinality.unwrap_or(cr.max_cardinality))
            })
        })
        .collect()
}

/// The cardinality of `target` within `root` (`CELSchemaContext.MaxCardinality`; `None` is
/// unbounded), found by identity; `Err` if `target` is not in the tree.
fn cardinality(root: &JsonSchemaProps, target: &JsonSchemaProps) -> Result<Option<u64>, ()> {
    let mut stack = vec![(root, Some(1u64))];
    while let Some((s, card)) = stack.pop() {
        if std::ptr::eq(s, target) {
            return Ok(card);
        }
        let child = child_cardinality(s, card);
        stack.extend(s.properties.values().map(|p| (p, child)));
        if let Some(SchemaOrArray::Schema(items)) = &s.items {
            stack.push((items, child));
        }
        if let Some(SchemaOrBool::Schema(props)) = &s.additional_properties {
            stack.push((props, child));
        }
    }
    Err(())
}

/// Go's `json.Marshal` of the internal `ValidationRule` (no JSON tags: field names as declared).
fn rule_json(r: &ValidationRule) -> String {
    let s = |v: &str| gofmt::json(&Value::String(v.to_string()));
    let reason = r.reason.as_deref().map_or("null".to_string(), s);
    let old = r
        .optional_old_self
        .map_or("null".to_string(), |b| b.to_string());
    format!(
        "{{\"Rule\":{},\"Message\":{},\"MessageExpression\":{},\"Reason\":{reason},\"FieldPath\":{},\"OptionalOldSelf\":{old}}}",
        s(&r.rule),
        s(&r.message),
        s(&r.message_expression),
        s(&r.field_path),
    )
}

impl CrdRuleChecker {
    /// `cel.Compile` with `preexistingExpressions`: a rule (and, separately, a message
    /// expression) the old CRD has compiles in the environment of stored expressions, which
    /// has every library of the newest Kubernetes version; the others in that of
    /// [`CrdRuleChecker::options`].
    fn compile_with_preexisting(
        &self,
        rules: &[ValidationRule],
        decl: &crdkit_cel::decl::DeclType,
        pre: &PreexistingExpressions,
    ) -> Vec<CompilationResult> {
        let stored = RuleOptions {
            version: crdkit_cel::env::NEWEST_VERSION,
            ..self.options.clone()
        };
        let env_for = |stored_expr: bool| if stored_expr { &stored } else { &self.options };
        rules
            .iter()
            .map(|r| {
                let rule_env = env_for(pre.rules.contains(&r.rule));
                let message_env = env_for(pre.message_expressions.contains(&r.message_expression));
                if std::ptr::eq(rule_env, message_env) {
                    return compile_rule(r, decl, rule_env);
                }
                // Two environments: the rule alone in its own, and the message expression
                // behind a rule that always compiles in its own; Go compiles the message
                // expression only once the rule compiled.
                let source = RuleSource::from(r);
                let mut result = compile_rule(
                    RuleSource {
                        message_expression: "",
                        ..source
                    },
                    decl,
                    rule_env,
                );
                if result.error.is_none() && !source.message_expression.is_empty() {
                    let message = compile_rule(
                        RuleSource {
                            rule: "true",
                            ..source
                        },
                        decl,
                        message_env,
                    );
                    result.message_expression = message.message_expression;
                    result.message_expression_error = message.message_expression_error;
                    result.message_expression_max_cost = message.message_expression_max_cost;
                }
                result
            })
            .collect()
    }
}

impl CelRuleChecker for CrdRuleChecker {
    fn check_rules(&self, node: &CelNode<'_>) -> Vec<FieldError> {
        let at = node.path.child("x-kubernetes-validations");
        let type_info_error = |e: &dyn std::fmt::Display| {
            vec![FieldError::internal(
                &at,
                format!(
                    "internal error: failed to construct type information for x-kubernetes-validations rules: {e}"
                ),
            )]
        };
        let structural = match Structural::from_props(node.schema) {
            Ok(s) => s,
            Err(e) => return type_info_error(&e),
        };
        let is_root = std::ptr::eq(node.schema, node.root) || node.schema.x_embedded_resource;
        let Some(decl) = schema_decl_type(&structural, is_root) else {
            return type_info_error(&"unable to convert structural schema to CEL declarations");
        };
        let context_cardinality = cardinality(node.root, node.schema).unwrap_or(None);
        let rules = &node.schema.x_validations;
        let mut errs = Vec::new();
        let results = match node.preexisting {
            Some(pre) => self.compile_with_preexisting(rules, &decl, pre),
            None => compile_rules(rules, &decl, &self.options),
        };
        let mut total = self.total.borrow_mut();
        for (i, cr) in results.iter().enumerate() {
            let rule = &rules[i];
            let at = at.index(i);
            let (rule_path, msg_path) = (at.child("rule"), at.child("messageExpression"));
            let cost = multiply_with_overflow_guard(
                cr.max_cost,
                context_cardinality.unwrap_or(cr.max_cardinality),
            );
            if cost > STATIC_ESTIMATED_COST_LIMIT && !node.suppress_per_expression_cost {
                let msg =
                    cost_error_message("estimated rule cost", cost, STATIC_ESTIMATED_COST_LIMIT);
                errs.push(FieldError::forbidden(&rule_path, msg));
            }
            total.observe(rule_path.clone(), cost);
            if let Some(e) = &cr.error {
                errs.push(match e.error_type {
                    RuleErrorType::Required => FieldError::required(&rule_path, &e.detail),
                    _ => FieldError::invalid(&rule_path, BadValue::Raw(rule_json(rule)), &e.detail),
                });
            }
            if let Some(e) = &cr.message_expression_error {
                errs.push(FieldError::invalid(
                    &msg_path,
                    BadValue::Raw(rule_json(rule)),
                    &e.detail,
                ));
            } else if cr.message_expression.is_some() {
                let cost = cr.message_expression_max_cost;
                if cost > STATIC_ESTIMATED_COST_LIMIT && !node.suppress_per_expression_cost {
                    let msg = cost_error_message(
                        "estimated messageExpression cost",
                        cost,
                        STATIC_ESTIMATED_COST_LIMIT,
                    );
                    errs.push(FieldError::forbidden(&msg_path, msg));
                }
                total.observe(msg_path, cost);
            }
            if cr.uses_old_self {
                if let Some(p) = node.uncorrelatable {
                    errs.push(FieldError::invalid(
                        &rule_path,
                        rule.rule.as_str(),
                        format!("oldSelf cannot be used on the uncorrelatable portion of the schema within {p}"),
                    ));
                }
            } else if let Some(b) = rule.optional_old_self {
                errs.push(FieldError::invalid(
                    &at.child("optionalOldSelf"),
                    b,
                    "may not be set if oldSelf is not used in rule",
                ));
            }
        }
        errs
    }

    fn finish_schema(&self, root_path: &FieldPath) -> Vec<FieldError> {
        let total = std::mem::take(&mut *self.total.borrow_mut());
        if total.total <= STATIC_ESTIMATED_CRD_COST_LIMIT {
            return Vec::new();
        }
        let mut errs: Vec<FieldError> = total
            .most_expensive
            .iter()
            .map(|(p, _)| {
                FieldError::forbidden(
                    p,
                    "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
                )
            })
            .collect();
        errs.push(FieldError::forbidden(
            root_path,
            cost_error_message(
                "x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema",
                total.total,
                STATIC_ESTIMATED_CRD_COST_LIMIT,
            ),
        ));
        errs
    }
}
