//! Reading a SKILL.md from disk into text, safely: bounded size, no binary, UTF-8 only.

use super::ProblemCode;
use std::fmt;
use std::io::Read;
use std::path::Path;

/// Files larger than this are not read (the spec recommends under 500 lines).
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// Why a file could not be turned into text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// Larger than [`MAX_FILE_BYTES`].
    TooLarge { bytes: u64 },
    /// Contains a NUL byte: not a text file.
    Binary { offset: usize },
    /// Not valid UTF-8; `line`/`column` locate the first bad byte (column in bytes, 1-based).
    NotUtf8 {
        offset: usize,
        line: usize,
        column: usize,
    },
    /// The path is a folder, a socket or another non-file.
    NotAFile,
    /// The operating system refused (permission, vanished, I/O error).
    Io {
        kind: std::io::ErrorKind,
        message: String,
    },
}

impl ReadError {
    /// The stable problem code.
    pub fn code(&self) -> ProblemCode {
        match self {
            ReadError::TooLarge { .. } => ProblemCode::FileTooLarge,
            ReadError::Binary { .. } => ProblemCode::FileBinary,
            ReadError::NotUtf8 { .. } => ProblemCode::FileNotUtf8,
            ReadError::NotAFile => ProblemCode::SkillMdMissing,
            ReadError::Io { .. } => ProblemCode::FileUnreadable,
        }
    }

    /// Line of the problem when known.
    pub fn line(&self) -> Option<usize> {
        match self {
            ReadError::NotUtf8 { line, .. } => Some(*line),
            _ => None,
        }
    }

    pub fn column(&self) -> Option<usize> {
        match self {
            ReadError::NotUtf8 { column, .. } => Some(*column),
            _ => None,
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::TooLarge { bytes } => write!(
                f,
                "SKILL.md is {bytes} bytes; files over {MAX_FILE_BYTES} bytes (1 MiB) are not read"
            ),
            ReadError::Binary { offset } => write!(
                f,
                "SKILL.md is not a text file (NUL byte at offset {offset})"
            ),
            ReadError::NotUtf8 { offset, .. } => write!(
                f,
                "SKILL.md is not valid UTF-8 (first bad byte at offset {offset}); save it as UTF-8"
            ),
            ReadError::NotAFile => write!(f, "SKILL.md is not a regular file"),
            ReadError::Io { message, .. } => write!(f, "SKILL.md cannot be read: {message}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads `path` as UTF-8 text within the limits. Never reads more than the limit plus one byte.
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    read(path, true)
}

/// [`read_text`] of a file a walk found to be a regular file: its path is not looked up again
/// before it is opened (one system call fewer a file); the open handle is checked, as
/// [`read_text`] checks it too.
pub fn read_walked_text(path: &Path) -> Result<String, ReadError> {
    read(path, false)
}

fn read(path: &Path, look_first: bool) -> Result<String, ReadError> {
    let io = |e: std::io::Error| ReadError::Io {
        kind: e.kind(),
        message: e.to_string(),
    };
    let checked = |meta: std::fs::Metadata| {
        if !meta.is_file() {
            return Err(ReadError::NotAFile);
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(ReadError::TooLarge { bytes: meta.len() });
        }
        Ok(meta.len())
    };
    // Only a regular file is opened: a device's open may act.
    if look_first {
        checked(std::fs::metadata(path).map_err(io)?)?;
    }
    // Opened without blocking (a FIFO swapped in after the check must not hang the scan), and
    // checked again on the open handle.
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        const O_NONBLOCK: i32 = 0o4000;
        options.custom_flags(O_NONBLOCK);
    }
    let file = options.open(path).map_err(io)?;
    let len = checked(file.metadata().map_err(io)?)?;
    let mut bytes = Vec::with_capacity(len as usize);
    // The file may grow between metadata and read: bound the read itself.
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge {
            bytes: bytes.len() as u64,
        });
    }
    decode(bytes)
}

/// Turns bytes into text with the same checks as [`read_text`] (for in-memory input).
pub fn decode(bytes: Vec<u8>) -> Result<String, ReadError> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge {
            bytes: bytes.len() as u64,
        });
    }
    // The `memchr` crate's search (vectorised): `<[u8]>::contains` reads a word at a time.
    if let Some(offset) = memchr::memchr(0, &bytes) {
        return Err(ReadError::Binary { offset });
    }
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let before = &bytes[..offset];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        ReadError::NotUtf8 {
            offset,
            line,
            column: offset - line_start + 1,
        }
    })
}
