package api

import (
	"net/http"
	"net/url"
	"slices"
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
	ps = append(ps, jsonBodyProbes("POST /api/v1/charges/batch", "/api/v1/charges/batch", s.v1Token, chargeBatchBodies())...)
	ps = append(ps, transportProbes("POST /api/v1/charges/batch", http.MethodPost, "/api/v1/charges/batch", s.v1Token)...)
	ps = append(ps, credentialProbes("POST /api/v1/charges/batch", http.MethodPost, "/api/v1/charges/batch", s)...)
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
	ps = append(ps, v1RefundProbes(s, chargeID, foreignChargeID)...)
	ps = append(ps, payoutProbes(s, withdrawalID, foreignChargeID)...)
	ps = append(ps, medProbes(s, chargeID, foreignChargeID)...)
	ps = append(ps, recurrenceProbes(s, chargeID, foreignChargeID)...)
	ps = append(ps, webhookOpsProbes(s, chargeID, foreignChargeID)...)
	ps = append(ps, subAccountProbes(s, chargeID, foreignChargeID)...)
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
		"due deep":                c(map[string]string{"due": deepObject}),
		"due array":               c(map[string]string{"due": `[]`}),
		"due date SQL":            c(map[string]string{"due": `{"date": "2026-12-10' OR '1'='1"}`}),
		"due fine 1e309":          c(map[string]string{"due": `{"date": "2026-12-10", "fine": {"mode": "fixed", "value": 1e309}}`}),
		"due fine -0":             c(map[string]string{"due": `{"date": "2026-12-10", "fine": {"mode": "percent", "value": -0}}`}),
		"due days_after huge":     c(map[string]string{"due": `{"date": "2026-12-10", "days_after": 123456789012345678901234567890}`}),
		"due date twice":          c(map[string]string{"due": `{"date": "2026-12-10", "date": "2027-12-10"}`}),
		"due dates deep":          c(map[string]string{"due": `{"date": "2026-12-10", "discount": {"mode": "fixed_until", "dates": [` + deepObject + `]}}`}),
		"due mode NUL":            c(map[string]string{"due": `{"date": "2026-12-10", "rebate": {"mode": "fixed\u0000", "value": 1}}`}),
	}
	for i, v := range append(append([]string{}, sqlText...), traversalText...) {
		b["external_id hostile "+string(rune('a'+i))] = c(map[string]string{"external_id": jsonQuote(v)})
	}
	return b
}

// chargeBatchBodies: each hostile charge inside an otherwise valid batch
// (which refuses the whole batch), and hostile batches.
func chargeBatchBodies() map[string]string {
	b := map[string]string{
		"charges object":   `{"charges": {"amount": 10}}`,
		"charges null":     `{"charges": null}`,
		"charges deep":     `{"charges": [` + deepObject + `]}`,
		"charges twice":    `{"charges": [], "charges": [` + validCharge(nil) + `]}`,
		"charges too many": chargeBatch(slices.Repeat([]string{validCharge(nil)}, maxChargeBatch+1)...),
	}
	for name, body := range chargeBodies() {
		b["item "+name] = chargeBatch(validCharge(map[string]string{"external_id": `"lote-ok"`}), body)
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
