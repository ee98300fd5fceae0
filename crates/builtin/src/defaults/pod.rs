//! Pod specs, in Pods and in every workload's template.
//!
//! Mirrors kubernetes `pkg/apis/core/v1/defaults.go` (`SetDefaults_Pod`, `SetDefaults_PodSpec`,
//! `SetDefaults_Container`, `SetDefaults_Probe`, `SetDefaults_Volume` and the volume sources'
//! `SetDefaults_*`), the declarative `+default` markers of `k8s.io/api/core/v1/types.go` (ports'
//! `TCP`, gRPC probes' `service: ""`, RBD, iSCSI, Azure disk and ScaleIO fields) and the walk of
//! the generated `SetObjectDefaults_Pod`/`_PodTemplate`. `SetDefaults_Pod` (requests copied from
//! limits, `enableServiceLinks`, host ports under `hostNetwork`) applies to Pods only, as in Go.
//!
//! What the typed round trip adds besides defaulting is written too: `resources: {}` on every
//! container and quantities in their canonical form (`0.5` → `500m`, Go's `SetDefaults_ResourceList`
//! also rounds them up to milli units). Not done: the pod-level resources defaulting of the
//! `PodLevelResources` gate (`spec.resources` aggregated from containers).

use serde_json::Value;

use super::image::pull_policy;
use super::json::{
    Obj, default_num, default_ptr, default_str, ensure_obj, is_nil, items_mut, obj_mut, str_of,
};
use super::quantities;

/// `SetObjectDefaults_Pod`: the spec, plus what `SetDefaults_Pod` does for Pods only.
pub(crate) fn pod(obj: &mut Obj) {
    let Some(spec) = obj_mut(obj, "spec") else {
        return;
    };
    pod_only(spec);
    pod_spec(spec);
}

/// The `template` of a workload (`PodTemplateSpec`): its spec's defaults.
pub(crate) fn template(t: &mut Obj) {
    if let Some(spec) = obj_mut(t, "spec") {
        pod_spec(spec);
    }
}

/// `SetDefaults_Pod`: requests default to limits, service links are enabled, and host-network
/// Pods publish their container ports on the host.
fn pod_only(spec: &mut Obj) {
    for c in items_mut(spec, "containers") {
        requests_from_limits(c);
    }
    for c in items_mut(spec, "initContainers") {
        requests_from_limits(c);
    }
    default_ptr(spec, "enableServiceLinks", true);
    if spec.get("hostNetwork") == Some(&Value::Bool(true)) {
        for list in ["containers", "initContainers"] {
            for c in items_mut(spec, list) {
                for p in items_mut(c, "ports") {
                    if super::json::num_zero(p, "hostPort")
                        && let Some(cp) = p.get("containerPort").cloned()
                    {
                        p.insert("hostPort".to_owned(), cp);
                    }
                }
            }
        }
    }
}

/// Limits without a request: the request is the limit.
fn requests_from_limits(c: &mut Obj) {
    let Some(res) = obj_mut(c, "resources") else {
        return;
    };
    let Some(Value::Object(limits)) = res.get("limits").cloned() else {
        return;
    };
    let Some(requests) = ensure_obj(res, "requests") else {
        return;
    };
    for (k, v) in limits {
        requests.entry(k).or_insert(v);
    }
}

/// `SetDefaults_PodSpec` and everything below it.
pub(crate) fn pod_spec(spec: &mut Obj) {
    default_str(spec, "dnsPolicy", "ClusterFirst");
    default_str(spec, "restartPolicy", "Always");
    default_ptr(spec, "securityContext", Obj::new());
    default_ptr(spec, "terminationGracePeriodSeconds", 30);
    default_str(spec, "schedulerName", "default-scheduler");
    for v in items_mut(spec, "volumes") {
        volume(v);
    }
    for list in ["initContainers", "containers", "ephemeralContainers"] {
        for c in items_mut(spec, list) {
            container(c);
        }
    }
    quantities::resource_list(spec, "overhead");
    if let Some(res) = obj_mut(spec, "resources") {
        quantities::requirements(res);
    }
}

/// `SetDefaults_Container` (and `SetDefaults_EphemeralContainer`), with its ports, env, probes,
/// lifecycle handlers and resources.
fn container(c: &mut Obj) {
    if super::json::str_empty(c, "imagePullPolicy") {
        let policy = pull_policy(str_of(c, "image"));
        c.insert("imagePullPolicy".to_owned(), Value::from(policy));
    }
    default_str(c, "terminationMessagePath", "/dev/termination-log");
    default_str(c, "terminationMessagePolicy", "File");
    for p in items_mut(c, "ports") {
        default_str(p, "protocol", "TCP");
    }
    for e in items_mut(c, "env") {
        let Some(from) = obj_mut(e, "valueFrom") else {
            continue;
        };
        if let Some(f) = obj_mut(from, "fieldRef") {
            default_str(f, "apiVersion", "v1");
        }
        if let Some(r) = obj_mut(from, "resourceFieldRef") {
            quantities::zero_or_canonical(r, "divisor");
        }
    }
    if let Some(res) = ensure_obj(c, "resources") {
        quantities::requirements(res);
    }
    for p in ["livenessProbe", "readinessProbe", "startupProbe"] {
        if let Some(p) = obj_mut(c, p) {
            probe(p);
        }
    }
    if let Some(l) = obj_mut(c, "lifecycle") {
        for h in ["postStart", "preStop"] {
            if let Some(get) = obj_mut(l, h).and_then(|h| obj_mut(h, "httpGet")) {
                http_get(get);
            }
        }
    }
}

