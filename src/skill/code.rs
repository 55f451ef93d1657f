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
    /// Whether the quick fix for this problem is chosen from the file's first lines (a BOM
    /// before missing frontmatter, an unquoted colon in invalid YAML): a catalog that drops the
    /// files' heads keeps those of the files with such a problem.
    pub fn fix_reads_head(self) -> bool {
        matches!(
            self,
            ProblemCode::FrontmatterMissing | ProblemCode::YamlInvalid
        )
    }

    /// The stable string form.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Every code, in declaration order.
    pub fn all() -> impl Iterator<Item = ProblemCode> {
        <ProblemCode as strum::IntoEnumIterator>::iter()
    }

    /// What the code means, in one sentence.
    pub fn description(self) -> &'static str {
        use ProblemCode::*;
        match self {
            PathMissing => "The path does not exist.",
            NotADirectory => "Neither a folder nor a SKILL.md file.",
            SkillMdMissing => "No SKILL.md in the folder.",
            SkillMdLowercase => "The file is not named exactly SKILL.md.",
            FileTooLarge => "The file is over 1 MiB.",
            FileNotUtf8 => "The file is not UTF-8.",
            FileBinary => "The file contains a NUL byte.",
            FileUnreadable => "The file cannot be read.",
            FrontmatterMissing => "The file does not start with a `---` frontmatter line.",
            FrontmatterUnclosed => "The frontmatter has no closing `---` line.",
            YamlInvalid => "The frontmatter is not valid YAML.",
            FrontmatterNotMapping => "The frontmatter is not a YAML mapping.",
            FieldUnexpected => {
                "A top-level frontmatter key outside the specification's six fields."
            }
            NameMissing => "The `name` field is missing.",
            NameNotString => "The `name` field is not a string.",
            NameEmpty => "The `name` field is empty.",
            NameTooLong => "The name is over 64 characters.",
            NameNotLowercase => "The name is not lowercase.",
            NameHyphenEdge => "The name starts or ends with a hyphen.",
            NameConsecutiveHyphens => "The name holds `--`.",
            NameInvalidChars => {
                "The name holds a character other than letters, digits and hyphens."
            }
            NameDirectoryMismatch => "The name differs from the skill's folder name.",
            DescriptionMissing => "The `description` field is missing.",
            DescriptionNotString => "The `description` field is not a string.",
            DescriptionEmpty => "The `description` field is empty.",
            DescriptionTooLong => "The description is over 1024 characters.",
            CompatibilityNotString => "The `compatibility` field is not a string.",
            CompatibilityTooLong => "The `compatibility` field is over 500 characters.",
            CompatibilityEmpty => "The `compatibility` field is empty.",
            MetadataNotMap => "`metadata` is not a map of strings to strings.",
            AllowedToolsNotString => "`allowed-tools` is not a space-separated string.",
            LicenseNotString => "`license` is not a string.",
            ReferenceMissing => "The body refers to a file of the skill that does not exist.",
        }
    }

    /// A problem with the file itself (its path, bytes or frontmatter block), met before any
    /// field is read: every agent meets it, whatever it does about it.
    pub fn file_level(self) -> bool {
        use ProblemCode::*;
        matches!(
            self,
            PathMissing
                | NotADirectory
                | SkillMdMissing
                | SkillMdLowercase
                | FileTooLarge
                | FileNotUtf8
                | FileBinary
                | FileUnreadable
                | FrontmatterMissing
                | FrontmatterUnclosed
                | YamlInvalid
                | FrontmatterNotMapping
        )
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
