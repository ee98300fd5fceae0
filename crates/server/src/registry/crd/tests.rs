use super::*;

fn crontab() -> Value {
    json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "crontabs.stable.example.com"},
        "spec": {"group": "stable.example.com", "scope": "Namespaced",
            "names": {"plural": "crontabs", "kind": "CronTab", "shortNames": ["ct"]},
            "versions": [{"name": "v1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object"}}}]}})
}

fn strategy() -> CrdStrategy {
    CrdStrategy::new(Arc::new(RwLock::new(Registry::default())))
}

#[test]
fn create_defaults_names_and_establishes() {
    let mut obj = crontab();
    let a = strategy().create(&mut obj).unwrap();
    assert!(a.errors.is_empty(), "{:?}", a.errors);
    assert!(a.unknown_fields.is_empty());
    assert_eq!(obj["spec"]["names"]["singular"], "crontab");
    assert_eq!(obj["spec"]["names"]["listKind"], "CronTabList");
    assert_eq!(obj["spec"]["conversion"]["strategy"], "None");
    assert_eq!(obj["status"]["storedVersions"], json!(["v1"]));
    assert_eq!(obj["status"]["acceptedNames"]["kind"], "CronTab");
    assert!(condition_true(obj.get("status"), "Established"));
    assert!(condition_true(obj.get("status"), "NamesAccepted"));
}

#[test]
fn unknown_fields_are_reported() {
    let mut obj = crontab();
    obj["spec"]["bogus"] = json!(1);
    obj["spec"]["versions"][0]["nope"] = json!("x");
    let a = strategy().create(&mut obj).unwrap();
    assert_eq!(a.unknown_fields, ["spec.bogus", "spec.versions[0].nope"]);
}

#[test]
fn invalid_crds_fail_the_crd_checks() {
    let mut obj = crontab();
    obj["spec"]["versions"][0]["storage"] = json!(false);
    let a = strategy().create(&mut obj).unwrap();
    assert!(
        a.errors
            .iter()
            .any(|e| e.detail == "must have exactly one version marked as storage version"),
        "{:?}",
        a.errors
    );
}

#[test]
fn update_keeps_stored_versions_and_checks_immutable_fields() {
    let s = strategy();
    let mut old = crontab();
    s.create(&mut old).unwrap();
    let mut new = old.clone();
    new["spec"]["versions"] = json!([
        {"name": "v1", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object"}}},
        {"name": "v2", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}}]);
    new["status"] = json!({});
    let a = s.update(&mut new, &old).unwrap();
    assert!(a.errors.is_empty(), "{:?}", a.errors);
    assert_eq!(new["status"]["storedVersions"], json!(["v1", "v2"]));
    let mut scoped = new.clone();
    scoped["spec"]["scope"] = json!("Cluster");
    let a = s.update(&mut scoped, &new).unwrap();
    assert_eq!(a.errors.len(), 1, "{:?}", a.errors);
    assert_eq!(
        a.errors[0].to_string(),
        "spec.scope: Invalid value: \"Cluster\": field is immutable"
    );
    // Dropping a stored version from spec.versions is refused.
    let mut newer = new.clone();
    newer["spec"]["versions"] = json!([{"name": "v2", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object"}}}]);
    let a = s.update(&mut newer, &new).unwrap();
    assert_eq!(
        a.errors[0].to_string(),
        "status.storedVersions[0]: Invalid value: \"v1\": must appear in spec.versions"
    );
}

#[test]
fn deleting_adds_the_cleanup_finalizer() {
    let mut obj = crontab();
    strategy().mark_deleting(&mut obj, 0);
    assert_eq!(obj["metadata"]["finalizers"], json!([CLEANUP_FINALIZER]));
    assert!(condition_true(obj.get("status"), "Terminating"));
}
