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
//! The second shader's declarations take their types from naga's reading
//! of the shader: a sum with a call, an atomic's result, a `var` and a
//! vector, none with a type written (ggml's `ssm_scan.wgsl` declares
//! `let reduce_idx = reduce_base(t) + tid;` after such a `return`). Each
//! initialiser runs once where the invocation is active: its atomic slot
//! holds 1, and the slots of the invocations that returned hold 0.
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

const TYPED_BY_NAGA: &str = "@group(0) @binding(0) var<storage, read_write> words: array<u32>;
var<workgroup> slots: array<atomic<u32>, 64>;
fn base(t: u32) -> u32 {
    return t * 2u;
}
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    if (i >= 45u) { return; }
    let s = base(i) + 1u;
    let old = atomicAdd(&slots[i], 1u) + 7u;
    var v = base(i) * 3u;
    let c = vec2(base(i), 4u);
    let b = subgroupBallot(s % 4u == 1u);
    words[i * 4u] = s + c.y;
    words[i * 4u + 1u] = subgroupBallotBitCount(b);
    words[i * 4u + 2u] = old + v;
    let returned = select(0u, atomicLoad(&slots[(i + 45u) % 64u]), i < 19u);
    words[i * 4u + 3u] = atomicLoad(&slots[i]) + 10u * returned;
}
";

/// The words invocation `i` writes in subgroups of `v`: `s + c.y` is
/// 2i + 1 + 4; the ballot counts the members below 45 whose 2j + 1 is 1
/// modulo 4, the even ones; `old + v` is 7 + 6i; its own slot holds 1, and
/// those of the invocations that returned 0.
fn expected_typed(i: u32, v: u32) -> [u32; 4] {
    if i >= 45 {
        return [UNWRITTEN; 4];
    }
    let base = i - i % v;
    let even = (base..base + v)
        .filter(|&j| j < 45 && j.is_multiple_of(2))
        .count() as u32;
    [2 * i + 5, even, 7 + 6 * i, 1]
}

#[test]
fn untyped_declarations_take_naga_s_types_and_run_once_where_active() {
    assert_linked_agree(
        "declarations typed by naga",
        (TYPED_BY_NAGA, "typed_by_naga.wgsl"),
        [Target::WgslNoSubgroup, Target::Wgsl],
        INVOCATIONS,
        expected_typed,
    );
}
