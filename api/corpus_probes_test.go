package api

import (
	"net/http"
	"net/url"
	"strings"
)

// The probes of the attack corpus, by endpoint. Each class of the hostile
// input list appears for every endpoint it applies to: malformed JSON,
// wrong types, nulls, amounts as strings, 1e309, -0, 1e-100000, three
// decimals, huge integers, deep nesting, duplicate keys, invalid UTF-8,
// NUL, lone surrogates, oversized bodies, wrong content types, bad headers,
// path traversal and SQL metacharacters in ids, external_ids, status and
// cursor, wrong methods, bad credentials.

func corpusProbes(s corpusSecrets, chargeID, withdrawalID, foreignChargeID, chargePixID, foreignPixID string) []probe {
	var ps []probe
	ps = append(ps, jsonBodyProbes("POST /api/v1/charges", "/api/v1/charges", s.v1Token, chargeBodies())...)
	ps = append(ps, jsonBodyProbes("POST /api/v1/withdrawals", "/api/v1/withdrawals", s.v1Token, withdrawalBodies())...)
	for _, path := range []string{"/api/v1/charges", "/api/v1/withdrawals"} {
		ps = append(ps, transportProbes("POST "+path, http.MethodPost, path, s.v1Token)...)
		ps = append(ps, listProbes(path, s.v1Token)...)
		ps = append(ps, credentialProbes("GET "+path, http.MethodGet, path, s)...)
		ps = append(ps, methodProbes(path, "PUT", "DELETE", "PATCH", "FOO")...)
	}
	ps = append(ps, refProbes("/api/v1/charges/", s.v1Token, withdrawalID, foreignChargeID)...)
	ps = append(ps, refProbes("/api/v1/withdrawals/", s.v1Token, chargeID, foreignChargeID)...)
	ps = append(ps, methodProbes("/api/v1/charges/"+chargeID, "POST", "DELETE", "PUT")...)
	ps = append(ps, credentialProbes("GET /api/v1/charges/{charge}", http.MethodGet, "/api/v1/charges/"+chargeID, s)...)
	ps = append(ps, credentialProbes("GET /api/v1/withdrawals/{withdrawal}", http.MethodGet, "/api/v1/withdrawals/"+withdrawalID, s)...)
	ps = append(ps, credentialProbes("GET /api/v1/balance", http.MethodGet, "/api/v1/balance", s)...)
	ps = append(ps, credentialProbes("POST /api/v1/charges", http.MethodPost, "/api/v1/charges", s)...)
	ps = append(ps, transportProbes("GET /api/v1/balance", http.MethodGet, "/api/v1/balance", s.v1Token)...)
	ps = append(ps, methodProbes("/api/v1/balance", "POST", "DELETE", "FOO")...)
	ps = append(ps, webhookProbes(s)...)
	ps = append(ps, tokenProbes(s)...)
	ps = append(ps, v2BalanceProbes(s)...)
	ps = append(ps, v2PixProbes(s, chargePixID, foreignPixID)...)
	ps = append(ps, docsProbes()...)
	return ps
}

// docsProbes: documents that do not exist, and wrong methods on the API's
// own documents and health probes.
func docsProbes() []probe {
	var ps []probe
	for i, p := range []string{"/docs/nonexistent", "/docs/..%2F..%2Fetc%2Fpasswd", "/docs/%00", "/docs/x'%20OR%20'1'%3D'1", "/docs/%FF"} {
		ps = append(ps, probe{name: "GET /docs/* #" + string(rune('a'+i)), method: http.MethodGet, path: p})
	}
	for _, p := range []string{"/", pathOpenAPI, pathDocs, "/docs/index.html", "/healthz", "/readyz"} {
		ps = append(ps, methodProbes(p, "POST", "DELETE", "FOO")...)
	}
	return ps
}

