//! A custom resource as the derive declares it ([`ResourceDecl`]), and the CRD built from it.

use std::fmt;

use crdkit_apimachinery::version::compare_priority;
use crdkit_schema::crd::{
    CustomResourceColumnDefinition, CustomResourceDefinition, CustomResourceDefinitionNames,
    CustomResourceDefinitionSpec, CustomResourceDefinitionVersion, CustomResourceSubresourceScale,
    CustomResourceSubresources, CustomResourceValidation, SelectableField,
};
use crdkit_schema::meta::ObjectMeta;
use crdkit_schema::{Structural, Type};

use crate::{self as shape, BuildError, Rule, Shape};

/// Everything `#[derive(CustomResource)]` knows about one version of a resource.
#[derive(Clone, Copy, Debug)]
#[allow(clippy::struct_excessive_bools)]
pub struct ResourceDecl {
    /// `spec.group`: the API group (`stable.example.com`).
    pub group: &'static str,
    /// `spec.versions[].name`: this version (`v1`).
    pub version: &'static str,
    /// `spec.names.kind`: the kind of the objects (`CronTab`).
    pub kind: &'static str,
    /// `spec.names.plural`: the resource name in URLs (`crontabs`); the CRD is named
    /// `<plural>.<group>`.
    pub plural: &'static str,
    /// `spec.names.singular`: the lowercase kind unless given.
    pub singular: &'static str,
    /// `spec.names.listKind`; empty when not given, left for the API server to default to
    /// `<kind>List`.
    pub list_kind: &'static str,
    /// `spec.names.shortNames`: aliases for kubectl (`ct`).
    pub short_names: &'static [&'static str],
    /// `spec.names.categories`: groups for kubectl (`all`).
    pub categories: &'static [&'static str],
    /// `spec.scope`: `Namespaced` when set, else `Cluster`.
    pub namespaced: bool,
    /// `spec.versions[].served`: the API server serves this version.
    pub served: bool,
    /// `spec.versions[].storage`: objects are stored in this version (see [`merge_crds`]).
    pub storage: bool,
    /// `spec.versions[].deprecated`: requests for this version get a warning.
    pub deprecated: bool,
    /// `spec.versions[].deprecationWarning`: the warning instead of the API server's default.
    pub deprecation_warning: Option<&'static str>,
    /// Description of the root object.
    pub description: Option<&'static str>,
    /// `max_desc_len`: descriptions cut to this many bytes as controller-gen's
    /// `crd:maxDescLen` cuts them (`0` drops them); `None` keeps them whole.
    pub max_desc_len: Option<usize>,
    /// The shape of the spec type (its [`Schema::SHAPE`](crate::Schema::SHAPE)), the `spec`
    /// property.
    pub spec: &'static Shape,
    /// `spec` is in the root's `required`.
    pub spec_required: bool,
    /// The spec's fields sit at the root of the object, beside `apiVersion`, `kind` and
    /// `metadata` (`#[crd(flatten)]`), as in the versioning page's CronTab (`host`, `port`),
    /// instead of under `spec`.
    pub flatten: bool,
    /// The shape of the status type, the `status` property.
    pub status: Option<&'static Shape>,
    /// `subresources.status: {}`: `status` is written through `/status` only.
    pub status_subresource: bool,
    /// `subresources.scale`.
    pub scale: Option<Scale>,
    /// `spec.versions[].additionalPrinterColumns`.
    pub printer_columns: &'static [PrinterColumn],
    /// `spec.versions[].selectableFields[].jsonPath` (`.spec.color`).
    pub selectable_fields: &'static [&'static str],
    /// `x-kubernetes-validations` on the root object.
    pub rules: &'static [Rule],
    /// The CRD's `metadata.annotations` (`api-approved.kubernetes.io`, ...).
    pub annotations: &'static [(&'static str, &'static str)],
    /// The CRD's `metadata.labels`.
    pub labels: &'static [(&'static str, &'static str)],
    /// The root schema's `apiVersion` property (`type: string`) with this description (`""`:
    /// none), as controller-gen writes it; `None` leaves it out (the API server knows it).
    pub api_version_property: Option<&'static str>,
    /// The root schema's `kind` property (`type: string`), as `api_version_property`.
    pub kind_property: Option<&'static str>,
    /// The root schema's `metadata` property (`type: object`), as `api_version_property`.
    pub metadata_property: Option<&'static str>,
    /// `metadata` is in the root's `required` (first).
    pub metadata_required: bool,
    /// `subresources: {}` when the version has no subresource (controller-gen writes it so;
    /// the API server keeps it).
    pub empty_subresources: bool,
}

