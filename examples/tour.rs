//! A tour of every subgroup operation on one simulated subgroup: the
//! ballot family, then votes, arithmetic, clustered reductions, shuffles
//! and quads.
//!
//! ```text
//! cargo run --example tour [SIZE]
//! ```
//!
//! The subgroup has SIZE lanes (default 16) of which a ragged set is active,
//! as after a divergent branch: every lane except multiples of 3 and the
//! last quarter. Each operation prints one column per active lane. Shuffles
//! and quads read another lane, which must be active, so they run on a full
//! subgroup of the same size. Last, the undefined cases print the
//! simulator's typed reports.

use std::process::ExitCode;

use ballot::prelude::*;
use ballot::{ArithOp, Quad, Scan};

fn main() -> ExitCode {
    let size = match std::env::args().nth(1).map(|s| s.parse::<u32>()) {
        None => 16,
        Some(Ok(size)) => size,
        Some(Err(err)) => {
            eprintln!("error: SIZE must be a number: {err}");
            return ExitCode::from(2);
        }
    };
    match tour(size) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

fn tour(size: u32) -> Result<(), SimError> {
    let active: SubgroupMask = (0..size)
        .filter(|l| l % 3 != 0 && *l < size - size / 4)
        .collect();
    let sg = Subgroup::new(size, active)?;
    println!("subgroup of {size} lanes, active {active:#}");
    println!("active as a ballot: {active}\n");

    let lanes: Vec<u32> = (0..size).collect();
    let even: Vec<bool> = lanes.iter().map(|l| l % 2 == 0).collect();
    let ballot = subgroup_ballot(&sg, &even)?;
    let value = vec![
        *ballot
            .active()
            .next()
            .map(|(_, m)| m)
            .unwrap_or(&SubgroupMask::EMPTY);
        size as usize
    ];

    row("lane", &PerLane::from_fn(&sg, |l| l));
    row(
        "p = lane is even",
        &PerLane::from_fn(&sg, |l| even[l as usize]),
    );
    println!("subgroupBallot(p) = {:#} in every active lane", value[0]);
    row(
        "subgroupInverseBallot",
        &subgroup_inverse_ballot(&sg, &value)?,
    );
    let index: Vec<u32> = lanes.iter().map(|l| (l + 1) % size).collect();
    row(
        "subgroupBallotBitExtract(.., lane+1)",
        &subgroup_ballot_bit_extract(&sg, &value, &index)?,
    );
    row(
        "subgroupBallotBitCount",
        &subgroup_ballot_bit_count(&sg, &value)?,
    );
    row(
        "subgroupBallotInclusiveBitCount",
        &subgroup_ballot_inclusive_bit_count(&sg, &value)?,
    );
    row(
        "subgroupBallotExclusiveBitCount",
        &subgroup_ballot_exclusive_bit_count(&sg, &value)?,
    );
    row(
        "subgroupBallotFindLSB",
        &subgroup_ballot_find_lsb(&sg, &value)?,
    );
    row(
        "subgroupBallotFindMSB",
        &subgroup_ballot_find_msb(&sg, &value)?,
    );
    row("subgroupElect", &subgroup_elect(&sg));
    row(
        "subgroupBroadcastFirst(lane*10)",
        &subgroup_broadcast_first(&sg, &tens(size))?,
    );
    let source = active.lowest().unwrap_or(0);
    row(
        &format!("subgroupBroadcast(lane*10, {source})"),
        &subgroup_broadcast(&sg, &tens(size), source)?,
    );
    for (name, masks) in [
        ("gl_SubgroupEqMask", subgroup_eq_mask(&sg)),
        ("gl_SubgroupGeMask", subgroup_ge_mask(&sg)),
        ("gl_SubgroupGtMask", subgroup_gt_mask(&sg)),
        ("gl_SubgroupLeMask", subgroup_le_mask(&sg)),
        ("gl_SubgroupLtMask", subgroup_lt_mask(&sg)),
    ] {
        let first = masks.active().next();
        if let Some((lane, mask)) = first {
            println!("{name:<42} lane {lane}: {mask:#}");
        }
    }

    family(&sg, &even)?;

    println!("\nundefined cases, reported rather than answered:");
    let empty = vec![SubgroupMask::EMPTY; size as usize];
    report(subgroup_ballot_find_lsb(&sg, &empty).map(drop));
    let beyond = vec![size; size as usize];
    report(subgroup_ballot_bit_extract(&sg, &value, &beyond).map(drop));
    let inactive = (0..size).find(|&l| !sg.is_active(l)).unwrap_or(size);
    report(subgroup_broadcast(&sg, &tens(size), inactive).map(drop));
    let differing: Vec<SubgroupMask> = lanes.iter().map(|&l| SubgroupMask::lane(l)).collect();
    report(subgroup_inverse_ballot(&sg, &differing).map(drop));
    // A source lane that is inactive (or, past the subgroup, absent).
    let ones = vec![1u32; size as usize];
    report(subgroup_shuffle_xor(&sg, &tens(size), &ones).map(drop));
    report(subgroup_quad_swap(&sg, &tens(size), Quad::Horizontal).map(drop));
    report(subgroup_clustered(&sg, ArithOp::IAdd, size * 2, &tens(size)).map(drop));
    Ok(())
}

/// Votes, arithmetic and clustered reductions on the ragged subgroup, then
/// shuffles and quads on a full one.
fn family(sg: &Subgroup, even: &[bool]) -> Result<(), SimError> {
    let size = sg.size().get();
    println!("\nvotes, arithmetic and clustered reductions, on the same lanes:");
    row("subgroupAll(p)", &subgroup_all(sg, even)?);
    row("subgroupAny(p)", &subgroup_any(sg, even)?);
    row(
        "subgroupAllEqual(lane*10)",
        &subgroup_all_equal(sg, &tens(size))?,
    );
    // Small values, so that products and sums stay readable.
    let v: Vec<u32> = (0..size).map(|l| l % 4 + 1).collect();
    row("v = lane % 4 + 1", &PerLane::from_fn(sg, |l| v[l as usize]));
    for (name, op) in [
        ("Add", ArithOp::IAdd),
        ("Mul", ArithOp::IMul),
        ("Min", ArithOp::UMin),
        ("Max", ArithOp::UMax),
        ("And", ArithOp::And),
        ("Or", ArithOp::Or),
        ("Xor", ArithOp::Xor),
    ] {
        for (scan, form) in [
            ("", Scan::Reduce),
            ("Inclusive", Scan::Inclusive),
            ("Exclusive", Scan::Exclusive),
        ] {
            row(
                &format!("subgroup{scan}{name}(v)"),
                &subgroup_arithmetic(sg, op, form, &v)?,
            );
        }
    }
    // f32 sums of halves are exact in any order, so every target agrees.
    let halves: Vec<f32> = (0..size).map(|l| l as f32 * 0.5).collect();
    row(
        "subgroupAdd(lane*0.5)",
        &subgroup_arithmetic(sg, ArithOp::FAdd, Scan::Reduce, &halves)?,
    );
    for cluster in [2, 4].into_iter().filter(|&c| c <= size) {
        row(
            &format!("subgroupClusteredAdd(v, {cluster})"),
            &subgroup_clustered(sg, ArithOp::IAdd, cluster, &v)?,
        );
    }

    if size < 4 {
        println!("\n(shuffles and quads are shown on subgroups of 4 lanes or more)");
        return Ok(());
    }
    let full = Subgroup::full(size)?;
    println!("\nshuffles and quads, on a full subgroup of {size} lanes:");
    let lane = |f: fn(u32, u32) -> u32| -> Vec<u32> { (0..size).map(|l| f(l, size)).collect() };
    row("lane", &PerLane::from_fn(&full, |l| l));
    row(
        "subgroupShuffle(lane*10, size-1-lane)",
        &subgroup_shuffle(&full, &tens(size), &lane(|l, n| n - 1 - l))?,
    );
    row(
        "subgroupShuffleXor(lane*10, 1)",
        &subgroup_shuffle_xor(&full, &tens(size), &lane(|_, _| 1))?,
    );
    // A delta of 0 where a delta of 1 would leave the subgroup.
    row(
        "subgroupShuffleUp(lane*10, lane>0)",
        &subgroup_shuffle_up(&full, &tens(size), &lane(|l, _| u32::from(l > 0)))?,
    );
    row(
        "subgroupShuffleDown(lane*10, lane<size-1)",
        &subgroup_shuffle_down(&full, &tens(size), &lane(|l, n| u32::from(l + 1 < n)))?,
    );
    row(
        "subgroupQuadBroadcast(lane*10, 2)",
        &subgroup_quad_broadcast(&full, &tens(size), 2)?,
    );
    for (name, quad) in [
        ("Horizontal", Quad::Horizontal),
        ("Vertical", Quad::Vertical),
        ("Diagonal", Quad::Diagonal),
    ] {
        row(
            &format!("subgroupQuadSwap{name}(lane*10)"),
            &subgroup_quad_swap(&full, &tens(size), quad)?,
        );
    }
    Ok(())
}

fn tens(size: u32) -> Vec<u32> {
    (0..size).map(|l| l * 10).collect()
}

/// Prints one value per active lane.
fn row<T: std::fmt::Display>(name: &str, values: &PerLane<T>) {
    let cells: Vec<String> = values.active().map(|(_, v)| format!("{v:>6}")).collect();
    println!("{name:<42} {}", cells.join(""));
}

fn report(result: Result<(), SimError>) {
    match result {
        Ok(()) => println!("  (defined)"),
        Err(err) => println!("  {err}"),
    }
}
