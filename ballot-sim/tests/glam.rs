//! `glam::UVec4` is the mask type spirv-std uses; converting must keep
//! docs/design.md's layout, lane `i` in bit `i % 32` of component `i / 32`.
#![cfg(feature = "glam")]

use ballot_ir::mask::SubgroupMask;
use ballot_sim::ops::subgroup_ballot;
use ballot_sim::sim::Subgroup;
use glam::UVec4;
use proptest::prelude::*;

#[test]
fn components_hold_lanes_in_blocks_of_32_x_first() {
    let cases = [
        (0, UVec4::new(1, 0, 0, 0)),
        (31, UVec4::new(1 << 31, 0, 0, 0)),
        (32, UVec4::new(0, 1, 0, 0)),
        (63, UVec4::new(0, 1 << 31, 0, 0)),
        (64, UVec4::new(0, 0, 1, 0)),
        (100, UVec4::new(0, 0, 0, 1 << 4)),
        (127, UVec4::new(0, 0, 0, 1 << 31)),
    ];
    for (lane, v) in cases {
        assert_eq!(UVec4::from(SubgroupMask::lane(lane)), v, "lane {lane}");
        assert_eq!(
            SubgroupMask::from(v),
            SubgroupMask::lane(lane),
            "lane {lane}"
        );
    }
}

#[test]
fn a_ballot_lands_in_the_uvec4_component_of_its_lanes() {
    let sg = Subgroup::full(128).unwrap();
    let pred: Vec<bool> = (0..128).map(|l| l == 5 || l == 40 || l == 100).collect();
    let ballot = subgroup_ballot(&sg, &pred).unwrap();
    let v = UVec4::from(*ballot.get(0).unwrap());
    assert_eq!(v, UVec4::new(1 << 5, 1 << 8, 0, 1 << 4));
    assert_eq!(v.x.count_ones() + v.y.count_ones() + v.w.count_ones(), 3);
}

proptest! {
    #[test]
    fn uvec4_conversions_round_trip_and_agree_with_the_words(words in any::<[u32; 4]>()) {
        let v = UVec4::from_array(words);
        let m = SubgroupMask::from(v);
        prop_assert_eq!(m, SubgroupMask::from_words(words));
        prop_assert_eq!(UVec4::from(m), v);
        for lane in 0..128u32 {
            let component = v.to_array()[(lane / 32) as usize];
            prop_assert_eq!(m.contains(lane), (component >> (lane % 32)) & 1 == 1, "lane {}", lane);
        }
    }
}
