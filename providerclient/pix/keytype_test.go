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
