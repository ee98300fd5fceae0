//! Would the API server accept this CRD? `ValidateCustomResourceDefinition` for a create,
//! `ValidateCustomResourceDefinitionUpdate` for an update ([`check_crd_update`]).
//!
//! Mirrors apiextensions-apiserver `pkg/apis/apiextensions/validation/validation.go` with the
//! options it sets for a create, run on the CRD as the API server sees it: v1 defaults applied
//! (`v1/defaults.go`: singular, listKind, conversion strategy), `status` reset by the registry
//! strategy, and converted to the internal form (`v1/conversion.go`): when every version has the
//! same `schema` (or `subresources`, `additionalPrinterColumns`, `selectableFields`) it is moved
//! to the top level and reported at `spec.validation.openAPIV3Schema…` (`spec.subresources…`,
//! `spec.additionalPrinterColumns[i]…`, `spec.selectableFields…`), otherwise at
//! `spec.versions[i].schema.openAPIV3Schema…`. A single-version CRD always reports at the top level.
//!
//! ```
//! use crdkit_schema::crd::CustomResourceDefinition;
//! use crdkit_crd::crd_check::check_crd;
//!
//! let crd: CustomResourceDefinition = serde_json::from_value(serde_json::json!({
//!     "metadata": {"name": "crontabs.stable.example.com"},
//!     "spec": {"group": "stable.example.com", "scope": "Namespaced",
//!              "names": {"plural": "crontabs", "kind": "CronTab"},
//!              "versions": [{"name": "v1", "served": true, "storage": true, "schema": {
//!                  "openAPIV3Schema": {"type": "object", "properties": {"spec": {}}}}}]}
//! })).unwrap();
//! let errs = check_crd(&crd);
//! assert_eq!(errs[0].to_string(), "spec.validation.openAPIV3Schema.properties[spec].type: \
//!     Required value: must not be empty for specified object fields");
//! ```
//!
//! [`check_crd`] runs every check, with the value validator and the CEL checker plugged in
//! ([`check_crd_full`] is the same); [`check_crd_with`] takes other engines, and without any
//! (`CheckOptions::default()`) leaves out CEL compilation and cost ([`CelRuleChecker`]) and the
//! validation of default values against their schema ([`DefaultValidator`]). Not reproduced:
//! `caBundle` parsing, and checks that a v1 CRD cannot trigger (top-level and per-version fields
//! both set).

pub mod cel;
mod defaults;
mod extensions;
mod hooks;
mod internal;
mod meta;
mod openapi;
mod parts;
mod spec;
mod status;
mod stored;
#[cfg(test)]
mod tests;
mod update;
pub use hooks::{ValueDefaultValidator, check_crd_full};
use spec::{Opts, spec};
pub use stored::{StoredVersions, as_stored};
pub use update::{check_crd_update, check_crd_update_with};

use serde_json::Value;

use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_schema::crd::CustomResourceDefinition;
use crdkit_schema::{JsonSchemaProps, Structural};

/// `MaxSelectableFields`.
pub const MAX_SELECTABLE_FIELDS: usize = 8;

/// A schema node that has `x-kubernetes-validations`, handed to a [`CelRuleChecker`] once the
/// schema is structural, its defaults are valid and the node's own checks found nothing.
#[derive(Clone, Copy, Debug)]
pub struct CelNode<'a> {
    /// The node; its `x_validations` are the rules to compile.
    pub schema: &'a JsonSchemaProps,
    /// Where the node is (`spec.validation.openAPIV3Schema.properties[spec]`); rule `i` is
    /// reported at `path.x-kubernetes-validations[i].rule`.
    pub path: &'a FieldPath,
    /// The schema root (`openAPIV3Schema`), for the CEL types of `self` and `oldSelf`.
    pub root: &'a JsonSchemaProps,
    /// Where the root is.
    pub root_path: &'a FieldPath,
    /// When `oldSelf` must not be used, the highest uncorrelatable ancestor (Go reports
    /// `oldSelf cannot be used on the uncorrelatable portion of the schema within <path>`).
    pub uncorrelatable: Option<&'a FieldPath>,
    /// On an update, the rules and message expressions of the old CRD: these compile in the
    /// environment of stored expressions (every library the API server has), the others in
    /// the one of new expressions (`preexistingExpressions`). `None` on create.
    pub preexisting: Option<&'a PreexistingExpressions>,
    /// On an update that leaves this version's schema unchanged, rules over the per-expression
    /// cost limit are not reported (`suppressPerExpressionCost`); the schema's total still is.
    pub suppress_per_expression_cost: bool,
}

