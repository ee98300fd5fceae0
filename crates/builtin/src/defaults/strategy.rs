//! The registry strategies' `PrepareForCreate` and `PrepareForUpdate`: what the API server
//! changes in an object it accepts, beyond defaulting.
//!
//! Mirrors kubernetes `pkg/registry/*/*/strategy.go`: status is reset on create and kept from
//! the stored object on update, `metadata.generation` starts at 1 and grows with each spec
//! change (Deployments: also with annotations), Pods start `Pending` with their QoS class,
//! DaemonSets count template generations in the `deprecated.daemonset.template.generation`
//! annotation, Jobs get their generated selector (`generateSelector`, which Go runs in
//! `Validate`, once the UID is set), Namespaces the `kubernetes` finalizer. A Secret's
//! `stringData` is merged into `data` here; Go does it while converting v1 to the internal type,
//! so it also precedes validation there.
//!
//! The reset status is written as the typed round trip writes an empty one: a StatefulSet's
//! `{"availableReplicas": 0, "replicas": 0}`, a Service's `{"loadBalancer": {}}`.

use serde_json::{Value, json};

use super::json::{Obj, ensure_obj, is_nil, obj_mut, str_of};
use super::qos;

/// What the strategy of a kind does, decided once per request.
struct Strategy {
    /// The status an object gets on create (`None`: the kind has no status subresource).
    status: Option<Value>,
    /// Whether `metadata.generation` is kept.
    generation: bool,
}

fn strategy(group: &str, kind: &str) -> Strategy {
    let s = |status: Value, generation| Strategy {
        status: Some(status),
        generation,
    };
    match (group, kind) {
        ("apps", "Deployment") | ("batch", "Job" | "CronJob") => s(json!({}), true),
        ("apps", "StatefulSet") => s(json!({"availableReplicas": 0, "replicas": 0}), true),
        ("apps", "ReplicaSet") | ("", "ReplicationController") => s(json!({"replicas": 0}), true),
        ("apps", "DaemonSet") => s(
            json!({"currentNumberScheduled": 0, "desiredNumberScheduled": 0,
                   "numberMisscheduled": 0, "numberReady": 0}),
            true,
        ),
        ("policy", "PodDisruptionBudget") => s(
            json!({"currentHealthy": 0, "desiredHealthy": 0, "disruptionsAllowed": 0,
                   "expectedPods": 0}),
            true,
        ),
        ("networking.k8s.io", "Ingress") => s(json!({"loadBalancer": {}}), true),
        ("networking.k8s.io", "NetworkPolicy") => Strategy {
            status: None,
            generation: true,
        },
        // The Pod's status is computed below.
        ("", "Pod") => s(json!({}), true),
        ("", "Service") => s(json!({"loadBalancer": {}}), false),
        // Defaulting gives these their phase back, as decoding the stored object does.
        ("", "PersistentVolumeClaim" | "PersistentVolume" | "Namespace") => s(json!({}), false),
        ("autoscaling", "HorizontalPodAutoscaler") => s(json!({}), false),
        _ => Strategy {
            status: None,
            generation: false,
        },
    }
}

/// Whether the kind's strategy keeps `metadata.generation`.
pub(crate) fn uses_generation(group: &str, kind: &str) -> bool {
    strategy(group, kind).generation
}

/// `PrepareForCreate`.
pub(crate) fn prepare_for_create(group: &str, version: &str, kind: &str, obj: &mut Value) {
    let Some(o) = obj.as_object_mut() else {
        return;
    };
    let st = strategy(group, kind);
    if let Some(status) = st.status {
        let status = match (group, version, kind) {
            ("", _, "Pod") => json!({"phase": "Pending", "qosClass": qos::pod_qos(o)}),
            ("autoscaling", "v1", _) => json!({"currentReplicas": 0, "desiredReplicas": 0}),
            ("autoscaling", _, _) => json!({"desiredReplicas": 0}),
            _ => status,
        };
        o.insert("status".to_owned(), status);
    }
    if st.generation
        && let Some(meta) = ensure_obj(o, "metadata")
    {
        meta.insert("generation".to_owned(), Value::from(1));
    }
    match (group, kind) {
        ("", "Secret") => merge_string_data(o),
        ("", "Namespace") => namespace_finalizer(o),
        ("apps", "DaemonSet") => set_template_generation(o, 1),
        ("batch", "Job") => generate_job_selector(o),
        _ => {}
    }
}

