package conformancetest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/providerclient/bcbpix/bcbpixtest"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/providerclient/wooviapi/wooviapitest"
)

// route is one of a face's API routes: its method and its pattern, as the
// sandbox names it in fault routes ("/v3/gn/pix/{idEnvio}").
type route struct{ method, pattern string }

// routes are the routes that create and read one kind of transaction.
type routes struct{ create, read route }

// face is how the suite stands up the sandbox's face of one contract and
// points that contract's connector at it: what only the face knows is
// declared here, once per kind; what the connector knows it says itself
// (Capabilities).
type face struct {
	// contract is the sandbox's face (sandbox.Config.Contract).
	contract string
	// routes are the face's routes of each kind of transaction.
	routes map[providerclient.Kind]routes
	// repeatAnswered: the contract answers a create repeated under
	// PixGate's id with the transaction made the first time, instead of
	// refusing it as a duplicate (which the connector must then read back).
	repeatAnswered map[providerclient.Kind]bool
	// serve starts the face's listener in front of handler (the current
	// scenario's sandbox) and says how a connector reaches it.
	serve func(t *testing.T, handler http.Handler) *host
}

// faces are the sandbox faces of the connector kinds (connectors.Kinds):
// a kind without one fails the suite.
var faces = map[string]face{
	providerclient.KindFamily: {
		contract: sandbox.ContractFamily,
		routes: map[providerclient.Kind]routes{
			providerclient.KindCharge: {route{"POST", "/v2/pix/qrcode"}, route{"POST", "/v2/consult-transaction"}},
			providerclient.KindPayout: {route{"POST", "/v2/pix/payment"}, route{"POST", "/v2/consult-transaction"}},
			providerclient.KindRefund: {route{"POST", "/v2/pix/refund"}, route{"POST", "/v2/consult-transaction"}},
		},
		// A repeated external_id is answered with the first transaction.
		repeatAnswered: map[providerclient.Kind]bool{providerclient.KindCharge: true, providerclient.KindPayout: true, providerclient.KindRefund: true},
		serve:          serveFamily,
	},
	providerclient.KindEfi: {
		contract: sandbox.ContractEfi,
		routes: map[providerclient.Kind]routes{
			providerclient.KindCharge: {route{"PUT", bcbpix.PathCob}, route{"GET", bcbpix.PathCob}},
			providerclient.KindPayout: {route{"PUT", bcbpix.PathSend}, route{"GET", bcbpix.PathSent}},
			providerclient.KindRefund: {route{"PUT", bcbpix.PathDevolucao}, route{"GET", bcbpix.PathDevolucao}},
		},
		// A charge still ATIVA is answered as it stands; a send or a
		// devolução under a used id is refused.
		repeatAnswered: map[providerclient.Kind]bool{providerclient.KindCharge: true},
		serve:          serveEfi,
	},
	providerclient.KindWoovi: {
		contract: sandbox.ContractWoovi,
		routes: map[providerclient.Kind]routes{
			providerclient.KindCharge: {route{"POST", wooviapi.PathCharge}, route{"GET", wooviapi.PathChargeByID}},
			providerclient.KindPayout: {route{"POST", wooviapi.PathPayment}, route{"GET", wooviapi.PathPaymentByID}},
			providerclient.KindRefund: {route{"POST", wooviapi.PathChargeRefund}, route{"GET", wooviapi.PathRefundByID}},
		},
		// A used correlationID is refused (400).
		repeatAnswered: map[providerclient.Kind]bool{},
		serve:          serveWoovi,
	},
}

// host is a face's listener, shared by the scenarios of one kind (each
// puts its own sandbox behind it), with the checks of its traffic against
// the contract's published specification, where PixGate has one.
type host struct {
	srv *httptest.Server
	// wire is the connector's transport to the listener, checking what it
	// carries for t.
	wire func(t testing.TB) http.RoundTripper
	// webhook checks a notification body (nil: nothing to check it by).
	webhook func(body []byte) error
	// config is the connector's configuration, notified at hookURL.
	config func(hookURL string) providerclient.Config
	// sandbox is the sandbox's configuration, notifying hookURL.
	sandbox func(hookURL string) sandbox.Config
}

