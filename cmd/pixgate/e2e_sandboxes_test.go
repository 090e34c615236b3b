package main

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/api"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// secondSandbox is a sandbox provider of its own beside pixgate dev's,
// speaking another contract, registered as a provider of that name.
type secondSandbox struct {
	name, contract string
	control        string // its control endpoints
	api            string // its contract's base URL
}

// addSandbox starts a sandbox speaking contract (efi: over mutual TLS with
// certificates of its own) until the test ends, registers it with
// `pixgate provider add` as provider name, and restarts pixgate dev, whose
// processes build their providers at start. The sandbox keeps its state in
// memory and answers the client id and secret pixgate dev's does; the
// record names a file that holds the secret.
func (s *devStack) addSandbox(name, contract string) *secondSandbox {
	s.t.Helper()
	ports := freePorts(s.t, 2)
	dir := s.t.TempDir()
	sb := &secondSandbox{name: name, contract: contract, control: "http://" + ports[0], api: "http://" + ports[0]}
	env := maps.Clone(s.pg.env)
	for k, v := range map[string]string{
		"PIXGATE_SANDBOX_ADDR":        ports[0],
		"PIXGATE_SANDBOX_TLS_ADDR":    ports[1],
		"PIXGATE_SANDBOX_TLS_DIR":     dir,
		"PIXGATE_SANDBOX_STORE":       "memory",
		"PIXGATE_SANDBOX_WEBHOOK_URL": s.api + "/webhooks/provider/" + name + "/" + api.ProviderWebhookToken(s.webhookToken, name),
	} {
		env[k] = v
	}
	ctx, cancel := context.WithCancel(context.Background())
	var errs syncBuf
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"sandbox", "--contract", contract}, env, &syncBuf{}, &errs) }()
	s.t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			s.t.Errorf("pixgate sandbox %s exited %d: %s", name, code, errs.String())
		}
	})
	s.eventually("the "+name+" sandbox listening", 20*time.Second, func() bool {
		resp, err := http.Get(sb.control + "/sandbox/faults")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})

	secretFile := filepath.Join(dir, "client-secret")
	if err := os.WriteFile(secretFile, []byte("sandbox\n"), 0o600); err != nil {
		s.t.Fatal(err)
	}
	if contract == sandbox.ContractEfi {
		sb.api = "https://" + ports[1]
	}
	args := []string{"provider", "add", "--name", name, "--kind", contract, "--url", sb.api,
		"--client-id", "sandbox", "--client-secret-file", secretFile}
	if contract == sandbox.ContractEfi {
		args = append(args, "--cert-file", filepath.Join(dir, "client.pem"), "--key-file", filepath.Join(dir, "client-key.pem"),
			"--ca-file", filepath.Join(dir, "ca.pem"), "--pix-key", sandbox.DefaultPixKey)
	}
	s.pg.json(&providerView{}, args...)
	s.restart()
	return sb
}

// The test stack runs a second sandbox of another contract beside pixgate
// dev's, registered as a provider of its own and routed after the
// default: the ground the failover tests stand on.
func TestDevStackRunsASecondSandboxOfAnotherContract(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	s := newDevStack(t)
	b := s.addSandbox("b", sandbox.ContractEfi)
	var r routeView
	s.pg.json(&r, "route", "set", "--integrator", fmt.Sprint(s.integratorID), "--charges", "default,b", "--withdrawals", "default,b")
	s.pg.json(&r, "route", "show", "--integrator", fmt.Sprint(s.integratorID))
	if r.Effective == nil || strings.Join(r.Effective.Charges, ",") != "default,b" || strings.Join(r.Effective.Withdrawals, ",") != "default,b" {
		t.Fatalf("route show = %+v (effective %+v)", r, r.Effective)
	}
	var list struct{ Providers []providerView }
	s.pg.json(&list, "provider", "list")
	if len(list.Providers) != 2 || list.Providers[1].Name != "b" || list.Providers[1].Kind != "efi" || !list.Providers[1].Enabled ||
		list.Providers[1].URL != b.api {
		t.Fatalf("provider list = %+v", list.Providers)
	}
	// Both sandboxes answer, each with its own faults.
	if code, _ := s.control(http.MethodPost, "/sandbox/faults", map[string]any{"outage": true}); code != http.StatusOK {
		t.Fatalf("faults of the default sandbox: %d", code)
	}
	if code, v := doJSON(t, http.MethodGet, b.control+"/sandbox/faults", "", nil); code != http.StatusOK || v["outage"] == true {
		t.Fatalf("faults of sandbox b: %d %v", code, v)
	}
}
