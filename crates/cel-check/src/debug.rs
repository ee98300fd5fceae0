//! cel-go's debug printer (`common/debug/debug.go`) and the adorners of cel-go's parser tests
//! (`parser/parser_test.go`), used to compare our ASTs with cel-go's test tables.

use super::ast::{Ast, ExprId, ExprKind, Literal};
use super::errors::Source;
use crdkit_apimachinery::gofmt;

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

/// What a printer of cel-go's debug format decides per node: the parser tests' adorners
/// ([`ParseStyle`]) or the checker tests' semantic adorner (`check::debug`).
pub(crate) trait Style {
    /// What follows node `id` (`kind` is `None` for a macro call printed by reference).
    fn adornment(&self, ast: &Ast, id: ExprId, kind: Option<&ExprKind>) -> Option<String>;
    /// What follows a map or struct entry.
    fn entry_adornment(&self, ast: &Ast, id: ExprId) -> Option<String> {
        let _ = (ast, id);
        None
    }
    /// The name an identifier, a select or a struct type prints as when it resolved to another.
    fn rename(&self, id: ExprId) -> Option<String> {
        let _ = id;
        None
    }
    /// A call's target and function as printed.
    fn call(&self, id: ExprId, target: Option<ExprId>, function: &str) -> (Option<ExprId>, String) {
        let _ = id;
        (target, function.to_owned())
    }
}

/// The adorners of `debug.go` and cel-go's parser tests.
struct ParseStyle<'a> {
    adorner: Adorner,
    source: Option<&'a Source>,
    /// Adorn macro expansions with the macro's name.
    macro_names: bool,
}

impl Style for ParseStyle<'_> {
    fn adornment(&self, ast: &Ast, id: ExprId, kind: Option<&ExprKind>) -> Option<String> {
        Some(match self.adorner {
            Adorner::None => return None,
            Adorner::Location => {
                let (l, c) = match self.source {
                    Some(src) => {
                        let span = ast
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
                let name = match ast.macro_calls.get(&id) {
                    Some(m) if self.macro_names => m.function.clone(),
                    _ => kind_name(kind).to_string(),
                };
                if self.adorner == Adorner::Kind {
                    format!("^#{name}#")
                } else {
                    format!("^#{}:{name}#", id.0)
                }
            }
        })
    }

    fn entry_adornment(&self, ast: &Ast, id: ExprId) -> Option<String> {
        match self.adorner {
            Adorner::None => None,
            Adorner::Kind => Some("^#*expr.Expr_CreateStruct_Entry#".into()),
            Adorner::KindAndId => Some(format!("^#{}:*expr.Expr_CreateStruct_Entry#", id.0)),
            Adorner::Location => self.adornment(ast, id, None),
        }
    }
}

/// The printer: cel-go's `debugWriter`, two spaces an indent.
pub(crate) struct Printer<'a, S> {
    ast: &'a Ast,
    style: S,
    out: String,
    indent: usize,
    line_start: bool,
    /// Print nested macro calls by reference (for [`macro_calls_string`]).
    macro_refs: bool,
}

impl<'a, S: Style> Printer<'a, S> {
    pub(crate) fn new(ast: &'a Ast, style: S) -> Self {
        Printer {
            ast,
            style,
            out: String::new(),
            indent: 0,
            line_start: true,
            macro_refs: false,
        }
    }

    /// The debug string of expression `id`.
    pub(crate) fn print(mut self, id: ExprId) -> String {
        self.expr(id);
        self.out
    }

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
        if let Some(s) = self.style.adornment(self.ast, id, kind) {
            self.append(&s);
        }
    }

    fn entry(&mut self, id: ExprId) {
        if let Some(s) = self.style.entry_adornment(self.ast, id) {
            self.append(&s);
        }
    }

    /// `[a, b]`, `{k: v}` and `T{f: v}` alike: `open`, the items on their own lines, `close`.
    fn items(&mut self, open: &str, n: usize, close: &str, mut item: impl FnMut(&mut Self, usize)) {
        self.append(open);
        if n > 0 {
            self.newline();
            self.indent += 1;
            for i in 0..n {
                if i > 0 {
                    self.append(",");
                    self.newline();
                }
                item(self, i);
            }
            self.indent -= 1;
            self.newline();
        }
        self.append(close);
    }

    fn expr(&mut self, id: ExprId) {
        let ast = self.ast;
        let kind = &ast.exprs[id.index()].kind;
        if self.macro_refs && ast.macro_calls.contains_key(&id) {
            self.adorn(id, None);
            return;
        }
        match kind {
            ExprKind::Unspecified => {}
            ExprKind::Literal(l) => self.append(&literal(l)),
            ExprKind::Ident(n) => match self.style.rename(id) {
                Some(r) => self.append(&r),
                None => self.append(n),
            },
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => {
                if let Some(r) = self.style.rename(id) {
                    self.append(&r);
                } else {
                    self.expr_maybe_plain(*operand);
                    self.append(".");
                    self.append(field);
                    if *test_only {
                        self.append("~test-only~");
                    }
                }
            }
            ExprKind::Call {
                target,
                function,
                args,
            } => {
                let (target, function) = self.style.call(id, *target, function);
                self.call(target, &function, args);
            }
            ExprKind::List { elems, .. } => {
                self.items("[", elems.len(), "]", |p, i| p.expr(elems[i]));
            }
            ExprKind::Map { entries } => {
                self.items("{", entries.len(), "}", |p, i| {
                    let e = &entries[i];
                    if e.optional {
                        p.append("?");
                    }
                    p.expr_maybe_plain(e.key);
                    p.append(":");
                    p.expr_maybe_plain(e.value);
                    p.entry(e.id);
                });
            }
            ExprKind::Struct { type_name, fields } => {
                match self.style.rename(id) {
                    Some(r) => self.append(&r),
                    None => self.append(type_name),
                }
                self.items("{", fields.len(), "}", |p, i| {
                    let f = &fields[i];
                    if f.optional {
                        p.append("?");
                    }
                    p.append(&f.field);
                    p.append(":");
                    p.expr_maybe_plain(f.value);
                    p.entry(f.id);
                });
            }
            ExprKind::Comprehension(c) => {
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
        Literal::Double(d) => gofmt::format_float(*d),
        Literal::String(s) => gofmt::quote(s),
        Literal::Bytes(b) => format!("b{}", gofmt::quote_bytes(b)),
    }
}

/// The debug string of the expression `id` (cel-go `debug.ToAdornedDebugString`). The source is
/// only needed for [`Adorner::Location`].
pub fn debug_string(ast: &Ast, id: ExprId, adorner: Adorner, source: Option<&Source>) -> String {
    let style = ParseStyle {
        adorner,
        source,
        macro_names: false,
    };
    Printer::new(ast, style).print(id)
}

/// The macro calls, highest id first, as cel-go's parser tests print them.
pub fn macro_calls_string(ast: &Ast) -> String {
    let mut parts = Vec::new();
    for (&id, call) in ast.macro_calls.iter().rev() {
        let style = ParseStyle {
            adorner: Adorner::KindAndId,
            source: None,
            macro_names: true,
        };
        let mut p = Printer::new(ast, style);
        p.macro_refs = true;
        p.call(call.target, &call.function, &call.args);
        p.adorn(id, None);
        parts.push(p.out);
    }
    parts.join(",\n")
}
