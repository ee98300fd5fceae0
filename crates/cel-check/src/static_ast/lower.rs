//! Parsed expression → [`Lowered`], the owned form of [`super::Ast`]: every node with its
//! location, global resolutions and overload candidates worked out, in the environment of the
//! Kubernetes version the API server compiles new rules with
//! ([`crate::env::DEFAULT_COMPATIBILITY_VERSION`]).
//!
//! The derive turns a [`Lowered`] into tokens; [`Lowered::leak`] turns it into `'static` data
//! at run time (tests, and schemas loaded from files).

use crate::check::valid_literal_argument;
use crate::env::{
    CheckEnv, DEFAULT_COMPATIBILITY_VERSION, OVERLOADS, TYPE_IDENTS, Version, parse_options,
};
use crate::{Adorner, ExprId, ExprKind, Literal, ParseErrors, Source, debug_string};

use super::{self as ast, Global};

/// The version whose environment rules are lowered and checked in.
pub const VERSION: Version = DEFAULT_COMPATIBILITY_VERSION;

/// An owned [`ast::Ast`].
#[derive(Clone, Debug, PartialEq)]
pub struct Lowered {
    /// The expression text ([`ast::Ast::source`]).
    pub source: String,
    /// Every expression id's node, `nodes[id - 1]` ([`ast::Ast::nodes`]).
    pub nodes: Vec<LNode>,
    /// Index of the root node.
    pub root: u32,
    /// The literal validators' errors as `(node, message)` ([`ast::Ast::validator_issues`]).
    pub validator_issues: Vec<(u32, String)>,
    /// An upper bound of the type variables the check creates.
    pub type_vars: u32,
    /// The nesting depth of the expression.
    pub depth: u32,
    /// `OVERLOADS.len()` when the overload indices were computed.
    pub table_len: u32,
}

/// An owned [`ast::Node`].
#[derive(Clone, Debug, PartialEq)]
pub struct LNode {
    /// 1-based line of the node's error position.
    pub line: u32,
    /// 0-based column of the node's error position, in code points.
    pub col: u32,
    /// What the node is.
    pub kind: LKind,
}

/// An owned [`ast::NodeKind`].
#[derive(Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum LKind {
    Unspecified,
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Double(f64),
    String(String),
    Bytes(Vec<u8>),
    Ident {
        name: String,
        global: Global,
    },
    Select {
        operand: u32,
        field: String,
        test_only: bool,
        head: String,
        qualified: Global,
    },
    Call(LCall),
    List {
        elems: Vec<u32>,
        optional: Vec<u32>,
    },
    Map {
        entries: Vec<ast::Entry>,
    },
    Struct {
        type_name: String,
        resolved: Option<u16>,
        fields: Vec<(u32, String, u32, bool)>,
    },
    Comprehension {
        iter_var: String,
        iter_var2: Option<String>,
        iter_range: u32,
        accu_var: String,
        accu_init: u32,
        loop_condition: u32,
        loop_step: u32,
        result: u32,
    },
}

/// An owned [`ast::Call`].
#[derive(Clone, Debug, PartialEq)]
pub struct LCall {
    /// The receiver node, if any ([`ast::Call::target`]).
    pub target: Option<u32>,
    /// The function or operator name.
    pub function: String,
    /// The argument nodes, without the receiver.
    pub args: Vec<u32>,
    /// Whether the environment declares `function`.
    pub declared: bool,
    /// The overloads whose style fits the call, as indices into [`OVERLOADS`].
    pub overloads: Vec<u16>,
    /// The namespaced function's name and global overloads.
    pub namespaced: Option<(String, Vec<u16>)>,
    /// Verbs and the end of a literal format string.
    pub format: Option<(Vec<u8>, Result<u32, String>)>,
    /// `_?._` whose field is not a string literal: the field's debug text.
    pub opt_select_text: Option<String>,
}

