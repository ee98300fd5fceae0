//! Deployments, ReplicaSets, StatefulSets, DaemonSets and ReplicationControllers.
//!
//! Mirrors kubernetes `pkg/apis/apps/validation/validation.go` (`ValidateDeploymentSpec`,
//! `ValidateReplicaSetSpec`, `ValidateDaemonSetSpec`/`Update`,
//! `ValidateDeploymentStrategy`, `ValidatePositiveIntOrPercent`, `IsNotMoreThan100Percent`),
//! the selector immutability the apps/v1 strategies add (`pkg/registry/apps/*/strategy.go`,
//! `ValidateUpdate`), and `ValidateReplicationControllerSpec` of the core validation.
//! StatefulSets are in `stateful_set.rs`.

use serde_json::Value;

use super::meta::{self, IMMUTABLE, NameRule};
use super::pod::{self, nonneg};
use super::read::{Obj, int_of, is_set, obj, obj_or_empty, opt_int, same, str_of};
use super::selector::{label_selector, selector_bad_value};
use super::stateful_set::{stateful_set_spec, stateful_set_spec_update};
use super::workload::{
    int_or_percent, int_or_percent_value, labels_bad, not_over_100, restart_always_no_deadline,
    selector_and_template, selector_matches,
};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};

/// `ValidateReplicaSetSpec` (and the selector and template part of `ValidateDeploymentSpec`).
pub(crate) fn replica_set_spec(spec: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    nonneg(spec, "replicas", p, errs);
    nonneg(spec, "minReadySeconds", p, errs);
    selector_and_template(spec, "ReplicaSet", p, errs);
}

/// `ValidateDeploymentSpec`.
pub(crate) fn deployment_spec(spec: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    nonneg(spec, "replicas", p, errs);
    selector_and_template(spec, "ReplicaSet", p, errs);
    let sp = p.child("strategy");
    let strategy = obj_or_empty(spec, "strategy");
    match str_of(strategy, "type") {
        "Recreate" => {
            if is_set(strategy, "rollingUpdate") {
                errs.push(FieldError::forbidden(
                    &sp.child("rollingUpdate"),
                    "may not be specified when strategy `type` is 'Recreate'",
                ));
            }
        }
        "RollingUpdate" => match obj(strategy, "rollingUpdate") {
            None => errs.push(FieldError::required(
                &sp.child("rollingUpdate"),
                "this should be defaulted and never be nil",
            )),
            Some(ru) => {
                let rp = sp.child("rollingUpdate");
                let (mu, ms) = (ru.get("maxUnavailable"), ru.get("maxSurge"));
                int_or_percent(mu, &rp.child("maxUnavailable"), errs);
                int_or_percent(ms, &rp.child("maxSurge"), errs);
                if int_or_percent_value(mu) == 0 && int_or_percent_value(ms) == 0 {
                    errs.push(FieldError::invalid(
                        &rp.child("maxUnavailable"),
                        BadValue::from(mu.unwrap_or(&Value::from(0))),
                        "may not be 0 when `maxSurge` is 0",
                    ));
                }
                not_over_100(mu, &rp.child("maxUnavailable"), errs);
            }
        },
        _ => errs.push(FieldError::not_supported(
            &sp,
            BadValue::Json(Value::Object(strategy.clone())),
            &["Recreate", "RollingUpdate"],
        )),
    }
    nonneg(spec, "minReadySeconds", p, errs);
    if let Some(r) = opt_int(spec, "revisionHistoryLimit") {
        meta::nonnegative(r, &p.child("revisionHistoryLimit"), errs);
    }
    if let Some(pd) = opt_int(spec, "progressDeadlineSeconds") {
        meta::nonnegative(pd, &p.child("progressDeadlineSeconds"), errs);
        if pd <= int_of(spec, "minReadySeconds") {
            errs.push(FieldError::invalid(
                &p.child("progressDeadlineSeconds"),
                pd,
                "must be greater than minReadySeconds",
            ));
        }
    }
}

/// `ValidateDaemonSetSpec`.
pub(crate) fn daemon_set_spec(spec: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    if let Some(sel) = obj(spec, "selector") {
        label_selector(sel, &p.child("selector"), errs);
    }
    selector_matches(spec, true, p, errs);
    if let Some(sel) = obj(spec, "selector") {
        let empty = super::read::str_map(sel, "matchLabels").next().is_none()
            && super::read::arr(sel, "matchExpressions").is_empty();
        if empty {
            errs.push(FieldError::invalid(
                &p.child("selector"),
                selector_bad_value(spec.get("selector")),
                "empty selector is invalid for daemonset",
            ));
        }
    }
    let tp = p.child("template");
    let t = obj_or_empty(spec, "template");
    pod::template(t, &tp, errs);
    restart_always_no_deadline(t, "DaemonSet", &tp, errs);
    nonneg(spec, "minReadySeconds", p, errs);
    let up = p.child("updateStrategy");
    let strategy = obj_or_empty(spec, "updateStrategy");
    match str_of(strategy, "type") {
        "OnDelete" => {}
        "RollingUpdate" => match obj(strategy, "rollingUpdate") {
            None => errs.push(FieldError::required(&up.child("rollingUpdate"), "")),
            Some(ru) => {
                let rp = up.child("rollingUpdate");
                let (mu, ms) = (ru.get("maxUnavailable"), ru.get("maxSurge"));
                int_or_percent(mu, &rp.child("maxUnavailable"), errs);
                int_or_percent(ms, &rp.child("maxSurge"), errs);
                not_over_100(mu, &rp.child("maxUnavailable"), errs);
                not_over_100(ms, &rp.child("maxSurge"), errs);
                match (int_or_percent_value(mu) != 0, int_or_percent_value(ms) != 0) {
                    (true, true) => errs.push(FieldError::invalid(
                        &rp.child("maxSurge"),
                        BadValue::from(ms.unwrap_or(&Value::Null)),
                        "may not be set when maxUnavailable is non-zero",
                    )),
                    (false, false) => errs.push(FieldError::required(
                        &rp.child("maxUnavailable"),
                        "cannot be 0 when maxSurge is 0",
                    )),
                    _ => {}
                }
            }
        },
        _ => errs.push(FieldError::not_supported(
            &up,
            BadValue::Json(Value::Object(strategy.clone())),
            &["RollingUpdate", "OnDelete"],
        )),
    }
    if let Some(r) = opt_int(spec, "revisionHistoryLimit") {
        meta::nonnegative(r, &p.child("revisionHistoryLimit"), errs);
    }
}

