package api

import (
	"net/http"
	"net/url"
	"strings"
)

// The probes of the attack corpus for the provider webhook and the v2
// surface (token, pix, consult, balance).

// webhookProbes: wrong tokens in every spelling, and, with the right one,
// what names no transaction.
func webhookProbes(s corpusSecrets) []probe {
	good := `{"transactionType": "RECEIVEPIX", "transactionId": "abc", "status": "PAID"}`
	base := "/webhooks/provider/"
	var ps []probe
	for i, tok := range []string{"wrong", "..%2F..%2Fapi%2Fv1%2Fbalance", "x'%20OR%20'1'%3D'1", url.PathEscape(s.webhookToken + "\x00"),
		s.webhookToken[:len(s.webhookToken)-1], strings.ToUpper(s.webhookToken), s.webhookToken + "/x", "%FF", "", strings.Repeat("t", 500)} {
		ps = append(ps, probe{name: "webhook: wrong token #" + string(rune('a'+i)), method: http.MethodPost, path: base + tok, body: good})
	}
	path := base + s.webhookToken
	claim := func(typ, id, status string) string {
		return `{"requestBody": {"transactionType": ` + typ + `, "transactionId": ` + id + `, "status": ` + status + `, "amount": 15.00}}`
	}
	q := jsonQuote
	for name, b := range map[string]string{
		"no claim":               `{"amount": 15.00}`,
		"no status":              `{"transactionType": "PAYMENT", "transactionId": "p1"}`,
		"id null":                claim(q("RECEIVEPIX"), `null`, q("PAID")),
		"id object":              claim(q("RECEIVEPIX"), `{"id": 1}`, q("PAID")),
		"id array":               claim(q("RECEIVEPIX"), `["abc"]`, q("PAID")),
		"type bool":              claim(`true`, q("abc"), q("PAID")),
		"status object":          claim(q("RECEIVEPIX"), q("abc"), `{"s": 1}`),
		"id NUL":                 claim(q("RECEIVEPIX"), `"ab\u0000c"`, q("PAID")),
		"id Latin-1":             claim(q("RECEIVEPIX"), "\"ab\xe9\"", q("PAID")),
		"id lone surrogate":      claim(q("RECEIVEPIX"), `"ab\ud800"`, q("PAID")),
		"id SQL":                 claim(q("RECEIVEPIX"), q(sqlText[0]), q("PAID")),
		"id traversal":           claim(q("RECEIVEPIX"), q(traversalText[0]), q("PAID")),
		"id too long":            claim(q("RECEIVEPIX"), q(strings.Repeat("a", 200)), q("PAID")),
		"status with spaces":     claim(q("RECEIVEPIX"), q("abc"), q("PAID' OR '1'='1")),
		"requestBody string":     `{"requestBody": "` + good + `"}`,
		"requestBody array":      `{"requestBody": [` + good + `]}`,
		"requestBody deep":       `{"requestBody": ` + deepArray + `}`,
		"claim 1e309 as id type": claim(`1e309x`, q("abc"), q("PAID")),
	} {
		ps = append(ps, probe{name: "webhook: " + name, method: http.MethodPost, path: path, body: b})
	}
	for i, b := range malformed {
		ps = append(ps, probe{name: "webhook: malformed #" + string(rune('a'+i)), method: http.MethodPost, path: path, body: b})
	}
	// The BCB API Pix's callback paths, {webhookUrl}/pix and /rec, take the same.
	tail := ps[len(ps)-len(malformed)-10:]
	for _, suffix := range []string{"/pix", "/rec", "/cobr"} {
		for _, p := range tail {
			if strings.HasPrefix(p.path, path) {
				p.name, p.path = p.name+" ("+suffix+")", p.path+suffix
				ps = append(ps, p)
			}
		}
		ps = append(ps, probe{name: "webhook " + suffix + ": wrong token", method: http.MethodPost, path: base + "wrong" + suffix, body: good})
	}
	// Another provider's path: a wrong token, the default's, and the right
	// one of a provider the process does not have.
	for name, p := range map[string]string{
		"webhook named: wrong token":            base + "b/wrong",
		"webhook named: the default's token":    base + "b/" + s.webhookToken,
		"webhook named: no such provider":       base + "b/" + ProviderWebhookToken(s.webhookToken, "b"),
		"webhook named /pix: wrong token":       base + "b/wrong/pix",
		"webhook named /pix: no such provider":  base + "b/" + ProviderWebhookToken(s.webhookToken, "b") + "/pix",
		"webhook named /rec: wrong token":       base + "b/wrong/rec",
		"webhook named /rec: no such provider":  base + "b/" + ProviderWebhookToken(s.webhookToken, "b") + "/rec",
		"webhook named /cobr: wrong token":      base + "b/wrong/cobr",
		"webhook named /cobr: no such provider": base + "b/" + ProviderWebhookToken(s.webhookToken, "b") + "/cobr",
	} {
		ps = append(ps, probe{name: name, method: http.MethodPost, path: p, body: good})
	}
	ps = append(ps, probe{name: "webhook: oversized", method: http.MethodPost, path: path, size: 70 << 10})
	ps = append(ps, transportProbes("webhook", http.MethodPost, path, s.v1Token)...)
	ps = append(ps, methodProbes(path, "GET", "PUT", "DELETE", "FOO")...)
	return ps
}

