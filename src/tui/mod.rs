//! The explorer: a ratatui front end. `app` holds the state, `update` changes it from messages
//! and returns the effects it wants (`effects::Cmd`), `draw` renders it; this module owns the
//! terminal and the threads and carries out the effects.
//!
//! Threads: the UI thread (this one) owns the terminal and the state and never does file I/O;
//! an input thread forwards terminal events; a scan worker (or the watcher) builds `Catalog`
//! snapshots and sends them whole, and the findings worker makes each one's findings
//! (`app::Problems`) after it (`findings`); a job thread per
//! action step (plan and preview, quick fixes, apply, undo) sends its result back as a message
//! while keys keep acting. The terminal is restored on exit, on error and on panic.

pub mod app;
pub mod config;
pub mod draw;
pub mod effects;
pub mod findings;
pub mod keys;
pub mod layout;
pub mod search;
pub mod theme;
pub mod update;
pub mod view;

use crate::catalog::Catalog;
use crate::context::{Common, Context, EXIT_OK, ExitCode};
use app::App;
use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io;
use std::io::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Duration;
use update::Msg;

/// Puts the terminal back: raw mode off, main screen, mouse off, cursor shown.
pub fn restore_terminal() {
    let _ = disable_raw_mode();
    let _ = execute!(
        io::stdout(),
        DisableMouseCapture,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
}

/// Restores the terminal when dropped (normal exit, `?` errors).
struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// Restores the terminal before any other panic handling (the binary's hook, installed by
/// `main`, then writes the crash report and prints where it is).
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        previous(info);
    }));
}

/// Starts a scan on a worker thread; the snapshot (or the failure) arrives as a message, its
/// findings after it ([`findings::FindingsWorker`]).
pub fn spawn_scan(cx: &Context, tx: Sender<Msg>) {
    let models = Arc::new(cx.models.clone());
    let env = cx.env.clone();
    std::thread::Builder::new()
        .name("skilltui-scan".into())
        .spawn(move || {
            let result = std::panic::catch_unwind(|| {
                let cat = Catalog::build(&models, &env);
                let texts = app::SkillTexts::new(&cat, None, &env);
                (cat, texts)
            });
            match result {
                Ok((cat, texts)) => {
                    findings::FindingsWorker::start(models, tx).send(
                        Arc::new(cat),
                        None,
                        Some(texts),
                        None,
                    );
                }
                Err(e) => {
                    let _ = tx.send(Msg::ScanFailed(crate::watch::panic_text(
                        &e,
                        "the scan panicked",
                    )));
                }
            }
        })
        .map(|_| ())
        .unwrap_or_else(|e| eprintln!("skilltui: cannot start the scan thread: {e}"));
}

/// Pauses the input thread (while an editor owns the terminal): `paused` asks, `parked`
/// answers.
#[derive(Clone, Default)]
struct InputPause {
    paused: Arc<AtomicBool>,
    parked: Arc<AtomicBool>,
}