// Hostile JSON values, shared by the bodies below.
var (
	deepArray  = strings.Repeat("[", 12000) + strings.Repeat("]", 12000)
	deepObject = strings.Repeat(`{"a":`, 40) + "1" + strings.Repeat("}", 40)
	malformed  = []string{``, `   `, `{`, `}`, `{"amount": 10,`, `{"amount": 10,}`, `{'amount': 10}`, `{"amount": NaN}`,
		`{"amount": Infinity}`, `{"amount": 0x10}`, `{"amount": 10} x`, `{"amount": 10}{"amount": 20}`, "\xef\xbb\xbf{\"amount\": 10}",
		`null`, `[]`, `"charge"`, `12`, `true`, deepArray, "{\"amount\": 1, \"payer\": \"a\x00b\"}"}
	sqlText       = []string{`x' OR '1'='1`, `1; DROP TABLE charges; --`, `") OR 1=1 --`}
	traversalText = []string{`../../etc/passwd x`, "..\\..\\windows\\win.ini x", `%2e%2e%2f%2e%2e%2f x`}
)

func chargeBodies() map[string]string {
	c := func(edits map[string]string) string { return validCharge(edits) }
	payer := func(name, doc string) string { return `{"name":` + name + `,"document":` + doc + `}` }
	b := map[string]string{
		"amount as string":        c(map[string]string{"amount": `"10.00"`}),
		"amount 1e309":            c(map[string]string{"amount": `1e309`}),
		"amount -0":               c(map[string]string{"amount": `-0`}),
		"amount 1e-100000":        c(map[string]string{"amount": `1e-100000`}),
		"amount three decimals":   c(map[string]string{"amount": `10.005`}),
		"amount huge integer":     c(map[string]string{"amount": `123456789012345678901234567890`}),
		"amount exponent":         c(map[string]string{"amount": `1E+2`}),
		"amount negative":         c(map[string]string{"amount": `-10`}),
		"amount over the maximum": c(map[string]string{"amount": `100000.01`}),
		"amount null":             c(map[string]string{"amount": `null`}),
		"amount true":             c(map[string]string{"amount": `true`}),
		"amount object":           c(map[string]string{"amount": `{"value": 10}`}),
		"payer string":            c(map[string]string{"payer": `"Fulano"`}),
		"payer null":              c(map[string]string{"payer": `null`}),
		"payer array":             c(map[string]string{"payer": `[]`}),
		"payer deep":              c(map[string]string{"payer": deepObject}),
		"name number":             c(map[string]string{"payer": payer(`5`, `"52998224725"`)}),
		"name null":               c(map[string]string{"payer": payer(`null`, `"52998224725"`)}),
		"document number":         c(map[string]string{"payer": payer(`"Ana"`, `52998224725`)}),
		"document SQL":            c(map[string]string{"payer": payer(`"Ana"`, `"52998224725' OR '1'='1"`)}),
		"name Latin-1":            c(map[string]string{"payer": payer("\"Jos\xe9\"", `"52998224725"`)}),
		"name NUL":                c(map[string]string{"payer": payer(`"a\u0000b"`, `"52998224725"`)}),
		"name lone surrogate":     c(map[string]string{"payer": payer(`"a\ud800"`, `"52998224725"`)}),
		"name RTL override":       c(map[string]string{"payer": payer(`"a\u202eb"`, `"52998224725"`)}),
		"name zero width":         c(map[string]string{"payer": payer(`"a\u200bb"`, `"52998224725"`)}),
		"external_id number":      c(map[string]string{"external_id": `5`}),
		"external_id array":       c(map[string]string{"external_id": `["a"]`}),
		"external_id Latin-1":     c(map[string]string{"external_id": "\"\xff\xfe\""}),
		"external_id NUL":         c(map[string]string{"external_id": `"a\u0000"`}),
		"external_id surrogate":   c(map[string]string{"external_id": `"\udc00"`}),
		"external_id too long":    c(map[string]string{"external_id": `"` + strings.Repeat("x", 65) + `"`}),
		"payerQuestion object":    c(map[string]string{"payerQuestion": `{}`}),
		"payerQuestion Latin-1":   c(map[string]string{"payerQuestion": "\"\xe0 vista\""}),
		"payerQuestion newline":   c(map[string]string{"payerQuestion": `"a\nb"`}),
		"postbackUrl number":      c(map[string]string{"postbackUrl": `5`}),
		"postbackUrl loopback":    c(map[string]string{"postbackUrl": `"https://127.0.0.1/hook"`}),
		"postbackUrl javascript":  c(map[string]string{"postbackUrl": `"javascript:alert(1)"`}),
		"postbackUrl file":        c(map[string]string{"postbackUrl": `"file:///etc/passwd"`}),
		"postbackUrl credentials": c(map[string]string{"postbackUrl": `"https://user:pass@shop.example/"`}),
		"split array":             c(map[string]string{"split": `[]`}),
		"split deep":              c(map[string]string{"split": deepObject}),
		"split 1e-100000":         c(map[string]string{"split": `{"x": 1e-100000}`}),
		"split 1e309":             c(map[string]string{"split": `{"x": 1e309}`}),
		"split NUL":               c(map[string]string{"split": `{"x": "\u0000"}`}),
		"split Latin-1":           c(map[string]string{"split": "{\"x\": \"\xff\"}"}),
		"amount twice":            `{"amount": 1, "amount": 99999, "payer": {"name": "Ana", "document": "52998224725"}}`,
		"payer twice":             `{"amount": 10, "payer": {"name": "Ana", "document": "52998224725"}, "payer": {"name": "Bia", "document": "52998224725"}}`,
		"document twice":          `{"amount": 10, "payer": {"name": "Ana", "document": "52998224725", "document": "11222333000181"}}`,
		"all null":                `{"amount": null, "payer": null, "external_id": null}`,
	}
	for i, v := range append(append([]string{}, sqlText...), traversalText...) {
		b["external_id hostile "+string(rune('a'+i))] = c(map[string]string{"external_id": jsonQuote(v)})
	}
	return b
}

