package stack

import (
	"flag"
	"fmt"
	"strings"
)

// EnvFlag registers -env KEY=value (repeatable) on the command line's flag
// set; each value is appended to *dst, for the processes' environment.
func EnvFlag(dst *[]string, usage string) {
	flag.Func("env", usage, func(kv string) error {
		if !strings.Contains(kv, "=") {
			return fmt.Errorf("%q is not KEY=value", kv)
		}
		*dst = append(*dst, kv)
		return nil
	})
}

// Set is a comma-separated list as a set, nil when the list is empty (no
// selection: run everything).
func Set(list string) map[string]bool {
	if list == "" {
		return nil
	}
	set := map[string]bool{}
	for _, s := range strings.Split(list, ",") {
		set[strings.TrimSpace(s)] = true
	}
	return set
}
