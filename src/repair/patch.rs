//! The patch model: edits on the AST of the user's program, their cost, and applying them by splicing printed C over the original text.
//!
//! A [`Patch`] is a small set of [`Edit`]s, each naming a node of `lang::parse(source)` by
//! [`NodeId`]. [`RepairSource`] indexes that tree (expressions and statements with their
//! spans and context) and [`RepairSource::apply`] turns a patch into new source text:
//! every edited node's printed C replaces exactly its span in the ORIGINAL text, so
//! comments and formatting outside the edited spans are kept. Edits whose node comes
//! from inside a macro expansion ([`Span::macro_inner`]), edits on trusted lines, and
//! overlapping edits are refused with a typed [`PatchError`].

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use super::cost::{CostTable, EditKind, NEVER};
use super::diff::unified_diff;
use crate::lang::ast::{
    Block, Declaration, EnumConst, Expr, ExprKind, Item, Span, Stmt, StmtKind, TranslationUnit,
    Type,
};
use crate::lang::bytecode::HoleVar;
use crate::lang::inputs::Constants;
use crate::lang::visit::{
    for_each_expr, for_each_expr_in_stmt, walk_decl, walk_enum_const, walk_expr, walk_stmt,
    walk_type, Visitor,
};
use crate::lang::{compile_parsed, parse, CompileError, Diagnostic, NodeId, Program};

/// One edit of the program's AST. Node ids are those of `lang::parse(original source)`.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// Replace expression `target` by `with` (operator, constant, variable, drop operand,
    /// refine condition). Nodes of `with` copied from the original keep their ids (so an
    /// engine can recognise them); new nodes may have any id.
    ReplaceExpr {
        /// The expression replaced.
        target: NodeId,
        /// The new expression.
        with: Expr,
        /// Which kind of expression edit this is.
        kind: EditKind,
    },
    /// Wrap statement `target` as `if (cond) target`.
    InsertGuard {
        /// The guarded statement.
        target: NodeId,
        /// The guard.
        cond: Expr,
    },
    /// Insert `stmt` right before statement `target` (an assignment or a copy).
    InsertBefore {
        /// The statement the new one precedes.
        target: NodeId,
        /// The new statement.
        stmt: Stmt,
        /// [`EditKind::InsertAssignment`], [`EditKind::InsertCopy`] or
        /// [`EditKind::InsertBranch`].
        kind: EditKind,
    },
    /// Replace statement `target` by `with` (a copy of another statement).
    ReplaceStmt {
        /// The statement replaced.
        target: NodeId,
        /// The new statement.
        with: Stmt,
    },
    /// Delete statement `target`.
    DeleteStmt {
        /// The statement deleted.
        target: NodeId,
    },
    /// Declaration `target`'s `int` becomes `long long` ([`EditKind::WidenType`]; the
    /// conversions of its variables change with it as [`Edit::ReplaceExpr`]s of that
    /// kind, see [`super::widen`]).
    WidenDecl {
        /// The declaration (a global one or a declaration statement's).
        target: NodeId,
    },
}

impl Edit {
    /// The node the edit changes.
    pub fn target(&self) -> NodeId {
        match self {
            Edit::ReplaceExpr { target, .. }
            | Edit::InsertGuard { target, .. }
            | Edit::InsertBefore { target, .. }
            | Edit::ReplaceStmt { target, .. }
            | Edit::DeleteStmt { target }
            | Edit::WidenDecl { target } => *target,
        }
    }

    /// The kind of edit.
    pub fn kind(&self) -> EditKind {
        match self {
            Edit::ReplaceExpr { kind, .. } | Edit::InsertBefore { kind, .. } => *kind,
            Edit::InsertGuard { .. } => EditKind::InsertGuard,
            Edit::ReplaceStmt { .. } => EditKind::ReplaceCopy,
            Edit::DeleteStmt { .. } => EditKind::DeleteStatement,
            Edit::WidenDecl { .. } => EditKind::WidenType,
        }
    }

