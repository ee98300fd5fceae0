//! Custom resources: a CRD compiled for serving ([`CrdEntry`]) and the strategy of one of its
//! versions ([`CustomResourceStrategy`]).
//!
//! Mirrors apiextensions-apiserver `pkg/registry/customresource/strategy.go` and
//! `status_strategy.go` (through crdkit's [`Admission`], which does their decoding, status
//! handling and validation), `selectableFields` and `objectMetaFieldsSet` (field selectors),
//! `pkg/apiserver/customresource_handler.go` (the default deprecation warning, the refusal to
//! create while the CRD terminates) and `pkg/apiserver/conversion/nop_converter.go` (the `None`
//! conversion: `apiVersion` rewritten; objects are stored at the storage version and, as the
//! storage codec does, pruned and defaulted with its schema when read).

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use super::strategy::{Converted, ResourceInfo, Strategy, Subresources};
use super::table::{PrinterColumns, Table};
use super::version;
use crate::engine::{Admission, Admitted, CustomResourceDefinition, FieldManager};
use crate::http::status::{ApiError, ApiResult};
use crate::jsonpath::go_number;

/// One served version, compiled.
struct VersionEntry {
    /// The names at this version, made once: every request's strategy holds them.
    info: Arc<ResourceInfo>,
    admission: Result<Admission, String>,
    field_manager: Arc<FieldManager>,
    columns: PrinterColumns,
    selectable: Vec<String>,
    subresources: Subresources,
    warning: Option<String>,
}

/// A stored CRD compiled for serving its custom resources.
pub struct CrdEntry {
    /// `metadata.name`.
    pub name: String,
    /// The mod revision of the stored CRD this was compiled from.
    pub revision: u64,
    /// The CRD.
    pub crd: CustomResourceDefinition,
    /// Whether `Established` is true (its resources are served).
    pub established: bool,
    /// Whether `Terminating` is true (deleting; creates are refused).
    pub terminating: bool,
    /// The version objects are stored at.
    pub storage_version: String,
    /// The conversion webhook (`spec.conversion.strategy: Webhook`), or why it cannot be called.
    pub webhook: Option<Result<Arc<super::webhook::Webhook>, String>>,
    /// Cancelled when the storage serving this CRD is torn down (`customresource_handler.go`
    /// `removeStorage_locked`: the CRD deleted, or its spec or accepted names changed), which
    /// ends its watches; entries of one storage share it.
    pub torn_down: tokio_util::sync::CancellationToken,
    versions: BTreeMap<String, VersionEntry>,
}

/// Whether `crd`'s objects live in namespaces.
fn namespaced(crd: &CustomResourceDefinition) -> bool {
    crd.spec.scope != "Cluster"
}

/// The names of `crd`'s resource at `version`.
fn info_of(crd: &CustomResourceDefinition, version: &str) -> ResourceInfo {
    let n = &crd.spec.names;
    ResourceInfo {
        group: crd.spec.group.clone(),
        version: version.to_owned(),
        resource: n.plural.clone(),
        singular: n.singular_or_default(),
        kind: n.kind.clone(),
        list_kind: n.list_kind_or_default(),
        namespaced: namespaced(crd),
        short_names: n.short_names.clone(),
        categories: n.categories.clone(),
        prefix: storage_prefix(&crd.spec.group, &n.plural),
    }
}

/// The `status` of a condition of a CRD's `status.conditions`.
#[must_use]
pub fn condition_status<'a>(status: Option<&'a Value>, ty: &str) -> Option<&'a str> {
    status?
        .get("conditions")?
        .as_array()?
        .iter()
        .find(|c| c.get("type").and_then(Value::as_str) == Some(ty))?
        .get("status")?
        .as_str()
}

