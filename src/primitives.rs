//! Device-wide primitives: ordered stream compaction (of keys, or of
//! key-value pairs) and exclusive prefix sum over `u32`, for every
//! [`Target`], the fallbacks included.
//!
//! Each primitive is one compute shader and one dispatch. Workgroups take
//! tiles in order from a counter, publish each tile's sum, and look back at
//! their predecessors' sums for their offset (Merrill and Garland's
//! decoupled look-back). A predecessor that has published nothing after a
//! few looks is summed by the waiting workgroup itself (the decoupled
//! fallback of Smith, Levien and Owens, 2025), so the primitives are correct
//! on devices that give no forward-progress guarantee between workgroups,
//! such as those behind WebGPU.
//!
//! Compaction places each tile's kept elements with ballots: the kernel
//! [`compaction_quad`], lowered for the target like any other kernel, so
//! that the fallback targets get the same emulation as user kernels. The
//! scan needs no subgroup operation.
//!
//! [`PrimitiveShader`] writes the shader and says how to run it (buffer
//! sizes, parameters, workgroups), for any host. With the `wgpu` feature,
//! `Compaction`, `PairCompaction` and `ExclusiveScan` run it on a
//! `wgpu::Device`.
//!
//! ```
//! use ballot::primitives::{Keep, Primitive, PrimitiveOptions, PrimitiveShader};
//! use ballot::Target;
//!
//! // Keep the values below 100, on a browser without subgroups.
//! let shader = PrimitiveShader::new(
//!     Primitive::Compact,
//!     Target::WgslNoSubgroup,
//!     &PrimitiveOptions::default(),
//! )?;
//! let n = 1_000_000;
//! assert!(shader.text().contains("fn main"));
//! assert_eq!(shader.params(n, Keep::Below(100))[..2], [n, shader.tiles(n)]);
//! # Ok::<(), ballot::primitives::PrimitiveError>(())
//! ```
//!
//! # Bindings
//! Group (set) 0, all storage buffers:
//!
//! | binding | contents | access |
//! |---|---|---|
//! | 0 | keys: `n` words, padded to a multiple of 4 ([`padded_words`]) | read |
//! | 1 | values, as keys ([`Primitive::CompactPairs`] only) | read |
//! | 2 | output keys, `n` words (for the scan, the sums) | read-write |
//! | 3 | output values, `n` words ([`Primitive::CompactPairs`] only) | read-write |
//! | 4 | status: [`PrimitiveShader::status_words`], zeroed before each run; word 1 then holds the count (or the scan's total) | read-write |
//! | 5 | parameters: [`PrimitiveShader::params`] | read |

mod count_scan;
#[cfg(feature = "wgpu")]
mod host;

#[cfg(feature = "wgpu")]
pub use host::{Bound, Compaction, ExclusiveScan, PairCompaction, Workspace};

use crate::prelude::*;
use ballot_shader::back::{emit, Language, Missing, ShaderError};

/// [`compaction_step`] for four elements per lane, a `uvec4` of keys: the
/// kept elements of the lanes below this one, of all four components
/// (low 16 bits), and of every lane (high 16 bits). The four ballots have
/// no operand in common, so a fallback target makes them one exchange
/// ([`ballot_shader::lower::share`]): one barrier per four elements.
#[crate::kernel]
pub fn compaction_quad(k0: bool, k1: bool, k2: bool, k3: bool) -> u32 {
    let b0 = subgroup_ballot(k0);
    let b1 = subgroup_ballot(k1);
    let b2 = subgroup_ballot(k2);
    let b3 = subgroup_ballot(k3);
    let before = subgroup_ballot_exclusive_bit_count(b0)
        + subgroup_ballot_exclusive_bit_count(b1)
        + subgroup_ballot_exclusive_bit_count(b2)
        + subgroup_ballot_exclusive_bit_count(b3);
    let total = subgroup_ballot_bit_count(b0)
        + subgroup_ballot_bit_count(b1)
        + subgroup_ballot_bit_count(b2)
        + subgroup_ballot_bit_count(b3);
    before | (total << 16u32)
}

