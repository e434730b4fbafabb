package progress

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"
)

// clock is a fake clock that the test moves.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }
func newClock() *clock                   { return &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)} }
func opts(c *clock, total int) Options   { return Options{Label: "train", Total: total, Now: c.now} }
func mustNew(t *testing.T, b *bytes.Buffer, m Mode, o Options) *Bar {
	t.Helper()
	bar, err := New(b, m, o)
	if err != nil {
		t.Fatal(err)
	}
	return bar
}

// TestPlainLines: off a terminal (a buffer is not one), lines come after
// the first step, every Every, and at the end, with no control
// characters; rates and ETA count from the first step's end.
func TestPlainLines(t *testing.T) {
	var out bytes.Buffer
	c := newClock()
	o := opts(c, 100)
	o.Every = 10 * time.Second
	bar := mustNew(t, &out, "auto", o)
	c.advance(3 * time.Second) // the first step compiles
	bar.Step(1, 2.5, 256)
	for s := 2; s <= 100; s++ {
		c.advance(time.Second / 4) // 1024 examples/s
		bar.Step(s, 2.5, 256)
	}
	bar.Done()
	got := out.String()
	want := "train: step 1/100 (1%), loss 2.5, first step took 3.0s\n" +
		"train: step 41/100 (41%), loss 2.5, 1024 examples/s, ETA 15s\n" +
		"train: step 81/100 (81%), loss 2.5, 1024 examples/s, ETA 4.8s\n" +
		"train: step 100/100 (100%), loss 2.5, 1024 examples/s, took 28s\n"
	if got != want {
		t.Errorf("plain lines:\n%s\nwant:\n%s", got, want)
	}
	if strings.ContainsAny(got, "\r\x1b") {
		t.Errorf("plain lines hold control characters: %q", got)
	}
}

// TestTerminalLine: on a terminal the line is redrawn in place at most
// ten times a second, fits the width, and Done ends it with a newline;
// Printf puts a line above it.
func TestTerminalLine(t *testing.T) {
	var out bytes.Buffer
	c := newClock()
	o := opts(c, 10)
	o.Width = 100
	bar := mustNew(t, &out, "auto", o)
	bar.opts.Terminal = true // a buffer is no terminal; force it
	c.advance(time.Second)
	bar.Step(1, 1, 100)
	c.advance(50 * time.Millisecond)
	bar.Step(2, 1, 100) // too soon: not drawn
	if n := strings.Count(out.String(), "\r"); n != 1 {
		t.Errorf("%d draws after 2 steps 50 ms apart, want 1: %q", n, out.String())
	}
	bar.Printf("eval accuracy %.2f", 0.5)
	for s := 3; s <= 10; s++ {
		c.advance(100 * time.Millisecond)
		bar.Step(s, 1, 100)
	}
	bar.Done()
	got := out.String()
	if !strings.HasSuffix(got, "\n") || strings.Count(got, "\n") != 2 {
		t.Errorf("want the eval line and one final newline: %q", got)
	}
	if !strings.Contains(got, "\r\x1b[Keval accuracy 0.50\n\r") {
		t.Errorf("Printf did not clear the line, print, and redraw: %q", got)
	}
	last := got[strings.LastIndex(got, "\r")+1:]
	want := "train [==============================] 10/10 loss 1, 1059 examples/s, took 1.9s\x1b[K\n"
	if last != want {
		t.Errorf("last draw %q, want %q", last, want)
	}
	for _, line := range strings.Split(got, "\r") {
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\x1b[K")
		if len(line) > 99 {
			t.Errorf("a line of %d columns on a terminal of 100: %q", len(line), line)
		}
	}

	// A narrow terminal cuts the line rather than wrap it.
	out.Reset()
	o.Width = 40
	narrow := mustNew(t, &out, "on", o)
	narrow.opts.Terminal = true
	narrow.Step(1, 0.25, 1)
	if line := strings.TrimSuffix(strings.TrimPrefix(out.String(), "\r"), "\x1b[K"); len(line) != 39 || !strings.HasPrefix(line, "train [=>        ] 1/10 loss 0.25") {
		t.Errorf("40 columns: %q (%d)", line, len(line))
	}
}

// TestSmoothing: the loss shown is the bias-corrected moving average:
// exact for a constant loss from the first step, between the old and new
// values after a jump; a negative Smoothing shows the raw loss.
func TestSmoothing(t *testing.T) {
	c := newClock()
	bar := mustNew(t, &bytes.Buffer{}, "plain", opts(c, 100))
	if !math.IsNaN(bar.Loss()) || !math.IsNaN(bar.Rate()) {
		t.Errorf("before any step: loss %v, rate %v; want NaN", bar.Loss(), bar.Rate())
	}
	bar.Step(1, 2, 1)
	if bar.Loss() != 2 {
		t.Errorf("after one step of loss 2 the smoothed loss is %v", bar.Loss())
	}
	bar.Step(2, 1, 1)
	// (0.9·0.1·2 + 0.1·1) / (1 − 0.81) = 0.28/0.19
	if got, want := bar.Loss(), 0.28/0.19; math.Abs(got-want) > 1e-12 {
		t.Errorf("smoothed loss %v, want %v", got, want)
	}
	o := opts(c, 100)
	o.Smoothing = -1
	raw := mustNew(t, &bytes.Buffer{}, "plain", o)
	raw.Step(1, 2, 1)
	raw.Step(2, 1, 1)
	if raw.Loss() != 1 {
		t.Errorf("no smoothing: loss %v, want 1", raw.Loss())
	}
}

func TestModes(t *testing.T) {
	c := newClock()
	var out bytes.Buffer
	if bar, err := New(&out, "off", opts(c, 5)); bar != nil || err != nil {
		t.Errorf("off: %v, %v; want a nil Bar", bar, err)
	}
	var none *Bar // a nil Bar does nothing
	none.Step(1, 1, 1)
	none.Printf("x")
	none.Done()
	if _, err := New(&out, "always", opts(c, 5)); err == nil || err.Error() != `progress mode "always": want auto, on, plain or off` {
		t.Errorf("bad mode: %v", err)
	}
	if _, err := New(&out, "auto", opts(c, 0)); err == nil || err.Error() != "progress: total 0 steps: want at least 1" {
		t.Errorf("no steps: %v", err)
	}
	o := opts(c, 5)
	o.Smoothing = 1
	if _, err := New(&out, "auto", o); err == nil {
		t.Error("smoothing 1: no error")
	}
	if out.Len() != 0 {
		t.Errorf("printed %q", out.String())
	}
	if term, _ := Terminal(&out); term {
		t.Error("a buffer is a terminal")
	}
}

func TestFormats(t *testing.T) {
	for d, want := range map[time.Duration]string{
		400 * time.Millisecond: "0.4s", 12 * time.Second: "12s", 83 * time.Second: "1m23s",
		time.Hour + 2*time.Minute + 20*time.Second: "1h02m",
	} {
		if got := fmtDuration(d); got != want {
			t.Errorf("fmtDuration(%v) = %s, want %s", d, got, want)
		}
	}
	if got := fmtRate(2.5e6); got != "2.5M" {
		t.Errorf("fmtRate(2.5e6) = %s", got)
	}
}
