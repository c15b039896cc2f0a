//! Candidate edits at a location: f1x's expression modifications (operators, constants, variables, dropped operands), conditions for refinement and guards, and GenProg's statement edits.

use super::cost::EditKind;
use super::holeval::{kind_of, FRESH_ID};
use super::patch::{RepairSource, StmtInfo};
use crate::lang::ast::{BinaryOp, Expr, ExprKind, ScalarType, Span, Stmt, StmtKind, UnaryOp};
use crate::lang::bytecode::{HoleSite, HoleVar};
use crate::lang::format::{conversions, Length};
use crate::lang::types::Sc;
use crate::lang::visit::{for_each_expr, walk_expr, walk_expr_mut, Visitor, VisitorMut};
use crate::lang::NodeId;

/// f1x's operator classes: an operator is replaced only by another of its class.
pub const OPERATOR_CLASSES: [&[BinaryOp]; 5] = [
    &[
        BinaryOp::Lt,
        BinaryOp::Le,
        BinaryOp::Gt,
        BinaryOp::Ge,
        BinaryOp::Eq,
        BinaryOp::Ne,
    ],
    &[
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Mul,
        BinaryOp::Div,
        BinaryOp::Rem,
    ],
    &[BinaryOp::LogAnd, BinaryOp::LogOr],
    &[BinaryOp::BitAnd, BinaryOp::BitOr, BinaryOp::BitXor],
    &[BinaryOp::Shl, BinaryOp::Shr],
];

/// Small integers always tried as replacement constants.
pub const SMALL_INTS: [i64; 4] = [-1, 0, 1, 2];

/// A new expression node (id [`FRESH_ID`], no span).
pub fn fresh(kind: ExprKind) -> Expr {
    Expr {
        id: FRESH_ID,
        span: Span::default(),
        kind,
    }
}

/// The literal `v` written with `ty`'s suffix (negative values as `-(literal)`), typed
/// by its value as C types it ([`ScalarType::decimal_literal`]: a wide value is `long`,
/// not `int`), so the patch evaluated is the patch printed.
pub fn int_lit(v: i64, ty: ScalarType) -> Expr {
    let value = v.unsigned_abs();
    let lit = fresh(ExprKind::IntLit {
        value,
        ty: ty.decimal_literal(value),
    });
    if v < 0 {
        fresh(ExprKind::Unary {
            op: UnaryOp::Neg,
            operand: Box::new(lit),
        })
    } else {
        lit
    }
}

/// A variable reference.
pub fn var(name: &str) -> Expr {
    fresh(ExprKind::Ident(name.to_string()))
}

/// `l op r`.
pub fn bin(op: BinaryOp, l: Expr, r: Expr) -> Expr {
    fresh(ExprKind::Binary {
        op,
        lhs: Box::new(l),
        rhs: Box::new(r),
    })
}

/// One expression modification: replace node `target` (inside a location's root) by
/// `with`.
#[derive(Debug, Clone, PartialEq)]
pub struct Mutation {
    /// The node replaced.
    pub target: NodeId,
    /// Its replacement.
    pub with: Expr,
    /// Which kind of edit.
    pub kind: EditKind,
}

fn is_integer_var(v: &HoleVar) -> bool {
    !matches!(v.sc, Sc::F32 | Sc::F64 | Sc::Ptr)
}

