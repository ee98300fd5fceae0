//! `compat::compare`: each kind of change between two CRDs, on a CronTab with two versions.

use crdkit_crd::compat::{Finding, Severity, compare, worst};
use crdkit_schema::crd::CustomResourceDefinition;
use serde_json::{Value, json};

fn schema() -> Value {
    json!({"openAPIV3Schema": {"type": "object", "properties": {
        "spec": {"type": "object", "required": ["cronSpec"],
            "x-kubernetes-validations": [{"rule": "self.replicas <= 10"}],
            "properties": {
                "cronSpec": {"type": "string", "pattern": "^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$"},
                "image": {"type": "string", "maxLength": 253},
                "replicas": {"type": "integer", "minimum": 1, "maximum": 10, "default": 1},
                "mode": {"type": "string", "enum": ["Fast", "Slow"], "nullable": true},
                "ports": {"type": "array", "maxItems": 16, "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["name"],
                    "items": {"type": "object", "required": ["name"], "properties": {
                        "name": {"type": "string", "maxLength": 15}, "port": {"type": "integer"}}}},
                "labels": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 63}},
                "tags": {"type": "array", "maxItems": 10,
                    "items": {"type": "string", "maxLength": 20},
                    "x-kubernetes-validations": [{"rule": "self.all(t, t.startsWith('x'))"}]},
                "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}
            }},
        "status": {"type": "object", "properties": {"replicas": {"type": "integer"}}}
    }}})
}

fn base() -> Value {
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "crontabs.stable.example.com"},
        "spec": {"group": "stable.example.com", "scope": "Namespaced",
            "names": {"plural": "crontabs", "singular": "crontab", "kind": "CronTab",
                      "shortNames": ["ct"], "categories": ["all"]},
            "versions": [
                {"name": "v1beta1", "served": true, "storage": false, "schema": schema()},
                {"name": "v1", "served": true, "storage": true, "schema": schema(),
                 "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas",
                                                           "statusReplicasPath": ".status.replicas"}},
                 "additionalPrinterColumns": [{"name": "Spec", "type": "string", "jsonPath": ".spec.cronSpec"}],
                 "selectableFields": [{"jsonPath": ".spec.image"}]}
            ]}
    })
}

fn crd(v: Value) -> CustomResourceDefinition {
    serde_json::from_value(v).unwrap()
}

/// The findings of changing the base CRD with `change`, as `severity code version path`.
fn after(change: impl FnOnce(&mut Value)) -> Vec<String> {
    let mut new = base();
    change(&mut new);
    short(&compare(&crd(base()), &crd(new)))
}

fn short(findings: &[Finding]) -> Vec<String> {
    findings
        .iter()
        .map(|f| {
            format!(
                "{} {} {} {}",
                f.severity,
                f.code,
                f.version.as_deref().unwrap_or("-"),
                f.path
            )
        })
        .collect()
}

/// The v1 schema's node at a JSON pointer below `openAPIV3Schema`.
fn v1<'a>(crd: &'a mut Value, pointer: &str) -> &'a mut Value {
    crd.pointer_mut(&format!("/spec/versions/1/schema/openAPIV3Schema{pointer}"))
        .unwrap_or_else(|| panic!("{pointer}"))
}

const SPEC: &str = "/properties/spec";

fn messages(change: impl FnOnce(&mut Value)) -> Vec<String> {
    let mut new = base();
    change(&mut new);
    compare(&crd(base()), &crd(new))
        .iter()
        .map(|f| f.message.clone())
        .collect()
}

#[test]
fn nothing_changed() {
    assert_eq!(after(|_| {}), Vec::<String>::new());
    // Descriptions and examples are not compared.
    assert_eq!(
        after(|c| v1(c, SPEC)["description"] = json!("the spec")),
        Vec::<String>::new()
    );
}

