//! The rules of one node: validation.go `validateExpressions`, `evalMessageExpression`,
//! `fieldErrorForReason`, `ruleMessageOrDefault` and `ruleErrorString`.
//!
//! The messages are the API server's, e.g. for a rule on `spec` (an object; scalars print
//! their value instead):
//!
//! - `spec: Invalid value: failed rule: self.a < self.b` (or the rule's `message`, or its
//!   `messageExpression`'s result),
//! - `spec: Invalid value: "object": no such key: a evaluating rule: self.a < self.b`,
//! - `spec: Invalid value: "object": 'no such overload': call arguments did not match a
//!   supported operator, function or macro signature for rule: self.a < self.b`,
//! - `spec: Invalid value: "object": 'operation cancelled: actual cost limit exceeded': no
//!   further validation rules will be run due to call cost exceeds limit for rule: ...`,
//! - `spec: Invalid value: "object": validation failed due to running out of cost budget, no
//!   further validation rules will be run`.

use serde_json::Value;

use super::walk::{Ratchet, Walk};
use super::{Compiled, Node};
use crdkit_apimachinery::field::{BadValue, FieldError, FieldPath};
use crdkit_apimachinery::gofmt;
use crdkit_cel::eval::{Activation, COST_LIMIT_MESSAGE, CostTracker, Program};
use crdkit_cel::value::Value as CelValue;
use crdkit_cel::value::json;
use crdkit_schema::{Structural, Type, ValidationRule};

/// `MaxEvaluatedMessageExpressionSizeBytes`.
pub const MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES: usize = 5 * 1024;

const OUT_OF_BUDGET: &str =
    "validation failed due to running out of cost budget, no further validation rules will be run";

/// Why a message expression gave no message.
enum MessageError {
    /// The budget ran out or the call cost limit was hit: reported, and validation stops.
    Stop(String),
    /// Anything else (an evaluation error, not a string, empty, too long, several lines): the
    /// rule's message is used instead. Go logs the reason; we drop it.
    Fallback,
}

impl Walk {
    /// `validateExpressions`: runs the node's rules on `obj` (non-null).
    pub(super) fn expressions(
        &mut self,
        node: &Node,
        schema: &Structural,
        path: &FieldPath,
        obj: &Value,
        old: Option<&Value>,
        ratchet: &Ratchet<'_>,
    ) {
        let type_name = schema.generic.ty.map_or("", Type::as_str);
        if let Some(e) = &node.init_error {
            self.errors.push(FieldError::invalid(
                path,
                type_name,
                format!("rule compiler initialization error: {e}"),
            ));
            return;
        }
        if node.rules.is_empty() {
            return;
        }
        if self.budget <= 0 {
            self.errors
                .push(FieldError::invalid(path, type_name, OUT_OF_BUDGET));
            self.budget = -1;
            return;
        }
        // `UnstructuredToVal`: a value that does not fit its schema is an error when read.
        let view = |v| json::from_json(v, schema, node.is_resource_root);
        let this = view(obj);
        let old_view = old.map(view);
        let mut activation = Activation::new().bind_result("self", this.clone());
        if let Some(o) = &old_view {
            activation = activation.bind_result("oldSelf", o.clone());
        }
        let optional_activation = Activation::new().bind_result("self", this).bind_result(
            "oldSelf",
            match old_view {
                Some(o) => o.map(CelValue::optional_of),
                None => Ok(CelValue::Optional(None)),
            },
        );
        for rule in &node.rules {
            let c = match &rule.compiled {
                Compiled::Blank => continue,
                Compiled::Error(detail) => {
                    self.errors.push(FieldError::invalid(
                        path,
                        type_name,
                        format!("rule compile error: {detail}"),
                    ));
                    continue;
                }
                Compiled::Ok(c) => c,
            };
            let optional_old_self = rule.source.optional_old_self == Some(true);
            // Transition rules run only where there is an old value, unless oldSelf is optional.
            if c.uses_old_self && old.is_none() && !optional_old_self {
                continue;
            }
            let activation = if optional_old_self {
                &optional_activation
            } else {
                &activation
            };
            let (result, cost) = self.eval(&c.program, activation);
            if self.charge(cost).is_err() {
                self.errors
                    .push(FieldError::invalid(path, type_name, OUT_OF_BUDGET));
                return;
            }
            let error_string = rule_error_string(&rule.source);
            match result {
                Err(e) if e.starts_with("no such overload") => {
                    self.errors.push(FieldError::invalid(path, type_name, format!(
                        "'{e}': call arguments did not match a supported operator, function or macro signature for rule: {error_string}"
                    )));
                    continue;
                }
                Err(e) if e.starts_with(COST_LIMIT_MESSAGE) => {
                    self.errors.push(FieldError::invalid(path, type_name, format!(
                        "'{e}': no further validation rules will be run due to call cost exceeds limit for rule: {error_string}"
                    )));
                    self.budget = -1;
                    return;
                }
                Err(e) => {
                    self.errors.push(FieldError::invalid(
                        path,
                        type_name,
                        format!("{e} evaluating rule: {error_string}"),
                    ));
                    continue;
                }
                Ok(true) => continue,
                Ok(false) => {}
            }
            let failed_path = match &c.field_path {
                Some(p) => path.child(p),
                None => path.clone(),
            };
            // Failures of rules that do not look at oldSelf are dropped on unchanged values.
            let ratcheted = !c.uses_old_self && ratchet.should_ratchet();
            let mut detail = None;
            if let Some(m) = &c.message_expression {
                match self.message(m, &rule.source.message_expression, activation) {
                    Ok(s) => detail = Some(s),
                    Err(MessageError::Stop(d)) => {
                        self.add(FieldError::invalid(&failed_path, type_name, d), ratcheted);
                        self.budget = -1;
                        return;
                    }
                    Err(MessageError::Fallback) => {}
                }
            }
            let detail = detail.unwrap_or_else(|| rule_message_or_default(&rule.source));
            let value = match schema.generic.ty {
                Some(Type::Object | Type::Array) => BadValue::Omitted,
                _ => BadValue::from(obj),
            };
            let e =
                field_error_for_reason(&failed_path, value, detail, rule.source.reason.as_deref());
            self.add(e, ratcheted);
        }
    }

