//! Field selectors (`?fieldSelector=spec.nodeName=node-1`): which field labels each kind
//! accepts, with the API server's error for the others, and the values an object has for them.
//!
//! Mirrors kubernetes `pkg/apis/*/v1/conversion.go` (each kind's `AddFieldLabelConversionFunc`:
//! the labels a list or watch accepts and the error text for the others, which the handler turns
//! into a 400 `BadRequest`), apimachinery `runtime.DefaultMetaV1FieldSelectorConversion` (kinds
//! without one: `metadata.name` and `metadata.namespace` only) and each kind's
//! `pkg/registry/**/strategy.go` (`GetAttrs`, `ToSelectableFields`: the values matched, read
//! from the object as its Go type decodes it, so a missing field is `""`, a missing boolean
//! `false`, a missing count `0`).
//!
//! `events.k8s.io` Events share the core Events' storage, and their labels name the core fields
//! (`involvedObject.name`, read from `regarding`).
//!
//! ```
//! use crdkit_builtin::fields;
//! use serde_json::json;
//!
//! assert_eq!(fields::convert_label("", "v1", "Pod", "spec.host"), Ok("spec.nodeName".to_owned()));
//! assert_eq!(
//!     fields::convert_label("", "v1", "Pod", "spec.foo"),
//!     Err("field label not supported: spec.foo".to_owned())
//! );
//! assert_eq!(
//!     fields::convert_label("apps", "v1", "Deployment", "status.replicas"),
//!     Err("\"status.replicas\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"".to_owned())
//! );
//! let pod = json!({"metadata": {"name": "p", "namespace": "default"}, "spec": {"nodeName": "n1"}});
//! let set = fields::selectable_fields("", "Pod", &pod);
//! assert_eq!(set["spec.nodeName"], "n1");
//! assert_eq!(set["spec.hostNetwork"], "false");
//! ```

use std::collections::BTreeMap;

use serde_json::Value;

use crate::resources;
use crdkit_apimachinery::gofmt::quote as go_quote;

/// How a kind's conversion function words a label it does not support.
#[derive(Clone, Copy)]
enum Refusal {
    /// `field label not supported: <label>` (core kinds, certificates).
    NotSupported,
    /// `field label "<label>" not supported for <type>` (batch).
    QuotedFor(&'static str),
    /// `field label not supported for <gvk>: <label>` (resource.k8s.io).
    ForKind(&'static str),
}

/// A kind's registered field label conversion.
struct Conversion {
    group: &'static str,
    version: &'static str,
    kind: &'static str,
    labels: &'static [&'static str],
    /// `(old, new)`: labels rewritten (`spec.host`, for old v1 clients).
    renames: &'static [(&'static str, &'static str)],
    refusal: Refusal,
}

const EVENT_LABELS: &[&str] = &[
    "involvedObject.kind",
    "involvedObject.namespace",
    "involvedObject.name",
    "involvedObject.uid",
    "involvedObject.apiVersion",
    "involvedObject.resourceVersion",
    "involvedObject.fieldPath",
    "reason",
    "reportingComponent",
    "source",
    "type",
    "metadata.namespace",
    "metadata.name",
];

const fn conv(
    group: &'static str,
    version: &'static str,
    kind: &'static str,
    labels: &'static [&'static str],
    refusal: Refusal,
) -> Conversion {
    Conversion {
        group,
        version,
        kind,
        labels,
        renames: &[],
        refusal,
    }
}

/// Every kind with a conversion of its own; the others take apimachinery's default.
const CONVERSIONS: &[Conversion] = &[
    Conversion {
        renames: &[("spec.host", "spec.nodeName")],
        ..conv(
            "",
            "v1",
            "Pod",
            &[
                "metadata.name",
                "metadata.namespace",
                "spec.nodeName",
                "spec.restartPolicy",
                "spec.schedulerName",
                "spec.serviceAccountName",
                "spec.hostNetwork",
                "status.phase",
                "status.podIP",
                "status.podIPs",
                "status.nominatedNodeName",
            ],
            Refusal::NotSupported,
        )
    },
    conv(
        "",
        "v1",
        "Node",
        &["metadata.name", "spec.unschedulable"],
        Refusal::NotSupported,
    ),
    conv(
        "",
        "v1",
        "ReplicationController",
        &["metadata.name", "metadata.namespace", "status.replicas"],
        Refusal::NotSupported,
    ),
    conv("", "v1", "Event", EVENT_LABELS, Refusal::NotSupported),
    conv(
        "events.k8s.io",
        "v1",
        "Event",
        EVENT_LABELS,
        Refusal::NotSupported,
    ),
    conv(
        "",
        "v1",
        "Namespace",
        &["status.phase", "metadata.name"],
        Refusal::NotSupported,
    ),
    conv(
        "",
        "v1",
        "Secret",
        &["type", "metadata.namespace", "metadata.name"],
        Refusal::NotSupported,
    ),
    conv(
        "",
        "v1",
        "Service",
        &[
            "metadata.namespace",
            "metadata.name",
            "spec.clusterIP",
            "spec.type",
        ],
        Refusal::NotSupported,
    ),
    conv(
        "batch",
        "v1",
        "Job",
        &["metadata.name", "metadata.namespace", "status.successful"],
        Refusal::QuotedFor("batchv1.Job"),
    ),
    conv(
        "certificates.k8s.io",
        "v1",
        "CertificateSigningRequest",
        &["metadata.name", "spec.signerName"],
        Refusal::NotSupported,
    ),
    conv(
        "resource.k8s.io",
        "v1",
        "ResourceSlice",
        &["metadata.name", "spec.nodeName", "spec.driver"],
        Refusal::ForKind("resource.k8s.io/v1, Kind=ResourceSlice"),
    ),
];

