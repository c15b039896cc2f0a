//! The bytecode interpreter: an explicit frame stack (no Rust recursion), fuel, memory and output limits.

use super::arith::{binop, bit_not, canon, cmp, compare, convert, is_zero, negate};
use super::bytecode::{Code, HoleSite, HoleVarPlace, Instr};
pub use super::trap::Trap;
use super::types::{Ak, Sc};
use super::{Limits, Outcome, Undefined, UndefinedKind};

/// Object ids at or above this are heap (malloc) objects.
pub const HEAP_BIT: u32 = 1 << 31;
/// Padding bytes laid out before and after every object: accesses that stray into it
/// (up to [`Limits::bounds_slack`] bytes) read/write the padding instead of failing, as
/// small overruns hit neighbouring memory without crashing in gcc-built programs.
pub const PAD: u32 = 64;
/// Bytes charged per call frame on top of its registers and arrays.
const FRAME_COST: usize = 64;
/// Globals are charged against the memory budget by pages of this size, once written.
const PAGE: usize = 4096;
/// Bytes of bulk work one unit of fuel pays for: a step that zeroes, copies, scans or
/// formats more (a local array's initialisation, a frame's arrays, `memset`, `strlen`,
/// `printf` of a long string...) costs one more unit per this many bytes, so the fuel
/// bounds the time of any program, not only of its statements.
pub const BYTES_PER_STEP: usize = 64;

/// A memory object: a byte range of global/stack memory or of the heap.
#[derive(Clone, Copy, Debug)]
pub struct Obj {
    /// Start in its memory.
    pub base: u32,
    /// Length in bytes.
    pub len: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Frame {
    ret_pc: u32,
    bp: u32,
    ob: u32,
    mem_base: u32,
    /// The function running in this frame and its first object id (for naming what a
    /// read of uninitialised memory read).
    func: u32,
    own_ob: u32,
}

/// The state of one execution.
pub struct Vm<'a> {
    pub(crate) code: &'a Code,
    pub(crate) limits: &'a Limits,
    pub(crate) stack: Vec<u64>,
    slots: Vec<u64>,
    frames: Vec<Frame>,
    /// Global memory followed by stack frames.
    pub(crate) mem: Vec<u8>,
    /// Whether each byte of `mem` past the globals (stack frames) has been written:
    /// globals are always initialised (zero or their initialiser).
    frame_init: Vec<bool>,
    /// Bytes of `mem` that hold globals (the rest is stack frames).
    global_len: usize,
    /// One bit per [`PAGE`] of globals: written (charged) yet?
    written_pages: Vec<u64>,
    /// Bytes charged for written global pages.
    global_charge: usize,
    /// malloc'd memory (bump allocated).
    pub(crate) heap: Vec<u8>,
    pub(crate) objs: Vec<Obj>,
    pub(crate) heap_objs: Vec<Obj>,
    pub(crate) stdout: Vec<u8>,
    pub(crate) input: super::format::Input,
    fuel: u64,
    pub(crate) coverage: Option<Vec<bool>>,
    pub(crate) rand_state: u64,
    /// Where `strtok(NULL, ...)` goes on (0: no string yet).
    pub(crate) strtok_next: u64,
    slack: i64,
    last_ret: u64,
    hole_handler: Option<&'a mut dyn HoleHandler>,
    /// The first undefined behaviour of C the run went through: (pc, what).
    undefined: Option<(u32, UndefinedKind)>,
    /// The instruction of the builtin call running (for its undefined behaviour).
    call_pc: u32,
    /// Stop with [`Trap::Paused`] before the next input read?
    pause_before_input: bool,
    /// Where a paused run continues: (pc, bp, ob).
    resume_at: (u32, u32, u32),
}

/// A machine paused before its first input read. Until then a run does not depend on
/// its input, so every run of the same code under the same limits (fuel apart, as long
/// as it covers [`Snapshot::steps`]) passes through this state and can start here.
#[derive(Debug)]
pub struct Snapshot {
    resume_at: (u32, u32, u32),
    steps: u64,
    stack: Vec<u64>,
    slots: Vec<u64>,
    frames: Vec<Frame>,
    written_pages: Vec<u64>,
    global_charge: usize,
    /// The written global pages' bytes, in page order (the rest of the globals is zero).
    page_bytes: Vec<u8>,
    /// `mem` past the globals: stack frames.
    frame_mem: Vec<u8>,
    frame_init: Vec<bool>,
    heap: Vec<u8>,
    objs: Vec<Obj>,
    heap_objs: Vec<Obj>,
    stdout: Vec<u8>,
    coverage: Option<Vec<bool>>,
    rand_state: u64,
    strtok_next: u64,
    last_ret: u64,
    undefined: Option<(u32, UndefinedKind)>,
}

impl Snapshot {
    /// Steps the run had used when it paused.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Bytes the snapshot holds (about what restoring it copies).
    pub fn bytes(&self) -> usize {
        self.page_bytes.len()
            + self.frame_mem.len()
            + self.frame_init.len()
            + self.heap.len()
            + self.stdout.len()
    }
}

/// The host side of a repair hole ([`Instr::Hole`]): sees each value the hole's
/// expression takes and decides the value the program continues with.
pub trait HoleHandler {
    /// Called each time the hole's expression has been evaluated. `original` is its value
    /// and `vars` the values of `site.vars` (same order), as canonical registers of their
    /// kinds (integers sign- or zero-extended, floats as `f64` bits). Returns the value to
    /// continue with (canonical for `site.sc`) or a runtime error message.
    fn value(&mut self, site: &HoleSite, original: u64, vars: &[u64]) -> Result<u64, String>;
}

/// Splits a pointer into (object id, signed offset).
#[inline(always)]
pub fn split_ptr(p: u64) -> (u32, i32) {
    ((p >> 32) as u32, p as u32 as i32)
}

/// Makes a pointer from an object id and offset.
#[inline(always)]
pub fn make_ptr(obj: u32, off: i32) -> u64 {
    (u64::from(obj) << 32) | u64::from(off as u32)
}

/// Whether `-a` overflows in signed kind `k` (C leaves it undefined).
fn negation_overflows(k: Ak, a: u64) -> bool {
    match k {
        Ak::I32 => a as i32 == i32::MIN,
        Ak::I64 => a as i64 == i64::MIN,
        _ => false,
    }
}

