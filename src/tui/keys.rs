//! The key table: every binding of the explorer as data — its keys, where it applies, the
//! action, a short label (footer) and a help text. `update` dispatches through it, the footer
//! and the help screen are made from it, and the config file (`[keys]`) remaps it.
//!
//! Text entry (the search query, a new name) and the popups' own keys (move/copy/link, apply)
//! are not in the table: they are typed text or answers to the popup on screen.

use super::app::{App, Focus, Tab};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// What a key does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    Quit,
    Help,
    /// Back out: cancel the running job, close the detail, clear the search and the filters.
    Back,
    /// Show tab `n` (0-based).
    Tab(u8),
    Down,
    Up,
    PageDown,
    PageUp,
    HalfDown,
    HalfUp,
    First,
    Last,
    /// Into the detail pane; on a cause's skills, open the skill.
    Open,
    /// Back to the list pane.
    ToList,
    NextDetail,
    PrevDetail,
    Search,
    Sort,
    Filter,
    /// Pick the agent whose column is shown (a picker).
    Agent,
    /// Every agent's column, or back to the default selection (the agents in use).
    AllAgents,
    Scope,
    Rescan,
    /// Open the source of the deciding reason.
    OpenSource,
    /// Copy the source of the deciding reason (OSC 52).
    CopySource,
    /// Copy the selected SKILL.md's path (OSC 52).
    CopyPath,
    /// Open the selected SKILL.md in `$VISUAL`/`$EDITOR`, then rescan.
    Edit,
    Rename,
    Move,
    Fix,
    Win,
    /// In `W`'s plan list: preview the selected plan; in its preview: apply it.
    PlanGo,
    Delete,
    Undo,
    /// Scroll the agent columns left or right (when not all fit beside the names).
    ColumnsLeft,
    ColumnsRight,
    /// Share the skills of the selected cause with its agent (Problems tab).
    Share,
    /// Problems tab: only the causes that break a skill for some agent, or all.
    Broken,
}

impl Action {
    /// Every action, in the order of the key table.
    pub fn all() -> Vec<Action> {
        default_bindings().iter().map(|b| b.action).collect()
    }

    /// The action's name in the config file (`[keys]`).
    pub fn name(self) -> String {
        match self {
            Action::Tab(n) => format!("tab-{}", n + 1),
            a => match a {
                Action::Quit => "quit",
                Action::Help => "help",
                Action::Back => "back",
                Action::Down => "down",
                Action::Up => "up",
                Action::PageDown => "page-down",
                Action::PageUp => "page-up",
                Action::HalfDown => "half-page-down",
                Action::HalfUp => "half-page-up",
                Action::First => "first",
                Action::Last => "last",
                Action::Open => "open",
                Action::ToList => "to-list",
                Action::NextDetail => "next-detail",
                Action::PrevDetail => "previous-detail",
                Action::Search => "search",
                Action::Sort => "sort",
                Action::Filter => "filter",
                Action::Agent => "agent",
                Action::AllAgents => "all-agents",
                Action::Scope => "scope",
                Action::Rescan => "rescan",
                Action::OpenSource => "open-source",
                Action::CopySource => "copy-source",
                Action::CopyPath => "copy-path",
                Action::Edit => "edit",
                Action::Rename => "rename",
                Action::Move => "move",
                Action::Fix => "fix",
                Action::Win => "win",
                Action::PlanGo => "plan-preview-apply",
                Action::Delete => "delete",
                Action::Undo => "undo",
                Action::ColumnsLeft => "columns-left",
                Action::ColumnsRight => "columns-right",
                Action::Share => "share",
                Action::Broken => "broken-only",
                Action::Tab(_) => unreachable!(),
            }
            .to_string(),
        }
    }

    /// The action a config name stands for.
    pub fn from_name(name: &str) -> Option<Action> {
        Action::all().into_iter().find(|a| a.name() == name)
    }
}

