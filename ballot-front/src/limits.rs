//! The size limits of a kernel: how deep it nests, and how long a
//! statement may be.
//!
//! Every pass over a kernel recurses along its nesting: syn's parser, the
//! lowering, the writers, and naga on the emitted text, whose front ends
//! recurse once per bracket and once per operand of an operator chain
//! (`ballot_naga::check` says more). naga's WGSL parser also stops at 200
//! nested expressions and statements, and at 127 nested braces (WGSL's own
//! limit). So a kernel is checked twice:
//! - [`check_tokens`], before anything parses it: brackets at most
//!   [`MAX_BRACKETS`] deep and statements of at most
//!   [`MAX_STATEMENT_OPERATORS`] operators, which bounds syn's recursion;
//! - [`check_depth`], on the parsed function: expressions and blocks at most
//!   [`MAX_DEPTH`] deep, which keeps every emitted shader within naga's
//!   limits.
//!
//! The passes run on stacks sized for these limits ([`ballot_ir::stack`]), so a
//! kernel within them cannot overflow one, and a kernel beyond them gets
//! one error at the token that crossed the limit, naming it, instead of a
//! crash of the compiler or an invalid shader.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::spanned::Spanned as _;
use syn::visit::{self, Visit};

pub use ballot_ir::limits::{MAX_BRACKETS, MAX_DEPTH, MAX_STATEMENT_OPERATORS};

/// Checks `tokens` against [`MAX_BRACKETS`] and [`MAX_STATEMENT_OPERATORS`]:
/// the first token past a limit gets the error. Walks with a stack of its
/// own, so any input is safe to check.
pub fn check_tokens(tokens: TokenStream) -> syn::Result<()> {
    // One frame per open group: the tokens after it, and, for a block, the
    // operator count of the statement it interrupted. A block's statements
    // are counted on their own; operators inside `(…)` and `[…]` belong to
    // the statement around them.
    let mut stack: Vec<(proc_macro2::token_stream::IntoIter, Option<usize>)> = Vec::new();
    let mut current = tokens.into_iter();
    let mut operators = 0usize;
    // Whether the last token closed a block: an item (`fn f() { … }`, a
    // `mod`) or a statement (`if c { … }`) may end there without a `;`,
    // so what follows is another one unless it continues the expression
    // (`as`, `else`, an operator). Counting on would add up the `->` of
    // every function of a file.
    let mut after_block = false;
    loop {
        let Some(token) = current.next() else {
            let Some((outer, saved)) = stack.pop() else {
                return Ok(());
            };
            current = outer;
            if let Some(saved) = saved {
                operators = saved;
                after_block = true;
            }
            continue;
        };
        if std::mem::take(&mut after_block) && starts_anew(&token) {
            operators = 0;
        }
        match token {
            TokenTree::Group(group) => {
                if stack.len() >= MAX_BRACKETS {
                    return Err(brackets(group.span_open()));
                }
                let saved =
                    (group.delimiter() == Delimiter::Brace).then(|| std::mem::take(&mut operators));
                let inner = group.stream().into_iter();
                stack.push((std::mem::replace(&mut current, inner), saved));
            }
            TokenTree::Punct(punct) if punct.as_char() == ';' => operators = 0,
            TokenTree::Punct(punct) => {
                operators += 1;
                if operators > MAX_STATEMENT_OPERATORS {
                    return Err(too_many_operators(punct.span()));
                }
            }
            TokenTree::Ident(_) | TokenTree::Literal(_) => {}
        }
    }
}

/// Whether `token`, right after a block, begins another item or
/// statement: a word other than `as` and `else`, or an attribute's `#`.
fn starts_anew(token: &TokenTree) -> bool {
    match token {
        TokenTree::Ident(word) => word != "as" && word != "else",
        TokenTree::Punct(punct) => punct.as_char() == '#',
        TokenTree::Group(_) | TokenTree::Literal(_) => false,
    }
}

