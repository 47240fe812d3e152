//! Subgroup sizes: the powers of two from 1 to 128 that a device may have.

use core::fmt;

use crate::error::ConfigError;

/// The largest subgroup size any API allows.
pub const MAX_SUBGROUP_SIZE: u32 = 128;

/// A valid subgroup size: a power of two from 1 to 128.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SubgroupSize(u32);

impl SubgroupSize {
    /// Validates `size`.
    pub const fn new(size: u32) -> Result<Self, ConfigError> {
        if size == 0 || !size.is_power_of_two() || size > MAX_SUBGROUP_SIZE {
            Err(ConfigError::InvalidSubgroupSize { size })
        } else {
            Ok(Self(size))
        }
    }

    /// Every valid size, smallest first.
    pub fn all() -> impl Iterator<Item = SubgroupSize> + Clone {
        (0..=7).map(|k| SubgroupSize(1 << k))
    }

    /// The size as a number.
    pub const fn get(self) -> u32 {
        self.0
    }

    /// The size as a `usize`, for indexing.
    pub const fn as_usize(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for SubgroupSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl TryFrom<u32> for SubgroupSize {
    type Error = ConfigError;
    fn try_from(size: u32) -> Result<Self, ConfigError> {
        Self::new(size)
    }
}
