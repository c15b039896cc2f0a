//! Semantic analysis and code generation: resolves names and types of an AST and emits bytecode.

use std::collections::{HashMap, HashSet};

use super::arith::{canon, conditional_kind, convert, convert_constant, cop, sc_of, BinaryRule};
use super::ast::{
    BinaryOp, Block, Declaration, Declarator, Expr, ExprKind, FunctionDef, Initializer, Item,
    NodeId, Span, Stmt, StmtKind, Storage, StructDef, TranslationUnit, Type, UnaryOp,
};
use super::builtins::{self, Sig};
use super::bytecode::{
    ArgClass, Bop, Builtin, Code, Cop, Func, HoleSite, HoleVar, HoleVarPlace, Instr,
};
use super::diag::Diagnostic;
use super::scalar_eval::{self, Node};
use super::types::{Ak, Sc, StructLayout, Ty};
use super::visit::{for_each_expr, for_each_expr_in_stmt, walk_stmt, Visitor};
use super::vm::{make_ptr, split_ptr, PAD};

/// Headers whose functions and macros the interpreter supports.
pub const SUPPORTED_HEADERS: &[&str] = &[
    "stdio.h",
    "stdlib.h",
    "math.h",
    "string.h",
    "ctype.h",
    "limits.h",
    "stdbool.h",
    "stdint.h",
    "inttypes.h",
    "float.h",
    "time.h",
    "assert.h",
    "malloc.h",
    "memory.h",
    "strings.h",
    "stddef.h",
    "stdarg.h",
    "errno.h",
    "locale.h",
    "unistd.h",
    "conio.h",
    "iso646.h",
];

/// A defined function's (name, named parameters, return type, declared `static`).
pub type Signature = (String, Vec<(String, Ty)>, Ty, bool);

/// A compiled program's extra tables beside the bytecode.
#[derive(Clone, Debug, Default)]
pub struct Compiled {
    /// The bytecode.
    pub code: Code,
    /// Function index of each defined function by name.
    pub func_index: HashMap<String, u32>,
    /// Signatures of defined functions: (name, params, ret, static).
    pub signatures: Vec<Signature>,
    /// Statement coverage index -> (statement node id, line).
    pub stmts: Vec<(NodeId, u32)>,
    /// Expression node id -> first instruction of its code (for future in-place patching).
    pub expr_at: HashMap<NodeId, u32>,
}

#[derive(Clone, Debug)]
enum Var {
    /// A scalar in a frame register.
    Slot(u32, Ty),
    /// A global object (pointer constant) of the given type.
    Global(u64, Ty),
    /// A frame object of the given type.
    Local(u32, Ty),
    /// A variable-length array: the register holds a pointer to its storage.
    Vla(u32, Ty),
    /// An enumeration constant.
    Const(i64),
}

/// Where an lvalue lives; for `Mem` the pointer has been pushed.
enum Place {
    Slot(u32, Ty),
    Mem(Ty),
    /// A global scalar: (offset in global memory, pointer, type); nothing pushed.
    Global(u32, u64, Ty),
}

#[derive(Default)]
struct FnState {
    n_slots: u32,
    frame_bytes: u32,
    objects: Vec<(u32, u32)>,
    object_names: Vec<String>,
    /// See [`Func::uninitialised`].
    uninitialised: Vec<u32>,
    /// Locals a read may reach before any assignment ([`super::definite`]).
    maybe_uninitialised: HashSet<String>,
    ret: Option<Ty>,
    breaks: Vec<Vec<usize>>,
    continues: Vec<Vec<usize>>,
    labels: HashMap<String, u32>,
    gotos: Vec<(usize, String, Span)>,
    addr_taken: HashSet<String>,
    /// Case/default statement node -> jump slot to patch with its address.
    case_targets: HashMap<NodeId, usize>,
    /// A function returning a structure: its return buffer.
    ret_buf: Option<u64>,
}

#[derive(Clone)]
struct FnSym {
    idx: u32,
    ret: Ty,
    params: Option<Vec<Ty>>,
    defined: bool,
}

/// Compiles a parsed translation unit; `Err` holds every semantic diagnostic.
pub fn compile_unit(tu: &TranslationUnit) -> Result<Compiled, Vec<Diagnostic>> {
    compile_unit_with_hole(tu, None)
}

/// Like [`compile_unit`], and the value of expression node `hole` (when it is a scalar
/// rvalue) goes through an [`Instr::Hole`] so a repair engine can watch and replace it.
pub fn compile_unit_with_hole(
    tu: &TranslationUnit,
    hole: Option<NodeId>,
) -> Result<Compiled, Vec<Diagnostic>> {
    let mut c = Compiler {
        hole,
        ..Compiler::default()
    };
    c.unit(tu);
    if c.diags.is_empty() {
        c.out.code.n_stmts = c.out.stmts.len() as u32;
        peephole(&mut c.out);
        Ok(c.out)
    } else {
        Err(c.diags)
    }
}

#[derive(Default)]
struct Compiler {
    out: Compiled,
    diags: Vec<Diagnostic>,
    globals: HashMap<String, Var>,
    funcs: HashMap<String, FnSym>,
    scopes: Vec<HashMap<String, Var>>,
    f: FnState,
    line: u32,
    strings: HashMap<Vec<u8>, u64>,
    types: HashMap<NodeId, Option<Ty>>,
    /// The expression node compiled as a repair hole, if any.
    hole: Option<NodeId>,
    /// Structure layouts by key (tags are not scoped: a later definition of a tag
    /// replaces the earlier one).
    structs: HashMap<String, std::sync::Arc<StructLayout>>,
    /// Each function returning a structure: the global buffer its `return` copies to.
    ret_bufs: HashMap<String, u64>,
}

/// Well-known macro constants accepted even when the preprocessor left them as names.
fn known_constant(name: &str) -> Option<(u64, Ty)> {
    let i = |v: i64| Some((v as u64, Ty::INT));
    let ll = |v: i64| Some((v as u64, Ty::Scalar(Sc::I64)));
    match name {
        "INT_MAX" => i(i32::MAX as i64),
        "INT_MIN" => i(i32::MIN as i64),
        "UINT_MAX" => Some((u32::MAX as u64, Ty::Scalar(Sc::U32))),
        "LONG_MAX" | "LLONG_MAX" | "INT64_MAX" => ll(i64::MAX),
        "LONG_MIN" | "LLONG_MIN" | "INT64_MIN" => ll(i64::MIN),
        "ULONG_MAX" | "ULLONG_MAX" | "UINT64_MAX" => Some((u64::MAX, Ty::Scalar(Sc::U64))),
        "SHRT_MAX" => i(i16::MAX as i64),
        "SHRT_MIN" => i(i16::MIN as i64),
        "USHRT_MAX" => i(u16::MAX as i64),
        "CHAR_MAX" | "SCHAR_MAX" => i(127),
        "CHAR_MIN" | "SCHAR_MIN" => i(-128),
        "UCHAR_MAX" => i(255),
        "CHAR_BIT" => i(8),
        "EOF" => i(-1),
        "RAND_MAX" => i(i32::MAX as i64),
        "EXIT_SUCCESS" | "false" => i(0),
        "EXIT_FAILURE" | "true" => i(1),
        "NULL" => Some((0, Ty::Ptr(Box::new(Ty::Void)))),
        "stdin" => Some((0, Ty::Ptr(Box::new(Ty::Void)))),
        "stdout" => Some((1, Ty::Ptr(Box::new(Ty::Void)))),
        "stderr" => Some((2, Ty::Ptr(Box::new(Ty::Void)))),
        "M_PI" => Some((std::f64::consts::PI.to_bits(), Ty::DOUBLE)),
        "M_E" => Some((std::f64::consts::E.to_bits(), Ty::DOUBLE)),
        "DBL_MAX" => Some((f64::MAX.to_bits(), Ty::DOUBLE)),
        "DBL_MIN" => Some((f64::MIN_POSITIVE.to_bits(), Ty::DOUBLE)),
        "FLT_MAX" => Some(((f32::MAX as f64).to_bits(), Ty::Scalar(Sc::F32))),
        "DBL_EPSILON" => Some((f64::EPSILON.to_bits(), Ty::DOUBLE)),
        "INFINITY" | "HUGE_VAL" => Some((f64::INFINITY.to_bits(), Ty::DOUBLE)),
        _ => None,
    }
}

/// A compile-time constant: canonical register value and kind.
#[derive(Clone, Copy, Debug)]
struct CVal(u64, Sc);

impl CVal {
    /// The value of an integer constant as a signed 64-bit number (`None`: floating).
    fn int(self) -> Option<i64> {
        self.1
            .is_int()
            .then(|| convert(self.1, Sc::I64, self.0) as i64)
    }
    /// Whether the constant is an unsigned integer whose value does not fit `i64`.
    fn huge(self) -> bool {
        self.1 == Sc::U64 && (self.0 as i64) < 0
    }
}

/// Adds to `set` the names whose address `&name` statement `s` takes.
fn collect_addr_taken(s: &Stmt, set: &mut HashSet<String>) {
    for_each_expr_in_stmt(s, &mut |x| {
        if let ExprKind::Unary {
            op: UnaryOp::AddrOf,
            operand,
        } = &x.kind
        {
            if let ExprKind::Ident(n) = &operand.kind {
                set.insert(n.clone());
            }
        }
    });
}

/// Whether evaluating `e` changes state (increments, assignments, calls).
fn has_side_effects(e: &Expr) -> bool {
    let mut found = false;
    for_each_expr(e, &mut |x| {
        found |= matches!(
            &x.kind,
            ExprKind::Unary {
                op: UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec,
                ..
            } | ExprKind::Assign { .. }
                | ExprKind::Call { .. }
        );
    });
    found
}

