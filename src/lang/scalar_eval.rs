//! Side-effect-free evaluation of scalar C expressions by [`super::arith`]'s table: the compiler's constant expressions and repair's candidates over a hole's snapshot.
//!
//! [`resolve`] works out an expression's names (through the caller's `leaf` function) and
//! every node's kind once; [`Node::eval`] then computes its value as often as needed.

use super::arith::{
    bit_not, canon, conditional_kind, convert, convert_constant, is_zero, negate, sc_of,
    unary_result, BinaryRule,
};
use super::ast::{Expr, ExprKind, Type, UnaryOp};
use super::types::Sc;

/// The error of a node that cannot be evaluated.
pub const UNSUPPORTED: &str = "unsupported expression at hole";

/// A resolved scalar expression: every node knows its kind.
#[derive(Debug, Clone)]
pub enum Node {
    /// The value passed to [`Node::eval`] as `original`, of this kind.
    Original(Sc),
    /// A constant: canonical register value and kind.
    Value(u64, Sc),
    /// The value at this index of [`Node::eval`]'s `vars`, of this kind.
    Var(usize, Sc),
    /// `- + ~ !` with the result's kind.
    Unary(UnaryOp, Box<Node>, Sc),
    /// `&&` (true) or `||` (false).
    Logic(bool, Box<Node>, Box<Node>),
    /// A comparison, arithmetic, bitwise or shift operator.
    Binary(BinaryRule, Box<Node>, Box<Node>),
    /// `c ? a : b` with the result's kind.
    Conditional {
        cond: Box<Node>,
        then: Box<Node>,
        els: Box<Node>,
        kind: Sc,
    },
    /// A cast to this kind; `true`: of a floating constant, folded as gcc does.
    Cast(Box<Node>, Sc, bool),
    /// Not evaluable.
    Unsupported,
}

/// Resolves `e`: `leaf` is asked first about every node and may give its node (names,
/// `sizeof`, a repair hole); otherwise literals, casts to scalar types and the unary,
/// binary and conditional operators are resolved here, and anything else is
/// [`Node::Unsupported`]. A node over an unsupported operand, or whose operands C does
/// not allow (`%` of a `double`), is unsupported too.
pub fn resolve(e: &Expr, leaf: &mut dyn FnMut(&Expr) -> Option<Node>) -> Node {
    if let Some(n) = leaf(e) {
        return n;
    }
    let mut sub = |x: &Expr| {
        let n = resolve(x, leaf);
        n.kind().map(|k| (Box::new(n), k))
    };
    let n = match &e.kind {
        ExprKind::IntLit { value, ty } => {
            let sc = sc_of(*ty).unwrap_or(Sc::I32);
            Some(Node::Value(canon(sc, *value), sc))
        }
        ExprKind::CharLit(v) => Some(Node::Value(canon(Sc::I32, *v as u64), Sc::I32)),
        ExprKind::FloatLit { value, ty } => {
            let sc = sc_of(*ty).unwrap_or(Sc::F64);
            Some(Node::Value(canon(sc, value.to_bits()), sc))
        }
        ExprKind::Unary { op, operand } => {
            sub(operand).and_then(|(x, k)| Some(Node::Unary(*op, x, unary_result(*op, k)?)))
        }
        ExprKind::Binary { op, lhs, rhs } => match (sub(lhs), sub(rhs)) {
            (Some((a, ka)), Some((b, kb))) => {
                let rule = BinaryRule::of(*op, ka.promote(), kb.promote());
                match rule {
                    BinaryRule::Logic(and) => Some(Node::Logic(and, a, b)),
                    r if r.is_valid() => Some(Node::Binary(r, a, b)),
                    _ => None,
                }
            }
            _ => None,
        },
        ExprKind::Conditional { cond, then, els } => match (sub(cond), sub(then), sub(els)) {
            (Some((cond, _)), Some((then, kt)), Some((els, ke))) => Some(Node::Conditional {
                cond,
                then,
                els,
                kind: conditional_kind(kt, ke),
            }),
            _ => None,
        },
        ExprKind::Cast {
            ty: Type::Scalar(s),
            expr,
        } => match (sc_of(*s), sub(expr)) {
            (Some(to), Some((x, k))) => {
                let fold = k.is_float() && x.is_constant();
                Some(Node::Cast(x, to, fold))
            }
            _ => None,
        },
        _ => None,
    };
    n.unwrap_or(Node::Unsupported)
}

