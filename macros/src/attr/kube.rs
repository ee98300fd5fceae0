//! kube-derive's spellings, answered with crdkit's: someone moving from `#[kube(..)]` and
//! `#[x_kube(..)]` to `#[crd(..)]` gets the attribute to write, not a bare "unknown attribute".

use quote::ToTokens;
use syn::meta::ParseNestedMeta;

use crate::ctxt::Ctxt;

/// Reports a kube-derive key of `#[crd(..)]` on a type with the crdkit form; `false` when the
/// key is not one.
pub fn container_key(cx: &Ctxt, key: &str, meta: &ParseNestedMeta<'_>) -> bool {
    let value = peek_value(meta);
    let hint = match key {
        "doc" => format!(
            "`doc` is kube-derive's: write `root_description = {}` (the spec's doc comment describes `spec`)",
            value.as_deref().unwrap_or("\"..\"")
        ),
        "shortname" => format!(
            "`shortname` is kube-derive's: write `short_name = {}`",
            value.as_deref().unwrap_or("\"..\"")
        ),
        "printcolumn" => match value.as_deref().and_then(|v| syn::parse_str::<syn::LitStr>(v).ok()) {
            Some(json) => column_json_hint(&json.value()),
            None => "`printcolumn` is kube-derive's: write `print_column(name = \"..\", json_path = \".spec..\", type = \"..\")` (`type` may be left out: it is read from the schema)".to_owned(),
        },
        "selectable" => {
            let path = value
                .as_deref()
                .map(|v| v.trim_matches('"').to_owned())
                .unwrap_or_else(|| ".spec..".to_owned());
            if path.starts_with('.') {
                format!("`selectable` is kube-derive's: write `selectable_field = \"{path}\"`")
            } else {
                format!("`selectable` is kube-derive's: write `selectable_field = \".{path}\"` (the API server reads field paths that start with a dot, and rejects \"{path}\")")
            }
        }
        "attr" => format!(
            "`attr` is kube-derive's: write `attr({})`, or `derive(..)` for derives",
            value
                .as_deref()
                .map_or_else(|| "..".to_owned(), |v| v.trim_matches('"').to_owned())
        ),
        "crates" => "`crates(..)` is kube-derive's: crdkit's generated code needs only crdkit, `crate = \"::path::to::crdkit\"`".to_owned(),
        "no_spec" => "`no_spec` is kube-derive's: write `flatten`".to_owned(),
        "schema" => "`schema` is kube-derive's: crdkit derives the schema from the types; for a type whose schema is written by hand implement `crdkit::Schema`, or take a field's from elsewhere with `#[crd(with = Type)]` or `#[crd(schemars)]`".to_owned(),
        "cel" => "`cel` is kube-derive's: crdkit checks every CEL rule when the crate builds and runs them in `validate()` (feature `validation`); leave it out".to_owned(),
        "annotations" | "labels" => format!(
            "write one `{}(\"key\", \"value\")` per entry",
            key.trim_end_matches('s')
        ),
        _ => return false,
    };
    cx.error_spanned_by(&meta.path, hint);
    super::skip_value(meta);
    true
}

/// Reports a kube-derive key of `#[crd(..)]` on a field (`#[x_kube(..)]`'s) with the crdkit
/// form; `false` when the key is not one.
pub fn field_key(cx: &Ctxt, key: &str, meta: &ParseNestedMeta<'_>) -> bool {
    if key != "merge_strategy" {
        return false;
    }
    let hint = match peek_value(meta).as_deref().map(|v| v.replace(' ', "")) {
        Some(v) if v.ends_with("ListMerge::Set") => "`list_type = \"set\"`".to_owned(),
        Some(v) if v.ends_with("ListMerge::Atomic") => "`list_type = \"atomic\"`".to_owned(),
        Some(v) if v.contains("ListMerge::Map(") => {
            let keys: Vec<String> = v
                .split('"')
                .skip(1)
                .step_by(2)
                .map(|k| format!("\"{k}\""))
                .collect();
            format!("`list_type = \"map\", list_map_keys({})`", keys.join(", "))
        }
        Some(v) if v.ends_with("MapMerge::Atomic") || v.ends_with("StructMerge::Atomic") => {
            "`map_type = \"atomic\"`".to_owned()
        }
        Some(v) if v.ends_with("MapMerge::Granular") || v.ends_with("StructMerge::Granular") => {
            "`map_type = \"granular\"`".to_owned()
        }
        _ => "`list_type = \"..\"` (with `list_map_keys(..)`) or `map_type = \"..\"`".to_owned(),
    };
    cx.error_spanned_by(
        &meta.path,
        format!("`merge_strategy` is kube-derive's: write {hint}"),
    );
    super::skip_value(meta);
    true
}

/// kube-derive's `validation = Rule::new("..").message("..")` (or `"rule"`, or
/// `("rule", "message")`) in crdkit's form, for the error that answers it.
pub fn rule_hint(expr: &syn::Expr) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut rule = None;
    collect_rule(expr, &mut rule, &mut parts);
    let body = match rule {
        Some(r) => {
            let mut all = vec![format!("rule = {r}")];
            all.extend(parts);
            all.join(", ")
        }
        None => "rule = \"..\", message = \"..\"".to_owned(),
    };
    format!(
        "`validation = ..` is kube-derive's: write `validation({body})` (on the whole object of a custom resource: `root_validation({body})`)"
    )
}

