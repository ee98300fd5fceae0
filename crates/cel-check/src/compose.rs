//! The rest of cel-go's visitor (`parser/parser.go`): selections, aggregates, message
//! construction, and the hand-off of calls to macro expansion (`expandMacro`).

use super::ast::{ExprId, ExprKind, Literal, MacroCall, MapEntry, Span, StructField};
use super::cst::{Inits, N, OptExpr, OptField, T};
use super::macros::{self, Expansion};
use super::visit::{Builder, V};

impl Builder<'_> {
    pub(crate) fn visit_select(
        &mut self,
        operand: N,
        op: Option<T>,
        opt: Option<T>,
        id: Option<N>,
    ) -> V<ExprId> {
        let target = self.visit(operand)?;
        let (Some(op), Some(_)) = (op, id) else {
            return Ok(self.id(Span::default()));
        };
        let field = match self.ident_text(id) {
            Ok((f, _)) => f,
            Err(e) => {
                let span = self.esc_span(id);
                self.error(span, e);
                std::string::String::new()
            }
        };
        let op_span = self.tok_span(op);
        if opt.is_some() {
            if !self.opts.enable_optional_syntax {
                return Ok(self.error(op_span, "unsupported syntax '.?'".into()));
            }
            let span = self.esc_span(id);
            let lit = self.new_expr(span, ExprKind::Literal(Literal::String(field)));
            let call = self.id(op_span);
            let kind = ExprKind::Call {
                target: None,
                function: "_?._".into(),
                args: vec![target, lit],
            };
            return Ok(self.set(call, kind));
        }
        Ok(self.new_expr(
            op_span,
            ExprKind::Select {
                operand: target,
                field,
                test_only: false,
            },
        ))
    }

    fn esc_span(&self, id: Option<N>) -> Span {
        match id.map(|n| self.cst.get(n)) {
            Some(super::cst::Node::EscIdent { start, .. }) => self.tok_span(*start),
            _ => Span::default(),
        }
    }

    pub(crate) fn visit_list_literal(&mut self, op: T, elems: Option<Vec<OptExpr>>) -> V<ExprId> {
        let id = self.id(self.tok_span(op));
        let (mut out, mut optional) = (Vec::new(), Vec::new());
        for (i, e) in elems.unwrap_or_default().into_iter().enumerate() {
            out.push(self.visit_opt(e.e)?);
            if let Some(q) = e.opt {
                if !self.opts.enable_optional_syntax {
                    self.error(self.tok_span(q), "unsupported syntax '?'".into());
                    continue;
                }
                optional.push(i as u32);
            }
        }
        Ok(self.set(
            id,
            ExprKind::List {
                elems: out,
                optional_indices: optional,
            },
        ))
    }

    pub(crate) fn visit_map(&mut self, op: T, entries: Option<Inits<OptExpr>>) -> V<ExprId> {
        let id = self.id(self.tok_span(op));
        let mut out = Vec::new();
        if let Some(inits) = entries {
            for (i, &col) in inits.cols.iter().enumerate() {
                let entry_id = self.id(self.tok_span(col));
                let (Some(key), Some(&value)) = (inits.keys.get(i), inits.values.get(i)) else {
                    out.clear();
                    break;
                };
                let optional = key.opt.is_some();
                if optional && !self.opts.enable_optional_syntax {
                    self.error(self.tok_span(key.start), "unsupported syntax '?'".into());
                    continue;
                }
                let k = self.visit_opt(key.e)?;
                let v = self.visit(value)?;
                out.push(MapEntry {
                    id: entry_id,
                    key: k,
                    value: v,
                    optional,
                });
            }
        }
        Ok(self.set(id, ExprKind::Map { entries: out }))
    }

    pub(crate) fn visit_message(
        &mut self,
        dot: Option<T>,
        ids: &[T],
        op: Option<T>,
        entries: Option<Inits<OptField>>,
    ) -> V<ExprId> {
        let mut name = ids
            .iter()
            .map(|&t| self.token_text(t))
            .collect::<Vec<_>>()
            .join(".");
        if dot.is_some() {
            name.insert(0, '.');
        }
        let id = self.id(op.map_or(Span::default(), |op| self.tok_span(op)));
        let mut fields = Vec::new();
        if let Some(inits) = entries {
            for (i, key) in inits.keys.iter().enumerate() {
                let (Some(&col), Some(&value)) = (inits.cols.get(i), inits.values.get(i)) else {
                    fields.clear();
                    break;
                };
                let field_id = self.id(self.tok_span(col));
                let optional = key.opt.is_some();
                if optional && !self.opts.enable_optional_syntax {
                    self.error(self.tok_span(key.start), "unsupported syntax '?'".into());
                    continue;
                }
                let field = match self.ident_text(key.ident) {
                    Ok((f, _)) => f,
                    Err(e) => {
                        // cel-go reports this at the whole initializer list.
                        let span = self.tok_span(inits.keys[0].start);
                        self.error(span, e);
                        continue;
                    }
                };
                let v = self.visit(value)?;
                fields.push(StructField {
                    id: field_id,
                    field,
                    value: v,
                    optional,
                });
            }
        }
        Ok(self.set(
            id,
            ExprKind::Struct {
                type_name: name,
                fields,
            },
        ))
    }

    fn token_text(&self, t: T) -> std::string::String {
        let tok = &self.toks[t as usize];
        self.src
            .get(tok.start as usize..tok.end as usize)
            .unwrap_or_default()
            .to_string()
    }

    pub(crate) fn global_call_or_macro(
        &mut self,
        id: ExprId,
        function: &str,
        args: Vec<ExprId>,
    ) -> V<ExprId> {
        if let Some(e) = self.expand(id, function, None, &args) {
            return Ok(e);
        }
        Ok(self.set(
            id,
            ExprKind::Call {
                target: None,
                function: function.into(),
                args,
            },
        ))
    }

    pub(crate) fn receiver_call_or_macro(
        &mut self,
        id: ExprId,
        function: &str,
        target: ExprId,
        args: Vec<ExprId>,
    ) -> V<ExprId> {
        if let Some(e) = self.expand(id, function, Some(target), &args) {
            return Ok(e);
        }
        Ok(self.set(
            id,
            ExprKind::Call {
                target: Some(target),
                function: function.into(),
                args,
            },
        ))
    }

    /// `expandMacro`: looks the call up by name, argument count and call style.
    fn expand(
        &mut self,
        id: ExprId,
        function: &str,
        target: Option<ExprId>,
        args: &[ExprId],
    ) -> Option<ExprId> {
        let m = macros::find(&self.opts.macros, function, args.len(), target.is_some())?;
        match macros::expand(self, m.kind, id, target, args) {
            Expansion::Expanded(e) => {
                let call = MacroCall {
                    function: function.into(),
                    target,
                    args: args.to_vec(),
                };
                self.macro_calls.insert(e, call);
                self.delete_id(id);
                Some(e)
            }
            Expansion::Error(at, msg) => {
                let span = at.map_or(self.exprs[id.index()].span, |a| self.exprs[a.index()].span);
                self.delete_id(id);
                Some(self.error(span, msg))
            }
        }
    }
}
