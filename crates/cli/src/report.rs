//! How `crdgen` prints results: kubectl's words in text, one JSON document per object in JSON,
//! GitHub workflow commands (`::error file=..,line=..::..`) for CI.
//!
//! Why GitHub's annotations for CI: most Rust and Kubernetes projects run on GitHub Actions,
//! where these lines, printed by any step, become annotations on the pull request's diff at the
//! file and line, with no reporter action, upload or extra file (JUnit XML needs both and shows
//! a test list, not lines of a manifest).

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crdkit_apimachinery::field::FieldError;
use crdkit_apimachinery::gofmt;

use crate::load::{Document, LoadError};
use crate::output::Output;

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
        crdkit_apimachinery::gofmt::quote(name)
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
        crdkit_apimachinery::gofmt::quote(name)
    );
    match crdkit_apimachinery::field::aggregate(errors) {
        e if e.is_empty() => prefix,
        e => format!("{prefix}: {e}"),
    }
}

/// [`write()`], with the API server's message ([`status_invalid`]) in text instead of kubectl's.
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
            crdkit_apimachinery::gofmt::quote(name)
        ),
        _ => writeln!(out, "{position}: {}", kubectl_invalid(kind, name, errors)),
    }
}

/// Writes the outcome of each document of a run in the chosen format.
pub struct Reporter<'a> {
    output: Output,
    out: &'a mut dyn Write,
    /// The text of each input file, for the lines of fields (`--output github`).
    texts: HashMap<PathBuf, String>,
    lines: HashMap<PathBuf, crate::lines::Lines>,
    /// The warnings of the document being reported, by its position: `--output json` puts them
    /// in its document (`"warnings": [..]`).
    warnings: Vec<(String, String)>,
}

impl<'a> Reporter<'a> {
    /// A reporter writing to `out`; `texts` are the input files' contents.
    pub fn new(output: Output, out: &'a mut dyn Write, texts: HashMap<PathBuf, String>) -> Self {
        Reporter {
            output,
            out,
            texts,
            lines: HashMap::new(),
            warnings: Vec::new(),
        }
    }

    /// The warnings given for `doc` since the last document was reported.
    fn take_warnings(&mut self, doc: &Document) -> Vec<String> {
        let position = doc.position();
        std::mem::take(&mut self.warnings)
            .into_iter()
            .filter(|(p, _)| *p == position)
            .map(|(_, w)| w)
            .collect()
    }

    /// The line of `field` in `doc` (the document's own line when the file is not at hand).
    fn line(&mut self, doc: &Document, field: &str) -> u64 {
        let Some(text) = self.texts.get(&doc.file) else {
            return doc.line;
        };
        self.lines
            .entry(doc.file.clone())
            .or_insert_with(|| crate::lines::Lines::new(text))
            .line_of(doc.line, field)
            .unwrap_or(doc.line)
    }

    /// The outcome of validating an object (`object`: as stored) or a CRD; with `status`, the
    /// API server's message (`Kind.group "name" is invalid: [..]`) instead of kubectl's.
    ///
    /// # Errors
    /// When writing fails.
    pub fn object(
        &mut self,
        doc: &Document,
        kind: &str,
        name: &str,
        object: Option<&Value>,
        errors: &[FieldError],
        status: bool,
    ) -> std::io::Result<()> {
        let position = doc.position();
        let warnings = self.take_warnings(doc);
        match self.output {
            Output::Json if !warnings.is_empty() => {
                let errors: Vec<Value> = errors.iter().map(error_json).collect();
                let mut v = json!({"errors": errors, "warnings": warnings});
                if let Some(o) = object {
                    v["object"] = o.clone();
                }
                writeln!(self.out, "{v}")
            }
            Output::Github => {
                let title = format!("{kind} {} is invalid", gofmt::quote(name));
                for e in errors {
                    let line = self.line(doc, &e.field.to_string());
                    let message = format!("{}: {}", e.field, e.body());
                    github(self.out, "error", &doc.file, line, &title, &message)?;
                }
                Ok(())
            }
            _ if status => {
                write_status(self.out, self.output, &position, kind, name, object, errors)
            }
            _ => write(self.out, self.output, &position, kind, name, object, errors),
        }
    }

