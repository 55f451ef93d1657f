//! A unified diff of two texts, by lines (longest common subsequence; SKILL.md files are small).

/// Lines kept around each change.
const CONTEXT: usize = 2;
/// Above this many lines on both sides the diff falls back to "whole file replaced".
const MAX_LINES: usize = 4000;

fn split(s: &str) -> Vec<&str> {
    s.split_inclusive('\n').collect()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Same,
    Del,
    Add,
}

/// `--- a/<label>` / `+++ b/<label>` and hunks; empty when the texts are equal.
pub fn unified(label_a: &str, label_b: &str, a: &str, b: &str) -> String {
    if a == b {
        return String::new();
    }
    let (x, y) = (split(a), split(b));
    let mut ops: Vec<(Op, &str)> = Vec::new();
    if x.len() > MAX_LINES || y.len() > MAX_LINES {
        ops.extend(x.iter().map(|l| (Op::Del, *l)));
        ops.extend(y.iter().map(|l| (Op::Add, *l)));
    } else {
        // Common prefix and suffix first, LCS on the middle.
        let pre = x.iter().zip(&y).take_while(|(p, q)| p == q).count();
        let suf = x[pre..]
            .iter()
            .rev()
            .zip(y[pre..].iter().rev())
            .take_while(|(p, q)| p == q)
            .count();
        let (xm, ym) = (&x[pre..x.len() - suf], &y[pre..y.len() - suf]);
        let (n, m) = (xm.len(), ym.len());
        let mut t = vec![vec![0u32; m + 1]; n + 1];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                t[i][j] = if xm[i] == ym[j] {
                    t[i + 1][j + 1] + 1
                } else {
                    t[i + 1][j].max(t[i][j + 1])
                };
            }
        }
        ops.extend(x[..pre].iter().map(|l| (Op::Same, *l)));
        let (mut i, mut j) = (0, 0);
        while i < n || j < m {
            if i < n && j < m && xm[i] == ym[j] {
                ops.push((Op::Same, xm[i]));
                i += 1;
                j += 1;
            } else if i < n && (j == m || t[i + 1][j] >= t[i][j + 1]) {
                ops.push((Op::Del, xm[i]));
                i += 1;
            } else {
                ops.push((Op::Add, ym[j]));
                j += 1;
            }
        }
        ops.extend(x[x.len() - suf..].iter().map(|l| (Op::Same, *l)));
    }
    let mut out = format!("--- a/{label_a}\n+++ b/{label_b}\n");
    // Group changes into hunks with context.
    let changed: Vec<usize> = ops
        .iter()
        .enumerate()
        .filter(|(_, (o, _))| *o != Op::Same)
        .map(|(i, _)| i)
        .collect();
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(CONTEXT);
        let mut end = changed[k];
        while k < changed.len() && changed[k] <= end + 2 * CONTEXT + 1 {
            end = changed[k];
            k += 1;
        }
        let end = (end + CONTEXT + 1).min(ops.len());
        let (mut a0, mut b0) = (1, 1);
        for (o, _) in &ops[..start] {
            match o {
                Op::Same => {
                    a0 += 1;
                    b0 += 1;
                }
                Op::Del => a0 += 1,
                Op::Add => b0 += 1,
            }
        }
        let al = ops[start..end]
            .iter()
            .filter(|(o, _)| *o != Op::Add)
            .count();
        let bl = ops[start..end]
            .iter()
            .filter(|(o, _)| *o != Op::Del)
            .count();
        out.push_str(&format!("@@ -{a0},{al} +{b0},{bl} @@\n"));
        for (o, l) in &ops[start..end] {
            out.push(match o {
                Op::Same => ' ',
                Op::Del => '-',
                Op::Add => '+',
            });
            out.push_str(&show_line(l));
        }
    }
    out
}

/// A line for the diff: line end shown when it is not a plain `\n`, a BOM made visible.
fn show_line(l: &str) -> String {
    let (body, end) = if let Some(b) = l.strip_suffix("\r\n") {
        (b, "␍\n")
    } else if let Some(b) = l.strip_suffix('\n') {
        (b, "\n")
    } else {
        (l, "\n\\ No newline at end of file\n")
    };
    let body = body.replace('\u{feff}', "<BOM>");
    format!("{body}{end}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn one_line_changed() {
        let d = super::unified("f", "f", "a\nb\nc\n", "a\nB\nc\n");
        assert_eq!(d, "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
    }
}
