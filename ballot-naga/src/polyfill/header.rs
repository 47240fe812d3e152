//! The comment each library opens with: how to include it, the init
//! call ([`ballot_shader::back::Init`]), the names, and what the undefined cases
//! return.

use ballot_shader::back::{ShaderOptions, Target};

/// The library's opening comment: target, inclusion, init call, calling
/// rules, names and the values of undefined cases.
/// `target`'s init call as the header documents it ([`ballot_shader::back::Init::documented`]).
pub(super) fn init_call(target: Target) -> String {
    target.init().map_or_else(String::new, |i| i.documented())
}

pub(super) fn header(target: Target, options: &ShaderOptions) -> String {
    let s = options.subgroup_size;
    let n = options.invocations_per_workgroup();
    let [x, y, z] = options.workgroup_size;
    let mut lines = vec![format!(
        "ballot polyfill library for target `{target}` ({}).",
        target.requirements()
    )];
    let undefined = "Where the spec leaves a result undefined, these functions return: \
        FindLSB / FindMSB with no bit below the subgroup size: 0xFFFFFFFF; BitExtract \
        at or above the size: false; InverseBallot of a value that \
        differs across lanes: each lane's own bit";
    let emulated_undefined = "Broadcast, Shuffle, ShuffleXor, ShuffleUp, ShuffleDown, \
        QuadBroadcast and the quad swaps from an inactive lane or one outside the \
        subgroup, and BroadcastFirst with no active lane: the caller's own value. \
        Arithmetic on float rounds in the emulation's order (a tree of log2(size) \
        levels).";
    let emulated_rules = format!(
        "Subgroups of {s} invocations are emulated in workgroup memory, for a workgroup \
         of {n} invocations (e.g. {x}x{y}x{z}; the shader's workgroup must have exactly \
         that many: invocations past them get failure values, all bits set (0xFFFFFFFF) \
         from the functions that return masks and numbers (-1 from int ones, a NaN \
         from float ones), false from the others): \
         virtual subgroup k is the invocations with local invocation index \
         in k * {s} .. k * {s} + {s}; the last is partial if {s} does not divide {n}. \
         Ballot, Elect, Broadcast, BroadcastFirst, the votes, arithmetic, shuffles and \
         quads take `on` first, whether the invocation is active, and hold barriers: \
         EVERY invocation of the workgroup must \
         call them, in workgroup-uniform control flow, passing on = false where it would \
         not have called them. The other functions are lane-local: call them anywhere."
    );
    match target {
        Target::Glsl => lines.extend([
            "Include: paste this text right after your shader's `#version` line; its \
             #extension lines must precede all other code."
                .to_string(),
            "No init call: GL_KHR_shader_subgroup_basic and _ballot provide every \
             operation under its own name (subgroupBallotFindMSB, gl_SubgroupEqMask, …), \
             callable anywhere. Their undefined cases are the driver's."
                .to_string(),
        ]),
        Target::GlslNoSubgroup => lines.extend([
            "Include: paste this text right after your shader's `#version 450` line; it \
             needs no extension."
                .to_string(),
            format!(
                "Init: call {} once, at the top of main(), in every invocation.",
                init_call(target)
            ),
            emulated_rules,
            "Names: `ballot` + the GLSL name, capitalised (ballotSubgroupBallot, \
             ballotSubgroupBallotFindMSB, ballotSubgroupEqMask(), …): glslang declares \
             the extension's names even where it is not enabled, and rejects user \
             functions of the same signature. Broadcasts take uint or uvec4 values; \
             AllEqual, shuffles and quads bool, uint, int, float or uvec4; arithmetic \
             uint, int or float (And, Or, Xor also bool, not float)."
                .to_string(),
            format!("{undefined}; {emulated_undefined}"),
        ]),
        Target::Wgsl | Target::WgslWeb => {
            lines.push(if target == Target::WgslWeb {
                "Include: concatenate this text before your shader's code: its `enable \
                 subgroups;` and `diagnostic(off, subgroup_uniformity);` directives must \
                 open the module (the diagnostic lets these functions run in divergent \
                 control flow). Don't repeat them in your own code."
                    .to_string()
            } else {
                "Include: concatenate this text before (or after) your shader's code. \
                 naga rejects `enable subgroups;`: enable wgpu's Features::SUBGROUP instead."
                    .to_string()
            });
            lines.extend([
                format!(
                    "Init: call {} once, at the top of the entry point, with \
                     @builtin(subgroup_invocation_id) and @builtin(subgroup_size): WGSL has \
                     them only as entry-point built-ins, and the functions read them from \
                     private variables. Then call the functions from anywhere. (naga rejects \
                     those built-ins in a multi-dimensional workgroup: flatten it, and use \
                     local_invocation_index.)",
                    init_call(target)
                ),
                "Names: the GLSL ones (subgroupBallotFindMSB, subgroupElect(), …); built-in \
                 variables become functions without gl_ (subgroupEqMask()). subgroupBallot, \
                 the broadcasts, votes, shuffles, quads, reductions and the scans of Add \
                 and Mul are WGSL's own, so their undefined cases are the driver's. WGSL \
                 lacks subgroupAllEqual and the other scans: they take u32 values, and \
                 others under a suffix (subgroupAllEqualF32, subgroupInclusiveMinI32, …)."
                    .to_string(),
                format!("{undefined}."),
            ]);
        }
        Target::WgslNoSubgroup => lines.extend([
            "Include: concatenate this text before (or after) your shader's code. It needs \
             no subgroup support: it runs on every WebGPU implementation."
                .to_string(),
            format!(
                "Init: call {} once, at the top of the entry point, in every invocation, \
                 with @builtin(local_invocation_index).",
                init_call(target)
            ),
            emulated_rules,
            "Names: the GLSL ones (subgroupBallot, subgroupBallotFindMSB, …), shadowing \
             WGSL's built-ins; built-in variables become functions without gl_ \
             (subgroupEqMask()). Broadcasts take u32 values, and vec4<u32> ones under \
             subgroupBroadcastVec4 / subgroupBroadcastFirstVec4; Broadcast's id need not \
             be a constant. The votes take bool; AllEqual, arithmetic, shuffles and quads \
             take u32 under the GLSL name and the other types under a suffix: I32, F32, \
             Vec4 (AllEqual also Bool; Min and Max of u32, i32, f32; And, Or, Xor of u32, \
             i32): subgroupAddF32, subgroupShuffleXorVec4."
                .to_string(),
            format!("{undefined}; {emulated_undefined}"),
        ]),
    }
    if target != Target::Glsl {
        lines.push("Names starting with ballot_ are the library's own.".to_string());
    }
    let mut out = String::new();
    for (i, paragraph) in lines.iter().enumerate() {
        if i > 0 {
            out.push_str("//\n");
        }
        wrap(&mut out, paragraph);
    }
    out
}

/// Writes `text` as `//` comment lines of at most 80 columns.
fn wrap(out: &mut String, text: &str) {
    let mut line = String::from("//");
    for word in text.split_whitespace() {
        if line.len() + 1 + word.len() > 80 && line.len() > 2 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("//");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
}