// tokenProbes: the v2 token endpoint, with bodies and credentials that
// must not buy a token.
func tokenProbes(s corpusSecrets) []probe {
	publicID, _ := keyPair(s.v1Token)
	const path = "/v2/oauth/token"
	var ps []probe
	post := func(name string, body any, headers ...string) {
		ps = append(ps, probe{name: "POST " + path + ": " + name, method: http.MethodPost, path: path, body: body, headers: headers})
	}
	q := jsonQuote
	creds := func(id, secret string) string {
		return `{"grant_type": "client_credentials", "public_id": ` + id + `, "secret": ` + secret + `}`
	}
	for name, b := range map[string]string{
		"public id number":        creds(`5`, q(s.secret)),
		"secret null":             creds(q(publicID), `null`),
		"secret object":           creds(q(publicID), `{}`),
		"public id SQL":           creds(q("pk_x' OR '1'='1"), q(s.secret)),
		"public id traversal":     creds(q("../../etc/passwd"), q(s.secret)),
		"public id NUL":           creds(`"pk_\u0000"`, q(s.secret)),
		"secret Latin-1":          creds(q(publicID), "\"sk_\xe9\""),
		"secret lone surrogate":   creds(q(publicID), `"sk_\ud800"`),
		"wrong secret":            creds(q(publicID), q("sk_wrong")),
		"secret twice":            `{"public_id": ` + q(publicID) + `, "secret": "sk_wrong", "secret": ` + q(s.secret) + `}`,
		"grant password":          `{"grant_type": "password", "public_id": ` + q(publicID) + `, "secret": ` + q(s.secret) + `}`,
		"grant 1e309":             `{"grant_type": 1e309, "public_id": ` + q(publicID) + `, "secret": ` + q(s.secret) + `}`,
		"deep":                    `{"public_id": ` + deepObject + `}`,
		"nothing":                 `{}`,
		"all null":                `{"grant_type": null, "public_id": null, "secret": null}`,
		"amount-like as a string": `{"public_id": "10.00", "secret": "-0"}`,
	} {
		post(name, b)
	}
	for i, b := range malformed[1:] { // an empty body is a Basic request without credentials
		post("malformed #"+string(rune('a'+i)), b)
	}
	post("form with a secret twice", "grant_type=client_credentials&public_id="+publicID+"&secret=a&secret=b", "Content-Type", ctForm)
	post("form wrong secret", "grant_type=client_credentials&public_id="+publicID+"&secret=sk_wrong", "Content-Type", ctForm)
	post("form bad escape", "public_id=%zz&secret=%", "Content-Type", ctForm)
	post("multipart without boundary", "x", "Content-Type", "multipart/form-data")
	post("text/plain JSON", creds(q(publicID), q("sk_wrong")), "Content-Type", "text/plain")
	for name, h := range map[string]string{
		"Basic wrong secret": basicAuth(publicID, "sk_wrong"), "Basic not base64": "Basic !!!", "Basic no colon": "Basic cGtfeA==",
		"Basic NUL": basicAuth("pk_\x00", s.secret), "Bearer v1 pair": "Bearer " + s.v1Token, "Basic empty": "Basic ",
	} {
		post(name, nil, "Authorization", h, "Content-Type", "")
	}
	ps = append(ps, probe{name: "POST " + path + ": oversized", method: http.MethodPost, path: path, size: 70 << 10})
	ps = append(ps, transportProbes("POST "+path, http.MethodPost, path, s.v1Token)...)
	ps = append(ps, methodProbes(path, "GET", "PUT", "FOO")...)
	return ps
}

