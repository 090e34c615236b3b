package main

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/spf13/cobra"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/migrations"
)

func (c *cli) migrateCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "Create the database if missing and apply the embedded migrations",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			cfg := storage.Config{URL: c.cfg.DatabaseURL, MaxConns: c.cfg.DatabaseMaxConns}
			db, err := storage.Open(ctx, cfg)
			created := errors.Is(err, storage.ErrNoDatabase)
			if created {
				cfg.CreateIfMissing = true
				db, err = storage.Open(ctx, cfg)
			}
			if err != nil {
				return postgresError(err)
			}
			defer db.Close()
			applied, err := db.Migrate(ctx)
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(c.stdout, map[string]any{"migrated": true, "created": created, "applied": applied, "migrations": migrations.Count()})
			}
			c.printf("%s\n", migrateReport(databaseName(c.cfg.DatabaseURL), created, applied, migrations.Count()))
			return nil
		},
	}
	addJSONFlag(cmd, &asJSON)
	return cmd
}

// migrateReport says what pixgate migrate did.
func migrateReport(db string, created bool, applied, total int) string {
	switch {
	case created:
		return fmt.Sprintf("created database %s and applied its %d migrations", db, applied)
	case applied > 0:
		return fmt.Sprintf("applied %d migrations to database %s; it is up to date (%d of %d)", applied, db, total, total)
	}
	return fmt.Sprintf("database %s is up to date: its %d migrations were applied before", db, total)
}

// databaseName is "NAME on HOST:PORT" for messages.
func databaseName(dbURL string) string {
	cc, err := pgx.ParseConfig(dbURL)
	if err != nil {
		return "(PIXGATE_DATABASE_URL)"
	}
	return fmt.Sprintf("%s on %s:%d", cc.Database, cc.Host, cc.Port)
}
