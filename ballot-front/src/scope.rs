//! Name resolution: which local a name means at a point of the kernel.

use super::Lowerer;
use ballot_ir::ir::{Handle, Local, Type};

/// What a name is bound to.
#[derive(Clone, Copy, Debug)]
pub(super) struct Binding {
    /// The local it names.
    pub(super) local: Handle<Local>,
    /// Its type; `None` when its declaration had an error, so that uses of
    /// it are not checked again (one mistake, one message).
    pub(super) ty: Option<Type>,
    /// Whether it was declared `mut`.
    pub(super) mutable: bool,
}

/// Nested scopes, innermost last. Shadowing within one scope is a later
/// entry with the same name, so lookups search backwards.
#[derive(Default)]
pub(super) struct Scopes {
    frames: Vec<Vec<(String, Binding)>>,
}

impl Scopes {
    /// Opens a scope.
    pub(super) fn push(&mut self) {
        self.frames.push(Vec::new());
    }

    /// Closes the innermost scope.
    pub(super) fn pop(&mut self) {
        self.frames.pop();
    }

    /// Binds `name` in the innermost scope.
    pub(super) fn bind(&mut self, name: String, binding: Binding) {
        if let Some(frame) = self.frames.last_mut() {
            frame.push((name, binding));
        }
    }

    /// The binding `name` refers to here.
    pub(super) fn lookup(&self, name: &str) -> Option<Binding> {
        self.frames
            .iter()
            .rev()
            .flat_map(|frame| frame.iter().rev())
            .find(|(bound, _)| bound == name)
            .map(|(_, binding)| *binding)
    }

    /// Whether the innermost scope binds `name`.
    pub(super) fn binds_here(&self, name: &str) -> bool {
        self.frames
            .last()
            .is_some_and(|frame| frame.iter().any(|(bound, _)| bound == name))
    }
}

impl Lowerer {
    /// Declares a source-level local and binds its name in the innermost
    /// scope. An unknown type (after an error) gets a stand-in IR type.
    pub(super) fn declare(
        &mut self,
        ident: &syn::Ident,
        ty: Option<Type>,
        mutable: bool,
    ) -> Handle<Local> {
        let name = name_of(ident);
        let ir_ty = ty.unwrap_or(Type::I32);
        let local = self.b.local(name.clone(), ir_ty, mutable, ident.span());
        self.scopes.bind(name, Binding { local, ty, mutable });
        local
    }
}

/// The name an identifier binds: `r#type` and `type` are one name.
pub(super) fn name_of(ident: &syn::Ident) -> String {
    syn::ext::IdentExt::unraw(ident).to_string()
}
