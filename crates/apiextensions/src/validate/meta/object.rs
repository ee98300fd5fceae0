//! `ValidateObjectMetaAccessor` for create, one rule per field, so that the typed validator can
//! apply them to `metadata` as it streams by.
//!
//! Mirrors apimachinery `pkg/api/validation/objectmeta.go` (name, generateName, namespace,
//! generation, labels, annotations, owner references, finalizers). Every rule takes the path of
//! `metadata` as a [`LazyPath`], built only when a rule fails.

use serde_json::{Map, Value};

use crate::objectmeta::is_decoded_field;
use crate::walk::trail::LazyPath;
use crdkit_apimachinery::field::{BadValue, FieldError};
use crdkit_apimachinery::names;

/// The most bytes all annotations may take together.
pub(crate) const ANNOTATIONS_MAX: usize = 256 * 1024;

/// How names are checked: the root's must be DNS subdomains, embedded ones path segments.
#[derive(Clone, Copy)]
pub(crate) enum NameRule {
    DnsSubdomain,
    PathSegment,
}

fn name_errors(rule: NameRule, name: &str, prefix: bool) -> Vec<String> {
    match rule {
        NameRule::DnsSubdomain => names::name_is_dns_subdomain(name, prefix),
        NameRule::PathSegment => names::path_segment_name(name, prefix),
    }
}

/// Whether `names::dns1123_subdomain` finds nothing wrong with `s`, decided in one pass over its
/// bytes: at most 253 of them, dot-separated labels of `[a-z0-9-]` that start and end with an
/// alphanumeric character.
pub(crate) fn is_dns1123_subdomain(s: &str) -> bool {
    // 1: alphanumeric, 2: `-`, 3: `.`, 0: anything else.
    const CLASS: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut b = 0;
        while b < 256 {
            t[b] = match b as u8 {
                b'a'..=b'z' | b'0'..=b'9' => 1,
                b'-' => 2,
                b'.' => 3,
                _ => 0,
            };
            b += 1;
        }
        t
    };
    let b = s.as_bytes();
    let (Some(&first), Some(&last)) = (b.first(), b.last()) else {
        return false;
    };
    if b.len() > 253 || CLASS[usize::from(first)] != 1 || CLASS[usize::from(last)] != 1 {
        return false;
    }
    let mut prev = 1;
    for &c in b {
        let class = CLASS[usize::from(c)];
        // A dot must follow an alphanumeric character, a dash must not follow a dot.
        if class == 0 || (class == 3 && prev != 1) || (class == 2 && prev == 3) {
            return false;
        }
        prev = class;
    }
    true
}

pub(crate) fn str_field<'a>(m: &'a Map<String, Value>, k: &str) -> &'a str {
    m.get(k).and_then(Value::as_str).unwrap_or("")
}

/// The fields of decoded `metadata` that the rules read, gathered in one pass.
#[derive(Default)]
pub(crate) struct Fields<'a> {
    pub(crate) name: &'a str,
    pub(crate) generate_name: &'a str,
    pub(crate) namespace: &'a str,
    generation: Option<i64>,
    labels: Option<&'a Map<String, Value>>,
    annotations: Option<&'a Map<String, Value>>,
    owner_references: Option<&'a [Value]>,
    finalizers: Option<&'a [Value]>,
}