/// Where a binding applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Everywhere (outside the popups and text entry).
    Always,
    /// On a list or a pane that moves or scrolls (every tab).
    Moving,
    /// The Skills tab.
    SkillsTab,
    /// The list pane of a tab with a detail pane, or a cause's skills (Problems tab).
    ListPane,
    /// The detail pane has focus.
    DetailPane,
    /// The Problems tab (a cause is selected).
    ProblemsTab,
    /// Where a skill (or a copy of one) is selected: the Skills tab, the Collisions tab, a
    /// cause's skills in the Problems tab.
    OnSkill,
    /// `W`'s list of candidate plans (and the preview of one) is open.
    Plans,
}

impl When {
    /// Whether bindings in `self` and `other` can be live at once: `W`'s plan list is a popup
    /// whose keys act only while it is open, and no other binding acts then.
    pub fn meets(self, other: When) -> bool {
        (self == When::Plans) == (other == When::Plans)
    }

    pub fn applies(self, app: &App) -> bool {
        match self {
            When::Plans => matches!(app.action, Some(super::app::ActionUi::Plans { .. })),
            When::Always | When::Moving => true,
            When::SkillsTab => app.tab == Tab::Skills,
            When::ListPane => match app.focus {
                Focus::List => app.tab != Tab::Roots,
                Focus::Detail => app.tab == Tab::Problems,
            },
            When::DetailPane => app.focus == Focus::Detail,
            When::ProblemsTab => app.tab == Tab::Problems,
            When::OnSkill => match app.tab {
                Tab::Skills | Tab::Collisions => true,
                Tab::Problems => app.focus == Focus::Detail,
                _ => false,
            },
        }
    }

    /// The help screen's section title.
    pub fn title(self) -> &'static str {
        match self {
            When::Always => "everywhere",
            When::Moving => "lists and panes",
            When::SkillsTab => "Skills tab",
            When::ListPane => "list pane (and a cause's skills)",
            When::DetailPane => "detail pane",
            When::ProblemsTab => "Problems tab",
            When::OnSkill => "on a skill (Skills, Collisions, a cause's skills)",
            When::Plans => "W's plan list (best first; losses marked ✗)",
        }
    }
}

/// One key with its modifiers (Shift is part of an upper-case letter, not a modifier).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
    pub alt: bool,
}

impl Key {
    pub const fn plain(code: KeyCode) -> Key {
        Key {
            code,
            ctrl: false,
            alt: false,
        }
    }

    pub const fn ch(c: char) -> Key {
        Key::plain(KeyCode::Char(c))
    }

    pub const fn ctrl(c: char) -> Key {
        Key {
            code: KeyCode::Char(c),
            ctrl: true,
            alt: false,
        }
    }

    /// Whether a terminal key event is this key.
    pub fn matches(&self, k: &KeyEvent) -> bool {
        let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
        let alt = k.modifiers.contains(KeyModifiers::ALT);
        if ctrl != self.ctrl || alt != self.alt {
            return false;
        }
        match (self.code, k.code) {
            // Shift-Tab arrives as BackTab (with or without the Shift modifier).
            (KeyCode::BackTab, KeyCode::BackTab) => true,
            // A letter with Ctrl may arrive upper-case when Shift is held too.
            (KeyCode::Char(a), KeyCode::Char(b)) if self.ctrl => a.eq_ignore_ascii_case(&b),
            (a, b) => a == b,
        }
    }