/// The place and the count of each lane's element in one ballot: the lanes
/// below this one that keep theirs (low 16 bits) and all the lanes that do
/// (high 16 bits). One ballot serves both, so a fallback target exchanges
/// flags once per element.
#[crate::kernel]
pub fn compaction_step(keep: bool) -> u32 {
    let kept = subgroup_ballot(keep);
    subgroup_ballot_exclusive_bit_count(kept) | (subgroup_ballot_bit_count(kept) << 16u32)
}

/// A device-wide primitive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Primitive {
    /// Ordered stream compaction: the keys that [`Keep`] keeps, in order.
    Compact,
    /// Ordered compaction of key-value pairs: the pairs whose key is kept.
    CompactPairs,
    /// Exclusive prefix sum, wrapping: output `i` is the sum of keys
    /// `0..i`, modulo 2^32.
    ExclusiveScan,
}

impl Primitive {
    /// Every primitive.
    pub const ALL: [Primitive; 3] = [
        Primitive::Compact,
        Primitive::CompactPairs,
        Primitive::ExclusiveScan,
    ];

    /// The primitive's name, as in shader labels.
    pub fn name(self) -> &'static str {
        match self {
            Primitive::Compact => "compact",
            Primitive::CompactPairs => "compact_pairs",
            Primitive::ExclusiveScan => "exclusive_scan",
        }
    }
}

/// Which keys a compaction keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keep {
    /// `key < bound`.
    Below(u32),
    /// `key >= bound`.
    AtLeast(u32),
    /// `key != value`.
    NotEqual(u32),
    /// `start <= key < end`: nothing when `end <= start`.
    InRange(u32, u32),
    /// `key & mask != 0`.
    AnyBit(u32),
}

impl Keep {
    /// Whether `key` is kept: the semantics every shader follows.
    pub fn keeps(self, key: u32) -> bool {
        match self {
            Keep::Below(bound) => key < bound,
            Keep::AtLeast(bound) => key >= bound,
            Keep::NotEqual(value) => key != value,
            Keep::InRange(start, end) => start <= key && key < end,
            Keep::AnyBit(mask) => key & mask != 0,
        }
    }

    /// The shader's form of the test, `params[2..6]`: `[mask, start, last,
    /// any]`, keeping `x` where `any != 0` and
    /// `(x & mask).wrapping_sub(start) <= last`. One branch-free form for
    /// every kind: a branch on the kind per element cost the H200 1.7× the
    /// time (`docs/performance.md`).
    fn words(self) -> [u32; 4] {
        const ALL: u32 = u32::MAX;
        match self {
            Keep::Below(0) => [ALL, 0, 0, 0],
            Keep::Below(bound) => [ALL, 0, bound - 1, 1],
            Keep::AtLeast(bound) => [ALL, bound, u32::MAX - bound, 1],
            Keep::NotEqual(value) => [ALL, value.wrapping_add(1), u32::MAX - 1, 1],
            Keep::InRange(start, end) if end <= start => [ALL, 0, 0, 0],
            Keep::InRange(start, end) => [ALL, start, end - start - 1, 1],
            Keep::AnyBit(mask) => [mask, 1, u32::MAX - 1, 1],
        }
    }
}

