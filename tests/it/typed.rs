//! The typed API on generated roots: validate, validate_update, prune_and_default.

use crdkit::CustomResource;
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
#[crd(
    group = "stable.example.com",
    version = "v1",
    kind = "CronTab",
    namespaced
)]
#[serde(rename_all = "camelCase")]
pub struct CronTabSpec {
    #[crd(
        pattern = r"^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$",
        default = "5 0 * * *"
    )]
    pub cron_spec: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    #[crd(minimum = 1, maximum = 10, default = 1)]
    pub replicas: i64,
}

fn crontab(cron_spec: &str, replicas: i64) -> CronTab {
    CronTab::new(
        "my-new-cron-object",
        CronTabSpec {
            cron_spec: cron_spec.into(),
            image: Some("my-awesome-cron-image".into()),
            replicas,
        },
    )
}

#[test]
fn validate_reports_the_api_servers_errors() {
    assert_eq!(crontab("* * * * */5", 5).validate(), Ok(()));
    let err = crontab("* * * *", 15).validate().unwrap_err();
    let lines: Vec<String> = err.errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            r#"spec.cronSpec: Invalid value: "* * * *": spec.cronSpec in body should match '^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$'"#,
            "spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10",
        ]
    );
    assert!(
        err.to_string()
            .starts_with("The CronTab \"my-new-cron-object\" is invalid: \n* spec.cronSpec"),
        "{err}"
    );
}

#[test]
fn validate_update_checks_the_new_object() {
    let old = crontab("* * * * */5", 5);
    assert_eq!(crontab("* * * * */5", 6).validate_update(&old), Ok(()));
    assert_eq!(
        crontab("* * * * */5", 0)
            .validate_update(&old)
            .unwrap_err()
            .errors
            .len(),
        1
    );
}

#[test]
fn prune_and_default_fills_defaults_and_drops_unknown_fields() {
    let ct = CronTab::prune_and_default(json!({
        "apiVersion": "stable.example.com/v1",
        "kind": "CronTab",
        "metadata": {"name": "my-new-cron-object", "bogus": true},
        "spec": {"image": "my-awesome-cron-image", "someRandomField": 42}
    }))
    .unwrap();
    assert_eq!(
        ct.spec,
        CronTabSpec {
            cron_spec: "5 0 * * *".into(),
            image: Some("my-awesome-cron-image".into()),
            replicas: 1
        }
    );
    assert_eq!(ct.metadata.name.as_deref(), Some("my-new-cron-object"));
}

#[test]
fn prune_and_default_reports_what_does_not_decode() {
    let err = CronTab::prune_and_default(json!({"metadata": {"name": 5}, "spec": {}})).unwrap_err();
    assert!(matches!(err, crdkit::DecodeError::Rejected(_)), "{err}");
}
