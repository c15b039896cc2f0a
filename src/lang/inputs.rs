//! What a program reads: the name and C type of each input number (from its parameters or its straight-line `scanf` calls) and its integer constants.
//!
//! The fuzzer takes type limits and program constants from here, and the oracle's
//! formula names the program's own variables (`a`, `b`, `c` for `scanf("%d %d %d", &a,
//! &b, &c)`). Reads that depend on control flow (a `scanf` in a loop, a branch or another
//! function, a `*` conversion) end the description: later input numbers have no name.

use super::ast::{
    Expr, ExprKind, FunctionDef, Item, ScalarType, Stmt, StmtKind, TranslationUnit, Type, UnaryOp,
};
use super::format::{conversions, Length};
use super::visit::{for_each_expr_in_stmt, walk_expr, walk_unit, Visitor};
use super::Shape;
use std::collections::BTreeSet;

/// The C type an input number is read into, as far as its limits go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InputType {
    /// An integer of `bits` bits, signed or not.
    Int {
        /// Width in bits (8, 16, 32 or 64).
        bits: u32,
        /// Signed.
        signed: bool,
    },
    /// `float` or `double`.
    Float,
}

impl InputType {
    /// The smallest and largest value of an integer type (`None` for floats); unsigned
    /// 64-bit values are capped at `i64::MAX`, the largest input number.
    pub fn int_limits(self) -> Option<(i64, i64)> {
        let InputType::Int { bits, signed } = self else {
            return None;
        };
        let bits = bits.clamp(8, 64);
        Some(if signed {
            let max = if bits == 64 {
                i64::MAX
            } else {
                (1i64 << (bits - 1)) - 1
            };
            (-max - 1, max)
        } else if bits == 64 {
            (0, i64::MAX)
        } else {
            (0, (1i64 << bits) - 1)
        })
    }

    fn of_scalar(t: ScalarType) -> Option<InputType> {
        use ScalarType::*;
        let int = |bits, signed| Some(InputType::Int { bits, signed });
        match t {
            Bool | UChar => int(8, false),
            Char | SChar => int(8, true),
            Short => int(16, true),
            UShort => int(16, false),
            Int => int(32, true),
            UInt => int(32, false),
            Long | LongLong => int(64, true),
            ULong | ULongLong => int(64, false),
            Float | Double | LongDouble => Some(InputType::Float),
            Void => None,
        }
    }

    /// What a `scanf` conversion reads (`None` for text conversions such as `%s`, `%c`).
    fn of_conversion(conv: u8, length: Length) -> Option<InputType> {
        match conv {
            b'd' | b'i' | b'u' | b'o' | b'x' | b'X' => Some(InputType::Int {
                bits: length.int_bits(),
                signed: matches!(conv, b'd' | b'i'),
            }),
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => Some(InputType::Float),
            _ => None,
        }
    }
}

/// One input number the program reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputSlot {
    /// The variable or parameter it is read into, when that is a plain name.
    pub name: Option<String>,
    /// Its type.
    pub ty: InputType,
}

/// What a program reads, as far as it is known without running it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProgramInputs {
    /// The input numbers in order, as far as they are known.
    pub slots: Vec<InputSlot>,
    /// The program's integer constants (literals and character constants), sorted.
    pub constants: Vec<i64>,
    /// Whether any function of the program calls a C library function that reads stdin
    /// (a `main` program that does not prints the same whatever the input).
    pub reads_stdin: bool,
    /// Whether the program reads text: characters or strings (`%s`, `%c`, `%[` in a
    /// `scanf` format, `getchar`, `gets`, `fgets`, ...), which fixloop's inputs, numbers,
    /// cover only as the texts numbers print as.
    pub reads_text: bool,
}

impl ProgramInputs {
    /// The slot of input position `i`, if known.
    pub fn slot(&self, i: usize) -> Option<&InputSlot> {
        self.slots.get(i)
    }

    /// Names for `arity` input positions: the program's own where every one of them is
    /// known and they are distinct, otherwise `x1 .. xn`.
    pub fn names(&self, arity: usize) -> Vec<String> {
        let own: Vec<&str> = (0..arity)
            .filter_map(|i| self.slots.get(i)?.name.as_deref())
            .collect();
        let distinct = own.iter().collect::<BTreeSet<_>>().len() == arity;
        if own.len() == arity && distinct {
            own.into_iter().map(str::to_string).collect()
        } else {
            (1..=arity).map(|i| format!("x{i}")).collect()
        }
    }
}

