//! Plugin manifests above a skill: the namespace some agents put in front of a skill's listed
//! name (Codex lists a skill inside a plugin as `plugin:name`). What counts as a manifest, where
//! it is looked for and how its name is read come from the model's
//! `name_rules.plugin_namespace` ([`PluginNamespace`]); this module only reads files.
//!
//! The search visits each folder once per agent (the skills of one plugin share every folder
//! above them; the folders on all cores), stats the manifest paths of the folder in order and
//! reads the first regular file among them, at most [`MAX_MANIFEST_BYTES`]. Nothing is executed.

use crate::agents::{AgentModel, PluginNameFallback, PluginNamespace};
use crate::par::par_map;
use foldhash::{HashMap, HashMapExt, HashSet, HashSetExt};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::ffi::OsStr;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest manifest skilltui reads (a real `plugin.json` is a few hundred bytes).
pub const MAX_MANIFEST_BYTES: u64 = 1 << 20;

/// The plugin a skill belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plugin {
    /// The manifest that names the plugin.
    pub manifest: PathBuf,
    /// The plugin name (the fallback applied), or why skilltui could not tell it (the agent may
    /// read the manifest, skilltui did not).
    pub name: Result<String, String>,
    /// The manifest has no usable name: the name is the plugin folder's.
    pub from_folder: bool,
}

/// The plugin folder `dir` is, by its own manifest: None when no manifest path is a regular file
/// or the first one is not a valid manifest (the search then goes on above, `invalid =
/// "next-folder"`).
pub fn folder_plugin(rule: &PluginNamespace, dir: &Path) -> Option<Plugin> {
    let manifest = rule
        .manifests
        .iter()
        .map(|m| dir.join(m))
        .find(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file()))?;
    let mut bytes = Vec::new();
    let file = std::fs::File::open(&manifest).ok()?;
    file.take(MAX_MANIFEST_BYTES + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    if bytes.len() as u64 > MAX_MANIFEST_BYTES {
        return Some(Plugin {
            manifest,
            name: Err(format!(
                "the manifest is larger than {} KiB; skilltui did not read it",
                MAX_MANIFEST_BYTES / 1024
            )),
            from_folder: false,
        });
    }
    let raw = manifest_name(&bytes, &rule.name_key)?;
    let folder = dir.file_name().map(|n| n.to_string_lossy().into_owned());
    let (name, from_folder) = match (rule.fallback, folder) {
        (PluginNameFallback::Folder, Some(f)) if raw.trim().is_empty() => (f, true),
        _ => (raw, false),
    };
    Some(Plugin {
        manifest,
        name: Ok(name),
        from_folder,
    })
}

/// The name a manifest gives (`""` when it has none), or None when it is not a valid manifest:
/// read as serde_json reads a struct with one defaulted string field `key` — an object whose
/// other keys are ignored, `key` a string and not repeated; or an array whose only item, if any,
/// is that string.
pub fn manifest_name(bytes: &[u8], key: &str) -> Option<String> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let name = NameSeed(key).deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(name)
}

struct NameSeed<'k>(&'k str);

impl<'de> DeserializeSeed<'de> for NameSeed<'_> {
    type Value = String;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_struct("PluginManifest", &[], self)
    }
}

impl<'de> Visitor<'de> for NameSeed<'_> {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a plugin manifest object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<String, A::Error> {
        let mut name: Option<String> = None;
        while let Some(k) = map.next_key::<String>()? {
            if k == self.0 {
                if name.is_some() {
                    return Err(de::Error::custom(format!("duplicate field `{}`", self.0)));
                }
                name = Some(map.next_value::<String>()?);
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(name.unwrap_or_default())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<String, A::Error> {
        Ok(seq.next_element::<String>()?.unwrap_or_default())
    }
}

/// The first part of each manifest path of every agent's plugin rule (`.codex-plugin` of
/// `.codex-plugin/plugin.json`), distinct: a folder holding nothing named like these, in any
/// letter case, holds no manifest ([`plugins`]'s `bare`). None when some manifest path does
/// not start with a name inside the folder (`..`, an absolute path) or starts with `.git`: a
/// walk's listing cannot rule it out.
pub fn manifest_folders(models: &[AgentModel]) -> Option<Vec<&str>> {
    let mut names: Vec<&str> = Vec::new();
    let rules = models
        .iter()
        .filter_map(|m| m.name_rules.plugin_namespace.as_ref()?.known());
    for m in rules.flat_map(|rule| rule.manifests.iter()) {
        let first = Path::new(m)
            .components()
            .find(|c| !matches!(c, std::path::Component::CurDir));
        match first {
            // A walk never lists `.git`.
            Some(std::path::Component::Normal(n)) if !n.eq_ignore_ascii_case(".git") => {
                names.push(n.to_str()?)
            }
            _ => return None,
        }
    }
    names.sort_unstable();
    names.dedup();
    Some(names)
}

/// The plugin of every skill folder in `dirs` for every agent whose model namespaces plugin
/// skills: (agent index, folder) → plugin; folders in no plugin are left out. `bare(folder)`
/// says the folder is known to hold nothing named like a [`manifest_folders`] name (a walk
/// listed it): its manifests are not looked for.
pub fn plugins(
    models: &[AgentModel],
    dirs: &[&Path],
    bare: impl Fn(&Path) -> bool + Sync,
) -> HashMap<(usize, PathBuf), Plugin> {
    let rules: Vec<(usize, &PluginNamespace)> = models
        .iter()
        .enumerate()
        .filter_map(|(ai, m)| {
            let rule = m.name_rules.plugin_namespace.as_ref()?.known()?;
            Some((ai, rule))
        })
        .collect();
    let mut out = HashMap::new();
    if rules.is_empty() {
        return out;
    }
    // Every folder at or above a skill folder, once (the skills of one plugin share the folders
    // above them): when a folder was seen, so were all above it. The folders are told apart by
    // their bytes, not their components (hashing a path's bytes is a tenth of the work): every
    // folder here is a skill folder or an ancestor `Path::parent` gave, so the same folder
    // always comes with the same bytes, and one spelt two ways is only looked at twice.
    let mut seen: HashSet<&OsStr> = HashSet::with_capacity(2 * dirs.len());
    for d in dirs {
        for a in d.ancestors() {
            if !seen.insert(a.as_os_str()) {
                break;
            }
        }
    }
    // Shorter first: a folder comes after every folder above it (each a prefix of it).
    let mut folders: Vec<&Path> = seen.into_iter().map(Path::new).collect();
    folders.sort_unstable_by_key(|a| a.as_os_str().len());
    for (ai, rule) in rules {
        // Each folder's own manifest, on all cores; a skill's plugin is the nearest one: its
        // folder's own, else the one nearest its parent (worked out first).
        let own = par_map(&folders, |a| {
            if bare(a) {
                None
            } else {
                folder_plugin(rule, a)
            }
        });
        if own.iter().all(Option::is_none) {
            continue;
        }
        let mut nearest: HashMap<&OsStr, Option<usize>> = HashMap::with_capacity(folders.len());
        for (i, &a) in folders.iter().enumerate() {
            let n = match own[i] {
                Some(_) => Some(i),
                None => a
                    .parent()
                    .and_then(|p| nearest.get(p.as_os_str()).copied().flatten()),
            };
            nearest.insert(a.as_os_str(), n);
        }
        for &d in dirs {
            if let Some(p) = nearest
                .get(d.as_os_str())
                .copied()
                .flatten()
                .and_then(|i| own[i].as_ref())
            {
                out.insert((ai, d.to_path_buf()), p.clone());
            }
        }
    }
    out
}
