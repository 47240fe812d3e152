//! The helper registry: every generated function or declaration that
//! emitted shaders call, what each needs, and which ones a module needs.
//!
//! One [`Helper`] names the same thing in GLSL and in WGSL; each printer
//! holds only the texts (`back::glsl::helpers`, `back::wgsl::helpers`),
//! and the polyfill libraries write the same texts. What a helper calls
//! can differ between the languages' texts, so [`Helper::deps`] takes the
//! language; the variants' order puts every helper after everything it
//! needs in both, since GLSL wants a function declared before its use.
//!
//! Every helper ignores mask bits at or above the subgroup size, and
//! returns a documented value where the spec leaves the result undefined.

use std::collections::BTreeSet;

use crate::lower::fold::Folded;
use ballot_ir::ir::{BinaryOp, Expr, Handle, Kernel, Literal, MaskFn, Type};
use ballot_ir::op::{Op, Scan};
use ballot_ir::target::{Language, ShaderOptions};

/// Declares [`Helper`] and `Helper::ALL`, its variants in declaration
/// order, from one list, so that the tests walk every helper there is.
macro_rules! helpers {
    ($($(#[$doc:meta])* $name:ident,)*) => {
        /// A generated function, or the memory or state that functions share,
        /// named `ballot_…` in the text.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Helper {
            $($(#[$doc])* $name,)*
        }

        impl Helper {
            /// Every helper, in the registry's (and writing) order.
            #[cfg(test)]
            pub(crate) const ALL: &[Helper] = &[$(Helper::$name,)*];
        }
    };
}

helpers! {
    /// GLSL, emulated: the invocation's place in its virtual subgroup and
    /// `ballot_init` (WGSL's printer writes its own lane state).
    LaneState,
    /// Emulated, in polyfill libraries only: invocations past the workgroup
    /// size the library was written for exchange through a spare slot, and
    /// the public functions give them the documented failure values, so
    /// that a shader run in a larger workgroup fails loudly rather than
    /// indexing past the exchange memory.
    Guard,
    /// GLSL: NaN on the bits, which fast-math compilers keep.
    IsNan,
    /// WGSL: an `f32` from its bits, for NaN and the infinities.
    F32Bits,
    /// GLSL: `u32` division with `x / 0 == x`.
    DivU32,
    /// GLSL: `u32` remainder with `x % 0 == 0`.
    RemU32,
    /// GLSL: the magnitude of an `i32` as a `u32`.
    Magnitude,
    /// GLSL: truncating `i32` division, defined for every operand.
    DivI32,
    /// GLSL: `i32` remainder with the dividend's sign.
    RemI32,
    /// GLSL: Rust's truncated `f32` remainder.
    RemF32,
    /// GLSL: `<<` of `u32` constants, out of naga's folding.
    ShlU32,
    /// GLSL: `<<` of `i32` constants, out of naga's folding.
    ShlI32,
    /// Rust's saturating `f32 as u32`.
    F32ToU32,
    /// Rust's saturating `f32 as i32`.
    F32ToI32,
    /// GLSL: one word of `SubgroupMask::first`.
    FirstWord,
    /// `SubgroupMask::first`.
    MaskFirst,
    /// `SubgroupMask::lane`.
    MaskLane,
    /// `SubgroupMask::contains`.
    MaskContains,
    /// `SubgroupMask::count`.
    MaskCount,
    /// The bits below the subgroup size.
    Below,
    /// `gl_SubgroupEqMask`.
    EqMask,
    /// `gl_SubgroupGeMask`.
    GeMask,
    /// `gl_SubgroupGtMask`.
    GtMask,
    /// `gl_SubgroupLeMask`.
    LeMask,
    /// `gl_SubgroupLtMask`.
    LtMask,
    /// `subgroupBallotBitExtract`.
    BitExtract,
    /// `subgroupInverseBallot`.
    InverseBallot,
    /// `subgroupBallotBitCount`.
    BitCount,
    /// `subgroupBallotInclusiveBitCount`.
    InclusiveBitCount,
    /// `subgroupBallotExclusiveBitCount`.
    ExclusiveBitCount,
    /// `subgroupBallotFindLSB`.
    FindLsb,
    /// `subgroupBallotFindMSB`.
    FindMsb,
    /// Emulated: the exchange memory of flags, one barrier's exchange
    /// (`ballot_share`) and the ballot it gives (`ballot_gather`).
    Share,
    /// Emulated: one exchanged value per invocation in workgroup memory,
    /// a plane per word, so that a value of fewer words moves only those
    /// (`ballot_put`, `ballot_get`).
    Values,
    /// Emulated: the lowest lane of the subgroup whose flag an exchange
    /// published (GLSL: read from the exchange a chunk of four lanes at a
    /// time, up to the first set one; WGSL: of the ballot it gathered).
    LowestFlag,
    /// Native WGSL: how many lanes are active, where they are lanes
    /// 0..count; 0 where they are not.
    PrefixCount,
    /// Native WGSL: the lowest lane of a ballot, its bit cleared (a walk
    /// over the active lanes).
    TakeLowest,
    /// Native WGSL: `subgroupShuffle` of only the words a value uses.
    ShuffleWords,
    /// Native WGSL: `subgroupBroadcastFirst` of only the words a value
    /// uses.
    FirstWords,
    /// `subgroupElect` (emulated; in WGSL also native, which naga lacks).
    Elect,
    /// Emulated `subgroupBallot`.
    Ballot,
    /// Emulated `subgroupBroadcastFirst`.
    BroadcastFirst,
    /// Emulated `subgroupBroadcast` and `subgroupShuffle`: lane `id`'s
    /// value, the caller's own where that lane is inactive or missing.
    Broadcast,
    /// Emulated `subgroupAll`: no active lane votes against.
    All,
    /// Emulated `subgroupAny`: some active lane votes for.
    Any,
    /// `subgroupAllEqual` (emulated; in WGSL also native, which lacks it):
    /// `All(v == BroadcastFirst(v))`, compared in the value's type.
    AllEqual,
    /// Emulated `subgroupShuffleXor`: a broadcast from lane `own ^ mask`.
    ShuffleXor,
    /// Emulated `subgroupShuffleUp`: a broadcast from lane `own - delta`.
    ShuffleUp,
    /// Emulated `subgroupShuffleDown`: a broadcast from lane `own + delta`.
    ShuffleDown,
    /// Emulated `subgroupQuadBroadcast`: a broadcast from lane `i` of the
    /// quad.
    QuadBroadcast,
    /// Emulated `subgroupQuadSwap*`: a broadcast from lane `own ^ k`, `k`
    /// the direction's ([`ballot_ir::op::Quad::xor`]).
    QuadSwap,
    /// The identity of an arithmetic operation ([`ballot_ir::op::ArithOp`], by
    /// its declaration index), in each word of a `vec4<u32>`.
    Identity,
    /// One arithmetic operation on the bits of two `vec4<u32>`, word by
    /// word.
    Combine,
    /// Emulated: the arithmetic reductions, in one exchange where the
    /// value is one word and the subgroups are whole and of 4 to 32 lanes
    /// (each lane reads its subgroup's words four at a time), else in two
    /// (each lane combines its group's values, then the groups' totals).
    Reduce,
    /// Emulated: the scans' one body, the lanes below a bound (the
    /// caller's lane + 1, or its lane), in the reduction's exchanges.
    Scan,
    /// The inclusive scans: emulated, every one, in the reduction's
    /// exchanges; native WGSL, those it lacks (`Min`, `Max`, `And`, `Or`,
    /// `Xor`), in log2(size) `subgroupShuffle`s where every lane is
    /// active.
    InclusiveScan,
    /// The exclusive scans, as [`Helper::InclusiveScan`].
    ExclusiveScan,
    /// The clustered reductions (`subgroupClusteredAdd` …), which WGSL
    /// lacks: emulated, in one exchange, each lane combining its cluster's
    /// slots; native WGSL, in one `subgroupShuffle` per active lane, each
    /// lane combining those of its cluster. Native GLSL has them all.
    Clustered,
    /// Emulated: the workgroup-wide exit vote of loops holding exchanges.
    WorkgroupAny,
}

impl Helper {
    /// The helper behind `op` on a target of `language`, if it needs one:
    /// every operation on emulated targets; on native ones none in GLSL
    /// (the extension has them all), and in WGSL those it lacks.
    pub const fn of_op(op: Op, language: Language, emulated: bool) -> Option<Helper> {
        if !emulated {
            match (language, op.wgsl_name()) {
                (Language::Glsl, _) => return None,
                // naga lacks `subgroupElect`, which WGSL has.
                (Language::Wgsl, Some(_)) if !matches!(op, Op::Elect) => return None,
                (Language::Wgsl, _) => {}
            }
        }
        Some(match op {
            Op::Ballot => Helper::Ballot,
            Op::InverseBallot => Helper::InverseBallot,
            Op::BitExtract => Helper::BitExtract,
            Op::BitCount => Helper::BitCount,
            Op::InclusiveBitCount => Helper::InclusiveBitCount,
            Op::ExclusiveBitCount => Helper::ExclusiveBitCount,
            Op::FindLsb => Helper::FindLsb,
            Op::FindMsb => Helper::FindMsb,
            Op::EqMask => Helper::EqMask,
            Op::GeMask => Helper::GeMask,
            Op::GtMask => Helper::GtMask,
            Op::LeMask => Helper::LeMask,
            Op::LtMask => Helper::LtMask,
            Op::Elect => Helper::Elect,
            Op::Broadcast | Op::Shuffle => Helper::Broadcast,
            Op::BroadcastFirst => Helper::BroadcastFirst,
            Op::All => Helper::All,
            Op::Any => Helper::Any,
            Op::AllEqual => Helper::AllEqual,
            Op::Arith(_, Scan::Reduce) => Helper::Reduce,
            Op::Arith(_, Scan::Inclusive) => Helper::InclusiveScan,
            Op::Arith(_, Scan::Exclusive) => Helper::ExclusiveScan,
            Op::ShuffleXor => Helper::ShuffleXor,
            Op::ShuffleUp => Helper::ShuffleUp,
            Op::ShuffleDown => Helper::ShuffleDown,
            Op::QuadBroadcast => Helper::QuadBroadcast,
            Op::QuadSwap(_) => Helper::QuadSwap,
            Op::Clustered(_) => Helper::Clustered,
        })
    }

    /// The helper of a `SubgroupMask` method, in both languages.
    pub const fn of_mask_fn(fun: MaskFn) -> Option<Helper> {
        match fun {
            MaskFn::Lane => Some(Helper::MaskLane),
            MaskFn::First => Some(Helper::MaskFirst),
            MaskFn::Contains => Some(Helper::MaskContains),
            MaskFn::Count => Some(Helper::MaskCount),
            MaskFn::IsEmpty => None,
        }
    }

    /// The helper of a cast: Rust's saturating float-to-integer casts.
    pub const fn of_cast(from: Type, to: Type) -> Option<Helper> {
        match (from, to) {
            (Type::F32, Type::U32) => Some(Helper::F32ToU32),
            (Type::F32, Type::I32) => Some(Helper::F32ToI32),
            _ => None,
        }
    }

    /// The helper a binary operation of `kernel` goes through in GLSL, if
    /// any: integer division and remainder (IR invariant 5's answers for
    /// zero), float remainder (truncated), and `<<` of constants that
    /// naga's glsl-in would fold ([`glsl_folds`]). WGSL writes them all
    /// inline.
    pub fn of_binary(
        language: Language,
        kernel: &Kernel,
        op: BinaryOp,
        left: Handle<Expr>,
        right: Handle<Expr>,
    ) -> Option<Helper> {
        if language != Language::Glsl {
            return None;
        }
        let constant = || glsl_folds(kernel, left) && glsl_folds(kernel, right);
        Some(match (op, kernel.type_of(left)) {
            (BinaryOp::Div, Type::U32) => Helper::DivU32,
            (BinaryOp::Div, Type::I32) => Helper::DivI32,
            (BinaryOp::Rem, Type::U32) => Helper::RemU32,
            (BinaryOp::Rem, Type::I32) => Helper::RemI32,
            (BinaryOp::Rem, Type::F32) => Helper::RemF32,
            (BinaryOp::Shl, Type::U32) if constant() => Helper::ShlU32,
            (BinaryOp::Shl, Type::I32) if constant() => Helper::ShlI32,
            _ => return None,
        })
    }

    /// The function the helper defines (the same in both languages), or
    /// `None` for the memory and state helpers, which define variables.
    pub const fn name(self) -> Option<&'static str> {
        use Helper::*;
        Some(match self {
            LaneState | Guard | Share | Values => return None,
            LowestFlag => "ballot_lowest_flag",
            PrefixCount => "ballot_prefix_count",
            TakeLowest => "ballot_take_lowest",
            ShuffleWords => "ballot_shuffle_words",
            FirstWords => "ballot_first_words",
            IsNan => "ballot_is_nan",
            F32Bits => "ballot_f32_bits",
            DivU32 => "ballot_div_u32",
            RemU32 => "ballot_rem_u32",
            Magnitude => "ballot_magnitude",
            DivI32 => "ballot_div_i32",
            RemI32 => "ballot_rem_i32",
            RemF32 => "ballot_rem_f32",
            ShlU32 => "ballot_shl_u32",
            ShlI32 => "ballot_shl_i32",
            F32ToU32 => "ballot_f32_to_u32",
            F32ToI32 => "ballot_f32_to_i32",
            FirstWord => "ballot_first_word",
            MaskFirst => "ballot_mask_first",
            MaskLane => "ballot_mask_lane",
            MaskContains => "ballot_mask_contains",
            MaskCount => "ballot_mask_count",
            Below => "ballot_below",
            EqMask => "ballot_eq_mask",
            GeMask => "ballot_ge_mask",
            GtMask => "ballot_gt_mask",
            LeMask => "ballot_le_mask",
            LtMask => "ballot_lt_mask",
            BitExtract => "ballot_bit_extract",
            InverseBallot => "ballot_inverse_ballot",
            BitCount => "ballot_bit_count",
            InclusiveBitCount => "ballot_inclusive_bit_count",
            ExclusiveBitCount => "ballot_exclusive_bit_count",
            FindLsb => "ballot_find_lsb",
            FindMsb => "ballot_find_msb",
            Elect => "ballot_elect",
            Ballot => "ballot_ballot",
            BroadcastFirst => "ballot_broadcast_first",
            Broadcast => "ballot_broadcast",
            All => "ballot_all",
            Any => "ballot_any",
            AllEqual => "ballot_all_equal",
            ShuffleXor => "ballot_shuffle_xor",
            ShuffleUp => "ballot_shuffle_up",
            ShuffleDown => "ballot_shuffle_down",
            QuadBroadcast => "ballot_quad_broadcast",
            QuadSwap => "ballot_quad_swap",
            Identity => "ballot_identity",
            Combine => "ballot_combine",
            Reduce => "ballot_reduce",
            Scan => "ballot_scan",
            InclusiveScan => "ballot_inclusive_scan",
            ExclusiveScan => "ballot_exclusive_scan",
            Clustered => "ballot_clustered_reduce",
            WorkgroupAny => "ballot_workgroup_any",
        })
    }

    /// The function emitted code calls for `helper`, or a name that fails
    /// validation loudly where it is not one.
    pub fn call_name(helper: Option<Helper>) -> &'static str {
        helper
            .and_then(Helper::name)
            .unwrap_or("ballot_not_a_function")
    }

    /// The helpers this one's text in `language` calls or reads.
    pub const fn deps(self, language: Language, emulated: bool) -> &'static [Helper] {
        use Helper::*;
        match language {
            Language::Glsl => match self {
                DivI32 | RemI32 => &[Magnitude],
                RemF32 | F32ToU32 | F32ToI32 => &[IsNan],
                MaskFirst => &[FirstWord],
                Below | LeMask | LtMask => &[MaskFirst],
                EqMask => &[MaskLane],
                GeMask | GtMask => &[MaskFirst, Below],
                InverseBallot | BitExtract => &[MaskContains],
                BitCount => &[MaskCount, Below],
                InclusiveBitCount => &[MaskCount, LeMask],
                ExclusiveBitCount => &[MaskCount, LtMask],
                FindLsb | FindMsb => &[Below],
                Share => &[MaskFirst],
                Values => &[Share],
                LowestFlag => &[Share],
                Ballot | WorkgroupAny => &[Share],
                Elect => &[Share, LowestFlag],
                BroadcastFirst => &[Share, Values, LowestFlag],
                Broadcast => &[Share, Values],
                All | Any => &[Share],
                AllEqual => &[BroadcastFirst, All],
                ShuffleXor | ShuffleUp | ShuffleDown | QuadBroadcast | QuadSwap => &[Broadcast],
                Reduce | Scan | Clustered => &[Share, Values, Identity, Combine],
                InclusiveScan | ExclusiveScan => &[Scan],
                _ => &[],
            },
            Language::Wgsl => match self {
                Below => &[MaskFirst],
                GeMask | GtMask | LeMask | LtMask => &[MaskFirst, Below],
                EqMask => &[MaskLane, Below],
                BitExtract => &[MaskContains],
                InverseBallot => &[BitExtract],
                BitCount => &[MaskCount, Below],
                InclusiveBitCount => &[MaskCount, LeMask],
                ExclusiveBitCount => &[MaskCount, LtMask],
                FindLsb | FindMsb => &[Below],
                Share => &[MaskFirst],
                Values => &[Share],
                Elect if emulated => &[Share, LowestFlag],
                Ballot => &[Share],
                BroadcastFirst => &[Share, Values, LowestFlag],
                Broadcast => &[Share, Values],
                All | Any => &[Share],
                AllEqual if emulated => &[BroadcastFirst, All],
                ShuffleXor | ShuffleUp | ShuffleDown | QuadBroadcast | QuadSwap => &[Broadcast],
                Reduce | Scan | Clustered if emulated => &[Share, Values, Identity, Combine],
                InclusiveScan | ExclusiveScan if emulated => &[Scan],
                AllEqual => &[FirstWords],
                InclusiveScan | ExclusiveScan | Clustered => {
                    &[PrefixCount, TakeLowest, ShuffleWords, Identity, Combine]
                }
                _ => &[],
            },
        }
    }
}

