//! Diagnostics (errors and warnings with line and column) shared by the parser and the back end.

use super::ast::Span;
use std::fmt;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The program is accepted; something looks suspicious.
    Warning,
    /// The program cannot be run as written.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// One message about the source, printed like a compiler: `3:14: error: expected ';'`.
///
/// Messages about features fixloop does not implement start with `unsupported:` (see
/// [`Diagnostic::is_unsupported`]), so tools can tell "your program is wrong" from
/// "fixloop cannot run this program".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// 1-based line of the start of `span`.
    pub line: u32,
    /// 1-based column (in characters) of the start of `span`.
    pub col: u32,
    /// The source range the message is about (original source bytes).
    pub span: Span,
    /// Error or warning.
    pub severity: Severity,
    /// The message, lower case, no trailing period.
    pub message: String,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            line: span.line,
            col: span.col,
            span,
            severity: Severity::Error,
            message: message.into(),
        }
    }

    /// A warning at `span`.
    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(span, message)
        }
    }

    /// An error about a feature fixloop does not support; the message gets the
    /// `unsupported: ` prefix.
    pub fn unsupported(span: Span, what: impl fmt::Display) -> Diagnostic {
        Diagnostic::error(span, format!("unsupported: {what}"))
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// Whether the message reports an unsupported feature (starts with `unsupported:`).
    pub fn is_unsupported(&self) -> bool {
        self.message.starts_with("unsupported:")
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}: {}",
            self.line, self.col, self.severity, self.message
        )
    }
}

/// Whether any diagnostic in the list is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_like_a_compiler() {
        let span = Span {
            start: 40,
            end: 41,
            line: 3,
            col: 14,
            macro_inner: false,
        };
        let d = Diagnostic::error(span, "expected ';' after expression");
        assert_eq!(d.to_string(), "3:14: error: expected ';' after expression");
        let u = Diagnostic::unsupported(span, "struct types");
        assert!(u.is_unsupported());
        assert_eq!(u.to_string(), "3:14: error: unsupported: struct types");
    }
}
