//! Where one expansion's time goes, printed under [`super::TIMING_VAR`].

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use ballot_shader::back::Target;

/// The time spent in each phase of one expansion. Measuring costs a clock
/// read per phase; only printing depends on [`super::TIMING_VAR`].
#[derive(Default)]
pub struct Phases {
    /// The item and the attribute's options, from tokens.
    pub parse: Duration,
    /// syn to IR ([`ballot_front::lower`]).
    pub lower: Duration,
    /// Shader text of each target (index in [`Target::ALL`]), both forms.
    pub emit: [Duration; Target::ALL.len()],
    /// naga's parse and validation of that target's texts, and the check
    /// that the compute shader's verdict stands for its library; zero for
    /// `wgsl-web`, which takes `wgsl`'s verdicts.
    pub validate: [Duration; Target::ALL.len()],
    /// The texts naga read.
    pub parsed: usize,
    /// The verdicts that came from the cache.
    pub cached: usize,
    /// Emission, validation and the native Rust, wall-clock: they overlap
    /// on [`Phases::threads`] threads.
    pub wall: Duration,
    /// The threads emission and validation could use, the macro's own
    /// included; 0 where nothing was validated.
    pub threads: usize,
    /// The native Rust and the generated items.
    pub rust: Duration,
}

/// Runs `f`, adding the time it takes to `slot`.
pub fn timed<T>(slot: &mut Duration, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let value = f();
    *slot += start.elapsed();
    value
}

impl Phases {
    /// One line: every phase in ms (emit and validate summed over the
    /// threads, per target in brackets), the wall-clock time of emission,
    /// validation and the native Rust together, what the total spent
    /// elsewhere, the threads used, the texts naga read and the verdicts
    /// the cache gave.
    pub fn report(&self, name: &str, total: Duration) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let emit: Duration = self.emit.iter().sum();
        let validate: Duration = self.validate.iter().sum();
        let other = total.saturating_sub(self.parse + self.lower + self.wall);
        let by_target = |times: &[Duration]| {
            let mut s = String::new();
            for (target, &t) in Target::ALL.iter().zip(times) {
                let sep = if s.is_empty() { "" } else { ", " };
                let _ = write!(s, "{sep}{target} {:.3}", ms(t));
            }
            s
        };
        format!(
            "ballot: phases of kernel `{name}` in ms: parse {:.3}, lower {:.3}, \
             emit {:.3} [{}], validate {:.3} [{}], rust {:.3}, wall {:.3}, other {:.3}, \
             threads {}, parsed {}, cached {}",
            ms(self.parse),
            ms(self.lower),
            ms(emit),
            by_target(&self.emit),
            ms(validate),
            by_target(&self.validate),
            ms(self.rust),
            ms(self.wall),
            ms(other),
            self.threads,
            self.parsed,
            self.cached,
        )
    }
}