    /// A document rejected before validation (`object`: as decoded, when there is one), with
    /// the message; with `--output github`, one annotation titled `title` per field
    /// (`(field, message)`), or one for the document.
    ///
    /// # Errors
    /// When writing fails.
    pub fn rejected(
        &mut self,
        doc: &Document,
        object: Option<&Value>,
        message: &str,
        title: &str,
        fields: &[(String, String)],
    ) -> std::io::Result<()> {
        let warnings = self.take_warnings(doc);
        match self.output {
            Output::Json => {
                let mut v = json!({"errors": [], "rejected": message});
                if !warnings.is_empty() {
                    v["warnings"] = json!(warnings);
                }
                if let Some(o) = object {
                    v["object"] = o.clone();
                }
                writeln!(self.out, "{v}")
            }
            Output::Github if !fields.is_empty() => {
                for (field, text) in fields {
                    let line = self.line(doc, field);
                    github(self.out, "error", &doc.file, line, title, text)?;
                }
                Ok(())
            }
            Output::Github => github(self.out, "error", &doc.file, doc.line, title, message),
            _ => writeln!(self.out, "{}: {message}", doc.position()),
        }
    }

    /// A document that cannot be checked, and why: `FILE:LINE: why` in text.
    ///
    /// # Errors
    /// When writing fails.
    pub fn error(&mut self, doc: &Document, why: &str) -> std::io::Result<()> {
        let warnings = self.take_warnings(doc);
        match self.output {
            Output::Github => github(
                self.out,
                "error",
                &doc.file,
                doc.line,
                "cannot be checked",
                why,
            ),
            _ => self.unchecked(&format!("{}: {why}", doc.position()), warnings),
        }
    }

    /// A file (or a CRD document of `--crd`) that cannot be read.
    ///
    /// # Errors
    /// When writing fails.
    pub fn unreadable(&mut self, e: &LoadError) -> std::io::Result<()> {
        match self.output {
            Output::Github => github(
                self.out,
                "error",
                &e.file,
                e.line,
                "cannot be read",
                &e.message,
            ),
            _ => self.unchecked(&e.to_string(), Vec::new()),
        }
    }

    /// What could not be checked, with its position: a line in text, `{"errors": [], "error":
    /// "FILE:LINE: why"}` in JSON.
    fn unchecked(&mut self, text: &str, warnings: Vec<String>) -> std::io::Result<()> {
        if self.output != Output::Json {
            return writeln!(self.out, "{text}");
        }
        let mut v = json!({"errors": [], "error": text});
        if !warnings.is_empty() {
            v["warnings"] = json!(warnings);
        }
        writeln!(self.out, "{v}")
    }

    /// A warning about a document (also printed on the standard error by the caller):
    /// `--output github` shows it here, at `field` when given; `--output json` puts it in the
    /// document's report (`"warnings"`).
    ///
    /// # Errors
    /// When writing fails.
    pub fn warning(
        &mut self,
        doc: &Document,
        field: Option<&str>,
        title: &str,
        message: &str,
    ) -> std::io::Result<()> {
        match self.output {
            Output::Json => {
                self.warnings.push((doc.position(), message.to_owned()));
                return Ok(());
            }
            Output::Github => {}
            _ => return Ok(()),
        }
        let line = match field {
            Some(f) => self.line(doc, f),
            None => doc.line,
        };
        github(self.out, "warning", &doc.file, line, title, message)
    }
}

/// `::error file=F,line=L,title=T::M`, escaped as the workflow-command parser expects (`%`, CR
/// and LF everywhere; `:` and `,` too in properties).
fn github(
    out: &mut dyn Write,
    level: &str,
    file: &Path,
    line: u64,
    title: &str,
    message: &str,
) -> std::io::Result<()> {
    fn data(s: &str) -> String {
        s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    }
    fn property(s: &str) -> String {
        data(s).replace(':', "%3A").replace(',', "%2C")
    }
    let file = file.display().to_string();
    if line > 0 {
        writeln!(
            out,
            "::{level} file={},line={line},title={}::{}",
            property(&file),
            property(title),
            data(message)
        )
    } else {
        writeln!(
            out,
            "::{level} file={},title={}::{}",
            property(&file),
            property(title),
            data(message)
        )
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
