//! The parser rules of cel-go `parser/gen/CEL.g4`, written the way ANTLR generates them
//! (`parser/gen/cel_parser.go`): the same rule functions, `Sync` points, `Match` calls and
//! decisions, so that error recovery, and therefore the error messages, come out as cel-go's.
//!
//! ANTLR decides alternatives by adaptive LL(*) prediction; here each decision is a small
//! hand-written function with the same outcome on every input we know of (see `predict.rs`).
//! ATN state numbers are those of the generated parser: ANTLR's recovery compares them.

use super::cst::{Cst, N, Node};
use super::lexer::Tk::{self, *};
use super::recover::{Fatal, Frame, Recognizer, Set, Stop, set};

pub(crate) const FIRST_MEMBER: Set = set(&[
    LBracket, LBrace, LParen, Dot, Minus, True, False, Null, NumFloat, NumInt, NumUint, String,
    Bytes, Identifier,
]);
pub(crate) const FIRST_EXPR: Set = FIRST_MEMBER | set(&[Exclam]);
pub(crate) const FIRST_OPT: Set = FIRST_EXPR | set(&[Question]);
pub(crate) const FIRST_FIELD: Set = set(&[Question, Identifier, EscIdentifier]);
const IDENTS: Set = set(&[Identifier, EscIdentifier]);
const RELOPS: Set = set(&[
    Equals,
    NotEquals,
    In,
    Less,
    LessEquals,
    GreaterEquals,
    Greater,
]);
const MULOPS: Set = set(&[Star, Slash, Percent]);
const ADDOPS: Set = set(&[Plus, Minus]);
const LIT_FIRST: Set = set(&[
    Minus, NumInt, NumUint, NumFloat, String, Bytes, True, False, Null,
]);

type Res<T> = Result<T, Fatal>;

pub(crate) struct Grammar<'a> {
    pub r: Recognizer<'a>,
    pub cst: Cst,
}

fn has(s: Set, t: Tk) -> bool {
    s & t.bit() != 0
}

