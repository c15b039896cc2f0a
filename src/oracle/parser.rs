//! Parser for the printed formula syntax, so learned oracles round-trip through text.

use super::formula::{Atom, Formula, Rel};
use super::number::Value;
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use std::collections::BTreeMap;

/// Why a formula text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at character {pos}: {message}")]
pub struct ParseError {
    /// Character offset of the problem in the input.
    pub pos: usize,
    /// What was wrong, for a person.
    pub message: String,
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Num(Value),
    Rel(Rel),
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    LParen,
    RParen,
    And,
    Or,
    True,
    False,
}

fn lex(text: &str) -> Result<Vec<(usize, Tok)>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let err = |pos, m: &str| ParseError {
        pos,
        message: m.to_string(),
    };
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() || (c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            if i < chars.len()
                && (chars[i] == 'e' || chars[i] == 'E')
                && (chars.get(i + 1).is_some_and(|d| d.is_ascii_digit())
                    || (matches!(chars.get(i + 1), Some('-') | Some('+'))
                        && chars.get(i + 2).is_some_and(|d| d.is_ascii_digit())))
            {
                i += 2;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
            }
            let s: String = chars[start..i].iter().collect();
            let v = Value::parse(&s).ok_or_else(|| err(start, "malformed number"))?;
            out.push((start, Tok::Num(v)));
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let s: String = chars[start..i].iter().collect();
            let t = match s.as_str() {
                "and" | "AND" => Tok::And,
                "or" | "OR" => Tok::Or,
                "true" => Tok::True,
                "false" => Tok::False,
                _ => Tok::Ident(s),
            };
            out.push((start, t));
            continue;
        }
        let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
        let (tok, len) = match two.as_str() {
            "<=" => (Tok::Rel(Rel::Le), 2),
            ">=" => (Tok::Rel(Rel::Ge), 2),
            "!=" => (Tok::Rel(Rel::Ne), 2),
            "==" => (Tok::Rel(Rel::Eq), 2),
            "&&" => (Tok::And, 2),
            "||" => (Tok::Or, 2),
            _ => match c {
                '<' => (Tok::Rel(Rel::Lt), 1),
                '>' => (Tok::Rel(Rel::Gt), 1),
                '=' => (Tok::Rel(Rel::Eq), 1),
                '≤' => (Tok::Rel(Rel::Le), 1),
                '≥' => (Tok::Rel(Rel::Ge), 1),
                '≠' => (Tok::Rel(Rel::Ne), 1),
                '+' => (Tok::Plus, 1),
                '-' => (Tok::Minus, 1),
                '*' => (Tok::Star, 1),
                '/' => (Tok::Slash, 1),
                '%' => (Tok::Percent, 1),
                '(' => (Tok::LParen, 1),
                ')' => (Tok::RParen, 1),
                _ => return Err(err(start, &format!("unexpected character '{c}'"))),
            },
        };
        out.push((start, tok));
        i += len;
    }
    Ok(out)
}

enum Expr {
    Const(bool),
    Atom(Atom),
    And(Vec<Expr>),
    Or(Vec<Expr>),
}

struct Parser<'a> {
    toks: Vec<(usize, Tok)>,
    pos: usize,
    end: usize,
    vars: &'a [String],
    depth: usize,
}