fn brackets(span: Span) -> syn::Error {
    syn::Error::new(
        span,
        format!(
            "brackets nest more than {MAX_BRACKETS} deep here; a kernel allows at most \
             {MAX_BRACKETS} (`ballot::limits::MAX_BRACKETS`), and at most {MAX_DEPTH} levels \
             of expressions and blocks (`ballot::limits::MAX_DEPTH`)"
        ),
    )
}

fn too_many_operators(span: Span) -> syn::Error {
    syn::Error::new(
        span,
        format!(
            "this statement has more than {MAX_STATEMENT_OPERATORS} operators; a kernel \
             allows at most {MAX_STATEMENT_OPERATORS} per statement \
             (`ballot::limits::MAX_STATEMENT_OPERATORS`): split it with `let` bindings"
        ),
    )
}

/// Checks `item` against [`MAX_DEPTH`]: the first expression or block
/// past it gets the error.
pub fn check_depth(item: &syn::ItemFn) -> syn::Result<()> {
    let mut walk = Depth {
        depth: 0,
        error: None,
    };
    walk.visit_block(&item.block);
    walk.error.map_or(Ok(()), Err)
}

struct Depth {
    depth: usize,
    error: Option<syn::Error>,
}

impl Depth {
    /// Walks `node` one level deeper, unless that is past the limit.
    fn level(&mut self, span: Span, walk: impl FnOnce(&mut Self)) {
        if self.error.is_some() {
            return;
        }
        if self.depth >= MAX_DEPTH {
            self.error = Some(too_deep(span));
            return;
        }
        self.depth += 1;
        walk(self);
        self.depth -= 1;
    }
}

impl<'ast> Visit<'ast> for Depth {
    fn visit_expr(&mut self, e: &'ast syn::Expr) {
        // A construct around a block is as deep as its block.
        let wraps_block = matches!(
            e,
            syn::Expr::If(_)
                | syn::Expr::While(_)
                | syn::Expr::ForLoop(_)
                | syn::Expr::Loop(_)
                | syn::Expr::Block(_)
                | syn::Expr::Unsafe(_)
        );
        if wraps_block {
            visit::visit_expr(self, e);
        } else {
            self.level(e.span(), |this| visit::visit_expr(this, e));
        }
    }

    fn visit_expr_if(&mut self, e: &'ast syn::ExprIf) {
        self.visit_expr(&e.cond);
        self.visit_block(&e.then_branch);
        // An `else if` nests in the shaders, as `else { if … }`.
        if let Some((_, otherwise)) = &e.else_branch {
            self.level(otherwise.span(), |this| this.visit_expr(otherwise));
        }
    }

    fn visit_block(&mut self, b: &'ast syn::Block) {
        self.level(b.brace_token.span.open(), |this| {
            visit::visit_block(this, b)
        });
    }
}