impl CrdEntry {
    /// Compiles a stored CRD (its mod revision `revision`).
    #[must_use]
    pub fn new(crd: CustomResourceDefinition, revision: u64) -> CrdEntry {
        let name = crd.metadata.name.clone().unwrap_or_default();
        let status = crd.status.as_ref();
        let established = condition_status(status, "Established") == Some("True");
        let terminating = condition_status(status, "Terminating") == Some("True")
            || crd.metadata.deletion_timestamp.is_some();
        let storage_version = crd
            .spec
            .versions
            .iter()
            .find(|v| v.storage)
            .map(|v| v.name.clone())
            .unwrap_or_default();
        let mut versions = BTreeMap::new();
        for v in crd.spec.versions.iter().filter(|v| v.served) {
            let subresources = v.subresources.as_ref();
            versions.insert(
                v.name.clone(),
                VersionEntry {
                    info: Arc::new(info_of(&crd, &v.name)),
                    admission: Admission::new(&crd, &v.name).map_err(|e| e.to_string()),
                    field_manager: Arc::new(FieldManager::for_crd(&crd, &v.name)),
                    columns: PrinterColumns::new(&v.additional_printer_columns),
                    selectable: v
                        .selectable_fields
                        .iter()
                        .map(|f| f.json_path.trim_start_matches('.').to_owned())
                        .collect(),
                    subresources: Subresources {
                        status: subresources.is_some_and(|s| s.status.is_some()),
                        scale: subresources.and_then(|s| s.scale.clone()),
                    },
                    warning: v.deprecated.then(|| {
                        v.deprecation_warning
                            .clone()
                            .unwrap_or_else(|| default_deprecation_warning(&v.name, &crd))
                    }),
                },
            );
        }
        let webhook = super::webhook::Webhook::of(&crd).map(|w| w.map(Arc::new));
        CrdEntry {
            name,
            revision,
            crd,
            established,
            terminating,
            storage_version,
            webhook,
            torn_down: tokio_util::sync::CancellationToken::new(),
            versions,
        }
    }

    /// Whether `self` is served by the storage of `old`: the same CRD (uid), spec and accepted
    /// names (`updateCustomResourceDefinition` keeps the storage then; storage is keyed by uid).
    #[must_use]
    pub fn same_storage(&self, old: &CrdEntry) -> bool {
        let accepted = |e: &CrdEntry| {
            e.crd
                .status
                .as_ref()
                .and_then(|s| s.get("acceptedNames"))
                .cloned()
        };
        self.crd.metadata.uid == old.crd.metadata.uid
            && self.crd.spec == old.crd.spec
            && accepted(self) == accepted(old)
    }

    /// Whether the CRD's resources are served (established).
    #[must_use]
    pub fn served(&self) -> bool {
        self.established
    }

    /// The served versions, highest priority first.
    #[must_use]
    pub fn served_versions(&self) -> Vec<String> {
        let mut v: Vec<String> = self.versions.keys().cloned().collect();
        version::sort(&mut v);
        v
    }

    /// Whether the CRD is namespaced.
    #[must_use]
    pub fn namespaced(&self) -> bool {
        namespaced(&self.crd)
    }

    /// The names of the resource at `version`.
    #[must_use]
    pub fn info(&self, version: &str) -> ResourceInfo {
        ResourceInfo::clone(&self.shared_info(version))
    }

    /// [`CrdEntry::info`], shared (made once for each served version).
    fn shared_info(&self, version: &str) -> Arc<ResourceInfo> {
        self.versions.get(version).map_or_else(
            || Arc::new(info_of(&self.crd, version)),
            |v| Arc::clone(&v.info),
        )
    }

    /// The subresources of a served version.
    #[must_use]
    pub fn subresources(&self, version: &str) -> Subresources {
        self.versions
            .get(version)
            .map(|v| v.subresources.clone())
            .unwrap_or_default()
    }
}

/// `/registry/<group>/<plural>/`.
#[must_use]
pub fn storage_prefix(group: &str, plural: &str) -> String {
    format!("/registry/{group}/{plural}/")
}

