//! What the server serves, and the strategy of each kind: how objects are prepared, decoded,
//! validated, converted, selected and printed.
//!
//! Mirrors the split of apiserver `pkg/registry/rest` (`RESTCreateStrategy`,
//! `RESTUpdateStrategy`: prepare, validate, canonicalize) with one strategy per kind:
//! [`crd`] (apiextensions-apiserver `pkg/registry/customresourcedefinition/strategy.go`),
//! [`custom_resource`] (`pkg/registry/customresource/strategy.go`, `status_strategy.go`) and
//! [`namespace`] (kubernetes `pkg/registry/core/namespace/strategy.go`). The handlers do the
//! generic part (`pkg/registry/generic/registry/store.go`, `rest/create.go`, `rest/update.go`).

pub mod conversion;
pub mod crd;
pub mod custom_resource;
pub mod namespace;
pub mod scale;
pub mod schemaless;
pub mod table;
pub mod version;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use serde_json::Value;

use crate::engine::{Admitted, CustomResourceSubresourceScale};
use crate::http::status::{ApiResult, GroupResource};

pub use custom_resource::CrdEntry;

/// The names and place of a resource at one version.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourceInfo {
    /// Empty for the core group.
    pub group: String,
    /// The version requests use.
    pub version: String,
    /// The plural resource name (`crontabs`).
    pub resource: String,
    /// `crontab`
    pub singular: String,
    /// `CronTab`
    pub kind: String,
    /// `CronTabList`
    pub list_kind: String,
    /// Whether objects live in namespaces.
    pub namespaced: bool,
    /// `ct`
    pub short_names: Vec<String>,
    /// `all`
    pub categories: Vec<String>,
    /// The storage key prefix of every object, ending in `/`.
    pub prefix: String,
}

impl ResourceInfo {
    /// `crontabs.stable.example.com`.
    #[must_use]
    pub fn gr(&self) -> GroupResource {
        GroupResource::new(&self.group, &self.resource)
    }

    /// `stable.example.com/v1`, or `v1` for the core group.
    #[must_use]
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.clone()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// The storage key of an object (`/registry/<group>/<plural>/<ns>/<name>`).
    #[must_use]
    pub fn key(&self, namespace: Option<&str>, name: &str) -> String {
        match namespace {
            Some(ns) if self.namespaced => format!("{}{ns}/{name}", self.prefix),
            _ => format!("{}{name}", self.prefix),
        }
    }

    /// The prefix of the objects of one namespace, or of all.
    #[must_use]
    pub fn prefix_for(&self, namespace: Option<&str>) -> String {
        match namespace {
            Some(ns) if self.namespaced => format!("{}{ns}/", self.prefix),
            _ => self.prefix.clone(),
        }
    }
}

/// The subresources a resource has.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Subresources {
    /// `/status`
    pub status: bool,
    /// `/scale`
    pub scale: Option<CustomResourceSubresourceScale>,
}

/// How one kind is handled (see the module docs).
pub trait Strategy: Send + Sync {
    /// Names and storage prefix.
    fn info(&self) -> &ResourceInfo;

    /// `/status` and `/scale`.
    fn subresources(&self) -> Subresources {
        Subresources::default()
    }

    /// Whether `metadata.generation` is kept (1 on create, +1 when anything but `metadata`
    /// changes).
    fn uses_generation(&self) -> bool {
        true
    }

    /// Decodes (prune, default) and validates a new object that already carries its system
    /// fields (`PrepareForCreate`, then `Validate`).
    ///
    /// # Errors
    /// A request the kind cannot take at all (a wrong body for a built-in kind).
    fn create(&self, obj: &mut Value) -> ApiResult<Admitted>;

    /// Decodes and validates `new` replacing `old` (`PrepareForUpdate`, `ValidateUpdate`).
    ///
    /// # Errors
    /// As [`Strategy::create`].
    fn update(&self, new: &mut Value, old: &Value) -> ApiResult<Admitted>;

    /// As [`Strategy::update`] through `/status`: only `status` changes.
    ///
    /// # Errors
    /// As [`Strategy::create`].
    fn update_status(&self, new: &mut Value, old: &Value) -> ApiResult<Admitted>;

    /// Converts a request-version object to what is stored (the storage version).
    fn encode_for_storage(&self, _obj: &mut Value) {}

