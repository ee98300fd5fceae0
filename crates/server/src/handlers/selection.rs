//! The label and field selectors of a list, watch or delete-collection, parsed from the query
//! and checked against the field labels the kind supports (apiserver
//! `pkg/endpoints/handlers/get.go`: `field label not supported: …` is a 400).

use serde_json::Value;

use super::ctx::Ctx;
use crate::http::status::{ApiError, ApiResult};
use crate::registry::Strategy;
use crate::selector::{FieldSelector, LabelSelector};

/// The label and field selectors of a list or watch.
pub(super) struct Selection {
    pub label: LabelSelector,
    pub field: FieldSelector,
}

impl Selection {
    pub fn parse(ctx: &Ctx) -> ApiResult<Selection> {
        let label = LabelSelector::parse(ctx.query.get("labelSelector").unwrap_or(""))
            .map_err(ApiError::bad_request)?;
        let mut field = FieldSelector::parse(ctx.query.get("fieldSelector").unwrap_or(""))
            .map_err(ApiError::bad_request)?;
        let info = ctx.strategy.info();
        for term in &field.terms {
            if let Some(msg) = ctx.strategy.field_label_error(&term.field) {
                return Err(ApiError::bad_request(msg));
            }
            if !ctx.strategy.field_label_supported(&term.field) {
                return Err(ApiError::bad_request(
                    if info.group == "apiextensions.k8s.io" {
                        format!(
                            "\"{}\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"",
                            term.field
                        )
                    } else {
                        format!("field label not supported: {}", term.field)
                    },
                ));
            }
        }
        // A watch or list on one object's path selects it by name.
        if let Some(name) = &ctx.path.name {
            field.terms.push(crate::selector::field::Term {
                field: "metadata.name".to_owned(),
                value: name.clone(),
                negated: false,
            });
        }
        Ok(Selection { label, field })
    }

    pub fn matches(&self, strategy: &dyn Strategy, obj: &Value) -> bool {
        (self.label.is_empty() || self.label.matches(&crate::object::labels(obj)))
            && (self.field.is_empty() || self.field.matches(&strategy.fields(obj)))
    }
}
