#!/usr/bin/env bash
# offline.sh: the worker's decision tests (every Test in a decide*_test.go
# file under worker/) run with no network at all, in a network namespace of
# their own (unshare -n, as root or with user namespaces): they decide over
# fake stores and fake providers, never Postgres, Redis or HTTP.
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! unshare -n true 2>/dev/null; then
  echo "offline.sh: unshare -n is not allowed here (needs root or user namespaces)" >&2
  # CI (.ci/run sets CI=1) runs as root: there it is a failure, elsewhere a skip.
  [ -n "${CI:-}" ] && exit 1
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for dir in $(git ls-files 'worker/*decide*_test.go' 'worker/**/decide*_test.go' | xargs -n1 dirname | sort -u); do
  names=$(sed -n 's/^func \(Test[A-Za-z0-9_]*\)(t \*testing\.T).*/\1/p' "$dir"/decide*_test.go | paste -sd'|')
  [ -n "$names" ] || continue
  go test -c -o "$tmp/t.test" "./$dir"
  echo "== ./$dir, no network: $(tr '|' '\n' <<<"$names" | wc -l) tests"
  (cd "$dir" && unshare -n "$tmp/t.test" -test.run "^($names)\$" -test.count=1)
done
