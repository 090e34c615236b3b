package api

import (
	"net/http"
	"net/url"
	"strings"
)

// v1RefundProbes: the refunds of a charge. chargeID is the integrator's
// charge (PENDING, so a well-formed refund of it is still refused),
// foreignChargeID another integrator's.
func v1RefundProbes(s corpusSecrets, chargeID, foreignChargeID string) []probe {
	path := "/api/v1/charges/" + chargeID + "/refunds"
	var ps []probe
	ps = append(ps, jsonBodyProbes("POST /api/v1/charges/{charge}/refunds", path, s.v1Token, v1RefundBodies())...)
	ps = append(ps, transportProbes("POST "+path, http.MethodPost, path, s.v1Token)...)
	ps = append(ps, listProbes(path, s.v1Token)...)
	ps = append(ps, credentialProbes("POST /api/v1/charges/{charge}/refunds", http.MethodPost, path, s)...)
	ps = append(ps, credentialProbes("GET /api/v1/charges/{charge}/refunds", http.MethodGet, path, s)...)
	ps = append(ps, methodProbes(path, "PUT", "DELETE", "PATCH")...)
	refs := []string{"x'%20OR%20'1'%3D'1", "..%2F..%2Fetc%2Fpasswd", "%00", "%FF", strings.Repeat("a", 300),
		"00000000-0000-0000-0000-000000000000", foreignChargeID, strings.ToUpper(foreignChargeID)}
	for i, r := range refs {
		for _, m := range []string{http.MethodGet, http.MethodPost} {
			p := probe{name: m + " /api/v1/charges/{ref}/refunds #" + string(rune('a'+i)), method: m,
				path: "/api/v1/charges/" + r + "/refunds", token: s.v1Token}
			if m == http.MethodPost {
				p.body = `{"amount": 1.00}`
			}
			if _, err := url.Parse(r); err != nil {
				p.raw = m + " /api/v1/charges/" + r + "/refunds HTTP/1.1\r\nHost: pixgate.test\r\nAuthorization: Bearer " + s.v1Token + "\r\n\r\n"
			}
			ps = append(ps, p)
		}
	}
	return ps
}

func v1RefundBodies() map[string]string {
	r := func(amount, extra string) string {
		return `{"amount": ` + amount + `, "description": "Devolução"` + extra + `}`
	}
	b := map[string]string{
		"amount as string":      r(`"1.00"`, ""),
		"amount 1e309":          r(`1e309`, ""),
		"amount -0":             r(`-0`, ""),
		"amount 1e-100000":      r(`1e-100000`, ""),
		"amount three decimals": r(`1.005`, ""),
		"amount huge integer":   r(`123456789012345678901234567890`, ""),
		"amount null":           r(`null`, ""),
		"amount twice":          `{"amount": 1.00, "amount": 2.00}`,
		"charge not paid":       r(`1.00`, ""),
		"description Latin-1":   r(`1.00`, ", \"description\": \"\xe0 vista\""),
		"description NUL":       `{"amount": 1.00, "description": "a\u0000"}`,
		"description RTL":       `{"amount": 1.00, "description": "a\u202eb"}`,
		"external_id hostile":   r(`1.00`, `, "external_id": "x' OR '1'='1"`),
		"external_id too long":  r(`1.00`, `, "external_id": "`+strings.Repeat("x", 65)+`"`),
		"external_id NUL":       r(`1.00`, `, "external_id": "a\u0000"`),
		"deep":                  r(`1.00`, `, "x": `+deepObject),
	}
	return b
}
