package main

import (
	"fmt"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/connectors"
	"github.com/pixgate/pixgate/providerclient/fleet"
)

// providerConfig is the single provider of PIXGATE_PROVIDER_*, named
// "default".
func (c *cli) providerConfig() providerclient.Config {
	keyFile := c.cfg.ProviderKeyFile
	if keyFile == "" && c.cfg.ProviderKeyPEM == "" {
		keyFile = c.cfg.ProviderCertFile // one PEM file with both
	}
	return providerclient.Config{
		Name:         providerclient.DefaultName,
		Kind:         strings.ToLower(c.cfg.ProviderKind),
		BaseURL:      c.cfg.ProviderURL,
		ClientID:     c.cfg.ProviderClientID,
		ClientSecret: c.cfg.ProviderClientSecret,
		Timeout:      c.cfg.ProviderTimeout,
		ReadTimeout:  c.cfg.ProviderReadTimeout,
		TLS: providerclient.TLSFiles{CertFile: c.cfg.ProviderCertFile, KeyFile: keyFile, CertPEM: c.cfg.ProviderCertPEM,
			KeyPEM: c.cfg.ProviderKeyPEM, CAFile: c.cfg.ProviderCAFile, CAPEM: c.cfg.ProviderCAPEM},
		PixKey:           c.cfg.ProviderPixKey,
		WebhookPublicKey: c.cfg.ProviderWebhookKey,
		WebhookURL:       c.webhookURL(),
		WebhookSkipMTLS:  c.cfg.ProviderWebhookSkipMTLS,
		Extensions:       c.cfg.ProviderExtensions,
	}
}

// newProvider builds the process's providers, a fleet (today of the one
// provider of PIXGATE_PROVIDER_*): API handlers and workers share each
// provider's token cache, circuit breaker, bulkhead and health score. Its
// errors name the setting to fix.
func (c *cli) newProvider(reg prometheus.Registerer) (providerclient.Connector, error) {
	cfg := c.providerConfig()
	bare, err := connectors.Bare(cfg)
	if err != nil {
		return nil, fmt.Errorf("provider (PIXGATE_PROVIDER_KIND=%s): %w; see PIXGATE_PROVIDER_CERT_FILE, _KEY_FILE, _CA_FILE and _PIX_KEY in pixgate env", cfg.Kind, err)
	}
	return fleet.New(fleet.Options{Metrics: reg, Log: c.log}, fleet.Member{Config: cfg, Connector: bare})
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
	return checkWebhookTokenEntropy(c.cfg.ProviderWebhookToken)
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