/// Whether converting the floating value `f` to `to` is defined in C: always for a
/// floating or boolean target; for an integer target, when the value truncated toward
/// zero fits (so never for NaN or an infinity).
fn float_fits(to: Sc, f: f64) -> bool {
    let (min, max) = match to {
        Sc::I8 => (i8::MIN as f64, i8::MAX as f64),
        Sc::U8 => (0.0, u8::MAX as f64),
        Sc::I16 => (i16::MIN as f64, i16::MAX as f64),
        Sc::U16 => (0.0, u16::MAX as f64),
        Sc::I32 => (i32::MIN as f64, i32::MAX as f64),
        Sc::U32 => (0.0, u32::MAX as f64),
        // 2^63 and 2^64 are exact as f64; the largest values below them are not.
        Sc::I64 | Sc::Ptr => {
            return (-9223372036854775808.0..9223372036854775808.0).contains(&f.trunc())
        }
        Sc::U64 => return (0.0..18446744073709551616.0).contains(&f.trunc()),
        Sc::Bool | Sc::F32 | Sc::F64 => return true,
    };
    (min..=max).contains(&f.trunc())
}

impl<'a> Vm<'a> {
    /// A fresh machine with globals initialised; `Err` when the declared globals exceed
    /// `Limits::global_bytes` or their initialised data the memory budget.
    pub fn new(code: &'a Code, limits: &'a Limits, stdin: &[u8]) -> Result<Vm<'a>, Trap> {
        let gb = global_len_of(code);
        if gb > limits.global_bytes.max(limits.memory_bytes) || gb > u32::MAX as usize / 2 {
            return Err(Trap::Memory);
        }
        // Zeroed allocation: the host commits the pages only when they are written.
        let mem = vec![0u8; gb];
        let mut objs = Vec::with_capacity(code.global_objects.len() + 64);
        objs.push(Obj { base: 0, len: 0 });
        for &(base, len) in &code.global_objects {
            objs.push(Obj { base, len });
        }
        let mut vm = Vm {
            code,
            limits,
            stack: Vec::with_capacity(64),
            slots: Vec::with_capacity(256),
            frames: Vec::with_capacity(16),
            mem,
            frame_init: Vec::new(),
            global_len: gb,
            written_pages: vec![0; gb.div_ceil(PAGE).div_ceil(64)],
            global_charge: 0,
            heap: Vec::new(),
            objs,
            heap_objs: Vec::new(),
            stdout: Vec::new(),
            input: super::format::Input::new(stdin.to_vec()),
            fuel: limits.fuel,
            coverage: if limits.record_coverage {
                Some(vec![false; code.n_stmts as usize])
            } else {
                None
            },
            rand_state: 1,
            strtok_next: 0,
            slack: i64::from(limits.bounds_slack.min(PAD)),
            last_ret: 0,
            hole_handler: None,
            undefined: None,
            call_pc: 0,
            pause_before_input: false,
            resume_at: (0, 0, 0),
        };
        for &(off, d) in &code.global_init {
            if let Some(bytes) = code.data.get(d as usize) {
                let off = off as usize;
                vm.mark_written(off, bytes.len())?;
                if let Some(dst) = vm.mem.get_mut(off..off + bytes.len()) {
                    dst.copy_from_slice(bytes);
                }
            }
        }
        Ok(vm)
    }

    /// A machine in the state of `snap`, to run `stdin` under `limits` (the limits of the
    /// paused run but for fuel, which must be at least `snap.steps()`; with less the run
    /// would have timed out before the pause, so the caller must start from scratch).
    pub fn from_snapshot(
        code: &'a Code,
        limits: &'a Limits,
        stdin: &[u8],
        snap: &Snapshot,
    ) -> Vm<'a> {
        let global_len = global_len_of(code);
        let mut mem = vec![0u8; global_len];
        let mut bytes = snap.page_bytes.chunks(PAGE);
        for page in written(&snap.written_pages) {
            let start = page * PAGE;
            let end = (start + PAGE).min(global_len);
            if let (Some(dst), Some(src)) = (mem.get_mut(start..end), bytes.next()) {
                dst.copy_from_slice(&src[..end - start]);
            }
        }
        mem.extend_from_slice(&snap.frame_mem);
        Vm {
            code,
            limits,
            stack: snap.stack.clone(),
            slots: snap.slots.clone(),
            frames: snap.frames.clone(),
            mem,
            frame_init: snap.frame_init.clone(),
            global_len,
            written_pages: snap.written_pages.clone(),
            global_charge: snap.global_charge,
            heap: snap.heap.clone(),
            objs: snap.objs.clone(),
            heap_objs: snap.heap_objs.clone(),
            stdout: snap.stdout.clone(),
            input: super::format::Input::new(stdin.to_vec()),
            fuel: limits.fuel.saturating_sub(snap.steps),
            coverage: snap.coverage.clone(),
            rand_state: snap.rand_state,
            strtok_next: snap.strtok_next,
            slack: i64::from(limits.bounds_slack.min(PAD)),
            last_ret: snap.last_ret,
            hole_handler: None,
            undefined: snap.undefined,
            call_pc: 0,
            pause_before_input: false,
            resume_at: snap.resume_at,
        }
    }

    /// The state of a run that stopped with [`Trap::Paused`].
    pub fn snapshot(&self) -> Snapshot {
        let mut page_bytes = Vec::new();
        for page in written(&self.written_pages) {
            let start = page * PAGE;
            let end = (start + PAGE).min(self.global_len);
            page_bytes.extend_from_slice(&self.mem[start..end]);
            page_bytes.resize(page_bytes.len() + PAGE - (end - start), 0);
        }
        Snapshot {
            resume_at: self.resume_at,
            steps: self.steps(),
            stack: self.stack.clone(),
            slots: self.slots.clone(),
            frames: self.frames.clone(),
            written_pages: self.written_pages.clone(),
            global_charge: self.global_charge,
            page_bytes,
            frame_mem: self.mem[self.global_len..].to_vec(),
            frame_init: self.frame_init.clone(),
            heap: self.heap.clone(),
            objs: self.objs.clone(),
            heap_objs: self.heap_objs.clone(),
            stdout: self.stdout.clone(),
            coverage: self.coverage.clone(),
            rand_state: self.rand_state,
            strtok_next: self.strtok_next,
            last_ret: self.last_ret,
            undefined: self.undefined,
        }
    }

    /// Whether the run stops with [`Trap::Paused`] before its next input read (scanf,
    /// getchar, gets, ...), for a [`Vm::snapshot`].
    pub fn pause_before_input(&mut self, on: bool) {
        self.pause_before_input = on;
    }

    /// Continues a paused run (or one made by [`Vm::from_snapshot`]) to its end.
    pub fn resume(&mut self) -> Result<u64, (Trap, u32)> {
        let (pc, bp, ob) = self.resume_at;
        let r = self.exec(pc, bp, ob);
        self.note_stop(r)
    }

    /// Notes a stop on undefined behaviour ([`Trap::Uninitialised`]) as the run's
    /// undefined behaviour: it replaces one noted before, as it is what ended the run.
    fn note_stop(&mut self, r: Result<u64, (Trap, u32)>) -> Result<u64, (Trap, u32)> {
        if let Err((Trap::Uninitialised(_), pc)) = &r {
            self.undefined = Some((*pc, UndefinedKind::UninitialisedRead));
        }
        r
    }

    /// Routes every [`Instr::Hole`] of this run through `handler`.
    pub fn set_hole_handler(&mut self, handler: &'a mut dyn HoleHandler) {
        self.hole_handler = Some(handler);
    }

    /// The values of a hole site's variables in the current frame.
    fn hole_vars(&self, site: &HoleSite, ob: u32, bp: u32) -> Vec<u64> {
        site.vars
            .iter()
            .map(|v| match v.place {
                HoleVarPlace::Slot(s) => self.slots.get((bp + s) as usize).copied().unwrap_or(0),
                HoleVarPlace::Local(n) => self.load(make_ptr(ob + n, 0), v.sc).unwrap_or(0),
                HoleVarPlace::Global(off) => self.load_at(false, off as usize, v.sc).unwrap_or(0),
            })
            .collect()
    }

    /// Steps used so far.
    pub fn steps(&self) -> u64 {
        self.limits.fuel - self.fuel
    }

    /// Bytes in use, as charged against the memory budget.
    pub fn mem_used(&self) -> usize {
        self.global_charge
            + (self.mem.len() - self.global_len)
            + self.heap.len()
            + self.slots.len() * 8
            + self.frames.len() * FRAME_COST
    }

    /// Charges the global pages that `len` bytes at `start` of `mem` touch, if they are
    /// globals not written before; `Err` when that exceeds the memory budget.
    #[inline(always)]
    fn mark_written(&mut self, start: usize, len: usize) -> Result<(), Trap> {
        if start >= self.global_len {
            return Ok(());
        }
        let first = start / PAGE;
        let last = (start + len.max(1) - 1).min(self.global_len - 1) / PAGE;
        if first == last && self.written_pages[first / 64] & (1 << (first % 64)) != 0 {
            return Ok(());
        }
        self.charge_pages(first, last)
    }

    /// Charges pages `first..=last` that are not charged yet.
    #[cold]
    fn charge_pages(&mut self, first: usize, last: usize) -> Result<(), Trap> {
        for page in first..=last {
            let (word, bit) = (page / 64, 1u64 << (page % 64));
            if self.written_pages[word] & bit == 0 {
                self.written_pages[word] |= bit;
                self.global_charge += PAGE;
            }
        }
        if self.mem_used() > self.limits.memory_bytes {
            return Err(Trap::Memory);
        }
        Ok(())
    }

    /// Resolves `size` bytes at pointer `p` to (heap?, start).
    #[inline(always)]
    pub fn resolve(&self, p: u64, size: u32) -> Result<(bool, usize), Trap> {
        let (id, off) = split_ptr(p);
        let heap = id >= HEAP_BIT;
        let obj = if heap {
            self.heap_objs.get((id - HEAP_BIT) as usize)
        } else {
            self.objs.get(id as usize)
        };
        let Some(obj) = obj else {
            return Err(Trap::Error("invalid pointer dereference".into()));
        };
        if id == 0 {
            return Err(Trap::Error("null pointer dereference".into()));
        }
        if i64::from(off) < -self.slack
            || i64::from(off) + i64::from(size) > i64::from(obj.len) + self.slack
        {
            let n = i64::from(off).div_euclid(i64::from(size.max(1)));
            let m = obj.len / size.max(1);
            return Err(Trap::Error(format!(
                "index {n} out of bounds for array of {m}"
            )));
        }
        Ok((heap, (i64::from(obj.base) + i64::from(off)) as usize))
    }

    /// The bytes of `size` at `p`.
    pub fn bytes(&self, p: u64, size: u32) -> Result<&[u8], Trap> {
        let (heap, start) = self.resolve(p, size)?;
        let m = if heap { &self.heap } else { &self.mem };
        m.get(start..start + size as usize)
            .ok_or_else(|| Trap::Error("invalid memory access".into()))
    }

    /// The mutable bytes of `size` at `p`.
    pub fn bytes_mut(&mut self, p: u64, size: u32) -> Result<&mut [u8], Trap> {
        let (heap, start) = self.resolve(p, size)?;
        self.mark_init(heap, start, size as usize)?;
        let m = if heap { &mut self.heap } else { &mut self.mem };
        m.get_mut(start..start + size as usize)
            .ok_or_else(|| Trap::Error("invalid memory access".into()))
    }

    /// Bytes from `p` to the end of its object (for string functions).
    pub fn rest(&self, p: u64) -> Result<&[u8], Trap> {
        let (id, off) = split_ptr(p);
        let heap = id >= HEAP_BIT;
        let obj = if heap {
            self.heap_objs.get((id - HEAP_BIT) as usize)
        } else {
            self.objs.get(id as usize)
        };
        let obj = match obj {
            Some(o) if id != 0 => *o,
            _ => return Err(Trap::Error("null pointer dereference".into())),
        };
        let end = i64::from(obj.len) + self.slack;
        if i64::from(off) < -self.slack || i64::from(off) > end {
            return Err(Trap::Error(format!(
                "index {off} out of bounds for array of {}",
                obj.len
            )));
        }
        let m = if heap { &self.heap } else { &self.mem };
        let start = (i64::from(obj.base) + i64::from(off)) as usize;
        m.get(start..(i64::from(obj.base) + end) as usize)
            .ok_or_else(|| Trap::Error("invalid memory access".into()))
    }

    /// The NUL-terminated string at `p` (without the NUL).
    pub fn cstr(&self, p: u64) -> Result<&[u8], Trap> {
        let r = self.rest(p)?;
        match r.iter().position(|&c| c == 0) {
            Some(n) => Ok(&r[..n]),
            None => Err(Trap::Error(format!(
                "index {} out of bounds for array of {} (unterminated string)",
                r.len(),
                r.len()
            ))),
        }
    }

    /// Loads a scalar; a read of a frame's bytes not written yet (of a local scalar
    /// whose address is never taken, [`super::bytecode::Func::uninitialised`]) is
    /// [`Trap::Uninitialised`].
    #[inline(always)]
    pub fn load(&self, p: u64, sc: Sc) -> Result<u64, Trap> {
        let (heap, start) = self.resolve(p, sc.size())?;
        if !heap && start >= self.global_len {
            let n = sc.size() as usize;
            let at = start - self.global_len;
            if self
                .frame_init
                .get(at..at + n)
                .is_some_and(|b| b.iter().any(|&w| !w))
            {
                return Err(self.uninitialised_memory(p));
            }
        }
        self.load_at(heap, start, sc)
    }

    /// Marks `len` bytes at `start` (of the heap or of `mem`) written: a global page is
    /// charged the first time (`Err` past the memory budget), a frame's bytes become
    /// initialised.
    #[inline(always)]
    fn mark_init(&mut self, heap: bool, start: usize, len: usize) -> Result<(), Trap> {
        if heap {
            // The heap's bytes are all initialised (see `malloc`).
        } else if start >= self.global_len {
            let at = start - self.global_len;
            if let Some(b) = self.frame_init.get_mut(at..at + len) {
                b.fill(true);
            }
        } else {
            self.mark_written(start, len)?;
        }
        Ok(())
    }

    /// Copies `n` bytes from `src` to `dst` with what is initialised of them (a structure
    /// assignment, `memcpy`): copying uninitialised bytes is no read of them.
    pub(crate) fn copy_bytes(&mut self, dst: u64, src: u64, n: u32) -> Result<(), Trap> {
        let (src_heap, start) = self.resolve(src, n)?;
        let len = n as usize;
        let init: Option<Vec<bool>> = if src_heap {
            None
        } else if start >= self.global_len {
            let at = start - self.global_len;
            self.frame_init.get(at..at + len).map(<[bool]>::to_vec)
        } else {
            None
        };
        let tmp = self.bytes(src, n)?.to_vec();
        self.bytes_mut(dst, n)?.copy_from_slice(&tmp);
        if let Some(init) = init {
            let (heap, start) = self.resolve(dst, n)?;
            let shadow = if heap {
                None
            } else if start >= self.global_len {
                let at = start - self.global_len;
                self.frame_init.get_mut(at..at + len)
            } else {
                None
            };
            if let Some(s) = shadow {
                s.copy_from_slice(&init);
            }
        }
        Ok(())
    }

    /// Grows the stack frames' memory by `n` zero bytes, initialised: only an object's
    /// own bytes start uninitialised ([`Vm::uninitialise`]), the padding around it reads as
    /// zeros, as small overruns did before uninitialised reads were tracked.
    pub(crate) fn grow_frames(&mut self, n: usize) {
        self.mem.resize(self.mem.len() + n, 0);
        self.frame_init
            .resize(self.mem.len() - self.global_len, true);
    }

    /// Marks `len` bytes of frame memory at `start` (an offset in `mem`) uninitialised.
    pub(crate) fn uninitialise(&mut self, start: usize, len: usize) {
        let at = start.saturating_sub(self.global_len);
        if let Some(b) = self.frame_init.get_mut(at..at + len) {
            b.fill(false);
        }
    }

    /// The trap for a read of uninitialised memory at pointer `p`, naming the variable.
    #[cold]
    fn uninitialised_memory(&self, p: u64) -> Trap {
        let (id, _) = split_ptr(p);
        let name = self
            .frames
            .iter()
            .rev()
            .find(|fr| fr.own_ob <= id)
            .and_then(|fr| {
                let func = self.code.funcs.get(fr.func as usize)?;
                func.object_names.get((id - fr.own_ob) as usize)
            })
            .filter(|n| !n.is_empty());
        match name {
            Some(n) => Trap::Uninitialised(format!("variable `{n}`")),
            None => Trap::Uninitialised("memory".into()),
        }
    }

    /// Register `s` of the frame at `bp` (0 outside the registers). A register never
    /// holds an uninitialised variable: `compile` keeps one that may be read before it is
    /// assigned in memory ([`super::definite`]).
    #[inline(always)]
    fn slot(&self, bp: u32, s: u32) -> u64 {
        self.slots.get((bp + s) as usize).copied().unwrap_or(0)
    }

    /// Writes register `s` of the frame at `bp`.
    #[inline(always)]
    fn write_slot(&mut self, bp: u32, s: u32, v: u64) {
        if let Some(x) = self.slots.get_mut((bp + s) as usize) {
            *x = v;
        }
    }

    /// Loads a scalar at a resolved address.
    #[inline(always)]
    fn load_at(&self, heap: bool, start: usize, sc: Sc) -> Result<u64, Trap> {
        let m = if heap { &self.heap } else { &self.mem };
        let Some(b) = m.get(start..start + sc.size() as usize) else {
            return Err(Trap::Error("invalid memory access".into()));
        };
        Ok(match sc {
            Sc::Bool | Sc::U8 => u64::from(b[0]),
            Sc::I8 => b[0] as i8 as i64 as u64,
            Sc::I16 => i16::from_le_bytes([b[0], b[1]]) as i64 as u64,
            Sc::U16 => u64::from(u16::from_le_bytes([b[0], b[1]])),
            Sc::I32 => i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as i64 as u64,
            Sc::U32 => u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            Sc::F32 => (f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64).to_bits(),
            Sc::I64 | Sc::U64 | Sc::F64 | Sc::Ptr => {
                u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
            }
        })
    }

    /// Stores a (canonical) scalar.
    #[inline(always)]
    pub fn store(&mut self, p: u64, sc: Sc, v: u64) -> Result<(), Trap> {
        let (heap, start) = self.resolve(p, sc.size())?;
        self.store_at(heap, start, sc, v)
    }

    /// Stores a scalar at a resolved address.
    #[inline(always)]
    fn store_at(&mut self, heap: bool, start: usize, sc: Sc, v: u64) -> Result<(), Trap> {
        self.mark_init(heap, start, sc.size() as usize)?;
        let m = if heap { &mut self.heap } else { &mut self.mem };
        let Some(b) = m.get_mut(start..start + sc.size() as usize) else {
            return Err(Trap::Error("invalid memory access".into()));
        };
        match sc {
            Sc::Bool | Sc::U8 | Sc::I8 => b[0] = v as u8,
            Sc::I16 | Sc::U16 => b.copy_from_slice(&(v as u16).to_le_bytes()),
            Sc::I32 | Sc::U32 => b.copy_from_slice(&(v as u32).to_le_bytes()),
            Sc::F32 => b.copy_from_slice(&(f64::from_bits(v) as f32).to_le_bytes()),
            Sc::I64 | Sc::U64 | Sc::F64 | Sc::Ptr => b.copy_from_slice(&v.to_le_bytes()),
        }
        Ok(())
    }

    /// Charges the fuel for `bytes` of bulk work (one unit per [`BYTES_PER_STEP`]
    /// bytes, rounded down, so small work is free); `Timeout`, with no fuel left, when
    /// it does not cover them.
    #[inline]
    pub(crate) fn charge(&mut self, bytes: usize) -> Result<(), Trap> {
        let n = (bytes / BYTES_PER_STEP) as u64;
        if n > self.fuel {
            self.fuel = 0;
            return Err(Trap::Timeout);
        }
        self.fuel -= n;
        Ok(())
    }

    /// Allocates a heap object of `n` bytes (zeroed: C leaves `malloc`'s bytes
    /// unspecified, not undefined, and a gcc-built process's fresh memory is zeros);
    /// returns its pointer.
    pub fn malloc(&mut self, n: u64) -> Result<u64, Trap> {
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        if n > self.limits.memory_bytes.saturating_sub(self.mem_used()) || n > u32::MAX as usize / 2
        {
            return Err(Trap::Memory);
        }
        self.charge(n)?;
        let base = self.heap.len() + PAD as usize;
        self.heap.resize(base + n + PAD as usize, 0);
        let id = self.heap_objs.len() as u32 + HEAP_BIT;
        self.heap_objs.push(Obj {
            base: base as u32,
            len: n as u32,
        });
        Ok(make_ptr(id, 0))
    }

    /// Appends to stdout within the output budget.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), Trap> {
        if self.stdout.len() + bytes.len() > self.limits.output_bytes {
            let room = self.limits.output_bytes.saturating_sub(self.stdout.len());
            self.stdout
                .extend_from_slice(&bytes[..room.min(bytes.len())]);
            return Err(Trap::Output);
        }
        self.stdout.extend_from_slice(bytes);
        Ok(())
    }

    #[inline(always)]
    fn pop(&mut self) -> u64 {
        self.stack.pop().unwrap_or(0)
    }

    /// Pops `n` values (in push order).
    pub fn pop_n(&mut self, n: usize) -> Vec<u64> {
        let at = self.stack.len().saturating_sub(n);
        self.stack.split_off(at)
    }

    fn enter(&mut self, f: u32, ret_pc: u32, bp: u32, ob: u32) -> Result<(u32, u32, u32), Trap> {
        let code = self.code;
        let Some(func) = code.funcs.get(f as usize) else {
            return Err(Trap::Error("call of an undefined function".into()));
        };
        if self.frames.len() as u64 >= u64::from(self.limits.call_depth) {
            return Err(Trap::CallDepth);
        }
        let need = func.n_slots as usize * 8 + func.frame_bytes as usize + FRAME_COST;
        if self.mem_used() + need > self.limits.memory_bytes {
            return Err(Trap::Memory);
        }
        // The objects' own bytes: the padding the bounds checks put around each is the
        // interpreter's, not the program's (one `int` whose address is taken costs
        // nothing more, as in a gcc-built program).
        self.charge(func.object_bytes as usize)?;
        let new_bp = self.slots.len();
        self.slots.resize(new_bp + func.n_slots as usize, 0);
        let np = func.n_params as usize;
        let at = self.stack.len().saturating_sub(np);
        for (i, v) in self.stack.drain(at..).enumerate() {
            if let Some(s) = self.slots.get_mut(new_bp + i) {
                *s = v;
            }
        }
        let mem_base = self.mem.len();
        let new_ob = self.objs.len();
        if func.frame_bytes > 0 {
            self.grow_frames(func.frame_bytes as usize);
            for &n in &func.uninitialised {
                if let Some(&(off, len)) = func.objects.get(n as usize) {
                    self.uninitialise(mem_base + off as usize, len as usize);
                }
            }
            for &(off, len) in &func.objects {
                self.objs.push(Obj {
                    base: (mem_base as u32).wrapping_add(off),
                    len,
                });
            }
        }
        self.frames.push(Frame {
            ret_pc,
            bp,
            ob,
            mem_base: mem_base as u32,
            func: f,
            own_ob: new_ob as u32,
        });
        Ok((func.entry, new_bp as u32, new_ob as u32))
    }

    /// Calls function `f` with `args` (already converted) and runs to completion.
    /// Returns the function's return value (main's return becomes `Trap::Exit`).
    pub fn run_function(&mut self, f: u32, args: &[u64]) -> Result<u64, (Trap, u32)> {
        self.stack.extend_from_slice(args);
        let (pc, bp, ob) = self.enter(f, u32::MAX, 0, 0).map_err(|t| (t, 0))?;
        let r = self.exec(pc, bp, ob);
        self.note_stop(r)
    }

    /// Records the first undefined behaviour (at the instruction `pc`, whose machine
    /// result is `v`) and returns the result to use: `v`, or 0 under
    /// [`Limits::undefined_as_zero`].
    #[cold]
    fn undefined_result(&mut self, pc: u32, what: UndefinedKind, v: u64) -> u64 {
        self.undefined.get_or_insert((pc, what));
        if self.limits.undefined_as_zero {
            0
        } else {
            v
        }
    }

    /// [`Vm::undefined_result`] inside the builtin call running (e.g. `scanf` storing a
    /// number its destination cannot hold).
    pub(crate) fn undefined_result_in_call(&mut self, what: UndefinedKind, v: u64) -> u64 {
        self.undefined_result(self.call_pc, what, v)
    }

    /// Whether the code a call returns to at `ret_pc` throws the returned value away
    /// (`f();`, `(void) f();`, the left side of a comma, possibly after the jumps out of a
    /// `?:`); the value of a call the machine itself made ([`Vm::run_function`]) is
    /// always used.
    fn caller_discards(&self, ret_pc: u32) -> bool {
        let mut pc = ret_pc;
        // A jump chain is short (the ends of nested `?:`); the bound only guards a loop.
        for _ in 0..8 {
            match self.code.instrs.get(pc as usize) {
                Some(Instr::Pop) => return true,
                Some(&Instr::Jmp(t)) => pc = t,
                _ => return false,
            }
        }
        false
    }

    /// The first undefined behaviour of C the run went through, with its source line.
    pub fn undefined(&self) -> Option<Undefined> {
        self.undefined.map(|(pc, what)| Undefined {
            line: self.code.line_at(pc),
            what,
        })
    }

    /// One step of statement `n`: costs a unit of fuel (`Timeout` when none is left) and
    /// marks the statement covered.
    #[inline(always)]
    fn step(&mut self, n: u32) -> Result<(), Trap> {
        if self.fuel == 0 {
            return Err(Trap::Timeout);
        }
        self.fuel -= 1;
        if let Some(c) = &mut self.coverage {
            if let Some(x) = c.get_mut(n as usize) {
                *x = true;
            }
        }
        Ok(())
    }

    fn exec(&mut self, mut pc: u32, mut bp: u32, mut ob: u32) -> Result<u64, (Trap, u32)> {
        let code = self.code;
        let instrs = &code.instrs[..];
        loop {
            // By reference, not a copy: each arm loads only its own operands, and LLVM
            // copies the short dispatch into several arms. With a copy, every instruction
            // went through one block that loaded all 16 bytes before the jump, and the
            // same machine code ran 17 % slower or faster by where the linker placed it
            // (which unrelated code changes moved).
            let Some(ins) = instrs.get(pc as usize) else {
                return Err((Trap::Error("fell off the end of the code".into()), pc));
            };
            let here = pc;
            pc += 1;
            macro_rules! tr {
                ($e:expr) => {
                    match $e {
                        Ok(v) => v,
                        Err(t) => return Err((t, here)),
                    }
                };
            }
            // An arithmetic result: an undefined one is noted and the run goes on.
            macro_rules! arith {
                ($e:expr) => {
                    match $e {
                        Ok(v) => v,
                        Err(Trap::Undefined(what, v)) => self.undefined_result(here, what, v),
                        Err(t) => return Err((t, here)),
                    }
                };
            }
            match *ins {
                Instr::Nop => {}
                Instr::Stmt(n) => tr!(self.step(n)),
                Instr::Const(c) => self.stack.push(c),
                Instr::Pop => {
                    self.stack.pop();
                }
                Instr::Dup => {
                    let v = self.stack.last().copied().unwrap_or(0);
                    self.stack.push(v);
                }
                Instr::Swap => {
                    let n = self.stack.len();
                    if n >= 2 {
                        self.stack.swap(n - 1, n - 2);
                    }
                }
                Instr::Slot(s) => {
                    let v = self.slot(bp, s);
                    self.stack.push(v);
                }
                Instr::SetSlot(s) => {
                    let v = self.pop();
                    self.write_slot(bp, s, v);
                }
                Instr::AddrLocal(n) => self.stack.push(make_ptr(ob + n, 0)),
                Instr::LoadG(sc, off) => {
                    let v = tr!(self.load_at(false, off as usize, sc));
                    self.stack.push(v);
                }
                Instr::StoreG(sc, off) => {
                    let v = self.pop();
                    tr!(self.store_at(false, off as usize, sc, v));
                }
                Instr::Load(sc) => {
                    let p = self.pop();
                    let v = tr!(self.load(p, sc));
                    self.stack.push(v);
                }
                Instr::Store(sc) => {
                    let v = self.pop();
                    let p = self.pop();
                    tr!(self.store(p, sc, v));
                }
                Instr::StoreKeep(sc) => {
                    let v = self.pop();
                    let p = self.pop();
                    tr!(self.store(p, sc, v));
                    self.stack.push(v);
                }
                Instr::IncSlot {
                    slot,
                    sc,
                    delta,
                    post,
                } => {
                    let old = self.slot(bp, slot);
                    let new = arith!(inc(sc, old, delta));
                    self.write_slot(bp, slot, new);
                    self.stack.push(if post { old } else { new });
                }
                Instr::IncMem { sc, delta, post } => {
                    let p = self.pop();
                    let old = tr!(self.load(p, sc));
                    let new = arith!(inc(sc, old, delta));
                    tr!(self.store(p, sc, new));
                    self.stack.push(if post { old } else { new });
                }
                Instr::Bin(op, k) => {
                    let b = self.pop();
                    let a = self.pop();
                    let r = arith!(binop(op, k, a, b));
                    self.stack.push(r);
                }
                Instr::BinC(op, k, c) => {
                    let a = self.pop();
                    let r = arith!(binop(op, k, a, c));
                    self.stack.push(r);
                }
                Instr::CmpC(op, k, c) => {
                    let a = self.pop();
                    self.stack.push(compare(op, k, a, c));
                }
                Instr::CmpJz(op, k, t) => {
                    let b = self.pop();
                    let a = self.pop();
                    if compare(op, k, a, b) == 0 {
                        pc = t;
                    }
                }
                Instr::CmpCJz(op, k, t, c) => {
                    let a = self.pop();
                    if compare(op, k, a, c) == 0 {
                        pc = t;
                    }
                }
                Instr::IncSlotDrop { slot, sc, delta } => {
                    let old = self.slot(bp, slot);
                    let new = arith!(inc(sc, old, delta));
                    self.write_slot(bp, slot, new);
                }
                Instr::LoadLocal(sc, n) => {
                    let v = tr!(self.load(make_ptr(ob + n, 0), sc));
                    self.stack.push(v);
                }
                Instr::BinS(op, k, s) => {
                    let b = self.slot(bp, s);
                    let a = self.pop();
                    let r = arith!(binop(op, k, a, b));
                    self.stack.push(r);
                }
                Instr::BinSC(op, k, s, c) => {
                    let a = self.slot(bp, s);
                    let r = arith!(binop(op, k, a, c));
                    self.stack.push(r);
                }
                Instr::BinSet(op, k, s) => {
                    let b = self.pop();
                    let a = self.pop();
                    let r = arith!(binop(op, k, a, b));
                    self.write_slot(bp, s, r);
                }
                Instr::CmpSSJz(op, k, sa, sb, t) => {
                    let a = self.slot(bp, sa);
                    let b = self.slot(bp, sb);
                    if compare(op, k, a, b) == 0 {
                        pc = t;
                    }
                }
                Instr::CmpSCJz(op, k, s, t, c) => {
                    let a = self.slot(bp, s);
                    if compare(op, k, a, c as i64 as u64) == 0 {
                        pc = t;
                    }
                }
                Instr::PtrAddS(size, s) => {
                    let i = self.slot(bp, s);
                    let p = self.pop();
                    self.stack.push(ptr_add(p, i, size));
                }
                Instr::LoadIdx(sc, size, s) => {
                    let i = self.slot(bp, s);
                    let p = self.pop();
                    let v = tr!(self.load(ptr_add(p, i, size), sc));
                    self.stack.push(v);
                }
                Instr::CmpS(op, k, s) => {
                    let b = self.slot(bp, s);
                    let a = self.pop();
                    self.stack.push(compare(op, k, a, b));
                }
                Instr::IncSlotJmp {
                    slot,
                    sc,
                    delta,
                    target,
                } => {
                    let old = self.slot(bp, slot);
                    let new = arith!(inc(sc, old, delta));
                    self.write_slot(bp, slot, new);
                    pc = target;
                }
                Instr::BinSSet(op, k, src, dst) => {
                    let b = self.slot(bp, src);
                    let a = self.pop();
                    let r = arith!(binop(op, k, a, b));
                    self.write_slot(bp, dst, r);
                }
                Instr::StmtSlot(n, s) => {
                    tr!(self.step(n));
                    let v = self.slot(bp, s);
                    self.stack.push(v);
                }
                Instr::JzOrPop(t) => {
                    let c = self.pop();
                    if c == 0 {
                        self.stack.push(c);
                        pc = t;
                    }
                }
                Instr::JnzOrPop(t) => {
                    let c = self.pop();
                    if c != 0 {
                        self.stack.push(c);
                        pc = t;
                    }
                }
                Instr::AddrIdx(n, size, s) => {
                    let i = self.slot(bp, s);
                    self.stack.push(ptr_add(make_ptr(ob + n, 0), i, size));
                }
                Instr::LocalIdx(sc, n, size, s) => {
                    let i = self.slot(bp, s);
                    let v = tr!(self.load(ptr_add(make_ptr(ob + n, 0), i, size), sc));
                    self.stack.push(v);
                }
                Instr::GlobalIdx(sc, n, size, s) => {
                    let i = self.slot(bp, s);
                    let v = tr!(self.load(ptr_add(make_ptr(n, 0), i, size), sc));
                    self.stack.push(v);
                }
                Instr::CmpLJz(op, k, sc, n, t) => {
                    let b = tr!(self.load(make_ptr(ob + n, 0), sc));
                    let a = self.pop();
                    if compare(op, k, a, b) == 0 {
                        pc = t;
                    }
                }
                Instr::LoadAt(sc, size) => {
                    let i = self.pop();
                    let p = self.pop();
                    let v = tr!(self.load(ptr_add(p, i, size), sc));
                    self.stack.push(v);
                }
                Instr::BinCStore(op, k, sc, c) => {
                    let a = self.pop();
                    let v = arith!(binop(op, k, a, c));
                    let p = self.pop();
                    tr!(self.store(p, sc, v));
                }
                Instr::StmtLocal(n, sc, m) => {
                    tr!(self.step(n));
                    let v = tr!(self.load(make_ptr(ob + m, 0), sc));
                    self.stack.push(v);
                }
                Instr::StmtCmpSCJz(op, k, s, n, t, c) => {
                    tr!(self.step(n));
                    let a = self.slot(bp, u32::from(s));
                    if compare(op, k, a, c as i64 as u64) == 0 {
                        pc = t;
                    }
                }
                Instr::CmpSS(op, k, sa, sb) => {
                    let a = self.slot(bp, sa);
                    let b = self.slot(bp, sb);
                    self.stack.push(compare(op, k, a, b));
                }
                Instr::BinG(op, k, sc, off) => {
                    let b = tr!(self.load_at(false, off as usize, sc));
                    let a = self.pop();
                    let r = arith!(binop(op, k, a, b));
                    self.stack.push(r);
                }
                Instr::CmpSJz(op, k, s, t) => {
                    let b = self.slot(bp, s);
                    let a = self.pop();
                    if compare(op, k, a, b) == 0 {
                        pc = t;
                    }
                }
                Instr::CmpGJz(op, k, sc, off, t) => {
                    let b = tr!(self.load_at(false, off as usize, sc));
                    let a = self.pop();
                    if compare(op, k, a, b) == 0 {
                        pc = t;
                    }
                }
                Instr::CmpSLJz(op, k, sc, s, n, t) => {
                    let a = self.slot(bp, s);
                    let b = tr!(self.load(make_ptr(ob + n, 0), sc));
                    if compare(op, k, a, b) == 0 {
                        pc = t;
                    }
                }
                Instr::StmtCmpSLJz(op, k, sc, s, n, m, t) => {
                    tr!(self.step(m));
                    let a = self.slot(bp, u32::from(s));
                    let b = tr!(self.load(make_ptr(ob + u32::from(n), 0), sc));
                    if compare(op, k, a, b) == 0 {
                        pc = t;
                    }
                }
                Instr::StmtBinSS(op, k, n, sa, sb) => {
                    tr!(self.step(n));
                    let a = self.slot(bp, sa);
                    let b = self.slot(bp, sb);
                    let r = arith!(binop(op, k, a, b));
                    self.stack.push(r);
                }
                Instr::StmtCmpSSJz(op, k, sa, sb, n, t) => {
                    tr!(self.step(n));
                    let a = self.slot(bp, u32::from(sa));
                    let b = self.slot(bp, u32::from(sb));
                    if compare(op, k, a, b) == 0 {
                        pc = t;
                    }
                }
                Instr::StmtBinSSSet(op, k, sa, sb, sd, n) => {
                    tr!(self.step(n));
                    let a = self.slot(bp, u32::from(sa));
                    let b = self.slot(bp, u32::from(sb));
                    let r = arith!(binop(op, k, a, b));
                    self.write_slot(bp, u32::from(sd), r);
                }
                Instr::StmtLoadG(sc, off, n) => {
                    tr!(self.step(n));
                    let v = tr!(self.load_at(false, off as usize, sc));
                    self.stack.push(v);
                }
                Instr::BinGlobalIdx(op, k, sc, n, size, s) => {
                    let i = self.slot(bp, s);
                    let b = tr!(self.load(ptr_add(make_ptr(n, 0), i, size), sc));
                    let a = self.pop();
                    let r = arith!(binop(op, k, a, b));
                    self.stack.push(r);
                }
                Instr::Cmp(op, k) => {
                    let b = self.pop();
                    let a = self.pop();
                    self.stack.push(compare(op, k, a, b));
                }
                Instr::Neg(k) => {
                    let a = self.pop();
                    let mut v = negate(k, a);
                    if negation_overflows(k, a) {
                        v = self.undefined_result(here, UndefinedKind::SignedOverflow, v);
                    }
                    self.stack.push(v);
                }
                Instr::BitNot(k) => {
                    let a = self.pop();
                    self.stack.push(bit_not(k, a));
                }
                Instr::Hole(n) => {
                    let original = self.pop();
                    let mut value = original;
                    if let Some(site) = code.holes.get(n as usize) {
                        if self.hole_handler.is_some() {
                            let vars = self.hole_vars(site, ob, bp);
                            if let Some(h) = self.hole_handler.as_mut() {
                                value = tr!(h.value(site, original, &vars).map_err(Trap::Error));
                            }
                        }
                    }
                    self.stack.push(value);
                }
                Instr::Not(k) => {
                    let a = self.pop();
                    self.stack.push(is_zero(k, a) as u64);
                }
                Instr::ToBool(k) => {
                    let a = self.pop();
                    self.stack.push(!is_zero(k, a) as u64);
                }
                Instr::Conv(from, to) => {
                    let a = self.pop();
                    let mut v = convert(from, to, a);
                    if from.is_float() && !float_fits(to, f64::from_bits(a)) {
                        v = self.undefined_result(here, UndefinedKind::FloatToInteger, v);
                    }
                    self.stack.push(v);
                }
                Instr::PtrAdd(size) => {
                    let i = self.pop();
                    let p = self.pop();
                    self.stack.push(ptr_add(p, i, size));
                }
                Instr::PtrDiff(size) => {
                    let q = self.pop();
                    let p = self.pop();
                    let d = i64::from(split_ptr(p).1) - i64::from(split_ptr(q).1);
                    self.stack.push((d / i64::from(size.max(1))) as u64);
                }
                Instr::PtrCmp(op) => {
                    let b = self.pop();
                    let a = self.pop();
                    let key = |p: u64| (split_ptr(p).0, split_ptr(p).1);
                    self.stack.push(cmp(op, key(a), key(b)));
                }
                Instr::Jmp(t) => pc = t,
                Instr::Jz(t) => {
                    if self.pop() == 0 {
                        pc = t;
                    }
                }
                Instr::Jnz(t) => {
                    if self.pop() != 0 {
                        pc = t;
                    }
                }
                Instr::Call(f) => {
                    if self.fuel == 0 {
                        return Err((Trap::Timeout, here));
                    }
                    self.fuel -= 1;
                    let (npc, nbp, nob) = tr!(self.enter(f, pc, bp, ob));
                    pc = npc;
                    bp = nbp;
                    ob = nob;
                }
                // A non-void function fell off its end: undefined if the caller uses the
                // value, noted at the call (or here, for a call the machine made).
                Instr::LastRet => {
                    let v = self.last_ret;
                    let v = match self.frames.last().map(|fr| fr.ret_pc) {
                        Some(ret) if !self.caller_discards(ret) => {
                            let at = if ret == u32::MAX { here } else { ret - 1 };
                            self.undefined_result(at, UndefinedKind::MissingReturnValue, v)
                        }
                        _ => v,
                    };
                    self.stack.push(v);
                }
                Instr::Ret => {
                    let v = self.pop();
                    self.last_ret = v;
                    let Some(fr) = self.frames.pop() else {
                        return Ok(v);
                    };
                    self.slots.truncate(bp as usize);
                    self.mem.truncate(fr.mem_base as usize);
                    self.frame_init
                        .truncate((fr.mem_base as usize).saturating_sub(self.global_len));
                    self.objs.truncate(ob as usize);
                    if fr.ret_pc == u32::MAX {
                        return Ok(v);
                    }
                    pc = fr.ret_pc;
                    bp = fr.bp;
                    ob = fr.ob;
                    self.stack.push(v);
                }
                Instr::Builtin(b, site) => {
                    if self.pause_before_input && b.reads_input() {
                        self.resume_at = (here, bp, ob);
                        return Err((Trap::Paused, here));
                    }
                    self.call_pc = here;
                    tr!(super::builtins::call(self, b, site));
                }
                Instr::InitBytes(d) => {
                    let p = self.pop();
                    let data = code.data.get(d as usize).map(|v| &v[..]).unwrap_or(&[]);
                    tr!(self.charge(data.len()));
                    let dst = tr!(self.bytes_mut(p, data.len() as u32));
                    dst.copy_from_slice(data);
                }
                Instr::ZeroBytes(n) => {
                    let p = self.pop();
                    tr!(self.charge(n as usize));
                    tr!(self.bytes_mut(p, n)).fill(0);
                }
                Instr::CopyBytes(n) => {
                    let src = self.pop();
                    let dst = self.pop();
                    tr!(self.charge(n as usize));
                    tr!(self.copy_bytes(dst, src, n));
                }
            }
        }
    }
}

