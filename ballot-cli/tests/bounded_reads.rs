//! Every subcommand that reads a user's file reads it bounded: a FIFO or a
//! device is refused before it is opened (opening a FIFO waits for a
//! writer; /dev/zero never ends), a file past 16 MiB after 16 MiB + 1
//! bytes. Each run has a deadline, so that a regression fails here
//! instead of hanging the suite.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Far more than a refusal takes; far less than a hang.
const DEADLINE: Duration = Duration::from_secs(30);

/// Runs `ballot ARGS` to its end or to the deadline (then kills it and
/// fails): its exit code and stderr.
fn ballot(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ballot"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the ballot binary runs");
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("waiting for ballot") {
            let mut stderr = String::new();
            std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
            return (status.code(), stderr);
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`ballot {}` ran past {DEADLINE:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ballot-bounded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A FIFO no one writes to: `None` where `mkfifo` is missing.
fn fifo(name: &str) -> Option<PathBuf> {
    let path = scratch(name);
    let _ = std::fs::remove_file(&path);
    let made = Command::new("mkfifo").arg(&path).status();
    made.is_ok_and(|s| s.success()).then_some(path)
}

/// Every subcommand on `path`: exit 1, `error: cannot
/// read `PATH`: REASON`.
fn every_reader_refuses(path: &Path, wgsl: bool, reason: &str) {
    let p = path.to_str().unwrap();
    let mut runs: Vec<Vec<&str>> = vec![vec!["portability", p]];
    if wgsl {
        runs.push(vec!["link", p, "--target", "wgsl"]);
        runs.push(vec!["link", p, "--target", "wgsl-no-subgroup"]);
        runs.push(vec!["check", p, "--target", "wgsl"]);
    }
    for args in runs {
        let (code, stderr) = ballot(&args);
        assert_eq!(code, Some(1), "ballot {args:?}: {stderr}");
        let wanted = format!("error: cannot read `{p}`: {reason}");
        assert!(stderr.contains(&wanted), "ballot {args:?}: {stderr}");
    }
}

#[test]
fn a_fifo_is_refused_not_waited_on() {
    let Some(wgsl) = fifo("shader.wgsl") else {
        eprintln!("skipped: no mkfifo");
        return;
    };
    every_reader_refuses(&wgsl, true, "it is a FIFO, not a regular file");
    let rust = fifo("kernels.rs").unwrap();
    every_reader_refuses(&rust, false, "it is a FIFO, not a regular file");
}

#[cfg(unix)]
#[test]
fn an_endless_device_is_refused_not_read() {
    every_reader_refuses(
        Path::new("/dev/zero"),
        true,
        "it is a character device, not a regular file",
    );
}

/// A sparse file of 1 GiB: `link` and `portability` stop at the cap, as
/// `check` does.
#[test]
fn a_file_past_the_cap_is_refused_after_the_cap() {
    let path = scratch("huge.wgsl");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(1 << 30).unwrap();
    let p = path.to_str().unwrap();
    for args in [vec!["link", p, "--target", "wgsl"], vec!["portability", p]] {
        let (code, stderr) = ballot(&args);
        assert_eq!(code, Some(1), "ballot {args:?}: {stderr}");
        assert!(
            stderr.contains("the file has 1073741824 bytes; the limit is 16777216"),
            "ballot {args:?}: {stderr}"
        );
    }
    let (code, stderr) = ballot(&["check", p]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("the file has 1073741824 bytes"), "{stderr}");
    std::fs::remove_file(&path).unwrap();
}
