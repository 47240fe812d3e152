//! Reading a user's shader or kernel file, bounded: the one reader that
//! `ballot check`, `ballot link`, `ballot portability` and the include
//! macros share.
//!
//! A path is untrusted: it may name a FIFO (whose `open` blocks until a
//! writer comes, and whose reads never end), a device such as `/dev/zero`
//! (endless), or a file of gigabytes. [`read`] takes regular files only,
//! and reads at most one byte past its limit, so that nothing it is given
//! can make it wait or fill memory.

use std::io::Read as _;
use std::path::Path;

/// The largest file the tools read by default: 16 MiB, far beyond any real
/// shader or kernel. (`check::MAX_SOURCE_BYTES` is this constant.)
pub const MAX_SOURCE_BYTES: usize = 16 << 20;

/// Why [`read`] gave no text. Its `Display` is the reason alone; a caller
/// names the path.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The operating system's error: no such file, no permission, …
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The path names something other than a regular file.
    #[error("it is {kind}, not a regular file")]
    NotAFile {
        /// What it is: `a directory`, `a FIFO`, `a character device`, …
        kind: &'static str,
    },
    /// The file is larger than the limit.
    #[error("the file has {size} bytes; the limit is {limit}")]
    TooLarge {
        /// Its size, as far as known: the file system's, or the bytes read
        /// (one more than the limit) where that says less.
        size: u64,
        /// The limit given to [`read`].
        limit: usize,
    },
}

/// The bytes of the regular file at `path`, if it holds at most `limit`
/// of them. Anything else, a FIFO or a device above all, is
/// [`ReadError::NotAFile`] before it is opened (opening a FIFO would wait
/// for a writer); a file that grows past `limit` while it is read is
/// [`ReadError::TooLarge`] after `limit + 1` bytes.
pub fn read(path: &Path, limit: usize) -> Result<Vec<u8>, ReadError> {
    // `metadata` follows links: a link to a regular file is that file.
    let before = std::fs::metadata(path)?;
    regular(&before.file_type())?;
    let file = std::fs::File::open(path)?;
    // The path may have been replaced between the two looks; what was
    // opened is what counts.
    let opened = file.metadata()?;
    regular(&opened.file_type())?;
    let mut bytes = Vec::new();
    file.take(limit as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > limit {
        return Err(ReadError::TooLarge {
            size: opened.len().max(bytes.len() as u64),
            limit,
        });
    }
    Ok(bytes)
}

/// `Ok` for a regular file, what it is otherwise.
fn regular(kind: &std::fs::FileType) -> Result<(), ReadError> {
    if kind.is_file() {
        return Ok(());
    }
    let kind = if kind.is_dir() {
        "a directory"
    } else {
        special(kind)
    };
    Err(ReadError::NotAFile { kind })
}

#[cfg(unix)]
fn special(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt as _;
    if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special(_: &std::fs::FileType) -> &'static str {
    "a special file"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("ballot-source-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn a_file_within_the_limit_is_read_whole_and_one_past_it_is_refused() {
        let path = scratch("limit.wgsl");
        std::fs::write(&path, b"0123456789").unwrap();
        assert_eq!(read(&path, 10).unwrap(), b"0123456789");
        let err = read(&path, 9).unwrap_err();
        assert!(
            matches!(err, ReadError::TooLarge { size: 10, limit: 9 }),
            "{err:?}"
        );
        assert_eq!(err.to_string(), "the file has 10 bytes; the limit is 9");
    }

    #[cfg(unix)]
    #[test]
    fn devices_directories_and_fifos_are_refused_without_reading() {
        let err = read(Path::new("/dev/zero"), MAX_SOURCE_BYTES).unwrap_err();
        assert_eq!(
            err.to_string(),
            "it is a character device, not a regular file"
        );
        let err = read(&std::env::temp_dir(), MAX_SOURCE_BYTES).unwrap_err();
        assert_eq!(err.to_string(), "it is a directory, not a regular file");
        let fifo = scratch("fifo.wgsl");
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            // Opening it would block for a writer: the test would hang.
            let err = read(&fifo, MAX_SOURCE_BYTES).unwrap_err();
            assert_eq!(err.to_string(), "it is a FIFO, not a regular file");
        }
        let err = read(&scratch("absent.wgsl"), 1).unwrap_err();
        assert!(matches!(err, ReadError::Io(_)), "{err:?}");
    }
}
