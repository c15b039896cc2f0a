//! Side-effect-free evaluation of candidate expressions over a repair hole's snapshot (the in-scope scalars), by `lang::scalar_eval` with the interpreter's own arithmetic.
//!
//! A node whose id is the hole's node id stands for the hole's original value (so
//! `E && B` with `E` the untouched original evaluates `E` without re-running it); every
//! other node must be a literal, a scalar variable of the site, a cast to a scalar type,
//! or a unary/binary/conditional operator over such nodes. A runtime error (division by
//! zero) is a value of its own: `Err(message)`. [`Resolved`] works out names and kinds
//! once per site, for the many hits of a hole.

use crate::lang::arith::{conditional_kind, convert, sc_of, unary_result, BinaryRule};
use crate::lang::ast::{Expr, ExprKind, Type};
use crate::lang::bytecode::HoleSite;
use crate::lang::scalar_eval::{resolve, Node};
use crate::lang::types::Sc;

/// Id for nodes an engine creates (never the id of a parsed node).
pub const FRESH_ID: u32 = u32::MAX;

fn var_index(site: &HoleSite, name: &str) -> Option<usize> {
    site.vars.iter().position(|v| v.name == name)
}

/// The static kind of `e` at `site`, or `None` when `e` cannot be evaluated there (the
/// kinds of [`Resolved::new`]'s nodes, without building them).
pub fn kind_of(e: &Expr, site: &HoleSite) -> Option<Sc> {
    if e.id == site.node {
        return Some(site.sc);
    }
    Some(match &e.kind {
        ExprKind::IntLit { ty, .. } => sc_of(*ty)?,
        ExprKind::CharLit(_) => Sc::I32,
        ExprKind::FloatLit { ty, .. } => sc_of(*ty)?,
        ExprKind::Ident(n) => site.vars.get(var_index(site, n)?)?.sc,
        ExprKind::Unary { op, operand } => unary_result(*op, kind_of(operand, site)?)?,
        ExprKind::Binary { op, lhs, rhs } => {
            let (a, b) = (kind_of(lhs, site)?.promote(), kind_of(rhs, site)?.promote());
            let rule = BinaryRule::of(*op, a, b);
            if !rule.is_valid() {
                return None;
            }
            rule.result()
        }
        ExprKind::Conditional { cond, then, els } => {
            kind_of(cond, site)?;
            conditional_kind(kind_of(then, site)?, kind_of(els, site)?)
        }
        ExprKind::Cast {
            ty: Type::Scalar(s),
            expr,
        } => {
            kind_of(expr, site)?;
            sc_of(*s)?
        }
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

impl Resolved {
    /// Resolves `e` against `site`.
    pub fn new(e: &Expr, site: &HoleSite) -> Resolved {
        Resolved {
            root: resolve(e, &mut site_leaf(site)),
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

/// A hole site's leaves: the hole's node is its original value, a name one of the
/// snapshot's variables; any other name cannot be evaluated there.
fn site_leaf(site: &HoleSite) -> impl FnMut(&Expr) -> Option<Node> + '_ {
    move |e| {
        if e.id == site.node {
            return Some(Node::Original(site.sc));
        }
        match &e.kind {
            ExprKind::Ident(n) => Some(match var_index(site, n) {
                Some(i) => Node::Var(i, site.vars[i].sc),
                None => Node::Unsupported,
            }),
            _ => None,
        }
    }
}
