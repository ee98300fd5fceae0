//! Facts of kubernetes `pkg/apis/{core,apps,batch,networking,autoscaling,rbac}/v1*/defaults_test.go`.

use serde_json::{Value, json};

use crate::support::{container, defaulted, pod, pod_spec, template};

fn job_spec(spec: Value) -> Value {
    let mut s = json!({"template": {"metadata": {"labels": {"default": "default"}},
        "spec": {"containers": [container("c")], "restartPolicy": "Never"}}});
    crate::support::merge(&mut s, spec);
    defaulted(
        "batch/v1",
        "Job",
        json!({"metadata": {"name": "j"}, "spec": s}),
    )
}

/// Name, spec, then the expected completions, parallelism, backoff limit and suspension.
type JobCase = (&'static str, Value, Option<i64>, i64, i64, bool);

#[test]
fn set_default_job() {
    // TestSetDefaultJob: (original spec fields, completions, parallelism, backoffLimit, suspend).
    let cases: &[JobCase] = &[
        (
            "All unspecified -> sets all to default values",
            json!({}),
            Some(1),
            1,
            6,
            false,
        ),
        (
            "suspend set, everything else is defaulted",
            json!({"suspend": true}),
            Some(1),
            1,
            6,
            true,
        ),
        (
            "WQ: Parallelism explicitly 0 and completions unset -> BackoffLimit is defaulted",
            json!({"parallelism": 0}),
            None,
            0,
            6,
            false,
        ),
        (
            "WQ: Parallelism explicitly 2 and completions unset -> BackoffLimit is defaulted",
            json!({"parallelism": 2}),
            None,
            2,
            6,
            false,
        ),
        (
            "Completions explicitly 2 and others unset -> parallelism and BackoffLimit are defaulted",
            json!({"completions": 2}),
            Some(2),
            1,
            6,
            false,
        ),
        (
            "BackoffLimit explicitly 5 and others unset -> parallelism and completions are defaulted",
            json!({"backoffLimit": 5}),
            Some(1),
            1,
            5,
            false,
        ),
        (
            "All set -> no change",
            json!({"completions": 8, "parallelism": 9, "backoffLimit": 10, "suspend": true}),
            Some(8),
            9,
            10,
            true,
        ),
        (
            "All set, flipped -> no change",
            json!({"completions": 11, "parallelism": 10, "backoffLimit": 9, "completionMode": "Indexed", "suspend": true}),
            Some(11),
            10,
            9,
            true,
        ),
    ];
    for (name, spec, completions, parallelism, backoff, suspend) in cases {
        let job = job_spec(spec.clone());
        let s = &job["spec"];
        assert_eq!(s["completions"].as_i64(), *completions, "{name}");
        assert_eq!(s["parallelism"], *parallelism, "{name}");
        assert_eq!(s["backoffLimit"], *backoff, "{name}");
        assert_eq!(s["suspend"], *suspend, "{name}");
        let mode = spec
            .get("completionMode")
            .cloned()
            .unwrap_or(json!("NonIndexed"));
        assert_eq!(s["completionMode"], mode, "{name}");
        // The Job takes its template's labels when it has none.
        assert_eq!(
            job["metadata"]["labels"],
            json!({"default": "default"}),
            "{name}"
        );
    }
    let labelled = defaulted(
        "batch/v1",
        "Job",
        json!({"metadata": {"labels": {"mylabel": "myvalue"}},
               "spec": {"template": {"metadata": {"labels": {"default": "default"}}}}}),
    );
    assert_eq!(
        labelled["metadata"]["labels"],
        json!({"mylabel": "myvalue"}),
        "no default labels"
    );
}

#[test]
fn set_default_job_1_35_fields() {
    // 1.35: backoffLimitPerIndex raises the default backoff limit, podReplacementPolicy follows
    // the pod failure policy, pod-condition patterns default to True.
    let per_index =
        job_spec(json!({"completionMode": "Indexed", "completions": 3, "backoffLimitPerIndex": 1}));
    assert_eq!(per_index["spec"]["backoffLimit"], 2147483647);
    assert_eq!(
        per_index["spec"]["podReplacementPolicy"],
        "TerminatingOrFailed"
    );
    let with_policy = job_spec(json!({"podFailurePolicy": {"rules": [
        {"action": "Ignore", "onPodConditions": [{"type": "DisruptionTarget"}]}]}}));
    assert_eq!(with_policy["spec"]["podReplacementPolicy"], "Failed");
    assert_eq!(
        with_policy["spec"]["podFailurePolicy"]["rules"][0]["onPodConditions"][0]["status"],
        "True"
    );
    let explicit = job_spec(json!({"podReplacementPolicy": "Failed"}));
    assert_eq!(explicit["spec"]["podReplacementPolicy"], "Failed");
}

#[test]
fn set_default_cron_job() {
    // TestSetDefaultCronJob.
    let empty = defaulted("batch/v1", "CronJob", json!({}));
    assert_eq!(
        empty["spec"],
        json!({"concurrencyPolicy": "Allow", "suspend": false,
               "successfulJobsHistoryLimit": 3, "failedJobsHistoryLimit": 1})
    );
    let set = json!({"concurrencyPolicy": "Forbid", "suspend": true,
                     "successfulJobsHistoryLimit": 5, "failedJobsHistoryLimit": 5});
    assert_eq!(
        defaulted("batch/v1", "CronJob", json!({"spec": set.clone()}))["spec"],
        set
    );
    // The Job template gets the pod defaults, not the Job's.
    let cj = defaulted(
        "batch/v1",
        "CronJob",
        json!({"spec": {"jobTemplate": {"spec": {"template": {"spec": pod_spec()}}}}}),
    );
    let jt = &cj["spec"]["jobTemplate"]["spec"];
    assert_eq!(jt["template"]["spec"]["dnsPolicy"], "ClusterFirst");
    assert!(jt.get("backoffLimit").is_none() && jt.get("completions").is_none());
}

#[test]
fn set_default_deployment() {
    // TestSetDefaultDeployment.
    let d = defaulted(
        "apps/v1",
        "Deployment",
        json!({"spec": {"template": template(pod_spec())}}),
    );
    let s = &d["spec"];
    assert_eq!(s["replicas"], 1);
    assert_eq!(
        s["strategy"],
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}})
    );
    assert_eq!(s["revisionHistoryLimit"], 10);
    assert_eq!(s["progressDeadlineSeconds"], 600);
    let set = defaulted(
        "apps/v1",
        "Deployment",
        json!({"spec": {"replicas": 5, "strategy": {"rollingUpdate": {"maxSurge": 1}},
                         "revisionHistoryLimit": 0, "progressDeadlineSeconds": 30}}),
    );
    assert_eq!(set["spec"]["replicas"], 5);
    assert_eq!(
        set["spec"]["strategy"]["rollingUpdate"],
        json!({"maxSurge": 1, "maxUnavailable": "25%"})
    );
    assert_eq!(set["spec"]["revisionHistoryLimit"], 0);
    assert_eq!(set["spec"]["progressDeadlineSeconds"], 30);
    let recreate = defaulted(
        "apps/v1",
        "Deployment",
        json!({"spec": {"strategy": {"type": "Recreate"}}}),
    );
    assert_eq!(recreate["spec"]["strategy"], json!({"type": "Recreate"}));
}

