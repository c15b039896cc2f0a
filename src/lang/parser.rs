//! Recursive-descent parser from preprocessed tokens to the [`ast`](super::ast), with error recovery.
//!
//! The parser never stops at the first error: after a syntax error it skips to the next
//! `;`, `}` or declaration and goes on, so one run reports every independent mistake.
//! Missing expressions are replaced by the literal `0` (so the tree stays well formed;
//! a tree that came with errors must not be run). Nesting depth is bounded (see
//! [`ParseLimits`]), so hostile input cannot overflow the stack, and the number of
//! reported errors is capped.

use std::collections::HashMap;

use super::ast::*;
use super::diag::Diagnostic;
use super::lexer::{Punct, TokKind, Token};
use super::preprocess::preprocess;
use super::visit::{renumber, renumber_expr};

/// Bounds on parsing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseLimits {
    /// Maximum nesting of expressions, statements and declarators (each parenthesis,
    /// block, operator in a chain, ... counts one level). Deeper input gets an error.
    pub max_depth: usize,
    /// After this many errors the parser reports "too many errors" and stops.
    pub max_errors: usize,
}

impl Default for ParseLimits {
    /// Depth 256, 100 errors.
    fn default() -> Self {
        ParseLimits {
            max_depth: 256,
            max_errors: 100,
        }
    }
}

/// Parses a whole C source text: preprocesses, parses, and returns the tree together
/// with every diagnostic (the parser recovers and never stops at the first error).
/// Never panics; nesting depth and macro expansion are bounded.
///
/// ```
/// let (tu, diags) = fixloop::lang::parse("int main(void) { return 1 + 2 * 3; }");
/// assert!(diags.is_empty());
/// assert_eq!(tu.items.len(), 1);
/// ```
pub fn parse(source: &str) -> (TranslationUnit, Vec<Diagnostic>) {
    parse_with(source, ParseLimits::default())
}

/// [`parse`] with explicit limits.
pub fn parse_with(source: &str, limits: ParseLimits) -> (TranslationUnit, Vec<Diagnostic>) {
    let pre = preprocess(source);
    let mut p = Parser::new(source, pre.tokens, limits);
    p.diags = pre.diags;
    p.errors = p.diags.iter().filter(|d| d.is_error()).count();
    let items = p.translation_unit();
    let mut tu = TranslationUnit {
        includes: pre.includes,
        items,
        node_count: 0,
    };
    renumber(&mut tu);
    let mut diags = p.diags;
    // In source order; "too many errors" stays last.
    diags.sort_by_key(|d| (d.message == TOO_MANY, d.span.start, d.span.end));
    (tu, diags)
}

/// Parses a single expression (macros are not expanded beyond the text itself); for
/// tests and for reading expressions typed by the user. Ids are numbered from 0.
pub fn parse_expr(source: &str) -> (Option<Expr>, Vec<Diagnostic>) {
    let pre = preprocess(source);
    let mut p = Parser::new(source, pre.tokens, ParseLimits::default());
    p.diags = pre.diags;
    let e = p.expr();
    if !p.at_eof() {
        p.error_here("expected end of expression");
    }
    let mut e = e;
    renumber_expr(&mut e);
    let ok = !p.diags.iter().any(Diagnostic::is_error);
    (ok.then_some(e), p.diags)
}

/// Number of derivations (pointer, array, function) above the base scalar; iterative.
fn type_depth(t: &Type) -> usize {
    let mut d = 0;
    let mut t = t;
    loop {
        t = match t {
            Type::Scalar(_) | Type::Struct(_) => return d,
            Type::Pointer(inner) => inner,
            Type::Array { elem, .. } => elem,
            Type::Function { ret, .. } => ret,
        };
        d += 1;
    }
}

/// "before 'x'" for a token, "at end of input" for the end.
fn before_tok(t: &Token) -> String {
    if t.kind == TokKind::Eof {
        "at end of input".to_string()
    } else {
        format!("before '{}'", t.text())
    }
}

/// The message of the diagnostic that ends a run with too many errors.
const TOO_MANY: &str = "too many errors; stopping";

/// C keywords (never identifiers).
const KEYWORDS: &[&str] = &[
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "_Bool",
    "__int64",
    "__inline",
    "__restrict",
    "__inline__",
    "__const",
];

/// Keywords that can start declaration specifiers.
const SPEC_KEYWORDS: &[&str] = &[
    "auto",
    "char",
    "const",
    "double",
    "enum",
    "extern",
    "float",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "short",
    "signed",
    "static",
    "struct",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "_Bool",
    "__int64",
    "__inline",
    "__restrict",
    "__inline__",
    "__const",
];

/// Typedef names every program sees (from `<stdint.h>`, `<stddef.h>`, LP64).
const BUILTIN_TYPEDEFS: &[(&str, ScalarType)] = &[
    ("int8_t", ScalarType::SChar),
    ("uint8_t", ScalarType::UChar),
    ("int16_t", ScalarType::Short),
    ("uint16_t", ScalarType::UShort),
    ("int32_t", ScalarType::Int),
    ("uint32_t", ScalarType::UInt),
    ("int64_t", ScalarType::Long),
    ("uint64_t", ScalarType::ULong),
    ("intmax_t", ScalarType::Long),
    ("uintmax_t", ScalarType::ULong),
    ("intptr_t", ScalarType::Long),
    ("uintptr_t", ScalarType::ULong),
    ("size_t", ScalarType::ULong),
    ("ssize_t", ScalarType::Long),
    ("ptrdiff_t", ScalarType::Long),
];

/// Declaration specifiers after parsing.
struct Specs {
    ty: Type,
    storage: Storage,
    is_const: bool,
    is_inline: bool,
    enum_consts: Vec<EnumConst>,
    struct_defs: Vec<StructDef>,
}

impl Specs {
    /// No specifiers where C89 allowed them: a plain `int`.
    fn implicit_int() -> Specs {
        Specs {
            ty: Type::INT,
            storage: Storage::None,
            is_const: false,
            is_inline: false,
            enum_consts: Vec::new(),
            struct_defs: Vec::new(),
        }
    }
}

/// A derivation suffix of a declarator: `[size]` or `(params)`.
enum Suffix {
    Array(Option<Box<Expr>>),
    Function(Vec<Param>, bool, bool),
}

struct Parser<'a> {
    src: &'a str,
    toks: Vec<Token>,
    pos: usize,
    diags: Vec<Diagnostic>,
    errors: usize,
    limits: ParseLimits,
    depth: usize,
    /// Set once the depth limit was hit: the parser unwinds and skips the construct.
    too_deep: bool,
    /// Token index of the last error, to avoid cascades at one place.
    last_error_at: Option<usize>,
    /// Stop parsing (too many errors).
    gave_up: bool,
    /// Innermost scope last: `Some(ty)` for typedef names, `None` for ordinary names.
    scopes: Vec<HashMap<String, Option<Type>>>,
    /// Anonymous structures seen so far (their made-up keys are numbered).
    anon_structs: u32,
}

fn placeholder(span: Span) -> Expr {
    Expr {
        id: 0,
        span,
        kind: ExprKind::IntLit {
            value: 0,
            ty: ScalarType::Int,
        },
    }
}

