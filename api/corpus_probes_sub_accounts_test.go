package api

import (
	"net/http"
	"strings"
)

// subAccountProbes: the sub-accounts. No probe may change anything: every
// create body is refused (no name, no valid e-mail), and lookups name no
// sub-account of the integrator (another integrator's charge id, SQL,
// traversal).
func subAccountProbes(s corpusSecrets, chargeID, foreignID string) []probe {
	const path = "/api/v1/sub-accounts"
	var ps []probe
	ps = append(ps, jsonBodyProbes("POST "+path, path, s.v1Token, map[string]string{
		"amount as string": `{"name": "Vendedor", "email": "not an address"}`,
		"empty":            `{}`,
		"name missing":     `{"email": "vendedor@loja.example"}`,
		"email missing":    `{"name": "Vendedor"}`,
		"email a number":   `{"name": "Vendedor", "email": 12}`,
		"email NUL":        `{"name": "Vendedor", "email": "vende\u0000dor@loja.example"}`,
		"name invisible":   `{"name": "Vende\u200Bdor", "email": "x"}`,
		"name too long":    `{"name": "` + strings.Repeat("a", 300) + `", "email": "x"}`,
		"name twice":       `{"name": "A", "name": "B", "email": "a@loja.example"}`,
		"deep":             `{"name": "A", "email": "x", "x": ` + deepObject + `}`,
		"Latin-1":          "{\"name\": \"Jo\xe3o\", \"email\": \"joao@loja.example\"}",
	})...)
	ps = append(ps, transportProbes("POST "+path, http.MethodPost, path, s.v1Token)...)
	ps = append(ps, credentialProbes("POST "+path, http.MethodPost, path, s)...)
	ps = append(ps, credentialProbes("GET "+path, http.MethodGet, path, s)...)
	ps = append(ps, methodProbes(path, "PUT", "DELETE")...)
	ps = append(ps, refProbes(path+"/", s.v1Token, chargeID, foreignID)...)
	for i, ref := range []string{"1", "0", "-1", "9223372036854775808", "1e3", "0x10", " 1"} {
		ps = append(ps, probe{name: "GET " + path + "/{id} #" + string(rune('a'+i)), method: http.MethodGet,
			path: path + "/" + strings.ReplaceAll(ref, " ", "%20"), token: s.v1Token})
	}
	ps = append(ps, credentialProbes("GET "+path+"/{id}", http.MethodGet, path+"/1", s)...)
	ps = append(ps, methodProbes(path+"/1", "POST", "PUT", "DELETE")...)
	return ps
}
