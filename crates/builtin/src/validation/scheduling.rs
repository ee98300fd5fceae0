//! Where a pod may run: tolerations, affinity, topology spread.
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go` (`ValidateTolerations`,
//! `validateAffinity`, `ValidateNodeSelectorTerm`, `validatePodAffinityTerm`,
//! `validateTopologySpreadConstraints`).

use super::meta::label_name;
use super::read::{
    Obj, arr, int_of, is_set, items, obj, obj_or_empty, opt_int, opt_str, str_map, str_of, strs,
};
use super::selector;
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_apimachinery::names;

/// `ValidateTolerations`.
pub(crate) fn tolerations(spec: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    for (i, t) in items(spec, "tolerations") {
        let ip = p.index(i);
        let (key, op, value, effect) = (
            str_of(t, "key"),
            str_of(t, "operator"),
            str_of(t, "value"),
            str_of(t, "effect"),
        );
        if !key.is_empty() {
            label_name(key, &ip.child("key"), errs);
        }
        if key.is_empty() && op != "Exists" {
            errs.push(FieldError::invalid(
                &ip.child("operator"),
                op,
                "operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
            ));
        }
        if is_set(t, "tolerationSeconds") && effect != "NoExecute" {
            errs.push(FieldError::invalid(
                &ip.child("effect"),
                effect,
                "effect must be 'NoExecute' when `tolerationSeconds` is set",
            ));
        }
        match op {
            "Equal" | "" => {
                let msgs = names::label_value(value);
                if !msgs.is_empty() {
                    errs.push(FieldError::invalid(
                        &ip.child("operator"),
                        value,
                        msgs.join(";"),
                    ));
                }
            }
            "Exists" => {
                if !value.is_empty() {
                    errs.push(FieldError::invalid(
                        &ip.child("operator"),
                        value,
                        "value must be empty when `operator` is 'Exists'",
                    ));
                }
            }
            other => errs.push(FieldError::not_supported(
                &ip.child("operator"),
                other,
                &["Equal", "Exists"],
            )),
        }
        if !effect.is_empty() && !matches!(effect, "NoSchedule" | "PreferNoSchedule" | "NoExecute")
        {
            errs.push(FieldError::not_supported(
                &ip.child("effect"),
                effect,
                &["NoSchedule", "PreferNoSchedule", "NoExecute"],
            ));
        }
    }
}

/// `validateAffinity`.
pub(crate) fn affinity(a: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    if let Some(na) = obj(a, "nodeAffinity") {
        let np = p.child("nodeAffinity");
        if let Some(req) = obj(na, "requiredDuringSchedulingIgnoredDuringExecution") {
            let tp = np
                .child("requiredDuringSchedulingIgnoredDuringExecution")
                .child("nodeSelectorTerms");
            if arr(req, "nodeSelectorTerms").is_empty() {
                errs.push(FieldError::required(
                    &tp,
                    "must have at least one node selector term",
                ));
            }
            for (i, term) in items(req, "nodeSelectorTerms") {
                node_selector_term(term, false, &tp.index(i), errs);
            }
        }
        let pp = np.child("preferredDuringSchedulingIgnoredDuringExecution");
        for (i, t) in items(na, "preferredDuringSchedulingIgnoredDuringExecution") {
            let w = int_of(t, "weight");
            if !(1..=100).contains(&w) {
                errs.push(FieldError::invalid(
                    &pp.index(i).child("weight"),
                    w,
                    "must be in the range 1-100",
                ));
            }
            node_selector_term(
                obj_or_empty(t, "preference"),
                true,
                &pp.index(i).child("preference"),
                errs,
            );
        }
    }
    for kind in ["podAffinity", "podAntiAffinity"] {
        let Some(pa) = obj(a, kind) else { continue };
        let kp = p.child(kind);
        let rp = kp.child("requiredDuringSchedulingIgnoredDuringExecution");
        for (i, term) in items(pa, "requiredDuringSchedulingIgnoredDuringExecution") {
            pod_affinity_term(term, &rp.index(i), errs);
        }
        let pp = kp.child("preferredDuringSchedulingIgnoredDuringExecution");
        for (i, t) in items(pa, "preferredDuringSchedulingIgnoredDuringExecution") {
            let w = int_of(t, "weight");
            if !(1..=100).contains(&w) {
                errs.push(FieldError::invalid(
                    &pp.index(i).child("weight"),
                    w,
                    "must be in the range 1-100",
                ));
            }
            pod_affinity_term(
                obj_or_empty(t, "podAffinityTerm"),
                &pp.index(i).child("podAffinityTerm"),
                errs,
            );
        }
    }
}

/// `ValidateNodeSelectorTerm`.
pub(crate) fn node_selector_term(
    term: &Obj,
    allow_invalid_values: bool,
    p: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    for (j, r) in items(term, "matchExpressions") {
        let rp = p.child("matchExpressions").index(j);
        let values: Vec<&str> = strs(r, "values").collect();
        match str_of(r, "operator") {
            "In" | "NotIn" if values.is_empty() => errs.push(FieldError::required(
                &rp.child("values"),
                "must be specified when `operator` is 'In' or 'NotIn'",
            )),
            "Exists" | "DoesNotExist" if !values.is_empty() => errs.push(FieldError::forbidden(
                &rp.child("values"),
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            )),
            "Gt" | "Lt" if values.len() != 1 => errs.push(FieldError::required(
                &rp.child("values"),
                "must be specified single value when `operator` is 'Lt' or 'Gt'",
            )),
            "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt" => {}
            op => errs.push(FieldError::invalid(
                &rp.child("operator"),
                op,
                "not a valid selector operator",
            )),
        }
        label_name(str_of(r, "key"), &rp.child("key"), errs);
        if !allow_invalid_values {
            for (k, v) in values.iter().enumerate() {
                for msg in names::label_value(v) {
                    errs.push(FieldError::invalid(&rp.child("values").index(k), *v, msg));
                }
            }
        }
    }
    for (j, r) in items(term, "matchFields") {
        let rp = p.child("matchFields").index(j);
        let values: Vec<&str> = strs(r, "values").collect();
        match str_of(r, "operator") {
            "In" | "NotIn" => {
                if values.len() != 1 {
                    errs.push(FieldError::required(
                        &rp.child("values"),
                        "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
                    ));
                }
            }
            op => errs.push(FieldError::invalid(
                &rp.child("operator"),
                op,
                "not a valid selector operator",
            )),
        }
        let key = str_of(r, "key");
        if key == "metadata.name" {
            for (k, v) in values.iter().enumerate() {
                for msg in names::dns1123_subdomain(v) {
                    errs.push(FieldError::invalid(&rp.child("values").index(k), *v, msg));
                }
            }
        } else {
            errs.push(FieldError::invalid(
                &rp.child("key"),
                key,
                "not a valid field selector key",
            ));
        }
    }
}

/// `validatePodAffinityTerm`.
pub(crate) fn pod_affinity_term(term: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    for k in ["labelSelector", "namespaceSelector"] {
        if let Some(s) = obj(term, k) {
            selector::label_selector(s, &p.child(k), errs);
        }
    }
    for ns in strs(term, "namespaces") {
        for msg in names::dns1123_label(ns) {
            errs.push(FieldError::invalid(&p.child("namespace"), ns, msg));
        }
    }
    let has_selector = is_set(term, "labelSelector");
    for k in ["matchLabelKeys", "mismatchLabelKeys"] {
        if arr(term, k).is_empty() {
            continue;
        }
        if !has_selector {
            errs.push(FieldError::forbidden(
                &p.child(k),
                "must not be specified when labelSelector is not set",
            ));
            continue;
        }
        for (i, key) in strs(term, k).enumerate() {
            label_name(key, &p.child(k).index(i), errs);
        }
    }
    let topology = str_of(term, "topologyKey");
    if topology.is_empty() {
        errs.push(FieldError::required(
            &p.child("topologyKey"),
            "can not be empty",
        ));
    }
    label_name(topology, &p.child("topologyKey"), errs);
}

/// `validateTopologySpreadConstraints`.
pub(crate) fn topology_spread(spec: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let list: Vec<(usize, &Obj)> = items(spec, "topologySpreadConstraints").collect();
    for (i, c) in &list {
        let cp = p.index(*i);
        let skew = int_of(c, "maxSkew");
        if skew <= 0 {
            errs.push(FieldError::invalid(
                &cp.child("maxSkew"),
                skew,
                "must be greater than zero",
            ));
        }
        let (key, when) = (str_of(c, "topologyKey"), str_of(c, "whenUnsatisfiable"));
        if key.is_empty() {
            errs.push(FieldError::required(
                &cp.child("topologyKey"),
                "can not be empty",
            ));
        }
        if when != "DoNotSchedule" && when != "ScheduleAnyway" {
            errs.push(FieldError::not_supported(
                &cp.child("whenUnsatisfiable"),
                when,
                &["DoNotSchedule", "ScheduleAnyway"],
            ));
        }
        if list[i + 1..]
            .iter()
            .any(|(_, o)| str_of(o, "topologyKey") == key && str_of(o, "whenUnsatisfiable") == when)
        {
            errs.push(FieldError::duplicate(
                &cp.child("{topologyKey, whenUnsatisfiable}"),
                format!("{{{key}, {when}}}"),
            ));
        }
        if let Some(min) = opt_int(c, "minDomains") {
            if min <= 0 {
                errs.push(FieldError::invalid(
                    &cp.child("minDomains"),
                    min,
                    "must be greater than zero",
                ));
            }
            if when != "DoNotSchedule" {
                errs.push(FieldError::invalid(
                    &cp.child("minDomains"),
                    min,
                    format!(
                        "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not {when}"
                    ),
                ));
            }
        }
        for k in ["nodeAffinityPolicy", "nodeTaintsPolicy"] {
            if let Some(v) = opt_str(c, k)
                && v != "Honor"
                && v != "Ignore"
            {
                errs.push(FieldError::not_supported(
                    &cp.child(k),
                    v,
                    &["Honor", "Ignore"],
                ));
            }
        }
        let sel = obj(c, "labelSelector");
        if !arr(c, "matchLabelKeys").is_empty() {
            let mp = cp.child("matchLabelKeys");
            if sel.is_none() {
                errs.push(FieldError::forbidden(
                    &mp,
                    "must not be specified when labelSelector is not set",
                ));
            }
            let sel_keys: Vec<&str> = sel
                .map(|s| {
                    str_map(s, "matchLabels")
                        .map(|(k, _)| k)
                        .chain(items(s, "matchExpressions").map(|(_, e)| str_of(e, "key")))
                        .collect()
                })
                .unwrap_or_default();
            for (j, key) in strs(c, "matchLabelKeys").enumerate() {
                label_name(key, &mp.index(j), errs);
                if sel_keys.contains(&key) {
                    errs.push(FieldError::invalid(
                        &mp.index(j),
                        key,
                        "exists in both matchLabelKeys and labelSelector",
                    ));
                }
            }
        }
        if let Some(s) = sel {
            selector::label_selector(s, &cp.child("labelSelector"), errs);
        }
    }
}