impl<'a> Parser<'a> {
    fn new(src: &'a str, mut toks: Vec<Token>, limits: ParseLimits) -> Parser<'a> {
        if toks.last().is_none_or(|t| t.kind != TokKind::Eof) {
            let span = Span {
                start: src.len() as u32,
                end: src.len() as u32,
                line: 1,
                col: 1,
                macro_inner: false,
            };
            toks.push(Token {
                kind: TokKind::Eof,
                span,
                line_start: true,
                space_before: true,
                from_macro: false,
                macro_first: false,
                macro_last: false,
                painted: false,
            });
        }
        let mut base = HashMap::new();
        for (name, s) in BUILTIN_TYPEDEFS {
            base.insert((*name).to_string(), Some(Type::Scalar(*s)));
        }
        Parser {
            src,
            toks,
            pos: 0,
            diags: Vec::new(),
            errors: 0,
            limits,
            depth: 0,
            too_deep: false,
            last_error_at: None,
            gave_up: false,
            scopes: vec![base],
            anon_structs: 0,
        }
    }

    // ----- token helpers -----

    fn peek(&self) -> &Token {
        self.peek_at(0)
    }

    fn peek_at(&self, k: usize) -> &Token {
        let last = self.toks.len() - 1;
        &self.toks[(self.pos + k).min(last)]
    }

    fn at_eof(&self) -> bool {
        self.peek().kind == TokKind::Eof
    }

    fn advance(&mut self) {
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
    }

    fn is(&self, p: Punct) -> bool {
        self.peek().is_punct(p)
    }

    fn is_at(&self, k: usize, p: Punct) -> bool {
        self.peek_at(k).is_punct(p)
    }

    fn eat(&mut self, p: Punct) -> bool {
        if self.is(p) {
            self.advance();
            true
        } else {
            false
        }
    }

    fn is_kw(&self, kw: &str) -> bool {
        self.peek().ident() == Some(kw)
    }

    fn eat_kw(&mut self, kw: &str) -> bool {
        if self.is_kw(kw) {
            self.advance();
            true
        } else {
            false
        }
    }

    /// The identifier at the cursor if it is not a keyword.
    fn peek_name(&self) -> Option<&str> {
        self.peek().ident().filter(|n| !KEYWORDS.contains(n))
    }

    // ----- scopes -----

    fn lookup_typedef(&self, name: &str) -> Option<&Type> {
        for s in self.scopes.iter().rev() {
            if let Some(entry) = s.get(name) {
                return entry.as_ref();
            }
        }
        None
    }

    fn is_typedef_name(&self, tok: &Token) -> bool {
        tok.ident()
            .is_some_and(|n| self.lookup_typedef(n).is_some())
    }

    fn declare(&mut self, name: &str, typedef: Option<Type>) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.to_string(), typedef);
        }
    }

    fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }

    fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
    }

    // ----- spans and diagnostics -----

    /// Span from the token at index `start` to the last consumed token.
    fn span_from(&self, start: usize) -> Span {
        let first = &self.toks[start.min(self.toks.len() - 1)];
        if self.pos <= start {
            let mut s = first.span;
            s.end = s.start;
            return s;
        }
        let last = &self.toks[self.pos - 1];
        let mut s = first.span.to(last.span);
        s.macro_inner =
            (first.from_macro && !first.macro_first) || (last.from_macro && !last.macro_last);
        s
    }

    /// A zero-width span just after the previous token (for "expected ';'").
    fn after_prev(&self) -> Span {
        if self.pos == 0 {
            let mut s = self.peek().span;
            s.end = s.start;
            return s;
        }
        let prev = self.toks[self.pos - 1].span;
        let (mut line, mut col) = (prev.line, prev.col);
        let text = self.src.get(prev.range()).unwrap_or("");
        for ch in text.chars() {
            if ch == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
        }
        Span {
            start: prev.end,
            end: prev.end,
            line,
            col,
            macro_inner: false,
        }
    }

    fn push_diag(&mut self, d: Diagnostic) {
        if self.gave_up {
            return;
        }
        if d.is_error() {
            self.errors += 1;
            if self.errors > self.limits.max_errors {
                self.gave_up = true;
                self.diags.push(Diagnostic::error(d.span, TOO_MANY));
                return;
            }
        }
        self.diags.push(d);
    }

    /// An error at `span`, unless one was already reported at the current token.
    fn error_at(&mut self, span: Span, msg: impl Into<String>) {
        if self.last_error_at == Some(self.pos) {
            return;
        }
        self.last_error_at = Some(self.pos);
        self.push_diag(Diagnostic::error(span, msg));
    }

    fn error_here(&mut self, msg: impl Into<String>) {
        let span = self.peek().span;
        self.error_at(span, msg);
    }

    fn unsupported(&mut self, span: Span, what: &str) {
        self.push_diag(Diagnostic::unsupported(span, what));
    }

    fn warning(&mut self, span: Span, msg: impl Into<String>) {
        self.push_diag(Diagnostic::warning(span, msg));
    }

    /// Expects punctuator `p`; reports "expected 'p' <context>" after the previous token.
    fn expect(&mut self, p: Punct, context: &str) -> bool {
        if self.eat(p) {
            return true;
        }
        let span = self.after_prev();
        let msg = if context.is_empty() {
            format!("expected '{}'", p.as_str())
        } else {
            format!("expected '{}' {context}", p.as_str())
        };
        self.error_at(span, msg);
        false
    }

    /// Expects the `)` closing a parenthesised list (nothing once too deep); when it is
    /// missing, skips to it - stopping at `;`, `stop` or the end - and eats it.
    fn close_paren(&mut self, context: &str, stop: Punct) {
        if self.too_deep || self.expect(Punct::RParen, context) {
            return;
        }
        while !self.is(Punct::RParen) && !self.is(Punct::Semi) && !self.is(stop) && !self.at_eof() {
            self.advance();
        }
        self.eat(Punct::RParen);
    }

    /// Expects the `;` ending a statement or declaration. When it is missing and the
    /// next token starts a new line, the `;` was most likely just forgotten: parsing goes
    /// on from that token; otherwise the rest of the statement is skipped.
    fn end_stmt(&mut self, context: &str) {
        if self.expect(Punct::Semi, context) {
            return;
        }
        let prev_line = self.pos.checked_sub(1).map(|k| self.toks[k].span.line);
        let t = self.peek();
        let new_line = prev_line.is_some_and(|l| t.span.line > l);
        if !new_line || t.is_punct(Punct::Semi) {
            self.skip_to_stmt_end();
        }
    }

    /// Enters one nesting level; false (with one diagnostic) when too deep.
    fn enter(&mut self) -> bool {
        if self.too_deep {
            return false;
        }
        self.depth += 1;
        if self.depth > self.limits.max_depth {
            self.too_deep = true;
            let span = self.peek().span;
            self.push_diag(Diagnostic::error(
                span,
                format!(
                    "nesting too deep (more than {} levels)",
                    self.limits.max_depth
                ),
            ));
            self.depth -= 1;
            return false;
        }
        true
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// After the depth limit: skip the rest of the construct (to the end of the
    /// statement at top level) and resume normal parsing.
    fn recover_from_depth(&mut self) {
        if self.too_deep && self.depth == 0 {
            self.too_deep = false;
            self.skip_to_stmt_end();
        }
    }

    /// Skips to just after the next `;` at bracket depth 0, or to a `}` closing the
    /// current block (not consumed), or EOF.
    fn skip_to_stmt_end(&mut self) {
        let mut depth = 0usize;
        loop {
            match &self.peek().kind {
                TokKind::Eof => return,
                TokKind::Punct(Punct::Semi) if depth == 0 => {
                    self.advance();
                    return;
                }
                TokKind::Punct(Punct::LBrace | Punct::LParen | Punct::LBracket) => depth += 1,
                TokKind::Punct(Punct::RBrace) if depth == 0 => return,
                TokKind::Punct(Punct::RBrace | Punct::RParen | Punct::RBracket) => {
                    // A stray `)` or `]` at depth 0 is skipped like any other token.
                    depth = depth.saturating_sub(1);
                    if depth == 0 && self.is(Punct::RBrace) {
                        self.advance();
                        // A `}` that closes a block we skipped into ends a statement.
                        return;
                    }
                }
                _ => {}
            }
            self.advance();
        }
    }

    // ----- top level -----

    fn translation_unit(&mut self) -> Vec<Item> {
        let mut items = Vec::new();
        while !self.at_eof() && !self.gave_up {
            let before = self.pos;
            if self.eat(Punct::Semi) {
                continue; // Stray `;` at file scope (gcc accepts with -pedantic warning).
            }
            if let Some(item) = self.external_decl() {
                items.push(item);
            }
            self.recover_from_depth();
            if self.pos == before {
                self.error_here(format!("expected declaration {}", before_tok(self.peek())));
                self.advance();
            }
        }
        items
    }

    fn external_decl(&mut self) -> Option<Item> {
        let start = self.pos;
        let specs = match self.specifiers() {
            Some(s) => s,
            None => {
                // Implicit int: `main() {...}`, `f(x) ...`.
                if self.peek_name().is_some() && self.is_at(1, Punct::LParen) {
                    Specs::implicit_int()
                } else {
                    self.error_here(format!("expected declaration {}", before_tok(self.peek())));
                    self.skip_to_stmt_end();
                    return None;
                }
            }
        };
        if self.is(Punct::Semi) {
            self.advance();
            return Some(Item::Decl(self.finish_empty_decl(start, specs)));
        }
        let dstart = self.pos;
        let (name, ty) = self.declarator(specs.ty.clone(), false);
        if let (Some((fname, fspan)), Type::Function { .. }) = (&name, &ty) {
            if self.is(Punct::LBrace) {
                return Some(Item::Function(self.function_def(
                    start,
                    specs,
                    fname.clone(),
                    *fspan,
                    ty,
                )));
            }
            if self.peek().ident().is_some() && !self.is(Punct::Semi) && !self.is(Punct::Comma) {
                let span = self.peek().span;
                self.unsupported(span, "K&R-style function definitions");
                self.skip_to_stmt_end();
                return None;
            }
        }
        Some(Item::Decl(
            self.declaration_rest(start, specs, dstart, name, ty),
        ))
    }

    fn function_def(
        &mut self,
        start: usize,
        specs: Specs,
        name: String,
        name_span: Span,
        ty: Type,
    ) -> FunctionDef {
        let Type::Function {
            ret,
            params,
            variadic,
            unspecified_params,
        } = ty
        else {
            unreachable!("function_def is only called with function types")
        };
        self.declare(&name, None);
        self.push_scope();
        for p in &params {
            if let Some(n) = &p.name {
                self.declare(n, None);
            }
        }
        let body = self.block_after_scope();
        self.pop_scope();
        FunctionDef {
            id: 0,
            span: self.span_from(start),
            name,
            name_span,
            ret: *ret,
            params,
            variadic,
            unspecified_params,
            storage: specs.storage,
            is_inline: specs.is_inline,
            body,
        }
    }

    fn finish_empty_decl(&mut self, start: usize, specs: Specs) -> Declaration {
        self.declaration(start, specs, Vec::new())
    }

    /// The declaration from `start` to the cursor: `specs` and its `declarators`.
    fn declaration(&self, start: usize, specs: Specs, declarators: Vec<Declarator>) -> Declaration {
        Declaration {
            id: 0,
            span: self.span_from(start),
            storage: specs.storage,
            is_const: specs.is_const,
            enum_consts: specs.enum_consts,
            struct_defs: specs.struct_defs,
            declarators,
        }
    }

    /// Parses the remaining declarators of a declaration whose first declarator (starting
    /// at token `dstart`) is already parsed, and the `;`.
    fn declaration_rest(
        &mut self,
        start: usize,
        specs: Specs,
        mut dstart: usize,
        mut name: Option<(String, Span)>,
        mut ty: Type,
    ) -> Declaration {
        let mut declarators = Vec::new();
        loop {
            let init = if self.eat(Punct::Assign) {
                Some(self.initializer())
            } else {
                None
            };
            if let Some((n, nspan)) = name.take() {
                if specs.storage == Storage::Typedef {
                    if init.is_some() {
                        self.error_at(nspan, format!("typedef '{n}' is initialized"));
                    }
                    self.declare(&n, Some(ty.clone()));
                } else {
                    self.declare(&n, None);
                }
                declarators.push(Declarator {
                    id: 0,
                    span: self.span_from(dstart),
                    name: n,
                    name_span: nspan,
                    ty,
                    init,
                });
            }
            if self.too_deep || self.gave_up {
                break;
            }
            if !self.eat(Punct::Comma) {
                break;
            }
            dstart = self.pos;
            let (n, t) = self.declarator(specs.ty.clone(), false);
            name = n;
            ty = t;
        }
        if !self.too_deep {
            self.end_stmt("after declaration");
        }
        self.declaration(start, specs, declarators)
    }

    // ----- declaration specifiers and declarators -----

    /// Whether the token `k` ahead starts declaration specifiers.
    fn starts_specifiers(&self, k: usize) -> bool {
        let t = self.peek_at(k);
        match t.ident() {
            Some(n) => SPEC_KEYWORDS.contains(&n) || self.is_typedef_name(t),
            None => false,
        }
    }

    /// Whether the token `k` ahead starts a type name (specifiers without storage class).
    fn starts_type_name(&self, k: usize) -> bool {
        let t = self.peek_at(k);
        match t.ident() {
            Some(n) => {
                SPEC_KEYWORDS.contains(&n)
                    && !matches!(n, "typedef" | "static" | "extern" | "register" | "auto")
                    || self.is_typedef_name(t)
            }
            None => false,
        }
    }

    /// Parses declaration specifiers; `None` if there are none at the cursor.
    fn specifiers(&mut self) -> Option<Specs> {
        let start = self.pos;
        let mut storage = Storage::None;
        let (mut is_const, mut is_inline) = (false, false);
        let mut enum_consts = Vec::new();
        let mut struct_defs = Vec::new();
        let mut struct_ty: Option<Type> = None;
        let (mut void, mut char_, mut short, mut int, mut long, mut float, mut double) =
            (0, 0, 0, 0, 0, 0, 0);
        let (mut signed, mut unsigned, mut bool_, mut int64) = (0, 0, 0, 0);
        let mut typedef_ty: Option<Type> = None;
        let mut other = false; // struct/union/enum
        loop {
            let t = self.peek().clone();
            let Some(word) = t.ident() else { break };
            let set_storage = |s: Storage, p: &mut Parser<'_>, cur: &mut Storage| {
                if *cur != Storage::None && *cur != s {
                    p.error_at(t.span, "multiple storage classes in declaration specifiers");
                }
                *cur = s;
            };
            match word {
                "typedef" => set_storage(Storage::Typedef, self, &mut storage),
                "static" => set_storage(Storage::Static, self, &mut storage),
                "extern" => set_storage(Storage::Extern, self, &mut storage),
                "register" => set_storage(Storage::Register, self, &mut storage),
                "auto" => set_storage(Storage::Auto, self, &mut storage),
                "const" | "__const" => is_const = true,
                "volatile" | "restrict" | "__restrict" => {}
                "inline" | "__inline" | "__inline__" => is_inline = true,
                "void" => void += 1,
                "char" => char_ += 1,
                "short" => short += 1,
                "int" => int += 1,
                "long" => long += 1,
                "float" => float += 1,
                "double" => double += 1,
                "signed" => signed += 1,
                "unsigned" => unsigned += 1,
                "_Bool" => bool_ += 1,
                "__int64" => int64 += 1,
                "struct" => {
                    self.advance();
                    struct_ty = Some(self.struct_specifier(t.span, &mut struct_defs));
                    other = true;
                    continue;
                }
                "union" => {
                    self.unsupported(t.span, "union types");
                    self.advance();
                    if self.peek_name().is_some() {
                        self.advance();
                    }
                    if self.is(Punct::LBrace) {
                        self.skip_balanced();
                    }
                    other = true;
                    continue;
                }
                "enum" => {
                    self.advance();
                    self.enum_specifier(&mut enum_consts);
                    other = true;
                    continue;
                }
                _ => {
                    let any_type = void
                        + char_
                        + short
                        + int
                        + long
                        + float
                        + double
                        + signed
                        + unsigned
                        + bool_
                        + int64
                        > 0
                        || other
                        || typedef_ty.is_some();
                    if !any_type {
                        if let Some(ty) = self.lookup_typedef(word).cloned() {
                            // `T T;` or `T x` : a typedef name is a type only if no type yet.
                            typedef_ty = Some(ty);
                            self.advance();
                            continue;
                        }
                    }
                    break;
                }
            }
            self.advance();
        }
        if self.pos == start {
            return None;
        }
        let span = self.span_from(start);
        // One base keyword at most (`int`, `char`, `double`, ..., a typedef name or a
        // struct/enum); `short`/`long` only with `int` (or `long double`);
        // `signed`/`unsigned` only with integer types.
        let bases = void
            + char_
            + int
            + float
            + double
            + bool_
            + int64
            + usize::from(other)
            + usize::from(typedef_ty.is_some());
        let non_int_base = void
            + char_
            + float
            + bool_
            + int64
            + usize::from(other)
            + usize::from(typedef_ty.is_some());
        let conflicting = bases > 1
            || (short > 0 && (long > 0 || non_int_base + double > 0 || short > 1))
            || (long > 0 && (non_int_base > 0 || (double > 0 && long > 1)))
            || (signed + unsigned > 0
                && (float
                    + double
                    + void
                    + bool_
                    + usize::from(other)
                    + usize::from(typedef_ty.is_some())
                    > 0
                    || (signed > 0 && unsigned > 0)));
        if conflicting {
            self.error_at(span, "two or more data types in declaration specifiers");
        }
        if long > 2 {
            self.error_at(span, "'long long long' is too long");
        }
        let uns = unsigned > 0;
        let scalar = if void > 0 {
            ScalarType::Void
        } else if bool_ > 0 {
            ScalarType::Bool
        } else if char_ > 0 {
            if uns {
                ScalarType::UChar
            } else if signed > 0 {
                ScalarType::SChar
            } else {
                ScalarType::Char
            }
        } else if float > 0 {
            ScalarType::Float
        } else if double > 0 {
            if long > 0 {
                ScalarType::LongDouble
            } else {
                ScalarType::Double
            }
        } else if short > 0 {
            if uns {
                ScalarType::UShort
            } else {
                ScalarType::Short
            }
        } else if int64 > 0 || long >= 2 {
            if uns {
                ScalarType::ULongLong
            } else {
                ScalarType::LongLong
            }
        } else if long == 1 {
            if uns {
                ScalarType::ULong
            } else {
                ScalarType::Long
            }
        } else if uns {
            ScalarType::UInt
        } else {
            ScalarType::Int
        };
        let ty = match (typedef_ty, struct_ty) {
            (Some(t), _) | (None, Some(t)) if !conflicting => t,
            _ => Type::Scalar(scalar),
        };
        Some(Specs {
            ty,
            storage,
            is_const,
            is_inline,
            enum_consts,
            struct_defs,
        })
    }

    /// After `struct` (at `kw`): an optional tag and an optional `{ members }` list,
    /// whose definition (after those of structures defined inside it) goes to `out`.
    /// Returns the type, named by the tag or, for an anonymous structure, a made-up key.
    fn struct_specifier(&mut self, kw: Span, out: &mut Vec<StructDef>) -> Type {
        let tag = self.peek_name().map(str::to_string);
        if tag.is_some() {
            self.advance();
        }
        if !self.is(Punct::LBrace) {
            return match tag {
                Some(t) => Type::Struct(t),
                None => {
                    self.error_at(kw, "expected '{' or a tag after 'struct'");
                    Type::INT
                }
            };
        }
        let key = tag.unwrap_or_else(|| {
            self.anon_structs += 1;
            format!("__anon{}", self.anon_structs)
        });
        if !self.enter() {
            return Type::Struct(key);
        }
        let start = self.pos;
        self.advance(); // `{`
        let mut members: Vec<(String, Type)> = Vec::new();
        while !self.is(Punct::RBrace) && !self.at_eof() && !self.gave_up && !self.too_deep {
            let Some(specs) = self.specifiers() else {
                self.error_here(format!(
                    "expected specifier-qualifier-list {}",
                    before_tok(self.peek())
                ));
                self.skip_to_stmt_end();
                continue;
            };
            out.extend(specs.struct_defs.iter().cloned());
            if specs.storage != Storage::None {
                let span = self.span_from(start);
                self.error_at(span, "storage class in a structure member");
            }
            loop {
                let (name, ty) = self.declarator(specs.ty.clone(), true);
                if self.is(Punct::Colon) {
                    let span = self.peek().span;
                    self.unsupported(span, "bit-fields");
                    self.advance();
                    self.conditional();
                }
                match name {
                    Some((n, nspan)) => {
                        if members.iter().any(|(m, _)| *m == n) {
                            self.error_at(nspan, format!("duplicate member '{n}'"));
                        }
                        members.push((n, ty));
                    }
                    None => {
                        let span = self.peek().span;
                        self.unsupported(span, "anonymous structure members");
                    }
                }
                if self.too_deep || !self.eat(Punct::Comma) {
                    break;
                }
            }
            self.end_stmt("at end of member declaration");
        }
        self.expect(Punct::RBrace, "at end of structure definition");
        self.leave();
        if members.is_empty() {
            self.error_at(kw, "structure has no members");
        }
        out.push(StructDef {
            key: key.clone(),
            span: kw.to(self.span_from(start)),
            members,
        });
        Type::Struct(key)
    }

    /// Skips a balanced `{ ... }` group starting at the cursor.
    fn skip_balanced(&mut self) {
        let mut depth = 0usize;
        loop {
            match self.peek().kind {
                TokKind::Eof => return,
                TokKind::Punct(Punct::LBrace) => depth += 1,
                TokKind::Punct(Punct::RBrace) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.advance();
                        return;
                    }
                }
                _ => {}
            }
            self.advance();
        }
    }

    /// After `enum`: an optional tag and an optional `{ A, B = 3, }` list.
    fn enum_specifier(&mut self, out: &mut Vec<EnumConst>) {
        if self.peek_name().is_some() {
            self.advance();
        }
        if !self.eat(Punct::LBrace) {
            return;
        }
        while !self.is(Punct::RBrace) && !self.at_eof() && !self.gave_up {
            let start = self.pos;
            let Some(name) = self.peek_name().map(str::to_string) else {
                self.error_here("expected identifier in enumerator list");
                while !self.is(Punct::RBrace) && !self.at_eof() {
                    self.advance();
                }
                break;
            };
            self.advance();
            let value = if self.eat(Punct::Assign) {
                Some(self.conditional())
            } else {
                None
            };
            self.declare(&name, None);
            out.push(EnumConst {
                name,
                span: self.span_from(start),
                value,
            });
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RBrace, "after enumerator list");
    }

    /// Whether `(` at offset `k-1` opens a nested declarator (rather than parameters).
    fn nested_declarator_at(&self, k: usize) -> bool {
        let t = self.peek_at(k);
        match &t.kind {
            TokKind::Punct(Punct::Star | Punct::LParen) => true,
            TokKind::Ident(n) => !KEYWORDS.contains(&n.as_str()) && !self.is_typedef_name(t),
            _ => false,
        }
    }

    /// Parses a declarator around `base`; returns the name (absent for abstract
    /// declarators, allowed when `abstract_ok`) and the full type.
    fn declarator(&mut self, base: Type, abstract_ok: bool) -> (Option<(String, Span)>, Type) {
        if !self.enter() {
            return (None, base);
        }
        let r = self.declarator_inner(base, abstract_ok);
        self.leave();
        r
    }

    fn declarator_inner(
        &mut self,
        base: Type,
        abstract_ok: bool,
    ) -> (Option<(String, Span)>, Type) {
        // Types are trees too: bound their depth (pointer levels, dimensions, typedef
        // chains) like any other nesting, so dropping or printing them cannot overflow.
        if type_depth(&base) + self.depth > self.limits.max_depth {
            let span = self.peek().span;
            self.error_at(span, "type too complex (nested too deeply)");
            self.too_deep = true;
            return (None, Type::INT);
        }
        let mut levels = 0;
        let r = self.declarator_levels(base, abstract_ok, &mut levels);
        for _ in 0..levels {
            self.leave();
        }
        r
    }

    /// The body of [`Parser::declarator_inner`]; every pointer level and suffix enters
    /// one nesting level (counted in `levels` for the caller to leave).
    fn declarator_levels(
        &mut self,
        base: Type,
        abstract_ok: bool,
        levels: &mut usize,
    ) -> (Option<(String, Span)>, Type) {
        let mut t = base;
        while self.is(Punct::Star) {
            if !self.enter() {
                return (None, t);
            }
            *levels += 1;
            self.advance();
            t = Type::Pointer(Box::new(t));
            while self.eat_kw("const")
                || self.eat_kw("volatile")
                || self.eat_kw("restrict")
                || self.eat_kw("__restrict")
            {}
        }
        let mut name = None;
        let mut nested: Option<(usize, usize)> = None; // (inner start, close paren)
        if self.is(Punct::LParen) && self.nested_declarator_at(1) {
            let open = self.pos;
            let mut depth = 0usize;
            let mut k = open;
            let close = loop {
                match self.toks.get(k).map(|t| &t.kind) {
                    Some(TokKind::Punct(Punct::LParen)) => depth += 1,
                    Some(TokKind::Punct(Punct::RParen)) => {
                        depth -= 1;
                        if depth == 0 {
                            break Some(k);
                        }
                    }
                    Some(TokKind::Punct(Punct::Semi | Punct::LBrace | Punct::RBrace))
                    | Some(TokKind::Eof)
                    | None => break None,
                    _ => {}
                }
                k += 1;
            };
            match close {
                Some(close) => {
                    nested = Some((open + 1, close));
                    self.pos = close + 1;
                }
                None => {
                    self.error_here("expected ')' in declarator");
                    return (None, t);
                }
            }
        } else if let Some(n) = self.peek_name() {
            name = Some((n.to_string(), self.peek().span));
            self.advance();
        } else if !abstract_ok {
            let msg = format!("expected identifier or '(' {}", before_tok(self.peek()));
            self.error_here(msg);
        }
        let mut suffixes = Vec::new();
        loop {
            if (self.is(Punct::LBracket) || self.is(Punct::LParen)) && !self.enter() {
                break;
            }
            *levels += 1;
            if self.eat(Punct::LBracket) {
                let size = if self.is(Punct::RBracket) {
                    None
                } else {
                    Some(Box::new(self.assignment()))
                };
                self.expect(Punct::RBracket, "in array declarator");
                suffixes.push(Suffix::Array(size));
            } else if self.is(Punct::LParen) {
                self.advance();
                let (params, variadic, unspecified) = self.params();
                suffixes.push(Suffix::Function(params, variadic, unspecified));
            } else {
                *levels -= 1;
                break;
            }
            if self.too_deep {
                break;
            }
        }
        for s in suffixes.into_iter().rev() {
            t = match s {
                Suffix::Array(size) => Type::Array {
                    elem: Box::new(t),
                    size,
                },
                Suffix::Function(params, variadic, unspecified_params) => Type::Function {
                    ret: Box::new(t),
                    params,
                    variadic,
                    unspecified_params,
                },
            };
        }
        if let Some((inner, close)) = nested {
            let after = self.pos;
            self.pos = inner;
            let (n, t2) = self.declarator(t, abstract_ok);
            if self.pos != close && !self.too_deep {
                self.error_here("expected ')' in declarator");
            }
            self.pos = after;
            return (n, t2);
        }
        (name, t)
    }

    /// After `(`: a parameter list up to and including `)`.
    fn params(&mut self) -> (Vec<Param>, bool, bool) {
        let mut params = Vec::new();
        if self.eat(Punct::RParen) {
            return (params, false, true);
        }
        if self.is_kw("void") && self.is_at(1, Punct::RParen) {
            self.advance();
            self.advance();
            return (params, false, false);
        }
        let mut variadic = false;
        loop {
            if self.eat(Punct::Ellipsis) {
                variadic = true;
                break;
            }
            let start = self.pos;
            let specs = match self.specifiers() {
                Some(s) => s,
                None => {
                    if let Some(n) = self.peek_name() {
                        // Old-style identifier list `int f(a, b) {...}`: gcc accepts the
                        // parameters as `int` with a warning.
                        let msg = format!("type of '{n}' defaults to 'int'");
                        let span = self.peek().span;
                        self.warning(span, msg);
                        Specs::implicit_int()
                    } else {
                        self.error_here(format!(
                            "expected parameter declaration {}",
                            before_tok(self.peek())
                        ));
                        break;
                    }
                }
            };
            let (name, ty) = self.declarator(specs.ty.clone(), true);
            params.push(Param {
                id: 0,
                span: self.span_from(start),
                name: name.map(|(n, _)| n),
                ty,
                is_const: specs.is_const,
            });
            if self.too_deep || !self.eat(Punct::Comma) {
                break;
            }
        }
        if !self.too_deep && !self.expect(Punct::RParen, "after parameter list") {
            // Skip to the closing parenthesis of this list if it is on the way.
            let mut depth = 0usize;
            loop {
                match self.peek().kind {
                    TokKind::Punct(Punct::LParen) => depth += 1,
                    TokKind::Punct(Punct::RParen) => {
                        if depth == 0 {
                            self.advance();
                            break;
                        }
                        depth -= 1;
                    }
                    TokKind::Punct(Punct::Semi | Punct::LBrace | Punct::RBrace) | TokKind::Eof => {
                        break
                    }
                    _ => {}
                }
                self.advance();
            }
        }
        (params, variadic, false)
    }

    /// A type name (cast, sizeof): specifiers plus an abstract declarator.
    fn type_name(&mut self) -> Type {
        let specs = self.specifiers();
        let base = specs.map(|s| s.ty).unwrap_or(Type::INT);
        let (name, ty) = self.declarator(base, true);
        if let Some((n, span)) = name {
            self.error_at(span, format!("unexpected name '{n}' in type name"));
        }
        ty
    }

    fn initializer(&mut self) -> Initializer {
        if !self.is(Punct::LBrace) {
            return Initializer::Expr(self.assignment());
        }
        let start = self.pos;
        self.advance();
        if !self.enter() {
            return Initializer::List {
                items: Vec::new(),
                span: self.span_from(start),
            };
        }
        let mut items = Vec::new();
        while !self.is(Punct::RBrace) && !self.at_eof() && !self.too_deep && !self.gave_up {
            if self.is(Punct::LBracket) || self.is(Punct::Dot) {
                let span = self.peek().span;
                self.unsupported(span, "designated initializers");
                while !self.is(Punct::Assign) && !self.is(Punct::RBrace) && !self.at_eof() {
                    self.advance();
                }
                self.eat(Punct::Assign);
            }
            let before = self.pos;
            items.push(self.initializer());
            if !self.eat(Punct::Comma) {
                break;
            }
            if self.pos == before {
                self.advance();
            }
        }
        self.leave();
        if !self.too_deep {
            self.expect(Punct::RBrace, "at end of initializer list");
        }
        Initializer::List {
            items,
            span: self.span_from(start),
        }
    }

    // ----- statements -----

    /// `{ ... }` with its own scope.
    fn block(&mut self) -> Block {
        self.push_scope();
        let b = self.block_after_scope();
        self.pop_scope();
        b
    }

    fn block_after_scope(&mut self) -> Block {
        let start = self.pos;
        self.expect(Punct::LBrace, "");
        let mut stmts = Vec::new();
        while !self.is(Punct::RBrace) && !self.at_eof() && !self.gave_up && !self.too_deep {
            let before = self.pos;
            if let Some(s) = self.stmt() {
                stmts.push(s);
            }
            if self.pos == before {
                self.error_here(format!("expected statement {}", before_tok(self.peek())));
                self.advance();
            }
        }
        if !self.too_deep && !self.gave_up && !self.eat(Punct::RBrace) {
            let span = self.peek().span;
            self.error_at(span, "expected '}' at end of input");
        }
        Block {
            id: 0,
            span: self.span_from(start),
            stmts,
        }
    }

    fn mk_stmt(&self, start: usize, kind: StmtKind) -> Stmt {
        Stmt {
            id: 0,
            span: self.span_from(start),
            kind,
        }
    }

    fn stmt(&mut self) -> Option<Stmt> {
        if !self.enter() {
            return None;
        }
        let s = self.stmt_inner();
        self.leave();
        self.recover_from_depth();
        s
    }

    /// Parses `( expr )` for if/while/switch.
    fn paren_cond(&mut self, what: &str) -> Expr {
        if !self.expect(Punct::LParen, &format!("after '{what}'")) {
            return placeholder(self.after_prev());
        }
        let e = self.expr();
        self.expect(Punct::RParen, "");
        e
    }

    /// After the keyword `what` at the cursor: `( expr )` and the statement it governs
    /// (`if`, `while`, `switch`).
    fn keyword_cond_stmt(&mut self, what: &str) -> (Expr, Box<Stmt>) {
        self.advance();
        let cond = self.paren_cond(what);
        (cond, self.sub_stmt())
    }

    /// A statement body (substatement), always present (placeholder `;` on errors).
    fn sub_stmt(&mut self) -> Box<Stmt> {
        let start = self.pos;
        match self.stmt() {
            Some(s) => Box::new(s),
            None => Box::new(self.mk_stmt(start, StmtKind::Empty)),
        }
    }

    fn stmt_inner(&mut self) -> Option<Stmt> {
        let start = self.pos;
        let t = self.peek().clone();
        if t.is_punct(Punct::LBrace) {
            let b = self.block();
            return Some(self.mk_stmt(start, StmtKind::Block(b)));
        }
        if t.is_punct(Punct::Semi) {
            self.advance();
            return Some(self.mk_stmt(start, StmtKind::Empty));
        }
        let word = t.ident().unwrap_or("");
        let kind = match word {
            "if" => {
                let (cond, then) = self.keyword_cond_stmt("if");
                let els = if self.eat_kw("else") {
                    Some(self.sub_stmt())
                } else {
                    None
                };
                StmtKind::If { cond, then, els }
            }
            "while" => {
                let (cond, body) = self.keyword_cond_stmt("while");
                StmtKind::While { cond, body }
            }
            "do" => {
                self.advance();
                let body = self.sub_stmt();
                if !self.eat_kw("while") {
                    let span = self.peek().span;
                    self.error_at(span, "expected 'while' in do/while loop");
                }
                let cond = self.paren_cond("while");
                self.end_stmt("after do/while statement");
                StmtKind::DoWhile { body, cond }
            }
            "for" => {
                self.advance();
                self.push_scope();
                let kind = self.for_rest();
                self.pop_scope();
                kind
            }
            "switch" => {
                let (cond, body) = self.keyword_cond_stmt("switch");
                StmtKind::Switch { cond, body }
            }
            "case" => {
                self.advance();
                let value = self.conditional();
                if self.is(Punct::Ellipsis) {
                    let span = self.peek().span;
                    self.unsupported(span, "case ranges");
                    self.advance();
                    self.conditional();
                }
                self.expect(Punct::Colon, "after 'case' value");
                let body = self.labelled_body();
                StmtKind::Case { value, body }
            }
            "default" => {
                self.advance();
                self.expect(Punct::Colon, "after 'default'");
                let body = self.labelled_body();
                StmtKind::Default { body }
            }
            "break" | "continue" => {
                self.advance();
                self.end_stmt(&format!("after '{word}'"));
                if word == "break" {
                    StmtKind::Break
                } else {
                    StmtKind::Continue
                }
            }
            "return" => {
                self.advance();
                let value = if self.is(Punct::Semi) {
                    None
                } else {
                    Some(self.expr())
                };
                self.end_stmt("after return statement");
                StmtKind::Return(value)
            }
            "goto" => {
                self.advance();
                let label = match self.peek_name() {
                    Some(n) => {
                        let n = n.to_string();
                        self.advance();
                        n
                    }
                    None => {
                        self.error_here("expected identifier after 'goto'");
                        String::new()
                    }
                };
                self.end_stmt("after goto statement");
                StmtKind::Goto(label)
            }
            "else" => {
                self.error_here("'else' without a previous 'if'");
                self.advance();
                return None;
            }
            _ if self.peek_name().is_some()
                && self.is_at(1, Punct::Colon)
                && !self.is_typedef_name(&t) =>
            {
                let name = word.to_string();
                self.advance();
                self.advance();
                let body = self.labelled_body();
                StmtKind::Label { name, body }
            }
            _ if self.starts_specifiers(0) => {
                let d = self.local_declaration()?;
                StmtKind::Decl(d)
            }
            _ => {
                let e = self.expr();
                if !self.too_deep {
                    self.end_stmt("after expression");
                }
                StmtKind::Expr(e)
            }
        };
        Some(self.mk_stmt(start, kind))
    }

    /// The statement after `label:`; a label right before `}` labels an empty statement.
    fn labelled_body(&mut self) -> Box<Stmt> {
        if self.is(Punct::RBrace) {
            let span = self.after_prev();
            return Box::new(Stmt {
                id: 0,
                span,
                kind: StmtKind::Empty,
            });
        }
        self.sub_stmt()
    }

    /// A declaration inside a function (or a `for` initialiser), including the `;`.
    fn local_declaration(&mut self) -> Option<Declaration> {
        let start = self.pos;
        let specs = self.specifiers()?;
        if self.eat(Punct::Semi) {
            return Some(self.finish_empty_decl(start, specs));
        }
        let dstart = self.pos;
        let (name, ty) = self.declarator(specs.ty.clone(), false);
        if matches!(ty, Type::Function { .. }) && self.is(Punct::LBrace) {
            let span = self.peek().span;
            // GNU C nested functions are rare; a missing `}` is the usual cause.
            self.error_at(
                span,
                "function definition inside a function (missing '}' before it?)",
            );
            self.skip_balanced();
            return None;
        }
        Some(self.declaration_rest(start, specs, dstart, name, ty))
    }

    /// After `for`: `( init; cond; step ) body`.
    fn for_rest(&mut self) -> StmtKind {
        let ok = self.expect(Punct::LParen, "after 'for'");
        let istart = self.pos;
        let init = if !ok || self.eat(Punct::Semi) {
            None
        } else if self.starts_specifiers(0) {
            self.local_declaration()
                .map(|d| Box::new(self.mk_stmt(istart, StmtKind::Decl(d))))
        } else {
            let e = self.expr();
            if !self.too_deep {
                self.expect(Punct::Semi, "in 'for' statement");
            }
            Some(Box::new(self.mk_stmt(istart, StmtKind::Expr(e))))
        };
        let cond = if self.is(Punct::Semi) {
            None
        } else {
            Some(self.expr())
        };
        if !self.too_deep {
            self.expect(Punct::Semi, "in 'for' statement");
        }
        let step = if self.is(Punct::RParen) {
            None
        } else {
            Some(self.expr())
        };
        // A missing `)` skips the rest of the header.
        self.close_paren("", Punct::LBrace);
        let body = self.sub_stmt();
        StmtKind::For {
            init,
            cond,
            step,
            body,
        }
    }

    // ----- expressions -----

    fn mk(&self, start: usize, kind: ExprKind) -> Expr {
        Expr {
            id: 0,
            span: self.span_from(start),
            kind,
        }
    }

    /// `expr := assignment (',' assignment)*`
    fn expr(&mut self) -> Expr {
        let start = self.pos;
        let mut e = self.assignment();
        let mut levels = 0;
        while self.is(Punct::Comma) && !self.too_deep {
            if !self.enter() {
                break;
            }
            levels += 1;
            self.advance();
            let rhs = self.assignment();
            e = self.mk(
                start,
                ExprKind::Comma {
                    lhs: Box::new(e),
                    rhs: Box::new(rhs),
                },
            );
        }
        for _ in 0..levels {
            self.leave();
        }
        e
    }

    fn assign_op(&self) -> Option<Option<BinaryOp>> {
        let TokKind::Punct(p) = self.peek().kind else {
            return None;
        };
        Some(match p {
            Punct::Assign => None,
            Punct::StarAssign => Some(BinaryOp::Mul),
            Punct::SlashAssign => Some(BinaryOp::Div),
            Punct::PercentAssign => Some(BinaryOp::Rem),
            Punct::PlusAssign => Some(BinaryOp::Add),
            Punct::MinusAssign => Some(BinaryOp::Sub),
            Punct::ShlAssign => Some(BinaryOp::Shl),
            Punct::ShrAssign => Some(BinaryOp::Shr),
            Punct::AmpAssign => Some(BinaryOp::BitAnd),
            Punct::CaretAssign => Some(BinaryOp::BitXor),
            Punct::PipeAssign => Some(BinaryOp::BitOr),
            _ => return None,
        })
    }

    /// `assignment := conditional (assign-op assignment)?`
    fn assignment(&mut self) -> Expr {
        let start = self.pos;
        let lhs = self.conditional();
        let Some(op) = self.assign_op() else {
            return lhs;
        };
        if self.too_deep || !self.enter() {
            return lhs;
        }
        self.advance();
        let rhs = self.assignment();
        self.leave();
        self.mk(
            start,
            ExprKind::Assign {
                op,
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            },
        )
    }

    /// `conditional := binary ('?' expr ':' conditional)?`
    fn conditional(&mut self) -> Expr {
        let start = self.pos;
        let cond = self.binary(4);
        if !self.is(Punct::Question) || self.too_deep || !self.enter() {
            return cond;
        }
        self.advance();
        let then = if self.is(Punct::Colon) {
            let span = self.peek().span;
            self.unsupported(span, "the GNU '?:' operator with an omitted middle operand");
            placeholder(span)
        } else {
            self.expr()
        };
        self.expect(Punct::Colon, "in conditional expression");
        let els = self.conditional();
        self.leave();
        self.mk(
            start,
            ExprKind::Conditional {
                cond: Box::new(cond),
                then: Box::new(then),
                els: Box::new(els),
            },
        )
    }

    fn binary_op(&self) -> Option<BinaryOp> {
        let TokKind::Punct(p) = self.peek().kind else {
            return None;
        };
        Some(match p {
            Punct::Star => BinaryOp::Mul,
            Punct::Slash => BinaryOp::Div,
            Punct::Percent => BinaryOp::Rem,
            Punct::Plus => BinaryOp::Add,
            Punct::Minus => BinaryOp::Sub,
            Punct::Shl => BinaryOp::Shl,
            Punct::Shr => BinaryOp::Shr,
            Punct::Lt => BinaryOp::Lt,
            Punct::Gt => BinaryOp::Gt,
            Punct::Le => BinaryOp::Le,
            Punct::Ge => BinaryOp::Ge,
            Punct::EqEq => BinaryOp::Eq,
            Punct::Ne => BinaryOp::Ne,
            Punct::Amp => BinaryOp::BitAnd,
            Punct::Caret => BinaryOp::BitXor,
            Punct::Pipe => BinaryOp::BitOr,
            Punct::AmpAmp => BinaryOp::LogAnd,
            Punct::PipePipe => BinaryOp::LogOr,
            _ => return None,
        })
    }

    /// Precedence climbing over binary operators binding at least `min`.
    fn binary(&mut self, min: u8) -> Expr {
        let start = self.pos;
        let mut lhs = self.cast_expr();
        let mut levels = 0;
        while let Some(op) = self.binary_op() {
            let prec = op.precedence();
            if prec < min || self.too_deep || !self.enter() {
                break;
            }
            levels += 1;
            self.advance();
            let rhs = self.binary(prec + 1);
            lhs = self.mk(
                start,
                ExprKind::Binary {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
            );
        }
        for _ in 0..levels {
            self.leave();
        }
        lhs
    }

    /// `cast := '(' type-name ')' cast | unary`
    fn cast_expr(&mut self) -> Expr {
        if !self.enter() {
            return placeholder(self.peek().span);
        }
        let e = if self.is(Punct::LParen) && self.starts_type_name(1) {
            let start = self.pos;
            self.advance();
            let ty = self.type_name();
            self.expect(Punct::RParen, "after type name");
            if self.is(Punct::LBrace) {
                let span = self.peek().span;
                self.unsupported(span, "compound literals");
                self.skip_balanced();
                placeholder(span)
            } else {
                let operand = self.cast_expr();
                self.mk(
                    start,
                    ExprKind::Cast {
                        ty,
                        expr: Box::new(operand),
                    },
                )
            }
        } else {
            self.unary()
        };
        self.leave();
        e
    }

    fn unary(&mut self) -> Expr {
        let start = self.pos;
        let TokKind::Punct(p) = self.peek().kind else {
            if self.is_kw("sizeof") {
                self.advance();
                if self.is(Punct::LParen) && self.starts_type_name(1) {
                    self.advance();
                    let ty = self.type_name();
                    self.expect(Punct::RParen, "after type name");
                    return self.mk(start, ExprKind::SizeofType(ty));
                }
                let operand = self.unary_nested();
                return self.mk(start, ExprKind::SizeofExpr(Box::new(operand)));
            }
            return self.postfix();
        };
        let op = match p {
            Punct::PlusPlus => UnaryOp::PreInc,
            Punct::MinusMinus => UnaryOp::PreDec,
            Punct::Amp => UnaryOp::AddrOf,
            Punct::Star => UnaryOp::Deref,
            Punct::Plus => UnaryOp::Plus,
            Punct::Minus => UnaryOp::Neg,
            Punct::Bang => UnaryOp::Not,
            Punct::Tilde => UnaryOp::BitNot,
            _ => return self.postfix(),
        };
        self.advance();
        let operand = if matches!(op, UnaryOp::PreInc | UnaryOp::PreDec) {
            self.unary_nested()
        } else {
            self.cast_expr()
        };
        self.mk(
            start,
            ExprKind::Unary {
                op,
                operand: Box::new(operand),
            },
        )
    }

    /// `unary` with a depth level (for `++`, `--`, `sizeof` chains).
    fn unary_nested(&mut self) -> Expr {
        if !self.enter() {
            return placeholder(self.peek().span);
        }
        let e = self.unary();
        self.leave();
        e
    }

    /// The postfix operator punctuator at the cursor, if any.
    fn postfix_op(&self) -> Option<Punct> {
        match self.peek().kind {
            TokKind::Punct(
                p @ (Punct::LBracket
                | Punct::LParen
                | Punct::PlusPlus
                | Punct::MinusMinus
                | Punct::Dot
                | Punct::Arrow),
            ) => Some(p),
            _ => None,
        }
    }

    fn postfix(&mut self) -> Expr {
        let start = self.pos;
        let mut e = self.primary();
        let mut levels = 0;
        while let Some(p) = self.postfix_op() {
            if self.too_deep || !self.enter() {
                break;
            }
            levels += 1;
            let op_span = self.peek().span;
            self.advance();
            e = match p {
                Punct::LBracket => {
                    let index = self.expr();
                    self.expect(Punct::RBracket, "after array index");
                    self.mk(
                        start,
                        ExprKind::Index {
                            base: Box::new(e),
                            index: Box::new(index),
                        },
                    )
                }
                Punct::LParen => {
                    let mut args = Vec::new();
                    if !self.is(Punct::RParen) {
                        loop {
                            args.push(self.assignment());
                            if self.too_deep || !self.eat(Punct::Comma) {
                                break;
                            }
                        }
                    }
                    self.close_paren("after function arguments", Punct::RBrace);
                    match e.kind {
                        ExprKind::Ident(name) => self.mk(
                            start,
                            ExprKind::Call {
                                callee: name,
                                callee_span: e.span,
                                args,
                            },
                        ),
                        _ => {
                            self.unsupported(e.span, "calls through function pointers");
                            placeholder(self.span_from(start))
                        }
                    }
                }
                Punct::PlusPlus | Punct::MinusMinus => {
                    let op = if p == Punct::PlusPlus {
                        UnaryOp::PostInc
                    } else {
                        UnaryOp::PostDec
                    };
                    self.mk(
                        start,
                        ExprKind::Unary {
                            op,
                            operand: Box::new(e),
                        },
                    )
                }
                _ => match self.peek_name().map(str::to_string) {
                    Some(field) => {
                        self.advance();
                        self.mk(
                            start,
                            ExprKind::Member {
                                base: Box::new(e),
                                field,
                                arrow: p == Punct::Arrow,
                            },
                        )
                    }
                    None => {
                        self.error_at(op_span, "expected identifier after member operator");
                        e
                    }
                },
            };
        }
        for _ in 0..levels {
            self.leave();
        }
        e
    }

    fn primary(&mut self) -> Expr {
        let start = self.pos;
        let t = self.peek().clone();
        match &t.kind {
            TokKind::Ident(name) if !KEYWORDS.contains(&name.as_str()) => {
                self.advance();
                self.mk(start, ExprKind::Ident(name.clone()))
            }
            TokKind::Number(text) => {
                self.advance();
                let kind = match number_literal(text) {
                    Ok((kind, warning)) => {
                        if let Some(w) = warning {
                            self.warning(t.span, w);
                        }
                        kind
                    }
                    Err(msg) => {
                        self.error_at(t.span, msg);
                        ExprKind::IntLit {
                            value: 0,
                            ty: ScalarType::Int,
                        }
                    }
                };
                self.mk(start, kind)
            }
            TokKind::Char(text) => {
                self.advance();
                let (v, msgs) = char_literal(text);
                for (is_err, m) in msgs {
                    if is_err {
                        self.error_at(t.span, m);
                    } else {
                        self.warning(t.span, m);
                    }
                }
                self.mk(start, ExprKind::CharLit(v))
            }
            TokKind::Str(_) => {
                let mut bytes = Vec::new();
                while let TokKind::Str(text) = &self.peek().kind {
                    let span = self.peek().span;
                    let (b, msgs) = string_literal(text);
                    bytes.extend(b);
                    for (is_err, m) in msgs {
                        if is_err {
                            self.error_at(span, m);
                        } else {
                            self.warning(span, m);
                        }
                    }
                    self.advance();
                }
                self.mk(start, ExprKind::StringLit(bytes))
            }
            TokKind::Punct(Punct::LParen) => {
                self.advance();
                if self.is(Punct::LBrace) {
                    let span = self.peek().span;
                    self.unsupported(span, "statement expressions");
                    self.skip_balanced();
                    self.eat(Punct::RParen);
                    return placeholder(self.span_from(start));
                }
                let mut e = self.expr();
                if !self.too_deep {
                    self.expect(Punct::RParen, "");
                }
                // The parenthesised expression's span includes the parentheses, so an
                // edit of `(a + b)` replaces the parentheses too.
                e.span = self.span_from(start);
                e
            }
            _ => {
                let msg = format!("expected expression {}", before_tok(&t));
                self.error_at(t.span, msg);
                // Consume the token unless it can end or continue an enclosing construct.
                let keep = matches!(
                    t.kind,
                    TokKind::Eof
                        | TokKind::Punct(
                            Punct::Semi
                                | Punct::RParen
                                | Punct::RBrace
                                | Punct::RBracket
                                | Punct::Comma
                                | Punct::Colon
                                | Punct::LBrace
                        )
                ) || t.ident().is_some();
                if !keep {
                    self.advance();
                }
                placeholder(t.span)
            }
        }
    }
}

