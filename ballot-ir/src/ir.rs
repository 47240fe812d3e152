//! The typed kernel IR that native execution, the IR interpreter and every
//! shader backend read.
//!
//! The IR knows nothing of syn or proc-macro2: `front` (feature `macros`)
//! builds it and keeps the source spans of its nodes in a side table of its
//! own.
//!
//! # Invariants
//! A [`Kernel`] produced by `front` upholds all of these; backends
//! rely on them and do not re-check.
//!
//! 1. **Handles are local.** Every [`Handle`] in a kernel points into that
//!    kernel's own arenas.
//! 2. **Expressions are trees in post-order.** Each expression is used by
//!    exactly one parent (an expression or a statement), and its operands
//!    have smaller handles than itself.
//! 3. **Well-typed.** `expr_types[e]` is the type of expression `e`, and
//!    every operator, cast, call and statement respects the typing rules
//!    documented on [`Expr`] and [`Stmt`].
//! 4. **Collectives sit at statement level of control flow.** An
//!    [`Expr::Op`] or [`Expr::Call`] is evaluated in exactly the lanes that
//!    are active at the statement holding it. It never sits under the
//!    right-hand side of `&&` / `||` nor in an arm of [`Expr::Select`]: the
//!    front end hoists such expressions into [`Stmt::If`], so lanes that Rust
//!    would not evaluate them in do not take part.
//! 5. **Evaluation order.** Operands are evaluated left to right, before the
//!    expression that uses them. Every expression except `Op` and `Call` is
//!    pure and total: integer arithmetic wraps, shifts use the low five bits
//!    of the shift amount, and integer division or remainder by zero yields
//!    the values WGSL defines (`x / 0 == x`, `x % 0 == 0`, and likewise for
//!    `i32::MIN / -1 == i32::MIN`, `i32::MIN % -1 == 0`).
//! 6. **Structured control flow.** [`Stmt::Break`] and [`Stmt::Continue`]
//!    appear only inside a [`Stmt::Loop`] body (not in its `continuing`
//!    block), and refer to the innermost loop.
//! 7. **Locals are assigned before they are read,** on every path; a local
//!    is declared by its first [`Stmt::Assign`]. Parameters are locals
//!    assigned on entry. Immutable locals are assigned once per execution of
//!    their declaring statement.
//! 8. **Broadcast ids and cluster sizes are constant:** the second operand
//!    of [`Op::Broadcast`], of [`Op::QuadBroadcast`] and of
//!    [`Op::Clustered`] is an [`Expr::Literal`] of type `u32`: below 4 for
//!    the quad's; a power of two from 1 to 128 (the largest subgroup) for
//!    the cluster size, which may still exceed the size of the subgroup
//!    that runs it (undefined, and reported by the simulator).
//! 9. **Operations take their types:** the value operand of an [`Op`]
//!    has a type [`op_takes`] allows.

use core::fmt;
use core::marker::PhantomData;

use crate::mask::SubgroupMask;
use crate::op::{ArithOp, Op};

/// An index into an [`Arena`].
pub struct Handle<T> {
    index: u32,
    marker: PhantomData<fn() -> T>,
}

impl<T> Handle<T> {
    /// The handle of the `index`-th item.
    pub const fn from_index(index: usize) -> Self {
        Self {
            index: index as u32,
            marker: PhantomData,
        }
    }

    /// The position of the item in its arena.
    pub const fn index(self) -> usize {
        self.index as usize
    }
}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Handle<T> {}
impl<T> PartialEq for Handle<T> {
    fn eq(&self, other: &Self) -> bool {
        self.index == other.index
    }
}
impl<T> Eq for Handle<T> {}
impl<T> PartialOrd for Handle<T> {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Handle<T> {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.index.cmp(&other.index)
    }
}
impl<T> core::hash::Hash for Handle<T> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.index.hash(state);
    }
}
impl<T> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.index)
    }
}

/// Items of one kind, addressed by [`Handle`]s in insertion order.
#[derive(Clone, PartialEq)]
pub struct Arena<T> {
    items: Vec<T>,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Self { items: Vec::new() }
    }
}

impl<T> Arena<T> {
    /// An empty arena.
    pub fn new() -> Self {
        Self::default()
    }

    /// An arena of `items`, the first at index 0.
    pub fn from_vec(items: Vec<T>) -> Self {
        Self { items }
    }

    /// Adds `item` and returns its handle.
    pub fn append(&mut self, item: T) -> Handle<T> {
        let handle = Handle::from_index(self.items.len());
        self.items.push(item);
        handle
    }

    /// The item of `handle`, if it is in range.
    pub fn get(&self, handle: Handle<T>) -> Option<&T> {
        self.items.get(handle.index())
    }

