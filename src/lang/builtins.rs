//! The C library subset: signatures for the compiler and implementations for the interpreter.

use super::arith::convert;
use super::bytecode::{ArgClass, Builtin, Ctype, Math1};
use super::format::{self, FormatError, Input, PrintfArgs, ScanSpec, ScanValue};
use super::types::{Sc, Ty};
use super::vm::{make_ptr, Obj, Trap, Vm};
use super::UndefinedKind;

/// A builtin's C signature: fixed parameters (arguments are converted to them), return type,
/// and whether more (variadic) arguments follow.
#[derive(Clone, Debug)]
pub struct Sig {
    /// Which builtin.
    pub builtin: Builtin,
    /// Fixed parameter types.
    pub params: Vec<Ty>,
    /// Return type.
    pub ret: Ty,
    /// `...` after the fixed parameters.
    pub variadic: bool,
}

fn ptr(t: Ty) -> Ty {
    Ty::Ptr(Box::new(t))
}

/// The signature of library function `name`, if supported.
pub fn lookup(name: &str) -> Option<Sig> {
    use Builtin as B;
    let d = Ty::DOUBLE;
    let i = Ty::INT;
    let l = Ty::Scalar(Sc::I64);
    let ul = Ty::Scalar(Sc::U64);
    let s = ptr(Ty::Scalar(Sc::I8));
    let v = ptr(Ty::Void);
    let sig = |b: Builtin, params: Vec<Ty>, ret: Ty, variadic: bool| {
        Some(Sig {
            builtin: b,
            params,
            ret,
            variadic,
        })
    };
    let m1 = |m: Math1| sig(B::Math1(m), vec![Ty::DOUBLE], Ty::DOUBLE, false);
    let ct = |c: Ctype| sig(B::Ctype(c), vec![Ty::INT], Ty::INT, false);
    match name {
        "printf" => sig(B::Printf, vec![s], i, true),
        "sprintf" => sig(B::Sprintf, vec![s.clone(), s], i, true),
        "fprintf" => sig(B::Fprintf, vec![v, s], i, true),
        "scanf" => sig(B::Scanf, vec![s], i, true),
        "fscanf" => sig(B::Fscanf, vec![v, s], i, true),
        "sscanf" => sig(B::Sscanf, vec![s.clone(), s.clone()], i, true),
        "puts" => sig(B::Puts, vec![s], i, false),
        "fputs" => sig(B::Fputs, vec![s, v], i, false),
        "putchar" => sig(B::Putchar, vec![i.clone()], i, false),
        "getchar" => sig(B::Getchar, vec![], i, false),
        "gets" => sig(B::Gets, vec![s.clone()], s, false),
        "fgets" => sig(B::Fgets, vec![s.clone(), i, v], s, false),
        "fabs" | "fabsl" | "fabsf" => m1(Math1::Fabs),
        "sqrt" | "sqrtl" | "sqrtf" => m1(Math1::Sqrt),
        "floor" | "floorl" | "floorf" => m1(Math1::Floor),
        "ceil" | "ceill" | "ceilf" => m1(Math1::Ceil),
        "round" | "roundl" => m1(Math1::Round),
        "trunc" => m1(Math1::Trunc),
        "rint" | "nearbyint" => m1(Math1::Rint),
        "log" | "logl" => m1(Math1::Log),
        "log10" | "log10l" => m1(Math1::Log10),
        "log2" => m1(Math1::Log2),
        "exp" | "expl" => m1(Math1::Exp),
        "exp2" => m1(Math1::Exp2),
        "log1p" => m1(Math1::Log1p),
        "expm1" => m1(Math1::Expm1),
        "sin" => m1(Math1::Sin),
        "cos" => m1(Math1::Cos),
        "tan" => m1(Math1::Tan),
        "asin" => m1(Math1::Asin),
        "acos" | "acosl" => m1(Math1::Acos),
        "atan" => m1(Math1::Atan),
        "sinh" => m1(Math1::Sinh),
        "cosh" => m1(Math1::Cosh),
        "tanh" => m1(Math1::Tanh),
        "cbrt" => m1(Math1::Cbrt),
        "pow" | "powl" | "powf" => sig(B::Pow, vec![d.clone(), d.clone()], d, false),
        "atan2" => sig(B::Atan2, vec![d.clone(), d.clone()], d, false),
        "fmod" => sig(B::Fmod, vec![d.clone(), d.clone()], d, false),
        "hypot" => sig(B::Hypot, vec![d.clone(), d.clone()], d, false),
        "fmin" => sig(B::Fmin, vec![d.clone(), d.clone()], d, false),
        "fmax" => sig(B::Fmax, vec![d.clone(), d.clone()], d, false),
        "ldexp" => sig(B::Ldexp, vec![d.clone(), i], d, false),
        "abs" => sig(B::Abs, vec![i.clone()], i, false),
        "labs" | "llabs" => sig(B::Labs, vec![l.clone()], l, false),
        "strlen" => sig(B::Strlen, vec![s], ul, false),
        "strcmp" => sig(B::Strcmp, vec![s.clone(), s], i, false),
        "strncmp" => sig(B::Strncmp, vec![s.clone(), s, ul], i, false),
        "strcpy" => sig(B::Strcpy, vec![s.clone(), s.clone()], s, false),
        "strncpy" => sig(B::Strncpy, vec![s.clone(), s.clone(), ul], s, false),
        "strcat" => sig(B::Strcat, vec![s.clone(), s.clone()], s, false),
        "strchr" => sig(B::Strchr, vec![s.clone(), i], s, false),
        "strtok" => sig(B::Strtok, vec![s.clone(), s.clone()], s, false),
        "memset" => sig(B::Memset, vec![v.clone(), i, ul], v, false),
        "memcpy" | "memmove" => sig(B::Memcpy, vec![v.clone(), v.clone(), ul], v, false),
        "memcmp" => sig(B::Memcmp, vec![v.clone(), v, ul], i, false),
        "malloc" => sig(B::Malloc, vec![ul], v, false),
        "calloc" => sig(B::Calloc, vec![ul.clone(), ul], v, false),
        "free" => sig(B::Free, vec![v], Ty::Void, false),
        "exit" => sig(B::Exit, vec![i], Ty::Void, false),
        "isdigit" => ct(Ctype::Digit),
        "isalpha" => ct(Ctype::Alpha),
        "isalnum" => ct(Ctype::Alnum),
        "isspace" => ct(Ctype::Space),
        "isupper" => ct(Ctype::Upper),
        "islower" => ct(Ctype::Lower),
        "ispunct" => ct(Ctype::Punct),
        "isxdigit" => ct(Ctype::Xdigit),
        "isprint" => ct(Ctype::Print),
        "toupper" => sig(B::Toupper, vec![i.clone()], i, false),
        "tolower" => sig(B::Tolower, vec![i.clone()], i, false),
        "atoi" => sig(B::Atoi, vec![s], i, false),
        "atol" | "atoll" => sig(B::Atol, vec![s], l, false),
        "atof" => sig(B::Atof, vec![s], d, false),
        "system" | "fflush" | "srand" | "getch" | "freopen" | "fclose" | "setbuf" => {
            sig(B::Nothing, vec![], i, true)
        }
        "time" => sig(B::Time, vec![], l, true),
        "rand" => sig(B::Rand, vec![], i, false),
        _ => None,
    }
}