/// `subresources.scale`.
#[derive(Clone, Copy, Debug)]
pub struct Scale {
    /// `specReplicasPath`: the JSON path of the desired replicas (`.spec.replicas`).
    pub spec_replicas_path: &'static str,
    /// `statusReplicasPath`: the JSON path of the observed replicas (`.status.replicas`).
    pub status_replicas_path: &'static str,
    /// `labelSelectorPath`: the JSON path of the serialized label selector
    /// (`.status.selector`), for the `HorizontalPodAutoscaler`.
    pub label_selector_path: Option<&'static str>,
}

/// One of `additionalPrinterColumns`.
#[derive(Clone, Copy, Debug)]
pub struct PrinterColumn {
    /// `name`: the column header (`Age`).
    pub name: &'static str,
    /// `type`: `integer`, `number`, `string`, `boolean` or `date`; inferred from the schema when
    /// the attribute leaves it out.
    pub ty: &'static str,
    /// `format` (`int32`, `byte`, `date-time`, …); left out when `None`.
    pub format: Option<&'static str>,
    /// `description`: what the column shows, for readers of the CRD; left out when `None`.
    pub description: Option<&'static str>,
    /// `priority`: 0 shows the column always, higher only with `kubectl get -o wide`.
    pub priority: i32,
    /// `jsonPath`: the value shown, relative to the object (`.metadata.creationTimestamp`).
    pub json_path: &'static str,
}

/// A CRD that could not be built: the parts of its types without a structural schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrdError {
    /// Every failure, by path, in the order the schema was built.
    pub errors: Vec<BuildError>,
}

impl fmt::Display for CrdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for CrdError {}

impl ResourceDecl {
    /// Fails when this CRD is certainly over what etcd stores in one request
    /// ([`crate::size::check_crd_size`]). Run at compile time by `#[derive(CustomResource)]`.
    ///
    /// # Errors
    /// The message names the size, the limit and `max_desc_len`.
    // A failed check returns its message by value: const fns cannot box it.
    #[allow(clippy::result_large_err)]
    pub const fn check_size(&self) -> Result<(), crate::Msg> {
        crate::size::check_crd_size(self.kind, self.spec, self.status, self.max_desc_len)
    }

    /// `<group>/<version>`
    #[must_use]
    pub fn api_version(&self) -> String {
        format!("{}/{}", self.group, self.version)
    }

    /// The structural schema of the root object: `spec`, `status` and the root rules.
    ///
    /// # Errors
    /// When a run-time part of the schema (`#[crd(schemars)]`, default functions) fails.
    pub fn schema(&self) -> Result<Structural, CrdError> {
        let mut errors = Vec::new();
        let mut root = Structural::of_type(Type::Object);
        if self.flatten {
            // The spec's schema is the root's: its fields, `required` and rules.
            match shape::build::build(self.spec) {
                Ok(s) => root = s,
                Err(e) => errors.extend(e),
            }
            if let Some(d) = self.description {
                root.generic.description = Some(d.to_owned());
            }
        } else {
            root.generic.description = self.description.map(str::to_owned);
            match shape::build::build_at(self.spec, "spec") {
                Ok(s) => {
                    root.properties.insert("spec".to_owned(), s);
                }
                Err(e) => errors.extend(e),
            }
        }
        if let Some(status) = self.status {
            match shape::build::build_at(status, "status") {
                Ok(s) => {
                    root.properties.insert("status".to_owned(), s);
                }
                Err(e) => errors.extend(e),
            }
        }
        if self.spec_required && !self.flatten {
            root.value_validation.required.push("spec".to_owned());
        }
        for (name, description, ty) in [
            ("apiVersion", self.api_version_property, Type::String),
            ("kind", self.kind_property, Type::String),
            ("metadata", self.metadata_property, Type::Object),
        ] {
            if let Some(d) = description {
                let mut p = Structural::of_type(ty);
                p.generic.description = (!d.is_empty()).then(|| d.to_owned());
                root.properties.insert(name.to_owned(), p);
            }
        }
        if self.metadata_required {
            root.value_validation
                .required
                .insert(0, "metadata".to_owned());
        }
        let mut rules = Shape::new(shape::Kind::Any);
        rules.rules = shape::Rules {
            own: self.rules,
            inherited: None,
        };
        if let Ok(r) = shape::build::build_at(&rules, "") {
            root.extensions.validations.extend(r.extensions.validations);
        }
        if let Some(n) = self.max_desc_len {
            crate::size::truncate_descriptions(&mut root, n);
        }
        if errors.is_empty() {
            Ok(root)
        } else {
            Err(CrdError { errors })
        }
    }

