//! Operation descriptions, ids and tags: `descriptionFor` and `subresource` of
//! apiextensions-apiserver `pkg/controller/openapi/builder/builder.go`, apiserver
//! `pkg/endpoints/installer.go` (`GetArticleForNoun`) and `pkg/endpoints/openapi/openapi.go`
//! (`GetOperationIDAndTags`, `ToValidOperationID`).

/// `subresource`: `""` for `""` and `/{name}`, `scale` for `/{name}/scale`.
pub(crate) fn subresource(path: &str) -> &str {
    let parts: Vec<&str> = path.split('/').collect();
    if parts.len() == 3 { parts[2] } else { "" }
}

/// `descriptionFor`: `create a CronTab`, `partially update status of the specified CronTab`.
pub(crate) fn description(kind: &str, path: &str, verb: &str) -> String {
    let article = match verb {
        "list" => " objects of kind ".to_owned(),
        "read" | "replace" | "patch" => " the specified ".to_owned(),
        "create" | "delete" => article_for(kind, " "),
        _ => String::new(),
    };
    let mut sub = subresource(path).to_owned();
    if !sub.is_empty() {
        sub = format!(" {sub} of");
    }
    match verb {
        "patch" => format!("partially update{sub}{article}{kind}"),
        "deletecollection" => {
            if !sub.is_empty() {
                sub.push_str(" a");
            }
            format!("delete collection of{sub} {kind}")
        }
        _ => format!("{verb}{sub}{article}{kind}"),
    }
}

/// `GetArticleForNoun`: none for plurals (ending in `s` but not `ss`), else `a` or `an`.
fn article_for(noun: &str, padding: &str) -> String {
    if !noun.ends_with("ss") && noun.ends_with('s') {
        return padding.to_owned();
    }
    let vowel = noun
        .chars()
        .next()
        .is_some_and(|c| "aeiouAEIOU".contains(c));
    let article = if vowel { "an" } else { "a" };
    format!("{padding}{article}{padding}")
}

/// The verbs operation names start with, in the order Go's trie finds them: the shortest that
/// prefixes the name wins (`deletecollectionFoo` starts with `delete`).
const VERBS: &[&str] = &[
    "get",
    "log",
    "read",
    "replace",
    "patch",
    "delete",
    "deletecollection",
    "watch",
    "connect",
    "proxy",
    "list",
    "create",
];

/// `GetOperationIDAndTags`: the verb, the group (without `.k8s.io`) and version as identifiers,
/// then the rest of the operation name; the tag is `group_version`.
pub(crate) fn operation_id(op: &str, path: &str) -> (String, Vec<String>) {
    let verb = VERBS
        .iter()
        .filter(|v| op.starts_with(**v))
        .min_by_key(|v| v.len())
        .copied()
        .unwrap_or("");
    let rest = &op[verb.len()..];
    let mut parts: Vec<&str> = path.trim_matches('/').split('/').collect();
    if parts.first() == Some(&"api") {
        parts.splice(0..1, ["apis", "core"]);
    }
    let mut prefix = verb.to_owned();
    let mut tags = Vec::new();
    if parts.len() >= 2 && parts[0] == "apis" {
        let trimmed = parts[1].strip_suffix(".k8s.io").unwrap_or(parts[1]);
        prefix.push_str(&valid_operation_id(trimmed, !prefix.is_empty()));
        let mut tag = valid_operation_id(trimmed, false);
        if parts.len() > 2 {
            prefix.push_str(&valid_operation_id(parts[2], !prefix.is_empty()));
            tag = format!("{tag}_{}", valid_operation_id(parts[2], false));
        }
        tags.push(tag);
    } else if let Some(first) = parts.first() {
        tags.push(valid_operation_id(first, false));
    }
    let id = format!("{prefix}{}", valid_operation_id(rest, !prefix.is_empty()));
    (id, tags)
}

/// `ToValidOperationID`: letters, `_` and digits (not as the first byte) kept, the letter after
/// anything else upper-cased.
fn valid_operation_id(s: &str, capitalize_first: bool) -> String {
    let mut out = String::with_capacity(s.len());
    let mut capitalize = capitalize_first;
    for (i, c) in s.char_indices() {
        if c.is_alphabetic() || c == '_' || (i != 0 && c.is_numeric()) {
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

/// `cases.Title(language.English)` of a subresource name: `Status`, `Scale`.
pub(crate) fn title(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f
            .to_uppercase()
            .chain(c.flat_map(char::to_lowercase))
            .collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operation_ids_follow_the_api_server() {
        let cases = [
            (
                "listNamespacedCronTab",
                "/apis/stable.example.com/v1/namespaces/{namespace}/crontabs",
                "listStableExampleComV1NamespacedCronTab",
                "stableExampleCom_v1",
            ),
            (
                "deletecollectionNamespacedCronTab",
                "/apis/stable.example.com/v1/namespaces/{namespace}/crontabs",
                "deleteStableExampleComV1CollectionNamespacedCronTab",
                "stableExampleCom_v1",
            ),
            (
                "patchCustomResourceDefinition",
                "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name}",
                "patchApiextensionsV1CustomResourceDefinition",
                "apiextensions_v1",
            ),
            (
                "readNamespace",
                "/api/v1/namespaces/{name}",
                "readCoreV1Namespace",
                "core_v1",
            ),
            (
                "createFoo",
                "/apis/foo-group/foo-version/foos",
                "createFooGroupFooVersionFoo",
                "fooGroup_fooVersion",
            ),
        ];
        for (op, path, id, tag) in cases {
            assert_eq!(
                operation_id(op, path),
                (id.to_owned(), vec![tag.to_owned()])
            );
        }
        // A leading digit is dropped, one after the first byte kept.
        assert_eq!(valid_operation_id("3d-v1x2", true), "DV1x2");
    }

    #[test]
    fn descriptions_follow_the_api_server() {
        assert_eq!(description("CronTab", "", "create"), "create a CronTab");
        assert_eq!(description("Ingress", "", "create"), "create an Ingress");
        assert_eq!(description("Pods", "", "delete"), "delete Pods");
        assert_eq!(description("Class", "", "delete"), "delete a Class");
        assert_eq!(
            description("CronTab", "", "list"),
            "list objects of kind CronTab"
        );
        assert_eq!(
            description("CronTab", "/{name}/scale", "patch"),
            "partially update scale of the specified CronTab"
        );
        assert_eq!(
            description("CronTab", "", "deletecollection"),
            "delete collection of CronTab"
        );
        assert_eq!(
            description("CronTab", "/{name}/status", "read"),
            "read status of the specified CronTab"
        );
        assert_eq!(title("status"), "Status");
        assert_eq!(subresource("/{name}"), "");
    }
}
