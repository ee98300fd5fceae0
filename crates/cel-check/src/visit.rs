//! From the concrete syntax tree to the [`Ast`]: the visitor of cel-go `parser/parser.go` and the
//! id bookkeeping of `parser/helper.go`, in the same order, so ids and errors match.

use std::collections::BTreeMap;

use super::ParseOptions;
use super::ast::{Ast, Expr, ExprId, ExprKind, Literal, MacroCall, Span};
use super::cst::{Cst, LitKind, N, Node, T};
use super::errors::{Issue, Source};
use super::lexer::{Tk, Token};
use super::unescape::unescape;

/// The visitor gave up: `max recursion depth exceeded` (already recorded).
pub(crate) struct Abort;

pub(crate) type V<T> = Result<T, Abort>;

pub(crate) struct Builder<'a> {
    pub src: &'a str,
    pub source: &'a Source,
    pub toks: &'a [Token],
    pub cst: &'a Cst,
    pub opts: &'a ParseOptions,
    pub exprs: Vec<Expr>,
    pub macro_calls: BTreeMap<ExprId, MacroCall>,
    pub issues: Vec<Issue>,
    depth: usize,
}

impl<'a> Builder<'a> {
    pub(crate) fn new(
        src: &'a str,
        source: &'a Source,
        toks: &'a [Token],
        cst: &'a Cst,
        opts: &'a ParseOptions,
    ) -> Self {
        Builder {
            src,
            source,
            toks,
            cst,
            opts,
            exprs: Vec::new(),
            macro_calls: BTreeMap::new(),
            issues: Vec::new(),
            depth: 0,
        }
    }

    pub(crate) fn finish(self, root: ExprId) -> Ast {
        Ast {
            exprs: self.exprs,
            root,
            macro_calls: self.macro_calls,
        }
    }

    // ---- parser/helper.go ----

    /// Allocates the next id with the given span (`parserHelper.id`).
    pub(crate) fn id(&mut self, span: Span) -> ExprId {
        let id = ExprId(self.exprs.len() as u32 + 1);
        self.exprs.push(Expr {
            id,
            span,
            kind: ExprKind::Unspecified,
        });
        id
    }

    pub(crate) fn set(&mut self, id: ExprId, kind: ExprKind) -> ExprId {
        self.exprs[id.index()].kind = kind;
        id
    }

    pub(crate) fn new_expr(&mut self, span: Span, kind: ExprKind) -> ExprId {
        let id = self.id(span);
        self.set(id, kind)
    }

    /// `deleteID`: the id is reused if it was the last one allocated.
    pub(crate) fn delete_id(&mut self, id: ExprId) {
        if id.0 as usize == self.exprs.len() {
            self.exprs.pop();
        } else {
            self.exprs[id.index()].span = Span::default();
        }
    }

    pub(crate) fn tok_span(&self, t: T) -> Span {
        let t = &self.toks[t as usize];
        Span {
            start: t.start,
            end: t.end,
        }
    }

