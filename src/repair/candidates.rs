//! The candidate edits at one statement, for every engine: f1x's expression modifications and condition refinements, guards, inserted assignments, deletion and GenProg's copies, each with the repair hole where its value can be computed.
//!
//! Engine 1 ([`super::enumerate`]) groups them by hole and decides each group by
//! test-equivalence; engine 2 ([`super::gp_program`]) draws them per edit kind. Both see
//! the same list in the same order, within the repair's cost budget and off its trusted
//! lines.

use super::cost::EditKind;
use super::holeval::kind_of;
use super::mutate::{
    assignment_values, bin, conditions, donors, fresh, locations, mutations, path_to, replace_node,
    var,
};
use super::patch::{Edit, RepairSource, StmtInfo};
use super::RepairConfig;
use crate::lang::ast::{BinaryOp, Expr, ExprKind, Span, Stmt, StmtKind};
use crate::lang::bytecode::{HoleSite, HoleVar};
use crate::lang::types::Sc;
use crate::lang::NodeId;

/// Where a candidate's new value can be computed while the program runs.
#[derive(Debug, Clone, PartialEq)]
pub enum Site {
    /// At expression node `hole` of the original program, whose replacement is the
    /// candidate's `at_hole`; `root` is the location (the statement's expression it is in).
    Expr {
        /// The location.
        root: NodeId,
        /// The node compiled as the hole (the edited node or an ancestor of it).
        hole: NodeId,
    },
    /// An expression edit with no evaluable hole at its location `root` (it runs as a
    /// whole program).
    Unevaluable {
        /// The location.
        root: NodeId,
    },
    /// The condition of a guard inserted before the statement.
    Guard,
    /// The value assigned to `var` (of kind `sc`) by an assignment inserted before the
    /// statement.
    Assigned {
        /// The variable.
        var: String,
        /// Its scalar kind.
        sc: Sc,
    },
    /// No hole: a deletion or a statement copy, one run per test.
    Statement,
}

/// One candidate edit.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The edit.
    pub edit: Edit,
    /// Where its value is computed.
    pub site: Site,
    /// The expression evaluated at the hole (none for [`Site::Statement`] and
    /// [`Site::Unevaluable`]).
    pub at_hole: Option<Expr>,
}

/// Whether a statement may get statement edits (guards, assignments, deletion, copies).
pub(super) fn takes_statement_edits(info: &StmtInfo) -> bool {
    !matches!(
        info.stmt.kind,
        StmtKind::Decl(_)
            | StmtKind::Case { .. }
            | StmtKind::Default { .. }
            | StmtKind::Label { .. }
            | StmtKind::Empty
    )
}

/// A new statement (id [`super::holeval::FRESH_ID`], no span).
pub fn fresh_stmt(kind: StmtKind) -> Stmt {
    Stmt {
        id: super::holeval::FRESH_ID,
        span: Span::default(),
        kind,
    }
}

/// A statement `e;`.
pub fn expr_stmt(e: Expr) -> Stmt {
    fresh_stmt(StmtKind::Expr(e))
}

/// `target = value`.
pub fn assign(target: &str, value: Expr) -> Expr {
    fresh(ExprKind::Assign {
        op: None,
        lhs: Box::new(var(target)),
        rhs: Box::new(value),
    })
}

/// Every candidate at statement `stmt` with the variables `scope` in scope, in order: per
/// location, its expression modifications then (at a condition) its refinements `E && B`
/// and `E || B`; then guards, inserted assignments (per integer variable, at most
/// [`RepairConfig::max_assigned_vars`]), the deletion and the copies of donor statements
/// (insert before, replace). Only candidates within the cost budget and off trusted lines.
pub fn candidates_at(
    src: &RepairSource,
    stmt: NodeId,
    scope: &[HoleVar],
    constants: &[i64],
    config: &RepairConfig,
) -> Vec<Candidate> {
    let Some(info) = src.stmt(stmt) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut push = |edit: Edit, site: Site, at_hole: Option<Expr>| {
        let admitted = edit.cost(&config.costs) <= config.budget
            && src.check(&edit, &config.trusted_lines).is_ok();
        if admitted {
            out.push(Candidate {
                edit,
                site,
                at_hole,
            });
        }
    };
    for (root_id, is_cond) in locations(src, info) {
        let Some(root) = src.expr(root_id) else {
            continue;
        };
        for m in mutations(root, scope, constants) {
            let path = path_to(root, m.target).unwrap_or_default();
            let hole = path.iter().find_map(|&a| {
                let replaced = replace_node(src.expr(a)?, m.target, &m.with)?;
                let site = HoleSite {
                    node: a,
                    sc: Sc::I32,
                    vars: scope.to_vec(),
                };
                kind_of(&replaced, &site).map(|_| (a, replaced))
            });
            let edit = Edit::ReplaceExpr {
                target: m.target,
                with: m.with,
                kind: m.kind,
            };
            match hole {
                Some((hole, replaced)) => push(
                    edit,
                    Site::Expr {
                        root: root_id,
                        hole,
                    },
                    Some(replaced),
                ),
                None => push(edit, Site::Unevaluable { root: root_id }, None),
            }
        }
        if is_cond {
            for b in conditions(scope, constants, config.max_conditions) {
                for op in [BinaryOp::LogAnd, BinaryOp::LogOr] {
                    let with = bin(op, root.clone(), b.clone());
                    let edit = Edit::ReplaceExpr {
                        target: root_id,
                        with: with.clone(),
                        kind: EditKind::RefineCondition,
                    };
                    let site = Site::Expr {
                        root: root_id,
                        hole: root_id,
                    };
                    push(edit, site, Some(with));
                }
            }
        }
    }
    if !takes_statement_edits(info) {
        return out;
    }
    for cond in conditions(scope, constants, config.max_conditions) {
        let edit = Edit::InsertGuard {
            target: stmt,
            cond: cond.clone(),
        };
        push(edit, Site::Guard, Some(cond));
    }
    for v in scope
        .iter()
        .filter(|v| !matches!(v.sc, Sc::F32 | Sc::F64 | Sc::Ptr))
        .take(config.max_assigned_vars)
    {
        for value in assignment_values(&v.name, scope, constants) {
            let edit = Edit::InsertBefore {
                target: stmt,
                stmt: expr_stmt(assign(&v.name, value.clone())),
                kind: EditKind::InsertAssignment,
            };
            let site = Site::Assigned {
                var: v.name.clone(),
                sc: v.sc,
            };
            push(edit, site, Some(value));
        }
    }
    push(Edit::DeleteStmt { target: stmt }, Site::Statement, None);
    for d in donors(src, info, config.max_donors) {
        let copy = Edit::InsertBefore {
            target: stmt,
            stmt: d.clone(),
            kind: EditKind::InsertCopy,
        };
        push(copy, Site::Statement, None);
        push(
            Edit::ReplaceStmt {
                target: stmt,
                with: d,
            },
            Site::Statement,
            None,
        );
    }
    out
}
