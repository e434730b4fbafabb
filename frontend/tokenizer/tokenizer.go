// Package tokenizer is GPT-2's byte-level BPE tokenizer in Go: it loads a
// Hugging Face tokenizer.json or GPT-2's vocab.json and merges.txt, encodes
// text to token ids and decodes ids to text, with the same ids and text as
// Hugging Face's tokenizers and transformers (docs/tokenizer.md).
//
// Encoding splits the text at added tokens (special tokens such as
// <|endoftext|>), splits the pieces between them with GPT-2's
// pre-tokenization regex, and applies the BPE merges to each piece's bytes.
// Decoding joins the tokens' bytes and reads them as UTF-8, an invalid
// sequence (a character cut between tokens) as U+FFFD; StreamDecoder emits
// text as whole characters arrive, for streaming generation.
//
// A Tokenizer is safe for concurrent use.
package tokenizer

import (
	"unicode"
	"unicode/utf8"
)

// Tokenizer is a byte-level BPE tokenizer.
type Tokenizer struct {
	vocab  map[string]int // token (in its byte-level form, as in the files) → id; added tokens included
	tokens []string       // id → token; "" where no token has the id
	bytes  [][]byte       // id → the bytes it decodes to
	merges map[uint64]merge

	byteID   [256]int32   // id of the one-byte token of each byte, -1 if none
	fallback [256][]int32 // byte fallback: the "<0xXX>" ids of the UTF-8 bytes of a byte's rune, nil if one is missing
	rawVocab map[string]int32

	// The added tokens that split the text, matched in two passes as
	// Hugging Face does: first those with normalized false over the whole
	// text, then those with normalized true in the pieces between.
	added   [2]addedSet
	special []bool // id → special (skipped by DecodeSkipSpecial)

	addPrefixSpace bool
	useRegex       bool
	ignoreMerges   bool
	byteFallback   bool
	fuseUnk        bool
	unk            int32
	eos            int

	cache wordCache
}

// An addedToken is matched in the text before pre-tokenization and becomes
// its id whole (Hugging Face's AddedToken).
type addedToken struct {
	content                    string
	id                         int
	singleWord, lstrip, rstrip bool
	normalized, special        bool
}

// An addedSet is added tokens sorted by first byte, longest first among
// equals; tokens[at[c]:at[c+1]] start with byte c.
type addedSet struct {
	tokens []addedToken
	at     [257]int32
}

func newTokenizer() *Tokenizer {
	t := &Tokenizer{
		vocab:    map[string]int{},
		merges:   map[uint64]merge{},
		useRegex: true,
		unk:      -1,
		eos:      -1,
	}
	for i := range t.byteID {
		t.byteID[i] = -1
	}
	return t
}

// VocabSize is the number of ids: one more than the largest id of a token
// (model vocabulary and added tokens), the size of a model's embedding.
func (t *Tokenizer) VocabSize() int { return len(t.tokens) }

// TokenID returns the id of a token as the vocabulary writes it (byte-level
// form: "Ġthe" for " the") or of an added token ("<|endoftext|>").
func (t *Tokenizer) TokenID(tok string) (int, bool) {
	id, ok := t.vocab[tok]
	return id, ok
}

// Token returns the token of an id as the vocabulary writes it.
func (t *Tokenizer) Token(id int) (string, bool) {
	if id < 0 || id >= len(t.tokens) || t.bytes[id] == nil {
		return "", false
	}
	return t.tokens[id], true
}

// EOS returns the end-of-text token's id: the eos_token of
// tokenizer_config.json or special_tokens_map.json when Load found one,
// else <|endoftext|> (GPT-2's) when the vocabulary has it.
func (t *Tokenizer) EOS() (int, bool) {
	if t.eos >= 0 {
		return t.eos, true
	}
	return t.TokenID("<|endoftext|>")
}

// SpecialTokens returns the special added tokens and their ids.
func (t *Tokenizer) SpecialTokens() map[string]int {
	m := map[string]int{}
	for _, set := range t.added {
		for _, a := range set.tokens {
			if a.special {
				m[a.content] = a.id
			}
		}
	}
	return m
}

// IsSpecial reports whether id is a special token's.
func (t *Tokenizer) IsSpecial(id int) bool {
	return id >= 0 && id < len(t.special) && t.special[id]
}

// Encode returns the ids of text. Added tokens in the text (special tokens
// such as "<|endoftext|>" included) become their ids, as in Hugging Face's
// tokenizers; EncodeOrdinary treats them as plain text. Text that is not
// valid UTF-8 is encoded byte by byte like any other (each invalid byte
// pre-tokenizes as a symbol character).
func (t *Tokenizer) Encode(text string) []int {
	return t.encodeAdded(make([]int, 0, len(text)/3+1), text, 0)
}

// encodeAdded encodes text from added-token pass pass on.
func (t *Tokenizer) encodeAdded(out []int, text string, pass int) []int {
	if pass == len(t.added) {
		return t.encodeOrdinary(out, text)
	}
	set := &t.added[pass]
	if len(set.tokens) == 0 {
		return t.encodeAdded(out, text, pass+1)
	}
	start := 0
	for _, m := range set.find(text) {
		if m.start > start {
			out = t.encodeAdded(out, text[start:m.start], pass+1)
		}
		out = append(out, m.id)
		start = m.end
	}
	if start < len(text) {
		out = t.encodeAdded(out, text[start:], pass+1)
	}
	return out
}

// EncodeOrdinary returns the ids of text read as plain text: added tokens
// in it are not matched (Hugging Face's split_special_tokens).
func (t *Tokenizer) EncodeOrdinary(text string) []int {
	return t.encodeOrdinary(make([]int, 0, len(text)/3+1), text)
}