    /// Calls `f` on every node of the edit's new code (replacement expression, guard,
    /// inserted or replacing statement's expressions).
    pub fn visit_new_exprs(&self, f: &mut dyn FnMut(&Expr)) {
        match self {
            Edit::ReplaceExpr { with, .. } => for_each_expr(with, f),
            Edit::InsertGuard { cond, .. } => for_each_expr(cond, f),
            Edit::InsertBefore { stmt, .. } | Edit::ReplaceStmt { with: stmt, .. } => {
                for_each_expr_in_stmt(stmt, f)
            }
            Edit::DeleteStmt { .. } | Edit::WidenDecl { .. } => {}
        }
    }

    /// The cost under `costs`: the kind's cost, plus [`CostTable::extra_node`] per node of
    /// a new condition or assigned expression beyond a 3-node atom such as `x < 3`.
    /// [`NEVER`] when the kind is disabled.
    pub fn cost(&self, costs: &CostTable) -> u32 {
        let base = costs.of(self.kind());
        if base == NEVER {
            return NEVER;
        }
        // A widening's conversions come with it: only the declaration is charged.
        if matches!(
            self,
            Edit::ReplaceExpr {
                kind: EditKind::WidenType,
                ..
            }
        ) {
            return 0;
        }
        let extra = match self {
            Edit::InsertGuard { cond, .. } => expr_size(cond).saturating_sub(3),
            Edit::ReplaceExpr {
                with,
                kind: EditKind::RefineCondition,
                ..
            } => match &with.kind {
                ExprKind::Binary { rhs, .. } => expr_size(rhs).saturating_sub(3),
                _ => 0,
            },
            Edit::InsertBefore {
                stmt,
                kind: EditKind::InsertAssignment,
                ..
            } => match &stmt.kind {
                StmtKind::Expr(e) => expr_size(e).saturating_sub(3),
                _ => 0,
            },
            Edit::InsertBefore {
                stmt,
                kind: EditKind::InsertBranch,
                ..
            } => match &stmt.kind {
                StmtKind::If { cond, .. } => expr_size(cond).saturating_sub(3),
                _ => 0,
            },
            _ => 0,
        };
        base.saturating_add(costs.extra_node.saturating_mul(extra))
    }
}

/// Number of nodes of an expression tree.
pub fn expr_size(e: &Expr) -> u32 {
    let mut n = 0;
    for_each_expr(e, &mut |_| n += 1);
    n
}

/// A patch: a small set of edits (applied together; targets must not overlap).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Patch {
    /// The edits, in any order.
    pub edits: Vec<Edit>,
}

impl Patch {
    /// A one-edit patch.
    pub fn single(edit: Edit) -> Patch {
        Patch { edits: vec![edit] }
    }

    /// Total cost (saturating; [`NEVER`] if any edit is disabled).
    pub fn cost(&self, costs: &CostTable) -> u32 {
        self.edits.iter().map(|e| e.cost(costs)).fold(0u32, |a, c| {
            if c == NEVER {
                NEVER
            } else {
                a.saturating_add(c)
            }
        })
    }

    /// Whether every edit only removes behaviour (deletes a statement).
    pub fn only_deletes(&self) -> bool {
        !self.edits.is_empty() && self.edits.iter().all(|e| e.kind().only_deletes())
    }
}

/// Where one edit changes the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// The edited node (expression or statement) of the original program.
    pub node: NodeId,
    /// The kind of edit.
    pub kind: EditKind,
    /// First line (1-based) of the node's span in the original text.
    pub first_line: u32,
    /// Last line of that span.
    pub last_line: u32,
}

/// Why a patch cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatchError {
    /// The node id names no expression/statement of the right sort.
    #[error("node {0} is not an editable node of the program")]
    UnknownNode(NodeId),
    /// The node's span is inside a macro expansion.
    #[error("node {0} comes from a macro expansion and cannot be edited in place")]
    MacroSpan(NodeId),
    /// The node touches a trusted line.
    #[error("line {0} is trusted")]
    Trusted(u32),
    /// Two edits overlap.
    #[error("edits overlap")]
    Overlap,
    /// A disabled edit kind ([`NEVER`] cost).
    #[error("edit kind {0} is disabled by the cost table")]
    Disabled(&'static str),
}