/// How a primitive's shader is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrimitiveOptions {
    /// For a target with subgroups, the smallest subgroup size the device
    /// may use (wgpu's `AdapterInfo::subgroup_min_size`): the tile holds
    /// one count per subgroup per load; `None` takes 32. For a fallback
    /// target, the size of the emulated subgroups; `None` takes the
    /// measured choice for the target ([`emulated_subgroup_size`]). A
    /// power of two from 4 to 128.
    pub subgroup_size: Option<u32>,
    /// How many times a workgroup reads a predecessor's unpublished status
    /// before it sums that tile itself. At least 1; 4 by default. Fewer
    /// waste less time behind a workgroup that is not running; more
    /// re-read less input where every workgroup runs.
    pub spins: u32,
    /// The `vec4` loads each invocation makes per tile, 4 or 8: a tile
    /// holds `1024 × loads` elements. `None` (the default) takes the
    /// measured choice for the primitive ([`PrimitiveShader::new`]).
    /// Compaction takes at most `subgroup_size` loads, as its tile scans
    /// one count per subgroup per load.
    pub loads: Option<u32>,
    /// The most workgroups a run dispatches, at least 1, each then taking
    /// tiles in turn until none is left, and issuing the next tile's loads
    /// before the current tile's look-back; workgroups beyond those the
    /// device holds at once start only as the last tiles are taken, and
    /// leave. `None` (the default): one workgroup per tile, each taking
    /// one, which measured faster on an H100 (`gpu_bench tiles`,
    /// `docs/performance.md`): a tile taken early is one its successors
    /// wait on.
    pub workgroups: Option<u32>,
}

impl Default for PrimitiveOptions {
    fn default() -> Self {
        PrimitiveOptions {
            subgroup_size: None,
            spins: 4,
            loads: None,
            workgroups: None,
        }
    }
}

/// Why a primitive cannot be built or run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PrimitiveError {
    /// An option is out of range.
    #[error("invalid option `{option}`: {reason}")]
    Option {
        /// The option's field name.
        option: &'static str,
        /// What it must be.
        reason: String,
    },
    /// The ballot kernel could not be written for the target.
    #[error(transparent)]
    Shader(#[from] ShaderError),
    /// `n` is too large for 32-bit element indices.
    #[error("{n} elements: at most {max} fit 32-bit indices with this tile size")]
    TooLarge {
        /// The element count asked for.
        n: u64,
        /// The largest allowed.
        max: u32,
    },
    /// A buffer is too small for the run.
    #[error("buffer `{buffer}` holds {bytes} bytes; the run needs {needed}")]
    BufferTooSmall {
        /// The argument it was passed as: `keys`, `values`, `out_keys`,
        /// `out_values` (compaction), `input`, `output` (the scan), or
        /// `workspace`.
        buffer: &'static str,
        /// Its size.
        bytes: u64,
        /// The bytes the run reads or writes.
        needed: u64,
    },
    /// A buffer was made without a usage the run needs: every buffer a
    /// run binds is a storage buffer, so wgpu would refuse the binding.
    #[error(
        "buffer `{buffer}` lacks the {missing} usage the run needs; it was made with {usages}"
    )]
    MissingUsage {
        /// The argument it was passed as, as in [`Self::BufferTooSmall`].
        buffer: &'static str,
        /// The usage it lacks, as wgpu spells it: `STORAGE`.
        missing: &'static str,
        /// The usages it has, as wgpu spells them (`MAP_READ | COPY_DST`),
        /// or `none`.
        usages: String,
    },
    /// One buffer was passed as two arguments, at least one of which the
    /// run writes: an input and an output, two outputs, or a buffer and
    /// the workspace's (`Workspace::count_buffer`, with the `wgpu`
    /// feature). wgpu refuses a buffer bound as read-only and as
    /// read-write storage in one dispatch, and the run would overwrite
    /// what it reads. Two inputs may be one buffer.
    #[error(
        "`{first}` and `{second}` are the same buffer, and the run writes `{second}`: \
         pass distinct buffers"
    )]
    Aliased {
        /// The earlier argument, as in [`Self::BufferTooSmall`].
        first: &'static str,
        /// The later one, which the run writes.
        second: &'static str,
    },
    /// The device rejected the shader or the pipeline.
    #[error("the device rejected the {primitive} pipeline for {target}: {message}")]
    Pipeline {
        /// The primitive.
        primitive: &'static str,
        /// The target.
        target: Target,
        /// The device's message.
        message: String,
    },
    /// Reading the count back failed.
    #[error("reading the count back: {0}")]
    Readback(String),
    /// The target's language cannot be compiled by this host: GLSL
    /// targets need SPIR-V from glslang (`from_spirv`).
    #[error("{target} is {language:?}: compile the shader to SPIR-V and use `from_spirv`")]
    NeedsSpirv {
        /// The target.
        target: Target,
        /// Its language.
        language: Language,
    },
}

