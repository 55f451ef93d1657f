//! The plugin namespace of a listed name (`name_rules.plugin_namespace`): a skill inside a
//! plugin is listed as `<plugin><separator><name>`. The scan found each skill folder's nearest
//! plugin manifest (`crate::plugin`); this only applies the rule.

use super::accept::Accepted;
use super::verdict::Reason;
use super::verdict::shown;
use crate::agents::AgentModel;
use crate::msg;
use crate::scan::Scan;
use std::path::Path;

/// Puts the plugin namespace in front of `a.name` when the skill at `path` lies in a plugin, with
/// a note saying so. Returns the name collisions compare (the namespaced one unless the rule says
/// otherwise), or the reason skilltui cannot tell the listed name.
pub fn apply(
    m: &AgentModel,
    ai: usize,
    scan: &Scan,
    path: &Path,
    a: &mut Accepted,
) -> Result<String, Box<Reason>> {
    let Some(rule) = &m.name_rules.plugin_namespace else {
        return Ok(a.name.clone());
    };
    let Some(ns) = rule.known() else {
        return Ok(a.name.clone());
    };
    let canon = scan.canonical.get(path).map_or(path, |c| c.as_path());
    let Some(plugin) = canon
        .parent()
        .and_then(|d| scan.plugins.get(&(ai, d.to_path_buf())))
    else {
        return Ok(a.name.clone());
    };
    let plugin_name = match &plugin.name {
        Ok(n) => n,
        Err(why) => {
            return Err(Box::new(Reason::from_rule(
                &rule.from,
                msg!(
                    "{} lists it under the name of the plugin in {}, which skilltui cannot tell: {}",
                    m.name,
                    shown(&plugin.manifest),
                    why
                ),
            )));
        }
    };
    let base = std::mem::take(&mut a.name);
    a.name = format!("{plugin_name}{}{base}", ns.separator);
    let whence = if plugin.from_folder {
        format!(
            "{} gives no name, so the plugin folder's is used",
            shown(&plugin.manifest)
        )
    } else {
        format!("named in {}", shown(&plugin.manifest))
    };
    a.notes.push(Reason::from_rule(
        &rule.from,
        msg!(
            "listed as `{}`: the skill is inside the plugin `{}` ({}){}",
            a.name,
            plugin_name,
            whence,
            if ns.collision_key {
                ""
            } else {
                "; collisions compare the name without the plugin"
            }
        ),
    ));
    Ok(if ns.collision_key {
        a.name.clone()
    } else {
        base
    })
}
