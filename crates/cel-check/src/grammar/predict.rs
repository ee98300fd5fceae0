//! The grammar's non-LL(1) decisions, as ANTLR's adaptive prediction resolves them.
//!
//! ANTLR keeps every alternative alive until one is left (that one is predicted), all die (a
//! "no viable alternative" error spanning from the decision's first token to the one that killed
//! the last alternative, unless an alternative had already left the rule, which then wins), or
//! the input stays ambiguous (the lowest-numbered alternative wins: `-1` is a literal, `--1`
//! negates twice).

use super::{FIRST_MEMBER, Grammar, has};
use crate::lexer::Tk::*;
use crate::recover::{RecErr, Stop};

type P = Result<u8, Stop>;

impl Grammar<'_> {
    fn no_viable(&mut self, kill: usize) -> P {
        let start = self.r.lt(1)?;
        let offending = self.r.lt(kill)?;
        Err(Stop::Rec(RecErr::NoViableAlt { start, offending }))
    }

    /// Decision 8: `unary` → 1 member, 2 `!`+, 3 `-`+.
    pub(super) fn predict_unary(&mut self) -> P {
        match self.la(1)? {
            Exclam => Ok(2),
            Minus => match self.la(2)? {
                NumInt | NumFloat => Ok(1),
                t if has(FIRST_MEMBER, t) => Ok(3),
                _ => self.no_viable(2),
            },
            t if has(FIRST_MEMBER, t) => Ok(1),
            _ => self.no_viable(1),
        }
    }

    /// Decision 7: after a `-` of a negation, 1 takes another `-`, 2 goes on to `member`.
    pub(super) fn predict_negate(&mut self) -> P {
        match self.la(1)? {
            Minus => match self.la(2)? {
                t if has(FIRST_MEMBER, t) => Ok(1),
                _ => self.no_viable(2),
            },
            t if has(FIRST_MEMBER, t) => Ok(2),
            _ => self.no_viable(1),
        }
    }

    /// Decision 12: 1 select, 2 member call, 3 index (the current token is `.` or `[`).
    pub(super) fn predict_member_suffix(&mut self) -> P {
        if self.la(1)? == LBracket {
            return Ok(3);
        }
        match self.la(2)? {
            Question | EscIdentifier => Ok(1),
            Identifier => Ok(if self.la(3)? == LParen { 2 } else { 1 }),
            _ => self.no_viable(2),
        }
    }

    /// Decision 25: 1 ident, 2 global call, 3 nested, 4 list, 5 map, 6 message, 7 literal.
    pub(super) fn predict_primary(&mut self) -> P {
        match self.la(1)? {
            LParen => Ok(3),
            LBracket => Ok(4),
            LBrace => Ok(5),
            NumInt | NumUint | NumFloat | String | Bytes | True | False | Null => Ok(7),
            Minus => match self.la(2)? {
                NumInt | NumFloat => Ok(7),
                _ => self.no_viable(2),
            },
            Dot => {
                if self.la(2)? == Identifier {
                    self.scan_qualified(2)
                } else {
                    self.no_viable(2)
                }
            }
            Identifier => self.scan_qualified(1),
            _ => self.no_viable(1),
        }
    }

    /// After an identifier at `k`: `(` is a call, `(. IDENTIFIER)* {` a message, else an ident.
    fn scan_qualified(&mut self, mut k: usize) -> P {
        loop {
            match self.la(k + 1)? {
                LParen if k <= 2 => return Ok(2),
                LBrace => return Ok(6),
                Dot if self.la(k + 2)? == Identifier => k += 2,
                _ => return Ok(1),
            }
        }
    }

    /// Decision 35: the literal alternatives.
    pub(super) fn predict_literal(&mut self) -> P {
        Ok(match self.la(1)? {
            Minus => match self.la(2)? {
                NumInt => 1,
                NumFloat => 3,
                _ => return self.no_viable(2),
            },
            NumInt => 1,
            NumUint => 2,
            NumFloat => 3,
            String => 4,
            Bytes => 5,
            True => 6,
            False => 7,
            Null => 8,
            _ => return self.no_viable(1),
        })
    }
}