/// The words a keys or values buffer of `n` elements must hold: loads
/// read whole `vec4`s, so `n` is rounded up to a multiple of 4. The words
/// past `n` are never used.
pub fn padded_words(n: u32) -> u64 {
    u64::from(n).div_ceil(4) * 4
}

/// A primitive's shader for one target, and how to run it.
#[derive(Clone, Debug)]
pub struct PrimitiveShader {
    primitive: Primitive,
    target: Target,
    loads: u32,
    workgroups: u32,
    text: String,
}

const SKELETON_GLSL: &str = include_str!("primitives/skeleton.glsl");
const SKELETON_WGSL: &str = include_str!("primitives/skeleton.wgsl");
const COMPACT_GLSL: &str = include_str!("primitives/compact.glsl");
const COMPACT_WGSL: &str = include_str!("primitives/compact.wgsl");
const SCAN_GLSL: &str = include_str!("primitives/scan.glsl");
const SCAN_WGSL: &str = include_str!("primitives/scan.wgsl");

/// Invocations per workgroup.
const WORKGROUP: u32 = 256;

/// The size of a fallback target's emulated subgroups where
/// [`PrimitiveOptions::subgroup_size`] is `None`; `None` for a target with
/// subgroups. `glsl-no-subgroup` gathers a ballot's lane flags through
/// workgroup memory without atomics, a word per lane, so fewer lanes are
/// faster: its compaction at 2^28 took 13–19% less time in subgroups of 8
/// than of 32 on an H100 (`gpu_bench virtual`, `docs/performance.md`),
/// as on lavapipe. `wgsl-no-subgroup`'s ballots count with atomics, and
/// were fastest at 32.
pub fn emulated_subgroup_size(target: Target) -> Option<u32> {
    match target {
        Target::GlslNoSubgroup => Some(8),
        Target::WgslNoSubgroup => Some(32),
        Target::Glsl | Target::Wgsl | Target::WgslWeb => None,
    }
}

/// The predecessors' status words a workgroup reads at once in its
/// look-back, one per invocation.
const LOOK: u32 = 32;

/// Compaction's loads per invocation, where [`PrimitiveOptions::loads`]
/// is `None` and subgroups allow it: on the H200 at 2^28, tiles of 4
/// loads took 1.4–1.6 times as long as tiles of 8 (`gpu_bench tiles`,
/// `docs/performance.md`).
const DEFAULT_COMPACT_LOADS: u32 = 8;

/// The scan's loads per invocation, where [`PrimitiveOptions::loads`] is
/// `None`: on the H200 at 2^28, 8 loads took 0.658 ms and 4 took 0.828
/// (`gpu_bench tiles`, `docs/performance.md`).
const DEFAULT_SCAN_LOADS: u32 = 8;

/// Whether compaction stages its kept elements in workgroup memory and
/// writes them as consecutive words (`true`), or writes each from the
/// invocation that loaded it. Staged, the H200 took 0.679 ms rather than
/// 1.036 at 2^28 with 95% kept, 0.622 rather than 0.697 at 50%, and
/// 0.567 rather than 0.552 at 5% (`gpu_bench tiles`).
const STAGED: bool = true;

/// The loads whose kept elements compaction stages at once: the stage
/// holds 2,048 words (8 KiB), keys and values alike, so that a tile's
/// workgroup memory stays within WebGPU's default 16 KiB.
fn stage_loads(primitive: Primitive) -> u32 {
    if primitive == Primitive::CompactPairs {
        1
    } else {
        2
    }
}

