//! Checking a value against its type, and the keys of associative list items.
//!
//! Mirrors structured-merge-diff `typed/validate.go` and `typed/helpers.go` (`validateScalar`,
//! `listItemToPathElement`), with its error texts (`expected string, got
//! &value.valueUnstructured{Value:5}`, `duplicate entries for key [name="a"]`).

use serde_json::Value;

use super::{Shape, ValidationErrors, Walk, atom_of, deduce, pick};
use crate::fieldpath::PathElement;
use crate::schema::{Atom, List, MapT, Scalar, Schema, TypeId};
use crate::value;

/// `validateScalar`; `prefix` is `lhs: ` or `rhs: ` in merges and comparisons.
pub(crate) fn validate_scalar(t: Scalar, v: Option<&Value>, prefix: &str) -> ValidationErrors {
    let Some(v) = v else {
        return ValidationErrors::default();
    };
    let ok = match (t, v) {
        (_, Value::Null) => true,
        (Scalar::Numeric, Value::Number(_)) => true,
        (Scalar::Numeric, _) => {
            return ValidationErrors::one(format!(
                "{prefix}expected numeric (int or float), got {}",
                crdkit_apimachinery::gofmt::type_name(v)
            ));
        }
        (Scalar::String, v) => v.is_string(),
        (Scalar::Boolean, v) => v.is_boolean(),
        (Scalar::Untyped, v) => !v.is_array() && !v.is_object(),
    };
    if ok {
        return ValidationErrors::default();
    }
    ValidationErrors::one(match t {
        Scalar::String => format!(
            "{prefix}expected string, got {}",
            value::go_value_sharp_v(v)
        ),
        Scalar::Boolean => format!("{prefix}expected boolean, got {}", value::go_value_v(v)),
        _ => format!("{prefix}expected any scalar, got {}", value::go_value_v(v)),
    })
}

/// `listItemToPathElement`: the key of an associative list's item.
pub(crate) fn list_item_element(
    schema: &Schema,
    list: &List,
    child: &Value,
) -> Result<PathElement, String> {
    if !list.associative {
        return Err("invalid indexing of non-associative list".to_owned());
    }
    if list.keys.is_empty() {
        // A set of scalars.
        return match child {
            Value::Object(_) => {
                Err("associative list without keys has an element that's a map type".to_owned())
            }
            Value::Array(_) => {
                Err("not supported: associative list with lists as elements".to_owned())
            }
            Value::Null => Err(
                "associative list without keys has an element that's an explicit null".to_owned(),
            ),
            v => Ok(PathElement::Value(v.clone())),
        };
    }
    let m = match child {
        Value::Null => return Err("associative list with keys may not have a null element".into()),
        Value::Object(m) => m,
        _ => return Err("associative list with keys may not have non-map elements".into()),
    };
    let mut fields = Vec::new();
    for name in &list.keys {
        if let Some(v) = m.get(name) {
            fields.push((name.clone(), v.clone()));
            continue;
        }
        // An absent key takes the default of its field, if the schema has one.
        let Some(item) = &atom_of(schema, list.elem).map else {
            return Err(format!(
                "couldn't find default value for {name}: associative list may not have non-map types"
            ));
        };
        if let Some(d) = item.fields.get(name).and_then(|f| f.default.as_ref()) {
            fields.push((name.clone(), d.clone()));
        }
    }
    if fields.is_empty() {
        let keys: Vec<String> = list
            .keys
            .iter()
            .map(|k| crdkit_apimachinery::gofmt::quote(k))
            .collect();
        return Err(format!(
            "associative list with keys has an element that omits all key fields [{}] (and doesn't have default values for any key fields)",
            keys.join(" ")
        ));
    }
    Ok(PathElement::key(fields))
}

impl Walk<'_> {
    pub(crate) fn atom(&self, t: Option<TypeId>) -> &Atom {
        atom_of(self.schema, t)
    }

    /// `validatingObjectWalker.validate`.
    pub(crate) fn validate(&self, v: &Value, t: TypeId, allow_dup: bool) -> ValidationErrors {
        let atom = self.schema.atom(t);
        let shape = match pick(atom, deduce(atom, Some(v))) {
            Ok(s) => s,
            Err(e) => return e,
        };
        match shape {
            Shape::Scalar => validate_scalar(atom.scalar.unwrap_or(Scalar::Untyped), Some(v), ""),
            Shape::List => self.validate_list(atom.list.as_ref().expect("picked"), v, allow_dup),
            Shape::Map => self.validate_map(atom.map.as_ref().expect("picked"), v, allow_dup),
        }
    }

    fn validate_list(&self, list: &List, v: &Value, allow_dup: bool) -> ValidationErrors {
        let items = match v {
            Value::Null => return ValidationErrors::default(),
            Value::Array(items) => items,
            other => {
                return ValidationErrors::one(format!(
                    "expected list, got {}",
                    value::go_value_v(other)
                ));
            }
        };
        let mut errs = ValidationErrors::default();
        let mut seen = std::collections::BTreeSet::new();
        for (i, child) in items.iter().enumerate() {
            let pe = if list.associative {
                match list_item_element(self.schema, list, child) {
                    Ok(pe) => pe,
                    Err(e) => {
                        // Without a key nothing deeper can be reported: the list is abandoned.
                        errs.extend(ValidationErrors::one(format!("element {i}: {e}")));
                        return errs;
                    }
                }
            } else {
                PathElement::Index(i64::try_from(i).unwrap_or(i64::MAX))
            };
            if list.associative && !seen.insert(pe.clone()) && !allow_dup {
                errs.extend(ValidationErrors::one(format!(
                    "duplicate entries for key {pe}"
                )));
            }
            if let Some(elem) = list.elem {
                errs.extend(self.validate(child, elem, allow_dup).prefixed(&pe));
            } else {
                errs.extend(
                    ValidationErrors::one("schema error: invalid atom: inlined").prefixed(&pe),
                );
            }
        }
        errs
    }

    fn validate_map(&self, map: &MapT, v: &Value, allow_dup: bool) -> ValidationErrors {
        let m = match v {
            Value::Null => return ValidationErrors::default(),
            Value::Object(m) => m,
            other => {
                return ValidationErrors::one(format!(
                    "expected map, got {}",
                    value::go_value_v(other)
                ));
            }
        };
        let mut errs = ValidationErrors::default();
        for (key, val) in m {
            let pe = PathElement::Field(key.clone());
            let Some(t) = map.type_of(key) else {
                // The walk stops at the first unknown field.
                errs.extend(ValidationErrors::one("field not declared in schema").prefixed(&pe));
                break;
            };
            errs.extend(self.validate(val, t, allow_dup).prefixed(&pe));
        }
        errs
    }
}
