package wooviapi

import (
	"bytes"
	"strconv"
)

// StringOrNum is a whole number sent as a JSON number or a string; it is
// written as a string, as the document's schema says.
type StringOrNum int64

func (n StringOrNum) MarshalJSON() ([]byte, error) {
	return []byte(strconv.Quote(strconv.FormatInt(int64(n), 10))), nil
}

func (n *StringOrNum) UnmarshalJSON(b []byte) error {
	b = bytes.Trim(bytes.TrimSpace(b), `"`)
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return nil // an unreadable validity is no validity, not an unreadable answer
	}
	*n = StringOrNum(v)
	return nil
}