/// Every f1x expression modification inside `root`: operator replacement within its
/// class, constant replacement (`+-1`, the program's constants, small integers), variable
/// replacement by another in-scope variable of the same kind, and dropping an operand of
/// an arithmetic, logical or bitwise operator. Deterministic order (pre-order). A
/// printf/scanf call as `root` (its own location, see [`locations`]) gets its format
/// fixes instead ([`format_fixes`]).
pub fn mutations(root: &Expr, scope: &[HoleVar], constants: &[i64]) -> Vec<Mutation> {
    if let Some(fixes) = format_fixes(root, scope) {
        return fixes;
    }
    let mut out = Vec::new();
    for_each_expr(root, &mut |e| match &e.kind {
        ExprKind::Binary { op, lhs, rhs } => {
            if let Some(class) = OPERATOR_CLASSES.iter().find(|c| c.contains(op)) {
                for &o in class.iter().filter(|&&o| o != *op) {
                    let mut w = e.clone();
                    w.id = FRESH_ID;
                    if let ExprKind::Binary { op, .. } = &mut w.kind {
                        *op = o;
                    }
                    out.push(Mutation {
                        target: e.id,
                        with: w,
                        kind: EditKind::ReplaceOperator,
                    });
                }
            }
            if !op.is_comparison() {
                for side in [lhs, rhs] {
                    out.push(Mutation {
                        target: e.id,
                        with: (**side).clone(),
                        kind: EditKind::DropOperand,
                    });
                }
            }
        }
        ExprKind::IntLit { value, ty } => {
            let Ok(v) = i64::try_from(*value) else {
                return;
            };
            let mut seen = vec![v];
            // Constants at the i64 ends have only one neighbour.
            let pool = [v.checked_add(1), v.checked_sub(1)]
                .into_iter()
                .flatten()
                .chain(constants.iter().copied())
                .chain(SMALL_INTS);
            for c in pool {
                if seen.contains(&c) {
                    continue;
                }
                seen.push(c);
                out.push(Mutation {
                    target: e.id,
                    with: int_lit(c, *ty),
                    kind: EditKind::ReplaceConstant,
                });
            }
        }
        ExprKind::Ident(name) => {
            let Some(me) = scope.iter().find(|v| &v.name == name) else {
                return;
            };
            for other in scope.iter().filter(|v| v.sc == me.sc && v.name != *name) {
                out.push(Mutation {
                    target: e.id,
                    with: var(&other.name),
                    kind: EditKind::ReplaceVariable,
                });
            }
        }
        _ => {}
    });
    out
}

/// Conditions `B` for refinement and guards: `v REL c` for integer variables `v` in scope
/// and constants `c` (the program's constants and 0), and `v REL w` for two integer
/// variables, REL one of `< <= > >= == !=`. At most `max` of them, simplest first.
pub fn conditions(scope: &[HoleVar], constants: &[i64], max: usize) -> Vec<Expr> {
    let rels = OPERATOR_CLASSES[0];
    let ints: Vec<&HoleVar> = scope.iter().filter(|v| is_integer_var(v)).collect();
    let mut consts: Vec<i64> = std::iter::once(0)
        .chain(constants.iter().copied())
        .collect();
    consts.dedup();
    let mut out = Vec::new();
    for &c in &consts {
        for v in &ints {
            for &r in rels {
                out.push(bin(r, var(&v.name), int_lit(c, ScalarType::Int)));
            }
        }
    }
    for (i, v) in ints.iter().enumerate() {
        for w in &ints[i + 1..] {
            for &r in rels {
                out.push(bin(r, var(&v.name), var(&w.name)));
            }
        }
    }
    out.truncate(max);
    out
}

/// Right-hand sides for an inserted assignment to integer variable `target`: constants,
/// other integer variables, `target + 1` and `target - 1`.
pub fn assignment_values(target: &str, scope: &[HoleVar], constants: &[i64]) -> Vec<Expr> {
    let mut out: Vec<Expr> = std::iter::once(0)
        .chain(constants.iter().copied())
        .map(|c| int_lit(c, ScalarType::Int))
        .collect();
    out.dedup();
    for v in scope
        .iter()
        .filter(|v| is_integer_var(v) && v.name != target)
    {
        out.push(var(&v.name));
    }
    for op in [BinaryOp::Add, BinaryOp::Sub] {
        out.push(bin(op, var(target), int_lit(1, ScalarType::Int)));
    }
    out
}

/// The expressions of a statement where expression edits apply (f1x's locations), with
/// whether each is a branch or loop condition (refinable): conditions, returned values,
/// initialisers, right-hand sides of assignments and scalar arguments of calls.
pub fn locations(src: &RepairSource, info: &StmtInfo) -> Vec<(NodeId, bool)> {
    let is_condition = matches!(
        info.stmt.kind,
        StmtKind::If { .. }
            | StmtKind::While { .. }
            | StmtKind::DoWhile { .. }
            | StmtKind::For { .. }
    );
    let mut out = Vec::new();
    for &id in &info.own_exprs {
        let Some(e) = src.expr(id) else { continue };
        let cond = is_condition
            && match &info.stmt.kind {
                StmtKind::If { cond, .. }
                | StmtKind::While { cond, .. }
                | StmtKind::DoWhile { cond, .. } => cond.id == id,
                StmtKind::For { cond, .. } => cond.as_ref().is_some_and(|c| c.id == id),
                _ => false,
            };
        roots_of(e, cond, &mut out);
    }
    out
}

