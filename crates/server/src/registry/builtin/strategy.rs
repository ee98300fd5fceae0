//! The strategy of one built-in resource: decoding (pruning with the published schema), then
//! kubernetes' defaulting, Service allocation, `PrepareForCreate`/`PrepareForUpdate` and
//! validation, in kube-apiserver's order (`pkg/registry/generic/registry/store.go` `Create`:
//! decode with defaults, `BeginCreate` (Services: `pkg/registry/core/service/storage/alloc.go`),
//! `rest.BeforeCreate`: `PrepareForCreate`, `Validate`).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use crdkit_builtin::conversion::autoscaling;
use crdkit_builtin::defaults::{self, AllocError, ServiceAllocator};
use crdkit_builtin::resources::Resource;
use crdkit_builtin::schemas::Catalog;
use crdkit_builtin::{fields, tables, validation};
use serde_json::Value;

use super::super::strategy::{Converted, ResourceInfo, Strategy, Subresources};
use super::super::table::Table;
use super::{events, storage_prefix};
use crate::engine::{
    Admission, Admitted, CustomResourceSubresourceScale, FieldError, FieldManager, Structural,
};
use crate::http::status::{ApiError, ApiResult};

/// A built-in resource's strategy, built once.
pub struct BuiltinStrategy {
    resource: &'static Resource,
    info: ResourceInfo,
    api_version: String,
    admission: Option<Admission>,
    field_manager: Arc<FieldManager>,
    subresources: Subresources,
    generation: bool,
    services: Option<Arc<Mutex<ServiceAllocator>>>,
}

impl BuiltinStrategy {
    /// The strategy of `r`, its schema from `catalog`.
    #[must_use]
    pub fn new(
        r: &'static Resource,
        catalog: &Catalog,
        services: Arc<Mutex<ServiceAllocator>>,
    ) -> BuiltinStrategy {
        let api_version = r.api_version();
        let schema: Option<Structural> = catalog.schema(&api_version, r.kind).and_then(Result::ok);
        let status = r.subresource("status").is_some_and(|s| s.served);
        let scale =
            r.subresource("scale")
                .filter(|s| s.served)
                .map(|_| CustomResourceSubresourceScale {
                    spec_replicas_path: ".spec.replicas".to_owned(),
                    status_replicas_path: ".status.replicas".to_owned(),
                    // An object (a LabelSelector) or a map (ReplicationControllers): printed as
                    // `LabelSelectorAsSelector(...).String()` (see `registry::scale`).
                    label_selector_path: Some(".spec.selector".to_owned()),
                });
        let mut field_manager = FieldManager::new(schema.as_ref(), &api_version, r.kind);
        if status {
            field_manager = field_manager.with_status_subresource();
        }
        let generation = defaults::uses_generation(&api_version, r.kind);
        BuiltinStrategy {
            resource: r,
            info: ResourceInfo {
                group: r.group.to_owned(),
                version: r.version.to_owned(),
                resource: r.name.to_owned(),
                singular: r.singular(),
                kind: r.kind.to_owned(),
                list_kind: format!("{}List", r.kind),
                namespaced: r.namespaced,
                short_names: r.short_names.iter().map(|s| (*s).to_owned()).collect(),
                categories: r.categories.iter().map(|s| (*s).to_owned()).collect(),
                prefix: storage_prefix(r),
            },
            admission: schema
                .as_ref()
                .map(|s| Admission::for_schema(&api_version, r.kind, s)),
            api_version,
            field_manager: Arc::new(field_manager),
            subresources: Subresources { status, scale },
            generation,
            services: (r.group.is_empty() && r.kind == "Service").then_some(services),
        }
    }

    /// Decodes a request body: unknown fields pruned as the typed decoding drops them, the
    /// kind's defaults applied.
    fn decode(&self, obj: &mut Value) -> Result<Vec<String>, FieldError> {
        let unknown = match &self.admission {
            Some(a) => a.schema().prune_and_default(obj)?,
            None => Vec::new(),
        };
        defaults::apply(&self.api_version, &self.info.kind, obj);
        if self.is_hpa_v1() {
            // What a v1 client gets back is the stored v2 object converted: the implicit 80%
            // CPU target and the round-trip annotations in their canonical form.
            *obj = autoscaling::hpa_v2_to_v1(&autoscaling::hpa_v1_to_v2(obj));
        }
        Ok(unknown)
    }

    /// A body that does not decode into the kind's Go struct: 400, as the API server's decoder
    /// answers before anything else runs.
    fn check_types(&self, obj: &Value) -> ApiResult<()> {
        let info = &self.info;
        match crdkit_builtin::decode::type_error(&info.group, &info.version, &info.kind, obj) {
            Some(e) => Err(ApiError::bad_request(
                crdkit_apimachinery::strict::cannot_be_handled(&info.kind, &info.version, &e),
            )),
            None => Ok(()),
        }
    }

