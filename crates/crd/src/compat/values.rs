//! The value validations of one node, old and new: `enum` and the bounds (`maximum`,
//! `minimum`, lengths, items, properties, `multipleOf`). Tighter breaks clients that write values
//! it now refuses; stored objects are spared by validation ratcheting ([`RATCHETED`]). Looser
//! is not reported, but new enum values are (clients that match every value see them).

use super::schema::{RATCHETED, Walk, num, show};
use super::{Code, Finding, Severity};
use crdkit_schema::JsonSchemaProps;

impl Walk<'_> {
    pub(super) fn enums(&mut self, path: &str, o: &JsonSchemaProps, n: &JsonSchemaProps) {
        if n.enum_values.is_empty() {
            return;
        }
        if o.enum_values.is_empty() {
            let allowed: Vec<String> = n.enum_values.iter().map(show).collect();
            self.push(
                Severity::BreaksClients,
                Code::EnumNarrowed,
                path,
                format!("enum added: only {} allowed{RATCHETED}", allowed.join(", ")),
            );
            return;
        }
        let removed: Vec<String> = o
            .enum_values
            .iter()
            .filter(|v| !n.enum_values.contains(v))
            .map(show)
            .collect();
        if !removed.is_empty() {
            self.push(
                Severity::BreaksClients,
                Code::EnumNarrowed,
                path,
                format!("enum values removed: {}{RATCHETED}", removed.join(", ")),
            );
        }
        let added: Vec<String> = n
            .enum_values
            .iter()
            .filter(|v| !o.enum_values.contains(v))
            .map(show)
            .collect();
        if !added.is_empty() {
            self.push(
                Severity::Info,
                Code::EnumWidened,
                path,
                format!(
                    "enum values added: {} (clients that match every value must handle them)",
                    added.join(", ")
                ),
            );
        }
    }

    pub(super) fn bounds(&mut self, path: &str, o: &JsonSchemaProps, n: &JsonSchemaProps) {
        let mut tight = |message: String| {
            self.out.push(Finding {
                severity: Severity::BreaksClients,
                code: Code::BoundTightened,
                version: Some(self.version.to_owned()),
                path: path.to_owned(),
                message: message + RATCHETED,
            });
        };
        // maximum / minimum, with their exclusive flags.
        for (name, old, old_ex, new, new_ex, lower_is_tighter) in [
            (
                "maximum",
                o.maximum,
                o.exclusive_maximum,
                n.maximum,
                n.exclusive_maximum,
                true,
            ),
            (
                "minimum",
                o.minimum,
                o.exclusive_minimum,
                n.minimum,
                n.exclusive_minimum,
                false,
            ),
        ] {
            let Some(new) = new else { continue };
            match old {
                None => tight(format!(
                    "{}{name} {} added",
                    if new_ex { "exclusive " } else { "" },
                    num(new)
                )),
                Some(old) if (new < old) == lower_is_tighter && new != old => tight(format!(
                    "{name} {} from {} to {}",
                    if lower_is_tighter {
                        "lowered"
                    } else {
                        "raised"
                    },
                    num(old),
                    num(new)
                )),
                Some(old) if new == old && new_ex && !old_ex => {
                    tight(format!("{name} {} made exclusive", num(new)));
                }
                Some(_) => {}
            }
        }
        for (name, old, new) in [
            ("maxLength", o.max_length, n.max_length),
            ("maxItems", o.max_items, n.max_items),
            ("maxProperties", o.max_properties, n.max_properties),
        ] {
            match (old, new) {
                (None, Some(new)) => tight(format!("{name} {new} added")),
                (Some(old), Some(new)) if new < old => {
                    tight(format!("{name} lowered from {old} to {new}"));
                }
                _ => {}
            }
        }
        for (name, old, new) in [
            ("minLength", o.min_length, n.min_length),
            ("minItems", o.min_items, n.min_items),
            ("minProperties", o.min_properties, n.min_properties),
        ] {
            match (old, new) {
                (None, Some(new)) if new > 0 => tight(format!("{name} {new} added")),
                (Some(old), Some(new)) if new > old => {
                    tight(format!("{name} raised from {old} to {new}"));
                }
                _ => {}
            }
        }
        if let Some(new) = n.multiple_of {
            match o.multiple_of {
                None => tight(format!("multipleOf {} added", num(new))),
                // Multiples of the old value stay valid only if it is a multiple of the new one.
                Some(old) if (old / new).fract() != 0.0 => tight(format!(
                    "multipleOf changed from {} to {}",
                    num(old),
                    num(new)
                )),
                Some(_) => {}
            }
        }
    }
}
