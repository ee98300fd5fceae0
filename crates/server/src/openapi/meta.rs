//! The `meta/v1` and `autoscaling/v1` definitions CRD documents refer to, under their
//! kube-openapi names (`io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`, …).
//!
//! The types and structure follow apimachinery `pkg/apis/meta/v1/types.go` and
//! `k8s.io/api/autoscaling/v1`; the descriptions are our own, shorter than the Go doc comments.

use serde_json::{Value, json};

const P: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.";
pub(crate) const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";
pub(crate) const LIST_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta";
pub(crate) const STATUS: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Status";
pub(crate) const PATCH: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";
pub(crate) const DELETE_OPTIONS: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions";
pub(crate) const SCALE: &str = "io.k8s.api.autoscaling.v1.Scale";

fn r(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{P}{name}")})
}

fn s(ty: &str, description: &str) -> Value {
    json!({"type": ty, "description": description})
}

fn string_map(description: &str) -> Value {
    json!({"type": "object", "description": description, "additionalProperties": {"type": "string", "default": ""}})
}

fn string_list(description: &str) -> Value {
    json!({"type": "array", "description": description, "items": {"type": "string", "default": ""}})
}

fn time(description: &str) -> Value {
    json!({"description": description, "allOf": [r("Time")]})
}

