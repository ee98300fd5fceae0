//! Building attributes while planning: mirrors how cel-go's planner extends an attribute with
//! qualifiers (`interpreter/planner.go` `planSelect`/`planCallIndex`, `attributes.go`
//! `NewQualifier`, conditional attributes), and the constant folding helpers of
//! `interpreter/decorators.go` (`maybeOptimizeSetMembership`).

use std::collections::HashSet;

use super::node::{Attr, Base, Node, Qual, QualKind};
use crate::Literal;
use crate::value::Value;

pub(crate) fn literal(l: &Literal) -> Node {
    match l {
        Literal::Null => Node::Const(Value::Null),
        Literal::Bool(b) => Node::Const(Value::Bool(*b)),
        Literal::Int(i) => Node::Const(Value::Int(*i)),
        Literal::Uint(u) => Node::Const(Value::Uint(*u)),
        Literal::Double(d) => Node::Const(Value::Double(*d)),
        Literal::String(s) => Node::Str(s.as_str().into()),
        Literal::Bytes(b) => Node::Bytes(b.as_slice().into()),
    }
}

pub(crate) fn attr(base: Base) -> Node {
    Node::Attr(Box::new(Attr {
        base,
        quals: Vec::new(),
        charge: true,
        test_only: false,
        resolved: None,
    }))
}

pub(crate) fn field_qual(name: &str, optional: bool) -> Qual {
    Qual {
        kind: QualKind::Field {
            name: name.into(),
            unescaped: crdkit_cel_check::escaping::unescape(name).map(String::into_boxed_str),
        },
        optional,
    }
}

/// The qualifier of `op[idx]`: constant, attribute (its base is not charged) or expression.
pub(crate) fn index_qual(idx: Node, optional: bool) -> Qual {
    let kind = match idx {
        Node::Str(s) => {
            return field_qual(&s, optional);
        }
        Node::Const(v) => QualKind::Const(v),
        Node::Attr(mut a) if a.charge && !a.test_only => {
            a.charge = false;
            QualKind::Attr(a)
        }
        other => QualKind::Expr(other),
    };
    Qual { kind, optional }
}

/// Appends a qualifier: extends an attribute, pushes into both branches of a conditional, or
/// starts a relative attribute.
pub(crate) fn add_qual(op: Node, q: Qual, test_only: bool) -> Node {
    match op {
        Node::Attr(mut a) if !a.test_only => {
            a.quals.push(q);
            a.test_only = test_only;
            Node::Attr(a)
        }
        Node::Cond(c) => {
            let (c, t, f) = *c;
            let q2 = clone_qual(&q);
            Node::Cond(Box::new((
                c,
                uncharged(add_qual(t, q, test_only)),
                uncharged(add_qual(f, q2, test_only)),
            )))
        }
        other => Node::Attr(Box::new(Attr {
            base: Base::Expr(other),
            quals: vec![q],
            charge: true,
            test_only,
            resolved: None,
        })),
    }
}

fn clone_qual(q: &Qual) -> Qual {
    let kind = match &q.kind {
        QualKind::Field { name, unescaped } => QualKind::Field {
            name: name.clone(),
            unescaped: unescaped.clone(),
        },
        QualKind::Const(v) => QualKind::Const(v.clone()),
        // Dynamic qualifiers after a conditional are rare; evaluate them as expressions.
        QualKind::Attr(a) => QualKind::Expr(Node::Attr(Box::new(clone_attr(a)))),
        QualKind::Expr(_) => QualKind::Const(Value::Null),
    };
    Qual {
        kind,
        optional: q.optional,
    }
}

fn clone_attr(a: &Attr) -> Attr {
    Attr {
        base: match &a.base {
            Base::Var(i) => Base::Var(*i),
            Base::Local(i) => Base::Local(*i),
            Base::Missing(n) => Base::Missing(n.clone()),
            Base::Expr(_) => Base::Missing("<expr>".into()),
        },
        quals: a.quals.iter().map(clone_qual).collect(),
        charge: false,
        test_only: a.test_only,
        resolved: None,
    }
}

/// A branch of a conditional: an attribute branch is resolved without its own charge.
pub(crate) fn uncharged(n: Node) -> Node {
    match n {
        Node::Attr(mut a) => {
            a.charge = false;
            Node::Attr(a)
        }
        other => other,
    }
}

/// cel-go `maybeOptimizeSetMembership`: primitive, non-bytes constants (numbers are added in
/// every lossless numeric form).
pub(crate) fn const_set(items: &[Value<'static>]) -> Option<HashSet<crate::value::list::SetKey>> {
    use crate::value::list::SetKey;
    let mut set = HashSet::new();
    for v in items {
        match v {
            Value::Bool(_) | Value::String(_) => {
                set.insert(crate::value::list::set_key(v).ok()?);
            }
            Value::Int(i) => {
                set.insert(SetKey::Int(*i));
                set.insert(SetKey::Double((*i as f64).to_bits()));
                if let Ok(u) = u64::try_from(*i) {
                    set.insert(SetKey::Uint(u));
                }
            }
            Value::Uint(u) => {
                set.insert(SetKey::Uint(*u));
                set.insert(SetKey::Double((*u as f64).to_bits()));
                if let Ok(i) = i64::try_from(*u) {
                    set.insert(SetKey::Int(i));
                }
            }
            Value::Double(d) => {
                set.insert(crate::value::list::set_key(v).ok()?);
                if let Some(i) = crate::value::convert::double_to_int_lossless(*d) {
                    set.insert(SetKey::Int(i));
                }
                if let Some(u) = crate::value::convert::double_to_uint_lossless(*d) {
                    set.insert(SetKey::Uint(u));
                }
            }
            _ => return None,
        }
    }
    Some(set)
}