/// What is known about one statement of the program.
#[derive(Debug, Clone)]
pub struct StmtInfo {
    /// The statement.
    pub stmt: Stmt,
    /// It sits directly in a `{ }` list (so it can be removed or preceded by another).
    pub in_block: bool,
    /// Name of the enclosing function.
    pub function: String,
    /// Ids of the conditions/expressions it owns directly (not in sub-statements).
    pub own_exprs: Vec<NodeId>,
}

/// The program under repair: its original text, parse tree, and an index of the nodes
/// edits can target.
#[derive(Debug, Clone)]
pub struct RepairSource {
    text: String,
    tu: TranslationUnit,
    /// The parse's diagnostics (warnings only: errors reject the text).
    warnings: Vec<Diagnostic>,
    exprs: HashMap<NodeId, Expr>,
    stmts: HashMap<NodeId, StmtInfo>,
    /// Expression id -> id of the statement that owns it directly.
    owner: HashMap<NodeId, NodeId>,
    /// Statement ids in source order.
    order: Vec<NodeId>,
    /// Declarations whose type is written `int` alone: id -> (span of `int`, names).
    int_decls: HashMap<NodeId, (Span, Vec<String>)>,
    line_starts: Vec<usize>,
}

/// Indexes one function body into a [`RepairSource`]: every statement with its
/// [`StmtInfo`], every expression with the statement that directly owns it.
struct Indexer<'s> {
    src: &'s mut RepairSource,
    function: &'s str,
    /// The statement being indexed.
    stmt: Option<NodeId>,
    /// The next statement visited sits directly in a `{ }` list.
    in_block: bool,
    /// The current statement's own expressions so far.
    own: Vec<NodeId>,
    /// How many expressions the walk is inside.
    depth: usize,
    /// How many types, enum values or `case` labels the walk is inside: constant
    /// expressions, indexed but never a statement's own (no hole can stand there).
    constant: usize,
}

impl<'a> Visitor<'a> for Indexer<'_> {
    fn visit_block(&mut self, b: &'a Block) {
        for s in &b.stmts {
            self.in_block = true;
            self.visit_stmt(s);
        }
    }

    fn visit_stmt(&mut self, s: &'a Stmt) {
        let in_block = std::mem::replace(&mut self.in_block, false);
        self.src.order.push(s.id);
        let outer = self.stmt.replace(s.id);
        let outer_own = std::mem::take(&mut self.own);
        if let StmtKind::Case { value, body } = &s.kind {
            self.constant += 1;
            self.visit_expr(value);
            self.constant -= 1;
            self.visit_stmt(body);
        } else {
            walk_stmt(self, s);
        }
        let own = std::mem::replace(&mut self.own, outer_own);
        self.stmt = outer;
        self.src.stmts.insert(
            s.id,
            StmtInfo {
                stmt: s.clone(),
                in_block,
                function: self.function.to_string(),
                own_exprs: own,
            },
        );
    }

    fn visit_decl(&mut self, d: &'a Declaration) {
        self.src.index_decl(d);
        walk_decl(self, d);
    }

    fn visit_type(&mut self, t: &'a Type) {
        self.constant += 1;
        walk_type(self, t);
        self.constant -= 1;
    }

    fn visit_enum_const(&mut self, c: &'a EnumConst) {
        self.constant += 1;
        walk_enum_const(self, c);
        self.constant -= 1;
    }

    fn visit_expr(&mut self, e: &'a Expr) {
        // A statement's own expressions are its roots: a condition, an expression
        // statement, a returned value, every initialiser (the elements of a brace list
        // too: a wrong entry of a local table is a constant to replace like any other).
        if self.depth == 0 && self.constant == 0 {
            self.own.push(e.id);
        }
        self.src.exprs.insert(e.id, e.clone());
        if let Some(s) = self.stmt {
            self.src.owner.insert(e.id, s);
        }
        self.depth += 1;
        walk_expr(self, e);
        self.depth -= 1;
    }
}

/// A source that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.iter().find(|d| d.is_error()).map(|d| d.to_string()).unwrap_or_default())]
pub struct ParseFailed(pub Vec<Diagnostic>);

