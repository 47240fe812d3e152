//! Configurations no device can have are rejected with a typed error that
//! names the offending value; every configuration a device can have is
//! accepted. Sizes follow docs/design.md: a power of two from 1 to 128.

use ballot_ir::error::{ConfigError, SimError};
use ballot_ir::mask::SubgroupMask;
use ballot_sim::sim::{Dispatch, Subgroup, SubgroupSize};
use proptest::prelude::*;

const SIZES: [u32; 8] = [1, 2, 4, 8, 16, 32, 64, 128];

fn below(size: u32) -> u128 {
    if size >= 128 {
        !0
    } else {
        (1u128 << size) - 1
    }
}

fn invalid_size(size: u32) -> ConfigError {
    ConfigError::InvalidSubgroupSize { size }
}

fn lane_out_of_range(lane: u32, size: u32) -> ConfigError {
    ConfigError::ActiveLaneOutOfRange { lane, size }
}

/// Sizes that are zero, not a power of two, or over 128.
fn bad_sizes() -> Vec<u32> {
    let mut sizes: Vec<u32> = (0..=300).filter(|s| !SIZES.contains(s)).collect();
    sizes.extend([256, 512, 1 << 16, 1 << 31, u32::MAX - 1, u32::MAX]);
    sizes
}

#[test]
fn every_invalid_subgroup_size_is_rejected_everywhere_a_size_is_taken() {
    for size in bad_sizes() {
        let want = invalid_size(size);
        assert_eq!(SubgroupSize::new(size), Err(want.clone()), "{size}");
        assert_eq!(SubgroupSize::try_from(size), Err(want.clone()), "{size}");
        assert_eq!(Subgroup::full(size), Err(want.clone()), "{size}");
        assert_eq!(Subgroup::new(size, SubgroupMask::EMPTY), Err(want.clone()));
        assert_eq!(Subgroup::partial(size, 0), Err(want.clone()), "{size}");
        assert_eq!(Dispatch::new([1, 1, 1], size, [1, 1, 1]), Err(want));
    }
}

#[test]
fn every_power_of_two_from_1_to_128_is_a_valid_size() {
    for size in SIZES {
        let s = SubgroupSize::new(size).unwrap();
        assert_eq!(s.get(), size);
        assert_eq!(s.as_usize(), size as usize);
        assert_eq!(s.to_string(), size.to_string());
        let full = Subgroup::full(size).unwrap();
        assert_eq!(full.size(), s);
        assert_eq!(full.active().bits(), below(size));
        let all_lanes = Subgroup::new(size, SubgroupMask::from_bits(below(size))).unwrap();
        assert_eq!(all_lanes, full);
        assert!(Dispatch::new([1, 1, 1], size, [1, 1, 1]).is_ok());
    }
    let all: Vec<u32> = SubgroupSize::all().map(SubgroupSize::get).collect();
    assert_eq!(all, SIZES);
}

#[test]
fn an_active_lane_at_or_above_the_size_is_rejected() {
    for size in SIZES.into_iter().filter(|&s| s < 128) {
        for lane in size..128 {
            let active = SubgroupMask::lane(lane) | SubgroupMask::lane(0);
            assert_eq!(
                Subgroup::new(size, active),
                Err(lane_out_of_range(lane, size)),
                "size {size}, lane {lane}"
            );
        }
    }
}

#[test]
fn the_lowest_offending_lane_is_named() {
    let active: SubgroupMask = [3, 12, 9, 127, 40].into_iter().collect();
    assert_eq!(Subgroup::new(8, active), Err(lane_out_of_range(9, 8)));
    assert_eq!(Subgroup::new(32, active), Err(lane_out_of_range(40, 32)));
    assert_eq!(Subgroup::new(64, active), Err(lane_out_of_range(127, 64)));
    assert!(Subgroup::new(128, active).is_ok());
}

#[test]
fn an_invalid_size_is_reported_before_an_active_lane() {
    assert_eq!(Subgroup::new(3, SubgroupMask::ALL), Err(invalid_size(3)));
}

proptest! {
    #[test]
    fn subgroup_new_accepts_exactly_the_masks_below_the_size(
        size in prop::sample::select(SIZES.to_vec()),
        bits in any::<u128>(),
        cut in 0u32..128,
    ) {
        // Keep some draws inside the size so both outcomes occur.
        let bits = if cut % 2 == 0 { bits & below(size) } else { bits };
        let outside = bits & !below(size);
        let got = Subgroup::new(size, SubgroupMask::from_bits(bits));
        if outside == 0 {
            let sg = got.unwrap();
            prop_assert_eq!(sg.active().bits(), bits);
            for lane in 0..size {
                prop_assert_eq!(sg.is_active(lane), (bits >> lane) & 1 == 1);
            }
        } else {
            prop_assert_eq!(got, Err(lane_out_of_range(outside.trailing_zeros(), size)));
        }
    }
}

#[test]
fn a_partial_subgroup_activates_its_first_count_lanes() {
    for size in SIZES {
        for count in 0..=size {
            let sg = Subgroup::partial(size, count).unwrap();
            assert_eq!(sg.size().get(), size);
            let want: SubgroupMask = (0..count).collect();
            assert_eq!(sg.active(), want, "size {size}, count {count}");
        }
    }
}

