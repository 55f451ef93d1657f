//! `resolve::Keys`: the compact collision keys. Edits (`set`) give what building the keys anew
//! gives, key by key and entry by entry, over random edit sequences; keys share one text.

use proptest::prelude::*;
use skilltui::resolve::Keys;

/// Every key's members and every entry's key, as plain data.
fn shape(k: &Keys, names: &[&str]) -> (Vec<Option<String>>, Vec<Vec<usize>>) {
    (
        k.all().map(|x| x.map(|x| x.to_string())).collect(),
        names
            .iter()
            .map(|n| k.members(n).iter().map(|&e| e as usize).collect())
            .collect(),
    )
}

const NAMES: [&str; 5] = ["a", "b", "brainstorming", "c", "zeta"];

fn key(i: u8) -> Option<String> {
    NAMES.get(i as usize).map(|n| n.to_string())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn edits_give_what_a_rebuild_gives(
        start in prop::collection::vec(0u8..7, 0..24),
        edits in prop::collection::vec((0usize..24, 0u8..7), 0..40),
    ) {
        let mut now: Vec<Option<String>> = start.iter().map(|&i| key(i)).collect();
        let mut k = Keys::new(now.clone());
        for (ei, i) in edits {
            if ei >= now.len() {
                continue;
            }
            now[ei] = key(i);
            k.set(ei, key(i));
            prop_assert_eq!(shape(&k, &NAMES), shape(&Keys::new(now.clone()), &NAMES));
        }
        for n in &NAMES {
            let m = k.members(n);
            prop_assert!(m.windows(2).all(|w| w[0] < w[1]), "{n}: {m:?} not in entry order");
        }
        prop_assert!(k.members("not-a-key").is_empty());
    }
}

#[test]
fn agents_share_one_text_per_key() {
    let mut pool = Default::default();
    let a = Keys::pooled(
        vec![Some("docs".into()), None, Some("pdf".into())],
        &mut pool,
    );
    let b = Keys::pooled(
        vec![Some("docs".into()), Some("pdf".into()), None],
        &mut pool,
    );
    assert_eq!(pool.len(), 2);
    let (x, y) = (a.of(0).unwrap(), b.of(0).unwrap());
    assert!(std::sync::Arc::ptr_eq(x, y));
    assert_eq!(a.group(2), Some(&[2u32][..]));
    assert_eq!(a.group(1), None);
    assert_eq!(a.members("pdf"), [2]);
    assert_eq!(b.members("pdf"), [1]);
}
