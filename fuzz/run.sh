#!/usr/bin/env bash
# Runs every fuzz target (or the ones named) for SECONDS each, then prints the executions per
# target. Exits non-zero when a target crashes, leaks past its limits or fails to build.
#
#   bash fuzz/run.sh [SECONDS] [TARGET...]      # default: 60 seconds, every target
#
# The committed seeds in fuzz/corpus/<target>/ are read, never written: libFuzzer's new inputs go
# to a working corpus outside the repository ($FUZZ_WORK, default a fresh temp folder). A crashing
# input is saved under fuzz/artifacts/<target>/ and its path printed.
#
# cargo-fuzz needs nightly-only flags (-Zsanitizer=address); on this stable toolchain
# RUSTC_BOOTSTRAP=1 enables them. cargo-fuzz is installed from crates.io when missing.
set -uo pipefail

secs="${1:-60}"
shift || true
cd "$(dirname "$0")/.."

if ! [[ "$secs" =~ ^[0-9]+$ ]]; then
  echo "usage: bash fuzz/run.sh [SECONDS] [TARGET...]" >&2
  exit 2
fi

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "== installing cargo-fuzz"
  cargo install cargo-fuzz --locked || {
    echo "fuzz/run.sh: cannot install cargo-fuzz" >&2
    exit 2
  }
fi

export RUSTC_BOOTSTRAP=1
export CARGO_TERM_COLOR=never

if [ "$#" -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(cargo fuzz list --fuzz-dir fuzz)
fi

work="${FUZZ_WORK:-$(mktemp -d /tmp/skilltui-fuzz.XXXXXX)}"
mkdir -p "$work"

echo "== building ${#targets[@]} fuzz targets (release, address sanitizer, debug assertions)"
build() {
  if [ "$#" -eq 0 ]; then
    cargo fuzz build --fuzz-dir fuzz
  else
    for t in "$@"; do cargo fuzz build --fuzz-dir fuzz "$t" || return 1; done
  fi
}
if ! build "$@" >"$work/build.log" 2>&1; then
  tail -40 "$work/build.log" >&2
  echo "fuzz/run.sh: build failed" >&2
  exit 2
fi

host="$(rustc -vV | sed -n 's/^host: //p')"
bin_dir=""
for d in ${CARGO_TARGET_DIR:+"$CARGO_TARGET_DIR/$host/release"} "fuzz/target/$host/release" "target/$host/release"; do
  if [ -x "$d/${targets[0]}" ]; then
    bin_dir="$d"
    break
  fi
done
if [ -z "$bin_dir" ]; then
  echo "fuzz/run.sh: built targets not found (looked under \$CARGO_TARGET_DIR, fuzz/target, target)" >&2
  exit 2
fi

failed=0
summary=()
for t in "${targets[@]}"; do
  mkdir -p "$work/$t"
  log="$work/$t.log"
  echo "== $t: ${secs}s"
  # -timeout: one input taking over 10 s is a hang; -rss_limit_mb: memory is bounded too.
  # The binary built above, run directly: `cargo fuzz run` would rebuild whenever the sources
  # change under it.
  mkdir -p "fuzz/artifacts/$t"
  "$bin_dir/$t" -artifact_prefix="fuzz/artifacts/$t/" \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    "$work/$t" "fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  [ -n "$execs" ] || execs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
  [ -n "$execs" ] || execs="?"
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
  if [ "$rc" -ne 0 ] && ! grep -q '^INFO: Seed:' "$log"; then
    failed=1
    summary+=("$(printf '%-10s %12s execs  BUILD OR START FAILED (exit %s)' "$t" "-" "$rc")")
    echo "---- $t did not start; the end of its log:" >&2
    tail -30 "$log" >&2
  elif [ "$rc" -ne 0 ]; then
    failed=1
    summary+=("$(printf '%-10s %12s execs  cov %-6s CRASH (exit %s)' "$t" "$execs" "${cov:-?}" "$rc")")
    echo "---- $t failed; the end of its log:" >&2
    tail -60 "$log" >&2
    grep -E 'Test unit written to|artifact_prefix' "$log" >&2 || true
  else
    summary+=("$(printf '%-10s %12s execs  cov %-6s ok' "$t" "$execs" "${cov:-?}")")
  fi
done

echo "== fuzz summary (${secs}s per target; working corpus in $work)"
printf '%s\n' "${summary[@]}"
exit "$failed"