    fn allocator(&self) -> Option<std::sync::MutexGuard<'_, ServiceAllocator>> {
        self.services
            .as_ref()
            .map(|s| s.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    /// Validation when crdkit-builtin has the kind's; else the name rule of the catalog
    /// (`ValidateObjectMeta` with the kind's name function).
    fn validate(&self, new: &Value, old: Option<&Value>) -> Vec<FieldError> {
        if validation::knows(&self.api_version, &self.info.kind) {
            return match old {
                None => validation::validate_create(&self.api_version, &self.info.kind, new),
                Some(old) => {
                    validation::validate_update(&self.api_version, &self.info.kind, new, old)
                }
            };
        }
        match old {
            None => self
                .resource
                .name_rule
                .validate(new.get("metadata").unwrap_or(&Value::Null)),
            Some(_) => Vec::new(),
        }
    }

    /// Validates an update of `old` (whose `resourceVersion` an unconditional update takes
    /// first, as `store.go` `Update` does before `ValidateObjectMetaUpdate` runs).
    fn validate_update(&self, new: &mut Value, old: &Value) -> Vec<FieldError> {
        if crate::object::resource_version(new).is_empty() {
            let rv = crate::object::resource_version(old).to_owned();
            crate::object::set_meta(new, "resourceVersion", Some(Value::from(rv)));
        }
        self.validate(new, Some(old))
    }

    /// Releases what a deleted Service held.
    pub fn release(&self, obj: &Value) {
        if let Some(mut a) = self.allocator() {
            a.release(obj);
        }
    }
}

fn decoding_failed(e: FieldError) -> Admitted {
    Admitted {
        unknown_fields: Vec::new(),
        errors: vec![e],
        decoding_failed: true,
    }
}

fn alloc_error(e: AllocError) -> ApiResult<Vec<FieldError>> {
    match e {
        AllocError::Invalid(errs) => Ok(errs),
        AllocError::Internal(m) => Err(ApiError::internal(m)),
    }
}

impl Strategy for BuiltinStrategy {
    fn info(&self) -> &ResourceInfo {
        &self.info
    }

    fn subresources(&self) -> Subresources {
        self.subresources.clone()
    }

    fn uses_generation(&self) -> bool {
        self.generation
    }

    fn verbs(&self) -> Option<&'static [&'static str]> {
        Some(self.resource.verbs)
    }

    fn create(&self, obj: &mut Value) -> ApiResult<Admitted> {
        self.check_types(obj)?;
        let unknown_fields = match self.decode(obj) {
            Ok(u) => u,
            Err(e) => return Ok(decoding_failed(e)),
        };
        let allocation = match self.allocator().map(|mut a| a.allocate_create(obj)) {
            Some(Err(e)) => {
                return Ok(Admitted {
                    unknown_fields,
                    errors: alloc_error(e)?,
                    decoding_failed: false,
                });
            }
            Some(Ok(a)) => Some(a),
            None => None,
        };
        defaults::prepare_for_create(&self.api_version, &self.info.kind, obj);
        let errors = self.validate(obj, None);
        if let (Some(a), false) = (&allocation, errors.is_empty())
            && let Some(mut s) = self.allocator()
        {
            s.revert(a);
        }
        Ok(Admitted {
            unknown_fields,
            errors,
            decoding_failed: false,
        })
    }

    fn update(&self, new: &mut Value, old: &Value) -> ApiResult<Admitted> {
        self.check_types(new)?;
        let unknown_fields = match self.decode(new) {
            Ok(u) => u,
            Err(e) => return Ok(decoding_failed(e)),
        };
        let allocation = match self.allocator().map(|mut a| a.allocate_update(new, old)) {
            Some(Err(e)) => {
                return Ok(Admitted {
                    unknown_fields,
                    errors: alloc_error(e)?,
                    decoding_failed: false,
                });
            }
            Some(Ok(a)) => Some(a),
            None => None,
        };
        defaults::prepare_for_update(&self.api_version, &self.info.kind, new, old);
        let errors = self.validate_update(new, old);
        // Admitted: what it takes stays taken and what it frees stays held until the write is
        // stored (`Strategy::held`).
        if let (Some(a), false) = (&allocation, errors.is_empty())
            && let Some(mut s) = self.allocator()
        {
            s.revert(a);
        }
        Ok(Admitted {
            unknown_fields,
            errors,
            decoding_failed: false,
        })
    }

    fn update_status(&self, new: &mut Value, old: &Value) -> ApiResult<Admitted> {
        if !self.subresources.status {
            return Err(ApiError::no_such_resource());
        }
        self.check_types(new)?;
        let unknown_fields = match self.decode(new) {
            Ok(u) => u,
            Err(e) => return Ok(decoding_failed(e)),
        };
        take_new_status(new, old);
        let errors = self.validate_update(new, old);
        Ok(Admitted {
            unknown_fields,
            errors,
            decoding_failed: false,
        })
    }

    fn convert_request(&self, obj: &mut Value) -> Converted {
        // Go decodes a body into its Go struct (unknown fields dropped, reported by the strict
        // decoder; its defaults; the conversion to the internal version) before
        // handlers/create.go, update.go and patch.go give it to the field manager, so the
        // writer owns the defaulted fields and never an unknown one. `create`/`update` decode
        // again, which finds nothing more; a body that does not decode is left to them.
        let Ok(unknown_fields) = self.decode(obj) else {
            return Converted::default();
        };
        defaults::convert_request(&self.api_version, &self.info.kind, obj);
        Converted {
            unknown_fields,
            decoded: true,
        }
    }