    /// Decodes a stored object with the schema it was written with and, without a conversion
    /// webhook, converts it to the request version (see [`conversion::to_request`]).
    fn decode_stored(&self, _obj: &mut Value) {}

    /// Decodes an object just converted to the request version with that version's schema.
    fn decode_request(&self, _obj: &mut Value) {}

    /// The conversion webhook, when the kind converts through one.
    ///
    /// # Errors
    /// A webhook configuration the server cannot call.
    fn webhook(&self) -> ApiResult<Option<Arc<conversion::Webhook>>> {
        Ok(None)
    }

    /// `group/version` of the storage version.
    fn storage_api_version(&self) -> String {
        self.info().api_version()
    }

    /// The object's selectable fields (`GetAttrs`).
    fn fields(&self, obj: &Value) -> BTreeMap<String, String> {
        let mut f = BTreeMap::new();
        f.insert(
            "metadata.name".to_owned(),
            crate::object::name(obj).to_owned(),
        );
        if self.info().namespaced {
            f.insert(
                "metadata.namespace".to_owned(),
                crate::object::namespace(obj).to_owned(),
            );
        }
        f
    }

    /// Whether a field selector may name `label` (`ConvertFieldLabel`).
    fn field_label_supported(&self, label: &str) -> bool {
        matches!(label, "metadata.name" | "metadata.namespace")
    }

    /// The Table columns and a row's cells for these objects.
    fn table(&self, objs: &[&Value], now: i64) -> table::Table;

    /// `Warning` headers for every request (deprecated versions).
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }

    /// Changes made when a delete marks the object as deleting (a CRD gets its cleanup
    /// finalizer and `Terminating` condition, a namespace its `Terminating` phase).
    fn mark_deleting(&self, _obj: &mut Value, _now: i64) {}

    /// Whether the object still waits for finalizers before it can go.
    fn has_finalizers(&self, obj: &Value) -> bool {
        !crate::object::finalizers(obj).is_empty()
    }

    /// Whether deleting always goes through marking (CRDs and namespaces are cleaned up by
    /// controllers before they go).
    fn always_marks(&self) -> bool {
        false
    }

    /// The field manager of the kind (managed fields, server-side apply).
    fn field_manager(&self) -> std::sync::Arc<crate::engine::FieldManager>;

    /// Whether creating objects is refused (the CRD is terminating).
    fn create_refused(&self) -> Option<String> {
        None
    }
}

/// The CRDs the server serves, by name and by group, version and resource.
#[derive(Default)]
pub struct Registry {
    /// Incremented by every change (discovery and OpenAPI documents are rebuilt from it).
    pub generation: u64,
    crds: BTreeMap<String, Arc<CrdEntry>>,
    by_resource: HashMap<(String, String, String), Arc<CrdEntry>>,
}

impl Registry {
    /// Adds or replaces a CRD (its stored form at `revision`); an older revision than the one
    /// held is ignored (a watch event arriving after a local write).
    pub fn upsert(&mut self, entry: CrdEntry) {
        if let Some(cur) = self.crds.get(&entry.name)
            && cur.revision >= entry.revision
        {
            return;
        }
        self.remove(&entry.name.clone());
        self.generation += 1;
        let entry = Arc::new(entry);
        if entry.served() {
            for v in entry.served_versions() {
                self.by_resource.insert(
                    (
                        entry.crd.spec.group.clone(),
                        v.clone(),
                        entry.crd.spec.names.plural.clone(),
                    ),
                    Arc::clone(&entry),
                );
            }
        }
        self.crds.insert(entry.name.clone(), entry);
    }

    /// Removes a CRD.
    pub fn remove(&mut self, name: &str) {
        if let Some(old) = self.crds.remove(name) {
            self.generation += 1;
            self.by_resource.retain(|_, e| !Arc::ptr_eq(e, &old));
        }
    }

    /// The CRD serving `group/version` `resource`.
    #[must_use]
    pub fn lookup(&self, group: &str, version: &str, resource: &str) -> Option<Arc<CrdEntry>> {
        self.by_resource
            .get(&(group.to_owned(), version.to_owned(), resource.to_owned()))
            .cloned()
    }

    /// The CRD named `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<Arc<CrdEntry>> {
        self.crds.get(name).cloned()
    }

    /// Every CRD held, by name.
    pub fn all(&self) -> impl Iterator<Item = &Arc<CrdEntry>> {
        self.crds.values()
    }
}