    fn text(&self, t: T) -> &'a str {
        let tok = &self.toks[t as usize];
        if tok.end == tok.start && tok.kind != Tk::Eof {
            // A token conjured by error recovery.
            return "<missing>";
        }
        self.src
            .get(tok.start as usize..tok.end as usize)
            .unwrap_or_default()
    }

    /// Location of a span's start.
    pub(crate) fn loc(&self, span: Span) -> (i32, i32) {
        self.source.location(self.source.cp_of_byte(span.start))
    }

    /// `reportError`: records the error and returns a placeholder expression.
    pub(crate) fn error(&mut self, span: Span, msg: String) -> ExprId {
        let id = self.id(span);
        let location = Some(self.loc(span));
        self.issues.push(Issue {
            location,
            message: msg,
        });
        id
    }

    fn enter(&mut self) -> V<()> {
        self.depth += 1;
        if self.depth > self.opts.max_recursion_depth {
            self.issues.push(Issue {
                location: None,
                message: "max recursion depth exceeded".into(),
            });
            return Err(Abort);
        }
        Ok(())
    }

    // ---- the visitor ----

    pub(crate) fn visit_opt(&mut self, n: Option<N>) -> V<ExprId> {
        match n {
            Some(n) => self.visit(n),
            None => Ok(self.id(Span::default())),
        }
    }

    pub(crate) fn visit(&mut self, n: N) -> V<ExprId> {
        let counted = matches!(
            self.cst.get(n),
            Node::Ternary { .. }
                | Node::Binary { .. }
                | Node::Select { .. }
                | Node::MemberCall { .. }
                | Node::Index { .. }
        );
        if counted {
            self.enter()?;
        }
        let out = self.visit_node(n);
        if counted {
            self.depth -= 1;
        }
        out
    }

    fn visit_node(&mut self, n: N) -> V<ExprId> {
        match self.cst.get(n).clone() {
            Node::Unknown => Ok(self.id(Span::default())),
            Node::UnaryError { start } => {
                let span = self.tok_span(start);
                Ok(self.new_expr(span, ExprKind::Literal(Literal::String("<<error>>".into()))))
            }
            Node::Ternary { cond, op, e1, e2 } => {
                let c = self.visit(cond)?;
                let id = self.id(self.tok_span(op));
                let a = self.visit_opt(e1)?;
                let b = self.visit_opt(e2)?;
                self.global_call_or_macro(id, "_?_:_", vec![c, a, b])
            }
            Node::Logic {
                and,
                first,
                ops,
                rest,
            } => {
                let f = if and { "_&&_" } else { "_||_" };
                let mut terms = vec![self.visit(first)?];
                let mut op_ids = Vec::new();
                for (i, op) in ops.iter().enumerate() {
                    let Some(&r) = rest.get(i) else { break };
                    terms.push(self.visit(r)?);
                    op_ids.push(self.id(self.tok_span(*op)));
                }
                Ok(self.logic(f, &terms, &op_ids))
            }
            Node::Binary { lhs, op, rhs, .. } => {
                let function = match self.text(op) {
                    "==" => "_==_",
                    "!=" => "_!=_",
                    "in" => "@in",
                    "<" => "_<_",
                    "<=" => "_<=_",
                    ">=" => "_>=_",
                    ">" => "_>_",
                    "*" => "_*_",
                    "/" => "_/_",
                    "%" => "_%_",
                    "+" => "_+_",
                    _ => "_-_",
                };
                let l = self.visit(lhs)?;
                let id = self.id(self.tok_span(op));
                let r = self.visit_opt(rhs)?;
                self.global_call_or_macro(id, function, vec![l, r])
            }
            Node::Not { ops, member } | Node::Neg { ops, member } => {
                let function = if matches!(self.cst.get(n), Node::Not { .. }) {
                    "!_"
                } else {
                    "-_"
                };
                if ops.len() % 2 == 0 {
                    return self.visit_opt(member);
                }
                let id = self.id(self.tok_span(ops[0]));
                let target = self.visit_opt(member)?;
                self.global_call_or_macro(id, function, vec![target])
            }
            Node::Select {
                operand,
                op,
                opt,
                id,
            } => self.visit_select(operand, op, opt, id),
            Node::MemberCall {
                operand,
                id,
                open,
                args,
            } => {
                let target = self.visit(operand)?;
                let (Some(name), Some(open)) = (id, open) else {
                    return Ok(self.id(Span::default()));
                };
                let name = self.text(name).to_string();
                let call_id = self.id(self.tok_span(open));
                let args = self.visit_list(args.as_deref())?;
                self.receiver_call_or_macro(call_id, &name, target, args)
            }
            Node::Index {
                operand,
                op,
                opt,
                index,
            } => {
                let target = self.visit(operand)?;
                let Some(op) = op else {
                    return Ok(self.id(Span::default()));
                };
                let id = self.id(self.tok_span(op));
                let index = self.visit_opt(index)?;
                let function = if opt.is_some() {
                    if !self.opts.enable_optional_syntax {
                        return Ok(self.error(self.tok_span(op), "unsupported syntax '[?'".into()));
                    }
                    "_[?_]"
                } else {
                    "_[_]"
                };
                self.global_call_or_macro(id, function, vec![target, index])
            }
            Node::Ident { dot, id, start } => {
                let Some(id) = id else {
                    return Ok(self.id(self.tok_span(start)));
                };
                let name = self.text(id);
                if crate::escaping::is_reserved(name) {
                    let span = self.tok_span(dot.unwrap_or(id));
                    return Ok(self.error(span, format!("reserved identifier: {name}")));
                }
                let name = if dot.is_some() {
                    format!(".{name}")
                } else {
                    name.to_string()
                };
                Ok(self.new_expr(self.tok_span(id), ExprKind::Ident(name)))
            }
            Node::GlobalCall {
                dot,
                id,
                op,
                args,
                start,
            } => {
                let Some(id) = id else {
                    return Ok(self.id(self.tok_span(start)));
                };
                let name = self.text(id);
                if crate::escaping::is_reserved(name) {
                    let span = self.tok_span(dot.unwrap_or(id));
                    return Ok(self.error(span, format!("reserved identifier: {name}")));
                }
                let name = if dot.is_some() {
                    format!(".{name}")
                } else {
                    name.to_string()
                };
                let call_id = self.id(op.map_or(Span::default(), |op| self.tok_span(op)));
                let args = self.visit_list(args.as_deref())?;
                self.global_call_or_macro(call_id, &name, args)
            }
            Node::List { op, elems } => self.visit_list_literal(op, elems),
            Node::Map { op, entries } => self.visit_map(op, entries),
            Node::Message {
                dot,
                ids,
                op,
                entries,
            } => self.visit_message(dot, &ids, op, entries),
            Node::Lit {
                kind,
                sign,
                tok,
                start,
            } => self.visit_literal(kind, sign, tok, start),
            Node::EscIdent { start, .. } => Ok(self.id(self.tok_span(start))),
        }
    }

    pub(crate) fn visit_list(&mut self, args: Option<&[N]>) -> V<Vec<ExprId>> {
        args.unwrap_or_default()
            .iter()
            .map(|&a| self.visit(a))
            .collect()
    }

    /// `logicManager` without variadic ASTs: a balanced tree of the terms.
    fn logic(&mut self, function: &str, terms: &[ExprId], ops: &[ExprId]) -> ExprId {
        if terms.len() == 1 || ops.is_empty() {
            return terms[0];
        }
        if self.opts.variadic_logical_operators {
            let args = terms.to_vec();
            return self.set(
                ops[0],
                ExprKind::Call {
                    target: None,
                    function: function.into(),
                    args,
                },
            );
        }
        self.balanced(function, terms, ops, 0, ops.len() - 1)
    }

    fn balanced(
        &mut self,
        function: &str,
        terms: &[ExprId],
        ops: &[ExprId],
        lo: usize,
        hi: usize,
    ) -> ExprId {
        let mid = (lo + hi).div_ceil(2);
        let left = if mid == lo {
            terms[mid]
        } else {
            self.balanced(function, terms, ops, lo, mid - 1)
        };
        let right = if mid == hi {
            terms[mid + 1]
        } else {
            self.balanced(function, terms, ops, mid + 1, hi)
        };
        let kind = ExprKind::Call {
            target: None,
            function: function.into(),
            args: vec![left, right],
        };
        self.set(ops[mid], kind)
    }

    pub(crate) fn ident_text(
        &self,
        n: Option<N>,
    ) -> Result<(std::string::String, Span), std::string::String> {
        match n.map(|n| self.cst.get(n)) {
            Some(Node::EscIdent {
                escaped,
                id: Some(id),
                start,
            }) => {
                let text = self.text(*id);
                let span = self.tok_span(*start);
                if !*escaped {
                    return Ok((text.to_string(), span));
                }
                if !self.opts.enable_ident_escape_syntax {
                    return Err("unsupported syntax: '`'".into());
                }
                if text.len() <= 2 {
                    return Err("invalid escaped identifier: underflow".into());
                }
                Ok((text[1..text.len() - 1].to_string(), span))
            }
            _ => Err("unsupported ident kind".into()),
        }
    }

    fn visit_literal(
        &mut self,
        kind: LitKind,
        sign: Option<T>,
        tok: Option<T>,
        start: T,
    ) -> V<ExprId> {
        let span = match tok {
            Some(t) => Span {
                start: self.tok_span(start).start,
                end: self.tok_span(t).end,
            },
            None => self.tok_span(start),
        };
        let Some(tok) = tok else {
            return Ok(self.id(span));
        };
        let text = self.text(tok);
        let lit = match kind {
            LitKind::Int => {
                let (digits, radix) = match text.strip_prefix("0x") {
                    Some(h) => (h, 16),
                    None => (text, 10),
                };
                let s = if sign.is_some() {
                    format!("-{digits}")
                } else {
                    digits.to_string()
                };
                match i64::from_str_radix(&s, radix) {
                    Ok(v) => Literal::Int(v),
                    Err(_) => return Ok(self.error(span, "invalid int literal".into())),
                }
            }
            LitKind::Uint => {
                let t = &text[..text.len().saturating_sub(1)];
                let (digits, radix) = match t.strip_prefix("0x") {
                    Some(h) => (h, 16),
                    None => (t, 10),
                };
                match u64::from_str_radix(digits, radix) {
                    Ok(v) => Literal::Uint(v),
                    Err(_) => return Ok(self.error(span, "invalid uint literal".into())),
                }
            }
            LitKind::Double => {
                let s = if sign.is_some() {
                    format!("-{text}")
                } else {
                    text.to_string()
                };
                match s.parse::<f64>() {
                    Ok(v) if v.is_finite() => Literal::Double(v),
                    _ => return Ok(self.error(span, "invalid double literal".into())),
                }
            }
            LitKind::String => match unescape(text, false) {
                Ok(b) => Literal::String(std::string::String::from_utf8(b).unwrap_or_default()),
                Err(e) => {
                    self.error(span, e.into());
                    Literal::String(text.to_string())
                }
            },
            LitKind::Bytes => match unescape(&text[1..], true) {
                Ok(b) => Literal::Bytes(b),
                Err(e) => {
                    self.error(span, e.into());
                    Literal::Bytes(text.as_bytes()[1..].to_vec())
                }
            },
            LitKind::True => Literal::Bool(true),
            LitKind::False => Literal::Bool(false),
            LitKind::Null => Literal::Null,
        };
        Ok(self.new_expr(span, ExprKind::Literal(lit)))
    }
}
