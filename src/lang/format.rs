//! C `printf`/`scanf` text conversion, byte-identical to glibc on x86-64 for the supported formats.
//!
//! The interpreter owns memory, C types and argument evaluation; this module owns the text.
//! [`printf`] formats from a [`PrintfArgs`] source (x86-64 SysV style: integer-class and
//! double-class arguments come from two separate sequences), [`scanf`] runs glibc's scanning
//! algorithm over an [`Input`] and hands every converted value to a callback.
//!
//! Limits: a field width or precision above [`MAX_FIELD`] is an error ([`FormatError::TooWide`])
//! instead of a huge allocation. Nothing here panics, allocates without bound, or does I/O.
//!
//! Known, deliberate differences from glibc (see also the notes on [`printf`] and [`scanf`]):
//! - `%I64d`/`%I64u`/`%I64x` (MSVC) behave like `%lld`/`%llu`/`%llx`, as the Codeforces programs
//!   expect; glibc would read `I` as a flag and `64` as a width.
//! - positional arguments (`%1$d`), `%n`, `%m`, wide `%C`/`%S`/`%ls` are reported as
//!   [`FormatError::Unsupported`].
//! - `%Lf` (long double) is formatted from the double argument (same digits when the value is
//!   a double, which is all the interpreter has).
//! - `%s` with an invalid pointer is [`FormatError::BadString`]; [`PrintfArgs::next_str`] cannot
//!   tell NULL apart, so glibc's `(null)` is not produced.
//! - After an unknown conversion (`%y`) glibc re-runs the rest of the format in its positional
//!   mode, which reads `%qd` as an int and pads `%-0*f` with zeros on the right; we keep the
//!   normal rules there (echoing the unknown conversion itself is exact).
//!
//! Everything else is checked byte for byte against gcc + glibc by `tests/format_gcc.rs`.

use std::fmt::Write as _;

/// Largest accepted printf field width or precision; larger is [`FormatError::TooWide`].
/// (scanf widths need no cap: they only bound how much of the finite input is read.)
pub const MAX_FIELD: usize = 4096;

/// Why a format could not be carried out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// A conversion this module does not implement (e.g. `%n` in printf, positional `%1$d`).
    #[error("unsupported conversion '%{0}'")]
    Unsupported(String),
    /// A field width or precision larger than [`MAX_FIELD`].
    #[error("field width or precision {0} exceeds the limit of {MAX_FIELD}")]
    TooWide(u64),
    /// The argument of `%s` is not a valid string pointer.
    #[error("%s argument is not a valid string")]
    BadString,
    /// The format ends inside a conversion (`"abc%"`, `"%5"`). glibc writes the text before it
    /// and returns -1; `written` bytes were appended to the output before stopping.
    #[error("format ends inside a conversion specification")]
    Incomplete {
        /// Bytes appended to the output before the incomplete conversion.
        written: usize,
    },
    /// The scanf `store` callback refused a value (message from the interpreter).
    #[error("{0}")]
    Store(String),
}

// ---------------------------------------------------------------------------------------------
// printf
// ---------------------------------------------------------------------------------------------

/// Where printf gets its arguments, in x86-64 SysV style: integers/pointers and doubles come from
/// two separate sequences (so `printf("%d %f", 2.5, 3)` prints "3 2.500000" like real gcc).
pub trait PrintfArgs {
    /// Next integer-class argument as raw 64 bits (the interpreter passes an `int` zero-extended
    /// from 32 bits as gcc -O0 does, a `long long` as is). Missing argument -> 0.
    fn next_int(&mut self) -> u64;
    /// Next double-class argument (floats are already promoted). Missing -> 0.0.
    fn next_double(&mut self) -> f64;
    /// Bytes of the NUL-terminated string the next integer-class argument points to (`%s`);
    /// None if it is not a valid string pointer.
    fn next_str(&mut self) -> Option<Vec<u8>>;
}

/// A simple [`PrintfArgs`] over two owned sequences and a list of strings (tests, constants).
#[derive(Debug, Clone, Default)]
pub struct VecArgs {
    /// Integer-class arguments, consumed front to back.
    pub ints: Vec<u64>,
    /// Double-class arguments, consumed front to back.
    pub doubles: Vec<f64>,
    /// String arguments for `%s` (each also consumes no integer slot here).
    pub strs: Vec<Vec<u8>>,
    int_pos: usize,
    double_pos: usize,
    str_pos: usize,
}

impl VecArgs {
    /// Arguments from the given sequences.
    pub fn new(ints: Vec<u64>, doubles: Vec<f64>, strs: Vec<Vec<u8>>) -> VecArgs {
        VecArgs {
            ints,
            doubles,
            strs,
            ..VecArgs::default()
        }
    }
}

impl PrintfArgs for VecArgs {
    fn next_int(&mut self) -> u64 {
        let v = self.ints.get(self.int_pos).copied().unwrap_or(0);
        self.int_pos += 1;
        v
    }
    fn next_double(&mut self) -> f64 {
        let v = self.doubles.get(self.double_pos).copied().unwrap_or(0.0);
        self.double_pos += 1;
        v
    }
    fn next_str(&mut self) -> Option<Vec<u8>> {
        let v = self.strs.get(self.str_pos).cloned();
        self.str_pos += 1;
        v
    }
}

/// Length modifier of a conversion (printf and scanf).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Length {
    /// none
    Default,
    /// `hh`
    Char,
    /// `h`
    Short,
    /// `l`
    Long,
    /// `ll`, `q`, `I64` (MSVC)
    LongLong,
    /// `L`
    LongDouble,
    /// `j`
    IntMax,
    /// `z`, `Z`
    Size,
    /// `t`
    PtrDiff,
}

