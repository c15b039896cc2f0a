//! Preprocessor: directives (`#include`, `#define`, `#undef`, `#if` family) and bounded macro expansion.
//!
//! Headers are not read: an `#include` is recorded in [`Preprocessed::includes`] and
//! defines the few object-like macros of that header that small programs use
//! (`INT_MAX` for `<limits.h>`, `bool`/`true`/`false` for `<stdbool.h>`, `EOF`, `NULL`,
//! `RAND_MAX`, `INT64_MAX`...). Every token produced by a macro expansion carries the
//! span of the outermost invocation in the user's text, with [`Token::from_macro`] set
//! and [`Token::macro_first`]/[`Token::macro_last`] marking the ends of the expansion.

use std::collections::HashMap;
use std::rc::Rc;

use super::ast::{Include, Span};
use super::diag::Diagnostic;
use super::lexer::{lex, Punct, TokKind, Token};

/// Bounds on macro expansion (hostile input must not blow up time, memory or stack).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreprocessLimits {
    /// Total tokens produced by all expansions (intermediate results included).
    pub max_expansion_work: usize,
    /// Nesting depth of macro expansions (a macro whose body invokes a macro...).
    pub max_expansion_depth: usize,
    /// Nesting depth of parentheses in `#if` expressions.
    pub max_if_depth: usize,
}

impl Default for PreprocessLimits {
    /// 2 million tokens of expansion work, depth 64, `#if` nesting 128.
    fn default() -> Self {
        PreprocessLimits {
            max_expansion_work: 2_000_000,
            max_expansion_depth: 64,
            max_if_depth: 128,
        }
    }
}

/// The result of preprocessing: tokens for the parser (ending with `Eof`), the
/// `#include` lines, and diagnostics (lexical errors included).
#[derive(Clone, Debug, Default)]
pub struct Preprocessed {
    /// Tokens after directive processing and macro expansion; the last is `Eof`.
    pub tokens: Vec<Token>,
    /// `#include` directives in active regions, in order.
    pub includes: Vec<Include>,
    /// Errors and warnings.
    pub diags: Vec<Diagnostic>,
}

/// At most this many preprocessor (and lexer) diagnostics are kept.
pub const MAX_PP_DIAGS: usize = 100;

/// A macro definition.
#[derive(Clone, Debug)]
struct Macro {
    /// `Some(params)` for function-like macros.
    params: Option<Vec<String>>,
    /// The last parameter collects the remaining arguments (`...` or GNU `x...`).
    variadic: bool,
    /// Replacement list.
    body: Vec<Token>,
}

/// One level of `#if` nesting.
#[derive(Clone, Copy, Debug)]
struct Cond {
    /// The enclosing region is active.
    parent_active: bool,
    /// Some branch of this `#if` was taken.
    taken: bool,
    /// The current branch is active.
    active: bool,
    /// `#else` seen.
    seen_else: bool,
    /// Where the `#if` was (for "unterminated #if").
    span: Span,
}

struct Pp<'a> {
    src: &'a str,
    /// Shared so an expansion does not copy the definition.
    macros: HashMap<String, Rc<Macro>>,
    diags: Vec<Diagnostic>,
    includes: Vec<Include>,
    limits: PreprocessLimits,
    work: usize,
    exhausted: bool,
    warned_paste: bool,
}

/// Preprocesses `src` with the default limits.
pub fn preprocess(src: &str) -> Preprocessed {
    preprocess_with(src, PreprocessLimits::default())
}

