//! Macro expansion, table-driven: cel-go `parser/macro.go` (has, all, exists, exists_one,
//! existsOne, map, filter), `ext/comprehensions.go` (two-variable all, exists, existsOne,
//! exists_one, transformList, transformMap, transformMapEntry), `cel/library.go` (optMap,
//! optFlatMap) and `ext/lists.go` (sortBy).
//!
//! Ids are allocated in the order Go evaluates the expanders' calls (arguments left to right,
//! innermost first); every node an expander creates is placed at the macro call's position.

use super::ast::{Comprehension, ExprId, ExprKind, Literal, MapEntry, Span, StructField};
use super::visit::Builder;

/// Which expander a macro uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MacroKind {
    /// `has(a.f)`: the presence test, a [`crate::ExprKind::Select`] with
    /// `test_only`; no comprehension.
    Has,
    /// `l.all(x, p)`: whether `p` holds for every element (every key of a map).
    All,
    /// `l.exists(x, p)`: whether `p` holds for some element.
    Exists,
    /// `l.exists_one(x, p)`, `l.existsOne(x, p)`: whether `p` holds for exactly one element.
    ExistsOne,
    /// `map(x, f)` and `map(x, p, f)`.
    Map,
    /// `l.filter(x, p)`: the elements for which `p` holds.
    Filter,
    /// Two-variable `all(k, v, p)`.
    All2,
    /// Two-variable `exists(k, v, p)`.
    Exists2,
    /// Two-variable `existsOne(k, v, p)` (and `exists_one`).
    ExistsOne2,
    /// `transformList(i, v, f)` and `transformList(i, v, p, f)`: a list of `f` over index (or key)
    /// and value, filtered by `p`.
    TransformList,
    /// `transformMap(k, v, f)` and `transformMap(k, v, p, f)`: the same keys mapped to `f`,
    /// filtered by `p`.
    TransformMap,
    /// `transformMapEntry(k, v, f)` and its filtered form: `f` returns a one-entry map; the entries
    /// are merged (a duplicate key is an error).
    TransformMapEntry,
    /// `o.optMap(x, f)`: `optional.of(f)` with `x` bound to the value, or `optional.none()`.
    OptMap,
    /// `o.optFlatMap(x, f)`: as `optMap`, but `f` itself returns an optional.
    OptFlatMap,
    /// `l.sortBy(x, key)`: the elements sorted by `key`.
    SortBy,
}

/// A macro: name, argument count (`None` for any) and whether it is called on a receiver.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Macro {
    /// The function name that triggers it (`all`, `exists_one`).
    pub name: &'static str,
    /// The argument count, receiver not counted; `None` for a macro of any arity.
    pub args: Option<usize>,
    /// Called as `target.name(..)` rather than `name(..)`.
    pub receiver: bool,
    /// The expander.
    pub kind: MacroKind,
}

const fn m(name: &'static str, args: usize, receiver: bool, kind: MacroKind) -> Macro {
    Macro {
        name,
        args: Some(args),
        receiver,
        kind,
    }
}

use MacroKind::*;

/// cel-go `StandardMacros` (what `cel.NewEnv` enables).
pub const STANDARD_MACROS: &[Macro] = &[
    m("has", 1, false, Has),
    m("all", 2, true, All),
    m("exists", 2, true, Exists),
    m("exists_one", 2, true, ExistsOne),
    m("map", 2, true, Map),
    m("map", 3, true, Map),
    m("filter", 2, true, Filter),
];

/// `existsOne(x, p)`: in cel-go's `AllMacros` (its parser tests) but not in `StandardMacros`.
pub const EXISTS_ONE_NEW_MACRO: &[Macro] = &[m("existsOne", 2, true, ExistsOne)];

/// `ext.TwoVarComprehensions()` (Kubernetes 1.32+).
pub const TWO_VAR_MACROS: &[Macro] = &[
    m("all", 3, true, All2),
    m("exists", 3, true, Exists2),
    m("existsOne", 3, true, ExistsOne2),
    m("exists_one", 3, true, ExistsOne2),
    m("transformList", 3, true, TransformList),
    m("transformList", 4, true, TransformList),
    m("transformMap", 3, true, TransformMap),
    m("transformMap", 4, true, TransformMap),
    m("transformMapEntry", 3, true, TransformMapEntry),
    m("transformMapEntry", 4, true, TransformMapEntry),
];

/// `cel.OptionalTypes()` (Kubernetes 1.28+; optFlatMap from optional library version 1).
pub const OPTIONAL_MACROS: &[Macro] = &[
    m("optMap", 2, true, OptMap),
    m("optFlatMap", 2, true, OptFlatMap),
];

