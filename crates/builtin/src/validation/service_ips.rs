//! A Service's cluster IPs and IP families, and how updates may change them.
//!
//! Mirrors kubernetes `pkg/apis/core/validation/validation.go`
//! (`ValidateServiceClusterIPsRelatedFields`, `validateUpgradeDowngradeClusterIPs`,
//! `validateUpgradeDowngradeIPFamilies`) and `isHeadlessService`.

use serde_json::Value;

use super::net::{is_ipv6, valid_ip};
use super::read::{Obj, arr, opt_str, str_of, strs};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};

/// The `[]string` at `k` as Go prints it.
pub(crate) fn list_bad(spec: &Obj, k: &str) -> BadValue {
    BadValue::Json(spec.get(k).cloned().unwrap_or(Value::Null))
}

/// `isHeadlessService`: `clusterIPs` is exactly `["None"]`.
#[must_use]
pub fn is_headless(spec: &Obj) -> bool {
    let ips = arr(spec, "clusterIPs");
    ips.len() == 1 && ips[0] == "None"
}

/// `ValidateServiceClusterIPsRelatedFields`.
#[must_use]
pub fn cluster_ips_related_fields(spec: &Obj) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if str_of(spec, "type") == "ExternalName" {
        return errs;
    }
    let sp = FieldPath::new("spec");
    let (ips_path, fam_path) = (sp.child("clusterIPs"), sp.child("ipFamilies"));
    let cluster_ip = str_of(spec, "clusterIP");
    let ips: Vec<&str> = strs(spec, "clusterIPs").collect();
    if !cluster_ip.is_empty() {
        if ips.is_empty() {
            errs.push(FieldError::required(&ips_path, ""));
        } else if ips[0] != cluster_ip {
            errs.push(FieldError::invalid(
                &ips_path,
                list_bad(spec, "clusterIPs"),
                "first value must match `clusterIP`",
            ));
        }
    } else if !ips.is_empty() {
        errs.push(FieldError::invalid(
            &ips_path,
            list_bad(spec, "clusterIPs"),
            "must be empty when `clusterIP` is not specified",
        ));
    }
    let mut seen: Vec<&str> = Vec::new();
    for (i, fam) in strs(spec, "ipFamilies").enumerate() {
        if fam != "IPv4" && fam != "IPv6" {
            errs.push(FieldError::not_supported(
                &fam_path.index(i),
                fam,
                &["IPv4", "IPv6"],
            ));
        }
        if seen.contains(&fam) {
            errs.push(FieldError::duplicate(&fam_path.index(i), fam));
        }
        seen.push(fam);
    }
    if let Some(policy) = opt_str(spec, "ipFamilyPolicy")
        && !matches!(
            policy,
            "SingleStack" | "PreferDualStack" | "RequireDualStack"
        )
    {
        errs.push(FieldError::not_supported(
            &sp.child("ipFamilyPolicy"),
            policy,
            &["PreferDualStack", "RequireDualStack", "SingleStack"],
        ));
    }
    let mut invalid = false;
    for (i, ip) in ips.iter().enumerate() {
        if i == 0 && *ip == "None" {
            if ips.len() > 1 {
                invalid = true;
                errs.push(FieldError::invalid(
                    &ips_path,
                    list_bad(spec, "clusterIPs"),
                    "'None' must be the first and only value",
                ));
            }
            continue;
        }
        let before = errs.len();
        valid_ip(&ips_path.index(i), ip, &mut errs);
        invalid |= errs.len() != before;
    }
    if ips.len() > 2 {
        errs.push(FieldError::invalid(
            &ips_path,
            list_bad(spec, "clusterIPs"),
            "may only hold up to 2 values",
        ));
    }
    if invalid {
        return errs;
    }
    if ips.len() > 1 && is_ipv6(ips[0]) == is_ipv6(ips[1]) {
        errs.push(FieldError::invalid(
            &ips_path,
            list_bad(spec, "clusterIPs"),
            "may specify no more than one IP for each IP family",
        ));
    }
    let families: Vec<&str> = strs(spec, "ipFamilies").collect();
    if !is_headless(spec) {
        for (i, ip) in ips.iter().enumerate().take(families.len()) {
            let v6 = is_ipv6(ip);
            if families[i] == "IPv4" && v6 {
                errs.push(FieldError::invalid(
                    &ips_path.index(i),
                    *ip,
                    format!("expected an IPv4 value as indicated by `ipFamilies[{i}]`"),
                ));
            }
            if families[i] == "IPv6" && !v6 {
                errs.push(FieldError::invalid(
                    &ips_path.index(i),
                    *ip,
                    format!("expected an IPv6 value as indicated by `ipFamilies[{i}]`"),
                ));
            }
        }
    }
    errs
}

