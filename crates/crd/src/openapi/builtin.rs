//! The documents of the two built-in group-versions the server serves: `api/v1` (namespaces)
//! and `apis/apiextensions.k8s.io/v1` (CustomResourceDefinitions).
//!
//! The paths come from the same route builder as CRDs (the built-in installer of apiserver
//! `pkg/endpoints/installer.go` produces the same shapes for these verbs, with differences in
//! detail this server does not need: strategic merge patch, `*/*` request bodies); the schemas
//! follow
//! `k8s.io/api/core/v1` `Namespace` and apiextensions-apiserver `pkg/apis/apiextensions/v1`,
//! with the recursive `JSONSchemaProps` published as an object that keeps unknown fields.

use serde_json::{Value, json};

use super::definitions::{LIST_META, OBJECT_META, V3_PREFIX};
use super::kind::Names;
use super::routes::Builder;
use super::v3doc;
use crdkit_schema::crd::CustomResourceDefinitionVersion;

fn version_with_status() -> CustomResourceDefinitionVersion {
    serde_json::from_value(
        json!({"name": "v1", "served": true, "storage": true, "subresources": {"status": {}}}),
    )
    .unwrap_or_default()
}

fn build(names: Names, kind: Value, list: Value) -> Value {
    v3doc::build(&Builder::builtin(names, &version_with_status(), kind, list))
}

fn list(names: &Names, gvk_group: &str) -> Value {
    json!({
        "description": format!("{} is a list of {} objects.", names.list_kind, names.kind),
        "type": "object",
        "required": ["items"],
        "properties": {
            "apiVersion": {"type": "string", "description": "APIVersion defines the versioned schema of this representation of an object."},
            "items": {"type": "array", "items": {"default": {}, "allOf": [{"$ref": format!("{V3_PREFIX}{}", names.definition(&names.kind))}]}},
            "kind": {"type": "string", "description": "Kind is a string value representing the REST resource this object represents."},
            "metadata": {"default": {}, "description": "Standard list metadata.", "allOf": [{"$ref": format!("{V3_PREFIX}{LIST_META}")}]},
        },
        "x-kubernetes-group-version-kind": [{"group": gvk_group, "kind": names.list_kind, "version": "v1"}],
    })
}

fn object_meta() -> Value {
    json!({"default": {}, "description": "Standard object's metadata.", "allOf": [{"$ref": format!("{V3_PREFIX}{OBJECT_META}")}]})
}

/// `/openapi/v3/api/v1`: `Namespace`.
#[must_use]
pub fn core_v1() -> Value {
    let names = Names {
        group: String::new(),
        version: "v1".to_owned(),
        kind: "Namespace".to_owned(),
        list_kind: "NamespaceList".to_owned(),
        plural: "namespaces".to_owned(),
        namespaced: false,
        definition_prefix: Some("io.k8s.api.core.v1"),
    };
    let kind = json!({
        "description": "Namespace provides a scope for Names. Use of multiple namespaces is optional.",
        "type": "object",
        "properties": {
            "apiVersion": {"type": "string", "description": "APIVersion defines the versioned schema of this representation of an object."},
            "kind": {"type": "string", "description": "Kind is a string value representing the REST resource this object represents."},
            "metadata": object_meta(),
            "spec": {
                "description": "Spec defines the behavior of the Namespace.",
                "type": "object",
                "properties": {"finalizers": {"type": "array", "description": "Finalizers is an opaque list of values that must be empty to permanently remove object from storage.", "items": {"type": "string", "default": ""}, "x-kubernetes-list-type": "atomic"}},
            },
            "status": {
                "description": "Status describes the current status of a Namespace.",
                "type": "object",
                "properties": {
                    "conditions": {"type": "array", "description": "Represents the latest available observations of a namespace's current state.", "items": {"type": "object"}},
                    "phase": {"type": "string", "description": "Phase is the current lifecycle phase of the namespace: Active or Terminating.", "enum": ["Active", "Terminating"]},
                },
            },
        },
        "x-kubernetes-group-version-kind": [{"group": "", "kind": "Namespace", "version": "v1"}],
    });
    let list = list(&names, "");
    build(names, kind, list)
}