/// Preprocesses `src` with explicit limits. Never panics; work is bounded by the limits.
pub fn preprocess_with(src: &str, limits: PreprocessLimits) -> Preprocessed {
    let (toks, lex_diags) = lex(src);
    let mut pp = Pp {
        src,
        macros: HashMap::new(),
        diags: lex_diags,
        includes: Vec::new(),
        limits,
        work: 0,
        exhausted: false,
        warned_paste: false,
    };
    let mut out = Vec::with_capacity(toks.len());
    let mut conds: Vec<Cond> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if t.kind == TokKind::Eof {
            break;
        }
        let active = conds.last().is_none_or(|c| c.active);
        if t.line_start && t.is_punct(Punct::Hash) {
            let mut end = i + 1;
            while end < toks.len() && !toks[end].line_start {
                end += 1;
            }
            pp.directive(&toks[i], &toks[i + 1..end], &mut conds);
            i = end;
            continue;
        }
        if !active {
            i += 1;
            continue;
        }
        match &t.kind {
            TokKind::Invalid(msg) => {
                pp.diag(Diagnostic::error(t.span, msg.clone()));
                i += 1;
            }
            TokKind::Ident(name) if pp.macros.contains_key(name) => {
                let is_fn = pp.macros[name].params.is_some();
                let mut stop = i + 1;
                if is_fn {
                    if toks.get(i + 1).is_some_and(|n| n.is_punct(Punct::LParen)) {
                        match find_close(&toks, i + 1) {
                            Some(close) => stop = close + 1,
                            None => {
                                pp.diag(Diagnostic::error(
                                    t.span,
                                    format!("unterminated argument list invoking macro '{name}'"),
                                ));
                                i = toks.len() - 1;
                                continue;
                            }
                        }
                    } else {
                        // A function-like macro name without arguments is a plain name.
                        out.push(t.clone());
                        i += 1;
                        continue;
                    }
                }
                let inv = &toks[i..stop];
                let span = inv[0].span.to(inv[inv.len() - 1].span);
                let mut expanded = pp.expand_list(inv, &mut Vec::new(), 0);
                let n = expanded.len();
                for (k, e) in expanded.iter_mut().enumerate() {
                    e.span = span;
                    e.from_macro = true;
                    e.macro_first = k == 0;
                    e.macro_last = k + 1 == n;
                    e.line_start = false;
                }
                out.extend(expanded);
                i = stop;
            }
            _ => {
                out.push(t.clone());
                i += 1;
            }
        }
    }
    // The outermost unterminated `#if` explains the rest.
    if let Some(c) = conds.first() {
        pp.err(c.span, "unterminated conditional directive");
    }
    let eof = toks.last().cloned().unwrap_or_else(|| {
        let (t, _) = lex("");
        t[0].clone()
    });
    out.push(eof);
    Preprocessed {
        tokens: out,
        includes: pp.includes,
        diags: pp.diags,
    }
}

/// Index of the `)` matching the `(` at `open`, if any.
fn find_close(toks: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t.kind {
            TokKind::Punct(Punct::LParen) => depth += 1,
            TokKind::Punct(Punct::RParen) => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            TokKind::Eof => return None,
            _ => {}
        }
    }
    None
}

