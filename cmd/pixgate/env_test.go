package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// pixgate env shows where each URL points, with only the password masked,
// never a secret, under a header row; --json gives the same as one object.
func TestEnvMasksOnlyPasswords(t *testing.T) {
	p := &pixgate{t: t, env: map[string]string{
		"PIXGATE_DATABASE_URL":           "postgres://pixgate:s3cr3t@db.internal:5432/ledger?sslmode=require&password=pw-2nd",
		"PIXGATE_REDIS_URL":              "rediss://:hunter2@cache.internal:6380/2",
		"PIXGATE_PROVIDER_WEBHOOK_TOKEN": "tok-abc",
		"PIXGATE_MONITORING_PASSWORD":    "mon-pass",
	}}
	code, out, errs := p.run("env")
	if code != 0 {
		t.Fatalf("pixgate env: %s", errs)
	}
	if !strings.HasPrefix(out, "VARIABLE") {
		t.Errorf("no header row:\n%s", out)
	}
	for _, want := range []string{"db.internal:5432/ledger", "pixgate:xxxxx@", "cache.internal:6380/2", "PIXGATE_MONITORING_USER            admin"} {
		if !strings.Contains(out, want) {
			t.Errorf("env lacks %q:\n%s", want, out)
		}
	}
	for _, secret := range []string{"s3cr3t", "pw-2nd", "hunter2", "tok-abc", "mon-pass"} {
		if strings.Contains(out, secret) {
			t.Errorf("env shows %q:\n%s", secret, out)
		}
	}
	var v struct {
		Settings []settingView
	}
	p.json(&v, "env")
	if len(v.Settings) != len(configVars()) || v.Settings[0].Name != "PIXGATE_DATABASE_URL" || v.Settings[0].From != "env" ||
		!strings.Contains(v.Settings[0].Value, "db.internal") || strings.Contains(v.Settings[0].Value, "s3cr3t") {
		t.Fatalf("env --json: %+v", v.Settings[:1])
	}
}

func TestVersion(t *testing.T) {
	p := &pixgate{t: t, env: map[string]string{"PIXGATE_LOG_LEVEL": "nonsense"}}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, errs := p.run(args...)
		if code != 0 || !strings.HasPrefix(out, "pixgate "+buildVersion()) {
			t.Errorf("pixgate %v: exit %d, %q %q", args, code, out, errs)
		}
	}
	_, out, _ := p.run("version", "--json")
	var v map[string]string
	if err := json.Unmarshal([]byte(out), &v); err != nil || v["version"] != buildVersion() {
		t.Errorf("version --json: %s", out)
	}
}

// A PEM value (a certificate, Woovi's public key) keeps pixgate env's table
// one line per variable: its first line and how many it has; --json has it
// whole.
func TestEnvShowsAPEMValueOnOneLine(t *testing.T) {
	pem := "-----BEGIN CERTIFICATE-----\nMIIBbTCCAROgAwIBAgIIOc2hwo0FohAw\n-----END CERTIFICATE-----\n"
	p := &pixgate{t: t, env: map[string]string{"PIXGATE_PROVIDER_CERT_PEM": pem, "PIXGATE_PROVIDER_WEBHOOK_KEY": pem}}
	code, out, errs := p.run("env")
	if code != 0 {
		t.Fatalf("pixgate env: %s", errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(configVars())+1 {
		t.Fatalf("%d lines for %d variables and a header:\n%s", len(lines), len(configVars()), out)
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "PIXGATE_PROVIDER_CERT_PEM ") && !strings.Contains(l, "-----BEGIN CERTIFICATE----- … (3 lines)") {
			t.Errorf("the certificate shows as %q", l)
		}
	}
	var v struct {
		Settings []settingView
	}
	p.json(&v, "env")
	for _, s := range v.Settings {
		if s.Name == "PIXGATE_PROVIDER_CERT_PEM" && s.Value != pem {
			t.Errorf("--json shows the certificate as %q", s.Value)
		}
	}
}
