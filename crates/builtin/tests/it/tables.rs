//! Server-side printing of every other kind: cells for realistic objects as a cluster prints
//! them (printers.go's semantics), columns and descriptions of every served kind.

use serde_json::{Value, json};

use crdkit_builtin::resources;
use crdkit_builtin::tables::{self, Description};

/// 2025-01-01T00:00:00Z.
const T0: i64 = 1_735_689_600;
/// Ten minutes after [`T0`]: "now" of every row here.
pub(super) const NOW: i64 = T0 + 600;

/// The timestamp `secs_before_now` seconds before [`NOW`].
pub(super) fn ts(secs_before_now: i64) -> String {
    crdkit_apimachinery::goparse::format_rfc3339(NOW - secs_before_now)
}

/// Every cell of `obj`'s row.
pub(super) fn cells(group: &str, kind: &str, obj: &Value) -> Vec<Value> {
    tables::printer(group, kind).row(obj, NOW).cells
}

fn meta(name: &str) -> Value {
    json!({"name": name, "namespace": "default", "creationTimestamp": ts(300)})
}

#[test]
fn workloads_as_kubectl_shows_them() {
    let template = json!({"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [
        {"name": "nginx", "image": "nginx:1.27"}, {"name": "log", "image": "busybox"}]}});
    let deploy = json!({"metadata": meta("web"), "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}}, "template": template},
        "status": {"replicas": 3, "readyReplicas": 2, "updatedReplicas": 3, "availableReplicas": 2}});
    assert_eq!(
        cells("apps", "Deployment", &deploy),
        [
            json!("web"),
            json!("2/3"),
            json!(3),
            json!(2),
            json!("5m"),
            json!("nginx,log"),
            json!("nginx:1.27,busybox"),
            json!("app=web")
        ]
    );
    let rs = json!({"metadata": meta("web-5d4f"), "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web", "pod-template-hash": "5d4f"}}, "template": template},
        "status": {"replicas": 3, "readyReplicas": 3}});
    assert_eq!(
        cells("apps", "ReplicaSet", &rs)[..4],
        [json!("web-5d4f"), json!(3), json!(3), json!(3)]
    );
    assert_eq!(
        cells("apps", "ReplicaSet", &rs)[7],
        "app=web,pod-template-hash=5d4f"
    );
    let sts = json!({"metadata": meta("db"), "spec": {"replicas": 1, "template": template}, "status": {"readyReplicas": 1}});
    assert_eq!(
        cells("apps", "StatefulSet", &sts)[..3],
        [json!("db"), json!("1/1"), json!("5m")]
    );
    let ds = json!({"metadata": meta("agent"), "spec": {"selector": {"matchLabels": {"app": "agent"}},
        "template": {"spec": {"nodeSelector": {"kubernetes.io/os": "linux"}, "containers": [{"name": "a", "image": "a:1"}]}}},
        "status": {"desiredNumberScheduled": 2, "currentNumberScheduled": 2, "numberReady": 1, "updatedNumberScheduled": 2, "numberAvailable": 1}});
    assert_eq!(
        cells("apps", "DaemonSet", &ds)[..8],
        [
            json!("agent"),
            json!(2),
            json!(2),
            json!(1),
            json!(2),
            json!(1),
            json!("kubernetes.io/os=linux"),
            json!("5m")
        ]
    );
    let job = json!({"metadata": meta("pi"), "spec": {"completions": 1, "parallelism": 1, "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": "u"}}, "template": template},
        "status": {"succeeded": 1, "startTime": ts(200), "completionTime": ts(155), "conditions": [{"type": "Complete", "status": "True"}]}});
    assert_eq!(
        cells("batch", "Job", &job)[..5],
        [
            json!("pi"),
            json!("Complete"),
            json!("1/1"),
            json!("45s"),
            json!("5m")
        ]
    );
    let running =
        json!({"metadata": meta("p"), "spec": {"parallelism": 2}, "status": {"startTime": ts(90)}});
    assert_eq!(
        cells("batch", "Job", &running)[1..4],
        [json!("Running"), json!("0/1 of 2"), json!("90s")]
    );
    let cj = json!({"metadata": meta("backup"), "spec": {"schedule": "*/5 * * * *", "suspend": false,
        "jobTemplate": {"spec": {"template": template}}}, "status": {}});
    assert_eq!(
        cells("batch", "CronJob", &cj)[..7],
        [
            json!("backup"),
            json!("*/5 * * * *"),
            json!("<none>"),
            json!("False"),
            json!(0),
            json!("<none>"),
            json!("5m")
        ]
    );
    assert_eq!(cells("batch", "CronJob", &cj)[9], "<none>");
    let hpa = json!({"metadata": meta("web"), "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "web"}, "minReplicas": 1, "maxReplicas": 10,
        "metrics": [{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 80}}},
                    {"type": "Resource", "resource": {"name": "memory", "target": {"type": "AverageValue", "averageValue": "500Mi"}}},
                    {"type": "Pods", "pods": {"metric": {"name": "qps"}, "target": {"type": "AverageValue", "averageValue": "10"}}}]},
        "status": {"currentReplicas": 3, "currentMetrics": [{"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": 50}}}]}});
    assert_eq!(
        cells("autoscaling", "HorizontalPodAutoscaler", &hpa),
        [
            json!("web"),
            json!("Deployment/web"),
            json!("cpu: 50%/80%, memory: <unknown>/500Mi + 1 more..."),
            json!("1"),
            json!(10),
            json!(3),
            json!("5m")
        ]
    );
    // autoscaling/v1: the CPU target, before any status.
    let v1 = json!({"metadata": meta("web"), "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "web"}, "maxReplicas": 4, "targetCPUUtilizationPercentage": 70}});
    assert_eq!(
        cells("autoscaling", "HorizontalPodAutoscaler", &v1)[2..4],
        [json!("cpu: <unknown>/70%"), json!("<unset>")]
    );
    let pdb = json!({"metadata": meta("web"), "spec": {"minAvailable": 1}, "status": {"disruptionsAllowed": 0}});
    assert_eq!(
        cells("policy", "PodDisruptionBudget", &pdb),
        [
            json!("web"),
            json!("1"),
            json!("N/A"),
            json!(0),
            json!("5m")
        ]
    );
    let cr = json!({"metadata": {"name": "db-7c9", "ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": "db", "controller": true}]}, "revision": 2});
    assert_eq!(
        cells("apps", "ControllerRevision", &cr)[1..3],
        [json!("statefulset.apps/db"), json!(2)]
    );
}

