// Package progress shows how far a loop of steps (a training run) has
// got: steps done of the total, the loss smoothed, examples per second
// and the time left.
//
// In: a writer (stderr, usually) and, after each step, its loss and
// example count. Out: on a terminal, one line redrawn in place (a
// carriage return, the line, and "erase to the end of line"), at most ten
// times a second; anywhere else (a pipe, a file, a CI log) plain lines,
// one when the first step is done, then one every Options.Every, and one
// at the end, with no control characters at all.
//
// cmd/stela's `stela run --progress` reports stages (trace, compile,
// run), one line each, which is another job; the two share the meaning of
// the auto|on|off modes (Mode).
package progress

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"golang.org/x/term"
)

// Options configure a Bar.
type Options struct {
	// Label starts every line: "train".
	Label string
	// Total is the number of steps (at least 1).
	Total int
	// Terminal redraws one line in place; otherwise the Bar prints plain
	// lines. New sets it from the writer when Mode is auto.
	Terminal bool
	// Width is the terminal's width: a redrawn line is cut to fit, since
	// a wrapped one cannot be redrawn. 0 asks the terminal, else 80.
	Width int
	// Every is the time between plain lines (default 10 s).
	Every time.Duration
	// Smoothing is the weight of the past in the loss shown, an
	// exponential moving average corrected for its start as Adam's
	// moments are: below 1; 0 means the default, 0.9, and a negative
	// value shows each step's own loss.
	Smoothing float64
	// Now is the clock (default time.Now), for tests.
	Now func() time.Time
}

// Mode is when a Bar shows anything: "auto" (a redrawn line on a
// terminal, plain lines elsewhere), "on" (the same), "plain" (plain lines
// even on a terminal) or "off".
type Mode string

// Modes are the valid Modes, in the order a flag's help lists them.
var Modes = []Mode{"auto", "on", "plain", "off"}

