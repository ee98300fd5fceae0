//! The `primary` rule and the list, map, message and literal rules of `CEL.g4`.

use super::{
    FIRST_EXPR, FIRST_FIELD, FIRST_MEMBER, FIRST_OPT, Grammar, IDENTS, LIT_FIRST, Res, has,
};
use crate::cst::{Inits, LitKind, N, Node, OptExpr, OptField};
use crate::lexer::Tk::*;
use crate::recover::{RecErr, Stop, set};

impl Grammar<'_> {
    /// `primary: '.'? IDENTIFIER | '.'? IDENTIFIER '(' exprList? ')' | '(' expr ')'
    /// | '[' listInit? ','? ']' | '{' mapInitializerList? ','? '}'
    /// | '.'? IDENTIFIER ('.' IDENTIFIER)* '{' fieldInitializerList? ','? '}' | literal`
    pub(super) fn primary(&mut self) -> Res<N> {
        self.r.enter(8)?;
        let start = self.r.lt(1)?;
        let (mut alt, mut built, mut dot, mut id, mut op, mut args) =
            (0, None, None, None, None, None);
        let (mut ids, mut elems, mut entries, mut fields) = (Vec::new(), None, None, None);
        let r = (|| -> Result<(), Stop> {
            self.r.sync(184, FIRST_MEMBER, false)?;
            alt = self.predict_primary()?;
            match alt {
                1 | 2 | 6 => {
                    let s = if alt == 1 {
                        132
                    } else if alt == 2 {
                        136
                    } else {
                        165
                    };
                    self.r.sync(s, set(&[Dot, Identifier]), false)?;
                    if self.la(1)? == Dot {
                        dot = Some(self.r.expect(Dot, s - 1, Identifier.bit(), false)?);
                    }
                    match alt {
                        1 => id = Some(self.r.expect(Identifier, 134, 0, true)?),
                        2 => {
                            id = Some(self.r.expect(Identifier, 138, LParen.bit(), false)?);
                            op = Some(self.r.expect(
                                LParen,
                                139,
                                FIRST_EXPR | RParen.bit(),
                                false,
                            )?);
                            self.r.sync(141, FIRST_EXPR | RParen.bit(), false)?;
                            if has(FIRST_EXPR, self.la(1)?) {
                                self.r.state = 140;
                                args = Some(self.call(RParen.bit(), false, Self::expr_list)?);
                            }
                            self.r.expect(RParen, 143, 0, true)?;
                        }
                        _ => {
                            let dl = set(&[Dot, LBrace]);
                            ids.push(self.r.expect(Identifier, 167, dl, false)?);
                            self.r.sync(172, dl, false)?;
                            while self.la(1)? == Dot {
                                self.r.expect(Dot, 168, Identifier.bit(), false)?;
                                ids.push(self.r.expect(Identifier, 169, dl, false)?);
                                self.r.sync(174, dl, true)?;
                            }
                            let inner = FIRST_FIELD | set(&[Comma, RBrace]);
                            op = Some(self.r.expect(LBrace, 175, inner, false)?);
                            self.r.sync(177, inner, false)?;
                            if has(FIRST_FIELD, self.la(1)?) {
                                self.r.state = 176;
                                fields = Some(self.call(
                                    set(&[Comma, RBrace]),
                                    false,
                                    Self::field_inits,
                                )?);
                            }
                            self.close(180, RBrace)?;
                        }
                    }
                }
                3 => {
                    self.r.expect(LParen, 144, FIRST_EXPR, false)?;
                    self.r.state = 145;
                    built = Some(self.call(RParen.bit(), false, Self::expr)?);
                    self.r.expect(RParen, 146, 0, true)?;
                }
                4 | 5 => {
                    let (open, close, s) = if alt == 4 {
                        (LBracket, RBracket, 148)
                    } else {
                        (LBrace, RBrace, 156)
                    };
                    let inner = FIRST_OPT | set(&[Comma, close]);
                    op = Some(self.r.expect(open, s, inner, false)?);
                    self.r.sync(s + 2, inner, false)?;
                    if has(FIRST_OPT, self.la(1)?) {
                        self.r.state = s + 1;
                        let follow = set(&[Comma, close]);
                        if alt == 4 {
                            elems = Some(self.call(follow, false, Self::list_init)?);
                        } else {
                            entries = Some(self.call(follow, false, Self::map_inits)?);
                        }
                    }
                    self.close(s + 5, close)?;
                }
                _ => {
                    self.r.state = 183;
                    built = Some(self.call(0, true, Self::literal)?);
                }
            }
            Ok(())
        })();
        self.end(r)?;
        self.r.exit(8);
        let node = match alt {
            1 => Node::Ident { dot, id, start },
            2 => Node::GlobalCall {
                dot,
                id,
                op,
                args,
                start,
            },
            4 => Node::List {
                op: op.unwrap_or(start),
                elems,
            },
            5 => Node::Map {
                op: op.unwrap_or(start),
                entries,
            },
            6 => Node::Message {
                dot,
                ids,
                op,
                entries: fields,
            },
            _ => return Ok(built.unwrap_or_else(|| self.unknown())),
        };
        Ok(self.cst.push(node))
    }

    /// `','? close`, with the sync states of the generated parser.
    fn close(&mut self, s: u16, close: crate::lexer::Tk) -> Result<(), Stop> {
        self.r.sync(s, set(&[Comma, close]), false)?;
        if self.la(1)? == Comma {
            self.r.expect(Comma, s - 1, close.bit(), false)?;
        }
        self.r.expect(close, s + 2, 0, true)?;
        Ok(())
    }

    /// `exprList: expr (',' expr)*`
    pub(super) fn expr_list(&mut self) -> Res<Vec<N>> {
        self.r.enter(9)?;
        self.r.state = 186;
        let mut out = vec![self.call(Comma.bit(), true, Self::expr)?];
        while self.la(1)? == Comma {
            self.r.state = 187;
            self.r.take()?;
            self.r.state = 188;
            out.push(self.call(Comma.bit(), true, Self::expr)?);
        }
        self.r.exit(9);
        Ok(out)
    }

    /// `listInit: optExpr (',' optExpr)*`
    fn list_init(&mut self) -> Res<Vec<OptExpr>> {
        self.r.enter(10)?;
        self.r.state = 194;
        let mut out = vec![self.call(Comma.bit(), true, Self::opt_expr)?];
        while self.la(1)? == Comma && has(FIRST_OPT, self.la(2)?) {
            self.r.state = 195;
            self.r.take()?;
            self.r.state = 196;
            out.push(self.call(Comma.bit(), true, Self::opt_expr)?);
        }
        self.r.exit(10);
        Ok(out)
    }

    /// `fieldInitializerList: optField ':' expr (',' optField ':' expr)*`
    fn field_inits(&mut self) -> Res<Inits<OptField>> {
        self.r.enter(11)?;
        let mut out = Inits::default();
        let r = (|| -> Result<(), Stop> {
            let mut s = 202;
            loop {
                out.keys
                    .push(self.call(Colon.bit(), false, Self::opt_field)?);
                out.cols
                    .push(self.r.expect(Colon, s + 1, FIRST_EXPR, false)?);
                self.r.state = s + 2;
                out.values.push(self.call(Comma.bit(), true, Self::expr)?);
                if !(self.la(1)? == Comma && has(FIRST_FIELD, self.la(2)?)) {
                    return Ok(());
                }
                self.r.state = 205;
                self.r.take()?;
                s = 206;
            }
        })();
        self.end(r)?;
        self.r.exit(11);
        Ok(out)
    }

    /// `mapInitializerList: optExpr ':' expr (',' optExpr ':' expr)*`
    fn map_inits(&mut self) -> Res<Inits<OptExpr>> {
        self.r.enter(13)?;
        let mut out = Inits::default();
        let r = (|| -> Result<(), Stop> {
            let mut s = 220;
            loop {
                out.keys
                    .push(self.call(Colon.bit(), false, Self::opt_expr)?);
                out.cols
                    .push(self.r.expect(Colon, s + 1, FIRST_EXPR, false)?);
                self.r.state = s + 2;
                out.values.push(self.call(Comma.bit(), true, Self::expr)?);
                if !(self.la(1)? == Comma && has(FIRST_OPT, self.la(2)?)) {
                    return Ok(());
                }
                self.r.state = 223;
                self.r.take()?;
                s = 224;
            }
        })();
        self.end(r)?;
        self.r.exit(13);
        Ok(out)
    }

    /// `optField: '?'? escapeIdent`
    fn opt_field(&mut self) -> Res<OptField> {
        self.r.enter(12)?;
        let start = self.r.lt(1)?;
        let (mut opt, mut ident) = (None, None);
        let r = (|| -> Result<(), Stop> {
            self.r.sync(216, FIRST_FIELD, false)?;
            if self.la(1)? == Question {
                opt = Some(self.r.expect(Question, 215, IDENTS, false)?);
            }
            self.r.state = 218;
            ident = Some(self.call(0, true, Self::esc_ident)?);
            Ok(())
        })();
        self.end(r)?;
        self.r.exit(12);
        Ok(OptField { start, opt, ident })
    }

    /// `escapeIdent: IDENTIFIER | ESC_IDENTIFIER`
    pub(super) fn esc_ident(&mut self) -> Res<N> {
        self.r.enter(14)?;
        let start = self.r.lt(1)?;
        let (mut escaped, mut id) = (false, None);
        let r = (|| -> Result<(), Stop> {
            self.r.sync(235, IDENTS, false)?;
            match self.la(1)? {
                Identifier => id = Some(self.r.expect(Identifier, 233, 0, true)?),
                EscIdentifier => {
                    escaped = true;
                    id = Some(self.r.expect(EscIdentifier, 234, 0, true)?);
                }
                _ => {
                    return Err(Stop::Rec(RecErr::NoViableAlt {
                        start,
                        offending: start,
                    }));
                }
            }
            Ok(())
        })();
        self.end(r)?;
        self.r.exit(14);
        Ok(self.cst.push(Node::EscIdent { escaped, id, start }))
    }

    /// `optExpr: '?'? expr`
    fn opt_expr(&mut self) -> Res<OptExpr> {
        self.r.enter(15)?;
        let start = self.r.lt(1)?;
        let (mut opt, mut e) = (None, None);
        let r = (|| -> Result<(), Stop> {
            self.r.sync(238, FIRST_OPT, false)?;
            if self.la(1)? == Question {
                opt = Some(self.r.expect(Question, 237, FIRST_EXPR, false)?);
            }
            self.r.state = 240;
            e = Some(self.call(0, true, Self::expr)?);
            Ok(())
        })();
        self.end(r)?;
        self.r.exit(15);
        Ok(OptExpr { start, opt, e })
    }

    /// `literal: '-'? NUM_INT | NUM_UINT | '-'? NUM_FLOAT | STRING | BYTES | 'true' | 'false' | 'null'`
    fn literal(&mut self) -> Res<N> {
        self.r.enter(16)?;
        let start = self.r.lt(1)?;
        let (mut kind, mut sign, mut tok) = (None, None, None);
        let r = (|| -> Result<(), Stop> {
            self.r.sync(256, LIT_FIRST, false)?;
            let (k, tk, s) = match self.predict_literal()? {
                1 => (LitKind::Int, NumInt, 243),
                2 => (LitKind::Uint, NumUint, 246),
                3 => (LitKind::Double, NumFloat, 248),
                4 => (LitKind::String, String, 251),
                5 => (LitKind::Bytes, Bytes, 252),
                6 => (LitKind::True, True, 253),
                7 => (LitKind::False, False, 254),
                _ => (LitKind::Null, Null, 255),
            };
            kind = Some(k);
            let mut s = s;
            if matches!(k, LitKind::Int | LitKind::Double) {
                self.r.sync(s, set(&[Minus, tk]), false)?;
                if self.la(1)? == Minus {
                    sign = Some(self.r.expect(Minus, s - 1, tk.bit(), false)?);
                }
                s += 2;
            }
            tok = Some(self.r.expect(tk, s, 0, true)?);
            Ok(())
        })();
        self.end(r)?;
        self.r.exit(16);
        Ok(match kind {
            Some(kind) => self.cst.push(Node::Lit {
                kind,
                sign,
                tok,
                start,
            }),
            None => self.unknown(),
        })
    }
}