    /// The CustomResourceDefinition of this resource, with this one version.
    ///
    /// # Errors
    /// When a run-time part of the schema (`#[crd(schemars)]`, default functions) fails.
    pub fn crd(&self) -> Result<CustomResourceDefinition, CrdError> {
        let schema = self.schema()?;
        let subresources = (self.status_subresource
            || self.scale.is_some()
            || self.empty_subresources)
            .then(|| CustomResourceSubresources {
                status: self.status_subresource.then(serde_json::Map::new),
                scale: self.scale.map(|s| CustomResourceSubresourceScale {
                    spec_replicas_path: s.spec_replicas_path.to_owned(),
                    status_replicas_path: s.status_replicas_path.to_owned(),
                    label_selector_path: s.label_selector_path.map(str::to_owned),
                }),
            });
        let version = CustomResourceDefinitionVersion {
            name: self.version.to_owned(),
            served: self.served,
            storage: self.storage,
            deprecated: self.deprecated,
            deprecation_warning: self.deprecation_warning.map(str::to_owned),
            schema: Some(CustomResourceValidation {
                open_api_v3_schema: Some(schema.to_props()),
            }),
            subresources,
            additional_printer_columns: self
                .printer_columns
                .iter()
                .map(|c| CustomResourceColumnDefinition {
                    name: c.name.to_owned(),
                    ty: c.ty.to_owned(),
                    format: c.format.unwrap_or_default().to_owned(),
                    description: c.description.unwrap_or_default().to_owned(),
                    priority: c.priority,
                    json_path: c.json_path.to_owned(),
                })
                .collect(),
            selectable_fields: self
                .selectable_fields
                .iter()
                .map(|p| SelectableField {
                    json_path: (*p).to_owned(),
                })
                .collect(),
        };
        let mut crd = CustomResourceDefinition::new(CustomResourceDefinitionSpec {
            group: self.group.to_owned(),
            names: CustomResourceDefinitionNames {
                plural: self.plural.to_owned(),
                singular: self.singular.to_owned(),
                short_names: self.short_names.iter().map(|s| (*s).to_owned()).collect(),
                kind: self.kind.to_owned(),
                list_kind: self.list_kind.to_owned(),
                categories: self.categories.iter().map(|s| (*s).to_owned()).collect(),
            },
            scope: if self.namespaced {
                "Namespaced"
            } else {
                "Cluster"
            }
            .to_owned(),
            versions: vec![version],
            conversion: None,
            preserve_unknown_fields: false,
        });
        let map = |pairs: &[(&str, &str)]| {
            (!pairs.is_empty()).then(|| {
                pairs
                    .iter()
                    .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                    .collect()
            })
        };
        crd.metadata.annotations = map(self.annotations);
        crd.metadata.labels = map(self.labels);
        let bytes = crd.to_value().to_string().len();
        if bytes > crate::size::MAX_CRD_BYTES {
            return Err(CrdError {
                errors: vec![BuildError {
                    path: String::new(),
                    message: crate::size::too_big(self.kind, bytes, false)
                        .as_str()
                        .to_owned(),
                }],
            });
        }
        Ok(crd)
    }

    /// Whether a part of the schema is only known at run time: a `#[crd(schemars)]` field or a
    /// `default` function, which the compile-time checks could not see.
    #[must_use]
    pub fn has_run_time_parts(&self) -> bool {
        let mut seen = std::collections::HashSet::new();
        run_time_parts(self.spec, &mut seen)
            || self.status.is_some_and(|s| run_time_parts(s, &mut seen))
    }
}

/// Walks the shape graph once per node (shapes are shared, such as `Container` under a pod
/// template's three container lists).
fn run_time_parts(shape: &Shape, seen: &mut std::collections::HashSet<*const Shape>) -> bool {
    if !seen.insert(std::ptr::from_ref(shape)) {
        return false;
    }
    if matches!(shape.default, Some(shape::DefaultValue::Fn(_))) {
        return true;
    }
    match shape.kind {
        shape::Kind::Dynamic(_) => true,
        shape::Kind::Array(s) | shape::Kind::Map(s) => run_time_parts(s, seen),
        shape::Kind::Struct(fields) => fields.iter().any(|f| run_time_parts(f.shape, seen)),
        shape::Kind::Enum(e) => e.variants.iter().any(|v| match v.kind {
            shape::VariantKind::Unit => false,
            shape::VariantKind::Newtype(s) => run_time_parts(s, seen),
            shape::VariantKind::Struct(fields) => {
                fields.iter().any(|f| run_time_parts(f.shape, seen))
            }
        }),
        _ => false,
    }
}

