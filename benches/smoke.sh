#!/usr/bin/env bash
# CI smoke mode of the benchmarks: builds the bench binary (in the `test` profile, which reuses
# what `cargo test` already compiled) and runs every benchmark once on a small generated tree
# (300 skills), so that the benchmarks keep compiling and running. Targets are not enforced here;
# the full run is `cargo bench --bench catalog` (see BENCHMARKS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$(mktemp -d "${TMPDIR:-/tmp}/skilltui-bench-smoke.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
# --no-external: skills-ref (PyPI) is not installed by CI; the full run compares with it.
cargo bench --locked --profile test --bench catalog -- --smoke --no-external --dir "$dir" "$@"
