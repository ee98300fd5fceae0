//! Is a new CRD compatible with the old one? A report of every change that could break the
//! objects already stored or the clients already written, beyond what the API server rejects
//! ([`crate::crd_check::check_crd_update`]).
//!
//! No Go source mirrors this: it is what openshift/crd-schema-checker and
//! kubernetes-sigs/crdify do for Go users (removed fields, type changes, narrowed enums,
//! tightened bounds, new required fields), with the API server's own semantics where they
//! matter: which versions hold stored objects (`status.storedVersions`), that pruning drops
//! the data of removed fields, that CEL rules apply to every object, that rule costs are the
//! CRD check's estimates ([`crate::crd_check::cel::rule_costs`]).
//!
//! Each [`Finding`] has a [`Severity`], for clusters with validation ratcheting (on by default
//! since Kubernetes 1.30: an update may keep a value that fails a validation as long as that
//! value is unchanged):
//! - [`Severity::BreaksStoredObjects`]: an object stored under the old CRD fails updates (a
//!   status write by its controller too) whatever they change: a new required field, a list
//!   type or map keys, `allOf`/`anyOf`/`oneOf`/`not`, a transition rule (`oldSelf`), none of
//!   which is ratcheted; or it loses data (fields pruned when it is read or written); or it
//!   becomes unreachable;
//! - [`Severity::BreaksClients`]: a request an old client makes may fail or change meaning (a
//!   version, name or subresource gone, a default changed, merge semantics changed), and new or
//!   tighter value validations and rules that do not use `oldSelf` (bounds, patterns, formats,
//!   enums): ratcheting spares the stored objects, not the requests that write a value they
//!   refuse (the message says so);
//! - [`Severity::Info`]: worth knowing, breaks nothing by itself (a new version, a widened
//!   enum, a rule whose estimated cost grew, a new storage version).
//!
//! Schemas are compared version by version, for the versions both CRDs have; paths are those
//! of the object (`.spec.ports[*].name`: `[*]` for list items, `.*` for map values).
//!
//! ```
//! use crdkit_crd::compat::{Severity, compare};
//! use crdkit_schema::crd::CustomResourceDefinition;
//!
//! let crd = |max: i64| -> CustomResourceDefinition { serde_json::from_value(serde_json::json!({
//!     "metadata": {"name": "crontabs.stable.example.com"},
//!     "spec": {"group": "stable.example.com", "scope": "Namespaced",
//!              "names": {"plural": "crontabs", "kind": "CronTab"},
//!              "versions": [{"name": "v1", "served": true, "storage": true, "schema": {
//!                  "openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object",
//!                      "properties": {"replicas": {"type": "integer", "maximum": max}}}}}}}]}
//! })).unwrap() };
//! let findings = compare(&crd(10), &crd(5));
//! assert_eq!(findings[0].severity, Severity::BreaksClients);
//! assert_eq!(findings[0].path, ".spec.replicas");
//! assert_eq!(findings[0].message, "maximum lowered from 10 to 5; ratcheted (Kubernetes 1.30+): \
//!     stored objects that fail it keep updating while that value is unchanged");
//! ```

mod crd;
mod rules;
mod schema;
mod values;

use std::fmt;

use crdkit_schema::crd::CustomResourceDefinition;

/// How bad a change is; ordered from harmless to worst.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth knowing; breaks nothing by itself.
    Info,
    /// Requests of existing clients may fail or change meaning (including writes of values a
    /// new or tighter validation refuses, which ratcheting spares stored objects from).
    BreaksClients,
    /// Objects already stored may fail every update, lose data or become unreachable.
    BreaksStoredObjects,
}