/// Parses `src` as the API server does and lowers it.
///
/// # Errors
/// The syntax errors, as cel-go prints them.
pub fn lower_source(src: &str) -> Result<Lowered, ParseErrors> {
    let ast = crate::parse_with(src, &parse_options(VERSION))?;
    Ok(lower(&ast, src))
}

struct Lower<'a> {
    ast: &'a crate::Ast,
    env: CheckEnv,
    vars: u32,
}

/// Lowers a parsed expression whose text is `src`.
#[must_use]
pub fn lower(ast: &crate::Ast, src: &str) -> Lowered {
    let source = Source::new(src);
    let mut l = Lower {
        ast,
        env: CheckEnv::kubernetes(VERSION),
        vars: 0,
    };
    let nodes: Vec<LNode> = ast
        .exprs
        .iter()
        .map(|e| {
            let (line, col) = source.location(source.cp_of_byte(e.span.start));
            LNode {
                line: u32::try_from(line).unwrap_or(0),
                col: u32::try_from(col).unwrap_or(0),
                kind: l.kind(e.id, &e.kind),
            }
        })
        .collect();
    let mut out = Lowered {
        source: src.to_owned(),
        nodes,
        root: ast.root.0 - 1,
        validator_issues: Vec::new(),
        type_vars: l.vars,
        depth: u32::try_from(crate::check::walk::depth(ast)).unwrap_or(u32::MAX),
        table_len: u32::try_from(OVERLOADS.len()).unwrap_or(0),
    };
    out.validator_issues = validator_issues(&out);
    out
}

fn idx(id: ExprId) -> u32 {
    id.0 - 1
}

/// `Global` of a name (cel-go `resolveGlobal` over `self`, `oldSelf` and the type idents).
fn global(name: &str) -> Global {
    let name = name.strip_prefix('.').unwrap_or(name);
    match name {
        "self" => Global::SelfVar,
        "oldSelf" => Global::OldSelf,
        _ => TYPE_IDENTS
            .iter()
            .position(|t| t.name == name && VERSION >= t.since)
            .map_or(Global::None, |i| {
                Global::Type(u16::try_from(i).unwrap_or(0))
            }),
    }
}

