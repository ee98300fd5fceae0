//! Jobs and CronJobs.
//!
//! Mirrors kubernetes `pkg/apis/batch/validation/validation.go` (`ValidateJob`,
//! `validateGeneratedSelector`, `ValidateJobSpec`, `validateJobSpec`, `validatePodFailurePolicy`,
//! `validatePodReplacementPolicy`, `ValidateJobSpecUpdate`, `validatePodTemplateUpdate`,
//! `ValidateCronJobCreate`/`Update`, `validateCronJobSpec`, `ValidateJobTemplateSpec`), with the
//! options `pkg/registry/batch/job/strategy.go` passes (elastic indexed Jobs; scheduling
//! directives of a suspended Job that never started are mutable). Not checked: success
//! policies' index ranges, time zone names against the time zone database.

use super::job_policy::pod_failure_policy;
use serde_json::Value;

use super::meta::{self, NameRule, immutable};
use super::pod;
use super::read::{Obj, is_set, obj, obj_or_empty, opt_int, opt_str, str_of};
use super::selector::{as_selector, label_selector, selector_bad_value};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::names;

/// `IsDomainPrefixedPath`.
pub(crate) fn domain_prefixed_path(v: &str, p: &FieldPath, errs: &mut Vec<FieldError>) {
    if v.is_empty() {
        errs.push(FieldError::required(p, ""));
        return;
    }
    let Some((host, path)) = v
        .split_once('/')
        .filter(|(h, p)| !h.is_empty() && !p.is_empty())
    else {
        errs.push(FieldError::invalid(
            p,
            v,
            "must be a domain-prefixed path (such as \"acme.io/foo\")",
        ));
        return;
    };
    for msg in names::dns1123_subdomain(host) {
        errs.push(FieldError::invalid(p, host, msg));
    }
    let ok = path
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/-._~%!$&'()*+,;=:".contains(&b));
    if !ok {
        errs.push(FieldError::invalid(
            p,
            path,
            "Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')",
        ));
    }
}

/// `validateJobSpec`: what a Job and a CronJob's Job template share.
pub(crate) fn job_spec_common(spec: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    for k in [
        "parallelism",
        "completions",
        "activeDeadlineSeconds",
        "backoffLimit",
        "ttlSecondsAfterFinished",
        "backoffLimitPerIndex",
    ] {
        if let Some(v) = opt_int(spec, k) {
            meta::nonnegative(v, &p.child(k), errs);
        }
    }
    if let Some(m) = opt_int(spec, "maxFailedIndexes") {
        meta::nonnegative(m, &p.child("maxFailedIndexes"), errs);
        if !is_set(spec, "backoffLimitPerIndex") {
            errs.push(FieldError::required(
                &p.child("backoffLimitPerIndex"),
                "when maxFailedIndexes is specified",
            ));
        }
    }
    if let Some(m) = opt_str(spec, "managedBy") {
        domain_prefixed_path(m, &p.child("managedBy"), errs);
        if m.len() > 63 {
            errs.push(FieldError::too_long(&p.child("managedBy"), 63));
        }
    }
    let mode = opt_str(spec, "completionMode");
    if let Some(mode) = mode {
        if mode != "NonIndexed" && mode != "Indexed" {
            errs.push(FieldError::not_supported(
                &p.child("completionMode"),
                mode,
                &["NonIndexed", "Indexed"],
            ));
        }
        if mode == "Indexed" {
            let completions = opt_int(spec, "completions");
            if completions.is_none() {
                errs.push(FieldError::required(
                    &p.child("completions"),
                    "when completion mode is Indexed",
                ));
            }
            if let Some(par) = opt_int(spec, "parallelism").filter(|v| *v > 100_000) {
                errs.push(FieldError::invalid(
                    &p.child("parallelism"),
                    par,
                    "must be less than or equal to 100000 when completion mode is Indexed",
                ));
            }
            if let (Some(c), Some(m)) = (completions, opt_int(spec, "maxFailedIndexes"))
                && m > c
            {
                errs.push(FieldError::invalid(
                    &p.child("maxFailedIndexes"),
                    m,
                    "must be less than or equal to completions",
                ));
            }
            if let Some(m) = opt_int(spec, "maxFailedIndexes").filter(|m| *m > 100_000) {
                errs.push(FieldError::invalid(
                    &p.child("maxFailedIndexes"),
                    m,
                    "must be less than or equal to 100000",
                ));
            }
        }
    }
    if mode.is_none_or(|m| m == "NonIndexed") {
        for k in ["backoffLimitPerIndex", "maxFailedIndexes"] {
            if let Some(v) = opt_int(spec, k) {
                errs.push(FieldError::invalid(
                    &p.child(k),
                    v,
                    "requires indexed completion mode",
                ));
            }
        }
    }
    if let Some(policy) = obj(spec, "podFailurePolicy") {
        pod_failure_policy(spec, policy, &p.child("podFailurePolicy"), errs);
    }
    if let Some(sp) = spec.get("successPolicy").filter(|v| !v.is_null())
        && mode != Some("Indexed")
    {
        errs.push(FieldError::invalid(
            &p.child("successPolicy"),
            BadValue::from(sp),
            "requires indexed completion mode",
        ));
    }
    if let Some(rp) = opt_str(spec, "podReplacementPolicy") {
        let pp = p.child("podReplacementPolicy");
        if is_set(spec, "podFailurePolicy") {
            if rp != "Failed" {
                errs.push(FieldError::not_supported(&pp, rp, &["Failed"]));
            }
        } else if rp != "Failed" && rp != "TerminatingOrFailed" {
            errs.push(FieldError::not_supported(
                &pp,
                rp,
                &["Failed", "TerminatingOrFailed"],
            ));
        }
    }
    let t = obj_or_empty(spec, "template");
    let tp = p.child("template");
    pod::template(t, &tp, errs);
    let rp = tp.child("spec").child("restartPolicy");
    match str_of(obj_or_empty(t, "spec"), "restartPolicy") {
        "Always" | "" => errs.push(FieldError::required(
            &rp,
            "valid values: \"OnFailure\", \"Never\"",
        )),
        "OnFailure" if is_set(spec, "podFailurePolicy") => {
            errs.push(FieldError::invalid(
                &rp,
                "OnFailure",
                "only \"Never\" is supported when podFailurePolicy is specified",
            ));
        }
        "OnFailure" | "Never" => {}
        other => errs.push(FieldError::not_supported(
            &rp,
            other,
            &["OnFailure", "Never"],
        )),
    }
}

