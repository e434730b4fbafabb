package mnist

import (
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stela-ml/stela/frontend/tensor"
	"github.com/stela-ml/stela/ir"
)

func load(t *testing.T) (train, test *Set) {
	t.Helper()
	train, test, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	return train, test
}

// TestKnownFacts checks the loader against what is known of MNIST: sizes,
// the first labels, the class counts, the pixel range and the mean and
// standard deviation of the training pixels (0.1307 and 0.3081, the
// normalization constants every MNIST tutorial uses).
func TestKnownFacts(t *testing.T) {
	train, test := load(t)
	if train.Len() != TrainSize || test.Len() != TestSize {
		t.Fatalf("sizes %d and %d, want %d and %d", train.Len(), test.Len(), TrainSize, TestSize)
	}
	if got, want := train.Labels()[:10], []int32{5, 0, 4, 1, 9, 2, 1, 3, 1, 4}; !slices.Equal(got, want) {
		t.Errorf("first training labels %v, want %v", got, want)
	}
	if got, want := test.Labels()[:10], []int32{7, 2, 1, 0, 4, 1, 4, 9, 5, 9}; !slices.Equal(got, want) {
		t.Errorf("first test labels %v, want %v", got, want)
	}
	counts := func(s *Set) []int {
		c := make([]int, Classes)
		for i := range s.Len() {
			c[s.Label(i)]++
		}
		return c
	}
	if got, want := counts(train), []int{5923, 6742, 5958, 6131, 5842, 5421, 5918, 6265, 5851, 5949}; !slices.Equal(got, want) {
		t.Errorf("training class counts %v, want %v", got, want)
	}
	if got, want := counts(test), []int{980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009}; !slices.Equal(got, want) {
		t.Errorf("test class counts %v, want %v", got, want)
	}

	var sum, sq float64
	lo, hi := float32(1), float32(0)
	for i := range train.Len() {
		for _, v := range train.Image(i) {
			sum += float64(v)
			sq += float64(v) * float64(v)
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	n := float64(train.Len() * Pixels)
	mean := sum / n
	std := math.Sqrt(sq/n - mean*mean)
	if lo != 0 || hi != 1 {
		t.Errorf("pixels range over [%v, %v], want [0, 1]", lo, hi)
	}
	if math.Abs(mean-0.1307) > 5e-5 || math.Abs(std-0.3081) > 5e-5 {
		t.Errorf("training pixels: mean %.5f, std %.5f; want 0.1307, 0.3081", mean, std)
	}
	// The first training image (a 5) has ink in its middle rows, none in
	// its border.
	img := train.RawImage(0)
	if img[0] != 0 || img[Pixels-1] != 0 || slices.Max(img[14*Cols:15*Cols]) == 0 {
		t.Errorf("first training image: corners %d, %d, max of row 14 %d", img[0], img[Pixels-1], slices.Max(img[14*Cols:15*Cols]))
	}
	// Load returns the same Sets again.
	if train2, test2 := load(t); train2 != train || test2 != test {
		t.Error("a second Load read the files again")
	}
}

// TestBatchLayouts: the three layouts hold the same pixels in their
// shapes; labels and one-hot agree with the set.
func TestBatchLayouts(t *testing.T) {
	if err := tensor.SetDefaultDevice("host"); err != nil {
		t.Fatal(err)
	}
	train, _ := load(t)
	idx := []int{0, 7, 59999}
	want := slices.Concat(train.Image(0), train.Image(7), train.Image(59999))
	for _, tc := range []struct {
		layout Layout
		shape  []int
	}{{Flat, []int{3, 784}}, {NHWC, []int{3, 28, 28, 1}}, {NCHW, []int{3, 1, 28, 28}}} {
		b, err := train.Batch(idx, tc.layout)
		if err != nil {
			t.Fatal(err)
		}
		if got := b.X.Type(); !got.Equal(ir.TensorOf(ir.F32, tc.shape...)) {
			t.Errorf("%v: X is %v, want f32%v", tc.layout, got, tc.shape)
		}
		if !slices.Equal(b.X.Float32s(), want) {
			t.Errorf("%v: pixels differ from Set.Image", tc.layout)
		}
		wantY := []int32{int32(train.Label(0)), int32(train.Label(7)), int32(train.Label(59999))}
		if !b.Labels.Type().Equal(ir.TensorOf(ir.S32, 3)) || !slices.Equal(b.Labels.Int32s(), wantY) || !slices.Equal(b.Y, wantY) {
			t.Errorf("%v: labels %v %v (host %v), want si32 %v", tc.layout, b.Labels.Type(), b.Labels.Int32s(), b.Y, wantY)
		}
		oh := b.OneHot.Float32s()
		if !b.OneHot.Type().Equal(ir.TensorOf(ir.F32, 3, 10)) {
			t.Errorf("%v: one-hot is %v, want f32[3,10]", tc.layout, b.OneHot.Type())
		}
		for k, y := range wantY {
			for c := range Classes {
				if w := float32(0); (c == int(y) && oh[k*10+c] != 1) || (c != int(y) && oh[k*10+c] != w) {
					t.Errorf("%v: one-hot row %d is %v, want a 1 at %d", tc.layout, k, oh[k*10:k*10+10], y)
					break
				}
			}
		}
	}
	for _, bad := range []struct {
		idx    []int
		layout Layout
		want   string
	}{
		{[]int{60000}, Flat, "mnist: train.Batch: index 60000 out of range [0, 60000)"},
		{[]int{-1}, Flat, "mnist: train.Batch: index -1 out of range [0, 60000)"},
		{nil, Flat, "mnist: train.Batch: no indices"},
		{[]int{0}, Layout(7), "mnist: train.Batch: unknown layout Layout(7)"},
	} {
		if _, err := train.Batch(bad.idx, bad.layout); err == nil || err.Error() != bad.want {
			t.Errorf("Batch(%v, %v): %v, want %s", bad.idx, bad.layout, err, bad.want)
		}
	}
}

// TestLoader: a shuffled epoch deals every example once; the same seed
// deals the same batches, another seed and the next epoch other ones;
// the last partial batch is dropped unless KeepLast.
func TestLoader(t *testing.T) {
	if err := tensor.SetDefaultDevice("host"); err != nil {
		t.Fatal(err)
	}
	_, test := load(t)
	small, err := test.Slice(0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if small.Name() != "test[0:1000]" || small.Len() != 1000 || small.Label(0) != 7 {
		t.Errorf("Slice: %s of %d, first label %d", small.Name(), small.Len(), small.Label(0))
	}
	epoch := func(l *Loader) (idx [][]int) {
		for range l.StepsPerEpoch() {
			idx = append(idx, l.Next().Indices)
		}
		return idx
	}
	opts := LoaderOptions{BatchSize: 300, Shuffle: true, Seed: 42}
	l, err := small.Loader(opts)
	if err != nil {
		t.Fatal(err)
	}
	if l.StepsPerEpoch() != 3 || l.Epoch() != 0 {
		t.Fatalf("StepsPerEpoch %d, Epoch %d; want 3, 0", l.StepsPerEpoch(), l.Epoch())
	}
	e0 := epoch(l)
	if l.Epoch() != 1 {
		t.Errorf("after 3 batches Epoch is %d, want 1", l.Epoch())
	}
	e1 := epoch(l)
	seen := map[int]bool{}
	for _, b := range e0 {
		if len(b) != 300 {
			t.Fatalf("a batch of %d, want 300", len(b))
		}
		for _, i := range b {
			if seen[i] || i < 0 || i >= 1000 {
				t.Fatalf("example %d dealt twice or out of range", i)
			}
			seen[i] = true
		}
	}
	if slices.Equal(slices.Concat(e0...), slices.Concat(e1...)) {
		t.Error("epochs 0 and 1 deal the same order")
	}
	if !slices.Equal(slices.Concat(e0...), Permutation(1000, 42, 0)[:900]) {
		t.Error("epoch 0 is not Permutation(1000, 42, 0)")
	}
	l2, _ := small.Loader(opts)
	if again := epoch(l2); !slices.Equal(slices.Concat(again...), slices.Concat(e0...)) {
		t.Error("the same seed dealt another order")
	}
	opts.Seed = 43
	l3, _ := small.Loader(opts)
	if other := epoch(l3); slices.Equal(slices.Concat(other...), slices.Concat(e0...)) {
		t.Error("seeds 42 and 43 dealt the same order")
	}
	// The batch's data are the dealt examples'.
	l4, _ := small.Loader(LoaderOptions{BatchSize: 4, Shuffle: true, Seed: 1})
	b := l4.Next()
	for k, i := range b.Indices {
		if b.Y[k] != int32(small.Label(i)) || !slices.Equal(b.X.Float32s()[k*Pixels:(k+1)*Pixels], small.Image(i)) {
			t.Errorf("batch example %d is not the set's example %d", k, i)
		}
	}

	// Not shuffled, KeepLast: 300, 300, 300, 100, then again from 0.
	l5, _ := small.Loader(LoaderOptions{BatchSize: 300, KeepLast: true})
	var sizes []int
	for range 5 {
		b := l5.Next()
		sizes = append(sizes, b.Size())
		if b.Size() == 100 && b.Indices[0] != 900 {
			t.Errorf("last batch starts at %d, want 900", b.Indices[0])
		}
	}
	if !slices.Equal(sizes, []int{300, 300, 300, 100, 300}) || l5.StepsPerEpoch() != 4 || l5.Epoch() != 1 {
		t.Errorf("KeepLast: sizes %v, %d steps per epoch, epoch %d", sizes, l5.StepsPerEpoch(), l5.Epoch())
	}

	// Batches: in order, the last one smaller.
	var n, batches int
	for b := range small.Batches(256, NHWC) {
		if b.Indices[0] != n {
			t.Errorf("batch %d starts at %d, want %d", batches, b.Indices[0], n)
		}
		n += b.Size()
		batches++
	}
	if n != 1000 || batches != 4 {
		t.Errorf("Batches(256) dealt %d examples in %d batches, want 1000 in 4", n, batches)
	}

	for _, bad := range []LoaderOptions{{BatchSize: 0}, {BatchSize: 1001}, {BatchSize: 1, Layout: -1}} {
		if _, err := small.Loader(bad); err == nil || !strings.HasPrefix(err.Error(), "mnist: test[0:1000].Loader: ") {
			t.Errorf("Loader(%+v): %v", bad, err)
		}
	}
	if _, err := small.Slice(10, 1001); err == nil {
		t.Error("Slice(10, 1001): no error")
	}
}

// TestPermutationIsStable pins the order so that a change of the shuffle
// (which would change every training run's numbers) is noticed.
func TestPermutationIsStable(t *testing.T) {
	p := Permutation(60000, 1, 0)
	got := p[:8]
	t.Logf("Permutation(60000, 1, 0)[:8] = %v", got)
	if want := []int{52669, 16376, 29897, 8850, 42017, 34802, 45348, 19013}; !slices.Equal(got, want) {
		t.Errorf("Permutation(60000, 1, 0)[:8] = %v, want %v", got, want)
	}
	s := slices.Clone(p)
	slices.Sort(s)
	for i, v := range s {
		if v != i {
			t.Fatalf("Permutation(60000, 1, 0) is not a permutation: sorted[%d] = %d", i, v)
		}
	}
}

// TestDir: the files are found beside GoMNIST's source (this test binary
// was built from the module cache or a replace directory) and in the
// module cache computed from the build information, the version in
// go.mod is Version, and $STELA_MNIST_DIR wins, with an error naming it
// when it lacks the files.
func TestDir(t *testing.T) {
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	switch src := sourceDir(); {
	case src == "":
		t.Logf("built with -trimpath: Dir() = %s, from the module cache", dir)
	case dir != filepath.Join(src, "data"):
		t.Errorf("Dir() = %s, want the data directory beside GoMNIST's source %q", dir, src)
	}
	gomod, err := os.ReadFile(filepath.Join("..", "..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(Module) + ` (\S+)`)
	if m := re.FindSubmatch(gomod); m == nil || string(m[1]) != Version {
		t.Errorf("go.mod requires %s at %q, mnist.Version is %s", Module, m, Version)
	}
	if v := moduleVersion(); v != Version {
		t.Errorf("the build information has %s@%s, want %s", Module, v, Version)
	}
	// The module cache path computed from the build information is
	// where the go command put the module.
	found := false
	for _, c := range cacheCandidates() {
		if hasFiles(c) == nil {
			found = true
		}
	}
	if !found {
		t.Errorf("none of the module cache candidates %v holds the files", cacheCandidates())
	}
	if escape(Module) != "github.com/petar/!go!m!n!i!s!t" {
		t.Errorf("escape(%s) = %s", Module, escape(Module))
	}

	t.Setenv(DirEnv, dir)
	if got, err := Dir(); err != nil || got != dir {
		t.Errorf("$%s=%s: Dir() = %s, %v", DirEnv, dir, got, err)
	}
	empty := t.TempDir()
	t.Setenv(DirEnv, empty)
	want := "mnist: $STELA_MNIST_DIR: " + filepath.Join(empty, Files[0]) + ": no such file"
	if _, err := Dir(); err == nil || err.Error() != want {
		t.Errorf("$%s without the files: %v, want %s", DirEnv, err, want)
	}
	if _, _, err := Load(); err == nil || err.Error() != want {
		t.Errorf("Load with $%s without the files: %v, want %s", DirEnv, err, want)
	}
}

// TestLoadDirErrors: files that are not MNIST's are errors naming them.
func TestLoadDirErrors(t *testing.T) {
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	bad := t.TempDir()
	for i, f := range Files {
		src := filepath.Join(dir, f)
		if i == 1 {
			src = filepath.Join(dir, Files[3]) // the test labels as the training labels
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bad, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := "mnist: " + filepath.Join(bad, Files[1]) + " holds 10000 labels, want 60000"
	if _, _, err := LoadDir(bad); err == nil || err.Error() != want {
		t.Errorf("LoadDir with the wrong labels: %v, want %s", err, want)
	}
	// Labels where images belong: GoMNIST's reader rejects the magic number.
	b, _ := os.ReadFile(filepath.Join(dir, Files[1]))
	os.WriteFile(filepath.Join(bad, Files[0]), b, 0o644)
	want = "mnist: reading " + filepath.Join(bad, Files[0]) + ": invalid argument"
	if _, _, err := LoadDir(bad); err == nil || err.Error() != want {
		t.Errorf("LoadDir with labels for images: %v, want %s", err, want)
	}
}
