//! `metadata` of a CRD on create, and the API-approval annotation of protected groups.
//!
//! Mirrors apimachinery `pkg/api/validation/objectmeta.go` (`ValidateObjectMetaAccessor` with the
//! CRD's name function) and apiextensions-apiserver `validateAPIApproval` and
//! `pkg/apihelpers/helpers.go`; on update, `ValidateObjectMetaAccessorUpdate`. The registry clears
//! `namespace` and sets `generation` of cluster-scoped objects before validation, so neither is
//! checked on create; managed fields are not checked.

use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::names;
use crdkit_schema::crd::CustomResourceDefinition;

const APPROVAL: &str = "api-approved.kubernetes.io";

// The nameValidationFn of ValidateCustomResourceDefinition.
fn name_errors(crd: &CustomResourceDefinition, name: &str, prefix: bool) -> Vec<String> {
    let checked = if prefix {
        mask_trailing_dash(name)
    } else {
        name.to_owned()
    };
    let mut errs = names::dns1123_subdomain(&checked);
    if name != format!("{}.{}", crd.spec.names.plural, crd.spec.group) {
        errs.push(r#"must be spec.names.plural+"."+spec.group"#.to_owned());
    }
    errs
}

// maskTrailingDash (sic: Go drops the last two bytes)
fn mask_trailing_dash(name: &str) -> String {
    if name.len() > 1 && name.ends_with('-') {
        let cut = name.len() - 2;
        if name.is_char_boundary(cut) {
            return format!("{}a", &name[..cut]);
        }
    }
    name.to_owned()
}

pub(super) fn object_meta(crd: &CustomResourceDefinition) -> Vec<FieldError> {
    let m = &crd.metadata;
    let p = FieldPath::new("metadata");
    let mut errs = Vec::new();
    let generate_name = m.generate_name.as_deref().unwrap_or("");
    if !generate_name.is_empty() {
        for msg in name_errors(crd, generate_name, true) {
            errs.push(FieldError::invalid(
                &p.child("generateName"),
                generate_name,
                msg,
            ));
        }
    }
    match m.name.as_deref().unwrap_or("") {
        // The registry generates a name from generateName before validation; its random suffix
        // never matches plural.group, so the generated name fails like generateName itself.
        "" if !generate_name.is_empty() => errs.push(FieldError::invalid(
            &p.child("name"),
            format!("{generate_name}xxxxx"),
            r#"must be spec.names.plural+"."+spec.group"#,
        )),
        "" => errs.push(FieldError::required(
            &p.child("name"),
            "name or generateName is required",
        )),
        name => {
            for msg in name_errors(crd, name, false) {
                errs.push(FieldError::invalid(&p.child("name"), name, msg));
            }
        }
    }
    errs.extend(labels_annotations_owners(crd, &p));
    let finalizers = p.child("finalizers");
    let list = m.finalizers.as_deref().unwrap_or_default();
    for f in list {
        for msg in names::label_key(f) {
            errs.push(FieldError::invalid(&finalizers, f, msg));
        }
    }
    if list.iter().any(|f| f == "orphan") && list.iter().any(|f| f == "foregroundDeletion") {
        errs.push(FieldError::invalid(
            &finalizers,
            BadValue::Json(serde_json::Value::from(list.to_vec())),
            "finalizer orphan and foregroundDeletion cannot be both set",
        ));
    }
    errs
}

/// `ValidateObjectMetaAccessorUpdate`: the stored object's identity cannot change, and the
/// labels, annotations and owner references of the new one are checked as on create (its name
/// is not: it cannot change).
pub(super) fn object_meta_update(
    crd: &CustomResourceDefinition,
    old: &CustomResourceDefinition,
) -> Vec<FieldError> {
    let (m, o) = (&crd.metadata, &old.metadata);
    let p = FieldPath::new("metadata");
    let mut errs = Vec::new();
    if o.deletion_timestamp.is_some() {
        let old_finalizers = o.finalizers.as_deref().unwrap_or_default();
        for f in m.finalizers.as_deref().unwrap_or_default() {
            if !old_finalizers.contains(f) {
                errs.push(FieldError::forbidden(
                    &p.child("finalizers"),
                    format!("no new finalizers can be added if the object is being deleted, found new finalizers {}", go_string_list(m.finalizers.as_deref().unwrap_or_default(), old_finalizers)),
                ));
                break;
            }
        }
    }
    if m.resource_version.as_deref().unwrap_or("").is_empty() {
        errs.push(FieldError::invalid(
            &p.child("resourceVersion"),
            "",
            "must be specified for an update",
        ));
    }
    let (generation, old_generation) = (m.generation.unwrap_or(0), o.generation.unwrap_or(0));
    if generation < 0 {
        errs.push(FieldError::invalid(
            &p.child("generation"),
            generation,
            "must be greater than or equal to 0",
        ));
    }
    if generation < old_generation {
        errs.push(FieldError::invalid(
            &p.child("generation"),
            generation,
            "must not be decremented",
        ));
    }
    let text = |v: &Option<String>| v.clone().unwrap_or_default();
    for (field, new, old) in [
        ("name", text(&m.name), text(&o.name)),
        ("namespace", text(&m.namespace), text(&o.namespace)),
        ("uid", text(&m.uid), text(&o.uid)),
        (
            "creationTimestamp",
            text(&m.creation_timestamp),
            text(&o.creation_timestamp),
        ),
        (
            "deletionTimestamp",
            text(&m.deletion_timestamp),
            text(&o.deletion_timestamp),
        ),
    ] {
        if new != old {
            errs.push(immutable(&p.child(field), new.as_str()));
        }
    }
    if m.deletion_grace_period_seconds != o.deletion_grace_period_seconds {
        errs.push(immutable(
            &p.child("deletionGracePeriodSeconds"),
            BadValue::Json(
                serde_json::to_value(m.deletion_grace_period_seconds).unwrap_or_default(),
            ),
        ));
    }
    errs.extend(labels_annotations_owners(crd, &p));
    errs
}

/// `ValidateImmutableField`'s error.
pub(super) fn immutable(path: &FieldPath, value: impl Into<BadValue>) -> FieldError {
    FieldError::invalid(path, value, "field is immutable")
}

/// Go's `%#v` of the sorted set of new finalizers not in the old ones: `[]string{"a", "b"}`.
fn go_string_list(new: &[String], old: &[String]) -> String {
    let added: std::collections::BTreeSet<String> = new
        .iter()
        .filter(|f| !old.contains(f))
        .map(|f| crdkit_apimachinery::gofmt::quote(f))
        .collect();
    format!(
        "[]string{{{}}}",
        added.into_iter().collect::<Vec<_>>().join(", ")
    )
}

/// The checks of labels, annotations and owner references, on create and update.
fn labels_annotations_owners(crd: &CustomResourceDefinition, p: &FieldPath) -> Vec<FieldError> {
    let m = &crd.metadata;
    let mut errs = Vec::new();
    let labels = p.child("labels");
    for (k, v) in m.labels.iter().flatten() {
        for msg in names::label_key(k) {
            errs.push(FieldError::invalid(&labels, k, msg));
        }
        for msg in names::label_value(v) {
            errs.push(FieldError::invalid(&labels, v, msg));
        }
    }
    let annotations = p.child("annotations");
    let mut size = 0usize;
    for (k, v) in m.annotations.iter().flatten() {
        for msg in names::label_key(&k.to_lowercase()) {
            errs.push(FieldError::invalid(&annotations, k, msg));
        }
        size += k.len() + v.len();
    }
    if size > 256 * 1024 {
        errs.push(FieldError::too_long(&annotations, 256 * 1024));
    }
    errs.extend(owner_references(crd, &p.child("ownerReferences")));
    errs
}

fn owner_references(crd: &CustomResourceDefinition, p: &FieldPath) -> Vec<FieldError> {
    let mut errs = Vec::new();
    let mut first_controller: Option<String> = None;
    for (i, r) in crd.metadata.owner_references.iter().flatten().enumerate() {
        let at = p.index(i);
        if r.api_version.is_empty() {
            errs.push(FieldError::required(
                &at.child("apiVersion"),
                "must not be empty",
            ));
        } else if !valid_group_version(&r.api_version) {
            errs.push(FieldError::invalid(
                &at.child("apiVersion"),
                &r.api_version,
                "must be <group>/<version> or <version>",
            ));
        }
        for (value, name) in [(&r.kind, "kind"), (&r.name, "name"), (&r.uid, "uid")] {
            if value.is_empty() {
                errs.push(FieldError::required(&at.child(name), "must not be empty"));
            }
        }
        if r.controller == Some(true) {
            let this = format!("{}/{}", r.kind, r.name);
            match &first_controller {
                Some(first) => errs.push(FieldError::invalid(
                    p,
                    BadValue::Json(serde_json::to_value(&crd.metadata.owner_references).unwrap_or_default()),
                    format!("Only one reference can have Controller set to true. Found \"true\" in references for {first} and {this}"),
                )),
                None => first_controller = Some(this),
            }
        }
    }
    errs
}

// schema.ParseGroupVersion: `v`, `group/v`; more than one slash is an error.
fn valid_group_version(s: &str) -> bool {
    match s.matches('/').count() {
        0 => true,
        1 => s.split_once('/').is_some_and(|(_, v)| !v.is_empty()),
        _ => false,
    }
}

/// `apihelpers.APIApprovalState`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Approval {
    Invalid,
    Missing,
    Approved,
    Bypassed,
}

