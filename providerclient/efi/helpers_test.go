package efi_test

import (
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/providerclient/bcbpix/bcbpixtest"
	"github.com/pixgate/pixgate/providerclient/efi"
	"github.com/pixgate/pixgate/providerclient/sandbox"
)

// env is a sandbox showing its efi face over mutual TLS, a webhook
// receiver, and an efi connector whose every request and answer is checked
// against the BCB's specification.
type env struct {
	t    *testing.T
	sb   *sandbox.Sandbox
	srv  *httptest.Server
	hook *receiver
	v    *bcbpixtest.Validator
	tr   *bcbpixtest.Transport
	conn providerclient.Connector
	tls  sandbox.TLSMaterial
}

func newEnv(t *testing.T, cfg sandbox.Config) *env {
	t.Helper()
	cfg.Contract = sandbox.ContractEfi
	if cfg.SettleDelay == 0 {
		cfg.SettleDelay = 20 * time.Millisecond
	}
	if cfg.NotifyMaxInterval == 0 {
		cfg.NotifyMaxInterval = 50 * time.Millisecond
	}
	m, err := sandbox.NewTLSMaterial()
	if err != nil {
		t.Fatal(err)
	}
	sb := sandbox.New(cfg)
	srv := httptest.NewUnstartedServer(sb.APIHandler())
	if srv.TLS, err = m.ServerConfig(); err != nil {
		t.Fatal(err)
	}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes of TestMutualTLSIsRequired
	srv.StartTLS()
	t.Cleanup(srv.Close)
	t.Cleanup(sb.Close)
	e := &env{t: t, sb: sb, srv: srv, tls: m}
	if e.v, err = bcbpixtest.New(srv.URL + "/v2"); err != nil {
		t.Fatal(err)
	}
	e.hook = newReceiver(t, e.v)
	e.conn = e.connector(e.config())
	return e
}

func (e *env) config() providerclient.Config {
	return providerclient.Config{
		Kind: providerclient.KindEfi, BaseURL: e.srv.URL, ClientID: sandbox.DefaultClientID, ClientSecret: sandbox.DefaultClientSecret,
		TLS:    providerclient.TLSFiles{CertPEM: e.tls.ClientCert, KeyPEM: e.tls.ClientKey, CAPEM: e.tls.CACert},
		PixKey: sandbox.DefaultPixKey, WebhookURL: e.hook.srv.URL + "/webhooks/provider/token",
		Account: providerclient.Account{Branch: sandbox.DefaultAccountBranch, Number: sandbox.DefaultAccountNumber},
		Timeout: time.Second,
	}
}

// connector builds an efi connector for cfg whose traffic is checked.
func (e *env) connector(cfg providerclient.Config) providerclient.Connector {
	e.t.Helper()
	tlsCfg, err := cfg.TLS.ClientConfig()
	if err != nil {
		e.t.Fatal(err)
	}
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.TLSClientConfig = tlsCfg
	e.tr = &bcbpixtest.Transport{T: e.t, V: e.v, Next: base}
	cfg.HTTPClient = &http.Client{Transport: e.tr}
	c, err := efi.New(cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

func newID() string { return uuid.Must(uuid.NewV7()).String() }

// receiver is PixGate's webhook endpoint: it checks every body against the
// specification's callback (the PIX's at /pix, the recurrences' at /rec,
// the cycle charges' at /cobr)
// and keeps it.
type receiver struct {
	srv   *httptest.Server
	mu    sync.Mutex
	paths []string
	got   [][]byte
}

func newReceiver(t *testing.T, v *bcbpixtest.Validator) *receiver {
	rc := &receiver{}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		check := v.Webhook
		switch {
		case strings.HasSuffix(r.URL.Path, bcbpix.RecWebhookSuffix):
			check = v.WebhookRec
		case strings.HasSuffix(r.URL.Path, bcbpix.CobRWebhookSuffix):
			check = v.WebhookCobR
		}
		if err := check(body); err != nil {
			t.Errorf("webhook body does not conform to the BCB API Pix %s: %v\n%s", bcbpixtest.Version, err, body)
		}
		rc.mu.Lock()
		rc.paths, rc.got = append(rc.paths, r.URL.Path), append(rc.got, body)
		rc.mu.Unlock()
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) bodies() [][]byte {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([][]byte(nil), rc.got...)
}

// waitFor polls cond every few milliseconds until it holds or 5 s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
