package train

import (
	"encoding/csv"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Point is one step of a training run: its loss and, after an
// evaluation, the accuracy measured then (NaN when there was none).
type Point struct {
	Step     int
	Loss     float64
	Accuracy float64
}

// Curve is a run's points, in step order.
type Curve []Point

// csvHeader is the CSV's first line.
var csvHeader = []string{"step", "loss", "test_accuracy"}

// WriteCSV writes the curve as CSV: a header "step,loss,test_accuracy",
// then a row per step; the accuracy is empty where there was no
// evaluation. Numbers are printed exactly (strconv 'g', -1).
func (c Curve) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	for _, p := range c {
		acc := ""
		if !math.IsNaN(p.Accuracy) {
			acc = strconv.FormatFloat(p.Accuracy, 'g', -1, 64)
		}
		if err := cw.Write([]string{strconv.Itoa(p.Step), strconv.FormatFloat(p.Loss, 'g', -1, 64), acc}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// ReadCSV reads a curve that WriteCSV wrote.
func ReadCSV(r io.Reader) (Curve, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(csvHeader)
	rows, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("train: reading the curve: %w", err)
	}
	if len(rows) == 0 || fmt.Sprint(rows[0]) != fmt.Sprint(csvHeader) {
		return nil, fmt.Errorf("train: reading the curve: want the header %v", csvHeader)
	}
	var c Curve
	for i, row := range rows[1:] {
		var p Point
		var err error
		if p.Step, err = strconv.Atoi(row[0]); err == nil {
			p.Loss, err = strconv.ParseFloat(row[1], 64)
		}
		p.Accuracy = math.NaN()
		if err == nil && row[2] != "" {
			p.Accuracy, err = strconv.ParseFloat(row[2], 64)
		}
		if err != nil {
			return nil, fmt.Errorf("train: reading the curve: line %d: %w", i+2, err)
		}
		c = append(c, p)
	}
	return c, nil
}

// MovingAverage is the loss averaged over window steps centred on each
// step (window rounded up to odd; fewer steps at the ends), which, unlike an exponential average, does not
// lag behind the curve.
func (c Curve) MovingAverage(window int) []float64 {
	half := max(window, 1) / 2
	prefix := make([]float64, len(c)+1)
	for i, p := range c {
		prefix[i+1] = prefix[i] + p.Loss
	}
	out := make([]float64, len(c))
	for i := range c {
		lo, hi := max(i-half, 0), min(i+half+1, len(c))
		out[i] = (prefix[hi] - prefix[lo]) / float64(hi-lo)
	}
	return out
}

// pngDPI is the resolution the plot is drawn at; with it, a length of
// n/pngDPI inches is n pixels.
const pngDPI = 96

// WritePNG draws the curve as a PNG image of width×height pixels: the
// loss of every step (light) and its moving average over a fiftieth of the
// run (dark) against the step; when
// there were evaluations during training, their accuracies in a second
// panel below. The fonts are gonum/plot's built-in ones (Liberation,
// compiled into the binary): nothing is read or downloaded.
func (c Curve) WritePNG(w io.Writer, width, height int, title string) error {
	if width < 100 || height < 100 {
		return fmt.Errorf("train: a plot of %d×%d pixels: want at least 100×100", width, height)
	}
	if len(c) == 0 {
		return fmt.Errorf("train: no points to plot")
	}
	loss := plot.New()
	loss.Title.Text = title
	loss.X.Label.Text = "step"
	loss.Y.Label.Text = "loss"
	loss.Add(plotter.NewGrid())
	raw, smooth := make(plotter.XYs, len(c)), make(plotter.XYs, len(c))
	window := len(c)/100*2 + 1 // odd, about a fiftieth of the run
	for i, s := range c.MovingAverage(window) {
		raw[i] = plotter.XY{X: float64(c[i].Step), Y: c[i].Loss}
		smooth[i] = plotter.XY{X: float64(c[i].Step), Y: s}
	}
	rawLine, err := plotter.NewLine(raw)
	if err != nil {
		return fmt.Errorf("train: plotting the loss: %w", err)
	}
	rawLine.Color = color.RGBA{R: 0x9e, G: 0xc5, B: 0xe8, A: 0xff}
	rawLine.Width = vg.Points(0.5)
	smoothLine, err := plotter.NewLine(smooth)
	if err != nil {
		return fmt.Errorf("train: plotting the loss: %w", err)
	}
	smoothLine.Color = color.RGBA{R: 0x1f, G: 0x4e, B: 0x99, A: 0xff}
	smoothLine.Width = vg.Points(1.5)
	loss.Add(rawLine, smoothLine)
	loss.Legend.Add("loss", rawLine)
	loss.Legend.Add(fmt.Sprintf("mean of %d steps", window), smoothLine)
	loss.Legend.Top = true
	loss.Legend.XOffs, loss.Legend.YOffs = -vg.Points(8), -vg.Points(4)
	loss.Y.Min = 0

	var accXY plotter.XYs
	for _, p := range c {
		if !math.IsNaN(p.Accuracy) {
			accXY = append(accXY, plotter.XY{X: float64(p.Step), Y: p.Accuracy})
		}
	}
	plots := [][]*plot.Plot{{loss}}
	if len(accXY) >= 2 {
		acc := plot.New()
		acc.X.Label.Text = "step"
		acc.Y.Label.Text = "test accuracy"
		acc.Add(plotter.NewGrid())
		l, err := plotter.NewLine(accXY)
		if err != nil {
			return fmt.Errorf("train: plotting the accuracy: %w", err)
		}
		sc, err := plotter.NewScatter(accXY)
		if err != nil {
			return fmt.Errorf("train: plotting the accuracy: %w", err)
		}
		l.Color = color.RGBA{R: 0xc0, G: 0x39, B: 0x2b, A: 0xff}
		sc.Color = l.Color
		acc.Add(l, sc)
		acc.X.Min, acc.X.Max = loss.X.Min, loss.X.Max
		plots = append(plots, []*plot.Plot{acc})
	}

	px := func(n int) vg.Length { return vg.Length(n) * vg.Inch / pngDPI }
	img := vgimg.NewWith(vgimg.UseWH(px(width), px(height)), vgimg.UseDPI(pngDPI), vgimg.UseBackgroundColor(color.White))
	dc := draw.New(img)
	// Align gives the panels data areas of one width, so that their step
	// axes line up.
	tiles := draw.Tiles{Rows: len(plots), Cols: 1, PadY: vg.Points(6), PadRight: vg.Points(16), PadTop: vg.Points(4)}
	for i, row := range plot.Align(plots, tiles, dc) {
		plots[i][0].Draw(row[0])
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w); err != nil {
		return fmt.Errorf("train: writing the PNG: %w", err)
	}
	return nil
}
