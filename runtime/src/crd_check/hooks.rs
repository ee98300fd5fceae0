//! The CRD check with every engine plugged in: defaults validated by the value validator and
//! the CEL rules that apply to them, CEL rules compiled and costed by the CEL checker.
//! [`check_crd_full`] is what `crdgen check` runs.

use std::cell::Cell;

use super::{CheckOptions, DefaultNode, DefaultValidator, check_crd_with};
use crate::cel::check::compile::RuleOptions;
use crate::cel::check::crd::CrdRuleChecker;
use crate::cel::eval::RUNTIME_CEL_COST_BUDGET;
use crate::crd::CustomResourceDefinition;
use crate::field::FieldError;
use crate::validate::CompiledSchema;
use crate::validate::cel::CelValidator;

/// Validates a `default` against its node's schema, as apiextensions
/// `pkg/apiserver/schema/defaulting/validation.go` does: OpenAPI value validation at
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
        let errs = CompiledSchema::new(node.schema).validate_openapi(node.default, &path);
        if !errs.is_empty() {
            return errs;
        }
        let is_resource_root = std::ptr::eq(node.schema, node.resource_root);
        let cel = CelValidator::new(node.schema, is_resource_root);
        if !cel.has_rules() {
            return errs;
        }
        let with_old =
            cel.validate_with_budget(&path, node.default, Some(node.default), None, budget);
        let mut errs = with_old.errors;
        let mut remaining = with_old.remaining_budget;
        if errs.is_empty() {
            let without_old = cel.validate_with_budget(&path, node.default, None, None, budget);
            errs = without_old.errors;
            remaining = remaining.min(without_old.remaining_budget);
        }
        self.budget.set(Some(remaining));
        errs
    }
}

#[allow(clippy::cast_possible_wrap)]
const RUNTIME_CEL_COST_BUDGET_I64: i64 = RUNTIME_CEL_COST_BUDGET as i64;

/// The errors the API server returns for creating `crd`: structure, names, schemas, defaults
/// and CEL (compilation and cost), in its order.
#[must_use]
pub fn check_crd_full(crd: &CustomResourceDefinition) -> Vec<FieldError> {
    let cel = CrdRuleChecker::new(RuleOptions::default());
    let defaults = ValueDefaultValidator::default();
    check_crd_with(
        crd,
        &CheckOptions {
            default_validator: Some(&defaults),
            cel: Some(&cel),
        },
    )
}
