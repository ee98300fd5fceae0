//! The API server's checks of a webhook's client configuration: `url` or `service`.
//!
//! Mirrors apiserver `pkg/util/webhook/validation.go` (`ValidateWebhookURL`,
//! `ValidateWebhookService`), which apiextensions `validateCustomResourceConversion` runs on a
//! CRD's `spec.conversion.webhook.clientConfig`. Both `crdgen check` and the derive (on literal
//! configurations, at compile time) call these.

use crate::field::{FieldError, FieldPath};
use crate::goparse::url;
use crate::names;

/// `ValidateWebhookURL`: the URL parses as Go parses it, with scheme `https` when
/// `force_https` (always for conversion webhooks), a host, and no user information, query or
/// fragment.
///
/// ```
/// use crdkit_apimachinery::{field::FieldPath, webhook::validate_webhook_url};
/// let errs = validate_webhook_url(&FieldPath::new("url"), "http://u@h/p?x#y", true);
/// let texts: Vec<String> = errs.iter().map(ToString::to_string).collect();
/// assert_eq!(texts[0], "url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]");
/// assert_eq!(texts[1], "url: Invalid value: \"u\": user information is not permitted in the URL");
/// assert_eq!(texts.len(), 4);
/// ```
#[must_use]
pub fn validate_webhook_url(path: &FieldPath, url: &str, force_https: bool) -> Vec<FieldError> {
    const FORM: &str = "; desired format: https://host[/path]";
    let u = match url::parse(url) {
        Ok(u) => u,
        Err(e) => {
            return vec![FieldError::required(
                path,
                format!("url must be a valid URL: {e}{FORM}"),
            )];
        }
    };
    let mut errs = Vec::new();
    if force_https && u.scheme != "https" {
        errs.push(FieldError::invalid(
            path,
            u.scheme.as_str(),
            format!("'https' is the only allowed URL scheme{FORM}"),
        ));
    }
    if u.host.is_empty() {
        errs.push(FieldError::invalid(
            path,
            u.host.as_str(),
            format!("host must be specified{FORM}"),
        ));
    }
    if let Some(user) = &u.user {
        errs.push(FieldError::invalid(
            path,
            user.as_str(),
            "user information is not permitted in the URL",
        ));
    }
    if !u.fragment.is_empty() {
        errs.push(FieldError::invalid(
            path,
            u.fragment.as_str(),
            "fragments are not permitted in the URL",
        ));
    }
    if !u.raw_query.is_empty() {
        errs.push(FieldError::invalid(
            path,
            u.raw_query.as_str(),
            "query parameters are not permitted in the URL",
        ));
    }
    errs
}