// front is the listener's handler: it serves each request to the sandbox
// of the scenario that sent it, named by the sandboxHeader its injector
// puts on every request, so that the scenarios of one kind run side by
// side behind one listener (and one specification check, which is slow to
// load).
type front struct {
	mu sync.Mutex
	m  map[string]http.Handler
}

// sandboxHeader names the scenario's sandbox on each request.
const sandboxHeader = "X-Conformance-Sandbox"

func (f *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	h := f.m[r.Header.Get(sandboxHeader)]
	f.mu.Unlock()
	if h == nil {
		http.Error(w, "no such sandbox", http.StatusMisdirectedRequest)
		return
	}
	h.ServeHTTP(w, r)
}

// serve puts h behind the listener under name, until t ends.
func (f *front) serve(t testing.TB, name string, h http.Handler) {
	f.mu.Lock()
	if f.m == nil {
		f.m = map[string]http.Handler{}
	}
	f.m[name] = h
	f.mu.Unlock()
	t.Cleanup(func() {
		f.mu.Lock()
		delete(f.m, name)
		f.mu.Unlock()
	})
}

func serveFamily(t *testing.T, handler http.Handler) *host {
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	return &host{
		srv:  srv,
		wire: func(testing.TB) http.RoundTripper { return http.DefaultTransport.(*http.Transport).Clone() },
		config: func(string) providerclient.Config {
			return providerclient.Config{Kind: providerclient.KindFamily, BaseURL: srv.URL,
				ClientID: sandbox.DefaultClientID, ClientSecret: sandbox.DefaultClientSecret, Extensions: true}
		},
		sandbox: func(string) sandbox.Config { return sandbox.Config{Contract: sandbox.ContractFamily} },
	}
}

// serveEfi serves the efi face over mutual TLS, and checks every request
// and answer on a route of the BCB API Pix against it, and every webhook
// body against its callback.
func serveEfi(t *testing.T, handler http.Handler) *host {
	m, err := sandbox.NewTLSMaterial()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(handler)
	if srv.TLS, err = m.ServerConfig(); err != nil {
		t.Fatal(err)
	}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // connections the timeout fault drops
	srv.StartTLS()
	t.Cleanup(srv.Close)
	v, err := bcbpixtest.New(srv.URL + "/v2")
	if err != nil {
		t.Fatal(err)
	}
	files := providerclient.TLSFiles{CertPEM: m.ClientCert, KeyPEM: m.ClientKey, CAPEM: m.CACert}
	tlsCfg, err := files.ClientConfig()
	if err != nil {
		t.Fatal(err)
	}
	return &host{
		srv: srv,
		wire: func(t testing.TB) http.RoundTripper {
			base := http.DefaultTransport.(*http.Transport).Clone()
			base.TLSClientConfig = tlsCfg.Clone() // its transport writes its NextProtos
			return &bcbpixtest.Transport{T: t, V: v, Next: base}
		},
		webhook: v.Webhook,
		config: func(hookURL string) providerclient.Config {
			return providerclient.Config{Kind: providerclient.KindEfi, BaseURL: srv.URL,
				ClientID: sandbox.DefaultClientID, ClientSecret: sandbox.DefaultClientSecret, TLS: files,
				PixKey: sandbox.DefaultPixKey, WebhookURL: hookURL}
		},
		sandbox: func(string) sandbox.Config { return sandbox.Config{Contract: sandbox.ContractEfi} },
	}
}

// serveWoovi serves the woovi face, signing its webhooks with one key, and
// checks every request and answer against Woovi's document.
func serveWoovi(t *testing.T, handler http.Handler) *host {
	const appID = "conformance-app-id"
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	public := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	v, err := wooviapitest.New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return &host{
		srv: srv,
		wire: func(t testing.TB) http.RoundTripper {
			return &wooviapitest.Transport{T: t, V: v, Next: http.DefaultTransport.(*http.Transport).Clone()}
		},
		config: func(string) providerclient.Config {
			return providerclient.Config{Kind: providerclient.KindWoovi, BaseURL: srv.URL, ClientID: appID, WebhookPublicKey: public}
		},
		sandbox: func(hookURL string) sandbox.Config {
			return sandbox.Config{Contract: sandbox.ContractWoovi, ClientID: appID, SigningKey: key, WebhookURL: hookURL}
		},
	}
}