    /// Parses a key as written in the config file: `q`, `G`, `?`, `ctrl-d`, `alt-x`, `esc`,
    /// `enter`, `tab`, `shift-tab`, `space`, `up`, `down`, `left`, `right`, `pageup`,
    /// `pagedown`, `home`, `end`, `backspace`, `delete`, `insert`, `f1`…`f12`.
    pub fn parse(s: &str) -> Result<Key, String> {
        let mut ctrl = false;
        let mut alt = false;
        let mut rest = s;
        loop {
            let lower = rest.to_ascii_lowercase();
            if rest.chars().count() > 1 && (lower.starts_with("ctrl-") || lower.starts_with("c-")) {
                ctrl = true;
                rest = &rest[rest.find('-').unwrap() + 1..];
            } else if rest.chars().count() > 1
                && (lower.starts_with("alt-") || lower.starts_with("a-"))
            {
                alt = true;
                rest = &rest[rest.find('-').unwrap() + 1..];
            } else {
                break;
            }
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) => KeyCode::Char(c),
            (None, _) => return Err(format!("`{s}` is not a key")),
            _ => match rest.to_ascii_lowercase().as_str() {
                "esc" | "escape" => KeyCode::Esc,
                "enter" | "return" => KeyCode::Enter,
                "tab" => KeyCode::Tab,
                "shift-tab" | "backtab" | "s-tab" => KeyCode::BackTab,
                "space" => KeyCode::Char(' '),
                "up" => KeyCode::Up,
                "down" => KeyCode::Down,
                "left" => KeyCode::Left,
                "right" => KeyCode::Right,
                "pageup" | "pgup" => KeyCode::PageUp,
                "pagedown" | "pgdn" => KeyCode::PageDown,
                "home" => KeyCode::Home,
                "end" => KeyCode::End,
                "backspace" => KeyCode::Backspace,
                "delete" | "del" => KeyCode::Delete,
                "insert" | "ins" => KeyCode::Insert,
                f if f.starts_with('f')
                    && f[1..].parse::<u8>().is_ok_and(|n| (1..=12).contains(&n)) =>
                {
                    KeyCode::F(f[1..].parse().unwrap())
                }
                _ => {
                    return Err(format!(
                        "`{s}` is not a key (a character, or ctrl-X, alt-X, esc, enter, tab, \
                         shift-tab, space, up, down, left, right, pageup, pagedown, home, end, \
                         backspace, delete, insert, f1…f12)"
                    ));
                }
            },
        };
        Ok(Key { code, ctrl, alt })
    }

    /// The key as shown in the footer and the help.
    pub fn display(&self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "Space".to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Esc => "Esc".into(),
            KeyCode::Enter => "Enter".into(),
            KeyCode::Tab => "Tab".into(),
            KeyCode::BackTab => "S-Tab".into(),
            KeyCode::Up => "↑".into(),
            KeyCode::Down => "↓".into(),
            KeyCode::Left => "←".into(),
            KeyCode::Right => "→".into(),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::PageDown => "PgDn".into(),
            KeyCode::Home => "Home".into(),
            KeyCode::End => "End".into(),
            KeyCode::Backspace => "Bksp".into(),
            KeyCode::Delete => "Del".into(),
            KeyCode::Insert => "Ins".into(),
            KeyCode::F(n) => format!("F{n}"),
            other => format!("{other:?}"),
        };
        match (self.ctrl, self.alt) {
            (true, _) => format!("^{base}"),
            (_, true) => format!("M-{base}"),
            _ => base,
        }
    }

    /// The key as written in the config file (what [`Key::parse`] reads back).
    pub fn config_name(&self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "space".to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Esc => "esc".into(),
            KeyCode::Enter => "enter".into(),
            KeyCode::Tab => "tab".into(),
            KeyCode::BackTab => "shift-tab".into(),
            KeyCode::Up => "up".into(),
            KeyCode::Down => "down".into(),
            KeyCode::Left => "left".into(),
            KeyCode::Right => "right".into(),
            KeyCode::PageUp => "pageup".into(),
            KeyCode::PageDown => "pagedown".into(),
            KeyCode::Home => "home".into(),
            KeyCode::End => "end".into(),
            KeyCode::Backspace => "backspace".into(),
            KeyCode::Delete => "delete".into(),
            KeyCode::Insert => "insert".into(),
            KeyCode::F(n) => format!("f{n}"),
            other => format!("{other:?}").to_lowercase(),
        };
        format!(
            "{}{}{base}",
            if self.ctrl { "ctrl-" } else { "" },
            if self.alt { "alt-" } else { "" }
        )
    }
}

/// One row of the key table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub action: Action,
    pub keys: Vec<Key>,
    pub when: When,
    /// The footer's word for it.
    pub label: &'static str,
    /// The help screen's text.
    pub help: &'static str,
    /// Footer priority: 0 never shown; lower numbers are kept first when the footer is narrow.
    pub footer: u8,
}

fn b(
    action: Action,
    keys: &[Key],
    when: When,
    label: &'static str,
    help: &'static str,
    footer: u8,
) -> Binding {
    Binding {
        action,
        keys: keys.to_vec(),
        when,
        label,
        help,
        footer,
    }
}

