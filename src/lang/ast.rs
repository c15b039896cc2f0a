//! The abstract syntax tree of the C subset: a plain owned tree with spans and dense node ids.
//!
//! Conventions every consumer may rely on:
//!
//! - Every [`Expr`], [`Stmt`], [`Block`], [`Declaration`], [`Declarator`], [`Param`] and
//!   [`FunctionDef`] has a [`NodeId`] unique within its [`TranslationUnit`]. Ids are dense
//!   (`0..TranslationUnit::node_count`) and assigned in source order (pre-order: a parent
//!   before its children, children left to right).
//! - Spans are byte offsets into the ORIGINAL source text (before preprocessing). Tokens
//!   produced by a macro expansion carry the span of the macro invocation (`MAX` or
//!   `max(a, b)`), so a node built from them points at the user's text. When a node starts
//!   or ends strictly inside a macro expansion its span covers more text than the node
//!   itself, and [`Span::macro_inner`] is set: splice-based edits must not target it.
//! - Typedef names are resolved by the parser: a declaration `ll x;` after
//!   `typedef long long ll;` has type `Scalar(LongLong)`. Typedef declarations stay in the
//!   tree (storage [`Storage::Typedef`]) so the text can be printed back; back ends skip them.
//! - Types are kept as declared: an array parameter `int a[]` has type
//!   `Array { elem: Int, size: None }`, not a pointer (the back end adjusts it).
//! - Function prototypes (`int f(int);`) are [`Declaration`]s whose declarator has a
//!   [`Type::Function`] type; function definitions are [`Item::Function`].
//! - Macros are expanded: `#define N 100` then `a[N]` gives `IntLit 100` (at the span of
//!   `N`). An `#include` of a known header defines its usual constants as macros
//!   (`INT_MAX`, `LLONG_MAX`, `EOF`, `NULL` as `0`, `RAND_MAX`; `<stdbool.h>` makes
//!   `bool` `_Bool` and `true`/`false` `1`/`0`), so the back end never sees those names.
//! - After syntax errors the tree is still well formed: missing expressions are the
//!   literal `0`. Never run a tree whose diagnostics contain errors.
//! - [`renumber`](super::visit::renumber) re-assigns ids after an edit; `Display` prints expressions with
//!   minimal parentheses and whole programs as C that parses back to the same tree.

use std::fmt;

/// Unique id of a node within one translation unit (dense, source order).
pub type NodeId = u32;

/// A source range in the original text: bytes `start..end`, and the 1-based line and
/// column (in characters) of `start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
    /// 1-based line of `start`.
    pub line: u32,
    /// 1-based column (in characters) of `start`.
    pub col: u32,
    /// The node starts or ends strictly inside a macro expansion, so `start..end` (the
    /// invocation text) is not exactly this node's text. Never splice an edit over it.
    pub macro_inner: bool,
}

impl Span {
    /// The smallest span covering `self` and `other` (line/col taken from the earlier one).
    /// `macro_inner` is not propagated: the parser computes it per node.
    pub fn to(self, other: Span) -> Span {
        let first = if other.start < self.start {
            other
        } else {
            self
        };
        Span {
            start: first.start,
            end: self.end.max(other.end),
            line: first.line,
            col: first.col,
            macro_inner: false,
        }
    }

    /// The byte range `start..end` as `usize`s, for slicing the source.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// A whole program (one source file after preprocessing).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TranslationUnit {
    /// `#include` lines, in source order (not those in skipped `#if 0` branches).
    pub includes: Vec<Include>,
    /// Top-level declarations and function definitions, in source order.
    pub items: Vec<Item>,
    /// Number of node ids used: every id is `< node_count`.
    pub node_count: u32,
}

/// One `#include <header>` or `#include "header"` line.
#[derive(Clone, Debug, PartialEq)]
pub struct Include {
    /// The header name between the delimiters, e.g. `stdio.h`.
    pub header: String,
    /// `true` for `<...>`, `false` for `"..."`.
    pub system: bool,
    /// Span of the whole directive line (from `#` to the end of the header name).
    pub span: Span,
}

/// A top-level item.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A function definition with a body.
    Function(FunctionDef),
    /// A global declaration: variables, prototypes, typedefs, enum constants.
    Decl(Declaration),
}

/// Storage class (and `typedef`) of a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Storage {
    /// No storage class written.
    #[default]
    None,
    /// `static`
    Static,
    /// `extern`
    Extern,
    /// `register`
    Register,
    /// `auto`
    Auto,
    /// `typedef`: the declarators name types, not objects.
    Typedef,
}

/// A function definition `ret name(params) { body }`.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDef {
    /// Node id.
    pub id: NodeId,
    /// From the first specifier to the closing brace.
    pub span: Span,
    /// Function name.
    pub name: String,
    /// Span of the name.
    pub name_span: Span,
    /// Return type (`int` when omitted, as in `main() {...}`).
    pub ret: Type,
    /// Parameters; empty for `()` and `(void)`.
    pub params: Vec<Param>,
    /// Ends with `, ...`.
    pub variadic: bool,
    /// Written as `()` (parameters unspecified), not `(void)`.
    pub unspecified_params: bool,
    /// `static`, `extern` or none.
    pub storage: Storage,
    /// Declared `inline`.
    pub is_inline: bool,
    /// The body.
    pub body: Block,
}

/// One function parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Node id.
    pub id: NodeId,
    /// From the first specifier to the end of the declarator.
    pub span: Span,
    /// Name, absent in prototypes like `int f(int);`.
    pub name: Option<String>,
    /// Declared type, as written (`int a[]` stays an array type).
    pub ty: Type,
    /// Declared `const`.
    pub is_const: bool,
}

/// Scalar (non-derived) types. `long double` is kept distinct but may be treated as
/// `double`; `long` is 64-bit (LP64); `char` is signed (x86-64 gcc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarType {
    /// `void`
    Void,
    /// `_Bool` / `bool`
    Bool,
    /// `char` (signed on x86-64)
    Char,
    /// `signed char`
    SChar,
    /// `unsigned char`
    UChar,
    /// `short`
    Short,
    /// `unsigned short`
    UShort,
    /// `int`, `signed`, also enum types
    Int,
    /// `unsigned`, `unsigned int`
    UInt,
    /// `long`
    Long,
    /// `unsigned long`
    ULong,
    /// `long long`, `__int64`
    LongLong,
    /// `unsigned long long`, `unsigned __int64`
    ULongLong,
    /// `float`
    Float,
    /// `double`
    Double,
    /// `long double`
    LongDouble,
}

