//! Probes and lifecycle handlers.
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go` (`validateLivenessProbe`,
//! `validateReadinessProbe`, `validateStartupProbe`, `validateProbe`, `validateHandler`,
//! `validateLifecycle`, `validateSleepAction` with zero-second sleeps allowed as in 1.35).

use serde_json::Value;

use super::meta::nonnegative;
use super::net::{port_num, port_num_or_name};
use super::read::{Obj, int_of, items, obj, opt_int, str_of};
use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_apimachinery::names;

/// The lifecycle handlers and probes of regular and restartable init containers.
pub(crate) fn handlers_and_probes(
    c: &Obj,
    grace: Option<i64>,
    p: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    if let Some(l) = obj(c, "lifecycle") {
        for h in ["postStart", "preStop"] {
            if let Some(handler) = obj(l, h) {
                self::handler(handler, grace, false, &p.child("lifecycle").child(h), errs);
            }
        }
    }
    if let Some(probe) = obj(c, "livenessProbe") {
        let pp = p.child("livenessProbe");
        self::probe(probe, grace, &pp, errs);
        success_threshold_one(probe, &pp, errs);
    }
    if let Some(probe) = obj(c, "readinessProbe") {
        let pp = p.child("readinessProbe");
        self::probe(probe, grace, &pp, errs);
        if let Some(t) = opt_int(probe, "terminationGracePeriodSeconds") {
            errs.push(FieldError::invalid(
                &pp.child("terminationGracePeriodSeconds"),
                t,
                "must not be set for readinessProbes",
            ));
        }
    }
    if let Some(probe) = obj(c, "startupProbe") {
        let pp = p.child("startupProbe");
        self::probe(probe, grace, &pp, errs);
        success_threshold_one(probe, &pp, errs);
    }
}

pub(crate) fn success_threshold_one(probe: &Obj, p: &FieldPath, errs: &mut Vec<FieldError>) {
    let t = int_of(probe, "successThreshold");
    if t != 1 {
        errs.push(FieldError::invalid(
            &p.child("successThreshold"),
            t,
            "must be 1",
        ));
    }
}

/// `validateProbe`.
pub(crate) fn probe(probe: &Obj, grace: Option<i64>, p: &FieldPath, errs: &mut Vec<FieldError>) {
    handler(probe, grace, true, p, errs);
    for k in [
        "initialDelaySeconds",
        "timeoutSeconds",
        "periodSeconds",
        "successThreshold",
        "failureThreshold",
    ] {
        nonnegative(int_of(probe, k), &p.child(k), errs);
    }
    if let Some(t) = opt_int(probe, "terminationGracePeriodSeconds")
        && t <= 0
    {
        errs.push(FieldError::invalid(
            &p.child("terminationGracePeriodSeconds"),
            t,
            "must be greater than 0",
        ));
    }
}

/// `validateHandler`: exactly one handler (probes: exec, httpGet, tcpSocket, grpc; lifecycle
/// handlers: exec, httpGet, tcpSocket, sleep).
pub(crate) fn handler(
    h: &Obj,
    grace: Option<i64>,
    is_probe: bool,
    p: &FieldPath,
    errs: &mut Vec<FieldError>,
) {
    let kinds: &[&str] = if is_probe {
        &["exec", "httpGet", "tcpSocket", "grpc"]
    } else {
        &["exec", "httpGet", "tcpSocket", "sleep"]
    };
    let mut n = 0;
    for &k in kinds {
        let Some(o) = obj(h, k) else { continue };
        let hp = p.child(k);
        if n > 0 {
            errs.push(FieldError::forbidden(
                &hp,
                "may not specify more than 1 handler type",
            ));
            continue;
        }
        n += 1;
        match k {
            "exec" => {
                if o.get("command")
                    .and_then(Value::as_array)
                    .is_none_or(Vec::is_empty)
                {
                    errs.push(FieldError::required(&hp.child("command"), ""));
                }
            }
            "httpGet" => {
                if str_of(o, "path").is_empty() {
                    errs.push(FieldError::required(&hp.child("path"), ""));
                }
                port_num_or_name(o.get("port"), &hp.child("port"), errs);
                let scheme = str_of(o, "scheme");
                if scheme != "HTTP" && scheme != "HTTPS" {
                    errs.push(FieldError::not_supported(
                        &hp.child("scheme"),
                        scheme,
                        &["HTTP", "HTTPS"],
                    ));
                }
                for (_, header) in items(o, "httpHeaders") {
                    let name = str_of(header, "name");
                    let ok = !name.is_empty()
                        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
                    if !ok {
                        errs.push(FieldError::invalid(
                            &hp.child("httpHeaders"),
                            name,
                            names::regex_error(
                                "a valid HTTP header must consist of alphanumeric characters or '-'",
                                "[-A-Za-z0-9]+",
                                &["X-Header-Name"],
                            ),
                        ));
                    }
                }
            }
            "tcpSocket" => port_num_or_name(o.get("port"), &hp.child("port"), errs),
            "grpc" => {
                let port = int_of(o, "port");
                if let Some(msg) = port_num(port) {
                    errs.push(FieldError::invalid(&hp.child("port"), port, msg));
                }
            }
            _ => {
                let secs = int_of(o, "seconds");
                if let Some(g) = grace
                    && (secs < 0 || secs > g)
                {
                    errs.push(FieldError::invalid(
                        &hp,
                        secs,
                        format!(
                            "must be non-negative and less than terminationGracePeriodSeconds ({g})"
                        ),
                    ));
                }
            }
        }
    }
    if n == 0 {
        errs.push(FieldError::required(p, "must specify a handler type"));
    }
}
