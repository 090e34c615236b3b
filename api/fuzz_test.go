package api

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// The fuzz targets feed each endpoint's parsing arbitrary input. Besides
// never panicking, whatever they accept must be storable and mean one
// thing: valid UTF-8 without NUL (Postgres text), amounts within bounds,
// names without invisible characters, split that jsonb takes, and the same
// fingerprint for the same bytes. Seeds: f.Add below and testdata/fuzz.

func fuzzServer() *Server { return New(Config{}, Deps{}) }

// storableText fails the test unless s is text Postgres keeps as sent.
func storableText(t *testing.T, field, s string) {
	t.Helper()
	if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
		t.Fatalf("%s accepted as %q: not storable text", field, s)
	}
}

func FuzzChargeBody(f *testing.F) {
	f.Add([]byte(validCharge(nil)))
	f.Add([]byte(`{"amount": 1, "payer": {"name": "A", "document": "52998224725"}}`))
	f.Add([]byte(`{"amount": 1e309, "payer": {"name": "A", "document": "52998224725"}, "split": {"x": 1e-100000}}`))
	f.Add([]byte("{\"amount\": 1, \"amount\": 2, \"payer\": {\"name\": \"Jos\xe9\", \"document\": \"52998224725\"}, \"external_id\": \"\\ud800\"}"))
	s := fuzzServer()
	f.Fuzz(func(t *testing.T, body []byte) {
		o, err := decodeBody(context.Background(), body)
		if err != nil {
			return
		}
		in, err := s.parseChargeRequest(o)
		if err != nil {
			return
		}
		if in.Amount <= 0 || in.Amount > s.cfg.MaxAmount {
			t.Fatalf("amount %v accepted", in.Amount)
		}
		storableText(t, "external_id", in.ExternalID)
		storableText(t, "payer.name", in.Payer.Name)
		if strings.IndexFunc(in.Payer.Name, func(r rune) bool { return unicode.Is(unicode.Cf, r) || unicode.IsControl(r) }) >= 0 {
			t.Fatalf("payer.name %q accepted with invisible characters", in.Payer.Name)
		}
		if in.PayerQuestion != nil {
			storableText(t, "payerQuestion", *in.PayerQuestion)
		}
		if in.Split != nil && (!json.Valid(in.Split) || !utf8.Valid(in.Split) || bytes.Contains(in.Split, []byte(`\u0000`))) {
			t.Fatalf("split accepted as %s", in.Split)
		}
		o2, _ := decodeBody(context.Background(), body)
		again, err := s.parseChargeRequest(o2)
		if err != nil || !reflect.DeepEqual(in, again) {
			t.Fatalf("the same body parsed twice differs: %v", err)
		}
	})
}

func FuzzWithdrawalBody(f *testing.F) {
	f.Add([]byte(validWithdrawal(nil)))
	f.Add([]byte(`{"amount": 0.01, "creditParty": {"name": "B", "keyType": "EVP", "key": "123e4567-e12b-12d1-a456-426655440000", "taxId": "11222333000181"}}`))
	f.Add([]byte(`{"amount": "1.00", "creditParty": {"name": "B\u202e", "keyType": "email", "key": "A@B.EXAMPLE", "taxId": "1"}}`))
	s := fuzzServer()
	f.Fuzz(func(t *testing.T, body []byte) {
		o, err := decodeBody(context.Background(), body)
		if err != nil {
			return
		}
		in, err := s.parseWithdrawalRequest(o)
		if err != nil {
			return
		}
		if in.Amount <= 0 || in.Amount > s.cfg.MaxAmount {
			t.Fatalf("amount %v accepted", in.Amount)
		}
		cp := in.CreditParty
		for field, v := range map[string]string{"name": cp.Name, "keyType": cp.KeyType, "key": cp.Key, "taxId": cp.TaxID} {
			storableText(t, "creditParty."+field, v)
		}
		if in.ExternalID != nil {
			storableText(t, "external_id", *in.ExternalID)
		}
		if in.Description != nil {
			storableText(t, "description", *in.Description)
		}
		o2, _ := decodeBody(context.Background(), body)
		if again, err := s.parseWithdrawalRequest(o2); err != nil || !reflect.DeepEqual(in, again) {
			t.Fatalf("the same body parsed twice differs: %v", err)
		}
	})
}

