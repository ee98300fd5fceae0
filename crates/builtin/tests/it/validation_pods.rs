//! Rows of kubernetes `pkg/apis/core/validation/validation_test.go` for pods and pod specs
//! (`TestValidateContainers`, `TestValidateContainerPorts`, `TestValidateEnv`,
//! `TestValidateProbe`, `TestValidateVolumes`, `TestValidateVolumeMounts`,
//! `TestValidateResourceRequirements`, `TestValidatePodSpec`, `TestValidatePodUpdate`).

use serde_json::{Value, json};

use crate::support::{container, create_errors, pod, pod_spec, stored, update_errors};

fn pod_errors(spec: Value) -> Vec<String> {
    create_errors("v1", "Pod", pod(spec))
}

fn with_container(c: Value) -> Vec<String> {
    pod_errors(json!({"containers": [c]}))
}

const DNS_LABEL: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

#[test]
fn valid_pods() {
    assert_eq!(pod_errors(pod_spec()), Vec::<String>::new());
    let full = json!({"containers": [{"name": "web", "image": "nginx",
        "ports": [{"name": "http", "containerPort": 80}, {"containerPort": 53, "protocol": "UDP"}],
        "env": [{"name": "A", "value": "1"}, {"name": "1-not-a-c-identifier.but:ok", "value": "x"},
                {"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                {"name": "LBL", "valueFrom": {"fieldRef": {"fieldPath": "metadata.labels['app']"}}},
                {"name": "CPU", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu", "divisor": "1m"}}},
                {"name": "S", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}}],
        "envFrom": [{"configMapRef": {"name": "cm"}, "prefix": "CM_"}],
        "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}, "limits": {"cpu": "1", "memory": "128Mi"}},
        "volumeMounts": [{"name": "data", "mountPath": "/data"}, {"name": "cfg", "mountPath": "/etc/cfg", "subPath": "a"}],
        "livenessProbe": {"tcpSocket": {"port": "http"}},
        "readinessProbe": {"exec": {"command": ["true"]}},
        "startupProbe": {"httpGet": {"port": 80}},
        "lifecycle": {"preStop": {"sleep": {"seconds": 5}}}}],
        "initContainers": [{"name": "sidecar", "image": "envoy", "restartPolicy": "Always", "readinessProbe": {"grpc": {"port": 9901}}}],
        "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "c"}}, {"name": "cfg", "configMap": {"name": "cm"}}],
        "tolerations": [{"key": "k", "operator": "Exists", "effect": "NoSchedule"}, {"operator": "Exists"}],
        "affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": "zone", "operator": "In", "values": ["a"]}]}]}}},
        "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule", "labelSelector": {"matchLabels": {"app": "web"}}}],
        "serviceAccountName": "robot", "securityContext": {"runAsUser": 1000, "fsGroup": 2000}});
    assert_eq!(pod_errors(full), Vec::<String>::new());
}