impl ScalarType {
    /// The C spelling, e.g. `unsigned long long`.
    pub fn c_name(self) -> &'static str {
        match self {
            ScalarType::Void => "void",
            ScalarType::Bool => "_Bool",
            ScalarType::Char => "char",
            ScalarType::SChar => "signed char",
            ScalarType::UChar => "unsigned char",
            ScalarType::Short => "short",
            ScalarType::UShort => "unsigned short",
            ScalarType::Int => "int",
            ScalarType::UInt => "unsigned int",
            ScalarType::Long => "long",
            ScalarType::ULong => "unsigned long",
            ScalarType::LongLong => "long long",
            ScalarType::ULongLong => "unsigned long long",
            ScalarType::Float => "float",
            ScalarType::Double => "double",
            ScalarType::LongDouble => "long double",
        }
    }

    /// Integer types (including `_Bool` and `char`).
    pub fn is_integer(self) -> bool {
        !matches!(
            self,
            ScalarType::Void | ScalarType::Float | ScalarType::Double | ScalarType::LongDouble
        )
    }

    /// The type C (LP64) gives integer constant `value` with the lower-case `suffix`
    /// (`""`, `u`, `l`, `ul`, `ll`, `ull`, ... and MSVC's `i64`/`ui64`), written in decimal
    /// or not: the first type of the suffix's list that holds the value, and `true` when
    /// none does and the constant becomes unsigned as gcc makes it. `None`: not a suffix.
    pub fn integer_constant(value: u64, suffix: &str, decimal: bool) -> Option<(ScalarType, bool)> {
        use ScalarType::*;
        let candidates: &[ScalarType] = match (suffix, decimal) {
            ("", true) => &[Int, Long],
            ("", false) => &[Int, UInt, Long, ULong],
            ("u", _) => &[UInt, ULong],
            ("l", true) => &[Long],
            ("l", false) => &[Long, ULong],
            ("ul" | "lu", _) => &[ULong],
            ("ll" | "i64", true) => &[LongLong],
            ("ll" | "i64", false) => &[LongLong, ULongLong],
            ("ull" | "llu" | "ui64", _) => &[ULongLong],
            _ => return None,
        };
        let fits = |t: ScalarType| match t {
            Int => value <= i32::MAX as u64,
            UInt => value <= u64::from(u32::MAX),
            Long | LongLong => value <= i64::MAX as u64,
            _ => true,
        };
        Some(match candidates.iter().find(|t| fits(**t)) {
            Some(&ty) => (ty, false),
            None if candidates.contains(&LongLong) => (ULongLong, true),
            None => (ULong, true),
        })
    }

    /// The suffix the printer writes after an integer literal of this type.
    fn integer_suffix(self) -> &'static str {
        match self {
            ScalarType::UInt => "u",
            ScalarType::Long => "L",
            ScalarType::ULong => "UL",
            ScalarType::LongLong => "LL",
            ScalarType::ULongLong => "ULL",
            _ => "",
        }
    }

    /// The type C gives the decimal literal `value` written with this type's suffix (as
    /// the printer writes an `IntLit`), by [`Self::integer_constant`]: this type when the
    /// value fits, else the next of the suffix's list. Floating types and `void` are
    /// returned unchanged.
    pub fn decimal_literal(self, value: u64) -> ScalarType {
        if self.is_floating() || self == ScalarType::Void {
            return self;
        }
        let suffix = self.integer_suffix().to_ascii_lowercase();
        ScalarType::integer_constant(value, &suffix, true).map_or(self, |(ty, _)| ty)
    }

    /// Floating types.
    pub fn is_floating(self) -> bool {
        matches!(
            self,
            ScalarType::Float | ScalarType::Double | ScalarType::LongDouble
        )
    }
}

/// A C type as declared: a scalar base with pointer, array and function derivations.
///
/// `int *a[10]` is `Array { elem: Pointer(Scalar(Int)), size: Some(10) }`;
/// `int m[3][4]` is `Array { elem: Array { elem: Int, size: 4 }, size: 3 }`.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    /// A scalar type (or `void`).
    Scalar(ScalarType),
    /// Pointer to the inner type.
    Pointer(Box<Type>),
    /// Array of `elem`; `size` is the constant expression written between the brackets,
    /// `None` for `[]` (size from the initialiser, or an array parameter).
    Array {
        /// Element type.
        elem: Box<Type>,
        /// Size expression as written (not evaluated by the parser).
        size: Option<Box<Expr>>,
    },
    /// A structure type, by the key of its [`StructDef`]: the tag as written, or a
    /// name the parser makes up for an anonymous `struct { ... }`.
    Struct(String),
    /// A function type (prototypes only; calls through pointers are unsupported).
    Function {
        /// Return type.
        ret: Box<Type>,
        /// Parameters; empty for `()` and `(void)`.
        params: Vec<Param>,
        /// Ends with `, ...`.
        variadic: bool,
        /// Written `()`.
        unspecified_params: bool,
    },
}

impl Type {
    /// `int`
    pub const INT: Type = Type::Scalar(ScalarType::Int);

    /// The scalar at the bottom of all derivations (`int` for `int *a[3][4]`); for a
    /// function type, the return type's base.
    pub fn base(&self) -> ScalarType {
        match self {
            Type::Scalar(s) => *s,
            Type::Pointer(t) => t.base(),
            Type::Array { elem, .. } => elem.base(),
            Type::Function { ret, .. } => ret.base(),
            Type::Struct(_) => ScalarType::Void,
        }
    }

    /// The array dimension expressions, outermost first, while the type is an array
    /// (`int m[3][4]` gives `[Some(3), Some(4)]`).
    pub fn array_dims(&self) -> Vec<Option<&Expr>> {
        let mut dims = Vec::new();
        let mut t = self;
        while let Type::Array { elem, size } = t {
            dims.push(size.as_deref());
            t = elem;
        }
        dims
    }

