//! `skilltui config path|init|check` through the binary, with `SKILLTUI_CONFIG` pointing into a
//! temporary folder.

use std::process::Command;

fn run(config: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .args(args)
        .env("SKILLTUI_CONFIG", config)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn path_init_and_check() {
    let tmp = tempfile::tempdir().unwrap();
    let cfg = tmp.path().join("sub/config.toml");
    let (code, out, _) = run(&cfg, &["config", "path"]);
    assert_eq!((code, out.trim()), (0, cfg.display().to_string().as_str()));
    let (code, out, _) = run(&cfg, &["config", "check"]);
    assert_eq!(code, 0);
    assert!(out.contains("no such file"), "{out}");

    // init writes a commented default that changes nothing, and refuses to overwrite.
    let (code, out, err) = run(&cfg, &["config", "init"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("wrote"), "{out}");
    let text = std::fs::read_to_string(&cfg).unwrap();
    assert!(text.contains("[keys]") && text.contains("# quit = [\"q\", \"ctrl-c\"]"));
    assert!(text.contains("[theme]") && text.contains("# selected-bg = \"blue\""));
    let (code, _, _) = run(&cfg, &["config", "check"]);
    assert_eq!(code, 0);
    std::fs::write(&cfg, "[keys]\nquit = \"x\"\n").unwrap();
    let (code, _, err) = run(&cfg, &["config", "init"]);
    assert_eq!(code, 2);
    assert!(err.contains("--force"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&cfg).unwrap(),
        "[keys]\nquit = \"x\"\n"
    );
    let (code, _, _) = run(&cfg, &["config", "init", "--force"]);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read_to_string(&cfg).unwrap(), text);

    // A broken file: check names the line and column, exit 2.
    std::fs::write(&cfg, "[keys]\nquit = \"q\"\nwin = \"hyper-w\"\n").unwrap();
    let (code, out, _) = run(&cfg, &["config", "check"]);
    assert_eq!(code, 2);
    assert!(
        out.contains("config.toml:3:7: `hyper-w` is not a key"),
        "{out}"
    );
    // Headless commands do not read it.
    let (code, out, err) = run(&cfg, &["--demo", "list"]);
    assert!(
        code != 2 && out.contains("pdf") && !err.contains("config"),
        "{err}"
    );
}
