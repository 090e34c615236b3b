package api

import (
	"net/http"
	"net/url"
	"strings"
)

// payoutProbes: batches of withdrawals and the approvals. withdrawalID is
// the integrator's withdrawal (PROCESSING: never awaiting approval, so an
// approval or a rejection of it is refused), foreignID another
// integrator's record.
func payoutProbes(s corpusSecrets, withdrawalID, foreignID string) []probe {
	const create = "/api/v1/withdrawals/batches"
	var ps []probe
	for name, b := range batchBodies() {
		ps = append(ps, probe{name: "POST " + create + ": " + name, method: http.MethodPost, path: create, token: s.v1Token, body: b})
	}
	for i, b := range malformed {
		ps = append(ps, probe{name: "POST " + create + ": malformed #" + string(rune('a'+i)), method: http.MethodPost, path: create, token: s.v1Token, body: b})
	}
	ps = append(ps, probe{name: "POST " + create + ": oversized", method: http.MethodPost, path: create, token: s.v1Token, size: 9 << 20})
	valid := batchOf(validWithdrawal(map[string]string{"external_id": `"lote-probe-1"`}))
	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
		"application/xml", "application/json; charset=latin1", "application/json-patch+json", "text/csv; charset=latin1"} {
		ps = append(ps, probe{name: "POST " + create + ": content type " + ct, method: http.MethodPost, path: create, token: s.v1Token,
			body: valid, headers: []string{"Content-Type", ct}})
	}
	const csvPath = create + "/csv"
	for name, b := range csvBodies() {
		ps = append(ps, probe{name: "POST " + csvPath + ": " + name, method: http.MethodPost, path: csvPath + "?external_id=lote-csv",
			token: s.v1Token, body: b, headers: []string{"Content-Type", "text/csv"}})
	}
	for i, q := range []string{"", "?external_id=", "?external_id=" + url.QueryEscape("x' OR '1'='1 "), "?external_id=" + strings.Repeat("x", 65),
		"?external_id=ok&postbackUrl=" + url.QueryEscape("https://169.254.169.254/latest")} {
		ps = append(ps, probe{name: "POST " + csvPath + " query #" + string(rune('a'+i)), method: http.MethodPost, path: csvPath + q,
			token: s.v1Token, body: csvHeader + "\n10.00,CPF,52998224725,Fulano,52998224725,csv-q-1,\n", headers: []string{"Content-Type", "text/csv"}})
	}
	for _, ct := range []string{"", "application/json", "text/csv; charset=latin1", "text/plain"} {
		ps = append(ps, probe{name: "POST " + csvPath + ": content type " + ct, method: http.MethodPost, path: csvPath + "?external_id=lote-csv",
			token: s.v1Token, body: csvHeader + "\n10.00,CPF,52998224725,Fulano,52998224725,csv-ct-1,\n", headers: []string{"Content-Type", ct}})
	}
	ps = append(ps, probe{name: "POST " + csvPath + ": oversized", method: http.MethodPost, path: csvPath, token: s.v1Token, size: 9 << 20})
	for _, path := range []string{create, csvPath} {
		ps = append(ps, transportProbes("POST "+path, http.MethodPost, path, s.v1Token)...)
		ps = append(ps, credentialProbes("POST "+path, http.MethodPost, path, s)...)
	}
	refs := []string{"x'%20OR%20'1'%3D'1", "..%2F..%2Fetc%2Fpasswd", "%00", "%FF", strings.Repeat("a", 300),
		"00000000-0000-0000-0000-000000000000", foreignID, strings.ToUpper(foreignID)}
	for i, r := range refs {
		n := " #" + string(rune('a'+i))
		ps = append(ps,
			probe{name: "GET " + create + "/{ref}" + n, method: http.MethodGet, path: create + "/" + r, token: s.v1Token},
			probe{name: "GET " + create + "/{ref}/items" + n, method: http.MethodGet, path: create + "/" + r + "/items", token: s.v1Token},
			probe{name: "POST " + create + "/{ref}/approve" + n, method: http.MethodPost, path: create + "/" + r + "/approve", token: s.v1Token},
			probe{name: "POST " + create + "/{ref}/reject" + n, method: http.MethodPost, path: create + "/" + r + "/reject", token: s.v1Token,
				body: `{"reason": "x"}`},
			probe{name: "POST /api/v1/withdrawals/{ref}/approve" + n, method: http.MethodPost, path: "/api/v1/withdrawals/" + r + "/approve", token: s.v1Token},
			probe{name: "POST /api/v1/withdrawals/{ref}/reject" + n, method: http.MethodPost, path: "/api/v1/withdrawals/" + r + "/reject", token: s.v1Token})
	}
	for _, action := range []string{"approve", "reject"} {
		path := "/api/v1/withdrawals/" + withdrawalID + "/" + action
		ps = append(ps, probe{name: "POST " + path + ": not awaiting", method: http.MethodPost, path: path, token: s.v1Token})
		ps = append(ps, credentialProbes("POST /api/v1/withdrawals/{withdrawal}/"+action, http.MethodPost, path, s)...)
		ps = append(ps, credentialProbes("POST "+create+"/{batch}/"+action, http.MethodPost, create+"/lote-x/"+action, s)...)
	}
	reject := "/api/v1/withdrawals/" + withdrawalID + "/reject"
	for name, b := range map[string]string{"reason number": `{"reason": 1}`, "reason NUL": `{"reason": "a\u0000"}`,
		"reason RTL": `{"reason": "a\u202eb"}`, "reason too long": `{"reason": "` + strings.Repeat("r", 200) + `"}`, "not JSON": `reason=x`,
		"array": `[]`} {
		ps = append(ps, probe{name: "POST " + reject + ": " + name, method: http.MethodPost, path: reject, token: s.v1Token, body: b})
	}
	ps = append(ps, listProbes(create+"/lote-x/items", s.v1Token)...)
	ps = append(ps, credentialProbes("GET "+create+"/{batch}", http.MethodGet, create+"/lote-x", s)...)
	ps = append(ps, credentialProbes("GET "+create+"/{batch}/items", http.MethodGet, create+"/lote-x/items", s)...)
	ps = append(ps, methodProbes(create+"/lote-x", "POST", "DELETE", "PUT")...)
	ps = append(ps, methodProbes(create+"/lote-x/approve", "GET", "DELETE")...)
	return ps
}