    /// The number of items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the arena holds nothing.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Every item with its handle, in insertion order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Handle<T>, &T)> + '_ {
        self.items
            .iter()
            .enumerate()
            .map(|(i, item)| (Handle::from_index(i), item))
    }
}

impl<T> core::ops::Index<Handle<T>> for Arena<T> {
    type Output = T;
    fn index(&self, handle: Handle<T>) -> &T {
        &self.items[handle.index()]
    }
}

impl<T> core::ops::IndexMut<Handle<T>> for Arena<T> {
    fn index_mut(&mut self, handle: Handle<T>) -> &mut T {
        &mut self.items[handle.index()]
    }
}

impl<T: fmt::Debug> fmt::Debug for Arena<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// The type of a value in one lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// `bool`.
    Bool,
    /// `u32`.
    U32,
    /// `i32`.
    I32,
    /// `f32`.
    F32,
    /// [`SubgroupMask`]: `uvec4` / `vec4<u32>`.
    Mask,
}

impl Type {
    /// The Rust spelling of the type.
    pub const fn rust_name(self) -> &'static str {
        match self {
            Type::Bool => "bool",
            Type::U32 => "u32",
            Type::I32 => "i32",
            Type::F32 => "f32",
            Type::Mask => "SubgroupMask",
        }
    }

    /// Whether the type is `u32` or `i32`.
    pub const fn is_integer(self) -> bool {
        matches!(self, Type::U32 | Type::I32)
    }

    /// Whether the type is `u32`, `i32` or `f32`.
    pub const fn is_numeric(self) -> bool {
        matches!(self, Type::U32 | Type::I32 | Type::F32)
    }

    /// Whether the type is one of the four scalars (not a mask).
    pub const fn is_scalar(self) -> bool {
        !matches!(self, Type::Mask)
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rust_name())
    }
}

/// A constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal {
    /// A `bool`.
    Bool(bool),
    /// A `u32`.
    U32(u32),
    /// An `i32`.
    I32(i32),
    /// An `f32`.
    F32(f32),
    /// A mask: `SubgroupMask::EMPTY`, `SubgroupMask::ALL`.
    Mask(SubgroupMask),
}