func (t *Tokenizer) encodeOrdinary(out []int, text string) []int {
	if text == "" {
		return out
	}
	if t.addPrefixSpace && text[0] != ' ' {
		text = " " + text
	}
	cache := t.cache.snapshot()
	if !t.useRegex {
		return t.encodeWord(out, text, &cache)
	}
	splitGPT2(text, func(piece string) { out = t.encodeWord(out, piece, &cache) })
	return out
}

// encodeWord appends the ids of one pre-tokenized piece, from the cache
// when it has them; *cache is the caller's snapshot of it, renewed on a
// miss.
func (t *Tokenizer) encodeWord(out []int, w string, cache *map[string][]int32) []int {
	ids, ok := (*cache)[w]
	if !ok && len(w) <= cacheWordLen {
		*cache, ids, ok = t.cache.lookup(w)
	}
	if ok {
		for _, id := range ids {
			out = append(out, int(id))
		}
		return out
	}
	n := len(out)
	out = t.bpe(out, w)
	if len(w) <= cacheWordLen {
		ids := make([]int32, len(out)-n)
		for i, id := range out[n:] {
			ids[i] = int32(id)
		}
		t.cache.add(w, ids)
	}
	return out
}

type span struct{ start, end, id int }

// find finds the added tokens in text as Hugging Face's
// AddedVocabulary does: leftmost-longest non-overlapping matches, less
// single-word tokens inside words, with lstrip and rstrip taking the
// whitespace before and after.
func (set *addedSet) find(text string) []span {
	var spans []span
	prevEnd := 0
	for i := 0; i < len(text); {
		if set.at[text[i]] == set.at[int(text[i])+1] {
			i++
			continue
		}
		a := set.match(text, i)
		if a == nil {
			i++
			continue
		}
		start, end := i, i+len(a.content)
		i = end
		if a.singleWord && ((start > 0 && endsWithWord(text[:start])) || (end < len(text) && startsWithWord(text[end:]))) {
			continue
		}
		if a.lstrip {
			s := start
			for s > 0 {
				r, w := utf8.DecodeLastRuneInString(text[:s])
				if !unicode.IsSpace(r) {
					break
				}
				s -= w
			}
			start = max(s, prevEnd)
		}
		if a.rstrip {
			for end < len(text) {
				r, w := utf8.DecodeRuneInString(text[end:])
				if !unicode.IsSpace(r) {
					break
				}
				end += w
			}
			i = max(i, end)
		}
		spans = append(spans, span{start, end, a.id})
		prevEnd = end
	}
	return spans
}

// match returns the longest added token at text[i:], or nil.
func (set *addedSet) match(text string, i int) *addedToken {
	c := text[i]
	for k := set.at[c]; k < set.at[int(c)+1]; k++ {
		a := &set.tokens[k]
		if len(text)-i >= len(a.content) && text[i:i+len(a.content)] == a.content {
			return a
		}
	}
	return nil
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || unicode.Is(unicode.Pc, r) || r == 0x200C || r == 0x200D ||
		unicode.Is(unicode.Other_Alphabetic, r) || unicode.Is(unicode.Nl, r)
}

func endsWithWord(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return isWordRune(r)
}

func startsWithWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isWordRune(r)
}

// Decode returns the text of ids: their bytes read as UTF-8, each invalid
// sequence (a character split between tokens, when ids end mid-character)
// as one U+FFFD, as Hugging Face does. Special tokens are included as
// their text; ids that are no token's are skipped.
func (t *Tokenizer) Decode(ids []int) string {
	return lossyString(t.appendBytes(nil, ids, false))
}

// DecodeSkipSpecial is Decode without the special tokens
// (skip_special_tokens=True).
func (t *Tokenizer) DecodeSkipSpecial(ids []int) string {
	return lossyString(t.appendBytes(nil, ids, true))
}

// DecodeBytes returns the raw bytes of ids, before UTF-8 validation.
func (t *Tokenizer) DecodeBytes(ids []int) []byte {
	return t.appendBytes(nil, ids, false)
}

func (t *Tokenizer) appendBytes(dst []byte, ids []int, skipSpecial bool) []byte {
	for _, id := range ids {
		if id < 0 || id >= len(t.bytes) || (skipSpecial && t.special[id]) {
			continue
		}
		dst = append(dst, t.bytes[id]...)
	}
	return dst
}

// StreamDecoder decodes ids one at a time, as a model generates them,
// returning text only as whole characters arrive: a character whose bytes
// span tokens is held until its last byte comes. The concatenation of
// everything Add and Flush return is Decode of all the ids.
type StreamDecoder struct {
	t           *Tokenizer
	pending     []byte
	skipSpecial bool
}

// NewStreamDecoder returns a StreamDecoder for t.
func (t *Tokenizer) NewStreamDecoder() *StreamDecoder { return &StreamDecoder{t: t} }

// SkipSpecial makes d leave special tokens out of the text.
func (d *StreamDecoder) SkipSpecial(skip bool) *StreamDecoder {
	d.skipSpecial = skip
	return d
}

// Add decodes more ids and returns the text that is now complete ("" when
// the ids end inside a character).
func (d *StreamDecoder) Add(ids ...int) string {
	d.pending = d.t.appendBytes(d.pending, ids, d.skipSpecial)
	keep := incompleteTail(d.pending)
	if keep == len(d.pending) {
		return ""
	}
	s := lossyString(d.pending[:len(d.pending)-keep])
	d.pending = append(d.pending[:0], d.pending[len(d.pending)-keep:]...)
	return s
}

// Flush returns what is held (an incomplete character, as U+FFFD) and
// empties d.
func (d *StreamDecoder) Flush() string {
	s := lossyString(d.pending)
	d.pending = d.pending[:0]
	return s
}
