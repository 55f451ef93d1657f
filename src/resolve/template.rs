//! The agents' name templates, filled per verdict: the listing entry's placeholders
//! (`listing.entry`) and the invoke form (`name_rules.invoke`), without a substring searcher made
//! anew for each verdict.

/// The placeholders of a listing template.
pub const PLACEHOLDERS: [&str; 4] = ["{name}", "{description}", "{path}", "{dir}"];

/// How often each of [`PLACEHOLDERS`] occurs in `template`, and how many `{` it has, in one
/// pass (a placeholder starts at a `{` and holds no other, so its occurrences never overlap).
pub fn placeholder_counts(template: &str) -> ([usize; 4], usize) {
    let (mut counts, mut braces) = ([0; 4], 0);
    for (at, _) in template.match_indices('{') {
        braces += 1;
        if let Some(k) = PLACEHOLDERS
            .iter()
            .position(|k| template[at..].starts_with(k))
        {
            counts[k] += 1;
        }
    }
    (counts, braces)
}

/// For the tests: `template` with every `{name}` replaced by `name`, as [`NameIn`] writes it.
#[doc(hidden)]
pub fn with_name(template: &str, name: &str) -> String {
    NameIn { template, name }.to_string()
}

/// `template` with every `{name}` replaced by `name`, written where it is displayed (into a
/// reason's values) without a string of its own.
#[derive(Clone, Copy)]
pub struct NameIn<'a> {
    pub template: &'a str,
    pub name: &'a str,
}

impl NameIn<'_> {
    /// Whether it displays as nothing: an empty template, or one of only `{name}`s with an
    /// empty name.
    pub fn is_empty(&self) -> bool {
        self.template.is_empty()
            || self.name.is_empty() && self.template.split(NAME).all(str::is_empty)
    }
}

const NAME: &str = "{name}";

impl std::fmt::Display for NameIn<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut rest = self.template;
        while let Some(at) = rest.find('{') {
            if rest[at..].starts_with(NAME) {
                f.write_str(&rest[..at])?;
                f.write_str(self.name)?;
                rest = &rest[at + NAME.len()..];
            } else {
                f.write_str(&rest[..=at])?;
                rest = &rest[at + 1..];
            }
        }
        f.write_str(rest)
    }
}
