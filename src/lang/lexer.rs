//! Lexer: C source text to preprocessing tokens with exact spans (comments and line continuations removed).

use super::ast::Span;
use super::diag::Diagnostic;

/// Punctuators, longest-match spelled as in C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Punct {
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `.`
    Dot,
    /// `->`
    Arrow,
    /// `++`
    PlusPlus,
    /// `--`
    MinusMinus,
    /// `&`
    Amp,
    /// `*`
    Star,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `~`
    Tilde,
    /// `!`
    Bang,
    /// `/`
    Slash,
    /// `%`
    Percent,
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
    EqEq,
    /// `!=`
    Ne,
    /// `^`
    Caret,
    /// `|`
    Pipe,
    /// `&&`
    AmpAmp,
    /// `||`
    PipePipe,
    /// `?`
    Question,
    /// `:`
    Colon,
    /// `;`
    Semi,
    /// `...`
    Ellipsis,
    /// `=`
    Assign,
    /// `*=`
    StarAssign,
    /// `/=`
    SlashAssign,
    /// `%=`
    PercentAssign,
    /// `+=`
    PlusAssign,
    /// `-=`
    MinusAssign,
    /// `<<=`
    ShlAssign,
    /// `>>=`
    ShrAssign,
    /// `&=`
    AmpAssign,
    /// `^=`
    CaretAssign,
    /// `|=`
    PipeAssign,
    /// `,`
    Comma,
    /// `#`
    Hash,
    /// `##`
    HashHash,
}

/// All punctuators with their spelling, longest first so a prefix scan finds the longest match.
const PUNCTS: &[(&str, Punct)] = &[
    ("<<=", Punct::ShlAssign),
    (">>=", Punct::ShrAssign),
    ("...", Punct::Ellipsis),
    ("->", Punct::Arrow),
    ("++", Punct::PlusPlus),
    ("--", Punct::MinusMinus),
    ("<<", Punct::Shl),
    (">>", Punct::Shr),
    ("<=", Punct::Le),
    (">=", Punct::Ge),
    ("==", Punct::EqEq),
    ("!=", Punct::Ne),
    ("&&", Punct::AmpAmp),
    ("||", Punct::PipePipe),
    ("*=", Punct::StarAssign),
    ("/=", Punct::SlashAssign),
    ("%=", Punct::PercentAssign),
    ("+=", Punct::PlusAssign),
    ("-=", Punct::MinusAssign),
    ("&=", Punct::AmpAssign),
    ("^=", Punct::CaretAssign),
    ("|=", Punct::PipeAssign),
    ("##", Punct::HashHash),
    ("[", Punct::LBracket),
    ("]", Punct::RBracket),
    ("(", Punct::LParen),
    (")", Punct::RParen),
    ("{", Punct::LBrace),
    ("}", Punct::RBrace),
    (".", Punct::Dot),
    ("&", Punct::Amp),
    ("*", Punct::Star),
    ("+", Punct::Plus),
    ("-", Punct::Minus),
    ("~", Punct::Tilde),
    ("!", Punct::Bang),
    ("/", Punct::Slash),
    ("%", Punct::Percent),
    ("<", Punct::Lt),
    (">", Punct::Gt),
    ("^", Punct::Caret),
    ("|", Punct::Pipe),
    ("?", Punct::Question),
    (":", Punct::Colon),
    (";", Punct::Semi),
    ("=", Punct::Assign),
    (",", Punct::Comma),
    ("#", Punct::Hash),
];

/// The longest punctuator at the start of `rest`. Compares bytes in place (a
/// `starts_with` per table entry was a `memcmp` call each: the lexer's hottest loop).
fn punct_at(rest: &[u8]) -> Option<(&'static str, Punct)> {
    let first = *rest.first()?;
    PUNCTS
        .iter()
        .find(|(text, _)| {
            let t = text.as_bytes();
            t[0] == first
                && rest.len() >= t.len()
                && t[1..].iter().zip(&rest[1..]).all(|(a, b)| a == b)
        })
        .copied()
}

impl Punct {
    /// The C spelling.
    pub fn as_str(self) -> &'static str {
        PUNCTS
            .iter()
            .find(|(_, p)| *p == self)
            .map(|(s, _)| *s)
            .unwrap_or("?")
    }
}