/// `ValidateWebhookService(fldPath, namespace, name, path, port)`: a name and a namespace, a
/// port in 1..=65535, and a path of DNS-subdomain segments starting with `/`.
///
/// Note the argument order: the parameters are named as Go names them. apiextensions calls it
/// with the service's name and namespace swapped (`cc.Service.Name, cc.Service.Namespace`), so
/// that a CRD without a service namespace gets `service.name: Required value`; callers that
/// mirror that call pass the values swapped too.
#[must_use]
pub fn validate_webhook_service(
    path: &FieldPath,
    namespace: &str,
    name: &str,
    url_path: Option<&str>,
    port: i32,
) -> Vec<FieldError> {
    let mut errs = Vec::new();
    if name.is_empty() {
        errs.push(FieldError::required(
            &path.child("name"),
            "service name is required",
        ));
    }
    if namespace.is_empty() {
        errs.push(FieldError::required(
            &path.child("namespace"),
            "service namespace is required",
        ));
    }
    if !(1..=65535).contains(&port) {
        errs.push(FieldError::invalid(
            &path.child("port"),
            port,
            "port is not valid: must be between 1 and 65535, inclusive",
        ));
    }
    let Some(p) = url_path else { return errs };
    if p == "/" || p.is_empty() {
        return errs;
    }
    let at = path.child("path");
    if p == "//" {
        errs.push(FieldError::invalid(&at, p, "segment[0] may not be empty"));
        return errs;
    }
    if !p.starts_with('/') {
        errs.push(FieldError::invalid(&at, p, "must start with a '/'"));
    }
    // Go drops the first byte whatever it is, then one trailing '/'.
    let mut check = p.get(1..).unwrap_or("");
    check = check.strip_suffix('/').unwrap_or(check);
    for (i, step) in check.split('/').enumerate() {
        if step.is_empty() {
            errs.push(FieldError::invalid(
                &at,
                p,
                format!("segment[{i}] may not be empty"),
            ));
            continue;
        }
        for failure in names::dns1123_subdomain(step) {
            errs.push(FieldError::invalid(
                &at,
                p,
                format!("segment[{i}]: {failure}"),
            ));
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::{validate_webhook_service, validate_webhook_url};
    use crate::field::FieldPath;

    fn url(u: &str) -> Vec<String> {
        validate_webhook_url(&FieldPath::new("url"), u, true)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn service(ns: &str, name: &str, path: Option<&str>, port: i32) -> Vec<String> {
        validate_webhook_service(&FieldPath::new("service"), ns, name, path, port)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// The versioning page's examples, and the forms it forbids.
    #[test]
    fn urls() {
        assert!(url("https://my-webhook.example.com:9443/my-webhook-path").is_empty());
        assert!(url("https://10.0.0.1/convert").is_empty());
        assert_eq!(
            url("https://user:password@h/"),
            ["url: Invalid value: \"user:password\": user information is not permitted in the URL"]
        );
        assert_eq!(
            url("https://h/p#x"),
            ["url: Invalid value: \"x\": fragments are not permitted in the URL"]
        );
        assert_eq!(
            url("https://h/p?a=b"),
            ["url: Invalid value: \"a=b\": query parameters are not permitted in the URL"]
        );
        assert_eq!(
            url("http://h/"),
            [
                "url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]"
            ]
        );
        assert_eq!(
            url("https:///p"),
            [
                "url: Invalid value: \"\": host must be specified; desired format: https://host[/path]"
            ]
        );
        assert_eq!(
            url("example.com/p"),
            [
                "url: Invalid value: \"\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
                "url: Invalid value: \"\": host must be specified; desired format: https://host[/path]"
            ]
        );
        assert_eq!(
            url("https://h:x/"),
            [
                "url: Required value: url must be a valid URL: parse \"https://h:x/\": invalid port \":x\" after host; desired format: https://host[/path]"
            ]
        );
        assert!(validate_webhook_url(&FieldPath::new("url"), "http://h/", false).is_empty());
    }

    /// apiserver `pkg/util/webhook/validation_test.go`-style service references.
    #[test]
    fn services() {
        assert!(service("default", "svc", Some("/crdconvert"), 443).is_empty());
        assert!(service("ns", "svc", None, 1234).is_empty());
        assert!(service("ns", "svc", Some("/"), 443).is_empty());
        assert_eq!(
            service("", "", None, 0),
            [
                "service.name: Required value: service name is required",
                "service.namespace: Required value: service namespace is required",
                "service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive"
            ]
        );
        assert_eq!(
            service("ns", "svc", Some("//"), 443),
            ["service.path: Invalid value: \"//\": segment[0] may not be empty"]
        );
        assert_eq!(
            service("ns", "svc", Some("foo"), 443),
            ["service.path: Invalid value: \"foo\": must start with a '/'"]
        );
        assert_eq!(
            service("ns", "svc", Some("/a//b/"), 443),
            ["service.path: Invalid value: \"/a//b/\": segment[1] may not be empty"]
        );
        assert_eq!(
            service("ns", "svc", Some("/Foo"), 443),
            [
                "service.path: Invalid value: \"/Foo\": segment[0]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
            ]
        );
    }
}
