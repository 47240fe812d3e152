//! A WGSL `let` without a type whose initialiser calls the shader's own
//! function, after an early `return`, in a hand-written shader linked for
//! `wgsl-no-subgroup` at virtual sizes 4 to 32 (and for `wgsl` at the
//! adapter's size) and run on the Vulkan adapter.
//!
//! Without subgroups the if-conversion evaluates such an initialiser apart
//! from its declaration, under the invocation's activity, as the function
//! may write memory: the declaration takes the function's declared return
//! type. Here `bump` counts its calls in a private variable, so each
//! invocation that reaches it (those below 45) calls it once and writes
//! `n = i + 100`, the count of its virtual subgroup's members below 45
//! whose `n` is even (the ballot after the `let`), and 1 for `bump`'s calls.
//!
//! Without an adapter the test says why and passes, unless
//! `BALLOT_REQUIRE_GPU=1`.

use ballot_runner::job::UNWRITTEN;
use ballot_shader::back::Target;

use crate::common::assert_linked_agree;

const WGSL: &str = "@group(0) @binding(0) var<storage, read_write> words: array<u32>;
var<private> calls: u32;
fn bump(x: u32) -> u32 {
    calls += 1u;
    return x + 100u;
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    if (i >= 45u) { return; }
    let n = bump(i);
    let b = subgroupBallot(n % 2u == 0u);
    words[i * 3u] = n;
    words[i * 3u + 1u] = subgroupBallotBitCount(b);
    words[i * 3u + 2u] = calls;
}
";

const INVOCATIONS: u32 = 64;

/// The words invocation `i` writes in subgroups of `v` (module docs).
fn expected(i: u32, v: u32) -> [u32; 3] {
    if i >= 45 {
        return [UNWRITTEN; 3];
    }
    let base = i - i % v;
    let even = (base..base + v)
        .filter(|&j| j < 45 && (j + 100).is_multiple_of(2))
        .count() as u32;
    [i + 100, even, 1]
}

#[test]
fn the_let_takes_the_function_s_return_type_and_runs_once_where_active() {
    assert_linked_agree(
        "own calls",
        (WGSL, "own_calls.wgsl"),
        [Target::WgslNoSubgroup, Target::Wgsl],
        INVOCATIONS,
        expected,
    );
}
