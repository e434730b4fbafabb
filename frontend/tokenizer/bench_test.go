package tokenizer

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var bench struct {
	once sync.Once
	tok  *Tokenizer
	text string
	hf   struct {
		in     io.Writer
		out    *bufio.Reader
		tokens int
	}
	err string
}

// benchSetup has Python train a byte-level BPE (vocabulary 16,000) with
// Hugging Face's tokenizers on Go's sources, loads it, and keeps the Python
// process to time tokenizers' encoding of the benchmark text (10,000 lines
// of other text, about 320 KB) on request.
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
		cmd.Stderr = os.Stderr
		in, err := cmd.StdinPipe()
		if err != nil {
			bench.err = err.Error()
			return
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			bench.err = err.Error()
			return
		}
		if err := cmd.Start(); err != nil {
			bench.err = err.Error()
			return
		}
		// The process ends when the test binary does (its stdin closes).
		bench.hf.in, bench.hf.out = in, bufio.NewReader(out)
		fmt.Fprintf(in, "%s\n", job)
		line, err := bench.hf.out.ReadString('\n')
		var first struct{ Tokens int }
		if err != nil || json.Unmarshal([]byte(line), &first) != nil {
			bench.err = fmt.Sprintf("hf_bench.py: %v %q", err, line)
			return
		}
		bench.hf.tokens = first.Tokens
		bench.tok, err = LoadJSON(filepath.Join(dir, "tokenizer.json"))
		if err != nil {
			bench.err = err.Error()
		}
	})
	if bench.err != "" {
		b.Skip(bench.err)
	}
}

// hfMBps has the Python process time tokenizers' "encode" or "batch": MB
// per second of wall time and of the process's CPU time.
func hfMBps(b *testing.B, what string) (wall, cpu float64) {
	fmt.Fprintln(bench.hf.in, what)
	line, err := bench.hf.out.ReadString('\n')
	if err != nil {
		b.Fatalf("hf_bench.py: %v", err)
	}
	f := strings.Fields(line)
	if len(f) != 2 {
		b.Fatalf("hf_bench.py: %q", line)
	}
	wall, err1 := strconv.ParseFloat(f[0], 64)
	cpu, err2 := strconv.ParseFloat(f[1], 64)
	if err1 != nil || err2 != nil {
		b.Fatalf("hf_bench.py: %q", line)
	}
	return wall, cpu
}

// cpuTimer measures the CPU time of the benchmark's OS thread (the
// goroutine locked to it), less disturbed than wall time when other jobs
// load the machine; on systems without per-thread CPU time it reports
// nothing.
type cpuTimer struct {
	start, paused time.Duration
}

func cpuMeter(b *testing.B) *cpuTimer {
	runtime.LockOSThread()
	b.Cleanup(runtime.UnlockOSThread)
	return &cpuTimer{start: threadCPU()}
}

func (c *cpuTimer) pause()  { c.paused = threadCPU() }
func (c *cpuTimer) resume() { c.start += threadCPU() - c.paused }

// report adds cpu-MB/s, bytes per op over CPU time per op.
func (c *cpuTimer) report(b *testing.B, bytes int) {
	d := threadCPU() - c.start
	if d > 0 && c.start > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/d.Seconds()/1e6, "cpu-MB/s")
	}
}

// BenchmarkEncode encodes the same text with this package (word cache warm,
// and cold: a fresh cache each time) and with Hugging Face's tokenizers
// (Rust, timed by the Python process right then: encode of the text as one
// string, on one thread, and encode_batch of its lines, on all cores).
// Compare the MB/s columns (wall time), or cpu-MB/s (CPU time: of the
// encoding thread for Stela, of the Python process for tokenizers) on a
// loaded machine; with -count N each is measured N times.
func BenchmarkEncode(b *testing.B) {
	benchSetup(b)
	tok, text := bench.tok, bench.text
	if n := len(tok.Encode(text)); n != bench.hf.tokens {
		b.Fatalf("%d tokens, Hugging Face %d", n, bench.hf.tokens)
	}
	b.Run("stela", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		cpu := cpuMeter(b)
		for b.Loop() {
			tok.Encode(text)
		}
		cpu.report(b, len(text))
	})
	b.Run("stela-cold", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		cpu := cpuMeter(b)
		for b.Loop() {
			b.StopTimer()
			cpu.pause()
			tok.cache.reset()
			cpu.resume()
			b.StartTimer()
			tok.Encode(text)
		}
		cpu.report(b, len(text))
	})
	for _, c := range []struct{ name, what string }{{"hf-tokenizers", "encode"}, {"hf-tokenizers-batch", "batch"}} {
		b.Run(c.name, func(b *testing.B) {
			var mbps, cpuMBps float64
			for b.Loop() {
				mbps, cpuMBps = hfMBps(b, c.what)
			}
			b.ReportMetric(0, "ns/op")
			b.ReportMetric(mbps, "MB/s")
			b.ReportMetric(cpuMBps, "cpu-MB/s")
		})
	}
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
