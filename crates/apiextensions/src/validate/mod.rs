//! Validation of custom objects as the API server does it: OpenAPI value validation
//! (kube-openapi), `metadata` and embedded resources, and list-type invariants.
//!
//! A [`CompiledSchema`] is built once per schema (patterns compiled, limits range-checked,
//! properties indexed) and validates any number of objects, as JSON ([`CompiledSchema::validate`])
//! or straight from a `serde::Serialize` value ([`typed::validate_typed`]). The order of the
//! checks is the registry's (`pkg/registry/customresource/strategy.go`, `Validate`):
//!
//! 1. `apiVersion`/`kind` against the resource, when [`ResourceInfo`] is given (and nothing else
//!    if they are wrong),
//! 2. root `metadata` (name, generateName, namespace, labels, ...),
//! 3. OpenAPI validation of the whole object (kube-openapi's `SchemaValidator`),
//! 4. embedded resources (`x-kubernetes-embedded-resource`),
//! 5. `x-kubernetes-list-type` `set`/`map` uniqueness,
//! 6. CEL rules ([`cel`]), skipped after a blocking error ([`has_blocking_error`]).
//!
//! On update ([`CompiledSchema::validate_update`]), OpenAPI errors and CEL failures on parts of
//! the object that did not change are dropped (validation ratcheting, [`crate::ratchet`]), and CEL
//! transition rules see the old value.
//!
//! Messages are kube-openapi's as today's API server prints them, e.g.
//! `spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10`.

pub mod cel;
pub mod list_type;
pub(crate) mod meta;
pub(crate) mod openapi;
mod ratchet;
mod scale;
pub mod typed;

use serde_json::Value;

use crate::walk::node::SchemaNode;
use crdkit_apimachinery::field::{ErrorType, FieldError, FieldPath};
use crdkit_schema::Structural;

pub use crate::compiled::formats::Format;
pub use typed::validate_typed;

/// The checks of the embedded resources (`x-kubernetes-embedded-resource`) below `schema` in
/// `value`, as `objectmeta.Validate` makes them (the CRD check runs them on defaults).
pub fn validate_embedded(
    path: &crdkit_apimachinery::field::FieldPath,
    value: &serde_json::Value,
    schema: &crdkit_schema::Structural,
    errs: &mut Vec<crdkit_apimachinery::field::FieldError>,
) {
    meta::validate_embedded(path, value, schema, errs);
}

/// What the API server knows about the resource beyond its schema.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourceInfo {
    /// `<group>/<version>` that `apiVersion` must equal (unchecked when empty).
    pub api_version: String,
    /// The kind that `kind` must equal (unchecked when empty).
    pub kind: String,
    /// Whether `metadata.namespace` is required (`Some(true)`), forbidden (`Some(false)`), or only
    /// checked when present (`None`, the default: the API server takes it from the URL).
    pub namespaced: Option<bool>,
}

/// A schema compiled for pruning, defaulting and validation.
///
/// ```
/// use crdkit_schema::{Structural, Type};
/// use crdkit_apiextensions::validate::CompiledSchema;
/// use serde_json::json;
///
/// let mut replicas = Structural::of_type(Type::Integer);
/// replicas.value_validation.maximum = Some(10.0);
/// let mut spec = Structural::of_type(Type::Object);
/// spec.properties.insert("replicas".into(), replicas);
/// let mut root = Structural::of_type(Type::Object);
/// root.properties.insert("spec".into(), spec);
///
/// let schema = CompiledSchema::new(&root);
/// let errs = schema.validate(&json!({"metadata": {"name": "a"}, "spec": {"replicas": 15}}));
/// assert_eq!(
///     errs[0].to_string(),
///     "spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10"
/// );
/// ```
#[derive(Debug)]
pub struct CompiledSchema {
    pub(crate) structural: Structural,
    /// The compiled tree, which also drives pruning and defaulting (its flags let them skip
    /// subtrees without defaults, embedded resources or set/map lists).
    pub(crate) root: crate::compiled::Node,
    pub(crate) resource: ResourceInfo,
    /// The scale subresource, whose replica and selector paths are checked.
    pub(crate) scale: Option<crdkit_schema::crd::CustomResourceSubresourceScale>,
    /// The CEL rules, compiled on first use.
    pub(crate) cel: std::sync::OnceLock<cel::CelValidator>,
}