// v2BalanceProbes: POST /v2/balance without a live access token.
func v2BalanceProbes(s corpusSecrets) []probe {
	const path = "/v2/balance"
	ps := v2CredentialProbes("POST "+path, path, s)
	ps = append(ps, transportProbes("POST "+path, http.MethodPost, path, s.accessToken)...)
	ps = append(ps, methodProbes(path, "GET", "DELETE", "FOO")...)
	return ps
}

// jsonQuote writes s as a JSON string (s is valid UTF-8 here).
func jsonQuote(s string) string { return string(mustJSON(s)) }

// v2PixProbes: the provider-contract operations. Their bodies follow v1's
// rules (the same parsers); the contract reads a body as JSON whatever its
// Content-Type, so the content-type probes carry a body that is refused on
// its own. pixID is a charge of the integrator's (PENDING, so not
// refundable), foreignPixID another integrator's.
func v2PixProbes(s corpusSecrets, pixID, foreignPixID string) []probe {
	var ps []probe
	body := func(endpoint, path string, bodies map[string]string) {
		for name, b := range bodies {
			ps = append(ps, probe{name: endpoint + ": " + name, method: http.MethodPost, path: path, token: s.accessToken, body: b})
		}
		for i, b := range malformed {
			ps = append(ps, probe{name: endpoint + ": malformed #" + string(rune('a'+i)), method: http.MethodPost, path: path, token: s.accessToken, body: b})
		}
		for _, ct := range []string{"text/plain", "application/x-www-form-urlencoded", "application/xml"} {
			ps = append(ps, probe{name: endpoint + ": content type " + ct, method: http.MethodPost, path: path, token: s.accessToken,
				body: bodies["amount as string"], headers: []string{"Content-Type", ct}})
		}
		ps = append(ps, probe{name: endpoint + ": oversized", method: http.MethodPost, path: path, token: s.accessToken, size: 70 << 10})
		ps = append(ps, transportProbes(endpoint, http.MethodPost, path, s.accessToken)...)
		ps = append(ps, v2CredentialProbes(endpoint, path, s)...)
		ps = append(ps, methodProbes(path, "GET", "PUT", "FOO")...)
	}
	body("POST /v2/pix/qrcode", "/v2/pix/qrcode", chargeBodies())
	body("POST /v2/pix/payment", "/v2/pix/payment", withdrawalBodies())
	body("POST /v2/pix/refund", "/v2/pix/refund", refundBodies(pixID, foreignPixID))
	body("POST /v2/consult-transaction", "/v2/consult-transaction", consultBodies(foreignPixID))
	return ps
}

