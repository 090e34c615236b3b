package main

import (
	"strings"
	"testing"
)

// pixgate env hid PIXGATE_TOKEN_TTL and PIXGATE_V2_TOKEN_RATE_PER_MINUTE as
// if they were tokens; only a setting whose last word is SECRET, TOKEN or
// PASSWORD is hidden.
func TestEnvShowsSettingsAboutTokens(t *testing.T) {
	for name, secret := range map[string]bool{
		"PIXGATE_TOKEN_TTL":                false,
		"PIXGATE_V2_TOKEN_RATE_PER_MINUTE": false,
		"PIXGATE_PROVIDER_WEBHOOK_TOKEN":   true,
		"PIXGATE_PROVIDER_CLIENT_SECRET":   true,
		"PIXGATE_SANDBOX_CLIENT_SECRET":    true,
		"PIXGATE_MONITORING_PASSWORD":      true,
		"PIXGATE_MONITORING_USER":          false,
		"PIXGATE_DEMO_KEY_FILE":            false,
	} {
		if got := isSecretVar(name); got != secret {
			t.Errorf("isSecretVar(%s) = %v, want %v", name, got, secret)
		}
	}
	p := &pixgate{t: t, env: map[string]string{"PIXGATE_TOKEN_TTL": "900"}}
	_, out, _ := p.run("env")
	for _, want := range []string{"PIXGATE_TOKEN_TTL                  900 ", "PIXGATE_V2_TOKEN_RATE_PER_MINUTE   20 "} {
		if !strings.Contains(out, want) {
			t.Errorf("pixgate env lacks %q:\n%s", want, out)
		}
	}
}

// A misspelled PIXGATE_* variable was ignored in silence, leaving the
// default in force; it is now named in a warning, with the setting meant.
func TestMisspelledSettingsAreNamed(t *testing.T) {
	p := &pixgate{t: t, env: map[string]string{
		"PIXGATE_HTTP_ADR":          "127.0.0.1:9999",
		"PIXGATE_DATABSE_URL":       "postgres://elsewhere/db",
		"PIXGATE_SOMETHING_ELSE":    "x",
		"PIXGATE_AUTH":              "Authorization: Bearer x", // the tour's
		"PIXGATE_TEST_DATABASE_URL": "postgres://x",            // the suite's
		"PIXGATE_LOG_FORMAT":        "text",
	}}
	_, _, errs := p.run("env")
	for _, want := range []string{
		"unknown setting ignored: PIXGATE_HTTP_ADR; did you mean PIXGATE_HTTP_ADDR?",
		"unknown setting ignored: PIXGATE_DATABSE_URL; did you mean PIXGATE_DATABASE_URL?",
		"unknown setting ignored: PIXGATE_SOMETHING_ELSE (pixgate env lists the settings)",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	for _, quiet := range []string{"PIXGATE_AUTH", "PIXGATE_TEST_DATABASE_URL", "postgres://elsewhere"} {
		if strings.Contains(errs, quiet) {
			t.Errorf("stderr names %s:\n%s", quiet, errs)
		}
	}
}
