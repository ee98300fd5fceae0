//! CronJobs.
//!
//! Mirrors kubernetes `pkg/apis/batch/validation/validation.go` (`ValidateCronJobCreate`/`Update`,
//! `validateCronJobSpec`, `validateTimeZone` without the time zone database,
//! `ValidateJobTemplateSpec`).

use super::job::job_spec_common;
use serde_json::Value;

use super::meta::{self, NameRule};
use super::read::{Obj, is_set, obj_or_empty, opt_int, opt_str, str_of};
use super::selector::selector_bad_value;
use crdkit_apimachinery::field::{FieldError, FieldPath};

/// `ValidateJobTemplateSpec`: a CronJob's Job template has no selector of its own.
pub(crate) fn job_template(t: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let spec = obj_or_empty(t, "spec");
    let sp = p.child("spec");
    job_spec_common(spec, &sp, errs);
    if is_set(spec, "selector") {
        errs.push(FieldError::invalid(
            &sp.child("selector"),
            selector_bad_value(spec.get("selector")),
            "`selector` will be auto-generated",
        ));
    }
    if spec.get("manualSelector") == Some(&Value::Bool(true)) {
        errs.push(FieldError::not_supported(
            &sp.child("manualSelector"),
            true,
            &["nil", "false"],
        ));
    }
}

/// `validateCronJobSpec` (`old`: the stored spec on update).
pub(crate) fn cron_job_spec(
    spec: &Obj,
    old: Option<&Obj>,
    p: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let schedule = str_of(spec, "schedule");
    let sp = p.child("schedule");
    let tz = opt_str(spec, "timeZone");
    if schedule.is_empty() {
        errs.push(FieldError::required(&sp, ""));
    } else {
        let allow_tz = old.is_some_and(|o| str_of(o, "schedule").contains("TZ"));
        if let Err(e) = super::cron::parse_standard(schedule) {
            errs.push(FieldError::invalid(&sp, schedule, e));
        }
        if allow_tz && schedule.contains("TZ") && tz.is_some() {
            errs.push(FieldError::invalid(
                &sp,
                schedule,
                "cannot use both timeZone field and TZ or CRON_TZ in schedule",
            ));
        } else if !allow_tz && schedule.contains("TZ") {
            errs.push(FieldError::invalid(
                &sp,
                schedule,
                "cannot use TZ or CRON_TZ in schedule, use timeZone field instead",
            ));
        }
    }
    if let Some(d) = opt_int(spec, "startingDeadlineSeconds") {
        meta::nonnegative(d, &p.child("startingDeadlineSeconds"), errs);
    }
    if old.is_none_or(|o| opt_str(o, "timeZone") != tz)
        && let Some(tz) = tz
    {
        time_zone(tz, &p.child("timeZone"), errs);
    }
    match str_of(spec, "concurrencyPolicy") {
        "Allow" | "Forbid" | "Replace" => {}
        "" => errs.push(FieldError::required(&p.child("concurrencyPolicy"), "")),
        other => errs.push(FieldError::not_supported(
            &p.child("concurrencyPolicy"),
            other,
            &["Allow", "Forbid", "Replace"],
        )),
    }
    job_template(
        obj_or_empty(spec, "jobTemplate"),
        &p.child("jobTemplate"),
        errs,
    );
    for k in ["successfulJobsHistoryLimit", "failedJobsHistoryLimit"] {
        if let Some(v) = opt_int(spec, k) {
            meta::nonnegative(v, &p.child(k), errs);
        }
    }
}

/// `validateTimeZone` without the time zone database lookup.
pub(crate) fn time_zone(tz: &str, p: &FieldPath, errs: &mut Vec<FieldError>) {
    if tz.is_empty() {
        errs.push(FieldError::invalid(
            p,
            tz,
            "timeZone must be nil or non-empty string",
        ));
        return;
    }
    let part_ok = |part: &str| {
        part != "."
            && part != ".."
            && !part.starts_with('-')
            && (1..=14).contains(&part.len())
            && part
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"._-+".contains(&b))
    };
    if !tz.split('/').all(part_ok) {
        errs.push(FieldError::invalid(
            p,
            tz,
            format!("unknown time zone {tz}"),
        ));
        return;
    }
    if tz.eq_ignore_ascii_case("Local") {
        errs.push(FieldError::invalid(
            p,
            tz,
            "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
        ));
    }
}

/// `ValidateCronJobCreate`: also names of at most 52 characters.
pub(crate) fn cron_job_create(cj: &Obj, errs: &mut Vec<FieldError>) {
    meta::object_meta(cj, true, NameRule::DnsSubdomain, errs);
    cron_job_spec(
        obj_or_empty(cj, "spec"),
        None,
        &FieldPath::new("spec"),
        errs,
    );
    let name = str_of(obj_or_empty(cj, "metadata"), "name");
    if name.len() > 52 {
        errs.push(FieldError::invalid(
            &FieldPath::new("metadata").child("name"),
            name,
            "must be no more than 52 characters",
        ));
    }
}

/// `ValidateCronJobUpdate`.
pub(crate) fn cron_job_update(new: &Obj, old: &Obj, errs: &mut Vec<FieldError>) {
    meta::object_meta_update(new, old, errs);
    cron_job_spec(
        obj_or_empty(new, "spec"),
        Some(obj_or_empty(old, "spec")),
        &FieldPath::new("spec"),
        errs,
    );
}