/// The CEL expressions of a CRD before an update (`findPreexistingExpressions`): a rule or
/// message expression found here was accepted once, so it compiles with every library the API
/// server knows, not only those of its compatibility version (a control plane rollback must not
/// make a stored CRD unchangeable).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreexistingExpressions {
    /// `rule`s, verbatim.
    pub rules: std::collections::BTreeSet<String>,
    /// `messageExpression`s, verbatim (empty ones are not recorded).
    pub message_expressions: std::collections::BTreeSet<String>,
}

impl PreexistingExpressions {
    /// The expressions of every schema of `crd`, anywhere in them (`SchemaHas`).
    #[must_use]
    pub fn of(crd: &CustomResourceDefinition) -> PreexistingExpressions {
        let found = std::cell::RefCell::new(PreexistingExpressions::default());
        for v in &crd.spec.versions {
            if let Some(s) = v
                .schema
                .as_ref()
                .and_then(|s| s.open_api_v3_schema.as_ref())
            {
                openapi::schema_has(s, 0, &|n| {
                    let mut f = found.borrow_mut();
                    for r in &n.x_validations {
                        f.rules.insert(r.rule.clone());
                        if !r.message_expression.is_empty() {
                            f.message_expressions.insert(r.message_expression.clone());
                        }
                    }
                    false
                });
            }
        }
        found.into_inner()
    }
}

/// The hook for CEL: compile each rule, check `messageExpression`, `optionalOldSelf`, estimate
/// costs. Implementations keep the per-schema cost total themselves (interior mutability) and
/// report it from [`CelRuleChecker::finish_schema`].
pub trait CelRuleChecker {
    /// The CEL errors of one node's rules (Go appends them after all schema errors).
    fn check_rules(&self, node: &CelNode<'_>) -> Vec<FieldError>;
    /// Called once per schema after its walk: the errors for the schema's total cost
    /// (`StaticEstimatedCRDCostLimit`), at the nodes Go names.
    fn finish_schema(&self, root_path: &FieldPath) -> Vec<FieldError>;
}

/// A schema node with a `default`, handed to a [`DefaultValidator`].
#[derive(Clone, Copy, Debug)]
pub struct DefaultNode<'a> {
    /// The node whose `default` is checked; errors go to `path.default`.
    pub path: &'a FieldPath,
    /// The node.
    pub schema: &'a Structural,
    /// The default value (never `null`).
    pub default: &'a Value,
    /// Whether the node is inside `metadata`, `apiVersion` or `kind` of a resource: Go then
    /// validates the default within a surrounding object (`must result in valid metadata`).
    pub inside_meta: bool,
    /// The closest enclosing resource schema (the root, or an embedded resource).
    pub resource_root: &'a Structural,
    /// The way from `resource_root` to the node: property names, `None` for `items`.
    pub resource_trail: &'a [Option<String>],
}

/// The hook for "the default validates against its schema" (`ValidateDefaults` after the
/// pruning check: metadata coercion, OpenAPI value validation, CEL), for the value validator.
pub trait DefaultValidator {
    /// The errors of one default.
    fn validate_default(&self, node: &DefaultNode<'_>) -> Vec<FieldError>;
}

/// Hooks for the checks this module leaves to other engines.
#[derive(Clone, Copy, Default)]
pub struct CheckOptions<'a> {
    /// Validates defaults against their schema; without it only the pruning check runs.
    pub default_validator: Option<&'a dyn DefaultValidator>,
    /// Compiles and costs `x-kubernetes-validations`; without it only their strings are checked.
    pub cel: Option<&'a dyn CelRuleChecker>,
}

