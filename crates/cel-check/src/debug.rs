//! cel-go's debug printer (`common/debug/debug.go`) and the adorners of cel-go's parser tests
//! (`parser/parser_test.go`), used to compare our ASTs with cel-go's test tables.

use super::ast::{Ast, ExprId, ExprKind, Literal};
use super::errors::Source;
use crdkit_apimachinery::field::{go_format_float, go_quote, go_quote_bytes};

/// What follows each node in the debug string.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Adorner {
    /// Nothing (`debug.ToDebugString`).
    None,
    /// `^#*expr.Expr_IdentExpr#` (the conformance data's `ast` strings).
    Kind,
    /// `^#3:*expr.Expr_IdentExpr#` (cel-go's `kindAndIDAdorner`; in [`macro_calls_string`] a
    /// macro expansion shows as `^#3:map#`).
    KindAndId,
    /// `^#3[1,4]#`: id and start line/column (`locationAdorner`).
    Location,
}

struct W<'a> {
    ast: &'a Ast,
    source: Option<&'a Source>,
    adorner: Adorner,
    out: String,
    indent: usize,
    line_start: bool,
    /// Print nested macro calls by reference (for [`macro_calls_string`]).
    macro_refs: bool,
    /// Adorn macro expansions with the macro's name.
    macro_names: bool,
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

    fn adorn(&mut self, id: ExprId, kind: Option<&ExprKind>) {
        let s = match self.adorner {
            Adorner::None => return,
            Adorner::Location => {
                let (l, c) = match self.source {
                    Some(src) => {
                        let span = self
                            .ast
                            .exprs
                            .get(id.0 as usize - 1)
                            .map(|e| e.span)
                            .unwrap_or_default();
                        src.location(src.cp_of_byte(span.start))
                    }
                    None => (-1, -1),
                };
                format!("^#{}[{},{}]#", id.0, l, c)
            }
            Adorner::Kind | Adorner::KindAndId => {
                let name = match self.ast.macro_calls.get(&id) {
                    Some(m) if self.macro_names => m.function.clone(),
                    _ => kind_name(kind).to_string(),
                };
                if self.adorner == Adorner::Kind {
                    format!("^#{name}#")
                } else {
                    format!("^#{}:{name}#", id.0)
                }
            }
        };
        self.append(&s);
    }

    fn expr(&mut self, id: ExprId) {
        let kind = &self.ast.exprs[id.index()].kind;
        if self.macro_refs && self.ast.macro_calls.contains_key(&id) {
            self.adorn(id, None);
            return;
        }
        match kind {
            ExprKind::Unspecified => {}
            ExprKind::Literal(l) => self.append(&literal(l)),
            ExprKind::Ident(n) => self.append(n),
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => {
                self.expr_maybe_plain(*operand);
                self.append(".");
                self.append(field);
                if *test_only {
                    self.append("~test-only~");
                }
            }
            ExprKind::Call {
                target,
                function,
                args,
            } => self.call(*target, function, args),
            ExprKind::List { elems, .. } => {
                self.append("[");
                if !elems.is_empty() {
                    self.newline();
                    self.indent += 1;
                    for (i, e) in elems.iter().enumerate() {
                        if i > 0 {
                            self.append(",");
                            self.newline();
                        }
                        self.expr(*e);
                    }
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
                        self.expr_maybe_plain(e.key);
                        self.append(":");
                        self.expr_maybe_plain(e.value);
                        self.entry(e.id);
                    }
                    self.indent -= 1;
                    self.newline();
                }
                self.append("}");
            }
            ExprKind::Struct { type_name, fields } => {
                self.append(type_name);
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
                        self.append(&f.field);
                        self.append(":");
                        self.expr_maybe_plain(f.value);
                        self.entry(f.id);
                    }
                    self.indent -= 1;
                    self.newline();
                }
                self.append("}");
            }
            ExprKind::Comprehension(c) => {
                let c = c.clone();
                self.append("__comprehension__(");
                self.indent += 1;
                self.newline();
                self.append("// Variable");
                self.newline();
                self.append(&c.iter_var);
                self.append(",");
                self.newline();
                if let Some(v2) = &c.iter_var2 {
                    self.append(v2);
                    self.append(",");
                    self.newline();
                }
                self.section("// Target", c.iter_range);
                self.append("// Accumulator");
                self.newline();
                self.append(&c.accu_var);
                self.append(",");
                self.newline();
                self.section("// Init", c.accu_init);
                self.section("// LoopCondition", c.loop_condition);
                self.section("// LoopStep", c.loop_step);
                self.append("// Result");
                self.newline();
                self.expr_maybe_plain(c.result);
                self.append(")");
                self.indent -= 1;
            }
        }
        self.adorn(id, Some(kind));
    }

    /// Inside selects, maps, structs and comprehensions cel-go's macro-call printer does not
    /// replace nested macros (its `buildMacroCallArg` only descends into calls and lists).
    fn expr_maybe_plain(&mut self, id: ExprId) {
        let saved = self.macro_refs;
        self.macro_refs = false;
        self.expr(id);
        self.macro_refs = saved;
    }

    fn section(&mut self, title: &str, id: ExprId) {
        self.append(title);
        self.newline();
        self.expr_maybe_plain(id);
        self.append(",");
        self.newline();
    }

    fn entry(&mut self, id: ExprId) {
        match self.adorner {
            Adorner::None => {}
            Adorner::Kind => self.append("^#*expr.Expr_CreateStruct_Entry#"),
            Adorner::KindAndId => {
                self.append(&format!("^#{}:*expr.Expr_CreateStruct_Entry#", id.0))
            }
            Adorner::Location => self.adorn(id, None),
        }
    }

    fn call(&mut self, target: Option<ExprId>, function: &str, args: &[ExprId]) {
        if let Some(t) = target {
            self.expr(t);
            self.append(".");
        }
        self.append(function);
        self.append("(");
        if !args.is_empty() {
            self.indent += 1;
            self.newline();
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    self.append(",");
                    self.newline();
                }
                self.expr(*a);
            }
            self.indent -= 1;
            self.newline();
        }
        self.append(")");
    }
}