// ----- literals -----

/// Converts a preprocessing number to an integer or floating literal (C rules, LP64);
/// returns an optional warning, or an error message.
pub fn number_literal(text: &str) -> Result<(ExprKind, Option<String>), String> {
    let lower = text.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    let is_float = if is_hex {
        lower.contains('.') || lower.contains('p')
    } else {
        lower.contains('.') || lower.contains('e')
    };
    if is_float {
        if is_hex {
            return Err("unsupported: hexadecimal floating constants".to_string());
        }
        let (body, ty) = match lower.as_bytes().last() {
            Some(b'f') => (&text[..text.len() - 1], ScalarType::Float),
            Some(b'l') => (&text[..text.len() - 1], ScalarType::LongDouble),
            _ => (text, ScalarType::Double),
        };
        return match body.parse::<f64>() {
            Ok(v)
                if body.bytes().all(|b| {
                    b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-')
                }) =>
            {
                let value = if ty == ScalarType::Float {
                    v as f32 as f64
                } else {
                    v
                };
                let warning = value
                    .is_infinite()
                    .then(|| "floating constant exceeds range of 'double'".to_string());
                Ok((ExprKind::FloatLit { value, ty }, warning))
            }
            _ => Err(format!("invalid floating constant '{text}'")),
        };
    }
    let (radix, digits_start) = if is_hex {
        (16, 2)
    } else if lower.starts_with("0b") {
        (2, 2)
    } else if lower.starts_with('0') && lower.len() > 1 {
        (8, 1)
    } else {
        (10, 0)
    };
    let bytes = lower.as_bytes();
    let mut end = digits_start;
    while end < bytes.len() && (bytes[end] as char).is_digit(if radix == 8 { 10 } else { radix }) {
        end += 1;
    }
    let digits = &lower[digits_start..end];
    let suffix = &lower[end..];
    if digits.is_empty() && radix != 8 {
        return Err(format!("invalid integer constant '{text}'"));
    }
    let mut value: u64 = 0;
    for ch in digits.chars() {
        let d = ch.to_digit(10.max(radix)).unwrap_or(0);
        if d >= radix {
            return Err(format!("invalid digit \"{ch}\" in octal constant"));
        }
        value = value
            .checked_mul(radix as u64)
            .and_then(|v| v.checked_add(d as u64))
            .ok_or_else(|| "integer constant is too large for its type".to_string())?;
    }
    match ScalarType::integer_constant(value, suffix, radix == 10) {
        Some((ty, false)) => Ok((ExprKind::IntLit { value, ty }, None)),
        Some((ty, true)) => Ok((
            ExprKind::IntLit { value, ty },
            Some("integer constant is so large that it is unsigned".to_string()),
        )),
        None => Err(format!(
            "invalid suffix \"{}\" on integer constant",
            &text[end..]
        )),
    }
}

