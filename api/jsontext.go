package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"
)

// encoding/json is lenient where PixGate must not be: it keeps the last of
// two members with the same name, and it silently turns invalid UTF-8 and
// lone surrogate escapes into U+FFFD, so two different byte strings become
// one (two external_ids collapsing into one record). The readers below see
// the raw text first.

// Errors of readMembers besides the decoder's own.
var (
	errNotObject    = errors.New("not an object")
	errTrailingData = errors.New("data after the object")
)

// readMembers reads one JSON object, keeping each member's raw value, and
// names the members that appear more than once. Anything after the object
// but whitespace is a syntax error.
func readMembers(raw []byte) (members map[string]json.RawMessage, repeated []string, err error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, errNotObject
	}
	members = map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		name, _ := tok.(string) // inside an object, the decoder only yields names here
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		if _, seen := members[name]; seen && !slices.Contains(repeated, name) {
			repeated = append(repeated, name)
		}
		members[name] = v
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, errTrailingData
	}
	return members, repeated, nil
}

// textProblem says why raw JSON text (a string literal, or any value) does
// not hold exactly the characters it seems to, or "": bytes that are not
// UTF-8, or a \u escape of half a surrogate pair.
func textProblem(raw []byte) string {
	if !utf8.Valid(raw) {
		return "must be valid UTF-8 text"
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' || i+1 >= len(raw) {
			continue
		}
		if raw[i+1] != 'u' {
			i++ // an escaped character, perhaps a backslash
			continue
		}
		r, ok := hexEscape(raw, i)
		switch {
		case !ok:
		case r >= 0xD800 && r <= 0xDBFF:
			low, ok := hexEscape(raw, i+6)
			if !ok || low < 0xDC00 || low > 0xDFFF {
				return "must not contain an unpaired surrogate escape"
			}
			i += 11
			continue
		case r >= 0xDC00 && r <= 0xDFFF:
			return "must not contain an unpaired surrogate escape"
		}
		i += 5
	}
	return ""
}

// hexEscape reads the \uXXXX escape at raw[i:].
func hexEscape(raw []byte, i int) (rune, bool) {
	if i+6 > len(raw) || raw[i] != '\\' || raw[i+1] != 'u' {
		return 0, false
	}
	n, err := strconv.ParseUint(string(raw[i+2:i+6]), 16, 32)
	return rune(n), err == nil
}