#[test]
fn set_default_replica_set_and_daemon_set() {
    // TestSetDefaultReplicaSetReplicas, TestSetDefaultDaemonSetSpec.
    assert_eq!(
        defaulted("apps/v1", "ReplicaSet", json!({}))["spec"]["replicas"],
        1
    );
    assert_eq!(
        defaulted("apps/v1", "ReplicaSet", json!({"spec": {"replicas": 0}}))["spec"]["replicas"],
        0
    );
    let ds = defaulted(
        "apps/v1",
        "DaemonSet",
        json!({"spec": {"template": template(pod_spec())}}),
    );
    assert_eq!(
        ds["spec"]["updateStrategy"],
        json!({"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 0}})
    );
    assert_eq!(ds["spec"]["revisionHistoryLimit"], 10);
    let on_delete = defaulted(
        "apps/v1",
        "DaemonSet",
        json!({"spec": {"updateStrategy": {"type": "OnDelete"}}}),
    );
    assert_eq!(
        on_delete["spec"]["updateStrategy"],
        json!({"type": "OnDelete"})
    );
}

#[test]
fn set_default_stateful_set() {
    // TestSetDefaultStatefulSet (StatefulSetAutoDeletePVC is GA).
    let sts = defaulted(
        "apps/v1",
        "StatefulSet",
        json!({"spec": {"template": template(pod_spec()), "volumeClaimTemplates": [
            {"metadata": {"name": "data"}, "spec": {"accessModes": ["ReadWriteOnce"],
             "resources": {"requests": {"storage": "1Gi"}}}}]}}),
    );
    let s = &sts["spec"];
    assert_eq!(s["podManagementPolicy"], "OrderedReady");
    assert_eq!(
        s["updateStrategy"],
        json!({"type": "RollingUpdate", "rollingUpdate": {"partition": 0}})
    );
    assert_eq!(
        s["persistentVolumeClaimRetentionPolicy"],
        json!({"whenDeleted": "Retain", "whenScaled": "Retain"})
    );
    assert_eq!(s["replicas"], 1);
    assert_eq!(s["revisionHistoryLimit"], 10);
    let claim = &s["volumeClaimTemplates"][0];
    assert_eq!(claim["spec"]["volumeMode"], "Filesystem");
    assert_eq!(claim["status"], json!({"phase": "Pending"}));
    // An explicit RollingUpdate without parameters gets no partition.
    let explicit = defaulted(
        "apps/v1",
        "StatefulSet",
        json!({"spec": {"updateStrategy": {"type": "RollingUpdate"}}}),
    );
    assert_eq!(
        explicit["spec"]["updateStrategy"],
        json!({"type": "RollingUpdate"})
    );
}

#[test]
fn set_default_pod_spec_and_containers() {
    // TestSetDefaultPodSpec, TestSetDefaultContainer, TestSetDefaultProbe,
    // TestSetDefaultHTTPGetAction, TestSetDefaultEnableServiceLinks.
    let p = defaulted(
        "v1",
        "Pod",
        pod(json!({"containers": [{"name": "c", "image": "nginx",
        "ports": [{"containerPort": 80}],
        "livenessProbe": {"httpGet": {"port": 80}},
        "readinessProbe": {"grpc": {"port": 9000}},
        "lifecycle": {"preStop": {"httpGet": {"port": 8080}}}}]})),
    );
    let s = &p["spec"];
    assert_eq!(s["dnsPolicy"], "ClusterFirst");
    assert_eq!(s["restartPolicy"], "Always");
    assert_eq!(s["securityContext"], json!({}));
    assert_eq!(s["terminationGracePeriodSeconds"], 30);
    assert_eq!(s["schedulerName"], "default-scheduler");
    assert_eq!(s["enableServiceLinks"], true);
    let c = &s["containers"][0];
    assert_eq!(c["imagePullPolicy"], "Always");
    assert_eq!(c["terminationMessagePath"], "/dev/termination-log");
    assert_eq!(c["terminationMessagePolicy"], "File");
    assert_eq!(c["ports"][0]["protocol"], "TCP");
    assert_eq!(c["resources"], json!({}));
    assert_eq!(
        c["livenessProbe"],
        json!({"httpGet": {"port": 80, "path": "/", "scheme": "HTTP"}, "timeoutSeconds": 1,
               "periodSeconds": 10, "successThreshold": 1, "failureThreshold": 3})
    );
    assert_eq!(
        c["readinessProbe"]["grpc"],
        json!({"port": 9000, "service": ""})
    );
    assert_eq!(
        c["lifecycle"]["preStop"]["httpGet"],
        json!({"port": 8080, "path": "/", "scheme": "HTTP"})
    );
    // Templates get the pod spec defaults, not the Pod-only ones.
    let d = defaulted(
        "apps/v1",
        "Deployment",
        json!({"spec": {"template": template(pod_spec())}}),
    );
    assert!(
        d["spec"]["template"]["spec"]
            .get("enableServiceLinks")
            .is_none()
    );
}

#[test]
fn set_default_requests_pod_only() {
    // TestSetDefaultRequestsPod, TestDefaultRequestIsNotSetForReplicationController.
    let limits = json!({"cpu": "100m", "memory": "1Gi"});
    let spec = json!({"containers": [{"name": "c", "image": "i", "resources": {"limits": limits.clone(), "requests": {"cpu": "50m"}}}],
                      "initContainers": [{"name": "i", "image": "i", "resources": {"limits": limits.clone()}}]});
    let p = defaulted("v1", "Pod", pod(spec.clone()));
    assert_eq!(
        p["spec"]["containers"][0]["resources"]["requests"],
        json!({"cpu": "50m", "memory": "1Gi"})
    );
    assert_eq!(
        p["spec"]["initContainers"][0]["resources"]["requests"],
        limits
    );
    let rc = defaulted(
        "v1",
        "ReplicationController",
        json!({"spec": {"template": template(spec)}}),
    );
    let r = &rc["spec"]["template"]["spec"]["containers"][0]["resources"];
    assert_eq!(r["requests"], json!({"cpu": "50m"}));
}

#[test]
fn image_pull_policy_by_tag() {
    for (image, policy) in [
        ("nginx", "Always"),
        ("nginx:latest", "Always"),
        ("nginx:1.27", "IfNotPresent"),
        (
            "nginx@sha256:0e072dddd1f7f8fc8909a2ca6f65e76c5f0d2fcfb8be47935ae3457e8bbceb20",
            "IfNotPresent",
        ),
    ] {
        let p = defaulted(
            "v1",
            "Pod",
            pod(json!({"containers": [{"name": "c", "image": image}]})),
        );
        assert_eq!(
            p["spec"]["containers"][0]["imagePullPolicy"], policy,
            "{image}"
        );
    }
    let explicit = defaulted(
        "v1",
        "Pod",
        pod(json!({"containers": [{"name": "c", "image": "nginx", "imagePullPolicy": "Never"}]})),
    );
    assert_eq!(
        explicit["spec"]["containers"][0]["imagePullPolicy"],
        "Never"
    );
}

#[test]
fn set_default_volumes() {
    // TestSetDefaultVolume, TestSetDefaultSecretVolumeSource, ...ConfigMapVolumeSource,
    // ...DownwardAPIVolumeSource, ...ProjectedVolumeSource, TestSetDefaultHostPathVolumeSource,
    // TestSetDefaultsServiceAccountTokenProjection, TestSetDefaultObjectFieldSelectorAPIVersion.
    let p = defaulted(
        "v1",
        "Pod",
        pod(json!({"containers": [container("c")], "volumes": [
        {"name": "none"},
        {"name": "s", "secret": {"secretName": "s"}},
        {"name": "cm", "configMap": {"name": "cm", "defaultMode": 256}},
        {"name": "d", "downwardAPI": {"items": [{"path": "n", "fieldRef": {"fieldPath": "metadata.name"}}]}},
        {"name": "p", "projected": {"sources": [{"serviceAccountToken": {"path": "t"}}]}},
        {"name": "h", "hostPath": {"path": "/tmp"}},
        {"name": "e", "emptyDir": {"sizeLimit": "1024Mi"}},
        {"name": "eph", "ephemeral": {"volumeClaimTemplate": {"spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1000Mi"}}}}}}]})),
    );
    let v = &p["spec"]["volumes"];
    assert_eq!(v[0], json!({"name": "none", "emptyDir": {}}));
    assert_eq!(v[1]["secret"]["defaultMode"], 420);
    assert_eq!(v[2]["configMap"]["defaultMode"], 256);
    assert_eq!(v[3]["downwardAPI"]["defaultMode"], 420);
    assert_eq!(
        v[3]["downwardAPI"]["items"][0]["fieldRef"]["apiVersion"],
        "v1"
    );
    assert_eq!(v[4]["projected"]["defaultMode"], 420);
    assert_eq!(
        v[4]["projected"]["sources"][0]["serviceAccountToken"]["expirationSeconds"],
        3600
    );
    assert_eq!(v[5]["hostPath"]["type"], "");
    assert_eq!(v[6]["emptyDir"]["sizeLimit"], "1Gi");
    let claim = &v[7]["ephemeral"]["volumeClaimTemplate"]["spec"];
    assert_eq!(claim["volumeMode"], "Filesystem");
    assert_eq!(claim["resources"]["requests"]["storage"], "1000Mi");
}