/// `defaultDeprecationWarning`: `<group>/<version> <Kind> is deprecated`, and the served,
/// non-deprecated version of higher priority to use instead, if any.
fn default_deprecation_warning(deprecated: &str, crd: &CustomResourceDefinition) -> String {
    let (group, kind) = (&crd.spec.group, &crd.spec.names.kind);
    let mut msg = format!("{group}/{deprecated} {kind} is deprecated");
    let mut newer: Vec<String> = crd
        .spec
        .versions
        .iter()
        .filter(|v| {
            v.served
                && !v.deprecated
                && version::compare(deprecated, &v.name) == std::cmp::Ordering::Less
        })
        .map(|v| v.name.clone())
        .collect();
    version::sort(&mut newer);
    if let Some(v) = newer.first() {
        msg.push_str(&format!("; use {group}/{v} {kind}"));
    }
    msg
}

/// The strategy of one served version of a CRD.
pub struct CustomResourceStrategy {
    entry: Arc<CrdEntry>,
    info: Arc<ResourceInfo>,
}

impl CustomResourceStrategy {
    /// The strategy of `version` of `entry`.
    #[must_use]
    pub fn new(entry: Arc<CrdEntry>, version: &str) -> CustomResourceStrategy {
        let info = entry.shared_info(version);
        CustomResourceStrategy { entry, info }
    }

    fn version(&self) -> Option<&VersionEntry> {
        self.entry.versions.get(&self.info.version)
    }

    fn admission(&self) -> ApiResult<&Admission> {
        match self.version().map(|v| &v.admission) {
            Some(Ok(a)) => Ok(a),
            Some(Err(e)) => Err(ApiError::internal(e)),
            None => Err(ApiError::no_such_resource()),
        }
    }

    fn set_api_version(&self, obj: &mut Value, version: &str) {
        if let Value::Object(m) = obj {
            let api_version = if self.info.group.is_empty() {
                version.to_owned()
            } else {
                format!("{}/{version}", self.info.group)
            };
            m.insert("apiVersion".to_owned(), Value::String(api_version));
        }
    }
}

impl Strategy for CustomResourceStrategy {
    fn info(&self) -> &ResourceInfo {
        &self.info
    }

    fn builtin(&self) -> bool {
        false
    }

    fn subresources(&self) -> Subresources {
        self.version()
            .map(|v| v.subresources.clone())
            .unwrap_or_default()
    }

    fn create(&self, obj: &mut Value) -> ApiResult<Admitted> {
        Ok(self.admission()?.create(obj))
    }

    fn update(&self, new: &mut Value, old: &Value) -> ApiResult<Admitted> {
        Ok(self.admission()?.update(new, old))
    }

    fn update_status(&self, new: &mut Value, old: &Value) -> ApiResult<Admitted> {
        self.admission()?
            .update_status(new, old)
            .map_err(|_| ApiError::no_such_resource())
    }

    fn convert_request(&self, obj: &mut Value) -> Converted {
        // customresource_handler.go: the CRD's codec decodes a body (`schemaCoercingDecoder`:
        // pruning, `metadata`, the unknown-field paths; `unstructuredDefaulter`) before
        // handlers/create.go, update.go and patch.go give it to the field manager, so a write's
        // managed fields name the fields it got defaulted and never a pruned one. A body that
        // does not decode is left to `create`/`update`, which reject it.
        match self.admission().map(|a| a.decode(obj)) {
            Ok(Ok(unknown_fields)) => Converted {
                unknown_fields,
                decoded: true,
            },
            _ => Converted::default(),
        }
    }

    fn create_converted(&self, obj: &mut Value, converted: Converted) -> ApiResult<Admitted> {
        if !converted.decoded {
            return self.create(obj);
        }
        Ok(self
            .admission()?
            .create_decoded(obj, converted.unknown_fields))
    }

