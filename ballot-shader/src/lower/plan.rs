//! What the lowering computes once per module, for every printer: the
//! calls resolved, each kernel's constants folded, and each kernel
//! if-converted, before and after its exchanges are shared.
//!
//! An expansion writes five targets in two forms and the native Rust: with
//! one [`Plan`], a kernel is if-converted once however many printers read
//! it (the emulated targets take [`Plan::shared`], the Rust printer
//! [`Plan::masked`]). Each part is computed on first use, so that a writer
//! of one native target never if-converts. A plan may be read from several
//! threads at once, as the expansion's validation does.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use super::calls::{self, CallError, Module};
use super::fold::{self, Folded};
use super::helpers::{self, Helper};
use super::masked::{self, Masked};
use super::share;
use ballot_ir::ir::Kernel;
use ballot_ir::target::{Language, Missing};

/// One module's lowering. The vectors are indexed like
/// [`Module::functions`]; a stub's entry is the default (nothing folded,
/// no if-converted form).
#[derive(Debug)]
pub struct Plan<'a> {
    /// The entry kernel and its callees, resolved.
    pub module: Module<'a>,
    folded: OnceLock<Vec<Folded>>,
    masked: OnceLock<Vec<Option<Masked>>>,
    shared: OnceLock<Vec<Option<Masked>>>,
    /// No if-converted form, for the targets with subgroups.
    unconverted: Vec<Option<Masked>>,
}

impl<'a> Plan<'a> {
    /// The plan of `kernels[0]` and the kernels it calls among
    /// `kernels[1..]` ([`calls::resolve`]).
    ///
    /// # Errors
    /// [`CallError`] where a callee is missing and `missing` is
    /// [`Missing::Error`].
    pub fn new(kernels: &[&'a Kernel], missing: Missing) -> Result<Self, CallError> {
        let module = calls::resolve(kernels, missing)?;
        let unconverted = vec![None; module.functions.len()];
        Ok(Plan {
            module,
            folded: OnceLock::new(),
            masked: OnceLock::new(),
            shared: OnceLock::new(),
            unconverted,
        })
    }

    /// Each function's constant sub-expressions, folded.
    pub fn folded(&self) -> &[Folded] {
        self.folded.get_or_init(|| {
            self.module
                .functions
                .iter()
                .map(|f| f.kernel().map(fold::fold).unwrap_or_default())
                .collect()
        })
    }

    /// Each kernel if-converted ([`masked::if_convert`]), its exchanges one
    /// step each: what the native Rust runs.
    pub fn masked(&self) -> &[Option<Masked>] {
        self.masked.get_or_init(|| {
            self.module
                .functions
                .iter()
                .map(|f| f.kernel().map(lower_counted))
                .collect()
        })
    }

    /// The if-converted form of `kernel`, one of the module's
    /// ([`Plan::masked`]).
    pub fn masked_of(&self, kernel: &Kernel) -> Option<&Masked> {
        let at = self
            .module
            .functions
            .iter()
            .position(|f| f.kernel().is_some_and(|k| std::ptr::eq(k, kernel)))?;
        self.masked()[at].as_ref()
    }

    /// [`Plan::masked`] with the exchanges that can go together sharing a
    /// barrier ([`share::share`]): what the emulated targets print.
    pub fn shared(&self) -> &[Option<Masked>] {
        self.shared.get_or_init(|| {
            self.module
                .functions
                .iter()
                .zip(self.masked())
                .map(|(f, masked)| {
                    let (kernel, masked) = (f.kernel()?, masked.as_ref()?);
                    let mut shared = masked.clone();
                    share::share(kernel, &mut shared);
                    Some(shared)
                })
                .collect()
        })
    }

    /// Every helper the module's kernels need in `language`
    /// ([`helpers::collect`]); `folding` where the printer writes the
    /// folded constants ([`Plan::folded`]) in place of their expressions.
    pub fn helpers(&self, language: Language, emulated: bool, folding: bool) -> BTreeSet<Helper> {
        let kernels = self.module.functions.iter().map(|f| f.kernel());
        let folded = folding.then(|| self.folded());
        helpers::collect(kernels, folded, language, emulated)
    }

    /// Whether a `wgsl-web` module needs `diagnostic(off,
    /// subgroup_uniformity)` ([`super::uniformity`]).
    pub fn needs_uniformity_diagnostic(&self) -> bool {
        super::uniformity::needs_diagnostic(self)
    }

    /// The if-converted forms a target prints: [`Plan::shared`] where it
    /// emulates subgroups, none where it has them.
    pub fn forms(&self, emulated: bool) -> &[Option<Masked>] {
        if emulated {
            self.shared()
        } else {
            &self.unconverted
        }
    }
}

/// [`masked::if_convert`], counted per kernel name in tests: each expansion
/// must if-convert a kernel once.
fn lower_counted(kernel: &Kernel) -> Masked {
    #[cfg(any(test, feature = "count-lowerings"))]
    counter::count(&kernel.name);
    masked::if_convert(kernel)
}

/// If-conversions counted by kernel name (feature `count-lowerings`, which
/// the expansion's tests turn on): the proof that each expansion lowers a
/// kernel once.
#[cfg(any(test, feature = "count-lowerings"))]
#[doc(hidden)]
pub mod counter {
    use std::collections::BTreeMap;
    use std::sync::Mutex;

    /// If-conversions by kernel name, across threads: a test counts those
    /// of a kernel named for it alone.
    static LOWERED: Mutex<BTreeMap<String, usize>> = Mutex::new(BTreeMap::new());

    pub(super) fn count(name: &str) {
        let mut map = LOWERED.lock().unwrap_or_else(|e| e.into_inner());
        *map.entry(name.to_string()).or_default() += 1;
    }

    /// How many times the kernel `name` has been if-converted.
    pub fn lowered(name: &str) -> usize {
        let map = LOWERED.lock().unwrap_or_else(|e| e.into_inner());
        map.get(name).copied().unwrap_or(0)
    }
}
