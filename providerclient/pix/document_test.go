package pix

import "testing"

// validCPF and validCNPJ say whether s is a valid CPF (11 digits,
// optionally punctuated, "123.456.789-09", both mod-11 check digits right,
// not all digits equal) or CNPJ (14 characters, optionally punctuated,
// "11.222.333/0001-81", the first 12 digits or, alphanumeric CNPJ,
// letters in either case, the last two mod-11 check digits).
func validCPF(s string) bool {
	_, ok := normalizeCPF(s)
	return ok
}

func validCNPJ(s string) bool {
	_, ok := normalizeCNPJ(s)
	return ok
}

func TestValidCPF(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"52998224725", true},
		{"12345678909", true},
		{"529.982.247-25", true},
		{"123.456.789-09", true},
		{" 52998224725 ", true},
		{"52998224724", false}, // second check digit wrong
		{"52998224715", false}, // first check digit wrong
		{"5299822472", false},  // 10 digits
		{"529982247250", false},
		{"00000000000", false}, // all digits equal pass mod 11 but are refused
		{"11111111111", false},
		{"99999999999", false},
		{"5299822472a", false},
		{"", false},
		{"11222333000181", false}, // a CNPJ
	}
	for _, tt := range tests {
		if got := validCPF(tt.in); got != tt.want {
			t.Errorf("validCPF(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestValidCNPJ(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"11222333000181", true},
		{"11.222.333/0001-81", true},
		{"12ABC34501DE35", true}, // alphanumeric CNPJ
		{"12.ABC.345/01DE-35", true},
		{"12abc34501de35", true}, // letters are uppercased
		{"12ABC34501DE36", false},
		{"12ABC34501DF35", false},
		{"12ABC34501DE3A", false}, // check digits are always digits
		{"12ABC345-1DE35", false},
		{"11222333000182", false},
		{"11222333000191", false},
		{"1122233300018", false},
		{"00000000000000", false},
		{"AAAAAAAAAAAAAA", false},
		{"52998224725", false}, // a CPF
		{"", false},
	}
	for _, tt := range tests {
		if got := validCNPJ(tt.in); got != tt.want {
			t.Errorf("validCNPJ(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestNormalizeDocument(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"529.982.247-25", "52998224725"},
		{"11.222.333/0001-81", "11222333000181"},
		{"12.abc.345/01de-35", "12ABC34501DE35"},
	}
	for _, tt := range tests {
		got, err := NormalizeDocument(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("NormalizeDocument(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, in := range []string{"", "123", "52998224724", "11222333000182", "000.000.000-00"} {
		if _, err := NormalizeDocument(in); err != ErrInvalidDoc {
			t.Errorf("NormalizeDocument(%q) error = %v, want ErrInvalidDoc", in, err)
		}
	}
	if ErrInvalidDoc.Error() != "must be a valid CPF or CNPJ" {
		t.Errorf("message = %q", ErrInvalidDoc)
	}
}