/// The format argument of a printf or scanf family call (the first string literal among
/// its first three arguments), its position, and whether it scans.
pub fn format_call<'e>(callee: &str, args: &'e [Expr]) -> Option<(usize, &'e [u8], bool)> {
    let scan = callee.ends_with("scanf");
    if !scan && !callee.ends_with("printf") {
        return None;
    }
    args.iter()
        .take(3)
        .enumerate()
        .find_map(|(i, a)| match &a.kind {
            ExprKind::StringLit(format) => Some((i, format.as_slice(), scan)),
            _ => None,
        })
}

/// The length a conversion needs for a value (printf) or object (scanf) of kind `sc`,
/// as format text: `int` or `long long` for integer conversions, `float` or `double` for
/// scanf's floating ones; `None` where the kind has no such length or any length does.
fn wanted_length(conv: u8, sc: Sc, scan: bool) -> Option<(&'static [u8], Length)> {
    match conv {
        c if is_integer(c) && !sc.is_float() => match sc.size() {
            8 => Some((b"ll", Length::LongLong)),
            4 => Some((b"", Length::Default)),
            // Narrower integers: printf promotes them to int; scanf needs `h`/`hh`.
            _ if !scan => Some((b"", Length::Default)),
            _ => None,
        },
        b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' if scan && sc.is_float() => {
            if sc.size() == 8 {
                Some((b"l", Length::Long))
            } else {
                Some((b"", Length::Default))
            }
        }
        _ => None,
    }
}

/// For a printf/scanf call `root`, the format made to match its arguments: each
/// conversion whose length does not fit its argument's type (`%d` for a `long long`,
/// `%f` reading a `double`) set to the one that does, one at a time and, where several
/// do not fit, all together. Arguments are typed from `scope`; a format with `*` or an
/// argument of unknown type is left alone. `None` when `root` is no such call.
fn format_fixes(root: &Expr, scope: &[HoleVar]) -> Option<Vec<Mutation>> {
    let ExprKind::Call { callee, args, .. } = &root.kind else {
        return None;
    };
    let (at, format, scan) = format_call(callee, args)?;
    let mut out = Vec::new();
    if format.contains(&b'*') {
        return Some(out);
    }
    let site = HoleSite {
        node: root.id,
        sc: Sc::I32,
        vars: scope.to_vec(),
    };
    let kind = |a: &Expr| match &a.kind {
        ExprKind::Unary {
            op: UnaryOp::AddrOf,
            operand,
        } if scan => kind_of(operand, &site),
        _ if scan => None,
        _ => kind_of(a, &site),
    };
    let mut edits: Vec<(std::ops::Range<usize>, &[u8])> = Vec::new();
    for (c, a) in conversions(format).iter().zip(&args[at + 1..]) {
        let Some((text, length)) = kind(a).and_then(|sc| wanted_length(c.conv, sc, scan)) else {
            continue;
        };
        let fits = if is_integer(c.conv) {
            length.int_bits() == c.length.int_bits()
        } else {
            length == c.length
        };
        if !fits {
            edits.push((c.length_at.clone(), text));
        }
    }
    let with = |chosen: &[(std::ops::Range<usize>, &[u8])]| Mutation {
        target: args[at].id,
        with: fresh(ExprKind::StringLit(with_lengths(format, chosen))),
        kind: EditKind::ReplaceConstant,
    };
    for e in &edits {
        out.push(with(std::slice::from_ref(e)));
    }
    if edits.len() > 1 {
        out.push(with(&edits));
    }
    Some(out)
}

/// `format` with each range (a conversion's length modifier, in order) replaced by its
/// text.
pub fn with_lengths(format: &[u8], chosen: &[(std::ops::Range<usize>, &[u8])]) -> Vec<u8> {
    let mut v = Vec::with_capacity(format.len() + 2);
    let mut from = 0;
    for (range, text) in chosen {
        v.extend_from_slice(&format[from..range.start]);
        v.extend_from_slice(text);
        from = range.end;
    }
    v.extend_from_slice(&format[from..]);
    v
}

/// Whether `conv` converts an integer (`d i u o x X`).
pub fn is_integer(conv: u8) -> bool {
    matches!(conv, b'd' | b'i' | b'u' | b'o' | b'x' | b'X')
}

