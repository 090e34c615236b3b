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
			db, err := c.openDB(cmd.Context()) // openDB migrates
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

func (c *cli) envCommand() *cobra.Command {
	var markdown bool
	cmd := &cobra.Command{
		Use:   "env",
		Short: "List the PIXGATE_* settings with their defaults and current values",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if markdown {
				c.printf("%s", configMarkdown())
				return nil
			}
			tw := table(c.stdout)
			for _, v := range configVars() {
				cur, set := c.environ[v.Name]
				switch {
				case !set:
					cur = "(default)"
				case isSecretVar(v.Name):
					cur = "(set, hidden)"
				}
				c.printfTo(tw, "%s\t%s\t%s\t%s\n", v.Name, orDash(v.Default), cur, v.Description)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print the settings as the README's Markdown table")
	return cmd
}
