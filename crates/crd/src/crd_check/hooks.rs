//! The CRD check with every engine plugged in: defaults validated by the value validator and
//! the CEL rules that apply to them, CEL rules compiled and costed by the CEL checker.
//! [`check_crd_full`] is what `crdgen check` runs.

use std::cell::Cell;

use super::{CheckOptions, DefaultNode, DefaultValidator, check_crd_with};
use crate::crd_check::cel::CrdRuleChecker;
use crdkit_cel::eval::RUNTIME_CEL_COST_BUDGET;
use crdkit_cel::rule::RuleOptions;
use crdkit_schema::crd::CustomResourceDefinition;
use serde_json::Value;

use crdkit_apiextensions::objectmeta::coerce;
use crdkit_apiextensions::validate::CompiledSchema;
use crdkit_apiextensions::validate::cel::CelValidator;
use crdkit_apiextensions::validate::validate_embedded;
use crdkit_apiextensions::walk::has_embedded;
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath, aggregate};

/// Validates a `default` against its node's schema, as apiextensions
/// `pkg/apiserver/schema/defaulting/validation.go` does: the metadata checks of
/// embedded resources and of `metadata` defaults, then OpenAPI value validation at
/// `<node>.default`, then, when that passes, the CEL rules of the node and below, once with the
/// default as the old value too (transition rules see it unchanged) and, if that passes, once
/// without one (as when the default is set on create). The rules of all defaults share one
/// `RuntimeCELCostBudget`; once it is exhausted, no further default is validated.
#[derive(Clone, Debug, Default)]
pub struct ValueDefaultValidator {
    /// The CEL budget left (`None`: untouched).
    budget: Cell<Option<i64>>,
}

impl ValueDefaultValidator {
    /// A validator whose CEL rules share `budget` instead of `RuntimeCELCostBudget`.
    #[must_use]
    pub fn with_budget(budget: i64) -> ValueDefaultValidator {
        ValueDefaultValidator {
            budget: Cell::new(Some(budget)),
        }
    }
}

impl DefaultValidator for ValueDefaultValidator {
    fn validate_default(&self, node: &DefaultNode<'_>) -> Vec<FieldError> {
        let budget = self.budget.get().unwrap_or(RUNTIME_CEL_COST_BUDGET_I64);
        if budget < 0 {
            // Go stops walking the schema once the budget is gone.
            return Vec::new();
        }
        let path = node.path.child("default");
        let coerced;
        let default = if node.inside_meta {
            if let Some(e) = meta_errors(node) {
                return vec![FieldError::invalid(
                    &path,
                    BadValue::from(node.default),
                    format!("must result in valid metadata: {e}"),
                )];
            }
            node.default
        } else {
            match embedded_errors(node, &path) {
                Ok(v) => {
                    coerced = v;
                    &coerced
                }
                Err(errs) => return errs,
            }
        };
        let errs = CompiledSchema::new(node.schema).validate_openapi(default, &path);
        if !errs.is_empty() {
            return errs;
        }
        let is_resource_root = std::ptr::eq(node.schema, node.resource_root);
        let cel = CelValidator::new(node.schema, is_resource_root);
        if !cel.has_rules() {
            return errs;
        }
        let with_old = cel.validate_with_budget(&path, default, Some(default), None, budget);
        let mut errs = with_old.errors;
        let mut remaining = with_old.remaining_budget;
        if errs.is_empty() {
            let without_old = cel.validate_with_budget(&path, default, None, None, budget);
            errs = without_old.errors;
            remaining = remaining.min(without_old.remaining_budget);
        }
        self.budget.set(Some(remaining));
        errs
    }
}

/// A default outside `metadata`, `apiVersion` and `kind`: the ObjectMeta round trip and the
/// checks of the embedded resources in it (`Coerce`, then `Validate` in
/// `defaulting/validation.go`). Returns the coerced default, which the later checks see.
fn embedded_errors(node: &DefaultNode<'_>, path: &FieldPath) -> Result<Value, Vec<FieldError>> {
    let mut value = node.default.clone();
    let embedded = node.schema.extensions.embedded_resource;
    if !embedded && !has_embedded(node.schema) {
        return Ok(value);
    }
    coerce(path, &mut value, node.schema, embedded, false).map_err(|e| vec![e])?;
    let mut errs = Vec::new();
    validate_embedded(path, &value, node.schema, &mut errs);
    if errs.is_empty() {
        Ok(value)
    } else {
        Err(errs)
    }
}

/// A default inside `metadata`, `apiVersion` or `kind` of a resource: Go puts it into an object
/// of kind `Validation` (`SurroundingObjectFunc`) and checks that object's metadata; the
/// message of the first failing step.
fn meta_errors(node: &DefaultNode<'_>) -> Option<String> {
    let mut obj = node.default.clone();
    for step in node.resource_trail.iter().rev() {
        obj = match step {
            Some(k) => Value::Object(std::iter::once((k.clone(), obj)).collect()),
            None => Value::Array(vec![obj]),
        };
    }
    let Value::Object(map) = &mut obj else {
        return Some("object root default value must be of object type".to_owned());
    };
    map.entry("kind").or_insert_with(|| "Validation".into());
    map.entry("apiVersion")
        .or_insert_with(|| "validation/v1".into());
    let mut root = node.resource_root.clone();
    root.extensions.embedded_resource = true;
    if let Err(e) = coerce(&FieldPath::nil(), &mut obj, &root, true, false) {
        return Some(e.to_string());
    }
    let mut errs = Vec::new();
    validate_embedded(&FieldPath::nil(), &obj, &root, &mut errs);
    (!errs.is_empty()).then(|| aggregate(&errs))
}

#[allow(clippy::cast_possible_wrap)]
const RUNTIME_CEL_COST_BUDGET_I64: i64 = RUNTIME_CEL_COST_BUDGET as i64;

/// The errors the API server returns for creating `crd`: structure, names, schemas, defaults
/// and CEL (compilation and cost), in its order. The same as [`super::check_crd`].
#[must_use]
pub fn check_crd_full(crd: &CustomResourceDefinition) -> Vec<FieldError> {
    with_full_engines(|opts| check_crd_with(crd, opts))
}

/// Runs `f` with the value validator for defaults and the CEL checker plugged in.
pub(super) fn with_full_engines<T>(f: impl FnOnce(&CheckOptions<'_>) -> T) -> T {
    let cel = CrdRuleChecker::new(RuleOptions::default());
    let defaults = ValueDefaultValidator::default();
    f(&CheckOptions {
        default_validator: Some(&defaults),
        cel: Some(&cel),
    })
}
