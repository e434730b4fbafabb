package tokenizer

import (
	"unicode"
	"unicode/utf8"
)

// Character classes of GPT-2's pre-tokenization regex.
const (
	clsOther  = iota // [^\s\p{L}\p{N}]
	clsLetter        // \p{L}
	clsNumber        // \p{N}
	clsSpace         // \s (Unicode White_Space)
)

var asciiClass [utf8.RuneSelf]uint8

func init() {
	for r := rune(0); r < utf8.RuneSelf; r++ {
		asciiClass[r] = classOf(r)
	}
}

func classOf(r rune) uint8 {
	switch {
	case unicode.IsLetter(r):
		return clsLetter
	case unicode.IsNumber(r):
		return clsNumber
	case unicode.IsSpace(r): // exactly Unicode's White_Space property
		return clsSpace
	}
	return clsOther
}

// next decodes the rune at s[i] and its class. An invalid UTF-8 byte is one
// rune of class other (it decodes as U+FFFD, a symbol).
func next(s string, i int) (cls uint8, w int) {
	if c := s[i]; c < utf8.RuneSelf {
		return asciiClass[c], 1
	}
	r, w := utf8.DecodeRuneInString(s[i:])
	return classOf(r), w
}

// runEnd returns the end of the run of class cls that starts at i.
func runEnd(s string, i int, cls uint8) int {
	for i < len(s) {
		c, w := next(s, i)
		if c != cls {
			break
		}
		i += w
	}
	return i
}

// splitGPT2 splits s as GPT-2's pre-tokenization regex
//
//	's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//
// finds its matches (Python's regex.findall, Hugging Face's ByteLevel
// pre-tokenizer), calling emit with each piece in order; the pieces cover s.
// Go's regexp has no lookahead, so the alternatives are followed by hand,
// in the regex's order with its backtracking:
//   - a contraction when s[i] is an apostrophe followed by one;
//   - otherwise an optional U+0020 space and a run of letters, of numbers
//     or of other characters (the space is taken only when such a run
//     follows it);
//   - otherwise a run of whitespace: the whole run when it ends the text
//     (\s+(?!\S)), the run less its last character when a non-space
//     follows and the run has two or more (that last space then starts the
//     next piece, " word"), else the lone character (\s+).
func splitGPT2(s string, emit func(piece string)) {
	for i := 0; i < len(s); {
		c := s[i]
		if c == '\'' && i+1 < len(s) {
			n := 0
			switch s[i+1] {
			case 's', 't', 'm', 'd':
				n = 2
			case 'r', 'v':
				if i+2 < len(s) && s[i+2] == 'e' {
					n = 3
				}
			case 'l':
				if i+2 < len(s) && s[i+2] == 'l' {
					n = 3
				}
			}
			if n > 0 {
				emit(s[i : i+n])
				i += n
				continue
			}
		}
		start := i
		if c == ' ' && i+1 < len(s) {
			if cls, w := next(s, i+1); cls != clsSpace {
				j := runEnd(s, i+1+w, cls)
				emit(s[start:j])
				i = j
				continue
			}
		}
		cls, w := next(s, i)
		if cls != clsSpace {
			j := runEnd(s, i+w, cls)
			emit(s[start:j])
			i = j
			continue
		}
		// A run of whitespace; last is where its last character starts.
		j, last := i, i
		for j < len(s) {
			c, w := next(s, j)
			if c != clsSpace {
				break
			}
			last = j
			j += w
		}
		if j < len(s) && last > i {
			j = last
		}
		emit(s[i:j])
		i = j
	}
}