func withdrawalBodies() map[string]string {
	w := func(edits map[string]string) string { return validWithdrawal(edits) }
	cp := func(name, keyType, key, taxID string) string {
		return `{"name":` + name + `,"keyType":` + keyType + `,"key":` + key + `,"taxId":` + taxID + `}`
	}
	ok := func(s string) string { return `"` + s + `"` }
	b := map[string]string{
		"amount as string":        w(map[string]string{"amount": `"25.10"`}),
		"amount 1e309":            w(map[string]string{"amount": `1e309`}),
		"amount -0":               w(map[string]string{"amount": `-0`}),
		"amount 1e-100000":        w(map[string]string{"amount": `1e-100000`}),
		"amount three decimals":   w(map[string]string{"amount": `25.105`}),
		"amount huge integer":     w(map[string]string{"amount": `99999999999999999999999999`}),
		"amount null":             w(map[string]string{"amount": `null`}),
		"amount over the balance": w(map[string]string{"amount": `1000.00`}),
		"creditParty string":      w(map[string]string{"creditParty": `"Beltrano"`}),
		"creditParty null":        w(map[string]string{"creditParty": `null`}),
		"creditParty deep":        w(map[string]string{"creditParty": deepObject}),
		"keyType number":          w(map[string]string{"creditParty": cp(ok("B"), `1`, ok(validCPF), ok(validCPF))}),
		"keyType unknown":         w(map[string]string{"creditParty": cp(ok("B"), ok("BITCOIN"), ok(validCPF), ok(validCPF))}),
		"keyType SQL":             w(map[string]string{"creditParty": cp(ok("B"), ok("CPF' OR '1'='1"), ok(validCPF), ok(validCPF))}),
		"key wrong for type":      w(map[string]string{"creditParty": cp(ok("B"), ok("EMAIL"), ok(validCPF), ok(validCPF))}),
		"key NUL":                 w(map[string]string{"creditParty": cp(ok("B"), ok("EMAIL"), `"a\u0000@b.example"`, ok(validCPF))}),
		"key Latin-1":             w(map[string]string{"creditParty": cp(ok("B"), ok("EMAIL"), "\"\xe9@b.example\"", ok(validCPF))}),
		"key traversal":           w(map[string]string{"creditParty": cp(ok("B"), ok("EVP"), ok("../../../../etc/passwd"), ok(validCPF))}),
		"taxId invalid":           w(map[string]string{"creditParty": cp(ok("B"), ok("CPF"), ok(validCPF), ok("12345678900"))}),
		"taxId null":              w(map[string]string{"creditParty": cp(ok("B"), ok("CPF"), ok(validCPF), `null`)}),
		"name surrogate":          w(map[string]string{"creditParty": cp(`"B\ud800"`, ok("CPF"), ok(validCPF), ok(validCPF))}),
		"name BOM":                w(map[string]string{"creditParty": cp(`"\ufeffB"`, ok("CPF"), ok(validCPF), ok(validCPF))}),
		"name tag characters":     w(map[string]string{"creditParty": cp("\"B\U000E0041\"", ok("CPF"), ok(validCPF), ok(validCPF))}),
		"name line separator":     w(map[string]string{"creditParty": cp(`"B\u2028"`, ok("CPF"), ok(validCPF), ok(validCPF))}),
		"description array":       w(map[string]string{"description": `["x"]`}),
		"description Latin-1":     w(map[string]string{"description": "\"Repasse \xe0 vista\""}),
		"description NUL":         w(map[string]string{"description": `"a\u0000"`}),
		"external_id surrogate":   w(map[string]string{"external_id": `"\ud800\ud800"`}),
		"postbackUrl metadata":    w(map[string]string{"postbackUrl": `"https://169.254.169.254/latest/meta-data"`}),
		"amount twice":            `{"amount": 1, "amount": 400, "creditParty": ` + cp(ok("B"), ok("CPF"), ok(validCPF), ok(validCPF)) + `}`,
		"key twice":               w(map[string]string{"creditParty": `{"name":"B","keyType":"CPF","key":"52998224725","key":"11222333000181","taxId":"52998224725"}`}),
	}
	for i, v := range append(append([]string{}, sqlText...), traversalText...) {
		b["external_id hostile "+string(rune('a'+i))] = w(map[string]string{"external_id": jsonQuote(v)})
	}
	return b
}