/// Adds `from`'s labels and annotations to `into`'s, keeping `into`'s value of a key both have:
/// the CRD of several versions carries what each version's declaration asks.
pub(crate) fn merge_metadata(into: &mut ObjectMeta, from: &ObjectMeta) {
    for (mine, theirs) in [
        (&mut into.labels, &from.labels),
        (&mut into.annotations, &from.annotations),
    ] {
        if let Some(theirs) = theirs {
            let mine = mine.get_or_insert_with(Default::default);
            for (k, v) in theirs {
                mine.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
    }
}

/// Why CRDs of several versions do not merge into one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// No CRD was given.
    Empty,
    /// A CRD is for another resource (plural, group, scope or kind differ from the first).
    Mismatch {
        /// The position of the CRD in the input (the first is 0).
        index: usize,
        /// The first CRD's resource: `<plural>.<group> (<scope>)`.
        expected: String,
        /// This CRD's resource, in the same form.
        found: String,
    },
    /// Two CRDs declare the same version.
    DuplicateVersion(String),
    /// The storage version is not a version of any of the CRDs.
    UnknownStorage(String),
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Empty => f.write_str("no CRDs to merge"),
            Self::Mismatch {
                index,
                expected,
                found,
            } => write!(
                f,
                "CRD {index} is for {found}, but the first one is for {expected}"
            ),
            Self::DuplicateVersion(v) => write!(f, "version {v} is given twice"),
            Self::UnknownStorage(v) => write!(f, "storage version {v} is not among the versions"),
        }
    }
}

impl std::error::Error for MergeError {}

/// Joins the single-version CRDs of one resource (one Rust type per version) into one CRD,
/// with `storage` as the storage version; the others keep `served` and are not stored. The
/// versions are listed by priority ([`crdkit_apimachinery::version::compare_priority`]), as
/// kubectl orders them. The versions are not checked against each other; a
/// `#[derive(crdkit::Versions)]` declaration checks them at compile time.
///
/// # Errors
/// When the CRDs are for different resources, repeat a version, or miss `storage`.
pub fn merge_crds(
    crds: Vec<CustomResourceDefinition>,
    storage: &str,
) -> Result<CustomResourceDefinition, MergeError> {
    let mut iter = crds.into_iter();
    let mut merged = iter.next().ok_or(MergeError::Empty)?;
    let id = |c: &CustomResourceDefinition| {
        format!(
            "{}.{} ({})",
            c.spec.names.plural, c.spec.group, c.spec.scope
        )
    };
    let expected = id(&merged);
    for (i, crd) in iter.enumerate() {
        if id(&crd) != expected || crd.spec.names.kind != merged.spec.names.kind {
            return Err(MergeError::Mismatch {
                index: i + 1,
                expected,
                found: id(&crd),
            });
        }
        merge_metadata(&mut merged.metadata, &crd.metadata);
        for v in crd.spec.versions {
            if merged.spec.versions.iter().any(|m| m.name == v.name) {
                return Err(MergeError::DuplicateVersion(v.name));
            }
            merged.spec.versions.push(v);
        }
    }
    if !merged.spec.versions.iter().any(|v| v.name == storage) {
        return Err(MergeError::UnknownStorage(storage.to_owned()));
    }
    for v in &mut merged.spec.versions {
        v.storage = v.name == storage;
    }
    sort_versions(&mut merged.spec.versions);
    Ok(merged)
}

/// Orders CRD versions by priority, the highest first (a stable sort: equal names keep their
/// order).
pub fn sort_versions(versions: &mut [CustomResourceDefinitionVersion]) {
    versions.sort_by(|a, b| compare_priority(&b.name, &a.name));
}

/// A custom resource type: the root type `#[derive(CustomResource)]` generates.
pub trait CustomResource: crate::Schema + Sized {
    /// The spec type (the type carrying the derive).
    type Spec;
    /// The status type, or `()`.
    type Status;
    /// `<group>/<version>`
    const API_VERSION: &'static str;
    /// The kind.
    const KIND: &'static str;
    /// Everything the derive knows about the resource.
    const RESOURCE: ResourceDecl;

    /// The CustomResourceDefinition of this resource.
    ///
    /// # Errors
    /// When a run-time part of the schema (`#[crd(schemars)]`, default functions) fails.
    fn crd() -> Result<CustomResourceDefinition, CrdError> {
        Self::RESOURCE.crd()
    }
}