/// What a token is. Literals keep their spelling; the parser converts them to values.
#[derive(Clone, Debug, PartialEq)]
pub enum TokKind {
    /// Identifier or keyword.
    Ident(String),
    /// A preprocessing number (`123`, `0x1F`, `1e-9`, `2.`, `10LL`), as spelled.
    Number(String),
    /// Character literal including the quotes, as spelled (`'\n'`).
    Char(String),
    /// String literal including the quotes, as spelled (`"a\tb"`).
    Str(String),
    /// Punctuator.
    Punct(Punct),
    /// Something that is not a token (stray character, unterminated literal); the message
    /// is reported only if the token is not in a skipped `#if` branch.
    Invalid(String),
    /// End of input.
    Eof,
}

/// A token with its span and layout flags.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The token.
    pub kind: TokKind,
    /// Where it is in the original source (for expanded tokens: the macro invocation).
    pub span: Span,
    /// First token on its (logical) line: a `#` here starts a directive.
    pub line_start: bool,
    /// Whitespace or a comment precedes it (function-like `#define f(x)` vs `#define f (x)`).
    pub space_before: bool,
    /// Produced by a macro expansion.
    pub from_macro: bool,
    /// First token of an outermost macro expansion.
    pub macro_first: bool,
    /// Last token of an outermost macro expansion.
    pub macro_last: bool,
    /// Must not be macro-expanded again (it named a macro while that macro was being expanded).
    pub painted: bool,
}

impl Token {
    fn new(kind: TokKind, span: Span, line_start: bool, space_before: bool) -> Token {
        Token {
            kind,
            span,
            line_start,
            space_before,
            from_macro: false,
            macro_first: false,
            macro_last: false,
            painted: false,
        }
    }

    /// The identifier text, if this is an identifier.
    pub fn ident(&self) -> Option<&str> {
        match &self.kind {
            TokKind::Ident(s) => Some(s),
            _ => None,
        }
    }

    /// Whether this is the punctuator `p`.
    pub fn is_punct(&self, p: Punct) -> bool {
        self.kind == TokKind::Punct(p)
    }

    /// The token as C text (for stringification and messages).
    pub fn text(&self) -> String {
        match &self.kind {
            TokKind::Ident(s) | TokKind::Number(s) | TokKind::Char(s) | TokKind::Str(s) => {
                s.clone()
            }
            TokKind::Punct(p) => p.as_str().to_string(),
            TokKind::Invalid(_) => "<invalid>".to_string(),
            TokKind::Eof => "end of file".to_string(),
        }
    }
}

/// Byte cursor over the source tracking line and column.
struct Cursor<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    col: u32,
}

impl Cursor<'_> {
    fn peek(&self, k: usize) -> u8 {
        self.src.get(self.pos + k).copied().unwrap_or(0)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.src.len()
    }

    /// Advances one byte; columns count characters (UTF-8 continuation bytes do not count).
    fn bump(&mut self) {
        if let Some(&b) = self.src.get(self.pos) {
            self.pos += 1;
            if b == b'\n' {
                self.line += 1;
                self.col = 1;
            } else if b & 0xC0 != 0x80 {
                self.col += 1;
            }
        }
    }

    /// Skips backslash-newline line continuations at the cursor; returns whether any.
    fn skip_continuations(&mut self) -> bool {
        let mut any = false;
        loop {
            if self.peek(0) == b'\\' && self.peek(1) == b'\n' {
                self.bump();
                self.bump();
                any = true;
            } else if self.peek(0) == b'\\' && self.peek(1) == b'\r' && self.peek(2) == b'\n' {
                self.bump();
                self.bump();
                self.bump();
                any = true;
            } else {
                return any;
            }
        }
    }

    fn span_from(&self, start: usize, line: u32, col: u32) -> Span {
        Span {
            start: start as u32,
            end: self.pos as u32,
            line,
            col,
            macro_inner: false,
        }
    }
}