/// `ValidateReplicationControllerSpec`.
pub(crate) fn replication_controller_spec(spec: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    nonneg(spec, "minReadySeconds", p, errs);
    let selector = obj_or_empty(spec, "selector");
    if selector.is_empty() {
        errs.push(FieldError::required(&p.child("selector"), ""));
    }
    nonneg(spec, "replicas", p, errs);
    let tp = p.child("template");
    let Some(t) = obj(spec, "template") else {
        errs.push(FieldError::required(&tp, ""));
        return;
    };
    let template_labels = obj(obj_or_empty(t, "metadata"), "labels")
        .cloned()
        .unwrap_or_default();
    let matches = selector
        .iter()
        .all(|(k, v)| template_labels.get(k) == Some(v));
    if !selector.is_empty() && !matches {
        errs.push(FieldError::invalid(
            &tp.child("metadata").child("labels"),
            labels_bad(t),
            "`selector` does not match template `labels`",
        ));
    }
    pod::template(t, &tp, errs);
    let ts = obj_or_empty(t, "spec");
    let rp = str_of(ts, "restartPolicy");
    if rp != "Always" {
        errs.push(FieldError::not_supported(
            &tp.child("spec").child("restartPolicy"),
            rp,
            &["Always"],
        ));
    }
    if is_set(ts, "activeDeadlineSeconds") {
        errs.push(FieldError::forbidden(
            &tp.child("spec").child("activeDeadlineSeconds"),
            "activeDeadlineSeconds in ReplicationController is not Supported",
        ));
    }
}

/// A spec's validation.
type SpecFn = fn(&Obj, &FieldPath, &mut Vec<FieldError>);

/// Creates.
pub(crate) fn create(kind: &str, o: &Obj, errs: &mut Vec<FieldError>) {
    let (rule, spec_fn): (NameRule, SpecFn) = match kind {
        "Deployment" => (NameRule::DnsSubdomain, deployment_spec),
        "ReplicaSet" => (NameRule::DnsSubdomain, replica_set_spec),
        "StatefulSet" => (NameRule::DnsLabel, stateful_set_spec),
        "DaemonSet" => (NameRule::DnsSubdomain, daemon_set_spec),
        _ => (NameRule::DnsSubdomain, replication_controller_spec),
    };
    meta::object_meta(o, true, rule, errs);
    spec_fn(obj_or_empty(o, "spec"), &FieldPath::new("spec"), errs);
}

/// Updates: the metadata rules, the spec again, and what may not change.
pub(crate) fn update(kind: &str, new: &Obj, old: &Obj, errs: &mut Vec<FieldError>) {
    meta::object_meta_update(new, old, errs);
    let (ns, os) = (obj_or_empty(new, "spec"), obj_or_empty(old, "spec"));
    let sp = FieldPath::new("spec");
    match kind {
        "Deployment" => deployment_spec(ns, &sp, errs),
        "ReplicaSet" => replica_set_spec(ns, &sp, errs),
        "DaemonSet" => {
            template_generation(new, old, errs);
            daemon_set_spec(ns, &sp, errs);
        }
        "StatefulSet" => {
            stateful_set_spec(ns, &sp, errs);
            stateful_set_spec_update(ns, os, &sp, errs);
        }
        _ => replication_controller_spec(ns, &sp, errs),
    }
    // apps/v1 strategies: the selector is immutable (not for ReplicationControllers).
    if kind != "ReplicationController"
        && kind != "StatefulSet"
        && !same(ns.get("selector"), os.get("selector"))
    {
        errs.push(FieldError::invalid(
            &sp.child("selector"),
            selector_bad_value(ns.get("selector")),
            IMMUTABLE,
        ));
    }
}

/// `ValidateDaemonSetSpecUpdate` over the template generation annotation.
pub(crate) fn template_generation(new: &Obj, old: &Obj, errs: &mut Vec<FieldError>) {
    const KEY: &str = "deprecated.daemonset.template.generation";
    let read = |o: &Obj| {
        obj(obj_or_empty(o, "metadata"), "annotations")
            .and_then(|a| a.get(KEY))
            .and_then(Value::as_str)
            .and_then(|s| s.parse::<i64>().ok())
            .unwrap_or(0)
    };
    let (n, o) = (read(new), read(old));
    let p = FieldPath::new("spec").child("templateGeneration");
    if n < o {
        errs.push(FieldError::invalid(&p, n, "must not be decremented"));
    }
    let template = |x: &Obj| obj_or_empty(x, "spec").get("template").cloned();
    let updated = template(new) != template(old);
    if n == o && updated {
        errs.push(FieldError::invalid(
            &p,
            n,
            "must be incremented upon template update",
        ));
    } else if n > o && !updated {
        errs.push(FieldError::invalid(
            &p,
            n,
            "must not be incremented without template update",
        ));
    }
}
