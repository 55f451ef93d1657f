//! The unit tests of `skilltui::r#gen` (`src/gen.rs`).

use skilltui::r#gen::*;

#[test]
fn generates_the_requested_number_of_skill_files() {
    let dir = tempfile::tempdir().unwrap();
    let (tree, stats) = generate(
        dir.path(),
        &Options {
            skills: 300,
            seed: 7,
        },
    )
    .unwrap();
    assert_eq!(stats.skill_files, 300);
    assert!(stats.copies > 0 && stats.grouped > 0 && stats.bundled_files > 0);
    let cat = skilltui::catalog::Catalog::build(
        &skilltui::agents::builtin(),
        &skilltui::env::Env::new(&tree.project, &tree.home),
    );
    assert!(cat.skills.len() >= 250, "{}", cat.skills.len());
    assert!(stats.plugins > 0 && stats.side_files > 0 && stats.missing_refs > 0);
}

/// On a generated tree, `reference-missing` is reported exactly for the skills that link a
/// file they lack, never for the project paths, placeholders and versions of their bodies.
#[test]
fn reference_missing_only_for_missing_links() {
    let dir = tempfile::tempdir().unwrap();
    let (tree, stats) = generate(
        dir.path(),
        &Options {
            skills: 600,
            seed: 14,
        },
    )
    .unwrap();
    let cat = skilltui::catalog::Catalog::build(
        &skilltui::agents::builtin(),
        &skilltui::env::Env::new(&tree.project, &tree.home),
    );
    let mut linking = 0;
    let mut shapes = [0usize; 4];
    for s in &cat.skills {
        let text = std::fs::read_to_string(&s.path).unwrap_or_default();
        let links_missing = text.contains("](references/missing-notes-");
        linking += usize::from(links_missing);
        let reported: Vec<&str> = s
            .problems
            .iter()
            .filter(|p| p.code == skilltui::spec::ProblemCode::ReferenceMissing)
            .map(|p| p.message.as_str())
            .collect();
        if links_missing {
            assert_eq!(reported.len(), 1, "{}: {reported:?}", s.path.display());
            assert!(reported[0].contains("references/missing-notes-"));
        } else {
            assert!(reported.is_empty(), "{}: {reported:?}", s.path.display());
        }
        for (i, shape) in [
            "tags: [",
            "argument-hint: [",
            "src/lib/auth.ts",
            "/plugins/",
        ]
        .iter()
        .enumerate()
        {
            if text.contains(shape) || s.path.to_string_lossy().contains(shape) {
                shapes[i] += 1;
            }
        }
    }
    assert!(linking > 0 && stats.missing_refs > 0, "{stats:?}");
    assert!(shapes.iter().all(|&n| n > 0), "{shapes:?}");
}
