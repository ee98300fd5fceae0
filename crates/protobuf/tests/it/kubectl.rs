//! Against Go itself: the bodies kubectl 1.32 sends (`tests/data/kubectl`, see its README)
//! decode to the JSON kubectl prints for them, and encode back to the very bytes Go wrote; and
//! Go reads our bytes of rich objects as we do.

use serde_json::Value;

use crate::common::{hex, load};

const BODIES: &[&str] = &[
    "configmap",
    "secret-generic",
    "deployment",
    "service-nodeport",
    "service-clusterip",
    "cronjob",
    "job",
    "namespace",
    "serviceaccount",
    "role",
    "clusterrole",
    "rolebinding",
    "ingress",
    "poddisruptionbudget",
    "priorityclass",
    "resourcequota",
    "clusterrolebinding",
];

/// kubectl 1.32's Go writes a zero `creationTimestamp` as null; since 1.35 it is `omitzero`.
fn drop_null_creation_timestamps(v: &mut Value) {
    match v {
        Value::Object(map) => {
            if map.get("creationTimestamp") == Some(&Value::Null) {
                map.remove("creationTimestamp");
            }
            map.values_mut().for_each(drop_null_creation_timestamps);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_null_creation_timestamps),
        _ => {}
    }
}

#[test]
fn kubectl_bodies_decode_as_go_prints_them_and_encode_to_gos_bytes() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/kubectl");
    for name in BODIES {
        let body = std::fs::read(format!("{dir}/{name}.pb")).unwrap();
        let mut go: Value =
            serde_json::from_str(&std::fs::read_to_string(format!("{dir}/{name}.json")).unwrap())
                .unwrap();
        drop_null_creation_timestamps(&mut go);
        let decoded = crdkit_protobuf::decode(&body).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(decoded, go, "{name}: decoded JSON");
        let encoded = crdkit_protobuf::encode(&decoded).unwrap();
        assert_eq!(hex(&encoded), hex(&body), "{name}: bytes differ from Go's");
        // The JSON kubectl read from the YAML it was given encodes to Go's bytes too.
        assert_eq!(crdkit_protobuf::encode(&go).unwrap(), body, "{name}");
    }
}

/// Go reads this crate's bytes of rich objects (every field of `tests/data/pod.json`...) as
/// this crate reads them: kubectl 1.32 printed `read/<sample>.json` from them.
#[test]
fn kubectl_reads_our_bytes_as_we_do() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/kubectl/read");
    for name in [
        "configmap",
        "cronjob",
        "deployment",
        "ingress",
        "pdb",
        "pod",
        "role",
        "secret",
        "service",
    ] {
        let mut go: Value =
            serde_json::from_str(&std::fs::read_to_string(format!("{dir}/{name}.json")).unwrap())
                .unwrap();
        drop_null_creation_timestamps(&mut go);
        let ours = crdkit_protobuf::decode(&crdkit_protobuf::encode(&load(name)).unwrap()).unwrap();
        assert_eq!(ours, go, "{name}");
    }
}