    /// The number of pointer levels below the array dimensions (`char *argv[]` gives 1).
    pub fn pointer_levels(&self) -> usize {
        let mut t = self;
        while let Type::Array { elem, .. } = t {
            t = elem;
        }
        let mut n = 0;
        while let Type::Pointer(inner) = t {
            n += 1;
            t = inner;
        }
        n
    }

    /// Whether this is a plain scalar type.
    pub fn as_scalar(&self) -> Option<ScalarType> {
        match self {
            Type::Scalar(s) => Some(*s),
            _ => None,
        }
    }
}

/// A declaration: specifiers and a list of declarators (`int a, b[10], *c = 0;`).
/// Also prototypes (declarators of function type) and typedefs.
#[derive(Clone, Debug, PartialEq)]
pub struct Declaration {
    /// Node id.
    pub id: NodeId,
    /// From the first specifier to the `;`.
    pub span: Span,
    /// Storage class, or [`Storage::Typedef`].
    pub storage: Storage,
    /// Declared `const`.
    pub is_const: bool,
    /// Enumeration constants defined by an `enum { ... }` specifier in this declaration
    /// (usually empty). Their type is `int`.
    pub enum_consts: Vec<EnumConst>,
    /// Structure types defined by a `struct tag { ... }` specifier in this declaration
    /// (usually empty), inner ones (a member's own `struct { ... }`) first.
    pub struct_defs: Vec<StructDef>,
    /// The declarators; may be empty (`enum { A, B };`).
    pub declarators: Vec<Declarator>,
}

/// A structure definition `struct tag { members };`.
#[derive(Clone, Debug, PartialEq)]
pub struct StructDef {
    /// The key [`Type::Struct`] names it by: the tag, or a made-up name (never a C
    /// identifier a program could write: it starts with a digit-free `__anon`) for an
    /// anonymous structure.
    pub key: String,
    /// Span from `struct` to the closing brace.
    pub span: Span,
    /// The members in order: name and type.
    pub members: Vec<(String, Type)>,
}

/// One enumeration constant `NAME` or `NAME = value`.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumConst {
    /// The constant's name.
    pub name: String,
    /// Span of the name (and value if any).
    pub span: Span,
    /// The explicit value expression; `None` means previous + 1 (or 0 for the first).
    pub value: Option<Expr>,
}

/// One declarator of a declaration: name, full type, optional initialiser.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    /// Node id.
    pub id: NodeId,
    /// From the name (or leading `*`) to the end of the initialiser.
    pub span: Span,
    /// Declared name.
    pub name: String,
    /// Span of the name alone.
    pub name_span: Span,
    /// Full declared type (base type plus this declarator's derivations).
    pub ty: Type,
    /// Initialiser after `=`.
    pub init: Option<Initializer>,
}

/// An initialiser: an expression or a brace list (nested for multi-dimensional arrays).
#[derive(Clone, Debug, PartialEq)]
pub enum Initializer {
    /// `= expr` (including string literals for `char s[] = "abc"`).
    Expr(Expr),
    /// `= { a, b, { c, d } }`
    List {
        /// The elements in order.
        items: Vec<Initializer>,
        /// From `{` to `}`.
        span: Span,
    },
}

/// A `{ ... }` block.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// Node id.
    pub id: NodeId,
    /// From `{` to `}`.
    pub span: Span,
    /// The statements and declarations in order.
    pub stmts: Vec<Stmt>,
}

/// A statement (or a local declaration) with its span and id.
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    /// Node id (coverage and fault localisation key on it).
    pub id: NodeId,
    /// From the first token to the last (including the `;`).
    pub span: Span,
    /// What kind of statement.
    pub kind: StmtKind,
}

/// Statement kinds.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `expr;`
    Expr(Expr),
    /// A local declaration `int a = 1, b[3];` (also local typedefs and prototypes).
    Decl(Declaration),
    /// `{ ... }`
    Block(Block),
    /// `;`
    Empty,
    /// `if (cond) then else els`
    If {
        /// Condition.
        cond: Expr,
        /// Then branch.
        then: Box<Stmt>,
        /// Else branch.
        els: Option<Box<Stmt>>,
    },
    /// `while (cond) body`
    While {
        /// Condition.
        cond: Expr,
        /// Body.
        body: Box<Stmt>,
    },
    /// `do body while (cond);`
    DoWhile {
        /// Body.
        body: Box<Stmt>,
        /// Condition.
        cond: Expr,
    },
    /// `for (init; cond; step) body`
    For {
        /// Initialiser: a [`StmtKind::Decl`] or [`StmtKind::Expr`] statement (its span
        /// includes the first `;`), or `None` when empty.
        init: Option<Box<Stmt>>,
        /// Condition; `None` means always true.
        cond: Option<Expr>,
        /// Step expression.
        step: Option<Expr>,
        /// Body.
        body: Box<Stmt>,
    },
    /// `switch (cond) body`
    Switch {
        /// The controlling expression.
        cond: Expr,
        /// The body (usually a block containing `case` statements).
        body: Box<Stmt>,
    },
    /// `case value: body` (the body is the statement right after the colon; following
    /// statements of the block are siblings).
    Case {
        /// The case constant expression.
        value: Expr,
        /// The labelled statement.
        body: Box<Stmt>,
    },
    /// `default: body`
    Default {
        /// The labelled statement.
        body: Box<Stmt>,
    },
    /// `name: body`
    Label {
        /// Label name.
        name: String,
        /// The labelled statement.
        body: Box<Stmt>,
    },
    /// `goto name;`
    Goto(String),
    /// `break;`
    Break,
    /// `continue;`
    Continue,
    /// `return;` or `return expr;`
    Return(Option<Expr>),
}

/// An expression with its span and id.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// Node id.
    pub id: NodeId,
    /// The source text of this expression (see [`Span::macro_inner`]).
    pub span: Span,
    /// What kind of expression.
    pub kind: ExprKind,
}

/// Unary operators (prefix and postfix).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `+x`
    Plus,
    /// `!x`
    Not,
    /// `~x`
    BitNot,
    /// `*p`
    Deref,
    /// `&x`
    AddrOf,
    /// `++x`
    PreInc,
    /// `--x`
    PreDec,
    /// `x++`
    PostInc,
    /// `x--`
    PostDec,
}

