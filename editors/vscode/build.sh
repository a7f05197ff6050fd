#!/usr/bin/env bash
# Build, unit-test and package the symfuse VS Code extension into a .vsix.
#
#   editors/vscode/build.sh            -> editors/vscode/symfuse-<version>.vsix
#   SYMFUSE_VSIX=/tmp/x.vsix build.sh  -> that file instead
#   SYMFUSE_CLEAN=1 build.sh           -> always reinstall node_modules with `npm ci`
#
# `npm ci` is skipped when node_modules was installed from the same
# package-lock.json (a stamp file records its hash), so a second run is fast.
# Any failing step fails the script.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"

lock_hash() { sha256sum package-lock.json | cut -d' ' -f1; }
stamp=node_modules/.symfuse-lock-sha256
if [[ "${SYMFUSE_CLEAN:-}" == 1 || ! -f "$stamp" || "$(cat "$stamp")" != "$(lock_hash)" ]]; then
    npm ci --no-audit --no-fund
    lock_hash > "$stamp"
else
    echo "build.sh: node_modules matches package-lock.json, skipping npm ci"
fi

rm -rf out
npm run build
npm test

version=$(node -p 'require("./package.json").version')
vsix=${SYMFUSE_VSIX:-$PWD/symfuse-$version.vsix}
rm -f "$vsix"
# Dependencies are packaged (vsce includes the production node_modules: vscode-languageclient
# and what it needs at run time); `vscode:prepublish` rebuilds out/ first.
npx --no-install vsce package --allow-missing-repository --out "$vsix" </dev/null
npx --no-install vsce ls </dev/null | grep -q '^node_modules/vscode-languageclient/lib/node/main.js$' \
    || { echo "build.sh: vscode-languageclient is missing from the package" >&2; exit 1; }
echo "build.sh: packaged $vsix"