// jsonBodyProbes posts each body, each malformed one, a body too large and
// valid bodies under wrong content types.
func jsonBodyProbes(endpoint, path, token string, bodies map[string]string) []probe {
	var ps []probe
	for name, b := range bodies {
		ps = append(ps, probe{name: endpoint + ": " + name, method: http.MethodPost, path: path, token: token, body: b})
	}
	for i, b := range malformed {
		ps = append(ps, probe{name: endpoint + ": malformed #" + string(rune('a'+i)), method: http.MethodPost, path: path, token: token, body: b})
	}
	ps = append(ps, probe{name: endpoint + ": oversized", method: http.MethodPost, path: path, token: token, size: 70 << 10})
	valid := bodies["amount as string"]
	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
		"application/xml", "application/json; charset=latin1", "application/json-patch+json"} {
		ps = append(ps, probe{name: endpoint + ": content type " + ct, method: http.MethodPost, path: path, token: token,
			body: strings.Replace(valid, `"25.10"`, `25.10`, 1), headers: []string{"Content-Type", ct}})
	}
	return ps
}

// transportProbes are requests fasthttp cannot read or whose length is
// ambiguous, with a real credential that must not come back.
func transportProbes(endpoint, method, path, token string) []probe {
	head := method + " " + path + " HTTP/1.1\r\nHost: pixgate.test\r\nAuthorization: Bearer " + token + "\r\nContent-Type: application/json\r\n"
	body := `{"amount": 10}`
	var ps []probe
	for name, h := range map[string]string{
		"Content-Length -1":      "Content-Length: -1\r\n\r\n",
		"Content-Length abc":     "Content-Length: abc\r\n\r\n",
		"Content-Length 1e3":     "Content-Length: 1e3\r\n\r\n",
		"two Content-Lengths":    "Content-Length: 14\r\nContent-Length: 200\r\n\r\n" + body,
		"Content-Length and TE":  "Content-Length: 14\r\nTransfer-Encoding: chunked\r\n\r\n" + body,
		"space before colon":     "Content-Length : 14\r\n\r\n" + body,
		"header without colon":   "X-Broken\r\nContent-Length: 14\r\n\r\n" + body,
		"headers over the limit": "X-Big: " + strings.Repeat("a", 9000) + "\r\nContent-Length: 14\r\n\r\n" + body,
		"NUL in a header":        "X-Nul: a\x00b\r\nContent-Length: 14\r\n\r\n" + body,
		"CR in a header":         "X-Cr: a\rb\r\nContent-Length: 14\r\n\r\n" + body,
	} {
		ps = append(ps, probe{name: endpoint + ": " + name, raw: head + h})
	}
	ps = append(ps, probe{name: endpoint + ": bad request line", raw: method + " " + path + " HTTP/9.9 extra\r\nHost: x\r\n\r\n"})
	return ps
}

