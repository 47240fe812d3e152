//! [`SubgroupMask`], the 128-bit ballot, and the mask algebra behind every
//! ballot operation.
//!
//! The layout is the one GLSL (`uvec4`), WGSL (`vec4<u32>`) and SPIR-V use:
//! lane `i` is bit `i % 32` of word `i / 32`, so word 0 (`x`) holds lanes
//! 0–31 and word 3 (`w`) holds lanes 96–127. As a `u128`, lane `i` is bit `i`.
//!
//! The methods here are the spec in code: each one takes the subgroup size
//! explicitly and ignores bits at or above it, exactly as docs/design.md's
//! semantics require. Operations whose result is undefined for some inputs
//! return `Option`, so callers decide how to report the undefined case; the
//! simulator in `ballot_sim::sim` turns `None` into a typed report.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::size::SubgroupSize;

/// A 128-bit subgroup ballot in the `uvec4` layout.
///
/// `Display` prints the four words as GLSL would spell the value
/// (`uvec4(0x0000000f, 0x00000000, 0x00000000, 0x00000000)`); the alternate
/// form `{:#}` prints the set lanes, folding runs of three or more
/// (`{0, 1, 4..=7}`), and `Debug` prints the same list after the type name
/// (`SubgroupMask{0, 1, 4..=7}`).
#[doc(alias = "uvec4")]
#[doc(alias = "UVec4")]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct SubgroupMask(u128);

impl SubgroupMask {
    /// The mask with no lane set.
    pub const EMPTY: Self = Self(0);
    /// The mask with all 128 lanes set.
    pub const ALL: Self = Self(u128::MAX);

    /// Builds a mask from its `uvec4` words, `x` first.
    pub const fn from_words(words: [u32; 4]) -> Self {
        Self(
            words[0] as u128
                | (words[1] as u128) << 32
                | (words[2] as u128) << 64
                | (words[3] as u128) << 96,
        )
    }

    /// The `uvec4` words, `x` (lanes 0–31) first.
    pub const fn to_words(self) -> [u32; 4] {
        [
            self.0 as u32,
            (self.0 >> 32) as u32,
            (self.0 >> 64) as u32,
            (self.0 >> 96) as u32,
        ]
    }

    /// Builds a mask from a `u128` in which lane `i` is bit `i`.
    pub const fn from_bits(bits: u128) -> Self {
        Self(bits)
    }

    /// The mask as a `u128` in which lane `i` is bit `i`.
    pub const fn bits(self) -> u128 {
        self.0
    }

    /// The mask with only `lane` set; empty when `lane >= 128`.
    pub const fn lane(lane: u32) -> Self {
        if lane < 128 {
            Self(1 << lane)
        } else {
            Self(0)
        }
    }

    /// Lanes `0..n` set: `ballot(true)` of a full subgroup of `n` lanes.
    /// Saturates at 128.
    pub const fn first(n: u32) -> Self {
        if n >= 128 {
            Self(u128::MAX)
        } else {
            Self((1u128 << n) - 1)
        }
    }

    /// Whether `lane` is set. Lanes at or above 128 are never set.
    pub const fn contains(self, lane: u32) -> bool {
        lane < 128 && (self.0 >> lane) & 1 == 1
    }

    /// Sets or clears `lane`; lanes at or above 128 are ignored.
    pub fn set(&mut self, lane: u32, value: bool) {
        let bit = Self::lane(lane).0;
        if value {
            self.0 |= bit;
        } else {
            self.0 &= !bit;
        }
    }

