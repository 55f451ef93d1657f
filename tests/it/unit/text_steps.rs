//! The unit tests of `skilltui::agents::TextStep` (`src/agents/model.rs`): each step, borrowed
//! when it leaves its text as it is, gives what its plain definition gives.

use skilltui::agents::TextStep;

/// Each step as the model documents it, made the plain way (a new string every time).
fn plain(step: TextStep, s: &str) -> String {
    match step {
        TextStep::Trim => s.trim().to_string(),
        TextStep::CollapseWhitespace => s.split_whitespace().collect::<Vec<_>>().join(" "),
        TextStep::NewlinesToSpaces => {
            // A run of line breaks is one space; a tab is a space of its own.
            let mut out = s.replace('\r', "\n");
            while out.contains("\n\n") {
                out = out.replace("\n\n", "\n");
            }
            out.replace(['\n', '\t'], " ")
        }
        TextStep::StripFinalNewline => s
            .strip_suffix("\r\n")
            .or_else(|| s.strip_suffix('\n'))
            .unwrap_or(s)
            .to_string(),
    }
}

const TEXTS: &[&str] = &[
    "",
    " ",
    "a",
    "one two",
    "one  two",
    " one two",
    "one two ",
    "one\ttwo",
    "one\ntwo\n",
    "one\r\ntwo\r\n",
    "\n\nlead and trail\n\n",
    "non\u{a0}breaking",
    "ideographic\u{3000}space",
    "tabs\t\tand\t",
    "ends with cr\r",
    "ünïcödé wörds  here",
];

const STEPS: [TextStep; 4] = [
    TextStep::Trim,
    TextStep::CollapseWhitespace,
    TextStep::NewlinesToSpaces,
    TextStep::StripFinalNewline,
];

#[test]
fn each_step_gives_its_plain_definition_borrowing_only_unchanged_text() {
    for s in TEXTS {
        for step in STEPS {
            let got = step.apply(s);
            assert_eq!(got, plain(step, s), "{step:?} of {s:?}");
            if let std::borrow::Cow::Borrowed(b) = got {
                // A borrowed answer is a part of the text, never a made-up one.
                let range = s.as_ptr() as usize..=s.as_ptr() as usize + s.len();
                assert!(range.contains(&(b.as_ptr() as usize)), "{step:?} of {s:?}");
            }
        }
    }
}

#[test]
fn steps_in_order_give_the_plain_steps_in_order() {
    // Every order of every pair and triple the models use, and all four.
    let orders: Vec<Vec<TextStep>> = {
        let mut v = Vec::new();
        for a in STEPS {
            v.push(vec![a]);
            for b in STEPS {
                v.push(vec![a, b]);
                for c in STEPS {
                    v.push(vec![a, b, c]);
                }
            }
        }
        v.push(STEPS.to_vec());
        v
    };
    for s in TEXTS {
        for steps in &orders {
            let plain_all = steps.iter().fold(s.to_string(), |acc, &st| plain(st, &acc));
            assert_eq!(
                TextStep::apply_all(steps, s),
                *plain_all,
                "{steps:?} of {s:?}"
            );
        }
    }
}
