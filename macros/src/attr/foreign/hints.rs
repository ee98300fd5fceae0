//! What to write instead of another derive's attribute that crdkit cannot turn into a schema
//! keyword: the texts of the errors in `mod.rs`.

/// For garde's and validator's `ip`.
pub(super) const IP: &str = "the API server knows no `ip` format: write `format = \"ipv4\"` or `\"ipv6\"`, or the CEL rule `validation(rule = \"isIP(self)\")`";

/// For a schemars attribute that changes the schema in a way crdkit does not read.
pub(super) fn schemars(key: &str) -> &'static str {
    match key {
        "with" | "schema_with" => {
            "crdkit takes the schema from the type: name another type with `#[crd(with = Type)]`, take the type's `JsonSchema` with `#[crd(schemars)]`, or refine it with `#[crd(..)]` keywords"
        }
        "extend" => {
            "write the keyword as a `#[crd(..)]` attribute (`x-kubernetes-list-type` is `list_type`, `x-kubernetes-validations` is `validation(..)`, ...)"
        }
        "transform" => "write the change as `#[crd(..)]` keywords",
        _ => "crdkit reads serde's attributes: write it in `#[serde(..)]`",
    }
}

/// For a garde or validator rule that has no schema keyword.
pub(super) fn client_only(key: &str) -> &'static str {
    match key {
        "custom" | "schema" => {
            "write it as a CEL rule, `#[crd(validation(rule = \"..\", message = \"..\"))]`"
        }
        "must_match" | "matches" => {
            "compare the fields in a CEL rule on the struct, `#[crd(validation(rule = \"self.a == self.b\"))]`"
        }
        "alphanumeric" => "write the characters it allows as a `#[crd(pattern = \"..\")]`",
        "non_control_character" => r#"write `#[crd(pattern = "^\\P{Cc}*$")]`"#,
        "does_not_contain" => {
            "write it as a CEL rule, `#[crd(validation(rule = \"!self.contains('..')\"))]`"
        }
        _ => "write it as `#[crd(..)]` keywords or a CEL rule, `#[crd(validation(rule = \"..\"))]`",
    }
}

/// The `#[crd(..)]` form of a bound or pattern that is not a literal.
pub(super) fn literal(key: &str) -> &'static str {
    match key {
        "range" | "minimum" | "maximum" | "exclusive_minimum" | "exclusive_maximum"
        | "multiple_of" => "`#[crd(minimum = 0, maximum = 10)]`",
        "min_length" | "max_length" | "min_items" | "max_items" | "min_properties"
        | "max_properties" => "`#[crd(min_length = 1)]` and the like",
        "length" | "byte_length" => {
            "`#[crd(min_length = 1)]` (strings), `min_items` (lists) or `min_properties` (maps)"
        }
        _ => "`#[crd(pattern = r\"..\")]`",
    }
}
