//! Planning: turns a parsed [`Ast`] into the node tree of `node.rs`. Mirrors cel-go
//! `interpreter/planner.go` (attributes and qualifiers, specialised `&&`, `||`, `?:`, `==`,
//! `_[_]`), the `OptOptimize` decorators of `interpreter/decorators.go` (constant list and map
//! literals, constant conversions, `in` against a constant list) and the regex precompilation
//! of `interpreter/optimizations.go`, because those choices decide the runtime cost.

use std::sync::Arc;

use super::CompileError;
use super::node::{Base, Call, Fold, IntOp, Node, RegexCall, RegexKind, Step};
use super::plan::{add_qual, attr, const_set, field_qual, index_qual, literal, uncharged};
use crate::check::CheckedAst;
use crate::library as lib;
use crate::value::{List, ListKind, Map, Type, Value};
use crate::{Ast, ExprId, ExprKind, Literal};

pub(crate) struct Planner<'p> {
    pub ast: &'p Ast,
    /// The checker's output when the program is compiled from a checked expression: calls
    /// then follow its overloads (`overload.rs`).
    pub checked: Option<&'p CheckedAst>,
    pub vars: &'p [String],
    pub version: (u32, u32),
    pub fold_constants: bool,
    pub env: &'p lib::Env,
    locals: Vec<String>,
    pub max_locals: usize,
}

type R = Result<Node, CompileError>;

impl<'p> Planner<'p> {
    pub(crate) fn new(
        ast: &'p Ast,
        vars: &'p [String],
        version: (u32, u32),
        fold_constants: bool,
        env: &'p lib::Env,
    ) -> Self {
        Planner {
            ast,
            checked: None,
            vars,
            version,
            fold_constants,
            env,
            locals: Vec::new(),
            max_locals: 0,
        }
    }

    fn local(&self, name: &str) -> Option<usize> {
        self.locals.iter().rposition(|l| l == name)
    }

    fn push_local(&mut self, name: &str) -> usize {
        self.locals.push(name.to_string());
        self.max_locals = self.max_locals.max(self.locals.len());
        self.locals.len() - 1
    }

    pub(crate) fn plan(&mut self, id: ExprId) -> R {
        let e = &self.ast[id];
        match &e.kind {
            ExprKind::Unspecified => Err(CompileError::new("unsupported expr: unspecified")),
            ExprKind::Literal(l) => Ok(literal(l)),
            ExprKind::Ident(name) => Ok(self.ident(name)),
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => {
                if !test_only && let Some(n) = self.qualified(id) {
                    return Ok(n);
                }
                let op = self.plan(*operand)?;
                Ok(add_qual(op, field_qual(field, false), *test_only))
            }
            ExprKind::Call {
                target,
                function,
                args,
            } => self.call(id, *target, function, args),
            ExprKind::List {
                elems,
                optional_indices,
            } => {
                let mut out = Vec::with_capacity(elems.len());
                for (i, e) in elems.iter().enumerate() {
                    let opt = optional_indices.contains(&(i as u32));
                    out.push((self.plan(*e)?, opt));
                }
                if self.fold_constants && out.iter().all(|(n, o)| !o && n.as_const().is_some()) {
                    let items = out.iter().filter_map(|(n, _)| n.as_const()).collect();
                    return Ok(Node::Const(Value::List(List::Owned(
                        Arc::new(items),
                        ListKind::Plain,
                    ))));
                }
                Ok(Node::List(out.into_boxed_slice()))
            }
            ExprKind::Map { entries } => {
                let mut out = Vec::with_capacity(entries.len());
                for en in entries {
                    out.push((self.plan(en.key)?, self.plan(en.value)?, en.optional));
                }
                if self.fold_constants
                    && out
                        .iter()
                        .all(|(k, v, o)| !o && k.as_const().is_some() && v.as_const().is_some())
                {
                    let mut m = crate::value::map::OwnedMap::new();
                    let mut ok = true;
                    for (k, v, _) in &out {
                        let (Some(k), Some(v)) = (k.as_const(), v.as_const()) else {
                            continue;
                        };
                        ok &= m.insert(k, v).is_ok();
                    }
                    if ok {
                        return Ok(Node::Const(Value::Map(Map::Owned(Arc::new(m)))));
                    }
                }
                Ok(Node::Map(out.into_boxed_slice()))
            }
            ExprKind::Struct { type_name, .. } => {
                Err(CompileError::new(format!("unknown type: {type_name}")))
            }
            ExprKind::Comprehension(c) => {
                if let Some((all, pred)) = self.quantifier(c) {
                    let range = self.plan(c.iter_range)?;
                    let accu = self.push_local(&c.accu_var);
                    let iter_slot = self.push_local(&c.iter_var);
                    let iter2_slot = c.iter_var2.as_deref().map(|v| self.push_local(v));
                    let pred = self.plan(pred)?;
                    self.locals.truncate(accu);
                    return Ok(Node::Quant(Box::new(super::node::Quant {
                        all,
                        iter_slot,
                        iter2_slot,
                        range,
                        pred,
                    })));
                }
                let range = self.plan(c.iter_range)?;
                let init = self.plan(c.accu_init)?;
                let accu_slot = self.push_local(&c.accu_var);
                let iter_slot = self.push_local(&c.iter_var);
                let iter2_slot = c.iter_var2.as_deref().map(|v| self.push_local(v));
                let cond = self.plan(c.loop_condition)?;
                let step = self.step(c.loop_step, &c.accu_var)?;
                self.locals.truncate(accu_slot + 1);
                let result = self.plan(c.result)?;
                self.locals.truncate(accu_slot);
                Ok(Node::Fold(Box::new(Fold {
                    iter_slot,
                    iter2_slot,
                    accu_slot,
                    range,
                    init,
                    cond,
                    step,
                    result,
                })))
            }
        }
    }