    /// Whether no lane is set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of set lanes among all 128.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest set lane, if any.
    pub const fn lowest(self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros())
        }
    }

    /// The highest set lane, if any.
    pub const fn highest(self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            Some(127 - self.0.leading_zeros())
        }
    }

    /// Iterates over the set lanes, lowest first.
    pub fn iter(self) -> Lanes {
        Lanes(self.0)
    }

    /// The bits below `size`: the only ones any ballot operation reads.
    pub const fn below(self, size: SubgroupSize) -> Self {
        Self(self.0 & Self::first(size.get()).0)
    }

    /// `gl_SubgroupEqMask` of `lane`: bit `i` set iff `i == lane`, below `size`.
    #[doc(alias = "gl_SubgroupEqMask")]
    pub const fn eq_mask(lane: u32, size: SubgroupSize) -> Self {
        Self::lane(lane).below(size)
    }

    /// `gl_SubgroupGeMask` of `lane`: bit `i` set iff `i >= lane`, below `size`.
    #[doc(alias = "gl_SubgroupGeMask")]
    pub const fn ge_mask(lane: u32, size: SubgroupSize) -> Self {
        Self(!Self::first(lane).0).below(size)
    }

    /// `gl_SubgroupGtMask` of `lane`: bit `i` set iff `i > lane`, below `size`.
    #[doc(alias = "gl_SubgroupGtMask")]
    pub const fn gt_mask(lane: u32, size: SubgroupSize) -> Self {
        Self(!Self::first(lane.saturating_add(1)).0).below(size)
    }

    /// `gl_SubgroupLeMask` of `lane`: bit `i` set iff `i <= lane`, below `size`.
    #[doc(alias = "gl_SubgroupLeMask")]
    pub const fn le_mask(lane: u32, size: SubgroupSize) -> Self {
        Self::first(lane.saturating_add(1)).below(size)
    }

    /// `gl_SubgroupLtMask` of `lane`: bit `i` set iff `i < lane`, below `size`.
    #[doc(alias = "gl_SubgroupLtMask")]
    pub const fn lt_mask(lane: u32, size: SubgroupSize) -> Self {
        Self::first(lane).below(size)
    }

    /// `subgroupBallotBitExtract(self, index)`: bit `index`.
    ///
    /// `None` when `index >= size`, where the result is undefined.
    #[doc(alias = "subgroupBallotBitExtract")]
    pub const fn bit_extract(self, index: u32, size: SubgroupSize) -> Option<bool> {
        if index >= size.get() {
            None
        } else {
            Some(self.contains(index))
        }
    }

    /// `subgroupBallotBitCount(self)`: the set bits below `size`.
    #[doc(alias = "subgroupBallotBitCount")]
    pub const fn bit_count(self, size: SubgroupSize) -> u32 {
        self.below(size).count()
    }

    /// `subgroupBallotInclusiveBitCount(self)` in lane `lane`:
    /// `popcount(self & LeMask)`. Positional: it does not depend on which
    /// lanes are active.
    #[doc(alias = "subgroupBallotInclusiveBitCount")]
    pub const fn inclusive_bit_count(self, lane: u32, size: SubgroupSize) -> u32 {
        (self.0 & Self::le_mask(lane, size).0).count_ones()
    }

    /// `subgroupBallotExclusiveBitCount(self)` in lane `lane`:
    /// `popcount(self & LtMask)`. Positional, like the inclusive count.
    #[doc(alias = "subgroupBallotExclusiveBitCount")]
    pub const fn exclusive_bit_count(self, lane: u32, size: SubgroupSize) -> u32 {
        (self.0 & Self::lt_mask(lane, size).0).count_ones()
    }

    /// `subgroupBallotFindLSB(self)`: the lowest set bit below `size`.
    ///
    /// `None` when no bit below `size` is set, where the result is undefined.
    #[doc(alias = "subgroupBallotFindLSB")]
    pub const fn find_lsb(self, size: SubgroupSize) -> Option<u32> {
        self.below(size).lowest()
    }

    /// `subgroupBallotFindMSB(self)`: the highest set bit below `size`.
    ///
    /// `None` when no bit below `size` is set, where the result is undefined.
    #[doc(alias = "subgroupBallotFindMSB")]
    pub const fn find_msb(self, size: SubgroupSize) -> Option<u32> {
        self.below(size).highest()
    }
}

