//! Cross-checks against an independent encoder of the same messages: k8s-pb's prost types
//! (generated from the Kubernetes 1.35 protos by protoc and prost-build).
//!
//! - Our bytes, read by prost as the kind's type and written back, are the same bytes: every
//!   field number and wire type is the protos', fields come in number order, map entries
//!   sorted, nothing unknown (prost would drop it).
//! - Objects prost writes (sparse, as a non-Go client would) decode to the JSON Go writes.

use std::collections::BTreeMap;

use k8s_pb::api;
use k8s_pb::apimachinery::pkg::apis::meta::v1 as meta;
use k8s_pb::apimachinery::pkg::runtime::{TypeMeta, Unknown};
use k8s_pb::apimachinery::pkg::util::intstr::IntOrString;
use prost::Message;
use serde_json::json;

use crate::common::{SAMPLES, load};

fn reencode<T: Message + Default>(raw: &[u8]) -> Vec<u8> {
    T::decode(raw)
        .unwrap_or_else(|e| panic!("prost: {e}"))
        .encode_to_vec()
}

fn prost_reencode(api_version: &str, kind: &str, raw: &[u8]) -> Vec<u8> {
    use k8s_pb::apiextensions_apiserver::pkg::apis::apiextensions::v1 as apiextensions;
    match (api_version, kind) {
        ("v1", "ConfigMap") => reencode::<api::core::v1::ConfigMap>(raw),
        ("v1", "Event") => reencode::<api::core::v1::Event>(raw),
        ("v1", "Namespace") => reencode::<api::core::v1::Namespace>(raw),
        ("v1", "Pod") => reencode::<api::core::v1::Pod>(raw),
        ("v1", "Secret") => reencode::<api::core::v1::Secret>(raw),
        ("v1", "Service") => reencode::<api::core::v1::Service>(raw),
        ("v1", "Status") => reencode::<meta::Status>(raw),
        ("apps/v1", "ControllerRevision") => reencode::<api::apps::v1::ControllerRevision>(raw),
        ("apps/v1", "Deployment") => reencode::<api::apps::v1::Deployment>(raw),
        ("apps/v1", "DeploymentList") => reencode::<api::apps::v1::DeploymentList>(raw),
        ("batch/v1", "CronJob") => reencode::<api::batch::v1::CronJob>(raw),
        ("apiextensions.k8s.io/v1", "CustomResourceDefinition") => {
            reencode::<apiextensions::CustomResourceDefinition>(raw)
        }
        ("events.k8s.io/v1", "Event") => reencode::<api::events::v1::Event>(raw),
        ("autoscaling/v2", "HorizontalPodAutoscaler") => {
            reencode::<api::autoscaling::v2::HorizontalPodAutoscaler>(raw)
        }
        ("networking.k8s.io/v1", "Ingress") => reencode::<api::networking::v1::Ingress>(raw),
        ("coordination.k8s.io/v1", "Lease") => reencode::<api::coordination::v1::Lease>(raw),
        ("meta.k8s.io/v1", "PartialObjectMetadataList") => {
            reencode::<meta::PartialObjectMetadataList>(raw)
        }
        ("policy/v1", "PodDisruptionBudget") => {
            reencode::<api::policy::v1::PodDisruptionBudget>(raw)
        }
        ("rbac.authorization.k8s.io/v1", "ClusterRole") => {
            reencode::<api::rbac::v1::ClusterRole>(raw)
        }
        ("authorization.k8s.io/v1", "SelfSubjectAccessReview") => {
            reencode::<api::authorization::v1::SelfSubjectAccessReview>(raw)
        }
        ("apidiscovery.k8s.io/v2", "APIGroupDiscoveryList") => {
            reencode::<api::apidiscovery::v2::APIGroupDiscoveryList>(raw)
        }
        ("authentication.k8s.io/v1", "TokenReview") => {
            reencode::<api::authentication::v1::TokenReview>(raw)
        }
        other => panic!("no prost type for {other:?}"),
    }
}