// credentialProbes send what is not a valid credential.
func credentialProbes(endpoint, method, path string, s corpusSecrets) []probe {
	publicID, _ := keyPair(s.v1Token)
	var ps []probe
	for name, h := range map[string]string{
		"no credential":         "",
		"scheme only":           "Bearer",
		"Basic":                 basicAuth(publicID, s.secret),
		"no secret":             "Bearer " + publicID,
		"no public id":          "Bearer ." + s.secret,
		"wrong secret":          "Bearer " + publicID + ".sk_wrong",
		"unknown key":           "Bearer pk_nosuchkey." + s.secret,
		"SQL in public id":      "Bearer pk_x' OR '1'='1." + s.secret,
		"traversal in id":       "Bearer ../../etc/passwd." + s.secret,
		"access token on v1":    "Bearer " + s.accessToken,
		"Latin-1 in public id":  "Bearer pk_\xe9." + s.secret,
		"huge token":            "Bearer " + strings.Repeat("p", 4000) + "." + s.secret,
		"two schemes":           "Bearer Bearer " + s.v1Token,
		"lowercase and padding": "bearer   " + publicID + ". " + s.secret,
	} {
		p := probe{name: endpoint + ": " + name, method: method, path: path, headers: []string{"Authorization", h}}
		if method == http.MethodPost {
			p.body = validCharge(nil)
		}
		ps = append(ps, p)
	}
	return ps
}

// listProbes send hostile query parameters with a valid credential.
func listProbes(path, token string) []probe {
	var ps []probe
	q := func(name, k, v string) {
		ps = append(ps, probe{name: "GET " + path + ": " + name, method: http.MethodGet, path: path + "?" + k + "=" + url.QueryEscape(v), token: token})
	}
	for i, v := range append(append([]string{}, sqlText...), "PAID' OR '1'='1", "../../etc", "\x00", "\xff", "PAID\u202e", strings.Repeat("P", 5000)) {
		q("status #"+string(rune('a'+i)), "status", v)
	}
	for i, v := range append(append([]string{}, sqlText...), "' OR 1=1--", "../..", "\x00", "AAAAAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAAAAAAA=", "\xff\xfe") {
		q("cursor #"+string(rune('a'+i)), "cursor", v)
	}
	for i, v := range []string{"-1", "0", "101", "1e2", "9999999999999999999999", "abc", "\x00", "1.5", "0x10"} {
		q("per_page #"+string(rune('a'+i)), "per_page", v)
	}
	return ps
}

// refProbes look records up by references no record of this integrator
// has: traversal, SQL, NUL, bad escapes, another kind's id, another
// integrator's record.
func refProbes(prefix, token, otherKindID, foreignID string) []probe {
	refs := []string{"x'%20OR%20'1'%3D'1", "x';--", "1%20OR%201%3D1", "..%2F..%2Fetc%2Fpasswd", "%2e%2e", "..%5C..%5Cwin.ini",
		"%00", "x%00y", "%FF", "%C0%AE%C0%AE", "%", "%zz", "*", strings.Repeat("a", 300), "00000000-0000-0000-0000-000000000000",
		otherKindID, foreignID, strings.ToUpper(foreignID), "order-1001%20", "%E2%80%AEorder"}
	var ps []probe
	for i, r := range refs {
		p := probe{name: "GET " + prefix + "{ref} #" + string(rune('a'+i)), method: http.MethodGet, path: prefix + r, token: token}
		if _, err := url.Parse(r); err != nil { // a bad escape no HTTP client sends
			p.raw = "GET " + prefix + r + " HTTP/1.1\r\nHost: pixgate.test\r\nAuthorization: Bearer " + token + "\r\n\r\n"
		}
		ps = append(ps, p)
	}
	return ps
}

// methodProbes send methods the path does not take.
func methodProbes(path string, methods ...string) []probe {
	var ps []probe
	for _, m := range methods {
		ps = append(ps, probe{name: m + " " + path, method: m, path: path, body: `{}`})
	}
	return ps
}

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