#[test]
fn fields() {
    assert_eq!(
        after(|c| {
            v1(c, &format!("{SPEC}/properties"))
                .as_object_mut()
                .unwrap()
                .remove("image");
        }),
        ["breaks-stored-objects field-removed v1 .spec.image"]
    );
    // Under x-kubernetes-preserve-unknown-fields the values are kept.
    assert_eq!(
        after(|c| {
            v1(c, SPEC)["x-kubernetes-preserve-unknown-fields"] = json!(true);
            v1(c, &format!("{SPEC}/properties"))
                .as_object_mut()
                .unwrap()
                .remove("image");
        }),
        ["info field-removed v1 .spec.image"]
    );
    assert_eq!(
        after(|c| *v1(c, &format!("{SPEC}/properties/replicas/type")) = json!("string")),
        ["breaks-stored-objects type-changed v1 .spec.replicas"]
    );
    assert_eq!(
        after(|c| {
            v1(c, &format!("{SPEC}/properties/labels"))
                .as_object_mut()
                .unwrap()
                .remove("additionalProperties");
        }),
        ["breaks-stored-objects field-removed v1 .spec.labels.*"]
    );
    assert_eq!(
        after(|c| *v1(c, &format!("{SPEC}/properties/mode/nullable")) = json!(false)),
        ["breaks-stored-objects nullable-removed v1 .spec.mode"]
    );
    assert_eq!(
        after(|c| {
            v1(c, SPEC)["required"] = json!(["cronSpec", "image"]);
        }),
        ["breaks-stored-objects required-added v1 .spec.image"]
    );
    assert_eq!(
        after(|c| {
            v1(c, &format!("{SPEC}/properties/extra"))
                .as_object_mut()
                .unwrap()
                .remove("x-kubernetes-preserve-unknown-fields");
        }),
        ["breaks-stored-objects pruning-enabled v1 .spec.extra"]
    );
}

/// What validation ratcheting leaves of a new or tighter value validation: a break of the
/// clients that write values it refuses, not of the objects stored.
const RATCHETED: &str = "; ratcheted (Kubernetes 1.30+): stored objects that fail it keep updating while that value is unchanged";

#[test]
fn value_validations() {
    let at = |p: &str| format!("{SPEC}/properties/{p}");
    let r = |m: &str| format!("{m}{RATCHETED}");
    assert_eq!(
        messages(|c| *v1(c, &at("replicas/maximum")) = json!(5)),
        [r("maximum lowered from 10 to 5")]
    );
    assert_eq!(
        messages(|c| *v1(c, &at("replicas/minimum")) = json!(2)),
        [r("minimum raised from 1 to 2")]
    );
    assert_eq!(
        messages(|c| *v1(c, &at("replicas/maximum")) = json!(20)),
        Vec::<String>::new(),
        "a looser bound"
    );
    assert_eq!(
        messages(|c| v1(c, &at("replicas"))["exclusiveMaximum"] = json!(true)),
        [r("maximum 10 made exclusive")]
    );
    assert_eq!(
        messages(|c| v1(c, &at("cronSpec"))["maxLength"] = json!(64)),
        [r("maxLength 64 added")]
    );
    assert_eq!(
        messages(|c| *v1(c, &at("ports/maxItems")) = json!(8)),
        [r("maxItems lowered from 16 to 8")]
    );
    assert_eq!(
        messages(|c| v1(c, &at("labels"))["maxProperties"] = json!(4)),
        [r("maxProperties 4 added")]
    );
    assert_eq!(
        messages(|c| v1(c, &at("ports/items/properties/port"))["multipleOf"] = json!(2)),
        [r("multipleOf 2 added")]
    );
    assert_eq!(
        after(|c| *v1(c, &at("labels/additionalProperties/maxLength")) = json!(32)),
        ["breaks-clients bound-tightened v1 .spec.labels.*"]
    );
    assert_eq!(
        after(|c| *v1(c, &at("ports/items/properties/name/maxLength")) = json!(8)),
        ["breaks-clients bound-tightened v1 .spec.ports[*].name"]
    );
    assert_eq!(
        after(|c| *v1(c, &at("mode/enum")) = json!(["Fast", "Medium"])),
        [
            "breaks-clients enum-narrowed v1 .spec.mode",
            "info enum-widened v1 .spec.mode"
        ]
    );
    assert_eq!(
        messages(|c| v1(c, &at("image"))["enum"] = json!(["nginx"])),
        [r("enum added: only \"nginx\" allowed")]
    );
    assert_eq!(
        messages(|c| *v1(c, &at("cronSpec/pattern")) = json!("^\\d+$")),
        [r(
            r#"pattern changed from "^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$" to "^\\d+$""#
        )]
    );
    assert_eq!(
        after(|c| v1(c, &at("image"))["format"] = json!("uri")),
        ["breaks-clients format-changed v1 .spec.image"]
    );
    assert_eq!(
        after(|c| v1(c, &at("image"))["anyOf"] = json!([{"maxLength": 10}, {"pattern": "^x"}])),
        ["breaks-stored-objects junctor-changed v1 .spec.image"]
    );
}