fn kind_name(kind: Option<&ExprKind>) -> &'static str {
    match kind {
        Some(ExprKind::Call { .. }) => "*expr.Expr_CallExpr",
        Some(ExprKind::Comprehension(_)) => "*expr.Expr_ComprehensionExpr",
        Some(ExprKind::Ident(_)) => "*expr.Expr_IdentExpr",
        Some(ExprKind::Literal(l)) => match l {
            Literal::Bool(_) => "*expr.Constant_BoolValue",
            Literal::Bytes(_) => "*expr.Constant_BytesValue",
            Literal::Double(_) => "*expr.Constant_DoubleValue",
            Literal::Int(_) => "*expr.Constant_Int64Value",
            Literal::Null => "*expr.Constant_NullValue",
            Literal::String(_) => "*expr.Constant_StringValue",
            Literal::Uint(_) => "*expr.Constant_Uint64Value",
        },
        Some(ExprKind::List { .. }) => "*expr.Expr_ListExpr",
        Some(ExprKind::Map { .. } | ExprKind::Struct { .. }) => "*expr.Expr_StructExpr",
        Some(ExprKind::Select { .. }) => "*expr.Expr_SelectExpr",
        _ => "",
    }
}

/// cel-go's literal formatting: Go `strconv.Quote` for strings and bytes, `%v` for doubles.
fn literal(l: &Literal) -> String {
    match l {
        Literal::Null => "null".into(),
        Literal::Bool(b) => b.to_string(),
        Literal::Int(i) => i.to_string(),
        Literal::Uint(u) => format!("{u}u"),
        Literal::Double(d) => go_format_float(*d),
        Literal::String(s) => go_quote(s),
        Literal::Bytes(b) => format!("b{}", go_quote_bytes(b)),
    }
}

/// The debug string of the expression `id` (cel-go `debug.ToAdornedDebugString`). The source is
/// only needed for [`Adorner::Location`].
pub fn debug_string(ast: &Ast, id: ExprId, adorner: Adorner, source: Option<&Source>) -> String {
    let mut w = W {
        ast,
        source,
        adorner,
        out: String::new(),
        indent: 0,
        line_start: true,
        macro_refs: false,
        macro_names: false,
    };
    w.expr(id);
    w.out
}

/// The macro calls, highest id first, as cel-go's parser tests print them.
pub fn macro_calls_string(ast: &Ast) -> String {
    let mut parts = Vec::new();
    for (&id, call) in ast.macro_calls.iter().rev() {
        let mut w = W {
            ast,
            source: None,
            adorner: Adorner::KindAndId,
            out: String::new(),
            indent: 0,
            line_start: true,
            macro_refs: true,
            macro_names: true,
        };
        let target = call.target;
        w.call(target, &call.function, &call.args);
        w.adorn(id, None);
        parts.push(w.out);
    }
    parts.join(",\n")
}
