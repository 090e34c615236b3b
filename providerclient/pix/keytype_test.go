package pix

import (
	"errors"
	"testing"
)

func TestParseKeyType(t *testing.T) {
	tests := []struct {
		in   string
		want KeyType
	}{
		{"CPF", KeyCPF},
		{"cpf", KeyCPF},
		{"CNPJ", KeyCNPJ},
		{"Cnpj", KeyCNPJ},
		{"EMAIL", KeyEmail},
		{"email", KeyEmail},
		{"PHONE", KeyPhone},
		{"phone", KeyPhone},
		{"TELEFONE", KeyPhone},
		{"telefone", KeyPhone},
		{"EVP", KeyEVP},
		{"evp", KeyEVP},
		{"RANDOM", KeyEVP},
		{"random", KeyEVP},
		{"ALEATORIA", KeyEVP},
		{"Aleatoria", KeyEVP},
		{"CHAVE_ALEATORIA", KeyEVP},
		{"chave_aleatoria", KeyEVP},
		{" cpf ", KeyCPF},
	}
	for _, tt := range tests {
		got, err := ParseKeyType(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseKeyType(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestParseKeyTypeRefuses(t *testing.T) {
	for _, in := range []string{"", "RG", "CELULAR", "E-MAIL", "CHAVE ALEATORIA", "ALEATÓRIA", "PIX"} {
		if got, err := ParseKeyType(in); !errors.Is(err, ErrKeyType) {
			t.Errorf("ParseKeyType(%q) = %q, %v; want ErrKeyType", in, got, err)
		}
	}
}

func TestDetectKey(t *testing.T) {
	tests := []struct {
		in   string
		typ  KeyType
		norm string
	}{
		{"529.982.247-25", KeyCPF, "52998224725"},
		{"11.222.333/0001-81", KeyCNPJ, "11222333000181"},
		{" Fulano@Example.com ", KeyEmail, "fulano@example.com"},
		{"+5511998765432", KeyPhone, "+5511998765432"},
		{"123E4567-E12B-12D1-A456-426655440000", KeyEVP, "123e4567-e12b-12d1-a456-426655440000"},
		{"12345", "", ""},
		{"", "", ""},
		{"52998224726", "", ""},
	}
	for _, tt := range tests {
		typ, norm, err := DetectKey(tt.in)
		if typ != tt.typ || norm != tt.norm || (err == nil) != (tt.typ != "") {
			t.Errorf("DetectKey(%q) = %q, %q, %v", tt.in, typ, norm, err)
		}
	}
}
