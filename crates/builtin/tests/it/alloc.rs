//! Service IP and node port allocation: facts of kubernetes
//! `pkg/registry/core/service/storage/storage_test.go` and the allocators' errors.

use crdkit_builtin::defaults::{AllocError, ServiceAllocator, prepare_for_update};
use crdkit_builtin::validation;
use serde_json::{Value, json};

use crate::support::defaulted;

fn svc(spec: Value) -> Value {
    defaulted(
        "v1",
        "Service",
        json!({"metadata": {"name": "s", "namespace": "ns"}, "spec": spec}),
    )
}

fn messages(e: &AllocError) -> Vec<String> {
    match e {
        AllocError::Invalid(errs) => errs.iter().map(ToString::to_string).collect(),
        AllocError::Internal(m) => vec![m.clone()],
    }
}

#[test]
fn cluster_ip_services_get_an_address_and_families() {
    let mut a = ServiceAllocator::default();
    let mut s = svc(json!({"selector": {"app": "web"}, "ports": [{"port": 80}]}));
    a.allocate_create(&mut s).unwrap();
    let spec = &s["spec"];
    assert_eq!(spec["clusterIP"], spec["clusterIPs"][0]);
    assert_eq!(spec["ipFamilies"], json!(["IPv4"]));
    assert_eq!(spec["ipFamilyPolicy"], "SingleStack");
    let ip = spec["clusterIP"].as_str().unwrap();
    assert!(ip.starts_with("10.9") || ip.starts_with("10.1"), "{ip}");
    assert!(spec["ports"][0].get("nodePort").is_none());
    let errs = validation::validate_create("v1", "Service", &s);
    assert!(errs.is_empty(), "{errs:?}");
    let mut t = svc(json!({"selector": {"app": "web"}, "ports": [{"port": 80}]}));
    a.allocate_create(&mut t).unwrap();
    assert_ne!(t["spec"]["clusterIP"], s["spec"]["clusterIP"]);
}

#[test]
fn requested_addresses() {
    let mut a = ServiceAllocator::default();
    let mut dns =
        svc(json!({"clusterIP": "10.96.0.10", "ports": [{"port": 53, "protocol": "UDP"}]}));
    a.allocate_create(&mut dns).unwrap();
    assert_eq!(dns["spec"]["clusterIPs"], json!(["10.96.0.10"]));
    let mut again = svc(json!({"clusterIP": "10.96.0.10", "ports": [{"port": 53}]}));
    let err = a.allocate_create(&mut again).unwrap_err();
    assert_eq!(
        messages(&err),
        [
            r#"spec.clusterIPs: Invalid value: ["10.96.0.10"]: failed to allocate IP 10.96.0.10: provided IP is already allocated"#
        ]
    );
    let mut outside = svc(json!({"clusterIP": "192.168.0.1", "ports": [{"port": 53}]}));
    assert_eq!(
        messages(&a.allocate_create(&mut outside).unwrap_err()),
        [
            r#"spec.clusterIPs: Invalid value: ["192.168.0.1"]: failed to allocate IP 192.168.0.1: the provided IP (192.168.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12"#
        ]
    );
    let mut v6 = svc(json!({"clusterIP": "fd00::1", "ports": [{"port": 53}]}));
    assert_eq!(
        messages(&a.allocate_create(&mut v6).unwrap_err()),
        [
            r#"spec.clusterIPs[0]: Invalid value: ["fd00::1"]: IPv6 is not configured on this cluster"#
        ]
    );
    let mut dual = svc(json!({"ipFamilyPolicy": "RequireDualStack", "ports": [{"port": 53}]}));
    assert_eq!(
        messages(&a.allocate_create(&mut dual).unwrap_err()),
        [
            r#"spec.ipFamilyPolicy: Invalid value: "RequireDualStack": this cluster is not configured for dual-stack services"#
        ]
    );
}

