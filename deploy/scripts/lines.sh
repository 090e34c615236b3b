#!/usr/bin/env bash
# lines.sh [REV]: Go lines per folder (two levels deep) at REV (default the
# work tree), code and tests apart, generated code apart; a Markdown table.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
rev=${1:-}
list() { if [ -n "$rev" ]; then git ls-tree -r --name-only "$rev"; else git ls-files --cached --others --exclude-standard; fi; }
show() { if [ -n "$rev" ]; then git show "$rev:$1"; else cat "$1"; fi; }
list | grep '\.go$' | while read -r f; do
  [ -n "$rev" ] || [ -f "$f" ] || continue
  body=$(show "$f")
  n=$(printf '%s\n' "$body" | wc -l)
  kind=code
  case "$f" in *_test.go) kind=test ;; esac
  if head -5 <<<"$body" | grep -q '^// Code generated .* DO NOT EDIT\.$'; then kind=generated; fi
  dir=$(dirname "$f" | cut -d/ -f1-2)
  echo "$dir $kind $n"
done | awk '
  { s[$1" "$2]+=$3; d[$1]=1; t[$2]+=$3 }
  END {
    print "| folder | code | tests | generated |"
    print "|---|---:|---:|---:|"
    n = asorti(d, ds)
    for (i = 1; i <= n; i++) { k = ds[i]; printf "| %s | %d | %d | %d |\n", k, s[k" code"], s[k" test"], s[k" generated"] }
    printf "| **total** | %d | %d | %d |\n", t["code"], t["test"], t["generated"]
  }'
