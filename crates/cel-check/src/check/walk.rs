//! Traversal helpers shared by the checker, the validators and the cost estimator.

use crate::{Ast, ExprId, ExprKind};

/// The direct children of a node, in evaluation order (a call's target first).
pub fn children(ast: &Ast, id: ExprId) -> Vec<ExprId> {
    match &ast.expr(id).kind {
        ExprKind::Select { operand, .. } => vec![*operand],
        ExprKind::Call { target, args, .. } => target.iter().chain(args).copied().collect(),
        ExprKind::List { elems, .. } => elems.clone(),
        ExprKind::Map { entries } => entries.iter().flat_map(|e| [e.key, e.value]).collect(),
        ExprKind::Struct { fields, .. } => fields.iter().map(|f| f.value).collect(),
        ExprKind::Comprehension(c) => vec![
            c.iter_range,
            c.accu_init,
            c.loop_condition,
            c.loop_step,
            c.result,
        ],
        ExprKind::Unspecified | ExprKind::Literal(_) | ExprKind::Ident(_) => Vec::new(),
    }
}

/// The depth of the tree (a root without children has depth 1).
pub fn depth(ast: &Ast) -> usize {
    let mut max = 0;
    let mut stack = vec![(ast.root, 1usize)];
    while let Some((id, d)) = stack.pop() {
        max = max.max(d);
        stack.extend(children(ast, id).into_iter().map(|c| (c, d + 1)));
    }
    max
}

/// Depth up to which the recursive walks run on the caller's stack.
const INLINE_DEPTH: usize = 48;
/// Stack for deeper trees (the parser accepts up to 250 levels per grammar rule).
const DEEP_STACK: usize = 256 << 20;

/// Runs a recursive walk over `ast`, on a thread with a large stack when the tree is deep.
pub fn with_stack<R: Send>(ast: &Ast, f: impl Fn() -> R + Send + Sync) -> R {
    if depth(ast) <= INLINE_DEPTH {
        return f();
    }
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .stack_size(DEEP_STACK)
            .spawn_scoped(scope, &f);
        match spawned {
            Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            Err(_) => f(),
        }
    })
}