/// Number of fixed arguments of a builtin (variadic ones come from the call site).
fn fixed(b: Builtin) -> usize {
    use Builtin as B;
    match b {
        B::Getchar | B::Nothing | B::Time | B::Rand => 0,
        B::Printf | B::Scanf | B::Puts | B::Putchar | B::Gets | B::Math1(_) => 1,
        B::Abs | B::Labs | B::Strlen | B::Malloc | B::Free | B::Exit | B::Ctype(_) => 1,
        B::Toupper | B::Tolower | B::Atoi | B::Atol | B::Atof | B::Alloca => 1,
        B::Sprintf | B::Fprintf | B::Fscanf | B::Fputs => 2,
        B::Pow | B::Atan2 | B::Fmod | B::Hypot | B::Fmin | B::Fmax | B::Ldexp => 2,
        B::Strcmp | B::Strcpy | B::Strcat | B::Strchr | B::Calloc => 2,
        B::Sscanf | B::Strtok => 2,
        B::Fgets | B::Strncmp | B::Strncpy | B::Memset | B::Memcpy | B::Memcmp => 3,
    }
}

struct Args<'v, 'a> {
    vm: &'v Vm<'a>,
    ints: std::vec::IntoIter<u64>,
    doubles: std::vec::IntoIter<f64>,
    /// Bytes of `%s` arguments read, for the fuel.
    scanned: usize,
}