/// Splits the tokens strictly between `(` at `open` and `)` at `close` into arguments at
/// top-level commas.
fn split_args(toks: &[Token], open: usize, close: usize) -> Vec<Vec<Token>> {
    let mut args = vec![Vec::new()];
    let mut depth = 0usize;
    for t in &toks[open + 1..close] {
        match t.kind {
            TokKind::Punct(Punct::LParen) => depth += 1,
            TokKind::Punct(Punct::RParen) => depth = depth.saturating_sub(1),
            TokKind::Punct(Punct::Comma) if depth == 0 => {
                args.push(Vec::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = args.last_mut() {
            last.push(t.clone());
        }
    }
    args
}

/// Macros that an `#include` of a known header defines (name, replacement text).
fn header_macros(header: &str) -> &'static [(&'static str, &'static str)] {
    match header {
        "stdbool.h" => &[("bool", "_Bool"), ("true", "1"), ("false", "0")],
        "limits.h" => &[
            ("CHAR_BIT", "8"),
            ("SCHAR_MIN", "(-128)"),
            ("SCHAR_MAX", "127"),
            ("UCHAR_MAX", "255"),
            ("CHAR_MIN", "(-128)"),
            ("CHAR_MAX", "127"),
            ("SHRT_MIN", "(-32767-1)"),
            ("SHRT_MAX", "32767"),
            ("USHRT_MAX", "65535"),
            ("INT_MIN", "(-2147483647-1)"),
            ("INT_MAX", "2147483647"),
            ("UINT_MAX", "4294967295U"),
            ("LONG_MIN", "(-9223372036854775807L-1L)"),
            ("LONG_MAX", "9223372036854775807L"),
            ("ULONG_MAX", "18446744073709551615UL"),
            ("LLONG_MIN", "(-9223372036854775807LL-1LL)"),
            ("LLONG_MAX", "9223372036854775807LL"),
            ("ULLONG_MAX", "18446744073709551615ULL"),
        ],
        "stdint.h" | "inttypes.h" => &[
            ("INT8_MIN", "(-128)"),
            ("INT8_MAX", "127"),
            ("UINT8_MAX", "255"),
            ("INT16_MIN", "(-32767-1)"),
            ("INT16_MAX", "32767"),
            ("UINT16_MAX", "65535"),
            ("INT32_MIN", "(-2147483647-1)"),
            ("INT32_MAX", "2147483647"),
            ("UINT32_MAX", "4294967295U"),
            ("INT64_MIN", "(-9223372036854775807L-1)"),
            ("INT64_MAX", "9223372036854775807L"),
            ("UINT64_MAX", "18446744073709551615UL"),
        ],
        "stdio.h" => &[("EOF", "(-1)"), ("NULL", "0")],
        "stdlib.h" => &[
            ("RAND_MAX", "2147483647"),
            ("EXIT_SUCCESS", "0"),
            ("EXIT_FAILURE", "1"),
            ("NULL", "0"),
        ],
        "string.h" | "stddef.h" | "time.h" => &[("NULL", "0")],
        _ => &[],
    }
}

impl Pp<'_> {
    /// Records a diagnostic; after [`MAX_PP_DIAGS`] the rest are dropped (the parser
    /// adds its own "too many errors" cap).
    fn diag(&mut self, d: Diagnostic) {
        if self.diags.len() < MAX_PP_DIAGS {
            self.diags.push(d);
        }
    }

    fn err(&mut self, span: Span, msg: impl Into<String>) {
        self.diag(Diagnostic::error(span, msg));
    }

    /// Handles one directive line: `hash` is the `#`, `line` the rest of the line.
    fn directive(&mut self, hash: &Token, line: &[Token], conds: &mut Vec<Cond>) {
        let active = conds.last().is_none_or(|c| c.active);
        let Some(first) = line.first() else {
            return; // The null directive `#`.
        };
        let name = match &first.kind {
            TokKind::Ident(n) => n.as_str(),
            TokKind::Number(_) if active => return, // `# 1 "file"` line markers
            _ => {
                if active {
                    self.err(first.span, "invalid preprocessing directive");
                }
                return;
            }
        };
        let rest = &line[1..];
        let dir_span = hash.span.to(line[line.len() - 1].span);
        match name {
            "if" | "ifdef" | "ifndef" => {
                let value = if !active {
                    false
                } else if name == "if" {
                    self.eval_if(rest, first.span)
                } else {
                    match rest.first().and_then(Token::ident) {
                        Some(m) => self.macros.contains_key(m) == (name == "ifdef"),
                        None => {
                            self.err(
                                first.span,
                                format!("no macro name given in #{name} directive"),
                            );
                            false
                        }
                    }
                };
                conds.push(Cond {
                    parent_active: active,
                    taken: value,
                    active: active && value,
                    seen_else: false,
                    span: dir_span,
                });
            }
            "elif" | "else" => {
                let Some(c) = conds.last().copied() else {
                    self.err(first.span, format!("#{name} without #if"));
                    return;
                };
                if c.seen_else {
                    self.err(first.span, format!("#{name} after #else"));
                }
                let value = if name == "else" {
                    !c.taken
                } else if c.parent_active && !c.taken {
                    self.eval_if(rest, first.span)
                } else {
                    false
                };
                if let Some(top) = conds.last_mut() {
                    top.active = top.parent_active && value;
                    top.taken |= value;
                    top.seen_else |= name == "else";
                }
            }
            "endif" => {
                if conds.pop().is_none() {
                    self.err(first.span, "#endif without #if");
                }
            }
            _ if !active => {}
            "define" => self.define(first, rest),
            "undef" => match rest.first().and_then(Token::ident) {
                Some(m) => {
                    self.macros.remove(m);
                }
                None => self.err(first.span, "macro names must be identifiers"),
            },
            "include" => self.include(hash, first, rest),
            "pragma" | "line" | "ident" => {}
            "error" => {
                let text: Vec<String> = rest.iter().map(Token::text).collect();
                self.err(dir_span, format!("#error {}", text.join(" ")));
            }
            "warning" => {
                let text: Vec<String> = rest.iter().map(Token::text).collect();
                self.diag(Diagnostic::warning(
                    dir_span,
                    format!("#warning {}", text.join(" ")),
                ));
            }
            other => {
                let msg = format!("invalid preprocessing directive #{other}");
                self.err(first.span, msg);
            }
        }
    }

    fn include(&mut self, hash: &Token, kw: &Token, rest: &[Token]) {
        let parsed = match rest.first().map(|t| &t.kind) {
            Some(TokKind::Str(s)) if s.len() >= 2 && s.starts_with('"') => {
                Some((s[1..s.len() - 1].to_string(), false, rest[0].span))
            }
            Some(TokKind::Punct(p)) if p.as_str().starts_with('<') => {
                // The header name is raw text up to the first `>` on the line (tokens
                // would split `<stdio.h>>` as `... h >>`, and `<=x.h>` as `<=` ...).
                let a = rest[0].span.start as usize + 1;
                let line_end = self.src[a..].find('\n').map_or(self.src.len(), |k| a + k);
                self.src[a..line_end].find('>').map(|k| {
                    let gt = a + k;
                    if self.src[gt + 1..line_end]
                        .split("//")
                        .next()
                        .is_some_and(|t| !t.trim().is_empty() && !t.trim().starts_with("/*"))
                    {
                        self.diag(Diagnostic::warning(
                            kw.span,
                            "extra tokens at end of #include directive",
                        ));
                    }
                    let mut last = rest[0].span;
                    last.start = gt as u32;
                    last.end = gt as u32 + 1;
                    (self.src[a..gt].trim().to_string(), true, last)
                })
            }
            _ => None,
        };
        match parsed {
            Some((header, system, last)) => {
                for (name, text) in header_macros(&header) {
                    let body: Vec<Token> = lex(text)
                        .0
                        .into_iter()
                        .filter(|t| t.kind != TokKind::Eof)
                        .collect();
                    self.macros.insert(
                        (*name).to_string(),
                        Rc::new(Macro {
                            params: None,
                            variadic: false,
                            body,
                        }),
                    );
                }
                self.includes.push(Include {
                    header,
                    system,
                    span: hash.span.to(last),
                });
            }
            None => self.err(kw.span, "#include expects \"FILENAME\" or <FILENAME>"),
        }
    }

    fn define(&mut self, kw: &Token, rest: &[Token]) {
        let Some(name_tok) = rest.first() else {
            self.err(kw.span, "no macro name given in #define directive");
            return;
        };
        let Some(name) = name_tok.ident() else {
            self.err(name_tok.span, "macro names must be identifiers");
            return;
        };
        if name == "defined" {
            self.err(name_tok.span, "\"defined\" cannot be used as a macro name");
            return;
        }
        let mut k = 1;
        let mut params = None;
        let mut variadic = false;
        if rest
            .get(1)
            .is_some_and(|t| t.is_punct(Punct::LParen) && !t.space_before)
        {
            let mut ps = Vec::new();
            k = 2;
            let mut ok = false;
            while let Some(t) = rest.get(k) {
                k += 1;
                match &t.kind {
                    TokKind::Punct(Punct::RParen) => {
                        ok = true;
                        break;
                    }
                    TokKind::Punct(Punct::Comma) => {}
                    TokKind::Punct(Punct::Ellipsis) => {
                        ps.push("__VA_ARGS__".to_string());
                        variadic = true;
                    }
                    TokKind::Ident(p) => {
                        ps.push(p.clone());
                        if rest.get(k).is_some_and(|t| t.is_punct(Punct::Ellipsis)) {
                            variadic = true;
                            k += 1;
                        }
                    }
                    _ => break,
                }
            }
            if !ok {
                self.err(
                    name_tok.span,
                    "malformed parameter list in macro definition",
                );
                return;
            }
            params = Some(ps);
        }
        let body: Vec<Token> = rest[k..]
            .iter()
            .map(|t| {
                let mut t = t.clone();
                t.line_start = false;
                t
            })
            .collect();
        self.macros.insert(
            name.to_string(),
            Rc::new(Macro {
                params,
                variadic,
                body,
            }),
        );
    }

    /// Records `n` tokens of expansion work; false (with one diagnostic) once over budget.
    fn charge(&mut self, n: usize, span: Span) -> bool {
        self.work = self.work.saturating_add(n);
        if self.work > self.limits.max_expansion_work && !self.exhausted {
            self.exhausted = true;
            self.err(
                span,
                "macro expansion too large (recursive or exponential macros?)",
            );
        }
        !self.exhausted
    }

    /// Fully macro-expands a token list (function-like invocations must be complete
    /// inside it). `disabled` holds the macros being expanded (they are not re-expanded).
    fn expand_list(
        &mut self,
        input: &[Token],
        disabled: &mut Vec<String>,
        depth: usize,
    ) -> Vec<Token> {
        let mut out = Vec::with_capacity(input.len());
        if depth > self.limits.max_expansion_depth {
            if let Some(t) = input.first() {
                self.err(t.span, "macro expansion nested too deeply");
            }
            self.exhausted = true;
            return out;
        }
        let mut i = 0;
        while i < input.len() {
            let t = &input[i];
            let name = match &t.kind {
                TokKind::Ident(n) if !t.painted && self.macros.contains_key(n) => n.clone(),
                _ => {
                    out.push(t.clone());
                    i += 1;
                    continue;
                }
            };
            if disabled.contains(&name) {
                let mut p = t.clone();
                p.painted = true;
                out.push(p);
                i += 1;
                continue;
            }
            let Some(mac) = self.macros.get(&name).cloned() else {
                i += 1;
                continue;
            };
            if !self.charge(mac.body.len() + 1, t.span) {
                return out;
            }
            match &mac.params {
                None => {
                    disabled.push(name);
                    let res = self.expand_list(&mac.body, disabled, depth + 1);
                    disabled.pop();
                    // Copying results up the nesting is work too (the real cost of
                    // exponential macros).
                    if !self.charge(res.len(), t.span) {
                        return out;
                    }
                    out.extend(res);
                    i += 1;
                }
                Some(params) => {
                    let close = if input.get(i + 1).is_some_and(|n| n.is_punct(Punct::LParen)) {
                        find_close(input, i + 1)
                    } else {
                        None
                    };
                    let Some(close) = close else {
                        out.push(t.clone());
                        i += 1;
                        continue;
                    };
                    let mut args = split_args(input, i + 1, close);
                    if params.is_empty() && args.len() == 1 && args[0].is_empty() {
                        args.clear();
                    }
                    if mac.variadic && args.len() > params.len() {
                        // Join the surplus arguments (with their commas) into the last one.
                        let comma = input[i + 1..close]
                            .iter()
                            .find(|t| t.is_punct(Punct::Comma))
                            .cloned();
                        let mut last = args.split_off(params.len() - 1);
                        let mut joined = Vec::new();
                        for (k, a) in last.iter_mut().enumerate() {
                            if k > 0 {
                                if let Some(c) = &comma {
                                    joined.push(c.clone());
                                }
                            }
                            joined.append(a);
                        }
                        args.push(joined);
                    }
                    if mac.variadic && args.len() + 1 == params.len() {
                        args.push(Vec::new());
                    }
                    if args.len() != params.len() {
                        self.err(
                            t.span,
                            format!(
                                "macro '{name}' requires {} argument{}, but {} given",
                                params.len(),
                                if params.len() == 1 { "" } else { "s" },
                                args.len()
                            ),
                        );
                        // Stand in a `0` so the parser does not report the gap too.
                        let mut zero = t.clone();
                        zero.kind = TokKind::Number("0".to_string());
                        out.push(zero);
                        i = close + 1;
                        continue;
                    }
                    let subst = self.substitute(&mac, params, &args, disabled, depth, t.span);
                    disabled.push(name);
                    let res = self.expand_list(&subst, disabled, depth + 1);
                    disabled.pop();
                    // Copying results up the nesting is work too (the real cost of
                    // exponential macros).
                    if !self.charge(res.len(), t.span) {
                        return out;
                    }
                    out.extend(res);
                    i = close + 1;
                }
            }
            if !self.charge(0, t.span) {
                return out;
            }
        }
        out
    }

    /// Replaces parameters in the body of `mac` by the (fully expanded) arguments;
    /// `#param` becomes a string literal of the unexpanded argument.
    fn substitute(
        &mut self,
        mac: &Macro,
        params: &[String],
        args: &[Vec<Token>],
        disabled: &mut Vec<String>,
        depth: usize,
        span: Span,
    ) -> Vec<Token> {
        let mut expanded: Vec<Option<Vec<Token>>> = vec![None; args.len()];
        let mut out = Vec::new();
        let body = &mac.body;
        let mut k = 0;
        while k < body.len() {
            let bt = &body[k];
            let param_at = |j: usize| -> Option<usize> {
                body.get(j)
                    .and_then(Token::ident)
                    .and_then(|n| params.iter().position(|p| p == n))
            };
            if bt.is_punct(Punct::Hash) {
                if let Some(p) = param_at(k + 1) {
                    let mut text = String::from("\"");
                    for (j, a) in args[p].iter().enumerate() {
                        if j > 0 && a.space_before {
                            text.push(' ');
                        }
                        for ch in a.text().chars() {
                            if ch == '"' || ch == '\\' {
                                text.push('\\');
                            }
                            text.push(ch);
                        }
                    }
                    text.push('"');
                    let mut s = bt.clone();
                    s.kind = TokKind::Str(text);
                    out.push(s);
                    k += 2;
                    continue;
                }
            }
            if bt.is_punct(Punct::HashHash) {
                if !self.warned_paste {
                    self.warned_paste = true;
                    self.diag(Diagnostic::unsupported(
                        span,
                        "token pasting (##) in macros",
                    ));
                }
                k += 1;
                continue;
            }
            if let Some(p) = param_at(k) {
                if expanded[p].is_none() {
                    let e = self.expand_list(&args[p], disabled, depth + 1);
                    expanded[p] = Some(e);
                }
                let e = expanded[p].as_deref().unwrap_or(&[]);
                if !self.charge(e.len(), span) {
                    return out;
                }
                out.extend_from_slice(e);
            } else {
                out.push(bt.clone());
            }
            k += 1;
        }
        out
    }

    /// Evaluates a `#if` / `#elif` condition; errors count as false.
    fn eval_if(&mut self, toks: &[Token], at: Span) -> bool {
        // Replace `defined X` / `defined(X)` before expansion.
        let mut pre = Vec::new();
        let mut k = 0;
        while k < toks.len() {
            if toks[k].ident() == Some("defined") {
                let (name, next) = if toks.get(k + 1).is_some_and(|t| t.is_punct(Punct::LParen)) {
                    (toks.get(k + 2).and_then(Token::ident), k + 4)
                } else {
                    (toks.get(k + 1).and_then(Token::ident), k + 2)
                };
                let v = name.is_some_and(|n| self.macros.contains_key(n));
                let mut t = toks[k].clone();
                t.kind = TokKind::Number(if v { "1" } else { "0" }.to_string());
                pre.push(t);
                k = next;
            } else {
                pre.push(toks[k].clone());
                k += 1;
            }
        }
        let expanded = self.expand_list(&pre, &mut Vec::new(), 0);
        if expanded.is_empty() {
            self.err(at, "#if with no expression");
            return false;
        }
        let mut ev = IfEval {
            toks: &expanded,
            pos: 0,
            depth: 0,
            max_depth: self.limits.max_if_depth,
            error: None,
        };
        let v = ev.expr();
        if ev.error.is_none() && ev.pos < expanded.len() {
            ev.error = Some((
                expanded[ev.pos].span,
                "missing binary operator in #if".to_string(),
            ));
        }
        match ev.error {
            Some((span, msg)) => {
                self.err(span, msg);
                false
            }
            None => v != 0,
        }
    }
}

/// Integer constant-expression evaluator for `#if` (wrapping `i64` arithmetic).
struct IfEval<'t> {
    toks: &'t [Token],
    pos: usize,
    depth: usize,
    max_depth: usize,
    error: Option<(Span, String)>,
}