/// Bytes of global memory `code` declares.
fn global_len_of(code: &Code) -> usize {
    usize::try_from(code.global_bytes).unwrap_or(usize::MAX)
}

/// Indices of the pages set in a written-pages bitmap, ascending.
fn written(bitmap: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bitmap.iter().enumerate().flat_map(|(w, &bits)| {
        (0..64)
            .filter(move |b| bits & (1u64 << b) != 0)
            .map(move |b| w * 64 + b)
    })
}

/// `p + i * size` for an `i64` index `i` (pointer arithmetic on the byte offset).
#[inline(always)]
fn ptr_add(p: u64, i: u64, size: u32) -> u64 {
    let (id, off) = split_ptr(p);
    let off = i64::from(off).wrapping_add((i as i64).wrapping_mul(i64::from(size)));
    // Offsets beyond +-2^31 can never be valid; clamp them to an invalid one.
    let off = i32::try_from(off).unwrap_or(i32::MIN);
    make_ptr(id, off)
}

/// `v + delta` in storage kind `sc` (pointers: byte offset; floats: +-1); an `int` or
/// `long long` overflow returns [`Trap::Undefined`] with the wrapped value.
#[inline]
fn inc(sc: Sc, v: u64, delta: i32) -> Result<u64, Trap> {
    let overflow = match sc {
        Sc::I32 => (v as i32).checked_add(delta).is_none(),
        Sc::I64 => (v as i64).checked_add(i64::from(delta)).is_none(),
        _ => false,
    };
    let r = wrapping_inc(sc, v, delta);
    if overflow {
        return Err(Trap::Undefined(UndefinedKind::SignedOverflow, r));
    }
    Ok(r)
}