/// The layout of the emulated targets' exchange memory, in slots of one
/// `u32` flag (and one `uvec4` value) per invocation. Both printers write
/// it as constants that the helper texts read.
///
/// The exchange memory has two halves that exchanges use in turn, so that
/// each needs one barrier. A virtual subgroup's ballot is read a `vec4` of
/// slots at a time, so each half covers the workgroup padded to whole
/// virtual subgroups and whole `vec4`s; the polyfill libraries' guard adds
/// a spare `vec4` past that for invocations beyond the workgroup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ExchangeMemory {
    /// The virtual subgroup size.
    pub subgroup: u32,
    /// Invocations per workgroup.
    pub workgroup: u32,
    /// The slots of the whole virtual subgroups the workgroup fills, padded
    /// to whole `vec4`s: the spare slot's index.
    pub padded: u32,
    /// Slots per half.
    pub half: u32,
    /// `vec4`s of slots a virtual subgroup's ballot reads.
    pub chunks: u32,
    /// Words of flag bits per buffer, where a language sets bits with
    /// workgroup atomics (WGSL): one bit per slot, the spare slot's
    /// included.
    pub words: u32,
    /// The words a virtual subgroup's ballot reads there.
    pub subgroup_words: u32,
    /// Ballots that one exchange can hold ([`crate::lower::share`]): the
    /// exchange memory is this many times the one ballot needs.
    pub slots: u32,
}