/// `SetDefaults_Probe` and its handlers' defaults.
fn probe(p: &mut Obj) {
    default_num(p, "timeoutSeconds", 1);
    default_num(p, "periodSeconds", 10);
    default_num(p, "successThreshold", 1);
    default_num(p, "failureThreshold", 3);
    if let Some(get) = obj_mut(p, "httpGet") {
        http_get(get);
    }
    if let Some(grpc) = obj_mut(p, "grpc") {
        // `+default=""` on a pointer: the empty string is written.
        default_ptr(grpc, "service", "");
    }
}

/// `SetDefaults_HTTPGetAction`.
fn http_get(get: &mut Obj) {
    default_str(get, "path", "/");
    default_str(get, "scheme", "HTTP");
}

/// The sources a volume may name (`VolumeSource`'s pointers).
const VOLUME_SOURCES: &[&str] = &[
    "hostPath",
    "emptyDir",
    "gcePersistentDisk",
    "awsElasticBlockStore",
    "gitRepo",
    "secret",
    "nfs",
    "iscsi",
    "glusterfs",
    "persistentVolumeClaim",
    "rbd",
    "flexVolume",
    "cinder",
    "cephfs",
    "flocker",
    "downwardAPI",
    "fc",
    "azureFile",
    "configMap",
    "vsphereVolume",
    "quobyte",
    "azureDisk",
    "photonPersistentDisk",
    "projected",
    "portworxVolume",
    "scaleIO",
    "storageos",
    "csi",
    "ephemeral",
    "image",
];

/// Mode 0644, the default of secret, config map, downward API and projected volumes.
const DEFAULT_MODE: i64 = 0o644;

/// `SetDefaults_Volume` and the defaults of each source.
fn volume(v: &mut Obj) {
    if VOLUME_SOURCES.iter().all(|s| is_nil(v, s)) {
        v.insert("emptyDir".to_owned(), Value::Object(Obj::new()));
    }
    if let Some(h) = obj_mut(v, "hostPath") {
        // `HostPathUnset` is the empty string, written out.
        default_ptr(h, "type", "");
    }
    if let Some(e) = obj_mut(v, "emptyDir") {
        quantities::canonical(e, "sizeLimit");
    }
    for mode_source in ["secret", "configMap"] {
        if let Some(s) = obj_mut(v, mode_source) {
            default_ptr(s, "defaultMode", DEFAULT_MODE);
        }
    }
    if let Some(d) = obj_mut(v, "downwardAPI") {
        default_ptr(d, "defaultMode", DEFAULT_MODE);
        downward_api_items(d);
    }
    if let Some(p) = obj_mut(v, "projected") {
        default_ptr(p, "defaultMode", DEFAULT_MODE);
        for s in items_mut(p, "sources") {
            if let Some(d) = obj_mut(s, "downwardAPI") {
                downward_api_items(d);
            }
            if let Some(t) = obj_mut(s, "serviceAccountToken") {
                default_ptr(t, "expirationSeconds", 3600);
            }
        }
    }
    if let Some(i) = obj_mut(v, "iscsi") {
        default_str(i, "iscsiInterface", "default");
    }
    if let Some(r) = obj_mut(v, "rbd") {
        default_str(r, "pool", "rbd");
        default_str(r, "user", "admin");
        default_str(r, "keyring", "/etc/ceph/keyring");
    }
    if let Some(a) = obj_mut(v, "azureDisk") {
        default_ptr(a, "cachingMode", "ReadWrite");
        default_ptr(a, "fsType", "ext4");
        default_ptr(a, "readOnly", false);
        default_ptr(a, "kind", "Shared");
    }
    if let Some(s) = obj_mut(v, "scaleIO") {
        default_str(s, "storageMode", "ThinProvisioned");
        default_str(s, "fsType", "xfs");
    }
    if let Some(spec) = obj_mut(v, "ephemeral")
        .and_then(|e| obj_mut(e, "volumeClaimTemplate"))
        .and_then(|t| obj_mut(t, "spec"))
    {
        super::storage::claim_spec(spec);
    }
    if let Some(i) = obj_mut(v, "image")
        && super::json::str_empty(i, "pullPolicy")
    {
        let policy = pull_policy(str_of(i, "reference"));
        i.insert("pullPolicy".to_owned(), Value::from(policy));
    }
}

/// `SetDefaults_ObjectFieldSelector` on the items of a downward API volume or projection.
fn downward_api_items(d: &mut Obj) {
    for item in items_mut(d, "items") {
        if let Some(f) = obj_mut(item, "fieldRef") {
            default_str(f, "apiVersion", "v1");
        }
        if let Some(r) = obj_mut(item, "resourceFieldRef") {
            quantities::zero_or_canonical(r, "divisor");
        }
    }
}