/// Decodes the escapes of a literal body into bytes; messages are (is_error, text).
fn decode_escapes(body: &str, msgs: &mut Vec<(bool, String)>) -> Vec<u32> {
    let mut out = Vec::new();
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i] as u32);
            i += 1;
            continue;
        }
        i += 1;
        let Some(&e) = b.get(i) else { break };
        i += 1;
        let v = match e {
            b'n' => 10,
            b't' => 9,
            b'r' => 13,
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'e' | b'E' => 27,
            b'\\' | b'\'' | b'"' | b'?' => e as u32,
            b'0'..=b'7' => {
                let mut v = (e - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                if v > 255 {
                    msgs.push((true, "octal escape sequence out of range".to_string()));
                }
                v & 0xff
            }
            b'x' => {
                let mut v: u32 = 0;
                let s = i;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    v = v
                        .saturating_mul(16)
                        .saturating_add((b[i] as char).to_digit(16).unwrap_or(0));
                    i += 1;
                }
                if i == s {
                    msgs.push((true, "\\x used with no following hex digits".to_string()));
                }
                if v > 255 {
                    msgs.push((true, "hex escape sequence out of range".to_string()));
                }
                v & 0xff
            }
            _ => {
                let ch = body[i - 1..].chars().next().unwrap_or('?');
                msgs.push((false, format!("unknown escape sequence '\\{ch}'")));
                // Keep the character's UTF-8 bytes.
                for k in 0..ch.len_utf8() {
                    if k > 0 {
                        out.push(b[i - 1 + k] as u32);
                    } else {
                        out.push(e as u32);
                    }
                }
                i += ch.len_utf8() - 1;
                continue;
            }
        };
        out.push(v);
    }
    out
}