#[test]
fn rules() {
    assert_eq!(
        after(|c| {
            v1(c, SPEC)["x-kubernetes-validations"] = json!([
                {"rule": "self.replicas <= 10"},
                {"rule": "!has(self.image) || self.image.size() > 0"},
                {"rule": "self.replicas >= oldSelf.replicas"}
            ]);
        }),
        [
            "breaks-clients rule-added v1 .spec",
            "breaks-stored-objects rule-added v1 .spec",
            "info rule-cost-grew v1 ."
        ]
    );
    // A rule is ratcheted unless it uses oldSelf (then it is a transition rule); a string
    // that spells oldSelf is no use of it.
    assert_eq!(
        messages(|c| {
            v1(c, SPEC)["x-kubernetes-validations"] = json!([
                {"rule": "!has(self.image) || self.image.size() > 0"},
                {"rule": "self.image != 'oldSelf'"},
                {"rule": "self.replicas >= oldSelf.replicas"}
            ]);
        })[1..3],
        [
            format!("rule 1 is new: \"self.image != 'oldSelf'\"{RATCHETED}"),
            "rule 2 is new: \"self.replicas >= oldSelf.replicas\" (a transition rule: it applies \
             to updates, and is not ratcheted); updates of existing objects may fail it"
                .to_owned(),
        ]
    );
    assert_eq!(
        after(|c| v1(c, SPEC)["x-kubernetes-validations"] = json!([])),
        ["info rule-removed v1 .spec"]
    );
    // Unbounded tags: the rule over them runs more often and on longer strings.
    let grown = messages(|c| {
        let tags = v1(c, &format!("{SPEC}/properties/tags"));
        tags.as_object_mut().unwrap().remove("maxItems");
    });
    assert_eq!(
        grown,
        [
            "the estimated cost of rule 0 (\"self.all(t, t.startsWith('x'))\") grew from 52 to 5242877",
            "the estimated cost of all rules grew from 55 to 5242880"
        ]
    );
}

#[test]
fn list_and_map_types_and_defaults() {
    let at = |p: &str| format!("{SPEC}/properties/{p}");
    assert_eq!(
        after(|c| *v1(c, &at("ports/x-kubernetes-list-map-keys")) = json!(["name", "port"])),
        ["breaks-stored-objects list-type-changed v1 .spec.ports"]
    );
    assert_eq!(
        after(|c| v1(c, &at("tags"))["x-kubernetes-list-type"] = json!("set")),
        ["breaks-stored-objects list-type-changed v1 .spec.tags"]
    );
    assert_eq!(
        after(|c| {
            v1(c, &at("ports"))
                .as_object_mut()
                .unwrap()
                .remove("x-kubernetes-list-map-keys");
            *v1(c, &at("ports/x-kubernetes-list-type")) = json!("atomic");
        }),
        ["breaks-clients list-type-changed v1 .spec.ports"]
    );
    assert_eq!(
        after(|c| v1(c, &at("labels"))["x-kubernetes-map-type"] = json!("atomic")),
        ["breaks-clients map-type-changed v1 .spec.labels"]
    );
    assert_eq!(
        messages(|c| *v1(c, &at("replicas/default")) = json!(2)),
        ["default changed from 1 to 2"]
    );
    assert_eq!(
        after(|c| {
            v1(c, &at("replicas"))
                .as_object_mut()
                .unwrap()
                .remove("default");
        }),
        ["breaks-clients default-changed v1 .spec.replicas"]
    );
    assert_eq!(
        after(|c| v1(c, &at("image"))["default"] = json!("nginx")),
        ["info default-added v1 .spec.image"]
    );
}