/// Binary operators (the comma operator is [`ExprKind::Comma`], assignment is
/// [`ExprKind::Assign`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `&`
    BitAnd,
    /// `^`
    BitXor,
    /// `|`
    BitOr,
    /// `&&`
    LogAnd,
    /// `||`
    LogOr,
}

/// Expression kinds.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// Integer literal. `ty` follows C's rules for the spelling and suffix on LP64
    /// (`Int`, `UInt`, `Long`, `ULong`, `LongLong`, `ULongLong`).
    IntLit {
        /// The value (literals are never negative; `-1` is `Neg(1)`).
        value: u64,
        /// The literal's C type.
        ty: ScalarType,
    },
    /// Floating literal; `ty` is `Double`, `Float` (suffix `f`) or `LongDouble` (`l`).
    FloatLit {
        /// The value.
        value: f64,
        /// The literal's C type.
        ty: ScalarType,
    },
    /// Character literal `'a'`, `'\n'`; type `int`, value as gcc computes it (a single
    /// char is sign-extended from `char`).
    CharLit(i64),
    /// String literal (adjacent literals concatenated); the bytes after escape
    /// processing, without the terminating NUL.
    StringLit(Vec<u8>),
    /// A name: variable, function, or enumeration constant.
    Ident(String),
    /// Unary operator application.
    Unary {
        /// The operator.
        op: UnaryOp,
        /// The operand.
        operand: Box<Expr>,
    },
    /// Binary operator application.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// `lhs = rhs` (`op` is `None`) or compound `lhs op= rhs`.
    Assign {
        /// `None` for `=`, `Some(Add)` for `+=`, ...
        op: Option<BinaryOp>,
        /// Assigned place.
        lhs: Box<Expr>,
        /// Value.
        rhs: Box<Expr>,
    },
    /// `cond ? then : els`
    Conditional {
        /// Condition.
        cond: Box<Expr>,
        /// Value when true.
        then: Box<Expr>,
        /// Value when false.
        els: Box<Expr>,
    },
    /// `lhs, rhs`
    Comma {
        /// Evaluated first, value discarded.
        lhs: Box<Expr>,
        /// The value.
        rhs: Box<Expr>,
    },
    /// `(ty) expr`
    Cast {
        /// Target type.
        ty: Type,
        /// Operand.
        expr: Box<Expr>,
    },
    /// `sizeof(type)`
    SizeofType(Type),
    /// `sizeof expr` (the operand is not evaluated).
    SizeofExpr(Box<Expr>),
    /// Call of a named function `callee(args)`.
    Call {
        /// Function name (calls through pointers are unsupported).
        callee: String,
        /// Span of the name.
        callee_span: Span,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// `base.field` (`arrow` false) or `base->field` (`arrow` true).
    Member {
        /// The structure (or, with `->`, the pointer to it).
        base: Box<Expr>,
        /// The member's name.
        field: String,
        /// Written `->`.
        arrow: bool,
    },
    /// `base[index]`
    Index {
        /// The array or pointer.
        base: Box<Expr>,
        /// The index.
        index: Box<Expr>,
    },
}

/// The operand expressions of an expression kind, by `iter` (`iter` or `iter_mut`).
macro_rules! operands {
    ($kind:expr, $iter:ident) => {
        match $kind {
            ExprKind::IntLit { .. }
            | ExprKind::FloatLit { .. }
            | ExprKind::CharLit(_)
            | ExprKind::StringLit(_)
            | ExprKind::Ident(_)
            | ExprKind::SizeofType(_) => vec![],
            ExprKind::Unary { operand: x, .. }
            | ExprKind::Cast { expr: x, .. }
            | ExprKind::SizeofExpr(x)
            | ExprKind::Member { base: x, .. } => vec![x],
            ExprKind::Binary { lhs, rhs, .. }
            | ExprKind::Assign { lhs, rhs, .. }
            | ExprKind::Comma { lhs, rhs }
            | ExprKind::Index {
                base: lhs,
                index: rhs,
            } => vec![lhs, rhs],
            ExprKind::Conditional { cond, then, els } => vec![cond, then, els],
            ExprKind::Call { args, .. } => args.$iter().collect(),
        }
    };
}

impl Expr {
    /// The operand expressions, left to right (not those inside a type the expression
    /// names, such as a cast's: [`walk_expr`](super::visit::walk_expr) reaches those too).
    pub fn children(&self) -> Vec<&Expr> {
        operands!(&self.kind, iter)
    }

    /// [`Expr::children`], mutably.
    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        operands!(&mut self.kind, iter_mut)
    }
}

impl BinaryOp {
    /// The C spelling, e.g. `<=`.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
            BinaryOp::Lt => "<",
            BinaryOp::Gt => ">",
            BinaryOp::Le => "<=",
            BinaryOp::Ge => ">=",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::BitAnd => "&",
            BinaryOp::BitXor => "^",
            BinaryOp::BitOr => "|",
            BinaryOp::LogAnd => "&&",
            BinaryOp::LogOr => "||",
        }
    }

    /// Binding strength (higher binds tighter): `||` is 4, `*` is 13; see [`Expr::precedence`].
    pub fn precedence(self) -> u8 {
        match self {
            BinaryOp::LogOr => 4,
            BinaryOp::LogAnd => 5,
            BinaryOp::BitOr => 6,
            BinaryOp::BitXor => 7,
            BinaryOp::BitAnd => 8,
            BinaryOp::Eq | BinaryOp::Ne => 9,
            BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge => 10,
            BinaryOp::Shl | BinaryOp::Shr => 11,
            BinaryOp::Add | BinaryOp::Sub => 12,
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 13,
        }
    }

    /// `< > <= >= == !=`
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge | BinaryOp::Eq | BinaryOp::Ne
        )
    }
}

impl UnaryOp {
    /// The C spelling, e.g. `++`.
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Plus => "+",
            UnaryOp::Not => "!",
            UnaryOp::BitNot => "~",
            UnaryOp::Deref => "*",
            UnaryOp::AddrOf => "&",
            UnaryOp::PreInc | UnaryOp::PostInc => "++",
            UnaryOp::PreDec | UnaryOp::PostDec => "--",
        }
    }

    /// `x++` and `x--`.
    pub fn is_postfix(self) -> bool {
        matches!(self, UnaryOp::PostInc | UnaryOp::PostDec)
    }
}