impl Length {
    /// Integer bit width this modifier selects for integer conversions on x86-64.
    pub fn int_bits(self) -> u32 {
        match self {
            Length::Char => 8,
            Length::Short => 16,
            Length::Default => 32,
            _ => 64,
        }
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct Flags {
    minus: bool,
    plus: bool,
    space: bool,
    hash: bool,
    zero: bool,
    quote: bool,
    i18n: bool,
}

impl Flags {
    /// The sign a converted number starts with: `-` when negative, else what `+` or
    /// space asks for.
    fn sign(&self, negative: bool) -> &'static [u8] {
        if negative {
            b"-"
        } else if self.plus {
            b"+"
        } else if self.space {
            b" "
        } else {
            b""
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct PSpec {
    flags: Flags,
    width: usize,
    prec: Option<usize>,
    len: Length,
    conv: u8,
}

fn check_field(v: u64) -> Result<usize, FormatError> {
    if v > MAX_FIELD as u64 {
        Err(FormatError::TooWide(v))
    } else {
        Ok(v as usize)
    }
}

/// Parses decimal digits at `*i`, saturating; returns None if there are none.
fn parse_num(f: &[u8], i: &mut usize) -> Option<u64> {
    let start = *i;
    let mut v: u64 = 0;
    while let Some(&c) = f.get(*i) {
        if !c.is_ascii_digit() {
            break;
        }
        v = v.saturating_mul(10).saturating_add(u64::from(c - b'0'));
        *i += 1;
    }
    (*i > start).then_some(v)
}

/// Parses a length modifier at `*i` (shared by printf and scanf).
fn parse_length(f: &[u8], i: &mut usize) -> Length {
    let at = |k: usize| f.get(*i + k).copied();
    let (len, n) = match (at(0), at(1), at(2)) {
        (Some(b'h'), Some(b'h'), _) => (Length::Char, 2),
        (Some(b'h'), _, _) => (Length::Short, 1),
        (Some(b'l'), Some(b'l'), _) => (Length::LongLong, 2),
        (Some(b'l'), _, _) => (Length::Long, 1),
        (Some(b'q'), _, _) => (Length::LongLong, 1),
        (Some(b'L'), _, _) => (Length::LongDouble, 1),
        (Some(b'j'), _, _) => (Length::IntMax, 1),
        (Some(b'z' | b'Z'), _, _) => (Length::Size, 1),
        (Some(b't'), _, _) => (Length::PtrDiff, 1),
        (Some(b'I'), Some(b'6'), Some(b'4')) => (Length::LongLong, 3),
        (Some(b'I'), Some(b'3'), Some(b'2')) => (Length::Default, 3),
        _ => (Length::Default, 0),
    };
    *i += n;
    len
}

/// One conversion of a format string: where its length modifier is (empty when it has
/// none), what it selects, and the conversion character.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conversion {
    /// Byte range of the length modifier in the format.
    pub length_at: std::ops::Range<usize>,
    /// The length modifier.
    pub length: Length,
    /// The conversion character (`d`, `f`, `[`, ...).
    pub conv: u8,
}

/// The conversions of a printf or scanf format, in order (`%%` left out): what an edit
/// that changes a conversion's length works on.
pub fn conversions(format: &[u8]) -> Vec<Conversion> {
    let f = format;
    let mut out = Vec::new();
    let mut i = 0;
    while i < f.len() {
        if f[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        // Flags, `*` (a printf width or scanf's assignment suppression), width, precision.
        while let Some(&c) = f.get(i) {
            let flag = matches!(c, b'-' | b'+' | b' ' | b'#' | b'\'' | b'*')
                || c.is_ascii_digit()
                || (c == b'I' && !is_ms_size(f, i));
            if !flag {
                break;
            }
            i += 1;
        }
        if f.get(i) == Some(&b'.') {
            i += 1;
            if f.get(i) == Some(&b'*') {
                i += 1;
            }
            parse_num(f, &mut i);
        }
        let start = i;
        let length = parse_length(f, &mut i);
        let Some(&conv) = f.get(i) else {
            break;
        };
        let length_at = start..i;
        i += 1;
        if conv == b'[' {
            // A scan set: `]` right after `[` or `[^` belongs to the set.
            if f.get(i) == Some(&b'^') {
                i += 1;
            }
            if f.get(i) == Some(&b']') {
                i += 1;
            }
            while f.get(i).is_some_and(|&c| c != b']') {
                i += 1;
            }
            i += 1;
        }
        if conv != b'%' {
            out.push(Conversion {
                length_at,
                length,
                conv,
            });
        }
    }
    out
}

fn is_ms_size(f: &[u8], i: usize) -> bool {
    f.get(i) == Some(&b'I') && matches!(f.get(i + 1..i + 3), Some(b"64") | Some(b"32"))
}

/// Formats like glibc printf, appending to `out`; returns the number of bytes written
/// (printf's return value), or an error for a conversion we do not support.
///
/// Supported: `%d %i %u %o %x %X %c %s %p %f %F %e %E %g %G %a %A %%` with flags `- + space # 0 ' I`,
/// widths and precisions as numbers or `*`, length modifiers `hh h l ll L q j z Z t I64 I32`.
/// An unknown conversion character is printed back like glibc does (`%-5.3ly` -> `%-5.3y`).
/// On error, text before the failing conversion has already been appended to `out`.
pub fn printf(
    format: &[u8],
    args: &mut dyn PrintfArgs,
    out: &mut Vec<u8>,
) -> Result<usize, FormatError> {
    let start_len = out.len();
    let f = format;
    let mut i = 0;
    while i < f.len() {
        let c = f[i];
        if c != b'%' {
            // Copy the run of literal text at once.
            let end = f[i..]
                .iter()
                .position(|&b| b == b'%')
                .map_or(f.len(), |p| i + p);
            out.extend_from_slice(&f[i..end]);
            i = end;
            continue;
        }
        i += 1;
        let mut flags = Flags::default();
        loop {
            match f.get(i) {
                Some(b'-') => flags.minus = true,
                Some(b'+') => flags.plus = true,
                Some(b' ') => flags.space = true,
                Some(b'#') => flags.hash = true,
                Some(b'0') => flags.zero = true,
                Some(b'\'') => flags.quote = true,
                Some(b'I') if !is_ms_size(f, i) => flags.i18n = true,
                _ => break,
            }
            i += 1;
        }
        // glibc: a '-' flag character cancels '0' (a negative `*` width does not).
        if flags.minus {
            flags.zero = false;
        }
        let mut width = 0usize;
        if f.get(i) == Some(&b'*') {
            i += 1;
            if parse_num(f, &mut { i }).is_some() {
                return Err(FormatError::Unsupported("*n$".into()));
            }
            let w = args.next_int() as u32 as i32;
            if w < 0 {
                flags.minus = true;
            }
            width = check_field(u64::from(w.unsigned_abs()))?;
        } else if let Some(w) = parse_num(f, &mut i) {
            if f.get(i) == Some(&b'$') {
                return Err(FormatError::Unsupported("n$ (positional argument)".into()));
            }
            width = check_field(w)?;
        }
        let mut prec = None;
        if f.get(i) == Some(&b'.') {
            i += 1;
            if f.get(i) == Some(&b'*') {
                i += 1;
                let p = args.next_int() as u32 as i32;
                if p >= 0 {
                    prec = Some(check_field(p as u64)?);
                }
            } else {
                prec = Some(check_field(parse_num(f, &mut i).unwrap_or(0))?);
            }
        }
        let len = parse_length(f, &mut i);
        let Some(&conv) = f.get(i) else {
            return Err(FormatError::Incomplete {
                written: out.len() - start_len,
            });
        };
        i += 1;
        let spec = PSpec {
            flags,
            width,
            prec,
            len,
            conv,
        };
        format_one(&spec, args, out)?;
    }
    Ok(out.len() - start_len)
}

fn format_one(s: &PSpec, args: &mut dyn PrintfArgs, out: &mut Vec<u8>) -> Result<(), FormatError> {
    match s.conv {
        b'%' => out.push(b'%'),
        b'd' | b'i' => {
            let raw = args.next_int();
            let v: i64 = match s.len.int_bits() {
                8 => i64::from(raw as u8 as i8),
                16 => i64::from(raw as u16 as i16),
                32 => i64::from(raw as u32 as i32),
                _ => raw as i64,
            };
            let mut buf = [0u8; 24];
            let digits = to_radix(v.unsigned_abs(), 10, false, &mut buf);
            let sign = s.flags.sign(v < 0);
            emit_int(s, sign, b"", digits, v == 0, out);
        }
        b'u' | b'o' | b'x' | b'X' => {
            let raw = args.next_int();
            let v = truncate_unsigned(raw, s.len);
            let radix = match s.conv {
                b'u' => 10,
                b'o' => 8,
                _ => 16,
            };
            let mut buf = [0u8; 24];
            let digits = to_radix(v, radix, s.conv == b'X', &mut buf);
            let prefix: &[u8] = match (s.conv, s.flags.hash && v != 0) {
                (b'x', true) => b"0x",
                (b'X', true) => b"0X",
                _ => b"",
            };
            emit_int(s, b"", prefix, digits, v == 0, out);
        }
        b'p' => {
            let v = args.next_int();
            if v == 0 {
                pad_str(s, b"(nil)", out);
            } else {
                let mut buf = [0u8; 24];
                let digits = to_radix(v, 16, false, &mut buf);
                let sign = s.flags.sign(false);
                emit_int(s, sign, b"0x", digits, false, out);
            }
        }
        b'c' => {
            if s.len == Length::Long {
                return Err(FormatError::Unsupported("lc".into()));
            }
            let b = args.next_int() as u8;
            pad_str(s, &[b], out);
        }
        b's' => {
            if s.len == Length::Long {
                return Err(FormatError::Unsupported("ls".into()));
            }
            let bytes = args.next_str().ok_or(FormatError::BadString)?;
            let n = s.prec.map_or(bytes.len(), |p| p.min(bytes.len()));
            pad_str(s, &bytes[..n], out);
        }
        b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
            let x = args.next_double();
            format_float(s, x, out);
        }
        b'n' | b'm' | b'C' | b'S' => {
            return Err(FormatError::Unsupported((s.conv as char).to_string()));
        }
        _ => {
            // glibc's printf_unknown: '%', flags in its fixed order (`#'+ -0I`, `+` hiding space), width, precision, the char; length modifiers are dropped.
            out.push(b'%');
            let fl = &s.flags;
            for (on, ch) in [
                (fl.hash, b'#'),
                (fl.quote, b'\''),
                (fl.plus, b'+'),
                (fl.space && !fl.plus, b' '),
                (fl.minus, b'-'),
                (fl.zero, b'0'),
                (fl.i18n, b'I'),
            ] {
                if on {
                    out.push(ch);
                }
            }
            if s.width != 0 {
                out.extend_from_slice(s.width.to_string().as_bytes());
            }
            if let Some(p) = s.prec {
                out.push(b'.');
                out.extend_from_slice(p.to_string().as_bytes());
            }
            out.push(s.conv);
        }
    }
    Ok(())
}

fn truncate_unsigned(raw: u64, len: Length) -> u64 {
    match len.int_bits() {
        8 => raw & 0xff,
        16 => raw & 0xffff,
        32 => raw & 0xffff_ffff,
        _ => raw,
    }
}

/// Writes the digits of `v` in `radix` into the end of `buf` and returns them.
fn to_radix(mut v: u64, radix: u64, upper: bool, buf: &mut [u8; 24]) -> &[u8] {
    let table: &[u8; 16] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    let mut pos = buf.len();
    loop {
        pos -= 1;
        buf[pos] = table[(v % radix) as usize];
        v /= radix;
        if v == 0 {
            break;
        }
    }
    &buf[pos..]
}

/// Integer output: sign, prefix, precision zeros, digits, padded to the width.
fn emit_int(s: &PSpec, sign: &[u8], prefix: &[u8], digits: &[u8], zero: bool, out: &mut Vec<u8>) {
    let digits: &[u8] = if zero && s.prec == Some(0) {
        b""
    } else {
        digits
    };
    let mut lead_zeros = s.prec.map_or(0, |p| p.saturating_sub(digits.len()));
    if s.conv == b'o' && s.flags.hash && lead_zeros == 0 && digits.first() != Some(&b'0') {
        lead_zeros = 1;
    }
    let body = sign.len() + prefix.len() + lead_zeros + digits.len();
    let pad = s.width.saturating_sub(body);
    if s.flags.minus {
        out.extend_from_slice(sign);
        out.extend_from_slice(prefix);
        out.resize(out.len() + lead_zeros, b'0');
        out.extend_from_slice(digits);
        out.resize(out.len() + pad, b' ');
    } else if s.flags.zero && s.prec.is_none() {
        out.extend_from_slice(sign);
        out.extend_from_slice(prefix);
        out.resize(out.len() + pad + lead_zeros, b'0');
        out.extend_from_slice(digits);
    } else {
        out.resize(out.len() + pad, b' ');
        out.extend_from_slice(sign);
        out.extend_from_slice(prefix);
        out.resize(out.len() + lead_zeros, b'0');
        out.extend_from_slice(digits);
    }
}

/// A string padded with spaces to the width (`%s`, `%c`, `(nil)`); glibc ignores `0` here.
fn pad_str(s: &PSpec, bytes: &[u8], out: &mut Vec<u8>) {
    let pad = s.width.saturating_sub(bytes.len());
    if s.flags.minus {
        out.extend_from_slice(bytes);
        out.resize(out.len() + pad, b' ');
    } else {
        out.resize(out.len() + pad, b' ');
        out.extend_from_slice(bytes);
    }
}

/// Pads a float body: `zero_ok` false for inf/nan (glibc pads those with spaces).
fn emit_float(
    s: &PSpec,
    sign: &[u8],
    prefix: &[u8],
    body: &[u8],
    zero_ok: bool,
    out: &mut Vec<u8>,
) {
    let len = sign.len() + prefix.len() + body.len();
    let pad = s.width.saturating_sub(len);
    if s.flags.minus {
        out.extend_from_slice(sign);
        out.extend_from_slice(prefix);
        out.extend_from_slice(body);
        out.resize(out.len() + pad, b' ');
    } else if s.flags.zero && zero_ok {
        out.extend_from_slice(sign);
        out.extend_from_slice(prefix);
        out.resize(out.len() + pad, b'0');
        out.extend_from_slice(body);
    } else {
        out.resize(out.len() + pad, b' ');
        out.extend_from_slice(sign);
        out.extend_from_slice(prefix);
        out.extend_from_slice(body);
    }
}

fn format_float(s: &PSpec, x: f64, out: &mut Vec<u8>) {
    let upper = s.conv.is_ascii_uppercase();
    let sign = s.flags.sign(x.is_sign_negative());
    if !x.is_finite() {
        let body: &[u8] = match (x.is_nan(), upper) {
            (true, false) => b"nan",
            (true, true) => b"NAN",
            (false, false) => b"inf",
            (false, true) => b"INF",
        };
        emit_float(s, sign, b"", body, false, out);
        return;
    }
    let a = x.abs();
    let mut body = String::new();
    let conv = s.conv.to_ascii_lowercase();
    match conv {
        b'f' => fixed(&mut body, a, s.prec.unwrap_or(6), s.flags.hash),
        b'e' => expo(&mut body, a, s.prec.unwrap_or(6), s.flags.hash, upper),
        b'g' => {
            let p = match s.prec {
                None => 6,
                Some(0) => 1,
                Some(p) => p,
            };
            let x_exp = if a == 0.0 {
                0
            } else {
                decimal_exponent(a, p - 1)
            };
            if s.flags.hash && x_exp == p as i64 && format!("{:.0}", a.floor()).len() == p {
                // glibc quirk: when rounding carries a P-digit integer part to P+1 digits
                // (`%#g` of 999999.5), glibc switches to %e but keeps the 0 fraction digits
                // of the %f form it had chosen: "1.e+06", not "1.00000e+06".
                expo(&mut body, a, 0, true, upper);
            } else if x_exp < p as i64 && x_exp >= -4 {
                let fp = (p as i64 - 1 - x_exp) as usize;
                fixed(&mut body, a, fp, s.flags.hash);
            } else {
                expo(&mut body, a, p - 1, s.flags.hash, upper);
            }
            if !s.flags.hash {
                strip_zeros(&mut body);
            }
        }
        _ => {
            hex_float(&mut body, a, s.prec, s.flags.hash, upper);
            let prefix: &[u8] = if upper { b"0X" } else { b"0x" };
            emit_float(s, sign, prefix, body.as_bytes(), true, out);
            return;
        }
    }
    emit_float(s, sign, b"", body.as_bytes(), true, out);
}

/// `%f` body of a finite non-negative value: Rust's exact formatting (round-half-even on ties).
fn fixed(body: &mut String, a: f64, prec: usize, hash: bool) {
    let _ = write!(body, "{a:.prec$}");
    if hash && prec == 0 {
        body.push('.');
    }
}

/// Decimal exponent of `a` (> 0) after rounding to `prec + 1` significant digits.
fn decimal_exponent(a: f64, prec: usize) -> i64 {
    let s = format!("{a:.prec$e}");
    s.rsplit_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0)
}

/// `%e` body: mantissa from Rust's exact `{:e}`, exponent in C's sign-and-two-digits form.
fn expo(body: &mut String, a: f64, prec: usize, hash: bool, upper: bool) {
    let s = format!("{a:.prec$e}");
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    body.push_str(mant);
    if hash && prec == 0 {
        body.push('.');
    }
    let e: i64 = exp.parse().unwrap_or(0);
    body.push(if upper { 'E' } else { 'e' });
    body.push(if e < 0 { '-' } else { '+' });
    let _ = write!(body, "{:02}", e.unsigned_abs());
}

/// `%g` without `#`: drop trailing zeros of the fraction, and the point if nothing is left.
fn strip_zeros(body: &mut String) {
    let (mant_end, tail) = match body.find(['e', 'E']) {
        Some(p) => (p, body[p..].to_string()),
        None => (body.len(), String::new()),
    };
    let mant = &body[..mant_end];
    if !mant.contains('.') {
        return;
    }
    let trimmed = mant.trim_end_matches('0').trim_end_matches('.').to_string();
    *body = trimmed + &tail;
}

/// `%a` body after the `0x` prefix, as glibc prints doubles (subnormals as `0x0.xxxp-1022`).
fn hex_float(body: &mut String, a: f64, prec: Option<usize>, hash: bool, upper: bool) {
    let bits = a.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    let (mut lead, exp) = if biased == 0 {
        (0u64, if frac == 0 { 0 } else { -1022 })
    } else {
        (1u64, biased - 1023)
    };
    // 13 hex digits of fraction.
    let mut digits: Vec<u8> = (0..13)
        .map(|k| ((frac >> (48 - 4 * k)) & 0xf) as u8)
        .collect();
    match prec {
        None => {
            while digits.last() == Some(&0) {
                digits.pop();
            }
        }
        Some(p) if p < 13 => {
            // Round half to even at hex digit p.
            let first = digits[p];
            let rest_nonzero = digits[p + 1..].iter().any(|&d| d != 0);
            let last_odd = if p == 0 {
                lead & 1 == 1
            } else {
                digits[p - 1] & 1 == 1
            };
            digits.truncate(p);
            if first > 8 || (first == 8 && (rest_nonzero || last_odd)) {
                let mut k = p;
                let mut carry = true;
                while carry && k > 0 {
                    k -= 1;
                    if digits[k] == 15 {
                        digits[k] = 0;
                    } else {
                        digits[k] += 1;
                        carry = false;
                    }
                }
                if carry {
                    lead += 1;
                }
            }
        }
        Some(p) => digits.resize(p, 0),
    }
    let table: &[u8; 16] = if upper {
        b"0123456789ABCDEF"
    } else {
        b"0123456789abcdef"
    };
    body.push(table[lead as usize] as char);
    if !digits.is_empty() || hash {
        body.push('.');
    }
    for d in digits {
        body.push(table[d as usize] as char);
    }
    body.push(if upper { 'P' } else { 'p' });
    let _ = write!(
        body,
        "{}{}",
        if exp < 0 { '-' } else { '+' },
        exp.unsigned_abs()
    );
}

// ---------------------------------------------------------------------------------------------
// scanf
// ---------------------------------------------------------------------------------------------

/// The program's stdin with a read cursor, shared by scanf, getchar, gets, fgets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Input {
    bytes: Vec<u8>,
    pos: usize,
}

/// C's `EOF` inside the scanner (mirrors glibc's `inchar`/`ungetc` protocol).
const EOF: i32 = -1;

impl Input {
    /// Input over the given bytes, cursor at the start.
    pub fn new(bytes: Vec<u8>) -> Input {
        Input { bytes, pos: 0 }
    }

