//! C types of the subset: scalar storage kinds, pointers and arrays, with sizes and the usual conversions.

/// How a scalar is stored (in memory and, canonicalised, in VM registers).
///
/// Registers hold every integer sign- or zero-extended to 64 bits according to its kind,
/// `F32` as an `f64` whose value is exactly representable as `f32`, `F64` as its bits and
/// pointers as `(object id << 32) | offset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sc {
    /// `_Bool`: 0 or 1.
    Bool,
    /// `char` / `signed char`.
    I8,
    /// `unsigned char`.
    U8,
    /// `short`.
    I16,
    /// `unsigned short`.
    U16,
    /// `int`.
    I32,
    /// `unsigned int`.
    U32,
    /// `long`, `long long`.
    I64,
    /// `unsigned long`, `unsigned long long`.
    U64,
    /// `float`.
    F32,
    /// `double`, `long double`.
    F64,
    /// Any data pointer.
    Ptr,
}

impl Sc {
    /// Size in bytes.
    pub fn size(self) -> u32 {
        match self {
            Sc::Bool | Sc::I8 | Sc::U8 => 1,
            Sc::I16 | Sc::U16 => 2,
            Sc::I32 | Sc::U32 | Sc::F32 => 4,
            Sc::I64 | Sc::U64 | Sc::F64 | Sc::Ptr => 8,
        }
    }
    /// Whether this is a floating type.
    pub fn is_float(self) -> bool {
        matches!(self, Sc::F32 | Sc::F64)
    }
    /// Whether this is an integer type (incl. `_Bool`).
    pub fn is_int(self) -> bool {
        !self.is_float() && self != Sc::Ptr
    }
    /// Whether this is a signed integer type.
    pub fn is_signed(self) -> bool {
        matches!(self, Sc::I8 | Sc::I16 | Sc::I32 | Sc::I64)
    }
    /// The integer promotion / arithmetic kind of a value of this kind.
    pub fn promote(self) -> Ak {
        match self {
            Sc::Bool | Sc::I8 | Sc::U8 | Sc::I16 | Sc::U16 | Sc::I32 => Ak::I32,
            Sc::U32 => Ak::U32,
            Sc::I64 => Ak::I64,
            Sc::U64 | Sc::Ptr => Ak::U64,
            Sc::F32 => Ak::F32,
            Sc::F64 => Ak::F64,
        }
    }
    /// C spelling, for diagnostics.
    pub fn name(self) -> &'static str {
        match self {
            Sc::Bool => "_Bool",
            Sc::I8 => "char",
            Sc::U8 => "unsigned char",
            Sc::I16 => "short",
            Sc::U16 => "unsigned short",
            Sc::I32 => "int",
            Sc::U32 => "unsigned int",
            Sc::I64 => "long long",
            Sc::U64 => "unsigned long long",
            Sc::F32 => "float",
            Sc::F64 => "double",
            Sc::Ptr => "pointer",
        }
    }
}

/// Arithmetic kind: the type in which a (promoted) operation is carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ak {
    /// `int`.
    I32,
    /// `unsigned int`.
    U32,
    /// `long long`.
    I64,
    /// `unsigned long long`.
    U64,
    /// `float`.
    F32,
    /// `double`.
    F64,
}

impl Ak {
    /// The storage kind of a value of this arithmetic kind.
    pub fn sc(self) -> Sc {
        match self {
            Ak::I32 => Sc::I32,
            Ak::U32 => Sc::U32,
            Ak::I64 => Sc::I64,
            Ak::U64 => Sc::U64,
            Ak::F32 => Sc::F32,
            Ak::F64 => Sc::F64,
        }
    }
    /// The usual arithmetic conversions of C99 6.3.1.8 for two promoted kinds.
    pub fn usual(a: Ak, b: Ak) -> Ak {
        use Ak::*;
        if a == F64 || b == F64 {
            return F64;
        }
        if a == F32 || b == F32 {
            return F32;
        }
        let rank = |k: Ak| match k {
            I32 | U32 => 1,
            _ => 2,
        };
        let (ra, rb) = (rank(a), rank(b));
        if ra != rb {
            let (hi, lo) = if ra > rb { (a, b) } else { (b, a) };
            // The higher-ranked 64-bit type can represent all 32-bit values.
            let _ = lo;
            return hi;
        }
        if a == b {
            a
        } else if ra == 1 {
            U32
        } else {
            U64
        }
    }
    /// Whether this is a floating kind.
    pub fn is_float(self) -> bool {
        matches!(self, Ak::F32 | Ak::F64)
    }
}

