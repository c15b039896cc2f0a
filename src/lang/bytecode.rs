//! The compact executable form: a typed stack bytecode with resolved slots, objects and functions.

use super::types::{Ak, Sc};

/// Binary arithmetic / bitwise operators (comparisons are [`Cop`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bop {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
}

/// Comparison operators; they push an `int` 0 or 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cop {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cop {
    /// The comparison that is true exactly when this one is false, on integers (with a
    /// NaN operand both `<` and `>=` are false, so this is no negation on floats).
    pub fn integer_negation(self) -> Cop {
        match self {
            Cop::Eq => Cop::Ne,
            Cop::Ne => Cop::Eq,
            Cop::Lt => Cop::Ge,
            Cop::Le => Cop::Gt,
            Cop::Gt => Cop::Le,
            Cop::Ge => Cop::Lt,
        }
    }
}

/// Library functions implemented by the interpreter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    Printf,
    Sprintf,
    Scanf,
    Puts,
    Putchar,
    Getchar,
    Gets,
    Fgets,
    /// `double f(double)` from math.h; the payload picks the function.
    Math1(Math1),
    Pow,
    Atan2,
    Fmod,
    Hypot,
    Fmin,
    Fmax,
    Ldexp,
    /// `int abs(int)`.
    Abs,
    /// `long labs(long)` / `llabs`.
    Labs,
    Strlen,
    Strcmp,
    Strncmp,
    Strcpy,
    Strncpy,
    Strcat,
    Strchr,
    Memset,
    Memcpy,
    Memcmp,
    Malloc,
    Calloc,
    Free,
    Exit,
    /// `ctype.h` classification; payload picks the class.
    Ctype(Ctype),
    Toupper,
    Tolower,
    Atoi,
    Atol,
    Atof,
    /// Calls with no effect that return 0 (`system`, `fflush`, `srand`, `getch`, `freopen`...).
    Nothing,
    /// `time(NULL)`: a fixed 0 so runs replay.
    Time,
    /// `rand()`: a fixed LCG sequence.
    Rand,
    /// Variable-length array storage: `[bytes] -> [ptr]` (freed when the function returns).
    Alloca,
    /// `fprintf(stream, ...)`: like printf for stdout, discarded for stderr.
    Fprintf,
    /// `fscanf(stream, ...)`: like scanf.
    Fscanf,
    /// `fputs(s, stream)`.
    Fputs,
    /// `sscanf(s, format, ...)`: scanf over a string.
    Sscanf,
    /// `strtok(s, delim)`: the next token of `s` (`NULL`: of the string before).
    Strtok,
}

impl Builtin {
    /// Whether the function reads stdin.
    pub fn reads_input(self) -> bool {
        matches!(
            self,
            Builtin::Scanf | Builtin::Fscanf | Builtin::Getchar | Builtin::Gets | Builtin::Fgets
        )
    }
}

/// Unary math functions `double -> double`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Math1 {
    Fabs,
    Sqrt,
    Floor,
    Ceil,
    Round,
    Trunc,
    Log,
    Log10,
    Log2,
    Exp,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Cbrt,
    Exp2,
    Log1p,
    Expm1,
    Rint,
}

/// `ctype.h` character classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ctype {
    Digit,
    Alpha,
    Alnum,
    Space,
    Upper,
    Lower,
    Punct,
    Xdigit,
    Print,
}

/// How one variadic argument is passed (x86-64 SysV: integers and doubles in separate register files).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgClass {
    /// An integer of 32 bits or less: zero-extended from 32 bits, as gcc -O0 passes it.
    Int32,
    /// A 64-bit integer or a pointer.
    Int64,
    /// A double (floats are promoted).
    Double,
}