/// Precedence levels used by the printer (higher binds tighter).
const PREC_COMMA: u8 = 1;
const PREC_ASSIGN: u8 = 2;
const PREC_COND: u8 = 3;
const PREC_UNARY: u8 = 14;
const PREC_POSTFIX: u8 = 15;
const PREC_PRIMARY: u8 = 16;

impl Expr {
    /// Binding strength of this expression's top operator: comma 1, assignment 2, `?:` 3,
    /// binary operators 4 (`||`) to 13 (`*`), unary/cast/sizeof 14, postfix 15, primary 16.
    pub fn precedence(&self) -> u8 {
        match &self.kind {
            ExprKind::Comma { .. } => PREC_COMMA,
            ExprKind::Assign { .. } => PREC_ASSIGN,
            ExprKind::Conditional { .. } => PREC_COND,
            ExprKind::Binary { op, .. } => op.precedence(),
            ExprKind::Unary { op, .. } if op.is_postfix() => PREC_POSTFIX,
            ExprKind::Unary { .. }
            | ExprKind::Cast { .. }
            | ExprKind::SizeofType(_)
            | ExprKind::SizeofExpr(_) => PREC_UNARY,
            ExprKind::Call { .. } | ExprKind::Index { .. } | ExprKind::Member { .. } => {
                PREC_POSTFIX
            }
            ExprKind::IntLit { .. }
            | ExprKind::FloatLit { .. }
            | ExprKind::CharLit(_)
            | ExprKind::StringLit(_)
            | ExprKind::Ident(_) => PREC_PRIMARY,
        }
    }

    /// Prints the expression as C with every compound subexpression parenthesised
    /// (for tests and debugging: makes the parse tree visible).
    pub fn to_full_parens(&self) -> String {
        let mut s = String::new();
        write_expr(&mut s, self, 0, Style::FULL);
        s
    }
}

/// How expressions are printed: minimal or full parentheses, and optionally some
/// subexpressions as given text (a patch keeps the user's own text where it is unchanged).
#[derive(Clone, Copy)]
struct Style<'a> {
    full: bool,
    verbatim: Option<&'a Verbatim<'a>>,
}

/// Gives the text to print for a subexpression, or `None` to print it as usual.
type Verbatim<'a> = dyn Fn(&Expr) -> Option<String> + 'a;

impl Style<'_> {
    const PLAIN: Style<'static> = Style {
        full: false,
        verbatim: None,
    };
    const FULL: Style<'static> = Style {
        full: true,
        verbatim: None,
    };
}

/// Prints `e` with minimal parentheses, a subexpression for which `verbatim` gives a
/// text as that text (parenthesised where its place needs it).
pub fn print_expr_with(e: &Expr, verbatim: &dyn Fn(&Expr) -> Option<String>) -> String {
    let mut s = String::new();
    write_expr(
        &mut s,
        e,
        0,
        Style {
            full: false,
            verbatim: Some(verbatim),
        },
    );
    s
}

/// Prints `e` (at least binding `min_prec`) into `out` in `style`.
fn write_expr(out: &mut String, e: &Expr, min_prec: u8, style: Style) {
    let prec = e.precedence();
    let paren = prec < min_prec || (style.full && prec < PREC_PRIMARY && min_prec > 0);
    if paren {
        out.push('(');
    }
    if let Some(text) = style.verbatim.and_then(|v| v(e)) {
        out.push_str(&text);
        if paren {
            out.push(')');
        }
        return;
    }
    match &e.kind {
        ExprKind::IntLit { value, ty } => {
            out.push_str(&value.to_string());
            out.push_str(ty.integer_suffix());
        }
        ExprKind::FloatLit { value, ty } => {
            let suffix = match ty {
                ScalarType::Float => "f",
                ScalarType::LongDouble => "L",
                _ => "",
            };
            if value.is_nan() {
                out.push_str("(0.0 / 0.0)");
            } else {
                if value.is_infinite() {
                    out.push_str(if *value < 0.0 { "-1e999" } else { "1e999" });
                } else if *ty == ScalarType::Float {
                    // The shortest spelling that rounds to the same float.
                    out.push_str(&format!("{:?}", *value as f32));
                } else {
                    out.push_str(&format!("{value:?}"));
                }
                out.push_str(suffix);
            }
        }
        ExprKind::CharLit(v) => write_char_lit(out, *v),
        ExprKind::StringLit(bytes) => write_string_lit(out, bytes),
        ExprKind::Ident(name) => out.push_str(name),
        ExprKind::Unary { op, operand } => {
            if op.is_postfix() {
                write_expr(out, operand, PREC_POSTFIX, style);
                out.push_str(op.symbol());
            } else {
                out.push_str(op.symbol());
                let mut inner = String::new();
                // `++`/`--` take a unary expression, not a cast: `--((int)x)` keeps its parentheses.
                let is_cast = matches!(operand.kind, ExprKind::Cast { .. });
                let min = if is_cast && matches!(op, UnaryOp::PreInc | UnaryOp::PreDec) {
                    PREC_POSTFIX
                } else {
                    PREC_UNARY
                };
                write_expr(&mut inner, operand, min, style);
                // Avoid `- -x` becoming `--x` and `& &x` becoming `&&x`.
                let last = op.symbol().chars().last();
                if matches!(last, Some('-' | '+' | '&')) && inner.starts_with(last.unwrap_or(' ')) {
                    out.push(' ');
                }
                out.push_str(&inner);
            }
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let p = op.precedence();
            write_expr(out, lhs, p, style);
            out.push(' ');
            out.push_str(op.symbol());
            out.push(' ');
            write_expr(out, rhs, p + 1, style);
        }
        ExprKind::Assign { op, lhs, rhs } => {
            write_expr(out, lhs, PREC_UNARY, style);
            out.push(' ');
            if let Some(op) = op {
                out.push_str(op.symbol());
            }
            out.push_str("= ");
            write_expr(out, rhs, PREC_ASSIGN, style);
        }
        ExprKind::Conditional { cond, then, els } => {
            write_expr(out, cond, PREC_COND + 1, style);
            out.push_str(" ? ");
            write_expr(out, then, PREC_COMMA, style);
            out.push_str(" : ");
            write_expr(out, els, PREC_COND, style);
        }
        ExprKind::Comma { lhs, rhs } => {
            write_expr(out, lhs, PREC_COMMA, style);
            out.push_str(", ");
            write_expr(out, rhs, PREC_ASSIGN, style);
        }
        ExprKind::Cast { ty, expr } => {
            out.push('(');
            out.push_str(&type_to_c(ty, ""));
            out.push(')');
            write_expr(out, expr, PREC_UNARY, style);
        }
        ExprKind::SizeofType(ty) => {
            out.push_str("sizeof(");
            out.push_str(&type_to_c(ty, ""));
            out.push(')');
        }
        ExprKind::SizeofExpr(inner) => {
            out.push_str("sizeof ");
            // `sizeof (int)x` would read as `sizeof(int)` followed by `x`.
            let min = if matches!(inner.kind, ExprKind::Cast { .. }) {
                PREC_POSTFIX
            } else {
                PREC_UNARY
            };
            write_expr(out, inner, min, style);
        }
        ExprKind::Call { callee, args, .. } => {
            out.push_str(callee);
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_expr(out, a, PREC_ASSIGN, style);
            }
            out.push(')');
        }
        ExprKind::Index { base, index } => {
            write_expr(out, base, PREC_POSTFIX, style);
            out.push('[');
            write_expr(out, index, 0, style);
            out.push(']');
        }
        ExprKind::Member { base, field, arrow } => {
            write_expr(out, base, PREC_POSTFIX, style);
            out.push_str(if *arrow { "->" } else { "." });
            out.push_str(field);
        }
    }
    if paren {
        out.push(')');
    }
}