/// The default key table, in help order.
pub fn default_bindings() -> Vec<Binding> {
    use KeyCode as K;
    use When::*;
    let p = Key::plain;
    let c = Key::ch;
    let mut v = vec![
        b(
            Action::Quit,
            &[c('q'), Key::ctrl('c')],
            Always,
            "quit",
            "quit (in the help: close it)",
            2,
        ),
        b(
            Action::Help,
            &[c('?')],
            Always,
            "help",
            "this help; again: the evidence legend",
            1,
        ),
        b(
            Action::Back,
            &[p(K::Esc)],
            Always,
            "back",
            "back out: cancel the running job, close the detail, clear the search, the filters; never quits",
            0,
        ),
    ];
    let tabs = [
        "Skills",
        "Collisions",
        "Roots",
        "Agents",
        "Tokens",
        "Problems",
    ];
    for (i, _) in tabs.iter().enumerate() {
        v.push(b(
            Action::Tab(i as u8),
            &[c((b'1' + i as u8) as char)],
            Always,
            "tabs",
            "tabs: Skills Collisions Roots Agents Tokens Problems",
            11,
        ));
    }
    v.extend([
        b(
            Action::Down,
            &[c('j'), p(K::Down)],
            Moving,
            "move",
            "down, up (the list or the focused pane)",
            30,
        ),
        b(
            Action::Up,
            &[c('k'), p(K::Up)],
            Moving,
            "move",
            "down, up (the list or the focused pane)",
            30,
        ),
        b(
            Action::PageDown,
            &[p(K::PageDown)],
            Moving,
            "page",
            "a page down, up",
            0,
        ),
        b(
            Action::PageUp,
            &[p(K::PageUp)],
            Moving,
            "page",
            "a page down, up",
            0,
        ),
        b(
            Action::HalfDown,
            &[Key::ctrl('d')],
            Moving,
            "½ page",
            "half a page down, up",
            0,
        ),
        b(
            Action::HalfUp,
            &[Key::ctrl('u')],
            Moving,
            "½ page",
            "half a page down, up",
            0,
        ),
        b(
            Action::First,
            &[c('g'), p(K::Home)],
            Moving,
            "first",
            "first, last",
            0,
        ),
        b(
            Action::Last,
            &[c('G'), p(K::End)],
            Moving,
            "last",
            "first, last",
            0,
        ),
        b(
            Action::Open,
            &[p(K::Enter), c('l'), p(K::Right)],
            ListPane,
            "open",
            "into the detail pane; on a cause's skills, open the skill",
            9,
        ),
        b(
            Action::ToList,
            &[c('h'), p(K::Left)],
            DetailPane,
            "list",
            "back to the list pane",
            9,
        ),
        b(
            Action::NextDetail,
            &[p(K::Tab)],
            SkillsTab,
            "why/fields/file",
            "detail: Why (verdicts, rules, sources) / Fields / File",
            21,
        ),
        b(
            Action::PrevDetail,
            &[p(K::BackTab)],
            SkillsTab,
            "",
            "detail: Why (verdicts, rules, sources) / Fields / File",
            0,
        ),
        b(
            Action::Search,
            &[c('/')],
            Always,
            "search",
            "search: every word in name, description or path; exact names first (Enter keeps, Esc clears)",
            12,
        ),
        b(
            Action::Sort,
            &[c('s')],
            SkillsTab,
            "sort",
            "sort: name, problems, scope",
            35,
        ),
        b(
            Action::Filter,
            &[c('f')],
            SkillsTab,
            "filter",
            "filter: all, problems (error, warning), collisions",
            34,
        ),
        b(
            Action::Agent,
            &[c('a')],
            SkillsTab,
            "agent",
            "pick the agent shown (all, or one column)",
            33,
        ),
        b(
            Action::AllAgents,
            &[c('A')],
            SkillsTab,
            "all agents",
            "every agent's column, or back to the agents in use",
            0,
        ),
        b(
            Action::ColumnsRight,
            &[c('>')],
            SkillsTab,
            "columns",
            "scroll the agent columns right (when not all fit)",
            0,
        ),
        b(
            Action::ColumnsLeft,
            &[c('<')],
            SkillsTab,
            "columns",
            "scroll the agent columns left",
            0,
        ),
        b(
            Action::Scope,
            &[c('p')],
            SkillsTab,
            "scope",
            "scope: project, user, system, all",
            36,
        ),
        b(
            Action::Rescan,
            &[c('r')],
            Always,
            "rescan",
            "rescan the roots",
            0,
        ),
        b(
            Action::OpenSource,
            &[c('o')],
            SkillsTab,
            "source",
            "open the source of the deciding reason",
            0,
        ),
        b(
            Action::CopySource,
            &[c('Y')],
            SkillsTab,
            "copy source",
            "copy the deciding reason's source (OSC 52)",
            0,
        ),
        b(
            Action::Win,
            &[c('W')],
            OnSkill,
            "win",
            "make this copy win for an agent (pick the agent, then the plan)",
            3,
        ),
        b(
            Action::PlanGo,
            &[p(K::Enter), c('y')],
            Plans,
            "preview · again: apply",
            "preview the selected plan; in its preview, apply it (u undoes it); Esc backs out",
            1,
        ),
        b(
            Action::Broken,
            &[c('b')],
            ProblemsTab,
            "broken only",
            "only the causes that break a skill for some agent (errors), or every cause",
            2,
        ),
        b(
            Action::Share,
            &[c('S')],
            ProblemsTab,
            "share",
            "share the cause's skills with its agent (a link or copy into a root it scans)",
            3,
        ),
        b(
            Action::Fix,
            &[c('F')],
            OnSkill,
            "fix",
            "quick fixes of this SKILL.md",
            4,
        ),
        b(
            Action::Move,
            &[c('M')],
            OnSkill,
            "move",
            "move, copy or link to another root",
            5,
        ),
        b(
            Action::Rename,
            &[c('R')],
            OnSkill,
            "rename",
            "rename (the name is checked as you type)",
            6,
        ),
        b(
            Action::Delete,
            &[c('D')],
            OnSkill,
            "delete",
            "move to skilltui's trash (u brings it back)",
            7,
        ),
        b(
            Action::Undo,
            &[c('u')],
            Always,
            "undo",
            "undo this session's last action",
            8,
        ),
        b(
            Action::Edit,
            &[c('e')],
            OnSkill,
            "edit",
            "open the SKILL.md in $VISUAL/$EDITOR, then rescan",
            11,
        ),
        b(
            Action::CopyPath,
            &[c('y')],
            OnSkill,
            "copy path",
            "copy the SKILL.md's path (OSC 52)",
            12,
        ),
    ]);
    v
}