/// One instruction. Stack effects are noted as `[inputs] -> [outputs]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Instr {
    /// No effect.
    Nop,
    /// Costs one step of fuel and marks statement `n` covered.
    Stmt(u32),
    /// `[] -> [c]`.
    Const(u64),
    /// `[a] -> []`.
    Pop,
    /// `[a] -> [a a]`.
    Dup,
    /// `[a b] -> [b a]`.
    Swap,
    /// `[] -> [slot]` (frame-relative register).
    Slot(u32),
    /// `[v] -> []`.
    SetSlot(u32),
    /// `[] -> [ptr]` to frame object `n`.
    AddrLocal(u32),
    /// `[] -> [v]`: a global scalar at a fixed offset of global memory.
    LoadG(Sc, u32),
    /// `[v] -> []`: stores a global scalar at a fixed offset.
    StoreG(Sc, u32),
    /// `[ptr] -> [v]`.
    Load(Sc),
    /// `[ptr v] -> []`.
    Store(Sc),
    /// `[ptr v] -> [v]`.
    StoreKeep(Sc),
    /// `++`/`--` on a slot: `[] -> [old or new]`.
    IncSlot {
        slot: u32,
        sc: Sc,
        delta: i32,
        post: bool,
    },
    /// `++`/`--` through a pointer: `[ptr] -> [old or new]`.
    IncMem { sc: Sc, delta: i32, post: bool },
    /// `[a b] -> [a op b]` in kind `Ak` (shifts: `b` is any integer).
    Bin(Bop, Ak),
    /// `[a b] -> [int]`.
    Cmp(Cop, Ak),
    /// `[a] -> [-a]`.
    Neg(Ak),
    /// `[a] -> [~a]`.
    BitNot(Ak),
    /// `[a] -> [a == 0]` as int.
    Not(Ak),
    /// `[a] -> [a != 0]` as int.
    ToBool(Ak),
    /// `[a] -> [(to) a]`.
    Conv(Sc, Sc),
    /// `[ptr i64] -> [ptr + i * size]`.
    PtrAdd(u32),
    /// `[ptr ptr] -> [(p - q) / size]` as long.
    PtrDiff(u32),
    /// `[ptr ptr] -> [int]`.
    PtrCmp(Cop),
    /// Unconditional jump.
    Jmp(u32),
    /// `[c] -> []`, jump when `c` is zero.
    Jz(u32),
    /// `[c] -> []`, jump when `c` is non-zero.
    Jnz(u32),
    /// `[args..] -> [ret]` (void functions return 0).
    Call(u32),
    /// `[v] -> ` return to caller.
    Ret,
    /// `[] -> [v]`: the value most recently returned by any call (what gcc leaves in eax
    /// when a non-void function falls off its end after a call).
    LastRet,
    /// `[args..] -> [ret]`; the second field indexes [`Code::sites`] (argument classes).
    Builtin(Builtin, u32),
    /// Copies constant bytes [`Code::data`]`[n]` into the object at `[ptr]`: `[ptr] -> []`.
    InitBytes(u32),
    /// `[ptr] -> []`: zeroes `n` bytes at ptr.
    ZeroBytes(u32),
    /// `[dst src] -> []`: copies `n` bytes (struct assignment).
    CopyBytes(u32),
    /// Fused `Const(c); Bin(op, k)`: `[a] -> [a op c]`.
    BinC(Bop, Ak, u64),
    /// Fused `Const(c); Cmp(op, k)`: `[a] -> [a op c]`.
    CmpC(Cop, Ak, u64),
    /// Fused `Cmp(op, k); Jz(t)`.
    CmpJz(Cop, Ak, u32),
    /// Fused `Const(c); Cmp(op, k); Jz(t)`.
    CmpCJz(Cop, Ak, u32, u64),
    /// Fused `IncSlot{..}; Pop`: `++`/`--` of a register whose value is unused.
    IncSlotDrop { slot: u32, sc: Sc, delta: i32 },
    /// Fused `AddrLocal(n); Load(sc)`: `[] -> [v]` from offset 0 of frame object `n`.
    LoadLocal(Sc, u32),
    /// Fused `Slot(s); Bin(op, k)`: `[a] -> [a op slot]`.
    BinS(Bop, Ak, u32),
    /// Fused `Slot(s); BinC(op, k, c)`: `[] -> [slot op c]`.
    BinSC(Bop, Ak, u32, u64),
    /// Fused `Bin(op, k); SetSlot(s)`: `[a b] -> []`, slot `s` gets `a op b`.
    BinSet(Bop, Ak, u32),
    /// Fused `Slot(a); Slot(b); CmpJz(op, k, t)`: `[] -> []`.
    CmpSSJz(Cop, Ak, u32, u32, u32),
    /// Fused `Slot(a); CmpCJz(op, k, t, c)` for a constant `c` that is a sign-extended
    /// `i32`: `[] -> []`; fields are (op, k, slot, target, c).
    CmpSCJz(Cop, Ak, u32, u32, i32),
    /// Fused `Slot(s); PtrAdd(size)`: `[ptr] -> [ptr + slot * size]`; fields (size, s).
    PtrAddS(u32, u32),
    /// Fused `Slot(s); PtrAdd(size); Load(sc)`: `[ptr] -> [*(ptr + slot * size)]`;
    /// fields (sc, size, s).
    LoadIdx(Sc, u32, u32),
    /// Fused `Slot(s); Cmp(op, k)`: `[a] -> [a op slot]`.
    CmpS(Cop, Ak, u32),
    /// Fused `IncSlotDrop{..}; Jmp(target)`.
    IncSlotJmp {
        slot: u32,
        sc: Sc,
        delta: i32,
        target: u32,
    },
    /// Fused `BinS(op, k, src); SetSlot(dst)`: `[a] -> []`, `dst` gets `a op src`.
    BinSSet(Bop, Ak, u32, u32),
    /// Fused `Stmt(n); Slot(s)`: the step of `Stmt(n)`, then `[] -> [slot]`; fields (n, s).
    StmtSlot(u32, u32),
    /// Fused `Dup; Jz(t); Pop` (the left side of `&&`): `[c] -> [c]` and jump when `c`
    /// is zero, else `[c] -> []`.
    JzOrPop(u32),
    /// Fused `Dup; Jnz(t); Pop` (the left side of `||`): `[c] -> [c]` and jump when `c`
    /// is non-zero, else `[c] -> []`.
    JnzOrPop(u32),
    /// Fused `AddrLocal(n); PtrAddS(size, s)`: `[] -> [&object_n[slot]]`; fields (n, size, s).
    AddrIdx(u32, u32, u32),
    /// Fused `AddrLocal(n); LoadIdx(sc, size, s)`: `[] -> [object_n[slot]]`;
    /// fields (sc, n, size, s).
    LocalIdx(Sc, u32, u32, u32),
    /// Fused `Const(&object_n); LoadIdx(sc, size, s)` for an object at a fixed address
    /// (a global array): `[] -> [object_n[slot]]`; fields (sc, n, size, s).
    GlobalIdx(Sc, u32, u32, u32),
    /// Fused `LoadLocal(sc, n); CmpJz(op, k, t)`: `[a] -> []`, jump when `a op object_n`
    /// is zero; fields (op, k, sc, n, t).
    CmpLJz(Cop, Ak, Sc, u32, u32),
    /// Fused `PtrAdd(size); Load(sc)`: `[ptr i64] -> [*(ptr + i * size)]`; fields (sc, size).
    LoadAt(Sc, u32),
    /// Fused `BinC(op, k, c); Store(sc)`: `[ptr a] -> []`, stores `a op c` at `ptr`;
    /// fields (op, k, sc, c).
    BinCStore(Bop, Ak, Sc, u64),
    /// Fused `Stmt(n); LoadLocal(sc, m)`: the step of `Stmt(n)`, then `[] -> [object_m]`;
    /// fields (n, sc, m).
    StmtLocal(u32, Sc, u32),
    /// Fused `Stmt(n); CmpSCJz(op, k, s, t, c)` for a slot `s` below 256: the step of
    /// `Stmt(n)`, then the compare-and-branch; fields (op, k, s, n, t, c).
    StmtCmpSCJz(Cop, Ak, u8, u32, u32, i32),
    /// Fused `Slot(a); CmpS(op, k, b)`: `[] -> [slot_a op slot_b]`.
    CmpSS(Cop, Ak, u32, u32),
    /// Fused `LoadG(sc, off); Bin(op, k)`: `[a] -> [a op global]`; fields (op, k, sc, off).
    BinG(Bop, Ak, Sc, u32),
    /// Fused `Slot(s); CmpJz(op, k, t)`: `[a] -> []`, jump when `a op slot` is zero;
    /// fields (op, k, s, t).
    CmpSJz(Cop, Ak, u32, u32),
    /// Fused `LoadG(sc, off); CmpJz(op, k, t)`: `[a] -> []`, jump when `a op global` is
    /// zero; fields (op, k, sc, off, t).
    CmpGJz(Cop, Ak, Sc, u32, u32),
    /// Fused `Slot(s); CmpLJz(op, k, sc, n, t)`: `[] -> []`, jump when `slot op object_n`
    /// is zero; fields (op, k, sc, s, n, t).
    CmpSLJz(Cop, Ak, Sc, u32, u32, u32),
    /// Fused `Stmt(m); CmpSLJz(op, k, sc, s, n, t)` for a slot below 256 and an object
    /// below 65536: the step of `Stmt(m)`, then the compare-and-branch; fields
    /// (op, k, sc, s, n, m, t).
    StmtCmpSLJz(Cop, Ak, Sc, u8, u16, u32, u32),
    /// Fused `Stmt(n); Slot(a); BinS(op, k, b)`: the step of `Stmt(n)`, then
    /// `[] -> [slot_a op slot_b]`; fields (op, k, n, a, b).
    StmtBinSS(Bop, Ak, u32, u32, u32),
    /// Fused `Stmt(n); CmpSSJz(op, k, a, b, t)` for slots below 65536: the step of
    /// `Stmt(n)`, then the compare-and-branch; fields (op, k, a, b, n, t).
    StmtCmpSSJz(Cop, Ak, u16, u16, u32, u32),
    /// Fused `StmtSlot(n, a); BinSSet(op, k, b, d)` (a statement `d = a op b;` of
    /// registers) for slots below 65536: the step of `Stmt(n)`, then
    /// `slot_d = slot_a op slot_b`; fields (op, k, a, b, d, n).
    StmtBinSSSet(Bop, Ak, u16, u16, u16, u32),
    /// Fused `Stmt(n); LoadG(sc, off)`: the step of `Stmt(n)`, then `[] -> [global]`;
    /// fields (sc, off, n).
    StmtLoadG(Sc, u32, u32),
    /// Fused `GlobalIdx(sc, n, size, s); Bin(op, k)`: `[a] -> [a op object_n[slot]]`;
    /// fields (op, k, sc, n, size, s).
    BinGlobalIdx(Bop, Ak, Sc, u32, u32, u32),
    /// A repair hole ([`Code::holes`]`[n]`): `[v] -> [w]` where `w` is what the run's
    /// [`HoleHandler`](super::vm::HoleHandler) answers for the original value `v` and the
    /// current values of the site's variables (without a handler, `w = v`).
    Hole(u32),
}