type Linear = (BTreeMap<usize, BigRational>, BigRational);

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|(_, t)| t)
    }

    fn here(&self) -> usize {
        self.toks.get(self.pos).map_or(self.end, |(p, _)| *p)
    }

    fn err<T>(&self, m: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            pos: self.here(),
            message: m.into(),
        })
    }

    fn expr(&mut self) -> Result<Expr, ParseError> {
        self.depth += 1;
        if self.depth > 64 {
            return self.err("nested too deeply");
        }
        let mut items = vec![self.conj()?];
        while self.peek() == Some(&Tok::Or) {
            self.pos += 1;
            items.push(self.conj()?);
        }
        self.depth -= 1;
        Ok(if items.len() == 1 {
            items.pop().unwrap_or(Expr::Const(false))
        } else {
            Expr::Or(items)
        })
    }

    fn conj(&mut self) -> Result<Expr, ParseError> {
        let mut items = vec![self.primary()?];
        while self.peek() == Some(&Tok::And) {
            self.pos += 1;
            items.push(self.primary()?);
        }
        Ok(if items.len() == 1 {
            items.pop().unwrap_or(Expr::Const(true))
        } else {
            Expr::And(items)
        })
    }

    fn primary(&mut self) -> Result<Expr, ParseError> {
        match self.peek() {
            Some(Tok::LParen) => {
                self.pos += 1;
                let e = self.expr()?;
                if self.peek() != Some(&Tok::RParen) {
                    return self.err("expected ')'");
                }
                self.pos += 1;
                Ok(e)
            }
            Some(Tok::True) => {
                self.pos += 1;
                Ok(Expr::Const(true))
            }
            Some(Tok::False) => {
                self.pos += 1;
                Ok(Expr::Const(false))
            }
            Some(_) => self.atom(),
            None => self.err("unexpected end of formula"),
        }
    }

    fn atom(&mut self) -> Result<Expr, ParseError> {
        if let (Some(Tok::Ident(_)), Some(Tok::Percent)) = (
            self.toks.get(self.pos).map(|t| &t.1),
            self.toks.get(self.pos + 1).map(|t| &t.1),
        ) {
            return self.remainder_atom();
        }
        let start = self.here();
        let (lc, lk) = self.linear()?;
        let rel = match self.peek() {
            Some(Tok::Rel(r)) => *r,
            _ => return self.err("expected a comparison (<=, <, >=, >, =, !=)"),
        };
        self.pos += 1;
        let (rc, rk) = self.linear()?;
        // lhs - rhs REL 0  <=>  sum(c_i x_i) REL rk - lk
        let mut coeffs = lc;
        for (v, c) in rc {
            let e = coeffs.entry(v).or_insert_with(BigRational::zero);
            *e -= c;
        }
        let constant = rk - lk;
        let mut lcm = BigInt::one();
        for c in coeffs.values() {
            lcm = lcm.lcm(c.denom());
        }
        let scale = BigRational::from_integer(lcm);
        let mut terms = Vec::new();
        for (v, c) in coeffs {
            let s = (c * &scale).to_integer();
            match s.to_i64() {
                Some(a) if a.checked_abs().is_some() => terms.push((v, a)),
                _ => {
                    return Err(ParseError {
                        pos: start,
                        message: "coefficient too large".into(),
                    })
                }
            }
        }
        Ok(Expr::Atom(Atom::new(
            &terms,
            rel,
            Value::from_rational(constant * scale),
        )))
    }

    /// `x % m REL c`: one variable, a positive integer modulus, an integer constant.
    fn remainder_atom(&mut self) -> Result<Expr, ParseError> {
        let Some(Tok::Ident(name)) = self.peek().cloned() else {
            return self.err("expected a variable");
        };
        let Some(x) = self.vars.iter().position(|v| *v == name) else {
            return self.err(format!("unknown variable '{name}'"));
        };
        self.pos += 2;
        let m = match self.peek() {
            Some(Tok::Num(Value::Int(m))) if *m >= 1 => *m,
            _ => return self.err("expected a positive integer modulus after '%'"),
        };
        self.pos += 1;
        let rel = match self.peek() {
            Some(Tok::Rel(r)) => *r,
            _ => return self.err("expected a comparison (<=, <, >=, >, =, !=)"),
        };
        self.pos += 1;
        let at = self.here();
        let (coeffs, c) = self.linear()?;
        if coeffs.values().any(|c| !c.is_zero()) || !c.is_integer() {
            return Err(ParseError {
                pos: at,
                message: "a remainder is compared with an integer".into(),
            });
        }
        Ok(Expr::Atom(Atom::remainder(
            x,
            m,
            rel,
            Value::from_rational(c),
        )))
    }

    fn number(&mut self) -> Result<Option<BigRational>, ParseError> {
        let Some(Tok::Num(v)) = self.peek().cloned() else {
            return Ok(None);
        };
        self.pos += 1;
        let mut r = v.to_rational();
        if self.peek() == Some(&Tok::Slash) {
            self.pos += 1;
            match self.peek().cloned() {
                Some(Tok::Num(d)) if d != Value::ZERO => {
                    self.pos += 1;
                    r /= d.to_rational();
                }
                _ => return self.err("expected a nonzero number after '/'"),
            }
        }
        Ok(Some(r))
    }

    fn linear(&mut self) -> Result<Linear, ParseError> {
        let mut coeffs: BTreeMap<usize, BigRational> = BTreeMap::new();
        let mut constant = BigRational::zero();
        let mut first = true;
        loop {
            let mut sign = BigRational::one();
            match self.peek() {
                Some(Tok::Plus) if !first => self.pos += 1,
                Some(Tok::Minus) => {
                    self.pos += 1;
                    sign = -sign;
                }
                _ if first => {}
                _ => break,
            }
            first = false;
            let num = self.number()?;
            let var = match (num.is_some(), self.peek().cloned()) {
                (true, Some(Tok::Star)) => {
                    self.pos += 1;
                    match self.peek().cloned() {
                        Some(Tok::Ident(name)) => {
                            self.pos += 1;
                            Some(name)
                        }
                        _ => return self.err("expected a variable after '*'"),
                    }
                }
                (false, Some(Tok::Ident(name))) => {
                    self.pos += 1;
                    Some(name)
                }
                (true, _) => None,
                (false, _) => return self.err("expected a number or a variable"),
            };
            let c = sign * num.unwrap_or_else(BigRational::one);
            match var {
                Some(name) => {
                    let Some(idx) = self.vars.iter().position(|v| *v == name) else {
                        self.pos -= 1;
                        return self.err(format!("unknown variable '{name}'"));
                    };
                    *coeffs.entry(idx).or_insert_with(BigRational::zero) += c;
                }
                None => constant += c,
            }
        }
        Ok((coeffs, constant))
    }
}