    /// Recognises the expansion of `all` (`true`, `@not_strictly_false(@result)`,
    /// `@result && p`, `@result`) and `exists` (`false`, `@not_strictly_false(!@result)`,
    /// `@result || p`, `@result`); returns (is `all`, `p`).
    fn quantifier(&self, c: &crate::Comprehension) -> Option<(bool, ExprId)> {
        let ast = self.ast;
        let is_accu = |id: ExprId| matches!(ast.kind(id), ExprKind::Ident(n) if *n == c.accu_var);
        let call = |id: ExprId| match ast.kind(id) {
            ExprKind::Call {
                target: None,
                function,
                args,
            } => Some((function.as_str(), args)),
            _ => None,
        };
        let all = match ast.kind(c.accu_init) {
            ExprKind::Literal(Literal::Bool(b)) => *b,
            _ => return None,
        };
        let (nsf, nargs) = call(c.loop_condition)?;
        if nsf != "@not_strictly_false" || nargs.len() != 1 {
            return None;
        }
        if all {
            if !is_accu(nargs[0]) {
                return None;
            }
        } else {
            let (not, a) = call(nargs[0])?;
            if not != "!_" || a.len() != 1 || !is_accu(a[0]) {
                return None;
            }
        }
        let (op, sargs) = call(c.loop_step)?;
        let want = if all { "_&&_" } else { "_||_" };
        if op != want || sargs.len() != 2 || !is_accu(sargs[0]) || !is_accu(c.result) {
            return None;
        }
        Some((all, sargs[1]))
    }

    /// Recognises the macros' `@result + [e]` accumulation (optionally under `p ? .. : @result`).
    fn step(&mut self, id: ExprId, accu: &str) -> Result<Step, CompileError> {
        let append_elem = |ast: &Ast, id: ExprId| -> Option<ExprId> {
            let ExprKind::Call {
                target: None,
                function,
                args,
            } = ast.kind(id)
            else {
                return None;
            };
            if function != "_+_" || args.len() != 2 {
                return None;
            }
            let is_accu = matches!(ast.kind(args[0]), ExprKind::Ident(n) if n == accu);
            match ast.kind(args[1]) {
                ExprKind::List {
                    elems,
                    optional_indices,
                } if is_accu && elems.len() == 1 && optional_indices.is_empty() => Some(elems[0]),
                _ => None,
            }
        };
        if let Some(e) = append_elem(self.ast, id) {
            return Ok(Step::Append(self.plan(e)?));
        }
        if let ExprKind::Call {
            target: None,
            function,
            args,
        } = self.ast.kind(id)
            && function == "_?_:_"
            && args.len() == 3
            && matches!(self.ast.kind(args[2]), ExprKind::Ident(n) if n == accu)
            && let Some(e) = append_elem(self.ast, args[1])
        {
            let c = self.plan(args[0])?;
            return Ok(Step::AppendIf(c, self.plan(e)?));
        }
        Ok(Step::Expr(self.plan(id)?))
    }

