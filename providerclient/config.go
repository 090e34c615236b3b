package providerclient

import (
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Config is one provider: its name, its contract (Kind) and what that
// contract needs. Every zero value has a working default except BaseURL and
// the credentials.
type Config struct {
	// Name tells providers apart in metrics, logs and breakers. Default
	// "default".
	Name string
	// Kind is the contract: KindFamily (default), KindEfi or KindWoovi.
	Kind string
	// BaseURL is the provider's root, e.g. "http://127.0.0.1:9090"; the
	// connector appends the contract's paths ("/v2/...").
	BaseURL string
	// ClientID and ClientSecret are the provider credentials (OAuth2
	// client credentials for family and efi; Woovi takes ClientID as its
	// AppID). The secret never appears in errors.
	ClientID, ClientSecret string
	// TLS is the client certificate and the trusted CA, for contracts
	// over mutual TLS (efi).
	TLS TLSFiles
	// PixKey is the account's own PIX key (efi): charges are issued to it,
	// PIX are sent from it, and the webhook is registered on it.
	PixKey string
	// WebhookURL is where the provider notifies PixGate, for contracts
	// that register it once per account (efi, woovi) rather than per call.
	WebhookURL string
	// WebhookSkipMTLS asks Efí not to require mutual TLS of PixGate's
	// webhook endpoint (header x-skip-mtls-checking), for deployments
	// whose proxy does not check Efí's client certificate; PixGate reads
	// every notified transaction back before believing it either way.
	WebhookSkipMTLS bool
	// Account is the account's own branch and number at the provider
	// (efi): each Pix Automático cycle's charge names it as its recebedor,
	// which the BCB's cobr requires.
	Account Account
	// WebhookPublicKey is the PEM public key a provider signs its
	// notifications with (woovi); set, unsigned or badly signed
	// notifications are refused.
	WebhookPublicKey string
	// Extensions: the provider also serves PixGate's extensions of its
	// contract, as PixGate's sandbox does. For the family contract, which
	// has none of them, they are MED infractions read by
	// consult-transaction, the key directory, due-date charges and Pix
	// Automático's recurrences (docs/provider.md); a real provider of the
	// family leaves this off, and its connector then offers none of them.
	Extensions bool
	// Timeout bounds each HTTP call (each retry attempt and each token fetch
	// on its own). Default 10s.
	Timeout time.Duration
	// ReadTimeout bounds a whole read of a transaction (Read), its retries
	// included: reads settle notifications and reconcile, and a provider
	// that answers slowly must not hold their workers for Timeout each.
	// Sends keep Timeout. Default 3s.
	ReadTimeout time.Duration
	// BreakerFailures is the least number of transient failures within
	// BreakerWindow before the breaker may open: below it, a few unlucky
	// calls are not a verdict on the provider. Default 30.
	BreakerFailures uint32
	// BreakerFailureRatio is the share (0..1] of the calls within
	// BreakerWindow that must have failed transiently for the breaker to
	// open. Default 0.8: a provider failing half its calls stays in
	// service, one that is down trips it.
	BreakerFailureRatio float64
	// BreakerWindow is the rolling window the breaker counts over, in ten
	// buckets. Default 10s.
	BreakerWindow time.Duration
	// BreakerOpenTimeout is how long the breaker stays open before letting
	// probes through (half-open). Default 1s, so that calls resume within a
	// second or two of the provider's recovery.
	BreakerOpenTimeout time.Duration
	// BreakerProbes is how many calls go through when half-open; that many
	// successes in a row close the breaker, one transient failure opens it
	// again. Default 3.
	BreakerProbes uint32
	// RetryMaxElapsed bounds the in-process retries of one call. Default 2s;
	// negative disables retries.
	RetryMaxElapsed time.Duration
	// HTTPClient sends the requests. Default: a transport of NewTransport
	// shared by the process's connectors, no redirects followed, no client-wide timeout (Timeout applies per call).
	HTTPClient *http.Client
	// OnBreakerStateChange is told every breaker transition, with the lane
	// whose breaker it is and the state names "closed", "half-open" and
	// "open" (for metrics and logs). It runs under the breaker's lock: keep
	// it fast and never call the client.
	OnBreakerStateChange func(lane Lane, from, to string)
	// Metrics, when set, registers call counts and latencies (WithMetrics).
	Metrics prometheus.Registerer
}

// Account is an account at the provider: its branch (agência), its number
// and its type, in the BCB's names (tipoConta: CORRENTE, the default,
// POUPANCA or PAGAMENTO).
type Account struct {
	Branch, Number, Type string
}

// Defaults applied to zero Config fields.
const (
	DefaultTimeout             = 10 * time.Second
	DefaultReadTimeout         = 3 * time.Second
	DefaultBreakerFailures     = 30
	DefaultBreakerFailureRatio = 0.8
	DefaultBreakerWindow       = 10 * time.Second
	DefaultBreakerOpenTimeout  = time.Second
	DefaultBreakerProbes       = 3
	DefaultRetryMaxElapsed     = 2 * time.Second
)

// Contracts a connector speaks (Config.Kind).
const (
	KindFamily = "family"
	KindEfi    = "efi"
	KindWoovi  = "woovi"
)

// DefaultName is the name of a single-provider deployment's provider.
const DefaultName = "default"

// WithDefaults fills the zero fields of c with their defaults.
func (c Config) WithDefaults() Config {
	if c.Name == "" {
		c.Name = DefaultName
	}
	if c.Kind == "" {
		c.Kind = KindFamily
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.ReadTimeout <= 0 {
		c.ReadTimeout = DefaultReadTimeout
	}
	if c.BreakerFailures == 0 {
		c.BreakerFailures = DefaultBreakerFailures
	}
	if c.BreakerFailureRatio <= 0 || c.BreakerFailureRatio > 1 {
		c.BreakerFailureRatio = DefaultBreakerFailureRatio
	}
	if c.BreakerWindow <= 0 {
		c.BreakerWindow = DefaultBreakerWindow
	}
	if c.BreakerOpenTimeout <= 0 {
		c.BreakerOpenTimeout = DefaultBreakerOpenTimeout
	}
	if c.BreakerProbes == 0 {
		c.BreakerProbes = DefaultBreakerProbes
	}
	if c.RetryMaxElapsed == 0 {
		c.RetryMaxElapsed = DefaultRetryMaxElapsed
	}
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{
			Transport:     sharedTransport(),
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	return c
}
