package main

import (
	"fmt"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/pixgate/pixgate/providerclient"
)

// newProvider builds the process's one provider client: API handlers and
// workers share its token cache and its circuit breaker.
func (c *cli) newProvider(reg prometheus.Registerer) providerclient.Client {
	breaker := prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "pixgate_provider_breaker_state", Help: "The provider circuit breaker: 0 closed, 1 half-open, 2 open.",
	})
	reg.MustRegister(breaker)
	states := map[string]float64{"closed": 0, "half-open": 1, "open": 2}
	return providerclient.New(providerclient.Config{
		BaseURL:      c.cfg.ProviderURL,
		ClientID:     c.cfg.ProviderClientID,
		ClientSecret: c.cfg.ProviderClientSecret,
		Timeout:      c.cfg.ProviderTimeout,
		Metrics:      reg,
		OnBreakerStateChange: func(from, to string) {
			breaker.Set(states[to])
			c.log.Warn("provider circuit breaker changed state", "from", from, "to", to)
		},
	})
}

// webhookURL is where the provider sends its notifications.
func (c *cli) webhookURL() string {
	return strings.TrimRight(c.cfg.PublicBaseURL, "/") + "/webhooks/provider/" + c.cfg.ProviderWebhookToken
}

func (c *cli) requireWebhookToken() error {
	if n := len(c.cfg.ProviderWebhookToken); n < minWebhookTokenLen {
		return fmt.Errorf("PIXGATE_PROVIDER_WEBHOOK_TOKEN must be set to at least %d random characters (it has %d): "+
			"it is the secret path the provider posts notifications to, and the only thing that keeps others from posting there", minWebhookTokenLen, n)
	}
	return nil
}

// minWebhookTokenLen: 32 characters of hex or base64 carry 128 bits or more.
const minWebhookTokenLen = 32

// newRegistry is the process's Prometheus registry, with Go and process
// collectors.
func newRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}