/// `ext.Lists()` version 2 and later (Kubernetes 1.34+).
pub const LISTS_MACROS: &[Macro] = &[m("sortBy", 2, true, SortBy)];

/// The cel-go lookup: exact arity first, then a variadic macro of that name.
pub(crate) fn find(macros: &[Macro], name: &str, args: usize, receiver: bool) -> Option<Macro> {
    let hit = |exact: bool| {
        macros.iter().rev().find(|m| {
            m.name == name
                && m.receiver == receiver
                && if exact {
                    m.args == Some(args)
                } else {
                    m.args.is_none()
                }
        })
    };
    hit(true).or_else(|| hit(false)).copied()
}

pub(crate) enum Expansion {
    Expanded(ExprId),
    /// An error at an argument (or, with `None`, at the call).
    Error(Option<ExprId>, String),
}

const NOT_STRICTLY_FALSE: &str = "@not_strictly_false";
const LEGACY_ACCU: &str = "__result__";

/// Node factory for one expansion (cel-go `exprHelper`).
struct Eh<'b, 'a> {
    b: &'b mut Builder<'a>,
    at: Span,
}

impl Eh<'_, '_> {
    fn node(&mut self, kind: ExprKind) -> ExprId {
        let at = Span {
            start: self.at.start,
            end: self.at.start,
        };
        self.b.new_expr(at, kind)
    }
    fn lit(&mut self, l: Literal) -> ExprId {
        self.node(ExprKind::Literal(l))
    }
    fn ident(&mut self, name: &str) -> ExprId {
        self.node(ExprKind::Ident(name.into()))
    }
    fn accu(&mut self) -> ExprId {
        let name = self.b.opts.accumulator_name();
        self.ident(name)
    }
    fn call(&mut self, f: &str, args: Vec<ExprId>) -> ExprId {
        self.node(ExprKind::Call {
            target: None,
            function: f.into(),
            args,
        })
    }
    fn member(&mut self, f: &str, target: ExprId, args: Vec<ExprId>) -> ExprId {
        self.node(ExprKind::Call {
            target: Some(target),
            function: f.into(),
            args,
        })
    }
    fn list(&mut self, elems: Vec<ExprId>) -> ExprId {
        self.node(ExprKind::List {
            elems,
            optional_indices: Vec::new(),
        })
    }
    #[allow(clippy::too_many_arguments)]
    fn fold(
        &mut self,
        range: ExprId,
        v1: &str,
        v2: Option<&str>,
        accu: &str,
        init: ExprId,
        cond: ExprId,
        step: ExprId,
        result: ExprId,
    ) -> ExprId {
        self.node(ExprKind::Comprehension(Box::new(Comprehension {
            iter_var: v1.into(),
            iter_var2: v2.map(Into::into),
            iter_range: range,
            accu_var: accu.into(),
            accu_init: init,
            loop_condition: cond,
            loop_step: step,
            result,
        })))
    }
    fn ident_of(&self, e: ExprId) -> Option<String> {
        match &self.b.exprs[e.index()].kind {
            ExprKind::Ident(n) => Some(n.clone()),
            _ => None,
        }
    }

    /// `exprHelper.Copy`: a deep copy with fresh ids, keeping each node's span.
    fn copy(&mut self, e: ExprId) -> ExprId {
        let span = self.b.exprs[e.index()].span;
        let id = self.b.id(span);
        let kind = match self.b.exprs[e.index()].kind.clone() {
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => ExprKind::Select {
                operand: self.copy(operand),
                field,
                test_only,
            },
            ExprKind::Call {
                target,
                function,
                args,
            } => {
                let args = args.into_iter().map(|a| self.copy(a)).collect();
                ExprKind::Call {
                    target: target.map(|t| self.copy(t)),
                    function,
                    args,
                }
            }
            ExprKind::List {
                elems,
                optional_indices,
            } => ExprKind::List {
                elems: elems.into_iter().map(|a| self.copy(a)).collect(),
                optional_indices,
            },
            ExprKind::Map { entries } => ExprKind::Map {
                entries: entries
                    .into_iter()
                    .map(|en| {
                        let id = self.node(ExprKind::Unspecified);
                        MapEntry {
                            id,
                            key: self.copy(en.key),
                            value: self.copy(en.value),
                            optional: en.optional,
                        }
                    })
                    .collect(),
            },
            ExprKind::Struct { type_name, fields } => ExprKind::Struct {
                type_name,
                fields: fields
                    .into_iter()
                    .map(|f| {
                        let id = self.node(ExprKind::Unspecified);
                        StructField {
                            id,
                            field: f.field,
                            value: self.copy(f.value),
                            optional: f.optional,
                        }
                    })
                    .collect(),
            },
            ExprKind::Comprehension(c) => {
                let c = *c;
                let iter_range = self.copy(c.iter_range);
                let accu_init = self.copy(c.accu_init);
                let loop_condition = self.copy(c.loop_condition);
                let loop_step = self.copy(c.loop_step);
                let result = self.copy(c.result);
                ExprKind::Comprehension(Box::new(Comprehension {
                    iter_range,
                    accu_init,
                    loop_condition,
                    loop_step,
                    result,
                    ..c
                }))
            }
            other => other,
        };
        self.b.set(id, kind)
    }
}