impl Lower<'_> {
    fn candidates(&self, function: &str, receiver: bool) -> Vec<u16> {
        OVERLOADS
            .iter()
            .enumerate()
            .filter(|(_, o)| {
                o.function == function
                    && o.receiver_style == receiver
                    && o.available_in(VERSION)
                    && self.env.libraries.contains(&o.library)
            })
            .map(|(i, _)| u16::try_from(i).unwrap_or(u16::MAX))
            .collect()
    }

    /// Counts the type variables that trying `overloads` creates.
    fn count_vars(&mut self, overloads: &[u16]) {
        for &i in overloads {
            let o = &OVERLOADS[i as usize];
            let mut tp = Vec::new();
            o.result.collect_params(&mut tp);
            o.params.iter().for_each(|p| p.collect_params(&mut tp));
            self.vars += u32::try_from(tp.len()).unwrap_or(0);
        }
    }

    fn lookup_function(&self, name: &str) -> Option<String> {
        self.env
            .candidate_names(name)
            .into_iter()
            .find(|c| self.env.has_function(c))
    }

    fn kind(&mut self, id: ExprId, k: &ExprKind) -> LKind {
        match k {
            ExprKind::Unspecified => LKind::Unspecified,
            ExprKind::Literal(l) => match l {
                Literal::Null => LKind::Null,
                Literal::Bool(b) => LKind::Bool(*b),
                Literal::Int(i) => LKind::Int(*i),
                Literal::Uint(u) => LKind::Uint(*u),
                Literal::Double(d) => LKind::Double(*d),
                Literal::String(s) => LKind::String(s.clone()),
                Literal::Bytes(b) => LKind::Bytes(b.clone()),
            },
            ExprKind::Ident(name) => LKind::Ident {
                name: name.clone(),
                global: global(name),
            },
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => {
                let q = self.ast.qualifiers(id);
                let (head, qualified) = match q {
                    Some(q) => (q[0].clone(), global(&q.join("."))),
                    None => (String::new(), Global::None),
                };
                LKind::Select {
                    operand: idx(*operand),
                    field: field.clone(),
                    test_only: *test_only,
                    head,
                    qualified,
                }
            }
            ExprKind::Call {
                target,
                function,
                args,
            } => LKind::Call(self.call(*target, function, args)),
            ExprKind::List {
                elems,
                optional_indices,
            } => {
                if elems.is_empty() {
                    self.vars += 1;
                }
                LKind::List {
                    elems: elems.iter().map(|e| idx(*e)).collect(),
                    optional: optional_indices.clone(),
                }
            }
            ExprKind::Map { entries } => {
                if entries.is_empty() {
                    self.vars += 2;
                }
                LKind::Map {
                    entries: entries
                        .iter()
                        .map(|e| ast::Entry {
                            node: idx(e.id),
                            key: idx(e.key),
                            value: idx(e.value),
                            optional: e.optional,
                        })
                        .collect(),
                }
            }
            ExprKind::Struct { type_name, fields } => {
                let resolved = self.env.candidate_names(type_name).iter().find_map(|c| {
                    TYPE_IDENTS
                        .iter()
                        .position(|t| t.name == c && VERSION >= t.since)
                        .and_then(|i| u16::try_from(i).ok())
                });
                LKind::Struct {
                    type_name: type_name.clone(),
                    resolved,
                    fields: fields
                        .iter()
                        .map(|f| (idx(f.id), f.field.clone(), idx(f.value), f.optional))
                        .collect(),
                }
            }
            ExprKind::Comprehension(c) => LKind::Comprehension {
                iter_var: c.iter_var.clone(),
                iter_var2: c.iter_var2.clone(),
                iter_range: idx(c.iter_range),
                accu_var: c.accu_var.clone(),
                accu_init: idx(c.accu_init),
                loop_condition: idx(c.loop_condition),
                loop_step: idx(c.loop_step),
                result: idx(c.result),
            },
        }
    }

    fn call(&mut self, target: Option<ExprId>, function: &str, args: &[ExprId]) -> LCall {
        let resolved = self.lookup_function(function);
        let overloads = match &resolved {
            Some(name) => self.candidates(name, target.is_some()),
            None => Vec::new(),
        };
        let namespaced = target
            .and_then(|t| self.ast.qualified_name(t))
            .and_then(|prefix| self.lookup_function(&format!("{prefix}.{function}")))
            .map(|name| {
                let o = self.candidates(&name, false);
                (name, o)
            });
        match &namespaced {
            Some((_, o)) => self.count_vars(&o.clone()),
            None if function != "_?._" => self.count_vars(&overloads.clone()),
            None => {}
        }
        let format = (function == "format")
            .then(|| self.format(target, args))
            .flatten();
        let opt_select_text = match (function, target, args) {
            ("_?._", None, [_, field])
                if !matches!(
                    self.ast.expr(*field).kind,
                    ExprKind::Literal(Literal::String(_))
                ) =>
            {
                Some(debug_string(self.ast, *field, Adorner::None, None))
            }
            _ => None,
        };
        LCall {
            target: target.map(idx),
            function: resolved.unwrap_or_else(|| function.to_owned()),
            args: args.iter().map(|a| idx(*a)).collect(),
            declared: self.lookup_function(function).is_some(),
            overloads,
            namespaced,
            format,
            opt_select_text,
        }
    }

    /// cel-go `parseFormatString` without the argument types: the verbs, then how it ended.
    fn format(
        &self,
        target: Option<ExprId>,
        args: &[ExprId],
    ) -> Option<(Vec<u8>, Result<u32, String>)> {
        let ExprKind::Literal(Literal::String(format)) = &self.ast.expr(target?).kind else {
            return None;
        };
        let [list] = args else { return None };
        let ExprKind::List { elems, .. } = &self.ast.expr(*list).kind else {
            return None;
        };
        let b = format.as_bytes();
        let (mut i, mut verbs, mut requested) = (0usize, Vec::new(), 0u32);
        let clause = |e: String| Err(format!("could not parse formatting clause: {e}"));
        while i < b.len() {
            if b[i] != b'%' {
                i += 1;
                continue;
            }
            if b.get(i + 1) == Some(&b'%') {
                i += 2;
                continue;
            }
            requested += 1;
            if i + 1 >= b.len() {
                return Some((verbs, Err("unexpected end of string".into())));
            }
            if verbs.len() >= elems.len() {
                return Some((
                    verbs.clone(),
                    Err(format!("index {} out of range", verbs.len())),
                ));
            }
            let mut j = i + 1;
            if b[j] == b'.' {
                j += 1;
                let start = j;
                loop {
                    if j >= b.len() {
                        return Some((verbs, clause("error while parsing precision: could not find end of precision specifier".into())));
                    }
                    if !b[j].is_ascii_digit() {
                        break;
                    }
                    j += 1;
                }
                let digits = &format[start..j];
                if let Err(e) = digits.parse::<i64>() {
                    let why = if !digits.is_empty()
                        && matches!(e.kind(), std::num::IntErrorKind::PosOverflow)
                    {
                        "value out of range"
                    } else {
                        "invalid syntax"
                    };
                    return Some((
                        verbs,
                        clause(format!(
                            "error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing \"{digits}\": {why}"
                        )),
                    ));
                }
            }
            let verb = b[j];
            if !matches!(verb, b's' | b'd' | b'f' | b'e' | b'b' | b'x' | b'X' | b'o') {
                return Some((
                    verbs,
                    clause(format!(
                        "unrecognized formatting clause \"{}\"",
                        char::from(verb)
                    )),
                ));
            }
            verbs.push(verb);
            i = j + 1;
        }
        Some((verbs, Ok(requested)))
    }
}