fn conversion(group: &str, version: &str, kind: &str) -> Option<&'static Conversion> {
    CONVERSIONS
        .iter()
        .find(|c| c.group == group && c.version == version && c.kind == kind)
}

/// The label a list of `group`/`version` `kind` selects on for `label` (the same, or its new
/// name), or the API server's error text for a label it does not support (a 400 `BadRequest`
/// with this message).
///
/// # Errors
/// The label is not supported.
pub fn convert_label(
    group: &str,
    version: &str,
    kind: &str,
    label: &str,
) -> Result<String, String> {
    let Some(c) = conversion(group, version, kind) else {
        // `runtime.DefaultMetaV1FieldSelectorConversion`.
        return match label {
            "metadata.name" | "metadata.namespace" => Ok(label.to_owned()),
            _ => Err(format!(
                "{} is not a known field selector: only \"metadata.name\", \"metadata.namespace\"",
                go_quote(label)
            )),
        };
    };
    if let Some((_, new)) = c.renames.iter().find(|(old, _)| *old == label) {
        return Ok((*new).to_owned());
    }
    if c.labels.contains(&label) {
        return Ok(label.to_owned());
    }
    Err(match c.refusal {
        Refusal::NotSupported => format!("field label not supported: {label}"),
        Refusal::QuotedFor(what) => {
            format!("field label {} not supported for {what}", go_quote(label))
        }
        Refusal::ForKind(gvk) => format!("field label not supported for {gvk}: {label}"),
    })
}

fn s(v: &Value, path: &[&str]) -> String {
    path.iter()
        .fold(v, |v, k| v.get(k).unwrap_or(&Value::Null))
        .as_str()
        .unwrap_or("")
        .to_owned()
}

fn at<'a>(v: &'a Value, path: &[&str]) -> &'a Value {
    path.iter().fold(v, |v, k| v.get(k).unwrap_or(&Value::Null))
}

fn boolean(v: &Value, path: &[&str]) -> String {
    at(v, path).as_bool().unwrap_or(false).to_string()
}

fn int(v: &Value, path: &[&str]) -> String {
    at(v, path).as_i64().unwrap_or(0).to_string()
}

/// The field set of an object of `group` `kind` (`GetAttrs`): the values its field selectors
/// match, `metadata.name` always and `metadata.namespace` for namespaced kinds.
#[must_use]
pub fn selectable_fields(group: &str, kind: &str, obj: &Value) -> BTreeMap<String, String> {
    let mut set = BTreeMap::new();
    let mut put = |k: &str, v: String| {
        set.insert(k.to_owned(), v);
    };
    put("metadata.name", s(obj, &["metadata", "name"]));
    let namespaced = resources::all()
        .iter()
        .find(|r| r.group == group && r.kind == kind)
        .is_none_or(|r| r.namespaced);
    if namespaced {
        put("metadata.namespace", s(obj, &["metadata", "namespace"]));
    }
    match (group, kind) {
        ("", "Pod") => {
            put("spec.nodeName", s(obj, &["spec", "nodeName"]));
            put("spec.restartPolicy", s(obj, &["spec", "restartPolicy"]));
            put("spec.schedulerName", s(obj, &["spec", "schedulerName"]));
            put(
                "spec.serviceAccountName",
                s(obj, &["spec", "serviceAccountName"]),
            );
            put("spec.hostNetwork", boolean(obj, &["spec", "hostNetwork"]));
            put("status.phase", s(obj, &["status", "phase"]));
            // v1's `podIP` stands for `podIPs[0]` (the conversion to the internal type).
            let ip = match s(obj, &["status", "podIP"]) {
                ip if !ip.is_empty() => ip,
                _ => at(obj, &["status", "podIPs"])
                    .get(0)
                    .map(|p| s(p, &["ip"]))
                    .unwrap_or_default(),
            };
            put("status.podIP", ip);
            put(
                "status.nominatedNodeName",
                s(obj, &["status", "nominatedNodeName"]),
            );
        }
        ("", "Node") => put(
            "spec.unschedulable",
            boolean(obj, &["spec", "unschedulable"]),
        ),
        ("", "ReplicationController") => put("status.replicas", int(obj, &["status", "replicas"])),
        ("", "Namespace") => put("status.phase", s(obj, &["status", "phase"])),
        ("", "Secret") => put("type", s(obj, &["type"])),
        ("", "Service") => {
            put("spec.clusterIP", s(obj, &["spec", "clusterIP"]));
            put("spec.type", s(obj, &["spec", "type"]));
        }
        ("" | "events.k8s.io", "Event") => {
            let (involved, source) = if group.is_empty() {
                ("involvedObject", "source")
            } else {
                ("regarding", "deprecatedSource")
            };
            for f in [
                "kind",
                "namespace",
                "name",
                "uid",
                "apiVersion",
                "resourceVersion",
                "fieldPath",
            ] {
                put(&format!("involvedObject.{f}"), s(obj, &[involved, f]));
            }
            put("reason", s(obj, &["reason"]));
            let controller = s(obj, &["reportingController"]);
            let component = s(obj, &[source, "component"]);
            put(
                "source",
                if component.is_empty() {
                    controller.clone()
                } else {
                    component
                },
            );
            put("reportingComponent", controller);
            put("type", s(obj, &["type"]));
        }
        ("batch", "Job") => put("status.successful", int(obj, &["status", "succeeded"])),
        ("certificates.k8s.io", "CertificateSigningRequest") => {
            put("spec.signerName", s(obj, &["spec", "signerName"]));
        }
        ("resource.k8s.io", "ResourceSlice") => {
            put("spec.nodeName", s(obj, &["spec", "nodeName"]));
            put("spec.driver", s(obj, &["spec", "driver"]));
        }
        _ => {}
    }
    set
}
