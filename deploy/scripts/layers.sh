#!/usr/bin/env bash
# Fails, naming them, on imports that run from a lower layer to a higher
# one, or between two packages of one layer. The layers, highest first:
#   3 cmd
#   2 api, worker
#   1 tasks, providerclient
#   0 storage, docs
# A package may import its own top-level directory's packages and those of
# lower layers only: nothing below imports anything above it. Tests'
# imports are held to the same rule. Usage: layers.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
module=$(go list -m)
go list -f '{{.ImportPath}}{{range .Imports}} {{.}}{{end}}{{range .TestImports}} {{.}}{{end}}{{range .XTestImports}} {{.}}{{end}}' ./... |
  awk -v module="$module/" '
    BEGIN {
      rank["cmd"] = 3; rank["api"] = 2; rank["worker"] = 2
      rank["tasks"] = 1; rank["providerclient"] = 1; rank["storage"] = 0; rank["docs"] = 0
    }
    function top(path) { sub(module, "", path); split(path, parts, "/"); return parts[1] }
    {
      from = top($1)
      if (!(from in rank)) { printf "%s: a top-level directory with no layer (add it to deploy/scripts/layers.sh)\n", $1; bad = 1; next }
      for (i = 2; i <= NF; i++) {
        if (index($i, module) != 1) continue
        to = top($i)
        if (to == from) continue
        if (!(to in rank)) { printf "%s: a top-level directory with no layer (add it to deploy/scripts/layers.sh)\n", $i; bad = 1; continue }
        if (rank[to] >= rank[from]) { printf "%s imports %s\n", $1, $i; bad = 1 }
      }
    }
    END { exit bad }
  ' >&2 || { echo "layers: imports that do not run one way (cmd → api, worker → tasks, providerclient → storage, docs)" >&2; exit 1; }
