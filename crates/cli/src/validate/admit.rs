//! One object admitted as the API server admits it (create, update, `/status` update) and
//! reported: strict decoding first (`--field-validation`), then pruning, defaulting and
//! validation.

use std::io::Write;

use serde_json::Value as Json;

use crdkit_apimachinery::{gofmt, strict};

use super::args::{FieldValidation, Options};
use super::summary::Verdict;
use crate::load::Document;
use crate::registry::Registry;
use crate::report::Reporter;

/// Admits one object and reports it.
pub(super) fn admit(
    o: &Options,
    registry: &Registry,
    doc: &Document,
    target: usize,
    old: Option<&Json>,
    reporter: &mut Reporter<'_>,
    err: &mut dyn Write,
) -> std::io::Result<Verdict> {
    let target = registry.target(target);
    if let Some(w) = &target.warning {
        // The API server's `Warning` header, which kubectl prints as `Warning: <text>`.
        let _ = writeln!(err, "Warning: {}: {w}", doc.position());
        reporter.warning(doc, None, "deprecated version", w)?;
    }
    let mut obj = doc.value.clone();
    let admitted = match (old, o.status_subresource) {
        (Some(old), false) => target.admission.update(&mut obj, old),
        (Some(old), true) => match target.admission.update_status(&mut obj, old) {
            Ok(admitted) => admitted,
            // Found before by the plan; a resource without it has no such request.
            Err(_) => {
                let why = format!("the {} resource has no status subresource", target.kind);
                reporter.error(doc, &why)?;
                return Ok(Verdict::Error);
            }
        },
        (None, _) => target.admission.create(&mut obj),
    };
    as_stored(&mut obj);
    let name = doc
        .value
        .pointer("/metadata/name")
        .and_then(Json::as_str)
        .unwrap_or_default();
    // Strict decoding (apimachinery `runtime/serializer/json` and apiextensions
    // `customresource_handler.go` `schemaCoercingDecoder`): the decoder's duplicate fields, then
    // the fields pruning dropped. A decoding error wins over them.
    let strict: Vec<(String, String)> = if admitted.decoding_failed {
        Vec::new()
    } else {
        doc.duplicates
            .iter()
            .map(|d| (d.path.clone(), strict::duplicate_field(&d.key)))
            .chain(
                admitted
                    .unknown_fields
                    .iter()
                    .map(|u| (u.clone(), strict::unknown_field(u))),
            )
            .collect()
    };
    match o.field_validation {
        FieldValidation::Strict if !strict.is_empty() => {
            // The handler turns it into a 400 (`transformDecodeError` in apiserver
            // `endpoints/handlers/rest.go`); nothing is validated.
            let version = target
                .admission
                .api_version()
                .rsplit_once('/')
                .map_or(target.admission.api_version(), |(_, v)| v);
            let kind = target.admission.kind();
            let message = |errors: &[String]| {
                strict::cannot_be_handled(kind, version, &strict::strict_decoding_error(errors))
            };
            let all: Vec<String> = strict.iter().map(|(_, s)| s.clone()).collect();
            // Each field on its own in annotations, at its line.
            let each: Vec<(String, String)> = strict
                .iter()
                .map(|(field, s)| (field.clone(), message(std::slice::from_ref(s))))
                .collect();
            let title = format!("{kind} {} is rejected", gofmt::quote(name));
            reporter.rejected(doc, Some(&obj), &message(&all), &title, &each)?;
            return Ok(Verdict::Invalid);
        }
        FieldValidation::Warn => {
            for (field, s) in &strict {
                let _ = writeln!(err, "Warning: {}: {s}", doc.position());
                reporter.warning(doc, Some(field), "strict decoding", s)?;
            }
        }
        _ => {}
    }
    let mut errors = admitted.errors;
    errors.dedup();
    if target.kind == target.admission.kind() {
        reporter.object(doc, &target.kind, name, Some(&obj), &errors, false)?;
    } else {
        // Sent to the resource of another kind: kubectl has no mapping for such an object,
        // so the API server's own message is printed.
        let group = target
            .admission
            .api_version()
            .rsplit_once('/')
            .map(|(g, _)| g);
        let qualified = match group {
            Some(g) if !g.is_empty() => format!("{}.{g}", target.kind),
            _ => target.kind.clone(),
        };
        reporter.object(doc, &qualified, name, Some(&obj), &errors, true)?;
    }
    Ok(Verdict::of(errors.is_empty()))
}

/// The object as the API server stores and returns it: encoded by Go's `encoding/json` and
/// decoded by apimachinery's, a whole `float64` below 1e21 (a default such as `0.0`) is written
/// without a fraction and read back as an `int64` when it fits (test/integration/
/// validation_test.go `TestZeroValueValidation`: `number_default: 0.0` is returned as `0`).
fn as_stored(v: &mut Json) {
    const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;
    match v {
        Json::Number(n) if !n.is_i64() && !n.is_u64() => {
            // Whole and within int64 (which is below 1e21, where Go switches to exponents).
            if let Some(f) = n.as_f64()
                && f.fract() == 0.0
                && (-TWO_POW_63..TWO_POW_63).contains(&f)
            {
                #[allow(clippy::cast_possible_truncation)]
                let i = f as i64;
                *v = Json::from(i);
            }
        }
        Json::Array(items) => items.iter_mut().for_each(as_stored),
        Json::Object(map) => map.values_mut().for_each(as_stored),
        _ => {}
    }
}
