//! Side-effect-free evaluation of candidate expressions over a repair hole's snapshot (the in-scope scalars), with the interpreter's own arithmetic.
//!
//! A node whose id is the hole's node id stands for the hole's original value (so
//! `E && B` with `E` the untouched original evaluates `E` without re-running it); every
//! other node must be a literal, a scalar variable of the site, a cast to a scalar type,
//! or a unary/binary/conditional operator over such nodes. A runtime error (division by
//! zero) is a value of its own: `Err(message)`. [`Resolved`] works out names and kinds
//! once per site, for the many hits of a hole.

use crate::lang::ast::{BinaryOp, Expr, ExprKind, ScalarType, Type, UnaryOp};
use crate::lang::bytecode::{Bop, Cop, HoleSite};
use crate::lang::types::{Ak, Sc};
use crate::lang::vm::{binary, bit_not, canon, compare, convert, is_zero, negate};

/// The error of an expression that cannot be evaluated at the site.
const UNSUPPORTED: &str = "unsupported expression at hole";

/// Id for nodes an engine creates (never the id of a parsed node).
pub const FRESH_ID: u32 = u32::MAX;

/// Storage kind of a scalar C type.
pub fn sc_of_scalar(s: ScalarType) -> Option<Sc> {
    Some(match s {
        ScalarType::Void => return None,
        ScalarType::Bool => Sc::Bool,
        ScalarType::Char | ScalarType::SChar => Sc::I8,
        ScalarType::UChar => Sc::U8,
        ScalarType::Short => Sc::I16,
        ScalarType::UShort => Sc::U16,
        ScalarType::Int => Sc::I32,
        ScalarType::UInt => Sc::U32,
        ScalarType::Long | ScalarType::LongLong => Sc::I64,
        ScalarType::ULong | ScalarType::ULongLong => Sc::U64,
        ScalarType::Float => Sc::F32,
        ScalarType::Double | ScalarType::LongDouble => Sc::F64,
    })
}

fn var_index(site: &HoleSite, name: &str) -> Option<usize> {
    site.vars.iter().position(|v| v.name == name)
}

/// The static kind of `e` at `site`, or `None` when `e` cannot be evaluated there.
pub fn kind_of(e: &Expr, site: &HoleSite) -> Option<Sc> {
    if e.id == site.node {
        return Some(site.sc);
    }
    Some(match &e.kind {
        ExprKind::IntLit { ty, .. } => sc_of_scalar(*ty)?,
        ExprKind::CharLit(_) => Sc::I32,
        ExprKind::FloatLit { ty, .. } => sc_of_scalar(*ty)?,
        ExprKind::Ident(n) => site.vars.get(var_index(site, n)?)?.sc,
        ExprKind::Unary { op, operand } => {
            let k = kind_of(operand, site)?;
            match op {
                UnaryOp::Neg | UnaryOp::Plus => k.promote().sc(),
                UnaryOp::BitNot if !k.is_float() => k.promote().sc(),
                UnaryOp::Not => Sc::I32,
                _ => return None,
            }
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let (a, b) = (kind_of(lhs, site)?.promote(), kind_of(rhs, site)?.promote());
            match op {
                BinaryOp::LogAnd | BinaryOp::LogOr => Sc::I32,
                o if o.is_comparison() => Sc::I32,
                BinaryOp::Shl | BinaryOp::Shr => {
                    if a.is_float() || b.is_float() {
                        return None;
                    }
                    a.sc()
                }
                BinaryOp::Rem | BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor => {
                    let k = Ak::usual(a, b);
                    if k.is_float() {
                        return None;
                    }
                    k.sc()
                }
                _ => Ak::usual(a, b).sc(),
            }
        }
        ExprKind::Conditional { cond, then, els } => {
            kind_of(cond, site)?;
            Ak::usual(
                kind_of(then, site)?.promote(),
                kind_of(els, site)?.promote(),
            )
            .sc()
        }
        ExprKind::Cast {
            ty: Type::Scalar(s),
            expr,
        } => {
            kind_of(expr, site)?;
            sc_of_scalar(*s)?
        }
        _ => return None,
    })
}