/// Escapes one byte for a char or string literal delimited by `quote`.
fn push_escaped(out: &mut String, b: u8, quote: u8) {
    match b {
        b'\n' => out.push_str("\\n"),
        b'\t' => out.push_str("\\t"),
        b'\r' => out.push_str("\\r"),
        b'\\' => out.push_str("\\\\"),
        b'\'' | b'"' if b == quote => {
            out.push('\\');
            out.push(b as char);
        }
        0x20..=0x7e => out.push(b as char),
        _ => out.push_str(&format!("\\{b:03o}")),
    }
}

fn write_char_lit(out: &mut String, v: i64) {
    if (-128..=255).contains(&v) {
        out.push('\'');
        push_escaped(out, (v & 0xff) as u8, b'\'');
        out.push('\'');
    } else {
        out.push_str(&v.to_string());
    }
}

fn write_string_lit(out: &mut String, bytes: &[u8]) {
    out.push('"');
    for &b in bytes {
        push_escaped(out, b, b'"');
    }
    out.push('"');
}

/// Prints a type as C around the declarator text `inner` (a name, or `""` for an
/// abstract type as in casts): `type_to_c(&int_ptr_array, "a")` gives `int *a[10]`.
pub fn type_to_c(ty: &Type, inner: &str) -> String {
    let (base, decl) = declarator_to_c(ty, inner.to_string());
    if decl.is_empty() {
        base
    } else {
        format!("{base} {decl}")
    }
}

/// Splits a type into its base type's C spelling and the declarator text around `inner`
/// (`int *a[10]` gives `("int", "*a[10]")`, `struct S s` gives `("struct S", "s")`).
pub fn declarator_to_c(ty: &Type, inner: String) -> (String, String) {
    match ty {
        Type::Scalar(s) => (s.c_name().to_string(), inner),
        Type::Struct(key) => (format!("struct {key}"), inner),
        Type::Pointer(t) => match **t {
            Type::Array { .. } | Type::Function { .. } => declarator_to_c(t, format!("(*{inner})")),
            _ => declarator_to_c(t, format!("*{inner}")),
        },
        Type::Array { elem, size } => {
            let size = size
                .as_ref()
                .map(|e| {
                    let mut t = String::new();
                    write_expr(&mut t, e, PREC_ASSIGN, Style::PLAIN);
                    t
                })
                .unwrap_or_default();
            declarator_to_c(elem, format!("{inner}[{size}]"))
        }
        Type::Function {
            ret,
            params,
            variadic,
            unspecified_params,
        } => {
            let ps = params_to_c(params, *variadic, *unspecified_params);
            declarator_to_c(ret, format!("{inner}({ps})"))
        }
    }
}

fn params_to_c(params: &[Param], variadic: bool, unspecified: bool) -> String {
    let mut ps: Vec<String> = params
        .iter()
        .map(|p| {
            let t = type_to_c(&p.ty, p.name.as_deref().unwrap_or(""));
            if p.is_const {
                format!("const {t}")
            } else {
                t
            }
        })
        .collect();
    if variadic {
        ps.push("...".to_string());
    }
    if ps.is_empty() && !unspecified {
        ps.push("void".to_string());
    }
    ps.join(", ")
}

fn write_init(out: &mut String, init: &Initializer) {
    match init {
        Initializer::Expr(e) => write_expr(out, e, PREC_ASSIGN, Style::PLAIN),
        Initializer::List { items, .. } => {
            out.push('{');
            for (i, it) in items.iter().enumerate() {
                out.push_str(if i > 0 { ", " } else { " " });
                write_init(out, it);
            }
            out.push_str(if items.is_empty() { "}" } else { " }" });
        }
    }
}

