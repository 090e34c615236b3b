package main

import (
	"github.com/spf13/cobra"
)

func (c *cli) migrateCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Create the database if missing and apply the embedded migrations",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := c.openMigratedDB(cmd.Context())
			if err != nil {
				return err
			}
			db.Close()
			if asJSON {
				return printJSON(c.stdout, map[string]any{"migrated": true})
			}
			c.printf("database is up to date\n")
			return nil
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}