/// Compaction's staged write: each load's kept elements go to the stage,
/// and after every [`stage_loads`] loads the stage is written out
/// (`flush`), one statement each, as `{EACH_…}` writes them.
fn staged_write(loads: u32, per_round: u32) -> String {
    let calls: Vec<String> = (0..loads)
        .flat_map(|q| {
            let stage = format!("stage_quad({q}u);");
            let last = (q + 1) % per_round == 0;
            std::iter::once(stage).chain(last.then(|| format!("flush({q}u);")))
        })
        .collect();
    calls.join("\n    ")
}

/// The fewest elements a tile of any primitive holds: four `vec4` loads
/// per invocation. `Workspace`s are sized for it.
#[cfg(feature = "wgpu")]
const MIN_TILE: u32 = WORKGROUP * 4 * 4;

/// The status words of `n` elements in tiles of `tile`.
fn status_words(n: u32, tile: u32) -> u64 {
    2 + 2 * u64::from(n.div_ceil(tile))
}

impl PrimitiveShader {
    /// The shader of `primitive` for `target`.
    ///
    /// # Errors
    /// [`PrimitiveError::Option`] for an option out of range, or the ballot
    /// kernel's [`ShaderError`].
    pub fn new(
        primitive: Primitive,
        target: Target,
        options: &PrimitiveOptions,
    ) -> Result<Self, PrimitiveError> {
        let size = options
            .subgroup_size
            .unwrap_or_else(|| emulated_subgroup_size(target).unwrap_or(32));
        if !(4..=128).contains(&size) || !size.is_power_of_two() {
            return Err(PrimitiveError::Option {
                option: "subgroup_size",
                reason: format!("{size} is not a power of two from 4 to 128"),
            });
        }
        if options.spins == 0 {
            return Err(PrimitiveError::Option {
                option: "spins",
                reason: "0: a workgroup must read a status at least once".to_string(),
            });
        }
        // Compaction scans one count per subgroup per load, one per
        // invocation: at most 256. Eight loads where subgroups allow it,
        // as on the H200 they hide the look-back best.
        let compact = primitive != Primitive::ExclusiveScan;
        let loads = match options.loads {
            Some(loads) if loads != 4 && loads != 8 => {
                return Err(PrimitiveError::Option {
                    option: "loads",
                    reason: format!("{loads} is neither 4 nor 8"),
                })
            }
            Some(loads) if compact && loads > size => {
                return Err(PrimitiveError::Option {
                    option: "loads",
                    reason: format!("{loads} is more than the subgroup size, {size}"),
                })
            }
            Some(loads) => loads,
            None if compact => DEFAULT_COMPACT_LOADS.min(size),
            None => DEFAULT_SCAN_LOADS,
        };
        let workgroups = match options.workgroups {
            Some(0) => {
                return Err(PrimitiveError::Option {
                    option: "workgroups",
                    reason: "0: a run needs a workgroup".to_string(),
                })
            }
            Some(workgroups) => workgroups,
            None => u32::MAX,
        };
        // One tile per workgroup unless the dispatch is capped.
        let persist = workgroups != u32::MAX;
        let counts = if compact {
            loads * WORKGROUP / size
        } else {
            WORKGROUP
        };
        let glsl = target.language() == Language::Glsl;
        let emulated = !target.has_subgroups();
        let helpers = if compact {
            let shader_options = ShaderOptions {
                workgroup_size: [WORKGROUP, 1, 1],
                subgroup_size: size,
                ..ShaderOptions::default()
            };
            emit(
                target,
                Form::Helpers,
                &compaction_quad::kernels(),
                &shader_options,
                Missing::Error,
            )?
        } else {
            String::new()
        };
        let (skeleton, body) = match (glsl, compact) {
            (true, true) => (SKELETON_GLSL, COMPACT_GLSL),
            (true, false) => (SKELETON_GLSL, SCAN_GLSL),
            (false, true) => (SKELETON_WGSL, COMPACT_WGSL),
            (false, false) => (SKELETON_WGSL, SCAN_WGSL),
        };
        // Where the subgroup's size comes from, and what the entry point
        // passes the helpers.
        // The entry point's names for the init's built-ins
        // (`ballot::back::Init`). A WGSL scan with subgroups takes the
        // size for its scan of the counts (`count_scan`), as `ballot_lanes`.
        let (size_expr, init_args, builtins): (_, &[&str], _) = match (glsl, emulated, compact) {
            (false, false, false) => ("", &[], ", @builtin(subgroup_size) ballot_lanes: u32"),
            (_, _, false) => ("", &[], ""),
            (true, false, _) => ("gl_SubgroupSize", &[], ""),
            (true, true, _) => ("ballot_subgroup_size", &["gl_LocalInvocationIndex"], ""),
            (false, false, _) => (
                "ballot_size",
                &["ballot_lane_id", "ballot_lanes"],
                ", @builtin(subgroup_invocation_id) ballot_lane_id: u32, \
                 @builtin(subgroup_size) ballot_lanes: u32",
            ),
            (false, true, _) => ("ballot_subgroup_size", &["lid"], ""),
        };
        let init = match target.init() {
            Some(init) if !init_args.is_empty() => format!("{};", init.call(init_args)),
            _ => String::new(),
        };
        let pairs = if primitive == Primitive::CompactPairs {
            "true"
        } else {
            "false"
        };
        let per_round = stage_loads(primitive);
        let pair_words = if primitive == Primitive::CompactPairs {
            2
        } else {
            1
        };
        let stage_words = per_round * WORKGROUP * 4 * pair_words;
        let body = fill(
            body,
            &[
                ("PAIRS", pairs),
                ("SUBGROUP_SIZE", size_expr),
                ("STAGED", if STAGED { "true" } else { "false" }),
                ("STAGE_LOADS", &per_round.to_string()),
                ("STAGE_WORDS", &stage_words.to_string()),
                ("STAGED_WRITE", &staged_write(loads, per_round)),
            ],
        );
        let text = fill(
            skeleton,
            &[
                ("HELPERS", &helpers),
                ("PRIMITIVE", &body),
                ("INIT", &init),
                ("BUILTINS", builtins),
                ("LOADS", &loads.to_string()),
                ("COUNTS", &counts.to_string()),
                ("SPINS", &options.spins.to_string()),
                ("PERSIST", if persist { "true" } else { "false" }),
                ("PREFETCH", "true"),
                ("LOOK", &LOOK.to_string()),
            ],
        );
        // The scan of a tile's counts: in subgroups where the target has
        // them, else raked over workgroup memory.
        let scan = count_scan::count_scan(target, counts, helpers.contains("enable subgroups;"));
        let text = fill(
            &text,
            &[
                ("COUNT_SCAN_HEAD", scan.head),
                ("COUNT_SCAN_MEMORY", &scan.memory),
                ("COUNT_SCAN", &scan.code),
            ],
        );
        // The loops over constants, written out: the loads, the raking
        // scan's of the tile's counts, and the look-back window.
        let text = [
            ("LOAD", (0..loads).collect()),
            ("LOOK", (0..LOOK).collect::<Vec<u32>>()),
            ("STAGE", (0..per_round * 4).collect()),
            ("SPAN", (0..scan.span).collect()),
            ("RAKER", (0..scan.rakers).collect()),
        ]
        .iter()
        .fold(text, |text, (open, args)| unroll(&text, open, args));
        Ok(PrimitiveShader {
            primitive,
            target,
            loads,
            workgroups,
            text,
        })
    }

