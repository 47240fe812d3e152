//! `ballot::primitives` as an application calls them: ordered compaction
//! and an exclusive scan of a few million `u32`s on a `wgpu::Device`, with
//! hardware subgroups where the adapter has them and the fallback where it
//! has not (as in Firefox and Safari).
//!
//! ```text
//! cargo run -p ballot-runner --example device_primitives [COUNT]
//! ```
//!
//! Needs a Vulkan adapter (lavapipe counts; `BALLOT_ADAPTER` picks one by
//! name). Checks both results against `primitives::reference` and exits
//! with failure on any difference.

use std::process::ExitCode;
use std::time::Instant;

use ballot::primitives::{
    padded_words, reference, Compaction, ExclusiveScan, Keep, PrimitiveOptions, Workspace,
};
use ballot::Target;
use wgpu::util::DeviceExt;

fn main() -> ExitCode {
    let count: u32 = match std::env::args().nth(1).map(|a| a.parse()) {
        None => 4_000_000,
        Some(Ok(count)) => count,
        Some(Err(e)) => {
            eprintln!("usage: device_primitives [COUNT]: {e}");
            return ExitCode::from(2);
        }
    };
    match pollster::block_on(run(count)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(n: u32) -> Result<bool, Box<dyn std::error::Error>> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::VULKAN,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let wanted = std::env::var("BALLOT_ADAPTER").ok();
    let adapter = instance
        .enumerate_adapters(wgpu::Backends::VULKAN)
        .await
        .into_iter()
        .find(|a| {
            wanted
                .as_deref()
                .is_none_or(|name| a.get_info().name.contains(name))
        })
        .ok_or("no Vulkan adapter (install mesa-vulkan-drivers for lavapipe)")?;
    // Subgroups where the adapter has them; the emulation otherwise.
    let subgroups = adapter.features().contains(wgpu::Features::SUBGROUP);
    let (target, features) = if subgroups {
        (Target::Wgsl, wgpu::Features::SUBGROUP)
    } else {
        (Target::WgslNoSubgroup, wgpu::Features::empty())
    };
    let (device, queue) = adapter
        .request_device(&wgpu::DeviceDescriptor {
            required_features: features,
            required_limits: adapter.limits(),
            ..Default::default()
        })
        .await?;
    let info = adapter.get_info();
    let options = PrimitiveOptions {
        // The tile must allow for the smallest subgroups the device forms;
        // emulated ones take the target's measured size.
        subgroup_size: subgroups.then(|| info.subgroup_min_size.max(4)),
        ..PrimitiveOptions::default()
    };
    println!("{} ({target}), {n} elements", info.name);

    // The input: pseudo-random words, padded to whole vec4s.
    let mut x = 0x9e37_79b9u32;
    let keys: Vec<u32> = (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        })
        .collect();
    let mut padded = keys.clone();
    padded.resize(padded_words(n) as usize, 0);
    let input = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("keys"),
        contents: &bytes(&padded),
        usage: wgpu::BufferUsages::STORAGE,
    });
    let output = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("output"),
        size: u64::from(n.max(1)) * 4,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let workspace = Workspace::new(&device, n);

    // Keep the keys below a quarter of the range, in order.
    let compaction = Compaction::new(&device, target, &options)?;
    let keep = Keep::Below(u32::MAX / 4);
    let start = Instant::now();
    let mut encoder = device.create_command_encoder(&Default::default());
    compaction.encode(&device, &mut encoder, &workspace, n, keep, &input, &output)?;
    queue.submit([encoder.finish()]);
    let kept = workspace.read_count(&device, &queue)?;
    let got = read(&device, &queue, &output, kept as usize)?;
    let want = reference::compact(&keys, keep);
    println!(
        "compaction: kept {kept} of {n} in {:.1?} (with the read-back)",
        start.elapsed()
    );
    let mut ok = got == want;
    if !ok {
        eprintln!(
            "compaction differs from the reference ({} expected)",
            want.len()
        );
    }

    // The exclusive prefix sum of the same words, and their total.
    let scan = ExclusiveScan::new(&device, target, &options)?;
    let mut encoder = device.create_command_encoder(&Default::default());
    scan.encode(&device, &mut encoder, &workspace, n, &input, &output)?;
    queue.submit([encoder.finish()]);
    let total = workspace.read_count(&device, &queue)?;
    let sums = read(&device, &queue, &output, n as usize)?;
    let (want, want_total) = reference::exclusive_scan(&keys);
    println!("scan: total {total:#010x} (wrapping)");
    if sums != want || total != want_total {
        eprintln!("the scan differs from the reference");
        ok = false;
    }
    println!(
        "{}",
        if ok {
            "both match the reference"
        } else {
            "FAILED"
        }
    );
    Ok(ok)
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The first `words` words of `buffer`.
fn read(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffer: &wgpu::Buffer,
    words: usize,
) -> Result<Vec<u32>, Box<dyn std::error::Error>> {
    let size = (words.max(1) * 4) as u64;
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("read-back"),
        size,
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, size);
    queue.submit([encoder.finish()]);
    let (send, receive) = std::sync::mpsc::channel();
    staging.slice(..).map_async(wgpu::MapMode::Read, move |r| {
        let _ = send.send(r);
    });
    device.poll(wgpu::PollType::wait_indefinitely())?;
    receive.recv()??;
    let view = staging.slice(..).get_mapped_range()?;
    let out = view
        .chunks_exact(4)
        .take(words)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    drop(view);
    staging.unmap();
    Ok(out)
}
