//! The access and admission printers: RBAC bindings, certificate signing requests, webhook
//! configurations and validating admission policies (printers.go `printRoleBinding` ...
//! `printValidatingAdmissionPolicyBinding`).

use serde_json::{Value, json};

use super::format::{age_cell, at, len_at, list_at, name_cell, str_at};
use super::{AGE, Description::Field, Description::Text, NAME, Printer, col};
use crdkit_apimachinery::duration::human_duration;

pub(super) const PRINTERS: &[(&str, &str, &Printer)] = &[
    ("rbac.authorization.k8s.io", "RoleBinding", &ROLE_BINDING),
    (
        "rbac.authorization.k8s.io",
        "ClusterRoleBinding",
        &CLUSTER_ROLE_BINDING,
    ),
    ("certificates.k8s.io", "CertificateSigningRequest", &CSR),
    (
        "admissionregistration.k8s.io",
        "MutatingWebhookConfiguration",
        &WEBHOOKS,
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingWebhookConfiguration",
        &WEBHOOKS,
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicy",
        &VALIDATING_ADMISSION_POLICY,
    ),
    (
        "admissionregistration.k8s.io",
        "ValidatingAdmissionPolicyBinding",
        &VALIDATING_ADMISSION_POLICY_BINDING,
    ),
];

/// `rbac.SubjectsStrings`: users, groups and service accounts (`namespace/name`).
fn subjects(obj: &Value) -> [Value; 3] {
    let (mut users, mut groups, mut sas) = (Vec::new(), Vec::new(), Vec::new());
    for s in list_at(obj, &["subjects"]) {
        match str_at(s, &["kind"]) {
            "ServiceAccount" => sas.push(format!(
                "{}/{}",
                str_at(s, &["namespace"]),
                str_at(s, &["name"])
            )),
            "User" => users.push(str_at(s, &["name"]).to_owned()),
            "Group" => groups.push(str_at(s, &["name"]).to_owned()),
            _ => {}
        }
    }
    [
        json!(users.join(", ")),
        json!(groups.join(", ")),
        json!(sas.join(", ")),
    ]
}

fn binding_row(obj: &Value, now: i64) -> super::Row {
    let role = format!(
        "{}/{}",
        str_at(obj, &["roleRef", "kind"]),
        str_at(obj, &["roleRef", "name"])
    );
    let [users, groups, sas] = subjects(obj);
    vec![
        name_cell(obj),
        json!(role),
        age_cell(obj, now),
        users,
        groups,
        sas,
    ]
    .into()
}

static ROLE_BINDING: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Role",
            "string",
            Field("io.k8s.api.rbac.v1.RoleBinding", "roleRef"),
        ),
        AGE,
        col("Users", "string", Text("Users in the roleBinding")).wide(),
        col("Groups", "string", Text("Groups in the roleBinding")).wide(),
        col(
            "ServiceAccounts",
            "string",
            Text("ServiceAccounts in the roleBinding"),
        )
        .wide(),
    ],
    print: binding_row,
};

static CLUSTER_ROLE_BINDING: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Role",
            "string",
            Field("io.k8s.api.rbac.v1.ClusterRoleBinding", "roleRef"),
        ),
        AGE,
        col("Users", "string", Text("Users in the clusterRoleBinding")).wide(),
        col("Groups", "string", Text("Groups in the clusterRoleBinding")).wide(),
        col(
            "ServiceAccounts",
            "string",
            Text("ServiceAccounts in the clusterRoleBinding"),
        )
        .wide(),
    ],
    print: binding_row,
};

static CSR: Printer = Printer {
    columns: &[
        NAME,
        AGE,
        col(
            "SignerName",
            "string",
            Field(
                "io.k8s.api.certificates.v1.CertificateSigningRequestSpec",
                "signerName",
            ),
        ),
        col(
            "Requestor",
            "string",
            Field(
                "io.k8s.api.certificates.v1.CertificateSigningRequestSpec",
                "request",
            ),
        ),
        col(
            "RequestedDuration",
            "string",
            Field(
                "io.k8s.api.certificates.v1.CertificateSigningRequestSpec",
                "expirationSeconds",
            ),
        ),
        col(
            "Condition",
            "string",
            Field(
                "io.k8s.api.certificates.v1.CertificateSigningRequestStatus",
                "conditions",
            ),
        ),
    ],
    print: |obj, now| {
        // `extractCSRStatus`: Denied over Approved over Pending, then Failed, then Issued.
        let has = |t: &str| {
            list_at(obj, &["status", "conditions"])
                .iter()
                .any(|c| str_at(c, &["type"]) == t)
        };
        let mut status = if has("Denied") {
            "Denied"
        } else if has("Approved") {
            "Approved"
        } else {
            "Pending"
        }
        .to_owned();
        if has("Failed") {
            status.push_str(",Failed");
        }
        if !str_at(obj, &["status", "certificate"]).is_empty() {
            status.push_str(",Issued");
        }
        let signer = match str_at(obj, &["spec", "signerName"]) {
            "" => "<none>",
            s => s,
        };
        let duration = at(obj, &["spec", "expirationSeconds"])
            .as_i64()
            .map_or_else(|| "<none>".to_owned(), human_duration);
        vec![
            name_cell(obj),
            age_cell(obj, now),
            json!(signer),
            json!(str_at(obj, &["spec", "username"])),
            json!(duration),
            json!(status),
        ]
        .into()
    },
};

