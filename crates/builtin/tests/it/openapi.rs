//! The published documents: each group-version's definitions, words on their structure, the
//! v2 view.

use serde_json::Value;

use crdkit_builtin::openapi;
use crdkit_builtin::resources;

#[test]
fn each_served_kind_is_in_its_group_versions_document() {
    for r in resources::all() {
        let components = openapi::components(r.group, r.version)
            .unwrap_or_else(|| panic!("{}", r.api_version()));
        let name = openapi::definition_name(r.group, r.version, r.kind).unwrap();
        assert!(components.contains_key(name), "{name}");
        // Every reference resolves inside the document.
        for schema in components.values() {
            let text = schema.to_string();
            for r in text.split("\"$ref\":\"#/components/schemas/").skip(1) {
                let target = &r[..r.find('"').unwrap()];
                assert!(components.contains_key(target), "{name}: {target}");
            }
        }
    }
    let apps = openapi::components("apps", "v1").unwrap();
    for name in [
        "io.k8s.api.apps.v1.DeploymentList",
        "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions",
        "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent",
        "io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList",
        "io.k8s.api.autoscaling.v1.Scale",
    ] {
        assert!(apps.contains_key(name), "{name}");
    }
    assert!(!apps.contains_key("io.k8s.api.batch.v1.Job"));
    // Alpha and beta group-versions have documents too, for the servers that turn them on.
    assert!(openapi::components("resource.k8s.io", "v1beta2").is_some());
    assert!(openapi::components("apps", "v1beta1").is_none());
    assert!(openapi::group_versions().len() > resources::groups().len());
}

#[test]
fn words_are_where_kubectl_explain_and_strategic_merge_patch_read_them() {
    let d = openapi::definition("io.k8s.api.core.v1.PodSpec").unwrap();
    let c = &d["properties"]["containers"];
    assert_eq!(c["x-kubernetes-patch-strategy"], "merge");
    assert_eq!(c["x-kubernetes-patch-merge-key"], "name");
    assert_eq!(c["x-kubernetes-list-type"], "map");
    assert_eq!(
        d["properties"]["volumes"]["x-kubernetes-patch-strategy"],
        "merge,retainKeys"
    );
    let deploy = openapi::definition("io.k8s.api.apps.v1.Deployment").unwrap();
    assert_eq!(
        deploy["description"],
        "Deployment enables declarative updates for Pods and ReplicaSets."
    );
    // v3: a description beside a reference wraps it in `allOf`, with its `default`.
    let meta = &deploy["properties"]["metadata"];
    assert_eq!(
        meta["allOf"][0]["$ref"],
        "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
    );
    assert!(
        meta["description"]
            .as_str()
            .unwrap()
            .starts_with("Standard object's metadata.")
    );
    // Without the words, a definition is its structure again.
    for name in ["io.k8s.api.core.v1.PodSpec", "io.k8s.api.core.v1.Service"] {
        let mut full = openapi::definition(name).unwrap();
        strip_words(&mut full);
        assert_eq!(&full, openapi::structure_of(name).unwrap(), "{name}");
    }
    assert_eq!(openapi::release(), "1.35.4");
    assert!(openapi::definition("io.k8s.api.core.v1.Nope").is_none());
}

fn strip_words(v: &mut Value) {
    let Value::Object(m) = v else { return };
    for k in [
        "description",
        "x-kubernetes-patch-strategy",
        "x-kubernetes-patch-merge-key",
        "x-kubernetes-unions",
    ] {
        m.remove(k);
    }
    if let Some(Value::Object(props)) = m.get_mut("properties") {
        props.values_mut().for_each(strip_words);
    }
    for k in ["items", "additionalProperties", "not"] {
        if let Some(s) = m.get_mut(k) {
            strip_words(s);
        }
    }
}

#[test]
fn v2_has_the_served_kinds_in_v2_form() {
    let v2 = openapi::definitions_v2();
    assert!(v2.contains_key("io.k8s.api.core.v1.Pod"));
    assert!(v2.contains_key("io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList"));
    assert!(v2.contains_key("io.k8s.apimachinery.pkg.version.Info"));
    // Not served by default: no definitions.
    assert!(!v2.contains_key("io.k8s.api.resource.v1beta2.ResourceClaim"));
    assert!(!v2.contains_key("io.k8s.api.storagemigration.v1beta1.StorageVersionMigration"));
    let text = Value::Object(v2.clone()).to_string();
    assert!(!text.contains("#/components/schemas/"));
    assert!(!text.contains("\"allOf\":[{\"$ref\""));
    assert_eq!(
        v2["io.k8s.apimachinery.pkg.util.intstr.IntOrString"]["type"],
        "string"
    );
    let pod_spec = &v2["io.k8s.api.core.v1.PodSpec"]["properties"];
    assert_eq!(
        pod_spec["containers"]["items"]["$ref"],
        "#/definitions/io.k8s.api.core.v1.Container"
    );
    assert_eq!(
        pod_spec["containers"]["x-kubernetes-patch-merge-key"],
        "name"
    );
}

/// The words file and the structure file describe the same definitions: every definition with
/// words has a structure, and the words of a sample land where the structure has the property.
#[test]
fn words_and_structure_agree() {
    let names = openapi::names_with_words();
    assert!(names.len() > 700, "{}", names.len());
    for name in &names {
        assert!(openapi::structure_of(name).is_some(), "{name}");
    }
    let with_descriptions = names
        .iter()
        .filter(|n| openapi::definition(n).unwrap()["description"].is_string())
        .count();
    assert!(with_descriptions > 650, "{with_descriptions}");
}
