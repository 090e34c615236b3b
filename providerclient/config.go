package providerclient

import (
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Config configures a Client. Every zero value has a working default except
// BaseURL and the credentials.
type Config struct {
	// BaseURL is the provider's root, e.g. "http://127.0.0.1:9090"; the
	// client appends "/v2/...".
	BaseURL string
	// ClientID and ClientSecret are the provider credentials, sent with
	// HTTP Basic to /v2/oauth/token. The secret never appears in errors.
	ClientID, ClientSecret string
	// Timeout bounds each HTTP call (each retry attempt and each token fetch
	// on its own). Default 10s.
	Timeout time.Duration
	// BreakerFailures is the number of consecutive transient failures that
	// opens the circuit breaker. Default 5.
	BreakerFailures uint32
	// BreakerOpenTimeout is how long the breaker stays open before letting
	// one probe through (half-open). Default 15s.
	BreakerOpenTimeout time.Duration
	// RetryMaxElapsed bounds the in-process retries of one call. Default 2s;
	// negative disables retries.
	RetryMaxElapsed time.Duration
	// HTTPClient sends the requests. Default: http.DefaultTransport, no
	// redirects followed, no client-wide timeout (Timeout applies per call).
	HTTPClient *http.Client
	// OnBreakerStateChange is told every breaker transition with the state
	// names "closed", "half-open" and "open" (for metrics and logs). It runs
	// under the breaker's lock: keep it fast and never call the client.
	OnBreakerStateChange func(from, to string)
	// Metrics, when set, registers call counts and latencies (WithMetrics).
	Metrics prometheus.Registerer
}

// Defaults applied to zero Config fields.
const (
	DefaultTimeout            = 10 * time.Second
	DefaultBreakerFailures    = 5
	DefaultBreakerOpenTimeout = 15 * time.Second
	DefaultRetryMaxElapsed    = 2 * time.Second
)

func (c Config) withDefaults() Config {
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.BreakerFailures == 0 {
		c.BreakerFailures = DefaultBreakerFailures
	}
	if c.BreakerOpenTimeout <= 0 {
		c.BreakerOpenTimeout = DefaultBreakerOpenTimeout
	}
	if c.RetryMaxElapsed == 0 {
		c.RetryMaxElapsed = DefaultRetryMaxElapsed
	}
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	return c
}
