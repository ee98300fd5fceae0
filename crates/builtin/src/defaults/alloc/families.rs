//! IP families and cluster IPs (`initIPFamilyFields`, `allocClusterIPs`, `updateClusterIPs` of
//! kubernetes `pkg/registry/core/service/storage/alloc.go`).

use serde_json::{Value, json};

use super::super::json::{Obj, str_of};
use super::fields::matching_prefer_dual_stack;
use super::{AllocError, Allocation, ServiceAllocator};
use crate::validation::{cluster_ips_related_fields, is_headless};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::goparse::parse_ip;

impl ServiceAllocator {
    /// `initIPFamilyFields`.
    pub(super) fn init_ip_families(
        &self,
        spec: &mut Obj,
        old: Option<&Obj>,
    ) -> Result<(), AllocError> {
        if str_of(spec, "type") == "ExternalName" || matching_prefer_dual_stack(spec, old) {
            return Ok(());
        }
        if super::super::json::is_nil(spec, "ipFamilyPolicy") {
            let policy = match old
                .and_then(|o| o.get("ipFamilyPolicy"))
                .filter(|p| !p.is_null())
            {
                Some(p) => p.clone(),
                None if str_of(spec, "clusterIP") == "None"
                    && super::super::json::is_empty(spec, "selector") =>
                {
                    json!("RequireDualStack")
                }
                None => json!("SingleStack"),
            };
            spec.insert("ipFamilyPolicy".to_owned(), policy);
        }
        let errs = cluster_ips_related_fields(spec);
        if !errs.is_empty() {
            return Err(AllocError::Invalid(errs));
        }
        let sp = FieldPath::new("spec");
        let policy = str_of(spec, "ipFamilyPolicy").to_owned();
        let policy_bad = || BadValue::Json(Value::from(policy.as_str()));
        let mut errs = Vec::new();
        let strs = |spec: &Obj, k: &str| -> Vec<String> {
            spec.get(k)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        };
        if let Some(o) = old {
            if policy == "SingleStack" {
                for k in ["clusterIPs", "ipFamilies"] {
                    let same = spec.get(k) == o.get(k);
                    if same && let Some(Value::Array(list)) = spec.get_mut(k) {
                        list.truncate(1);
                    }
                }
            } else {
                if strs(o, "clusterIPs").len() > strs(spec, "clusterIPs").len()
                    && !strs(spec, "clusterIPs").is_empty()
                {
                    errs.push(FieldError::invalid(
                        &sp.child("ipFamilyPolicy"),
                        policy_bad(),
                        "must be 'SingleStack' to release the secondary cluster IP",
                    ));
                }
                if strs(o, "ipFamilies").len() > strs(spec, "ipFamilies").len()
                    && !strs(spec, "ipFamilies").is_empty()
                {
                    errs.push(FieldError::invalid(
                        &sp.child("ipFamilyPolicy"),
                        policy_bad(),
                        "must be 'SingleStack' to release the secondary IP family",
                    ));
                }
            }
        }
        if policy == "SingleStack" {
            if strs(spec, "clusterIPs").len() == 2 {
                errs.push(FieldError::invalid(&sp.child("ipFamilyPolicy"), policy_bad(), "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
            }
            if strs(spec, "ipFamilies").len() == 2 {
                errs.push(FieldError::invalid(&sp.child("ipFamilyPolicy"), policy_bad(), "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
            }
        }
        let ips = strs(spec, "clusterIPs");
        let mut families = strs(spec, "ipFamilies");
        for (i, ip) in ips.iter().enumerate() {
            if ip == "None" {
                break;
            }
            let fam = if crate::validation::net::is_ipv6(ip) {
                "IPv6"
            } else {
                "IPv4"
            };
            if i >= families.len() {
                if self.family_index(fam).is_none() {
                    errs.push(FieldError::invalid(
                        &sp.child("clusterIPs").index(i),
                        BadValue::Json(spec.get("clusterIPs").cloned().unwrap_or(Value::Null)),
                        format!("{fam} is not configured on this cluster"),
                    ));
                } else {
                    families.push(fam.to_owned());
                }
            }
        }
        if !errs.is_empty() {
            return Err(AllocError::Invalid(errs));
        }
        let primary = self.ranges[0].family().to_owned();
        let other = |f: &str| if f == "IPv4" { "IPv6" } else { "IPv4" };
        if str_of(spec, "clusterIP") == "None" && super::super::json::is_empty(spec, "selector") {
            if families.is_empty() {
                families.push(primary);
            }
            if families.len() < 2 && policy != "SingleStack" {
                let o = other(&families[0]).to_owned();
                families.push(o);
            }
            spec.insert("ipFamilies".to_owned(), json!(families));
            return Ok(());
        }
        if policy == "RequireDualStack" && self.ranges.len() < 2 {
            errs.push(FieldError::invalid(
                &sp.child("ipFamilyPolicy"),
                policy_bad(),
                "this cluster is not configured for dual-stack services",
            ));
        }
        for (i, f) in families.iter().enumerate() {
            if self.family_index(f).is_none() {
                errs.push(FieldError::invalid(
                    &sp.child("ipFamilies").index(i),
                    f.as_str(),
                    "not configured on this cluster",
                ));
            }
        }
        if !errs.is_empty() {
            return Err(AllocError::Invalid(errs));
        }
        if families.is_empty() {
            families.push(primary);
        }
        if policy != "SingleStack" && families.len() == 1 && self.ranges.len() == 2 {
            let o = other(&families[0]).to_owned();
            families.push(o);
        }
        spec.insert("ipFamilies".to_owned(), json!(families));
        Ok(())
    }

    /// `allocClusterIPs`: one address per family, the requested one or the next free one.
    pub(super) fn alloc_cluster_ips(
        &mut self,
        spec: &mut Obj,
        a: &mut Allocation,
    ) -> Result<(), AllocError> {
        if str_of(spec, "type") == "ExternalName" || is_headless(spec) {
            return Ok(());
        }
        let families: Vec<String> = spec
            .get("ipFamilies")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect();
        let mut ips: Vec<String> = spec
            .get("clusterIPs")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect();
        for (i, fam) in families.iter().enumerate() {
            if i >= ips.len() {
                ips.push(String::new());
            }
            self.alloc_ip(spec, fam, &mut ips[i], a)?;
        }
        if let Some(first) = ips.first() {
            spec.insert("clusterIP".to_owned(), Value::from(first.as_str()));
        }
        if !ips.is_empty() {
            spec.insert("clusterIPs".to_owned(), json!(ips));
        }
        Ok(())
    }

    pub(super) fn alloc_ip(
        &mut self,
        spec: &Obj,
        family: &str,
        ip: &mut String,
        a: &mut Allocation,
    ) -> Result<(), AllocError> {
        let Some(f) = self.family_index(family) else {
            return Ok(());
        };
        let range = &mut self.ranges[f];
        if ip.is_empty() {
            let n = range.allocate_next().ok_or_else(|| {
                AllocError::Internal("failed to allocate a serviceIP: range is full".to_owned())
            })?;
            *ip = range.format(n);
            a.ips.push((f, n));
        } else {
            match range.allocate(ip) {
                Ok(n) => a.ips.push((f, n)),
                Err(e) => {
                    return Err(AllocError::Invalid(vec![FieldError::invalid(
                        &FieldPath::new("spec").child("clusterIPs"),
                        BadValue::Json(spec.get("clusterIPs").cloned().unwrap_or(Value::Null)),
                        format!("failed to allocate IP {ip}: {e}"),
                    )]));
                }
            }
        }
        Ok(())
    }

    /// `updateClusterIPs`: a Service leaving ExternalName gets addresses, one becoming
    /// ExternalName gives them back, a dual-stack upgrade gets its second one.
    pub(super) fn update_cluster_ips(
        &mut self,
        spec: &mut Obj,
        old: &Obj,
        a: &mut Allocation,
    ) -> Result<(), AllocError> {
        if matching_prefer_dual_stack(spec, Some(old)) {
            return Ok(());
        }
        let (was_external, is_external) = (
            str_of(old, "type") == "ExternalName",
            str_of(spec, "type") == "ExternalName",
        );
        if was_external && !is_external {
            return self.alloc_cluster_ips(spec, a);
        }
        if is_headless(old) {
            return Ok(());
        }
        let list = |o: &Obj, k: &str| -> Vec<String> {
            o.get(k)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        };
        let (old_fams, old_ips) = (list(old, "ipFamilies"), list(old, "clusterIPs"));
        let release = |this: &Self, a: &mut Allocation, fam: &str, ip: &str| {
            if let (Some(f), Some((b, _))) = (this.family_index(fam), parse_ip(ip, true)) {
                a.release_ips.push((f, u128::from_be_bytes(b)));
            }
        };
        if !was_external && is_external {
            for (fam, ip) in old_fams.iter().zip(&old_ips) {
                release(self, a, fam, ip);
            }
            return Ok(());
        }
        let fams = list(spec, "ipFamilies");
        if old_fams.len() == 1 && fams.len() == 2 {
            let mut ips = list(spec, "clusterIPs");
            if ips.len() < 2 {
                ips.resize(2, String::new());
            }
            self.alloc_ip(spec, &fams[1], &mut ips[1], a)?;
            spec.insert("clusterIPs".to_owned(), json!(ips));
        } else if old_fams.len() == 2 && fams.len() == 1 && old_ips.len() == 2 {
            release(self, a, &old_fams[1], &old_ips[1]);
        }
        Ok(())
    }
}
