//! What every strategy answers: the names and storage place of a resource ([`ResourceInfo`]),
//! its subresources, and how its objects are prepared, validated, converted, selected and
//! printed ([`Strategy`]).
//!
//! Mirrors apiserver `pkg/registry/rest` (`RESTCreateStrategy`, `RESTUpdateStrategy`,
//! `RESTDeleteStrategy`, `TableConvertor`) and the storage codec's conversion hooks.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use super::table::Table;
use super::webhook::Webhook;
use crate::engine::{Admitted, CustomResourceSubresourceScale, FieldManager};
use crate::http::status::{ApiResult, GroupResource};

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

    /// Whether `api_version` is [`ResourceInfo::api_version`] (compared in place: every write
    /// asks).
    #[must_use]
    pub fn is_api_version(&self, api_version: &str) -> bool {
        if self.group.is_empty() {
            return api_version == self.version;
        }
        api_version
            .strip_prefix(self.group.as_str())
            .and_then(|rest| rest.strip_prefix('/'))
            == Some(self.version.as_str())
    }

    /// The storage key of an object (`/registry/<group>/<plural>/<ns>/<name>`).
    #[must_use]
    pub fn key(&self, namespace: Option<&str>, name: &str) -> String {
        // Concatenated into one allocation of the key's size (every request makes one).
        let ns = namespace.filter(|_| self.namespaced);
        let mut key =
            String::with_capacity(self.prefix.len() + ns.map_or(0, |ns| ns.len() + 1) + name.len());
        key.push_str(&self.prefix);
        if let Some(ns) = ns {
            key.push_str(ns);
            key.push('/');
        }
        key.push_str(name);
        key
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

/// What [`Strategy::convert_request`] did to a body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Converted {
    /// The unknown-field paths the decoding pruned (warnings, `fieldValidation=Strict`).
    pub unknown_fields: Vec<String>,
    /// Whether the body was decoded (pruned, defaulted) as the strategy's `create` and
    /// `update` would: they need not decode it again.
    pub decoded: bool,
}

/// How one kind is handled (see the module docs).
pub trait Strategy: Send + Sync {
    /// Names and storage prefix.
    fn info(&self) -> &ResourceInfo;

    /// `/status` and `/scale`.
    fn subresources(&self) -> Subresources {
        Subresources::default()
    }