impl PrintfArgs for Args<'_, '_> {
    fn next_int(&mut self) -> u64 {
        self.ints.next().unwrap_or(0)
    }
    fn next_double(&mut self) -> f64 {
        self.doubles.next().unwrap_or(0.0)
    }
    fn next_str(&mut self) -> Option<Vec<u8>> {
        let p = self.ints.next()?;
        let s = self.vm.cstr(p).ok()?;
        self.scanned += s.len();
        Some(s.to_vec())
    }
}

fn fmt_err(e: FormatError) -> Trap {
    Trap::Error(format!("printf: {e}"))
}

/// Formats `fmt` with the variadic `vals` of call site `site`, charging the fuel for the
/// format, the strings read and the text made.
fn format_to(vm: &mut Vm, fmt: u64, vals: &[u64], site: &[ArgClass]) -> Result<Vec<u8>, Trap> {
    let f = vm.cstr(fmt)?.to_vec();
    let mut ints = vec![];
    let mut doubles = vec![];
    for (&v, &c) in vals.iter().zip(site) {
        match c {
            ArgClass::Int32 => ints.push(u64::from(v as u32)),
            ArgClass::Int64 => ints.push(v),
            ArgClass::Double => doubles.push(f64::from_bits(v)),
        }
    }
    let mut args = Args {
        vm,
        ints: ints.into_iter(),
        doubles: doubles.into_iter(),
        scanned: 0,
    };
    let mut out = vec![];
    let r = format::printf(&f, &mut args, &mut out);
    let scanned = args.scanned;
    vm.charge(f.len() + scanned + out.len())?;
    match r {
        Ok(_) | Err(FormatError::Incomplete { .. }) => Ok(out),
        Err(e) => Err(fmt_err(e)),
    }
}

enum ScanErr {
    Trap(Trap),
    Format(FormatError),
}

impl From<FormatError> for ScanErr {
    fn from(e: FormatError) -> Self {
        ScanErr::Format(e)
    }
}

/// `scanf` with format `fmt` into `ptrs`, from stdin or (`sscanf`) from the string at
/// `text`.
fn scan(vm: &mut Vm, text: Option<u64>, fmt: u64, ptrs: &[u64]) -> Result<u64, Trap> {
    let f = vm.cstr(fmt)?.to_vec();
    let mut input = match text {
        Some(p) => Input::new(vm.cstr(p)?.to_vec()),
        None => std::mem::take(&mut vm.input),
    };
    let start = input.position();
    let mut next = ptrs.iter();
    let r = format::scanf(&f, &mut input, &mut |spec: &ScanSpec, val: ScanValue| {
        let Some(&p) = next.next() else {
            return Err(ScanErr::Trap(Trap::Error(
                "scanf: too few arguments for the format".into(),
            )));
        };
        store_scanned(vm, p, spec, val).map_err(ScanErr::Trap)
    });
    let read = input.position().saturating_sub(start);
    if text.is_none() {
        vm.input = input;
    }
    vm.charge(f.len() + read)?;
    match r {
        Ok(n) => Ok(n as i64 as u64),
        Err(ScanErr::Trap(t)) => Err(t),
        Err(ScanErr::Format(e)) => Err(Trap::Error(format!("scanf: {e}"))),
    }
}