impl RepairSource {
    /// Parses and indexes `text`.
    pub fn new(text: &str) -> Result<RepairSource, ParseFailed> {
        let (tu, diags) = parse(text);
        if diags.iter().any(|d| d.is_error()) {
            return Err(ParseFailed(diags));
        }
        let mut src = RepairSource {
            text: text.to_string(),
            warnings: diags,
            tu: TranslationUnit::default(),
            exprs: HashMap::new(),
            stmts: HashMap::new(),
            owner: HashMap::new(),
            order: Vec::new(),
            int_decls: HashMap::new(),
            line_starts: std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect(),
        };
        for item in &tu.items {
            match item {
                Item::Function(f) => Indexer {
                    src: &mut src,
                    function: &f.name,
                    stmt: None,
                    in_block: false,
                    own: Vec::new(),
                    depth: 0,
                    constant: 0,
                }
                .visit_block(&f.body),
                Item::Decl(d) => src.index_decl(d),
            }
        }
        src.tu = tu;
        Ok(src)
    }

    /// Indexes `d` for widening when its specifiers are the one word `int` (not
    /// `unsigned`, `static`, `const` or a typedef) and it declares variables.
    fn index_decl(&mut self, d: &Declaration) {
        let Some(first) = d.declarators.first() else {
            return;
        };
        let (from, to) = (d.span.start as usize, first.span.start as usize);
        let written = self.text.get(from..to).unwrap_or("");
        if written.trim() != "int" || d.span.macro_inner || d.is_const {
            return;
        }
        let start = from + written.find("int").unwrap_or(0);
        let span = Span {
            start: start as u32,
            end: (start + 3) as u32,
            ..d.span
        };
        let names = d.declarators.iter().map(|x| x.name.clone()).collect();
        self.int_decls.insert(d.id, (span, names));
    }

    /// The declarations [`Edit::WidenDecl`] can widen: id and the names they declare, in
    /// source order.
    pub fn int_declarations(&self) -> Vec<(NodeId, Vec<String>)> {
        let mut out: Vec<(NodeId, Span, Vec<String>)> = self
            .int_decls
            .iter()
            .map(|(&id, (span, names))| (id, *span, names.clone()))
            .collect();
        out.sort_by_key(|d| d.1.start);
        out.into_iter().map(|(id, _, names)| (id, names)).collect()
    }

    /// The original text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The original text compiled with expression node `hole` routed through a repair
    /// hole ([`crate::lang::compile_with_hole`]), from the parse tree already built.
    pub fn compile_with_hole(&self, hole: NodeId) -> Result<Program, CompileError> {
        compile_parsed(&self.tu, self.warnings.clone(), Some(hole))
    }

    /// The original program compiled from the parse tree kept here (no second parse).
    pub fn compile(&self) -> Result<Program, CompileError> {
        compile_parsed(&self.tu, self.warnings.clone(), None)
    }

    /// The scalar variables in scope at expression node `id` (`None` when it is not a
    /// scalar rvalue, so no hole can stand there, or when the program does not compile).
    pub fn vars_at(&self, id: NodeId) -> Option<Vec<HoleVar>> {
        let program = self.compile_with_hole(id).ok()?;
        program.hole_sites().first().map(|h| h.vars.clone())
    }

    /// The parse tree of the original text.
    pub fn unit(&self) -> &TranslationUnit {
        &self.tu
    }

    /// An expression inside a function body, by id.
    pub fn expr(&self, id: NodeId) -> Option<&Expr> {
        self.exprs.get(&id)
    }

    /// A statement inside a function body, by id.
    pub fn stmt(&self, id: NodeId) -> Option<&StmtInfo> {
        self.stmts.get(&id)
    }

    /// Statement ids in source order.
    pub fn statements(&self) -> &[NodeId] {
        &self.order
    }

    /// The statement that directly owns expression `id` (its condition, expression, ...).
    pub fn owner_of(&self, expr: NodeId) -> Option<NodeId> {
        self.owner.get(&expr).copied()
    }