    /// The primitive.
    pub fn primitive(&self) -> Primitive {
        self.primitive
    }

    /// The target.
    pub fn target(&self) -> Target {
        self.target
    }

    /// The shader: a complete compute shader, entry point `main`,
    /// workgroups of 256 invocations.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The elements each workgroup takes.
    pub fn tile_elements(&self) -> u32 {
        WORKGROUP * 4 * self.loads
    }

    /// The largest `n` a run takes: the element indices of its last tile
    /// must fit in 32 bits.
    pub fn max_elements(&self) -> u32 {
        u32::MAX - self.tile_elements()
    }

    /// The tiles, and so the workgroups that do work, for `n` elements.
    pub fn tiles(&self, n: u32) -> u32 {
        n.div_ceil(self.tile_elements())
    }

    /// The dispatch for `n` elements: one workgroup per tile, up to
    /// [`PrimitiveOptions::workgroups`], in x and y, as the x dimension
    /// takes at most 65,535. Each workgroup takes tiles until none is left;
    /// one that finds none returns at once.
    pub fn workgroups(&self, n: u32) -> [u32; 3] {
        let groups = self.tiles(n).clamp(1, self.workgroups);
        let x = groups.min(65_535);
        [x, groups.div_ceil(x), 1]
    }

    /// The words of the status buffer (binding 4) for `n` elements. It
    /// must be zero when the dispatch starts.
    pub fn status_words(&self, n: u32) -> u64 {
        status_words(n, self.tile_elements())
    }

