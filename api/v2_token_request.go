package api

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// RFC 6749 error codes the token endpoint answers with.
const (
	oauthInvalidRequest       = "invalid_request"
	oauthInvalidClient        = "invalid_client"
	oauthUnsupportedGrantType = "unsupported_grant_type"
)

const grantClientCredentials = "client_credentials"

// tokenRequest is a token request's credentials.
type tokenRequest struct {
	publicID, secret string
}

// tokenFields are the body members read, with their aliases; anything else
// (scope, audience, …) is ignored: a token carries its key's scopes.
var tokenFields = []string{"grant_type", "public_id", "client_id", "secret", "client_secret"}

// readTokenRequest reads the credentials the ways the spec and the provider
// family's clients send them: HTTP Basic (with an empty body, or a form
// grant_type=client_credentials), or public_id and secret (aliases
// client_id, client_secret) in a JSON, form or multipart body. Basic wins
// over the body. A missing grant_type means client_credentials, the only
// grant there is: the family's clients send Basic with an empty body.
func readTokenRequest(c *fiber.Ctx) (tokenRequest, error) {
	fields, err := tokenBody(c)
	if err != nil {
		return tokenRequest{}, err
	}
	if g := fields["grant_type"]; g != "" && g != grantClientCredentials {
		return tokenRequest{}, &apiError{Status: http.StatusBadRequest, Code: oauthUnsupportedGrantType, OAuth: oauthUnsupportedGrantType,
			Message: "Unsupported grant_type: PixGate issues tokens only for grant_type=client_credentials."}
	}
	if scheme, creds, _ := strings.Cut(strings.TrimSpace(c.Get(fiber.HeaderAuthorization)), " "); strings.EqualFold(scheme, "Basic") {
		id, secret, ok := basicCredentials(creds)
		if !ok {
			return tokenRequest{}, errInvalidClient
		}
		return tokenRequest{publicID: id, secret: secret}, nil
	}
	r := tokenRequest{publicID: cmp.Or(fields["public_id"], fields["client_id"]), secret: cmp.Or(fields["secret"], fields["client_secret"])}
	missing := newFieldErrors()
	if r.publicID == "" {
		missing.add("public_id", "is required (or client_id, or HTTP Basic credentials)")
	}
	if r.secret == "" {
		missing.add("secret", "is required (or client_secret, or HTTP Basic credentials)")
	}
	if !missing.empty() {
		return tokenRequest{}, &apiError{Status: http.StatusBadRequest, Code: oauthInvalidRequest, OAuth: oauthInvalidRequest, Fields: missing.byField,
			Message: "Missing client credentials: send public_id and secret (or client_id and client_secret) with grant_type=client_credentials, or use HTTP Basic."}
	}
	return r, nil
}

// basicCredentials decodes the credentials of "Basic {base64}", with or
// without its "=" padding (hand-built headers get it wrong). An empty id or
// secret is no credential.
func basicCredentials(encoded string) (id, secret string, ok bool) {
	raw, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(strings.TrimSpace(encoded), "="))
	if err != nil {
		return "", "", false
	}
	id, secret, ok = strings.Cut(string(raw), ":")
	return id, secret, ok && id != "" && secret != ""
}

// tokenBody reads the known members of the body, by its Content-Type, or by
// its first character when the type is missing or unexpected.
func tokenBody(c *fiber.Ctx) (map[string]string, error) {
	body := bytes.TrimSpace(c.Body())
	mt, _, _ := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	switch {
	case len(body) == 0:
		return map[string]string{}, nil
	case mt == fiber.MIMEMultipartForm:
		form, err := c.MultipartForm()
		if err != nil {
			return nil, errTokenBody
		}
		return formFields(form.Value)
	case mt == fiber.MIMEApplicationJSON || mt != fiber.MIMEApplicationForm && body[0] == '{':
		return jsonFields(body)
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return nil, errTokenBody
	}
	return formFields(form)
}

var errTokenBody = &apiError{Status: http.StatusBadRequest, Code: oauthInvalidRequest, OAuth: oauthInvalidRequest,
	Message: "The body is neither a JSON object nor a form: send grant_type=client_credentials with public_id and secret."}

// formFields refuses a member sent twice (RFC 6749 §3.2).
func formFields(form map[string][]string) (map[string]string, error) {
	out := map[string]string{}
	for _, name := range tokenFields {
		switch v := form[name]; len(v) {
		case 0:
		case 1:
			out[name] = v[0]
		default:
			return nil, &apiError{Status: http.StatusBadRequest, Code: oauthInvalidRequest, OAuth: oauthInvalidRequest,
				Fields: map[string][]string{name: {"is sent more than once"}}, Message: "A parameter is sent more than once: " + name + "."}
		}
	}
	return out, nil
}

// jsonFields reads string members; null is absent. A member sent twice is
// refused, as in a form.
func jsonFields(body []byte) (map[string]string, error) {
	m, repeated, err := readMembers(body)
	if err != nil {
		return nil, errTokenBody
	}
	out := map[string]string{}
	bad := newFieldErrors()
	for _, name := range repeated {
		if slices.Contains(tokenFields, name) {
			bad.add(name, "is sent more than once")
		}
	}
	for _, name := range tokenFields {
		raw, ok := m[name]
		if !ok || string(raw) == "null" {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) != nil {
			bad.add(name, "must be a string")
			continue
		}
		if msg := textProblem(raw); msg != "" {
			bad.add(name, "%s", msg)
			continue
		}
		out[name] = s
	}
	if !bad.empty() {
		return nil, &apiError{Status: http.StatusBadRequest, Code: oauthInvalidRequest, OAuth: oauthInvalidRequest, Fields: bad.byField,
			Message: "Every token request parameter is a string, sent once, of valid UTF-8 text."}
	}
	return out, nil
}
