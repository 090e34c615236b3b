package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
)

// devWebhookToken is the provider webhook token pixgate dev uses when none
// is configured. It is kept beside the demo key and reused, because the
// sandbox keeps its transactions across restarts and notifies each at the
// webhook URL, token included, that PixGate gave it at creation.
func (c *cli) devWebhookToken() string {
	return c.keptDevSecret("webhook-token", "provider webhook token", minWebhookTokenLen)
}

// devMonitoringPassword is the /monitoring password pixgate dev uses when
// none is configured, kept beside the demo key too: a page left open in a
// browser, or a password manager, keeps working across make run.
func (c *cli) devMonitoringPassword() string {
	return c.keptDevSecret("monitoring-password", "monitoring password", 16)
}

// keptDevSecret is the secret kept in the demo key's file with the given
// suffix in place of .json when it is there and at least minLen long, else
// a new one of minLen hex characters, kept for the next run.
func (c *cli) keptDevSecret(suffix, what string, minLen int) string {
	path, err := c.demoKeyFile()
	if err == nil {
		path = strings.TrimSuffix(path, ".json") + "." + suffix
		if b, rerr := os.ReadFile(path); rerr == nil {
			if kept := string(bytes.TrimSpace(b)); len(kept) >= minLen {
				return kept
			}
		}
	}
	secret := randomHex((minLen + 1) / 2)
	if err == nil {
		if err = os.MkdirAll(filepath.Dir(path), 0o700); err == nil {
			err = os.WriteFile(path, []byte(secret+"\n"), 0o600)
		}
	}
	if err != nil {
		c.log.Warn("the "+what+" could not be kept for the next run", "error", err)
	}
	return secret
}