impl Literal {
    /// The literal's type.
    pub const fn ty(self) -> Type {
        match self {
            Literal::Bool(_) => Type::Bool,
            Literal::U32(_) => Type::U32,
            Literal::I32(_) => Type::I32,
            Literal::F32(_) => Type::F32,
            Literal::Mask(_) => Type::Mask,
        }
    }
}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-x`: `i32` (wrapping) and `f32`.
    Neg,
    /// `!x`: logical on `bool`, bitwise on `u32`, `i32` and masks.
    Not,
}

/// A binary operator.
///
/// Typing: both operands have the same type, except that the shift amount of
/// `Shl` / `Shr` is always `u32`. Arithmetic takes `u32`, `i32` or `f32`;
/// bitwise operators take `u32`, `i32`, masks, or (`&`, `|`, `^` only)
/// `bool`; shifts take integers; `Eq` / `Ne` take any type; ordered
/// comparisons take numbers; `LogicalAnd` / `LogicalOr` take `bool`.
/// Comparisons and logical operators yield `bool`; the rest yield the left
/// operand's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `%`.
    Rem,
    /// `&`.
    BitAnd,
    /// `|`.
    BitOr,
    /// `^`.
    BitXor,
    /// `<<`.
    Shl,
    /// `>>`: logical on `u32`, arithmetic on `i32`.
    Shr,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `&&`. Both operands are evaluated (invariant 4 keeps that sound).
    LogicalAnd,
    /// `||`. Both operands are evaluated (invariant 4 keeps that sound).
    LogicalOr,
}

impl BinaryOp {
    /// Whether the operator yields `bool` whatever its operands.
    pub const fn is_comparison(self) -> bool {
        matches!(
            self,
            BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge
        )
    }

    /// The Rust (and GLSL, and WGSL) spelling.
    pub const fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::BitAnd => "&",
            BinaryOp::BitOr => "|",
            BinaryOp::BitXor => "^",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::LogicalAnd => "&&",
            BinaryOp::LogicalOr => "||",
        }
    }
}

/// A per-lane function of the mask API, evaluated without communication.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MaskFn {
    /// `SubgroupMask::lane(i: u32) -> SubgroupMask`: only bit `i`; empty
    /// when `i >= 128`.
    Lane,
    /// `SubgroupMask::first(n: u32) -> SubgroupMask`: bits `0..n`,
    /// saturating at 128.
    First,
    /// `m.contains(i: u32) -> bool`: bit `i`; false when `i >= 128`.
    Contains,
    /// `m.count() -> u32`: set bits among all 128.
    Count,
    /// `m.is_empty() -> bool`: no bit set among all 128.
    IsEmpty,
}

impl MaskFn {
    /// The operand types.
    pub const fn params(self) -> &'static [Type] {
        match self {
            MaskFn::Lane | MaskFn::First => &[Type::U32],
            MaskFn::Contains => &[Type::Mask, Type::U32],
            MaskFn::Count | MaskFn::IsEmpty => &[Type::Mask],
        }
    }

    /// The result type.
    pub const fn result(self) -> Type {
        match self {
            MaskFn::Lane | MaskFn::First => Type::Mask,
            MaskFn::Contains | MaskFn::IsEmpty => Type::Bool,
            MaskFn::Count => Type::U32,
        }
    }
}

/// The operand types of an operation, where `T` (the value of broadcasts,
/// `AllEqual`, arithmetic, shuffles, quads and clustered reductions) is `value`, and its result
/// type. Which `T` an operation takes is [`op_takes`].
pub fn op_signature(op: Op, value: Type) -> (Vec<Type>, Type) {
    use Type::*;
    match op {
        Op::Ballot => (vec![Bool], Mask),
        Op::InverseBallot => (vec![Mask], Bool),
        Op::BitExtract => (vec![Mask, U32], Bool),
        Op::BitCount
        | Op::InclusiveBitCount
        | Op::ExclusiveBitCount
        | Op::FindLsb
        | Op::FindMsb => (vec![Mask], U32),
        Op::EqMask | Op::GeMask | Op::GtMask | Op::LeMask | Op::LtMask => (vec![], Mask),
        Op::Elect => (vec![], Bool),
        Op::Broadcast
        | Op::Shuffle
        | Op::ShuffleXor
        | Op::ShuffleUp
        | Op::ShuffleDown
        | Op::QuadBroadcast
        | Op::Clustered(_) => (vec![value, U32], value),
        Op::BroadcastFirst | Op::Arith(..) | Op::QuadSwap(_) => (vec![value], value),
        Op::All | Op::Any => (vec![Bool], Bool),
        Op::AllEqual => (vec![value], Bool),
    }
}

/// Whether `op` takes a value of type `ty` as `T`, as spirv-std's bounds
/// say: the `i_` operations and the bitwise ones take `u32` and `i32`, the
/// `s_` ones `i32`, the `u_` ones `u32`, the `f_` ones `f32`, whether they
/// reduce, scan or reduce clusters; broadcasts, `AllEqual`, shuffles and
/// quads any type.
pub const fn op_takes(op: Op, ty: Type) -> bool {
    let Some(arith) = op.arith() else {
        return true;
    };
    match arith {
        ArithOp::IAdd | ArithOp::IMul | ArithOp::And | ArithOp::Or | ArithOp::Xor => {
            matches!(ty, Type::U32 | Type::I32)
        }
        ArithOp::SMin | ArithOp::SMax => matches!(ty, Type::I32),
        ArithOp::UMin | ArithOp::UMax => matches!(ty, Type::U32),
        ArithOp::FAdd | ArithOp::FMul | ArithOp::FMin | ArithOp::FMax => {
            matches!(ty, Type::F32)
        }
    }
}

/// Whether the operation's result type is its value's (`T`), which the
/// context of the call picks.
pub const fn op_is_generic(op: Op) -> bool {
    matches!(
        op,
        Op::Broadcast
            | Op::BroadcastFirst
            | Op::AllEqual
            | Op::Arith(..)
            | Op::Shuffle
            | Op::ShuffleXor
            | Op::ShuffleUp
            | Op::ShuffleDown
            | Op::QuadBroadcast
            | Op::QuadSwap(_)
            | Op::Clustered(_)
    )
}

/// An expression: one value per active lane.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A constant.
    Literal(Literal),
    /// The current value of a local or parameter.
    Load(Handle<Local>),
    /// A unary operation (see [`UnaryOp`] for typing).
    Unary {
        /// The operator.
        op: UnaryOp,
        /// The operand.
        arg: Handle<Expr>,
    },
    /// A binary operation (see [`BinaryOp`] for typing).
    Binary {
        /// The operator.
        op: BinaryOp,
        /// The left operand.
        left: Handle<Expr>,
        /// The right operand.
        right: Handle<Expr>,
    },
    /// `arg as to`, between scalar types, with Rust's `as` semantics:
    /// integer casts reinterpret or truncate bits, float-to-integer
    /// saturates (NaN gives 0), `bool` gives 0 or 1. Casting to `bool` is
    /// not allowed.
    Cast {
        /// The operand, a scalar.
        arg: Handle<Expr>,
        /// The scalar type to convert to.
        to: Type,
    },
    /// `if cond { accept } else { reject }` with pure arms: both are
    /// evaluated and each lane picks one.
    Select {
        /// A `bool`.
        cond: Handle<Expr>,
        /// The value where `cond` is true.
        accept: Handle<Expr>,
        /// The value where `cond` is false; same type as `accept`.
        reject: Handle<Expr>,
    },
    /// `subgroup_local_invocation_id()`: the lane id, a `u32`.
    LaneId,
    /// `subgroup_size()`: the subgroup size, a `u32`.
    SubgroupSize,
    /// A mask-API function (see [`MaskFn`] for typing).
    Mask {
        /// The function.
        fun: MaskFn,
        /// Its operands.
        args: Vec<Handle<Expr>>,
    },
    /// A ballot operation (see [`op_signature`] for typing). Collective.
    Op {
        /// The operation.
        op: Op,
        /// Its operands.
        args: Vec<Handle<Expr>>,
    },
    /// A call of another kernel, by the path it was written with. Collective:
    /// the callee runs with the caller's active lanes.
    Call {
        /// The callee's path, e.g. `"helpers::slot"`.
        callee: String,
        /// The arguments, one per callee parameter.
        args: Vec<Handle<Expr>>,
    },
}

impl Expr {
    /// The operands, left to right: the order of evaluation (invariant 5).
    pub fn operands(&self) -> Vec<Handle<Expr>> {
        match self {
            Expr::Literal(_) | Expr::Load(_) | Expr::LaneId | Expr::SubgroupSize => Vec::new(),
            Expr::Unary { arg, .. } | Expr::Cast { arg, .. } => vec![*arg],
            Expr::Binary { left, right, .. } => vec![*left, *right],
            Expr::Select {
                cond,
                accept,
                reject,
            } => vec![*cond, *accept, *reject],
            Expr::Mask { args, .. } | Expr::Op { args, .. } | Expr::Call { args, .. } => {
                args.clone()
            }
        }
    }
}

/// A local variable or parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Local {
    /// The name in the source; shadowing gives two locals one name.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// Whether it was declared `mut`.
    pub mutable: bool,
}

/// A parameter: a local that holds an input on entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// The local holding it.
    pub local: Handle<Local>,
    /// Whether it is `#[uniform]`: one value for the whole dispatch rather
    /// than one per lane.
    pub uniform: bool,
}