    /// Every integer constant written in the program's function bodies, outside types
    /// ([`Constants`]; deduplicated, ascending), the pool for constant replacement.
    pub fn constants(&self) -> Vec<i64> {
        let mut c = Constants::default();
        for item in &self.tu.items {
            if let Item::Function(f) = item {
                c.visit_block(&f.body);
            }
        }
        c.0.into_iter().collect()
    }

    /// 1-based line of byte offset `at`.
    pub fn line_of(&self, at: usize) -> u32 {
        self.line_starts.partition_point(|&s| s <= at) as u32
    }

    /// The lines `span` touches.
    pub fn span_lines(&self, span: Span) -> std::ops::RangeInclusive<u32> {
        let first = self.line_of(span.start as usize);
        let last = self.line_of(
            (span.end as usize)
                .saturating_sub(1)
                .max(span.start as usize),
        );
        first..=last
    }

    /// The expression at bytes `start..end` of the text with `like`'s kind (the
    /// outermost, when several share the text).
    pub fn expr_at(&self, start: u32, end: u32, like: &Expr) -> Option<NodeId> {
        let kind = std::mem::discriminant(&like.kind);
        self.exprs
            .values()
            .filter(|e| e.span.start == start && e.span.end == end && !e.span.macro_inner)
            .filter(|e| std::mem::discriminant(&e.kind) == kind)
            .map(|e| e.id)
            .min()
    }

    /// The statement at bytes `start..end` of the text (the outermost, when several
    /// share the text).
    pub fn stmt_at(&self, start: u32, end: u32) -> Option<NodeId> {
        self.stmts
            .values()
            .filter(|s| s.stmt.span.start == start && s.stmt.span.end == end)
            .map(|s| s.stmt.id)
            .min()
    }

    /// Whether `edit` may be applied under `trusted` lines (node known, not from a
    /// macro, no trusted line touched).
    pub fn check(&self, edit: &Edit, trusted: &BTreeSet<u32>) -> Result<Span, PatchError> {
        let id = edit.target();
        let span = match edit {
            Edit::ReplaceExpr { .. } => self.exprs.get(&id).map(|e| e.span),
            Edit::WidenDecl { .. } => self.int_decls.get(&id).map(|d| d.0),
            _ => self.stmts.get(&id).map(|s| s.stmt.span),
        }
        .ok_or(PatchError::UnknownNode(id))?;
        if span.macro_inner || span.end <= span.start {
            return Err(PatchError::MacroSpan(id));
        }
        if let Some(l) = self.span_lines(span).find(|l| trusted.contains(l)) {
            return Err(PatchError::Trusted(l));
        }
        Ok(span)
    }

    /// The patched source text (see the module docs).
    pub fn apply(&self, patch: &Patch, trusted: &BTreeSet<u32>) -> Result<String, PatchError> {
        let mut splices: Vec<(usize, usize, String)> = Vec::new();
        for edit in &patch.edits {
            let span = self.check(edit, trusted)?;
            splices.push(self.splice(edit, span));
        }
        splices.sort_by_key(|s| (s.0, s.1));
        for w in splices.windows(2) {
            if w[1].0 < w[0].1 || (w[1].0 == w[0].0 && w[1].1 == w[0].1) {
                return Err(PatchError::Overlap);
            }
        }
        let mut out = self.text.clone();
        for (start, end, text) in splices.into_iter().rev() {
            out.replace_range(start..end, &text);
        }
        Ok(out)
    }

    /// Where `patch` changes the program: per edit, the edited node and the lines of its
    /// span in the original text (edits that cannot be applied are left out).
    pub fn changes(&self, patch: &Patch) -> Vec<Change> {
        patch
            .edits
            .iter()
            .filter_map(|e| {
                let span = self.check(e, &BTreeSet::new()).ok()?;
                let lines = self.span_lines(span);
                Some(Change {
                    node: e.target(),
                    kind: e.kind(),
                    first_line: *lines.start(),
                    last_line: *lines.end(),
                })
            })
            .collect()
    }

    /// The unified diff of the patched text against the original.
    pub fn diff(&self, patched: &str, path: &str) -> String {
        unified_diff(path, &self.text, patched)
    }