/// `/openapi/v3/apis/apiextensions.k8s.io/v1`: `CustomResourceDefinition`.
#[must_use]
pub fn apiextensions_v1() -> Value {
    let names = Names {
        group: "apiextensions.k8s.io".to_owned(),
        version: "v1".to_owned(),
        kind: "CustomResourceDefinition".to_owned(),
        list_kind: "CustomResourceDefinitionList".to_owned(),
        plural: "customresourcedefinitions".to_owned(),
        namespaced: false,
        definition_prefix: Some("io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1"),
    };
    let string = |d: &str| json!({"type": "string", "description": d});
    let strings = |d: &str| json!({"type": "array", "description": d, "items": {"type": "string", "default": ""}, "x-kubernetes-list-type": "atomic"});
    let names_schema = json!({
        "description": "The resource and kind names of the custom resource.",
        "type": "object",
        "required": ["plural", "kind"],
        "properties": {
            "categories": strings("categories is a list of grouped resources this custom resource belongs to (e.g. 'all')."),
            "kind": string("kind is the serialized kind of the resource, normally CamelCase and singular."),
            "listKind": string("listKind is the serialized kind of the list for this resource. Defaults to \"`kind`List\"."),
            "plural": string("plural is the plural name of the resource to serve, all lowercase."),
            "shortNames": strings("shortNames are short names for the resource, exposed in API discovery documents."),
            "singular": string("singular is the singular name of the resource, all lowercase. Defaults to the lowercased `kind`."),
        },
    });
    let kind = json!({
        "description": "CustomResourceDefinition represents a resource that should be exposed on the API server. Its name MUST be in the format <.spec.name>.<.spec.group>.",
        "type": "object",
        "required": ["spec"],
        "properties": {
            "apiVersion": {"type": "string", "description": "APIVersion defines the versioned schema of this representation of an object."},
            "kind": {"type": "string", "description": "Kind is a string value representing the REST resource this object represents."},
            "metadata": object_meta(),
            "spec": {
                "description": "spec describes how the user wants the resources to appear.",
                "type": "object",
                "required": ["group", "names", "scope", "versions"],
                "properties": {
                    "conversion": {"type": "object", "description": "conversion defines conversion settings for the CRD.", "x-kubernetes-preserve-unknown-fields": true},
                    "group": string("group is the API group of the defined custom resource."),
                    "names": names_schema,
                    "preserveUnknownFields": {"type": "boolean", "description": "Deprecated: keep unknown fields with x-kubernetes-preserve-unknown-fields in the schema instead."},
                    "scope": string("scope indicates whether the defined custom resource is cluster- or namespace-scoped: Cluster or Namespaced."),
                    "versions": {
                        "type": "array",
                        "description": "versions is the list of all API versions of the defined custom resource.",
                        "x-kubernetes-list-type": "atomic",
                        "items": {
                            "type": "object",
                            "required": ["name", "served", "storage"],
                            "properties": {
                                "additionalPrinterColumns": {"type": "array", "description": "additionalPrinterColumns specifies additional columns returned in Table output.", "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}, "x-kubernetes-list-type": "atomic"},
                                "deprecated": {"type": "boolean", "description": "deprecated indicates this version of the custom resource API is deprecated."},
                                "deprecationWarning": string("deprecationWarning overrides the default warning returned to API clients."),
                                "name": string("name is the version name, e.g. \"v1\", \"v2beta1\"."),
                                "schema": {"type": "object", "description": "schema describes the schema used for validation, pruning, and defaulting of this version of the custom resource.", "x-kubernetes-preserve-unknown-fields": true},
                                "selectableFields": {"type": "array", "description": "selectableFields specifies paths to fields that may be used as field selectors.", "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}, "x-kubernetes-list-type": "atomic"},
                                "served": {"type": "boolean", "description": "served is a flag enabling/disabling this version from being served via REST APIs."},
                                "storage": {"type": "boolean", "description": "storage indicates this version should be used when persisting custom resources to storage."},
                                "subresources": {"type": "object", "description": "subresources specify what subresources this version of the defined custom resource have.", "x-kubernetes-preserve-unknown-fields": true},
                            },
                        },
                    },
                },
            },
            "status": {
                "description": "status indicates the actual state of the CustomResourceDefinition.",
                "type": "object",
                "properties": {
                    "acceptedNames": names_schema,
                    "conditions": {"type": "array", "description": "conditions indicate state for particular aspects of a CustomResourceDefinition.", "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}, "x-kubernetes-list-map-keys": ["type"], "x-kubernetes-list-type": "map"},
                    "storedVersions": strings("storedVersions lists all versions of CustomResources that were ever persisted."),
                },
            },
        },
        "x-kubernetes-group-version-kind": [{"group": "apiextensions.k8s.io", "kind": "CustomResourceDefinition", "version": "v1"}],
    });
    let list = list(&names, "apiextensions.k8s.io");
    build(names, kind, list)
}

/// A built-in resource whose paths [`builtin_paths`] builds.
#[derive(Clone, Copy, Debug)]
pub struct BuiltinResource<'a> {
    /// `apps`; empty for the core group.
    pub group: &'a str,
    /// `v1`.
    pub version: &'a str,
    /// `Deployment`.
    pub kind: &'a str,
    /// `deployments`.
    pub plural: &'a str,
    /// Whether objects live in namespaces.
    pub namespaced: bool,
    /// Whether it has `/status`.
    pub status: bool,
    /// Whether it has `/scale`.
    pub scale: bool,
    /// The definition-name prefix of its kind (`io.k8s.api.apps.v1`).
    pub definition_prefix: &'static str,
}

/// The `paths` of a built-in resource in its group-version's v3 document, from the same route
/// builder as CRDs (apiserver `pkg/endpoints/installer.go` registers the same verbs), with
/// `application/strategic-merge-patch+json` among the patch types; its schemas are the
/// published ones the caller adds.
#[must_use]
pub fn builtin_paths(r: &BuiltinResource<'_>) -> Value {
    let names = Names {
        group: r.group.to_owned(),
        version: r.version.to_owned(),
        kind: r.kind.to_owned(),
        list_kind: format!("{}List", r.kind),
        plural: r.plural.to_owned(),
        namespaced: r.namespaced,
        definition_prefix: Some(r.definition_prefix),
    };
    let mut subresources = serde_json::Map::new();
    if r.status {
        subresources.insert("status".to_owned(), json!({}));
    }
    if r.scale {
        subresources.insert(
            "scale".to_owned(),
            json!({"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}),
        );
    }
    let v: CustomResourceDefinitionVersion = serde_json::from_value(json!({
        "name": r.version, "served": true, "storage": true, "subresources": subresources}))
    .unwrap_or_default();
    let mut doc = v3doc::build(&Builder::builtin(names, &v, json!({}), json!({})));
    let mut paths = doc.get_mut("paths").map(Value::take).unwrap_or_default();
    // Built-in kinds take strategic merge patches too (installer.go lists the type for every
    // resource whose kind is a Go struct; custom resources are refused it).
    if let Value::Object(paths) = &mut paths {
        for op in paths.values_mut().filter_map(|p| p.get_mut("patch")) {
            if let Some(Value::Object(content)) = op.pointer_mut("/requestBody/content")
                && let Some(merge) = content.get("application/merge-patch+json").cloned()
            {
                content.insert("application/strategic-merge-patch+json".to_owned(), merge);
            }
        }
    }
    paths
}