pub(crate) fn expand(
    b: &mut Builder<'_>,
    kind: MacroKind,
    call: ExprId,
    target: Option<ExprId>,
    args: &[ExprId],
) -> Expansion {
    let at = b.exprs[call.index()].span;
    let mut eh = Eh { b, at };
    match expand_with(&mut eh, kind, target, args) {
        Ok(e) => Expansion::Expanded(e),
        Err((at, msg)) => Expansion::Error(at, msg),
    }
}

type Err = (Option<ExprId>, String);
type Out = Result<ExprId, Err>;

fn var(eh: &Eh, e: ExprId, msg: &'static str) -> Result<String, Err> {
    let v = eh.ident_of(e).ok_or((Some(e), msg.to_string()))?;
    if v == eh.b.opts.accumulator_name() || v == LEGACY_ACCU {
        return Err((
            Some(e),
            "iteration variable overwrites accumulator variable".into(),
        ));
    }
    Ok(v)
}

fn expand_with(eh: &mut Eh, kind: MacroKind, target: Option<ExprId>, args: &[ExprId]) -> Out {
    let accu = eh.b.opts.accumulator_name();
    let t = target.unwrap_or(ExprId(0));
    match kind {
        Has => match eh.b.exprs[args[0].index()].kind.clone() {
            ExprKind::Select { operand, field, .. } => Ok(eh.node(ExprKind::Select {
                operand,
                field,
                test_only: true,
            })),
            _ => Err((Some(args[0]), "invalid argument to has() macro".into())),
        },
        All | Exists | ExistsOne => {
            let v = var(eh, args[0], "argument must be a simple name")?;
            quantifier(eh, kind, t, &v, None, args[1], accu)
        }
        All2 | Exists2 | ExistsOne2 => {
            let (v1, v2) = two_vars(eh, args)?;
            quantifier(eh, kind, t, &v1, Some(&v2), args[2], accu)
        }
        Map | Filter => make_map(eh, kind, t, args, accu),
        TransformList | TransformMap | TransformMapEntry => {
            let (v1, v2) = two_vars(eh, args)?;
            let (filter, transform) = if args.len() == 4 {
                (Some(args[2]), args[3])
            } else {
                (None, args[2])
            };
            let (init, mut step) = match kind {
                TransformList => {
                    let a = eh.accu();
                    let l = eh.list(vec![transform]);
                    (None, eh.call("_+_", vec![a, l]))
                }
                TransformMap => {
                    let a = eh.accu();
                    let k = eh.ident(&v1);
                    (Some(()), eh.call("cel.@mapInsert", vec![a, k, transform]))
                }
                _ => {
                    let a = eh.accu();
                    (Some(()), eh.call("cel.@mapInsert", vec![a, transform]))
                }
            };
            if let Some(f) = filter {
                let a = eh.accu();
                step = eh.call("_?_:_", vec![f, step, a]);
            }
            let init = match init {
                None => eh.list(vec![]),
                Some(()) => eh.node(ExprKind::Map { entries: vec![] }),
            };
            let cond = eh.lit(Literal::Bool(true));
            let result = eh.accu();
            Ok(eh.fold(t, &v1, Some(&v2), accu, init, cond, step, result))
        }
        OptMap | OptFlatMap => {
            let msg = if kind == OptMap {
                "optMap() variable name must be a simple identifier"
            } else {
                "optFlatMap() variable name must be a simple identifier"
            };
            let v = eh
                .ident_of(args[0])
                .ok_or((Some(args[0]), msg.to_string()))?;
            let has_value = eh.member("hasValue", t, vec![]);
            let range = eh.list(vec![]);
            let copied = eh.copy(t);
            let value = eh.member("value", copied, vec![]);
            let cond = eh.lit(Literal::Bool(false));
            let step = eh.ident(&v);
            let mut fold = eh.fold(range, "#unused", None, &v, value, cond, step, args[1]);
            if kind == OptMap {
                fold = eh.call("optional.of", vec![fold]);
            }
            let none = eh.call("optional.none", vec![]);
            Ok(eh.call("_?_:_", vec![has_value, fold, none]))
        }
        SortBy => {
            let input = eh.ident("@__sortBy_input__");
            if !matches!(
                eh.b.exprs[t.index()].kind,
                ExprKind::List { .. }
                    | ExprKind::Select { .. }
                    | ExprKind::Ident(_)
                    | ExprKind::Comprehension(_)
                    | ExprKind::Call { .. }
            ) {
                return Err((Some(t), "sortBy can only be applied to a list, identifier, comprehension, call or select expression".into()));
            }
            let range = eh.copy(input);
            let mapped = make_map(eh, Map, range, args, accu)?;
            let recv = eh.copy(input);
            let call = eh.member("@sortByAssociatedKeys", recv, vec![mapped]);
            let empty = eh.list(vec![]);
            let cond = eh.lit(Literal::Bool(false));
            Ok(eh.fold(
                empty,
                "#unused",
                None,
                "@__sortBy_input__",
                t,
                cond,
                input,
                call,
            ))
        }
    }
}