fn collect_rule(e: &syn::Expr, rule: &mut Option<String>, parts: &mut Vec<String>) {
    match e {
        syn::Expr::Lit(_) => *rule = Some(tokens(e)),
        syn::Expr::Paren(p) => collect_rule(&p.expr, rule, parts),
        syn::Expr::Tuple(t) => {
            let mut elems = t.elems.iter();
            if let Some(r) = elems.next() {
                *rule = Some(tokens(r));
            }
            if let Some(m) = elems.next() {
                parts.push(format!("message = {}", tokens(m)));
            }
        }
        syn::Expr::Call(c) => {
            // `Rule::new("..")`
            if let Some(a) = c.args.first() {
                *rule = Some(tokens(a));
            }
        }
        syn::Expr::MethodCall(m) => {
            collect_rule(&m.receiver, rule, parts);
            let arg = m.args.first().map(tokens).unwrap_or_default();
            let method = m.method.to_string();
            let part = match method.as_str() {
                "message" if arg.contains("Expression") => {
                    format!("message_expression = {}", inner_literal(&arg))
                }
                "message" => format!("message = {}", inner_literal(&arg)),
                "reason" => format!(
                    "reason = \"{}\"",
                    arg.rsplit("::").next().unwrap_or(&arg).trim()
                ),
                "field_path" => format!("field_path = {arg}"),
                "optional_old_self" if arg == "true" => "optional_old_self".to_owned(),
                _ => return,
            };
            parts.push(part);
        }
        _ => {}
    }
}

/// The first string literal of an argument (`Message::Expression("'a'".into())` → `"'a'"`).
fn inner_literal(arg: &str) -> String {
    match (arg.find('"'), arg.rfind('"')) {
        (Some(a), Some(b)) if a < b => arg[a..=b].to_owned(),
        _ => arg.to_owned(),
    }
}

fn tokens<T: ToTokens>(t: &T) -> String {
    t.to_token_stream().to_string()
}

/// The value after `=` as written (`"f"`), without consuming it.
fn peek_value(meta: &ParseNestedMeta<'_>) -> Option<String> {
    let fork = meta.input.fork();
    fork.parse::<syn::Token![=]>().ok()?;
    fork.parse::<syn::Expr>().ok().map(|e| tokens(&e))
}

/// kube-derive's `printcolumn = r#"{..}"#` as `print_column(..)`.
pub fn column_json_hint(json: &str) -> String {
    let keys = [
        ("name", "name"),
        ("jsonPath", "json_path"),
        ("type", "type"),
        ("format", "format"),
        ("description", "description"),
        ("priority", "priority"),
    ];
    format!(
        "`printcolumn = \"{{..}}\"` is kube-derive's spelling: write `print_column({})`",
        typed(json, &keys, "name = \"..\", json_path = \".spec..\"")
    )
}

/// kube-derive's `scale = r#"{..}"#` as `scale(..)`.
pub fn scale_json_hint(json: &str) -> String {
    let keys = [
        ("specReplicasPath", "spec_replicas"),
        ("statusReplicasPath", "status_replicas"),
        ("labelSelectorPath", "label_selector"),
    ];
    format!(
        "`scale = \"{{..}}\"` is kube-derive's spelling: write `scale({})`",
        typed(
            json,
            &keys,
            "spec_replicas = \".spec..\", status_replicas = \".status..\""
        )
    )
}

/// The JSON object's keys as typed attributes, in `keys`' order.
fn typed(json: &str, keys: &[(&str, &str)], fallback: &str) -> String {
    let Ok(serde_json::Value::Object(m)) = serde_json::from_str::<serde_json::Value>(json) else {
        return fallback.to_owned();
    };
    let parts: Vec<String> = keys
        .iter()
        .filter_map(|(json_key, attr)| m.get(*json_key).map(|v| format!("{attr} = {v}")))
        .collect();
    if parts.is_empty() {
        fallback.to_owned()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_in_crdkits_form() {
        let e: syn::Expr = syn::parse_str(
            r#"Rule::new("self != 'illegal'").message(Message::Expression("'no'".into())).reason(Reason::FieldValueForbidden)"#,
        )
        .unwrap();
        assert_eq!(
            rule_hint(&e),
            r#"`validation = ..` is kube-derive's: write `validation(rule = "self != 'illegal'", message_expression = "'no'", reason = "FieldValueForbidden")` (on the whole object of a custom resource: `root_validation(rule = "self != 'illegal'", message_expression = "'no'", reason = "FieldValueForbidden")`)"#
        );
        let e: syn::Expr = syn::parse_str(r#"("self > 0", "positive")"#).unwrap();
        assert!(rule_hint(&e).contains(r#"validation(rule = "self > 0", message = "positive")"#));
    }

    #[test]
    fn json_spellings_in_crdkits_form() {
        assert_eq!(
            column_json_hint(r#"{"name":"Spec", "type":"string", "jsonPath":".spec.name"}"#),
            r#"`printcolumn = "{..}"` is kube-derive's spelling: write `print_column(name = "Spec", json_path = ".spec.name", type = "string")`"#
        );
        assert_eq!(
            scale_json_hint(
                r#"{"specReplicasPath":".spec.replicas", "statusReplicasPath":".status.replicas"}"#
            ),
            r#"`scale = "{..}"` is kube-derive's spelling: write `scale(spec_replicas = ".spec.replicas", status_replicas = ".status.replicas")`"#
        );
    }
}