impl ExchangeMemory {
    /// The layout for `options`, with or without the guard's spare slot,
    /// for exchanges of up to `slots` ballots.
    pub fn new(options: &ShaderOptions, guard: bool, slots: u32) -> ExchangeMemory {
        let subgroup = options.subgroup_size;
        let workgroup = options.invocations_per_workgroup();
        let padded = workgroup.next_multiple_of(subgroup.max(4));
        ExchangeMemory {
            subgroup,
            workgroup,
            padded,
            half: padded + if guard { 4 } else { 0 },
            chunks: (subgroup / 4).max(1),
            words: (padded + u32::from(guard)).div_ceil(32),
            subgroup_words: subgroup.div_ceil(32),
            slots: slots.max(1),
        }
    }
}

/// Whether naga's glsl-in folds an expression as a constant: literals, the
/// emulated subgroup size (a `const`), and operators on them. Its folding
/// rejects a `<<` that shifts set bits out, which Rust allows, and a float
/// operation whose result is not finite; GLSL writes both around it.
pub fn glsl_folds(kernel: &Kernel, expr: Handle<Expr>) -> bool {
    match kernel.exprs.get(expr) {
        Some(Expr::Literal(_) | Expr::SubgroupSize) => true,
        Some(
            e
            @ (Expr::Unary { .. } | Expr::Binary { .. } | Expr::Cast { .. } | Expr::Select { .. }),
        ) => e.operands().iter().all(|&c| glsl_folds(kernel, c)),
        _ => false,
    }
}