impl CompiledSchema {
    /// Compiles `schema` (the root of a resource's schema).
    #[must_use]
    pub fn new(schema: &Structural) -> CompiledSchema {
        CompiledSchema {
            structural: schema.clone(),
            root: crate::compiled::Node::compile(schema),
            resource: ResourceInfo::default(),
            scale: None,
            cel: std::sync::OnceLock::new(),
        }
    }

    /// The same schema checking `apiVersion`, `kind` and the namespace as `info` says.
    #[must_use]
    pub fn with_resource(mut self, info: ResourceInfo) -> CompiledSchema {
        self.resource = info;
        self
    }

    /// The same schema checking the paths of the resource's scale subresource, as the registry
    /// does on create and update (`ValidateScaleSpec`, `ValidateScaleStatus`).
    #[must_use]
    pub fn with_scale(
        mut self,
        scale: Option<crdkit_schema::crd::CustomResourceSubresourceScale>,
    ) -> CompiledSchema {
        self.scale = scale;
        self
    }

    /// The structural schema this was compiled from.
    #[must_use]
    pub fn structural(&self) -> &Structural {
        &self.structural
    }

    /// Validates a custom object for create: every error the API server's registry reports
    /// before CEL, in its order (see the [module docs](self)).
    #[must_use]
    pub fn validate(&self, obj: &Value) -> Vec<FieldError> {
        let mut errs = Vec::new();
        if !self.type_meta(obj, &mut errs) {
            return errs;
        }
        meta::validate_root_meta(obj, self.resource.namespaced, &mut errs);
        self.openapi_into(obj, &FieldPath::nil(), &mut errs);
        if let Some(scale) = &self.scale {
            scale::validate_scale(obj, scale, &mut errs);
        }
        self.validate_structure(obj, &mut errs);
        self.validate_cel(obj, None, None, &mut errs);
        errs
    }

    /// Validates an update: as [`validate`](Self::validate) for `new`, with validation
    /// ratcheting, CEL transition rules, and list-type errors only when `old` had none, as the
    /// API server does.
    #[must_use]
    pub fn validate_update(&self, new: &Value, old: &Value) -> Vec<FieldError> {
        let mut errs = Vec::new();
        if !self.type_meta(new, &mut errs) {
            return errs;
        }
        meta::validate_root_meta(new, self.resource.namespaced, &mut errs);
        errs.extend(ratchet::ratcheted_openapi(&self.root, new, old));
        if let Some(scale) = &self.scale {
            scale::validate_scale(new, scale, &mut errs);
        }
        if self.root.has_embedded() {
            meta::validate_embedded(&FieldPath::nil(), new, &self.root, &mut errs);
        }
        self.ratcheted_list_types(new, old, &mut errs);
        if self.has_cel_rules() {
            let correlation = crate::ratchet::Correlated::new(new, old, &self.structural);
            self.validate_cel(new, Some(old), Some(&correlation), &mut errs);
        }
        errs
    }