/// Where a variable visible at a hole lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HoleVarPlace {
    /// A frame register.
    Slot(u32),
    /// Offset 0 of frame object `n` (an address-taken scalar, e.g. one read by `scanf`).
    Local(u32),
    /// A global scalar at this offset of global memory.
    Global(u32),
}

/// A scalar variable visible at a hole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoleVar {
    /// The C name.
    pub name: String,
    /// Its storage kind.
    pub sc: Sc,
    /// Where its value lives.
    pub place: HoleVarPlace,
}

/// One hole site: the expression node replaced, its value kind and the scalar variables
/// in scope there (sorted by name; an inner declaration shadows an outer one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoleSite {
    /// The expression node the hole stands for.
    pub node: super::ast::NodeId,
    /// Kind of the expression's value (after array/function decay).
    pub sc: Sc,
    /// Scalar variables in scope.
    pub vars: Vec<HoleVar>,
}

/// A compiled function.
#[derive(Clone, Debug, Default)]
pub struct Func {
    /// Source name.
    pub name: String,
    /// First instruction.
    pub entry: u32,
    /// Number of parameters (the first slots).
    pub n_params: u32,
    /// Registers (params, scalar locals, temporaries).
    pub n_slots: u32,
    /// Bytes of frame memory (arrays and address-taken locals, with the bounds-check
    /// padding around each).
    pub frame_bytes: u32,
    /// Bytes of the frame's objects themselves, without their padding: what a call is
    /// charged for zeroing its frame (`vm::BYTES_PER_STEP`).
    pub object_bytes: u32,
    /// Frame objects: (offset in frame memory, length).
    pub objects: Vec<(u32, u32)>,
    /// The source name of each frame object (empty for the compiler's temporaries), for
    /// the message of a read of uninitialised memory.
    pub object_names: Vec<String>,
    /// The objects that start uninitialised, whose read before a write stops the run:
    /// scalar locals whose address is never taken (kept in memory because definite
    /// assignment could not prove them written first). Reading one is undefined behaviour
    /// in C (C11 6.3.2.1p2); an array's, a structure's or an address-taken scalar's
    /// unwritten bytes only have an unspecified value, and read as zeros.
    pub uninitialised: Vec<u32>,
}

