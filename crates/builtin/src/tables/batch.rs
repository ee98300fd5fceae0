//! The `batch`, `autoscaling` and `policy` printers: jobs, cron jobs, horizontal pod autoscalers,
//! pod disruption budgets (printers.go `printJob` ... `printPodDisruptionBudget`).

use serde_json::{Value, json};

use super::format::{
    age_at, age_cell, at, bool_ptr, condition_true, format_label_selector, int_at, int_or_string,
    list_at, name_cell, quantity, str_at, template_cells, timestamp,
};
use super::{AGE, CONTAINERS, Description::Field, Description::Text, IMAGES, NAME};
use super::{Printer, Row, col};
use crdkit_apimachinery::duration::human_duration;

const JOB_SPEC: &str = "io.k8s.api.batch.v1.JobSpec";
const CRON_SPEC: &str = "io.k8s.api.batch.v1.CronJobSpec";
const CRON_STATUS: &str = "io.k8s.api.batch.v1.CronJobStatus";
const HPA_SPEC: &str = "io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec";
pub(super) const PRINTERS: &[(&str, &str, &Printer)] = &[
    ("batch", "Job", &JOB),
    ("batch", "CronJob", &CRON_JOB),
    (
        "autoscaling",
        "HorizontalPodAutoscaler",
        &HORIZONTAL_POD_AUTOSCALER,
    ),
    ("policy", "PodDisruptionBudget", &POD_DISRUPTION_BUDGET),
];

static JOB: Printer = Printer {
    columns: &[
        NAME,
        col("Status", "string", Text("Status of the job.")),
        col(
            "Completions",
            "string",
            Field("io.k8s.api.batch.v1.JobStatus", "succeeded"),
        ),
        col(
            "Duration",
            "string",
            Text("Time required to complete the job."),
        ),
        AGE,
        CONTAINERS,
        IMAGES,
        col("Selector", "string", Field(JOB_SPEC, "selector")).wide(),
    ],
    print: job,
};

/// `printJob`.
fn job(obj: &Value, now: i64) -> Row {
    let succeeded = int_at(obj, &["status", "succeeded"]);
    let completions = match at(obj, &["spec", "completions"]).as_i64() {
        Some(c) => format!("{succeeded}/{c}"),
        None => match int_at(obj, &["spec", "parallelism"]) {
            p if p > 1 => format!("{succeeded}/1 of {p}"),
            _ => format!("{succeeded}/1"),
        },
    };
    let start = timestamp(at(obj, &["status", "startTime"]));
    let completion = timestamp(at(obj, &["status", "completionTime"]));
    let duration = match (start, completion) {
        (None, _) => String::new(),
        (Some(s), None) => human_duration(now - s),
        (Some(s), Some(c)) => human_duration(c - s),
    };
    let conditions = list_at(obj, &["status", "conditions"]);
    let status = if condition_true(conditions, "Complete") {
        "Complete"
    } else if condition_true(conditions, "Failed") {
        "Failed"
    } else if !at(obj, &["metadata", "deletionTimestamp"]).is_null() {
        "Terminating"
    } else if condition_true(conditions, "Suspended") {
        "Suspended"
    } else if condition_true(conditions, "FailureTarget") {
        "FailureTarget"
    } else {
        "Running"
    };
    let [names, images] = template_cells(obj, &["spec"]);
    vec![
        name_cell(obj),
        json!(status),
        json!(completions),
        json!(duration),
        age_cell(obj, now),
        names,
        images,
        json!(format_label_selector(at(obj, &["spec", "selector"]))),
    ]
    .into()
}