    /// Validates an update through the status subresource, `new` being the stored object with
    /// the request's `status` (`statusStrategy.PrepareForUpdate`): OpenAPI validation of
    /// `status` alone against the `status` schema, ratcheted, with kube-openapi names relative
    /// to it; the scale status paths; list types and CEL rules of the whole object as on update
    /// (apiextensions-apiserver `pkg/registry/customresource/status_strategy.go` `ValidateUpdate`
    /// and `validator.go` `ValidateStatusUpdate`).
    #[must_use]
    pub fn validate_status_update(&self, new: &Value, old: &Value) -> Vec<FieldError> {
        let mut errs = Vec::new();
        if !self.type_meta(new, &mut errs) {
            return errs;
        }
        meta::validate_root_meta(new, self.resource.namespaced, &mut errs);
        if let (Some(status), Some(node)) = (new.get("status"), self.root.property("status")) {
            let base = FieldPath::new("status");
            match old.get("status") {
                Some(old_status) => {
                    errs.extend(ratchet::ratcheted_openapi_at(
                        node, status, old_status, &base,
                    ));
                }
                None => {
                    let mut v = openapi::OpenApi::new();
                    v.validate(node, status);
                    crate::compiled::errors::to_field_errors(&base, v.errors, &mut errs);
                }
            }
        }
        if let Some(scale) = &self.scale {
            scale::validate_scale_status(new, scale, &mut errs);
        }
        self.ratcheted_list_types(new, old, &mut errs);
        if self.has_cel_rules() {
            let correlation = crate::ratchet::Correlated::new(new, old, &self.structural);
            self.validate_cel(new, Some(old), Some(&correlation), &mut errs);
        }
        errs
    }

    /// OpenAPI validation alone (`ValidateCustomResource`), of a value at `base`.
    #[must_use]
    pub fn validate_openapi(&self, value: &Value, base: &FieldPath) -> Vec<FieldError> {
        let mut out = Vec::new();
        self.openapi_into(value, base, &mut out);
        out
    }

    fn openapi_into(&self, value: &Value, base: &FieldPath, out: &mut Vec<FieldError>) {
        let mut v = openapi::OpenApi::new();
        v.validate(&self.root, value);
        if !v.errors.is_empty() {
            crate::compiled::errors::to_field_errors(base, v.errors, out);
        }
    }

    fn type_meta(&self, obj: &Value, errs: &mut Vec<FieldError>) -> bool {
        if self.resource.kind.is_empty() && self.resource.api_version.is_empty() {
            return true;
        }
        let mut e = meta::validate_type_meta(obj, &self.resource.api_version, &self.resource.kind);
        e.retain(|e| {
            !(e.field.to_string() == "kind" && self.resource.kind.is_empty()
                || e.field.to_string() == "apiVersion" && self.resource.api_version.is_empty())
        });
        let ok = e.is_empty();
        errs.extend(e);
        ok
    }

    /// List-type errors of `new` on update, only when `old` had none (the API server's update
    /// validation ratchets them as a whole).
    fn ratcheted_list_types(&self, new: &Value, old: &Value, errs: &mut Vec<FieldError>) {
        if self.root.has_list_types() {
            // Lists with the old object's errors at the same path are left out first: if the
            // rest has none, the outcome is the same whatever they and `old` have.
            let mut changed = Vec::new();
            let nil = FieldPath::nil();
            list_type::changed_list_sets_and_maps(&nil, &self.root, new, old, &mut changed);
            if changed.is_empty() {
                return;
            }
            let mut old_errs = Vec::new();
            list_type::list_sets_and_maps(&nil, &self.root, old, &mut old_errs);
            if old_errs.is_empty() {
                list_type::list_sets_and_maps(&nil, &self.root, new, errs);
            }
        }
    }

    /// Embedded resources and list types (steps 4 and 5).
    pub(crate) fn validate_structure(&self, obj: &Value, errs: &mut Vec<FieldError>) {
        if self.root.has_embedded() {
            meta::validate_embedded(&FieldPath::nil(), obj, &self.root, errs);
        }
        if self.root.has_list_types() {
            list_type::list_sets_and_maps(&FieldPath::nil(), &self.root, obj, errs);
        }
    }
}

/// Whether the API server would skip CEL rules because of `errs` (`hasBlockingErr`): an
/// unsupported (enum), required, too-long, too-many or wrong-type error.
#[must_use]
pub fn has_blocking_error(errs: &[FieldError]) -> bool {
    errs.iter().any(|e| {
        matches!(
            e.error_type,
            ErrorType::NotSupported
                | ErrorType::Required
                | ErrorType::TooLong
                | ErrorType::TooMany
                | ErrorType::TypeInvalid
        )
    })
}
