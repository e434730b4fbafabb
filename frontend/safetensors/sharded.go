package safetensors

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/stela-ml/stela/ir"
)

// Reader is what a model loader reads tensors from: one File, or the
// shards of a checkpoint that Hugging Face split over several files.
type Reader interface {
	Names() []string
	Info(name string) (Info, error)
	Literal(name string) (*ir.Literal, error)
	Close() error
}

var (
	_ Reader = (*File)(nil)
	_ Reader = (*Sharded)(nil)
)

// Sharded is a checkpoint split over several safetensors files, as
// Hugging Face's save_pretrained writes large models: an index
// (model.safetensors.index.json) whose "weight_map" maps each tensor's
// name to the file, in the index's directory, that holds it.
type Sharded struct {
	index string
	files map[string]*File // by file name
	owner map[string]*File // by tensor name
	names []string
}

// OpenSharded opens the index at path and every shard it names, and
// checks them against each other: each tensor of the weight map must be in
// the file it names, and each tensor of a shard in the weight map (a
// tensor the index does not list, or lists under another file, is an
// error naming it). Shards are opened as Open does, with its checks.
func OpenSharded(path string) (*Sharded, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("safetensors: %w", err)
	}
	var idx struct {
		WeightMap map[string]string `json:"weight_map"`
	}
	if err := json.Unmarshal(b, &idx); err != nil {
		return nil, fmt.Errorf("safetensors: %s: %v", path, err)
	}
	if len(idx.WeightMap) == 0 {
		return nil, fmt.Errorf("safetensors: %s: no \"weight_map\", or an empty one", path)
	}
	s := &Sharded{index: path, files: map[string]*File{}, owner: map[string]*File{}}
	dir := filepath.Dir(path)
	fail := func(err error) (*Sharded, error) {
		s.Close()
		return nil, err
	}
	for name, file := range idx.WeightMap {
		if file == "" || filepath.IsAbs(file) || strings.Contains(file, "..") || strings.ContainsAny(file, `/\`) {
			return fail(fmt.Errorf("safetensors: %s: tensor %q: shard %q is not a file name in the index's directory", path, name, file))
		}
		f := s.files[file]
		if f == nil {
			if f, err = Open(filepath.Join(dir, file)); err != nil {
				return fail(fmt.Errorf("%w (a shard of %s)", err, path))
			}
			s.files[file] = f
		}
		if _, err := f.Info(name); err != nil {
			return fail(fmt.Errorf("safetensors: %s: tensor %q is in shard %s by the index, but that file has no such tensor", path, name, file))
		}
		s.owner[name] = f
		s.names = append(s.names, name)
	}
	for file, f := range s.files {
		for _, name := range f.Names() {
			if s.owner[name] != f {
				return fail(fmt.Errorf("safetensors: %s: shard %s has tensor %q, which the index does not give to it", path, file, name))
			}
		}
	}
	slices.Sort(s.names)
	return s, nil
}

// Names returns the tensors' names over all shards, sorted.
func (s *Sharded) Names() []string { return slices.Clone(s.names) }

// Info describes the named tensor (Offset is within its shard).
func (s *Sharded) Info(name string) (Info, error) {
	f, err := s.shard(name)
	if err != nil {
		return Info{}, err
	}
	return f.Info(name)
}

// Literal copies the named tensor into host memory.
func (s *Sharded) Literal(name string) (*ir.Literal, error) {
	f, err := s.shard(name)
	if err != nil {
		return nil, err
	}
	return f.Literal(name)
}

// Close closes every shard.
func (s *Sharded) Close() error {
	var first error
	for _, f := range s.files {
		if err := f.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// shard is the file that holds the named tensor.
func (s *Sharded) shard(name string) (*File, error) {
	f := s.owner[name]
	if f == nil {
		return nil, fmt.Errorf("safetensors: %s: no tensor %q (the shards have %d: %s)", s.index, name, len(s.names), listNames(s.names))
	}
	return f, nil
}
