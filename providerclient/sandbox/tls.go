package sandbox

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// TLSMaterial is what the efi face's mutual TLS needs, made up for a
// sandbox: a CA, the server's certificate for the sandbox's hosts and one
// client certificate, all signed by that CA, in PEM.
type TLSMaterial struct {
	CACert                string
	ServerCert, ServerKey string
	ClientCert, ClientKey string
}

// NewTLSMaterial makes a CA (valid for a year) and the server and client
// certificates it signs; hosts are the server's names and addresses
// (default 127.0.0.1 and localhost).
func NewTLSMaterial(hosts ...string) (TLSMaterial, error) {
	if len(hosts) == 0 {
		hosts = []string{"127.0.0.1", "localhost", "::1"}
	}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return TLSMaterial{}, err
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber: serial(), Subject: pkix.Name{CommonName: "PixGate sandbox CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(1, 0, 0),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return TLSMaterial{}, err
	}
	ca, _ := x509.ParseCertificate(caDER)
	leaf := func(cn string, usage x509.ExtKeyUsage, hosts []string) (string, string, error) {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return "", "", err
		}
		tmpl := &x509.Certificate{
			SerialNumber: serial(), Subject: pkix.Name{CommonName: cn},
			NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(1, 0, 0),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
		}
		for _, h := range hosts {
			if ip := net.ParseIP(h); ip != nil {
				tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
			} else {
				tmpl.DNSNames = append(tmpl.DNSNames, h)
			}
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
		if err != nil {
			return "", "", err
		}
		kder, err := x509.MarshalECPrivateKey(key)
		if err != nil {
			return "", "", err
		}
		return pemText("CERTIFICATE", der), pemText("EC PRIVATE KEY", kder), nil
	}
	m := TLSMaterial{CACert: pemText("CERTIFICATE", caDER)}
	if m.ServerCert, m.ServerKey, err = leaf("PixGate sandbox", x509.ExtKeyUsageServerAuth, hosts); err != nil {
		return TLSMaterial{}, err
	}
	if m.ClientCert, m.ClientKey, err = leaf("PixGate", x509.ExtKeyUsageClientAuth, nil); err != nil {
		return TLSMaterial{}, err
	}
	return m, nil
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	return n
}

func pemText(typ string, der []byte) string {
	return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
}

// ServerConfig is the TLS configuration of the efi face's listener: the
// server certificate, and a client certificate signed by the CA required
// of every connection.
func (m TLSMaterial) ServerConfig() (*tls.Config, error) {
	cert, err := tls.X509KeyPair([]byte(m.ServerCert), []byte(m.ServerKey))
	if err != nil {
		return nil, fmt.Errorf("sandbox server certificate: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM([]byte(m.CACert)) {
		return nil, fmt.Errorf("sandbox CA: no certificate")
	}
	return &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert},
		ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool}, nil
}

// Files where WriteFiles puts the material, under its directory.
const (
	FileCACert     = "ca.pem"
	FileServerCert = "server.pem"
	FileServerKey  = "server-key.pem"
	FileClientCert = "client.pem"
	FileClientKey  = "client-key.pem"
)

// WriteFiles writes the material into dir (created if missing), keys
// readable by their owner only.
func (m TLSMaterial) WriteFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for name, text := range map[string]string{FileCACert: m.CACert, FileServerCert: m.ServerCert,
		FileServerKey: m.ServerKey, FileClientCert: m.ClientCert, FileClientKey: m.ClientKey} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			return err
		}
	}
	return nil
}

// ReadTLSMaterial reads what WriteFiles wrote.
func ReadTLSMaterial(dir string) (TLSMaterial, error) {
	var m TLSMaterial
	for name, dst := range map[string]*string{FileCACert: &m.CACert, FileServerCert: &m.ServerCert,
		FileServerKey: &m.ServerKey, FileClientCert: &m.ClientCert, FileClientKey: &m.ClientKey} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return TLSMaterial{}, err
		}
		*dst = string(b)
	}
	return m, nil
}
