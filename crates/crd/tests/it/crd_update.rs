//! `check_crd_update`: the API server's checks of a CRD update as an apply makes it (the stored
//! status kept, the new storage version recorded), on the versioning page's CronTab.

use crdkit_crd::crd_check::check_crd_update;
use crdkit_schema::crd::CustomResourceDefinition;
use serde_json::{Value, json};

fn crontab(versions: Value) -> CustomResourceDefinition {
    serde_json::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "crontabs.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
                 "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab", "shortNames": ["ct"]},
                 "versions": versions}
    }))
    .unwrap()
}

fn schema() -> Value {
    json!({"openAPIV3Schema": {"type": "object", "properties": {
        "host": {"type": "string"}, "port": {"type": "string"}}}})
}

fn v(name: &str, served: bool, storage: bool) -> Value {
    json!({"name": name, "served": served, "storage": storage, "schema": schema()})
}

fn errors(new: &CustomResourceDefinition, old: &CustomResourceDefinition) -> Vec<String> {
    check_crd_update(new, old)
        .iter()
        .map(ToString::to_string)
        .collect()
}

const MISSING_V1BETA1: &str = "status.storedVersions[0]: Invalid value: \"v1beta1\": missing from spec.versions; v1beta1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1beta1 and removes v1beta1 from status.storedVersions";

/// The page's "Removing an old version" steps, one update at a time.
#[test]
fn the_pages_version_removal() {
    let beta_only = crontab(json!([v("v1beta1", true, true)]));
    let both = crontab(json!([v("v1beta1", true, true), v("v1", true, false)]));
    let v1_stored = crontab(json!([v("v1beta1", true, false), v("v1", true, true)]));
    let unserved = crontab(json!([v("v1beta1", false, false), v("v1", true, true)]));
    let v1_only = crontab(json!([v("v1", true, true)]));
    // Adding a version, then making it the storage version: accepted.
    assert_eq!(errors(&both, &beta_only), Vec::<String>::new());
    assert_eq!(errors(&v1_stored, &both), Vec::<String>::new());
    assert_eq!(errors(&unserved, &v1_stored), Vec::<String>::new());
    // Removing v1beta1 while it is still in status.storedVersions: rejected (a file has no
    // status: its storage version is taken as stored).
    assert_eq!(errors(&v1_only, &beta_only), [MISSING_V1BETA1]);
    let mut stored_both = unserved.clone();
    stored_both.status = Some(json!({"storedVersions": ["v1beta1", "v1"],
        "conditions": [{"type": "Established", "status": "True"}]}));
    assert_eq!(errors(&v1_only, &stored_both), [MISSING_V1BETA1]);
    // After the migration removed it from status.storedVersions: accepted.
    let mut migrated = unserved;
    migrated.status = Some(json!({"storedVersions": ["v1"],
        "conditions": [{"type": "Established", "status": "True"}]}));
    assert_eq!(errors(&v1_only, &migrated), Vec::<String>::new());
}

#[test]
fn identity_and_names() {
    let old = crontab(json!([v("v1", true, true)]));
    let mut new = old.clone();
    new.metadata.name = Some("crontabs.stable.example.com".into());
    new.spec.group = "stable.example.com".into();
    new.spec.scope = "Cluster".into();
    new.spec.names.kind = "CronJob".into();
    new.spec.names.singular = "cronjob".into();
    assert_eq!(
        errors(&new, &old),
        [
            "metadata.name: Invalid value: \"crontabs.stable.example.com\": field is immutable",
            "spec.scope: Invalid value: \"Cluster\": field is immutable",
            "spec.names.kind: Invalid value: \"CronJob\": field is immutable",
            "spec.group: Invalid value: \"stable.example.com\": field is immutable",
        ]
    );
    // Scope and kind may change until the CRD is established.
    let mut pending = old.clone();
    pending.status = Some(json!({"storedVersions": ["v1"],
        "conditions": [{"type": "Established", "status": "False"}]}));
    let mut renamed = old.clone();
    renamed.spec.scope = "Cluster".into();
    renamed.spec.names.kind = "CronJob".into();
    assert_eq!(errors(&renamed, &pending), Vec::<String>::new());
    // Short names, categories and singular may change at any time.
    let mut other_names = old.clone();
    other_names.spec.names.short_names = vec!["cr".into()];
    other_names.spec.names.categories = vec!["all".into()];
    assert_eq!(errors(&other_names, &old), Vec::<String>::new());
}

/// A rule the stored CRD has compiles with every library the API server knows; a new one only
/// with those of the compatibility version (`includes` came with Kubernetes 1.37).
#[test]
fn preexisting_rules() {
    let with_rule = |rule: &str| {
        crontab(
            json!([{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {
            "type": "object", "properties": {"ports": {"type": "array", "maxItems": 4,
                "items": {"type": "integer"}, "x-kubernetes-validations": [{"rule": rule}]}}}}}]),
        )
    };
    let stored = with_rule("self.includes(80) || self.size() == 0");
    let mut changed = stored.clone();
    changed.spec.names.short_names = vec!["cr".into()];
    assert_eq!(errors(&changed, &stored), Vec::<String>::new());
    let new_rule = with_rule("self.includes(443) || self.size() == 0");
    let errs = errors(&new_rule, &stored);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].starts_with("spec.validation.openAPIV3Schema.properties[ports].x-kubernetes-validations[0].rule: Invalid value: ")
            && errs[0].contains("compilation failed"),
        "{errs:?}"
    );
    // On create, the stored rule is a new one too.
    assert_eq!(crdkit_crd::crd_check::check_crd(&stored).len(), 1);
}

/// Old CRDs as tools write them: controller-gen's empty status (`storedVersions: null`, names
/// not accepted), no status (kubebuilder, kube-derive, Helm charts), an empty list: none is a
/// cluster's status, so the cluster's is assumed (established, its storage version stored).
#[test]
fn old_crds_from_files() {
    let controller_gen = json!({"acceptedNames": {"kind": "", "plural": ""},
                                "conditions": null, "storedVersions": null});
    for status in [
        Some(controller_gen),
        None,
        Some(json!({"storedVersions": []})),
    ] {
        let mut beta_only = crontab(json!([v("v1beta1", true, true)]));
        beta_only.status.clone_from(&status);
        // The same file again, and with the same status: accepted.
        assert_eq!(
            errors(&beta_only, &beta_only),
            Vec::<String>::new(),
            "{status:?}"
        );
        // Its storage version is stored: it stays in spec.versions.
        let mut v1_only = crontab(json!([v("v1", true, true)]));
        v1_only.status.clone_from(&status);
        assert_eq!(
            errors(&v1_only, &beta_only),
            [MISSING_V1BETA1],
            "{status:?}"
        );
        // It is established: the kind no longer changes.
        let mut renamed = beta_only.clone();
        renamed.spec.names.kind = "CronJob".into();
        assert_eq!(
            errors(&renamed, &beta_only),
            ["spec.names.kind: Invalid value: \"CronJob\": field is immutable"],
            "{status:?}"
        );
    }
}