/// Every shared `meta/v1` definition, by name.
pub(crate) fn definitions() -> Vec<(String, Value)> {
    let defs = [
        (
            "ObjectMeta",
            json!({
                "description": "ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.",
                "type": "object",
                "properties": {
                    "annotations": string_map("Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata."),
                    "creationTimestamp": time("CreationTimestamp is a timestamp representing the server time when this object was created. Read-only."),
                    "deletionGracePeriodSeconds": {"type": "integer", "format": "int64", "description": "Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Read-only."},
                    "deletionTimestamp": time("DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. Read-only."),
                    "finalizers": {"type": "array", "description": "Must be empty before the object is deleted from the registry.", "items": {"type": "string", "default": ""}, "x-kubernetes-list-type": "set", "x-kubernetes-patch-strategy": "merge"},
                    "generateName": s("string", "GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided."),
                    "generation": {"type": "integer", "format": "int64", "description": "A sequence number representing a specific generation of the desired state. Read-only."},
                    "labels": string_map("Map of string keys and values that can be used to organize and categorize (scope and select) objects."),
                    "managedFields": {"type": "array", "description": "ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.", "items": {"default": {}, "allOf": [r("ManagedFieldsEntry")]}, "x-kubernetes-list-type": "atomic"},
                    "name": s("string", "Name must be unique within a namespace. Cannot be updated."),
                    "namespace": s("string", "Namespace defines the space within which each name must be unique. Cannot be updated."),
                    "ownerReferences": {"type": "array", "description": "List of objects depended by this object.", "items": {"default": {}, "allOf": [r("OwnerReference")]}, "x-kubernetes-list-map-keys": ["uid"], "x-kubernetes-list-type": "map", "x-kubernetes-patch-merge-key": "uid", "x-kubernetes-patch-strategy": "merge"},
                    "resourceVersion": s("string", "An opaque value that represents the internal version of this object. Read-only."),
                    "selfLink": s("string", "Deprecated: selfLink is a legacy read-only field that is no longer populated by the system."),
                    "uid": s("string", "UID is the unique in time and space value for this object. Read-only."),
                },
            }),
        ),
        (
            "ListMeta",
            json!({
                "description": "ListMeta describes metadata that synthetic resources must have, including lists and various status objects.",
                "type": "object",
                "properties": {
                    "continue": s("string", "continue may be set if the user set a limit on the number of items returned."),
                    "remainingItemCount": {"type": "integer", "format": "int64", "description": "The number of subsequent items in the list which are not included in this list response."},
                    "resourceVersion": s("string", "String that identifies the server's internal version of this object. Read-only."),
                    "selfLink": s("string", "Deprecated: selfLink is a legacy read-only field that is no longer populated by the system."),
                },
            }),
        ),
        (
            "Time",
            json!({"description": "Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.", "type": "string", "format": "date-time"}),
        ),
        (
            "FieldsV1",
            json!({"description": "FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.", "type": "object"}),
        ),
        (
            "ManagedFieldsEntry",
            json!({
                "description": "ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.",
                "type": "object",
                "properties": {
                    "apiVersion": s("string", "APIVersion defines the version of this resource that this field set applies to."),
                    "fieldsType": s("string", "FieldsType is the discriminator for the different fields format and version."),
                    "fieldsV1": {"description": "FieldsV1 holds the first JSON version format as described in the \"FieldsV1\" type.", "allOf": [r("FieldsV1")]},
                    "manager": s("string", "Manager is an identifier of the workflow managing these fields."),
                    "operation": s("string", "Operation is the type of operation which lead to this ManagedFieldsEntry being created: Apply or Update."),
                    "subresource": s("string", "Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource."),
                    "time": time("Time is the timestamp of when the ManagedFields entry was added."),
                },
            }),
        ),
        (
            "OwnerReference",
            json!({
                "description": "OwnerReference contains enough information to let you identify an owning object.",
                "type": "object",
                "required": ["apiVersion", "kind", "name", "uid"],
                "properties": {
                    "apiVersion": s("string", "API version of the referent."),
                    "blockOwnerDeletion": s("boolean", "If true, and if the owner has the \"foregroundDeletion\" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed."),
                    "controller": s("boolean", "If true, this reference points to the managing controller."),
                    "kind": s("string", "Kind of the referent."),
                    "name": s("string", "Name of the referent."),
                    "uid": s("string", "UID of the referent."),
                },
                "x-kubernetes-map-type": "atomic",
            }),
        ),
        (
            "Status",
            json!({
                "description": "Status is a return value for calls that don't return other objects.",
                "type": "object",
                "properties": {
                    "apiVersion": s("string", "APIVersion defines the versioned schema of this representation of an object."),
                    "code": {"type": "integer", "format": "int32", "description": "Suggested HTTP return code for this status, 0 if not set."},
                    "details": {"description": "Extended data associated with the reason.", "allOf": [r("StatusDetails")]},
                    "kind": s("string", "Kind is a string value representing the REST resource this object represents."),
                    "message": s("string", "A human-readable description of the status of this operation."),
                    "metadata": {"description": "Standard list metadata.", "default": {}, "allOf": [r("ListMeta")]},
                    "reason": s("string", "A machine-readable description of why this operation is in the \"Failure\" status."),
                    "status": s("string", "Status of the operation. One of: \"Success\" or \"Failure\"."),
                },
                "x-kubernetes-group-version-kind": [{"group": "", "kind": "Status", "version": "v1"}],
            }),
        ),
        (
            "StatusDetails",
            json!({
                "description": "StatusDetails is a set of additional properties that MAY be set by the server to provide additional information about a response.",
                "type": "object",
                "properties": {
                    "causes": {"type": "array", "description": "The Causes array includes more details associated with the StatusReason failure.", "items": {"default": {}, "allOf": [r("StatusCause")]}, "x-kubernetes-list-type": "atomic"},
                    "group": s("string", "The group attribute of the resource associated with the status StatusReason."),
                    "kind": s("string", "The kind attribute of the resource associated with the status StatusReason."),
                    "name": s("string", "The name attribute of the resource associated with the status StatusReason."),
                    "retryAfterSeconds": {"type": "integer", "format": "int32", "description": "If specified, the time in seconds before the operation should be retried."},
                    "uid": s("string", "UID of the resource."),
                },
            }),
        ),
        (
            "StatusCause",
            json!({
                "description": "StatusCause provides more information about an api.Status failure, including cases when multiple errors are encountered.",
                "type": "object",
                "properties": {
                    "field": s("string", "The field of the resource that has caused this error, as named by its JSON serialization."),
                    "message": s("string", "A human-readable description of the cause of the error."),
                    "reason": s("string", "A machine-readable description of the cause of the error."),
                },
            }),
        ),
        (
            "Preconditions",
            json!({
                "description": "Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.",
                "type": "object",
                "properties": {
                    "resourceVersion": s("string", "Specifies the target ResourceVersion"),
                    "uid": s("string", "Specifies the target UID."),
                },
            }),
        ),
        (
            "DeleteOptions",
            json!({
                "description": "DeleteOptions may be provided when deleting an API object.",
                "type": "object",
                "properties": {
                    "apiVersion": s("string", "APIVersion defines the versioned schema of this representation of an object."),
                    "dryRun": string_list("When present, indicates that modifications should not be persisted."),
                    "gracePeriodSeconds": {"type": "integer", "format": "int64", "description": "The duration in seconds before the object should be deleted."},
                    "kind": s("string", "Kind is a string value representing the REST resource this object represents."),
                    "orphanDependents": s("boolean", "Deprecated: please use the PropagationPolicy."),
                    "preconditions": {"description": "Must be fulfilled before a deletion is carried out.", "allOf": [r("Preconditions")]},
                    "propagationPolicy": s("string", "Whether and how garbage collection will be performed."),
                },
            }),
        ),
        (
            "Patch",
            json!({"description": "Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.", "type": "object"}),
        ),
    ];
    defs.into_iter()
        .map(|(name, def)| (format!("{P}{name}"), def))
        .collect()
}

/// `autoscaling/v1` `Scale`, with its spec and status inline.
pub(crate) fn scale() -> Value {
    json!({
        "description": "Scale represents a scaling request for a resource.",
        "type": "object",
        "properties": {
            "apiVersion": s("string", "APIVersion defines the versioned schema of this representation of an object."),
            "kind": s("string", "Kind is a string value representing the REST resource this object represents."),
            "metadata": {"description": "Standard object metadata.", "default": {}, "allOf": [r("ObjectMeta")]},
            "spec": {
                "description": "ScaleSpec describes the attributes of a scale subresource.",
                "type": "object",
                "properties": {"replicas": {"type": "integer", "format": "int32", "description": "The desired number of instances for the scaled object."}},
            },
            "status": {
                "description": "ScaleStatus represents the current status of a scale subresource.",
                "type": "object",
                "required": ["replicas"],
                "properties": {
                    "replicas": {"type": "integer", "format": "int32", "default": 0, "description": "The actual number of observed instances of the scaled object."},
                    "selector": s("string", "The label query over pods that should match the replicas count."),
                },
            },
        },
        "x-kubernetes-group-version-kind": [{"group": "autoscaling", "kind": "Scale", "version": "v1"}],
    })
}