#[test]
fn exhausted_ranges() {
    let mut a = ServiceAllocator::new(&["10.0.0.0/29"], "30000-30001").unwrap();
    // A /29 holds 6 usable addresses.
    for _ in 0..6 {
        let mut s = svc(json!({"ports": [{"port": 80}]}));
        a.allocate_create(&mut s).unwrap();
    }
    let mut s = svc(json!({"ports": [{"port": 80}]}));
    assert_eq!(
        a.allocate_create(&mut s).unwrap_err(),
        AllocError::Internal("failed to allocate a serviceIP: range is full".to_owned())
    );
    let mut a = ServiceAllocator::new(&["10.0.0.0/24"], "30000-30001").unwrap();
    let mut np = svc(
        json!({"type": "NodePort", "ports": [{"port": 80, "name": "a"}, {"port": 81, "name": "b"}]}),
    );
    a.allocate_create(&mut np).unwrap();
    let mut more = svc(json!({"type": "NodePort", "ports": [{"port": 80}]}));
    assert_eq!(
        a.allocate_create(&mut more).unwrap_err(),
        AllocError::Internal("failed to allocate a nodePort: range is full".to_owned())
    );
    // Nothing stays taken after a failure: the address of the failed Service is free again.
    a.release(&np);
    a.allocate_create(&mut more).unwrap();
}

#[test]
fn node_ports() {
    let mut a = ServiceAllocator::default();
    let mut s = svc(
        json!({"type": "NodePort", "ports": [{"port": 80, "name": "http", "nodePort": 30080},
        {"port": 443, "name": "https"}, {"port": 53, "name": "dns-tcp"}, {"port": 53, "name": "dns", "protocol": "UDP"}]}),
    );
    a.allocate_create(&mut s).unwrap();
    let ports = &s["spec"]["ports"];
    assert_eq!(ports[0]["nodePort"], 30080);
    let https = ports[1]["nodePort"].as_i64().unwrap();
    assert!((30000..=32767).contains(&https) && https != 30080);
    // One port number, two protocols: one node port.
    assert_eq!(ports[2]["nodePort"], ports[3]["nodePort"]);
    assert!(validation::validate_create("v1", "Service", &s).is_empty());
    let mut taken = svc(json!({"type": "NodePort", "ports": [{"port": 80, "nodePort": 30080}]}));
    assert_eq!(
        messages(&a.allocate_create(&mut taken).unwrap_err()),
        ["spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated"]
    );
    let mut low = svc(json!({"type": "NodePort", "ports": [{"port": 80, "nodePort": 8080}]}));
    assert_eq!(
        messages(&a.allocate_create(&mut low).unwrap_err()),
        [
            "spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767"
        ]
    );
    // A load balancer without node ports keeps only the requested ones.
    let mut lb = svc(
        json!({"type": "LoadBalancer", "allocateLoadBalancerNodePorts": false, "ports": [{"port": 80}]}),
    );
    a.allocate_create(&mut lb).unwrap();
    assert!(lb["spec"]["ports"][0].get("nodePort").is_none());
    // Local traffic policy: a health check node port.
    let mut local = svc(
        json!({"type": "LoadBalancer", "externalTrafficPolicy": "Local", "ports": [{"port": 80}]}),
    );
    a.allocate_create(&mut local).unwrap();
    assert!(local["spec"]["healthCheckNodePort"].as_i64().is_some());
    assert!(validation::validate_create("v1", "Service", &local).is_empty());
}

#[test]
fn headless_and_external_name() {
    let mut a = ServiceAllocator::default();
    let mut headless =
        svc(json!({"clusterIP": "None", "selector": {"app": "db"}, "ports": [{"port": 5432}]}));
    a.allocate_create(&mut headless).unwrap();
    assert_eq!(headless["spec"]["clusterIPs"], json!(["None"]));
    assert_eq!(headless["spec"]["ipFamilies"], json!(["IPv4"]));
    assert_eq!(headless["spec"]["ipFamilyPolicy"], "SingleStack");
    // Headless without a selector: dual stack is required, both families listed.
    let mut selectorless = svc(json!({"clusterIP": "None"}));
    a.allocate_create(&mut selectorless).unwrap();
    assert_eq!(selectorless["spec"]["ipFamilyPolicy"], "RequireDualStack");
    assert_eq!(selectorless["spec"]["ipFamilies"], json!(["IPv4", "IPv6"]));
    let mut ext = svc(json!({"type": "ExternalName", "externalName": "example.com"}));
    a.allocate_create(&mut ext).unwrap();
    assert!(ext["spec"].get("clusterIP").is_none() && ext["spec"].get("ipFamilies").is_none());
    assert!(validation::validate_create("v1", "Service", &ext).is_empty());
}