// hostilePixIDs are pix_ids no record of the integrator has.
func hostilePixIDs(foreignPixID string) map[string]string {
	q := jsonQuote
	return map[string]string{
		"pix_id null": `null`, "pix_id number": `12345`, "pix_id object": `{"id": "x"}`, "pix_id SQL": q(sqlText[0]),
		"pix_id SQL without spaces": q("x';--"), "pix_id traversal": q("../../etc/passwd"), "pix_id NUL": `"ab\u0000c"`,
		"pix_id Latin-1": "\"ab\xe9\"", "pix_id lone surrogate": `"ab\ud800"`, "pix_id too long": q(strings.Repeat("a", 300)),
		"pix_id unknown": q("00000000000000000000000000000000"), "pix_id of another integrator": q(foreignPixID), "pix_id blank": q("  "),
	}
}

func refundBodies(pixID, foreignPixID string) map[string]string {
	r := func(pix, amount, extra string) string {
		return `{"pix_id": ` + pix + `, "amount": ` + amount + `, "description": "Devolução"` + extra + `}`
	}
	q := jsonQuote
	b := map[string]string{
		"amount as string":      r(q(pixID), `"1.00"`, ""),
		"amount 1e309":          r(q(pixID), `1e309`, ""),
		"amount -0":             r(q(pixID), `-0`, ""),
		"amount 1e-100000":      r(q(pixID), `1e-100000`, ""),
		"amount three decimals": r(q(pixID), `1.005`, ""),
		"amount huge integer":   r(q(pixID), `123456789012345678901234567890`, ""),
		"amount null":           r(q(pixID), `null`, ""),
		"charge not paid":       r(q(pixID), `1.00`, ""),
		"description Latin-1":   r(q(pixID), `1.00`, ", \"description\": \"\xe0 vista\""),
		"description NUL":       `{"pix_id": ` + q(pixID) + `, "amount": 1.00, "description": "a\u0000"}`,
		"external_id hostile":   r(q(pixID), `1.00`, `, "external_id": "x' OR '1'='1"`),
		"pix_id twice":          `{"pix_id": ` + q(foreignPixID) + `, "pix_id": ` + q(pixID) + `, "amount": 1.00}`,
		"split deep":            r(q(pixID), `1.00`, `, "x": `+deepObject),
	}
	for name, v := range hostilePixIDs(foreignPixID) {
		b[name] = r(v, `1.00`, "")
	}
	return b
}

func consultBodies(foreignPixID string) map[string]string {
	b := map[string]string{
		"amount as string": `{"pix_id": "x' OR '1'='1", "amount": "1.00"}`,
		"pix_id twice":     `{"pix_id": "a", "pix_id": "b"}`,
		"both spellings":   `{"pix_Id": "a", "pix_id": null}`,
		"no pix_id":        `{"transactionId": "abc"}`,
	}
	for name, v := range hostilePixIDs(foreignPixID) {
		b[name] = `{"pix_id": ` + v + `}`
		b[name+" (pix_Id)"] = `{"pix_Id": ` + v + `}`
	}
	return b
}

// v2CredentialProbes send what is not a live access token.
func v2CredentialProbes(endpoint, path string, s corpusSecrets) []probe {
	var ps []probe
	for name, h := range map[string]string{
		"no token": "", "made-up token": "Bearer pgat_madeup", "v1 pair": "Bearer " + s.v1Token, "SQL token": "Bearer x' OR '1'='1",
		"traversal token": "Bearer ../../etc/passwd", "Latin-1 token": "Bearer pgat_\xe9", "huge token": "Bearer " + strings.Repeat("t", 6000),
		"Basic": basicAuth(keyPair(s.v1Token)), "token twice": "Bearer " + s.accessToken + " " + s.accessToken,
	} {
		ps = append(ps, probe{name: endpoint + ": " + name, method: http.MethodPost, path: path, headers: []string{"Authorization", h},
			body: `{"pix_id": "x"}`})
	}
	return ps
}