impl Compiler {
    fn err(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    fn emit(&mut self, i: Instr) -> usize {
        self.out.code.instrs.push(i);
        self.out.code.lines.push(self.line);
        self.out.code.instrs.len() - 1
    }

    fn here(&self) -> u32 {
        self.out.code.instrs.len() as u32
    }

    fn patch(&mut self, at: usize, target: u32) {
        if let Some(i) = self.out.code.instrs.get_mut(at) {
            *i = match *i {
                Instr::Jmp(_) => Instr::Jmp(target),
                Instr::Jz(_) => Instr::Jz(target),
                Instr::Jnz(_) => Instr::Jnz(target),
                other => other,
            };
        }
    }

    fn data(&mut self, bytes: Vec<u8>) -> u32 {
        self.out.code.data.push(bytes);
        self.out.code.data.len() as u32 - 1
    }

    /// Allocates a global object of `size` bytes; returns its pointer.
    fn global_object(&mut self, size: u64, init: Option<Vec<u8>>) -> u64 {
        let code = &mut self.out.code;
        let off = ((code.global_bytes + 7) & !7) + u64::from(PAD);
        code.global_bytes = off + size + u64::from(PAD);
        let size32 = u32::try_from(size).unwrap_or(u32::MAX);
        let off32 = u32::try_from(off).unwrap_or(u32::MAX);
        code.global_objects.push((off32, size32));
        let id = code.global_objects.len() as u32;
        if let Some(bytes) = init {
            if bytes.iter().any(|&b| b != 0) {
                let d = self.data(bytes);
                self.out.code.global_init.push((off32, d));
            }
        }
        make_ptr(id, 0)
    }

    fn global_offset(&self, p: u64) -> u32 {
        let id = (p >> 32) as usize;
        self.out
            .code
            .global_objects
            .get(id.wrapping_sub(1))
            .map_or(0, |o| o.0)
    }

    fn string_ptr(&mut self, s: &[u8]) -> u64 {
        if let Some(&p) = self.strings.get(s) {
            return p;
        }
        let mut bytes = s.to_vec();
        bytes.push(0);
        let p = self.global_object(bytes.len() as u64, Some(bytes));
        self.strings.insert(s.to_vec(), p);
        p
    }

    // ----------------------------------------------------------------------------- types

    fn ty(&mut self, t: &Type, span: Span) -> Ty {
        match t {
            Type::Scalar(s) => match sc_of(*s) {
                Some(sc) => Ty::Scalar(sc),
                None => Ty::Void,
            },
            Type::Pointer(inner) => Ty::Ptr(Box::new(self.ty(inner, span))),
            Type::Array { elem, size } => {
                let e = self.ty(elem, span);
                let n = match size {
                    Some(x) => match self.const_eval(x) {
                        Some(v) if v.huge() => v.0,
                        Some(v) => match v.int() {
                            Some(n) if n >= 0 => n as u64,
                            Some(_) => {
                                self.err(x.span, "size of array is negative");
                                0
                            }
                            None => {
                                self.err(x.span, "size of array has non-integer type");
                                0
                            }
                        },
                        None => {
                            self.err(x.span, "array size is not a constant");
                            0
                        }
                    },
                    None => 0,
                };
                Ty::Array(Box::new(e), n)
            }
            Type::Struct(key) => Ty::Struct(match self.structs.get(key) {
                Some(l) => l.clone(),
                None => std::sync::Arc::new(StructLayout::incomplete(key.clone())),
            }),
            Type::Function { .. } => {
                self.err(span, "unsupported: function pointer types");
                Ty::INT
            }
        }
    }

    /// Lays out the structures a declaration defines, in order (a definition's own key is
    /// known, incomplete, while its members are read: a member may point to it).
    fn define_structs(&mut self, defs: &[StructDef]) {
        for sd in defs {
            let key = sd.key.clone();
            self.structs.insert(
                key.clone(),
                std::sync::Arc::new(StructLayout::incomplete(key.clone())),
            );
            let mut members = Vec::with_capacity(sd.members.len());
            for (name, t) in &sd.members {
                let ty = self.ty(t, sd.span);
                if !self.is_complete(&ty) || ty == Ty::Void {
                    self.err(sd.span, format!("field '{name}' has incomplete type"));
                }
                members.push((name.clone(), ty));
            }
            let layout = StructLayout::new(key.clone(), members);
            self.structs.insert(key, std::sync::Arc::new(layout));
        }
    }

    /// Whether objects of type `t` have a known size (no incomplete structure inside).
    fn is_complete(&self, t: &Ty) -> bool {
        match t {
            Ty::Struct(l) => l.complete,
            Ty::Array(e, _) => self.is_complete(e),
            _ => true,
        }
    }

    /// `t` with incomplete structures (pointed to from inside their own definitions)
    /// replaced by their layouts, now known.
    fn completed(&self, t: Ty) -> Ty {
        match t {
            Ty::Struct(l) if !l.complete => match self.structs.get(&l.key) {
                Some(c) => Ty::Struct(c.clone()),
                None => Ty::Struct(l),
            },
            Ty::Ptr(e) => Ty::Ptr(Box::new(self.completed(*e))),
            Ty::Array(e, n) => Ty::Array(Box::new(self.completed(*e)), n),
            t => t,
        }
    }

    /// The value of a constant expression, by the same table of C's operators and
    /// conversions as the VM ([`scalar_eval`]); `None`: not a constant (or a division by
    /// zero).
    fn const_eval(&mut self, e: &Expr) -> Option<CVal> {
        let node = scalar_eval::resolve(e, &mut |x| self.const_leaf(x));
        node.kind()?;
        let (v, k) = node.eval(0, &[]).ok()?;
        Some(CVal(v, k))
    }

    /// The leaves of a constant expression: enumeration constants, the known macro
    /// constants and `sizeof`; any other name is not a constant.
    fn const_leaf(&mut self, e: &Expr) -> Option<Node> {
        Some(match &e.kind {
            ExprKind::Ident(n) => match self.lookup(n) {
                Some(Var::Const(v)) => Node::Value(canon(Sc::I32, v as u64), Sc::I32),
                None => match known_constant(n).and_then(|(v, t)| Some((v, t.sc()?))) {
                    Some((v, sc)) => Node::Value(v, sc),
                    None => Node::Unsupported,
                },
                _ => Node::Unsupported,
            },
            ExprKind::SizeofType(t) => {
                let t = self.ty(t, e.span);
                Node::Value(t.size(), Sc::U64)
            }
            ExprKind::SizeofExpr(x) => match self.type_of(x) {
                Some(t) => Node::Value(t.size(), Sc::U64),
                None => Node::Unsupported,
            },
            _ => return None,
        })
    }

    fn lookup(&self, name: &str) -> Option<Var> {
        for s in self.scopes.iter().rev() {
            if let Some(v) = s.get(name) {
                return Some(v.clone());
            }
        }
        self.globals.get(name).cloned()
    }

    // ----------------------------------------------------------------------------- unit

    fn unit(&mut self, tu: &TranslationUnit) {
        for inc in &tu.includes {
            if !SUPPORTED_HEADERS.contains(&inc.header.as_str()) {
                self.err(inc.span, format!("unsupported: header <{}>", inc.header));
            }
        }
        // Pass 1: function signatures (definitions and prototypes), so calls may precede them.
        let mut n_funcs = 0u32;
        for item in &tu.items {
            if let Item::Decl(d) = item {
                // File-scope structures, known to the signatures that use them.
                self.define_structs(&d.struct_defs);
            }
            if let Item::Function(f) = item {
                if self.funcs.get(&f.name).is_some_and(|s| s.defined) {
                    self.err(f.name_span, format!("redefinition of '{}'", f.name));
                    continue;
                }
                let ret = self.ty(&f.ret, f.span);
                if let Ty::Struct(l) = &ret {
                    // A structure is returned through this function's own global buffer,
                    // which each call site copies from at once.
                    let buf = self.global_object(l.size, None);
                    self.ret_bufs.insert(f.name.clone(), buf);
                }
                let params = f
                    .params
                    .iter()
                    .map(|p| {
                        let t = self.ty(&p.ty, p.span);
                        t.decay()
                    })
                    .collect::<Vec<_>>();
                let params = if f.unspecified_params && f.params.is_empty() {
                    None
                } else {
                    Some(params)
                };
                self.funcs.insert(
                    f.name.clone(),
                    FnSym {
                        idx: n_funcs,
                        ret,
                        params,
                        defined: true,
                    },
                );
                n_funcs += 1;
            }
        }
        self.out.code.funcs = vec![Func::default(); n_funcs as usize];
        for item in &tu.items {
            match item {
                Item::Function(f) => self.function(f),
                Item::Decl(d) => self.global_decl(d),
            }
        }
    }

    fn enum_consts(&mut self, d: &Declaration, global: bool) {
        let mut next = 0i64;
        for ec in &d.enum_consts {
            if let Some(v) = &ec.value {
                match self.const_eval(v) {
                    Some(c) => match c.int() {
                        Some(v) => next = v,
                        None => self.err(ec.span, "enumerator value is not an integer constant"),
                    },
                    None => self.err(ec.span, "enumerator value is not a constant"),
                }
            }
            let var = Var::Const(next);
            if global {
                self.globals.insert(ec.name.clone(), var);
            } else if let Some(s) = self.scopes.last_mut() {
                s.insert(ec.name.clone(), var);
            }
            next = next.wrapping_add(1);
        }
    }

    fn global_decl(&mut self, d: &Declaration) {
        self.line = d.span.line;
        self.enum_consts(d, true);
        if d.storage == Storage::Typedef {
            return;
        }
        for dc in &d.declarators {
            if matches!(dc.ty, Type::Function { .. }) {
                self.prototype(dc);
                continue;
            }
            if let Some(Var::Global(..)) = self.globals.get(&dc.name) {
                if dc.init.is_none() || d.storage == Storage::Extern {
                    continue; // tentative re-declaration
                }
            }
            let var = self.static_object(dc);
            self.globals.insert(dc.name.clone(), var);
        }
    }

    fn prototype(&mut self, dc: &Declarator) {
        if let Type::Function {
            ret,
            params,
            unspecified_params,
            ..
        } = &dc.ty
        {
            if self.funcs.contains_key(&dc.name) {
                return;
            }
            let ret = self.ty(ret, dc.span);
            let ps = params
                .iter()
                .map(|p| self.ty(&p.ty, p.span).decay())
                .collect::<Vec<_>>();
            // A prototype without definition: calls to it are errors unless it is a builtin.
            if builtins::lookup(&dc.name).is_none() {
                self.funcs.insert(
                    dc.name.clone(),
                    FnSym {
                        idx: u32::MAX,
                        ret,
                        params: if *unspecified_params && params.is_empty() {
                            None
                        } else {
                            Some(ps)
                        },
                        defined: false,
                    },
                );
            }
        }
    }

    /// A global or static object with a constant initialiser.
    fn static_object(&mut self, dc: &Declarator) -> Var {
        let mut ty = self.ty(&dc.ty, dc.span);
        ty = self.complete_array(ty, dc.init.as_ref());
        if ty == Ty::Void {
            self.err(
                dc.name_span,
                format!("variable '{}' declared void", dc.name),
            );
        } else if !self.is_complete(&ty) {
            self.err(
                dc.name_span,
                format!("storage size of '{}' isn't known", dc.name),
            );
        }
        let size = ty.size();
        if size > (1 << 31) {
            self.err(
                dc.name_span,
                format!("size of array '{}' is too large", dc.name),
            );
            return Var::Global(0, ty);
        }
        let init = dc.init.as_ref().and_then(|init| {
            let mut bytes = InitBytes::new(size as usize);
            self.const_init(&ty, init, &mut bytes);
            bytes.finish()
        });
        let p = self.global_object(size, init);
        Var::Global(p, ty)
    }

    /// A struct's brace list may not have more items than the struct has members.
    fn check_struct_items(&mut self, members: usize, items: usize, init: &Initializer) {
        if items > members {
            self.err(
                self.init_span(init),
                "excess elements in struct initializer",
            );
        }
    }

    /// The span of an initialiser (for diagnostics).
    fn init_span(&self, init: &Initializer) -> Span {
        match init {
            Initializer::Expr(x) => x.span,
            Initializer::List { span, .. } => *span,
        }
    }

    /// Fills in `int a[] = {...}` / `char s[] = "..."` sizes.
    fn complete_array(&mut self, ty: Ty, init: Option<&Initializer>) -> Ty {
        match (ty, init) {
            (Ty::Array(e, 0), Some(Initializer::List { items, .. })) => {
                let n = if matches!(*e, Ty::Array(..)) {
                    items.len() as u64
                } else {
                    // Flat lists for nested arrays are rare; count elements.
                    items.len() as u64
                };
                Ty::Array(e, n)
            }
            (Ty::Array(e, 0), Some(Initializer::Expr(x))) => match &x.kind {
                ExprKind::StringLit(s) => Ty::Array(e, s.len() as u64 + 1),
                _ => Ty::Array(e, 0),
            },
            (t, _) => t,
        }
    }

    /// Walks an initializer down to its leaves, calling `leaf` with each expression, the
    /// type it initialises and that object's byte offset: the one reading of braces that
    /// static and local initialisers share - brace elision in an array of arrays, a
    /// string in braces for a character array, arrays element by element, structures
    /// member by member, a scalar in braces.
    fn init_leaves(
        &mut self,
        ty: &Ty,
        init: &Initializer,
        off: u64,
        leaf: &mut dyn FnMut(&mut Self, &Ty, &Expr, u64),
    ) {
        if let (Ty::Array(e, _), Initializer::List { items, .. }) = (ty, init) {
            if matches!(**e, Ty::Array(..))
                && items.iter().all(|i| matches!(i, Initializer::Expr(_)))
            {
                // Brace elision: `int a[3][4] = {1, 2, 3}` fills the flattened elements.
                let base = ty.base_elem().clone();
                let n = (ty.size() / base.size().max(1)) as usize;
                let bs = base.size();
                for (k, it) in items.iter().enumerate().take(n) {
                    self.init_leaves(&base, it, off + k as u64 * bs, leaf);
                }
                return;
            }
        }
        if let (Ty::Array(..), Initializer::List { items, .. }) = (ty, init) {
            if let [one @ Initializer::Expr(Expr {
                kind: ExprKind::StringLit(_),
                ..
            })] = &items[..]
            {
                if ty
                    .elem()
                    .is_some_and(|e| e.sc().is_some_and(|s| s.size() == 1))
                {
                    return self.init_leaves(ty, one, off, leaf);
                }
            }
        }
        match (ty, init) {
            (Ty::Array(e, n), Initializer::List { items, .. }) => {
                let es = e.size();
                for (k, it) in items.iter().enumerate().take(*n as usize) {
                    self.init_leaves(e, it, off + k as u64 * es, leaf);
                }
            }
            (Ty::Struct(l), Initializer::List { items, .. }) => {
                self.check_struct_items(l.members.len(), items.len(), init);
                for ((_, moff, mt), it) in l.members.iter().zip(items) {
                    self.init_leaves(mt, it, off + *moff, leaf);
                }
            }
            (t, Initializer::List { items, .. }) => {
                if let Some(first) = items.first() {
                    self.init_leaves(t, first, off, leaf);
                }
            }
            (t, Initializer::Expr(x)) => leaf(self, t, x, off),
        }
    }

    /// Writes a static object's initial bytes (the object is at most 2^31 bytes, so its
    /// offsets fit `usize`).
    fn const_init(&mut self, ty: &Ty, init: &Initializer, bytes: &mut InitBytes) {
        self.init_leaves(ty, init, 0, &mut |this, t, x, off| {
            this.static_leaf(t, x, bytes, off as usize)
        });
    }

    fn static_leaf(&mut self, ty: &Ty, x: &Expr, bytes: &mut InitBytes, off: usize) {
        if let (Ty::Array(_, n), ExprKind::StringLit(s)) = (ty, &x.kind) {
            for (k, &b) in s.iter().enumerate().take(*n as usize) {
                bytes.put(off + k, &[b]);
            }
            return;
        }
        {
            {
                let Some(sc) = ty.sc() else {
                    self.err(x.span, "invalid initializer");
                    return;
                };
                let raw = if let ExprKind::StringLit(s) = &x.kind {
                    self.string_ptr(s)
                } else {
                    match self.const_eval(x) {
                        Some(CVal(v, k)) => convert_constant(k, sc, v),
                        None => {
                            self.err(x.span, "initializer element is not constant");
                            return;
                        }
                    }
                };
                let n = sc.size() as usize;
                let v = if sc == Sc::F32 {
                    u64::from((f64::from_bits(raw) as f32).to_bits())
                } else {
                    raw
                };
                bytes.put(off, &v.to_le_bytes()[..n]);
            }
        }
    }

    // ----------------------------------------------------------------------------- functions

    fn function(&mut self, fd: &FunctionDef) {
        let Some(sym) = self.funcs.get(&fd.name).cloned() else {
            return;
        };
        if self.out.func_index.contains_key(&fd.name) {
            return;
        }
        self.line = fd.span.line;
        self.f = FnState {
            ret: Some(sym.ret.clone()),
            ret_buf: self.ret_bufs.get(&fd.name).copied(),
            ..FnState::default()
        };
        for s in &fd.body.stmts {
            collect_addr_taken(s, &mut self.f.addr_taken);
        }
        // A local that may be read before it is assigned lives in memory too, where the
        // machine stops a read of bytes never written.
        self.f.maybe_uninitialised = super::definite::maybe_uninitialised(fd);
        let entry = self.here();
        self.scopes.push(HashMap::new());
        let mut sig_params = vec![];
        // Parameters occupy the first slots.
        let params: Vec<Ty> = sym.params.clone().unwrap_or_default();
        self.f.n_slots = params.len() as u32;
        let mut to_spill = vec![];
        for (i, p) in fd.params.iter().enumerate() {
            let t = params.get(i).cloned().unwrap_or(Ty::INT);
            if t == Ty::Void {
                continue;
            }
            if let Some(name) = &p.name {
                sig_params.push((name.clone(), t.clone()));
                // A structure argument arrives as a pointer to the caller's object; the
                // callee works on its own copy.
                if self.f.addr_taken.contains(name) || matches!(t, Ty::Struct(_)) {
                    to_spill.push((i as u32, name.clone(), t));
                } else if let Some(s) = self.scopes.last_mut() {
                    s.insert(name.clone(), Var::Slot(i as u32, t));
                }
            }
        }
        for (slot, name, t) in to_spill {
            let obj = self.local_object(t.size(), &name);
            self.emit(Instr::AddrLocal(obj));
            self.emit(Instr::Slot(slot));
            if let Some(sc) = t.sc() {
                self.emit(Instr::Store(sc));
            } else {
                self.emit(Instr::CopyBytes(t.size() as u32));
            }
            if let Some(s) = self.scopes.last_mut() {
                s.insert(name, Var::Local(obj, t));
            }
        }
        self.out.signatures.push((
            fd.name.clone(),
            sig_params,
            sym.ret.clone(),
            fd.storage == Storage::Static,
        ));
        self.block(&fd.body);
        self.line = fd.body.span.line;
        // Falling off the end: main returns 0 (C99); other functions return what gcc
        // leaves in eax in the common case, the value of the last call that returned.
        if let Some(buf) = self.f.ret_buf {
            self.emit(Instr::Const(buf));
        } else if fd.name == "main" || sym.ret == Ty::Void {
            self.emit(Instr::Const(0));
        } else {
            self.emit(Instr::LastRet);
            if let Some(sc) = sym.ret.sc() {
                if sc.is_int() {
                    self.emit(Instr::Conv(Sc::I64, sc));
                }
            }
        }
        self.emit(Instr::Ret);
        self.scopes.pop();
        let gotos = std::mem::take(&mut self.f.gotos);
        for (at, label, span) in gotos {
            match self.f.labels.get(&label) {
                Some(&t) => self.patch(at, t),
                None => self.err(span, format!("label '{label}' used but not defined")),
            }
        }
        let f = std::mem::take(&mut self.f);
        if let Some(func) = self.out.code.funcs.get_mut(sym.idx as usize) {
            *func = Func {
                name: fd.name.clone(),
                entry,
                n_params: params.len() as u32,
                n_slots: f.n_slots,
                frame_bytes: f.frame_bytes,
                object_bytes: f
                    .objects
                    .iter()
                    .fold(0u32, |t, &(_, len)| t.saturating_add(len)),
                objects: f.objects,
                object_names: f.object_names,
                uninitialised: f.uninitialised,
            };
        }
        self.out.func_index.insert(fd.name.clone(), sym.idx);
    }

    fn new_slot(&mut self) -> u32 {
        self.f.n_slots += 1;
        self.f.n_slots - 1
    }

    /// A frame object of `size` bytes for the variable `name` ("" for a temporary).
    fn local_object(&mut self, size: u64, name: &str) -> u32 {
        let off = ((self.f.frame_bytes + 7) & !7).saturating_add(PAD);
        let size32 = u32::try_from(size)
            .unwrap_or(u32::MAX / 4)
            .min(u32::MAX / 4);
        self.f.frame_bytes = off.saturating_add(size32).saturating_add(PAD);
        self.f.objects.push((off, size32));
        self.f.object_names.push(name.to_string());
        self.f.objects.len() as u32 - 1
    }

    fn block(&mut self, b: &Block) {
        self.scopes.push(HashMap::new());
        for s in &b.stmts {
            self.stmt(s);
        }
        self.scopes.pop();
    }

    fn stmt_mark(&mut self, s: &Stmt) {
        self.line = s.span.line;
        let n = self.out.stmts.len() as u32;
        self.out.stmts.push((s.id, s.span.line));
        self.emit(Instr::Stmt(n));
    }

    fn stmt(&mut self, s: &Stmt) {
        self.line = s.span.line;
        match &s.kind {
            StmtKind::Block(b) => self.block(b),
            StmtKind::Decl(d) => self.local_decl(s, d),
            StmtKind::Expr(e) => {
                self.stmt_mark(s);
                self.expr_discard(e);
            }
            StmtKind::Empty => {
                self.stmt_mark(s);
            }
            StmtKind::If { cond, then, els } => {
                self.stmt_mark(s);
                let jz = self.branch(cond, false);
                self.stmt(then);
                if let Some(e) = els {
                    let j = self.emit(Instr::Jmp(0));
                    let h = self.here();
                    self.patch_all(jz, h);
                    self.stmt(e);
                    let h = self.here();
                    self.patch(j, h);
                } else {
                    let h = self.here();
                    self.patch_all(jz, h);
                }
            }
            StmtKind::While { cond, body } => {
                let top = self.here();
                self.stmt_mark(s);
                let jz = self.branch(cond, false);
                self.loop_body(body, top);
                self.emit(Instr::Jmp(top));
                let end = self.here();
                self.patch_all(jz, end);
                self.end_loop(end);
            }
            StmtKind::DoWhile { body, cond } => {
                let top = self.here();
                self.stmt_mark(s);
                self.f.breaks.push(vec![]);
                self.f.continues.push(vec![]);
                self.stmt(body);
                let c = self.here();
                for at in self.f.continues.pop().unwrap_or_default() {
                    self.patch(at, c);
                }
                self.line = cond.span.line;
                let jnz = self.branch(cond, true);
                self.patch_all(jnz, top);
                let end = self.here();
                for at in self.f.breaks.pop().unwrap_or_default() {
                    self.patch(at, end);
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                self.scopes.push(HashMap::new());
                if let Some(i) = init {
                    self.stmt(i);
                }
                let top = self.here();
                self.stmt_mark(s);
                let jz = cond.as_ref().map(|c| self.branch(c, false));
                self.f.breaks.push(vec![]);
                self.f.continues.push(vec![]);
                self.stmt(body);
                let c = self.here();
                for at in self.f.continues.pop().unwrap_or_default() {
                    self.patch(at, c);
                }
                if let Some(st) = step {
                    self.line = st.span.line;
                    self.expr_discard(st);
                }
                self.emit(Instr::Jmp(top));
                let end = self.here();
                if let Some(j) = jz {
                    self.patch_all(j, end);
                }
                for at in self.f.breaks.pop().unwrap_or_default() {
                    self.patch(at, end);
                }
                self.scopes.pop();
            }
            StmtKind::Switch { cond, body } => self.switch(s, cond, body),
            StmtKind::Case { body, .. } | StmtKind::Default { body } => {
                let h = self.here();
                if let Some(&at) = self.f.case_targets.get(&s.id) {
                    self.patch(at, h);
                } else {
                    self.err(s.span, "case label not within a switch statement");
                }
                self.stmt(body);
            }
            StmtKind::Label { name, body } => {
                let h = self.here();
                if self.f.labels.insert(name.clone(), h).is_some() {
                    self.err(s.span, format!("duplicate label '{name}'"));
                }
                self.stmt(body);
            }
            StmtKind::Goto(name) => {
                self.stmt_mark(s);
                let j = self.emit(Instr::Jmp(0));
                self.f.gotos.push((j, name.clone(), s.span));
            }
            StmtKind::Break => {
                self.stmt_mark(s);
                let j = self.emit(Instr::Jmp(0));
                match self.f.breaks.last_mut() {
                    Some(v) => v.push(j),
                    None => self.err(s.span, "break statement not within loop or switch"),
                }
            }
            StmtKind::Continue => {
                self.stmt_mark(s);
                let j = self.emit(Instr::Jmp(0));
                match self.f.continues.last_mut() {
                    Some(v) => v.push(j),
                    None => self.err(s.span, "continue statement not within a loop"),
                }
            }
            StmtKind::Return(e) => {
                self.stmt_mark(s);
                let ret = self.f.ret.clone().unwrap_or(Ty::INT);
                match e {
                    Some(e) => {
                        let t = self.expr(e);
                        if ret == Ty::Void {
                            self.emit(Instr::Pop);
                            self.emit(Instr::Const(0));
                        } else {
                            self.convert(&t, &ret, e.span);
                        }
                        if let Some(buf) = self.f.ret_buf {
                            self.emit(Instr::Const(buf));
                            self.emit(Instr::Swap);
                            self.emit(Instr::CopyBytes(ret.size() as u32));
                            self.emit(Instr::Const(buf));
                        }
                    }
                    None => {
                        self.emit(Instr::Const(0));
                    }
                }
                self.emit(Instr::Ret);
            }
        }
    }

    fn loop_body(&mut self, body: &Stmt, cont: u32) {
        self.f.breaks.push(vec![]);
        self.f.continues.push(vec![]);
        self.stmt(body);
        for at in self.f.continues.pop().unwrap_or_default() {
            self.patch(at, cont);
        }
    }

    fn end_loop(&mut self, end: u32) {
        for at in self.f.breaks.pop().unwrap_or_default() {
            self.patch(at, end);
        }
    }

    fn switch(&mut self, s: &Stmt, cond: &Expr, body: &Stmt) {
        self.stmt_mark(s);
        let t = self.expr(cond);
        if !t.is_int() {
            self.err(cond.span, "switch quantity not an integer");
        }
        let k = t.sc().map(|s| s.promote()).unwrap_or(Ak::I32);
        self.convert(&t, &Ty::Scalar(k.sc()), cond.span);
        let tmp = self.new_slot();
        self.emit(Instr::SetSlot(tmp));
        let mut cases = vec![];
        collect_cases(body, &mut cases);
        let mut default = None;
        let saved = std::mem::take(&mut self.f.case_targets);
        for (id, value, span) in cases {
            match value {
                Some(v) => {
                    let Some(CVal(c, ck)) = self.const_eval(v).filter(|c| c.1.is_int()) else {
                        self.err(span, "case label does not reduce to an integer constant");
                        continue;
                    };
                    self.emit(Instr::Slot(tmp));
                    self.emit(Instr::Const(convert(ck, k.sc(), c)));
                    self.emit(Instr::Cmp(Cop::Eq, k));
                    let j = self.emit(Instr::Jnz(0));
                    self.f.case_targets.insert(id, j);
                }
                None => {
                    let j = self.emit(Instr::Jmp(0));
                    default = Some(j);
                    self.f.case_targets.insert(id, j);
                }
            }
        }
        // The default jump must come after all case tests: move it to the end.
        let end_jump = match default {
            Some(j) => {
                // Replace the in-place default jump by a no-op and add a fresh jump.
                if let Some(i) = self.out.code.instrs.get_mut(j) {
                    *i = Instr::Nop;
                }
                let nj = self.emit(Instr::Jmp(0));
                for v in self.f.case_targets.values_mut() {
                    if *v == j {
                        *v = nj;
                    }
                }
                None
            }
            None => Some(self.emit(Instr::Jmp(0))),
        };
        self.f.breaks.push(vec![]);
        self.stmt(body);
        let end = self.here();
        if let Some(j) = end_jump {
            self.patch(j, end);
        }
        for at in self.f.breaks.pop().unwrap_or_default() {
            self.patch(at, end);
        }
        self.f.case_targets = saved;
    }

    fn local_decl(&mut self, s: &Stmt, d: &Declaration) {
        self.enum_consts(d, false);
        self.define_structs(&d.struct_defs);
        if d.storage == Storage::Typedef {
            return;
        }
        for dc in &d.declarators {
            self.line = dc.span.line;
            if matches!(dc.ty, Type::Function { .. }) {
                self.prototype(dc);
                continue;
            }
            if d.storage == Storage::Static || d.storage == Storage::Extern {
                let var = self.static_object(dc);
                if let Some(sc) = self.scopes.last_mut() {
                    sc.insert(dc.name.clone(), var);
                }
                continue;
            }
            // VLA: an array whose size is not constant.
            if let Type::Array {
                elem,
                size: Some(size),
            } = &dc.ty
            {
                if self.const_eval(size).is_none() {
                    let et = self.ty(elem, dc.span);
                    if matches!(et, Ty::Array(_, 0)) {
                        self.err(
                            dc.span,
                            "unsupported: multi-dimensional variable-length array",
                        );
                    }
                    self.stmt_mark(s);
                    let t = self.expr(size);
                    self.convert(&t, &Ty::Scalar(Sc::I64), size.span);
                    let slot = self.new_slot();
                    self.emit(Instr::Const(et.size()));
                    self.emit(Instr::Bin(Bop::Mul, Ak::U64));
                    self.emit(Instr::Builtin(Builtin::Alloca, 0));
                    self.emit(Instr::SetSlot(slot));
                    if let Some(sc) = self.scopes.last_mut() {
                        sc.insert(dc.name.clone(), Var::Vla(slot, et));
                    }
                    continue;
                }
            }
            let ty = self.ty(&dc.ty, dc.span);
            let ty = self.complete_array(ty, dc.init.as_ref());
            if ty == Ty::Void {
                self.err(
                    dc.name_span,
                    format!("variable '{}' declared void", dc.name),
                );
                continue;
            }
            if !self.is_complete(&ty) {
                self.err(
                    dc.name_span,
                    format!("storage size of '{}' isn't known", dc.name),
                );
                continue;
            }
            let var = match &ty {
                Ty::Scalar(_) | Ty::Ptr(_)
                    if !self.f.addr_taken.contains(&dc.name)
                        && !self.f.maybe_uninitialised.contains(&dc.name) =>
                {
                    Var::Slot(self.new_slot(), ty.clone())
                }
                Ty::Scalar(_) | Ty::Ptr(_) if !self.f.addr_taken.contains(&dc.name) => {
                    let obj = self.local_object(ty.size(), &dc.name);
                    self.f.uninitialised.push(obj);
                    Var::Local(obj, ty.clone())
                }
                _ => {
                    if ty.size() > (1 << 31) {
                        self.err(
                            dc.name_span,
                            format!("size of array '{}' is too large", dc.name),
                        );
                    }
                    Var::Local(self.local_object(ty.size(), &dc.name), ty.clone())
                }
            };
            // The name is in scope in its own initialiser (C), but we bind after for simplicity.
            if let Some(init) = &dc.init {
                self.stmt_mark(s);
                match &var {
                    Var::Slot(slot, t) => {
                        let e = match init {
                            Initializer::Expr(e) => Some(e),
                            Initializer::List { items, .. } => match items.first() {
                                Some(Initializer::Expr(e)) => Some(e),
                                _ => None,
                            },
                        };
                        if let Some(e) = e {
                            let et = self.expr(e);
                            self.convert(&et, t, e.span);
                            self.emit(Instr::SetSlot(*slot));
                        }
                    }
                    Var::Local(obj, t) => {
                        let t = t.clone();
                        let obj = *obj;
                        if matches!(t, Ty::Array(..) | Ty::Struct(_)) {
                            self.emit(Instr::AddrLocal(obj));
                            self.emit(Instr::ZeroBytes(t.size() as u32));
                        }
                        self.local_init(obj, &t, init);
                    }
                    _ => {}
                }
            }
            if let Some(sc) = self.scopes.last_mut() {
                sc.insert(dc.name.clone(), var);
            }
        }
    }

    fn local_init(&mut self, obj: u32, ty: &Ty, init: &Initializer) {
        self.init_leaves(ty, init, 0, &mut |this, t, x, off| {
            this.local_leaf(obj, t, x, off)
        });
    }

    fn local_leaf(&mut self, obj: u32, ty: &Ty, x: &Expr, off: u64) {
        match (ty, &x.kind) {
            (Ty::Struct(l), _) => {
                self.local_addr(obj, off);
                let et = self.expr(x);
                if et != *ty {
                    self.err(x.span, format!("invalid initializer: '{et}' for '{ty}'"));
                }
                self.emit(Instr::CopyBytes(l.size as u32));
            }
            (Ty::Array(_, n), ExprKind::StringLit(s)) => {
                let mut bytes = s.clone();
                bytes.truncate(*n as usize);
                let d = self.data(bytes);
                self.emit(Instr::AddrLocal(obj));
                self.emit(Instr::Const(off));
                self.emit(Instr::PtrAdd(1));
                self.emit(Instr::InitBytes(d));
            }
            _ => {
                let Some(sc) = ty.sc() else {
                    self.err(x.span, "invalid initializer");
                    return;
                };
                self.local_addr(obj, off);
                let et = self.expr(x);
                self.convert(&et, ty, x.span);
                self.emit(Instr::Store(sc));
            }
        }
    }

    /// Pushes the address `off` bytes into local object `obj`.
    fn local_addr(&mut self, obj: u32, off: u64) {
        self.emit(Instr::AddrLocal(obj));
        if off != 0 {
            self.emit(Instr::Const(off));
            self.emit(Instr::PtrAdd(1));
        }
    }

    // ----------------------------------------------------------------------------- expressions

    /// Emits a conversion of the value on the stack from `from` to `to`.
    fn convert(&mut self, from: &Ty, to: &Ty, span: Span) {
        match (from.sc(), to.sc()) {
            (Some(a), Some(b)) => {
                if a == b || (a == Sc::Ptr && b == Sc::Ptr) {
                    return;
                }
                if (a == Sc::Ptr && b.is_float()) || (a.is_float() && b == Sc::Ptr) {
                    self.err(
                        span,
                        format!("incompatible types when converting '{from}' to '{to}'"),
                    );
                    return;
                }
                // Integer -> integer conversions where the canonical form already fits
                // the target (all widening to 64 bits, small to int) emit nothing.
                if a.is_int() && b.is_int() && conv_is_identity(a, b) {
                    return;
                }
                self.emit(Instr::Conv(a, b));
            }
            (_, None) if *to == Ty::Void => {}
            _ => {
                if from != to {
                    self.err(
                        span,
                        format!("incompatible types when converting '{from}' to '{to}'"),
                    );
                }
            }
        }
    }

    /// Compiles `e` for its value; returns its (decayed) type.
    fn expr(&mut self, e: &Expr) -> Ty {
        let start = self.here();
        self.out.expr_at.insert(e.id, start);
        let t = self.expr_inner(e, true).decay();
        if self.hole == Some(e.id) {
            if let Some(sc) = t.sc().filter(|&sc| sc != Sc::Ptr) {
                self.emit_hole(e.id, sc);
            }
        }
        t
    }

    /// Emits a hole after the code of expression `node` (value kind `sc`), recording the
    /// scalar variables in scope.
    fn emit_hole(&mut self, node: NodeId, sc: Sc) {
        let mut seen = HashSet::new();
        let mut vars = Vec::new();
        let scopes = self
            .scopes
            .iter()
            .rev()
            .chain(std::iter::once(&self.globals));
        for scope in scopes {
            for (name, var) in scope {
                if !seen.insert(name.clone()) {
                    continue;
                }
                let place = match var {
                    Var::Slot(s, Ty::Scalar(vs)) => Some((HoleVarPlace::Slot(*s), *vs)),
                    Var::Local(o, Ty::Scalar(vs)) => Some((HoleVarPlace::Local(*o), *vs)),
                    Var::Global(p, Ty::Scalar(vs)) => {
                        Some((HoleVarPlace::Global(self.global_offset(*p)), *vs))
                    }
                    _ => None,
                };
                if let Some((place, vsc)) = place {
                    vars.push(HoleVar {
                        name: name.clone(),
                        sc: vsc,
                        place,
                    });
                }
            }
        }
        vars.sort_by(|a, b| a.name.cmp(&b.name));
        let n = self.out.code.holes.len() as u32;
        self.out.code.holes.push(HoleSite { node, sc, vars });
        self.emit(Instr::Hole(n));
    }

    /// Compiles `e` for its effects only.
    fn expr_discard(&mut self, e: &Expr) {
        let start = self.here();
        self.out.expr_at.insert(e.id, start);
        match &e.kind {
            ExprKind::Assign { .. } => {
                self.expr_inner(e, false);
            }
            ExprKind::Unary {
                op: UnaryOp::PostInc | UnaryOp::PostDec | UnaryOp::PreInc | UnaryOp::PreDec,
                ..
            } => {
                self.expr_inner(e, true);
                self.emit(Instr::Pop);
            }
            ExprKind::Comma { lhs, rhs } => {
                self.expr_discard(lhs);
                self.expr_discard(rhs);
            }
            _ => {
                self.expr(e);
                self.emit(Instr::Pop);
            }
        }
    }

    /// Compiles a condition: pushes a value that is zero iff the condition is false.
    fn cond(&mut self, e: &Expr) {
        let t = self.expr(e);
        match t.sc() {
            Some(sc) if sc.is_float() => {
                self.emit(Instr::ToBool(sc.promote()));
            }
            Some(_) => {}
            None => self.err(
                e.span,
                "used value that cannot be converted to a truth value",
            ),
        }
    }

    /// Compiles condition `e` as control flow: the returned jumps (to patch to one
    /// target) are taken when the truth of `e` is `when`, and control falls through
    /// otherwise. `&&` and `||` become chains of jumps with the same short-circuit order,
    /// so no truth value is built and dropped; any other condition, or one that is the
    /// repair hole, is [`Self::cond`] and one `Jz` / `Jnz`.
    fn branch(&mut self, e: &Expr, when: bool) -> Vec<usize> {
        if let ExprKind::Binary {
            op: op @ (BinaryOp::LogAnd | BinaryOp::LogOr),
            lhs,
            rhs,
        } = &e.kind
        {
            if self.hole != Some(e.id) {
                let start = self.here();
                self.out.expr_at.insert(e.id, start);
                let and = *op == BinaryOp::LogAnd;
                if and != when {
                    // `a && b` is false, or `a || b` true, as soon as one operand is.
                    let mut jumps = self.branch(lhs, when);
                    jumps.extend(self.branch(rhs, when));
                    return jumps;
                }
                // Otherwise the first operand decides only the other way: past `b`.
                let past = self.branch(lhs, !when);
                let jumps = self.branch(rhs, when);
                let h = self.here();
                self.patch_all(past, h);
                return jumps;
            }
        }
        self.cond(e);
        vec![self.emit(if when { Instr::Jnz(0) } else { Instr::Jz(0) })]
    }

    /// Patches every jump in `jumps` to `target`.
    fn patch_all(&mut self, jumps: Vec<usize>, target: u32) {
        for at in jumps {
            self.patch(at, target);
        }
    }

    fn arith_kind(&mut self, t: &Ty, span: Span) -> Ak {
        match t {
            Ty::Scalar(s) => s.promote(),
            _ => {
                self.err(span, format!("invalid operand of type '{t}'"));
                Ak::I32
            }
        }
    }

    /// The type of an expression without emitting code.
    fn type_of(&mut self, e: &Expr) -> Option<Ty> {
        if let Some(t) = self.types.get(&e.id) {
            return t.clone();
        }
        let mark = self.here() as usize;
        let nd = self.diags.len();
        let nstmt = self.out.stmts.len();
        let t = self.expr_inner(e, true);
        self.out.code.instrs.truncate(mark);
        self.out.code.lines.truncate(mark);
        self.out.stmts.truncate(nstmt);
        let ok = self.diags.len() == nd;
        self.diags.truncate(nd);
        let r = ok.then_some(t);
        self.types.insert(e.id, r.clone());
        r
    }

    fn expr_inner(&mut self, e: &Expr, want: bool) -> Ty {
        match &e.kind {
            ExprKind::IntLit { value, ty } => {
                let sc = sc_of(*ty).unwrap_or(Sc::I32);
                self.emit(Instr::Const(canon(sc, *value)));
                Ty::Scalar(sc)
            }
            ExprKind::FloatLit { value, ty } => {
                let sc = sc_of(*ty).unwrap_or(Sc::F64);
                self.emit(Instr::Const(canon(sc, value.to_bits())));
                Ty::Scalar(sc)
            }
            ExprKind::CharLit(v) => {
                self.emit(Instr::Const(canon(Sc::I32, *v as u64)));
                Ty::INT
            }
            ExprKind::StringLit(s) => {
                let p = self.string_ptr(s);
                self.emit(Instr::Const(p));
                Ty::Array(Box::new(Ty::Scalar(Sc::I8)), s.len() as u64 + 1)
            }
            ExprKind::Ident(name) => self.ident(e, name),
            ExprKind::Unary { op, operand } => self.unary(e, *op, operand),
            ExprKind::Binary { op, lhs, rhs } => self.binary(e, *op, lhs, rhs),
            ExprKind::Assign { op, lhs, rhs } => self.assign(e, *op, lhs, rhs, want),
            ExprKind::Conditional { cond, then, els } => {
                let tt = self.type_of(then).unwrap_or(Ty::INT).decay();
                let te = self.type_of(els).unwrap_or(Ty::INT).decay();
                let rt = match (&tt, &te) {
                    (Ty::Scalar(a), Ty::Scalar(b)) => Ty::Scalar(conditional_kind(*a, *b)),
                    (Ty::Ptr(_), _) => tt.clone(),
                    (_, Ty::Ptr(_)) => te.clone(),
                    (Ty::Void, _) | (_, Ty::Void) => Ty::Void,
                    _ => tt.clone(),
                };
                let jz = self.branch(cond, false);
                let a = self.expr(then);
                if rt != Ty::Void {
                    self.convert(&a, &rt, then.span);
                }
                let j = self.emit(Instr::Jmp(0));
                let h = self.here();
                self.patch_all(jz, h);
                let b = self.expr(els);
                if rt != Ty::Void {
                    self.convert(&b, &rt, els.span);
                }
                let h = self.here();
                self.patch(j, h);
                rt
            }
            ExprKind::Comma { lhs, rhs } => {
                self.expr_discard(lhs);
                self.expr(rhs)
            }
            ExprKind::Cast { ty, expr } => {
                let to = self.ty(ty, e.span);
                // gcc folds a constant floating operand at compile time, saturating.
                if let (Some(sc), Some(CVal(f, fk))) = (to.sc(), self.const_eval(expr)) {
                    if fk.is_float() && sc.is_int() && sc != Sc::Bool {
                        self.emit(Instr::Const(convert_constant(fk, sc, f)));
                        return to;
                    }
                }
                let from = self.expr(expr);
                if to == Ty::Void {
                    self.emit(Instr::Pop);
                    self.emit(Instr::Const(0));
                    return Ty::Void;
                }
                self.convert(&from, &to, e.span);
                to
            }
            ExprKind::SizeofType(t) => {
                let t = self.ty(t, e.span);
                self.emit(Instr::Const(t.size()));
                Ty::Scalar(Sc::U64)
            }
            ExprKind::SizeofExpr(x) => {
                let t = self.sizeof_type(x);
                self.emit(Instr::Const(t.size()));
                Ty::Scalar(Sc::U64)
            }
            ExprKind::Call {
                callee,
                args,
                callee_span,
            } => self.call(e, callee, *callee_span, args),
            ExprKind::Index { .. } | ExprKind::Member { .. } => {
                let t = self.place(e);
                self.load_place(t)
            }
        }
    }

    /// Type of `sizeof x` operand (arrays not decayed).
    fn sizeof_type(&mut self, x: &Expr) -> Ty {
        if let ExprKind::Ident(n) = &x.kind {
            match self.lookup(n) {
                Some(Var::Global(_, t)) | Some(Var::Local(_, t)) | Some(Var::Slot(_, t)) => {
                    return t
                }
                _ => {}
            }
        }
        let mark = self.here() as usize;
        let t = self.expr_inner(x, true);
        self.out.code.instrs.truncate(mark);
        self.out.code.lines.truncate(mark);
        t
    }

    fn ident(&mut self, e: &Expr, name: &str) -> Ty {
        match self.lookup(name) {
            Some(Var::Slot(s, t)) => {
                self.emit(Instr::Slot(s));
                t
            }
            Some(Var::Const(v)) => {
                self.emit(Instr::Const(canon(Sc::I32, v as u64)));
                Ty::INT
            }
            Some(Var::Vla(s, et)) => {
                self.emit(Instr::Slot(s));
                Ty::Ptr(Box::new(et))
            }
            Some(Var::Global(..)) | Some(Var::Local(..)) => {
                let t = self.place(e);
                self.load_place(t)
            }
            None => {
                if let Some((v, t)) = known_constant(name) {
                    self.emit(Instr::Const(v));
                    return t;
                }
                self.err(e.span, format!("'{name}' undeclared"));
                self.emit(Instr::Const(0));
                Ty::INT
            }
        }
    }

    /// Loads a place's value (arrays decay: the pointer stays).
    fn load_place(&mut self, p: Place) -> Ty {
        match p {
            Place::Global(off, _, t) => {
                if let Some(sc) = t.sc() {
                    self.emit(Instr::LoadG(sc, off));
                }
                t
            }
            Place::Slot(s, t) => {
                self.emit(Instr::Slot(s));
                t
            }
            Place::Mem(t) => match &t {
                // An array decays to the pointer; a structure is used through it
                // (copied by an assignment).
                Ty::Array(..) | Ty::Struct(_) => t,
                _ => {
                    if let Some(sc) = t.sc() {
                        self.emit(Instr::Load(sc));
                    }
                    t
                }
            },
        }
    }

    /// Compiles an lvalue: for memory places the pointer is pushed.
    fn place(&mut self, e: &Expr) -> Place {
        match &e.kind {
            ExprKind::Ident(name) => match self.lookup(name) {
                Some(Var::Slot(s, t)) => Place::Slot(s, t),
                Some(Var::Global(p, t)) => {
                    if t.sc().is_some() {
                        let off = self.global_offset(p);
                        return Place::Global(off, p, t);
                    }
                    self.emit(Instr::Const(p));
                    Place::Mem(t)
                }
                Some(Var::Local(o, t)) => {
                    self.emit(Instr::AddrLocal(o));
                    Place::Mem(t)
                }
                Some(Var::Vla(s, et)) => {
                    self.emit(Instr::Slot(s));
                    Place::Mem(Ty::Array(Box::new(et), 0))
                }
                _ => {
                    self.err(e.span, format!("'{name}' is not an assignable variable"));
                    Place::Slot(0, Ty::INT)
                }
            },
            ExprKind::Index { base, index } => {
                let mut bt = self.expr(base);
                let mut swapped = false;
                if bt.is_int() {
                    // i[a]
                    self.convert(&bt.clone(), &Ty::Scalar(Sc::I64), base.span);
                    bt = self.expr(index);
                    swapped = true;
                }
                let Some(elem) = bt.elem().cloned() else {
                    self.err(e.span, "subscripted value is neither array nor pointer");
                    return Place::Mem(Ty::INT);
                };
                if !swapped {
                    let it = self.expr(index);
                    if !it.is_int() {
                        self.err(index.span, "array subscript is not an integer");
                    }
                    self.convert(&it, &Ty::Scalar(Sc::I64), index.span);
                } else {
                    self.emit(Instr::Swap);
                }
                let elem = self.completed(elem);
                self.emit(Instr::PtrAdd(elem.size() as u32));
                Place::Mem(elem)
            }
            ExprKind::Member { base, field, arrow } => {
                let st = if *arrow {
                    match self.expr(base) {
                        Ty::Ptr(inner) => self.completed(*inner),
                        t => {
                            self.err(
                                e.span,
                                format!("invalid type argument of '->' (have '{t}')"),
                            );
                            return Place::Mem(Ty::INT);
                        }
                    }
                } else if matches!(
                    base.kind,
                    ExprKind::Call { .. }
                        | ExprKind::Conditional { .. }
                        | ExprKind::Comma { .. }
                        | ExprKind::Assign { .. }
                ) {
                    // A structure value: the pointer to it.
                    self.expr(base)
                } else {
                    match self.place(base) {
                        Place::Mem(t) => t,
                        Place::Slot(_, t) | Place::Global(_, _, t) => {
                            self.err(
                                e.span,
                                format!("request for member '{field}' in something not a structure ('{t}')"),
                            );
                            return Place::Mem(Ty::INT);
                        }
                    }
                };
                let Ty::Struct(l) = &st else {
                    self.err(
                        e.span,
                        format!(
                            "request for member '{field}' in something not a structure ('{st}')"
                        ),
                    );
                    return Place::Mem(Ty::INT);
                };
                let Some((off, mt)) = l.member(field) else {
                    self.err(e.span, format!("'{st}' has no member named '{field}'"));
                    return Place::Mem(Ty::INT);
                };
                let mt = self.completed(mt.clone());
                if off != 0 {
                    self.emit(Instr::Const(off));
                    self.emit(Instr::PtrAdd(1));
                }
                Place::Mem(mt)
            }
            ExprKind::Unary {
                op: UnaryOp::Deref,
                operand,
            } => {
                let t = self.expr(operand);
                match t {
                    Ty::Ptr(inner) => {
                        if *inner == Ty::Void {
                            self.err(e.span, "dereferencing 'void *' pointer");
                        }
                        Place::Mem(self.completed(*inner))
                    }
                    _ => {
                        self.err(e.span, "invalid type argument of unary '*'");
                        Place::Mem(Ty::INT)
                    }
                }
            }
            _ => {
                self.err(e.span, "lvalue required");
                self.expr(e);
                Place::Mem(Ty::INT)
            }
        }
    }

    fn unary(&mut self, e: &Expr, op: UnaryOp, x: &Expr) -> Ty {
        match op {
            UnaryOp::Plus | UnaryOp::Neg | UnaryOp::BitNot => {
                let t = self.expr(x);
                let k = self.arith_kind(&t, x.span);
                self.convert(&t, &Ty::Scalar(k.sc()), x.span);
                match op {
                    UnaryOp::Neg => {
                        self.emit(Instr::Neg(k));
                    }
                    UnaryOp::BitNot => {
                        if k.is_float() {
                            self.err(e.span, "wrong type argument to bit-complement");
                        }
                        self.emit(Instr::BitNot(k));
                    }
                    _ => {}
                }
                Ty::Scalar(k.sc())
            }
            UnaryOp::Not => {
                let t = self.expr(x);
                let k = match t.sc() {
                    Some(Sc::Ptr) => Ak::U64,
                    Some(s) => s.promote(),
                    None => {
                        self.err(x.span, "wrong type argument to unary exclamation mark");
                        Ak::I32
                    }
                };
                self.emit(Instr::Not(k));
                Ty::INT
            }
            UnaryOp::Deref => {
                let p = self.place(e);
                self.load_place(p)
            }
            UnaryOp::AddrOf => {
                if let ExprKind::Ident(n) = &x.kind {
                    if let Some(Var::Const(_)) | None = self.lookup(n) {
                        self.err(x.span, "lvalue required as unary '&' operand");
                        self.emit(Instr::Const(0));
                        return Ty::Ptr(Box::new(Ty::INT));
                    }
                }
                match self.place(x) {
                    Place::Mem(t) => Ty::Ptr(Box::new(t)),
                    Place::Global(_, p, t) => {
                        self.emit(Instr::Const(p));
                        Ty::Ptr(Box::new(t))
                    }
                    Place::Slot(_, t) => {
                        self.err(x.span, "cannot take the address of this variable");
                        Ty::Ptr(Box::new(t))
                    }
                }
            }
            UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec => {
                let post = matches!(op, UnaryOp::PostInc | UnaryOp::PostDec);
                let sign = if matches!(op, UnaryOp::PreInc | UnaryOp::PostInc) {
                    1
                } else {
                    -1
                };
                let mut p = self.place(x);
                if let Place::Global(_, ptr, t) = p {
                    self.emit(Instr::Const(ptr));
                    p = Place::Mem(t);
                }
                let t = match &p {
                    Place::Slot(_, t) | Place::Mem(t) | Place::Global(_, _, t) => t.clone(),
                };
                let delta = match &t {
                    Ty::Ptr(inner) => sign * inner.size() as i32,
                    Ty::Scalar(_) => sign,
                    _ => {
                        self.err(x.span, "lvalue required as increment operand");
                        sign
                    }
                };
                let sc = t.sc().unwrap_or(Sc::I32);
                match p {
                    Place::Slot(slot, _) => {
                        self.emit(Instr::IncSlot {
                            slot,
                            sc,
                            delta,
                            post,
                        });
                    }
                    Place::Mem(_) | Place::Global(..) => {
                        self.emit(Instr::IncMem { sc, delta, post });
                    }
                }
                t
            }
        }
    }

    fn binary(&mut self, e: &Expr, op: BinaryOp, l: &Expr, r: &Expr) -> Ty {
        if matches!(op, BinaryOp::LogAnd | BinaryOp::LogOr) {
            self.cond(l);
            self.emit(Instr::ToBool(Ak::U64));
            self.emit(Instr::Dup);
            let j = if op == BinaryOp::LogAnd {
                self.emit(Instr::Jz(0))
            } else {
                self.emit(Instr::Jnz(0))
            };
            self.emit(Instr::Pop);
            self.cond(r);
            self.emit(Instr::ToBool(Ak::U64));
            let h = self.here();
            self.patch(j, h);
            return Ty::INT;
        }
        let lt = self.type_of(l).unwrap_or(Ty::INT).decay();
        let rt = self.type_of(r).unwrap_or(Ty::INT).decay();
        let lp = matches!(lt, Ty::Ptr(_));
        let rp = matches!(rt, Ty::Ptr(_));
        if lp || rp {
            return self.pointer_binary(e, op, l, r, &lt, &rt);
        }
        let (ka, kb) = (self.arith_kind(&lt, l.span), self.arith_kind(&rt, r.span));
        let rule = BinaryRule::of(op, ka, kb);
        if !rule.is_valid() {
            self.err(
                e.span,
                format!("invalid operands to binary {}", op.symbol()),
            );
        }
        let (lk, rk) = rule.operand_kinds();
        self.operand(l, &Ty::Scalar(lk));
        self.operand(r, &Ty::Scalar(rk));
        match rule {
            BinaryRule::Compare(c, k) => self.emit(Instr::Cmp(c, k)),
            BinaryRule::Shift(b, k, _) | BinaryRule::Arith(b, k) => self.emit(Instr::Bin(b, k)),
            BinaryRule::Logic(_) => unreachable!("&& and || are compiled as jumps above"),
        };
        Ty::Scalar(rule.result())
    }

    fn operand(&mut self, x: &Expr, to: &Ty) {
        let t = self.expr(x);
        self.convert(&t, to, x.span);
    }

    fn pointer_binary(
        &mut self,
        e: &Expr,
        op: BinaryOp,
        l: &Expr,
        r: &Expr,
        lt: &Ty,
        rt: &Ty,
    ) -> Ty {
        let lp = matches!(lt, Ty::Ptr(_));
        let rp = matches!(rt, Ty::Ptr(_));
        if let Some(c) = cop(op) {
            self.operand(l, &Ty::Ptr(Box::new(Ty::Void)));
            self.operand(r, &Ty::Ptr(Box::new(Ty::Void)));
            self.emit(Instr::PtrCmp(c));
            return Ty::INT;
        }
        match op {
            BinaryOp::Add | BinaryOp::Sub if lp && !rp => {
                let size = lt.elem().map(|t| t.size()).unwrap_or(1) as u32;
                self.expr(l);
                self.operand(r, &Ty::Scalar(Sc::I64));
                if op == BinaryOp::Sub {
                    self.emit(Instr::Neg(Ak::I64));
                }
                self.emit(Instr::PtrAdd(size));
                lt.clone()
            }
            BinaryOp::Add if rp && !lp => {
                let size = rt.elem().map(|t| t.size()).unwrap_or(1) as u32;
                self.operand(l, &Ty::Scalar(Sc::I64));
                self.expr(r);
                self.emit(Instr::Swap);
                self.emit(Instr::PtrAdd(size));
                rt.clone()
            }
            BinaryOp::Sub if lp && rp => {
                let size = lt.elem().map(|t| t.size()).unwrap_or(1) as u32;
                self.expr(l);
                self.expr(r);
                self.emit(Instr::PtrDiff(size));
                Ty::Scalar(Sc::I64)
            }
            _ => {
                self.err(
                    e.span,
                    format!("invalid operands to binary {}", op.symbol()),
                );
                Ty::INT
            }
        }
    }

    /// Whether gcc reads `r`, the right side of `=`, only in the final assignment
    /// statement of its GIMPLE form: a constant, a register variable (a local whose
    /// address is never taken), or one operation or call over such operands. Anything
    /// else is computed into temporaries before the left side's address.
    fn gimple_final_rhs(&self, r: &Expr) -> bool {
        let atom = |x: &Expr| match &x.kind {
            ExprKind::IntLit { .. } | ExprKind::FloatLit { .. } | ExprKind::CharLit(_) => true,
            ExprKind::Ident(n) => matches!(self.lookup(n), Some(Var::Slot(..) | Var::Const(_))),
            _ => false,
        };
        match &r.kind {
            ExprKind::Unary {
                op: UnaryOp::Neg | UnaryOp::Plus | UnaryOp::BitNot | UnaryOp::Not,
                operand,
            } => atom(operand),
            ExprKind::Binary { op, lhs, rhs } => {
                !matches!(op, BinaryOp::LogAnd | BinaryOp::LogOr) && atom(lhs) && atom(rhs)
            }
            ExprKind::Cast { expr, .. } => atom(expr),
            ExprKind::Call { args, .. } => args.iter().all(atom),
            _ => atom(r),
        }
    }

    fn assign(&mut self, e: &Expr, op: Option<BinaryOp>, l: &Expr, r: &Expr, want: bool) -> Ty {
        // gcc (since 7) evaluates the right side of `=` before the left side's address
        // (then reads the register operands of its last operation): that decides
        // unsequenced programs such as `f[++i] = f[i-1] + log(i)` as gcc-built binaries do.
        if op.is_none() && (has_side_effects(l) || has_side_effects(r)) && !self.gimple_final_rhs(r)
        {
            if let Some(t) = self.type_of(l) {
                if let Some(sc) = t.sc() {
                    let rt = self.expr(r);
                    self.convert(&rt, &t, r.span);
                    match self.place(l) {
                        Place::Slot(s, _) => {
                            if want {
                                self.emit(Instr::Dup);
                            }
                            self.emit(Instr::SetSlot(s));
                        }
                        Place::Global(off, _, _) => {
                            if want {
                                self.emit(Instr::Dup);
                            }
                            self.emit(Instr::StoreG(sc, off));
                        }
                        Place::Mem(_) => {
                            self.emit(Instr::Swap);
                            self.emit(if want {
                                Instr::StoreKeep(sc)
                            } else {
                                Instr::Store(sc)
                            });
                        }
                    }
                    return t;
                }
            }
        }
        let p = self.place(l);
        let (t, slot, global) = match &p {
            Place::Slot(s, t) => (t.clone(), Some(*s), None),
            Place::Mem(t) => (t.clone(), None, None),
            Place::Global(off, _, t) => (t.clone(), None, Some(*off)),
        };
        if let (Ty::Struct(layout), Place::Mem(_)) = (&t, &p) {
            // Whole-structure assignment copies its bytes; the value of `a = b` is `a`.
            if op.is_some() {
                self.err(e.span, "invalid operands to compound assignment");
            }
            if want {
                self.emit(Instr::Dup);
            }
            let rt = self.expr(r);
            if rt != t {
                self.err(
                    r.span,
                    format!("incompatible types when assigning to type '{t}' from type '{rt}'"),
                );
            }
            self.emit(Instr::CopyBytes(layout.size as u32));
            return t;
        }
        let Some(sc) = t.sc() else {
            self.err(l.span, "assignment to expression with array type");
            return Ty::INT;
        };
        match op {
            None => {
                let rt = self.expr(r);
                self.convert(&rt, &t, r.span);
            }
            Some(bop_) => {
                // Load the current value.
                match (slot, global) {
                    (Some(s), _) => {
                        self.emit(Instr::Slot(s));
                    }
                    (None, Some(off)) => {
                        self.emit(Instr::LoadG(sc, off));
                    }
                    (None, None) => {
                        self.emit(Instr::Dup);
                        self.emit(Instr::Load(sc));
                    }
                }
                let rt = self.type_of(r).unwrap_or(Ty::INT).decay();
                if let Ty::Ptr(inner) = &t {
                    let size = inner.size() as u32;
                    self.operand(r, &Ty::Scalar(Sc::I64));
                    if bop_ == BinaryOp::Sub {
                        self.emit(Instr::Neg(Ak::I64));
                    } else if bop_ != BinaryOp::Add {
                        self.err(e.span, "invalid operands to compound assignment");
                    }
                    self.emit(Instr::PtrAdd(size));
                } else {
                    let ka = sc.promote();
                    let kb = self.arith_kind(&rt, r.span);
                    let rule = BinaryRule::of(bop_, ka, kb);
                    let (BinaryRule::Shift(b, k, _) | BinaryRule::Arith(b, k)) = rule else {
                        self.err(e.span, "invalid compound assignment");
                        return t;
                    };
                    if !rule.is_valid() {
                        self.err(
                            e.span,
                            format!("invalid operands to binary {}", bop_.symbol()),
                        );
                    }
                    let (lk, rto) = rule.operand_kinds();
                    self.convert(&t, &Ty::Scalar(lk), l.span);
                    self.operand(r, &Ty::Scalar(rto));
                    self.emit(Instr::Bin(b, k));
                    self.convert(&Ty::Scalar(k.sc()), &t, e.span);
                }
            }
        }
        match (slot, global) {
            (Some(s), _) => {
                if want {
                    self.emit(Instr::Dup);
                }
                self.emit(Instr::SetSlot(s));
            }
            (None, Some(off)) => {
                if want {
                    self.emit(Instr::Dup);
                }
                self.emit(Instr::StoreG(sc, off));
            }
            (None, None) => {
                self.emit(if want {
                    Instr::StoreKeep(sc)
                } else {
                    Instr::Store(sc)
                });
            }
        }
        if !want {
            // Callers that discard expect nothing on the stack.
        }
        t
    }

    fn call(&mut self, e: &Expr, name: &str, span: Span, args: &[Expr]) -> Ty {
        if let Some(f) = self.funcs.get(name).cloned() {
            if !f.defined {
                self.err(span, format!("undefined reference to '{name}'"));
            }
            match &f.params {
                Some(ps) => {
                    if ps.len() != args.len() {
                        self.err(
                            e.span,
                            format!(
                                "too {} arguments to function '{name}'",
                                if args.len() < ps.len() { "few" } else { "many" }
                            ),
                        );
                    }
                    for (a, p) in args.iter().zip(ps.iter()) {
                        let t = self.expr(a);
                        self.convert(&t, p, a.span);
                    }
                }
                None => {
                    for a in args {
                        let t = self.expr(a);
                        if let Ty::Scalar(s) = t {
                            let k = if s == Sc::F32 { Ak::F64 } else { s.promote() };
                            self.convert(&t, &Ty::Scalar(k.sc()), a.span);
                        }
                    }
                }
            }
            self.emit(Instr::Call(f.idx));
            if let Ty::Struct(l) = &f.ret {
                // Out of the callee's buffer at once, so that another call to it (in the
                // same expression) cannot overwrite this value.
                let tmp = self.local_object(l.size, "");
                self.emit(Instr::AddrLocal(tmp));
                self.emit(Instr::Swap);
                self.emit(Instr::CopyBytes(l.size as u32));
                self.emit(Instr::AddrLocal(tmp));
            }
            return f.ret;
        }
        let Some(sig) = builtins::lookup(name) else {
            self.err(span, format!("implicit declaration of function '{name}'"));
            return Ty::INT;
        };
        self.builtin_call(e, name, sig, args)
    }

    fn builtin_call(&mut self, e: &Expr, name: &str, sig: Sig, args: &[Expr]) -> Ty {
        if args.len() < sig.params.len() || (!sig.variadic && args.len() > sig.params.len()) {
            self.err(
                e.span,
                format!(
                    "too {} arguments to function '{name}'",
                    if args.len() < sig.params.len() {
                        "few"
                    } else {
                        "many"
                    }
                ),
            );
            return sig.ret;
        }
        let mut classes = vec![];
        for (i, a) in args.iter().enumerate() {
            match sig.params.get(i) {
                Some(p) => {
                    let t = self.expr(a);
                    self.convert(&t, p, a.span);
                }
                None => {
                    let t = self.expr(a);
                    let class = match t.sc() {
                        Some(Sc::F32) => {
                            self.emit(Instr::Conv(Sc::F32, Sc::F64));
                            ArgClass::Double
                        }
                        Some(Sc::F64) => ArgClass::Double,
                        Some(Sc::I64 | Sc::U64 | Sc::Ptr) => ArgClass::Int64,
                        Some(_) => ArgClass::Int32,
                        None => {
                            self.err(a.span, "invalid use of void expression");
                            ArgClass::Int32
                        }
                    };
                    classes.push(class);
                }
            }
        }
        self.out.code.sites.push(classes);
        let site = self.out.code.sites.len() as u32 - 1;
        self.emit(Instr::Builtin(sig.builtin, site));
        sig.ret
    }
}

/// Whether converting canonical integer register values from `a` to `b` changes nothing.
fn conv_is_identity(a: Sc, b: Sc) -> bool {
    use Sc::*;
    matches!(
        (a, b),
        (_, I64 | U64)
            | (Bool, _)
            | (I8, I16 | I32)
            | (U8, I16 | U16 | I32 | U32)
            | (I16, I32)
            | (U16, I32 | U32)
    )
}

/// The `case` and `default` labels of a `switch` body (not those of a `switch` inside
/// it): the label statement's id, its value (`None` for `default`) and span.
fn collect_cases<'a>(body: &'a Stmt, out: &mut Vec<(NodeId, Option<&'a Expr>, Span)>) {
    struct Cases<'a, 'o>(&'o mut Vec<(NodeId, Option<&'a Expr>, Span)>);
    impl<'a> Visitor<'a> for Cases<'a, '_> {
        fn visit_stmt(&mut self, s: &'a Stmt) {
            match &s.kind {
                StmtKind::Switch { .. } => return,
                StmtKind::Case { value, .. } => self.0.push((s.id, Some(value), s.span)),
                StmtKind::Default { .. } => self.0.push((s.id, None, s.span)),
                _ => {}
            }
            walk_stmt(self, s);
        }
        // Labels are statements: no need to look inside expressions or declarations.
        fn visit_expr(&mut self, _: &'a Expr) {}
        fn visit_decl(&mut self, _: &'a Declaration) {}
    }
    Cases(out).visit_stmt(body);
}

/// The initial bytes of a static object of `size` bytes, built without materialising
/// trailing zeros: `int big[20000000] = {0}` writes nothing and needs no data at all.
struct InitBytes {
    bytes: Vec<u8>,
    size: usize,
}

impl InitBytes {
    fn new(size: usize) -> InitBytes {
        InitBytes {
            bytes: Vec::new(),
            size,
        }
    }

    /// Writes `src` at `at`; nothing when it does not fit the object.
    fn put(&mut self, at: usize, src: &[u8]) {
        let end = at + src.len();
        if end > self.size || (at >= self.bytes.len() && src.iter().all(|&b| b == 0)) {
            return;
        }
        if self.bytes.len() < end {
            self.bytes.resize(end, 0);
        }
        self.bytes[at..end].copy_from_slice(src);
    }

    /// The whole object's bytes, or `None` when they are all zero.
    fn finish(mut self) -> Option<Vec<u8>> {
        if self.bytes.iter().all(|&b| b == 0) {
            return None;
        }
        self.bytes.resize(self.size, 0);
        Some(self.bytes)
    }
}

#[cfg(test)]
thread_local! {
    /// Test switch: skip [`fuse_operands`] so a test can compare with the plainer code.
    static NO_OPERAND_FUSION: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Fuses common instruction pairs and triples (constant operands, compare-and-branch,
/// discarded increments, then register and frame-object operands) and remaps jump
/// targets, function entries and expression starts. Never fuses across a jump target,
/// so control flow is unchanged; never fuses `Call` or `Hole`, and a `Stmt` only into a
/// form that takes the same step first (`StmtSlot`, `StmtLocal`, `StmtCmpSCJz`,
/// `StmtCmpSLJz`, `StmtBinSS`, `StmtCmpSSJz`, `StmtBinSSSet`, `StmtLoadG`), so fuel,
/// coverage and holes are unchanged.
fn peephole(c: &mut Compiled) {
    fuse_pass(c, fuse_constants, false);
    #[cfg(test)]
    if NO_OPERAND_FUSION.with(|x| x.get()) {
        return;
    }
    fuse_pass(c, fuse_operands, true);
    fuse_pass(c, fuse_statements, true);
    fuse_pass(c, fuse_fused, true);
}

/// First fusion rules: constant operands, compare-and-branch, discarded increments.
/// `free(k)`: instruction `i + k` is no jump target (this pass ignores lines).
fn fuse_constants(
    a: Instr,
    b: Option<Instr>,
    c3: Option<Instr>,
    free: &dyn Fn(usize) -> bool,
) -> (Instr, usize) {
    match (a, b, c3) {
        (Instr::Const(k), Some(Instr::Cmp(op, ak)), Some(Instr::Jz(t))) if free(1) && free(2) => {
            (Instr::CmpCJz(op, ak, t, k), 3)
        }
        (Instr::Cmp(op, ak), Some(Instr::Jz(t)), _) if free(1) => (Instr::CmpJz(op, ak, t), 2),
        // Jump if true = jump if the negated comparison is false (integers only).
        (Instr::Const(k), Some(Instr::Cmp(op, ak)), Some(Instr::Jnz(t)))
            if free(1) && free(2) && !ak.is_float() =>
        {
            (Instr::CmpCJz(op.integer_negation(), ak, t, k), 3)
        }
        (Instr::Cmp(op, ak), Some(Instr::Jnz(t)), _) if free(1) && !ak.is_float() => {
            (Instr::CmpJz(op.integer_negation(), ak, t), 2)
        }
        (Instr::Const(k), Some(Instr::Cmp(op, ak)), _) if free(1) => (Instr::CmpC(op, ak, k), 2),
        (Instr::Const(k), Some(Instr::Bin(op, ak)), _) if free(1) => (Instr::BinC(op, ak, k), 2),
        (
            Instr::IncSlot {
                slot, sc, delta, ..
            },
            Some(Instr::Pop),
            _,
        ) if free(1) => (Instr::IncSlotDrop { slot, sc, delta }, 2),
        _ => (a, 1),
    }
}

/// Second fusion rules, over the output of [`fuse_constants`]: register and frame-object
/// operands of arithmetic, stores and compare-and-branch.
fn fuse_operands(
    a: Instr,
    b: Option<Instr>,
    c3: Option<Instr>,
    free: &dyn Fn(usize) -> bool,
) -> (Instr, usize) {
    match (a, b, c3) {
        (Instr::Slot(x), Some(Instr::Slot(y)), Some(Instr::CmpJz(op, ak, t)))
            if free(1) && free(2) =>
        {
            (Instr::CmpSSJz(op, ak, x, y, t), 3)
        }
        (Instr::Slot(x), Some(Instr::CmpJz(op, ak, t)), _) if free(1) => {
            (Instr::CmpSJz(op, ak, x, t), 2)
        }
        (Instr::LoadG(sc, off), Some(Instr::CmpJz(op, ak, t)), _) if free(1) => {
            (Instr::CmpGJz(op, ak, sc, off, t), 2)
        }
        (Instr::Slot(x), Some(Instr::CmpCJz(op, ak, t, k)), _)
            if free(1) && i32::try_from(k as i64).is_ok() =>
        {
            (Instr::CmpSCJz(op, ak, x, t, k as i64 as i32), 2)
        }
        (Instr::Slot(x), Some(Instr::PtrAdd(size)), Some(Instr::Load(sc)))
            if free(1) && free(2) =>
        {
            (Instr::LoadIdx(sc, size, x), 3)
        }
        (Instr::Slot(x), Some(Instr::PtrAdd(size)), _) if free(1) => (Instr::PtrAddS(size, x), 2),
        (Instr::Slot(x), Some(Instr::Cmp(op, ak)), _) if free(1) => (Instr::CmpS(op, ak, x), 2),
        (Instr::IncSlotDrop { slot, sc, delta }, Some(Instr::Jmp(target)), _) if free(1) => (
            Instr::IncSlotJmp {
                slot,
                sc,
                delta,
                target,
            },
            2,
        ),
        (Instr::Slot(x), Some(Instr::BinC(op, ak, k)), _) if free(1) => {
            (Instr::BinSC(op, ak, x, k), 2)
        }
        (Instr::Slot(x), Some(Instr::Bin(op, ak)), _) if free(1) => (Instr::BinS(op, ak, x), 2),
        (Instr::Bin(op, ak), Some(Instr::SetSlot(x)), _) if free(1) => {
            (Instr::BinSet(op, ak, x), 2)
        }
        (Instr::AddrLocal(n), Some(Instr::Load(sc)), Some(Instr::CmpJz(op, ak, t)))
            if free(1) && free(2) =>
        {
            (Instr::CmpLJz(op, ak, sc, n, t), 3)
        }
        (Instr::AddrLocal(n), Some(Instr::Load(sc)), _) if free(1) => (Instr::LoadLocal(sc, n), 2),
        (Instr::PtrAdd(size), Some(Instr::Load(sc)), _) if free(1) => (Instr::LoadAt(sc, size), 2),
        (Instr::LoadG(sc, off), Some(Instr::Bin(op, ak)), _) if free(1) => {
            (Instr::BinG(op, ak, sc, off), 2)
        }
        (Instr::BinC(op, ak, k), Some(Instr::Store(sc)), _) if free(1) => {
            (Instr::BinCStore(op, ak, sc, k), 2)
        }
        _ => (a, 1),
    }
}

/// Third fusion rules, over the output of [`fuse_operands`]: statement steps with a
/// register read, stores of register arithmetic, and truth values of comparisons
/// (a comparison's 0 or 1 is already its own truth value, in any kind).
fn fuse_statements(
    a: Instr,
    b: Option<Instr>,
    c3: Option<Instr>,
    free: &dyn Fn(usize) -> bool,
) -> (Instr, usize) {
    match (a, b, c3) {
        (Instr::Dup, Some(Instr::Jz(t)), Some(Instr::Pop)) if free(1) && free(2) => {
            (Instr::JzOrPop(t), 3)
        }
        (Instr::Dup, Some(Instr::Jnz(t)), Some(Instr::Pop)) if free(1) && free(2) => {
            (Instr::JnzOrPop(t), 3)
        }
        (Instr::AddrLocal(n), Some(Instr::PtrAddS(size, s)), _) if free(1) => {
            (Instr::AddrIdx(n, size, s), 2)
        }
        (Instr::AddrLocal(n), Some(Instr::LoadIdx(sc, size, s)), _) if free(1) => {
            (Instr::LocalIdx(sc, n, size, s), 2)
        }
        (Instr::Const(k), Some(Instr::LoadIdx(sc, size, s)), _)
            if free(1) && make_ptr(split_ptr(k).0, 0) == k =>
        {
            (Instr::GlobalIdx(sc, split_ptr(k).0, size, s), 2)
        }
        (Instr::Stmt(n), Some(Instr::CmpSCJz(op, ak, s, t, k)), _) if free(1) => {
            match u8::try_from(s) {
                Ok(s) => (Instr::StmtCmpSCJz(op, ak, s, n, t, k), 2),
                Err(_) => (a, 1),
            }
        }
        (Instr::Slot(x), Some(Instr::CmpS(op, ak, y)), _) if free(1) => {
            let truth = matches!(c3, Some(Instr::ToBool(_))) && free(2);
            (Instr::CmpSS(op, ak, x, y), 2 + usize::from(truth))
        }
        (Instr::Stmt(n), Some(Instr::CmpSSJz(op, ak, x, y, t)), _) if free(1) => {
            match (u16::try_from(x), u16::try_from(y)) {
                (Ok(x), Ok(y)) => (Instr::StmtCmpSSJz(op, ak, x, y, n, t), 2),
                _ => (a, 1),
            }
        }
        (Instr::Stmt(n), Some(Instr::LoadG(sc, off)), _) if free(1) => {
            (Instr::StmtLoadG(sc, off, n), 2)
        }
        (Instr::Stmt(n), Some(Instr::Slot(s)), _) if free(1) => (Instr::StmtSlot(n, s), 2),
        (Instr::Stmt(n), Some(Instr::LoadLocal(sc, m)), _) if free(1) => {
            (Instr::StmtLocal(n, sc, m), 2)
        }
        (Instr::BinS(op, ak, x), Some(Instr::SetSlot(y)), _) if free(1) => {
            (Instr::BinSSet(op, ak, x, y), 2)
        }
        (Instr::Cmp(..) | Instr::CmpC(..) | Instr::CmpS(..), Some(Instr::ToBool(_)), _)
            if free(1) =>
        {
            (a, 2)
        }
        _ => (a, 1),
    }
}

/// Fourth fusion rules, over the output of [`fuse_statements`]: a register or a
/// statement step with a register in front of a fused load-and-compare or arithmetic
/// (here, after `BinS; SetSlot` became `BinSSet`, a `BinS` left is one whose value
/// stays on the stack).
fn fuse_fused(
    a: Instr,
    b: Option<Instr>,
    _c3: Option<Instr>,
    free: &dyn Fn(usize) -> bool,
) -> (Instr, usize) {
    if !free(1) {
        return (a, 1);
    }
    match (a, b) {
        (Instr::StmtSlot(m, s), Some(Instr::CmpLJz(op, ak, sc, n, t))) => {
            match (u8::try_from(s), u16::try_from(n)) {
                (Ok(s), Ok(n)) => (Instr::StmtCmpSLJz(op, ak, sc, s, n, m, t), 2),
                _ => (a, 1),
            }
        }
        (Instr::Slot(s), Some(Instr::CmpLJz(op, ak, sc, n, t))) => {
            (Instr::CmpSLJz(op, ak, sc, s, n, t), 2)
        }
        (Instr::StmtSlot(n, x), Some(Instr::BinSSet(op, ak, y, d))) => {
            match (u16::try_from(x), u16::try_from(y), u16::try_from(d)) {
                (Ok(x), Ok(y), Ok(d)) => (Instr::StmtBinSSSet(op, ak, x, y, d, n), 2),
                _ => (a, 1),
            }
        }
        (Instr::StmtSlot(n, x), Some(Instr::BinS(op, ak, y))) => {
            (Instr::StmtBinSS(op, ak, n, x, y), 2)
        }
        (Instr::GlobalIdx(sc, n, size, s), Some(Instr::Bin(op, ak))) => {
            (Instr::BinGlobalIdx(op, ak, sc, n, size, s), 2)
        }
        _ => (a, 1),
    }
}

/// A fusion rule: given an instruction, the next two and `free`, the fused instruction
/// and how many instructions it replaces.
type FuseRule = fn(Instr, Option<Instr>, Option<Instr>, &dyn Fn(usize) -> bool) -> (Instr, usize);

/// One fusion pass with `rule` (which answers the fused instruction and how many it
/// replaces) over the whole code. `rule` may only fuse parts `i + k` for which `free(k)`:
/// not jump targets or function entries and, with `same_line`, on the line of the first
/// part, which the fused instruction keeps (so a runtime error reports the same line).
fn fuse_pass(c: &mut Compiled, rule: FuseRule, same_line: bool) {
    let code = &mut c.code;
    let ins = std::mem::take(&mut code.instrs);
    let lines = std::mem::take(&mut code.lines);
    let n = ins.len();
    let mut target = vec![false; n + 1];
    for i in &ins {
        if let Instr::Jmp(t)
        | Instr::Jz(t)
        | Instr::Jnz(t)
        | Instr::CmpJz(_, _, t)
        | Instr::CmpCJz(_, _, t, _)
        | Instr::CmpSSJz(_, _, _, _, t)
        | Instr::CmpSCJz(_, _, _, t, _)
        | Instr::JzOrPop(t)
        | Instr::JnzOrPop(t)
        | Instr::CmpLJz(_, _, _, _, t)
        | Instr::StmtCmpSCJz(_, _, _, _, t, _)
        | Instr::CmpSJz(_, _, _, t)
        | Instr::CmpGJz(_, _, _, _, t)
        | Instr::CmpSLJz(_, _, _, _, _, t)
        | Instr::StmtCmpSLJz(_, _, _, _, _, _, t)
        | Instr::StmtCmpSSJz(_, _, _, _, _, t)
        | Instr::IncSlotJmp { target: t, .. } = *i
        {
            if let Some(x) = target.get_mut(t as usize) {
                *x = true;
            }
        }
    }
    for f in &code.funcs {
        if let Some(x) = target.get_mut(f.entry as usize) {
            *x = true;
        }
    }
    let mut map = vec![0u32; n + 1];
    let mut out: Vec<Instr> = Vec::with_capacity(n);
    let mut out_lines = Vec::with_capacity(n);
    let mut i = 0;
    while i < n {
        map[i] = out.len() as u32;
        let line = lines.get(i).copied().unwrap_or(0);
        let free = |k: usize| {
            !target.get(i + k).copied().unwrap_or(true)
                && (!same_line || lines.get(i + k) == Some(&line))
        };
        let (fused, used) = rule(
            ins[i],
            ins.get(i + 1).copied(),
            ins.get(i + 2).copied(),
            &free,
        );
        for k in 1..used {
            map[i + k] = out.len() as u32;
        }
        out.push(fused);
        out_lines.push(line);
        i += used;
    }
    map[n] = out.len() as u32;
    let m = |t: u32| map.get(t as usize).copied().unwrap_or(t);
    for x in &mut out {
        *x = match *x {
            Instr::Jmp(t) => Instr::Jmp(m(t)),
            Instr::Jz(t) => Instr::Jz(m(t)),
            Instr::Jnz(t) => Instr::Jnz(m(t)),
            Instr::CmpJz(op, k, t) => Instr::CmpJz(op, k, m(t)),
            Instr::CmpCJz(op, k, t, v) => Instr::CmpCJz(op, k, m(t), v),
            Instr::CmpSSJz(op, k, a, b, t) => Instr::CmpSSJz(op, k, a, b, m(t)),
            Instr::CmpSCJz(op, k, s, t, v) => Instr::CmpSCJz(op, k, s, m(t), v),
            Instr::JzOrPop(t) => Instr::JzOrPop(m(t)),
            Instr::JnzOrPop(t) => Instr::JnzOrPop(m(t)),
            Instr::CmpLJz(op, k, sc, n, t) => Instr::CmpLJz(op, k, sc, n, m(t)),
            Instr::StmtCmpSCJz(op, k, s, n, t, v) => Instr::StmtCmpSCJz(op, k, s, n, m(t), v),
            Instr::CmpSJz(op, k, s, t) => Instr::CmpSJz(op, k, s, m(t)),
            Instr::CmpGJz(op, k, sc, off, t) => Instr::CmpGJz(op, k, sc, off, m(t)),
            Instr::CmpSLJz(op, k, sc, s, n, t) => Instr::CmpSLJz(op, k, sc, s, n, m(t)),
            Instr::StmtCmpSLJz(op, k, sc, s, n, st, t) => {
                Instr::StmtCmpSLJz(op, k, sc, s, n, st, m(t))
            }
            Instr::StmtCmpSSJz(op, k, x, y, n, t) => Instr::StmtCmpSSJz(op, k, x, y, n, m(t)),
            Instr::IncSlotJmp {
                slot,
                sc,
                delta,
                target,
            } => Instr::IncSlotJmp {
                slot,
                sc,
                delta,
                target: m(target),
            },
            other => other,
        };
    }
    for f in &mut code.funcs {
        f.entry = m(f.entry);
    }
    for v in c.expr_at.values_mut() {
        *v = m(*v);
    }
    code.instrs = out;
    code.lines = out_lines;
}

#[cfg(test)]
mod fusion_tests {
    use super::NO_OPERAND_FUSION;
    use crate::lang::bytecode::Instr;
    use crate::lang::{compile, Execution, Limits, Program};

    /// Compiles `src` with and without the operand fusions (the first pass runs in both).
    fn both(src: &str) -> (Program, Program) {
        let fused = compile(src).expect("compiles");
        NO_OPERAND_FUSION.with(|x| x.set(true));
        let plain = compile(src);
        NO_OPERAND_FUSION.with(|x| x.set(false));
        (fused, plain.expect("compiles"))
    }

    fn run(p: &Program, stdin: &str, fuel: u64) -> Execution {
        let limits = Limits {
            fuel,
            record_coverage: true,
            ..Limits::default()
        };
        p.run(stdin.as_bytes(), &limits)
    }

    #[test]
    fn static_initialisers_keep_their_values_and_zero_objects_need_no_data() {
        // Initial bytes are built without their trailing zeros (`InitBytes`): values
        // after zeros, nested lists and strings must still land where they belong.
        let p = compile(
            "#include <stdio.h>\nlong big[20000005] = {0}, tail[5] = {0, 0, 0, 0, 9};\n\
             int m[3][2] = {{0, 0}, {0, 5}}; char s[8] = \"ab\"; double d = 0.0, e = 2.5;\n\
             int main() { printf(\"%ld %ld %ld %d %d %s %g %g\\n\", big[19999999], tail[3], tail[4], \
             m[1][1], m[2][0], s, d, e); return 0; }",
        )
        .expect("compiles");
        let data: usize = p.code().data.iter().map(Vec::len).sum();
        assert!(data < 4096, "{data} bytes of data");
        let e = run(&p, "", 1000);
        assert_eq!(String::from_utf8_lossy(&e.stdout), "0 0 9 5 0 ab 0 2.5\n");
    }

    #[test]
    fn undefined_behaviour_is_noted_with_its_line_and_the_run_goes_on() {
        use crate::lang::UndefinedKind::{FloatToInteger, InputOutOfRange, SignedOverflow};
        // (statement after reading int a and double d, input, first undefined behaviour)
        let cases: &[(&str, &str, Option<crate::lang::UndefinedKind>)] = &[
            ("r = a * 2;", "2000000000 0", Some(SignedOverflow)),
            ("r = a * 2;", "1000000000 0", None),
            ("r = a + 1;", "2147483647 0", Some(SignedOverflow)),
            ("r = a - 1;", "-2147483648 0", Some(SignedOverflow)),
            ("r = -a;", "-2147483648 0", Some(SignedOverflow)),
            ("r = a; r++;", "2147483647 0", Some(SignedOverflow)),
            ("r = a; r += 5;", "2147483647 0", Some(SignedOverflow)),
            ("r = a; r--;", "5 0", None),
            (
                "long long x = a; x = x * x * x; r = x > 0;",
                "3000000 0",
                Some(SignedOverflow),
            ),
            (
                "unsigned u = a; u = u * 4000000000u; r = u > 1;",
                "7 0",
                None,
            ),
            ("char c = a; c++; r = c;", "127 0", None),
            ("short s = a; r = s;", "100000 0", None),
            ("r = d;", "0 3e10", Some(FloatToInteger)),
            ("r = d;", "0 -2147483648.5", None),
            ("r = sqrt(d);", "0 -1", Some(FloatToInteger)),
            ("unsigned u = d; r = u;", "0 -0.5", None),
            ("unsigned u = d; r = u;", "0 -1", Some(FloatToInteger)),
            (
                "scanf(\"%d\", &r);",
                "0 0 3000000000",
                Some(InputOutOfRange),
            ),
            ("scanf(\"%d\", &r);", "0 0 -2147483648", None),
            (
                "short s; scanf(\"%hd\", &s); r = s;",
                "0 0 40000",
                Some(InputOutOfRange),
            ),
            (
                "long long x; scanf(\"%lld\", &x); r = x > 0;",
                "0 0 3000000000",
                None,
            ),
        ];
        for &(stmt, input, want) in cases {
            let src = format!(
                "#include <stdio.h>\n#include <math.h>\nint main() {{\n  int a, r = 0; double d;\n  scanf(\"%d %lf\", &a, &d);\n  {stmt}\n  printf(\"%d\\n\", r);\n  return 0;\n}}\n"
            );
            let (fused, plain) = both(&src);
            for p in [&fused, &plain] {
                let e = run(p, input, 10_000);
                assert!(e.exited(), "{stmt} on {input}: {:?}", e.outcome);
                assert_eq!(e.undefined.map(|u| u.what), want, "{stmt} on {input}");
                if let Some(u) = e.undefined {
                    assert_eq!(u.line, 6, "{stmt} on {input}");
                }
                // Every undefined result 0: the same notes, and r (computed from the
                // undefined result in every case) is 0; a defined run is unchanged.
                let zero = Limits {
                    undefined_as_zero: true,
                    ..Limits::default()
                };
                let z = p.run(input.as_bytes(), &zero);
                assert_eq!(z.undefined, e.undefined, "{stmt} on {input}");
                let want_out = if want.is_some() {
                    &b"0\n"[..]
                } else {
                    &e.stdout[..]
                };
                assert_eq!(z.stdout, want_out, "{stmt} on {input}, undefined as zero");
            }
        }
        // The run goes on with what gcc -O0 on x86-64 gives.
        let p = compile("int main(){int a; scanf(\"%d\",&a); printf(\"%d\\n\", a * 2); return 0;}")
            .expect("compiles");
        let e = run(&p, "2000000000", 1000);
        assert_eq!(String::from_utf8_lossy(&e.stdout), "-294967296\n");
        assert_eq!(
            e.undefined.map(|u| u.to_string()).as_deref(),
            Some("signed integer overflow at line 1")
        );
    }

    #[test]
    fn a_value_used_from_a_function_that_fell_off_its_end_is_undefined() {
        use crate::lang::UndefinedKind::MissingReturnValue;
        // Codeflaws 495-A-bug-12401275: pos() has no case for '5' and falls off its end.
        let pos = "#include <stdio.h>\nint pos(char n)\n{\n  if (n == '0') return 2;\n  \
                   else if (n == '1') return 7;\n}\nint twice(int x) { return 2 * x; }\n";
        // (main's body, input, the first undefined behaviour and its line, stdout)
        let cases: &[(&str, &str, Option<u32>, &str)] = &[
            // The value is used: in an argument, an assignment, a condition, a return.
            (
                "printf(\"%d\\n\", pos(s[0]) * pos(s[1]));",
                "15",
                Some(12),
                "49\n",
            ),
            (
                "printf(\"%d\\n\", pos(s[0]) * pos(s[1]));",
                "10",
                None,
                "14\n",
            ),
            (
                "int v = pos(s[0]); printf(\"%d\\n\", v);",
                "5",
                Some(12),
                "0\n",
            ),
            ("if (pos(s[0])) printf(\"yes\\n\");", "5", Some(12), ""),
            // It falls off after a call returned 6: gcc's eax, and ours.
            (
                "twice(3); printf(\"%d\\n\", pos(s[0]));",
                "5",
                Some(12),
                "6\n",
            ),
            // The value is thrown away: defined.
            ("pos(s[0]); printf(\"ok\\n\");", "5", None, "ok\n"),
            ("(void) pos(s[0]); printf(\"ok\\n\");", "5", None, "ok\n"),
            ("pos(s[0]), printf(\"ok\\n\");", "5", None, "ok\n"),
            (
                "s[1] ? pos(s[0]) : pos(s[0]); printf(\"ok\\n\");",
                "5",
                None,
                "ok\n",
            ),
        ];
        for &(body, input, line, out) in cases {
            let src = format!(
                "{pos}int main()\n{{\n  char s[4];\n  scanf(\"%s\", s);\n  {body}\n  return 0;\n}}\n"
            );
            let (fused, plain) = both(&src);
            for p in [&fused, &plain] {
                let e = run(p, input, 10_000);
                assert!(e.exited(), "{body} on {input}: {:?}", e.outcome);
                let noted = e.undefined.map(|u| (u.what, u.line));
                assert_eq!(
                    noted,
                    line.map(|l| (MissingReturnValue, l)),
                    "{body} on {input}"
                );
                assert_eq!(String::from_utf8_lossy(&e.stdout), out, "{body} on {input}");
                // Every undefined result 0: the same note, and 0 as the value.
                let zero = Limits {
                    undefined_as_zero: true,
                    ..Limits::default()
                };
                let z = p.run(input.as_bytes(), &zero);
                assert_eq!(z.undefined, e.undefined, "{body} on {input}");
            }
        }
        let p = compile(&format!(
            "{pos}int main()\n{{\n  char s[4];\n  scanf(\"%s\", s);\n  twice(3);\n  \
             printf(\"%d\\n\", pos(s[0]));\n  return 0;\n}}\n"
        ))
        .expect("compiles");
        let zero = Limits {
            undefined_as_zero: true,
            ..Limits::default()
        };
        assert_eq!(p.run(b"5", &zero).stdout, b"0\n");
        // A function-shaped program: the value of the entry function is the output.
        let f = compile("int f(int x) { if (x > 0) return x; }").expect("compiles");
        let limits = Limits::default();
        let e = f.run_test(&[crate::lang::Num::Int(-1)], &limits);
        assert_eq!(e.undefined.map(|u| u.what), Some(MissingReturnValue));
        let e = f.run_test(&[crate::lang::Num::Int(4)], &limits);
        assert_eq!(e.undefined, None);
        // main and void functions may end at their brace.
        let p = compile(
            "#include <stdio.h>\nvoid hi(void) { printf(\"hi\\n\"); }\nint main() { hi(); }",
        )
        .expect("compiles");
        let e = run(&p, "", 1000);
        assert_eq!(
            (e.undefined, e.outcome.clone()),
            (None, crate::lang::Outcome::Exit(0))
        );
        assert_eq!(
            run(
                &compile(&format!(
                "{pos}int main()\n{{\n  char s[4];\n  scanf(\"%s\", s);\n  return pos(s[0]);\n}}\n"
            ))
                .expect("compiles"),
                "5",
                1000
            )
            .undefined
            .map(|u| u.to_string())
            .as_deref(),
            Some("the value of a function that ended without return is used at line 12")
        );
    }

    const LOOPS: &str = r#"#include <stdio.h>
int g[40]; int gs = 2;
int main() {
    long k, n; int a[20]; int i, j, s = 0, t = 3, z = 0; int *p = a;
    scanf("%ld %ld %d", &k, &n, &z);
    for (i = 0; i < 20; i++) a[i] = i * k;
    for (i = 0; i < n; i++) {
        for (j = 0; j < i && j < 20; j++) {
            s = s + a[j] - p[j] + p[i];
            t = s ^ j; t = t % 7 + j; t = s * j + t % 7 + (j < i); t += (a[j] > t || j == 5) + (j < i && s > t);
            if (a[j] > t || j == 5) s -= 1; p[j] = a[j] + 1;
            if (j > i) s = s / z;
        }
        g[i % 10] = s; if (z > 3 && i < k && i + 1 < n) s++; if (j < gs) t++; t = g[i] - t + gs - g[i] + i * j;
        s = s % 1000 + a[i % 20] / (z + 1); gs = gs + z - z;
    }
    double d = 0; for (i = 0; i < 5; i++) d = d + i * 0.5;
    printf("%d %d %f %d\n", s, t, d, g[3]);
    s = s / z;
    printf("%d\n", a[z * 1000]);
    return 0;
}
"#;

    #[test]
    fn operand_fusion_keeps_output_steps_and_errors() {
        let (fused, plain) = both(LOOPS);
        let count = |p: &Program| p.code().instrs.len();
        assert!(count(&fused) < count(&plain));
        let has = |f: fn(&Instr) -> bool| fused.code().instrs.iter().any(f);
        assert!(has(|i| matches!(i, Instr::LoadLocal(..))));
        assert!(has(|i| matches!(i, Instr::BinS(..))));
        assert!(has(|i| matches!(i, Instr::BinSC(..))));
        // Every `Slot; Slot; CmpJz` here is a statement's condition: `StmtCmpSSJz`.
        assert!(has(|i| matches!(
            i,
            Instr::CmpSSJz(..) | Instr::StmtCmpSSJz(..)
        )));
        // Every `Slot; CmpCJz` here follows a statement step, so all become `StmtCmpSCJz`.
        assert!(has(|i| matches!(
            i,
            Instr::CmpSCJz(..) | Instr::StmtCmpSCJz(..)
        )));
        assert!(has(|i| matches!(i, Instr::LoadIdx(..))));
        assert!(has(|i| matches!(i, Instr::PtrAddS(..))));
        assert!(has(|i| matches!(i, Instr::CmpS(..))));
        assert!(has(|i| matches!(i, Instr::IncSlotJmp { .. })));
        assert!(has(|i| matches!(i, Instr::BinSSet(..))));
        assert!(has(|i| matches!(i, Instr::StmtSlot(..))));
        assert!(has(|i| matches!(i, Instr::JzOrPop(..))));
        assert!(has(|i| matches!(i, Instr::JnzOrPop(..))));
        assert!(has(|i| matches!(i, Instr::AddrIdx(..))));
        assert!(has(|i| matches!(i, Instr::LocalIdx(..))));
        assert!(has(|i| matches!(i, Instr::GlobalIdx(..))));
        assert!(has(|i| matches!(i, Instr::CmpLJz(..))));
        assert!(has(|i| matches!(i, Instr::LoadAt(..))));
        assert!(has(|i| matches!(i, Instr::BinCStore(..))));
        assert!(has(|i| matches!(i, Instr::StmtLocal(..))));
        assert!(has(|i| matches!(i, Instr::StmtCmpSCJz(..))));
        assert!(has(|i| matches!(i, Instr::CmpSS(..))));
        assert!(has(|i| matches!(i, Instr::BinG(..))));
        assert!(has(|i| matches!(i, Instr::CmpSJz(..))));
        assert!(has(|i| matches!(i, Instr::CmpGJz(..))));
        assert!(has(|i| matches!(i, Instr::CmpSLJz(..))));
        assert!(has(|i| matches!(i, Instr::StmtCmpSLJz(..))));
        assert!(has(|i| matches!(i, Instr::StmtBinSS(..))));
        assert!(has(|i| matches!(i, Instr::BinGlobalIdx(..))));
        assert!(has(|i| matches!(i, Instr::StmtCmpSSJz(..))));
        assert!(has(|i| matches!(i, Instr::StmtBinSSSet(..))));
        assert!(has(|i| matches!(i, Instr::StmtLoadG(..))));
        assert!(!has(|i| matches!(i, Instr::ToBool(..))));
        // Normal end, division by zero (line 19), out of bounds (line 20), and timeouts.
        for stdin in ["3 40 1", "2 30 0", "1 5 7", "0 0 1"] {
            for fuel in [u64::MAX / 2, 10, 57, 500, 2000] {
                let (a, b) = (run(&fused, stdin, fuel), run(&plain, stdin, fuel));
                assert_eq!(a, b, "stdin {stdin:?} fuel {fuel}");
            }
        }
        let e = run(&fused, "2 30 0", u64::MAX / 2);
        assert!(
            matches!(
                e.outcome,
                crate::lang::Outcome::RuntimeError { line: 19, .. }
            ),
            "{e:?}"
        );
        assert!(std::mem::size_of::<Instr>() <= 16);
    }

    /// `&&` / `||` in `if`, `while`, `for`, `do`-`while` and `?:` compile to jump chains
    /// ([`super::Compiler::branch`]); they must give the truth value and the order of
    /// side effects of the same condition used as a value.
    #[test]
    fn branch_conditions_match_value_conditions() {
        // (condition, its truth and call trace computed here from a, b, c, d)
        type Expect = fn([i64; 4]) -> (i64, i64);
        let cases: [(&str, Expect); 5] = [
            ("f(1, a) && f(2, b)", |[a, b, ..]| {
                if a != 0 {
                    ((b != 0) as i64, 12)
                } else {
                    (0, 1)
                }
            }),
            ("f(1, a) || f(2, b)", |[a, b, ..]| {
                if a != 0 {
                    (1, 1)
                } else {
                    ((b != 0) as i64, 12)
                }
            }),
            (
                "(f(1, a) && f(2, b)) || (f(3, c) && f(4, d))",
                |[a, b, c, d]| {
                    let (mut t, mut v) = (1, a != 0 && b != 0);
                    if a != 0 {
                        t = 12;
                    }
                    if !v {
                        t = t * 10 + 3;
                        if c != 0 {
                            t = t * 10 + 4;
                        }
                        v = c != 0 && d != 0;
                    }
                    (v as i64, t)
                },
            ),
            (
                "f(1, a) && (f(2, b) || f(3, c)) && f(4, d)",
                |[a, b, c, d]| {
                    if a == 0 {
                        return (0, 1);
                    }
                    let (mut t, mid) = (12, b != 0 || c != 0);
                    if b == 0 {
                        t = 123;
                    }
                    if !mid {
                        return (0, t);
                    }
                    ((d != 0) as i64, t * 10 + 4)
                },
            ),
            (
                "(f(1, a) || f(2, b)) && !(f(3, c) || f(4, d))",
                |[a, b, c, d]| {
                    let t = if a != 0 { 1 } else { 12 };
                    if a == 0 && b == 0 {
                        return (0, t);
                    }
                    if c != 0 {
                        (0, t * 10 + 3)
                    } else {
                        ((d == 0) as i64, (t * 10 + 3) * 10 + 4)
                    }
                },
            ),
        ];
        for (cond, expect) in cases {
            let src = format!(
                r#"#include <stdio.h>
long tr;
int f(int k, int v) {{ tr = tr * 10 + k; return v; }}
int main() {{
    int a, b, c, d, v[6], k; long t[6];
    scanf("%d %d %d %d", &a, &b, &c, &d);
    tr = 0; v[0] = ({cond}); t[0] = tr;
    tr = 0; if ({cond}) v[1] = 1; else v[1] = 0; t[1] = tr;
    tr = 0; v[2] = 0; while ({cond}) {{ v[2] = 1; break; }} t[2] = tr;
    tr = 0; v[3] = 0; for (; {cond};) {{ v[3] = 1; break; }} t[3] = tr;
    tr = 0; v[4] = ({cond}) ? 1 : 0; t[4] = tr;
    tr = 0; k = 0; do {{ k++; }} while (k < 2 && ({cond})); v[5] = k - 1; t[5] = tr;
    for (k = 0; k < 6; k++) printf("%d %ld\n", v[k], t[k]);
    return 0;
}}
"#
            );
            let p = compile(&src).expect("compiles");
            for bits in 0..16 {
                let x = [bits & 1, bits >> 1 & 1, bits >> 2 & 1, bits >> 3 & 1];
                let stdin = format!("{} {} {} {}", x[0], x[1], x[2], x[3]);
                let out = String::from_utf8_lossy(&run(&p, &stdin, 1_000_000).stdout).into_owned();
                let (value, trace) = expect(x);
                let want = format!("{value} {trace}\n").repeat(6);
                assert_eq!(out, want, "{cond} on {stdin}");
            }
        }
    }

    /// A NaN compares false both ways; jump-if-true on floats must not become the
    /// negated comparison's jump-if-false.
    #[test]
    fn float_conditions_with_nan_stay_false_both_ways() {
        let src = r#"#include <stdio.h>
int main() {
    double z, n; int k = 0;
    scanf("%lf", &z);
    n = z / z;
    if (n < 1.0 || n >= 1.0) k += 1;
    if (!(n < 1.0) && !(n >= 1.0)) k += 10;
    while (n == n || n != n) { k += 100; break; }
    printf("%d\n", k);
    return 0;
}
"#;
        let p = compile(src).expect("compiles");
        let out =
            |stdin: &str| String::from_utf8_lossy(&run(&p, stdin, 1_000_000).stdout).into_owned();
        assert_eq!(out("0"), "110\n");
        assert_eq!(out("2"), "101\n");
    }

    #[test]
    fn register_slots_past_255_keep_the_unfused_step_and_compare() {
        // `StmtCmpSCJz` and `StmtCmpSLJz` hold their slot in a byte; a loop variable in
        // slot 300 must keep the step and the compare apart and still run the same.
        let decls: String = (0..300).map(|i| format!("int v{i} = {i};\n")).collect();
        let src = format!(
            "#include <stdio.h>\nint main() {{\n{decls}int s = 0;\nint n; scanf(\"%d\", &n);\nfor (s = 0; s < 7; s++) v299 = v299 + n;\nfor (s = 0; s < n; s++) v298 = v298 + 1;\nprintf(\"%d %d %d\\n\", v299, v298, v0);\nreturn 0;\n}}\n"
        );
        let (fused, plain) = both(&src);
        let code = &fused.code().instrs;
        let far = |i: &Instr| matches!(i, Instr::CmpSCJz(_, _, slot, _, _) if *slot >= 256);
        assert!(code.iter().any(far));
        let far_local = |w: &[Instr]| matches!(w, [Instr::StmtSlot(_, slot), Instr::CmpLJz(..)] if *slot >= 256);
        assert!(code.windows(2).any(far_local));
        for fuel in [u64::MAX / 2, 300, 305, 310, 312, 315] {
            let (a, b) = (run(&fused, "5", fuel), run(&plain, "5", fuel));
            assert_eq!(a, b, "fuel {fuel}");
        }
        assert_eq!(run(&fused, "5", u64::MAX / 2).stdout, b"334 303 0\n");
    }

    #[test]
    fn operand_fusion_keeps_error_lines_of_split_expressions() {
        // Operands on other lines than their operator are not fused, so the error line stays.
        let src = "#include <stdio.h>\nint main() {\n    int a[4], i = 0, z = 0, s = 1;\n    s = s\n        / z;\n    return a[i\n        + 9000];\n}\n";
        let (fused, plain) = both(src);
        let (a, b) = (run(&fused, "", 1000), run(&plain, "", 1000));
        assert_eq!(a, b);
        assert!(matches!(
            a.outcome,
            crate::lang::Outcome::RuntimeError { .. }
        ));
    }
}