/// Iterator over the set lanes of a [`SubgroupMask`], lowest first.
#[derive(Clone, Debug)]
pub struct Lanes(u128);

impl Iterator for Lanes {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let lane = self.0.trailing_zeros();
        // Clear the lowest set bit.
        self.0 &= self.0 - 1;
        Some(lane)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Lanes {}

impl DoubleEndedIterator for Lanes {
    fn next_back(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let lane = 127 - self.0.leading_zeros();
        self.0 &= !(1u128 << lane);
        Some(lane)
    }
}

impl core::iter::FusedIterator for Lanes {}

impl IntoIterator for SubgroupMask {
    type Item = u32;
    type IntoIter = Lanes;

    fn into_iter(self) -> Lanes {
        self.iter()
    }
}

impl FromIterator<u32> for SubgroupMask {
    /// Collects lanes into a mask; lanes at or above 128 are ignored.
    fn from_iter<I: IntoIterator<Item = u32>>(lanes: I) -> Self {
        let mut mask = Self::EMPTY;
        for lane in lanes {
            mask.set(lane, true);
        }
        mask
    }
}

impl From<[u32; 4]> for SubgroupMask {
    fn from(words: [u32; 4]) -> Self {
        Self::from_words(words)
    }
}

impl From<SubgroupMask> for [u32; 4] {
    fn from(mask: SubgroupMask) -> Self {
        mask.to_words()
    }
}

impl From<u128> for SubgroupMask {
    fn from(bits: u128) -> Self {
        Self(bits)
    }
}

impl From<SubgroupMask> for u128 {
    fn from(mask: SubgroupMask) -> Self {
        mask.0
    }
}

#[cfg(feature = "glam")]
impl From<glam::UVec4> for SubgroupMask {
    fn from(v: glam::UVec4) -> Self {
        Self::from_words(v.to_array())
    }
}

#[cfg(feature = "glam")]
impl From<SubgroupMask> for glam::UVec4 {
    fn from(mask: SubgroupMask) -> Self {
        glam::UVec4::from_array(mask.to_words())
    }
}

macro_rules! bit_op {
    ($Op:ident, $op:ident, $OpAssign:ident, $op_assign:ident, $tok:tt) => {
        impl $Op for SubgroupMask {
            type Output = Self;
            fn $op(self, rhs: Self) -> Self {
                Self(self.0 $tok rhs.0)
            }
        }
        impl $OpAssign for SubgroupMask {
            fn $op_assign(&mut self, rhs: Self) {
                self.0 = self.0 $tok rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for SubgroupMask {
    type Output = Self;
    fn not(self) -> Self {
        Self(!self.0)
    }
}

/// Writes the set lanes as `{0, 1, 4..=7}`, folding runs of three or more.
fn write_lanes(mask: SubgroupMask, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_str("{")?;
    let mut lanes = mask.iter().peekable();
    let mut first = true;
    while let Some(start) = lanes.next() {
        let mut end = start;
        while lanes.peek() == Some(&(end + 1)) {
            end += 1;
            lanes.next();
        }
        if !first {
            f.write_str(", ")?;
        }
        first = false;
        match end - start {
            0 => write!(f, "{start}")?,
            1 => write!(f, "{start}, {end}")?,
            _ => write!(f, "{start}..={end}")?,
        }
    }
    f.write_str("}")
}

impl fmt::Debug for SubgroupMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SubgroupMask")?;
        write_lanes(*self, f)
    }
}

impl fmt::Display for SubgroupMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            return write_lanes(*self, f);
        }
        let [x, y, z, w] = self.to_words();
        write!(f, "uvec4({x:#010x}, {y:#010x}, {z:#010x}, {w:#010x})")
    }
}

impl fmt::LowerHex for SubgroupMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::LowerHex::fmt(&self.0, f)
    }
}

impl fmt::Binary for SubgroupMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Binary::fmt(&self.0, f)
    }
}