/// A C type.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    /// `void`.
    Void,
    /// A non-pointer scalar (`Sc::Ptr` is never used here; see [`Ty::Ptr`]).
    Scalar(Sc),
    /// Pointer to the element type.
    Ptr(Box<Ty>),
    /// Array of `len` elements.
    Array(Box<Ty>, u64),
    /// A structure: its members' places and types.
    Struct(std::sync::Arc<StructLayout>),
}

/// The layout of a structure type as gcc gives it on x86-64: each member at the next
/// offset its alignment allows, the size rounded up to the largest alignment.
#[derive(Clone, Debug)]
pub struct StructLayout {
    /// The key the program names it by (its tag, or a made-up key if anonymous).
    pub key: String,
    /// Whether the members are known (a pointer member to the structure being defined
    /// refers to it before it is complete).
    pub complete: bool,
    /// Size in bytes.
    pub size: u64,
    /// Alignment in bytes.
    pub align: u64,
    /// The members in order: name, offset and type.
    pub members: Vec<(String, u64, Ty)>,
}

impl PartialEq for StructLayout {
    /// One structure type per key: a complete layout and the incomplete reference to it
    /// from inside its own definition are the same type.
    fn eq(&self, other: &StructLayout) -> bool {
        self.key == other.key
    }
}

impl StructLayout {
    /// Lays out `members` in order.
    pub fn new(key: String, members: Vec<(String, Ty)>) -> StructLayout {
        let (mut size, mut align) = (0u64, 1u64);
        let mut placed = Vec::with_capacity(members.len());
        for (name, ty) in members {
            let a = ty.align();
            size = size.div_ceil(a).saturating_mul(a);
            placed.push((name, size, ty.clone()));
            size = size.saturating_add(ty.size());
            align = align.max(a);
        }
        StructLayout {
            key,
            complete: true,
            size: size.div_ceil(align).saturating_mul(align),
            align,
            members: placed,
        }
    }
    /// A structure referred to before its definition is complete.
    pub fn incomplete(key: String) -> StructLayout {
        StructLayout {
            key,
            complete: false,
            size: 0,
            align: 1,
            members: vec![],
        }
    }
    /// The offset and type of member `name`.
    pub fn member(&self, name: &str) -> Option<(u64, &Ty)> {
        self.members
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, off, t)| (*off, t))
    }
}

impl Ty {
    /// `int`.
    pub const INT: Ty = Ty::Scalar(Sc::I32);
    /// `double`.
    pub const DOUBLE: Ty = Ty::Scalar(Sc::F64);

    /// Size in bytes (`void` counts 1 like gcc's extension for pointer arithmetic).
    pub fn size(&self) -> u64 {
        match self {
            Ty::Void => 1,
            Ty::Scalar(s) => u64::from(s.size()),
            Ty::Ptr(_) => 8,
            Ty::Array(e, n) => e.size().saturating_mul(*n),
            Ty::Struct(l) => l.size,
        }
    }
    /// Alignment in bytes (gcc's on x86-64: a scalar's size, an array's element's, a
    /// structure's largest member's).
    pub fn align(&self) -> u64 {
        match self {
            Ty::Void => 1,
            Ty::Scalar(s) => u64::from(s.size()),
            Ty::Ptr(_) => 8,
            Ty::Array(e, _) => e.align(),
            Ty::Struct(l) => l.align,
        }
    }
    /// The storage kind of a scalar or pointer type.
    pub fn sc(&self) -> Option<Sc> {
        match self {
            Ty::Scalar(s) => Some(*s),
            Ty::Ptr(_) => Some(Sc::Ptr),
            _ => None,
        }
    }
    /// Whether this is an arithmetic (integer or floating) type.
    pub fn is_arith(&self) -> bool {
        matches!(self, Ty::Scalar(_))
    }
    /// Whether this is an integer type.
    pub fn is_int(&self) -> bool {
        matches!(self, Ty::Scalar(s) if s.is_int())
    }
    /// The pointee of a pointer or the element of an array.
    pub fn elem(&self) -> Option<&Ty> {
        match self {
            Ty::Ptr(e) | Ty::Array(e, _) => Some(e),
            _ => None,
        }
    }
    /// Array-to-pointer decay.
    pub fn decay(self) -> Ty {
        match self {
            Ty::Array(e, _) => Ty::Ptr(e),
            t => t,
        }
    }
    /// The innermost non-array element type.
    pub fn base_elem(&self) -> &Ty {
        match self {
            Ty::Array(e, _) => e.base_elem(),
            t => t,
        }
    }
}

impl std::fmt::Display for Ty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ty::Void => write!(f, "void"),
            Ty::Scalar(s) => write!(f, "{}", s.name()),
            Ty::Ptr(e) => write!(f, "{e} *"),
            Ty::Array(e, n) => write!(f, "{e} [{n}]"),
            Ty::Struct(l) => write!(f, "struct {}", l.key),
        }
    }
}
