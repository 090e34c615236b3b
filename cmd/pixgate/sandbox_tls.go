package main

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/pixgate/pixgate/providerclient/sandbox"
)

// sandboxContract is the contract the sandbox speaks.
func (c *cli) sandboxContract() string {
	if s := strings.ToLower(c.cfg.SandboxContract); s != "" {
		return s
	}
	return sandbox.ContractFamily
}

// sandboxTLSDir is where the efi sandbox keeps its certificates.
func (c *cli) sandboxTLSDir() (string, error) {
	if c.cfg.SandboxTLSDir != "" {
		return c.cfg.SandboxTLSDir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("PIXGATE_SANDBOX_TLS_DIR is not set and there is no user cache directory: %w", err)
	}
	return filepath.Join(dir, "pixgate", "sandbox-tls"), nil
}

// sandboxTLS reads the efi sandbox's CA, server and client certificates,
// making them the first time (a CA of its own, valid for a year).
func (c *cli) sandboxTLS() (sandbox.TLSMaterial, string, error) {
	dir, err := c.sandboxTLSDir()
	if err != nil {
		return sandbox.TLSMaterial{}, "", err
	}
	m, err := sandbox.ReadTLSMaterial(dir)
	if err == nil {
		return m, dir, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return sandbox.TLSMaterial{}, "", fmt.Errorf("PIXGATE_SANDBOX_TLS_DIR %s: %w", dir, err)
	}
	hosts := []string{"127.0.0.1", "localhost", "::1"}
	if h, _, err := net.SplitHostPort(c.cfg.SandboxTLSAddr); err == nil && h != "" && h != "0.0.0.0" && h != "::" {
		hosts = append(hosts, h)
	}
	if m, err = sandbox.NewTLSMaterial(hosts...); err != nil {
		return sandbox.TLSMaterial{}, "", err
	}
	if err := m.WriteFiles(dir); err != nil {
		return sandbox.TLSMaterial{}, "", fmt.Errorf("PIXGATE_SANDBOX_TLS_DIR %s: %w", dir, err)
	}
	c.log.Info("efi sandbox certificates made", "dir", dir)
	return m, dir, nil
}

// useSandboxTLS points the provider's mutual TLS at the efi sandbox's
// client certificate and CA, where the operator set none.
func (c *cli) useSandboxTLS() error {
	if c.cfg.ProviderCertFile != "" || c.cfg.ProviderCertPEM != "" {
		return nil
	}
	_, dir, err := c.sandboxTLS()
	if err != nil {
		return err
	}
	c.cfg.ProviderCertFile = filepath.Join(dir, sandbox.FileClientCert)
	c.cfg.ProviderKeyFile = filepath.Join(dir, sandbox.FileClientKey)
	if c.cfg.ProviderCAFile == "" && c.cfg.ProviderCAPEM == "" {
		c.cfg.ProviderCAFile = filepath.Join(dir, sandbox.FileCACert)
	}
	return nil
}

// serveSandbox serves a sandbox on ln: the family face alone; the efi face
// with its control endpoints on ln and its API on tlsLn, over mutual TLS.
// stop runs before the servers shut down.
func (c *cli) serveSandbox(ctx context.Context, g *errgroup.Group, sb *sandbox.Sandbox, ln, tlsLn net.Listener, stop func()) error {
	if sb.Contract() != sandbox.ContractEfi {
		g.Go(serveHTTP(ctx, sb.Handler(), ln, stop))
		return nil
	}
	m, dir, err := c.sandboxTLS()
	if err != nil {
		ln.Close()
		tlsLn.Close()
		return err
	}
	tlsCfg, err := m.ServerConfig()
	if err != nil {
		ln.Close()
		tlsLn.Close()
		return err
	}
	g.Go(serveHTTP(ctx, sb.ControlHandler(), ln, stop))
	g.Go(serveHTTP(ctx, sb.APIHandler(), tls.NewListener(tlsLn, tlsCfg), nil))
	c.log.Info("efi sandbox: its API over mutual TLS", "addr", tlsLn.Addr().String(), "control", ln.Addr().String(),
		"client_cert", filepath.Join(dir, sandbox.FileClientCert), "ca", filepath.Join(dir, sandbox.FileCACert))
	return nil
}

// Files of the woovi face's webhook signing key, in the sandbox's directory.
const (
	fileWooviKey    = "woovi-webhook-key.pem"
	fileWooviPublic = "woovi-webhook-public.pem"
)

// sandboxWooviKey reads the woovi face's signing key, making it (RSA 2048)
// the first time, with its public half beside it for
// PIXGATE_PROVIDER_WEBHOOK_KEY.
func (c *cli) sandboxWooviKey() (*rsa.PrivateKey, error) {
	dir, err := c.sandboxTLSDir()
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, fileWooviKey)
	if b, err := os.ReadFile(path); err == nil {
		if block, _ := pem.Decode(b); block != nil {
			if k, err := x509.ParsePKCS1PrivateKey(block.Bytes); err == nil {
				return k, nil
			}
		}
		return nil, fmt.Errorf("PIXGATE_SANDBOX_TLS_DIR %s: %s is not an RSA key", dir, fileWooviKey)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("PIXGATE_SANDBOX_TLS_DIR %s: %w", dir, err)
	}
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("PIXGATE_SANDBOX_TLS_DIR %s: %w", dir, err)
	}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})
	if err := os.WriteFile(path, keyPEM, 0o600); err != nil {
		return nil, fmt.Errorf("PIXGATE_SANDBOX_TLS_DIR %s: %w", dir, err)
	}
	if err := os.WriteFile(filepath.Join(dir, fileWooviPublic), []byte(publicKeyPEM(k)), 0o644); err != nil {
		return nil, fmt.Errorf("PIXGATE_SANDBOX_TLS_DIR %s: %w", dir, err)
	}
	c.log.Info("woovi sandbox webhook key made", "public_key", filepath.Join(dir, fileWooviPublic))
	return k, nil
}

func publicKeyPEM(k *rsa.PrivateKey) string {
	der, _ := x509.MarshalPKIXPublicKey(&k.PublicKey)
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}