static WEBHOOKS: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Webhooks",
            "integer",
            Text("Webhooks indicates the number of webhooks registered in this configuration"),
        ),
        AGE,
    ],
    print: |obj, now| {
        vec![
            name_cell(obj),
            json!(len_at(obj, &["webhooks"])),
            age_cell(obj, now),
        ]
        .into()
    },
};

static VALIDATING_ADMISSION_POLICY: Printer = Printer {
    columns: &[
        NAME,
        col(
            "Validations",
            "integer",
            Text(
                "Validations indicates the number of validation rules defined in this configuration",
            ),
        ),
        col(
            "ParamKind",
            "string",
            Text("ParamKind specifies the kind of resources used to parameterize this policy"),
        ),
        AGE,
    ],
    print: |obj, now| {
        let pk = at(obj, &["spec", "paramKind"]);
        let param_kind = if pk.is_null() {
            "<unset>".to_owned()
        } else {
            format!("{}/{}", str_at(pk, &["apiVersion"]), str_at(pk, &["kind"]))
        };
        vec![
            name_cell(obj),
            json!(len_at(obj, &["spec", "validations"])),
            json!(param_kind),
            age_cell(obj, now),
        ]
        .into()
    },
};

static VALIDATING_ADMISSION_POLICY_BINDING: Printer = Printer {
    columns: &[
        NAME,
        col(
            "PolicyName",
            "string",
            Text("PolicyName indicates the policy definition which the policy binding binded to"),
        ),
        col(
            "ParamRef",
            "string",
            Text("ParamRef indicates the param resource which sets the configration param"),
        ),
        AGE,
    ],
    print: |obj, now| {
        let pr = at(obj, &["spec", "paramRef"]);
        let param = match (str_at(pr, &["name"]), str_at(pr, &["namespace"])) {
            _ if pr.is_null() => "<unset>".to_owned(),
            ("", _) if !at(pr, &["selector"]).is_null() => {
                selector_go_string(at(pr, &["selector"]))
            }
            ("", _) => "<unset>".to_owned(),
            (name, "") => format!("*/{name}"),
            (name, ns) => format!("{ns}/{name}"),
        };
        vec![
            name_cell(obj),
            json!(str_at(obj, &["spec", "policyName"])),
            json!(param),
            age_cell(obj, now),
        ]
        .into()
    },
};

/// A `*metav1.LabelSelector`'s generated `String()` (`&LabelSelector{MatchLabels:map[...]...}`).
fn selector_go_string(sel: &Value) -> String {
    use std::fmt::Write;
    let mut out = String::from("&LabelSelector{MatchLabels:map[string]string{");
    for (k, v) in at(sel, &["matchLabels"]).as_object().into_iter().flatten() {
        let _ = write!(out, "{k}: {},", v.as_str().unwrap_or(""));
    }
    out.push_str("},MatchExpressions:[]LabelSelectorRequirement{");
    for e in list_at(sel, &["matchExpressions"]) {
        let values: Vec<&str> = list_at(e, &["values"])
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let _ = write!(
            out,
            "LabelSelectorRequirement{{Key:{},Operator:{},Values:[{}],}},",
            str_at(e, &["key"]),
            str_at(e, &["operator"]),
            values.join(" ")
        );
    }
    out.push_str("},}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selector_strings_as_gogo_writes_them() {
        let sel = json!({"matchLabels": {"b": "2", "a": "1"}, "matchExpressions": [{"key": "k", "operator": "In", "values": ["x", "y"]}]});
        assert_eq!(
            selector_go_string(&sel),
            "&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[x y],},},}"
        );
    }
}
