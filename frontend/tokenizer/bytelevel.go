package tokenizer

import "unicode/utf8"

// byteRune maps each byte to the printable rune GPT-2's byte-level BPE
// writes it as (bytes_to_unicode in GPT-2's encoder.py): printable Latin-1
// bytes stand for themselves, the other 68 bytes (controls, space, 0x7F-0xA0,
// 0xAD) for U+0100 onward in byte order. So ' ' is 'Ġ' (U+0120), '\n' 'Ċ'.
var byteRune [256]rune

// runeByte is byteRune's inverse.
var runeByte = map[rune]byte{}

func init() {
	n := 0
	for b := 0; b < 256; b++ {
		if (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF) {
			byteRune[b] = rune(b)
		} else {
			byteRune[b] = rune(256 + n)
			n++
		}
		runeByte[byteRune[b]] = byte(b)
	}
}

// byteLevel writes raw bytes in byte-level form (each byte as its rune).
func byteLevel(raw string) string {
	buf := make([]byte, 0, 2*len(raw))
	for i := 0; i < len(raw); i++ {
		buf = utf8.AppendRune(buf, byteRune[raw[i]])
	}
	return string(buf)
}

// tokenBytes returns the bytes a vocabulary token stands for, as Hugging
// Face's ByteLevel decoder reads it: every rune mapped back to its byte, or,
// when some rune is not one of the 256 byte runes (an added token such as
// "<|endoftext|>" is, but "<pad>\u2581" is not), the token's own UTF-8
// bytes.
func tokenBytes(tok string) []byte {
	if b, ok := byteLevelBytes(tok); ok {
		return b
	}
	return []byte(tok)
}

// byteLevelBytes returns the bytes of a token all of whose runes are byte
// runes.
func byteLevelBytes(tok string) ([]byte, bool) {
	out := make([]byte, 0, len(tok))
	for _, r := range tok {
		b, ok := runeByte[r]
		if !ok {
			return nil, false
		}
		out = append(out, b)
	}
	return out, true
}

// appendLossy appends b to dst as valid UTF-8, replacing each maximal
// ill-formed subsequence by one U+FFFD, as Rust's String::from_utf8_lossy
// (Hugging Face tokenizers) and Python's bytes.decode(errors="replace")
// (transformers' GPT2Tokenizer) do. Go's strings.ToValidUTF8 differs: it
// replaces a whole run of invalid bytes by one U+FFFD.
func appendLossy(dst []byte, b []byte) []byte {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			dst = append(dst, b[i])
			i++
			continue
		}
		n, complete := utf8Prefix(b[i:])
		if complete {
			dst = append(dst, b[i:i+n]...)
		} else {
			dst = append(dst, "\uFFFD"...)
		}
		i += n
	}
	return dst
}

// lossyString is appendLossy's text as a string.
func lossyString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return string(appendLossy(make([]byte, 0, len(b)+8), b))
}

// utf8Prefix looks at the sequence starting at b[0] (len(b) > 0): it
// returns the length of the longest prefix that is a valid UTF-8 sequence
// or the start of one (at least 1), and whether that prefix is a whole
// character. A prefix that is incomplete only because b ends is reported
// with complete false and n == len(b).
func utf8Prefix(b []byte) (n int, complete bool) {
	c := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case c < 0x80:
		return 1, true
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 2
	case c == 0xED:
		need, hi = 2, 0x9F
	case c == 0xF0:
		need, lo = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1, false
	}
	n = 1
	for k := 0; k < need; k++ {
		if n >= len(b) {
			return n, false
		}
		x := b[n]
		if k > 0 {
			lo, hi = 0x80, 0xBF
		}
		if x < lo || x > hi {
			return n, false
		}
		n++
	}
	return n, true
}

// incompleteTail returns how many bytes at the end of b are the valid start
// of a UTF-8 character that later bytes could complete (0 to 3).
func incompleteTail(b []byte) int {
	for k := 1; k <= 3 && k <= len(b); k++ {
		i := len(b) - k
		if b[i] < 0x80 {
			return 0
		}
		if b[i] >= 0xC2 && b[i] <= 0xF4 { // a leading byte
			n, complete := utf8Prefix(b[i:])
			if !complete && n == k {
				return k
			}
			return 0
		}
		if b[i] >= 0xC0 { // a byte no UTF-8 has
			return 0
		}
	}
	return 0
}