impl<'a> Fields<'a> {
    pub(crate) fn of(m: &'a Map<String, Value>) -> Fields<'a> {
        let mut f = Fields::default();
        for (k, v) in m {
            f.read(k, v);
        }
        f
    }

    /// Reads the fields of `metadata` already in its decoded form, in the same pass as that is
    /// checked ([`is_decoded`](crate::objectmeta::is_decoded)); false when it is not. (Filled in
    /// place: returned by value, the struct is copied whole right after being written field by
    /// field, which stalls.)
    pub(crate) fn read_decoded(&mut self, m: &'a Map<String, Value>) -> bool {
        let mut prev: Option<&str> = None;
        for (k, v) in m {
            if prev.is_some_and(|p| p >= k.as_str()) || !is_decoded_field(k, v) {
                return false;
            }
            prev = Some(k);
            self.read(k, v);
        }
        true
    }

    fn read(&mut self, k: &str, v: &'a Value) {
        match (k, v) {
            ("name", _) => self.name = v.as_str().unwrap_or(""),
            ("generateName", _) => self.generate_name = v.as_str().unwrap_or(""),
            ("namespace", _) => self.namespace = v.as_str().unwrap_or(""),
            ("generation", _) => self.generation = v.as_i64(),
            ("labels", Value::Object(labels)) => self.labels = Some(labels),
            ("annotations", Value::Object(annotations)) => self.annotations = Some(annotations),
            ("ownerReferences", Value::Array(refs)) => self.owner_references = Some(refs),
            ("finalizers", Value::Array(list)) => self.finalizers = Some(list),
            _ => {}
        }
    }
}

/// `ValidateObjectMetaAccessor` for create, on decoded `metadata`, with `name` standing for its
/// name (the registry or the embedded-resource check may have made one up).
pub(crate) fn object_meta(
    m: &Fields,
    name: &str,
    namespaced: Option<bool>,
    rule: NameRule,
    path: &LazyPath,
    errs: &mut Vec<FieldError>,
) {
    generate_name(rule, m.generate_name, path, errs);
    self::name(rule, name, path, errs);
    namespace(namespaced, m.namespace, path, errs);
    generation(m.generation, path, errs);
    if let Some(labels) = m.labels {
        for (k, v) in labels {
            label(k, v.as_str().unwrap_or(""), path, errs);
        }
    }
    if let Some(annotations) = m.annotations {
        let mut size = 0usize;
        for (k, v) in annotations {
            annotation_key(k, path, errs);
            size += k.len() + v.as_str().map_or(0, str::len);
        }
        annotations_size(size, path, errs);
    }
    if let Some(refs) = m.owner_references {
        owner_references(refs, path, errs);
    }
    if let Some(list) = m.finalizers {
        finalizers(list, path, errs);
    }
}

/// `generateName`, when set.
#[inline]
pub(crate) fn generate_name(
    rule: NameRule,
    generate_name: &str,
    path: &LazyPath,
    errs: &mut Vec<FieldError>,
) {
    if !generate_name.is_empty() {
        for msg in name_errors(rule, generate_name, true) {
            errs.push(FieldError::invalid(
                &path.get().child("generateName"),
                generate_name,
                msg,
            ));
        }
    }
}

/// `name`, required.
pub(crate) fn name(rule: NameRule, name: &str, path: &LazyPath, errs: &mut Vec<FieldError>) {
    if matches!(rule, NameRule::DnsSubdomain) && is_dns1123_subdomain(name) {
        return;
    }
    if name.is_empty() {
        errs.push(FieldError::required(
            &path.get().child("name"),
            "name or generateName is required",
        ));
    } else {
        for msg in name_errors(rule, name, false) {
            errs.push(FieldError::invalid(&path.get().child("name"), name, msg));
        }
    }
}

/// `namespace`, required (`Some(true)`), forbidden (`Some(false)`) or checked when set.
#[inline]
pub(crate) fn namespace(
    namespaced: Option<bool>,
    namespace: &str,
    path: &LazyPath,
    errs: &mut Vec<FieldError>,
) {
    match namespaced {
        Some(true) if namespace.is_empty() => {
            errs.push(FieldError::required(&path.get().child("namespace"), ""));
        }
        Some(false) if !namespace.is_empty() => {
            errs.push(FieldError::forbidden(
                &path.get().child("namespace"),
                "not allowed on this type",
            ));
        }
        _ if !namespace.is_empty() => {
            for msg in names::dns1123_label(namespace) {
                errs.push(FieldError::invalid(
                    &path.get().child("namespace"),
                    namespace,
                    msg,
                ));
            }
        }
        _ => {}
    }
}

#[inline]
pub(crate) fn generation(g: Option<i64>, path: &LazyPath, errs: &mut Vec<FieldError>) {
    if let Some(g) = g
        && g < 0
    {
        errs.push(FieldError::invalid(
            &path.get().child("generation"),
            g,
            "must be greater than or equal to 0",
        ));
    }
}

/// One label (a `null` value decodes to `""`).
pub(crate) fn label(k: &str, v: &str, path: &LazyPath, errs: &mut Vec<FieldError>) {
    for msg in names::label_key(k) {
        errs.push(FieldError::invalid(&path.get().child("labels"), k, msg));
    }
    for msg in names::label_value(v) {
        errs.push(FieldError::invalid(&path.get().child("labels"), v, msg));
    }
}

/// The key of one annotation (checked in lower case).
pub(crate) fn annotation_key(k: &str, path: &LazyPath, errs: &mut Vec<FieldError>) {
    let lower = if k.bytes().any(|b| b.is_ascii_uppercase()) || !k.is_ascii() {
        std::borrow::Cow::Owned(k.to_lowercase())
    } else {
        std::borrow::Cow::Borrowed(k)
    };
    for msg in names::label_key(&lower) {
        errs.push(FieldError::invalid(
            &path.get().child("annotations"),
            k,
            msg,
        ));
    }
}

/// The bytes of all annotations' keys and values.
#[inline]
pub(crate) fn annotations_size(size: usize, path: &LazyPath, errs: &mut Vec<FieldError>) {
    if size > ANNOTATIONS_MAX {
        errs.push(FieldError::too_long(
            &path.get().child("annotations"),
            256 * 1024,
        ));
    }
}

pub(crate) fn finalizers(list: &[Value], path: &LazyPath, errs: &mut Vec<FieldError>) {
    for f in list.iter().filter_map(Value::as_str) {
        for msg in names::label_key(f) {
            errs.push(FieldError::invalid(&path.get().child("finalizers"), f, msg));
        }
    }
    let has = |s: &str| list.iter().any(|f| f.as_str() == Some(s));
    if has("orphan") && has("foregroundDeletion") {
        errs.push(FieldError::invalid(
            &path.get().child("finalizers"),
            BadValue::Json(Value::Array(list.to_vec())),
            "finalizer orphan and foregroundDeletion cannot be both set",
        ));
    }
}

pub(crate) fn owner_references(refs: &[Value], path: &LazyPath, errs: &mut Vec<FieldError>) {
    let path = path.get().child("ownerReferences");
    let mut first_controller = String::new();
    for (i, r) in refs.iter().enumerate() {
        let Some(r) = r.as_object() else { continue };
        let p = path.index(i);
        let api_version = str_field(r, "apiVersion");
        if api_version.is_empty() {
            errs.push(FieldError::required(
                &p.child("apiVersion"),
                "must not be empty",
            ));
        } else if parse_group_version(api_version).is_err() || api_version.ends_with('/') {
            errs.push(FieldError::invalid(
                &p.child("apiVersion"),
                api_version,
                "must be <group>/<version> or <version>",
            ));
        }
        for k in ["kind", "name", "uid"] {
            if str_field(r, k).is_empty() {
                errs.push(FieldError::required(&p.child(k), "must not be empty"));
            }
        }
        if r.get("controller").and_then(Value::as_bool) == Some(true) {
            let cur = format!("{}/{}", str_field(r, "kind"), str_field(r, "name"));
            if first_controller.is_empty() {
                first_controller = cur;
            } else {
                errs.push(FieldError::invalid(&path, BadValue::Json(Value::Array(refs.to_vec())), format!("Only one reference can have Controller set to true. Found \"true\" in references for {first_controller} and {cur}")));
            }
        }
    }
}

/// `schema.ParseGroupVersion`.
pub(crate) fn parse_group_version(s: &str) -> Result<(), String> {
    if s.matches('/').count() > 1 {
        Err(format!("unexpected GroupVersion string: {s}"))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subdomain_fast_path_agrees() {
        let alphabet = ["a", "z", "0", "9", "-", ".", "A", "_", "é"];
        let mut names = vec![String::new(), "a".repeat(253), "a".repeat(254)];
        // Every string of up to four characters from the alphabet.
        let mut frontier = vec![String::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for s in &frontier {
                for c in alphabet {
                    next.push(format!("{s}{c}"));
                }
            }
            names.extend(next.iter().cloned());
            frontier = next;
        }
        for n in names {
            assert_eq!(
                is_dns1123_subdomain(&n),
                names::dns1123_subdomain(&n).is_empty(),
                "{n:?}"
            );
        }
    }
}