/// `ValidateJobSpec`: the common checks, the selector and its match with the template.
pub(crate) fn job_spec(spec: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    job_spec_common(spec, p, errs);
    match obj(spec, "selector") {
        None => errs.push(FieldError::required(&p.child("selector"), "")),
        Some(sel) => label_selector(sel, &p.child("selector"), errs),
    }
    let t = obj_or_empty(spec, "template");
    let template_labels = obj(obj_or_empty(t, "metadata"), "labels")
        .cloned()
        .unwrap_or_default();
    let mismatch = match obj(spec, "selector") {
        None => true,
        Some(sel) => as_selector(sel).is_some_and(|s| !s.matches(&template_labels)),
    };
    if mismatch {
        errs.push(FieldError::invalid(
            &p.child("template").child("metadata").child("labels"),
            BadValue::Json(
                obj_or_empty(t, "metadata")
                    .get("labels")
                    .cloned()
                    .unwrap_or(Value::Null),
            ),
            "`selector` does not match template `labels`",
        ));
    }
}

/// `validateGeneratedSelector` (with the `batch.kubernetes.io/` labels when required).
pub(crate) fn generated_selector(job: &Obj, prefixed: bool, errs: &mut Vec<FieldError>) {
    let spec = obj_or_empty(job, "spec");
    if spec.get("manualSelector") == Some(&Value::Bool(true)) {
        return;
    }
    let Some(sel) = obj(spec, "selector") else {
        return;
    };
    let m = obj_or_empty(job, "metadata");
    let (uid, name) = (str_of(m, "uid"), str_of(m, "name"));
    if uid.is_empty() {
        errs.push(FieldError::required(
            &FieldPath::new("metadata").child("uid"),
            "",
        ));
    }
    let tm = obj_or_empty(obj_or_empty(spec, "template"), "metadata");
    let tp = FieldPath::new("spec").child("template").child("metadata");
    let mut expected = vec![("controller-uid", uid), ("job-name", name)];
    if prefixed {
        expected.push(("batch.kubernetes.io/controller-uid", uid));
        expected.push(("batch.kubernetes.io/job-name", name));
    }
    let labels = obj(tm, "labels");
    for (key, want) in &expected {
        match labels.and_then(|l| l.get(*key)).and_then(Value::as_str) {
            None => errs.push(FieldError::required(
                &tp.child("labels").key(key),
                format!("must be '{want}'"),
            )),
            Some(v) if v != *want => errs.push(FieldError::invalid(
                &tp.child("labels").key(key),
                BadValue::Json(tm.get("labels").cloned().unwrap_or(Value::Null)),
                format!("must be '{want}'"),
            )),
            Some(_) => {}
        }
    }
    let expected_labels: Obj = expected
        .into_iter()
        .map(|(k, v)| (k.to_owned(), Value::from(v)))
        .collect();
    if let Some(s) = as_selector(sel)
        && !s.matches(&expected_labels)
    {
        errs.push(FieldError::invalid(
            &FieldPath::new("spec").child("selector"),
            selector_bad_value(spec.get("selector")),
            "`selector` not auto-generated",
        ));
    }
}