/// glibc's `strtok`: skips the delimiters at `s` (`NULL`: where the last call stopped),
/// ends the token at the next delimiter with a NUL and returns it; `NULL` when only
/// delimiters are left.
fn strtok(vm: &mut Vm, s: u64, delim: u64) -> Result<u64, Trap> {
    let start = if s == 0 { vm.strtok_next } else { s };
    let delim = vm.cstr(delim)?.to_vec();
    let text = vm.rest(start)?;
    let skip = text
        .iter()
        .take_while(|c| **c != 0 && delim.contains(c))
        .count();
    let len = text[skip..]
        .iter()
        .take_while(|c| **c != 0 && !delim.contains(c))
        .count();
    let Some(&stop) = text.get(skip + len) else {
        return Err(Trap::Error(format!(
            "index {} out of bounds for array of {} (unterminated string)",
            text.len(),
            text.len()
        )));
    };
    let ends = stop != 0;
    let at = |k: usize| {
        let (obj, off) = super::vm::split_ptr(start);
        make_ptr(obj, off.wrapping_add(k as i32))
    };
    vm.charge(delim.len() + skip + len + 1)?;
    if len == 0 {
        vm.strtok_next = at(skip);
        return Ok(0);
    }
    if ends {
        vm.store(at(skip + len), Sc::I8, 0)?;
        vm.strtok_next = at(skip + len + 1);
    } else {
        vm.strtok_next = at(skip + len);
    }
    Ok(at(skip))
}

fn store_scanned(vm: &mut Vm, p: u64, spec: &ScanSpec, val: ScanValue) -> Result<(), Trap> {
    match val {
        ScanValue::Int(mut v) => {
            let bits = spec.len.int_bits();
            let sc = match bits {
                8 => Sc::U8,
                16 => Sc::U16,
                32 => Sc::U32,
                _ => Sc::U64,
            };
            // A signed number that does not fit its destination: C leaves it undefined.
            let signed = matches!(spec.conv, b'd' | b'i');
            if signed && bits < 64 && (v as i64) >> (bits - 1) != (v as i64) >> 63 {
                v = vm.undefined_result_in_call(UndefinedKind::InputOutOfRange, v);
            }
            vm.store(p, sc, v)
        }
        ScanValue::Float(f) => {
            if spec.is_double() {
                vm.store(p, Sc::F64, f.to_bits())
            } else {
                vm.store(p, Sc::F32, f.to_bits())
            }
        }
        ScanValue::Bytes(mut b) => {
            if spec.conv != b'c' {
                b.push(0);
            }
            let dst = vm.bytes_mut(p, b.len() as u32)?;
            dst.copy_from_slice(&b);
            Ok(())
        }
    }
}

fn glibc_ctype(c: Ctype, x: i64) -> i64 {
    let Ok(b) = u8::try_from(x) else {
        return 0;
    };
    let (hit, bit) = match c {
        Ctype::Digit => (b.is_ascii_digit(), 2048),
        Ctype::Alpha => (b.is_ascii_alphabetic(), 1024),
        Ctype::Alnum => (b.is_ascii_alphanumeric(), 8),
        Ctype::Space => (
            matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'),
            8192,
        ),
        Ctype::Upper => (b.is_ascii_uppercase(), 256),
        Ctype::Lower => (b.is_ascii_lowercase(), 512),
        Ctype::Punct => (b.is_ascii_punctuation(), 4),
        Ctype::Xdigit => (b.is_ascii_hexdigit(), 4096),
        Ctype::Print => ((0x20..0x7f).contains(&b), 16384),
    };
    if hit {
        bit
    } else {
        0
    }
}

