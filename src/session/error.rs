//! Why a session text or link could not be opened: one error type for the codec and the migration of older versions.

/// Why a session text or link could not be opened. Every message is meant for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// The link is longer than any session fixloop writes.
    #[error("the link is too long ({chars} characters, at most {max})")]
    LinkTooLong {
        /// Its length.
        chars: usize,
        /// The limit.
        max: usize,
    },
    /// The fragment is not base64url.
    #[error("the link is damaged: it is not valid base64url ({0})")]
    Base64(String),
    /// The bytes are not a deflate stream.
    #[error("the link is damaged: its data does not decompress ({0})")]
    Deflate(String),
    /// The data inflates past the size limit (a decompression bomb or not a session).
    #[error("the link's data inflates to more than {max} bytes: refused")]
    TooLarge {
        /// The limit.
        max: usize,
    },
    /// The text is not JSON or has the wrong shape or types.
    #[error("the session data is malformed: {0}")]
    Json(String),
    /// A version this fixloop does not know.
    #[error("the session has version {found}; this fixloop reads versions 1 to {newest}")]
    UnknownVersion {
        /// The version in the data.
        found: u64,
        /// The newest version known.
        newest: u32,
    },
    /// Well-formed but outside the limits or inconsistent.
    #[error("the session is invalid: {0}")]
    Invalid(String),
}