#[test]
fn a_partial_subgroup_of_more_lanes_than_its_size_is_rejected() {
    for size in SIZES {
        for count in [size + 1, size * 2, 129, u32::MAX] {
            // Lane `size` is the first lane the count asks for that does not
            // exist.
            assert_eq!(
                Subgroup::partial(size, count),
                Err(lane_out_of_range(size, size)),
                "size {size}, count {count}"
            );
        }
    }
}

#[test]
fn from_parts_drops_lanes_at_or_above_the_size() {
    for size in SIZES {
        let s = SubgroupSize::new(size).unwrap();
        let sg = Subgroup::from_parts(s, SubgroupMask::ALL);
        assert_eq!(sg.active().bits(), below(size));
    }
}

#[test]
fn a_workgroup_with_a_zero_dimension_is_rejected() {
    for size in [[0, 1, 1], [1, 0, 1], [1, 1, 0], [0, 0, 0], [64, 0, 2]] {
        assert_eq!(
            Dispatch::new(size, 32, [1, 1, 1]),
            Err(ConfigError::EmptyWorkgroup { size })
        );
    }
}

#[test]
fn a_dispatch_with_an_invalid_subgroup_size_is_rejected() {
    for size in [0, 3, 6, 256, u32::MAX] {
        assert_eq!(
            Dispatch::new([64, 1, 1], size, [1, 1, 1]),
            Err(invalid_size(size))
        );
    }
}

#[test]
fn a_dispatch_whose_invocations_overflow_a_u32_is_rejected() {
    let too_many = |workgroup_size, workgroup_count| ConfigError::TooManyInvocations {
        workgroup_size,
        workgroup_count,
    };
    let cases = [
        // One workgroup too large.
        ([1 << 16, 1 << 16, 1], [1, 1, 1]),
        ([u32::MAX, 2, 1], [1, 1, 1]),
        ([2, 2, 1 << 30], [1, 1, 1]),
        // Too many workgroups.
        ([1, 1, 1], [u32::MAX, u32::MAX, 1]),
        ([1, 1, 1], [1 << 16, 1 << 8, 1 << 8]),
        // Each fits, the product does not.
        ([1 << 16, 1, 1], [1 << 16, 1, 1]),
        ([64, 1, 1], [1 << 26, 1, 1]),
    ];
    for (size, count) in cases {
        assert_eq!(
            Dispatch::new(size, 32, count),
            Err(too_many(size, count)),
            "{size:?} x {count:?}"
        );
    }
}

#[test]
fn a_dispatch_of_exactly_u32_max_invocations_is_accepted() {
    // 65535 * 65537 = 2^32 - 1.
    let d = Dispatch::new([65535, 65537, 1], 32, [1, 1, 1]).unwrap();
    assert_eq!(d.invocation_count(), u32::MAX as usize);
    let d = Dispatch::new([1, 1, 1], 1, [65535, 1, 65537]).unwrap();
    assert_eq!(d.invocation_count(), u32::MAX as usize);
    let d = Dispatch::new([1 << 16, 1, 1], 128, [(1 << 16) - 1, 1, 1]).unwrap();
    assert_eq!(d.invocation_count(), (1usize << 32) - (1 << 16));
}

#[test]
fn a_zero_workgroup_count_is_an_empty_dispatch_whatever_the_other_dimensions() {
    for count in [
        [0, 1, 1],
        [1, 0, 1],
        [5, 5, 0],
        [u32::MAX, u32::MAX, 0],
        [0, u32::MAX, u32::MAX],
    ] {
        let d =
            Dispatch::new([1024, 1024, 64], 32, count).unwrap_or_else(|e| panic!("{count:?}: {e}"));
        assert_eq!(d.invocation_count(), 0, "{count:?}");
        assert_eq!(d.subgroups().count(), 0, "{count:?}");
    }
}

#[test]
fn config_error_messages_name_the_offending_value() {
    let cases: [(ConfigError, &[&str]); 5] = [
        (invalid_size(96), &["96"]),
        (invalid_size(u32::MAX), &["4294967295"]),
        (lane_out_of_range(17, 16), &["17", "16"]),
        (
            ConfigError::EmptyWorkgroup { size: [8, 0, 3] },
            &["[8, 0, 3]"],
        ),
        (
            ConfigError::TooManyInvocations {
                workgroup_size: [65536, 2, 1],
                workgroup_count: [70000, 1, 1],
            },
            &["[65536, 2, 1]", "[70000, 1, 1]"],
        ),
    ];
    for (err, parts) in cases {
        let text = err.to_string();
        for part in parts {
            assert!(text.contains(part), "{text:?} lacks {part:?}");
        }
        // Wrapped in a `SimError`, the message is unchanged.
        assert_eq!(SimError::from(err.clone()).to_string(), text);
        assert_eq!(SimError::from(err.clone()), SimError::Config(err));
    }
}

#[test]
fn errors_from_constructors_display_their_inputs() {
    let text = Subgroup::new(4, SubgroupMask::lane(6))
        .unwrap_err()
        .to_string();
    assert!(text.contains('6') && text.contains('4'), "{text}");
    let text = Dispatch::new([7, 0, 1], 8, [1, 1, 1])
        .unwrap_err()
        .to_string();
    assert!(text.contains("[7, 0, 1]"), "{text}");
    let text = SubgroupSize::new(48).unwrap_err().to_string();
    assert!(text.contains("48"), "{text}");
}
