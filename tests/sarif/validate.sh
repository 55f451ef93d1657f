#!/usr/bin/env bash
# Validates `skilltui check --format sarif` against the official SARIF 2.1.0 JSON schema
# (sarif-2.1.0-rtm.5.json, as shipped in Microsoft's MIT-licensed npm package
# @microsoft/jest-sarif), on the demo catalog and on a generated real-shaped tree, with Python's
# jsonschema (Draft 4, the schema's own draft). The schema is cached outside the repository
# (default ~/.cache/skilltui-sarif); nothing of it is committed. Skips with a notice when npm or
# Python cannot provide what it needs.
#   tests/sarif/validate.sh [SKILLTUI_BINARY]
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-$root/target/release/skilltui}"
cache="${SKILLTUI_SARIF_CACHE:-$HOME/.cache/skilltui-sarif}"
schema="$cache/sarif-2.1.0-rtm.5.json"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

if [ ! -f "$schema" ]; then
  if ! command -v npm >/dev/null 2>&1; then echo "sarif: skipped: npm is not installed"; exit 0; fi
  if ! (cd "$work" && timeout 120 npm pack --silent @microsoft/jest-sarif@1.0.0-beta.0 >/dev/null 2>&1); then
    echo "sarif: skipped: the npm registry is unreachable and the schema is not cached"; exit 0
  fi
  tar xzf "$work"/*.tgz -C "$work" && mkdir -p "$cache" \
    && cp "$work/package/lib/schemas/sarif-2.1.0-rtm.5.json" "$schema" || { echo "sarif: the package has no schema"; exit 1; }
fi
if ! python3 -c 'import jsonschema' 2>/dev/null; then
  pip install -q jsonschema >/dev/null 2>&1 || { echo "sarif: skipped: Python's jsonschema cannot be installed"; exit 0; }
fi
if [ ! -x "$bin" ]; then echo "sarif: $bin is not built"; exit 1; fi

"$bin" --demo check --format sarif > "$work/demo.sarif"
gen="$root/target/release/examples/gen"
if [ -x "$gen" ]; then
  "$gen" --skills 600 --out "$work/tree" --seed 7 >/dev/null
  "$bin" --project "$work/tree/repo/packages/web" --home "$work/tree/home" check --format sarif --all > "$work/gen.sarif"
fi
python3 - "$schema" "$work"/*.sarif <<'PY'
import json, sys
from jsonschema import Draft4Validator
schema = json.load(open(sys.argv[1]))
validator = Draft4Validator(schema)
bad = 0
for path in sys.argv[2:]:
    doc = json.load(open(path))
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    results = sum(len(r.get("results", [])) for r in doc.get("runs", []))
    name = path.rsplit("/", 1)[-1]
    if errors:
        bad += 1
        print(f"sarif: {name}: {len(errors)} schema errors, e.g.:")
        for e in errors[:5]:
            print(f"  at /{'/'.join(map(str, e.path))}: {e.message[:200]}")
    else:
        print(f"sarif: {name}: valid against SARIF 2.1.0 ({results} results)")
sys.exit(1 if bad else 0)
PY
