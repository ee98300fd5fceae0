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
