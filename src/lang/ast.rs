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
//! - [`renumber`](super::visit::renumber) re-assigns ids after an edit; `Display`
//!   ([`print`](super::print)) prints expressions with minimal parentheses and whole
//!   programs as C that parses back to the same tree.

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
    pub fn integer_suffix(self) -> &'static str {
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