/// glibc's `strtol` on the prefix (whitespace, sign, decimal digits): saturates to the `long`
/// range on overflow (so `atoi` of a too-long number is `(int)LONG_MAX`, like glibc).
fn parse_int_prefix(s: &[u8]) -> i64 {
    let start = s
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(s.len());
    let s = &s[start..];
    let sign = usize::from(matches!(s.first(), Some(b'-' | b'+')));
    let digits = s[sign..].iter().take_while(|c| c.is_ascii_digit()).count();
    super::format::strtol(&s[..sign + digits], 10, true) as i64
}

/// `strtod` on the longest prefix that reads as a decimal number (after whitespace: a
/// sign, then `inf`, `infinity`, `nan`, or digits with an optional point and exponent);
/// 0 when there is none. Linear in the text's length.
fn parse_float_prefix(s: &[u8]) -> f64 {
    let start = s
        .iter()
        .position(|c| !matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'))
        .unwrap_or(s.len());
    let t = &s[start..];
    let sign = usize::from(matches!(t.first(), Some(b'-' | b'+')));
    let rest = &t[sign..];
    let starts = |w: &[u8]| rest.len() >= w.len() && rest[..w.len()].eq_ignore_ascii_case(w);
    let digits = |from: usize| t[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let end = if starts(b"infinity") {
        sign + 8
    } else if starts(b"inf") || starts(b"nan") {
        sign + 3
    } else {
        let int = digits(sign);
        let mut end = sign + int;
        let mut frac = 0;
        if t.get(end) == Some(&b'.') {
            frac = digits(end + 1);
            if int + frac > 0 {
                end += 1 + frac;
            }
        }
        if int + frac == 0 {
            return 0.0;
        }
        if matches!(t.get(end), Some(b'e' | b'E')) {
            let es = usize::from(matches!(t.get(end + 1), Some(b'-' | b'+')));
            let ed = digits(end + 1 + es);
            if ed > 0 {
                end += 1 + es + ed;
            }
        }
        end
    };
    std::str::from_utf8(&t[..end])
        .ok()
        .and_then(|x| x.parse::<f64>().ok())
        .unwrap_or(0.0)
}

fn math1(m: Math1, x: f64) -> f64 {
    match m {
        Math1::Fabs => x.abs(),
        Math1::Sqrt => x.sqrt(),
        Math1::Floor => x.floor(),
        Math1::Ceil => x.ceil(),
        Math1::Round => x.round(),
        Math1::Trunc => x.trunc(),
        Math1::Rint => x.round_ties_even(),
        Math1::Log => x.ln(),
        Math1::Log10 => x.log10(),
        Math1::Log2 => x.log2(),
        Math1::Exp => x.exp(),
        Math1::Exp2 => x.exp2(),
        Math1::Log1p => x.ln_1p(),
        Math1::Expm1 => x.exp_m1(),
        Math1::Sin => x.sin(),
        Math1::Cos => x.cos(),
        Math1::Tan => x.tan(),
        Math1::Asin => x.asin(),
        Math1::Acos => x.acos(),
        Math1::Atan => x.atan(),
        Math1::Sinh => x.sinh(),
        Math1::Cosh => x.cosh(),
        Math1::Tanh => x.tanh(),
        Math1::Cbrt => x.cbrt(),
    }
}

/// Runs builtin `b` on the VM stack (arguments popped, result pushed).
pub fn call(vm: &mut Vm, b: Builtin, site: u32) -> Result<(), Trap> {
    use Builtin as B;
    let code = vm.code;
    let site: &[ArgClass] = code.sites.get(site as usize).map(|s| &s[..]).unwrap_or(&[]);
    let n = fixed(b) + site.len();
    let a = vm.pop_n(n);
    let arg = |i: usize| a.get(i).copied().unwrap_or(0);
    let f = |i: usize| f64::from_bits(arg(i));
    let int = |i: usize| arg(i) as i64;
    let ret: u64 = match b {
        B::Printf => {
            let out = format_to(vm, arg(0), a.get(1..).unwrap_or(&[]), site)?;
            vm.write(&out)?;
            out.len() as u64
        }
        B::Fprintf => {
            let out = format_to(vm, arg(1), a.get(2..).unwrap_or(&[]), site)?;
            if arg(0) != 2 {
                vm.write(&out)?;
            }
            out.len() as u64
        }
        B::Sprintf => {
            let mut out = format_to(vm, arg(1), a.get(2..).unwrap_or(&[]), site)?;
            let len = out.len() as u64;
            out.push(0);
            vm.bytes_mut(arg(0), out.len() as u32)?
                .copy_from_slice(&out);
            len
        }
        B::Scanf => scan(vm, None, arg(0), a.get(1..).unwrap_or(&[]))?,
        B::Fscanf => scan(vm, None, arg(1), a.get(2..).unwrap_or(&[]))?,
        B::Sscanf => scan(vm, Some(arg(0)), arg(1), a.get(2..).unwrap_or(&[]))?,
        B::Strtok => strtok(vm, arg(0), arg(1))?,
        B::Puts | B::Fputs => {
            let mut s = vm.cstr(arg(0))?.to_vec();
            vm.charge(s.len())?;
            if b == B::Puts {
                s.push(b'\n');
            }
            if b == B::Puts || arg(1) != 2 {
                vm.write(&s)?;
            }
            s.len() as u64
        }
        B::Putchar => {
            vm.write(&[arg(0) as u8])?;
            u64::from(arg(0) as u8)
        }
        B::Getchar => match vm.input.getchar() {
            Some(c) => u64::from(c),
            None => (-1i64) as u64,
        },
        B::Gets | B::Fgets => {
            let line = if b == B::Gets {
                vm.input.gets()
            } else {
                let max = usize::try_from(int(1)).unwrap_or(0);
                vm.input.fgets(max)
            };
            match line {
                Some(mut l) => {
                    vm.charge(l.len())?;
                    l.push(0);
                    vm.bytes_mut(arg(0), l.len() as u32)?.copy_from_slice(&l);
                    arg(0)
                }
                None => 0,
            }
        }
        B::Math1(m) => math1(m, f(0)).to_bits(),
        B::Pow => f(0).powf(f(1)).to_bits(),
        B::Atan2 => f(0).atan2(f(1)).to_bits(),
        B::Fmod => (f(0) % f(1)).to_bits(),
        B::Hypot => f(0).hypot(f(1)).to_bits(),
        B::Fmin => f(0).min(f(1)).to_bits(),
        B::Fmax => f(0).max(f(1)).to_bits(),
        B::Ldexp => (f(0) * 2f64.powi(int(1) as i32)).to_bits(),
        B::Abs => (int(0) as i32).wrapping_abs() as i64 as u64,
        B::Labs => int(0).wrapping_abs() as u64,
        B::Strlen => {
            let n = vm.cstr(arg(0))?.len();
            vm.charge(n)?;
            n as u64
        }
        B::Strcmp | B::Strncmp => {
            let x = vm.cstr(arg(0))?.to_vec();
            let y = vm.cstr(arg(1))?.to_vec();
            vm.charge(x.len() + y.len())?;
            let lim = if b == B::Strncmp {
                arg(2) as usize
            } else {
                usize::MAX
            };
            let mut r = 0i64;
            for k in 0..lim {
                let (cx, cy) = (
                    x.get(k).copied().unwrap_or(0),
                    y.get(k).copied().unwrap_or(0),
                );
                if cx != cy {
                    r = i64::from(cx) - i64::from(cy);
                    break;
                }
                if cx == 0 {
                    break;
                }
            }
            convert(Sc::I64, Sc::I32, r as u64)
        }
        B::Strcpy | B::Strcat | B::Strncpy => {
            let mut src = vm.cstr(arg(1))?.to_vec();
            let dst = arg(0);
            let at = if b == B::Strcat {
                vm.cstr(dst)?.len()
            } else {
                0
            };
            if b == B::Strncpy {
                let n = usize::try_from(arg(2)).unwrap_or(usize::MAX);
                if n > vm.limits.memory_bytes {
                    return Err(Trap::Error(
                        "strncpy: size larger than the destination".into(),
                    ));
                }
                src.resize(n, 0);
            } else {
                src.push(0);
            }
            vm.charge(at + src.len())?;
            let d = super::vm::split_ptr(dst);
            let p = make_ptr(d.0, d.1.wrapping_add(at as i32));
            vm.bytes_mut(p, src.len() as u32)?.copy_from_slice(&src);
            dst
        }
        B::Strchr => {
            let s = vm.cstr(arg(0))?;
            let c = arg(1) as u8;
            let pos = if c == 0 {
                Some(s.len())
            } else {
                s.iter().position(|&x| x == c)
            };
            let n = s.len();
            vm.charge(n)?;
            match pos {
                Some(k) => {
                    let d = super::vm::split_ptr(arg(0));
                    make_ptr(d.0, d.1.wrapping_add(k as i32))
                }
                None => 0,
            }
        }
        B::Memset => {
            let n = u32::try_from(arg(2)).unwrap_or(u32::MAX);
            vm.bytes_mut(arg(0), n)?.fill(arg(1) as u8);
            vm.charge(n as usize)?;
            arg(0)
        }
        B::Memcpy => {
            let n = u32::try_from(arg(2)).unwrap_or(u32::MAX);
            vm.copy_bytes(arg(0), arg(1), n)?;
            vm.charge(n as usize)?;
            arg(0)
        }
        B::Memcmp => {
            let n = u32::try_from(arg(2)).unwrap_or(u32::MAX);
            let x = vm.bytes(arg(0), n)?.to_vec();
            let y = vm.bytes(arg(1), n)?;
            let r = x
                .iter()
                .zip(y)
                .find(|(p, q)| p != q)
                .map_or(0, |(p, q)| i64::from(*p) - i64::from(*q));
            vm.charge(n as usize)?;
            r as u64
        }
        B::Malloc => vm.malloc(arg(0))?,
        B::Calloc => vm.malloc(arg(0).saturating_mul(arg(1)))?,
        B::Free => 0,
        B::Exit => return Err(Trap::Exit(int(0) as i32)),
        B::Ctype(c) => glibc_ctype(c, int(0)) as u64,
        B::Toupper => {
            let c = int(0);
            (if (97..=122).contains(&c) { c - 32 } else { c }) as u64
        }
        B::Tolower => {
            let c = int(0);
            (if (65..=90).contains(&c) { c + 32 } else { c }) as u64
        }
        B::Atoi | B::Atol | B::Atof => {
            let s = vm.cstr(arg(0))?;
            let v = match b {
                B::Atoi => convert(Sc::I64, Sc::I32, parse_int_prefix(s) as u64),
                B::Atol => parse_int_prefix(s) as u64,
                _ => parse_float_prefix(s).to_bits(),
            };
            let n = s.len();
            vm.charge(n)?;
            v
        }
        B::Nothing | B::Time => 0,
        B::Rand => {
            vm.rand_state = vm
                .rand_state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (vm.rand_state >> 33) & 0x7fff_ffff
        }
        B::Alloca => {
            let n = usize::try_from(arg(0)).unwrap_or(usize::MAX);
            if n > vm.limits.memory_bytes.saturating_sub(vm.mem_used())
                || n > (u32::MAX / 4) as usize
            {
                return Err(Trap::Memory);
            }
            vm.charge(n)?;
            let base = vm.mem.len() + super::vm::PAD as usize;
            vm.grow_frames(n + 2 * super::vm::PAD as usize);
            vm.objs.push(Obj {
                base: base as u32,
                len: n as u32,
            });
            make_ptr(vm.objs.len() as u32 - 1, 0)
        }
    };
    vm.stack.push(ret);
    Ok(())
}
