package api

import (
	"net/http"
	"strings"
)

// validRecurrence is a recurrence request every field of which passes.
func validRecurrence(edits map[string]string) string {
	return jsonBody(map[string]string{
		"external_id":  `"plano-ouro-1"`,
		"journey":      `"QR"`,
		"payer":        `{"name":"Fulano de Tal","document":"529.982.247-25"}`,
		"contract":     `"4417"`,
		"description":  `"Plano Ouro"`,
		"calendar":     `{"periodicity":"MONTHLY","start":"2099-01-10","count":12}`,
		"amount":       `{"type":"fixed","value":35.00}`,
		"retry_policy": `"THREE_IN_7_DAYS"`,
	}, edits)
}

// recurrenceProbes: hostile recurrence requests, refs and credentials.
func recurrenceProbes(s corpusSecrets, chargeID, foreignID string) []probe {
	const none = "/api/v1/recurrences/00000000-0000-0000-0000-000000000000"
	var ps []probe
	ps = append(ps, jsonBodyProbes("POST /api/v1/recurrences", "/api/v1/recurrences", s.v1Token, recurrenceBodies())...)
	ps = append(ps, transportProbes("POST /api/v1/recurrences", http.MethodPost, "/api/v1/recurrences", s.v1Token)...)
	ps = append(ps, credentialProbes("POST /api/v1/recurrences", http.MethodPost, "/api/v1/recurrences", s)...)
	ps = append(ps, refProbes("/api/v1/recurrences/", s.v1Token, chargeID, foreignID)...)
	ps = append(ps, listProbes("/api/v1/recurrences", s.v1Token)...)
	ps = append(ps, credentialProbes("GET /api/v1/recurrences", http.MethodGet, "/api/v1/recurrences", s)...)
	ps = append(ps, credentialProbes("GET /api/v1/recurrences/{recurrence}", http.MethodGet, none, s)...)
	ps = append(ps, credentialProbes("POST /api/v1/recurrences/{recurrence}/cancel", http.MethodPost, none+"/cancel", s)...)
	ps = append(ps, probe{name: "POST /api/v1/recurrences/{recurrence}/cancel: none", method: http.MethodPost, path: none + "/cancel", token: s.v1Token})
	ps = append(ps, probe{name: "POST /api/v1/recurrences/{recurrence}/cancel: a charge's id", method: http.MethodPost,
		path: "/api/v1/recurrences/" + chargeID + "/cancel", token: s.v1Token})
	ps = append(ps, credentialProbes("GET /api/v1/recurrences/{recurrence}/cycles", http.MethodGet, none+"/cycles", s)...)
	ps = append(ps, credentialProbes("GET /api/v1/recurrences/{recurrence}/cycles/{n}", http.MethodGet, none+"/cycles/0", s)...)
	for name, n := range map[string]string{"negative": "-1", "huge": "123456789012345678901234567890", "SQL": "0%27%20OR%20%271%27%3D%271",
		"not a number": "um"} {
		ps = append(ps, probe{name: "GET /api/v1/recurrences/{recurrence}/cycles/{n}: " + name, method: http.MethodGet,
			path: "/api/v1/recurrences/" + chargeID + "/cycles/" + n, token: s.v1Token})
	}
	ps = append(ps, probe{name: "GET /api/v1/recurrences/{recurrence}/cycles: another account's", method: http.MethodGet,
		path: "/api/v1/recurrences/" + foreignID + "/cycles", token: s.v1Token})
	ps = append(ps, credentialProbes("PUT /api/v1/recurrences/{recurrence}/cycles/{n}", http.MethodPut, none+"/cycles/0", s)...)
	ps = append(ps, transportProbes("PUT /api/v1/recurrences/{recurrence}/cycles/{n}", http.MethodPut, none+"/cycles/0", s.v1Token)...)
	for name, body := range map[string]string{"amount string": `{"amount":"10"}`, "amount huge": `{"amount":1e309}`,
		"amount deep": `{"amount":` + deepObject + `}`, "amount null": `{"amount":null}`, "array": `[]`} {
		ps = append(ps, probe{name: "PUT /api/v1/recurrences/{recurrence}/cycles/{n}: " + name, method: http.MethodPut,
			path: "/api/v1/recurrences/" + foreignID + "/cycles/0", token: s.v1Token, body: body})
	}
	ps = append(ps, credentialProbes("POST /api/v1/recurrences/{recurrence}/cycles/{n}/cancel", http.MethodPost, none+"/cycles/0/cancel", s)...)
	for name, n := range map[string]string{"negative": "-1", "huge": "99999999999999999999", "not a number": "um"} {
		ps = append(ps, probe{name: "POST /api/v1/recurrences/{recurrence}/cycles/{n}/cancel: " + name, method: http.MethodPost,
			path: "/api/v1/recurrences/" + foreignID + "/cycles/" + n + "/cancel", token: s.v1Token})
	}
	ps = append(ps, methodProbes(none, "PUT", "DELETE")...)
	return ps
}