/// What the parsed program `unit` of shape `shape` reads; a compiled program keeps it,
/// [`crate::lang::Program::inputs`].
pub fn describe(unit: &TranslationUnit, shape: &Shape) -> ProgramInputs {
    let entry = match shape {
        Shape::Main => "main",
        Shape::Function { name, .. } => name.as_str(),
    };
    let function = unit.items.iter().find_map(|item| match item {
        Item::Function(f) if f.name == entry => Some(f),
        _ => None,
    });
    let slots = match (shape, function) {
        (_, None) => Vec::new(),
        (Shape::Main, Some(f)) => {
            let user = unit
                .items
                .iter()
                .filter_map(|item| match item {
                    Item::Function(f) => Some(f.name.as_str()),
                    Item::Decl(_) => None,
                })
                .collect();
            straight_line_reads(f, &user)
        }
        (Shape::Function { .. }, Some(f)) => f
            .params
            .iter()
            .map_while(|p| {
                let Type::Scalar(t) = p.ty else { return None };
                Some(InputSlot {
                    name: p.name.clone(),
                    ty: InputType::of_scalar(t)?,
                })
            })
            .collect(),
    };
    let none = BTreeSet::new();
    let any_stmt = |test: &dyn Fn(&Stmt) -> bool| {
        unit.items.iter().any(|item| match item {
            Item::Function(f) => f.body.stmts.iter().any(test),
            Item::Decl(_) => false,
        })
    };
    ProgramInputs {
        slots,
        constants: constants(unit),
        reads_stdin: any_stmt(&|st| reads_input(st, &none)),
        reads_text: any_stmt(&reads_text),
    }
}

/// The numbers read by the `scanf` calls of `main`'s top-level statements, in order, up to
/// the first read that depends on control flow.
fn straight_line_reads(main: &FunctionDef, user: &BTreeSet<&str>) -> Vec<InputSlot> {
    let mut slots = Vec::new();
    for stmt in &main.body.stmts {
        match &stmt.kind {
            StmtKind::Expr(e) => {
                if let Some(call) = scanf_call(e) {
                    let Some(read) = scanf_slots(call) else {
                        return slots;
                    };
                    slots.extend(read);
                } else if reads_input(stmt, user) {
                    return slots;
                }
            }
            StmtKind::Decl(_) if !reads_input(stmt, user) => {}
            _ if reads_input(stmt, user) => return slots,
            _ => {}
        }
    }
    slots
}

/// The `scanf` call an expression statement is (also `n = scanf(...)` and `(void)`).
fn scanf_call(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Call { callee, .. } if callee == "scanf" => Some(e),
        ExprKind::Assign { rhs, .. } => scanf_call(rhs),
        ExprKind::Cast { expr, .. } => scanf_call(expr),
        _ => None,
    }
}

/// The slots one `scanf(format, &a, ...)` call reads, or `None` when any of its
/// conversions is not a number read into a known place (`%s`, `%c`, `%*d`, a computed
/// format).
fn scanf_slots(call: &Expr) -> Option<Vec<InputSlot>> {
    let ExprKind::Call { args, .. } = &call.kind else {
        return None;
    };
    let ExprKind::StringLit(format) = &args.first()?.kind else {
        return None;
    };
    if format.contains(&b'*') {
        return None;
    }
    let convs = conversions(format);
    if convs.len() != args.len() - 1 {
        return None;
    }
    convs
        .iter()
        .zip(&args[1..])
        .map(|(c, arg)| {
            let ty = InputType::of_conversion(c.conv, c.length)?;
            let name = match &arg.kind {
                ExprKind::Unary {
                    op: UnaryOp::AddrOf,
                    operand,
                } => match &operand.kind {
                    ExprKind::Ident(n) => Some(n.clone()),
                    _ => None,
                },
                _ => None,
            };
            Some(InputSlot { name, ty })
        })
        .collect()
}

/// Whether a statement reads input anywhere: a call of a C library function that reads
/// stdin, or of a function of the program (`user`), which might.
fn reads_input(stmt: &Stmt, user: &BTreeSet<&str>) -> bool {
    let mut reads = false;
    for_each_expr_in_stmt(stmt, &mut |e| {
        if let ExprKind::Call { callee, .. } = &e.kind {
            let library_read = (callee.contains("scanf") && callee != "sscanf")
                || matches!(
                    callee.as_str(),
                    "getchar" | "gets" | "fgets" | "getc" | "fgetc" | "getline" | "read"
                );
            if library_read || user.contains(callee.as_str()) {
                reads = true;
            }
        }
    });
    reads
}

/// Whether a statement reads text anywhere: a character or line reader of the C library,
/// or a `scanf`-family call whose format has a text conversion (or is computed).
fn reads_text(stmt: &Stmt) -> bool {
    let mut text = false;
    for_each_expr_in_stmt(stmt, &mut |e| {
        let ExprKind::Call { callee, args, .. } = &e.kind else {
            return;
        };
        text |= matches!(
            callee.as_str(),
            "getchar" | "gets" | "fgets" | "getc" | "fgetc" | "getline" | "read"
        );
        if callee.contains("scanf") && callee != "sscanf" {
            let format = args.iter().find_map(|a| match &a.kind {
                ExprKind::StringLit(f) => Some(f),
                _ => None,
            });
            text |= format.is_none_or(|f| {
                conversions(f)
                    .iter()
                    .any(|c| matches!(c.conv, b's' | b'c' | b'['))
            });
        }
    });
    text
}