/// Splits `src` into preprocessing tokens (the last one is [`TokKind::Eof`]). Comments
/// become whitespace; an unterminated block comment is reported in the returned
/// diagnostics. Never fails; linear in the input size.
pub fn lex(src: &str) -> (Vec<Token>, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut toks = Vec::new();
    let mut c = Cursor {
        src: src.as_bytes(),
        pos: 0,
        line: 1,
        col: 1,
    };
    let mut line_start = true;
    let mut space = false;
    loop {
        // Whitespace, comments and continuations.
        let b = c.peek(0);
        if c.at_end() {
            break;
        }
        if b == b'\n' {
            c.bump();
            line_start = true;
            space = true;
            continue;
        }
        if b == b' ' || b == b'\t' || b == b'\r' || b == 0x0b || b == 0x0c {
            c.bump();
            space = true;
            continue;
        }
        if b == b'\\' && c.skip_continuations() {
            space = true;
            continue;
        }
        if b == b'/' && c.peek(1) == b'/' {
            // Line comment: a continuation extends it to the next line.
            while !c.at_end() && c.peek(0) != b'\n' {
                if !c.skip_continuations() {
                    c.bump();
                }
            }
            space = true;
            continue;
        }
        if b == b'/' && c.peek(1) == b'*' {
            let (start, line, col) = (c.pos, c.line, c.col);
            c.bump();
            c.bump();
            loop {
                if c.at_end() {
                    diags.push(Diagnostic::error(
                        Span {
                            start: start as u32,
                            end: (start + 2) as u32,
                            line,
                            col,
                            macro_inner: false,
                        },
                        "unterminated comment",
                    ));
                    break;
                }
                if c.peek(0) == b'*' && c.peek(1) == b'/' {
                    c.bump();
                    c.bump();
                    break;
                }
                c.bump();
            }
            space = true;
            continue;
        }

        let (start, line, col) = (c.pos, c.line, c.col);
        let mut recovered = None;
        let kind = if b.is_ascii_alphabetic() || b == b'_' || b == b'$' {
            let mut s = String::new();
            loop {
                c.skip_continuations();
                let b = c.peek(0);
                if b.is_ascii_alphanumeric() || b == b'_' || b == b'$' {
                    s.push(b as char);
                    c.bump();
                } else {
                    break;
                }
            }
            // Wide / UTF literal prefixes: lex the literal, keep the prefix in the spelling.
            let q = c.peek(0);
            if (q == b'\'' || q == b'"') && matches!(s.as_str(), "L" | "u" | "U" | "u8") {
                let lit = lex_quoted(&mut c, q);
                match lit {
                    Ok(text) => {
                        let text = format!("{s}{text}");
                        if q == b'\'' {
                            TokKind::Char(text)
                        } else {
                            TokKind::Str(text)
                        }
                    }
                    Err((msg, text)) => {
                        let text = format!("{s}{text}");
                        recovered = Some(if q == b'\'' {
                            TokKind::Char(text)
                        } else {
                            TokKind::Str(text)
                        });
                        TokKind::Invalid(msg)
                    }
                }
            } else {
                TokKind::Ident(s)
            }
        } else if b.is_ascii_digit() || (b == b'.' && c.peek(1).is_ascii_digit()) {
            // pp-number: digit or .digit, then [0-9a-zA-Z_.] and e+ e- p+ p-.
            let mut s = String::new();
            loop {
                c.skip_continuations();
                let b = c.peek(0);
                if (b == b'+' || b == b'-')
                    && matches!(s.as_bytes().last(), Some(b'e' | b'E' | b'p' | b'P'))
                {
                    // Only an exponent sign if the number is not hex (`0x1e+1` is three tokens
                    // in C too, but gcc lexes it as one invalid pp-number; follow C).
                    s.push(b as char);
                    c.bump();
                } else if b.is_ascii_alphanumeric() || b == b'_' || b == b'.' {
                    s.push(b as char);
                    c.bump();
                } else {
                    break;
                }
            }
            TokKind::Number(s)
        } else if b == b'\'' || b == b'"' {
            match lex_quoted(&mut c, b) {
                Ok(text) => {
                    if b == b'\'' {
                        TokKind::Char(text)
                    } else {
                        TokKind::Str(text)
                    }
                }
                Err((msg, text)) => {
                    recovered = Some(if b == b'\'' {
                        TokKind::Char(text)
                    } else {
                        TokKind::Str(text)
                    });
                    TokKind::Invalid(msg)
                }
            }
        } else if let Some((text, p)) = punct_at(&c.src[c.pos..]) {
            for _ in 0..text.len() {
                c.bump();
            }
            TokKind::Punct(p)
        } else {
            // A stray character (maybe multi-byte): consume the whole character.
            let ch = src[c.pos..].chars().next().unwrap_or('\u{FFFD}');
            for _ in 0..ch.len_utf8() {
                c.bump();
            }
            let shown = if ch.is_control() || ch == '\u{FFFD}' {
                format!("stray character U+{:04X} in program", ch as u32)
            } else {
                format!("stray '{ch}' in program")
            };
            TokKind::Invalid(shown)
        };
        let span = c.span_from(start, line, col);
        toks.push(Token::new(kind, span, line_start, space));
        if let Some(kind) = recovered {
            // An unterminated literal is reported (the `Invalid` token) and then read as
            // if it ended at the end of the line, so parsing goes on normally.
            toks.push(Token::new(kind, span, false, false));
        }
        line_start = false;
        space = false;
    }
    let end = c.span_from(c.pos, c.line, c.col);
    toks.push(Token::new(TokKind::Eof, end, true, true));
    (toks, diags)
}