    fn ident(&self, name: &str) -> Node {
        if let Some(slot) = self.local(name) {
            return attr(Base::Local(slot));
        }
        if let Some(slot) = self.vars.iter().position(|v| v == name) {
            return attr(Base::Var(slot));
        }
        if let Some(t) = Type::by_name(name) {
            return Node::Const(Value::Type(t));
        }
        attr(Base::Missing(name.into()))
    }

    /// The dotted name of an ident/select chain (`a.b.c`), unless it starts with a local.
    fn dotted(&self, id: ExprId) -> Option<String> {
        match self.ast.kind(id) {
            ExprKind::Ident(n) if self.local(n).is_none() => Some(n.clone()),
            ExprKind::Select {
                operand,
                field,
                test_only: false,
            } => Some(format!("{}.{field}", self.dotted(*operand)?)),
            _ => None,
        }
    }

    /// `a.b.c` naming a variable or type as a whole (cel-go's most qualified candidate first).
    fn qualified(&self, id: ExprId) -> Option<Node> {
        let name = self.dotted(id)?;
        if let Some(slot) = self.vars.iter().position(|v| *v == name) {
            return Some(attr(Base::Var(slot)));
        }
        let root = name.split('.').next().unwrap_or_default();
        if self.vars.iter().any(|v| v == root) {
            return None;
        }
        Type::by_name(&name).map(|t| Node::Const(Value::Type(t)))
    }

    fn plan_args(
        &mut self,
        target: Option<ExprId>,
        args: &[ExprId],
    ) -> Result<Vec<Node>, CompileError> {
        let mut out = Vec::with_capacity(args.len() + 1);
        if let Some(t) = target {
            out.push(self.plan(t)?);
        }
        for a in args {
            out.push(self.plan(*a)?);
        }
        Ok(out)
    }

    fn call(&mut self, id: ExprId, target: Option<ExprId>, function: &str, args: &[ExprId]) -> R {
        match (function, target, args.len()) {
            ("_&&_" | "_||_", None, _) => {
                let ts = self.plan_args(None, args)?;
                return Ok(Node::Logic(ts.into_boxed_slice(), function == "_&&_"));
            }
            ("_?_:_", None, 3) => {
                let mut ts = self.plan_args(None, args)?.into_iter();
                let (c, t, f) = (ts.next(), ts.next(), ts.next());
                let (Some(c), Some(t), Some(f)) = (c, t, f) else {
                    return Err(CompileError::new("invalid conditional"));
                };
                return Ok(Node::Cond(Box::new((c, uncharged(t), uncharged(f)))));
            }
            ("_==_" | "_!=_", None, 2) => {
                let mut ts = self.plan_args(None, args)?.into_iter();
                let (Some(a), Some(b)) = (ts.next(), ts.next()) else {
                    return Err(CompileError::new("invalid equality"));
                };
                return Ok(Node::Eq(Box::new((a, b)), function == "_!=_"));
            }
            ("_[_]" | "_[?_]", None, 2) => {
                let op = self.plan(args[0])?;
                let idx = self.plan(args[1])?;
                let q = index_qual(idx, function == "_[?_]");
                return Ok(add_qual(op, q, false));
            }
            ("_?._", None, 2) => {
                let op = self.plan(args[0])?;
                let ExprKind::Literal(Literal::String(f)) = self.ast.kind(args[1]) else {
                    return Err(CompileError::new("unsupported optional field selection"));
                };
                return Ok(add_qual(op, field_qual(f, true), false));
            }
            ("@not_strictly_false" | "__not_strictly_false__", None, 1) => {
                let a = self.plan(args[0])?;
                return Ok(Node::NotStrictlyFalse(Box::new(a)));
            }
            ("or" | "orValue", Some(t), 1) => {
                let a = self.plan(t)?;
                let b = self.plan(args[0])?;
                return Ok(Node::OptOr(Box::new((a, b)), function == "orValue"));
            }
            _ => {}
        }
        // `optional.of(x)`, `sets.contains(..)`: a qualified global function name.
        if let Some(t) = target
            && let Some(prefix) = self.dotted(t)
            && !self
                .vars
                .iter()
                .any(|v| *v == prefix || prefix.starts_with(&format!("{v}.")))
        {
            let full = format!("{prefix}.{function}");
            if lib::has_global(&full, self.version) {
                return self.function(id, &full, None, args);
            }
        }
        self.function(id, function, target, args)
    }