#[test]
fn prost_reads_our_bytes_and_writes_them_back_identically() {
    for name in SAMPLES {
        let object = load(name);
        let bytes = crdkit_protobuf::encode(&object).unwrap();
        let body = bytes.strip_prefix(crdkit_protobuf::MAGIC).expect("magic");
        let unknown = Unknown::decode(body).unwrap();
        assert_eq!(unknown.encode_to_vec(), body, "{name}: envelope");
        let type_meta = unknown.type_meta.clone().unwrap();
        assert_eq!(
            type_meta.api_version.as_deref(),
            object["apiVersion"].as_str()
        );
        assert_eq!(type_meta.kind.as_deref(), object["kind"].as_str());
        assert_eq!(unknown.content_type.as_deref(), Some(""));
        let raw = unknown.raw.unwrap();
        let again = prost_reencode(
            object["apiVersion"].as_str().unwrap(),
            object["kind"].as_str().unwrap(),
            &raw,
        );
        assert_eq!(again, raw, "{name}: prost wrote back other bytes");
    }
}

fn envelope(api_version: &str, kind: &str, raw: Vec<u8>) -> Vec<u8> {
    let unknown = Unknown {
        type_meta: Some(TypeMeta {
            api_version: Some(api_version.into()),
            kind: Some(kind.into()),
        }),
        raw: Some(raw),
        content_encoding: Some(String::new()),
        content_type: Some(String::new()),
    };
    [&crdkit_protobuf::MAGIC[..], &unknown.encode_to_vec()].concat()
}

fn meta(name: &str) -> Option<meta::ObjectMeta> {
    Some(meta::ObjectMeta {
        name: Some(name.into()),
        namespace: Some("default".into()),
        ..Default::default()
    })
}

#[test]
fn sparse_prost_objects_decode_as_go_writes_them() {
    let cm = api::core::v1::ConfigMap {
        metadata: meta("cfg"),
        data: BTreeMap::from([("k".into(), "v".into())]),
        binary_data: BTreeMap::from([("b".into(), vec![0, 1]), ("nil".into(), vec![])]),
        immutable: Some(true),
    };
    assert_eq!(
        crdkit_protobuf::decode(&envelope("v1", "ConfigMap", cm.encode_to_vec())).unwrap(),
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cfg", "namespace": "default"},
               "data": {"k": "v"}, "binaryData": {"b": "AAE=", "nil": ""}, "immutable": true})
    );

    let svc = api::core::v1::Service {
        metadata: meta("web"),
        spec: Some(api::core::v1::ServiceSpec {
            ports: vec![api::core::v1::ServicePort {
                port: Some(80),
                target_port: Some(IntOrString {
                    r#type: Some(1),
                    int_val: None,
                    str_val: Some("http".into()),
                }),
                ..Default::default()
            }],
            ..Default::default()
        }),
        status: None,
    };
    assert_eq!(
        crdkit_protobuf::decode(&envelope("v1", "Service", svc.encode_to_vec())).unwrap(),
        json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web", "namespace": "default"},
               "spec": {"ports": [{"port": 80, "targetPort": "http"}]},
               "status": {"loadBalancer": {}}})
    );

    let lease = api::coordination::v1::Lease {
        metadata: meta("leader"),
        spec: Some(api::coordination::v1::LeaseSpec {
            holder_identity: Some("a".into()),
            renew_time: Some(meta::MicroTime {
                seconds: Some(1_714_979_289),
                nanos: Some(123_456_789),
            }),
            lease_duration_seconds: Some(0),
            ..Default::default()
        }),
    };
    assert_eq!(
        crdkit_protobuf::decode(&envelope(
            "coordination.k8s.io/v1",
            "Lease",
            lease.encode_to_vec()
        ))
        .unwrap(),
        json!({"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "leader", "namespace": "default"},
               "spec": {"holderIdentity": "a", "renewTime": "2024-05-06T07:08:09.123456Z", "leaseDurationSeconds": 0}})
    );

    let ns = api::core::v1::Namespace {
        metadata: Some(meta::ObjectMeta {
            name: Some("n".into()),
            creation_timestamp: Some(meta::Time {
                seconds: Some(1_714_979_289),
                nanos: Some(999),
            }),
            deletion_timestamp: Some(meta::Time {
                seconds: Some(0),
                nanos: Some(0),
            }),
            ..Default::default()
        }),
        spec: None,
        status: None,
    };
    assert_eq!(
        crdkit_protobuf::decode(&envelope("v1", "Namespace", ns.encode_to_vec())).unwrap(),
        json!({"apiVersion": "v1", "kind": "Namespace",
               "metadata": {"name": "n", "creationTimestamp": "2024-05-06T07:08:09Z", "deletionTimestamp": "1970-01-01T00:00:00Z"},
               "spec": {}, "status": {}})
    );
}