/// The helpers a module of one language needs, with everything they need.
#[derive(Clone, Debug)]
pub struct Needs {
    language: Language,
    emulated: bool,
    set: BTreeSet<Helper>,
}

impl Needs {
    /// Nothing yet but what every module of the target needs.
    pub fn new(language: Language, emulated: bool) -> Self {
        let mut needs = Needs {
            language,
            emulated,
            set: BTreeSet::new(),
        };
        if emulated && language == Language::Glsl {
            needs.add(Helper::LaneState);
        }
        needs
    }

    /// Adds `helper` and what it needs.
    pub fn add(&mut self, helper: Helper) {
        if self.set.insert(helper) {
            for &dep in helper.deps(self.language, self.emulated) {
                self.add(dep);
            }
        }
    }

    /// Adds what `kernel`'s expression `expr` is written with. A printer
    /// that folds constants passes only the expressions it writes.
    pub fn expr(&mut self, kernel: &Kernel, expr: Handle<Expr>) {
        let Some(e) = kernel.exprs.get(expr) else {
            return;
        };
        let helper = match e {
            Expr::Op { op, .. } => Helper::of_op(*op, self.language, self.emulated),
            Expr::Mask { fun, .. } => Helper::of_mask_fn(*fun),
            Expr::Cast { arg, to } => Helper::of_cast(kernel.type_of(*arg), *to),
            Expr::Binary { op, left, right } => {
                Helper::of_binary(self.language, kernel, *op, *left, *right)
            }
            _ => None,
        };
        if let Some(helper) = helper {
            self.add(helper);
        }
    }