#[test]
fn services_and_their_neighbours() {
    let svc = |spec: Value, status: Value| json!({"metadata": meta("web"), "spec": spec, "status": status});
    let cluster = svc(
        json!({"type": "ClusterIP", "clusterIP": "10.96.0.1", "clusterIPs": ["10.96.0.1"],
        "ports": [{"name": "https", "port": 443, "protocol": "TCP", "targetPort": 6443}]}),
        json!({}),
    );
    assert_eq!(
        cells("", "Service", &cluster),
        [
            json!("web"),
            json!("ClusterIP"),
            json!("10.96.0.1"),
            json!("<none>"),
            json!("443/TCP"),
            json!("5m"),
            json!("<none>")
        ]
    );
    let node_port = svc(
        json!({"type": "NodePort", "clusterIPs": ["10.96.3.4"], "externalIPs": ["1.2.3.4"],
        "ports": [{"port": 80, "nodePort": 30080, "protocol": "TCP"}, {"port": 53, "nodePort": 30053, "protocol": "UDP"}]}),
        json!({}),
    );
    assert_eq!(
        cells("", "Service", &node_port)[2..5],
        [
            json!("10.96.3.4"),
            json!("1.2.3.4"),
            json!("80:30080/TCP,53:30053/UDP")
        ]
    );
    let pending = svc(
        json!({"type": "LoadBalancer", "clusterIPs": ["10.96.0.9"], "ports": [{"port": 80, "nodePort": 31000, "protocol": "TCP"}]}),
        json!({}),
    );
    assert_eq!(cells("", "Service", &pending)[3], "<pending>");
    let lb = svc(
        json!({"type": "LoadBalancer", "clusterIPs": ["10.96.0.9"], "externalIPs": ["9.9.9.9"]}),
        json!({"loadBalancer": {"ingress": [{"ip": "5.6.7.8"}, {"hostname": "lb.example.com"}]}}),
    );
    assert_eq!(
        cells("", "Service", &lb)[3..5],
        [json!("5.6.7.8,lb.example.com,9.9.9.9"), json!("<none>")]
    );
    let headless = svc(
        json!({"type": "ClusterIP", "clusterIP": "None", "selector": {"app": "db"}}),
        json!({}),
    );
    assert_eq!(cells("", "Service", &headless)[2], "None");
    assert_eq!(cells("", "Service", &headless)[6], "app=db");
    let ext = svc(
        json!({"type": "ExternalName", "externalName": "example.com"}),
        json!({}),
    );
    assert_eq!(
        cells("", "Service", &ext)[2..4],
        [json!("<none>"), json!("example.com")]
    );

    let ep = |addresses: Value, ports: Value| json!({"metadata": meta("web"), "subsets": [{"addresses": addresses, "ports": ports}]});
    assert_eq!(
        cells(
            "",
            "Endpoints",
            &ep(
                json!([{"ip": "10.0.0.1"}, {"ip": "10.0.0.2"}]),
                json!([{"port": 80}])
            )
        )[1],
        "10.0.0.1:80,10.0.0.2:80"
    );
    let four =
        json!([{"ip": "10.0.0.1"}, {"ip": "10.0.0.2"}, {"ip": "10.0.0.3"}, {"ip": "fd00::4"}]);
    assert_eq!(
        cells("", "Endpoints", &ep(four.clone(), json!([{"port": 80}])))[1],
        "10.0.0.1:80,10.0.0.2:80,10.0.0.3:80 + 1 more..."
    );
    assert_eq!(
        cells("", "Endpoints", &ep(four, json!([])))[1],
        "10.0.0.1,10.0.0.2,10.0.0.3 + 1 more..."
    );
    assert_eq!(
        cells("", "Endpoints", &json!({"metadata": meta("none")}))[1],
        "<none>"
    );

    let slice = json!({"metadata": meta("web-abc"), "addressType": "IPv4", "ports": [{"port": 80}, {"name": "metrics"}],
        "endpoints": [{"addresses": ["10.0.0.1"]}, {"addresses": ["10.0.0.2"]}]});
    assert_eq!(
        cells("discovery.k8s.io", "EndpointSlice", &slice)[1..4],
        [
            json!("IPv4"),
            json!("80,metrics"),
            json!("10.0.0.1,10.0.0.2")
        ]
    );
    let ing = json!({"metadata": meta("web"), "spec": {"ingressClassName": "nginx", "tls": [{"hosts": ["foo.bar.com"]}],
        "rules": [{"host": "foo.bar.com"}, {}, {"host": "b"}, {"host": "c"}, {"host": "d"}]},
        "status": {"loadBalancer": {"ingress": [{"ip": "1.2.3.4"}]}}});
    assert_eq!(
        cells("networking.k8s.io", "Ingress", &ing)[1..5],
        [
            json!("nginx"),
            json!("foo.bar.com,b,c + 2 more..."),
            json!("1.2.3.4"),
            json!("80, 443")
        ]
    );
    let np = json!({"metadata": meta("deny"), "spec": {"podSelector": {}}});
    assert_eq!(
        cells("networking.k8s.io", "NetworkPolicy", &np)[1],
        "<none>"
    );
}