/// `PrepareForUpdate`: `new` keeps `old`'s status; its generation follows the spec.
pub(crate) fn prepare_for_update(group: &str, kind: &str, new: &mut Value, old: &Value) {
    let (Some(n), Some(o)) = (new.as_object_mut(), old.as_object()) else {
        return;
    };
    let st = strategy(group, kind);
    if st.status.is_some() {
        match o.get("status") {
            Some(s) => n.insert("status".to_owned(), s.clone()),
            None => n.remove("status"),
        };
    }
    if kind == "Secret" && group.is_empty() {
        merge_string_data(n);
    }
    if group.is_empty() && kind == "Service" {
        super::alloc::drop_type_dependent_fields(n, o);
    }
    let old_generation = o
        .get("metadata")
        .and_then(|m| m.get("generation"))
        .and_then(Value::as_i64)
        .unwrap_or(0);
    let mut bump = n.get("spec") != o.get("spec");
    if group == "apps" && kind == "Deployment" {
        let annotations = |m: &Obj| {
            m.get("metadata")
                .and_then(|m| m.get("annotations"))
                .filter(|a| a.as_object().is_some_and(|a| !a.is_empty()))
                .cloned()
        };
        bump |= annotations(n) != annotations(o);
    }
    if group == "apps" && kind == "DaemonSet" {
        let old_tg = template_generation(o);
        let template = |m: &Obj| m.get("spec").and_then(|s| s.get("template")).cloned();
        let tg = if template(n) == template(o) {
            old_tg
        } else {
            old_tg + 1
        };
        set_template_generation(n, tg);
    }
    if st.generation
        && let Some(meta) = ensure_obj(n, "metadata")
    {
        let generation = if bump {
            old_generation + 1
        } else {
            old_generation
        };
        meta.insert("generation".to_owned(), Value::from(generation));
    }
}

/// What converting a request body to the internal version changes (Go: `pkg/apis/core/v1/
/// conversion.go` `Convert_v1_Secret_To_core_Secret`), before the field manager records an
/// update: a Secret's `stringData` is folded into `data`.
pub(crate) fn convert_request(group: &str, kind: &str, obj: &mut Value) {
    if group.is_empty()
        && kind == "Secret"
        && let Some(o) = obj.as_object_mut()
    {
        merge_string_data(o);
    }
}

/// v1 → internal conversion of a Secret: each `stringData` entry overwrites `data`, base64
/// encoded; `stringData` itself is not kept.
fn merge_string_data(o: &mut Obj) {
    let Some(Value::Object(strings)) = o.remove("stringData") else {
        return;
    };
    let Some(data) = ensure_obj(o, "data") else {
        return;
    };
    for (k, v) in strings {
        if let Value::String(s) = v {
            data.insert(
                k,
                Value::from(crdkit_apimachinery::gobase64::encode(s.as_bytes())),
            );
        }
    }
}

/// A new Namespace is finalized by `kubernetes`.
fn namespace_finalizer(o: &mut Obj) {
    let Some(spec) = ensure_obj(o, "spec") else {
        return;
    };
    let has = spec
        .get("finalizers")
        .and_then(Value::as_array)
        .is_some_and(|f| f.iter().any(|f| f == "kubernetes"));
    if !has {
        if is_nil(spec, "finalizers") {
            spec.insert("finalizers".to_owned(), json!([]));
        }
        if let Some(f) = spec.get_mut("finalizers").and_then(Value::as_array_mut) {
            f.push(Value::from("kubernetes"));
        }
    }
}

const TEMPLATE_GENERATION: &str = "deprecated.daemonset.template.generation";

fn template_generation(o: &Obj) -> i64 {
    o.get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get(TEMPLATE_GENERATION))
        .and_then(Value::as_str)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

fn set_template_generation(o: &mut Obj, g: i64) {
    if let Some(a) = ensure_obj(o, "metadata").and_then(|m| ensure_obj(m, "annotations")) {
        a.insert(TEMPLATE_GENERATION.to_owned(), Value::from(g.to_string()));
    }
}

/// `generateSelector` of `pkg/registry/batch/job/strategy.go`: unless `manualSelector` is set,
/// the template is labelled with the Job's name and UID (new and legacy keys) and the selector
/// matches the UID.
fn generate_job_selector(o: &mut Obj) {
    let meta = o.get("metadata").and_then(Value::as_object);
    let name = meta.map_or("", |m| str_of(m, "name")).to_owned();
    let uid = meta.map_or("", |m| str_of(m, "uid")).to_owned();
    let Some(spec) = obj_mut(o, "spec") else {
        return;
    };
    if spec.get("manualSelector") == Some(&Value::Bool(true)) {
        return;
    }
    if let Some(labels) = ensure_obj(spec, "template")
        .and_then(|t| ensure_obj(t, "metadata"))
        .and_then(|m| ensure_obj(m, "labels"))
    {
        for key in ["job-name", "batch.kubernetes.io/job-name"] {
            labels
                .entry(key)
                .or_insert_with(|| Value::from(name.clone()));
        }
        for key in ["controller-uid", "batch.kubernetes.io/controller-uid"] {
            labels
                .entry(key)
                .or_insert_with(|| Value::from(uid.clone()));
        }
    }
    if let Some(ml) = ensure_obj(spec, "selector").and_then(|s| ensure_obj(s, "matchLabels")) {
        ml.entry("batch.kubernetes.io/controller-uid")
            .or_insert_with(|| Value::from(uid));
    }
}