// batchOf is a JSON batch of items.
func batchOf(items ...string) string {
	return `{"external_id": "lote-probe", "items": [` + strings.Join(items, ",") + `]}`
}

const csvHeader = "amount,key_type,key,name,tax_id,external_id,description"

func batchBodies() map[string]string {
	ok := validWithdrawal(map[string]string{"external_id": `"lote-ok-1"`})
	b := map[string]string{
		"items missing":            `{"external_id": "lote-probe"}`,
		"items empty":              `{"external_id": "lote-probe", "items": []}`,
		"items object":             `{"external_id": "lote-probe", "items": {}}`,
		"items null":               `{"external_id": "lote-probe", "items": null}`,
		"items deep":               `{"external_id": "lote-probe", "items": [` + deepObject + `]}`,
		"items twice":              `{"external_id": "lote-probe", "items": [], "items": [` + ok + `]}`,
		"items too many":           `{"external_id": "lote-probe", "items": [` + strings.Repeat(`{},`, maxWithdrawalBatch) + `{}]}`,
		"external_id missing":      `{"items": [` + ok + `]}`,
		"external_id hostile":      `{"external_id": "x' OR '1'='1", "items": [` + ok + `]}`,
		"external_id number":       `{"external_id": 1, "items": [` + ok + `]}`,
		"item external_id missing": batchOf(validWithdrawal(map[string]string{"external_id": "null"})),
		"item external_id twice":   batchOf(ok, ok),
		"postbackUrl metadata":     `{"external_id": "lote-probe", "postbackUrl": "https://169.254.169.254/x", "items": [` + ok + `]}`,
		"item over the balance":    batchOf(validWithdrawal(map[string]string{"external_id": `"lote-big"`, "amount": "1000.00"})),
	}
	for name, body := range withdrawalBodies() {
		b["item "+name] = batchOf(ok, body)
	}
	return b
}

func csvBodies() map[string]string {
	row := "10.00,CPF,52998224725,Fulano,52998224725,csv-1,Repasse"
	return map[string]string{
		"empty":               "",
		"header only":         csvHeader + "\n",
		"unknown column":      csvHeader + ",sk_live_secret\n" + row + ",x\n",
		"column twice":        csvHeader + ",amount\n" + row + ",1\n",
		"column missing":      "amount,key_type,key,name,tax_id\n10.00,CPF,52998224725,Fulano,52998224725\n",
		"bare quote":          csvHeader + "\n10.00,CPF,\"529\"98,Fulano,52998224725,csv-1,x\n",
		"short line":          csvHeader + "\n10.00,CPF\n",
		"amount text":         csvHeader + "\nabc,CPF,52998224725,Fulano,52998224725,csv-1,x\n",
		"amount quoted":       csvHeader + "\n\"\"\"10\"\"\",CPF,52998224725,Fulano,52998224725,csv-1,x\n",
		"amount three places": csvHeader + "\n10.005,CPF,52998224725,Fulano,52998224725,csv-1,x\n",
		"key wrong":           csvHeader + "\n10.00,EMAIL,52998224725,Fulano,52998224725,csv-1,x\n",
		"tax id wrong":        csvHeader + "\n10.00,CPF,52998224725,Fulano,12345678900,csv-1,x\n",
		"external_id twice":   csvHeader + "\n" + row + "\n" + row + "\n",
		"external_id empty":   csvHeader + "\n10.00,CPF,52998224725,Fulano,52998224725,,x\n",
		"NUL":                 csvHeader + "\n10.00,CPF,52998224725,Ful\x00ano,52998224725,csv-1,x\n",
		"Latin-1":             csvHeader + "\n10.00,CPF,52998224725,Fulan\xe9,52998224725,csv-1,x\n",
		"over the balance":    csvHeader + "\n1000.00,CPF,52998224725,Fulano,52998224725,csv-big,x\n",
	}
}
