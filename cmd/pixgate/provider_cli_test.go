package main

import (
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// An operator adds providers, routes an integrator over them, disables one
// and sees the route follow; the records never hold a secret.
func TestProviderAndRouteCommands(t *testing.T) {
	storagetest.Parallel(t, commandConns)
	p := newPixgate(t)
	p.json(&struct{}{}, "integrator", "create", "--name", "Loja", "--email", "a@b.example")
	var added providerView
	p.json(&added, "provider", "add", "--name", "a", "--kind", "family", "--url", "http://127.0.0.1:9091",
		"--client-id", "ida", "--client-secret-env", "PROVIDER_A_SECRET")
	if !added.Enabled || added.ClientSecretRef != "env:PROVIDER_A_SECRET" {
		t.Fatalf("provider add printed %+v", added)
	}
	p.json(&struct{}{}, "provider", "add", "--name", "b", "--kind", "efi", "--url", "https://127.0.0.1:9092",
		"--client-secret-file", "/run/secrets/b", "--cert-file", "/etc/b.pem", "--pix-key", "b@example.com")
	var updated providerView
	p.json(&updated, "provider", "update", "b", "--url", "https://127.0.0.1:9093")
	if updated.URL != "https://127.0.0.1:9093" || updated.ClientSecretRef != "file:/run/secrets/b" || updated.PixKey != "b@example.com" {
		t.Fatalf("provider update changed more or less than --url: %+v", updated)
	}

	var list struct{ Providers []providerView }
	p.json(&list, "provider", "list")
	var names []string
	for _, v := range list.Providers {
		names = append(names, v.Name)
	}
	if strings.Join(names, ",") != "default,a,b" || !list.Providers[0].FromEnvironment {
		t.Fatalf("provider list = %+v", list.Providers)
	}
	code, out, errs := p.run("provider", "list")
	if code != 0 || !strings.Contains(out, "/metrics") || !strings.Contains(out, "https://127.0.0.1:9093") {
		t.Fatalf("provider list: exit %d\n%s%s", code, out, errs)
	}

	var r routeView
	p.json(&r, "route", "set", "--integrator", "1", "--charges", "a:80,b:20", "--withdrawals", "b,a")
	if strings.Join(r.Charges, ",") != "a:80,b:20" || strings.Join(r.Withdrawals, ",") != "b,a" {
		t.Fatalf("route set printed %+v", r)
	}
	p.json(&struct{}{}, "route", "set", "--default", "--charges", "default,a", "--withdrawals", "default")
	p.json(&struct{}{}, "provider", "disable", "b")
	p.json(&r, "route", "show", "--integrator", "1")
	if strings.Join(r.Withdrawals, ",") != "b,a" || r.Effective == nil ||
		strings.Join(r.Effective.Charges, ",") != "a:80" || strings.Join(r.Effective.Withdrawals, ",") != "a" {
		t.Fatalf("route show after disabling b = %+v (effective %+v)", r, r.Effective)
	}
	code, out, _ = p.run("route", "show", "--default")
	if code != 0 || !strings.Contains(out, "charges default,a, withdrawals default") {
		t.Fatalf("route show --default: exit %d, %q", code, out)
	}
}

// Bad provider and route input fails naming the flag, changing nothing.
func TestProviderAndRouteRefusals(t *testing.T) {
	storagetest.Parallel(t, commandConns)
	p := newPixgate(t)
	p.json(&struct{}{}, "integrator", "create", "--name", "Loja", "--email", "a@b.example")
	p.json(&struct{}{}, "provider", "add", "--name", "a", "--kind", "family", "--url", "http://127.0.0.1:9091")
	add := func(args ...string) []string {
		return append([]string{"provider", "add", "--kind", "family", "--url", "http://127.0.0.1:1"}, args...)
	}
	tests := []struct {
		args []string
		want string
	}{
		{add("--name", "a"), `--name: a provider named "a" already exists`},
		{add("--name", "default"), `--name "default"`},
		{add("--name", "Not Valid"), "--name"},
		{add("--name", "c", "--kind", "paypal"), "--kind"},
		{add("--name", "c", "--url", "127.0.0.1:1"), "--url"},
		{add("--name", "c", "--client-secret-env", "A", "--client-secret-file", "/x"), "--client-secret-env and --client-secret-file"},
		{add("--name", "c", "--client-secret-env", "NOT-A-VAR"), "--client-secret-env"},
		{add("--name", "c", "--client-secret-file", "relative"), "--client-secret-file"},
		{[]string{"provider", "update", "zz", "--url", "http://x"}, `provider "zz" not found`},
		{[]string{"provider", "disable", "zz"}, `provider "zz" not found`},
		{[]string{"provider", "disable", "default"}, "route set"},
		{[]string{"route", "set", "--integrator", "1", "--charges", "a,zz", "--withdrawals", "a"}, `--charges: no such provider: "zz"`},
		{[]string{"route", "set", "--integrator", "1", "--charges", "a", "--withdrawals", "zz"}, `--withdrawals: no such provider: "zz"`},
		{[]string{"route", "set", "--integrator", "1", "--charges", "a:x", "--withdrawals", "a"}, "--charges"},
		{[]string{"route", "set", "--integrator", "1", "--charges", "a:0", "--withdrawals", "a"}, "--charges"},
		{[]string{"route", "set", "--integrator", "1", "--charges", "a:80,default", "--withdrawals", "a"}, "--charges"},
		{[]string{"route", "set", "--integrator", "1", "--charges", "a,a", "--withdrawals", "a"}, "--charges"},
		{[]string{"route", "set", "--integrator", "1", "--charges", "a", "--withdrawals", "a:1"}, "--withdrawals"},
		{[]string{"route", "set", "--integrator", "99", "--charges", "a", "--withdrawals", "a"}, "integrator 99 not found"},
		{[]string{"route", "set", "--charges", "a", "--withdrawals", "a"}, "--integrator ID or --default"},
		{[]string{"route", "show", "--integrator", "99"}, "integrator 99 not found"},
	}
	for _, tt := range tests {
		code, _, errs := p.run(tt.args...)
		if code == 0 || !strings.Contains(errs, tt.want) {
			t.Errorf("pixgate %v: exit %d, stderr %q; want failure mentioning %q", tt.args, code, errs, tt.want)
		}
	}
	var list struct{ Providers []providerView }
	p.json(&list, "provider", "list")
	var r routeView
	p.json(&r, "route", "show", "--integrator", "1")
	if len(list.Providers) != 2 || r.Set {
		t.Fatalf("refused commands changed something: providers %+v, route %+v", list.Providers, r)
	}
}

// provider balance reads each provider's balance through its connector,
// with the secret its record points to, and prints it beside its float;
// a provider whose secret cannot be read is reported by the variable's
// name and makes the command exit 1.
func TestProviderBalance(t *testing.T) {
	sb := sandbox.New(sandbox.Config{ClientID: "sb-a", ClientSecret: "s3cret-a", InitialBalance: 12345})
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(sb.Close)
	p := newPixgate(t)
	p.json(&struct{}{}, "provider", "add", "--name", "a", "--kind", "family", "--url", srv.URL,
		"--client-id", "sb-a", "--client-secret-env", "PROVIDER_A_SECRET")
	t.Setenv("PROVIDER_A_SECRET", "s3cret-a") // api and worker read it from their environment
	var out struct{ Providers []floatView }
	p.json(&out, "provider", "balance", "a")
	if len(out.Providers) != 1 {
		t.Fatalf("provider balance a = %+v", out)
	}
	v := out.Providers[0]
	if v.Error != "" || v.Reported == nil || *v.Reported != 12345 || v.Float != 0 || v.Difference == nil || *v.Difference != 12345 {
		t.Fatalf("provider balance a = %+v", v)
	}

	// What the account held before PixGate, told to the ledger once: the
	// difference is gone, and a retry of the same adjustment posts nothing.
	var adj floatAdjustView
	p.json(&adj, "provider", "adjust", "a", "--amount", "123.45", "--reason", "balance before PixGate", "--reference", "OPS-1")
	if adj.Adjusted != 12345 || adj.Float != 12345 {
		t.Fatalf("provider adjust a = %+v", adj)
	}
	p.json(&out, "provider", "balance", "a")
	if v := out.Providers[0]; v.Float != 12345 || v.Difference == nil || *v.Difference != 0 {
		t.Fatalf("provider balance a after the adjustment = %+v", v)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"a", "--amount", "123.45", "--reason", "again", "--reference", "OPS-1"}, `reference "OPS-1" was already posted`},
		{[]string{"a", "--amount=-0.00", "--reason", "r"}, "--amount"},
		{[]string{"a", "--amount", "1,00", "--reason", "r"}, "--amount"},
		{[]string{"a", "--amount", "1.00", "--reason", " "}, "--reason"},
		{[]string{"zz", "--amount", "1.00", "--reason", "r"}, `provider "zz" not found`},
	} {
		code, _, errs := p.run(append([]string{"provider", "adjust"}, tc.args...)...)
		if code == 0 || !strings.Contains(errs, tc.want) {
			t.Errorf("provider adjust %v: exit %d, %s; want %q", tc.args, code, errs, tc.want)
		}
	}
	p.json(&out, "provider", "balance", "a")
	if v := out.Providers[0]; v.Float != 12345 {
		t.Fatalf("refused adjustments moved the float: %+v", v)
	}

	os.Unsetenv("PROVIDER_A_SECRET")
	code, stdout, errs := p.run("provider", "balance", "a")
	if code == 0 || !strings.Contains(errs+stdout, "PROVIDER_A_SECRET is not set") || strings.Contains(errs+stdout, "s3cret") {
		t.Fatalf("provider balance without its secret: exit %d\n%s%s", code, stdout, errs)
	}
	code, _, errs = p.run("provider", "balance", "zz")
	if code == 0 || !strings.Contains(errs, `provider "zz" not found`) {
		t.Fatalf("provider balance zz: exit %d, %s", code, errs)
	}
}