fn roots_of(e: &Expr, cond: bool, out: &mut Vec<(NodeId, bool)>) {
    match &e.kind {
        ExprKind::Assign { rhs, .. } => roots_of(rhs, false, out),
        ExprKind::Comma { lhs, rhs } => {
            roots_of(lhs, false, out);
            roots_of(rhs, cond, out);
        }
        ExprKind::Call { callee, args, .. } => {
            // A printf/scanf call is a location of its own: its format may not match
            // its arguments ([`format_fixes`]).
            if format_call(callee, args).is_some() {
                out.push((e.id, false));
            }
            for a in args {
                if !matches!(
                    a.kind,
                    ExprKind::StringLit(_)
                        | ExprKind::Unary {
                            op: UnaryOp::AddrOf,
                            ..
                        }
                ) {
                    roots_of(a, false, out);
                }
            }
        }
        ExprKind::Unary {
            op: UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec,
            ..
        }
        | ExprKind::StringLit(_) => {}
        _ => out.push((e.id, cond)),
    }
}

/// A copy of `root` with node `target` replaced by `with`; nodes on the path from the
/// root to the target get [`FRESH_ID`] (they changed). `None` when `target` is not in
/// `root`.
pub fn replace_node(root: &Expr, target: NodeId, with: &Expr) -> Option<Expr> {
    struct Replace<'w> {
        target: NodeId,
        with: &'w Expr,
        found: bool,
    }
    impl VisitorMut for Replace<'_> {
        fn visit_expr(&mut self, e: &mut Expr) {
            if self.found {
                return;
            }
            if e.id == self.target {
                *e = self.with.clone();
                self.found = true;
                return;
            }
            walk_expr_mut(self, e);
            if self.found {
                e.id = FRESH_ID;
            }
        }
    }
    let mut copy = root.clone();
    let mut r = Replace {
        target,
        with,
        found: false,
    };
    r.visit_expr(&mut copy);
    r.found.then_some(copy)
}

/// The ids on the path from `root` down to `target` (root first, target last).
pub fn path_to(root: &Expr, target: NodeId) -> Option<Vec<NodeId>> {
    struct Path {
        target: NodeId,
        stack: Vec<NodeId>,
        found: Option<Vec<NodeId>>,
    }
    impl<'a> Visitor<'a> for Path {
        fn visit_expr(&mut self, e: &'a Expr) {
            if self.found.is_some() {
                return;
            }
            self.stack.push(e.id);
            if e.id == self.target {
                self.found = Some(self.stack.clone());
            } else {
                walk_expr(self, e);
            }
            self.stack.pop();
        }
    }
    let mut p = Path {
        target,
        stack: Vec::new(),
        found: None,
    };
    p.visit_expr(root);
    p.found
}

