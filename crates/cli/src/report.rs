//! How `crdgen` prints results: kubectl's words in text, one JSON document per object in JSON.

use std::io::Write;

use serde_json::{Value, json};

use crdkit_apimachinery::field::FieldError;

pub use super::Output;

/// The JSON form of one error: `{"type", "field", "detail"}` (the root field is `<nil>`).
#[must_use]
pub fn error_json(e: &FieldError) -> Value {
    json!({"type": e.error_type.as_str(), "field": e.field.to_string(), "detail": e.detail})
}

/// kubectl's message for an invalid object (`checkErr` in kubectl's `cmd/util/helpers.go`):
/// `The <Kind> "<name>" is invalid: <field>: <message>`, one `* ` line per error when several.
#[must_use]
pub fn kubectl_invalid(kind: &str, name: &str, errors: &[FieldError]) -> String {
    let prefix = format!(
        "The {kind} {} is invalid: ",
        crdkit_apimachinery::field::go_quote(name)
    );
    let mut lines: Vec<String> = Vec::new();
    for e in errors {
        let line = format!("{}: {}", e.field, e.body());
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    match lines.as_slice() {
        [] => prefix.trim_end().trim_end_matches(':').to_owned(),
        [one] => format!("{prefix}{one}"),
        many => {
            let mut s = prefix;
            for l in many {
                s.push_str("\n* ");
                s.push_str(l);
            }
            s
        }
    }
}

/// The API server's message for an invalid object (apimachinery `errors.NewInvalid`):
/// `<Kind>.<group> "<name>" is invalid: <errors>`, several errors as `[a, b]`.
#[must_use]
pub fn status_invalid(qualified_kind: &str, name: &str, errors: &[FieldError]) -> String {
    let prefix = format!(
        "{qualified_kind} {} is invalid",
        crdkit_apimachinery::field::go_quote(name)
    );
    match crdkit_apimachinery::field::aggregate(errors) {
        e if e.is_empty() => prefix,
        e => format!("{prefix}: {e}"),
    }
}

/// [`write`], with the API server's message ([`status_invalid`]) in text instead of kubectl's.
///
/// # Errors
/// When writing fails.
pub fn write_status(
    out: &mut dyn Write,
    output: Output,
    position: &str,
    qualified_kind: &str,
    name: &str,
    object: Option<&Value>,
    errors: &[FieldError],
) -> std::io::Result<()> {
    match output {
        Output::Text if !errors.is_empty() => writeln!(
            out,
            "{position}: {}",
            status_invalid(qualified_kind, name, errors)
        ),
        _ => write(out, output, position, qualified_kind, name, object, errors),
    }
}

/// Writes the outcome for one object.
///
/// # Errors
/// When writing fails.
pub fn write(
    out: &mut dyn Write,
    output: Output,
    position: &str,
    kind: &str,
    name: &str,
    object: Option<&Value>,
    errors: &[FieldError],
) -> std::io::Result<()> {
    match output {
        Output::Json => {
            let errors: Vec<Value> = errors.iter().map(error_json).collect();
            let doc = match object {
                Some(o) => json!({"object": o, "errors": errors}),
                None => json!({"errors": errors}),
            };
            writeln!(out, "{doc}")
        }
        _ if errors.is_empty() => writeln!(
            out,
            "{position}: {kind} {} is valid",
            crdkit_apimachinery::field::go_quote(name)
        ),
        _ => writeln!(out, "{position}: {}", kubectl_invalid(kind, name, errors)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crdkit_apimachinery::field::{FieldError, FieldPath};

    #[test]
    fn status_layout() {
        let kind = FieldError::invalid(
            &FieldPath::new("kind"),
            "SomethingElse",
            "must be WishIHadChosenNoxu",
        );
        // test/integration/validation_test.go TestForProperValidationErrors "bad kind".
        assert_eq!(
            status_invalid(
                "SomethingElse.mygroup.example.com",
                "foo",
                std::slice::from_ref(&kind)
            ),
            r#"SomethingElse.mygroup.example.com "foo" is invalid: kind: Invalid value: "SomethingElse": must be WishIHadChosenNoxu"#
        );
        let version = FieldError::invalid(
            &FieldPath::new("apiVersion"),
            "mygroup.example.com/v2",
            "must be mygroup.example.com/v1",
        );
        assert_eq!(
            status_invalid("X.g", "a", &[kind, version]),
            r#"X.g "a" is invalid: [kind: Invalid value: "SomethingElse": must be WishIHadChosenNoxu, apiVersion: Invalid value: "mygroup.example.com/v2": must be mygroup.example.com/v1]"#
        );
        assert_eq!(status_invalid("X.g", "a", &[]), r#"X.g "a" is invalid"#);
    }

    #[test]
    fn kubectl_layout() {
        let a = FieldError::invalid(
            &FieldPath::new("spec").child("replicas"),
            15i64,
            "spec.replicas in body should be less than or equal to 10",
        );
        let b = FieldError::required(&FieldPath::new("spec").child("image"), "");
        assert_eq!(
            kubectl_invalid("CronTab", "my-new-cron-object", std::slice::from_ref(&a)),
            "The CronTab \"my-new-cron-object\" is invalid: spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10"
        );
        assert_eq!(
            kubectl_invalid("CronTab", "x", &[a, b]),
            "The CronTab \"x\" is invalid: \n* spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10\n* spec.image: Required value"
        );
    }
}