    /// The parameter words (binding 5) for `n` elements; `keep` is ignored
    /// by the scan.
    pub fn params(&self, n: u32, keep: Keep) -> [u32; 6] {
        let [mask, start, last, any] = keep.words();
        [n, self.tiles(n), mask, start, last, any]
    }

    /// `Err(TooLarge)` unless a run takes `n` elements.
    pub fn check_len(&self, n: u64) -> Result<u32, PrimitiveError> {
        match u32::try_from(n) {
            Ok(n) if n <= self.max_elements() => Ok(n),
            _ => Err(PrimitiveError::TooLarge {
                n,
                max: self.max_elements(),
            }),
        }
    }
}

/// `template` with each `{NAME}` replaced by its value.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    values
        .iter()
        .fold(template.to_string(), |text, (name, value)| {
            text.replace(&format!("{{{name}}}"), value)
        })
}

/// `template` with each `{EACH_<open>:f}` replaced by the calls `f(a);`
/// for each `a` of `args`, one statement each: a WGSL tile's loops over
/// constants unrolled, so that wgpu's loop bounding does not keep the
/// driver from holding the tile in registers.
fn unroll(template: &str, open: &str, args: &[u32]) -> String {
    let open = format!("{{EACH_{open}:");
    let mut text = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(at) = rest.find(&open) {
        let (before, call) = rest.split_at(at);
        let close = call
            .find('}')
            .expect("an {EACH_…} in a primitive's template is closed");
        let name = &call[open.len()..close];
        text.push_str(before);
        let calls: Vec<String> = args.iter().map(|a| format!("{name}({a}u);")).collect();
        text.push_str(&calls.join("\n    "));
        rest = &call[close + 1..];
    }
    text.push_str(rest);
    text
}

/// The CPU reference of each primitive, from its definition: what the
/// shaders are tested against.
pub mod reference {
    use super::Keep;

    /// The keys that `keep` keeps, in order.
    pub fn compact(keys: &[u32], keep: Keep) -> Vec<u32> {
        keys.iter().copied().filter(|&k| keep.keeps(k)).collect()
    }

    /// The pairs whose key `keep` keeps, in order.
    pub fn compact_pairs(keys: &[u32], values: &[u32], keep: Keep) -> (Vec<u32>, Vec<u32>) {
        keys.iter()
            .zip(values)
            .filter(|(&k, _)| keep.keeps(k))
            .map(|(&k, &v)| (k, v))
            .unzip()
    }

    /// The exclusive prefix sums, wrapping, and the total.
    pub fn exclusive_scan(keys: &[u32]) -> (Vec<u32>, u32) {
        let mut sum = 0u32;
        let sums = keys
            .iter()
            .map(|&k| {
                let before = sum;
                sum = sum.wrapping_add(k);
                before
            })
            .collect();
        (sums, sum)
    }
}

