//! Definite assignment: which local variables of a function some read may reach before
//! any assignment to them. `compile` keeps those in frame memory, where the machine tracks
//! which bytes were written and stops a read of unwritten ones; every other scalar local
//! lives in a register that needs no such check (the analysis proves it written first).
//!
//! The analysis is by name and conservative: a name it cannot prove assigned on every path
//! to a read is listed (a listed variable only runs slower; the machine's check is exact).

use super::ast::{
    BinaryOp, Block, Expr, ExprKind, FunctionDef, Initializer, Stmt, StmtKind, Storage, UnaryOp,
};
use std::collections::HashSet;

/// The names of `f`'s local variables declared without an initialiser that a read may
/// reach before an assignment (parameters start assigned).
pub fn maybe_uninitialised(f: &FunctionDef) -> HashSet<String> {
    let mut a = Analysis::default();
    a.block(&f.body);
    a.found
}

/// What is known at a point of the function.
#[derive(Clone, Default)]
struct Flow {
    /// Tracked names assigned on every path to here.
    assigned: HashSet<String>,
    /// No path reaches here (after `return`, `break`, `continue`, `goto`).
    dead: bool,
}

impl Flow {
    /// What is known where the paths of `self` and `other` join.
    fn join(self, other: Flow) -> Flow {
        match (self.dead, other.dead) {
            (true, _) => other,
            (_, true) => self,
            _ => Flow {
                assigned: self
                    .assigned
                    .intersection(&other.assigned)
                    .cloned()
                    .collect(),
                dead: false,
            },
        }
    }
}

#[derive(Default)]
struct Analysis {
    /// Locals declared without an initialiser so far.
    tracked: HashSet<String>,
    flow: Flow,
    /// At each enclosing `switch`: what is known where its cases start.
    switches: Vec<Flow>,
    /// At each enclosing loop or `switch`: what is known where its `break`s go, joined.
    breaks: Vec<Option<Flow>>,
    found: HashSet<String>,
}

impl Analysis {
    fn read(&mut self, name: &str) {
        if !self.flow.dead && self.tracked.contains(name) && !self.flow.assigned.contains(name) {
            self.found.insert(name.to_string());
        }
    }

    fn assign(&mut self, name: &str) {
        if self.tracked.contains(name) {
            self.flow.assigned.insert(name.to_string());
        }
    }

    /// Evaluates `e` only on some paths (the right of `&&`, a branch of `?:`): what it
    /// assigns is not known after it.
    fn maybe(&mut self, e: &Expr) -> Flow {
        let before = self.flow.clone();
        self.expr(e);
        std::mem::replace(&mut self.flow, before)
    }

