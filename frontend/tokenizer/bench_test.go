package tokenizer

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var bench struct {
	once sync.Once
	tok  *Tokenizer
	text string
	hf   struct {
		EncodeMBps      float64 `json:"encode_mbps"`
		EncodeBatchMBps float64 `json:"encode_batch_mbps"`
		Tokens          int     `json:"tokens"`
	}
	err string
}

// benchSetup trains a byte-level BPE (vocabulary 16,000) with Hugging
// Face's tokenizers on Go's sources and has it time its own encoding of the
// benchmark text (10,000 lines of other text, about 320 KB), so that
// BenchmarkEncode prints the two side by side.
func benchSetup(b *testing.B) {
	bench.once.Do(func() {
		if os.Getenv("STELA_HF_PYTHONPATH") == "" {
			bench.err = "set STELA_HF_PYTHONPATH (tokenizers) to run the encode benchmark"
			return
		}
		dir, err := os.MkdirTemp("", "stela-tokenizer-bench")
		if err != nil {
			bench.err = err.Error()
			return
		}
		defer os.RemoveAll(dir)
		bench.text = strings.Join(evalLines(b, 10000), "\n")
		job, _ := json.Marshal(map[string]any{
			"train_files": trainingFiles(b, 1<<20), "vocab_size": 16000, "out_dir": dir, "text": bench.text,
		})
		cmd := hfPythonCmd(filepath.Join("testdata", "hf_bench.py"))
		cmd.Stdin = bytes.NewReader(job)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			bench.err = "hf_bench.py: " + err.Error() + "\n" + stderr.String()
			return
		}
		if err := json.Unmarshal(out, &bench.hf); err != nil {
			bench.err = err.Error()
			return
		}
		bench.tok, err = LoadJSON(filepath.Join(dir, "tokenizer.json"))
		if err != nil {
			bench.err = err.Error()
		}
	})
	if bench.err != "" {
		b.Skip(bench.err)
	}
}

// BenchmarkEncode encodes the same text with this package (cache warm, and
// cold: a fresh word cache each time) and reports Hugging Face tokenizers'
// throughput on it (Rust; encode of the text as one string, on one thread,
// and encode_batch of its lines, on all cores), measured by Python in
// benchSetup: compare the MB/s columns.
func BenchmarkEncode(b *testing.B) {
	benchSetup(b)
	tok, text := bench.tok, bench.text
	if n := len(tok.Encode(text)); n != bench.hf.Tokens {
		b.Fatalf("%d tokens, Hugging Face %d", n, bench.hf.Tokens)
	}
	b.Run("stela", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			tok.Encode(text)
		}
	})
	b.Run("stela-cold", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			b.StopTimer()
			tok.cache.Clear()
			tok.cacheCount.Store(0)
			b.StartTimer()
			tok.Encode(text)
		}
	})
	report := func(name string, mbps float64) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
			}
			b.ReportMetric(0, "ns/op")
			b.ReportMetric(mbps, "MB/s")
		})
	}
	report("hf-tokenizers", bench.hf.EncodeMBps)
	report("hf-tokenizers-batch", bench.hf.EncodeBatchMBps)
}

// BenchmarkDecode decodes the benchmark text's ids.
func BenchmarkDecode(b *testing.B) {
	benchSetup(b)
	ids := bench.tok.Encode(bench.text)
	b.SetBytes(int64(len(bench.text)))
	for b.Loop() {
		bench.tok.Decode(ids)
	}
}
