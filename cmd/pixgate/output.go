package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
)

// printJSON writes v as one indented JSON object and a newline.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// table writes aligned columns; the caller flushes it.
func table(w io.Writer) *tabwriter.Writer { return tabwriter.NewWriter(w, 0, 4, 2, ' ', 0) }

// addJSONFlag adds the --json flag every operator command has.
func addJSONFlag(cmd *cobra.Command, asJSON *bool) {
	cmd.Flags().BoolVar(asJSON, "json", false, "print one JSON object on stdout")
}

func (c *cli) printf(format string, args ...any) { fmt.Fprintf(c.stdout, format, args...) }

func (c *cli) printfTo(w io.Writer, format string, args ...any) { fmt.Fprintf(w, format, args...) }

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// isSecretVar says whether a setting's value must never be printed.
func isSecretVar(name string) bool {
	for _, s := range []string{"SECRET", "TOKEN", "PASSWORD", "DATABASE_URL", "REDIS_URL"} {
		if strings.Contains(name, s) {
			return true
		}
	}
	return false
}
