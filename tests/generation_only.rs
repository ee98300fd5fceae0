//! The derive without the `validation` feature: CRDs only, from the slim runtime.
//! CI runs it as `cargo test -p crdkit --no-default-features --test generation_only`; with the
//! default features it runs too, and then the validation methods exist as well.

use serde::{Deserialize, Serialize};

/// A CronTab with everything the derive checks at compile time.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "stable.example.com", version = "v1", kind = "CronTab", namespaced,
      status = CronTabStatus,
      scale(spec_replicas = ".spec.replicas", status_replicas = ".status.replicas"),
      print_column(name = "Spec", json_path = ".spec.cronSpec"),
      root_validation(rule = "self.metadata.name.startsWith('cron-')"))]
#[serde(rename_all = "camelCase")]
pub struct CronTabSpec {
    #[crd(
        pattern = r"^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$",
        default = "5 0 * * *"
    )]
    cron_spec: String,
    #[crd(
        minimum = 1,
        maximum = 10,
        default = 1,
        validation(rule = "self % 2 == 1")
    )]
    replicas: i32,
}

/// The observed state.
#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
pub struct CronTabStatus {
    replicas: i32,
}

#[test]
fn crd_is_built() {
    let crd = CronTab::crd().unwrap();
    assert_eq!(
        crd.metadata.name.as_deref(),
        Some("crontabs.stable.example.com")
    );
    let yaml = crd.to_yaml();
    assert!(yaml.contains("rule: self % 2 == 1"), "{yaml}");
    assert!(yaml.contains("specReplicasPath: .spec.replicas"), "{yaml}");
    let ct = CronTab::new(
        "cron-x",
        CronTabSpec {
            cron_spec: "* * * * */5".into(),
            replicas: 3,
        },
    );
    assert_eq!(
        serde_json::to_value(&ct).unwrap()["kind"],
        serde_json::json!("CronTab")
    );
}

#[cfg(feature = "validation")]
#[test]
fn validation_methods_exist_with_the_feature() {
    let mut ct = CronTab::new(
        "cron-x",
        CronTabSpec {
            cron_spec: "* * * * */5".into(),
            replicas: 3,
        },
    );
    assert!(ct.validate().is_ok());
    ct.spec.replicas = 4;
    assert_eq!(
        ct.validate().unwrap_err().errors[0].to_string(),
        "spec.replicas: Invalid value: 4: failed rule: self % 2 == 1"
    );
}

/// Empty `message`, `message_expression` and `field_path` are the same as none, as for the
/// API server (which drops them from the stored CRD).
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "stable.example.com", version = "v1", kind = "Quiet")]
pub struct QuietSpec {
    #[crd(validation(
        rule = "self > 0",
        message = "",
        message_expression = "",
        field_path = ""
    ))]
    n: i64,
}

#[test]
fn empty_rule_strings_are_unset() {
    let yaml = Quiet::crd().unwrap().to_yaml();
    assert!(yaml.contains("- rule: self > 0\n"), "{yaml}");
    assert!(!yaml.contains("message:"), "{yaml}");
    assert!(!yaml.contains("messageExpression"), "{yaml}");
    assert!(!yaml.contains("fieldPath"), "{yaml}");
}