#[cfg(test)]
mod tests {
    use super::{unroll, Keep, Primitive, PrimitiveOptions, PrimitiveShader};
    use ballot_shader::back::Target;

    /// Each placeholder of the named kind becomes one call per argument,
    /// in order; other kinds and the text around them are left alone.
    #[test]
    fn unroll_writes_one_call_per_argument() {
        let text = unroll(
            "a {EACH_LOAD:f} b {EACH_LOOK:g} c {EACH_LOAD:h}",
            "LOAD",
            &[0, 2],
        );
        assert_eq!(
            text,
            "a f(0u);\n    f(2u); b {EACH_LOOK:g} c h(0u);\n    h(2u);"
        );
    }

    /// No placeholder is left in any primitive's shader.
    #[test]
    fn every_placeholder_is_filled() {
        for primitive in [
            Primitive::Compact,
            Primitive::CompactPairs,
            Primitive::ExclusiveScan,
        ] {
            for target in Target::ALL {
                let shader =
                    PrimitiveShader::new(primitive, target, &PrimitiveOptions::default()).unwrap();
                // A placeholder is `{` and a capital: the shaders' own
                // braces open blocks, followed by a space or a line end.
                let left = shader.text().match_indices('{').find(|(at, _)| {
                    shader.text()[at + 1..].starts_with(|c: char| c.is_ascii_uppercase())
                });
                assert!(left.is_none(), "{primitive:?} on {target}: {left:?}");
            }
        }
    }

    /// On the fallbacks, a uvec4 of keys costs one barrier: the four
    /// ballots of `compaction_quad` are one exchange of four slots.
    #[test]
    fn the_fallbacks_place_four_keys_with_one_exchange() {
        for target in [Target::GlslNoSubgroup, Target::WgslNoSubgroup] {
            let shader =
                PrimitiveShader::new(Primitive::Compact, target, &PrimitiveOptions::default())
                    .expect("the shader is written");
            let text = shader.text();
            let start = text.find("compaction_quad_masked").expect("the kernel");
            let body = &text[start..];
            let body = &body[..body.find("\n}").expect("its end")];
            assert_eq!(body.matches("ballot_sync()").count(), 1, "{target}: {body}");
            assert_eq!(
                body.matches("ballot_publish(").count(),
                4,
                "{target}: {body}"
            );
            let slots = [
                "const uint ballot_exchange_slots = 4u;",
                "const ballot_exchange_slots: u32 = 4u;",
            ];
            assert!(slots.iter().any(|s| text.contains(s)), "{target}");
        }
    }

    /// The shader's test, on the words.
    fn shader_keeps([mask, start, last, any]: [u32; 4], x: u32) -> bool {
        any != 0 && (x & mask).wrapping_sub(start) <= last
    }

    #[test]
    fn the_shaders_form_keeps_what_keep_keeps() {
        let edges = [0, 1, 2, 3, 5, 9, 100, 1 << 31, u32::MAX - 1, u32::MAX];
        let mut keeps = Vec::new();
        for &a in &edges {
            keeps.extend([
                Keep::Below(a),
                Keep::AtLeast(a),
                Keep::NotEqual(a),
                Keep::AnyBit(a),
            ]);
            for &b in &edges {
                keeps.push(Keep::InRange(a, b));
            }
        }
        let mut x = 0x9e37_79b9u32;
        let mut xs: Vec<u32> = (0..2000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x
            })
            .collect();
        xs.extend(edges);
        xs.extend(edges.iter().map(|e| e.wrapping_add(1)));
        for keep in keeps {
            for &x in &xs {
                assert_eq!(
                    shader_keeps(keep.words(), x),
                    keep.keeps(x),
                    "{keep:?} of {x:#x}"
                );
            }
        }
    }
}
