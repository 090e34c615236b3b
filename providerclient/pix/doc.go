// Package pix holds the PIX rules PixGate validates before any money moves:
// key types and their aliases, key normalization by the Central Bank's key
// directory rules, and CPF/CNPJ check digits (including the alphanumeric CNPJ).
//
// Errors are short and read as the end of a sentence that starts with a field
// name ("creditParty.key must be a valid CPF"), because the API shows them to
// integrators under that field.
package pix

import "errors"

// Validation errors. Each one completes a sentence that begins with the name
// of the offending field.
var (
	ErrKeyType       = errors.New("must be one of CPF, CNPJ, EMAIL, PHONE, EVP")
	ErrKeyRequired   = errors.New("is required")
	ErrInvalidCPF    = errors.New("must be a valid CPF")
	ErrInvalidCNPJ   = errors.New("must be a valid CNPJ")
	ErrInvalidDoc    = errors.New("must be a valid CPF or CNPJ")
	ErrInvalidEmail  = errors.New("must be a valid email address")
	ErrEmailTooLong  = errors.New("must be at most 77 characters")
	ErrInvalidPhone  = errors.New("must be a Brazilian phone number like +5511998765432")
	ErrInvalidRandom = errors.New("must be a random key (EVP): a UUID like 123e4567-e89b-12d3-a456-426614174000")
)