/// Strips a literal prefix (`L`, `u`, `U`, `u8`) and the quotes.
fn literal_body(text: &str, quote: char) -> (&str, &str) {
    let q = text.find(quote).unwrap_or(0);
    let prefix = &text[..q];
    let body = text.get(q + 1..text.len().saturating_sub(1)).unwrap_or("");
    (prefix, body)
}

/// The value of a character literal as gcc computes it (type `int`), with messages
/// `(is_error, text)`.
pub fn char_literal(text: &str) -> (i64, Vec<(bool, String)>) {
    let mut msgs = Vec::new();
    let (prefix, body) = literal_body(text, '\'');
    if !prefix.is_empty() {
        msgs.push((true, "unsupported: wide character literals".to_string()));
    }
    let bytes = decode_escapes(body, &mut msgs);
    let v = match bytes.len() {
        0 => {
            msgs.push((true, "empty character constant".to_string()));
            0
        }
        1 => bytes[0] as u8 as i8 as i64,
        n => {
            if n > 4 {
                msgs.push((
                    false,
                    "character constant too long for its type".to_string(),
                ));
            } else {
                msgs.push((false, "multi-character character constant".to_string()));
            }
            let mut v: u32 = 0;
            for b in bytes {
                v = (v << 8) | (b & 0xff);
            }
            v as i32 as i64
        }
    };
    (v, msgs)
}