/// The key table in use: the defaults, with the config file's `[keys]` over them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    pub bindings: Vec<Binding>,
}

impl Default for Keymap {
    fn default() -> Self {
        Keymap {
            bindings: default_bindings(),
        }
    }
}

impl Keymap {
    /// The action a key stands for where the app is, if any (the first binding that applies).
    pub fn action(&self, app: &App, k: &KeyEvent) -> Option<Action> {
        self.bindings
            .iter()
            .find(|b| b.when.applies(app) && b.keys.iter().any(|key| key.matches(k)))
            .map(|b| b.action)
    }

    /// Whether `k` is one of the keys of `action` (wherever it applies).
    pub fn is(&self, action: Action, k: &KeyEvent) -> bool {
        self.bindings
            .iter()
            .any(|b| b.action == action && b.keys.iter().any(|key| key.matches(k)))
    }

    /// Gives `action` these keys; a key given to it is taken from every other action that can
    /// apply at the same time (a popup's keys, such as `W`'s plan list, never meet the others).
    pub fn remap(&mut self, action: Action, keys: Vec<Key>) {
        let Some(when) = self
            .bindings
            .iter()
            .find(|b| b.action == action)
            .map(|b| b.when)
        else {
            return;
        };
        for b in &mut self.bindings {
            if b.action == action {
                b.keys = keys.clone();
            } else if b.when.meets(when) {
                b.keys.retain(|k| !keys.contains(k));
            }
        }
    }

    /// The keys of an action as shown (`j/↓`); empty when it has none.
    pub fn keys_of(&self, action: Action) -> String {
        self.bindings
            .iter()
            .find(|b| b.action == action)
            .map(|b| {
                b.keys
                    .iter()
                    .map(Key::display)
                    .collect::<Vec<_>>()
                    .join("/")
            })
            .unwrap_or_default()
    }

