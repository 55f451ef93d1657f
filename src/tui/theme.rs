//! The explorer's colours by role, set once from the config file's `[theme]` (the views read
//! them through `view::style`). Under `NO_COLOR` every colour is dropped anyway.

use ratatui::style::Color;
use std::sync::RwLock;

/// Named colours per role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// Key hints (footer, help).
    pub key: Color,
    /// Secondary text (paths, sources, separators).
    pub dim: Color,
    /// The selected row and the active tab.
    pub selected_fg: Color,
    pub selected_bg: Color,
    /// The focused pane's border and the popups' borders.
    pub accent: Color,
    /// Verdicts.
    pub visible: Color,
    pub shadowed: Color,
    pub rejected: Color,
    pub not_found: Color,
    pub unknown: Color,
    /// Messages: a failure or refusal, a success.
    pub error: Color,
    pub success: Color,
}

impl Theme {
    pub const DEFAULT: Theme = Theme {
        key: Color::Cyan,
        dim: Color::DarkGray,
        selected_fg: Color::White,
        selected_bg: Color::Blue,
        accent: Color::Cyan,
        visible: Color::Green,
        shadowed: Color::Yellow,
        rejected: Color::Red,
        not_found: Color::DarkGray,
        unknown: Color::Magenta,
        error: Color::Red,
        success: Color::Green,
    };

    /// The roles by config name, with what each colours.
    pub const ROLES: [(&'static str, &'static str); 12] = [
        ("key", "key hints in the footer and the help"),
        ("dim", "secondary text: paths, sources, separators"),
        ("selected-fg", "the selected row and the active tab: text"),
        (
            "selected-bg",
            "the selected row and the active tab: background",
        ),
        ("accent", "the focused pane's border, the popups' borders"),
        ("visible", "✓ visible"),
        ("shadowed", "↓ shadowed"),
        ("rejected", "✗ rejected"),
        ("not-found", "· not found"),
        ("unknown", "? unknown"),
        ("error", "a refusal or failure message"),
        ("success", "a success message"),
    ];

    /// The colour of a role, by config name.
    pub fn role_mut(&mut self, name: &str) -> Option<&mut Color> {
        Some(match name {
            "key" => &mut self.key,
            "dim" => &mut self.dim,
            "selected-fg" => &mut self.selected_fg,
            "selected-bg" => &mut self.selected_bg,
            "accent" => &mut self.accent,
            "visible" => &mut self.visible,
            "shadowed" => &mut self.shadowed,
            "rejected" => &mut self.rejected,
            "not-found" => &mut self.not_found,
            "unknown" => &mut self.unknown,
            "error" => &mut self.error,
            "success" => &mut self.success,
            _ => return None,
        })
    }

    pub fn role(&self, name: &str) -> Option<Color> {
        let mut t = *self;
        t.role_mut(name).map(|c| *c)
    }
}

impl Default for Theme {
    fn default() -> Self {
        Theme::DEFAULT
    }
}

/// Parses a colour as written in the config file: a name (`red`, `lightblue`, `darkgray`,
/// `reset`), `#rrggbb`, or a 256-colour index (`0`–`255`).
pub fn parse_color(s: &str) -> Result<Color, String> {
    s.trim().parse::<Color>().map_err(|_| {
        format!(
            "`{s}` is not a colour (a name such as red, lightblue, darkgray; #rrggbb; or 0-255)"
        )
    })
}

static CURRENT: RwLock<Theme> = RwLock::new(Theme::DEFAULT);

/// The theme in use.
pub fn current() -> Theme {
    CURRENT.read().map(|t| *t).unwrap_or(Theme::DEFAULT)
}

/// Sets the theme in use (the explorer does, once, from the config file).
pub fn set(t: Theme) {
    if let Ok(mut c) = CURRENT.write() {
        *c = t;
    }
}
