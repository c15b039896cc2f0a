//! One walk of the syntax tree: [`Visitor`] and [`VisitorMut`], whose default methods call the `walk_*` functions that visit every child node in source order.
//!
//! A pass overrides the `visit_*` methods for the nodes it cares about and calls the
//! matching `walk_*` function where it wants to go on into the children (ruff's visitor
//! pattern). The walks reach every node of [`crate::lang::ast`]: expressions inside
//! types (array sizes, the types of casts and `sizeof`, parameters of prototypes), enum
//! values, structure member types, initialiser lists, `case` labels. The order is the
//! id order of [`renumber`]: pre-order, a parent before its children, children left to
//! right (a cast's type before its operand, an array's size before its element type).

use super::ast::{
    Block, Declaration, Declarator, EnumConst, Expr, ExprKind, FunctionDef, Initializer, Item,
    NodeId, Param, Stmt, StmtKind, StructDef, TranslationUnit, Type,
};

/// Defines a visitor trait and its `walk_*` functions, once for [`Visitor`] (`&'a` nodes)
/// and once for [`VisitorMut`] (`&mut` nodes), so the two walks cannot drift apart.
macro_rules! visitor {
    (
        $(#[$doc:meta])*
        trait $Trait:ident $(<$lt:lifetime>)?,
        node [$($node:tt)*], borrow [$($borrow:tt)*], children $children:ident,
        walks $walk_unit:ident, $walk_function:ident, $walk_decl:ident, $walk_enum_const:ident,
        $walk_struct_def:ident, $walk_declarator:ident, $walk_param:ident, $walk_type:ident,
        $walk_init:ident, $walk_block:ident, $walk_stmt:ident, $walk_expr:ident
    ) => {
        $(#[$doc])*
        pub trait $Trait $(<$lt>)? {
            /// A function definition.
            fn visit_function(&mut self, f: $($node)* FunctionDef) {
                $walk_function(self, f);
            }
            /// A declaration, global or local.
            fn visit_decl(&mut self, d: $($node)* Declaration) {
                $walk_decl(self, d);
            }
            /// An enumeration constant of a declaration.
            fn visit_enum_const(&mut self, c: $($node)* EnumConst) {
                $walk_enum_const(self, c);
            }
            /// A structure definition of a declaration.
            fn visit_struct_def(&mut self, s: $($node)* StructDef) {
                $walk_struct_def(self, s);
            }
            /// One declarator of a declaration.
            fn visit_declarator(&mut self, d: $($node)* Declarator) {
                $walk_declarator(self, d);
            }
            /// A parameter of a function definition or prototype.
            fn visit_param(&mut self, p: $($node)* Param) {
                $walk_param(self, p);
            }
            /// A type as written (its array sizes are expressions).
            fn visit_type(&mut self, t: $($node)* Type) {
                $walk_type(self, t);
            }
            /// An initialiser.
            fn visit_init(&mut self, i: $($node)* Initializer) {
                $walk_init(self, i);
            }
            /// A `{ ... }` block.
            fn visit_block(&mut self, b: $($node)* Block) {
                $walk_block(self, b);
            }
            /// A statement.
            fn visit_stmt(&mut self, s: $($node)* Stmt) {
                $walk_stmt(self, s);
            }
            /// An expression.
            fn visit_expr(&mut self, e: $($node)* Expr) {
                $walk_expr(self, e);
            }
        }

        /// Visits every item of a program.
        pub fn $walk_unit<$($lt,)? V: $Trait $(<$lt>)? + ?Sized>(
            v: &mut V,
            tu: $($node)* TranslationUnit,
        ) {
            for item in $($borrow)* tu.items {
                match item {
                    Item::Function(f) => v.visit_function(f),
                    Item::Decl(d) => v.visit_decl(d),
                }
            }
        }

        /// The return type, the parameters, the body.
        pub fn $walk_function<$($lt,)? V: $Trait $(<$lt>)? + ?Sized>(
            v: &mut V,
            f: $($node)* FunctionDef,
        ) {
            v.visit_type($($borrow)* f.ret);
            for p in $($borrow)* f.params {
                v.visit_param(p);
            }
            v.visit_block($($borrow)* f.body);
        }

        /// The enum constants, the structure definitions, the declarators.
        pub fn $walk_decl<$($lt,)? V: $Trait $(<$lt>)? + ?Sized>(
            v: &mut V,
            d: $($node)* Declaration,
        ) {
            for c in $($borrow)* d.enum_consts {
                v.visit_enum_const(c);
            }
            for s in $($borrow)* d.struct_defs {
                v.visit_struct_def(s);
            }
            for dl in $($borrow)* d.declarators {
                v.visit_declarator(dl);
            }
        }

        /// The value expression, if written.
        pub fn $walk_enum_const<$($lt,)? V: $Trait $(<$lt>)? + ?Sized>(
            v: &mut V,
            c: $($node)* EnumConst,
        ) {
            if let Some(e) = $($borrow)* c.value {
                v.visit_expr(e);
            }
        }

        /// The members' types.
        pub fn $walk_struct_def<$($lt,)? V: $Trait $(<$lt>)? + ?Sized>(
            v: &mut V,
            s: $($node)* StructDef,
        ) {
            for (_, t) in $($borrow)* s.members {
                v.visit_type(t);
            }
        }

        /// The type, then the initialiser.
        pub fn $walk_declarator<$($lt,)? V: $Trait $(<$lt>)? + ?Sized>(
            v: &mut V,
            d: $($node)* Declarator,
        ) {
            v.visit_type($($borrow)* d.ty);
            if let Some(i) = $($borrow)* d.init {
                v.visit_init(i);
            }
        }

        /// The parameter's type.
        pub fn $walk_param<$($lt,)? V: $Trait $(<$lt>)? + ?Sized>(
            v: &mut V,
            p: $($node)* Param,
        ) {
            v.visit_type($($borrow)* p.ty);
        }

        /// The pointee, an array's size then its element, a function type's return type
        /// then its parameters.
        pub fn $walk_type<$($lt,)? V: $Trait $(<$lt>)? + ?Sized>(
            v: &mut V,
            t: $($node)* Type,
        ) {
            match t {
                Type::Scalar(_) | Type::Struct(_) => {}
                Type::Pointer(inner) => v.visit_type(inner),
                Type::Array { elem, size } => {
                    if let Some(s) = size {
                        v.visit_expr(s);
                    }
                    v.visit_type(elem);
                }
                Type::Function { ret, params, .. } => {
                    v.visit_type(ret);
                    for p in params {
                        v.visit_param(p);
                    }
                }
            }
        }

        /// The expression, or every element of a brace list.
        pub fn $walk_init<$($lt,)? V: $Trait $(<$lt>)? + ?Sized>(
            v: &mut V,
            i: $($node)* Initializer,
        ) {
            match i {
                Initializer::Expr(e) => v.visit_expr(e),
                Initializer::List { items, .. } => {
                    for it in items {
                        v.visit_init(it);
                    }
                }
            }
        }

        /// The block's statements.
        pub fn $walk_block<$($lt,)? V: $Trait $(<$lt>)? + ?Sized>(
            v: &mut V,
            b: $($node)* Block,
        ) {
            for s in $($borrow)* b.stmts {
                v.visit_stmt(s);
            }
        }

        /// The statement's expressions, declarations, blocks and sub-statements in source
        /// order.
        pub fn $walk_stmt<$($lt,)? V: $Trait $(<$lt>)? + ?Sized>(
            v: &mut V,
            s: $($node)* Stmt,
        ) {
            match $($borrow)* s.kind {
                StmtKind::Empty
                | StmtKind::Goto(_)
                | StmtKind::Break
                | StmtKind::Continue
                | StmtKind::Return(None) => {}
                StmtKind::Expr(e) | StmtKind::Return(Some(e)) => v.visit_expr(e),
                StmtKind::Decl(d) => v.visit_decl(d),
                StmtKind::Block(b) => v.visit_block(b),
                StmtKind::If { cond, then, els } => {
                    v.visit_expr(cond);
                    v.visit_stmt(then);
                    if let Some(e) = els {
                        v.visit_stmt(e);
                    }
                }
                StmtKind::While { cond, body } | StmtKind::Switch { cond, body } => {
                    v.visit_expr(cond);
                    v.visit_stmt(body);
                }
                StmtKind::DoWhile { body, cond } => {
                    v.visit_stmt(body);
                    v.visit_expr(cond);
                }
                StmtKind::For {
                    init,
                    cond,
                    step,
                    body,
                } => {
                    if let Some(i) = init {
                        v.visit_stmt(i);
                    }
                    if let Some(c) = cond {
                        v.visit_expr(c);
                    }
                    if let Some(st) = step {
                        v.visit_expr(st);
                    }
                    v.visit_stmt(body);
                }
                StmtKind::Case { value, body } => {
                    v.visit_expr(value);
                    v.visit_stmt(body);
                }
                StmtKind::Default { body } | StmtKind::Label { body, .. } => v.visit_stmt(body),
            }
        }

        /// The type written in a cast (before its operand) or a `sizeof`, then the
        /// operands ([`Expr::children`]).
        pub fn $walk_expr<$($lt,)? V: $Trait $(<$lt>)? + ?Sized>(
            v: &mut V,
            e: $($node)* Expr,
        ) {
            match $($borrow)* e.kind {
                ExprKind::Cast { ty, .. } | ExprKind::SizeofType(ty) => v.visit_type(ty),
                _ => {}
            }
            for c in e.$children() {
                v.visit_expr(c);
            }
        }
    };
}

visitor! {
    /// A read-only pass over the tree. Every method's default goes on into the children.
    trait Visitor<'a>,
    node [&'a], borrow [&], children children,
    walks walk_unit, walk_function, walk_decl, walk_enum_const, walk_struct_def,
    walk_declarator, walk_param, walk_type, walk_init, walk_block, walk_stmt, walk_expr
}

visitor! {
    /// A pass that may change the tree in place: the same walk as [`Visitor`].
    trait VisitorMut,
    node [&mut], borrow [&mut], children children_mut,
    walks walk_unit_mut, walk_function_mut, walk_decl_mut, walk_enum_const_mut,
    walk_struct_def_mut, walk_declarator_mut, walk_param_mut, walk_type_mut, walk_init_mut,
    walk_block_mut, walk_stmt_mut, walk_expr_mut
}

/// Calls `f` on `e` and every expression below it, pre-order (those inside a cast's or
/// `sizeof`'s type too).
pub fn for_each_expr<'a>(e: &'a Expr, f: &mut dyn FnMut(&'a Expr)) {
    Exprs(f).visit_expr(e);
}

/// Calls `f` on every expression inside statement `s`, pre-order: sub-statements,
/// initialisers, `case` labels, enum values and array sizes of declarations included.
pub fn for_each_expr_in_stmt<'a>(s: &'a Stmt, f: &mut dyn FnMut(&'a Expr)) {
    Exprs(f).visit_stmt(s);
}

/// Calls `f` on every expression of the program, pre-order.
pub fn for_each_expr_in_unit<'a>(tu: &'a TranslationUnit, f: &mut dyn FnMut(&'a Expr)) {
    walk_unit(&mut Exprs(f), tu);
}

/// The visitor behind the `for_each_expr*` functions.
struct Exprs<'f, 'a>(&'f mut dyn FnMut(&'a Expr));

impl<'a> Visitor<'a> for Exprs<'_, 'a> {
    fn visit_expr(&mut self, e: &'a Expr) {
        (self.0)(e);
        walk_expr(self, e);
    }
}

/// Gives every node its id, in walk order.
struct Numbering(NodeId);

impl Numbering {
    fn next(&mut self) -> NodeId {
        let id = self.0;
        self.0 += 1;
        id
    }
}

impl VisitorMut for Numbering {
    fn visit_function(&mut self, f: &mut FunctionDef) {
        f.id = self.next();
        walk_function_mut(self, f);
    }
    fn visit_decl(&mut self, d: &mut Declaration) {
        d.id = self.next();
        walk_decl_mut(self, d);
    }
    fn visit_declarator(&mut self, d: &mut Declarator) {
        d.id = self.next();
        walk_declarator_mut(self, d);
    }
    fn visit_param(&mut self, p: &mut Param) {
        p.id = self.next();
        walk_param_mut(self, p);
    }
    fn visit_block(&mut self, b: &mut Block) {
        b.id = self.next();
        walk_block_mut(self, b);
    }
    fn visit_stmt(&mut self, s: &mut Stmt) {
        s.id = self.next();
        walk_stmt_mut(self, s);
    }
    fn visit_expr(&mut self, e: &mut Expr) {
        e.id = self.next();
        walk_expr_mut(self, e);
    }
}

/// Re-assigns dense pre-order ids to every node of `tu` and sets `node_count`. The
/// parser calls it; call it again after editing a tree (new nodes may use id 0).
pub fn renumber(tu: &mut TranslationUnit) {
    let mut n = Numbering(0);
    walk_unit_mut(&mut n, tu);
    tu.node_count = n.0;
}

/// Numbers the nodes of a standalone expression from 0 (pre-order); returns the count.
pub fn renumber_expr(e: &mut Expr) -> u32 {
    let mut n = Numbering(0);
    n.visit_expr(e);
    n.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::parser::parse;

    /// Every id below `node_count` is reached once by the walk, in increasing order.
    #[test]
    fn the_walk_reaches_every_node_in_id_order() {
        let text = "enum { A = 2, B }; struct s { int m[A + 1]; };\n\
                    int g[3] = { 1, 2 }; int proto(int a[4], double);\n\
                    int main(void) { int x = (int)sizeof(int[5]); long k[2][A];\n\
                    switch (x) { case 1 + 1: x = (char)x ? k[0][1] : -x; break; }\n\
                    for (int i = 0; i < 3; i++) x += proto(g, 1.5);\n\
                    do { x--; } while (x > 0); return x, 0; }\n";
        let (tu, diags) = parse(text);
        assert!(diags.is_empty(), "{diags:?}");
        struct Ids(Vec<NodeId>);
        impl<'a> Visitor<'a> for Ids {
            fn visit_function(&mut self, f: &'a FunctionDef) {
                self.0.push(f.id);
                walk_function(self, f);
            }
            fn visit_decl(&mut self, d: &'a Declaration) {
                self.0.push(d.id);
                walk_decl(self, d);
            }
            fn visit_declarator(&mut self, d: &'a Declarator) {
                self.0.push(d.id);
                walk_declarator(self, d);
            }
            fn visit_param(&mut self, p: &'a Param) {
                self.0.push(p.id);
                walk_param(self, p);
            }
            fn visit_block(&mut self, b: &'a Block) {
                self.0.push(b.id);
                walk_block(self, b);
            }
            fn visit_stmt(&mut self, s: &'a Stmt) {
                self.0.push(s.id);
                walk_stmt(self, s);
            }
            fn visit_expr(&mut self, e: &'a Expr) {
                self.0.push(e.id);
                walk_expr(self, e);
            }
        }
        let mut ids = Ids(Vec::new());
        walk_unit(&mut ids, &tu);
        assert_eq!(ids.0, (0..tu.node_count).collect::<Vec<_>>());
        let mut sizes = Vec::new();
        for_each_expr_in_unit(&tu, &mut |e| {
            if let ExprKind::IntLit { value, .. } = e.kind {
                sizes.push(value);
            }
        });
        assert_eq!(sizes, [2, 1, 3, 1, 2, 4, 5, 2, 1, 1, 0, 1, 0, 3, 0, 0]);
    }
}