fn approval_value(crd: &CustomResourceDefinition) -> &str {
    crd.metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get(APPROVAL))
        .map_or("", String::as_str)
}

// GetAPIApprovalState
fn approval_state(crd: &CustomResourceDefinition) -> Approval {
    let value = approval_value(crd);
    if value.is_empty() {
        Approval::Missing
    } else if value.starts_with("unapproved") {
        Approval::Bypassed
    } else if is_request_uri_with_host(value) {
        Approval::Approved
    } else {
        Approval::Invalid
    }
}

// validateAPIApproval (`old` on update: an unchanged state is never an error)
pub(super) fn api_approval(
    crd: &CustomResourceDefinition,
    old: Option<&CustomResourceDefinition>,
) -> Vec<FieldError> {
    let group = crd.spec.group.as_str();
    let protected = group == "k8s.io"
        || group.ends_with(".k8s.io")
        || group == "kubernetes.io"
        || group.ends_with(".kubernetes.io");
    if !protected {
        return Vec::new();
    }
    let state = approval_state(crd);
    if old.is_some_and(|o| approval_state(o) == state) {
        return Vec::new();
    }
    let at = FieldPath::new("metadata")
        .child("annotations")
        .key(APPROVAL);
    match state {
        Approval::Missing => {
            let reason = format!(
                "protected groups must have approval annotation {}, see https://github.com/kubernetes/enhancements/pull/1111",
                crdkit_apimachinery::gofmt::quote(APPROVAL)
            );
            vec![FieldError::required(&at, reason)]
        }
        Approval::Approved | Approval::Bypassed => Vec::new(),
        Approval::Invalid => {
            let reason = format!(
                "protected groups must have approval annotation {} with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111",
                crdkit_apimachinery::gofmt::quote(APPROVAL)
            );
            vec![FieldError::invalid(&at, approval_value(crd), reason)]
        }
    }
}

// url.ParseRequestURI succeeded with a scheme and a host: `scheme://host...`.
fn is_request_uri_with_host(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once("://") else {
        return false;
    };
    let scheme_ok = scheme
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    scheme_ok && !host.is_empty() && !s.contains(' ') && !s.contains('#')
}