    fn function(&mut self, id: ExprId, name: &str, target: Option<ExprId>, args: &[ExprId]) -> R {
        let argc = args.len() + usize::from(target.is_some());
        let Some(def) = lib::lookup(name, target.is_some(), argc, self.version) else {
            if lib::lookup(name, target.is_some(), argc, (u32::MAX, u32::MAX)).is_some() {
                // Introduced after the target Kubernetes version: undeclared there.
                return Err(CompileError::new(format!(
                    "undeclared reference to '{name}' (in container '')"
                )));
            }
            // As cel-go plans a parsed-only expression: the call fails when evaluated (the type
            // checker rejects it first in Kubernetes).
            return Ok(Node::Error(super::EvalError::no_such_overload_fn(name)));
        };
        let nodes = self.plan_args(target, args)?;
        if name == "@in"
            && self.fold_constants
            && let Some(Value::List(List::Owned(items, _))) = nodes[1].as_const()
            && let Some(set) = const_set(&items)
        {
            let mut it = nodes.into_iter();
            let lhs = it.next().unwrap_or(Node::Const(Value::Null));
            return Ok(Node::InSet(Box::new(lhs), set));
        }
        if self.fold_constants
            && crate::library::stdlib::is_conversion(name)
            && let Some(v) = nodes[0].as_const()
            && let Ok(r) = (def.imp)(self.env, &[v])
        {
            return Ok(Node::Const(r));
        }
        let (imp, cost) = super::overload::resolve(def, self.checked.map(|c| c.overload_ids(id)));
        // Constant patterns are compiled with the program; an invalid one fails it (cel-go's
        // `MatchesRegexOptimization` under `OptOptimize`, apiserver's
        // `ExtensionLibRegexOptimizations` for `find`/`findAll` always).
        let regex = match (name, target.is_some()) {
            ("matches", _) if self.fold_constants => Some(RegexKind::Matches),
            ("find", true) => Some(RegexKind::Find),
            ("findAll", true) => Some(RegexKind::FindAll),
            _ => None,
        };
        if let Some(kind) = regex
            && let Some(Value::String(p)) = nodes.get(1).and_then(Node::as_const)
        {
            let re = lib::regex_lib::compile(&p).map_err(CompileError::new)?;
            return Ok(Node::Regex(Box::new(RegexCall {
                call: Call {
                    imp,
                    cost,
                    args: nodes.into_boxed_slice(),
                },
                regex: Arc::new(re),
                kind,
            })));
        }
        let op = match name {
            "_<_" => Some(IntOp::Lt),
            "_<=_" => Some(IntOp::Le),
            "_>_" => Some(IntOp::Gt),
            "_>=_" => Some(IntOp::Ge),
            "_+_" => Some(IntOp::Add),
            "_-_" => Some(IntOp::Sub),
            _ => None,
        };
        let call = Box::new(Call {
            imp,
            cost,
            args: nodes.into_boxed_slice(),
        });
        Ok(match op {
            Some(op) if call.args.len() == 2 => Node::IntOp(call, op),
            _ => Node::Call(call),
        })
    }
}
