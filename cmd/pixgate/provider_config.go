package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/pixgate/pixgate/api"
	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

// recordConfig is the connector configuration of a provider record: its
// client secret read from where the record points (never from the
// database), its webhook at /webhooks/provider/{name}/{token} with the
// token derived for it (api.ProviderWebhookToken), and this process's
// provider timeouts. Its errors name the provider and the variable or
// file, never the secret.
func (c *cli) recordConfig(p storage.Provider) (providerclient.Config, error) {
	secret, err := c.readSecretRef(p.ClientSecretRef)
	if err != nil {
		return providerclient.Config{}, fmt.Errorf("provider %s: client secret: %w (see pixgate provider update %s --client-secret-env|--client-secret-file)",
			p.Name, err, p.Name)
	}
	keyFile := p.KeyFile
	if keyFile == "" {
		keyFile = p.CertFile // one PEM file with both
	}
	return providerclient.Config{
		Name: p.Name, Kind: p.Kind, BaseURL: p.URL, ClientID: p.ClientID, ClientSecret: secret,
		Timeout: c.cfg.ProviderTimeout, ReadTimeout: c.cfg.ProviderReadTimeout,
		TLS:        providerclient.TLSFiles{CertFile: p.CertFile, KeyFile: keyFile, CAFile: p.CAFile},
		PixKey:     p.PixKey,
		WebhookURL: strings.TrimRight(c.cfg.PublicBaseURL, "/") + "/webhooks/provider/" + p.Name + "/" + api.ProviderWebhookToken(c.cfg.ProviderWebhookToken, p.Name),
	}, nil
}

// readSecretRef reads a secret reference: "" is no secret, "env:VAR" this
// process's variable VAR (set and not empty), "file:/path" the file's
// content less its trailing newline.
func (c *cli) readSecretRef(ref string) (string, error) {
	if err := storage.CheckSecretRef(ref); err != nil {
		return "", err
	}
	scheme, where, _ := strings.Cut(ref, ":")
	switch scheme {
	case "env":
		v := c.environ[where]
		if v == "" {
			return "", fmt.Errorf("the environment variable %s is not set", where)
		}
		return v, nil
	case "file":
		b, err := os.ReadFile(where)
		if err != nil {
			return "", fmt.Errorf("cannot read %s: %w", where, err)
		}
		return strings.TrimRight(string(b), "\r\n"), nil
	}
	return "", nil
}
