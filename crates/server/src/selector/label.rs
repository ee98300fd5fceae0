//! Label selectors: `app=web,tier!=db,env in (a,b),!canary,replicas>2`.
//!
//! Mirrors apimachinery `pkg/labels/selector.go` (`Parse`: its lexer, the operators and their
//! matching rules, key and value validation). Error texts follow Go's parser
//! (`unable to parse requirement: …`, `found '…', expected: …`).

use std::collections::BTreeMap;

/// One requirement.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Op {
    Equals(String),
    NotEquals(String),
    In(Vec<String>),
    NotIn(Vec<String>),
    Exists,
    DoesNotExist,
    GreaterThan(i64),
    LessThan(i64),
}

/// A parsed label selector; the empty selector matches everything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabelSelector {
    requirements: Vec<(String, Op)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Ident(String),
    Not,
    Eq,
    DoubleEq,
    NotEq,
    In,
    NotIn,
    Open,
    Close,
    Comma,
    Gt,
    Lt,
    End,
}

impl Token {
    fn text(&self) -> String {
        match self {
            Token::Ident(s) => s.clone(),
            Token::Not => "!".into(),
            Token::Eq => "=".into(),
            Token::DoubleEq => "==".into(),
            Token::NotEq => "!=".into(),
            Token::In => "in".into(),
            Token::NotIn => "notin".into(),
            Token::Open => "(".into(),
            Token::Close => ")".into(),
            Token::Comma => ",".into(),
            Token::Gt => ">".into(),
            Token::Lt => "<".into(),
            Token::End => "EOS".into(),
        }
    }
}

fn special(c: char) -> bool {
    matches!(c, '!' | '=' | '(' | ')' | ',' | '>' | '<')
}

fn lex(s: &str) -> Vec<Token> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if special(c) {
            let two: String = chars[i..chars.len().min(i + 2)].iter().collect();
            let (tok, n) = match two.as_str() {
                "==" => (Token::DoubleEq, 2),
                "!=" => (Token::NotEq, 2),
                _ => (
                    match c {
                        '!' => Token::Not,
                        '=' => Token::Eq,
                        '(' => Token::Open,
                        ')' => Token::Close,
                        ',' => Token::Comma,
                        '>' => Token::Gt,
                        _ => Token::Lt,
                    },
                    1,
                ),
            };
            out.push(tok);
            i += n;
            continue;
        }
        let start = i;
        while i < chars.len() && !chars[i].is_whitespace() && !special(chars[i]) {
            i += 1;
        }
        let word: String = chars[start..i].iter().collect();
        out.push(match word.as_str() {
            "in" => Token::In,
            "notin" => Token::NotIn,
            _ => Token::Ident(word),
        });
    }
    out.push(Token::End);
    out
}

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
}

impl Parser {
    fn peek(&self) -> &Token {
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }
    fn next(&mut self) -> Token {
        let t = self.peek().clone();
        self.pos += 1;
        t
    }
}

impl LabelSelector {
    /// Parses a selector; the empty string selects everything.
    ///
    /// # Errors
    /// The parse error, in Go's words.
    pub fn parse(s: &str) -> Result<LabelSelector, String> {
        let mut p = Parser {
            tokens: lex(s),
            pos: 0,
        };
        let mut requirements = Vec::new();
        if *p.peek() == Token::End {
            return Ok(LabelSelector { requirements });
        }
        loop {
            requirements.push(requirement(&mut p)?);
            match p.next() {
                Token::End => break,
                Token::Comma => {
                    if matches!(p.peek(), Token::End | Token::Comma) {
                        return Err(format!(
                            "found '{}', expected: identifier after ','",
                            p.peek().text()
                        ));
                    }
                }
                t => {
                    return Err(format!(
                        "found '{}', expected: ',' or 'end of string'",
                        t.text()
                    ));
                }
            }
        }
        Ok(LabelSelector { requirements })
    }

    /// Whether `labels` satisfy every requirement.
    #[must_use]
    pub fn matches(&self, labels: &BTreeMap<String, String>) -> bool {
        self.matches_with(|key| labels.get(key).map(String::as_str))
    }

    /// Whether the labels `get` reads satisfy every requirement.
    #[must_use]
    pub fn matches_with<'a>(&self, get: impl Fn(&str) -> Option<&'a str>) -> bool {
        self.requirements.iter().all(|(key, op)| {
            let v = get(key);
            match op {
                Op::Equals(want) => v == Some(want.as_str()),
                Op::NotEquals(want) => v != Some(want.as_str()),
                Op::In(set) => v.is_some_and(|v| set.iter().any(|s| s == v)),
                Op::NotIn(set) => v.is_none_or(|v| !set.iter().any(|s| s == v)),
                Op::Exists => v.is_some(),
                Op::DoesNotExist => v.is_none(),
                Op::GreaterThan(n) => v
                    .and_then(|v| v.parse::<i64>().ok())
                    .is_some_and(|x| x > *n),
                Op::LessThan(n) => v
                    .and_then(|v| v.parse::<i64>().ok())
                    .is_some_and(|x| x < *n),
            }
        })
    }

    /// Whether the selector selects everything.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.requirements.is_empty()
    }

    /// A label every selected object has with one value (`key=value`, `key==value` or
    /// `key in (value)`): the first such requirement, for an index to narrow by.
    #[must_use]
    pub fn required_pair(&self) -> Option<(&str, &str)> {
        self.requirements.iter().find_map(|(key, op)| match op {
            Op::Equals(v) => Some((key.as_str(), v.as_str())),
            Op::In(set) if set.len() == 1 => Some((key.as_str(), set[0].as_str())),
            _ => None,
        })
    }
}