/// A call site's variadic argument classes.
pub type Site = Vec<ArgClass>;

/// The whole compiled program.
#[derive(Clone, Debug, Default)]
pub struct Code {
    /// Instructions of all functions.
    pub instrs: Vec<Instr>,
    /// Source line of each instruction.
    pub lines: Vec<u32>,
    /// Functions, indexed by `Instr::Call`.
    pub funcs: Vec<Func>,
    /// Argument classes of variadic builtin call sites.
    pub sites: Vec<Site>,
    /// Constant byte blobs (string literals, array initialisers).
    pub data: Vec<Vec<u8>>,
    /// Bytes of global memory (globals and string literals).
    pub global_bytes: u64,
    /// Non-zero initial contents of global memory: (offset, data index).
    pub global_init: Vec<(u32, u32)>,
    /// Global objects: (offset, length); object ids start at 1 (0 is null).
    pub global_objects: Vec<(u32, u32)>,
    /// Number of statements (coverage indices).
    pub n_stmts: u32,
    /// Repair hole sites, indexed by [`Instr::Hole`] (empty unless compiled with a hole).
    pub holes: Vec<HoleSite>,
}

impl Code {
    /// The source line of the instruction at `pc` (0 outside the code).
    pub fn line_at(&self, pc: u32) -> u32 {
        self.lines.get(pc as usize).copied().unwrap_or(0)
    }
}
