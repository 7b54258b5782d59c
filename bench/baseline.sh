#!/bin/bash
# A build of another commit to compare against in the same run (bench/music.mjs --baseline):
# a detached worktree of REF at OUT, sharing this checkout's node_modules, its src/ compiled into
# OUT/dist by this checkout's compiler. Prints the dist folder.
# Usage: bench/baseline.sh REF OUT
set -euo pipefail
ref=${1:?usage: bench/baseline.sh REF OUT}
out=${2:?usage: bench/baseline.sh REF OUT}
root=$(git rev-parse --show-toplevel)
[ -d "$out" ] || git -C "$root" worktree add --detach "$out" "$ref" >&2
ln -sfn "$root/node_modules" "$out/node_modules"
(cd "$out" && node "$root/scripts/compile.mjs")
echo "$out/dist"
