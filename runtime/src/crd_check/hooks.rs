//! The CRD check with every engine plugged in: defaults validated by the value validator, CEL
//! rules compiled and costed by the CEL checker. [`check_crd_full`] is what `crdgen check` runs.

use super::{CheckOptions, DefaultNode, DefaultValidator, check_crd_with};
use crate::cel::check::compile::RuleOptions;
use crate::cel::check::crd::CrdRuleChecker;
use crate::crd::CustomResourceDefinition;
use crate::field::FieldError;
use crate::validate::CompiledSchema;

/// Validates a `default` against its node's schema, as apiextensions
/// `pkg/apiserver/schema/defaulting/validation.go` does: OpenAPI value validation at
/// `<node>.default`. (CEL rules on defaults run once the evaluator is wired into validation.)
#[derive(Clone, Copy, Debug, Default)]
pub struct ValueDefaultValidator;

impl DefaultValidator for ValueDefaultValidator {
    fn validate_default(&self, node: &DefaultNode<'_>) -> Vec<FieldError> {
        let path = node.path.child("default");
        CompiledSchema::new(node.schema).validate_openapi(node.default, &path)
    }
}

/// The errors the API server returns for creating `crd`: structure, names, schemas, defaults
/// and CEL (compilation and cost), in its order.
#[must_use]
pub fn check_crd_full(crd: &CustomResourceDefinition) -> Vec<FieldError> {
    let cel = CrdRuleChecker::new(RuleOptions::default());
    check_crd_with(
        crd,
        &CheckOptions {
            default_validator: Some(&ValueDefaultValidator),
            cel: Some(&cel),
        },
    )
}