func FuzzListQuery(f *testing.F) {
	f.Add("15", "paid", "")
	f.Add("0", "PAID' OR '1'='1", "../../etc/passwd")
	f.Add("100", "", encodeCursorString())
	f.Fuzz(func(t *testing.T, perPage, status, cursor string) {
		p, err := parseListQuery(perPage, status, cursor, chargeStatuses)
		if err != nil {
			return
		}
		if p.Limit < 1 || p.Limit > maxPerPage || (p.Status != "" && !strings.Contains(strings.Join(chargeStatuses, ","), p.Status)) {
			t.Fatalf("accepted %+v", p)
		}
	})
}

func FuzzPathRef(f *testing.F) {
	f.Add("order-1001")
	f.Add("%2e%2e%2fadmin")
	f.Add("%00")
	f.Add("%FF")
	f.Fuzz(func(t *testing.T, raw string) {
		ref, err := parseRef(raw)
		if err != nil {
			return
		}
		storableText(t, "reference", ref)
		if ref == "" {
			t.Fatal("an empty reference was accepted")
		}
	})
}

func encodeCursorString() string {
	var id [16]byte
	return *encodeCursor(id)
}

// FuzzTokenJSON: the token endpoint's JSON body. What it reads is one of
// its parameters, as valid UTF-8 text.
func FuzzTokenJSON(f *testing.F) {
	f.Add([]byte(`{"grant_type": "client_credentials", "public_id": "pk_x", "secret": "sk_y"}`))
	f.Add([]byte(`{"client_id": "pk_x", "client_secret": "sk_y", "client_secret": "sk_z"}`))
	f.Add([]byte("{\"public_id\": \"pk_\xe9\", \"secret\": \"\\ud800\"}"))
	f.Fuzz(func(t *testing.T, body []byte) {
		fields, err := jsonFields(body)
		if err != nil {
			return
		}
		for name, v := range fields {
			if !slices.Contains(tokenFields, name) || !utf8.ValidString(v) {
				t.Fatalf("read %s = %q from %q", name, v, body)
			}
		}
	})
}

// FuzzBasicCredentials: HTTP Basic credentials, padded or not.
func FuzzBasicCredentials(f *testing.F) {
	f.Add(base64.StdEncoding.EncodeToString([]byte("pk_x:sk_y")))
	f.Add("cGtfeDpza195")
	f.Add("!!!")
	f.Fuzz(func(t *testing.T, encoded string) {
		id, secret, ok := basicCredentials(encoded)
		if ok && (id == "" || secret == "" || strings.Contains(id, ":")) {
			t.Fatalf("basicCredentials(%q) = %q, %q", encoded, id, secret)
		}
	})
}

// FuzzRefundBody: POST /v2/pix/refund's body. An accepted refund names a
// pix_id that is storable text, a bounded amount, and reads the same twice.
func FuzzRefundBody(f *testing.F) {
	f.Add([]byte(`{"pix_id": "abc123", "amount": 1.00, "description": "Devolução", "external_id": "dev-1"}`))
	f.Add([]byte(`{"pix_id": null, "amount": "1.00"}`))
	f.Add([]byte("{\"pix_id\": \"ab\\u0000\xe9\", \"amount\": 1e-100000, \"pix_id\": \"x\"}"))
	s := fuzzServer()
	f.Fuzz(func(t *testing.T, body []byte) {
		o, err := decodeBody(context.Background(), body)
		if err != nil {
			return
		}
		in, err := s.parseRefundRequest(o)
		if err != nil {
			return
		}
		storableText(t, "pix_id", in.PixID)
		if in.PixID == "" || in.Amount <= 0 || in.Amount > s.cfg.MaxAmount {
			t.Fatalf("refund %+v accepted", in)
		}
		o2, _ := decodeBody(context.Background(), body)
		if again, err := s.parseRefundRequest(o2); err != nil || !reflect.DeepEqual(in, again) {
			t.Fatalf("the same body parsed twice differs: %v", err)
		}
	})
}
