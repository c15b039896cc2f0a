//! Side-effect-free evaluation of candidate expressions over a repair hole's snapshot (the in-scope scalars), with the interpreter's own arithmetic.
//!
//! A node whose id is the hole's node id stands for the hole's original value (so
//! `E && B` with `E` the untouched original evaluates `E` without re-running it); every
//! other node must be a literal, a scalar variable of the site, a cast to a scalar type,
//! or a unary/binary/conditional operator over such nodes. A runtime error (division by
//! zero) is a value of its own: `Err(message)`.

use crate::lang::ast::{BinaryOp, Expr, ExprKind, ScalarType, Type, UnaryOp};
use crate::lang::bytecode::{Bop, Cop, HoleSite};
use crate::lang::types::{Ak, Sc};
use crate::lang::vm::{binary, bit_not, canon, compare, convert, is_zero, negate};

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

/// Evaluates `e` (which [`kind_of`] accepts) at `site` with the hole's `original` value
/// and the variables' values `vars`; the result is converted to the site's kind.
pub fn eval_at_hole(e: &Expr, site: &HoleSite, original: u64, vars: &[u64]) -> Result<u64, String> {
    let (v, k) = eval(e, site, original, vars)?;
    Ok(convert(k, site.sc, v))
}

/// Value (canonical register of its kind) and kind of `e`.
fn eval(e: &Expr, site: &HoleSite, original: u64, vars: &[u64]) -> Result<(u64, Sc), String> {
    let unsupported = || Err("unsupported expression at hole".to_string());
    if e.id == site.node {
        return Ok((original, site.sc));
    }
    let at = |x: &Expr, to: Sc| -> Result<u64, String> {
        let (v, k) = eval(x, site, original, vars)?;
        Ok(convert(k, to, v))
    };
    Ok(match &e.kind {
        ExprKind::IntLit { value, ty } => {
            let sc = sc_of_scalar(*ty).unwrap_or(Sc::I32);
            (canon(sc, *value), sc)
        }
        ExprKind::CharLit(v) => (canon(Sc::I32, *v as u64), Sc::I32),
        ExprKind::FloatLit { value, ty } => {
            let sc = sc_of_scalar(*ty).unwrap_or(Sc::F64);
            (canon(sc, value.to_bits()), sc)
        }
        ExprKind::Ident(n) => {
            let Some(i) = var_index(site, n) else {
                return unsupported();
            };
            (vars.get(i).copied().unwrap_or(0), site.vars[i].sc)
        }
        ExprKind::Unary { op, operand } => {
            let Some(k) = kind_of(operand, site) else {
                return unsupported();
            };
            let ak = k.promote();
            let v = at(operand, ak.sc())?;
            match op {
                UnaryOp::Neg => (negate(ak, v), ak.sc()),
                UnaryOp::Plus => (v, ak.sc()),
                UnaryOp::BitNot => (bit_not(ak, v), ak.sc()),
                UnaryOp::Not => (u64::from(is_zero(ak, v)), Sc::I32),
                _ => return unsupported(),
            }
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let (Some(a), Some(b)) = (kind_of(lhs, site), kind_of(rhs, site)) else {
                return unsupported();
            };
            let (ka, kb) = (a.promote(), b.promote());
            match op {
                BinaryOp::LogAnd | BinaryOp::LogOr => {
                    let l = !is_zero(ka, at(lhs, ka.sc())?);
                    let short = if *op == BinaryOp::LogAnd { !l } else { l };
                    if short {
                        (u64::from(l), Sc::I32)
                    } else {
                        (u64::from(!is_zero(kb, at(rhs, kb.sc())?)), Sc::I32)
                    }
                }
                BinaryOp::Shl | BinaryOp::Shr => {
                    let x = at(lhs, ka.sc())?;
                    let y = at(rhs, Sc::I64)?;
                    let b = bop(*op).ok_or("operator")?;
                    (binary(b, ka, x, y)?, ka.sc())
                }
                o => {
                    let k = Ak::usual(ka, kb);
                    let x = at(lhs, k.sc())?;
                    let y = at(rhs, k.sc())?;
                    if let Some(c) = cop(*o) {
                        (compare(c, k, x, y), Sc::I32)
                    } else {
                        let b = bop(*o).ok_or("operator")?;
                        (binary(b, k, x, y)?, k.sc())
                    }
                }
            }
        }
        ExprKind::Conditional { cond, then, els } => {
            let (Some(kc), Some(kt), Some(ke)) =
                (kind_of(cond, site), kind_of(then, site), kind_of(els, site))
            else {
                return unsupported();
            };
            let k = Ak::usual(kt.promote(), ke.promote()).sc();
            let c = at(cond, kc)?;
            if is_zero(kc.promote(), convert(kc, kc.promote().sc(), c)) {
                (at(els, k)?, k)
            } else {
                (at(then, k)?, k)
            }
        }
        ExprKind::Cast {
            ty: Type::Scalar(s),
            expr,
        } => {
            let Some(to) = sc_of_scalar(*s) else {
                return unsupported();
            };
            (at(expr, to)?, to)
        }
        _ => return unsupported(),
    })
}
