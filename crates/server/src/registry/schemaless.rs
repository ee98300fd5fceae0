//! Built-in kinds controllers use besides their own: `coordination.k8s.io/v1` Leases (leader
//! election) and `events.k8s.io/v1` Events (kube-rs's event recorder), served like custom
//! resources with a schema that keeps every field.
//!
//! What differs from kube-apiserver: these kinds are not validated beyond `metadata` (the real
//! server has typed validation for them), and their OpenAPI documents describe them as objects
//! with any fields. Their objects live at the real server's keys (`/registry/leases/…`,
//! `/registry/events/…`).

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
    let crd = |group: &str,
               plural: &str,
               kind: &str,
               short: &[&str],
               columns: serde_json::Value| {
        serde_json::from_value::<CustomResourceDefinition>(json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": format!("{plural}.{group}")},
            "spec": {"group": group, "scope": "Namespaced",
                "names": {"plural": plural, "singular": kind.to_lowercase(), "kind": kind,
                    "listKind": format!("{kind}List"), "shortNames": short},
                "versions": [{"name": "v1", "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}},
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
            ),
            prefix: "/registry/leases/",
        },
        Schemaless {
            crd: crd("events.k8s.io", "events", "Event", &["ev"], json!([])),
            prefix: "/registry/events/",
        },
    ]
}
