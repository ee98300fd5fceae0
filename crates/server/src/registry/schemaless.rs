//! Built-in kinds controllers use besides their own: `coordination.k8s.io/v1` Leases (leader
//! election), `events.k8s.io/v1` Events (kube-rs's event recorder) and core `v1` ConfigMaps (the
//! child object operators most often own), served like custom resources.
//!
//! What differs from kube-apiserver: Leases and Events are not validated beyond `metadata` (the
//! real server has typed validation for them) and keep every field; ConfigMaps have the shape of
//! `k8s.io/api/core/v1` (`data`, `binaryData`, `immutable`; other fields pruned) without the
//! key and size checks of `ValidateConfigMap`. Objects live at the real server's keys
//! (`/registry/leases/…`, `/registry/events/…`, `/registry/configmaps/…`).

use serde_json::json;

use crate::engine::CustomResourceDefinition;

/// A schemaless built-in kind.
pub struct Schemaless {
    /// The CRD it is served as.
    pub crd: CustomResourceDefinition,
    /// Its storage prefix.
    pub prefix: &'static str,
}

/// The built-in kinds served this way.
#[must_use]
pub fn kinds() -> Vec<Schemaless> {
    let any = json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true});
    let crd = |group: &str,
               plural: &str,
               kind: &str,
               short: &[&str],
               columns: serde_json::Value,
               schema: &serde_json::Value| {
        serde_json::from_value::<CustomResourceDefinition>(json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": if group.is_empty() { plural.to_owned() } else { format!("{plural}.{group}") }},
            "spec": {"group": group, "scope": "Namespaced",
                "names": {"plural": plural, "singular": kind.to_lowercase(), "kind": kind,
                    "listKind": format!("{kind}List"), "shortNames": short},
                "versions": [{"name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": schema},
                    "additionalPrinterColumns": columns}]},
            "status": {"conditions": [{"type": "Established", "status": "True"}, {"type": "NamesAccepted", "status": "True"}],
                "storedVersions": ["v1"]}
        }))
        .unwrap_or_default()
    };
    vec![
        Schemaless {
            crd: crd(
                "coordination.k8s.io",
                "leases",
                "Lease",
                &[],
                json!([
                    {"name": "Holder", "type": "string", "jsonPath": ".spec.holderIdentity"},
                    {"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"}
                ]),
                &any,
            ),
            prefix: "/registry/leases/",
        },
        Schemaless {
            crd: crd("events.k8s.io", "events", "Event", &["ev"], json!([]), &any),
            prefix: "/registry/events/",
        },
        Schemaless {
            crd: crd(
                "",
                "configmaps",
                "ConfigMap",
                &["cm"],
                json!([]),
                &json!({"type": "object", "properties": {
                    "data": {"type": "object", "additionalProperties": {"type": "string"}},
                    "binaryData": {"type": "object", "additionalProperties": {"type": "string", "format": "byte"}},
                    "immutable": {"type": "boolean"}}}),
            ),
            prefix: "/registry/configmaps/",
        },
    ]
}
