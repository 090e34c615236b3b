package sandbox

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/pix/brcode/brcodetest"
	"github.com/pixgate/pixgate/storage/money"
)

var (
	transactionIDPattern = regexp.MustCompile(`^[a-z0-9]{32}$`)
	locationTxIDPattern  = regexp.MustCompile(`^[a-zA-Z0-9]{26,35}$`)
	datePattern          = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$`)
)

// Every code the sandbox issues parses back with its amount, merchant and
// location.
func TestChargeIssuesValidBRCodes(t *testing.T) {
	e := newEnv(t, Config{PublicHost: "http://127.0.0.1:9090/", MerchantName: "Padaria São João", MerchantCity: "São Paulo"})
	for _, amount := range []string{"0.01", "1", "15.5", "15.50", "999.99", "1234567.89", "9999999999.99"} {
		status, body := e.post("/v2/pix/qrcode", map[string]any{
			"amount": json.Number(amount), "external_id": "chg-" + amount,
			"payer": map[string]any{"name": "Fulano", "document": "529.982.247-25"},
		})
		if status != 200 {
			t.Fatalf("amount %s: %d %v", amount, status, body)
		}
		want, _ := money.Parse(amount)
		if num(body["amount"]) != want.String() || body["status"] != "PENDING" || body["external_id"] != "chg-"+amount {
			t.Fatalf("answer %v", body)
		}
		if !transactionIDPattern.MatchString(body["transactionId"].(string)) {
			t.Fatalf("transactionId %q", body["transactionId"])
		}
		cal := body["calendar"].(map[string]any)
		if num(cal["expiration"]) != "3600" || !datePattern.MatchString(cal["dueDate"].(string)) {
			t.Fatalf("calendar %v", cal)
		}
		if d := body["debtor"].(map[string]any); d["name"] != "Fulano" || d["document"] != "52998224725" {
			t.Fatalf("debtor %v", d)
		}
		p, err := brcodetest.Parse(body["qrcode"].(string))
		if err != nil {
			t.Fatalf("sandbox code does not parse: %v", err)
		}
		loc, ok := strings.CutPrefix(p.Location, "127.0.0.1:9090/qr/v2/")
		if p.Amount != want || p.MerchantName != "Padaria Sao Joao" || p.MerchantCity != "Sao Paulo" ||
			!ok || !locationTxIDPattern.MatchString(loc) || p.TxID != "***" || !p.Dynamic() {
			t.Fatalf("parsed %+v", p)
		}
	}
}

func TestChargeReplayAndExpiry(t *testing.T) {
	e := newEnv(t, Config{ChargeExpiration: 2 * time.Second})
	_, first := e.post("/v2/pix/qrcode", map[string]any{"amount": 15, "external_id": "order-1"})
	_, again := e.post("/v2/pix/qrcode", map[string]any{"amount": 15, "external_id": "order-1"})
	if first["transactionId"] != again["transactionId"] || first["qrcode"] != again["qrcode"] {
		t.Fatalf("same external_id gave two charges: %v / %v", first, again)
	}
	_, other := e.post("/v2/pix/qrcode", map[string]any{"amount": 15})
	if other["transactionId"] == first["transactionId"] {
		t.Fatal("charges without external_id share an id")
	}
	if got := e.sb.Stats().ChargesCreated; got != 2 {
		t.Fatalf("charges created %d, want 2", got)
	}
	if num(first["calendar"].(map[string]any)["expiration"]) != "2" {
		t.Fatalf("calendar %v", first["calendar"])
	}
	id := first["transactionId"].(string)
	if _, err := e.sb.ExpireCharge(id); err != nil {
		t.Fatal(err)
	}
	_, c := e.post("/v2/consult-transaction", map[string]any{"pix_id": id})
	if rb := c["requestBody"].(map[string]any); rb["status"] != "EXPIRED" {
		t.Fatalf("consult after expiry %v", rb)
	}
	if status, body := e.call("/sandbox/charges/"+id+"/pay", "", nil, nil); status != 409 {
		t.Fatalf("paying an expired charge: %d %v", status, body)
	}
}

func TestChargeValidation(t *testing.T) {
	e := newEnv(t, Config{})
	tests := []struct {
		name   string
		body   any
		status int
		field  string
	}{
		{"malformed", `{"amount": `, 400, ""},
		{"no amount", map[string]any{}, 422, "amount"},
		{"string amount", map[string]any{"amount": "15.00"}, 422, "amount"},
		{"zero", map[string]any{"amount": 0}, 422, "amount"},
		{"negative", map[string]any{"amount": -1}, 422, "amount"},
		{"three decimals", map[string]any{"amount": json.Number("1.005")}, 422, "amount"},
		{"exponent", map[string]any{"amount": json.Number("1e3")}, 422, "amount"},
		{"too large for a BR Code", map[string]any{"amount": json.Number("10000000000.00")}, 422, "amount"},
		{"bad document", map[string]any{"amount": 1, "payer": map[string]any{"name": "X", "document": "123"}}, 422, "payer.document"},
		{"document as number", map[string]any{"amount": 1, "payer": map[string]any{"document": 52998224725}}, 422, "payer.document"},
		{"bad postback", map[string]any{"amount": 1, "postbackUrl": "ftp://x"}, 422, "postbackUrl"},
		{"long external_id", map[string]any{"amount": 1, "external_id": strings.Repeat("x", 129)}, 422, "external_id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := e.post("/v2/pix/qrcode", tt.body)
			if status != tt.status || num(body["statusCode"]) != strconv.Itoa(status) {
				t.Fatalf("status %d, want %d: %v", status, tt.status, body)
			}
			if tt.field != "" {
				if errs, _ := body["errors"].(map[string]any); errs[tt.field] == nil || !strings.HasPrefix(body["message"].(string), tt.field+" ") {
					t.Fatalf("no error for %s: %v", tt.field, body)
				}
			}
		})
	}
	if got := e.sb.Stats().ChargesCreated; got != 0 {
		t.Fatalf("bad input created %d charges", got)
	}
}