    fn update_converted(
        &self,
        new: &mut Value,
        old: &Value,
        status: bool,
        converted: Converted,
    ) -> ApiResult<Admitted> {
        let a = self.admission()?;
        let decoded = converted.decoded.then_some(converted.unknown_fields);
        if status {
            a.update_status_decoded(new, old, decoded)
                .map_err(|_| ApiError::no_such_resource())
        } else {
            Ok(a.update_decoded(new, old, decoded))
        }
    }

    fn encode_for_storage(&self, obj: &mut Value) {
        let storage = self.entry.storage_version.clone();
        self.set_api_version(obj, &storage);
    }

    fn decode_stored(&self, obj: &mut Value) {
        // Decoded with the schema of the version it was written at (the storage version of
        // the time); without a webhook, converted by rewriting `apiVersion`, then decoded with
        // the request version's schema.
        let written = obj
            .get("apiVersion")
            .and_then(Value::as_str)
            .and_then(|a| a.rsplit_once('/'))
            .map(|(_, v)| v.to_owned())
            .unwrap_or_else(|| self.entry.storage_version.clone());
        if let Some(Ok(a)) = self.entry.versions.get(&written).map(|v| &v.admission) {
            let _ = a.schema().prune_and_default(obj);
        }
        if written != self.info.version && self.entry.webhook.is_none() {
            self.set_api_version(obj, &self.info.version.clone());
            self.decode_request(obj);
        }
    }

    fn decode_request(&self, obj: &mut Value) {
        if let Ok(a) = self.admission() {
            let _ = a.schema().prune_and_default(obj);
        }
    }

    fn torn_down(&self) -> Option<tokio_util::sync::CancellationToken> {
        Some(self.entry.torn_down.clone())
    }

    fn webhook(&self) -> ApiResult<Option<Arc<super::webhook::Webhook>>> {
        match &self.entry.webhook {
            None => Ok(None),
            Some(Ok(w)) => Ok(Some(Arc::clone(w))),
            Some(Err(e)) => Err(ApiError::internal(format!(
                "conversion webhook for {}/{}, Kind={} failed: {e}",
                self.info.group, self.info.version, self.info.kind
            ))),
        }
    }

    fn rules_revision(&self) -> u64 {
        self.entry.revision
    }

    fn storage_api_version(&self) -> String {
        if self.info.group.is_empty() {
            return self.entry.storage_version.clone();
        }
        format!("{}/{}", self.info.group, self.entry.storage_version)
    }

    fn fields(&self, obj: &Value) -> BTreeMap<String, String> {
        let mut f = BTreeMap::new();
        f.insert(
            "metadata.name".to_owned(),
            crate::object::name(obj).to_owned(),
        );
        if self.info.namespaced {
            f.insert(
                "metadata.namespace".to_owned(),
                crate::object::namespace(obj).to_owned(),
            );
        }
        for path in self
            .version()
            .map(|v| v.selectable.as_slice())
            .unwrap_or(&[])
        {
            let value = match crate::object::at_path(obj, path) {
                None | Some(Value::Null) => String::new(),
                Some(Value::String(s)) => s.clone(),
                Some(Value::Number(n)) => go_number(n),
                Some(Value::Bool(b)) => b.to_string(),
                Some(v) => v.to_string(),
            };
            f.insert(path.clone(), value);
        }
        f
    }

    fn field_label_supported(&self, label: &str) -> bool {
        matches!(label, "metadata.name" | "metadata.namespace")
            || self
                .version()
                .is_some_and(|v| v.selectable.iter().any(|s| s == label))
    }

    fn table(&self, objs: &[&Value], now: i64) -> Table {
        match self.version() {
            Some(v) => v.columns.table(objs, now),
            None => PrinterColumns::new(&[]).table(objs, now),
        }
    }

    fn warnings(&self) -> Vec<String> {
        self.version()
            .and_then(|v| v.warning.clone())
            .into_iter()
            .collect()
    }

