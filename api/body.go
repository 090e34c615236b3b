package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// requireJSON refuses a body that is not declared as JSON (415). A charset
// parameter is allowed; anything but UTF-8 JSON is not.
func requireJSON(c *fiber.Ctx) error {
	if err := requireJSONBody(c); err != nil {
		return err
	}
	return c.Next()
}

// requireJSONBody is requireJSON's check, for a handler whose body is
// optional.
func requireJSONBody(c *fiber.Ctx) error {
	mt, params, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
	if err != nil || mt != fiber.MIMEApplicationJSON {
		return newError(http.StatusUnsupportedMediaType, codeUnsupportedMedia,
			`Send the body as JSON with "Content-Type: application/json".`)
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") && !strings.EqualFold(cs, "utf8") {
		return newError(http.StatusUnsupportedMediaType, codeUnsupportedMedia, "JSON bodies must be UTF-8.")
	}
	return nil
}

// decodeObject reads the body as one JSON object whose members stay raw, so
// that each field is checked on its own and every problem is reported at
// once (a wrong type is a 422 naming the field, not a 400). Only a body that
// is not a JSON object at all is a 400. Unknown members are ignored:
// integrators moving from the provider family send extra fields. A member
// sent twice is refused: parsers disagree on which one counts.
//
// The raw members alias the request buffer: use them within the handler.
func decodeObject(c *fiber.Ctx) (object, error) {
	return decodeBody(c.UserContext(), c.Body())
}

// decodeBody is decodeObject without the request: its context and body.
func decodeBody(ctx context.Context, body []byte) (object, error) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return object{}, newError(http.StatusBadRequest, codeMalformedJSON, "The body is empty: send a JSON object.")
	}
	m, repeated, err := readMembers(body)
	if err != nil {
		var syn *json.SyntaxError
		switch {
		case errors.Is(err, errNotObject):
			return object{}, newError(http.StatusBadRequest, codeMalformedJSON, "The body must be a JSON object.")
		case errors.Is(err, errTrailingData):
			return object{}, newError(http.StatusBadRequest, codeMalformedJSON, "The body must hold one JSON object and nothing after it.")
		case errors.As(err, &syn):
			// The offset, not encoding/json's own words: those describe the
			// parser ("looking for beginning of value"), not the request.
			return object{}, newError(http.StatusBadRequest, codeMalformedJSON,
				"The body is not valid JSON: the first error is at byte %d.", syn.Offset)
		}
		return object{}, newError(http.StatusBadRequest, codeMalformedJSON, "The body is not valid JSON: it ends before the object does.")
	}
	o := object{ctx: ctx, m: m, errs: newFieldErrors()}
	o.refuseRepeated(repeated)
	return o, nil
}

// fieldErrors collects validation problems by field path ("payer.document"),
// in the order they were found, which is the order of the request's
// fields. Messages complete a sentence that starts with the field name.
type fieldErrors struct {
	byField map[string][]string
	order   []string
}

func newFieldErrors() *fieldErrors { return &fieldErrors{byField: map[string][]string{}} }

func (f *fieldErrors) add(field, format string, args ...any) {
	if _, seen := f.byField[field]; !seen {
		f.order = append(f.order, field)
	}
	f.byField[field] = append(f.byField[field], fmt.Sprintf(format, args...))
}

func (f *fieldErrors) has(field string) bool { return len(f.byField[field]) > 0 }

func (f *fieldErrors) empty() bool { return len(f.order) == 0 }

// err is the 422 carrying every problem, or nil. Its message is the first
// problem, named: clients of the provider family log only message.
func (f *fieldErrors) err() error {
	if f.empty() {
		return nil
	}
	return &apiError{Status: http.StatusUnprocessableEntity, Code: codeValidation, Message: f.message(), Fields: f.byField}
}

// message is the first problem as a sentence ("payer.document is
// required"), and how many more there are.
func (f *fieldErrors) message() string {
	first := f.order[0]
	msg := first + " " + f.byField[first][0]
	n := -1
	for _, problems := range f.byField {
		n += len(problems)
	}
	switch {
	case n == 1:
		msg += " (and 1 more error)"
	case n > 1:
		msg += fmt.Sprintf(" (and %d more errors)", n)
	}
	return msg
}

// object is a JSON object being validated; nested objects share the errors
// of the whole body and prefix their field names.
type object struct {
	// ctx is the request's, for checks that look outside (postbackURL
	// resolves its host): a body lives only as long as its request.
	ctx    context.Context
	prefix string
	m      map[string]json.RawMessage
	errs   *fieldErrors
}

func (o object) path(name string) string { return o.prefix + name }

// raw returns a member that is present and not null.
func (o object) raw(name string) (json.RawMessage, bool) {
	r, ok := o.m[name]
	if !ok || string(r) == "null" {
		return nil, false
	}
	return r, true
}

// str returns an optional string member; a non-string, or a string whose
// bytes are not exactly UTF-8 text, is an error.
func (o object) str(name string) (string, bool) {
	r, ok := o.raw(name)
	if !ok {
		return "", false
	}
	var s string
	if r[0] != '"' || json.Unmarshal(r, &s) != nil {
		o.errs.add(o.path(name), "must be a string")
		return "", false
	}
	if msg := textProblem(r); msg != "" {
		o.errs.add(o.path(name), "%s", msg)
		return "", false
	}
	return s, true
}

// requiredStr returns a string member that must be present.
func (o object) requiredStr(name string) (string, bool) {
	if _, ok := o.raw(name); !ok {
		o.errs.add(o.path(name), "is required")
		return "", false
	}
	return o.str(name)
}

// requiredObject returns a nested object member that must be present.
func (o object) requiredObject(name string) (object, bool) {
	r, ok := o.raw(name)
	if !ok {
		o.errs.add(o.path(name), "is required")
		return object{}, false
	}
	m, repeated, err := readMembers(r)
	if err != nil {
		o.errs.add(o.path(name), "must be an object")
		return object{}, false
	}
	nested := object{ctx: o.ctx, prefix: o.path(name) + ".", m: m, errs: o.errs}
	nested.refuseRepeated(repeated)
	return nested, true
}

// refuseRepeated reports members that appear more than once.
func (o object) refuseRepeated(names []string) {
	for _, n := range names {
		o.errs.add(o.path(n), "must appear only once")
	}
}