fn write_decl(out: &mut String, d: &Declaration) {
    let mut prefix = String::new();
    match d.storage {
        Storage::None => {}
        Storage::Static => prefix.push_str("static "),
        Storage::Extern => prefix.push_str("extern "),
        Storage::Register => prefix.push_str("register "),
        Storage::Auto => prefix.push_str("auto "),
        Storage::Typedef => prefix.push_str("typedef "),
    }
    if d.is_const {
        prefix.push_str("const ");
    }
    if !d.enum_consts.is_empty() {
        out.push_str("enum {");
        for (i, c) in d.enum_consts.iter().enumerate() {
            out.push_str(if i > 0 { ", " } else { " " });
            out.push_str(&c.name);
            if let Some(v) = &c.value {
                out.push_str(" = ");
                write_expr(out, v, PREC_COND, Style::PLAIN);
            }
        }
        out.push_str(" };");
        if d.declarators.is_empty() {
            return;
        }
        out.push(' ');
    }
    // Declarators with different base types (from typedefs) are printed as separate
    // declarations; usually there is one group.
    // Structure definitions print where the parser found them: the first `struct KEY`
    // of the declaration (outermost last in `struct_defs`) spelled with its members.
    let mut pending: Vec<&StructDef> = d.struct_defs.iter().collect();
    if d.declarators.is_empty() {
        if let Some(outer) = pending.last().map(|sd| format!("struct {}", sd.key)) {
            out.push_str(&prefix);
            out.push_str(&expand_struct(&outer, &mut pending));
            out.push(';');
            return;
        }
    }
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for dl in &d.declarators {
        let (base, mut text) = declarator_to_c(&dl.ty, dl.name.clone());
        if let Some(init) = &dl.init {
            text.push_str(" = ");
            write_init(&mut text, init);
        }
        match groups.last_mut() {
            Some((b, texts)) if *b == base => texts.push(text),
            _ => groups.push((base, vec![text])),
        }
    }
    // A declaration that declares nothing (`int ;`) prints as nothing: a lone `;` would not
    // parse back to a declaration, so printing would not reach a fixpoint.
    if groups.is_empty() && !prefix.trim().is_empty() {
        out.push_str(prefix.trim_end());
        out.push(';');
    }
    for (i, (base, texts)) in groups.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&prefix);
        out.push_str(&expand_struct(base, &mut pending));
        out.push(' ');
        out.push_str(&texts.join(", "));
        out.push(';');
    }
}

fn indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push_str("    ");
    }
}

/// `base` (a type's base spelling) with the members of the structure it names when its
/// definition is still `pending` (taken from it), nested definitions likewise.
fn expand_struct(base: &str, pending: &mut Vec<&StructDef>) -> String {
    let Some(key) = base.strip_prefix("struct ") else {
        return base.to_string();
    };
    let Some(at) = pending.iter().position(|sd| sd.key == key) else {
        return base.to_string();
    };
    let sd = pending.remove(at);
    let mut out = format!("struct {key} {{");
    for (name, ty) in &sd.members {
        let (mbase, decl) = declarator_to_c(ty, name.clone());
        out.push(' ');
        out.push_str(&expand_struct(&mbase, pending));
        out.push(' ');
        out.push_str(&decl);
        out.push(';');
    }
    out.push_str(" }");
    out
}

fn write_block(out: &mut String, b: &Block, level: usize) {
    out.push_str("{\n");
    for s in &b.stmts {
        write_stmt(out, s, level + 1);
    }
    indent(out, level);
    out.push('}');
}

/// Writes a substatement after a header like `if (c)`: blocks on the same line,
/// other statements on the next line, indented.
fn write_body(out: &mut String, s: &Stmt, level: usize, force_block: bool) {
    match &s.kind {
        StmtKind::Block(b) => {
            out.push(' ');
            write_block(out, b, level);
        }
        _ if force_block => {
            out.push_str(" {\n");
            write_stmt(out, s, level + 1);
            indent(out, level);
            out.push('}');
        }
        _ => {
            out.push('\n');
            let mut inner = String::new();
            write_stmt(&mut inner, s, level + 1);
            out.push_str(inner.trim_end_matches('\n'));
        }
    }
}

/// Writes one statement at indentation `level`, ending with a newline.
fn write_stmt(out: &mut String, s: &Stmt, level: usize) {
    indent(out, level);
    match &s.kind {
        StmtKind::Expr(e) => {
            write_expr(out, e, 0, Style::PLAIN);
            out.push(';');
        }
        StmtKind::Decl(d) => {
            let before = out.len();
            write_decl(out, d);
            if out.len() == before {
                // Declares nothing: a null statement means the same and prints back alike.
                out.push(';');
            }
        }
        StmtKind::Block(b) => write_block(out, b, level),
        StmtKind::Empty => out.push(';'),
        StmtKind::If { cond, then, els } => {
            out.push_str("if (");
            write_expr(out, cond, 0, Style::PLAIN);
            out.push(')');
            // Braces keep a following `else` from attaching to an inner `if`.
            write_body(out, then, level, els.is_some());
            if let Some(e) = els {
                out.push_str(" else");
                if matches!(e.kind, StmtKind::If { .. }) {
                    out.push(' ');
                    let mut inner = String::new();
                    write_stmt(&mut inner, e, level);
                    out.push_str(inner.trim_start().trim_end_matches('\n'));
                } else {
                    write_body(out, e, level, false);
                }
            }
        }
        StmtKind::While { cond, body } => {
            out.push_str("while (");
            write_expr(out, cond, 0, Style::PLAIN);
            out.push(')');
            write_body(out, body, level, false);
        }
        StmtKind::DoWhile { body, cond } => {
            out.push_str("do");
            write_body(out, body, level, true);
            out.push_str(" while (");
            write_expr(out, cond, 0, Style::PLAIN);
            out.push_str(");");
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            out.push_str("for (");
            match init.as_deref().map(|s| &s.kind) {
                Some(StmtKind::Decl(d)) => {
                    let before = out.len();
                    write_decl(out, d);
                    if out.len() == before {
                        out.push(';');
                    }
                }
                Some(StmtKind::Expr(e)) => {
                    write_expr(out, e, 0, Style::PLAIN);
                    out.push(';');
                }
                _ => out.push(';'),
            }
            if let Some(c) = cond {
                out.push(' ');
                write_expr(out, c, 0, Style::PLAIN);
            }
            out.push(';');
            if let Some(st) = step {
                out.push(' ');
                write_expr(out, st, 0, Style::PLAIN);
            }
            out.push(')');
            write_body(out, body, level, false);
        }
        StmtKind::Switch { cond, body } => {
            out.push_str("switch (");
            write_expr(out, cond, 0, Style::PLAIN);
            out.push(')');
            write_body(out, body, level, false);
        }
        StmtKind::Case { value, body } => {
            out.push_str("case ");
            write_expr(out, value, PREC_COND, Style::PLAIN);
            out.push_str(":\n");
            write_stmt(out, body, level);
            return;
        }
        StmtKind::Default { body } => {
            out.push_str("default:\n");
            write_stmt(out, body, level);
            return;
        }
        StmtKind::Label { name, body } => {
            out.push_str(name);
            out.push_str(":\n");
            write_stmt(out, body, level);
            return;
        }
        StmtKind::Goto(l) => {
            out.push_str("goto ");
            out.push_str(l);
            out.push(';');
        }
        StmtKind::Break => out.push_str("break;"),
        StmtKind::Continue => out.push_str("continue;"),
        StmtKind::Return(None) => out.push_str("return;"),
        StmtKind::Return(Some(e)) => {
            out.push_str("return ");
            write_expr(out, e, 0, Style::PLAIN);
            out.push(';');
        }
    }
    out.push('\n');
}