#[test]
fn updates_keep_allocated_values() {
    let mut a = ServiceAllocator::default();
    let mut old = svc(
        json!({"type": "NodePort", "selector": {"app": "web"}, "ports": [{"port": 80, "name": "http"}]}),
    );
    a.allocate_create(&mut old).unwrap();
    old["metadata"]["resourceVersion"] = json!("1");
    // kubectl apply sends the manifest without the allocated values.
    let mut new = svc(
        json!({"type": "NodePort", "selector": {"app": "web2"}, "ports": [{"port": 80, "name": "http"}]}),
    );
    new["metadata"]["resourceVersion"] = json!("1");
    let alloc = a.allocate_update(&mut new, &old).unwrap();
    prepare_for_update("v1", "Service", &mut new, &old);
    assert_eq!(new["spec"]["clusterIPs"], old["spec"]["clusterIPs"]);
    assert_eq!(
        new["spec"]["ports"][0]["nodePort"],
        old["spec"]["ports"][0]["nodePort"]
    );
    let errs = validation::validate_update("v1", "Service", &new, &old);
    assert!(errs.is_empty(), "{errs:?}");
    a.commit(&alloc);
    // A changed cluster IP is refused.
    let mut moved = new.clone();
    moved["spec"]["clusterIP"] = json!("10.96.0.99");
    moved["spec"]["clusterIPs"] = json!(["10.96.0.99"]);
    let errs: Vec<String> = validation::validate_update("v1", "Service", &moved, &old)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errs,
        [r#"spec.clusterIPs[0]: Invalid value: ["10.96.0.99"]: may not change once set"#]
    );
    // To ClusterIP: the node port is wiped and released on commit.
    let mut to_cluster_ip = new.clone();
    to_cluster_ip["spec"]["type"] = json!("ClusterIP");
    to_cluster_ip["spec"]
        .as_object_mut()
        .unwrap()
        .remove("externalTrafficPolicy");
    let alloc = a.allocate_update(&mut to_cluster_ip, &new).unwrap();
    prepare_for_update("v1", "Service", &mut to_cluster_ip, &new);
    assert!(to_cluster_ip["spec"]["ports"][0].get("nodePort").is_none());
    let errs = validation::validate_update("v1", "Service", &to_cluster_ip, &new);
    assert!(errs.is_empty(), "{errs:?}");
    a.commit(&alloc);
    let np = new["spec"]["ports"][0]["nodePort"].clone();
    let mut reuse = svc(json!({"type": "NodePort", "ports": [{"port": 80, "nodePort": np}]}));
    a.allocate_create(&mut reuse).unwrap();
}

#[test]
fn ranges_are_checked() {
    assert!(ServiceAllocator::new(&["10.96.0.0/12", "fd00::/108"], "30000-32767").is_ok());
    assert!(ServiceAllocator::new(&["10.96.0.0/12", "10.0.0.0/8"], "30000-32767").is_err());
    assert!(ServiceAllocator::new(&["nope"], "30000-32767").is_err());
    assert!(ServiceAllocator::new(&["10.96.0.0/12"], "32767-30000").is_err());
    let mut dual = ServiceAllocator::new(&["10.96.0.0/12", "fd00::/108"], "30000-32767").unwrap();
    let mut s = svc(json!({"ipFamilyPolicy": "PreferDualStack", "ports": [{"port": 80}]}));
    dual.allocate_create(&mut s).unwrap();
    assert_eq!(s["spec"]["ipFamilies"], json!(["IPv4", "IPv6"]));
    let ips = s["spec"]["clusterIPs"].as_array().unwrap();
    assert_eq!(ips.len(), 2);
    assert!(ips[1].as_str().unwrap().starts_with("fd00::"), "{ips:?}");
    assert!(validation::validate_create("v1", "Service", &s).is_empty());
}
