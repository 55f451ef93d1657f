//! Plugin manifests above a skill: the namespace some agents put in front of a skill's listed
//! name (Codex lists a skill inside a plugin as `plugin:name`). What counts as a manifest, where
//! it is looked for and how its name is read come from the model's
//! `name_rules.plugin_namespace` ([`PluginNamespace`]); this module only reads files.
//!
//! The search visits each folder once per agent (memoised: the skills of one plugin share
//! every folder above them), stats the manifest paths of the folder in order and reads the first
//! regular file among them, at most [`MAX_MANIFEST_BYTES`]. Nothing is executed.

use crate::agents::{AgentModel, PluginNameFallback, PluginNamespace};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::collections::HashMap;
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

/// The nearest plugin above folders, for one agent's rule, each folder looked at once.
pub struct Finder<'r> {
    rule: &'r PluginNamespace,
    memo: HashMap<PathBuf, Option<Plugin>>,
}

impl<'r> Finder<'r> {
    pub fn new(rule: &'r PluginNamespace) -> Finder<'r> {
        Finder {
            rule,
            memo: HashMap::new(),
        }
    }

    /// The plugin of a skill in `dir`: `dir`'s own manifest, else the nearest folder above it
    /// (up to the file system root) with one.
    pub fn nearest(&mut self, dir: &Path) -> Option<Plugin> {
        let mut chain: Vec<&Path> = Vec::new();
        let mut found: Option<Plugin> = None;
        for a in dir.ancestors() {
            if let Some(m) = self.memo.get(a) {
                found = m.clone();
                break;
            }
            chain.push(a);
        }
        // Farthest first: each folder's plugin is its own, else the one above it.
        for a in chain.into_iter().rev() {
            if let Some(p) = folder_plugin(self.rule, a) {
                found = Some(p);
            }
            self.memo.insert(a.to_path_buf(), found.clone());
        }
        found
    }
}

/// The plugin of every skill folder in `dirs` for every agent whose model namespaces plugin
/// skills: (agent index, folder) → plugin; folders in no plugin are left out.
pub fn plugins<'a>(
    models: &[AgentModel],
    dirs: impl IntoIterator<Item = &'a Path> + Clone,
) -> HashMap<(usize, PathBuf), Plugin> {
    let mut out = HashMap::new();
    for (ai, m) in models.iter().enumerate() {
        let Some(rule) = m
            .name_rules
            .plugin_namespace
            .as_ref()
            .and_then(|r| r.known())
        else {
            continue;
        };
        let mut finder = Finder::new(rule);
        for d in dirs.clone() {
            if let Some(p) = finder.nearest(d) {
                out.insert((ai, d.to_path_buf()), p);
            }
        }
    }
    out
}
