package main

import (
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// A provider's URL is printed by provider add, update and list: one that
// carries a password is refused without echoing it, nothing is written, and
// the default provider's URL (PIXGATE_PROVIDER_URL) is listed with its
// password hidden, as pixgate env shows it.
func TestProviderURLNeverShowsAPassword(t *testing.T) {
	storagetest.Parallel(t, commandConns)
	p := newPixgate(t)
	for _, args := range [][]string{
		{"provider", "add", "--name", "a", "--kind", "family", "--url", "https://ops:s3cr3t-pw@127.0.0.1:9091"},
		{"provider", "add", "--name", "a", "--kind", "family", "--url", "https://ops:s3cr3t-pw@127.0.0.1:bad port"},
	} {
		code, out, errs := p.run(args...)
		if code == 0 || strings.Contains(out+errs, "s3cr3t-pw") || !strings.Contains(errs, "--url") {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	p.json(&struct{}{}, "provider", "add", "--name", "a", "--kind", "family", "--url", "http://127.0.0.1:9091")
	code, out, errs := p.run("provider", "update", "a", "--url", "https://ops:s3cr3t-pw@127.0.0.1:9092")
	if code == 0 || strings.Contains(out+errs, "s3cr3t-pw") {
		t.Fatalf("provider update: exit %d\n%s%s", code, out, errs)
	}

	p.env["PIXGATE_PROVIDER_URL"] = "https://ops:s3cr3t-pw@127.0.0.1:9090"
	for _, args := range [][]string{{"provider", "list"}, {"provider", "list", "--json"}} {
		code, out, errs := p.run(args...)
		if code != 0 || strings.Contains(out+errs, "s3cr3t-pw") || !strings.Contains(out, "127.0.0.1:9091") {
			t.Fatalf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
}
