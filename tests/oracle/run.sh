#!/usr/bin/env bash
# Runs the differential oracle: installs the agent releases pinned in versions.json (skipped,
# with a notice, when the npm registry is unreachable), then runs tests/oracle.rs, which
# prints the agreement rate per agent.
#   tests/oracle/run.sh                      bounded CI mode: targeted cases + 20 random trees
#   SKILLTUI_ORACLE_TREES=500 tests/oracle/run.sh    full mode
# Other variables: see tests/oracle.rs (SKILLTUI_ORACLE_AGENTS, _SEED, _CASES, _JOBS, _STRICT).
# Several runs may go at once (one agent each, say, with separate logs): each writes its trees
# under $TMPDIR/skilltui-oracle in folders named after its own process id, and the driver's
# scratch files carry the driver's process id.
set -u
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/tests/oracle"
for tool in node npm unshare; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "oracle: skipped: $tool is not installed"; exit 0
  fi
done
# Only the agents this run asks for are installed (CI installs them fresh each time).
IFS=, read -r -a wanted <<< "$(printf %s "${SKILLTUI_ORACLE_AGENTS:-}" | tr -d " ")"
"$here/install.sh" "${wanted[@]}"
rc=$?
if [ $rc -eq 3 ]; then
  echo "oracle: skipped: the npm registry is unreachable and the pinned releases are not installed"
  exit 0
elif [ $rc -ne 0 ]; then
  echo "oracle: installing the agent releases failed (exit $rc)"; exit 1
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
cd "$root" && SKILLTUI_ORACLE=1 SKILLTUI_ORACLE_TREES="${SKILLTUI_ORACLE_TREES:-20}" \
  timeout "${SKILLTUI_ORACLE_TIMEOUT:-1800}" cargo test --release --test oracle -- --nocapture