#[test]
fn env_field_refs_and_quantities() {
    // TestSetDefaultObjectFieldSelectorAPIVersion; SetDefaults_ResourceList rounds to milli units
    // and the round trip writes quantities canonically.
    let p = defaulted(
        "v1",
        "Pod",
        pod(json!({"containers": [{"name": "c", "image": "i",
        "env": [{"name": "N", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                {"name": "C", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu"}}}],
        "resources": {"limits": {"cpu": 0.5, "memory": "1.5Gi", "example.com/gpu": 1},
                      "requests": {"cpu": "100u", "memory": "1000000"}}}]})),
    );
    let c = &p["spec"]["containers"][0];
    assert_eq!(c["env"][0]["valueFrom"]["fieldRef"]["apiVersion"], "v1");
    assert_eq!(c["env"][1]["valueFrom"]["resourceFieldRef"]["divisor"], "0");
    assert_eq!(
        c["resources"]["limits"],
        json!({"cpu": "500m", "memory": "1536Mi", "example.com/gpu": "1"})
    );
    // Limits without a request, extended resources included, become requests (Pods only).
    assert_eq!(
        c["resources"]["requests"],
        json!({"cpu": "1m", "memory": "1M", "example.com/gpu": "1"})
    );
}

#[test]
fn host_network_ports() {
    // defaultHostNetworkPorts, for Pods only.
    let p = defaulted(
        "v1",
        "Pod",
        pod(
            json!({"hostNetwork": true, "containers": [{"name": "c", "image": "i",
        "ports": [{"containerPort": 8080}, {"containerPort": 9090, "hostPort": 9091}]}]}),
        ),
    );
    let ports = &p["spec"]["containers"][0]["ports"];
    assert_eq!(ports[0]["hostPort"], 8080);
    assert_eq!(ports[1]["hostPort"], 9091);
}

#[test]
fn set_default_service() {
    // TestSetDefaultService, TestSetDefaultServiceSessionAffinityConfig,
    // TestSetDefaultServiceTargetPort, TestSetDefaultServicePort,
    // TestSetDefaultServiceInternalTrafficPolicy, TestSetDefaultNodePortExternalTrafficPolicy,
    // TestSetDefaultServiceLoadBalancerAllocateLoadBalancerNodePorts.
    let s = defaulted(
        "v1",
        "Service",
        json!({"spec": {"ports": [{"port": 80}, {"port": 81, "targetPort": "http"}, {"port": 82, "targetPort": 0}]}}),
    );
    let spec = &s["spec"];
    assert_eq!(spec["sessionAffinity"], "None");
    assert_eq!(spec["type"], "ClusterIP");
    assert_eq!(spec["internalTrafficPolicy"], "Cluster");
    assert!(spec.get("externalTrafficPolicy").is_none());
    assert_eq!(spec["ports"][0]["targetPort"], 80);
    assert_eq!(spec["ports"][0]["protocol"], "TCP");
    assert_eq!(spec["ports"][1]["targetPort"], "http");
    assert_eq!(spec["ports"][2]["targetPort"], 82);
    let client = defaulted(
        "v1",
        "Service",
        json!({"spec": {"sessionAffinity": "ClientIP"}}),
    );
    assert_eq!(
        client["spec"]["sessionAffinityConfig"],
        json!({"clientIP": {"timeoutSeconds": 10800}})
    );
    let none = defaulted(
        "v1",
        "Service",
        json!({"spec": {"sessionAffinityConfig": {"clientIP": {"timeoutSeconds": 1}}}}),
    );
    assert!(none["spec"].get("sessionAffinityConfig").is_none());
    let np = defaulted("v1", "Service", json!({"spec": {"type": "NodePort"}}));
    assert_eq!(np["spec"]["externalTrafficPolicy"], "Cluster");
    let lb = defaulted(
        "v1",
        "Service",
        json!({"spec": {"type": "LoadBalancer"},
        "status": {"loadBalancer": {"ingress": [{"ip": "1.2.3.4"}, {"hostname": "lb"}]}}}),
    );
    assert_eq!(lb["spec"]["allocateLoadBalancerNodePorts"], true);
    assert_eq!(lb["status"]["loadBalancer"]["ingress"][0]["ipMode"], "VIP");
    assert!(
        lb["status"]["loadBalancer"]["ingress"][1]
            .get("ipMode")
            .is_none()
    );
    let external_ips = defaulted(
        "v1",
        "Service",
        json!({"spec": {"externalIPs": ["1.2.3.4"]}}),
    );
    assert_eq!(external_ips["spec"]["externalTrafficPolicy"], "Cluster");
    let external_name = defaulted("v1", "Service", json!({"spec": {"type": "ExternalName"}}));
    assert!(external_name["spec"].get("internalTrafficPolicy").is_none());
}

#[test]
fn set_default_core_kinds() {
    // TestSetDefaultSecret, TestSetDefaultPersistentVolumeClaim, TestSetDefaultNamespace,
    // TestSetDefaultNamespaceStatus, TestSetDefaultEndpointsProtocol,
    // TestSetDefaultReplicationController.
    assert_eq!(defaulted("v1", "Secret", json!({}))["type"], "Opaque");
    assert_eq!(
        defaulted("v1", "Secret", json!({"type": "kubernetes.io/tls"}))["type"],
        "kubernetes.io/tls"
    );
    let pvc = defaulted("v1", "PersistentVolumeClaim", json!({"spec": {}}));
    assert_eq!(pvc["spec"]["volumeMode"], "Filesystem");
    assert_eq!(pvc["status"]["phase"], "Pending");
    let ns = defaulted("v1", "Namespace", json!({"metadata": {"name": "team"}}));
    assert_eq!(
        ns["metadata"]["labels"],
        json!({"kubernetes.io/metadata.name": "team"})
    );
    assert_eq!(ns["status"]["phase"], "Active");
    let ep = defaulted(
        "v1",
        "Endpoints",
        json!({"subsets": [{"ports": [{"port": 80}]}]}),
    );
    assert_eq!(ep["subsets"][0]["ports"][0]["protocol"], "TCP");
    let rc = defaulted(
        "v1",
        "ReplicationController",
        json!({"spec": {"template": template(pod_spec())}}),
    );
    assert_eq!(rc["spec"]["selector"], json!({"app": "web"}));
    assert_eq!(rc["metadata"]["labels"], json!({"app": "web"}));
    assert_eq!(rc["spec"]["replicas"], 1);
}

#[test]
fn set_default_limit_range_item() {
    // TestSetDefaultLimitRangeItem.
    let lr = defaulted(
        "v1",
        "LimitRange",
        json!({"spec": {"limits": [{"type": "Container",
        "max": {"cpu": "100m"}, "min": {"memory": "100Mi"}}]}}),
    );
    let item = &lr["spec"]["limits"][0];
    assert_eq!(item["default"], json!({"cpu": "100m"}));
    assert_eq!(
        item["defaultRequest"],
        json!({"cpu": "100m", "memory": "100Mi"})
    );
}

#[test]
fn set_default_network_policy() {
    // TestSetDefaultNetworkPolicy, TestSetDefaultNetworkPolicyPort (networking/v1).
    let none = defaulted(
        "networking.k8s.io/v1",
        "NetworkPolicy",
        json!({"spec": {"podSelector": {}}}),
    );
    assert_eq!(none["spec"]["policyTypes"], json!(["Ingress"]));
    let egress = defaulted(
        "networking.k8s.io/v1",
        "NetworkPolicy",
        json!({"spec": {"egress": [{"ports": [{"port": 53}]}]}}),
    );
    assert_eq!(egress["spec"]["policyTypes"], json!(["Ingress", "Egress"]));
    assert_eq!(egress["spec"]["egress"][0]["ports"][0]["protocol"], "TCP");
    let explicit = defaulted(
        "networking.k8s.io/v1",
        "NetworkPolicy",
        json!({"spec": {"policyTypes": ["Egress"]}}),
    );
    assert_eq!(explicit["spec"]["policyTypes"], json!(["Egress"]));
}

#[test]
fn set_default_hpa() {
    // autoscaling/v2 TestSetDefaultHPA and TestHorizontalPodAutoscalerBehavior-style facts.
    let h = defaulted(
        "autoscaling/v2",
        "HorizontalPodAutoscaler",
        json!({"spec": {"maxReplicas": 3}}),
    );
    assert_eq!(h["spec"]["minReplicas"], 1);
    assert_eq!(
        h["spec"]["metrics"],
        json!([{"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": 80}}}])
    );
    assert!(h["spec"].get("behavior").is_none());
    let b = defaulted(
        "autoscaling/v2",
        "HorizontalPodAutoscaler",
        json!({"spec": {"behavior": {"scaleDown": {"stabilizationWindowSeconds": 60}}}}),
    );
    assert_eq!(
        b["spec"]["behavior"],
        json!({"scaleUp": {"stabilizationWindowSeconds": 0, "selectPolicy": "Max", "policies": [
                   {"type": "Pods", "value": 4, "periodSeconds": 15},
                   {"type": "Percent", "value": 100, "periodSeconds": 15}]},
               "scaleDown": {"stabilizationWindowSeconds": 60, "selectPolicy": "Max", "policies": [
                   {"type": "Percent", "value": 100, "periodSeconds": 15}]}})
    );
    let v1 = defaulted(
        "autoscaling/v1",
        "HorizontalPodAutoscaler",
        json!({"spec": {"maxReplicas": 3}}),
    );
    assert_eq!(v1["spec"]["minReplicas"], 1);
    assert!(v1["spec"].get("targetCPUUtilizationPercentage").is_none());
    // The 80% comes from storing v1 as v2 (`Convert_v1_HorizontalPodAutoscaler_To_autoscaling_...`).
    let stored = crdkit_builtin::conversion::autoscaling::hpa_v1_to_v2(&v1);
    let back = crdkit_builtin::conversion::autoscaling::hpa_v2_to_v1(&stored);
    assert_eq!(back["spec"]["targetCPUUtilizationPercentage"], 80);
}

#[test]
fn set_default_rbac() {
    // rbac/v1 TestSetDefaultRoleBinding, TestSetDefaultSubject.
    let rb = defaulted(
        "rbac.authorization.k8s.io/v1",
        "RoleBinding",
        json!({"roleRef": {"kind": "Role", "name": "r"}, "subjects": [
            {"kind": "User", "name": "u"}, {"kind": "Group", "name": "g"},
            {"kind": "ServiceAccount", "name": "sa", "namespace": "ns"}]}),
    );
    assert_eq!(rb["roleRef"]["apiGroup"], "rbac.authorization.k8s.io");
    assert_eq!(rb["subjects"][0]["apiGroup"], "rbac.authorization.k8s.io");
    assert_eq!(rb["subjects"][1]["apiGroup"], "rbac.authorization.k8s.io");
    // Go's "" in an `omitempty` field: nothing on the wire (a stored binding compares equal to
    // the manifest, so a later server-side apply of it does not conflict).
    assert_eq!(rb["subjects"][2].get("apiGroup"), None);
    let explicit = defaulted(
        "rbac.authorization.k8s.io/v1",
        "RoleBinding",
        json!({"roleRef": {"kind": "Role", "name": "r"}, "subjects": [
            {"apiGroup": "", "kind": "ServiceAccount", "name": "sa", "namespace": "ns"}]}),
    );
    assert_eq!(explicit["subjects"][0].get("apiGroup"), None);
}

#[test]
fn kinds_without_defaults_are_known() {
    for (api, kind) in [
        ("v1", "ConfigMap"),
        ("v1", "ServiceAccount"),
        ("policy/v1", "PodDisruptionBudget"),
        ("networking.k8s.io/v1", "Ingress"),
        ("coordination.k8s.io/v1", "Lease"),
        ("rbac.authorization.k8s.io/v1", "Role"),
    ] {
        let mut v = json!({"spec": {}});
        assert!(crdkit_builtin::defaults::apply(api, kind, &mut v), "{kind}");
        assert_eq!(v, json!({"spec": {}}), "{kind}");
    }
    let mut v = json!({});
    assert!(!crdkit_builtin::defaults::apply(
        "example.com/v1",
        "Widget",
        &mut v
    ));
    assert!(!crdkit_builtin::defaults::apply(
        "apps/v1beta1",
        "Deployment",
        &mut v
    ));
}
