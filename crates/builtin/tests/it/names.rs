//! Name validation per kind, with apimachinery's messages (`ValidateObjectMeta`'s name part).

use serde_json::json;

use crdkit_builtin::names::NameRule;
use crdkit_builtin::resources;

fn errors(group: &str, kind: &str, metadata: serde_json::Value) -> Vec<String> {
    let r = resources::all()
        .iter()
        .find(|r| r.group == group && r.kind == kind)
        .unwrap();
    r.name_rule
        .validate(&metadata)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn each_kind_with_its_rule() {
    // A Service name must start with a letter (NameIsDNS1035Label).
    assert_eq!(
        errors("", "Service", json!({"name": "1-web"})),
        [
            "metadata.name: Invalid value: \"1-web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
        ]
    );
    assert!(errors("", "ConfigMap", json!({"name": "1-web"})).is_empty());
    // A Namespace is a label: no dots, 63 characters at most.
    assert_eq!(
        errors("", "Namespace", json!({"name": "team.a"})),
        ["metadata.name: Invalid value: \"team.a\": must not contain dots"]
    );
    assert_eq!(
        errors("", "Namespace", json!({"name": "a".repeat(64)}))[0],
        format!(
            "metadata.name: Invalid value: \"{}\": must be no more than 63 characters",
            "a".repeat(64)
        )
    );
    // Most kinds: DNS subdomains.
    assert_eq!(
        errors("apps", "Deployment", json!({"name": "Web"})),
        [
            "metadata.name: Invalid value: \"Web\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        ]
    );
    assert!(errors("", "Secret", json!({"name": "sh.helm.release.v1.web.v1"})).is_empty());
    // RBAC kinds and volumes: path segments.
    assert!(
        errors(
            "rbac.authorization.k8s.io",
            "ClusterRole",
            json!({"name": "system:controller:job-controller"})
        )
        .is_empty()
    );
    assert_eq!(
        errors("rbac.authorization.k8s.io", "Role", json!({"name": "a/b"})),
        ["metadata.name: Invalid value: \"a/b\": may not contain '/'"]
    );
    assert_eq!(
        errors("", "PersistentVolumeClaim", json!({"name": ".."})),
        ["metadata.name: Invalid value: \"..\": may not be '..'"]
    );
    // CronJobs: 52 characters at most, after the subdomain rule.
    let long = "c".repeat(53);
    assert_eq!(
        errors("batch", "CronJob", json!({"name": long})),
        [format!(
            "metadata.name: Invalid value: \"{long}\": must be no more than 52 characters"
        )]
    );
    assert!(errors("batch", "CronJob", json!({"name": "c".repeat(52)})).is_empty());
    // CSRs: any name.
    assert!(
        errors(
            "certificates.k8s.io",
            "CertificateSigningRequest",
            json!({"name": "Any_Name"})
        )
        .is_empty()
    );
    // Reviews are never stored: nothing is checked, not even presence.
    assert!(errors("authorization.k8s.io", "SelfSubjectAccessReview", json!({})).is_empty());
}

#[test]
fn generate_name_and_required_name() {
    // `generateName` may end with `-`; a generated name is checked again when it is set.
    assert_eq!(
        errors("", "Pod", json!({"generateName": "web-"})),
        ["metadata.name: Required value: name or generateName is required"]
    );
    assert_eq!(
        errors(
            "",
            "Pod",
            json!({"generateName": "Web-", "name": "Web-x7k2p"})
        ),
        [
            "metadata.generateName: Invalid value: \"Web-\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            "metadata.name: Invalid value: \"Web-x7k2p\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        ]
    );
    assert!(
        errors(
            "",
            "Service",
            json!({"generateName": "web-", "name": "web-abcde"})
        )
        .is_empty()
    );
    assert_eq!(
        NameRule::Dns1035Label.check("svc-", true),
        Vec::<String>::new()
    );
    assert_eq!(
        NameRule::Custom.check("10.96.0.1", false),
        Vec::<String>::new()
    );
}
