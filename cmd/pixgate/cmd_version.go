package main

import (
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is stamped at build time:
//
//	go build -ldflags "-X main.version=v1.2.3" ./cmd/pixgate
//
// (make build and the Dockerfile do it from git describe). A plain go build
// falls back to the commit Go recorded, if any.
var version = ""

// buildVersion is the version this binary reports.
func buildVersion() string {
	if version != "" {
		return version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	rev, dirty := "", false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return "dev-" + rev
}

func (c *cli) versionCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version of this binary",
		Args:  cobra.NoArgs,
		// The version needs no configuration: it answers even when the
		// settings are wrong.
		PersistentPreRunE: func(*cobra.Command, []string) error { return nil },
		RunE: func(*cobra.Command, []string) error {
			if asJSON {
				return printJSON(c.stdout, map[string]string{"version": buildVersion(), "go": runtime.Version(),
					"platform": runtime.GOOS + "/" + runtime.GOARCH})
			}
			c.printf("pixgate %s (%s, %s/%s)\n", buildVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}