fn to_group(e: Expr, inner_and: bool) -> Option<Vec<Atom>> {
    match e {
        Expr::Atom(a) => Some(vec![a]),
        Expr::And(items) if inner_and => items
            .into_iter()
            .map(|i| match i {
                Expr::Atom(a) => Some(a),
                _ => None,
            })
            .collect(),
        Expr::Or(items) if !inner_and => items
            .into_iter()
            .map(|i| match i {
                Expr::Atom(a) => Some(a),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// Flattens nested same-operator nodes and folds constants.
fn simplify(e: Expr) -> Expr {
    match e {
        Expr::And(items) => {
            let mut out = Vec::new();
            for i in items.into_iter().map(simplify) {
                match i {
                    Expr::Const(true) => {}
                    Expr::Const(false) => return Expr::Const(false),
                    Expr::And(inner) => out.extend(inner),
                    other => out.push(other),
                }
            }
            match out.len() {
                0 => Expr::Const(true),
                1 => out.pop().unwrap_or(Expr::Const(true)),
                _ => Expr::And(out),
            }
        }
        Expr::Or(items) => {
            let mut out = Vec::new();
            for i in items.into_iter().map(simplify) {
                match i {
                    Expr::Const(false) => {}
                    Expr::Const(true) => return Expr::Const(true),
                    Expr::Or(inner) => out.extend(inner),
                    other => out.push(other),
                }
            }
            match out.len() {
                0 => Expr::Const(false),
                1 => out.pop().unwrap_or(Expr::Const(false)),
                _ => Expr::Or(out),
            }
        }
        other => other,
    }
}

impl Formula {
    /// Parses the printed syntax back (`and` binds tighter than `or`; atoms may be
    /// parenthesised). `vars` names the point positions. The formula must be in CNF or
    /// DNF shape; `true` and `false` are accepted.
    pub fn parse(text: &str, vars: &[String]) -> Result<Formula, ParseError> {
        let toks = lex(text)?;
        let mut p = Parser {
            toks,
            pos: 0,
            end: text.chars().count(),
            vars,
            depth: 0,
        };
        let e = p.expr()?;
        if p.pos != p.toks.len() {
            return p.err("unexpected text after the formula");
        }
        let vars = vars.to_vec();
        let shape_err = || ParseError {
            pos: 0,
            message: "the formula is neither a CNF nor a DNF".into(),
        };
        Ok(match simplify(e) {
            Expr::Const(true) => Formula::truth(vars),
            Expr::Const(false) => Formula::falsity(vars),
            Expr::Atom(a) => Formula::dnf(vars, vec![vec![a]]),
            Expr::And(items) => {
                let groups: Option<Vec<Vec<Atom>>> =
                    items.into_iter().map(|i| to_group(i, false)).collect();
                Formula::cnf(vars, groups.ok_or_else(shape_err)?)
            }
            Expr::Or(items) => {
                let groups: Option<Vec<Vec<Atom>>> =
                    items.into_iter().map(|i| to_group(i, true)).collect();
                Formula::dnf(vars, groups.ok_or_else(shape_err)?)
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::oracle::triangle::vars as names;

    #[test]
    fn round_trips() {
        let n = names();
        for s in [
            "(a = b) and (b = c) and (a != 1) and (out = 2)  or  (a = b) and (c = 1)",
            "(a = b or c = 1) and (a != 1)",
            "(a <= 3)",
            "(a - b <= -2 or 2*a + 3*c > 7/3)",
            "true",
            "false",
            "(a + b - c <= 0) and (out >= 0.5)",
            "(a % 3 = 2 or out % 10 != 0) and (b % 2 = -1)",
        ] {
            let f = Formula::parse(s, &n).unwrap();
            assert_eq!(f.to_string(), s);
            assert_eq!(Formula::parse(&f.to_string(), &n).unwrap(), f);
        }
    }

    #[test]
    fn accepts_loose_syntax_and_reports_errors() {
        let n = names();
        let f = Formula::parse("a == b && 2 >= c - 1 || out = 3", &n).unwrap();
        assert_eq!(f.to_string(), "(a = b) and (c <= 3)  or  (out = 3)");
        let f = Formula::parse("1/2*a <= 1", &n).unwrap();
        assert_eq!(f.to_string(), "(a <= 2)");
        assert!(Formula::parse("a <= ", &n).is_err());
        assert!(Formula::parse("z <= 1", &n).is_err());
        assert!(Formula::parse("(a <= 1 or (b <= 1 and c <= 1)) and a = 1", &n).is_err());
        assert!(Formula::parse("a <= 1 )", &n).is_err());
        assert!(Formula::parse("#", &n).is_err());
        assert!(Formula::parse("a % 0 = 1", &n).is_err());
        assert!(Formula::parse("a % 3 = b", &n).is_err());
        assert!(Formula::parse("a % 3 = 1/2", &n).is_err());
        assert!(Formula::parse("z % 3 = 1", &n).is_err());
        let deep = format!("{}a = 1{}", "(".repeat(200), ")".repeat(200));
        assert!(Formula::parse(&deep, &n).is_err());
    }
}
