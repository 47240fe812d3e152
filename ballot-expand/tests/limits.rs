//! The expansion of kernels at and past the front end's limits
//! (`ballot_front::limits`): at them, any thread's stack is enough
//! and every shader is valid; past them, one error naming the limit, next
//! to a stub of the kernel's API.

use ballot_expand as expand;
use ballot_front::limits::{MAX_BRACKETS, MAX_DEPTH, MAX_STATEMENT_OPERATORS};
use proc_macro2::TokenStream;

fn expand_text(source: &str) -> String {
    let item: TokenStream = source.parse().expect("Rust tokens");
    let out = expand::kernel(TokenStream::new(), item);
    // The output nests as deep as the kernel: printing and dropping it
    // recurse too, as its conversion for rustc does in the macro's shim,
    // which runs it on a deep stack as well.
    ballot_ir::stack::deep(move || out.to_string())
}

/// Runs `f` on a thread with a 256 KiB stack: far less than the
/// recursion over a deep kernel takes, so only the expansion's own stack
/// handling can make it pass.
fn on_a_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(f)
        .expect("a thread")
        .join()
        .expect("no panic")
}

fn nest(open: &str, inner: &str, close: &str, levels: usize) -> String {
    format!("{}{inner}{}", open.repeat(levels), close.repeat(levels))
}

/// `leaves` terms `(x ^ k)` summed as a balanced tree: many operators,
/// little depth.
fn balanced(leaves: usize, first: usize) -> String {
    if leaves == 1 {
        return format!("(x ^ {first}u32)");
    }
    let half = leaves / 2;
    format!(
        "({} + {})",
        balanced(half, first),
        balanced(leaves - half, first + half)
    )
}

/// Kernels exactly [`MAX_DEPTH`] deep, in each way a kernel can nest
/// (the body's block is the first level), and one whose statement has
/// almost [`MAX_STATEMENT_OPERATORS`] operators.
fn at_the_limits() -> Vec<(&'static str, String)> {
    let d = MAX_DEPTH;
    vec![
        (
            // The block, d - 2 sums, a term.
            "a chain of operators",
            format!(
                "fn chain(x: u32) -> u32 {{ {} }}",
                vec!["x"; d - 1].join(" + ")
            ),
        ),
        (
            // The block, then a parenthesis and a sum per level, `x`.
            "parentheses",
            format!(
                "fn parens(x: u32) -> u32 {{ {} }}",
                nest("(", "x", " + 1u32)", (d - 2) / 2)
            ),
        ),
        (
            "calls",
            format!(
                "fn calls(x: u32) -> u32 {{ {} }}",
                nest("subgroup_broadcast_first(", "x", ")", d - 2)
            ),
        ),
        (
            // The body, a block per `if`, then the innermost statement five
            // deeper (the `+=`, the count, the ballot, the `>`, `x`).
            "ifs",
            format!(
                "fn ifs(x: u32) -> u32 {{ let mut n = 0u32; {} n }}",
                nest(
                    "if x > 1u32 { ",
                    "n += subgroup_ballot_bit_count(subgroup_ballot(x > 2u32));",
                    "}",
                    d - 6
                )
            ),
        ),
        (
            "loops",
            format!(
                "fn loops(x: u32) -> u32 {{ let mut n = 0u32; {} n }}",
                nest(
                    "for i in 0u32..2u32 { if x > n { break; } ",
                    "n += subgroup_ballot_bit_count(subgroup_ballot(x > i));",
                    "}",
                    d - 6
                )
            ),
        ),
        (
            "operators",
            format!(
                "fn operators(x: u32) -> u32 {{ {} }}",
                balanced(MAX_STATEMENT_OPERATORS / 4, 0)
            ),
        ),
    ]
}

#[test]
fn kernels_at_the_limits_expand_with_valid_shaders_on_a_small_stack() {
    for (what, source) in at_the_limits() {
        let item: syn::ItemFn = syn::parse_str(&source).unwrap();
        assert!(
            ballot_front::limits::check_depth(&item).is_ok(),
            "{what} is within MAX_DEPTH"
        );
        let out = on_a_small_stack(move || expand_text(&source));
        assert!(
            !out.contains("compile_error"),
            "{what}: {}",
            &out[..out.len().min(3000)]
        );
        assert!(out.contains("fn __simd"), "{what}");
    }
}

#[test]
fn past_a_limit_one_error_names_it_and_the_api_stays() {
    let brackets = format!(
        "pub fn deep(x: u32) -> u32 {{ {} }}",
        nest("(", "x", ")", MAX_BRACKETS * 40)
    );
    let operators = format!(
        "fn operators(x: u32) -> u32 {{ {} }}",
        balanced(MAX_STATEMENT_OPERATORS, 0)
    );
    let depth = format!(
        "fn chain(x: u32) -> u32 {{ {} }}",
        vec!["x"; MAX_DEPTH].join(" + ")
    );
    for (source, limit) in [
        (brackets, "MAX_BRACKETS"),
        (operators, "MAX_STATEMENT_OPERATORS"),
        (depth, "MAX_DEPTH"),
    ] {
        let out = on_a_small_stack(move || expand_text(&source));
        assert_eq!(out.matches("compile_error").count(), 1, "{limit}: {out}");
        assert!(out.contains(limit), "{out}");
        // The stub keeps the kernel's API, so that its uses add no errors.
        assert!(out.contains("fn run"), "{limit}");
        assert!(out.contains("fn run_dispatch"), "{limit}");
    }
}