    /// `addErr`: a ratcheted failure becomes a warning.
    fn add(&mut self, e: FieldError, ratcheted: bool) {
        if ratcheted {
            self.warnings.push(e);
        } else {
            self.errors.push(e);
        }
    }

    /// Evaluates a program: `Ok(bool)` for a boolean result (anything else is `Ok(false)`), or
    /// the error message; and the actual cost.
    fn eval(&self, program: &Program, activation: &Activation<'_>) -> (Result<bool, String>, u64) {
        let mut cost = self.tracker();
        let r = match program.eval(activation, &mut cost) {
            Ok(v) => Ok(v.as_bool() == Some(true)),
            Err(e) => Err(e.message().to_owned()),
        };
        (r, cost.actual_cost())
    }

    fn tracker(&self) -> CostTracker {
        let mut cost = CostTracker::kubernetes();
        cost.per_call_limit = Some(self.per_call_limit);
        cost.remaining_budget = None;
        cost
    }

    /// Deducts `cost` from the budget; `Err` (and a budget of -1) when it does not fit.
    fn charge(&mut self, cost: u64) -> Result<(), ()> {
        match i64::try_from(cost) {
            Ok(c) if c <= self.budget => {
                self.budget -= c;
                Ok(())
            }
            _ => {
                self.budget = -1;
                Err(())
            }
        }
    }

    /// `evalMessageExpression`.
    fn message(
        &mut self,
        program: &Program,
        source: &str,
        activation: &Activation<'_>,
    ) -> Result<String, MessageError> {
        let mut cost = self.tracker();
        let result = program.eval(activation, &mut cost);
        if self.charge(cost.actual_cost()).is_err() {
            return Err(MessageError::Stop(
                "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run".to_owned(),
            ));
        }
        let message = match result {
            Err(e) if e.message().starts_with(COST_LIMIT_MESSAGE) => {
                return Err(MessageError::Stop(format!(
                    "no further validation rules will be run due to call cost exceeds limit for messageExpression: {}",
                    gofmt::quote(source)
                )));
            }
            Err(_) => return Err(MessageError::Fallback),
            Ok(v) => match v.as_str() {
                Some(s) => s.trim().to_owned(),
                None => return Err(MessageError::Fallback),
            },
        };
        if message.len() > MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES
            || message.contains('\n')
            || message.is_empty()
        {
            return Err(MessageError::Fallback);
        }
        Ok(message)
    }
}

/// `fieldErrorForReason`.
fn field_error_for_reason(
    path: &FieldPath,
    value: BadValue,
    detail: String,
    reason: Option<&str>,
) -> FieldError {
    match reason {
        Some("FieldValueForbidden") => FieldError::forbidden(path, detail),
        Some("FieldValueRequired") => FieldError::required(path, detail),
        Some("FieldValueDuplicate") => FieldError::duplicate(path, value),
        _ => FieldError::invalid(path, value, detail),
    }
}

/// `ruleMessageOrDefault`.
fn rule_message_or_default(rule: &ValidationRule) -> String {
    if rule.message.is_empty() {
        format!("failed rule: {}", rule_error_string(rule))
    } else {
        rule.message.trim().to_owned()
    }
}

/// `ruleErrorString`: the message when there is one, else the rule.
fn rule_error_string(rule: &ValidationRule) -> &str {
    if rule.message.is_empty() {
        rule.rule.trim()
    } else {
        rule.message.trim()
    }
}
