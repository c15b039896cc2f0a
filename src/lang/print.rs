//! The C printer: the syntax tree back as C text, expressions with minimal (or full)
//! parentheses, declarations as declarators, whole programs that parse back to the same tree.
//!
//! Repair's patches are printed here ([`print_expr_with`] keeps the user's own text for
//! unchanged subexpressions); `Display` of [`Expr`], [`Type`], [`Stmt`], [`Declaration`],
//! [`FunctionDef`] and [`TranslationUnit`] is this printer.

use std::fmt;

use super::ast::{
    Block, Declaration, Expr, ExprKind, FunctionDef, Initializer, Item, Param, ScalarType, Stmt,
    StmtKind, Storage, StructDef, TranslationUnit, Type, UnaryOp,
};

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
    use crate::lang::ast::Span;

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
