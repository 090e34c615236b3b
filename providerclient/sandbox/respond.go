package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money"
)

// maxBody caps request bodies.
const maxBody = 64 << 10

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, contract.Error{StatusCode: status, Message: msg})
}

// decodeJSON reads the request body into v. It answers 400 for malformed
// JSON and 422 for a value of the wrong type, and reports whether the
// handler may go on.
func decodeJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "request body too large")
		return false
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		body = []byte("{}")
	}
	err = json.Unmarshal(body, v)
	var typeErr *json.UnmarshalTypeError
	switch {
	case err == nil:
		return true
	case errors.As(err, &typeErr) && typeErr.Field != "":
		var vd validation
		vd.add(jsonPath(typeErr.Field), "must be a "+jsonKind(typeErr.Type.Kind().String()))
		vd.write(w)
	default:
		writeError(w, http.StatusBadRequest, "malformed JSON body")
	}
	return false
}

// jsonPath drops from a decoding error's field path the names of embedded
// Go structs ("ChargeRequest.payer.document"): every member name of the
// contract starts with a lowercase letter, every Go type name with an
// uppercase one.
func jsonPath(field string) string {
	parts := strings.Split(field, ".")
	for len(parts) > 1 && parts[0] != "" && parts[0][0] >= 'A' && parts[0][0] <= 'Z' {
		parts = parts[1:]
	}
	return strings.Join(parts, ".")
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "string"
	case "bool":
		return "boolean"
	case "struct", "map":
		return "JSON object"
	case "slice":
		return "JSON array"
	}
	return "number"
}

// validation collects field errors and renders them as one 422.
type validation struct {
	fields []string
	errs   map[string][]string
}

func (v *validation) add(field, msg string) {
	if v.errs == nil {
		v.errs = make(map[string][]string)
	}
	if _, seen := v.errs[field]; !seen {
		v.fields = append(v.fields, field)
	}
	v.errs[field] = append(v.errs[field], msg)
}

func (v *validation) addErr(field string, err error) { v.add(field, err.Error()) }

func (v *validation) failed() bool { return len(v.fields) > 0 }

func (v *validation) write(w http.ResponseWriter) {
	first := v.fields[0]
	msg := first + " " + v.errs[first][0]
	if n := len(v.fields) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	writeJSON(w, http.StatusUnprocessableEntity, contract.Error{
		StatusCode: http.StatusUnprocessableEntity, Message: msg, Errors: v.errs,
	})
}

// amount validates a positive amount read from raw JSON.
func (v *validation) amount(field string, raw json.RawMessage) money.Money {
	if len(raw) == 0 {
		v.add(field, "is required")
		return 0
	}
	m, err := money.ParseAmount(raw)
	if err != nil {
		v.addErr(field, err)
	}
	return m
}

// maxLen checks an optional text field's length.
func (v *validation) maxLen(field, s string, n int) {
	if len([]rune(s)) > n {
		v.add(field, fmt.Sprintf("must be at most %d characters", n))
	}
}

// url checks an optional absolute http(s) URL.
func (v *validation) url(field, s string) {
	if s == "" {
		return
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		v.add(field, "must be an http or https URL")
	}
	v.maxLen(field, s, 2048)
}

// paging checks a family list's page (from 1; 0 is 1) and per_page (0 is
// def, at most max), naming what is wrong in v, and returns them.
func (v *validation) paging(page, perPage, def, most int) (int, int) {
	if page == 0 {
		page = 1
	}
	if page < 0 {
		v.add("page", "must be 1 or more")
	}
	if perPage == 0 {
		perPage = def
	}
	if perPage < 0 || perPage > most {
		v.add("per_page", fmt.Sprintf("must be from 1 to %d", most))
	}
	return page, perPage
}
