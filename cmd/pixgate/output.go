package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/storage"
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

// notFound words a missing record the one way every command does
// ("integrator 999 not found"), and passes other errors through.
func notFound(what string, id any, err error) error {
	if errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("%s %v not found", what, id)
	}
	return err
}

// requireIntegrator fails with "integrator N not found" unless it exists.
func requireIntegrator(ctx context.Context, db *storage.DB, id int64) error {
	_, err := db.Integrator(ctx, id)
	return notFound("integrator", id, err)
}
