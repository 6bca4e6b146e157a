#!/usr/bin/env bash
# Lists the Swift files under Sources/ whose code (comments left out) names all four dialects
# (LeanCloud, NIM, JMessage, yun2win, in any case): the files a fifth dialect would touch.
# Usage: scripts/dialect-coupling.sh [git-revision]   (default: the working tree)
set -euo pipefail
cd "$(dirname "$0")/.."
revision="${1:-}"
list() { if [ -n "$revision" ]; then git ls-tree -r --name-only "$revision" Sources; else git ls-files Sources; fi; }
show() { if [ -n "$revision" ]; then git show "$revision:$1"; else cat "$1"; fi; }
for file in $(list | grep '\.swift$'); do
  code="$(show "$file" | sed -E 's://.*$::')"
  grep -qiE 'leancloud' <<<"$code" && grep -qE '\bNIM|\.nim\b|"nim"' <<<"$code" && grep -qiE 'jmessage' <<<"$code" \
    && grep -qiE 'yun2win' <<<"$code" && echo "$file"
done
