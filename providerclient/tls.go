package providerclient

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
)

// TLSFiles is a client certificate for mutual TLS and the CA that signs the
// provider's server certificate, each from a file or as PEM text (PEM text
// wins when both are set). Efí issues its certificates as PKCS#12; convert
// one to PEM with `openssl pkcs12 -in cert.p12 -out cert.pem -nodes`
// (certificate and key in one file serve as both CertFile and KeyFile).
type TLSFiles struct {
	CertFile, KeyFile string
	CertPEM, KeyPEM   string
	// CAFile or CAPEM: the provider's CA; neither means the system's roots.
	CAFile, CAPEM string
}

// Set reports whether a client certificate is configured.
func (t TLSFiles) Set() bool {
	return t.CertPEM != "" || t.CertFile != ""
}

// ClientConfig builds the TLS configuration of a mutual-TLS client. Its
// errors name the setting at fault, never a key's content.
func (t TLSFiles) ClientConfig() (*tls.Config, error) {
	certPEM, err := pemOf("client certificate", t.CertPEM, t.CertFile)
	if err != nil {
		return nil, err
	}
	keyPEM, err := pemOf("client key", t.KeyPEM, t.KeyFile)
	if err != nil {
		return nil, err
	}
	if len(certPEM) == 0 || len(keyPEM) == 0 {
		return nil, errors.New("mutual TLS needs a client certificate and its key")
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("the client certificate and key do not make a pair: %w", err)
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}}
	caPEM, err := pemOf("CA", t.CAPEM, t.CAFile)
	if err != nil {
		return nil, err
	}
	if len(caPEM) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(caPEM) {
			return nil, errors.New("the CA holds no PEM certificate")
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}

func pemOf(what, text, file string) ([]byte, error) {
	if text != "" {
		return []byte(text), nil
	}
	if file == "" {
		return nil, nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read the %s file: %w", what, err)
	}
	return b, nil
}
