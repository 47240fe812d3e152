//! Instruction counts of the benchmarked shaders, without a GPU: the SPIR-V
//! that glslang makes of the `glsl` form against the SPIR-V that naga makes
//! of the `wgsl` form (through `ballot::cross`, naga's default options, so
//! without wgpu's runtime checks).

use ballot::prelude::*;
use ballot::primitives::{Primitive, PrimitiveOptions, PrimitiveShader};
use ballot_naga::cross::{self, CrossOutput, CrossTarget};
use ballot_runner::gpu::words_of;

use crate::ops;

/// The instructions inside functions: what runs, without the module's
/// declarations, types and decorations.
fn function_instructions(words: &[u32]) -> usize {
    const OP_FUNCTION: u32 = 54;
    const OP_FUNCTION_END: u32 = 56;
    let mut count = 0;
    let mut inside = false;
    // The header is five words; each instruction starts with its length in
    // the high half-word and its opcode in the low one.
    let mut at = 5;
    while at < words.len() {
        let (length, opcode) = ((words[at] >> 16) as usize, words[at] & 0xffff);
        match opcode {
            OP_FUNCTION => inside = true,
            OP_FUNCTION_END => inside = false,
            _ if inside => count += 1,
            _ => {}
        }
        at += length.max(1);
    }
    count
}

fn glsl_count(text: &str) -> Result<usize, String> {
    let bytes = ballot_naga::valid::glslang_spirv(text).map_err(|e| e.to_string())?;
    Ok(function_instructions(&words_of(&bytes)))
}

fn wgsl_count(text: &str) -> Result<usize, String> {
    match cross::compile(text, CrossTarget::SpirV).map_err(|e| e.to_string())? {
        CrossOutput::SpirV(words) => Ok(function_instructions(&words)),
        CrossOutput::Text(_) => Err("naga wrote text, not SPIR-V".to_string()),
    }
}

/// Prints the table, for subgroups (real or virtual) of `subgroup`.
pub fn run(subgroup: u32) -> Result<(), String> {
    println!("## SPIR-V instructions inside functions\n");
    println!("| shader | glsl (glslang) | wgsl (naga) | wgsl / glsl |");
    println!("|---|---|---|---|");
    let mut rows = Vec::new();
    for (op, glsl, wgsl) in ops::shaders(subgroup)? {
        rows.push((op.to_string(), glsl, wgsl));
    }
    let options = PrimitiveOptions {
        subgroup_size: Some(subgroup),
        ..PrimitiveOptions::default()
    };
    let primitive = |target| {
        PrimitiveShader::new(Primitive::Compact, target, &options)
            .map(|shader| shader.text().to_string())
            .map_err(|e| e.to_string())
    };
    rows.push((
        "compaction".to_string(),
        primitive(Target::Glsl)?,
        primitive(Target::Wgsl)?,
    ));
    for (name, glsl, wgsl) in rows {
        let (g, w) = (glsl_count(&glsl)?, wgsl_count(&wgsl)?);
        println!("| {name} | {g} | {w} | {:.2} |", w as f64 / g as f64);
    }
    println!();
    Ok(())
}
