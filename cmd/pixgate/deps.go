package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/pixgate/pixgate/api"
	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/connectors"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/storage"
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
		Account:          providerAccount(c.cfg.ProviderAccount),
		WebhookPublicKey: c.cfg.ProviderWebhookKey,
		WebhookURL:       c.webhookURL(),
		WebhookSkipMTLS:  c.cfg.ProviderWebhookSkipMTLS,
		Extensions:       c.cfg.ProviderExtensions,
	}
}

// providerAccount reads PIXGATE_PROVIDER_ACCOUNT, branch/number or
// branch/number/type; anything else is no account (the connector then
// refuses what needs one, saying so).
func providerAccount(s string) providerclient.Account {
	parts := strings.Split(s, "/")
	if len(parts) < 2 || len(parts) > 3 {
		return providerclient.Account{}
	}
	a := providerclient.Account{Branch: parts[0], Number: parts[1]}
	if len(parts) == 3 {
		a.Type = parts[2]
	}
	return a
}

// defaultProvider is the bare connector of PIXGATE_PROVIDER_*, built
// before any connection: a bad certificate is a setting to fix. Its errors
// name the setting.
func (c *cli) defaultProvider() (fleet.Member, error) {
	cfg := c.providerConfig()
	bare, err := connectors.Bare(cfg)
	if err != nil {
		return fleet.Member{}, fmt.Errorf("provider (PIXGATE_PROVIDER_KIND=%s): %w; see PIXGATE_PROVIDER_CERT_FILE, _KEY_FILE, _CA_FILE and _PIX_KEY in pixgate env", cfg.Kind, err)
	}
	return fleet.Member{Config: cfg, Connector: bare}, nil
}

// newProvider builds the process's providers as one fleet: the default one
// and every provider record, disabled ones included (they take nothing new,
// but what they hold is still read, settled and notified through them).
// API handlers and workers share each provider's token cache, circuit
// breaker, bulkhead and health score. A record whose connector cannot be
// built (a secret that cannot be read, a bad certificate) is left out with
// an error in the log: the other providers still serve, and routes pass
// over the missing one.
func (c *cli) newProvider(reg prometheus.Registerer, def fleet.Member, records []storage.Provider) (*fleet.Fleet, error) {
	members := []fleet.Member{def}
	for _, p := range records {
		m, err := c.recordProvider(p)
		if err != nil {
			c.log.Error("provider left out: its connector cannot be built", "provider", p.Name, "error", err)
			continue
		}
		members = append(members, m)
	}
	return fleet.New(c.fleetOptions(reg), members...)
}

// fleetOptions are the fleet's settings of PIXGATE_PROVIDER_*.
func (c *cli) fleetOptions(reg prometheus.Registerer) fleet.Options {
	return fleet.Options{Metrics: reg, Log: c.log, CreateAttemptTimeout: c.cfg.ProviderCreateAttempt,
		HedgeAfter: c.cfg.ProviderHedgeAfter, HedgeAttempts: c.cfg.ProviderHedgeAttempts}
}

// recordProvider is the bare connector of a provider record, with the
// process's timeouts and the provider's own webhook path.
func (c *cli) recordProvider(p storage.Provider) (fleet.Member, error) {
	secret, err := readSecretRef(p.ClientSecretRef)
	if err != nil {
		return fleet.Member{}, err
	}
	keyFile := p.KeyFile
	if keyFile == "" {
		keyFile = p.CertFile // one PEM file with both
	}
	cfg := providerclient.Config{
		Name: p.Name, Kind: strings.ToLower(p.Kind), BaseURL: p.URL, ClientID: p.ClientID, ClientSecret: secret,
		Timeout: c.cfg.ProviderTimeout, ReadTimeout: c.cfg.ProviderReadTimeout,
		TLS:    providerclient.TLSFiles{CertFile: p.CertFile, KeyFile: keyFile, CAFile: p.CAFile},
		PixKey: p.PixKey, WebhookURL: c.providerWebhookURL(p.Name),
	}
	bare, err := connectors.Bare(cfg)
	if err != nil {
		return fleet.Member{}, err
	}
	return fleet.Member{Config: cfg, Connector: bare}, nil
}

// readSecretRef reads a client secret by its reference: "env:VAR" or
// "file:/path" (trailing newline dropped); "" is no secret.
func readSecretRef(ref string) (string, error) {
	scheme, where, _ := strings.Cut(ref, ":")
	switch scheme {
	case "":
		return "", nil
	case "env":
		v, ok := os.LookupEnv(where)
		if !ok {
			return "", fmt.Errorf("client secret: %s is not set", where)
		}
		return v, nil
	case "file":
		b, err := os.ReadFile(where)
		if err != nil {
			return "", fmt.Errorf("client secret: %w", err)
		}
		return strings.TrimRight(string(b), "\r\n"), nil
	}
	return "", fmt.Errorf("client secret: %w", storage.ErrProviderSecret)
}

// providerWebhookURL is where provider name sends its notifications: its
// own path and token (api.ProviderWebhookToken).
func (c *cli) providerWebhookURL(name string) string {
	return strings.TrimRight(c.cfg.PublicBaseURL, "/") + "/webhooks/provider/" + name + "/" + api.ProviderWebhookToken(c.cfg.ProviderWebhookToken, name)
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
