//! Roles, ClusterRoles, RoleBindings and ClusterRoleBindings.
//!
//! Mirrors kubernetes `pkg/apis/rbac/validation/validation.go` (`ValidateRole`,
//! `ValidateClusterRole`, `ValidatePolicyRule`, `ValidateRoleBinding`,
//! `ValidateClusterRoleBinding`, `ValidateRoleBindingSubject`, the `cannot change roleRef`
//! rule of the updates). Names are path segments (`ValidateRBACName`).

use serde_json::Value;

use super::meta::{self, NameRule};
use super::read::{Obj, arr, items, obj, obj_or_empty, str_of};
use super::selector::label_selector;
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};

pub(crate) const RBAC: &str = "rbac.authorization.k8s.io";

/// `ValidatePolicyRule`.
pub(crate) fn rule(r: &Obj, namespaced: bool, p: &FieldPath, errs: &mut Vec<FieldError>) {
    if arr(r, "verbs").is_empty() {
        errs.push(FieldError::required(
            &p.child("verbs"),
            "verbs must contain at least one value",
        ));
    }
    let urls = arr(r, "nonResourceURLs");
    if !urls.is_empty() {
        let bad = || BadValue::Json(Value::from(urls));
        if namespaced {
            errs.push(FieldError::invalid(
                &p.child("nonResourceURLs"),
                bad(),
                "namespaced rules cannot apply to non-resource URLs",
            ));
        }
        if !arr(r, "apiGroups").is_empty()
            || !arr(r, "resources").is_empty()
            || !arr(r, "resourceNames").is_empty()
        {
            errs.push(FieldError::invalid(
                &p.child("nonResourceURLs"),
                bad(),
                "rules cannot apply to both regular resources and non-resource URLs",
            ));
        }
        return;
    }
    if arr(r, "apiGroups").is_empty() {
        errs.push(FieldError::required(
            &p.child("apiGroups"),
            "resource rules must supply at least one api group",
        ));
    }
    if arr(r, "resources").is_empty() {
        errs.push(FieldError::required(
            &p.child("resources"),
            "resource rules must supply at least one resource",
        ));
    }
}

/// `ValidateRole` / `ValidateClusterRole` (`old` on update).
pub(crate) fn role(o: &Obj, cluster: bool, old: Option<&Obj>, errs: &mut Vec<FieldError>) {
    match old {
        None => meta::object_meta(o, !cluster, NameRule::PathSegment, errs),
        Some(x) => meta::object_meta_update(o, x, errs),
    }
    for (i, r) in items(o, "rules") {
        rule(r, !cluster, &FieldPath::new("rules").index(i), errs);
    }
    if cluster && let Some(agg) = obj(o, "aggregationRule") {
        let p = FieldPath::new("aggregationRule").child("clusterRoleSelectors");
        if arr(agg, "clusterRoleSelectors").is_empty() {
            errs.push(FieldError::required(
                &p,
                "at least one clusterRoleSelector required if aggregationRule is non-nil",
            ));
        }
        for (i, s) in items(agg, "clusterRoleSelectors") {
            label_selector(s, &p.index(i), errs);
        }
    }
}

/// `ValidateRoleBindingSubject`.
pub(crate) fn subject(s: &Obj, namespaced: bool, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let name = str_of(s, "name");
    if name.is_empty() {
        errs.push(FieldError::required(&p.child("name"), ""));
    }
    let group = str_of(s, "apiGroup");
    match str_of(s, "kind") {
        "ServiceAccount" => {
            if !name.is_empty() {
                for msg in NameRule::DnsSubdomain.check(name, false) {
                    errs.push(FieldError::invalid(&p.child("name"), name, msg));
                }
            }
            if !group.is_empty() {
                errs.push(FieldError::not_supported(
                    &p.child("apiGroup"),
                    group,
                    &[""],
                ));
            }
            if !namespaced && str_of(s, "namespace").is_empty() {
                errs.push(FieldError::required(&p.child("namespace"), ""));
            }
        }
        "User" | "Group" => {
            if group != RBAC {
                errs.push(FieldError::not_supported(
                    &p.child("apiGroup"),
                    group,
                    &[RBAC],
                ));
            }
        }
        other => errs.push(FieldError::not_supported(
            &p.child("kind"),
            other,
            &["ServiceAccount", "User", "Group"],
        )),
    }
}

/// The internal `RoleRef` as Go's JSON prints it (the internal type has no JSON tags).
pub(crate) fn role_ref_bad(r: &Obj) -> BadValue {
    let q = |k: &str| crdkit_apimachinery::gofmt::json(&Value::from(str_of(r, k)));
    BadValue::Raw(format!(
        "{{\"APIGroup\":{},\"Kind\":{},\"Name\":{}}}",
        q("apiGroup"),
        q("kind"),
        q("name")
    ))
}

/// `ValidateRoleBinding` / `ValidateClusterRoleBinding` and their updates.
pub(crate) fn binding(o: &Obj, cluster: bool, old: Option<&Obj>, errs: &mut Vec<FieldError>) {
    match old {
        None => meta::object_meta(o, !cluster, NameRule::PathSegment, errs),
        Some(x) => meta::object_meta_update(o, x, errs),
    }
    let r = obj_or_empty(o, "roleRef");
    let rp = FieldPath::new("roleRef");
    if let Some(x) = old {
        let or = obj_or_empty(x, "roleRef");
        let changed = ["apiGroup", "kind", "name"]
            .iter()
            .any(|k| str_of(r, k) != str_of(or, k));
        if changed {
            errs.push(FieldError::invalid(
                &rp,
                role_ref_bad(r),
                "cannot change roleRef",
            ));
        }
    }
    if str_of(r, "apiGroup") != RBAC {
        errs.push(FieldError::not_supported(
            &rp.child("apiGroup"),
            str_of(r, "apiGroup"),
            &[RBAC],
        ));
    }
    let kind = str_of(r, "kind");
    if cluster {
        if kind != "ClusterRole" {
            errs.push(FieldError::not_supported(
                &rp.child("kind"),
                kind,
                &["ClusterRole"],
            ));
        }
    } else if kind != "Role" && kind != "ClusterRole" {
        errs.push(FieldError::not_supported(
            &rp.child("kind"),
            kind,
            &["Role", "ClusterRole"],
        ));
    }
    let name = str_of(r, "name");
    if name.is_empty() {
        errs.push(FieldError::required(&rp.child("name"), ""));
    } else {
        for msg in NameRule::PathSegment.check(name, false) {
            errs.push(FieldError::invalid(&rp.child("name"), name, msg));
        }
    }
    for (i, s) in items(o, "subjects") {
        subject(s, !cluster, &FieldPath::new("subjects").index(i), errs);
    }
}