/// Lexes a quoted literal starting at the quote `q`; returns its spelling (with quotes,
/// continuations removed), or if unterminated an error message and the spelling closed
/// at the end of the line (where the cursor stops).
fn lex_quoted(c: &mut Cursor<'_>, q: u8) -> Result<String, (String, String)> {
    let mut bytes = vec![q];
    c.bump();
    loop {
        c.skip_continuations();
        let b = c.peek(0);
        if c.at_end() || b == b'\n' {
            let msg = if q == b'\'' {
                "missing terminating ' character"
            } else {
                "missing terminating \" character"
            };
            bytes.push(q);
            let text = String::from_utf8_lossy(&bytes).into_owned();
            return Err((msg.to_string(), text));
        }
        if b == b'\\' {
            bytes.push(b);
            c.bump();
            c.skip_continuations();
            let e = c.peek(0);
            if c.at_end() || e == b'\n' {
                continue;
            }
            bytes.push(e);
            c.bump();
            continue;
        }
        bytes.push(b);
        c.bump();
        if b == q {
            break;
        }
    }
    // Only whole UTF-8 characters were copied (the quote and backslash are ASCII, and we
    // stop only at ASCII bytes), so this never replaces anything.
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<TokKind> {
        lex(src).0.into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn punctuators_longest_match() {
        let k = kinds("a<<=b>>c->d...");
        assert_eq!(k[1], TokKind::Punct(Punct::ShlAssign));
        assert_eq!(k[3], TokKind::Punct(Punct::Shr));
        assert_eq!(k[5], TokKind::Punct(Punct::Arrow));
        assert_eq!(k[7], TokKind::Punct(Punct::Ellipsis));
    }

    #[test]
    fn numbers_and_literals() {
        let k = kinds("1e-9 .5 0x1F 10LL 'a' '\\n' \"x\\\"y\"");
        assert_eq!(k[0], TokKind::Number("1e-9".into()));
        assert_eq!(k[1], TokKind::Number(".5".into()));
        assert_eq!(k[2], TokKind::Number("0x1F".into()));
        assert_eq!(k[3], TokKind::Number("10LL".into()));
        assert_eq!(k[4], TokKind::Char("'a'".into()));
        assert_eq!(k[5], TokKind::Char("'\\n'".into()));
        assert_eq!(k[6], TokKind::Str("\"x\\\"y\"".into()));
    }

    #[test]
    fn comments_continuations_and_positions() {
        let (t, d) = lex("int a; // c \\\n still comment\n/* x\n y */ b\\\nc");
        assert!(d.is_empty());
        let names: Vec<_> = t.iter().filter_map(|t| t.ident()).collect();
        assert_eq!(names, ["int", "a", "bc"]);
        let b = &t[3];
        assert_eq!((b.span.line, b.span.col), (4, 7));
        assert!(b.line_start);
    }

    #[test]
    fn unterminated_things() {
        let (t, d) = lex("/* never");
        assert_eq!(d.len(), 1);
        assert_eq!(t.len(), 1);
        let (t, _) = lex("\"abc\nx");
        assert!(matches!(t[0].kind, TokKind::Invalid(_)));
        // Recovered as if closed at the end of the line.
        assert_eq!(t[1].kind, TokKind::Str("\"abc\"".into()));
        assert_eq!(t[2].ident(), Some("x"));
        let (t, _) = lex("é @");
        assert!(matches!(t[0].kind, TokKind::Invalid(_)));
        assert_eq!(t[1].span.col, 3);
    }
}