/// `ValidateJob`.
pub(crate) fn job_create(job: &Obj, errs: &mut Vec<FieldError>) {
    meta::object_meta(job, true, NameRule::DnsSubdomain, errs);
    generated_selector(job, true, errs);
    let spec = obj_or_empty(job, "spec");
    job_spec(spec, &FieldPath::new("spec"), errs);
    if str_of(spec, "completionMode") == "Indexed"
        && let Some(c) = opt_int(spec, "completions").filter(|c| *c > 0)
    {
        let name = str_of(obj_or_empty(job, "metadata"), "name");
        let host = format!("{name}-{}", c - 1);
        if !names::dns1123_label(&host).is_empty() {
            errs.push(FieldError::invalid(
                &FieldPath::new("metadata").child("name"),
                name,
                format!("will not able to create pod with invalid DNS label: {host}"),
            ));
        }
    }
}

/// `ValidateJobUpdate`.
pub(crate) fn job_update(new: &Obj, old: &Obj, errs: &mut Vec<FieldError>) {
    meta::object_meta_update(new, old, errs);
    let (ns, os) = (obj_or_empty(new, "spec"), obj_or_empty(old, "spec"));
    let p = FieldPath::new("spec");
    job_spec(ns, &p, errs);
    let indexed = str_of(ns, "completionMode") == "Indexed";
    if !indexed {
        immutable(
            ns.get("completions"),
            os.get("completions"),
            &p.child("completions"),
            errs,
        );
    } else if let Some(c) = opt_int(ns, "completions")
        && opt_int(os, "completions") != Some(c)
        && opt_int(ns, "parallelism") != Some(c)
    {
        errs.push(FieldError::invalid(
            &p.child("completions"),
            c,
            "can only be modified in tandem with spec.parallelism",
        ));
    }
    immutable(
        ns.get("selector"),
        os.get("selector"),
        &p.child("selector"),
        errs,
    );
    template_update(ns, os, old, &p, errs);
    for k in [
        "completionMode",
        "podFailurePolicy",
        "backoffLimitPerIndex",
        "managedBy",
        "successPolicy",
    ] {
        immutable(ns.get(k), os.get(k), &p.child(k), errs);
    }
}

/// `validatePodTemplateUpdate`: the template is immutable, except the scheduling directives,
/// labels and annotations of a suspended Job that never started.
pub(crate) fn template_update(
    ns: &Obj,
    os: &Obj,
    old: &Obj,
    p: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let (nt, ot) = (ns.get("template"), os.get("template"));
    let suspended = os.get("suspend") == Some(&Value::Bool(true));
    let not_started = obj_or_empty(old, "status")
        .get("startTime")
        .is_none_or(Value::is_null);
    let mut old_t = ot.cloned().unwrap_or(Value::Null);
    if suspended
        && not_started
        && let (Some(Value::Object(n)), Value::Object(o)) = (nt, &mut old_t)
    {
        let (nm, nspec) = (obj_or_empty(n, "metadata"), obj_or_empty(n, "spec"));
        if let Some(Value::Object(om)) = o.get_mut("metadata") {
            for k in ["labels", "annotations"] {
                match nm.get(k) {
                    Some(v) => om.insert(k.to_owned(), v.clone()),
                    None => om.remove(k),
                };
            }
        }
        if let Some(Value::Object(ospec)) = o.get_mut("spec") {
            for k in ["nodeSelector", "tolerations", "schedulingGates"] {
                match nspec.get(k) {
                    Some(v) => ospec.insert(k.to_owned(), v.clone()),
                    None => ospec.remove(k),
                };
            }
            let node_affinity = nspec
                .get("affinity")
                .and_then(|a| a.get("nodeAffinity"))
                .cloned();
            match (
                nspec.get("affinity").filter(|a| !a.is_null()),
                ospec.get_mut("affinity"),
            ) {
                (None, Some(Value::Object(oa))) => {
                    oa.remove("nodeAffinity");
                    if oa.is_empty() {
                        ospec.remove("affinity");
                    }
                }
                (Some(_), None | Some(Value::Null)) => {
                    let mut a = serde_json::Map::new();
                    if let Some(na) = node_affinity {
                        a.insert("nodeAffinity".to_owned(), na);
                    }
                    ospec.insert("affinity".to_owned(), Value::Object(a));
                }
                (Some(_), Some(Value::Object(oa))) => {
                    match node_affinity {
                        Some(na) => oa.insert("nodeAffinity".to_owned(), na),
                        None => oa.remove("nodeAffinity"),
                    };
                }
                _ => {}
            }
        }
    }
    immutable(nt, Some(&old_t), &p.child("template"), errs);
}