// ParseMode checks a --progress flag's value.
func ParseMode(s string) (Mode, error) {
	for _, m := range Modes {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("progress mode %q: want auto, on, plain or off", s)
}

// Bar reports the progress of Total steps. A nil *Bar does nothing, so
// that callers need not check for "off".
type Bar struct {
	w    io.Writer
	opts Options

	start     time.Time // New
	first     time.Time // the first step's end: rates count from here
	firstStep int
	firstEx   int64
	last      time.Time // the last line drawn or printed
	shown     int       // the step it showed
	step      int
	examples  int64
	loss      float64 // the last step's
	avg       float64 // EMA of the loss, before bias correction
	weight    float64 // 1 - Smoothing^k, the correction
	drawn     bool    // a redrawn line is on screen
}

// New makes a Bar writing to w in mode. It returns nil for "off" or a nil
// w, and an error for a bad mode or Total.
func New(w io.Writer, mode Mode, opts Options) (*Bar, error) {
	if _, err := ParseMode(string(mode)); err != nil {
		return nil, err
	}
	if opts.Total < 1 {
		return nil, fmt.Errorf("progress: total %d steps: want at least 1", opts.Total)
	}
	if mode == "off" || w == nil {
		return nil, nil
	}
	term, width := Terminal(w)
	switch mode {
	case "auto", "on":
		opts.Terminal = term
	case "plain":
		opts.Terminal = false
	}
	if opts.Width <= 0 {
		opts.Width = width
	}
	if opts.Width <= 0 {
		opts.Width = 80
	}
	if opts.Every <= 0 {
		opts.Every = 10 * time.Second
	}
	switch s := opts.Smoothing; {
	case s == 0:
		opts.Smoothing = 0.9
	case s < 0:
		opts.Smoothing = 0
	case s >= 1 || math.IsNaN(s):
		return nil, fmt.Errorf("progress: smoothing %g: want below 1", s)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Bar{w: w, opts: opts, start: opts.Now()}, nil
}

// Terminal reports whether w is a terminal, and its width (0 if unknown).
func Terminal(w io.Writer) (bool, int) {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return false, 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return true, 0
	}
	return true, width
}

// Step records that step (from 1) is done, with its loss and the number
// of examples it took, and shows it when it is time to.
func (b *Bar) Step(step int, loss float64, examples int) {
	if b == nil {
		return
	}
	now := b.opts.Now()
	b.step, b.loss = step, loss
	b.examples += int64(examples)
	s := b.opts.Smoothing
	b.avg = s*b.avg + (1-s)*loss
	b.weight = s*b.weight + (1 - s)
	if b.first.IsZero() {
		// The first step compiles: rates count from its end.
		b.first, b.firstStep, b.firstEx = now, step, b.examples
		b.show(now)
		return
	}
	switch {
	case b.opts.Terminal && (now.Sub(b.last) >= 100*time.Millisecond || step >= b.opts.Total):
		b.show(now)
	case !b.opts.Terminal && now.Sub(b.last) >= b.opts.Every:
		b.show(now)
	}
}

// Loss is the smoothed loss shown, NaN before the first step.
func (b *Bar) Loss() float64 {
	if b == nil || b.weight == 0 {
		return math.NaN()
	}
	return b.avg / b.weight
}

// Rate is examples per second since the first step ended, NaN before a
// second step.
func (b *Bar) Rate() float64 {
	if b == nil || b.step <= b.firstStep {
		return math.NaN()
	}
	d := b.opts.Now().Sub(b.first).Seconds()
	if d <= 0 {
		return math.NaN()
	}
	return float64(b.examples-b.firstEx) / d
}

// eta is the time left at the pace since the first step, negative when
// unknown.
func (b *Bar) eta(now time.Time) time.Duration {
	done := b.step - b.firstStep
	if done <= 0 {
		return -1
	}
	per := now.Sub(b.first) / time.Duration(done)
	return per * time.Duration(max(b.opts.Total-b.step, 0))
}

// show draws or prints the current state.
func (b *Bar) show(now time.Time) {
	b.last, b.shown = now, b.step
	if b.opts.Terminal {
		line := b.barLine(now)
		fmt.Fprintf(b.w, "\r%s\x1b[K", line)
		b.drawn = true
		return
	}
	fmt.Fprintln(b.w, b.plainLine(now))
}

// stats is the part of a line after the step counts.
func (b *Bar) stats(now time.Time) string {
	parts := []string{"loss " + fmtLoss(b.Loss())}
	if r := b.Rate(); !math.IsNaN(r) {
		parts = append(parts, fmtRate(r)+" examples/s")
	}
	if b.step >= b.opts.Total {
		parts = append(parts, "took "+fmtDuration(now.Sub(b.start)))
	} else if e := b.eta(now); e >= 0 {
		parts = append(parts, "ETA "+fmtDuration(e))
	} else {
		parts = append(parts, "first step took "+fmtDuration(now.Sub(b.start)))
	}
	return strings.Join(parts, ", ")
}

// plainLine is "train: step 1200/5000 (24%), loss 0.2345, 12345 examples/s, ETA 1m23s".
func (b *Bar) plainLine(now time.Time) string {
	pct := 100 * b.step / b.opts.Total
	return fmt.Sprintf("%sstep %d/%d (%d%%), %s", b.prefix(), b.step, b.opts.Total, pct, b.stats(now))
}

// barLine is "train [=====>      ] 1200/5000 loss 0.2345, 12345 examples/s, ETA 1m23s",
// cut to the terminal's width.
func (b *Bar) barLine(now time.Time) string {
	counts := fmt.Sprintf(" %d/%d ", b.step, b.opts.Total)
	tail := b.stats(now)
	label := ""
	if b.opts.Label != "" {
		label = b.opts.Label + " "
	}
	// The bar takes what is left of the width, 10 to 30 columns.
	room := b.opts.Width - 1 - len(label) - len(counts) - len(tail) - 2
	n := min(max(room, 10), 30)
	filled := n * min(b.step, b.opts.Total) / b.opts.Total
	bar := strings.Repeat("=", filled)
	if filled < n {
		bar += ">" + strings.Repeat(" ", n-filled-1)
	}
	line := label + "[" + bar + "]" + counts + tail
	if w := b.opts.Width - 1; len(line) > w {
		line = line[:w]
	}
	return line
}

func (b *Bar) prefix() string {
	if b.opts.Label == "" {
		return ""
	}
	return b.opts.Label + ": "
}

// Printf prints a line of its own (an evaluation's result, say): above
// the redrawn line on a terminal, which is drawn again below it.
func (b *Bar) Printf(format string, args ...any) {
	if b == nil {
		return
	}
	msg := strings.TrimSuffix(fmt.Sprintf(format, args...), "\n")
	if b.drawn {
		fmt.Fprintf(b.w, "\r\x1b[K%s\n", msg)
		b.show(b.opts.Now())
		return
	}
	fmt.Fprintln(b.w, msg)
}

// Done shows the final state, ending a redrawn line with a newline. It
// prints nothing more when the last step was just shown.
func (b *Bar) Done() {
	if b == nil {
		return
	}
	if b.step > 0 && b.shown != b.step {
		b.show(b.opts.Now())
	}
	if b.drawn {
		fmt.Fprintln(b.w)
		b.drawn = false
	}
}

// fmtLoss has four significant digits.
func fmtLoss(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("%.4g", v)
}

// fmtRate is a whole number below a million: "12345".
func fmtRate(r float64) string {
	if r >= 1e6 {
		return fmt.Sprintf("%.3gM", r/1e6)
	}
	return fmt.Sprintf("%.0f", r)
}

// fmtDuration is "0.4s", "12s", "1m23s", "1h02m".
func fmtDuration(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Round(time.Second).Seconds()))
	case d < time.Hour:
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
	}
	d = d.Round(time.Minute)
	return fmt.Sprintf("%dh%02dm", int(d/time.Hour), int(d%time.Hour/time.Minute))
}
