//! What `crdgen validate` does with each document, decided before anything is printed: a CRD
//! to check, an object and what admits it, or why it is skipped or cannot be checked.

use std::io::Write;

use serde_json::Value as Json;

use super::args::Options;
use super::inputs::Entry;
use crate::crds::{is_crd, read_crd};
use crate::load::{Document, LoadError};
use crate::registry::{Found, Registry};
use crdkit_schema::crd::CustomResourceDefinition;

/// What to do with one document of the input.
pub(super) enum Step<'a> {
    /// A CRD: checked as `crdgen check` does, and known to the objects after it.
    Crd(&'a Document, Box<CustomResourceDefinition>),
    /// An object, its target in the registry, and its stored version (`--old`), read at the
    /// object's version.
    Object(&'a Document, usize, Option<Json>),
    /// An object of a kind nobody has.
    Unknown(&'a Document, String),
    /// An object of a version its CRD does not serve.
    NotServed(&'a Document, String),
    /// A document that is no Kubernetes object, and why (`--non-kubernetes`).
    NotKubernetes(&'a Document, String),
    /// A document that cannot be checked (at the document named, which may be the stored
    /// object it needs), and why.
    Error(&'a Document, String),
    /// A file (or CRD document) that cannot be read.
    Unreadable(&'a LoadError),
}

/// What a document is, from its `apiVersion` and `kind`.
enum TypeMeta {
    /// Both given: a Kubernetes object (of a kind that may or may not be known).
    Object,
    /// No Kubernetes object, and why.
    NotKubernetes(String),
    /// Only one of the two: an error of the document.
    Incomplete(String),
}

/// kustomize's own kinds, which sit beside manifests but are never sent to an API server.
const KUSTOMIZE_GROUP: &str = "kustomize.config.k8s.io";
const KUSTOMIZE_KINDS: &[&str] = &["Kustomization", "Component"];

fn type_meta(v: &Json) -> TypeMeta {
    // A key given as null or "" is missing, as Go's decoder reads it.
    let given = |k: &str| {
        v.get(k)
            .is_some_and(|x| !x.is_null() && x.as_str() != Some(""))
    };
    match (given("apiVersion"), given("kind")) {
        (false, false) => TypeMeta::NotKubernetes(
            "not a Kubernetes object: it has neither apiVersion nor kind".to_owned(),
        ),
        // apimachinery `runtime/error.go`: what the unstructured decoder (`unstructured.go`)
        // answers, with the object's JSON as Go's encoder writes it; kind is looked at first.
        (true, false) => TypeMeta::Incomplete(format!(
            "Object 'Kind' is missing in '{}'",
            crdkit_apimachinery::gofmt::json(v)
        )),
        (false, true) => TypeMeta::Incomplete(format!(
            "Object 'apiVersion' is missing in '{}'",
            crdkit_apimachinery::gofmt::json(v)
        )),
        (true, true) => {
            let s = |k: &str| v.get(k).and_then(Json::as_str).unwrap_or_default();
            let (api_version, kind) = (s("apiVersion"), s("kind"));
            let group = api_version.rsplit_once('/').map_or("", |(g, _)| g);
            if group == KUSTOMIZE_GROUP && KUSTOMIZE_KINDS.contains(&kind) {
                TypeMeta::NotKubernetes(format!(
                    "not a Kubernetes object: {api_version} {kind} is kustomize's configuration"
                ))
            } else {
                TypeMeta::Object
            }
        }
    }
}

/// Matches every entry to what happens to it, in input order.
pub(super) fn plan<'a>(
    o: &Options,
    registry: &mut Registry,
    entries: &'a [Entry],
    olds: &'a [Document],
    err: &mut dyn Write,
) -> Vec<Step<'a>> {
    let objects = entries
        .iter()
        .filter(|e| matches!(e, Entry::Doc(_)))
        .count();
    let single_pair = olds.len() == 1 && objects == 1;
    entries
        .iter()
        .map(|entry| match entry {
            Entry::Unreadable(e) => Step::Unreadable(e),
            Entry::Doc(doc) => step(o, registry, doc, olds, single_pair, err),
        })
        .collect()
}

fn step<'a>(
    o: &Options,
    registry: &mut Registry,
    doc: &'a Document,
    olds: &'a [Document],
    single_pair: bool,
    err: &mut dyn Write,
) -> Step<'a> {
    match type_meta(&doc.value) {
        TypeMeta::Object => {}
        TypeMeta::NotKubernetes(why) => return Step::NotKubernetes(doc, why),
        TypeMeta::Incomplete(why) => return Step::Error(doc, why),
    }
    if is_crd(&doc.value) {
        return match read_crd(doc) {
            Ok(crd) => {
                registry.add_crd(doc.position(), crd.clone(), false);
                Step::Crd(doc, Box::new(crd))
            }
            Err(e) => Step::Error(doc, e.message),
        };
    }
    let target = match registry.find(doc, err) {
        Ok(Found::Target(i)) => i,
        Ok(Found::Unknown(message)) => return Step::Unknown(doc, message),
        Ok(Found::NotServed(message)) => return Step::NotServed(doc, message),
        Err(why) => return Step::Error(doc, why),
    };
    let old = if single_pair {
        olds.first()
    } else {
        // The stored object may be at another version of the kind.
        olds.iter()
            .find(|old| same_object(old, doc, true))
            .or_else(|| olds.iter().find(|old| same_object(old, doc, false)))
    };
    if o.status_subresource {
        let t = registry.target(target);
        if old.is_none() {
            return Step::Error(
                doc,
                "no stored object in the --old files to update".to_owned(),
            );
        }
        if !t.admission.has_status_subresource() {
            return Step::Error(
                doc,
                format!("the {} resource has no status subresource", t.kind),
            );
        }
    }
    // An update at another version than the stored one: the API server reads the stored
    // object at the request's version first.
    let stored = match old {
        Some(old) => match registry.target(target).read_stored(&old.value) {
            Ok(stored) => Some(stored),
            Err(why) => return Step::Error(old, why),
        },
        None => None,
    };
    Step::Object(doc, target, stored)
}

/// The same object in the old and new files: same kind, namespace and name, and the same
/// `apiVersion` (`same_version`) or only the same group.
fn same_object(a: &Document, b: &Document, same_version: bool) -> bool {
    let key = |d: &Document| {
        [
            "/apiVersion",
            "/kind",
            "/metadata/namespace",
            "/metadata/name",
        ]
        .map(|p| {
            let s = d
                .value
                .pointer(p)
                .and_then(Json::as_str)
                .unwrap_or_default();
            if p == "/apiVersion" && !same_version {
                s.rsplit_once('/').map_or("", |(g, _)| g).to_owned()
            } else {
                s.to_owned()
            }
        })
    };
    key(a) == key(b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn why(v: Json) -> String {
        match type_meta(&v) {
            TypeMeta::Object => "object".to_owned(),
            TypeMeta::NotKubernetes(w) => format!("skip: {w}"),
            TypeMeta::Incomplete(w) => format!("error: {w}"),
        }
    }

    #[test]
    fn what_a_document_is() {
        assert_eq!(why(json!({"apiVersion": "v1", "kind": "Pod"})), "object");
        assert_eq!(
            why(json!({"global": {"scrape_interval": "15s"}})),
            "skip: not a Kubernetes object: it has neither apiVersion nor kind"
        );
        // Documents that are no mappings, and empty or null type fields.
        for v in [
            json!([1, 2]),
            json!("text"),
            json!({"apiVersion": null, "kind": ""}),
        ] {
            assert!(why(v).starts_with("skip: "));
        }
        assert_eq!(
            why(json!({"apiVersion": "kustomize.config.k8s.io/v1beta1", "kind": "Kustomization"})),
            "skip: not a Kubernetes object: kustomize.config.k8s.io/v1beta1 Kustomization is kustomize's configuration"
        );
        assert!(
            why(json!({"apiVersion": "kustomize.config.k8s.io/v1alpha1", "kind": "Component"}))
                .starts_with("skip: ")
        );
        // Another kind of kustomize's group is an object of an unknown kind, as kubectl sees it.
        assert_eq!(
            why(json!({"apiVersion": "kustomize.config.k8s.io/v1", "kind": "Other"})),
            "object"
        );
        assert_eq!(
            why(json!({"apiVersion": "v2", "name": "chart", "x": "<&>"})),
            r#"error: Object 'Kind' is missing in '{"apiVersion":"v2","name":"chart","x":"\u003c\u0026\u003e"}'"#
        );
        assert_eq!(
            why(json!({"kind": "Pod"})),
            r#"error: Object 'apiVersion' is missing in '{"kind":"Pod"}'"#
        );
    }
}