impl InputPause {
    /// Stops reading terminal events; returns once the input thread no longer reads (bounded).
    fn pause(&self) {
        self.paused.store(true, Ordering::SeqCst);
        let start = std::time::Instant::now();
        while !self.parked.load(Ordering::SeqCst) && start.elapsed() < Duration::from_secs(1) {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    fn resume(&self) {
        self.paused.store(false, Ordering::SeqCst);
    }
}

fn spawn_input(tx: Sender<Msg>, pause: InputPause) {
    let _ = std::thread::Builder::new()
        .name("skilltui-input".into())
        .spawn(move || {
            loop {
                if pause.paused.load(Ordering::SeqCst) {
                    pause.parked.store(true, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                }
                pause.parked.store(false, Ordering::SeqCst);
                // Poll, so that a pause is noticed without a key.
                match event::poll(Duration::from_millis(50)) {
                    Ok(false) => continue,
                    Ok(true) => {}
                    Err(_) => break,
                }
                let msg = match event::read() {
                    Ok(Event::Key(k)) => Msg::Key(k),
                    Ok(Event::Mouse(m)) => Msg::Mouse(m),
                    Ok(Event::Resize(w, h)) => Msg::Resize(w, h),
                    Ok(_) => continue,
                    Err(_) => break,
                };
                if tx.send(msg).is_err() {
                    break;
                }
            }
        });
}

/// Draws a frame; without colour (`--color never`, `NO_COLOR`), in attributes only.
pub fn paint(f: &mut ratatui::Frame, app: &App, color: bool) {
    draw::draw(f, app);
    if !color {
        view::style::monochrome(f.buffer_mut());
    }
}

/// Runs the explorer until the user quits.
pub fn run(common: &Common) -> io::Result<Result<ExitCode, String>> {
    let cx = match Context::new(common) {
        Ok(cx) => cx,
        Err(e) => return Ok(Err(e)),
    };
    let color = cx.color;
    let shown = default_columns(&cx);
    let (config, config_note) = load_config();
    theme::set(config.theme);
    install_panic_hook();
    enable_raw_mode()?;
    let _guard = TerminalGuard;
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    let mut terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    let size = terminal.size()?;
    let (tx, rx): (Sender<Msg>, Receiver<Msg>) = mpsc::channel();
    let mut app = App::new(
        Arc::new(cx.models.clone()),
        cx.env.clone(),
        size.width,
        size.height,
    );
    app.select_agents(&shown);
    app.keymap = Arc::new(config.keymap);
    app.config_note = config_note;
    // First frame at once, before any I/O.
    terminal.draw(|f| paint(f, &app, color))?;
    // For the panic-safety test: a deliberate panic once the explorer owns the terminal.
    if std::env::var_os("SKILLTUI_TEST_PANIC").is_some() {
        panic!("deliberate panic (SKILLTUI_TEST_PANIC)");
    }
    let input = InputPause::default();
    spawn_input(tx.clone(), input.clone());
    let mut runner = Runner::start(&cx, tx, input, &mut app);
    while !app.quit {
        let Some((cmds, redraw)) = next_commands(&mut app, &rx) else {
            break;
        };
        let acted = !cmds.is_empty();
        for cmd in cmds {
            runner.carry_out(cmd, &mut app, &mut terminal)?;
        }
        runner.keep_watcher_alive(&mut app);
        if redraw || acted {
            terminal.draw(|f| paint(f, &app, color))?;
        }
    }
    Ok(Ok(EXIT_OK))
}

/// The columns shown by default: the config's, the agents in use, or the seed agents (a
/// config naming an unknown agent does not stop the explorer: the defaults apply).
fn default_columns(cx: &Context) -> Vec<String> {
    match cx.shown_agents(&[], false) {
        Ok(s) => s.ids,
        Err(_) => crate::agents::default_selection(&cx.models, &cx.env).0,
    }
}

/// The config file: a broken one leaves the defaults in place, with the note the header shows.
fn load_config() -> (config::Config, Option<String>) {
    match config::load() {
        Ok(c) => (c, None),
        Err(e) => (
            config::Config::default(),
            Some(format!("config not used: {e}")),
        ),
    }
}

/// The updates of the next message (a tick after [`app::TICK`] without one) and of every
/// message already waiting, so that a frame is drawn once for them all, and whether that frame
/// can differ from the last (`app.frame_stale`, taken); none once the senders are gone.
fn next_commands(app: &mut App, rx: &Receiver<Msg>) -> Option<(Vec<effects::Cmd>, bool)> {
    let msg = match rx.recv_timeout(app::TICK) {
        Ok(m) => m,
        Err(mpsc::RecvTimeoutError::Timeout) => Msg::Tick,
        Err(mpsc::RecvTimeoutError::Disconnected) => return None,
    };
    let mut cmds = update::update(app, msg);
    while let Ok(m) = rx.try_recv() {
        cmds.extend(update::update(app, m));
        if app.quit {
            break;
        }
    }
    Some((cmds, std::mem::take(&mut app.frame_stale)))
}

/// Starts the watcher; its snapshots, warnings and progress arrive as messages, each
/// snapshot's findings after it ([`findings::FindingsWorker`]).
fn start_watch(cx: &Context, tx: Sender<Msg>) -> io::Result<crate::watch::WatchHandle> {
    let models = Arc::new(cx.models.clone());
    let worker = findings::FindingsWorker::start(models.clone(), tx.clone());
    let env = cx.env.clone();
    // The snapshot sent last, which the explorer shows by the time it takes the next one (not
    // kept alive here: the explorer frees what it replaces).
    let mut sent = std::sync::Weak::<Catalog>::new();
    crate::watch::spawn(models, cx.env.clone(), crate::watch::DEBOUNCE, move |r| {
        match r {
            // On the watcher's thread: the search texts of the snapshot's new skills are made
            // here, not on the UI thread; its findings on the findings worker.
            crate::watch::Report::Update(u) => {
                let previous = sent.upgrade();
                let texts = app::SkillTexts::new(&u.catalog, previous.as_deref(), &env);
                sent = Arc::downgrade(&u.catalog);
                worker.send(
                    u.catalog.clone(),
                    previous.as_deref(),
                    Some(texts),
                    Some(Box::new(u)),
                )
            }
            crate::watch::Report::Warning(w) => tx.send(Msg::WatchWarning(w)).is_ok(),
            crate::watch::Report::Progress(c) => tx.send(Msg::Progress(c)).is_ok(),
        }
    })
}

type Term = Terminal<CrosstermBackend<io::Stdout>>;

/// What carries out the effects `update` asks for: the context, the sender for the results,
/// the input thread's pause, and the watcher (restarted after a pause when it dies; without
/// one, scans run on a worker).
struct Runner<'a> {
    cx: &'a Context,
    tx: Sender<Msg>,
    input: InputPause,
    watcher: Option<crate::watch::WatchHandle>,
    restart_at: Option<std::time::Instant>,
    /// Frees replaced snapshots off this thread.
    reaper: effects::Reaper,
}

impl<'a> Runner<'a> {
    /// Starts the watcher; when it cannot start, says so and scans once instead.
    fn start(cx: &'a Context, tx: Sender<Msg>, input: InputPause, app: &mut App) -> Self {
        let watcher = match start_watch(cx, tx.clone()) {
            Ok(w) => Some(w),
            Err(e) => {
                update::update(
                    app,
                    Msg::WatchWarning(format!("cannot start the watcher: {e}")),
                );
                spawn_scan(cx, tx.clone());
                None
            }
        };
        Runner {
            cx,
            tx,
            input,
            watcher,
            restart_at: None,
            reaper: effects::Reaper::start(),
        }
    }

    fn rescan(&self) {
        match &self.watcher {
            Some(w) => w.rescan(),
            None => spawn_scan(self.cx, self.tx.clone()),
        }
    }

    fn carry_out(
        &mut self,
        cmd: effects::Cmd,
        app: &mut App,
        terminal: &mut Term,
    ) -> io::Result<()> {
        match cmd {
            effects::Cmd::Run(job) => {
                let mut jcx = effects::Context::of(app);
                // The planner reads the watcher's live state, not a scan of its own.
                jcx.live = self.watcher.as_ref().map(|w| w.tap());
                effects::spawn(job, jcx, self.tx.clone());
            }
            effects::Cmd::Rescan => self.rescan(),
            effects::Cmd::OpenUrl(url) => {
                if !open_url(&url) {
                    update::update(
                        app,
                        Msg::Note(
                            format!("nothing here opens URLs: {url}"),
                            app::NoteKind::Error,
                        ),
                    );
                }
            }
            effects::Cmd::Copy(text) => {
                let mut o = io::stdout();
                let _ = write!(o, "{}", osc52(&text)).and_then(|_| o.flush());
            }
            effects::Cmd::Edit(path) => self.edit_then_rescan(&path, app, terminal)?,
            effects::Cmd::Release(retired) => self.reaper.release(retired),
        }
        Ok(())
    }

    /// Hands the terminal to the editor, takes it back, notes the outcome and rescans.
    fn edit_then_rescan(
        &self,
        path: &std::path::Path,
        app: &mut App,
        terminal: &mut Term,
    ) -> io::Result<()> {
        self.input.pause();
        restore_terminal();
        let result = edit(path);
        enable_raw_mode()?;
        execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture)?;
        terminal.clear()?;
        self.input.resume();
        let (text, kind) = match result {
            Ok(()) => (
                format!("edited {}; rescanning", crate::sanitize::path(path)),
                app::NoteKind::Success,
            ),
            Err(e) => (e, app::NoteKind::Error),
        };
        update::update(app, Msg::Note(text, kind));
        app.scan = app::ScanState::Scanning;
        self.rescan();
        Ok(())
    }

    /// A dead watcher is reported and restarted (after a pause, so a crash loop stays calm).
    fn keep_watcher_alive(&mut self, app: &mut App) {
        if let Some(w) = self.watcher.as_mut()
            && let Some(why) = w.exit_reason()
        {
            update::update(app, Msg::WatcherDied(why));
            self.watcher = None;
            self.restart_at = Some(std::time::Instant::now() + Duration::from_secs(1));
        }
        if self.watcher.is_none()
            && self
                .restart_at
                .is_some_and(|t| std::time::Instant::now() >= t)
        {
            self.restart_at = None;
            self.watcher = start_watch(self.cx, self.tx.clone()).ok();
        }
    }
}

/// The editor command: `$VISUAL`, else `$EDITOR`.
pub fn editor() -> Option<String> {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(std::env::var_os)
        .map(|v| v.to_string_lossy().trim().to_string())
        .find(|v| !v.is_empty())
}

/// Opens a file in the editor and waits for it (the terminal is the editor's meanwhile). The
/// editor's command may hold arguments (`code -w`); the path is passed as one argument, never
/// through a shell's parsing. Nothing else is run.
fn edit(path: &std::path::Path) -> Result<(), String> {
    let Some(editor) = editor() else {
        return Err("set $VISUAL or $EDITOR to edit a SKILL.md".into());
    };
    let mut words = editor.split_whitespace();
    let program = words.next().unwrap_or_default();
    let status = std::process::Command::new(program)
        .args(words)
        .arg(path)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", crate::sanitize::line(&editor)))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "{} exited with {status}; rescanning",
            crate::sanitize::line(&editor)
        ))
    }
}

/// Opens a URL with the desktop's opener (`xdg-open`, `open` on macOS), detached; false when
/// none can be started.
fn open_url(url: &str) -> bool {
    use std::process::{Command, Stdio};
    let openers: &[&str] = if cfg!(target_os = "macos") {
        &["open"]
    } else {
        &["xdg-open"]
    };
    openers.iter().any(|o| {
        Command::new(o)
            .arg(url)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .is_ok()
    })
}

/// The OSC 52 sequence that puts `text` on the terminal's clipboard.
pub fn osc52(text: &str) -> String {
    const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + 12);
    out.push_str("\x1b]52;c;");
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(B64[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out.push('\x07');
    out
}
