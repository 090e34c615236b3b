package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strings"

	"github.com/pixgate/pixgate/storage"
)

// demoKeyFile is where pixgate dev keeps the demo integrator's API key, so
// every run reuses it (stored secrets are only hashes and cannot be shown
// again) and pixgate demo finds it: PIXGATE_DEMO_KEY_FILE, or one file per
// database in the user's cache directory.
func (c *cli) demoKeyFile() (string, error) {
	if c.cfg.DemoKeyFile != "" {
		return c.cfg.DemoKeyFile, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory for the demo key (set PIXGATE_DEMO_KEY_FILE): %w", err)
	}
	sum := sha256.Sum256([]byte(c.cfg.DatabaseURL))
	return filepath.Join(dir, "pixgate", "demo-key-"+hex.EncodeToString(sum[:6])+".json"), nil
}

// demoKey is the file's content.
type demoKey struct {
	IntegratorID int64  `json:"integrator_id"`
	PublicID     string `json:"public_id"`
	Secret       string `json:"secret"`
	Database     string `json:"database,omitempty"` // "NAME on HOST:PORT", for messages
	// HTTPAddr is where the pixgate dev that made the key served the API
	// (PIXGATE_HTTP_ADDR), so that pixgate demo, pointed at an address,
	// names the key of the dev there and no other (noDemoKey).
	HTTPAddr string `json:"http_addr,omitempty"`
}

func (k demoKey) token() string { return k.PublicID + "." + k.Secret }

func (c *cli) readDemoKey() (demoKey, error) {
	path, err := c.demoKeyFile()
	if err != nil {
		return demoKey{}, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return demoKey{}, err
	}
	var k demoKey
	if err := json.Unmarshal(b, &k); err != nil || k.PublicID == "" || k.Secret == "" {
		return demoKey{}, fmt.Errorf("%s is not a demo key file", path)
	}
	return k, nil
}

func (c *cli) writeDemoKey(k demoKey) error {
	path, err := c.demoKeyFile()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	k.Database, k.HTTPAddr = databaseName(c.cfg.DatabaseURL), c.cfg.HTTPAddr
	b, _ := json.Marshal(k)
	return os.WriteFile(path, b, 0o600)
}

// noDemoKey explains a missing demo key file: pixgate dev keeps one per
// database, so a pixgate demo with another PIXGATE_DATABASE_URL than dev's
// finds none. The cache directory may hold the keys of many databases,
// other users' and old runs' too; only the one kept by a pixgate dev that
// served the API address demo is pointed at (api, host:port) concerns the
// user, and only its database is named.
func (c *cli) noDemoKey(path, api string) error {
	if c.cfg.DemoKeyFile != "" {
		return fmt.Errorf("no demo key in %s (PIXGATE_DEMO_KEY_FILE): start pixgate dev with that PIXGATE_DEMO_KEY_FILE first, or pass --token", path)
	}
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "demo-key-*.json"))
	if len(files) == 0 {
		return errors.New("no demo key yet: start pixgate dev (make run) first, or pass --token")
	}
	var there []string
	for _, f := range files {
		var k demoKey
		if b, err := os.ReadFile(f); err == nil && json.Unmarshal(b, &k) == nil && k.Database != "" && sameListener(k.HTTPAddr, api) {
			there = append(there, k.Database)
		}
	}
	here := databaseName(c.cfg.DatabaseURL)
	if len(there) == 0 {
		return fmt.Errorf("no demo key for database %s (PIXGATE_DATABASE_URL); pixgate dev keeps one per database. "+
			"Run pixgate demo with the PIXGATE_DATABASE_URL pixgate dev runs with, start pixgate dev with this one, or pass --token", here)
	}
	return fmt.Errorf("no demo key for database %s (PIXGATE_DATABASE_URL); pixgate dev keeps one per database, and the pixgate dev serving %s kept its key for: %s. "+
		"Run pixgate demo with the PIXGATE_DATABASE_URL pixgate dev runs with, or pass --token",
		here, api, strings.Join(there, "; "))
}

// sameListener reports whether two host:port addresses are one listener
// of this machine: the same port, on the same host or on hosts that are
// both this machine (loopback, unspecified, localhost).
func sameListener(a, b string) bool {
	ha, pa, errA := net.SplitHostPort(a)
	hb, pb, errB := net.SplitHostPort(b)
	if errA != nil || errB != nil || pa != pb {
		return false
	}
	return ha == hb || isLocalHost(ha) && isLocalHost(hb)
}

func isLocalHost(h string) bool {
	if h == "" || strings.EqualFold(h, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(h)
	return err == nil && (ip.IsLoopback() || ip.IsUnspecified())
}

// demoCredentials returns the demo integrator's key: the one kept from an
// earlier run when it still authenticates, else a new one, after revoking
// every other key of the demo integrator so old ones do not pile up.
func (c *cli) demoCredentials(ctx context.Context, db *storage.DB, in storage.Integrator) (storage.Credentials, error) {
	if k, err := c.readDemoKey(); err == nil && k.IntegratorID == in.ID {
		_, owner, err := db.AuthenticateKey(ctx, k.PublicID, k.Secret)
		switch {
		case err == nil && owner.ID == in.ID:
			return storage.Credentials{PublicID: k.PublicID, Secret: k.Secret}, nil
		case err != nil && !errors.Is(err, storage.ErrInvalidCredentials):
			return storage.Credentials{}, err
		}
	}
	keys, err := db.ListKeys(ctx, in.ID)
	if err != nil {
		return storage.Credentials{}, err
	}
	for _, k := range keys {
		if k.RevokedAt == nil {
			if err := db.RevokeKey(ctx, k.PublicID); err != nil {
				return storage.Credentials{}, err
			}
		}
	}
	_, creds, err := db.CreateKey(ctx, storage.NewKey{IntegratorID: in.ID})
	if err != nil {
		return storage.Credentials{}, err
	}
	c.keepDemoKey(demoKey{IntegratorID: in.ID, PublicID: creds.PublicID, Secret: creds.Secret})
	return creds, nil
}

// keepDemoKey writes the demo key for the next run; failing to is worth a
// warning, not a stop: the next run then mints a new key.
func (c *cli) keepDemoKey(k demoKey) {
	if err := c.writeDemoKey(k); err != nil {
		c.log.Warn("the demo key could not be kept for the next run", "error", err)
	}
}
