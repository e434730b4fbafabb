package tokenizer

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzEncodeDecode checks on arbitrary text that encoding never panics,
// that decoding gives the text back (byte for byte; as a string when it is
// valid UTF-8), that the pre-tokenizer's pieces cover the text, and that
// the stream decoder's text equals Decode's.
func FuzzEncodeDecode(f *testing.F) {
	for _, s := range trickyLines {
		f.Add(s)
	}
	f.Add("hello world<|endoftext|>\xff\xe2\x82")
	tok := smallTokenizer(f)
	f.Fuzz(func(t *testing.T, s string) {
		var sb strings.Builder
		splitGPT2(s, func(p string) {
			if p == "" {
				t.Fatalf("empty piece of %q", s)
			}
			sb.WriteString(p)
		})
		if sb.String() != s {
			t.Fatalf("pieces of %q join to %q", s, sb.String())
		}
		ids := tok.Encode(s)
		if got := tok.DecodeBytes(ids); string(got) != s {
			t.Fatalf("DecodeBytes(Encode(%q)) = %q", s, got)
		}
		if got := tok.DecodeBytes(tok.EncodeOrdinary(s)); string(got) != s {
			t.Fatalf("DecodeBytes(EncodeOrdinary(%q)) = %q", s, got)
		}
		text := tok.Decode(ids)
		if utf8.ValidString(s) && text != s {
			t.Fatalf("Decode(Encode(%q)) = %q", s, text)
		}
		d := tok.NewStreamDecoder()
		sb.Reset()
		for _, id := range ids {
			sb.WriteString(d.Add(id))
		}
		sb.WriteString(d.Flush())
		if sb.String() != text {
			t.Fatalf("stream decode of %q = %q, Decode %q", s, sb.String(), text)
		}
		// The scan is quadratic (Encode uses it only on words of up to 48
		// bytes): compare it with the heap on inputs a fuzz run can finish.
		if len(s) > 1024 {
			return
		}
		w := make([]int32, len(s))
		for i := range s {
			w[i] = tok.byteID[s[i]]
		}
		if a, b := tok.mergeScan(slices.Clone(w)), tok.mergeHeap(slices.Clone(w)); len(w) > 0 && !slices.Equal(a, b) {
			t.Fatalf("merges of %q: scan %v, heap %v", s, a, b)
		}
	})
}

// FuzzLoad checks that the loaders never panic on arbitrary files, and
// that what they accept encodes and decodes without panicking.
func FuzzLoad(f *testing.F) {
	v, m := smallFiles()
	f.Add(v, m, false)
	f.Add([]byte(`{"a": 0, "b": 1, "ab": 2, "<|endoftext|>": 3}`), []byte("a b\n"), false)
	f.Add([]byte(`{"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": ["a b"], "ignore_merges": true, "unk_token": "a", "fuse_unk": true},
		"pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": true}, "added_tokens": [{"id": 5, "content": "<x>", "lstrip": true, "rstrip": true, "single_word": true, "special": true}]}`), []byte(nil), true)
	f.Add([]byte(`{"model": {"vocab": {"<0x41>": 0, "Ġ": 1}, "merges": [["Ġ", "Ġ"]], "byte_fallback": true}, "pre_tokenizer": {"type": "Sequence", "pretokenizers": [{"type": "ByteLevel", "use_regex": false}]}}`), []byte(nil), true)
	f.Fuzz(func(t *testing.T, a, b []byte, isJSON bool) {
		var tok *Tokenizer
		var err error
		if isJSON {
			tok, err = parseJSON("tokenizer.json", a)
		} else {
			tok, err = parseVocabMerges("vocab.json", a, "merges.txt", b)
		}
		if err != nil {
			if !strings.Contains(err.Error(), ".json") && !strings.Contains(err.Error(), "merges.txt") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, s := range []string{"", "ab ab  a\n<x> <|endoftext|>", string(b), "\xff\xfe AAA"} {
			ids := tok.Encode(s)
			for _, id := range ids {
				if id < 0 || id >= tok.VocabSize() {
					t.Fatalf("Encode(%q) gave id %d, vocabulary size %d", s, id, tok.VocabSize())
				}
			}
			_ = tok.Decode(append(ids, -1, 7, 1<<40))
			_ = tok.NewStreamDecoder().Add(ids...)
		}
	})
}