    /// Reads one byte; None = EOF.
    pub fn getchar(&mut self) -> Option<u8> {
        let b = self.bytes.get(self.pos).copied()?;
        self.pos += 1;
        Some(b)
    }

    /// The next byte without consuming it; None = EOF.
    pub fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// C `ungetc` of the byte just read: moves the cursor back by one (no-op at the start).
    pub fn unget(&mut self) {
        self.pos = self.pos.saturating_sub(1);
    }

    /// A line without its '\n' (the '\n' is consumed); None at EOF with nothing read.
    pub fn gets(&mut self) -> Option<Vec<u8>> {
        if self.at_eof() {
            return None;
        }
        let rest = &self.bytes[self.pos..];
        match rest.iter().position(|&b| b == b'\n') {
            Some(n) => {
                let line = rest[..n].to_vec();
                self.pos += n + 1;
                Some(line)
            }
            None => {
                let line = rest.to_vec();
                self.pos = self.bytes.len();
                Some(line)
            }
        }
    }

    /// C fgets semantics: at most `max - 1` bytes, stops after (and keeps) a '\n'.
    /// None at EOF with nothing read or for `max == 0`; `max == 1` gives an empty line.
    pub fn fgets(&mut self, max: usize) -> Option<Vec<u8>> {
        if max == 0 {
            return None;
        }
        if max == 1 {
            return Some(Vec::new());
        }
        if self.at_eof() {
            return None;
        }
        let rest = &self.bytes[self.pos..];
        let limit = rest.len().min(max - 1);
        let n = rest[..limit]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(limit, |p| p + 1);
        let line = rest[..n].to_vec();
        self.pos += n;
        Some(line)
    }

