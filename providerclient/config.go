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
	DefaultTimeout             = 10 * time.Second
	DefaultBreakerFailures     = 30
	DefaultBreakerFailureRatio = 0.8
	DefaultBreakerWindow       = 10 * time.Second
	DefaultBreakerOpenTimeout  = time.Second
	DefaultBreakerProbes       = 3
	DefaultRetryMaxElapsed     = 2 * time.Second
)

func (c Config) withDefaults() Config {
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
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
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	return c
}