fn too_deep(span: Span) -> syn::Error {
    syn::Error::new(
        span,
        format!(
            "expressions and blocks nest more than {MAX_DEPTH} deep here; a kernel allows \
             at most {MAX_DEPTH} (`ballot::limits::MAX_DEPTH`), which keeps its shaders \
             within naga's limits: split the expression with `let` bindings, or move the \
             inner part into a kernel of its own"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> TokenStream {
        text.parse().expect("tokens")
    }

    fn parens(depth: usize) -> String {
        format!(
            "fn f() -> u32 {{ {}1u32{} }}",
            "(".repeat(depth),
            ")".repeat(depth)
        )
    }

    #[test]
    fn brackets_up_to_the_limit_pass_and_one_more_level_fails() {
        // The body's braces are one level, the parentheses the rest.
        assert!(check_tokens(tokens(&parens(MAX_BRACKETS - 1))).is_ok());
        let err = check_tokens(tokens(&parens(MAX_BRACKETS))).unwrap_err();
        assert!(err.to_string().contains("nest more than 256 deep"), "{err}");
        assert!(err.to_string().contains("MAX_BRACKETS"), "{err}");
        // Far past the limit: still one error, and no recursion to overflow.
        assert!(check_tokens(tokens(&parens(100_000))).is_err());
    }

    fn depth(text: &str) -> syn::Result<()> {
        check_depth(&syn::parse_str(text).expect("a function"))
    }

    #[test]
    fn depth_counts_expressions_and_blocks_not_the_constructs_around_blocks() {
        // Body block 1, the sums 2..=n, `x` one more: n - 1 sums and the
        // block make n + 1 levels for a chain of n terms.
        let chain = |n: usize| vec!["x"; n].join(" + ");
        assert!(depth(&format!(
            "fn f(x: u32) -> u32 {{ {} }}",
            chain(MAX_DEPTH - 1)
        ))
        .is_ok());
        let err = depth(&format!("fn f(x: u32) -> u32 {{ {} }}", chain(MAX_DEPTH))).unwrap_err();
        assert!(err.to_string().contains("MAX_DEPTH"), "{err}");
        // `if`s: one level each (their blocks), plus the innermost `x`.
        let ifs = |n: usize| {
            format!(
                "fn f(x: u32) -> u32 {{ {} x {} }}",
                "if true { ".repeat(n),
                "} else { 0u32 }".repeat(n)
            )
        };
        // The innermost `else { 0u32 }` is the deepest: its `else`, its
        // block, the literal.
        assert!(depth(&ifs(MAX_DEPTH - 3)).is_ok());
        assert!(depth(&ifs(MAX_DEPTH - 2)).is_err());
        assert!(depth(&ifs(MAX_DEPTH)).is_err());
    }

    #[test]
    fn operators_are_counted_per_statement_through_brackets_not_blocks() {
        let chain = |n: usize| vec!["x"; n + 1].join(" + ");
        let ok = format!(
            "fn f(x: u32) -> u32 {{ {} }}",
            chain(MAX_STATEMENT_OPERATORS)
        );
        assert!(check_tokens(tokens(&ok)).is_ok());
        let over = format!(
            "fn f(x: u32) -> u32 {{ {} }}",
            chain(MAX_STATEMENT_OPERATORS + 1)
        );
        let err = check_tokens(tokens(&over)).unwrap_err();
        assert!(
            err.to_string().contains("more than 4096 operators"),
            "{err}"
        );
        // Inside parentheses the count goes on.
        let half = chain(MAX_STATEMENT_OPERATORS / 2);
        let wrapped = format!("fn f(x: u32) -> u32 {{ ({half}) + ({half}) + x }}");
        assert!(check_tokens(tokens(&wrapped)).is_err());
        // `;` and blocks start new statements.
        let split = format!("fn f(x: u32) -> u32 {{ let a = {half}; let b = {half}; a + b }}");
        assert!(check_tokens(tokens(&split)).is_ok());
        let blocks = format!("fn f(x: u32) -> u32 {{ {{ {half} }} + {{ {half} }} }}");
        assert!(check_tokens(tokens(&blocks)).is_ok());
    }

    #[test]
    fn operators_are_counted_per_item_of_a_file() {
        // Each function's `->` is two operators: 2,100 functions are 4,200
        // of them, which one statement may not hold but a file of items may.
        let functions = MAX_STATEMENT_OPERATORS / 2 + 52;
        let file: String = (0..functions)
            .map(|i| format!("#[inline] fn f{i}() -> u32 {{ 0 }}\n"))
            .collect();
        assert!(check_tokens(tokens(&file)).is_ok());
        let module = format!("mod m {{ {file} }}");
        assert!(check_tokens(tokens(&module)).is_ok());
        // Statements that end with a block start anew too, but a block in
        // the middle of an expression does not end it.
        let half = vec!["x"; MAX_STATEMENT_OPERATORS / 2 + 1].join(" + ");
        let ifs = format!("fn f(x: u32) {{ if {half} {{}} if {half} {{}} }}");
        assert!(check_tokens(tokens(&ifs)).is_ok());
        let cast = format!("fn f(x: u32) -> u32 {{ {half} + {{ x }} as u32 + {half} }}");
        assert!(check_tokens(tokens(&cast)).is_err());
        let chain = format!(
            "fn f(c: bool, x: u32) -> u32 {{ {half} + if c {{ x }} else {{ x }} + {half} }}"
        );
        assert!(check_tokens(tokens(&chain)).is_err());
    }
}
