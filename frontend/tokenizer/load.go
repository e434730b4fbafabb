package tokenizer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Load loads the tokenizer in a model directory: tokenizer.json when the
// directory has one, else vocab.json and merges.txt. The end-of-text token
// (EOS) is the eos_token of tokenizer_config.json or
// special_tokens_map.json when either names one.
func Load(dir string) (*Tokenizer, error) {
	var t *Tokenizer
	var err error
	if _, serr := os.Stat(filepath.Join(dir, "tokenizer.json")); serr == nil {
		t, err = LoadJSON(filepath.Join(dir, "tokenizer.json"))
	} else {
		v, m := filepath.Join(dir, "vocab.json"), filepath.Join(dir, "merges.txt")
		if _, serr := os.Stat(v); serr != nil {
			return nil, fmt.Errorf("tokenizer.Load: %s has neither tokenizer.json nor vocab.json and merges.txt", dir)
		}
		t, err = LoadVocabMerges(v, m)
	}
	if err != nil {
		return nil, err
	}
	for _, name := range []string{"tokenizer_config.json", "special_tokens_map.json"} {
		eos, err := readEOS(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		if eos == "" {
			continue
		}
		id, ok := t.TokenID(eos)
		if !ok {
			return nil, fmt.Errorf("tokenizer.Load: %s: eos_token %q is not in the vocabulary", filepath.Join(dir, name), eos)
		}
		t.eos = id
		break
	}
	return t, nil
}

// readEOS returns the eos_token a tokenizer_config.json or
// special_tokens_map.json names ("" when the file or the field is absent).
func readEOS(path string) (string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("tokenizer.Load: %w", err)
	}
	var f struct {
		EOS json.RawMessage `json:"eos_token"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return "", jsonError(path, data, err)
	}
	if len(f.EOS) == 0 || string(f.EOS) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(f.EOS, &s) == nil {
		return s, nil
	}
	var tok struct{ Content string }
	if err := json.Unmarshal(f.EOS, &tok); err != nil {
		return "", fmt.Errorf("tokenizer.Load: %s: eos_token is neither a string nor an object with a content string", path)
	}
	return tok.Content, nil
}

// LoadVocabMerges loads GPT-2's vocab.json (token → id) and merges.txt (one
// merge "a b" per line, in rank order, after an optional "#version" line).
// <|endoftext|>, when in the vocabulary, is a special token, as
// transformers' GPT2Tokenizer makes it.
func LoadVocabMerges(vocabPath, mergesPath string) (*Tokenizer, error) {
	vocab, err := os.ReadFile(vocabPath)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	merges, err := os.ReadFile(mergesPath)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	return parseVocabMerges(vocabPath, vocab, mergesPath, merges)
}

// parseVocabMerges is LoadVocabMerges of the files' contents.
func parseVocabMerges(vocabPath string, vocab []byte, mergesPath string, mergesData []byte) (*Tokenizer, error) {
	t := newTokenizer()
	if err := t.readVocab(vocabPath, vocab, ""); err != nil {
		return nil, err
	}
	var merges [][2]string
	var lines []int
	for n, line := range strings.Split(string(mergesData), "\n") {
		n++
		line = strings.TrimSuffix(line, "\r")
		if strings.HasPrefix(line, "#version") || line == "" {
			continue
		}
		a, b, ok := strings.Cut(line, " ")
		if !ok || a == "" || b == "" || strings.Contains(b, " ") {
			return nil, fmt.Errorf("tokenizer: %s:%d: merge %q is not two tokens separated by one space", mergesPath, n, line)
		}
		merges = append(merges, [2]string{a, b})
		lines = append(lines, n)
	}
	if err := t.setMerges(merges, func(i int) string { return fmt.Sprintf("%s:%d", mergesPath, lines[i]) }); err != nil {
		return nil, err
	}
	var added []addedToken
	if id, ok := t.vocab["<|endoftext|>"]; ok {
		added = append(added, addedToken{content: "<|endoftext|>", id: id, special: true})
	}
	if err := t.finish(added, vocabPath); err != nil {
		return nil, err
	}
	return t, nil
}

// hfFile is the part of a Hugging Face tokenizer.json that byte-level BPE
// reads.
type hfFile struct {
	AddedTokens []struct {
		ID         *int64 `json:"id"`
		Content    string `json:"content"`
		SingleWord bool   `json:"single_word"`
		LStrip     bool   `json:"lstrip"`
		RStrip     bool   `json:"rstrip"`
		Normalized bool   `json:"normalized"`
		Special    bool   `json:"special"`
	} `json:"added_tokens"`
	Normalizer    json.RawMessage `json:"normalizer"`
	PreTokenizer  json.RawMessage `json:"pre_tokenizer"`
	PostProcessor json.RawMessage `json:"post_processor"`
	Decoder       json.RawMessage `json:"decoder"`
	Model         *struct {
		Type                    string          `json:"type"`
		Dropout                 *float64        `json:"dropout"`
		UnkToken                *string         `json:"unk_token"`
		ContinuingSubwordPrefix *string         `json:"continuing_subword_prefix"`
		EndOfWordSuffix         *string         `json:"end_of_word_suffix"`
		FuseUnk                 bool            `json:"fuse_unk"`
		ByteFallback            bool            `json:"byte_fallback"`
		IgnoreMerges            bool            `json:"ignore_merges"`
		Vocab                   json.RawMessage `json:"vocab"`
		Merges                  json.RawMessage `json:"merges"`
	} `json:"model"`
}

type component struct {
	Type           string          `json:"type"`
	AddPrefixSpace *bool           `json:"add_prefix_space"`
	UseRegex       *bool           `json:"use_regex"`
	Pretokenizers  json.RawMessage `json:"pretokenizers"`
}

// LoadJSON loads a Hugging Face tokenizer.json of a byte-level BPE (GPT-2's,
// or one saved by tokenizers' ByteLevelBPETokenizer): model BPE, ByteLevel
// pre-tokenizer and decoder, no normalizer. Other pipelines are an error
// that names the part.
func LoadJSON(path string) (*Tokenizer, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	return parseJSON(path, data)
}

// parseJSON is LoadJSON of the file's contents.
func parseJSON(path string, data []byte) (*Tokenizer, error) {
	var f hfFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, jsonError(path, data, err)
	}
	bad := func(format string, a ...any) error {
		return fmt.Errorf("tokenizer: %s: %s", path, fmt.Sprintf(format, a...))
	}
	m := f.Model
	if m == nil {
		return nil, bad("no model")
	}
	if m.Type != "BPE" && !(m.Type == "" && len(m.Merges) > 0) {
		return nil, bad("model type %q is not supported (only BPE)", m.Type)
	}
	if m.Dropout != nil && *m.Dropout != 0 {
		return nil, bad("model.dropout %v is not supported (encoding would be random)", *m.Dropout)
	}
	if m.ContinuingSubwordPrefix != nil && *m.ContinuingSubwordPrefix != "" {
		return nil, bad("model.continuing_subword_prefix %q is not supported", *m.ContinuingSubwordPrefix)
	}
	if m.EndOfWordSuffix != nil && *m.EndOfWordSuffix != "" {
		return nil, bad("model.end_of_word_suffix %q is not supported", *m.EndOfWordSuffix)
	}
	if !isNull(f.Normalizer) {
		var c component
		_ = json.Unmarshal(f.Normalizer, &c)
		return nil, bad("normalizer %s is not supported (byte-level BPE has none)", describe(f.Normalizer, c))
	}
	t := newTokenizer()
	if err := t.readPreTokenizer(f.PreTokenizer, bad); err != nil {
		return nil, err
	}
	if !isNull(f.Decoder) {
		var c component
		if err := json.Unmarshal(f.Decoder, &c); err != nil || c.Type != "ByteLevel" {
			return nil, bad("decoder %s is not supported (only ByteLevel)", describe(f.Decoder, c))
		}
	}
	if !isNull(f.PostProcessor) {
		var c component
		if err := json.Unmarshal(f.PostProcessor, &c); err != nil || c.Type != "ByteLevel" {
			return nil, bad("post_processor %s is not supported (only ByteLevel, which adds no tokens)", describe(f.PostProcessor, c))
		}
	}
	t.ignoreMerges, t.byteFallback, t.fuseUnk = m.IgnoreMerges, m.ByteFallback, m.FuseUnk
	if len(m.Vocab) == 0 || isNull(m.Vocab) {
		return nil, bad("model.vocab is missing")
	}
	if err := t.readVocab(path, m.Vocab, "model.vocab: "); err != nil {
		return nil, err
	}
	var merges [][2]string
	if !isNull(m.Merges) {
		var raw []json.RawMessage
		if err := json.Unmarshal(m.Merges, &raw); err != nil {
			return nil, bad("model.merges is not a list")
		}
		for i, r := range raw {
			var s string
			var pair []string
			if json.Unmarshal(r, &s) == nil {
				a, b, ok := strings.Cut(s, " ")
				if !ok || a == "" || b == "" || strings.Contains(b, " ") {
					return nil, bad("model.merges[%d]: %q is not two tokens separated by one space", i, s)
				}
				merges = append(merges, [2]string{a, b})
			} else if json.Unmarshal(r, &pair) == nil && len(pair) == 2 {
				merges = append(merges, [2]string{pair[0], pair[1]})
			} else {
				return nil, bad("model.merges[%d]: %s is neither \"a b\" nor [\"a\", \"b\"]", i, truncate(string(r)))
			}
		}
	}
	if err := t.setMerges(merges, func(i int) string { return fmt.Sprintf("%s: model.merges[%d]", path, i) }); err != nil {
		return nil, err
	}
	if m.UnkToken != nil {
		id, ok := t.vocab[*m.UnkToken]
		if !ok {
			return nil, bad("model.unk_token %q is not in model.vocab", *m.UnkToken)
		}
		t.unk = int32(id)
	}
	var added []addedToken
	for i, a := range f.AddedTokens {
		if a.Content == "" {
			continue // Hugging Face ignores empty added tokens
		}
		if a.ID == nil {
			return nil, bad("added_tokens[%d] (%q) has no id", i, a.Content)
		}
		id := *a.ID
		if id < 0 || id > math.MaxInt32 {
			return nil, bad("added_tokens[%d] (%q): id %d is out of range", i, a.Content, id)
		}
		if vid, ok := t.vocab[a.Content]; ok && int64(vid) != id {
			return nil, bad("added_tokens[%d]: %q has id %d but model.vocab gives it %d", i, a.Content, id, vid)
		}
		added = append(added, addedToken{content: a.Content, id: int(id), singleWord: a.SingleWord, lstrip: a.LStrip, rstrip: a.RStrip, normalized: a.Normalized, special: a.Special})
	}
	if err := t.finish(added, path); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *Tokenizer) readPreTokenizer(raw json.RawMessage, bad func(string, ...any) error) error {
	if isNull(raw) {
		return bad("pre_tokenizer is null (byte-level BPE needs ByteLevel)")
	}
	var c component
	if err := json.Unmarshal(raw, &c); err != nil {
		return bad("pre_tokenizer is not an object")
	}
	if c.Type == "Sequence" {
		var list []json.RawMessage
		if err := json.Unmarshal(c.Pretokenizers, &list); err != nil || len(list) != 1 {
			return bad("pre_tokenizer Sequence is supported only with one ByteLevel")
		}
		return t.readPreTokenizer(list[0], bad)
	}
	if c.Type != "ByteLevel" {
		return bad("pre_tokenizer %s is not supported (only ByteLevel)", describe(raw, c))
	}
	t.addPrefixSpace = c.AddPrefixSpace != nil && *c.AddPrefixSpace
	t.useRegex = c.UseRegex == nil || *c.UseRegex
	return nil
}

// readVocab reads a JSON object of token → id, naming the file (and, for
// an error, the line or the entry).
func (t *Tokenizer) readVocab(path string, data []byte, where string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	fail := func(err error) error {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("tokenizer: %s: %sunexpected end of JSON", path, where)
		}
		if where == "" {
			return jsonError(path, data, err)
		}
		return fmt.Errorf("tokenizer: %s: %s%v", path, where, err)
	}
	tok, err := dec.Token()
	if err != nil {
		return fail(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("tokenizer: %s: %sthe vocabulary is not a JSON object of token → id", path, where)
	}
	byID := map[int]string{}
	for dec.More() {
		off := dec.InputOffset()
		kt, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		key, _ := kt.(string)
		vt, err := dec.Token()
		if err != nil {
			return fail(err)
		}
		loc := fmt.Sprintf("%s%sentry %q", lineOf(data, off, where == ""), where, key)
		num, ok := vt.(json.Number)
		if !ok {
			return fmt.Errorf("tokenizer: %s: %s: the id is not a number", path, loc)
		}
		id, err := num.Int64()
		if err != nil || id < 0 || id > math.MaxInt32 {
			return fmt.Errorf("tokenizer: %s: %s: id %s is not an integer in [0, 2^31)", path, loc, num)
		}
		if _, dup := t.vocab[key]; dup {
			return fmt.Errorf("tokenizer: %s: %s: the token appears twice", path, loc)
		}
		if other, dup := byID[int(id)]; dup {
			return fmt.Errorf("tokenizer: %s: %s: id %d is also token %q's", path, loc, id, other)
		}
		byID[int(id)] = key
		t.vocab[key] = int(id)
	}
	if _, err := dec.Token(); err != nil {
		return fail(err)
	}
	if where == "" {
		if _, err := dec.Token(); err != io.EOF {
			return fmt.Errorf("tokenizer: %s: data after the vocabulary object", path)
		}
	}
	return nil
}

// setMerges resolves merges (in rank order) to ids; at(i) names merge i's
// place in its file for errors.
func (t *Tokenizer) setMerges(merges [][2]string, at func(int) string) error {
	for i, m := range merges {
		a, ok := t.vocab[m[0]]
		if !ok {
			return fmt.Errorf("tokenizer: %s: merge %q: %q is not in the vocabulary", at(i), m[0]+" "+m[1], m[0])
		}
		b, ok := t.vocab[m[1]]
		if !ok {
			return fmt.Errorf("tokenizer: %s: merge %q: %q is not in the vocabulary", at(i), m[0]+" "+m[1], m[1])
		}
		ab, ok := t.vocab[m[0]+m[1]]
		if !ok {
			return fmt.Errorf("tokenizer: %s: merge %q: the merged token %q is not in the vocabulary", at(i), m[0]+" "+m[1], m[0]+m[1])
		}
		// A repeated pair keeps its last rank, as in Hugging Face's and
		// GPT-2's dictionaries.
		t.merges[pairKey(int32(a), int32(b))] = merge{rank: int32(i), id: int32(ab)}
	}
	return nil
}

// finish adds the added tokens and builds the id tables.
func (t *Tokenizer) finish(added []addedToken, path string) error {
	byID := make(map[int]string, len(t.vocab))
	for tok, id := range t.vocab {
		byID[id] = tok
	}
	if t.ignoreMerges {
		// The model's vocabulary by bytes: a piece that is a token whole
		// is that token (Hugging Face's ignore_merges).
		t.rawVocab = map[string]int32{}
		for tok, id := range t.vocab {
			if b, ok := byteLevelBytes(tok); ok {
				t.rawVocab[string(b)] = int32(id)
			}
		}
	}
	for _, a := range added {
		if other, ok := t.vocab[a.content]; ok {
			if other != a.id {
				return fmt.Errorf("tokenizer: %s: added token %q has id %d and %d", path, a.content, a.id, other)
			}
			continue
		}
		if tok, ok := byID[a.id]; ok {
			return fmt.Errorf("tokenizer: %s: added token %q has id %d, token %q's", path, a.content, a.id, tok)
		}
		t.vocab[a.content] = a.id
		byID[a.id] = a.content
	}
	n := 0
	for _, id := range t.vocab {
		n = max(n, id+1)
	}
	if n > 1<<26 {
		return fmt.Errorf("tokenizer: %s: the largest id, %d, is implausibly large", path, n-1)
	}
	t.tokens = make([]string, n)
	t.bytes = make([][]byte, n)
	t.special = make([]bool, n)
	for tok, id := range t.vocab {
		t.tokens[id] = tok
		t.bytes[id] = tokenBytes(tok)
	}
	for b := 0; b < 256; b++ {
		if id, ok := t.vocab[string(byteRune[b])]; ok {
			t.byteID[b] = int32(id)
		}
		var seq []int32
		for _, c := range []byte(string(byteRune[b])) {
			id, ok := t.vocab[fmt.Sprintf("<0x%02X>", c)]
			if !ok {
				seq = nil
				break
			}
			seq = append(seq, int32(id))
		}
		t.fallback[b] = seq
	}
	seen := map[string]bool{}
	for _, a := range added {
		if seen[a.content] {
			continue
		}
		seen[a.content] = true
		pass := 0
		if a.normalized {
			pass = 1
		}
		t.added[pass].tokens = append(t.added[pass].tokens, a)
		if a.special {
			t.special[a.id] = true
		}
	}
	for k := range t.added {
		set := &t.added[k]
		sort.SliceStable(set.tokens, func(i, j int) bool {
			a, b := set.tokens[i].content, set.tokens[j].content
			if a[0] != b[0] {
				return a[0] < b[0]
			}
			return len(a) > len(b)
		})
		for c := 0; c < 256; c++ {
			set.at[c+1] = set.at[c]
			for int(set.at[c+1]) < len(set.tokens) && set.tokens[set.at[c+1]].content[0] == byte(c) {
				set.at[c+1]++
			}
		}
	}
	return nil
}

func isNull(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s == "" || s == "null"
}

func describe(raw json.RawMessage, c component) string {
	if c.Type != "" {
		return fmt.Sprintf("%q", c.Type)
	}
	return truncate(string(raw))
}

func truncate(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// lineOf returns "line N: " for a byte offset in data when lines is true.
func lineOf(data []byte, off int64, lines bool) string {
	if !lines {
		return ""
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n,", data[off]) >= 0 {
		off++
	}
	return fmt.Sprintf("line %d: ", 1+bytes.Count(data[:off], []byte("\n")))
}

// jsonError names the file and the line of a JSON decoding error.
func jsonError(path string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("tokenizer: %s: %sinvalid JSON: %v", path, lineOf(data, syn.Offset, true), err)
	case errors.As(err, &typ):
		return fmt.Errorf("tokenizer: %s: %sfield %q: JSON %s where %s was expected", path, lineOf(data, typ.Offset, true), typ.Field, typ.Value, typ.Type)
	}
	return fmt.Errorf("tokenizer: %s: %v", path, err)
}
