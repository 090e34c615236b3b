package api

import (
	"net/http"
	"net/url"
	"strings"
)

// medProbes: the MED infractions and the key lookup. No infraction exists
// (the nil UUID names none), so a well-formed defense is 404; only keys
// that are not keys are looked up, so the provider is never asked.
func medProbes(s corpusSecrets, chargeID, foreignChargeID string) []probe {
	const none = "/api/v1/infractions/00000000-0000-0000-0000-000000000000"
	var ps []probe
	ps = append(ps, listProbes("/api/v1/infractions", s.v1Token)...)
	ps = append(ps, credentialProbes("GET /api/v1/infractions", http.MethodGet, "/api/v1/infractions", s)...)
	ps = append(ps, methodProbes("/api/v1/infractions", "POST", "PUT", "DELETE")...)
	ps = append(ps, refProbes("/api/v1/infractions/", s.v1Token, chargeID, foreignChargeID)...)
	ps = append(ps, credentialProbes("GET /api/v1/infractions/{id}", http.MethodGet, none, s)...)
	ps = append(ps, methodProbes(none, "POST", "DELETE")...)
	ps = append(ps, jsonBodyProbes("POST /api/v1/infractions/{id}/defense", none+"/defense", s.v1Token, defenseBodies())...)
	ps = append(ps, transportProbes("POST "+none+"/defense", http.MethodPost, none+"/defense", s.v1Token)...)
	ps = append(ps, credentialProbes("POST /api/v1/infractions/{id}/defense", http.MethodPost, none+"/defense", s)...)
	ps = append(ps, methodProbes(none+"/defense", "GET", "PUT")...)
	for i, ref := range []string{"x'%20OR%20'1'%3D'1", "..%2F..%2Fetc%2Fpasswd", "%00", "%FF", strings.Repeat("a", 300), chargeID} {
		p := probe{name: "POST /api/v1/infractions/{ref}/defense #" + string(rune('a'+i)), method: http.MethodPost,
			path: "/api/v1/infractions/" + ref + "/defense", token: s.v1Token, body: `{"text": "defesa"}`}
		if _, err := url.Parse(ref); err != nil {
			p.raw = "POST /api/v1/infractions/" + ref + "/defense HTTP/1.1\r\nHost: pixgate.test\r\nAuthorization: Bearer " + s.v1Token + "\r\n\r\n"
		}
		ps = append(ps, p)
	}
	keys := []string{"x'%20OR%20'1'%3D'1", "..%2F..%2Fetc%2Fpasswd", "%00", "%FF", strings.Repeat("a", 300), "12345678900",
		"not%40an%40email", "%2B1", "52998224725%00", "%E2%80%AE52998224725"}
	for i, k := range keys {
		p := probe{name: "GET /api/v1/pix-keys/{key} #" + string(rune('a'+i)), method: http.MethodGet, path: "/api/v1/pix-keys/" + k, token: s.v1Token}
		if _, err := url.Parse(k); err != nil {
			p.raw = "GET /api/v1/pix-keys/" + k + " HTTP/1.1\r\nHost: pixgate.test\r\nAuthorization: Bearer " + s.v1Token + "\r\n\r\n"
		}
		ps = append(ps, p)
	}
	for i, kt := range []string{"RG", "' OR 1=1", "\x00"} {
		ps = append(ps, probe{name: "GET /api/v1/pix-keys/{key}?keyType #" + string(rune('a'+i)), method: http.MethodGet,
			path: "/api/v1/pix-keys/52998224725?keyType=" + url.QueryEscape(kt), token: s.v1Token})
	}
	ps = append(ps, credentialProbes("GET /api/v1/pix-keys/{key}", http.MethodGet, "/api/v1/pix-keys/52998224725", s)...)
	ps = append(ps, methodProbes("/api/v1/pix-keys/52998224725", "POST", "DELETE")...)
	return ps
}

func defenseBodies() map[string]string {
	return map[string]string{
		"amount as string": `{"text": "defesa"}`, // well formed: no such infraction
		"text missing":     `{}`,
		"text a number":    `{"text": 12}`,
		"text null":        `{"text": null}`,
		"text blank":       `{"text": "   "}`,
		"text too long":    `{"text": "` + strings.Repeat("a", 2001) + `"}`,
		"text NUL":         `{"text": "a\u0000"}`,
		"text RTL":         `{"text": "a\u202eb"}`,
		"text Latin-1":     "{\"text\": \"\xe0 vista\"}",
		"text twice":       `{"text": "a", "text": "b"}`,
		"deep":             `{"text": "a", "x": ` + deepObject + `}`,
	}
}
