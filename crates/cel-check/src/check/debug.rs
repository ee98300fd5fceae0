//! The checked-AST printer of cel-go's checker tests (`checker/printer.go`, the semantic
//! adorner over `common/debug/debug.go`): every node followed by `~type` and `^reference`
//! (the resolved name, or the sorted overload ids joined by `|`), with the checker's rewrites
//! (qualified names as identifiers, namespaced functions without their target) applied.

use super::{CheckedAst, Reference};
use crate::{Adorner, ExprId, ExprKind, debug_string};

struct W<'a> {
    c: &'a CheckedAst,
    out: String,
    indent: usize,
    line_start: bool,
}

impl W<'_> {
    fn append(&mut self, s: &str) {
        if self.line_start {
            self.line_start = false;
            for _ in 0..self.indent {
                self.out.push_str("  ");
            }
        }
        self.out.push_str(s);
    }

    fn newline(&mut self) {
        self.out.push('\n');
        self.line_start = true;
    }

    fn adorn(&mut self, id: ExprId) {
        if let Some(t) = self.c.type_of(id) {
            self.append(&format!("~{t}"));
        }
        let kind = &self.c.ast.expr(id).kind;
        if matches!(
            kind,
            ExprKind::Comprehension(_) | ExprKind::Map { .. } | ExprKind::Literal(_)
        ) {
            return;
        }
        match self.c.reference(id) {
            Some(Reference::Ident(n)) => self.append(&format!("^{n}")),
            Some(Reference::Function { overloads, .. }) => {
                let mut o = overloads.clone();
                o.sort();
                self.append(&format!("^{}", o.join("|")));
            }
            None => {}
        }
    }

    fn list<I: IntoIterator<Item = ExprId>>(&mut self, items: I) {
        for (i, e) in items.into_iter().enumerate() {
            if i > 0 {
                self.append(",");
                self.newline();
            }
            self.expr(e);
        }
    }

    fn expr(&mut self, id: ExprId) {
        let ast = &self.c.ast;
        let kind = &ast.expr(id).kind;
        let rewritten = match self.c.reference(id) {
            Some(Reference::Ident(n)) => Some(n.clone()),
            _ => None,
        };
        match kind {
            ExprKind::Unspecified => {}
            ExprKind::Literal(_) => self.append(&debug_string(ast, id, Adorner::None, None)),
            ExprKind::Ident(n) => self.append(rewritten.as_deref().unwrap_or(n)),
            ExprKind::Select { .. } if rewritten.is_some() => {
                self.append(rewritten.as_deref().unwrap_or_default());
            }
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => {
                self.expr(*operand);
                self.append(&format!(".{field}"));
                if *test_only {
                    self.append("~test-only~");
                }
            }
            ExprKind::Call { function, args, .. } => {
                let function = match self.c.reference(id) {
                    Some(Reference::Function { function, .. }) => function.clone(),
                    _ => function.clone(),
                };
                if let Some(t) = self.c.call_target(id) {
                    self.expr(t);
                    self.append(".");
                }
                self.append(&function);
                self.append("(");
                if !args.is_empty() {
                    self.indent += 1;
                    self.newline();
                    self.list(args.iter().copied());
                    self.indent -= 1;
                    self.newline();
                }
                self.append(")");
            }
            ExprKind::List { elems, .. } => {
                self.append("[");
                if !elems.is_empty() {
                    self.newline();
                    self.indent += 1;
                    self.list(elems.iter().copied());
                    self.indent -= 1;
                    self.newline();
                }
                self.append("]");
            }
            ExprKind::Map { entries } => {
                self.append("{");
                if !entries.is_empty() {
                    self.newline();
                    self.indent += 1;
                    for (i, e) in entries.iter().enumerate() {
                        if i > 0 {
                            self.append(",");
                            self.newline();
                        }
                        if e.optional {
                            self.append("?");
                        }
                        self.expr(e.key);
                        self.append(":");
                        self.expr(e.value);
                    }
                    self.indent -= 1;
                    self.newline();
                }
                self.append("}");
            }
            ExprKind::Struct { type_name, fields } => {
                self.append(rewritten.as_deref().unwrap_or(type_name));
                self.append("{");
                if !fields.is_empty() {
                    self.newline();
                    self.indent += 1;
                    for (i, f) in fields.iter().enumerate() {
                        if i > 0 {
                            self.append(",");
                            self.newline();
                        }
                        if f.optional {
                            self.append("?");
                        }
                        self.append(&format!("{}:", f.field));
                        self.expr(f.value);
                    }
                    self.indent -= 1;
                    self.newline();
                }
                self.append("}");
            }
            ExprKind::Comprehension(c) => {
                self.append("__comprehension__(");
                self.indent += 1;
                self.newline();
                self.append("// Variable");
                self.newline();
                self.append(&format!("{},", c.iter_var));
                self.newline();
                if let Some(v2) = &c.iter_var2 {
                    self.append(&format!("{v2},"));
                    self.newline();
                }
                self.section("// Target", c.iter_range);
                self.append("// Accumulator");
                self.newline();
                self.append(&format!("{},", c.accu_var));
                self.newline();
                self.section("// Init", c.accu_init);
                self.section("// LoopCondition", c.loop_condition);
                self.section("// LoopStep", c.loop_step);
                self.append("// Result");
                self.newline();
                self.expr(c.result);
                self.append(")");
                self.indent -= 1;
            }
        }
        self.adorn(id);
    }

    fn section(&mut self, title: &str, id: ExprId) {
        self.append(title);
        self.newline();
        self.expr(id);
        self.append(",");
        self.newline();
    }
}

/// The checked expression as cel-go's checker tests print it.
#[must_use]
pub fn checked_debug_string(c: &CheckedAst) -> String {
    let mut w = W {
        c,
        out: String::new(),
        indent: 0,
        line_start: true,
    };
    w.expr(c.ast.root);
    w.out
}