/// Statements worth copying (GenProg's donors): expression statements, `return`,
/// `break`/`continue` and small `if`s of the same function, at most `max`, nearest first.
pub fn donors(src: &RepairSource, target: &StmtInfo, max: usize) -> Vec<Stmt> {
    let line = target.stmt.span.line;
    let mut list: Vec<&StmtInfo> = src
        .statements()
        .iter()
        .filter_map(|&id| src.stmt(id))
        .filter(|s| s.function == target.function && s.stmt.id != target.stmt.id)
        .filter(|s| {
            matches!(
                s.stmt.kind,
                StmtKind::Expr(_) | StmtKind::Return(_) | StmtKind::Break | StmtKind::Continue
            ) || matches!(s.stmt.kind, StmtKind::If { .. } if s.stmt.span.end - s.stmt.span.start < 80)
        })
        .collect();
    list.sort_by_key(|s| s.stmt.span.line.abs_diff(line));
    let mut out: Vec<Stmt> = Vec::new();
    for s in list {
        if out.iter().all(|o| o.to_string() != s.stmt.to_string()) {
            out.push(s.stmt.clone());
        }
        if out.len() >= max {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::parser::parse_expr;

    /// The format fixes offered for the call `call` with `int i; long long w; float f;
    /// double d;` in scope (any other name has no known type), as format texts.
    fn fixes(call: &str) -> Vec<String> {
        let scope: Vec<HoleVar> = [
            ("i", Sc::I32),
            ("w", Sc::I64),
            ("f", Sc::F32),
            ("d", Sc::F64),
        ]
        .iter()
        .enumerate()
        .map(|(k, &(name, sc))| HoleVar {
            name: name.to_string(),
            sc,
            place: crate::lang::bytecode::HoleVarPlace::Slot(k as u32),
        })
        .collect();
        let root = parse_expr(call).0.unwrap();
        mutations(&root, &scope, &[])
            .into_iter()
            .map(|m| match m.with.kind {
                ExprKind::StringLit(v) => String::from_utf8(v).unwrap(),
                other => panic!("not a format: {other:?}"),
            })
            .collect()
    }

    #[test]
    fn formats_are_made_to_match_their_arguments() {
        // A long long printed or read as int, and the reverse; both at once too.
        assert_eq!(fixes(r#"printf("%d\n", w)"#), ["%lld\n"]);
        assert_eq!(
            fixes(r#"printf("%d %lld", w * 2, i)"#),
            ["%lld %lld", "%d %d", "%lld %d"]
        );
        assert_eq!(fixes(r#"scanf("%d %d", &w, &i)"#), ["%lld %d"]);
        // %ld and %I64d are 64 bits here, as %lld is.
        assert!(fixes(r#"printf("%ld %I64d", w, w)"#).is_empty());
        // scanf must read a double with %lf, a float with %f; printf takes either.
        assert_eq!(
            fixes(r#"scanf("%f%lf", &d, &f)"#),
            ["%lf%lf", "%f%f", "%lf%f"]
        );
        assert!(fixes(r#"printf("%f %lf", d, f)"#).is_empty());
        // Text, %%, strings, unknown types and `*` widths are left alone.
        assert!(fixes(r#"printf("100%% %s %d", "x", s)"#).is_empty());
        assert!(fixes(r#"printf("%*d", i, w)"#).is_empty());
        assert!(fixes(r#"printf("%d", i)"#).is_empty());
        // Not a format call: the ordinary expression edits.
        assert!(!fixes_or_none(r#"f(w)"#));
    }

    fn fixes_or_none(call: &str) -> bool {
        format_fixes(&parse_expr(call).0.unwrap(), &[]).is_some()
    }

    fn lit_type(e: &Expr) -> Option<ScalarType> {
        match &e.kind {
            ExprKind::IntLit { ty, .. } => Some(*ty),
            ExprKind::Unary { operand, .. } => lit_type(operand),
            _ => None,
        }
    }

    #[test]
    fn literals_are_typed_by_their_value_as_c_does() {
        assert_eq!(
            lit_type(&int_lit(7, ScalarType::Int)),
            Some(ScalarType::Int)
        );
        assert_eq!(
            lit_type(&int_lit(-7, ScalarType::Int)),
            Some(ScalarType::Int)
        );
        // Wider than int: `long`, as the printed `3000000000` is in C.
        let wide = int_lit(3_000_000_000, ScalarType::Int);
        assert_eq!(lit_type(&wide), Some(ScalarType::Long));
        assert_eq!(
            lit_type(&int_lit(i64::MAX, ScalarType::Int)),
            Some(ScalarType::Long)
        );
        // `-2147483648` is `-(2147483648)`, a long.
        assert_eq!(
            lit_type(&int_lit(i32::MIN.into(), ScalarType::Int)),
            Some(ScalarType::Long)
        );
        assert_eq!(
            lit_type(&int_lit(5_000_000_000, ScalarType::UInt)),
            Some(ScalarType::ULong)
        );
        assert_eq!(
            lit_type(&int_lit(8, ScalarType::LongLong)),
            Some(ScalarType::LongLong)
        );
        // Every generated literal reads back exactly as it is evaluated.
        for v in [
            0,
            1,
            -1,
            i32::MAX.into(),
            i32::MIN.into(),
            1 << 40,
            i64::MAX,
            i64::MIN,
        ] {
            let e = int_lit(v, ScalarType::Int);
            let (back, diags) = parse_expr(&e.to_string());
            assert!(diags.is_empty(), "{e}");
            assert_eq!(lit_type(&back.unwrap()), lit_type(&e), "{e}");
        }
    }

    #[test]
    fn a_wide_program_constant_replaces_a_small_one_as_a_long() {
        let (root, _) = parse_expr("x > 1");
        let root = root.unwrap();
        let found: Vec<Expr> = mutations(&root, &[], &[i64::MAX])
            .into_iter()
            .filter(|m| m.kind == EditKind::ReplaceConstant)
            .map(|m| m.with)
            .filter(
                |w| matches!(w.kind, ExprKind::IntLit { value, .. } if value == i64::MAX as u64),
            )
            .collect();
        assert_eq!(found.len(), 1);
        assert_eq!(lit_type(&found[0]), Some(ScalarType::Long));
        assert_eq!(found[0].to_string(), "9223372036854775807L");
    }
}
