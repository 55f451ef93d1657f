use skilltui::memo::Memo;
use std::cell::Cell;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Owner {
    text: String,
    len: Memo<usize>,
}

impl Owner {
    fn len(&self, made: &Cell<u32>) -> usize {
        *self.len.get_or_init(|| {
            made.set(made.get() + 1);
            self.text.len()
        })
    }
}

#[test]
fn a_memo_is_worked_out_once_and_is_no_part_of_its_owner() {
    let made = Cell::new(0);
    let a = Owner {
        text: "abc".into(),
        len: Memo::new(),
    };
    assert_eq!(a.len(&made), 3);
    assert_eq!(a.len(&made), 3);
    assert_eq!(made.get(), 1, "worked out once");
    // Equal owners are equal whatever their memos hold.
    let b = Owner {
        text: "abc".into(),
        len: Memo::new(),
    };
    assert_eq!(a, b);
    assert_ne!(
        a,
        Owner {
            text: "abcd".into(),
            len: Memo::new(),
        }
    );
    // A clone works its memo out again, from itself.
    let mut c = a.clone();
    c.text.push('d');
    assert_eq!(c.len(&made), 4);
    assert_eq!(made.get(), 2);
    assert_eq!(format!("{:?}", b.len), "Memo(empty)");
    assert_eq!(format!("{:?}", a.len), "Memo(kept)");
}
