//! Apply conflicts as the API server reports them.
//!
//! Mirrors apimachinery `pkg/util/managedfields/internal/conflict.go` (`NewConflictError`,
//! `getConflictMessage`, `printManager`): managers printed by name, with the subresource, and for
//! updaters the API version (`conflict with "kubectl-client-side-apply" using v1`).

use crdkit_apimachinery::field::go_quote;

use super::entries::{UPDATE, parse_identifier};
use crate::merge::Conflicts;

/// One cause of a conflict `Status`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConflictCause {
    /// `FieldManagerConflict`.
    pub reason: &'static str,
    /// `conflict with "kubectl" using v1`.
    pub message: String,
    /// `.spec.replicas`.
    pub field: String,
}

/// `printManager`: `"name"`, `"name" with subresource "status"`, then ` using v1` for updaters
/// (` at <time>` when the identifier holds one).
#[must_use]
pub fn print_manager(manager: &str) -> String {
    let Some(e) = parse_identifier(manager) else {
        return go_quote(manager);
    };
    let mut s = go_quote(&e.manager);
    if !e.subresource.is_empty() {
        s = format!("{s} with subresource {}", go_quote(&e.subresource));
    }
    if e.operation == UPDATE {
        return match &e.time {
            None => format!("{s} using {}", e.api_version),
            Some(t) => format!("{s} using {} at {t}", e.api_version),
        };
    }
    s
}

/// `getConflictMessage`.
#[must_use]
pub fn conflict_message(conflicts: &Conflicts) -> String {
    if let [one] = conflicts.0.as_slice() {
        return format!(
            "Apply failed with 1 conflict: conflict with {}: {}",
            print_manager(&one.manager),
            one.path
        );
    }
    let mut lines = Vec::new();
    for (manager, paths) in conflicts.by_manager() {
        lines.push(format!("conflicts with {}:", print_manager(manager)));
        for p in paths {
            lines.push(format!("- {p}"));
        }
    }
    format!(
        "Apply failed with {} conflicts: {}",
        conflicts.0.len(),
        lines.join("\n")
    )
}

/// The `Status` causes of `NewConflictError`, one per conflict in order.
#[must_use]
pub fn conflict_causes(conflicts: &Conflicts) -> Vec<ConflictCause> {
    conflicts
        .0
        .iter()
        .map(|c| ConflictCause {
            reason: "FieldManagerConflict",
            message: format!("conflict with {}", print_manager(&c.manager)),
            field: c.path.to_string(),
        })
        .collect()
}