#[test]
fn configuration_nodes_storage_rbac_and_events() {
    let secret = json!({"metadata": meta("creds"), "type": "Opaque", "data": {"user": "YQ==", "pass": "Yg=="}});
    assert_eq!(
        cells("", "Secret", &secret),
        [json!("creds"), json!("Opaque"), json!(2), json!("5m")]
    );
    let cm = json!({"metadata": meta("kube-root-ca.crt"), "data": {"ca.crt": "..."}, "binaryData": {"x": "AA=="}});
    assert_eq!(cells("", "ConfigMap", &cm)[1], 2);
    assert_eq!(
        cells("", "ServiceAccount", &json!({"metadata": meta("default")}))[1],
        0
    );
    let ns = json!({"metadata": {"name": "kube-system", "creationTimestamp": ts(3 * 86_400 + 5 * 3600)}, "status": {"phase": "Active"}});
    assert_eq!(
        cells("", "Namespace", &ns),
        [json!("kube-system"), json!("Active"), json!("3d5h")]
    );
    let node = json!({"metadata": {"name": "kind-control-plane", "creationTimestamp": ts(600),
        "labels": {"node-role.kubernetes.io/control-plane": "", "kubernetes.io/hostname": "kind-control-plane"}},
        "spec": {"unschedulable": true},
        "status": {"conditions": [{"type": "MemoryPressure", "status": "False"}, {"type": "Ready", "status": "True"}],
            "addresses": [{"type": "InternalIP", "address": "172.18.0.2"}, {"type": "Hostname", "address": "kind-control-plane"}],
            "nodeInfo": {"kubeletVersion": "v1.35.0", "osImage": "Debian GNU/Linux 12 (bookworm)", "kernelVersion": "6.8.0", "containerRuntimeVersion": "containerd://2.1.1"}}});
    assert_eq!(
        cells("", "Node", &node),
        [
            "kind-control-plane",
            "Ready,SchedulingDisabled",
            "control-plane",
            "10m",
            "v1.35.0",
            "172.18.0.2",
            "<none>",
            "Debian GNU/Linux 12 (bookworm)",
            "6.8.0",
            "containerd://2.1.1"
        ]
        .map(|s| json!(s))
    );
    assert_eq!(
        cells("", "Node", &json!({"metadata": {"name": "n"}}))[1..3],
        [json!("Unknown"), json!("<none>")]
    );
    let pvc = json!({"metadata": meta("data"), "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "standard", "volumeName": "pvc-1",
        "resources": {"requests": {"storage": "1Gi"}}, "volumeMode": "Filesystem"},
        "status": {"phase": "Bound", "accessModes": ["ReadWriteOnce"], "capacity": {"storage": "1Gi"}}});
    assert_eq!(
        cells("", "PersistentVolumeClaim", &pvc),
        [
            "data",
            "Bound",
            "pvc-1",
            "1Gi",
            "RWO",
            "standard",
            "<unset>",
            "5m",
            "Filesystem"
        ]
        .map(|s| json!(s))
    );
    let pending = json!({"metadata": meta("data"), "spec": {"resources": {"requests": {"storage": "1Gi"}}}, "status": {"phase": "Pending"}});
    assert_eq!(
        cells("", "PersistentVolumeClaim", &pending)[1..6],
        ["Pending", "", "", "", ""].map(|s| json!(s))
    );
    let pv = json!({"metadata": {"name": "pv-1", "creationTimestamp": ts(60)}, "spec": {"capacity": {"storage": "10Gi"},
        "accessModes": ["ReadWriteMany", "ReadWriteOnce"], "persistentVolumeReclaimPolicy": "Retain",
        "claimRef": {"namespace": "default", "name": "data"}, "storageClassName": "manual"}, "status": {"phase": "Bound"}});
    assert_eq!(
        cells("", "PersistentVolume", &pv),
        [
            "pv-1",
            "10Gi",
            "RWO,RWX",
            "Retain",
            "Bound",
            "default/data",
            "manual",
            "<unset>",
            "",
            "60s",
            "<unset>"
        ]
        .map(|s| json!(s))
    );
    let sc = json!({"metadata": {"name": "standard", "annotations": {"storageclass.kubernetes.io/is-default-class": "true"}},
        "provisioner": "rancher.io/local-path", "volumeBindingMode": "WaitForFirstConsumer"});
    assert_eq!(
        cells("storage.k8s.io", "StorageClass", &sc)[..5],
        [
            json!("standard (default)"),
            json!("rancher.io/local-path"),
            json!("Delete"),
            json!("WaitForFirstConsumer"),
            json!(false)
        ]
    );
    let rb = json!({"metadata": meta("read"), "roleRef": {"kind": "ClusterRole", "name": "view"},
        "subjects": [{"kind": "User", "name": "alice"}, {"kind": "Group", "name": "devs"},
                     {"kind": "ServiceAccount", "namespace": "default", "name": "ci"}, {"kind": "User", "name": "bob"}]});
    assert_eq!(
        cells("rbac.authorization.k8s.io", "RoleBinding", &rb),
        [
            "read",
            "ClusterRole/view",
            "5m",
            "alice, bob",
            "devs",
            "default/ci"
        ]
        .map(|s| json!(s))
    );
    let lease = json!({"metadata": meta("leader"), "spec": {"holderIdentity": "pod-1_abc"}});
    assert_eq!(
        cells("coordination.k8s.io", "Lease", &lease)[1],
        "pod-1_abc"
    );
    let event = json!({"metadata": meta("web.17f"), "involvedObject": {"kind": "Pod", "name": "web-1", "fieldPath": "spec.containers{web}"},
        "reason": "BackOff", "message": "Back-off restarting failed container\n", "type": "Warning",
        "source": {"component": "kubelet", "host": "node-1"}, "firstTimestamp": ts(300), "lastTimestamp": ts(120), "count": 4});
    assert_eq!(
        cells("", "Event", &event),
        [
            json!("2m"),
            json!("Warning"),
            json!("BackOff"),
            json!("pod/web-1"),
            json!("spec.containers{web}"),
            json!("kubelet, node-1"),
            json!("Back-off restarting failed container"),
            json!("5m"),
            json!(4),
            json!("web.17f")
        ]
    );
    // events.k8s.io/v1, as kube-rs's recorder posts it: a series, the reporting controller.
    let new = json!({"metadata": meta("web.18a"), "regarding": {"kind": "CronTab", "name": "c"}, "note": "reconciled",
        "reason": "Synced", "type": "Normal", "eventTime": "2025-01-01T00:05:00.000000Z", "reportingController": "crontab-controller",
        "reportingInstance": "crontab-controller-0", "series": {"count": 3, "lastObservedTime": "2025-01-01T00:09:00.000000Z"}});
    assert_eq!(
        cells("events.k8s.io", "Event", &new)[..9],
        [
            json!("60s"),
            json!("Normal"),
            json!("Synced"),
            json!("crontab/c"),
            json!(""),
            json!("crontab-controller, crontab-controller-0"),
            json!("reconciled"),
            json!("5m"),
            json!(3)
        ]
    );
    let quota = json!({"metadata": meta("q"), "status": {"hard": {"limits.cpu": "2", "pods": "10", "requests.cpu": "1"},
        "used": {"limits.cpu": "500m", "pods": "3"}}});
    assert_eq!(
        cells("", "ResourceQuota", &quota)[1..3],
        [
            json!("pods: 3/10, requests.cpu: 0/1"),
            json!("limits.cpu: 500m/2")
        ]
    );
}