/// The literal validators' findings (`ValidateDurationLiterals`, `…TimestampLiterals`,
/// `…RegexLiterals`) in the order the run-time checker reports them; qualified names and the
/// targets of namespaced calls are not visited.
fn validator_issues(l: &Lowered) -> Vec<(u32, String)> {
    let mut order = Vec::new();
    let mut stack = vec![l.root];
    while let Some(i) = stack.pop() {
        order.push(i);
        let children: Vec<u32> = match &l.nodes[i as usize].kind {
            LKind::Select {
                operand, qualified, ..
            } => {
                if *qualified == Global::None {
                    vec![*operand]
                } else {
                    vec![]
                }
            }
            LKind::Call(c) => {
                let target = if c.namespaced.is_some() {
                    None
                } else {
                    c.target
                };
                target.iter().chain(&c.args).copied().collect()
            }
            LKind::List { elems, .. } => elems.clone(),
            LKind::Map { entries } => entries.iter().flat_map(|e| [e.key, e.value]).collect(),
            LKind::Struct { fields, .. } => fields.iter().map(|f| f.2).collect(),
            LKind::Comprehension {
                iter_range,
                accu_init,
                loop_condition,
                loop_step,
                result,
                ..
            } => vec![
                *iter_range,
                *accu_init,
                *loop_condition,
                *loop_step,
                *result,
            ],
            _ => vec![],
        };
        stack.extend(children.into_iter().rev());
    }
    let mut out = Vec::new();
    for function in ["duration", "timestamp", "matches"] {
        for &i in &order {
            let LKind::Call(c) = &l.nodes[i as usize].kind else {
                continue;
            };
            let Some(&arg) = c.args.first() else { continue };
            if c.function != function {
                continue;
            }
            let lit = match &l.nodes[arg as usize].kind {
                LKind::String(s) => Literal::String(s.clone()),
                LKind::Int(v) => Literal::Int(*v),
                _ => continue,
            };
            if !valid_literal_argument(function, &lit) {
                out.push((arg, format!("invalid {function} argument")));
            }
        }
    }
    out
}

