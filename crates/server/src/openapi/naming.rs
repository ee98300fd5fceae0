//! Operation ids, tags and descriptions: `descriptionFor` of apiextensions-apiserver
//! `pkg/controller/openapi/builder/builder.go` and apiserver `pkg/endpoints/openapi`
//! (`GetOperationIDAndTags`, `ToValidOperationID`).

use super::paths::Names;

/// `descriptionFor` of builder.go.
pub(super) fn description(names: &Names, sub: &str, verb: &str) -> String {
    let kind = &names.kind;
    let article = match verb {
        "list" => " objects of kind ".to_owned(),
        "read" | "replace" | "patch" => " the specified ".to_owned(),
        "create" | "delete" => article_for(kind),
        _ => String::new(),
    };
    let sub = if sub.is_empty() {
        String::new()
    } else {
        format!(" {sub} of")
    };
    match verb {
        "patch" => format!("partially update{sub}{article}{kind}"),
        "deletecollection" => {
            let sub = if sub.is_empty() { sub } else { sub + " a" };
            format!("delete collection of{sub} {kind}")
        }
        _ => format!("{verb}{sub}{article}{kind}"),
    }
}

/// `endpoints.GetArticleForNoun(noun, " ")`: " an " before a vowel, " a " otherwise.
fn article_for(noun: &str) -> String {
    if noun.starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']) {
        " an ".to_owned()
    } else {
        " a ".to_owned()
    }
}

/// `GetOperationIDAndTags`: the verb, then the group (without `.k8s.io`) and version as valid
/// identifiers, then the rest of the operation name; the tag is `group_version`.
pub(super) fn operation_id(op: &str, path: &str) -> (String, String) {
    const VERBS: &[&str] = &[
        "deletecollection",
        "delete",
        "list",
        "read",
        "replace",
        "patch",
        "create",
        "watch",
    ];
    let verb = VERBS
        .iter()
        .find(|v| op.starts_with(**v))
        .copied()
        .unwrap_or("");
    let rest = &op[verb.len()..];
    let mut parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    if parts.first() == Some(&"api") {
        parts.splice(0..1, ["apis", "core"]);
    }
    let mut prefix = verb.to_owned();
    let mut tag = String::new();
    if parts.len() >= 2 && parts[0] == "apis" {
        let trimmed = parts[1].strip_suffix(".k8s.io").unwrap_or(parts[1]);
        prefix.push_str(&valid_operation_id(trimmed, !prefix.is_empty()));
        tag = valid_operation_id(trimmed, false);
        if parts.len() > 2 {
            prefix.push_str(&valid_operation_id(parts[2], !prefix.is_empty()));
            tag = format!("{tag}_{}", valid_operation_id(parts[2], false));
        }
    }
    (format!("{prefix}{rest}"), tag)
}

/// `ToValidOperationID`: letters and digits kept, the letter after any other character upper-cased.
fn valid_operation_id(s: &str, capitalize_first: bool) -> String {
    let mut out = String::with_capacity(s.len());
    let mut capitalize = capitalize_first;
    for c in s.chars() {
        if c.is_alphanumeric() {
            if capitalize {
                out.extend(c.to_uppercase());
                capitalize = false;
            } else {
                out.push(c);
            }
        } else {
            capitalize = true;
        }
    }
    out
}