fn bop(op: BinaryOp) -> Option<Bop> {
    Some(match op {
        BinaryOp::Add => Bop::Add,
        BinaryOp::Sub => Bop::Sub,
        BinaryOp::Mul => Bop::Mul,
        BinaryOp::Div => Bop::Div,
        BinaryOp::Rem => Bop::Rem,
        BinaryOp::Shl => Bop::Shl,
        BinaryOp::Shr => Bop::Shr,
        BinaryOp::BitAnd => Bop::And,
        BinaryOp::BitOr => Bop::Or,
        BinaryOp::BitXor => Bop::Xor,
        _ => return None,
    })
}

fn cop(op: BinaryOp) -> Option<Cop> {
    Some(match op {
        BinaryOp::Lt => Cop::Lt,
        BinaryOp::Gt => Cop::Gt,
        BinaryOp::Le => Cop::Le,
        BinaryOp::Ge => Cop::Ge,
        BinaryOp::Eq => Cop::Eq,
        BinaryOp::Ne => Cop::Ne,
        _ => return None,
    })
}

/// A candidate expression resolved against one hole site: variables by their index in
/// the snapshot, kinds and literals worked out once, so a hit of the hole looks up no
/// name or kind.
#[derive(Debug, Clone)]
pub struct Resolved {
    root: Node,
    out: Sc,
}

/// One node of a [`Resolved`] expression.
#[derive(Debug, Clone)]
enum Node {
    /// The hole's original value.
    Original(Sc),
    /// A literal's canonical value.
    Value(u64, Sc),
    /// A snapshot variable (index, kind).
    Var(usize, Sc),
    Unary(UnaryOp, Box<Node>),
    /// `&&` (true) or `||` (false).
    Logic(bool, Box<Node>, Box<Node>),
    Shift(Bop, Box<Node>, Box<Node>),
    /// A comparison or arithmetic operator; `None`: another operator, an error once both
    /// operands are evaluated.
    Binary(Option<Result<Cop, Bop>>, Box<Node>, Box<Node>),
    Conditional {
        cond: Box<Node>,
        cond_kind: Sc,
        then: Box<Node>,
        els: Box<Node>,
        kind: Sc,
    },
    Cast(Box<Node>, Sc),
    /// Not evaluable at the site.
    Unsupported,
}

impl Resolved {
    /// Resolves `e` against `site`.
    pub fn new(e: &Expr, site: &HoleSite) -> Resolved {
        Resolved {
            root: resolve(e, site),
            out: site.sc,
        }
    }

    /// The value at the hole with its `original` value and the variables' values
    /// `vars`, converted to the site's kind.
    pub fn eval_at_hole(&self, original: u64, vars: &[u64]) -> Result<u64, String> {
        let (v, k) = self.root.eval(original, vars)?;
        Ok(convert(k, self.out, v))
    }
}

fn resolve(e: &Expr, site: &HoleSite) -> Node {
    if e.id == site.node {
        return Node::Original(site.sc);
    }
    let boxed = |x: &Expr| Box::new(resolve(x, site));
    match &e.kind {
        ExprKind::IntLit { value, ty } => {
            let sc = sc_of_scalar(*ty).unwrap_or(Sc::I32);
            Node::Value(canon(sc, *value), sc)
        }
        ExprKind::CharLit(v) => Node::Value(canon(Sc::I32, *v as u64), Sc::I32),
        ExprKind::FloatLit { value, ty } => {
            let sc = sc_of_scalar(*ty).unwrap_or(Sc::F64);
            Node::Value(canon(sc, value.to_bits()), sc)
        }
        ExprKind::Ident(n) => match var_index(site, n) {
            Some(i) => Node::Var(i, site.vars[i].sc),
            None => Node::Unsupported,
        },
        ExprKind::Unary { op, operand } => Node::Unary(*op, boxed(operand)),
        ExprKind::Binary { op, lhs, rhs } => match op {
            BinaryOp::LogAnd | BinaryOp::LogOr => {
                Node::Logic(*op == BinaryOp::LogAnd, boxed(lhs), boxed(rhs))
            }
            BinaryOp::Shl | BinaryOp::Shr => match bop(*op) {
                Some(b) => Node::Shift(b, boxed(lhs), boxed(rhs)),
                None => Node::Binary(None, boxed(lhs), boxed(rhs)),
            },
            o => {
                let which = cop(*o).map(Ok).or_else(|| bop(*o).map(Err));
                Node::Binary(which, boxed(lhs), boxed(rhs))
            }
        },
        ExprKind::Conditional { cond, then, els } => {
            let (Some(kc), Some(kt), Some(ke)) =
                (kind_of(cond, site), kind_of(then, site), kind_of(els, site))
            else {
                return Node::Unsupported;
            };
            Node::Conditional {
                cond: boxed(cond),
                cond_kind: kc,
                then: boxed(then),
                els: boxed(els),
                kind: Ak::usual(kt.promote(), ke.promote()).sc(),
            }
        }
        ExprKind::Cast {
            ty: Type::Scalar(s),
            expr,
        } => match sc_of_scalar(*s) {
            Some(to) => Node::Cast(boxed(expr), to),
            None => Node::Unsupported,
        },
        _ => Node::Unsupported,
    }
}

