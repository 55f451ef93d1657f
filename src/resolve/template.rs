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

/// `template` with every `{name}` replaced by `name` (`str::replace` without its substring
/// searcher, made anew for each call).
pub fn with_name(template: &str, name: &str) -> String {
    const KEY: &str = "{name}";
    let mut out = String::with_capacity(template.len() + name.len());
    let mut rest = template;
    while let Some(at) = rest.find('{') {
        if rest[at..].starts_with(KEY) {
            out.push_str(&rest[..at]);
            out.push_str(name);
            rest = &rest[at + KEY.len()..];
        } else {
            out.push_str(&rest[..=at]);
            rest = &rest[at + 1..];
        }
    }
    out.push_str(rest);
    out
}
