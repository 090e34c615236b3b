package family

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// FuzzParseNotification: whatever the body, an accepted claim is short
// printable ASCII with an uppercase type and status.
func FuzzParseNotification(f *testing.F) {
	for _, s := range []string{
		`{"requestBody": {"transactionType": "RECEIVEPIX", "transactionId": "abc", "status": "PAID", "amount": 15.00}}`,
		`{"transactionType": "payment", "transactionId": 12, "status": "completed"}`,
		`{"transactionType": "PAYMENT", "transactionId": {"a": 1}, "status": "PAID"}`,
		"{\"transactionType\": \"PAYMENT\", \"transactionId\": \"p\\u0000\", \"status\": \"PAID\", \"x\": \"\xff\"}",
		`[]`, ``, `{"requestBody": "x"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		n, err := ParseNotification(body)
		if err != nil {
			return
		}
		for _, v := range []string{n.TransactionType, n.TransactionID, n.Status} {
			if v == "" || len(v) > maxClaimIDLen || strings.IndexFunc(v, func(r rune) bool { return r <= ' ' || r > '~' }) >= 0 {
				t.Fatalf("claim %+v accepted from %q", n, body)
			}
		}
		if n.TransactionType != strings.ToUpper(n.TransactionType) || n.Status != strings.ToUpper(n.Status) {
			t.Fatalf("claim %+v not uppercased", n)
		}
	})
}

// FuzzNotificationOtherFields: a notification with a proper claim is never
// refused for what its other fields hold, whatever bytes they carry.
func FuzzNotificationOtherFields(f *testing.F) {
	for _, s := range []string{"José", "Jos\xe9", `\u0000`, `\ud800`, "\x00\x01", `"`, `\`, strings.Repeat("[", 50)} {
		f.Add(s, "1e-100000")
	}
	f.Fuzz(func(t *testing.T, text, number string) {
		body := fmt.Sprintf(`{"requestBody": {"transactionType": "RECEIVEPIX", "transactionId": "t1", "status": "PAID",
			"creditParty": {"name": "%s"}, "amount": %s}}`, jsonStringBody(text), jsonNumber(number))
		if _, err := ParseNotification([]byte(body)); err != nil {
			t.Fatalf("refused for its other fields: %v\n%q", err, body)
		}
	})
}

// jsonStringBody makes text the inside of a JSON string without making it
// any more valid than it is: only what would end the string or break the
// syntax (quotes, backslashes not starting a \u escape, control bytes) is
// escaped; invalid UTF-8 and lone surrogate escapes stay.
func jsonStringBody(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && strings.HasPrefix(s[i:], `\u`) && len(s) >= i+6 && isHex(s[i+2:i+6]):
			b.WriteString(s[i : i+6])
			i += 5
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isHex(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune("0123456789abcdefABCDEF", r) }) < 0
}

// jsonNumber keeps s when it is a JSON number, else writes 0.
func jsonNumber(s string) string {
	var n struct{ N any }
	if strings.IndexFunc(s, func(r rune) bool { return !strings.ContainsRune("0123456789+-.eE", r) }) >= 0 || s == "" ||
		json.Unmarshal([]byte(`{"N":`+s+`}`), &n) != nil {
		return "0"
	}
	return s
}

// FuzzDecodeTransaction: consult answers and notifications never panic the
// decoder, and what it accepts has a status.
func FuzzDecodeTransaction(f *testing.F) {
	for _, s := range []string{
		`{"requestBody": {"transactionType": "PAYMENT", "transactionId": "p", "status": "COMPLETED", "amount": "10.00", "statusCode": {"statusId": "1"}}}`,
		`{"status": "paid", "amount": 1e3}`, `{"status": ""}`, `{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		txn, err := DecodeTransaction(body)
		if err == nil && txn.Status == "" {
			t.Fatalf("accepted without a status: %q", body)
		}
	})
}
