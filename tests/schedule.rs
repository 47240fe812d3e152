//! Runs under `Schedule::Split`: the partitions of diverged collectives that
//! WGSL and independent thread scheduling allow (docs/reconvergence.md).
//! Expected values follow from the models: converged collectives are never
//! split, and a split collective sees only its own group, which holds the
//! lane, lies within the lanes that reached it, and is the same for every
//! lane in it.

use ballot::prelude::*;

fn full(size: u32) -> Subgroup {
    Subgroup::full(size).unwrap()
}

fn split(size: u32, seed: u64) -> Subgroup {
    full(size).with_schedule(Schedule::Split {
        model: Model::Wgsl,
        seed,
    })
}

/// Converged: every lane runs the ballot, before any branch.
#[ballot::kernel]
fn slot(keep: bool) -> u32 {
    subgroup_ballot_exclusive_bit_count(subgroup_ballot(keep))
}

/// Diverged: each arm ballots its own lanes.
#[ballot::kernel]
fn arm_ballot(p: bool) -> SubgroupMask {
    if p {
        subgroup_ballot(true)
    } else {
        subgroup_ballot(true)
    }
}

/// Diverged: the branch elects its leaders.
#[ballot::kernel]
fn arm_elect(p: bool) -> bool {
    let mut leader = false;
    if p {
        leader = subgroup_elect();
    }
    leader
}

fn pattern(size: u32) -> Vec<bool> {
    (0..size).map(|l| l % 3 != 1).collect()
}

#[test]
fn converged_collectives_are_never_split() {
    let keep = pattern(16);
    let reference = slot::run(&full(16), &keep).unwrap();
    for seed in 0..200 {
        assert_eq!(
            slot::run(&split(16, seed), &keep).unwrap(),
            reference,
            "seed {seed}"
        );
    }
}

#[test]
fn a_split_ballot_sees_its_own_group_within_its_arm() {
    let p = pattern(16);
    let arm = |took: bool| {
        SubgroupMask::from_bits((0..16).filter(|&l| p[l] == took).fold(0, |m, l| m | 1 << l))
    };
    let reference = arm_ballot::run(&full(16), &p).unwrap();
    let mut differed = 0;
    for seed in 0..200 {
        let out = arm_ballot::run(&split(16, seed), &p).unwrap();
        for lane in 0..16u32 {
            let mine = *out.get(lane).unwrap();
            let within = arm(p[lane as usize]);
            assert!(
                mine.contains(lane),
                "seed {seed}: lane {lane} not in its own ballot {mine:?}"
            );
            assert_eq!(
                mine & within,
                mine,
                "seed {seed}: lane {lane} sees {mine:?} beyond its arm"
            );
            // Every lane of the group saw the same group.
            for other in mine.iter() {
                assert_eq!(
                    out.get(other),
                    Some(&mine),
                    "seed {seed}: lanes {lane} and {other}"
                );
            }
        }
        if out != reference {
            differed += 1;
        }
    }
    assert!(differed > 0, "no seed of 200 split a diverged ballot");
}

#[test]
fn each_group_of_a_split_branch_elects_one_leader() {
    let p = pattern(16);
    let reference = arm_elect::run(&full(16), &p).unwrap();
    let leaders = |out: &PerLane<bool>| (0..16).filter(|&l| out.get(l) == Some(&true)).count();
    // Maximal reconvergence: one leader for the whole branch.
    assert_eq!(leaders(&reference), 1);
    let mut most = 0;
    for seed in 0..200 {
        let out = arm_elect::run(&split(16, seed), &p).unwrap();
        let n = leaders(&out);
        assert!(n >= 1, "seed {seed}: no leader");
        for lane in 0..16u32 {
            if out.get(lane) == Some(&true) {
                assert!(
                    p[lane as usize],
                    "seed {seed}: lane {lane} outside the branch leads"
                );
            }
        }
        most = most.max(n);
    }
    assert!(
        most > 1,
        "no seed of 200 split the branch into several groups"
    );
}

#[test]
fn the_same_seed_gives_the_same_run() {
    let p = pattern(16);
    for seed in [0, 1, 42, u64::MAX] {
        let a = arm_ballot::run(&split(16, seed), &p).unwrap();
        let b = arm_ballot::run(&split(16, seed), &p).unwrap();
        assert_eq!(a, b, "seed {seed}");
    }
}

#[test]
fn a_dispatch_hands_its_schedule_to_every_subgroup() {
    let dispatch = Dispatch::new([32, 1, 1], 8, [1, 1, 1])
        .unwrap()
        .with_schedule(Schedule::Split {
            model: Model::Wgsl,
            seed: 7,
        });
    for sg in dispatch.subgroups() {
        assert_eq!(
            sg.subgroup.schedule(),
            Schedule::Split {
                model: Model::Wgsl,
                seed: 7,
            }
        );
    }
}