impl Node {
    /// Value (canonical register of its kind) and kind.
    fn eval(&self, original: u64, vars: &[u64]) -> Result<(u64, Sc), String> {
        let at = |x: &Node, to: Sc| -> Result<u64, String> {
            let (v, k) = x.eval(original, vars)?;
            Ok(convert(k, to, v))
        };
        let promoted = |x: &Node| -> Result<(u64, Ak), String> {
            let (v, k) = x.eval(original, vars)?;
            let ak = k.promote();
            Ok((convert(k, ak.sc(), v), ak))
        };
        Ok(match self {
            Node::Original(sc) => (original, *sc),
            Node::Value(v, sc) => (*v, *sc),
            Node::Var(i, sc) => (vars.get(*i).copied().unwrap_or(0), *sc),
            Node::Unary(op, operand) => {
                let (v, ak) = promoted(operand)?;
                match op {
                    UnaryOp::Neg => (negate(ak, v), ak.sc()),
                    UnaryOp::Plus => (v, ak.sc()),
                    UnaryOp::BitNot => (bit_not(ak, v), ak.sc()),
                    UnaryOp::Not => (u64::from(is_zero(ak, v)), Sc::I32),
                    _ => return Err(UNSUPPORTED.to_string()),
                }
            }
            Node::Logic(and, lhs, rhs) => {
                let (a, ka) = promoted(lhs)?;
                let l = !is_zero(ka, a);
                if l != *and {
                    (u64::from(l), Sc::I32)
                } else {
                    let (b, kb) = promoted(rhs)?;
                    (u64::from(!is_zero(kb, b)), Sc::I32)
                }
            }
            Node::Shift(b, lhs, rhs) => {
                let (x, ka) = promoted(lhs)?;
                let (y, kb) = promoted(rhs)?;
                let y = convert(kb.sc(), Sc::I64, y);
                (binary(*b, ka, x, y)?, ka.sc())
            }
            Node::Binary(which, lhs, rhs) => {
                let (x, ka) = promoted(lhs)?;
                let (y, kb) = promoted(rhs)?;
                let k = Ak::usual(ka, kb);
                let x = convert(ka.sc(), k.sc(), x);
                let y = convert(kb.sc(), k.sc(), y);
                match which {
                    Some(Ok(c)) => (compare(*c, k, x, y), Sc::I32),
                    Some(Err(b)) => (binary(*b, k, x, y)?, k.sc()),
                    None => return Err("operator".to_string()),
                }
            }
            Node::Conditional {
                cond,
                cond_kind: kc,
                then,
                els,
                kind: k,
            } => {
                let c = at(cond, *kc)?;
                if is_zero(kc.promote(), convert(*kc, kc.promote().sc(), c)) {
                    (at(els, *k)?, *k)
                } else {
                    (at(then, *k)?, *k)
                }
            }
            Node::Cast(expr, to) => (at(expr, *to)?, *to),
            Node::Unsupported => return Err(UNSUPPORTED.to_string()),
        })
    }
}
