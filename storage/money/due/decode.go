package due

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// Terms are read strictly: a member the terms do not have, or one sent
// twice, is refused, as is a member of the wrong type, each as a
// *FieldError naming it ("fine.rate", "discount.dates[0].until"). The
// API ignores unknown members of a request's body, but inside the terms
// an unknown member is a term misspelt, and ignoring it would change what
// the payer is asked. A member that is null counts as absent.

// member decodes one member's raw value; path names it.
type member func(raw json.RawMessage, path string) error

// UnmarshalJSON reads the terms' JSON form strictly. Original is kept: it
// is not part of that form.
func (t *Terms) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		return nil
	}
	n := Terms{Original: t.Original}
	err := decodeObject(b, "", map[string]member{
		"date":       into(&n.Date),
		"days_after": into(&n.DaysAfter),
		"fine": func(raw json.RawMessage, path string) error {
			n.Fine = new(Fine)
			return decodeObject(raw, path+".", map[string]member{"mode": into(&n.Fine.Mode), "value": into(&n.Fine.Value)})
		},
		"interest": func(raw json.RawMessage, path string) error {
			n.Interest = new(Interest)
			return decodeObject(raw, path+".", map[string]member{
				"mode": into(&n.Interest.Mode), "value": into(&n.Interest.Value), "days": into(&n.Interest.Days),
			})
		},
		"rebate": func(raw json.RawMessage, path string) error {
			n.Rebate = new(Rebate)
			return decodeObject(raw, path+".", map[string]member{"mode": into(&n.Rebate.Mode), "value": into(&n.Rebate.Value)})
		},
		"discount": func(raw json.RawMessage, path string) error {
			n.Discount = new(Discount)
			return n.Discount.decode(raw, path)
		},
	})
	if err != nil {
		return err
	}
	*t = n
	return nil
}

// decode reads a discount, its dates each strictly too.
func (d *Discount) decode(raw json.RawMessage, path string) error {
	return decodeObject(raw, path+".", map[string]member{
		"mode":  into(&d.Mode),
		"value": into(&d.Value),
		"days":  into(&d.Days),
		"dates": func(raw json.RawMessage, path string) error {
			var items []json.RawMessage
			if err := json.Unmarshal(raw, &items); err != nil {
				return &FieldError{Field: path, Message: "must be an array"}
			}
			d.Dates = make([]DatedDiscount, len(items))
			for i, item := range items {
				e := &d.Dates[i]
				err := decodeObject(item, fmt.Sprintf("%s[%d].", path, i), map[string]member{
					"until": into(&e.Until), "value": into(&e.Value),
				})
				if err != nil {
					return err
				}
			}
			return nil
		},
	})
}

// into decodes a member into dst, naming the member in the error.
func into(dst any) member {
	return func(raw json.RawMessage, path string) error {
		if err := json.Unmarshal(raw, dst); err != nil {
			return &FieldError{Field: path, Message: problem(err)}
		}
		return nil
	}
}

// problem ends the sentence that starts with the member's name.
func problem(err error) string {
	var typ *json.UnmarshalTypeError
	if !errors.As(err, &typ) {
		return err.Error() // Value's and Date's own, written that way
	}
	switch typ.Type.Kind() {
	case reflect.String:
		return "must be a string"
	case reflect.Int:
		return "must be a whole number"
	}
	return "has the wrong type"
}

// decodeObject reads b, a JSON object whose members are prefix + a name
// of members, and decodes each present member in the order sent.
func decodeObject(b []byte, prefix string, members map[string]member) error {
	names, raws, err := readObject(b)
	if err != nil {
		return &FieldError{Field: trimDot(prefix), Message: "must be an object"}
	}
	seen := make(map[string]bool, len(names))
	for _, name := range names {
		switch {
		case members[name] == nil:
			return &FieldError{Field: prefix + name, Message: "is not a member of the terms"}
		case seen[name]:
			return &FieldError{Field: prefix + name, Message: "must appear only once"}
		}
		seen[name] = true
	}
	for i, name := range names {
		if isNull(raws[i]) {
			continue
		}
		if err := members[name](raws[i], prefix+name); err != nil {
			return err
		}
	}
	return nil
}

// readObject lists the members of the JSON object b in order, repeats
// included.
func readObject(b []byte) (names []string, raws []json.RawMessage, err error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, errors.New("not an object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, err
		}
		names, raws = append(names, tok.(string)), append(raws, raw)
	}
	return names, raws, nil
}

func isNull(b []byte) bool { return string(bytes.TrimSpace(b)) == "null" }

func trimDot(prefix string) string {
	if n := len(prefix); n > 0 && prefix[n-1] == '.' {
		return prefix[:n-1]
	}
	return prefix
}