/// `validateUpgradeDowngradeClusterIPs` and `validateUpgradeDowngradeIPFamilies`.
pub(crate) fn upgrade_downgrade(ns: &Obj, os: &Obj, errs: &mut Vec<FieldError>) {
    if str_of(ns, "type") == "ExternalName" || str_of(os, "type") == "ExternalName" {
        return;
    }
    let sp = FieldPath::new("spec");
    let (nh, oh) = (is_headless(ns), is_headless(os));
    let single = opt_str(ns, "ipFamilyPolicy") == Some("SingleStack");
    let policy_bad = || BadValue::Json(ns.get("ipFamilyPolicy").cloned().unwrap_or(Value::Null));
    if !(nh && oh) {
        let (n, o): (Vec<&str>, Vec<&str>) = (
            strs(ns, "clusterIPs").collect(),
            strs(os, "clusterIPs").collect(),
        );
        let ips = sp.child("clusterIPs");
        let bad = || list_bad(ns, "clusterIPs");
        if n.len() == o.len() {
            for (i, ip) in o.iter().enumerate() {
                if *ip != n[i] {
                    errs.push(FieldError::invalid(
                        &ips.index(i),
                        bad(),
                        "may not change once set",
                    ));
                }
            }
        } else if o.len() > n.len() {
            if n.is_empty() {
                errs.push(FieldError::invalid(
                    &ips.index(0),
                    bad(),
                    "primary clusterIP can not be unset",
                ));
            }
            if !o.is_empty() && !n.is_empty() && n[0] != o[0] {
                errs.push(FieldError::invalid(
                    &ips.index(0),
                    bad(),
                    "may not change once set",
                ));
            }
            if n.len() == 1 && !single {
                errs.push(FieldError::invalid(
                    &sp.child("ipFamilyPolicy"),
                    policy_bad(),
                    "must be set to 'SingleStack' when releasing the secondary clusterIP",
                ));
            }
        } else if !o.is_empty() && n[0] != o[0] {
            errs.push(FieldError::invalid(
                &ips.index(0),
                bad(),
                "may not change once set",
            ));
        }
    }
    if nh != oh || nh {
        return;
    }
    let (n, o): (Vec<&str>, Vec<&str>) = (
        strs(ns, "ipFamilies").collect(),
        strs(os, "ipFamilies").collect(),
    );
    let fam = sp.child("ipFamilies");
    if n.len() == o.len() {
        for (i, f) in o.iter().enumerate() {
            if *f != n[i] {
                errs.push(FieldError::invalid(
                    &fam.index(0),
                    list_bad(ns, "ipFamilies"),
                    "may not change once set",
                ));
            }
        }
    } else if o.len() > n.len() {
        if arr(ns, "clusterIPs").is_empty() {
            errs.push(FieldError::invalid(
                &fam.index(0),
                list_bad(ns, "ipFamilies"),
                "primary ipFamily can not be unset",
            ));
        }
        if !n.is_empty() && n[0] != o[0] {
            errs.push(FieldError::invalid(
                &fam.index(0),
                list_bad(ns, "clusterIPs"),
                "may not change once set",
            ));
        }
        if n.len() == 1 && !single {
            errs.push(FieldError::invalid(
                &sp.child("ipFamilyPolicy"),
                policy_bad(),
                "must be set to 'SingleStack' when releasing the secondary ipFamily",
            ));
        }
    } else if !o.is_empty() && !n.is_empty() && n[0] != o[0] {
        errs.push(FieldError::invalid(
            &fam.index(0),
            list_bad(ns, "clusterIPs"),
            "may not change once set",
        ));
    }
}
