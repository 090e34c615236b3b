package api

import (
	"net/http"
	"net/url"
	"strings"
)

// webhookOpsProbes: the event catalog, the webhook endpoints, the delivery log and its
// replays. No probe may change anything: pauses carry no valid URL,
// resumes name an endpoint never paused (404), replays a postback that
// does not exist or a range that is not one.
func webhookOpsProbes(s corpusSecrets, chargeID, foreignID string) []probe {
	const none = "/api/v1/postbacks/00000000-0000-0000-0000-000000000000"
	var ps []probe
	ps = append(ps, credentialProbes("GET /api/v1/webhook-events", http.MethodGet, "/api/v1/webhook-events", s)...)
	ps = append(ps, methodProbes("/api/v1/webhook-events", "POST", "PUT", "DELETE")...)
	ps = append(ps, credentialProbes("GET /api/v1/webhook-endpoints", http.MethodGet, "/api/v1/webhook-endpoints", s)...)
	ps = append(ps, methodProbes("/api/v1/webhook-endpoints", "POST", "PUT", "DELETE")...)
	for _, action := range []string{"pause", "resume"} {
		path := "/api/v1/webhook-endpoints/" + action
		bodies := endpointBodies()
		if action == "resume" {
			bodies["amount as string"] = `{"url": "https://nunca.example/pausado"}`
		}
		ps = append(ps, jsonBodyProbes("POST "+path, path, s.v1Token, bodies)...)
		ps = append(ps, transportProbes("POST "+path, http.MethodPost, path, s.v1Token)...)
		ps = append(ps, credentialProbes("POST "+path, http.MethodPost, path, s)...)
		ps = append(ps, methodProbes(path, "GET", "PUT")...)
	}
	ps = append(ps, listProbes("/api/v1/postbacks", s.v1Token)...)
	for name, q := range map[string]string{"event SQL": "event=PAID'%20OR%20'1'%3D'1", "event NUL": "event=%00", "event long": "event=" + strings.Repeat("A", 65),
		"resource_type": "resource_type=" + url.QueryEscape("charge' --"), "since": "since=ontem", "until NUL": "until=%00",
		"unknown": "page=2", "credential as a name": "sk_live=1"} {
		ps = append(ps, probe{name: "GET /api/v1/postbacks: " + name, method: http.MethodGet, path: "/api/v1/postbacks?" + q, token: s.v1Token})
	}
	ps = append(ps, credentialProbes("GET /api/v1/postbacks", http.MethodGet, "/api/v1/postbacks", s)...)
	ps = append(ps, methodProbes("/api/v1/postbacks", "POST", "PUT", "DELETE")...)
	ps = append(ps, refProbes("/api/v1/postbacks/", s.v1Token, chargeID, foreignID)...)
	ps = append(ps, credentialProbes("GET /api/v1/postbacks/{id}", http.MethodGet, none, s)...)
	ps = append(ps, methodProbes(none, "POST", "DELETE")...)
	ps = append(ps, credentialProbes("POST /api/v1/postbacks/{id}/replay", http.MethodPost, none+"/replay", s)...)
	for i, ref := range []string{"x'%20OR%20'1'%3D'1", "..%2F..%2Fetc%2Fpasswd", "%00", strings.Repeat("a", 300), chargeID, foreignID,
		"00000000-0000-0000-0000-000000000000"} {
		ps = append(ps, probe{name: "POST /api/v1/postbacks/{ref}/replay #" + string(rune('a'+i)), method: http.MethodPost,
			path: "/api/v1/postbacks/" + ref + "/replay", token: s.v1Token})
	}
	ps = append(ps, methodProbes(none+"/replay", "GET", "PUT")...)
	ps = append(ps, jsonBodyProbes("POST /api/v1/postbacks/replay", "/api/v1/postbacks/replay", s.v1Token, rangeBodies())...)
	ps = append(ps, transportProbes("POST /api/v1/postbacks/replay", http.MethodPost, "/api/v1/postbacks/replay", s.v1Token)...)
	ps = append(ps, credentialProbes("POST /api/v1/postbacks/replay", http.MethodPost, "/api/v1/postbacks/replay", s)...)
	ps = append(ps, methodProbes("/api/v1/postbacks/replay", "PUT", "DELETE")...)
	return ps
}

// endpointBodies are pause and resume bodies none of which names an
// endpoint ("amount as string", the one sent under wrong content types,
// included).
func endpointBodies() map[string]string {
	return map[string]string{
		"amount as string": `{"url": "ftp://loja.example/pix"}`,
		"url missing":      `{}`,
		"url a number":     `{"url": 12}`,
		"url null":         `{"url": null}`,
		"url relative":     `{"url": "/pix"}`,
		"url too long":     `{"url": "https://loja.example/` + strings.Repeat("a", 3000) + `"}`,
		"url NUL":          `{"url": "https://loja.example/\u0000"}`,
		"url spaces":       `{"url": "https://loja.example/a b"}`,
		"url Latin-1":      "{\"url\": \"https://loja.example/\xe0\"}",
		"url twice":        `{"url": "https://a.example", "url": "https://b.example"}`,
		"deep":             `{"url": "ftp://x", "x": ` + deepObject + `}`,
	}
}

// rangeBodies are range replays none of which is a range.
func rangeBodies() map[string]string {
	return map[string]string{
		"amount as string": `{"since": "2020-01-01T00:00:00Z", "until": "2019-01-01T00:00:00Z"}`,
		"empty":            `{}`,
		"since missing":    `{"until": "2020-01-01T00:00:00Z"}`,
		"until a number":   `{"since": "2020-01-01T00:00:00Z", "until": 1}`,
		"since not a time": `{"since": "ontem", "until": "2020-01-01T00:00:00Z"}`,
		"since SQL":        `{"since": "2020' OR '1'='1", "until": "2020-01-01T00:00:00Z"}`,
		"until NUL":        `{"since": "2020-01-01T00:00:00Z", "until": "\u0000"}`,
		"same instant":     `{"since": "2020-01-01T00:00:00Z", "until": "2020-01-01T00:00:00Z"}`,
		"deep":             `{"since": "x", "x": ` + deepObject + `}`,
	}
}