#[test]
fn kinds_without_printers_get_name_and_creation_time() {
    let role =
        json!({"metadata": {"name": "pod-reader", "creationTimestamp": "2025-01-01T00:00:00Z"}});
    let p = tables::printer("rbac.authorization.k8s.io", "Role");
    assert!(!tables::has_printer("rbac.authorization.k8s.io", "Role"));
    let names: Vec<&str> = p.columns.iter().map(|c| c.name).collect();
    assert_eq!(names, ["Name", "Created At"]);
    assert_eq!(
        p.row(&role, NOW).cells,
        [json!("pod-reader"), json!("2025-01-01T00:00:00Z")]
    );
    assert_eq!(p.column_definitions()[1]["type"], "date");
}

#[test]
fn columns_are_complete_and_described() {
    for r in resources::all() {
        let p = tables::printer(r.group, r.kind);
        assert_eq!(
            p.columns[0].name,
            if r.kind == "Event" {
                "Last Seen"
            } else {
                "Name"
            },
            "{}",
            r.kind
        );
        // A row has a cell per column (but for Go's IPAddress, whose Age cell has no column).
        let row = p.row(&json!({"metadata": {"name": "x"}}), NOW);
        let extra = usize::from(r.kind == "IPAddress");
        assert_eq!(row.cells.len(), p.columns.len() + extra, "{}", r.kind);
        for c in p.columns {
            if let Description::Field(def, field) = c.description {
                let known_empty = field == "handler"; // Go reads ObjectMeta's, which has none
                assert_eq!(
                    c.description().is_empty(),
                    known_empty,
                    "{} {def}.{field}",
                    r.kind
                );
            }
            assert!(
                matches!(c.ty, "string" | "integer" | "boolean" | "date" | "number"),
                "{}",
                c.ty
            );
        }
    }
    let pods = tables::printer("", "Pod").column_definitions();
    assert_eq!(
        pods[0],
        json!({"name": "Name", "type": "string", "format": "name", "priority": 0,
        "description": "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names"})
    );
    let wide: Vec<&str> = pods
        .iter()
        .filter(|c| c["priority"] == 1)
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(wide, ["IP", "Node", "Nominated Node", "Readiness Gates"]);
    assert!(
        pods[5]["description"]
            .as_str()
            .unwrap()
            .starts_with("podIP address allocated to the pod")
    );
}
