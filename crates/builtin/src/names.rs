//! The name rule of each built-in kind: which `ValidateNameFunc` its `ValidateObjectMeta` call
//! gets in Go, with apimachinery's messages (from [`crdkit_apimachinery::names`]).
//!
//! Mirrors apimachinery `pkg/api/validation/objectmeta.go` (`ValidateObjectMetaAccessor`: the
//! `generateName` prefix, then `name or generateName is required`, then the name) and the name
//! functions each kind's validation passes it, in kubernetes `pkg/apis/*/validation`:
//! `ValidatePodName`, `ValidateConfigMapName`, `ValidateSecretName`, ... are
//! `NameIsDNSSubdomain`; `ValidateNamespaceName` is `NameIsDNSLabel`; `ValidateServiceName` is
//! `NameIsDNS1035Label`; `ValidatePersistentVolumeName` (PVs and PVCs) and `ValidateRBACName` are
//! `path.IsValidPathSegmentName`; `ValidateCertificateRequestName` accepts any name; CronJobs add
//! `must be no more than 52 characters` (`ValidateCronJobCreate`: the Job names it makes get an
//! 11-character suffix). Which kind has which rule is in [`crate::resources`].

use serde_json::Value;

use crdkit_apimachinery::field::{FieldError, FieldPath};
use crdkit_apimachinery::names;

/// The longest CronJob name: a DNS-1035 label (63) less the 11 characters of the scheduled
/// Jobs' suffix (batch `validation.go`).
const CRON_JOB_NAME_MAX: usize = 52;

/// How a kind's `metadata.name` (and `generateName`) is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameRule {
    /// `NameIsDNSSubdomain`: at most 253 characters of `[a-z0-9.-]` (most kinds).
    DnsSubdomain,
    /// `NameIsDNSLabel`: at most 63 characters of `[a-z0-9-]` (`Namespace`).
    DnsLabel,
    /// `NameIsDNS1035Label`: a DNS label that starts with a letter (`Service`).
    Dns1035Label,
    /// `IsValidPathSegmentName`: anything but `.`, `..`, `/` and `%` (RBAC kinds,
    /// `PersistentVolume`, `PersistentVolumeClaim`).
    PathSegment,
    /// A DNS subdomain of at most 52 characters (`CronJob`).
    CronJob,
    /// Any name (`CertificateSigningRequest`: "we don't care what you call your certificate
    /// requests").
    Any,
    /// A rule of the kind's own that is not a name function here: an `IPAddress` is named by
    /// its address, an `APIService` `version.group`, a CRD `plural.group`, a `CSIDriver` by its
    /// driver name. Nothing is checked by [`NameRule::check`].
    Custom,
    /// The kind is never stored (reviews, `bindings`, `componentstatuses`): its name is not
    /// validated.
    NotStored,
}

impl NameRule {
    /// The messages of the rule for `name`, or for a `generateName` prefix with `prefix` (empty
    /// when valid), as Go's `ValidateNameFunc` returns them.
    ///
    /// ```
    /// use crdkit_builtin::names::NameRule;
    ///
    /// assert!(NameRule::PathSegment.check("system:controller:job", false).is_empty());
    /// assert_eq!(NameRule::DnsLabel.check("a.b", false), ["must not contain dots"]);
    /// assert!(NameRule::DnsSubdomain.check("web-", true).is_empty());
    /// ```
    #[must_use]
    pub fn check(self, name: &str, prefix: bool) -> Vec<String> {
        match self {
            NameRule::DnsSubdomain | NameRule::CronJob => {
                names::name_is_dns_subdomain(name, prefix)
            }
            NameRule::DnsLabel => names::name_is_dns_label(name, prefix),
            NameRule::Dns1035Label => names::name_is_dns1035_label(name, prefix),
            NameRule::PathSegment => names::path_segment_name(name, prefix),
            NameRule::Any | NameRule::Custom | NameRule::NotStored => Vec::new(),
        }
    }

    /// The name part of `ValidateObjectMeta` for an object's `metadata`: its `generateName`
    /// (when set), then `name` (required unless... nothing: an empty name after generation is
    /// `name or generateName is required`), with the API server's field paths and texts.
    ///
    /// ```
    /// use crdkit_builtin::names::NameRule;
    /// use serde_json::json;
    ///
    /// let errs = NameRule::Dns1035Label.validate(&json!({"name": "1web"}));
    /// assert_eq!(
    ///     errs[0].to_string(),
    ///     "metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case \
    ///      alphanumeric characters or '-', start with an alphabetic character, and end with an \
    ///      alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is \
    ///      '[a-z]([-a-z0-9]*[a-z0-9])?')"
    /// );
    /// ```
    #[must_use]
    pub fn validate(self, metadata: &Value) -> Vec<FieldError> {
        if self == NameRule::NotStored {
            return Vec::new();
        }
        let path = FieldPath::new("metadata");
        let field = |k: &str| metadata.get(k).and_then(Value::as_str).unwrap_or("");
        let mut errs = Vec::new();
        let generate_name = field("generateName");
        if !generate_name.is_empty() {
            for msg in self.check(generate_name, true) {
                errs.push(FieldError::invalid(
                    &path.child("generateName"),
                    generate_name,
                    msg,
                ));
            }
        }
        let name = field("name");
        if name.is_empty() {
            errs.push(FieldError::required(
                &path.child("name"),
                "name or generateName is required",
            ));
            return errs;
        }
        for msg in self.check(name, false) {
            errs.push(FieldError::invalid(&path.child("name"), name, msg));
        }
        if self == NameRule::CronJob && name.len() > CRON_JOB_NAME_MAX {
            errs.push(FieldError::invalid(
                &path.child("name"),
                name,
                format!("must be no more than {CRON_JOB_NAME_MAX} characters"),
            ));
        }
        errs
    }
}