    fn expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::IntLit { .. }
            | ExprKind::FloatLit { .. }
            | ExprKind::CharLit(_)
            | ExprKind::StringLit(_)
            | ExprKind::SizeofType(_)
            | ExprKind::SizeofExpr(_) => {}
            ExprKind::Ident(n) => self.read(n),
            ExprKind::Unary {
                op: UnaryOp::AddrOf,
                operand,
            } => {
                // `&x` is no read of `x` (and `x` lives in memory anyway).
                if !matches!(operand.kind, ExprKind::Ident(_)) {
                    self.expr(operand);
                }
            }
            ExprKind::Unary { operand, .. } => self.expr(operand),
            ExprKind::Binary {
                op: BinaryOp::LogAnd | BinaryOp::LogOr,
                lhs,
                rhs,
            } => {
                self.expr(lhs);
                self.maybe(rhs);
            }
            ExprKind::Binary { lhs, rhs, .. } | ExprKind::Comma { lhs, rhs } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            ExprKind::Assign { op, lhs, rhs } => match (&lhs.kind, op) {
                (ExprKind::Ident(n), None) => {
                    self.expr(rhs);
                    self.assign(n);
                }
                (ExprKind::Ident(n), Some(_)) => {
                    self.read(n);
                    self.expr(rhs);
                    self.assign(n);
                }
                _ => {
                    self.expr(lhs);
                    self.expr(rhs);
                }
            },
            ExprKind::Conditional { cond, then, els } => {
                self.expr(cond);
                let a = self.maybe(then);
                self.expr(els);
                let b = std::mem::take(&mut self.flow);
                self.flow = a.join(b);
            }
            ExprKind::Cast { expr, .. } => self.expr(expr),
            ExprKind::Call { args, .. } => args.iter().for_each(|x| self.expr(x)),
            ExprKind::Member { base, .. } => self.expr(base),
            ExprKind::Index { base, index } => {
                self.expr(base);
                self.expr(index);
            }
        }
    }

    fn init(&mut self, i: &Initializer) {
        match i {
            Initializer::Expr(e) => self.expr(e),
            Initializer::List { items, .. } => items.iter().for_each(|x| self.init(x)),
        }
    }

    fn block(&mut self, b: &Block) {
        b.stmts.iter().for_each(|s| self.stmt(s));
    }

    /// A loop body (and what follows it in the loop) runs with `entry` known, and after
    /// the loop only what was known on entry and at each `break` is (the body may not
    /// run, or stop early).
    fn loop_body(&mut self, body: &Stmt, step: Option<&Expr>) {
        let entry = self.flow.clone();
        self.breaks.push(None);
        self.stmt(body);
        let breaks = self.breaks.pop().flatten();
        self.flow = entry.clone();
        if let Some(step) = step {
            self.expr(step);
        }
        self.flow = match breaks {
            Some(b) => entry.join(b),
            None => entry,
        };
    }

    /// Joins `flow` into what is known where the innermost `break` goes.
    fn add_break(&mut self, flow: Flow) {
        if let Some(slot) = self.breaks.last_mut() {
            *slot = Some(match slot.take() {
                Some(b) => b.join(flow),
                None => flow,
            });
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Empty => {}
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::Decl(d) => {
                if matches!(
                    d.storage,
                    Storage::Static | Storage::Extern | Storage::Typedef
                ) {
                    return;
                }
                for dc in &d.declarators {
                    match &dc.init {
                        Some(i) => {
                            self.init(i);
                            self.tracked.insert(dc.name.clone());
                            self.flow.assigned.insert(dc.name.clone());
                        }
                        None => {
                            self.tracked.insert(dc.name.clone());
                            self.flow.assigned.remove(&dc.name);
                        }
                    }
                }
            }
            StmtKind::Block(b) => self.block(b),
            StmtKind::If { cond, then, els } => {
                self.expr(cond);
                let before = self.flow.clone();
                self.stmt(then);
                let a = std::mem::replace(&mut self.flow, before);
                if let Some(e) = els {
                    self.stmt(e);
                }
                let b = std::mem::take(&mut self.flow);
                self.flow = a.join(b);
            }
            StmtKind::While { cond, body } => {
                self.expr(cond);
                self.loop_body(body, None);
            }
            StmtKind::DoWhile { body, cond } => {
                let entry = self.flow.clone();
                self.breaks.push(None);
                self.stmt(body);
                let breaks = self.breaks.pop().flatten();
                // `continue` reaches the condition with only what was known on entry.
                self.flow = entry.clone();
                self.expr(cond);
                if let Some(b) = breaks {
                    self.flow = std::mem::take(&mut self.flow).join(b);
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                if let Some(i) = init {
                    self.stmt(i);
                }
                if let Some(c) = cond {
                    self.expr(c);
                }
                self.loop_body(body, step.as_ref());
            }
            StmtKind::Switch { cond, body } => {
                self.expr(cond);
                let entry = self.flow.clone();
                self.switches.push(entry.clone());
                self.breaks.push(None);
                self.flow.dead = true;
                self.stmt(body);
                self.switches.pop();
                // Out of the switch: from a `break`, off the body's end, or past every
                // case when there is no `default`.
                let mut after = std::mem::take(&mut self.flow);
                if let Some(b) = self.breaks.pop().flatten() {
                    after = after.join(b);
                }
                if !has_default(body) {
                    after = after.join(entry);
                }
                self.flow = after;
            }
            StmtKind::Case { body, .. } | StmtKind::Default { body } => {
                let entry = self.switches.last().cloned().unwrap_or_default();
                let here = std::mem::take(&mut self.flow);
                self.flow = here.join(entry);
                self.stmt(body);
            }
            StmtKind::Label { body, .. } => {
                // A `goto` may come from anywhere: nothing tracked is known.
                self.flow = Flow::default();
                self.stmt(body);
            }
            StmtKind::Break => {
                let here = self.flow.clone();
                self.add_break(here);
                self.flow.dead = true;
            }
            StmtKind::Goto(_) | StmtKind::Continue | StmtKind::Return(None) => {
                self.flow.dead = true;
            }
            StmtKind::Return(Some(e)) => {
                self.expr(e);
                self.flow.dead = true;
            }
        }
    }
}

