//! The stable codes of the problems a skill file can have ([`ProblemCode`]): the spec's
//! (`spec::validate`), the file's and the frontmatter's (this module's readers), and a missing
//! body reference (the catalog). Defined here, the lowest layer, so that every layer that
//! reports a problem names it by the same enum; `spec` re-exports it.

use serde::Serialize;

/// A problem's code. The kebab-case string form is stable: scripts and `--only`/`--ignore`
/// filters depend on it (`tests/it/stable_names.rs` pins every one).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::AsRefStr,
    strum::EnumIter,
    strum::Display,
)]
#[strum(serialize_all = "kebab-case")]
pub enum ProblemCode {
    PathMissing,
    NotADirectory,
    SkillMdMissing,
    SkillMdLowercase,
    FileTooLarge,
    FileNotUtf8,
    FileBinary,
    FileUnreadable,
    FrontmatterMissing,
    FrontmatterUnclosed,
    YamlInvalid,
    FrontmatterNotMapping,
    FieldUnexpected,
    NameMissing,
    NameNotString,
    NameEmpty,
    NameTooLong,
    NameNotLowercase,
    NameHyphenEdge,
    NameConsecutiveHyphens,
    NameInvalidChars,
    NameDirectoryMismatch,
    DescriptionMissing,
    DescriptionNotString,
    DescriptionEmpty,
    DescriptionTooLong,
    CompatibilityNotString,
    CompatibilityTooLong,
    CompatibilityEmpty,
    MetadataNotMap,
    AllowedToolsNotString,
    LicenseNotString,
    ReferenceMissing,
}

impl ProblemCode {
    /// The stable string form.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Every code, in declaration order.
    pub fn all() -> impl Iterator<Item = ProblemCode> {
        <ProblemCode as strum::IntoEnumIterator>::iter()
    }
}

/// A code equals its stable string (`code == "name-too-long"`), for tests that pin the strings;
/// the library compares variants.
impl PartialEq<&str> for ProblemCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl Serialize for ProblemCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}
