//! The checked-AST printer of cel-go's checker tests (`checker/printer.go`, the semantic
//! adorner over `common/debug/debug.go`): every node followed by `~type` and `^reference`
//! (the resolved name, or the sorted overload ids joined by `|`), with the checker's rewrites
//! (qualified names as identifiers, namespaced functions without their target) applied.

use super::{CheckedAst, Reference};
use crate::debug::{Printer, Style};
use crate::{Ast, ExprId, ExprKind};

struct Semantic<'a>(&'a CheckedAst);

impl Style for Semantic<'_> {
    fn adornment(&self, _: &Ast, id: ExprId, kind: Option<&ExprKind>) -> Option<String> {
        let mut out = String::new();
        if let Some(t) = self.0.type_of(id) {
            out.push_str(&format!("~{t}"));
        }
        if !matches!(
            kind,
            Some(ExprKind::Comprehension(_) | ExprKind::Map { .. } | ExprKind::Literal(_))
        ) {
            match self.0.reference(id) {
                Some(Reference::Ident(n)) => out.push_str(&format!("^{n}")),
                Some(Reference::Function { overloads, .. }) => {
                    let mut o = overloads.clone();
                    o.sort();
                    out.push_str(&format!("^{}", o.join("|")));
                }
                None => {}
            }
        }
        (!out.is_empty()).then_some(out)
    }

    fn rename(&self, id: ExprId) -> Option<String> {
        match self.0.reference(id) {
            Some(Reference::Ident(n)) => Some(n.clone()),
            _ => None,
        }
    }

    fn call(&self, id: ExprId, _: Option<ExprId>, function: &str) -> (Option<ExprId>, String) {
        let function = match self.0.reference(id) {
            Some(Reference::Function { function, .. }) => function.clone(),
            _ => function.to_owned(),
        };
        (self.0.call_target(id), function)
    }
}

/// The checked expression as cel-go's checker tests print it.
#[must_use]
pub fn checked_debug_string(c: &CheckedAst) -> String {
    Printer::new(&c.ast, Semantic(c)).print(c.ast.root)
}
