package api

import "unicode"

// Free text (a charge's payerQuestion, a payment's or a refund's
// description) reaches the provider and the payer's bank app. Besides what
// text refuses, it may not hold characters that render as nothing and so
// can hide or carry text nobody sees: Unicode's format characters (Cf),
// among them the zero-width space and non-joiner, the word joiner, the
// soft hyphen, the byte order mark and the tag characters, which spell
// ASCII invisibly. Two uses of them draw emoji and stay allowed, since
// customers write emoji: a zero-width joiner between two pictographs (👨‍👩)
// and the tag characters of a subdivision flag (🏴 + tags + cancel tag).
// Names refuse every format character (see object.name).

const (
	zeroWidthJoiner = 0x200D
	blackFlag       = 0x1F3F4
	tagFirst        = 0xE0020 // tag space
	tagLast         = 0xE007E // tag tilde
	cancelTag       = 0xE007F
	variationEmoji  = 0xFE0F // VARIATION SELECTOR-16: emoji presentation
)

// hiddenCharacter reports whether s holds a format character outside the
// emoji sequences above.
func hiddenCharacter(s string) bool {
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if r == blackFlag {
			i = skipFlagTags(rs, i)
			continue
		}
		if !unicode.Is(unicode.Cf, r) {
			continue
		}
		if r == zeroWidthJoiner && i > 0 && i+1 < len(rs) && endsEmoji(rs[i-1]) && pictograph(rs[i+1]) {
			continue
		}
		return true
	}
	return false
}

// skipFlagTags returns the index of the last rune of the flag at rs[i]:
// its tag characters and cancel tag when they are all there, else i.
func skipFlagTags(rs []rune, i int) int {
	j := i + 1
	for j < len(rs) && rs[j] >= tagFirst && rs[j] <= tagLast {
		j++
	}
	if j > i+1 && j < len(rs) && rs[j] == cancelTag {
		return j
	}
	return i
}

// pictograph approximates Unicode's Extended_Pictographic, which Go's
// tables lack: the other symbols (So), where the emoji are.
func pictograph(r rune) bool { return unicode.Is(unicode.So, r) }

// endsEmoji: a pictograph, or what may follow one inside an emoji (the
// emoji variation selector, a skin tone modifier).
func endsEmoji(r rune) bool {
	return pictograph(r) || r == variationEmoji || r >= 0x1F3FB && r <= 0x1F3FF
}