impl IfEval<'_> {
    fn fail(&mut self, msg: &str) -> i64 {
        if self.error.is_none() {
            let span = self
                .toks
                .get(self.pos)
                .or(self.toks.last())
                .map(|t| t.span)
                .unwrap_or_default();
            self.error = Some((span, msg.to_string()));
        }
        0
    }

    fn peek_punct(&self) -> Option<Punct> {
        match self.toks.get(self.pos).map(|t| &t.kind) {
            Some(TokKind::Punct(p)) => Some(*p),
            _ => None,
        }
    }

    fn expr(&mut self) -> i64 {
        let c = self.binary(0);
        if self.peek_punct() == Some(Punct::Question) {
            self.pos += 1;
            let a = self.expr();
            if self.peek_punct() != Some(Punct::Colon) {
                return self.fail("expected ':' in #if");
            }
            self.pos += 1;
            let b = self.expr();
            return if c != 0 { a } else { b };
        }
        c
    }

    fn binary(&mut self, min: u8) -> i64 {
        let mut lhs = self.unary();
        while let Some(p) = self.peek_punct() {
            let prec = match p {
                Punct::PipePipe => 1,
                Punct::AmpAmp => 2,
                Punct::Pipe => 3,
                Punct::Caret => 4,
                Punct::Amp => 5,
                Punct::EqEq | Punct::Ne => 6,
                Punct::Lt | Punct::Gt | Punct::Le | Punct::Ge => 7,
                Punct::Shl | Punct::Shr => 8,
                Punct::Plus | Punct::Minus => 9,
                Punct::Star | Punct::Slash | Punct::Percent => 10,
                _ => break,
            };
            if prec < min || self.error.is_some() {
                break;
            }
            self.pos += 1;
            let rhs = self.binary(prec + 1);
            lhs = match p {
                Punct::PipePipe => ((lhs != 0) || (rhs != 0)) as i64,
                Punct::AmpAmp => ((lhs != 0) && (rhs != 0)) as i64,
                Punct::Pipe => lhs | rhs,
                Punct::Caret => lhs ^ rhs,
                Punct::Amp => lhs & rhs,
                Punct::EqEq => (lhs == rhs) as i64,
                Punct::Ne => (lhs != rhs) as i64,
                Punct::Lt => (lhs < rhs) as i64,
                Punct::Gt => (lhs > rhs) as i64,
                Punct::Le => (lhs <= rhs) as i64,
                Punct::Ge => (lhs >= rhs) as i64,
                Punct::Shl => lhs.wrapping_shl(rhs as u32),
                Punct::Shr => lhs.wrapping_shr(rhs as u32),
                Punct::Plus => lhs.wrapping_add(rhs),
                Punct::Minus => lhs.wrapping_sub(rhs),
                Punct::Star => lhs.wrapping_mul(rhs),
                Punct::Slash | Punct::Percent => {
                    if rhs == 0 {
                        return self.fail("division by zero in #if");
                    }
                    if p == Punct::Slash {
                        lhs.wrapping_div(rhs)
                    } else {
                        lhs.wrapping_rem(rhs)
                    }
                }
                _ => lhs,
            };
        }
        lhs
    }

    fn unary(&mut self) -> i64 {
        if self.depth >= self.max_depth {
            return self.fail("#if expression nested too deeply");
        }
        self.depth += 1;
        let v = self.unary_inner();
        self.depth -= 1;
        v
    }

    fn unary_inner(&mut self) -> i64 {
        let Some(t) = self.toks.get(self.pos) else {
            return self.fail("#if expression ends unexpectedly");
        };
        self.pos += 1;
        match &t.kind {
            TokKind::Punct(Punct::Minus) => self.unary().wrapping_neg(),
            TokKind::Punct(Punct::Plus) => self.unary(),
            TokKind::Punct(Punct::Bang) => (self.unary() == 0) as i64,
            TokKind::Punct(Punct::Tilde) => !self.unary(),
            TokKind::Punct(Punct::LParen) => {
                let v = self.expr();
                if self.peek_punct() != Some(Punct::RParen) {
                    return self.fail("expected ')' in #if");
                }
                self.pos += 1;
                v
            }
            TokKind::Number(s) => {
                let digits = s.trim_end_matches(['u', 'U', 'l', 'L']);
                let parsed =
                    if let Some(h) = digits.strip_prefix("0x").or(digits.strip_prefix("0X")) {
                        u64::from_str_radix(h, 16).ok()
                    } else if digits.len() > 1 && digits.starts_with('0') {
                        u64::from_str_radix(&digits[1..], 8).ok()
                    } else {
                        digits.parse::<u64>().ok()
                    };
                match parsed {
                    Some(v) => v as i64,
                    None => {
                        self.pos -= 1;
                        self.fail("invalid integer in #if")
                    }
                }
            }
            TokKind::Char(s) => s.as_bytes().get(1).copied().unwrap_or(0) as i64,
            TokKind::Ident(_) => 0, // Undefined names are 0 in #if.
            _ => {
                self.pos -= 1;
                self.fail("invalid token in #if expression")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<String> {
        let p = preprocess(src);
        assert!(p.diags.is_empty(), "{:?}", p.diags);
        p.tokens
            .iter()
            .filter(|t| t.kind != TokKind::Eof)
            .map(Token::text)
            .collect()
    }

    fn joined(src: &str) -> String {
        texts(src).join(" ")
    }

    #[test]
    fn object_and_function_macros() {
        assert_eq!(joined("#define N 100\nint a[N];"), "int a [ 100 ] ;");
        assert_eq!(
            joined("#define max(a,b) ((a)>(b)?(a):(b))\nmax(x+1, f(y,z))"),
            "( ( x + 1 ) > ( f ( y , z ) ) ? ( x + 1 ) : ( f ( y , z ) ) )"
        );
        assert_eq!(
            joined("#define REP(i,a,b) for(i=a;i<b;i++)\n#define rep(i,n) REP(i,0,n)\nrep(k, 10)"),
            "for ( k = 0 ; k < 10 ; k ++ )"
        );
        // Nested invocation of the same macro in an argument.
        assert_eq!(
            joined("#define m(a,b) (a<b?a:b)\nm(x, m(y,z))"),
            "( x < ( y < z ? y : z ) ? x : ( y < z ? y : z ) )"
        );
        // A function-like macro name without arguments is a plain identifier.
        assert_eq!(joined("#define f(x) x\nint f;"), "int f ;");
        // Line continuation in a definition.
        assert_eq!(joined("#define A 1 + \\\n 2\nA"), "1 + 2");
    }

    #[test]
    fn variadic_and_stringify() {
        assert_eq!(
            joined("#define D(x...) fprintf(stderr, x)\nD(\"%d\", a);"),
            "fprintf ( stderr , \"%d\" , a ) ;"
        );
        assert_eq!(joined("#define D(x...)\nD(\"%d\", a);"), ";");
        assert_eq!(
            joined("#define P(...) g(__VA_ARGS__)\nP(1,2)"),
            "g ( 1 , 2 )"
        );
        assert_eq!(joined("#define S(x) #x\nS(a + \"b\")"), "\"a + \\\"b\\\"\"");
    }

    #[test]
    fn self_reference_terminates() {
        assert_eq!(joined("#define x x + 1\nx"), "x + 1");
        assert_eq!(joined("#define a b\n#define b a\na"), "a");
    }

    #[test]
    fn conditionals() {
        let src = "#ifdef DEBUG\nbad\n#else\ngood\n#endif\n#if 0\n'unterminated\n#elif 1 + 1 == 2\nyes\n#endif\n#ifndef X\n#define X\n#endif\n#if defined(X) && !defined Y\nz\n#endif";
        assert_eq!(joined(src), "good yes z");
    }

    #[test]
    fn includes_recorded_with_macros() {
        let p = preprocess("#include <stdio.h>\n#include \"limits.h\"\nint x = INT_MAX;");
        assert_eq!(p.includes.len(), 2);
        assert_eq!(p.includes[0].header, "stdio.h");
        assert!(p.includes[0].system);
        assert_eq!(p.includes[1].header, "limits.h");
        assert!(!p.includes[1].system);
        assert_eq!(p.includes[0].span.start, 0);
        assert_eq!(p.includes[0].span.end, 18);
        let t: Vec<_> = p.tokens.iter().map(Token::text).collect();
        assert_eq!(t[3], "2147483647");
    }

    #[test]
    fn expanded_tokens_carry_invocation_span() {
        let src = "#define max(a,b) ((a)>(b)?(a):(b))\nint y = max(1, 2);";
        let p = preprocess(src);
        let inv_start = src.find("max(1").unwrap() as u32;
        let expanded: Vec<_> = p.tokens.iter().filter(|t| t.from_macro).collect();
        assert_eq!(expanded.len(), 17);
        assert!(expanded
            .iter()
            .all(|t| t.span.start == inv_start && t.span.line == 2));
        assert_eq!(expanded[0].span.end as usize, src.find(';').unwrap());
        assert!(expanded[0].macro_first && expanded[16].macro_last);
    }

    #[test]
    fn hostile_macros_are_bounded() {
        // Exponential blowup.
        let mut src = String::from("#define a0 x\n");
        for k in 1..40 {
            src.push_str(&format!("#define a{k} a{} a{}\n", k - 1, k - 1));
        }
        src.push_str("a39\n");
        let p = preprocess(&src);
        assert!(p.diags.iter().any(|d| d.message.contains("too large")));
        // Deep chains.
        let mut src = String::new();
        for k in 0..5000 {
            src.push_str(&format!("#define b{k} b{}\n", k + 1));
        }
        src.push_str("b0\n");
        let p = preprocess(&src);
        assert!(p.diags.iter().any(|d| d.message.contains("too deeply")));
    }

    #[test]
    fn directive_errors() {
        let p =
            preprocess("#endif\n#if\n#endif\n#foo\n#include\n#define 3\n#if 1/0\n#endif\n#if 1\n");
        let msgs: Vec<_> = p.diags.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            msgs,
            [
                "1:2: error: #endif without #if",
                "2:2: error: #if with no expression",
                "4:2: error: invalid preprocessing directive #foo",
                "5:2: error: #include expects \"FILENAME\" or <FILENAME>",
                "6:9: error: macro names must be identifiers",
                "7:7: error: division by zero in #if",
                "9:1: error: unterminated conditional directive",
            ]
        );
    }
}
