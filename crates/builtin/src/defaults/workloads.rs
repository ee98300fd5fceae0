//! Workloads: Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs, CronJobs and
//! ReplicationControllers, each with its pod template.
//!
//! Mirrors kubernetes `pkg/apis/apps/v1/defaults.go` (`SetDefaults_Deployment`,
//! `_DaemonSet`, `_StatefulSet`, `_ReplicaSet`), `pkg/apis/batch/v1/defaults.go` (`SetDefaults_Job`,
//! `_CronJob`) and `SetDefaults_ReplicationController` of `pkg/apis/core/v1/defaults.go`, with
//! the generated walks into templates. Feature gates as Kubernetes 1.35 ships them:
//! `StatefulSetAutoDeletePVC` and `JobPodReplacementPolicy` are GA, so their defaults always apply.

use serde_json::Value;

use super::json::{
    Obj, default_ptr, default_str, ensure_obj, is_empty, is_nil, items_mut, obj_mut, str_of,
};
use super::{pod, storage};

fn template(spec: &mut Obj) {
    if let Some(t) = obj_mut(spec, "template") {
        pod::template(t);
    }
}

/// `SetDefaults_Deployment`: one replica, a 25%/25% rolling update, 10 old ReplicaSets kept,
/// a 600 s progress deadline.
pub(crate) fn deployment(obj: &mut Obj) {
    let Some(spec) = ensure_obj(obj, "spec") else {
        return;
    };
    default_ptr(spec, "replicas", 1);
    if let Some(strategy) = ensure_obj(spec, "strategy") {
        default_str(strategy, "type", "RollingUpdate");
        if str_of(strategy, "type") == "RollingUpdate"
            && let Some(ru) = ensure_obj(strategy, "rollingUpdate")
        {
            default_ptr(ru, "maxUnavailable", "25%");
            default_ptr(ru, "maxSurge", "25%");
        }
    }
    default_ptr(spec, "revisionHistoryLimit", 10);
    default_ptr(spec, "progressDeadlineSeconds", 600);
    template(spec);
}

/// `SetDefaults_DaemonSet`: a rolling update of one unavailable Pod, no surge; 10 revisions.
pub(crate) fn daemon_set(obj: &mut Obj) {
    let Some(spec) = ensure_obj(obj, "spec") else {
        return;
    };
    if let Some(strategy) = ensure_obj(spec, "updateStrategy") {
        default_str(strategy, "type", "RollingUpdate");
        if str_of(strategy, "type") == "RollingUpdate"
            && let Some(ru) = ensure_obj(strategy, "rollingUpdate")
        {
            default_ptr(ru, "maxUnavailable", 1);
            default_ptr(ru, "maxSurge", 0);
        }
    }
    default_ptr(spec, "revisionHistoryLimit", 10);
    template(spec);
}

/// `SetDefaults_StatefulSet`: `OrderedReady`, a rolling update from partition 0, PVCs retained,
/// one replica, 10 revisions; claim templates get the claims' defaults.
pub(crate) fn stateful_set(obj: &mut Obj) {
    let Some(spec) = ensure_obj(obj, "spec") else {
        return;
    };
    default_str(spec, "podManagementPolicy", "OrderedReady");
    if let Some(strategy) = ensure_obj(spec, "updateStrategy") {
        if super::json::str_empty(strategy, "type") {
            strategy.insert("type".to_owned(), Value::from("RollingUpdate"));
            default_ptr(strategy, "rollingUpdate", Obj::new());
        }
        if str_of(strategy, "type") == "RollingUpdate"
            && let Some(ru) = obj_mut(strategy, "rollingUpdate")
        {
            default_ptr(ru, "partition", 0);
        }
    }
    if let Some(policy) = ensure_obj(spec, "persistentVolumeClaimRetentionPolicy") {
        default_str(policy, "whenDeleted", "Retain");
        default_str(policy, "whenScaled", "Retain");
    }
    default_ptr(spec, "replicas", 1);
    default_ptr(spec, "revisionHistoryLimit", 10);
    template(spec);
    for claim in items_mut(spec, "volumeClaimTemplates") {
        storage::claim(claim);
    }
}

