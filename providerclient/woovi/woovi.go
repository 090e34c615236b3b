// Package woovi is the connector of Woovi's (OpenPix) API: charges, with
// a due date too, PIX sent to a key, refunds of charges, reads of each,
// the balance, Pix Automático's recurrences (subscriptions of type
// PIX_RECURRING), and webhooks signed with Woovi's RSA key. The AppID
// (Config.ClientID) goes in the Authorization header of every call.
// PixGate's record id is each object's correlationID, Woovi's idempotency
// key (a charge's without its hyphens, see chargeCorrelationID), so a
// retry after an unknown outcome names the same charge, payment or refund,
// and the provider's id of each is that correlationID.
package woovi

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
)

const userAgent = "pixgate-woovi/1"

type connector struct {
	cfg providerclient.Config
	key *rsa.PublicKey // nil: notifications are not signature-checked
}

// New returns the woovi connector for cfg, without the retry, breaker and
// metrics layers (providerclient.Wrap adds them). With
// cfg.WebhookPublicKey, notifications must carry Woovi's signature.
func New(cfg providerclient.Config) (providerclient.Connector, error) {
	cfg = cfg.WithDefaults()
	if cfg.ClientID == "" {
		return nil, errors.New("woovi: the AppID (client id) is required")
	}
	c := &connector{cfg: cfg}
	if cfg.WebhookPublicKey != "" {
		k, err := ParsePublicKey(cfg.WebhookPublicKey)
		if err != nil {
			return nil, errors.New("woovi: the webhook public key: " + err.Error())
		}
		c.key = k
	}
	return c, nil
}

// ParsePublicKey reads an RSA public key in PEM (PKIX or PKCS#1).
func ParsePublicKey(text string) (*rsa.PublicKey, error) {
	block, _ := pem.Decode([]byte(text))
	if block == nil {
		return nil, errors.New("no PEM block")
	}
	if k, err := x509.ParsePKIXPublicKey(block.Bytes); err == nil {
		if rk, ok := k.(*rsa.PublicKey); ok {
			return rk, nil
		}
		return nil, errors.New("not an RSA key")
	}
	return x509.ParsePKCS1PublicKey(block.Bytes)
}

func (c *connector) Name() string { return c.cfg.Name }
func (c *connector) Kind() string { return providerclient.KindWoovi }

// Capabilities: due-date charges are Woovi's charges of type OVERDUE
// (due.go), whose terms it cannot hold are refused; Pix Automático's
// recurrences are its subscriptions of type PIX_RECURRING, for the QR
// journey (recurrence.go), whose cycles are its installments, retried by
// Woovi itself (cycle.go).
func (c *connector) Capabilities() providerclient.Capabilities {
	return providerclient.Capabilities{Charges: true, Payouts: true, Refunds: true, Reads: true, Balance: true,
		Notifications: true, SignedNotifications: c.key != nil, ReadsByID: true, Statement: true, PayerDocument: true,
		DueCharges: true, Recurrences: true, Journeys: journeys(), RetriesItself: true}
}

// call sends in (nil: no body) with the AppID and returns the answer.
func (c *connector) call(ctx context.Context, op, method, path string, in any) (*providerclient.Answer, error) {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrRejected, Message: "cannot encode the request", Err: err}
		}
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, c.cfg.BaseURL+path, bytes.NewReader(body))
	if err != nil {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnavailable, Err: err}
	}
	if body == nil {
		req.Body, req.ContentLength = http.NoBody, 0
	} else {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", c.cfg.ClientID)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", userAgent)
	res, err := providerclient.RoundTrip(c.cfg.HTTPClient, req)
	if err != nil {
		err.(*providerclient.Error).Op = op
		return nil, err
	}
	return res, nil
}

// decode reads a 2xx answer into out, or classifies the failure.
func decode(op string, res *providerclient.Answer, out any) error {
	if !res.OK() {
		var e wooviapi.Error
		_ = json.Unmarshal(res.Body, &e)
		return res.Failure(op, e.Error)
	}
	if err := json.Unmarshal(res.Body, out); err != nil {
		return &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: res.Status,
			Message: "unreadable answer", Err: err}
	}
	return nil
}

// get reads path into out. Woovi's document answers a read only 200 or
// 400 ("An error message"): a read of one object by its id that is refused
// names no object, so a 400, like a 404, is ErrNotFound (PixGate's reading).
// When it comes in Woovi's own error shape ({"error": "..."}) it is the
// contract's "no such object" and proves the object absent; a bare 404 (a
// proxy's, a wrong path's) proves nothing.
func (c *connector) get(ctx context.Context, path string, out any) error {
	return c.getAs(ctx, providerclient.OpRead, path, out)
}

// getAs is get under another operation's name (a recurrence's read).
func (c *connector) getAs(ctx context.Context, op, path string, out any) error {
	res, err := c.call(ctx, op, http.MethodGet, path, nil)
	if err != nil {
		return err
	}
	err = decode(op, res, out)
	var pe *providerclient.Error
	if errors.As(err, &pe) && (res.Status == http.StatusBadRequest || res.Status == http.StatusNotFound) {
		pe.Kind = providerclient.ErrNotFound
		var e wooviapi.Error
		pe.Absent = json.Unmarshal(res.Body, &e) == nil && e.Error != ""
	}
	return err
}

func escape(id string) string { return url.PathEscape(id) }

// verify checks Woovi's signature of a webhook body: x-webhook-signature
// is the base64 of an RSA (PKCS #1 v1.5) signature of the raw body with
// SHA-256 (developers.woovi.com, webhook signature validation).
func (c *connector) verify(header http.Header, body []byte) error {
	if c.key == nil {
		return nil
	}
	sig, err := base64.StdEncoding.DecodeString(strings.TrimSpace(header.Get(wooviapi.HeaderSignature)))
	if err != nil || len(sig) == 0 {
		return &providerclient.NotificationError{Field: wooviapi.HeaderSignature, Problem: "is missing or not base64"}
	}
	sum := sha256.Sum256(body)
	if rsa.VerifyPKCS1v15(c.key, crypto.SHA256, sum[:], sig) != nil {
		return &providerclient.NotificationError{Field: wooviapi.HeaderSignature, Problem: "does not verify"}
	}
	return nil
}
