//! C's scalar semantics in one table: the storage kind of each scalar type, the usual arithmetic conversions, each operator's operand and result kinds and its value on every kind, shared by the VM, constant expressions and repair's hole evaluator.

use super::ast::{BinaryOp, ScalarType, UnaryOp};
use super::bytecode::{Bop, Cop};
use super::trap::Trap;
use super::types::{Ak, Sc};
use super::UndefinedKind;

/// Storage kind of a scalar C type (`None`: `void`).
pub fn sc_of(s: ScalarType) -> Option<Sc> {
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

/// The arithmetic (or bitwise, or shift) instruction of a binary operator.
pub fn bop(op: BinaryOp) -> Option<Bop> {
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

/// The comparison of a binary operator.
pub fn cop(op: BinaryOp) -> Option<Cop> {
    Some(match op {
        BinaryOp::Eq => Cop::Eq,
        BinaryOp::Ne => Cop::Ne,
        BinaryOp::Lt => Cop::Lt,
        BinaryOp::Le => Cop::Le,
        BinaryOp::Gt => Cop::Gt,
        BinaryOp::Ge => Cop::Ge,
        _ => return None,
    })
}

/// How a binary operator of C applies to arithmetic operands of promoted kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryRule {
    /// `&&` (true) or `||` (false): each operand tested against zero in its own kind;
    /// the result is an `int` 0 or 1.
    Logic(bool),
    /// A comparison carried out in the usual arithmetic conversion of both kinds; `int`.
    Compare(Cop, Ak),
    /// `<<` or `>>`: the left operand in its promoted kind (the result's), the right one
    /// converted to `long long`; the second kind is the right operand's promoted kind.
    Shift(Bop, Ak, Ak),
    /// An arithmetic or bitwise operator carried out, and typed, in the usual arithmetic
    /// conversion of both kinds.
    Arith(Bop, Ak),
}

impl BinaryRule {
    /// The rule of `op` for operands of promoted kinds `a` and `b`.
    pub fn of(op: BinaryOp, a: Ak, b: Ak) -> BinaryRule {
        if let Some(c) = cop(op) {
            return BinaryRule::Compare(c, Ak::usual(a, b));
        }
        match bop(op) {
            Some(s @ (Bop::Shl | Bop::Shr)) => BinaryRule::Shift(s, a, b),
            Some(o) => BinaryRule::Arith(o, Ak::usual(a, b)),
            None => BinaryRule::Logic(op == BinaryOp::LogAnd),
        }
    }
    /// Whether C allows the operands: no floating operand to `%`, `&`, `|`, `^`, `<<`, `>>`.
    pub fn is_valid(self) -> bool {
        match self {
            BinaryRule::Shift(_, a, b) => !a.is_float() && !b.is_float(),
            BinaryRule::Arith(Bop::Rem | Bop::And | Bop::Or | Bop::Xor, k) => !k.is_float(),
            _ => true,
        }
    }
    /// The kind of the result.
    pub fn result(self) -> Sc {
        match self {
            BinaryRule::Logic(_) | BinaryRule::Compare(..) => Sc::I32,
            BinaryRule::Shift(_, k, _) | BinaryRule::Arith(_, k) => k.sc(),
        }
    }
    /// `a op b` for operands already converted to the rule's operand kinds (for a shift:
    /// the right one to `long long`); a comparison gives 0 or 1. `Logic` is not evaluated
    /// here (its right operand may not be). `Err`: the runtime error's message.
    pub fn apply(self, a: u64, b: u64) -> Result<u64, String> {
        match self {
            BinaryRule::Compare(c, k) => Ok(compare(c, k, a, b)),
            BinaryRule::Shift(o, k, _) | BinaryRule::Arith(o, k) => binary(o, k, a, b),
            BinaryRule::Logic(_) => Err("operator".to_string()),
        }
    }
    /// The kinds the left and right operands are converted to before [`BinaryRule::apply`].
    pub fn operand_kinds(self) -> (Sc, Sc) {
        match self {
            BinaryRule::Compare(_, k) | BinaryRule::Arith(_, k) => (k.sc(), k.sc()),
            BinaryRule::Shift(_, k, _) => (k.sc(), Sc::I64),
            BinaryRule::Logic(_) => (Sc::I32, Sc::I32),
        }
    }
}

/// The kind of `op x` for `x` of kind `k` (`None`: not an arithmetic unary operator, or
/// `~` of a floating operand).
pub fn unary_result(op: UnaryOp, k: Sc) -> Option<Sc> {
    match op {
        UnaryOp::Neg | UnaryOp::Plus => Some(k.promote().sc()),
        UnaryOp::BitNot if !k.is_float() => Some(k.promote().sc()),
        UnaryOp::Not => Some(Sc::I32),
        _ => None,
    }
}

/// The kind of `c ? a : b` for arithmetic `a` and `b` of kinds `a` and `b`.
pub fn conditional_kind(a: Sc, b: Sc) -> Sc {
    Ak::usual(a.promote(), b.promote()).sc()
}

/// A floating constant converted to integer kind `to` (not `_Bool`) as gcc folds it at
/// compile time, saturating instead of the run time's "integer indefinite".
pub fn fold_float_to_int(f: f64, to: Sc) -> u64 {
    match to {
        Sc::I8 | Sc::I16 | Sc::I32 => canon(to, f as i32 as i64 as u64),
        Sc::U8 | Sc::U16 | Sc::U32 => canon(to, f as u32 as u64),
        Sc::U64 => f as u64,
        _ => f as i64 as u64,
    }
}

/// A constant converted between kinds as gcc's constant folding does: as at run time
/// ([`convert`]), except a floating value to an integer saturates ([`fold_float_to_int`]).
pub fn convert_constant(from: Sc, to: Sc, v: u64) -> u64 {
    if from.is_float() && to.is_int() && to != Sc::Bool {
        fold_float_to_int(f64::from_bits(v), to)
    } else {
        convert(from, to, v)
    }
}

/// Canonical register form of integer `v` stored as kind `sc`.
#[inline(always)]
pub fn canon(sc: Sc, v: u64) -> u64 {
    match sc {
        Sc::Bool => (v != 0) as u64,
        Sc::I8 => v as i8 as i64 as u64,
        Sc::U8 => v as u8 as u64,
        Sc::I16 => v as i16 as i64 as u64,
        Sc::U16 => v as u16 as u64,
        Sc::I32 => v as i32 as i64 as u64,
        Sc::U32 => v as u32 as u64,
        Sc::I64 | Sc::U64 | Sc::Ptr => v,
        Sc::F32 => (f64::from_bits(v) as f32 as f64).to_bits(),
        Sc::F64 => v,
    }
}

/// x86 `cvttsd2si` with a 32-bit destination: out of range gives 0x80000000.
#[inline]
fn f2i32(f: f64) -> i32 {
    if f > -2147483649.0 && f < 2147483648.0 {
        f as i32
    } else {
        i32::MIN
    }
}

/// x86 `cvttsd2si` with a 64-bit destination: out of range gives 0x8000000000000000.
#[inline]
fn f2i64(f: f64) -> i64 {
    if (-9223372036854775808.0..9223372036854775808.0).contains(&f) {
        f as i64
    } else {
        i64::MIN
    }
}

/// Converts a register value between storage kinds as gcc -O0 on x86-64 does.
#[inline]
pub fn convert(from: Sc, to: Sc, v: u64) -> u64 {
    if from.is_float() {
        let f = f64::from_bits(v);
        match to {
            Sc::F64 => v,
            Sc::F32 => (f as f32 as f64).to_bits(),
            Sc::Bool => (f != 0.0) as u64,
            Sc::I64 | Sc::Ptr => f2i64(f) as u64,
            Sc::U64 => {
                if f < 9223372036854775808.0 {
                    f2i64(f) as u64
                } else {
                    (f2i64(f - 9223372036854775808.0) as u64) ^ (1 << 63)
                }
            }
            Sc::U32 => canon(Sc::U32, f2i64(f) as u64),
            _ => canon(to, f2i32(f) as i64 as u64),
        }
    } else {
        match to {
            Sc::F64 => {
                if from == Sc::U64 {
                    (v as f64).to_bits()
                } else {
                    (v as i64 as f64).to_bits()
                }
            }
            Sc::F32 => {
                if from == Sc::U64 {
                    (v as f32 as f64).to_bits()
                } else {
                    (v as i64 as f32 as f64).to_bits()
                }
            }
            _ => canon(to, v),
        }
    }
}

pub fn cmp<T: PartialOrd>(op: Cop, a: T, b: T) -> u64 {
    (match op {
        Cop::Eq => a == b,
        Cop::Ne => a != b,
        Cop::Lt => a < b,
        Cop::Le => a <= b,
        Cop::Gt => a > b,
        Cop::Ge => a >= b,
    }) as u64
}

fn div_zero() -> Trap {
    Trap::Error("division by zero".into())
}

/// An unsigned operation on `$t` (wrapping, as C's unsigned arithmetic is defined to);
/// division by zero traps.
macro_rules! unsigned_binop {
    ($t:ty, $op:expr, $a:expr, $b:expr) => {{
        let (x, y) = ($a as $t, $b as $t);
        match $op {
            Bop::Add => x.wrapping_add(y),
            Bop::Sub => x.wrapping_sub(y),
            Bop::Mul => x.wrapping_mul(y),
            Bop::Div => x.checked_div(y).ok_or_else(div_zero)?,
            Bop::Rem => x.checked_rem(y).ok_or_else(div_zero)?,
            Bop::Shl => x.wrapping_shl($b as u32),
            Bop::Shr => x.wrapping_shr($b as u32),
            Bop::And => x & y,
            Bop::Or => x | y,
            Bop::Xor => x ^ y,
        }
    }};
}

/// One signed integer operation of C at type `$t` (division traps on zero and on
/// `MIN / -1`, as gcc's SIGFPE does), giving the `$t` result; an overflow of `+ - *`
/// returns [`Trap::Undefined`] with the wrapped value.
macro_rules! signed_binop {
    ($t:ty, $op:expr, $a:expr, $b:expr) => {{
        let (x, y) = ($a as $t, $b as $t);
        let (r, overflow) = match $op {
            Bop::Add => x.overflowing_add(y),
            Bop::Sub => x.overflowing_sub(y),
            Bop::Mul => x.overflowing_mul(y),
            Bop::Div | Bop::Rem => {
                if y == 0 {
                    return Err(div_zero());
                }
                if x == <$t>::MIN && y == -1 {
                    return Err(Trap::Error("integer overflow".into()));
                }
                if $op == Bop::Div {
                    (x / y, false)
                } else {
                    (x % y, false)
                }
            }
            Bop::Shl => (x.wrapping_shl($b as u32), false),
            Bop::Shr => (x.wrapping_shr($b as u32), false),
            Bop::And => (x & y, false),
            Bop::Or => (x | y, false),
            Bop::Xor => (x ^ y, false),
        };
        if overflow {
            return Err(Trap::Undefined(
                UndefinedKind::SignedOverflow,
                r as i64 as u64,
            ));
        }
        r
    }};
}

/// Integer/float binary operation in kind `k`, as the VM's instructions do it: an
/// overflow of signed `+ - *` is [`Trap::Undefined`] with the wrapped value.
#[inline(always)]
pub fn binop(op: Bop, k: Ak, a: u64, b: u64) -> Result<u64, Trap> {
    Ok(match k {
        Ak::I32 => signed_binop!(i32, op, a, b) as i64 as u64,
        Ak::U32 => unsigned_binop!(u32, op, a, b) as u64,
        Ak::I64 => signed_binop!(i64, op, a, b) as u64,
        Ak::U64 => unsigned_binop!(u64, op, a, b),
        Ak::F32 | Ak::F64 => {
            let (x, y) = (f64::from_bits(a), f64::from_bits(b));
            let r = match op {
                Bop::Add => x + y,
                Bop::Sub => x - y,
                Bop::Mul => x * y,
                Bop::Div => x / y,
                _ => return Err(Trap::Error("invalid floating-point operation".into())),
            };
            if k == Ak::F32 {
                (r as f32 as f64).to_bits()
            } else {
                r.to_bits()
            }
        }
    })
}

/// `-a` in kind `k` (integers wrap).
#[inline]
pub fn negate(k: Ak, a: u64) -> u64 {
    match k {
        Ak::I32 => (a as i32).wrapping_neg() as i64 as u64,
        Ak::U32 => (a as u32).wrapping_neg() as u64,
        Ak::I64 | Ak::U64 => a.wrapping_neg(),
        Ak::F32 | Ak::F64 => (-f64::from_bits(a)).to_bits(),
    }
}

/// `~a` in integer kind `k`.
#[inline]
pub fn bit_not(k: Ak, a: u64) -> u64 {
    match k {
        Ak::U32 => (!(a as u32)) as u64,
        _ => !a,
    }
}

/// The binary operation `a op b` in kind `k` exactly as the interpreter does it; `Err`
/// holds the runtime error message (division by zero, overflow of `MIN / -1`).
pub fn binary(op: Bop, k: Ak, a: u64, b: u64) -> Result<u64, String> {
    match binop(op, k, a, b) {
        Ok(v) | Err(Trap::Undefined(_, v)) => Ok(v),
        Err(Trap::Error(m)) => Err(m),
        Err(other) => Err(format!("{other:?}")),
    }
}

/// The comparison `a op b` in kind `k` (0 or 1) exactly as the interpreter does it.
#[inline(always)]
pub fn compare(op: Cop, k: Ak, a: u64, b: u64) -> u64 {
    match k {
        Ak::I32 | Ak::I64 => cmp(op, a as i64, b as i64),
        Ak::U32 | Ak::U64 => cmp(op, a, b),
        Ak::F32 | Ak::F64 => cmp(op, f64::from_bits(a), f64::from_bits(b)),
    }
}

/// Whether `a` is zero in kind `k` (C truth: false).
#[inline(always)]
pub fn is_zero(k: Ak, a: u64) -> bool {
    if k.is_float() {
        f64::from_bits(a) == 0.0
    } else {
        a == 0
    }
}
