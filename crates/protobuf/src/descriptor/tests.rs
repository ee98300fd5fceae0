//! The descriptors against an independent source: the `OpenAPI` definitions Kubernetes 1.35
//! publishes (`crates/builtin/data/kubernetes-openapi.json`, derived from kubernetes/kubernetes
//! `api/openapi-spec`). Their property names are the Go JSON names, so every message of a
//! published definition must have exactly its properties (`apiVersion` and `kind` aside,
//! which protobuf carries in the envelope), and every published kind must have a message.

use std::collections::BTreeSet;

use serde_json::Value;

use super::{Label, MessageId, Registry, Type, registry};

fn definition_name(reg: &Registry, id: MessageId) -> Option<String> {
    let full = reg.full_name(id);
    let (prefix, rest) = [
        ("k8s.io.api.", "io.k8s.api."),
        (
            "k8s.io.apimachinery.pkg.apis.meta.v1.",
            "io.k8s.apimachinery.pkg.apis.meta.v1.",
        ),
        (
            "k8s.io.apiextensions_apiserver.pkg.apis.",
            "io.k8s.apiextensions-apiserver.pkg.apis.",
        ),
        (
            "k8s.io.kube_aggregator.pkg.apis.",
            "io.k8s.kube-aggregator.pkg.apis.",
        ),
    ]
    .into_iter()
    .find_map(|(p, q)| full.strip_prefix(p).map(|rest| (q, rest)))?;
    Some(format!("{prefix}{rest}"))
}

/// The JSON names a message writes, embedded structs' included.
fn json_names(reg: &Registry, id: MessageId, out: &mut BTreeSet<String>) {
    for f in &reg.message(id).fields {
        match (f.inline, f.ty, f.json) {
            (true, Type::Message(m), _) => json_names(reg, m, out),
            (false, _, Some(name)) => {
                out.insert(name.to_owned());
            }
            _ => {}
        }
    }
}

#[test]
fn json_names_are_the_published_properties_and_every_kind_has_a_message() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../builtin/data/kubernetes-openapi.json"
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let in_135: BTreeSet<u64> = doc["versions"]["1.35"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    let definitions: std::collections::BTreeMap<&str, &Value> = doc["definitions"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(i, _)| in_135.contains(&(*i as u64)))
        .map(|(_, d)| (d[0].as_str().unwrap(), &d[1]))
        .collect();
    let reg = registry();
    let mut compared = 0;
    for i in 0..reg.messages.len() {
        let id = MessageId(u32::try_from(i).unwrap());
        if reg.message(id).special.is_some() {
            continue;
        }
        let Some(def) = definition_name(reg, id).and_then(|n| definitions.get(n.as_str()).copied())
        else {
            continue;
        };
        let Some(props) = def.get("properties").and_then(Value::as_object) else {
            continue;
        };
        let mut ours = BTreeSet::new();
        json_names(reg, id, &mut ours);
        // TypeMeta's `apiVersion` and `kind` are the envelope's, unless the message has its own.
        let published: BTreeSet<String> = props
            .keys()
            .filter(|k| ours.contains(*k) || (*k != "apiVersion" && *k != "kind"))
            .cloned()
            .collect();
        assert_eq!(ours, published, "{}", reg.full_name(id));
        compared += 1;
    }
    assert!(compared > 600, "only {compared} messages compared");
    let mut kinds = 0;
    for def in definitions.values() {
        for gvk in def
            .get("x-kubernetes-group-version-kind")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let (g, v, k) = (
                gvk["group"].as_str().unwrap(),
                gvk["version"].as_str().unwrap(),
                gvk["kind"].as_str().unwrap(),
            );
            let gv = if g.is_empty() {
                v.to_owned()
            } else {
                format!("{g}/{v}")
            };
            // meta.k8s.io kinds the API server writes as JSON only (Table has no message).
            if k == "Table"
                || (g == "meta.k8s.io" && reg.kind(&gv, k).is_none() && reg.kind("v1", k).is_some())
            {
                continue;
            }
            assert!(reg.kind(&gv, k).is_some(), "no message for {gv} {k}");
            kinds += 1;
        }
    }
    assert!(kinds > 150, "only {kinds} kinds");
}

#[test]
fn maps_and_lists_are_typed() {
    let reg = registry();
    let cm = reg.kind("v1", "ConfigMap").unwrap();
    let labels = reg
        .message(cm)
        .fields
        .iter()
        .find(|f| f.json == Some("binaryData"))
        .unwrap();
    assert!(matches!(labels.label, Label::Map(_)));
}