    /// Adds what `kernel` needs beyond its expressions: the exit vote of
    /// its loops that hold exchanges, on emulated targets.
    pub fn kernel(&mut self, kernel: &Kernel) {
        if self.emulated && super::has_exchanging_loop(kernel) {
            self.add(Helper::WorkgroupAny);
        }
    }

    /// Adds what every expression of `kernel`, and the kernel itself, need.
    pub fn all_of(&mut self, kernel: &Kernel) {
        for (handle, _) in kernel.exprs.iter() {
            self.expr(kernel, handle);
        }
        self.kernel(kernel);
    }

    /// The helpers, in writing order.
    pub fn into_set(self) -> BTreeSet<Helper> {
        self.set
    }
}

/// Every helper `kernels` need in `language`, with their dependencies: the
/// registry's rules on each expression, and each kernel's own needs. With
/// `folded` (indexed like `kernels`), an expression the folder covers
/// needs nothing, as the printer writes its value, but a non-finite `f32`
/// value needs [`Helper::F32Bits`] to be spelled.
pub fn collect<'k>(
    kernels: impl IntoIterator<Item = Option<&'k Kernel>>,
    folded: Option<&[Folded]>,
    language: Language,
    emulated: bool,
) -> BTreeSet<Helper> {
    let mut needs = Needs::new(language, emulated);
    for (i, kernel) in kernels.into_iter().enumerate() {
        let Some(kernel) = kernel else {
            continue;
        };
        let folded = folded.and_then(|f| f.get(i));
        for (handle, _) in kernel.exprs.iter() {
            match folded {
                Some(f) if f.covered(handle) => {}
                Some(f) => match f.value(handle) {
                    Some(Literal::F32(x)) if !x.is_finite() => needs.add(Helper::F32Bits),
                    Some(_) => {}
                    None => needs.expr(kernel, handle),
                },
                None => needs.expr(kernel, handle),
            }
        }
        needs.kernel(kernel);
    }
    needs.into_set()
}
