//! Paths in `Path`'s own order (component by component), compared as bytes: the findings of a
//! large catalog are sorted and grouped by path, and their paths share long prefixes (the home
//! or project folder, the root, the skill folder) that `Path::cmp` walks again, a byte at a
//! time, in every comparison.
//!
//! A [`Key`] writes a path's components out once, each as a tag for its kind (in the order
//! `Component` sorts them: root, `.`, `..`, a name) and its bytes, then a zero byte; two keys
//! compare as `Path::cmp` compares their paths (a property test holds it to that). A path with
//! a platform prefix (`C:`, `\\server\share`) keeps no bytes and is compared by `Path::cmp`.

use std::cmp::Ordering;
use std::path::{Component, Path};

/// A path with its components written out for comparing.
#[derive(Debug, Clone)]
pub struct Key<'a> {
    path: &'a Path,
    /// None: the path has a prefix (compared by `Path::cmp`).
    bytes: Option<Box<[u8]>>,
}

impl<'a> Key<'a> {
    pub fn new(path: &'a Path) -> Key<'a> {
        let mut bytes = Vec::with_capacity(path.as_os_str().len() + 4);
        for c in path.components() {
            match c {
                Component::Prefix(_) => return Key { path, bytes: None },
                Component::RootDir => bytes.push(1),
                Component::CurDir => bytes.push(2),
                Component::ParentDir => bytes.push(3),
                Component::Normal(name) => {
                    bytes.push(4);
                    // A name holds no zero byte (no file system allows one).
                    bytes.extend_from_slice(name.as_encoded_bytes());
                }
            }
            bytes.push(0);
        }
        Key {
            path,
            bytes: Some(bytes.into_boxed_slice()),
        }
    }

    pub fn path(&self) -> &'a Path {
        self.path
    }
}

impl Ord for Key<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        match (&self.bytes, &other.bytes) {
            (Some(a), Some(b)) => a.cmp(b),
            _ => self.path.cmp(other.path),
        }
    }
}

impl PartialOrd for Key<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Key<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Key<'_> {}