/// `SetDefaults_ReplicaSet`: one replica.
pub(crate) fn replica_set(obj: &mut Obj) {
    let Some(spec) = ensure_obj(obj, "spec") else {
        return;
    };
    default_ptr(spec, "replicas", 1);
    template(spec);
}

/// `SetDefaults_ReplicationController`: the selector and the labels come from the template's
/// labels when unset; one replica.
pub(crate) fn replication_controller(obj: &mut Obj) {
    let labels = obj
        .get("spec")
        .and_then(|s| s.get("template"))
        .and_then(|t| t.get("metadata"))
        .and_then(|m| m.get("labels"))
        .filter(|l| l.is_object())
        .cloned();
    if let Some(labels) = labels {
        if let Some(spec) = obj_mut(obj, "spec")
            && is_empty(spec, "selector")
        {
            spec.insert("selector".to_owned(), labels.clone());
        }
        if let Some(meta) = ensure_obj(obj, "metadata")
            && is_empty(meta, "labels")
        {
            meta.insert("labels".to_owned(), labels);
        }
    }
    if let Some(spec) = ensure_obj(obj, "spec") {
        default_ptr(spec, "replicas", 1);
        template(spec);
    }
}

/// `SetDefaults_Job`: one completion and one Pod at a time when neither is set, 6 retries
/// (2147483647 with a per-index limit), `NonIndexed`, not suspended, the template's labels on
/// the Job, pod-failure-policy patterns matching `True`, and the Pod replacement policy.
pub(crate) fn job(obj: &mut Obj) {
    let labels = obj
        .get("spec")
        .and_then(|s| s.get("template"))
        .and_then(|t| t.get("metadata"))
        .and_then(|m| m.get("labels"))
        .filter(|l| l.is_object())
        .cloned();
    let Some(spec) = ensure_obj(obj, "spec") else {
        return;
    };
    if is_nil(spec, "completions") && is_nil(spec, "parallelism") {
        spec.insert("completions".to_owned(), Value::from(1));
        spec.insert("parallelism".to_owned(), Value::from(1));
    }
    default_ptr(spec, "parallelism", 1);
    if is_nil(spec, "backoffLimit") {
        let limit = if is_nil(spec, "backoffLimitPerIndex") {
            6
        } else {
            i64::from(i32::MAX)
        };
        spec.insert("backoffLimit".to_owned(), Value::from(limit));
    }
    default_ptr(spec, "completionMode", "NonIndexed");
    default_ptr(spec, "suspend", false);
    let has_failure_policy = !is_nil(spec, "podFailurePolicy");
    if let Some(policy) = obj_mut(spec, "podFailurePolicy") {
        for rule in items_mut(policy, "rules") {
            for pattern in items_mut(rule, "onPodConditions") {
                default_str(pattern, "status", "True");
            }
        }
    }
    let replacement = if has_failure_policy {
        "Failed"
    } else {
        "TerminatingOrFailed"
    };
    default_ptr(spec, "podReplacementPolicy", replacement);
    template(spec);
    if let Some(labels) = labels
        && let Some(meta) = ensure_obj(obj, "metadata")
        && is_empty(meta, "labels")
    {
        meta.insert("labels".to_owned(), labels);
    }
}

/// `SetDefaults_CronJob`: concurrent runs allowed, not suspended, 3 successful and 1 failed Jobs
/// kept; the Job template's pod template gets the pod defaults (not the Job's own).
pub(crate) fn cron_job(obj: &mut Obj) {
    let Some(spec) = ensure_obj(obj, "spec") else {
        return;
    };
    default_str(spec, "concurrencyPolicy", "Allow");
    default_ptr(spec, "suspend", false);
    default_ptr(spec, "successfulJobsHistoryLimit", 3);
    default_ptr(spec, "failedJobsHistoryLimit", 1);
    if let Some(job_spec) = obj_mut(spec, "jobTemplate").and_then(|t| obj_mut(t, "spec")) {
        template(job_spec);
    }
}

/// A `PodTemplate` object: its template.
pub(crate) fn pod_template(obj: &mut Obj) {
    if let Some(t) = obj_mut(obj, "template") {
        pod::template(t);
    }
}
