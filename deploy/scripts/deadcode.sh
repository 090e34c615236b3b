#!/usr/bin/env bash
# Fails, naming them, when the module has functions nothing reaches.
# Product code (every package but the test-support ones, whose names end
# in "test": storagetest, openapitest, brcodetest, postbacktest, ...) is
# judged from the binaries alone: code only tests call is dead there, and
# belongs in a _test.go file or a test-support package. The test-support
# packages are judged from the tests. Usage: deadcode.sh DEADCODE_BINARY.
set -euo pipefail
cd "$(dirname "$0")/../.."
deadcode=$1
module=$(go list -m)
product=$("$deadcode" ./...) || { echo "deadcode: the analysis failed" >&2; exit 2; }
product=$(grep -Ev '^[^:]*test/[^/:]+\.go:' <<<"$product" || true)
# The Go SDK (api/sdk) is its own module, required by the harness: its
# exported API is for integrators, and its module's own lint judges it.
product=$(grep -Ev '^api/sdk/' <<<"$product" || true)
support=$("$deadcode" -test -filter "^${module//./\\.}/.*[^_]test\$" ./...) || { echo "deadcode: the analysis failed" >&2; exit 2; }
if [ -n "$product$support" ]; then
  echo "deadcode: functions nothing reaches (delete them; one only tests use goes in a _test.go file or a test-support package):" >&2
  printf '%s\n%s\n' "$product" "$support" | sed '/^$/d' >&2
  exit 1
fi
