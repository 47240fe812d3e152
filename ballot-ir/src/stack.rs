//! Enough stack for the recursive passes, whatever thread calls them.
//!
//! The front end, the writers and the interpreter recurse once per level
//! of a kernel's nesting, and naga once per bracket and per operand of an
//! operator chain. `front::limits` bounds both; this module makes
//! sure the stack holds the deepest kernel those limits let through, even
//! where a frame is large: in a crate built at opt-level 0 (every user's
//! dependencies in a default dev profile) a frame takes several times the
//! space it takes optimised. A thread's default stack (2 MiB for spawned
//! threads, 8 MiB for rustc's) is not enough for that, and an overflow is
//! an abort, with no message.

/// The stack the passes run on: 256 MiB of address space, committed only
/// as deep as the recursion goes.
pub const STACK_BYTES: usize = 256 << 20;

/// Below this much stack left, [`deep`] moves to a new stack of
/// [`STACK_BYTES`]: more than the deepest kernel within the limits takes.
pub const RED_ZONE_BYTES: usize = 64 << 20;

/// Runs `f` with at least [`RED_ZONE_BYTES`] of stack: on this stack if it
/// has that much left, on a new one of [`STACK_BYTES`] (on this thread)
/// otherwise.
pub fn deep<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE_BYTES, STACK_BYTES, f)
}

/// A thread builder whose threads have a [`STACK_BYTES`] stack, for the
/// passes that run in parallel.
pub fn thread(name: &str) -> std::thread::Builder {
    std::thread::Builder::new()
        .name(name.to_owned())
        .stack_size(STACK_BYTES)
}