fn two_vars(eh: &Eh, args: &[ExprId]) -> Result<(String, String), Err> {
    let v1 = eh
        .ident_of(args[0])
        .ok_or((Some(args[0]), "argument must be a simple name".to_string()))?;
    let v2 = eh
        .ident_of(args[1])
        .ok_or((Some(args[1]), "argument must be a simple name".to_string()))?;
    if v1 == v2 {
        return Err((Some(args[1]), format!("duplicate variable name: {v1}")));
    }
    let accu = eh.b.opts.accumulator_name();
    if v1 == accu || v1 == LEGACY_ACCU {
        return Err((
            Some(args[0]),
            "iteration variable overwrites accumulator variable".into(),
        ));
    }
    if v2 == accu || v2 == LEGACY_ACCU {
        return Err((
            Some(args[1]),
            "iteration variable overwrites accumulator variable".into(),
        ));
    }
    Ok((v1, v2))
}

fn quantifier(
    eh: &mut Eh,
    kind: MacroKind,
    t: ExprId,
    v1: &str,
    v2: Option<&str>,
    pred: ExprId,
    accu: &str,
) -> Out {
    let (init, cond, step, result) = match kind {
        All | All2 => {
            let init = eh.lit(Literal::Bool(true));
            let a = eh.accu();
            let cond = eh.call(NOT_STRICTLY_FALSE, vec![a]);
            let a = eh.accu();
            let step = eh.call("_&&_", vec![a, pred]);
            (init, cond, step, eh.accu())
        }
        Exists | Exists2 => {
            let init = eh.lit(Literal::Bool(false));
            let a = eh.accu();
            let not = eh.call("!_", vec![a]);
            let cond = eh.call(NOT_STRICTLY_FALSE, vec![not]);
            let a = eh.accu();
            let step = eh.call("_||_", vec![a, pred]);
            (init, cond, step, eh.accu())
        }
        _ => {
            let init = eh.lit(Literal::Int(0));
            let cond = eh.lit(Literal::Bool(true));
            let a = eh.accu();
            let one = eh.lit(Literal::Int(1));
            let plus = eh.call("_+_", vec![a, one]);
            let a = eh.accu();
            let step = eh.call("_?_:_", vec![pred, plus, a]);
            let a = eh.accu();
            let one = eh.lit(Literal::Int(1));
            (init, cond, step, eh.call("_==_", vec![a, one]))
        }
    };
    Ok(eh.fold(t, v1, v2, accu, init, cond, step, result))
}

/// `MakeMap` / `MakeFilter`.
fn make_map(eh: &mut Eh, kind: MacroKind, t: ExprId, args: &[ExprId], accu: &str) -> Out {
    let v = var(eh, args[0], "argument is not an identifier")?;
    let init = eh.list(vec![]);
    let cond = eh.lit(Literal::Bool(true));
    let step = if kind == Filter {
        let a = eh.accu();
        let l = eh.list(vec![args[0]]);
        let plus = eh.call("_+_", vec![a, l]);
        let a = eh.accu();
        eh.call("_?_:_", vec![args[1], plus, a])
    } else {
        let (filter, f) = if args.len() == 3 {
            (Some(args[1]), args[2])
        } else {
            (None, args[1])
        };
        let a = eh.accu();
        let l = eh.list(vec![f]);
        let step = eh.call("_+_", vec![a, l]);
        match filter {
            Some(p) => {
                let a = eh.accu();
                eh.call("_?_:_", vec![p, step, a])
            }
            None => step,
        }
    };
    let result = eh.accu();
    Ok(eh.fold(t, &v, None, accu, init, cond, step, result))
}
