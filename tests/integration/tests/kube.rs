//! `Api<CronTab>` over a mock API server, and the CRD as k8s-openapi's type.

use crdkit::kube::KubeCrdExt;
use crdkit_integration_tests::{CronTab, CronTabSpec};
use kube::{Api, Client, Resource, ResourceExt};
use serde_json::json;

#[test]
fn resource_impl_matches_the_crd() {
    assert_eq!(CronTab::kind(&()), "CronTab");
    assert_eq!(CronTab::group(&()), "stable.example.com");
    assert_eq!(CronTab::api_version(&()), "stable.example.com/v1");
    assert_eq!(CronTab::plural(&()), "crontabs");
    assert_eq!(
        CronTab::url_path(&(), Some("ns")),
        "/apis/stable.example.com/v1/namespaces/ns/crontabs"
    );
    let ct = CronTab::new("x", CronTabSpec::default());
    assert_eq!(ct.name_any(), "x");
}

/// Code generic over kube-core's `HasSpec`/`HasStatus` (as written for kube-derive types)
/// takes crdkit resources; a resource without status has `HasSpec` only.
#[test]
fn has_spec_and_status() {
    use kube::core::object::{HasSpec, HasStatus};
    fn replicas<K: HasSpec<Spec = CronTabSpec> + HasStatus>(k: &mut K) -> bool {
        k.spec_mut().replicas += 1;
        k.status().is_none() && k.status_mut().is_none()
    }
    let mut ct = CronTab::new("x", CronTabSpec::default());
    let before = ct.spec.replicas;
    assert!(replicas(&mut ct));
    assert_eq!(ct.spec().replicas, before + 1);

    #[derive(crdkit::CustomResource, serde::Serialize, serde::Deserialize, Clone, Debug)]
    #[crd(group = "x.example.com", version = "v1", kind = "Plain")]
    struct PlainSpec {
        n: i64,
    }
    fn spec_of<K: HasSpec>(k: &K) -> &K::Spec {
        k.spec()
    }
    assert_eq!(spec_of(&Plain::new("p", PlainSpec { n: 7 })).n, 7);
}

#[test]
fn crd_converts_to_k8s_openapi() {
    let crd = CronTab::k8s_crd().expect("k8s-openapi CRD");
    assert_eq!(
        crd.metadata.name.as_deref(),
        Some("crontabs.stable.example.com")
    );
    let v = &crd.spec.versions[0];
    let schema = v
        .schema
        .as_ref()
        .unwrap()
        .open_api_v3_schema
        .as_ref()
        .unwrap();
    let spec = &schema.properties.as_ref().unwrap()["spec"];
    let props = spec.properties.as_ref().unwrap();
    assert_eq!(props["memory"].x_kubernetes_int_or_string, Some(true));
    assert_eq!(props["port"].x_kubernetes_int_or_string, Some(true));
    assert_eq!(
        props["selector"].x_kubernetes_map_type.as_deref(),
        Some("atomic")
    );
    let status = &schema.properties.as_ref().unwrap()["status"];
    let conditions = &status.properties.as_ref().unwrap()["conditions"];
    assert_eq!(conditions.x_kubernetes_list_type.as_deref(), Some("map"));
    assert!(v.subresources.as_ref().unwrap().scale.is_some());
    // Same document as crdkit's own type, up to k8s-openapi writing `1` as `1.0`.
    assert_eq!(
        integral(serde_json::to_value(&crd).unwrap()),
        integral(CronTab::crd().unwrap().to_value())
    );
}

#[tokio::test]
async fn api_get_goes_through_kube() {
    let (service, mut handle) = tower_test::mock::pair::<
        http::Request<kube::client::Body>,
        http::Response<kube::client::Body>,
    >();
    let server = tokio::spawn(async move {
        let (request, send) = handle.next_request().await.expect("a request");
        assert_eq!(request.method(), http::Method::GET);
        assert_eq!(
            request.uri().path(),
            "/apis/stable.example.com/v1/namespaces/default/crontabs/my-new-cron-object"
        );
        let body = json!({
            "apiVersion": "stable.example.com/v1",
            "kind": "CronTab",
            "metadata": {"name": "my-new-cron-object", "namespace": "default"},
            "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image", "replicas": 3},
            "status": {"replicas": 3}
        });
        send.send_response(
            http::Response::builder()
                .body(kube::client::Body::from(serde_json::to_vec(&body).unwrap()))
                .unwrap(),
        );
    });
    let client = Client::new(service, "default");
    let api: Api<CronTab> = Api::default_namespaced(client);
    let ct = api.get("my-new-cron-object").await.expect("get");
    assert_eq!(ct.spec.replicas, 3);
    assert_eq!(ct.status.as_ref().map(|s| s.replicas), Some(3));
    server.await.unwrap();
}

fn integral(v: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match v {
        Value::Object(m) => Value::Object(m.into_iter().map(|(k, v)| (k, integral(v))).collect()),
        Value::Array(a) => Value::Array(a.into_iter().map(integral).collect()),
        Value::Number(n) => match n.as_f64() {
            #[allow(clippy::cast_possible_truncation)]
            Some(f) if f.fract() == 0.0 => Value::from(f as i64),
            _ => Value::Number(n),
        },
        other => other,
    }
}