    /// Leading whitespace of the line holding byte `at`.
    fn indent_at(&self, at: usize) -> &str {
        let line_start = self.text[..at].rfind('\n').map_or(0, |i| i + 1);
        let line = &self.text[line_start..];
        &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
    }

    fn original(&self, span: Span) -> &str {
        &self.text[span.range()]
    }

    /// `e` as C, its unchanged parts (subtrees equal to a node of the original program)
    /// in the user's own text, so a patch's diff touches only what it changes.
    fn print_keeping_text(&self, e: &Expr) -> String {
        let verbatim = |sub: &Expr| {
            let orig = self.exprs.get(&sub.id)?;
            (orig == sub && !orig.span.macro_inner).then(|| self.original(orig.span).to_string())
        };
        crate::lang::print::print_expr_with(e, &verbatim)
    }

    /// The byte range to replace and its new text for one edit.
    fn splice(&self, edit: &Edit, span: Span) -> (usize, usize, String) {
        let (start, end) = (span.start as usize, span.end as usize);
        let in_block = self.stmts.get(&edit.target()).is_some_and(|s| s.in_block);
        match edit {
            Edit::ReplaceExpr { target, with, .. } => {
                if let Some(op_splice) = self.operator_splice(*target, with) {
                    return op_splice;
                }
                let orig_prec = self.exprs.get(target).map_or(16, |e| e.precedence());
                let printed = self.print_keeping_text(with);
                // A whole condition, returned value or expression statement needs no
                // parentheses (unless the new expression is a comma or assignment).
                let whole = self
                    .owner_of(*target)
                    .and_then(|s| self.stmts.get(&s))
                    .is_some_and(|s| s.own_exprs.contains(target))
                    && with.precedence() > 2;
                let text = if with.precedence() < orig_prec && !whole {
                    format!("({printed})")
                } else {
                    printed
                };
                (start, end, text)
            }
            Edit::InsertGuard { cond, .. } => {
                (start, end, format!("if ({cond}) {}", self.original(span)))
            }
            Edit::InsertBefore { stmt, .. } => {
                let new = one_line(stmt);
                if in_block {
                    let indent = self.indent_at(start);
                    (start, start, format!("{new}\n{indent}"))
                } else {
                    (start, end, format!("{{ {new} {} }}", self.original(span)))
                }
            }
            Edit::ReplaceStmt { with, .. } => (start, end, one_line(with)),
            Edit::WidenDecl { .. } => (start, end, "long long".to_string()),
            Edit::DeleteStmt { .. } => {
                if !in_block {
                    return (start, end, ";".to_string());
                }
                // Remove the whole line when nothing else is on it.
                let line_start = self.text[..start].rfind('\n').map_or(0, |i| i + 1);
                let line_end = self.text[end..]
                    .find('\n')
                    .map_or(self.text.len(), |i| end + i + 1);
                let before = &self.text[line_start..start];
                let after = &self.text[end..line_end];
                if before.trim().is_empty() && after.trim().is_empty() {
                    (line_start, line_end, String::new())
                } else {
                    (start, end, String::new())
                }
            }
        }
    }
}

impl RepairSource {
    /// When `with` is `target` with only its binary operator changed, the splice that
    /// replaces just the operator token (the operands keep the user's spelling).
    fn operator_splice(&self, target: NodeId, with: &Expr) -> Option<(usize, usize, String)> {
        let orig = self.exprs.get(&target)?;
        let (
            ExprKind::Binary { op, lhs, rhs },
            ExprKind::Binary {
                op: new_op,
                lhs: new_lhs,
                rhs: new_rhs,
            },
        ) = (&orig.kind, &with.kind)
        else {
            return None;
        };
        if lhs != new_lhs || rhs != new_rhs || lhs.span.macro_inner || rhs.span.macro_inner {
            return None;
        }
        let (gap_start, gap_end) = (lhs.span.end as usize, rhs.span.start as usize);
        let gap = self.text.get(gap_start..gap_end)?;
        let at = gap.find(op.symbol())?;
        // The symbol must be the operator itself, not a prefix of a longer one (`<` in `<=`).
        let after = gap[at + op.symbol().len()..].chars().next();
        if after.is_some_and(|c| "=<>&|".contains(c)) {
            return None;
        }
        let start = gap_start + at;
        Some((
            start,
            start + op.symbol().len(),
            new_op.symbol().to_string(),
        ))
    }
}

