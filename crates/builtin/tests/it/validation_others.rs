//! Rows of kubernetes `validation_test.go` for Services, ConfigMaps, Secrets, claims,
//! namespaces, networking, autoscaling, policy and RBAC kinds.

use crdkit_builtin::validation::{self, NameRule};
use serde_json::{Value, json};

use crate::support::{create_errors, stored, update_errors};

fn svc(spec: Value) -> Value {
    json!({"metadata": {"name": "web", "namespace": "ns"}, "spec": spec})
}

#[test]
fn services() {
    // TestValidateServiceCreate (objects not yet allocated: cluster IPs are empty).
    let ok = svc(json!({"selector": {"app": "web"}, "ports": [{"port": 80}]}));
    assert_eq!(create_errors("v1", "Service", ok), Vec::<String>::new());
    assert_eq!(
        create_errors("v1", "Service", svc(json!({}))),
        ["spec.ports: Required value"]
    );
    let mut bad_name = svc(json!({"ports": [{"port": 80}]}));
    bad_name["metadata"]["name"] = json!("1web");
    assert_eq!(
        create_errors("v1", "Service", bad_name),
        [
            r#"metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"#
        ]
    );
    assert_eq!(
        create_errors(
            "v1",
            "Service",
            svc(json!({"ports": [{"port": 80}, {"port": 443}]}))
        ),
        [
            "spec.ports[0].name: Required value",
            "spec.ports[1].name: Required value"
        ]
    );
    assert_eq!(
        create_errors("v1", "Service", svc(json!({"ports": [{"port": 0}]}))),
        [
            "spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive",
            "spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive"
        ]
    );
    assert_eq!(
        create_errors(
            "v1",
            "Service",
            svc(json!({"ports": [{"name": "a", "port": 80}, {"name": "b", "port": 80}]}))
        ),
        [
            r#"spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}"#
        ]
    );
    assert_eq!(
        create_errors(
            "v1",
            "Service",
            svc(json!({"ports": [{"port": 80, "nodePort": 30080}]}))
        ),
        ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]
    );
    assert_eq!(
        create_errors(
            "v1",
            "Service",
            svc(json!({"type": "Cluster", "ports": [{"port": 80}]}))
        ),
        [
            r#"spec.type: Unsupported value: "Cluster": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort""#
        ]
    );
    assert_eq!(
        create_errors(
            "v1",
            "Service",
            svc(json!({"ports": [{"port": 80}], "sessionAffinity": "Sticky"}))
        ),
        [
            r#"spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None""#
        ]
    );
    assert_eq!(
        create_errors(
            "v1",
            "Service",
            svc(json!({"type": "ExternalName", "externalName": "Not A Host"}))
        ),
        [
            r#"spec.externalName: Invalid value: "Not A Host": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"#
        ]
    );
    assert_eq!(
        create_errors(
            "v1",
            "Service",
            svc(json!({"ports": [{"port": 80}], "externalTrafficPolicy": "Local"}))
        ),
        [
            r#"spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services"#
        ]
    );
    assert_eq!(
        create_errors(
            "v1",
            "Service",
            svc(json!({"ports": [{"port": 80}], "clusterIPs": ["10.96.0.1"]}))
        ),
        [
            r#"spec.clusterIPs: Invalid value: ["10.96.0.1"]: must be empty when `clusterIP` is not specified"#
        ]
    );
    assert_eq!(
        create_errors(
            "v1",
            "Service",
            svc(
                json!({"ports": [{"port": 80}], "clusterIP": "10.96.0.2", "clusterIPs": ["10.96.0.1"]})
            )
        ),
        [r#"spec.clusterIPs: Invalid value: ["10.96.0.1"]: first value must match `clusterIP`"#]
    );
    assert_eq!(
        create_errors(
            "v1",
            "Service",
            svc(json!({"ports": [{"port": 80}], "externalIPs": ["127.0.0.1"]}))
        ),
        [
            r#"spec.externalIPs[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)"#
        ]
    );
    assert_eq!(
        create_errors(
            "v1",
            "Service",
            svc(json!({"ports": [{"port": 80}], "loadBalancerSourceRanges": ["10.0.0.0/8"]}))
        ),
        [
            "spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'"
        ]
    );
    assert_eq!(
        create_errors(
            "v1",
            "Service",
            svc(json!({"ports": [{"port": 80, "appProtocol": "a b"}]}))
        )
        .len(),
        1
    );
}