    fn field_manager(&self) -> Arc<FieldManager> {
        self.version().map_or_else(
            || Arc::new(FieldManager::for_crd(&self.entry.crd, &self.info.version)),
            |v| Arc::clone(&v.field_manager),
        )
    }

    fn create_refused(&self) -> Option<String> {
        self.entry.terminating.then(|| {
            "create not allowed while custom resource definition is terminating".to_owned()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn crd(versions: Value) -> CustomResourceDefinition {
        serde_json::from_value(json!({
            "metadata": {"name": "crontabs.stable.example.com"},
            "spec": {"group": "stable.example.com", "scope": "Namespaced",
                "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab"},
                "versions": versions},
            "status": {"conditions": [{"type": "Established", "status": "True"}]}
        }))
        .unwrap()
    }

    #[test]
    fn deprecation_warnings() {
        let c = crd(json!([
            {"name": "v1beta1", "served": true, "storage": false, "deprecated": true,
             "schema": {"openAPIV3Schema": {"type": "object"}}},
            {"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}},
            {"name": "v1alpha1", "served": true, "storage": false, "deprecated": true, "deprecationWarning": "gone soon",
             "schema": {"openAPIV3Schema": {"type": "object"}}},
        ]));
        let e = Arc::new(CrdEntry::new(c, 1));
        assert_eq!(e.served_versions(), ["v1", "v1beta1", "v1alpha1"]);
        assert_eq!(
            CustomResourceStrategy::new(Arc::clone(&e), "v1beta1").warnings(),
            ["stable.example.com/v1beta1 CronTab is deprecated; use stable.example.com/v1 CronTab"]
        );
        assert_eq!(
            CustomResourceStrategy::new(Arc::clone(&e), "v1alpha1").warnings(),
            ["gone soon"]
        );
        assert!(CustomResourceStrategy::new(e, "v1").warnings().is_empty());
    }

    #[test]
    fn conversion_between_versions_rewrites_api_version() {
        let c = crd(json!([
            {"name": "v1beta1", "served": true, "storage": false,
             "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": {"a": {"type": "string", "default": "x"}}}}}}},
            {"name": "v1", "served": true, "storage": true,
             "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object", "properties": {"a": {"type": "string"}}}}}}},
        ]));
        let e = Arc::new(CrdEntry::new(c, 1));
        let beta = CustomResourceStrategy::new(Arc::clone(&e), "v1beta1");
        let mut obj = json!({"apiVersion": "stable.example.com/v1beta1", "kind": "CronTab", "metadata": {"name": "x"}, "spec": {"b": 1}});
        beta.encode_for_storage(&mut obj);
        assert_eq!(obj["apiVersion"], "stable.example.com/v1");
        // Read back at v1beta1: pruned with the storage schema, defaulted with v1beta1's.
        beta.decode_stored(&mut obj);
        assert_eq!(obj["apiVersion"], "stable.example.com/v1beta1");
        assert_eq!(obj["spec"], json!({"a": "x"}));
    }

    #[test]
    fn selectable_fields() {
        let c = crd(json!([{"name": "v1", "served": true, "storage": true,
            "schema": {"openAPIV3Schema": {"type": "object"}},
            "selectableFields": [{"jsonPath": ".spec.color"}, {"jsonPath": ".spec.size"}]}]));
        let s = CustomResourceStrategy::new(Arc::new(CrdEntry::new(c, 1)), "v1");
        assert!(s.field_label_supported("spec.color"));
        assert!(!s.field_label_supported("spec.material"));
        let f = s.fields(&json!({"metadata": {"name": "a", "namespace": "d"}, "spec": {"color": "blue", "size": 3}}));
        assert_eq!(f["spec.color"], "blue");
        assert_eq!(f["spec.size"], "3");
        assert_eq!(f["metadata.namespace"], "d");
    }
}
