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
	path, err := c.demoKeyFile()
	if err == nil {
		path = strings.TrimSuffix(path, ".json") + ".webhook-token"
		if b, rerr := os.ReadFile(path); rerr == nil {
			if kept := string(bytes.TrimSpace(b)); len(kept) >= minWebhookTokenLen {
				return kept
			}
		}
	}
	token := randomHex(minWebhookTokenLen / 2)
	if err == nil {
		if err = os.MkdirAll(filepath.Dir(path), 0o700); err == nil {
			err = os.WriteFile(path, []byte(token+"\n"), 0o600)
		}
	}
	if err != nil {
		c.log.Warn("the provider webhook token could not be kept for the next run", "error", err)
	}
	return token
}