    /// True when every byte has been read.
    pub fn at_eof(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    /// Number of bytes consumed so far.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The bytes not read yet.
    pub fn remaining(&self) -> &[u8] {
        &self.bytes[self.pos.min(self.bytes.len())..]
    }

    fn inchar(&mut self) -> i32 {
        match self.getchar() {
            Some(b) => i32::from(b),
            None => EOF,
        }
    }

    fn ungetc(&mut self, c: i32) {
        if c != EOF {
            self.unget();
        }
    }
}

/// One converted value, handed to the interpreter to store through the next pointer argument.
#[derive(Debug, Clone, PartialEq)]
pub enum ScanValue {
    /// Integer conversions and `%n`: raw bits of the `long`/`unsigned long` result (signed
    /// conversions sign-extended); the interpreter truncates to the destination type.
    Int(u64),
    /// Float conversions. Without `l`/`L` (a `float` destination) the value is already rounded
    /// to f32 directly from the decimal text like glibc's strtof, so converting it to f32 is exact.
    Float(f64),
    /// `%s`, `%c`, `%[`: the bytes read (the interpreter adds the NUL for `%s` and `%[`).
    Bytes(Vec<u8>),
}

/// A scanf conversion as seen by the store callback (to check the destination type).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanSpec {
    /// Conversion character: `d i u o x X p f e g a E G F A s c [ n`.
    pub conv: u8,
    /// Length modifier.
    pub len: Length,
    /// Field width, if given.
    pub width: Option<usize>,
}

impl ScanSpec {
    /// True for conversions storing through an integer pointer (`%d %i %u %o %x %X %p %n`).
    pub fn is_int(&self) -> bool {
        matches!(
            self.conv,
            b'd' | b'i' | b'u' | b'o' | b'x' | b'X' | b'p' | b'n'
        )
    }
    /// True for conversions storing through a float pointer.
    pub fn is_float(&self) -> bool {
        matches!(
            self.conv,
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A'
        )
    }
    /// True for conversions storing bytes through a char pointer (`%s %c %[`).
    pub fn is_bytes(&self) -> bool {
        matches!(self.conv, b's' | b'c' | b'[')
    }
    /// True when the destination is a `double` (`%lf`) or `long double` (`%Lf`) rather than `float`.
    pub fn is_double(&self) -> bool {
        matches!(
            self.len,
            Length::Long | Length::LongLong | Length::LongDouble
        )
    }
}

fn is_space(c: i32) -> bool {
    matches!(c, 0x20 | 0x09..=0x0d)
}

enum Stop {
    /// Input failure: scanf returns EOF if nothing was assigned yet.
    Input,
    /// Matching failure: scanf returns the count so far.
    Matching,
}

/// Runs glibc's scanf algorithm over `input`; calls `store(spec, value)` for each assigned
/// conversion in order (not for `%*d` suppressed ones); returns scanf's return value (number
/// assigned, or -1 = EOF when input ends before the first conversion).
///
/// The scanning follows glibc's `vfscanf` step by step, including what it consumes on failure
/// (one character of lookahead is pushed back; a lone sign, `0x`, `1e`, `inf`+junk stay consumed).
/// The callback's error type only needs `From<FormatError>`; its errors stop scanning and are
/// returned unchanged. Unsupported: positional `%1$d`, `%m`/`%a` allocation, wide `%lc %ls %l[`.
pub fn scanf<E: From<FormatError>>(
    format: &[u8],
    input: &mut Input,
    store: &mut dyn FnMut(&ScanSpec, ScanValue) -> Result<(), E>,
) -> Result<i32, E> {
    let mut done = 0i32;
    match scan_loop(format, input, store, &mut done)? {
        None => Ok(done),
        Some(Stop::Matching) => Ok(done),
        Some(Stop::Input) => Ok(if done == 0 { -1 } else { done }),
    }
}

fn scan_loop<E: From<FormatError>>(
    f: &[u8],
    input: &mut Input,
    store: &mut dyn FnMut(&ScanSpec, ScanValue) -> Result<(), E>,
    done: &mut i32,
) -> Result<Option<Stop>, E> {
    let start = input.pos;
    let mut skip_space = false;
    let mut i = 0;
    while i < f.len() {
        let fc = f[i];
        i += 1;
        if fc != b'%' {
            if is_space(i32::from(fc)) {
                skip_space = true;
                continue;
            }
            let mut c = input.inchar();
            if c == EOF {
                return Ok(Some(Stop::Input));
            }
            if skip_space {
                while is_space(c) {
                    c = input.inchar();
                    if c == EOF {
                        return Ok(Some(Stop::Input));
                    }
                }
                skip_space = false;
            }
            if c != i32::from(fc) {
                input.ungetc(c);
                return Ok(Some(Stop::Matching));
            }
            continue;
        }
        // Conversion specification.
        let mut suppress = false;
        let mut width: i64 = -1;
        let save = i;
        if let Some(n) = parse_num(f, &mut i) {
            if f.get(i) == Some(&b'$') {
                return Err(FormatError::Unsupported("n$ (positional argument)".into()).into());
            }
            width = n.min(i64::MAX as u64) as i64;
        } else {
            i = save;
            loop {
                match f.get(i) {
                    Some(b'*') => suppress = true,
                    Some(b'\'') => {}
                    Some(b'I') if !is_ms_size(f, i) => {}
                    _ => break,
                }
                i += 1;
            }
            if let Some(n) = parse_num(f, &mut i) {
                width = n.min(i64::MAX as u64) as i64;
            }
        }
        if width == 0 {
            width = -1;
        }
        let len = parse_length(f, &mut i);
        if matches!(f.get(i), Some(b'm')) {
            return Err(FormatError::Unsupported("m (allocating conversion)".into()).into());
        }
        let Some(&conv) = f.get(i) else {
            return Ok(Some(Stop::Matching));
        };
        i += 1;
        if skip_space || !matches!(conv, b'[' | b'c' | b'C' | b'n') {
            loop {
                let c = input.inchar();
                if !is_space(c) {
                    input.ungetc(c);
                    break;
                }
            }
            skip_space = false;
        }
        let spec = ScanSpec {
            conv,
            len,
            width: (width > 0).then_some(width as usize),
        };
        let value = match conv {
            b'%' => {
                let c = input.inchar();
                if c == EOF {
                    return Ok(Some(Stop::Input));
                }
                if c != i32::from(b'%') {
                    input.ungetc(c);
                    return Ok(Some(Stop::Matching));
                }
                continue;
            }
            b'n' => {
                if !suppress {
                    store(&spec, ScanValue::Int((input.pos - start) as u64))?;
                }
                continue;
            }
            b'c' => {
                if len == Length::Long {
                    return Err(FormatError::Unsupported("lc".into()).into());
                }
                let mut w = if width == -1 { 1 } else { width };
                let c = input.inchar();
                if c == EOF {
                    return Ok(Some(Stop::Input));
                }
                let mut bytes = vec![c as u8];
                while {
                    w -= 1;
                    w > 0
                } {
                    match input.getchar() {
                        Some(b) => bytes.push(b),
                        None => break,
                    }
                }
                ScanValue::Bytes(bytes)
            }
            b's' => {
                if len == Length::Long {
                    return Err(FormatError::Unsupported("ls".into()).into());
                }
                let mut c = input.inchar();
                if c == EOF {
                    return Ok(Some(Stop::Input));
                }
                let mut bytes = Vec::new();
                loop {
                    if is_space(c) {
                        input.ungetc(c);
                        break;
                    }
                    bytes.push(c as u8);
                    if width > 0 {
                        width -= 1;
                        if width == 0 {
                            break;
                        }
                    }
                    c = input.inchar();
                    if c == EOF {
                        break;
                    }
                }
                ScanValue::Bytes(bytes)
            }
            b'[' => {
                if len == Length::Long {
                    return Err(FormatError::Unsupported("l[".into()).into());
                }
                let mut set = [false; 256];
                let mut not_in = false;
                if f.get(i) == Some(&b'^') {
                    not_in = true;
                    i += 1;
                }
                if let Some(&c @ (b']' | b'-')) = f.get(i) {
                    set[usize::from(c)] = true;
                    i += 1;
                }
                let mut closed = false;
                while let Some(&fc) = f.get(i) {
                    i += 1;
                    if fc == b']' {
                        closed = true;
                        break;
                    }
                    let next = f.get(i).copied();
                    match next {
                        Some(hi) if fc == b'-' && hi != b']' && i >= 2 && f[i - 2] <= hi => {
                            for b in f[i - 2]..hi {
                                set[usize::from(b)] = true;
                            }
                        }
                        _ => set[usize::from(fc)] = true,
                    }
                }
                if !closed {
                    return Ok(Some(Stop::Matching));
                }
                let mut w = if width == -1 { i64::MAX } else { width };
                let mut c = input.inchar();
                if c == EOF {
                    return Ok(Some(Stop::Input));
                }
                let mut bytes = Vec::new();
                loop {
                    if set[(c & 0xff) as usize] == not_in {
                        input.ungetc(c);
                        break;
                    }
                    bytes.push(c as u8);
                    w -= 1;
                    if w <= 0 {
                        break;
                    }
                    c = input.inchar();
                    if c == EOF {
                        break;
                    }
                }
                if bytes.is_empty() {
                    return Ok(Some(Stop::Matching));
                }
                ScanValue::Bytes(bytes)
            }
            b'd' | b'i' | b'u' | b'o' | b'x' | b'X' | b'p' => {
                let (base, signed) = match conv {
                    b'd' => (10, true),
                    b'i' => (0, true),
                    b'u' => (10, false),
                    b'o' => (8, false),
                    _ => (16, false),
                };
                match scan_int(input, width, base, signed) {
                    Ok(v) => ScanValue::Int(v),
                    Err(stop) => return Ok(Some(stop)),
                }
            }
            b'e' | b'E' | b'f' | b'F' | b'g' | b'G' | b'a' | b'A' => {
                let double = matches!(len, Length::Long | Length::LongLong | Length::LongDouble);
                match scan_float(input, width, double) {
                    Ok(v) => ScanValue::Float(v),
                    Err(stop) => return Ok(Some(stop)),
                }
            }
            b'C' | b'S' => {
                return Err(FormatError::Unsupported((conv as char).to_string()).into());
            }
            _ => return Ok(Some(Stop::Matching)),
        };
        if !suppress {
            store(&spec, value)?;
            *done += 1;
        }
    }
    if skip_space {
        loop {
            let c = input.inchar();
            if !is_space(c) {
                input.ungetc(c);
                break;
            }
        }
    }
    Ok(None)
}

/// glibc's integer scanning (`number:` in vfscanf) followed by strtol/strtoul on the text read.
fn scan_int(input: &mut Input, mut width: i64, mut base: u32, signed: bool) -> Result<u64, Stop> {
    let mut buf: Vec<u8> = Vec::new();
    let mut c = input.inchar();
    if c == EOF {
        return Err(Stop::Input);
    }
    if c == i32::from(b'-') || c == i32::from(b'+') {
        buf.push(c as u8);
        if width > 0 {
            width -= 1;
        }
        c = input.inchar();
    }
    if width != 0 && c == i32::from(b'0') {
        if width > 0 {
            width -= 1;
        }
        buf.push(b'0');
        c = input.inchar();
        if width != 0 && (c == i32::from(b'x') || c == i32::from(b'X')) {
            if base == 0 {
                base = 16;
            }
            if base == 16 {
                if width > 0 {
                    width -= 1;
                }
                c = input.inchar();
            }
        } else if base == 0 {
            base = 8;
        }
    }
    if base == 0 {
        base = 10;
    }
    while c != EOF && width != 0 {
        let ok = c < 128 && (c as u8 as char).is_digit(base);
        if !ok {
            break;
        }
        buf.push(c as u8);
        if width > 0 {
            width -= 1;
        }
        c = input.inchar();
    }
    if buf.is_empty() || (buf.len() == 1 && (buf[0] == b'+' || buf[0] == b'-')) {
        input.ungetc(c);
        return Err(Stop::Matching);
    }
    input.ungetc(c);
    Ok(strtol(&buf, base, signed))
}

/// strtol (signed) / strtoul (unsigned) on a buffer of `[sign]digits`, saturating like glibc.
pub(crate) fn strtol(buf: &[u8], base: u32, signed: bool) -> u64 {
    let (neg, digits) = match buf.first() {
        Some(b'-') => (true, &buf[1..]),
        Some(b'+') => (false, &buf[1..]),
        _ => (false, buf),
    };
    let mut mag: u64 = 0;
    let mut overflow = false;
    for &d in digits {
        let v = u64::from((d as char).to_digit(base).unwrap_or(0));
        match mag
            .checked_mul(u64::from(base))
            .and_then(|m| m.checked_add(v))
        {
            Some(m) => mag = m,
            None => overflow = true,
        }
    }
    if signed {
        if neg {
            if overflow || mag > 1u64 << 63 {
                i64::MIN as u64
            } else {
                mag.wrapping_neg()
            }
        } else if overflow || mag > i64::MAX as u64 {
            i64::MAX as u64
        } else {
            mag
        }
    } else if overflow {
        u64::MAX
    } else if neg {
        mag.wrapping_neg()
    } else {
        mag
    }
}

/// Float scanning of `nan`/`inf`/`infinity`: pushes the letter in `c`, then reads and checks the
/// letters of `word`, pushing each; false on a mismatch (the mismatching byte stays consumed).
fn expect_word(
    input: &mut Input,
    buf: &mut Vec<u8>,
    c: &mut i32,
    width: &mut i64,
    word: &[u8],
) -> bool {
    for &w in word {
        buf.push(*c as u8);
        if *width == 0 {
            return false;
        }
        *c = input.inchar();
        if *c == EOF || to_lower(*c) != i32::from(w) {
            return false;
        }
        if *width > 0 {
            *width -= 1;
        }
    }
    buf.push(*c as u8);
    true
}

fn to_lower(c: i32) -> i32 {
    if (65..=90).contains(&c) {
        c + 32
    } else {
        c
    }
}

/// glibc's float scanning (vfscanf) followed by strtod/strtof on the text read.
fn scan_float(input: &mut Input, mut width: i64, double: bool) -> Result<f64, Stop> {
    let lower = to_lower;
    let mut buf: Vec<u8> = Vec::new();
    let mut c = input.inchar();
    if width > 0 {
        width -= 1;
    }
    if c == EOF {
        return Err(Stop::Input);
    }
    let mut got_sign = 0;
    if c == i32::from(b'-') || c == i32::from(b'+') {
        got_sign = 1;
        buf.push(c as u8);
        if width == 0 {
            return Err(Stop::Matching);
        }
        c = input.inchar();
        if c == EOF {
            return Err(Stop::Matching);
        }
        if width > 0 {
            width -= 1;
        }
    }
    if lower(c) == i32::from(b'n') {
        if !expect_word(input, &mut buf, &mut c, &mut width, b"an") {
            return Err(Stop::Matching);
        }
        return finish_float(&buf, double);
    }
    if lower(c) == i32::from(b'i') {
        if !expect_word(input, &mut buf, &mut c, &mut width, b"nf") {
            return Err(Stop::Matching);
        }
        if width != 0 {
            c = input.inchar();
            if c != EOF {
                if lower(c) == i32::from(b'i') {
                    if width > 0 {
                        width -= 1;
                    }
                    if !expect_word(input, &mut buf, &mut c, &mut width, b"nity") {
                        return Err(Stop::Matching);
                    }
                } else {
                    input.ungetc(c);
                }
            }
        }
        return finish_float(&buf, double);
    }
    let mut exp_char = i32::from(b'e');
    let mut hexa = false;
    let mut got_digit = false;
    let mut got_dot = false;
    let mut got_e = false;
    if width != 0 && c == i32::from(b'0') {
        buf.push(b'0');
        c = input.inchar();
        if width > 0 {
            width -= 1;
        }
        if width != 0 && lower(c) == i32::from(b'x') {
            buf.push(c as u8);
            hexa = true;
            exp_char = i32::from(b'p');
            c = input.inchar();
            if width > 0 {
                width -= 1;
            }
        } else {
            got_digit = true;
        }
    }
    loop {
        let is_digit = (48..=57).contains(&c);
        let is_xdigit = is_digit || (97..=102).contains(&lower(c));
        if is_digit || (!got_e && hexa && is_xdigit) {
            buf.push(c as u8);
            got_digit = true;
        } else if got_e
            && buf.last().map(|&b| i32::from(b)) == Some(exp_char)
            && (c == i32::from(b'-') || c == i32::from(b'+'))
        {
            buf.push(c as u8);
        } else if got_digit && !got_e && lower(c) == exp_char {
            buf.push(exp_char as u8);
            got_e = true;
            got_dot = true;
        } else if !got_dot && c == i32::from(b'.') {
            buf.push(b'.');
            got_dot = true;
        } else {
            input.ungetc(c);
            break;
        }
        if width == 0 {
            break;
        }
        c = input.inchar();
        if c == EOF {
            break;
        }
        if width > 0 {
            width -= 1;
        }
    }
    if buf.len() == got_sign || (hexa && buf.len() == 2 + got_sign) {
        return Err(Stop::Matching);
    }
    finish_float(&buf, double)
}

/// strtod/strtof on the scanned text: converts its longest valid prefix, or fails if none.
fn finish_float(buf: &[u8], double: bool) -> Result<f64, Stop> {
    let (neg, body) = match buf.first() {
        Some(b'-') => (true, &buf[1..]),
        Some(b'+') => (false, &buf[1..]),
        _ => (false, buf),
    };
    let lower: Vec<u8> = body.iter().map(|b| b.to_ascii_lowercase()).collect();
    let mag = if lower.starts_with(b"nan") {
        f64::NAN
    } else if lower.starts_with(b"inf") {
        f64::INFINITY
    } else if lower.starts_with(b"0x")
        && lower
            .get(2)
            .is_some_and(|&b| b.is_ascii_hexdigit() || b == b'.')
        && hex_has_digit(&lower[2..])
    {
        parse_hex_float(&lower[2..], double)
    } else {
        // Longest prefix of the form digits [. digits] [e [sign] digits] with a digit.
        let mut k = 0;
        let mut digits = 0;
        while k < lower.len() && lower[k].is_ascii_digit() {
            k += 1;
            digits += 1;
        }
        if k < lower.len() && lower[k] == b'.' {
            k += 1;
            while k < lower.len() && lower[k].is_ascii_digit() {
                k += 1;
                digits += 1;
            }
        }
        if digits == 0 {
            return Err(Stop::Matching);
        }
        if k < lower.len() && lower[k] == b'e' {
            let mut j = k + 1;
            if j < lower.len() && (lower[j] == b'+' || lower[j] == b'-') {
                j += 1;
            }
            if j < lower.len() && lower[j].is_ascii_digit() {
                while j < lower.len() && lower[j].is_ascii_digit() {
                    j += 1;
                }
                k = j;
            }
        }
        let text = std::str::from_utf8(&lower[..k]).unwrap_or("0");
        if double {
            text.parse::<f64>().unwrap_or(0.0)
        } else {
            f64::from(text.parse::<f32>().unwrap_or(0.0))
        }
    };
    Ok(if neg { -mag } else { mag })
}

fn hex_has_digit(s: &[u8]) -> bool {
    let int_end = s
        .iter()
        .position(|b| !b.is_ascii_hexdigit())
        .unwrap_or(s.len());
    if int_end > 0 {
        return true;
    }
    s.get(int_end) == Some(&b'.') && s.get(int_end + 1).is_some_and(|b| b.is_ascii_hexdigit())
}

/// Correctly rounded (half to even) hex float `h.hhh[p[sign]ddd]` (after `0x`) to f64 or f32.
fn parse_hex_float(s: &[u8], double: bool) -> f64 {
    let mut mant: u64 = 0;
    let mut sticky = false;
    let mut exp2: i64 = 0;
    let mut k = 0;
    let mut seen_dot = false;
    while k < s.len() {
        let b = s[k];
        if b == b'.' && !seen_dot {
            seen_dot = true;
        } else if let Some(d) = (b as char).to_digit(16) {
            if mant >> 60 == 0 {
                mant = (mant << 4) | u64::from(d);
                if seen_dot {
                    exp2 -= 4;
                }
            } else {
                sticky |= d != 0;
                if !seen_dot {
                    exp2 += 4;
                }
            }
        } else {
            break;
        }
        k += 1;
    }
    if k < s.len() && s[k] == b'p' {
        let mut j = k + 1;
        let mut eneg = false;
        if j < s.len() && (s[j] == b'+' || s[j] == b'-') {
            eneg = s[j] == b'-';
            j += 1;
        }
        if j < s.len() && s[j].is_ascii_digit() {
            let mut e: i64 = 0;
            while j < s.len() && s[j].is_ascii_digit() {
                e = (e * 10 + i64::from(s[j] - b'0')).min(1 << 40);
                j += 1;
            }
            exp2 += if eneg { -e } else { e };
        }
    }
    if mant == 0 {
        return 0.0;
    }
    let lz = i64::from(mant.leading_zeros());
    mant <<= lz;
    exp2 -= lz;
    // value = mant * 2^exp2 with bit 63 set: unbiased exponent e = exp2 + 63.
    let (p, emin, emax) = if double {
        (53i64, -1022i64, 1023i64)
    } else {
        (24, -126, 127)
    };
    let e = exp2 + 63;
    if e > emax {
        return f64::INFINITY;
    }
    let keep = p - (emin - e).max(0);
    if keep < 0 {
        return 0.0;
    }
    let shift = (64 - keep) as u32;
    let (mut kept, rem_top, rem_rest) = if shift >= 64 {
        (0u64, mant >> 63 == 1, (mant << 1) != 0 || sticky)
    } else {
        let rem = mant << (64 - shift);
        (mant >> shift, rem >> 63 == 1, (rem << 1) != 0 || sticky)
    };
    if rem_top && (rem_rest || kept & 1 == 1) {
        kept += 1;
    }
    // kept * 2^(e - keep + 1), computed in exact steps.
    let mut v = kept as f64;
    let mut scale = e - keep + 1;
    while scale > 0 {
        let step = scale.min(1000);
        v *= 2f64.powi(step as i32);
        scale -= step;
    }
    while scale < 0 {
        let step = scale.max(-1000);
        v *= 2f64.powi(step as i32);
        scale -= step;
    }
    if double {
        v
    } else {
        f64::from(v as f32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(fmt: &str, ints: &[u64], doubles: &[f64], strs: &[&str]) -> String {
        let mut args = VecArgs::new(
            ints.to_vec(),
            doubles.to_vec(),
            strs.iter().map(|s| s.as_bytes().to_vec()).collect(),
        );
        let mut out = Vec::new();
        let n = printf(fmt.as_bytes(), &mut args, &mut out).expect("format ok");
        assert_eq!(n, out.len());
        String::from_utf8(out).expect("utf8")
    }

    #[test]
    fn integers() {
        assert_eq!(
            p(
                "%d|%5d|%-5d|%05d",
                &[42, (-7i32) as u32 as u64, 3, 9],
                &[],
                &[]
            ),
            "42|   -7|3    |00009"
        );
        assert_eq!(
            p("%hhd %hd %u", &[300, 70000, u64::MAX], &[], &[]),
            "44 4464 4294967295"
        );
        assert_eq!(
            p("%lld %I64d %llu", &[u64::MAX, 5, u64::MAX], &[], &[]),
            "-1 5 18446744073709551615"
        );
        assert_eq!(
            p("[%.d %#.0o %#5.3x %#08x %+ d]", &[0, 0, 0, 10, 0], &[], &[]),
            "[ 0   000 0x00000a +0]"
        );
        assert_eq!(
            p("%*d|%-*d", &[(-5i32) as u32 as u64, 1, 3, 2], &[], &[]),
            "1    |2  "
        );
    }

    #[test]
    fn floats() {
        assert_eq!(
            p("%.0f %.0f %.0f %.2f", &[], &[0.5, 1.5, 2.5, 1.005], &[]),
            "0 2 2 1.00"
        );
        assert_eq!(
            p("%e %E %g %G", &[], &[1234.5, 0.0, 1e-5, 1e100], &[]),
            "1.234500e+03 0.000000E+00 1e-05 1E+100"
        );
        assert_eq!(
            p(
                "%f %F %e %+f",
                &[],
                &[f64::INFINITY, f64::NEG_INFINITY, -f64::NAN, f64::NAN],
                &[]
            ),
            "inf -INF -nan +nan"
        );
        assert_eq!(
            p(
                "%#g %#.0f %g %g",
                &[],
                &[1.0, 2.0, 123456.0, 1234567.0],
                &[]
            ),
            "1.00000 2. 123456 1.23457e+06"
        );
        assert_eq!(
            p("%a %.0a %010a %a", &[], &[1.0, 1.5, -3.5, 5e-324], &[]),
            "0x1p+0 0x2p+0 -0x01.cp+1 0x0.0000000000001p-1022"
        );
        assert_eq!(p("%d %f", &[3], &[2.5], &[]), "3 2.500000");
    }

    #[test]
    fn strings_and_unknown() {
        assert_eq!(
            p("[%5.1s|%-3s|%c%%]", &[b'x' as u64], &[], &["abc", "z"]),
            "[    a|z  |x%]"
        );
        assert_eq!(p("[%y %-5.3ly %5%]", &[], &[], &[]), "[%y %-5.3y %]");
        assert_eq!(p("%p %p", &[0, 255], &[], &[]), "(nil) 0xff");
    }

    #[test]
    fn errors() {
        let mut a = VecArgs::default();
        let mut out = Vec::new();
        assert!(matches!(
            printf(b"%999999999d", &mut a, &mut out),
            Err(FormatError::TooWide(_))
        ));
        assert!(matches!(
            printf(b"%.99999f", &mut a, &mut out),
            Err(FormatError::TooWide(_))
        ));
        assert!(matches!(
            printf(b"%n", &mut a, &mut out),
            Err(FormatError::Unsupported(_))
        ));
        out.clear();
        assert_eq!(
            printf(b"ab%", &mut a, &mut out),
            Err(FormatError::Incomplete { written: 2 })
        );
        assert_eq!(printf(b"%s", &mut a, &mut out), Err(FormatError::BadString));
    }

    fn sc(fmt: &str, input: &str) -> (i32, Vec<ScanValue>, String) {
        let mut inp = Input::new(input.as_bytes().to_vec());
        let mut vals = Vec::new();
        let r = scanf::<FormatError>(fmt.as_bytes(), &mut inp, &mut |_, v| {
            vals.push(v);
            Ok(())
        })
        .expect("scan ok");
        (
            r,
            vals,
            String::from_utf8_lossy(inp.remaining()).into_owned(),
        )
    }

    #[test]
    fn scan_ints() {
        use ScanValue::*;
        assert_eq!(
            sc("%d %d", " 12\n-3x"),
            (2, vec![Int(12), Int((-3i64) as u64)], "x".into())
        );
        assert_eq!(sc("%d", "   "), (-1, vec![], "".into()));
        assert_eq!(sc("%d%d", "5"), (1, vec![Int(5)], "".into()));
        assert_eq!(sc("%d", "-x"), (0, vec![], "x".into()));
        assert_eq!(
            sc("%d", "99999999999999999999"),
            (1, vec![Int(i64::MAX as u64)], "".into())
        );
        assert_eq!(sc("%u", "-1"), (1, vec![Int(u64::MAX)], "".into()));
        assert_eq!(
            sc("%i %i %i", "0x1f 017 09"),
            (3, vec![Int(31), Int(15), Int(0)], "9".into())
        );
        assert_eq!(sc("%x", "0xg"), (1, vec![Int(0)], "g".into()));
        assert_eq!(
            sc("%2d%d", "12345"),
            (2, vec![Int(12), Int(345)], "".into())
        );
        assert_eq!(sc("%*d %d%n", "1 2"), (1, vec![Int(2), Int(3)], "".into()));
        assert_eq!(sc("%I64d", "7"), (1, vec![Int(7)], "".into()));
    }

    #[test]
    fn scan_floats_and_text() {
        use ScanValue::*;
        assert_eq!(
            sc("%lf %lf", "1.5 -2e3"),
            (2, vec![Float(1.5), Float(-2000.0)], "".into())
        );
        assert_eq!(sc("%lf", "1e"), (1, vec![Float(1.0)], "".into()));
        assert_eq!(sc("%lf", "0x1.8p1"), (1, vec![Float(3.0)], "".into()));
        assert_eq!(
            sc("%f", "0.1"),
            (1, vec![Float(f64::from(0.1f32))], "".into())
        );
        assert_eq!(sc("%lf", "-"), (0, vec![], "".into()));
        assert_eq!(
            sc("%lf%s", "infx"),
            (
                2,
                vec![Float(f64::INFINITY), Bytes(b"x".to_vec())],
                "".into()
            )
        );
        assert_eq!(
            sc("%s %c%c", "  ab\tc d"),
            (
                3,
                vec![
                    Bytes(b"ab".to_vec()),
                    Bytes(b"c".to_vec()),
                    Bytes(b" ".to_vec())
                ],
                "d".into()
            )
        );
        assert_eq!(
            sc("%[a-c]%[^\n]", "abcab-z\n"),
            (
                2,
                vec![Bytes(b"abcab".to_vec()), Bytes(b"-z".to_vec())],
                "\n".into()
            )
        );
        assert_eq!(sc("%[^\n]", "\nx"), (0, vec![], "\nx".into()));
        assert_eq!(sc("a%%b%d ", "a%b5  \n q"), (1, vec![Int(5)], "q".into()));
    }

    #[test]
    fn input_lines() {
        let mut inp = Input::new(b"ab\ncdef\n\ng".to_vec());
        assert_eq!(inp.gets(), Some(b"ab".to_vec()));
        assert_eq!(inp.fgets(3), Some(b"cd".to_vec()));
        assert_eq!(inp.fgets(10), Some(b"ef\n".to_vec()));
        assert_eq!(inp.getchar(), Some(b'\n'));
        assert_eq!(inp.gets(), Some(b"g".to_vec()));
        assert!(inp.at_eof());
        assert_eq!(inp.gets(), None);
        assert_eq!(inp.fgets(5), None);
        assert_eq!(inp.getchar(), None);
    }

    #[cfg(not(target_arch = "wasm32"))] // proptest is a native-only dev-dependency
    proptest::proptest! {
        #[test]
        fn printf_never_panics(fmt in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40),
                               ints in proptest::collection::vec(proptest::prelude::any::<u64>(), 0..6),
                               bits in proptest::collection::vec(proptest::prelude::any::<u64>(), 0..6)) {
            let mut a = VecArgs::new(ints, bits.into_iter().map(f64::from_bits).collect(), vec![b"s".to_vec()]);
            let mut out = Vec::new();
            if let Ok(n) = printf(&fmt, &mut a, &mut out) {
                proptest::prop_assert_eq!(n, out.len());
            }
            proptest::prop_assert!(out.len() <= fmt.len() * (MAX_FIELD + 400) + 64);
        }

        #[test]
        fn scanf_never_panics(fmt in "[%*0-9a-z\\[\\]^ .+-]{0,12}", input in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40)) {
            let mut inp = Input::new(input.clone());
            let r = scanf::<FormatError>(fmt.as_bytes(), &mut inp, &mut |_, _| Ok(()));
            if let Ok(r) = r {
                proptest::prop_assert!(r >= -1);
            }
            proptest::prop_assert!(inp.position() <= input.len());
        }
    }
}