    /// The verbs the resource allows (discovery's), when they are not all of them (built-in
    /// resources: `create` alone for reviews, no `deletecollection` for some).
    fn verbs(&self) -> Option<&'static [&'static str]> {
        None
    }

    /// Whether the kind is built in (not defined by a CRD): built-in kinds take strategic merge
    /// patches.
    fn builtin(&self) -> bool {
        true
    }

    /// Cancelled when the storage serving the kind is torn down (a CRD deleted or changed):
    /// its watches end. Built-in kinds' storage lives as long as the server.
    fn torn_down(&self) -> Option<tokio_util::sync::CancellationToken> {
        None
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

    /// What decoding a create or update body changes before the field manager records the
    /// write (built-in kinds: their defaults, a Secret's `stringData` into `data`; custom
    /// resources: pruning and the structural defaults); not run for updates by apply, whose
    /// managed fields are those of the applied configuration. Its result goes to
    /// [`Strategy::create_converted`] or [`Strategy::update_converted`]; a body that does not
    /// decode is left for them to reject.
    fn convert_request(&self, _obj: &mut Value) -> Converted {
        Converted::default()
    }

    /// [`Strategy::create`] of a body [`Strategy::convert_request`] converted: its unknown
    /// fields reported first, the decoding not done twice where the strategy can tell.
    ///
    /// # Errors
    /// As [`Strategy::create`].
    fn create_converted(&self, obj: &mut Value, converted: Converted) -> ApiResult<Admitted> {
        let mut admitted = self.create(obj)?;
        admitted
            .unknown_fields
            .splice(0..0, converted.unknown_fields);
        Ok(admitted)
    }

    /// [`Strategy::update`] (`status`: [`Strategy::update_status`]) of a body
    /// [`Strategy::convert_request`] converted, as [`Strategy::create_converted`].
    ///
    /// # Errors
    /// As [`Strategy::update`].
    fn update_converted(
        &self,
        new: &mut Value,
        old: &Value,
        status: bool,
        converted: Converted,
    ) -> ApiResult<Admitted> {
        let mut admitted = if status {
            self.update_status(new, old)?
        } else {
            self.update(new, old)?
        };
        admitted
            .unknown_fields
            .splice(0..0, converted.unknown_fields);
        Ok(admitted)
    }

    /// Converts a request-version object to what is stored (the storage version).
    fn encode_for_storage(&self, _obj: &mut Value) {}

    /// Decodes a stored object with the schema it was written with and, without a conversion
    /// webhook, converts it to the request version (see [`super::conversion::to_request`]).
    fn decode_stored(&self, _obj: &mut Value) {}

    /// Decodes an object just converted to the request version with that version's schema.
    fn decode_request(&self, _obj: &mut Value) {}

    /// The conversion webhook, when the kind converts through one.
    ///
    /// # Errors
    /// A webhook configuration the server cannot call.
    fn webhook(&self) -> ApiResult<Option<Arc<Webhook>>> {
        Ok(None)
    }

    /// What decoding a stored object for this strategy depends on besides the object and the
    /// version: the mod revision of the CRD whose schemas prune and default it (0 for kinds
    /// whose rules never change). Objects decoded under equal values read equal.
    fn rules_revision(&self) -> u64 {
        0
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

    /// The API server's refusal of `label` in a field selector, when the kind has its own
    /// text (built-in kinds); `None` leaves it to [`Strategy::field_label_supported`].
    fn field_label_error(&self, _label: &str) -> Option<String> {
        None
    }

    /// The Table columns and a row's cells for these objects.
    fn table(&self, objs: &[&Value], now: i64) -> Table;

    /// `Warning` headers for every request (deprecated versions).
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }

    /// Changes made when a delete marks the object as deleting (a CRD gets its cleanup
    /// finalizer and `Terminating` condition, a namespace its `Terminating` phase).
    fn mark_deleting(&self, _obj: &mut Value, _now: i64) {}

    /// Called once an object is deleted from storage (a Service's cluster IPs and node ports
    /// go back to their ranges).
    fn deleted(&self, _obj: &Value) {}

    /// What an admitted create (`old` `None`) or update holds until it is stored: given back
    /// if it is not, and what it replaced freed if it is (a Service's cluster IPs and node
    /// ports: kubernetes `pkg/registry/core/service/storage/transaction.go`, `alloc.go`).
    fn held(&self, _obj: &Value, _old: Option<&Value>) -> Option<Value> {
        None
    }

    /// Gives back what [`Strategy::held`] returned: the write was not stored (dry run, a
    /// later check refused it, the storage write failed).
    fn give_back(&self, _held: &Value) {}

    /// The write [`Strategy::held`] described was stored: what it replaced is freed.
    fn keep(&self, _held: &Value) {}

    /// Whether a delete that removed the object answers with it rather than a `Success`
    /// Status (the Go store's `ReturnDeletedObject`).
    fn returns_deleted_object(&self) -> bool {
        false
    }

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
    fn field_manager(&self) -> Arc<FieldManager>;

    /// Whether creating objects is refused (the CRD is terminating).
    fn create_refused(&self) -> Option<String> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::ResourceInfo;

    #[test]
    fn keys_of_namespaced_and_cluster_objects() {
        let mut info = ResourceInfo {
            prefix: "/registry/g/crontabs/".to_owned(),
            namespaced: true,
            ..ResourceInfo::default()
        };
        assert_eq!(info.key(Some("ns"), "a"), "/registry/g/crontabs/ns/a");
        assert_eq!(info.key(None, "a"), "/registry/g/crontabs/a");
        assert_eq!(info.prefix_for(Some("ns")), "/registry/g/crontabs/ns/");
        info.namespaced = false;
        assert_eq!(info.key(Some("ns"), "a"), "/registry/g/crontabs/a");
        assert_eq!(info.prefix_for(Some("ns")), "/registry/g/crontabs/");
    }

    #[test]
    fn api_versions_compare_as_written() {
        let mut info = ResourceInfo {
            group: "stable.example.com".to_owned(),
            version: "v1".to_owned(),
            ..ResourceInfo::default()
        };
        for (info_group, candidates) in [
            (
                "stable.example.com",
                ["stable.example.com/v1", "v1", "stable.example.com/v2"],
            ),
            ("", ["v1", "/v1", "apps/v1"]),
        ] {
            info.group = info_group.to_owned();
            for v in
                candidates
                    .into_iter()
                    .chain(["", "stable.example.com", "stable.example.com/v1/"])
            {
                assert_eq!(
                    info.is_api_version(v),
                    v == info.api_version(),
                    "{info_group:?} {v:?}"
                );
            }
        }
    }
}