#[test]
fn config_maps_and_secrets() {
    // TestValidateConfigMap, TestValidateConfigMapUpdate, TestValidateSecret,
    // TestValidateSecretUpdate.
    let cm = json!({"metadata": {"name": "c", "namespace": "ns"}, "data": {"a": "1"}, "binaryData": {"b": "eA=="}});
    assert_eq!(
        create_errors("v1", "ConfigMap", cm.clone()),
        Vec::<String>::new()
    );
    assert_eq!(
        create_errors(
            "v1",
            "ConfigMap",
            json!({"metadata": {"name": "c", "namespace": "ns"}, "data": {"a b": "1", "..x": "2"}})
        ),
        [
            r#"data[..x]: Invalid value: "..x": must not start with '..'"#,
            r#"data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"#
        ]
    );
    assert_eq!(
        create_errors(
            "v1",
            "ConfigMap",
            json!({"metadata": {"name": "c", "namespace": "ns"}, "data": {"a": "1"}, "binaryData": {"a": "eA=="}})
        ),
        [r#"data[a]: Invalid value: "a": duplicate of key present in binaryData"#]
    );
    let big = "x".repeat(1024 * 1024 + 1);
    assert_eq!(
        create_errors(
            "v1",
            "ConfigMap",
            json!({"metadata": {"name": "c", "namespace": "ns"}, "data": {"a": big}})
        ),
        ["[]: Too long: may not be more than 1048576 bytes"]
    );
    let frozen = stored(
        "v1",
        "ConfigMap",
        json!({"metadata": {"name": "c", "namespace": "ns"}, "immutable": true, "data": {"a": "1"}}),
    );
    let mut changed = frozen.clone();
    changed["data"]["a"] = json!("2");
    assert_eq!(
        update_errors("v1", "ConfigMap", changed, &frozen),
        ["data: Forbidden: field is immutable when `immutable` is set"]
    );
    let mut thawed = frozen.clone();
    thawed["immutable"] = json!(false);
    assert_eq!(
        update_errors("v1", "ConfigMap", thawed, &frozen),
        ["immutable: Forbidden: field is immutable when `immutable` is set"]
    );
    let mut labelled = frozen.clone();
    labelled["metadata"]["labels"] = json!({"a": "b"});
    assert_eq!(
        update_errors("v1", "ConfigMap", labelled, &frozen),
        Vec::<String>::new()
    );

    let secret = stored(
        "v1",
        "Secret",
        json!({"metadata": {"name": "s", "namespace": "ns"}, "stringData": {"password": "x"}, "immutable": true}),
    );
    let mut rotated = secret.clone();
    rotated["stringData"] = json!({"password": "y"});
    assert_eq!(
        update_errors("v1", "Secret", rotated, &secret),
        ["data: Forbidden: field is immutable when `immutable` is set"]
    );
    let mut retyped = secret.clone();
    retyped["type"] = json!("kubernetes.io/basic-auth");
    assert_eq!(
        update_errors("v1", "Secret", retyped, &secret),
        [r#"type: Invalid value: "kubernetes.io/basic-auth": field is immutable"#]
    );
    assert_eq!(
        create_errors(
            "v1",
            "Secret",
            json!({"metadata": {"name": "s", "namespace": "ns"}, "type": "kubernetes.io/tls", "data": {"tls.crt": ""}})
        ),
        ["data[tls.key]: Required value"]
    );
    assert_eq!(
        create_errors(
            "v1",
            "Secret",
            json!({"metadata": {"name": "s", "namespace": "ns"}, "type": "kubernetes.io/service-account-token"})
        ),
        ["metadata.annotations[kubernetes.io/service-account.name]: Required value"]
    );
    assert_eq!(
        create_errors(
            "v1",
            "Secret",
            json!({"metadata": {"name": "s", "namespace": "ns"}, "type": "kubernetes.io/dockerconfigjson"})
        ),
        ["data[.dockerconfigjson]: Required value"]
    );
}

#[test]
fn claims() {
    // TestValidatePersistentVolumeClaim, TestValidatePersistentVolumeClaimUpdate.
    let pvc = |spec: Value| json!({"metadata": {"name": "data", "namespace": "ns"}, "spec": spec});
    let ok =
        json!({"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}});
    assert_eq!(
        create_errors("v1", "PersistentVolumeClaim", pvc(ok.clone())),
        Vec::<String>::new()
    );
    assert_eq!(
        create_errors("v1", "PersistentVolumeClaim", pvc(json!({}))),
        [
            "spec.accessModes: Required value: at least 1 access mode is required",
            "spec.resources[storage]: Required value"
        ]
    );
    assert_eq!(
        create_errors(
            "v1",
            "PersistentVolumeClaim",
            pvc(
                json!({"accessModes": ["ReadWriteOncePod", "ReadOnlyMany"], "resources": {"requests": {"storage": "0"}}})
            )
        ),
        [
            "spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes",
            r#"spec.resources[storage]: Invalid value: "0": must be greater than zero"#
        ]
    );
    assert_eq!(
        create_errors(
            "v1",
            "PersistentVolumeClaim",
            pvc(
                json!({"accessModes": ["ReadWriteSometimes"], "resources": {"requests": {"storage": "1Gi"}}})
            )
        ),
        [
            r#"spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod""#
        ]
    );
    let old = stored("v1", "PersistentVolumeClaim", pvc(ok));
    let mut class = old.clone();
    class["spec"]["storageClassName"] = json!("fast");
    assert_eq!(
        update_errors("v1", "PersistentVolumeClaim", class.clone(), &old),
        Vec::<String>::new(),
        "a class may be set once"
    );
    let mut modes = old.clone();
    modes["spec"]["accessModes"] = json!(["ReadWriteMany"]);
    assert_eq!(
        update_errors("v1", "PersistentVolumeClaim", modes, &old),
        [
            "spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims"
        ]
    );
    let mut bound = old.clone();
    bound["status"] = json!({"phase": "Bound", "capacity": {"storage": "1Gi"}});
    let mut grown = bound.clone();
    grown["spec"]["resources"]["requests"]["storage"] = json!("2Gi");
    assert_eq!(
        update_errors("v1", "PersistentVolumeClaim", grown, &bound),
        Vec::<String>::new()
    );
}

#[test]
fn names_per_kind() {
    let cases = [
        ("v1", "Pod", NameRule::DnsSubdomain),
        ("v1", "Service", NameRule::Dns1035Label),
        ("v1", "Namespace", NameRule::DnsLabel),
        ("v1", "ServiceAccount", NameRule::DnsSubdomain),
        ("apps/v1", "StatefulSet", NameRule::DnsLabel),
        ("apps/v1", "Deployment", NameRule::DnsSubdomain),
        (
            "rbac.authorization.k8s.io/v1",
            "ClusterRole",
            NameRule::PathSegment,
        ),
    ];
    for (api, kind, rule) in cases {
        assert_eq!(validation::name_rule(api, kind), Some(rule), "{kind}");
    }
    assert_eq!(validation::name_rule("example.com/v1", "Widget"), None);
    assert_eq!(
        NameRule::PathSegment.check("system:controller:x", false),
        Vec::<String>::new()
    );
    assert_eq!(
        NameRule::PathSegment.check("a/b", false),
        ["may not contain '/'"]
    );
    assert_eq!(
        NameRule::DnsSubdomain.check("gen-", true),
        Vec::<String>::new()
    );
    let ns_errs = create_errors(
        "v1",
        "Namespace",
        json!({"metadata": {"name": "team", "namespace": "x"}}),
    );
    assert_eq!(
        ns_errs,
        ["metadata.namespace: Forbidden: not allowed on this type"]
    );
    let mut long_annotation = json!({"metadata": {"name": "sa", "namespace": "ns", "annotations": {"a": "x".repeat(256 * 1024)}}});
    assert_eq!(
        create_errors("v1", "ServiceAccount", long_annotation.clone()),
        ["metadata.annotations: Too long: may not be more than 262144 bytes"]
    );
    long_annotation["metadata"]["annotations"] = json!({"Example.com/A": "ok"});
    assert_eq!(
        create_errors("v1", "ServiceAccount", long_annotation),
        Vec::<String>::new()
    );
    assert_eq!(
        create_errors(
            "v1",
            "ServiceAccount",
            json!({"metadata": {"name": "sa", "namespace": "ns", "finalizers": ["custom"]}})
        ),
        [
            r#"metadata.finalizers[0]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified"#
        ]
    );
    assert_eq!(
        create_errors(
            "v1",
            "ServiceAccount",
            json!({"metadata": {"name": "sa", "namespace": "ns",
            "ownerReferences": [{"apiVersion": "v1", "kind": "Pod", "name": "p", "uid": ""}]}})
        ),
        [r#"metadata.ownerReferences.uid: Invalid value: "": must not be empty"#]
    );
}

#[test]
fn network_policies_and_ingresses() {
    // TestValidateNetworkPolicy, TestValidateIngress.
    let np = |spec: Value| {
        create_errors(
            "networking.k8s.io/v1",
            "NetworkPolicy",
            json!({"metadata": {"name": "np", "namespace": "ns"}, "spec": spec}),
        )
    };
    assert_eq!(
        np(
            json!({"podSelector": {}, "ingress": [{"from": [{"podSelector": {}}], "ports": [{"port": 80}]}]})
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        np(json!({"podSelector": {}, "ingress": [{"from": [{}]}]})),
        ["spec.ingress[0].from[0]: Required value: must specify a peer"]
    );
    assert_eq!(
        np(
            json!({"podSelector": {}, "egress": [{"to": [{"ipBlock": {"cidr": "10.0.0.0/8", "except": ["192.168.0.0/16"]}, "podSelector": {}}]}]})
        ),
        [
            r#"spec.egress[0].to[0].ipBlock.except[0]: Invalid value: "192.168.0.0/16": must be a strict subset of `cidr`"#,
            "spec.egress[0].to[0]: Forbidden: may not specify both ipBlock and another peer"
        ]
    );
    assert_eq!(
        np(json!({"podSelector": {}, "ingress": [{"ports": [{"port": "http", "endPort": 90}]}]})),
        [
            "spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is non-numeric"
        ]
    );
    assert_eq!(
        np(json!({"podSelector": {}, "policyTypes": ["Sideways"]})),
        [
            r#"spec.policyTypes[0]: Unsupported value: "Sideways": supported values: "Ingress", "Egress""#
        ]
    );
    let ing = |spec: Value| {
        create_errors(
            "networking.k8s.io/v1",
            "Ingress",
            json!({"metadata": {"name": "i", "namespace": "ns"}, "spec": spec}),
        )
    };
    let backend = json!({"service": {"name": "web", "port": {"number": 80}}});
    assert_eq!(
        ing(
            json!({"rules": [{"host": "example.com", "http": {"paths": [{"path": "/", "pathType": "Prefix", "backend": backend.clone()}]}}]})
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        ing(json!({"rules": [{"http": {"paths": [{"path": "/", "backend": backend.clone()}]}}]})),
        ["spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified"]
    );
    assert_eq!(
        ing(
            json!({"rules": [{"http": {"paths": [{"path": "api", "pathType": "Exact", "backend": backend.clone()}]}}]})
        ),
        [r#"spec.rules[0].http.paths[0].path: Invalid value: "api": must be an absolute path"#]
    );
    assert_eq!(
        ing(
            json!({"rules": [{"host": "1.2.3.4", "http": {"paths": [{"path": "/", "pathType": "Prefix", "backend": backend.clone()}]}}]})
        ),
        [r#"spec.rules[0].host: Invalid value: "1.2.3.4": must be a DNS name, not an IP address"#]
    );
    assert_eq!(
        ing(json!({"defaultBackend": {"service": {"name": "web", "port": {}}}})),
        ["spec.defaultBackend.service.port: Required value: port name or number is required"]
    );
    assert_eq!(
        ing(json!({})),
        ["spec.rules: Invalid value: []: either `defaultBackend` or `rules` must be specified"]
    );
}

#[test]
fn autoscalers_budgets_and_rbac() {
    // TestValidateHorizontalPodAutoscaler, TestValidatePodDisruptionBudgetSpec,
    // TestValidateRoleBinding, TestValidateRoleBindingUpdate.
    let hpa = |api: &str, spec: Value| {
        create_errors(
            api,
            "HorizontalPodAutoscaler",
            json!({"metadata": {"name": "h", "namespace": "ns"}, "spec": spec}),
        )
    };
    let target = json!({"kind": "Deployment", "name": "web", "apiVersion": "apps/v1"});
    assert_eq!(
        hpa(
            "autoscaling/v2",
            json!({"scaleTargetRef": target.clone(), "maxReplicas": 3})
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        hpa(
            "autoscaling/v2",
            json!({"scaleTargetRef": target.clone(), "minReplicas": 5, "maxReplicas": 3})
        ),
        ["spec.maxReplicas: Invalid value: 3: must be greater than or equal to `minReplicas`"]
    );
    assert_eq!(
        hpa(
            "autoscaling/v2",
            json!({"scaleTargetRef": {"name": "web"}, "maxReplicas": 0})
        ),
        [
            "spec.maxReplicas: Invalid value: 0: must be greater than 0",
            "spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`",
            "spec.scaleTargetRef.kind: Required value"
        ]
    );
    assert_eq!(
        hpa(
            "autoscaling/v1",
            json!({"scaleTargetRef": target.clone(), "maxReplicas": 3, "targetCPUUtilizationPercentage": 0})
        ),
        [
            "spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0"
        ]
    );
    assert_eq!(
        hpa(
            "autoscaling/v2",
            json!({"scaleTargetRef": target, "maxReplicas": 3, "behavior": {"scaleUp": {"policies": [{"type": "Pods", "value": 0, "periodSeconds": 1801}]}}})
        ),
        [
            "spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero",
            "spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800"
        ]
    );
    let pdb = |spec: Value| {
        create_errors(
            "policy/v1",
            "PodDisruptionBudget",
            json!({"metadata": {"name": "b", "namespace": "ns"}, "spec": spec}),
        )
    };
    assert_eq!(
        pdb(json!({"minAvailable": "50%", "selector": {"matchLabels": {"app": "web"}}})),
        Vec::<String>::new()
    );
    assert_eq!(
        pdb(json!({"maxUnavailable": -1})),
        ["spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0"]
    );
    assert_eq!(
        pdb(json!({"minAvailable": "120%"})),
        [r#"spec.minAvailable: Invalid value: "120%": must not be greater than 100%"#]
    );
    assert_eq!(
        pdb(json!({"minAvailable": 1, "maxUnavailable": 1})),
        [
            r#"spec: Invalid value: {"maxUnavailable":1,"minAvailable":1}: minAvailable and maxUnavailable cannot be both set"#
        ]
    );

    let rbac = "rbac.authorization.k8s.io/v1";
    let rb = json!({"metadata": {"name": "edit", "namespace": "ns"}, "roleRef": {"kind": "Role", "name": "editor"},
        "subjects": [{"kind": "ServiceAccount", "name": "robot"}, {"kind": "User", "name": "jane"}]});
    assert_eq!(
        create_errors(rbac, "RoleBinding", rb.clone()),
        Vec::<String>::new()
    );
    assert_eq!(
        create_errors(
            rbac,
            "ClusterRoleBinding",
            json!({"metadata": {"name": "edit"}, "roleRef": {"kind": "Role", "name": "editor"},
            "subjects": [{"kind": "ServiceAccount", "name": "robot"}, {"kind": "Robot", "name": "r"}]})
        ),
        [
            r#"roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole""#,
            "subjects[0].namespace: Required value",
            r#"subjects[1].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group""#
        ]
    );
    let old = stored(rbac, "RoleBinding", rb);
    let mut rebound = old.clone();
    rebound["roleRef"]["name"] = json!("admin");
    assert_eq!(
        update_errors(rbac, "RoleBinding", rebound, &old),
        [
            r#"roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"Role","Name":"admin"}: cannot change roleRef"#
        ]
    );
    assert_eq!(
        create_errors(
            rbac,
            "Role",
            json!({"metadata": {"name": "r", "namespace": "ns"}, "rules": [{"resources": ["pods"]}]})
        ),
        [
            "rules[0].verbs: Required value: verbs must contain at least one value",
            "rules[0].apiGroups: Required value: resource rules must supply at least one api group"
        ]
    );
}