/// A statement, executed by the lanes active when control reaches it.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// Stores `value` into `local` in every active lane; the first store
    /// declares it. `value` has the local's type.
    Assign {
        /// The local written.
        local: Handle<Local>,
        /// The value stored.
        value: Handle<Expr>,
    },
    /// Evaluates an expression for its effects only (reports of undefined
    /// behaviour in ballot operations and calls).
    Eval(Handle<Expr>),
    /// Active lanes where `cond` is true run `accept`, the others `reject`.
    If {
        /// A `bool`.
        cond: Handle<Expr>,
        /// Run where `cond` holds.
        accept: Block,
        /// Run where it does not.
        reject: Block,
    },
    /// Runs `body` then `continuing` repeatedly, until every lane that
    /// entered has left through `Break` or `Return`. Lanes that `Continue`
    /// skip the rest of `body` but run `continuing`.
    Loop {
        /// The loop body.
        body: Block,
        /// Run at the end of each iteration, also by lanes that continued:
        /// the increment of a `for` loop.
        continuing: Block,
    },
    /// Leaves the innermost loop.
    Break,
    /// Skips to the innermost loop's `continuing` block.
    Continue,
    /// Leaves the kernel, with a value of its return type, if it has one.
    Return(Option<Handle<Expr>>),
}

/// A sequence of statements.
pub type Block = Vec<Handle<Stmt>>;

/// One `#[ballot::kernel]` function.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    /// The function's name.
    pub name: String,
    /// Parameters in order.
    pub params: Vec<Param>,
    /// The return type; `None` for `()`.
    pub ret: Option<Type>,
    /// Parameters and locals.
    pub locals: Arena<Local>,
    /// Every expression.
    pub exprs: Arena<Expr>,
    /// The type of each expression, indexed like `exprs`.
    pub expr_types: Vec<Type>,
    /// Every statement.
    pub stmts: Arena<Stmt>,
    /// The top-level block.
    pub body: Block,
}

impl Kernel {
    /// The type of `expr`.
    pub fn type_of(&self, expr: Handle<Expr>) -> Type {
        self.expr_types[expr.index()]
    }

    /// The type of parameter `index`.
    pub fn param_type(&self, index: usize) -> Type {
        self.locals[self.params[index].local].ty
    }

    /// Paths of the kernels this one calls directly, sorted, without
    /// repeats.
    pub fn callees(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self
            .exprs
            .iter()
            .filter_map(|(_, e)| match e {
                Expr::Call { callee, .. } => Some(callee.as_str()),
                _ => None,
            })
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// Whether the kernel uses `op` anywhere.
    pub fn uses_op(&self, op: Op) -> bool {
        self.exprs
            .iter()
            .any(|(_, e)| matches!(e, Expr::Op { op: o, .. } if *o == op))
    }
}