static CRON_JOB: Printer = Printer {
    columns: &[
        NAME,
        col("Schedule", "string", Field(CRON_SPEC, "schedule")),
        col("Timezone", "string", Field(CRON_SPEC, "timeZone")),
        col("Suspend", "boolean", Field(CRON_SPEC, "suspend")),
        col("Active", "integer", Field(CRON_STATUS, "active")),
        col(
            "Last Schedule",
            "string",
            Field(CRON_STATUS, "lastScheduleTime"),
        ),
        AGE,
        CONTAINERS,
        IMAGES,
        col("Selector", "string", Field(JOB_SPEC, "selector")).wide(),
    ],
    print: |obj, now| {
        let last = if at(obj, &["status", "lastScheduleTime"]).is_null() {
            "<none>".to_owned()
        } else {
            age_at(obj, &["status", "lastScheduleTime"], now)
        };
        let time_zone = at(obj, &["spec", "timeZone"]).as_str().unwrap_or("<none>");
        let active = i64::try_from(list_at(obj, &["status", "active"]).len()).unwrap_or(i64::MAX);
        let [names, images] = template_cells(obj, &["spec", "jobTemplate", "spec"]);
        vec![
            name_cell(obj),
            json!(str_at(obj, &["spec", "schedule"])),
            json!(time_zone),
            json!(bool_ptr(at(obj, &["spec", "suspend"]))),
            json!(active),
            json!(last),
            age_cell(obj, now),
            names,
            images,
            json!(format_label_selector(at(
                obj,
                &["spec", "jobTemplate", "spec", "selector"]
            ))),
        ]
        .into()
    },
};

static HORIZONTAL_POD_AUTOSCALER: Printer = Printer {
    columns: &[
        NAME,
        col("Reference", "string", Field(HPA_SPEC, "scaleTargetRef")),
        col("Targets", "string", Field(HPA_SPEC, "metrics")),
        col("MinPods", "string", Field(HPA_SPEC, "minReplicas")),
        col("MaxPods", "string", Field(HPA_SPEC, "maxReplicas")),
        col(
            "Replicas",
            "string",
            Field(
                "io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerStatus",
                "currentReplicas",
            ),
        ),
        AGE,
    ],
    print: |obj, now| {
        let reference = format!(
            "{}/{}",
            str_at(obj, &["spec", "scaleTargetRef", "kind"]),
            str_at(obj, &["spec", "scaleTargetRef", "name"])
        );
        let min = at(obj, &["spec", "minReplicas"])
            .as_i64()
            .map_or_else(|| "<unset>".to_owned(), |n| n.to_string());
        vec![
            name_cell(obj),
            json!(reference),
            json!(hpa_metrics(obj)),
            json!(min),
            json!(int_at(obj, &["spec", "maxReplicas"])),
            json!(int_at(obj, &["status", "currentReplicas"])),
            age_cell(obj, now),
        ]
        .into()
    },
};

/// A `*resource.Quantity`'s `String()`: `<nil>` when absent.
fn quantity_ptr(v: &Value) -> String {
    if v.is_null() {
        "<nil>".to_owned()
    } else {
        quantity(v)
    }
}

/// The metric specs and statuses of an autoscaler; `autoscaling/v1`'s CPU target and current
/// utilization converted as its conversion to the internal type does.
fn hpa_specs_and_statuses(obj: &Value) -> (Vec<Value>, Vec<Value>) {
    if let Some(target) = at(obj, &["spec", "targetCPUUtilizationPercentage"]).as_i64() {
        let spec = json!({"type": "Resource", "resource": {"name": "cpu", "target": {"type": "Utilization", "averageUtilization": target}}});
        let statuses = at(obj, &["status", "currentCPUUtilizationPercentage"])
            .as_i64()
            .map(|c| json!({"type": "Resource", "resource": {"name": "cpu", "current": {"averageUtilization": c}}}));
        return (vec![spec], statuses.into_iter().collect());
    }
    (
        list_at(obj, &["spec", "metrics"]).to_vec(),
        list_at(obj, &["status", "currentMetrics"]).to_vec(),
    )
}

