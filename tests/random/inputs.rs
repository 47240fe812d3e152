//! Random inputs for the differential test: active sets of the shapes
//! divergence and ragged dispatches produce, and arguments biased towards
//! the values where operations differ most.

use ballot::ir::Type;
use ballot::SubgroupMask;
use ballot_sim::interp::{Arg, Value};

use super::gen::Rng;

/// An active set of one of the shapes divergence and ragged dispatches
/// produce, including none at all.
pub fn active_lanes(rng: &mut Rng, size: u32) -> SubgroupMask {
    let all = SubgroupMask::first(size);
    let bits = |rng: &mut Rng, percent: u32| -> SubgroupMask {
        (0..size).filter(|_| rng.chance(percent)).collect()
    };
    match rng.below(12) {
        0..=2 => all,
        3 => SubgroupMask::first(1 + rng.below(size)),
        4 => bits(rng, 50),
        5 => bits(rng, 12),
        6 => SubgroupMask::lane(rng.below(size)),
        7 => {
            all & SubgroupMask::from_bits(0x5555_5555_5555_5555_5555_5555_5555_5555 << rng.below(2))
        }
        8 => all & !SubgroupMask::first(rng.below(size)),
        9 => all & !SubgroupMask::lane(rng.below(size)),
        10 => bits(rng, 90),
        _ if rng.chance(30) => SubgroupMask::EMPTY,
        _ => all & !SubgroupMask::first(size / 2),
    }
}

fn random_value(rng: &mut Rng, ty: Type, size: u32) -> Value {
    match ty {
        Type::Bool => Value::Bool(rng.chance(50)),
        Type::U32 => Value::U32(match rng.below(8) {
            0..=2 => rng.below(10),
            3 => rng.below(size.max(2) * 2),
            4 => rng.pick(&[0, 1, 31, 32, 33, 127, 128, u32::MAX, 0x8000_0000]),
            _ => rng.next_u64() as u32,
        }),
        Type::I32 => Value::I32(match rng.below(8) {
            0..=2 => rng.below(21) as i32 - 10,
            3 => rng.pick(&[i32::MIN, i32::MAX, -1, 0, 1, 31, 32, -32]),
            _ => rng.next_u64() as i32,
        }),
        Type::F32 => Value::F32(match rng.below(10) {
            0 => rng.pick(&[0.0, -0.0, 1.0, -1.0, 0.5, 1e-6, 1e6, 3e9, -3e9]),
            // Rarely: the values whose casts and comparisons differ most.
            1 if rng.chance(20) => rng.pick(&[f32::NAN, f32::INFINITY, f32::NEG_INFINITY]),
            _ => (rng.below(4001) as f32 - 2000.0) / 16.0,
        }),
        // A mask type is never a bool, so this arm is `Mask`.
        _ => Value::Mask(match rng.below(7) {
            0 => SubgroupMask::EMPTY,
            1 => SubgroupMask::ALL,
            2 => SubgroupMask::first(rng.below(129)),
            3 => SubgroupMask::lane(rng.below(size)),
            4 => SubgroupMask::from_bits(
                u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64()),
            ),
            5 => SubgroupMask::from_bits(u128::from(rng.next_u64())) & SubgroupMask::first(size),
            _ => SubgroupMask::from_bits((1 << rng.below(128)) | 1),
        }),
    }
}

/// One argument: a scalar for a uniform parameter; otherwise `len` values
/// that are all equal, independent, or a simple function of the lane.
pub fn random_arg(rng: &mut Rng, ty: Type, uniform: bool, size: u32, len: usize) -> Arg {
    if uniform {
        return Arg::Uniform(random_value(rng, ty, size));
    }
    let values = match rng.below(4) {
        0 => vec![random_value(rng, ty, size); len],
        1 => {
            // Two values, split by a lane pattern: a divergent but
            // structured input.
            let (a, b) = (random_value(rng, ty, size), random_value(rng, ty, size));
            let k = rng.below(size) as usize;
            (0..len)
                .map(|i| if i % size as usize >= k { a } else { b })
                .collect()
        }
        _ => (0..len).map(|_| random_value(rng, ty, size)).collect(),
    };
    Arg::PerLane(values)
}