fn requirement(p: &mut Parser) -> Result<(String, Op), String> {
    let negated = *p.peek() == Token::Not;
    if negated {
        p.next();
    }
    let key = match p.next() {
        Token::Ident(k) => k,
        t => return Err(format!("found '{}', expected: identifier", t.text())),
    };
    check_key(&key)?;
    if negated {
        return Ok((key, Op::DoesNotExist));
    }
    let op = match p.peek() {
        Token::End | Token::Comma => return Ok((key, Op::Exists)),
        _ => p.next(),
    };
    match op {
        Token::Eq | Token::DoubleEq | Token::NotEq => {
            let value = match p.peek() {
                Token::Ident(v) => {
                    let v = v.clone();
                    p.next();
                    v
                }
                Token::End | Token::Comma => String::new(),
                t => return Err(format!("found '{}', expected: identifier", t.text())),
            };
            check_value(&value)?;
            Ok((
                key,
                if op == Token::NotEq {
                    Op::NotEquals(value)
                } else {
                    Op::Equals(value)
                },
            ))
        }
        Token::In | Token::NotIn => {
            match p.next() {
                Token::Open => {}
                t => return Err(format!("found '{}' expected: '('", t.text())),
            }
            let mut values = Vec::new();
            loop {
                match p.next() {
                    Token::Ident(v) => {
                        check_value(&v)?;
                        values.push(v);
                    }
                    Token::Close if values.is_empty() => break,
                    t => return Err(format!("found '{}', expected: identifier", t.text())),
                }
                match p.next() {
                    Token::Comma => {}
                    Token::Close => break,
                    t => return Err(format!("found '{}', expected: ',' or ')'", t.text())),
                }
            }
            if values.is_empty() {
                return Err(
                    "unable to parse requirement: values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty"
                        .to_owned(),
                );
            }
            Ok((
                key,
                if op == Token::In {
                    Op::In(values)
                } else {
                    Op::NotIn(values)
                },
            ))
        }
        Token::Gt | Token::Lt => {
            let v = match p.next() {
                Token::Ident(v) => v,
                t => return Err(format!("found '{}', expected: identifier", t.text())),
            };
            let n: i64 = v.parse().map_err(|_| {
                format!("unable to parse requirement: values[0]: Invalid value: \"{v}\": for 'Gt', 'Lt' operators, the value must be an integer")
            })?;
            Ok((
                key,
                if op == Token::Gt {
                    Op::GreaterThan(n)
                } else {
                    Op::LessThan(n)
                },
            ))
        }
        t => Err(format!(
            "found '{}', expected: in, notin, =, ==, !=, gt, lt",
            t.text()
        )),
    }
}

fn check_key(key: &str) -> Result<(), String> {
    let errs = crate::engine::label_key(key);
    if errs.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "unable to parse requirement: <nil>: Invalid value: \"{key}\": {}",
            errs.join("; ")
        ))
    }
}

fn check_value(value: &str) -> Result<(), String> {
    let errs = crate::engine::label_value(value);
    if errs.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "unable to parse requirement: values[0][{value}]: Invalid value: \"{value}\": {}",
            errs.join("; ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn matching() {
        let l = labels(&[("app", "web"), ("tier", "front"), ("n", "3")]);
        for (sel, want) in [
            ("", true),
            ("app=web", true),
            ("app==web", true),
            ("app!=web", false),
            ("app=db", false),
            ("missing!=x", true),
            ("app in (web,db)", true),
            ("app notin (web)", false),
            ("missing notin (web)", true),
            ("app", true),
            ("!app", false),
            ("!missing", true),
            ("n>2", true),
            ("n<2", false),
            ("app=web,tier=front", true),
            ("app=web, tier=back", false),
            ("app=", false),
        ] {
            let s = LabelSelector::parse(sel).unwrap_or_else(|e| panic!("{sel}: {e}"));
            assert_eq!(s.matches(&l), want, "{sel}");
        }
    }

    #[test]
    fn required_pairs() {
        for (sel, want) in [
            ("", None),
            ("app", None),
            ("app!=web,tier=front", Some(("tier", "front"))),
            ("app==web,tier=front", Some(("app", "web"))),
            ("app in (web)", Some(("app", "web"))),
            ("app in (web,db)", None),
            ("app notin (web)", None),
            ("n>2,app=", Some(("app", ""))),
        ] {
            let s = LabelSelector::parse(sel).unwrap_or_else(|e| panic!("{sel}: {e}"));
            assert_eq!(s.required_pair(), want, "{sel}");
        }
    }

    #[test]
    fn errors() {
        for sel in [
            "app in web",
            "app=web,",
            "=web",
            "app in ()",
            "n>x",
            "a b",
            "app=(",
            "bad key!=x=",
        ] {
            assert!(LabelSelector::parse(sel).is_err(), "{sel}");
        }
    }
}