/// A statement printed on one line (its printed form with line breaks folded).
fn one_line(s: &Stmt) -> String {
    s.to_string()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Prints an edit for people, e.g. `line 4: replace operator: a < b -> a <= b`.
pub struct EditDisplay<'a> {
    source: &'a RepairSource,
    edit: &'a Edit,
}

impl RepairSource {
    /// A readable description of `edit`.
    pub fn describe<'a>(&'a self, edit: &'a Edit) -> EditDisplay<'a> {
        EditDisplay { source: self, edit }
    }
}

impl fmt::Display for EditDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.source;
        let id = self.edit.target();
        let span = match self.edit {
            Edit::ReplaceExpr { .. } => s.exprs.get(&id).map(|e| e.span),
            Edit::WidenDecl { .. } => s.int_decls.get(&id).map(|d| d.0),
            _ => s.stmts.get(&id).map(|x| x.stmt.span),
        }
        .unwrap_or_default();
        let orig = s.text.get(span.range()).unwrap_or("?");
        write!(
            f,
            "line {}: {}: ",
            span.line,
            self.edit.kind().name().replace('_', " ")
        )?;
        match self.edit {
            Edit::ReplaceExpr { with, .. } => write!(f, "{orig} -> {with}"),
            Edit::InsertGuard { cond, .. } => write!(f, "if ({cond}) {orig}"),
            Edit::InsertBefore { stmt, .. } => write!(f, "{} before {orig}", one_line(stmt)),
            Edit::ReplaceStmt { with, .. } => write!(f, "{orig} -> {}", one_line(with)),
            Edit::DeleteStmt { .. } => write!(f, "{orig}"),
            Edit::WidenDecl { .. } => {
                let names = s
                    .int_decls
                    .get(&id)
                    .map(|d| d.1.join(", "))
                    .unwrap_or_default();
                write!(f, "int {names} -> long long {names}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROG: &str = "int f(int a, int b) {\n    /* keep me */\n    if (a < b) // and me\n        return a;\n    a = a + 1;\n    return b * (a - 1);\n}\n";

    #[test]
    fn a_hole_compiled_from_the_kept_parse_tree_equals_one_compiled_from_text() {
        // The parse's warning must reach the program compiled from the kept tree.
        let text = "#warning kept\nint main() {\n    int n, x;\n    scanf(\"%d\", &n);\n    if (n > 2) x = n * 3;\n    printf(\"%d\\n\", x + n);\n    return 0;\n}\n";
        let src = RepairSource::new(text).unwrap();
        assert_eq!(src.warnings.len(), 1);
        let mut ids: Vec<NodeId> = src.exprs.keys().copied().collect();
        ids.sort_unstable();
        let limits = crate::lang::Limits::default();
        for id in ids {
            let kept = src.compile_with_hole(id).unwrap();
            let fresh = crate::lang::compile_with_hole(text, Some(id)).unwrap();
            assert_eq!(kept.hole_sites(), fresh.hole_sites(), "node {id}");
            assert_eq!(kept.warnings(), fresh.warnings(), "node {id}");
            assert!(!kept.warnings().is_empty());
            for n in [1, 5] {
                let input = [crate::lang::Num::Int(n)];
                assert_eq!(
                    kept.run_test(&input, &limits),
                    fresh.run_test(&input, &limits)
                );
            }
        }
    }

    fn find<'a>(src: &'a RepairSource, text: &str) -> &'a Expr {
        src.exprs
            .values()
            .filter(|e| src.original(e.span) == text)
            .min_by_key(|e| e.id)
            .unwrap()
    }

    #[test]
    fn the_index_reaches_every_expression_and_owns_only_what_runs() {
        let text = "int main() {\n    int t[3] = {4, 5};\n    switch (t[0]) {\n    case 6 + 1:\n        return 8;\n    }\n    return 0;\n}\n";
        let src = RepairSource::new(text).unwrap();
        // The array size and the case label are indexed, with their statement...
        for label in ["3", "6 + 1", "6"] {
            let e = find(&src, label);
            assert!(src.owner_of(e.id).is_some(), "{label}");
        }
        // ...but a statement owns only what it evaluates: the initialisers, not the size.
        let decl = src.statements()[0];
        let owned: Vec<&str> = src
            .stmt(decl)
            .unwrap()
            .own_exprs
            .iter()
            .map(|&id| src.original(src.expr(id).unwrap().span))
            .collect();
        assert_eq!(owned, ["4", "5"]);
        let case = src.owner_of(find(&src, "6 + 1").id).unwrap();
        assert!(src.stmt(case).unwrap().own_exprs.is_empty());
        // The constant pool: case labels yes, array sizes no.
        assert_eq!(src.constants(), [0, 1, 4, 5, 6, 8]);
    }

    #[test]
    fn splices_keep_comments_and_parenthesise() {
        let src = RepairSource::new(PROG).unwrap();
        let cond = find(&src, "a < b").clone();
        let mut with = cond.clone();
        if let ExprKind::Binary { op, .. } = &mut with.kind {
            *op = crate::lang::ast::BinaryOp::Le;
        }
        let p = Patch::single(Edit::ReplaceExpr {
            target: cond.id,
            with,
            kind: EditKind::ReplaceOperator,
        });
        let out = src.apply(&p, &BTreeSet::new()).unwrap();
        assert!(out.contains("if (a <= b) // and me"), "{out}");
        assert!(out.contains("/* keep me */"));
        // Replacing `b` in `b * (a - 1)` by `a + b` needs parentheses.
        let b = src
            .exprs
            .values()
            .find(|e| matches!(&e.kind, ExprKind::Ident(n) if n == "b") && e.span.line == 6)
            .unwrap()
            .clone();
        let sum = find(&src, "a + 1").clone();
        let p = Patch::single(Edit::ReplaceExpr {
            target: b.id,
            with: sum,
            kind: EditKind::ReplaceVariable,
        });
        let out = src.apply(&p, &BTreeSet::new()).unwrap();
        assert!(out.contains("return (a + 1) * (a - 1);"), "{out}");
        assert!(crate::lang::compile(&out).is_ok());
    }

    #[test]
    fn statement_edits_trusted_lines_and_overlap() {
        let src = RepairSource::new(PROG).unwrap();
        let assign = src
            .stmts
            .values()
            .find(|s| s.stmt.span.line == 5)
            .unwrap()
            .stmt
            .clone();
        let ret_a = src
            .stmts
            .values()
            .find(|s| s.stmt.span.line == 4)
            .unwrap()
            .stmt
            .clone();
        let del = Patch::single(Edit::DeleteStmt { target: assign.id });
        let out = src.apply(&del, &BTreeSet::new()).unwrap();
        assert!(!out.contains("a = a + 1"));
        assert_eq!(out.lines().count(), PROG.lines().count() - 1);
        // A sub-statement is replaced by `;`, not removed (that would change the parse).
        let out = src
            .apply(
                &Patch::single(Edit::DeleteStmt { target: ret_a.id }),
                &BTreeSet::new(),
            )
            .unwrap();
        assert!(out.contains("// and me\n        ;"), "{out}");
        let copy = Patch::single(Edit::InsertBefore {
            target: ret_a.id,
            stmt: assign.clone(),
            kind: EditKind::InsertCopy,
        });
        let out = src.apply(&copy, &BTreeSet::new()).unwrap();
        assert!(out.contains("{ a = a + 1; return a; }"), "{out}");
        assert!(crate::lang::compile(&out).is_ok());
        let trusted: BTreeSet<u32> = [5].into();
        assert_eq!(src.apply(&del, &trusted), Err(PatchError::Trusted(5)));
        let both = Patch {
            edits: vec![
                Edit::DeleteStmt { target: assign.id },
                Edit::InsertGuard {
                    target: assign.id,
                    cond: find(&src, "a < b").clone(),
                },
            ],
        };
        assert_eq!(src.apply(&both, &BTreeSet::new()), Err(PatchError::Overlap));
    }
}