/// Every integer literal and character constant of the program, sorted and distinct.
fn constants(unit: &TranslationUnit) -> Vec<i64> {
    let mut c = Constants::default();
    walk_unit(&mut c, unit);
    c.0.into_iter().collect()
}

/// The integer literals and character constants a walk reaches outside types: an
/// array's size bounds storage, it is no value the program computes or compares with
/// (`int a[100005]`), so neither the fuzzer nor repair's constant pool takes it.
#[derive(Default)]
pub struct Constants(pub BTreeSet<i64>);

impl<'a> Visitor<'a> for Constants {
    fn visit_type(&mut self, _: &'a Type) {}

    fn visit_expr(&mut self, e: &'a Expr) {
        match e.kind {
            ExprKind::IntLit { value, .. } => {
                if let Ok(v) = i64::try_from(value) {
                    self.0.insert(v);
                }
            }
            ExprKind::CharLit(v) => {
                self.0.insert(v);
            }
            _ => {}
        }
        walk_expr(self, e);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::compile;

    fn inputs(src: &str) -> ProgramInputs {
        compile(src).expect("compiles").inputs().clone()
    }

    fn int(bits: u32) -> InputType {
        InputType::Int { bits, signed: true }
    }

    #[test]
    fn scanf_destinations_name_the_inputs() {
        let p = inputs(
            "#include <stdio.h>\nint main(void) { int a, b; long long c; scanf(\"%d %d\", &a, &b);\n\
             scanf(\"%lld\", &c); if (a == 7) printf(\"x\"); return 0; }",
        );
        let names: Vec<_> = p.slots.iter().map(|s| s.name.clone().unwrap()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(p.slots[2].ty, int(64));
        assert_eq!(p.names(3), ["a", "b", "c"]);
        assert_eq!(p.constants, vec![0, 7]);
    }

    #[test]
    fn reads_in_loops_end_the_description() {
        let p = inputs(
            "#include <stdio.h>\nint main(void) { int n, i, x, s = 0; scanf(\"%d\", &n);\n\
             for (i = 0; i < n; i++) { scanf(\"%d\", &x); s += x; } printf(\"%d\", s); return 0; }",
        );
        assert_eq!(p.slots.len(), 1);
        assert_eq!(p.names(1), ["n"]);
        // More numbers than known names: the generic names.
        assert_eq!(p.names(3), ["x1", "x2", "x3"]);
    }

    #[test]
    fn parameters_name_a_function_s_inputs() {
        let p = inputs("int classify(int a, int b, unsigned c) { return a + b + c; }");
        assert_eq!(p.names(3), ["a", "b", "c"]);
        assert_eq!(
            p.slots[2].ty,
            InputType::Int {
                bits: 32,
                signed: false
            }
        );
        assert_eq!(
            int(32).int_limits(),
            Some((i32::MIN as i64, i32::MAX as i64))
        );
        assert_eq!(p.slots[2].ty.int_limits(), Some((0, u32::MAX as i64)));
    }

    #[test]
    fn array_elements_and_repeated_names_get_generic_names() {
        let p = inputs(
            "#include <stdio.h>\nint main(void) { int v[2]; scanf(\"%d %d\", &v[0], &v[1]); return v[0]; }",
        );
        assert_eq!(p.slots.len(), 2);
        assert_eq!(p.names(2), ["x1", "x2"]);
        let q = inputs(
            "#include <stdio.h>\nint main(void) { int a; scanf(\"%d\", &a); scanf(\"%d\", &a); return a; }",
        );
        assert_eq!(q.names(2), ["x1", "x2"]);
    }
    #[test]
    fn text_reads_are_told_apart_from_number_reads() {
        let reads = |body: &str| {
            inputs(&format!(
                "#include <stdio.h>\nint main(void) {{ int n; char s[20]; {body} return 0; }}"
            ))
            .reads_text
        };
        assert!(!reads("scanf(\"%d\", &n);"));
        assert!(!reads("scanf(\"%lld %lf\", &n, &n);"));
        assert!(reads("scanf(\"%s\", s);"));
        assert!(reads("scanf(\"%d %c\", &n, s);"));
        assert!(reads("scanf(\"%[^\\n]\", s);"));
        assert!(reads("gets(s);"));
        assert!(reads("for (n = 0; n < 3; n++) s[n] = getchar();"));
        // A function's parameters are numbers.
        assert!(!inputs("int f(int a) { return a; }").reads_text);
    }
}
