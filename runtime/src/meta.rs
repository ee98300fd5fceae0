//! `ObjectMeta` without k8s-openapi: the fields a custom object's `metadata` carries.
//!
//! Field names and types follow `k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta`, so that code
//! written against it (`ObjectMeta { name: Some(..), ..Default::default() }`) also compiles
//! against k8s-openapi's type when the `kube` feature swaps it in. Timestamps stay RFC 3339 strings.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Standard object metadata.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    /// `annotations`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<BTreeMap<String, String>>,
    /// `creationTimestamp`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creation_timestamp: Option<String>,
    /// `deletionGracePeriodSeconds`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_grace_period_seconds: Option<i64>,
    /// `deletionTimestamp`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_timestamp: Option<String>,
    /// `finalizers`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finalizers: Option<Vec<String>>,
    /// `generateName`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generate_name: Option<String>,
    /// `generation`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generation: Option<i64>,
    /// `labels`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<BTreeMap<String, String>>,
    /// `managedFields`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub managed_fields: Option<Vec<serde_json::Value>>,
    /// `name`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `namespace`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// `ownerReferences`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner_references: Option<Vec<OwnerReference>>,
    /// `resourceVersion`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_version: Option<String>,
    /// `selfLink`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub self_link: Option<String>,
    /// `uid`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uid: Option<String>,
}

/// An owner of an object.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnerReference {
    /// `apiVersion`
    pub api_version: String,
    /// `blockOwnerDeletion`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_owner_deletion: Option<bool>,
    /// `controller`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<bool>,
    /// `kind`
    pub kind: String,
    /// `name`
    pub name: String,
    /// `uid`
    pub uid: String,
}

/// The shape of `metadata`, shared by [`ObjectMeta`] and (with the `kube` feature)
/// k8s-openapi's `ObjectMeta`.
pub mod shape {
    use crate::shape::{Field, Kind, Schema, Shape};

    const STRING: Shape = Shape::string();
    const DATE_TIME: Shape = Shape::string().format("date-time");
    const INTEGER: Shape = Shape::integer();
    const STRING_MAP: Shape = Shape::new(Kind::Map(&STRING));
    const STRING_LIST: Shape = Shape::new(Kind::Array(&STRING));
    const ANY: Shape = Shape::any();
    const MANAGED_FIELDS: Shape = Shape::new(Kind::Array(&ANY));
    const BOOL: Shape = Shape::boolean();
    const OWNER_REFERENCE: Shape = Shape::new(Kind::Struct(&[
        field("apiVersion", &STRING, true),
        field("blockOwnerDeletion", &BOOL, false),
        field("controller", &BOOL, false),
        field("kind", &STRING, true),
        field("name", &STRING, true),
        field("uid", &STRING, true),
    ]))
    .named("OwnerReference");
    const OWNER_REFERENCES: Shape = Shape::new(Kind::Array(&OWNER_REFERENCE));

    const fn field(name: &'static str, shape: &'static Shape, required: bool) -> Field {
        Field {
            name,
            ident: name,
            shape,
            required,
            flatten: false,
        }
    }

    /// `metadata` of an object.
    pub const OBJECT_META: Shape = {
        let mut s = Shape::new(Kind::Struct(&[
            field("annotations", &STRING_MAP, false),
            field("creationTimestamp", &DATE_TIME, false),
            field("deletionGracePeriodSeconds", &INTEGER, false),
            field("deletionTimestamp", &DATE_TIME, false),
            field("finalizers", &STRING_LIST, false),
            field("generateName", &STRING, false),
            field("generation", &INTEGER, false),
            field("labels", &STRING_MAP, false),
            field("managedFields", &MANAGED_FIELDS, false),
            field("name", &STRING, false),
            field("namespace", &STRING, false),
            field("ownerReferences", &OWNER_REFERENCES, false),
            field("resourceVersion", &STRING, false),
            field("selfLink", &STRING, false),
            field("uid", &STRING, false),
        ]))
        .named("ObjectMeta");
        s.object_meta = true;
        s
    };

    impl Schema for super::ObjectMeta {
        const SHAPE: Shape = OBJECT_META;
    }
}