fn write_function(out: &mut String, f: &FunctionDef) {
    match f.storage {
        Storage::Static => out.push_str("static "),
        Storage::Extern => out.push_str("extern "),
        _ => {}
    }
    if f.is_inline {
        out.push_str("inline ");
    }
    let ps = params_to_c(&f.params, f.variadic, f.unspecified_params);
    out.push_str(&type_to_c(&f.ret, &format!("{}({ps})", f.name)));
    out.push(' ');
    write_block(out, &f.body, 0);
    out.push('\n');
}

/// Prints the expression as C with minimal parentheses.
impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_expr(&mut s, self, 0, Style::PLAIN);
        f.write_str(&s)
    }
}

/// Prints the type as an abstract C type name, e.g. `long long` or `int *`.
impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&type_to_c(self, ""))
    }
}

/// Prints the statement as C (indented with four spaces, ending with a newline).
impl fmt::Display for Stmt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_stmt(&mut s, self, 0);
        f.write_str(&s)
    }
}

/// Prints the declaration as C, e.g. `static int a[10] = { 1, 2 }, *p;`.
impl fmt::Display for Declaration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_decl(&mut s, self);
        f.write_str(&s)
    }
}

/// Prints the function definition as C.
impl fmt::Display for FunctionDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        write_function(&mut s, self);
        f.write_str(&s)
    }
}

/// Prints the whole program as C: the `#include` lines, then every item (macros are
/// expanded, typedef names resolved; the result parses back to the same tree).
impl fmt::Display for TranslationUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        for inc in &self.includes {
            if inc.system {
                s.push_str(&format!("#include <{}>\n", inc.header));
            } else {
                s.push_str(&format!("#include \"{}\"\n", inc.header));
            }
        }
        for item in &self.items {
            match item {
                Item::Function(func) => {
                    s.push('\n');
                    write_function(&mut s, func);
                }
                Item::Decl(d) => {
                    let before = s.len();
                    write_decl(&mut s, d);
                    if s.len() > before {
                        s.push('\n');
                    }
                }
            }
        }
        f.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(kind: ExprKind) -> Expr {
        Expr {
            id: 0,
            span: Span::default(),
            kind,
        }
    }

    #[test]
    fn literals_print_as_c() {
        let f = |value, ty| lit(ExprKind::FloatLit { value, ty }).to_string();
        assert_eq!(f(1e9, ScalarType::Double), "1000000000.0");
        assert_eq!(f(0.5, ScalarType::Double), "0.5");
        assert_eq!(f(1e-7, ScalarType::Double), "1e-7");
        assert_eq!(f(0.1f32 as f64, ScalarType::Float), "0.1f");
        assert_eq!(f(2.5, ScalarType::LongDouble), "2.5L");
        assert_eq!(f(f64::INFINITY, ScalarType::Double), "1e999");
        let i = |value, ty| lit(ExprKind::IntLit { value, ty }).to_string();
        assert_eq!(i(7, ScalarType::Int), "7");
        assert_eq!(i(7, ScalarType::UInt), "7u");
        assert_eq!(i(7, ScalarType::LongLong), "7LL");
        assert_eq!(i(7, ScalarType::ULong), "7UL");
        // Every literal typed by `decimal_literal` reads back with the same type.
        use ScalarType::*;
        for ty in [Int, UInt, Long, ULong, LongLong, ULongLong, Char, Short] {
            for value in [
                0,
                i32::MAX as u64,
                i32::MAX as u64 + 1,
                u64::from(u32::MAX),
                u64::from(u32::MAX) + 1,
                i64::MAX as u64,
                i64::MAX as u64 + 1,
            ] {
                let typed = ty.decimal_literal(value);
                let text = i(value, typed);
                let read = crate::lang::parser::number_literal(&text).unwrap().0;
                assert_eq!(read, ExprKind::IntLit { value, ty: typed }, "{text}");
            }
        }
        assert_eq!(Int.decimal_literal(i64::MAX as u64), Long);
        assert_eq!(Double.decimal_literal(1 << 40), Double);
        let c = |v| lit(ExprKind::CharLit(v)).to_string();
        assert_eq!(c(97), "'a'");
        assert_eq!(c(10), "'\\n'");
        assert_eq!(c(0), "'\\000'");
        assert_eq!(c(39), "'\\''");
        assert_eq!(c(-1), "'\\377'");
        assert_eq!(c(0x6162), "24930");
        let s = lit(ExprKind::StringLit(b"a\"b\\\n\x01".to_vec())).to_string();
        assert_eq!(s, "\"a\\\"b\\\\\\n\\001\"");
    }

    #[test]
    fn types_print_as_declarators() {
        let int = Type::INT;
        let arr = |t: Type, n: Option<u64>| Type::Array {
            elem: Box::new(t),
            size: n.map(|v| {
                Box::new(lit(ExprKind::IntLit {
                    value: v,
                    ty: ScalarType::Int,
                }))
            }),
        };
        let ptr = |t: Type| Type::Pointer(Box::new(t));
        assert_eq!(
            type_to_c(&arr(ptr(int.clone()), Some(10)), "a"),
            "int *a[10]"
        );
        assert_eq!(
            type_to_c(&ptr(arr(int.clone(), Some(10))), "p"),
            "int (*p)[10]"
        );
        assert_eq!(
            type_to_c(&arr(arr(int.clone(), Some(4)), Some(3)), "m"),
            "int m[3][4]"
        );
        assert_eq!(ptr(Type::Scalar(ScalarType::Char)).to_string(), "char *");
        assert_eq!(arr(arr(int, Some(4)), None).array_dims().len(), 2);
    }
}