#[test]
fn names_scope_and_versions() {
    assert_eq!(
        after(|c| c["spec"]["scope"] = json!("Cluster")),
        ["breaks-stored-objects scope-changed - spec.scope"]
    );
    assert_eq!(
        after(|c| {
            c["spec"]["names"]["shortNames"] = json!([]);
            c["spec"]["names"]["categories"] = json!(["crons"]);
            c["spec"]["names"]["singular"] = json!("cron");
        }),
        [
            "breaks-clients name-changed - spec.names.singular",
            "breaks-clients name-removed - spec.names.shortNames",
            "breaks-clients name-removed - spec.names.categories"
        ]
    );
    let remove_beta = |c: &mut Value| {
        c["spec"]["versions"].as_array_mut().unwrap().remove(0);
    };
    assert_eq!(
        after(remove_beta),
        ["breaks-clients version-removed v1beta1 spec.versions"]
    );
    // Once objects were stored at v1beta1 (the old CRD read back from a cluster).
    let mut stored = base();
    stored["status"] = json!({"storedVersions": ["v1beta1", "v1"]});
    let mut new = base();
    remove_beta(&mut new);
    let findings = compare(&crd(stored), &crd(new));
    assert_eq!(
        short(&findings),
        ["breaks-stored-objects stored-version-removed v1beta1 spec.versions"]
    );
    assert_eq!(worst(&findings), Some(Severity::BreaksStoredObjects));
    assert_eq!(
        after(|c| c["spec"]["versions"][0]["served"] = json!(false)),
        ["breaks-clients version-unserved v1beta1 spec.versions"]
    );
    assert_eq!(
        messages(|c| c["spec"]["versions"][0]["deprecated"] = json!(true)),
        [
            "version v1beta1 deprecated: stable.example.com/v1beta1 CronTab is deprecated; use stable.example.com/v1 CronTab"
        ]
    );
    assert_eq!(
        after(|c| {
            c["spec"]["versions"][0]["storage"] = json!(true);
            c["spec"]["versions"][1]["storage"] = json!(false);
            let mut v2 = c["spec"]["versions"][0].clone();
            v2["name"] = json!("v2");
            v2["storage"] = json!(false);
            c["spec"]["versions"].as_array_mut().unwrap().push(v2);
        }),
        [
            "info version-added v2 spec.versions",
            "info storage-version-changed v1beta1 spec.versions"
        ]
    );
    assert_eq!(
        after(
            |c| c["spec"]["conversion"] = json!({"strategy": "Webhook", "webhook": {
            "conversionReviewVersions": ["v1"], "clientConfig": {"url": "https://example.com/convert"}}})
        ),
        ["info conversion-changed - spec.conversion"]
    );
}

#[test]
fn version_parts() {
    assert_eq!(
        after(|c| {
            c["spec"]["versions"][1]
                .as_object_mut()
                .unwrap()
                .remove("subresources");
            c["spec"]["versions"][1]["additionalPrinterColumns"] = json!([]);
            c["spec"]["versions"][1]["selectableFields"] = json!([]);
        }),
        [
            "breaks-clients subresource-removed v1 subresources.status",
            "breaks-clients subresource-removed v1 subresources.scale",
            "info printer-column-removed v1 additionalPrinterColumns",
            "breaks-clients selectable-field-removed v1 selectableFields"
        ]
    );
}