fn leak_str(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

fn leak<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

impl Lowered {
    /// The `'static` form, leaking its memory (for tests and schemas read at run time).
    #[must_use]
    pub fn leak(&self) -> &'static ast::Ast {
        let nodes: Vec<ast::Node> = self
            .nodes
            .iter()
            .map(|n| ast::Node {
                line: n.line,
                col: n.col,
                kind: leak_kind(&n.kind),
            })
            .collect();
        let issues: Vec<ast::Issue> = self
            .validator_issues
            .iter()
            .map(|(node, m)| ast::Issue {
                node: *node,
                message: leak_str(m),
            })
            .collect();
        Box::leak(Box::new(ast::Ast {
            source: leak_str(&self.source),
            nodes: leak(nodes),
            root: self.root,
            validator_issues: leak(issues),
            type_vars: self.type_vars,
            depth: self.depth,
            table_len: self.table_len,
        }))
    }
}

fn leak_kind(k: &LKind) -> ast::NodeKind {
    use ast::NodeKind as N;
    match k {
        LKind::Unspecified => N::Unspecified,
        LKind::Null => N::Null,
        LKind::Bool(b) => N::Bool(*b),
        LKind::Int(i) => N::Int(*i),
        LKind::Uint(u) => N::Uint(*u),
        LKind::Double(d) => N::Double(*d),
        LKind::String(s) => N::String(leak_str(s)),
        LKind::Bytes(b) => N::Bytes(leak(b.clone())),
        LKind::Ident { name, global } => N::Ident {
            name: leak_str(name),
            global: *global,
        },
        LKind::Select {
            operand,
            field,
            test_only,
            head,
            qualified,
        } => N::Select {
            operand: *operand,
            field: leak_str(field),
            test_only: *test_only,
            head: leak_str(head),
            qualified: *qualified,
        },
        LKind::Call(c) => N::Call(Box::leak(Box::new(ast::Call {
            target: c.target,
            function: leak_str(&c.function),
            args: leak(c.args.clone()),
            declared: c.declared,
            overloads: leak(c.overloads.clone()),
            namespaced: c.namespaced.as_ref().map(|(f, o)| {
                &*Box::leak(Box::new(ast::Namespaced {
                    function: leak_str(f),
                    overloads: leak(o.clone()),
                }))
            }),
            format: c.format.as_ref().map(|(v, end)| {
                &*Box::leak(Box::new(ast::Format {
                    verbs: leak(v.clone()),
                    end: match end {
                        Ok(n) => Ok(*n),
                        Err(e) => Err(leak_str(e)),
                    },
                }))
            }),
            opt_select_text: c.opt_select_text.as_deref().map(leak_str),
        }))),
        LKind::List { elems, optional } => N::List {
            elems: leak(elems.clone()),
            optional: leak(optional.clone()),
        },
        LKind::Map { entries } => N::Map {
            entries: leak(entries.clone()),
        },
        LKind::Struct {
            type_name,
            resolved,
            fields,
        } => N::Struct {
            type_name: leak_str(type_name),
            resolved: *resolved,
            fields: leak(
                fields
                    .iter()
                    .map(|(node, f, value, optional)| ast::FieldInit {
                        node: *node,
                        field: leak_str(f),
                        value: *value,
                        optional: *optional,
                    })
                    .collect(),
            ),
        },
        LKind::Comprehension {
            iter_var,
            iter_var2,
            iter_range,
            accu_var,
            accu_init,
            loop_condition,
            loop_step,
            result,
        } => N::Comprehension(Box::leak(Box::new(ast::Comprehension {
            iter_var: leak_str(iter_var),
            iter_var2: iter_var2.as_deref().map(leak_str),
            iter_range: *iter_range,
            accu_var: leak_str(accu_var),
            accu_init: *accu_init,
            loop_condition: *loop_condition,
            loop_step: *loop_step,
            result: *result,
        }))),
    }
}