/// Whether a `switch` body has a `default` label of its own (not one of a nested
/// `switch`).
fn has_default(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Default { .. } => true,
        StmtKind::Block(b) => b.stmts.iter().any(has_default),
        StmtKind::Case { body, .. } | StmtKind::Label { body, .. } => has_default(body),
        StmtKind::If { then, els, .. } => {
            has_default(then) || els.as_deref().is_some_and(has_default)
        }
        StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. }
        | StmtKind::For { body, .. } => has_default(body),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::maybe_uninitialised;
    use crate::lang::ast::Item;
    use crate::lang::{compile, parse, Limits, Outcome, UndefinedKind};

    /// The names listed for the function `f` of `src`, sorted.
    fn listed(src: &str) -> Vec<String> {
        let (tu, diags) = parse(src);
        assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
        let f = tu
            .items
            .iter()
            .find_map(|d| match d {
                Item::Function(f) if f.name == "f" => Some(f),
                _ => None,
            })
            .expect("f");
        let mut v: Vec<String> = maybe_uninitialised(f).into_iter().collect();
        v.sort();
        v
    }

    #[test]
    fn variables_assigned_on_every_path_are_not_listed() {
        assert!(listed(
            "int f(int n) { int a, b, c, d, e, i; if (n) a = 1; else a = 2; \
             switch (n) { case 1: b = 1; break; default: b = 2; } \
             c = n ? 1 : 2; for (i = 0; i < n; i++) d = i; d = 0; \
             if (n > 3) return 0; else e = 4; return a + b + c + d + e + i; }"
        )
        .is_empty());
    }

    #[test]
    fn a_read_some_path_reaches_unassigned_is_listed() {
        // `a`: one branch; `b`: assigned in the loop body after the read; `c`: on the
        // right of `&&` only; `d` and `k`: after a label, which a `goto` may reach from
        // anywhere; `e`: in a loop that may not run.
        assert_eq!(
            listed(
                "int f(int n) { int a, b, c, d, e, i, k = 0; if (n) a = 1; \
                 for (i = 0; i < n; i++) { k += b; b = i; } \
                 if (n && (c = 2)) k++; k += c; d = 1; again: k += d; \
                 while (n--) e = 1; return a + k + e; }"
            ),
            ["a", "b", "c", "d", "e", "k"]
        );
    }

    /// The outcome of `src` run on `stdin`, and whether its undefined behaviour is the
    /// read of an uninitialised variable.
    fn run(src: &str, stdin: &str) -> (String, bool) {
        let e = compile(src)
            .expect("compiles")
            .run(stdin.as_bytes(), &Limits::default());
        let uninit = e
            .undefined
            .is_some_and(|u| u.what == UndefinedKind::UninitialisedRead);
        assert_eq!(uninit, e.stopped_by_undefined());
        (e.outcome.to_string(), uninit)
    }

    #[test]
    fn only_scalars_whose_address_is_never_taken_stop_the_run() {
        // An array's, a structure's, an address-taken scalar's and malloc's unwritten
        // bytes have an unspecified value (zeros here); `x`'s read is undefined.
        let src = "#include <stdio.h>\n#include <stdlib.h>\n\
                   struct s { int a, b; };\n\
                   int get(int *p, int i) { return p[i]; }\n\
                   int main(void) { int a[3], w, x, y; struct s t, u; int *m = malloc(8);\n\
                   scanf(\"%d\", &w); t.a = 1; u = t; a[0] = 7;\n\
                   printf(\"%d %d %d %d\\n\", get(a, 1), u.b, m[1], w);\n\
                   if (w > 1) x = 2; y = x;\nreturn y; }\n";
        let e = run(src, "1");
        assert_eq!(
            e,
            (
                "runtime error at line 8: undefined behaviour: read of uninitialised variable `x`"
                    .to_string(),
                true
            )
        );
        assert_eq!(run(src, "2"), ("exit 2".to_string(), false));
        let out = compile(src)
            .expect("compiles")
            .run(b"x", &Limits::default());
        // `scanf` fails: `w` keeps its unspecified value, 0, and `x` is not assigned.
        assert_eq!(out.stdout, b"0 0 0 0\n");
    }

    #[test]
    fn runs_resumed_from_the_input_prefix_keep_what_is_uninitialised() {
        // A prefix of more than 10 000 steps is saved before the first read and later
        // runs start from it: the flags of `x` (never written) and `s` come with it.
        let src = "#include <stdio.h>\nint main(void) { int i, n, s, x;\n\
                   for (i = 0; i < 20000; i++) if (i > 0) s += i % 3; else s = 0;\n\
                   scanf(\"%d\", &n);\nif (n) printf(\"%d\\n\", x);\nreturn s == 0; }\n";
        let p = compile(src).expect("compiles");
        for _ in 0..2 {
            let e = p.run(b"0", &Limits::default());
            assert_eq!(e.outcome, Outcome::Exit(0));
            let e = p.run(b"1", &Limits::default());
            assert!(e.stopped_by_undefined(), "{}", e.outcome);
            assert_eq!(
                e.outcome.to_string(),
                "runtime error at line 5: undefined behaviour: read of uninitialised variable `x`"
            );
        }
    }

    #[test]
    fn a_stop_replaces_undefined_behaviour_noted_before() {
        // The overflow is noted first; the uninitialised read is what ended the run.
        let src = "#include <stdio.h>\nint main(void) { int big = 2147483647, x, n;\n\
                   scanf(\"%d\", &n); big += n; if (n > 5) x = 1;\nreturn x; }\n";
        let (outcome, uninit) = run(src, "1");
        assert!(outcome.contains("line 4"), "{outcome}");
        assert!(uninit);
    }
}
