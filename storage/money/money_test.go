package money

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestParseAmount(t *testing.T) {
	tests := []struct {
		in      string
		want    Money
		wantErr error
	}{
		{"15", 1500, nil},
		{"15.5", 1550, nil},
		{"15.50", 1550, nil},
		{"15.500", 1550, nil}, // exact: trailing zeros carry no value
		{"0.01", 1, nil},
		{"0.1", 10, nil},
		{"1234567.89", 123456789, nil},
		{" 7.00 ", 700, nil},
		{"15.505", 0, ErrTooManyDecimals},
		{"0.001", 0, ErrTooManyDecimals},
		{"0", 0, ErrNotPositive},
		{"0.00", 0, ErrNotPositive},
		{"-0", 0, ErrNotPositive},
		{"-1", 0, ErrNotPositive},
		{"-0.01", 0, ErrNotPositive},
		{"1e3", 0, ErrExponent},
		{"1E3", 0, ErrExponent},
		{"1.5e2", 0, ErrExponent},
		{`"15.00"`, 0, ErrNotANumber},
		{`"15"`, 0, ErrNotANumber},
		{"null", 0, ErrNotANumber},
		{"true", 0, ErrNotANumber},
		{"{}", 0, ErrNotANumber},
		{"[1]", 0, ErrNotANumber},
		{"", 0, ErrNotANumber},
		{".5", 0, ErrNotANumber},
		{"5.", 0, ErrNotANumber},
		{"1.2.3", 0, ErrNotANumber},
		{"+5", 0, ErrNotANumber},
		{"0x10", 0, ErrNotANumber},
		{"NaN", 0, ErrNotANumber},
		{"99999999999999", 0, ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseAmount([]byte(tt.in))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("ParseAmount(%s) error = %v, want %v", tt.in, err, tt.wantErr)
			}
			if got != tt.want {
				t.Fatalf("ParseAmount(%s) = %d, want %d", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseAcceptsZeroAndNegatives(t *testing.T) {
	for in, want := range map[string]Money{"0": 0, "-3.2": -320, "-0.05": -5, "100": 10000} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}

func TestRender(t *testing.T) {
	tests := map[Money]string{0: "0.00", 1: "0.01", 10: "0.10", 1550: "15.50", 100000: "1000.00", -5: "-0.05", -1550: "-15.50"}
	for m, want := range tests {
		if got := m.String(); got != want {
			t.Errorf("Money(%d).String() = %q, want %q", int64(m), got, want)
		}
		b, _ := json.Marshal(struct {
			A Money `json:"a"`
		}{m})
		if got := string(b); got != `{"a":`+want+`}` {
			t.Errorf("json of %d = %s", int64(m), got)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	var v struct {
		A Money `json:"a"`
	}
	if err := json.Unmarshal([]byte(`{"a": 15.5}`), &v); err != nil || v.A != 1550 {
		t.Fatalf("unmarshal 15.5 = %d, %v", v.A, err)
	}
	if err := json.Unmarshal([]byte(`{"a": 0.1}`), &v); err != nil || v.A != 10 {
		t.Fatalf("unmarshal 0.1 = %d, %v (float64 would give 0.1 inexactly)", v.A, err)
	}
	for _, bad := range []string{`{"a": "15"}`, `{"a": 1e2}`, `{"a": 1.001}`} {
		if err := json.Unmarshal([]byte(bad), &v); err == nil {
			t.Errorf("unmarshal %s: want error", bad)
		}
	}
}