func recurrenceBodies() map[string]string {
	r := func(edits map[string]string) string { return validRecurrence(edits) }
	return map[string]string{
		"amount as string":        r(map[string]string{"amount": `{"type":"fixed","value":"35.00"}`}),
		"amount 1e309":            r(map[string]string{"amount": `{"type":"fixed","value":1e309}`}),
		"amount -0":               r(map[string]string{"amount": `{"type":"fixed","value":-0}`}),
		"amount fixed with floor": r(map[string]string{"amount": `{"type":"fixed","value":35,"floor":10}`}),
		"amount type SQL":         r(map[string]string{"amount": `{"type":"fixed' OR '1'='1","value":35}`}),
		"amount deep":             r(map[string]string{"amount": deepObject}),
		"journey unknown":         r(map[string]string{"journey": `"BOLETO"`}),
		"journey NUL":             r(map[string]string{"journey": `"QR\u0000"`}),
		"journey number":          r(map[string]string{"journey": `2`}),
		"push without bank":       r(map[string]string{"journey": `"PUSH"`}),
		"bank on a QR journey":    r(map[string]string{"payer": `{"name":"F","document":"52998224725","bank":{"ispb":"1","branch":"1","account":"1"}}`}),
		"document SQL":            r(map[string]string{"payer": `{"name":"F","document":"52998224725' OR '1'='1"}`}),
		"contract too long":       r(map[string]string{"contract": `"` + strings.Repeat("c", 36) + `"`}),
		"contract newline":        r(map[string]string{"contract": `"a\nb"`}),
		"calendar start past":     r(map[string]string{"calendar": `{"periodicity":"MONTHLY","start":"2000-01-10"}`}),
		"calendar end and count":  r(map[string]string{"calendar": `{"periodicity":"MONTHLY","start":"2099-01-10","end":"2099-12-10","count":3}`}),
		"calendar periodicity":    r(map[string]string{"calendar": `{"periodicity":"DAILY","start":"2099-01-10"}`}),
		"calendar count huge":     r(map[string]string{"calendar": `{"periodicity":"WEEKLY","start":"2099-01-10","count":123456789012345678901234567890}`}),
		"calendar deep":           r(map[string]string{"calendar": deepObject}),
		"retry policy unknown":    r(map[string]string{"retry_policy": `"ALWAYS"`}),
		"consent in the past":     r(map[string]string{"consent_expires_at": `"2000-01-01T00:00:00Z"`}),
		"consent in a year":       r(map[string]string{"consent_expires_at": `"2098-01-01T00:00:00Z"`}),
		"consent not a time":      r(map[string]string{"consent_expires_at": `"amanhã"`}),
		"external_id missing":     r(map[string]string{"external_id": "-"}),
		"postbackUrl loopback":    r(map[string]string{"postbackUrl": `"https://127.0.0.1/hook"`}),
		"all null":                `{"journey": null, "payer": null, "amount": null, "calendar": null}`,
		"first payment deep":      r(map[string]string{"journey": `"QR_WITH_PAYMENT"`, "first_payment": deepObject}),
		"first payment string":    r(map[string]string{"journey": `"QR_WITH_PAYMENT"`, "first_payment": `{"amount":"35.00"}`}),
		"first payment negative":  r(map[string]string{"journey": `"QR_WITH_PAYMENT"`, "first_payment": `{"amount":-35}`}),
		"first payment null":      r(map[string]string{"journey": `"QR_WITH_PAYMENT"`, "first_payment": `null`}),
	}
}