/// `formatHPAMetrics`: `current/target` per metric, two at most then `+ N more...`.
fn hpa_metrics(obj: &Value) -> String {
    let (specs, statuses) = hpa_specs_and_statuses(obj);
    if specs.is_empty() {
        return "<none>".to_owned();
    }
    let status = |i: usize, source: &str| {
        statuses
            .get(i)
            .map(|s| at(s, &[source]))
            .filter(|s| !s.is_null())
    };
    let mut list = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let text = match str_at(spec, &["type"]) {
            kind @ ("External" | "Object") => {
                let source = if kind == "External" {
                    "external"
                } else {
                    "object"
                };
                let target = at(spec, &[source, "target"]);
                let current = status(i, source).map(|s| at(s, &["current"]));
                if at(target, &["averageValue"]).is_null() {
                    let current = current.map_or_else(
                        || "<unknown>".to_owned(),
                        |c| quantity_ptr(at(c, &["value"])),
                    );
                    format!("{current}/{}", quantity_ptr(at(target, &["value"])))
                } else {
                    let current = current
                        .map(|c| at(c, &["averageValue"]))
                        .filter(|v| !v.is_null())
                        .map_or_else(|| "<unknown>".to_owned(), quantity);
                    format!(
                        "{current}/{} (avg)",
                        quantity(at(target, &["averageValue"]))
                    )
                }
            }
            "Pods" => {
                let current = status(i, "pods").map_or_else(
                    || "<unknown>".to_owned(),
                    |s| quantity_ptr(at(s, &["current", "averageValue"])),
                );
                format!(
                    "{current}/{}",
                    quantity_ptr(at(spec, &["pods", "target", "averageValue"]))
                )
            }
            kind @ ("Resource" | "ContainerResource") => {
                let source = if kind == "Resource" {
                    "resource"
                } else {
                    "containerResource"
                };
                let target = at(spec, &[source, "target"]);
                let resource = str_at(spec, &[source, "name"]);
                let current = status(i, source).map(|s| at(s, &["current"]));
                if at(target, &["averageValue"]).is_null() {
                    let current = current
                        .and_then(|c| at(c, &["averageUtilization"]).as_i64())
                        .map_or_else(|| "<unknown>".to_owned(), |u| format!("{u}%"));
                    let target = at(target, &["averageUtilization"])
                        .as_i64()
                        .map_or_else(|| "<auto>".to_owned(), |u| format!("{u}%"));
                    format!("{resource}: {current}/{target}")
                } else {
                    let current = current.map_or_else(
                        || "<unknown>".to_owned(),
                        |c| quantity_ptr(at(c, &["averageValue"])),
                    );
                    format!(
                        "{resource}: {current}/{}",
                        quantity(at(target, &["averageValue"]))
                    )
                }
            }
            _ => "<unknown type>".to_owned(),
        };
        list.push(text);
    }
    let (max, count) = (2, list.len());
    list.truncate(max);
    let ret = list.join(", ");
    if count > max {
        format!("{ret} + {} more...", count - max)
    } else {
        ret
    }
}

static POD_DISRUPTION_BUDGET: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Min Available",
            "string",
            Text("The minimum number of pods that must be available."),
        ),
        col(
            "Max Unavailable",
            "string",
            Text("The maximum number of pods that may be unavailable."),
        ),
        col(
            "Allowed Disruptions",
            "integer",
            Text("Calculated number of pods that may be disrupted at this time."),
        ),
        AGE,
    ],
    print: |obj, now| {
        let or_na = |k: &str| {
            let v = at(obj, &["spec", k]);
            if v.is_null() {
                "N/A".to_owned()
            } else {
                int_or_string(v)
            }
        };
        vec![
            name_cell(obj),
            json!(or_na("minAvailable")),
            json!(or_na("maxUnavailable")),
            json!(int_at(obj, &["status", "disruptionsAllowed"])),
            age_cell(obj, now),
        ]
        .into()
    },
};