impl Node {
    /// The kind of the node's value (`None`: unsupported).
    pub fn kind(&self) -> Option<Sc> {
        Some(match self {
            Node::Original(k) | Node::Value(_, k) | Node::Var(_, k) => *k,
            Node::Unary(_, _, k) | Node::Cast(_, k, _) => *k,
            Node::Conditional { kind, .. } => *kind,
            Node::Logic(..) => Sc::I32,
            Node::Binary(rule, ..) => rule.result(),
            Node::Unsupported => return None,
        })
    }

    /// Whether the node depends on no value given at evaluation.
    pub fn is_constant(&self) -> bool {
        match self {
            Node::Value(..) => true,
            Node::Original(_) | Node::Var(..) | Node::Unsupported => false,
            Node::Unary(_, x, _) | Node::Cast(x, ..) => x.is_constant(),
            Node::Logic(_, a, b) | Node::Binary(_, a, b) => a.is_constant() && b.is_constant(),
            Node::Conditional {
                cond, then, els, ..
            } => cond.is_constant() && then.is_constant() && els.is_constant(),
        }
    }

    /// The value (canonical register of its kind) and kind, with `original` and `vars`
    /// the values of [`Node::Original`] and [`Node::Var`]; `Err`: a runtime error's
    /// message (division by zero) or [`UNSUPPORTED`].
    pub fn eval(&self, original: u64, vars: &[u64]) -> Result<(u64, Sc), String> {
        let at = |x: &Node, to: Sc| -> Result<u64, String> {
            let (v, k) = x.eval(original, vars)?;
            Ok(convert(k, to, v))
        };
        let truth = |x: &Node| -> Result<bool, String> {
            let (v, k) = x.eval(original, vars)?;
            let ak = k.promote();
            Ok(!is_zero(ak, convert(k, ak.sc(), v)))
        };
        Ok(match self {
            Node::Original(sc) => (original, *sc),
            Node::Value(v, sc) => (*v, *sc),
            Node::Var(i, sc) => (vars.get(*i).copied().unwrap_or(0), *sc),
            Node::Unary(op, x, k) => match op {
                UnaryOp::Not => (u64::from(!truth(x)?), Sc::I32),
                _ => {
                    let v = at(x, *k)?;
                    let ak = k.promote();
                    match op {
                        UnaryOp::Neg => (negate(ak, v), *k),
                        UnaryOp::BitNot => (bit_not(ak, v), *k),
                        _ => (v, *k),
                    }
                }
            },
            Node::Logic(and, a, b) => {
                let l = truth(a)?;
                if l != *and {
                    (u64::from(l), Sc::I32)
                } else {
                    (u64::from(truth(b)?), Sc::I32)
                }
            }
            Node::Binary(rule, a, b) => {
                let (ka, kb) = rule.operand_kinds();
                let x = at(a, ka)?;
                let y = at(b, kb)?;
                (rule.apply(x, y)?, rule.result())
            }
            Node::Conditional {
                cond,
                then,
                els,
                kind,
            } => {
                if truth(cond)? {
                    (at(then, *kind)?, *kind)
                } else {
                    (at(els, *kind)?, *kind)
                }
            }
            Node::Cast(x, to, fold) => {
                let (v, k) = x.eval(original, vars)?;
                let v = if *fold {
                    convert_constant(k, *to, v)
                } else {
                    convert(k, *to, v)
                };
                (v, *to)
            }
            Node::Unsupported => return Err(UNSUPPORTED.to_string()),
        })
    }
}
