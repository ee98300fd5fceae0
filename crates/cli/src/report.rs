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
