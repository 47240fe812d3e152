//! The size limits of a kernel (`front::limits` checks them when the
//! macro expands): how deep it nests, and how long a statement may be.

/// How deep brackets may nest in a kernel's tokens: 256, as in the shader
/// files `ballot check` reads. Each `(…)`, `[…]` and `{…}` is one level.
pub const MAX_BRACKETS: usize = 256;

/// How many operators one statement of a kernel may hold: 4096, as in the
/// shader files `ballot check` reads. A statement ends at `;` and at the
/// braces of a block; each operator character (`+`, `<`, `&&` is two, …)
/// and each `,` counts.
pub const MAX_STATEMENT_OPERATORS: usize = 4096;

/// How deep expressions and blocks may nest in a kernel: 64. Each
/// operator, call, cast, parenthesis and block is one level; an `if`, a
/// loop or a `{ … }` block counts its block only. So `a + b + c` is three
/// levels below its statement (the sums, then `a`), a statement in an `if`
/// in a loop is two below the loop's, and each `else` is one more level. The shaders nest at most about
/// twice as deep as the kernel (a loop gains an `if` that breaks, an
/// operation a helper call), which keeps them within naga's limits. Real
/// kernels nest less than 10 deep; a longer chain of operators can be split
/// with `let`.
pub const MAX_DEPTH: usize = 64;