    /// The first key of an action as shown (`q`); empty when it has none.
    pub fn key_of(&self, action: Action) -> String {
        self.bindings
            .iter()
            .find(|b| b.action == action)
            .and_then(|b| b.keys.first())
            .map(Key::display)
            .unwrap_or_default()
    }

    /// The footer's hints where the app is: (keys, label), in table order, the bindings with
    /// the same label merged (`1-6 tabs`, `j/k move`), at most `width` columns wide (the
    /// lower-priority hints go first).
    pub fn footer(&self, app: &App, width: usize) -> Vec<(String, &'static str)> {
        // (priority, keys, label, when, last) merged by label where they apply alike; quit and
        // help go last.
        let mut hints: Vec<(u8, Vec<String>, &'static str, When, bool)> = Vec::new();
        // In the plan list only its own keys, moving and backing out act.
        let plans = When::Plans.applies(app);
        if plans
            && let Some(back) = self.bindings.iter().find(|b| b.action == Action::Back)
            && let Some(k) = back.keys.first()
        {
            hints.push((2, vec![k.display()], "back", When::Plans, false));
        }
        for b in &self.bindings {
            if b.footer == 0 || b.keys.is_empty() || !b.when.applies(app) {
                continue;
            }
            if plans
                && b.when != When::Plans
                && !matches!(
                    b.action,
                    Action::Down | Action::Up | Action::Quit | Action::Help
                )
            {
                continue;
            }
            let first = b.keys[0].display();
            match hints.iter_mut().find(|h| h.2 == b.label && h.3 == b.when) {
                Some(h) => h.1.push(first),
                None => hints.push((
                    b.footer,
                    vec![first],
                    b.label,
                    b.when,
                    matches!(b.action, Action::Quit | Action::Help),
                )),
            }
        }
        hints.sort_by_key(|h| h.4);
        let shown = |keys: &[String]| -> String {
            let digits = keys.len() > 2
                && keys
                    .iter()
                    .all(|k| k.len() == 1 && k.chars().all(|c| c.is_ascii_digit()));
            if digits {
                format!("{}-{}", keys[0], keys[keys.len() - 1])
            } else {
                keys.join("/")
            }
        };
        let items: Vec<(u8, String, &'static str)> = hints
            .into_iter()
            .map(|(p, k, l, _, _)| (p, shown(&k), l))
            .collect();
        let cost =
            |i: &(u8, String, &'static str)| i.1.chars().count() + 1 + i.2.chars().count() + 2;
        let mut order: Vec<usize> = (0..items.len()).collect();
        order.sort_by_key(|&i| items[i].0);
        let mut keep = vec![false; items.len()];
        let mut used = 0;
        for i in order {
            let c = cost(&items[i]);
            if used + c <= width {
                used += c;
                keep[i] = true;
            }
        }
        items
            .into_iter()
            .zip(keep)
            .filter(|(_, k)| *k)
            .map(|((_, k, l), _)| (k, l))
            .collect()
    }

    /// The help screen: per section (where the keys apply), (keys, help) in table order; the
    /// bindings with the same help text merged.
    pub fn help(&self) -> Vec<(&'static str, Vec<(String, &'static str)>)> {
        let order = [
            When::Always,
            When::Moving,
            When::ListPane,
            When::DetailPane,
            When::SkillsTab,
            When::OnSkill,
            When::Plans,
        ];
        order
            .iter()
            .filter_map(|w| {
                let mut rows: Vec<(String, &'static str)> = Vec::new();
                for b in self.bindings.iter().filter(|b| b.when == *w) {
                    let keys = b
                        .keys
                        .iter()
                        .map(Key::display)
                        .collect::<Vec<_>>()
                        .join(" ");
                    match rows.iter_mut().find(|r| r.1 == b.help) {
                        Some(r) => {
                            if !keys.is_empty() {
                                r.0 = format!("{} {keys}", r.0).trim().to_string();
                            }
                        }
                        None => rows.push((keys, b.help)),
                    }
                }
                (!rows.is_empty()).then_some((w.title(), rows))
            })
            .collect()
    }
}
