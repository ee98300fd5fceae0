//! `schemaPropsValidator.Validate`: `anyOf`, `oneOf`, `allOf` and `not`, each branch validated
//! into a fresh result whose `MatchCount` picks the errors reported.
//!
//! Mirrors kube-openapi `pkg/validation/validate/schema_props.go`.

use serde_json::Value;

use super::{At, OpenApi};
use crate::compiled::Node;
use crate::compiled::errors::OpenApiError;

impl OpenApi {
    /// Validates `v` against a junctor branch into a fresh result.
    fn branch(&mut self, n: &Node, v: &Value, at: &At) -> (Vec<OpenApiError>, usize) {
        let saved = std::mem::take(&mut self.errors);
        let count = self.check(n, v, at);
        (std::mem::replace(&mut self.errors, saved), count)
    }

    fn merge(&mut self, errs: Vec<OpenApiError>) {
        for e in errs {
            self.push(e);
        }
    }

    /// `schemaPropsValidator.Validate`; returns the merged branches' `MatchCount`.
    pub(super) fn junctors(&mut self, n: &Node, v: &Value, at: &At) -> usize {
        let mut count = 0;
        if !n.any_of.is_empty() {
            let mut best: Option<(Vec<OpenApiError>, usize)> = None;
            let mut success = None;
            for b in &n.any_of {
                let (errs, c) = self.branch(b, v, at);
                if errs.is_empty() {
                    best = None;
                    success = Some(c);
                    break;
                }
                if best.as_ref().is_none_or(|(_, bc)| c > *bc) {
                    best = Some((errs, c));
                }
            }
            if success.is_none() {
                self.push(OpenApiError::any_of(&at.render()));
            }
            if let Some((errs, c)) = best {
                self.merge(errs);
                count += c;
            } else if let Some(c) = success {
                count += c;
            }
        }
        if !n.one_of.is_empty() {
            let mut best: Option<(Vec<OpenApiError>, usize)> = None;
            let mut success = None;
            let mut valid = 0;
            for b in &n.one_of {
                let (errs, c) = self.branch(b, v, at);
                if errs.is_empty() {
                    valid += 1;
                    best = None;
                    success.get_or_insert(c);
                    continue;
                }
                if valid == 0 && best.as_ref().is_none_or(|(_, bc)| c > *bc) {
                    best = Some((errs, c));
                }
            }
            if valid != 1 {
                self.push(OpenApiError::one_of(&at.render(), valid));
                if let Some((errs, c)) = best {
                    self.merge(errs);
                    count += c;
                }
            } else if let Some(c) = success {
                count += c;
            }
        }
        if !n.all_of.is_empty() {
            let mut valid = 0;
            for b in &n.all_of {
                let (errs, c) = self.branch(b, v, at);
                if errs.is_empty() {
                    valid += 1;
                }
                self.merge(errs);
                count += c;
            }
            if valid != n.all_of.len() {
                self.push(OpenApiError::all_of(&at.render(), valid == 0));
            }
        }
        if let Some(not) = &n.not {
            let (errs, _) = self.branch(not, v, at);
            if errs.is_empty() {
                self.push(OpenApiError::not(&at.render()));
            }
        }
        count
    }
}
