#!/usr/bin/env bash
# Installs the client generators of docs/clients/package.json (pinned by its
# package-lock.json) into bin/clients, for the generated-client tests of
# make test. Already installed from the same lock file: nothing to do.
# Without npm, or when the install fails outside CI, it says so and goes on:
# the tests that need these tools are skipped, naming them. In CI (CI set)
# a failed install fails, so CI never skips them.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The Python client swagger-codegen generates needs these modules. In CI,
# as root, install Debian's packages of them when no python3 has them.
python_modules="urllib3, six, certifi, dateutil"
has_python_modules() {
  for py in python3 /usr/bin/python3; do
    command -v "$py" >/dev/null 2>&1 && "$py" -c "import $python_modules" >/dev/null 2>&1 && return 0
  done
  return 1
}
if ! has_python_modules && [ -n "${CI:-}" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "clienttools: installing python3-urllib3, -six, -certifi, -dateutil for the generated Python client"
  apt-get update -qq >/dev/null && apt-get install -y -qq python3-urllib3 python3-six python3-certifi python3-dateutil >/dev/null
fi
dest=bin/clients
if ! command -v npm >/dev/null 2>&1; then
  echo "clienttools: npm is not installed; the TypeScript and Python generated-client tests will be skipped" >&2
  exit 0
fi
if cmp -s docs/clients/package-lock.json "$dest/package-lock.json" && [ -d "$dest/node_modules" ]; then
  exit 0
fi
mkdir -p "$dest"
cp docs/clients/package.json docs/clients/package-lock.json "$dest/"
echo "clienttools: installing the client generators into $dest"
if ! (cd "$dest" && npm ci --no-audit --no-fund --loglevel=error); then
  rm -f "$dest/package-lock.json" # not installed: try again next time
  if [ -n "${CI:-}" ]; then
    echo "clienttools: npm ci failed" >&2
    exit 1
  fi
  echo "clienttools: npm ci failed; the TypeScript and Python generated-client tests will be skipped" >&2
fi
