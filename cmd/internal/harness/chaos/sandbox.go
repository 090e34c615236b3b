package chaos

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
)

// failKey is the PIX key the sandbox fails every payment to (fail_keys):
// a share of the withdrawals go to it and must end FAILED, their money
// back in the wallet.
const failKey = "falha@chaos.example"

// baseFaults is the healthy sandbox of the run: only failKey fails. Every
// fault is set on top of it (POST /sandbox/faults replaces the whole set)
// and cleared by setting it again.
var baseFaults = map[string]any{"fail_keys": []string{failKey}}

// sandboxClient is the harness's client of one sandbox's control
// endpoints (docs/provider.md), which faults never affect; name is the
// provider PixGate knows it as.
type sandboxClient struct {
	name string
	base string
	http *http.Client
}

func newSandboxClient(name, base string) *sandboxClient {
	return &sandboxClient{name: name, base: base, http: &http.Client{Timeout: 10 * time.Second}}
}

// do sends a control request and decodes the answer into out (nil: not
// read). It returns the status, 0 when there was no answer.
func (s *sandboxClient) do(ctx context.Context, method, path string, body, out any) (int, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.base+path, rd)
	if err != nil {
		return 0, err
	}
	resp, err := s.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if out != nil && resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			return resp.StatusCode, err
		}
	}
	return resp.StatusCode, nil
}

// setFaults replaces the fault set with baseFaults plus extra.
func (s *sandboxClient) setFaults(ctx context.Context, extra map[string]any) error {
	f := map[string]any{}
	for k, v := range baseFaults {
		f[k] = v
	}
	for k, v := range extra {
		f[k] = v
	}
	code, err := s.do(ctx, http.MethodPost, "/sandbox/faults", f, nil)
	if err == nil && code != http.StatusOK {
		err = fmt.Errorf("POST /sandbox/faults: %d", code)
	}
	return err
}

// pay pays a PENDING charge as the payer's bank would.
func (s *sandboxClient) pay(ctx context.Context, pixID string) (int, error) {
	return s.do(ctx, http.MethodPost, "/sandbox/charges/"+pixID+"/pay", nil, nil)
}

// status is a transaction's status at the sandbox ("" when unknown there).
func (s *sandboxClient) status(ctx context.Context, pixID string) (string, error) {
	var t contract.Transaction
	code, err := s.do(ctx, http.MethodGet, "/sandbox/transactions/"+pixID, nil, &t)
	switch {
	case err != nil:
		return "", err
	case code == http.StatusNotFound:
		return "", nil
	case code != http.StatusOK:
		return "", fmt.Errorf("GET /sandbox/transactions/%s: %d", pixID, code)
	}
	return t.Status, nil
}

// ledger is every transaction the sandbox holds; ok is false when the
// sandbox has no such endpoint (404).
func (s *sandboxClient) ledger(ctx context.Context) (txns []providerTxn, ok bool, err error) {
	var out struct {
		Transactions []contract.Transaction `json:"transactions"`
	}
	code, err := s.do(ctx, http.MethodGet, "/sandbox/transactions", nil, &out)
	switch {
	case err != nil:
		return nil, false, err
	case code == http.StatusNotFound || code == http.StatusMethodNotAllowed:
		return nil, false, nil
	case code != http.StatusOK:
		return nil, false, fmt.Errorf("GET /sandbox/transactions: %d", code)
	}
	txns = make([]providerTxn, 0, len(out.Transactions))
	for _, t := range out.Transactions {
		txns = append(txns, providerTxn{typ: t.TransactionType, externalID: t.ExternalID, status: t.Status, amount: int64(t.Amount),
			provider: s.name})
	}
	return txns, true, nil
}

// openInfraction opens a MED infraction on a PAID charge, disputing
// amount (0: all the charge has not given back), as a payer's bank would;
// it returns the sandbox's id of it.
func (s *sandboxClient) openInfraction(ctx context.Context, pixID string, amount int64) (string, int, error) {
	body := map[string]any{"reason": "golpe (randomized run)"}
	if amount > 0 {
		body["amount"] = amountJSON(amount)
	}
	var t contract.Transaction
	code, err := s.do(ctx, http.MethodPost, "/sandbox/charges/"+pixID+"/infraction", body, &t)
	return t.TransactionID, code, err
}

// closeInfraction closes an OPEN infraction with result (AGREED,
// DISAGREED or CANCELLED), as the MED's analysis would.
func (s *sandboxClient) closeInfraction(ctx context.Context, id, result string) (int, error) {
	return s.do(ctx, http.MethodPost, "/sandbox/infractions/"+id+"/close",
		map[string]any{"result": result, "analysis": "randomized run"}, nil)
}

// transactions is every transaction the sandbox holds, infractions
// included, for the randomized run's checker. A ledger of a long run is
// large: it gets a minute of its own.
func (s *sandboxClient) transactions(ctx context.Context) ([]sbTxn, error) {
	var out []sbTxn
	client := &http.Client{Timeout: 2 * time.Minute}
	for _, typ := range []string{"", "INFRACTION"} {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/sandbox/transactions?type="+typ, nil)
		if err != nil {
			return nil, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		var list struct {
			Transactions []contract.Transaction `json:"transactions"`
		}
		err = json.NewDecoder(resp.Body).Decode(&list)
		resp.Body.Close()
		switch {
		case resp.StatusCode != http.StatusOK:
			return nil, fmt.Errorf("GET /sandbox/transactions?type=%s: %d", typ, resp.StatusCode)
		case err != nil:
			return nil, fmt.Errorf("GET /sandbox/transactions?type=%s: %w", typ, err)
		}
		for _, t := range list.Transactions {
			out = append(out, sbTxn{provider: s.name, typ: t.TransactionType, id: t.TransactionID, externalID: t.ExternalID,
				pixID: t.PixID, status: t.Status, amount: int64(t.Amount)})
		}
	}
	return out, nil
}