impl Severity {
    /// `info`, `breaks-clients`, `breaks-stored-objects`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::BreaksClients => "breaks-clients",
            Severity::BreaksStoredObjects => "breaks-stored-objects",
        }
    }

    /// The severity named by [`Severity::as_str`].
    #[must_use]
    pub fn parse(s: &str) -> Option<Severity> {
        [
            Severity::Info,
            Severity::BreaksClients,
            Severity::BreaksStoredObjects,
        ]
        .into_iter()
        .find(|v| v.as_str() == s)
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Code {
    /// The CRD itself is gone: deleting it deletes every object of it.
    CrdRemoved,
    /// `spec.scope` changed.
    ScopeChanged,
    /// `spec.group`, `names.plural`, `names.kind`, `names.singular` or `names.listKind` changed.
    NameChanged,
    /// A short name or category is gone.
    NameRemoved,
    /// A version that holds stored objects is gone from `spec.versions`.
    StoredVersionRemoved,
    /// A version is gone from `spec.versions`.
    VersionRemoved,
    /// A version is no longer served.
    VersionUnserved,
    /// A new version.
    VersionAdded,
    /// A version is newly deprecated.
    VersionDeprecated,
    /// The storage version changed.
    StorageVersionChanged,
    /// `spec.conversion` changed.
    ConversionChanged,
    /// Unknown fields are pruned now (`preserveUnknownFields` or
    /// `x-kubernetes-preserve-unknown-fields` turned off).
    PruningEnabled,
    /// A subresource (`status`, `scale`) is gone.
    SubresourceRemoved,
    /// A printer column is gone.
    PrinterColumnRemoved,
    /// A selectable field is gone.
    SelectableFieldRemoved,
    /// A field of the schema is gone.
    FieldRemoved,
    /// A field's `type` (or `x-kubernetes-int-or-string`, `x-kubernetes-embedded-resource`, a
    /// map turned into an object or back) changed.
    TypeChanged,
    /// `nullable` turned off.
    NullableRemoved,
    /// Enum values removed, or an enum where there was none.
    EnumNarrowed,
    /// Enum values added.
    EnumWidened,
    /// A bound (`maximum`, `minimum`, lengths, items, properties, `multipleOf`) is tighter or new.
    BoundTightened,
    /// A property is newly required.
    RequiredAdded,
    /// A `pattern` is new or changed.
    PatternChanged,
    /// A `format` is new or changed.
    FormatChanged,
    /// `allOf`, `anyOf`, `oneOf` or `not` changed.
    JunctorChanged,
    /// A CEL rule is new (or its text changed).
    RuleAdded,
    /// A CEL rule is gone.
    RuleRemoved,
    /// The estimated cost of a CEL rule grew.
    RuleCostGrew,
    /// `x-kubernetes-list-type` or `x-kubernetes-list-map-keys` changed.
    ListTypeChanged,
    /// `x-kubernetes-map-type` changed.
    MapTypeChanged,
    /// A `default` changed or is gone.
    DefaultChanged,
    /// A `default` is new.
    DefaultAdded,
}

impl Code {
    /// The code in kebab case (`field-removed`), as the JSON report writes it.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Code::CrdRemoved => "crd-removed",
            Code::ScopeChanged => "scope-changed",
            Code::NameChanged => "name-changed",
            Code::NameRemoved => "name-removed",
            Code::StoredVersionRemoved => "stored-version-removed",
            Code::VersionRemoved => "version-removed",
            Code::VersionUnserved => "version-unserved",
            Code::VersionAdded => "version-added",
            Code::VersionDeprecated => "version-deprecated",
            Code::StorageVersionChanged => "storage-version-changed",
            Code::ConversionChanged => "conversion-changed",
            Code::PruningEnabled => "pruning-enabled",
            Code::SubresourceRemoved => "subresource-removed",
            Code::PrinterColumnRemoved => "printer-column-removed",
            Code::SelectableFieldRemoved => "selectable-field-removed",
            Code::FieldRemoved => "field-removed",
            Code::TypeChanged => "type-changed",
            Code::NullableRemoved => "nullable-removed",
            Code::EnumNarrowed => "enum-narrowed",
            Code::EnumWidened => "enum-widened",
            Code::BoundTightened => "bound-tightened",
            Code::RequiredAdded => "required-added",
            Code::PatternChanged => "pattern-changed",
            Code::FormatChanged => "format-changed",
            Code::JunctorChanged => "junctor-changed",
            Code::RuleAdded => "rule-added",
            Code::RuleRemoved => "rule-removed",
            Code::RuleCostGrew => "rule-cost-grew",
            Code::ListTypeChanged => "list-type-changed",
            Code::MapTypeChanged => "map-type-changed",
            Code::DefaultChanged => "default-changed",
            Code::DefaultAdded => "default-added",
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One change between two CRDs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// How bad it is.
    pub severity: Severity,
    /// What changed.
    pub code: Code,
    /// The version whose schema (or entry) changed; `None` for the CRD as a whole.
    pub version: Option<String>,
    /// Where: the object's field for schema changes (`.spec.replicas`, `.` for the root), the
    /// CRD's field otherwise (`spec.scope`, `spec.names.shortNames`).
    pub path: String,
    /// What changed, in words (`maximum lowered from 10 to 5`).
    pub message: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.severity)?;
        if let Some(v) = &self.version {
            write!(f, "version {v}: ")?;
        }
        write!(f, "{}: {} ({})", self.path, self.message, self.code)
    }
}

/// Every change from `old` to `new` that could matter, in order: the CRD's names and scope,
/// its versions, then each version's schema (depth first, properties in name order).
#[must_use]
pub fn compare(old: &CustomResourceDefinition, new: &CustomResourceDefinition) -> Vec<Finding> {
    let mut out = Vec::new();
    crd::compare(old, new, &mut out);
    for v in &new.spec.versions {
        let Some(ov) = crdkit_apiextensions::versions::version(old, &v.name) else {
            continue;
        };
        fn schema(
            v: &crdkit_schema::crd::CustomResourceDefinitionVersion,
        ) -> Option<&crdkit_schema::JsonSchemaProps> {
            v.schema
                .as_ref()
                .and_then(|s| s.open_api_v3_schema.as_ref())
        }
        if let (Some(o), Some(n)) = (schema(ov), schema(v)) {
            schema::compare(&v.name, o, n, &mut out);
            rules::compare_costs(&v.name, o, n, &mut out);
        }
        crd::compare_version(ov, v, &mut out);
    }
    out
}

/// The finding for a CRD that is gone from a set of CRDs (`old` has no counterpart).
#[must_use]
pub fn removed(old: &CustomResourceDefinition) -> Finding {
    Finding {
        severity: Severity::BreaksStoredObjects,
        code: Code::CrdRemoved,
        version: None,
        path: "metadata.name".to_owned(),
        message: format!(
            "the CustomResourceDefinition {} is gone: deleting it deletes all its objects",
            old.metadata.name.as_deref().unwrap_or_default()
        ),
    }
}

/// The worst severity among `findings`.
#[must_use]
pub fn worst(findings: &[Finding]) -> Option<Severity> {
    findings.iter().map(|f| f.severity).max()
}
