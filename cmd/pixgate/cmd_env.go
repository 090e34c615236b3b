package main

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
)

// settingView is one setting as `pixgate env` shows it.
type settingView struct {
	Name        string `json:"name"`
	Value       string `json:"value"`
	From        string `json:"from"` // "env", "default" or "pixgate dev" (see useDevSettings)
	Default     string `json:"default"`
	Description string `json:"description"`
}

func (c *cli) envCommand() *cobra.Command {
	var markdown, asJSON, generate bool
	cmd := &cobra.Command{
		Use:   "env",
		Short: "List the PIXGATE_* settings with the values in force",
		Long: `List every PIXGATE_* setting with the value in force and where it comes from.
URLs show their host, port and database with only the password masked;
secrets (tokens, passwords, client secrets) are never shown.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if generate {
				c.printf("%s\n", newWebhookToken())
				return nil
			}
			if markdown {
				c.printf("%s", configMarkdown())
				return nil
			}
			views := c.settings()
			if asJSON {
				return printJSON(c.stdout, map[string]any{"settings": views})
			}
			tw := table(c.stdout)
			c.printfTo(tw, "VARIABLE\tVALUE\tFROM\tMEANING\n")
			for _, v := range views {
				c.printfTo(tw, "%s\t%s\t%s\t%s\n", v.Name, orDash(oneLine(v.Value)), v.From, v.Description)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print the settings as the README's Markdown table")
	cmd.Flags().BoolVar(&generate, "generate-webhook-token", false, "print a new random PIXGATE_PROVIDER_WEBHOOK_TOKEN (256 bits) and nothing else")
	addJSONFlag(cmd, &asJSON)
	return cmd
}

// oneLine keeps a value of several lines (a PEM certificate or public key)
// on the table's one line: its first line and how many it has.
func oneLine(value string) string {
	lines := strings.Split(strings.TrimRight(value, "\n"), "\n")
	if len(lines) == 1 {
		return value
	}
	return fmt.Sprintf("%s … (%d lines)", strings.TrimSpace(lines[0]), len(lines))
}

// settings lists the values in force (as written in the environment, or
// the default), masked for printing.
func (c *cli) settings() []settingView {
	vars := configVars()
	out := make([]settingView, 0, len(vars))
	for _, v := range vars {
		value, from := v.Default, "default"
		if set, ok := c.environ[v.Name]; ok {
			value, from = set, "env"
		}
		if c.fromDev[v.Name] {
			from = "pixgate dev"
		}
		out = append(out, settingView{Name: v.Name, Value: maskSetting(v.Name, value), From: from,
			Default: maskSetting(v.Name, v.Default), Description: v.Description})
	}
	return out
}

// maskSetting hides what must never be printed: a secret's whole value, a
// URL's password (in its user part or its query).
func maskSetting(name, value string) string {
	switch {
	case value == "":
		return ""
	case isSecretVar(name):
		return "(hidden)"
	case strings.HasSuffix(name, "_URL"):
		return maskURL(value)
	}
	return value
}

// isSecretVar says whether a setting's value must never be printed: one
// that names a secret, a token or a password by its last word, or a private
// key (PIXGATE_PROVIDER_KEY_PEM). Settings
// about them (PIXGATE_TOKEN_TTL, PIXGATE_V2_TOKEN_RATE_PER_MINUTE) are
// shown.
func isSecretVar(name string) bool {
	last := name[strings.LastIndex(name, "_")+1:]
	return last == "SECRET" || last == "TOKEN" || last == "PASSWORD" || strings.HasSuffix(name, "_KEY_PEM")
}

// passwordParam finds password=... in a URL query or a key/value DSN.
var passwordParam = regexp.MustCompile(`(?i)(password=)[^&\s]*`)

// maskURL shows a URL with its password masked; what it cannot parse it
// hides whole, since it might be a password.
func maskURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		if strings.Contains(s, "=") { // host=... password=... form
			return passwordParam.ReplaceAllString(s, "${1}xxxxx")
		}
		return "(unparseable, hidden)"
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	out := u.String()
	if u.RawQuery != "" {
		out = passwordParam.ReplaceAllString(out, "${1}xxxxx")
	}
	return out
}