    fn encode_for_storage(&self, obj: &mut Value) {
        if self.is_new_event() {
            events::to_core(obj);
        } else if self.is_hpa_v1() {
            *obj = autoscaling::hpa_v1_to_v2(obj);
        }
    }

    fn decode_stored(&self, obj: &mut Value) {
        let stored = obj.get("apiVersion").and_then(Value::as_str);
        if self.is_new_event() && stored == Some("v1") {
            events::from_core(obj);
        } else if self.is_hpa_v1() && stored == Some("autoscaling/v2") {
            *obj = autoscaling::hpa_v2_to_v1(obj);
        }
    }

    fn rules_revision(&self) -> u64 {
        // The cache keeps one encoding per (rules, version): `events.k8s.io/v1` and `v1`
        // Events share their objects and their version's name.
        u64::from(self.is_new_event())
    }

    fn storage_api_version(&self) -> String {
        match self.resource.storage {
            Some(s) if s.group.is_empty() => s.version.to_owned(),
            Some(s) => format!("{}/{}", s.group, s.version),
            None => self.api_version.clone(),
        }
    }

    fn fields(&self, obj: &Value) -> BTreeMap<String, String> {
        fields::selectable_fields(&self.info.group, &self.info.kind, obj)
    }

    fn field_label_supported(&self, label: &str) -> bool {
        self.field_label_error(label).is_none()
    }

    fn field_label_error(&self, label: &str) -> Option<String> {
        fields::convert_label(&self.info.group, &self.info.version, &self.info.kind, label).err()
    }

    fn table(&self, objs: &[&Value], now: i64) -> Table {
        let printer = tables::printer(&self.info.group, &self.info.kind);
        Table {
            columns: printer.column_definitions(),
            rows: objs.iter().map(|o| printer.row(o, now).cells).collect(),
        }
    }

    fn warnings(&self) -> Vec<String> {
        self.resource
            .deprecation
            .map(str::to_owned)
            .into_iter()
            .collect()
    }

    fn field_manager(&self) -> Arc<FieldManager> {
        Arc::clone(&self.field_manager)
    }

    fn deleted(&self, obj: &Value) {
        self.release(obj);
    }

    fn held(&self, obj: &Value, old: Option<&Value>) -> Option<Value> {
        self.services.as_ref()?;
        Some(match old {
            None => serde_json::json!({"taken": {"spec": obj.get("spec")}}),
            Some(old) => serde_json::json!({
                "taken": ServiceAllocator::difference(obj, old),
                "freed": ServiceAllocator::difference(old, obj),
            }),
        })
    }

    fn give_back(&self, held: &Value) {
        self.release(&held["taken"]);
    }

    fn keep(&self, held: &Value) {
        self.release(&held["freed"]);
    }

    fn returns_deleted_object(&self) -> bool {
        returns_deleted_object(self.info.group.as_str(), self.info.resource.as_str())
    }
}

/// The stores built with `ReturnDeletedObject: true` (each `pkg/registry/<group>/<resource>/
/// storage/storage.go`; the published OpenAPI's `DELETE` answers with the kind for them):
/// their delete answers with the deleted object instead of a `Success` Status.
fn returns_deleted_object(group: &str, resource: &str) -> bool {
    matches!(
        (group, resource),
        (
            "",
            "pods"
                | "podtemplates"
                | "persistentvolumes"
                | "persistentvolumeclaims"
                | "resourcequotas"
                | "services"
                | "serviceaccounts"
        ) | (
            "storage.k8s.io",
            "csidrivers"
                | "csinodes"
                | "storageclasses"
                | "volumeattachments"
                | "volumeattributesclasses"
        ) | (
            "resource.k8s.io",
            "deviceclasses" | "resourceclaims" | "resourceclaimtemplates" | "resourceslices"
        )
    )
}

impl BuiltinStrategy {
    fn is_new_event(&self) -> bool {
        self.info.group == "events.k8s.io"
    }

    /// `autoscaling/v1` HorizontalPodAutoscalers, stored as `autoscaling/v2`.
    fn is_hpa_v1(&self) -> bool {
        self.info.group == "autoscaling" && self.info.version == "v1"
    }
}

/// `/status` changes nothing but `status` (the kinds' `statusStrategy.PrepareForUpdate`); the
/// field manager's record of the write is kept.
fn take_new_status(new: &mut Value, old: &Value) {
    let status = new.get("status").cloned();
    let managed = new
        .get("metadata")
        .and_then(|m| m.get("managedFields"))
        .cloned();
    *new = old.clone();
    if let Some(Value::Object(meta)) = new.get_mut("metadata") {
        match managed {
            Some(m) if !m.is_null() => meta.insert("managedFields".to_owned(), m),
            _ => meta.remove("managedFields"),
        };
    }
    if let Value::Object(map) = new {
        match status {
            Some(s) => map.insert("status".to_owned(), s),
            None => map.remove("status"),
        };
    }
}
