//! The unit tests of `skilltui::tui::search` (`src/tui/search.rs`).

use skilltui::tui::search::{EXACT_NAME, Haystack, NAME_PREFIX, Search, compact};

fn search(q: &str) -> Search {
    let mut s = Search::default();
    s.set_query(q.into());
    s
}

fn h(name: &str, description: &str) -> Haystack {
    Haystack::new(
        name,
        &format!(".agents/skills/{name}/SKILL.md"),
        description,
    )
}

/// The names of `skills` that match, best first (ties by name).
fn ranked<'a>(q: &str, skills: &'a [Haystack]) -> Vec<&'a str> {
    let s = search(q);
    let mut m: Vec<(u32, &str)> = skills
        .iter()
        .filter_map(|h| Some((s.score(h)?, h.name.as_str())))
        .collect();
    m.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    m.into_iter().map(|(_, n)| n).collect()
}

#[test]
fn exact_then_prefix_names_first() {
    let skills = [
        h("pdf-processing", "Work with PDF files"),
        h("nutrient-pdf", "pdf tools"),
        h("pdf", "Fill PDF forms, merge and split"),
        h("docs", "make pdf from markdown"),
        h("spdf", "an unrelated tool"),
    ];
    assert_eq!(
        ranked("pdf", &skills),
        ["pdf", "pdf-processing", "nutrient-pdf", "spdf", "docs"]
    );
    let exact = search("PDF").score(&skills[2]).unwrap();
    assert!(exact >= EXACT_NAME, "{exact}");
    let prefix = search("pdf").score(&skills[0]).unwrap();
    assert!((NAME_PREFIX..EXACT_NAME).contains(&prefix), "{prefix}");
}

#[test]
fn every_word_must_match_over_name_and_description() {
    let skills = [
        h(
            "pdf",
            "Comprehensive PDF toolkit. Use it to fill in PDF forms or merge documents",
        ),
        h("forms", "Build web forms"),
        h("fill-helper", "fill things"),
        h("pdf-tools", "Read PDF files; fill in forms"),
    ];
    // `pdf` is the whole name and `fill`, `forms` are words of the description: the best
    // match; the name that starts with `pdf` next; names holding only `fill` or `forms`
    // lack the other words.
    assert_eq!(ranked("fill pdf forms", &skills), ["pdf", "pdf-tools"]);
    // One word missing everywhere: no match.
    assert_eq!(ranked("fill pdf spreadsheets", &skills), Vec::<&str>::new());
    // A plural in the query finds the singular in a description, below the plural.
    let singular = h("pdf-kit", "Fill a PDF form");
    let plural = h("pdf-box", "Fill PDF forms");
    let s = search("fill pdf forms");
    assert!(s.score(&singular).unwrap() < s.score(&plural).unwrap());
    // Case is ignored.
    assert_eq!(ranked("FILL Pdf", &skills), ["pdf", "pdf-tools"]);
}

#[test]
fn scattered_fuzzy_matches_do_not_count() {
    assert!(compact(&[3, 4, 5]));
    assert!(compact(&[3, 4, 6, 7]));
    assert!(compact(&[0, 1, 4, 5]));
    assert!(!compact(&[0, 1, 5, 6]), "three letters skipped");
    assert!(!compact(&[0, 2, 4]), "three runs");
    assert!(!compact(&[]));
    let s = search("fill");
    // `f…i…l…l` scattered over a path: no match.
    let scattered = Haystack::new(
        "x",
        ".agents/skills/frontend-design-lint-tool/scripts/lib/SKILL.md",
        "",
    );
    assert_eq!(s.score(&scattered), None);
    // Compact in a path (a folder named `fill-in`): a match, below a description word.
    let in_path = Haystack::new("x", "skills/fill-in/x/SKILL.md", "");
    let in_description = Haystack::new("y", "skills/y/SKILL.md", "fill forms");
    let (p, d) = (
        s.score(&in_path).unwrap(),
        s.score(&in_description).unwrap(),
    );
    assert!(d > p, "{d} > {p}");
    // Compact fuzzy in a name (one letter skipped) beats the description; a scattered one
    // (three runs) does not count.
    assert_eq!(search("dply").score(&h("deploy", "")), None);
    let abbreviated = search("dploy");
    let fuzzy = abbreviated.score(&h("deploy", "")).unwrap();
    let described = abbreviated.score(&h("ship", "dploy it")).unwrap();
    assert!(fuzzy > described, "{fuzzy} > {described}");
}

#[test]
fn grown_queries_match_a_subset() {
    // The explorer narrows a grown query from the last one's matches: check it on names,
    // descriptions and paths that exercise every kind of match.
    let skills = [
        h("deploy-staging", "Ship to staging"),
        h("dply", ""),
        h("ship-it", "deploy to the staging server"),
        Haystack::new("x", "skills/de-ploy/SKILL.md", ""),
        h("pdf", "fill forms"),
    ];
    let query = "deploy stag";
    for k in 1..query.len() {
        let (short, long) = (search(&query[..k]), search(&query[..=k]));
        for sk in &skills {
            if long.score(sk).is_some() {
                assert!(
                    short.score(sk).is_some(),
                    "{:?} ⊄ {:?}: {sk:?}",
                    &query[..=k],
                    &query[..k]
                );
            }
        }
    }
}

#[test]
fn hits_mark_the_name_letters() {
    let s = search("stag dep");
    assert_eq!(s.hits("Deploy-Staging"), [0, 1, 2, 7, 8, 9, 10]);
    assert!(search("zzz").hits("deploy").is_empty());
    assert!(search("").hits("deploy").is_empty());
    assert_eq!(search("  ").score(&h("anything", "anything")), None);
}