impl Grammar<'_> {
    /// Invokes a rule; `follow`/`eps` say what may follow it in the caller.
    fn call<R>(&mut self, follow: Set, eps: bool, f: impl FnOnce(&mut Self) -> Res<R>) -> Res<R> {
        self.r.frames.push(Frame { follow, eps });
        let out = f(self);
        self.r.frames.pop();
        out
    }

    /// A rule's `errorExit` block.
    fn end(&mut self, r: Result<(), Stop>) -> Res<()> {
        match r {
            Ok(()) => Ok(()),
            Err(Stop::Fatal(f)) => Err(f),
            Err(Stop::Rec(e)) => self.r.handle(e),
        }
    }

    fn la(&mut self, k: usize) -> Res<Tk> {
        self.r.la(k)
    }

    fn unknown(&mut self) -> N {
        self.cst.push(Node::Unknown)
    }

    /// `start: expr EOF`
    pub(crate) fn start(&mut self) -> Res<N> {
        self.r.enter(0)?;
        self.r.state = 34;
        let e = self.call(Eof.bit(), false, Self::expr)?;
        let r = self.r.expect(Eof, 35, 0, true).map(|_| ());
        self.end(r)?;
        Ok(e)
    }

    /// `expr: conditionalOr ('?' conditionalOr ':' expr)?`
    fn expr(&mut self) -> Res<N> {
        self.r.enter(1)?;
        let (mut cond, mut op, mut e1, mut e2) = (None, None, None, None);
        let r = (|| -> Result<(), Stop> {
            self.r.state = 37;
            cond = Some(self.call(set(&[Question]), true, |g| g.logic(false))?);
            if self.la(1)? == Question {
                self.r.state = 38;
                op = Some(self.r.take()?);
                self.r.state = 39;
                e1 = Some(self.call(set(&[Colon]), false, |g| g.logic(false))?);
                self.r.expect(Colon, 40, FIRST_EXPR, false)?;
                self.r.state = 41;
                e2 = Some(self.call(0, true, Self::expr)?);
            }
            Ok(())
        })();
        self.end(r)?;
        self.r.exit(1);
        Ok(match (cond, op) {
            (Some(cond), Some(op)) => self.cst.push(Node::Ternary { cond, op, e1, e2 }),
            (Some(cond), None) => cond,
            _ => self.unknown(),
        })
    }

    /// `conditionalOr: conditionalAnd ('||' conditionalAnd)*` and
    /// `conditionalAnd: relation ('&&' relation)*`
    fn logic(&mut self, and: bool) -> Res<N> {
        let (rule, tk) = if and { (3, LogicalAnd) } else { (2, LogicalOr) };
        self.r.enter(rule)?;
        self.r.lt(1)?; // EnterRule reads LT(1)
        let operand = |g: &mut Self| if and { g.relation(0) } else { g.logic(true) };
        let first = self.call(tk.bit(), true, operand)?;
        let (mut ops, mut rest) = (Vec::new(), Vec::new());
        while self.la(1)? == tk {
            ops.push(self.r.take()?);
            rest.push(self.call(tk.bit(), true, operand)?);
        }
        self.r.exit(rule);
        Ok(if ops.is_empty() {
            first
        } else {
            self.cst.push(Node::Logic {
                and,
                first,
                ops,
                rest,
            })
        })
    }

    /// `relation: calc | relation op relation` (left-recursive, precedence `p`).
    fn relation(&mut self, p: u8) -> Res<N> {
        self.r.enter(4)?;
        self.r.lt(1)?;
        self.r.state = 62;
        let mut node = self.call(RELOPS, true, |g| g.calc(0))?;
        while has(RELOPS, self.la(1)?) && 1 >= p {
            self.r.state = 65;
            let op = self.r.take()?;
            self.r.state = 66;
            let rhs = self.call(RELOPS, true, |g| g.relation(2))?;
            node = self.cst.push(Node::Binary {
                lhs: node,
                op,
                rhs: Some(rhs),
            });
        }
        self.r.exit(4);
        Ok(node)
    }

    /// `calc: unary | calc ('*'|'/'|'%') calc | calc ('+'|'-') calc`
    fn calc(&mut self, p: u8) -> Res<N> {
        self.r.enter(5)?;
        self.r.lt(1)?;
        self.r.state = 73;
        let mut node = self.call(MULOPS | ADDOPS, true, Self::unary)?;
        loop {
            let la = self.la(1)?;
            let next = if has(MULOPS, la) && 2 >= p {
                3
            } else if has(ADDOPS, la) && 1 >= p {
                2
            } else {
                break;
            };
            self.r.state = 76;
            let op = self.r.take()?;
            let rhs = self.call(MULOPS | ADDOPS, true, |g| g.calc(next))?;
            node = self.cst.push(Node::Binary {
                lhs: node,
                op,
                rhs: Some(rhs),
            });
        }
        self.r.exit(5);
        Ok(node)
    }

    /// `unary: member | '!'+ member | '-'+ member`
    fn unary(&mut self) -> Res<N> {
        self.r.enter(6)?;
        let start = self.r.lt(1)?;
        let (mut alt, mut out, mut ops, mut member) = (0, None, Vec::new(), None);
        let r = (|| -> Result<(), Stop> {
            self.r.sync(99, FIRST_EXPR, false)?;
            alt = self.predict_unary()?;
            match alt {
                1 => {
                    self.r.state = 86;
                    out = Some(self.call(0, true, Self::member)?);
                }
                2 => {
                    self.r.sync(88, Exclam.bit(), false)?;
                    loop {
                        ops.push(self.r.expect(Exclam, 87, FIRST_EXPR, false)?);
                        self.r.sync(90, FIRST_EXPR, true)?;
                        if self.la(1)? != Exclam {
                            break;
                        }
                    }
                    self.r.state = 92;
                    member = Some(self.call(0, true, Self::member)?);
                }
                _ => {
                    self.r.sync(94, Minus.bit(), false)?;
                    loop {
                        ops.push(self.r.expect(Minus, 93, FIRST_MEMBER, false)?);
                        self.r.sync(96, FIRST_MEMBER, true)?;
                        if self.predict_negate()? != 1 {
                            break;
                        }
                    }
                    self.r.state = 98;
                    member = Some(self.call(0, true, Self::member)?);
                }
            }
            Ok(())
        })();
        self.end(r)?;
        self.r.exit(6);
        Ok(match alt {
            2 => self.cst.push(Node::Not { ops, member }),
            3 => self.cst.push(Node::Neg { ops, member }),
            _ => match out {
                Some(n) => n,
                None => self.cst.push(Node::UnaryError { start }),
            },
        })
    }

    /// `member: primary | member '.' '?'? escapeIdent | member '.' IDENTIFIER '(' exprList? ')'
    /// | member '[' '?'? expr ']'`
    fn member(&mut self) -> Res<N> {
        self.r.enter(7)?;
        self.r.state = 102;
        let mut node = self.call(set(&[Dot, LBracket]), true, Self::primary)?;
        loop {
            self.r.state = 128;
            if !matches!(self.la(1)?, Dot | LBracket) {
                break;
            }
            let (mut alt, mut op, mut opt, mut id, mut name, mut open, mut args, mut index) =
                (0, None, None, None, None, None, None, None);
            let r = (|| -> Result<(), Stop> {
                alt = self.predict_member_suffix()?;
                match alt {
                    1 => {
                        op = Some(self.r.expect(Dot, 105, FIRST_FIELD, false)?);
                        self.r.sync(107, FIRST_FIELD, false)?;
                        if self.la(1)? == Question {
                            opt = Some(self.r.expect(Question, 106, IDENTS, false)?);
                        }
                        self.r.state = 109;
                        id = Some(self.call(set(&[Dot, LBracket]), true, Self::esc_ident)?);
                    }
                    2 => {
                        self.r.expect(Dot, 111, Identifier.bit(), false)?;
                        name = Some(self.r.expect(Identifier, 112, LParen.bit(), false)?);
                        open =
                            Some(
                                self.r
                                    .expect(LParen, 113, FIRST_EXPR | RParen.bit(), false)?,
                            );
                        self.r.sync(115, FIRST_EXPR | RParen.bit(), false)?;
                        if has(FIRST_EXPR, self.la(1)?) {
                            self.r.state = 114;
                            args = Some(self.call(RParen.bit(), false, Self::expr_list)?);
                        }
                        self.r.expect(RParen, 117, set(&[Dot, LBracket]), true)?;
                    }
                    _ => {
                        op = Some(self.r.expect(LBracket, 119, FIRST_OPT, false)?);
                        self.r.sync(121, FIRST_OPT, false)?;
                        if self.la(1)? == Question {
                            opt = Some(self.r.expect(Question, 120, FIRST_EXPR, false)?);
                        }
                        self.r.state = 123;
                        index = Some(self.call(RBracket.bit(), false, Self::expr)?);
                        self.r.expect(RBracket, 124, set(&[Dot, LBracket]), true)?;
                    }
                }
                Ok(())
            })();
            node = match alt {
                1 => self.cst.push(Node::Select {
                    operand: node,
                    op,
                    opt,
                    id,
                }),
                2 => self.cst.push(Node::MemberCall {
                    operand: node,
                    id: name,
                    open,
                    args,
                }),
                3 => self.cst.push(Node::Index {
                    operand: node,
                    op,
                    opt,
                    index,
                }),
                _ => node,
            };
            if r.is_err() {
                self.end(r)?;
                break;
            }
        }
        self.r.exit(7);
        Ok(node)
    }
}

mod predict;
mod rules;