impl std::fmt::Debug for CheckOptions<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CheckOptions")
            .field("default_validator", &self.default_validator.is_some())
            .field("cel", &self.cel.is_some())
            .finish()
    }
}

/// The errors the API server would return for creating `crd`, in its order: structure, names,
/// schemas, defaults (validated against their schema, as `ValidateDefaults` does) and CEL rules
/// (compiled and costed).
#[must_use]
pub fn check_crd(crd: &CustomResourceDefinition) -> Vec<FieldError> {
    check_crd_full(crd)
}

/// The checks of [`check_crd`] with the given engines for defaults validation and CEL; without
/// them, only what this module checks itself.
#[must_use]
pub fn check_crd_with(crd: &CustomResourceDefinition, opts: &CheckOptions<'_>) -> Vec<FieldError> {
    let crd = internal::prepare(crd);
    let view = internal::View::of(&crd);
    let o = Opts::create(*opts);
    let mut errs = meta::object_meta(&crd);
    errs.extend(spec(&crd, &view, &o));
    // The registry resets `status` on create and records the storage version as stored.
    let stored: Vec<String> = crdkit_apiextensions::versions::storage_version(&crd)
        .map(str::to_owned)
        .into_iter()
        .collect();
    // Go appends to a nil slice: without a storage version it stays nil.
    let stored = (!stored.is_empty()).then_some(&stored[..]);
    errs.extend(stored_versions(stored, &crd.spec.versions));
    errs.extend(meta::api_approval(&crd, None));
    errs.extend(preserve_unknown_fields(&crd, None));
    errs
}

// ValidateCustomResourceDefinitionStoredVersions (`None`: Go's nil slice, printed `null`)
fn stored_versions(
    stored: Option<&[String]>,
    versions: &[crdkit_schema::crd::CustomResourceDefinitionVersion],
) -> Vec<FieldError> {
    let at = FieldPath::new("status").child("storedVersions");
    let value = || {
        crdkit_apimachinery::field::BadValue::Json(match stored {
            None => Value::Null,
            Some(s) => Value::from(s.to_vec()),
        })
    };
    let stored = stored.unwrap_or_default();
    if stored.is_empty() {
        return vec![FieldError::invalid(
            &at,
            value(),
            "must have at least one stored version",
        )];
    }
    // Go keeps the last index of a name given twice.
    let mut remaining: std::collections::BTreeMap<&str, usize> = stored
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_str(), i))
        .collect();
    let mut errs = Vec::new();
    for v in versions {
        let found = remaining.remove(v.name.as_str()).is_some();
        if v.storage && !found {
            errs.push(FieldError::invalid(
                &at,
                value(),
                format!("must have the storage version {}", v.name),
            ));
        }
    }
    // Go ranges over a map here; the order is by index.
    let mut missing: Vec<(usize, &str)> = remaining.into_iter().map(|(v, i)| (i, v)).collect();
    missing.sort_unstable();
    for (i, v) in missing {
        errs.push(FieldError::invalid(
            &at.index(i),
            v,
            format!(
                "missing from spec.versions; {v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in {v} and removes {v} from status.storedVersions"
            ),
        ));
    }
    errs
}

// validatePreserveUnknownFields
fn preserve_unknown_fields(
    crd: &CustomResourceDefinition,
    old: Option<&CustomResourceDefinition>,
) -> Vec<FieldError> {
    if old.is_some_and(|o| o.spec.preserve_unknown_fields) {
        // Kept for the data stored under it.
        return Vec::new();
    }
    if crd.spec.preserve_unknown_fields {
        return vec![FieldError::invalid(
            &FieldPath::new("spec").child("preserveUnknownFields"),
            true,
            "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead",
        )];
    }
    Vec::new()
}

/// `validateEnumStrings` (required), shared by the checks of the scope and the conversion
/// strategy.
fn enum_string(path: &FieldPath, value: &str, accepted: &[&str]) -> Vec<FieldError> {
    if value.is_empty() {
        vec![FieldError::required(path, "")]
    } else if accepted.contains(&value) {
        Vec::new()
    } else {
        vec![FieldError::not_supported(path, value, accepted)]
    }
}