#[test]
fn container_names_and_images() {
    // TestValidateContainers error cases.
    assert_eq!(
        with_container(json!({"image": "i"})),
        ["spec.containers[0].name: Required value"]
    );
    assert_eq!(
        with_container(json!({"name": "Bad_Name", "image": "i"})),
        [format!(
            r#"spec.containers[0].name: Invalid value: "Bad_Name": {DNS_LABEL}"#
        )]
    );
    let long = "a".repeat(64);
    assert_eq!(
        with_container(json!({"name": long, "image": "i"})),
        [format!(
            r#"spec.containers[0].name: Invalid value: "{long}": must be no more than 63 characters"#
        )]
    );
    assert_eq!(
        with_container(json!({"name": "c"})),
        ["spec.containers[0].image: Required value"]
    );
    assert_eq!(
        with_container(json!({"name": "c", "image": " i"})),
        [
            r#"spec.containers[0].image: Invalid value: " i": must not have leading or trailing whitespace"#
        ]
    );
    assert_eq!(
        pod_errors(json!({"containers": [container("c"), container("c")]})),
        [r#"spec.containers[1].name: Duplicate value: "c""#]
    );
    assert_eq!(
        pod_errors(json!({"containers": [container("c")], "initContainers": [container("c")]})),
        [r#"spec.initContainers[0].name: Duplicate value: "c""#]
    );
    assert_eq!(
        pod_errors(json!({"containers": []})),
        ["spec.containers: Required value"]
    );
    assert_eq!(
        with_container(json!({"name": "c", "image": "i", "imagePullPolicy": "Sometimes"})),
        [
            r#"spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never""#
        ]
    );
    assert_eq!(
        with_container(json!({"name": "c", "image": "i", "restartPolicy": "Always"})),
        ["spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers"]
    );
    assert_eq!(
        pod_errors(
            json!({"containers": [container("c")], "initContainers": [{"name": "i", "image": "i", "livenessProbe": {"exec": {"command": ["x"]}}}]})
        ),
        [
            "spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always"
        ]
    );
    assert_eq!(
        pod_errors(
            json!({"containers": [container("c")], "initContainers": [{"name": "i", "image": "i", "restartPolicy": "Never"}]})
        ),
        [
            r#"spec.initContainers[0].restartPolicy: Unsupported value: "Never": supported values: "Always""#
        ]
    );
}

#[test]
fn container_ports() {
    // TestValidateContainerPorts.
    let ports = |ports: Value| with_container(json!({"name": "c", "image": "i", "ports": ports}));
    assert_eq!(
        ports(json!([{"containerPort": 0}])),
        ["spec.containers[0].ports[0].containerPort: Required value"]
    );
    assert_eq!(
        ports(json!([{"containerPort": 65536}])),
        [
            "spec.containers[0].ports[0].containerPort: Invalid value: 65536: must be between 1 and 65535, inclusive"
        ]
    );
    assert_eq!(
        ports(json!([{"containerPort": 80, "hostPort": -1}])),
        [
            "spec.containers[0].ports[0].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive"
        ]
    );
    assert_eq!(
        ports(json!([{"containerPort": 80, "protocol": "HTTP"}])),
        [
            r#"spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP""#
        ]
    );
    assert_eq!(
        ports(json!([{"name": "a", "containerPort": 80}, {"name": "a", "containerPort": 81}])),
        [r#"spec.containers[0].ports[1].name: Duplicate value: "a""#]
    );
    assert_eq!(
        ports(json!([{"name": "Http", "containerPort": 80}])),
        [
            r#"spec.containers[0].ports[0].name: Invalid value: "Http": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"#
        ]
    );
    assert_eq!(
        ports(json!([{"name": "1234", "containerPort": 80}])),
        [
            r#"spec.containers[0].ports[0].name: Invalid value: "1234": must contain at least one letter (a-z)"#
        ]
    );
    assert_eq!(
        pod_errors(
            json!({"containers": [{"name": "a", "image": "i", "ports": [{"containerPort": 80, "hostPort": 8080}]},
                                         {"name": "b", "image": "i", "ports": [{"containerPort": 81, "hostPort": 8080}]}]})
        ),
        [r#"spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080""#]
    );
    assert_eq!(
        pod_errors(
            json!({"hostNetwork": true, "containers": [{"name": "a", "image": "i", "ports": [{"containerPort": 80, "hostPort": 81}]}]})
        ),
        [
            "spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true"
        ]
    );
}

#[test]
fn env_names_and_sources() {
    // TestValidateEnv with RelaxedEnvironmentVariableValidation (GA in 1.35).
    let env = |env: Value| with_container(json!({"name": "c", "image": "i", "env": env}));
    assert_eq!(
        env(json!([{"name": ""}])),
        ["spec.containers[0].env[0].name: Required value"]
    );
    assert_eq!(
        env(json!([{"name": "a=b"}])),
        [
            r#"spec.containers[0].env[0].name: Invalid value: "a=b": a valid environment variable name must consist only of printable ASCII characters other than '='"#
        ]
    );
    assert_eq!(
        env(json!([{"name": "tab\there"}])),
        [
            r#"spec.containers[0].env[0].name: Invalid value: "tab\there": a valid environment variable name must consist only of printable ASCII characters other than '='"#
        ]
    );
    assert_eq!(
        env(json!([{"name": "a", "valueFrom": {}}])),
        [
            r#"spec.containers[0].env[0].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"#
        ]
    );
    assert_eq!(
        env(
            json!([{"name": "a", "value": "x", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}])
        ),
        [
            r#"spec.containers[0].env[0].valueFrom: Invalid value: "": may not be specified when `value` is not empty"#
        ]
    );
    assert_eq!(
        env(
            json!([{"name": "a", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}, "secretKeyRef": {"name": "s", "key": "k"}}}])
        ),
        [
            r#"spec.containers[0].env[0].valueFrom: Invalid value: "": may not have more than one field specified at a time"#
        ]
    );
    assert_eq!(
        env(json!([{"name": "a", "valueFrom": {"fieldRef": {"fieldPath": "status.phase"}}}])),
        [
            r#"spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs""#
        ]
    );
    assert_eq!(
        env(json!([{"name": "a", "valueFrom": {"fieldRef": {"fieldPath": "metadata.whatever"}}}])),
        [
            r#"spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.whatever": error converting fieldPath: field label not supported: metadata.whatever"#
        ]
    );
    assert_eq!(
        env(
            json!([{"name": "a", "valueFrom": {"fieldRef": {"apiVersion": "v2", "fieldPath": "metadata.name"}}}])
        ),
        [
            r#"spec.containers[0].env[0].valueFrom.fieldRef.fieldPath: Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2"#
        ]
    );
    assert_eq!(
        env(json!([{"name": "a", "valueFrom": {"configMapKeyRef": {"name": "cm"}}}])),
        ["spec.containers[0].env[0].valueFrom.configMapKeyRef.key: Required value"]
    );
    assert_eq!(
        env(
            json!([{"name": "a", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu", "divisor": "1Ki"}}}])
        ),
        [
            r#"spec.containers[0].env[0].valueFrom.resourceFieldRef.divisor: Invalid value: "limits.cpu": only divisor's values 1m and 1 are supported with the cpu resource"#
        ]
    );
    assert_eq!(
        with_container(
            json!({"name": "c", "image": "i", "envFrom": [{"prefix": "a=", "secretRef": {"name": "s"}}]})
        ),
        [
            r#"spec.containers[0].envFrom[0].prefix: Invalid value: "a=": a valid environment variable name must consist only of printable ASCII characters other than '='"#
        ]
    );
    assert_eq!(
        with_container(json!({"name": "c", "image": "i", "envFrom": [{}]})),
        [
            r#"spec.containers[0].envFrom: Invalid value: "": must specify one of: `configMapRef` or `secretRef`"#
        ]
    );
}

#[test]
fn probes_and_handlers() {
    // TestValidateProbe, TestValidateHandler, TestValidateLifecycle.
    let probe = |k: &str, p: Value| with_container(json!({"name": "c", "image": "i", k: p}));
    assert_eq!(
        probe("livenessProbe", json!({})),
        ["spec.containers[0].livenessProbe: Required value: must specify a handler type"]
    );
    assert_eq!(
        probe(
            "livenessProbe",
            json!({"exec": {"command": ["x"]}, "tcpSocket": {"port": 80}})
        ),
        [
            "spec.containers[0].livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type"
        ]
    );
    assert_eq!(
        probe(
            "livenessProbe",
            json!({"exec": {"command": ["x"]}, "successThreshold": 2})
        ),
        ["spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1"]
    );
    assert_eq!(
        probe(
            "readinessProbe",
            json!({"exec": {"command": ["x"]}, "initialDelaySeconds": -1})
        ),
        [
            "spec.containers[0].readinessProbe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0"
        ]
    );
    assert_eq!(
        probe(
            "readinessProbe",
            json!({"exec": {"command": ["x"]}, "terminationGracePeriodSeconds": 10})
        ),
        [
            "spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes"
        ]
    );
    assert_eq!(
        probe("startupProbe", json!({"exec": {}})),
        ["spec.containers[0].startupProbe.exec.command: Required value"]
    );
    assert_eq!(
        probe("livenessProbe", json!({"httpGet": {"port": 0}})),
        [
            "spec.containers[0].livenessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive"
        ]
    );
    assert_eq!(
        probe(
            "livenessProbe",
            json!({"httpGet": {"port": "web", "scheme": "FTP"}})
        ),
        [
            r#"spec.containers[0].livenessProbe.httpGet.scheme: Unsupported value: "FTP": supported values: "HTTP", "HTTPS""#
        ]
    );
    assert_eq!(
        probe("livenessProbe", json!({"grpc": {"port": 70000}})),
        [
            "spec.containers[0].livenessProbe.grpc.port: Invalid value: 70000: must be between 1 and 65535, inclusive"
        ]
    );
    assert_eq!(
        probe("lifecycle", json!({"preStop": {"sleep": {"seconds": 31}}})),
        [
            "spec.containers[0].lifecycle.preStop.sleep: Invalid value: 31: must be non-negative and less than terminationGracePeriodSeconds (30)"
        ]
    );
    assert_eq!(
        probe("lifecycle", json!({"postStart": {"grpc": {"port": 80}}})),
        ["spec.containers[0].lifecycle.postStart: Required value: must specify a handler type"]
    );
}

#[test]
fn resources() {
    // TestValidateResourceRequirements, in a template (Pods would copy limits to requests).
    let res = |r: Value| {
        let c = json!({"name": "c", "image": "i", "resources": r});
        create_errors(
            "apps/v1",
            "Deployment",
            crate::support::deployment(
                json!({"template": crate::support::template(json!({"containers": [c]}))}),
            ),
        )
    };
    assert_eq!(
        res(json!({"limits": {"cpu": "1"}, "requests": {"cpu": "2"}})),
        [
            r#"spec.template.spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1"#
        ]
    );
    assert_eq!(
        res(json!({"limits": {"memory": "1Gi"}, "requests": {"memory": "2Gi"}})),
        [
            r#"spec.template.spec.containers[0].resources.requests: Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi"#
        ]
    );
    assert_eq!(
        res(json!({"requests": {"cpu": "-1"}})),
        [
            r#"spec.template.spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0"#
        ]
    );
    assert_eq!(
        res(json!({"limits": {"gpu": "1"}})),
        [
            r#"spec.template.spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified"#,
            r#"spec.template.spec.containers[0].resources.limits[gpu]: Invalid value: "gpu": must be a standard resource for containers"#
        ]
    );
    assert_eq!(
        res(json!({"requests": {"example.com/gpu": "1"}})),
        [
            "spec.template.spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources"
        ]
    );
    assert_eq!(
        res(json!({"limits": {"example.com/gpu": "2"}, "requests": {"example.com/gpu": "1"}})),
        [
            r#"spec.template.spec.containers[0].resources.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2"#
        ]
    );
    assert_eq!(
        res(json!({"limits": {"example.com/gpu": "500m"}})),
        [
            r#"spec.template.spec.containers[0].resources.limits[example.com/gpu]: Invalid value: "500m": must be an integer"#
        ]
    );
    assert_eq!(
        res(json!({"limits": {"hugepages-2Mi": "2Mi"}})),
        ["spec.template.spec.containers[0].resources: Forbidden: HugePages require cpu or memory"]
    );
    assert_eq!(
        res(json!({"limits": {"memory": "1Gi", "hugepages-2Mi": "3Mi"}})),
        [
            r#"spec.template.spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi"#
        ]
    );
    assert_eq!(
        res(json!({"limits": {"cpu": "lots"}})),
        [
            r#"spec.template.spec.containers[0].resources.limits[cpu]: Invalid value: "lots": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"#
        ]
    );
}

#[test]
fn volumes_and_mounts() {
    // TestValidateVolumes, TestValidateVolumeMounts.
    let vols = |v: Value, mounts: Value| {
        pod_errors(
            json!({"containers": [{"name": "c", "image": "i", "volumeMounts": mounts}], "volumes": v}),
        )
    };
    assert_eq!(
        vols(
            json!([{"name": "a", "emptyDir": {}}, {"name": "a", "emptyDir": {}}]),
            json!([])
        ),
        [r#"spec.volumes[1].name: Duplicate value: "a""#]
    );
    assert_eq!(
        vols(
            json!([{"name": "a", "emptyDir": {}, "secret": {"secretName": "s"}}]),
            json!([])
        ),
        ["spec.volumes[0].secret: Forbidden: may not specify more than 1 volume type"]
    );
    assert_eq!(
        vols(json!([{"name": "A", "emptyDir": {}}]), json!([])),
        [format!(
            r#"spec.volumes[0].name: Invalid value: "A": {DNS_LABEL}"#
        )]
    );
    assert_eq!(
        vols(json!([{"name": "s", "secret": {}}]), json!([])),
        ["spec.volumes[0].secret.secretName: Required value"]
    );
    assert_eq!(
        vols(
            json!([{"name": "s", "secret": {"secretName": "s", "defaultMode": 1024}}]),
            json!([])
        ),
        [
            "spec.volumes[0].secret.defaultMode: Invalid value: 1024: must be a number between 0 and 0777 (octal), both inclusive"
        ]
    );
    assert_eq!(
        vols(
            json!([{"name": "c", "configMap": {"name": "c", "items": [{"key": "k", "path": "../x"}]}}]),
            json!([])
        ),
        [
            r#"spec.volumes[0].configMap.items[0].path: Invalid value: "../x": must not contain '..'"#
        ]
    );
    assert_eq!(
        vols(json!([{"name": "h", "hostPath": {"path": ""}}]), json!([])),
        ["spec.volumes[0].hostPath.path: Required value"]
    );
    assert_eq!(
        vols(
            json!([{"name": "p", "persistentVolumeClaim": {}}]),
            json!([])
        ),
        ["spec.volumes[0].persistentVolumeClaim.claimName: Required value"]
    );
    assert_eq!(
        vols(
            json!([{"name": "d", "emptyDir": {}}]),
            json!([{"name": "missing", "mountPath": "/m"}])
        ),
        [r#"spec.containers[0].volumeMounts[0].name: Not found: "missing""#]
    );
    assert_eq!(
        vols(
            json!([{"name": "d", "emptyDir": {}}]),
            json!([{"name": "d", "mountPath": "/m"}, {"name": "d", "mountPath": "/m"}])
        ),
        [r#"spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/m": must be unique"#]
    );
    assert_eq!(
        vols(
            json!([{"name": "d", "emptyDir": {}}]),
            json!([{"name": "d"}])
        ),
        ["spec.containers[0].volumeMounts[0].mountPath: Required value"]
    );
    assert_eq!(
        vols(
            json!([{"name": "d", "emptyDir": {}}]),
            json!([{"name": "d", "mountPath": "/m", "subPath": "/abs"}])
        ),
        [
            r#"spec.containers[0].volumeMounts.subPath: Invalid value: "/abs": must be a relative path"#
        ]
    );
    assert_eq!(
        vols(
            json!([{"name": "d", "emptyDir": {}}]),
            json!([{"name": "d", "mountPath": "/m", "mountPropagation": "Bidirectional"}])
        ),
        [
            "spec.containers[0].volumeMounts.mountPropagation: Forbidden: Bidirectional mount propagation is available only to privileged containers"
        ]
    );
    assert_eq!(
        pod_errors(
            json!({"containers": [container("c")], "volumes": [{"name": "t", "projected": {"sources": [{"serviceAccountToken": {"path": "t", "expirationSeconds": 60}}]}}]})
        ),
        [
            "spec.volumes[0].projected.sources[0].serviceAccountToken.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes",
            "spec.volumes[0].projected.sources[0].serviceAccountToken: Forbidden: must not be specified when serviceAccountName is not set"
        ]
    );
}

#[test]
fn pod_spec_fields() {
    // TestValidatePodSpec, TestValidateRestartPolicy, TestValidateDNSPolicy, TestValidateTolerations.
    let spec = |extra: Value| {
        let mut s = pod_spec();
        crate::support::merge(&mut s, extra);
        pod_errors(s)
    };
    assert_eq!(
        spec(json!({"restartPolicy": "Sometimes"})),
        [
            r#"spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never""#
        ]
    );
    assert_eq!(
        spec(json!({"dnsPolicy": "Custom"})),
        [
            r#"spec.dnsPolicy: Unsupported value: "Custom": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None""#
        ]
    );
    assert_eq!(
        spec(json!({"dnsPolicy": "None"})),
        ["spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None"]
    );
    assert_eq!(
        spec(json!({"activeDeadlineSeconds": 0})),
        [
            "spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive"
        ]
    );
    assert_eq!(
        spec(json!({"nodeSelector": {"a b": "c"}})),
        [
            r#"spec.nodeSelector: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"#
        ]
    );
    assert_eq!(
        spec(json!({"tolerations": [{"operator": "Equal", "value": "v"}]})),
        [
            r#"spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys""#
        ]
    );
    assert_eq!(
        spec(json!({"tolerations": [{"key": "k", "operator": "Exists", "value": "v"}]})),
        [
            r#"spec.tolerations[0].operator: Invalid value: "v": value must be empty when `operator` is 'Exists'"#
        ]
    );
    assert_eq!(
        spec(
            json!({"tolerations": [{"key": "k", "tolerationSeconds": 5, "effect": "NoSchedule"}]})
        ),
        [
            r#"spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when `tolerationSeconds` is set"#
        ]
    );
    assert_eq!(
        spec(json!({"securityContext": {"runAsUser": -1}})),
        [
            "spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive"
        ]
    );
    assert_eq!(
        spec(
            json!({"topologySpreadConstraints": [{"maxSkew": 0, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule"}]})
        ),
        ["spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero"]
    );
    assert_eq!(
        spec(
            json!({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": []}}}})
        ),
        [
            "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term"
        ]
    );
    assert_eq!(
        spec(json!({"ephemeralContainers": [{"name": "debug", "image": "busybox"}]})),
        ["spec.ephemeralContainers: Forbidden: cannot be set on create"]
    );
    assert_eq!(
        spec(json!({"serviceAccountName": "Robot"})),
        [
            r#"spec.serviceAccountName: Invalid value: "Robot": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"#
        ]
    );
}

#[test]
fn pod_metadata() {
    // TestValidatePod: names are DNS subdomains, the namespace is required.
    let mut p = pod(pod_spec());
    p["metadata"] = json!({"name": "Bad", "labels": {"app": "-x"}, "annotations": {"controller.kubernetes.io/pod-deletion-cost": "+10"}});
    let errs = create_errors("v1", "Pod", p);
    assert_eq!(errs.len(), 4, "{errs:?}");
    assert!(
        errs[0]
            .starts_with(r#"metadata.name: Invalid value: "Bad": a lowercase RFC 1123 subdomain"#)
    );
    assert_eq!(errs[1], "metadata.namespace: Required value");
    assert!(errs[2].starts_with(
        r#"metadata.labels: Invalid value: "-x": a valid label must be an empty string"#
    ));
    assert_eq!(
        errs[3],
        r#"metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "+10": must be a 32bit integer"#
    );
}

#[test]
fn pod_updates() {
    // TestValidatePodUpdate.
    let old = stored("v1", "Pod", pod(pod_spec()));
    let mut image = old.clone();
    image["spec"]["containers"][0]["image"] = json!("other");
    assert_eq!(
        update_errors("v1", "Pod", image, &old),
        Vec::<String>::new()
    );
    let mut env = old.clone();
    env["spec"]["containers"][0]["env"] = json!([{"name": "A", "value": "1"}]);
    let errs = update_errors("v1", "Pod", env, &old);
    assert_eq!(errs.len(), 1);
    assert!(errs[0].starts_with("spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`"), "{errs:?}");
    let mut more = old.clone();
    more["spec"]["containers"] = json!([container("ctr"), container("two")]);
    assert_eq!(
        update_errors("v1", "Pod", more, &old),
        ["spec.containers: Forbidden: pod updates may not add or remove containers"]
    );
    let mut no_rv = old.clone();
    no_rv["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("resourceVersion");
    assert_eq!(
        update_errors("v1", "Pod", no_rv, &old),
        [r#"metadata.resourceVersion: Invalid value: "": must be specified for an update"#]
    );
    let mut renamed = old.clone();
    renamed["metadata"]["namespace"] = json!("other");
    assert_eq!(
        update_errors("v1", "Pod", renamed, &old),
        [r#"metadata.namespace: Invalid value: "other": field is immutable"#]
    );
}
