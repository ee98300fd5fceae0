//! The query parameters of operations, by the option struct of their action (apiserver
//! `pkg/endpoints/installer.go` `AddObjectParams` of `GetOptions`, `ListOptions`,
//! `CreateOptions`, `UpdateOptions`, `PatchOptions`, `DeleteOptions`), written inline.

use serde_json::{Value, json};

/// The query parameters of the action's option struct.
pub(super) fn action_parameters(action: &str) -> Vec<Value> {
    let dry_run = query(
        "dryRun",
        "When present, indicates that modifications should not be persisted. Valid values: All.",
        "string",
    );
    let field_manager = query(
        "fieldManager",
        "fieldManager is a name associated with the actor or entity that is making these changes.",
        "string",
    );
    let field_validation = query(
        "fieldValidation",
        "fieldValidation instructs the server on how to handle objects in the request containing unknown or duplicate fields: Ignore, Warn (the default) or Strict.",
        "string",
    );
    match action {
        "get" => vec![query(
            "resourceVersion",
            "The resource version the result must be at least as new as.",
            "string",
        )],
        "list" => list_parameters(),
        "deletecollection" => {
            let mut p = delete_parameters();
            p.extend(list_parameters());
            p
        }
        "post" | "put" => vec![dry_run, field_manager, field_validation],
        "patch" => vec![
            dry_run,
            field_manager,
            field_validation,
            query(
                "force",
                "Force is going to \"force\" Apply requests; it must be unset for non-apply patch requests.",
                "boolean",
            ),
        ],
        "delete" => delete_parameters(),
        _ => Vec::new(),
    }
}

fn list_parameters() -> Vec<Value> {
    vec![
        query(
            "allowWatchBookmarks",
            "Requests watch events of type BOOKMARK.",
            "boolean",
        ),
        query(
            "continue",
            "The continue token of a previous chunked list.",
            "string",
        ),
        query(
            "fieldSelector",
            "A selector restricting the returned objects by their fields.",
            "string",
        ),
        query(
            "labelSelector",
            "A selector restricting the returned objects by their labels.",
            "string",
        ),
        query(
            "limit",
            "The maximum number of responses for a list call.",
            "integer",
        ),
        query(
            "resourceVersion",
            "The resource version the result must be at least as new as.",
            "string",
        ),
        query(
            "resourceVersionMatch",
            "How resourceVersion applies to list calls: Exact or NotOlderThan.",
            "string",
        ),
        query(
            "sendInitialEvents",
            "With watch=true, begins the stream with synthetic events for the current state.",
            "boolean",
        ),
        query(
            "timeoutSeconds",
            "Timeout for the list or watch call.",
            "integer",
        ),
        query(
            "watch",
            "Watch for changes and return them as a stream of events.",
            "boolean",
        ),
    ]
}

fn delete_parameters() -> Vec<Value> {
    vec![
        query(
            "dryRun",
            "When present, indicates that modifications should not be persisted. Valid values: All.",
            "string",
        ),
        query(
            "gracePeriodSeconds",
            "The duration in seconds before the object should be deleted.",
            "integer",
        ),
        query(
            "orphanDependents",
            "Deprecated: use propagationPolicy.",
            "boolean",
        ),
        query(
            "propagationPolicy",
            "Whether and how garbage collection is performed: Orphan, Background or Foreground.",
            "string",
        ),
    ]
}

pub(super) fn query(name: &str, description: &str, ty: &str) -> Value {
    json!({"name": name, "in": "query", "description": description,
        "schema": {"type": ty, "uniqueItems": true}})
}
