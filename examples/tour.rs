//! A tour of every ballot operation on one simulated subgroup.
//!
//! ```text
//! cargo run --example tour [SIZE]
//! ```
//!
//! The subgroup has SIZE lanes (default 16) of which a ragged set is active,
//! as after a divergent branch: every lane except multiples of 3 and the
//! last quarter. Each operation prints one column per active lane, then the
//! undefined cases print the simulator's typed reports.

use std::process::ExitCode;

use ballot::prelude::*;

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
            println!("{name:<38} lane {lane}: {mask:#}");
        }
    }

    println!("\nundefined cases, reported rather than answered:");
    let empty = vec![SubgroupMask::EMPTY; size as usize];
    report(subgroup_ballot_find_lsb(&sg, &empty).map(drop));
    let beyond = vec![size; size as usize];
    report(subgroup_ballot_bit_extract(&sg, &value, &beyond).map(drop));
    let inactive = (0..size).find(|&l| !sg.is_active(l)).unwrap_or(size);
    report(subgroup_broadcast(&sg, &tens(size), inactive).map(drop));
    let differing: Vec<SubgroupMask> = lanes.iter().map(|&l| SubgroupMask::lane(l)).collect();
    report(subgroup_inverse_ballot(&sg, &differing).map(drop));
    Ok(())
}

fn tens(size: u32) -> Vec<u32> {
    (0..size).map(|l| l * 10).collect()
}

/// Prints one value per active lane.
fn row<T: std::fmt::Display>(name: &str, values: &PerLane<T>) {
    let cells: Vec<String> = values.active().map(|(_, v)| format!("{v:>6}")).collect();
    println!("{name:<38} {}", cells.join(""));
}

fn report(result: Result<(), SimError>) {
    match result {
        Ok(()) => println!("  (defined)"),
        Err(err) => println!("  {err}"),
    }
}
