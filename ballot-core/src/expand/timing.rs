//! Where one expansion's time goes, printed under [`super::TIMING_VAR`].

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use crate::back::Target;

/// The time spent in each phase of one expansion. Measuring costs a clock
/// read per phase; only printing depends on [`super::TIMING_VAR`].
#[derive(Default)]
pub struct Phases {
    /// The item and the attribute's options, from tokens.
    pub parse: Duration,
    /// syn to IR ([`crate::front::lower`]).
    pub lower: Duration,
    /// Shader text of each target (index in [`Target::ALL`]), both forms:
    /// the time of the thread that emitted it.
    pub emit: [Duration; Target::ALL.len()],
    /// All emission, wall-clock: less than the sum of `emit` when targets
    /// are emitted in parallel.
    pub emit_wall: Duration,
    /// naga's parse and validation of that target's texts, both forms, and
    /// the checks of which verdict stands for which: thread time.
    pub validate: [Duration; Target::ALL.len()],
    /// All validation, wall-clock.
    pub validate_wall: Duration,
    /// The threads emission and validation could use.
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
    /// One line: every phase in ms (emit and validate wall-clock, their
    /// per-target thread times in brackets), what the total spent
    /// elsewhere, and the threads used.
    pub fn report(&self, name: &str, total: Duration) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let (emit, validate) = (self.emit_wall, self.validate_wall);
        let other = total.saturating_sub(self.parse + self.lower + emit + validate + self.rust);
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
             emit {:.3} [{}], validate {:.3} [{}], rust {:.3}, other {:.3}, threads {}",
            ms(self.parse),
            ms(self.lower),
            ms(emit),
            by_target(&self.emit),
            ms(validate),
            by_target(&self.validate),
            ms(self.rust),
            ms(other),
            self.threads,
        )
    }
}
