//! `metadata` of a CRD on create, and the API-approval annotation of protected groups.
//!
//! Mirrors apimachinery `pkg/api/validation/objectmeta.go` (`ValidateObjectMetaAccessor` with the
//! CRD's name function) and apiextensions-apiserver `validateAPIApproval` and
//! `pkg/apihelpers/helpers.go`. The registry clears `namespace` and sets `generation` of
//! cluster-scoped objects before validation, so neither is checked; managed fields are not checked.

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

// validateAPIApproval on create
pub(super) fn api_approval(crd: &CustomResourceDefinition) -> Vec<FieldError> {
    let group = crd.spec.group.as_str();
    let protected = group == "k8s.io"
        || group.ends_with(".k8s.io")
        || group == "kubernetes.io"
        || group.ends_with(".kubernetes.io");
    if !protected {
        return Vec::new();
    }
    let at = FieldPath::new("metadata")
        .child("annotations")
        .key(APPROVAL);
    let value = crd
        .metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get(APPROVAL))
        .map_or("", String::as_str);
    if value.is_empty() {
        let reason = format!(
            "protected groups must have approval annotation {}, see https://github.com/kubernetes/enhancements/pull/1111",
            crdkit_apimachinery::field::go_quote(APPROVAL)
        );
        return vec![FieldError::required(&at, reason)];
    }
    if value.starts_with("unapproved") || is_request_uri_with_host(value) {
        return Vec::new();
    }
    let reason = format!(
        "protected groups must have approval annotation {} with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111",
        crdkit_apimachinery::field::go_quote(APPROVAL)
    );
    vec![FieldError::invalid(&at, value, reason)]
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
