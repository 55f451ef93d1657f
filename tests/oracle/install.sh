#!/usr/bin/env bash
# Installs the agent releases pinned in tests/oracle/versions.json into a cache folder outside
# the repository (default ~/.cache/skilltui-oracle/<agent>@<version>). Idempotent: a release
# already installed (marker file .installed) is not fetched again.
# Usage: tests/oracle/install.sh [agent ...]   (default: every agent in versions.json)
# Exit status: 0 when every requested agent is installed, 3 when the registry is unreachable
# (nothing installed), 1 on other failures.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
cache="${SKILLTUI_ORACLE_CACHE:-$HOME/.cache/skilltui-oracle}"
mkdir -p "$cache"
agents=("$@")
if [ ${#agents[@]} -eq 0 ]; then
  mapfile -t agents < <(node -e 'const v=require(process.argv[1]);for(const k of Object.keys(v)) if(!k.startsWith("_")) console.log(k)' "$here/versions.json")
fi
reachable=""
status=0
for a in "${agents[@]}"; do
  ver=$(node -e 'const v=require(process.argv[1]);console.log(v[process.argv[2]].version)' "$here/versions.json" "$a") || { echo "install: unknown agent $a" >&2; status=1; continue; }
  mapfile -t specs < <(node -e 'const v=require(process.argv[1]);for(const s of v[process.argv[2]].install) console.log(s)' "$here/versions.json" "$a")
  dir="$cache/$a@$ver"
  if [ -f "$dir/.installed" ]; then echo "install: $a@$ver already in $dir"; continue; fi
  if [ -z "$reachable" ]; then
    if timeout 30 npm view "${specs[0]%@*}" version >/dev/null 2>&1 || timeout 30 npm ping >/dev/null 2>&1; then reachable=yes; else reachable=no; fi
  fi
  if [ "$reachable" = no ]; then echo "install: the npm registry is unreachable; $a@$ver not installed" >&2; status=3; continue; fi
  rm -rf "$dir"; mkdir -p "$dir"
  echo "install: $a@$ver -> $dir (${specs[*]})"
  # --ignore-scripts: no postinstall downloads; the platform package is installed explicitly.
  if timeout 900 npm install --prefix "$dir" --no-save --no-audit --no-fund --ignore-scripts --force "${specs[@]}" >"$dir/npm.log" 2>&1; then
    echo "$ver" > "$dir/.installed"
  else
    echo "install: npm failed for $a@$ver (see $dir/npm.log)" >&2; tail -5 "$dir/npm.log" >&2; status=1
  fi
done
exit $status
