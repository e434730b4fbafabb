package tokenizer

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// smallFiles returns a vocab.json and merges.txt of a small byte-level BPE:
// the 256 byte tokens (id = byte), a few merges, and <|endoftext|>.
func smallFiles() (vocab, merges []byte) {
	v := map[string]int{}
	for b := 0; b < 256; b++ {
		v[string(byteRune[b])] = b
	}
	ms := []string{"Ġ t", "h e", "Ġt he", "i n", "Ġ a", "Ġa n", "Ġan d", "e r", "l l", "e ll", "h ell", "he ll", "hell o", "Ġ w", "o r", "Ġw or", "l d", "Ġwor ld", "Ċ Ċ", "Ġ Ġ", "ĠĠ ĠĠ", "ä ½", "Ã ©"}
	// Merged tokens get ids in merge order; "hell" is made by the first of
	// two merges that would make it.
	for _, m := range ms {
		a, b, _ := strings.Cut(m, " ")
		if _, ok := v[a+b]; !ok {
			v[a+b] = len(v)
		}
	}
	v["<|endoftext|>"] = len(v)
	vocab, _ = json.MarshalIndent(v, "", "  ")
	return vocab, []byte("#version: 0.2\n" + strings.Join(ms, "\n") + "\n")
}

func smallTokenizer(t testing.TB) *Tokenizer {
	v, m := smallFiles()
	tok, err := parseVocabMerges("vocab.json", v, "merges.txt", m)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func pieces(s string) []string {
	var out []string
	splitGPT2(s, func(p string) { out = append(out, p) })
	return out
}

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"Hello world", []string{"Hello", " world"}},
		{"  a", []string{" ", " a"}},
		{"a  \n", []string{"a", "  \n"}},
		{"x\n\ny", []string{"x", "\n", "\n", "y"}},
		{"x \ty", []string{"x", " ", "\t", "y"}},
		{"I'm he'll 'LL", []string{"I", "'m", " he", "'ll", " '", "LL"}},
		{"it'sgood", []string{"it", "'s", "good"}},
		{"a!'s", []string{"a", "!'", "s"}},
		{"3.14 ab12", []string{"3", ".", "14", " ab", "12"}},
		{" !!", []string{" !!"}},
		{"naïve 日本語", []string{"naïve", " 日本語"}},
		{"e\u0301", []string{"e", "\u0301"}},
		{"x\u00a0y", []string{"x", "\u00a0", "y"}},
		{"a \xff\xfe b", []string{"a", " \xff\xfe", " b"}},
		{"", nil},
		{"   ", []string{"   "}},
	} {
		if got := pieces(c.in); !slices.Equal(got, c.want) {
			t.Errorf("split %q = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestByteLevel(t *testing.T) {
	if byteRune[' '] != 'Ġ' || byteRune['\n'] != 'Ċ' || byteRune['a'] != 'a' || byteRune[0xAD] != 'Ń' {
		t.Errorf("byte runes: %q %q %q %q", byteRune[' '], byteRune['\n'], byteRune['a'], byteRune[0xAD])
	}
	seen := map[rune]bool{}
	for _, r := range byteRune {
		if seen[r] {
			t.Fatalf("rune %q stands for two bytes", r)
		}
		seen[r] = true
	}
	if got := byteLevel(" hé\n"); got != "ĠhÃ©Ċ" {
		t.Errorf("byteLevel = %q", got)
	}
}

// TestLossy checks the replacement of ill-formed UTF-8: one U+FFFD per
// maximal ill-formed subsequence, as Python's and Rust's decoders do.
func TestLossy(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"abc", "abc"},
		{"\xe2\x82", "\uFFFD"},
		{"\xe2\x82a", "\uFFFDa"},
		{"\xe2\x82\xac", "€"},
		{"\xff\xfe", "\uFFFD\uFFFD"},
		{"\xc0\xaf", "\uFFFD\uFFFD"},
		{"\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD"}, // a surrogate
		{"\xf0\x9f\x99", "\uFFFD"},
		{"\xf0\x9f\x99\x82", "🙂"},
		{"\xf4\x90\x80\x80", "\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"\x80a", "\uFFFDa"},
	} {
		if got := string(appendLossy(nil, []byte(c.in))); got != c.want {
			t.Errorf("lossy %q = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestEncodeDecode(t *testing.T) {
	tok := smallTokenizer(t)
	id := func(s string) int {
		i, ok := tok.TokenID(s)
		if !ok {
			t.Fatalf("no token %q", s)
		}
		return i
	}
	for _, c := range []struct {
		in   string
		want []int
	}{
		{"hello world", []int{id("hello"), id("Ġworld")}},
		{" the and", []int{id("Ġthe"), id("Ġand")}},
		{"<|endoftext|>the", []int{id("<|endoftext|>"), 't', id("he")}},
		{"é", []int{id("Ã©")}},
		{"     x", []int{id("ĠĠĠĠ"), id("Ġ"), 'x'}},
	} {
		if got := tok.Encode(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Encode(%q) = %v, want %v", c.in, got, c.want)
		}
	}
	if got := tok.EncodeOrdinary("<|endoftext|>"); len(got) < 5 || slices.Contains(got, id("<|endoftext|>")) {
		t.Errorf("EncodeOrdinary matched the special token: %v", got)
	}
	if eos, ok := tok.EOS(); !ok || eos != id("<|endoftext|>") || !tok.IsSpecial(eos) {
		t.Errorf("EOS = %d, %v", eos, ok)
	}
	for _, s := range []string{"", "hello world", "  a\n\n b", "日本語 🙂 <|endoftext|> x", "\xff\x00bad"} {
		if got := tok.DecodeBytes(tok.Encode(s)); string(got) != s {
			t.Errorf("round trip of %q: %q", s, got)
		}
	}
	ids := tok.Encode("a<|endoftext|>b")
	if got := tok.DecodeSkipSpecial(ids); got != "ab" {
		t.Errorf("DecodeSkipSpecial = %q", got)
	}
	if got := tok.Decode([]int{-1, 1 << 30, 'a'}); got != "a" {
		t.Errorf("Decode of unknown ids = %q", got)
	}
	if got := tok.Decode(tok.Encode("日")[:1]); got != "\uFFFD" {
		t.Errorf("Decode of a cut character = %q", got)
	}
}

// TestStreamDecoder checks that streaming text equals Decode of all the ids
// and that nothing is emitted mid-character.
func TestStreamDecoder(t *testing.T) {
	tok := smallTokenizer(t)
	rng := rand.New(rand.NewSource(1))
	texts := []string{"hello 日本語 🙂 world", "é\xff\xe2\x82x", "\xf0\x9f\x99"}
	for i := 0; i < 300; i++ {
		b := make([]byte, rng.Intn(12))
		for j := range b {
			b[j] = byte(rng.Intn(256))
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		ids := tok.Encode(s)
		d := tok.NewStreamDecoder()
		var sb strings.Builder
		for _, id := range ids {
			out := d.Add(id)
			if !utf8.ValidString(out) {
				t.Fatalf("stream of %q emitted invalid %q", s, out)
			}
			sb.WriteString(out)
		}
		sb.WriteString(d.Flush())
		if want := tok.Decode(ids); sb.String() != want {
			t.Errorf("stream of %q = %q, Decode %q", s, sb.String(), want)
		}
	}
	d := tok.NewStreamDecoder()
	ids := tok.Encode("🙂")
	for i, id := range ids {
		if out := d.Add(id); (i < len(ids)-1) != (out == "") {
			t.Errorf("token %d of 🙂: %q", i, out)
		}
	}
}

// TestMergeHeap checks the long-word merge (priority queue) against the
// short-word one (scan) on random words.
func TestMergeHeap(t *testing.T) {
	tok := smallTokenizer(t)
	rng := rand.New(rand.NewSource(2))
	alphabet := []byte("thelowrdian \n\xc3\xa9\xe4\xbd")
	for i := 0; i < 2000; i++ {
		w := make([]int32, 1+rng.Intn(80))
		for j := range w {
			w[j] = tok.byteID[alphabet[rng.Intn(len(alphabet))]]
		}
		a := tok.mergeScan(slices.Clone(w))
		b := tok.mergeHeap(slices.Clone(w))
		if !slices.Equal(a, b) {
			t.Fatalf("word %v: scan %v, heap %v", w, a, b)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	v, m := smallFiles()
	for _, c := range []struct {
		name, vocab, merges, want string
	}{
		{"syntax", "{\n\"a\": 1,\n\"b\" 2}", "", `vocab.json: line 3: invalid JSON`},
		{"not object", `[1, 2]`, "", "vocab.json: the vocabulary is not a JSON object"},
		{"negative id", "{\n\"a\": 0,\n\"b\": -2}", "", `vocab.json: line 3: entry "b": id -2 is not an integer`},
		{"fraction", `{"a": 1.5}`, "", `entry "a": id 1.5`},
		{"string id", `{"a": "x"}`, "", `entry "a": the id is not a number`},
		{"duplicate token", `{"a": 0, "a": 1}`, "", `entry "a": the token appears twice`},
		{"duplicate id", `{"a": 0, "b": 0}`, "", `entry "b": id 0 is also token "a"'s`},
		{"truncated", `{"a": 0,`, "", "unexpected end of JSON"},
		{"trailing", `{"a": 0} {}`, "", "data after the vocabulary"},
		{"merge fields", "", "#version: 0.2\nĠ t\nh e x\n", "merges.txt:3: merge \"h e x\" is not two tokens"},
		{"merge one", "", "Ġ t\nhe\n", "merges.txt:2: merge \"he\""},
		{"merge unknown", "", "Ġ t\nq zz\n", `merges.txt:2: merge "q zz": "zz" is not in the vocabulary`},
		{"merge result", `{"a": 0, "b": 1}`, "a b\n", `merges.txt:1: merge "a b": the merged token "ab" is not in the vocabulary`},
	} {
		vocab, merges := v, m
		if c.vocab != "" {
			vocab = []byte(c.vocab)
		}
		if c.merges != "" {
			merges = []byte(c.merges)
		}
		_, err := parseVocabMerges("vocab.json", vocab, "merges.txt", merges)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.name, err, c.want)
		}
	}

	good := func() map[string]any {
		var vocab map[string]int
		json.Unmarshal(v, &vocab)
		return map[string]any{
			"added_tokens":  []any{map[string]any{"id": vocab["<|endoftext|>"], "content": "<|endoftext|>", "special": true}},
			"normalizer":    nil,
			"pre_tokenizer": map[string]any{"type": "ByteLevel", "add_prefix_space": false},
			"decoder":       map[string]any{"type": "ByteLevel"},
			"model":         map[string]any{"type": "BPE", "vocab": vocab, "merges": []string{"Ġ t", "h e"}},
		}
	}
	if _, err := parseJSON("tokenizer.json", mustJSON(good())); err != nil {
		t.Fatalf("good tokenizer.json: %v", err)
	}
	for _, c := range []struct {
		name   string
		modify func(map[string]any)
		want   string
	}{
		{"model type", func(f map[string]any) { f["model"].(map[string]any)["type"] = "WordPiece" }, `model type "WordPiece" is not supported`},
		{"no model", func(f map[string]any) { delete(f, "model") }, "no model"},
		{"normalizer", func(f map[string]any) { f["normalizer"] = map[string]any{"type": "NFC"} }, `normalizer "NFC" is not supported`},
		{"pre_tokenizer", func(f map[string]any) { f["pre_tokenizer"] = map[string]any{"type": "Whitespace"} }, `pre_tokenizer "Whitespace" is not supported`},
		{"decoder", func(f map[string]any) { f["decoder"] = map[string]any{"type": "WordPiece"} }, `decoder "WordPiece" is not supported`},
		{"merge", func(f map[string]any) { f["model"].(map[string]any)["merges"] = []any{"Ġ t", 7} }, "model.merges[1]: 7 is neither"},
		{"merge vocab", func(f map[string]any) { f["model"].(map[string]any)["merges"] = []any{"Ġ t", []string{"x", "zz"}} }, `model.merges[1]: merge "x zz": "zz" is not in the vocabulary`},
		{"vocab id", func(f map[string]any) { f["model"].(map[string]any)["vocab"] = map[string]any{"a": -1} }, `model.vocab: entry "a": id -1`},
		{"added id", func(f map[string]any) {
			f["added_tokens"] = []any{map[string]any{"id": 3, "content": "<|endoftext|>"}}
		}, `"<|endoftext|>" has id 3 but model.vocab gives it`},
		{"added clash", func(f map[string]any) {
			f["added_tokens"] = []any{map[string]any{"id": 3, "content": "<new>"}}
		}, `added token "<new>" has id 3, token`},
		{"dropout", func(f map[string]any) { f["model"].(map[string]any)["dropout"] = 0.1 }, "dropout"},
		{"unk", func(f map[string]any) { f["model"].(map[string]any)["unk_token"] = "<unk>" }, `unk_token "<unk>" is not in model.vocab`},
	} {
		f := good()
		c.modify(f)
		_, err := parseJSON("tokenizer.json", mustJSON(f))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "tokenizer.json") {
			t.Errorf("%s: error %v, want it to name the file and contain %q", c.name, err, c.want)
		}
	}
	if _, err := parseJSON("tokenizer.json", []byte("{\n\"model\": {\n\"type\": 5}}")); err == nil || !strings.Contains(err.Error(), "tokenizer.json: line 3") {
		t.Errorf("type error: %v", err)
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// TestLoad loads a directory each way and reads eos_token from
// tokenizer_config.json.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	v, m := smallFiles()
	os.WriteFile(filepath.Join(dir, "vocab.json"), v, 0o644)
	os.WriteFile(filepath.Join(dir, "merges.txt"), m, 0o644)
	tok, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := tok.Encode("hello world<|endoftext|>")
	os.WriteFile(filepath.Join(dir, "tokenizer_config.json"), []byte(`{"eos_token": {"content": "ĠĠ", "special": true}}`), 0o644)
	tok2, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if eos, _ := tok2.EOS(); eos != tok2.vocab["ĠĠ"] {
		t.Errorf("EOS from tokenizer_config.json = %d", eos)
	}
	os.WriteFile(filepath.Join(dir, "tokenizer_config.json"), []byte(`{"eos_token": "<nope>"}`), 0o644)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), `eos_token "<nope>" is not in the vocabulary`) {
		t.Errorf("bad eos_token: %v", err)
	}
	os.Remove(filepath.Join(dir, "tokenizer_config.json"))
	if got := tok2.Encode("hello world<|endoftext|>"); !slices.Equal(got, want) {
		t.Errorf("ids %v, want %v", got, want)
	}
	if _, err := Load(t.TempDir()); err == nil || !strings.Contains(err.Error(), "neither tokenizer.json nor vocab.json") {
		t.Errorf("empty dir: %v", err)
	}
	if _, err := LoadVocabMerges(filepath.Join(dir, "vocab.json"), filepath.Join(dir, "nope.txt")); err == nil || !strings.Contains(err.Error(), "nope.txt") {
		t.Errorf("missing merges: %v", err)
	}
}

// TestConcurrent encodes from several goroutines at once (run with -race).
func TestConcurrent(t *testing.T) {
	tok := smallTokenizer(t)
	texts := append([]string{}, trickyLines...)
	want := make([][]int, len(texts))
	ref := smallTokenizer(t)
	for i, s := range texts {
		want[i] = ref.Encode(s)
	}
	done := make(chan error)
	for g := 0; g < 4; g++ {
		go func(g int) {
			for k := 0; k < 20; k++ {
				for i := range texts {
					j := (i + g*7 + k) % len(texts)
					if got := tok.Encode(texts[j]); !slices.Equal(got, want[j]) {
						done <- fmt.Errorf("goroutine %d: Encode(%q) = %v, want %v", g, texts[j], got, want[j])
						return
					}
				}
			}
			done <- nil
		}(g)
	}
	for g := 0; g < 4; g++ {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
