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
//! - `%Lf` (long double) is formatted from the double argument.

use std::fmt::Write as _;

/// Largest accepted field width or precision (printf and scanf); larger is [`FormatError::TooWide`].
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
            let sign: &[u8] = if v < 0 {
                b"-"
            } else if s.flags.plus {
                b"+"
            } else if s.flags.space {
                b" "
            } else {
                b""
            };
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
                let sign: &[u8] = if s.flags.plus {
                    b"+"
                } else if s.flags.space {
                    b" "
                } else {
                    b""
                };
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
            // glibc's printf_unknown: '%', flags in a fixed order, width, precision, the char.
            out.push(b'%');
            let fl = &s.flags;
            for (on, ch) in [
                (fl.hash, b'#'),
                (fl.minus, b'-'),
                (fl.plus, b'+'),
                (fl.space, b' '),
                (fl.zero, b'0'),
                (fl.quote, b'\''),
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
    let sign: &[u8] = if x.is_sign_negative() {
        b"-"
    } else if s.flags.plus {
        b"+"
    } else if s.flags.space {
        b" "
    } else {
        b""
    };
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
            if x_exp < p as i64 && x_exp >= -4 {
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
}
