//! The JSON paths of a resource, resolved through the type graph at compile time: `scale`'s
//! (dot notation under `.spec`/`.status`, validation.go `validateSimpleJSONPath`), printer
//! columns' (kubectl's JSONPath) and selectable fields' (`ValidFieldPath` without array
//! notation, at most 8, not into `metadata`, each once). What the syntax decides is reported
//! here; what needs the types becomes a `const` check (`expand::resource`), or, under
//! `allow_unresolved`, a warning.

use proc_macro2::Span;

use super::jsonpath::{self, Step};
use crate::attr::Sp;
use crate::attr::container::ResourceAttrs;
use crate::ctxt::Ctxt;

/// What the value at a path must be.
#[derive(Clone, Copy, Debug)]
pub enum Expect {
    Anything,
    Integer,
    Number,
    Boolean,
    String,
    Date,
    Selectable,
}

/// A path to resolve through the type graph at compile time.
pub struct PathCheck {
    pub what: String,
    pub path: String,
    pub steps: Vec<Step>,
    pub expect: Expect,
    pub span: Span,
    /// `allow_unresolved`: not resolved; a warning at this span says so.
    pub unchecked: Option<Span>,
}

/// `scale`: `(spec_replicas, status_replicas, label_selector)`.
pub type ScalePaths = (String, String, Option<String>);

/// Checks the paths' syntax and lists what to resolve.
pub fn check(cx: &Ctxt, r: &ResourceAttrs) -> (Option<ScalePaths>, Vec<PathCheck>) {
    let mut paths = Vec::new();
    let scale = r.scale.as_ref().and_then(|s| {
        let spec = s.spec_replicas.clone()?;
        let status = s.status_replicas.clone()?;
        let unchecked = s.allow_unresolved;
        scale_path(
            cx,
            &mut paths,
            unchecked,
            "scale spec_replicas",
            &spec,
            &[".spec."],
            Expect::Integer,
            "should be a json path under .spec",
        );
        scale_path(
            cx,
            &mut paths,
            unchecked,
            "scale status_replicas",
            &status,
            &[".status."],
            Expect::Integer,
            "should be a json path under .status",
        );
        if let Some(l) = &s.label_selector {
            scale_path(
                cx,
                &mut paths,
                unchecked,
                "scale label_selector",
                l,
                &[".spec.", ".status."],
                Expect::String,
                "should be a json path under either .spec or .status",
            );
        }
        Some((
            spec.value,
            status.value,
            s.label_selector.as_ref().map(|l| l.value.clone()),
        ))
    });
    if r.scale.is_some() && r.status.is_none() {
        cx.error_at(r.scale.as_ref().map_or_else(Span::call_site, |s| s.span), "the scale subresource reads `.status`: give the resource a status type, `#[crd(status = MyStatus)]`");
    }
    for c in &r.columns {
        match jsonpath::printer(&c.json_path.value) {
            Ok(parsed) => {
                let expect = match c.ty.as_ref().map(|t| t.value.as_str()) {
                    Some("integer") => Expect::Integer,
                    Some("number") => Expect::Number,
                    Some("boolean") => Expect::Boolean,
                    Some("date") => Expect::Date,
                    Some(_) => Expect::String,
                    None => Expect::Anything,
                };
                let what = format!("printer column \"{}\"", c.name.value);
                if c.allow_unresolved.is_none() {
                    for f in parsed.filters {
                        paths.push(PathCheck {
                            what: what.clone(),
                            path: c.json_path.value.clone(),
                            steps: f,
                            expect: Expect::Anything,
                            span: c.json_path.span,
                            unchecked: None,
                        });
                    }
                }
                paths.push(PathCheck {
                    what,
                    path: c.json_path.value.clone(),
                    steps: parsed.steps,
                    expect,
                    span: c.json_path.span,
                    unchecked: c.allow_unresolved,
                });
            }
            Err(e) => cx.error_at(
                c.json_path.span,
                format!(
                    "invalid printer column json_path \"{}\": {e}",
                    c.json_path.value
                ),
            ),
        }
    }
    let mut seen = Vec::new();
    for s in &r.selectable_fields {
        match jsonpath::field_path(&s.value, false) {
            Ok(steps) => {
                if steps.first() == Some(&Step::Field("metadata".to_owned())) {
                    cx.error_at(s.span, format!("selectable field \"{}\" must not point to fields in metadata (metadata.name and metadata.namespace are always selectable)", s.value));
                }
                if seen.contains(&steps) {
                    cx.error_at(
                        s.span,
                        format!("duplicate selectable field \"{}\"", s.value),
                    );
                }
                seen.push(steps.clone());
                paths.push(PathCheck {
                    what: "selectable field".to_owned(),
                    path: s.value.clone(),
                    steps,
                    expect: Expect::Selectable,
                    span: s.span,
                    unchecked: None,
                });
            }
            Err(e) => cx.error_at(
                s.span,
                format!("selectable field \"{}\" is an invalid path: {e}", s.value),
            ),
        }
    }
    if seen.len() > 8 {
        cx.error_at(
            r.selectable_fields[8].span,
            format!(
                "too many selectable fields: {} (the API server allows at most 8)",
                seen.len()
            ),
        );
    }
    (scale, paths)
}

#[allow(clippy::too_many_arguments)]
fn scale_path(
    cx: &Ctxt,
    paths: &mut Vec<PathCheck>,
    unchecked: Option<Span>,
    what: &str,
    p: &Sp<String>,
    prefixes: &[&str],
    expect: Expect,
    under: &str,
) {
    match jsonpath::dotted(&p.value) {
        Ok(steps) => {
            if prefixes.iter().any(|pre| p.value.starts_with(pre)) {
                paths.push(PathCheck {
                    what: what.to_owned(),
                    path: p.value.clone(),
                    steps,
                    expect,
                    span: p.span,
                    unchecked,
                });
            } else {
                cx.error_at(p.span, format!("invalid {what} \"{}\": {under}", p.value));
            }
        }
        Err(e) => cx.error_at(p.span, format!("invalid {what} \"{}\": {e}", p.value)),
    }
}