/// The bytes of a string literal (without the terminating NUL), with messages.
pub fn string_literal(text: &str) -> (Vec<u8>, Vec<(bool, String)>) {
    let mut msgs = Vec::new();
    let (prefix, body) = literal_body(text, '"');
    if !prefix.is_empty() && prefix != "u8" {
        msgs.push((true, "unsupported: wide string literals".to_string()));
    }
    let bytes = decode_escapes(body, &mut msgs)
        .into_iter()
        .map(|v| v as u8)
        .collect();
    (bytes, msgs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::print::type_to_c;

    fn paren(src: &str) -> String {
        let (e, d) = parse_expr(src);
        assert!(d.is_empty(), "{src}: {d:?}");
        e.map(|e| e.to_full_parens()).unwrap_or_default()
    }

    #[test]
    fn precedence_and_associativity() {
        let cases = [
            ("a + b * c", "a + (b * c)"),
            ("a - b - c", "(a - b) - c"),
            ("a = b = c", "a = (b = c)"),
            ("a += b -= c", "a += (b -= c)"),
            ("a ? b : c ? d : e", "a ? b : (c ? d : e)"),
            (
                "a || b && c | d ^ e & f == g < h << i + j * k",
                "a || (b && (c | (d ^ (e & (f == (g < (h << (i + (j * k)))))))))",
            ),
            ("-a++", "-(a++)"),
            ("!a == b", "(!a) == b"),
            ("*p++", "*(p++)"),
            ("&a[i]", "&(a[i])"),
            ("(long long)x * y", "((long long)x) * y"),
            ("sizeof(int) + sizeof x", "(sizeof(int)) + (sizeof x)"),
            ("a, b = c, d", "(a, (b = c)), d"),
            ("x = a > b ? a : b", "x = ((a > b) ? a : b)"),
            ("a ? b, c : d", "a ? (b, c) : d"),
            ("f(a, b)[2]", "(f(a, b))[2]"),
            ("- -x", "-(-x)"),
            ("~x & 1", "(~x) & 1"),
            ("(double)(a) / b", "((double)a) / b"),
            ("++*p", "++(*p)"),
            ("a < b == c > d", "(a < b) == (c > d)"),
        ];
        for (src, want) in cases {
            assert_eq!(paren(src), want, "{src}");
        }
    }

    #[test]
    fn minimal_parentheses_round_trip() {
        for src in [
            "a + b * c",
            "(a + b) * c",
            "a - (b - c)",
            "x = (a, b)",
            "-(-x)",
            "(a ? b : c) ? d : e",
            "(int)(a + b)",
            "*&x",
            "a[i][j] += 2",
            "f(g(1), (a, b))",
            "!(a && b) || c",
            "(long long)x * x % 1000000007LL",
        ] {
            let (e, d) = parse_expr(src);
            assert!(d.is_empty());
            let printed = e.unwrap().to_string();
            let (e2, _) = parse_expr(&printed);
            let (e1, _) = parse_expr(src);
            assert_eq!(
                e1.unwrap().to_full_parens(),
                e2.unwrap().to_full_parens(),
                "{src} -> {printed}"
            );
        }
        let (e, _) = parse_expr("((a + b)) * (c)");
        assert_eq!(e.unwrap().to_string(), "(a + b) * c");
        let (e, _) = parse_expr("- - x");
        assert_eq!(e.unwrap().to_string(), "- -x");
    }

    fn lit(text: &str) -> ExprKind {
        number_literal(text).unwrap().0
    }

    #[test]
    fn integer_literal_types() {
        use ScalarType::*;
        let int = |value, ty| ExprKind::IntLit { value, ty };
        assert_eq!(lit("42"), int(42, Int));
        assert_eq!(lit("2147483647"), int(2147483647, Int));
        assert_eq!(lit("2147483648"), int(2147483648, Long));
        assert_eq!(lit("0x7fffffff"), int(0x7fffffff, Int));
        assert_eq!(lit("0xffffffff"), int(0xffffffff, UInt));
        assert_eq!(lit("0x100000000"), int(0x100000000, Long));
        assert_eq!(lit("0xffffffffffffffff"), int(u64::MAX, ULong));
        assert_eq!(lit("017"), int(15, Int));
        assert_eq!(lit("0"), int(0, Int));
        assert_eq!(lit("10u"), int(10, UInt));
        assert_eq!(lit("10L"), int(10, Long));
        assert_eq!(lit("10UL"), int(10, ULong));
        assert_eq!(lit("10LL"), int(10, LongLong));
        assert_eq!(lit("10ull"), int(10, ULongLong));
        assert_eq!(lit("10LLU"), int(10, ULongLong));
        assert_eq!(lit("10i64"), int(10, LongLong));
        assert_eq!(
            lit("1000000000000000000"),
            int(1_000_000_000_000_000_000, Long)
        );
        assert!(number_literal("18446744073709551616").is_err());
        assert!(number_literal("09").is_err());
        assert!(number_literal("12abc").is_err());
        let (k, w) = number_literal("9223372036854775808").unwrap();
        assert_eq!(k, int(9223372036854775808, ULong));
        assert!(w.is_some());
    }

    #[test]
    fn floating_literal_types() {
        use ScalarType::*;
        assert_eq!(
            lit("1e9"),
            ExprKind::FloatLit {
                value: 1e9,
                ty: Double
            }
        );
        assert_eq!(
            lit(".5"),
            ExprKind::FloatLit {
                value: 0.5,
                ty: Double
            }
        );
        assert_eq!(
            lit("2."),
            ExprKind::FloatLit {
                value: 2.0,
                ty: Double
            }
        );
        assert_eq!(
            lit("1.5f"),
            ExprKind::FloatLit {
                value: 1.5,
                ty: Float
            }
        );
        assert_eq!(
            lit("0.1f"),
            ExprKind::FloatLit {
                value: 0.1f32 as f64,
                ty: Float
            }
        );
        assert_eq!(
            lit("2.5L"),
            ExprKind::FloatLit {
                value: 2.5,
                ty: LongDouble
            }
        );
        assert_eq!(
            lit("1E-3"),
            ExprKind::FloatLit {
                value: 1e-3,
                ty: Double
            }
        );
        assert!(number_literal("1e").is_err());
        assert!(number_literal("1.2.3").is_err());
    }

    #[test]
    fn char_and_string_literals() {
        assert_eq!(char_literal("'a'").0, 97);
        assert_eq!(char_literal("'\\n'").0, 10);
        assert_eq!(char_literal("'\\0'").0, 0);
        assert_eq!(char_literal("'\\\\'").0, 92);
        assert_eq!(char_literal("'\\''").0, 39);
        assert_eq!(char_literal("'\\101'").0, 65);
        assert_eq!(char_literal("'\\x41'").0, 65);
        assert_eq!(char_literal("'\\377'").0, -1);
        assert_eq!(char_literal("'ab'").0, 0x6162);
        assert!(char_literal("''").1.iter().any(|(e, _)| *e));
        assert_eq!(string_literal("\"a\\tb\\\"\\0\"").0, b"a\tb\"\0");
        assert_eq!(string_literal("\"é\"").0, "é".as_bytes());
        let (e, d) = parse_expr("\"ab\" \"cd\"");
        assert!(d.is_empty());
        assert_eq!(e.unwrap().kind, ExprKind::StringLit(b"abcd".to_vec()));
    }

    /// Parses a program that must have no diagnostics.
    fn program(src: &str) -> TranslationUnit {
        let (tu, d) = parse(src);
        assert!(d.is_empty(), "{src}: {d:?}");
        tu
    }

    fn global_types(src: &str) -> Vec<String> {
        program(src)
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Decl(d) => Some(d),
                Item::Function(_) => None,
            })
            .flat_map(|d| d.declarators.iter().map(|dl| type_to_c(&dl.ty, &dl.name)))
            .collect()
    }

    #[test]
    fn declarators_and_typedefs() {
        assert_eq!(
            global_types("int a, b[10], *c = 0, **d, *e[3], (*f)[4], g[2][3];"),
            [
                "int a",
                "int b[10]",
                "int *c",
                "int **d",
                "int *e[3]",
                "int (*f)[4]",
                "int g[2][3]"
            ]
        );
        assert_eq!(
            global_types("typedef long long ll; typedef unsigned long long ull; ll x; ull y[2]; typedef int row[4]; row m[3];"),
            ["long long ll", "unsigned long long ull", "long long x", "unsigned long long y[2]", "int row[4]", "int m[3][4]"]
        );
        assert_eq!(
            global_types("long int a; int long b; unsigned c; signed char d; long double e; short unsigned int f; unsigned __int64 g; __int64 h; _Bool i; const static int j = 1; int64_t k;"),
            [
                "long a", "long b", "unsigned int c", "signed char d", "long double e", "unsigned short f",
                "unsigned long long g", "long long h", "_Bool i", "int j", "long k"
            ]
        );
        assert_eq!(
            global_types("int f(int a[], int m[][10], char *argv[]); double g(void); int h(); int v(const char *fmt, ...);"),
            [
                "int f(int a[], int m[][10], char *argv[])",
                "double g(void)",
                "int h()",
                "int v(const char *fmt, ...)"
            ]
        );
        let a = program("int a[2][3];");
        let Item::Decl(d) = &a.items[0] else { panic!() };
        assert_eq!(d.declarators[0].ty.array_dims().len(), 2);
        assert_eq!(d.declarators[0].ty.base(), ScalarType::Int);
        let p = program("char **argv[];");
        let Item::Decl(d) = &p.items[0] else { panic!() };
        assert_eq!(d.declarators[0].ty.pointer_levels(), 2);
        // A local variable may shadow a typedef name.
        program("typedef int T; int main(void) { T T = 1; int x = T + 1; return x; }");
        // Enumeration constants.
        let e = program("enum { N = 1010, M };\nint a[N];");
        let Item::Decl(d) = &e.items[0] else { panic!() };
        assert_eq!(d.enum_consts.len(), 2);
        assert_eq!(d.enum_consts[1].name, "M");
    }

    #[test]
    fn functions_and_statements() {
        let tu = program(
            "#include <stdio.h>\nmain() { int i, s = 0; for (int k = 0; k < 3; k++) s += k; \
             do { s--; } while (s > 0); switch (s) { case 1: case 2: s = 3; break; default: ; } \
             if (s) goto out; else s = 1; out: return s; }",
        );
        let Item::Function(f) = &tu.items[0] else {
            panic!()
        };
        assert_eq!(f.name, "main");
        assert!(f.unspecified_params);
        assert_eq!(f.ret, Type::INT);
        let kinds: Vec<&str> = f
            .body
            .stmts
            .iter()
            .map(|s| match &s.kind {
                StmtKind::Decl(_) => "decl",
                StmtKind::For { .. } => "for",
                StmtKind::DoWhile { .. } => "do",
                StmtKind::Switch { .. } => "switch",
                StmtKind::If { .. } => "if",
                StmtKind::Label { .. } => "label",
                _ => "other",
            })
            .collect();
        assert_eq!(kinds, ["decl", "for", "do", "switch", "if", "label"]);
        let StmtKind::Switch { body, .. } = &f.body.stmts[3].kind else {
            panic!()
        };
        let StmtKind::Block(b) = &body.kind else {
            panic!()
        };
        // `case 1: case 2: s = 3;` nests; `break;` is a sibling.
        assert!(
            matches!(&b.stmts[0].kind, StmtKind::Case { body, .. } if matches!(body.kind, StmtKind::Case { .. }))
        );
        assert!(matches!(b.stmts[1].kind, StmtKind::Break));
        assert!(matches!(b.stmts[2].kind, StmtKind::Default { .. }));
    }

    #[test]
    fn spans_point_at_the_source() {
        let src = "int main(void) {\n    int x = 3;\n    x = x * (2 + 1);\n    return x;\n}\n";
        let tu = program(src);
        let Item::Function(f) = &tu.items[0] else {
            panic!()
        };
        let texts: Vec<&str> = f.body.stmts.iter().map(|s| &src[s.span.range()]).collect();
        assert_eq!(texts, ["int x = 3;", "x = x * (2 + 1);", "return x;"]);
        let s = &f.body.stmts[1];
        assert_eq!((s.span.line, s.span.col), (3, 5));
        let StmtKind::Expr(e) = &s.kind else { panic!() };
        let ExprKind::Assign { rhs, .. } = &e.kind else {
            panic!()
        };
        assert_eq!(&src[rhs.span.range()], "x * (2 + 1)");
        let ExprKind::Binary { rhs: paren, .. } = &rhs.kind else {
            panic!()
        };
        assert_eq!(&src[paren.span.range()], "(2 + 1)");
        assert_eq!(&src[f.body.span.range()], &src[15..src.len() - 1]);
        assert_eq!(&src[f.name_span.range()], "main");
    }

    #[test]
    fn ids_are_dense_and_preorder() {
        let tu = program("int g = 1;\nint main(void) { int a[3] = {1, 2, 3}; if (a[0]) return g + 1; return 0; }");
        assert!(tu.node_count > 10);
        let Item::Decl(g) = &tu.items[0] else {
            panic!()
        };
        assert_eq!(g.id, 0);
        assert_eq!(g.declarators[0].id, 1);
        let Item::Function(f) = &tu.items[1] else {
            panic!()
        };
        assert!(f.id > g.declarators[0].id);
        assert!(f.body.id > f.id);
        let ids: Vec<NodeId> = f.body.stmts.iter().map(|s| s.id).collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
        let StmtKind::If { cond, then, .. } = &f.body.stmts[1].kind else {
            panic!()
        };
        assert!(f.body.stmts[1].id < cond.id && cond.id < then.id);
        assert!(then.id < f.body.stmts[2].id);
        assert!(f.body.stmts[2].id < tu.node_count);
    }

    #[test]
    fn macro_expansions_keep_invocation_spans() {
        let src = "#define MOD 1000000007\n#define max(a,b) ((a)>(b)?(a):(b))\n#define rep(i,n) for(i=0;i<n;i++)\n\
                   int main(void) { int i, s = 0; rep(i, 10) s = max(s, i) % MOD; return s; }\n";
        let tu = program(src);
        let Item::Function(f) = &tu.items[0] else {
            panic!()
        };
        let for_stmt = &f.body.stmts[1];
        assert!(matches!(for_stmt.kind, StmtKind::For { .. }));
        assert_eq!(
            &src[for_stmt.span.range()],
            "rep(i, 10) s = max(s, i) % MOD;"
        );
        let StmtKind::For { cond, body, .. } = &for_stmt.kind else {
            panic!()
        };
        // The loop condition lies strictly inside the `rep` expansion.
        let cond = cond.as_ref().unwrap();
        assert!(cond.span.macro_inner);
        assert_eq!(&src[cond.span.range()], "rep(i, 10)");
        let StmtKind::Expr(e) = &body.kind else {
            panic!()
        };
        let ExprKind::Assign { rhs, .. } = &e.kind else {
            panic!()
        };
        // `max(s, i) % MOD` covers whole expansions: exact.
        assert!(!rhs.span.macro_inner);
        assert_eq!(&src[rhs.span.range()], "max(s, i) % MOD");
        assert_eq!(rhs.to_string(), "(s > i ? s : i) % 1000000007");
        let ExprKind::Binary { lhs, rhs: m, .. } = &rhs.kind else {
            panic!()
        };
        assert!(!lhs.span.macro_inner && !m.span.macro_inner);
        let ExprKind::Conditional { cond, .. } = &lhs.kind else {
            panic!()
        };
        assert!(cond.span.macro_inner);
    }

    #[test]
    fn header_macros_and_conditional_compilation() {
        let tu = program(
            "#include <limits.h>\n#include <stdbool.h>\n#ifdef ONLINE_JUDGE\nint broken(\n#endif\n\
             bool ok = true; int m = INT_MAX; long long n = LLONG_MIN;",
        );
        assert_eq!(tu.includes.len(), 2);
        let printed = tu.to_string();
        assert!(printed.contains("_Bool ok = 1;"), "{printed}");
        assert!(printed.contains("int m = 2147483647;"), "{printed}");
        assert!(
            printed.contains("long long n = -9223372036854775807LL - 1LL;"),
            "{printed}"
        );
    }
}
