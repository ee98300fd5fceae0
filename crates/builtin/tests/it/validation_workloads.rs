//! Rows of kubernetes `pkg/apis/apps/validation/validation_test.go` and
//! `pkg/apis/batch/validation/validation_test.go`.

use serde_json::{Value, json};

use crate::support::{
    container, create_errors, deployment, pod_spec, stored, template, update_errors,
};

fn deploy_errors(spec: Value) -> Vec<String> {
    create_errors("apps/v1", "Deployment", deployment(spec))
}

#[test]
fn deployments() {
    // TestValidateDeployment.
    assert_eq!(deploy_errors(json!({})), Vec::<String>::new());
    assert_eq!(
        deploy_errors(json!({"selector": {"matchLabels": {"app": "api"}}})),
        [
            r#"spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`"#
        ]
    );
    assert_eq!(
        deploy_errors(json!({"selector": {}})),
        ["spec.selector: Invalid value: {}: empty selector is invalid for deployment"]
    );
    let missing = {
        let mut d = deployment(json!({}));
        d["spec"].as_object_mut().unwrap().remove("selector");
        create_errors("apps/v1", "Deployment", d)
    };
    assert_eq!(
        missing,
        [
            "spec.selector: Required value",
            r#"spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`"#
        ]
    );
    assert_eq!(
        deploy_errors(
            json!({"selector": {"matchExpressions": [{"key": "app", "operator": "In", "values": ["web", "api"]}]}})
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        deploy_errors(
            json!({"selector": {"matchExpressions": [{"key": "app", "operator": "Is", "values": ["web"]}]}})
        ),
        [
            r#"spec.selector.matchExpressions[0].operator: Invalid value: "Is": not a valid selector operator"#,
            r#"spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Is","values":["web"]}]}: invalid label selector"#
        ]
    );
    assert_eq!(
        deploy_errors(json!({"replicas": -1})),
        ["spec.replicas: Invalid value: -1: must be greater than or equal to 0"]
    );
    assert_eq!(
        deploy_errors(
            json!({"template": template(json!({"containers": [container("c")], "restartPolicy": "Never"}))})
        ),
        [
            r#"spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always""#
        ]
    );
    assert_eq!(
        deploy_errors(json!({"strategy": {"type": "Recreate", "rollingUpdate": {"maxSurge": 1}}})),
        [
            "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"
        ]
    );
    assert_eq!(
        deploy_errors(json!({"strategy": {"rollingUpdate": {"maxSurge": 0, "maxUnavailable": 0}}})),
        [
            "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"
        ]
    );
    assert_eq!(
        deploy_errors(json!({"strategy": {"rollingUpdate": {"maxUnavailable": "110%"}}})),
        [
            r#"spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "110%": must not be greater than 100%"#
        ]
    );
    assert_eq!(
        deploy_errors(json!({"strategy": {"rollingUpdate": {"maxSurge": "a lot"}}})),
        [
            r#"spec.strategy.rollingUpdate.maxSurge: Invalid value: "a lot": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"#
        ]
    );
    assert_eq!(
        deploy_errors(json!({"minReadySeconds": 700})),
        ["spec.progressDeadlineSeconds: Invalid value: 600: must be greater than minReadySeconds"]
    );
    // The pod template is validated.
    assert_eq!(
        deploy_errors(json!({"template": template(json!({"containers": [{"name": "c"}]}))})),
        ["spec.template.spec.containers[0].image: Required value"]
    );
}

#[test]
fn deployment_updates() {
    // TestValidateDeploymentUpdate and the apps/v1 strategy's immutable selector.
    let old = stored("apps/v1", "Deployment", deployment(json!({})));
    let mut scaled = old.clone();
    scaled["spec"]["replicas"] = json!(3);
    assert_eq!(
        update_errors("apps/v1", "Deployment", scaled, &old),
        Vec::<String>::new()
    );
    let mut reselect = old.clone();
    reselect["spec"]["selector"] = json!({"matchLabels": {"app": "web", "tier": "fe"}});
    reselect["spec"]["template"]["metadata"]["labels"] = json!({"app": "web", "tier": "fe"});
    assert_eq!(
        update_errors("apps/v1", "Deployment", reselect, &old),
        [
            r#"spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"fe"}}: field is immutable"#
        ]
    );
}

fn sts(spec: Value) -> Value {
    let mut base = json!({"selector": {"matchLabels": {"app": "web"}}, "serviceName": "web", "template": template(pod_spec())});
    crate::support::merge(&mut base, spec);
    json!({"metadata": {"name": "db", "namespace": "ns"}, "spec": base})
}

#[test]
fn stateful_sets() {
    // TestValidateStatefulSet, TestValidateStatefulSetUpdate.
    assert_eq!(
        create_errors("apps/v1", "StatefulSet", sts(json!({}))),
        Vec::<String>::new()
    );
    let mut dotted = sts(json!({}));
    dotted["metadata"]["name"] = json!("db.primary");
    assert_eq!(
        create_errors("apps/v1", "StatefulSet", dotted),
        [r#"metadata.name: Invalid value: "db.primary": must not contain dots"#]
    );
    assert_eq!(
        create_errors(
            "apps/v1",
            "StatefulSet",
            sts(json!({"podManagementPolicy": "Random"}))
        ),
        [
            r#"spec.podManagementPolicy: Invalid value: "Random": must be 'OrderedReady' or 'Parallel'"#
        ]
    );
    assert_eq!(
        create_errors("apps/v1", "StatefulSet", sts(json!({"selector": {}}))),
        ["spec.selector: Invalid value: {}: empty selector is invalid for statefulset"]
    );
    let old = stored(
        "apps/v1",
        "StatefulSet",
        sts(json!({"volumeClaimTemplates": [
        {"metadata": {"name": "data"}, "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}}]})),
    );
    let mut scaled = old.clone();
    scaled["spec"]["replicas"] = json!(3);
    scaled["spec"]["template"]["spec"]["containers"][0]["image"] = json!("other");
    assert_eq!(
        update_errors("apps/v1", "StatefulSet", scaled, &old),
        Vec::<String>::new()
    );
    let mut grown = old.clone();
    grown["spec"]["volumeClaimTemplates"][0]["spec"]["resources"]["requests"]["storage"] =
        json!("2Gi");
    assert_eq!(
        update_errors("apps/v1", "StatefulSet", grown, &old),
        [
            "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"
        ]
    );
}

#[test]
fn daemon_sets() {
    // TestValidateDaemonSet.
    let ds = |spec: Value| {
        let mut base =
            json!({"selector": {"matchLabels": {"app": "web"}}, "template": template(pod_spec())});
        crate::support::merge(&mut base, spec);
        create_errors(
            "apps/v1",
            "DaemonSet",
            json!({"metadata": {"name": "agent", "namespace": "ns"}, "spec": base}),
        )
    };
    assert_eq!(ds(json!({})), Vec::<String>::new());
    assert_eq!(
        ds(json!({"selector": {"matchLabels": {"app": "other"}}})),
        [
            r#"spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`"#
        ]
    );
    assert_eq!(
        ds(
            json!({"updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 1}}})
        ),
        [
            "spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero"
        ]
    );
    assert_eq!(
        ds(
            json!({"updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 0}}})
        ),
        [
            "spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"
        ]
    );
}

fn job(spec: Value) -> Value {
    let mut base =
        json!({"template": {"spec": {"containers": [container("c")], "restartPolicy": "Never"}}});
    crate::support::merge(&mut base, spec);
    json!({"metadata": {"name": "pi", "namespace": "ns", "uid": "1234"}, "spec": base})
}

#[test]
fn jobs() {
    // TestValidateJob.
    assert_eq!(
        create_errors("batch/v1", "Job", job(json!({}))),
        Vec::<String>::new()
    );
    assert_eq!(
        create_errors(
            "batch/v1",
            "Job",
            job(json!({"template": {"spec": {"containers": [container("c")]}}}))
        ),
        [r#"spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never""#]
    );
    assert_eq!(
        create_errors(
            "batch/v1",
            "Job",
            job(json!({"parallelism": -1, "backoffLimit": -1}))
        ),
        [
            "spec.parallelism: Invalid value: -1: must be greater than or equal to 0",
            "spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0"
        ]
    );
    assert_eq!(
        create_errors(
            "batch/v1",
            "Job",
            job(json!({"completionMode": "Indexed", "parallelism": 2}))
        ),
        ["spec.completions: Required value: when completion mode is Indexed"]
    );
    assert_eq!(
        create_errors(
            "batch/v1",
            "Job",
            job(
                json!({"podFailurePolicy": {"rules": [{"action": "Ignore", "onExitCodes": {"operator": "In", "values": [0]}}]},
            "template": {"spec": {"containers": [container("c")], "restartPolicy": "OnFailure"}}})
            )
        ),
        [
            "spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator",
            r#"spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified"#
        ]
    );
    assert_eq!(
        create_errors(
            "batch/v1",
            "Job",
            job(json!({"manualSelector": true, "selector": {"matchLabels": {"a": "b"}}}))
        ),
        [
            r#"spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`"#
        ]
    );
    assert_eq!(
        create_errors(
            "batch/v1",
            "Job",
            job(
                json!({"template": {"metadata": {"labels": {"job-name": "other"}},
            "spec": {"containers": [container("c")], "restartPolicy": "Never"}}})
            )
        ),
        [
            r#"spec.template.metadata.labels[job-name]: Invalid value: {"batch.kubernetes.io/controller-uid":"1234","batch.kubernetes.io/job-name":"pi","controller-uid":"1234","job-name":"other"}: must be 'pi'"#
        ]
    );
}

#[test]
fn job_updates() {
    // TestValidateJobUpdate: the template is immutable, parallelism is not.
    let old = stored("batch/v1", "Job", job(json!({})));
    let mut parallel = old.clone();
    parallel["spec"]["parallelism"] = json!(3);
    assert_eq!(
        update_errors("batch/v1", "Job", parallel, &old),
        Vec::<String>::new()
    );
    let mut image = old.clone();
    image["spec"]["template"]["spec"]["containers"][0]["image"] = json!("other");
    let errs = update_errors("batch/v1", "Job", image, &old);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].starts_with("spec.template: Invalid value: ")
            && errs[0].ends_with(": field is immutable"),
        "{errs:?}"
    );
    let mut completions = old.clone();
    completions["spec"]["completions"] = json!(3);
    assert_eq!(
        update_errors("batch/v1", "Job", completions, &old),
        ["spec.completions: Invalid value: 3: field is immutable"]
    );
    // A suspended Job that never ran may change its scheduling directives.
    let suspended = stored("batch/v1", "Job", job(json!({"suspend": true})));
    let mut placed = suspended.clone();
    placed["spec"]["template"]["spec"]["nodeSelector"] = json!({"zone": "a"});
    assert_eq!(
        update_errors("batch/v1", "Job", placed, &suspended),
        Vec::<String>::new()
    );
}

#[test]
fn cron_jobs() {
    // TestValidateCronJob.
    let cj = |spec: Value| {
        let mut base = json!({"schedule": "*/5 * * * *",
            "jobTemplate": {"spec": {"template": {"spec": {"containers": [container("c")], "restartPolicy": "OnFailure"}}}}});
        crate::support::merge(&mut base, spec);
        json!({"metadata": {"name": "nightly", "namespace": "ns"}, "spec": base})
    };
    assert_eq!(
        create_errors("batch/v1", "CronJob", cj(json!({}))),
        Vec::<String>::new()
    );
    assert_eq!(
        create_errors("batch/v1", "CronJob", cj(json!({"schedule": "* * * *"}))),
        [
            r#"spec.schedule: Invalid value: "* * * *": expected exactly 5 fields, found 4: [* * * *]"#
        ]
    );
    assert_eq!(
        create_errors(
            "batch/v1",
            "CronJob",
            cj(json!({"schedule": "TZ=UTC 0 0 * * *"}))
        ),
        [
            r#"spec.schedule: Invalid value: "TZ=UTC 0 0 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead"#
        ]
    );
    assert_eq!(
        create_errors(
            "batch/v1",
            "CronJob",
            cj(json!({"concurrencyPolicy": "Sometimes"}))
        ),
        [
            r#"spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace""#
        ]
    );
    assert_eq!(
        create_errors("batch/v1", "CronJob", cj(json!({"timeZone": "Local"}))),
        [
            r#"spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"#
        ]
    );
    let mut long = cj(json!({}));
    let name = "n".repeat(53);
    long["metadata"]["name"] = json!(name);
    assert_eq!(
        create_errors("batch/v1", "CronJob", long),
        [format!(
            r#"metadata.name: Invalid value: "{name}": must be no more than 52 characters"#
        )]
    );
}