/// `v + delta` in storage kind `sc`, wrapping.
#[inline]
fn wrapping_inc(sc: Sc, v: u64, delta: i32) -> u64 {
    match sc {
        Sc::F64 => (f64::from_bits(v) + f64::from(delta.signum())).to_bits(),
        Sc::F32 => ((f64::from_bits(v) + f64::from(delta.signum())) as f32 as f64).to_bits(),
        Sc::Ptr => {
            let (id, off) = split_ptr(v);
            make_ptr(id, off.wrapping_add(delta))
        }
        _ => canon(sc, v.wrapping_add(delta as i64 as u64)),
    }
}

/// Maps a trap to an outcome, with the line of the instruction at `pc`.
pub fn outcome(code: &Code, trap: Trap, pc: u32) -> Outcome {
    match trap {
        Trap::Error(message) => Outcome::RuntimeError {
            line: code.line_at(pc),
            message,
        },
        Trap::Exit(n) => Outcome::Exit(n),
        Trap::Timeout => Outcome::Timeout,
        Trap::Memory => Outcome::MemoryLimit,
        Trap::CallDepth => Outcome::CallDepth,
        Trap::Output => Outcome::OutputLimit,
        Trap::Paused => Outcome::RuntimeError {
            line: code.line_at(pc),
            message: "internal error: run paused before input".into(),
        },
        Trap::Uninitialised(what) => Outcome::RuntimeError {
            line: code.line_at(pc),
            message: format!("undefined behaviour: read of uninitialised {what}"),
        },
        Trap::Undefined(..) => Outcome::RuntimeError {
            line: code.line_at(pc),
            message: "internal error: undefined behaviour escaped the machine".into(),
        },
    }
}
